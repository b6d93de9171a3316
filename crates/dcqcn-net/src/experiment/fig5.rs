//! fig5: the tree of fig4 with DCQCN (Table II) and ECN: the parking lot is gone.

use super::common::{f2, on_network, P};
use super::tree::{self, Means, Paper};
use super::{row, Experiment, Outcome};
use crate::config::NetConfig;
use dcqcn_model::Config;

pub struct Fig5;

const PAPER: Paper = Paper {
    head: |m: &Means| {
        vec![
            row(
                &format!(
                    "per-sender throughput, mean of all, {:.2}-{:.2} s (Gb/s)",
                    m.half, m.end
                ),
                f2(m.all.iter().sum::<f64>() / m.all.len() as f64),
                "~1.1 each (ideal 1.25)",
            ),
            row(
                "small leaves / 4-sender leaf, mean (Gb/s)",
                format!("{} / {}", f2(m.small), f2(m.crowded)),
                "same share",
            ),
        ]
    },
    per_sender: "~1.1 each",
    jain: "equal share",
    reference: |_| 1.1,
};

impl Experiment for Fig5 {
    fn name(&self) -> &'static str {
        "fig5"
    }

    fn title(&self) -> &'static str {
        "8-sender two-tier tree (leaves of 2, 4, 2), PFC + DCQCN"
    }

    fn default_config(&self) -> NetConfig {
        tree::config(Config::paper_table2(&P), true, 0.2)
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        on_network(cfg, progress, |r| {
            tree::analyse(self.name(), self.title(), &PAPER, cfg, r)
        })
    }
}
