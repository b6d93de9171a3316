//! A fuzz campaign: cases drawn from (seed, index) run on a pool of `--jobs` threads, the first
//! failure shrunk.

use crate::lockstep::{self, Outcome};
use crate::rtl;
use crate::CosimError;
use dcqcn_stim::coverage::Coverage;
use dcqcn_stim::fuzz::{case_tree, Case, SavedCase, SAVED_CASE_FORMAT};
use dcqcn_stim::stimulus::ResetSpec;
use dcqcn_stim::variant::{Hdl, Rates};
use dcqcn_stim::StimError;
use proptest::strategy::ValueTree;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// A fuzz campaign: `cases` cases (or as many as fit in `seconds`) of `cycles` each on `jobs`
/// threads. Case number n is drawn from (`seed`, n) alone, so a campaign is the same whatever the
/// thread count or timing.
#[derive(Clone, Debug)]
pub struct CampaignCfg {
    pub cases: Option<u64>,
    pub seconds: Option<f64>,
    pub seed: u64,
    pub cycles: u64,
    pub jobs: usize,
    /// Run every case on this RTL variant (and its beat width) instead of the case's own width.
    pub variant: Option<String>,
    /// Without `variant`: the HDL whose variant of the case's beat width runs each case.
    pub hdl: Hdl,
    /// Run the cases drawn with an injected state from it (the default); `false` runs the same
    /// cases from reset instead (their usual 4-cycle initial reset), for comparison.
    pub inject: bool,
}

/// A failing case after shrinking.
#[derive(Clone, Debug)]
pub struct Failure {
    pub index: u64,
    pub case: Case,
    pub mismatch: lockstep::Mismatch,
    pub shrink_steps: u64,
}

#[derive(Clone, Debug)]
pub struct CampaignResult {
    pub cases: u64,
    pub cycles: u64,
    pub seconds: f64,
    pub coverage: Coverage,
    pub failure: Option<Failure>,
}

impl Failure {
    /// The saved form of this failure: its shrunk case, run up to and including the mismatch, on
    /// `variant` (`None`: the case's beat width).
    pub fn saved(&self, variant: Option<&str>) -> SavedCase {
        SavedCase {
            format: SAVED_CASE_FORMAT.into(),
            cycles: self.mismatch.cycle + 1,
            variant: variant.map(str::to_string),
            case: self.case.clone(),
        }
    }
}

/// Set (to anything) to run every case of `dcqcn fuzz --variant V` on V itself even where V has
/// rate siblings (the campaign without parameter variants, for comparison).
pub const FIXED_RATES_ENV: &str = "DCQCN_FUZZ_FIXED_RATES";

/// The variant a case drawn at `rates` runs on when a campaign names `variant`: the variant's rate
/// sibling `<variant>-<rates>` where one is compiled (a mutant built at every rate set, see
/// `make mutants`), else `variant` itself. [`FIXED_RATES_ENV`] turns the siblings off.
pub fn rates_sibling(variant: &str, rates: Rates) -> String {
    if rates != Rates::TenG && std::env::var_os(FIXED_RATES_ENV).is_none() {
        let sibling = format!("{variant}-{}", rates.name());
        if rtl::variants().iter().any(|x| x.name == sibling) {
            return sibling;
        }
    }
    variant.to_string()
}

impl CampaignCfg {
    /// The case as run: on a fixed variant, with that variant's beat width and rates (an injected
    /// output register cut to the beat width).
    fn adapt(&self, mut c: Case) -> Case {
        if !self.inject && c.initial_state.take().is_some() {
            c.stimulus.resets.initial_cycles = ResetSpec::initial_only().initial_cycles;
        }
        if let Some(v) = &self.variant {
            let v = rates_sibling(v, c.rates);
            if let Some(info) = rtl::variants().into_iter().find(|x| x.name == v) {
                c.data_bytes = info.data_bytes;
                c.rates = Rates::ALL
                    .into_iter()
                    .find(|r| r.clk_and_line_rate() == (info.clk_hz, info.line_rate))
                    .unwrap_or_default();
                if let Some(s) = c.initial_state.as_mut() {
                    s.fit_beat(c.data_bytes);
                }
            }
        }
        c
    }

    fn out_of_budget(&self, index: u64, start: Instant) -> bool {
        self.cases.is_some_and(|max| index >= max)
            || self
                .seconds
                .is_some_and(|s| start.elapsed().as_secs_f64() >= s)
    }

    /// The variant a case runs on: `variant`, or the HDL's variant of the case's beat width
    /// (`None` for the SystemVerilog, the default of a saved case).
    pub fn variant_for(&self, c: &Case) -> Option<String> {
        match (&self.variant, self.hdl) {
            (Some(v), _) => Some(rates_sibling(v, c.rates)),
            (None, Hdl::Sv) => None,
            (None, hdl) => Some(c.variant(hdl)),
        }
    }

    fn run(&self, c: &Case) -> Result<Outcome, CosimError> {
        lockstep::run(
            &c.run_spec(self.cycles, self.variant_for(c).as_deref(), String::new())?,
            None,
        )
    }

