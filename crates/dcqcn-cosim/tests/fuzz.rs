//! Bounded fuzzing in CI: random configurations over the whole register space and random traffic,
//! model vs RTL. A failure shrinks to a minimal case and is persisted by proptest next to this file.
//! `FUZZ_CASES`, `FUZZ_CYCLES` (per case) and `FUZZ_SEED` scale and steer it; the defaults fit CI
//! and draw the same cases every run.

use dcqcn_cosim::fuzz;
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};

fn env_or(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: expected a whole number")),
        Err(_) => default,
    }
}

#[test]
fn model_and_rtl_agree_on_random_cases() {
    let cycles = env_or("FUZZ_CYCLES", 20_000);
    let cases = env_or("FUZZ_CASES", 96) as u32;
    // Deterministic: the same FUZZ_SEED draws the same cases (CI uses the default).
    let seed = env_or("FUZZ_SEED", 1);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(
        ProptestConfig {
            cases,
            failure_persistence: Some(Box::new(
                proptest::test_runner::FileFailurePersistence::SourceParallel(
                    "proptest-regressions",
                ),
            )),
            ..ProptestConfig::default()
        },
        rng,
    );
    let result = runner.run(&fuzz::case(), |case| {
        let o = fuzz::run_case(&case, cycles).unwrap();
        if let Some(m) = o.mismatch {
            prop_assert!(false, "{}\ncase: {:?}", m.report(), case);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
