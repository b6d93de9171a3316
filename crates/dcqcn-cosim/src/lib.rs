//! Per-cycle lockstep of the DCQCN RTL (Verilated, through a cxx shim) against `dcqcn-model`.
//!
//! - [`rtl`]: the Verilated RTL behind the same types as the model (`Inputs` in, `Snapshot` out);
//! - [`lockstep`]: the run loop and its mismatch report (the differing fields, the history);
//! - [`mq_rtl`], [`mq_lockstep`]: the same for the multi-QP block `dcqcn_mq` (docs/spec-mq.md 8),
//!   through its own bridge [`mq_ffi`];
//! - [`vcd_out`]: waveforms of both sides;
//! - [`artifacts`]: a mismatch's JSON report and the waveform window before it;
//! - [`fuzz`]: fuzz cases run model-vs-RTL, campaigns with shrinking, saved cases replayed;
//! - [`bench`], [`mq_bench`]: the recorded stimulus and harnesses of `make bench` (each block).
//!
//! Stimulus, scenarios, coverage, state injection, fuzz cases and golden vectors come from
//! `dcqcn-stim`; register configuration files, units and the random stream from `dcqcn-harness`.
//!
//! It is not a network simulator and holds no second model of the block.

pub mod artifacts;
pub mod bench;
pub mod ffi;
pub mod fuzz;
pub mod lockstep;
pub mod mq_bench;
pub mod mq_ffi;
pub mod mq_lockstep;
pub mod mq_rtl;
pub mod rtl;
pub mod vcd_out;

pub use dcqcn_harness::clip;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CosimError {
    #[error("unknown RTL variant `{name}` (compiled: {})", known.join(", "))]
    UnknownVariant { name: String, known: Vec<String> },
    #[error("Verilator model: {0}")]
    Verilator(String),
    #[error("RTL variant `{variant}` has {variant_bytes}-byte beats but the scenario uses {scenario_bytes}-byte beats")]
    WidthMismatch {
        variant: String,
        variant_bytes: u32,
        scenario_bytes: u32,
    },
    #[error("RTL variant `{variant}` is built for CLK_FREQ_HZ {} and LINE_RATE {} but the run uses {} and {}", variant_rates.0, variant_rates.1, run_rates.0, run_rates.1)]
    RatesMismatch {
        variant: String,
        variant_rates: (u32, u32),
        run_rates: (u32, u32),
    },
    #[error("RTL variant `{variant}` is built with the features {variant_features} but the run's model has {run_features} (spec 2)")]
    FeaturesMismatch {
        variant: String,
        variant_features: String,
        run_features: String,
    },
    /// A multi-QP run names a variant (`--variant`) of another HDL or QPS than the run's.
    #[error("multi-QP RTL variant `{variant}` is the {variant_hdl} at QPS {variant_qps} but the run is of the {run_hdl} at QPS {run_qps}")]
    MqVariantMismatch {
        variant: String,
        variant_hdl: &'static str,
        variant_qps: u32,
        run_hdl: &'static str,
        run_qps: u32,
    },
    /// Bad input or a harness error on the model's side (a scenario, a saved case).
    #[error(transparent)]
    Stim(#[from] dcqcn_stim::StimError),
    /// A multi-QP run's initial state (`MqRunSpec::initial`, spec-mq 8.3) has a value that does
    /// not fit its field, or another QPS than the run's.
    #[error("initial state: {0}")]
    MqInitial(#[from] dcqcn_model::mq::MqInitialError),
}
