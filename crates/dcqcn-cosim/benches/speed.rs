//! `make bench`: model-only, lockstep and bare-Verilator speeds on the same recorded stimulus, in
//! one run, so that the ratios are comparable on a noisy machine.
//!
//! "model only" reads the outputs a sender's loop reads (handshakes, tkeep, tlast); "every output
//! read" folds the data beat and the bus into its checksum too.
//!
//! The stimulus is the first `RECORDED_CYCLES` cycles of the paper-table2 scenario, recorded once
//! (inputs per cycle) and replayed `REPEAT` times by each harness, so stimulus generation is not
//! timed and the recording stays in cache. The four harnesses run in turn, `ROUNDS` times, and
//! each figure is the best of its rounds: on a shared machine a burst of load then slows one round
//! of each rather than every round of one, which would skew the ratio.

use dcqcn_cosim::bench::{Recording, RECORDED_CYCLES};
use std::hint::black_box;
use std::time::Instant;

const REPEAT: u32 = 16;
const CYCLES: u64 = RECORDED_CYCLES * REPEAT as u64;
const ROUNDS: usize = 9;

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

    /// One more round of `f`.
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
    let rec = Recording::paper_table2(RECORDED_CYCLES);
    println!(
        "stimulus: paper-table2, {} cycles recorded ({} beats, {} CNPs), replayed {REPEAT} times = {CYCLES} cycles per harness",
        rec.stats.cycles, rec.stats.beats, rec.stats.cnps
    );
    let (mut model, mut model_all, mut bare, mut lock) =
        (Best::new(), Best::new(), Best::new(), Best::new());
    for _ in 0..ROUNDS {
        model.round(|| rec.model(REPEAT));
        model_all.round(|| rec.model_all_outputs(REPEAT));
        bare.round(|| rec.bare(REPEAT).expect("variant"));
        lock.round(|| rec.lockstep(REPEAT).expect("variant"));
    }
    let (model_cps, model_all_cps, bare_cps, lock_cps) = (
        model.cycles_per_second(),
        model_all.cycles_per_second(),
        bare.cycles_per_second(),
        lock.cycles_per_second(),
    );
    let mismatches = lock.check;

    println!("{:<34} {:>14} {:>10}", "harness", "cycles/s", "ratio");
    println!(
        "{:<34} {:>14.3e} {:>10}",
        "model only (Rust, one core)", model_cps, ""
    );
    println!(
        "{:<34} {:>14.3e} {:>10}",
        "model, every output read", model_all_cps, ""
    );
    println!(
        "{:<34} {:>14.3e} {:>10}",
        "bare Verilator (C++ loop)", bare_cps, "1.00"
    );
    println!(
        "{:<34} {:>14.3e} {:>10.2}",
        "lockstep (model + RTL + compare)",
        lock_cps,
        lock_cps / bare_cps
    );
    println!(
        "model vs 156.25 MHz hardware: {:.2}x real time ({:.2}x with every output read); lockstep mismatches: {mismatches}",
        model_cps / 156.25e6,
        model_all_cps / 156.25e6
    );
    println!("targets: model >= 1.5625e8 cycles/s; lockstep >= 0.8 x bare Verilator (issue 12)");
}
