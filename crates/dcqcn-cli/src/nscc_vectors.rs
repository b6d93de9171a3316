//! `dcqcn nscc-vectors`: random (input, expected output) vectors of the NSCC ACK process's
//! execution of one event (docs/spec-nscc.md 5, 6; `dcqcn_model::nscc::fixed::execute`), plus the
//! send test (4.2) and the init record (7), for the HDL testbenches of `nscc_mq_ack_exec`
//! (verilator/nscc_ack/, testbench/vhdl/nscc_ack/; `make nscc-ack-check`).
//!
//! The draws lean on the edges: windows at one MTU and at the ceiling, counters near saturation,
//! `inc` near 2^40, stamps aged near `AGE_MAX` and 2^31, delays around the target, `fi_delay` and
//! `qa_delay`, registers at their limits (gamma above 256, ewma_shift 0 and 15, mtu 0, base_rtt 0).

use dcqcn_model::nscc::fixed::{
    execute, win_ok, Event, EventKind, NsccFlow, NsccRegs, AGE_MAX, INC_MAX,
};
use dcqcn_model::nscc::reference::{AckCase, AckOutcome};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The file's header: the format, one line per field group.
const HEADER: &str = "\
# NSCC ACK-process vectors (docs/spec-nscc.md 5, 6; model: dcqcn_model::nscc::fixed::execute)
# Written by `dcqcn nscc-vectors`; read by verilator/nscc_ack/ and testbench/vhdl/nscc_ack/.
# Lines starting with '#' are comments. The line `line_win N` (decimal) gives LINE_WIN.
# Every other line is one vector: 92 fields, lower-case hex without prefix, one space apart:
#   in  flow (18): cwnd abytes saved base_rtt max_wnd avg achieved received fi_count inc
#                  to_ignore ignored increase trigger_qa qa_armed t_adj t_dec t_qa
#   in  (4): gbytes old now cc_en
#   in  event (7): kind bytes ecn rtt_valid rtt pend rc
#   in  regs (17): base_rtt target mtu max_wnd init_cwnd fi alpha fi_scale eta adjust_period
#                  adjust_bytes gamma ewma_shift qa_gate qa_en fi_delay qa_delay
#   out flow (18): as the input flow, the record execute() writes
#   out outcome (9): penalty restored rtt_valid qa_fired qa_ignored rcase md_applied adjusted
#                    eta_added; rcase 0 none, 1 fair, 2 proportional, 3 fast, 4 decrease,
#                    5 hold, 6 receiver-limited
#   out (1): win_ok(gbytes, abytes', cwnd', max(mtu, 1)) of the written record (spec-nscc 4.2)
#   out init (18): the init record NsccFlow::init(regs, now) (spec-nscc 7), as the flow fields
";

/// The fields of one line.
const FIELDS: usize = 92;

/// The draws, on the project's deterministic stream (`dcqcn_harness::rng`): a vector set is a
/// function of its seed.
struct Rng(dcqcn_harness::rng::Rng);

impl Rng {
    /// The stream of `seed` (stream number 0x05CC: NSCC's vectors).
    fn new(seed: u64) -> Rng {
        Rng(dcqcn_harness::rng::Rng::new(seed, 0x05CC))
    }

    /// Uniform in 0..n (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.0.range(0, n - 1)
    }

    /// True with probability 1/n.
    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// A uniform value of `bits` bits.
    fn bits(&mut self, bits: u32) -> u64 {
        let max = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        self.0.range(0, max)
    }

    /// Half the time a uniform value of `bits` bits, else one of `edges` moved by -2..=2, both
    /// clamped to the width.
    fn edge(&mut self, bits: u32, edges: &[u64]) -> u64 {
        let max = (1u64 << bits) - 1;
        if edges.is_empty() || self.one_in(2) {
            return self.bits(bits);
        }
        let e = edges[self.below(edges.len() as u64) as usize];
        let off = self.below(5) as i64 - 2;
        (e as i64).saturating_add(off).clamp(0, max as i64) as u64
    }
}

