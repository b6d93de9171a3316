//! The Python package `dcqcn-model` (`import dcqcn_model`): the bit-exact model of crate
//! `dcqcn-model` for Python testbenches and notebooks. No second implementation: every cycle is
//! [`dcqcn_model::RateLimiter::step`], every configuration file is read by
//! [`dcqcn_harness::config_file`], every unit by [`dcqcn_harness::units`].
//!
//! This file is the pure-Rust core the bindings use (port tables, value checks, the mismatch
//! report of `dcqcn cosim`); `py.rs` (feature `python`) is the PyO3 layer. Without the feature
//! the crate needs no Python, so `cargo test --workspace` tests the core on any machine.

use dcqcn_harness::config_file::{self, ConfigFileError};
use dcqcn_model::snapshot::{decode, hex, FieldValue, FIELDS};
use dcqcn_model::{Config, Inputs, NamedConfig, Outputs, Params, Phase, RateLimiter, State};
use std::fmt;
use std::path::Path;
use thiserror::Error;

#[cfg(feature = "python")]
mod py;

/// Width of a port or register whose width follows the beat: 0 in the tables below.
pub const BEAT: u32 = 0;

/// The input ports of spec 3 (clock aside), in the order of the golden vectors, with their widths
/// (`BEAT` for `s_axis_tdata`, 8 x DATA_BYTES, and `s_axis_tkeep`, DATA_BYTES).
pub const INPUTS: &[(&str, u32)] = &[
    ("rst", 1),
    ("cnp", 1),
    ("s_axis_tdata", BEAT),
    ("s_axis_tkeep", BEAT),
    ("s_axis_tvalid", 1),
    ("s_axis_tlast", 1),
    ("m_axis_tready", 1),
    ("s_axil_awaddr", 12),
    ("s_axil_awvalid", 1),
    ("s_axil_wdata", 32),
    ("s_axil_wstrb", 4),
    ("s_axil_wvalid", 1),
    ("s_axil_bready", 1),
    ("s_axil_araddr", 12),
    ("s_axil_arvalid", 1),
    ("s_axil_rready", 1),
];

/// Index of `s_axis_tdata` in [`INPUTS`].
pub const TDATA: usize = 2;

/// Registers of spec 7 that the comparison record carries as output ports (the credit gate's
/// output register and the AXI4-Lite response registers): name, and the output port that shows it.
pub const PORT_REGISTERS: &[(&str, &str)] = &[
    ("m_valid", "m_axis_tvalid"),
    ("m_data", "m_axis_tdata"),
    ("m_keep", "m_axis_tkeep"),
    ("m_last", "m_axis_tlast"),
    ("bvalid", "s_axil_bvalid"),
    ("bresp", "s_axil_bresp"),
    ("rvalid", "s_axil_rvalid"),
    ("rdata", "s_axil_rdata"),
    ("rresp", "s_axil_rresp"),
];

/// Per-cycle events a run can record besides the comparison record's fields (not architectural
/// state; `inc_phase`: 0 none, 1 fast recovery, 2 additive, 3 hyper).
pub const EVENTS: &[(&str, u32)] = &[
    ("cnp_edge", 1),
    ("dec_fire", 1),
    ("alpha_fire", 1),
    ("timer_fire", 1),
    ("byte_fire", 1),
    ("inc_phase", 2),
    ("load", 1),
    ("bytes_in", 7),
    ("stall", 1),
];

/// Bits of a port or field for `data_bytes`-byte beats.
pub fn width(w: u32, name: &str, data_bytes: u32) -> u32 {
    match (w, name) {
        (BEAT, "s_axis_tdata" | "m_axis_tdata" | "m_data") => 8 * data_bytes,
        (BEAT, _) => data_bytes,
        (w, _) => w,
    }
}

/// At most this many bytes of recorded values per `Model.run` call (1 GiB): cycles times the
/// bytes per cycle of the recorded fields ([`value_bytes`]), checked before anything is reserved.
pub const MAX_RECORD_BYTES: u64 = 1 << 30;

/// At most this many names in `Model.run`'s `record` (the recordable fields are about 90; the
/// list is read once, so an endless iterator is refused rather than followed).
pub const MAX_RECORD_NAMES: usize = 4096;

