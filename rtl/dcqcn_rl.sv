// SPDX-License-Identifier: MIT
// dcqcn_rl: DCQCN reaction-point rate limiter on an AXI4-Stream path, AXI4-Lite configured (spec 1-7).

`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "dcqcn_checks.svh"

// CLK_FREQ_HZ and LINE_RATE are 32-bit: the legal ranges (spec 2) end at 2^32 - 1, so the upper bound
// is the type's, and a Verilator -G decimal value (parsed as 32 bits) is taken unsigned.
module dcqcn_rl #(
    parameter int          DATA_BYTES  = 8,                  // AXI4-Stream beat width, bytes (1..64)
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,    // f, Hz (65537..4294967295)
    parameter logic [31:0] LINE_RATE   = 32'd1_250_000_000,  // L, bytes/s (1..4294967295)
    // spec 2: the optional features (1/64: built, as the register map describes them; 0: absent,
    // their words answer as unmapped ones and the block behaves as with them at reset)
    parameter int          RATE_RULES  = 1,                  // rate rules 0x150-0x158 (0, 1)
    parameter int          CONTROL     = 1,                  // control schemes 0x15C-0x160 (0, 1)
    parameter int          TRACE_DEPTH = 64                  // event trace 0x170-0x18C: entries (0, 64)
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
    input  wire logic                    s_axil_rready
);

    // spec 2: illegal parameters are an elaboration error
    `DCQCN_CHECK_DATA_BYTES(dcqcn_rl)
    `DCQCN_CHECK_CLK_FREQ_HZ(dcqcn_rl)
    `DCQCN_CHECK_LINE_RATE(dcqcn_rl)
    `DCQCN_CHECK_FEATURES(dcqcn_rl)

    localparam logic [31:0] L = LINE_RATE;

    /* Rate registers and activity (spec 4.2, 4.6) */
    logic [31:0] rc;
    logic [31:0] rt;
    logic        active;

    logic [31:0] rc_d;
    logic [31:0] rt_d;
    logic [31:0] rc_set;
    logic [31:0] rt_set;
    logic        rate_set;
    logic        active_d;

    /* Events */
    logic        cnp_edge;
    logic        cnp_event;
    logic        dec_fire;
    logic        timer_fire;
    logic        byte_fire;
    logic        inc_event;
    logic        phase_fr;
    logic        phase_ai;
    logic        phase_hai;
    logic [6:0]  bytes_in;
    logic        stall;

    /* Process results */
    logic [31:0] rc_dec;
    logic [31:0] rt_dec;
    logic [31:0] rc_upd;
    logic [31:0] rt_upd;

    /* State of the sub-blocks */
    logic [9:0]  alpha;
    logic        alpha_pending;
    logic        dec_pending;
    logic [7:0]  t_stage;
    logic [7:0]  b_stage;
    logic [31:0] bpc;
    logic [47:0] credit;

    /* Configuration */
    logic [9:0]  cfg_alpha_g;
    logic [3:0]  cfg_dec_gain;
    logic [7:0]  cfg_stage_threshold;
    logic        cfg_clamp_tgt;
    logic [31:0] cfg_rai;
    logic [31:0] cfg_rhai;
    logic [31:0] cfg_rmin;
    logic [31:0] cfg_inc_interval;
    logic [15:0] cfg_dec_interval;
    logic [15:0] cfg_alpha_interval;
    logic        cfg_bypass;
    logic        cfg_timer_en;
    logic        cfg_byte_en;
    logic [31:0] cfg_byte_threshold;
    logic [31:0] cfg_credit_cap;
    logic [31:0] cfg_rmax;
    logic [31:0] cfg_rate_first_cnp;
    logic [9:0]  cfg_alpha_init;
    logic [10:0] cfg_min_dec_fac;
    logic        cfg_hai_mult;
    logic [1:0]  cfg_scheme;
    logic        cfg_gate_mask;
    logic [31:0] cfg_fw_rate;

    /* Control scheme (spec 4.9) */
    logic        rp_hold;   // the reaction point's processes held in reset
    logic        ungated;   // the credit gate open, credit held at 0
    logic [31:0] fw_rc;     // the rate firmware sets

    always_comb begin
        // spec 4.9: bit 0 holds the reaction point at the firmware's rate (0 and >= L mean L),
        // bit 1 opens the credit gate; bypass does both
        rp_hold = cfg_bypass | cfg_scheme[0];
        ungated = cfg_bypass | cfg_scheme[1];
        fw_rc   = (cfg_fw_rate != 32'd0 && cfg_fw_rate < L) ? cfg_fw_rate : L;
    end

    dcqcn_cnp_sync u_cnp_sync (
        .clk        (clk),
        .rst        (rst),
        .cnp        (cnp),
        .rp_hold    (rp_hold),
        .cnp_edge   (cnp_edge),
        .cnp_event  (cnp_event)
    );

    dcqcn_alpha u_alpha (
        .clk                (clk),
        .rst                (rst),
        .cnp_event          (cnp_event),
        .active             (active),
        .rp_hold            (rp_hold),
        .cfg_alpha_g        (cfg_alpha_g),
        .cfg_alpha_interval (cfg_alpha_interval),
        .cfg_alpha_init     (cfg_alpha_init),
        .alpha              (alpha),
        .alpha_pending      (alpha_pending)
    );

    dcqcn_rate_dec #(
        .LINE_RATE (LINE_RATE)
    ) u_rate_dec (
        .clk              (clk),
        .rst              (rst),
        .cnp_event        (cnp_event),
        .rc               (rc),
        .rt               (rt),
        .alpha            (alpha),
        .t_stage          (t_stage),
        .b_stage          (b_stage),
        .active           (active),
        .rp_hold          (rp_hold),
        .cfg_dec_interval (cfg_dec_interval),
        .cfg_dec_gain     (cfg_dec_gain),
        .cfg_rmin         (cfg_rmin),
        .cfg_clamp_tgt    (cfg_clamp_tgt),
        .cfg_rate_first_cnp (cfg_rate_first_cnp),
        .cfg_min_dec_fac  (cfg_min_dec_fac),
        .dec_fire         (dec_fire),
        .rc_dec           (rc_dec),
        .rt_dec           (rt_dec),
        .dec_pending      (dec_pending)
    );

    dcqcn_rate_inc #(
        .LINE_RATE (LINE_RATE)
    ) u_rate_inc (
        .clk                 (clk),
        .rst                 (rst),
        .dec_fire            (dec_fire),
        .rc_dec              (rc_dec),
        .rt_dec              (rt_dec),
        .bytes_in            (bytes_in),
        .active              (active),
        .rc                  (rc),
        .rt                  (rt),
        .rp_hold             (rp_hold),
        .cfg_timer_en        (cfg_timer_en),
        .cfg_byte_en         (cfg_byte_en),
        .cfg_inc_interval    (cfg_inc_interval),
        .cfg_byte_threshold  (cfg_byte_threshold),
        .cfg_stage_threshold (cfg_stage_threshold),
        .cfg_rai             (cfg_rai),
        .cfg_rhai            (cfg_rhai),
        .cfg_rmax            (cfg_rmax),
        .cfg_hai_mult        (cfg_hai_mult),
        .timer_fire          (timer_fire),
        .byte_fire           (byte_fire),
        .inc_event           (inc_event),
        .phase_fr            (phase_fr),
        .phase_ai            (phase_ai),
        .phase_hai           (phase_hai),
        .rc_upd              (rc_upd),
        .rt_upd              (rt_upd),
        .t_stage             (t_stage),
        .b_stage             (b_stage)
    );

    dcqcn_credit_gate #(
        .DATA_BYTES  (DATA_BYTES),
        .CLK_FREQ_HZ (CLK_FREQ_HZ),
        .LINE_RATE   (LINE_RATE)
    ) u_credit_gate (
        .clk            (clk),
        .rst            (rst),
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
        .rc             (rc),
        .ungated        (ungated),
        .cfg_gate_mask  (cfg_gate_mask),
        .cfg_credit_cap (cfg_credit_cap),
        .bytes_in       (bytes_in),
        .stall          (stall),
        .bpc            (bpc),
        .credit         (credit)
    );

    dcqcn_regs #(
        .DATA_BYTES  (DATA_BYTES),
        .CLK_FREQ_HZ (CLK_FREQ_HZ),
        .RATE_RULES  (RATE_RULES),
        .CONTROL     (CONTROL),
        .TRACE_DEPTH (TRACE_DEPTH)
    ) u_regs (
        .clk                 (clk),
        .rst                 (rst),
        .s_axil_awaddr       (s_axil_awaddr),
        .s_axil_awvalid      (s_axil_awvalid),
        .s_axil_awready      (s_axil_awready),
        .s_axil_wdata        (s_axil_wdata),
        .s_axil_wstrb        (s_axil_wstrb),
        .s_axil_wvalid       (s_axil_wvalid),
        .s_axil_wready       (s_axil_wready),
        .s_axil_bresp        (s_axil_bresp),
        .s_axil_bvalid       (s_axil_bvalid),
        .s_axil_bready       (s_axil_bready),
        .s_axil_araddr       (s_axil_araddr),
        .s_axil_arvalid      (s_axil_arvalid),
        .s_axil_arready      (s_axil_arready),
        .s_axil_rdata        (s_axil_rdata),
        .s_axil_rresp        (s_axil_rresp),
        .s_axil_rvalid       (s_axil_rvalid),
        .s_axil_rready       (s_axil_rready),
        .rc                  (rc),
        .rt                  (rt),
        .active              (active),
        .alpha               (alpha),
        .alpha_pending       (alpha_pending),
        .dec_pending         (dec_pending),
        .t_stage             (t_stage),
        .b_stage             (b_stage),
        .bpc                 (bpc),
        .credit              (credit),
        .cnp_edge            (cnp_edge),
        .dec_fire            (dec_fire),
        .inc_event           (inc_event),
        .phase_fr            (phase_fr),
        .phase_ai            (phase_ai),
        .phase_hai           (phase_hai),
        .timer_fire          (timer_fire),
        .byte_fire           (byte_fire),
        .stall               (stall),
        .bytes_in            (bytes_in),
        .rc_next             (rc_set),
        .cfg_alpha_g         (cfg_alpha_g),
        .cfg_dec_gain        (cfg_dec_gain),
        .cfg_stage_threshold (cfg_stage_threshold),
        .cfg_clamp_tgt       (cfg_clamp_tgt),
        .cfg_rai             (cfg_rai),
        .cfg_rhai            (cfg_rhai),
        .cfg_rmin            (cfg_rmin),
        .cfg_inc_interval    (cfg_inc_interval),
        .cfg_dec_interval    (cfg_dec_interval),
        .cfg_alpha_interval  (cfg_alpha_interval),
        .cfg_bypass          (cfg_bypass),
        .cfg_timer_en        (cfg_timer_en),
        .cfg_byte_en         (cfg_byte_en),
        .cfg_byte_threshold  (cfg_byte_threshold),
        .cfg_credit_cap      (cfg_credit_cap),
        .cfg_rmax            (cfg_rmax),
        .cfg_rate_first_cnp  (cfg_rate_first_cnp),
        .cfg_alpha_init      (cfg_alpha_init),
        .cfg_min_dec_fac     (cfg_min_dec_fac),
        .cfg_hai_mult        (cfg_hai_mult),
        .cfg_scheme          (cfg_scheme),
        .cfg_gate_mask       (cfg_gate_mask),
        .cfg_fw_rate         (cfg_fw_rate)
    );

    always_comb begin
        // spec 4.2, 4.9: set by the first decrease, cleared by reset, bypass and a firmware-rate scheme
        active_d = ~rp_hold & (active | dec_fire);

        // spec 4.6, 4.9: bypass > firmware rate > decrease > increase > hold. rc_set, rt_set: the
        // values a rate update (bypass, the firmware rate, a decrease or an increase) writes. The
        // trace entry's rate (spec 4.10) is rc_set: it records event cycles only, which update
        // Rc, so the hold is not built a second time for it.
        if (cfg_bypass) begin
            rc_set = L;
            rt_set = L;
        end else if (cfg_scheme[0]) begin
            rc_set = fw_rc;
            rt_set = fw_rc;
        end else begin
            // decrease or increase, chosen and capped in dcqcn_rate_inc (spec 4.6)
            rc_set = rc_upd;
            rt_set = rt_upd;
        end
        rate_set = cfg_bypass | cfg_scheme[0] | dec_fire | inc_event;
        rc_d = rate_set ? rc_set : rc;
        rt_d = rate_set ? rt_set : rt;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            rc     <= L;
            rt     <= L;
            active <= 1'b0;
        end else begin
            rc     <= rc_d;
            rt     <= rt_d;
            active <= active_d;
        end
    end

endmodule

`resetall
