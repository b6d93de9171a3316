// SPDX-License-Identifier: MIT
// tb_golden_mq: replays a golden vector set of the multi-QP block (docs/golden-format.md, "The
// multi-QP block") against the top level dcqcn_mq (rtl/mq/), cycle by cycle.

`resetall
`timescale 1ns / 1ps
`default_nettype none

// Runs on Verilator 5 (--binary --timing) and Icarus Verilog 11 (-g2012) with the reader of
// tb_golden.sv, golden_reader.svh (found with -I testbench/sv); what is here is the block's: the
// DUT, the header (`dcqcn-golden-mq 1`, `qps <n>`), the field list (the ports of spec-mq 3:
// 19 inputs, 11 outputs; no register fields), the drive and the comparison.
//
//   +vectors=<path to vectors.txt>   (required)
//   +set=<name for messages>         (default: the path)
//   parameters QPS, CLK_FREQ_HZ, LINE_RATE   the block's generics: QPS must equal the vectors'
//                                    `qps`; the clock and line rate are the manifest's (run.sh)
//
// Prints `PASS <set> <cycles> cycles`, or stops at the first difference with
// `MISMATCH <set> cycle <k> field <name>: expected <hex> got <hex>`, or at malformed input with
// `<file>:<line>: <reason>`; failures end in $fatal (non-zero exit status).
module tb_golden_mq #(
    parameter int          QPS         = 4,
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,
    parameter logic [31:0] LINE_RATE   = 32'd1_250_000_000
);
    // Loop indices and token buffers use only some of their bits; that is not a defect here.
    /* verilator lint_off UNUSEDSIGNAL */

    localparam int NF     = 30;    // fields: 0..18 inputs, 19..29 outputs
    localparam int VW     = 32;    // widest field (s_axil_wdata, s_axil_rdata)

    `include "golden_reader.svh"

    /* DUT ports (spec-mq 3) */
    logic        clk = 1'b0;
    logic        rst;
    logic        s_req_valid, s_cnp_valid, s_rpt_valid, grant_pause;
    logic [11:0] s_req_qp, s_cnp_qp, s_rpt_qp;
    logic [15:0] s_req_bytes, s_rpt_bytes;
    logic [20:0] s_axil_awaddr, s_axil_araddr;
    logic [31:0] s_axil_wdata;
    logic [3:0]  s_axil_wstrb;
    logic        s_axil_awvalid, s_axil_wvalid, s_axil_bready, s_axil_arvalid, s_axil_rready;
    wire         m_grant_valid;
    wire  [11:0] m_grant_qp;
    wire  [15:0] m_grant_bytes;
    wire         s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
    wire  [1:0]  s_axil_bresp, s_axil_rresp;
    wire  [31:0] s_axil_rdata;

    dcqcn_mq #(.QPS(QPS), .CLK_FREQ_HZ(CLK_FREQ_HZ), .LINE_RATE(LINE_RATE)) u_dut (.*);

    /* The field list (golden/mq.rs: mq_fields) */
    task init_fields;
        field(0, 0, 1, "rst");             field(1, 0, 1, "s_req_valid");
        field(2, 0, 12, "s_req_qp");       field(3, 0, 16, "s_req_bytes");
        field(4, 0, 1, "s_cnp_valid");     field(5, 0, 12, "s_cnp_qp");
        field(6, 0, 1, "s_rpt_valid");     field(7, 0, 12, "s_rpt_qp");
        field(8, 0, 16, "s_rpt_bytes");    field(9, 0, 1, "grant_pause");
        field(10, 0, 21, "s_axil_awaddr"); field(11, 0, 1, "s_axil_awvalid");
        field(12, 0, 32, "s_axil_wdata");  field(13, 0, 4, "s_axil_wstrb");
        field(14, 0, 1, "s_axil_wvalid");  field(15, 0, 1, "s_axil_bready");
        field(16, 0, 21, "s_axil_araddr"); field(17, 0, 1, "s_axil_arvalid");
        field(18, 0, 1, "s_axil_rready");
        field(19, 1, 1, "m_grant_valid");  field(20, 1, 12, "m_grant_qp");
        field(21, 1, 16, "m_grant_bytes"); field(22, 1, 1, "s_axil_awready");
        field(23, 1, 1, "s_axil_wready");  field(24, 1, 1, "s_axil_bvalid");
        field(25, 1, 2, "s_axil_bresp");   field(26, 1, 1, "s_axil_arready");
        field(27, 1, 1, "s_axil_rvalid");  field(28, 1, 32, "s_axil_rdata");
        field(29, 1, 2, "s_axil_rresp");
    endtask

    /* The DUT side of an output field */
    function val_t dut_val(input int k);
        val_t v;
        v = '0;
        case (k)
            19: v[0] = m_grant_valid;        20: v[11:0] = m_grant_qp;
            21: v[15:0] = m_grant_bytes;     22: v[0] = s_axil_awready;
            23: v[0] = s_axil_wready;        24: v[0] = s_axil_bvalid;
            25: v[1:0] = s_axil_bresp;       26: v[0] = s_axil_arready;
            27: v[0] = s_axil_rvalid;        28: v[31:0] = s_axil_rdata;
            29: v[1:0] = s_axil_rresp;
            default: v = 'x;
        endcase
        return v;
    endfunction

    /* Every output in one vector: one comparison per cycle; the per-field search runs only when
       it fails. */
    localparam int OUTW = 1+12+16+1+1+1+2+1+1+32+2;
    wire [OUTW-1:0] act_out = {
        m_grant_valid, m_grant_qp, m_grant_bytes, s_axil_awready, s_axil_wready, s_axil_bvalid,
        s_axil_bresp, s_axil_arready, s_axil_rvalid, s_axil_rdata, s_axil_rresp
    };

    function [OUTW-1:0] exp_out;
        exp_out = {
            vals[19][0], vals[20][11:0], vals[21][15:0], vals[22][0], vals[23][0], vals[24][0],
            vals[25][1:0], vals[26][0], vals[27][0], vals[28][31:0], vals[29][1:0]
        };
    endfunction

    // The header: format version, QPS, the field list.
    task read_header;
        bit got;
        int n;
        string t;
        read_magic("dcqcn-golden-mq", "not a dcqcn-golden-mq file (multi-QP vectors)");
        next_record(got);
        tok_str(t);
        if (t != "qps") fail("expected `qps <n>`");
        tok_num("qps", n);
        if (n != QPS)
            fail($sformatf("qps mismatch: the vectors are for QPS=%0d, the RTL is built with QPS=%0d",
                           n, QPS));
        read_field_list();
    endtask

    task drive;
        rst            = vals[0][0];
        s_req_valid    = vals[1][0];
        s_req_qp       = vals[2][11:0];
        s_req_bytes    = vals[3][15:0];
        s_cnp_valid    = vals[4][0];
        s_cnp_qp       = vals[5][11:0];
        s_rpt_valid    = vals[6][0];
        s_rpt_qp       = vals[7][11:0];
        s_rpt_bytes    = vals[8][15:0];
        grant_pause    = vals[9][0];
        s_axil_awaddr  = vals[10][20:0];
        s_axil_awvalid = vals[11][0];
        s_axil_wdata   = vals[12][31:0];
        s_axil_wstrb   = vals[13][3:0];
        s_axil_wvalid  = vals[14][0];
        s_axil_bready  = vals[15][0];
        s_axil_araddr  = vals[16][20:0];
        s_axil_arvalid = vals[17][0];
        s_axil_rready  = vals[18][0];
    endtask

    initial begin
        bit done;
        longint cycle;
        init_fields;
        open_vectors("tb_golden_mq");
        read_header();
        cycle = 0;
        next_cycle(done);
        while (!done) begin
            // Inputs change with clk low; outputs settle; then the rising edge. Cycle 0's
            // registered outputs have no defined value before the first edge.
            drive();
            #4;
            if (cycle > 0 && act_out !== exp_out()) compare(1, cycle);
            clk = 1'b1;
            #5;
            clk = 1'b0;
            #1;
            cycle = cycle + 1;
            next_cycle(done);
        end
        finish_replay(cycle);
    end

    /* verilator lint_on UNUSEDSIGNAL */
endmodule

`resetall
