//! The scan, the init round, the DCQCN visit function, the window access completion and the wake
//! check (spec-mq 4.3, 5.4, 5.8, 6.1; RTL `dcqcn_mq_visit`).
//!
//! Every cycle outside reset visits QP `scan_q`. An init visit writes the QP's init record; a
//! normal visit runs 5.4 on the QP's record, completes a pending window access to the QP, writes
//! the record and the applied rate, and wakes the QP if its credit has turned positive. The visit
//! is the only writer of the record memories; its credit and count writes at init and `qp_clear`
//! go through the grant process's port (the top composes them).

use super::bitmaps::Bitmaps;
use super::mem::{MqMems, Record, M24};
use super::params::MqParams;
use super::regs::{window_read, window_write, DfxEvent, MqConfig, MqRegs, QpView, WinDone};
use crate::rate_inc::Phase;

/// The scan's registers (spec-mq 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// Free-running cycle count.
    pub now: u32,
    /// The QP visited this cycle.
    pub scan_q: u16,
    /// The init round is running.
    pub init: bool,
}

impl Scan {
    pub const RESET: Scan = Scan {
        now: 0,
        scan_q: 0,
        init: true,
    };

    /// `scan_q'` (spec-mq 4.3; the pick stage's `next_scan`): a `scan_q` >= QPS restarts at 0.
    #[inline]
    pub fn next_scan(&self, qps: u32) -> u16 {
        if u32::from(self.scan_q) >= qps - 1 {
            0
        } else {
            self.scan_q + 1
        }
    }

    /// The clock edge (spec-mq 4.3).
    #[inline]
    pub fn next(&mut self, qps: u32) {
        self.init = self.init && u32::from(self.scan_q) != qps - 1;
        self.scan_q = self.next_scan(qps);
        self.now = self.now.wrapping_add(1);
    }
}

/// What kind of visit a cycle has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VisitKind {
    /// `scan_q >= QPS` (injected state only): nothing.
    None,
    /// The init round (spec-mq 4.3).
    Init,
    /// A normal visit running 5.4.
    Normal,
    /// A normal visit completing a `qp_clear` (spec-mq 5.8).
    Clear,
}

/// The result of the DCQCN visit function, 5.4 steps 1-7, for one QP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dcqcn {
    /// The primed record (before a window write and the applied rate of step 8).
    pub rec: Record,
    /// `lim8'[v] = 0` (unless a CNP input for v this cycle).
    pub lim_clr: bool,
    pub dec: bool,
    pub inc: bool,
    pub tf: bool,
    pub bf: bool,
    pub phase: Phase,
}

/// The saturating sum `min(a + b, 2^bits - 1)`, formed without wrapping (spec-mq 5.1 `sat_N`).
#[inline]
fn sat(a: u64, b: u64, bits: u32) -> u64 {
    (a + b).min((1 << bits) - 1)
}

