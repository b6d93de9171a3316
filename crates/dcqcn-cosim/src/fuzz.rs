//! proptest strategies for the lockstep: register configurations over their full bit ranges (with
//! a weighted share of realistic ones), traffic, downstream ready, CNP patterns, AXI4-Lite
//! traffic and resets, composed into a [`Case`] that [`run_case`] runs model-vs-RTL.
//!
//! Full-range values are weighted toward the small end where a field is a period or a threshold,
//! so that a short case still reaches the events (a random 32-bit interval would never expire).

use crate::coverage::Coverage;
use crate::inject::{self, InjectedState};
use crate::lockstep::{self, Mismatch, Outcome, RunSpec, HISTORY_CYCLES};
use crate::rtl::{self, Rates};
use crate::stimulus::{
    AxilSpec, CnpSpec, DataPattern, PeriodicWrite, ResetSpec, SinkSpec, StimulusSpec, TrafficSpec,
    WriteMode,
};
use crate::CosimError;
use dcqcn_model::config::RuleFields;
use dcqcn_model::{regmap, Config, NamedConfig, Params};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

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

/// Any configuration with random rules, or a named one with its own (a profile's rules are what
/// make it; the periods are compressed either way), then a control scheme and the trace.
pub fn config() -> impl Strategy<Value = Config> {
    (
        prop_oneof![
            3 => (config_any(), rules()).prop_map(|(c, r)| c.with_rules(r)),
            2 => config_realistic(),
        ],
        scheme(),
        trace(),
    )
        .prop_map(
            |(c, (scheme, gate_mask, fw_rate), (trace_en, trace_wrap, trace_sel))| Config {
                scheme,
                gate_mask,
                fw_rate,
                trace_en,
                trace_wrap,
                trace_sel,
                ..c
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
    ) -> Result<RunSpec, CosimError> {
        if let Some((field, why)) = self.misfit() {
            return Err(CosimError::Harness(format!(
                "the case injects `{field}`: {why}; the RTL's register cannot hold it, so \
                 the case was not run (a defect of the fuzzer's strategies, not of the RTL)"
            )));
        }
        let params = self
            .rates
            .params(self.data_bytes)
            .map_err(|e| CosimError::Case(e.to_string()))?;
        Ok(RunSpec {
            scenario: "fuzz".into(),
            params,
            stimulus: self.stimulus.clone(),
            seed: self.seed,
            cycles,
            variant: variant.map_or_else(|| self.variant(rtl::Hdl::Sv), str::to_string),
            replay,
            rtl_init_seed: self.rtl_init_seed,
            initial_state: self.initial_state.map(|s| s.to_state(self.stimulus.config)),
        })
    }

    /// The variant of `hdl` built for this case's beat width and rates.
    pub fn variant(&self, hdl: rtl::Hdl) -> String {
        hdl.rates_variant(self.data_bytes, self.rates)
    }
}

/// Runs a case model-vs-RTL for `cycles`, on `hdl`'s variant of the case's beat width.
pub fn run_case(case: &Case, cycles: u64, hdl: rtl::Hdl) -> Result<Outcome, CosimError> {
    let replay = format!(
        "(fuzz case, seed {}, RTL init seed {})",
        case.seed, case.rtl_init_seed
    );
    let variant = case.variant(hdl);
    lockstep::run(&case.run_spec(cycles, Some(&variant), replay)?, None)
}

/// A fuzz campaign: `cases` cases (or as many as fit in `seconds`) of `cycles` each on `jobs`
/// threads. Case number n is drawn from (`seed`, n) alone, so a campaign is the same whatever the
/// thread count or timing.
#[derive(Clone, Debug)]
pub struct CampaignCfg {
    pub cases: Option<u64>,
    pub seconds: Option<f64>,
    pub seed: u64,
    pub cycles: u64,
    pub jobs: usize,
    /// Run every case on this RTL variant (and its beat width) instead of the case's own width.
    pub variant: Option<String>,
    /// Without `variant`: the HDL whose variant of the case's beat width runs each case.
    pub hdl: rtl::Hdl,
    /// Run the cases drawn with an injected state from it (the default); `false` runs the same
    /// cases from reset instead (their usual 4-cycle initial reset), for comparison.
    pub inject: bool,
}

/// A failing case after shrinking.
#[derive(Clone, Debug)]
pub struct Failure {
    pub index: u64,
    pub case: Case,
    pub mismatch: lockstep::Mismatch,
    pub shrink_steps: u64,
}

#[derive(Clone, Debug)]
pub struct CampaignResult {
    pub cases: u64,
    pub cycles: u64,
    pub seconds: f64,
    pub coverage: Coverage,
    pub failure: Option<Failure>,
}

/// A saved fuzz case (`dcqcn fuzz --replay FILE`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedCase {
    pub format: String,
    pub cycles: u64,
    pub variant: Option<String>,
    pub case: Case,
}

