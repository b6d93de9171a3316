//! mq-incast: 64 QPs on 4 NICs (16 each) into one receiver. Each NIC is one port driven by the
//! multi-QP block (`profile = "mq"`, [`crate::nic`]); the four ports meet at one switch whose
//! uplink to the receiver is the bottleneck. Not a figure of the paper: the table compares each
//! value with what an ideal fair share would give.
//!
//! Measured: per-QP throughput over the second half of the run (min, mean, max and its heat map),
//! Jain's index over the QPs, per-NIC throughput, the bottleneck queue over time (peak and mean)
//! and the CNPs and PFC frames it took.

use super::common::{f2, figure, mean, on_network, queue_panel, s_to_ps, t_s, time_series, P};
use super::{jain, row, Experiment, Outcome, Row};
use crate::config::{nic_flow_name, FlowCfg, NetConfig, Profile};
use crate::plot::{Figure, Heatmap, Panel, Series, BLACK, GREY, PALETTE};
use crate::sim::RunResult;
use dcqcn_model::Config;

pub struct MqIncast;

/// NICs and QPs per NIC of the default configuration.
pub const NICS: u32 = 4;
pub const QPS: u32 = 16;
/// Simulated time of the default configuration: the rates settle by 0.2 s, and the run takes
/// about 40 CPU seconds (docs/paper-reproduction.md, mq-incast).
pub const DURATION_S: f64 = 0.4;
/// Samples per window of the time panels (1 ms samples: 10 ms windows).
const WINDOW: usize = 10;

impl Experiment for MqIncast {
    fn name(&self) -> &'static str {
        "mq-incast"
    }

    fn title(&self) -> &'static str {
        "64 QPs on 4 NICs (16 each) into one receiver"
    }

    fn reference(&self) -> &'static str {
        "ideal"
    }

    fn default_config(&self) -> NetConfig {
        let mut c = NetConfig::default_network();
        c.leaves = vec![NICS];
        c.sender.qps = QPS;
        c.duration_ps = s_to_ps(DURATION_S);
        // The block runs its own reset registers (spec-mq 6.2); the flows' single-flow registers
        // are unused by a NIC and kept at Table II.
        c.flows = (0..NICS * QPS)
            .map(|k| FlowCfg {
                name: nic_flow_name((k / QPS) as usize, (k % QPS) as usize),
                start_ps: 0,
                stop_ps: None,
                registers: Config::paper_table2(&P),
                profile: Profile::Mq,
            })
            .collect();
        c
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        on_network(cfg, progress, |r| {
            analyse(self.name(), self.title(), cfg, r)
        })
    }
}

/// The aggregate payload rate of a saturated bottleneck: the uplink rate times the payload's
/// share of a frame's wire time, Gb/s.
fn line_payload_gbps(cfg: &NetConfig) -> f64 {
    let f = &cfg.frame;
    cfg.link.uplink().rate_bits_per_s as f64 / 1e9 * f64::from(f.payload_bytes)
        / f64::from(f.wire_bytes())
}

