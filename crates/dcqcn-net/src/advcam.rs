//! `dcqcn net advcam`: an incast funnel representative of the AdvCam readout — front-end boards on
//! 10 Gb/s edge links under leaf switches whose uplinks (a parameter, 100 Gb/s by default, the
//! paper's Sec. III) meet at a root switch in front of one event-building server — run twice on the
//! same network: PFC only (ECN off, DCQCN bypassed: every limiter at line rate) and PFC + DCQCN
//! (Table II). Every sender is the bit-exact limiter model, as in the paper's experiments.
//!
//! Reported per mode: the per-flow payload throughput over the second half of the run (min,
//! median, max, Jain's index), the aggregate, the uplink queues, PFC pause frames and the time
//! paused, drops, and the time to converge (defined at [`converged_at`]).

use crate::config::{FlowCfg, NetConfig, Profile, PS_PER_S};
use crate::experiment::jain;
use crate::out::{self, OutFile};
use crate::plot::{self, Figure, Panel, Series, BLUE, GREY, ORANGE, RED};
use crate::sim::{Network, RunResult};
use crate::NetError;
use dcqcn_model::{Config, Params};
use std::fmt::Write;
use std::path::Path;

/// Leaves and senders per leaf of the default funnel (256 boards).
pub const DEFAULT_LEAVES: u32 = 16;
pub const DEFAULT_PER_LEAF: u32 = 16;
/// The leaf and server uplinks of the default funnel, bits/s.
pub const DEFAULT_UPLINK_BITS_PER_S: u64 = 100_000_000_000;
/// Simulated time of the default run.
pub const DEFAULT_DURATION_PS: u64 = PS_PER_S / 10;
/// Samples in the sliding window of the convergence test (10 ms at the default 1 ms sample).
pub const CONVERGE_WINDOW_SAMPLES: usize = 10;
/// The convergence thresholds: Jain's index of the window's per-flow means, and the window's
/// aggregate as a fraction of the server link's payload capacity.
pub const CONVERGE_JAIN: f64 = 0.9;
pub const CONVERGE_AGGREGATE: f64 = 0.9;

/// The funnel with `leaves` leaf switches of `per_leaf` senders each, uplinks at
/// `uplink_bits_per_s`, every sender a saturating RDMA WRITE source with Table II registers.
pub fn default_config(leaves: u32, per_leaf: u32, uplink_bits_per_s: u64) -> NetConfig {
    let p = Params::DEFAULT;
    let mut c = NetConfig::default_network();
    c.duration_ps = DEFAULT_DURATION_PS;
    c.link.uplink_rate_bits_per_s = Some(uplink_bits_per_s);
    c.switch.headroom_bytes = c.switch.headroom_bytes.max(headroom_bytes(&c));
    c.leaves = vec![per_leaf; leaves as usize];
    c.flows = (0..leaves * per_leaf)
        .map(|k| FlowCfg {
            name: format!("l{}s{}", k / per_leaf.max(1), k % per_leaf.max(1)),
            start_ps: 0,
            stop_ps: None,
            registers: Config::paper_table2(&p),
            profile: Profile::Ours,
        })
        .collect();
    c
}

/// PFC headroom that keeps a port lossless at the uplink rate: what is on the cable in both
/// directions while the pause travels (twice the bandwidth-delay product) and three frames (the
/// one that crossed XOFF, the one the upstream port is sending when the pause lands, and one on
/// the pause frame's own serialisation).
pub fn headroom_bytes(cfg: &NetConfig) -> u64 {
    let bdp = u128::from(cfg.link.uplink().rate_bits_per_s) * u128::from(cfg.link.delay_ps)
        / (8 * u128::from(PS_PER_S));
    2 * bdp as u64 + 3 * u64::from(cfg.frame.frame_bytes())
}

