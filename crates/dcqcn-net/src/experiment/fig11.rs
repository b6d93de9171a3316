//! fig11: the incast of fig12 with the DCQCN block bypassed (PFC only).

use super::common::{bypassed, on_network};
use super::incast::{self, Paper};
use super::{Experiment, Outcome};
use crate::config::NetConfig;

pub struct Fig11;

const PAPER: Paper = Paper {
    plateau: |_| "on/off, unfair (no value given)",
    jain: "patently unfair",
    redistribute: "",
    settled_aggregate: "",
    aggregate: "frequently near line rate",
    burstiness: true,
};

impl Experiment for Fig11 {
    fn name(&self) -> &'static str {
        "fig11"
    }

    fn title(&self) -> &'static str {
        "three-sender incast, DCQCN bypassed (PFC only)"
    }

    fn default_config(&self) -> NetConfig {
        incast::config(bypassed())
    }

    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome {
        on_network(cfg, progress, |r| {
            incast::analyse(self.name(), self.title(), &PAPER, cfg, r)
        })
    }
}
