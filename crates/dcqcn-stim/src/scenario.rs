//! Named scenarios: a beat width, a stimulus and a default length. `make cosim` runs
//! [`default_suite`].

use crate::stimulus::{
    AxilSpec, CnpSpec, DataPattern, PeriodicWrite, ResetSpec, SinkSpec, StimulusSpec, TrafficSpec,
    WriteMode,
};
use dcqcn_harness::emulated_switch::EmulatedSwitch;
use dcqcn_model::{regmap, Config, NamedConfig, Params};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scenario {
    pub name: &'static str,
    pub description: &'static str,
    pub data_bytes: u32,
    pub stimulus: StimulusSpec,
    pub default_cycles: u64,
}

impl Scenario {
    pub fn params(&self) -> Params {
        Params::with_data_bytes(self.data_bytes).expect("built-in scenarios use legal beat widths")
    }
}

/// The paper's emulated switch (Sec. VI-A): 5000-cycle window, threshold in Gb/s, 50 us cooldown.
fn switch(gbps: f64) -> CnpSpec {
    EmulatedSwitch::paper(gbps, &Params::DEFAULT).into()
}

/// Short intervals so that every process fires often and collides with the others.
pub(crate) fn compressed(p: &Params) -> Config {
    Config {
        dec_interval: 37,
        alpha_interval: 55,
        inc_interval: 300,
        stage_threshold: 3,
        rai: 20_000_000,
        rhai: 60_000_000,
        rmin: 50_000_000,
        clamp_tgt: false,
        ..Config::paper_table2(p)
    }
}

