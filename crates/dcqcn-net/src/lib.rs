//! Network simulation of DCQCN whose senders are the bit-exact rate-limiter model.
//!
//! Each sender is a [`dcqcn_model::RateLimiter`] — the same code the lockstep proves equal to the
//! RTL, stepped one 156.25 MHz clock at a time (or skipped in closed form where
//! [`dcqcn_model::RateLimiter::skip`] proves the stretch uneventful) — fed by a RoCEv2 RDMA WRITE
//! source and drained by a MAC with a frame FIFO. Around the senders, an event-driven network:
//! links with serialisation, propagation and per-frame overhead; switches with a shared buffer,
//! per-ingress queues served round-robin onto the uplink, RED/ECN marking at dequeue and PFC per
//! ingress port; a receiver that sends CNPs at most once per flow per interval.
//!
//! - [`config`]: the parameters (TOML, defaults from the paper and the DCQCN paper) and their errors;
//! - [`sender`], [`switch`], [`sim`]: the components and the event loop; [`nic`]: a NIC whose
//!   QPs share one port through the multi-QP block (profile `mq`, docs/spec-mq.md); [`nscc`]: an
//!   Ultra Ethernet NSCC sender (profile `nscc`, docs/spec-nscc.md) and the receiver's memory;
//! - [`emulated`]: the paper's emulated switch (Fig. 9), one sender and no network;
//! - [`experiment`]: the paper's figures as runnable experiments (one type per figure) with
//!   measured-vs-paper tables; [`csv_out`]: their CSV files;
//! - [`advcam`]: the AdvCam-scale funnel (hundreds of senders, two tiers), PFC only vs DCQCN;
//! - [`sweep`]: parameter maps over two parameters, points in parallel (rayon);
//! - [`plot`]: SVG and PNG figures (plotters, with an embedded font);
//! - [`out`]: the output folder and files, opened before a run and written as it goes.
//!
//! The `dcqcn net` command (crate `dcqcn-cli`) parses the command line and shows progress; this
//! crate reports progress through a callback.
//!
//! It is not a second DCQCN (or NSCC) implementation: every rate or window decision comes from
//! the model.

pub mod advcam;
pub mod axis;
pub mod config;
#[cfg(test)]
mod config_tests;
pub mod csv_out;
pub mod emulated;
pub mod experiment;
pub mod limiter;
pub mod nic;
pub mod nscc;
pub mod out;
pub mod plot;
pub mod sender;
pub mod sim;
pub mod sweep;
pub mod switch;

use thiserror::Error;

/// Why a run could not be set up or its results not written.
#[derive(Debug, Error)]
pub enum NetError {
    /// A parameter file that cannot be read or used, or a bad value (the same errors as a
    /// register file's; `line` 0: the value did not come from a file line).
    #[error(transparent)]
    File(#[from] dcqcn_harness::config_file::ConfigFileError),
    /// A bad command-line value, named by its flag.
    #[error("{flag}: {message}")]
    Flag { flag: String, message: String },
    #[error("unknown experiment `{name}` (known: {known})")]
    UnknownExperiment { name: String, known: String },
    /// An output folder that cannot be one (`flag`: the option that named it).
    #[error("{flag}: `{path}`: {message}")]
    OutDir {
        flag: String,
        path: String,
        message: String,
    },
    #[error("{path}: cannot write: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: cannot draw the figure: {message}")]
    Figure { path: String, message: String },
    #[error("{path}: cannot encode PNG: {message}")]
    Png { path: String, message: String },
}

impl NetError {
    /// The `dcqcn` exit code: 2 for anything the user asked that cannot be done.
    pub fn exit_code(&self) -> u8 {
        2
    }
}
