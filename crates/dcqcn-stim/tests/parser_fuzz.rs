//! Parser fuzz targets (issue #11) for golden vectors, golden manifests, whole golden sets under
//! `verify` (issue 33: counts that claim more work than the limits allow) and saved fuzz cases:
//! arbitrary input in, an error naming the file or a value within the format's bounds out, never
//! a panic, within a bounded time. Mutated vectors are resealed (their CRC recomputed) half of
//! the time, so that the record decoder itself is reached, not only the checksum.

#[path = "../../dcqcn-harness/tests/support/parser_input.rs"]
mod parser_input;

use dcqcn_stim::fuzz::{parse_case, MAX_CASE_CYCLES};
use dcqcn_stim::golden::manifest::SET_FILES;
use dcqcn_stim::golden::{
    crc32, generate, verify_set, Decoder, Manifest, SetDef, MAX_CYCLES, MAX_RUN_CYCLES,
};
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
        include_str!("../../dcqcn-cosim/tests/fuzz-regressions/mutant-gate-strict.json").into(),
        include_str!("../../dcqcn-cosim/tests/fuzz-regressions/mutant-alpha-truncates.json").into(),
        include_str!("../../dcqcn-cosim/tests/fuzz-regressions/mutant-cnp-edge-early.json").into(),
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
                prop_assert!(m.files.len() <= SET_FILES.len());
                for (k, f) in m.files.iter().enumerate() {
                    prop_assert!(dcqcn_stim::golden::manifest::plain_name(&f.name), "{}", f.name);
                    prop_assert!(SET_FILES.contains(&f.name.as_str()), "{}", f.name);
                    prop_assert!(m.files[..k].iter().all(|g| g.name != f.name), "{} twice", f.name);
                }
            }
            Err(e) => {
                let m = e.to_string();
                prop_assert!(m.starts_with("m.txt:"), "{}", m);
            }
        }
    }

    /// A whole set under `verify_set`: its vectors' records and end line claiming up to 2^31 - 1
    /// cycles, its manifest's source claiming other counts and listing files again and again.
    /// Verification ends within the bound (never runs the model past the limit), and an error
    /// names a file of the set.
    #[test]
    fn golden_verify_with_huge_counts(
        k in 0usize..3,
        end in prop_oneof![
            Just(MAX_CYCLES),
            Just(MAX_RUN_CYCLES + 1),
            (MAX_RUN_CYCLES + 1)..=MAX_CYCLES,
            1u64..2_000,
        ],
        count in prop_oneof![Just(i32::MAX as u64), Just(MAX_RUN_CYCLES), 1u64..2_000],
        source in prop_oneof![Just(None), Just(Some(u64::MAX)), Just(Some(MAX_CYCLES)), (1u64..2_000).prop_map(Some)],
        repeats in 0usize..2_000,
    ) {
        use sha2::Digest;
        let (vectors, manifest) = &sets()[k];
        // the header and the first template of the set, then one `c` record of `count`
        let head: String = vectors
            .lines()
            .take_while(|l| !l.starts_with("c ") && !l.starts_with("r "))
            .map(|l| format!("{l}\n"))
            .collect();
        let slot = head.lines().rev().find_map(|l| l.strip_prefix("t ")?.split(' ').next()).unwrap_or("0");
        let text = reseal(&format!("{head}c {slot} {count}\nend\n"), end);
        let entry = format!(
            "file vectors.txt bytes {} crc32 {:08x} sha256 {:x}",
            text.len(),
            crc32(0, text.as_bytes()),
            sha2::Sha256::digest(text.as_bytes())
        );
        let mut m = String::new();
        for l in manifest.lines() {
            let l = if l.starts_with("file vectors.txt ") {
                format!("{entry}\n{}", format!("{entry}\n").repeat(repeats))
            } else if let (Some(c), true) = (source, l.starts_with("source scenario ")) {
                let toks: Vec<&str> = l.split(' ').collect();
                format!("source scenario {} cycles {c} seed {}\n", toks[2], toks[6])
            } else {
                format!("{l}\n")
            };
            m += &l;
        }
        let dir = std::env::temp_dir().join(format!("dcqcn-parser-fuzz-verify-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("vectors.txt"), &text).unwrap();
        std::fs::write(dir.join("manifest.txt"), &m).unwrap();
        let r = timed("golden verify, huge counts", || verify_set(&dir));
        match r {
            Ok(v) => prop_assert!(v.cycles <= MAX_RUN_CYCLES && v.cycles == end),
            Err(e) => {
                let msg = e.to_string();
                let d = dir.display().to_string();
                prop_assert!(msg.starts_with(&d), "{}", msg);
                prop_assert!(msg.len() < 3_000, "{} bytes", msg.len());
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
