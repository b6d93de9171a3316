+incdir+rtl/nscc
rtl/nscc/nscc_mq_pkg.sv
rtl/nscc/nscc_mq_ack_exec.sv
