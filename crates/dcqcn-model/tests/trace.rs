//! The event trace of spec 4.10 on the model, held against a recorder written here: every step's
//! events (`RateLimiter::events`) and the Rc after it, stamped with the number of armed cycles
//! before it. The trace's own code (`regs::Trace`) is not used to compute what is expected.

mod common;

use common::saturating;
use dcqcn_model::regmap;
use dcqcn_model::regs::{TraceEntry, TraceKind, TRACE_DEPTH};
use dcqcn_model::{AxilIn, Config, Inputs, Params, Phase, RateLimiter};

const P: Params = Params::DEFAULT;

/// Short periods so that a few thousand cycles hold well over 64 events of every kind: the timer
/// every 40 cycles, the byte counter every 300 bytes, F = 2, a 50-cycle cooldown.
fn busy() -> Config {
    Config {
        inc_interval: 40,
        byte_en: true,
        byte_threshold: 300,
        stage_threshold: 2,
        dec_interval: 50,
        alpha_interval: 30,
        ..Config::reset(&P)
    }
}

/// What the recorder saw: every event of the armed cycles, in order, as (kind, rc, stamp), with
/// the kind written out from the seed's table, and the per-type totals.
#[derive(Default)]
struct Recorder {
    armed_cycles: u32,
    events: Vec<(u8, u32, u32)>,
    n_dec: u16,
    n_byte: u16,
    n_timer: u16,
}

impl Recorder {
    /// Steps `m` once with `i` and records the cycle (the trace is armed in every cycle here).
    fn step(&mut self, m: &mut RateLimiter, i: &Inputs) {
        m.step(i);
        let e = *m.events();
        let kind = if e.dec_fire {
            Some(0b000)
        } else {
            e.inc.map(|ph| {
                let phase = match ph {
                    Phase::FastRecovery => 1,
                    Phase::Hyper => 2,
                    Phase::Additive => 3,
                };
                let timer = if e.timer_fire { 4 } else { 0 };
                let both = if e.timer_fire && e.byte_fire { 8 } else { 0 };
                both | timer | phase
            })
        };
        if let Some(k) = kind {
            self.events.push((k, m.state().rc, self.armed_cycles));
            self.n_dec += u16::from(e.dec_fire);
            self.n_byte += u16::from(e.inc.is_some() && e.byte_fire);
            self.n_timer += u16::from(e.inc.is_some() && e.timer_fire);
        }
        self.armed_cycles += 1;
    }

    /// `n` cycles of traffic with a CNP pulse of 3 cycles every `cnp_every` cycles.
    fn run(&mut self, m: &mut RateLimiter, n: u64, cnp_every: u64) {
        for c in 0..n {
            self.step(m, &saturating(c % cnp_every < 3));
        }
    }
}

fn entries(m: &RateLimiter) -> Vec<(u8, u32, u32)> {
    m.trace()
        .entries()
        .iter()
        .map(|e| (e.kind, e.rc, e.stamp))
        .collect()
}

fn armed(cfg: Config, wrap: bool) -> RateLimiter {
    let mut m = RateLimiter::new(P);
    m.set_config(Config {
        trace_en: true,
        trace_wrap: wrap,
        ..cfg
    });
    m
}

#[test]
fn stop_mode_keeps_the_first_64_events_and_counts_every_event() {
    let mut m = armed(busy(), false);
    let mut rec = Recorder::default();
    rec.run(&mut m, 6_000, 700);
    assert!(
        rec.events.len() > 2 * TRACE_DEPTH,
        "{} events",
        rec.events.len()
    );
    let t = m.trace();
    assert_eq!(entries(&m), rec.events[..TRACE_DEPTH].to_vec());
    assert_eq!((t.count, t.wptr, t.lost), (64, 0, true));
    assert_eq!(
        (t.n_dec, t.n_byte, t.n_timer),
        (rec.n_dec, rec.n_byte, rec.n_timer)
    );
    assert_eq!(t.time, rec.armed_cycles);
    // Every kind of the seed's table shows up in this run, and both triggers together.
    let kinds: std::collections::BTreeSet<u8> = rec.events.iter().map(|e| e.0).collect();
    for k in [0b000, 0b001, 0b010, 0b011, 0b101, 0b110, 0b111] {
        assert!(kinds.contains(&k), "kind {k:#05b} missing from {kinds:?}");
    }
    assert!(
        kinds.iter().any(|k| k & 0b1000 != 0),
        "no two-trigger increase in {kinds:?}"
    );
}

