//! Golden vectors (docs/golden-format.md): the model's per-cycle stimulus, outputs and registers
//! written as plain text that an HDL testbench replays without our tools.
//!
//! - [`format`]: the field list of format version 1, hex values, the CRC-32, and the
//!   template-of-deltas [`Encoder`] / [`Decoder`] of `vectors.txt`;
//! - [`def`]: what a set replays ([`SetDef`]: a scenario, a canonical set or a saved fuzz case);
//! - [`manifest`]: `manifest.txt` written and read;
//! - [`sets`]: the checked-in [`canonical`] sets, and [`generate`] / [`write_set`]
//!   (`dcqcn golden gen`);
//! - [`mq`]: the multi-QP block's sets (`block dcqcn_mq`): its port list, canonical sets,
//!   generation and verification, in the same format;
//! - [`verify`]: [`verify_set`] (`dcqcn golden verify`; the upstream SURF block's recorded sets,
//!   golden/surf/, are `dcqcn_surf::golden`'s).
//!
//! Each file imports only those above it in this list (and `format`).

pub mod def;
pub mod format;
#[cfg(test)]
mod format_tests;
pub mod manifest;
pub mod mq;
#[cfg(test)]
mod mq_tests;
pub mod sets;
pub mod verify;

pub use def::{SetDef, Source};
pub use format::{
    crc32, cycle_values, fields, hex, parse_hex, Decoder, Dir, EncodedVectors, Encoder, GField,
    Val, FORMAT, MAX_CYCLES, MAX_FILE_BYTES, MAX_LINE, MAX_RUN_CYCLES, MAX_SEQ, MODEL, SLOTS,
};
pub use manifest::{find_sets, Manifest};
pub use sets::{canonical, canonical_set, canonical_with_cases, generate, write_set, GeneratedSet};
pub use verify::{source_of, verify_set, Verified};

use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum GoldenError {
    #[error("{file}:{line}: {reason}")]
    At {
        file: String,
        line: usize,
        reason: String,
    },
    #[error("{file}: {reason}")]
    File { file: String, reason: String },
    /// The files are well-formed but the model now computes something else.
    #[error("{file}:{line}: {reason}")]
    Stale {
        file: String,
        line: usize,
        reason: String,
    },
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("unknown golden set `{name}` (canonical: {})", known.join(", "))]
    UnknownSet { name: String, known: Vec<String> },
    #[error(transparent)]
    Stim(#[from] crate::StimError),
}

/// An error at `line` of `file`.
pub fn at(file: &str, line: usize, reason: impl Into<String>) -> GoldenError {
    GoldenError::At {
        file: file.to_string(),
        line,
        reason: reason.into(),
    }
}

/// The model now computes something else than `file` holds at `line`.
pub fn stale(file: &str, line: usize, reason: impl Into<String>) -> GoldenError {
    GoldenError::Stale {
        file: file.to_string(),
        line,
        reason: reason.into(),
    }
}

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> GoldenError + '_ {
    move |source| GoldenError::Io {
        path: path.display().to_string(),
        source,
    }
}

impl GoldenError {
    /// The files are well-formed but the model now generates something else (exit 1 of `golden
    /// verify`, where every other error is bad input).
    pub fn is_stale(&self) -> bool {
        matches!(self, GoldenError::Stale { .. })
    }
}
