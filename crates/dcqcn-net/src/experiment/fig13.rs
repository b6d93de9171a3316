//! fig13: flow_a with a 200 ms increase timer and ClampTargetRate off beside two Table II flows:
//! its Rc climbs toward Rt after 200 ms without a CNP, then decays over many CNPs.

use super::common::{
    f2, figure, flow, mean, on_network, s_to_ps, t_s, throughput_panel, time_series, P,
};
use super::{row, Experiment, Outcome, Row};
use crate::config::NetConfig;
use crate::plot::{Figure, Panel, Series, ORANGE, RED};
use crate::sim::{register_gbps, RunResult};
use dcqcn_model::Config;

pub struct Fig13;

impl Experiment for Fig13 {
    fn name(&self) -> &'static str {
        "fig13"
    }

    fn title(&self) -> &'static str {
        "flow_a with a 200 ms increase timer and ClampTargetRate off"
    }

    fn default_config(&self) -> NetConfig {
        let t2 = Config::paper_table2(&P);
        let mut c = NetConfig::default_network();
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
        c
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        on_network(cfg, progress, |r| self.analyse(cfg, r))
    }
}

impl Fig13 {
    fn analyse(&self, cfg: &NetConfig, r: &RunResult) -> (Vec<Row>, Figure) {
        let end = t_s(cfg.duration_ps);
        let mut rows = Vec::new();
        let a = 0;
        // Climbs: Rc of flow_a up by more than 10 % between samples.
        let climbs: Vec<usize> = (1..r.samples.len())
            .filter(|&k| {
                let (p, q) = (
                    r.samples[k - 1].flows[a].rc_bytes_per_s,
                    r.samples[k].flows[a].rc_bytes_per_s,
                );
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
                .map(|s| s.flows[a].rc_bytes_per_s)
                .max()
                .unwrap_or(0);
            let cnps: u64 = r.samples[k..=stop].iter().map(|s| s.flows[a].cnps).sum();
            let later = r.samples[stop].flows[a].rc_bytes_per_s;
            let dt = t_s(r.samples[stop].t_ps - r.samples[k].t_ps);
            decays.push((
                t_s(r.samples[k].t_ps),
                register_gbps(peak),
                register_gbps(later),
                dt,
                cnps,
            ));
        }
        rows.push(row(
            "flow_a after each climb: time, peak Rc -> Rc later (Gb/s), CNPs in between",
            decays
                .iter()
                .map(|d| {
                    format!(
                        "{:.2} s: {:.2} -> {:.2} after {:.0} ms, {} CNPs",
                        d.0,
                        d.1,
                        d.2,
                        d.3 * 1e3,
                        d.4
                    )
                })
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
                Series::new(
                    "flow_a Rc",
                    RED,
                    time_series(r, |s| register_gbps(s.flows[a].rc_bytes_per_s)),
                ),
                Series::new(
                    "flow_a Rt",
                    ORANGE,
                    time_series(r, |s| register_gbps(s.flows[a].rt_bytes_per_s)),
                )
                .dashed(),
            ],
            y_range: Some((0.0, 10.5)),
            ..Panel::default()
        };
        (rows, figure(self.name(), self.title(), vec![p1, p2]))
    }
}
