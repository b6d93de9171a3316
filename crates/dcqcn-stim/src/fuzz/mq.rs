//! Fuzz cases of the multi-QP block `dcqcn_mq` (docs/spec-mq.md 8.3 "The fuzzer draws"): the
//! proptest strategy of one case ([`mq_case`]), case number n of a campaign ([`mq_case_tree`]),
//! and the saved form of a case with its bounds ([`MqSavedCase`]). `dcqcn_cosim::fuzz::mq` runs
//! them model-vs-RTL.
//!
//! A case is a QPS (one of the built variants), a bench seed and an [`MqStimulus`]: the same
//! closed-loop bench as the scenarios (`crate::mq::MqBench`), with every knob drawn. The
//! configuration goes in through the register map: global words (every enable combination, the
//! periods and thresholds scaled to the QPS, the limits at their edges) and per-QP window writes
//! that set records near their thresholds (rates, alphas, timers, stages near F and 255). Traffic
//! per QP: requests, CNP bursts, reports (delayed, spurious), `grant_pause`, resets, run-time
//! software (window writes and reads, `qp_clear`, `arb_mask`, enables, global writes, QPs out of
//! range).
//!
//! Periods and thresholds count cycles, and a QP's timers advance by QPS per visit (spec-mq 5.5),
//! so they are drawn as a few visits (`k * QPS` plus a little) most of the time and anything of
//! their width now and then.

use crate::mq::{reg, window, CnpTarget, MqStimulus, SoftwareSpec};
use crate::StimError;
use dcqcn_model::mq::{regmap, MqParams};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
use std::path::Path;

/// One multi-QP fuzz case.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MqCase {
    /// The QPS of the variant that runs the case.
    pub qps: u32,
    /// The bench's seed (every draw of the neighbours, spec-mq 1).
    pub seed: u64,
    pub stimulus: MqStimulus,
}

/// `width` bits set.
fn mask(width: u32) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    }
}

/// A period or threshold in cycles of a `width`-bit field: 0, a few visits, or anything.
fn visits(qps: u32, width: u32) -> impl Strategy<Value = u32> {
    let m = mask(width);
    prop_oneof![
        1 => Just(0u32),
        5 => (1u32..=12, 0u32..=2).prop_map(move |(k, d)| (k * qps).saturating_sub(1) + d),
        2 => 1u32..=40,
        1 => any::<u32>().prop_map(move |v| v & m),
    ]
}

/// A probability from `lo` to `hi` millionths: a short decimal, so that its JSON reads back as the
/// same `f64` (a saved case replays bit for bit).
fn prob(lo: u32, hi: u32) -> impl Strategy<Value = f64> {
    (lo..hi).prop_map(|k| f64::from(k) / 1e6)
}

/// A rate (24-bit field, `LINE_WIN` units of spec-mq 5.1): small, around `line_win`, anything.
fn rate(line_win: u32) -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => 1u32..=64,
        3 => 64u32..=line_win,
        2 => (line_win.saturating_sub(2))..=(line_win + 2),
        1 => Just(0u32),
        1 => any::<u32>().prop_map(|v| v & 0xFF_FFFF),
    ]
}

