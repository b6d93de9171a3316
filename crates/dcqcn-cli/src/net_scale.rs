//! `dcqcn net advcam` and `dcqcn net sweep`: the AdvCam-scale funnel and parameter maps
//! (`dcqcn_net::advcam`, `dcqcn_net::sweep`), with progress bars and run-time reports.

use dcqcn_net::config::{self, PS_PER_S};
use dcqcn_net::{advcam, sweep, NetError};
use std::path::PathBuf;

#[derive(clap::Subcommand, Clone, Debug)]
pub enum ScaleCmd {
    /// The AdvCam incast funnel (default 256 senders under 16 leaves, 10 Gb/s edge links,
    /// 100 Gb/s uplinks), PFC only vs PFC + DCQCN: per-flow throughput distribution, queues,
    /// pauses, drops, time to converge; CSV, SVG, PNG and a table.
    Advcam(AdvcamArgs),
    /// A parameter map: a grid over two parameters (named as in the parameter files), one run
    /// per point in parallel; CSV and heat maps of throughput, fairness and collapse.
    Sweep(SweepArgs),
}

#[derive(clap::Args, Clone, Debug)]
pub struct AdvcamArgs {
    /// Leaf switches.
    #[arg(long, default_value_t = advcam::DEFAULT_LEAVES)]
    pub leaves: u32,
    /// Senders under each leaf.
    #[arg(long, default_value_t = advcam::DEFAULT_PER_LEAF)]
    pub per_leaf: u32,
    /// Rate of the leaf uplinks and the server link (`100Gbps`, `40Gbps`; overrides the file).
    #[arg(long)]
    pub uplink: Option<String>,
    #[command(flatten)]
    pub run: RunOpts,
    /// Output folder.
    #[arg(long, default_value = "out/net/advcam")]
    pub out: PathBuf,
}

/// What `advcam` and `sweep` share: the parameter file over the built-in network, the seed and
/// the simulated time that override it, and the progress bar.
#[derive(clap::Args, Clone, Debug)]
pub struct RunOpts {
    /// Network parameters (TOML) applied over the built-in network (the funnel, or the sweep's
    /// base) before any other value.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// RED seed (overrides the file).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulated time in seconds, of the run or of every point (overrides the file; advcam's
    /// default is 0.1).
    #[arg(long)]
    pub duration: Option<f64>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(clap::Args, Clone, Debug)]
pub struct SweepArgs {
    /// The first parameter and its values: NAME=V1,V2,... or NAME=FROM..TO:N (log spacing;
    /// FROM..TO:N:lin for even spacing), e.g. receiver.cnp_interval=5us..500us:7.
    #[arg(long)]
    pub x: String,
    /// The second parameter, as --x (e.g. registers.inc_interval=100us,1ms,10ms).
    #[arg(long)]
    pub y: String,
    /// The network every point starts from: incast, advcam, fig4, fig5, fig11-fig14.
    #[arg(long, default_value = "incast")]
    pub base: String,
    #[command(flatten)]
    pub run: RunOpts,
    /// Threads, 1 to 1024 (default: every core); never more than the points, nor than keep the
    /// samples of the points in flight within bounds.
    #[arg(long, value_parser = dcqcn_harness::units::jobs)]
    pub jobs: Option<usize>,
    /// Output folder: sweep.csv, sweep.svg, sweep.png.
    #[arg(long, default_value = "out/net/sweep")]
    pub out: PathBuf,
}

/// The parameter file of `--config`, read (at most 1 MiB): its text and its name.
fn read_config(file: &Option<PathBuf>) -> Result<Option<(String, String)>, NetError> {
    match file {
        None => Ok(None),
        Some(path) => Ok(Some((
            dcqcn_harness::config_file::read_text(path)?,
            path.display().to_string(),
        ))),
    }
}

pub fn run(cmd: &ScaleCmd) -> Result<(), NetError> {
    match cmd {
        ScaleCmd::Advcam(a) => run_advcam(a),
        ScaleCmd::Sweep(a) => run_sweep(a),
    }
}

