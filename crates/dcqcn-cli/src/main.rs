//! `dcqcn`: run the model and the RTL in lockstep (`cosim`), the model alone (`sim`), or list what
//! is built in. Exit codes: 0 pass, 1 mismatch, 2 bad input.

/// `println!` for the command's output, through [`write_stdout`].
macro_rules! outln {
    () => {
        $crate::write_stdout(format_args!("\n"))
    };
    ($($t:tt)*) => {
        $crate::write_stdout(format_args!("{}\n", format_args!($($t)*)))
    };
}

/// `print!` for the command's output, through [`write_stdout`].
macro_rules! out {
    ($($t:tt)*) => {
        $crate::write_stdout(format_args!($($t)*))
    };
}

mod cosim;
mod cosim_mq;
mod fuzz;
mod golden;
mod net;
mod net_scale;
mod nscc_vectors;
mod sim;
mod surf;

use clap::{Parser, Subcommand};
use cosim::{cosim, CosimArgs};
use dcqcn_cosim::{rtl, CosimError};
use dcqcn_harness::{config_file, units};
use dcqcn_model::NamedConfig;
use dcqcn_stim::scenario;
use dcqcn_stim::variant::{Build, Hdl};
use dcqcn_stim::StimError;
use fuzz::{fuzz, FuzzArgs};
use sim::sim;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dcqcn",
    version,
    about = "DCQCN rate limiter: bit-exact model, RTL lockstep, traces"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// Exit status when standard output is closed early (`dcqcn variants | head -1`): what a shell
/// reports for a coreutils command ended by SIGPIPE (128 + 13).
const EXIT_CLOSED_STDOUT: i32 = 141;

/// Writes the command's output; a reader that went away ends the process quietly with
/// [`EXIT_CLOSED_STDOUT`] (like coreutils), any other write error is reported (exit 2).
fn write_stdout(args: std::fmt::Arguments) {
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        stdout_failed(&e);
    }
}

/// Ends the process after a failed write to standard output.
fn stdout_failed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(EXIT_CLOSED_STDOUT);
    }
    eprintln!("error: writing standard output: {e}");
    std::process::exit(2);
}

/// `--rtl`: our block or the upstream SURF block.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum RtlChoice {
    /// Our block (rtl/*.sv, rtl/vhdl/)
    Ours,
    /// The upstream SURF RoCEv2Dcqcn from --surf-dir
    Surf,
}

/// `--block`: which block the lockstep runs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum BlockChoice {
    /// The single-flow rate limiter dcqcn_rl (docs/spec.md), the default
    Rl,
    /// The multi-QP engine dcqcn_mq (docs/spec-mq.md)
    Mq,
}

/// `--hdl`: which RTL description(s) the lockstep runs against.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum HdlChoice {
    /// The SystemVerilog, rtl/*.sv (variants w8, w32, w64)
    Sv,
    /// The VHDL twin, rtl/vhdl/ through ghdl --synth (variants vhdl-w8, vhdl-w32, vhdl-w64)
    Vhdl,
    /// Both, the SystemVerilog first
    Both,
}

impl HdlChoice {
    fn hdls(self) -> &'static [Hdl] {
        match self {
            HdlChoice::Sv => &[Hdl::Sv],
            HdlChoice::Vhdl => &[Hdl::Vhdl],
            HdlChoice::Both => &[Hdl::Sv, Hdl::Vhdl],
        }
    }
}

/// `--features`: which feature configurations (spec 2) the suite runs against.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FeaturesChoice {
    /// Every feature (variants w8, w32, w64, vhdl-w8, ...)
    Full,
    /// No rate rules, control schemes or trace (variants w8-base, vhdl-w8-base; 8-byte scenarios)
    Base,
    /// Both, the full one first
    All,
}

impl FeaturesChoice {
    fn builds(self) -> &'static [Build] {
        match self {
            FeaturesChoice::Full => &[Build::Full],
            FeaturesChoice::Base => &[Build::Base],
            FeaturesChoice::All => &[Build::Full, Build::Base],
        }
    }
}

/// Which 64 events the trace window keeps (spec 4.10, `trace_wrap`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum TraceMode {
    /// The first 64 after arming
    Stop,
    /// The last 64 of the run
    Wrap,
}

