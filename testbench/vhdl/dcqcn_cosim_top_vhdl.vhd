-- SPDX-License-Identifier: MIT
-- dcqcn_cosim_top: simulation-only wrapper of the VHDL dcqcn_rl exposing every architectural
-- register (spec 7) as st_* outputs; the VHDL counterpart of verilator/dcqcn_cosim_top.sv.

-- Not for synthesis. Ports other than st_* pass through unchanged. Two architectures:
--   ext_names (this file): the st_* outputs read the state records `r` of the instance `dut` and its
--     sub-blocks with VHDL-2008 external names. The paths are relative (`^.dut.<instance>.r`, from
--     the block b_state up to this architecture, then down), so the wrapper works under any
--     testbench; the aliases sit in a block placed after `dut`, because an external name may only
--     denote an object that is already elaborated. GHDL 2.0 analyses it but cannot elaborate
--     external names ("translate_name: cannot handle IIR_KIND_EXTERNAL_SIGNAL_NAME").
--   tap (dcqcn_cosim_top_tap.vhd): the same records through the simulation-only signals of
--     rtl/vhdl/dcqcn_tap_pkg.vhd, for GHDL 2.0.
-- The architecture analysed last is the default binding; testbench/vhdl/run.sh picks one.

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;

entity dcqcn_cosim_top is
  generic (
    DATA_BYTES  : natural                       := DCQCN_DATA_BYTES_C;
    CLK_FREQ_HZ : std_logic_vector(31 downto 0) := DCQCN_CLK_FREQ_HZ_C;
    LINE_RATE   : std_logic_vector(31 downto 0) := DCQCN_LINE_RATE_C;
    -- spec 2: the features
    RATE_RULES  : boolean := true;
    CONTROL     : boolean := true;
    TRACE_DEPTH : natural := TRACE_DEPTH_C
  );
  port (
    -- Clock and synchronous reset (active high)
    clk                    : in    std_logic;
    rst                    : in    std_logic;
    -- CNP notification from the MAC receive path, may be asynchronous
    cnp                    : in    std_logic;
    -- AXI4-Stream input (from the RoCEv2 engine)
    s_axis_tdata           : in    std_logic_vector(8 * DATA_BYTES - 1 downto 0);
    s_axis_tkeep           : in    std_logic_vector(DATA_BYTES - 1 downto 0);
    s_axis_tvalid          : in    std_logic;
    s_axis_tready          : out   std_logic;
    s_axis_tlast           : in    std_logic;
    -- AXI4-Stream output (to the MAC)
    m_axis_tdata           : out   std_logic_vector(8 * DATA_BYTES - 1 downto 0);
    m_axis_tkeep           : out   std_logic_vector(DATA_BYTES - 1 downto 0);
    m_axis_tvalid          : out   std_logic;
    m_axis_tready          : in    std_logic;
    m_axis_tlast           : out   std_logic;
    -- AXI4-Lite slave: write
    s_axil_awaddr          : in    std_logic_vector(11 downto 0);
    s_axil_awvalid         : in    std_logic;
    s_axil_awready         : out   std_logic;
    s_axil_wdata           : in    std_logic_vector(31 downto 0);
    s_axil_wstrb           : in    std_logic_vector(3 downto 0);
    s_axil_wvalid          : in    std_logic;
    s_axil_wready          : out   std_logic;
    s_axil_bresp           : out   std_logic_vector(1 downto 0);
    s_axil_bvalid          : out   std_logic;
    s_axil_bready          : in    std_logic;
    -- AXI4-Lite slave: read
    s_axil_araddr          : in    std_logic_vector(11 downto 0);
    s_axil_arvalid         : in    std_logic;
    s_axil_arready         : out   std_logic;
    s_axil_rdata           : out   std_logic_vector(31 downto 0);
    s_axil_rresp           : out   std_logic_vector(1 downto 0);
    s_axil_rvalid          : out   std_logic;
    s_axil_rready          : in    std_logic;
    -- BEGIN GENERATED st-ports: `make gen` from the snapshot! list; do not edit
    -- spec 7, cnp_sync
    st_cnp_meta            : out   std_logic_vector(0 downto 0);
    st_cnp_sync            : out   std_logic;
    st_cnp_prev            : out   std_logic;
    -- spec 7, top
    st_rc                  : out   std_logic_vector(31 downto 0);
    st_rt                  : out   std_logic_vector(31 downto 0);
    st_active              : out   std_logic;
    -- spec 7, alpha
    st_alpha               : out   std_logic_vector(9 downto 0);
    st_alpha_timer         : out   std_logic_vector(15 downto 0);
    st_alpha_pending       : out   std_logic;
    -- spec 7, rate_dec
    st_dec_timer           : out   std_logic_vector(15 downto 0);
    st_dec_pending         : out   std_logic;
    -- spec 7, rate_inc
    st_inc_timer           : out   std_logic_vector(31 downto 0);
    st_byte_cnt            : out   std_logic_vector(31 downto 0);
    st_t_stage             : out   std_logic_vector(7 downto 0);
    st_b_stage             : out   std_logic_vector(7 downto 0);
    -- spec 7, credit_gate
    st_bpc                 : out   std_logic_vector(31 downto 0);
    st_credit              : out   std_logic_vector(47 downto 0);
    -- spec 7, regs
    st_cfg_alpha_g         : out   std_logic_vector(9 downto 0);
    st_cfg_dec_gain        : out   std_logic_vector(3 downto 0);
    st_cfg_stage_threshold : out   std_logic_vector(7 downto 0);
    st_cfg_clamp_tgt       : out   std_logic;
    st_cfg_rai             : out   std_logic_vector(31 downto 0);
    st_cfg_rhai            : out   std_logic_vector(31 downto 0);
    st_cfg_rmin            : out   std_logic_vector(31 downto 0);
    st_cfg_inc_interval    : out   std_logic_vector(31 downto 0);
    st_cfg_dec_interval    : out   std_logic_vector(15 downto 0);
    st_cfg_alpha_interval  : out   std_logic_vector(15 downto 0);
    st_cfg_bypass          : out   std_logic;
    st_cfg_timer_en        : out   std_logic;
    st_cfg_byte_en         : out   std_logic;
    st_cfg_byte_threshold  : out   std_logic_vector(31 downto 0);
    st_cfg_credit_cap      : out   std_logic_vector(31 downto 0);
    st_cnp_cnt16           : out   std_logic_vector(15 downto 0);
    st_cnt_cnp             : out   std_logic_vector(31 downto 0);
    st_cnt_dec             : out   std_logic_vector(31 downto 0);
    st_cnt_inc_fr          : out   std_logic_vector(31 downto 0);
    st_cnt_inc_ai          : out   std_logic_vector(31 downto 0);
    st_cnt_inc_hai         : out   std_logic_vector(31 downto 0);
    st_cnt_inc_timer       : out   std_logic_vector(31 downto 0);
    st_cnt_inc_byte        : out   std_logic_vector(31 downto 0);
    st_cnt_stall           : out   std_logic_vector(31 downto 0);
    st_cnt_bytes           : out   std_logic_vector(63 downto 0);
    st_bytes_hi            : out   std_logic_vector(31 downto 0);
    st_cfg_rmax            : out   std_logic_vector(31 downto 0);
    st_cfg_rate_first_cnp  : out   std_logic_vector(31 downto 0);
    st_cfg_alpha_init      : out   std_logic_vector(9 downto 0);
    st_cfg_min_dec_fac     : out   std_logic_vector(10 downto 0);
    st_cfg_hai_mult        : out   std_logic;
    st_cfg_scheme          : out   std_logic_vector(1 downto 0);
    st_cfg_gate_mask       : out   std_logic;
    st_cfg_fw_rate         : out   std_logic_vector(31 downto 0);
    st_cfg_trace_en        : out   std_logic;
    st_cfg_trace_wrap      : out   std_logic;
    st_cfg_trace_sel       : out   std_logic_vector(5 downto 0);
    st_trace_count         : out   std_logic_vector(6 downto 0);
    st_trace_wptr          : out   std_logic_vector(5 downto 0);
    st_trace_lost          : out   std_logic;
    st_trace_time          : out   std_logic_vector(31 downto 0);
    st_trace_n_dec         : out   std_logic_vector(9 downto 0);
    st_trace_n_byte        : out   std_logic_vector(9 downto 0);
    st_trace_n_timer       : out   std_logic_vector(9 downto 0);
    st_trace_last_type     : out   std_logic_vector(3 downto 0);
    st_trace_last_rc       : out   std_logic_vector(31 downto 0);
    st_trace_last_stamp    : out   std_logic_vector(31 downto 0)
  -- END GENERATED st-ports
  );
