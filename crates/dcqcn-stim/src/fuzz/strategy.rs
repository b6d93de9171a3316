//! proptest strategies for the lockstep: register configurations over their full bit ranges (with
//! a weighted share of realistic ones), traffic, downstream ready, CNP patterns, AXI4-Lite
//! traffic and resets, composed into a [`Case`] (which `dcqcn_cosim::fuzz::run_case` runs
//! model-vs-RTL); [`case_at`] draws case number n of a campaign.
//!
//! Full-range values are weighted toward the small end where a field is a period or a threshold,
//! so that a short case still reaches the events (a random 32-bit interval would never expire).

use crate::inject::{self, InjectedState};
use crate::run::RunSpec;
use crate::stimulus::{
    AxilSpec, CnpSpec, DataPattern, PeriodicWrite, ResetSpec, SinkSpec, StimulusSpec, TrafficSpec,
    WriteMode,
};
use crate::variant::{Build, Hdl, Rates};
use crate::StimError;
use dcqcn_model::config::RuleFields;
use dcqcn_model::{regmap, Config, NamedConfig, Params};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};

/// A 32-bit period or threshold: mostly small, sometimes anything.
fn period32() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => 0u32..4,
        6 => 4u32..400,
        3 => 400u32..20_000,
        1 => any::<u32>(),
    ]
}

fn period16() -> impl Strategy<Value = u16> {
    prop_oneof![
        3 => 0u16..4,
        6 => 4u16..400,
        2 => 400u16..5_000,
        1 => any::<u16>(),
    ]
}

/// A rate in bytes/s: any 32-bit value, or around the line rate and the small end.
fn rate() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => any::<u32>(),
        2 => 0u32..100_000_000,
        1 => 1_200_000_000u32..=1_300_000_000,
        1 => Just(u32::MAX),
    ]
}

/// Any configuration: every field over its full bit range (periods weighted small).
pub fn config_any() -> impl Strategy<Value = Config> {
    (
        (
            0u16..1024,
            0u8..16,
            any::<u8>(),
            any::<bool>(),
            rate(),
            rate(),
            rate(),
        ),
        (
            period32(),
            period16(),
            period16(),
            any::<bool>(),
            any::<bool>(),
            period32(),
            period32(),
        ),
    )
        .prop_map(|f| Config::from_fields(f, false))
}

/// Realistic configurations: a named configuration (spec 6.3: Table II, SURF's reset values, the
/// published DCQCN parameter sets) with compressed periods.
pub fn config_realistic() -> impl Strategy<Value = Config> {
    (
        prop_oneof![
            2 => Just(NamedConfig::PaperTable2),
            2 => Just(NamedConfig::UpstreamReset),
            1 => Just(NamedConfig::DcqcnSigcomm15),
            1 => Just(NamedConfig::NvidiaCx),
            1 => Just(NamedConfig::Ns3Hpcc),
        ],
        1u32..5_000,
        1u16..500,
        1u16..2_000,
        any::<bool>(),
        1_000u32..200_000,
    )
        .prop_map(|(named, inc, dec, al, byte_en, bt)| Config {
            inc_interval: inc,
            dec_interval: dec,
            alpha_interval: al,
            byte_en,
            byte_threshold: bt,
            ..named.config(&Params::DEFAULT)
        })
}

/// The extension rate rules (spec 6.2, 0x150-0x158), each off (its reset value) half the time
/// and otherwise biased to its edges: rmax and rate_first_cnp at 1, near L and above it, at
/// 2^32 - 1; min_dec_fac at NVIDIA's 50 %, at 1023, 1024 (no cut) and above; alpha_init at 0.
pub fn rules() -> impl Strategy<Value = RuleFields> {
    let l = Params::DEFAULT.line_rate();
    let rate = move || {
        prop_oneof![
            8 => Just(0u32),
            1 => Just(1u32),
            2 => 1u32..100_000_000,
            2 => (l - 2)..=(l + 2),
            2 => 100_000_000u32..l,
            1 => Just(u32::MAX),
            1 => any::<u32>(),
        ]
    };
    (
        rate(),
        rate(),
        prop_oneof![4 => Just(1023u16), 1 => Just(0u16), 2 => 0u16..1024],
        prop_oneof![
            6 => Just(0u16),
            2 => Just(512u16),
            1 => 1023u16..=1025,
            1 => Just(2047u16),
            2 => 0u16..2048,
        ],
        any::<bool>(),
    )
}