/// The PFC-only twin of `cfg`: ECN off, every limiter bypassed.
pub fn pfc_only(cfg: &NetConfig) -> NetConfig {
    let mut c = cfg.clone();
    c.switch.ecn = false;
    for f in &mut c.flows {
        f.registers.bypass = true;
    }
    c
}

/// What one mode's run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub mode: &'static str,
    /// Per flow: mean payload throughput over the second half of the run, Gb/s.
    pub flow_gbps: Vec<f64>,
    pub min_gbps: f64,
    pub median_gbps: f64,
    pub max_gbps: f64,
    pub jain: f64,
    pub aggregate_gbps: f64,
    /// The server link's payload capacity and the fair share of one flow, Gb/s.
    pub capacity_gbps: f64,
    pub fair_gbps: f64,
    /// Largest queue of the root's uplink (into the server) and of any leaf's uplink, bytes.
    pub max_root_queue_bytes: u64,
    pub max_leaf_queue_bytes: u64,
    /// Mean over the samples of the second half of the root's queue, bytes.
    pub mean_root_queue_bytes: f64,
    /// PFC pause frames sent by the leaves (to senders) and by the root (to leaves).
    pub leaf_xoff: u64,
    pub root_xoff: u64,
    /// Time in XOFF summed over every port of every switch, seconds.
    pub xoff_s: f64,
    pub drops: u64,
    pub ecn_marks: u64,
    pub cnps: u64,
    /// [`converged_at`], seconds.
    pub converged_s: Option<f64>,
}

/// Both modes of one funnel.
pub struct Outcome {
    pub cfg: NetConfig,
    pub modes: Vec<(Summary, RunResult)>,
    /// The summary CSV (one row per mode and sample) and the per-flow CSV.
    pub csv: Vec<u8>,
    pub flows_csv: Vec<u8>,
    pub figure: Figure,
    pub table: String,
    /// Limiter cycles stepped and skipped over both runs.
    pub stepped_cycles: u64,
    pub skipped_cycles: u64,
}

