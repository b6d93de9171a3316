-- SPDX-License-Identifier: MIT
-- dcqcn_mq_grant: the pick stage with the round-robin picker, the grant execution with the
-- per-QP token bucket, and the port speed limiter (spec-mq 4.5, 4.6).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_mq_pkg.all;

entity dcqcn_mq_grant is
  generic (
    QPS      : positive := MQ_QPS_C;
    LINE_WIN : natural  := 8192 -- spec-mq 2: bytes per 1024-cycle window
  );
  port (
    clk             : in    std_logic;
    rst             : in    std_logic;
    cfg             : in    MqCfgType;
    capq            : in    unsigned(30 downto 0); -- CAPQ = max(cfg_credit_cap, 1) * 1024
    -- the scan and the visit of this cycle (dcqcn_mq_visit)
    now             : in    unsigned(31 downto 0);
    init            : in    std_logic;
    scan_q          : in    qp_t;
    next_scan       : in    qp_t;
    init_visit      : in    std_logic;
    qp_clear_v      : in    std_logic;
    -- the pending window write (a qp_clear at the next visit suppresses the pick, spec-mq 4.5)
    wpend           : in    std_logic;
    wclr            : in    std_logic;
    wq              : in    qp_t;
    -- a qp_clear accepted this cycle and its QP
    aclr            : in    std_logic;
    aclr_q          : in    qp_t;
    grant_pause     : in    std_logic;
    -- bitmaps, S(t)
    req_valid       : in    std_logic_vector(QPS - 1 downto 0);
    arb_mask        : in    std_logic_vector(QPS - 1 downto 0);
    rate_ok         : in    std_logic_vector(QPS - 1 downto 0);
    ost_lt_hi       : in    std_logic_vector(QPS - 1 downto 0);
    ost_lt_lo       : in    std_logic_vector(QPS - 1 downto 0);
    lim8            : in    std_logic_vector(QPS - 1 downto 0);
    -- the entries of QP gx_qp (the grant's read copies) and of QP scan_q (the visit's)
    cc_byte_cnt_rd  : in    std_logic_vector(CC_BYTE_CNT_W_C - 1 downto 0);
    gcnt_rd         : in    std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
    dcnt_rd         : in    std_logic_vector(DONE_CNT_W_C - 1 downto 0);
    req_bytes_rd    : in    std_logic_vector(REQ_W_C - 1 downto 0);
    cc_rate_rd      : in    std_logic_vector(CC_RATE_W_C - 1 downto 0);
    gcnt_v          : in    std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
    dcnt_v          : in    std_logic_vector(DONE_CNT_W_C - 1 downto 0);
    -- the report execution of this cycle (the joint count, spec-mq 4.6)
    rexec           : in    std_logic;
    rx_qp           : in    qp_t;
    -- the pick (combinational; the grant copies' read address, spec-mq 4.8)
    pick_valid      : out   std_logic;
    pick_qp         : out   qp_t;
    -- the grant execution of this cycle and its bitmap bits
    gexec           : out   std_logic;
    gexec_bytes     : out   unsigned(15 downto 0);
    gexec_rate_ok   : out   std_logic;
    gexec_ost_hi    : out   std_logic;
    gexec_ost_lo    : out   std_logic;
    clr_ost_hi      : out   std_logic;             -- the outstanding bits of a qp_clear visit
    clr_ost_lo      : out   std_logic;
    -- the write port of CC_BYTE_CNT_MEM and GRANT_CNT_MEM (the wg stream)
    mem_we          : out   std_logic;
    mem_qp          : out   qp_t;
    mem_cc_byte_cnt : out   std_logic_vector(CC_BYTE_CNT_W_C - 1 downto 0);
    mem_gcnt        : out   std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
    -- the grant output
    m_grant_valid   : out   std_logic;
    m_grant_qp      : out   qp_t;
    m_grant_bytes   : out   unsigned(15 downto 0);
    -- state
    st              : out   GrantRegType;
    rr_st           : out   RrRegType
  );
end entity dcqcn_mq_grant;

architecture rtl of dcqcn_mq_grant is

  constant LW_C      : rate_t              := to_unsigned(LINE_WIN, 24);
  constant INT_MIN_C : signed(31 downto 0) := x"80000000"; -- -2^31, the floor of every credit

  -- spec-mq 4.2: pcredit resets to CAPQ at the reset value of credit_cap (65,536 bytes)
  constant REG_INIT_C : GrantRegType := (
    gx_valid => '0',
    gx_qp    => (others => '0'),
    pcredit  => to_signed(65_536 * 1024, 32),
    g_valid  => '0',
    g_qp     => (others => '0'),
    g_bytes  => (others => '0'));

  signal r   : GrantRegType := REG_INIT_C;
  signal rin : GrantRegType;

  signal elig    : std_logic_vector(QPS - 1 downto 0);
  signal pick_en : std_logic;
  signal pick_v  : std_logic;
  signal pick    : qp_t;

begin

  -- spec-mq 4.5: eligibility and pick_en
  pick_stage : process (all) is
    variable clear_next : std_logic;
  begin
    -- vector operations (one cell each in GHDL's netlist, not one per QP)
    elig       <= req_valid and not arb_mask and
            (rate_ok or (elig'range                                          => not cfg.hw_rate_throttle_en)) and
            ((lim8 and ost_lt_lo) or (not lim8 and ost_lt_hi) or (elig'range => not cfg.tx_wqe_ost_limit_en));
    clear_next := (wpend and wclr and to_sl(next_scan = wq)) or (aclr and to_sl(next_scan = aclr_q));
    pick_en    <= not init and not grant_pause and
                  (not cfg.speed_limiter_en or to_sl(r.pcredit > 0)) and not clear_next;
  end process pick_stage;

  u_rr : entity work.dcqcn_mq_rr
    generic map (
      N => QPS
    )
    port map (
      clk        => clk,
      rst        => rst,
      elig       => elig,
      pick_en    => pick_en,
      pick_valid => pick_v,
      pick       => pick,
      st         => rr_st
    );

  comb : process (all) is
    variable v        : GrantRegType;
    variable exec     : std_logic;
    variable bytes    : unsigned(15 downto 0);
    variable ra       : rate_t;
    variable credit   : signed(31 downto 0);
    variable stamp    : unsigned(31 downto 0);
    variable e        : unsigned(31 downto 0);
    variable refill   : unsigned(55 downto 0);
    variable fill     : signed(57 downto 0);
    variable charge   : signed(57 downto 0);
    variable credit_n : signed(57 downto 0);
    variable jg       : JointType;
    variable jc       : JointType;
    variable pfill    : signed(33 downto 0);
    variable pcharge  : signed(33 downto 0);
    variable pnext    : signed(33 downto 0);
    variable capq_s   : signed(57 downto 0);
  begin
    v := r;

    -- spec-mq 4.5: grant execution (a qp_clear completing this cycle owns the write port: only
    -- an injected state meets it, clear_next suppresses the pick before it)
    exec   := not rst and r.gx_valid and qp_lt(r.gx_qp, QPS) and not init and not qp_clear_v;
    bytes  := unsigned(req_bytes_rd);
    ra     := min_u(unsigned(cc_rate_rd), LW_C);
    credit := signed(cc_byte_cnt_rd(31 downto 0));
    stamp  := unsigned(cc_byte_cnt_rd(63 downto 32));
    e      := now - stamp;
    refill := ra * e;
    capq_s := signed(resize(capq, 58));
    fill   := resize(credit, 58) + signed(resize(refill, 58));
    if (fill > capq_s) then
      fill := capq_s;
    end if;
    if (cfg.hw_rate_throttle_en = '1') then
      charge := signed(resize(bytes & "0000000000", 58));
    else
      charge := (others => '0');
    end if;
    credit_n := fill - charge;
    if (credit_n < resize(INT_MIN_C, 58)) then
      credit_n := resize(INT_MIN_C, 58);
    end if;

    -- spec-mq 4.6: the joint count of gx_qp (inc) and of a qp_clear's QP (clr)
    jg := joint(unsigned(gcnt_rd), unsigned(dcnt_rd), '0', '1',
                rexec and to_sl(rx_qp = r.gx_qp), cfg.ost_limit, cfg.ost_limit_cnp);
    jc := joint(unsigned(gcnt_v), unsigned(dcnt_v), '1', '0',
                rexec and to_sl(rx_qp = scan_q), cfg.ost_limit, cfg.ost_limit_cnp);

    -- the write port: the init visit, a qp_clear visit (credit = CAPQ, stamp = now), a grant
    mem_we          <= exec or init_visit or qp_clear_v;
    mem_qp          <= scan_q;
    mem_cc_byte_cnt <= std_logic_vector(now) & std_logic_vector(resize(capq, 32));
    mem_gcnt        <= std_logic_vector(jc.gcnt);
    if (init_visit = '1') then
      mem_gcnt <= (others => '0');
    end if;
    if (exec = '1') then
      mem_qp          <= r.gx_qp;
      mem_cc_byte_cnt <= std_logic_vector(now) & std_logic_vector(credit_n(31 downto 0));
      mem_gcnt        <= std_logic_vector(jg.gcnt);
    end if;

    -- spec-mq 4.5: the speed limiter, charged one cycle after the pick
    pfill := resize(r.pcredit, 34) + to_signed(LINE_WIN, 34);
    if (pfill > resize(signed(resize(capq, 32)), 34)) then
      pfill := resize(signed(resize(capq, 32)), 34);
    end if;
    pcharge := (others => '0');
    if (exec = '1') then
      pcharge := signed(resize(bytes & "0000000000", 34));
    end if;
    pnext := pfill - pcharge;
    if (pnext < resize(INT_MIN_C, 34)) then
      pnext := resize(INT_MIN_C, 34);
    end if;
    if (cfg.speed_limiter_en = '0') then
      v.pcredit := signed(resize(capq, 32));
    else
      v.pcredit := pnext(31 downto 0);
    end if;

    -- the pick of this cycle is executed in the next (spec-mq 4.5)
    v.gx_valid := pick_v;
    if (pick_v = '1') then
      v.gx_qp := pick;
    end if;

    -- the grant output: registered; QP and bytes hold without a grant
    v.g_valid := exec;
    if (exec = '1') then
      v.g_qp    := r.gx_qp;
      v.g_bytes := bytes;
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    -- the grant copies' read address: 0 in a reset cycle (gx_qp's reset value), so that it is a
    -- function of the inputs there (spec-mq 4.8)
    pick_qp <= (others => '0');
    if (rst = '0') then
      pick_qp <= pick;
    end if;

    pick_valid    <= pick_v;
    gexec         <= exec;
    gexec_bytes   <= bytes;
    gexec_rate_ok <= to_sl(credit_n > 0);
    gexec_ost_hi  <= jg.ost_lt_hi;
    gexec_ost_lo  <= jg.ost_lt_lo;
    clr_ost_hi    <= jc.ost_lt_hi;
    clr_ost_lo    <= jc.ost_lt_lo;
    m_grant_valid <= r.g_valid;
    m_grant_qp    <= r.g_qp;
    m_grant_bytes <= r.g_bytes;
    st            <= r;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

end architecture rtl;
