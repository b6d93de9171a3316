//! `make bench`: model-only, lockstep and bare-Verilator speeds on the same recorded stimulus, in
//! one run, so that the ratios are comparable on a noisy machine.
//!
//! The stimulus is the first `CHUNK` cycles of the paper-table2 scenario, recorded once (inputs per
//! cycle) and replayed `REPEAT` times by each harness, so stimulus generation is not timed and the
//! recording stays in cache (a 2 M-cycle recording is ~224 MB and would measure memory bandwidth,
//! not the model). Each figure is the best of `ROUNDS`.

use dcqcn_cosim::lockstep::{self, RunSpec};
use dcqcn_cosim::rtl::{self, Rtl};
use dcqcn_cosim::scenario;
use dcqcn_model::{Inputs, RateLimiter};
use std::hint::black_box;
use std::time::Instant;

const CHUNK: u64 = 65_536;
const REPEAT: u32 = 32;
const CYCLES: u64 = CHUNK * REPEAT as u64;
const ROUNDS: usize = 3;

fn best<F: FnMut() -> u64>(mut f: F) -> (f64, u64) {
    let mut best = f64::INFINITY;
    let mut check = 0;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        check = black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    (CYCLES as f64 / best, check)
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

    let (model_cps, _) = best(|| {
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

    let ports: Vec<_> = inputs.iter().map(rtl::ports).collect();
    let (bare_cps, _) = best(|| {
        let mut r = Rtl::new(&spec.variant).expect("variant");
        r.run_bare(&ports, REPEAT)
    });

    let (lock_cps, mismatches) = best(|| {
        let mut m = RateLimiter::new(spec.params);
        let mut r = Rtl::new(&spec.variant).expect("variant");
        let mut bad = 0u64;
        for _ in 0..REPEAT {
            for i in &inputs {
                let o = m.step(i);
                let ms = m.snapshot(&o);
                let rs = r.step(i);
                bad += u64::from(ms != rs);
            }
        }
        bad
    });

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