fn run_advcam(a: &AdvcamArgs) -> Result<(), NetError> {
    let file = read_config(&a.run.config)?;
    let cfg = advcam::plan(
        &advcam::Options {
            leaves: a.leaves,
            per_leaf: a.per_leaf,
            uplink: a.uplink.clone(),
            seed: a.run.seed,
            duration_s: a.run.duration,
        },
        file.as_ref().map(|(t, n)| (t.as_str(), n.as_str())),
    )?;
    // Said before the run: a closed standard output ends the command here (status 141).
    outln!(
        "advcam: {} senders under {} leaves, {:.3} s per mode, into {}",
        cfg.flows.len(),
        cfg.leaves.len(),
        cfg.duration_ps as f64 / PS_PER_S as f64,
        a.out.display()
    );
    let bar = progress_bar("advcam", a.run.quiet);
    let started = std::time::Instant::now();
    let cpu0 = cpu_s();
    let (out, files) = advcam::run_writing(&cfg, &a.out, &mut |done| {
        bar.set_position((done * 1000.0) as u64)
    })?;
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_s() - cpu0;
    bar.finish_and_clear();
    outln!("{}", out.table);
    let sim = 2.0 * cfg.duration_ps as f64 / PS_PER_S as f64;
    outln!(
        "simulated {sim:.3} s (both modes) in {wall:.1} s wall, {cpu:.1} s CPU: {:.3} simulated s per wall s, {:.3} per CPU s; limiter cycles stepped {} / skipped {}",
        sim / wall.max(1e-9),
        sim / cpu.max(1e-9),
        out.stepped_cycles,
        out.skipped_cycles
    );
    outln!("wrote {}", files.join(", "));
    Ok(())
}

/// CPU time of this process so far (user + system), seconds; 0 where it cannot be read.
fn cpu_s() -> f64 {
    // /proc/self/stat fields 14 and 15: utime and stime in clock ticks (100 per second on Linux).
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some(rest) = stat.rsplit_once(')').map(|r| r.1) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |k: usize| f.get(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn run_sweep(a: &SweepArgs) -> Result<(), NetError> {
    let x = sweep::parse_axis("--x", &a.x)?;
    let y = sweep::parse_axis("--y", &a.y)?;
    let mut base = sweep::base_config(&a.base)?;
    let file = read_config(&a.run.config)?;
    config::command_line(
        &mut base,
        file.as_ref().map(|(t, n)| (t.as_str(), n.as_str())),
        a.run.seed,
        a.run.duration,
    )?;
    let grid = sweep::plan(&base, x, y)?;
    let asked = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let jobs = sweep::threads(&grid, asked);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| NetError::Flag {
            flag: "--jobs".into(),
            message: format!("cannot start {jobs} threads: {e}"),
        })?;
    let total = grid.x.values.len() * grid.y.values.len();
    // Said before the run: a closed standard output ends the command here (status 141).
    outln!(
        "sweep: {total} points ({} x {}) on {jobs} threads, into {}",
        grid.x.values.len(),
        grid.y.values.len(),
        a.out.display()
    );
    let bar = progress_bar("sweep", a.run.quiet);
    bar.set_length(total as u64);
    let title = format!(
        "sweep on {}: {} x {} ({} s per point)",
        a.base,
        grid.x.name,
        grid.y.name,
        grid.points[0][0].duration_ps as f64 / PS_PER_S as f64
    );
    let started = std::time::Instant::now();
    let cpu0 = cpu_s();
    let (results, files) = pool.install(|| {
        sweep::run_writing(&grid, &title, &a.out, "sweep", &|k| {
            bar.set_position(k as u64)
        })
    })?;
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_s() - cpu0;
    bar.finish_and_clear();
    let collapsed = results
        .iter()
        .flatten()
        .filter(|p| p.collapse > 0.0)
        .count();
    let sim = sweep::simulated_s(&grid);
    outln!(
        "{total} points ({} x {}), {collapsed} with collapsed flows; simulated {sim:.3} s in {wall:.1} s wall on {jobs} threads, {cpu:.1} s CPU: {:.3} simulated s per wall s, {:.3} per CPU s",
        grid.x.values.len(),
        grid.y.values.len(),
        sim / wall.max(1e-9),
        sim / cpu.max(1e-9)
    );
    outln!("wrote {}", files.join(", "));
    Ok(())
}

/// A bar of simulated time for experiment `name` (`dcqcn net`, `advcam` and `sweep`) (hidden with `--quiet`).
pub(crate) fn progress_bar(name: &str, quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(1000);
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix:>6} [{bar:40}] {percent:>3}% simulated, {elapsed} elapsed, eta {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    b.set_prefix(name.to_string());
    b
}