pub fn builtin() -> Vec<Scenario> {
    let p8 = Params::DEFAULT;
    let p32 = Params::with_data_bytes(32).unwrap();
    let p64 = Params::with_data_bytes(64).unwrap();
    let base = |config: Config| StimulusSpec {
        config,
        traffic: Some(TrafficSpec::saturating(4096)),
        sink: SinkSpec::Always,
        cnp: switch(5.0),
        axil: AxilSpec::config_only(),
        resets: ResetSpec::initial_only(),
    };
    vec![
        Scenario {
            name: "paper-table2",
            description: "Table II registers, saturating 4096 B RDMA WRITEs, emulated switch at 5 Gb/s (paper Fig. 9)",
            data_bytes: 8,
            stimulus: base(NamedConfig::PaperTable2.config(&p8)),
            default_cycles: 12_000_000,
        },
        Scenario {
            name: "upstream-reset",
            description: "SURF reset registers, saturating 4096 B frames, emulated switch at 5 Gb/s",
            data_bytes: 8,
            stimulus: base(NamedConfig::UpstreamReset.config(&p8)),
            default_cycles: 6_000_000,
        },
        Scenario {
            name: "cnp-storm",
            description: "random CNP pulses of 1-8 cycles (2%/cycle) on compressed intervals: every collision of decrease, increase and alpha",
            data_bytes: 8,
            stimulus: StimulusSpec {
                cnp: CnpSpec::Random { prob: 0.02, max_width: 8 },
                sink: SinkSpec::Random { ready_prob: 0.9 },
                ..base(compressed(&p8))
            },
            default_cycles: 6_000_000,
        },
        Scenario {
            name: "backpressure",
            description: "32 B beats, bursty downstream stalls (mean 20 ready / 200 stalled) that fill a 512 B credit cap, switch CNPs at 2 Gb/s",
            data_bytes: 32,
            stimulus: StimulusSpec {
                sink: SinkSpec::Bursty { mean_ready: 20, mean_stall: 200 },
                cnp: switch(2.0),
                ..base(Config {
                    credit_cap: 512,
                    ..NamedConfig::PaperTable2.config(&p32)
                })
            },
            default_cycles: 6_000_000,
        },
        Scenario {
            name: "random-frames",
            description: "64 B beats, frames 1-4096 B with random sparse last tkeep, bubbles and gaps, random tready; g = 5/8 so alpha decays to 0",
            data_bytes: 64,
            stimulus: StimulusSpec {
                traffic: Some(TrafficSpec {
                    frame_bytes: (1, 4096),
                    gap_cycles: (0, 40),
                    valid_prob: 0.8,
                    sparse_last_keep: true,
                    data: DataPattern::Random,
                }),
                sink: SinkSpec::Random { ready_prob: 0.85 },
                cnp: switch(3.0),
                ..base(Config {
                    credit_cap: 16_384,
                    alpha_g: 384,
                    ..compressed(&p64)
                })
            },
            default_cycles: 6_000_000,
        },
        Scenario {
            name: "regs-midrun",
            description: "register rewrites and readbacks of every word mid-run, unmapped/read-only DECERR, slow bready/rready",
            data_bytes: 8,
            stimulus: StimulusSpec {
                axil: AxilSpec {
                    read_prob: 0.02,
                    write_prob: 0.002,
                    write_mode: WriteMode::Sane,
                    decerr: true,
                    bready_prob: 0.3,
                    rready_prob: 0.3,
                    periodic: vec![],
                    rule_words: false,
                    scheme_words: false,
                    trace_words: false,
                },
                cnp: CnpSpec::Random { prob: 0.001, max_width: 3 },
                ..base(compressed(&p8))
            },
            default_cycles: 6_000_000,
        },
        Scenario {
            name: "bypass",
            description: "bypass toggled every 250k cycles (DCQCN disabled baseline), CNPs counted but ignored while on",
            data_bytes: 8,
            stimulus: StimulusSpec {
                axil: AxilSpec {
                    periodic: vec![PeriodicWrite {
                        period: 250_000,
                        addr: regmap::BYPASS,
                        values: vec![1, 0],
                    }],
                    ..AxilSpec::config_only()
                },
                cnp: CnpSpec::Random { prob: 0.0005, max_width: 2 },
                ..base(NamedConfig::PaperTable2.config(&p8))
            },
            default_cycles: 6_000_000,
        },
        Scenario {
            name: "reset-midframe",
            description: "synchronous resets of 1-20 cycles at random (mean 200k cycles), mid-frame and mid-transaction; config reprogrammed",
            data_bytes: 8,
            stimulus: StimulusSpec {
                resets: ResetSpec {
                    initial_cycles: 4,
                    mean_interval: 200_000,
                    width: (1, 20),
                },
                axil: AxilSpec {
                    read_prob: 0.01,
                    ..AxilSpec::config_only()
                },
                cnp: switch(4.0),
                ..base(compressed(&p8))
            },
            default_cycles: 6_000_000,
        },
        Scenario {
            name: "byte-counter",
            description: "timer and byte-counter triggers both on (DCQCN stage rule): 512-cycle timer, 4 KB byte threshold, switch at 6 Gb/s",
            data_bytes: 8,
            stimulus: StimulusSpec {
                cnp: switch(6.0),
                ..base(Config {
                    byte_en: true,
                    byte_threshold: 4_096,
                    inc_interval: 512,
                    ..NamedConfig::PaperTable2.config(&p8)
                })
            },
            default_cycles: 6_000_000,
        },
        Scenario {
            name: "trigger-collisions",
            description: "both increase triggers on short, near-equal periods (32 cycles, 256 B): they fire together and collide with decreases",
            data_bytes: 8,
            stimulus: StimulusSpec {
                cnp: CnpSpec::Random { prob: 0.001, max_width: 2 },
                sink: SinkSpec::Random { ready_prob: 0.95 },
                ..base(Config {
                    byte_en: true,
                    byte_threshold: 256,
                    inc_interval: 32,
                    ..compressed(&p8)
                })
            },
            default_cycles: 2_000_000,
        },
        Scenario {
            name: "rate-rules",
            description: "extension rate rules (0x150-0x158): Rmax ceiling, rate on first CNP, min_dec_fac, initial alpha, i x R_HAI; both triggers, bypass toggled every 100k cycles, the rules rewritten mid-run",
            data_bytes: 8,
            stimulus: StimulusSpec {
                axil: AxilSpec {
                    read_prob: 0.002,
                    write_prob: 0.0002,
                    rule_words: true,
                    periodic: vec![
                        PeriodicWrite {
                            period: 100_000,
                            addr: regmap::BYPASS,
                            values: vec![1, 0],
                        },
                        PeriodicWrite {
                            period: 150_000,
                            addr: regmap::RMAX,
                            values: vec![0, u32::MAX, 300_000_000, 700_000_000],
                        },
                        PeriodicWrite {
                            period: 90_000,
                            addr: regmap::RATE_RULES,
                            values: RATE_RULES_CYCLE.to_vec(),
                        },
                    ],
                    ..AxilSpec::config_only()
                },
                cnp: switch(4.0),
                ..base(rate_rules(&p8))
            },
            default_cycles: 3_000_000,
        },
        Scenario {
            name: "schemes",
            description: "control schemes switched at run time (0x15C, spec 4.9): hardware DCQCN, firmware rate, DCQCN observing, firmware only, the gate mask; the firmware rate rewritten (0, in range, above L), both triggers, random reads and writes of the scheme words",
            data_bytes: 8,
            stimulus: StimulusSpec {
                axil: AxilSpec {
                    read_prob: 0.002,
                    write_prob: 0.0001,
                    scheme_words: true,
                    periodic: vec![
                        PeriodicWrite {
                            period: 70_000,
                            addr: regmap::CONTROL,
                            values: SCHEME_CYCLE.to_vec(),
                        },
                        PeriodicWrite {
                            period: 110_000,
                            addr: regmap::FW_RATE,
                            values: vec![300_000_000, 0, 40_000_000, u32::MAX, 900_000_000],
                        },
                    ],
                    ..AxilSpec::config_only()
                },
                cnp: switch(4.0),
                ..base(Config {
                    byte_en: true,
                    byte_threshold: 4_096,
                    ..compressed(&p8)
                })
            },
            default_cycles: 3_000_000,
        },
        Scenario {
            name: "trace",
            description: "event trace (0x170-0x18C, spec 4.10): armed from the start, window modes switched with and without clears every 60k cycles, disarmed spells, every entry selected in turn (400 cycles each) and random reads of every word, both triggers",
            data_bytes: 8,
            stimulus: StimulusSpec {
                axil: AxilSpec {
                    read_prob: 0.02,
                    trace_words: true,
                    periodic: vec![
                        PeriodicWrite {
                            period: 60_000,
                            addr: regmap::TRACE_CTRL,
                            values: TRACE_CYCLE.to_vec(),
                        },
                        PeriodicWrite {
                            period: 400,
                            addr: regmap::TRACE_SEL,
                            values: (0..64).collect(),
                        },
                    ],
                    ..AxilSpec::config_only()
                },
                cnp: switch(4.0),
                ..base(Config {
                    byte_en: true,
                    byte_threshold: 2_048,
                    inc_interval: 200,
                    trace_en: true,
                    ..compressed(&p8)
                })
            },
            default_cycles: 2_000_000,
        },
        Scenario {
            name: "rule-corners",
            description: "the corners the other scenarios reach by chance, on purpose: every first decrease after bypass uses alpha_init and is held at min_dec_fac (dec_gain 0 would cut 68 %); dense short CNPs wrap the 16-bit CNP counter",
            data_bytes: 8,
            stimulus: StimulusSpec {
                axil: AxilSpec {
                    periodic: vec![PeriodicWrite {
                        period: 20_000,
                        addr: regmap::BYPASS,
                        values: vec![1, 0],
                    }],
                    ..AxilSpec::config_only()
                },
                cnp: CnpSpec::Random { prob: 0.05, max_width: 2 },
                ..base(rule_corners(&p8))
            },
            default_cycles: 3_000_000,
        },
    ]
}

