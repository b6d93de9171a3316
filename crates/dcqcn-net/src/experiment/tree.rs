//! The 8-sender two-tier tree of fig4 (PFC only) and fig5 (PFC + DCQCN): leaves of 2, 4 and 2
//! senders under a root switch; per-sender means over the second half of the run, by leaf.

use super::common::{f2, figure, flow, jain, mean, s_to_ps, switch_totals, t_s, throughput_panel};
use super::{row, Row};
use crate::config::NetConfig;
use crate::plot::{Bar, Figure, Panel, PALETTE};
use crate::sim::RunResult;
use dcqcn_model::Config;

/// Nodes 5-12 on leaves of 2, 4 and 2 senders, all with `registers`, for `duration_s`.
pub(super) fn config(registers: Config, ecn: bool, duration_s: f64) -> NetConfig {
    let mut c = NetConfig::default_network();
    c.switch.ecn = ecn;
    c.leaves = vec![2, 4, 2];
    c.duration_ps = s_to_ps(duration_s);
    c.flows = (5..=12)
        .map(|node| flow(&format!("node{node}"), registers, None))
        .collect();
    c
}

/// The per-sender means of a run.
pub(super) struct Means {
    /// The window: the second half of the run (seconds).
    pub half: f64,
    pub end: f64,
    /// Per sender, Gb/s.
    pub all: Vec<f64>,
    /// Mean of the senders on the smaller leaves and on the most crowded leaf.
    pub small: f64,
    pub crowded: f64,
}

/// What the paper says beside each measured row.
pub(super) struct Paper {
    /// The first rows, from the means.
    pub head: fn(&Means) -> Vec<Row>,
    pub per_sender: &'static str,
    pub jain: &'static str,
    /// The paper's throughput of a sender on a crowded leaf (true) or a smaller one, dashed on
    /// the bars.
    pub reference: fn(bool) -> f64,
}

pub(super) fn analyse(
    name: &str,
    title: &str,
    paper: &Paper,
    cfg: &NetConfig,
    r: &RunResult,
) -> (Vec<Row>, Figure) {
    let end = t_s(cfg.duration_ps);
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
    let means = Means {
        half,
        end,
        small: group(&|l| !crowded(l)),
        crowded: group(&|l| crowded(l)),
        all: v,
    };
    let v = &means.all;
    let mut rows = (paper.head)(&means);
    rows.push(row(
        "per sender (Gb/s), nodes 5-12",
        v.iter().map(|x| f2(*x)).collect::<Vec<_>>().join(" "),
        paper.per_sender,
    ));
    rows.push(row("Jain's index", format!("{:.4}", jain(v)), paper.jain));
    rows.push(row(
        "aggregate (Gb/s)",
        f2(v.iter().sum()),
        "tracks the receiver link",
    ));
    rows.push(row("drops", r.drops().to_string(), "0"));
    rows.push(row(
        "PFC pause frames / ECN marks / max queue",
        switch_totals(r),
        "not reported",
    ));
    let bars = v
        .iter()
        .enumerate()
        .map(|(k, &x)| Bar {
            label: cfg.flows[k].name.trim_start_matches("node").to_string(),
            value: x,
            color: PALETTE[leaf_of[k] % PALETTE.len()],
            reference: Some((paper.reference)(crowded(leaf_of[k]))),
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
    (rows, figure(name, title, vec![p1, p2]))
}