#[derive(clap::Args, Clone)]
struct RunArgs {
    /// Scenario name (see `dcqcn scenarios`); default: the whole suite (cosim) or paper-table2 (sim).
    #[arg(long)]
    scenario: Option<String>,
    /// Cycles per scenario (default: the scenario's own length).
    #[arg(long, value_parser = units::positive_count)]
    cycles: Option<u64>,
    /// Stimulus seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Register configuration file (TOML, human units), replacing the scenario's configuration.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Named configuration (spec 6.3) replacing the scenario's configuration: upstream-reset,
    /// paper-table2, dcqcn-sigcomm15, nvidia-cx, ns3-hpcc. Not with --config: a file starts from
    /// a named configuration with its own `base = "NAME"` line and changes registers on top.
    #[arg(long, value_name = "NAME", value_parser = config_file::named, conflicts_with = "config")]
    base: Option<NamedConfig>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Lockstep the model against the Verilated RTL, comparing every output and register every cycle.
    Cosim {
        #[command(flatten)]
        run: RunArgs,
        /// Start every RTL register at a random value drawn from this seed (0, the default: all
        /// zero), so that a register the reset misses shows up as a mismatch.
        #[arg(long)]
        init_seed: Option<u64>,
        /// Write a waveform of both sides (scopes tb, model, rtl) to this VCD file (needs --scenario).
        #[arg(long)]
        vcd: Option<PathBuf>,
        /// Only trace cycles FROM:TO into --vcd (default: the whole run); FROM must be inside
        /// the run.
        #[arg(long, value_parser = units::window, requires = "vcd")]
        vcd_window: Option<(u64, u64)>,
        /// RTL variant (see `dcqcn variants`); default: the --hdl variant of the scenario's beat
        /// width, e.g. w8 or vhdl-w8. With --block mq: a dcqcn_mq variant by name (a mutant
        /// `mut_<name>`, built with feature `mutants`), whose HDL and QPS the run takes.
        #[arg(long, conflicts_with = "hdl")]
        variant: Option<String>,
        /// Which RTL the suite runs against: the SystemVerilog (default), the VHDL twin, or both
        /// in turn.
        #[arg(long, value_enum)]
        hdl: Option<HdlChoice>,
        /// Which feature configurations (spec 2): every feature (default), the base (8-byte
        /// scenarios only), or both in turn.
        #[arg(long, value_enum, conflicts_with = "variant")]
        features: Option<FeaturesChoice>,
        /// Where to write the mismatch report (JSON) and its waveform window (.vcd beside it).
        #[arg(long, visible_alias = "json", default_value = "dcqcn-mismatch.json")]
        report: PathBuf,
        /// Scenarios run at once, one thread each (default: one per core).
        #[arg(long, value_parser = units::jobs)]
        jobs: Option<usize>,
        /// The block: ours (rtl/), or the upstream SURF block from --surf-dir (GHDL, per cycle,
        /// against the model of upstream; scenarios: `dcqcn surf scenarios`).
        #[arg(long, value_enum, default_value = "ours")]
        rtl: RtlChoice,
        /// Your SURF checkout (with --rtl surf); nothing is written into it.
        #[arg(long)]
        surf_dir: Option<PathBuf>,
        /// The block: dcqcn_rl (default) or the multi-QP dcqcn_mq (scenarios mq-*, `--scenario
        /// all` for every one; --hdl, --qps, --cycles, --seed, --json, --vcd apply).
        #[arg(long, value_enum)]
        block: Option<BlockChoice>,
        /// With --block mq: the QPS of the dcqcn_mq variant (built: 4, 64, 1024; default every
        /// one built).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
        qps: Option<u32>,
    },
    /// Run the model alone and write a CSV trace of Rc, Rt, alpha, credit and events.
    Sim {
        #[command(flatten)]
        run: RunArgs,
        /// Output CSV (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also write a row every N cycles without events (not with --trace, which writes the
        /// trace window instead of rows).
        #[arg(long, value_parser = units::count, default_value = "10000", conflicts_with = "trace")]
        every: u64,
        /// Arm the block's event trace (spec 4.10) with the configuration and, instead of the
        /// per-event CSV, write the trace window at the end of the run, decoded, oldest first:
        /// `stop` keeps the first 64 events, `wrap` the last 64.
        #[arg(long, value_enum, value_name = "MODE")]
        trace: Option<TraceMode>,
    },
    /// Fuzz: random configurations and traffic model-vs-RTL on every core; a failure is shrunk to
    /// a minimal case, saved, and reported like a cosim mismatch.
    Fuzz {
        /// Number of cases (default 1000 unless --seconds is given).
        #[arg(long, value_parser = units::positive_count)]
        cases: Option<u64>,
        /// Stop starting new cases after this many seconds.
        #[arg(long, value_parser = units::seconds)]
        seconds: Option<f64>,
        /// Campaign seed: case n is drawn from (seed, n) alone.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cycles per case.
        #[arg(long, value_parser = units::positive_count, default_value = "50000")]
        cycles: u64,
        /// Worker threads (default: every core).
        #[arg(long, value_parser = units::jobs)]
        jobs: Option<usize>,
        /// Run every case on this RTL variant (e.g. a mutant).
        #[arg(long, conflicts_with = "hdl")]
        variant: Option<String>,
        /// Run each case on this HDL's variant of the case's beat width (both: one campaign per
        /// HDL, the SystemVerilog first, same cases).
        #[arg(long, value_enum, default_value = "sv")]
        hdl: HdlChoice,
        /// Replay a saved case instead of fuzzing (on the case's own variant, for its own
        /// length: campaign options are refused with it).
        #[arg(long, conflicts_with_all = ["cases", "seconds", "seed", "cycles", "jobs", "variant", "hdl", "save", "no_inject", "qps"])]
        replay: Option<PathBuf>,
        /// Where a failing case is saved; its report and waveform go beside it.
        #[arg(long, default_value = "dcqcn-fuzz-case.json")]
        save: PathBuf,
        /// Run the cases drawn with an injected starting state (1 in 4, spec 4.8) from reset
        /// instead: the same campaign without state injection, for comparison.
        #[arg(long)]
        no_inject: bool,
        /// The block: dcqcn_rl (default) or the multi-QP dcqcn_mq (docs/spec-mq.md 8.3, 8.4;
        /// --variant then names a dcqcn_mq variant, --replay a saved multi-QP case).
        #[arg(long, value_enum)]
        block: Option<BlockChoice>,
        /// With --block mq: draw every case at this QPS (default: at every built QPS).
        #[arg(long)]
        qps: Option<u32>,
    },
    /// The upstream SURF block (RoCEv2Dcqcn) from your SURF checkout: record vector sets.
    Surf {
        #[command(subcommand)]
        cmd: surf::SurfCmd,
    },
    /// Golden vectors for HDL testbenches: generate (`gen`), check against the model (`verify`).
    Golden {
        #[command(subcommand)]
        cmd: golden::GoldenCmd,
    },
    /// Reproduce one of the paper's network experiments (fig4, fig5, fig9, fig11-fig14, all) with
    /// the bit-exact model as every sender: CSV, SVG, PNG and a measured-vs-paper table; or run
    /// the AdvCam-scale funnel (`net advcam`) or a parameter map (`net sweep`).
    Net(net::NetArgs),
    /// NSCC ACK-process vectors for the HDL testbenches of nscc_mq_ack_exec: N random (input,
    /// expected output) lines from the bit-exact model (format: the file's header).
    NsccVectors {
        /// Seed: the file is a function of (seed, count, line-win).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of vectors.
        #[arg(long, value_parser = units::positive_count)]
        count: u64,
        /// LINE_WIN of the block (bytes per 1024 cycles, spec-mq 2).
        #[arg(long, default_value_t = 8192)]
        line_win: u32,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
    },
    /// List the RTL variants compiled into this binary.
    Variants,
    /// List the built-in scenarios.
    Scenarios,
}

