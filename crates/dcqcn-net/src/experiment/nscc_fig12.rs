//! nscc-fig12: fig12's three-sender incast (flow_a stops at 0.4 s, flow_b at 0.8 s, flow_c runs
//! the whole 1.2 s) with NSCC senders (profile `nscc`) in place of DCQCN's, beside the same
//! network with DCQCN senders (our block, Table II: fig12 itself). Both runs are measured here;
//! the table's third column is the DCQCN run.
//!
//! Measured as fig12 is (per-phase plateaus, Jain's index, the time to redistribute after each
//! stop, aggregates, switch counters), plus the time to converge in each phase
//! (`nscc_incast::converge_s`) and the queue's mean per phase.

use super::common::{f2, figure, phases, queue_panel, stops, t_s, P};
use super::incast::{self, Paper};
use super::nscc_incast::{
    converge_s, converge_text, cwnd_panel, flows_panel, queue_mean, JAIN_CONVERGED,
};
use super::{row, Experiment, Outcome, Row};
use crate::config::{NetConfig, Profile};
use crate::csv_out;
use crate::plot::{self, Panel};
use crate::sim::{Network, RunResult};
use dcqcn_model::Config;

pub struct NsccFig12;

/// incast::analyse's third column is unused here: the DCQCN run's measured rows replace it.
const NONE: Paper = Paper {
    plateau: |_| "",
    jain: "",
    redistribute: "",
    settled_aggregate: "",
    aggregate: "",
    burstiness: false,
};

impl Experiment for NsccFig12 {
    fn name(&self) -> &'static str {
        "nscc-fig12"
    }

    fn title(&self) -> &'static str {
        "fig12's three-sender incast, NSCC senders beside DCQCN ones (Table II)"
    }

    fn reference(&self) -> &'static str {
        "DCQCN (fig12's network, measured)"
    }

    fn default_config(&self) -> NetConfig {
        let mut c = incast::config(Config::paper_table2(&P));
        for f in &mut c.flows {
            f.profile = Profile::Nscc;
        }
        c
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        let mut dcqcn = cfg.clone();
        for f in &mut dcqcn.flows {
            f.profile = Profile::Ours;
        }
        let (a, b) = run_pair(cfg, &dcqcn, progress);
        let names: Vec<String> = cfg.flows.iter().map(|f| f.name.clone()).collect();
        let csv = csv_out::side_by_side(&[("nscc", &names, &a), ("dcqcn", &names, &b)]);
        let rows = compare(self.name(), self.title(), cfg, &a, &b);
        let with_stops = |mut p: Panel| {
            for (_, t) in stops(cfg) {
                p.vlines.push((t, plot::GREY));
            }
            p
        };
        let mut qa = queue_panel(&a);
        qa.title = "switch uplink queue, NSCC (sampled)".into();
        let mut qb = queue_panel(&b);
        qb.title = "switch uplink queue, DCQCN (sampled)".into();
        let panels = vec![
            with_stops(flows_panel(cfg, &a, "NSCC")),
            with_stops(flows_panel(&dcqcn, &b, "DCQCN (Table II)")),
            qa,
            qb,
            with_stops(cwnd_panel(cfg, &a)),
        ];
        Outcome {
            csv,
            rows,
            figure: figure(self.name(), self.title(), panels),
            simulated_s: 2.0 * t_s(cfg.duration_ps),
            stepped_cycles: a.stepped_cycles + b.stepped_cycles,
            skipped_cycles: a.skipped_cycles + b.skipped_cycles,
        }
    }
}

/// fig12's rows of both runs side by side, then convergence and queue means per phase.
fn compare(name: &str, title: &str, cfg: &NetConfig, a: &RunResult, b: &RunResult) -> Vec<Row> {
    let (ra, _) = incast::analyse(name, title, &NONE, cfg, a);
    let (rb, _) = incast::analyse(name, title, &NONE, cfg, b);
    let mut rows: Vec<Row> = ra
        .into_iter()
        .zip(rb)
        .map(|(x, y)| row(&x.quantity, x.measured, &y.measured))
        .collect();
    for p in phases(cfg) {
        let conv = |r: &RunResult| converge_text(converge_s(r, &p.active, p.from, p.to));
        rows.push(row(
            &format!(
                "time to converge, {:.2}-{:.2} s, {} flows, first / for good (10-sample windows: Jain >= {JAIN_CONVERGED}, aggregate within 5 % of settled)",
                p.from,
                p.to,
                p.active.len()
            ),
            conv(a),
            &conv(b),
        ));
        let mid = (p.from + p.to) / 2.0;
        rows.push(row(
            &format!("switch queue mean, {mid:.2}-{:.2} s (KB)", p.to),
            f2(queue_mean(a, mid, p.to) / 1e3),
            &f2(queue_mean(b, mid, p.to) / 1e3),
        ));
    }
    rows
}

/// Runs two networks (each a half of the progress).
pub(super) fn run_pair(
    a: &NetConfig,
    b: &NetConfig,
    progress: &mut dyn FnMut(f64),
) -> (RunResult, RunResult) {
    let ra = Network::new(a.clone()).run(|d| progress(d / 2.0));
    let rb = Network::new(b.clone()).run(|d| progress(0.5 + d / 2.0));
    (ra, rb)
}
