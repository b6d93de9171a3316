-- SPDX-License-Identifier: MIT
-- dcqcn_cnp_sync: CNP input synchroniser and rising-edge detector (spec 4.1).

library ieee;
  use ieee.std_logic_1164.all;

library work;
  use work.dcqcn_pkg.all;
  -- pragma translate_off
  use work.dcqcn_tap_pkg.all;
  -- pragma translate_on

entity dcqcn_cnp_sync is
  port (
    -- Clock and synchronous reset
    clk       : in    std_logic;
    rst       : in    std_logic;
    -- CNP notification from the MAC receive path, may be asynchronous
    cnp       : in    std_logic;
    -- Configuration
    rp_hold   : in    std_logic; -- bypass or scheme bit 0: held in reset (spec 4.7, 4.9)
    -- Events (combinational, from this cycle's registers)
    cnp_edge  : out   std_logic; -- counted by the CNP counters even while held (spec 6.2)
    cnp_event : out   std_logic  -- drives the reaction point
  );
end entity dcqcn_cnp_sync;

architecture rtl of dcqcn_cnp_sync is

  -- spec 4.1: the synchroniser restarts from 0, a level held across reset is one CNP
  constant REG_INIT_C : CnpSyncRegType := (
    cnp_meta => '0',
    cnp_sync => '0',
    cnp_prev => '0');

  signal r   : CnpSyncRegType := REG_INIT_C;
  signal rin : CnpSyncRegType;

  -- spec 4.1: two synchroniser flops then the edge-detector history flop (the attribute covers the
  -- whole record; on cnp_prev, the third flop of the same chain, it only constrains placement)
  attribute ASYNC_REG      : string;
  attribute ASYNC_REG of r : signal is "TRUE";

begin

  comb : process (all) is
    variable v : CnpSyncRegType;
  begin
    v := r;

    -- spec 4.1: two synchroniser flops then the edge-detector history flop
    v.cnp_meta := cnp;
    v.cnp_sync := r.cnp_meta;
    v.cnp_prev := r.cnp_sync;

    -- spec 4.1: only rising edges count; a held reaction point ignores CNPs (spec 4.7, 4.9)
    cnp_edge  <= r.cnp_sync and not r.cnp_prev;
    cnp_event <= r.cnp_sync and not r.cnp_prev and not rp_hold;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- pragma translate_off
  -- simulation only: the state record for simulators without external names (dcqcn_tap_pkg)
  tap_cnp_sync <= r;
  -- pragma translate_on

end architecture rtl;
