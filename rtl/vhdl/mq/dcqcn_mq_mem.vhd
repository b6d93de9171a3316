-- SPDX-License-Identifier: MIT
-- dcqcn_mq_mem: one read copy of a per-QP memory, a simple dual-port block RAM with one write
-- port, one synchronous read port and the one-write bypass (spec-mq 4.2, 4.8).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_mq_pkg.all;

-- The reading process issues its read in cycle t - 1 on an address it knows then (raddr); rdata
-- is the entry in cycle t as spec-mq 4.1 defines it: the value written by the end of t - 1. The
-- RAM's synchronous read (ram_rdata_q) can miss one write, the write of t - 1 to the same
-- address; the bypass registers hold that write and replace the RAM's data when its address is
-- raddr_q, so the result does not depend on the RAM's read-during-write mode (spec-mq 4.8).
-- Entries are never reset (the init round writes them, spec-mq 4.3).
entity dcqcn_mq_mem is
  generic (
    W   : positive := 8;              -- data width
    QPS : positive := MQ_QPS_C;       -- depth
    AW  : positive := mq_aw(MQ_QPS_C) -- spec-mq 2: max(1, ceil(log2(QPS)))
  );
  port (
    clk   : in    std_logic;
    rst   : in    std_logic; -- resets the bypass registers only (spec-mq 4.2)
    -- write port (the memory's one writing process), cycle t
    we    : in    std_logic;
    waddr : in    unsigned(AW - 1 downto 0);
    wdata : in    std_logic_vector(W - 1 downto 0);
    -- read port: the address known in t - 1, the value for t
    raddr : in    unsigned(AW - 1 downto 0);
    rdata : out   std_logic_vector(W - 1 downto 0)
  );
end entity dcqcn_mq_mem;

architecture rtl of dcqcn_mq_mem is

  type RamType is array (0 to QPS - 1) of std_logic_vector(W - 1 downto 0);

  -- spec-mq 4.2: never reset
  signal ram : RamType;

  attribute RAM_STYLE : string;
  attribute RAM_STYLE of ram : signal is "block";

  signal ram_rdata_q : std_logic_vector(W - 1 downto 0) := (others => '0'); -- the RAM's read of raddr (t - 1)
  signal raddr_q     : unsigned(AW - 1 downto 0)        := (others => '0'); -- registered read address
  signal byp_we_q    : std_logic                        := '0';             -- the previous cycle's write
  signal byp_addr_q  : unsigned(AW - 1 downto 0)        := (others => '0');
  signal byp_data_q  : std_logic_vector(W - 1 downto 0) := (others => '0');

begin

  -- the RAM: one write port, one synchronous read port; the read register and its address follow
  -- raddr in every cycle, reset or not. An address >= QPS (only of a QP number >= QPS, whose
  -- read is never used) reads 0.
  mem : process (clk) is
  begin
    if rising_edge(clk) then
      if (we = '1') then
        ram(to_integer(waddr)) <= wdata;
      end if;
      if (resize(raddr, 13) < to_unsigned(QPS, 13)) then
        ram_rdata_q <= ram(to_integer(raddr));
      else
        ram_rdata_q <= (others => '0');
      end if;
      raddr_q <= raddr;
    end if;
  end process mem;

  -- the bypass registers: the previous cycle's write (reset to 0)
  byp : process (clk) is
  begin
    if rising_edge(clk) then
      if (rst = '1') then
        byp_we_q   <= '0';
        byp_addr_q <= (others => '0');
        byp_data_q <= (others => '0');
      else
        byp_we_q   <= we;
        byp_addr_q <= waddr;
        byp_data_q <= wdata;
      end if;
    end if;
  end process byp;

  -- spec-mq 4.8: one level of bypass
  rdata <= byp_data_q when byp_we_q = '1' and byp_addr_q = raddr_q else
           ram_rdata_q;

end architecture rtl;
