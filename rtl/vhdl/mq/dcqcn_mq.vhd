-- SPDX-License-Identifier: MIT
-- dcqcn_mq: the multi-QP DCQCN block (docs/spec-mq.md), exactly the ports of spec-mq 3. It is
-- dcqcn_mq_core with the observation outputs left open (synthesis removes their wiring).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_mq_pkg.all;

entity dcqcn_mq is
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
    s_axil_rready  : in    std_logic
  );
end entity dcqcn_mq;

architecture rtl of dcqcn_mq is

  -- spec-mq 2: illegal parameters are an elaboration error (checked before anything uses them)
  constant PARAMS_OK_C : boolean := mq_check_params(QPS, CLK_FREQ_HZ, LINE_RATE);

begin

  u_core : entity work.dcqcn_mq_core
    generic map (
      QPS         => QPS,
      CLK_FREQ_HZ => CLK_FREQ_HZ,
      LINE_RATE   => LINE_RATE
    )
    port map (
      clk            => clk,
      rst            => rst,
      s_req_valid    => s_req_valid,
      s_req_qp       => s_req_qp,
      s_req_bytes    => s_req_bytes,
      s_cnp_valid    => s_cnp_valid,
      s_cnp_qp       => s_cnp_qp,
      s_rpt_valid    => s_rpt_valid,
      s_rpt_qp       => s_rpt_qp,
      s_rpt_bytes    => s_rpt_bytes,
      grant_pause    => grant_pause,
      m_grant_valid  => m_grant_valid,
      m_grant_qp     => m_grant_qp,
      m_grant_bytes  => m_grant_bytes,
      s_axil_awaddr  => s_axil_awaddr,
      s_axil_awvalid => s_axil_awvalid,
      s_axil_awready => s_axil_awready,
      s_axil_wdata   => s_axil_wdata,
      s_axil_wstrb   => s_axil_wstrb,
      s_axil_wvalid  => s_axil_wvalid,
      s_axil_wready  => s_axil_wready,
      s_axil_bresp   => s_axil_bresp,
      s_axil_bvalid  => s_axil_bvalid,
      s_axil_bready  => s_axil_bready,
      s_axil_araddr  => s_axil_araddr,
      s_axil_arvalid => s_axil_arvalid,
      s_axil_arready => s_axil_arready,
      s_axil_rdata   => s_axil_rdata,
      s_axil_rresp   => s_axil_rresp,
      s_axil_rvalid  => s_axil_rvalid,
      s_axil_rready  => s_axil_rready,
      obs_state      => open,
      obs_bitmaps    => open,
      obs_writes     => open
    );

end architecture rtl;
