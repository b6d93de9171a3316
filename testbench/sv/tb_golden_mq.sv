// SPDX-License-Identifier: MIT
// tb_golden_mq: replays a golden vector set of the multi-QP block (docs/golden-format.md, "The
// multi-QP block") against the top level dcqcn_mq (rtl/mq/), cycle by cycle.

`resetall
`timescale 1ns / 1ps
`default_nettype none

// Runs on Verilator 5 (--binary --timing) and Icarus Verilog 11 (-g2012), like tb_golden.sv, whose
// reader it shares line for line but for the header (`dcqcn-golden-mq 1`, `qps <n>`) and the
// field list (the ports of spec-mq 3: 19 inputs, 11 outputs; no register fields).
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
    localparam int SLOTS  = 256;
    localparam int MAXSEQ = 32;
    localparam int MAXC   = 2048;  // longest line, characters (docs/golden-format.md)
    localparam int VW     = 32;    // widest field (s_axil_wdata, s_axil_rdata)

    typedef logic [VW-1:0] val_t;

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
    string names [NF];
    int    widths [NF];
    int    dirs [NF];   // 0 in, 1 out
    val_t  masks [NF];  // the field's width as a bit mask

    task field(input int k, input int dir, input int width, input string name);
        names[k]  = name;
        widths[k] = width;
        masks[k]  = width_mask(width);
        dirs[k]   = dir;
    endtask

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

    /* Reader state */
    reg [7:0]        lchars [MAXC]; // the current line
    int              llen;       // characters in lchars, LF included
    int              lpos;       // next character
    int              lineno;
    int              fd;
    reg [8*1024-1:0] path;
    reg [8*1024-1:0] set_name;

    val_t vals [NF];
    int   tn [SLOTS];
    int   tidx [SLOTS][NF];
    val_t tdel [SLOTS][NF];
    bit   tdef [SLOTS];
    int   seq [MAXSEQ];
    int   seq_len, seq_pos;
    int   reps_left;
    longint          end_cycles;

    task fail(input string reason);
        $display("%0s:%0d: %0s", path, lineno, reason);
        $fatal(1, "golden replay stopped: malformed input");
    endtask

    function [7:0] ch(input int i);
        return lchars[i];
    endfunction

    function val_t width_mask(input int width);
        val_t m;
        m = '1;
        if (width < VW) m = (val_t'(1) << width) - 1;
        return m;
    endfunction

    // Reads a line into lchars; got = 0 at end of file.
    task read_line(output bit got);
        int c;
        llen = 0;
        lpos = 0;
        c = $fgetc(fd);
        got = c != -1;
        if (got) lineno = lineno + 1;
        while (c != -1 && c != 10) begin
            if (llen == MAXC - 1) fail("line longer than 2048 characters");
            lchars[llen] = c[7:0];
            llen = llen + 1;
            c = $fgetc(fd);
        end
        if (got) begin
            if (c != 10) fail("truncated: the last line has no LF");
            lchars[llen] = 8'h0a;
            llen = llen + 1;
        end
    endtask

    // The next space-separated token: its first character and length.
    task token(output int start, output int len);
        start = lpos;
        len   = 0;
        while (lpos < llen - 1 && ch(lpos) != " ") begin
            lpos = lpos + 1;
            len  = len + 1;
        end
        if (lpos < llen - 1) lpos = lpos + 1;  // the separating space
        if (len == 0) fail("missing token");
    endtask

    task tok_str(output string s);
        int a, n, i;
        token(a, n);
        s = "";
        for (i = 0; i < n; i = i + 1) s = $sformatf("%s%c", s, ch(a + i));
    endtask

    // A decimal number of up to 18 digits.
    task tok_long(input string what, output longint v);
        int a, n, i;
        reg [7:0] c;
        token(a, n);
        v = 0;
        for (i = 0; i < n; i = i + 1) begin
            c = ch(a + i);
            if (c < "0" || c > "9" || n > 18) fail($sformatf("bad %0s", what));
            v = v * 10 + longint'(c) - 64'sd48;
        end
    endtask

    // A decimal number from 0 to 2^31-1.
    task tok_num(input string what, output int v);
        longint x;
        tok_long(what, x);
        if (x > 64'sd2147483647) fail($sformatf("%0s out of range", what));
        v = int'(x);
    endtask

    task tok_hex(input int width, output val_t v);
        int a, n, i;
        reg [7:0] c;
        reg [3:0] nib;
        token(a, n);
        if (n != (width + 3) / 4)
            fail($sformatf("a %0d-bit value takes exactly %0d hex digits, not %0d", width, (width + 3) / 4, n));
        v = '0;
        for (i = 0; i < n; i = i + 1) begin
            c = ch(a + i);
            if (c >= "0" && c <= "9") nib = 4'(c - 8'd48);
            else if (c >= "a" && c <= "f") nib = 4'(c - 8'd87);
            else begin
                nib = 0;
                fail($sformatf("`%c` is not a lowercase hex digit", c));
            end
            v = (v << 4) | val_t'(nib);
        end
        if ((v & ~width_mask(width)) != '0) fail($sformatf("bits above %0d are set", width));
    endtask

    task expect_end_of_line;
        if (lpos != llen - 1) fail("unexpected characters at the end of the line");
    endtask

    reg [31:0] crc_table [256];

    task init_crc_table;
        reg [31:0] x;
        int b, j;
        for (b = 0; b < 256; b = b + 1) begin
            x = b;
            for (j = 0; j < 8; j = j + 1) x = x[0] ? ((x >> 1) ^ 32'hEDB88320) : (x >> 1);
            crc_table[b] = x;
        end
    endtask

    function [31:0] crc_byte(input [31:0] crc, input [7:0] b);
        return (crc >> 8) ^ crc_table[crc[7:0] ^ b];
    endfunction

    function string hex_str(input val_t v, input int width);
        string s;
        int d;
        s = "";
        for (d = (width + 3) / 4 - 1; d >= 0; d = d - 1) s = $sformatf("%s%h", s, v[4 * d +: 4]);
        return s;
    endfunction

    // Pass 1: the end line, its cycle count and the CRC-32 of every byte before it, so that a
    // corrupt or truncated file is never simulated.
    task check_file;
        bit got, seen_end;
        int i;
        reg [31:0] crc, crc_end;
        val_t v;
        string t;
        fd = $fopen(path, "r");
        lineno = 0;
        if (fd == 0) fail("cannot open");
        crc = 32'hFFFFFFFF;
        seen_end = 0;
        read_line(got);
        if (!got) fail("empty file");
        while (got) begin
            if (seen_end) fail("content after the end line");
            if (llen > 4 && ch(0) == "e" && ch(1) == "n" && ch(2) == "d" && ch(3) == " ") begin
                seen_end = 1;
                tok_str(t);
                tok_long("cycle count", end_cycles);
                tok_hex(32, v);
                expect_end_of_line();
                crc_end = v[31:0];
                if (~crc != crc_end)
                    fail($sformatf("checksum mismatch: the end line says %h, the lines before it give %h (corrupt or edited file)",
                                   crc_end, ~crc));
            end
            for (i = 0; i < llen; i = i + 1) begin
                if (ch(i) == 8'h0d) fail("carriage return: lines must end with LF only");
                crc = crc_byte(crc, ch(i));
            end
            read_line(got);
        end
        if (!seen_end) fail("truncated: the last line is not `end <cycles> <crc32>`");
        $fclose(fd);
    endtask

    // The header: format version, QPS, the field list.
    task read_header;
        bit got;
        int k, n;
        string t, want;
        fd = $fopen(path, "r");
        lineno = 0;
        read_line(got);
        tok_str(t);
        if (t != "dcqcn-golden-mq") fail("not a dcqcn-golden-mq file (multi-QP vectors)");
        tok_str(t);
        if (t != "1") fail($sformatf("format version %0s; this testbench reads version 1", t));
        expect_end_of_line();
        next_record(got);
        tok_str(t);
        if (t != "qps") fail("expected `qps <n>`");
        tok_num("qps", n);
        if (n != QPS)
            fail($sformatf("qps mismatch: the vectors are for QPS=%0d, the RTL is built with QPS=%0d",
                           n, QPS));
        next_record(got);
        tok_str(t);
        tok_num("field count", n);
        if (t != "fields" || n != NF) fail($sformatf("expected `fields %0d`", NF));
        for (k = 0; k < NF; k = k + 1) begin
            next_record(got);
            if (!got) fail("missing field line");
            tok_str(t);
            if (t != "f") fail("expected a field line `f <index> <dir> <width> <name>`");
            tok_num("field index", n);
            if (n != k) fail($sformatf("expected field %0d", k));
            tok_str(t);
            if (dirs[k] == 0) want = "in";
            else want = "out";
            if (t != want) fail($sformatf("field %0d: direction %0s, this testbench expects %0s", k, t, want));
            tok_num("width", n);
            if (n != widths[k]) fail($sformatf("field %0d: width %0d, this testbench expects %0d", k, n, widths[k]));
            tok_str(t);
            want = names[k];
            if (t != want) fail($sformatf("field %0d: name %0s, this testbench expects %0s", k, t, want));
            expect_end_of_line();
        end
    endtask

    // The next line that is not a comment (got = 0 at end of file).
    task next_record(output bit got);
        read_line(got);
        while (got && ch(0) == "#") read_line(got);
    endtask

    // Reads records until a `c` or `r` record starts a run of cycles; done = the end line.
    task next_run(output bit done);
        bit got, started;
        int slot, n, k, idx, prev, e;
        string t;
        val_t d;
        done = 0;
        started = 0;
        while (!started && !done) begin
            next_record(got);
            if (!got) fail("truncated: no end line");
            tok_str(t);
            if (t == "t") begin
                tok_num("slot", slot);
                if (slot >= SLOTS) fail($sformatf("slot %0d is not in 0..255", slot));
                tok_num("entry count", n);
                if (n > NF) fail("more entries than fields");
                prev = 0;
                for (e = 0; e < n; e = e + 1) begin
                    tok_num("field index", idx);
                    if (idx >= NF) fail($sformatf("field index %0d out of range", idx));
                    if (e > 0 && idx <= prev) fail("field indices not increasing");
                    prev = idx;
                    tok_hex(widths[idx], d);
                    tidx[slot][e] = idx;
                    tdel[slot][e] = d;
                end
                expect_end_of_line();
                tn[slot] = n;
                tdef[slot] = 1;
            end else if (t == "c") begin
                tok_num("slot", slot);
                if (slot >= SLOTS || !tdef[slot]) fail($sformatf("slot %0d is not defined", slot));
                tok_num("count", n);
                if (n == 0) fail("count out of range");
                expect_end_of_line();
                seq[0] = slot;
                seq_len = 1;
                seq_pos = 0;
                reps_left = n;
                started = 1;
            end else if (t == "r") begin
                tok_num("count", n);
                if (n == 0) fail("count out of range");
                tok_num("sequence length", k);
                if (k == 0 || k > MAXSEQ) fail("sequence length out of range (1..32)");
                for (e = 0; e < k; e = e + 1) begin
                    tok_num("slot", slot);
                    if (slot >= SLOTS || !tdef[slot]) fail($sformatf("slot %0d is not defined", slot));
                    seq[e] = slot;
                end
                expect_end_of_line();
                seq_len = k;
                seq_pos = 0;
                reps_left = n;
                started = 1;
            end else if (t == "end") begin
                done = 1;
            end else begin
                fail($sformatf("unknown record `%0s`", t));
            end
        end
    endtask

    // Applies the next cycle's template; done = no cycle left.
    task next_cycle(output bit done);
        int e, k, s;
        done = 0;
        if (reps_left == 0) next_run(done);
        if (!done) begin
            s = seq[seq_pos];
            for (e = 0; e < tn[s]; e = e + 1) begin
                k = tidx[s][e];
                vals[k] = (vals[k] + tdel[s][e]) & masks[k];
            end
            seq_pos = seq_pos + 1;
            if (seq_pos == seq_len) begin
                seq_pos   = 0;
                reps_left = reps_left - 1;
            end
        end
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

    task compare(input longint cycle);
        int k;
        val_t got;
        for (k = 0; k < NF; k = k + 1) begin
            if (dirs[k] == 1) begin
                got = dut_val(k);
                if (got !== vals[k]) begin
                    $display("MISMATCH %0s cycle %0d field %0s: expected %0s got %0s", set_name, cycle,
                             names[k], hex_str(vals[k], widths[k]), hex_str(got, widths[k]));
                    $fatal(1, "golden replay failed");
                end
            end
        end
    endtask

    initial begin
        bit done;
        longint cycle;
        int k;
        init_fields;
        init_crc_table;
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("tb_golden_mq: give +vectors=<path to vectors.txt>");
            $fatal(1, "no vectors");
        end
        if (!$value$plusargs("set=%s", set_name)) set_name = path;
        for (k = 0; k < NF; k = k + 1) vals[k] = '0;
        for (k = 0; k < SLOTS; k = k + 1) begin
            tdef[k] = 0;
            tn[k] = 0;
        end
        reps_left = 0;
        check_file();
        read_header();
        cycle = 0;
        next_cycle(done);
        while (!done) begin
            // Inputs change with clk low; outputs settle; then the rising edge. Cycle 0's
            // registered outputs have no defined value before the first edge.
            drive();
            #4;
            if (cycle > 0 && act_out !== exp_out()) compare(cycle);
            clk = 1'b1;
            #5;
            clk = 1'b0;
            #1;
            cycle = cycle + 1;
            next_cycle(done);
        end
        if (cycle != end_cycles)
            fail($sformatf("the end line says %0d cycles, the records hold %0d", end_cycles, cycle));
        $fclose(fd);
        $display("PASS %0s %0d cycles", set_name, cycle);
        $finish;
    end

    /* verilator lint_on UNUSEDSIGNAL */
endmodule

`resetall