/// The DCQCN visit function, spec-mq 5.4 steps 1-7: from the record `r` of S(t), the QP's
/// `cnp_flag` and `lim8`, its `sent` and the configuration.
#[inline]
pub fn dcqcn_visit(
    r: &Record,
    cnp: bool,
    lim: bool,
    sent: u32,
    cfg: &MqConfig,
    p: &MqParams,
) -> Dcqcn {
    let q = u64::from(p.qps());
    let hw = cfg.dcqcn_hw_en;
    let rmax = cfg.rmax(p.line_win());
    let rmin = cfg.rmin(p.line_win());
    let mut n = *r;

    // Step 1: byte delta and CNP timer (also with hw = 0).
    let delta = sent.wrapping_sub(r.sent_seen);
    n.sent_seen = sent;
    let c1 = sat(u64::from(r.cnp_el), q, 24) as u32;
    n.cnp_el = if cnp { 0 } else { c1 };
    let lim_clr = !cnp && lim && c1 >= cfg.cnp_timer_thrd;

    // Step 2: decrease with merging.
    let pend = r.dec_pending || cnp;
    let m1 = sat(u64::from(r.merge_el), q, 16) as u16;
    let dec = hw && pend && m1 >= cfg.cnp_merge_period;
    let d =
        ((u64::from(r.rc) * u64::from(r.alpha)) >> (u32::from(cfg.alpha_rate_shift) + 10)) as u32;
    let rc_dec = r.rc.saturating_sub(d).max(rmin).min(rmax);
    let rt_dec = if cfg.clamp_tgt || r.t_stage != 0 || r.b_stage != 0 {
        r.rc
    } else {
        r.rt
    }
    .min(rmax);

    // Step 3: alpha.
    let g = u32::from(cfg.upd_alpha_g);
    let keep = ((1024 - g) * u32::from(r.alpha)) >> 10;
    let a1 = sat(u64::from(r.alpha_el), q, 16) as u16;
    let a_fire = hw && r.active && !dec && !cnp && a1 >= cfg.alpha_timer_th;
    if hw {
        n.alpha = if dec {
            (keep + g) as u16
        } else if a_fire {
            keep as u16
        } else {
            r.alpha
        };
        n.alpha_el = if dec || cnp || a_fire || !r.active {
            0
        } else {
            a1
        };
    }

    // Step 4: increase triggers; a threshold of 0 disables its trigger.
    let t_en = cfg.nocnp_timer_th != 0;
    let b_en = cfg.byte_cnt_th != 0;
    let i1 = sat(u64::from(r.inc_el), q, 24) as u32;
    let b1 = sat(u64::from(r.byte_cnt), u64::from(delta), 32) as u32;
    let tf = r.active && t_en && i1 >= cfg.nocnp_timer_th;
    let bf = r.active && b_en && b1 >= cfg.byte_cnt_th;
    let inc = hw && (tf || bf) && !dec;
    if hw {
        n.inc_el = if !r.active || dec || !t_en || tf {
            0
        } else {
            i1
        };
        n.byte_cnt = if !r.active || dec || !b_en || bf {
            0
        } else {
            b1
        };
    }

    // Step 5: stages and phase (docs/spec.md 4.5, F = stage_threshold).
    let t_new = if inc && tf {
        r.t_stage.saturating_add(1)
    } else {
        r.t_stage
    };
    let b_new = if inc && bf {
        r.b_stage.saturating_add(1)
    } else {
        r.b_stage
    };
    if hw {
        let restart = !r.active || dec;
        n.t_stage = if restart { 0 } else { t_new };
        n.b_stage = if restart { 0 } else { b_new };
    }
    let (smax, smin) = if t_en && b_en {
        (t_new.max(b_new), t_new.min(b_new))
    } else if b_en {
        (b_new, b_new)
    } else {
        (t_new, t_new)
    };
    let f = cfg.stage_threshold;
    let phase = if smax < f {
        Phase::FastRecovery
    } else if smin > f {
        Phase::Hyper
    } else {
        Phase::Additive
    };

    // Step 6: increase result (25-bit sums, clamped to rmax).
    let rt_inc = match phase {
        Phase::FastRecovery => r.rt,
        Phase::Additive => r.rt + cfg.rate_ai,
        Phase::Hyper => r.rt + cfg.rate_hai,
    }
    .min(rmax);
    let rc_inc = ((r.rc + rt_inc + u32::from(r.rc < rt_inc)) / 2).min(rmax);

    // Step 7: rates, activity, merge state.
    if hw {
        (n.rc, n.rt) = if dec {
            (rc_dec, rt_dec)
        } else if inc {
            (rc_inc, rt_inc)
        } else {
            (r.rc.min(rmax), r.rt.min(rmax))
        };
        n.active = r.active || dec;
        n.merge_el = if dec { 0 } else { m1 };
        n.dec_pending = pend && !dec;
    }
    Dcqcn {
        rec: n,
        lim_clr,
        dec,
        inc,
        tf,
        bf,
        phase,
    }
}

/// The init record (spec-mq 5.2 last-but-one column, 5.8) with the registers of the cycle.
#[inline]
pub fn init_record(cfg: &MqConfig, line_win: u32, sent_seen: u32) -> Record {
    let rmax = cfg.rmax(line_win);
    Record {
        rc: rmax,
        rt: rmax,
        cc_rate: rmax,
        alpha: cfg.alpha_init & 0x3FF,
        alpha_el: 0,
        merge_el: 0xFFFF,
        dec_pending: false,
        cnp_el: 0,
        byte_cnt: 0,
        sent_seen,
        t_stage: 0,
        b_stage: 0,
        active: false,
        inc_el: 0,
    }
}

