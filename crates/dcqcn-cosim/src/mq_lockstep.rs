//! The lockstep of the multi-QP block `dcqcn_mq` (docs/spec-mq.md 8): the model and the
//! Verilated `dcqcn_mq_core` take the same inputs every cycle, and every cycle t, before its
//! closing edge, the lockstep compares every output, the state S(t) field by field (8.1), every
//! bit of the seven bitmaps, and every memory-write stream (8.2: valid, QP, data field by field).
//! After the last cycle it compares the final state and bitmaps. It stops at the first difference.
//!
//! Whole memories, every copy of every memory in the RTL, are compared between two clock edges
//! (spec-mq 8.2): when an init round ends, after the last cycle, and right after a state
//! injection (`MqRunSpec::initial`, spec-mq 8.3); `REQ_MEM` where `req_valid` is set.
//!
//! The stimulus is closed-loop (`dcqcn_stim::mq::MqBench`): it sees the model's outputs of the
//! previous cycle. The hot loop compares the RTL's port words with the model's record without
//! unpacking them; a difference is then shown through `MqObs::unpack`, field by field.

use crate::mq_rtl::{MqRtl, ObsWords};
use crate::CosimError;
use dcqcn_model::mq::mem::REQ_MEM;
use dcqcn_model::mq::obs::{get_bits, BITMAPS, STATE_FIELDS, STREAMS};
use dcqcn_model::mq::{
    mem_copies, MqBlock, MqInputs, MqMems, MqObs, MqOutputs, MqParams, MEMORIES,
};
use dcqcn_stim::mq::{describe, describe_outputs, MqBench, MqBenchStats, MqStimulus};
use dcqcn_stim::variant::Hdl;
use serde::Serialize;
use std::time::Instant;

pub use crate::lockstep::{HISTORY_CYCLES, WAVEFORM_CYCLES};

/// What a run is: a scenario's stimulus at a QPS on one HDL, from a seed, for some cycles.
#[derive(Clone, Debug)]
pub struct MqRunSpec {
    pub scenario: String,
    pub stimulus: MqStimulus,
    pub qps: u32,
    pub hdl: Hdl,
    /// The compiled variant to run by name (a mutant `mut_<name>`, feature `mutants`); it must be
    /// of `hdl` at `qps`. None: the correct variant of `hdl` at `qps`.
    pub variant: Option<String>,
    pub seed: u64,
    pub cycles: u64,
    /// The command that replays this run (`--cycles` is added at a mismatch).
    pub replay: String,
    /// A deliberate difference, for the tests that show the comparison can fail: at cycle `.0`
    /// the RTL's observed value is changed as `.1` says before it is compared.
    pub plant: Option<(u64, Plant)>,
    /// State injection (spec-mq 8.3): when set, the model and the RTL start from this state
    /// (every register, bitmap bit and memory entry, every copy of every memory in the RTL). It
    /// is loaded into both between two clock edges, after the stimulus's reset: just before the
    /// first cycle whose input has `rst` low (before cycle 0 when that one has), so the reset
    /// cycles cannot undo it. Its QPS must be the run's and every value must fit its field
    /// (`MqInitial::validate`), else the run is refused naming the field. The whole memories
    /// are compared right after the load (the injection itself), when an init round ends and
    /// at the end of the run (spec-mq 8.2). None: the run starts from power-up and reset.
    pub initial: Option<dcqcn_model::mq::MqInitial>,
}

/// A planted difference in the RTL's observation of one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plant {
    /// Bit `bit` of state field `field` (index in `STATE_FIELDS`) flipped.
    State { field: usize, bit: u32 },
    /// Bitmap `map` (index in `BITMAPS`), QP `qp`, flipped.
    Bitmap { map: usize, qp: u32 },
    /// Bit `bit` of data field `field` of stream `stream` flipped.
    Write {
        stream: usize,
        field: usize,
        bit: u32,
    },
    /// Bit `bit` of entry `entry` of memory copy `copy` (`mem_copies` numbering) flipped in the
    /// RTL's dump, at every whole-memory comparison from the plant's cycle on (spec-mq 8.2).
    Mem { copy: usize, entry: usize, bit: u32 },
}