pub const SAVED_CASE_FORMAT: &str = "dcqcn-fuzz-case 1";

/// Bounds of a saved case read from a file (docs/inputs.md), checked before anything runs.
pub const MAX_CASE_BYTES: u64 = 16 << 20;
/// At most this many cycles per case (a few tens of seconds of lockstep).
pub const MAX_CASE_CYCLES: u64 = 100_000_000;
/// The emulated switch's window (it holds one entry per cycle of it); the paper's is 5,000.
pub const MAX_WINDOW_CYCLES: u32 = 1 << 20;
/// Frames of the traffic source, in bytes.
pub const MAX_FRAME_BYTES: u32 = 4096;
/// Register writes of one periodic writer.
pub const MAX_PERIODIC_VALUES: usize = 4096;

impl SavedCase {
    /// The saved form of a campaign's failure: its shrunk case, run up to and including the
    /// mismatch, on `variant` (`None`: the case's beat width).
    pub fn of_failure(f: &Failure, variant: Option<&str>) -> SavedCase {
        SavedCase {
            format: SAVED_CASE_FORMAT.into(),
            cycles: f.mismatch.cycle + 1,
            variant: variant.map(str::to_string),
            case: f.case.clone(),
        }
    }

    /// Checks every value against its field and every count against its bound, so that a case
    /// edited by hand cannot wrap, allocate without bound, or run a model the RTL cannot hold;
    /// `file` names the case in messages (`<file>: `<field>`: <why>`).
    pub fn check(&self, file: &str) -> Result<(), CosimError> {
        let bad = |field: &str, why: String| CosimError::Case(format!("{file}: `{field}`: {why}"));
        if !(1..=MAX_CASE_CYCLES).contains(&self.cycles) {
            return Err(bad(
                "cycles",
                format!("{}: must be 1..={MAX_CASE_CYCLES}", self.cycles),
            ));
        }
        let c = &self.case;
        Params::with_data_bytes(c.data_bytes)
            .map_err(|e| bad("case.data_bytes", format!("{}: {e}", c.data_bytes)))?;
        if !c.rates.built_at(c.data_bytes) {
            return Err(bad(
                "case.rates",
                format!(
                    "`{}` is built at 8-byte beats only, not at {}",
                    c.rates.name(),
                    c.data_bytes
                ),
            ));
        }
        if let Some((field, why)) = c.misfit() {
            return Err(bad(&format!("case.{field}"), why));
        }
        let st = &c.stimulus;
        let prob = |field: &str, p: f64| {
            if (0.0..=1.0).contains(&p) {
                Ok(())
            } else {
                Err(bad(field, format!("{p}: a probability must be in 0..=1")))
            }
        };
        let range = |field: &str, (lo, hi): (u32, u32), min: u32, max: u32| {
            if lo < min || hi > max || lo > hi {
                Err(bad(
                    field,
                    format!("({lo}, {hi}): must be (min, max) with {min} <= min <= max <= {max}"),
                ))
            } else {
                Ok(())
            }
        };
        if let Some(t) = &st.traffic {
            range(
                "case.stimulus.traffic.frame_bytes",
                t.frame_bytes,
                1,
                MAX_FRAME_BYTES,
            )?;
            range(
                "case.stimulus.traffic.gap_cycles",
                t.gap_cycles,
                0,
                u32::MAX,
            )?;
            prob("case.stimulus.traffic.valid_prob", t.valid_prob)?;
        }
        if let SinkSpec::Random { ready_prob } = st.sink {
            prob("case.stimulus.sink.ready_prob", ready_prob)?;
        }
        match st.cnp {
            CnpSpec::Switch {
                window_cycles,
                pulse_cycles,
                ..
            } => {
                if !(1..=MAX_WINDOW_CYCLES).contains(&window_cycles) {
                    return Err(bad(
                        "case.stimulus.cnp.window_cycles",
                        format!("{window_cycles}: must be 1..={MAX_WINDOW_CYCLES}"),
                    ));
                }
                if pulse_cycles == 0 {
                    return Err(bad(
                        "case.stimulus.cnp.pulse_cycles",
                        "must be at least 1".into(),
                    ));
                }
            }
            CnpSpec::Random { prob: p, .. } => prob("case.stimulus.cnp.prob", p)?,
            CnpSpec::None | CnpSpec::Periodic { .. } => {}
        }
        let a = &st.axil;
        prob("case.stimulus.axil.read_prob", a.read_prob)?;
        prob("case.stimulus.axil.write_prob", a.write_prob)?;
        prob("case.stimulus.axil.bready_prob", a.bready_prob)?;
        prob("case.stimulus.axil.rready_prob", a.rready_prob)?;
        for (k, w) in a.periodic.iter().enumerate() {
            let top = 1u32 << dcqcn_model::regs::AXIL_ADDR_BITS;
            if u32::from(w.addr) >= top {
                return Err(bad(
                    &format!("case.stimulus.axil.periodic[{k}].addr"),
                    format!(
                        "{:#x} does not fit the {}-bit s_axil_awaddr port (max {:#x})",
                        w.addr,
                        dcqcn_model::regs::AXIL_ADDR_BITS,
                        top - 1
                    ),
                ));
            }
            if w.values.is_empty() || w.values.len() > MAX_PERIODIC_VALUES {
                return Err(bad(
                    &format!("case.stimulus.axil.periodic[{k}].values"),
                    format!(
                        "{} values: must be 1..={MAX_PERIODIC_VALUES}",
                        w.values.len()
                    ),
                ));
            }
        }
        range("case.stimulus.resets.width", st.resets.width, 1, u32::MAX)?;
        Ok(())
    }

