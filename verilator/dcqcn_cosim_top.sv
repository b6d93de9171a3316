// SPDX-License-Identifier: MIT
// dcqcn_cosim_top: simulation-only wrapper exposing every architectural register of dcqcn_rl (spec 7) as st_* outputs.

`resetall
`timescale 1ns / 1ps
`default_nettype none

// Not for synthesis: the st_* outputs are hierarchical references into the instance `dut`, read by
// the lockstep shim after each rising edge. Ports other than st_* pass through unchanged.
//
// The st_* ports, their assignments and the injection are generated (`make gen`, crates/dcqcn-gen)
// from the comparison record's one declaration, the snapshot! list of
// crates/dcqcn-model/src/snapshot.rs, as are the bridge's Sample (crates/dcqcn-cosim/src/ffi.rs)
// and the shim's lists: the order of the st_* ports of one width (1-8, 9-16, 17-32, 33-64 bits) is
// the order of that run in Sample, because Verilator lays the ports of one width out in
// declaration order and the shim copies each run whole where it is in one piece
// (rtl::tests::whole_runs_copy_what_field_by_field_copies fails if a run is not in one piece).
//
// The same wrapper serves the VHDL twin (rtl/vhdl/) when built with DCQCN_VHDL_TWIN defined:
// `dut` is then the Verilog that `ghdl --synth` makes of it (scripts/vhdl2verilog.py), whose
// generics are fixed at synthesis, and the st_* assignments are the generated
// dcqcn_cosim_state.svh (each register a bit range of its block's state record r).
//
// With DCQCN_INJECT defined (the lockstep's builds), the in_* ports and inj_clk load any state: at a
// rising edge of inj_clk, with clk held, every register of spec 7 takes its in_* value (spec 4.8).
`ifdef DCQCN_VHDL_TWIN
`define DCQCN_RL_PARAMS
`else
`define DCQCN_RL_PARAMS #(.DATA_BYTES(DATA_BYTES), .CLK_FREQ_HZ(CLK_FREQ_HZ), .LINE_RATE(LINE_RATE), \
    .RATE_RULES(RATE_RULES), .CONTROL(CONTROL), .TRACE_DEPTH(TRACE_DEPTH))
`endif
module dcqcn_cosim_top #(
    parameter int          DATA_BYTES  = 8,
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,
    parameter logic [31:0] LINE_RATE   = 32'd1_250_000_000
