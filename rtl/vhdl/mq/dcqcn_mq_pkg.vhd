-- SPDX-License-Identifier: MIT
-- dcqcn_mq_pkg: parameters, derived reset values, state records and shared arithmetic of the
-- multi-QP DCQCN block dcqcn_mq (spec-mq 2, 4.2, 5.2, 6.2). VHDL-2008 twin of rtl/mq/*.sv.

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

-- Self-contained (no use of dcqcn_pkg): rtl/vhdl/mq/ is compiled on its own (files.f,
-- scripts/vhdl2verilog.py --top dcqcn_mq_core --src rtl/vhdl/mq).
package dcqcn_mq_pkg is

  -- CLK_FREQ_HZ and LINE_RATE are 32-bit vectors, not integers, as in dcqcn_rl: the legal ranges
  -- (spec-mq 2) end at 2^32 - 1, beyond VHDL's guaranteed (and GHDL's) 32-bit signed integer
  subtype word32_t is std_logic_vector(31 downto 0);

  -- spec-mq 2: default parameters (CLK_FREQ_HZ and LINE_RATE as dcqcn_rl: 32-bit vectors)
  constant MQ_QPS_C         : natural  := 1024;
  constant MQ_MAX_QPS_C     : natural  := 4096;
  constant MQ_CLK_FREQ_HZ_C : word32_t := std_logic_vector(to_unsigned(156_250_000, 32));
  constant MQ_LINE_RATE_C   : word32_t := std_logic_vector(to_unsigned(1_250_000_000, 32));

  -- spec-mq 6.1: AXI4-Lite responses
  constant RESP_OKAY   : std_logic_vector(1 downto 0) := "00";
  constant RESP_DECERR : std_logic_vector(1 downto 0) := "11";

  -- QP numbers are 12 bits at every QPS (spec-mq 3, 9)
  subtype qp_t is unsigned(11 downto 0);

  -- rates, bytes per 1024-cycle window (spec-mq 5.1)
  subtype rate_t is unsigned(23 downto 0);

  -----------------------------------------------------------------------------------------------
  -- Memory widths and field positions (spec-mq 4.2, 5.2)
  -----------------------------------------------------------------------------------------------

  constant CC_BYTE_CNT_W_C  : natural := 64; -- credit [31:0] (signed), stamp [63:32]
  constant GRANT_CNT_W_C    : natural := 8;  -- gcnt
  constant DONE_CNT_W_C     : natural := 8;  -- dcnt
  constant SENT_W_C         : natural := 32; -- sent
  constant REQ_W_C          : natural := 16; -- req_bytes
  constant RATE_W_C         : natural := 48; -- rc [23:0], rt [47:24]
  constant CC_RATE_W_C      : natural := 24; -- cc_rate
  constant ALPHA_W_C        : natural := 26; -- alpha [9:0], alpha_el [25:10]
  constant CNP_MERGE_W_C    : natural := 41; -- merge_el [15:0], dec_pending [16], cnp_el [40:17]
  constant BYTE_COUNTER_W_C : natural := 64; -- byte_cnt [31:0], sent_seen [63:32]
  constant T_BC_W_C         : natural := 41; -- t_stage [7:0], b_stage [15:8], active [16], inc_el [40:17]

  -- The per-QP DCQCN record of one QP (spec-mq 5.2): what the visit reads and writes
  type VisitRecType is record
    rc          : rate_t;
    rt          : rate_t;
    cc_rate     : rate_t;
    alpha       : unsigned(9 downto 0);
    alpha_el    : unsigned(15 downto 0);
    merge_el    : unsigned(15 downto 0);
    dec_pending : std_logic;
    cnp_el      : unsigned(23 downto 0);
    byte_cnt    : unsigned(31 downto 0);
    sent_seen   : unsigned(31 downto 0);
    t_stage     : unsigned(7 downto 0);
    b_stage     : unsigned(7 downto 0);
    active      : std_logic;
    inc_el      : unsigned(23 downto 0);
  end record VisitRecType;

  -- the record as the wv write stream's data (spec-mq 8.2, obs.rs STREAMS: fields from bit 0 up)
  function to_wv (x : VisitRecType) return std_logic_vector;

  -----------------------------------------------------------------------------------------------
  -- State records, one per block (spec-mq 4.2, 6.2); reset values in each architecture
  -----------------------------------------------------------------------------------------------

  -- dcqcn_mq_visit (spec-mq 4.3)
  type VisitRegType is record
    now    : unsigned(31 downto 0);
    scan_q : qp_t;
    init   : std_logic;
  end record VisitRegType;

  -- dcqcn_mq_rr (spec-mq 4.5)
  type RrRegType is record
    rr : qp_t;
  end record RrRegType;

  -- dcqcn_mq_grant (spec-mq 4.5)
  type GrantRegType is record
    gx_valid : std_logic;
    gx_qp    : qp_t;
    pcredit  : signed(31 downto 0);
    g_valid  : std_logic;
    g_qp     : qp_t;
    g_bytes  : unsigned(15 downto 0);
  end record GrantRegType;

  -- dcqcn_mq_rpt (spec-mq 4.6)
  type RptRegType is record
    rx_valid : std_logic;
    rx_qp    : qp_t;
    rx_bytes : unsigned(15 downto 0);
  end record RptRegType;

  -- dcqcn_mq_regs: configuration registers (spec-mq 6.2; the cfg_ names without the prefix)
  type MqCfgType is record
    dcqcn_hw_en         : std_logic;
    hw_rate_throttle_en : std_logic;
    tx_wqe_ost_limit_en : std_logic;
    speed_limiter_en    : std_logic;
    cnp_merge_period    : unsigned(15 downto 0);
    nocnp_timer_th      : unsigned(23 downto 0);
    byte_cnt_th         : unsigned(31 downto 0);
    max_rate            : rate_t;
    alpha_timer_th      : unsigned(15 downto 0);
    upd_alpha_g         : unsigned(9 downto 0);
    alpha_rate_shift    : unsigned(3 downto 0);
    alpha_init          : unsigned(9 downto 0);
    rate_ai             : rate_t;
    rate_hai            : rate_t;
    rate_min            : rate_t;
    stage_threshold     : unsigned(7 downto 0);
    clamp_tgt           : std_logic;
    cnp_timer_thrd      : unsigned(23 downto 0);
    ost_limit           : unsigned(7 downto 0);
    ost_limit_cnp       : unsigned(7 downto 0);
    credit_cap          : unsigned(20 downto 0);
    dfx_en              : std_logic;
    dfx_wrap            : std_logic;
    dfx_sel             : unsigned(5 downto 0);
    dfx_qp              : qp_t;
  end record MqCfgType;

  -- dcqcn_mq_regs: counters (spec-mq 6.2)
  type MqCntType is record
    cnt_cnp               : unsigned(31 downto 0);
    cnt_dec               : unsigned(31 downto 0);
    cnt_inc_fr            : unsigned(31 downto 0);
    cnt_inc_ai            : unsigned(31 downto 0);
    cnt_inc_hai           : unsigned(31 downto 0);
    cnt_inc_timer         : unsigned(31 downto 0);
    cnt_inc_byte          : unsigned(31 downto 0);
    cnt_grant             : unsigned(31 downto 0);
    cnt_grant_bytes       : unsigned(63 downto 0);
    cnt_grant_bytes_latch : unsigned(31 downto 0);
    cnt_req               : unsigned(31 downto 0);
    cnt_req_drop          : unsigned(31 downto 0);
    cnt_rpt               : unsigned(31 downto 0);
    cnt_rpt_spurious      : unsigned(31 downto 0);
    cnt_bad_qp            : unsigned(31 downto 0);
    cnt_init_drop         : unsigned(31 downto 0);
  end record MqCntType;

  -- dcqcn_mq_regs: DFX window registers (spec-mq 5.9)
  type MqDfxType is record
    dfx_count   : unsigned(6 downto 0);
    dfx_wptr    : unsigned(5 downto 0);
    dfx_lost    : std_logic;
    dfx_n_dec   : unsigned(9 downto 0);
    dfx_n_byte  : unsigned(9 downto 0);
    dfx_n_timer : unsigned(9 downto 0);
    dfx_time    : unsigned(31 downto 0);
  end record MqDfxType;

  -- dcqcn_mq_regs (spec-mq 4.2: the window access and AXI response registers; 6.2)
  type MqRegsRegType is record
    wpend  : std_logic;
    wq     : qp_t;
    wword  : unsigned(5 downto 0);
    wdata  : word32_t;
    wstrb  : std_logic_vector(3 downto 0);
    rpend  : std_logic;
    rq     : qp_t;
    rword  : unsigned(5 downto 0);
    bvalid : std_logic;
    bresp  : std_logic_vector(1 downto 0);
    rvalid : std_logic;
    rdata  : word32_t;
    rresp  : std_logic_vector(1 downto 0);
    cfg    : MqCfgType;
    cnt    : MqCntType;
    dfx    : MqDfxType;
  end record MqRegsRegType;

  -- spec-mq 5.9: one DFX entry, type [2:0], both [3], rc [27:4], stamp [59:28]
  subtype dfx_entry_t is std_logic_vector(59 downto 0);

  type DfxMemType is array (0 to 63) of dfx_entry_t;

  -- spec-mq 4.6: the joint outstanding count of one QP
  type JointType is record
    dcnt      : unsigned(7 downto 0); -- dcnt'
    gcnt      : unsigned(7 downto 0); -- gcnt'
    ost_lt_hi : std_logic;
    ost_lt_lo : std_logic;
    spur      : std_logic;            -- a report with nothing outstanding
  end record JointType;

  function joint (
    gcnt          : unsigned(7 downto 0);
    dcnt          : unsigned(7 downto 0);
    clr           : std_logic;
    inc           : std_logic;
    dec           : std_logic;
    ost_limit     : unsigned(7 downto 0);
    ost_limit_cnp : unsigned(7 downto 0)
  )
    return JointType;

  -----------------------------------------------------------------------------------------------
  -- Window words (spec-mq 6.3): word index addr[7:2]
  -----------------------------------------------------------------------------------------------

  constant WIN_CNP_MERGE_C : natural := 16#00# / 4;
  constant WIN_CNP_TIMER_C : natural := 16#04# / 4;
  constant WIN_RATE_C      : natural := 16#08# / 4;
  constant WIN_TARGET_C    : natural := 16#0C# / 4;
  constant WIN_ALPHA_C     : natural := 16#10# / 4;
  constant WIN_BYTE_CNT_C  : natural := 16#18# / 4;
  constant WIN_SENT_SEEN_C : natural := 16#1C# / 4;
  constant WIN_T_BC_C      : natural := 16#20# / 4;
  constant WIN_INC_TIMER_C : natural := 16#24# / 4;
  constant WIN_CC_RATE_C   : natural := 16#28# / 4;
  constant WIN_CREDIT_C    : natural := 16#30# / 4;
  constant WIN_STAMP_C     : natural := 16#34# / 4;
  constant WIN_OST_C       : natural := 16#38# / 4;
  constant WIN_SENT_C      : natural := 16#3C# / 4;
  constant WIN_REQ_C       : natural := 16#40# / 4;
  constant WIN_CTRL_C      : natural := 16#44# / 4;

  -- '1' for a mapped window word, and for a writable one
  function win_mapped (word : unsigned(5 downto 0)) return std_logic;
  function win_writable (word : unsigned(5 downto 0)) return std_logic;

  -----------------------------------------------------------------------------------------------
  -- Parameters (spec-mq 2)
  -----------------------------------------------------------------------------------------------

  -- spec-mq 2: an illegal parameter stops elaboration (assertion, severity failure)
  function mq_check_params (qps : integer; clk_freq_hz : word32_t; line_rate : word32_t) return boolean;

  -- AW = max(1, ceil(log2(QPS))): the memory address width (spec-mq 2, 9)
  function mq_aw (qps : integer) return positive;

  -- LINE_WIN = floor(LINE_RATE * 1024 / CLK_FREQ_HZ), 24 bits (spec-mq 2)
  function mq_line_win (clk_freq_hz : word32_t; line_rate : word32_t) return unsigned;

  -- spec-mq 2: reset values that depend on the clock
  function mq_merge_reset (clk_freq_hz : word32_t) return unsigned;     -- round(4 us x f) mod 2^16
  function mq_alpha_reset (clk_freq_hz : word32_t) return unsigned;     -- round(55 us x f) mod 2^16
  function mq_nocnp_reset (clk_freq_hz : word32_t) return unsigned;     -- round(1.5 ms x f), 24 bits
  function mq_cnp_timer_reset (clk_freq_hz : word32_t) return unsigned; -- round(100 us x f), 24 bits
  -- a rate of mb_x1024 x 10^6 / 1024 bytes/s in bytes per window, round half up (AI, HAI, RMIN)
  function mq_per_window (clk_freq_hz : word32_t; mb_x1024 : natural) return unsigned;

  -----------------------------------------------------------------------------------------------
  -- Arithmetic
  -----------------------------------------------------------------------------------------------

  -- sat_N(a + b) of spec-mq 5.1: a + b saturated at a'length bits
  function sat_add (a : unsigned; b : unsigned) return unsigned;

  -- x > y ? y : x
  function min_u (x : unsigned; y : unsigned) return unsigned;

  function to_sl (b : boolean) return std_logic;

  -- spec-mq 6.1: byte strobes apply lane by lane to the current value
  subtype strb_t is std_logic_vector(3 downto 0);

  function lane_merge (cur : std_logic_vector(31 downto 0); data : word32_t; strb : strb_t) return word32_t;
  function lane_merge (cur : unsigned(31 downto 0); data : word32_t; strb : strb_t) return unsigned;

  -- the decimal digits of x (elaboration messages)
  function to_dec_string (x : unsigned) return string;

  -- q < n for a QP number and a count up to 4096 (13 bits: n = QPS = 4096 does not fit 12)
  function qp_lt (q : unsigned; n : natural) return std_logic;

  -- vec(q), '0' for q outside the vector (a QP >= QPS from an injected state)
  function bit_at (vec : std_logic_vector; q : unsigned) return std_logic;

end package dcqcn_mq_pkg;

package body dcqcn_mq_pkg is

  function joint (
    gcnt          : unsigned(7 downto 0);
    dcnt          : unsigned(7 downto 0);
    clr           : std_logic;
    inc           : std_logic;
    dec           : std_logic;
    ost_limit     : unsigned(7 downto 0);
    ost_limit_cnp : unsigned(7 downto 0)
  )
    return JointType is
    variable ost  : unsigned(7 downto 0);
    variable j    : JointType;
    variable lim  : unsigned(7 downto 0);
    variable limc : unsigned(7 downto 0);
  begin
    ost := gcnt - dcnt;                       -- ost0
    if (clr = '1') then
      ost := (others => '0');                 -- ost1
    end if;
    if (inc = '1' and ost /= x"FF") then
      ost := ost + 1;                         -- ost2, saturating at 255
    end if;
    j.spur := dec and to_sl(ost = 0);
    j.dcnt := dcnt;
    if ((dec and not j.spur) = '1') then
      ost    := ost - 1;                      -- ost3
      j.dcnt := dcnt + 1;
    end if;
    j.gcnt := j.dcnt + ost;
    lim    := ost_limit;
    if (ost_limit = 0) then
      lim := x"01";
    end if;
    limc := ost_limit_cnp;
    if (ost_limit_cnp = 0) then
      limc := x"01";
    end if;
    j.ost_lt_hi := to_sl(ost < lim);
    j.ost_lt_lo := to_sl(ost < limc);
    return j;
  end function joint;

  function to_wv (x : VisitRecType) return std_logic_vector is
  begin
    return std_logic_vector(x.inc_el) & x.active & std_logic_vector(x.b_stage) & std_logic_vector(x.t_stage) &
           std_logic_vector(x.sent_seen) & std_logic_vector(x.byte_cnt) &
           std_logic_vector(x.cnp_el) & x.dec_pending & std_logic_vector(x.merge_el) &
           std_logic_vector(x.alpha_el) & std_logic_vector(x.alpha) &
           std_logic_vector(x.cc_rate) & std_logic_vector(x.rt) & std_logic_vector(x.rc);
  end function to_wv;

  function win_mapped (word : unsigned(5 downto 0)) return std_logic is
    variable w : natural;
  begin
    w := to_integer(word);
    if (w <= WIN_ALPHA_C or (w >= WIN_BYTE_CNT_C and w <= WIN_CC_RATE_C) or
        (w >= WIN_CREDIT_C and w <= WIN_CTRL_C)) then
      return '1';
    end if;
    return '0';
  end function win_mapped;

  function win_writable (word : unsigned(5 downto 0)) return std_logic is
    variable w : natural;
  begin
    w := to_integer(word);
    if (w <= WIN_ALPHA_C or (w >= WIN_BYTE_CNT_C and w <= WIN_CC_RATE_C) or w = WIN_CTRL_C) then
      return '1';
    end if;
    return '0';
  end function win_writable;

  function mq_check_params (qps : integer; clk_freq_hz : word32_t; line_rate : word32_t) return boolean is
    variable lw : unsigned(63 downto 0);
  begin
    assert qps >= 1 and qps <= MQ_MAX_QPS_C
      report "dcqcn_mq: QPS " & integer'image(qps) & " out of range 1..4096"
      severity failure;
    assert unsigned(clk_freq_hz) >= to_unsigned(65_537, 32)
      report "dcqcn_mq: CLK_FREQ_HZ " & to_dec_string(unsigned(clk_freq_hz)) &
             " out of range 65537..4294967295"
      severity failure;
    assert line_rate /= x"00000000"
      report "dcqcn_mq: LINE_RATE 0 out of range 1..4294967295"
      severity failure;
    if (unsigned(clk_freq_hz) >= to_unsigned(65_537, 32)) then
      lw := resize(unsigned(line_rate) * to_unsigned(1024, 32), 64) / resize(unsigned(clk_freq_hz), 64);
      assert std_logic_vector(lw) /= (lw'range => '0') and not (lw >= to_unsigned(16#100_0000#, 64))
        report "dcqcn_mq: LINE_WIN " & to_dec_string(lw) & " out of range 1..16777215"
        severity failure;
    end if;
    return true;
  end function mq_check_params;

  function mq_aw (qps : integer) return positive is
    variable a : positive := 1;
  begin
    while (2 ** a < qps) loop
      a := a + 1;
    end loop;
    return a;
  end function mq_aw;

  function mq_line_win (clk_freq_hz : word32_t; line_rate : word32_t) return unsigned is
    variable lw : unsigned(63 downto 0);
  begin
    lw := resize(unsigned(line_rate) * to_unsigned(1024, 32), 64) / resize(unsigned(clk_freq_hz), 64);
    return lw(23 downto 0);
  end function mq_line_win;

  function mq_nocnp_reset (clk_freq_hz : word32_t) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable x   : unsigned(63 downto 0);
  begin
    x := (resize(F_C * 3, 64) + 1000) / to_unsigned(2000, 64);
    return x(23 downto 0);
  end function mq_nocnp_reset;

  function mq_cnp_timer_reset (clk_freq_hz : word32_t) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable x   : unsigned(63 downto 0);
  begin
    x := (F_C + 5000) / to_unsigned(10_000, 64);
    return x(23 downto 0);
  end function mq_cnp_timer_reset;

  function mq_per_window (clk_freq_hz : word32_t; mb_x1024 : natural) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable x   : unsigned(63 downto 0);
  begin
    x := (to_unsigned(mb_x1024, 32) * to_unsigned(1_000_000, 32) + F_C / to_unsigned(2, 64)) / F_C;
    return x(23 downto 0);
  end function mq_per_window;

  function sat_add (a : unsigned; b : unsigned) return unsigned is
    variable s : unsigned(a'length downto 0);
  begin
    s := resize(a, a'length + 1) + resize(b, a'length + 1);
    if (s(a'length) = '1') then
      return (a'length - 1 downto 0 => '1');
    end if;
    return s(a'length - 1 downto 0);
  end function sat_add;

  function min_u (x : unsigned; y : unsigned) return unsigned is
  begin
    if (x > y) then
      return y;
    end if;
    return x;
  end function min_u;

  function mq_merge_reset (clk_freq_hz : word32_t) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable x   : unsigned(63 downto 0);
  begin
    x := (resize(F_C * 4, 64) + 500_000) / to_unsigned(1_000_000, 64);
    return x(15 downto 0);
  end function mq_merge_reset;

  function mq_alpha_reset (clk_freq_hz : word32_t) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable x   : unsigned(63 downto 0);
  begin
    x := (resize(F_C * 55, 64) + 500_000) / to_unsigned(1_000_000, 64);
    return x(15 downto 0);
  end function mq_alpha_reset;

  function to_sl (b : boolean) return std_logic is
  begin
    if (b) then
      return '1';
    end if;
    return '0';
  end function to_sl;

  function lane_merge (cur : std_logic_vector(31 downto 0); data : word32_t; strb : strb_t) return word32_t is
    variable v : word32_t;
  begin
    for i in 0 to 3 loop
      if (strb(i) = '1') then
        v(8 * i + 7 downto 8 * i) := data(8 * i + 7 downto 8 * i);
      else
        v(8 * i + 7 downto 8 * i) := cur(8 * i + 7 downto 8 * i);
      end if;
    end loop;
    return v;
  end function lane_merge;

  function lane_merge (cur : unsigned(31 downto 0); data : word32_t; strb : strb_t) return unsigned is
  begin
    return unsigned(lane_merge(std_logic_vector(cur), data, strb));
  end function lane_merge;

  function to_dec_string (x : unsigned) return string is
    constant TEN_C : unsigned(x'length - 1 downto 0) := to_unsigned(10, x'length);
    variable q     : unsigned(x'length - 1 downto 0) := x;
    variable d     : natural;
  begin
    -- unsigned-by-unsigned division only: GHDL 2.0 synthesis cannot evaluate mod or "/" by a
    -- natural at elaboration (rtl/vhdl/README.md)
    d := to_integer(resize(q - resize(q / TEN_C * TEN_C, x'length), 4));
    q := q / TEN_C;
    if (q = 0) then
      return integer'image(d);
    end if;
    return to_dec_string(q) & integer'image(d);
  end function to_dec_string;

  function qp_lt (q : unsigned; n : natural) return std_logic is
  begin
    if (resize(q, 13) < to_unsigned(n, 13)) then
      return '1';
    end if;
    return '0';
  end function qp_lt;

  function bit_at (vec : std_logic_vector; q : unsigned) return std_logic is
    variable x : unsigned(vec'length - 1 downto 0);
  begin
    -- a shifter (one cell in GHDL's netlist, not a tree of 4:1 multiplexers); q >= the length
    -- shifts every bit out
    x := shift_right(unsigned(vec), to_integer(q));
    return x(0);
  end function bit_at;

end package body dcqcn_mq_pkg;
