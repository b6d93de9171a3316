// SPDX-License-Identifier: MIT
// nscc_mq_pkg: the records of the NSCC block nscc_mq (docs/spec-nscc.md 4.3, 8.1), the reciprocal
// table and function (6.1), the init record (7) and the send test win_ok (4.2).

`resetall
`timescale 1ns / 1ps
`default_nettype none

package nscc_mq_pkg;

    /* spec-nscc 6.1, 6.4 */
    localparam logic [25:0] AGE_MAX = 26'h3FF_FFFF;   // 2^26 - 1 cycles

    /* The event kinds of the ACK port (spec-nscc 3) */
    localparam logic [1:0] KIND_ACK   = 2'd0;
    localparam logic [1:0] KIND_TRIM  = 2'd1;  // trimmed NACK
    localparam logic [1:0] KIND_NACK  = 2'd2;  // other NACK
    localparam logic [1:0] KIND_LOSS  = 2'd3;  // inferred loss

    /* The reaction of spec-nscc 6.2 step 7 (nscc_out_t.rcase); 0: the ACK did not get there */
    localparam logic [2:0] CASE_NONE  = 3'd0;
    localparam logic [2:0] CASE_FAIR  = 3'd1;  // fair increase
    localparam logic [2:0] CASE_PROP  = 3'd2;  // proportional increase
    localparam logic [2:0] CASE_FAST  = 3'd3;  // fast increase
    localparam logic [2:0] CASE_MD    = 3'd4;  // multiplicative decrease (md_applied: it applied)
    localparam logic [2:0] CASE_HOLD  = 3'd5;  // marked, below target
    localparam logic [2:0] CASE_RLIM  = 3'd6;  // unmarked while the receiver limits the window

    /* One flow's memories as the ACK process reads and writes them (spec-nscc 4.1, 4.3):
       CWND_MEM, ABYTES_MEM, NSCC_MEM (saved .. qa_armed, 315 bits), NSCC_TIME_MEM */
    typedef struct packed {
        logic [31:0] cwnd;        // Q24.8 bytes
        logic [31:0] abytes;      // bytes, mod 2^32
        logic [31:0] saved;       // Q24.8 bytes; 0: none
        logic [23:0] base_rtt;    // cycles
        logic [23:0] max_wnd;     // bytes
        logic [31:0] avg;         // Q24.8 cycles
        logic [31:0] achieved;    // bytes, saturating
        logic [31:0] received;    // bytes, saturating
        logic [31:0] fi_count;    // bytes, saturating
        logic [39:0] inc;         // bytes^2, saturating
        logic [31:0] to_ignore;   // bytes
        logic [31:0] ignored;     // bytes, saturating
        logic        increase;
        logic        trigger_qa;
        logic        qa_armed;
        logic [31:0] t_adj;       // now values
        logic [31:0] t_dec;
        logic [31:0] t_qa;
    } nscc_flow_t;

    /* The NSCC registers (spec-nscc 8.1) */
    typedef struct packed {
        logic [23:0] base_rtt;       // cycles; 0 acts as 1
        logic [23:0] target;         // cycles
        logic [15:0] mtu;            // bytes; 0 acts as 1
        logic [23:0] max_wnd;        // bytes
        logic [23:0] init_cwnd;      // bytes; 0: max_wnd
        logic [19:0] fi;             // bytes
        logic [31:0] alpha;          // Q16.16 bytes per cycle
        logic [23:0] fi_scale;       // Q8.16
        logic [23:0] eta;            // Q16.8 bytes
        logic [23:0] adjust_period;  // cycles
        logic [23:0] adjust_bytes;   // bytes
        logic [8:0]  gamma;          // Q1.8; above 256 acts as 256
        logic [3:0]  ewma_shift;
        logic [3:0]  qa_gate;
        logic        qa_en;
        logic [15:0] fi_delay;       // cycles
        logic [23:0] qa_delay;       // cycles; 0: never
    } nscc_regs_t;

    /* What one event did (the counters of spec-nscc 8.1 count these) */
    typedef struct packed {
        logic       penalty;     // step 2: rcv_cwnd_pend applied
        logic       restored;    // step 2: the saved window restored
        logic       rtt_valid;   // step 3 passed
        logic       qa_fired;    // step 6 set the window
        logic       qa_ignored;  // step 6: a marked ACK ignored
        logic [2:0] rcase;       // step 7: CASE_*
        logic       md_applied;  // step 7: the decrease applied
        logic       adjusted;    // step 8 ran
        logic       eta_added;   // ... and added eta
    } nscc_out_t;

    /* spec-nscc 6.1: RECIP[m] = floor(2^24 / (256 + m)), 17 bits, computed at elaboration */
    typedef logic [256*17-1:0] recip_table_t;

    function automatic recip_table_t recip_table(input int entries);
        recip_table = '0;
        for (int m = 0; m < entries; m++) begin
            recip_table[17*m +: 17] = 17'((33'd1 << 24) / (33'd256 + 33'(m)));
        end
    endfunction

    localparam recip_table_t RECIP = recip_table(256);

    /* spec-nscc 6.1: 1/X ~ recip * 2^-(16 + e) for 0 < X < 2^40 (X = 0 reads as 1) */
    typedef struct packed {
        logic [16:0] recip;  // RECIP[m]
        logic [5:0]  e;      // floor(log2 X)
    } recip_t;

    function automatic recip_t recip_of(input logic [39:0] x);
        /* verilator lint_off UNUSEDSIGNAL */
        logic [39:0] norm;   // X with its leading one at bit 39; m: bits [38:31]
        /* verilator lint_on UNUSEDSIGNAL */
        logic [7:0]  m;
        logic [5:0]  e;
        e = 6'd0;
        for (int i = 0; i < 40; i++) begin
            if (x[i]) begin
                e = 6'(i);
            end
        end
        norm     = x << (6'd39 - e);
        m        = norm[38:31];
        recip_of = {RECIP[17*m +: 17], e};
    endfunction

    /* spec-nscc 7: the init record written at now */
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic nscc_flow_t init_flow(input nscc_regs_t cfg, input logic [31:0] now);
    /* verilator lint_on UNUSEDSIGNAL */
        logic [23:0] mtu;
        logic [23:0] ceiling;
        logic [23:0] want;
        logic [23:0] cw;
        mtu     = (cfg.mtu == 16'd0) ? 24'd1 : {8'd0, cfg.mtu};
        ceiling = (cfg.max_wnd > mtu) ? cfg.max_wnd : mtu;
        want    = (cfg.init_cwnd == 24'd0) ? cfg.max_wnd : cfg.init_cwnd;
        cw      = (want < mtu) ? mtu : ((want > ceiling) ? ceiling : want);
        // field by field in nscc_flow_t's order (cwnd .. t_qa); every other field 0
        init_flow = {cw, 8'd0, 32'd0, 32'd0,
                     (cfg.base_rtt == 24'd0) ? 24'd1 : cfg.base_rtt, cfg.max_wnd,
                     32'd0, 32'd0, 32'd0, 32'd0, 40'd0, 32'd0, 32'd0, 3'd0, now, now, now};
    endfunction

    /* spec-nscc 4.2: infl * 256 + mtu * 256 <= cwnd, 42-bit signed (mtu: max(cfg_mtu, 1)) */
    function automatic logic win_ok(
        input logic [31:0] gbytes,
        input logic [31:0] abytes,
        input logic [31:0] cwnd,
        input logic [15:0] mtu
    );
        logic [31:0]        infl;
        logic signed [41:0] lhs;
        infl   = gbytes - abytes;
        lhs    = $signed({{2{infl[31]}}, infl, 8'd0}) + $signed({18'd0, mtu, 8'd0});
        win_ok = lhs <= $signed({10'd0, cwnd});
    endfunction

endpackage

`resetall