`ifndef DCQCN_VHDL_TWIN
    // spec 2: the features (the VHDL twin's are fixed by ghdl --synth)
  , parameter int          RATE_RULES  = 1
  , parameter int          CONTROL     = 1
  , parameter int          TRACE_DEPTH = 64
`endif
) (
    /* Clock and synchronous reset (active high) */
    input  wire logic                    clk,
    input  wire logic                    rst,

    /* CNP notification from the MAC receive path, may be asynchronous */
    input  wire logic                    cnp,

    /* AXI4-Stream input (from the RoCEv2 engine) */
    input  wire logic [8*DATA_BYTES-1:0] s_axis_tdata,
    input  wire logic [DATA_BYTES-1:0]   s_axis_tkeep,
    input  wire logic                    s_axis_tvalid,
    output logic                         s_axis_tready,
    input  wire logic                    s_axis_tlast,

    /* AXI4-Stream output (to the MAC) */
    output logic      [8*DATA_BYTES-1:0] m_axis_tdata,
    output logic      [DATA_BYTES-1:0]   m_axis_tkeep,
    output logic                         m_axis_tvalid,
    input  wire logic                    m_axis_tready,
    output logic                         m_axis_tlast,

    /* AXI4-Lite slave: write */
    input  wire logic [11:0]             s_axil_awaddr,
    input  wire logic                    s_axil_awvalid,
    output logic                         s_axil_awready,
    input  wire logic [31:0]             s_axil_wdata,
    input  wire logic [3:0]              s_axil_wstrb,
    input  wire logic                    s_axil_wvalid,
    output logic                         s_axil_wready,
    output logic      [1:0]              s_axil_bresp,
    output logic                         s_axil_bvalid,
    input  wire logic                    s_axil_bready,

    /* AXI4-Lite slave: read */
    input  wire logic [11:0]             s_axil_araddr,
    input  wire logic                    s_axil_arvalid,
    output logic                         s_axil_arready,
    output logic      [31:0]             s_axil_rdata,
    output logic      [1:0]              s_axil_rresp,
    output logic                         s_axil_rvalid,
    input  wire logic                    s_axil_rready,
    // BEGIN GENERATED st-ports: `make gen` from the snapshot! list; do not edit

    /* spec 7, cnp_sync */
    output logic [0:0]    st_cnp_meta,
    output logic          st_cnp_sync,
    output logic          st_cnp_prev,

    /* spec 7, top */
    output logic [31:0]   st_rc,
    output logic [31:0]   st_rt,
    output logic          st_active,

    /* spec 7, alpha */
    output logic [9:0]    st_alpha,
    output logic [15:0]   st_alpha_timer,
    output logic          st_alpha_pending,

    /* spec 7, rate_dec */
    output logic [15:0]   st_dec_timer,
    output logic          st_dec_pending,

    /* spec 7, rate_inc */
    output logic [31:0]   st_inc_timer,
    output logic [31:0]   st_byte_cnt,
    output logic [7:0]    st_t_stage,
    output logic [7:0]    st_b_stage,

    /* spec 7, credit_gate */
    output logic [31:0]   st_bpc,
    output logic [47:0]   st_credit,

    /* spec 7, regs */
    output logic [9:0]    st_cfg_alpha_g,
    output logic [3:0]    st_cfg_dec_gain,
    output logic [7:0]    st_cfg_stage_threshold,
    output logic          st_cfg_clamp_tgt,
    output logic [31:0]   st_cfg_rai,
    output logic [31:0]   st_cfg_rhai,
    output logic [31:0]   st_cfg_rmin,
    output logic [31:0]   st_cfg_inc_interval,
    output logic [15:0]   st_cfg_dec_interval,
    output logic [15:0]   st_cfg_alpha_interval,
    output logic          st_cfg_bypass,
    output logic          st_cfg_timer_en,
    output logic          st_cfg_byte_en,
    output logic [31:0]   st_cfg_byte_threshold,
    output logic [31:0]   st_cfg_credit_cap,
    output logic [15:0]   st_cnp_cnt16,
    output logic [31:0]   st_cnt_cnp,
    output logic [31:0]   st_cnt_dec,
    output logic [31:0]   st_cnt_inc_fr,
    output logic [31:0]   st_cnt_inc_ai,
    output logic [31:0]   st_cnt_inc_hai,
    output logic [31:0]   st_cnt_inc_timer,
    output logic [31:0]   st_cnt_inc_byte,
    output logic [31:0]   st_cnt_stall,
    output logic [63:0]   st_cnt_bytes,
    output logic [31:0]   st_bytes_hi
`ifdef DCQCN_INJECT

    /* spec 7, the registers after golden format 1's fields: lockstep builds only, so that
       the golden-format-1 testbenches keep their port list */
  , output logic [31:0]   st_cfg_rmax
  , output logic [31:0]   st_cfg_rate_first_cnp
  , output logic [9:0]    st_cfg_alpha_init
  , output logic [10:0]   st_cfg_min_dec_fac
  , output logic          st_cfg_hai_mult
  , output logic [1:0]    st_cfg_scheme
  , output logic          st_cfg_gate_mask
  , output logic [31:0]   st_cfg_fw_rate
  , output logic          st_cfg_trace_en
  , output logic          st_cfg_trace_wrap
  , output logic [5:0]    st_cfg_trace_sel
  , output logic [6:0]    st_trace_count
  , output logic [5:0]    st_trace_wptr
  , output logic          st_trace_lost
  , output logic [31:0]   st_trace_time
  , output logic [9:0]    st_trace_n_dec
  , output logic [9:0]    st_trace_n_byte
  , output logic [9:0]    st_trace_n_timer
  , output logic [3:0]    st_trace_last_type
  , output logic [31:0]   st_trace_last_rc
  , output logic [31:0]   st_trace_last_stamp

    /* state injection (spec 4.8): at a rising edge of inj_clk (clk held still) every register of
       spec 7 takes the value of its in_* port; in_* and inj_clk are not used otherwise */
  , input  wire logic                    inj_clk
  , input  wire logic                      in_cnp_meta
  , input  wire logic                      in_cnp_sync
  , input  wire logic                      in_cnp_prev
  , input  wire logic [31:0]               in_rc
  , input  wire logic [31:0]               in_rt
  , input  wire logic                      in_active
  , input  wire logic [9:0]                in_alpha
  , input  wire logic [15:0]               in_alpha_timer
  , input  wire logic                      in_alpha_pending
  , input  wire logic [15:0]               in_dec_timer
  , input  wire logic                      in_dec_pending
  , input  wire logic [31:0]               in_inc_timer
  , input  wire logic [31:0]               in_byte_cnt
  , input  wire logic [7:0]                in_t_stage
  , input  wire logic [7:0]                in_b_stage
  , input  wire logic [31:0]               in_bpc
  , input  wire logic [47:0]               in_credit
  , input  wire logic [9:0]                in_cfg_alpha_g
  , input  wire logic [3:0]                in_cfg_dec_gain
  , input  wire logic [7:0]                in_cfg_stage_threshold
  , input  wire logic                      in_cfg_clamp_tgt
  , input  wire logic [31:0]               in_cfg_rai
  , input  wire logic [31:0]               in_cfg_rhai
  , input  wire logic [31:0]               in_cfg_rmin
  , input  wire logic [31:0]               in_cfg_inc_interval
  , input  wire logic [15:0]               in_cfg_dec_interval
  , input  wire logic [15:0]               in_cfg_alpha_interval
  , input  wire logic                      in_cfg_bypass
  , input  wire logic                      in_cfg_timer_en
  , input  wire logic                      in_cfg_byte_en
  , input  wire logic [31:0]               in_cfg_byte_threshold
  , input  wire logic [31:0]               in_cfg_credit_cap
  , input  wire logic [15:0]               in_cnp_cnt16
  , input  wire logic [31:0]               in_cnt_cnp
  , input  wire logic [31:0]               in_cnt_dec
  , input  wire logic [31:0]               in_cnt_inc_fr
  , input  wire logic [31:0]               in_cnt_inc_ai
  , input  wire logic [31:0]               in_cnt_inc_hai
  , input  wire logic [31:0]               in_cnt_inc_timer
  , input  wire logic [31:0]               in_cnt_inc_byte
  , input  wire logic [31:0]               in_cnt_stall
  , input  wire logic [63:0]               in_cnt_bytes
  , input  wire logic [31:0]               in_bytes_hi
  , input  wire logic [31:0]               in_cfg_rmax
  , input  wire logic [31:0]               in_cfg_rate_first_cnp
  , input  wire logic [9:0]                in_cfg_alpha_init
  , input  wire logic [10:0]               in_cfg_min_dec_fac
  , input  wire logic                      in_cfg_hai_mult
  , input  wire logic [1:0]                in_cfg_scheme
  , input  wire logic                      in_cfg_gate_mask
  , input  wire logic [31:0]               in_cfg_fw_rate
  , input  wire logic                      in_cfg_trace_en
  , input  wire logic                      in_cfg_trace_wrap
  , input  wire logic [5:0]                in_cfg_trace_sel
  , input  wire logic [6:0]                in_trace_count
  , input  wire logic [5:0]                in_trace_wptr
  , input  wire logic                      in_trace_lost
  , input  wire logic [31:0]               in_trace_time
  , input  wire logic [9:0]                in_trace_n_dec
  , input  wire logic [9:0]                in_trace_n_byte
  , input  wire logic [9:0]                in_trace_n_timer
    // the output register of credit_gate (spec 4.6): the m_axis_* outputs' registers
  , input  wire logic                      in_m_valid
  , input  wire logic [8*DATA_BYTES-1:0]   in_m_data
  , input  wire logic [DATA_BYTES-1:0]     in_m_keep
  , input  wire logic                      in_m_last
    // trace_mem: entry i at bits [68i+67:68i] (type [2:0], both [3], rc [35:4], stamp [67:36])
  , input  wire logic [64*68-1:0]          in_trace_mem
    // the AXI4-Lite response registers (the s_axil_b*/r* outputs)
  , input  wire logic                      in_bvalid
  , input  wire logic [1:0]                in_bresp
  , input  wire logic                      in_rvalid
  , input  wire logic [31:0]               in_rdata
  , input  wire logic [1:0]                in_rresp
`endif
    // END GENERATED st-ports
);

    dcqcn_rl `DCQCN_RL_PARAMS dut (
        .clk            (clk),
        .rst            (rst),
        .cnp            (cnp),
        .s_axis_tdata   (s_axis_tdata),
        .s_axis_tkeep   (s_axis_tkeep),
        .s_axis_tvalid  (s_axis_tvalid),
        .s_axis_tready  (s_axis_tready),
        .s_axis_tlast   (s_axis_tlast),
        .m_axis_tdata   (m_axis_tdata),
        .m_axis_tkeep   (m_axis_tkeep),
        .m_axis_tvalid  (m_axis_tvalid),
        .m_axis_tready  (m_axis_tready),
        .m_axis_tlast   (m_axis_tlast),
        .s_axil_awaddr  (s_axil_awaddr),
        .s_axil_awvalid (s_axil_awvalid),
        .s_axil_awready (s_axil_awready),
        .s_axil_wdata   (s_axil_wdata),
        .s_axil_wstrb   (s_axil_wstrb),
        .s_axil_wvalid  (s_axil_wvalid),
        .s_axil_wready  (s_axil_wready),
        .s_axil_bresp   (s_axil_bresp),
        .s_axil_bvalid  (s_axil_bvalid),
        .s_axil_bready  (s_axil_bready),
        .s_axil_araddr  (s_axil_araddr),
        .s_axil_arvalid (s_axil_arvalid),
        .s_axil_arready (s_axil_arready),
        .s_axil_rdata   (s_axil_rdata),
        .s_axil_rresp   (s_axil_rresp),
        .s_axil_rvalid  (s_axil_rvalid),
        .s_axil_rready  (s_axil_rready)
    );

`ifdef DCQCN_VHDL_TWIN
    `include "dcqcn_cosim_state.svh"
`ifdef DCQCN_INJECT
    // state injection (spec 4.8): the same bit ranges written (scripts/vhdl2verilog.py --inject)
    `include "dcqcn_cosim_inject.svh"
`endif
`else
    // spec 7: architectural registers, by hierarchical reference (names as in the spec); those of
    // dcqcn_regs are fields of its register record r (rtl/dcqcn_regmap.svh)
    // BEGIN GENERATED st-assign: `make gen` from the snapshot! list; do not edit
    assign st_cnp_meta               = dut.u_cnp_sync.cnp_meta;
    assign st_cnp_sync               = dut.u_cnp_sync.cnp_sync;
    assign st_cnp_prev               = dut.u_cnp_sync.cnp_prev;
    assign st_rc                     = dut.rc;
    assign st_rt                     = dut.rt;
    assign st_active                 = dut.active;
    assign st_alpha                  = dut.u_alpha.alpha;
    assign st_alpha_timer            = dut.u_alpha.alpha_timer;
    assign st_alpha_pending          = dut.u_alpha.alpha_pending;
    assign st_dec_timer              = dut.u_rate_dec.dec_timer;
    assign st_dec_pending            = dut.u_rate_dec.dec_pending;
    assign st_inc_timer              = dut.u_rate_inc.inc_timer;
    assign st_byte_cnt               = dut.u_rate_inc.byte_cnt;
    assign st_t_stage                = dut.u_rate_inc.t_stage;
    assign st_b_stage                = dut.u_rate_inc.b_stage;
    assign st_bpc                    = dut.u_credit_gate.bpc;
    assign st_credit                 = dut.u_credit_gate.credit;
    assign st_cfg_alpha_g            = dut.u_regs.r.config_word.alpha_g;
    assign st_cfg_dec_gain           = dut.u_regs.r.config_word.dec_gain;
    assign st_cfg_stage_threshold    = dut.u_regs.r.config_word.stage_threshold;
    assign st_cfg_clamp_tgt          = dut.u_regs.r.config_word.clamp_tgt;
    assign st_cfg_rai                = dut.u_regs.r.rai;
    assign st_cfg_rhai               = dut.u_regs.r.rhai;
    assign st_cfg_rmin               = dut.u_regs.r.rmin;
    assign st_cfg_inc_interval       = dut.u_regs.r.inc_interval;
    assign st_cfg_dec_interval       = dut.u_regs.r.intervals.dec_interval;
    assign st_cfg_alpha_interval     = dut.u_regs.r.intervals.alpha_interval;
    assign st_cfg_bypass             = dut.u_regs.r.bypass.bypass;
    assign st_cfg_timer_en           = dut.u_regs.r.ext_ctrl.timer_en;
    assign st_cfg_byte_en            = dut.u_regs.r.ext_ctrl.byte_en;
    assign st_cfg_byte_threshold     = dut.u_regs.r.byte_threshold;
    assign st_cfg_credit_cap         = dut.u_regs.r.credit_cap;
    assign st_cnp_cnt16              = dut.u_regs.r.cnp_cnt16;
    assign st_cnt_cnp                = dut.u_regs.r.stats.cnt_cnp;
    assign st_cnt_dec                = dut.u_regs.r.stats.cnt_dec;
    assign st_cnt_inc_fr             = dut.u_regs.r.stats.cnt_inc_fr;
    assign st_cnt_inc_ai             = dut.u_regs.r.stats.cnt_inc_ai;
    assign st_cnt_inc_hai            = dut.u_regs.r.stats.cnt_inc_hai;
    assign st_cnt_inc_timer          = dut.u_regs.r.stats.cnt_inc_timer;
    assign st_cnt_inc_byte           = dut.u_regs.r.stats.cnt_inc_byte;
    assign st_cnt_stall              = dut.u_regs.r.stats.cnt_stall;
    assign st_cnt_bytes              = dut.u_regs.r.stats.cnt_bytes;
    assign st_bytes_hi               = dut.u_regs.r.stats.bytes_hi;
`ifdef DCQCN_INJECT
    assign st_cfg_rmax               = dut.u_regs.r.rmax;
    assign st_cfg_rate_first_cnp     = dut.u_regs.r.rate_first_cnp;
    assign st_cfg_alpha_init         = dut.u_regs.r.rate_rules.alpha_init;
    assign st_cfg_min_dec_fac        = dut.u_regs.r.rate_rules.min_dec_fac;
    assign st_cfg_hai_mult           = dut.u_regs.r.rate_rules.hai_mult;
    assign st_cfg_scheme             = dut.u_regs.r.control.scheme;
    assign st_cfg_gate_mask          = dut.u_regs.r.control.gate_mask;
    assign st_cfg_fw_rate            = dut.u_regs.r.fw_rate;
    assign st_cfg_trace_en           = dut.u_regs.r.trace_ctrl.trace_en;
    assign st_cfg_trace_wrap         = dut.u_regs.r.trace_ctrl.trace_wrap;
    assign st_cfg_trace_sel          = dut.u_regs.r.trace_sel.trace_sel;
    assign st_trace_count            = dut.u_regs.r.trace.count;
    assign st_trace_wptr             = dut.u_regs.r.trace.wptr;
    assign st_trace_lost             = dut.u_regs.r.trace.lost;
    assign st_trace_time             = dut.u_regs.r.trace.time_;
    assign st_trace_n_dec            = dut.u_regs.r.trace.n_dec;
    assign st_trace_n_byte           = dut.u_regs.r.trace.n_byte;
    assign st_trace_n_timer          = dut.u_regs.r.trace.n_timer;
    // spec 7: the most recent entry, 0 while the window is empty
    logic [67:0] trace_last;
    assign trace_last = (dut.u_regs.r.trace.count == 7'd0) ? 68'd0
                      : dut.u_regs.trace_mem[dut.u_regs.r.trace.wptr - 6'd1];
    assign st_trace_last_type        = trace_last[3:0];
    assign st_trace_last_rc          = trace_last[35:4];
    assign st_trace_last_stamp       = trace_last[67:36];
`endif
    // END GENERATED st-assign

    // State injection (DCQCN_INJECT, spec 4.8): every register of spec 7 from its in_* port, by hierarchical
    // reference, at a rising edge of inj_clk while clk is held. The record r of dcqcn_regs is
    // cleared first so that its reserved and write-only bits are 0, as after a reset.
`ifdef DCQCN_INJECT
    always @(posedge inj_clk) begin
        // BEGIN GENERATED inject: `make gen` from the snapshot! list; do not edit
        dut.u_cnp_sync.cnp_meta              <= in_cnp_meta;
        dut.u_cnp_sync.cnp_sync              <= in_cnp_sync;
        dut.u_cnp_sync.cnp_prev              <= in_cnp_prev;
        dut.rc                               <= in_rc;
        dut.rt                               <= in_rt;
        dut.active                           <= in_active;
        dut.u_alpha.alpha                    <= in_alpha;
        dut.u_alpha.alpha_timer              <= in_alpha_timer;
        dut.u_alpha.alpha_pending            <= in_alpha_pending;
        dut.u_rate_dec.dec_timer             <= in_dec_timer;
        dut.u_rate_dec.dec_pending           <= in_dec_pending;
        dut.u_rate_inc.inc_timer             <= in_inc_timer;
        dut.u_rate_inc.byte_cnt              <= in_byte_cnt;
        dut.u_rate_inc.t_stage               <= in_t_stage;
        dut.u_rate_inc.b_stage               <= in_b_stage;
        dut.u_credit_gate.bpc                <= in_bpc;
        dut.u_credit_gate.credit             <= in_credit;
        dut.u_credit_gate.m_valid            <= in_m_valid;
        dut.u_credit_gate.m_data             <= in_m_data;
        dut.u_credit_gate.m_keep             <= in_m_keep;
        dut.u_credit_gate.m_last             <= in_m_last;
        dut.u_regs.r                         <= '0;
        dut.u_regs.r.config_word.alpha_g     <= in_cfg_alpha_g;
        dut.u_regs.r.config_word.dec_gain    <= in_cfg_dec_gain;
        dut.u_regs.r.config_word.stage_threshold <= in_cfg_stage_threshold;
        dut.u_regs.r.config_word.clamp_tgt   <= in_cfg_clamp_tgt;
        dut.u_regs.r.rai                     <= in_cfg_rai;
        dut.u_regs.r.rhai                    <= in_cfg_rhai;
        dut.u_regs.r.rmin                    <= in_cfg_rmin;
        dut.u_regs.r.inc_interval            <= in_cfg_inc_interval;
        dut.u_regs.r.intervals.dec_interval  <= in_cfg_dec_interval;
        dut.u_regs.r.intervals.alpha_interval <= in_cfg_alpha_interval;
        dut.u_regs.r.bypass.bypass           <= in_cfg_bypass;
        dut.u_regs.r.ext_ctrl.timer_en       <= in_cfg_timer_en;
        dut.u_regs.r.ext_ctrl.byte_en        <= in_cfg_byte_en;
        dut.u_regs.r.byte_threshold          <= in_cfg_byte_threshold;
        dut.u_regs.r.credit_cap              <= in_cfg_credit_cap;
        dut.u_regs.r.cnp_cnt16               <= in_cnp_cnt16;
        dut.u_regs.r.stats.cnt_cnp           <= in_cnt_cnp;
        dut.u_regs.r.stats.cnt_dec           <= in_cnt_dec;
        dut.u_regs.r.stats.cnt_inc_fr        <= in_cnt_inc_fr;
        dut.u_regs.r.stats.cnt_inc_ai        <= in_cnt_inc_ai;
        dut.u_regs.r.stats.cnt_inc_hai       <= in_cnt_inc_hai;
        dut.u_regs.r.stats.cnt_inc_timer     <= in_cnt_inc_timer;
        dut.u_regs.r.stats.cnt_inc_byte      <= in_cnt_inc_byte;
        dut.u_regs.r.stats.cnt_stall         <= in_cnt_stall;
        dut.u_regs.r.stats.cnt_bytes         <= in_cnt_bytes;
        dut.u_regs.r.stats.bytes_hi          <= in_bytes_hi;
        dut.u_regs.r.rmax                    <= in_cfg_rmax;
        dut.u_regs.r.rate_first_cnp          <= in_cfg_rate_first_cnp;
        dut.u_regs.r.rate_rules.alpha_init   <= in_cfg_alpha_init;
        dut.u_regs.r.rate_rules.min_dec_fac  <= in_cfg_min_dec_fac;
        dut.u_regs.r.rate_rules.hai_mult     <= in_cfg_hai_mult;
        dut.u_regs.r.control.scheme          <= in_cfg_scheme;
        dut.u_regs.r.control.gate_mask       <= in_cfg_gate_mask;
        dut.u_regs.r.fw_rate                 <= in_cfg_fw_rate;
        dut.u_regs.r.trace_ctrl.trace_en     <= in_cfg_trace_en;
        dut.u_regs.r.trace_ctrl.trace_wrap   <= in_cfg_trace_wrap;
        dut.u_regs.r.trace_sel.trace_sel     <= in_cfg_trace_sel;
        dut.u_regs.r.trace.count             <= in_trace_count;
        dut.u_regs.r.trace.wptr              <= in_trace_wptr;
        dut.u_regs.r.trace.lost              <= in_trace_lost;
        dut.u_regs.r.trace.time_             <= in_trace_time;
        dut.u_regs.r.trace.n_dec             <= in_trace_n_dec;
        dut.u_regs.r.trace.n_byte            <= in_trace_n_byte;
        dut.u_regs.r.trace.n_timer           <= in_trace_n_timer;
        for (int i = 0; i < 64; i++) begin
            dut.u_regs.trace_mem[i]          <= in_trace_mem[68*i +: 68];
        end
        dut.u_regs.r.bvalid                  <= in_bvalid;
        dut.u_regs.r.bresp                   <= in_bresp;
        dut.u_regs.r.rvalid                  <= in_rvalid;
        dut.u_regs.r.rdata                   <= in_rdata;
        dut.u_regs.r.rresp                   <= in_rresp;
        // END GENERATED inject
    end
`endif
`endif

endmodule

`undef DCQCN_RL_PARAMS

`resetall
