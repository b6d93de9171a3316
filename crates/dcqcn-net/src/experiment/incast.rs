//! The three-sender incast of fig12 (DCQCN) and fig11 (bypassed): flows stop one after another;
//! per phase the plateau of each survivor and their fairness, the time to redistribute after each
//! stop, the aggregate and the switch counters.

use super::common::{
    aggregate, f2, figure, flow, jain, mean, phases, queue_panel, s_to_ps, stops, switch_totals,
    t_s, throughput_panel,
};
use super::{row, Row};
use crate::config::NetConfig;
use crate::plot::{self, Figure};
use crate::sim::RunResult;
use dcqcn_model::Config;

/// flow_a stops at 0.4 s, flow_b at 0.8 s, flow_c runs the whole 1.2 s; all with `registers`.
pub(super) fn config(registers: Config) -> NetConfig {
    let mut c = NetConfig::default_network();
    c.leaves = vec![3];
    c.duration_ps = s_to_ps(1.2);
    c.flows = vec![
        flow("flow_a", registers, Some(0.4)),
        flow("flow_b", registers, Some(0.8)),
        flow("flow_c", registers, None),
    ];
    c
}

/// What the paper says beside each measured row.
pub(super) struct Paper {
    /// The plateau of the k-th phase.
    pub plateau: fn(usize) -> &'static str,
    pub jain: &'static str,
    pub redistribute: &'static str,
    pub settled_aggregate: &'static str,
    pub aggregate: &'static str,
    /// Add the spread of each flow's per-sample throughput in the first phase.
    pub burstiness: bool,
}

pub(super) fn analyse(
    name: &str,
    title: &str,
    paper: &Paper,
    cfg: &NetConfig,
    r: &RunResult,
) -> (Vec<Row>, Figure) {
    let mut rows = Vec::new();
    let ph = phases(cfg);
    let mut plateaus = Vec::new();
    for (k, p) in ph.iter().enumerate() {
        let mid = (p.from + p.to) / 2.0;
        let v: Vec<f64> = p.active.iter().map(|&f| mean(r, f, mid, p.to)).collect();
        let names: Vec<&str> = p
            .active
            .iter()
            .map(|&f| cfg.flows[f].name.as_str())
            .collect();
        rows.push(row(
            &format!(
                "{} throughput, {:.2}-{:.2} s (Gb/s)",
                names.join(" / "),
                mid,
                p.to
            ),
            v.iter().map(|x| f2(*x)).collect::<Vec<_>>().join(" / "),
            (paper.plateau)(k),
        ));
        if p.active.len() > 1 {
            rows.push(row(
                &format!("Jain's index, {} flows", p.active.len()),
                format!("{:.4}", jain(&v)),
                paper.jain,
            ));
        }
        plateaus.push((p.active.clone(), v));
    }
    if paper.burstiness {
        // Burstiness: spread of each flow's 1-sample throughput in the first phase.
        if let Some(p) = ph.first() {
            let sd: Vec<String> = p
                .active
                .iter()
                .map(|&f| {
                    let xs: Vec<f64> = r
                        .samples
                        .iter()
                        .filter(|s| t_s(s.t_ps) > p.from && t_s(s.t_ps) <= p.to)
                        .map(|s| s.flows[f].payload_gbps)
                        .collect();
                    let m = xs.iter().sum::<f64>() / xs.len().max(1) as f64;
                    let v =
                        xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len().max(1) as f64;
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
            .find(|s| act.iter().map(|&f| s.flows[f].payload_gbps).sum::<f64>() >= target)
            .map(|s| t_s(s.t_ps) - stop);
        rows.push(row(
            &format!("time to redistribute after the stop at {stop:.2} s (survivors reach 95 % of their plateau)"),
            reached.map_or("not reached".into(), |d| format!("{:.1} ms", d * 1e3)),
            paper.redistribute,
        ));
    }
    let plateau_sum: f64 = ph
        .iter()
        .map(|p| {
            let mid = (p.from + p.to) / 2.0;
            p.active.iter().map(|&f| mean(r, f, mid, p.to)).sum::<f64>() * (p.to - mid)
        })
        .sum::<f64>()
        / ph.iter().map(|p| (p.to - p.from) / 2.0).sum::<f64>();
    rows.push(row(
        "aggregate throughput over the second half of each phase (Gb/s)",
        f2(plateau_sum),
        paper.settled_aggregate,
    ));
    rows.push(row(
        "aggregate throughput, whole run (Gb/s)",
        f2(aggregate(r)),
        paper.aggregate,
    ));
    rows.push(row("drops", r.drops().to_string(), "0"));
    rows.push(row(
        "PFC pause frames / ECN marks / max queue",
        switch_totals(r),
        "not reported",
    ));
    let mut p = throughput_panel(cfg, r, "per-flow payload throughput at the receiver");
    for (_, t) in stops(cfg) {
        p.vlines.push((t, plot::GREY));
    }
    (rows, figure(name, title, vec![p, queue_panel(r)]))
}