/// The `rule-corners` scenario's configuration: compressed periods, a cut of alpha itself
/// (dec_gain 0) held at half of Rc (min_dec_fac 512), the first decrease after bypass with
/// alpha_init = 700 (a 68 % cut, so the floor binds), no rate on first CNP (it would replace the
/// cut), rmin far below the floor.
pub(crate) fn rule_corners(p: &Params) -> Config {
    Config {
        dec_gain: 0,
        rmin: 1_000_000,
        ..compressed(p)
    }
    .with_rules((0, 0, 700, 512, false))
}

/// The values the `trace` scenario writes to 0x170 in turn (en bit 0, wrap bit 1, clear bit 8):
/// wrap mode on a full stop window, a cleared wrap window, a cleared stop window, a disarmed
/// spell, re-armed without a clear, a clear while disarmed.
const TRACE_CYCLE: [u32; 6] = [3, 1 << 8 | 3, 1 << 8 | 1, 0, 1, 1 << 8];

/// The values the `schemes` scenario writes to 0x15C in turn (scheme in bits 1:0, gate mask in
/// bit 8): every scheme entered from hardware DCQCN and from another scheme, the gate mask set in
/// hardware DCQCN and in the firmware-rate scheme.
const SCHEME_CYCLE: [u32; 10] = [0, 1, 0, 2, 3, 1, 0, 1 << 8, 1 | 1 << 8, 2];

