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

/// Every case `make fuzz` ever saved (shrunk failures, committed with their fix) passes.
#[test]
fn saved_regressions_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for f in files {
        let saved = fuzz::load_case(&f).unwrap_or_else(|e| panic!("{e}"));
        let spec = saved
            .case
            .run_spec(
                saved.cycles,
                saved.variant.as_deref(),
                format!("dcqcn fuzz --replay {}", f.display()),
            )
            .unwrap();
        if let Some(m) = dcqcn_cosim::lockstep::run(&spec, None).unwrap().mismatch {
            panic!("{}: {}", f.display(), m.report());
        }
    }
}

/// A corrupt regression file is a clear error naming the file and line, not a panic in the loader.
#[test]
fn corrupt_regression_file_is_named() {
    let dir = std::env::temp_dir().join(format!("dcqcn-fuzz-reg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.json");
    std::fs::write(
        &f,
        "{\n  \"format\": \"dcqcn-fuzz-case 1\",\n  \"cycles\": \"many\"\n}\n",
    )
    .unwrap();
    let e = fuzz::load_case(&f).unwrap_err().to_string();
    assert!(
        e.contains("bad.json:3:") && e.contains("invalid type"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
