//! fig12: three-sender incast with DCQCN (Table II), staggered finish.

use super::common::{on_network, P};
use super::incast::{self, Paper};
use super::{Experiment, Outcome};
use crate::config::NetConfig;
use dcqcn_model::Config;

pub struct Fig12;

const PAPER: Paper = Paper {
    plateau: |k| {
        ["~3.3 each", "~4.9 each", "~9.7"]
            .get(k)
            .copied()
            .unwrap_or("")
    },
    jain: "near-equal share",
    redistribute: "sub-second",
    settled_aggregate: "9.77 (whole run)",
    aggregate: "9.77",
    burstiness: false,
};

impl Experiment for Fig12 {
    fn name(&self) -> &'static str {
        "fig12"
    }

    fn title(&self) -> &'static str {
        "three-sender incast with DCQCN (Table II), staggered finish"
    }

    fn default_config(&self) -> NetConfig {
        incast::config(Config::paper_table2(&P))
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        on_network(cfg, progress, |r| {
            incast::analyse(self.name(), self.title(), &PAPER, cfg, r)
        })
    }
}
