//! Parser fuzz target (issue #11) for the network parameter TOML: arbitrary input over every
//! experiment's defaults, an error naming the file or a configuration within the documented
//! bounds, never a panic, within a bounded time.

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
