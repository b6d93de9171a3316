// SPDX-License-Identifier: MIT
// dcqcn_regs: AXI4-Lite register file, configuration, statistics counters and read mux (spec 6).

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_regs #(
    parameter int          DATA_BYTES  = 8,                  // reported in the ID register
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000     // f, Hz; sets the interval reset values
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
    output logic      [31:0] cfg_credit_cap
);

`ifdef __ICARUS__
    // Icarus 11 has no elaboration-time $fatal; fail at time 0 instead
    initial begin
        if (DATA_BYTES < 1 || DATA_BYTES > 64) begin
            $fatal(1, "dcqcn_regs: DATA_BYTES %0d out of range 1..64", DATA_BYTES);
        end
        if (CLK_FREQ_HZ < 32'd65_537) begin
            $fatal(1, "dcqcn_regs: CLK_FREQ_HZ %0d out of range 65537..4294967295", CLK_FREQ_HZ);
        end
    end
`else
    if (DATA_BYTES < 1 || DATA_BYTES > 64) begin : g_bad_data_bytes
        $fatal(1, "dcqcn_regs: DATA_BYTES %0d out of range 1..64", DATA_BYTES);
    end
    if (CLK_FREQ_HZ < 32'd65_537) begin : g_bad_clk_freq
        $fatal(1, "dcqcn_regs: CLK_FREQ_HZ %0d out of range 65537..4294967295", CLK_FREQ_HZ);
    end
`endif

    localparam logic [63:0] F_64 = {32'd0, CLK_FREQ_HZ};
    // spec 2: interval reset values, round(1.5 ms x f), round(4 us x f) mod 2^16, round(55 us x f) mod 2^16
    localparam logic [63:0] RATE_INC_RESET_64 = (F_64 * 64'd3 + 64'd1000) / 64'd2000;
    localparam logic [63:0] RATE_DEC_RESET_64 = (F_64 * 64'd4 + 64'd500_000) / 64'd1_000_000;
    localparam logic [63:0] ALPHA_RESET_64    = (F_64 * 64'd55 + 64'd500_000) / 64'd1_000_000;
    localparam logic [31:0] RATE_INC_RESET    = RATE_INC_RESET_64[31:0];
    localparam logic [15:0] RATE_DEC_RESET    = RATE_DEC_RESET_64[15:0];
    localparam logic [15:0] ALPHA_RESET       = ALPHA_RESET_64[15:0];

    // spec 6.2: ID = 0xDCC1, version 1, DATA_BYTES
    localparam logic [31:0] DATA_BYTES_32 = DATA_BYTES;
    localparam logic [31:0] ID_WORD       = {16'hDCC1, 8'h01, DATA_BYTES_32[7:0]};

    localparam logic [1:0] RESP_OKAY   = 2'b00;
    localparam logic [1:0] RESP_DECERR = 2'b11;

    // spec 6.1: word indices, addr[11:2]
    localparam logic [9:0] W_CFG0       = 10'h000;  // 0x000 alpha_g, dec_gain, stage_threshold, clamp_tgt
    localparam logic [9:0] W_RAI        = 10'h001;  // 0x004
    localparam logic [9:0] W_RHAI       = 10'h002;  // 0x008
    localparam logic [9:0] W_RMIN       = 10'h003;  // 0x00C
    localparam logic [9:0] W_INC_INT    = 10'h004;  // 0x010
    localparam logic [9:0] W_INTERVALS  = 10'h005;  // 0x014 dec_interval, alpha_interval
    localparam logic [9:0] W_RC         = 10'h006;  // 0x018 RO
    localparam logic [9:0] W_RT         = 10'h007;  // 0x01C RO
    localparam logic [9:0] W_ALPHA_CNP  = 10'h008;  // 0x020 alpha, cnp_cnt_rst, cnp_cnt16
    localparam logic [9:0] W_BYPASS     = 10'h009;  // 0x024
    localparam logic [9:0] W_TRIG       = 10'h040;  // 0x100 timer_en, byte_en, cnt_clear
    localparam logic [9:0] W_BYTE_THR   = 10'h041;  // 0x104
    localparam logic [9:0] W_CREDIT_CAP = 10'h042;  // 0x108
    localparam logic [9:0] W_ID         = 10'h043;  // 0x10C RO
    localparam logic [9:0] W_CREDIT_INT = 10'h044;  // 0x110 RO
    localparam logic [9:0] W_CREDIT_FRC = 10'h045;  // 0x114 RO
    localparam logic [9:0] W_BPC        = 10'h046;  // 0x118 RO
    localparam logic [9:0] W_CNT_CNP    = 10'h048;  // 0x120 RO
    localparam logic [9:0] W_CNT_DEC    = 10'h049;  // 0x124 RO
    localparam logic [9:0] W_CNT_FR     = 10'h04A;  // 0x128 RO
    localparam logic [9:0] W_CNT_AI     = 10'h04B;  // 0x12C RO
    localparam logic [9:0] W_CNT_HAI    = 10'h04C;  // 0x130 RO
    localparam logic [9:0] W_CNT_TIMER  = 10'h04D;  // 0x134 RO
    localparam logic [9:0] W_CNT_BYTE   = 10'h04E;  // 0x138 RO
    localparam logic [9:0] W_CNT_STALL  = 10'h04F;  // 0x13C RO
    localparam logic [9:0] W_BYTES_LO   = 10'h050;  // 0x140 RO, read latches bytes_hi
    localparam logic [9:0] W_BYTES_HI   = 10'h051;  // 0x144 RO
    localparam logic [9:0] W_STATUS     = 10'h052;  // 0x148 RO

    /* AXI4-Lite response registers */
    logic        bvalid;
    logic [1:0]  bresp;
    logic        rvalid;
    logic [31:0] rdata;
    logic [1:0]  rresp;

    /* Counters (spec 6.2) */
    logic [15:0] cnp_cnt16;
    logic [31:0] cnt_cnp;
    logic [31:0] cnt_dec;
    logic [31:0] cnt_inc_fr;
    logic [31:0] cnt_inc_ai;
    logic [31:0] cnt_inc_hai;
    logic [31:0] cnt_inc_timer;
    logic [31:0] cnt_inc_byte;
    logic [31:0] cnt_stall;
    logic [63:0] cnt_bytes;
    logic [31:0] bytes_hi;

    /* Next values */
    logic        bvalid_d;
    logic [1:0]  bresp_d;
    logic        rvalid_d;
    logic [31:0] rdata_d;
    logic [1:0]  rresp_d;

    logic [9:0]  cfg_alpha_g_d;
    logic [3:0]  cfg_dec_gain_d;
    logic [7:0]  cfg_stage_threshold_d;
    logic        cfg_clamp_tgt_d;
    logic [31:0] cfg_rai_d;
    logic [31:0] cfg_rhai_d;
    logic [31:0] cfg_rmin_d;
    logic [31:0] cfg_inc_interval_d;
    logic [15:0] cfg_dec_interval_d;
    logic [15:0] cfg_alpha_interval_d;
    logic        cfg_bypass_d;
    logic        cfg_timer_en_d;
    logic        cfg_byte_en_d;
    logic [31:0] cfg_byte_threshold_d;
    logic [31:0] cfg_credit_cap_d;

    logic [15:0] cnp_cnt16_d;
    logic [31:0] cnt_cnp_d;
    logic [31:0] cnt_dec_d;
    logic [31:0] cnt_inc_fr_d;
    logic [31:0] cnt_inc_ai_d;
    logic [31:0] cnt_inc_hai_d;
    logic [31:0] cnt_inc_timer_d;
    logic [31:0] cnt_inc_byte_d;
    logic [31:0] cnt_stall_d;
    logic [63:0] cnt_bytes_d;
    logic [31:0] bytes_hi_d;

    /* Combinational */
    logic        wr_en;
    logic        rd_en;
    logic [9:0]  wr_idx;
    logic [9:0]  rd_idx;
    // 0x000 [31:23] are RO 0: the merged word's upper bits are discarded (spec 6.2)
    /* verilator lint_off UNUSEDSIGNAL */
    logic [31:0] cfg0_new;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [31:0] intervals_new;
    logic [1:0]  wresp;
    logic [31:0] rword;
    logic        rmapped;
    logic        cnp_cnt_rst;
    logic        cnt_clear;

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

    always_comb begin
        // spec 6.1: one transaction per channel; handshakes are 0 in a reset cycle (spec 4.0)
        wr_en  = ~rst & s_axil_awvalid & s_axil_wvalid & ~bvalid;
        rd_en  = ~rst & s_axil_arvalid & ~rvalid;
        wr_idx = s_axil_awaddr[11:2];
        rd_idx = s_axil_araddr[11:2];

        s_axil_awready = wr_en;
        s_axil_wready  = wr_en;
        s_axil_arready = rd_en;

        // spec 6.1: strobes apply to the current word value, then the fields are extracted
        cfg0_new = lane_merge({9'd0, cfg_clamp_tgt, cfg_stage_threshold, cfg_dec_gain, cfg_alpha_g},
                              s_axil_wdata, s_axil_wstrb);
        intervals_new = lane_merge({cfg_alpha_interval, cfg_dec_interval}, s_axil_wdata, s_axil_wstrb);

        // spec 6.2: action bits act only when their byte lane (1) is strobed
        cnp_cnt_rst = wr_en && wr_idx == W_ALPHA_CNP && s_axil_wstrb[1] && s_axil_wdata[10];
        cnt_clear   = wr_en && wr_idx == W_TRIG && s_axil_wstrb[1] && s_axil_wdata[8];

        /* Configuration writes */
        cfg_alpha_g_d         = cfg_alpha_g;
        cfg_dec_gain_d        = cfg_dec_gain;
        cfg_stage_threshold_d = cfg_stage_threshold;
        cfg_clamp_tgt_d       = cfg_clamp_tgt;
        cfg_rai_d             = cfg_rai;
        cfg_rhai_d            = cfg_rhai;
        cfg_rmin_d            = cfg_rmin;
        cfg_inc_interval_d    = cfg_inc_interval;
        cfg_dec_interval_d    = cfg_dec_interval;
        cfg_alpha_interval_d  = cfg_alpha_interval;
        cfg_bypass_d          = cfg_bypass;
        cfg_timer_en_d        = cfg_timer_en;
        cfg_byte_en_d         = cfg_byte_en;
        cfg_byte_threshold_d  = cfg_byte_threshold;
        cfg_credit_cap_d      = cfg_credit_cap;

        // spec 6.2: OKAY for writable words (RO bits ignore the write), DECERR otherwise, no effect
        wresp = RESP_OKAY;
        if (wr_en) begin
            case (wr_idx)
                W_CFG0: begin
                    cfg_alpha_g_d         = cfg0_new[9:0];
                    cfg_dec_gain_d        = cfg0_new[13:10];
                    cfg_stage_threshold_d = cfg0_new[21:14];
                    cfg_clamp_tgt_d       = cfg0_new[22];
                end
                W_RAI:        cfg_rai_d          = lane_merge(cfg_rai, s_axil_wdata, s_axil_wstrb);
                W_RHAI:       cfg_rhai_d         = lane_merge(cfg_rhai, s_axil_wdata, s_axil_wstrb);
                W_RMIN:       cfg_rmin_d         = lane_merge(cfg_rmin, s_axil_wdata, s_axil_wstrb);
                W_INC_INT:    cfg_inc_interval_d = lane_merge(cfg_inc_interval, s_axil_wdata, s_axil_wstrb);
                W_INTERVALS: begin
                    cfg_dec_interval_d   = intervals_new[15:0];
                    cfg_alpha_interval_d = intervals_new[31:16];
                end
                W_ALPHA_CNP: begin
                    // writable word: only the write-only cnp_cnt_rst bit acts (above)
                end
                W_BYPASS: begin
                    if (s_axil_wstrb[0]) begin
                        cfg_bypass_d = s_axil_wdata[0];
                    end
                end
                W_TRIG: begin
                    // cnt_clear (lane 1) acts above
                    if (s_axil_wstrb[0]) begin
                        cfg_timer_en_d = s_axil_wdata[0];
                        cfg_byte_en_d  = s_axil_wdata[1];
                    end
                end
                W_BYTE_THR:   cfg_byte_threshold_d = lane_merge(cfg_byte_threshold, s_axil_wdata, s_axil_wstrb);
                W_CREDIT_CAP: cfg_credit_cap_d     = lane_merge(cfg_credit_cap, s_axil_wdata, s_axil_wstrb);
                default:      wresp                = RESP_DECERR;
            endcase
        end

        // spec 6.1: write response
        bvalid_d = wr_en | (bvalid & ~s_axil_bready);
        bresp_d  = wr_en ? wresp : bresp;

        // spec 6.2: read mux on the word index; unmapped reads return 0 with DECERR
        rmapped = 1'b1;
        case (rd_idx)
            W_CFG0:       rword = {9'd0, cfg_clamp_tgt, cfg_stage_threshold, cfg_dec_gain, cfg_alpha_g};
            W_RAI:        rword = cfg_rai;
            W_RHAI:       rword = cfg_rhai;
            W_RMIN:       rword = cfg_rmin;
            W_INC_INT:    rword = cfg_inc_interval;
            W_INTERVALS:  rword = {cfg_alpha_interval, cfg_dec_interval};
            W_RC:         rword = rc;
            W_RT:         rword = rt;
            W_ALPHA_CNP:  rword = {5'd0, cnp_cnt16, 1'b0, alpha};
            W_BYPASS:     rword = {31'd0, cfg_bypass};
            W_TRIG:       rword = {30'd0, cfg_byte_en, cfg_timer_en};
            W_BYTE_THR:   rword = cfg_byte_threshold;
            W_CREDIT_CAP: rword = cfg_credit_cap;
            W_ID:         rword = ID_WORD;
            W_CREDIT_INT: rword = credit[47:16];
            W_CREDIT_FRC: rword = {16'd0, credit[15:0]};
            W_BPC:        rword = bpc;
            W_CNT_CNP:    rword = cnt_cnp;
            W_CNT_DEC:    rword = cnt_dec;
            W_CNT_FR:     rword = cnt_inc_fr;
            W_CNT_AI:     rword = cnt_inc_ai;
            W_CNT_HAI:    rword = cnt_inc_hai;
            W_CNT_TIMER:  rword = cnt_inc_timer;
            W_CNT_BYTE:   rword = cnt_inc_byte;
            W_CNT_STALL:  rword = cnt_stall;
            W_BYTES_LO:   rword = cnt_bytes[31:0];
            W_BYTES_HI:   rword = bytes_hi;
            W_STATUS:     rword = {13'd0, alpha_pending, dec_pending, active, b_stage, t_stage};
            default: begin
                rword   = 32'd0;
                rmapped = 1'b0;
            end
        endcase

        // spec 6.1: read response; a same-cycle write is seen from the next read on
        rvalid_d = rd_en | (rvalid & ~s_axil_rready);
        rdata_d  = rdata;
        rresp_d  = rresp;
        if (rd_en) begin
            rdata_d = rword;
            rresp_d = rmapped ? RESP_OKAY : RESP_DECERR;
        end

        /* Counters: wrap; a clear in cycle t wins, the counter is 0 at t+1 (spec 6.2) */
        cnp_cnt16_d = cnp_cnt_rst ? 16'd0 : (cnp_edge ? cnp_cnt16 + 16'd1 : cnp_cnt16);

        cnt_cnp_d       = cnp_edge ? cnt_cnp + 32'd1 : cnt_cnp;
        cnt_dec_d       = dec_fire ? cnt_dec + 32'd1 : cnt_dec;
        cnt_inc_fr_d    = (inc_event & phase_fr) ? cnt_inc_fr + 32'd1 : cnt_inc_fr;
        cnt_inc_ai_d    = (inc_event & phase_ai) ? cnt_inc_ai + 32'd1 : cnt_inc_ai;
        cnt_inc_hai_d   = (inc_event & phase_hai) ? cnt_inc_hai + 32'd1 : cnt_inc_hai;
        cnt_inc_timer_d = (inc_event & timer_fire) ? cnt_inc_timer + 32'd1 : cnt_inc_timer;
        cnt_inc_byte_d  = (inc_event & byte_fire) ? cnt_inc_byte + 32'd1 : cnt_inc_byte;
        cnt_stall_d     = stall ? cnt_stall + 32'd1 : cnt_stall;
        cnt_bytes_d     = cnt_bytes + {57'd0, bytes_in};
        // spec 6.2: a read of 0x140 latches the upper half for a later read of 0x144
        bytes_hi_d      = (rd_en && rd_idx == W_BYTES_LO) ? cnt_bytes[63:32] : bytes_hi;

        if (cnt_clear) begin
            cnt_cnp_d       = 32'd0;
            cnt_dec_d       = 32'd0;
            cnt_inc_fr_d    = 32'd0;
            cnt_inc_ai_d    = 32'd0;
            cnt_inc_hai_d   = 32'd0;
            cnt_inc_timer_d = 32'd0;
            cnt_inc_byte_d  = 32'd0;
            cnt_stall_d     = 32'd0;
            cnt_bytes_d     = 64'd0;
            bytes_hi_d      = 32'd0;
        end
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            bvalid              <= 1'b0;
            bresp               <= RESP_OKAY;
            rvalid              <= 1'b0;
            rdata               <= 32'd0;
            rresp               <= RESP_OKAY;

            // spec 6.2 reset values
            cfg_alpha_g         <= 10'd1020;
            cfg_dec_gain        <= 4'd1;
            cfg_stage_threshold <= 8'd5;
            cfg_clamp_tgt       <= 1'b0;
            cfg_rai             <= 32'd6_000_000;
            cfg_rhai            <= 32'd12_000_000;
            cfg_rmin            <= 32'd10_000_000;
            cfg_inc_interval    <= RATE_INC_RESET;
            cfg_dec_interval    <= RATE_DEC_RESET;
            cfg_alpha_interval  <= ALPHA_RESET;
            cfg_bypass          <= 1'b0;
            cfg_timer_en        <= 1'b1;
            cfg_byte_en         <= 1'b0;
            cfg_byte_threshold  <= 32'd10_000_000;
            cfg_credit_cap      <= 32'd1_048_576;

            cnp_cnt16           <= 16'd0;
            cnt_cnp             <= 32'd0;
            cnt_dec             <= 32'd0;
            cnt_inc_fr          <= 32'd0;
            cnt_inc_ai          <= 32'd0;
            cnt_inc_hai         <= 32'd0;
            cnt_inc_timer       <= 32'd0;
            cnt_inc_byte        <= 32'd0;
            cnt_stall           <= 32'd0;
            cnt_bytes           <= 64'd0;
            bytes_hi            <= 32'd0;
        end else begin
            bvalid              <= bvalid_d;
            bresp               <= bresp_d;
            rvalid              <= rvalid_d;
            rdata               <= rdata_d;
            rresp               <= rresp_d;

            cfg_alpha_g         <= cfg_alpha_g_d;
            cfg_dec_gain        <= cfg_dec_gain_d;
            cfg_stage_threshold <= cfg_stage_threshold_d;
            cfg_clamp_tgt       <= cfg_clamp_tgt_d;
            cfg_rai             <= cfg_rai_d;
            cfg_rhai            <= cfg_rhai_d;
            cfg_rmin            <= cfg_rmin_d;
            cfg_inc_interval    <= cfg_inc_interval_d;
            cfg_dec_interval    <= cfg_dec_interval_d;
            cfg_alpha_interval  <= cfg_alpha_interval_d;
            cfg_bypass          <= cfg_bypass_d;
            cfg_timer_en        <= cfg_timer_en_d;
            cfg_byte_en         <= cfg_byte_en_d;
            cfg_byte_threshold  <= cfg_byte_threshold_d;
            cfg_credit_cap      <= cfg_credit_cap_d;

            cnp_cnt16           <= cnp_cnt16_d;
            cnt_cnp             <= cnt_cnp_d;
            cnt_dec             <= cnt_dec_d;
            cnt_inc_fr          <= cnt_inc_fr_d;
            cnt_inc_ai          <= cnt_inc_ai_d;
            cnt_inc_hai         <= cnt_inc_hai_d;
            cnt_inc_timer       <= cnt_inc_timer_d;
            cnt_inc_byte        <= cnt_inc_byte_d;
            cnt_stall           <= cnt_stall_d;
            cnt_bytes           <= cnt_bytes_d;
            bytes_hi            <= bytes_hi_d;
        end
    end

    assign s_axil_bvalid = bvalid;
    assign s_axil_bresp  = bresp;
    assign s_axil_rvalid = rvalid;
    assign s_axil_rdata  = rdata;
    assign s_axil_rresp  = rresp;

endmodule

`resetall