impl Plant {
    fn apply(&self, qps: u32, w: &mut ObsWords) {
        let flip = |words: &mut Vec<u32>, at: u32| words[(at / 32) as usize] ^= 1 << (at % 32);
        match *self {
            Plant::State { field, bit } => {
                let at: u32 = STATE_FIELDS[..field].iter().map(|f| f.1).sum();
                flip(&mut w.state, at + bit);
            }
            Plant::Bitmap { map, qp } => flip(&mut w.bitmaps, map as u32 * qps + qp),
            Plant::Write { stream, field, bit } => {
                let at = stream_at(stream)
                    + 13
                    + STREAMS[stream].fields[..field]
                        .iter()
                        .map(|f| f.1)
                        .sum::<u32>();
                flip(&mut w.writes, at + bit);
            }
            // memories are compared between edges, not in the observation of a cycle
            Plant::Mem { .. } => {}
        }
    }
}

/// Every differing memory entry (spec-mq 8.2): each copy of `rtl` (`mem_copies` order, from
/// [`MqRtl::memories`]) against the model's memory, field by field (`mem.rate_mem_visit[17].rc`);
/// `REQ_MEM` only at the QPs whose `req_valid` is set.
pub fn diff_memories(model: &MqBlock, rtl: &[Vec<u64>], d: &mut Vec<MqFieldDiff>) {
    let mems = model.mems();
    let req_valid = &model.state().bitmaps.req_valid;
    for (c, got) in mem_copies().iter().zip(rtl) {
        let want = mems.entries(c.memory);
        for (i, (&e, &a)) in want.iter().zip(got).enumerate() {
            if e == a || (c.memory == REQ_MEM && !req_valid.get(i)) {
                continue;
            }
            for (f, field) in MEMORIES[c.memory].fields.iter().enumerate() {
                let (x, y) = (
                    MqMems::field_of(c.memory, f, e),
                    MqMems::field_of(c.memory, f, a),
                );
                if x != y {
                    d.push(MqFieldDiff {
                        field: format!("mem.{}[{i}].{}", c.name(), field.0),
                        block: "mem",
                        expected: x,
                        actual: y,
                    });
                }
            }
        }
    }
}

/// The RTL's whole memories, with a planted memory difference applied when one is due.
fn rtl_memories(rtl: &mut MqRtl, plant: &Option<(u64, Plant)>, cycle: u64) -> Vec<Vec<u64>> {
    let mut m = rtl.memories();
    if let Some((at, Plant::Mem { copy, entry, bit })) = plant {
        if cycle >= *at {
            m[*copy][*entry] ^= 1 << bit;
        }
    }
    m
}

/// First bit of stream `k` in `obs_writes`.
fn stream_at(k: usize) -> u32 {
    STREAMS[..k].iter().map(|s| 13 + s.width).sum()
}

/// `width` bits (at most 64) at bit `at` of 32-bit little-endian words.
#[inline]
fn bits32(w: &[u32], at: u32, width: u32) -> u64 {
    let first = (at / 32) as usize;
    let shift = at % 32;
    let mut v = 0u128;
    for k in 0..3 {
        if let Some(&x) = w.get(first + k) {
            v |= u128::from(x) << (32 * k);
        }
    }
    let v = (v >> shift) as u64;
    if width == 64 {
        v
    } else {
        v & ((1 << width) - 1)
    }
}

/// One differing field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MqFieldDiff {
    /// `out.m_grant_qp`, `state.cnt_dec`, `bitmap.rate_ok[17]`, `write.wv.rc`, ...
    pub field: String,
    /// `out`, `state`, `bitmap`, `write`, `final` (the state after the last cycle) or `mem` (a
    /// whole-memory comparison between two edges: after an injection, at the end of an init round,
    /// after the last cycle; spec-mq 8.2)
    pub block: &'static str,
    pub expected: u64,
    pub actual: u64,
}

/// One cycle before a mismatch.
#[derive(Clone, Debug, Serialize)]
pub struct MqHistoryRow {
    pub cycle: u64,
    pub inputs: String,
    pub outputs: String,
}

