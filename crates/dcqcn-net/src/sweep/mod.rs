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
use crate::out::{self, OutFile};
use crate::plot::{Figure, Heatmap, Panel};
use crate::sim::{Network, RunResult};
use crate::NetError;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::axis::*;
pub use crate::axis::{
    apply, parse_axis, register_fields, Axis, MAX_AXIS, MAX_SPEC_CHARS, MAX_VALUE_CHARS,
    NETWORK_FIELDS,
};

/// Largest grid (points).
pub const MAX_POINTS: usize = 1024;
/// Sample cells ([`NetConfig::sample_cells`]) of the points that run at the same time: a sweep
/// runs on at most `MAX_SWEEP_CELLS / (the largest point's cells)` threads.
pub const MAX_SWEEP_CELLS: u64 = 4 * config::MAX_SAMPLE_CELLS;
/// A collapsed flow gets less than this fraction of its fair share.
pub const COLLAPSE_SHARE: f64 = 0.1;

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

/// Threads a sweep of `grid` runs on when `jobs` are asked for: at most one per point, and at
/// most as many as keep the samples of the points in flight within [`MAX_SWEEP_CELLS`].
pub fn threads(grid: &Grid, jobs: usize) -> usize {
    let points = grid.points.iter().map(Vec::len).sum::<usize>().max(1);
    let cells = grid
        .points
        .iter()
        .flatten()
        .map(NetConfig::sample_cells)
        .max()
        .unwrap_or(1)
        .max(1);
    let by_memory = usize::try_from(MAX_SWEEP_CELLS / cells)
        .unwrap_or(usize::MAX)
        .max(1);
    jobs.max(1).min(points).min(by_memory)
}

/// Runs every point of `grid` on the current rayon pool; `done` is called after each point with
/// the number finished. Results are in grid order, `[y][x]`, whatever the pool's size.
pub fn run(grid: &Grid, done: &(dyn Fn(usize) + Sync)) -> Vec<Vec<PointResult>> {
    let Ok(r) = run_in_order::<std::convert::Infallible>(grid, done, &mut |_, _| Ok(()));
    r
}

/// [`run`], handing each result to `emit` in grid order (row by row, `k = y * nx + x`) as soon as
/// it and every point before it are done. An error of `emit` stops the sweep: no further point
/// starts, and the error is returned once the points in flight end.
fn run_in_order<E: Send>(
    grid: &Grid,
    done: &(dyn Fn(usize) + Sync),
    emit: &mut (dyn FnMut(usize, &PointResult) -> Result<(), E> + Send),
) -> Result<Vec<Vec<PointResult>>, E> {
    struct Order<'a, E> {
        slots: Vec<Option<PointResult>>,
        next: usize,
        emit: &'a mut (dyn FnMut(usize, &PointResult) -> Result<(), E> + Send),
        error: Option<E>,
    }
    let flat: Vec<&NetConfig> = grid.points.iter().flatten().collect();
    let finished = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let order = Mutex::new(Order {
        slots: vec![None; flat.len()],
        next: 0,
        emit,
        error: None,
    });
    flat.par_iter().enumerate().for_each(|(k, cfg)| {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let r = Network::new((*cfg).clone()).run(|_| {});
        let m = measure(cfg, &r);
        drop(r);
        let mut o = order.lock().unwrap_or_else(|p| p.into_inner());
        o.slots[k] = Some(m);
        while o.error.is_none() && o.next < o.slots.len() {
            let Order {
                slots, next, emit, ..
            } = &mut *o;
            let Some(p) = slots[*next].as_ref() else {
                break;
            };
            if let Err(e) = emit(*next, p) {
                o.error = Some(e);
                stop.store(true, Ordering::Relaxed);
                break;
            }
            o.next += 1;
        }
        drop(o);
        done(finished.fetch_add(1, Ordering::Relaxed) + 1);
    });
    let o = order.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = o.error {
        return Err(e);
    }
    let results: Vec<PointResult> = o.slots.into_iter().flatten().collect();
    let nx = grid.x.values.len().max(1);
    Ok(results.chunks(nx).map(|c| c.to_vec()).collect())
}

/// The CSV's header: the two parameters (as named), then the measures.
fn csv_header(grid: &Grid) -> Vec<String> {
    let mut h = vec![grid.x.name.clone(), grid.y.name.clone()];
    h.extend(
        [
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
        ]
        .map(String::from),
    );
    h
}

/// The CSV row of the point at `xv`, `yv`.
fn csv_row(xv: &str, yv: &str, p: &PointResult) -> Vec<String> {
    vec![
        xv.to_string(),
        yv.to_string(),
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
    ]
}

