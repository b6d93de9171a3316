//! `make bench`, the multi-QP block (issue 29): model-only, bare-Verilator and lockstep speeds of
//! `dcqcn_mq_core` at QPS 1024 on one recorded stimulus, for each HDL, in one run, so that the
//! ratios are comparable on a noisy machine; then the decision rate (grants per cycle under full
//! load) at QPS 64, 1024 and 4096.
//!
//! Needs the QPS 1024 variants (`DCQCN_MQ_QPS` with 1024 at build time: `make bench` sets
//! 4,64,1024). The harnesses run in turn, `ROUNDS` times, and each figure is the best of its
//! rounds (see benches/speed.rs).

use dcqcn_cosim::mq_bench::{decision_rate, MqRecording};
use dcqcn_stim::variant::Hdl;
use std::hint::black_box;
use std::time::Instant;

const QPS: u32 = 1024;
const SCENARIO: &str = "mq-incast";
const CYCLES: u64 = 32_768;
const ROUNDS: usize = 3;

/// The best of the rounds of one harness so far.
struct Best {
    seconds: f64,
    check: u64,
}

impl Best {
    fn new() -> Best {
        Best {
            seconds: f64::INFINITY,
            check: 0,
        }
    }

    fn round(&mut self, f: impl FnOnce() -> u64) {
        let t = Instant::now();
        self.check = black_box(f());
        self.seconds = self.seconds.min(t.elapsed().as_secs_f64());
    }

    fn cycles_per_second(&self) -> f64 {
        CYCLES as f64 / self.seconds
    }
}

fn main() {
    let rec = MqRecording::scenario(SCENARIO, QPS, CYCLES).expect("recording");
    println!(
        "multi-QP block: {SCENARIO} at QPS {QPS}, {} cycles recorded ({} requests, {} grants, {} CNPs)",
        rec.cycles(),
        rec.stats.requests,
        rec.stats.grants,
        rec.stats.cnps
    );
    let mut model = Best::new();
    let mut hdls = vec![];
    for hdl in [Hdl::Sv, Hdl::Vhdl] {
        let (mut bare, mut lock) = (Best::new(), Best::new());
        for _ in 0..ROUNDS {
            model.round(|| rec.model().expect("model"));
            bare.round(|| {
                rec.bare(hdl)
                    .expect("variant: build with DCQCN_MQ_QPS=...,1024")
            });
            lock.round(|| rec.lockstep(hdl).expect("variant"));
        }
        hdls.push((hdl, bare, lock));
    }
    println!("{:<40} {:>12} {:>8}", "harness", "cycles/s", "ratio");
    println!(
        "{:<40} {:>12.3e} {:>8}",
        "model only (Rust, one core)",
        model.cycles_per_second(),
        ""
    );
    let mut worst = f64::INFINITY;
    for (hdl, bare, lock) in &hdls {
        let ratio = lock.cycles_per_second() / bare.cycles_per_second();
        worst = worst.min(ratio);
        println!(
            "{:<40} {:>12.3e} {:>8}",
            format!("{} bare Verilator", hdl.name()),
            bare.cycles_per_second(),
            "1.00"
        );
        println!(
            "{:<40} {:>12.3e} {:>8.2}",
            format!("{} lockstep (model + RTL + compare)", hdl.name()),
            lock.cycles_per_second(),
            ratio
        );
        println!(
            "  {} lockstep cycles that differ: {}",
            hdl.name(),
            lock.check
        );
    }
    println!(
        "target: lockstep >= 0.7 x bare Verilator at QPS {QPS} (issue 29): {}",
        if worst >= 0.7 { "met" } else { "NOT met" }
    );
    println!("decision rate (model; the RTL equals it cycle for cycle), every QP with a request:");
    println!(
        "{:>6} {:>26} {:>30}",
        "QPS", "grants/cycle, picker only", "grants/cycle, 64-B units, line rate"
    );
    for qps in [64, 1024, 4096] {
        let (g0, c0) = decision_rate(qps, 100_000, false).expect("decision rate");
        let (g1, c1) = decision_rate(qps, 100_000, true).expect("decision rate");
        println!(
            "{qps:>6} {:>26.4} {:>30.4}",
            g0 as f64 / c0 as f64,
            g1 as f64 / c1 as f64
        );
    }
}