    /// Shrinks the failing case number `index`: simplify while the case still fails, back off when
    /// it passes (at most 1,000 steps).
    fn shrink(
        &self,
        index: u64,
        mut tree: impl ValueTree<Value = Case>,
        m: lockstep::Mismatch,
    ) -> Result<Failure, CosimError> {
        let (mut best, mut best_m, mut steps) = (self.adapt(tree.current()), m, 0u64);
        let mut more = tree.simplify();
        while more && steps < 1_000 {
            steps += 1;
            let c = self.adapt(tree.current());
            match self.run(&c)?.mismatch {
                Some(m) => {
                    (best, best_m) = (c, m);
                    more = tree.simplify();
                }
                None => more = tree.complicate(),
            }
        }
        Ok(Failure {
            index,
            case: best,
            mismatch: best_m,
            shrink_steps: steps,
        })
    }
}

/// Runs a campaign; `progress(cases, cycles, seconds)` is called about five times a second.
///
/// The cases run on a pool of `cfg.jobs` threads. Each thread claims the next case index (0, 1,
/// 2, ... in order) until the budget ends or a case fails; a failing case stops the claims, the
/// cases already claimed finish, and of the failures found the lowest index is reported. Claims
/// go in index order, so every case below a failing one has run: the reported failure is the
/// lowest failing index of the budget, whatever the thread count.
pub fn campaign(
    cfg: &CampaignCfg,
    progress: &(dyn Fn(u64, u64, f64) + Sync),
) -> Result<CampaignResult, CosimError> {
    let start = Instant::now();
    let totals = schedule(
        cfg.jobs,
        |index| !cfg.out_of_budget(index, start),
        |index| {
            let tree = case_tree(cfg.seed, index)?;
            let o = cfg.run(&cfg.adapt(tree.current())).map_err(|e| match e {
                CosimError::Stim(StimError::Harness(m)) => {
                    StimError::Harness(format!("case {index} (campaign seed {}): {m}", cfg.seed))
                        .into()
                }
                e => e,
            })?;
            Ok(Ran {
                cycles: o.stats.cycles,
                coverage: o.coverage,
                failed: o.mismatch.map(|m| (tree, m)),
            })
        },
        |index, (tree, m)| cfg.shrink(index, tree, m),
        |cases, cycles| progress(cases, cycles, start.elapsed().as_secs_f64()),
    )?;
    Ok(CampaignResult {
        cases: totals.cases,
        cycles: totals.cycles,
        seconds: start.elapsed().as_secs_f64(),
        coverage: totals.coverage,
        failure: totals.failure.map(|(_, f)| f),
    })
}

/// The coverage a campaign merges over its cases: dcqcn_rl's [`Coverage`], or the multi-QP
/// block's `MqCoverage`.
pub(crate) trait CaseCoverage: Send {
    fn empty() -> Self;
    /// Records campaign case `index` as the first to hit what this run hit.
    fn mark_case(&mut self, index: u64);
    fn merge(&mut self, other: &Self);
}

impl CaseCoverage for Coverage {
    fn empty() -> Self {
        Coverage::new()
    }
    fn mark_case(&mut self, index: u64) {
        Coverage::mark_case(self, index);
    }
    fn merge(&mut self, other: &Self) {
        Coverage::merge(self, other);
    }
}

impl CaseCoverage for dcqcn_stim::mq_coverage::MqCoverage {
    fn empty() -> Self {
        Self::new()
    }
    fn mark_case(&mut self, index: u64) {
        Self::mark_case(self, index);
    }
    fn merge(&mut self, other: &Self) {
        Self::merge(self, other);
    }
}

/// One case's run: its cycles and coverage, and what a failure needs to be shrunk.
pub(crate) struct Ran<T, C = Coverage> {
    pub(crate) cycles: u64,
    pub(crate) coverage: C,
    pub(crate) failed: Option<T>,
}

/// The totals of [`schedule`]: the cases run, their cycles and merged coverage, and the failure
/// of the lowest index (with that index).
pub(crate) struct Totals<F, C = Coverage> {
    pub(crate) cases: u64,
    pub(crate) cycles: u64,
    pub(crate) coverage: C,
    pub(crate) failure: Option<(u64, F)>,
}

/// Shared state of a running [`schedule`].
struct Shared<F, E, C> {
    next: AtomicU64,
    stop: AtomicBool,
    cases: AtomicU64,
    cycles: AtomicU64,
    workers_done: AtomicUsize,
    coverage: Mutex<C>,
    failure: Mutex<Option<(u64, F)>>,
    error: Mutex<Option<E>>,
}

