//! Credit accumulator, beat gate and output register (spec 5; RTL `dcqcn_credit_gate`).

use crate::block::Block;
use crate::{Config, Params};

/// Widest beat: 64 bytes, eight 64-bit words. Narrower beats use the low words.
pub const DATA_WORDS: usize = 8;

/// Popcount of a tkeep vector: the byte count of a beat (spec 5.3).
///
/// A beat's tkeep is almost always a run of ones from bit 0 (a full beat or a frame's last beat);
/// its popcount is then its width, which costs a few instructions where a population count is a
/// dozen (x86-64 without POPCNT). Any other tkeep is counted bit by bit.
#[inline(always)]
pub fn keep_bytes(tkeep: u64) -> u32 {
    if tkeep & tkeep.wrapping_add(1) == 0 {
        u64::BITS - tkeep.leading_zeros()
    } else {
        tkeep.count_ones()
    }
}

/// Registers of the datapath.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreditGate {
    /// Bytes per clock from the previous cycle's Rc, Q16.16.
    pub bpc: u32,
    /// Credit, Q32.16 bytes (48 bits).
    pub credit: u64,
    pub m_valid: bool,
    pub m_data: [u64; DATA_WORDS],
    pub m_keep: u64,
    pub m_last: bool,
}

/// The upstream beat offered this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxisIn {
    pub tdata: [u64; DATA_WORDS],
    pub tkeep: u64,
    pub tvalid: bool,
    pub tlast: bool,
}

/// The credit gate's input ports.
#[derive(Clone, Copy, Debug)]
pub struct GateIn<'a> {
    pub rst: bool,
    /// The upstream beat offered this cycle.
    pub s: &'a AxisIn,
    pub m_tready: bool,
    /// Rc of this cycle, bytes/s (spec 5.1: bpc follows it one cycle later).
    pub rc: u32,
}

/// The credit gate's combinational outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GateOut {
    /// Bytes of the loaded beat (0 without a load).
    pub bytes_in: u32,
    /// `s_axis_tready`.
    pub s_tready: bool,
    /// `s_axis_tvalid & s_axis_tready`: a beat enters the output register at this edge.
    pub load: bool,
    /// A beat is offered, the output register has room, the credit does not cover it (spec 6.2).
    pub stall: bool,
    /// `bpc_d`: bpc(Rc) of this cycle, loaded at the edge (spec 5.1).
    pub bpc_d: u32,
    /// max(cfg_credit_cap, DATA_BYTES) in Q32.16 (spec 5.2).
    pub cap_q: u64,
}

impl CreditGate {
    /// `beat_ok`: no gate mask, and the credit covers the offered beat's bytes (tkeep-aware) or
    /// the gate is open (bypass, scheme bit 1; spec 4.9).
    #[inline(always)]
    pub fn beat_ok(&self, cfg: &Config, tkeep: u64) -> bool {
        self.covers(cfg, keep_bytes(tkeep))
    }

    /// [`Self::beat_ok`] for a beat of `bytes` bytes.
    #[inline(always)]
    fn covers(&self, cfg: &Config, bytes: u32) -> bool {
        !cfg.gate_mask && (cfg.ungated() || self.credit >= u64::from(bytes) << 16)
    }

    /// Cycles from now in which, with the inputs held, no beat is loaded or handed downstream and
    /// the credit grows by the same `bpc` each cycle: the output register is full and not drained,
    /// or empty and the offered beat stays refused for lack of credit (0 if something moves now or
    /// bpc still has to follow a new Rc; `u64::MAX` if nothing ever moves). Without bypass.
    #[inline(always)]
    pub fn idle_cycles(&self, i: &GateIn<'_>, p: &Params) -> u64 {
        if (self.m_valid && i.m_tready) || self.bpc != p.bpc(i.rc) {
            return 0;
        }
        if !i.s.tvalid || self.m_valid {
            return u64::MAX;
        }
        // The k-th cycle from now refuses the beat while credit + (k - 1) bpc < need.
        let need = u64::from(keep_bytes(i.s.tkeep)) << 16;
        if self.credit >= need {
            return 0;
        }
        match (need - self.credit - 1).checked_div(u64::from(self.bpc)) {
            Some(k) => k + 1,
            None => u64::MAX,
        }
    }

