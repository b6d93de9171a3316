//! The multi-QP block against the vendor RDMA IP's published DCQCN formulas (issue 29: "each
//! seed-002 formula checked against an independent rendering of it", as tests/profiles checks the
//! published parameter sets).
//!
//! Each `vendor_*` function below renders one formula of the IP's documentation, as published,
//! in real numbers (`f64`, exact at these magnitudes): the rate cut
//! `current_rate · (1 − alpha / 2^(alpha_rate_shift + 10))`, the three increase averages, the
//! alpha EWMA in both directions, the rate as bytes allowed per 1024-cycle window, CNP merging
//! over the merge period and the outstanding limit that drops from 16 to 8 after a CNP until the
//! CNP timer threshold. None of them calls or mirrors the model: they know nothing of visits,
//! memories, truncation or our field widths. The block is then run through its ports (and, where
//! a formula needs a given state, from that state written into its memories: spec-mq 8.3) and its
//! result must be the formula's value under the rounding spec-mq 5.4 names for it.
//!
//! Time: the IP counts its periods in microseconds; the block counts cycles (spec-mq 10), so the
//! renderings here take their periods in cycles.

mod mq_common;

use dcqcn_model::mq::regmap as reg;
use dcqcn_model::mq::{MqInputs, QpEvent, Record};
use mq_common::{ev, Tb};

// ---------------------------------------------------------------------------------------------
// The published formulas, in real numbers.

/// Rate decrease: `current_rate * (1 - alpha / 2^(dcqcn_alpha_rate_shift + 10))`.
fn vendor_cut(rate: f64, alpha: f64, shift: u32) -> f64 {
    rate * (1.0 - alpha / f64::from(1u32 << (shift + 10)))
}

/// Fast recovery `(current + target) / 2`, additive `(current + target + ai) / 2`, hyper
/// `(current + target + hai) / 2`: `step` is 0, ai or hai.
fn vendor_increase(current: f64, target: f64, step: f64) -> f64 {
    (current + target + step) / 2.0
}

/// Alpha decay with no CNP for `alpha_timer_th`: `((1024 - g) * alpha) / 1024`.
fn vendor_alpha_decay(alpha: f64, g: f64) -> f64 {
    (1024.0 - g) * alpha / 1024.0
}

/// Alpha rise at a rate reduction: the DCQCN EWMA `(1 - g') alpha + g'` with `g' = g / 1024`,
/// alpha in units of 1/1024 (spec-mq 5.4 says why this, not the literal `+ g / 1024`).
fn vendor_alpha_rise(alpha: f64, g: f64) -> f64 {
    (1.0 - g / 1024.0) * alpha + g
}

/// "The rate is calculated based on the number of bytes allowed to pass through within the 1024
/// cycle time window": bytes a QP at `rate` may send in `cycles`.
fn vendor_window_bytes(rate: f64, cycles: f64) -> f64 {
    rate * cycles / 1024.0
}

/// "If a CNP is received once or multiple times within the merge period, the rate is reduced
/// only once": reductions for CNPs arriving without pause over `span` cycles.
fn vendor_merged_reductions(span: f64, period: f64) -> f64 {
    (span / period).ceil()
}

/// Max outstanding: 16, 8 after a CNP until the CNP timer reaches its threshold.
fn vendor_ost_limit(since_cnp: Option<f64>, thrd: f64) -> u32 {
    match since_cnp {
        Some(t) if t < thrd => 8,
        _ => 16,
    }
}

// ---------------------------------------------------------------------------------------------
// The block.

/// A seeded stream (xorshift) for the sampled inputs; the formulas are checked on every sample.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

const Q: u32 = 4;
const QP: usize = 1;

/// A block at QPS 4 past its init round with `fields` of the ALPHA_CFG word written.
fn block(alpha_g: u32, shift: u32) -> Tb {
    let mut tb = Tb::ready(Q);
    assert_eq!(
        tb.write(reg::ALPHA_CFG, alpha_g | (shift << 16) | (1023 << 20)),
        0
    );
    tb
}

/// Steps to QP's next visit and through it; returns its record after the visit.
fn visit(tb: &mut Tb, i: MqInputs) -> Record {
    let at = tb.visit_at_or_after(QP as u32, tb.cycle + 1);
    tb.idle_until(at - 1);
    tb.step(i);
    tb.step(MqInputs::default());
    tb.b.mems().record(QP)
}

fn rmax(tb: &Tb) -> u32 {
    tb.b.params().line_win()
}

