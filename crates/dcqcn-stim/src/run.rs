//! A run of the model alone on a stimulus: what to run ([`RunSpec`], shared with the lockstep),
//! its totals ([`RunStats`]), and [`run_model`] / [`try_run_model`] with a callback per cycle.

use crate::stimulus::{Bench, StimulusSpec};
use dcqcn_model::{Inputs, Outputs, Params, Phase, RateLimiter, State};
use serde::Serialize;
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Scenario name (for reports).
    pub scenario: String,
    pub params: Params,
    pub stimulus: StimulusSpec,
    pub seed: u64,
    pub cycles: u64,
    /// RTL variant, e.g. `w8`.
    pub variant: String,
    /// The command that reproduces this run (the failing cycle count is appended by the report).
    pub replay: String,
    /// Random initial register values in the RTL from this seed (0: all registers start at 0).
    pub rtl_init_seed: u64,
    /// Start from this state instead (spec 4.8): loaded into the model and into every register of
    /// the RTL before cycle 0 (after the random power-up values, which it overwrites).
    pub initial_state: Option<State>,
}

impl RunSpec {
    /// The model at cycle 0: reset, or the injected state (its absent features' registers at
    /// reset, spec 2: what the RTL gets too).
    pub fn model(&self) -> RateLimiter {
        let mut m = RateLimiter::new(self.params);
        if let Some(s) = &self.initial_state {
            *m.state_mut() = s.restricted(&self.params);
        }
        m
    }
}

/// Totals of one run, from the model's events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RunStats {
    pub cycles: u64,
    /// Beats that left on m_axis.
    pub beats: u64,
    pub bytes: u64,
    pub cnps: u64,
    pub decreases: u64,
    pub inc_fast_recovery: u64,
    pub inc_additive: u64,
    pub inc_hyper: u64,
    pub alpha_updates: u64,
    pub resets: u64,
    pub axil_writes: u64,
    pub axil_reads: u64,
    pub seconds: f64,
}

impl RunStats {
    /// Adds one cycle (the lockstep counts its cycles with the same call).
    #[inline(always)]
    pub fn count(&mut self, i: &Inputs, out: &Outputs, m: &RateLimiter) {
        self.cycles += 1;
        let moved = out.m_axis_tvalid && i.m_axis_tready && !i.rst;
        self.beats += u64::from(moved);
        if moved {
            self.bytes += u64::from(out.m_axis_tkeep.count_ones());
        }
        let e = m.events();
        self.cnps += u64::from(e.cnp_edge);
        self.decreases += u64::from(e.dec_fire);
        self.alpha_updates += u64::from(e.alpha_fire);
        match e.inc {
            Some(Phase::FastRecovery) => self.inc_fast_recovery += 1,
            Some(Phase::Additive) => self.inc_additive += 1,
            Some(Phase::Hyper) => self.inc_hyper += 1,
            None => {}
        }
    }

    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

/// Model only (no RTL): the same stimulus, with a callback per cycle.
pub fn run_model(
    spec: &RunSpec,
    mut each: impl FnMut(u64, &Inputs, &Outputs, &RateLimiter),
) -> RunStats {
    let r = try_run_model(spec, |c, i, o, m| {
        each(c, i, o, m);
        Ok::<(), std::convert::Infallible>(())
    });
    match r {
        Ok(stats) => stats,
        Err(never) => match never {},
    }
}

/// [`run_model`] whose `each` may end the run: its first error stops the run at that cycle and
/// is returned (a failed write of a trace ends a run at once, not at its last cycle).
pub fn try_run_model<E>(
    spec: &RunSpec,
    mut each: impl FnMut(u64, &Inputs, &Outputs, &RateLimiter) -> Result<(), E>,
) -> Result<RunStats, E> {
    let mut model = spec.model();
    let mut bench = Bench::new(&spec.stimulus, &spec.params, spec.seed);
    let mut stats = RunStats::default();
    let mut out = Outputs::default();
    let start = Instant::now();
    for cycle in 0..spec.cycles {
        let i = bench.next(&out);
        out = model.step(&i);
        stats.count(&i, &out, &model);
        each(cycle, &i, &out, &model)?;
    }
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(stats)
}
