//! proptest strategies for the lockstep: register configurations over their full bit ranges (with
//! a weighted share of realistic ones), traffic, downstream ready, CNP patterns, AXI4-Lite
//! traffic and resets, composed into a [`Case`] that [`run_case`] runs model-vs-RTL.
//!
//! Full-range values are weighted toward the small end where a field is a period or a threshold,
//! so that a short case still reaches the events (a random 32-bit interval would never expire).

use crate::lockstep::{self, Outcome, RunSpec};
use crate::rtl;
use crate::stimulus::{
    AxilSpec, CnpSpec, PeriodicWrite, ResetSpec, SinkSpec, StimulusSpec, TrafficSpec, WriteMode,
};
use crate::CosimError;
use dcqcn_model::{regmap, Config, NamedConfig, Params};
use proptest::prelude::*;

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
        .prop_map(
            |(
                (alpha_g, dec_gain, f, clamp, rai, rhai, rmin),
                (inc, dec, al, ten, ben, bt, cap),
            )| Config {
                alpha_g,
                dec_gain,
                stage_threshold: f,
                clamp_tgt: clamp,
                rai,
                rhai,
                rmin,
                inc_interval: inc,
                dec_interval: dec,
                alpha_interval: al,
                bypass: false,
                timer_en: ten,
                byte_en: ben,
                byte_threshold: bt,
                credit_cap: cap,
            },
        )
}

/// Realistic configurations: Table II or SURF's reset values with compressed periods.
pub fn config_realistic() -> impl Strategy<Value = Config> {
    (
        prop_oneof![
            Just(NamedConfig::PaperTable2),
            Just(NamedConfig::UpstreamReset)
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

pub fn config() -> impl Strategy<Value = Config> {
    prop_oneof![3 => config_any(), 2 => config_realistic()]
}

pub fn traffic() -> impl Strategy<Value = Option<TrafficSpec>> {
    let spec = (
        1u32..=4096,
        0u32..=4096,
        0u32..20,
        0u32..200,
        0.2f64..=1.0,
        any::<bool>(),
    )
        .prop_map(|(a, b, g0, g1, valid_prob, sparse)| TrafficSpec {
            frame_bytes: (a.min(b.max(1)), a.max(b.max(1))),
            gap_cycles: (g0.min(g1), g0.max(g1)),
            valid_prob,
            sparse_last_keep: sparse,
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
            )| AxilSpec {
                read_prob,
                write_prob,
                write_mode,
                decerr,
                bready_prob,
                rready_prob,
                periodic: bypass_toggle
                    .map(|period| {
                        vec![PeriodicWrite {
                            period,
                            addr: regmap::BYPASS,
                            values: vec![1, 0],
                        }]
                    })
                    .unwrap_or_default(),
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

/// One fuzz case: a beat width, a stimulus and a seed.
#[derive(Clone, Debug)]
pub struct Case {
    pub data_bytes: u32,
    pub stimulus: StimulusSpec,
    pub seed: u64,
    /// Random initial RTL register values from this seed (0: zeros), so a missing reset shows up.
    pub rtl_init_seed: u64,
}

pub fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![4 => Just(8u32), 1 => Just(32u32), 1 => Just(64u32)],
        stimulus(),
        any::<u64>(),
        prop_oneof![1 => Just(0u64), 3 => 1u64..u64::MAX],
    )
        .prop_map(|(data_bytes, stimulus, seed, rtl_init_seed)| Case {
            data_bytes,
            stimulus,
            seed,
            rtl_init_seed,
        })
}

/// Runs a case model-vs-RTL for `cycles`.
pub fn run_case(case: &Case, cycles: u64) -> Result<Outcome, CosimError> {
    let spec = RunSpec {
        scenario: "fuzz".into(),
        params: Params::with_data_bytes(case.data_bytes).expect("strategy widths are legal"),
        stimulus: case.stimulus.clone(),
        seed: case.seed,
        cycles,
        variant: rtl::width_variant(case.data_bytes),
        replay: format!(
            "(fuzz case, seed {}, RTL init seed {})",
            case.seed, case.rtl_init_seed
        ),
        rtl_init_seed: case.rtl_init_seed,
    };
    lockstep::run(&spec, None)
}