/// The DFX entry type code of a rate event (docs/spec.md 4.10): 0b000 decrease; an increase has
/// bit 2 = timer, bits [1:0] = phase (0b01 fast recovery, 0b10 hyper, 0b11 additive).
#[inline]
pub fn event_type(dec: bool, tf: bool, phase: Phase) -> u8 {
    if dec {
        return 0;
    }
    let ph = match phase {
        Phase::FastRecovery => 0b01,
        Phase::Hyper => 0b10,
        Phase::Additive => 0b11,
    };
    (u8::from(tf) << 2) | ph
}

/// The visit of one cycle: what it writes and signals (combinational of S(t)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VisitOut {
    pub kind: VisitKind,
    /// The QP visited (`scan_q`).
    pub v: u16,
    /// The record written (the `wv` stream), for Init, Normal and Clear.
    pub rec: Record,
    /// The DCQCN result (Normal only; `None` otherwise).
    pub dcqcn: Option<Dcqcn>,
    /// The wake check (Normal only).
    pub wake: bool,
    /// `arb_mask'[v]` from a completing window write to `qp_ctrl` (lane 0 strobed), or `None`.
    pub arb_mask: Option<bool>,
    /// Completion of pending window accesses at this visit.
    pub win: WinDone,
}

/// The visit of cycle t (spec-mq 4.3, 5.4, 5.8, 6.1), from S(t).
#[inline]
pub fn comb(scan: &Scan, m: &MqMems, bm: &Bitmaps, regs: &MqRegs, p: &MqParams) -> VisitOut {
    let v = scan.scan_q;
    let cfg = &regs.cfg;
    let mut out = VisitOut {
        kind: VisitKind::None,
        v,
        rec: Record::default(),
        dcqcn: None,
        wake: false,
        arb_mask: None,
        win: WinDone::default(),
    };
    if u32::from(v) >= p.qps() {
        return out;
    }
    let q = v as usize;
    if scan.init {
        out.kind = VisitKind::Init;
        out.rec = init_record(cfg, p.line_win(), 0);
        return out;
    }

    // A pending window access to v completes at this visit (spec-mq 6.1).
    let bus = &regs.bus;
    let w_here = bus.wpend && bus.wq == v;
    let r_here = bus.rpend && bus.rq == v;
    let r = m.record(q);
    if r_here {
        // A read returns S(t), before any write completing at the same visit (spec-mq 4.7).
        let view = QpView {
            credit: m.credit(q),
            gcnt: m.grant_cnt_mem[q],
            dcnt: m.done_cnt_mem[q],
            sent: m.sent_mem[q],
            req_bytes: m.req_mem[q],
            req_valid: bm.req_valid.get(q),
            arb_mask: bm.arb_mask.get(q),
            rate_ok: bm.rate_ok.get(q),
            lim8: bm.lim8.get(q),
            cnp_flag: bm.cnp_flag.get(q),
            ost_lt_hi: bm.ost_lt_hi.get(q),
            ost_lt_lo: bm.ost_lt_lo.get(q),
        };
        out.win.read = Some(window_read(bus.rword, &r, &view));
    }
    out.win.write = w_here;

    if w_here && bus.wclr() {
        // spec-mq 5.8: the init record with sent_seen = sent of S(t); none of 5.4 steps 2-7.
        out.kind = VisitKind::Clear;
        out.rec = init_record(cfg, p.line_win(), m.sent_mem[q]);
        out.arb_mask = Some(bus.wdata & 1 == 1);
        return out;
    }

    out.kind = VisitKind::Normal;
    let d = dcqcn_visit(
        &r,
        bm.cnp_flag.get(q),
        bm.lim8.get(q),
        m.sent_mem[q],
        cfg,
        p,
    );
    let mut rec = d.rec;
    if w_here {
        // Step 8.1: the strobed bytes replace the visit's results.
        let mut mask = bm.arb_mask.get(q);
        window_write(bus.wword, bus.wdata, bus.wstrb, &mut rec, &mut mask);
        if bus.wword == super::regs::win::QP_CTRL && bus.wstrb & 1 != 0 {
            out.arb_mask = Some(mask);
        }
    }
    // Step 8.2: the applied rate.
    if cfg.dcqcn_hw_en {
        rec.cc_rate = rec.rc & M24;
    }
    // Step 8.3 / 4.3: the wake check, on the credit of S(t).
    let c = m.credit(q);
    let rate = u64::from(rec.cc_rate.min(p.line_win()));
    let e = u64::from(scan.now.wrapping_sub(c.stamp));
    out.wake = i64::from(c.credit) + (rate * e) as i64 > 0;
    out.rec = rec;
    out.dcqcn = Some(d);
    out
}

