//! Parser fuzz targets (issue #11) for golden vectors, golden manifests and saved fuzz cases:
//! arbitrary input in, an error naming the file or a value within the format's bounds out, never
//! a panic, within a bounded time. Mutated vectors are resealed (their CRC recomputed) half of
//! the time, so that the record decoder itself is reached, not only the checksum.

#[path = "../../dcqcn-harness/tests/support/parser_input.rs"]
mod parser_input;

use dcqcn_cosim::fuzz::{parse_case, MAX_CASE_CYCLES};
use dcqcn_cosim::golden::{crc32, generate, Decoder, Manifest, SetDef, MAX_CYCLES};
use parser_input::{config, input, timed};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Small sets (8- and 64-byte beats) as samples: (vectors, manifest).
fn sets() -> &'static Vec<(String, String)> {
    static SETS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SETS.get_or_init(|| {
        [
            ("cnp-storm", 400),
            ("random-frames", 200),
            ("reset-midframe", 300),
        ]
        .iter()
        .map(|&(name, cycles)| {
            let g = generate(&SetDef::from_scenario(name, cycles, 3).expect("a scenario"))
                .expect("generates");
            let file = |n: &str| {
                let b = &g.files.iter().find(|f| f.0 == n).expect("a file").1;
                String::from_utf8(b.clone()).expect("text")
            };
            (file("vectors.txt"), file("manifest.txt"))
        })
        .collect()
    })
}

/// The text with its end line replaced by `end <cycles> <crc of the rest>`.
fn reseal(text: &str, cycles: u64) -> String {
    let t = text.trim_end_matches('\n');
    let body = match t.rfind('\n') {
        Some(p) => &t[..=p],
        None => "",
    };
    format!("{body}end {cycles} {:08x}\n", crc32(0, body.as_bytes()))
}

fn case_samples() -> Vec<String> {
    vec![
        include_str!("fuzz-regressions/mutant-gate-strict.json").into(),
        include_str!("fuzz-regressions/mutant-alpha-truncates.json").into(),
        include_str!("fuzz-regressions/mutant-cnp-edge-early.json").into(),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn golden_vectors(
        text in input(sets().iter().map(|s| s.0.clone()).collect()),
        seal in prop_oneof![Just(None), (0u64..100_000).prop_map(Some), Just(Some(u64::MAX))],
    ) {
        let text = match seal {
            // Keep the original count (the records as mutated may hold more or fewer).
            Some(u64::MAX) => {
                let n = text.lines().last().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok()).unwrap_or(1);
                reseal(&text, n)
            }
            Some(n) => reseal(&text, n),
            None => text,
        };
        let r = timed("golden vectors", || Decoder::new("v.txt", &text).and_then(|d| d.check_count()));
        match r {
            Ok(n) => prop_assert!((1..=MAX_CYCLES).contains(&n)),
            Err(e) => {
                let m = e.to_string();
                prop_assert!(m.starts_with("v.txt:"), "{}", m);
                prop_assert!(m.len() < 3_000, "{} bytes", m.len());
            }
        }
    }

    #[test]
    fn golden_manifest(text in input(sets().iter().map(|s| s.1.clone()).collect())) {
        match timed("golden manifest", || Manifest::parse("m.txt", &text)) {
            Ok(m) => {
                for f in &m.files {
                    prop_assert!(dcqcn_cosim::golden::manifest::plain_name(&f.name), "{}", f.name);
                }
            }
            Err(e) => {
                let m = e.to_string();
                prop_assert!(m.starts_with("m.txt:"), "{}", m);
            }
        }
    }

    #[test]
    fn fuzz_case_json(text in input(case_samples())) {
        match timed("fuzz case JSON", || parse_case(&text, "c.json")) {
            Ok(c) => {
                prop_assert!((1..=MAX_CASE_CYCLES).contains(&c.cycles));
                prop_assert_eq!(c.case.stimulus.config.out_of_range(), None);
            }
            Err(e) => {
                let m = e.to_string();
                prop_assert!(m.contains("c.json"), "{}", m);
                prop_assert!(m.len() < 2_000, "{} bytes", m.len());
            }
        }
    }
}
