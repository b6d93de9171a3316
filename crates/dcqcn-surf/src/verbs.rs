//! The work of `dcqcn surf record|scenarios` and `dcqcn cosim --rtl surf`: the upstream SURF block
//! from the user's checkout ([`crate::ghdl`]). The command line's types stay in dcqcn-cli; the
//! command's output lines go through the caller's `say` (standard output there), the progress and
//! the reports to standard error.

use crate::ghdl::{self as surf, SurfError};
use std::fmt::Arguments;
use std::path::{Path, PathBuf};

/// Why a verb failed: bad input (exit 2) or a mismatch (exit 1).
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    Input(String),
    Mismatch,
}

/// `dcqcn cosim --rtl surf`'s options shared with our block's lockstep, as given.
#[derive(Clone, Copy, Debug)]
pub struct CosimRun<'a> {
    /// `--scenario`: one scenario, else all.
    pub scenario: Option<&'a str>,
    /// `--cycles`: else each scenario's own length.
    pub cycles: Option<u64>,
    /// `--seed`.
    pub seed: u64,
    /// Whether `--config` was given (refused).
    pub config: bool,
}

/// Where builds of user checkouts go: `$CARGO_TARGET_DIR/surf`, else `target/surf`.
pub fn build_root() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| PathBuf::from("target"), PathBuf::from)
        .join("surf")
}

fn input(e: SurfError) -> Failure {
    Failure::Input(e.to_string())
}

/// Builds the checkout (or finds it built), saying so on standard error.
pub fn build(surf_dir: &Path) -> Result<surf::Built, Failure> {
    surf::check_tree(surf_dir).map_err(input)?;
    eprintln!(
        "building {} with GHDL into {} ...",
        surf_dir.display(),
        build_root().display()
    );
    let b = surf::build(surf_dir, &build_root()).map_err(input)?;
    if b.build_seconds > 0.0 {
        eprintln!("built in {:.1} s ({})", b.build_seconds, b.dir.display());
    }
    Ok(b)
}

/// `dcqcn surf scenarios`: one line per scenario.
pub fn scenarios(say: &mut dyn FnMut(Arguments)) {
    for s in surf::scenarios() {
        say(format_args!(
            "{:<19} {:>6} cycles  {}",
            s.name, s.default_cycles, s.description
        ));
    }
}

/// `dcqcn surf record`: one set per scenario (`scenario`, else all) under `out`, one line each.
pub fn record(
    surf_dir: &Path,
    scenario: Option<&str>,
    out: &Path,
    cycles: Option<u64>,
    seed: u64,
    say: &mut dyn FnMut(Arguments),
) -> Result<(), Failure> {
    let list = match scenario {
        Some(n) => vec![surf::scenario(n).map_err(input)?],
        None => surf::scenarios(),
    };
    let b = build(surf_dir)?;
    for sc in &list {
        let n = cycles.unwrap_or(sc.default_cycles);
        let command = format!(
            "dcqcn surf record --surf-dir <SURF checkout> --scenario {} --cycles {n} --seed {seed}",
            sc.name
        );
        let r = surf::run_upstream(&b, sc, seed, n).map_err(input)?;
        let dir = out.join(sc.name);
        surf::write_set(&dir, &b, sc, seed, &r, &command).map_err(input)?;
        say(format_args!(
            "{:<19} {:>6} cycles  {:>7.0} cycles/s  {}",
            sc.name,
            r.inputs.len(),
            r.cycles_per_second(),
            dir.display()
        ));
    }
    Ok(())
}

/// The options of `dcqcn cosim` that belong to our block's lockstep, as given on the command
/// line (`--rtl surf` refuses each).
#[derive(Clone, Copy, Debug, Default)]
pub struct OursOnly {
    pub variant: bool,
    pub hdl: bool,
    pub init_seed: bool,
    pub jobs: bool,
    pub vcd_window: bool,
    pub base: bool,
}

