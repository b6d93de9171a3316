//! Functional coverage of the multi-QP block `dcqcn_mq`: the bins of spec-mq 8.4, counted on the
//! model's side (the RTL equals the model on every compared cycle, so these are the RTL's corners
//! too). Same shape as dcqcn_rl's [`crate::coverage`]: hit counts per bin, the first campaign case
//! that hit each, a table that marks the misses.
//!
//! [`MqCoverage::step`] wraps one model cycle. Before the edge it evaluates, read-only, the same
//! combinational functions the model's cycle is built from (`visit::comb`, the pick stage, the
//! grant and report executions, the bus decode: S(t) and the inputs of t); after the edge it
//! reads S(t+1). Every bin is a predicate over those two and the inputs: nothing in the model
//! records events for the coverage.

use dcqcn_model::mq::regs::{win, win_access, Monitors, ReadKind, WriteKind, DECERR};
use dcqcn_model::mq::visit::{self, VisitKind};
use dcqcn_model::mq::{grant, regmap, rpt, MqBlock, MqInputs, MqOutputs};
use dcqcn_model::rate_inc::Phase;

/// The bins of spec-mq 8.4, in table order: (group, name, what it means). [`Bin`] names them in
/// the same order.
pub const MQ_BINS: &[(&str, &str, &str)] = &[
    // decrease
    (
        "decrease",
        "dec_first",
        "first decrease of a QP (active 0 -> 1)",
    ),
    (
        "decrease",
        "dec_immediate",
        "decrease at the visit of its CNP (nothing merged)",
    ),
    (
        "decrease",
        "dec_merged",
        "merged CNPs served at the merge end",
    ),
    (
        "decrease",
        "dec_merge_period_0",
        "decrease with cnp_merge_period 0",
    ),
    (
        "decrease",
        "dec_clamp_tgt",
        "decrease sets rt = rc by clamp_tgt (stages 0, rt != rc)",
    ),
    (
        "decrease",
        "dec_clamp_t_stage",
        "decrease sets rt = rc by t_stage != 0",
    ),
    (
        "decrease",
        "dec_clamp_b_stage",
        "decrease sets rt = rc by b_stage != 0",
    ),
    ("decrease", "dec_below_rmin", "rc - d below rmin (floored)"),
    (
        "decrease",
        "dec_rmax_clamp",
        "decreased rate above rmax (clamped)",
    ),
    (
        "decrease",
        "dec_shift_0",
        "decrease with alpha_rate_shift 0",
    ),
    (
        "decrease",
        "dec_shift_15",
        "decrease with alpha_rate_shift 15",
    ),
    // increase
    ("increase", "inc_timer_fr", "timer increase, fast recovery"),
    ("increase", "inc_timer_ai", "timer increase, additive"),
    ("increase", "inc_timer_hai", "timer increase, hyper"),
    ("increase", "inc_byte_fr", "byte increase, fast recovery"),
    ("increase", "inc_byte_ai", "byte increase, additive"),
    ("increase", "inc_byte_hai", "byte increase, hyper"),
    (
        "increase",
        "inc_both_fr",
        "timer and byte increase in one visit, fast recovery",
    ),
    (
        "increase",
        "inc_both_ai",
        "timer and byte increase in one visit, additive",
    ),
    (
        "increase",
        "inc_both_hai",
        "timer and byte increase in one visit, hyper",
    ),
    (
        "increase",
        "inc_cancelled_by_dec",
        "an increase trigger cancelled by a decrease",
    ),
    (
        "increase",
        "inc_stage_255",
        "an increase with its stage held at 255",
    ),
    (
        "increase",
        "inc_f_0",
        "an increase with stage_threshold F = 0",
    ),
    ("increase", "inc_capped_rmax", "an increase capped at rmax"),
    // alpha
    ("alpha", "alpha_rise", "alpha rises at a decrease"),
    ("alpha", "alpha_decay", "alpha decays at its timer"),
    ("alpha", "alpha_decay_to_0", "alpha decays to 0"),
    (
        "alpha",
        "alpha_timer_restart_merged",
        "alpha timer restarted by a merged CNP",
    ),
    ("alpha", "alpha_g_0", "alpha update with upd_alpha_g G = 0"),
    // CNP / limit
    (
        "cnp/limit",
        "lim8_set_mid_ost",
        "lim8 set while ost is between ost_limit_cnp and ost_limit",
    ),
    (
        "cnp/limit",
        "lim8_cleared_by_timer",
        "lim8 cleared by the CNP timer",
    ),
    (
        "cnp/limit",
        "lim8_rearmed",
        "a CNP re-arms lim8 before its timer expires",
    ),
    (
        "cnp/limit",
        "cnp_in_clearing_visit",
        "CNP input in the visit that clears lim8 (set wins)",
    ),
    // outstanding
    (
        "outstanding",
        "ost_reaches_limit",
        "a grant brings ost to ost_limit",
    ),
    (
        "outstanding",
        "ost_reaches_limit_cnp",
        "a grant brings ost to ost_limit_cnp",
    ),
    (
        "outstanding",
        "grant_and_report_one_qp",
        "grant and report execution on one QP in one cycle",
    ),
    (
        "outstanding",
        "spurious_report",
        "a report with nothing outstanding",
    ),
    ("outstanding", "ost_255", "the outstanding count at 255"),
    (
        "outstanding",
        "ost_limit_lowered",
        "ost_limit lowered below a QP's count",
    ),
    (
        "outstanding",
        "ost_limit_raised",
        "ost_limit raised above a QP's count",
    ),
    // credit and window edges
    (
        "credit",
        "grant_credit_0",
        "a grant leaves credit exactly 0",
    ),
    (
        "credit",
        "grant_credit_1",
        "a grant leaves credit exactly 1",
    ),
    (
        "credit",
        "grant_credit_negative",
        "a grant leaves credit negative",
    ),
    (
        "credit",
        "wake_first_visit",
        "wake at the first visit after the credit turns positive",
    ),
    (
        "credit",
        "wake_lost_to_grant",
        "a wake lost to a same-cycle grant",
    ),
    ("credit", "refill_reaches_capq", "a refill reaching CAPQ"),
    ("credit", "applied_rate_0", "a grant at applied rate 0"),
    (
        "credit",
        "stamp_age_2_31",
        "now - stamp >= 2^31 at a refill or wake check",
    ),
    (
        "credit",
        "port_credit_blocks",
        "port credit <= 0 blocking a pick",
    ),
    // picker
    ("picker", "pick_wraps", "pick wraps around past QPS - 1"),
    ("picker", "pick_one_eligible", "a pick with one eligible QP"),
    (
        "picker",
        "pick_all_eligible",
        "a pick with every QP eligible",
    ),
    (
        "picker",
        "pick_blocked_pause",
        "a pick blocked by grant_pause",
    ),
    (
        "picker",
        "pick_blocked_port_credit",
        "a pick blocked by the port credit alone",
    ),
    (
        "picker",
        "pick_blocked_init",
        "a pick blocked by the init round",
    ),
    (
        "picker",
        "pick_blocked_clear_next",
        "a pick blocked by clear_next",
    ),
    // requests
    ("requests", "req_accepted", "request accepted"),
    (
        "requests",
        "req_dropped_full",
        "request dropped (slot full)",
    ),
    (
        "requests",
        "req_dropped_pick_cycle",
        "request dropped in its slot's pick cycle",
    ),
    (
        "requests",
        "req_accepted_clear_cycle",
        "request accepted in its QP's qp_clear cycle",
    ),
    // hazards
    (
        "hazards",
        "visit_and_grant",
        "visit and grant execution on one QP in one cycle",
    ),
    (
        "hazards",
        "visit_and_report",
        "visit and report execution on one QP in one cycle",
    ),
    (
        "hazards",
        "cnp_at_visit",
        "CNP input at the visit of its QP",
    ),
    (
        "hazards",
        "window_write_and_dec",
        "window write and decrease in one visit",
    ),
    (
        "hazards",
        "window_read_and_write",
        "window read and write completing at one visit",
    ),
    // schemes: enables word bit 0 dcqcn_hw_en, 1 hw_rate_throttle_en, 2 tx_wqe_ost_limit_en,
    // 3 speed_limiter_en
    ("schemes", "enables_0000", "enables 0b0000 with traffic"),
    ("schemes", "enables_0001", "enables 0b0001 with traffic"),
    ("schemes", "enables_0010", "enables 0b0010 with traffic"),
    ("schemes", "enables_0011", "enables 0b0011 with traffic"),
    ("schemes", "enables_0100", "enables 0b0100 with traffic"),
    ("schemes", "enables_0101", "enables 0b0101 with traffic"),
    ("schemes", "enables_0110", "enables 0b0110 with traffic"),
    ("schemes", "enables_0111", "enables 0b0111 with traffic"),
    ("schemes", "enables_1000", "enables 0b1000 with traffic"),
    ("schemes", "enables_1001", "enables 0b1001 with traffic"),
    ("schemes", "enables_1010", "enables 0b1010 with traffic"),
    ("schemes", "enables_1011", "enables 0b1011 with traffic"),
    ("schemes", "enables_1100", "enables 0b1100 with traffic"),
    ("schemes", "enables_1101", "enables 0b1101 with traffic"),
    ("schemes", "enables_1110", "enables 0b1110 with traffic"),
    ("schemes", "enables_1111", "enables 0b1111 with traffic"),
    (
        "schemes",
        "hw_en_toggle_cnp_pending",
        "dcqcn_hw_en 1 -> 0 -> 1 with a CNP pending",
    ),
    (
        "schemes",
        "throttle_toggle_blocked",
        "hw_rate_throttle_en toggled with a QP blocked",
    ),
    // errors and ports
    ("errors", "bad_qp_req", "request with QP >= QPS"),
    ("errors", "bad_qp_cnp", "CNP with QP >= QPS"),
    ("errors", "bad_qp_rpt", "report with QP >= QPS"),
    (
        "errors",
        "axil_write_channels_apart",
        "AW and W of a write offered in different cycles",
    ),
    (
        "errors",
        "reset_with_events",
        "a reset cycle with a request, CNP or report (ignored, 4.1)",
    ),
    (
        "errors",
        "bad_qp_window",
        "window access with QP >= QPS (DECERR)",
    ),
    (
        "errors",
        "decerr_global_unmapped_read",
        "DECERR: read of an unmapped global word",
    ),
    (
        "errors",
        "decerr_global_unmapped_write",
        "DECERR: write of an unmapped global word",
    ),
    (
        "errors",
        "decerr_global_readonly_write",
        "DECERR: write of a read-only global word",
    ),
    (
        "errors",
        "decerr_window_unmapped_read",
        "DECERR: read of an unmapped window word",
    ),
    (
        "errors",
        "decerr_window_unmapped_write",
        "DECERR: write of an unmapped window word",
    ),
    (
        "errors",
        "decerr_window_readonly_write",
        "DECERR: write of a read-only window word",
    ),
    (
        "errors",
        "events_in_init",
        "CNP or report in the init round (dropped)",
    ),
    (
        "errors",
        "clear_with_pending_req",
        "qp_clear with a pending request",
    ),
    (
        "errors",
        "clear_with_outstanding",
        "qp_clear with outstanding grants",
    ),
    (
        "errors",
        "clear_with_pending_cnp",
        "qp_clear with a pending CNP",
    ),
    // DFX
    ("dfx", "dfx_type_dec", "DFX entry: decrease (type 0)"),
    (
        "dfx",
        "dfx_type_byte_fr",
        "DFX entry: byte increase, fast recovery (type 1)",
    ),
    (
        "dfx",
        "dfx_type_byte_hai",
        "DFX entry: byte increase, hyper (type 2)",
    ),
    (
        "dfx",
        "dfx_type_byte_ai",
        "DFX entry: byte increase, additive (type 3)",
    ),
    (
        "dfx",
        "dfx_type_timer_fr",
        "DFX entry: timer increase, fast recovery (type 5)",
    ),
    (
        "dfx",
        "dfx_type_timer_hai",
        "DFX entry: timer increase, hyper (type 6)",
    ),
    (
        "dfx",
        "dfx_type_timer_ai",
        "DFX entry: timer increase, additive (type 7)",
    ),
    (
        "dfx",
        "dfx_full_lost",
        "DFX window full without wrap: event lost (dfx_lost)",
    ),
    (
        "dfx",
        "dfx_wrap",
        "DFX window full with wrap: oldest entry overwritten",
    ),
    ("dfx", "dfx_clear_armed", "DFX clear while armed"),
    ("dfx", "dfx_qp_out_of_range", "DFX armed with dfx_qp >= QPS"),
];

