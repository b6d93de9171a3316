//! nscc-incast: seed 004's destination flow control. Seven NSCC senders into one receiver whose
//! memory (its HBM controller) retires payload more slowly than the link delivers it; while the
//! memory queue is above a threshold, the receiver's ACKs carry `rcv_cwnd_pend` = 64 (each ACK
//! takes half its newly received bytes off the sender's window, spec-nscc 6.2 step 2). Not a
//! figure of the paper: the run with the penalty is compared with the same network without it
//! (`rcv_cwnd_pend` = 0), both measured.
//!
//! The network is the default one at 100 Gb/s (UE's scale: seed 004's windows of 75 KB are about
//! one bandwidth-delay product there; at 10 Gb/s seven windows of one MTU each, NSCC's floor,
//! already exceed the link's, and no penalty could slow the flows below it).
//!
//! Measured: per-flow throughput over the second half, Jain's index, the aggregate against the
//! memory's drain rate, the receiver's memory queue and the switch's queue, the time to converge
//! (`converge_s`) and the time until the memory queue is held, the penalised ACKs and the
//! switch counters.

use super::common::{f2, figure, mean, s_to_ps, t_s, time_series};
use super::{jain, row, Experiment, Outcome, Row};
use crate::config::{FlowCfg, NetConfig, Profile};
use crate::csv_out;
use crate::plot::{Panel, Series, BLACK, GREY, PALETTE};
use crate::sim::{Network, RunResult};
use dcqcn_model::{Config, Params};

pub struct NsccIncast;

/// Senders of the default configuration (seed 004's seven flows).
pub const SENDERS: u32 = 7;
/// The link rate of the default configuration.
pub const LINK_BITS_PER_S: u64 = 100_000_000_000;
/// The memory's drain rate: 70 Gb/s of payload, below the link's 98.0.
pub const DRAIN_BITS_PER_S: u64 = 70_000_000_000;
/// The memory queue above which the receiver penalises.
pub const THRESHOLD_BYTES: u64 = 64_000;
/// Seed 004's `rcv_cwnd_pend`.
pub const PEND: u8 = 64;
/// Simulated time and sample interval of the default configuration.
pub const DURATION_S: f64 = 0.05;
pub const SAMPLE_S: f64 = 100e-6;
/// Samples per window of the convergence test and the windowed panels.
pub const WINDOW: usize = 10;
/// A window is fair when Jain's index over its per-flow means is at least this.
pub const JAIN_CONVERGED: f64 = 0.95;
/// ... and steady when its aggregate is within this fraction of the settled aggregate.
pub const AGGREGATE_TOLERANCE: f64 = 0.05;