/// The end time (seconds) of the first sliding window of [`CONVERGE_WINDOW_SAMPLES`] samples
/// from which on every window has Jain's index of its per-flow means at least [`CONVERGE_JAIN`]
/// and an aggregate of at least [`CONVERGE_AGGREGATE`] of `capacity_gbps`; `None` if the last
/// window fails (or the run is shorter than a window).
pub fn converged_at(r: &RunResult, capacity_gbps: f64) -> Option<f64> {
    let w = CONVERGE_WINDOW_SAMPLES;
    let n = r.samples.len();
    if n < w {
        return None;
    }
    let flows = r.samples[0].flows.len();
    let mut sums = vec![0.0f64; flows];
    let mut ok = Vec::with_capacity(n + 1 - w);
    for i in 0..n {
        for (f, s) in sums.iter_mut().enumerate() {
            *s += r.samples[i].flows[f].payload_gbps;
            if i >= w {
                *s -= r.samples[i - w].flows[f].payload_gbps;
            }
        }
        if i + 1 >= w {
            let means: Vec<f64> = sums.iter().map(|s| s / w as f64).collect();
            let agg: f64 = means.iter().sum();
            ok.push(jain(&means) >= CONVERGE_JAIN && agg >= CONVERGE_AGGREGATE * capacity_gbps);
        }
    }
    let first_good = ok.iter().rposition(|&g| !g).map_or(0, |k| k + 1);
    (first_good < ok.len()).then(|| r.samples[first_good + w - 1].t_ps as f64 / PS_PER_S as f64)
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// The server link's payload capacity, Gb/s.
pub fn capacity_gbps(cfg: &NetConfig) -> f64 {
    let f = &cfg.frame;
    cfg.link.uplink().rate_bits_per_s as f64 / 1e9 * f64::from(f.payload_bytes)
        / f64::from(f.wire_bytes())
}

fn summarise(mode: &'static str, cfg: &NetConfig, r: &RunResult) -> Summary {
    let end = cfg.duration_ps;
    let half: Vec<usize> = (0..r.samples.len())
        .filter(|&k| r.samples[k].t_ps * 2 > end)
        .collect();
    let n = cfg.flows.len();
    let flow_gbps: Vec<f64> = (0..n)
        .map(|f| {
            let sum: f64 = half
                .iter()
                .map(|&k| r.samples[k].flows[f].payload_gbps)
                .sum();
            sum / half.len().max(1) as f64
        })
        .collect();
    let mut sorted = flow_gbps.clone();
    sorted.sort_by(f64::total_cmp);
    let nleaf = cfg.leaves.len();
    let root = if nleaf > 1 { nleaf } else { 0 };
    let leaf_stats = &r.switches[..nleaf];
    let capacity = capacity_gbps(cfg);
    Summary {
        mode,
        min_gbps: sorted.first().copied().unwrap_or(0.0),
        median_gbps: median(&sorted),
        max_gbps: sorted.last().copied().unwrap_or(0.0),
        jain: jain(&flow_gbps),
        aggregate_gbps: flow_gbps.iter().sum(),
        capacity_gbps: capacity,
        fair_gbps: capacity / n.max(1) as f64,
        max_root_queue_bytes: r.switches[root].max_queue_bytes,
        max_leaf_queue_bytes: leaf_stats
            .iter()
            .map(|s| s.max_queue_bytes)
            .max()
            .unwrap_or(0),
        mean_root_queue_bytes: half
            .iter()
            .map(|&k| r.samples[k].switches[root].queue_bytes as f64)
            .sum::<f64>()
            / half.len().max(1) as f64,
        leaf_xoff: leaf_stats.iter().map(|s| s.xoff_sent).sum(),
        root_xoff: if nleaf > 1 {
            r.switches[root].xoff_sent
        } else {
            0
        },
        xoff_s: r.xoff_ps.iter().sum::<u64>() as f64 / PS_PER_S as f64,
        drops: r.drops(),
        ecn_marks: r.switches.iter().map(|s| s.marks).sum(),
        cnps: r.flow_cnps.iter().sum(),
        converged_s: converged_at(r, capacity),
        flow_gbps,
    }
}

/// Runs both modes of `cfg` (validated), PFC only first; `progress` gets the fraction of both
/// runs' simulated time done.
pub fn run(cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
    let Ok(out) = run_with::<std::convert::Infallible>(cfg, progress, &mut |_, _| Ok(()));
    out
}

/// [`run`], handing each mode's summary and run to `each` as soon as it ends; an error of `each`
/// ends the funnel there.
fn run_with<E>(
    cfg: &NetConfig,
    progress: &mut dyn FnMut(f64),
    each: &mut dyn FnMut(&Summary, &RunResult) -> Result<(), E>,
) -> Result<Outcome, E> {
    let mut modes = Vec::new();
    let runs = [("PFC only", pfc_only(cfg)), ("PFC + DCQCN", cfg.clone())];
    for (k, (mode, c)) in runs.into_iter().enumerate() {
        let r = Network::new(c.clone()).run(|done| progress((k as f64 + done) / 2.0));
        let s = summarise(mode, &c, &r);
        each(&s, &r)?;
        modes.push((s, r));
    }
    let stepped_cycles = modes.iter().map(|m| m.1.stepped_cycles).sum();
    let skipped_cycles = modes.iter().map(|m| m.1.skipped_cycles).sum();
    Ok(Outcome {
        csv: summary_csv(cfg, &modes),
        flows_csv: flows_csv(cfg, &modes),
        figure: figure(cfg, &modes),
        table: table(cfg, &modes),
        cfg: cfg.clone(),
        modes,
        stepped_cycles,
        skipped_cycles,
    })
}

/// Runs both modes of `cfg` and writes the outputs of [`write`] into `dir`: the folder and every
/// file are made before the first run, `advcam.csv`'s header then and each mode's samples when
/// the mode ends; a failed write ends the funnel at once. Returns the outcome and the paths.
pub fn run_writing(
    cfg: &NetConfig,
    dir: &Path,
    progress: &mut dyn FnMut(f64),
) -> Result<(Outcome, Vec<String>), NetError> {
    out::create_dir("--out", dir)?;
    let mut csv = OutFile::create(dir.join("advcam.csv"))?;
    let mut flows = OutFile::create(dir.join("advcam-flows.csv"))?;
    let svg = OutFile::create(dir.join("advcam.svg"))?;
    let png = OutFile::create(dir.join("advcam.png"))?;
    let mut table_file = OutFile::create(dir.join("advcam-table.md"))?;
    csv.write(&out::csv_record(SUMMARY_HEADER))?;
    let outcome = run_with(cfg, progress, &mut |s, r| {
        let mut bytes = Vec::new();
        for row in summary_rows(cfg, s, r) {
            bytes.extend(out::csv_record(row));
        }
        csv.write(&bytes)
    })?;
    flows.write(&outcome.flows_csv)?;
    let mut files = vec![csv.name(), flows.name()];
    files.extend(outcome.figure.write_into(svg, png)?);
    table_file.write(outcome.table.as_bytes())?;
    files.push(table_file.name());
    Ok((outcome, files))
}

fn csv_bytes(rows: Vec<Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.write_record(&r)
            .expect("writing CSV into memory cannot fail");
    }
    w.into_inner().expect("writing CSV into memory cannot fail")
}

