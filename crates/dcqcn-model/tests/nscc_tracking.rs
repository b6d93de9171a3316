//! The fixed-point NSCC rules (docs/spec-nscc.md 6, `nscc::fixed`) against the floating-point
//! rendering of the published algorithm (`nscc::reference`), spec-nscc 11.
//!
//! Both run on the same random event streams: sends gated by each side's own window, ACKs with
//! newly received bytes, ECN marks, RTT samples, receiver penalties and restore flags, trimmed
//! and other NACKs, inferred losses. The reference runs in cycles (one "second" is one cycle)
//! with every constant taken from the fixed-point registers, so the two differ only where the
//! spec's arithmetic rounds. Two properties:
//!
//! - **one event from a common state**: before each event the reference is set to the fixed
//!   point's state; after it, both took the same rule and the windows differ by at most the
//!   rounding the spec states;
//! - **long streams, no re-synchronisation**: the windows stay within the bound spec-nscc 11
//!   states after every event.

use dcqcn_model::nscc::fixed::{self, Event, EventKind, NsccFlow, NsccRegs};
use dcqcn_model::nscc::reference::{
    Ack, AckCase, AckOutcome, NackReason, NsccFlowF64, NsccParams, NsccStateF64,
};
use proptest::prelude::*;

/// A network for the streams: the registers, and `LINE_WIN` (bytes per 1024 cycles).
#[derive(Debug, Clone, Copy)]
struct Net {
    regs: NsccRegs,
    line_win: u32,
}

/// 10 Gb/s at 156.25 MHz, 12 µs (the reset values); 100 Gb/s at 1 GHz, 6 µs; 400 Gb/s at
/// 1 GHz, 4 µs, no trimming (quick adapt on delay).
fn nets() -> Vec<Net> {
    let mk = |clk: f64, link: f64, rtt: f64, trim: bool| Net {
        regs: NsccRegs::derive(clk, link, rtt, 4096, trim).unwrap(),
        line_win: (link * 1024.0 / clk).floor() as u32,
    };
    vec![
        mk(156.25e6, 1.25e9, 12e-6, true),
        mk(1e9, 12.5e9, 6e-6, true),
        mk(1e9, 50e9, 4e-6, false),
    ]
}

/// The reference's parameters in cycles, every constant from the registers.
fn reference_params(n: &Net) -> NsccParams {
    let r = &n.regs;
    let mut p = NsccParams::new(100e9, 6e-6).unwrap();
    p.mtu = f64::from(r.mtu_eff());
    p.link_bytes_per_s = f64::from(n.line_win) / 1024.0;
    p.config_base_rtt = f64::from(r.base_rtt.max(1));
    p.bdp = p.link_bytes_per_s * p.config_base_rtt;
    p.max_wnd = f64::from(r.max_wnd);
    p.target_qdelay = f64::from(r.target);
    p.alpha = f64::from(r.alpha) / 65536.0;
    p.fi = f64::from(r.fi);
    p.fi_scale = f64::from(r.fi_scale) / 65536.0;
    p.eta = f64::from(r.eta) / 256.0;
    p.gamma = f64::from(r.gamma.min(256)) / 256.0;
    p.max_md_jump = 0.5;
    p.qa_gate = r.qa_gate;
    p.qa_threshold = if r.qa_delay == 0 {
        f64::INFINITY
    } else {
        f64::from(r.qa_delay)
    };
    p.disable_quick_adapt = !r.qa_en;
    p.adjust_bytes_threshold = f64::from(r.adjust_bytes);
    p.adjust_period_threshold = f64::from(r.adjust_period);
    p.fast_increase_delay = f64::from(r.fi_delay);
    p.delay_ewma = 0.5f64.powi(r.ewma_shift as i32);
    p.htsim_delay_substitution = false;
    p
}

/// The reference's state equal to the fixed point's (the streams stay below 2^26 cycles, so no
/// stamp is clamped and `now` does not wrap).
fn to_reference(f: &NsccFlow, gbytes: u32, r: &NsccRegs) -> NsccStateF64 {
    let q8 = |x: u32| f64::from(x) / 256.0;
    NsccStateF64 {
        cwnd: q8(f.cwnd),
        inflight: f64::from(f.inflight(gbytes)),
        saved_cwnd: q8(f.saved),
        base_rtt: f64::from(f.base_rtt),
        achieved_bytes: f64::from(f.achieved),
        received_bytes: f64::from(f.received),
        fi_count: f64::from(f.fi_count),
        trigger_qa: f.trigger_qa,
        qa_endtime: if f.qa_armed {
            f64::from(f.t_qa) + f64::from(f.base_rtt) + f64::from(r.target)
        } else {
            0.0
        },
        bytes_to_ignore: f64::from(f.to_ignore),
        bytes_ignored: f64::from(f.ignored),
        inc_bytes: f.inc as f64,
        last_adjust_time: f64::from(f.t_adj),
        increase: f.increase,
        last_dec_time: f64::from(f.t_dec),
        max_wnd: f64::from(f.max_wnd),
        avg_delay: q8(f.avg),
    }
}

