//! Inputs for the parser fuzz targets (issue #11), shared by every crate's `parser_fuzz` test
//! through `#[path]`: arbitrary bytes, arbitrary text, and valid samples of the format mutated by
//! byte splices and by inserting tokens that once wrapped or hung a parser.
//!
//! `PARSER_FUZZ_CASES` sets the inputs per target (default [`DEFAULT_CASES`], what `make test`
//! runs; `make fuzz-parsers` runs many more).

#![allow(dead_code)]

use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::Config;
use std::time::{Duration, Instant};

pub const DEFAULT_CASES: u32 = 1000;

/// Inputs per target.
pub fn cases() -> u32 {
    std::env::var("PARSER_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// The proptest configuration of a target: [`cases`] inputs, nothing written to the source tree.
pub fn config() -> Config {
    let mut c = Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    };
    // The same inputs every run (PROPTEST_RNG_SEED=<n> explores others).
    if c.rng_seed == proptest::test_runner::RngSeed::Random {
        c.rng_seed = proptest::test_runner::RngSeed::Fixed(1);
    }
    c
}

/// Tokens that reach the unit and count parsers' edges: huge, negative, fractional, exponent,
/// empty, NaN, and sizes past every integer type.
pub const TOKENS: &[&str] = &[
    "0",
    "-1",
    "1e308",
    "nan",
    "inf",
    "\"\"",
    "\"0\"",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "4294967295",
    "2147483648",
    "340282366920938463463374607431768211456",
    "\"340282366920938463463374607431GB/s\"",
    "\"3.40282366920938463463374607431Gbps\"",
    "\".000000000000000000000000000001ns\"",
    "\"99999999999999999999999999999s\"",
    "\"1/0\"",
    "\"0/0\"",
    "\"99999999999999999999/0.0000000001\"",
    "\"1ns\"",
    "\"0s\"",
    "\"17179869184GiB\"",
    "\"1.2.3ms\"",
    "\"µs\"",
    "[]",
    "{}",
    "true",
    "null",
    "\n",
    " ",
    "../",
    "/dev/zero",
    "\u{0}",
    "é",
];

/// Bytes spliced into a sample: insert them, or delete as many bytes.
fn splice(mut bytes: Vec<u8>, edits: &[(Index, bool, Vec<u8>)]) -> Vec<u8> {
    for (at, insert, b) in edits {
        let p = at.index(bytes.len() + 1);
        if *insert {
            bytes.splice(p..p, b.iter().copied());
        } else {
            let end = (p + b.len()).min(bytes.len());
            bytes.drain(p..end);
        }
    }
    bytes
}

/// Arbitrary bytes and text, and `samples` mutated (as text: lossy UTF-8).
pub fn input(samples: Vec<String>) -> impl Strategy<Value = String> {
    let mutated = (
        select(samples.clone()),
        prop::collection::vec(
            (
                any::<Index>(),
                any::<bool>(),
                prop::collection::vec(any::<u8>(), 1..12),
            ),
            1..6,
        ),
    )
        .prop_map(|(s, edits)| {
            String::from_utf8_lossy(&splice(s.into_bytes(), &edits)).into_owned()
        });
    let tokens = (
        select(samples),
        prop::collection::vec((any::<Index>(), select(TOKENS)), 1..6),
    )
        .prop_map(|(s, ins)| {
            let edits: Vec<(Index, bool, Vec<u8>)> = ins
                .into_iter()
                .map(|(i, t)| (i, true, t.as_bytes().to_vec()))
                .collect();
            String::from_utf8_lossy(&splice(s.into_bytes(), &edits)).into_owned()
        });
    prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 0..2048)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => "\\PC{0,400}",
        3 => mutated,
        3 => tokens,
    ]
}

/// The longest a parser may take on one input of these sizes (generous: a shared, loaded
/// machine), so that a hang fails the target instead of stalling it.
pub const MAX_PARSE: Duration = Duration::from_secs(5);

/// Runs `parse` and asserts that it returned within [`MAX_PARSE`].
pub fn timed<T>(what: &str, parse: impl FnOnce() -> T) -> T {
    // PARSER_FUZZ_TALLY=FILE: one line per input, to count what each target ran.
    if let Ok(f) = std::env::var("PARSER_FUZZ_TALLY") {
        use std::io::Write;
        let line = format!("{what}\n");
        if let Ok(mut o) = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(f)
        {
            let _ = o.write_all(line.as_bytes());
        }
    }
    let t = Instant::now();
    let r = parse();
    assert!(
        t.elapsed() < MAX_PARSE,
        "{what}: {:?} on one input",
        t.elapsed()
    );
    r
}
