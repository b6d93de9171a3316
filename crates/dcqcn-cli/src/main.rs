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

mod golden;
mod net;
mod net_scale;
mod surf;

use clap::{Parser, Subcommand};
use dcqcn_cosim::lockstep::{self, Mismatch, HISTORY_CYCLES};
use dcqcn_cosim::{fuzz, rtl, vcd_out, CosimError};
use dcqcn_harness::config_file;
use dcqcn_model::{NamedConfig, Phase, Snapshot};
use dcqcn_stim::run::{self, RunSpec, RunStats};
use dcqcn_stim::scenario::{self, Scenario};
use dcqcn_stim::variant::{self, Hdl};
use dcqcn_stim::StimError;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
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

/// A count of cycles or cases that must do something: [`parse_count`] above 0.
fn parse_positive(s: &str) -> Result<u64, String> {
    match parse_count(s)? {
        0 => Err("0 would check nothing: give at least 1".into()),
        n => Ok(n),
    }
}

/// `--seconds`: a finite time budget above 0, at most a week.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 604_800.0 => Ok(x),
        Ok(_) => Err(format!(
            "`{}`: must be above 0 and at most 604800 (a week); 0 would check nothing",
            dcqcn_harness::clip(s)
        )),
        Err(_) => Err(format!(
            "`{}` is not a number of seconds",
            dcqcn_harness::clip(s)
        )),
    }
}

/// `--jobs`: at least one worker thread, at most 1024.
fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ 1..=1024) => Ok(n),
        _ => Err(format!(
            "`{}`: must be a thread count 1..=1024",
            dcqcn_harness::clip(s)
        )),
    }
}

/// A cycle count: `50000000`, `50_000_000`, `50M`, `2k`.
fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.replace('_', "");
    let (num, mul) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1_000),
        Some('M') => (&t[..t.len() - 1], 1_000_000),
        Some('G') => (&t[..t.len() - 1], 1_000_000_000),
        _ => (&t[..], 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mul))
        .ok_or_else(|| {
            format!(
                "`{}` is not a cycle count (e.g. 1000000, 1_000_000, 1M)",
                dcqcn_harness::clip(s)
            )
        })
}

/// A cycle window `A:B` (B excluded).
fn parse_window(s: &str) -> Result<(u64, u64), String> {
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| format!("`{}`: expected FROM:TO cycles", dcqcn_harness::clip(s)))?;
    let (a, b) = (parse_count(a)?, parse_count(b)?);
    if a >= b {
        return Err(format!(
            "`{}`: FROM must be below TO",
            dcqcn_harness::clip(s)
        ));
    }
    Ok((a, b))
}

/// `--rtl`: our block or the upstream SURF block.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum RtlChoice {
    /// Our block (rtl/*.sv, rtl/vhdl/)
    Ours,
    /// The upstream SURF RoCEv2Dcqcn from --surf-dir
    Surf,
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
    #[arg(long, value_parser = parse_positive)]
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
        #[arg(long, value_parser = parse_window, requires = "vcd")]
        vcd_window: Option<(u64, u64)>,
        /// RTL variant (see `dcqcn variants`); default: the --hdl variant of the scenario's beat
        /// width, e.g. w8 or vhdl-w8.
        #[arg(long, conflicts_with = "hdl")]
        variant: Option<String>,
        /// Which RTL the suite runs against: the SystemVerilog (default), the VHDL twin, or both
        /// in turn.
        #[arg(long, value_enum)]
        hdl: Option<HdlChoice>,
        /// Where to write the mismatch report (JSON) and its waveform window (.vcd beside it).
        #[arg(long, visible_alias = "json", default_value = "dcqcn-mismatch.json")]
        report: PathBuf,
        /// Scenarios run at once, one thread each (default: one per core).
        #[arg(long, value_parser = parse_jobs)]
        jobs: Option<usize>,
        /// The block: ours (rtl/), or the upstream SURF block from --surf-dir (GHDL, per cycle,
        /// against the model of upstream; scenarios: `dcqcn surf scenarios`).
        #[arg(long, value_enum, default_value = "ours")]
        rtl: RtlChoice,
        /// Your SURF checkout (with --rtl surf); nothing is written into it.
        #[arg(long)]
        surf_dir: Option<PathBuf>,
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
        #[arg(long, value_parser = parse_count, default_value = "10000", conflicts_with = "trace")]
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
        #[arg(long, value_parser = parse_positive)]
        cases: Option<u64>,
        /// Stop starting new cases after this many seconds.
        #[arg(long, value_parser = parse_seconds)]
        seconds: Option<f64>,
        /// Campaign seed: case n is drawn from (seed, n) alone.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cycles per case.
        #[arg(long, value_parser = parse_positive, default_value = "50000")]
        cycles: u64,
        /// Worker threads (default: every core).
        #[arg(long, value_parser = parse_jobs)]
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
        #[arg(long, conflicts_with_all = ["cases", "seconds", "seed", "cycles", "jobs", "variant", "hdl", "save", "no_inject"])]
        replay: Option<PathBuf>,
        /// Where a failing case is saved; its report and waveform go beside it.
        #[arg(long, default_value = "dcqcn-fuzz-case.json")]
        save: PathBuf,
        /// Run the cases drawn with an injected starting state (1 in 4, spec 4.8) from reset
        /// instead: the same campaign without state injection, for comparison.
        #[arg(long)]
        no_inject: bool,
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

