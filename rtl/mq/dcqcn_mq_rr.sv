// SPDX-License-Identifier: MIT
// dcqcn_mq_rr: the round-robin picker (spec-mq 4.5, "Hardware realisation") and its register rr.
//
// The search starts after rr (the last QP picked) and wraps around; rr itself comes last. The
// eligible vector is split into 64-bit chunks; each chunk finds its lowest set index for elig and
// for elig masked to the indices above rr; a priority encoder over the chunk ORs picks the chunk,
// first for the masked vector, then for the unmasked one. At N <= 64 there is one chunk.

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_mq_rr #(
    parameter int N = 1024  // number of QPs (1..4096)
) (
    input  wire logic         clk,
    input  wire logic         rst,

    input  wire logic [N-1:0] elig,   // eligible QPs (spec-mq 4.5)
    input  wire logic         en,     // pick_en
    output logic              valid,  // a pick this cycle: en and some elig[q]
    output logic      [11:0]  pick,   // the QP picked (valid), combinational
    output logic      [11:0]  rr      // the last QP picked (register, reset N - 1)
);

    localparam int NCH = (N + 63) / 64;  // chunks
    localparam int CW  = (NCH <= 1) ? 1 : $clog2(NCH);  // chunk index width
    localparam logic [11:0] RR_RESET = 12'(N - 1);

    logic [64*NCH-1:0] elig_pad;  // elig padded with 0 to whole chunks
    logic [NCH-1:0]    or_u;      // per chunk: some eligible QP
    logic [NCH-1:0]    or_m;      // per chunk: some eligible QP above rr
    logic [5:0]        idx_u [NCH];
    logic [5:0]        idx_m [NCH];
    logic [5:0]        rr_chunk;
    logic [5:0]        rr_low;
    logic [5:0]        ch_u;
    logic [5:0]        ch_m;
    logic              any_u;
    logic              any_m;

    // lowest set index of a 64-bit vector (0 when none)
    function automatic logic [5:0] lowest(input logic [63:0] x);
        logic [5:0] r;
        r = 6'd0;
        for (int i = 63; i >= 0; i--) begin
            if (x[i]) begin
                r = 6'(i);
            end
        end
        lowest = r;
    endfunction

    // the same over the NCH chunk ORs
    function automatic logic [5:0] lowest_chunk(input logic [NCH-1:0] x);
        logic [5:0] r;
        r = 6'd0;
        for (int i = NCH - 1; i >= 0; i--) begin
            if (x[i]) begin
                r = 6'(i);
            end
        end
        lowest_chunk = r;
    endfunction

    assign rr_chunk = rr[11:6];
    assign rr_low   = rr[5:0];

    always_comb begin
        elig_pad = '0;
        elig_pad[N-1:0] = elig;
    end

    // spec-mq 4.5 step 2: per chunk, the OR and the lowest index of elig and of elig above rr
    for (genvar c = 0; c < NCH; c++) begin : g_chunk
        logic [63:0] e;
        logic [63:0] m;
        logic [63:0] above;  // indices of this chunk above rr_low
        /* verilator lint_off UNUSEDSIGNAL */
        logic [6:0]  c_sub;  // c - rr_chunk: only bit 6 (set when c < rr_chunk) is used
        /* verilator lint_on UNUSEDSIGNAL */
        always_comb begin
            c_sub = 7'(c) - {1'b0, rr_chunk};
            e     = elig_pad[64*c +: 64];
            above = ~((64'd2 << rr_low) - 64'd1);  // bits rr_low + 1 .. 63
            if (c_sub[6]) begin
                m = 64'd0;                          // below rr's chunk
            end else if (6'(c) == rr_chunk) begin
                m = e & above;                      // rr's own chunk: index > rr
            end else begin
                m = e;                              // above rr's chunk
            end
            or_u[c]  = |e;
            or_m[c]  = |m;
            idx_u[c] = lowest(e);
            idx_m[c] = lowest(m);
        end
    end

    // spec-mq 4.5 steps 3-4: the chunk, masked first; the pick is {chunk, index in chunk}
    always_comb begin
        any_u = |or_u;
        any_m = |or_m;
        ch_u  = lowest_chunk(or_u);
        ch_m  = lowest_chunk(or_m);
        valid = en & any_u;
        pick  = any_m ? {ch_m, idx_m[ch_m[CW-1:0]]} : {ch_u, idx_u[ch_u[CW-1:0]]};
    end

    // spec-mq 4.5: rr' = pick on a pick
    always_ff @(posedge clk) begin
        if (rst) begin
            rr <= RR_RESET;
        end else if (valid) begin
            rr <= pick;
        end
    end

endmodule