/// The `rate-rules` scenario's configuration: compressed periods, both triggers, and every
/// extension rule on (spec 6.2, 0x150-0x158), cuts up to 1023/1024 (dec_gain 0).
pub(crate) fn rate_rules(p: &Params) -> Config {
    Config {
        byte_en: true,
        byte_threshold: 2_048,
        // dec_gain 0: a cut can reach 1023/1024 of Rc, so NVIDIA's 50 % limit binds
        dec_gain: 0,
        ..compressed(p)
    }
    .with_rules((700_000_000, 400_000_000, 600, 512, true))
}

/// The values the `rate-rules` scenario writes to 0x158 in turn: (alpha_init, min_dec_fac,
/// hai_mult) = (1023, 0, 0) the reset rules, (0, 2047, 1) no cut at all, (300, 1024, 1) no cut,
/// (600, 512, 1) NVIDIA's 50 %.
const RATE_RULES_CYCLE: [u32; 4] = [
    1023,
    2047 << 16 | 1 << 28,
    300 | 1024 << 16 | 1 << 28,
    600 | 512 << 16 | 1 << 28,
];

/// The scenarios `make cosim` runs, in order.
pub fn default_suite() -> Vec<Scenario> {
    builtin()
}

pub fn by_name(name: &str) -> Option<Scenario> {
    builtin().into_iter().find(|s| s.name == name)
}