/// `Model.write` / `Model.read`: at most this many cycles for one bus transaction (`max_cycles`).
pub const MAX_BUS_CYCLES: u64 = 1 << 20;

/// `Model.run` checks for signals (Ctrl-C) every this many cycles: about 15 ms of model time.
pub const SIGNAL_CHECK_CYCLES: u64 = 1 << 16;

/// An integer as the caller gave it, before any range check: its value when it fits 128 signed
/// bits, else its sign and bit length (a value is never shown in full: it may have any length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Int {
    Small(i128),
    Huge { negative: bool, bits: u64 },
}

impl From<u64> for Int {
    fn from(v: u64) -> Int {
        Int::Small(v.into())
    }
}

impl Int {
    /// The value when it is within 0..2^`bits` (`bits` at most 64).
    pub fn unsigned(self, bits: u32) -> Option<u64> {
        match self {
            Int::Small(v) => u64::try_from(v)
                .ok()
                .filter(|x| bits >= 64 || x >> bits == 0),
            Int::Huge { .. } => None,
        }
    }

    /// The value in hex (`0x1f`, `-0x5`), or its size when it does not fit 128 bits.
    pub fn hex(self) -> String {
        match self {
            Int::Small(v) if v < 0 => format!("-{:#x}", v.unsigned_abs()),
            Int::Small(v) => format!("{v:#x}"),
            Int::Huge { .. } => self.to_string(),
        }
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Int::Small(v) => write!(f, "{v}"),
            Int::Huge { negative, bits } => {
                let sign = if negative { "negative " } else { "" };
                write!(f, "a {sign}{bits}-bit integer")
            }
        }
    }
}

/// The largest value of `bits` bits, as a message shows it (`2^512-1` past 128 bits).
pub fn max_of(bits: u32, hex: bool) -> String {
    match (bits, hex) {
        (0..=127, true) => format!("{:#x}", (1u128 << bits) - 1),
        (0..=127, false) => format!("{}", (1u128 << bits) - 1),
        _ => format!("2^{bits}-1"),
    }
}

/// Bad input from the caller, with the argument or field (and cycle) it concerns.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InputError {
    #[error("unknown input port `{name}` (known: {known})")]
    UnknownInput { name: String, known: String },
    #[error("unknown field `{name}` (known: {known})")]
    UnknownField { name: String, known: String },
    #[error("`{name}`{at}: {} does not fit the {bits}-bit port (0..={})", .value.hex(), max_of(*.bits, true))]
    TooWide {
        name: String,
        at: String,
        value: Int,
        bits: u32,
    },
    /// An integer argument outside 0..2^bits.
    #[error("`{name}`{at}: {value} does not fit {bits} bits (0..={})", max_of(*.bits, false))]
    NotInBits {
        name: String,
        at: String,
        value: Int,
        bits: u32,
    },
    /// An integer argument outside a documented range.
    #[error("`{name}`: {value} is outside {min}..={max}")]
    OutOfRange {
        name: String,
        value: Int,
        min: u64,
        max: u64,
    },
    #[error(
        "`n` = {cycles} cycles x {bytes_per_cycle} bytes per cycle of `record` = {total} bytes: \
         a run records at most {MAX_RECORD_BYTES} bytes (1 GiB); record fewer fields or run at \
         most {max_cycles} cycles per call"
    )]
    RecordTooLarge {
        cycles: u64,
        bytes_per_cycle: u64,
        total: u128,
        max_cycles: u64,
    },
    #[error("`record`: more than {MAX_RECORD_NAMES} names")]
    TooManyNames,
    #[error("`n` = {n}: the model's cycle count ({cycle}) would pass 2^64-1")]
    CycleCount { cycle: u64, n: u64 },
    #[error("unknown configuration `{name}` (known: {known})")]
    UnknownConfig { name: String, known: String },
    #[error("unknown register `{name}` (known: {known})")]
    UnknownRegister { name: String, known: String },
    #[error("register `{name}` (0x{addr:03x}) is read-only")]
    ReadOnly { name: String, addr: u16 },
    #[error("AXI4-Lite {what} of 0x{addr:03x}: no {channel} after {cycles} cycles")]
    BusTimeout {
        what: &'static str,
        addr: u16,
        channel: &'static str,
        cycles: u64,
    },
}