/// The header of `advcam.csv`.
const SUMMARY_HEADER: [&str; 12] = [
    "mode",
    "time_s",
    "aggregate_gbps",
    "min_gbps",
    "median_gbps",
    "max_gbps",
    "jain",
    "root_queue_bytes",
    "max_leaf_queue_bytes",
    "xoff",
    "marks",
    "drops",
];

/// One row per mode and sample: aggregate, min / median / max per-flow throughput and Jain's
/// index of the sample, root and largest leaf queue, XOFF frames and marks in the sample, drops
/// so far.
fn summary_csv(cfg: &NetConfig, modes: &[(Summary, RunResult)]) -> Vec<u8> {
    let mut rows = vec![SUMMARY_HEADER.map(String::from).to_vec()];
    for (s, r) in modes {
        rows.extend(summary_rows(cfg, s, r));
    }
    csv_bytes(rows)
}

/// The rows of `advcam.csv` of one mode.
fn summary_rows(cfg: &NetConfig, s: &Summary, r: &RunResult) -> Vec<Vec<String>> {
    let nleaf = cfg.leaves.len();
    let root = if nleaf > 1 { nleaf } else { 0 };
    let mut rows = Vec::with_capacity(r.samples.len());
    for smp in &r.samples {
        let mut v: Vec<f64> = smp.flows.iter().map(|f| f.payload_gbps).collect();
        let agg: f64 = v.iter().sum();
        let j = jain(&v);
        v.sort_by(f64::total_cmp);
        rows.push(vec![
            s.mode.to_string(),
            format!("{:.6}", smp.t_ps as f64 / PS_PER_S as f64),
            format!("{agg:.4}"),
            format!("{:.4}", v.first().copied().unwrap_or(0.0)),
            format!("{:.4}", median(&v)),
            format!("{:.4}", v.last().copied().unwrap_or(0.0)),
            format!("{j:.4}"),
            smp.switches[root].queue_bytes.to_string(),
            smp.switches[..nleaf]
                .iter()
                .map(|w| w.queue_bytes)
                .max()
                .unwrap_or(0)
                .to_string(),
            smp.switches.iter().map(|w| w.xoff).sum::<u64>().to_string(),
            smp.switches
                .iter()
                .map(|w| w.marks)
                .sum::<u64>()
                .to_string(),
            smp.switches
                .iter()
                .map(|w| w.drops)
                .sum::<u64>()
                .to_string(),
        ]);
    }
    rows
}

