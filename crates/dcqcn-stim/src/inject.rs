//! State injection (spec 4.8): a register state to start a lockstep run from, in the form a saved
//! fuzz case records, and the proptest strategy that draws such states near the edges of every
//! register (counters a few steps from wrap or saturation, timers at expiry, credit near its cap
//! and near 2^47 and 2^48, Rc and Rt at 0, 1, L - 1, L, the event trace's window empty, at one
//! entry, a few from full and beyond, its time and counts near saturation).
//!
//! The configuration registers are not part of it: an injected run takes them from the case's
//! stimulus configuration (which the stimulus also programs through AXI4-Lite, to the same values).

use dcqcn_model::alpha::Alpha;
use dcqcn_model::cnp_sync::CnpSync;
use dcqcn_model::credit_gate::CreditGate;
use dcqcn_model::rate_dec::RateDec;
use dcqcn_model::rate_inc::RateInc;
use dcqcn_model::regs::{AxilState, Counters, Regs, Trace, TraceEntry, TRACE_DEPTH};
use dcqcn_model::{Config, Params, State, DATA_WORDS};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// Every register of spec 7 except the configuration, flat, with the spec's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InjectedState {
    pub cnp_meta: bool,
    pub cnp_sync: bool,
    pub cnp_prev: bool,
    pub rc: u32,
    pub rt: u32,
    pub active: bool,
    pub alpha: u16,
    pub alpha_timer: u16,
    pub alpha_pending: bool,
    pub dec_timer: u16,
    pub dec_pending: bool,
    pub inc_timer: u32,
    pub byte_cnt: u32,
    pub t_stage: u8,
    pub b_stage: u8,
    pub bpc: u32,
    pub credit: u64,
    pub m_valid: bool,
    pub m_data: [u64; DATA_WORDS],
    pub m_keep: u64,
    pub m_last: bool,
    pub cnp_cnt16: u16,
    pub cnt_cnp: u32,
    pub cnt_dec: u32,
    pub cnt_inc_fr: u32,
    pub cnt_inc_ai: u32,
    pub cnt_inc_hai: u32,
    pub cnt_inc_timer: u32,
    pub cnt_inc_byte: u32,
    pub cnt_stall: u32,
    pub cnt_bytes: u64,
    pub bytes_hi: u32,
    pub bvalid: bool,
    pub bresp: u8,
    pub rvalid: bool,
    pub rdata: u32,
    pub rresp: u8,
    /// The event trace (spec 4.10); absent in cases saved before it: the reset values.
    #[serde(default)]
    pub trace_count: u8,
    #[serde(default)]
    pub trace_wptr: u8,
    #[serde(default)]
    pub trace_lost: bool,
    #[serde(default)]
    pub trace_time: u32,
    #[serde(default)]
    pub trace_n_dec: u16,
    #[serde(default)]
    pub trace_n_byte: u16,
    #[serde(default)]
    pub trace_n_timer: u16,
    /// The trace's storage, all 64 entries (a list of `{kind, rc, stamp}`; absent: all 0).
    #[serde(default = "empty_trace_mem", with = "trace_mem_serde")]
    pub trace_mem: [TraceEntry; TRACE_DEPTH],
}

fn empty_trace_mem() -> [TraceEntry; TRACE_DEPTH] {
    [TraceEntry::default(); TRACE_DEPTH]
}

/// `trace_mem` as a list of exactly 64 `{kind, rc, stamp}` objects.
mod trace_mem_serde {
    use super::{TraceEntry, TRACE_DEPTH};
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Entry {
        kind: u8,
        rc: u32,
        stamp: u32,
    }