/// The global configuration written after every reset (spec-mq 6.2), each word now and then,
/// and a flag: the credit cap equal to the request size (a grant then leaves credit exactly 0).
fn global_setup(qps: u32, line_win: u32) -> impl Strategy<Value = Vec<(u32, u32)>> {
    let opt = |s: BoxedStrategy<u32>| prop_oneof![1 => Just(None), 2 => s.prop_map(Some)];
    let enables = prop_oneof![2 => Just(0xFu32), 5 => 0u32..16].boxed();
    let merge = prop_oneof![
        1 => Just(0u32),
        3 => visits(qps, 16),
        1 => prop::sample::select(vec![qps - 1, qps, qps + 1]),
    ]
    .boxed();
    let alpha_cfg = (
        prop_oneof![2 => Just(4u32), 1 => Just(0u32), 1 => Just(1023u32), 2 => 0u32..1024],
        prop_oneof![2 => Just(1u32), 1 => Just(0u32), 1 => Just(15u32), 2 => 0u32..16],
        prop_oneof![3 => Just(1023u32), 1 => Just(0u32), 2 => 0u32..1024],
    )
        .prop_map(|(g, shift, init)| g | shift << 16 | init << 20)
        .boxed();
    let inc_cfg = (
        prop_oneof![2 => Just(5u32), 2 => 0u32..3, 1 => 253u32..=255, 1 => 0u32..256],
        any::<bool>(),
    )
        .prop_map(|(f, clamp)| f | u32::from(clamp) << 8)
        .boxed();
    let limit = || prop_oneof![2 => 1u32..=4, 2 => 5u32..=20, 1 => Just(0u32), 1 => 200u32..=255];
    let ost = (limit(), limit()).prop_map(|(a, b)| a | b << 8).boxed();
    let cap = prop_oneof![
        2 => Just(65_536u32),
        2 => 1u32..=64,
        2 => 500u32..=20_000,
        1 => Just(0u32),
        1 => any::<u32>().prop_map(|v| v & mask(21)),
    ]
    .boxed();
    let dfx_qp = prop_oneof![4 => 0u32..qps.min(4), 1 => qps..4096].boxed();
    let dfx_ctrl = prop_oneof![1 => Just(0u32), 2 => Just(1u32), 2 => Just(3u32)].boxed();
    (
        (
            opt(enables),
            opt(merge),
            opt(visits(qps, 24).boxed()),
            opt(prop_oneof![1 => Just(0u32), 2 => 500u32..50_000, 1 => any::<u32>()].boxed()),
            opt(rate(line_win).boxed()),
            opt(visits(qps, 16).boxed()),
        ),
        (
            opt(alpha_cfg),
            opt(rate(line_win).boxed()),
            opt(rate(line_win).boxed()),
            opt(rate(line_win).boxed()),
            opt(inc_cfg),
            opt(visits(qps, 24).boxed()),
        ),
        (opt(ost), opt(cap), opt(dfx_qp), opt(dfx_ctrl)),
    )
        .prop_map(
            |(
                (enables, merge, nocnp, bytes, max_rate, alpha_th),
                (alpha_cfg, ai, hai, rmin, inc_cfg, cnp_thrd),
                (ost, cap, dfx_qp, dfx_ctrl),
            )| {
                [
                    (reg::ENABLES, enables),
                    (reg::CNP_MERGE_PERIOD, merge),
                    (reg::NOCNP_TIMER_TH, nocnp),
                    (reg::BYTE_CNT_TH, bytes),
                    (reg::MAX_RATE, max_rate),
                    (reg::ALPHA_TIMER_TH, alpha_th),
                    (reg::ALPHA_CFG, alpha_cfg),
                    (reg::RATE_AI, ai),
                    (reg::RATE_HAI, hai),
                    (reg::RATE_MIN, rmin),
                    (reg::INC_CFG, inc_cfg),
                    (reg::CNP_TIMER_THRD, cnp_thrd),
                    (reg::OST_LIMITS, ost),
                    (reg::CREDIT_CAP, cap),
                    (reg::DFX_QP, dfx_qp),
                    (reg::DFX_CTRL, dfx_ctrl),
                ]
                .into_iter()
                .filter_map(|(a, v)| v.map(|v| (a, v)))
                .collect()
            },
        )
}

