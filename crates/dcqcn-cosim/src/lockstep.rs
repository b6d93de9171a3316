//! The lockstep: identical inputs to the model and the RTL every cycle, every output and every
//! register compared every cycle, stop at the first difference.
//!
//! The hot loop keeps no history. On a mismatch the run is repeated from its seed up to the failing
//! cycle (runs are deterministic) to collect the last cycles and, if asked, a waveform window.

use crate::rtl::Rtl;
use crate::CosimError;
use dcqcn_model::snapshot::{decode, hex, FIELDS};
use dcqcn_model::{Config, Inputs, Outputs, Snapshot};
use dcqcn_stim::coverage::Coverage;
use dcqcn_stim::run::{run_model, RunSpec, RunStats};
use dcqcn_stim::stimulus::Bench;
use serde::Serialize;
use std::time::Instant;

/// Cycles of model history (inputs and outputs) that a mismatch report lists.
pub const HISTORY_CYCLES: u64 = 8;
/// Cycles, up to and including the mismatch, in the waveform written beside its report.
pub const WAVEFORM_CYCLES: u64 = 200;

/// One differing field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldDiff {
    pub field: &'static str,
    pub block: &'static str,
    pub model_hex: String,
    pub rtl_hex: String,
    pub model: String,
    pub rtl: String,
}

/// One cycle of history before a mismatch.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryRow {
    pub cycle: u64,
    pub inputs: String,
    pub outputs: String,
}

/// The first difference between model and RTL.
#[derive(Clone, Debug, Serialize)]
pub struct Mismatch {
    pub cycle: u64,
    pub time_us: f64,
    pub scenario: String,
    pub seed: u64,
    pub variant: String,
    pub data_bytes: u32,
    pub fields: Vec<FieldDiff>,
    pub config: Config,
    pub replay: String,
    /// The cycles just before the mismatch, inputs and model outputs (filled by [`explain`]).
    pub history: Vec<HistoryRow>,
    #[serde(skip)]
    pub model_snapshot: Snapshot,
    #[serde(skip)]
    pub rtl_snapshot: Snapshot,
}

impl Mismatch {
    /// `registers_only`: the outputs were not compared (before the first clock edge).
    fn new(
        run: &RunSpec,
        cycle: u64,
        model: &Snapshot,
        rtl: &Snapshot,
        registers_only: bool,
    ) -> Mismatch {
        let db = run.params.data_bytes();
        let clk = run.params.clk_hz();
        let fields = model
            .diff(rtl)
            .into_iter()
            .filter(|&i| !(registers_only && FIELDS[i].block == "out"))
            .map(|i| {
                let f = &FIELDS[i];
                let (m, r) = (model.value(i), rtl.value(i));
                FieldDiff {
                    field: f.name,
                    block: f.block,
                    model_hex: hex(&m, f, db),
                    rtl_hex: hex(&r, f, db),
                    model: decode(&m, f, clk),
                    rtl: decode(&r, f, clk),
                }
            })
            .collect();
        Mismatch {
            cycle,
            time_us: cycle as f64 * 1e6 / f64::from(clk),
            scenario: run.scenario.clone(),
            seed: run.seed,
            variant: run.variant.clone(),
            data_bytes: db,
            fields,
            config: run.stimulus.config,
            replay: format!("{} --cycles {}", run.replay, cycle + 1),
            history: vec![],
            model_snapshot: *model,
            rtl_snapshot: *rtl,
        }
    }

    /// The report a tired engineer reads: where, what, expected vs actual, how to reproduce.
    pub fn report(&self) -> String {
        let mut s = format!(
            "MISMATCH at cycle {} (t = {:.3} us), scenario {}, seed {}, RTL variant {} ({} B beats)\n",
            self.cycle, self.time_us, self.scenario, self.seed, self.variant, self.data_bytes
        );
        s += &report_body(&self.fields, &self.history);
        s += &format!("configuration: {:?}\n", self.config);
        s += &format!("replay: {}\n", self.replay);
        s
    }
}

/// The middle of a mismatch report: the table of differing fields and the last cycles (shared
/// with the upstream SURF lockstep, `dcqcn_surf::ghdl`).
pub fn report_body(fields: &[FieldDiff], history: &[HistoryRow]) -> String {
    let rows: Vec<_> = fields
        .iter()
        .map(|f| dcqcn_harness::report::DiffRow {
            field: f.field,
            block: f.block,
            model_hex: &f.model_hex,
            model: &f.model,
            rtl_hex: &f.rtl_hex,
            rtl: &f.rtl,
        })
        .collect();
    dcqcn_harness::report::mismatch_table(
        &rows,
        history
            .iter()
            .map(|h| (h.cycle, h.inputs.as_str(), h.outputs.as_str())),
    )
}

