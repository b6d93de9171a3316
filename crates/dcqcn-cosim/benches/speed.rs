//! `make bench`: model-only, lockstep and bare-Verilator speeds on the same recorded stimulus, in
//! one run, so that the ratios are comparable on a noisy machine.
//!
//! The stimulus is the first `CHUNK` cycles of the paper-table2 scenario, recorded once (inputs per
//! cycle) and replayed `REPEAT` times by each harness, so stimulus generation is not timed and the
//! recording stays in cache (a 2 M-cycle recording is ~224 MB and would measure memory bandwidth,
//! not the model). The three harnesses run in turn, `ROUNDS` times, and each figure is the best of
//! its rounds: on a shared machine a burst of load then slows one round of each rather than every
//! round of one, which would skew the ratio.

use dcqcn_cosim::lockstep::{self, RunSpec};
use dcqcn_cosim::rtl::{self, Rtl};
use dcqcn_cosim::scenario;
use dcqcn_model::{Inputs, RateLimiter};
use std::hint::black_box;
use std::time::Instant;

const CHUNK: u64 = 65_536;
const REPEAT: u32 = 16;
const CYCLES: u64 = CHUNK * REPEAT as u64;
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
    let sc = scenario::by_name("paper-table2").expect("built-in");
    let spec = RunSpec {
        scenario: sc.name.into(),
        params: sc.params(),
        stimulus: sc.stimulus.clone(),
        seed: 1,
        cycles: CHUNK,
        variant: rtl::width_variant(sc.data_bytes),
        replay: String::new(),
        rtl_init_seed: 0,
        initial_state: None,
    };
    let mut inputs: Vec<Inputs> = Vec::with_capacity(CHUNK as usize);
    let rec = lockstep::run_model(&spec, |_, i, _, _| inputs.push(*i));
    println!(
        "stimulus: paper-table2, {} cycles recorded ({} beats, {} CNPs), replayed {REPEAT} times = {CYCLES} cycles per harness",
        rec.cycles, rec.beats, rec.cnps
    );

    let ports: Vec<_> = inputs.iter().map(rtl::ports).collect();
    let (mut model, mut bare, mut lock) = (Best::new(), Best::new(), Best::new());
    for _ in 0..ROUNDS {
        model.round(|| {
            let mut m = RateLimiter::new(spec.params);
            let mut acc = 0u64;
            for _ in 0..REPEAT {
                for i in &inputs {
                    let o = m.step(i);
                    acc = acc.wrapping_add(u64::from(o.s_axis_tready));
                }
            }
            acc ^ u64::from(m.state().rc)
        });
        bare.round(|| {
            let mut r = Rtl::new(&spec.variant).expect("variant");
            r.run_bare(&ports, REPEAT)
        });
        lock.round(|| {
            let mut m = RateLimiter::new(spec.params);
            let mut r = Rtl::new(&spec.variant).expect("variant");
            let mut bad = 0u64;
            for _ in 0..REPEAT {
                for i in &inputs {
                    let o = m.step(i);
                    let ms = m.snapshot(&o);
                    r.cycle(i);
                    bad += u64::from(!r.matches(&ms));
                }
            }
            bad
        });
    }
    let (model_cps, bare_cps, lock_cps) = (
        model.cycles_per_second(),
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
        "bare Verilator (C++ loop)", bare_cps, "1.00"
    );
    println!(
        "{:<34} {:>14.3e} {:>10.2}",
        "lockstep (model + RTL + compare)",
        lock_cps,
        lock_cps / bare_cps
    );
    println!(
        "model vs 156.25 MHz hardware: {:.2}x real time; lockstep mismatches: {mismatches}",
        model_cps / 156.25e6
    );
    println!("targets: model >= 1.5625e8 cycles/s; lockstep >= 0.8 x bare Verilator (issue 12)");
}