/// One row per flow: its leaf and its mean over the second half in each mode.
fn flows_csv(cfg: &NetConfig, modes: &[(Summary, RunResult)]) -> Vec<u8> {
    let mut header = vec!["flow".to_string(), "leaf".to_string()];
    header.extend(
        modes
            .iter()
            .map(|m| format!("{}_gbps", m.0.mode.replace(" + ", "_").replace(' ', "_"))),
    );
    let mut rows = vec![header];
    let mut leaf_of = Vec::new();
    for (l, &n) in cfg.leaves.iter().enumerate() {
        leaf_of.extend(std::iter::repeat_n(l, n as usize));
    }
    for (f, fc) in cfg.flows.iter().enumerate() {
        let mut row = vec![fc.name.clone(), leaf_of[f].to_string()];
        row.extend(modes.iter().map(|m| format!("{:.4}", m.0.flow_gbps[f])));
        rows.push(row);
    }
    csv_bytes(rows)
}

fn gb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1e3)
}

/// One row of the table: how a mode's summary is shown.
type Cell = Box<dyn Fn(&Summary) -> String>;

/// The Markdown table of both modes.
fn table(cfg: &NetConfig, modes: &[(Summary, RunResult)]) -> String {
    let n = cfg.flows.len();
    let mut s = format!(
        "### advcam — {n} senders under {} leaves, {:.0} Gb/s edge, {:.0} Gb/s uplinks, {:.3} s\n\n| quantity |",
        cfg.leaves.len(),
        cfg.link.rate_bits_per_s as f64 / 1e9,
        cfg.link.uplink().rate_bits_per_s as f64 / 1e9,
        cfg.duration_ps as f64 / PS_PER_S as f64,
    );
    for m in modes {
        let _ = write!(s, " {} |", m.0.mode);
    }
    s.push_str("\n|---|");
    s.push_str(&"---|".repeat(modes.len()));
    s.push('\n');
    let half = cfg.duration_ps as f64 / PS_PER_S as f64 / 2.0;
    let rows: Vec<(String, Cell)> = vec![
        (
            format!("per-flow throughput min / median / max, {half:.3} s to the end (Gb/s)"),
            Box::new(|m: &Summary| {
                format!(
                    "{:.3} / {:.3} / {:.3}",
                    m.min_gbps, m.median_gbps, m.max_gbps
                )
            }),
        ),
        (
            "fair share (server link payload / flows, Gb/s)".into(),
            Box::new(|m: &Summary| format!("{:.3}", m.fair_gbps)),
        ),
        (
            "Jain's index".into(),
            Box::new(|m: &Summary| format!("{:.4}", m.jain)),
        ),
        (
            "aggregate (Gb/s) / server link payload capacity".into(),
            Box::new(|m: &Summary| format!("{:.2} / {:.2}", m.aggregate_gbps, m.capacity_gbps)),
        ),
        (
            "max queue: root uplink / any leaf uplink".into(),
            Box::new(|m: &Summary| {
                format!(
                    "{} / {}",
                    gb(m.max_root_queue_bytes),
                    gb(m.max_leaf_queue_bytes)
                )
            }),
        ),
        (
            "mean root queue, second half".into(),
            Box::new(|m: &Summary| format!("{:.1} KB", m.mean_root_queue_bytes / 1e3)),
        ),
        (
            "PFC pause frames: leaves to senders / root to leaves".into(),
            Box::new(|m: &Summary| format!("{} / {}", m.leaf_xoff, m.root_xoff)),
        ),
        (
            "time in XOFF, summed over ports (s)".into(),
            Box::new(|m: &Summary| format!("{:.3}", m.xoff_s)),
        ),
        (
            "drops".into(),
            Box::new(|m: &Summary| m.drops.to_string()),
        ),
        (
            "ECN marks / CNPs".into(),
            Box::new(|m: &Summary| format!("{} / {}", m.ecn_marks, m.cnps)),
        ),
        (
            format!(
                "converged at (every {} ms window after: Jain >= {}, aggregate >= {:.0} % of capacity)",
                CONVERGE_WINDOW_SAMPLES as f64 * cfg.sample_ps as f64 / 1e9,
                CONVERGE_JAIN,
                CONVERGE_AGGREGATE * 100.0
            ),
            Box::new(|m: &Summary| {
                m.converged_s
                    .map_or("not converged".into(), |t| format!("{:.1} ms", t * 1e3))
            }),
        ),
    ];
    for (q, f) in rows {
        let _ = write!(s, "| {q} |");
        for m in modes {
            let _ = write!(s, " {} |", f(&m.0));
        }
        s.push('\n');
    }
    s
}