/// One event of a stream.
#[derive(Debug, Clone)]
enum Ev {
    /// Up to this many MTU packets, each sent if the window allows it.
    Send(u32),
    /// `dt` cycles later, an ACK; `delay` is the sample's queueing part (the RTT is base RTT +
    /// delay), `None` for an invalid sample.
    Ack {
        dt: u32,
        bytes: u32,
        ecn: bool,
        delay: Option<u32>,
        pend: u8,
        rc: bool,
    },
    /// `dt` cycles later, a NACK (1 trimmed, 2 other) or a loss (3) of one MTU.
    Nack { dt: u32, kind: u8 },
}

/// Delays in units of the target: near zero (fast increase), below, around and above target, and
/// far above it (the average then passes 2.7 × target, where a decrease is capped at one half).
fn delay(target: u32) -> impl Strategy<Value = u32> {
    let t = target.max(1);
    prop_oneof![
        3 => 0u32..=(t / 8).max(1),
        3 => 0u32..t,
        2 => (t - t / 8)..(t + t / 8),
        3 => t..3 * t,
        2 => 3 * t..10 * t,
    ]
}

fn event(n: Net) -> impl Strategy<Value = Ev> {
    let mtu = n.regs.mtu_eff();
    let dt_max = n.regs.base_rtt / 2;
    prop_oneof![
        4 => (1u32..8).prop_map(Ev::Send),
        10 => (
            0..=dt_max,
            prop_oneof![4 => Just(mtu), 1 => 256u32..4 * mtu],
            any::<bool>(),
            prop_oneof![12 => delay(n.regs.target).prop_map(Some), 1 => Just(None)],
            prop_oneof![12 => Just(0u8), 1 => 1u8..=127],
            prop_oneof![6 => Just(false), 1 => Just(true)],
        )
            .prop_map(|(dt, bytes, ecn, delay, pend, rc)| Ev::Ack {
                dt,
                bytes,
                ecn,
                delay,
                pend,
                rc,
            }),
        1 => (0..=dt_max, 1u8..=3).prop_map(|(dt, kind)| Ev::Nack { dt, kind }),
    ]
}

/// One of the networks and a stream of up to `max_len` − 1 events on it.
fn stream(max_len: usize) -> impl Strategy<Value = (Net, Vec<Ev>)> {
    (0usize..3).prop_flat_map(move |w| {
        let net = nets()[w];
        (Just(net), prop::collection::vec(event(net), 1..max_len))
    })
}

/// Both sides of one flow.
struct Pair {
    net: Net,
    p: NsccParams,
    fx: NsccFlow,
    /// The fixed point's granted bytes (its inflight is `gbytes − abytes`).
    gbytes: u32,
    fl: NsccFlowF64,
    now: u32,
}

/// What one event did on each side.
struct Step {
    fx: AckOutcome,
    fl: AckOutcome,
}

impl Pair {
    fn new(net: Net) -> Pair {
        let p = reference_params(&net);
        let fx = NsccFlow::init(&net.regs, 0);
        let fl = NsccFlowF64::from_state(p, to_reference(&fx, 0, &net.regs));
        Pair {
            net,
            p,
            fx,
            gbytes: 0,
            fl,
            now: 0,
        }
    }

    /// Sets the reference to the fixed point's state.
    fn sync(&mut self) {
        self.fl =
            NsccFlowF64::from_state(self.p, to_reference(&self.fx, self.gbytes, &self.net.regs));
    }

    fn run(&mut self, ev: &Ev) -> Step {
        let r = self.net.regs;
        let mtu = r.mtu_eff();
        let mut step = Step {
            fx: AckOutcome::default(),
            fl: AckOutcome::default(),
        };
        let fire = |pair: &mut Pair, fev: Event| {
            let (next, out) = fixed::execute(
                &pair.fx,
                pair.gbytes,
                false,
                pair.now,
                &fev,
                &r,
                pair.net.line_win,
            );
            pair.fx = next;
            out
        };
        match *ev {
            Ev::Send(k) => {
                // The fixed point's send rule decides for both, so that both see the same
                // inflight; `one_event_from_a_common_state` holds the two send rules to each
                // other.
                for _ in 0..k {
                    if fixed::win_ok(self.gbytes, self.fx.abytes, self.fx.cwnd, mtu) {
                        self.gbytes = self.gbytes.wrapping_add(mtu);
                        self.fl.on_send(f64::from(mtu)).unwrap();
                    }
                }
            }
            Ev::Ack {
                dt,
                bytes,
                ecn,
                delay,
                pend,
                rc,
            } => {
                self.now += dt;
                let rtt = delay.map(|d| r.base_rtt + d);
                step.fx = fire(
                    self,
                    Event {
                        kind: EventKind::Ack,
                        bytes,
                        ecn,
                        rtt,
                        pend,
                        rc,
                    },
                );
                step.fl = self
                    .fl
                    .on_ack(&Ack {
                        now_s: f64::from(self.now),
                        newly_rcvd_bytes: f64::from(bytes),
                        ecn,
                        rtt_s: rtt.map(f64::from),
                        rcv_cwnd_pend: pend,
                        restore_cwnd: rc,
                    })
                    .unwrap();
            }
            Ev::Nack { dt, kind } => {
                self.now += dt;
                let kind = EventKind::from_code(kind).unwrap();
                fire(
                    self,
                    Event {
                        kind,
                        bytes: mtu,
                        ecn: false,
                        rtt: None,
                        pend: 0,
                        rc: false,
                    },
                );
                let now = f64::from(self.now);
                let bytes = f64::from(mtu);
                match kind {
                    EventKind::TrimmedNack => self
                        .fl
                        .on_nack(now, bytes, None, NackReason::Trimmed, false)
                        .unwrap(),
                    EventKind::OtherNack => self
                        .fl
                        .on_nack(now, bytes, None, NackReason::Other, false)
                        .unwrap(),
                    _ => self.fl.on_inferred_loss(bytes).unwrap(),
                }
            }
        }
        step
    }

