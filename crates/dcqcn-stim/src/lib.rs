//! What drives the DCQCN block and what its runs are checked against, on the model alone: no
//! Verilator, no C++ compiler (`make stim-standalone` builds and tests it so).
//!
//! - [`stimulus`]: protocol-correct stimulus sources described by plain-data specs;
//! - [`scenario`]: the named scenarios of `make cosim`;
//! - [`run`]: what a run is ([`run::RunSpec`]) and the model run on its own;
//! - [`variant`]: the names and parameters of the RTL variants (rate sets, HDL);
//! - [`coverage`]: the functional-coverage bins;
//! - [`inject`]: state injection (spec 4.8): a saved state and the strategy that draws one;
//! - [`fuzz`]: the fuzzer's strategies, its cases and their saved form;
//! - [`golden`]: golden vectors for HDL testbenches (docs/golden-format.md): the text format,
//!   the sets, their manifests and `verify`;
//! - [`mq`]: the multi-QP block's closed-loop bench and scenarios (docs/spec-mq.md);
//! - [`wide`]: arithmetic on beat-wide values (golden deltas, ramp payloads).
//!
//! `dcqcn-cosim` runs all of it against the Verilated RTL.

pub mod coverage;
pub mod fuzz;
pub mod golden;
pub mod inject;
pub mod mq;
pub mod mq_coverage;
pub mod run;
pub mod scenario;
pub mod stimulus;
pub mod variant;
pub mod wide;

pub(crate) use dcqcn_harness::clip;
use thiserror::Error;

/// A bad scenario name, configuration file or saved case, or a case the harness cannot run.
#[derive(Debug, Error)]
pub enum StimError {
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