/// A register set: half the time near the reset values, else every field at a random value of
/// its width, with the edges of spec-nscc 9 drawn often.
fn draw_regs(g: &mut Rng) -> NsccRegs {
    let d = NsccRegs::default();
    let mut r = if g.one_in(2) {
        d
    } else {
        NsccRegs {
            base_rtt: g.edge(24, &[0, 1, 1875, 0xFF_FFFF]) as u32,
            target: g.edge(24, &[0, 1406, 0xFF_FFFF]) as u32,
            mtu: g.edge(16, &[0, 1, 4096, 0xFFFF]) as u32,
            max_wnd: g.edge(24, &[0, 1, 4096, 22_500, 0xFF_FFFF]) as u32,
            init_cwnd: g.edge(24, &[0, 1, 4096, 0xFF_FFFF]) as u32,
            fi: g.edge(20, &[0, 2048, 0xF_FFFF]) as u32,
            alpha: g.edge(32, &[0, 57_266, 0xFFFF_FFFF]) as u32,
            fi_scale: g.edge(24, &[0, 1638, 0xFF_FFFF]) as u32,
            eta: g.edge(24, &[0, 15_729, 0xFF_FFFF]) as u32,
            adjust_period: g.edge(24, &[0, 1875, 0xFF_FFFF]) as u32,
            adjust_bytes: g.edge(24, &[0, 32_768, 0xFF_FFFF]) as u32,
            gamma: g.edge(9, &[0, 205, 256, 257, 511]) as u32,
            ewma_shift: g.edge(4, &[0, 6, 15]) as u32,
            qa_gate: g.edge(4, &[0, 3, 15]) as u32,
            qa_en: !g.one_in(4),
            fi_delay: g.edge(16, &[0, 156, 0xFFFF]) as u32,
            qa_delay: g.edge(24, &[0, 1, 5000, 0xFF_FFFF]) as u32,
            cc_en: true,
        }
    };
    // single edges on top of the reset values too
    match g.below(8) {
        0 => r.mtu = 0,
        1 => r.base_rtt = 0,
        2 => r.gamma = 257 + g.below(255) as u32,
        3 => r.ewma_shift = if g.one_in(2) { 0 } else { 15 },
        4 => r.qa_delay = g.edge(24, &[1, 100, 1000]) as u32,
        5 => r.adjust_period = 0,
        _ => {}
    }
    r.cc_en = !g.one_in(8);
    r
}

/// A flow record of the widths of spec-nscc 4.3, leaning on the edges, at `now`.
fn draw_flow(g: &mut Rng, r: &NsccRegs, now: u32) -> NsccFlow {
    let mtu = u64::from(r.mtu_eff());
    let maxw = u64::from(r.max_wnd).max(mtu);
    let sat32 = [0, 1, 0xFFFF_FFFF, 0xFFFF_FF00, 4096, maxw >> r.qa_gate];
    if g.one_in(8) {
        // a fresh flow (spec-nscc 7) with something acknowledged
        return NsccFlow {
            abytes: g.bits(32) as u32,
            ..NsccFlow::init(r, now)
        };
    }
    let base_rtt = g.edge(24, &[0, 1, u64::from(r.base_rtt), 0xFF_FFFF]) as u32;
    // a stamp aged near a threshold of 6.2, AGE_MAX, 2^31, or anywhere
    let stamp = |g: &mut Rng| -> u32 {
        let ages = [
            0,
            u64::from(AGE_MAX),
            1 << 31,
            u64::from(r.adjust_period),
            u64::from(base_rtt),
            u64::from(base_rtt) + u64::from(r.target),
            0xFFFF_FFFF,
        ];
        now.wrapping_sub(g.edge(32, &ages) as u32)
    };
    NsccFlow {
        cwnd: g.edge(32, &[mtu << 8, maxw << 8, 0, 1, 0xFFFF_FFFF, 0x00FF_FFFF]) as u32,
        abytes: g.bits(32) as u32,
        saved: if g.one_in(2) { 0 } else { g.bits(32) as u32 },
        base_rtt,
        max_wnd: g.edge(24, &[0, mtu, u64::from(r.max_wnd), 0xFF_FFFF]) as u32,
        avg: g.edge(
            32,
            &[0, u64::from(r.target) << 8, 0xFFFF_FFFF, 0xFF_FFFF << 8],
        ) as u32,
        achieved: g.edge(32, &sat32) as u32,
        received: g.edge(32, &[0, 0xFFFF_FFFF, u64::from(r.adjust_bytes)]) as u32,
        fi_count: g.edge(32, &sat32) as u32,
        inc: g.edge(40, &[0, INC_MAX, INC_MAX - 0xFFFF, 1 << 39]),
        to_ignore: g.edge(32, &sat32) as u32,
        ignored: g.edge(32, &sat32) as u32,
        increase: g.one_in(2),
        trigger_qa: g.one_in(2),
        qa_armed: !g.one_in(4),
        t_adj: stamp(g),
        t_dec: stamp(g),
        t_qa: stamp(g),
    }
}

