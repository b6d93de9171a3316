//! `dcqcn cosim` on our block: the suite (or one scenario) on each HDL asked for, on a pool of
//! threads; and what `dcqcn sim` shares with it (the scenarios of a run, the run itself, the table).

use crate::{Failure, HdlChoice, RunArgs};
use dcqcn_cosim::lockstep::{self, Mismatch, HISTORY_CYCLES};
use dcqcn_cosim::{rtl, vcd_out, CosimError};
use dcqcn_harness::config_file;
use dcqcn_stim::run::{RunSpec, RunStats};
use dcqcn_stim::scenario::{self, Scenario};
use dcqcn_stim::variant::{self, Build, Hdl};
use dcqcn_stim::StimError;
use std::path::{Path, PathBuf};

/// Arguments of `dcqcn cosim`.
pub(crate) struct CosimArgs<'a> {
    pub(crate) run: &'a RunArgs,
    pub(crate) init_seed: u64,
    pub(crate) vcd: &'a Option<PathBuf>,
    pub(crate) vcd_window: Option<(u64, u64)>,
    pub(crate) variant: &'a Option<String>,
    pub(crate) hdl: HdlChoice,
    /// The feature configurations (spec 2), each on every HDL.
    pub(crate) builds: &'a [Build],
    pub(crate) report: &'a Path,
    pub(crate) jobs: usize,
}

