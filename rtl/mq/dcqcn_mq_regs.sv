// SPDX-License-Identifier: MIT
// dcqcn_mq_regs: the AXI4-Lite register file (spec-mq 6.1, 6.2): the configuration registers, the
// counters, the pending per-QP window accesses (6.1; completed by the visit, dcqcn_mq_visit) and the
// DFX event window of one QP (5.9, the mechanism of docs/spec.md 4.10).

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_mq_regs #(
    parameter int          QPS         = 1024,             // queue pairs (1..4096)
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,  // Hz
    parameter logic [23:0] LINE_WIN    = 24'd8192          // bytes per 1024-cycle window
) (
    input  wire logic        clk,
    input  wire logic        rst,

    /* AXI4-Lite slave: write */
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire logic [20:0] s_axil_awaddr,  // addr[1:0] ignored (spec-mq 6.1)
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

    /* AXI4-Lite slave: read */
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire logic [20:0] s_axil_araddr,  // addr[1:0] ignored (spec-mq 6.1)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire logic        s_axil_arvalid,
    output logic             s_axil_arready,
    output logic      [31:0] s_axil_rdata,
    output logic      [1:0]  s_axil_rresp,
    output logic             s_axil_rvalid,
    input  wire logic        s_axil_rready,

    /* Engine state read by the register file */
    input  wire logic        init,
    input  wire logic [31:0] now,
    input  wire logic [11:0] scan_q,
    input  wire logic        norm_visit,
    input  wire logic [31:0] pcredit,

    /* Window completion at the visit (spec-mq 6.1) */
    input  wire logic        win_wr_done,
    input  wire logic        win_rd_done,
    input  wire logic [31:0] win_rdata,

    /* Events of this cycle (spec-mq 4.4-4.6, 5.3, 5.4) */
    input  wire logic        ev_cnp,
    input  wire logic        ev_dec,
    input  wire logic        ev_inc,
    input  wire logic        ev_tf,
    input  wire logic        ev_bf,
    input  wire logic [1:0]  ev_phase,
    input  wire logic [23:0] ev_rc,
    input  wire logic        ev_grant,
    input  wire logic [15:0] ev_grant_bytes,
    input  wire logic        ev_req,
    input  wire logic        ev_req_drop,
    input  wire logic        ev_rpt,
    input  wire logic        ev_rpt_spurious,
    input  wire logic [1:0]  ev_bad_qp,
    input  wire logic [1:0]  ev_init_drop,

    /* Configuration registers (spec-mq 6.2) */
    output logic             cfg_dcqcn_hw_en,
    output logic             cfg_hw_rate_throttle_en,
    output logic             cfg_tx_wqe_ost_limit_en,
    output logic             cfg_speed_limiter_en,
    output logic      [15:0] cfg_cnp_merge_period,
    output logic      [23:0] cfg_nocnp_timer_th,
    output logic      [31:0] cfg_byte_cnt_th,
    output logic      [23:0] cfg_max_rate,
    output logic      [15:0] cfg_alpha_timer_th,
    output logic      [9:0]  cfg_upd_alpha_g,
    output logic      [3:0]  cfg_alpha_rate_shift,
    output logic      [9:0]  cfg_alpha_init,
    output logic      [23:0] cfg_rate_ai,
    output logic      [23:0] cfg_rate_hai,
    output logic      [23:0] cfg_rate_min,
    output logic      [7:0]  cfg_stage_threshold,
    output logic             cfg_clamp_tgt,
    output logic      [23:0] cfg_cnp_timer_thrd,
    output logic      [7:0]  cfg_ost_limit,
    output logic      [7:0]  cfg_ost_limit_cnp,
    output logic      [20:0] cfg_credit_cap,
    output logic             cfg_dfx_en,
    output logic             cfg_dfx_wrap,
    output logic      [5:0]  cfg_dfx_sel,
    output logic      [11:0] cfg_dfx_qp,

    /* Counters (spec-mq 6.2) */
    output logic      [31:0] cnt_cnp,
    output logic      [31:0] cnt_dec,
    output logic      [31:0] cnt_inc_fr,
    output logic      [31:0] cnt_inc_ai,
    output logic      [31:0] cnt_inc_hai,
    output logic      [31:0] cnt_inc_timer,
    output logic      [31:0] cnt_inc_byte,
    output logic      [31:0] cnt_grant,
    output logic      [63:0] cnt_grant_bytes,
    output logic      [31:0] cnt_grant_bytes_latch,
    output logic      [31:0] cnt_req,
    output logic      [31:0] cnt_req_drop,
    output logic      [31:0] cnt_rpt,
    output logic      [31:0] cnt_rpt_spurious,
    output logic      [31:0] cnt_bad_qp,
    output logic      [31:0] cnt_init_drop,

    /* DFX window (spec-mq 5.9) */
    output logic      [6:0]  dfx_count,
    output logic      [5:0]  dfx_wptr,
    output logic             dfx_lost,
    output logic      [9:0]  dfx_n_dec,
    output logic      [9:0]  dfx_n_byte,
    output logic      [9:0]  dfx_n_timer,
    output logic      [31:0] dfx_time,
    output logic             dfx_rec,        // dfx_mem[dfx_wptr] written this cycle
    output logic      [59:0] dfx_rec_entry,  // ... with this entry

    /* Pending window accesses (spec-mq 4.2, 6.1) */
    output logic             wpend,
    output logic      [11:0] wq,
    output logic      [5:0]  wword,
    output logic      [31:0] wdata,
    output logic      [3:0]  wstrb,
    output logic             wclr,           // the pending write is a qp_clear (spec-mq 4.5)
    output logic             aclr,           // a qp_clear accepted this cycle (spec-mq 4.5)
    output logic      [11:0] aclr_q,         // its QP
    output logic             rpend,
    output logic      [11:0] rq,
    output logic      [5:0]  rword,

    /* AXI4-Lite responses (spec-mq 4.2) */
    output logic             bvalid,
    output logic      [1:0]  bresp,
    output logic             rvalid,
    output logic      [31:0] rdata,
    output logic      [1:0]  rresp
);

    /* Reset values that depend on the clock (spec-mq 2), 64-bit intermediates, round half up */
    localparam logic [63:0] F_64              = {32'd0, CLK_FREQ_HZ};
    localparam logic [63:0] MERGE_RESET_64    = (F_64 * 64'd4 + 64'd500_000) / 64'd1_000_000;
    localparam logic [63:0] ALPHA_RESET_64    = (F_64 * 64'd55 + 64'd500_000) / 64'd1_000_000;
    localparam logic [63:0] NOCNP_RESET_64    = (F_64 * 64'd3 + 64'd1000) / 64'd2000;
    localparam logic [63:0] CNP_TIMER_RESET_64 = (F_64 + 64'd5000) / 64'd10_000;
    localparam logic [63:0] AI_RESET_64       = (64'd6_144_000_000 + F_64 / 64'd2) / F_64;
    localparam logic [63:0] HAI_RESET_64      = (64'd12_288_000_000 + F_64 / 64'd2) / F_64;
    localparam logic [63:0] RMIN_RESET_64     = (64'd10_240_000_000 + F_64 / 64'd2) / F_64;
    localparam logic [15:0] MERGE_RESET       = MERGE_RESET_64[15:0];
    localparam logic [15:0] ALPHA_RESET       = ALPHA_RESET_64[15:0];
    localparam logic [23:0] NOCNP_RESET       = NOCNP_RESET_64[23:0];
    localparam logic [23:0] CNP_TIMER_RESET   = CNP_TIMER_RESET_64[23:0];
    localparam logic [23:0] AI_RESET          = AI_RESET_64[23:0];
    localparam logic [23:0] HAI_RESET         = HAI_RESET_64[23:0];
    localparam logic [23:0] RMIN_RESET        = RMIN_RESET_64[23:0];
    localparam logic [12:0] QPS_13            = 13'(QPS);

    /* AXI4-Lite decode (spec-mq 6.1) */
    logic        wr_en;
    logic        rd_en;
    logic        wr_global;      // addr[20] = 0 and addr[19:12] = 0: a global word
    logic        rd_global;
    logic        wr_win;         // addr[20] = 1: a window word
    logic        rd_win;
    logic [11:0] wr_word;        // global word: addr[11:2] as a byte address (addr[1:0] = 0)
    logic [11:0] rd_word;
    logic        wr_win_ok;      // a window write that becomes pending
    logic        rd_win_ok;      // a window read that becomes pending
    logic        wr_ok;          // a global write to a writable word
    logic        wdone;          // the pending write completes (at its visit, or injected QP >= QPS)
    logic        rdone;
    logic [31:0] wr_cur;         // the written global word's value before the write
    logic [31:0] wr_new;         // ... after the strobed lanes
    logic        cnt_clear;      // spec-mq 6.2: cnt_ctrl.cnt_clear written this cycle
    logic        dfx_clear;      // spec-mq 5.9: dfx_ctrl.dfx_clear written this cycle
    logic [31:0] rd_val;         // the global word read, from S(t)
    logic        rd_mapped;

    /* DFX window storage (spec-mq 5.9): one write port, one asynchronous read port, no reset */
    (* ram_style = "distributed" *) logic [59:0] dfx_mem [64];
    logic        dfx_ev;
    logic        dfx_full;
    logic [5:0]  dfx_phys;
    logic        dfx_sel_valid;
    logic [59:0] dfx_rd;

    // spec-mq 6.1: byte strobes apply lane by lane to the current value
    function automatic logic [31:0] lane_merge(
        input logic [31:0] cur,
        input logic [31:0] data,
        input logic [3:0]  strb
    );
        for (int i = 0; i < 4; i++) begin
            lane_merge[8*i +: 8] = strb[i] ? data[8*i +: 8] : cur[8*i +: 8];
        end
    endfunction

    // spec-mq 6.3: a mapped window word (readable): 0x00-0x44 but 0x14 and 0x2C
    function automatic logic win_mapped(input logic [5:0] w);
        win_mapped = w <= dcqcn_mq_pkg::W_QP_CTRL && w != 6'h05 && w != 6'h0B;
    endfunction

    // spec-mq 6.3: a window word with a writable field: 0x00-0x28 (mapped) and qp_ctrl
    function automatic logic win_writable(input logic [5:0] w);
        win_writable = win_mapped(w)
                     && (w <= dcqcn_mq_pkg::W_QP_CC_RATE || w == dcqcn_mq_pkg::W_QP_CTRL);
    endfunction

    // spec-mq 6.2: the writable global words
    function automatic logic word_writable(input logic [11:0] w);
        case (w)
            dcqcn_mq_pkg::ADDR_ENABLES,
            dcqcn_mq_pkg::ADDR_CNP_MERGE_PERIOD,
            dcqcn_mq_pkg::ADDR_NOCNP_TIMER_TH,
            dcqcn_mq_pkg::ADDR_BYTE_CNT_TH,
            dcqcn_mq_pkg::ADDR_MAX_RATE,
            dcqcn_mq_pkg::ADDR_ALPHA_TIMER_TH,
            dcqcn_mq_pkg::ADDR_ALPHA_CFG,
            dcqcn_mq_pkg::ADDR_RATE_AI,
            dcqcn_mq_pkg::ADDR_RATE_HAI,
            dcqcn_mq_pkg::ADDR_RATE_MIN,
            dcqcn_mq_pkg::ADDR_INC_CFG,
            dcqcn_mq_pkg::ADDR_CNP_TIMER_THRD,
            dcqcn_mq_pkg::ADDR_OST_LIMITS,
            dcqcn_mq_pkg::ADDR_CREDIT_CAP,
            dcqcn_mq_pkg::ADDR_CNT_CTRL,
            dcqcn_mq_pkg::ADDR_DFX_CTRL,
            dcqcn_mq_pkg::ADDR_DFX_SEL,
            dcqcn_mq_pkg::ADDR_DFX_QP: word_writable = 1'b1;
            default: word_writable = 1'b0;
        endcase
    endfunction

    /* Handshake and decode (spec-mq 6.1) */
    always_comb begin
        wr_en     = ~rst & s_axil_awvalid & s_axil_wvalid & ~bvalid & ~wpend;
        rd_en     = ~rst & s_axil_arvalid & ~rvalid & ~rpend;
        s_axil_awready = wr_en;
        s_axil_wready  = wr_en;
        s_axil_arready = rd_en;

        wr_win    = s_axil_awaddr[20];
        rd_win    = s_axil_araddr[20];
        wr_global = ~s_axil_awaddr[20] & (s_axil_awaddr[19:12] == 8'd0);
        rd_global = ~s_axil_araddr[20] & (s_axil_araddr[19:12] == 8'd0);
        wr_word   = {s_axil_awaddr[11:2], 2'b00};
        rd_word   = {s_axil_araddr[11:2], 2'b00};
        wr_win_ok = wr_win & ({1'b0, s_axil_awaddr[19:8]} < QPS_13)
                  & win_writable(s_axil_awaddr[7:2]);
        rd_win_ok = rd_win & ({1'b0, s_axil_araddr[19:8]} < QPS_13)
                  & win_mapped(s_axil_araddr[7:2]);
        wr_ok     = wr_en & wr_global & word_writable(wr_word);
        wdone     = wpend & (win_wr_done | ({1'b0, wq} >= QPS_13));
        rdone     = rpend & (win_rd_done | ({1'b0, rq} >= QPS_13));
    end

    // spec-mq 4.5: the pending write is a qp_clear (qp_ctrl.qp_clear = 1 in a strobed lane)
    assign wclr = (wword == dcqcn_mq_pkg::W_QP_CTRL) & wstrb[0] & wdata[1];
    // spec-mq 4.5: a qp_clear accepted this cycle: pending in the next cycle
    assign aclr   = wr_en & wr_win_ok & (s_axil_awaddr[7:2] == dcqcn_mq_pkg::W_QP_CTRL)
                  & s_axil_wstrb[0] & s_axil_wdata[1];
    assign aclr_q = s_axil_awaddr[19:8];

    /* The global word written: its current value, lane-merged (spec-mq 6.1) */
    always_comb begin
        case (wr_word)
            dcqcn_mq_pkg::ADDR_ENABLES:          wr_cur = {28'd0, cfg_speed_limiter_en,
                                                   cfg_tx_wqe_ost_limit_en,
                                                   cfg_hw_rate_throttle_en, cfg_dcqcn_hw_en};
            dcqcn_mq_pkg::ADDR_CNP_MERGE_PERIOD: wr_cur = {16'd0, cfg_cnp_merge_period};
            dcqcn_mq_pkg::ADDR_NOCNP_TIMER_TH:   wr_cur = {8'd0, cfg_nocnp_timer_th};
            dcqcn_mq_pkg::ADDR_BYTE_CNT_TH:      wr_cur = cfg_byte_cnt_th;
            dcqcn_mq_pkg::ADDR_MAX_RATE:         wr_cur = {8'd0, cfg_max_rate};
            dcqcn_mq_pkg::ADDR_ALPHA_TIMER_TH:   wr_cur = {16'd0, cfg_alpha_timer_th};
            dcqcn_mq_pkg::ADDR_ALPHA_CFG:        wr_cur = {2'd0, cfg_alpha_init, cfg_alpha_rate_shift,
                                                   6'd0, cfg_upd_alpha_g};
            dcqcn_mq_pkg::ADDR_RATE_AI:          wr_cur = {8'd0, cfg_rate_ai};
            dcqcn_mq_pkg::ADDR_RATE_HAI:         wr_cur = {8'd0, cfg_rate_hai};
            dcqcn_mq_pkg::ADDR_RATE_MIN:         wr_cur = {8'd0, cfg_rate_min};
            dcqcn_mq_pkg::ADDR_INC_CFG:          wr_cur = {23'd0, cfg_clamp_tgt, cfg_stage_threshold};
            dcqcn_mq_pkg::ADDR_CNP_TIMER_THRD:   wr_cur = {8'd0, cfg_cnp_timer_thrd};
            dcqcn_mq_pkg::ADDR_OST_LIMITS:       wr_cur = {16'd0, cfg_ost_limit_cnp, cfg_ost_limit};
            dcqcn_mq_pkg::ADDR_CREDIT_CAP:       wr_cur = {11'd0, cfg_credit_cap};
            dcqcn_mq_pkg::ADDR_DFX_CTRL:         wr_cur = {30'd0, cfg_dfx_wrap, cfg_dfx_en};
            dcqcn_mq_pkg::ADDR_DFX_SEL:          wr_cur = {26'd0, cfg_dfx_sel};
            dcqcn_mq_pkg::ADDR_DFX_QP:           wr_cur = {20'd0, cfg_dfx_qp};
            default:                     wr_cur = 32'd0;  // cnt_ctrl: the action bit reads 0
        endcase
        wr_new    = lane_merge(wr_cur, s_axil_wdata, s_axil_wstrb);
        cnt_clear = wr_ok & (wr_word == dcqcn_mq_pkg::ADDR_CNT_CTRL) & wr_new[0];
        dfx_clear = wr_ok & (wr_word == dcqcn_mq_pkg::ADDR_DFX_CTRL) & wr_new[8];
    end

    /* DFX window (spec-mq 5.9; docs/spec.md 4.10) */
    always_comb begin
        dfx_ev   = cfg_dfx_en & (ev_dec | ev_inc) & norm_visit & (scan_q == cfg_dfx_qp);
        dfx_full = dfx_count[6];
        dfx_rec  = ~rst & dfx_ev & ~dfx_clear & (~dfx_full | cfg_dfx_wrap);
        // entry: type [2:0] (0b000 decrease; {timer, phase} an increase), both [3], rc [27:4],
        // stamp [59:28]
        dfx_rec_entry = {dfx_time, ev_rc, ev_tf & ev_bf, ev_dec ? 3'b000 : {ev_tf, ev_phase}};
        // read-out of the k-th oldest entry (k = dfx_sel)
        dfx_phys      = dfx_full ? dfx_wptr + cfg_dfx_sel : cfg_dfx_sel;
        dfx_sel_valid = {1'b0, cfg_dfx_sel} < dfx_count;
        dfx_rd        = dfx_sel_valid ? dfx_mem[dfx_phys] : 60'd0;
    end

    always_ff @(posedge clk) begin
        if (dfx_rec) begin
            dfx_mem[dfx_wptr] <= dfx_rec_entry;
        end
    end

    /* Global read (spec-mq 6.2): the registers of the read cycle */
    always_comb begin
        rd_mapped = 1'b1;
        case (rd_word)
            dcqcn_mq_pkg::ADDR_ID:                 rd_val = {dcqcn_mq_pkg::MQ_MAGIC, dcqcn_mq_pkg::MQ_VERSION, 8'd0};
            dcqcn_mq_pkg::ADDR_PARAMS:             rd_val = {19'd0, QPS_13};
            dcqcn_mq_pkg::ADDR_LINE_WIN:           rd_val = {8'd0, LINE_WIN};
            dcqcn_mq_pkg::ADDR_STATUS:             rd_val = {29'd0, rpend, wpend, init};
            dcqcn_mq_pkg::ADDR_PORT_CREDIT:        rd_val = pcredit;
            dcqcn_mq_pkg::ADDR_NOW:                rd_val = now;
            dcqcn_mq_pkg::ADDR_CNT_CTRL:           rd_val = 32'd0;
            dcqcn_mq_pkg::ADDR_CNT_CNP:            rd_val = cnt_cnp;
            dcqcn_mq_pkg::ADDR_CNT_DEC:            rd_val = cnt_dec;
            dcqcn_mq_pkg::ADDR_CNT_INC_FR:         rd_val = cnt_inc_fr;
            dcqcn_mq_pkg::ADDR_CNT_INC_AI:         rd_val = cnt_inc_ai;
            dcqcn_mq_pkg::ADDR_CNT_INC_HAI:        rd_val = cnt_inc_hai;
            dcqcn_mq_pkg::ADDR_CNT_INC_TIMER:      rd_val = cnt_inc_timer;
            dcqcn_mq_pkg::ADDR_CNT_INC_BYTE:       rd_val = cnt_inc_byte;
            dcqcn_mq_pkg::ADDR_CNT_GRANT:          rd_val = cnt_grant;
            dcqcn_mq_pkg::ADDR_CNT_GRANT_BYTES_LO: rd_val = cnt_grant_bytes[31:0];
            dcqcn_mq_pkg::ADDR_CNT_GRANT_BYTES_HI: rd_val = cnt_grant_bytes_latch;
            dcqcn_mq_pkg::ADDR_CNT_REQ:            rd_val = cnt_req;
            dcqcn_mq_pkg::ADDR_CNT_REQ_DROP:       rd_val = cnt_req_drop;
            dcqcn_mq_pkg::ADDR_CNT_RPT:            rd_val = cnt_rpt;
            dcqcn_mq_pkg::ADDR_CNT_RPT_SPURIOUS:   rd_val = cnt_rpt_spurious;
            dcqcn_mq_pkg::ADDR_CNT_BAD_QP:         rd_val = cnt_bad_qp;
            dcqcn_mq_pkg::ADDR_CNT_INIT_DROP:      rd_val = cnt_init_drop;
            dcqcn_mq_pkg::ADDR_DFX_STATUS:         rd_val = {15'd0, dfx_lost, 2'd0, dfx_wptr, 1'b0,
                                                     dfx_count};
            dcqcn_mq_pkg::ADDR_DFX_COUNTS:         rd_val = {2'd0, dfx_n_timer, dfx_n_byte, dfx_n_dec};
            dcqcn_mq_pkg::ADDR_DFX_TIME:           rd_val = dfx_time;
            dcqcn_mq_pkg::ADDR_DFX_ENTRY:          rd_val = {23'd0, dfx_sel_valid, 4'd0, dfx_rd[3:0]};
            dcqcn_mq_pkg::ADDR_DFX_RC:             rd_val = {8'd0, dfx_rd[27:4]};
            dcqcn_mq_pkg::ADDR_DFX_STAMP:          rd_val = dfx_rd[59:28];
            default: begin
                // the writable words read back their value; every other word is unmapped
                rd_val    = 32'd0;
                rd_mapped = 1'b0;
            end
        endcase
        if (word_writable(rd_word) && rd_word != dcqcn_mq_pkg::ADDR_CNT_CTRL) begin
            // wr_cur's decode, on the read address
            case (rd_word)
                dcqcn_mq_pkg::ADDR_ENABLES:          rd_val = {28'd0, cfg_speed_limiter_en,
                                                       cfg_tx_wqe_ost_limit_en,
                                                       cfg_hw_rate_throttle_en, cfg_dcqcn_hw_en};
                dcqcn_mq_pkg::ADDR_CNP_MERGE_PERIOD: rd_val = {16'd0, cfg_cnp_merge_period};
                dcqcn_mq_pkg::ADDR_NOCNP_TIMER_TH:   rd_val = {8'd0, cfg_nocnp_timer_th};
                dcqcn_mq_pkg::ADDR_BYTE_CNT_TH:      rd_val = cfg_byte_cnt_th;
                dcqcn_mq_pkg::ADDR_MAX_RATE:         rd_val = {8'd0, cfg_max_rate};
                dcqcn_mq_pkg::ADDR_ALPHA_TIMER_TH:   rd_val = {16'd0, cfg_alpha_timer_th};
                dcqcn_mq_pkg::ADDR_ALPHA_CFG:        rd_val = {2'd0, cfg_alpha_init, cfg_alpha_rate_shift,
                                                       6'd0, cfg_upd_alpha_g};
                dcqcn_mq_pkg::ADDR_RATE_AI:          rd_val = {8'd0, cfg_rate_ai};
                dcqcn_mq_pkg::ADDR_RATE_HAI:         rd_val = {8'd0, cfg_rate_hai};
                dcqcn_mq_pkg::ADDR_RATE_MIN:         rd_val = {8'd0, cfg_rate_min};
                dcqcn_mq_pkg::ADDR_INC_CFG:          rd_val = {23'd0, cfg_clamp_tgt, cfg_stage_threshold};
                dcqcn_mq_pkg::ADDR_CNP_TIMER_THRD:   rd_val = {8'd0, cfg_cnp_timer_thrd};
                dcqcn_mq_pkg::ADDR_OST_LIMITS:       rd_val = {16'd0, cfg_ost_limit_cnp, cfg_ost_limit};
                dcqcn_mq_pkg::ADDR_CREDIT_CAP:       rd_val = {11'd0, cfg_credit_cap};
                dcqcn_mq_pkg::ADDR_DFX_CTRL:         rd_val = {30'd0, cfg_dfx_wrap, cfg_dfx_en};
                dcqcn_mq_pkg::ADDR_DFX_SEL:          rd_val = {26'd0, cfg_dfx_sel};
                default:                     rd_val = {20'd0, cfg_dfx_qp};
            endcase
            rd_mapped = 1'b1;
        end
        if (!rd_global) begin
            rd_val    = 32'd0;
            rd_mapped = 1'b0;
        end
    end

    /* Registers */
    always_ff @(posedge clk) begin
        if (rst) begin
            // spec-mq 6.2 reset values
            cfg_dcqcn_hw_en         <= 1'b1;
            cfg_hw_rate_throttle_en <= 1'b1;
            cfg_tx_wqe_ost_limit_en <= 1'b1;
            cfg_speed_limiter_en    <= 1'b1;
            cfg_cnp_merge_period    <= MERGE_RESET;
            cfg_nocnp_timer_th      <= NOCNP_RESET;
            cfg_byte_cnt_th         <= 32'd0;
            cfg_max_rate            <= 24'd0;
            cfg_alpha_timer_th      <= ALPHA_RESET;
            cfg_upd_alpha_g         <= 10'd4;
            cfg_alpha_rate_shift    <= 4'd1;
            cfg_alpha_init          <= 10'd1023;
            cfg_rate_ai             <= AI_RESET;
            cfg_rate_hai            <= HAI_RESET;
            cfg_rate_min            <= RMIN_RESET;
            cfg_stage_threshold     <= 8'd5;
            cfg_clamp_tgt           <= 1'b0;
            cfg_cnp_timer_thrd      <= CNP_TIMER_RESET;
            cfg_ost_limit           <= 8'd16;
            cfg_ost_limit_cnp       <= 8'd8;
            cfg_credit_cap          <= 21'd65_536;
            cfg_dfx_en              <= 1'b0;
            cfg_dfx_wrap            <= 1'b0;
            cfg_dfx_sel             <= 6'd0;
            cfg_dfx_qp              <= 12'd0;
            cnt_cnp                 <= 32'd0;
            cnt_dec                 <= 32'd0;
            cnt_inc_fr              <= 32'd0;
            cnt_inc_ai              <= 32'd0;
            cnt_inc_hai             <= 32'd0;
            cnt_inc_timer           <= 32'd0;
            cnt_inc_byte            <= 32'd0;
            cnt_grant               <= 32'd0;
            cnt_grant_bytes         <= 64'd0;
            cnt_grant_bytes_latch   <= 32'd0;
            cnt_req                 <= 32'd0;
            cnt_req_drop            <= 32'd0;
            cnt_rpt                 <= 32'd0;
            cnt_rpt_spurious        <= 32'd0;
            cnt_bad_qp              <= 32'd0;
            cnt_init_drop           <= 32'd0;
            dfx_count               <= 7'd0;
            dfx_wptr                <= 6'd0;
            dfx_lost                <= 1'b0;
            dfx_n_dec               <= 10'd0;
            dfx_n_byte              <= 10'd0;
            dfx_n_timer             <= 10'd0;
            dfx_time                <= 32'd0;
            wpend                   <= 1'b0;
            wq                      <= 12'd0;
            wword                   <= 6'd0;
            wdata                   <= 32'd0;
            wstrb                   <= 4'd0;
            rpend                   <= 1'b0;
            rq                      <= 12'd0;
            rword                   <= 6'd0;
            bvalid                  <= 1'b0;
            bresp                   <= 2'b00;
            rvalid                  <= 1'b0;
            rdata                   <= 32'd0;
            rresp                   <= 2'b00;
        end else begin
            /* Configuration writes (spec-mq 6.1, 6.2): used from t + 1 */
            if (wr_ok) begin
                case (wr_word)
                    dcqcn_mq_pkg::ADDR_ENABLES: begin
                        cfg_dcqcn_hw_en         <= wr_new[0];
                        cfg_hw_rate_throttle_en <= wr_new[1];
                        cfg_tx_wqe_ost_limit_en <= wr_new[2];
                        cfg_speed_limiter_en    <= wr_new[3];
                    end
                    dcqcn_mq_pkg::ADDR_CNP_MERGE_PERIOD: cfg_cnp_merge_period <= wr_new[15:0];
                    dcqcn_mq_pkg::ADDR_NOCNP_TIMER_TH:   cfg_nocnp_timer_th <= wr_new[23:0];
                    dcqcn_mq_pkg::ADDR_BYTE_CNT_TH:      cfg_byte_cnt_th <= wr_new;
                    dcqcn_mq_pkg::ADDR_MAX_RATE:         cfg_max_rate <= wr_new[23:0];
                    dcqcn_mq_pkg::ADDR_ALPHA_TIMER_TH:   cfg_alpha_timer_th <= wr_new[15:0];
                    dcqcn_mq_pkg::ADDR_ALPHA_CFG: begin
                        cfg_upd_alpha_g      <= wr_new[9:0];
                        cfg_alpha_rate_shift <= wr_new[19:16];
                        cfg_alpha_init       <= wr_new[29:20];
                    end
                    dcqcn_mq_pkg::ADDR_RATE_AI:          cfg_rate_ai <= wr_new[23:0];
                    dcqcn_mq_pkg::ADDR_RATE_HAI:         cfg_rate_hai <= wr_new[23:0];
                    dcqcn_mq_pkg::ADDR_RATE_MIN:         cfg_rate_min <= wr_new[23:0];
                    dcqcn_mq_pkg::ADDR_INC_CFG: begin
                        cfg_stage_threshold <= wr_new[7:0];
                        cfg_clamp_tgt       <= wr_new[8];
                    end
                    dcqcn_mq_pkg::ADDR_CNP_TIMER_THRD:   cfg_cnp_timer_thrd <= wr_new[23:0];
                    dcqcn_mq_pkg::ADDR_OST_LIMITS: begin
                        cfg_ost_limit     <= wr_new[7:0];
                        cfg_ost_limit_cnp <= wr_new[15:8];
                    end
                    dcqcn_mq_pkg::ADDR_CREDIT_CAP:       cfg_credit_cap <= wr_new[20:0];
                    dcqcn_mq_pkg::ADDR_DFX_CTRL: begin
                        cfg_dfx_en   <= wr_new[0];
                        cfg_dfx_wrap <= wr_new[1];
                    end
                    dcqcn_mq_pkg::ADDR_DFX_SEL:          cfg_dfx_sel <= wr_new[5:0];
                    dcqcn_mq_pkg::ADDR_DFX_QP:           cfg_dfx_qp <= wr_new[11:0];
                    default: ;
                endcase
            end

            /* Counters (spec-mq 6.1, 6.2): wrap mod 2^32; a cnt_clear in t wins */
            if (cnt_clear) begin
                cnt_cnp               <= 32'd0;
                cnt_dec               <= 32'd0;
                cnt_inc_fr            <= 32'd0;
                cnt_inc_ai            <= 32'd0;
                cnt_inc_hai           <= 32'd0;
                cnt_inc_timer         <= 32'd0;
                cnt_inc_byte          <= 32'd0;
                cnt_grant             <= 32'd0;
                cnt_grant_bytes       <= 64'd0;
                cnt_grant_bytes_latch <= 32'd0;
                cnt_req               <= 32'd0;
                cnt_req_drop          <= 32'd0;
                cnt_rpt               <= 32'd0;
                cnt_rpt_spurious      <= 32'd0;
                cnt_bad_qp            <= 32'd0;
                cnt_init_drop         <= 32'd0;
            end else begin
                cnt_cnp          <= cnt_cnp + 32'(ev_cnp);
                cnt_dec          <= cnt_dec + 32'(ev_dec);
                cnt_inc_fr       <= cnt_inc_fr + {31'd0, ev_inc & (ev_phase == 2'b01)};
                cnt_inc_ai       <= cnt_inc_ai + {31'd0, ev_inc & (ev_phase == 2'b11)};
                cnt_inc_hai      <= cnt_inc_hai + {31'd0, ev_inc & (ev_phase == 2'b10)};
                cnt_inc_timer    <= cnt_inc_timer + 32'(ev_tf);
                cnt_inc_byte     <= cnt_inc_byte + 32'(ev_bf);
                cnt_grant        <= cnt_grant + 32'(ev_grant);
                cnt_grant_bytes  <= cnt_grant_bytes + (ev_grant ? {48'd0, ev_grant_bytes} : 64'd0);
                cnt_req          <= cnt_req + 32'(ev_req);
                cnt_req_drop     <= cnt_req_drop + 32'(ev_req_drop);
                cnt_rpt          <= cnt_rpt + 32'(ev_rpt);
                cnt_rpt_spurious <= cnt_rpt_spurious + 32'(ev_rpt_spurious);
                cnt_bad_qp       <= cnt_bad_qp + 32'(ev_bad_qp);
                cnt_init_drop    <= cnt_init_drop + 32'(ev_init_drop);
                // spec-mq 6.1: reading the low word latches the high word
                if (rd_en && rd_global && rd_word == dcqcn_mq_pkg::ADDR_CNT_GRANT_BYTES_LO) begin
                    cnt_grant_bytes_latch <= cnt_grant_bytes[63:32];
                end
            end

            /* DFX window (spec-mq 5.9): a clear wins; counts only while armed */
            if (dfx_clear) begin
                dfx_count   <= 7'd0;
                dfx_wptr    <= 6'd0;
                dfx_lost    <= 1'b0;
                dfx_n_dec   <= 10'd0;
                dfx_n_byte  <= 10'd0;
                dfx_n_timer <= 10'd0;
                dfx_time    <= 32'd0;
            end else if (cfg_dfx_en) begin
                if (dfx_rec) begin
                    dfx_wptr  <= dfx_wptr + 6'd1;
                    dfx_count <= dfx_full ? 7'd64 : dfx_count + 7'd1;
                end
                dfx_lost <= dfx_lost | (dfx_ev & dfx_full);
                if (dfx_ev & ev_dec & (dfx_n_dec != 10'h3FF)) begin
                    dfx_n_dec <= dfx_n_dec + 10'd1;
                end
                if (dfx_ev & ev_bf & (dfx_n_byte != 10'h3FF)) begin
                    dfx_n_byte <= dfx_n_byte + 10'd1;
                end
                if (dfx_ev & ev_tf & (dfx_n_timer != 10'h3FF)) begin
                    dfx_n_timer <= dfx_n_timer + 10'd1;
                end
                if (dfx_time != 32'hFFFF_FFFF) begin
                    dfx_time <= dfx_time + 32'd1;
                end
            end

            /* Write channel (spec-mq 6.1): global words at once, window words at the visit */
            if (wr_en && wr_win_ok) begin
                wpend <= 1'b1;
                wq    <= s_axil_awaddr[19:8];
                wword <= s_axil_awaddr[7:2];
                wdata <= s_axil_wdata;
                wstrb <= s_axil_wstrb;
            end else if (wdone) begin
                wpend <= 1'b0;
            end
            if (wr_en && !wr_win_ok) begin
                bvalid <= 1'b1;
                bresp  <= wr_ok ? dcqcn_mq_pkg::RESP_OKAY : dcqcn_mq_pkg::RESP_DECERR;
            end else if (wdone) begin
                bvalid <= 1'b1;
                bresp  <= win_wr_done ? dcqcn_mq_pkg::RESP_OKAY : dcqcn_mq_pkg::RESP_DECERR;
            end else if (s_axil_bready) begin
                bvalid <= 1'b0;
            end

            /* Read channel (spec-mq 6.1) */
            if (rd_en && rd_win_ok) begin
                rpend <= 1'b1;
                rq    <= s_axil_araddr[19:8];
                rword <= s_axil_araddr[7:2];
            end else if (rdone) begin
                rpend <= 1'b0;
            end
            if (rd_en && !rd_win_ok) begin
                rvalid <= 1'b1;
                rdata  <= rd_val;
                rresp  <= rd_mapped ? dcqcn_mq_pkg::RESP_OKAY : dcqcn_mq_pkg::RESP_DECERR;
            end else if (rdone) begin
                rvalid <= 1'b1;
                rdata  <= win_rd_done ? win_rdata : 32'd0;
                rresp  <= win_rd_done ? dcqcn_mq_pkg::RESP_OKAY : dcqcn_mq_pkg::RESP_DECERR;
            end else if (s_axil_rready) begin
                rvalid <= 1'b0;
            end
        end
    end

    assign s_axil_bvalid = bvalid;
    assign s_axil_bresp  = bresp;
    assign s_axil_rvalid = rvalid;
    assign s_axil_rdata  = rdata;
    assign s_axil_rresp  = rresp;

endmodule
