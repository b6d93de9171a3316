//! One harness of `make bench` per process, for instruction counts (`make bench-instructions`
//! runs each under callgrind and divides by the cycles): wall clock on a shared machine is too
//! noisy to compare two versions of the code, instructions are not.
//!
//! `per_cycle <harness> <repeat>`: records the first 65,536 cycles of the paper-table2 scenario (as
//! `make bench` does) and replays them `repeat` times through `harness`:
//! - `none`: nothing (the recording alone, the baseline the others are measured from);
//! - `model`: the model's `step`;
//! - `bare`: the Verilated RTL in the bridge's bare C++ loop;
//! - `lockstep`: the model, the RTL and the comparison of every field every cycle.

use dcqcn_cosim::lockstep::{self, RunSpec};
use dcqcn_cosim::rtl::{self, Rtl};
use dcqcn_cosim::scenario;
use dcqcn_model::{Inputs, RateLimiter};
use std::hint::black_box;
use std::process::ExitCode;

const CHUNK: u64 = 65_536;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (harness, repeat) = match args.as_slice() {
        [h, r] if ["none", "model", "bare", "lockstep"].contains(&h.as_str()) => {
            match r.parse::<u32>() {
                Ok(r) => (h.as_str(), r),
                Err(_) => {
                    eprintln!("per_cycle: <repeat> must be a whole number, got '{r}'");
                    return ExitCode::from(2);
                }
            }
        }
        _ => {
            eprintln!("usage: per_cycle none|model|bare|lockstep <repeat>");
            return ExitCode::from(2);
        }
    };
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
    lockstep::run_model(&spec, |_, i, _, _| inputs.push(*i));
    let ports: Vec<_> = inputs.iter().map(rtl::ports).collect();
    let check = match harness {
        "model" => {
            let mut m = RateLimiter::new(spec.params);
            let mut acc = 0u64;
            for _ in 0..repeat {
                for i in &inputs {
                    acc = acc.wrapping_add(u64::from(m.step(i).s_axis_tready));
                }
            }
            acc
        }
        "bare" => Rtl::new(&spec.variant)
            .expect("variant")
            .run_bare(&ports, repeat),
        "lockstep" => {
            let mut m = RateLimiter::new(spec.params);
            let mut r = Rtl::new(&spec.variant).expect("variant");
            let mut bad = 0u64;
            for _ in 0..repeat {
                for i in &inputs {
                    let o = m.step(i);
                    let ms = m.snapshot(&o);
                    r.cycle(i);
                    bad += u64::from(!r.matches(&ms));
                }
            }
            assert_eq!(bad, 0, "the lockstep found a mismatch");
            bad
        }
        _ => 0,
    };
    black_box(check);
    println!("{harness}: {} cycles", u64::from(repeat) * CHUNK);
    ExitCode::SUCCESS
}
