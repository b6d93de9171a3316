//! Per-cycle lockstep of the DCQCN RTL (Verilated, through a cxx shim) against `dcqcn-model`.
//!
//! - [`rtl`]: the Verilated RTL behind the same types as the model (`Inputs` in, `Snapshot` out);
//! - [`stimulus`]: protocol-correct stimulus sources described by plain-data specs;
//! - [`scenario`]: the named scenarios of `make cosim`;
//! - [`lockstep`]: the run loop, statistics and mismatch reports (text, JSON and the waveform
//!   window before the failure);
//! - [`vcd_out`]: waveforms of both sides;
//! - [`coverage`]: the functional-coverage bins;
//! - [`inject`]: state injection (spec 4.8): a saved state and the strategy that draws one;
//! - [`fuzz`]: random cases, campaigns with shrinking, saved cases and their replay;
//! - [`golden`]: golden vectors for HDL testbenches (docs/golden-format.md): the text format,
//!   the sets, their manifests and `verify`;
//! - [`wide`]: arithmetic on beat-wide values (golden deltas, ramp payloads).
//!
//! Register configuration files, units and the random stream come from `dcqcn-harness`.
//!
//! It is not a network simulator and holds no second model of the block.

pub mod bench;
pub mod coverage;
pub mod ffi;
pub mod fuzz;
pub mod golden;
pub mod inject;
pub mod lockstep;
pub mod rtl;
pub mod scenario;
pub mod stimulus;
pub mod vcd_out;
pub mod wide;

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
    #[error("unknown scenario `{name}` (known: {})", known.join(", "))]
    UnknownScenario { name: String, known: Vec<String> },
    #[error(transparent)]
    Config(#[from] dcqcn_harness::config_file::ConfigFileError),
    #[error("fuzz case: {0}")]
    Case(String),
    /// The harness itself went wrong (a drawn case the RTL cannot be given): not bad input and
    /// not a mismatch of the RTL.
    #[error("harness error: {0}")]
    Harness(String),
    #[error("{path}: cannot write: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}
