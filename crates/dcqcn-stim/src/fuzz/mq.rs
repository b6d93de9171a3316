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
//!
//! One case in [`MQ_INJECTED_SHARE`] starts from an injected state (spec-mq 8.3, [`initial`]):
//! the configuration and enables, per-QP records near the configuration's thresholds, credits
//! near 0, the cap and -2^31, stamps 2^31 cycles in the past, `gcnt - dcnt` near the limits and
//! 255, counters near their wrap, the DFX window near full, and now and then a window read and a
//! window write pending on one QP. Such a case's setup keeps only its window writes: the global
//! words would overwrite the injected configuration.

use super::saved::{load_json, parse_json, save_json, SavedJson};
use crate::mq::{reg, window, CnpTarget, MqStimulus, SoftwareSpec};
use crate::StimError;
use dcqcn_model::mq::mem::low_mask;
use dcqcn_model::mq::obs::{state_index, STATE_FIELDS};
use dcqcn_model::mq::{regmap, Credit, MqInitial, MqParams, Record, MEMORIES};
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
    /// Start from this state (spec-mq 8.3), loaded before the first cycle with `rst` low
    /// (absent: from reset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial: Option<MqInitial>,
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
    let dfx_qp = prop_oneof![4 => 0u32..qps.min(4), 1 => qps.min(4095)..4096].boxed();
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

// ---- State injection (spec-mq 8.3) ----

/// Cases that start from an injected state: 1 in this many, as dcqcn_rl's.
pub const MQ_INJECTED_SHARE: u32 = super::strategy::INJECTED_SHARE;

/// A value near a threshold, resolved once the threshold is known ([`near`]): (mode, visits,
/// a little, any value).
type Near = (u8, u32, u32, u64);