#[test]
fn wrap_mode_keeps_the_last_64_events() {
    let mut m = armed(busy(), true);
    let mut rec = Recorder::default();
    rec.run(&mut m, 6_000, 700);
    let n = rec.events.len();
    assert!(n > 2 * TRACE_DEPTH);
    assert_eq!(entries(&m), rec.events[n - TRACE_DEPTH..].to_vec());
    let t = m.trace();
    assert_eq!((t.count, usize::from(t.wptr), t.lost), (64, n % 64, true));
}

#[test]
fn a_window_not_yet_full_has_lost_nothing() {
    let mut m = armed(busy(), false);
    let mut rec = Recorder::default();
    rec.run(&mut m, 300, 700);
    let n = rec.events.len();
    assert!((1..TRACE_DEPTH).contains(&n), "{n} events");
    assert_eq!(entries(&m), rec.events);
    let t = m.trace();
    assert_eq!(
        (usize::from(t.count), usize::from(t.wptr), t.lost),
        (n, n, false)
    );
}

#[test]
fn disarmed_records_nothing_and_keeps_the_window() {
    let mut m = armed(busy(), false);
    let mut rec = Recorder::default();
    rec.run(&mut m, 300, 700);
    let before = *m.trace();
    m.set_config(busy());
    for c in 0..3_000 {
        m.step(&saturating(c % 700 < 3));
    }
    assert!(
        m.state().regs.cnt.cnt_dec > 2,
        "events happened while disarmed"
    );
    assert_eq!(*m.trace(), before);
}

/// One AXI4-Lite write, full strobes; steps until the response is taken. Traffic keeps flowing.
fn write(m: &mut RateLimiter, rec: &mut Recorder, addr: u16, wdata: u32) {
    let mut i = saturating(false);
    i.axil = AxilIn {
        awaddr: addr,
        awvalid: true,
        wdata,
        wstrb: 0xF,
        wvalid: true,
        bready: true,
        ..AxilIn::default()
    };
    rec.step(m, &i);
    let mut done = saturating(false);
    done.axil.bready = true;
    rec.step(m, &done);
}

/// One AXI4-Lite read; returns (data, resp).
fn read(m: &mut RateLimiter, rec: &mut Recorder, addr: u16) -> (u32, u8) {
    let mut i = saturating(false);
    i.axil = AxilIn {
        araddr: addr,
        arvalid: true,
        rready: true,
        ..AxilIn::default()
    };
    rec.step(m, &i);
    let s = m.state().regs.axil;
    assert!(s.rvalid);
    let mut done = saturating(false);
    done.axil.rready = true;
    rec.step(m, &done);
    (s.rdata, s.rresp)
}

#[test]
fn every_entry_reads_back_through_the_bus_oldest_first() {
    let mut m = armed(busy(), true);
    let mut rec = Recorder::default();
    rec.run(&mut m, 4_000, 700);
    // Disarm through the bus so that the window holds still while it is read.
    write(&mut m, &mut rec, regmap::TRACE_CTRL, 0);
    let window = m.trace().entries();
    assert_eq!(window.len(), TRACE_DEPTH);
    let (status, _) = read(&mut m, &mut rec, regmap::TRACE_STATUS);
    assert_eq!(status & 0x7F, 64);
    for (k, e) in window.iter().enumerate() {
        write(&mut m, &mut rec, regmap::TRACE_SEL, k as u32);
        let ty = read(&mut m, &mut rec, regmap::TRACE_ENTRY);
        let rc = read(&mut m, &mut rec, regmap::TRACE_RC);
        let st = read(&mut m, &mut rec, regmap::TRACE_STAMP);
        assert_eq!(ty, (1 << 8 | u32::from(e.kind), regmap::RESP_OKAY), "k={k}");
        assert_eq!((rc.0, st.0), (e.rc, e.stamp), "k={k}");
    }
    // Stamps rise through the window.
    assert!(window.windows(2).all(|w| w[0].stamp < w[1].stamp));
}

#[test]
fn entries_beyond_the_count_read_zero() {
    let mut m = armed(busy(), false);
    let mut rec = Recorder::default();
    rec.run(&mut m, 200, 700);
    write(&mut m, &mut rec, regmap::TRACE_CTRL, 0);
    let n = m.trace().count;
    assert!(n > 0 && n < 63);
    write(&mut m, &mut rec, regmap::TRACE_SEL, u32::from(n));
    for a in [regmap::TRACE_ENTRY, regmap::TRACE_RC, regmap::TRACE_STAMP] {
        assert_eq!(read(&mut m, &mut rec, a), (0, regmap::RESP_OKAY));
    }
    // The selector is 6 bits: 0x7F selects 63.
    write(&mut m, &mut rec, regmap::TRACE_SEL, 0x7F);
    assert_eq!(read(&mut m, &mut rec, regmap::TRACE_SEL).0, 63);
}

