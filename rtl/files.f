+incdir+rtl
rtl/dcqcn_cnp_sync.sv
rtl/dcqcn_alpha.sv
rtl/dcqcn_rate_dec.sv
rtl/dcqcn_rate_inc.sv
rtl/dcqcn_credit_gate.sv
rtl/dcqcn_regs.sv
rtl/dcqcn_rl.sv