fn figure(cfg: &NetConfig, modes: &[(Summary, RunResult)]) -> Figure {
    let colors = [ORANGE, BLUE];
    let t = |r: &RunResult, f: &dyn Fn(usize) -> f64| -> Vec<(f64, f64)> {
        (0..r.samples.len())
            .map(|k| (r.samples[k].t_ps as f64 / PS_PER_S as f64, f(k)))
            .collect()
    };
    let capacity = capacity_gbps(cfg);
    let fair_share = (
        capacity / cfg.flows.len().max(1) as f64,
        RED,
        "fair share".to_string(),
    );
    let mut agg = Panel {
        title: "aggregate payload throughput at the server".into(),
        xlabel: "time (s)".into(),
        ylabel: "throughput (Gb/s)".into(),
        hlines: vec![(capacity, GREY, "server link payload capacity".into())],
        ..Panel::default()
    };
    let mut spread = Panel {
        title: "per-flow throughput per sample: min, median, max".into(),
        xlabel: "time (s)".into(),
        ylabel: "throughput (Gb/s)".into(),
        hlines: vec![fair_share.clone()],
        ..Panel::default()
    };
    let mut queue = Panel {
        title: "root uplink queue (sampled every interval)".into(),
        xlabel: "time (s)".into(),
        ylabel: "queue (KB)".into(),
        ..Panel::default()
    };
    let mut ranked = Panel {
        title: "per-flow mean over the second half, flows ranked".into(),
        xlabel: "flow rank".into(),
        ylabel: "throughput (Gb/s)".into(),
        hlines: vec![fair_share.clone()],
        ..Panel::default()
    };
    let nleaf = cfg.leaves.len();
    let root = if nleaf > 1 { nleaf } else { 0 };
    for ((s, r), &c) in modes.iter().zip(&colors) {
        agg.series.push(Series::new(
            s.mode,
            c,
            t(r, &|k| {
                r.samples[k].flows.iter().map(|f| f.payload_gbps).sum()
            }),
        ));
        let sorted: Vec<Vec<f64>> = r
            .samples
            .iter()
            .map(|smp| {
                let mut v: Vec<f64> = smp.flows.iter().map(|f| f.payload_gbps).collect();
                v.sort_by(f64::total_cmp);
                v
            })
            .collect();
        spread.series.push(
            Series::new(
                &format!("{} max", s.mode),
                c,
                t(r, &|k| sorted[k].last().copied().unwrap_or(0.0)),
            )
            .dashed(),
        );
        spread.series.push(Series::new(
            &format!("{} median", s.mode),
            c,
            t(r, &|k| median(&sorted[k])),
        ));
        let mut min = Series::new(
            &format!("{} min", s.mode),
            c,
            t(r, &|k| sorted[k].first().copied().unwrap_or(0.0)),
        );
        min.width = 0.8;
        spread.series.push(min);
        queue.series.push(Series::new(
            s.mode,
            c,
            t(r, &|k| r.samples[k].switches[root].queue_bytes as f64 / 1e3),
        ));
        let mut v = s.flow_gbps.clone();
        v.sort_by(f64::total_cmp);
        ranked.series.push(Series::new(
            s.mode,
            c,
            v.iter().enumerate().map(|(k, &x)| (k as f64, x)).collect(),
        ));
    }
    Figure {
        title: format!(
            "advcam: {} senders, {} leaves, {:.0} Gb/s uplinks — PFC only vs PFC + DCQCN",
            cfg.flows.len(),
            nleaf,
            cfg.link.uplink().rate_bits_per_s as f64 / 1e9
        ),
        width: 1000.0,
        panel_height: 280.0,
        panels: vec![agg, spread, queue, ranked],
    }
}