    pub fn serialize<S: Serializer>(
        mem: &[TraceEntry; TRACE_DEPTH],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let v: Vec<Entry> = mem
            .iter()
            .map(|e| Entry {
                kind: e.kind,
                rc: e.rc,
                stamp: e.stamp,
            })
            .collect();
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<[TraceEntry; TRACE_DEPTH], D::Error> {
        let v = Vec::<Entry>::deserialize(d)?;
        let n = v.len();
        let mut mem = [TraceEntry::default(); TRACE_DEPTH];
        if n != TRACE_DEPTH {
            return Err(D::Error::custom(format!(
                "trace_mem: {n} entries, expected {TRACE_DEPTH}"
            )));
        }
        for (m, e) in mem.iter_mut().zip(v) {
            *m = TraceEntry {
                kind: e.kind,
                rc: e.rc,
                stamp: e.stamp,
            };
        }
        Ok(mem)
    }
}

/// Bits of `data_bytes` bytes (a beat's data or keep mask), all ones.
fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl InjectedState {
    /// The model's state: these registers and the configuration `cfg`.
    pub fn to_state(&self, cfg: Config) -> State {
        State {
            cnp: CnpSync {
                cnp_meta: self.cnp_meta,
                cnp_sync: self.cnp_sync,
                cnp_prev: self.cnp_prev,
            },
            rc: self.rc,
            rt: self.rt,
            active: self.active,
            alpha: Alpha {
                alpha: self.alpha,
                alpha_timer: self.alpha_timer,
                alpha_pending: self.alpha_pending,
            },
            dec: RateDec {
                dec_timer: self.dec_timer,
                dec_pending: self.dec_pending,
            },
            inc: RateInc {
                inc_timer: self.inc_timer,
                byte_cnt: self.byte_cnt,
                t_stage: self.t_stage,
                b_stage: self.b_stage,
            },
            gate: CreditGate {
                bpc: self.bpc,
                credit: self.credit,
                m_valid: self.m_valid,
                m_data: self.m_data,
                m_keep: self.m_keep,
                m_last: self.m_last,
            },
            regs: Regs {
                cfg,
                cnt: Counters {
                    cnp_cnt16: self.cnp_cnt16,
                    cnt_cnp: self.cnt_cnp,
                    cnt_dec: self.cnt_dec,
                    cnt_inc_fr: self.cnt_inc_fr,
                    cnt_inc_ai: self.cnt_inc_ai,
                    cnt_inc_hai: self.cnt_inc_hai,
                    cnt_inc_timer: self.cnt_inc_timer,
                    cnt_inc_byte: self.cnt_inc_byte,
                    cnt_stall: self.cnt_stall,
                    cnt_bytes: self.cnt_bytes,
                    bytes_hi: self.bytes_hi,
                },
                axil: AxilState {
                    bvalid: self.bvalid,
                    bresp: self.bresp,
                    rvalid: self.rvalid,
                    rdata: self.rdata,
                    rresp: self.rresp,
                },
                trace: Trace {
                    count: self.trace_count,
                    wptr: self.trace_wptr,
                    lost: self.trace_lost,
                    time: self.trace_time,
                    n_dec: self.trace_n_dec,
                    n_byte: self.trace_n_byte,
                    n_timer: self.trace_n_timer,
                    mem: self.trace_mem,
                },
            },
        }
    }

    /// Cuts the output register's data and keep to a `data_bytes`-byte beat.
    pub fn fit_beat(&mut self, data_bytes: u32) {
        for (k, w) in self.m_data.iter_mut().enumerate() {
            *w &= low_mask((8 * data_bytes).saturating_sub(64 * k as u32));
        }
        self.m_keep &= low_mask(data_bytes);
    }

    /// The first register whose value does not fit its width at `data_bytes`-byte beats:
    /// (name, why). The RTL cannot hold such a value, so a saved case with one is refused.
    pub fn out_of_range(&self, data_bytes: u32) -> Option<(&'static str, String)> {
        let fits = |name: &'static str, v: u64, bits: u32| {
            (v > low_mask(bits)).then(|| (name, format!("{v} does not fit {bits} bits")))
        };
        let data_bits = 8 * data_bytes;
        let data_ok = self.m_data.iter().enumerate().all(|(k, w)| {
            let lo = 64 * k as u32;
            lo + 64 <= data_bits || *w & !low_mask(data_bits.saturating_sub(lo)) == 0
        });
        fits("alpha", u64::from(self.alpha), 10)
            .or_else(|| fits("credit", self.credit, 48))
            .or_else(|| fits("m_keep", self.m_keep, data_bytes))
            .or_else(|| fits("bresp", u64::from(self.bresp), 2))
            .or_else(|| fits("rresp", u64::from(self.rresp), 2))
            .or_else(|| fits("trace_count", u64::from(self.trace_count), 7))
            .or_else(|| fits("trace_wptr", u64::from(self.trace_wptr), 6))
            .or_else(|| fits("trace_n_dec", u64::from(self.trace_n_dec), 10))
            .or_else(|| fits("trace_n_byte", u64::from(self.trace_n_byte), 10))
            .or_else(|| fits("trace_n_timer", u64::from(self.trace_n_timer), 10))
            .or_else(|| {
                let k = self.trace_mem.iter().position(|e| e.kind > 0xF)?;
                Some((
                    "trace_mem",
                    format!(
                        "entry {k}: kind {} does not fit 4 bits",
                        self.trace_mem[k].kind
                    ),
                ))
            })
            .or_else(|| {
                (!data_ok).then(|| ("m_data", format!("has bits above the {data_bits}-bit beat")))
            })
    }
}