/// An event of the port's widths; every kind, pend 0/1/127, delays around the thresholds.
fn draw_event(g: &mut Rng, r: &NsccRegs, f: &NsccFlow) -> Event {
    let kind = match g.below(8) {
        0 => EventKind::TrimmedNack,
        1 => EventKind::OtherNack,
        2 => EventKind::Loss,
        _ => EventKind::Ack,
    };
    let b = u64::from(f.base_rtt.min(r.base_rtt.max(1)));
    let rtt = g.edge(
        24,
        &[
            0,
            b,
            u64::from(f.base_rtt),
            u64::from(f.base_rtt) + u64::from(r.target),
            u64::from(f.base_rtt) + u64::from(r.fi_delay),
            u64::from(f.base_rtt) + u64::from(r.qa_delay),
            0xFF_FFFF,
        ],
    ) as u32;
    Event {
        kind,
        bytes: g.edge(24, &[0, 1, u64::from(r.mtu_eff()), 0xFF_FFFF]) as u32,
        ecn: g.one_in(2),
        rtt: if g.one_in(4) { None } else { Some(rtt) },
        pend: match g.below(6) {
            0 => 1,
            1 => 127,
            2 => g.bits(7) as u8,
            _ => 0,
        },
        rc: g.one_in(2),
    }
}

/// The old bit and the time: `now` anywhere, near 0 and near the wrap.
fn draw_now(g: &mut Rng) -> u32 {
    g.edge(32, &[0, 1 << 31, 0xFFFF_FFFF]) as u32
}

fn push_flow(line: &mut String, f: &NsccFlow) {
    for v in [
        u64::from(f.cwnd),
        u64::from(f.abytes),
        u64::from(f.saved),
        u64::from(f.base_rtt),
        u64::from(f.max_wnd),
        u64::from(f.avg),
        u64::from(f.achieved),
        u64::from(f.received),
        u64::from(f.fi_count),
        f.inc,
        u64::from(f.to_ignore),
        u64::from(f.ignored),
        u64::from(f.increase),
        u64::from(f.trigger_qa),
        u64::from(f.qa_armed),
        u64::from(f.t_adj),
        u64::from(f.t_dec),
        u64::from(f.t_qa),
    ] {
        let _ = write!(line, " {v:x}");
    }
}

/// The outcome's 3-bit reaction code (the header's table) and the decrease's applied bit.
fn case_code(c: Option<AckCase>) -> (u64, bool) {
    match c {
        None => (0, false),
        Some(AckCase::FairIncrease) => (1, false),
        Some(AckCase::ProportionalIncrease) => (2, false),
        Some(AckCase::FastIncrease) => (3, false),
        Some(AckCase::MultiplicativeDecrease { applied }) => (4, applied),
        Some(AckCase::Hold) => (5, false),
        Some(AckCase::ReceiverLimited) => (6, false),
    }
}