    /// One cycle of a stream gated by credit alone (no reset, bypass, open scheme or gate mask),
    /// with Rc's bpc `bpc_d` and the cap `cap_q` (Q32.16) given: `comb` and `next` for that case,
    /// in place, for the model's quiet-cycle fast path (`tests/properties.rs` holds it to the full
    /// path cycle by cycle). Returns the cycle's combinational outputs.
    #[inline(always)]
    pub fn gated_cycle(&mut self, s: &AxisIn, m_tready: bool, bpc_d: u32, cap_q: u64) -> GateOut {
        let bytes = keep_bytes(s.tkeep);
        let beat_ok = self.credit >= u64::from(bytes) << 16;
        let o = self.outputs(s, m_tready, false, bytes, beat_ok, bpc_d, cap_q);
        self.edge(s, m_tready, &o, false);
        o
    }

    /// The combinational outputs (spec 5.3) from the offered beat's byte count and whether the
    /// gate lets it through; `comb` and the fast path's `gated_cycle` both end here. The flags
    /// are combined bitwise: plain values, no branch.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn outputs(
        &self,
        s: &AxisIn,
        m_tready: bool,
        rst: bool,
        bytes: u32,
        beat_ok: bool,
        bpc_d: u32,
        cap_q: u64,
    ) -> GateOut {
        let room = !self.m_valid | m_tready;
        let s_tready = !rst & room & beat_ok;
        let load = s.tvalid & s_tready;
        GateOut {
            s_tready,
            load,
            bytes_in: if load { bytes } else { 0 },
            stall: s.tvalid & room & !beat_ok & !rst,
            bpc_d,
            cap_q,
        }
    }

    /// The clock edge from this cycle's outputs `o`, in place (the hot path copies the data beat
    /// only when one is loaded); `ungated` holds the credit at 0 (bypass, scheme bit 1). `next`
    /// and `gated_cycle` both end here.
    #[inline(always)]
    fn edge(&mut self, s: &AxisIn, m_tready: bool, o: &GateOut, ungated: bool) {
        self.credit = if ungated {
            0
        } else {
            // credit >= charge by construction of beat_ok; the sum is at most 49 bits.
            (self.credit - (u64::from(o.bytes_in) << 16) + u64::from(self.bpc)).min(o.cap_q)
        };
        // spec 5.1: one cycle of latency from Rc to the credit rate.
        self.bpc = o.bpc_d;
        if o.load {
            self.m_valid = true;
            self.m_data = s.tdata;
            self.m_keep = s.tkeep;
            self.m_last = s.tlast;
        } else {
            self.m_valid &= !m_tready;
        }
    }

    /// `n <= idle_cycles` cycles in closed form: only the credit moves.
    #[inline(always)]
    pub fn skip_idle(&mut self, n: u64, cfg: &Config, p: &Params) {
        // min(min(c + b, cap) + b, cap) = min(c + 2b, cap): the cap applies once.
        self.credit = (self.credit + n * u64::from(self.bpc)).min(cap_q(cfg, p));
    }
}

/// A held, accepted stream through the gate in closed form: `tvalid` and `m_axis_tready` held
/// high, the same beat of `need` bytes (Q32.16) offered each cycle, a constant `bpc`. Each cycle
/// loads the beat if the credit covers it: `c' = min(c - need + bpc, cap)`, else
/// `c' = min(c + bpc, cap)`. [`CreditGate::stream_plan`] splits the cycles into
/// - a head: `pre` refused cycles (when `bpc >= need`: at most one, then every cycle loads) or
///   `backlog` consecutive loads (when `bpc < need`: the credit above `need` drains by
///   `need - bpc` per load);
/// - a tail from the credit `c1 < need` left after the backlog, where (with `bpc < need` and a cap
///   that cannot bind, `c + bpc <= cap` for every `c < need`) the loads in the first `m` cycles are
///   `floor((c1 + (m - 1) bpc) / need)`: the credit stays below `need + bpc`, and a beat is loaded
///   exactly when the whole needs in `c1 + t bpc` go up by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamPlan {
    need: u64,
    bpc: u64,
    cap: u64,
    c0: u64,
    kind: StreamKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StreamKind {
    /// `bpc >= need`: `pre` (0 or 1) refused cycles, then a load every cycle.
    Fast { pre: u64 },
    /// `bpc < need`: `backlog` loads, then the tail from `c1`; `tail` false when the cap could bind
    /// in the tail (the plan then covers the backlog only).
    Slow { backlog: u64, c1: u64, tail: bool },
}

/// Where a held stream is after `k` cycles of a [`StreamPlan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamAt {
    /// Beats loaded in the `k` cycles.
    pub loads: u64,
    /// The credit after them, Q32.16.
    pub credit: u64,
    /// The last of the `k` cycles loaded a beat.
    pub last_loaded: bool,
}

