//! fig14: Rc, Rt and the measured throughput of one sender (the fig12 run, its last flow).

use super::common::{figure, on_network, t_s, time_series, P};
use super::{incast, row, Experiment, Outcome, Row};
use crate::config::NetConfig;
use crate::plot::{Figure, Panel, Series, BLUE, ORANGE, RED};
use crate::sim::{register_gbps, RunResult};
use dcqcn_model::Config;

pub struct Fig14;

impl Experiment for Fig14 {
    fn name(&self) -> &'static str {
        "fig14"
    }

    fn title(&self) -> &'static str {
        "Rc, Rt and measured throughput of one sender"
    }

    fn default_config(&self) -> NetConfig {
        incast::config(Config::paper_table2(&P))
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        on_network(cfg, progress, |r| self.analyse(cfg, r))
    }
}

impl Fig14 {
    fn analyse(&self, cfg: &NetConfig, r: &RunResult) -> (Vec<Row>, Figure) {
        let mut rows = Vec::new();
        let f = cfg.flows.len() - 1;
        let ratio = f64::from(cfg.frame.payload_bytes) / f64::from(cfg.frame.stream_bytes());
        let ceiling = cfg.link.rate_bits_per_s as f64 / 1e9 * f64::from(cfg.frame.payload_bytes)
            / f64::from(cfg.frame.wire_bytes());
        let start = t_s(cfg.sample_ps) * 5.0;
        let diffs: Vec<f64> = r
            .samples
            .iter()
            .filter(|s| t_s(s.t_ps) > start)
            .map(|s| {
                let expect = (register_gbps(s.flows[f].rc_bytes_per_s) * ratio).min(ceiling);
                (s.flows[f].payload_gbps - expect).abs() / expect.max(1e-9)
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
            .map(|s| {
                register_gbps(s.flows[f].rt_bytes_per_s) - register_gbps(s.flows[f].rc_bytes_per_s)
            })
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
                Series::new(
                    "throughput",
                    BLUE,
                    time_series(r, |s| s.flows[f].payload_gbps),
                ),
                Series::new(
                    "Rc",
                    RED,
                    time_series(r, |s| register_gbps(s.flows[f].rc_bytes_per_s)),
                ),
                Series::new(
                    "Rt",
                    ORANGE,
                    time_series(r, |s| register_gbps(s.flows[f].rt_bytes_per_s)),
                )
                .dashed(),
            ],
            y_range: Some((0.0, 10.5)),
            ..Panel::default()
        };
        (rows, figure(self.name(), self.title(), vec![p]))
    }
}
