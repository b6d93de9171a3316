//! Parser fuzz targets (issue #11) for the register configuration TOML, the human units and the
//! command line's counts:
//! arbitrary input in, an error or a value out, never a panic, within a bounded time; every
//! value accepted fits its register field, and every error names the file.

#[path = "support/parser_input.rs"]
mod parser_input;

use dcqcn_harness::{config_file, units};
use dcqcn_model::Params;
use parser_input::{config, input, timed};
use proptest::prelude::*;

fn register_samples() -> Vec<String> {
    vec![
        include_str!("../../../docs/examples/table2.toml").into(),
        include_str!("../../../docs/examples/byte-counter.toml").into(),
        include_str!("../../../docs/examples/fig13-flow-a.toml").into(),
        "base = \"paper-table2\"\n[registers]\ng = \"1/256\"\nrai = \"6MB/s\"\ninc_interval = \"2ms\"\ncredit_cap = \"1MiB\"\nclamp_tgt = true\ndec_gain = 3\n".into(),
    ]
}

fn unit_samples() -> Vec<String> {
    [
        "10Gbps",
        "6MB/s",
        "2ms",
        "40us",
        "3.2ns",
        "1MiB",
        "1/256",
        "0.00390625",
        "12 500",
        "1_000",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn command_line_samples() -> Vec<String> {
    [
        "50000",
        "50_000_000",
        "1M",
        "300k",
        "2G",
        "240k:260k",
        "0:1",
        "1.5",
        "600",
        "8",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn register_toml(text in input(register_samples())) {
        let p = Params::DEFAULT;
        match timed("register TOML", || config_file::parse(&text, "fuzz.toml", &p)) {
            Ok(c) => prop_assert_eq!(c.out_of_range(), None),
            Err(e) => {
                let m = e.to_string();
                prop_assert!(m.starts_with("fuzz.toml"), "{}", m);
                // A message repeats at most a clipped part of the input.
                prop_assert!(m.len() < 2_000, "{} bytes", m.len());
            }
        }
    }

    #[test]
    fn units(text in input(unit_samples())) {
        let clk = Params::DEFAULT.clk_hz();
        let r = timed("units", || {
            (
                units::rate_bytes_per_s(&text),
                units::cycles(&text, clk),
                units::bytes(&text),
                units::alpha_g_from_gain(&text),
            )
        });
        if let Ok(a) = r.3 {
            prop_assert!(a <= 1024);
        }
        for e in [r.0.err(), r.1.err(), r.2.err()].into_iter().flatten() {
            prop_assert!(e.to_string().len() < 1_000, "{}", e);
        }
    }

    /// The command line's counts, windows, seconds and thread counts: a value or a short message,
    /// never a panic or a wrapped value.
    #[test]
    fn command_line_counts_and_units(text in input(command_line_samples())) {
        let (count, positive, window, seconds, jobs) = timed("command-line values", || {
            (
                units::count(&text),
                units::positive_count(&text),
                units::window(&text),
                units::seconds(&text),
                units::jobs(&text),
            )
        });
        if let Ok(n) = positive {
            prop_assert!(n >= 1);
            prop_assert_eq!(count.clone(), Ok(n));
        }
        if let Ok(n) = count {
            // The digits and the suffix say exactly this much, no wrapped value.
            let t = text.replace('_', "");
            let digits: String = t.chars().filter(char::is_ascii_digit).collect();
            let mul = match t.chars().last() {
                Some('k' | 'K') => 1_000u128,
                Some('M') => 1_000_000,
                Some('G') => 1_000_000_000,
                _ => 1,
            };
            prop_assert_eq!(u128::from(n), digits.parse::<u128>().unwrap_or(0) * mul);
        }
        if let Ok((a, b)) = window {
            prop_assert!(a < b);
        }
        if let Ok(s) = seconds {
            prop_assert!(s > 0.0 && s <= units::MAX_SECONDS);
        }
        if let Ok(j) = jobs {
            prop_assert!((1..=units::MAX_JOBS).contains(&j));
        }
        for e in [count.err(), window.err(), seconds.err(), jobs.err()].into_iter().flatten() {
            prop_assert!(e.len() < 1_000, "{} bytes", e.len());
        }
    }
}