impl Experiment for NsccIncast {
    fn name(&self) -> &'static str {
        "nscc-incast"
    }

    fn title(&self) -> &'static str {
        "seven NSCC senders into one receiver whose memory is the bottleneck (seed 004)"
    }

    fn reference(&self) -> &'static str {
        "without rcv_cwnd_pend (measured)"
    }

    fn default_config(&self) -> NetConfig {
        let mut c = NetConfig::default_network();
        c.leaves = vec![SENDERS];
        c.link.rate_bits_per_s = LINK_BITS_PER_S;
        c.duration_ps = s_to_ps(DURATION_S);
        c.sample_ps = s_to_ps(SAMPLE_S);
        c.receiver.mem_drain_bits_per_s = Some(DRAIN_BITS_PER_S);
        c.receiver.mem_threshold_bytes = THRESHOLD_BYTES;
        c.receiver.rcv_cwnd_pend = PEND;
        c.flows = (0..SENDERS)
            .map(|k| FlowCfg {
                name: format!("flow_{k}"),
                start_ps: 0,
                stop_ps: None,
                registers: Config::paper_table2(&Params::DEFAULT),
                profile: Profile::Nscc,
            })
            .collect();
        c
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        let mut without = cfg.clone();
        without.receiver.rcv_cwnd_pend = 0;
        let with_r = Network::new(cfg.clone()).run(|d| progress(d / 2.0));
        let without_r = Network::new(without).run(|d| progress(0.5 + d / 2.0));
        let names: Vec<String> = cfg.flows.iter().map(|f| f.name.clone()).collect();
        let pend = format!("pend{}", cfg.receiver.rcv_cwnd_pend);
        let csv = csv_out::side_by_side(&[(&pend, &names, &with_r), ("pend0", &names, &without_r)]);
        let rows = compare(cfg, &with_r, &without_r);
        let panels = vec![
            flows_panel(
                cfg,
                &with_r,
                &format!("rcv_cwnd_pend {}", cfg.receiver.rcv_cwnd_pend),
            ),
            flows_panel(cfg, &without_r, "rcv_cwnd_pend 0"),
            memory_kb_panel(cfg, &with_r),
            memory_panel(cfg, &with_r, &without_r),
            switch_panel(&with_r, &without_r),
            cwnd_panel(cfg, &with_r),
        ];
        Outcome {
            csv,
            rows,
            figure: figure(self.name(), self.title(), panels),
            simulated_s: 2.0 * t_s(cfg.duration_ps),
            stepped_cycles: with_r.stepped_cycles + without_r.stepped_cycles,
            skipped_cycles: with_r.skipped_cycles + without_r.skipped_cycles,
        }
    }
}

/// Per-window (of [`WINDOW`] samples with `from < t <= to`) per-flow means of `flows`: (start of
/// the window, its end, the means).
pub(super) fn windows(
    r: &RunResult,
    flows: &[usize],
    from: f64,
    to: f64,
) -> Vec<(f64, f64, Vec<f64>)> {
    let s: Vec<_> = r
        .samples
        .iter()
        .filter(|s| t_s(s.t_ps) > from + 1e-12 && t_s(s.t_ps) <= to + 1e-12)
        .collect();
    // The sample interval: the first sample ends it.
    let dt = r.samples.first().map_or(0.0, |f| t_s(f.t_ps));
    s.chunks(WINDOW)
        .filter(|w| w.len() == WINDOW)
        .map(|w| {
            let v = flows
                .iter()
                .map(|&f| w.iter().map(|s| s.flows[f].payload_gbps).sum::<f64>() / WINDOW as f64)
                .collect();
            (t_s(w[0].t_ps) - dt, t_s(w[WINDOW - 1].t_ps), v)
        })
        .collect()
}

/// Time to converge, seconds after `from`: a window of [`WINDOW`] samples (with `from < t <= to`)
/// is converged when it is fair (Jain's index over `flows` at least [`JAIN_CONVERGED`]) and
/// steady (aggregate within [`AGGREGATE_TOLERANCE`] of the mean aggregate of the second half of
/// the windows). Returns the start of the first converged window, and the start of the first
/// window from which every window up to `to` is converged (`None`: none is; the last is not).
pub(super) fn converge_s(
    r: &RunResult,
    flows: &[usize],
    from: f64,
    to: f64,
) -> (Option<f64>, Option<f64>) {
    let w = windows(r, flows, from, to);
    if w.is_empty() {
        return (None, None);
    }
    let agg: Vec<f64> = w.iter().map(|(_, _, v)| v.iter().sum()).collect();
    let late = &agg[agg.len() / 2..];
    let settled = late.iter().sum::<f64>() / late.len() as f64;
    let ok = |k: usize| {
        jain(&w[k].2) >= JAIN_CONVERGED && (agg[k] - settled).abs() <= AGGREGATE_TOLERANCE * settled
    };
    let first = (0..w.len()).find(|&k| ok(k));
    let mut stays = None;
    for k in (0..w.len()).rev() {
        if !ok(k) {
            break;
        }
        stays = Some(k);
    }
    let at = |k: usize| w[k].0 - from;
    (first.map(at), stays.map(at))
}

