//! What the experiments share: flows and registers, means over the samples, the phases between
//! stops, the throughput and queue panels, and the run on the network with its CSV.

use super::{Outcome, Row};
use crate::config::{FlowCfg, NetConfig, Profile, PS_PER_S};
use crate::csv_out;
use crate::plot::{Figure, Panel, Series, BLACK, PALETTE};
use crate::sim::{Network, RunResult, Sample};
use dcqcn_model::{Config, Params};

pub(super) const P: Params = Params::DEFAULT;

pub(super) fn s_to_ps(s: f64) -> u64 {
    (s * PS_PER_S as f64).round() as u64
}

pub(super) fn t_s(ps: u64) -> f64 {
    ps as f64 / PS_PER_S as f64
}

pub(super) fn f2(v: f64) -> String {
    format!("{v:.2}")
}

/// A flow from time 0 with `registers`, stopping at `stop_s` seconds if given.
pub(super) fn flow(name: &str, registers: Config, stop_s: Option<f64>) -> FlowCfg {
    FlowCfg {
        name: name.to_string(),
        start_ps: 0,
        stop_ps: stop_s.map(s_to_ps),
        registers,
        profile: Profile::Ours,
    }
}

/// Table II with the DCQCN block bypassed (PFC only).
pub(super) fn bypassed() -> Config {
    Config {
        bypass: true,
        ..Config::paper_table2(&P)
    }
}

/// Runs `cfg` on the network; the CSV is the time series, the rows and figure `analyse`'s.
pub(super) fn on_network(
    cfg: &NetConfig,
    progress: &mut dyn FnMut(f64),
    analyse: impl FnOnce(&RunResult) -> (Vec<Row>, Figure),
) -> Outcome {
    let r = Network::new(cfg.clone()).run(progress);
    let names: Vec<String> = cfg.flows.iter().map(|f| f.name.clone()).collect();
    let csv = csv_out::time_series(&names, &r);
    let (rows, figure) = analyse(&r);
    Outcome {
        csv,
        rows,
        figure,
        simulated_s: t_s(cfg.duration_ps),
        stepped_cycles: r.stepped_cycles,
        skipped_cycles: r.skipped_cycles,
    }
}

/// Mean payload throughput of `flow` over samples with `from < t <= to` (seconds), Gb/s.
pub(super) fn mean(r: &RunResult, flow: usize, from: f64, to: f64) -> f64 {
    let v: Vec<f64> = r
        .samples
        .iter()
        .filter(|s| {
            let t = s.t_ps as f64 / PS_PER_S as f64;
            t > from + 1e-12 && t <= to + 1e-12
        })
        .map(|s| s.flows[flow].payload_gbps)
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

/// Mean over the samples of the aggregate payload throughput, Gb/s.
pub(super) fn aggregate(r: &RunResult) -> f64 {
    r.samples
        .iter()
        .map(|s| s.flows.iter().map(|f| f.payload_gbps).sum::<f64>())
        .sum::<f64>()
        / r.samples.len().max(1) as f64
}

/// "PFC pause frames / ECN marks / max queue" over every switch.
pub(super) fn switch_totals(r: &RunResult) -> String {
    let xoff: u64 = r.switches.iter().map(|s| s.xoff_sent).sum();
    let marks: u64 = r.switches.iter().map(|s| s.marks).sum();
    let maxq = r
        .switches
        .iter()
        .map(|s| s.max_queue_bytes)
        .max()
        .unwrap_or(0);
    format!("{xoff} / {marks} / {:.1} KB", maxq as f64 / 1e3)
}

pub(super) fn time_series(r: &RunResult, f: impl Fn(&Sample) -> f64) -> Vec<(f64, f64)> {
    r.samples.iter().map(|s| (t_s(s.t_ps), f(s))).collect()
}

pub(super) fn throughput_panel(cfg: &NetConfig, r: &RunResult, title: &str) -> Panel {
    let mut series: Vec<Series> = cfg
        .flows
        .iter()
        .enumerate()
        .map(|(k, f)| {
            Series::new(
                &f.name,
                PALETTE[k % PALETTE.len()],
                time_series(r, |s| s.flows[k].payload_gbps),
            )
        })
        .collect();
    if cfg.flows.len() <= 3 {
        series.push(
            Series::new(
                "aggregate",
                BLACK,
                time_series(r, |s| s.flows.iter().map(|f| f.payload_gbps).sum()),
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

pub(super) fn queue_panel(r: &RunResult) -> Panel {
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

/// A figure of `panels` titled `<name>: <title>`.
pub(super) fn figure(name: &str, title: &str, panels: Vec<Panel>) -> Figure {
    Figure {
        title: format!("{name}: {title}"),
        width: 1000.0,
        panel_height: 300.0,
        panels,
    }
}

/// Stop times of the flows that stop, in order.
pub(super) fn stops(cfg: &NetConfig) -> Vec<(usize, f64)> {
    let mut v: Vec<(usize, f64)> = cfg
        .flows
        .iter()
        .enumerate()
        .filter_map(|(k, f)| f.stop_ps.map(|t| (k, t_s(t))))
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v
}

/// A stretch between stops and the flows active throughout.
pub(super) struct Phase {
    pub from: f64,
    pub to: f64,
    pub active: Vec<usize>,
}

/// Phases between stops.
pub(super) fn phases(cfg: &NetConfig) -> Vec<Phase> {
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
            Phase {
                from: w[0],
                to: w[1],
                active,
            }
        })
        .collect()
}