/// The CSV: one row per point, the two parameters first (as given), then the measures.
pub fn csv(grid: &Grid, results: &[Vec<PointResult>]) -> Vec<u8> {
    let mut bytes = out::csv_record(csv_header(grid));
    for (yv, row) in grid.y.values.iter().zip(results) {
        for (xv, p) in grid.x.values.iter().zip(row) {
            bytes.extend(out::csv_record(csv_row(xv, yv, p)));
        }
    }
    bytes
}

/// Runs `grid` on the current rayon pool and writes `<stem>.csv`, `.svg` and `.png` into `dir`:
/// the folder and the files are made before the first point runs, the CSV's header then and each
/// row as soon as its point and every point before it are done. A failed write ends the sweep
/// (no further point starts). Returns the results and the files' paths.
pub fn run_writing(
    grid: &Grid,
    title: &str,
    dir: &Path,
    stem: &str,
    done: &(dyn Fn(usize) + Sync),
) -> Result<(Vec<Vec<PointResult>>, Vec<String>), NetError> {
    out::create_dir("--out", dir)?;
    let mut csv = OutFile::create(dir.join(format!("{stem}.csv")))?;
    let svg = OutFile::create(dir.join(format!("{stem}.svg")))?;
    let png = OutFile::create(dir.join(format!("{stem}.png")))?;
    csv.write(&out::csv_record(csv_header(grid)))?;
    let nx = grid.x.values.len().max(1);
    let results = run_in_order(grid, done, &mut |k, p| {
        csv.write(&out::csv_record(csv_row(
            &grid.x.values[k % nx],
            &grid.y.values[k / nx],
            p,
        )))
    })?;
    let mut files = vec![csv.name()];
    files.extend(figure(grid, &results, title).write_into(svg, png)?);
    Ok((results, files))
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

/// Writes `<stem>.csv`, `.svg` and `.png` of finished results into `dir`; returns their paths.
pub fn write(
    grid: &Grid,
    results: &[Vec<PointResult>],
    title: &str,
    dir: &Path,
    stem: &str,
) -> Result<Vec<String>, NetError> {
    out::create_dir("--out", dir)?;
    let mut csv_file = OutFile::create(dir.join(format!("{stem}.csv")))?;
    let svg = OutFile::create(dir.join(format!("{stem}.svg")))?;
    let png = OutFile::create(dir.join(format!("{stem}.png")))?;
    csv_file.write(&csv(grid, results))?;
    let mut files = vec![csv_file.name()];
    files.extend(figure(grid, results, title).write_into(svg, png)?);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn point(v: f64) -> PointResult {
        PointResult {
            throughput_gbps: 9.0 * v,
            capacity_gbps: 9.8,
            jain: v,
            min_flow_gbps: 1.0,
            max_flow_gbps: 1.2,
            collapse: 1.0 - v,
            collapse_timer_silent: 0.0,
            timer_silent: 0.0,
            cnps_per_flow_ms: 0.0,
            xoff: 0,
            drops: 0,
            max_queue_bytes: 0,
            stepped_cycles: 0,
            skipped_cycles: 0,
        }
    }

    /// The figure of a grid of `nx` x `ny` points (values made up), titled as the command does.
    fn grid_figure(x: &str, y: &str) -> Figure {
        let base = base_config("incast").unwrap();
        let grid = plan(
            &base,
            parse_axis("--x", x).unwrap(),
            parse_axis("--y", y).unwrap(),
        )
        .unwrap();
        let (nx, ny) = (grid.x.values.len(), grid.y.values.len());
        let results: Vec<Vec<PointResult>> = (0..ny)
            .map(|j| {
                (0..nx)
                    .map(|i| point(((i + j) % 11) as f64 / 10.0))
                    .collect()
            })
            .collect();
        let title = format!(
            "sweep on incast: {} x {} (0.02 s per point)",
            grid.x.name, grid.y.name
        );
        figure(&grid, &results, &title)
    }

    #[test]
    fn every_text_is_inside_the_maps_for_the_smallest_and_largest_grids() {
        for (x, y) in [
            // The small sweep, whose title ran off both edges.
            (
                "registers.inc_interval=500us..8000us:3",
                "receiver.cnp_interval=4us..256us:3",
            ),
            ("registers.inc_interval=1ms", "receiver.cnp_interval=4us"),
            // The largest grids (1024 points), both ways round, with long labels.
            (
                "registers.inc_interval=1.234567ms..99.87654ms:64",
                "receiver.cnp_interval=4.5678us..256.789us:16",
            ),
            (
                "receiver.cnp_interval=4.5678us..256.789us:16",
                "registers.inc_interval=1.234567ms..99.87654ms:64",
            ),
            // Values as long as an axis allows.
            (
                &format!("seed={}", "1".repeat(19)),
                &format!("switch.pmax=0.0125{}", "0".repeat(58)),
            ),
        ] {
            let fig = grid_figure(x, y);
            let outside = crate::plot::texts_outside(&fig);
            assert!(outside.is_empty(), "{x} / {y}: {outside:#?}");
        }
    }

    #[test]
    fn every_heat_map_has_a_labelled_colour_scale() {
        let fig = grid_figure(
            "registers.inc_interval=500us..8000us:3",
            "receiver.cnp_interval=4us..256us:3",
        );
        let svg = fig.svg().unwrap();
        let (texts, _) = crate::plot::text_extents(&fig);
        for end in ["0.00", "0.50", "1.00"] {
            let n = texts.iter().filter(|(s, _)| s == end).count();
            assert!(
                n >= fig.panels.len(),
                "scale label {end}: {n} of {}",
                fig.panels.len()
            );
        }
        // The bar's ends: the colour map's first and last colours, once per panel at least.
        for c in [
            crate::plot::colormap(0.0078125, 0.0, 1.0),
            crate::plot::colormap(0.9921875, 0.0, 1.0),
        ] {
            let hex = format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
            assert!(svg.matches(&hex).count() >= fig.panels.len(), "{hex}");
        }
    }

    #[test]
    fn a_value_cannot_add_a_key() {
        let base = base_config("incast").unwrap();
        // A value that is a TOML document of two keys is a string, and refused as a time.
        let axis = Axis {
            flag: "--x".into(),
            name: "receiver.cnp_interval".into(),
            values: vec![],
        };
        let e = apply(&base, &axis, "1000\nseed = 3")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--x: `receiver.cnp_interval` = `1000"), "{e}");
        let c = apply(&base, &axis, "1000").unwrap();
        assert_eq!((c.receiver.cnp_interval_ps, c.seed), (1_000_000, base.seed));
        // On the command line a line break is refused before any value is read.
        let e = parse_axis("--x", "receiver.cnp_interval=1000\nseed = 3")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--x: ") && e.contains("control character"),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn long_values_are_refused_and_clipped() {
        let long = format!("receiver.cnp_interval={}us", "5".repeat(100_000));
        let e = parse_axis("--x", &long).unwrap_err().to_string();
        assert!(e.contains("at most 4096") && e.len() < 300, "{e}");
        let one = format!("receiver.cnp_interval={}us", "5".repeat(100));
        let e = parse_axis("--x", &one).unwrap_err().to_string();
        assert!(e.contains("at most 64 characters") && e.len() < 300, "{e}");
        let many = format!("receiver.cnp_interval={}", vec!["5us"; 65].join(","));
        let e = parse_axis("--x", &many).unwrap_err().to_string();
        assert!(e.contains("65 values, at most 64"), "{e}");
    }

    #[test]
    fn a_register_field_is_one_of_the_register_file() {
        let e = parse_axis("--y", "registers.inc_interval.x=1")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--y: unknown register field `inc_interval.x`"),
            "{e}"
        );
        assert!(!e.contains("borrowed"), "{e}");
        assert!(parse_axis("--y", "registers.g=0.5").is_ok());
    }

    #[test]
    fn threads_stay_within_the_points_and_the_sample_budget() {
        let base = base_config("incast").unwrap();
        let grid = plan(
            &base,
            parse_axis("--x", "seed=1,2,3").unwrap(),
            parse_axis("--y", "switch.kmin=1KB").unwrap(),
        )
        .unwrap();
        assert_eq!(threads(&grid, 100_000), 3);
        assert_eq!(threads(&grid, 2), 2);
        let advcam = base_config("advcam").unwrap();
        let grid = plan(
            &advcam,
            parse_axis("--x", "sample=25us").unwrap(),
            parse_axis("--y", "seed=1,2,3,4,5,6,7,8").unwrap(),
        )
        .unwrap();
        let cells = grid.points[0][0].sample_cells();
        assert!(cells <= config::MAX_SAMPLE_CELLS);
        let t = threads(&grid, 1024);
        assert!(
            t as u64 * cells <= MAX_SWEEP_CELLS && t >= 1,
            "{t} x {cells}"
        );
    }
}