/// Window writes that set one QP's record near its thresholds (spec-mq 6.3, 8.3): rates, alpha and
/// its timer, stages near F and 255 with `active`, the merge and CNP timers, the byte counter,
/// the applied rate, `arb_mask`. They complete at the QP's visits after the init round.
fn qp_setup(qps: u32, line_win: u32) -> impl Strategy<Value = Vec<(u32, u32)>> {
    let word = prop_oneof![
        (rate(line_win)).prop_map(|v| (reg::QP_RATE, v)),
        (rate(line_win)).prop_map(|v| (reg::QP_TARGET, v)),
        (
            prop_oneof![Just(0u32), Just(1u32), Just(1023u32), 0u32..1024],
            visits(qps, 16)
        )
            .prop_map(|(a, el)| (regmap::QP_ALPHA, a | el << 16)),
        (
            prop_oneof![0u32..8, 250u32..256],
            prop_oneof![0u32..8, 250u32..256],
            any::<bool>()
        )
            .prop_map(|(t, b, act)| (reg::QP_T_BC, t | b << 8 | u32::from(act) << 16)),
        (visits(qps, 16), any::<bool>())
            .prop_map(|(el, pend)| (regmap::QP_CNP_MERGE, el | u32::from(pend) << 16)),
        visits(qps, 24).prop_map(|v| (regmap::QP_CNP_TIMER, v)),
        visits(qps, 24).prop_map(|v| (regmap::QP_INC_TIMER, v)),
        prop_oneof![Just(u32::MAX - 100), 0u32..100_000, any::<u32>()]
            .prop_map(|v| (regmap::QP_BYTE_CNT, v)),
        prop_oneof![Just(0u32), 1u32..4, 4u32..2000].prop_map(|v| (reg::QP_CC_RATE, v)),
        any::<bool>().prop_map(|m| (reg::QP_CTRL, u32::from(m))),
    ];
    prop::collection::vec((0..qps, word), 0..12).prop_map(|ws| {
        ws.into_iter()
            .map(|(q, (off, v))| (window(q, off), v))
            .collect()
    })
}

/// Run-time global writes (spec-mq 6.2): the outstanding limits lowered and raised, the DFX
/// window armed, wrapped, cleared while armed, `cnp_merge_period` around a visit.
fn runtime_globals(qps: u32) -> impl Strategy<Value = Vec<(u32, u32)>> {
    let one = prop_oneof![
        3 => (prop_oneof![1u32..=4, 8u32..=20, 200u32..=255], 1u32..=16)
            .prop_map(|(hi, lo)| (reg::OST_LIMITS, hi | lo << 8)),
        2 => prop::sample::select(vec![0u32, 1, 3, 0x101, 0x103, 0x100])
            .prop_map(|v| (reg::DFX_CTRL, v)),
        1 => prop::sample::select(vec![0, 1, qps - 1, qps, qps + 1, 2 * qps])
            .prop_map(|v| (reg::CNP_MERGE_PERIOD, v)),
        1 => Just((reg::CNT_CTRL, 1u32)),
        // DECERR writes (spec-mq 6.1): an unmapped global word, one above addr[11:0], a
        // read-only global word, an unmapped window word
        1 => prop::sample::select(vec![
            0x050u32,
            0x1_F000,
            regmap::ID,
            regmap::NOW,
            window(0, 0x14),
            window(qps - 1, 0xFC),
        ])
        .prop_map(|a| (a, 1u32)),
    ];
    prop::collection::vec(one, 0..6)
}

fn software(qps: u32) -> impl Strategy<Value = (SoftwareSpec, Vec<(u32, u32)>)> {
    (
        prop_oneof![1 => Just(0u64), 3 => 10u64..200, 1 => 200u64..2_000],
        prop::array::uniform8(0u32..6),
        prop_oneof![
            2 => Just((0u32..16).collect::<Vec<_>>()),
            1 => prop::collection::vec(0u32..16, 1..4),
        ],
        runtime_globals(qps),
    )
        .prop_map(|(every, weights, enables, globals)| {
            (
                SoftwareSpec {
                    every,
                    weights,
                    enables,
                },
                globals,
            )
        })
}

/// The traffic of the three neighbours (spec-mq 1), as [`MqStimulus`] fields.
#[allow(clippy::type_complexity)]
fn neighbours(
    qps: u32,
) -> impl Strategy<
    Value = (
        (u32, u32, u32, (u16, u16), (u64, u64), (u64, u64)),
        (f64, f64, CnpTarget, f64, f64, u64),
    ),
