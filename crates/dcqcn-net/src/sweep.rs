//! `dcqcn net sweep`: a parameter map — a grid over two parameters, each named as in the
//! parameter files (`receiver.cnp_interval`, `switch.kmin`, ...; a register field of every flow as
//! `registers.<field>`, e.g. `registers.inc_interval`), one network run per point.
//!
//! Points run in parallel on a rayon pool; each point is its own sequential, seeded run, and the
//! results are collected in grid order, so the CSV and the maps do not depend on the number of
//! threads. Every value is applied through the parameter-file reader (same units, same checks)
//! before the first point runs.
//!
//! Per point, over the second half of the run (the window):
//! - throughput: the aggregate payload throughput at the receiver, Gb/s;
//! - fairness: Jain's index of the per-flow means;
//! - collapse: the fraction of flows that are *collapsed*: a flow whose payload throughput is below
//!   [`COLLAPSE_SHARE`] (10 %) of its fair share (the receiver link's payload capacity divided by
//!   the number of flows) in every sample of the window;
//! - collapse with a silent timer: the fraction of flows collapsed while their rate-increase timer
//!   never fires in the window (the limiter's `cnt_inc_timer` the same in the sample before the
//!   window and in the last): the mechanism of the user report, CNPs resetting the timer faster
//!   than it can fire. A collapsed flow whose timer does fire is recovering too slowly instead
//!   (e.g. Rt clamped to Rc at each cut, so fast recovery has nothing to recover to).

use crate::config::{self, NetConfig, PS_PER_S};
use crate::experiment::jain;
use crate::plot::{self, Figure, Heatmap, Panel};
use crate::sim::{Network, RunResult};
use crate::NetError;
use rayon::prelude::*;
use std::path::Path;

/// Largest grid (points).
pub const MAX_POINTS: usize = 1024;
/// Largest axis (values).
pub const MAX_AXIS: usize = 64;
/// A collapsed flow gets less than this fraction of its fair share.
pub const COLLAPSE_SHARE: f64 = 0.1;

/// Network fields a sweep may vary (the parameter-file names); register fields are
/// `registers.<field>`.
pub const NETWORK_FIELDS: [&str; 24] = [
    "seed",
    "duration",
    "sample",
    "frame.payload_bytes",
    "frame.stream_overhead_bytes",
    "frame.l2_overhead_bytes",
    "frame.gap_bytes",
    "link.rate",
    "link.uplink_rate",
    "link.delay",
    "switch.buffer",
    "switch.ecn",
    "switch.kmin",
    "switch.kmax",
    "switch.pmax",
    "switch.pfc",
    "switch.xoff",
    "switch.xon",
    "switch.headroom",
    "switch.pause_quanta",
    "receiver.cnp_interval",
    "receiver.cnp_latency",
    "sender.mac_fifo",
    "sender.cnp_pulse_cycles",
];

/// One axis: a parameter and its values as written in a parameter file.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The command-line flag that gave it (for messages): `--x` or `--y`.
    pub flag: String,
    pub name: String,
    pub values: Vec<String>,
}

fn flag_error(flag: &str, message: String) -> NetError {
    NetError::Flag {
        flag: flag.to_string(),
        message,
    }
}

/// A number followed by a unit (`200us` -> (200.0, "us")).
fn split_unit(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == 'e'))
        .map_or(s.len(), |(k, _)| k);
    // `e` starts a unit (none does) only after a digit-free prefix; keep exponents simple.
    let (num, unit) = s.split_at(end);
    let v: f64 = num.parse().ok()?;
    v.is_finite().then_some((v, unit.trim()))
}

