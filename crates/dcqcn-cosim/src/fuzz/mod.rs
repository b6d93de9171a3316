//! Fuzzing model-vs-RTL: [`run_case`] runs one drawn case (`dcqcn_stim::fuzz`: the strategies,
//! the cases and their saved form) in lockstep, [`replay`] a saved one, and [`campaign`] runs many
//! cases on a thread pool, shrinking the first failure; [`mq`] the same for the multi-QP block.

mod campaign;
pub mod mq;

pub use campaign::{
    campaign, rates_sibling, CampaignCfg, CampaignResult, Failure, FIXED_RATES_ENV,
};

use crate::lockstep::{self, Mismatch, Outcome, HISTORY_CYCLES};
use crate::rtl;
use crate::CosimError;
use dcqcn_stim::fuzz::{load_case, save_case, Case, SavedCase};
use dcqcn_stim::run::RunSpec;
use dcqcn_stim::variant::Hdl;
use dcqcn_stim::StimError;
use std::path::{Path, PathBuf};

/// Runs a case model-vs-RTL for `cycles`, on `hdl`'s variant of the case's beat width.
pub fn run_case(case: &Case, cycles: u64, hdl: Hdl) -> Result<Outcome, CosimError> {
    let replay = format!(
        "(fuzz case, seed {}, RTL init seed {})",
        case.seed, case.rtl_init_seed
    );
    let variant = case.variant(hdl);
    lockstep::run(&case.run_spec(cycles, Some(&variant), replay)?, None)
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
    let saved = f.saved(variant);
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
                return Err(StimError::Case(format!(
                    "{file}: `variant`: unknown RTL variant `{}` (compiled: {})",
                    crate::clip(v),
                    compiled()
                ))
                .into());
            }
        }
        None => {
            let db = saved.case.data_bytes;
            let want = saved.case.variant(Hdl::Sv);
            if !variants.iter().any(|x| x.name == want) {
                return Err(StimError::Case(format!(
                    "{file}: `case.data_bytes`: no RTL variant {want} ({db}-byte beats, rates {}) is compiled into this binary (compiled: {})",
                    saved.case.rates.name(),
                    compiled()
                ))
                .into());
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