/// The integer argument `name` as an unsigned value of `bits` bits (at most 64).
pub fn fit_bits(name: &str, v: Int, bits: u32) -> Result<u64, InputError> {
    v.unsigned(bits).ok_or_else(|| InputError::NotInBits {
        name: name.to_string(),
        at: String::new(),
        value: v,
        bits,
    })
}

/// The integer argument `name` within `min..=max`.
pub fn fit_range(name: &str, v: Int, min: u64, max: u64) -> Result<u64, InputError> {
    v.unsigned(64)
        .filter(|x| (min..=max).contains(x))
        .ok_or_else(|| InputError::OutOfRange {
            name: name.to_string(),
            value: v,
            min,
            max,
        })
}

/// Bytes a run's record holds per cycle of a field of `bits` bits (numpy's smallest unsigned
/// type, bool for one bit); a beat (`wide`) takes `words` 64-bit words.
pub fn value_bytes(bits: u32, wide: bool, words: usize) -> u64 {
    match (wide, bits) {
        (true, _) => 8 * words as u64,
        (false, 0..=8) => 1,
        (false, 9..=16) => 2,
        (false, 17..=32) => 4,
        (false, _) => 8,
    }
}

/// `n` cycles of a record of `bytes_per_cycle` bytes fit [`MAX_RECORD_BYTES`]: checked before
/// a run reserves anything.
pub fn check_record_size(n: u64, bytes_per_cycle: u64) -> Result<(), InputError> {
    // u64 x u64 always fits u128.
    let total = u128::from(n) * u128::from(bytes_per_cycle);
    if total > u128::from(MAX_RECORD_BYTES) {
        return Err(InputError::RecordTooLarge {
            cycles: n,
            bytes_per_cycle,
            total,
            // bytes_per_cycle > 0 here: the total passed the limit
            max_cycles: MAX_RECORD_BYTES / bytes_per_cycle.max(1),
        });
    }
    Ok(())
}

/// The value of input `idx` ([`INPUTS`]) of `i` (the low word of `s_axis_tdata`).
pub fn input_value(i: &Inputs, idx: usize) -> u64 {
    let a = &i.axil;
    match idx {
        0 => i.rst.into(),
        1 => i.cnp.into(),
        2 => i.s_axis.tdata[0],
        3 => i.s_axis.tkeep,
        4 => i.s_axis.tvalid.into(),
        5 => i.s_axis.tlast.into(),
        6 => i.m_axis_tready.into(),
        7 => a.awaddr.into(),
        8 => a.awvalid.into(),
        9 => a.wdata.into(),
        10 => a.wstrb.into(),
        11 => a.wvalid.into(),
        12 => a.bready.into(),
        13 => a.araddr.into(),
        14 => a.arvalid.into(),
        15 => a.rready.into(),
        _ => panic!("input index {idx} out of range"),
    }
}

/// Sets scalar input `idx` of `i` to `v`, which must fit the port (checked by [`check_input`]);
/// `s_axis_tdata` is set whole with [`set_tdata`].
pub fn set_input(i: &mut Inputs, idx: usize, v: u64) {
    let a = &mut i.axil;
    match idx {
        0 => i.rst = v != 0,
        1 => i.cnp = v != 0,
        2 => i.s_axis.tdata = [v, 0, 0, 0, 0, 0, 0, 0],
        3 => i.s_axis.tkeep = v,
        4 => i.s_axis.tvalid = v != 0,
        5 => i.s_axis.tlast = v != 0,
        6 => i.m_axis_tready = v != 0,
        7 => a.awaddr = v as u16,
        8 => a.awvalid = v != 0,
        9 => a.wdata = v as u32,
        10 => a.wstrb = v as u8,
        11 => a.wvalid = v != 0,
        12 => a.bready = v != 0,
        13 => a.araddr = v as u16,
        14 => a.arvalid = v != 0,
        15 => a.rready = v != 0,
        _ => panic!("input index {idx} out of range"),
    }
}

/// Sets `s_axis_tdata` from its 64-bit words, least significant first.
pub fn set_tdata(i: &mut Inputs, words: &[u64]) {
    let mut d = [0u64; dcqcn_model::DATA_WORDS];
    d[..words.len()].copy_from_slice(words);
    i.s_axis.tdata = d;
}