/// The result of a lockstep run.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub stats: RunStats,
    pub coverage: Coverage,
    pub mismatch: Option<Mismatch>,
}

/// Something that watches cycles inside a window (waveform writers).
pub trait Tracer {
    fn cycle(&mut self, cycle: u64, inputs: &Inputs, model: &Snapshot, rtl: Option<&Snapshot>);
}

/// Runs the lockstep. `trace` sees the cycles in `trace_window`.
pub fn run(
    spec: &RunSpec,
    mut trace: Option<(&mut dyn Tracer, std::ops::Range<u64>)>,
) -> Result<Outcome, CosimError> {
    let mut rtl = Rtl::with_init(&spec.variant, spec.rtl_init_seed)?;
    if rtl.variant().data_bytes != spec.params.data_bytes() {
        return Err(CosimError::WidthMismatch {
            variant: spec.variant.clone(),
            variant_bytes: rtl.variant().data_bytes,
            scenario_bytes: spec.params.data_bytes(),
        });
    }
    let v = rtl.variant();
    if (v.clk_hz, v.line_rate) != (spec.params.clk_hz(), spec.params.line_rate()) {
        return Err(CosimError::RatesMismatch {
            variant: spec.variant.clone(),
            variant_rates: (v.clk_hz, v.line_rate),
            run_rates: (spec.params.clk_hz(), spec.params.line_rate()),
        });
    }
    if v.features != spec.params.features() {
        return Err(CosimError::FeaturesMismatch {
            variant: spec.variant.clone(),
            variant_features: v.features.name(),
            run_features: spec.params.features().name(),
        });
    }
    let mut model = spec.model();
    if let Some(s) = &spec.initial_state {
        rtl.inject(&s.restricted(&spec.params));
    }
    let mut bench = Bench::new(&spec.stimulus, &spec.params, spec.seed);
    let mut stats = RunStats::default();
    let mut coverage = Coverage::new();
    coverage.start(&model);
    let mut out = Outputs::default();
    let start = Instant::now();
    let mut mismatch = None;
    for cycle in 0..spec.cycles {
        let i = bench.next(&out);
        out = model.step(&i);
        let ms = model.snapshot(&out);
        rtl.cycle(&i);
        stats.count(&i, &out, &model);
        coverage.sample(&i, &out, &model);
        if let Some((t, w)) = trace.as_mut() {
            if w.contains(&cycle) {
                t.cycle(cycle, &i, &ms, Some(&rtl.snapshot()));
            }
        }
        // Before the first clock edge the registered outputs hold the initial values, which are
        // undefined (random with rtl_init_seed) unless a state was injected; from the edge of
        // cycle 0 on, everything is compared. The RTL's record is compared in the bridge's type
        // and converted only where it is shown (a waveform window, a report).
        let registers_only = cycle == 0 && spec.initial_state.is_none();
        let differs = if registers_only {
            !ms.same_registers(&rtl.snapshot())
        } else {
            !rtl.matches(&ms)
        };
        if differs {
            let rs = rtl.snapshot();
            mismatch = Some(Mismatch::new(spec, cycle, &ms, &rs, registers_only));
            break;
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    let b = bench.stats();
    stats.resets = b.resets;
    stats.axil_writes = b.axil_writes;
    stats.axil_reads = b.axil_reads;
    Ok(Outcome {
        stats,
        coverage,
        mismatch,
    })
}

/// Re-runs the model from the seed to fill `m.history` with the `k` cycles up to the mismatch.
pub fn explain(spec: &RunSpec, m: &mut Mismatch, k: u64) {
    let from = m.cycle.saturating_sub(k.saturating_sub(1));
    let mut rows = Vec::new();
    let replay = RunSpec {
        cycles: m.cycle + 1,
        ..spec.clone()
    };
    run_model(&replay, |c, i, o, _| {
        if c >= from {
            rows.push(HistoryRow {
                cycle: c,
                inputs: i.describe(),
                outputs: o.describe(),
            });
        }
    });
    m.history = rows;
}