/// Bad input (exit 2), a failed check (exit 1), or a defect of the harness itself (exit 3: a
/// drawn fuzz case the RTL cannot be given; neither the input's fault nor the RTL's).
#[derive(Debug)]
enum Failure {
    Input(String),
    Mismatch,
    Harness(String),
}

impl From<CosimError> for Failure {
    fn from(e: CosimError) -> Self {
        match e {
            CosimError::Stim(StimError::Harness(_)) => Failure::Harness(e.to_string()),
            e => Failure::Input(e.to_string()),
        }
    }
}

/// A line of a command-line error as shown: a huge argument (quoted by clap as `'...'`) is not
/// echoed whole.
fn clip_line(line: &str) -> String {
    line.split('\'')
        .enumerate()
        .map(|(k, part)| {
            if k % 2 == 1 {
                dcqcn_harness::clip(part)
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("'")
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help, --version: on standard output, exit 0.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            for line in e.render().to_string().lines() {
                eprintln!("{}", clip_line(line));
            }
            return ExitCode::from(2);
        }
    };
    let r = match &cli.cmd {
        Cmd::Cosim {
            block: Some(BlockChoice::Mq),
            run,
            init_seed,
            vcd,
            vcd_window,
            variant,
            hdl,
            features,
            report,
            jobs,
            rtl,
            surf_dir,
            qps,
            ..
        } => {
            // the options of dcqcn_rl's lockstep that the multi-QP block has no use for
            let not_mq = [
                ("--config", run.config.is_some()),
                ("--base", run.base.is_some()),
                ("--init-seed", init_seed.is_some()),
                ("--vcd-window", vcd_window.is_some()),
                ("--features", features.is_some()),
                ("--rtl surf", *rtl == RtlChoice::Surf),
                ("--surf-dir", surf_dir.is_some()),
            ];
            match not_mq.iter().find(|f| f.1) {
                Some((flag, _)) => Err(Failure::Input(format!(
                    "{flag} is for --block rl (dcqcn_rl), not --block mq"
                ))),
                None => cosim_mq::cosim_mq(&cosim_mq::MqCosimArgs {
                    scenario: &run.scenario,
                    cycles: run.cycles,
                    seed: run.seed,
                    hdl: hdl.unwrap_or(HdlChoice::Sv),
                    qps: *qps,
                    variant,
                    vcd,
                    report,
                    jobs: jobs.unwrap_or_else(|| {
                        std::thread::available_parallelism().map_or(1, |n| n.get())
                    }),
                }),
            }
        }
        Cmd::Cosim { qps: Some(_), .. } => Err(Failure::Input(
            "--qps is for --block mq (the multi-QP block)".into(),
        )),
        Cmd::Cosim {
            rtl: RtlChoice::Surf,
            features: Some(_),
            ..
        } => Err(Failure::Input(
            "--features is for our block (--rtl ours)".into(),
        )),
        Cmd::Cosim {
            run,
            init_seed,
            vcd,
            vcd_window,
            variant,
            hdl,
            report,
            jobs,
            rtl: RtlChoice::Surf,
            surf_dir,
            ..
        } => surf::cosim(
            run,
            surf_dir,
            vcd,
            report,
            &surf::OursOnly {
                variant: variant.is_some(),
                hdl: hdl.is_some(),
                init_seed: init_seed.is_some(),
                jobs: jobs.is_some(),
                vcd_window: vcd_window.is_some(),
                base: run.base.is_some(),
            },
        ),
        Cmd::Cosim {
            rtl: RtlChoice::Ours,
            surf_dir: Some(_),
            ..
        } => Err(Failure::Input(
            "--surf-dir is for --rtl surf (the upstream block)".into(),
        )),
        Cmd::Cosim {
            run,
            init_seed,
            vcd,
            vcd_window,
            variant,
            hdl,
            features,
            report,
            jobs,
            ..
        } => cosim(&CosimArgs {
            run,
            init_seed: init_seed.unwrap_or(0),
            vcd,
            vcd_window: *vcd_window,
            variant,
            hdl: hdl.unwrap_or(HdlChoice::Sv),
            builds: features.unwrap_or(FeaturesChoice::Full).builds(),
            report,
            jobs: jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        }),
        Cmd::Sim {
            run,
            out,
            every,
            trace,
        } => sim(run, out, *every, *trace),
        Cmd::Fuzz {
            cases,
            seconds,
            seed,
            cycles,
            jobs,
            variant,
            hdl,
            replay,
            save,
            no_inject,
            block,
            qps,
        } => fuzz(&FuzzArgs {
            cases: *cases,
            seconds: *seconds,
            seed: *seed,
            cycles: *cycles,
            jobs: *jobs,
            variant,
            hdl: *hdl,
            replay,
            save,
            no_inject: *no_inject,
            block_mq: *block == Some(BlockChoice::Mq),
            qps: *qps,
        }),
        Cmd::Golden { cmd } => golden::run(cmd).map_err(|f| match f {
            golden::GoldenFailure::Input(m) => Failure::Input(m),
            golden::GoldenFailure::Stale(m) => {
                eprintln!("{m}");
                Failure::Mismatch
            }
        }),
        Cmd::Surf { cmd } => surf::run(cmd),
        Cmd::Net(args) => net::run(args)
            .map(|_| ())
            .map_err(|e| Failure::Input(e.to_string())),
        Cmd::NsccVectors {
            seed,
            count,
            line_win,
            out,
        } => nscc_vectors::run(*seed, *count, *line_win, out).map_err(Failure::Input),
        Cmd::Variants => {
            for v in rtl::variants() {
                outln!(
                    "{:<24} {:>2} B {:>11} Hz {:>10} B/s  {}",
                    v.name,
                    v.data_bytes,
                    v.clk_hz,
                    v.line_rate,
                    v.description
                );
            }
            Ok(())
        }
        Cmd::Scenarios => {
            for s in scenario::builtin() {
                outln!(
                    "{:<15} {:>2} B {:>11} cycles  {}",
                    s.name,
                    s.data_bytes,
                    s.default_cycles,
                    s.description
                );
            }
            Ok(())
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Mismatch) => ExitCode::from(1),
        Err(Failure::Input(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Harness(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(3)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::clip_line;

    #[test]
    fn a_huge_argument_is_clipped_in_the_error_line() {
        assert_eq!(clip_line("a 'b' c"), "a 'b' c");
        let long = format!(
            "error: invalid value '{}' for '--cycles <CYCLES>'",
            "9".repeat(5000)
        );
        let c = clip_line(&long);
        assert!(
            c.len() < 200 && c.ends_with("for '--cycles <CYCLES>'"),
            "{c}"
        );
    }
}