/// The bins by name, in [`MQ_BINS`] order (`Bin::X as usize` is X's row). The `enables_*` and
/// `dfx_type_*` rows are addressed by offset from their first, so most of their names are never
/// constructed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
#[allow(dead_code)]
enum Bin {
    DecFirst,
    DecImmediate,
    DecMerged,
    DecMergePeriod0,
    DecClampTgt,
    DecClampTStage,
    DecClampBStage,
    DecBelowRmin,
    DecRmaxClamp,
    DecShift0,
    DecShift15,
    IncTimerFr,
    IncTimerAi,
    IncTimerHai,
    IncByteFr,
    IncByteAi,
    IncByteHai,
    IncBothFr,
    IncBothAi,
    IncBothHai,
    IncCancelledByDec,
    IncStage255,
    IncF0,
    IncCappedRmax,
    AlphaRise,
    AlphaDecay,
    AlphaDecayTo0,
    AlphaTimerRestartMerged,
    AlphaG0,
    Lim8SetMidOst,
    Lim8ClearedByTimer,
    Lim8Rearmed,
    CnpInClearingVisit,
    OstReachesLimit,
    OstReachesLimitCnp,
    GrantAndReportOneQp,
    SpuriousReport,
    Ost255,
    OstLimitLowered,
    OstLimitRaised,
    GrantCredit0,
    GrantCredit1,
    GrantCreditNegative,
    WakeFirstVisit,
    WakeLostToGrant,
    RefillReachesCapq,
    AppliedRate0,
    StampAge2_31,
    PortCreditBlocks,
    PickWraps,
    PickOneEligible,
    PickAllEligible,
    PickBlockedPause,
    PickBlockedPortCredit,
    PickBlockedInit,
    PickBlockedClearNext,
    ReqAccepted,
    ReqDroppedFull,
    ReqDroppedPickCycle,
    ReqAcceptedClearCycle,
    VisitAndGrant,
    VisitAndReport,
    CnpAtVisit,
    WindowWriteAndDec,
    WindowReadAndWrite,
    /// The 16 `enables_*` bins: enables value k is `Enables0 as usize + k`.
    Enables0,
    Enables1,
    Enables2,
    Enables3,
    Enables4,
    Enables5,
    Enables6,
    Enables7,
    Enables8,
    Enables9,
    Enables10,
    Enables11,
    Enables12,
    Enables13,
    Enables14,
    Enables15,
    HwEnToggleCnpPending,
    ThrottleToggleBlocked,
    BadQpReq,
    BadQpCnp,
    BadQpRpt,
    AxilWriteChannelsApart,
    ResetWithEvents,
    BadQpWindow,
    DecerrGlobalUnmappedRead,
    DecerrGlobalUnmappedWrite,
    DecerrGlobalReadonlyWrite,
    DecerrWindowUnmappedRead,
    DecerrWindowUnmappedWrite,
    DecerrWindowReadonlyWrite,
    EventsInInit,
    ClearWithPendingReq,
    ClearWithOutstanding,
    ClearWithPendingCnp,
    /// The DFX entry types 0, 1, 2, 3, 5, 6, 7 in that order (`DfxTypeDec as usize + k`).
    DfxTypeDec,
    DfxTypeByteFr,
    DfxTypeByteHai,
    DfxTypeByteAi,
    DfxTypeTimerFr,
    DfxTypeTimerHai,
    DfxTypeTimerAi,
    DfxFullLost,
    DfxWrap,
    DfxClearArmed,
    DfxQpOutOfRange,
}

