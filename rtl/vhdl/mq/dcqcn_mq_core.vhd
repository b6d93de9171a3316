-- SPDX-License-Identifier: MIT
-- dcqcn_mq_core: the multi-QP DCQCN block (spec-mq 1-7) with its observation outputs (spec-mq 8,
-- crates/dcqcn-model/src/mq/obs.rs).
--
-- It holds the seven per-QP bitmaps (spec-mq 4.2), the request input (4.4), the CNP input (5.3)
-- and every memory copy (4.2, 4.8), and connects the processes: the visit (dcqcn_mq_visit), the
-- grant process with its picker (dcqcn_mq_grant), the report process (dcqcn_mq_rpt) and the
-- register file (dcqcn_mq_regs). Each memory has one writing process; each (memory, reading
-- process) pair is one dcqcn_mq_mem instance u_<memory>_<reader>, read one cycle ahead (4.8).
--
-- The obs_* outputs are pure wiring from the registers (S(t)) and from the memories' write ports
-- of cycle t; the top dcqcn_mq leaves them open.

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_mq_pkg.all;

-- QPS is a natural so that 0 reaches the parameter check (spec-mq 2); CLK_FREQ_HZ and LINE_RATE
-- are 32-bit vectors as in dcqcn_rl (rtl/vhdl/README.md).
entity dcqcn_mq_core is
  generic (
    QPS         : natural                       := MQ_QPS_C;         -- queue pairs (1..4096)
    CLK_FREQ_HZ : std_logic_vector(31 downto 0) := MQ_CLK_FREQ_HZ_C; -- Hz (65537..4294967295)
    LINE_RATE   : std_logic_vector(31 downto 0) := MQ_LINE_RATE_C    -- bytes/s (1..4294967295)
  );
  port (
    -- Clock and synchronous reset (active high)
    clk            : in    std_logic;
    rst            : in    std_logic;
    -- Work requests (spec-mq 4.4)
    s_req_valid    : in    std_logic;
    s_req_qp       : in    std_logic_vector(11 downto 0);
    s_req_bytes    : in    std_logic_vector(15 downto 0);
    -- CNP events (spec-mq 5.3)
    s_cnp_valid    : in    std_logic;
    s_cnp_qp       : in    std_logic_vector(11 downto 0);
    -- Sent-byte reports (spec-mq 4.6)
    s_rpt_valid    : in    std_logic;
    s_rpt_qp       : in    std_logic_vector(11 downto 0);
    s_rpt_bytes    : in    std_logic_vector(15 downto 0);
    -- Grants (spec-mq 4.5)
    grant_pause    : in    std_logic;
    m_grant_valid  : out   std_logic;
    m_grant_qp     : out   std_logic_vector(11 downto 0);
    m_grant_bytes  : out   std_logic_vector(15 downto 0);
    -- AXI4-Lite slave: write
    s_axil_awaddr  : in    std_logic_vector(20 downto 0);
    s_axil_awvalid : in    std_logic;
    s_axil_awready : out   std_logic;
    s_axil_wdata   : in    std_logic_vector(31 downto 0);
    s_axil_wstrb   : in    std_logic_vector(3 downto 0);
    s_axil_wvalid  : in    std_logic;
    s_axil_wready  : out   std_logic;
    s_axil_bresp   : out   std_logic_vector(1 downto 0);
    s_axil_bvalid  : out   std_logic;
    s_axil_bready  : in    std_logic;
    -- AXI4-Lite slave: read
    s_axil_araddr  : in    std_logic_vector(20 downto 0);
    s_axil_arvalid : in    std_logic;
    s_axil_arready : out   std_logic;
    s_axil_rdata   : out   std_logic_vector(31 downto 0);
    s_axil_rresp   : out   std_logic_vector(1 downto 0);
    s_axil_rvalid  : out   std_logic;
    s_axil_rready  : in    std_logic;
    -- Observation (spec-mq 8; layout: crates/dcqcn-model/src/mq/obs.rs)
    obs_state      : out   std_logic_vector(1193 downto 0);
    obs_bitmaps    : out   std_logic_vector(7 * QPS - 1 downto 0);
    obs_writes     : out   std_logic_vector(496 downto 0)
  );
end entity dcqcn_mq_core;

