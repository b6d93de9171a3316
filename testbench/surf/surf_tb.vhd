-- SPDX-License-Identifier: MIT
-- Per-cycle bridge between `dcqcn cosim --rtl surf` / `dcqcn surf record` and the upstream SURF
-- block's cocotb-facing wrapper (entity RoCEv2DcqcnWrapper of library surf, from the user's own
-- SURF checkout; nothing of it is in this repository). This file is ours: it only instantiates the
-- wrapper by name and moves port values over the simulator's standard input and output.
--
-- Protocol (one text line each way per clock cycle, lowercase or uppercase hex, one space between
-- tokens; docs/surf-lockstep.md):
--   in  (stdin):  I <flags 3 hex> <s_axis_tdata 64 hex> <s_axis_tkeep 8 hex> <awaddr 8 hex>
--                   <wdata 8 hex> <wstrb 1 hex> <araddr 8 hex>
--                 flags bit 0 rst, 1 cnp, 2 s_axis_tvalid, 3 s_axis_tlast, 4 m_axis_tready,
--                 5 awvalid, 6 wvalid, 7 bready, 8 arvalid, 9 rready
--                 or `Q`: stop the simulation.
--   out (stdout): O <flags 8 chars> <m_axis_tdata 64 hex> <m_axis_tkeep 8 hex> <rdata 8 hex>
--                   <bresp 2 chars> <rresp 2 chars>
--                 flags, one std_logic character each (0, 1, U, X, ...), left to right:
--                 rvalid arready bvalid wready awready m_axis_tlast m_axis_tvalid s_axis_tready;
--                 a hex digit of a vector with any bit not 0 or 1 is written as X.
-- Cycle k spans [10k ns, 10k + 10 ns): the inputs are driven at 10k + 1 ns, one nanosecond after
-- the rising edge that ended cycle k-1 (driven in the edge's own delta cycle, they would reach the
-- processes that read a port directly in their clocked branch, such as the FIFOs' reset, at that
-- edge: reset would end one edge early), the outputs are sampled at 10k + 8 ns, once everything has settled
-- (the wrapper is instantiated with TPD_G = 0 ns: its registers change in the delta cycles of
-- the edge, which is bit-identical and much faster to simulate than 1 ns transactions), and the rising edge that ends the
-- cycle is at 10k + 10 ns. The clock's low phase is [10k + 5, 10k + 10) ns. Internal registers
-- (Rc, Rt, alpha, the CNP counter) are read from the simulator's waveform dump of ports inside the
-- block, at the same sampling time, so nothing on the bus is perturbed.

library ieee;
use ieee.std_logic_1164.all;

library std;
use std.textio.all;

library surf;

entity surf_tb is
end entity surf_tb;

architecture bridge of surf_tb is

  signal clk            : std_logic                      := '0';
  signal rst            : std_logic                      := '1';
  signal cnp            : std_logic                      := '0';
  signal s_axis_tvalid  : std_logic                      := '0';
  signal s_axis_tdata   : std_logic_vector(255 downto 0) := (others => '0');
  signal s_axis_tkeep   : std_logic_vector(31 downto 0)  := (others => '0');
  signal s_axis_tlast   : std_logic                      := '0';
  signal s_axis_tready  : std_logic;
  signal m_axis_tvalid  : std_logic;
  signal m_axis_tdata   : std_logic_vector(255 downto 0);
  signal m_axis_tkeep   : std_logic_vector(31 downto 0);
  signal m_axis_tlast   : std_logic;
  signal m_axis_tready  : std_logic                      := '0';
  signal s_axil_awaddr  : std_logic_vector(31 downto 0)  := (others => '0');
  signal s_axil_awvalid : std_logic                      := '0';
  signal s_axil_awready : std_logic;
  signal s_axil_wdata   : std_logic_vector(31 downto 0)  := (others => '0');
  signal s_axil_wstrb   : std_logic_vector(3 downto 0)   := (others => '0');
  signal s_axil_wvalid  : std_logic                      := '0';
  signal s_axil_wready  : std_logic;
  signal s_axil_bresp   : std_logic_vector(1 downto 0);
  signal s_axil_bvalid  : std_logic;
  signal s_axil_bready  : std_logic                      := '0';
  signal s_axil_araddr  : std_logic_vector(31 downto 0)  := (others => '0');
  signal s_axil_arvalid : std_logic                      := '0';
  signal s_axil_arready : std_logic;
  signal s_axil_rdata   : std_logic_vector(31 downto 0);
  signal s_axil_rresp   : std_logic_vector(1 downto 0);
  signal s_axil_rvalid  : std_logic;
  signal s_axil_rready  : std_logic                      := '0';