/// The index of input port `name` in [`INPUTS`].
pub fn input_index(name: &str) -> Result<usize, InputError> {
    INPUTS
        .iter()
        .position(|(n, _)| *n == name)
        .ok_or_else(|| InputError::UnknownInput {
            name: dcqcn_harness::clip(name),
            known: INPUTS.iter().map(|p| p.0).collect::<Vec<_>>().join(", "),
        })
}

/// `v` fits scalar input `idx` (every port but `s_axis_tdata`, at most 64 bits) at
/// `data_bytes`-byte beats; `at` names the place (e.g. `[12]`, a cycle). Returns the value.
pub fn check_input(idx: usize, v: Int, data_bytes: u32, at: &str) -> Result<u64, InputError> {
    let (name, w) = INPUTS[idx];
    let bits = width(w, name, data_bytes);
    v.unsigned(bits).ok_or_else(|| InputError::TooWide {
        name: name.to_string(),
        at: at.to_string(),
        value: v,
        bits,
    })
}

/// The largest value of word `k` of a `data_bytes`-byte beat (64-bit words, least significant
/// first; the last word may be partial).
pub fn word_max(k: usize, data_bytes: u32) -> u64 {
    let rem = (8 * data_bytes as usize).saturating_sub(64 * k);
    if rem >= 64 {
        u64::MAX
    } else {
        (1u64 << rem) - 1
    }
}

/// The checks of [`check_input`] for a beat given as 64-bit words (least significant first).
pub fn check_tdata(words: &[u64], data_bytes: u32, at: &str) -> Result<(), InputError> {
    for (k, &w) in words.iter().enumerate() {
        if w > word_max(k, data_bytes) {
            return Err(InputError::TooWide {
                name: "s_axis_tdata".into(),
                at: format!("{at} (word {k})"),
                value: Int::from(w),
                bits: 8 * data_bytes,
            });
        }
    }
    Ok(())
}

/// Names of every field a run can record: the comparison record ([`FIELDS`]) then [`EVENTS`].
pub fn recordable() -> impl Iterator<Item = (&'static str, u32)> {
    FIELDS
        .iter()
        .map(|f| (f.name, f.width))
        .chain(EVENTS.iter().copied())
}

/// What a run records for a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// Index into [`FIELDS`].
    Field(usize),
    /// Index into [`EVENTS`].
    Event(usize),
}

/// The recorded field called `name`.
pub fn recorded(name: &str) -> Result<Recorded, InputError> {
    if let Some(i) = FIELDS.iter().position(|f| f.name == name) {
        return Ok(Recorded::Field(i));
    }
    if let Some(i) = EVENTS.iter().position(|e| e.0 == name) {
        return Ok(Recorded::Event(i));
    }
    Err(InputError::UnknownField {
        name: dcqcn_harness::clip(name),
        known: recordable().map(|f| f.0).collect::<Vec<_>>().join(", "),
    })
}

/// Event `idx` of [`EVENTS`] in the model's last cycle.
pub fn event_value(m: &RateLimiter, idx: usize) -> u64 {
    let e = m.events();
    match idx {
        0 => e.cnp_edge.into(),
        1 => e.dec_fire.into(),
        2 => e.alpha_fire.into(),
        3 => e.timer_fire.into(),
        4 => e.byte_fire.into(),
        5 => match e.inc {
            None => 0,
            Some(Phase::FastRecovery) => 1,
            Some(Phase::Additive) => 2,
            Some(Phase::Hyper) => 3,
        },
        6 => e.load.into(),
        7 => e.bytes_in.into(),
        8 => e.stall.into(),
        _ => panic!("event index {idx} out of range"),
    }
}

