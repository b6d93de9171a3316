//! fig4: the 8-sender two-tier tree with the DCQCN block bypassed (PFC only): the parking lot.

use super::common::{bypassed, f2, on_network};
use super::tree::{self, Means, Paper};
use super::{row, Experiment, Outcome};
use crate::config::NetConfig;

pub struct Fig4;

const PAPER: Paper = Paper {
    head: |m: &Means| {
        vec![
            row(
                &format!(
                    "senders on the small leaves, mean {:.2}-{:.2} s (Gb/s)",
                    m.half, m.end
                ),
                f2(m.small),
                "~1.58 (ideal 1.67)",
            ),
            row(
                "senders on the 4-sender leaf, mean (Gb/s)",
                f2(m.crowded),
                "~0.81 (ideal 0.83)",
            ),
        ]
    },
    per_sender: "1.58 1.58 0.81 0.81 0.81 0.81 1.58 1.58",
    jain: "parking lot (0.89 for the paper's values)",
    reference: |crowded| if crowded { 0.81 } else { 1.58 },
};

impl Experiment for Fig4 {
    fn name(&self) -> &'static str {
        "fig4"
    }

    fn title(&self) -> &'static str {
        "8-sender two-tier tree (leaves of 2, 4, 2), PFC only"
    }

    fn default_config(&self) -> NetConfig {
        tree::config(bypassed(), false, 0.1)
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        on_network(cfg, progress, |r| {
            tree::analyse(self.name(), self.title(), &PAPER, cfg, r)
        })
    }
}