/// The measurements of an mq-incast run: per-QP means over the second half, and the figure.
pub(super) fn analyse(
    name: &str,
    title: &str,
    cfg: &NetConfig,
    r: &RunResult,
) -> (Vec<Row>, Figure) {
    let end = t_s(cfg.duration_ps);
    let mid = end / 2.0;
    let flows = cfg.flows.len();
    let nics = cfg.senders();
    let qps = cfg.flows_per_sender();
    let per_qp: Vec<f64> = (0..flows).map(|f| mean(r, f, mid, end)).collect();
    let whole: Vec<f64> = (0..flows).map(|f| mean(r, f, 0.0, end)).collect();
    let line = line_payload_gbps(cfg);
    let fair = line / flows as f64;
    let (lo, hi) = per_qp
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    let total: f64 = per_qp.iter().sum();
    let per_nic: Vec<f64> = per_qp.chunks(qps).map(|c| c.iter().sum()).collect();
    let mut rows = vec![
        row(
            &format!("per-QP throughput, {mid:.3}-{end:.3} s: min / mean / max (Gb/s)"),
            format!("{} / {} / {}", f3(lo), f3(total / flows as f64), f3(hi)),
            &format!("{} each (the link's payload rate / {flows})", f3(fair)),
        ),
        row(
            &format!("Jain's index over the {flows} QPs, {mid:.3}-{end:.3} s"),
            format!("{:.4}", jain(&per_qp)),
            "1 (equal shares)",
        ),
        row(
            &format!("Jain's index over the {flows} QPs, whole run"),
            format!("{:.4}", jain(&whole)),
            "1",
        ),
        row(
            &format!("per-NIC throughput, {mid:.3}-{end:.3} s (Gb/s)"),
            per_nic
                .iter()
                .map(|x| f2(*x))
                .collect::<Vec<_>>()
                .join(" / "),
            &format!("{} each", f2(line / nics as f64)),
        ),
        row(
            &format!("aggregate throughput, {mid:.3}-{end:.3} s (Gb/s)"),
            f2(total),
            &format!(
                "{} (the link at {}-byte payloads)",
                f2(line),
                cfg.frame.payload_bytes
            ),
        ),
    ];
    let queue_kb: Vec<f64> = r
        .samples
        .iter()
        .map(|s| s.switches[0].queue_bytes as f64 / 1e3)
        .collect();
    let qmean = queue_kb.iter().sum::<f64>() / queue_kb.len().max(1) as f64;
    let qmean_late = {
        let late: Vec<f64> = r
            .samples
            .iter()
            .filter(|s| t_s(s.t_ps) > mid)
            .map(|s| s.switches[0].queue_bytes as f64 / 1e3)
            .collect();
        late.iter().sum::<f64>() / late.len().max(1) as f64
    };
    let sw = &r.switches[0];
    rows.push(row(
        "bottleneck queue: peak / mean over the samples / mean over the second half (KB)",
        format!(
            "{:.1} / {:.1} / {:.1}",
            sw.max_queue_bytes as f64 / 1e3,
            qmean,
            qmean_late
        ),
        &format!(
            "below Kmax {:.0} KB (RED from Kmin {:.0} KB)",
            cfg.switch.kmax_bytes as f64 / 1e3,
            cfg.switch.kmin_bytes as f64 / 1e3
        ),
    ));
    let cnps: u64 = r.flow_cnps.iter().sum();
    let (cmin, cmax) = (
        r.flow_cnps.iter().min().copied().unwrap_or(0),
        r.flow_cnps.iter().max().copied().unwrap_or(0),
    );
    rows.push(row(
        "CNPs to the NICs: total (per QP min / max)",
        format!("{cnps} ({cmin} / {cmax})"),
        "not applicable",
    ));
    let last = r.samples.last();
    let rc: Vec<f64> = last.map_or(Vec::new(), |s| {
        s.flows
            .iter()
            .map(|f| crate::sim::register_gbps(f.rc_bytes_per_s))
            .collect()
    });
    let (rlo, rhi) = rc
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    rows.push(row(
        "each QP's Rc at the end (the block's record): min / max (Gb/s)",
        format!("{} / {}", f3(rlo.min(rhi)), f3(rhi)),
        &format!("{} (the fair share on the stream)", f3(fair)),
    ));
    rows.push(row("drops", r.drops().to_string(), "0"));
    rows.push(row(
        "PFC pause frames / ECN marks",
        format!("{} / {}", sw.xoff_sent, sw.marks),
        "not applicable",
    ));
    let panels = vec![
        heat_panel(cfg, &per_qp, fair, mid, end),
        nic_panel(cfg, r, line),
        spread_panel(r, fair),
        jain_panel(r),
        queue_panel(r),
    ];
    (rows, figure(name, title, panels))
}

