// SPDX-License-Identifier: MIT
// dcqcn_cnp_sync: CNP input synchroniser and rising-edge detector (spec 4.1).

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_cnp_sync (
    /* Clock and synchronous reset */
    input  wire logic clk,
    input  wire logic rst,

    /* CNP notification from the MAC receive path, may be asynchronous */
    input  wire logic cnp,

    /* Configuration */
    input  wire logic rp_hold,  // bypass or scheme bit 0: held in reset (spec 4.7, 4.9)

    /* Events (combinational, from this cycle's registers) */
    output logic      cnp_edge,   // counted by the CNP counters even while held (spec 6.2)
    output logic      cnp_event   // drives the reaction point
);

    // spec 4.1: two synchroniser flops then the edge-detector history flop
    (* ASYNC_REG = "TRUE" *) logic cnp_meta;
    (* ASYNC_REG = "TRUE" *) logic cnp_sync;
    logic cnp_prev;

    logic cnp_meta_d;
    logic cnp_sync_d;
    logic cnp_prev_d;

    always_comb begin
        cnp_meta_d = cnp;
        cnp_sync_d = cnp_meta;
        cnp_prev_d = cnp_sync;

        // spec 4.1: only rising edges count; a held reaction point ignores CNPs (spec 4.7, 4.9)
        cnp_edge  = cnp_sync & ~cnp_prev;
        cnp_event = cnp_edge & ~rp_hold;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            // spec 4.1: the synchroniser restarts from 0, a level held across reset is one CNP
            cnp_meta <= 1'b0;
            cnp_sync <= 1'b0;
            cnp_prev <= 1'b0;
        end else begin
            cnp_meta <= cnp_meta_d;
            cnp_sync <= cnp_sync_d;
            cnp_prev <= cnp_prev_d;
        end
    end

endmodule

`resetall
