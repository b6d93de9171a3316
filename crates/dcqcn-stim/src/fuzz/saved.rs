//! Saved fuzz cases (`dcqcn fuzz --replay FILE`, docs/inputs.md): the JSON form, its bounds,
//! and reading it back with errors that name the file and the line, or the field and its bound.

use super::strategy::Case;
use crate::run::RunSpec;
use crate::stimulus::{CnpSpec, SinkSpec};
use crate::StimError;
use dcqcn_model::Params;
use std::path::Path;

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
    /// Checks every value against its field and every count against its bound, so that a case
    /// edited by hand cannot wrap, allocate without bound, or run a model the RTL cannot hold;
    /// `file` names the case in messages (`<file>: `<field>`: <why>`).
    pub fn check(&self, file: &str) -> Result<(), StimError> {
        let bad = |field: &str, why: String| StimError::Case(format!("{file}: `{field}`: {why}"));
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
    pub fn run_spec(&self, replay: String) -> Result<RunSpec, StimError> {
        self.case
            .run_spec(self.cycles, self.variant.as_deref(), replay)
    }
}

/// Writes a saved case as pretty-printed JSON, which [`load_case`] reads back.
pub fn save_case(path: &Path, saved: &SavedCase) -> Result<(), StimError> {
    save_json(path, saved)
}

/// Reads a saved case; errors name the file and the line, or the field and its bound.
pub fn load_case(path: &Path) -> Result<SavedCase, StimError> {
    load_json(path)
}

/// A saved case from its JSON text; `file` names it in errors.
pub fn parse_case(text: &str, file: &str) -> Result<SavedCase, StimError> {
    parse_json(text, file)
}

/// The JSON form of a saved case (this file's [`SavedCase`], the multi-QP block's
/// `MqSavedCase`): the format it carries and the bounds it is checked against once read.
pub(crate) trait SavedJson: serde::Serialize + serde::de::DeserializeOwned {
    /// The `format` a file must carry.
    const FORMAT: &'static str;
    /// The `format` it carries.
    fn format(&self) -> &str;
    /// Every value against its field and every count against its bound; `file` names the case
    /// in messages.
    fn check(&self, file: &str) -> Result<(), StimError>;
}

impl SavedJson for SavedCase {
    const FORMAT: &'static str = SAVED_CASE_FORMAT;
    fn format(&self) -> &str {
        &self.format
    }
    fn check(&self, file: &str) -> Result<(), StimError> {
        SavedCase::check(self, file)
    }
}

/// Writes a saved case as pretty-printed JSON, which [`load_json`] reads back.
pub(crate) fn save_json<T: SavedJson>(path: &Path, saved: &T) -> Result<(), StimError> {
    let json = serde_json::to_string_pretty(saved).expect("a saved case serialises");
    std::fs::write(path, json).map_err(|source| StimError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// Reads a saved case of at most [`MAX_CASE_BYTES`]; errors name the file and the line, or the
/// field and its bound.
pub(crate) fn load_json<T: SavedJson>(path: &Path) -> Result<T, StimError> {
    let text = read_bounded(path, MAX_CASE_BYTES)?;
    parse_json(&text, &path.display().to_string())
}

/// A saved case from its JSON text, its format and its bounds checked; `file` names it in
/// errors.
pub(crate) fn parse_json<T: SavedJson>(text: &str, file: &str) -> Result<T, StimError> {
    // serde_path_to_error names the field (`case.rates`) that serde_json's message leaves out.
    let json_error = |path: Option<String>, e: &serde_json::Error| {
        // serde_json ends its message with the position, which the prefix already gives
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(m, _)| m);
        let field = path.map_or_else(String::new, |p| format!("`{p}`: "));
        StimError::Case(format!(
            "{file}:{}: {field}{}",
            e.line(),
            dcqcn_harness::clip_message(message)
        ))
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let saved: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        json_error((path != ".").then_some(path), e.inner())
    })?;
    de.end().map_err(|e| json_error(None, &e))?;
    if saved.format() != T::FORMAT {
        return Err(StimError::Case(format!(
            "{file}: format `{}` is not `{}`",
            crate::clip(saved.format()),
            T::FORMAT
        )));
    }
    saved.check(file)?;
    Ok(saved)
}

/// The text of a regular file of at most `max` bytes (not a device, a fifo or a folder), read
/// without ever holding more than `max + 1` bytes.
pub fn read_bounded(path: &Path, max: u64) -> Result<String, StimError> {
    use std::io::Read;
    let file = path.display().to_string();
    let io = |source| StimError::Io {
        path: file.clone(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(StimError::Case(format!("{file}: not a regular file")));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(StimError::Case(format!(
            "{file}: larger than the limit of {max} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|_| StimError::Case(format!("{file}: not UTF-8 text")))
}