/// One vector line (without the newline).
fn vector(g: &mut Rng, line_win: u32) -> String {
    let r = draw_regs(g);
    let now = draw_now(g);
    let f = draw_flow(g, &r, now);
    let gbytes = if g.one_in(2) {
        // inflight near 0, near the window, negative, near 2^31
        let infl = g.edge(
            32,
            &[
                0,
                u64::from(f.cwnd >> 8),
                0xFFFF_FF00,
                0x7FFF_FFFF,
                0x8000_0000,
            ],
        ) as u32;
        f.abytes.wrapping_add(infl)
    } else {
        g.bits(32) as u32
    };
    let old = g.one_in(8);
    let ev = draw_event(g, &r, &f);
    let (s, out): (NsccFlow, AckOutcome) = execute(&f, gbytes, old, now, &ev, &r, line_win);
    let mut line = String::with_capacity(600);
    push_flow(&mut line, &f);
    let (rv, rtt) = ev.rtt.map_or((0, 0), |t| (1, t));
    for v in [
        u64::from(gbytes),
        u64::from(old),
        u64::from(now),
        u64::from(r.cc_en),
        ev.kind as u64,
        u64::from(ev.bytes),
        u64::from(ev.ecn),
        rv,
        u64::from(rtt),
        u64::from(ev.pend),
        u64::from(ev.rc),
        u64::from(r.base_rtt),
        u64::from(r.target),
        u64::from(r.mtu),
        u64::from(r.max_wnd),
        u64::from(r.init_cwnd),
        u64::from(r.fi),
        u64::from(r.alpha),
        u64::from(r.fi_scale),
        u64::from(r.eta),
        u64::from(r.adjust_period),
        u64::from(r.adjust_bytes),
        u64::from(r.gamma),
        u64::from(r.ewma_shift),
        u64::from(r.qa_gate),
        u64::from(r.qa_en),
        u64::from(r.fi_delay),
        u64::from(r.qa_delay),
    ] {
        let _ = write!(line, " {v:x}");
    }
    push_flow(&mut line, &s);
    let (code, applied) = case_code(out.case);
    for v in [
        u64::from(out.penalty),
        u64::from(out.restored),
        u64::from(out.rtt_valid),
        u64::from(out.qa_fired),
        u64::from(out.qa_ignored),
        code,
        u64::from(applied),
        u64::from(out.adjusted),
        u64::from(out.eta_added),
        u64::from(win_ok(gbytes, s.abytes, s.cwnd, r.mtu_eff())),
    ] {
        let _ = write!(line, " {v:x}");
    }
    push_flow(&mut line, &NsccFlow::init(&r, now));
    line.remove(0); // the leading space
    debug_assert_eq!(line.split(' ').count(), FIELDS);
    line
}

/// The most vectors one file holds (about 600 MB).
pub const MAX_VECTORS: u64 = 1_000_000;

/// Writes `count` vectors drawn from `seed` to `out`.
pub fn run(seed: u64, count: u64, line_win: u32, out: &Path) -> Result<(), String> {
    if line_win == 0 || line_win >> 24 != 0 {
        return Err(format!("--line-win {line_win}: must be 1..2^24 - 1"));
    }
    if count > MAX_VECTORS {
        return Err(format!(
            "--count {count}: at most {MAX_VECTORS} vectors (about 0.6 KB each)"
        ));
    }
    let file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = std::io::BufWriter::new(file);
    let mut g = Rng::new(seed);
    let mut text = String::from(HEADER);
    let _ = writeln!(text, "# seed {seed}, {count} vectors");
    let _ = writeln!(text, "line_win {line_win}");
    w.write_all(text.as_bytes())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    for _ in 0..count {
        writeln!(w, "{}", vector(&mut g, line_win))
            .map_err(|e| format!("{}: {e}", out.display()))?;
    }
    w.flush().map_err(|e| format!("{}: {e}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_have_every_field_and_repeat_from_the_seed() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..200 {
            let la = vector(&mut a, 8192);
            assert_eq!(la.split(' ').count(), FIELDS);
            assert_eq!(la, vector(&mut b, 8192));
        }
    }

    #[test]
    fn draws_stay_within_the_port_widths() {
        let mut g = Rng::new(1);
        for _ in 0..2000 {
            let r = draw_regs(&mut g);
            r.validate().unwrap();
            let now = draw_now(&mut g);
            let f = draw_flow(&mut g, &r, now);
            assert!(f.base_rtt >> 24 == 0 && f.max_wnd >> 24 == 0 && f.inc <= INC_MAX);
            draw_event(&mut g, &r, &f).validate().unwrap();
        }
    }
}