/// One past the last bin of [`Bin`]: every row of [`MQ_BINS`] has its name (checked at compile
/// time).
const BIN_COUNT: usize = Bin::DfxQpOutOfRange as usize + 1;
const _: () = assert!(BIN_COUNT == MQ_BINS.len());

/// Hit counts per bin of [`MQ_BINS`] and, in a campaign, the first case that hit each.
#[derive(Clone, Debug)]
pub struct MqCoverage {
    pub hits: Vec<u64>,
    /// Per bin: the lowest campaign case number that hit it (set by [`MqCoverage::mark_case`];
    /// `None` outside a campaign).
    pub first_case: Vec<Option<u64>>,
    /// `dcqcn_hw_en` went 1 -> 0 since the last reset (for `hw_en_toggle_cnp_pending`).
    hw_went_off: bool,
    /// Scratch for the eligibility words of a cycle (not compared).
    elig: Vec<u64>,
}

impl Default for MqCoverage {
    fn default() -> Self {
        MqCoverage::new()
    }
}

impl PartialEq for MqCoverage {
    fn eq(&self, other: &MqCoverage) -> bool {
        self.hits == other.hits && self.first_case == other.first_case
    }
}

impl Eq for MqCoverage {}

/// `gcnt - dcnt` of QP q (spec-mq 4.6).
fn ost(m: &MqBlock, q: usize) -> u8 {
    let mm = m.mems();
    mm.grant_cnt_mem[q].wrapping_sub(mm.done_cnt_mem[q])
}