/// The control scheme (spec 4.9, 0x15C-0x160): hardware DCQCN (scheme 0, no gate mask) in most
/// cases, otherwise any scheme, the gate mask now and then, and the firmware rate at its edges
/// (0 = L, 1, around L, 2^32 - 1).
pub fn scheme() -> impl Strategy<Value = (u8, bool, u32)> {
    let l = Params::DEFAULT.line_rate();
    prop_oneof![
        6 => Just((0u8, false, 0u32)),
        4 => (
            0u8..4,
            prop_oneof![4 => Just(false), 1 => Just(true)],
            prop_oneof![
                2 => Just(0u32),
                1 => Just(1u32),
                3 => 1_000_000u32..l,
                1 => (l - 2)..=(l + 2),
                1 => Just(u32::MAX),
            ],
        ),
    ]
}

/// The event trace's configuration (spec 4.10, 0x170 and 0x180): armed in half the cases, in
/// either window mode, any entry selected.
pub fn trace() -> impl Strategy<Value = (bool, bool, u8)> {
    (any::<bool>(), any::<bool>(), 0u8..64)
}

/// The configuration registers that the strategies above draw, each with its own bias. Every other
/// register of the map (one added to regmap/dcqcn_regs.rdl) is drawn by [`other_registers`].
pub const DRAWN: &[&str] = &[
    "alpha_g",
    "dec_gain",
    "stage_threshold",
    "clamp_tgt",
    "rai",
    "rhai",
    "rmin",
    "inc_interval",
    "dec_interval",
    "alpha_interval",
    "timer_en",
    "byte_en",
    "byte_threshold",
    "credit_cap",
    "rmax",
    "rate_first_cnp",
    "alpha_init",
    "min_dec_fac",
    "hai_mult",
    "scheme",
    "gate_mask",
    "fw_rate",
    "trace_en",
    "trace_wrap",
    "trace_sel",
];

/// The configuration registers that [`case`] drives by periodic AXI4-Lite writes instead (the
/// configuration starts them at their reset value).
pub const WRITTEN: &[&str] = &["bypass"];

/// The configuration registers in neither [`DRAWN`] nor [`WRITTEN`]: each at its reset value 3 times in 5, otherwise
/// a small value (0-7) or any value of its width. With no such register it draws nothing, so the
/// cases of a campaign do not change when the map does not.
pub fn other_registers() -> impl Strategy<Value = Vec<(&'static str, Option<u64>)>> {
    regmap::CONFIG_FIELDS
        .iter()
        .filter(|(name, _)| !DRAWN.contains(name) && !WRITTEN.contains(name))
        .map(|&(name, width)| {
            let max = u64::MAX >> (64 - width);
            prop_oneof![
                3 => Just(None),
                1 => (0..=max.min(7)).prop_map(Some),
                1 => (0..=max).prop_map(Some),
            ]
            .prop_map(move |v| (name, v))
        })
        .collect::<Vec<_>>()
}

/// Any configuration with random rules, or a named one with its own (a profile's rules are what
/// make it; the periods are compressed either way), then a control scheme, the trace and the
/// registers no strategy above draws.
pub fn config() -> impl Strategy<Value = Config> {
    (
        prop_oneof![
            3 => (config_any(), rules()).prop_map(|(c, r)| c.with_rules(r)),
            2 => config_realistic(),
        ],
        scheme(),
        trace(),
        other_registers(),
    )
        .prop_map(
            |(c, (scheme, gate_mask, fw_rate), (trace_en, trace_wrap, trace_sel), others)| {
                let mut c = Config {
                    scheme,
                    gate_mask,
                    fw_rate,
                    trace_en,
                    trace_wrap,
                    trace_sel,
                    ..c
                };
                for (name, v) in others {
                    if let Some(v) = v {
                        // in range by construction: other_registers draws within the width
                        let set = c.set_field(name, v);
                        debug_assert_eq!(set, Ok(true), "{name}");
                    }
                }
                c
            },
        )
}