pub fn names() -> Vec<&'static str> {
    builtin().iter().map(|s| s.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_meets_the_cycle_budget() {
        let total: u64 = default_suite().iter().map(|s| s.default_cycles).sum();
        assert!(total >= 50_000_000, "default suite compares {total} cycles");
        let mut names = names();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), builtin().len(), "scenario names are unique");
    }

    /// `rule-corners` reaches each corner it is there for many times over, on the model (the
    /// default suite's coverage test holds the RTL to it): with that margin, a change elsewhere in
    /// the stimulus (a word added to the map shifts the random bus traffic) cannot lose them.
    #[test]
    fn rule_corners_reach_their_bins_with_margin() {
        use crate::coverage::{Coverage, BINS};
        use crate::run::{run_model, RunSpec};
        let sc = by_name("rule-corners").unwrap();
        let spec = RunSpec {
            scenario: sc.name.into(),
            params: sc.params(),
            stimulus: sc.stimulus.clone(),
            seed: 1,
            cycles: sc.default_cycles,
            variant: String::new(),
            replay: String::new(),
            rtl_init_seed: 0,
            initial_state: None,
        };
        let mut cov = Coverage::new();
        run_model(&spec, |_, i, o, m| cov.sample(i, o, m));
        for (bin, at_least) in [
            ("min_dec_fac_binds", 100),
            ("alpha_init_used", 50),
            ("cnp_cnt16_wraps", 1),
        ] {
            let k = BINS.iter().position(|(n, _)| *n == bin).unwrap();
            assert!(cov.hits[k] >= at_least, "{bin}: {} hits", cov.hits[k]);
        }
    }

    /// The `rate-rules` scenario reaches every extension rule, on the model (the lockstep holds
    /// the RTL to it): each counted decrease or increase writes a result that the reset rules would
    /// not have written, for that rule alone.
    #[test]
    fn rate_rules_scenario_reaches_every_rule() {
        use crate::stimulus::Bench;
        use dcqcn_model::config::RuleFields;
        use dcqcn_model::rate_inc::hyper_index;
        use dcqcn_model::{rate_dec, rate_inc, Outputs, RateLimiter};
        let sc = by_name("rate-rules").unwrap();
        let p = sc.params();
        let l = p.line_rate();
        let mut bench = Bench::new(&sc.stimulus, &p, 11);
        let mut m = RateLimiter::new(p);
        let mut out = Outputs::default();
        let off: RuleFields = (0, 0, 1023, 0, false);
        // (rmax ceiling, first-CNP rate, min_dec_fac, alpha_init used by a first decrease, i x rhai)
        let mut hits = [0u32; 5];
        for _ in 0..1_200_000 {
            let i = bench.next(&out);
            let before = *m.state();
            out = m.step(&i);
            let ev = *m.events();
            let cfg = before.regs.cfg;
            let s = &before;
            let (inc_t, inc_b) = (s.inc.t_stage, s.inc.b_stage);
            let increased = inc_t != 0 || inc_b != 0;
            if ev.dec_fire && !cfg.bypass && !i.rst {
                let one = |r: RuleFields| {
                    let c = cfg.with_rules(off).with_rules(r);
                    let (rc_dec, rt_dec) =
                        rate_dec::result(s.rc, s.rt, s.alpha.alpha, increased, !s.active, &c, l);
                    rate_inc::ceil_decrease(rc_dec, rt_dec, &c, l)
                };
                let base = one(off);
                let (rmax, first, ai, fac, hai) = (
                    cfg.rmax,
                    cfg.rate_first_cnp,
                    cfg.alpha_init,
                    cfg.min_dec_fac,
                    cfg.hai_mult,
                );
                hits[0] += u32::from(one((rmax, 0, 1023, 0, false)) != base);
                hits[1] += u32::from(one((0, first, 1023, 0, false)) != base);
                hits[2] += u32::from(one((0, 0, 1023, fac, false)) != base);
                hits[3] += u32::from(!s.active && s.alpha.alpha != 1023 && ai == s.alpha.alpha);
                let _ = hai;
            }
            if let (Some(ph), false) = (ev.inc, cfg.bypass || i.rst) {
                let (t_new, b_new) = (
                    inc_t.saturating_add(u8::from(ev.timer_fire)),
                    inc_b.saturating_add(u8::from(ev.byte_fire)),
                );
                let k = hyper_index(t_new, b_new, &cfg);
                let c0 = cfg.with_rules(off);
                let base = rate_inc::result(s.rc, s.rt, ph, k, &c0, l);
                let ceil = rate_inc::result(
                    s.rc,
                    s.rt,
                    ph,
                    k,
                    &c0.with_rules((cfg.rmax, 0, 1023, 0, false)),
                    l,
                );
                let mult = rate_inc::result(
                    s.rc,
                    s.rt,
                    ph,
                    k,
                    &c0.with_rules((0, 0, 1023, 0, cfg.hai_mult)),
                    l,
                );
                hits[0] += u32::from(ceil != base);
                hits[4] += u32::from(mult != base && k >= 2);
            }
        }
        assert!(
            hits.iter().all(|&h| h >= 3),
            "rule hits (rmax, first CNP, min_dec_fac, alpha_init, i x rhai): {hits:?}"
        );
    }

    #[test]
    fn paper_switch_threshold_is_5gbps_over_32us() {
        // 5 Gb/s x 32 us = 20,000 bytes; 50 us = 7813 cycles.
        assert_eq!(
            switch(5.0),
            CnpSpec::Switch {
                window_cycles: 5_000,
                threshold_bytes: 20_000,
                cooldown_cycles: 7_813,
                pulse_cycles: 4,
            }
        );
    }
}
