// SPDX-License-Identifier: MIT
// golden_reader.svh: the golden-vector reader (docs/golden-format.md) shared by tb_golden.sv and
// tb_golden_mq.sv: line reads, tokens, the CRC-32 and end-line pass, the field list of the header,
// t / c / r records and templates, the per-field search of a mismatch.

// Included in the body of a testbench module, once (no include guard: each module includes its own
// copy), after the module's
//   localparam int NF   the number of fields
//   localparam int VW   the widest field's bits (val_t)
// The module provides
//   task init_fields                    field(k, dir, width, name) for k = 0..NF-1 (dir 0 in,
//                                       1 out, 2 st)
//   task read_header                    read_magic, its own records, read_field_list
//   function val_t dut_val(input int k) the DUT's value of out / st field k (for compare)
// and replays with
//   init_fields; open_vectors("<module>"); read_header; next_cycle(done) per cycle, drive and
//   compare; finish_replay(cycles).
// Runs on Verilator 5 (--binary --timing) and Icarus Verilog 11 (-g2012); it uses only what both
// accept: line reads into a reg vector, no string methods but len(), no break/return.

    localparam int SLOTS  = 256;
    localparam int MAXSEQ = 32;
    localparam int MAXC   = 2048;  // longest line, characters (docs/golden-format.md)

    typedef logic [VW-1:0] val_t;

    /* The field list */
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

    // The plusargs, then pass 1; tb names the module in the message for a missing +vectors.
    task open_vectors(input string tb);
        int k;
        init_crc_table;
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("%0s: give +vectors=<path to vectors.txt>", tb);
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
    endtask

    // The header's first line, `<magic> 1`; complaint is the message for another magic.
    task read_magic(input string magic, input string complaint);
        bit got;
        string t;
        fd = $fopen(path, "r");
        lineno = 0;
        read_line(got);
        tok_str(t);
        if (t != magic) fail(complaint);
        tok_str(t);
        if (t != "1") fail($sformatf("format version %0s; this testbench reads version 1", t));
        expect_end_of_line();
    endtask

    // The header's `fields <NF>` and field lines, against the list of init_fields.
    task read_field_list;
        bit got;
        int k, n;
        string t, want;
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

    // Applies the next cycle's template to vals; done = no cycle left.
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

    // Stops at the first field of direction dir whose DUT value (dut_val) differs from vals.
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

    // After the last cycle: the end line's count against the cycles replayed, then PASS.
    task finish_replay(input longint cycles);
        if (cycles != end_cycles)
            fail($sformatf("the end line says %0d cycles, the records hold %0d", end_cycles, cycles));
        $fclose(fd);
        $display("PASS %0s %0d cycles", set_name, cycles);
        $finish;
    endtask
