// SPDX-License-Identifier: MIT
// dcqcn_mq_mem: one read copy of a per-QP memory (spec-mq 4.2, 4.8): a simple dual-port block RAM
// (one write port, one synchronous read port) with a one-write bypass.
//
// The read address is the one the reading process knows in cycle t - 1 (spec-mq 4.8); rdata is the
// entry's value in S(t): the RAM's synchronous read, replaced by the write of t - 1 when that write
// went to the same address (the one write the read can miss). So the result does not depend on the
// RAM's read-during-write mode.

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_mq_mem #(
    parameter int W   = 8,     // data width
    parameter int QPS = 1024,  // depth
    // spec-mq 2: AW = max(1, ceil(log2(QPS)))
    parameter int AW  = (QPS <= 2) ? 1 : $clog2(QPS)
) (
    input  wire logic          clk,
    input  wire logic          rst,    // resets the bypass registers only (spec-mq 4.2)

    /* Write port: the memory's one writing process, cycle t */
    input  wire logic          we,
    input  wire logic [AW-1:0] waddr,
    input  wire logic [W-1:0]  wdata,

    /* Read port: address known in cycle t - 1, data for cycle t */
    input  wire logic [AW-1:0] raddr,
    output logic      [W-1:0]  rdata
);

    // spec-mq 4.2: never reset; the init round writes every entry (4.3)
    (* ram_style = "block" *) logic [W-1:0] ram [QPS];

    logic [W-1:0]  ram_rdata_q;  // the RAM's synchronous read of raddr (t - 1)
    logic [AW-1:0] raddr_q;      // registered read address
    logic          byp_we_q;     // the previous cycle's write (spec-mq 4.8)
    logic [AW-1:0] byp_addr_q;
    logic [W-1:0]  byp_data_q;

    always_ff @(posedge clk) begin
        if (we) begin
            ram[waddr] <= wdata;
        end
        // the RAM's read register and its address: both follow raddr in every cycle, reset or not
        ram_rdata_q <= ram[raddr];
        raddr_q     <= raddr;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            byp_we_q   <= 1'b0;
            byp_addr_q <= '0;
            byp_data_q <= '0;
        end else begin
            byp_we_q   <= we;
            byp_addr_q <= waddr;
            byp_data_q <= wdata;
        end
    end

    // spec-mq 4.8: one level of bypass
    assign rdata = (byp_we_q && byp_addr_q == raddr_q) ? byp_data_q : ram_rdata_q;

endmodule
