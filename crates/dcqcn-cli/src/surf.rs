//! `dcqcn surf record|scenarios` and `dcqcn cosim --rtl surf`: the command line's types; the work
//! is `dcqcn_surf::verbs`.

use crate::{Failure, RunArgs};
use clap::Subcommand;
use dcqcn_surf::verbs::{self, CosimRun};
use std::path::{Path, PathBuf};

pub use dcqcn_surf::verbs::OursOnly;

#[derive(Subcommand)]
pub enum SurfCmd {
    /// Record vector sets of the upstream block (every port every cycle, Rc, Rt, alpha and the
    /// CNP counter) from your SURF checkout, one directory per scenario.
    Record {
        /// Your SURF checkout (with ethernet/RoCEv2/rtl/RoCEv2Dcqcn.vhd); nothing is written into it.
        #[arg(long)]
        surf_dir: PathBuf,
        /// Scenario (see `dcqcn surf scenarios`); default: every one.
        #[arg(long)]
        scenario: Option<String>,
        /// Output directory: one subdirectory per scenario.
        #[arg(long)]
        out: PathBuf,
        /// Cycles (default: the scenario's own length).
        #[arg(long, value_parser = dcqcn_harness::units::positive_count)]
        cycles: Option<u64>,
        /// Stimulus seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// List the scenarios run against the upstream block.
    Scenarios,
}

fn failure(f: verbs::Failure) -> Failure {
    match f {
        verbs::Failure::Input(why) => Failure::Input(why),
        verbs::Failure::Mismatch => Failure::Mismatch,
    }
}

/// The verbs' output lines go to standard output.
fn say(line: std::fmt::Arguments) {
    outln!("{line}");
}

pub fn run(cmd: &SurfCmd) -> Result<(), Failure> {
    match cmd {
        SurfCmd::Scenarios => {
            verbs::scenarios(&mut say);
            Ok(())
        }
        SurfCmd::Record {
            surf_dir,
            scenario,
            out,
            cycles,
            seed,
        } => verbs::record(surf_dir, scenario.as_deref(), out, *cycles, *seed, &mut say)
            .map_err(failure),
    }
}

/// `dcqcn cosim --rtl surf`: the model of upstream against your checkout, one scenario or all.
pub fn cosim(
    run: &RunArgs,
    surf_dir: &Option<PathBuf>,
    vcd: &Option<PathBuf>,
    report: &Path,
    ours_only: &OursOnly,
) -> Result<(), Failure> {
    let run = CosimRun {
        scenario: run.scenario.as_deref(),
        cycles: run.cycles,
        seed: run.seed,
        config: run.config.is_some(),
    };
    verbs::cosim(&run, surf_dir, vcd, report, ours_only, &mut say).map_err(failure)
}
