//! Fuzzing the multi-QP block `dcqcn_mq` model-vs-RTL (docs/spec-mq.md 8.3, 8.4): the campaign
//! of dcqcn_rl's shape (cases drawn from (seed, n) alone on a pool of threads, the lowest failing
//! case shrunk and saved with its replay command, the coverage merged over the cases) on the
//! multi-QP lockstep (`mq_lockstep`).
//!
//! The coverage of a case is counted on the model alone (`MqCoverage`), in a second run of the
//! same bench from the same starting state: the bench is closed-loop on the model's outputs, so
//! that run sees exactly the inputs and states of the lockstep's model, cycle for cycle.
//!
//! One case in four starts from an injected state (spec-mq 8.3, `MqCase::initial`), loaded into
//! the model and the HDL before the first cycle with `rst` low; `inject: false` (`--no-inject`)
//! runs the same cases from reset.

use super::campaign::{schedule, Ran};
use crate::mq_lockstep::{self, MqMismatch, MqOutcome, MqRunSpec};
use crate::mq_rtl::{mq_variants, MqVariant};
use crate::CosimError;
use dcqcn_model::mq::{MqBlock, MqOutputs, MqParams};
use dcqcn_stim::fuzz::mq::{
    load_mq_case, mq_case_tree, save_mq_case, MqCase, MqSavedCase, MQ_SAVED_CASE_FORMAT,
};
use dcqcn_stim::mq::MqBench;
use dcqcn_stim::mq_coverage::MqCoverage;
use dcqcn_stim::variant::Hdl;
use dcqcn_stim::StimError;
use proptest::strategy::ValueTree;
use std::path::Path;
use std::time::Instant;

/// A multi-QP campaign: `cases` cases (or as many as start within `seconds`) of `cycles` each on
/// `jobs` threads, drawn at the QPS values `qps`, run on `hdl`'s variant of the case's QPS or on
/// the named `variant`.
#[derive(Clone, Debug)]
pub struct MqCampaignCfg {
    pub cases: Option<u64>,
    pub seconds: Option<f64>,
    pub seed: u64,
    pub cycles: u64,
    pub jobs: usize,
    pub hdl: Hdl,
    /// The QPS values the cases are drawn at (each a built variant of `hdl`, or the variant's).
    pub qps: Vec<u32>,
    /// Run every case on this variant (a mutant `mut_*`); its HDL and QPS replace `hdl`, `qps`.
    pub variant: Option<String>,
    /// Start the cases drawn with an injected state from it (the default); `false` runs them
    /// from reset (`--no-inject`).
    pub inject: bool,
}

/// A failing case after shrinking.
#[derive(Clone, Debug)]
pub struct MqFailure {
    pub index: u64,
    pub case: MqCase,
    pub mismatch: MqMismatch,
    pub shrink_steps: u64,
}

#[derive(Clone, Debug)]
pub struct MqCampaignResult {
    pub cases: u64,
    pub cycles: u64,
    pub seconds: f64,
    pub coverage: MqCoverage,
    pub failure: Option<MqFailure>,
}

/// The correct variant of `hdl` at `qps`, if built.
pub fn variant_of(hdl: Hdl, qps: u32) -> Option<MqVariant> {
    mq_variants()
        .into_iter()
        .find(|v| v.hdl == hdl && v.qps == qps && !v.is_mutant())
}

/// The command that replays a saved case.
pub fn mq_replay_command(path: &Path) -> String {
    format!("dcqcn fuzz --block mq --replay {}", path.display())
}

/// The lockstep run of `case` for `cycles` on `hdl` (or the named `variant`).
pub fn mq_run_spec(
    case: &MqCase,
    cycles: u64,
    hdl: Hdl,
    variant: Option<&str>,
    replay: String,
) -> MqRunSpec {
    MqRunSpec {
        scenario: "fuzz".into(),
        stimulus: case.stimulus.clone(),
        qps: case.qps,
        hdl,
        variant: variant.map(str::to_string),
        seed: case.seed,
        cycles,
        replay,
        plant: None,
        initial: case.initial.clone(),
    }
}

/// The coverage of `case` over `cycles`, counted on the model alone (same bench, same inputs and
/// same starting state as the lockstep's model: an injected state is loaded before the first
/// cycle with `rst` low, spec-mq 8.3).
pub fn mq_case_coverage(case: &MqCase, cycles: u64) -> Result<MqCoverage, CosimError> {
    let p = MqParams::with_qps(case.qps)
        .map_err(|e| StimError::Case(format!("case.qps {}: {e}", case.qps)))?;
    let mut m = MqBlock::new(p);
    let mut bench = MqBench::new(&case.stimulus, case.qps, case.seed);
    let mut cov = MqCoverage::new();
    let mut out = MqOutputs::default();
    let mut pending = case.initial.as_ref();
    for _ in 0..cycles {
        let i = bench.next(&out);
        if let Some(init) = pending.filter(|_| !i.rst) {
            m.load(init)?;
            pending = None;
        }
        out = cov.step(&mut m, &i);
    }
    Ok(cov)
}

impl MqCampaignCfg {
    /// The HDL a case runs on (the variant's when one is named).
    fn hdl_run(&self) -> Hdl {
        self.variant
            .as_ref()
            .and_then(|n| mq_variants().into_iter().find(|v| &v.name == n))
            .map_or(self.hdl, |v| v.hdl)
    }

    /// The case as run: without its injected state under `--no-inject`.
    fn adapt(&self, mut c: MqCase) -> MqCase {
        if !self.inject {
            c.initial = None;
        }
        c
    }

