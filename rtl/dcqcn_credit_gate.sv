// SPDX-License-Identifier: MIT
// dcqcn_credit_gate: rate-to-credit conversion, credit accumulator and beat-level stream gate (spec 5).

`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "dcqcn_checks.svh"

module dcqcn_credit_gate #(
    parameter int          DATA_BYTES  = 8,                  // AXI4-Stream beat width, bytes
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,    // f, Hz
    parameter logic [31:0] LINE_RATE   = 32'd1_250_000_000   // L, bytes/s
) (
    /* Clock and synchronous reset */
    input  wire logic                    clk,
    input  wire logic                    rst,

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

    /* Rate and configuration */
    input  wire logic [31:0]             rc,              // bytes/s
    input  wire logic                    ungated,         // bypass or scheme bit 1 (spec 4.9)
    input  wire logic                    cfg_gate_mask,   // 1: no beat is accepted (spec 4.9)
    input  wire logic [31:0]             cfg_credit_cap,  // bytes

    /* Events for the counters (spec 6.2) */
    output logic      [6:0]              bytes_in,        // bytes of the beat loaded this cycle
    output logic                         stall,           // beat offered, room downstream, no credit

    /* State */
    output logic      [31:0]             bpc,             // Q16.16 bytes/clock
    output logic      [47:0]             credit           // Q32.16 bytes
);

    // spec 2: illegal parameters are an elaboration error
    `DCQCN_CHECK_DATA_BYTES(dcqcn_credit_gate)
    `DCQCN_CHECK_CLK_FREQ_HZ(dcqcn_credit_gate)
    `DCQCN_CHECK_LINE_RATE(dcqcn_credit_gate)

    // spec 2: integer arithmetic on 64 bits
    localparam logic [63:0] F_64 = {32'd0, CLK_FREQ_HZ};
    localparam logic [63:0] L_64 = {32'd0, LINE_RATE};
    // spec 2: K = round(2^48 / f); < 2^32 for f >= 65537
    localparam logic [63:0] K_64 = ((64'd1 << 48) + (F_64 / 64'd2)) / F_64;
    localparam logic [31:0] K = K_64[31:0];
    // spec 5.1: bpc(L) = floor(L * K / 2^32), the reset value of bpc
    localparam logic [63:0] BPC_L_64 = (L_64 * K_64) >> 32;
    localparam logic [31:0] BPC_L = BPC_L_64[31:0];
    localparam logic [31:0] DATA_BYTES_32 = DATA_BYTES;

    logic                    m_valid;
    logic [8*DATA_BYTES-1:0] m_data;
    logic [DATA_BYTES-1:0]   m_keep;
    logic                    m_last;

    logic [31:0]             bpc_d;
    logic [47:0]             credit_d;
    logic                    m_valid_d;
    logic [8*DATA_BYTES-1:0] m_data_d;
    logic [DATA_BYTES-1:0]   m_keep_d;
    logic                    m_last_d;

    // Rc * K < 2^64; bpc keeps the upper half (floor(.../2^32))
    /* verilator lint_off UNUSEDSIGNAL */
    logic [63:0]             bpc_prod;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [48:0]             bpc_prod_lo;
    logic [46:0]             bpc_prod_hi;
    logic [6:0]              bytes;
    logic                    beat_ok;
    logic                    load;
    logic [31:0]             cap_bytes;
    logic [47:0]             cap_q;
    logic [47:0]             credit_left;
    logic [48:0]             credit_sum;
    logic                    cap_over;

    always_comb begin
        // spec 5.1: one cycle of latency from Rc to the credit rate. The one Rc * K product is formed
        // from 17-bit-aligned halves of Rc (the DSP48 B-port width and cascade shift), which keeps
        // the recombination adder out of the fabric.
        bpc_prod_lo = {32'd0, rc[16:0]} * {17'd0, K};
        bpc_prod_hi = ({32'd0, rc[31:17]} * {15'd0, K}) + {15'd0, bpc_prod_lo[48:17]};
        bpc_prod    = {bpc_prod_hi, bpc_prod_lo[16:0]};
        bpc_d       = bpc_prod[63:32];

        // spec 5.3: the beat's size is popcount(tkeep)
        bytes = 7'd0;
        for (int i = 0; i < DATA_BYTES; i++) begin
            bytes = bytes + {6'd0, s_axis_tkeep[i]};
        end

        // spec 5.3: tkeep-aware gate; bypass and the unthrottled schemes pass ungated, the gate
        // mask blocks in every scheme (spec 4.7, 4.9)
        // credit >= {bytes, 16'd0}: bits 47:23 above the beat, or bits 22:16 against it (a
        // comparison of all 48 bits maps to about 14 LUTs more)
        beat_ok       = ~cfg_gate_mask
                      & (ungated | (credit[47:23] != 25'd0) | (credit[22:16] >= bytes));
        s_axis_tready = ~rst & (~m_valid | m_axis_tready) & beat_ok;
        load          = s_axis_tvalid & s_axis_tready;
        bytes_in      = load ? bytes : 7'd0;

        // spec 6.2: cnt_stall condition
        stall = s_axis_tvalid & (~m_valid | m_axis_tready) & ~beat_ok & ~rst;

        // spec 5.2: cap never below one full beat, so a beat can always be covered
        cap_bytes   = (cfg_credit_cap < DATA_BYTES_32) ? DATA_BYTES_32 : cfg_credit_cap;
        cap_q       = {cap_bytes, 16'd0};
        // load implies credit covers the beat, so this never underflows (spec 5.2)
        credit_left = credit - {25'd0, bytes_in, 16'd0};
        credit_sum  = {1'b0, credit_left} + {17'd0, bpc};
        // credit_sum > cap_q, compared on the bits cap_q does not hold at 0 (a comparison of all
        // 49 bits maps to about 19 LUTs more)
        cap_over    = (credit_sum[48:16] > {1'b0, cap_bytes})
                    | ((credit_sum[48:16] == {1'b0, cap_bytes}) & (credit_sum[15:0] != 16'd0));
        if (ungated) begin
            credit_d = 48'd0;
        end else if (cap_over) begin
            credit_d = cap_q;
        end else begin
            credit_d = credit_sum[47:0];
        end

        // spec 5.3: one output register; tvalid withdrawn only after its handshake
        m_valid_d = load | (m_valid & ~m_axis_tready);
        m_data_d  = load ? s_axis_tdata : m_data;
        m_keep_d  = load ? s_axis_tkeep : m_keep;
        m_last_d  = load ? s_axis_tlast : m_last;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            bpc     <= BPC_L;
            credit  <= 48'd0;
            m_valid <= 1'b0;
            m_data  <= '0;
            m_keep  <= '0;
            m_last  <= 1'b0;
        end else begin
            bpc     <= bpc_d;
            credit  <= credit_d;
            m_valid <= m_valid_d;
            m_data  <= m_data_d;
            m_keep  <= m_keep_d;
            m_last  <= m_last_d;
        end
    end

    assign m_axis_tvalid = m_valid;
    assign m_axis_tdata  = m_data;
    assign m_axis_tkeep  = m_keep;
    assign m_axis_tlast  = m_last;

endmodule

`resetall
