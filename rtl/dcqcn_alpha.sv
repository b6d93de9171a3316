// SPDX-License-Identifier: MIT
// dcqcn_alpha: DCQCN alpha (congestion estimate) update process (spec 4.3).

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_alpha (
    /* Clock and synchronous reset */
    input  wire logic        clk,
    input  wire logic        rst,

    /* Events and reaction-point state */
    input  wire logic        cnp_event,
    input  wire logic        active,

    /* Configuration */
    input  wire logic        rp_hold,  // bypass or scheme bit 0: held in reset (spec 4.7, 4.9)
    input  wire logic [9:0]  cfg_alpha_g,         // G = 1 - g, Q0.10
    input  wire logic [15:0] cfg_alpha_interval,  // cycles
    input  wire logic [9:0]  cfg_alpha_init,      // alpha while inactive, Q0.10

    /* State */
    output logic      [9:0]  alpha,               // Q0.10
    output logic             alpha_pending
);

    localparam logic [9:0] ALPHA_MAX = 10'd1023;

    logic [15:0] alpha_timer;

    logic [9:0]  alpha_d;
    logic [15:0] alpha_timer_d;
    logic        alpha_pending_d;

    logic        cnp_alpha;
    logic        pend;
    logic        alpha_expired;
    logic        alpha_fire;
    // alpha * G + 512 < 2^20 (spec 4.3); the low 10 bits are dropped by the division
    /* verilator lint_off UNUSEDSIGNAL */
    logic [19:0] alpha_prod;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [9:0]  alpha_s;
    logic [10:0] alpha_inc;
    logic [9:0]  alpha_new;

    always_comb begin
        // spec 4.3: the first CNP after reset/hold is not counted (alpha already holds its initial value)
        cnp_alpha = cnp_event & active;
        pend      = alpha_pending | cnp_alpha;

        // spec 4.0 expired(): one extra bit so interval 0 behaves as 1 and the timer never wraps
        alpha_expired = ({1'b0, alpha_timer} + 17'd1) >= {1'b0, cfg_alpha_interval};
        alpha_fire    = active & alpha_expired;

        // spec 4.3: s = floor((alpha * G + 512) / 1024), round half up
        alpha_prod = ({10'd0, alpha} * {10'd0, cfg_alpha_g}) + 20'd512;
        alpha_s    = alpha_prod[19:10];

        // spec 4.3: s + (1024 - G) <= 2046 fits 11 bits; saturate at 1023 instead of wrapping
        alpha_inc = {1'b0, alpha_s} + (11'd1024 - {1'b0, cfg_alpha_g});
        if (pend) begin
            alpha_new = (alpha_inc > {1'b0, ALPHA_MAX}) ? ALPHA_MAX : alpha_inc[9:0];
        end else begin
            alpha_new = alpha_s;
        end

        // spec 4.3, 4.7, 4.9: a held reaction point and inactivity hold alpha at its initial value
        if (rp_hold || !active) begin
            alpha_d = cfg_alpha_init;
        end else if (alpha_fire) begin
            alpha_d = alpha_new;
        end else begin
            alpha_d = alpha;
        end

        // spec 4.2: timer held at 0 while inactive; not re-phased by CNPs
        if (rp_hold || !active || alpha_fire) begin
            alpha_timer_d = 16'd0;
        end else begin
            alpha_timer_d = alpha_timer + 16'd1;
        end

        // spec 4.3: a CNP in the firing cycle counts for this update (set wins, then consumed)
        alpha_pending_d = ~rp_hold & pend & ~alpha_fire;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            alpha         <= ALPHA_MAX;
            alpha_timer   <= 16'd0;
            alpha_pending <= 1'b0;
        end else begin
            alpha         <= alpha_d;
            alpha_timer   <= alpha_timer_d;
            alpha_pending <= alpha_pending_d;
        end
    end

endmodule

`resetall
