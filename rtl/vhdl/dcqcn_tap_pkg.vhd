-- SPDX-License-Identifier: MIT
-- dcqcn_tap_pkg: simulation-only copies of the state records (spec 7) for simulators without
-- VHDL-2008 external names (GHDL 2.0).

-- Every block assigns its state record `r` to its signal here, inside `pragma translate_off`
-- (synthesis never sees this package or the assignments). The cosim wrapper architecture `tap`
-- (testbench/vhdl/dcqcn_cosim_top_tap.vhd) reads them; the architecture `ext_names` reads the same
-- records with external names instead. One dcqcn_rl per simulation: a second instance would drive
-- the same signals (std_logic resolution gives X, which the lockstep reports).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;

package dcqcn_tap_pkg is

  -- the credit gate's record without its DATA_BYTES-wide stream register (spec 7: bpc, credit)
  type CreditTapType is record
    bpc    : unsigned(31 downto 0);
    credit : unsigned(47 downto 0);
  end record CreditTapType;

  signal tap_cnp_sync    : CnpSyncRegType;
  signal tap_rl          : RlRegType;
  signal tap_alpha       : AlphaRegType;
  signal tap_rate_dec    : RateDecRegType;
  signal tap_rate_inc    : RateIncRegType;
  signal tap_credit_gate : CreditTapType;
  signal tap_regs        : RegsRegType;
  signal tap_trace_mem   : TraceMemType;

end package dcqcn_tap_pkg;