begin

  u_dut : entity surf.RoCEv2DcqcnWrapper
    generic map (
      TPD_G => 0 ns
    )
    port map (
      clk            => clk,
      rst            => rst,
      cnp            => cnp,
      s_axis_tvalid  => s_axis_tvalid,
      s_axis_tdata   => s_axis_tdata,
      s_axis_tkeep   => s_axis_tkeep,
      s_axis_tlast   => s_axis_tlast,
      s_axis_tready  => s_axis_tready,
      m_axis_tvalid  => m_axis_tvalid,
      m_axis_tdata   => m_axis_tdata,
      m_axis_tkeep   => m_axis_tkeep,
      m_axis_tlast   => m_axis_tlast,
      m_axis_tready  => m_axis_tready,
      s_axil_awaddr  => s_axil_awaddr,
      s_axil_awprot  => "000",
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
      s_axil_arprot  => "000",
      s_axil_arvalid => s_axil_arvalid,
      s_axil_arready => s_axil_arready,
      s_axil_rdata   => s_axil_rdata,
      s_axil_rresp   => s_axil_rresp,
      s_axil_rvalid  => s_axil_rvalid,
      s_axil_rready  => s_axil_rready
    );

  drive : process is

    variable l_in   : line;
    variable l_out  : line;
    variable tag    : character;
    variable flags  : std_logic_vector(11 downto 0);
    variable oflags : std_logic_vector(7 downto 0);
    variable data   : std_logic_vector(255 downto 0);
    variable keep   : std_logic_vector(31 downto 0);
    variable awaddr : std_logic_vector(31 downto 0);
    variable wdata  : std_logic_vector(31 downto 0);
    variable wstrb  : std_logic_vector(3 downto 0);
    variable araddr : std_logic_vector(31 downto 0);
    variable good   : boolean;

  begin

    wait for 1 ns;

    loop
      exit when endfile(input);
      readline(input, l_in);
      read(l_in, tag);
      exit when tag = 'Q';
      assert tag = 'I'
        report "surf_tb: a line must start with I or Q"
        severity failure;
      hread(l_in, flags, good);
      if good then
        hread(l_in, data, good);
      end if;
      if good then
        hread(l_in, keep, good);
      end if;
      if good then
        hread(l_in, awaddr, good);
      end if;
      if good then
        hread(l_in, wdata, good);
      end if;
      if good then
        hread(l_in, wstrb, good);
      end if;
      if good then
        hread(l_in, araddr, good);
      end if;
      assert good
        report "surf_tb: malformed input line"
        severity failure;
      rst            <= flags(0);
      cnp            <= flags(1);
      s_axis_tvalid  <= flags(2);
      s_axis_tlast   <= flags(3);
      m_axis_tready  <= flags(4);
      s_axil_awvalid <= flags(5);
      s_axil_wvalid  <= flags(6);
      s_axil_bready  <= flags(7);
      s_axil_arvalid <= flags(8);
      s_axil_rready  <= flags(9);
      s_axis_tdata   <= data;
      s_axis_tkeep   <= keep;
      s_axil_awaddr  <= awaddr;
      s_axil_wdata   <= wdata;
      s_axil_wstrb   <= wstrb;
      s_axil_araddr  <= araddr;
      wait for 4 ns;
      clk <= '0';
      wait for 3 ns;
      oflags := s_axil_rvalid & s_axil_arready & s_axil_bvalid & s_axil_wready &
                s_axil_awready & m_axis_tlast & m_axis_tvalid & s_axis_tready;
      write(l_out, string'("O ") & to_string(oflags));
      write(l_out, ' ');
      hwrite(l_out, m_axis_tdata);
      write(l_out, ' ');
      hwrite(l_out, m_axis_tkeep);
      write(l_out, ' ');
      hwrite(l_out, s_axil_rdata);
      write(l_out, ' ');
      write(l_out, to_string(s_axil_bresp) & ' ' & to_string(s_axil_rresp));
      writeline(output, l_out);
      flush(output);
      wait for 2 ns;
      clk <= '1';
      wait for 1 ns;
    end loop;

    std.env.finish;

  end process drive;

end architecture bridge;