/// `v` with four significant digits, trailing zeros removed.
fn four_digits(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    let decimals = (3 - mag).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Parses `NAME=VALUES` of `flag`: VALUES is a comma-separated list (`5us,10us,50us`) or a range
/// `FROM..TO:N` (N values spaced evenly on a log scale; `FROM..TO:N:lin` evenly), both ends with
/// the same unit.
pub fn parse_axis(flag: &str, spec: &str) -> Result<Axis, NetError> {
    let (name, values) = spec.split_once('=').ok_or_else(|| {
        flag_error(
            flag,
            format!("`{spec}`: expected NAME=VALUES (e.g. receiver.cnp_interval=5us,50us,500us)"),
        )
    })?;
    let name = name.trim();
    let known = NETWORK_FIELDS.contains(&name)
        || name
            .strip_prefix("registers.")
            .is_some_and(|f| !f.is_empty());
    if !known {
        return Err(flag_error(
            flag,
            format!(
                "unknown parameter `{name}` (network fields: {}; a register field of every flow: registers.<field>, e.g. registers.inc_interval)",
                NETWORK_FIELDS.join(", ")
            ),
        ));
    }
    let values = values.trim();
    let list: Vec<String> = if let Some((from, rest)) = values.split_once("..") {
        let mut parts = rest.split(':');
        let to = parts.next().unwrap_or("");
        let n = parts
            .next()
            .ok_or_else(|| flag_error(flag, format!("range `{values}`: expected FROM..TO:N")))?;
        let linear = match parts.next() {
            None => false,
            Some("lin") => true,
            Some("log") => false,
            Some(o) => {
                return Err(flag_error(
                    flag,
                    format!("range `{values}`: spacing `{o}` is neither lin nor log"),
                ))
            }
        };
        let n: usize = n.trim().parse().map_err(|_| {
            flag_error(
                flag,
                format!("range `{values}`: `{n}` is not a number of points"),
            )
        })?;
        if n == 0 || n > MAX_AXIS {
            return Err(flag_error(
                flag,
                format!("range `{values}`: {n} points, must be 1..={MAX_AXIS}"),
            ));
        }
        let (Some((a, ua)), Some((b, ub))) = (split_unit(from), split_unit(to)) else {
            return Err(flag_error(
                flag,
                format!("range `{values}`: both ends must be numbers with the same unit"),
            ));
        };
        if ua != ub {
            return Err(flag_error(
                flag,
                format!("range `{values}`: the ends have different units (`{ua}`, `{ub}`)"),
            ));
        }
        if b < a {
            return Err(flag_error(
                flag,
                format!("range `{values}`: empty (TO is below FROM)"),
            ));
        }
        if n > 1 && a == b {
            return Err(flag_error(
                flag,
                format!("range `{values}`: {n} points between equal ends"),
            ));
        }
        if !linear && a <= 0.0 {
            return Err(flag_error(
                flag,
                format!("range `{values}`: a log range needs FROM above 0 (or use :lin)"),
            ));
        }
        let integers = !from.contains('.') && !to.contains('.');
        (0..n)
            .map(|k| {
                let u = if n == 1 {
                    0.0
                } else {
                    k as f64 / (n - 1) as f64
                };
                let v = if linear {
                    a + (b - a) * u
                } else {
                    a * (b / a).powf(u)
                };
                let v = if k + 1 == n && n > 1 { b } else { v };
                let text = if integers && ua.is_empty() {
                    format!("{}", v.round() as i64)
                } else {
                    four_digits(v)
                };
                format!("{text}{ua}")
            })
            .collect()
    } else {
        values.split(',').map(|v| v.trim().to_string()).collect()
    };
    if list.is_empty() || list.iter().any(|v| v.is_empty()) {
        return Err(flag_error(
            flag,
            format!("`{values}`: an empty value (give VALUE,VALUE,... or FROM..TO:N)"),
        ));
    }
    if list.len() > MAX_AXIS {
        return Err(flag_error(
            flag,
            format!("{} values, at most {MAX_AXIS}", list.len()),
        ));
    }
    Ok(Axis {
        flag: flag.to_string(),
        name: name.to_string(),
        values: list,
    })
}

/// `value` as a TOML value: as written if it is one (a number, a boolean, an array, a quoted
/// string), else quoted (`10us`).
fn toml_value(value: &str) -> String {
    let raw = format!("v = {value}\n");
    if toml::from_str::<toml::Table>(&raw).is_ok() {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// The parameter-file text that sets `name` to `value` in `cfg` (a register field in every
/// flow's table).
fn file_text(cfg: &NetConfig, name: &str, value: &str) -> String {
    let v = toml_value(value);
    if let Some(field) = name.strip_prefix("registers.") {
        let mut s = String::new();
        for _ in &cfg.flows {
            s.push_str(&format!("[[flow]]\n[flow.registers]\n{field} = {v}\n"));
        }
        s
    } else if let Some((table, field)) = name.split_once('.') {
        format!("[{table}]\n{field} = {v}\n")
    } else {
        format!("{name} = {v}\n")
    }
}

/// `cfg` with `name = value` applied through the parameter-file reader; an error names `flag`.
pub fn apply(cfg: &NetConfig, axis: &Axis, value: &str) -> Result<NetConfig, NetError> {
    let mut c = cfg.clone();
    let text = file_text(cfg, &axis.name, value);
    let file = format!("{} {}={}", axis.flag, axis.name, value);
    config::apply_file(&mut c, &text, &file)
        .map_err(|e| flag_error(&axis.flag, format!("`{}` = `{value}`: {e}", axis.name)))?;
    Ok(c)
}

/// A checked grid: the configuration of every point, `points[y][x]`.
pub struct Grid {
    pub x: Axis,
    pub y: Axis,
    pub points: Vec<Vec<NetConfig>>,
}

/// Applies every value of both axes to `base` and checks the grid's size, before anything runs.
pub fn plan(base: &NetConfig, x: Axis, y: Axis) -> Result<Grid, NetError> {
    if x.name == y.name {
        return Err(flag_error(
            &y.flag,
            format!(
                "`{}` is also the --x parameter: give two different parameters",
                y.name
            ),
        ));
    }
    let n = x.values.len() * y.values.len();
    if n > MAX_POINTS {
        return Err(flag_error(
            &format!("{}/{}", x.flag, y.flag),
            format!(
                "{} x {} = {n} points, at most {MAX_POINTS}",
                x.values.len(),
                y.values.len()
            ),
        ));
    }
    let mut points = Vec::new();
    for yv in &y.values {
        let with_y = apply(base, &y, yv)?;
        let row = x
            .values
            .iter()
            .map(|xv| apply(&with_y, &x, xv))
            .collect::<Result<Vec<_>, _>>()?;
        points.push(row);
    }
    Ok(Grid { x, y, points })
}

/// What one point measured (over the window: the second half of the run).
#[derive(Clone, Debug, PartialEq)]
pub struct PointResult {
    pub throughput_gbps: f64,
    /// The receiver link's payload capacity, Gb/s.
    pub capacity_gbps: f64,
    pub jain: f64,
    pub min_flow_gbps: f64,
    pub max_flow_gbps: f64,
    /// Fraction of flows collapsed, and collapsed with a silent timer (module doc).
    pub collapse: f64,
    pub collapse_timer_silent: f64,
    /// Fraction of flows whose increase timer never fired in the window.
    pub timer_silent: f64,
    /// CNPs per flow per millisecond in the window.
    pub cnps_per_flow_ms: f64,
    pub xoff: u64,
    pub drops: u64,
    pub max_queue_bytes: u64,
    pub stepped_cycles: u64,
    pub skipped_cycles: u64,
}

/// The receiver link's payload capacity of `cfg`, Gb/s.
fn capacity_gbps(cfg: &NetConfig) -> f64 {
    crate::advcam::capacity_gbps(cfg)
}

/// Measures one run.
pub fn measure(cfg: &NetConfig, r: &RunResult) -> PointResult {
    let end = cfg.duration_ps;
    let window: Vec<usize> = (0..r.samples.len())
        .filter(|&k| r.samples[k].t_ps * 2 > end)
        .collect();
    let n = cfg.flows.len();
    let nw = window.len().max(1) as f64;
    let means: Vec<f64> = (0..n)
        .map(|f| {
            window
                .iter()
                .map(|&k| r.samples[k].flows[f].payload_gbps)
                .sum::<f64>()
                / nw
        })
        .collect();
    let capacity = capacity_gbps(cfg);
    let fair = capacity / n.max(1) as f64;
    // The timer counter before the window (0 at the start of the run) and at its end.
    let before = |f: usize| {
        window
            .first()
            .and_then(|&k| k.checked_sub(1))
            .map_or(0, |k| r.samples[k].flows[f].inc_timer_fires)
    };
    let after = |f: usize| {
        window
            .last()
            .map_or(0, |&k| r.samples[k].flows[f].inc_timer_fires)
    };
    let silent: Vec<bool> = (0..n).map(|f| before(f) == after(f)).collect();
    let collapsed: Vec<bool> = (0..n)
        .map(|f| {
            !window.is_empty()
                && window
                    .iter()
                    .all(|&k| r.samples[k].flows[f].payload_gbps < COLLAPSE_SHARE * fair)
        })
        .collect();
    let share =
        |v: &dyn Fn(usize) -> bool| (0..n).filter(|&f| v(f)).count() as f64 / n.max(1) as f64;
    let window_ms = window.len() as f64 * cfg.sample_ps as f64 / 1e9;
    let cnps: u64 = window
        .iter()
        .map(|&k| r.samples[k].flows.iter().map(|f| f.cnps).sum::<u64>())
        .sum();
    PointResult {
        throughput_gbps: means.iter().sum(),
        capacity_gbps: capacity,
        jain: jain(&means),
        min_flow_gbps: means.iter().copied().fold(f64::INFINITY, f64::min),
        max_flow_gbps: means.iter().copied().fold(0.0, f64::max),
        collapse: share(&|f| collapsed[f]),
        collapse_timer_silent: share(&|f| collapsed[f] && silent[f]),
        timer_silent: share(&|f| silent[f]),
        cnps_per_flow_ms: if window_ms > 0.0 {
            cnps as f64 / n.max(1) as f64 / window_ms
        } else {
            0.0
        },
        xoff: r.switches.iter().map(|s| s.xoff_sent).sum(),
        drops: r.drops(),
        max_queue_bytes: r
            .switches
            .iter()
            .map(|s| s.max_queue_bytes)
            .max()
            .unwrap_or(0),
        stepped_cycles: r.stepped_cycles,
        skipped_cycles: r.skipped_cycles,
    }
}

/// Runs every point of `grid` on the current rayon pool; `done` is called after each point with
/// the number finished. Results are in grid order, `[y][x]`, whatever the pool's size.
pub fn run(grid: &Grid, done: &(dyn Fn(usize) + Sync)) -> Vec<Vec<PointResult>> {
    let flat: Vec<&NetConfig> = grid.points.iter().flatten().collect();
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<PointResult> = flat
        .par_iter()
        .map(|cfg| {
            let r = Network::new((*cfg).clone()).run(|_| {});
            let m = measure(cfg, &r);
            let k = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            done(k);
            m
        })
        .collect();
    let nx = grid.x.values.len();
    results.chunks(nx).map(|c| c.to_vec()).collect()
}

/// The CSV: one row per point, the two parameters first (as given), then the measures.
pub fn csv(grid: &Grid, results: &[Vec<PointResult>]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = [
        grid.x.name.as_str(),
        grid.y.name.as_str(),
        "throughput_gbps",
        "capacity_gbps",
        "jain",
        "min_flow_gbps",
        "max_flow_gbps",
        "collapse",
        "collapse_timer_silent",
        "timer_silent",
        "cnps_per_flow_ms",
        "xoff",
        "drops",
        "max_queue_bytes",
    ];
    w.write_record(header)
        .expect("writing CSV into memory cannot fail");
    for (yv, row) in grid.y.values.iter().zip(results) {
        for (xv, p) in grid.x.values.iter().zip(row) {
            w.write_record([
                xv.clone(),
                yv.clone(),
                format!("{:.4}", p.throughput_gbps),
                format!("{:.4}", p.capacity_gbps),
                format!("{:.4}", p.jain),
                format!("{:.4}", p.min_flow_gbps),
                format!("{:.4}", p.max_flow_gbps),
                format!("{:.4}", p.collapse),
                format!("{:.4}", p.collapse_timer_silent),
                format!("{:.4}", p.timer_silent),
                format!("{:.4}", p.cnps_per_flow_ms),
                p.xoff.to_string(),
                p.drops.to_string(),
                p.max_queue_bytes.to_string(),
            ])
            .expect("writing CSV into memory cannot fail");
        }
    }
    w.into_inner().expect("writing CSV into memory cannot fail")
}

/// Three heat maps: throughput (as a fraction of the receiver link's payload capacity), Jain's
/// index, and the collapsed fraction of flows.
pub fn figure(grid: &Grid, results: &[Vec<PointResult>], title: &str) -> Figure {
    let map = |f: &dyn Fn(&PointResult) -> f64, decimals: usize| Heatmap {
        x_labels: grid.x.values.clone(),
        y_labels: grid.y.values.clone(),
        values: results
            .iter()
            .map(|row| row.iter().map(|p| Some(f(p))).collect())
            .collect(),
        range: (0.0, 1.0),
        decimals,
    };
    let panel = |t: &str, h: Heatmap| Panel {
        title: t.to_string(),
        xlabel: grid.x.name.clone(),
        ylabel: grid.y.name.clone(),
        heatmap: Some(h),
        ..Panel::default()
    };
    let cap = results
        .first()
        .and_then(|r| r.first())
        .map_or(0.0, |p| p.capacity_gbps);
    Figure {
        title: title.to_string(),
        width: 60.0 * grid.x.values.len() as f64 + 260.0,
        panel_height: 30.0 * grid.y.values.len() as f64 + 110.0,
        panels: vec![
            panel(
                &format!(
                    "throughput / receiver link payload capacity ({cap:.2} Gb/s), second half"
                ),
                map(
                    &|p| {
                        if p.capacity_gbps > 0.0 {
                            p.throughput_gbps / p.capacity_gbps
                        } else {
                            0.0
                        }
                    },
                    2,
                ),
            ),
            panel("Jain's index of the per-flow means", map(&|p| p.jain, 2)),
            panel(
                "collapse: fraction of flows below 10 % of fair share in every sample",
                map(&|p| p.collapse, 2),
            ),
            panel(
                "collapsed with the increase timer silent (CNPs keep resetting it)",
                map(&|p| p.collapse_timer_silent, 2),
            ),
        ],
    }
}

/// Writes `<stem>.csv`, `.svg` and `.png` into `dir`; returns their paths.
pub fn write(
    grid: &Grid,
    results: &[Vec<PointResult>],
    title: &str,
    dir: &Path,
    stem: &str,
) -> Result<Vec<String>, NetError> {
    std::fs::create_dir_all(dir).map_err(|source| NetError::Write {
        path: dir.display().to_string(),
        source,
    })?;
    let p = dir.join(format!("{stem}.csv"));
    plot::write_file(&p, &csv(grid, results))?;
    let mut files = vec![p.display().to_string()];
    files.extend(figure(grid, results, title).write(dir, stem)?);
    Ok(files)
}

/// Simulated seconds of a grid (every point's duration).
pub fn simulated_s(grid: &Grid) -> f64 {
    grid.points
        .iter()
        .flatten()
        .map(|c| c.duration_ps as f64 / PS_PER_S as f64)
        .sum()
}

/// Names of the networks a sweep can start from.
pub const BASES: &str = "incast, advcam, fig4, fig5, fig11, fig12, fig13, fig14";

/// Senders of the `incast` base.
pub const INCAST_SENDERS: u32 = 8;

/// The network a sweep starts from: `incast` ([`INCAST_SENDERS`] Table II senders on one switch,
/// no stops, 0.1 s), `advcam` (the funnel's defaults) or one of the paper's experiments (its
/// defaults); an unknown name is an error naming `--base`.
pub fn base_config(name: &str) -> Result<NetConfig, NetError> {
    match name {
        "incast" => {
            let mut c = crate::advcam::default_config(1, INCAST_SENDERS, 10_000_000_000);
            c.link.uplink_rate_bits_per_s = None;
            Ok(c)
        }
        "advcam" => Ok(crate::advcam::default_config(
            crate::advcam::DEFAULT_LEAVES,
            crate::advcam::DEFAULT_PER_LEAF,
            crate::advcam::DEFAULT_UPLINK_BITS_PER_S,
        )),
        "fig9" => Err(flag_error(
            "--base",
            "fig9 is the emulated switch, not a network (known: ".to_string() + BASES + ")",
        )),
        other => crate::experiment::by_name(other)
            .map(|e| e.default_config())
            .map_err(|_| {
                flag_error(
                    "--base",
                    format!("unknown network `{other}` (known: {BASES})"),
                )
            }),
    }
}