architecture rtl of dcqcn_mq_core is

  -- spec-mq 2: illegal parameters are an elaboration error (checked before anything uses them)
  constant PARAMS_OK_C : boolean := mq_check_params(QPS, CLK_FREQ_HZ, LINE_RATE);

  constant NQ_C       : positive := QPS;                                             -- QPS >= 1 from here on
  constant AW_C       : positive := mq_aw(QPS);
  constant LINE_WIN_C : natural  := to_integer(mq_line_win(CLK_FREQ_HZ, LINE_RATE)); -- spec-mq 2

  subtype bitmap_t is std_logic_vector(NQ_C - 1 downto 0);

  -- spec-mq 4.2: the bitmaps, one flip-flop per QP
  type BitmapsType is record
    req_valid : bitmap_t;
    rate_ok   : bitmap_t;
    ost_lt_hi : bitmap_t;
    ost_lt_lo : bitmap_t;
    lim8      : bitmap_t;
    cnp_flag  : bitmap_t;
    arb_mask  : bitmap_t;
  end record BitmapsType;

  constant REG_INIT_C : BitmapsType := (
    req_valid => (others => '0'),
    rate_ok   => (others => '1'),
    ost_lt_hi => (others => '1'),
    ost_lt_lo => (others => '1'),
    lim8      => (others => '0'),
    cnp_flag  => (others => '0'),
    arb_mask  => (others => '0'));

  signal r   : BitmapsType := REG_INIT_C;
  signal rin : BitmapsType;

  -- '1' at bit q of an NQ_C-bit vector (none for q >= QPS): a 32-bit shifter on q[4:0] placed in
  -- the 32-bit group q[11:5], so GHDL's netlist has one compare and one 32-bit multiplexer per
  -- group and stays vector operations (the twin under Verilator as fast as before). An NQ_C-bit
  -- shift of a 1 took the flattened block to 32164 LUT against the SystemVerilog's 29839 at QPS
  -- 1024; the groups give 27371 (synth_xilinx -flatten -abc9, scripts/synth_mq.py).
  function onehot (q : qp_t) return bitmap_t is
    constant NG_C : positive := (NQ_C + 31) / 32;
    variable lo   : std_logic_vector(31 downto 0);
    variable x    : std_logic_vector(32 * NG_C - 1 downto 0);
  begin
    lo := std_logic_vector(shift_left(to_unsigned(1, 32), to_integer(q(4 downto 0))));
    for h in 0 to NG_C - 1 loop
      if (q(11 downto 5) = h) then
        x(32 * h + 31 downto 32 * h) := lo;
      else
        x(32 * h + 31 downto 32 * h) := (others => '0');
      end if;
    end loop;
    return x(NQ_C - 1 downto 0);
  end function onehot;

  -- every bit of a bitmap: s
  function all_bits (s : std_logic) return bitmap_t is
  begin
    return (bitmap_t'range => s);
  end function all_bits;

  -- x with the bits of mask replaced by b
  function put_bits (x : bitmap_t; mask : bitmap_t; b : std_logic) return bitmap_t is
  begin
    return (x and not mask) or (mask and all_bits(b));
  end function put_bits;

  -- Configuration, registers of the register file
  signal cfg      : MqCfgType;
  signal capq     : unsigned(30 downto 0); -- CAPQ = max(cfg_credit_cap, 1) * 1024 (spec-mq 2)
  signal regs_st  : MqRegsRegType;
  signal wpend    : std_logic;
  signal wq       : qp_t;
  signal wword    : unsigned(5 downto 0);
  signal wdata    : word32_t;
  signal wstrb    : std_logic_vector(3 downto 0);
  signal wclr     : std_logic;
  signal aclr     : std_logic;
  signal aclr_q   : qp_t;
  signal rpend    : std_logic;
  signal rq       : qp_t;
  signal rword    : unsigned(5 downto 0);
  signal dfx_rec  : std_logic;
  signal dfx_wptr : unsigned(5 downto 0);
  signal dfx_ent  : dfx_entry_t;

  -- Visit (spec-mq 4.3, 5.4)
  signal visit_st    : VisitRegType;
  signal next_scan   : qp_t;
  signal visit_we    : std_logic;
  signal visit_rec   : VisitRecType;
  signal v_qp        : qp_t;
  signal init_visit  : std_logic;
  signal qp_clear_v  : std_logic;
  signal norm_visit  : std_logic;
  signal wake        : std_logic;
  signal lim_clr     : std_logic;
  signal arb_we      : std_logic;
  signal arb_val     : std_logic;
  signal win_wr_done : std_logic;
  signal win_wr_err  : std_logic;
  signal win_rd_done : std_logic;
  signal win_rd_err  : std_logic;
  signal win_rdata   : word32_t;
  signal ev_dec      : std_logic;
  signal ev_inc      : std_logic;
  signal ev_tf       : std_logic;
  signal ev_bf       : std_logic;
  signal ev_fr       : std_logic;
  signal ev_ai       : std_logic;
  signal ev_hai      : std_logic;
  signal ev_rc       : rate_t;

  -- Grant process (spec-mq 4.5)
  signal grant_st          : GrantRegType;
  signal rr_st             : RrRegType;
  signal pick_valid        : std_logic;
  signal pick_qp           : qp_t;
  signal gexec             : std_logic;
  signal gexec_bytes       : unsigned(15 downto 0);
  signal gexec_rate_ok     : std_logic;
  signal gexec_ost_hi      : std_logic;
  signal gexec_ost_lo      : std_logic;
  signal clr_ost_hi        : std_logic;
  signal clr_ost_lo        : std_logic;
  signal g_mem_we          : std_logic;
  signal g_mem_qp          : qp_t;
  signal g_mem_cc_byte_cnt : std_logic_vector(CC_BYTE_CNT_W_C - 1 downto 0);
  signal g_mem_gcnt        : std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
  signal grant_valid       : std_logic;
  signal grant_qp          : qp_t;
  signal grant_bytes       : unsigned(15 downto 0);

  -- Report process (spec-mq 4.6)
  signal rpt_st        : RptRegType;
  signal rexec         : std_logic;
  signal rexec_spur    : std_logic;
  signal rexec_ost_hi  : std_logic;
  signal rexec_ost_lo  : std_logic;
  signal rpt_bad_qp    : std_logic;
  signal rpt_init_drop : std_logic;
  signal r_mem_we      : std_logic;
  signal r_mem_qp      : qp_t;
  signal r_mem_dcnt    : std_logic_vector(DONE_CNT_W_C - 1 downto 0);
  signal r_mem_sent    : std_logic_vector(SENT_W_C - 1 downto 0);

  -- Request and CNP inputs (spec-mq 4.4, 5.3)
  signal req_accept   : std_logic;
  signal req_drop     : std_logic;
  signal cnp_accept   : std_logic;
  signal ev_bad_qp    : unsigned(1 downto 0);
  signal ev_init_drop : unsigned(1 downto 0);

  -- Memory read data (spec-mq 4.2, 5.2): <memory>_<reader>
  signal cc_byte_cnt_grant  : std_logic_vector(CC_BYTE_CNT_W_C - 1 downto 0);
  signal cc_byte_cnt_visit  : std_logic_vector(CC_BYTE_CNT_W_C - 1 downto 0);
  signal gcnt_grant         : std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
  signal gcnt_rpt           : std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
  signal gcnt_visit         : std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
  signal dcnt_rpt           : std_logic_vector(DONE_CNT_W_C - 1 downto 0);
  signal dcnt_grant         : std_logic_vector(DONE_CNT_W_C - 1 downto 0);
  signal dcnt_visit         : std_logic_vector(DONE_CNT_W_C - 1 downto 0);
  signal sent_rpt           : std_logic_vector(SENT_W_C - 1 downto 0);
  signal sent_visit         : std_logic_vector(SENT_W_C - 1 downto 0);
  signal req_bytes_grant    : std_logic_vector(REQ_W_C - 1 downto 0);
  signal req_bytes_visit    : std_logic_vector(REQ_W_C - 1 downto 0);
  signal cc_rate_grant      : std_logic_vector(CC_RATE_W_C - 1 downto 0);
  signal cc_rate_visit      : std_logic_vector(CC_RATE_W_C - 1 downto 0);
  signal rate_visit         : std_logic_vector(RATE_W_C - 1 downto 0);
  signal alpha_visit        : std_logic_vector(ALPHA_W_C - 1 downto 0);
  signal cnp_merge_visit    : std_logic_vector(CNP_MERGE_W_C - 1 downto 0);
  signal byte_counter_visit : std_logic_vector(BYTE_COUNTER_W_C - 1 downto 0);
  signal t_bc_visit         : std_logic_vector(T_BC_W_C - 1 downto 0);

  -- The visit's record writes (spec-mq 5.2)
  signal rate_wd         : std_logic_vector(RATE_W_C - 1 downto 0);
  signal cc_rate_wd      : std_logic_vector(CC_RATE_W_C - 1 downto 0);
  signal alpha_wd        : std_logic_vector(ALPHA_W_C - 1 downto 0);
  signal cnp_merge_wd    : std_logic_vector(CNP_MERGE_W_C - 1 downto 0);
  signal byte_counter_wd : std_logic_vector(BYTE_COUNTER_W_C - 1 downto 0);
  signal t_bc_wd         : std_logic_vector(T_BC_W_C - 1 downto 0);

  -- Memory addresses (AW bits, spec-mq 9)
  signal scan_a  : unsigned(AW_C - 1 downto 0);
  signal nscan_a : unsigned(AW_C - 1 downto 0);
  signal pick_a  : unsigned(AW_C - 1 downto 0);
  signal rpt_a   : unsigned(AW_C - 1 downto 0);
  signal req_a   : unsigned(AW_C - 1 downto 0);
  signal g_a     : unsigned(AW_C - 1 downto 0);
  signal r_a     : unsigned(AW_C - 1 downto 0);

begin

  capq <= (cfg.credit_cap & "0000000000") when cfg.credit_cap /= 0 else
          to_unsigned(1024, 31);

  -- spec-mq 4.4, 5.3: the request and CNP inputs, and the bitmaps with every writer of a bit and
  -- its precedence (spec-mq 4.7, 5.8: later lines win)
  comb : process (all) is
    variable v        : BitmapsType;
    variable req_q    : qp_t;
    variable cnp_q    : qp_t;
    variable req_in   : std_logic;
    variable cnp_in   : std_logic;
    variable req_full : std_logic;
    variable accept   : std_logic;
    variable cnp_ok   : std_logic;
    variable at_v     : bitmap_t;
    variable m_clr    : bitmap_t;
    variable m_rx     : bitmap_t;
    variable m_gx     : bitmap_t;
    variable m_pick   : bitmap_t;
    variable m_req    : bitmap_t;
    variable m_cnp    : bitmap_t;
  begin
    v := r;

    req_q    := unsigned(s_req_qp);
    cnp_q    := unsigned(s_cnp_qp);
    req_in   := qp_lt(req_q, QPS);
    cnp_in   := qp_lt(cnp_q, QPS);
    req_full := bit_at(r.req_valid, req_q);
    accept   := not rst and s_req_valid and req_in and not req_full;
    cnp_ok   := not rst and s_cnp_valid and cnp_in and not visit_st.init;

    -- one-hot masks of the QPs the processes touch (0 without the event); vector operations
    -- rather than a loop over the QPs keep GHDL's netlist small at 4096 QPs
    at_v   := onehot(v_qp);
    m_clr  := at_v and all_bits(qp_clear_v);
    m_rx   := onehot(rpt_st.rx_qp) and all_bits(rexec);
    m_gx   := onehot(grant_st.gx_qp) and all_bits(gexec);
    m_pick := onehot(pick_qp) and all_bits(pick_valid);
    m_req  := onehot(req_q) and all_bits(accept);
    m_cnp  := onehot(cnp_q) and all_bits(cnp_ok);

    -- spec-mq 4.4, 4.5, 4.7, 5.8: the clear and the pick empty a slot, an accepted request sets
    -- it (set wins over the clear)
    v.req_valid := (r.req_valid and not m_clr and not m_pick) or m_req;
    -- spec-mq 4.3, 4.5, 4.7, 5.8: a qp_clear and the wake set rate_ok; the grant writes its value
    -- (winning over the wake)
    v.rate_ok   := put_bits(r.rate_ok or m_clr or (at_v and all_bits(wake)), m_gx, gexec_rate_ok);
    -- spec-mq 4.6: the outstanding bits, written by a qp_clear, the report and the grant (equal
    -- values when two touch one QP)
    v.ost_lt_hi := put_bits(put_bits(put_bits(r.ost_lt_hi, m_clr, clr_ost_hi), m_rx, rexec_ost_hi), m_gx, gexec_ost_hi);
    v.ost_lt_lo := put_bits(put_bits(put_bits(r.ost_lt_lo, m_clr, clr_ost_lo), m_rx, rexec_ost_lo), m_gx, gexec_ost_lo);
    -- spec-mq 5.3, 5.4 step 1, 4.7: a normal visit consumes cnp_flag and clears lim8 at the CNP
    -- timer, a qp_clear clears both; a CNP input sets both (set wins over the visit)
    v.lim8      := (r.lim8 and not (at_v and all_bits(lim_clr or qp_clear_v))) or m_cnp;
    v.cnp_flag  := (r.cnp_flag and not (at_v and all_bits(norm_visit))) or m_cnp;
    -- spec-mq 6.3: arb_mask is written by a window write of qp_ctrl
    v.arb_mask  := put_bits(r.arb_mask, at_v and all_bits(arb_we), arb_val);

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    req_accept   <= accept;
    req_drop     <= s_req_valid and req_in and req_full;
    cnp_accept   <= cnp_ok;
    ev_bad_qp    <= resize(unsigned'(0 => s_req_valid and not req_in), 2) +
                    resize(unsigned'(0 => s_cnp_valid and not cnp_in), 2) +
                    resize(unsigned'(0 => rpt_bad_qp), 2);
    ev_init_drop <= resize(unsigned'(0 => s_cnp_valid and cnp_in and visit_st.init), 2) +
                    resize(unsigned'(0 => rpt_init_drop), 2);
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- Processes

  u_visit : entity work.dcqcn_mq_visit
    generic map (
      QPS      => NQ_C,
      LINE_WIN => LINE_WIN_C
    )
    port map (
      clk             => clk,
      rst             => rst,
      cfg             => cfg,
      req_valid       => r.req_valid,
      rate_ok         => r.rate_ok,
      ost_lt_hi       => r.ost_lt_hi,
      ost_lt_lo       => r.ost_lt_lo,
      lim8            => r.lim8,
      cnp_flag        => r.cnp_flag,
      arb_mask        => r.arb_mask,
      wpend           => wpend,
      wq              => wq,
      wword           => wword,
      wdata           => wdata,
      wstrb           => wstrb,
      rpend           => rpend,
      rq              => rq,
      rword           => rword,
      rate_rd         => rate_visit,
      cc_rate_rd      => cc_rate_visit,
      alpha_rd        => alpha_visit,
      cnp_merge_rd    => cnp_merge_visit,
      byte_counter_rd => byte_counter_visit,
      t_bc_rd         => t_bc_visit,
      cc_byte_cnt_rd  => cc_byte_cnt_visit,
      grant_cnt_rd    => gcnt_visit,
      done_cnt_rd     => dcnt_visit,
      sent_rd         => sent_visit,
      req_rd          => req_bytes_visit,
      next_scan       => next_scan,
      vw_we           => visit_we,
      vw_rec          => visit_rec,
      v_qp            => v_qp,
      v_init          => init_visit,
      v_clear         => qp_clear_v,
      v_normal        => norm_visit,
      wake            => wake,
      lim_clr         => lim_clr,
      arb_we          => arb_we,
      arb_bit         => arb_val,
      w_done          => win_wr_done,
      w_err           => win_wr_err,
      r_done          => win_rd_done,
      r_err           => win_rd_err,
      r_word          => win_rdata,
      ev_dec          => ev_dec,
      ev_inc          => ev_inc,
      ev_tf           => ev_tf,
      ev_bf           => ev_bf,
      ev_fr           => ev_fr,
      ev_ai           => ev_ai,
      ev_hai          => ev_hai,
      ev_rc           => ev_rc,
      st              => visit_st
    );

  u_grant : entity work.dcqcn_mq_grant
    generic map (
      QPS      => NQ_C,
      LINE_WIN => LINE_WIN_C
    )
    port map (
      clk             => clk,
      rst             => rst,
      cfg             => cfg,
      capq            => capq,
      now             => visit_st.now,
      init            => visit_st.init,
      scan_q          => visit_st.scan_q,
      next_scan       => next_scan,
      init_visit      => init_visit,
      qp_clear_v      => qp_clear_v,
      wpend           => wpend,
      wclr            => wclr,
      wq              => wq,
      aclr            => aclr,
      aclr_q          => aclr_q,
      grant_pause     => grant_pause,
      req_valid       => r.req_valid,
      arb_mask        => r.arb_mask,
      rate_ok         => r.rate_ok,
      ost_lt_hi       => r.ost_lt_hi,
      ost_lt_lo       => r.ost_lt_lo,
      lim8            => r.lim8,
      cc_byte_cnt_rd  => cc_byte_cnt_grant,
      gcnt_rd         => gcnt_grant,
      dcnt_rd         => dcnt_grant,
      req_bytes_rd    => req_bytes_grant,
      cc_rate_rd      => cc_rate_grant,
      gcnt_v          => gcnt_visit,
      dcnt_v          => dcnt_visit,
      rexec           => rexec,
      rx_qp           => rpt_st.rx_qp,
      pick_valid      => pick_valid,
      pick_qp         => pick_qp,
      gexec           => gexec,
      gexec_bytes     => gexec_bytes,
      gexec_rate_ok   => gexec_rate_ok,
      gexec_ost_hi    => gexec_ost_hi,
      gexec_ost_lo    => gexec_ost_lo,
      clr_ost_hi      => clr_ost_hi,
      clr_ost_lo      => clr_ost_lo,
      mem_we          => g_mem_we,
      mem_qp          => g_mem_qp,
      mem_cc_byte_cnt => g_mem_cc_byte_cnt,
      mem_gcnt        => g_mem_gcnt,
      m_grant_valid   => grant_valid,
      m_grant_qp      => grant_qp,
      m_grant_bytes   => grant_bytes,
      st              => grant_st,
      rr_st           => rr_st
    );

  u_rpt : entity work.dcqcn_mq_rpt
    generic map (
      QPS => NQ_C
    )
    port map (
      clk           => clk,
      rst           => rst,
      cfg           => cfg,
      init          => visit_st.init,
      scan_q        => visit_st.scan_q,
      init_visit    => init_visit,
      qp_clear_v    => qp_clear_v,
      s_rpt_valid   => s_rpt_valid,
      s_rpt_qp      => unsigned(s_rpt_qp),
      s_rpt_bytes   => unsigned(s_rpt_bytes),
      gexec         => gexec,
      gx_qp         => grant_st.gx_qp,
      dcnt_rd       => dcnt_rpt,
      gcnt_rd       => gcnt_rpt,
      sent_rd       => sent_rpt,
      rexec         => rexec,
      rexec_spur    => rexec_spur,
      rexec_ost_hi  => rexec_ost_hi,
      rexec_ost_lo  => rexec_ost_lo,
      rpt_bad_qp    => rpt_bad_qp,
      rpt_init_drop => rpt_init_drop,
      mem_we        => r_mem_we,
      mem_qp        => r_mem_qp,
      mem_dcnt      => r_mem_dcnt,
      mem_sent      => r_mem_sent,
      st            => rpt_st
    );

  u_regs : entity work.dcqcn_mq_regs
    generic map (
      QPS         => NQ_C,
      CLK_FREQ_HZ => CLK_FREQ_HZ,
      LINE_WIN    => LINE_WIN_C
    )
    port map (
      clk             => clk,
      rst             => rst,
      s_axil_awaddr   => s_axil_awaddr,
      s_axil_awvalid  => s_axil_awvalid,
      s_axil_awready  => s_axil_awready,
      s_axil_wdata    => s_axil_wdata,
      s_axil_wstrb    => s_axil_wstrb,
      s_axil_wvalid   => s_axil_wvalid,
      s_axil_wready   => s_axil_wready,
      s_axil_bresp    => s_axil_bresp,
      s_axil_bvalid   => s_axil_bvalid,
      s_axil_bready   => s_axil_bready,
      s_axil_araddr   => s_axil_araddr,
      s_axil_arvalid  => s_axil_arvalid,
      s_axil_arready  => s_axil_arready,
      s_axil_rdata    => s_axil_rdata,
      s_axil_rresp    => s_axil_rresp,
      s_axil_rvalid   => s_axil_rvalid,
      s_axil_rready   => s_axil_rready,
      init            => visit_st.init,
      now             => visit_st.now,
      scan_q          => visit_st.scan_q,
      pcredit         => grant_st.pcredit,
      win_wr_done     => win_wr_done,
      win_wr_err      => win_wr_err,
      win_rd_done     => win_rd_done,
      win_rd_err      => win_rd_err,
      win_rdata       => win_rdata,
      ev_cnp          => cnp_accept,
      ev_dec          => ev_dec,
      ev_inc          => ev_inc,
      ev_tf           => ev_tf,
      ev_bf           => ev_bf,
      ev_fr           => ev_fr,
      ev_ai           => ev_ai,
      ev_hai          => ev_hai,
      ev_rc           => ev_rc,
      ev_grant        => gexec,
      ev_grant_bytes  => gexec_bytes,
      ev_req          => req_accept,
      ev_req_drop     => req_drop,
      ev_rpt          => rexec,
      ev_rpt_spurious => rexec_spur,
      ev_bad_qp       => ev_bad_qp,
      ev_init_drop    => ev_init_drop,
      cfg             => cfg,
      wpend           => wpend,
      wq              => wq,
      wword           => wword,
      wdata           => wdata,
      wstrb           => wstrb,
      wclr            => wclr,
      aclr            => aclr,
      aclr_q          => aclr_q,
      rpend           => rpend,
      rq              => rq,
      rword           => rword,
      dfx_rec         => dfx_rec,
      dfx_rec_wptr    => dfx_wptr,
      dfx_rec_entry   => dfx_ent,
      st              => regs_st
    );

  m_grant_valid <= grant_valid;
  m_grant_qp    <= std_logic_vector(grant_qp);
  m_grant_bytes <= std_logic_vector(grant_bytes);

  -- Memories (spec-mq 4.2, 5.2): one copy per reading process, always written together. Read
  -- addresses known in t - 1 (spec-mq 4.8): the visit's scan_q', the grant's pick, the report's
  -- input QP.

  rate_wd         <= std_logic_vector(visit_rec.rt) & std_logic_vector(visit_rec.rc);
  cc_rate_wd      <= std_logic_vector(visit_rec.cc_rate);
  alpha_wd        <= std_logic_vector(visit_rec.alpha_el) & std_logic_vector(visit_rec.alpha);
  cnp_merge_wd    <= std_logic_vector(visit_rec.cnp_el) & visit_rec.dec_pending &
                     std_logic_vector(visit_rec.merge_el);
  byte_counter_wd <= std_logic_vector(visit_rec.sent_seen) & std_logic_vector(visit_rec.byte_cnt);
  t_bc_wd         <= std_logic_vector(visit_rec.inc_el) & visit_rec.active &
                     std_logic_vector(visit_rec.b_stage) & std_logic_vector(visit_rec.t_stage);

  scan_a  <= visit_st.scan_q(AW_C - 1 downto 0);
  nscan_a <= next_scan(AW_C - 1 downto 0);
  pick_a  <= pick_qp(AW_C - 1 downto 0);
  rpt_a   <= unsigned(s_rpt_qp(AW_C - 1 downto 0));
  req_a   <= unsigned(s_req_qp(AW_C - 1 downto 0));
  g_a     <= g_mem_qp(AW_C - 1 downto 0);
  r_a     <= r_mem_qp(AW_C - 1 downto 0);

  -- CC_BYTE_CNT_MEM {stamp, credit}: written by the grant process; read by grant, visit
  u_cc_byte_cnt_mem_grant : entity work.dcqcn_mq_mem
    generic map (
      W => CC_BYTE_CNT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => g_mem_we,
      waddr => g_a,
      wdata => g_mem_cc_byte_cnt,
      raddr => pick_a,
      rdata => cc_byte_cnt_grant
    );

  u_cc_byte_cnt_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => CC_BYTE_CNT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => g_mem_we,
      waddr => g_a,
      wdata => g_mem_cc_byte_cnt,
      raddr => nscan_a,
      rdata => cc_byte_cnt_visit
    );

  -- GRANT_CNT_MEM {gcnt}: written by the grant process; read by grant, report, visit
  u_grant_cnt_mem_grant : entity work.dcqcn_mq_mem
    generic map (
      W => GRANT_CNT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => g_mem_we,
      waddr => g_a,
      wdata => g_mem_gcnt,
      raddr => pick_a,
      rdata => gcnt_grant
    );

  u_grant_cnt_mem_rpt : entity work.dcqcn_mq_mem
    generic map (
      W => GRANT_CNT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => g_mem_we,
      waddr => g_a,
      wdata => g_mem_gcnt,
      raddr => rpt_a,
      rdata => gcnt_rpt
    );

  u_grant_cnt_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => GRANT_CNT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => g_mem_we,
      waddr => g_a,
      wdata => g_mem_gcnt,
      raddr => nscan_a,
      rdata => gcnt_visit
    );

  -- DONE_CNT_MEM {dcnt}: written by the report process; read by report, grant, visit
  u_done_cnt_mem_rpt : entity work.dcqcn_mq_mem
    generic map (
      W => DONE_CNT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => r_mem_we,
      waddr => r_a,
      wdata => r_mem_dcnt,
      raddr => rpt_a,
      rdata => dcnt_rpt
    );

  u_done_cnt_mem_grant : entity work.dcqcn_mq_mem
    generic map (
      W => DONE_CNT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => r_mem_we,
      waddr => r_a,
      wdata => r_mem_dcnt,
      raddr => pick_a,
      rdata => dcnt_grant
    );

  u_done_cnt_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => DONE_CNT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => r_mem_we,
      waddr => r_a,
      wdata => r_mem_dcnt,
      raddr => nscan_a,
      rdata => dcnt_visit
    );

  -- SENT_MEM {sent}: written by the report process; read by report, visit
  u_sent_mem_rpt : entity work.dcqcn_mq_mem
    generic map (
      W => SENT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => r_mem_we,
      waddr => r_a,
      wdata => r_mem_sent,
      raddr => rpt_a,
      rdata => sent_rpt
    );

  u_sent_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => SENT_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => r_mem_we,
      waddr => r_a,
      wdata => r_mem_sent,
      raddr => nscan_a,
      rdata => sent_visit
    );

  -- REQ_MEM {req_bytes}: written by the request input; read by grant, visit
  u_req_mem_grant : entity work.dcqcn_mq_mem
    generic map (
      W => REQ_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => req_accept,
      waddr => req_a,
      wdata => s_req_bytes,
      raddr => pick_a,
      rdata => req_bytes_grant
    );

  u_req_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => REQ_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => req_accept,
      waddr => req_a,
      wdata => s_req_bytes,
      raddr => nscan_a,
      rdata => req_bytes_visit
    );

  -- CC_RATE_MEM {cc_rate}: written by the visit; read by visit, grant
  u_cc_rate_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => CC_RATE_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => visit_we,
      waddr => scan_a,
      wdata => cc_rate_wd,
      raddr => nscan_a,
      rdata => cc_rate_visit
    );

  u_cc_rate_mem_grant : entity work.dcqcn_mq_mem
    generic map (
      W => CC_RATE_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => visit_we,
      waddr => scan_a,
      wdata => cc_rate_wd,
      raddr => pick_a,
      rdata => cc_rate_grant
    );

  -- the DCQCN record (spec-mq 5.2): written and read by the visit only
  u_rate_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => RATE_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => visit_we,
      waddr => scan_a,
      wdata => rate_wd,
      raddr => nscan_a,
      rdata => rate_visit
    );

  u_alpha_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => ALPHA_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => visit_we,
      waddr => scan_a,
      wdata => alpha_wd,
      raddr => nscan_a,
      rdata => alpha_visit
    );

  u_cnp_merge_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => CNP_MERGE_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => visit_we,
      waddr => scan_a,
      wdata => cnp_merge_wd,
      raddr => nscan_a,
      rdata => cnp_merge_visit
    );

  u_byte_counter_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => BYTE_COUNTER_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => visit_we,
      waddr => scan_a,
      wdata => byte_counter_wd,
      raddr => nscan_a,
      rdata => byte_counter_visit
    );

  u_t_bc_mem_visit : entity work.dcqcn_mq_mem
    generic map (
      W => T_BC_W_C, QPS => NQ_C, AW => AW_C
    )
    port map (
      clk   => clk,
      rst   => rst,
      we    => visit_we,
      waddr => scan_a,
      wdata => t_bc_wd,
      raddr => nscan_a,
      rdata => t_bc_visit
    );

  -- Observation (spec-mq 8; crates/dcqcn-model/src/mq/obs.rs): S(t) and the writes of t

  obs : process (all) is
    variable st : std_logic_vector(1193 downto 0);
    variable at : natural;

    -- the next field of obs_state, from bit `at` up

    procedure put (
      x : std_logic_vector
    ) is
    begin
      st(at + x'length - 1 downto at) := x;
      at                              := at + x'length;
    end procedure put;

    procedure put (
      x : unsigned
    ) is
    begin
      put(std_logic_vector(x));
    end procedure put;

    procedure put (
      x : std_logic
    ) is
    begin
      put(std_logic_vector'(0 => x));
    end procedure put;

    variable wv : std_logic_vector(256 downto 0);
    variable wg : std_logic_vector(84 downto 0);
    variable wr : std_logic_vector(52 downto 0);
    variable wk : std_logic_vector(28 downto 0);
    variable wd : std_logic_vector(72 downto 0);
  begin
    at        := 0;
    st        := (others => '0');
    -- engine (spec-mq 4.2)
    put(visit_st.now);
    put(visit_st.scan_q);
    put(visit_st.init);
    put(rr_st.rr);
    put(grant_st.gx_valid);
    put(grant_st.gx_qp);
    put(rpt_st.rx_valid);
    put(rpt_st.rx_qp);
    put(rpt_st.rx_bytes);
    put(std_logic_vector(grant_st.pcredit));
    put(grant_st.g_valid);
    put(grant_st.g_qp);
    put(grant_st.g_bytes);
    put(regs_st.wpend);
    put(regs_st.wq);
    put(regs_st.wword);
    put(regs_st.wdata);
    put(regs_st.wstrb);
    put(regs_st.rpend);
    put(regs_st.rq);
    put(regs_st.rword);
    put(regs_st.bvalid);
    put(regs_st.bresp);
    put(regs_st.rvalid);
    put(regs_st.rdata);
    put(regs_st.rresp);
    -- configuration (spec-mq 6.2)
    put(regs_st.cfg.dcqcn_hw_en);
    put(regs_st.cfg.hw_rate_throttle_en);
    put(regs_st.cfg.tx_wqe_ost_limit_en);
    put(regs_st.cfg.speed_limiter_en);
    put(regs_st.cfg.cnp_merge_period);
    put(regs_st.cfg.nocnp_timer_th);
    put(regs_st.cfg.byte_cnt_th);
    put(regs_st.cfg.max_rate);
    put(regs_st.cfg.alpha_timer_th);
    put(regs_st.cfg.upd_alpha_g);
    put(regs_st.cfg.alpha_rate_shift);
    put(regs_st.cfg.alpha_init);
    put(regs_st.cfg.rate_ai);
    put(regs_st.cfg.rate_hai);
    put(regs_st.cfg.rate_min);
    put(regs_st.cfg.stage_threshold);
    put(regs_st.cfg.clamp_tgt);
    put(regs_st.cfg.cnp_timer_thrd);
    put(regs_st.cfg.ost_limit);
    put(regs_st.cfg.ost_limit_cnp);
    put(regs_st.cfg.credit_cap);
    put(regs_st.cfg.dfx_en);
    put(regs_st.cfg.dfx_wrap);
    put(regs_st.cfg.dfx_sel);
    put(regs_st.cfg.dfx_qp);
    -- counters (spec-mq 6.2)
    put(regs_st.cnt.cnt_cnp);
    put(regs_st.cnt.cnt_dec);
    put(regs_st.cnt.cnt_inc_fr);
    put(regs_st.cnt.cnt_inc_ai);
    put(regs_st.cnt.cnt_inc_hai);
    put(regs_st.cnt.cnt_inc_timer);
    put(regs_st.cnt.cnt_inc_byte);
    put(regs_st.cnt.cnt_grant);
    put(regs_st.cnt.cnt_grant_bytes);
    put(regs_st.cnt.cnt_grant_bytes_latch);
    put(regs_st.cnt.cnt_req);
    put(regs_st.cnt.cnt_req_drop);
    put(regs_st.cnt.cnt_rpt);
    put(regs_st.cnt.cnt_rpt_spurious);
    put(regs_st.cnt.cnt_bad_qp);
    put(regs_st.cnt.cnt_init_drop);
    -- DFX window (spec-mq 5.9)
    put(regs_st.dfx.dfx_count);
    put(regs_st.dfx.dfx_wptr);
    put(regs_st.dfx.dfx_lost);
    put(regs_st.dfx.dfx_n_dec);
    put(regs_st.dfx.dfx_n_byte);
    put(regs_st.dfx.dfx_n_timer);
    put(regs_st.dfx.dfx_time);
    obs_state <= st;

    -- BITMAPS: bitmap k at bits k*QPS .. k*QPS+QPS-1
    obs_bitmaps <= r.arb_mask & r.cnp_flag & r.lim8 & r.ost_lt_lo & r.ost_lt_hi & r.rate_ok & r.req_valid;

    -- STREAMS wv, wg, wr, wq, wd from bit 0: {data, qp, valid} each, 0 when not writing
    wv := (others => '0');
    if (visit_we = '1') then
      wv := to_wv(visit_rec) & std_logic_vector(visit_st.scan_q) & '1';
    end if;
    wg := (others => '0');
    if (g_mem_we = '1') then
      wg := g_mem_gcnt & g_mem_cc_byte_cnt & std_logic_vector(g_mem_qp) & '1';
    end if;
    wr := (others => '0');
    if (r_mem_we = '1') then
      wr := r_mem_sent & r_mem_dcnt & std_logic_vector(r_mem_qp) & '1';
    end if;
    wk := (others => '0');
    if (req_accept = '1') then
      wk := s_req_bytes & s_req_qp & '1';
    end if;
    wd := (others => '0');
    if (dfx_rec = '1') then
      wd := dfx_ent & "000000" & std_logic_vector(dfx_wptr) & '1';
    end if;
    obs_writes <= wd & wk & wr & wg & wv;
  end process obs;

end architecture rtl;