/// "first / for good" of [`converge_s`], in ms.
pub(super) fn converge_text(c: (Option<f64>, Option<f64>)) -> String {
    let ms = |t: Option<f64>| t.map_or("never".into(), |t| format!("{:.1} ms", t * 1e3));
    format!("{} / {}", ms(c.0), ms(c.1))
}

/// Time until the memory queue is held, seconds: the start of the first window of [`WINDOW`]
/// samples from which every window's mean queue is below twice the threshold. `None`: the last
/// window's is not.
pub(super) fn memory_held_s(cfg: &NetConfig, r: &RunResult) -> Option<f64> {
    let bound = 2.0 * cfg.receiver.mem_threshold_bytes as f64;
    let dt = t_s(cfg.sample_ps);
    let w: Vec<(f64, f64)> = r
        .nscc
        .chunks(WINDOW)
        .filter(|w| w.len() == WINDOW)
        .map(|w| {
            let m = w.iter().map(|s| s.receiver_mem_bytes as f64).sum::<f64>() / WINDOW as f64;
            (t_s(w[0].t_ps) - dt, m)
        })
        .collect();
    let mut first = None;
    for &(t, m) in w.iter().rev() {
        if m >= bound {
            break;
        }
        first = Some(t);
    }
    first
}

/// Mean and peak of the receiver's memory queue over samples with `from < t`, bytes.
fn memory(r: &RunResult, from: f64) -> (f64, u64) {
    let v: Vec<u64> = r
        .nscc
        .iter()
        .filter(|s| t_s(s.t_ps) > from)
        .map(|s| s.receiver_mem_bytes)
        .collect();
    (
        v.iter().sum::<u64>() as f64 / v.len().max(1) as f64,
        r.receiver_mem_max_bytes,
    )
}

/// Mean of switch 0's queue over samples with `from < t`, bytes.
pub(super) fn queue_mean(r: &RunResult, from: f64, to: f64) -> f64 {
    let v: Vec<u64> = r
        .samples
        .iter()
        .filter(|s| t_s(s.t_ps) > from && t_s(s.t_ps) <= to + 1e-12)
        .map(|s| s.switches[0].queue_bytes)
        .collect();
    v.iter().sum::<u64>() as f64 / v.len().max(1) as f64
}

fn kb(bytes: f64) -> String {
    format!("{:.1}", bytes / 1e3)
}