    fn cwnd_fx(&self) -> f64 {
        f64::from(self.fx.cwnd) / 256.0
    }
}

/// Whether the rules the two sides took may differ on this event: only where a decision
/// compares a rounded quantity with a threshold (spec-nscc 11). `before` is the reference's state
/// before the event (equal to the fixed point's up to rounding).
fn boundary(
    a: &AckOutcome,
    b: &AckOutcome,
    before: &NsccStateF64,
    after: &NsccStateF64,
    target: f64,
) -> bool {
    let mut a = *a;
    match (a.case, b.case) {
        // The decrease gate compares the delay average with the target.
        (
            Some(AckCase::MultiplicativeDecrease { applied: x }),
            Some(AckCase::MultiplicativeDecrease { applied: y }),
        ) if x != y => {
            if (after.avg_delay - target).abs() > 1.0 {
                return false;
            }
            a.case = b.case;
        }
        // Fast increase compares the bytes seen at low delay with the window.
        (Some(AckCase::FastIncrease), Some(AckCase::ProportionalIncrease))
        | (Some(AckCase::ProportionalIncrease), Some(AckCase::FastIncrease)) => {
            // The window the count is compared with: the restored one if the ACK restored it.
            let w = if b.restored {
                before.saved_cwnd
            } else {
                before.cwnd
            };
            if before.increase || (after.fi_count - w).abs() > w / 100.0 {
                return false;
            }
            a.case = b.case;
        }
        _ => {}
    }
    // The adjustment's byte test reads the same integers; its decision must then agree.
    a == *b
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// From a common state, one event: the same rule, and windows within the rounding of
    /// spec-nscc 11: the reciprocal's 1/256 of a quotient, which is at most the window's ceiling,
    /// plus 2 bytes.
    #[test]
    fn one_event_from_a_common_state(
        (net, events) in stream(400),
    ) {
        let mut pair = Pair::new(net);
        for ev in &events {
            pair.sync();
            let before = pair.cwnd_fx();
            let step = pair.run(ev);
            prop_assert_eq!(step.fx, step.fl,
                "rules differ on {:?}: fixed {:?}, reference {:?}", ev, step.fx, step.fl);
            let (a, b) = (pair.cwnd_fx(), pair.fl.cwnd());
            let bound = f64::from(pair.fx.max_wnd.max(net.regs.mtu_eff())) / 256.0 + 2.0;
            prop_assert!((a - b).abs() <= bound,
                "cwnd fixed {} vs reference {} after {:?} (from {})", a, b, ev, before);
        }
    }

    /// Long streams without re-synchronisation: after every event the windows differ by at most
    /// 1 % of MaxWnd plus 2 bytes (spec-nscc 11). Where a decision compares a
    /// rounded quantity with its threshold and the two sides fall on either side of it (the
    /// decrease gate with the average within a cycle of the target, fast increase with the byte
    /// count within 1 % of the window), the sides may take different rules; the reference is then
    /// set to the fixed point's state and the stream goes on. Any other difference of rule fails.
    #[test]
    fn long_streams_track_the_reference(
        (net, events) in stream(2000),
    ) {
        let mut pair = Pair::new(net);
        for (k, ev) in events.iter().enumerate() {
            let before = *pair.fl.state();
            let step = pair.run(ev);
            if step.fx != step.fl {
                let t = f64::from(net.regs.target);
                prop_assert!(boundary(&step.fx, &step.fl, &before, pair.fl.state(), t),
                    "event {}: rules differ away from a threshold on {:?}: fixed {:?}, reference {:?}",
                    k, ev, step.fx, step.fl);
                pair.sync();
                continue;
            }
            let (a, b) = (pair.cwnd_fx(), pair.fl.cwnd());
            let maxw = f64::from(net.regs.max_wnd.max(net.regs.mtu_eff()));
            prop_assert!((a - b).abs() <= maxw / 100.0 + 2.0,
                "event {}: cwnd fixed {} vs reference {} after {:?}", k, a, b, ev);
        }
    }
}