> {
    let pair = |a: u64, b: u64| (a.min(b), a.max(b));
    (
        (
            prop_oneof![6 => Just(1u32), 1 => 2u32..=3],
            prop_oneof![4 => Just(4096u32), 1 => 1u32..=3],
            prop_oneof![4 => Just(u32::MAX), 1 => 10u32..2_000],
            prop_oneof![
                1 => (0u16..=64, 0u16..=64),
                3 => (64u16..=1500, 64u16..=1500),
                2 => (1000u16..=9000, 1000u16..=9000),
                1 => any::<(u16, u16)>(),
            ]
            .prop_map(|(a, b)| (a.min(b), a.max(b))),
            prop_oneof![3 => (1u64..=4, 1u64..=8), 1 => (1u64..=50, 1u64..=400)]
                .prop_map(move |(a, b)| pair(a, b)),
            prop_oneof![
                1 => (1u64..=4, 1u64..=4),
                3 => (10u64..=60, 10u64..=80),
                1 => (200u64..=2_000, 200u64..=2_000),
                1 => (1_000u64..=8_000, 1_000u64..=8_000),
            ]
            .prop_map(move |(a, b)| pair(a, b)),
        ),
        (
            prop_oneof![3 => Just(0.0f64), 1 => prob(1_000, 20_000)],
            prop_oneof![1 => Just(0.0f64), 3 => prob(1_000, 30_000), 1 => prob(50_000, 500_000)],
            prop_oneof![
                2 => (1u32..=qps).prop_map(CnpTarget::Spread),
                1 => (0u32..qps).prop_map(CnpTarget::Storm),
            ],
            prop_oneof![4 => Just(0.0f64), 1 => prob(1_000, 50_000)],
            prop_oneof![3 => Just(0.0f64), 1 => prob(5_000, 200_000)],
            1u64..=20,
        ),
    )
}

/// Resets after the first: none in most cases, otherwise one or two, some inside an init round.
fn resets(qps: u32) -> impl Strategy<Value = Vec<u64>> {
    let q = u64::from(qps);
    prop_oneof![
        4 => Just(vec![]),
        1 => prop::collection::vec(
            prop_oneof![1 => (q / 2 + 3)..(q + 5), 2 => 100u64..40_000],
            1..3
        )
        .prop_map(|mut v| {
            v.sort_unstable();
            v.dedup();
            v
        }),
    ]
}

/// One case at one of the QPS values `qps_built` (spec-mq 8.3).
pub fn mq_case(qps_built: Vec<u32>) -> impl Strategy<Value = MqCase> {
    prop::sample::select(qps_built).prop_flat_map(|qps| {
        let line_win = MqParams::with_qps(qps).map_or(0xFF_FFFF, |p| p.line_win());
        (
            Just(qps),
            any::<u64>(),
            global_setup(qps, line_win),
            qp_setup(qps, line_win),
            neighbours(qps),
            resets(qps),
            software(qps),
            prop_oneof![5 => Just(None), 1 => prop::sample::select(vec![64u16, 256, 1500, 4096]).prop_map(Some)],
            prop_oneof![3 => Just(0.0f64), 1 => prob(1_000, 50_000)],
            prop_oneof![7 => Just(false), 1 => Just(true)],
        )
            .prop_map(
                |(
                    qps,
                    seed,
                    globals,
                    qp_words,
                    n,
                    resets,
                    (software, runtime),
                    cap_unit,
                    dup_req,
                    credit_edge,
                )| {
                    let (
                        (stride, max_qps, backlog, unit_bytes, post_delay, rpt_delay),
                        (spurious, cnp_rate, cnp_target, bad_qp, pause_rate, pause_len),
                    ) = n;
                    let mut setup = globals;
                    let mut unit_bytes = unit_bytes;
                    if let Some(b) = cap_unit {
                        // the cap equals the request: a refilled QP's grant leaves credit 0
                        setup.push((reg::CREDIT_CAP, u32::from(b)));
                        unit_bytes = (b, b);
                    }
                    setup.extend(qp_words);
                    let mut software = software;
                    if credit_edge {
                        // rates of 1/1024 byte per cycle, one-byte requests, the throttle
                        // switched off and on: a grant without charge then walks the credit up
                        // through 0 and 1 (spec-mq 4.5)
                        setup.push((reg::MAX_RATE, 1));
                        unit_bytes = (1, 1);
                        software.enables = vec![0xF, 0xD];
                        software.weights[5] = software.weights[5].max(4);
                        software.every = software.every.clamp(300, 3_000);
                    }
                    MqCase {
                        qps,
                        seed,
                        stimulus: MqStimulus {
                            stride,
                            max_qps,
                            backlog,
                            unit_bytes,
                            post_delay,
                            rpt_delay,
                            spurious,
                            cnp_rate,
                            cnp_target,
                            bad_qp,
                            pause_rate,
                            pause_len,
                            resets,
                            setup,
                            software,
                            globals: runtime,
                            dup_req,
                        },
                    }
                },
            )
    })
}

