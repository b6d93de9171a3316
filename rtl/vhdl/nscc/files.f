rtl/vhdl/nscc/nscc_mq_pkg.vhd
rtl/vhdl/nscc/nscc_mq_ack_exec.vhd