#[test]
fn clear_empties_the_window_and_keeps_it_armed() {
    let mut m = armed(busy(), false);
    let mut rec = Recorder::default();
    rec.run(&mut m, 6_000, 700);
    assert!(m.trace().lost);
    // Clear (bit 8) with en = 1 written alongside: the window restarts at stamp 0.
    write(&mut m, &mut rec, regmap::TRACE_CTRL, 1 << 8 | 1);
    let t = m.trace();
    assert!(!t.lost && t.count <= 1, "count {} after the clear", t.count);
    assert!(t.time <= 1);
    let (w, _) = read(&mut m, &mut rec, regmap::TRACE_CTRL);
    assert_eq!(w, 1, "the clear bit reads 0, the trace stays armed");
}

/// A clear wins over an event in the same cycle: the event is neither recorded nor counted.
#[test]
fn clear_wins_over_a_same_cycle_event() {
    let cfg = busy();
    let mut probe = armed(cfg, false);
    // Find the first cycle with an event.
    let mut first = None;
    for c in 0..1_000u64 {
        probe.step(&saturating(c < 3));
        let e = probe.events();
        if e.dec_fire || e.inc.is_some() {
            first = Some(c);
            break;
        }
    }
    let first = first.expect("an event in 1,000 cycles");
    let mut m = armed(cfg, false);
    for c in 0..first {
        m.step(&saturating(c < 3));
    }
    let mut i = saturating(first < 3);
    i.axil = AxilIn {
        awaddr: regmap::TRACE_CTRL,
        awvalid: true,
        wdata: 1 << 8 | 1,
        wstrb: 0xF,
        wvalid: true,
        bready: true,
        ..AxilIn::default()
    };
    m.step(&i);
    let e = m.events();
    assert!(e.dec_fire || e.inc.is_some(), "the event cycle");
    let t = m.trace();
    assert_eq!(
        (t.count, t.n_dec, t.n_byte, t.n_timer, t.time),
        (0, 0, 0, 0, 0)
    );
}

#[test]
fn time_saturates_and_counts_saturate() {
    let mut m = armed(busy(), true);
    {
        let t = &mut m.state_mut().regs.trace;
        t.time = u32::MAX - 2;
        t.n_dec = 1022;
        t.n_byte = 1023;
        t.n_timer = 1023;
    }
    for c in 0..3_000 {
        m.step(&saturating(c % 700 < 3));
    }
    let t = m.trace();
    assert_eq!(t.time, u32::MAX);
    assert_eq!((t.n_dec, t.n_byte, t.n_timer), (1023, 1023, 1023));
    assert_eq!(
        t.last().stamp,
        u32::MAX,
        "later events carry the saturated stamp"
    );
}

/// The closed-form skip and the quiet fast path advance an armed trace's time as stepping does.
#[test]
fn quiet_cycles_advance_the_time_on_every_path() {
    let idle = Inputs {
        m_axis_tready: true,
        ..Inputs::default()
    };
    let mut a = armed(Config::reset(&P), false);
    let mut b = armed(Config::reset(&P), false);
    b.set_fast_path(false);
    for _ in 0..10_000 {
        a.step(&idle);
        b.step(&idle);
    }
    assert_eq!(a.state(), b.state());
    assert_eq!(a.trace().time, 10_000);
}

#[test]
fn kinds_decode_as_the_seed_table() {
    let e = |dec, inc, timer, byte| TraceEntry::of_event(dec, inc, timer, byte, 0, 0).kind;
    assert_eq!(e(true, None, false, false), 0b000);
    assert_eq!(e(false, Some(Phase::FastRecovery), false, true), 0b001);
    assert_eq!(e(false, Some(Phase::Hyper), false, true), 0b010);
    assert_eq!(e(false, Some(Phase::Additive), false, true), 0b011);
    assert_eq!(e(false, Some(Phase::FastRecovery), true, false), 0b101);
    assert_eq!(e(false, Some(Phase::Hyper), true, false), 0b110);
    assert_eq!(e(false, Some(Phase::Additive), true, false), 0b111);
    assert_eq!(e(false, Some(Phase::Additive), true, true), 0b1111);
    let d = |kind| {
        TraceEntry {
            kind,
            rc: 0,
            stamp: 0,
        }
        .decode()
        .to_string()
    };
    assert_eq!(d(0), "decrease");
    assert_eq!(d(0b110), "increase/timer/hyper");
    assert_eq!(d(0b1101), "increase/timer+byte/fast-recovery");
    assert_eq!(d(0b011), "increase/byte/additive");
    assert_eq!(d(0b100), "code 0b0100");
    assert!(matches!(
        TraceEntry {
            kind: 0b1001,
            rc: 0,
            stamp: 0
        }
        .decode(),
        TraceKind::Other(9)
    ));
}