/// `base - k` for small k (saturating at 0), or `base + k` (saturating at `max`).
fn near(base: u64, max: u64) -> impl Strategy<Value = u64> {
    (0u64..4, any::<bool>()).prop_map(move |(k, up)| {
        if up {
            base.saturating_add(k).min(max)
        } else {
            base.saturating_sub(k)
        }
    })
}

/// A counter of `bits` bits: a few steps from its wrap (or saturation) point, near 0, or anything.
fn counter(bits: u32) -> impl Strategy<Value = u64> {
    let max = low_mask(bits);
    prop_oneof![
        3 => near(max, max),
        1 => near(0, max),
        1 => 0..=max,
    ]
}

/// A timer of `bits` bits whose period is `interval` (0 behaves as 1): at or just before expiry,
/// near its top, or anything.
fn timer(bits: u32, interval: u64) -> impl Strategy<Value = u64> {
    let max = low_mask(bits);
    prop_oneof![
        3 => near(interval.max(1).saturating_sub(1), max),
        1 => near(max, max),
        1 => 0..=max,
    ]
}

/// A rate: 0, 1, L - 1, L, L + 1 (when it fits), 2^32 - 1, near Rmin, or anything.
fn rate_near(l: u32, rmin: u32) -> impl Strategy<Value = u32> {
    let m = u64::from(u32::MAX);
    prop_oneof![
        1 => near(0, m),
        4 => near(u64::from(l), m),
        1 => near(m, m),
        1 => near(u64::from(rmin), m),
        2 => 0..=m,
    ]
    .prop_map(|v| v as u32)
}

/// A stage counter with threshold `f`: at F - 1, F, F + 1, near 255, or anything.
fn stage(f: u8) -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => near(u64::from(f), 255),
        1 => near(255, 255),
        1 => 0..=255u64,
    ]
    .prop_map(|v| v as u8)
}

/// The configuration of an injected case: the drawn one, or (1 in 4) with the byte trigger on and
/// its threshold within 3 of 2^32 - 1, so that the byte counter can reach its saturation
/// without firing first, or (1 in 4) with the event trace armed (either window, any entry
/// selected), so that the injected trace state records and shows its entries.
pub fn config_edge(cfg: Config) -> impl Strategy<Value = Config> {
    prop_oneof![
        2 => Just(cfg),
        1 => (0u32..4).prop_map(move |k| Config {
            byte_en: true,
            byte_threshold: u32::MAX - k,
            ..cfg
        }),
        1 => (any::<bool>(), 0u8..64).prop_map(move |(trace_wrap, trace_sel)| Config {
            trace_en: true,
            trace_wrap,
            trace_sel,
            ..cfg
        }),
    ]
}

