//! What a golden set replays ([`SetDef`]): a built-in scenario, a canonical set or a saved fuzz
//! case, and where it came from ([`Source`], recorded in the manifest).

use super::GoldenError;
use crate::fuzz::{self, Case, SavedCase};
use crate::scenario;
use crate::stimulus::{DataPattern, StimulusSpec};
use dcqcn_model::Params;
use std::path::Path;

/// Where a set's stimulus comes from (recorded in the manifest, so `verify` can re-run it).
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A canonical set of [`canonical`], by name.
    Canonical(String),
    /// A built-in scenario, shortened, with ramp payloads.
    Scenario {
        name: String,
        cycles: u64,
        seed: u64,
    },
    /// A saved fuzz case, copied into the set as `case.json`.
    Case(Box<SavedCase>),
}

/// Everything a set is generated from.
#[derive(Clone, Debug)]
pub struct SetDef {
    pub name: String,
    pub description: String,
    pub params: Params,
    pub stimulus: StimulusSpec,
    pub seed: u64,
    pub cycles: u64,
    pub source: Source,
}

impl SetDef {
    /// A built-in scenario for `cycles` cycles, its payload switched to a ramp (compact vectors).
    pub fn from_scenario(name: &str, cycles: u64, seed: u64) -> Result<SetDef, GoldenError> {
        let sc = scenario::by_name(name).ok_or_else(|| crate::StimError::UnknownScenario {
            name: name.to_string(),
            known: scenario::names().iter().map(|s| s.to_string()).collect(),
        })?;
        let mut stimulus = sc.stimulus.clone();
        if let Some(t) = stimulus.traffic.as_mut() {
            t.data = DataPattern::Ramp;
        }
        Ok(SetDef {
            name: name.to_string(),
            description: sc.description.to_string(),
            params: sc.params(),
            stimulus,
            seed,
            cycles,
            source: Source::Scenario {
                name: name.to_string(),
                cycles,
                seed,
            },
        })
    }

    /// A saved fuzz case file, as set `fuzz-<file stem>` (what `golden gen --case` and the
    /// canonical sets of the regression folder are called).
    pub fn from_case_file(path: &Path) -> Result<SetDef, GoldenError> {
        let saved = fuzz::load_case(path)?;
        let stem = path
            .file_stem()
            .map_or("case".into(), |s| s.to_string_lossy().into_owned());
        SetDef::from_case(&format!("fuzz-{stem}"), saved)
    }

    /// A saved fuzz case, as saved (its own length and payload).
    pub fn from_case(name: &str, saved: SavedCase) -> Result<SetDef, GoldenError> {
        let c: &Case = &saved.case;
        let params = Params::with_data_bytes(c.data_bytes).map_err(|e| GoldenError::File {
            file: name.to_string(),
            reason: e.to_string(),
        })?;
        Ok(SetDef {
            name: name.to_string(),
            description: format!(
                "minimal fuzz case ({} cycles, seed {}), found by the fuzzer and shrunk",
                saved.cycles, c.seed
            ),
            params,
            stimulus: c.stimulus.clone(),
            seed: c.seed,
            cycles: saved.cycles,
            source: Source::Case(Box::new(saved)),
        })
    }
}