/// The DFX event of a normal visit (spec-mq 5.9): a visit of `cfg_dfx_qp` with a rate event.
#[inline]
pub fn dfx_event(o: &VisitOut, cfg: &MqConfig) -> Option<DfxEvent> {
    let d = o.dcqcn?;
    if o.v != cfg.dfx_qp || !(d.dec || d.inc) {
        return None;
    }
    Some(DfxEvent {
        dec: d.dec,
        tf: d.tf,
        bf: d.bf,
        typ: event_type(d.dec, d.tf, d.phase),
        both: !d.dec && d.tf && d.bf,
        rc: o.rec.rc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p4() -> MqParams {
        MqParams::with_qps(4).unwrap()
    }

    #[test]
    fn decrease_example_8192_alpha_1023_shift_1_gives_4100() {
        let p = MqParams::DEFAULT;
        let cfg = MqConfig::reset(&p);
        let r = init_record(&cfg, p.line_win(), 0);
        assert_eq!((r.rc, r.alpha, r.merge_el), (8192, 1023, 0xFFFF));
        let d = dcqcn_visit(&r, true, true, 0, &cfg, &p);
        assert!(d.dec && !d.inc);
        assert_eq!(d.rec.rc, 4100);
        assert_eq!(d.rec.rt, 8192, "stages 0 and clamp_tgt 0 keep rt");
        assert!(d.rec.active);
        assert_eq!(d.rec.alpha, 1023, "a rise from 1023 at G = 4 gives 1023");
    }

    #[test]
    fn alpha_rise_and_decay_at_g_4() {
        let p = p4();
        let mut cfg = MqConfig::reset(&p);
        cfg.alpha_timer_th = 0;
        let mut r = init_record(&cfg, p.line_win(), 0);
        r.active = true;
        r.merge_el = 0;
        // Decay: active, no CNP, timer expired (threshold 0 fires at every visit).
        let d = dcqcn_visit(&r, false, false, 0, &cfg, &p);
        assert!(!d.dec);
        assert_eq!(d.rec.alpha, 1019);
        assert_eq!(d.rec.alpha_el, 0);
        // Rise from 1019: floor(1020 * 1019 / 1024) + 4 = 1015 + 4.
        let mut r2 = r;
        r2.alpha = 1019;
        r2.merge_el = 0xFFFF;
        let d = dcqcn_visit(&r2, true, false, 0, &cfg, &p);
        assert!(d.dec);
        assert_eq!(d.rec.alpha, 1015 + 4);
        // G = 0: alpha never changes.
        cfg.upd_alpha_g = 0;
        assert_eq!(dcqcn_visit(&r, false, false, 0, &cfg, &p).rec.alpha, 1023);
        assert_eq!(dcqcn_visit(&r2, true, false, 0, &cfg, &p).rec.alpha, 1019);
    }

    #[test]
    fn increase_in_fast_recovery_rounds_toward_the_target() {
        let p = p4();
        let mut cfg = MqConfig::reset(&p);
        cfg.nocnp_timer_th = 1;
        let mut r = init_record(&cfg, p.line_win(), 0);
        r.rc = 4100;
        r.active = true;
        let d = dcqcn_visit(&r, false, false, 0, &cfg, &p);
        assert!(d.inc && d.tf && !d.bf);
        assert_eq!(d.phase, Phase::FastRecovery);
        assert_eq!((d.rec.rc, d.rec.rt, d.rec.t_stage), (6146, 8192, 1));
        assert_eq!(event_type(false, true, d.phase), 0b101);
    }

    #[test]
    fn a_decrease_cancels_the_increase_and_restarts_the_triggers() {
        let p = p4();
        let mut cfg = MqConfig::reset(&p);
        cfg.nocnp_timer_th = 1;
        cfg.byte_cnt_th = 1;
        let mut r = init_record(&cfg, p.line_win(), 0);
        r.active = true;
        r.t_stage = 3;
        r.b_stage = 2;
        let d = dcqcn_visit(&r, true, false, 100, &cfg, &p);
        assert!(d.dec && !d.inc && d.tf && d.bf);
        assert_eq!(
            (d.rec.t_stage, d.rec.b_stage, d.rec.inc_el, d.rec.byte_cnt),
            (0, 0, 0, 0)
        );
        // The stages were non-zero: the target is clamped to rc.
        assert_eq!(d.rec.rt, 8192);
        r.rc = 5000;
        let d = dcqcn_visit(&r, true, false, 100, &cfg, &p);
        assert_eq!(d.rec.rt, 5000);
    }

    #[test]
    fn nonsense_values_of_section_7() {
        let p = p4();
        let mut cfg = MqConfig::reset(&p);
        let mut r = init_record(&cfg, p.line_win(), 0);
        r.active = true;
        // Shift 15: the cut is alpha / 2^25 of rc; shift 0: alpha / 1024.
        cfg.alpha_rate_shift = 15;
        assert_eq!(dcqcn_visit(&r, true, false, 0, &cfg, &p).rec.rc, 8192);
        cfg.alpha_rate_shift = 0;
        assert_eq!(
            dcqcn_visit(&r, true, false, 0, &cfg, &p).rec.rc,
            66,
            "8 is below rmin"
        );
        // rc - d below rmin: the floor; rate_min 0 acts as 1.
        cfg.rate_min = 0;
        r.rc = 1;
        assert_eq!(dcqcn_visit(&r, true, false, 0, &cfg, &p).rec.rc, 1);
        r.rc = 0;
        assert_eq!(dcqcn_visit(&r, true, false, 0, &cfg, &p).rec.rc, 1);
        // rate_ai near 2^24: a 25-bit sum clamped to rmax; F = 0: hyper from the first increase.
        let mut cfg = MqConfig::reset(&p);
        cfg.nocnp_timer_th = 1;
        cfg.rate_ai = M24;
        cfg.rate_hai = M24;
        cfg.stage_threshold = 0;
        let mut r = init_record(&cfg, p.line_win(), 0);
        r.active = true;
        r.rc = 100;
        r.rt = 200;
        let d = dcqcn_visit(&r, false, false, 0, &cfg, &p);
        assert_eq!(d.phase, Phase::Hyper);
        // Rounded toward the target: (100 + 8192 + 1) / 2.
        assert_eq!((d.rec.rt, d.rec.rc), (8192, 4146));
        // F = 255 and stages at 255: additive for ever.
        cfg.stage_threshold = 255;
        r.t_stage = 255;
        let d = dcqcn_visit(&r, false, false, 0, &cfg, &p);
        assert_eq!((d.phase, d.rec.t_stage), (Phase::Additive, 255));
        // rc and rt above LINE_WIN clamp to rmax at a visit with hw.
        r.rc = M24;
        r.rt = M24;
        r.active = false;
        let d = dcqcn_visit(&r, false, false, 0, &cfg, &p);
        assert_eq!((d.rec.rc, d.rec.rt), (8192, 8192));
        // Timers saturate, never wrap.
        r.cnp_el = M24;
        r.merge_el = 0xFFFF;
        r.inc_el = M24 - 1;
        r.active = true;
        cfg.nocnp_timer_th = M24;
        let d = dcqcn_visit(&r, false, false, 0, &cfg, &p);
        assert_eq!(d.rec.cnp_el, M24);
        assert!(d.tf, "inc_el saturates at the largest threshold");
        // A byte delta across the 2^32 wrap of `sent`.
        cfg.byte_cnt_th = 10;
        r.sent_seen = u32::MAX - 2;
        let d = dcqcn_visit(&r, false, false, 8, &cfg, &p);
        assert!(d.bf && d.tf);
        assert_eq!(event_type(false, d.tf, d.phase), 0b111);
    }

    #[test]
    fn frozen_when_hw_is_off_but_step_1_runs() {
        let p = p4();
        let mut cfg = MqConfig::reset(&p);
        cfg.dcqcn_hw_en = false;
        cfg.cnp_timer_thrd = 0;
        let mut r = init_record(&cfg, p.line_win(), 0);
        r.byte_cnt = 5;
        let d = dcqcn_visit(&r, true, true, 77, &cfg, &p);
        assert!(!d.dec && !d.inc && !d.lim_clr);
        let mut expect = r;
        expect.sent_seen = 77;
        expect.cnp_el = 0;
        assert_eq!(d.rec, expect);
        let d = dcqcn_visit(&r, false, true, 77, &cfg, &p);
        assert!(d.lim_clr);
        assert_eq!(d.rec.cnp_el, 4);
    }
}
