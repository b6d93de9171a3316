// SPDX-License-Identifier: MIT
// dcqcn_regs: AXI4-Lite register file, configuration, statistics counters and read mux (spec 6).

`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "dcqcn_checks.svh"

module dcqcn_regs #(
    parameter int          DATA_BYTES  = 8,                  // reported in the ID register
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,    // f, Hz; sets the interval reset values
    parameter int          RATE_RULES  = 1,                  // spec 2: the rate rules 0x150-0x158
    parameter int          CONTROL     = 1,                  // spec 2: the control schemes 0x15C-0x160
    parameter int          TRACE_DEPTH = 64                  // spec 2: the event trace 0x170-0x18C (0, 64)
) (
    /* Clock and synchronous reset */
    input  wire logic        clk,
    input  wire logic        rst,

    /* AXI4-Lite slave: write address, write data, write response */
    // spec 6.1: addr[1:0] are ignored (word decode on addr[11:2])
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire logic [11:0] s_axil_awaddr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire logic        s_axil_awvalid,
    output logic             s_axil_awready,
    input  wire logic [31:0] s_axil_wdata,
    input  wire logic [3:0]  s_axil_wstrb,
    input  wire logic        s_axil_wvalid,
    output logic             s_axil_wready,
    output logic      [1:0]  s_axil_bresp,
    output logic             s_axil_bvalid,
    input  wire logic        s_axil_bready,

    /* AXI4-Lite slave: read address, read data */
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire logic [11:0] s_axil_araddr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire logic        s_axil_arvalid,
    output logic             s_axil_arready,
    output logic      [31:0] s_axil_rdata,
    output logic      [1:0]  s_axil_rresp,
    output logic             s_axil_rvalid,
    input  wire logic        s_axil_rready,

    /* Read-only state of the reaction point and credit gate */
    input  wire logic [31:0] rc,
    input  wire logic [31:0] rt,
    input  wire logic        active,
    input  wire logic [9:0]  alpha,
    input  wire logic        alpha_pending,
    input  wire logic        dec_pending,
    input  wire logic [7:0]  t_stage,
    input  wire logic [7:0]  b_stage,
    input  wire logic [31:0] bpc,
    input  wire logic [47:0] credit,

    /* Events counted this cycle (spec 6.2) */
    input  wire logic        cnp_edge,
    input  wire logic        dec_fire,
    input  wire logic        inc_event,
    input  wire logic        phase_fr,
    input  wire logic        phase_ai,
    input  wire logic        phase_hai,
    input  wire logic        timer_fire,
    input  wire logic        byte_fire,
    input  wire logic        stall,
    input  wire logic [6:0]  bytes_in,
    // Rc after this cycle's edge when it has a rate event (the trace entry's rate; any value in
    // other cycles, which record nothing)
    input  wire logic [31:0] rc_next,

    /* Configuration registers (spec 6.2) */
    output logic      [9:0]  cfg_alpha_g,
    output logic      [3:0]  cfg_dec_gain,
    output logic      [7:0]  cfg_stage_threshold,
    output logic             cfg_clamp_tgt,
    output logic      [31:0] cfg_rai,
    output logic      [31:0] cfg_rhai,
    output logic      [31:0] cfg_rmin,
    output logic      [31:0] cfg_inc_interval,
    output logic      [15:0] cfg_dec_interval,
    output logic      [15:0] cfg_alpha_interval,
    output logic             cfg_bypass,
    output logic             cfg_timer_en,
    output logic             cfg_byte_en,
    output logic      [31:0] cfg_byte_threshold,
    output logic      [31:0] cfg_credit_cap,
    output logic      [31:0] cfg_rmax,
    output logic      [31:0] cfg_rate_first_cnp,
    output logic      [9:0]  cfg_alpha_init,
    output logic      [10:0] cfg_min_dec_fac,
    output logic             cfg_hai_mult,
    output logic      [1:0]  cfg_scheme,
    output logic             cfg_gate_mask,
    output logic      [31:0] cfg_fw_rate
);

    // spec 2: illegal parameters are an elaboration error
    `DCQCN_CHECK_DATA_BYTES(dcqcn_regs)
    `DCQCN_CHECK_CLK_FREQ_HZ(dcqcn_regs)
    `DCQCN_CHECK_FEATURES(dcqcn_regs)

    `include "dcqcn_regmap.svh"

    // spec 2: the features built (the register map's `feature` of a word names one of these)
    localparam bit FEAT_RATE_RULES = RATE_RULES != 0;
    localparam bit FEAT_CONTROL    = CONTROL != 0;
    localparam bit FEAT_TRACE      = TRACE_DEPTH != 0;

    localparam logic [63:0] F_64 = {32'd0, CLK_FREQ_HZ};
    // spec 2: interval reset values, round(1.5 ms x f), round(4 us x f) mod 2^16, round(55 us x f) mod 2^16
    localparam logic [63:0] RATE_INC_RESET_64 = (F_64 * 64'd3 + 64'd1000) / 64'd2000;
    localparam logic [63:0] RATE_DEC_RESET_64 = (F_64 * 64'd4 + 64'd500_000) / 64'd1_000_000;
    localparam logic [63:0] ALPHA_RESET_64    = (F_64 * 64'd55 + 64'd500_000) / 64'd1_000_000;
    localparam logic [31:0] RATE_INC_RESET    = RATE_INC_RESET_64[31:0];
    localparam logic [15:0] RATE_DEC_RESET    = RATE_DEC_RESET_64[15:0];
    localparam logic [15:0] ALPHA_RESET       = ALPHA_RESET_64[15:0];

    localparam logic [31:0] DATA_BYTES_32 = DATA_BYTES;

    // spec 6.2: every word lies in 0x000-0x1FF: word indices 0-127 (addr[8:2])
    localparam int READ_WORDS = 128;

    localparam logic [1:0] RESP_OKAY   = 2'b00;
    localparam logic [1:0] RESP_DECERR = 2'b11;

    /* Registers (spec 7, regs): the record, its next value and its reset value */
    regs_t        r;
    regs_t        r_d;
    regs_t        r_init;   // constant: depends on the parameters only

    /* Event trace storage (spec 4.10): one write port at trace.wptr, one asynchronous read port at
       trace_phys, no reset (distributed RAM) */
    logic [67:0]  trace_mem [64];

    /* Combinational */
    logic         wr_en;
    logic         wr_ok;    // a write to a built word
    logic         rd_en;
    logic [9:0]   wr_word;
    logic [9:0]   rd_word;
    // spec 6.2: the action bits, from the write data with the unstrobed byte lanes 0
    // BEGIN GENERATED write-decl: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    // the strobed write data of the words with action bits (only the action bits are used)
    /* verilator lint_off UNUSEDSIGNAL */
    alpha_cnp_t   wr_alpha_cnp;
    ext_ctrl_t    wr_ext_ctrl;
    trace_ctrl_t  wr_trace_ctrl;
    /* verilator lint_on UNUSEDSIGNAL */
    logic         cnp_cnt_clear;
    logic         cnt_clear;
    logic         trace_clear;
    // END GENERATED write-decl
    alpha_cnp_t   rd_alpha_cnp;
    id_t          rd_id;
    credit_frac_t rd_credit_frac;
    status_t      rd_status;
    logic [1:0]   wresp;
    logic [31:0]  rword;
    logic         rmapped;
    // spec 6.2: the words of the word indices 0-127 and which of them are mapped (read_tree)
    logic [READ_WORDS*32-1:0] rtab;
    logic [READ_WORDS-1:0]    rmap;
    // spec 4.10: the event, its record and the entry it writes; the selected entry's read-out
    logic         trace_ev;
    logic         trace_full;
    logic         trace_rec;
    trace_ent_t   trace_wdata;
    logic [5:0]   trace_phys;
    logic         trace_sel_valid;
    trace_ent_t   trace_rd;
    trace_status_t rd_trace_status;
    trace_counts_t rd_trace_counts;
    trace_entry_t  rd_trace_entry;

    // spec 6.1: byte lane i of the word is written only if wstrb[i] = 1
    function automatic logic [31:0] lane_merge(
        input logic [31:0] cur,
        input logic [31:0] wdata,
        input logic [3:0]  strb
    );
        for (int i = 0; i < 4; i++) begin
            lane_merge[8*i +: 8] = strb[i] ? wdata[8*i +: 8] : cur[8*i +: 8];
        end
    endfunction

    // the word at index idx of a table of READ_WORDS words: a tree of 2:1 multiplexers, one
    // level per index bit (level l halves the table on idx[l])
    function automatic logic [31:0] read_tree(
        input logic [READ_WORDS*32-1:0] tab,
        input logic [6:0]               idx
    );
        logic [READ_WORDS*32-1:0] t;
        t = tab;
        for (int l = 0; l < 7; l++) begin
            for (int k = 0; k < (READ_WORDS >> (l + 1)); k++) begin
                t[32*k +: 32] = idx[l] ? t[32*(2*k+1) +: 32] : t[32*(2*k) +: 32];
            end
        end
        read_tree = t[31:0];
    endfunction

    // BEGIN GENERATED built: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    // spec 2: 1 when the word at word index `word` is built: a feature's words only when the
    // feature is (FEAT_<feature>, from the generics); an absent word answers as an unmapped one
    function automatic logic word_built(input logic [9:0] word);
        case (word)
            ADDR_RMAX[11:2], ADDR_RATE_FIRST_CNP[11:2], ADDR_RATE_RULES[11:2]:
                word_built = FEAT_RATE_RULES;
            ADDR_CONTROL[11:2], ADDR_FW_RATE[11:2]:
                word_built = FEAT_CONTROL;
            ADDR_TRACE_CTRL[11:2], ADDR_TRACE_STATUS[11:2], ADDR_TRACE_COUNTS[11:2], ADDR_TRACE_TIME[11:2],
            ADDR_TRACE_SEL[11:2], ADDR_TRACE_ENTRY[11:2], ADDR_TRACE_RC[11:2], ADDR_TRACE_STAMP[11:2]:
                word_built = FEAT_TRACE;
            default: word_built = 1'b1;
        endcase
    endfunction
    // END GENERATED built

    // spec 6.2 reset values (a signal, not a localparam: Icarus 11 has no struct-typed parameters
    // and Yosys 0.23 no struct members in constant functions)
    always_comb begin
        r_init = '0;
        // the configuration registers (the counters, the trace and the AXI4-Lite responses stay 0)
        // BEGIN GENERATED reset: `make gen` from the snapshot! list and regmap/dcqcn_regs.rdl; do not edit
        r_init.config_word.alpha_g         = 10'd1020;
        r_init.config_word.dec_gain        = 4'd1;
        r_init.config_word.stage_threshold = 8'd5;
        r_init.rai                         = 32'd6_000_000;
        r_init.rhai                        = 32'd12_000_000;
        r_init.rmin                        = 32'd10_000_000;
        r_init.inc_interval                = RATE_INC_RESET;
        r_init.intervals.dec_interval      = RATE_DEC_RESET;
        r_init.intervals.alpha_interval    = ALPHA_RESET;
        r_init.ext_ctrl.timer_en           = 1'b1;
        r_init.byte_threshold              = 32'd10_000_000;
        r_init.credit_cap                  = 32'd1_048_576;
        r_init.rate_rules.alpha_init       = 10'd1023;
        // 0: clamp_tgt, bypass, byte_en, rmax, rate_first_cnp, min_dec_fac, hai_mult, scheme,
        // gate_mask, fw_rate, trace_en, trace_wrap, trace_sel
        // END GENERATED reset
    end

    // spec 4.10: the event, its entry and the selected entry, from the registers and the ports only
    // (no write decode: the register update below uses these). type: 0b000 a decrease; an
    // increase: bit 2 timer_fire, bits [1:0] its phase; both: timer and byte counter fired.
    always_comb begin
        trace_ev   = FEAT_TRACE & r.trace_ctrl.trace_en & (dec_fire | inc_event);
        trace_full = r.trace.count[6];
        trace_wdata       = '0;
        trace_wdata.rc    = rc_next;
        trace_wdata.stamp = r.trace.time_;
        if (~dec_fire) begin
            trace_wdata.kind  = {timer_fire, phase_ai | phase_hai, phase_fr | phase_ai};
            trace_wdata.both  = timer_fire & byte_fire;
        end
        // read-out of the k-th oldest entry (k = trace_sel)
        trace_phys      = trace_full ? r.trace.wptr + r.trace_sel.trace_sel : r.trace_sel.trace_sel;
        trace_sel_valid = {1'b0, r.trace_sel.trace_sel} < r.trace.count;
        trace_rd        = trace_sel_valid ? trace_mem[trace_phys] : '0;
    end

    always_comb begin
        r_d = r;

        // spec 6.1: one transaction per channel; handshakes are 0 in a reset cycle (spec 4.0)
        wr_en   = ~rst & s_axil_awvalid & s_axil_wvalid & ~r.bvalid;
        rd_en   = ~rst & s_axil_arvalid & ~r.rvalid;
        wr_word = s_axil_awaddr[11:2];
        rd_word = s_axil_araddr[11:2];
        wr_ok   = wr_en & word_built(wr_word);

        s_axil_awready = wr_en;
        s_axil_wready  = wr_en;
        s_axil_arready = rd_en;

        // spec 6.2: action bits act only when their byte lane is strobed (decoded in the write)
        // BEGIN GENERATED write-init: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
        wr_alpha_cnp = '0;
        wr_ext_ctrl = '0;
        wr_trace_ctrl = '0;
        cnp_cnt_clear = 1'b0;
        cnt_clear = 1'b0;
        trace_clear = 1'b0;
        // END GENERATED write-init

        /* Configuration writes: strobes apply to the current word value (spec 6.1) */
        // spec 6.2: OKAY for writable words (RO bits ignore the write), DECERR otherwise, no effect
        // spec 2: a word of an absent feature answers as an unmapped one
        wresp = wr_ok ? RESP_OKAY : RESP_DECERR;
        if (wr_ok) begin
            case (wr_word)
                // every writable word
                // BEGIN GENERATED write: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
                ADDR_CONFIG[11:2]:         r_d.config_word = lane_merge(r.config_word, s_axil_wdata, s_axil_wstrb);
                ADDR_RAI[11:2]:            r_d.rai = lane_merge(r.rai, s_axil_wdata, s_axil_wstrb);
                ADDR_RHAI[11:2]:           r_d.rhai = lane_merge(r.rhai, s_axil_wdata, s_axil_wstrb);
                ADDR_RMIN[11:2]:           r_d.rmin = lane_merge(r.rmin, s_axil_wdata, s_axil_wstrb);
                ADDR_INC_INTERVAL[11:2]:   r_d.inc_interval = lane_merge(r.inc_interval, s_axil_wdata, s_axil_wstrb);
                ADDR_INTERVALS[11:2]:      r_d.intervals = lane_merge(r.intervals, s_axil_wdata, s_axil_wstrb);
                ADDR_ALPHA_CNP[11:2]: begin
                    wr_alpha_cnp = lane_merge(32'd0, s_axil_wdata, s_axil_wstrb);
                    cnp_cnt_clear = wr_alpha_cnp.cnp_cnt_clear;
                end
                ADDR_BYPASS[11:2]:         r_d.bypass = lane_merge(r.bypass, s_axil_wdata, s_axil_wstrb);
                ADDR_EXT_CTRL[11:2]: begin
                    r_d.ext_ctrl = lane_merge(r.ext_ctrl, s_axil_wdata, s_axil_wstrb);
                    wr_ext_ctrl = lane_merge(32'd0, s_axil_wdata, s_axil_wstrb);
                    cnt_clear = wr_ext_ctrl.cnt_clear;
                end
                ADDR_BYTE_THRESHOLD[11:2]: r_d.byte_threshold = lane_merge(r.byte_threshold, s_axil_wdata, s_axil_wstrb);
                ADDR_CREDIT_CAP[11:2]:     r_d.credit_cap = lane_merge(r.credit_cap, s_axil_wdata, s_axil_wstrb);
                ADDR_RMAX[11:2]:           r_d.rmax = lane_merge(r.rmax, s_axil_wdata, s_axil_wstrb);
                ADDR_RATE_FIRST_CNP[11:2]: r_d.rate_first_cnp = lane_merge(r.rate_first_cnp, s_axil_wdata, s_axil_wstrb);
                ADDR_RATE_RULES[11:2]:     r_d.rate_rules = lane_merge(r.rate_rules, s_axil_wdata, s_axil_wstrb);
                ADDR_CONTROL[11:2]:        r_d.control = lane_merge(r.control, s_axil_wdata, s_axil_wstrb);
                ADDR_FW_RATE[11:2]:        r_d.fw_rate = lane_merge(r.fw_rate, s_axil_wdata, s_axil_wstrb);
                ADDR_TRACE_CTRL[11:2]: begin
                    r_d.trace_ctrl = lane_merge(r.trace_ctrl, s_axil_wdata, s_axil_wstrb);
                    wr_trace_ctrl = lane_merge(32'd0, s_axil_wdata, s_axil_wstrb);
                    trace_clear = wr_trace_ctrl.trace_clear;
                end
                ADDR_TRACE_SEL[11:2]:      r_d.trace_sel = lane_merge(r.trace_sel, s_axil_wdata, s_axil_wstrb);
                // END GENERATED write
                default:                   wresp = RESP_DECERR;
            endcase
        end
        // spec 6.2: reserved bits read 0 and ignore writes; write-only bits read 0
        // BEGIN GENERATED clear: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
        r_d.config_word.rsvd_31_23 = '0;
        r_d.bypass.rsvd_31_1 = '0;
        r_d.ext_ctrl.rsvd_31_9 = '0;
        r_d.ext_ctrl.cnt_clear = 1'b0;
        r_d.ext_ctrl.rsvd_7_2 = '0;
        r_d.rate_rules.rsvd_31_29 = '0;
        r_d.rate_rules.rsvd_27_27 = 1'b0;
        r_d.rate_rules.rsvd_15_10 = '0;
        r_d.control.rsvd_31_9 = '0;
        r_d.control.rsvd_7_2 = '0;
        r_d.trace_ctrl.rsvd_31_9 = '0;
        r_d.trace_ctrl.trace_clear = 1'b0;
        r_d.trace_ctrl.rsvd_7_2 = '0;
        r_d.trace_sel.rsvd_31_6 = '0;
        // END GENERATED clear
        // spec 2: an absent feature's configuration stays at its reset value
        // BEGIN GENERATED tie-off: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
        if (!FEAT_RATE_RULES) begin
            r_d.rmax = r_init.rmax;
            r_d.rate_first_cnp = r_init.rate_first_cnp;
            r_d.rate_rules = r_init.rate_rules;
        end
        if (!FEAT_CONTROL) begin
            r_d.control = r_init.control;
            r_d.fw_rate = r_init.fw_rate;
        end
        if (!FEAT_TRACE) begin
            r_d.trace_ctrl = r_init.trace_ctrl;
            r_d.trace_sel = r_init.trace_sel;
        end
        // END GENERATED tie-off

        // spec 6.1: write response
        r_d.bvalid = wr_en | (r.bvalid & ~s_axil_bready);
        r_d.bresp  = wr_en ? wresp : r.bresp;

        // spec 6.2: the read-only words and the read mux; unmapped reads return 0 with DECERR.
        // Every word lies in 0x000-0x1FF (word indices 0-127, addr[11:9] != 0 is unmapped): the
        // case below is evaluated for each index k as a constant, which gives a table of the 128
        // words (0 where unmapped or absent) and the constant map of the mapped ones; a read
        // selects its word by a tree of 2:1 multiplexers on rd_word[6:0] (read_tree), as the VHDL
        // twin's table. A case on rd_word itself is one multiplexer of all the words with a 10-bit
        // compare each, about 250 LUTs more in the full configuration (docs/measurements.md).
        rd_alpha_cnp   = '0;
        rd_id          = '0;
        rd_credit_frac = '0;
        rd_status      = '0;
        rd_trace_status = '0;
        rd_trace_counts = '0;
        rd_trace_entry  = '0;
        rd_alpha_cnp.alpha     = alpha;
        rd_alpha_cnp.cnp_cnt16 = r.cnp_cnt16;
        rd_id.magic            = 16'hDCC1;
        rd_id.version          = 8'h01;
        rd_id.data_bytes       = DATA_BYTES_32[7:0];
        rd_credit_frac.credit_frac = credit[15:0];
        rd_status.t_stage       = t_stage;
        rd_status.b_stage       = b_stage;
        rd_status.active        = active;
        rd_status.dec_pending   = dec_pending;
        rd_status.alpha_pending = alpha_pending;
        rd_trace_status.trace_count = r.trace.count;
        rd_trace_status.trace_wptr  = r.trace.wptr;
        rd_trace_status.trace_lost  = r.trace.lost;
        rd_trace_counts.trace_n_dec   = r.trace.n_dec;
        rd_trace_counts.trace_n_byte  = r.trace.n_byte;
        rd_trace_counts.trace_n_timer = r.trace.n_timer;
        rd_trace_entry.entry_valid  = trace_sel_valid;
        rd_trace_entry.entry_both   = trace_rd.both;
        rd_trace_entry.entry_type   = trace_rd.kind;
        for (int k = 0; k < READ_WORDS; k++) begin
            rmapped = 1'b1;
            rword   = 32'd0;
            case (10'(k))
                // the held words
                // BEGIN GENERATED read: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
                ADDR_CONFIG[11:2]:         rword = r.config_word;
                ADDR_RAI[11:2]:            rword = r.rai;
                ADDR_RHAI[11:2]:           rword = r.rhai;
                ADDR_RMIN[11:2]:           rword = r.rmin;
                ADDR_INC_INTERVAL[11:2]:   rword = r.inc_interval;
                ADDR_INTERVALS[11:2]:      rword = r.intervals;
                ADDR_BYPASS[11:2]:         rword = r.bypass;
                ADDR_EXT_CTRL[11:2]:       rword = r.ext_ctrl;
                ADDR_BYTE_THRESHOLD[11:2]: rword = r.byte_threshold;
                ADDR_CREDIT_CAP[11:2]:     rword = r.credit_cap;
                ADDR_RMAX[11:2]:           rword = r.rmax;
                ADDR_RATE_FIRST_CNP[11:2]: rword = r.rate_first_cnp;
                ADDR_RATE_RULES[11:2]:     rword = r.rate_rules;
                ADDR_CONTROL[11:2]:        rword = r.control;
                ADDR_FW_RATE[11:2]:        rword = r.fw_rate;
                ADDR_TRACE_CTRL[11:2]:     rword = r.trace_ctrl;
                ADDR_TRACE_SEL[11:2]:      rword = r.trace_sel;
                // END GENERATED read
                // the read-only words
                ADDR_RC[11:2]:             rword = rc;
                ADDR_RT[11:2]:             rword = rt;
                ADDR_ALPHA_CNP[11:2]:      rword = rd_alpha_cnp;
                ADDR_ID[11:2]:             rword = rd_id;
                ADDR_CREDIT_BYTES[11:2]:   rword = credit[47:16];
                ADDR_CREDIT_FRAC[11:2]:    rword = rd_credit_frac;
                ADDR_BPC[11:2]:            rword = bpc;
                ADDR_CNT_CNP[11:2]:        rword = r.stats.cnt_cnp;
                ADDR_CNT_DEC[11:2]:        rword = r.stats.cnt_dec;
                ADDR_CNT_INC_FR[11:2]:     rword = r.stats.cnt_inc_fr;
                ADDR_CNT_INC_AI[11:2]:     rword = r.stats.cnt_inc_ai;
                ADDR_CNT_INC_HAI[11:2]:    rword = r.stats.cnt_inc_hai;
                ADDR_CNT_INC_TIMER[11:2]:  rword = r.stats.cnt_inc_timer;
                ADDR_CNT_INC_BYTE[11:2]:   rword = r.stats.cnt_inc_byte;
                ADDR_CNT_STALL[11:2]:      rword = r.stats.cnt_stall;
                ADDR_CNT_BYTES_LO[11:2]:   rword = r.stats.cnt_bytes[31:0];
                ADDR_CNT_BYTES_HI[11:2]:   rword = r.stats.bytes_hi;
                ADDR_STATUS[11:2]:         rword = rd_status;
                ADDR_TRACE_STATUS[11:2]:   rword = rd_trace_status;
                ADDR_TRACE_COUNTS[11:2]:   rword = rd_trace_counts;
                ADDR_TRACE_TIME[11:2]:     rword = r.trace.time_;
                ADDR_TRACE_ENTRY[11:2]:    rword = rd_trace_entry;
                ADDR_TRACE_RC[11:2]:       rword = trace_rd.rc;
                ADDR_TRACE_STAMP[11:2]:    rword = trace_rd.stamp;
                default: begin
                    rword   = 32'd0;
                    rmapped = 1'b0;
                end
            endcase
            // spec 2: a word of an absent feature reads as an unmapped one
            if (!word_built(10'(k))) begin
                rword   = 32'd0;
                rmapped = 1'b0;
            end
            rtab[32*k +: 32] = rword;
            rmap[k]          = rmapped;
        end
        rword   = read_tree(rtab, rd_word[6:0]);
        rmapped = rmap[rd_word[6:0]];
        if (rd_word[9:7] != 3'd0) begin
            rword   = 32'd0;
            rmapped = 1'b0;
        end

        // spec 6.1: read response; a same-cycle write is seen from the next read on
        r_d.rvalid = rd_en | (r.rvalid & ~s_axil_rready);
        if (rd_en) begin
            r_d.rdata = rword;
            r_d.rresp = rmapped ? RESP_OKAY : RESP_DECERR;
        end

        /* Counters: wrap; a clear in cycle t wins, the counter is 0 at t+1 (spec 6.2) */
        r_d.cnp_cnt16 = cnp_cnt_clear ? 16'd0 : (cnp_edge ? r.cnp_cnt16 + 16'd1 : r.cnp_cnt16);

        if (cnp_edge) r_d.stats.cnt_cnp = r.stats.cnt_cnp + 32'd1;
        if (dec_fire) r_d.stats.cnt_dec = r.stats.cnt_dec + 32'd1;
        if (inc_event & phase_fr) r_d.stats.cnt_inc_fr = r.stats.cnt_inc_fr + 32'd1;
        if (inc_event & phase_ai) r_d.stats.cnt_inc_ai = r.stats.cnt_inc_ai + 32'd1;
        if (inc_event & phase_hai) r_d.stats.cnt_inc_hai = r.stats.cnt_inc_hai + 32'd1;
        if (inc_event & timer_fire) r_d.stats.cnt_inc_timer = r.stats.cnt_inc_timer + 32'd1;
        if (inc_event & byte_fire) r_d.stats.cnt_inc_byte = r.stats.cnt_inc_byte + 32'd1;
        if (stall) r_d.stats.cnt_stall = r.stats.cnt_stall + 32'd1;
        r_d.stats.cnt_bytes     = r.stats.cnt_bytes + {57'd0, bytes_in};
        // spec 6.2: a read of 0x140 latches the upper half for a later read of 0x144
        if (rd_en && rd_word == ADDR_CNT_BYTES_LO[11:2]) begin
            r_d.stats.bytes_hi = r.stats.cnt_bytes[63:32];
        end

        if (cnt_clear) begin
            r_d.stats = '0;
        end

        /* Event trace (spec 4.10): on the configuration of the cycle (r); a clear wins */
        trace_rec = ~rst & trace_ev & ~trace_clear & (~trace_full | r.trace_ctrl.trace_wrap);
        if (trace_clear | ~FEAT_TRACE) begin
            r_d.trace = '0;
        end else if (r.trace_ctrl.trace_en) begin
            if (trace_rec) begin
                r_d.trace.wptr  = r.trace.wptr + 6'd1;
                r_d.trace.count = trace_full ? 7'd64 : r.trace.count + 7'd1;
            end
            r_d.trace.lost = r.trace.lost | (trace_ev & trace_full);
            if (trace_ev & dec_fire & (r.trace.n_dec != 10'h3FF)) begin
                r_d.trace.n_dec = r.trace.n_dec + 10'd1;
            end
            if (trace_ev & inc_event & byte_fire & (r.trace.n_byte != 10'h3FF)) begin
                r_d.trace.n_byte = r.trace.n_byte + 10'd1;
            end
            if (trace_ev & inc_event & timer_fire & (r.trace.n_timer != 10'h3FF)) begin
                r_d.trace.n_timer = r.trace.n_timer + 10'd1;
            end
            if (r.trace.time_ != 32'hFFFF_FFFF) begin
                r_d.trace.time_ = r.trace.time_ + 32'd1;
            end
        end
    end

    // spec 4.10: trace_mem, written at trace_wptr; no reset (storage, distributed RAM)
    always_ff @(posedge clk) begin
        if (trace_rec) begin
            trace_mem[r.trace.wptr] <= trace_wdata;
        end
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            r <= r_init;
        end else begin
            r <= r_d;
        end
    end

    /* Ports */
    assign s_axil_bvalid       = r.bvalid;
    assign s_axil_bresp        = r.bresp;
    assign s_axil_rvalid       = r.rvalid;
    assign s_axil_rdata        = r.rdata;
    assign s_axil_rresp        = r.rresp;

    assign cfg_alpha_g         = r.config_word.alpha_g;
    assign cfg_dec_gain        = r.config_word.dec_gain;
    assign cfg_stage_threshold = r.config_word.stage_threshold;
    assign cfg_clamp_tgt       = r.config_word.clamp_tgt;
    assign cfg_rai             = r.rai;
    assign cfg_rhai            = r.rhai;
    assign cfg_rmin            = r.rmin;
    assign cfg_inc_interval    = r.inc_interval;
    assign cfg_dec_interval    = r.intervals.dec_interval;
    assign cfg_alpha_interval  = r.intervals.alpha_interval;
    assign cfg_bypass          = r.bypass.bypass;
    assign cfg_timer_en        = r.ext_ctrl.timer_en;
    assign cfg_byte_en         = r.ext_ctrl.byte_en;
    assign cfg_byte_threshold  = r.byte_threshold;
    assign cfg_credit_cap      = r.credit_cap;
    // spec 2: an absent feature's configuration is its reset value (a constant for the synthesis)
    assign cfg_rmax            = FEAT_RATE_RULES ? r.rmax : r_init.rmax;
    assign cfg_rate_first_cnp  = FEAT_RATE_RULES ? r.rate_first_cnp : r_init.rate_first_cnp;
    assign cfg_alpha_init      = FEAT_RATE_RULES ? r.rate_rules.alpha_init : r_init.rate_rules.alpha_init;
    assign cfg_min_dec_fac     = FEAT_RATE_RULES ? r.rate_rules.min_dec_fac : r_init.rate_rules.min_dec_fac;
    assign cfg_hai_mult        = FEAT_RATE_RULES ? r.rate_rules.hai_mult : r_init.rate_rules.hai_mult;
    assign cfg_scheme          = FEAT_CONTROL ? r.control.scheme : r_init.control.scheme;
    assign cfg_gate_mask       = FEAT_CONTROL ? r.control.gate_mask : r_init.control.gate_mask;
    assign cfg_fw_rate         = FEAT_CONTROL ? r.fw_rate : r_init.fw_rate;

endmodule

`resetall