    fn run(&self, c: &MqCase, cycles: u64) -> Result<MqOutcome, CosimError> {
        mq_lockstep::run(
            &mq_run_spec(
                c,
                cycles,
                self.hdl_run(),
                self.variant.as_deref(),
                String::new(),
            ),
            None,
        )
    }

    fn out_of_budget(&self, index: u64, start: Instant) -> bool {
        self.cases.is_some_and(|max| index >= max)
            || self
                .seconds
                .is_some_and(|s| start.elapsed().as_secs_f64() >= s)
    }

    /// The name of the variant that ran `c` (saved with a failing case).
    pub fn variant_for(&self, c: &MqCase) -> Option<String> {
        self.variant
            .clone()
            .or_else(|| variant_of(self.hdl, c.qps).map(|v| v.name))
    }

    /// Shrinks the failing case number `index`: simplify while the case still fails, back off
    /// when it passes (at most 1,000 steps).
    fn shrink(
        &self,
        index: u64,
        mut tree: impl ValueTree<Value = MqCase>,
        m: MqMismatch,
    ) -> Result<MqFailure, CosimError> {
        let (mut best, mut best_m, mut steps) = (self.adapt(tree.current()), m, 0u64);
        let mut more = tree.simplify();
        while more && steps < 1_000 {
            steps += 1;
            let c = self.adapt(tree.current());
            match self.run(&c, self.cycles)?.mismatch {
                Some(m) => {
                    (best, best_m) = (c, m);
                    more = tree.simplify();
                }
                None => more = tree.complicate(),
            }
        }
        Ok(MqFailure {
            index,
            case: best,
            mismatch: best_m,
            shrink_steps: steps,
        })
    }
}

/// Runs a campaign; `progress(cases, cycles, seconds)` is called about five times a second. The
/// lowest failing case of the budget is reported, whatever the thread count (see dcqcn_rl's
/// campaign, whose scheduler this shares).
pub fn mq_campaign(
    cfg: &MqCampaignCfg,
    progress: &(dyn Fn(u64, u64, f64) + Sync),
) -> Result<MqCampaignResult, CosimError> {
    let start = Instant::now();
    let totals = schedule(
        cfg.jobs,
        |index| !cfg.out_of_budget(index, start),
        |index| -> Result<Ran<_, MqCoverage>, CosimError> {
            let tree = mq_case_tree(cfg.seed, index, &cfg.qps)?;
            let c = cfg.adapt(tree.current());
            let o = cfg.run(&c, cfg.cycles)?;
            let coverage = if o.mismatch.is_none() {
                mq_case_coverage(&c, cfg.cycles)?
            } else {
                MqCoverage::new()
            };
            Ok(Ran {
                cycles: o.stats.cycles,
                coverage,
                failed: o.mismatch.map(|m| (tree, m)),
            })
        },
        |index, (tree, m)| cfg.shrink(index, tree, m),
        |cases, cycles| progress(cases, cycles, start.elapsed().as_secs_f64()),
    )?;
    Ok(MqCampaignResult {
        cases: totals.cases,
        cycles: totals.cycles,
        seconds: start.elapsed().as_secs_f64(),
        coverage: totals.coverage,
        failure: totals.failure.map(|(_, f)| f),
    })
}

/// A campaign's failure, saved: the shrunk case as written and its mismatch with the replay
/// command filled in.
pub fn save_mq_failure(
    f: &MqFailure,
    variant: Option<String>,
    path: &Path,
) -> Result<(MqSavedCase, MqMismatch), CosimError> {
    let saved = MqSavedCase {
        format: MQ_SAVED_CASE_FORMAT.into(),
        cycles: f.mismatch.cycle + 1,
        variant,
        case: f.case.clone(),
    };
    save_mq_case(path, &saved)?;
    let mut m = f.mismatch.clone();
    m.replay = mq_replay_command(path);
    Ok((saved, m))
}

/// Loads a saved case and runs it model-vs-RTL for its saved length on its saved variant (absent:
/// the SystemVerilog at the case's QPS).
pub fn mq_replay(path: &Path) -> Result<(MqSavedCase, MqRunSpec, MqOutcome), CosimError> {
    let saved = load_mq_case(path)?;
    let file = path.display().to_string();
    let built = mq_variants();
    let compiled = || {
        built
            .iter()
            .map(|v| v.name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let qps = saved.case.qps;
    let v = match &saved.variant {
        Some(name) => built.iter().find(|v| &v.name == name).ok_or_else(|| {
            StimError::Case(format!(
                "{file}: `variant`: unknown multi-QP variant `{}` (compiled: {})",
                crate::clip(name),
                compiled()
            ))
        })?,
        None => built
            .iter()
            .find(|v| v.hdl == Hdl::Sv && v.qps == qps && !v.is_mutant())
            .ok_or_else(|| {
                StimError::Case(format!(
                    "{file}: `case.qps`: no SystemVerilog multi-QP variant at QPS {qps} is compiled into this binary (compiled: {})",
                    compiled()
                ))
            })?,
    };
    if v.qps != qps {
        return Err(StimError::Case(format!(
            "{file}: `case.qps`: {qps}, but variant `{}` is built at QPS {}",
            v.name, v.qps
        ))
        .into());
    }
    let spec = mq_run_spec(
        &saved.case,
        saved.cycles,
        v.hdl,
        saved.variant.as_deref(),
        mq_replay_command(path),
    );
    let o = mq_lockstep::run(&spec, None)?;
    Ok((saved, spec, o))
}