/// The suite (or one scenario) on each HDL asked for, or on one variant.
///
/// Scenarios are independent runs, so they go to a pool of `--jobs` threads (default: every core),
/// each with its own Verilated model; the rows come out in suite order and a mismatch stops the
/// suite where the one-by-one run would have stopped (the first mismatching scenario in suite order,
/// with every row before it). A waveform run is one scenario, on the calling thread.
pub(crate) fn cosim(a: &CosimArgs) -> Result<(), Failure> {
    if a.vcd.is_some() && a.hdl == HdlChoice::Both {
        return Err(Failure::Input(
            "--vcd needs one RTL: --hdl sv or --hdl vhdl (one waveform per run)".into(),
        ));
    }
    let hdls: &[Hdl] = if a.variant.is_some() {
        &[Hdl::Sv]
    } else {
        a.hdl.hdls()
    };
    let list = scenarios_for(&a.run.scenario, true)?;
    if a.vcd.is_some() && list.len() != 1 {
        return Err(Failure::Input(
            "--vcd needs --scenario (one waveform per run)".into(),
        ));
    }
    let builds: &[Build] = if a.variant.is_some() {
        &[Build::Full]
    } else {
        a.builds
    };
    // Every run of every configuration and HDL, in the order its row is printed (a configuration
    // other than the full one is built at 8-byte beats only: its suite is the 8-byte scenarios).
    let mut jobs = Vec::new();
    for &build in builds {
        for &hdl in hdls {
            for sc in list.iter().filter(|sc| build.built_at(sc.data_bytes)) {
                let v = a
                    .variant
                    .clone()
                    .unwrap_or_else(|| hdl.build_variant(sc.data_bytes, build));
                jobs.push(((build, hdl), sc, run_spec(sc, a.run, &v, a.init_seed)?));
            }
        }
    }
    if jobs.is_empty() {
        return Err(Failure::Input(
            "--features base: the base configuration is built at 8-byte beats only, and no scenario asked for has them".into(),
        ));
    }
    let several = hdls.len() > 1 || builds.len() > 1;
    let wall = std::time::Instant::now();
    // Print in job order as results arrive; stop at the first mismatch in that order.
    let mut pending = std::collections::BTreeMap::new();
    let mut next = 0;
    let mut total = RunStats::default();
    let mut coverage = dcqcn_stim::coverage::Coverage::new();
    let mut print = |k: usize, r: Result<lockstep::Outcome, CosimError>| -> Result<(), Failure> {
        pending.insert(k, r);
        while let Some(r) = pending.remove(&next) {
            let (hdl, sc, spec) = &jobs[next];
            if next == 0 || jobs[next - 1].0 != *hdl {
                if several {
                    if builds.len() > 1 {
                        outln!("== {} {} ==", hdl.1.name(), hdl.0.name());
                    } else {
                        outln!("== {} ==", hdl.1.name());
                    }
                }
                header();
                total = RunStats::default();
                coverage = dcqcn_stim::coverage::Coverage::new();
            }
            let outcome = r?;
            let s = &outcome.stats;
            row(
                sc.name,
                sc.data_bytes,
                s,
                u64::from(outcome.mismatch.is_some()),
            );
            total.cycles += s.cycles;
            total.seconds += s.seconds;
            coverage.merge(&outcome.coverage);
            if let Some(mut m) = outcome.mismatch {
                lockstep::explain(spec, &mut m, HISTORY_CYCLES);
                eprintln!("\n{}", m.report());
                write_mismatch(spec, &m, a.report);
                return Err(Failure::Mismatch);
            }
            next += 1;
            if next == jobs.len() || jobs[next].0 != *hdl {
                out!("{}", coverage.table());
                if list.len() > 1 {
                    outln!(
                        "total: {} cycles compared, 0 mismatches, {:.2} M cycles/s per thread{}",
                        total.cycles,
                        total.cycles_per_second() / 1e6,
                        if a.variant.is_none() {
                            format!(
                                " ({}{})",
                                hdl.1.name(),
                                if builds.len() > 1 {
                                    format!(" {}", hdl.0.name())
                                } else {
                                    String::new()
                                }
                            )
                        } else {
                            String::new()
                        }
                    );
                }
            }
        }
        Ok(())
    };
    if let Some(path) = a.vcd {
        let spec = &jobs[0].2;
        let (from, to) = a.vcd_window.unwrap_or((0, u64::MAX));
        if from >= spec.cycles {
            return Err(Failure::Input(format!(
                "--vcd-window {from}:{to}: starts at or after the end of the run ({} cycles): the waveform would be empty",
                spec.cycles
            )));
        }
        let o =
            vcd_out::run_traced(spec, path, from..to).map_err(|e| Failure::Input(e.to_string()))?;
        return print(0, Ok(o));
    }
    let specs: Vec<&RunSpec> = jobs.iter().map(|j| &j.2).collect();
    pool(
        specs.len(),
        a.jobs,
        |k| specs[k].cycles,
        |k| lockstep::run(specs[k], None),
        &mut print,
    )?;
    if jobs.len() > 1 {
        let cycles: u64 = specs.iter().map(|s| s.cycles).sum();
        let secs = wall.elapsed().as_secs_f64();
        outln!(
            "wall: {} runs, {} cycles in {:.1} s on {} threads, {:.2} M cycles/s",
            jobs.len(),
            cycles,
            secs,
            a.jobs.min(jobs.len()),
            cycles as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}

/// Runs `run(k)` for every k in `0..n` on a pool of `threads` threads of its own, heaviest
/// `weight` first (so the last to start is a light one), and hands each result to `sink` on the
/// calling thread as it finishes. Once the sink fails, no further run starts and that failure is
/// returned. The caller orders what it prints by k (`sink` gets the results in any order).
pub(crate) fn pool<R: Send>(
    n: usize,
    threads: usize,
    weight: impl Fn(usize) -> u64,
    run: impl Fn(usize) -> R + Sync,
    sink: &mut dyn FnMut(usize, R) -> Result<(), Failure>,
) -> Result<(), Failure> {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(weight(k)), k));
    let threads = threads.clamp(1, n.max(1));
    let workers = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("dcqcn-run-{i}"))
        .build()
        .map_err(|e| Failure::Harness(format!("cannot start {threads} threads: {e}")))?;
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    // Spawned from outside the pool, the runs queue first in, first out: heaviest first.
    workers.in_place_scope(|scope| {
        for &k in &order {
            let (tx, stop, run) = (tx.clone(), &stop, &run);
            scope.spawn(move |_| {
                if !stop.load(Relaxed) {
                    // The receiver outlives every run (it is read until the last sender goes).
                    let _ = tx.send((k, run(k)));
                }
            });
        }
        drop(tx);
        let mut result = Ok(());
        for (k, r) in rx {
            if result.is_ok() {
                result = sink(k, r);
                if result.is_err() {
                    stop.store(true, Relaxed);
                }
            }
        }
        result
    })
}

/// Writes the JSON report and the waveform window of a mismatch and says where, or why not.
pub(crate) fn write_mismatch(spec: &RunSpec, m: &Mismatch, report: &Path) {
    let written = dcqcn_cosim::artifacts::write_mismatch_artifacts(spec, m, report);
    match written.report {
        Ok(path) => eprintln!("report: {}", path.display()),
        Err(e) => eprintln!("{e}"),
    }
    match written.waveform {
        Ok((path, cycles)) => eprintln!(
            "waveform (cycles {}..={}): {}",
            cycles.start(),
            cycles.end(),
            path.display()
        ),
        Err(e) => eprintln!("{e}"),
    }
}

pub(crate) fn scenarios_for(
    arg: &Option<String>,
    default_all: bool,
) -> Result<Vec<Scenario>, Failure> {
    match arg.as_deref() {
        None if default_all => Ok(scenario::default_suite()),
        None => Ok(vec![scenario::by_name("paper-table2").expect("built-in")]),
        Some(name) => scenario::by_name(name).map(|s| vec![s]).ok_or_else(|| {
            Failure::Input(
                StimError::UnknownScenario {
                    name: dcqcn_harness::clip(name),
                    known: scenario::names().iter().map(|s| s.to_string()).collect(),
                }
                .to_string(),
            )
        }),
    }
}