/// The first difference between the model and the RTL.
#[derive(Clone, Debug, Serialize)]
pub struct MqMismatch {
    pub cycle: u64,
    pub scenario: String,
    pub hdl: &'static str,
    pub qps: u32,
    pub seed: u64,
    /// Every differing field of that cycle, the first one first (outputs, state, bitmaps,
    /// writes).
    pub fields: Vec<MqFieldDiff>,
    /// The last cycles' inputs and model outputs, the mismatch's cycle last.
    pub history: Vec<MqHistoryRow>,
    pub replay: String,
}

impl MqMismatch {
    /// The report: where, what, expected vs actual, the last cycles, how to reproduce.
    pub fn report(&self) -> String {
        let mut s = format!(
            "MISMATCH at cycle {}{}, block dcqcn_mq, scenario {}, seed {}, {} at QPS {}: first {}\n",
            self.cycle,
            if self.fields.first().is_some_and(|f| f.block == "final") {
                " (the state after the last cycle)"
            } else {
                ""
            },
            self.scenario,
            self.seed,
            self.hdl,
            self.qps,
            self.fields.first().map_or("", |f| f.field.as_str())
        );
        let hex: Vec<(String, String, String, String)> = self
            .fields
            .iter()
            .map(|f| {
                (
                    format!("{:#x}", f.expected),
                    f.expected.to_string(),
                    format!("{:#x}", f.actual),
                    f.actual.to_string(),
                )
            })
            .collect();
        let rows: Vec<_> = self
            .fields
            .iter()
            .zip(&hex)
            .map(|(f, h)| dcqcn_harness::report::DiffRow {
                field: &f.field,
                block: f.block,
                model_hex: &h.0,
                model: &h.1,
                rtl_hex: &h.2,
                rtl: &h.3,
            })
            .collect();
        s += &dcqcn_harness::report::mismatch_table(
            &rows,
            self.history
                .iter()
                .map(|h| (h.cycle, h.inputs.as_str(), h.outputs.as_str())),
        );
        s += &format!("replay: {}\n", self.replay);
        s
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct MqRunStats {
    pub cycles: u64,
    pub seconds: f64,
    pub bench: MqBenchStats,
}

impl MqRunStats {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct MqOutcome {
    pub stats: MqRunStats,
    pub mismatch: Option<MqMismatch>,
}

/// Something that watches the cycles of a window (the waveform writer).
pub trait MqTracer {
    fn cycle(
        &mut self,
        cycle: u64,
        inputs: &MqInputs,
        model: &(MqOutputs, MqObs),
        rtl: &(MqOutputs, MqObs),
    );
}

/// Every differing output field, in port order.
pub fn diff_outputs(m: &MqOutputs, r: &MqOutputs, d: &mut Vec<MqFieldDiff>) {
    let f = |x: bool| u64::from(x);
    let pairs: [(&str, u64, u64); 11] = [
        ("m_grant_valid", f(m.m_grant_valid), f(r.m_grant_valid)),
        ("m_grant_qp", m.m_grant_qp.into(), r.m_grant_qp.into()),
        (
            "m_grant_bytes",
            m.m_grant_bytes.into(),
            r.m_grant_bytes.into(),
        ),
        ("s_axil_awready", f(m.s_axil_awready), f(r.s_axil_awready)),
        ("s_axil_wready", f(m.s_axil_wready), f(r.s_axil_wready)),
        ("s_axil_arready", f(m.s_axil_arready), f(r.s_axil_arready)),
        ("s_axil_bvalid", f(m.s_axil_bvalid), f(r.s_axil_bvalid)),
        ("s_axil_bresp", m.s_axil_bresp.into(), r.s_axil_bresp.into()),
        ("s_axil_rvalid", f(m.s_axil_rvalid), f(r.s_axil_rvalid)),
        ("s_axil_rdata", m.s_axil_rdata.into(), r.s_axil_rdata.into()),
        ("s_axil_rresp", m.s_axil_rresp.into(), r.s_axil_rresp.into()),
    ];
    for (name, e, a) in pairs {
        if e != a {
            d.push(MqFieldDiff {
                field: format!("out.{name}"),
                block: "out",
                expected: e,
                actual: a,
            });
        }
    }
}

/// Whether the RTL's observation words equal the model's record (state, bitmaps and, with
/// `writes`, the write streams), without unpacking them.
#[inline]
pub fn obs_matches(qps: u32, m: &MqObs, r: &ObsWords, writes: bool) -> bool {
    let mut at = 0;
    for (f, &v) in STATE_FIELDS.iter().zip(&m.state) {
        if bits32(&r.state, at, f.1) != v {
            return false;
        }
        at += f.1;
    }
    for (k, map) in m.bitmaps.iter().enumerate() {
        for (w, &v) in map.iter().enumerate() {
            let lo = 64 * w as u32;
            let n = (qps - lo).min(64);
            let mask = if n == 64 { u64::MAX } else { (1 << n) - 1 };
            if bits32(&r.bitmaps, k as u32 * qps + lo, n) != v & mask {
                return false;
            }
        }
    }
    if writes {
        let mut at = 0;
        for (s, w) in STREAMS.iter().zip(&m.writes) {
            if bits32(&r.writes, at, 1) != u64::from(w.valid)
                || bits32(&r.writes, at + 1, 12) != u64::from(w.qp)
            {
                return false;
            }
            let mut b = 0;
            while b < s.width {
                let n = (s.width - b).min(64);
                if bits32(&r.writes, at + 13 + b, n) != get_bits(&w.data, b, n) {
                    return false;
                }
                b += n;
            }
            at += 13 + s.width;
        }
    }
    true
}

/// Every differing field of the two records, named (state, then bitmaps bit by bit, then, with
/// `writes`, each stream's valid, QP and data fields); `block` is "state" or "final".
pub fn diff_obs(m: &MqObs, r: &MqObs, writes: bool, last: bool, d: &mut Vec<MqFieldDiff>) {
    let (sb, bb) = if last {
        ("final", "final")
    } else {
        ("state", "bitmap")
    };
    for (f, (&e, &a)) in STATE_FIELDS.iter().zip(m.state.iter().zip(&r.state)) {
        if e != a {
            d.push(MqFieldDiff {
                field: format!("state.{}", f.0),
                block: sb,
                expected: e,
                actual: a,
            });
        }
    }
    for (k, (em, am)) in m.bitmaps.iter().zip(&r.bitmaps).enumerate() {
        for (w, (&e, &a)) in em.iter().zip(am).enumerate() {
            let x = e ^ a;
            for b in 0..64 {
                if x >> b & 1 == 1 {
                    d.push(MqFieldDiff {
                        field: format!("bitmap.{}[{}]", BITMAPS[k], 64 * w + b),
                        block: bb,
                        expected: e >> b & 1,
                        actual: a >> b & 1,
                    });
                }
            }
        }
    }
    if writes {
        for (s, (e, a)) in STREAMS.iter().zip(m.writes.iter().zip(&r.writes)) {
            let mut one = |name: &str, x: u64, y: u64| {
                if x != y {
                    d.push(MqFieldDiff {
                        field: format!("write.{}.{name}", s.name),
                        block: "write",
                        expected: x,
                        actual: y,
                    });
                }
            };
            one("valid", e.valid.into(), a.valid.into());
            one("qp", e.qp.into(), a.qp.into());
            for (i, f) in s.fields.iter().enumerate() {
                one(f.0, e.field(s, i), a.field(s, i));
            }
        }
    }
}

/// Runs the lockstep. `trace` sees the cycles in its window (model and RTL, both unpacked).
pub fn run(
    spec: &MqRunSpec,
    mut trace: Option<(&mut dyn MqTracer, std::ops::Range<u64>)>,
) -> Result<MqOutcome, CosimError> {
    let params = MqParams::with_qps(spec.qps)
        .map_err(|e| CosimError::Verilator(format!("model parameters: {e}")))?;
    if let Some(init) = &spec.initial {
        if init.qps() != spec.qps {
            return Err(dcqcn_model::mq::MqInitialError::Qps {
                initial: init.qps(),
                run: spec.qps,
            }
            .into());
        }
        init.validate(spec.qps)?;
    }
    let mut rtl = match &spec.variant {
        None => MqRtl::new(spec.hdl, spec.qps)?,
        Some(name) => MqRtl::named(name)?,
    };
    let v = rtl.variant();
    if (v.hdl, v.qps) != (spec.hdl, spec.qps) {
        return Err(CosimError::MqVariantMismatch {
            variant: v.name.clone(),
            variant_hdl: v.hdl.name(),
            variant_qps: v.qps,
            run_hdl: spec.hdl.name(),
            run_qps: spec.qps,
        });
    }
    if (v.clk_hz, v.line_rate) != (params.clk_hz(), params.line_rate()) {
        return Err(CosimError::RatesMismatch {
            variant: v.name.clone(),
            variant_rates: (v.clk_hz, v.line_rate),
            run_rates: (params.clk_hz(), params.line_rate()),
        });
    }
    let qps = spec.qps;
    // spec-mq 8.3: loaded before the first cycle whose input has rst low
    let mut pending = spec.initial.as_ref();
    let mut injected_at = None;
    let mut model = MqBlock::new(params);
    let mut bench = MqBench::new(&spec.stimulus, qps, spec.seed);
    let mut history: std::collections::VecDeque<(u64, MqInputs, MqOutputs)> =
        std::collections::VecDeque::new();
    let mut out = MqOutputs::default();
    let start = Instant::now();
    let mut mismatch = None;
    let mut cycles = 0;
    // the model's observation of each cycle, its vectors reused from cycle to cycle
    let mut mobs = MqObs::default();
    for cycle in 0..spec.cycles {
        let i = bench.next(&out);
        if let Some(init) = pending.filter(|_| !i.rst) {
            model.load(init)?;
            rtl.inject(init);
            pending = None;
            injected_at = Some(cycle);
            // the injection itself: every copy of every memory as loaded
            let mut d = vec![];
            diff_memories(&model, &rtl_memories(&mut rtl, &spec.plant, cycle), &mut d);
            if !d.is_empty() {
                mismatch = Some(new_mismatch(spec, cycle, d, &history));
                break;
            }
        }
        let was_init = model.state().scan.init;
        let mo = model.step_obs_into(&i, &mut mobs);
        out = mo;
        rtl.sample(&i);
        let planted;
        let words = match &spec.plant {
            Some((c, p)) if *c == cycle => {
                let mut w = rtl.obs().clone();
                p.apply(qps, &mut w);
                planted = w;
                &planted
            }
            _ => rtl.obs(),
        };
        if history.len() as u64 == HISTORY_CYCLES {
            history.pop_front();
        }
        history.push_back((cycle, i, mo));
        let ro = rtl.outputs();
        if let Some((t, w)) = trace.as_mut() {
            if w.contains(&cycle) {
                let robs = MqObs::unpack(qps, &words.state, &words.bitmaps, &words.writes);
                t.cycle(cycle, &i, &(mo, mobs.clone()), &(ro, robs));
            }
        }
        // Cycle 0 is the first reset cycle: S(0) is the power-up state, undefined in the RTL
        // (its registers start at 0, the model's at their reset values), and so are the
        // registered outputs; from cycle 1 on, everything is compared (from cycle 0 on when an
        // injected state was loaded before it).
        let differs = if cycle == 0 && injected_at != Some(0) {
            ro.s_axil_awready != mo.s_axil_awready
                || ro.s_axil_wready != mo.s_axil_wready
                || ro.s_axil_arready != mo.s_axil_arready
        } else {
            ro != mo || !obs_matches(qps, &mobs, words, true)
        };
        if differs {
            let mut d = vec![];
            diff_outputs(&mo, &ro, &mut d);
            if cycle > 0 || injected_at == Some(0) {
                let robs = MqObs::unpack(qps, &words.state, &words.bitmaps, &words.writes);
                diff_obs(&mobs, &robs, true, false, &mut d);
            } else {
                d.retain(|f| f.field.ends_with("ready"));
            }
            mismatch = Some(new_mismatch(spec, cycle, d, &history));
            cycles = cycle + 1;
            break;
        }
        rtl.edge();
        cycles = cycle + 1;
        // spec-mq 8.2: the whole memories when an init round ends (S(cycle + 1), between edges)
        if was_init && !model.state().scan.init {
            let mut d = vec![];
            diff_memories(&model, &rtl_memories(&mut rtl, &spec.plant, cycle), &mut d);
            if !d.is_empty() {
                mismatch = Some(new_mismatch(spec, cycle + 1, d, &history));
                break;
            }
        }
    }
    if mismatch.is_none() && spec.cycles > 1 {
        // the state after the last edge, with the inputs idle
        let idle = MqInputs::default();
        rtl.sample(&idle);
        let words = rtl.obs().clone();
        let mobs = model.obs_state();
        if !obs_matches(qps, &mobs, &words, false) {
            let robs = MqObs::unpack(qps, &words.state, &words.bitmaps, &words.writes);
            let mut d = vec![];
            diff_obs(&mobs, &robs, false, true, &mut d);
            mismatch = Some(new_mismatch(spec, spec.cycles, d, &history));
        }
    }
    if mismatch.is_none() && (spec.cycles > 1 || injected_at.is_some()) {
        // spec-mq 8.2: the whole memories at the end of the run
        let mut d = vec![];
        diff_memories(
            &model,
            &rtl_memories(&mut rtl, &spec.plant, spec.cycles),
            &mut d,
        );
        if !d.is_empty() {
            mismatch = Some(new_mismatch(spec, spec.cycles, d, &history));
        }
    }
    Ok(MqOutcome {
        stats: MqRunStats {
            cycles,
            seconds: start.elapsed().as_secs_f64(),
            bench: bench.stats(),
        },
        mismatch,
    })
}

fn new_mismatch(
    spec: &MqRunSpec,
    cycle: u64,
    fields: Vec<MqFieldDiff>,
    history: &std::collections::VecDeque<(u64, MqInputs, MqOutputs)>,
) -> MqMismatch {
    MqMismatch {
        cycle,
        scenario: spec.scenario.clone(),
        hdl: spec.hdl.name(),
        qps: spec.qps,
        seed: spec.seed,
        fields,
        history: history
            .iter()
            .map(|(c, i, o)| MqHistoryRow {
                cycle: *c,
                inputs: describe(i),
                outputs: describe_outputs(o),
            })
            .collect(),
        replay: format!("{} --cycles {}", spec.replay, cycle + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dcqcn_model::mq::WriteObs;

    /// The fast comparison of port words agrees with the unpacked record, for a change of any
    /// one field, bitmap bit or write field.
    #[test]
    fn word_comparison_sees_every_single_difference() {
        for qps in [4u32, 64, 100] {
            let state: Vec<u64> = STATE_FIELDS
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    0x9E37_79B9_7F4A_7C15u64.rotate_left(i as u32)
                        & if f.1 == 64 { u64::MAX } else { (1 << f.1) - 1 }
                })
                .collect();
            let bitmaps = std::array::from_fn(|k| {
                let mut m = vec![0u64; qps.div_ceil(64) as usize];
                for q in 0..qps {
                    if (q + k as u32).is_multiple_of(3) {
                        m[(q / 64) as usize] |= 1 << (q % 64);
                    }
                }
                m
            });
            let writes = std::array::from_fn(|i| {
                let s = &STREAMS[i];
                let vals: Vec<u64> = s.fields.iter().map(|f| (1 << (f.1 - 1)) | 1).collect();
                WriteObs::of(s, 5 + i as u16, &vals)
            });
            let m = MqObs {
                state,
                bitmaps,
                writes,
            };
            let [st, bm, wr] = m.pack(qps);
            let w = ObsWords {
                state: st,
                bitmaps: bm,
                writes: wr,
            };
            assert!(obs_matches(qps, &m, &w, true));
            let mut plants = vec![];
            for (f, field) in STATE_FIELDS.iter().enumerate() {
                plants.push(Plant::State {
                    field: f,
                    bit: field.1 - 1,
                });
            }
            for k in 0..7 {
                plants.push(Plant::Bitmap {
                    map: k,
                    qp: qps - 1,
                });
            }
            for (s, st) in STREAMS.iter().enumerate() {
                for f in 0..st.fields.len() {
                    plants.push(Plant::Write {
                        stream: s,
                        field: f,
                        bit: 0,
                    });
                }
            }
            for p in plants {
                let mut x = w.clone();
                p.apply(qps, &mut x);
                assert!(!obs_matches(qps, &m, &x, true), "{p:?} unseen at {qps}");
                let r = MqObs::unpack(qps, &x.state, &x.bitmaps, &x.writes);
                let mut d = vec![];
                diff_obs(&m, &r, true, false, &mut d);
                assert_eq!(d.len(), 1, "{p:?}: {d:?}");
            }
        }
    }
}
