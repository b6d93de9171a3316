# SPDX-License-Identifier: MIT
# ruckus loader of the DCQCN rate limiter: from a ruckus target or library, load this directory
# with `loadRuckusTcl "<path to this repository>/rtl"`. The SystemVerilog is loaded by default;
# set the environment variable DCQCN_HDL=vhdl for the VHDL-2008 twin instead. The top is
# dcqcn_rl in both. The same files, in the same order, as dcqcn.core, rtl/files.f and
# rtl/files_vhdl.f (make hdl-package-check compares them).
source -quiet $::env(RUCKUS_DIR)/vivado_proc.tcl

if { [info exists ::env(DCQCN_HDL)] && $::env(DCQCN_HDL) eq "vhdl" } {
    foreach f {
        dcqcn_pkg.vhd
        dcqcn_tap_pkg.vhd
        dcqcn_cnp_sync.vhd
        dcqcn_alpha.vhd
        dcqcn_rate_dec.vhd
        dcqcn_rate_inc.vhd
        dcqcn_credit_gate.vhd
        dcqcn_regs.vhd
        dcqcn_rl.vhd
    } {
        loadSource -lib dcqcn -path "$::DIR_PATH/vhdl/$f"
    }
} else {
    # the headers are `include`d by name from this directory
    foreach f {
        dcqcn_checks.svh
        dcqcn_regmap.svh
        dcqcn_cnp_sync.sv
        dcqcn_alpha.sv
        dcqcn_rate_dec.sv
        dcqcn_rate_inc.sv
        dcqcn_credit_gate.sv
        dcqcn_regs.sv
        dcqcn_rl.sv
    } {
        loadSource -lib dcqcn -path "$::DIR_PATH/$f"
    }
}