#[test]
fn rate_cut_is_the_vendor_formula_rounded_up() {
    let mut d = Draw(0x5eed_0002);
    for _ in 0..300 {
        let shift = d.below(16) as u32;
        let mut tb = block(4, shift);
        let rmax = rmax(&tb);
        let rc = 1 + d.below(u64::from(rmax)) as u32;
        let alpha = d.below(1024) as u16;
        let mut r = tb.b.mems().record(QP);
        (r.rc, r.rt, r.alpha, r.active, r.merge_el) = (rc, rmax, alpha, true, 0xFFFF);
        tb.b.mems_mut().set_record(QP, &r);
        // a CNP for QP before its visit: the visit decreases at once (merge_el long ago)
        let at = tb.visit_at_or_after(QP as u32, tb.cycle + 2);
        tb.idle_until(at - 2);
        tb.step(MqInputs {
            cnp: ev(QP as u16, 0),
            ..MqInputs::default()
        });
        tb.step(MqInputs::default());
        tb.step(MqInputs::default());
        let after = tb.b.mems().record(QP);
        let published = vendor_cut(f64::from(rc), f64::from(alpha), shift);
        let rmin = 66; // the reset rate_min
        let want = (published.ceil() as u32).max(rmin).min(rmax);
        assert_eq!(
            after.rc, want,
            "rc {rc}, alpha {alpha}, shift {shift}: published {published}"
        );
        // the cut takes at most one unit more than the formula (rounding up: the rate stays
        // within the bytes the formula allows plus less than one)
        if want > rmin {
            assert!(f64::from(after.rc) - published < 1.0);
        }
    }
}

#[test]
fn increases_are_the_vendor_averages_rounded_toward_the_target() {
    let mut d = Draw(0x1ac_0002);
    for case in 0..300 {
        let mut tb = block(4, 1);
        let rmax = rmax(&tb);
        let (ai, hai) = (39.0, 79.0); // the reset rate_ai, rate_hai
        let rc = 66 + d.below(u64::from(rmax - 66)) as u32;
        // rt + hai <= max_rate: the published averages have no cap (the block caps the target
        // at max_rate, spec-mq 5.4 step 6, which this leaves out)
        let rc = rc.min(rmax - 79);
        let rt = rc + d.below(u64::from(rmax - 79 - rc) + 1) as u32;
        // stages before the increase for each phase (F = 5, the timer trigger alone: the stage
        // after it decides): 1 < F fast recovery; 5 = F additive; 6 > F hyper
        let (stage, step) = match case % 3 {
            0 => (0u8, 0.0),
            1 => (4, ai),
            _ => (5, hai),
        };
        let mut r = tb.b.mems().record(QP);
        (r.rc, r.rt, r.active, r.t_stage, r.b_stage) = (rc, rt, true, stage, stage);
        r.inc_el = 234_375; // the timer expires at this visit
        r.alpha_el = 0;
        tb.b.mems_mut().set_record(QP, &r);
        let after = visit(&mut tb, MqInputs::default());
        let published = vendor_increase(f64::from(rc), f64::from(rt), step);
        // rounded toward the target rt + step (so Rc reaches the target exactly)
        let target = f64::from(rt) + step;
        let want = if f64::from(rc) < target {
            published.ceil()
        } else {
            published.floor()
        };
        assert_eq!(
            f64::from(after.rc),
            want,
            "case {case}: rc {rc}, rt {rt}, stage {stage}: published {published}"
        );
        assert!((f64::from(after.rc) - published).abs() < 1.0);
    }
}

#[test]
fn alpha_follows_the_vendor_ewma_truncated() {
    let mut d = Draw(0xa1fa_0002);
    for _ in 0..300 {
        let g = d.below(1024) as u32;
        let alpha = d.below(1024) as u16;
        // decay: no CNP for alpha_timer_th
        let mut tb = block(g, 1);
        let mut r = tb.b.mems().record(QP);
        (r.alpha, r.active, r.alpha_el) = (alpha, true, 8594);
        (r.inc_el, r.merge_el) = (0, 0xFFFF);
        tb.b.mems_mut().set_record(QP, &r);
        let after = visit(&mut tb, MqInputs::default());
        let published = vendor_alpha_decay(f64::from(alpha), f64::from(g));
        assert_eq!(
            f64::from(after.alpha),
            published.floor(),
            "decay g {g} alpha {alpha}: published {published}"
        );
        // rise at a rate reduction
        let mut tb = block(g, 1);
        let mut r = tb.b.mems().record(QP);
        (r.alpha, r.active, r.merge_el) = (alpha, true, 0xFFFF);
        tb.b.mems_mut().set_record(QP, &r);
        let at = tb.visit_at_or_after(QP as u32, tb.cycle + 2);
        tb.idle_until(at - 2);
        tb.step(MqInputs {
            cnp: ev(QP as u16, 0),
            ..MqInputs::default()
        });
        tb.idle(2);
        let after = tb.b.mems().record(QP);
        let published = vendor_alpha_rise(f64::from(alpha), f64::from(g));
        assert_eq!(
            f64::from(after.alpha),
            published.floor(),
            "rise g {g} alpha {alpha}: published {published}"
        );
        assert!(after.alpha <= 1023);
    }
}

