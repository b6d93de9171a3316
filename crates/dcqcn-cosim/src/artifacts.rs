//! What a mismatch leaves behind: its JSON report and, beside it, a waveform of the cycles up to
//! it from a re-run of the seed ([`write_mismatch_artifacts`]).

use crate::lockstep::{Mismatch, WAVEFORM_CYCLES};
use crate::vcd_out::{self, TraceError};
use dcqcn_stim::run::RunSpec;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A mismatch artifact that could not be written.
#[derive(Debug, Error)]
pub enum ArtifactError {
    #[error("{}: cannot write report: {source}", path.display())]
    Report {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: cannot write waveform: {}", path.display(), source.cause())]
    Waveform {
        path: PathBuf,
        #[source]
        source: TraceError,
    },
}

/// What [`write_mismatch_artifacts`] wrote: each file is written, or fails, on its own.
#[derive(Debug)]
pub struct MismatchArtifacts {
    /// The JSON report.
    pub report: Result<PathBuf, ArtifactError>,
    /// The waveform and the cycles it holds.
    pub waveform: Result<(PathBuf, RangeInclusive<u64>), ArtifactError>,
}

/// Writes the mismatch `m` of the run `spec` as JSON to `path`, and beside it (extension `.vcd`)
/// a waveform of the [`WAVEFORM_CYCLES`] cycles up to the mismatch, from a re-run of the seed.
pub fn write_mismatch_artifacts(spec: &RunSpec, m: &Mismatch, path: &Path) -> MismatchArtifacts {
    let vcd = path.with_extension("vcd");
    let report = serde_json::to_vec_pretty(m)
        .map_err(std::io::Error::from)
        .and_then(|json| std::fs::write(path, json))
        .map(|()| path.to_path_buf())
        .map_err(|source| ArtifactError::Report {
            path: path.to_path_buf(),
            source,
        });
    let first = m.cycle.saturating_sub(WAVEFORM_CYCLES - 1);
    let rerun = RunSpec {
        cycles: m.cycle + 1,
        ..spec.clone()
    };
    let waveform = match vcd_out::run_traced(&rerun, &vcd, first..m.cycle + 1) {
        Ok(_) => Ok((vcd, first..=m.cycle)),
        Err(source) => Err(ArtifactError::Waveform { path: vcd, source }),
    };
    MismatchArtifacts { report, waveform }
}

/// [`write_mismatch_artifacts`] for the multi-QP block: the mismatch `m` of the run `spec` as JSON
/// to `path`, and beside it a waveform of the [`WAVEFORM_CYCLES`] cycles up to it.
pub fn write_mq_mismatch_artifacts(
    spec: &crate::mq_lockstep::MqRunSpec,
    m: &crate::mq_lockstep::MqMismatch,
    path: &Path,
) -> MismatchArtifacts {
    let vcd = path.with_extension("vcd");
    let report = serde_json::to_vec_pretty(m)
        .map_err(std::io::Error::from)
        .and_then(|json| std::fs::write(path, json))
        .map(|()| path.to_path_buf())
        .map_err(|source| ArtifactError::Report {
            path: path.to_path_buf(),
            source,
        });
    let last = m.cycle.min(spec.cycles.saturating_sub(1));
    let first = last.saturating_sub(WAVEFORM_CYCLES - 1);
    let rerun = crate::mq_lockstep::MqRunSpec {
        cycles: last + 1,
        ..spec.clone()
    };
    let waveform = match vcd_out::mq_run_traced(&rerun, &vcd, first..last + 1) {
        Ok(_) => Ok((vcd, first..=last)),
        Err(source) => Err(ArtifactError::Waveform { path: vcd, source }),
    };
    MismatchArtifacts { report, waveform }
}