/// Writes `advcam.csv`, `advcam-flows.csv`, `advcam.svg`, `advcam.png` and `advcam-table.md`
/// into `dir`; returns their paths.
pub fn write(out: &Outcome, dir: &Path) -> Result<Vec<String>, NetError> {
    out::create_dir("--out", dir)?;
    let mut files = Vec::new();
    for (name, bytes) in [
        ("advcam.csv", &out.csv),
        ("advcam-flows.csv", &out.flows_csv),
    ] {
        let p = dir.join(name);
        plot::write_file(&p, bytes)?;
        files.push(p.display().to_string());
    }
    files.extend(out.figure.write(dir, "advcam")?);
    let p = dir.join("advcam-table.md");
    plot::write_file(&p, out.table.as_bytes())?;
    files.push(p.display().to_string());
    Ok(files)
}

/// The command line of `dcqcn net advcam`: the funnel's size, the uplink rate (as the file's
/// `link.uplink_rate`), the seed and the simulated time.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub leaves: u32,
    pub per_leaf: u32,
    pub uplink: Option<String>,
    pub seed: Option<u64>,
    pub duration_s: Option<f64>,
}

/// The funnel `o` asks for, over a parameter file (`file`: its text and its name) if given: the
/// sizes are checked ([`MAX_SENDERS`](crate::config::MAX_SENDERS) senders) before anything is
/// allocated, then every value as a parameter file's.
pub fn plan(o: &Options, file: Option<(&str, &str)>) -> Result<NetConfig, NetError> {
    let flag = |flag: &str, message: String| NetError::Flag {
        flag: flag.to_string(),
        message,
    };
    if o.leaves == 0 || o.per_leaf == 0 {
        let which = if o.leaves == 0 {
            "--leaves"
        } else {
            "--per-leaf"
        };
        return Err(flag(which, "must be at least 1".into()));
    }
    let n = u64::from(o.leaves) * u64::from(o.per_leaf);
    if n > crate::config::MAX_SENDERS as u64 {
        return Err(flag(
            "--leaves/--per-leaf",
            format!(
                "{} x {} = {n} senders, at most {}",
                o.leaves,
                o.per_leaf,
                crate::config::MAX_SENDERS
            ),
        ));
    }
    // --uplink is read as the file's `link.uplink_rate` (the same units and checks); the
    // defaults' PFC headroom follows it, and it wins over a file's value.
    let uplink = o.uplink.as_ref().map(|u| {
        (
            crate::axis::Axis {
                flag: "--uplink".into(),
                name: "link.uplink_rate".into(),
                values: vec![u.clone()],
            },
            u,
        )
    });
    let mut uplink_bits_per_s = DEFAULT_UPLINK_BITS_PER_S;
    if let Some((axis, u)) = &uplink {
        let c = crate::axis::apply(&default_config(1, 1, uplink_bits_per_s), axis, u)?;
        uplink_bits_per_s = c.link.uplink().rate_bits_per_s;
    }
    let mut cfg = default_config(o.leaves, o.per_leaf, uplink_bits_per_s);
    crate::config::command_line(&mut cfg, file, o.seed, o.duration_s)?;
    if let Some((axis, u)) = &uplink {
        cfg = crate::axis::apply(&cfg, axis, u)?;
    }
    Ok(cfg)
}
