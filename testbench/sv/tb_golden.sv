// SPDX-License-Identifier: MIT
// tb_golden: replays a golden vector set (docs/golden-format.md) against the RTL, cycle by cycle.

`resetall
`timescale 1ns / 1ps
`default_nettype none

// Runs on Verilator 5 (--binary --timing) and Icarus Verilog 11 (-g2012); it uses only what both
// accept: line reads into a reg vector, no string methods but len(), no break/return.
//
//   +vectors=<path to vectors.txt>   (required)
//   +set=<name for messages>         (default: the path)
//   parameter DATA_BYTES             must equal the vectors' data_bytes
//   parameters RATE_RULES, CONTROL, TRACE_DEPTH   the block's features (spec 2): a configuration
//                                    the set's manifest lists under `builds`
//
// Prints `PASS <set> <cycles> cycles`, or stops at the first difference with
// `MISMATCH <set> cycle <k> field <name>: expected <hex> got <hex>`, or at malformed input with
// `<file>:<line>: <reason>`; failures end in $fatal (non-zero exit status).
module tb_golden #(
    parameter int DATA_BYTES  = 8,
    parameter int RATE_RULES  = 1,
    parameter int CONTROL     = 1,
    parameter int TRACE_DEPTH = 64
);
    // Loop indices and token buffers use only some of their bits; that is not a defect here.
    /* verilator lint_off UNUSEDSIGNAL */

    localparam int NF     = 72;    // fields of format version 1
    // Fields 0..15 are inputs, 16..28 outputs, 29..71 registers.
    localparam int SLOTS  = 256;
    localparam int MAXSEQ = 32;
    localparam int MAXC   = 2048;  // longest line, characters (docs/golden-format.md)
    localparam int DW     = 8 * DATA_BYTES;

    typedef logic [511:0] val_t;

    /* DUT ports */
    logic                  clk = 1'b0;
    logic                  rst, cnp;
    logic [DW-1:0]         s_axis_tdata;
    logic [DATA_BYTES-1:0] s_axis_tkeep;
    logic                  s_axis_tvalid, s_axis_tlast, m_axis_tready;
    logic [11:0]           s_axil_awaddr, s_axil_araddr;
    logic [31:0]           s_axil_wdata;
    logic [3:0]            s_axil_wstrb;
    logic                  s_axil_awvalid, s_axil_wvalid, s_axil_bready, s_axil_arvalid, s_axil_rready;
    wire                   s_axis_tready, m_axis_tvalid, m_axis_tlast;
    wire  [DW-1:0]         m_axis_tdata;
    wire  [DATA_BYTES-1:0] m_axis_tkeep;
    wire                   s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
    wire  [1:0]            s_axil_bresp, s_axil_rresp;
    wire  [31:0]           s_axil_rdata;

    /* spec 7 registers, through the simulation wrapper */
    wire [0:0]  st_cnp_meta;
    wire        st_cnp_sync, st_cnp_prev, st_active, st_alpha_pending, st_dec_pending;
    wire [31:0] st_rc, st_rt, st_inc_timer, st_byte_cnt, st_bpc;
    wire [9:0]  st_alpha, st_cfg_alpha_g;
    wire [15:0] st_alpha_timer, st_dec_timer, st_cfg_dec_interval, st_cfg_alpha_interval, st_cnp_cnt16;
    wire [7:0]  st_t_stage, st_b_stage, st_cfg_stage_threshold;
    wire [47:0] st_credit;
    wire [3:0]  st_cfg_dec_gain;
    wire        st_cfg_clamp_tgt, st_cfg_bypass, st_cfg_timer_en, st_cfg_byte_en;
    wire [31:0] st_cfg_rai, st_cfg_rhai, st_cfg_rmin, st_cfg_inc_interval, st_cfg_byte_threshold,
                st_cfg_credit_cap;
    wire [31:0] st_cnt_cnp, st_cnt_dec, st_cnt_inc_fr, st_cnt_inc_ai, st_cnt_inc_hai, st_cnt_inc_timer,
                st_cnt_inc_byte, st_cnt_stall, st_bytes_hi;
    wire [63:0] st_cnt_bytes;

    dcqcn_cosim_top #(
        .DATA_BYTES(DATA_BYTES), .RATE_RULES(RATE_RULES), .CONTROL(CONTROL), .TRACE_DEPTH(TRACE_DEPTH)
    ) u_top (.*);

    /* The field list of format version 1 */
    string names [NF];
    int    widths [NF];
    int    dirs [NF];   // 0 in, 1 out, 2 st
    val_t  masks [NF];  // the field's width as a bit mask

    task field(input int k, input int dir, input int width, input string name);
        names[k]  = name;
        widths[k] = width;
        masks[k]  = width_mask(width);
        dirs[k]   = dir;
    endtask

    task init_fields;
        field(0, 0, 1, "rst");            field(1, 0, 1, "cnp");
        field(2, 0, DW, "s_axis_tdata");  field(3, 0, DATA_BYTES, "s_axis_tkeep");
        field(4, 0, 1, "s_axis_tvalid");  field(5, 0, 1, "s_axis_tlast");
        field(6, 0, 1, "m_axis_tready");  field(7, 0, 12, "s_axil_awaddr");
        field(8, 0, 1, "s_axil_awvalid"); field(9, 0, 32, "s_axil_wdata");
        field(10, 0, 4, "s_axil_wstrb");  field(11, 0, 1, "s_axil_wvalid");
        field(12, 0, 1, "s_axil_bready"); field(13, 0, 12, "s_axil_araddr");
        field(14, 0, 1, "s_axil_arvalid"); field(15, 0, 1, "s_axil_rready");
        field(16, 1, 1, "s_axis_tready"); field(17, 1, 1, "m_axis_tvalid");
        field(18, 1, DW, "m_axis_tdata"); field(19, 1, DATA_BYTES, "m_axis_tkeep");
        field(20, 1, 1, "m_axis_tlast");  field(21, 1, 1, "s_axil_awready");
        field(22, 1, 1, "s_axil_wready"); field(23, 1, 1, "s_axil_bvalid");
        field(24, 1, 2, "s_axil_bresp");  field(25, 1, 1, "s_axil_arready");
        field(26, 1, 1, "s_axil_rvalid"); field(27, 1, 32, "s_axil_rdata");
        field(28, 1, 2, "s_axil_rresp");
        field(29, 2, 1, "cnp_meta");      field(30, 2, 1, "cnp_sync");
        field(31, 2, 1, "cnp_prev");      field(32, 2, 32, "rc");
        field(33, 2, 32, "rt");           field(34, 2, 1, "active");
        field(35, 2, 10, "alpha");        field(36, 2, 16, "alpha_timer");
        field(37, 2, 1, "alpha_pending"); field(38, 2, 16, "dec_timer");
        field(39, 2, 1, "dec_pending");   field(40, 2, 32, "inc_timer");
        field(41, 2, 32, "byte_cnt");     field(42, 2, 8, "t_stage");
        field(43, 2, 8, "b_stage");       field(44, 2, 32, "bpc");
        field(45, 2, 48, "credit");       field(46, 2, 10, "cfg_alpha_g");
        field(47, 2, 4, "cfg_dec_gain");  field(48, 2, 8, "cfg_stage_threshold");
        field(49, 2, 1, "cfg_clamp_tgt"); field(50, 2, 32, "cfg_rai");
        field(51, 2, 32, "cfg_rhai");     field(52, 2, 32, "cfg_rmin");
        field(53, 2, 32, "cfg_inc_interval"); field(54, 2, 16, "cfg_dec_interval");
        field(55, 2, 16, "cfg_alpha_interval"); field(56, 2, 1, "cfg_bypass");
        field(57, 2, 1, "cfg_timer_en");  field(58, 2, 1, "cfg_byte_en");
        field(59, 2, 32, "cfg_byte_threshold"); field(60, 2, 32, "cfg_credit_cap");
        field(61, 2, 16, "cnp_cnt16");    field(62, 2, 32, "cnt_cnp");
        field(63, 2, 32, "cnt_dec");      field(64, 2, 32, "cnt_inc_fr");
        field(65, 2, 32, "cnt_inc_ai");   field(66, 2, 32, "cnt_inc_hai");
        field(67, 2, 32, "cnt_inc_timer"); field(68, 2, 32, "cnt_inc_byte");
        field(69, 2, 32, "cnt_stall");    field(70, 2, 64, "cnt_bytes");
        field(71, 2, 32, "bytes_hi");
    endtask

    /* The DUT side of a field */
    function val_t dut_val(input int k);
        val_t v;
        v = '0;
        case (k)
            16: v[0] = s_axis_tready;        17: v[0] = m_axis_tvalid;
            18: v[DW-1:0] = m_axis_tdata;    19: v[DATA_BYTES-1:0] = m_axis_tkeep;
            20: v[0] = m_axis_tlast;         21: v[0] = s_axil_awready;
            22: v[0] = s_axil_wready;        23: v[0] = s_axil_bvalid;
            24: v[1:0] = s_axil_bresp;       25: v[0] = s_axil_arready;
            26: v[0] = s_axil_rvalid;        27: v[31:0] = s_axil_rdata;
            28: v[1:0] = s_axil_rresp;
            29: v[0] = st_cnp_meta[0];       30: v[0] = st_cnp_sync;
            31: v[0] = st_cnp_prev;          32: v[31:0] = st_rc;
            33: v[31:0] = st_rt;             34: v[0] = st_active;
            35: v[9:0] = st_alpha;           36: v[15:0] = st_alpha_timer;
            37: v[0] = st_alpha_pending;     38: v[15:0] = st_dec_timer;
            39: v[0] = st_dec_pending;       40: v[31:0] = st_inc_timer;
            41: v[31:0] = st_byte_cnt;       42: v[7:0] = st_t_stage;
            43: v[7:0] = st_b_stage;         44: v[31:0] = st_bpc;
            45: v[47:0] = st_credit;         46: v[9:0] = st_cfg_alpha_g;
            47: v[3:0] = st_cfg_dec_gain;    48: v[7:0] = st_cfg_stage_threshold;
            49: v[0] = st_cfg_clamp_tgt;     50: v[31:0] = st_cfg_rai;
            51: v[31:0] = st_cfg_rhai;       52: v[31:0] = st_cfg_rmin;
            53: v[31:0] = st_cfg_inc_interval; 54: v[15:0] = st_cfg_dec_interval;
            55: v[15:0] = st_cfg_alpha_interval; 56: v[0] = st_cfg_bypass;
            57: v[0] = st_cfg_timer_en;      58: v[0] = st_cfg_byte_en;
            59: v[31:0] = st_cfg_byte_threshold; 60: v[31:0] = st_cfg_credit_cap;
            61: v[15:0] = st_cnp_cnt16;      62: v[31:0] = st_cnt_cnp;
            63: v[31:0] = st_cnt_dec;        64: v[31:0] = st_cnt_inc_fr;
            65: v[31:0] = st_cnt_inc_ai;     66: v[31:0] = st_cnt_inc_hai;
            67: v[31:0] = st_cnt_inc_timer;  68: v[31:0] = st_cnt_inc_byte;
            69: v[31:0] = st_cnt_stall;      70: v[63:0] = st_cnt_bytes;
            71: v[31:0] = st_bytes_hi;
            default: v = 'x;
        endcase
        return v;
    endfunction

    /* Every output and every register in one vector each: one comparison per cycle; the
       per-field search runs only when it fails. */
    localparam int OUTW = 1+1+DW+DATA_BYTES+1+1+1+1+2+1+1+32+2;
    localparam int STW  = 1+1+1+32+32+1+10+16+1+16+1+32+32+8+8+32+48+10+4+8+1+32+32+32+32+16+16+1+1+1+32+32+16+32+32+32+32+32+32+32+32+64+32;
    wire [OUTW-1:0] act_out = {
        s_axis_tready,
        m_axis_tvalid,
        m_axis_tdata,
        m_axis_tkeep,
        m_axis_tlast,
        s_axil_awready,
        s_axil_wready,
        s_axil_bvalid,
        s_axil_bresp,
        s_axil_arready,
        s_axil_rvalid,
        s_axil_rdata,
        s_axil_rresp
    };
    wire [STW-1:0] act_st = {
        st_cnp_meta,
        st_cnp_sync,
        st_cnp_prev,
        st_rc,
        st_rt,
        st_active,
        st_alpha,
        st_alpha_timer,
        st_alpha_pending,
        st_dec_timer,
        st_dec_pending,
        st_inc_timer,
        st_byte_cnt,
        st_t_stage,
        st_b_stage,
        st_bpc,
        st_credit,
        st_cfg_alpha_g,
        st_cfg_dec_gain,
        st_cfg_stage_threshold,
        st_cfg_clamp_tgt,
        st_cfg_rai,
        st_cfg_rhai,
        st_cfg_rmin,
        st_cfg_inc_interval,
        st_cfg_dec_interval,
        st_cfg_alpha_interval,
        st_cfg_bypass,
        st_cfg_timer_en,
        st_cfg_byte_en,
        st_cfg_byte_threshold,
        st_cfg_credit_cap,
        st_cnp_cnt16,
        st_cnt_cnp,
        st_cnt_dec,
        st_cnt_inc_fr,
        st_cnt_inc_ai,
        st_cnt_inc_hai,
        st_cnt_inc_timer,
        st_cnt_inc_byte,
        st_cnt_stall,
        st_cnt_bytes,
        st_bytes_hi
    };

    function [OUTW-1:0] exp_out;
        exp_out = {
            vals[16][0],
            vals[17][0],
            vals[18][DW-1:0],
            vals[19][DATA_BYTES-1:0],
            vals[20][0],
            vals[21][0],
            vals[22][0],
            vals[23][0],
            vals[24][2-1:0],
            vals[25][0],
            vals[26][0],
            vals[27][32-1:0],
            vals[28][2-1:0]
        };
    endfunction

    function [STW-1:0] exp_st;
        exp_st = {
            vals[29][0],
            vals[30][0],
            vals[31][0],
            vals[32][32-1:0],
            vals[33][32-1:0],
            vals[34][0],
            vals[35][10-1:0],
            vals[36][16-1:0],
            vals[37][0],
            vals[38][16-1:0],
            vals[39][0],
            vals[40][32-1:0],
            vals[41][32-1:0],
            vals[42][8-1:0],
            vals[43][8-1:0],
            vals[44][32-1:0],
            vals[45][48-1:0],
            vals[46][10-1:0],
            vals[47][4-1:0],
            vals[48][8-1:0],
            vals[49][0],
            vals[50][32-1:0],
            vals[51][32-1:0],
            vals[52][32-1:0],
            vals[53][32-1:0],
            vals[54][16-1:0],
            vals[55][16-1:0],
            vals[56][0],
            vals[57][0],
            vals[58][0],
            vals[59][32-1:0],
            vals[60][32-1:0],
            vals[61][16-1:0],
            vals[62][32-1:0],
            vals[63][32-1:0],
            vals[64][32-1:0],
            vals[65][32-1:0],
            vals[66][32-1:0],
            vals[67][32-1:0],
            vals[68][32-1:0],
            vals[69][32-1:0],
            vals[70][64-1:0],
            vals[71][32-1:0]
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
        if (width < 512) m = (val_t'(1) << width) - 1;
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

    // The header: format version, beat width, the field list.
    task read_header;
        bit got;
        int k, n;
        string t, want;
        fd = $fopen(path, "r");
        lineno = 0;
        read_line(got);
        tok_str(t);
        if (t != "dcqcn-golden") fail("not a dcqcn-golden file");
        tok_str(t);
        if (t != "1") fail($sformatf("format version %0s; this testbench reads version 1", t));
        expect_end_of_line();
        next_record(got);
        tok_str(t);
        if (t != "data_bytes") fail("expected `data_bytes <n>`");
        tok_num("beat width", n);
        if (n != DATA_BYTES)
            fail($sformatf("beat-width mismatch: the vectors are for %0d-byte beats, the RTL is built with DATA_BYTES=%0d",
                           n, DATA_BYTES));
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
            else if (dirs[k] == 1) want = "out";
            else want = "st";
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
        cnp            = vals[1][0];
        s_axis_tdata   = vals[2][DW-1:0];
        s_axis_tkeep   = vals[3][DATA_BYTES-1:0];
        s_axis_tvalid  = vals[4][0];
        s_axis_tlast   = vals[5][0];
        m_axis_tready  = vals[6][0];
        s_axil_awaddr  = vals[7][11:0];
        s_axil_awvalid = vals[8][0];
        s_axil_wdata   = vals[9][31:0];
        s_axil_wstrb   = vals[10][3:0];
        s_axil_wvalid  = vals[11][0];
        s_axil_bready  = vals[12][0];
        s_axil_araddr  = vals[13][11:0];
        s_axil_arvalid = vals[14][0];
        s_axil_rready  = vals[15][0];
    endtask

    task compare(input int dir, input longint cycle);
        int k;
        val_t got;
        for (k = 0; k < NF; k = k + 1) begin
            if (dirs[k] == dir) begin
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
            $display("tb_golden: give +vectors=<path to vectors.txt>");
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
            // Inputs change with clk low; outputs settle; then the rising edge.
            drive();
            #4;
            if (cycle > 0 && act_out !== exp_out()) compare(1, cycle);
            clk = 1'b1;
            #1;
            if (act_st !== exp_st()) compare(2, cycle);
            #4;
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
