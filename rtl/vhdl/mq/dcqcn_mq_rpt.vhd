-- SPDX-License-Identifier: MIT
-- dcqcn_mq_rpt: the report process: the report input, its execution one cycle later and the
-- joint outstanding count (spec-mq 4.6).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_mq_pkg.all;

entity dcqcn_mq_rpt is
  generic (
    QPS : positive := MQ_QPS_C
  );
  port (
    clk           : in    std_logic;
    rst           : in    std_logic;
    cfg           : in    MqCfgType;
    -- the scan and the visit of this cycle (dcqcn_mq_visit)
    init          : in    std_logic;
    scan_q        : in    qp_t;
    init_visit    : in    std_logic;
    qp_clear_v    : in    std_logic;
    -- the report input
    s_rpt_valid   : in    std_logic;
    s_rpt_qp      : in    qp_t;
    s_rpt_bytes   : in    unsigned(15 downto 0);
    -- the grant execution of this cycle (the joint count)
    gexec         : in    std_logic;
    gx_qp         : in    qp_t;
    -- the entries of QP rx_qp (the report's read copies)
    dcnt_rd       : in    std_logic_vector(DONE_CNT_W_C - 1 downto 0);
    gcnt_rd       : in    std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
    sent_rd       : in    std_logic_vector(SENT_W_C - 1 downto 0);
    -- the report execution of this cycle and its bitmap bits
    rexec         : out   std_logic;
    rexec_spur    : out   std_logic;
    rexec_ost_hi  : out   std_logic;
    rexec_ost_lo  : out   std_logic;
    -- dropped inputs (spec-mq 7)
    rpt_bad_qp    : out   std_logic;
    rpt_init_drop : out   std_logic;
    -- the write port of DONE_CNT_MEM and SENT_MEM (the wr stream)
    mem_we        : out   std_logic;
    mem_qp        : out   qp_t;
    mem_dcnt      : out   std_logic_vector(DONE_CNT_W_C - 1 downto 0);
    mem_sent      : out   std_logic_vector(SENT_W_C - 1 downto 0);
    -- state
    st            : out   RptRegType
  );
end entity dcqcn_mq_rpt;

architecture rtl of dcqcn_mq_rpt is

  constant REG_INIT_C : RptRegType := (
    rx_valid => '0',
    rx_qp    => (others => '0'),
    rx_bytes => (others => '0'));

  signal r   : RptRegType := REG_INIT_C;
  signal rin : RptRegType;

begin

  comb : process (all) is
    variable v        : RptRegType;
    variable in_range : std_logic;
    variable exec     : std_logic;
    variable j        : JointType;
    variable sent_n   : unsigned(31 downto 0);
  begin
    v := r;

    -- spec-mq 4.6: the report input; a report not taken leaves rx_qp and rx_bytes 0
    in_range := qp_lt(s_rpt_qp, QPS);
    v        := REG_INIT_C;
    if ((s_rpt_valid and in_range and not init) = '1') then
      v.rx_valid := '1';
      v.rx_qp    := s_rpt_qp;
      v.rx_bytes := s_rpt_bytes;
    end if;

    -- spec-mq 4.6: report execution and the joint count (clr: a qp_clear visit of the QP, inc: a
    -- grant executed on it)
    exec   := not rst and r.rx_valid and qp_lt(r.rx_qp, QPS) and not init;
    j      := joint(unsigned(gcnt_rd), unsigned(dcnt_rd), qp_clear_v and to_sl(scan_q = r.rx_qp),
                    gexec and to_sl(gx_qp = r.rx_qp), '1', cfg.ost_limit, cfg.ost_limit_cnp);
    sent_n := unsigned(sent_rd) + r.rx_bytes;

    -- the write port: the init visit (0, 0) or the execution
    mem_we   <= exec or init_visit;
    mem_qp   <= scan_q;
    mem_dcnt <= (others => '0');
    mem_sent <= (others => '0');
    if (exec = '1') then
      mem_qp   <= r.rx_qp;
      mem_dcnt <= std_logic_vector(j.dcnt);
      mem_sent <= std_logic_vector(sent_n);
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    rexec         <= exec;
    rexec_spur    <= exec and j.spur;
    rexec_ost_hi  <= j.ost_lt_hi;
    rexec_ost_lo  <= j.ost_lt_lo;
    rpt_bad_qp    <= s_rpt_valid and not in_range;
    rpt_init_drop <= s_rpt_valid and in_range and init;
    st            <= r;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

end architecture rtl;
