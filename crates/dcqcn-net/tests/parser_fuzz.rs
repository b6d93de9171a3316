//! Parser fuzz targets (issues #11, #33) for the network inputs: the parameter TOML over every
//! experiment's defaults, `net sweep`'s axes (`--x`, `--y`) over a base, and `net advcam`'s
//! options over a parameter file; each gives an error naming the file or flag or a configuration
//! within the documented bounds, never a panic, within a bounded time.

#[path = "../../dcqcn-harness/tests/support/parser_input.rs"]
mod parser_input;

use dcqcn_net::config::{apply_file, MAX_DURATION_PS, MAX_SAMPLES};
use dcqcn_net::experiment::ALL;
use parser_input::{config, input, timed};
use proptest::prelude::*;

fn samples() -> Vec<String> {
    vec![
        include_str!("../../../docs/examples/net-fig5-dcqcn-paper.toml").into(),
        include_str!("../../../docs/examples/net-xoff-100k.toml").into(),
        "seed = 7\nduration = \"0.3s\"\nsample = \"1ms\"\n[frame]\npayload_bytes = 1024\n[link]\nrate = \"40Gbps\"\ndelay = \"2us\"\n[switch]\nkmin = \"5KB\"\nkmax = \"200KB\"\npmax = 0.01\nbuffer = \"12MB\"\n[receiver]\ncnp_interval = \"50us\"\n[sender]\ncnp_pulse_cycles = 4\n[topology]\nleaves = [2, 1]\n[[flow]]\nstart = \"0.1s\"\nstop = \"0.2s\"\n[flow.registers]\ninc_interval = \"200ms\"\n[[flow]]\n[[flow]]\n".into(),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn network_toml(text in input(samples()), k in 0..ALL.len()) {
        let mut cfg = ALL[k].default_config();
        match timed("network TOML", || apply_file(&mut cfg, &text, "fuzz.toml")) {
            Ok(()) => {
                prop_assert!(cfg.duration_ps > 0 && cfg.duration_ps <= MAX_DURATION_PS);
                prop_assert!(cfg.duration_ps / cfg.sample_ps <= MAX_SAMPLES);
                for f in &cfg.flows {
                    prop_assert!(f.stop_ps.is_none_or(|s| s > f.start_ps));
                    prop_assert_eq!(f.registers.out_of_range(), None);
                }
            }
            Err(e) => {
                let m = e.to_string();
                prop_assert!(m.starts_with("fuzz.toml"), "{}", m);
                prop_assert!(m.len() < 2_000, "{} bytes", m.len());
            }
        }
    }
}

/// Sweep axes as written on the command line (`--x`, `--y`).
fn axis_samples() -> Vec<String> {
    [
        "registers.inc_interval=500us..64000us:8",
        "receiver.cnp_interval=4us..1024us:5",
        "switch.kmin=1KB,50KB",
        "switch.pause_quanta=10..40:4:lin",
        "registers.clamp_tgt=true,false",
        "seed=1,2,3",
        "sample=0.5ms,1ms",
        "duration=0.001s",
        "link.uplink_rate=10Gbps..40Gbps:2",
        "registers.g=0.0625",
    ]
    .map(String::from)
    .to_vec()
}

proptest! {
    #![proptest_config(config())]

    /// `dcqcn net sweep --x A --y B`: the axes and the grid they make over a base, a grid
    /// within the documented bounds or an error naming the flag in one bounded line.
    #[test]
    fn sweep_axes(x in input(axis_samples()), y in input(axis_samples()), b in 0..3usize) {
        use dcqcn_net::config::MAX_SAMPLE_CELLS;
        use dcqcn_net::sweep::{self, MAX_AXIS, MAX_POINTS, MAX_VALUE_CHARS};
        let base = sweep::base_config(["incast", "fig12", "fig5"][b]).unwrap();
        let r = timed("sweep axes", || {
            let x = sweep::parse_axis("--x", &x)?;
            let y = sweep::parse_axis("--y", &y)?;
            sweep::plan(&base, x, y)
        });
        match r {
            Ok(grid) => {
                let (nx, ny) = (grid.x.values.len(), grid.y.values.len());
                prop_assert!((1..=MAX_AXIS).contains(&nx) && (1..=MAX_AXIS).contains(&ny));
                prop_assert!(nx * ny <= MAX_POINTS);
                for v in grid.x.values.iter().chain(&grid.y.values) {
                    prop_assert!(v.chars().count() <= MAX_VALUE_CHARS);
                    prop_assert!(!v.chars().any(char::is_control));
                }
                for c in grid.points.iter().flatten() {
                    prop_assert!(c.duration_ps > 0 && c.duration_ps <= MAX_DURATION_PS);
                    prop_assert!(c.sample_ps > 0 && c.sample_ps <= c.duration_ps);
                    prop_assert!(c.sample_cells() <= MAX_SAMPLE_CELLS);
                    prop_assert_eq!(c.flows.len(), base.flows.len());
                }
                let threads = sweep::threads(&grid, 1024);
                prop_assert!(threads >= 1 && threads <= nx * ny);
            }
            Err(e) => {
                let m = e.to_string();
                prop_assert!(m.starts_with("--x") || m.starts_with("--y"), "{}", m);
                prop_assert!(!m.contains('\n'), "{}", m);
                prop_assert!(m.len() < 2_000, "{} bytes", m.len());
                prop_assert!(!m.contains("borrowed"), "{}", m);
            }
        }
    }

    /// `dcqcn net advcam`: any sizes, uplink, seed and duration over a parameter file (or
    /// none): a funnel within the bounds or an error naming the flag or the file.
    #[test]
    fn advcam_options(
        leaves in prop_oneof![0..40u32, any::<u32>()],
        per_leaf in prop_oneof![0..40u32, any::<u32>()],
        uplink in prop::option::of(input(vec!["100Gbps".into(), "40Gbps".into(), "400Gbps".into()])),
        duration in prop::option::of(prop_oneof![0.0..0.5f64, any::<f64>()]),
        seed in prop::option::of(any::<u64>()),
        text in prop::option::of(input(samples())),
    ) {
        use dcqcn_net::advcam::{plan, Options};
        use dcqcn_net::config::{MAX_SAMPLE_CELLS, MAX_SENDERS};
        let o = Options { leaves, per_leaf, uplink, seed, duration_s: duration };
        let r = timed("advcam options", || plan(&o, text.as_deref().map(|t| (t, "fuzz.toml"))));
        match r {
            Ok(cfg) => {
                prop_assert!(cfg.flows.len() <= MAX_SENDERS && !cfg.flows.is_empty());
                prop_assert!(cfg.duration_ps > 0 && cfg.duration_ps <= MAX_DURATION_PS);
                prop_assert!(cfg.sample_ps > 0 && cfg.sample_ps <= cfg.duration_ps);
                prop_assert!(cfg.sample_cells() <= MAX_SAMPLE_CELLS);
            }
            Err(e) => {
                let m = e.to_string();
                prop_assert!(
                    m.starts_with("--") || m.starts_with("fuzz.toml") || m.starts_with("command line"),
                    "{}",
                    m
                );
                prop_assert!(m.len() < 2_000, "{} bytes", m.len());
            }
        }
    }
}
