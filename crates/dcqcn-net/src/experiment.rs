//! The paper's figures as experiments: default parameters, the run, the measured-vs-paper table,
//! the CSV and the plot. Paper values are quoted from the paper's text (seed 000); every measured
//! value is computed from the run.

use crate::config::{NetConfig, PS_PER_S};
use crate::emulated::{self, EmulatedSwitch};
use crate::plot::{self, Bar, Figure, Panel, Series, BLACK, BLUE, GREEN, ORANGE, PALETTE, RED};
use crate::sim::{self, gbps, Network, RunResult};
use crate::NetError;
use dcqcn_model::{Config, Params};
use std::fmt::Write;
use std::path::Path;

/// The experiments, in the order `all` runs them.
pub const NAMES: [&str; 7] = ["fig9", "fig12", "fig11", "fig13", "fig14", "fig4", "fig5"];

/// One line of the measured-vs-paper table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub quantity: String,
    pub measured: String,
    pub paper: String,
}

fn row(quantity: &str, measured: String, paper: &str) -> Row {
    Row {
        quantity: quantity.to_string(),
        measured,
        paper: paper.to_string(),
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct Report {
    pub experiment: String,
    pub title: String,
    pub rows: Vec<Row>,
    pub files: Vec<String>,
    pub simulated_s: f64,
    pub wall_s: f64,
    /// Cycles stepped and skipped by the senders' rate limiters.
    pub stepped_cycles: u64,
    pub skipped_cycles: u64,
}

impl Report {
    /// The table in Markdown.
    pub fn table(&self) -> String {
        let mut s = format!(
            "### {} — {}\n\n| quantity | measured | paper |\n|---|---|---|\n",
            self.experiment, self.title
        );
        for r in &self.rows {
            let _ = writeln!(s, "| {} | {} | {} |", r.quantity, r.measured, r.paper);
        }
        s
    }
}

const P: Params = Params::DEFAULT;

fn s_to_ps(s: f64) -> u64 {
    (s * PS_PER_S as f64).round() as u64
}

fn flow(name: &str, registers: Config, stop_s: Option<f64>) -> crate::config::FlowCfg {
    crate::config::FlowCfg {
        name: name.to_string(),
        start_ps: 0,
        stop_ps: stop_s.map(s_to_ps),
        registers,
    }
}

fn bypassed() -> Config {
    Config {
        bypass: true,
        ..Config::paper_table2(&P)
    }
}

/// The default configuration of an experiment.
pub fn default_config(name: &str) -> Result<NetConfig, NetError> {
    let t2 = Config::paper_table2(&P);
    let mut c = NetConfig::default_network();
    match name {
        "fig9" => {
            c.leaves = vec![1];
            c.flows = vec![flow("fpga", t2, None)];
            // 12 M cycles, the lockstep's paper-table2 length; a point every 1600 cycles.
            c.duration_ps = 12_000_000 * 6_400;
            c.sample_ps = 1_600 * 6_400;
        }
        "fig12" | "fig14" | "fig11" => {
            let r = if name == "fig11" { bypassed() } else { t2 };
            c.leaves = vec![3];
            c.duration_ps = s_to_ps(1.2);
            c.flows = vec![
                flow("flow_a", r, Some(0.4)),
                flow("flow_b", r, Some(0.8)),
                flow("flow_c", r, None),
            ];
        }
        "fig13" => {
            c.leaves = vec![3];
            c.duration_ps = s_to_ps(3.0);
            let slow = Config {
                inc_interval: 31_250_000, // 200 ms at 156.25 MHz
                clamp_tgt: false,
                ..t2
            };
            c.flows = vec![
                flow("flow_a", slow, None),
                flow("flow_b", t2, None),
                flow("flow_c", t2, None),
            ];
        }
        "fig4" | "fig5" => {
            let (r, ecn) = if name == "fig4" {
                (bypassed(), false)
            } else {
                (t2, true)
            };
            c.switch.ecn = ecn;
            c.leaves = vec![2, 4, 2];
            c.duration_ps = s_to_ps(if name == "fig4" { 0.1 } else { 0.2 });
            c.flows = (5..=12)
                .map(|node| flow(&format!("node{node}"), r, None))
                .collect();
        }
        _ => {
            return Err(NetError::UnknownExperiment {
                name: name.to_string(),
                known: NAMES.join(", "),
            })
        }
    }
    Ok(c)
}

pub fn title(name: &str) -> &'static str {
    match name {
        "fig9" => "emulated switch at 5 Gb/s: alpha caught by each CNP",
        "fig11" => "three-sender incast, DCQCN bypassed (PFC only)",
        "fig12" => "three-sender incast with DCQCN (Table II), staggered finish",
        "fig13" => "flow_a with a 200 ms increase timer and ClampTargetRate off",
        "fig14" => "Rc, Rt and measured throughput of one sender",
        "fig4" => "8-sender two-tier tree (leaves of 2, 4, 2), PFC only",
        "fig5" => "8-sender two-tier tree (leaves of 2, 4, 2), PFC + DCQCN",
        _ => "",
    }
}

/// Mean payload throughput of `flow` over samples with `from < t <= to` (seconds).
fn mean(r: &RunResult, flow: usize, from: f64, to: f64) -> f64 {
    let v: Vec<f64> = r
        .samples
        .iter()
        .filter(|s| {
            let t = s.t_ps as f64 / PS_PER_S as f64;
            t > from + 1e-12 && t <= to + 1e-12
        })
        .map(|s| s.flows[flow].gbps)
        .collect();
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// Jain's fairness index.
pub fn jain(x: &[f64]) -> f64 {
    let s: f64 = x.iter().sum();
    let q: f64 = x.iter().map(|v| v * v).sum();
    if q == 0.0 {
        0.0
    } else {
        s * s / (x.len() as f64 * q)
    }
}

fn t_s(ps: u64) -> f64 {
    ps as f64 / PS_PER_S as f64
}

fn f2(v: f64) -> String {
    format!("{v:.2}")
}

/// Runs experiment `name` with `cfg`, writes CSV, SVG, PNG and the table into `dir`.
pub fn run(
    name: &str,
    cfg: &NetConfig,
    dir: &Path,
    progress: impl FnMut(f64),
) -> Result<Report, NetError> {
    std::fs::create_dir_all(dir).map_err(|source| NetError::Write {
        path: dir.display().to_string(),
        source,
    })?;
    let started = std::time::Instant::now();
    let mut report = if name == "fig9" {
        fig9(cfg, dir, progress)?
    } else {
        let net = Network::new(cfg.clone());
        let r = net.run(progress);
        let names: Vec<String> = cfg.flows.iter().map(|f| f.name.clone()).collect();
        let mut files = vec![dir.join(format!("{name}.csv")).display().to_string()];
        plot::write_file(Path::new(&files[0]), sim::csv(&names, &r).as_bytes())?;
        let (rows, fig) = analyse(name, cfg, &r)?;
        files.extend(fig.write(dir, name)?);
        Report {
            experiment: name.to_string(),
            title: title(name).to_string(),
            rows,
            files,
            simulated_s: t_s(cfg.duration_ps),
            wall_s: 0.0,
            stepped_cycles: r.stepped_cycles,
            skipped_cycles: r.skipped_cycles,
        }
    };
    report.wall_s = started.elapsed().as_secs_f64();
    let table = dir.join(format!("{name}-table.md"));
    plot::write_file(&table, report.table().as_bytes())?;
    report.files.push(table.display().to_string());
    Ok(report)
}

fn time_series(r: &RunResult, f: impl Fn(&sim::Sample) -> f64) -> Vec<(f64, f64)> {
    r.samples.iter().map(|s| (t_s(s.t_ps), f(s))).collect()
}

fn throughput_panel(cfg: &NetConfig, r: &RunResult, title: &str) -> Panel {
    let mut series: Vec<Series> = cfg
        .flows
        .iter()
        .enumerate()
        .map(|(k, f)| {
            Series::new(
                &f.name,
                PALETTE[k % PALETTE.len()],
                time_series(r, |s| s.flows[k].gbps),
            )
        })
        .collect();
    if cfg.flows.len() <= 3 {
        series.push(
            Series::new(
                "aggregate",
                BLACK,
                time_series(r, |s| s.flows.iter().map(|f| f.gbps).sum()),
            )
            .dashed(),
        );
    }
    Panel {
        title: title.to_string(),
        xlabel: "time (s)".into(),
        ylabel: "throughput (Gb/s)".into(),
        series,
        y_range: Some((0.0, 10.5)),
        ..Panel::default()
    }
}

fn queue_panel(r: &RunResult) -> Panel {
    let series = (0..r.switches.len())
        .map(|k| {
            Series::new(
                &format!("switch {k} queue"),
                PALETTE[(k + 3) % PALETTE.len()],
                time_series(r, |s| s.switches[k].queue_bytes as f64 / 1000.0),
            )
        })
        .collect();
    Panel {
        title: "uplink egress queue (sampled every interval)".into(),
        xlabel: "time (s)".into(),
        ylabel: "queue (KB)".into(),
        series,
        ..Panel::default()
    }
}

fn figure(name: &str, panels: Vec<Panel>) -> Figure {
    Figure {
        title: format!("{name}: {}", title(name)),
        width: 1000.0,
        panel_height: 300.0,
        panels,
    }
}

/// Stop times of the flows that stop, in order.
fn stops(cfg: &NetConfig) -> Vec<(usize, f64)> {
    let mut v: Vec<(usize, f64)> = cfg
        .flows
        .iter()
        .enumerate()
        .filter_map(|(k, f)| f.stop_ps.map(|t| (k, t_s(t))))
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v
}

/// Phases between stops: (from, to, flows active).
fn phases(cfg: &NetConfig) -> Vec<(f64, f64, Vec<usize>)> {
    let end = t_s(cfg.duration_ps);
    let mut edges = vec![0.0];
    edges.extend(stops(cfg).iter().map(|s| s.1).filter(|&t| t < end));
    edges.push(end);
    edges
        .windows(2)
        .map(|w| {
            let active = cfg
                .flows
                .iter()
                .enumerate()
                .filter(|(_, f)| {
                    f.stop_ps.is_none_or(|t| t_s(t) >= w[1]) && t_s(f.start_ps) <= w[0]
                })
                .map(|(k, _)| k)
                .collect();
            (w[0], w[1], active)
        })
        .collect()
}

fn analyse(name: &str, cfg: &NetConfig, r: &RunResult) -> Result<(Vec<Row>, Figure), NetError> {
    let end = t_s(cfg.duration_ps);
    let aggregate = r
        .samples
        .iter()
        .map(|s| s.flows.iter().map(|f| f.gbps).sum::<f64>())
        .sum::<f64>()
        / r.samples.len().max(1) as f64;
    let xoff: u64 = r.switches.iter().map(|s| s.xoff_sent).sum();
    let marks: u64 = r.switches.iter().map(|s| s.marks).sum();
    let maxq = r
        .switches
        .iter()
        .map(|s| s.max_queue_bytes)
        .max()
        .unwrap_or(0);
    let mut rows = Vec::new();
    let fig = match name {
        "fig12" | "fig11" => {
            let ph = phases(cfg);
            let paper_plateau = ["~3.3 each", "~4.9 each", "~9.7"];
            let mut plateaus = Vec::new();
            for (k, (from, to, active)) in ph.iter().enumerate() {
                let mid = (from + to) / 2.0;
                let v: Vec<f64> = active.iter().map(|&f| mean(r, f, mid, *to)).collect();
                let names: Vec<&str> = active.iter().map(|&f| cfg.flows[f].name.as_str()).collect();
                let paper = if name == "fig12" {
                    paper_plateau.get(k).copied().unwrap_or("")
                } else {
                    "on/off, unfair (no value given)"
                };
                rows.push(row(
                    &format!(
                        "{} throughput, {:.2}-{:.2} s (Gb/s)",
                        names.join(" / "),
                        mid,
                        to
                    ),
                    v.iter().map(|x| f2(*x)).collect::<Vec<_>>().join(" / "),
                    paper,
                ));
                if active.len() > 1 {
                    rows.push(row(
                        &format!("Jain's index, {} flows", active.len()),
                        format!("{:.4}", jain(&v)),
                        if name == "fig12" {
                            "near-equal share"
                        } else {
                            "patently unfair"
                        },
                    ));
                }
                plateaus.push((active.clone(), v));
            }
            if name == "fig11" {
                // Burstiness: spread of each flow's 1-sample throughput in the first phase.
                if let Some((from, to, active)) = ph.first() {
                    let sd: Vec<String> = active
                        .iter()
                        .map(|&f| {
                            let xs: Vec<f64> = r
                                .samples
                                .iter()
                                .filter(|s| t_s(s.t_ps) > *from && t_s(s.t_ps) <= *to)
                                .map(|s| s.flows[f].gbps)
                                .collect();
                            let m = xs.iter().sum::<f64>() / xs.len().max(1) as f64;
                            let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>()
                                / xs.len().max(1) as f64;
                            f2(v.sqrt())
                        })
                        .collect();
                    rows.push(row(
                        "std. dev. of per-flow throughput per sample, first phase (Gb/s)",
                        sd.join(" / "),
                        "bursts at 10 Gb/s and near-zero intervals",
                    ));
                }
            }
            // Time to redistribute after each stop: survivors' sum reaches 95 % of its plateau.
            for (k, (_, stop)) in stops(cfg).iter().enumerate() {
                let Some((act, v)) = plateaus.get(k + 1) else {
                    continue;
                };
                let target = 0.95 * v.iter().sum::<f64>();
                let reached = r
                    .samples
                    .iter()
                    .filter(|s| t_s(s.t_ps) > *stop)
                    .find(|s| act.iter().map(|&f| s.flows[f].gbps).sum::<f64>() >= target)
                    .map(|s| t_s(s.t_ps) - stop);
                rows.push(row(
                    &format!("time to redistribute after the stop at {stop:.2} s (survivors reach 95 % of their plateau)"),
                    reached.map_or("not reached".into(), |d| format!("{:.1} ms", d * 1e3)),
                    if name == "fig12" { "sub-second" } else { "" },
                ));
            }
            let plateau_sum: f64 = ph
                .iter()
                .map(|(from, to, active)| {
                    let mid = (from + to) / 2.0;
                    active.iter().map(|&f| mean(r, f, mid, *to)).sum::<f64>() * (to - mid)
                })
                .sum::<f64>()
                / ph.iter()
                    .map(|(from, to, _)| (to - from) / 2.0)
                    .sum::<f64>();
            rows.push(row(
                "aggregate throughput over the second half of each phase (Gb/s)",
                f2(plateau_sum),
                if name == "fig12" {
                    "9.77 (whole run)"
                } else {
                    ""
                },
            ));
            rows.push(row(
                "aggregate throughput, whole run (Gb/s)",
                f2(aggregate),
                if name == "fig12" {
                    "9.77"
                } else {
                    "frequently near line rate"
                },
            ));
            rows.push(row("drops", r.drops().to_string(), "0"));
            rows.push(row(
                "PFC pause frames / ECN marks / max queue",
                format!("{xoff} / {marks} / {:.1} KB", maxq as f64 / 1e3),
                "not reported",
            ));
            let mut p = throughput_panel(cfg, r, "per-flow payload throughput at the receiver");
            for (_, t) in stops(cfg) {
                p.vlines.push((t, plot::GREY));
            }
            figure(name, vec![p, queue_panel(r)])
        }
        "fig13" => {
            let a = 0;
            // Climbs: Rc of flow_a up by more than 10 % between samples.
            let climbs: Vec<usize> = (1..r.samples.len())
                .filter(|&k| {
                    let (p, q) = (r.samples[k - 1].flows[a].rc, r.samples[k].flows[a].rc);
                    f64::from(q) > 1.1 * f64::from(p)
                })
                .collect();
            let climb_t: Vec<f64> = climbs.iter().map(|&k| t_s(r.samples[k].t_ps)).collect();
            let period = if climb_t.len() >= 2 {
                format!(
                    "{:.1} ms",
                    (climb_t[climb_t.len() - 1] - climb_t[0]) / (climb_t.len() - 1) as f64 * 1e3
                )
            } else {
                "fewer than 2 climbs".into()
            };
            rows.push(row(
                "flow_a climbs (Rc up > 10 % in one sample) / mean period",
                format!("{} / {period}", climbs.len()),
                "repeating",
            ));
            // After each climb: the peak Rc, Rc 100 ms later (or at the next climb), CNPs between.
            let horizon = (s_to_ps(0.1) / cfg.sample_ps) as usize;
            let mut decays = Vec::new();
            for (n, &k) in climbs.iter().enumerate() {
                let stop = climbs
                    .get(n + 1)
                    .copied()
                    .unwrap_or(r.samples.len())
                    .min(k + horizon)
                    .min(r.samples.len() - 1);
                let peak = r.samples[k..=stop]
                    .iter()
                    .map(|s| s.flows[a].rc)
                    .max()
                    .unwrap_or(0);
                let cnps: u64 = r.samples[k..=stop].iter().map(|s| s.flows[a].cnps).sum();
                let later = r.samples[stop].flows[a].rc;
                let dt = t_s(r.samples[stop].t_ps - r.samples[k].t_ps);
                decays.push((t_s(r.samples[k].t_ps), gbps(peak), gbps(later), dt, cnps));
            }
            rows.push(row(
                "flow_a after each climb: time, peak Rc -> Rc later (Gb/s), CNPs in between",
                decays
                    .iter()
                    .map(|d| format!("{:.2} s: {:.2} -> {:.2} after {:.0} ms, {} CNPs", d.0, d.1, d.2, d.3 * 1e3, d.4))
                    .collect::<Vec<_>>()
                    .join("; "),
                "sharp climb toward the bottleneck rate, then approximately exponential decay over many CNPs",
            ));
            let gaps: Vec<f64> = climb_t.windows(2).map(|w| w[1] - w[0]).collect();
            rows.push(row(
                "flow_a time between climbs (s)",
                gaps.iter()
                    .map(|g| format!("{g:.2}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                "climbs recur; a climb needs 200 ms without a CNP",
            ));
            let half = end / 2.0;
            rows.push(row(
                &format!("throughput flow_a / flow_b / flow_c, {half:.1}-{end:.1} s (Gb/s)"),
                (0..3)
                    .map(|f| f2(mean(r, f, half, end)))
                    .collect::<Vec<_>>()
                    .join(" / "),
                "the other two absorb the bandwidth",
            ));
            rows.push(row("drops", r.drops().to_string(), "0"));
            let p1 = throughput_panel(cfg, r, "per-flow payload throughput at the receiver");
            let p2 = Panel {
                title: "flow_a rate limiter registers".into(),
                xlabel: "time (s)".into(),
                ylabel: "rate (Gb/s)".into(),
                series: vec![
                    Series::new("flow_a Rc", RED, time_series(r, |s| gbps(s.flows[a].rc))),
                    Series::new("flow_a Rt", ORANGE, time_series(r, |s| gbps(s.flows[a].rt)))
                        .dashed(),
                ],
                y_range: Some((0.0, 10.5)),
                ..Panel::default()
            };
            figure(name, vec![p1, p2])
        }
        "fig14" => {
            let f = cfg.flows.len() - 1;
            let ratio = f64::from(cfg.frame.payload_bytes) / f64::from(cfg.frame.stream_bytes());
            let ceiling = cfg.link.rate_bps as f64 / 1e9 * f64::from(cfg.frame.payload_bytes)
                / f64::from(cfg.frame.wire_bytes());
            let start = t_s(cfg.sample_ps) * 5.0;
            let diffs: Vec<f64> = r
                .samples
                .iter()
                .filter(|s| t_s(s.t_ps) > start)
                .map(|s| {
                    let expect = (gbps(s.flows[f].rc) * ratio).min(ceiling);
                    (s.flows[f].gbps - expect).abs() / expect.max(1e-9)
                })
                .collect();
            let mut sorted = diffs.clone();
            sorted.sort_by(f64::total_cmp);
            let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
            let within =
                diffs.iter().filter(|&&d| d <= 0.05).count() as f64 / diffs.len().max(1) as f64;
            let name_f = &cfg.flows[f].name;
            rows.push(row(
                &format!("{name_f}: median of abs(throughput - Rc) / Rc per 1 ms sample (Rc in payload terms, capped at the {ceiling:.2} Gb/s goodput of the wire)"),
                format!("{:.2} %", median * 100.0),
                "curves overlap throughout the run",
            ));
            rows.push(row(
                &format!("{name_f}: samples within 5 % of Rc"),
                format!("{:.1} %", within * 100.0),
                "overlap, including both transitions",
            ));
            let gap: Vec<f64> = r
                .samples
                .iter()
                .map(|s| gbps(s.flows[f].rt) - gbps(s.flows[f].rc))
                .collect();
            rows.push(row(
                &format!("{name_f}: mean Rt - Rc (Gb/s)"),
                format!("{:.3}", gap.iter().sum::<f64>() / gap.len().max(1) as f64),
                "Rt and Rc overlap",
            ));
            let p = Panel {
                title: format!("{name_f}: measured throughput, Rc and Rt (1 kHz samples)"),
                xlabel: "time (s)".into(),
                ylabel: "rate (Gb/s)".into(),
                series: vec![
                    Series::new("throughput", BLUE, time_series(r, |s| s.flows[f].gbps)),
                    Series::new("Rc", RED, time_series(r, |s| gbps(s.flows[f].rc))),
                    Series::new("Rt", ORANGE, time_series(r, |s| gbps(s.flows[f].rt))).dashed(),
                ],
                y_range: Some((0.0, 10.5)),
                ..Panel::default()
            };
            figure(name, vec![p])
        }
        "fig4" | "fig5" => {
            let half = end / 2.0;
            let v: Vec<f64> = (0..cfg.flows.len())
                .map(|f| mean(r, f, half, end))
                .collect();
            let mut leaf_of = Vec::new();
            for (l, &n) in cfg.leaves.iter().enumerate() {
                leaf_of.extend(std::iter::repeat_n(l, n as usize));
            }
            let group = |pred: &dyn Fn(usize) -> bool| {
                let xs: Vec<f64> = (0..v.len())
                    .filter(|&k| pred(leaf_of[k]))
                    .map(|k| v[k])
                    .collect();
                xs.iter().sum::<f64>() / xs.len().max(1) as f64
            };
            let max_leaf = cfg.leaves.iter().copied().max().unwrap_or(0);
            let crowded = |l: usize| cfg.leaves[l] == max_leaf;
            let small = group(&|l| !crowded(l));
            let big = group(&|l| crowded(l));
            if name == "fig4" {
                rows.push(row(
                    &format!("senders on the small leaves, mean {half:.2}-{end:.2} s (Gb/s)"),
                    f2(small),
                    "~1.58 (ideal 1.67)",
                ));
                rows.push(row(
                    "senders on the 4-sender leaf, mean (Gb/s)",
                    f2(big),
                    "~0.81 (ideal 0.83)",
                ));
            } else {
                rows.push(row(
                    &format!("per-sender throughput, mean of all, {half:.2}-{end:.2} s (Gb/s)"),
                    f2(v.iter().sum::<f64>() / v.len() as f64),
                    "~1.1 each (ideal 1.25)",
                ));
                rows.push(row(
                    "small leaves / 4-sender leaf, mean (Gb/s)",
                    format!("{} / {}", f2(small), f2(big)),
                    "same share",
                ));
            }
            rows.push(row(
                "per sender (Gb/s), nodes 5-12",
                v.iter().map(|x| f2(*x)).collect::<Vec<_>>().join(" "),
                if name == "fig4" {
                    "1.58 1.58 0.81 0.81 0.81 0.81 1.58 1.58"
                } else {
                    "~1.1 each"
                },
            ));
            rows.push(row(
                "Jain's index",
                format!("{:.4}", jain(&v)),
                if name == "fig4" {
                    "parking lot (0.89 for the paper's values)"
                } else {
                    "equal share"
                },
            ));
            rows.push(row(
                "aggregate (Gb/s)",
                f2(v.iter().sum()),
                "tracks the receiver link",
            ));
            rows.push(row("drops", r.drops().to_string(), "0"));
            rows.push(row(
                "PFC pause frames / ECN marks / max queue",
                format!("{xoff} / {marks} / {:.1} KB", maxq as f64 / 1e3),
                "not reported",
            ));
            let paper = |l: usize| {
                if name == "fig4" {
                    Some(if crowded(l) { 0.81 } else { 1.58 })
                } else {
                    Some(1.1)
                }
            };
            let bars = v
                .iter()
                .enumerate()
                .map(|(k, &x)| Bar {
                    label: cfg.flows[k].name.trim_start_matches("node").to_string(),
                    value: x,
                    color: PALETTE[leaf_of[k] % PALETTE.len()],
                    reference: paper(leaf_of[k]),
                })
                .collect();
            let p1 = throughput_panel(cfg, r, "per-sender payload throughput at the receiver");
            let p2 = Panel {
                title: format!("mean per sender, {half:.2}-{end:.2} s (bars; dashed: paper)"),
                xlabel: "sender node (colour: leaf switch)".into(),
                ylabel: "throughput (Gb/s)".into(),
                bars,
                ..Panel::default()
            };
            figure(name, vec![p1, p2])
        }
        _ => {
            return Err(NetError::UnknownExperiment {
                name: name.to_string(),
                known: NAMES.join(", "),
            })
        }
    };
    Ok((rows, fig))
}

fn fig9(cfg: &NetConfig, dir: &Path, progress: impl FnMut(f64)) -> Result<Report, NetError> {
    let cycle = crate::config::cycle_ps(&P);
    let cycles = cfg.duration_ps / cycle;
    let every = (cfg.sample_ps / cycle).max(1);
    let regs = cfg
        .flows
        .first()
        .map_or(Config::paper_table2(&P), |f| f.registers);
    let run = emulated::run(
        regs,
        cfg.frame.stream_bytes(),
        cfg.frame.stream_overhead_bytes.saturating_sub(4),
        cfg.frame.stream_overhead_bytes.min(4),
        EmulatedSwitch::paper(5.0),
        cycles,
        every,
        progress,
    );
    let ms = |c: u64| c as f64 * cycle as f64 / 1e9;
    let mut csv = String::from("time_ms,window_gbps,rc_gbps,rt_gbps,alpha,cnps\n");
    let mut seen = 0;
    for p in &run.points {
        while seen < run.cnps.len() && run.cnps[seen].cycle <= p.cycle {
            seen += 1;
        }
        let _ = writeln!(
            csv,
            "{:.4},{:.4},{:.4},{:.4},{:.4},{}",
            ms(p.cycle),
            p.window_gbps,
            gbps(p.rc),
            gbps(p.rt),
            f64::from(p.alpha) / 1024.0,
            seen
        );
    }
    let csv_path = dir.join("fig9.csv");
    plot::write_file(&csv_path, csv.as_bytes())?;
    let paper = ["1", "~0.8", "~0.3"];
    let mut rows = Vec::new();
    for (k, c) in run.cnps.iter().take(3).enumerate() {
        rows.push(row(
            &format!("alpha at CNP {} (t = {:.2} ms)", k + 1, ms(c.cycle)),
            format!("{:.3}", f64::from(c.alpha) / 1024.0),
            paper[k],
        ));
    }
    if let Some(c) = run.cnps.first() {
        rows.push(row(
            "Rc before -> after the first CNP (Gb/s)",
            format!("{} -> {}", f2(gbps(c.rc_before)), f2(gbps(c.rc_after))),
            "10 -> 5",
        ));
    }
    rows.push(row(
        &format!("CNPs in {:.1} ms", ms(run.cycles)),
        run.cnps.len().to_string(),
        "3 over the run",
    ));
    let vl: Vec<(f64, plot::Rgb)> = run.cnps.iter().map(|c| (ms(c.cycle), GREEN)).collect();
    let pts = |f: &dyn Fn(&emulated::Point) -> f64| -> Vec<(f64, f64)> {
        run.points.iter().map(|p| (ms(p.cycle), f(p))).collect()
    };
    let fig = Figure {
        title: format!("fig9: {}", title("fig9")),
        width: 1000.0,
        panel_height: 240.0,
        panels: vec![
            Panel {
                title: "throughput over the 5000-cycle window vs threshold".into(),
                xlabel: "time (ms)".into(),
                ylabel: "Gb/s".into(),
                series: vec![Series::new(
                    "window throughput",
                    BLUE,
                    pts(&|p| p.window_gbps),
                )],
                hlines: vec![(run.threshold_gbps, RED, "threshold".into())],
                vlines: vl.clone(),
                y_range: Some((0.0, 10.5)),
                ..Panel::default()
            },
            Panel {
                title: "Rc and Rt".into(),
                xlabel: "time (ms)".into(),
                ylabel: "Gb/s".into(),
                series: vec![
                    Series::new("Rc", RED, pts(&|p| gbps(p.rc))),
                    Series::new("Rt", ORANGE, pts(&|p| gbps(p.rt))).dashed(),
                ],
                vlines: vl.clone(),
                y_range: Some((0.0, 10.5)),
                ..Panel::default()
            },
            Panel {
                title: "alpha (dashed green: CNPs)".into(),
                xlabel: "time (ms)".into(),
                ylabel: "alpha".into(),
                series: vec![Series::new(
                    "alpha",
                    PALETTE[4],
                    pts(&|p| f64::from(p.alpha) / 1024.0),
                )],
                vlines: vl,
                y_range: Some((0.0, 1.05)),
                ..Panel::default()
            },
        ],
    };
    let mut files = vec![csv_path.display().to_string()];
    files.extend(fig.write(dir, "fig9")?);
    Ok(Report {
        experiment: "fig9".into(),
        title: title("fig9").into(),
        rows,
        files,
        simulated_s: ms(run.cycles) / 1e3,
        wall_s: 0.0,
        stepped_cycles: run.cycles,
        skipped_cycles: 0,
    })
}