impl OursOnly {
    /// The first option given, with why `--rtl surf` does not take it (one line).
    pub fn refusal(&self) -> Option<&'static str> {
        [
            (self.variant, "--variant is not for --rtl surf: it names a Verilated variant of our block, and --rtl surf runs the upstream VHDL of --surf-dir in GHDL"),
            (self.hdl, "--hdl is not for --rtl surf: it chooses our block's SystemVerilog or VHDL twin, and --rtl surf runs the upstream VHDL of --surf-dir"),
            (self.init_seed, "--init-seed is not for --rtl surf: it randomises our Verilated block's registers, and GHDL starts the upstream registers at their VHDL initial values"),
            (self.jobs, "--jobs is not for --rtl surf: it runs our block's scenarios on threads, and --rtl surf runs its scenarios one after another, one GHDL process each"),
            (self.vcd_window, "--vcd-window is not for --rtl surf: --vcd writes the whole run, and a mismatch writes the 200 cycles up to it beside the report"),
            (self.base, "--base is our block's configuration; the upstream scenarios program upstream registers (`dcqcn surf scenarios`)"),
        ]
        .into_iter()
        .find_map(|(given, why)| given.then_some(why))
    }
}

/// `dcqcn cosim --rtl surf`: the model of upstream against your checkout, one scenario or all.
pub fn cosim(
    run: &CosimRun,
    surf_dir: &Option<PathBuf>,
    vcd: &Option<PathBuf>,
    report: &Path,
    ours_only: &OursOnly,
    say: &mut dyn FnMut(Arguments),
) -> Result<(), Failure> {
    if let Some(why) = ours_only.refusal() {
        return Err(Failure::Input(why.into()));
    }
    let Some(dir) = surf_dir else {
        return Err(Failure::Input(
            "--rtl surf needs --surf-dir PATH (your SURF checkout)".into(),
        ));
    };
    if run.config {
        return Err(Failure::Input(
            "--config is our block's register file; the upstream scenarios program upstream registers (`dcqcn surf scenarios`)".into(),
        ));
    }
    if vcd.is_some() && run.scenario.is_none() {
        return Err(Failure::Input(
            "--vcd needs --scenario (one waveform per run)".into(),
        ));
    }
    let list = match run.scenario {
        Some(n) => vec![surf::scenario(n).map_err(input)?],
        None => surf::scenarios(),
    };
    let b = build(dir)?;
    say(format_args!("SURF {} ({})", b.commit, b.dir.display()));
    let mut failed = false;
    let window = report.with_extension("vcd");
    for sc in &list {
        let n = run.cycles.unwrap_or(sc.default_cycles);
        let replay = format!(
            "dcqcn cosim --rtl surf --surf-dir {} --scenario {} --seed {}",
            dir.display(),
            sc.name,
            run.seed
        );
        let trace = match vcd {
            Some(p) => (p.as_path(), false),
            None => (window.as_path(), true),
        };
        let o = surf::lockstep(&b, sc, run.seed, n, &replay, Some(trace)).map_err(input)?;
        eprintln!(
            "{}: upstream run {} ({})",
            sc.name,
            o.upstream_run.display(),
            if o.kept { "kept" } else { "removed" }
        );
        match &o.mismatch {
            None => say(format_args!(
                "{:<19} {:>7} cycles  0 mismatches  {:>6.0} cycles/s",
                sc.name,
                o.cycles,
                o.cycles_per_second()
            )),
            Some(m) => {
                failed = true;
                say(format_args!(
                    "{:<19} MISMATCH at cycle {}",
                    sc.name, m.cycle
                ));
                eprint!("{}", m.report());
                let json = m.to_json();
                std::fs::write(report, json).map_err(|e| {
                    Failure::Input(format!("{}: cannot write report: {e}", report.display()))
                })?;
                eprintln!(
                    "report: {}, waveform: {}",
                    report.display(),
                    vcd.clone()
                        .unwrap_or_else(|| report.with_extension("vcd"))
                        .display()
                );
            }
        }
    }
    if failed {
        Err(Failure::Mismatch)
    } else {
        Ok(())
    }
}