/// An entry of the trace storage: the codes the block writes (a decrease; an increase of each
/// phase by timer, byte counter or both) or any 4-bit code, any rate and stamp.
fn trace_entry() -> impl Strategy<Value = TraceEntry> {
    let kind = prop_oneof![
        1 => Just(0u8),
        3 => (1u8..4, 0u8..3).prop_map(|(phase, by)| match by {
            0 => phase,
            1 => 0b100 | phase,
            _ => 0b1100 | phase,
        }),
        1 => 0u8..16,
    ];
    (kind, any::<u32>(), any::<u32>()).prop_map(|(kind, rc, stamp)| TraceEntry { kind, rc, stamp })
}

/// The event trace's registers and storage: the window empty, at one entry, a few from full, full
/// or beyond (65..127, an injected count), the write pointer anywhere, the time and the counts
/// near saturation or anything.
fn trace_state() -> impl Strategy<Value = Trace> {
    let count = prop_oneof![
        1 => Just(0u64),
        1 => Just(1u64),
        3 => near(63, 127),
        1 => 65..=127u64,
        1 => 0..=127u64,
    ];
    let time = prop_oneof![
        2 => near(u64::from(u32::MAX), u64::from(u32::MAX)),
        1 => near(0, u64::from(u32::MAX)),
        1 => 0..=u64::from(u32::MAX),
    ];
    let n = || prop_oneof![2 => near(1023, 1023), 1 => near(0, 1023), 1 => 0..=1023u64];
    (
        count,
        0u8..64,
        any::<bool>(),
        time,
        (n(), n(), n()),
        proptest::collection::vec(trace_entry(), TRACE_DEPTH),
    )
        .prop_map(|(count, wptr, lost, time, (n_dec, n_byte, n_timer), v)| {
            let mut mem = [TraceEntry::default(); TRACE_DEPTH];
            mem.copy_from_slice(&v);
            Trace {
                count: count as u8,
                wptr,
                lost,
                time: time as u32,
                n_dec: n_dec as u16,
                n_byte: n_byte as u16,
                n_timer: n_timer as u16,
                mem,
            }
        })
}

/// Widest credit (Q32.16 bytes) the 48-bit register holds.
const CREDIT_MAX: u64 = (1 << 48) - 1;

/// The credit register (48 bits, Q32.16 bytes) for a cap of `credit_cap` bytes at `db`-byte
/// beats: near the cap, near the register's top, near 2^47 and 2^46, near one beat, or anything;
/// every value below 2^48 whatever the cap (a cap of 2^32 - 1 bytes is 2^48 - 2^16 in Q32.16).
fn credit(credit_cap: u32, db: u32) -> impl Strategy<Value = u64> {
    let cap_q = u64::from(credit_cap.max(db)) << 16;
    let beat_q = u64::from(db) << 16;
    prop_oneof![
        3 => near(cap_q, CREDIT_MAX),
        2 => near(CREDIT_MAX, CREDIT_MAX),
        2 => near(1 << 47, CREDIT_MAX),
        // bit 47 set and still set after a beat is charged: 2^47 + x with x from one beat up to
        // the cap (at least two beats) but below 2^47, so that the sum stays below 2^48
        2 => (beat_q..=cap_q.max(2 * beat_q).min((1 << 47) - 1)).prop_map(|x| (1 << 47) + x),
        1 => near(1 << 46, CREDIT_MAX),
        1 => near(beat_q, CREDIT_MAX),
        1 => 0..=CREDIT_MAX,
    ]
}