/// Writes to the trace control word every `period` cycles (spec 4.10): both window modes, clears
/// with and without arming, disarmed spells.
fn trace_switching(period: u64) -> PeriodicWrite {
    PeriodicWrite {
        period,
        addr: regmap::TRACE_CTRL,
        values: vec![1, 1 << 8 | 3, 0, 3, 1 << 8 | 1, 1 << 8, 1],
    }
}

/// Writes that switch the control scheme every `period` cycles (spec 4.9): through every scheme
/// and back to hardware DCQCN, the gate mask set and cleared.
fn scheme_switching(period: u64) -> PeriodicWrite {
    PeriodicWrite {
        period,
        addr: regmap::CONTROL,
        values: vec![1, 0, 2, 3, 0, 1 << 8, 0, 3 | 1 << 8, 1],
    }
}

pub fn traffic() -> impl Strategy<Value = Option<TrafficSpec>> {
    let spec = (
        1u32..=4096,
        0u32..=4096,
        0u32..20,
        0u32..200,
        0.2f64..=1.0,
        any::<bool>(),
        prop_oneof![3 => Just(DataPattern::Random), 1 => Just(DataPattern::Ramp)],
    )
        .prop_map(|(a, b, g0, g1, valid_prob, sparse, data)| TrafficSpec {
            frame_bytes: (a.min(b.max(1)), a.max(b.max(1))),
            gap_cycles: (g0.min(g1), g0.max(g1)),
            valid_prob,
            sparse_last_keep: sparse,
            data,
        });
    prop_oneof![1 => Just(None), 8 => spec.prop_map(Some), 2 => Just(Some(TrafficSpec::saturating(4096)))]
}

pub fn sink() -> impl Strategy<Value = SinkSpec> {
    prop_oneof![
        Just(SinkSpec::Always),
        (0.05f64..=1.0).prop_map(|ready_prob| SinkSpec::Random { ready_prob }),
        (1u64..100, 1u64..2_000).prop_map(|(mean_ready, mean_stall)| SinkSpec::Bursty {
            mean_ready,
            mean_stall
        }),
    ]
}

pub fn cnp() -> impl Strategy<Value = CnpSpec> {
    prop_oneof![
        Just(CnpSpec::None),
        (0.0001f64..0.1, 1u32..40)
            .prop_map(|(prob, max_width)| CnpSpec::Random { prob, max_width }),
        (2u64..5_000, 1u32..10).prop_map(|(period, width)| CnpSpec::Periodic { period, width }),
        // A level held high for thousands of cycles (one CNP per rising edge).
        (5_000u64..40_000, 1_000u32..5_000)
            .prop_map(|(period, width)| CnpSpec::Periodic { period, width }),
        (100u32..5_000, 10u64..40_000, 0u64..10_000, 1u32..6).prop_map(|(w, t, c, p)| {
            CnpSpec::Switch {
                window_cycles: w,
                threshold_bytes: t,
                cooldown_cycles: c,
                pulse_cycles: p,
            }
        }),
    ]
}

pub fn axil() -> impl Strategy<Value = AxilSpec> {
    (
        0.0f64..0.05,
        0.0f64..0.01,
        prop_oneof![Just(WriteMode::Sane), Just(WriteMode::Any)],
        any::<bool>(),
        0.1f64..=1.0,
        0.1f64..=1.0,
        prop_oneof![3 => Just(None), 1 => (500u64..20_000).prop_map(Some)],
        any::<bool>(),
        (
            any::<bool>(),
            prop_oneof![3 => Just(None), 1 => (300u64..30_000).prop_map(Some)],
            any::<bool>(),
            prop_oneof![2 => Just(None), 1 => (200u64..20_000).prop_map(Some)],
        ),
    )
        .prop_map(
            |(
                read_prob,
                write_prob,
                write_mode,
                decerr,
                bready_prob,
                rready_prob,
                bypass_toggle,
                rule_words,
                (scheme_words, scheme_switch, trace_words, trace_switch),
            )| AxilSpec {
                read_prob,
                write_prob,
                write_mode,
                decerr,
                bready_prob,
                rready_prob,
                periodic: bypass_toggle
                    .map(|period| PeriodicWrite {
                        period,
                        addr: regmap::BYPASS,
                        values: vec![1, 0],
                    })
                    .into_iter()
                    .chain(scheme_switch.map(scheme_switching))
                    .chain(trace_switch.map(trace_switching))
                    .collect(),
                rule_words,
                scheme_words,
                trace_words,
            },
        )
}

