//! One harness of `make bench` per process, for instruction counts (`make bench-instructions`
//! runs each under callgrind and divides by the cycles): wall clock on a shared machine is too
//! noisy to compare two versions of the code, instructions are not.
//!
//! `per_cycle <harness> <repeat>`: records the first cycles of the paper-table2 scenario (as
//! `make bench` does, `dcqcn_cosim::bench`), replays them `repeat` times through `harness` and
//! prints how many cycles it replayed:
//! - `none`: nothing (the recording alone, the baseline the others are measured from);
//! - `model`: the model's `step`, reading the outputs a sender reads (handshakes, tkeep, tlast);
//! - `model-all`: the model's `step`, reading every output (the data beat and the bus too);
//! - `bare`: the Verilated RTL in the bridge's bare C++ loop;
//! - `lockstep`: the model, the RTL and the comparison of every field every cycle.

use dcqcn_cosim::bench::{Recording, RECORDED_CYCLES};
use std::hint::black_box;
use std::process::ExitCode;

const HARNESSES: [&str; 5] = ["none", "model", "model-all", "bare", "lockstep"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (harness, repeat) = match args.as_slice() {
        [h, r] if HARNESSES.contains(&h.as_str()) => match r.parse::<u32>() {
            Ok(r) => (h.as_str(), r),
            Err(_) => {
                eprintln!("per_cycle: <repeat> must be a whole number, got '{r}'");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("usage: per_cycle none|model|model-all|bare|lockstep <repeat>");
            return ExitCode::from(2);
        }
    };
    let rec = Recording::paper_table2(RECORDED_CYCLES);
    let check = match harness {
        "model" => Ok(rec.model(repeat)),
        "model-all" => Ok(rec.model_all_outputs(repeat)),
        "bare" => rec.bare(repeat),
        "lockstep" => rec.lockstep(repeat).inspect(|&differ| {
            assert_eq!(differ, 0, "the lockstep found a difference");
        }),
        _ => Ok(0),
    };
    match check {
        Ok(c) => {
            black_box(c);
            println!("{harness}: {} cycles", u64::from(repeat) * RECORDED_CYCLES);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("per_cycle: {e}");
            ExitCode::from(1)
        }
    }
}