/// Runs `run(index)` for the indices 0, 1, 2, ... on a rayon pool of `jobs` threads (at least
/// one), each thread claiming the next index in order, while `more(index)` holds. A run that
/// failed stops further claims and is passed to `shrink` on its thread; the first error (in time)
/// stops the claims and is returned once the running cases end. `progress(cases, cycles)` is
/// called on the calling thread every 200 ms while the cases run.
pub(crate) fn schedule<T, F: Send, E: Send, C: CaseCoverage>(
    jobs: usize,
    more: impl Fn(u64) -> bool + Sync,
    run: impl Fn(u64) -> Result<Ran<T, C>, E> + Sync,
    shrink: impl Fn(u64, T) -> Result<F, E> + Sync,
    progress: impl Fn(u64, u64),
) -> Result<Totals<F, C>, E> {
    let jobs = jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .expect("the campaign's threads start");
    let sh = Shared {
        next: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        cases: AtomicU64::new(0),
        cycles: AtomicU64::new(0),
        workers_done: AtomicUsize::new(0),
        coverage: Mutex::new(C::empty()),
        failure: Mutex::new(None),
        error: Mutex::new(None),
    };
    let worker = || -> Result<(), E> {
        while !sh.stop.load(Relaxed) {
            let index = sh.next.fetch_add(1, Relaxed);
            if !more(index) {
                break;
            }
            let mut ran = run(index)?;
            ran.coverage.mark_case(index);
            sh.cycles.fetch_add(ran.cycles, Relaxed);
            sh.cases.fetch_add(1, Relaxed);
            sh.coverage
                .lock()
                .expect("coverage lock")
                .merge(&ran.coverage);
            if let Some(t) = ran.failed {
                sh.stop.store(true, Relaxed);
                let f = shrink(index, t)?;
                let mut slot = sh.failure.lock().expect("failure lock");
                if slot.as_ref().is_none_or(|(old, _)| index < *old) {
                    *slot = Some((index, f));
                }
            }
        }
        Ok(())
    };
    pool.in_place_scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|_| {
                if let Err(e) = worker() {
                    sh.stop.store(true, Relaxed);
                    sh.error.lock().expect("error lock").get_or_insert(e);
                }
                sh.workers_done.fetch_add(1, Relaxed);
            });
        }
        while sh.workers_done.load(Relaxed) < jobs {
            std::thread::sleep(std::time::Duration::from_millis(200));
            progress(sh.cases.load(Relaxed), sh.cycles.load(Relaxed));
        }
    });
    if let Some(e) = sh.error.into_inner().expect("error lock") {
        return Err(e);
    }
    Ok(Totals {
        cases: sh.cases.into_inner(),
        cycles: sh.cycles.into_inner(),
        coverage: sh.coverage.into_inner().expect("coverage lock"),
        failure: sh.failure.into_inner().expect("failure lock"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A run of index `i` that fails where `fails(i)`, after `delay(i)` milliseconds.
    fn fake(
        fails: impl Fn(u64) -> bool + Sync,
        delay: impl Fn(u64) -> u64 + Sync,
    ) -> impl Fn(u64) -> Result<Ran<u64>, String> + Sync {
        move |i| {
            std::thread::sleep(Duration::from_millis(delay(i)));
            Ok(Ran {
                cycles: 10,
                coverage: Coverage::new(),
                failed: fails(i).then_some(i),
            })
        }
    }

    /// Whatever the thread count and however long each case takes, the reported failure is the
    /// lowest failing index of the budget (a later index that fails sooner loses), and its
    /// shrink sees that index.
    #[test]
    fn the_lowest_failing_index_is_reported_whatever_the_jobs() {
        for jobs in [1, 2, 3, 4, 7] {
            let t = schedule(
                jobs,
                |i| i < 10_000,
                // 9 and 11 fail at once, 6 fails after 60 ms (while the others have run on)
                fake(|i| [6, 9, 11].contains(&i), |i| if i == 6 { 60 } else { 1 }),
                |i, t: u64| {
                    assert_eq!(i, t);
                    Ok::<_, String>(format!("shrunk {i}"))
                },
                |_, _| {},
            )
            .unwrap();
            assert_eq!(t.failure, Some((6, "shrunk 6".to_string())), "jobs {jobs}");
            // every case below it ran, and the claims stopped after the first failure
            assert!(
                t.cases >= 7 && t.cases < 1_000,
                "jobs {jobs}: {} cases",
                t.cases
            );
            assert_eq!(t.cycles, 10 * t.cases);
        }
    }

    /// Without a failure every case of the budget runs exactly once, whatever the thread count.
    #[test]
    fn a_passing_budget_runs_every_case_once() {
        for jobs in [1, 2, 5] {
            let seen = Mutex::new(Vec::new());
            let t = schedule(
                jobs,
                |i| i < 25,
                |i| {
                    seen.lock().unwrap().push(i);
                    fake(|_| false, |_| 0)(i)
                },
                |_, _: u64| Ok::<(), String>(()),
                |_, _| {},
            )
            .unwrap();
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, (0..25).collect::<Vec<_>>(), "jobs {jobs}");
            assert_eq!((t.cases, t.cycles, t.failure), (25, 250, None));
        }
    }

    /// An error stops the campaign and is returned (a failure found meanwhile is dropped).
    #[test]
    fn an_error_is_returned() {
        let r = schedule(
            3,
            |i| i < 1_000,
            |i| {
                if i == 5 {
                    Err(format!("case {i} broke"))
                } else {
                    fake(|_| false, |_| 1)(i)
                }
            },
            |_, _: u64| Ok::<(), String>(()),
            |_, _| {},
        );
        assert_eq!(r.err(), Some("case 5 broke".to_string()));
    }
}