pub fn resets() -> impl Strategy<Value = ResetSpec> {
    (
        1u32..8,
        prop_oneof![2 => Just(0u64), 1 => 500u64..20_000],
        1u32..20,
    )
        .prop_map(|(initial_cycles, mean_interval, w)| ResetSpec {
            initial_cycles,
            mean_interval,
            width: (1, w),
        })
}

pub fn stimulus() -> impl Strategy<Value = StimulusSpec> {
    (config(), traffic(), sink(), cnp(), axil(), resets()).prop_map(
        |(config, traffic, sink, cnp, axil, resets)| StimulusSpec {
            config,
            traffic,
            sink,
            cnp,
            axil,
            resets,
        },
    )
}

/// One fuzz case: a beat width, a clock and line rate, a stimulus and a seed, and optionally a
/// state to start from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Case {
    pub data_bytes: u32,
    /// CLK_FREQ_HZ and LINE_RATE (absent in a saved case: 10 GbE at 156.25 MHz).
    #[serde(default, skip_serializing_if = "Rates::is_default")]
    pub rates: Rates,
    pub stimulus: StimulusSpec,
    pub seed: u64,
    /// Random initial RTL register values from this seed (0: zeros), so a missing reset shows up.
    pub rtl_init_seed: u64,
    /// Start from this state (spec 4.8), with the stimulus configuration as the configuration
    /// registers, instead of from reset (absent: from reset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_state: Option<InjectedState>,
}

/// Cases that start from an injected state: 1 in [`INJECTED_SHARE`].
pub const INJECTED_SHARE: u32 = 4;

pub fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![4 => Just(8u32), 1 => Just(32u32), 1 => Just(64u32)],
        // the rate sets are built at 8-byte beats: 3 in 7 of those cases run at another rate
        prop_oneof![
            4 => Just(Rates::TenG),
            1 => Just(Rates::OneG),
            1 => Just(Rates::TwentyFiveG),
            1 => Just(Rates::LMax)
        ],
        stimulus(),
        any::<u64>(),
        prop_oneof![1 => Just(0u64), 3 => 1u64..u64::MAX],
        prop_oneof![INJECTED_SHARE - 1 => Just(false), 1 => Just(true)],
    )
        .prop_flat_map(
            |(data_bytes, rates, stimulus, seed, rtl_init_seed, injected)| {
                let rates = if rates.built_at(data_bytes) {
                    rates
                } else {
                    Rates::TenG
                };
                let p = rates
                    .params(data_bytes)
                    .expect("the built rate sets are legal parameters");
                let state = if injected {
                    inject::config_edge(stimulus.config)
                        .prop_flat_map(move |cfg| (Just(cfg), inject::state(cfg, p).prop_map(Some)))
                        .boxed()
                } else {
                    Just((stimulus.config, None)).boxed()
                };
                (
                    Just((data_bytes, rates, stimulus, seed, rtl_init_seed)),
                    state,
                )
                    .prop_map(
                        |(
                            (data_bytes, rates, mut stimulus, seed, rtl_init_seed),
                            (config, initial_state),
                        )| {
                            stimulus.config = config;
                            if initial_state.is_some() {
                                // an initial reset would wipe the injected state
                                stimulus.resets.initial_cycles = 0;
                            }
                            Case {
                                data_bytes,
                                rates,
                                stimulus,
                                seed,
                                rtl_init_seed,
                                initial_state,
                            }
                        },
                    )
            },
        )
}