#[test]
fn a_qp_sends_its_rate_in_bytes_per_1024_cycle_window() {
    for (rate, unit) in [(100u32, 1500u16), (1000, 4096), (4100, 4096), (8192, 1024)] {
        let mut tb = Tb::ready(Q);
        // scheme 2 (spec-mq 5.7): DCQCN off, the applied rate is the one software writes; no
        // outstanding limit (reports are not modelled here)
        assert_eq!(tb.write(reg::ENABLES, 0b1010), 0);
        assert_eq!(tb.write(Tb::win(QP as u32, 0x28), rate), 0);
        // a backlog without end: 1 M cycles spend the initial credit (credit_cap), then 2 M
        // cycles are measured, with the bucket near empty at both ends
        let mut posted = false;
        let (mut start, mut first) = (0, 0);
        for k in 0..3_000_000u64 {
            if k == 1_000_000 {
                (start, first) = (tb.cycle, tb.grants.len());
            }
            let mut i = MqInputs::default();
            if !posted {
                i.req = QpEvent {
                    valid: true,
                    qp: QP as u16,
                    bytes: unit,
                };
                posted = true;
            }
            let before = tb.grants.len();
            tb.step(i);
            if tb.grants.len() > before {
                posted = false; // the send queue posts its next unit after the grant
            }
        }
        let sent: u64 = tb.grants[first..].iter().map(|g| u64::from(g.2)).sum();
        let published = vendor_window_bytes(f64::from(rate), (tb.cycle - start) as f64);
        // what the bucket holds at either end: a unit of credit and the refill of the wake's
        // lag (one visit period, spec-mq 4.3), twice
        let slack = 2.0 * (f64::from(unit) + f64::from(rate * Q) / 1024.0) + 1.0;
        assert!(
            (sent as f64 - published).abs() <= slack,
            "rate {rate}: sent {sent} bytes, published {published}, slack {slack}"
        );
    }
}

#[test]
fn cnps_within_a_merge_period_cut_the_rate_once() {
    for period in [4u32, 64, 625, 2000] {
        let mut tb = Tb::ready(Q);
        assert_eq!(tb.write(reg::CNP_MERGE_PERIOD, period), 0);
        let dec0 = tb.field("cnt_dec");
        // a CNP for QP in every cycle of `span` cycles
        let span = 20_000u64;
        for _ in 0..span {
            tb.step(MqInputs {
                cnp: ev(QP as u16, 0),
                ..MqInputs::default()
            });
        }
        tb.idle(u64::from(Q) + 1);
        let decs = (tb.field("cnt_dec") - dec0) as f64;
        // the block measures time in visits (steps of QPS cycles): a period is served as the
        // next multiple of QPS (spec-mq 5.4 step 2), so the count lies between the formula's
        // at that rounded period and at the exact one
        let rounded = f64::from(period.div_ceil(Q).max(1) * Q);
        let lo = vendor_merged_reductions(span as f64, rounded) - 1.0;
        let hi = vendor_merged_reductions(span as f64, f64::from(period)) + 1.0;
        assert!(
            decs >= lo && decs <= hi,
            "merge period {period}: {decs} cuts, published {lo}..{hi}"
        );
    }
}

#[test]
fn max_outstanding_drops_from_16_to_8_after_a_cnp_until_the_cnp_timer() {
    let mut tb = Tb::ready(Q);
    let thrd = 2_000u32;
    assert_eq!(tb.write(reg::CNP_TIMER_THRD, thrd), 0);
    // DCQCN off so that the CNP does not also cut the rate; the limit and the timer still work
    // (spec-mq 5.4 step 1 runs with hw = 0)
    assert_eq!(tb.write(reg::ENABLES, 0b1110), 0);
    let ost = |tb: &Tb| {
        let c = tb.b.mems();
        (c.grant_cnt_mem[QP].wrapping_sub(c.done_cnt_mem[QP])) as u32
    };
    // post requests without reports until the QP stops: the limit
    let fill = |tb: &mut Tb, cycles: u64| {
        for _ in 0..cycles {
            tb.step(MqInputs {
                req: ev(QP as u16, 64),
                ..MqInputs::default()
            });
        }
    };
    fill(&mut tb, 200);
    assert_eq!(ost(&tb), vendor_ost_limit(None, f64::from(thrd)));
    // report every grant back, then a CNP: from now on at most 8
    let n = ost(&tb);
    for _ in 0..n {
        tb.step(MqInputs {
            rpt: ev(QP as u16, 64),
            ..MqInputs::default()
        });
    }
    tb.idle(4);
    tb.step(MqInputs {
        cnp: ev(QP as u16, 0),
        ..MqInputs::default()
    });
    let cnp_at = tb.cycle;
    fill(&mut tb, 200);
    let since = (tb.cycle - cnp_at) as f64;
    assert_eq!(ost(&tb), vendor_ost_limit(Some(since), f64::from(thrd)));
    // past the CNP timer threshold (plus a visit period): 16 again
    tb.idle_until(cnp_at + u64::from(thrd) + 2 * u64::from(Q));
    fill(&mut tb, 200);
    let since = (tb.cycle - cnp_at) as f64;
    assert_eq!(ost(&tb), vendor_ost_limit(Some(since), f64::from(thrd)));
}