impl MqCoverage {
    pub fn new() -> MqCoverage {
        MqCoverage {
            hits: vec![0; MQ_BINS.len()],
            first_case: vec![None; MQ_BINS.len()],
            hw_went_off: false,
            elig: Vec::new(),
        }
    }

    #[inline]
    fn hit(&mut self, b: Bin, c: bool) {
        self.hits[b as usize] += u64::from(c);
    }

    /// One cycle of `m` with inputs `i` ([`MqBlock::step`]), its bins counted.
    pub fn step(&mut self, m: &mut MqBlock, i: &MqInputs) -> MqOutputs {
        if i.rst {
            self.hw_went_off = false;
            self.hit(
                Bin::ResetWithEvents,
                i.req.valid || i.cnp.valid || i.rpt.valid,
            );
            return m.step(i);
        }
        let p = *m.params();
        let qps = p.qps();
        let s = m.state();
        let mems = m.mems();
        let cfg = s.regs.cfg;
        let (init, now) = (s.scan.init, s.scan.now);
        let mon = Monitors {
            init,
            pcredit: s.grant.pcredit,
            now,
        };
        let bc = s.regs.bus_comb(&i.axil, i.rst, &p, &mon, &mems.dfx_mem);
        let vo = visit::comb(&s.scan, mems, &s.bitmaps, &s.regs, &p);
        let v = usize::from(vo.v);
        let normal = vo.kind == VisitKind::Normal;
        let clear = vo.kind == VisitKind::Clear;
        let in_range = |q: u16| u32::from(q) < qps;

        // The pick stage as the model forms it (spec-mq 4.5).
        let bus = &s.regs.bus;
        let next_scan = s.scan.next_scan(qps);
        let accepted_clear = matches!(bc.wr, WriteKind::Pending { q, word }
            if bc.wr_en && q == next_scan && word == win::QP_CTRL
                && i.axil.wstrb & 1 != 0 && (i.axil.wdata >> 1) & 1 == 1);
        let clear_next = (bus.wpend && bus.wclr() && next_scan == bus.wq) || accepted_clear;
        self.elig.resize(qps.div_ceil(64) as usize, 0);
        grant::eligibility(&s.bitmaps, &cfg, &mut self.elig);
        let n_elig: u32 = self.elig.iter().map(|w| w.count_ones()).sum();
        let pick = grant::pick_stage(&s.grant, init, i.grant_pause, clear_next, &cfg, &self.elig);
        let gx = grant::execute(&s.grant, init, clear, now, mems, &cfg, &p);
        let rx = rpt::execute(&s.rpt, init, mems, &p);
        let cnp_ok = i.cnp.valid && in_range(i.cnp.qp) && !init;
        let req_ok = i.req.valid && in_range(i.req.qp);
        let req_full = req_ok && s.bitmaps.req_valid.get(usize::from(i.req.qp));
        let accept = req_ok && !req_full;
        let line_win = p.line_win();
        let (rmax, rmin) = (cfg.rmax(line_win), cfg.rmin(line_win));
        let q_add = u64::from(qps);

        // The visit (spec-mq 5.4): decrease, increase, alpha, CNP timer.
        let r = (v < qps as usize).then(|| mems.record(v));
        let cnp_flag_v = v < qps as usize && s.bitmaps.cnp_flag.get(v);
        if let (Some(d), Some(r), true) = (vo.dcqcn, r, normal) {
            let dv = ((u64::from(r.rc) * u64::from(r.alpha))
                >> (u32::from(cfg.alpha_rate_shift) + 10)) as u32;
            let cut = r.rc.saturating_sub(dv);
            self.hit(Bin::DecFirst, d.dec && !r.active);
            self.hit(Bin::DecImmediate, d.dec && !r.dec_pending);
            self.hit(Bin::DecMerged, d.dec && r.dec_pending);
            self.hit(Bin::DecMergePeriod0, d.dec && cfg.cnp_merge_period == 0);
            self.hit(
                Bin::DecClampTgt,
                d.dec && cfg.clamp_tgt && r.t_stage == 0 && r.b_stage == 0 && r.rc != r.rt,
            );
            self.hit(Bin::DecClampTStage, d.dec && r.t_stage != 0);
            self.hit(Bin::DecClampBStage, d.dec && r.b_stage != 0);
            self.hit(Bin::DecBelowRmin, d.dec && cut < rmin);
            self.hit(Bin::DecRmaxClamp, d.dec && cut.max(rmin) > rmax);
            self.hit(Bin::DecShift0, d.dec && cfg.alpha_rate_shift == 0);
            self.hit(Bin::DecShift15, d.dec && cfg.alpha_rate_shift == 15);
            if d.inc {
                let ph = match d.phase {
                    Phase::FastRecovery => 0,
                    Phase::Additive => 1,
                    Phase::Hyper => 2,
                };
                let base = match (d.tf, d.bf) {
                    (true, false) => Bin::IncTimerFr as usize,
                    (false, true) => Bin::IncByteFr as usize,
                    _ => Bin::IncBothFr as usize,
                };
                self.hits[base + ph] += 1;
                let add = match d.phase {
                    Phase::FastRecovery => 0,
                    Phase::Additive => cfg.rate_ai,
                    Phase::Hyper => cfg.rate_hai,
                };
                self.hit(
                    Bin::IncCappedRmax,
                    u64::from(r.rt) + u64::from(add) > u64::from(rmax),
                );
                self.hit(
                    Bin::IncStage255,
                    (d.tf && r.t_stage == 255) || (d.bf && r.b_stage == 255),
                );
                self.hit(Bin::IncF0, cfg.stage_threshold == 0);
            }
            self.hit(Bin::IncCancelledByDec, d.dec && (d.tf || d.bf));
            let hw = cfg.dcqcn_hw_en;
            let a1 = (u64::from(r.alpha_el) + q_add).min(0xFFFF);
            let a_fire =
                hw && r.active && !d.dec && !cnp_flag_v && a1 >= u64::from(cfg.alpha_timer_th);
            self.hit(Bin::AlphaRise, d.dec && d.rec.alpha > r.alpha);
            self.hit(Bin::AlphaDecay, a_fire && d.rec.alpha < r.alpha);
            self.hit(
                Bin::AlphaDecayTo0,
                a_fire && r.alpha > 0 && d.rec.alpha == 0,
            );
            self.hit(
                Bin::AlphaTimerRestartMerged,
                hw && cnp_flag_v && !d.dec && r.active && r.alpha_el != 0,
            );
            self.hit(Bin::AlphaG0, (d.dec || a_fire) && cfg.upd_alpha_g == 0);
            let cnp_here = cnp_ok && usize::from(i.cnp.qp) == v;
            self.hit(Bin::Lim8ClearedByTimer, d.lim_clr && !cnp_here);
            self.hit(Bin::CnpInClearingVisit, d.lim_clr && cnp_here);
            self.hit(Bin::CnpAtVisit, cnp_here);
            self.hit(Bin::WindowWriteAndDec, vo.win.write && d.dec);
        }
        if cnp_ok {
            let q = usize::from(i.cnp.qp);
            let o = ost(m, q);
            self.hit(
                Bin::Lim8SetMidOst,
                o >= cfg.ost_limit_cnp.max(1) && o < cfg.ost_limit.max(1),
            );
            self.hit(Bin::Lim8Rearmed, s.bitmaps.lim8.get(q));
        }

        // Grant and report execution, credits (spec-mq 4.5, 4.6).
        let mut ost_before = None;
        if let Some(x) = gx {
            let q = usize::from(x.q);
            let c = mems.credit(q);
            self.hit(Bin::GrantCredit0, x.credit.credit == 0);
            self.hit(Bin::GrantCredit1, x.credit.credit == 1);
            self.hit(Bin::GrantCreditNegative, x.credit.credit < 0);
            let fill = grant::refill(&c, mems.cc_rate_mem[q], line_win, now);
            self.hit(Bin::RefillReachesCapq, fill >= cfg.capq());
            self.hit(Bin::AppliedRate0, mems.cc_rate_mem[q] == 0);
            self.hit(Bin::StampAge2_31, now.wrapping_sub(c.stamp) >= 1 << 31);
            self.hit(Bin::VisitAndGrant, normal && q == v);
            self.hit(
                Bin::WakeLostToGrant,
                normal && q == v && vo.wake && !x.rate_ok,
            );
            self.hit(Bin::GrantAndReportOneQp, rx.is_some_and(|y| y.q == x.q));
            ost_before = Some((q, ost(m, q)));
        }
        if normal {
            let c = mems.credit(v);
            self.hit(Bin::StampAge2_31, now.wrapping_sub(c.stamp) >= 1 << 31);
            self.hit(
                Bin::WakeFirstVisit,
                vo.wake && !s.bitmaps.rate_ok.get(v) && gx.is_none_or(|x| usize::from(x.q) != v),
            );
        }
        if let Some(y) = rx {
            let q = usize::from(y.q);
            self.hit(Bin::VisitAndReport, normal && q == v);
            // the joint count (spec-mq 4.6): spurious when nothing is outstanding after the
            // clear and the grant of the cycle
            let ost1 = if clear && q == v { 0 } else { ost(m, q) };
            let ost2 = if gx.is_some_and(|x| usize::from(x.q) == q) {
                ost1.saturating_add(1)
            } else {
                ost1
            };
            self.hit(Bin::SpuriousReport, ost2 == 0);
        }
        self.hit(
            Bin::WindowReadAndWrite,
            vo.win.write && vo.win.read.is_some(),
        );

        // The picker (spec-mq 4.5).
        let speed_blocks = cfg.speed_limiter_en && s.grant.pcredit <= 0;
        if let Some(q) = pick {
            self.hit(Bin::PickWraps, q <= s.grant.rr);
            self.hit(Bin::PickOneEligible, n_elig == 1);
            self.hit(Bin::PickAllEligible, n_elig == qps);
        }
        if n_elig > 0 {
            self.hit(Bin::PortCreditBlocks, !init && speed_blocks);
            self.hit(Bin::PickBlockedPause, !init && i.grant_pause);
            self.hit(
                Bin::PickBlockedPortCredit,
                !init && !i.grant_pause && !clear_next && speed_blocks,
            );
            self.hit(Bin::PickBlockedInit, init);
            self.hit(Bin::PickBlockedClearNext, !init && clear_next);
        }

        // Requests (spec-mq 4.4).
        self.hit(Bin::ReqAccepted, accept);
        self.hit(Bin::ReqDroppedFull, req_full);
        self.hit(Bin::ReqDroppedPickCycle, req_full && pick == Some(i.req.qp));
        self.hit(
            Bin::ReqAcceptedClearCycle,
            accept && clear && usize::from(i.req.qp) == v,
        );

        // Schemes (spec-mq 5.7): the enables of the cycle with a grant or a request.
        let enables = usize::from(cfg.dcqcn_hw_en)
            | usize::from(cfg.hw_rate_throttle_en) << 1
            | usize::from(cfg.tx_wqe_ost_limit_en) << 2
            | usize::from(cfg.speed_limiter_en) << 3;
        if gx.is_some() || accept {
            self.hits[Bin::Enables0 as usize + enables] += 1;
        }

        // Errors and ports (spec-mq 6.1, 7).
        self.hit(Bin::BadQpReq, i.req.valid && !in_range(i.req.qp));
        self.hit(Bin::BadQpCnp, i.cnp.valid && !in_range(i.cnp.qp));
        self.hit(Bin::BadQpRpt, i.rpt.valid && !in_range(i.rpt.qp));
        self.hit(Bin::AxilWriteChannelsApart, i.axil.awvalid != i.axil.wvalid);
        let window = |a: u32| a & regmap::QP_BASE != 0;
        let win_q = |a: u32| (a >> 8) & 0xFFF;
        let win_word = |a: u32| ((a >> 2) & 0x3F) as u8;
        if bc.wr_en && bc.wr == WriteKind::Decerr {
            let a = i.axil.awaddr & 0x1F_FFFF;
            if window(a) {
                if win_q(a) >= qps {
                    self.hit(Bin::BadQpWindow, true);
                } else if win_access(win_word(a)) == 0 {
                    self.hit(Bin::DecerrWindowUnmappedWrite, true);
                } else {
                    self.hit(Bin::DecerrWindowReadonlyWrite, true);
                }
            } else if regmap::lookup(a).is_some() {
                self.hit(Bin::DecerrGlobalReadonlyWrite, true);
            } else {
                self.hit(Bin::DecerrGlobalUnmappedWrite, true);
            }
        }
        if bc.rd_en && matches!(bc.rd, ReadKind::Now { resp, .. } if resp == DECERR) {
            let a = i.axil.araddr & 0x1F_FFFF;
            if !window(a) {
                self.hit(Bin::DecerrGlobalUnmappedRead, true);
            } else if win_q(a) >= qps {
                self.hit(Bin::BadQpWindow, true);
            } else {
                self.hit(Bin::DecerrWindowUnmappedRead, true);
            }
        }
        self.hit(
            Bin::EventsInInit,
            init && ((i.cnp.valid && in_range(i.cnp.qp)) || (i.rpt.valid && in_range(i.rpt.qp))),
        );
        if let (true, Some(r)) = (clear, r) {
            self.hit(Bin::ClearWithPendingReq, s.bitmaps.req_valid.get(v));
            self.hit(Bin::ClearWithOutstanding, ost(m, v) != 0);
            self.hit(Bin::ClearWithPendingCnp, cnp_flag_v || r.dec_pending);
        }

        // DFX (spec-mq 5.9): the event of the visit of dfx_qp, armed by cfg_dfx_en of S(t).
        let dfx_ev = visit::dfx_event(&vo, &cfg).filter(|_| cfg.dfx_en);
        let dfx_before = s.regs.dfx;
        let dfx_clear_write = matches!(bc.wr, WriteKind::Global(a) if a == regmap::DFX_CTRL)
            && bc.wr_en
            && i.axil.wstrb & 2 != 0
            && (i.axil.wdata >> 8) & 1 == 1;
        self.hit(Bin::DfxClearArmed, dfx_clear_write && cfg.dfx_en);
        self.hit(
            Bin::DfxQpOutOfRange,
            cfg.dfx_en && u32::from(cfg.dfx_qp) >= qps,
        );

        // Scheme changes: which QPs are blocked before the edge.
        let blocked_by_throttle = (0..qps as usize).any(|q| {
            s.bitmaps.req_valid.get(q) && !s.bitmaps.arb_mask.get(q) && !s.bitmaps.rate_ok.get(q)
        });

        // ---- the edge ----
        let out = m.step(i);
        let s2 = m.state();
        let cfg2 = s2.regs.cfg;

        if let Some((q, before)) = ost_before {
            let after = ost(m, q);
            let hi = cfg.ost_limit.max(1);
            let lo = cfg.ost_limit_cnp.max(1);
            self.hit(Bin::OstReachesLimit, after == hi && before < hi);
            self.hit(Bin::OstReachesLimitCnp, after == lo && before < lo);
            self.hit(Bin::Ost255, after == 255);
        }
        if cfg2.ost_limit != cfg.ost_limit {
            let (old, new) = (cfg.ost_limit.max(1), cfg2.ost_limit.max(1));
            let mut counts = (0..qps as usize).map(|q| ost(m, q));
            if new < old {
                self.hit(Bin::OstLimitLowered, counts.any(|o| o >= new && o < old));
            } else {
                self.hit(Bin::OstLimitRaised, counts.any(|o| o >= old && o < new));
            }
        }
        if cfg2.hw_rate_throttle_en != cfg.hw_rate_throttle_en {
            self.hit(Bin::ThrottleToggleBlocked, blocked_by_throttle);
        }
        if cfg.dcqcn_hw_en && !cfg2.dcqcn_hw_en {
            self.hw_went_off = true;
        }
        if !cfg.dcqcn_hw_en && cfg2.dcqcn_hw_en && self.hw_went_off {
            let pending = (0..qps as usize)
                .any(|q| s2.bitmaps.cnp_flag.get(q) || m.mems().record(q).dec_pending);
            self.hit(Bin::HwEnToggleCnpPending, pending);
        }
        if let Some(e) = dfx_ev {
            let d2 = s2.regs.dfx;
            let full = dfx_before.dfx_count >= 64;
            let recorded = !dfx_clear_write && (!full || cfg.dfx_wrap);
            if recorded {
                let k = match e.typ {
                    0..=3 => usize::from(e.typ),
                    t => usize::from(t) - 1,
                };
                if k < 7 {
                    self.hits[Bin::DfxTypeDec as usize + k] += 1;
                }
                self.hit(Bin::DfxWrap, full);
            }
            self.hit(
                Bin::DfxFullLost,
                !dfx_clear_write && full && !cfg.dfx_wrap && d2.dfx_lost,
            );
        }
        out
    }

