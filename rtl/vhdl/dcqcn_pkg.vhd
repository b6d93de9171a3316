-- SPDX-License-Identifier: MIT
-- dcqcn_pkg: register map, word and state records, parameter checks and shared arithmetic of the
-- DCQCN rate limiter (spec 2, 4.0, 5.1, 6.2, 7). VHDL-2008 twin of rtl/*.sv.

-- The state records of every block live here (not in the architectures) so that a simulation
-- wrapper can name their type in a VHDL-2008 external name (spec 7 lockstep state).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

package dcqcn_pkg is

  -- CLK_FREQ_HZ and LINE_RATE are 32-bit vectors, not integers: the legal ranges (spec 2) end at
  -- 2^32 - 1, beyond VHDL's guaranteed (and GHDL's) 32-bit signed integer.
  subtype word32_t is std_logic_vector(31 downto 0);

  -- spec 2: default parameters
  constant DCQCN_DATA_BYTES_C  : natural  := 8;
  constant DCQCN_CLK_FREQ_HZ_C : word32_t := std_logic_vector(to_unsigned(156_250_000, 32));
  constant DCQCN_LINE_RATE_C   : word32_t := std_logic_vector(to_unsigned(1_250_000_000, 32));

  -----------------------------------------------------------------------------------------------
  -- Register map (spec 6.2), byte addresses as in crates/dcqcn-model/src/regmap.rs
  -----------------------------------------------------------------------------------------------

  -- BEGIN GENERATED addresses: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
  constant ADDR_CONFIG         : natural := 16#000#; -- RW: alpha_g, dec_gain, stage_threshold, clamp_tgt
  constant ADDR_RAI            : natural := 16#004#; -- RW
  constant ADDR_RHAI           : natural := 16#008#; -- RW
  constant ADDR_RMIN           : natural := 16#00C#; -- RW
  constant ADDR_INC_INTERVAL   : natural := 16#010#; -- RW
  constant ADDR_INTERVALS      : natural := 16#014#; -- RW: dec_interval, alpha_interval
  constant ADDR_RC             : natural := 16#018#; -- RO
  constant ADDR_RT             : natural := 16#01C#; -- RO
  constant ADDR_ALPHA_CNP      : natural := 16#020#; -- mixed: alpha (RO), cnp_cnt_clear (W), cnp_cnt16 (RO)
  constant ADDR_BYPASS         : natural := 16#024#; -- RW
  constant ADDR_EXT_CTRL       : natural := 16#100#; -- mixed: timer_en (RW), byte_en (RW), cnt_clear (W)
  constant ADDR_BYTE_THRESHOLD : natural := 16#104#; -- RW
  constant ADDR_CREDIT_CAP     : natural := 16#108#; -- RW
  constant ADDR_ID             : natural := 16#10C#; -- RO: data_bytes, version, magic
  constant ADDR_CREDIT_BYTES   : natural := 16#110#; -- RO
  constant ADDR_CREDIT_FRAC    : natural := 16#114#; -- RO
  constant ADDR_BPC            : natural := 16#118#; -- RO
  constant ADDR_CNT_CNP        : natural := 16#120#; -- RO
  constant ADDR_CNT_DEC        : natural := 16#124#; -- RO
  constant ADDR_CNT_INC_FR     : natural := 16#128#; -- RO
  constant ADDR_CNT_INC_AI     : natural := 16#12C#; -- RO
  constant ADDR_CNT_INC_HAI    : natural := 16#130#; -- RO
  constant ADDR_CNT_INC_TIMER  : natural := 16#134#; -- RO
  constant ADDR_CNT_INC_BYTE   : natural := 16#138#; -- RO
  constant ADDR_CNT_STALL      : natural := 16#13C#; -- RO
  constant ADDR_CNT_BYTES_LO   : natural := 16#140#; -- RO
  constant ADDR_CNT_BYTES_HI   : natural := 16#144#; -- RO: bytes_hi
  constant ADDR_STATUS         : natural := 16#148#; -- RO: t_stage, b_stage, active, dec_pending, alpha_pending
  constant ADDR_RMAX           : natural := 16#150#; -- RW
  constant ADDR_RATE_FIRST_CNP : natural := 16#154#; -- RW
  constant ADDR_RATE_RULES     : natural := 16#158#; -- RW: alpha_init, min_dec_fac, hai_mult
  constant ADDR_CONTROL        : natural := 16#15C#; -- RW: scheme, gate_mask
  constant ADDR_FW_RATE        : natural := 16#160#; -- RW
  constant ADDR_TRACE_CTRL     : natural := 16#170#; -- mixed: trace_en (RW), trace_wrap (RW), trace_clear (W)
  constant ADDR_TRACE_STATUS   : natural := 16#174#; -- RO: trace_count, trace_wptr, trace_lost
  constant ADDR_TRACE_COUNTS   : natural := 16#178#; -- RO: trace_n_dec, trace_n_byte, trace_n_timer
  constant ADDR_TRACE_TIME     : natural := 16#17C#; -- RO
  constant ADDR_TRACE_SEL      : natural := 16#180#; -- RW
  constant ADDR_TRACE_ENTRY    : natural := 16#184#; -- RO: entry_type, entry_both, entry_valid
  constant ADDR_TRACE_RC       : natural := 16#188#; -- RO: entry_rc
  constant ADDR_TRACE_STAMP    : natural := 16#18C#; -- RO: entry_stamp
  -- END GENERATED addresses

  -- spec 6.1: AXI4-Lite responses
  constant RESP_OKAY   : std_logic_vector(1 downto 0) := "00";
  constant RESP_DECERR : std_logic_vector(1 downto 0) := "11";

  -----------------------------------------------------------------------------------------------
  -- Word records (spec 6.2): the read-only fields of the words that hold two or more
  -----------------------------------------------------------------------------------------------

  -- BEGIN GENERATED word-decls: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
  -- 0x020 alpha_cnp: Alpha and CNP count (its read-only fields)
  type AlphaCnpWordType is record
    alpha     : unsigned(9 downto 0);  -- [9:0]
    cnp_cnt16 : unsigned(15 downto 0); -- [26:11]
  end record AlphaCnpWordType;

  -- 0x148 status: Status (its read-only fields)
  type StatusWordType is record
    t_stage       : unsigned(7 downto 0); -- [7:0]
    b_stage       : unsigned(7 downto 0); -- [15:8]
    active        : std_logic;            -- [16]
    dec_pending   : std_logic;            -- [17]
    alpha_pending : std_logic;            -- [18]
  end record StatusWordType;

  -- 0x174 trace_status: Trace status (its read-only fields)
  type TraceStatusWordType is record
    trace_count : unsigned(6 downto 0); -- [6:0]
    trace_wptr  : unsigned(5 downto 0); -- [13:8]
    trace_lost  : std_logic;            -- [16]
  end record TraceStatusWordType;

  -- 0x178 trace_counts: Trace event counts (its read-only fields)
  type TraceCountsWordType is record
    trace_n_dec   : unsigned(9 downto 0); -- [9:0]
    trace_n_byte  : unsigned(9 downto 0); -- [19:10]
    trace_n_timer : unsigned(9 downto 0); -- [29:20]
  end record TraceCountsWordType;

  -- 0x184 trace_entry: Trace entry type (its read-only fields)
  type TraceEntryWordType is record
    entry_type  : unsigned(2 downto 0); -- [2:0]
    entry_both  : std_logic;            -- [3]
    entry_valid : std_logic;            -- [8]
  end record TraceEntryWordType;

  function to_word (w : AlphaCnpWordType) return word32_t;
  function to_word (w : StatusWordType) return word32_t;
  function to_word (w : TraceStatusWordType) return word32_t;
  function to_word (w : TraceCountsWordType) return word32_t;
  function to_word (w : TraceEntryWordType) return word32_t;
  -- END GENERATED word-decls

  -----------------------------------------------------------------------------------------------
  -- State records, one per block (spec 7); the reset values are each architecture's REG_INIT_C
  -----------------------------------------------------------------------------------------------

  -- dcqcn_cnp_sync (spec 4.1)
  type CnpSyncRegType is record
    cnp_meta : std_logic;
    cnp_sync : std_logic;
    cnp_prev : std_logic;
  end record CnpSyncRegType;

  -- dcqcn_rl (spec 4.2, 4.6)
  type RlRegType is record
    rc     : unsigned(31 downto 0);
    rt     : unsigned(31 downto 0);
    active : std_logic;
  end record RlRegType;

  -- dcqcn_alpha (spec 4.3)
  type AlphaRegType is record
    alpha         : unsigned(9 downto 0);
    alpha_timer   : unsigned(15 downto 0);
    alpha_pending : std_logic;
  end record AlphaRegType;

  -- dcqcn_rate_dec (spec 4.4)
  type RateDecRegType is record
    dec_timer   : unsigned(15 downto 0);
    dec_pending : std_logic;
  end record RateDecRegType;

  -- dcqcn_rate_inc (spec 4.5)
  type RateIncRegType is record
    inc_timer : unsigned(31 downto 0);
    byte_cnt  : unsigned(31 downto 0);
    t_stage   : unsigned(7 downto 0);
    b_stage   : unsigned(7 downto 0);
  end record RateIncRegType;

  -- dcqcn_credit_gate (spec 5); m_data / m_keep are sized by DATA_BYTES in the architecture
  type CreditGateRegType is record
    bpc     : unsigned(31 downto 0);
    credit  : unsigned(47 downto 0);
    m_valid : std_logic;
    m_data  : std_logic_vector;
    m_keep  : std_logic_vector;
    m_last  : std_logic;
  end record CreditGateRegType;

  -- dcqcn_regs: configuration registers (spec 6.2, the cfg_ names without the prefix)
  type CfgType is record
    -- BEGIN GENERATED cfg-record: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    alpha_g         : unsigned(9 downto 0);
    dec_gain        : unsigned(3 downto 0);
    stage_threshold : unsigned(7 downto 0);
    clamp_tgt       : std_logic;
    rai             : unsigned(31 downto 0);
    rhai            : unsigned(31 downto 0);
    rmin            : unsigned(31 downto 0);
    inc_interval    : unsigned(31 downto 0);
    dec_interval    : unsigned(15 downto 0);
    alpha_interval  : unsigned(15 downto 0);
    bypass          : std_logic;
    timer_en        : std_logic;
    byte_en         : std_logic;
    byte_threshold  : unsigned(31 downto 0);
    credit_cap      : unsigned(31 downto 0);
    rmax            : unsigned(31 downto 0);
    rate_first_cnp  : unsigned(31 downto 0);
    alpha_init      : unsigned(9 downto 0);
    min_dec_fac     : unsigned(10 downto 0);
    hai_mult        : std_logic;
    scheme          : unsigned(1 downto 0);
    gate_mask       : std_logic;
    fw_rate         : unsigned(31 downto 0);
  -- END GENERATED cfg-record
  end record CfgType;

  -- dcqcn_regs: the event trace's configuration (spec 4.10). A record of its own, not more fields
  -- of CfgType: with them there, GHDL 2.0's synthesis at DATA_BYTES = 64 lost min_dec_fac from the
  -- read of 0x158 (it read 0; 8 and 32 bytes were right; the lockstep's regmap test found it)
  type TraceCfgType is record
    -- BEGIN GENERATED trace-cfg-record: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    trace_en   : std_logic;
    trace_wrap : std_logic;
    trace_sel  : unsigned(5 downto 0);
  -- END GENERATED trace-cfg-record
  end record TraceCfgType;

  -- dcqcn_regs: statistics counters (spec 6.2)
  type CntType is record
    cnp_cnt16     : unsigned(15 downto 0);
    cnt_cnp       : unsigned(31 downto 0);
    cnt_dec       : unsigned(31 downto 0);
    cnt_inc_fr    : unsigned(31 downto 0);
    cnt_inc_ai    : unsigned(31 downto 0);
    cnt_inc_hai   : unsigned(31 downto 0);
    cnt_inc_timer : unsigned(31 downto 0);
    cnt_inc_byte  : unsigned(31 downto 0);
    cnt_stall     : unsigned(31 downto 0);
    cnt_bytes     : unsigned(63 downto 0);
    bytes_hi      : unsigned(31 downto 0);
  end record CntType;

  -- dcqcn_regs: the event trace's registers (spec 4.10), all cleared together by trace_clear
  type TraceType is record
    count   : unsigned(6 downto 0);  -- entries in the window (64 and above: full)
    wptr    : unsigned(5 downto 0);  -- where the next entry is written
    lost    : std_logic;
    time    : unsigned(31 downto 0); -- armed cycles since the clear, saturating
    n_dec   : unsigned(9 downto 0);  -- saturating at 1023
    n_byte  : unsigned(9 downto 0);
    n_timer : unsigned(9 downto 0);
  end record TraceType;

  -- dcqcn_regs: the event trace's storage (spec 4.10), a separate signal of no reset (distributed
  -- RAM); an entry is type [2:0], both [3], rc [35:4], stamp [67:36]
  constant TRACE_DEPTH_C : natural := 64;

  subtype trace_entry_t is std_logic_vector(67 downto 0);

  type TraceMemType is array (0 to TRACE_DEPTH_C - 1) of trace_entry_t;

  -- dcqcn_regs (spec 6)
  type RegsRegType is record
    bvalid    : std_logic;
    bresp     : std_logic_vector(1 downto 0);
    rvalid    : std_logic;
    rdata     : word32_t;
    rresp     : std_logic_vector(1 downto 0);
    cfg       : CfgType;
    cnt       : CntType;
    trace_cfg : TraceCfgType;
    trace     : TraceType;
  end record RegsRegType;

  -- the held words as read: their read/write fields from the configuration record
  -- BEGIN GENERATED held-decls: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
  function word_config (c : CfgType) return word32_t;
  function word_intervals (c : CfgType) return word32_t;
  function word_bypass (c : CfgType) return word32_t;
  function word_ext_ctrl (c : CfgType) return word32_t;
  function word_rate_rules (c : CfgType) return word32_t;
  function word_control (c : CfgType) return word32_t;
  function word_trace_ctrl (c : TraceCfgType) return word32_t;
  function word_trace_sel (c : TraceCfgType) return word32_t;
  -- END GENERATED held-decls

  -----------------------------------------------------------------------------------------------
  -- Parameters (spec 2)
  -----------------------------------------------------------------------------------------------

  -- Checks the generics that `unit` has (a negative DATA_BYTES means "not a generic of unit") and
  -- stops the elaboration with a message naming the first illegal one; returns true otherwise.
  -- Call it from a constant declaration so that it runs at elaboration.
  function dcqcn_check_params (
    unit        : string;
    data_bytes  : integer;
    clk_freq_hz : word32_t;
    line_rate   : word32_t;
    check_clk   : boolean;
    check_line  : boolean
  )
    return boolean;

  -- spec 2: the same for the event trace's depth (0: absent, or 64)
  function dcqcn_check_trace_depth (unit : string; trace_depth : natural) return boolean;

  -- K = round(2^48 / f), < 2^32 for f >= 65537
  function dcqcn_k (clk_freq_hz : word32_t) return unsigned;

  -- spec 5.1: bpc(R) = floor(R * K / 2^32), Q16.16 bytes per clock
  function dcqcn_bpc (rate : unsigned(31 downto 0); k : unsigned(31 downto 0)) return unsigned;

  -- spec 2: interval reset values
  function dcqcn_rate_inc_reset (clk_freq_hz : word32_t) return unsigned; -- round(1.5 ms x f), 32 bits
  function dcqcn_rate_dec_reset (clk_freq_hz : word32_t) return unsigned; -- round(4 us x f) mod 2^16
  function dcqcn_alpha_reset (clk_freq_hz : word32_t) return unsigned;    -- round(55 us x f) mod 2^16

  -- spec 6.2: ID = 0xDCC1, version 1, DATA_BYTES
  function dcqcn_id_word (data_bytes : natural) return word32_t;

  -----------------------------------------------------------------------------------------------
  -- Shared helpers (spec 4.0, 5.3, 6.1)
  -----------------------------------------------------------------------------------------------

  -- spec 4.0: expired(timer, interval) = timer + 1 >= interval with one extra bit (interval 0
  -- behaves as 1, the timer never wraps); timer and interval of the same width
  function expired (timer : unsigned; interval : unsigned) return std_logic;

  -- spec 5.3: popcount(tkeep) as a 7-bit count (DATA_BYTES <= 64)
  function popcount (keep : std_logic_vector) return unsigned;

  -- spec 6.1: byte lane i of the word is written only if strb(i) = 1
  function lane_merge (
    cur  : std_logic_vector(31 downto 0);
    data : std_logic_vector(31 downto 0);
    strb : std_logic_vector(3 downto 0)
  )
    return std_logic_vector;

  -- the same on a 32-bit register value
  function lane_merge (
    cur  : unsigned(31 downto 0);
    data : std_logic_vector(31 downto 0);
    strb : std_logic_vector(3 downto 0)
  )
    return unsigned;

  -- spec 6.1: the word index addr[11:2] of an AXI4-Lite address (addr[1:0] ignored), and of a
  -- register map byte address ADDR_*; 10 bits
  subtype word_index_t is unsigned(9 downto 0);

  function word_index (addr : std_logic_vector(11 downto 0)) return word_index_t;
  function word_index (byte_addr : natural) return word_index_t;

  -- '1' when b is true
  function to_sl (b : boolean) return std_logic;

  -- decimal text of an unsigned value (elaboration messages; values above 2^31 included)
  function to_dec_string (x : unsigned) return string;

end package dcqcn_pkg;

package body dcqcn_pkg is

  -- BEGIN GENERATED word-bodies: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
  function to_word (w : AlphaCnpWordType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(9 downto 0)   := std_logic_vector(w.alpha);
    v(26 downto 11) := std_logic_vector(w.cnp_cnt16);
    return v;
  end function to_word;

  function to_word (w : StatusWordType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(7 downto 0)  := std_logic_vector(w.t_stage);
    v(15 downto 8) := std_logic_vector(w.b_stage);
    v(16)          := w.active;
    v(17)          := w.dec_pending;
    v(18)          := w.alpha_pending;
    return v;
  end function to_word;

  function to_word (w : TraceStatusWordType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(6 downto 0)  := std_logic_vector(w.trace_count);
    v(13 downto 8) := std_logic_vector(w.trace_wptr);
    v(16)          := w.trace_lost;
    return v;
  end function to_word;

  function to_word (w : TraceCountsWordType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(9 downto 0)   := std_logic_vector(w.trace_n_dec);
    v(19 downto 10) := std_logic_vector(w.trace_n_byte);
    v(29 downto 20) := std_logic_vector(w.trace_n_timer);
    return v;
  end function to_word;

  function to_word (w : TraceEntryWordType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(2 downto 0) := std_logic_vector(w.entry_type);
    v(3)          := w.entry_both;
    v(8)          := w.entry_valid;
    return v;
  end function to_word;

  function word_config (c : CfgType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(9 downto 0)   := std_logic_vector(c.alpha_g);
    v(13 downto 10) := std_logic_vector(c.dec_gain);
    v(21 downto 14) := std_logic_vector(c.stage_threshold);
    v(22)           := c.clamp_tgt;
    return v;
  end function word_config;

  function word_intervals (c : CfgType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(15 downto 0)  := std_logic_vector(c.dec_interval);
    v(31 downto 16) := std_logic_vector(c.alpha_interval);
    return v;
  end function word_intervals;

  function word_bypass (c : CfgType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(0) := c.bypass;
    return v;
  end function word_bypass;

  function word_ext_ctrl (c : CfgType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(0) := c.timer_en;
    v(1) := c.byte_en;
    return v;
  end function word_ext_ctrl;

  function word_rate_rules (c : CfgType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(9 downto 0)   := std_logic_vector(c.alpha_init);
    v(26 downto 16) := std_logic_vector(c.min_dec_fac);
    v(28)           := c.hai_mult;
    return v;
  end function word_rate_rules;

  function word_control (c : CfgType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(1 downto 0) := std_logic_vector(c.scheme);
    v(8)          := c.gate_mask;
    return v;
  end function word_control;

  function word_trace_ctrl (c : TraceCfgType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(0) := c.trace_en;
    v(1) := c.trace_wrap;
    return v;
  end function word_trace_ctrl;

  function word_trace_sel (c : TraceCfgType) return word32_t is
    variable v : word32_t := (others => '0');
  begin
    v(5 downto 0) := std_logic_vector(c.trace_sel);
    return v;
  end function word_trace_sel;

  -- END GENERATED word-bodies

  function dcqcn_check_params (
    unit        : string;
    data_bytes  : integer;
    clk_freq_hz : word32_t;
    line_rate   : word32_t;
    check_clk   : boolean;
    check_line  : boolean
  )
    return boolean is
  begin
    -- spec 2: illegal parameters are an elaboration error
    assert data_bytes < 0 or (data_bytes >= 1 and data_bytes <= 64)
      report unit & ": DATA_BYTES " & integer'image(data_bytes) & " out of range 1..64"
      severity failure;
    assert not check_clk or unsigned(clk_freq_hz) >= to_unsigned(65_537, 32)
      report unit & ": CLK_FREQ_HZ " & to_dec_string(unsigned(clk_freq_hz)) &
             " out of range 65537..4294967295"
      severity failure;
    assert not check_line or line_rate /= x"00000000"
      report unit & ": LINE_RATE 0 out of range 1..4294967295"
      severity failure;
    return true;
  end function dcqcn_check_params;

  function dcqcn_check_trace_depth (unit : string; trace_depth : natural) return boolean is
  begin
    assert trace_depth = 0 or trace_depth = TRACE_DEPTH_C
      report unit & ": TRACE_DEPTH " & integer'image(trace_depth) & " out of range 0 or 64"
      severity failure;
    return true;
  end function dcqcn_check_trace_depth;

  function dcqcn_k (clk_freq_hz : word32_t) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable k   : unsigned(63 downto 0);
  begin
    -- spec 2: K = floor((2^48 + floor(f / 2)) / f), integer arithmetic on 64 bits
    k := (shift_left(to_unsigned(1, 64), 48) + shift_right(F_C, 1)) / F_C;
    return k(31 downto 0);
  end function dcqcn_k;

  function dcqcn_bpc (rate : unsigned(31 downto 0); k : unsigned(31 downto 0)) return unsigned is
    variable prod_lo : unsigned(48 downto 0);
    variable prod_hi : unsigned(46 downto 0);
  begin
    -- Rc * K < 2^64, formed from 17-bit-aligned halves of Rc (the DSP48 B-port width and cascade
    -- shift, as in the SV); bpc keeps the upper half, floor(.../2^32)
    prod_lo := rate(16 downto 0) * k;
    prod_hi := rate(31 downto 17) * k + resize(prod_lo(48 downto 17), 47);
    return prod_hi(46 downto 15);
  end function dcqcn_bpc;

  function dcqcn_rate_inc_reset (clk_freq_hz : word32_t) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable x   : unsigned(63 downto 0);
  begin
    x := (resize(F_C * 3, 64) + 1000) / to_unsigned(2000, 64);
    return x(31 downto 0);
  end function dcqcn_rate_inc_reset;

  function dcqcn_rate_dec_reset (clk_freq_hz : word32_t) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable x   : unsigned(63 downto 0);
  begin
    x := (resize(F_C * 4, 64) + 500_000) / to_unsigned(1_000_000, 64);
    return x(15 downto 0);
  end function dcqcn_rate_dec_reset;

  function dcqcn_alpha_reset (clk_freq_hz : word32_t) return unsigned is
    constant F_C : unsigned(63 downto 0) := resize(unsigned(clk_freq_hz), 64);
    variable x   : unsigned(63 downto 0);
  begin
    x := (resize(F_C * 55, 64) + 500_000) / to_unsigned(1_000_000, 64);
    return x(15 downto 0);
  end function dcqcn_alpha_reset;

  function dcqcn_id_word (data_bytes : natural) return word32_t is
  begin
    return x"DCC1" & x"01" & std_logic_vector(to_unsigned(data_bytes mod 256, 8));
  end function dcqcn_id_word;

  function expired (timer : unsigned; interval : unsigned) return std_logic is
  begin
    return to_sl(resize(timer, timer'length + 1) + 1 >= resize(interval, timer'length + 1));
  end function expired;

  function popcount (keep : std_logic_vector) return unsigned is
    variable n : unsigned(6 downto 0) := (others => '0');
  begin
    -- the bits added (one sum for Yosys), not a conditional increment (a multiplexer per bit),
    -- from bit 0 up as the SV adds them (the same chain of adders for the equivalence proof)
    for i in keep'reverse_range loop
      n := n + unsigned'(0 => keep(i));
    end loop;
    return n;
  end function popcount;

  function lane_merge (
    cur  : std_logic_vector(31 downto 0);
    data : std_logic_vector(31 downto 0);
    strb : std_logic_vector(3 downto 0)
  )
    return std_logic_vector is
    variable v : std_logic_vector(31 downto 0);
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

  function lane_merge (
    cur  : unsigned(31 downto 0);
    data : std_logic_vector(31 downto 0);
    strb : std_logic_vector(3 downto 0)
  )
    return unsigned is
  begin
    return unsigned(lane_merge(std_logic_vector(cur), data, strb));
  end function lane_merge;

  function word_index (addr : std_logic_vector(11 downto 0)) return word_index_t is
  begin
    return unsigned(addr(11 downto 2));
  end function word_index;

  function word_index (byte_addr : natural) return word_index_t is
  begin
    return to_unsigned(byte_addr / 4, 10);
  end function word_index;

  function to_sl (b : boolean) return std_logic is
  begin
    if (b) then
      return '1';
    end if;
    return '0';
  end function to_sl;

  function to_dec_string (x : unsigned) return string is
    constant TEN_C : unsigned(x'length - 1 downto 0) := to_unsigned(10, x'length);
    variable q     : unsigned(x'length - 1 downto 0) := x;
    variable d     : natural;
  begin
    -- unsigned-by-unsigned division only: GHDL 2.0 synthesis cannot evaluate mod or "/" by a natural
    d := to_integer(resize(q - resize(q / TEN_C * TEN_C, x'length), 4));
    q := q / TEN_C;
    if (q = 0) then
      return integer'image(d);
    end if;
    return to_dec_string(q) & integer'image(d);
  end function to_dec_string;

end package body dcqcn_pkg;