end entity dcqcn_cosim_top;

architecture ext_names of dcqcn_cosim_top is

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

  -- spec 7: architectural registers, by external name (names as in the spec)
  b_state : block is

    alias cnp_sync_r    is << signal ^.dut.u_cnp_sync.r : CnpSyncRegType >>;
    alias rl_r          is << signal ^.dut.r : RlRegType >>;
    alias alpha_r       is << signal ^.dut.u_alpha.r : AlphaRegType >>;
    alias rate_dec_r    is << signal ^.dut.u_rate_dec.r : RateDecRegType >>;
    alias rate_inc_r    is << signal ^.dut.u_rate_inc.r : RateIncRegType >>;
    alias credit_gate_r is << signal ^.dut.u_credit_gate.r : CreditGateRegType(
      m_data(8 * DATA_BYTES - 1 downto 0), m_keep(DATA_BYTES - 1 downto 0)) >>;
    alias regs_r        is << signal ^.dut.u_regs.r : RegsRegType >>;
    alias trace_mem_r   is << signal ^.dut.u_regs.trace_mem : TraceMemType >>;

    signal trace_last : trace_entry_t;

  begin

    -- BEGIN GENERATED st-assign: `make gen` from the snapshot! list; do not edit
    st_cnp_meta            <= (0 => cnp_sync_r.cnp_meta);
    st_cnp_sync            <= cnp_sync_r.cnp_sync;
    st_cnp_prev            <= cnp_sync_r.cnp_prev;
    st_rc                  <= std_logic_vector(rl_r.rc);
    st_rt                  <= std_logic_vector(rl_r.rt);
    st_active              <= rl_r.active;
    st_alpha               <= std_logic_vector(alpha_r.alpha);
    st_alpha_timer         <= std_logic_vector(alpha_r.alpha_timer);
    st_alpha_pending       <= alpha_r.alpha_pending;
    st_dec_timer           <= std_logic_vector(rate_dec_r.dec_timer);
    st_dec_pending         <= rate_dec_r.dec_pending;
    st_inc_timer           <= std_logic_vector(rate_inc_r.inc_timer);
    st_byte_cnt            <= std_logic_vector(rate_inc_r.byte_cnt);
    st_t_stage             <= std_logic_vector(rate_inc_r.t_stage);
    st_b_stage             <= std_logic_vector(rate_inc_r.b_stage);
    st_bpc                 <= std_logic_vector(credit_gate_r.bpc);
    st_credit              <= std_logic_vector(credit_gate_r.credit);
    st_cfg_alpha_g         <= std_logic_vector(regs_r.cfg.alpha_g);
    st_cfg_dec_gain        <= std_logic_vector(regs_r.cfg.dec_gain);
    st_cfg_stage_threshold <= std_logic_vector(regs_r.cfg.stage_threshold);
    st_cfg_clamp_tgt       <= regs_r.cfg.clamp_tgt;
    st_cfg_rai             <= std_logic_vector(regs_r.cfg.rai);
    st_cfg_rhai            <= std_logic_vector(regs_r.cfg.rhai);
    st_cfg_rmin            <= std_logic_vector(regs_r.cfg.rmin);
    st_cfg_inc_interval    <= std_logic_vector(regs_r.cfg.inc_interval);
    st_cfg_dec_interval    <= std_logic_vector(regs_r.cfg.dec_interval);
    st_cfg_alpha_interval  <= std_logic_vector(regs_r.cfg.alpha_interval);
    st_cfg_bypass          <= regs_r.cfg.bypass;
    st_cfg_timer_en        <= regs_r.cfg.timer_en;
    st_cfg_byte_en         <= regs_r.cfg.byte_en;
    st_cfg_byte_threshold  <= std_logic_vector(regs_r.cfg.byte_threshold);
    st_cfg_credit_cap      <= std_logic_vector(regs_r.cfg.credit_cap);
    st_cnp_cnt16           <= std_logic_vector(regs_r.cnt.cnp_cnt16);
    st_cnt_cnp             <= std_logic_vector(regs_r.cnt.cnt_cnp);
    st_cnt_dec             <= std_logic_vector(regs_r.cnt.cnt_dec);
    st_cnt_inc_fr          <= std_logic_vector(regs_r.cnt.cnt_inc_fr);
    st_cnt_inc_ai          <= std_logic_vector(regs_r.cnt.cnt_inc_ai);
    st_cnt_inc_hai         <= std_logic_vector(regs_r.cnt.cnt_inc_hai);
    st_cnt_inc_timer       <= std_logic_vector(regs_r.cnt.cnt_inc_timer);
    st_cnt_inc_byte        <= std_logic_vector(regs_r.cnt.cnt_inc_byte);
    st_cnt_stall           <= std_logic_vector(regs_r.cnt.cnt_stall);
    st_cnt_bytes           <= std_logic_vector(regs_r.cnt.cnt_bytes);
    st_bytes_hi            <= std_logic_vector(regs_r.cnt.bytes_hi);
    st_cfg_rmax            <= std_logic_vector(regs_r.cfg.rmax);
    st_cfg_rate_first_cnp  <= std_logic_vector(regs_r.cfg.rate_first_cnp);
    st_cfg_alpha_init      <= std_logic_vector(regs_r.cfg.alpha_init);
    st_cfg_min_dec_fac     <= std_logic_vector(regs_r.cfg.min_dec_fac);
    st_cfg_hai_mult        <= regs_r.cfg.hai_mult;
    st_cfg_scheme          <= std_logic_vector(regs_r.cfg.scheme);
    st_cfg_gate_mask       <= regs_r.cfg.gate_mask;
    st_cfg_fw_rate         <= std_logic_vector(regs_r.cfg.fw_rate);
    st_cfg_trace_en        <= regs_r.trace_cfg.trace_en;
    st_cfg_trace_wrap      <= regs_r.trace_cfg.trace_wrap;
    st_cfg_trace_sel       <= std_logic_vector(regs_r.trace_cfg.trace_sel);
    st_trace_count         <= std_logic_vector(regs_r.trace.count);
    st_trace_wptr          <= std_logic_vector(regs_r.trace.wptr);
    st_trace_lost          <= regs_r.trace.lost;
    st_trace_time          <= std_logic_vector(regs_r.trace.time);
    st_trace_n_dec         <= std_logic_vector(regs_r.trace.n_dec);
    st_trace_n_byte        <= std_logic_vector(regs_r.trace.n_byte);
    st_trace_n_timer       <= std_logic_vector(regs_r.trace.n_timer);
    -- spec 7: the most recent entry, 0 while the window is empty
    trace_last          <= (others => '0') when regs_r.trace.count = 0 else
                           trace_mem_r(to_integer(regs_r.trace.wptr - 1));
    st_trace_last_type  <= trace_last(3 downto 0);
    st_trace_last_rc    <= trace_last(35 downto 4);
    st_trace_last_stamp <= trace_last(67 downto 36);
  -- END GENERATED st-assign

  end block b_state;

end architecture ext_names;