/// The rows: each quantity of the run with the penalty, and the same of the run without.
fn compare(cfg: &NetConfig, a: &RunResult, b: &RunResult) -> Vec<Row> {
    let end = t_s(cfg.duration_ps);
    let mid = end / 2.0;
    let flows: Vec<usize> = (0..cfg.flows.len()).collect();
    let per = |r: &RunResult| -> Vec<f64> { flows.iter().map(|&f| mean(r, f, mid, end)).collect() };
    let whole =
        |r: &RunResult| -> Vec<f64> { flows.iter().map(|&f| mean(r, f, 0.0, end)).collect() };
    let (pa, pb) = (per(a), per(b));
    let join = |v: &[f64]| v.iter().map(|x| f2(*x)).collect::<Vec<_>>().join(" / ");
    let spread = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        format!(
            "{:.3} / {:.3} / {:.3}",
            lo,
            v.iter().sum::<f64>() / v.len() as f64,
            hi
        )
    };
    let drain = cfg.receiver.mem_drain_bits_per_s.unwrap_or(0) as f64 / 1e9;
    let (ma, mb) = (memory(a, mid), memory(b, mid));
    let mem_end = |r: &RunResult| r.nscc.last().map_or(0, |s| s.receiver_mem_bytes) as f64;
    let conv = |r: &RunResult| converge_text(converge_s(r, &flows, 0.0, end));
    let held = |r: &RunResult| {
        memory_held_s(cfg, r).map_or("never".into(), |t| format!("{:.1} ms", t * 1e3))
    };
    let acks = |r: &RunResult| r.nscc.iter().map(|s| s.penalised_acks).sum::<u64>();
    let frames = |r: &RunResult| r.flow_frames.iter().sum::<u64>();
    let cwnd = |r: &RunResult| {
        r.nscc.last().map_or(String::new(), |s| {
            let lo = s.cwnd_bytes.iter().min().copied().unwrap_or(0);
            let hi = s.cwnd_bytes.iter().max().copied().unwrap_or(0);
            format!("{} / {}", kb(f64::from(lo)), kb(f64::from(hi)))
        })
    };
    let sw = |r: &RunResult| {
        let s = &r.switches[0];
        format!("{} / {} / {}", s.xoff_sent, s.marks, r.drops())
    };
    let w = WINDOW as f64 * t_s(cfg.sample_ps) * 1e3;
    vec![
        row(
            &format!("per-flow throughput, {mid:.3}-{end:.3} s (Gb/s)"),
            join(&pa),
            &join(&pb),
        ),
        row(
            &format!("per-flow throughput, {mid:.3}-{end:.3} s: min / mean / max (Gb/s)"),
            spread(&pa),
            &spread(&pb),
        ),
        row(
            &format!("Jain's index over the {} flows, {mid:.3}-{end:.3} s", flows.len()),
            format!("{:.4}", jain(&pa)),
            &format!("{:.4}", jain(&pb)),
        ),
        row(
            &format!("Jain's index over the {} flows, whole run", flows.len()),
            format!("{:.4}", jain(&whole(a))),
            &format!("{:.4}", jain(&whole(b))),
        ),
        row(
            &format!(
                "aggregate throughput, {mid:.3}-{end:.3} s (Gb/s; the memory drains {drain:.2})"
            ),
            f2(pa.iter().sum()),
            &f2(pb.iter().sum()),
        ),
        row(
            &format!(
                "receiver memory queue: peak / mean {mid:.3}-{end:.3} s / at the end (KB; threshold {})",
                kb(cfg.receiver.mem_threshold_bytes as f64)
            ),
            format!("{} / {} / {}", kb(ma.1 as f64), kb(ma.0), kb(mem_end(a))),
            &format!("{} / {} / {}", kb(mb.1 as f64), kb(mb.0), kb(mem_end(b))),
        ),
        row(
            &format!("switch queue: peak / mean {mid:.3}-{end:.3} s (KB)"),
            format!(
                "{} / {}",
                kb(a.switches[0].max_queue_bytes as f64),
                kb(queue_mean(a, mid, end))
            ),
            &format!(
                "{} / {}",
                kb(b.switches[0].max_queue_bytes as f64),
                kb(queue_mean(b, mid, end))
            ),
        ),
        row(
            &format!(
                "time to converge, first / for good ({w:.1} ms windows: Jain >= {JAIN_CONVERGED}, aggregate within {:.0} % of settled)",
                AGGREGATE_TOLERANCE * 100.0
            ),
            conv(a),
            &conv(b),
        ),
        row(
            &format!(
                "time until the memory queue is held ({w:.1} ms window means below twice the threshold, to the end)"
            ),
            held(a),
            &held(b),
        ),
        row(
            "each flow's window at the end: min / max (KB)",
            cwnd(a),
            &cwnd(b),
        ),
        row(
            "ACKs with rcv_cwnd_pend > 0 / frames delivered",
            format!("{} / {}", acks(a), frames(a)),
            &format!("{} / {}", acks(b), frames(b)),
        ),
        row("PFC pause frames / ECN marks / drops", sw(a), &sw(b)),
    ]
}

