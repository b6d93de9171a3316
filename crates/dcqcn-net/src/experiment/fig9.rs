//! fig9: the emulated switch at 5 Gb/s in front of one sender, no network: alpha as each CNP
//! finds it.

use super::common::{f2, flow, P};
use super::{row, Experiment, Outcome};
use crate::config::{cycle_ps, NetConfig, Profile};
use crate::csv_out;
use crate::emulated::{self, Point};
use crate::plot::{Figure, Panel, Series, BLUE, GREEN, ORANGE, PALETTE, RED};
use crate::sim::register_gbps;
use dcqcn_harness::emulated_switch::EmulatedSwitch;
use dcqcn_model::Config;

pub struct Fig9;

impl Experiment for Fig9 {
    fn name(&self) -> &'static str {
        "fig9"
    }

    fn title(&self) -> &'static str {
        "emulated switch at 5 Gb/s: alpha caught by each CNP"
    }

    fn on_network(&self) -> bool {
        false
    }

    fn default_config(&self) -> NetConfig {
        let mut c = NetConfig::default_network();
        c.leaves = vec![1];
        c.flows = vec![flow("fpga", Config::paper_table2(&P), None)];
        // 12 M cycles, the lockstep's paper-table2 length; a point every 1600 cycles.
        c.duration_ps = 12_000_000 * 6_400;
        c.sample_ps = 1_600 * 6_400;
        c
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        let cycle = cycle_ps(&P);
        let cycles = cfg.duration_ps / cycle;
        let every = (cfg.sample_ps / cycle).max(1);
        let (profile, regs) = cfg
            .flows
            .first()
            .map_or((Profile::Ours, Config::paper_table2(&P)), |f| {
                (f.profile, f.registers)
            });
        // The BTH leads the frame on the stream, the 4-byte ICRC ends it.
        let run = emulated::run(
            profile,
            regs,
            cfg.frame.stream_bytes(),
            cfg.frame.stream_overhead_bytes.saturating_sub(4),
            cfg.frame.stream_overhead_bytes.min(4),
            EmulatedSwitch::paper(5.0, &P),
            cycles,
            every,
            progress,
        );
        let ms = |c: u64| c as f64 * cycle as f64 / 1e9;
        let csv = csv_out::fig9(&run, cycle);
        let paper = ["1", "~0.8", "~0.3"];
        let mut rows = Vec::new();
        for (k, c) in run.cnps.iter().take(3).enumerate() {
            rows.push(row(
                &format!("alpha at CNP {} (t = {:.2} ms)", k + 1, ms(c.cycle)),
                format!("{:.3}", f64::from(c.alpha) / 1024.0),
                paper[k],
            ));
        }
        if let Some(c) = run.cnps.first() {
            rows.push(row(
                "Rc before -> after the first CNP (Gb/s)",
                format!(
                    "{} -> {}",
                    f2(register_gbps(c.rc_before_bytes_per_s)),
                    f2(register_gbps(c.rc_after_bytes_per_s))
                ),
                "10 -> 5",
            ));
        }
        rows.push(row(
            &format!("CNPs in {:.1} ms", ms(run.cycles)),
            run.cnps.len().to_string(),
            "3 over the run",
        ));
        let vl: Vec<(f64, crate::plot::Rgb)> =
            run.cnps.iter().map(|c| (ms(c.cycle), GREEN)).collect();
        let pts = |f: &dyn Fn(&Point) -> f64| -> Vec<(f64, f64)> {
            run.points.iter().map(|p| (ms(p.cycle), f(p))).collect()
        };
        let figure = Figure {
            title: format!("fig9: {}", self.title()),
            width: 1000.0,
            panel_height: 240.0,
            panels: vec![
                Panel {
                    title: "throughput over the 5000-cycle window vs threshold".into(),
                    xlabel: "time (ms)".into(),
                    ylabel: "Gb/s".into(),
                    series: vec![Series::new(
                        "window throughput",
                        BLUE,
                        pts(&|p| p.window_gbps),
                    )],
                    hlines: vec![(run.threshold_gbps, RED, "threshold".into())],
                    vlines: vl.clone(),
                    y_range: Some((0.0, 10.5)),
                    ..Panel::default()
                },
                Panel {
                    title: "Rc and Rt".into(),
                    xlabel: "time (ms)".into(),
                    ylabel: "Gb/s".into(),
                    series: vec![
                        Series::new("Rc", RED, pts(&|p| register_gbps(p.rc_bytes_per_s))),
                        Series::new("Rt", ORANGE, pts(&|p| register_gbps(p.rt_bytes_per_s)))
                            .dashed(),
                    ],
                    vlines: vl.clone(),
                    y_range: Some((0.0, 10.5)),
                    ..Panel::default()
                },
                Panel {
                    title: "alpha (dashed green: CNPs)".into(),
                    xlabel: "time (ms)".into(),
                    ylabel: "alpha".into(),
                    series: vec![Series::new(
                        "alpha",
                        PALETTE[4],
                        pts(&|p| f64::from(p.alpha) / 1024.0),
                    )],
                    vlines: vl,
                    y_range: Some((0.0, 1.05)),
                    ..Panel::default()
                },
            ],
        };
        Outcome {
            csv,
            rows,
            figure,
            simulated_s: ms(run.cycles) / 1e3,
            stepped_cycles: run.cycles,
            skipped_cycles: 0,
        }
    }
}