    /// The lockstep run of the saved case; `replay` is the command that reproduces it.
    pub fn run_spec(&self, replay: String) -> Result<RunSpec, CosimError> {
        self.case
            .run_spec(self.cycles, self.variant.as_deref(), replay)
    }
}

/// The command that replays a saved case.
pub fn replay_command(path: &Path) -> String {
    format!("dcqcn fuzz --replay {}", path.display())
}

/// Where the mismatch report of a saved case goes (its waveform goes beside it, `.vcd`):
/// `case.json` gives `case.mismatch.json`.
pub fn mismatch_report_path(case: &Path) -> PathBuf {
    case.with_extension("mismatch.json")
}

/// Writes a saved case as pretty-printed JSON, which [`load_case`] reads back.
pub fn save_case(path: &Path, saved: &SavedCase) -> Result<(), CosimError> {
    let json = serde_json::to_string_pretty(saved).expect("a saved case serialises");
    std::fs::write(path, json).map_err(|source| CosimError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// A campaign's failure, saved: the case as written, the run that replays it, and its mismatch
/// ready to report (replay command and the model's last cycles filled in).
#[derive(Clone, Debug)]
pub struct SavedFailure {
    pub saved: SavedCase,
    pub spec: RunSpec,
    pub mismatch: Mismatch,
}

/// Saves the shrunk case of a campaign's failure to `path` (see [`save_case`]) and prepares its
/// report, whose replay command is `dcqcn fuzz --replay <path>`.
pub fn save_failure(
    f: &Failure,
    variant: Option<&str>,
    path: &Path,
) -> Result<SavedFailure, CosimError> {
    let saved = SavedCase::of_failure(f, variant);
    save_case(path, &saved)?;
    let spec = saved.run_spec(replay_command(path))?;
    let mut mismatch = f.mismatch.clone();
    mismatch.replay = spec.replay.clone();
    lockstep::explain(&spec, &mut mismatch, HISTORY_CYCLES);
    Ok(SavedFailure {
        saved,
        spec,
        mismatch,
    })
}

/// A saved case, replayed.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub saved: SavedCase,
    pub spec: RunSpec,
    /// The run; a mismatch comes with the model's last cycles.
    pub outcome: Outcome,
}

/// Loads a saved case and runs it model-vs-RTL for its saved length, on its saved variant.
pub fn replay(path: &Path) -> Result<Replayed, CosimError> {
    let saved = load_case(path)?;
    let file = path.display().to_string();
    let variants = rtl::variants();
    let compiled = || {
        variants
            .iter()
            .map(|v| format!("{} ({} B)", v.name, v.data_bytes))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &saved.variant {
        Some(v) => {
            if !variants.iter().any(|x| &x.name == v) {
                return Err(CosimError::Case(format!(
                    "{file}: `variant`: unknown RTL variant `{}` (compiled: {})",
                    crate::clip(v),
                    compiled()
                )));
            }
        }
        None => {
            let db = saved.case.data_bytes;
            let want = saved.case.variant(rtl::Hdl::Sv);
            if !variants.iter().any(|x| x.name == want) {
                return Err(CosimError::Case(format!(
                    "{file}: `case.data_bytes`: no RTL variant {want} ({db}-byte beats, rates {}) is compiled into this binary (compiled: {})",
                    saved.case.rates.name(),
                    compiled()
                )));
            }
        }
    }
    let spec = saved.run_spec(replay_command(path))?;
    let mut outcome = lockstep::run(&spec, None)?;
    if let Some(m) = outcome.mismatch.as_mut() {
        lockstep::explain(&spec, m, HISTORY_CYCLES);
    }
    Ok(Replayed {
        saved,
        spec,
        outcome,
    })
}

/// Set (to anything) to run every case of `dcqcn fuzz --variant V` on V itself even where V has
/// rate siblings (the campaign without parameter variants, for comparison).
pub const FIXED_RATES_ENV: &str = "DCQCN_FUZZ_FIXED_RATES";

/// The variant a case drawn at `rates` runs on when a campaign names `variant`: the variant's rate
/// sibling `<variant>-<rates>` where one is compiled (a mutant built at every rate set, see
/// `make mutants`), else `variant` itself. [`FIXED_RATES_ENV`] turns the siblings off.
pub fn rates_sibling(variant: &str, rates: Rates) -> String {
    if rates != Rates::TenG && std::env::var_os(FIXED_RATES_ENV).is_none() {
        let sibling = format!("{variant}-{}", rates.name());
        if rtl::variants().iter().any(|x| x.name == sibling) {
            return sibling;
        }
    }
    variant.to_string()
}

/// Case number `index` of a campaign with `seed`, as drawn (before a campaign's `--variant` or
/// `--no-inject` adapts it).
pub fn case_at(seed: u64, index: u64) -> Result<Case, CosimError> {
    Ok(case_tree(seed, index)?.current())
}

/// The value tree of case number `index` of a campaign with `seed`.
fn case_tree(seed: u64, index: u64) -> Result<impl ValueTree<Value = Case>, CosimError> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(ProptestConfig::default(), rng);
    case()
        .new_tree(&mut runner)
        .map_err(|e| CosimError::Case(e.to_string()))
}

impl CampaignCfg {
    /// The case as run: on a fixed variant, with that variant's beat width and rates (an injected
    /// output register cut to the beat width).
    fn adapt(&self, mut c: Case) -> Case {
        if !self.inject && c.initial_state.take().is_some() {
            c.stimulus.resets.initial_cycles = ResetSpec::initial_only().initial_cycles;
        }
        if let Some(v) = &self.variant {
            let v = rates_sibling(v, c.rates);
            if let Some(info) = rtl::variants().into_iter().find(|x| x.name == v) {
                c.data_bytes = info.data_bytes;
                c.rates = Rates::ALL
                    .into_iter()
                    .find(|r| r.clk_and_line_rate() == (info.clk_hz, info.line_rate))
                    .unwrap_or_default();
                if let Some(s) = c.initial_state.as_mut() {
                    s.fit_beat(c.data_bytes);
                }
            }
        }
        c
    }

    fn out_of_budget(&self, index: u64, start: Instant) -> bool {
        self.cases.is_some_and(|max| index >= max)
            || self
                .seconds
                .is_some_and(|s| start.elapsed().as_secs_f64() >= s)
    }

    /// The variant a case runs on: `variant`, or the HDL's variant of the case's beat width
    /// (`None` for the SystemVerilog, the default of a saved case).
    pub fn variant_for(&self, c: &Case) -> Option<String> {
        match (&self.variant, self.hdl) {
            (Some(v), _) => Some(rates_sibling(v, c.rates)),
            (None, rtl::Hdl::Sv) => None,
            (None, hdl) => Some(c.variant(hdl)),
        }
    }

    fn run(&self, c: &Case) -> Result<Outcome, CosimError> {
        lockstep::run(
            &c.run_spec(self.cycles, self.variant_for(c).as_deref(), String::new())?,
            None,
        )
    }
}

/// Shared counters of a running campaign.
struct Shared {
    stop: AtomicBool,
    cases: AtomicU64,
    cycles: AtomicU64,
    workers_done: AtomicUsize,
    coverage: Mutex<Coverage>,
    failure: Mutex<Option<Failure>>,
    error: Mutex<Option<CosimError>>,
}

/// One worker: cases `job`, `job + jobs`, ... until the budget ends or a case fails.
fn worker(
    cfg: &CampaignCfg,
    sh: &Shared,
    job: u64,
    jobs: u64,
    start: Instant,
) -> Result<(), CosimError> {
    let mut index = job;
    while !sh.stop.load(Relaxed) && !cfg.out_of_budget(index, start) {
        let mut tree = case_tree(cfg.seed, index)?;
        let mut o = cfg.run(&cfg.adapt(tree.current())).map_err(|e| match e {
            CosimError::Harness(m) => {
                CosimError::Harness(format!("case {index} (campaign seed {}): {m}", cfg.seed))
            }
            e => e,
        })?;
        o.coverage.mark_case(index);
        sh.cycles.fetch_add(o.stats.cycles, Relaxed);
        sh.cases.fetch_add(1, Relaxed);
        sh.coverage
            .lock()
            .expect("coverage lock")
            .merge(&o.coverage);
        if let Some(m) = o.mismatch {
            sh.stop.store(true, Relaxed);
            // Shrink: simplify while the case still fails, back off when it passes.
            let (mut best, mut best_m, mut steps) = (cfg.adapt(tree.current()), m, 0u64);
            let mut more = tree.simplify();
            while more && steps < 1_000 {
                steps += 1;
                let c = cfg.adapt(tree.current());
                match cfg.run(&c)?.mismatch {
                    Some(m) => {
                        (best, best_m) = (c, m);
                        more = tree.simplify();
                    }
                    None => more = tree.complicate(),
                }
            }
            let mut f = sh.failure.lock().expect("failure lock");
            if f.as_ref().is_none_or(|old| index < old.index) {
                *f = Some(Failure {
                    index,
                    case: best,
                    mismatch: best_m,
                    shrink_steps: steps,
                });
            }
        }
        index += jobs;
    }
    Ok(())
}

/// Runs a campaign; `progress(cases, cycles, seconds)` is called about five times a second.
pub fn campaign(
    cfg: &CampaignCfg,
    progress: &(dyn Fn(u64, u64, f64) + Sync),
) -> Result<CampaignResult, CosimError> {
    let start = Instant::now();
    let jobs = cfg.jobs.max(1);
    let sh = Shared {
        stop: AtomicBool::new(false),
        cases: AtomicU64::new(0),
        cycles: AtomicU64::new(0),
        workers_done: AtomicUsize::new(0),
        coverage: Mutex::new(Coverage::new()),
        failure: Mutex::new(None),
        error: Mutex::new(None),
    };
    std::thread::scope(|scope| {
        for job in 0..jobs as u64 {
            let sh = &sh;
            scope.spawn(move || {
                if let Err(e) = worker(cfg, sh, job, jobs as u64, start) {
                    sh.stop.store(true, Relaxed);
                    sh.error.lock().expect("error lock").get_or_insert(e);
                }
                sh.workers_done.fetch_add(1, Relaxed);
            });
        }
        while sh.workers_done.load(Relaxed) < jobs {
            std::thread::sleep(std::time::Duration::from_millis(200));
            progress(
                sh.cases.load(Relaxed),
                sh.cycles.load(Relaxed),
                start.elapsed().as_secs_f64(),
            );
        }
    });
    if let Some(e) = sh.error.into_inner().expect("error lock") {
        return Err(e);
    }
    Ok(CampaignResult {
        cases: sh.cases.into_inner(),
        cycles: sh.cycles.into_inner(),
        seconds: start.elapsed().as_secs_f64(),
        coverage: sh.coverage.into_inner().expect("coverage lock"),
        failure: sh.failure.into_inner().expect("failure lock"),
    })
}

/// Reads a saved case; errors name the file and the line, or the field and its bound.
pub fn load_case(path: &Path) -> Result<SavedCase, CosimError> {
    let text = read_bounded(path, MAX_CASE_BYTES)?;
    parse_case(&text, &path.display().to_string())
}

/// A saved case from its JSON text; `file` names it in errors.
pub fn parse_case(text: &str, file: &str) -> Result<SavedCase, CosimError> {
    // serde_path_to_error names the field (`case.rates`) that serde_json's message leaves out.
    let json_error = |path: Option<String>, e: &serde_json::Error| {
        // serde_json ends its message with the position, which the prefix already gives
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(m, _)| m);
        let field = path.map_or_else(String::new, |p| format!("`{p}`: "));
        CosimError::Case(format!(
            "{file}:{}: {field}{}",
            e.line(),
            dcqcn_harness::clip_message(message)
        ))
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let saved: SavedCase = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        json_error((path != ".").then_some(path), e.inner())
    })?;
    de.end().map_err(|e| json_error(None, &e))?;
    if saved.format != SAVED_CASE_FORMAT {
        return Err(CosimError::Case(format!(
            "{file}: format `{}` is not `{SAVED_CASE_FORMAT}`",
            crate::clip(&saved.format)
        )));
    }
    saved.check(file)?;
    Ok(saved)
}

/// The text of a regular file of at most `max` bytes (not a device, a fifo or a folder), read
/// without ever holding more than `max + 1` bytes.
pub fn read_bounded(path: &Path, max: u64) -> Result<String, CosimError> {
    use std::io::Read;
    let file = path.display().to_string();
    let io = |source| CosimError::Io {
        path: file.clone(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(CosimError::Case(format!("{file}: not a regular file")));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(CosimError::Case(format!(
            "{file}: larger than the limit of {max} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|_| CosimError::Case(format!("{file}: not UTF-8 text")))
}