pub(super) fn flows_panel(cfg: &NetConfig, r: &RunResult, label: &str) -> Panel {
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
    series.push(
        Series::new(
            "aggregate",
            BLACK,
            time_series(r, |s| s.flows.iter().map(|f| f.payload_gbps).sum()),
        )
        .dashed(),
    );
    let mut hlines = Vec::new();
    if let Some(d) = cfg.receiver.mem_drain_bits_per_s {
        hlines.push((d as f64 / 1e9, GREY, "memory drain rate".to_string()));
    }
    let link_gbps = cfg.link.uplink().rate_bits_per_s as f64 / 1e9;
    Panel {
        title: format!("per-flow payload throughput at the receiver, {label}"),
        xlabel: "time (s)".into(),
        ylabel: "throughput (Gb/s)".into(),
        series,
        hlines,
        y_range: Some((0.0, 1.05 * link_gbps)),
        ..Panel::default()
    }
}

fn memory_panel(cfg: &NetConfig, a: &RunResult, b: &RunResult) -> Panel {
    let pts = |r: &RunResult| -> Vec<(f64, f64)> {
        r.nscc
            .iter()
            .map(|s| (t_s(s.t_ps), s.receiver_mem_bytes as f64 / 1e6))
            .collect()
    };
    Panel {
        title: "receiver memory queue (sampled)".into(),
        xlabel: "time (s)".into(),
        ylabel: "queue (MB)".into(),
        series: vec![
            Series::new(
                &format!("rcv_cwnd_pend {}", cfg.receiver.rcv_cwnd_pend),
                PALETTE[0],
                pts(a),
            ),
            Series::new("rcv_cwnd_pend 0", PALETTE[3], pts(b)),
        ],
        hlines: vec![(
            cfg.receiver.mem_threshold_bytes as f64 / 1e6,
            GREY,
            "threshold".to_string(),
        )],
        ..Panel::default()
    }
}

/// The memory queue of the run with the penalty alone, in KB (beside the other it is a flat line).
fn memory_kb_panel(cfg: &NetConfig, r: &RunResult) -> Panel {
    let pts = r
        .nscc
        .iter()
        .map(|s| (t_s(s.t_ps), s.receiver_mem_bytes as f64 / 1e3))
        .collect();
    Panel {
        title: format!(
            "receiver memory queue with rcv_cwnd_pend {} (sampled)",
            cfg.receiver.rcv_cwnd_pend
        ),
        xlabel: "time (s)".into(),
        ylabel: "queue (KB)".into(),
        series: vec![Series::new("memory queue", PALETTE[0], pts)],
        hlines: vec![(
            cfg.receiver.mem_threshold_bytes as f64 / 1e3,
            GREY,
            "threshold".to_string(),
        )],
        ..Panel::default()
    }
}

fn switch_panel(a: &RunResult, b: &RunResult) -> Panel {
    let q = |r: &RunResult| time_series(r, |s| s.switches[0].queue_bytes as f64 / 1e3);
    Panel {
        title: "switch uplink queue (sampled)".into(),
        xlabel: "time (s)".into(),
        ylabel: "queue (KB)".into(),
        series: vec![
            Series::new("with rcv_cwnd_pend", PALETTE[0], q(a)),
            Series::new("rcv_cwnd_pend 0", PALETTE[3], q(b)),
        ],
        ..Panel::default()
    }
}

pub(super) fn cwnd_panel(cfg: &NetConfig, r: &RunResult) -> Panel {
    let series = cfg
        .flows
        .iter()
        .enumerate()
        .map(|(k, f)| {
            Series::new(
                &f.name,
                PALETTE[k % PALETTE.len()],
                r.nscc
                    .iter()
                    .map(|s| (t_s(s.t_ps), f64::from(s.cwnd_bytes[k]) / 1e3))
                    .collect(),
            )
        })
        .collect();
    Panel {
        title: "NSCC window per flow (sampled)".into(),
        xlabel: "time (s)".into(),
        ylabel: "cwnd (KB)".into(),
        series,
        ..Panel::default()
    }
}