fn scenarios_for(arg: &Option<String>, default_all: bool) -> Result<Vec<Scenario>, Failure> {
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
fn run_spec(
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

fn create(path: &Path) -> Result<std::io::BufWriter<std::fs::File>, Failure> {
    std::fs::File::create(path)
        .map(std::io::BufWriter::new)
        .map_err(|e| Failure::Input(format!("{}: cannot create: {e}", path.display())))
}

fn header() {
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

fn row(name: &str, db: u32, s: &RunStats, mismatches: u64) {
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

/// Arguments of `dcqcn cosim`.
struct CosimArgs<'a> {
    run: &'a RunArgs,
    init_seed: u64,
    vcd: &'a Option<PathBuf>,
    vcd_window: Option<(u64, u64)>,
    variant: &'a Option<String>,
    hdl: HdlChoice,
    report: &'a Path,
    jobs: usize,
}

/// The suite (or one scenario) on each HDL asked for, or on one variant.
///
/// Scenarios are independent runs, so they go to a pool of `--jobs` threads (default: every core),
/// each with its own Verilated model; the rows come out in suite order and a mismatch stops the
/// suite where the one-by-one run would have stopped (the first mismatching scenario in suite order,
/// with every row before it). A waveform run is one scenario, on the calling thread.
fn cosim(a: &CosimArgs) -> Result<(), Failure> {
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
    // Every run of every HDL, in the order its row is printed.
    let mut jobs = Vec::new();
    for &hdl in hdls {
        for sc in &list {
            let v = a
                .variant
                .clone()
                .unwrap_or_else(|| hdl.width_variant(sc.data_bytes));
            jobs.push((hdl, sc, run_spec(sc, a.run, &v, a.init_seed)?));
        }
    }
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
                if hdls.len() > 1 {
                    outln!("== {} ==", hdl.name());
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
                            format!(" ({})", hdl.name())
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

/// Runs `run(k)` for every k in `0..n` on `threads` threads, heaviest `weight` first (so the last
/// to start is a light one), and hands each result to `sink` on the calling thread as it finishes.
/// Once the sink fails, no further run starts and that failure is returned.
fn pool<R: Send>(
    n: usize,
    threads: usize,
    weight: impl Fn(usize) -> u64,
    run: impl Fn(usize) -> R + Sync,
    sink: &mut dyn FnMut(usize, R) -> Result<(), Failure>,
) -> Result<(), Failure> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(weight(k)), k));
    let taken = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..threads.clamp(1, n.max(1)) {
            let (tx, order, taken, stop, run) = (tx.clone(), &order, &taken, &stop, &run);
            scope.spawn(move || {
                while !stop.load(Relaxed) {
                    let Some(&k) = order.get(taken.fetch_add(1, Relaxed)) else {
                        break;
                    };
                    if tx.send((k, run(k))).is_err() {
                        break;
                    }
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
fn write_mismatch(spec: &RunSpec, m: &Mismatch, report: &Path) {
    let written = lockstep::write_mismatch_artifacts(spec, m, report);
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

fn sim(
    args: &RunArgs,
    out: &Option<PathBuf>,
    every: u64,
    trace: Option<TraceMode>,
) -> Result<(), Failure> {
    let sc = scenarios_for(&args.scenario, false)?.remove(0);
    let mut spec = run_spec(&sc, args, &variant::width_variant(sc.data_bytes), 0)?;
    let mut w: Box<dyn Write> = match out {
        Some(p) => Box::new(create(p)?),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let clk = f64::from(spec.params.clk_hz());
    if let Some(mode) = trace {
        let cfg = &mut spec.stimulus.config;
        cfg.trace_en = true;
        cfg.trace_wrap = matches!(mode, TraceMode::Wrap);
        return sim_trace(sc.name, &spec, w, out.is_none());
    }
    // A failed write (a closed pipe, a full disk) ends the run at that cycle.
    let written = writeln!(
        w,
        "cycle,time_us,event,rc_bytes_per_s,rt_bytes_per_s,alpha,credit_bytes,cnt_cnp,cnt_dec"
    )
    .and_then(|()| run::try_run_model(&spec, |c, _, _, m| sim_row(&mut w, c, m, every, clk)))
    .and_then(|stats| w.flush().map(|()| stats));
    let stats = match written {
        Ok(stats) => stats,
        // standard output, or --out naming a pipe whose reader went away: the convention of
        // a closed pipe (exit 141)
        Err(e) if out.is_none() || e.kind() == std::io::ErrorKind::BrokenPipe => stdout_failed(&e),
        Err(e) => {
            return Err(Failure::Input(format!(
                "--out {}: cannot write: {e}",
                out.as_ref()
                    .map_or_else(String::new, |p| p.display().to_string())
            )))
        }
    };
    eprintln!(
        "{}: {} cycles, {} CNPs, {} decreases, {:.1} M cycles/s (model only)",
        sc.name,
        stats.cycles,
        stats.cnps,
        stats.decreases,
        stats.cycles_per_second() / 1e6
    );
    Ok(())
}

/// One row of `dcqcn sim`'s CSV for cycle `c`, if it has an event (or is a sample every `every`
/// cycles).
fn sim_row(
    w: &mut dyn Write,
    c: u64,
    m: &dcqcn_model::RateLimiter,
    every: u64,
    clk: f64,
) -> std::io::Result<()> {
    {
        let e = m.events();
        let ev = if e.dec_fire {
            "decrease"
        } else {
            match e.inc {
                Some(Phase::FastRecovery) => "increase_fr",
                Some(Phase::Additive) => "increase_ai",
                Some(Phase::Hyper) => "increase_hai",
                None if e.cnp_edge => "cnp",
                None if e.alpha_fire => "alpha",
                None if every > 0 && c.is_multiple_of(every) => "sample",
                None => return Ok(()),
            }
        };
        let s = m.state();
        let snap = Snapshot::from_model(&Default::default(), s);
        writeln!(
            w,
            "{c},{:.4},{ev},{},{},{},{:.4},{},{}",
            c as f64 * 1e6 / clk,
            s.rc,
            s.rt,
            s.alpha.alpha,
            s.gate.credit as f64 / 65536.0,
            snap.cnt_cnp,
            snap.cnt_dec
        )
    }
}

/// `dcqcn sim --trace`: runs the model with the trace armed by the configuration and writes the
/// window as software reads it through 0x184-0x18C, decoded; a summary of 0x174-0x17C on stderr.
fn sim_trace(
    name: &str,
    spec: &RunSpec,
    mut w: Box<dyn Write>,
    to_stdout: bool,
) -> Result<(), Failure> {
    let last = spec.cycles.saturating_sub(1);
    let mut window = None;
    let stats = run::run_model(spec, |c, _, _, m| {
        if c == last {
            window = Some(*m.trace());
        }
    });
    let t = window.ok_or_else(|| Failure::Input("the run has no cycles".into()))?;
    let clk = f64::from(spec.params.clk_hz());
    let mut text = String::from("entry,stamp_cycles,stamp_us,code,event,rc_bytes_per_s,rc_gbps\n");
    for (k, e) in t.entries().iter().enumerate() {
        text += &format!(
            "{k},{},{:.4},{:#06b},{},{},{:.4}\n",
            e.stamp,
            f64::from(e.stamp) * 1e6 / clk,
            e.kind,
            e.decode(),
            e.rc,
            f64::from(e.rc) * 8.0 / 1e9
        );
    }
    if let Err(e) = w.write_all(text.as_bytes()).and_then(|()| w.flush()) {
        if to_stdout {
            stdout_failed(&e);
        }
        return Err(Failure::Input(format!("writing the trace: {e}")));
    }
    let sat = |n: u16| if n == 1023 { " (saturated)" } else { "" };
    eprintln!(
        "{name}: {} cycles; trace: {} entries{}, armed {} cycles; decreases {}{}, byte-counter increases {}{}, timer increases {}{}",
        stats.cycles,
        t.count.min(64),
        if t.lost { " (window full: events lost)" } else { "" },
        t.time,
        t.n_dec,
        sat(t.n_dec),
        t.n_byte,
        sat(t.n_byte),
        t.n_timer,
        sat(t.n_timer)
    );
    Ok(())
}

/// Arguments of `dcqcn fuzz`.
struct FuzzArgs<'a> {
    cases: Option<u64>,
    seconds: Option<f64>,
    seed: u64,
    cycles: u64,
    jobs: Option<usize>,
    variant: &'a Option<String>,
    hdl: HdlChoice,
    replay: &'a Option<PathBuf>,
    save: &'a Path,
    no_inject: bool,
}

fn fuzz(a: &FuzzArgs) -> Result<(), Failure> {
    if a.replay.is_some() || a.variant.is_some() {
        return fuzz_on(a, Hdl::Sv);
    }
    for &hdl in a.hdl.hdls() {
        fuzz_on(a, hdl)?;
    }
    Ok(())
}

fn fuzz_on(a: &FuzzArgs, hdl: Hdl) -> Result<(), Failure> {
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

/// The parser fuzz inputs shared by every crate (issue #11).
#[cfg(test)]
#[path = "../../dcqcn-harness/tests/support/parser_input.rs"]
mod parser_input;

#[cfg(test)]
mod tests {
    //! Parser fuzz target (issue #11) for the command line's counts, windows, seconds and thread
    //! counts: arbitrary text in, a value or a short message out, never a panic or a wrap.

    use super::parser_input::{config, input, timed};
    use super::*;
    use proptest::prelude::*;

    fn samples() -> Vec<String> {
        [
            "50000",
            "50_000_000",
            "1M",
            "300k",
            "2G",
            "240k:260k",
            "0:1",
            "1.5",
            "600",
            "8",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn cli_counts_and_units(text in input(samples())) {
            let (count, positive, window, seconds, jobs) = timed("CLI values", || {
                (
                    parse_count(&text),
                    parse_positive(&text),
                    parse_window(&text),
                    parse_seconds(&text),
                    parse_jobs(&text),
                )
            });
            if let Ok(n) = positive {
                prop_assert!(n >= 1);
                prop_assert_eq!(count.clone(), Ok(n));
            }
            if let Ok(n) = count {
                // The digits and the suffix say exactly this much, no wrapped value.
                let t = text.replace('_', "");
                let digits: String = t.chars().filter(char::is_ascii_digit).collect();
                let mul = match t.chars().last() {
                    Some('k' | 'K') => 1_000u128,
                    Some('M') => 1_000_000,
                    Some('G') => 1_000_000_000,
                    _ => 1,
                };
                prop_assert_eq!(u128::from(n), digits.parse::<u128>().unwrap_or(0) * mul);
            }
            if let Ok((a, b)) = window {
                prop_assert!(a < b);
            }
            if let Ok(s) = seconds {
                prop_assert!(s > 0.0 && s <= 604_800.0);
            }
            if let Ok(j) = jobs {
                prop_assert!((1..=1024).contains(&j));
            }
            for e in [count.err(), window.err(), seconds.err(), jobs.err()].into_iter().flatten() {
                prop_assert!(e.len() < 1_000, "{} bytes", e.len());
            }
        }
    }

    #[test]
    fn counts_of_zero_and_past_u64_are_refused() {
        assert_eq!(parse_count("0"), Ok(0));
        assert!(parse_positive("0").unwrap_err().contains("check nothing"));
        assert!(parse_positive("0k").is_err());
        assert_eq!(parse_positive("18446744073709551615"), Ok(u64::MAX));
        assert!(parse_count("18446744073709551616").is_err());
        assert!(parse_count("18446744073709552k").is_err());
        assert!(parse_seconds("0").is_err() && parse_seconds("inf").is_err());
        assert!(parse_seconds("NaN").is_err() && parse_seconds("-1").is_err());
        assert_eq!(parse_seconds("1.5"), Ok(1.5));
        assert!(parse_jobs("0").is_err());
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

#[cfg(test)]
mod pool_tests {
    use super::{pool, Failure};
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