impl Case {
    /// The first injected value a register of the RTL cannot hold, as (field path, why): the
    /// configuration's fields against their register fields, the injected state's against their
    /// registers at the case's beat width. The wrapper would load only the register's bits while
    /// the model kept the whole value, so such a case is a defect of the harness, not of the RTL.
    pub fn misfit(&self) -> Option<(String, String)> {
        if let Some((name, v, w)) = self.stimulus.config.out_of_range() {
            return Some((
                format!("stimulus.config.{name}"),
                format!(
                    "{v} does not fit the {w}-bit field (max {})",
                    (1u64 << w) - 1
                ),
            ));
        }
        let (name, why) = self.initial_state.as_ref()?.out_of_range(self.data_bytes)?;
        Some((format!("initial_state.{name}"), why))
    }

    /// The lockstep run of this case on `variant` (default: the case's beat width). A case with
    /// a value its register cannot hold ([`Case::misfit`]) is refused, never run.
    pub fn run_spec(
        &self,
        cycles: u64,
        variant: Option<&str>,
        replay: String,
    ) -> Result<RunSpec, StimError> {
        if let Some((field, why)) = self.misfit() {
            return Err(StimError::Harness(format!(
                "the case injects `{field}`: {why}; the RTL's register cannot hold it, so \
                 the case was not run (a defect of the fuzzer's strategies, not of the RTL)"
            )));
        }
        let variant = variant.map_or_else(|| self.variant(Hdl::Sv), str::to_string);
        // the variant's feature configuration (spec 2): the model answers as that build does
        let params = self
            .rates
            .params(self.data_bytes)
            .and_then(|p| p.with_features(Build::of_variant(&variant).features()))
            .map_err(|e| StimError::Case(e.to_string()))?;
        Ok(RunSpec {
            scenario: "fuzz".into(),
            params,
            stimulus: self.stimulus.clone(),
            seed: self.seed,
            cycles,
            variant,
            replay,
            rtl_init_seed: self.rtl_init_seed,
            initial_state: self.initial_state.map(|s| s.to_state(self.stimulus.config)),
        })
    }

    /// The variant of `hdl` built for this case's beat width and rates.
    pub fn variant(&self, hdl: Hdl) -> String {
        hdl.rates_variant(self.data_bytes, self.rates)
    }
}

/// Case number `index` of a campaign with `seed`, as drawn (before a campaign's `--variant` or
/// `--no-inject` adapts it).
pub fn case_at(seed: u64, index: u64) -> Result<Case, StimError> {
    Ok(case_tree(seed, index)?.current())
}

/// The value tree of case number `index` of a campaign with `seed`.
pub fn case_tree(seed: u64, index: u64) -> Result<impl ValueTree<Value = Case>, StimError> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(ProptestConfig::default(), rng);
    case()
        .new_tree(&mut runner)
        .map_err(|e| StimError::Case(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name in [`DRAWN`] is a configuration register and takes more than one value over a
    /// few hundred draws of [`config`]: a register listed there but drawn by no strategy (and so
    /// left out of [`other_registers`]) fails here. A register of [`WRITTEN`] is one and stays at
    /// its reset value in [`config`] (the case's writes move it).
    #[test]
    fn drawn_registers_are_registers_and_vary() {
        let mut runner = TestRunner::new_with_rng(
            proptest::test_runner::Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
        );
        let strategy = config();
        let samples: Vec<Config> = (0..400)
            .map(|_| strategy.new_tree(&mut runner).expect("tree").current())
            .collect();
        for name in DRAWN {
            let i = regmap::CONFIG_FIELDS
                .iter()
                .position(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("{name} is not a configuration register"));
            let first = samples[0].values()[i];
            assert!(
                samples.iter().any(|c| c.values()[i] != first),
                "{name}: the same value in every draw"
            );
        }
        let reset = Config::reset(&Params::DEFAULT).values();
        for name in WRITTEN {
            let i = regmap::CONFIG_FIELDS
                .iter()
                .position(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("{name} is not a configuration register"));
            assert!(samples.iter().all(|c| c.values()[i] == reset[i]), "{name}");
        }
    }
}