    /// Records campaign case `index` as the first to hit each bin this run hit (earlier cases
    /// keep theirs when merged).
    pub fn mark_case(&mut self, index: u64) {
        for (f, &n) in self.first_case.iter_mut().zip(&self.hits) {
            if n > 0 {
                *f = Some(f.map_or(index, |x| x.min(index)));
            }
        }
    }

    pub fn merge(&mut self, other: &MqCoverage) {
        for (a, b) in self.hits.iter_mut().zip(&other.hits) {
            *a += b;
        }
        for (a, b) in self.first_case.iter_mut().zip(&other.first_case) {
            if let Some(b) = *b {
                *a = Some(a.map_or(b, |x| x.min(b)));
            }
        }
    }

    /// Bins hit at least once.
    pub fn covered(&self) -> usize {
        self.hits.iter().filter(|&&n| n > 0).count()
    }

    /// The names of the bins not hit, in table order.
    pub fn missed(&self) -> Vec<&'static str> {
        MQ_BINS
            .iter()
            .zip(&self.hits)
            .filter(|(_, &n)| n == 0)
            .map(|(b, _)| b.1)
            .collect()
    }

    /// The table: one line per bin (group, name, hits, `MISS` where 0, meaning, and in a
    /// campaign the first case that hit it), then the missed bins by name.
    pub fn table(&self) -> String {
        let campaign = self.first_case.iter().any(Option::is_some);
        let mut s = format!(
            "dcqcn_mq coverage (docs/spec-mq.md 8.4): {} of {} bins hit\n",
            self.covered(),
            MQ_BINS.len()
        );
        for (k, ((group, name, what), n)) in MQ_BINS.iter().zip(&self.hits).enumerate() {
            let mark = if *n == 0 { "MISS" } else { "" };
            let first = match self.first_case[k] {
                Some(c) if campaign => format!("  (first: case {c})"),
                _ => String::new(),
            };
            s += &format!("  {group:<11} {name:<30} {n:>12} {mark:<4}  {what}{first}\n");
        }
        let missed = self.missed();
        if missed.is_empty() {
            s += "every bin hit\n";
        } else {
            s += &format!("missed ({}): {}\n", missed.len(), missed.join(", "));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dcqcn_model::mq::MqParams;

    #[test]
    fn the_bin_names_follow_the_table() {
        assert_eq!(BIN_COUNT, MQ_BINS.len());
        assert_eq!(MQ_BINS[Bin::Enables0 as usize].1, "enables_0000");
        assert_eq!(MQ_BINS[Bin::Enables0 as usize + 15].1, "enables_1111");
        assert_eq!(
            MQ_BINS[Bin::HwEnToggleCnpPending as usize].1,
            "hw_en_toggle_cnp_pending"
        );
        assert_eq!(MQ_BINS[Bin::DfxTypeDec as usize].1, "dfx_type_dec");
        assert_eq!(MQ_BINS[Bin::DfxFullLost as usize].1, "dfx_full_lost");
        assert_eq!(
            MQ_BINS[Bin::DfxQpOutOfRange as usize].1,
            "dfx_qp_out_of_range"
        );
        assert_eq!(MQ_BINS[Bin::IncBothHai as usize].1, "inc_both_hai");
        assert_eq!(MQ_BINS[Bin::Enables15 as usize].1, "enables_1111");
        assert_eq!(MQ_BINS[Bin::DfxTypeTimerAi as usize].1, "dfx_type_timer_ai");
        assert_eq!(
            MQ_BINS[Bin::ClearWithPendingCnp as usize].1,
            "clear_with_pending_cnp"
        );
        let mut names: Vec<_> = MQ_BINS.iter().map(|b| b.1).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), MQ_BINS.len(), "bin names are unique");
    }

    /// A run with nothing but reset and idle cycles misses the traffic bins, and the table says
    /// so by name; the counts are the model's, not the coverage's (the outputs are unchanged).
    #[test]
    fn a_bin_not_hit_is_reported_as_missed() {
        let p = MqParams::with_qps(4).unwrap();
        let mut a = MqBlock::new(p);
        let mut b = MqBlock::new(p);
        let mut cov = MqCoverage::new();
        for t in 0..200 {
            let i = MqInputs {
                rst: t < 2,
                ..MqInputs::default()
            };
            assert_eq!(cov.step(&mut a, &i), b.step(&i));
        }
        assert_eq!(a.state(), b.state());
        assert_eq!(cov.covered(), 0, "{}", cov.table());
        let t = cov.table();
        assert!(t.contains("0 of"), "{t}");
        assert!(t.contains("req_accepted") && t.contains("MISS"), "{t}");
        assert_eq!(cov.missed().len(), MQ_BINS.len());
        // one request: accepted, and no longer missed
        let mut cov2 = MqCoverage::new();
        let mut m = MqBlock::new(p);
        for t in 0..40 {
            let mut i = MqInputs {
                rst: t < 2,
                ..MqInputs::default()
            };
            if t == 20 {
                i.req.valid = true;
                i.req.qp = 1;
                i.req.bytes = 100;
            }
            cov2.step(&mut m, &i);
        }
        assert!(
            cov2.hits[Bin::ReqAccepted as usize] == 1,
            "{}",
            cov2.table()
        );
        assert!(!cov2.missed().contains(&"req_accepted"));
        assert!(cov2.missed().contains(&"dec_first"));
    }

    #[test]
    fn merge_adds_counts_and_keeps_the_first_case() {
        let mut a = MqCoverage::new();
        let mut b = MqCoverage::new();
        a.hits[3] = 2;
        a.mark_case(7);
        b.hits[3] = 1;
        b.hits[5] = 1;
        b.mark_case(4);
        a.merge(&b);
        assert_eq!((a.hits[3], a.hits[5]), (3, 1));
        assert_eq!((a.first_case[3], a.first_case[5]), (Some(4), Some(4)));
        assert!(a.table().contains("(first: case 4)"));
    }
}