fn near_knob() -> impl Strategy<Value = Near> {
    (
        prop_oneof![5 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        0u32..=3,
        0u32..=2,
        any::<u64>(),
    )
}

/// A timer of `bits` bits near its threshold `th` (spec-mq 5.5: it advances by QPS a visit):
/// a few visits below it or at it (mode 0), 0 (1), just below (2), anything (3).
fn near(k: Near, th: u64, qps: u32, bits: u32) -> u64 {
    let m = low_mask(bits);
    let (mode, visits, little, any) = k;
    match mode {
        0 => (th.saturating_sub(u64::from(visits) * u64::from(qps)) + u64::from(little)).min(m),
        1 => 0,
        2 => th.saturating_sub(1).min(m),
        _ => any & m,
    }
}

/// A stage near `F` and 255 (spec-mq 5.6): the knob picks F - 1, F, F + 1, 254, 255, 0 or any.
fn stage(k: (u8, u8), f: u8) -> u8 {
    match k.0 {
        0 => f.saturating_sub(1),
        1 => f,
        2 => f.saturating_add(1),
        3 => 254,
        4 => 255,
        5 => 0,
        _ => k.1,
    }
}

/// The knobs of one QP's injected entries, resolved against the configuration by [`qp_state`].
#[derive(Clone, Debug)]
struct QpKnobs {
    rates: (u32, u32, u32),
    alpha: u32,
    timers: (Near, Near, Near, Near),
    byte_cnt: (u8, u32, u32),
    stages: ((u8, u8), (u8, u8)),
    flags: (bool, bool),
    credit: (u8, i32, u32),
    stamp: (u8, u32, u32),
    ost: (u8, u8, u8),
    sent: (u32, u8, u32),
    req: (bool, u16),
    /// `rate_ok`, `lim8`, `cnp_flag`, `arb_mask`, and whether `ost_lt_hi`/`ost_lt_lo` follow
    /// the count (else the two next bits)
    bits: (bool, bool, bool, bool, bool, bool, bool),
}

fn qp_knobs(line_win: u32) -> impl Strategy<Value = QpKnobs> {
    let bit = |w: u32| prop_oneof![w => Just(false), 1 => Just(true)];
    (
        (
            (rate(line_win), rate(line_win), rate(line_win)),
            prop_oneof![Just(0u32), Just(1u32), Just(1023u32), 0u32..1024],
            (near_knob(), near_knob(), near_knob(), near_knob()),
            (0u8..4, 0u32..1_500, any::<u32>()),
            ((0u8..8, any::<u8>()), (0u8..8, any::<u8>())),
            (any::<bool>(), bit(2)),
        ),
        (
            (0u8..4, -2_048i32..=2_048, any::<u32>()),
            (0u8..4, 0u32..=64, any::<u32>()),
            (0u8..7, any::<u8>(), any::<u8>()),
            (any::<u32>(), 0u8..3, 0u32..100_000),
            (
                any::<bool>(),
                prop_oneof![Just(0u16), 1u16..=64, any::<u16>()],
            ),
            (
                any::<bool>(),
                bit(3),
                bit(3),
                bit(7),
                prop_oneof![3 => Just(true), 1 => Just(false)],
                any::<bool>(),
                any::<bool>(),
            ),
        ),
    )
        .prop_map(
            |(
                (rates, alpha, timers, byte_cnt, stages, flags),
                (credit, stamp, ost, sent, req, bits),
            )| QpKnobs {
                rates,
                alpha,
                timers,
                byte_cnt,
                stages,
                flags,
                credit,
                stamp,
                ost,
                sent,
                req,
                bits,
            },
        )
}

/// Writes QP q's entries and bitmap bits into `init`, near the thresholds of its configuration
/// (spec-mq 8.3).
fn qp_state(init: &mut MqInitial, q: usize, k: &QpKnobs) {
    let qps = init.qps();
    let c = init.state.regs.cfg;
    let now = init.state.scan.now;
    let m24 = low_mask(24) as u32;
    let (a_el, merge_el, cnp_el, inc_el) = k.timers;
    let byte_th = c.byte_cnt_th;
    let byte_cnt = match k.byte_cnt.0 {
        0 => byte_th.saturating_sub(k.byte_cnt.1),
        1 => byte_th,
        2 => u32::MAX - k.byte_cnt.1,
        _ => k.byte_cnt.2,
    };
    let (sent_any, sent_mode, sent_back) = k.sent;
    let sent_seen = match sent_mode {
        0 => sent_any,
        1 => sent_any.wrapping_sub(sent_back),
        _ => sent_back,
    };
    let r = Record {
        rc: k.rates.0 & m24,
        rt: k.rates.1 & m24,
        cc_rate: k.rates.2 & m24,
        alpha: k.alpha as u16,
        alpha_el: near(a_el, c.alpha_timer_th.into(), qps, 16) as u16,
        merge_el: near(merge_el, c.cnp_merge_period.into(), qps, 16) as u16,
        dec_pending: k.flags.1,
        cnp_el: near(cnp_el, c.cnp_timer_thrd.into(), qps, 24) as u32,
        byte_cnt,
        sent_seen,
        t_stage: stage(k.stages.0, c.stage_threshold),
        b_stage: stage(k.stages.1, c.stage_threshold),
        active: k.flags.0,
        inc_el: near(inc_el, c.nocnp_timer_th.into(), qps, 24) as u32,
    };
    let mems = &mut init.mems;
    mems.set_record(q, &r);
    // credit (1/1024 byte, spec-mq 4.5): near 0, near the cap CAPQ, near -2^31, anything
    let capq = c.capq().min(i64::from(i32::MAX)) as i32;
    let (cmode, little, any) = k.credit;
    let credit = match cmode {
        0 => little,
        1 => capq.saturating_add(little.min(2)),
        2 => i32::MIN.saturating_add(little.abs()),
        _ => any as i32,
    };
    // the stamp: a few visits ago, 2^31 cycles or more ago, just under 2^31 ago, anything
    let (smode, back, any) = k.stamp;
    let stamp = match smode {
        0 => now.wrapping_sub(back * qps),
        1 => now.wrapping_sub((1 << 31) + back),
        2 => now.wrapping_sub((1 << 31) - 1 - back),
        _ => any,
    };
    mems.cc_byte_cnt_mem[q] = Credit { credit, stamp }.pack();
    // gcnt - dcnt (spec-mq 4.6) near the limits and 255
    let (omode, dcnt, any) = k.ost;
    let (hi, lo) = (c.ost_limit.max(1), c.ost_limit_cnp.max(1));
    let ost = match omode {
        0 => hi - 1,
        1 => hi,
        2 => lo - 1,
        3 => lo,
        4 => 255,
        5 => 254,
        _ => any,
    };
    mems.done_cnt_mem[q] = dcnt;
    mems.grant_cnt_mem[q] = dcnt.wrapping_add(ost);
    mems.sent_mem[q] = sent_any;
    mems.req_mem[q] = k.req.1;
    let (rate_ok, lim8, cnp_flag, arb_mask, follow, lt_hi, lt_lo) = k.bits;
    let b = &mut init.state.bitmaps;
    b.req_valid.set(q, k.req.0);
    b.rate_ok.set(q, rate_ok);
    b.lim8.set(q, lim8);
    b.cnp_flag.set(q, cnp_flag);
    b.arb_mask.set(q, arb_mask);
    b.ost_lt_hi.set(q, if follow { ost < hi } else { lt_hi });
    b.ost_lt_lo.set(q, if follow { ost < lo } else { lt_lo });
}

/// The configuration registers (spec-mq 6.2) of an injected state, as (state field, value).
fn injected_config(qps: u32, line_win: u32) -> impl Strategy<Value = Vec<(&'static str, u64)>> {
    let limit = || prop_oneof![2 => 1u32..=4, 2 => 5u32..=20, 1 => Just(0u32), 1 => 200u32..=255];
    (
        (
            prop_oneof![2 => Just(0xFu32), 5 => 0u32..16],
            visits(qps, 16),
            visits(qps, 24),
            prop_oneof![1 => Just(0u32), 2 => 500u32..50_000, 1 => any::<u32>()],
            rate(line_win),
            visits(qps, 16),
        ),
        (
            prop_oneof![2 => Just(4u32), 1 => Just(0u32), 1 => Just(1023u32), 2 => 0u32..1024],
            prop_oneof![2 => Just(1u32), 1 => Just(0u32), 1 => Just(15u32), 2 => 0u32..16],
            prop_oneof![3 => Just(1023u32), 1 => Just(0u32), 2 => 0u32..1024],
            (rate(line_win), rate(line_win), rate(line_win)),
            prop_oneof![2 => Just(5u32), 2 => 0u32..3, 1 => 253u32..=255, 1 => 0u32..256],
            any::<bool>(),
        ),
        (
            visits(qps, 24),
            limit(),
            limit(),
            prop_oneof![
                2 => Just(65_536u32),
                2 => 1u32..=64,
                2 => 500u32..=20_000,
                1 => Just(0u32),
                1 => (mask(21) - 4)..=mask(21),
                1 => any::<u32>().prop_map(|v| v & mask(21)),
            ],
            (any::<bool>(), any::<bool>(), 0u32..64),
            prop_oneof![4 => 0u32..qps.min(4), 1 => qps.min(4095)..4096],
        ),
    )
        .prop_map(
            |(
                (en, merge, nocnp, bytes, max_rate, alpha_th),
                (g, shift, ainit, (ai, hai, rmin), f, clamp),
                (cnp_thrd, ost, ost_cnp, cap, (dfx_en, dfx_wrap, dfx_sel), dfx_qp),
            )| {
                let b = |x: bool| u64::from(x);
                vec![
                    ("cfg_dcqcn_hw_en", u64::from(en & 1)),
                    ("cfg_hw_rate_throttle_en", u64::from(en >> 1 & 1)),
                    ("cfg_tx_wqe_ost_limit_en", u64::from(en >> 2 & 1)),
                    ("cfg_speed_limiter_en", u64::from(en >> 3 & 1)),
                    ("cfg_cnp_merge_period", merge.into()),
                    ("cfg_nocnp_timer_th", nocnp.into()),
                    ("cfg_byte_cnt_th", bytes.into()),
                    ("cfg_max_rate", max_rate.into()),
                    ("cfg_alpha_timer_th", alpha_th.into()),
                    ("cfg_upd_alpha_g", g.into()),
                    ("cfg_alpha_rate_shift", shift.into()),
                    ("cfg_alpha_init", ainit.into()),
                    ("cfg_rate_ai", ai.into()),
                    ("cfg_rate_hai", hai.into()),
                    ("cfg_rate_min", rmin.into()),
                    ("cfg_stage_threshold", f.into()),
                    ("cfg_clamp_tgt", b(clamp)),
                    ("cfg_cnp_timer_thrd", cnp_thrd.into()),
                    ("cfg_ost_limit", ost.into()),
                    ("cfg_ost_limit_cnp", ost_cnp.into()),
                    ("cfg_credit_cap", cap.into()),
                    ("cfg_dfx_en", b(dfx_en)),
                    ("cfg_dfx_wrap", b(dfx_wrap)),
                    ("cfg_dfx_sel", dfx_sel.into()),
                    ("cfg_dfx_qp", dfx_qp.into()),
                ]
            },
        )
}

/// The engine's registers (spec-mq 4.2), counters and DFX registers of an injected state, as
/// (state field, value): `now` anywhere and near its wrap, the scan and picker anywhere in range,
/// the pipeline stages valid now and then, the port credit near 0 and its extremes, in 1 case of
/// 4 a window read and a window write pending on one QP (spec-mq 6.1, the bin
/// `window_read_and_write`), counters near their wrap, the DFX window near full.
fn injected_engine(qps: u32) -> impl Strategy<Value = Vec<(&'static str, u64)>> {
    let stage = move || {
        (
            prop_oneof![3 => Just(false), 1 => Just(true)],
            0..qps,
            any::<u16>(),
        )
    };
    (
        (
            prop_oneof![2 => any::<u32>(), 1 => 0u32..1_000, 1 => (u32::MAX - 1_000)..=u32::MAX],
            0..qps,
            prop_oneof![7 => Just(false), 1 => Just(true)],
            0..qps,
            (stage(), stage(), stage()),
            prop_oneof![
                2 => -2i32..=2,
                1 => any::<i32>(),
                1 => i32::MIN..(i32::MIN + 4),
                1 => (i32::MAX - 4)..=i32::MAX,
            ],
        ),
        (
            prop_oneof![3 => Just(None), 1 => (0..qps, 0u32..64, 0u32..64, any::<u32>(), 0u32..16).prop_map(Some)],
            prop_oneof![2 => Just(None), 1 => (0u64..64).prop_map(Some)],
            (
                prop_oneof![1 => Just(0u32), 1 => Just(1u32), 2 => 62u32..=64, 1 => 0u32..128],
                0u32..64,
                any::<bool>(),
                prop_oneof![1 => Just(0u32), 1 => 1020u32..1024, 1 => 0u32..1024],
                prop_oneof![1 => any::<u32>(), 1 => (u32::MAX - 100)..=u32::MAX],
            ),
        ),
    )
        .prop_map(
            move |(
                (now, scan_q, init, rr, (gx, rx, g), pcredit),
                (window, wrap_back, (dfx_count, dfx_wptr, dfx_lost, dfx_n, dfx_time)),
            )| {
                let b = |x: bool| u64::from(x);
                let mut f = vec![
                    ("now", u64::from(now)),
                    ("scan_q", scan_q.into()),
                    ("init", b(init)),
                    ("rr", rr.into()),
                    ("gx_valid", b(gx.0)),
                    ("gx_qp", gx.1.into()),
                    ("rx_valid", b(rx.0)),
                    ("rx_qp", rx.1.into()),
                    ("rx_bytes", rx.2.into()),
                    ("pcredit", u64::from(pcredit as u32)),
                    ("g_valid", b(g.0)),
                    ("g_qp", g.1.into()),
                    ("g_bytes", g.2.into()),
                    ("dfx_count", dfx_count.into()),
                    ("dfx_wptr", dfx_wptr.into()),
                    ("dfx_lost", b(dfx_lost)),
                    ("dfx_n_dec", dfx_n.into()),
                    ("dfx_n_byte", dfx_n.into()),
                    ("dfx_n_timer", dfx_n.into()),
                    ("dfx_time", dfx_time.into()),
                ];
                if let Some((q, rword, wword, wdata, wstrb)) = window {
                    f.extend([
                        ("rpend", 1),
                        ("rq", q.into()),
                        ("rword", rword.into()),
                        ("wpend", 1),
                        ("wq", q.into()),
                        ("wword", wword.into()),
                        ("wdata", wdata.into()),
                        ("wstrb", wstrb.into()),
                    ]);
                }
                // the counters a few events from their wrap
                if let Some(back) = wrap_back {
                    f.extend(
                        STATE_FIELDS
                            .iter()
                            .filter(|(n, _)| n.starts_with("cnt_"))
                            .map(|&(n, bits)| (n, low_mask(bits) - back)),
                    );
                }
                f
            },
        )
}

/// The width of state field `name` (obs.rs `STATE_FIELDS`).
fn field_bits(name: &str) -> u32 {
    state_index(name).map_or(64, |k| STATE_FIELDS[k].1)
}

/// An injected starting state at `qps` (spec-mq 8.3); every value within its field's width.
pub fn initial(p: MqParams) -> impl Strategy<Value = MqInitial> {
    let (qps, line_win) = (p.qps(), p.line_win());
    // boxed parts, as in mq_case
    (
        injected_config(qps, line_win).boxed(),
        injected_engine(qps).boxed(),
        prop::collection::vec(qp_knobs(line_win).boxed(), qps as usize),
        prop::collection::vec(any::<u64>(), dcqcn_model::mq::mem::DFX_ENTRIES),
    )
        .prop_map(move |(cfg, engine, qp, dfx)| {
            let mut init = MqInitial::reset(&p);
            for (name, v) in cfg.into_iter().chain(engine) {
                init.state
                    .set_field(name, v & low_mask(field_bits(name)))
                    .expect("a state field, cut to its width");
            }
            for (q, k) in qp.iter().enumerate() {
                qp_state(&mut init, q, k);
            }
            // the DFX window's entries: anything (set_entry cuts each to the entry's width)
            if let Some(m) = MEMORIES.iter().position(|m| m.name == "dfx_mem") {
                for (i, v) in dfx.into_iter().enumerate() {
                    init.mems.set_entry(m, i, v);
                }
            }
            init
        })
}

/// One case at one of the QPS values `qps_built` (spec-mq 8.3).
pub fn mq_case(qps_built: Vec<u32>) -> impl Strategy<Value = MqCase> {
    prop::sample::select(qps_built).prop_flat_map(|qps| {
        let params = MqParams::with_qps(qps).ok();
        let line_win = params.map_or(0xFF_FFFF, |p| p.line_win());
        // drawn last: the draws before it are those of a case from reset
        let injected = match params {
            Some(p) => prop_oneof![
                MQ_INJECTED_SHARE - 1 => Just(None),
                1 => initial(p).prop_map(Some),
            ]
            .boxed(),
            None => Just(None).boxed(),
        };
        // each part boxed: the value tree of the tuple then holds pointers, not the parts'
        // trees themselves (unboxed, a debug build overflows a test thread's 2 MiB stack)
        (
            Just(qps),
            any::<u64>(),
            global_setup(qps, line_win).boxed(),
            qp_setup(qps, line_win).boxed(),
            neighbours(qps).boxed(),
            resets(qps).boxed(),
            software(qps).boxed(),
            prop_oneof![5 => Just(None), 1 => prop::sample::select(vec![64u16, 256, 1500, 4096]).prop_map(Some)],
            prop_oneof![3 => Just(0.0f64), 1 => prob(1_000, 50_000)],
            prop_oneof![7 => Just(false), 1 => Just(true)],
            (
                prop_oneof![3 => Just(false), 1 => Just(true)],
                prop_oneof![3 => Just(false), 1 => Just(true)],
            ),
            injected,
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
                    (reset_events, bus_edges),
                    initial,
                )| {
                    let (
                        (stride, max_qps, backlog, unit_bytes, post_delay, rpt_delay),
                        (spurious, cnp_rate, cnp_target, bad_qp, pause_rate, pause_len),
                    ) = n;
                    // an injected state brings its configuration: the global words of the
                    // setup would overwrite it at the first cycles
                    let mut setup = if initial.is_some() { vec![] } else { globals };
                    let mut unit_bytes = unit_bytes;
                    if let (Some(b), None) = (cap_unit, &initial) {
                        // the cap equals the request: a refilled QP's grant leaves credit 0
                        setup.push((reg::CREDIT_CAP, u32::from(b)));
                        unit_bytes = (b, b);
                    }
                    setup.extend(qp_words);
                    let mut software = software;
                    if credit_edge && initial.is_none() {
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
                            reset_events,
                            bus_edges,
                        },
                        initial,
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
        if let Some(init) = &c.initial {
            if init.qps() != c.qps {
                return Err(bad(
                    "case.initial",
                    format!(
                        "a state for QPS {}, the case is at QPS {}",
                        init.qps(),
                        c.qps
                    ),
                ));
            }
            init.validate(c.qps)
                .map_err(|e| bad("case.initial", e.to_string()))?;
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

impl SavedJson for MqSavedCase {
    const FORMAT: &'static str = MQ_SAVED_CASE_FORMAT;
    fn format(&self) -> &str {
        &self.format
    }
    fn check(&self, file: &str) -> Result<(), StimError> {
        MqSavedCase::check(self, file)
    }
}

/// Writes a saved case as pretty-printed JSON, which [`load_mq_case`] reads back.
pub fn save_mq_case(path: &Path, saved: &MqSavedCase) -> Result<(), StimError> {
    save_json(path, saved)
}

/// Reads a saved case; errors name the file and the line, or the field and its bound.
pub fn load_mq_case(path: &Path) -> Result<MqSavedCase, StimError> {
    load_json(path)
}

/// A saved case from its JSON text; `file` names it in errors.
pub fn parse_mq_case(text: &str, file: &str) -> Result<MqSavedCase, StimError> {
    parse_json(text, file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mq::MqBench;
    use crate::mq_coverage::{MqCoverage, MQ_BINS};
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

    /// The coverage of case `n` over `cycles` on the model alone, from its injected state when it
    /// has one (loaded before the first cycle with `rst` low, as the lockstep loads it).
    fn model_coverage(c: &MqCase, n: u64, cycles: u64) -> MqCoverage {
        let mut run = MqCoverage::new();
        let mut m = MqBlock::new(MqParams::with_qps(c.qps).unwrap());
        let mut bench = MqBench::new(&c.stimulus, c.qps, c.seed);
        let mut out = MqOutputs::default();
        let mut pending = c.initial.as_ref();
        for _ in 0..cycles {
            let i = bench.next(&out);
            if let Some(init) = pending.filter(|_| !i.rst) {
                m.load(init).unwrap();
                pending = None;
            }
            out = run.step(&mut m, &i);
        }
        run.mark_case(n);
        run
    }

    /// The model alone over the first cases of a campaign at QPS 4 and 64 reaches every bin of
    /// spec-mq 8.4 (what `make fuzz-mq` then checks against the RTL); the two bins no run from
    /// reset reaches (2^31 cycles without a grant; a window read and write pending at once, which
    /// the bench's one-access master never issues) are hit by injected cases only.
    #[test]
    fn the_strategy_reaches_every_bin_on_the_model() {
        let (mut cov, mut from_reset) = (MqCoverage::new(), MqCoverage::new());
        for n in 0..NEEDED_CASES {
            let c = mq_case_at(1, n, &[4, 64]).unwrap();
            let run = model_coverage(&c, n, 20_000);
            if c.initial.is_none() {
                from_reset.merge(&run);
            }
            cov.merge(&run);
        }
        assert_eq!(cov.covered(), MQ_BINS.len(), "{}", cov.table());
        for b in NEED_INJECTION {
            assert!(from_reset.missed().contains(&b), "{b} hit from reset");
        }
    }

    /// Cases of [`the_strategy_reaches_every_bin_on_the_model`] (`make fuzz-mq`'s first cases).
    const NEEDED_CASES: u64 = 400;

    /// The bins only an injected state reaches (spec-mq 8.4).
    const NEED_INJECTION: [&str; 2] = ["stamp_age_2_31", "window_read_and_write"];

    /// About one case in four is injected (a function of (seed, n) like the rest of the case),
    /// every injected state fits its fields at the case's QPS, and they reach the edges of
    /// spec-mq 8.3: a stamp 2^31 cycles in the past, a window read and write pending on one QP,
    /// credits at -2^31 + a little, `gcnt - dcnt` at 255.
    #[test]
    fn injected_states_are_drawn_legal_and_at_the_edges() {
        let (mut injected, mut old_stamp, mut window, mut low_credit, mut ost255) =
            (0, false, false, false, false);
        for n in 0..200 {
            let c = mq_case_at(2, n, &[4, 64]).unwrap();
            let Some(init) = &c.initial else { continue };
            injected += 1;
            assert_eq!(init.qps(), c.qps);
            init.validate(c.qps).unwrap();
            assert!(
                c.stimulus.setup.iter().all(|&(a, _)| a >= regmap::QP_BASE),
                "case {n}: a global setup word would overwrite the injected configuration"
            );
            let s = &init.state;
            window |= s.regs.bus.rpend && s.regs.bus.wpend && s.regs.bus.rq == s.regs.bus.wq;
            for q in 0..c.qps as usize {
                let cr = init.mems.credit(q);
                old_stamp |= s.scan.now.wrapping_sub(cr.stamp) >= 1 << 31;
                low_credit |= cr.credit < i32::MIN + 4_096;
                ost255 |= init.mems.grant_cnt_mem[q].wrapping_sub(init.mems.done_cnt_mem[q]) == 255;
            }
        }
        assert!((30..=70).contains(&injected), "{injected} of 200 injected");
        assert!(old_stamp && window && low_credit && ost255);
    }

    /// A saved case carries its injected state and reads back equal; a value too wide for its
    /// field, or a state of another QPS, is refused naming the field.
    #[test]
    fn a_saved_injected_case_round_trips_and_a_wide_value_is_refused() {
        let c = (0..40)
            .map(|n| mq_case_at(3, n, &[4]).unwrap())
            .find(|c| c.initial.is_some())
            .expect("an injected case among 40");
        let saved = MqSavedCase {
            format: MQ_SAVED_CASE_FORMAT.into(),
            cycles: 100,
            variant: None,
            case: c,
        };
        let json = serde_json::to_string_pretty(&saved).unwrap();
        assert!(json.contains("\"initial\""));
        assert_eq!(parse_mq_case(&json, "f.json").unwrap(), saved);
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["case"]["initial"]["state"]["cfg_alpha_init"] = 1024.into();
        let e = parse_mq_case(&v.to_string(), "f.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("case.initial") && e.contains("state.cfg_alpha_init"),
            "{e}"
        );
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["case"]["initial"]["mems"]["t_bc_mem"][1] = (1u64 << 41).into();
        let e = parse_mq_case(&v.to_string(), "f.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("mem.t_bc_mem[1]"), "{e}");
        let mut s = saved.clone();
        s.case.qps = 64;
        let e = parse_mq_case(&serde_json::to_string(&s).unwrap(), "f.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("case.initial") && e.contains("QPS 4"), "{e}");
    }
}
