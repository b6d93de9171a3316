// SPDX-License-Identifier: MIT
// nscc_ack_top: nscc_mq_ack_exec with flat ports (one per field) for the Verilator testbench
// tb_nscc_ack.cpp, plus the package's win_ok of the written record and init record
// (docs/spec-nscc.md 4.2, 7). Port names: in_/out_/init_ flow fields, ev_ event, cfg_ registers,
// oc_ outcome.

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nscc_ack_top #(
    parameter logic [23:0] LINE_WIN = 24'd8192
) (
    input  wire logic [31:0]  in_cwnd,
    input  wire logic [31:0]  in_abytes,
    input  wire logic [31:0]  in_saved,
    input  wire logic [23:0]  in_base_rtt,
    input  wire logic [23:0]  in_max_wnd,
    input  wire logic [31:0]  in_avg,
    input  wire logic [31:0]  in_achieved,
    input  wire logic [31:0]  in_received,
    input  wire logic [31:0]  in_fi_count,
    input  wire logic [39:0]  in_inc,
    input  wire logic [31:0]  in_to_ignore,
    input  wire logic [31:0]  in_ignored,
    input  wire logic         in_increase,
    input  wire logic         in_trigger_qa,
    input  wire logic         in_qa_armed,
    input  wire logic [31:0]  in_t_adj,
    input  wire logic [31:0]  in_t_dec,
    input  wire logic [31:0]  in_t_qa,
    input  wire logic [31:0]  gbytes,
    input  wire logic         old,
    input  wire logic [31:0]  now,
    input  wire logic         cc_en,
    input  wire logic [1:0]   ev_kind,
    input  wire logic [23:0]  ev_bytes,
    input  wire logic         ev_ecn,
    input  wire logic         ev_rtt_valid,
    input  wire logic [23:0]  ev_rtt,
    input  wire logic [6:0]   ev_pend,
    input  wire logic         ev_rc,
    input  wire logic [23:0]  cfg_base_rtt,
    input  wire logic [23:0]  cfg_target,
    input  wire logic [15:0]  cfg_mtu,
    input  wire logic [23:0]  cfg_max_wnd,
    input  wire logic [23:0]  cfg_init_cwnd,
    input  wire logic [19:0]  cfg_fi,
    input  wire logic [31:0]  cfg_alpha,
    input  wire logic [23:0]  cfg_fi_scale,
    input  wire logic [23:0]  cfg_eta,
    input  wire logic [23:0]  cfg_adjust_period,
    input  wire logic [23:0]  cfg_adjust_bytes,
    input  wire logic [8:0]   cfg_gamma,
    input  wire logic [3:0]   cfg_ewma_shift,
    input  wire logic [3:0]   cfg_qa_gate,
    input  wire logic         cfg_qa_en,
    input  wire logic [15:0]  cfg_fi_delay,
    input  wire logic [23:0]  cfg_qa_delay,
    output logic      [31:0]  out_cwnd,
    output logic      [31:0]  out_abytes,
    output logic      [31:0]  out_saved,
    output logic      [23:0]  out_base_rtt,
    output logic      [23:0]  out_max_wnd,
    output logic      [31:0]  out_avg,
    output logic      [31:0]  out_achieved,
    output logic      [31:0]  out_received,
    output logic      [31:0]  out_fi_count,
    output logic      [39:0]  out_inc,
    output logic      [31:0]  out_to_ignore,
    output logic      [31:0]  out_ignored,
    output logic              out_increase,
    output logic              out_trigger_qa,
    output logic              out_qa_armed,
    output logic      [31:0]  out_t_adj,
    output logic      [31:0]  out_t_dec,
    output logic      [31:0]  out_t_qa,
    output logic              oc_penalty,
    output logic              oc_restored,
    output logic              oc_rtt_valid,
    output logic              oc_qa_fired,
    output logic              oc_qa_ignored,
    output logic      [2:0]   oc_rcase,
    output logic              oc_md_applied,
    output logic              oc_adjusted,
    output logic              oc_eta_added,
    output logic              win_ok,
    output logic      [31:0]  init_cwnd,
    output logic      [31:0]  init_abytes,
    output logic      [31:0]  init_saved,
    output logic      [23:0]  init_base_rtt,
    output logic      [23:0]  init_max_wnd,
    output logic      [31:0]  init_avg,
    output logic      [31:0]  init_achieved,
    output logic      [31:0]  init_received,
    output logic      [31:0]  init_fi_count,
    output logic      [39:0]  init_inc,
    output logic      [31:0]  init_to_ignore,
    output logic      [31:0]  init_ignored,
    output logic              init_increase,
    output logic              init_trigger_qa,
    output logic              init_qa_armed,
    output logic      [31:0]  init_t_adj,
    output logic      [31:0]  init_t_dec,
    output logic      [31:0]  init_t_qa
);

    nscc_mq_pkg::nscc_flow_t flow_rd;
    nscc_mq_pkg::nscc_flow_t flow_wd;
    nscc_mq_pkg::nscc_flow_t init_rec;
    nscc_mq_pkg::nscc_regs_t cfg;
    nscc_mq_pkg::nscc_out_t  outcome;

    assign flow_rd.cwnd = in_cwnd;
    assign flow_rd.abytes = in_abytes;
    assign flow_rd.saved = in_saved;
    assign flow_rd.base_rtt = in_base_rtt;
    assign flow_rd.max_wnd = in_max_wnd;
    assign flow_rd.avg = in_avg;
    assign flow_rd.achieved = in_achieved;
    assign flow_rd.received = in_received;
    assign flow_rd.fi_count = in_fi_count;
    assign flow_rd.inc = in_inc;
    assign flow_rd.to_ignore = in_to_ignore;
    assign flow_rd.ignored = in_ignored;
    assign flow_rd.increase = in_increase;
    assign flow_rd.trigger_qa = in_trigger_qa;
    assign flow_rd.qa_armed = in_qa_armed;
    assign flow_rd.t_adj = in_t_adj;
    assign flow_rd.t_dec = in_t_dec;
    assign flow_rd.t_qa = in_t_qa;
    assign cfg.base_rtt = cfg_base_rtt;
    assign cfg.target = cfg_target;
    assign cfg.mtu = cfg_mtu;
    assign cfg.max_wnd = cfg_max_wnd;
    assign cfg.init_cwnd = cfg_init_cwnd;
    assign cfg.fi = cfg_fi;
    assign cfg.alpha = cfg_alpha;
    assign cfg.fi_scale = cfg_fi_scale;
    assign cfg.eta = cfg_eta;
    assign cfg.adjust_period = cfg_adjust_period;
    assign cfg.adjust_bytes = cfg_adjust_bytes;
    assign cfg.gamma = cfg_gamma;
    assign cfg.ewma_shift = cfg_ewma_shift;
    assign cfg.qa_gate = cfg_qa_gate;
    assign cfg.qa_en = cfg_qa_en;
    assign cfg.fi_delay = cfg_fi_delay;
    assign cfg.qa_delay = cfg_qa_delay;

    nscc_mq_ack_exec #(
        .LINE_WIN(LINE_WIN)
    ) u_exec (
        .flow_rd     (flow_rd),
        .gbytes      (gbytes),
        .old         (old),
        .now         (now),
        .cc_en       (cc_en),
        .ev_kind     (ev_kind),
        .ev_bytes    (ev_bytes),
        .ev_ecn      (ev_ecn),
        .ev_rtt_valid(ev_rtt_valid),
        .ev_rtt      (ev_rtt),
        .ev_pend     (ev_pend),
        .ev_rc       (ev_rc),
        .cfg         (cfg),
        .flow_wd     (flow_wd),
        .outcome     (outcome)
    );

    assign init_rec = nscc_mq_pkg::init_flow(cfg, now);
    assign win_ok   = nscc_mq_pkg::win_ok(gbytes, flow_wd.abytes, flow_wd.cwnd,
                                          (cfg_mtu == 16'd0) ? 16'd1 : cfg_mtu);

    assign out_cwnd = flow_wd.cwnd;
    assign out_abytes = flow_wd.abytes;
    assign out_saved = flow_wd.saved;
    assign out_base_rtt = flow_wd.base_rtt;
    assign out_max_wnd = flow_wd.max_wnd;
    assign out_avg = flow_wd.avg;
    assign out_achieved = flow_wd.achieved;
    assign out_received = flow_wd.received;
    assign out_fi_count = flow_wd.fi_count;
    assign out_inc = flow_wd.inc;
    assign out_to_ignore = flow_wd.to_ignore;
    assign out_ignored = flow_wd.ignored;
    assign out_increase = flow_wd.increase;
    assign out_trigger_qa = flow_wd.trigger_qa;
    assign out_qa_armed = flow_wd.qa_armed;
    assign out_t_adj = flow_wd.t_adj;
    assign out_t_dec = flow_wd.t_dec;
    assign out_t_qa = flow_wd.t_qa;
    assign oc_penalty = outcome.penalty;
    assign oc_restored = outcome.restored;
    assign oc_rtt_valid = outcome.rtt_valid;
    assign oc_qa_fired = outcome.qa_fired;
    assign oc_qa_ignored = outcome.qa_ignored;
    assign oc_rcase = outcome.rcase;
    assign oc_md_applied = outcome.md_applied;
    assign oc_adjusted = outcome.adjusted;
    assign oc_eta_added = outcome.eta_added;
    assign init_cwnd = init_rec.cwnd;
    assign init_abytes = init_rec.abytes;
    assign init_saved = init_rec.saved;
    assign init_base_rtt = init_rec.base_rtt;
    assign init_max_wnd = init_rec.max_wnd;
    assign init_avg = init_rec.avg;
    assign init_achieved = init_rec.achieved;
    assign init_received = init_rec.received;
    assign init_fi_count = init_rec.fi_count;
    assign init_inc = init_rec.inc;
    assign init_to_ignore = init_rec.to_ignore;
    assign init_ignored = init_rec.ignored;
    assign init_increase = init_rec.increase;
    assign init_trigger_qa = init_rec.trigger_qa;
    assign init_qa_armed = init_rec.qa_armed;
    assign init_t_adj = init_rec.t_adj;
    assign init_t_dec = init_rec.t_dec;
    assign init_t_qa = init_rec.t_qa;

endmodule

`resetall