impl StreamPlan {
    /// Cycles the plan covers (`u64::MAX`: all).
    pub fn horizon(&self) -> u64 {
        match self.kind {
            StreamKind::Slow {
                backlog,
                tail: false,
                ..
            } => backlog,
            _ => u64::MAX,
        }
    }

    /// Loads in the first `m` tail cycles (`bpc < need`).
    fn tail_loads(&self, c1: u64, m: u64) -> u64 {
        if m == 0 {
            return 0;
        }
        // c1 < need and the product fits: m is below 2^64 / 2^49 only in pathological calls, so
        // u128 keeps it exact.
        ((u128::from(c1) + u128::from(m - 1) * u128::from(self.bpc)) / u128::from(self.need)) as u64
    }

    /// The state after `k <= horizon()` cycles.
    pub fn at(&self, k: u64) -> StreamAt {
        let (need, bpc, cap) = (self.need, self.bpc, self.cap);
        match self.kind {
            StreamKind::Fast { pre } => {
                let loads = k.saturating_sub(pre);
                let start = if pre == 1 && k >= 1 {
                    (self.c0 + bpc).min(cap)
                } else {
                    self.c0
                };
                // Each load adds bpc - need >= 0 and the cap applies once: min(min(c + g, cap) + g,
                // cap) = min(c + 2g, cap).
                let grown = u128::from(start) + u128::from(loads) * u128::from(bpc - need);
                StreamAt {
                    loads,
                    credit: grown.min(u128::from(cap)) as u64,
                    last_loaded: k > pre,
                }
            }
            StreamKind::Slow { backlog, c1, .. } => {
                if k <= backlog {
                    return StreamAt {
                        loads: k,
                        credit: self.c0 - k * (need - bpc),
                        last_loaded: k >= 1,
                    };
                }
                let m = k - backlog;
                let loads = self.tail_loads(c1, m);
                let credit = u128::from(c1) + u128::from(m) * u128::from(bpc)
                    - u128::from(loads) * u128::from(need);
                StreamAt {
                    loads: backlog + loads,
                    credit: credit as u64,
                    last_loaded: loads > self.tail_loads(c1, m - 1),
                }
            }
        }
    }

    /// The number of cycles up to and including the one that loads the `j`-th beat (`j >= 1`),
    /// or `None` if no cycle within the plan does.
    pub fn cycles_to_load(&self, j: u64) -> Option<u64> {
        if j == 0 {
            return Some(0);
        }
        match self.kind {
            StreamKind::Fast { pre } => pre.checked_add(j),
            StreamKind::Slow { backlog, c1, tail } => {
                if j <= backlog {
                    return Some(j);
                }
                if !tail || self.bpc == 0 {
                    return None;
                }
                // The smallest m with floor((c1 + (m - 1) bpc) / need) >= j2:
                // m - 1 = ceil((j2 need - c1) / bpc).
                let j2 = u128::from(j - backlog);
                let short = j2 * u128::from(self.need) - u128::from(c1);
                let m = 1 + short.div_ceil(u128::from(self.bpc));
                u64::try_from(u128::from(backlog) + m).ok()
            }
        }
    }
}

impl CreditGate {
    /// The closed form of a held, accepted stream (see [`StreamPlan`]) of beats with `tkeep`,
    /// from this credit; the caller guarantees the rest (tvalid and tready held, bpc following a
    /// constant Rc, no bypass).
    pub fn stream_plan(&self, tkeep: u64, cfg: &Config, p: &Params) -> StreamPlan {
        let need = u64::from(keep_bytes(tkeep)) << 16;
        let bpc = u64::from(self.bpc);
        let cap = cap_q(cfg, p);
        let c0 = self.credit;
        let kind = if c0 > cap {
            // Only an injected state holds more credit than the cap; the first edge cuts it: no
            // closed form (an empty plan).
            StreamKind::Slow {
                backlog: 0,
                c1: c0,
                tail: false,
            }
        } else if bpc >= need {
            StreamKind::Fast {
                pre: u64::from(c0 < need),
            }
        } else {
            let backlog = if c0 >= need {
                (c0 - need) / (need - bpc) + 1
            } else {
                0
            };
            StreamKind::Slow {
                backlog,
                c1: c0 - backlog * (need - bpc),
                // Every tail credit is below need: a refused cycle adds bpc without reaching the
                // cap when need - 1 + bpc <= cap.
                tail: need - 1 + bpc <= cap,
            }
        };
        StreamPlan {
            need,
            bpc,
            cap,
            c0,
            kind,
        }
    }
}

