// SPDX-License-Identifier: MIT
// tb_golden: replays a golden vector set (docs/golden-format.md) against the RTL, cycle by cycle.

`resetall
`timescale 1ns / 1ps
`default_nettype none

// Runs on Verilator 5 (--binary --timing) and Icarus Verilog 11 (-g2012); the reader is
// golden_reader.svh (found with -I testbench/sv), what is here is the block's: the DUT, the header's
// beat width, the field list, the drive and the comparison.
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
    localparam int VW     = 512;   // widest field: s_axis_tdata / m_axis_tdata at 64 bytes
    localparam int DW     = 8 * DATA_BYTES;

    `include "golden_reader.svh"

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

    // The header: format version, beat width, the field list.
    task read_header;
        bit got;
        int n;
        string t;
        read_magic("dcqcn-golden", "not a dcqcn-golden file");
        next_record(got);
        tok_str(t);
        if (t != "data_bytes") fail("expected `data_bytes <n>`");
        tok_num("beat width", n);
        if (n != DATA_BYTES)
            fail($sformatf("beat-width mismatch: the vectors are for %0d-byte beats, the RTL is built with DATA_BYTES=%0d",
                           n, DATA_BYTES));
        read_field_list();
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

    initial begin
        bit done;
        longint cycle;
        init_fields;
        open_vectors("tb_golden");
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
        finish_replay(cycle);
    end

    /* verilator lint_on UNUSEDSIGNAL */
endmodule

`resetall