/// The value tree of case number `index` of a campaign with `seed`, at one of `qps_built`: a
/// function of (seed, index, qps_built) alone.
pub fn mq_case_tree(
    seed: u64,
    index: u64,
    qps_built: &[u32],
) -> Result<impl ValueTree<Value = MqCase>, StimError> {
    if qps_built.is_empty() {
        return Err(StimError::Case("no QPS to draw a case at".into()));
    }
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    // a different stream from dcqcn_rl's cases of the same seed and index
    bytes[16..24].copy_from_slice(b"dcqcn_mq");
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(ProptestConfig::default(), rng);
    mq_case(qps_built.to_vec())
        .new_tree(&mut runner)
        .map_err(|e| StimError::Case(e.to_string()))
}

/// Case number `index` of a campaign with `seed`, as drawn.
pub fn mq_case_at(seed: u64, index: u64, qps_built: &[u32]) -> Result<MqCase, StimError> {
    Ok(mq_case_tree(seed, index, qps_built)?.current())
}

/// A saved multi-QP fuzz case (`dcqcn fuzz --block mq --replay FILE`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MqSavedCase {
    pub format: String,
    pub cycles: u64,
    /// The variant that ran it (`mq-q4`, `mq-vhdl-q64`, a mutant `mut_*`); absent: the
    /// SystemVerilog at the case's QPS.
    pub variant: Option<String>,
    pub case: MqCase,
}

pub const MQ_SAVED_CASE_FORMAT: &str = "dcqcn-mq-fuzz-case 1";

/// Bounds of a saved case (checked before anything runs).
pub const MQ_MAX_QPS: u32 = 4096;
/// Register writes of a list (`setup`, `globals`) and resets of a saved case.
pub const MQ_MAX_LIST: usize = 4096;

impl MqSavedCase {
    /// Checks every value against its field and every count against its bound; `file` names the
    /// case in messages (`<file>: `<field>`: <why>`).
    pub fn check(&self, file: &str) -> Result<(), StimError> {
        let bad = |field: &str, why: String| StimError::Case(format!("{file}: `{field}`: {why}"));
        if !(1..=super::MAX_CASE_CYCLES).contains(&self.cycles) {
            return Err(bad(
                "cycles",
                format!("{}: must be 1..={}", self.cycles, super::MAX_CASE_CYCLES),
            ));
        }
        let c = &self.case;
        if !(1..=MQ_MAX_QPS).contains(&c.qps) {
            return Err(bad(
                "case.qps",
                format!("{}: must be 1..={MQ_MAX_QPS}", c.qps),
            ));
        }
        let s = &c.stimulus;
        let prob = |field: &str, p: f64| {
            if (0.0..=1.0).contains(&p) {
                Ok(())
            } else {
                Err(bad(field, format!("{p}: a probability must be in 0..=1")))
            }
        };
        prob("case.stimulus.spurious", s.spurious)?;
        prob("case.stimulus.cnp_rate", s.cnp_rate)?;
        prob("case.stimulus.bad_qp", s.bad_qp)?;
        prob("case.stimulus.pause_rate", s.pause_rate)?;
        prob("case.stimulus.dup_req", s.dup_req)?;
        let range = |field: &str, (lo, hi): (u64, u64)| {
            if lo > hi {
                Err(bad(
                    field,
                    format!("({lo}, {hi}): must be (min, max), min <= max"),
                ))
            } else {
                Ok(())
            }
        };
        range(
            "case.stimulus.unit_bytes",
            (s.unit_bytes.0.into(), s.unit_bytes.1.into()),
        )?;
        range("case.stimulus.post_delay", s.post_delay)?;
        range("case.stimulus.rpt_delay", s.rpt_delay)?;
        if s.pause_len == 0 {
            return Err(bad("case.stimulus.pause_len", "must be at least 1".into()));
        }
        if s.stride == 0 {
            return Err(bad("case.stimulus.stride", "must be at least 1".into()));
        }
        if let CnpTarget::Spread(0) = s.cnp_target {
            return Err(bad(
                "case.stimulus.cnp_target.Spread",
                "must be at least 1".into(),
            ));
        }
        let top = 1u32 << regmap::DECODE_BITS;
        for (name, list) in [("setup", &s.setup), ("globals", &s.globals)] {
            if list.len() > MQ_MAX_LIST {
                return Err(bad(
                    &format!("case.stimulus.{name}"),
                    format!("{} writes: at most {MQ_MAX_LIST}", list.len()),
                ));
            }
            for (k, &(a, _)) in list.iter().enumerate() {
                if a >= top {
                    return Err(bad(
                        &format!("case.stimulus.{name}[{k}]"),
                        format!(
                            "address {a:#x} does not fit the {}-bit AXI4-Lite address (max {:#x})",
                            regmap::DECODE_BITS,
                            top - 1
                        ),
                    ));
                }
            }
        }
        if s.resets.len() > MQ_MAX_LIST {
            return Err(bad(
                "case.stimulus.resets",
                format!("{} resets: at most {MQ_MAX_LIST}", s.resets.len()),
            ));
        }
        let sw = &s.software;
        if sw.enables.len() > MQ_MAX_LIST {
            return Err(bad(
                "case.stimulus.software.enables",
                format!("{} values: at most {MQ_MAX_LIST}", sw.enables.len()),
            ));
        }
        if let Some((k, &e)) = sw.enables.iter().enumerate().find(|(_, &e)| e > 0xF) {
            return Err(bad(
                &format!("case.stimulus.software.enables[{k}]"),
                format!("{e}: the enables are 4 bits (max 15)"),
            ));
        }
        Ok(())
    }
}