/// spec 5.2: the credit cap in Q32.16, never below one full beat.
#[inline(always)]
pub(crate) fn cap_q(cfg: &Config, p: &Params) -> u64 {
    u64::from(cfg.credit_cap.max(p.data_bytes())) << 16
}

impl Block for CreditGate {
    type In<'a> = GateIn<'a>;
    type Out = GateOut;

    fn reset(p: &Params) -> CreditGate {
        CreditGate {
            bpc: p.bpc(p.line_rate()),
            credit: 0,
            m_valid: false,
            m_data: [0; DATA_WORDS],
            m_keep: 0,
            m_last: false,
        }
    }

    #[inline(always)]
    fn comb(&self, i: &GateIn<'_>, cfg: &Config, p: &Params) -> GateOut {
        // spec 5.3: tkeep-aware gate; bypass and scheme bit 1 pass ungated, the gate mask blocks
        // (spec 4.7, 4.9). The beat's byte count, once: the gate and the loaded bytes both take
        // it.
        let bytes = keep_bytes(i.s.tkeep);
        self.outputs(
            i.s,
            i.m_tready,
            i.rst,
            bytes,
            self.covers(cfg, bytes),
            p.bpc(i.rc),
            cap_q(cfg, p),
        )
    }

    #[inline(always)]
    fn next(&mut self, i: &GateIn<'_>, o: &GateOut, cfg: &Config, _: &Params) {
        self.edge(i.s, i.m_tready, o, cfg.ungated());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Params = Params::DEFAULT;

    fn gate(credit: u64) -> CreditGate {
        CreditGate {
            credit,
            ..CreditGate::reset(&P)
        }
    }

    #[test]
    fn keep_bytes_is_the_popcount() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for k in 0..=64u32 {
            let run = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
            assert_eq!(keep_bytes(run), k);
            assert_eq!(keep_bytes(run << 1), (run << 1).count_ones());
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(keep_bytes(x), x.count_ones());
            assert_eq!(keep_bytes(x & run), (x & run).count_ones());
        }
    }

    #[test]
    fn gate_is_tkeep_aware() {
        let hw = Config::reset(&Params::DEFAULT);
        let g = gate(3 << 16);
        assert!(g.beat_ok(&hw, 0b0000_0111));
        assert!(!g.beat_ok(&hw, 0b0000_1111));
        assert!(g.beat_ok(&hw, 0));
        let bypass = Config { bypass: true, ..hw };
        assert!(g.beat_ok(&bypass, 0xFF));
    }

    /// spec 4.9: scheme bit 1 opens the gate like bypass; the gate mask blocks in every scheme,
    /// bypass included, even a beat the credit covers.
    #[test]
    fn schemes_and_gate_mask() {
        let hw = Config::reset(&Params::DEFAULT);
        let g = gate(3 << 16);
        for scheme in 0..4u8 {
            let c = Config { scheme, ..hw };
            assert_eq!(g.beat_ok(&c, 0xFF), scheme & 2 != 0, "scheme {scheme}");
            assert!(g.beat_ok(&c, 0b111), "scheme {scheme}");
            for bypass in [false, true] {
                let masked = Config {
                    gate_mask: true,
                    bypass,
                    ..c
                };
                assert!(!g.beat_ok(&masked, 0), "scheme {scheme} bypass {bypass}");
            }
        }
    }

    const IDLE: AxisIn = AxisIn {
        tdata: [0; DATA_WORDS],
        tkeep: 0,
        tvalid: false,
        tlast: false,
    };
    const BEAT: AxisIn = AxisIn {
        tdata: [7; DATA_WORDS],
        tkeep: 0xFF,
        tvalid: true,
        tlast: true,
    };

    fn step(g: &mut CreditGate, s: &AxisIn, m_tready: bool, cfg: &Config) -> GateOut {
        let i = GateIn {
            rst: false,
            s,
            m_tready,
            rc: P.line_rate(),
        };
        let o = g.comb(&i, cfg, &P);
        g.next(&i, &o, cfg, &P);
        o
    }

    #[test]
    fn credit_accrues_and_caps() {
        let cfg = Config {
            credit_cap: 20,
            ..Config::reset(&P)
        };
        let mut g = gate(0);
        step(&mut g, &IDLE, true, &cfg);
        assert_eq!(g.credit, 8 << 16);
        step(&mut g, &IDLE, true, &cfg);
        step(&mut g, &IDLE, true, &cfg);
        assert_eq!(g.credit, 20 << 16);
        // A beat of 8 bytes is charged, the cycle's accrual added, the cap applied after.
        let o = step(&mut g, &BEAT, true, &cfg);
        assert!(o.load && o.s_tready && !o.stall);
        assert_eq!(o.bytes_in, 8);
        assert_eq!(g.credit, 20 << 16);
        assert!(g.m_valid && g.m_last && g.m_data == [7; DATA_WORDS]);
    }

