-- SPDX-License-Identifier: MIT
-- dcqcn_cosim_top, architecture tap: the spec-7 state of the VHDL dcqcn_rl from the
-- simulation-only signals of rtl/vhdl/dcqcn_tap_pkg.vhd, for simulators without VHDL-2008 external
-- names (GHDL 2.0). The entity and the architecture ext_names are in dcqcn_cosim_top_vhdl.vhd.

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;
  use work.dcqcn_tap_pkg.all;

architecture tap of dcqcn_cosim_top is

  signal trace_last : trace_entry_t;

begin

  dut : entity work.dcqcn_rl
    generic map (
      DATA_BYTES  => DATA_BYTES,
      CLK_FREQ_HZ => CLK_FREQ_HZ,
      LINE_RATE   => LINE_RATE,
      RATE_RULES  => RATE_RULES,
      CONTROL     => CONTROL,
      TRACE_DEPTH => TRACE_DEPTH
    )
    port map (
      clk            => clk,
      rst            => rst,
      cnp            => cnp,
      s_axis_tdata   => s_axis_tdata,
      s_axis_tkeep   => s_axis_tkeep,
      s_axis_tvalid  => s_axis_tvalid,
      s_axis_tready  => s_axis_tready,
      s_axis_tlast   => s_axis_tlast,
      m_axis_tdata   => m_axis_tdata,
      m_axis_tkeep   => m_axis_tkeep,
      m_axis_tvalid  => m_axis_tvalid,
      m_axis_tready  => m_axis_tready,
      m_axis_tlast   => m_axis_tlast,
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
      s_axil_rready  => s_axil_rready
    );

  -- spec 7: architectural registers, from the simulation-only copies (names as in the spec)
  -- BEGIN GENERATED st-assign: `make gen` from the snapshot! list; do not edit
  st_cnp_meta            <= (0 => tap_cnp_sync.cnp_meta);
  st_cnp_sync            <= tap_cnp_sync.cnp_sync;
  st_cnp_prev            <= tap_cnp_sync.cnp_prev;
  st_rc                  <= std_logic_vector(tap_rl.rc);
  st_rt                  <= std_logic_vector(tap_rl.rt);
  st_active              <= tap_rl.active;
  st_alpha               <= std_logic_vector(tap_alpha.alpha);
  st_alpha_timer         <= std_logic_vector(tap_alpha.alpha_timer);
  st_alpha_pending       <= tap_alpha.alpha_pending;
  st_dec_timer           <= std_logic_vector(tap_rate_dec.dec_timer);
  st_dec_pending         <= tap_rate_dec.dec_pending;
  st_inc_timer           <= std_logic_vector(tap_rate_inc.inc_timer);
  st_byte_cnt            <= std_logic_vector(tap_rate_inc.byte_cnt);
  st_t_stage             <= std_logic_vector(tap_rate_inc.t_stage);
  st_b_stage             <= std_logic_vector(tap_rate_inc.b_stage);
  st_bpc                 <= std_logic_vector(tap_credit_gate.bpc);
  st_credit              <= std_logic_vector(tap_credit_gate.credit);
  st_cfg_alpha_g         <= std_logic_vector(tap_regs.cfg.alpha_g);
  st_cfg_dec_gain        <= std_logic_vector(tap_regs.cfg.dec_gain);
  st_cfg_stage_threshold <= std_logic_vector(tap_regs.cfg.stage_threshold);
  st_cfg_clamp_tgt       <= tap_regs.cfg.clamp_tgt;
  st_cfg_rai             <= std_logic_vector(tap_regs.cfg.rai);
  st_cfg_rhai            <= std_logic_vector(tap_regs.cfg.rhai);
  st_cfg_rmin            <= std_logic_vector(tap_regs.cfg.rmin);
  st_cfg_inc_interval    <= std_logic_vector(tap_regs.cfg.inc_interval);
  st_cfg_dec_interval    <= std_logic_vector(tap_regs.cfg.dec_interval);
  st_cfg_alpha_interval  <= std_logic_vector(tap_regs.cfg.alpha_interval);
  st_cfg_bypass          <= tap_regs.cfg.bypass;
  st_cfg_timer_en        <= tap_regs.cfg.timer_en;
  st_cfg_byte_en         <= tap_regs.cfg.byte_en;
  st_cfg_byte_threshold  <= std_logic_vector(tap_regs.cfg.byte_threshold);
  st_cfg_credit_cap      <= std_logic_vector(tap_regs.cfg.credit_cap);
  st_cnp_cnt16           <= std_logic_vector(tap_regs.cnt.cnp_cnt16);
  st_cnt_cnp             <= std_logic_vector(tap_regs.cnt.cnt_cnp);
  st_cnt_dec             <= std_logic_vector(tap_regs.cnt.cnt_dec);
  st_cnt_inc_fr          <= std_logic_vector(tap_regs.cnt.cnt_inc_fr);
  st_cnt_inc_ai          <= std_logic_vector(tap_regs.cnt.cnt_inc_ai);
  st_cnt_inc_hai         <= std_logic_vector(tap_regs.cnt.cnt_inc_hai);
  st_cnt_inc_timer       <= std_logic_vector(tap_regs.cnt.cnt_inc_timer);
  st_cnt_inc_byte        <= std_logic_vector(tap_regs.cnt.cnt_inc_byte);
  st_cnt_stall           <= std_logic_vector(tap_regs.cnt.cnt_stall);
  st_cnt_bytes           <= std_logic_vector(tap_regs.cnt.cnt_bytes);
  st_bytes_hi            <= std_logic_vector(tap_regs.cnt.bytes_hi);
  st_cfg_rmax            <= std_logic_vector(tap_regs.cfg.rmax);
  st_cfg_rate_first_cnp  <= std_logic_vector(tap_regs.cfg.rate_first_cnp);
  st_cfg_alpha_init      <= std_logic_vector(tap_regs.cfg.alpha_init);
  st_cfg_min_dec_fac     <= std_logic_vector(tap_regs.cfg.min_dec_fac);
  st_cfg_hai_mult        <= tap_regs.cfg.hai_mult;
  st_cfg_scheme          <= std_logic_vector(tap_regs.cfg.scheme);
  st_cfg_gate_mask       <= tap_regs.cfg.gate_mask;
  st_cfg_fw_rate         <= std_logic_vector(tap_regs.cfg.fw_rate);
  st_cfg_trace_en        <= tap_regs.trace_cfg.trace_en;
  st_cfg_trace_wrap      <= tap_regs.trace_cfg.trace_wrap;
  st_cfg_trace_sel       <= std_logic_vector(tap_regs.trace_cfg.trace_sel);
  st_trace_count         <= std_logic_vector(tap_regs.trace.count);
  st_trace_wptr          <= std_logic_vector(tap_regs.trace.wptr);
  st_trace_lost          <= tap_regs.trace.lost;
  st_trace_time          <= std_logic_vector(tap_regs.trace.time);
  st_trace_n_dec         <= std_logic_vector(tap_regs.trace.n_dec);
  st_trace_n_byte        <= std_logic_vector(tap_regs.trace.n_byte);
  st_trace_n_timer       <= std_logic_vector(tap_regs.trace.n_timer);
  -- spec 7: the most recent entry, 0 while the window is empty
  trace_last          <= (others => '0') when tap_regs.trace.count = 0 else
                         tap_trace_mem(to_integer(tap_regs.trace.wptr - 1));
  st_trace_last_type  <= trace_last(3 downto 0);
  st_trace_last_rc    <= trace_last(35 downto 4);
  st_trace_last_stamp <= trace_last(67 downto 36);
-- END GENERATED st-assign

end architecture tap;