/// States biased toward every register's edges, for configuration `cfg` at parameters `p`.
pub fn state(cfg: Config, p: Params) -> impl Strategy<Value = InjectedState> {
    let l = p.line_rate();
    let db = p.data_bytes();
    let credit = credit(cfg.credit_cap, db);
    let bt = u64::from(cfg.byte_threshold.max(1));
    let byte_cnt = prop_oneof![
        2 => near(bt, u64::from(u32::MAX)),
        2 => near(u64::from(u32::MAX), u64::from(u32::MAX)),
        1 => 0..=u64::from(u32::MAX),
    ];
    let rates = (
        rate_near(l, cfg.rmin),
        rate_near(l, cfg.rmin),
        any::<bool>(),
        prop_oneof![1 => near(0, 1023), 2 => near(1023, 1023), 1 => 0..=1023u64],
    );
    let flags = (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![3 => Just(true), 1 => Just(false)],
        any::<bool>(),
        any::<bool>(),
    );
    let timers = (
        timer(16, u64::from(cfg.alpha_interval)),
        prop_oneof![
            2 => timer(16, u64::from(cfg.dec_interval)),
            1 => near(0xFFFF, 0xFFFF)
        ],
        timer(32, u64::from(cfg.inc_interval)),
        byte_cnt,
        stage(cfg.stage_threshold),
        stage(cfg.stage_threshold),
    );
    let gate = (
        prop_oneof![2 => Just(None), 1 => any::<u32>().prop_map(Some)],
        credit,
        any::<bool>(),
        any::<[u64; DATA_WORDS]>(),
        any::<u64>(),
        any::<bool>(),
    );
    let counters = (
        counter(16),
        counter(32),
        counter(32),
        counter(32),
        counter(32),
        counter(32),
        counter(32),
        counter(32),
        counter(32),
        prop_oneof![
            2 => counter(64),
            1 => near(u64::from(u32::MAX), u64::MAX)
        ],
        any::<u32>(),
    );
    let axil = (any::<bool>(), 0u8..4, any::<bool>(), any::<u32>(), 0u8..4);
    (rates, flags, timers, gate, counters, axil, trace_state()).prop_map(
        move |(
            (rc, rt, pending_alpha, alpha),
            (cnp_meta, cnp_sync, cnp_prev, active, dec_pending, _),
            (alpha_timer, dec_timer, inc_timer, byte_cnt, t_stage, b_stage),
            (bpc, credit, m_valid, m_data, m_keep, m_last),
            (c16, c_cnp, c_dec, c_fr, c_ai, c_hai, c_timer, c_byte, c_stall, c_bytes, bytes_hi),
            (bvalid, bresp, rvalid, rdata, rresp),
            trace,
        )| {
            let mut s = InjectedState {
                cnp_meta,
                cnp_sync,
                cnp_prev,
                rc,
                rt,
                active,
                alpha: alpha as u16,
                alpha_timer: alpha_timer as u16,
                alpha_pending: pending_alpha,
                dec_timer: dec_timer as u16,
                dec_pending,
                inc_timer: inc_timer as u32,
                byte_cnt: byte_cnt as u32,
                t_stage,
                b_stage,
                // bpc follows Rc (the reachable case) unless drawn
                bpc: bpc.unwrap_or_else(|| p.bpc(rc)),
                credit,
                m_valid,
                m_data,
                m_keep,
                m_last,
                cnp_cnt16: c16 as u16,
                cnt_cnp: c_cnp as u32,
                cnt_dec: c_dec as u32,
                cnt_inc_fr: c_fr as u32,
                cnt_inc_ai: c_ai as u32,
                cnt_inc_hai: c_hai as u32,
                cnt_inc_timer: c_timer as u32,
                cnt_inc_byte: c_byte as u32,
                cnt_stall: c_stall as u32,
                cnt_bytes: c_bytes,
                bytes_hi,
                bvalid,
                bresp,
                rvalid,
                rdata,
                rresp,
                trace_count: trace.count,
                trace_wptr: trace.wptr,
                trace_lost: trace.lost,
                trace_time: trace.time,
                trace_n_dec: trace.n_dec,
                trace_n_byte: trace.n_byte,
                trace_n_timer: trace.n_timer,
                trace_mem: trace.mem,
            };
            s.fit_beat(db);
            s
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// Parameters and configurations as the fuzzer draws them for an injected case: every rate
    /// set at each beat width it is built at, every register field over its full range
    /// (`fuzz::config`, named profiles included), then [`config_edge`].
    fn fuzzer_configs() -> impl Strategy<Value = (Params, Config)> {
        let params: Vec<Params> = [8u32, 32, 64]
            .into_iter()
            .flat_map(|db| {
                crate::variant::Rates::ALL
                    .into_iter()
                    .filter(move |r| r.built_at(db))
                    .map(move |r| r.params(db).unwrap())
            })
            .collect();
        (
            proptest::sample::select(params),
            crate::fuzz::config().prop_flat_map(config_edge),
        )
    }

    /// The drawn states (of `states(cfg, p)`, over [`fuzzer_configs`]) that a register of the RTL
    /// cannot hold, as `field: why (credit_cap ..)`; at most `draws` draws.
    fn misfits<S: Strategy<Value = InjectedState>>(
        draws: usize,
        states: impl Fn(Config, Params) -> S,
    ) -> Vec<String> {
        let mut runner = TestRunner::deterministic();
        let mut bad = Vec::new();
        for _ in 0..draws {
            let (p, cfg) = fuzzer_configs().new_tree(&mut runner).unwrap().current();
            let s = states(cfg, p).new_tree(&mut runner).unwrap().current();
            if let Some((name, why)) = s.out_of_range(p.data_bytes()) {
                bad.push(format!("{name}: {why} (credit_cap {})", cfg.credit_cap));
            }
            if let Some((name, v, w)) = s.to_state(cfg).regs.cfg.out_of_range() {
                bad.push(format!("cfg.{name}: {v} does not fit {w} bits"));
            }
        }
        bad
    }

    #[test]
    fn drawn_states_fit_their_registers() {
        let bad = misfits(3_000, state);
        assert!(bad.is_empty(), "{} misfits, first: {}", bad.len(), bad[0]);
    }

    /// The credit arm the fuzzer drew with until issue 34 (2^47 plus up to the cap, which passes
    /// 2^48 for a cap of 2^31 bytes or more): the test above must catch it, so its draws reach
    /// such caps.
    #[test]
    fn the_fit_test_catches_the_overflowing_credit_arm() {
        let planted = |cfg: Config, p: Params| {
            let db = u64::from(p.data_bytes());
            let cap_q = u64::from(cfg.credit_cap).max(db) << 16;
            (
                state(cfg, p),
                (db << 16..=cap_q.max(db << 17)).prop_map(|x| (1u64 << 47) + x),
            )
                .prop_map(|(s, credit)| InjectedState { credit, ..s })
        };
        let bad = misfits(3_000, planted);
        assert!(
            bad.iter().any(|b| b.starts_with("credit: ")),
            "the planted arm was not caught: {bad:?}"
        );
    }

    #[test]
    fn drawn_credit_reaches_its_edges_at_the_largest_cap() {
        let mut runner = TestRunner::deterministic();
        let (mut top, mut bit47, mut cap) = (false, false, false);
        for _ in 0..2_000 {
            let c = credit(u32::MAX, 8).new_tree(&mut runner).unwrap().current();
            assert!(c <= CREDIT_MAX, "{c:#x}");
            top |= c == CREDIT_MAX;
            bit47 |= c >> 47 == 1 && c - (1 << 47) >= 8 << 16;
            cap |= c == u64::from(u32::MAX) << 16;
        }
        assert!(top && bit47 && cap, "{top} {bit47} {cap}");
    }

    #[test]
    fn out_of_range_names_the_register() {
        let p = Params::DEFAULT;
        let cfg = Config::reset(&p);
        let mut runner = TestRunner::deterministic();
        let s = state(cfg, p).new_tree(&mut runner).unwrap().current();
        let bad = InjectedState { alpha: 1024, ..s };
        assert_eq!(bad.out_of_range(8).unwrap().0, "alpha");
        let bad = InjectedState {
            credit: 1 << 48,
            ..s
        };
        assert_eq!(bad.out_of_range(8).unwrap().0, "credit");
        let bad = InjectedState { m_keep: 0x100, ..s };
        assert_eq!(bad.out_of_range(8).unwrap().0, "m_keep");
        let mut data = s.m_data;
        data[1] = 1;
        let bad = InjectedState { m_data: data, ..s };
        assert_eq!(bad.out_of_range(8).unwrap().0, "m_data");
        assert_eq!(bad.out_of_range(16), None);
        for (name, bad) in [
            (
                "trace_count",
                InjectedState {
                    trace_count: 128,
                    ..s
                },
            ),
            (
                "trace_wptr",
                InjectedState {
                    trace_wptr: 64,
                    ..s
                },
            ),
            (
                "trace_n_dec",
                InjectedState {
                    trace_n_dec: 1024,
                    ..s
                },
            ),
            (
                "trace_n_byte",
                InjectedState {
                    trace_n_byte: 1024,
                    ..s
                },
            ),
            (
                "trace_n_timer",
                InjectedState {
                    trace_n_timer: 1024,
                    ..s
                },
            ),
        ] {
            assert_eq!(bad.out_of_range(8).unwrap().0, name);
        }
        let mut mem = s.trace_mem;
        mem[17].kind = 16;
        let (name, why) = InjectedState {
            trace_mem: mem,
            ..s
        }
        .out_of_range(8)
        .unwrap();
        assert_eq!(
            (name, why.as_str()),
            ("trace_mem", "entry 17: kind 16 does not fit 4 bits")
        );
    }

    #[test]
    fn trace_fields_round_trip_and_default_when_absent() {
        let p = Params::DEFAULT;
        let cfg = Config::reset(&p);
        let mut runner = TestRunner::deterministic();
        let s = state(cfg, p).new_tree(&mut runner).unwrap().current();
        let text = serde_json::to_string(&s).unwrap();
        let back: InjectedState = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
        let t = back.to_state(cfg).regs.trace;
        assert_eq!(
            (t.count, t.wptr, t.time),
            (s.trace_count, s.trace_wptr, s.trace_time)
        );
        assert_eq!(t.mem, s.trace_mem);
        // a case saved before the trace: its fields absent, the reset values
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let obj = json.as_object_mut().unwrap();
        obj.retain(|k, _| !k.starts_with("trace_"));
        let old: InjectedState = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(old.to_state(cfg).regs.trace, Trace::default());
        // a storage of another length is refused, naming the field
        json["trace_mem"] = serde_json::json!([{ "kind": 0, "rc": 0, "stamp": 0 }]);
        let e = serde_json::from_value::<InjectedState>(json).unwrap_err();
        assert!(
            e.to_string().contains("trace_mem: 1 entries, expected 64"),
            "{e}"
        );
    }

    #[test]
    fn drawn_trace_states_reach_their_edges() {
        let p = Params::DEFAULT;
        let cfg = Config::reset(&p);
        let mut runner = TestRunner::deterministic();
        let (mut empty, mut one, mut full, mut over, mut time_top, mut n_top) =
            (false, false, false, false, false, false);
        for _ in 0..500 {
            let s = state(cfg, p).new_tree(&mut runner).unwrap().current();
            empty |= s.trace_count == 0;
            one |= s.trace_count == 1;
            full |= s.trace_count == 64;
            over |= s.trace_count > 64;
            time_top |= s.trace_time == u32::MAX;
            n_top |= s.trace_n_dec == 1023;
        }
        assert!(empty && one && full && over && time_top && n_top);
    }
}