    #[test]
    fn output_register_holds_until_handshake() {
        let cfg = Config::reset(&P);
        let mut g = gate(0);
        g.m_valid = true;
        // Downstream not ready: the beat stays; no room, so no stall is counted either.
        let o = step(&mut g, &BEAT, false, &cfg);
        assert!(g.m_valid && !o.s_tready && !o.stall);
        step(&mut g, &IDLE, true, &cfg);
        assert!(!g.m_valid);
    }

    /// The closed form of a held stream against stepping the gate, on a grid of beat sizes, bpc,
    /// caps and credits around every boundary of the plan (bpc = need, the cap that can just bind,
    /// a credit just below, at and above one beat or the cap).
    #[test]
    fn stream_plan_equals_stepping_at_the_boundaries() {
        let mut checked = 0u32;
        for tkeep in [0u64, 0b1, 0b1010_0101, 0xFF] {
            let need = u64::from(keep_bytes(tkeep)) << 16;
            for bpc in [
                0u64,
                1,
                2,
                3,
                0x1_0000,
                0x1_0002,
                0x7_0002,
                need.saturating_sub(1),
                need,
                need + 1,
                0x9_0001,
            ] {
                let bpc = bpc as u32;
                let b = u64::from(bpc);
                for cap in [
                    8u64 << 16,
                    (need + b).saturating_sub(2),
                    (need + b).saturating_sub(1),
                    need + b,
                    40 << 16,
                ] {
                    // The cap register holds whole bytes; Q32.16 caps between them come from
                    // the boundaries only through their byte part.
                    let cap_bytes = u32::try_from(cap >> 16).unwrap();
                    let cfg = Config {
                        credit_cap: cap_bytes,
                        ..Config::reset(&P)
                    };
                    let cap_q = cap_q(&cfg, &P);
                    for c0 in [
                        0u64,
                        1,
                        need.saturating_sub(1),
                        need,
                        (need + b).saturating_sub(1),
                        cap_q,
                    ] {
                        if c0 > cap_q {
                            continue;
                        }
                        let mut g = CreditGate { bpc, ..gate(c0) };
                        let plan = g.stream_plan(tkeep, &cfg, &P);
                        let beat = AxisIn { tkeep, ..BEAT };
                        let mut loads = 0u64;
                        let mut load_cycle = Vec::new();
                        for k in 1..=300u64 {
                            let i = GateIn {
                                rst: false,
                                s: &beat,
                                m_tready: true,
                                rc: 0,
                            };
                            let mut o = g.comb(&i, &cfg, &P);
                            // bpc held: the rate is constant over a stream.
                            o.bpc_d = bpc;
                            g.next(&i, &o, &cfg, &P);
                            loads += u64::from(o.load);
                            if o.load {
                                load_cycle.push(k);
                            }
                            if k > plan.horizon() {
                                break;
                            }
                            let at = plan.at(k);
                            let ctx = (tkeep, bpc, cap_q, c0, k);
                            assert_eq!(at.loads, loads, "loads {ctx:?}");
                            assert_eq!(at.credit, g.credit, "credit {ctx:?}");
                            assert_eq!(at.last_loaded, o.load, "last_loaded {ctx:?}");
                            checked += 1;
                        }
                        for (j, &k) in load_cycle.iter().enumerate() {
                            if k <= plan.horizon() {
                                let ctx = (tkeep, bpc, cap_q, c0, j);
                                let want = Some(k);
                                assert_eq!(plan.cycles_to_load(j as u64 + 1), want, "{ctx:?}");
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 50_000, "only {checked} cycles compared");
    }

    #[test]
    fn idle_cycles_end_when_the_credit_covers_the_beat() {
        let cfg = Config::reset(&P);
        let mut g = gate(0);
        let i = GateIn {
            rst: false,
            s: &BEAT,
            m_tready: true,
            rc: P.line_rate(),
        };
        // bpc(L) = 8 bytes per cycle: one cycle of refusal, then the beat fits.
        let n = g.idle_cycles(&i, &P);
        assert_eq!(n, 1);
        g.skip_idle(n, &cfg, &P);
        assert_eq!(g.idle_cycles(&i, &P), 0);
        assert!(g.comb(&i, &cfg, &P).load);
    }
}