/// Writes a saved case as pretty-printed JSON, which [`load_mq_case`] reads back.
pub fn save_mq_case(path: &Path, saved: &MqSavedCase) -> Result<(), StimError> {
    let json = serde_json::to_string_pretty(saved).expect("a saved case serialises");
    std::fs::write(path, json).map_err(|source| StimError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// Reads a saved case; errors name the file and the line, or the field and its bound.
pub fn load_mq_case(path: &Path) -> Result<MqSavedCase, StimError> {
    let text = super::read_bounded(path, super::MAX_CASE_BYTES)?;
    parse_mq_case(&text, &path.display().to_string())
}

/// A saved case from its JSON text; `file` names it in errors.
pub fn parse_mq_case(text: &str, file: &str) -> Result<MqSavedCase, StimError> {
    let json_error = |path: Option<String>, e: &serde_json::Error| {
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(m, _)| m);
        let field = path.map_or_else(String::new, |p| format!("`{p}`: "));
        StimError::Case(format!(
            "{file}:{}: {field}{}",
            e.line(),
            dcqcn_harness::clip_message(message)
        ))
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let saved: MqSavedCase = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        json_error((path != ".").then_some(path), e.inner())
    })?;
    de.end().map_err(|e| json_error(None, &e))?;
    if saved.format != MQ_SAVED_CASE_FORMAT {
        return Err(StimError::Case(format!(
            "{file}: format `{}` is not `{MQ_SAVED_CASE_FORMAT}`",
            crate::clip(&saved.format)
        )));
    }
    saved.check(file)?;
    Ok(saved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mq::MqBench;
    use crate::mq_coverage::MqCoverage;
    use dcqcn_model::mq::{MqBlock, MqOutputs};

    /// A case is a function of (seed, index, QPS list); another index draws another case.
    #[test]
    fn a_case_is_a_function_of_seed_and_index() {
        let built = [4u32, 64];
        let a = mq_case_at(5, 3, &built).unwrap();
        assert_eq!(a, mq_case_at(5, 3, &built).unwrap());
        assert_ne!(a, mq_case_at(5, 4, &built).unwrap());
        assert_ne!(a, mq_case_at(6, 3, &built).unwrap());
        let qps: Vec<u32> = (0..40)
            .map(|n| mq_case_at(1, n, &built).unwrap().qps)
            .collect();
        assert!(qps.contains(&4) && qps.contains(&64));
        assert!(mq_case_at(1, 0, &[]).is_err());
    }

    /// Every address a case writes fits the AXI4-Lite address, every enable combination is drawn,
    /// and a saved case reads back equal.
    #[test]
    fn drawn_cases_are_legal_and_round_trip() {
        let mut enables = [false; 16];
        for n in 0..300 {
            let c = mq_case_at(9, n, &[4, 64]).unwrap();
            let saved = MqSavedCase {
                format: MQ_SAVED_CASE_FORMAT.into(),
                cycles: 1000,
                variant: None,
                case: c.clone(),
            };
            saved.check("drawn").unwrap();
            let json = serde_json::to_string(&saved).unwrap();
            assert_eq!(parse_mq_case(&json, "drawn").unwrap(), saved);
            for &(a, v) in &c.stimulus.setup {
                if a == reg::ENABLES {
                    enables[v as usize] = true;
                }
            }
        }
        assert!(enables.iter().all(|&e| e), "{enables:?}");
    }

    #[test]
    fn bad_saved_cases_name_the_field() {
        let c = mq_case_at(1, 0, &[4]).unwrap();
        let saved = MqSavedCase {
            format: MQ_SAVED_CASE_FORMAT.into(),
            cycles: 100,
            variant: None,
            case: c,
        };
        let json = serde_json::to_string_pretty(&saved).unwrap();
        // a value too wide for its field
        let wide = json.replacen("\"unit_bytes\": [", "\"unit_bytes\": [70000, ", 1);
        let e = parse_mq_case(&wide, "f.json").unwrap_err().to_string();
        assert!(e.contains("unit_bytes"), "{e}");
        let mut s = saved.clone();
        s.case.stimulus.setup.push((1 << 21, 0));
        let e = parse_mq_case(&serde_json::to_string(&s).unwrap(), "f.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("case.stimulus.setup") && e.contains("21-bit"),
            "{e}"
        );
        let mut s = saved.clone();
        s.case.stimulus.cnp_rate = 2.0;
        let e = parse_mq_case(&serde_json::to_string(&s).unwrap(), "f.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("cnp_rate"), "{e}");
        let e = parse_mq_case("{ not json", "f.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.json:1:"), "{e}");
        let e = parse_mq_case(&json.replace("mq-fuzz-case 1", "x"), "f.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("format"), "{e}");
    }

    /// The model alone over the first cases of a campaign at QPS 4 and 64 reaches every bin of
    /// spec-mq 8.4 but those that need state injection (what `make fuzz-mq` then checks against
    /// the RTL).
    #[test]
    fn the_strategy_reaches_every_bin_on_the_model() {
        let mut cov = MqCoverage::new();
        for n in 0..NEEDED_CASES {
            let c = mq_case_at(1, n, &[4, 64]).unwrap();
            let mut run = MqCoverage::new();
            let p = MqParams::with_qps(c.qps).unwrap();
            let mut m = MqBlock::new(p);
            let mut bench = MqBench::new(&c.stimulus, c.qps, c.seed);
            let mut out = MqOutputs::default();
            for _ in 0..20_000 {
                let i = bench.next(&out);
                out = run.step(&mut m, &i);
            }
            run.mark_case(n);
            cov.merge(&run);
        }
        let missed = cov.missed();
        assert!(
            missed.iter().all(|b| NEED_INJECTION.contains(b)),
            "{}",
            cov.table()
        );
    }

    /// Cases of [`the_strategy_reaches_every_bin_on_the_model`] (`make fuzz-mq`'s first cases).
    const NEEDED_CASES: u64 = 400;

    /// The bins no run from reset reaches in practical lengths: 2^31 cycles without a grant on a
    /// QP, and a window read and write pending at once (the bench's master has one access in
    /// flight). State injection (spec-mq 8.3) reaches them once the lockstep loads an initial
    /// state into the HDLs.
    const NEED_INJECTION: [&str; 2] = ["stamp_age_2_31", "window_read_and_write"];
}