/// The run of `sc` with the command line's arguments; `init_seed`: the RTL's random power-up
/// values (cosim only; 0 for the model alone).
pub(crate) fn run_spec(
    sc: &Scenario,
    args: &RunArgs,
    variant: &str,
    init_seed: u64,
) -> Result<RunSpec, Failure> {
    // The variant's clock and line rate (its beat width must be the scenario's: the lockstep says so).
    let params = match rtl::variants().into_iter().find(|v| v.name == variant) {
        Some(v) if v.data_bytes == sc.data_bytes => v
            .params()
            .map_err(|e| Failure::Input(format!("variant {variant}: {e}")))?,
        _ => sc.params(),
    };
    let mut stimulus = sc.stimulus.clone();
    let mut replay = format!("dcqcn cosim --scenario {} --seed {}", sc.name, args.seed);
    if let Some(path) = &args.config {
        stimulus.config =
            config_file::load(path, &params).map_err(|e| Failure::Input(e.to_string()))?;
        replay += &format!(" --config {}", path.display());
    }
    if let Some(named) = args.base {
        stimulus.config = named.config(&params);
        replay += &format!(" --base {}", named.name());
    }
    if variant != variant::width_variant(sc.data_bytes) {
        replay += &format!(" --variant {variant}");
    }
    if init_seed != 0 {
        replay += &format!(" --init-seed {init_seed}");
    }
    Ok(RunSpec {
        scenario: sc.name.to_string(),
        params,
        stimulus,
        seed: args.seed,
        cycles: args.cycles.unwrap_or(sc.default_cycles),
        variant: variant.to_string(),
        replay,
        rtl_init_seed: init_seed,
        initial_state: None,
    })
}

pub(crate) fn header() {
    outln!(
        "{:<15} {:>3} {:>11} {:>10} {:>6} {:>6} {:>7} {:>5} {:>7} {:>7} {:>7} {:>6} {:>10} {:>9}",
        "scenario",
        "B",
        "cycles",
        "beats",
        "CNPs",
        "dec",
        "inc_FR",
        "AI",
        "HAI",
        "alpha",
        "resets",
        "regs",
        "mismatches",
        "Mcyc/s"
    );
}

pub(crate) fn row(name: &str, db: u32, s: &RunStats, mismatches: u64) {
    outln!(
        "{:<15} {:>3} {:>11} {:>10} {:>6} {:>6} {:>7} {:>5} {:>7} {:>7} {:>7} {:>6} {:>10} {:>9.2}",
        name,
        db,
        s.cycles,
        s.beats,
        s.cnps,
        s.decreases,
        s.inc_fast_recovery,
        s.inc_additive,
        s.inc_hyper,
        s.alpha_updates,
        s.resets,
        s.axil_writes + s.axil_reads,
        mismatches,
        s.cycles_per_second() / 1e6
    );
}

#[cfg(test)]
mod pool_tests {
    use super::pool;
    use crate::Failure;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    #[test]
    fn every_run_once_heaviest_first_on_any_thread_count() {
        for threads in 1..=4 {
            let mut seen = Vec::new();
            pool(9, threads, |k| k as u64 % 4, |k| k * 10, &mut |k, r| {
                assert_eq!(r, k * 10);
                seen.push(k);
                Ok(())
            })
            .unwrap();
            if threads == 1 {
                // one thread: strictly by weight (k % 4) descending, then index
                assert_eq!(seen, [3, 7, 2, 6, 1, 5, 0, 4, 8]);
            }
            seen.sort_unstable();
            assert_eq!(seen, (0..9).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_failing_sink_stops_new_runs_and_returns_its_failure() {
        let started = AtomicUsize::new(0);
        let mut at_failure = None;
        let threads = 2;
        let r = pool(
            100,
            threads,
            |_| 0,
            |k| {
                started.fetch_add(1, Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(2));
                k
            },
            &mut |k, _| {
                if k == 3 {
                    at_failure = Some(started.load(Relaxed));
                    Err(Failure::Mismatch)
                } else {
                    Ok(())
                }
            },
        );
        assert!(matches!(r, Err(Failure::Mismatch)));
        // Once the sink has failed, each thread starts at most one more run (the one it may have
        // taken before it saw the stop). Counted from the failure, not from the start: how many
        // runs the threads finish before the sink sees run 3 depends on the scheduler (a loaded
        // machine started 7 in all).
        let (at, all) = (
            at_failure.expect("run 3 reached the sink"),
            started.load(Relaxed),
        );
        assert!(
            all <= at + threads,
            "{all} runs started, {at} when the sink failed"
        );
        assert!(all < 100, "the pool did not stop");
    }
}
