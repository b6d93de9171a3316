//! `dcqcn fuzz`: random cases against the RTL (each HDL asked for), or the replay of a saved case.

use crate::cosim::write_mismatch;
use crate::{Failure, HdlChoice};
use dcqcn_cosim::{fuzz, rtl};
use dcqcn_stim::variant::Hdl;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

/// Arguments of `dcqcn fuzz`.
pub(crate) struct FuzzArgs<'a> {
    pub(crate) cases: Option<u64>,
    pub(crate) seconds: Option<f64>,
    pub(crate) seed: u64,
    pub(crate) cycles: u64,
    pub(crate) jobs: Option<usize>,
    pub(crate) variant: &'a Option<String>,
    pub(crate) hdl: HdlChoice,
    pub(crate) replay: &'a Option<PathBuf>,
    pub(crate) save: &'a Path,
    pub(crate) no_inject: bool,
}

pub(crate) fn fuzz(a: &FuzzArgs) -> Result<(), Failure> {
    if a.replay.is_some() || a.variant.is_some() {
        return fuzz_on(a, Hdl::Sv);
    }
    for &hdl in a.hdl.hdls() {
        fuzz_on(a, hdl)?;
    }
    Ok(())
}

pub(crate) fn fuzz_on(a: &FuzzArgs, hdl: Hdl) -> Result<(), Failure> {
    if let Some(path) = a.replay {
        let r = fuzz::replay(path)?;
        return match r.outcome.mismatch {
            None => {
                outln!(
                    "{}: {} cycles, 0 mismatches",
                    path.display(),
                    r.outcome.stats.cycles
                );
                Ok(())
            }
            Some(m) => {
                eprintln!("{}", m.report());
                write_mismatch(&r.spec, &m, &fuzz::mismatch_report_path(path));
                Err(Failure::Mismatch)
            }
        };
    }
    if let Some(v) = a.variant {
        if !rtl::variants().iter().any(|x| &x.name == v) {
            return Err(Failure::Input(format!(
                "unknown RTL variant `{}` (see `dcqcn variants`)",
                dcqcn_harness::clip(v)
            )));
        }
    }
    let cfg = fuzz::CampaignCfg {
        cases: a.cases.or(if a.seconds.is_some() {
            None
        } else {
            Some(1_000)
        }),
        seconds: a.seconds,
        seed: a.seed,
        cycles: a.cycles,
        jobs: a
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        variant: a.variant.clone(),
        hdl,
        inject: !a.no_inject,
    };
    // On stderr, drawn only when it is a terminal (nothing in CI logs).
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{msg}").expect("a valid template"));
    let progress = |cases: u64, cycles: u64, secs: f64| {
        bar.set_message(format!(
            "fuzz: {cases} cases, {:.1} M cycles, {:.2} M cycles/s, {secs:.0} s",
            cycles as f64 / 1e6,
            cycles as f64 / secs.max(1e-9) / 1e6
        ));
    };
    let r = fuzz::campaign(&cfg, &progress);
    bar.finish();
    let r = r?;
    if r.cases == 0 {
        return Err(Failure::Input(format!(
            "--seconds {}: no case finished in that time, nothing was checked",
            a.seconds.unwrap_or_default()
        )));
    }
    outln!(
        "fuzz{}: {} cases x {} cycles on {} threads (seed {}): {} cycles in {:.1} s, {:.2} M cycles/s ({:.2} per thread), {}",
        match (&cfg.variant, hdl) {
            (Some(v), _) => format!(" on {v}"),
            (None, h) => format!(" ({})", h.name()),
        },
        r.cases,
        cfg.cycles,
        cfg.jobs,
        cfg.seed,
        r.cycles,
        r.seconds,
        r.cycles as f64 / r.seconds / 1e6,
        r.cycles as f64 / r.seconds / 1e6 / cfg.jobs as f64,
        if r.failure.is_some() { "FAILED" } else { "0 mismatches" }
    );
    out!("{}", r.coverage.table());
    let Some(f) = r.failure else { return Ok(()) };
    let saved = fuzz::save_failure(&f, cfg.variant_for(&f.case).as_deref(), a.save)?;
    eprintln!(
        "\ncase {} failed; shrunk in {} steps to:\n{}",
        f.index,
        f.shrink_steps,
        saved.mismatch.report()
    );
    eprintln!("minimal case: {}", a.save.display());
    write_mismatch(
        &saved.spec,
        &saved.mismatch,
        &fuzz::mismatch_report_path(a.save),
    );
    Err(Failure::Mismatch)
}