/// The spec-7 registers of `s` by name: the comparison record's registers (every non-port field
/// of [`FIELDS`]) and then [`PORT_REGISTERS`]; `m_data` as 64-bit words.
pub fn state_fields(s: &State) -> Vec<(&'static str, FieldValue)> {
    let snap = dcqcn_model::Snapshot::from_model(&Outputs::default(), s);
    let mut v: Vec<(&'static str, FieldValue)> = FIELDS
        .iter()
        .enumerate()
        .filter(|(_, f)| f.block != "out")
        .map(|(i, f)| (f.name, snap.value(i)))
        .collect();
    let g = &s.gate;
    let a = &s.regs.axil;
    let sc = |x: u64| FieldValue::Scalar(x);
    v.extend([
        ("m_valid", sc(g.m_valid.into())),
        ("m_data", FieldValue::Wide(g.m_data)),
        ("m_keep", sc(g.m_keep)),
        ("m_last", sc(g.m_last.into())),
        ("bvalid", sc(a.bvalid.into())),
        ("bresp", sc(a.bresp.into())),
        ("rvalid", sc(a.rvalid.into())),
        ("rdata", sc(a.rdata.into())),
        ("rresp", sc(a.rresp.into())),
    ]);
    v
}

/// The configuration named `name` (spec 6.3), with the config file's message for an unknown one.
pub fn named_config(name: &str, p: &Params) -> Result<Config, InputError> {
    NamedConfig::from_name(name)
        .map(|c| c.config(p))
        .ok_or_else(|| InputError::UnknownConfig {
            name: dcqcn_harness::clip(name),
            known: NamedConfig::ALL
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// A register configuration file, read as `dcqcn cosim --config FILE` reads it.
pub fn config_from_file(path: &Path, p: &Params) -> Result<Config, ConfigFileError> {
    config_file::load(path, p)
}

/// The word of the register map called `name` (`regmap::MAP`), or at byte address `addr`.
pub fn register(name: &str) -> Result<&'static (u16, &'static str, bool), InputError> {
    dcqcn_model::regmap::MAP
        .iter()
        .find(|(_, n, _)| *n == name)
        .ok_or_else(|| InputError::UnknownRegister {
            name: dcqcn_harness::clip(name),
            known: dcqcn_model::regmap::MAP
                .iter()
                .map(|r| r.1)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// One AXI4-Lite transaction through the model's ports, as a bus master would drive it: the
/// request in the first cycle it is accepted, the response taken (ready high) the cycle it is
/// valid. `idle` holds the other inputs; `step` clocks the model one cycle. Returns (data, resp)
/// (data 0 for a write).
pub fn axil_transaction(
    step: &mut impl FnMut(&Inputs) -> Outputs,
    idle: &Inputs,
    write: Option<(u16, u32, u8)>,
    read: Option<u16>,
    max_cycles: u64,
) -> Result<(u32, u8), InputError> {
    let (what, addr) = match (write, read) {
        (Some((a, _, _)), _) => ("write", a),
        (None, Some(a)) => ("read", a),
        (None, None) => return Ok((0, 0)),
    };
    let mut i = *idle;
    i.rst = false;
    let mut accepted = false;
    for _ in 0..max_cycles {
        if let Some((a, d, s)) = write {
            i.axil.awaddr = a;
            i.axil.wdata = d;
            i.axil.wstrb = s;
            i.axil.awvalid = !accepted;
            i.axil.wvalid = !accepted;
            i.axil.bready = accepted;
        }
        if let Some(a) = read {
            i.axil.araddr = a;
            i.axil.arvalid = !accepted;
            i.axil.rready = accepted;
        }
        let out = step(&i);
        if accepted {
            if write.is_some() && out.s_axil_bvalid {
                return Ok((0, out.s_axil_bresp));
            }
            if read.is_some() && out.s_axil_rvalid {
                return Ok((out.s_axil_rdata, out.s_axil_rresp));
            }
        } else if (write.is_some() && out.s_axil_awready) || (read.is_some() && out.s_axil_arready)
        {
            accepted = true;
        }
    }
    Err(InputError::BusTimeout {
        what,
        addr,
        channel: if accepted { "response" } else { "handshake" },
        cycles: max_cycles,
    })
}

/// One differing field of a mismatch (as in `dcqcn cosim`'s report).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    pub field: String,
    pub block: String,
    pub model_hex: String,
    pub rtl_hex: String,
    pub model: String,
    pub rtl: String,
}

/// The field `name` of [`FIELDS`] as `dcqcn cosim` shows a value of it: (hex, decoded).
pub fn show(name: &str, v: &FieldValue, p: &Params) -> Result<(String, String), InputError> {
    let f = FIELDS
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| InputError::UnknownField {
            name: dcqcn_harness::clip(name),
            known: FIELDS.iter().map(|f| f.name).collect::<Vec<_>>().join(", "),
        })?;
    Ok((hex(v, f, p.data_bytes()), decode(v, f, p.clk_hz())))
}

/// The block of field `name` of [`FIELDS`].
pub fn block_of(name: &str) -> Option<&'static str> {
    FIELDS.iter().find(|f| f.name == name).map(|f| f.block)
}

/// The header data of a mismatch report.
#[derive(Clone, Debug)]
pub struct Report<'a> {
    pub cycle: u64,
    pub scenario: &'a str,
    pub seed: u64,
    pub variant: &'a str,
    pub params: Params,
    pub fields: &'a [Diff],
    /// (cycle, inputs, outputs) of the cycles before the mismatch.
    pub history: &'a [(u64, String, String)],
    pub config: Config,
    pub replay: &'a str,
}

impl Report<'_> {
    /// The text of `dcqcn cosim`'s mismatch report (`lockstep::Mismatch::report`), line for line.
    pub fn text(&self) -> String {
        let time_us = self.cycle as f64 * 1e6 / f64::from(self.params.clk_hz());
        let mut s = format!(
            "MISMATCH at cycle {} (t = {:.3} us), scenario {}, seed {}, RTL variant {} ({} B beats)\n",
            self.cycle, time_us, self.scenario, self.seed, self.variant, self.params.data_bytes()
        );
        let rows: Vec<_> = self
            .fields
            .iter()
            .map(|f| dcqcn_harness::report::DiffRow {
                field: &f.field,
                block: &f.block,
                model_hex: &f.model_hex,
                model: &f.model,
                rtl_hex: &f.rtl_hex,
                rtl: &f.rtl,
            })
            .collect();
        s += &dcqcn_harness::report::mismatch_table(
            &rows,
            self.history
                .iter()
                .map(|(c, i, o)| (*c, i.as_str(), o.as_str())),
        );
        s += &format!("configuration: {:?}\n", self.config);
        s += &format!("replay: {}\n", self.replay);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dcqcn_cosim::lockstep::{FieldDiff, HistoryRow, Mismatch};
    use dcqcn_model::Snapshot;

    /// The report is `dcqcn cosim`'s, character for character (held against the lockstep's own
    /// `Mismatch::report` on the same data).
    #[test]
    fn report_is_the_lockstep_report() {
        let p = Params::DEFAULT;
        let rc = Diff {
            field: "rc".into(),
            block: "top".into(),
            model_hex: "0x4a817c80".into(),
            rtl_hex: "0x4a817c81".into(),
            model: "1250000000 B/s (10.0000 Gb/s)".into(),
            rtl: "1250000001 B/s (10.0000 Gb/s)".into(),
        };
        let cnt = Diff {
            field: "cnt_inc_timer".into(),
            block: "regs".into(),
            model_hex: "0x00000001".into(),
            rtl_hex: "0x00000000".into(),
            model: "1".into(),
            rtl: "0".into(),
        };
        let i = Inputs {
            rst: true,
            ..Inputs::default()
        };
        let o = Outputs::default();
        let history = vec![(41, i.describe(), o.describe())];
        let cfg = Config::paper_table2(&p);
        let ours = Report {
            cycle: 42,
            scenario: "sb-random",
            seed: 7,
            variant: "icarus:dcqcn_cosim_top",
            params: p,
            fields: &[rc.clone(), cnt.clone()],
            history: &history,
            config: cfg,
            replay: "pytest x",
        }
        .text();
        let fd = |d: &Diff, field, block| FieldDiff {
            field,
            block,
            model_hex: d.model_hex.clone(),
            rtl_hex: d.rtl_hex.clone(),
            model: d.model.clone(),
            rtl: d.rtl.clone(),
        };
        let theirs = Mismatch {
            cycle: 42,
            time_us: 42.0 * 1e6 / f64::from(p.clk_hz()),
            scenario: "sb-random".into(),
            seed: 7,
            variant: "icarus:dcqcn_cosim_top".into(),
            data_bytes: 8,
            fields: vec![fd(&rc, "rc", "top"), fd(&cnt, "cnt_inc_timer", "regs")],
            config: cfg,
            replay: "pytest x".into(),
            history: vec![HistoryRow {
                cycle: 41,
                inputs: i.describe(),
                outputs: o.describe(),
            }],
            model_snapshot: Snapshot::default(),
            rtl_snapshot: Snapshot::default(),
        }
        .report();
        assert_eq!(ours, theirs);
        assert!(ours.starts_with("MISMATCH at cycle 42 (t = 0.269 us), scenario sb-random"));
    }

    #[test]
    fn show_uses_the_model_formatting() {
        let p = Params::DEFAULT;
        let (h, d) = show("rc", &FieldValue::Scalar(1_250_000_000), &p).unwrap();
        assert_eq!(
            (h.as_str(), d.as_str()),
            ("0x4a817c80", "1250000000 B/s (10.0000 Gb/s)")
        );
        let e = show("nope", &FieldValue::Scalar(0), &p).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("unknown field `nope` (known: s_axis_tready,"));
    }

    #[test]
    fn inputs_are_checked_against_the_port_width() {
        let idx = input_index("s_axil_awaddr").unwrap();
        assert_eq!(check_input(idx, Int::from(0xFFF), 8, ""), Ok(0xFFF));
        assert_eq!(
            check_input(idx, Int::from(0x1000), 8, "[3]")
                .unwrap_err()
                .to_string(),
            "`s_axil_awaddr`[3]: 0x1000 does not fit the 12-bit port (0..=0xfff)"
        );
        let keep = input_index("s_axis_tkeep").unwrap();
        assert!(check_input(keep, Int::from(0xF), 4, "").is_ok());
        assert!(check_input(keep, Int::from(0x1F), 4, "").is_err());
        assert_eq!(
            check_input(keep, Int::Small(-5), 8, "")
                .unwrap_err()
                .to_string(),
            "`s_axis_tkeep`: -0x5 does not fit the 8-bit port (0..=0xff)"
        );
        let huge = Int::Huge {
            negative: false,
            bits: 200,
        };
        assert_eq!(
            check_input(keep, huge, 64, "").unwrap_err().to_string(),
            "`s_axis_tkeep`: a 200-bit integer does not fit the 64-bit port (0..=0xffffffffffffffff)"
        );
        assert_eq!(
            check_tdata(&[0, 1], 8, "[4]").unwrap_err().to_string(),
            "`s_axis_tdata`[4] (word 1): 0x1 does not fit the 64-bit port (0..=0xffffffffffffffff)"
        );
        assert!(check_tdata(&[u64::MAX], 8, "").is_ok());
        assert!(check_tdata(&[0xFF_FFFF], 3, "").is_ok());
        assert!(check_tdata(&[0x100_0000], 3, "").is_err());
        assert!(check_tdata(&[0, 1], 8, "").is_err());
        assert_eq!(
            input_index("rts").unwrap_err().to_string(),
            format!(
                "unknown input port `rts` (known: {})",
                INPUTS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
            )
        );
        // every input round-trips through set_input / input_value
        let mut i = Inputs::default();
        for (k, (name, w)) in INPUTS.iter().enumerate() {
            let v = (1u64 << width(*w, name, 8).min(63)) - 1;
            set_input(&mut i, k, v);
            assert_eq!(input_value(&i, k), v, "{name}");
        }
    }

    /// Every integer argument is checked against its range before it is used, by value (never
    /// wrapped), and the message names the argument and the range.
    #[test]
    fn integer_arguments_name_their_range() {
        assert_eq!(fit_bits("strb", Int::from(15), 4), Ok(15));
        assert_eq!(
            fit_bits("s_axis_tkeep", Int::from(300), 8)
                .unwrap_err()
                .to_string(),
            "`s_axis_tkeep`: 300 does not fit 8 bits (0..=255)"
        );
        assert_eq!(
            fit_bits("data", Int::Small(-1), 32)
                .unwrap_err()
                .to_string(),
            "`data`: -1 does not fit 32 bits (0..=4294967295)"
        );
        let minus_huge = Int::Huge {
            negative: true,
            bits: 1000,
        };
        assert_eq!(
            fit_bits("n", minus_huge, 64).unwrap_err().to_string(),
            "`n`: a negative 1000-bit integer does not fit 64 bits (0..=18446744073709551615)"
        );
        assert_eq!(fit_bits("n", Int::from(u64::MAX), 64), Ok(u64::MAX));
        assert!(fit_bits("n", Int::Small(1 << 64), 64).is_err());
        assert_eq!(
            fit_range(
                "max_cycles",
                Int::from(MAX_BUS_CYCLES + 1),
                0,
                MAX_BUS_CYCLES
            )
            .unwrap_err()
            .to_string(),
            "`max_cycles`: 1048577 is outside 0..=1048576"
        );
        assert_eq!(Int::Small(i128::MIN).hex(), format!("-{:#x}", 1u128 << 127));
    }

    /// The record limit is checked in u128 (no product wraps) and the message says what to do.
    #[test]
    fn record_size_is_checked_before_reserving() {
        assert!(check_record_size(MAX_RECORD_BYTES / 4, 4).is_ok());
        assert!(check_record_size(MAX_RECORD_BYTES / 4 + 1, 4).is_err());
        assert!(check_record_size(u64::MAX, 0).is_ok());
        assert_eq!(
            check_record_size(1 << 62, 4).unwrap_err().to_string(),
            "`n` = 4611686018427387904 cycles x 4 bytes per cycle of `record` = \
             18446744073709551616 bytes: a run records at most 1073741824 bytes (1 GiB); record \
             fewer fields or run at most 268435456 cycles per call"
        );
        assert!(check_record_size(u64::MAX, u64::MAX).is_err());
        assert_eq!(value_bytes(1, false, 1), 1);
        assert_eq!(value_bytes(12, false, 1), 2);
        assert_eq!(value_bytes(32, false, 1), 4);
        assert_eq!(value_bytes(48, false, 1), 8);
        assert_eq!(value_bytes(512, true, 8), 64);
        assert_eq!(
            (
                word_max(0, 3),
                word_max(0, 8),
                word_max(1, 12),
                word_max(1, 8)
            ),
            (0xFF_FFFF, u64::MAX, 0xFFFF_FFFF, 0)
        );
    }

    /// A register write and read through the ports change and show the register; a read-only
    /// word answers DECERR.
    #[test]
    fn bus_transactions_go_through_the_register_file() {
        let p = Params::DEFAULT;
        let mut m = RateLimiter::new(p);
        let idle = Inputs::default();
        let mut step = |i: &Inputs| m.step(i);
        let rai = register("rai").unwrap().0;
        assert_eq!(
            axil_transaction(&mut step, &idle, Some((rai, 123, 0xF)), None, 8).unwrap(),
            (0, 0)
        );
        assert_eq!(
            axil_transaction(&mut step, &idle, None, Some(rai), 8).unwrap(),
            (123, 0)
        );
        let rc = register("rc").unwrap().0;
        assert_eq!(
            axil_transaction(&mut step, &idle, Some((rc, 1, 0xF)), None, 8)
                .unwrap()
                .1,
            dcqcn_model::regmap::RESP_DECERR
        );
        assert_eq!(m.state().regs.cfg.rai, 123);
        // too few cycles for the response: the helper gives up with a message
        let mut stuck = RateLimiter::new(p);
        let mut step = |i: &Inputs| stuck.step(i);
        let e = axil_transaction(&mut step, &idle, None, Some(rai), 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "AXI4-Lite read of 0x004: no response after 1 cycles"
        );
    }

    #[test]
    fn state_names_every_spec7_register() {
        let m = RateLimiter::new(Params::DEFAULT);
        let names: Vec<&str> = state_fields(m.state()).iter().map(|f| f.0).collect();
        for n in [
            "cnp_meta",
            "rc",
            "credit",
            "cfg_credit_cap",
            "bytes_hi",
            "m_data",
            "rresp",
        ] {
            assert!(names.contains(&n), "{n}");
        }
        assert_eq!(
            names.len(),
            FIELDS.iter().filter(|f| f.block != "out").count() + PORT_REGISTERS.len()
        );
        assert_eq!(
            named_config("nope", &Params::DEFAULT)
                .unwrap_err()
                .to_string(),
            "unknown configuration `nope` (known: upstream-reset, paper-table2, dcqcn-sigcomm15, nvidia-cx, ns3-hpcc)"
        );
    }
}