fn f3(v: f64) -> String {
    format!("{v:.3}")
}

/// Per-QP mean throughput, one row per NIC.
fn heat_panel(cfg: &NetConfig, per_qp: &[f64], fair: f64, from: f64, to: f64) -> Panel {
    let qps = cfg.flows_per_sender();
    let h = Heatmap {
        x_labels: (0..qps).map(|q| q.to_string()).collect(),
        y_labels: (0..cfg.senders()).map(|n| format!("NIC {n}")).collect(),
        values: per_qp
            .chunks(qps)
            .map(|c| c.iter().map(|&v| Some(v)).collect())
            .collect(),
        range: (0.0, 2.0 * fair),
        decimals: 3,
    };
    Panel {
        title: format!("per-QP payload throughput, mean over {from:.3}-{to:.3} s (Gb/s)"),
        xlabel: "QP".into(),
        ylabel: "NIC".into(),
        heatmap: Some(h),
        ..Panel::default()
    }
}

/// Means over consecutive windows of [`WINDOW`] samples: (end time, value per flow).
fn windows(r: &RunResult) -> Vec<(f64, Vec<f64>)> {
    r.samples
        .chunks(WINDOW)
        .map(|w| {
            let t = t_s(w[w.len() - 1].t_ps);
            let n = w[0].flows.len();
            let v = (0..n)
                .map(|f| w.iter().map(|s| s.flows[f].payload_gbps).sum::<f64>() / w.len() as f64)
                .collect();
            (t, v)
        })
        .collect()
}

/// Per-NIC throughput at the receiver (each NIC's QPs summed), per sample.
fn nic_panel(cfg: &NetConfig, r: &RunResult, line: f64) -> Panel {
    let qps = cfg.flows_per_sender();
    let series = (0..cfg.senders())
        .map(|n| {
            Series::new(
                &format!("NIC {n}"),
                PALETTE[n % PALETTE.len()],
                time_series(r, |s| {
                    s.flows[n * qps..(n + 1) * qps]
                        .iter()
                        .map(|f| f.payload_gbps)
                        .sum()
                }),
            )
        })
        .collect();
    Panel {
        title: "per-NIC payload throughput at the receiver (each NIC's QPs summed)".into(),
        xlabel: "time (s)".into(),
        ylabel: "throughput (Gb/s)".into(),
        series,
        hlines: vec![(line / cfg.senders() as f64, GREY, "equal share".to_string())],
        y_range: Some((0.0, 10.5)),
        ..Panel::default()
    }
}

/// The spread of the per-QP throughput over 10-sample windows: min, mean, max.
fn spread_panel(r: &RunResult, fair: f64) -> Panel {
    let w = windows(r);
    let stat = |f: fn(&[f64]) -> f64| w.iter().map(|(t, v)| (*t, f(v))).collect::<Vec<_>>();
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let avg = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    Panel {
        title: format!("per-QP payload throughput over {WINDOW}-sample windows: min, mean, max"),
        xlabel: "time (s)".into(),
        ylabel: "throughput (Gb/s)".into(),
        series: vec![
            Series::new("max", PALETTE[3], stat(max)),
            Series::new("mean", BLACK, stat(avg)),
            Series::new("min", PALETTE[0], stat(min)),
        ],
        hlines: vec![(fair, GREY, "fair share".to_string())],
        ..Panel::default()
    }
}

/// Jain's index over the QPs per 10-sample window.
fn jain_panel(r: &RunResult) -> Panel {
    let pts = windows(r).iter().map(|(t, v)| (*t, jain(v))).collect();
    Panel {
        title: format!("Jain's index over the QPs, per {WINDOW}-sample window"),
        xlabel: "time (s)".into(),
        ylabel: "Jain's index".into(),
        series: vec![Series::new("Jain's index", PALETTE[2], pts)],
        y_range: Some((0.0, 1.05)),
        ..Panel::default()
    }
}
