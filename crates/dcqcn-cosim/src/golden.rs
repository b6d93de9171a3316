//! Golden vectors (docs/golden-format.md): the model's per-cycle stimulus, outputs and registers
//! written as plain text that an HDL testbench replays without our tools.
//!
//! - [`fields`]: the field list of format version 1 (inputs, outputs, spec-7 registers);
//! - [`Encoder`] / [`Decoder`]: the template-of-deltas text encoding, both directions;
//! - [`SetDef`] and [`canonical`]: what a set replays (a scenario or a saved fuzz case) and the
//!   checked-in canonical sets;
//! - [`generate`], [`write_set`], [`verify_set`]: `dcqcn golden gen` and `dcqcn golden verify`.
//!
//! The encoder and decoder share nothing with the testbenches but the format document; the
//! decoder exists so that `verify` can point at the first stale cycle and field, and so that tests
//! can hold the encoding to the model's values.

use crate::coverage::{Coverage, BINS};
use crate::fuzz::{self, Case, SavedCase};
use crate::lockstep::{run_model, RunSpec};
use crate::scenario;
use crate::stimulus::{CnpSpec, DataPattern, StimulusSpec};
use crate::wide::{wide_add, wide_mask, wide_sub, Wide};
use dcqcn_model::snapshot::{FieldValue, FIELDS};
use dcqcn_model::{regmap, Config, Inputs, Params, Snapshot, DATA_WORDS};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Line 1 of `vectors.txt`, and the `format` of a manifest.
pub const FORMAT: &str = "dcqcn-golden 1";
/// The model that computed the expectations (the workspace version).
pub const MODEL: &str = concat!("dcqcn-model ", env!("CARGO_PKG_VERSION"));
/// Template slots a reader keeps.
pub const SLOTS: usize = 256;
/// Longest slot sequence of an `r` record.
pub const MAX_SEQ: usize = 32;

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
    Cosim(#[from] crate::CosimError),
}

fn at(file: &str, line: usize, reason: impl Into<String>) -> GoldenError {
    GoldenError::At {
        file: file.to_string(),
        line,
        reason: reason.into(),
    }
}

fn stale(file: &str, line: usize, reason: impl Into<String>) -> GoldenError {
    GoldenError::Stale {
        file: file.to_string(),
        line,
        reason: reason.into(),
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> GoldenError + '_ {
    move |source| GoldenError::Io {
        path: path.display().to_string(),
        source,
    }
}

// ---------------------------------------------------------------------------------------------
// Fields and values

/// Where a field's value goes in a testbench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// An input port: driven.
    In,
    /// An output port: compared before the clock edge.
    Out,
    /// A spec-7 register: compared after the clock edge.
    St,
}

impl Dir {
    pub fn as_str(self) -> &'static str {
        match self {
            Dir::In => "in",
            Dir::Out => "out",
            Dir::St => "st",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GField {
    pub name: &'static str,
    pub dir: Dir,
    pub width: u32,
}

/// Input ports in format order; width 0 = data-dependent (tdata, tkeep).
const INPUTS: &[(&str, u32)] = &[
    ("rst", 1),
    ("cnp", 1),
    ("s_axis_tdata", 0),
    ("s_axis_tkeep", 0),
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

/// The fields of format version 1 for `data_bytes`-byte beats: inputs, then the snapshot's
/// outputs and registers in [`FIELDS`] order.
pub fn fields(data_bytes: u32) -> Vec<GField> {
    let data_width = |name: &str, w: u32| match (name, w) {
        ("s_axis_tdata", 0) => 8 * data_bytes,
        ("s_axis_tkeep", 0) => data_bytes,
        (_, w) => w,
    };
    INPUTS
        .iter()
        .map(|&(name, w)| GField {
            name,
            dir: Dir::In,
            width: data_width(name, w),
        })
        .chain(FIELDS.iter().map(|f| GField {
            name: f.name,
            dir: if f.block == "out" { Dir::Out } else { Dir::St },
            width: f.bits(data_bytes),
        }))
        .collect()
}

/// A field value: up to 512 bits, little-endian 64-bit words.
pub type Val = Wide;

fn scalar(x: u64) -> Val {
    let mut v = [0; DATA_WORDS];
    v[0] = x;
    v
}

/// Exactly ceil(width/4) lowercase hex digits.
pub fn hex(v: &Val, width: u32) -> String {
    let digits = width.div_ceil(4) as usize;
    let mut s = String::with_capacity(digits);
    for d in (0..digits).rev() {
        let nib = (v[d / 16] >> (4 * (d % 16))) & 0xF;
        s.push(char::from_digit(nib as u32, 16).expect("a nibble"));
    }
    s
}

fn parse_hex(tok: &str, width: u32) -> Result<Val, String> {
    let digits = width.div_ceil(4) as usize;
    if tok.len() != digits {
        return Err(format!(
            "`{tok}`: a {width}-bit value takes exactly {digits} hex digits"
        ));
    }
    let mut v = [0u64; DATA_WORDS];
    for (d, c) in tok.chars().rev().enumerate() {
        let nib = match c {
            '0'..='9' | 'a'..='f' => c.to_digit(16).expect("a hex digit"),
            _ => return Err(format!("`{tok}`: `{c}` is not a lowercase hex digit")),
        };
        v[d / 16] |= u64::from(nib) << (4 * (d % 16));
    }
    if wide_mask(v, width) != v {
        return Err(format!("`{tok}`: bits above {width} are set"));
    }
    Ok(v)
}

/// The values of every field in one cycle: `i` driven, `snap` the model's record.
pub fn cycle_values(i: &Inputs, snap: &Snapshot, data_bytes: u32) -> Vec<Val> {
    let a = &i.axil;
    let s = &i.s_axis;
    let ins: [Val; 16] = [
        scalar(u64::from(i.rst)),
        scalar(u64::from(i.cnp)),
        s.tdata,
        scalar(s.tkeep),
        scalar(u64::from(s.tvalid)),
        scalar(u64::from(s.tlast)),
        scalar(u64::from(i.m_axis_tready)),
        scalar(u64::from(a.awaddr)),
        scalar(u64::from(a.awvalid)),
        scalar(u64::from(a.wdata)),
        scalar(u64::from(a.wstrb)),
        scalar(u64::from(a.wvalid)),
        scalar(u64::from(a.bready)),
        scalar(u64::from(a.araddr)),
        scalar(u64::from(a.arvalid)),
        scalar(u64::from(a.rready)),
    ];
    let f = fields(data_bytes);
    ins.into_iter()
        .chain((0..FIELDS.len()).map(|n| match snap.value(n) {
            FieldValue::Scalar(x) => scalar(x),
            FieldValue::Wide(w) => w,
        }))
        .zip(f.iter())
        .map(|(v, g)| wide_mask(v, g.width))
        .collect()
}

/// CRC-32 (IEEE 802.3, reflected, as zlib), continued from `crc` (start with 0).
pub fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

// ---------------------------------------------------------------------------------------------
// Encoder

/// The deltas of one cycle: (field index, delta) for every field that changed.
type Template = Vec<(u16, Val)>;

/// Writes `vectors.txt`, one cycle at a time.
pub struct Encoder {
    widths: Vec<u32>,
    prev: Vec<Val>,
    index: HashMap<Template, usize>,
    slots: Vec<Option<Template>>,
    last_use: Vec<u64>,
    /// Slots of the cycles not yet written (written as runs by [`Encoder::flush`]).
    pending: Vec<u16>,
    text: String,
    cycles: u64,
    templates_defined: u64,
}

impl Encoder {
    /// Starts a file with the header of `data_bytes`-byte beats and `comments` (one per line).
    pub fn new(data_bytes: u32, comments: &[String]) -> Encoder {
        let f = fields(data_bytes);
        let mut text = format!("{FORMAT}\n");
        for c in comments {
            for l in c.lines() {
                let _ = writeln!(text, "# {l}");
            }
        }
        let _ = writeln!(text, "data_bytes {data_bytes}");
        let _ = writeln!(text, "fields {}", f.len());
        for (n, g) in f.iter().enumerate() {
            let _ = writeln!(text, "f {n} {} {} {}", g.dir.as_str(), g.width, g.name);
        }
        Encoder {
            widths: f.iter().map(|g| g.width).collect(),
            prev: vec![[0; DATA_WORDS]; f.len()],
            index: HashMap::new(),
            slots: vec![None; SLOTS],
            last_use: vec![0; SLOTS],
            pending: Vec::new(),
            text,
            cycles: 0,
            templates_defined: 0,
        }
    }

    /// Writes the pending cycles: at each position the repetition of a sequence of up to
    /// [`MAX_SEQ`] slots that covers the most cycles (`c` for one slot, `r` for a sequence), or
    /// the single cycle if nothing repeats.
    fn flush(&mut self) {
        let q = std::mem::take(&mut self.pending);
        let n = q.len();
        let mut i = 0;
        while i < n {
            let (mut best_p, mut best_r) = (1, 1);
            for p in 1..=MAX_SEQ.min((n - i) / 2) {
                let mut r = 1;
                while i + (r + 1) * p <= n
                    && r < i32::MAX as usize
                    && q[i + r * p..i + (r + 1) * p] == q[i..i + p]
                {
                    r += 1;
                }
                if r >= 2 && p * r > best_p * best_r {
                    (best_p, best_r) = (p, r);
                }
            }
            if best_p == 1 {
                // A single slot: extend its run as far as it goes.
                let mut r = 1;
                while i + r < n && q[i + r] == q[i] && r < i32::MAX as usize {
                    r += 1;
                }
                let _ = writeln!(self.text, "c {} {r}", q[i]);
                i += r;
            } else {
                let _ = write!(self.text, "r {best_r} {best_p}");
                for s in &q[i..i + best_p] {
                    let _ = write!(self.text, " {s}");
                }
                self.text.push('\n');
                i += best_p * best_r;
            }
        }
    }

    /// Appends one cycle with these field values.
    pub fn push(&mut self, vals: &[Val]) {
        debug_assert_eq!(vals.len(), self.widths.len());
        let t: Template = vals
            .iter()
            .zip(&self.prev)
            .enumerate()
            .filter_map(|(n, (v, p))| {
                let d = wide_sub(v, p, self.widths[n]);
                (d != [0; DATA_WORDS]).then_some((n as u16, d))
            })
            .collect();
        self.prev.copy_from_slice(vals);
        self.cycles += 1;
        let slot = match self.index.get(&t) {
            Some(&slot) => slot,
            None => {
                // Cycles already pending use the slots as they are now.
                self.flush();
                // The least recently used slot.
                let slot = (0..SLOTS)
                    .min_by_key(|&s| (self.slots[s].is_some(), self.last_use[s]))
                    .expect("SLOTS > 0");
                if let Some(old) = self.slots[slot].take() {
                    self.index.remove(&old);
                }
                let _ = write!(self.text, "t {slot} {}", t.len());
                for (n, d) in &t {
                    let _ = write!(self.text, " {n} {}", hex(d, self.widths[*n as usize]));
                }
                self.text.push('\n');
                self.index.insert(t.clone(), slot);
                self.slots[slot] = Some(t);
                self.templates_defined += 1;
                slot
            }
        };
        self.last_use[slot] = self.cycles;
        self.pending.push(slot as u16);
        if self.pending.len() >= 1 << 16 {
            self.flush();
        }
    }

    /// Closes the file: the `end` line with the cycle count and the CRC of everything before it.
    pub fn finish(mut self) -> EncodedVectors {
        self.flush();
        let crc = crc32(0, self.text.as_bytes());
        let _ = writeln!(self.text, "end {} {crc:08x}", self.cycles);
        EncodedVectors {
            text: self.text,
            cycles: self.cycles,
            templates_defined: self.templates_defined,
        }
    }
}

pub struct EncodedVectors {
    pub text: String,
    pub cycles: u64,
    /// `t` lines written (distinct delta patterns, counting redefinitions after eviction).
    pub templates_defined: u64,
}

// ---------------------------------------------------------------------------------------------
// Decoder

/// Reads `vectors.txt`: the header and checksum are checked up front, cycles are decoded on demand.
pub struct Decoder<'a> {
    file: String,
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
    pub data_bytes: u32,
    pub fields: Vec<GField>,
    pub cycles: u64,
    values: Vec<Val>,
    slots: Vec<Option<Template>>,
    /// The current `c` or `r` record: its slot sequence, repetitions left, position in it.
    run: Option<(Vec<usize>, u64, usize)>,
    end_line: usize,
}

impl<'a> Decoder<'a> {
    /// Checks line 1, the `end` line and its CRC, and the header against format version 1.
    pub fn new(file: &str, text: &'a str) -> Result<Decoder<'a>, GoldenError> {
        if text.contains('\r') {
            let line = text[..text.find('\r').unwrap_or(0)].lines().count().max(1);
            return Err(at(
                file,
                line,
                "carriage return: lines must end with LF only",
            ));
        }
        if !text.ends_with('\n') {
            let n = text.lines().count();
            return Err(at(file, n, "truncated: the last line has no LF"));
        }
        // The end line is the last line; the CRC covers every byte before it.
        let body_end = text[..text.len() - 1].rfind('\n').map_or(0, |p| p + 1);
        let end_line_no = text.lines().count();
        let end = &text[body_end..text.len() - 1];
        let toks: Vec<&str> = end.split(' ').collect();
        let (cycles, crc) = match toks.as_slice() {
            ["end", n, c] => (
                n.parse::<u64>()
                    .map_err(|_| at(file, end_line_no, format!("bad cycle count `{n}`")))?,
                u32::from_str_radix(c, 16)
                    .ok()
                    .filter(|_| c.len() == 8)
                    .ok_or_else(|| at(file, end_line_no, format!("bad checksum `{c}`")))?,
            ),
            _ => {
                return Err(at(
                    file,
                    end_line_no,
                    "truncated: the last line is not `end <cycles> <crc32>`",
                ))
            }
        };
        let actual = crc32(0, &text.as_bytes()[..body_end]);
        if actual != crc {
            return Err(at(
                file,
                end_line_no,
                format!("checksum mismatch: the end line says {crc:08x}, the lines before it give {actual:08x} (corrupt or edited file)"),
            ));
        }
        let mut lines = text[..body_end].lines().enumerate().peekable();
        let mut next = |what: &str| -> Result<(usize, &'a str), GoldenError> {
            loop {
                match lines.next() {
                    Some((n, l)) if l.starts_with('#') && n > 0 => continue,
                    Some((n, l)) => return Ok((n + 1, l)),
                    None => return Err(at(file, end_line_no, format!("missing {what}"))),
                }
            }
        };
        let (n, l) = next("format line")?;
        if l != FORMAT {
            return Err(at(
                file,
                n,
                format!("`{l}` is not `{FORMAT}` (format version)"),
            ));
        }
        let (n, l) = next("data_bytes line")?;
        let data_bytes = match l.split_once(' ') {
            Some(("data_bytes", v)) => v
                .parse::<u32>()
                .ok()
                .filter(|d| Params::with_data_bytes(*d).is_ok())
                .ok_or_else(|| at(file, n, format!("bad beat width `{v}`")))?,
            _ => return Err(at(file, n, "expected `data_bytes <n>`")),
        };
        let expect = fields(data_bytes);
        let (n, l) = next("fields line")?;
        if l != format!("fields {}", expect.len()) {
            return Err(at(
                file,
                n,
                format!("`{l}`: format version 1 has `fields {}`", expect.len()),
            ));
        }
        for (k, g) in expect.iter().enumerate() {
            let (n, l) = next("field line")?;
            let want = format!("f {k} {} {} {}", g.dir.as_str(), g.width, g.name);
            if l != want {
                return Err(at(file, n, format!("`{l}`: expected `{want}`")));
            }
        }
        Ok(Decoder {
            file: file.to_string(),
            lines,
            data_bytes,
            values: vec![[0; DATA_WORDS]; expect.len()],
            fields: expect,
            cycles,
            slots: vec![None; SLOTS],
            run: None,
            end_line: end_line_no,
        })
    }

    /// The values of the next cycle, or `None` after the last.
    pub fn next_cycle(&mut self) -> Result<Option<&[Val]>, GoldenError> {
        loop {
            if let Some((seq, left, pos)) = &mut self.run {
                if *left > 0 {
                    let t = self.slots[seq[*pos]].as_ref().expect("checked when read");
                    for (n, d) in t {
                        let k = *n as usize;
                        self.values[k] = wide_add(&self.values[k], d, self.fields[k].width);
                    }
                    *pos += 1;
                    if *pos == seq.len() {
                        *pos = 0;
                        *left -= 1;
                    }
                    return Ok(Some(&self.values));
                }
                self.run = None;
            }
            let Some((n0, l)) = self.lines.next() else {
                return Ok(None);
            };
            let n = n0 + 1;
            if l.starts_with('#') {
                continue;
            }
            let toks: Vec<&str> = l.split(' ').collect();
            let num = |s: &str, what: &str| -> Result<u64, GoldenError> {
                if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(at(&self.file, n, format!("bad {what} `{s}`")));
                }
                s.parse::<u64>()
                    .map_err(|_| at(&self.file, n, format!("bad {what} `{s}`")))
            };
            match toks.first().copied() {
                Some("t") => {
                    if toks.len() < 3 {
                        return Err(at(&self.file, n, "short template record"));
                    }
                    let slot = num(toks[1], "slot")? as usize;
                    if slot >= SLOTS {
                        return Err(at(&self.file, n, format!("slot {slot} is not in 0..255")));
                    }
                    let count = num(toks[2], "entry count")? as usize;
                    if toks.len() != 3 + 2 * count {
                        return Err(at(
                            &self.file,
                            n,
                            format!(
                                "{count} entries announced, {} tokens follow",
                                toks.len() - 3
                            ),
                        ));
                    }
                    let mut t = Template::new();
                    for e in 0..count {
                        let k = num(toks[3 + 2 * e], "field index")? as usize;
                        if k >= self.fields.len() {
                            return Err(at(&self.file, n, format!("field index {k} out of range")));
                        }
                        if t.last().is_some_and(|(p, _)| *p as usize >= k) {
                            return Err(at(&self.file, n, "field indices not increasing"));
                        }
                        let d = parse_hex(toks[4 + 2 * e], self.fields[k].width)
                            .map_err(|r| at(&self.file, n, r))?;
                        t.push((k as u16, d));
                    }
                    self.slots[slot] = Some(t);
                }
                Some("c") => {
                    if toks.len() != 3 {
                        return Err(at(&self.file, n, "expected `c <slot> <count>`"));
                    }
                    let slot = num(toks[1], "slot")? as usize;
                    if slot >= SLOTS || self.slots[slot].is_none() {
                        return Err(at(
                            &self.file,
                            n,
                            format!("slot {} is not defined", toks[1]),
                        ));
                    }
                    let count = num(toks[2], "count")?;
                    if count == 0 || count > i32::MAX as u64 {
                        return Err(at(&self.file, n, format!("count {count} out of range")));
                    }
                    self.run = Some((vec![slot], count, 0));
                }
                Some("r") => {
                    if toks.len() < 4 {
                        return Err(at(&self.file, n, "expected `r <count> <k> <slot>...`"));
                    }
                    let count = num(toks[1], "count")?;
                    if count == 0 || count > i32::MAX as u64 {
                        return Err(at(&self.file, n, format!("count {count} out of range")));
                    }
                    let k = num(toks[2], "sequence length")? as usize;
                    if k == 0 || k > MAX_SEQ || toks.len() != 3 + k {
                        return Err(at(
                            &self.file,
                            n,
                            format!(
                                "sequence of {} slots announced as {k} (1..{MAX_SEQ})",
                                toks.len() - 3
                            ),
                        ));
                    }
                    let mut seq = Vec::with_capacity(k);
                    for t in &toks[3..] {
                        let slot = num(t, "slot")? as usize;
                        if slot >= SLOTS || self.slots[slot].is_none() {
                            return Err(at(&self.file, n, format!("slot {t} is not defined")));
                        }
                        seq.push(slot);
                    }
                    self.run = Some((seq, count, 0));
                }
                _ => {
                    return Err(at(
                        &self.file,
                        n,
                        format!(
                            "unknown record `{}`",
                            toks.first().copied().unwrap_or_default()
                        ),
                    ))
                }
            }
        }
    }

    /// Decodes every remaining cycle and checks the count against the `end` line.
    pub fn check_count(mut self) -> Result<u64, GoldenError> {
        let mut n = 0u64;
        while self.next_cycle()?.is_some() {
            n += 1;
        }
        if n != self.cycles {
            return Err(at(
                &self.file,
                self.end_line,
                format!(
                    "the end line says {} cycles, the records hold {n}",
                    self.cycles
                ),
            ));
        }
        Ok(n)
    }
}

// ---------------------------------------------------------------------------------------------
// Sets

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
        let sc = scenario::by_name(name).ok_or_else(|| crate::CosimError::UnknownScenario {
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

/// The canonical sets checked in under `golden/`: built-in scenarios of `make cosim`, shortened,
/// some retuned so that their events happen within a short set, and with ramp payloads (compact
/// vectors). Fuzz cases come from the regression folder ([`canonical_with_cases`]).
pub fn canonical() -> Vec<SetDef> {
    // (set, scenario, cycles, description if retuned, retuning)
    type Tweak = fn(&mut StimulusSpec);
    let keep: Tweak = |_| {};
    let sets: [(&str, &str, u64, Option<&str>, Tweak); 9] = [
        (
            "paper-table2",
            "paper-table2",
            400_000,
            Some("Table II registers, saturating 4096 B RDMA WRITEs, the paper's emulated switch (5000-cycle window, 5 Gb/s, 50 us cooldown): decreases, alpha updates and the first 2 ms timer increase"),
            keep,
        ),
        ("upstream-reset", "upstream-reset", 200_000, None, keep),
        (
            "bypass",
            "bypass",
            100_000,
            Some("bypass toggled every 20k cycles on compressed intervals, CNPs every 3001 cycles throughout: counted, ignored while bypassed"),
            |s| {
                s.config = scenario::compressed(&Params::DEFAULT);
                s.axil.periodic[0].period = 20_000;
                s.cnp = CnpSpec::Periodic {
                    period: 3_001,
                    width: 2,
                };
            },
        ),
        (
            "backpressure-storm",
            "backpressure",
            100_000,
            Some("32 B beats, bursty downstream stalls (mean 20 ready / 200 stalled) against a 512 B credit cap, switch CNPs at 2 Gb/s, compressed intervals"),
            |s| {
                let p32 = Params::with_data_bytes(32).expect("a legal width");
                s.config = Config {
                    credit_cap: 512,
                    ..scenario::compressed(&p32)
                };
            },
        ),
        ("cnp-storm", "cnp-storm", 60_000, None, keep),
        (
            "regs-decerr",
            "regs-midrun",
            60_000,
            Some("readback of every word, rewrites mid-run, unmapped and read-only words (DECERR), slow bready/rready"),
            |s| {
                s.axil.read_prob = 0.05;
                s.axil.write_prob = 0.01;
                s.cnp = CnpSpec::Random {
                    prob: 0.002,
                    max_width: 3,
                };
            },
        ),
        (
            "reset-midframe",
            "reset-midframe",
            60_000,
            Some("synchronous resets of 1-20 cycles (mean every 8k cycles), mid-frame and mid-transaction; configuration reprogrammed"),
            |s| s.resets.mean_interval = 8_000,
        ),
        ("trigger-collisions", "trigger-collisions", 30_000, None, keep),
        ("random-frames-64b", "random-frames", 40_000, None, keep),
    ];
    sets.into_iter()
        .map(|(name, from, cycles, description, tweak)| {
            let sc = scenario::by_name(from).expect("a built-in scenario");
            let mut stimulus = sc.stimulus.clone();
            tweak(&mut stimulus);
            if let Some(t) = stimulus.traffic.as_mut() {
                t.data = DataPattern::Ramp;
            }
            SetDef {
                name: name.to_string(),
                description: description.unwrap_or(sc.description).to_string(),
                params: sc.params(),
                stimulus,
                seed: 1,
                cycles,
                source: Source::Canonical(name.to_string()),
            }
        })
        .collect()
}

/// The canonical sets plus one per saved fuzz regression in `regressions_dir` (if it exists).
pub fn canonical_with_cases(regressions_dir: &Path) -> Result<Vec<SetDef>, GoldenError> {
    let mut sets = canonical();
    let mut files: Vec<PathBuf> = match std::fs::read_dir(regressions_dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    for f in files {
        let stem = f
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let saved = fuzz::load_case(&f)?;
        sets.push(SetDef::from_case(&format!("fuzz-{stem}"), saved)?);
    }
    Ok(sets)
}

/// The files of one generated set, in memory.
pub struct GeneratedSet {
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// The functional-coverage bins of `make cosim` that the set reaches.
    pub coverage: Coverage,
    pub cycles: u64,
    pub templates_defined: u64,
}

fn sha256_hex(b: &[u8]) -> String {
    Sha256::digest(b).iter().fold(String::new(), |mut s, x| {
        let _ = write!(s, "{x:02x}");
        s
    })
}

/// Runs the model over the set and encodes it.
pub fn generate(def: &SetDef) -> Result<GeneratedSet, GoldenError> {
    let db = def.params.data_bytes();
    if def.stimulus.resets.initial_cycles == 0 {
        return Err(GoldenError::File {
            file: def.name.clone(),
            reason: "a golden set must start with at least one reset cycle (HDL registers power up undefined)".into(),
        });
    }
    let spec = RunSpec {
        scenario: def.name.clone(),
        params: def.params,
        stimulus: def.stimulus.clone(),
        seed: def.seed,
        cycles: def.cycles,
        variant: String::new(),
        replay: String::new(),
        rtl_init_seed: 0,
    };
    let comments = vec![
        format!("set {}: {}", def.name, def.description),
        format!("generated by {MODEL}; see docs/golden-format.md"),
    ];
    let mut enc = Encoder::new(db, &comments);
    let mut coverage = Coverage::new();
    run_model(&spec, |_, i, out, m| {
        enc.push(&cycle_values(i, &m.snapshot(out), db));
        coverage.sample(i, out, m);
    });
    let v = enc.finish();

    let mut config = String::from(
        "# register writes (full strobes) that program the configuration after each reset\n",
    );
    for (addr, data) in def.stimulus.config.register_writes(&def.params) {
        let name = regmap::lookup(addr).map_or("?", |r| r.1);
        let _ = writeln!(config, "w {addr:03x} {data:08x} f {name}");
    }

    let mut files: Vec<(&'static str, Vec<u8>)> = vec![
        ("vectors.txt", v.text.into_bytes()),
        ("config.txt", config.into_bytes()),
    ];
    let source = match &def.source {
        Source::Canonical(n) => format!("canonical {n}"),
        Source::Scenario { name, cycles, seed } => {
            format!("scenario {name} cycles {cycles} seed {seed}")
        }
        Source::Case(saved) => {
            let mut json = serde_json::to_string_pretty(saved).expect("a case serialises");
            json.push('\n');
            files.push(("case.json", json.into_bytes()));
            "case case.json".to_string()
        }
    };
    let mut manifest = String::new();
    let _ = writeln!(manifest, "format {FORMAT}");
    let _ = writeln!(manifest, "model {MODEL}");
    let _ = writeln!(manifest, "set {}", def.name);
    let _ = writeln!(manifest, "description {}", def.description);
    let _ = writeln!(manifest, "data_bytes {db}");
    let _ = writeln!(manifest, "clk_hz {}", def.params.clk_hz());
    let _ = writeln!(manifest, "line_rate_bytes_per_s {}", def.params.line_rate());
    let _ = writeln!(manifest, "seed {}", def.seed);
    let _ = writeln!(manifest, "cycles {}", v.cycles);
    let _ = writeln!(manifest, "source {source}");
    let hit: Vec<&str> = BINS
        .iter()
        .zip(&coverage.hits)
        .filter(|(_, &n)| n > 0)
        .map(|((name, _), _)| *name)
        .collect();
    let _ = writeln!(
        manifest,
        "coverage {}/{} {}",
        hit.len(),
        BINS.len(),
        hit.join(",")
    );
    for (name, bytes) in &files {
        let _ = writeln!(
            manifest,
            "file {name} bytes {} crc32 {:08x} sha256 {}",
            bytes.len(),
            crc32(0, bytes),
            sha256_hex(bytes)
        );
    }
    files.push(("manifest.txt", manifest.into_bytes()));
    Ok(GeneratedSet {
        files,
        coverage,
        cycles: v.cycles,
        templates_defined: v.templates_defined,
    })
}

/// Writes a generated set into `dir` (created if missing).
pub fn write_set(dir: &Path, set: &GeneratedSet) -> Result<(), GoldenError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    for (name, bytes) in &set.files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).map_err(io(&p))?;
    }
    Ok(())
}

/// A manifest, parsed.
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    pub keys: Vec<(String, String)>,
    /// `file` lines: name, bytes, crc32, sha256, line number.
    pub files: Vec<(String, u64, String, String, usize)>,
}

impl Manifest {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn parse(file: &str, text: &str) -> Result<Manifest, GoldenError> {
        let mut m = Manifest::default();
        for (n, l) in text.lines().enumerate() {
            let n = n + 1;
            let (k, v) = l
                .split_once(' ')
                .ok_or_else(|| at(file, n, format!("`{l}` is not `key value`")))?;
            if k == "file" {
                let t: Vec<&str> = v.split(' ').collect();
                match t.as_slice() {
                    [name, "bytes", b, "crc32", c, "sha256", s] => {
                        let bytes = b
                            .parse()
                            .map_err(|_| at(file, n, format!("bad byte count `{b}`")))?;
                        m.files
                            .push((name.to_string(), bytes, c.to_string(), s.to_string(), n));
                    }
                    _ => {
                        return Err(at(
                            file,
                            n,
                            "expected `file <name> bytes <n> crc32 <hex> sha256 <hex>`",
                        ))
                    }
                }
            } else {
                m.keys.push((k.to_string(), v.to_string()));
            }
        }
        if m.get("format") != Some(FORMAT) {
            return Err(at(
                file,
                1,
                format!(
                    "format `{}` is not `{FORMAT}`",
                    m.get("format").unwrap_or("(missing)")
                ),
            ));
        }
        Ok(m)
    }
}

/// What `verify` found for one set.
#[derive(Clone, Debug)]
pub struct Verified {
    pub name: String,
    pub cycles: u64,
    pub bytes: u64,
}

fn read(path: &Path) -> Result<Vec<u8>, GoldenError> {
    std::fs::read(path).map_err(io(path))
}

/// The set definition a manifest records.
pub fn source_of(dir: &Path, m: &Manifest) -> Result<SetDef, GoldenError> {
    let mf = dir.join("manifest.txt").display().to_string();
    let src = m
        .get("source")
        .ok_or_else(|| at(&mf, 1, "no `source` line"))?;
    let line = m
        .keys
        .iter()
        .position(|(k, _)| k == "source")
        .map_or(1, |p| p + 1);
    let t: Vec<&str> = src.split(' ').collect();
    match t.as_slice() {
        ["canonical", name] => canonical()
            .into_iter()
            .find(|s| s.name == *name)
            .ok_or_else(|| GoldenError::UnknownSet {
                name: name.to_string(),
                known: canonical().into_iter().map(|s| s.name).collect(),
            }),
        ["scenario", name, "cycles", c, "seed", s] => {
            let cycles = c
                .parse()
                .map_err(|_| at(&mf, line, format!("bad cycles `{c}`")))?;
            let seed = s
                .parse()
                .map_err(|_| at(&mf, line, format!("bad seed `{s}`")))?;
            SetDef::from_scenario(name, cycles, seed)
        }
        ["case", f] => {
            let saved = fuzz::load_case(&dir.join(f))?;
            let name = m.get("set").unwrap_or("case").to_string();
            SetDef::from_case(&name, saved)
        }
        _ => Err(at(&mf, line, format!("unknown source `{src}`"))),
    }
}

/// Checks a set directory: manifest checksums, the vectors' structure, and that the model still
/// produces exactly these bytes (stale vectors fail with the first differing cycle and field).
pub fn verify_set(dir: &Path) -> Result<Verified, GoldenError> {
    let mpath = dir.join("manifest.txt");
    let mfile = mpath.display().to_string();
    let mtext = String::from_utf8(read(&mpath)?).map_err(|_| GoldenError::File {
        file: mfile.clone(),
        reason: "not UTF-8 text".into(),
    })?;
    let m = Manifest::parse(&mfile, &mtext)?;
    for (name, bytes, crc, sha, line) in &m.files {
        let p = dir.join(name);
        let b = read(&p)?;
        let (c, s) = (format!("{:08x}", crc32(0, &b)), sha256_hex(&b));
        if b.len() as u64 != *bytes || &c != crc || &s != sha {
            return Err(at(
                &mfile,
                *line,
                format!(
                    "{} does not match its manifest entry ({} bytes, crc32 {c}): corrupt or edited",
                    p.display(),
                    b.len()
                ),
            ));
        }
    }
    let vpath = dir.join("vectors.txt");
    let vfile = vpath.display().to_string();
    let vtext = String::from_utf8(read(&vpath)?).map_err(|_| GoldenError::File {
        file: vfile.clone(),
        reason: "not UTF-8 text".into(),
    })?;
    let cycles = Decoder::new(&vfile, &vtext)?.check_count()?;

    let def = source_of(dir, &m)?;
    let fresh = generate(&def)?;
    for (name, bytes) in &fresh.files {
        let p = dir.join(name);
        let old = read(&p)?;
        if &old == bytes {
            continue;
        }
        let file = p.display().to_string();
        if *name == "vectors.txt" {
            let new_text = String::from_utf8_lossy(bytes).into_owned();
            return Err(stale_vectors(&file, &vtext, &new_text));
        }
        let line = first_differing_line(&old, bytes);
        return Err(stale(
            &file,
            line,
            "differs from what the model generates now (stale: regenerate with `make golden`)",
        ));
    }
    Ok(Verified {
        name: m.get("set").unwrap_or("?").to_string(),
        cycles,
        bytes: vtext.len() as u64,
    })
}

fn first_differing_line(a: &[u8], b: &[u8]) -> usize {
    let n = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    a[..n].iter().filter(|&&c| c == b'\n').count() + 1
}

/// The first cycle and field where the file's vectors differ from the model's.
fn stale_vectors(file: &str, old: &str, new: &str) -> GoldenError {
    let line = first_differing_line(old.as_bytes(), new.as_bytes());
    let (Ok(mut a), Ok(mut b)) = (Decoder::new(file, old), Decoder::new("model", new)) else {
        return stale(
            file,
            line,
            "differs from what the model generates now (stale: regenerate with `make golden`)",
        );
    };
    let fields = a.fields.clone();
    let mut cycle = 0u64;
    loop {
        match (a.next_cycle(), b.next_cycle()) {
            (Ok(Some(x)), Ok(Some(y))) => {
                if let Some(k) = (0..x.len()).find(|&k| x[k] != y[k]) {
                    let f = fields[k];
                    return stale(
                        file,
                        line,
                        format!(
                            "stale vectors: cycle {cycle} field {}: file has {}, the model gives {} (regenerate with `make golden`)",
                            f.name,
                            hex(&x[k], f.width),
                            hex(&y[k], f.width)
                        ),
                    );
                }
            }
            _ => {
                return stale(
                    file,
                    line,
                    format!("stale vectors: differ from the model from cycle {cycle} on (length or encoding; regenerate with `make golden`)"),
                )
            }
        }
        cycle += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> SetDef {
        let mut d = canonical()
            .into_iter()
            .find(|s| s.name == "cnp-storm")
            .expect("a canonical set");
        d.cycles = 3_000;
        d
    }

    #[test]
    fn field_list_matches_the_format_document() {
        let f = fields(8);
        assert_eq!(f.len(), 72);
        assert_eq!(f[2].name, "s_axis_tdata");
        assert_eq!(f[2].width, 64);
        assert_eq!(f[16].name, "s_axis_tready");
        assert_eq!(f[29].name, "cnp_meta");
        assert_eq!((f[45].name, f[45].width), ("credit", 48));
        assert_eq!(f[71].name, "bytes_hi");
        assert_eq!(fields(64)[18].width, 512);
        // docs/golden-format.md lists the same names in the same order.
        let doc = include_str!("../../../docs/golden-format.md");
        let mut pos = 0;
        for g in &f {
            let needle = format!(
                "{} {}",
                g.name,
                if g.name.ends_with("tdata") {
                    "8W".to_string()
                } else if g.name.ends_with("tkeep") {
                    "W".to_string()
                } else {
                    g.width.to_string()
                }
            );
            let p = doc[pos..]
                .find(&needle)
                .unwrap_or_else(|| panic!("`{needle}` not in the document after byte {pos}"));
            pos += p + needle.len();
        }
    }

    #[test]
    fn delta_arithmetic_wraps_at_the_width() {
        let w = 48;
        let a = scalar(5);
        let b = scalar(9);
        let d = wide_sub(&a, &b, w);
        assert_eq!(d[0], (1u64 << 48) - 4);
        assert_eq!(wide_add(&b, &d, w), a);
        let mut wide = [u64::MAX; DATA_WORDS];
        wide[7] = 0;
        let one = scalar(1);
        let s = wide_add(&wide, &one, 512);
        assert_eq!(s[..7], [0; 7]);
        assert_eq!(s[7], 1);
        assert_eq!(hex(&scalar(0x2bc), 10), "2bc");
        assert_eq!(parse_hex("2bc", 10), Ok(scalar(0x2bc)));
        assert!(
            parse_hex("fff", 10).is_err(),
            "bit 10 set in a 10-bit field"
        );
        assert!(parse_hex("0ab", 12).is_ok());
        assert!(parse_hex("ab", 12).is_err(), "too few digits");
        assert!(parse_hex("0aB", 12).is_err(), "upper case");
    }

    #[test]
    fn crc_matches_the_zlib_check_value() {
        assert_eq!(crc32(0, b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(crc32(0, b"1234"), b"56789"), 0xcbf4_3926);
    }

    fn run_spec(def: &SetDef) -> RunSpec {
        RunSpec {
            scenario: def.name.clone(),
            params: def.params,
            stimulus: def.stimulus.clone(),
            seed: def.seed,
            cycles: def.cycles,
            variant: String::new(),
            replay: String::new(),
            rtl_init_seed: 0,
        }
    }

    /// Decoding the encoded file gives back the model's values, cycle for cycle, for the first
    /// 20k cycles of every canonical set (every beat width, `c` and `r` records, evictions).
    #[test]
    fn round_trip_is_exact() {
        let mut records = (0, 0);
        for mut def in canonical() {
            def.cycles = def.cycles.min(20_000);
            let db = def.params.data_bytes();
            let g = generate(&def).expect("generates");
            let text = std::str::from_utf8(&g.files[0].1).expect("text");
            records.0 += text.matches("\nc ").count();
            records.1 += text.matches("\nr ").count();
            let mut d = Decoder::new("t", text).expect("valid");
            run_model(&run_spec(&def), |k, i, out, m| {
                let want = cycle_values(i, &m.snapshot(out), db);
                let got = d.next_cycle().expect("valid").expect("a cycle");
                assert_eq!(got, &want[..], "{} cycle {k}", def.name);
            });
            assert!(d.next_cycle().expect("valid").is_none());
        }
        assert!(records.0 > 100 && records.1 > 100, "{records:?}");
    }

    /// More distinct patterns than slots: eviction must still decode exactly.
    #[test]
    fn slot_eviction_round_trips() {
        let mut enc = Encoder::new(8, &[]);
        let f = fields(8);
        let mut all = Vec::new();
        let mut v = vec![[0u64; DATA_WORDS]; f.len()];
        for k in 0..2_000u64 {
            v[9] = scalar((k * k * 2_654_435_761) & 0xFFFF_FFFF); // s_axil_wdata: 2000 patterns
            v[1] = scalar(k & 1);
            all.push(v.clone());
            enc.push(&v);
        }
        let e = enc.finish();
        assert!(e.templates_defined > SLOTS as u64);
        let mut d = Decoder::new("t", &e.text).expect("valid");
        for want in &all {
            assert_eq!(d.next_cycle().expect("valid").expect("cycle"), &want[..]);
        }
    }

    #[test]
    fn generation_is_byte_identical() {
        let a = generate(&small()).expect("generates");
        let b = generate(&small()).expect("generates");
        assert_eq!(a.files, b.files);
    }

    fn vectors(def: &SetDef) -> String {
        let g = generate(def).expect("generates");
        String::from_utf8(g.files[0].1.clone()).expect("text")
    }

    fn err(text: &str) -> String {
        match Decoder::new("v.txt", text).and_then(|d| d.check_count()) {
            Ok(_) => panic!("accepted a bad file"),
            Err(e) => e.to_string(),
        }
    }

    /// Re-seals a modified body with a correct end line (a stale, not a corrupt, file).
    fn reseal(body: &str, cycles: u64) -> String {
        format!("{body}end {cycles} {:08x}\n", crc32(0, body.as_bytes()))
    }

    #[test]
    fn bad_files_are_errors_naming_the_line() {
        let text = vectors(&small());
        let body_end = text[..text.len() - 1].rfind('\n').expect("lines") + 1;
        let body = &text[..body_end];
        let lines = text.lines().count();
        // Truncated.
        let e = err(&text[..text.len() / 2]);
        assert!(e.starts_with("v.txt:") && e.contains("truncated"), "{e}");
        // One digit flipped: the checksum names the end line.
        let pos = body.rfind("c ").expect("a c record") + 2;
        let mut b = text.clone().into_bytes();
        b[pos] = if b[pos] == b'1' { b'2' } else { b'1' };
        let e = err(std::str::from_utf8(&b).expect("ascii"));
        assert!(
            e.starts_with(&format!("v.txt:{lines}:")) && e.contains("checksum"),
            "{e}"
        );
        // Wrong version, resealed.
        let e = err(&reseal(
            &body.replacen("dcqcn-golden 1", "dcqcn-golden 2", 1),
            3_000,
        ));
        assert!(
            e.starts_with("v.txt:1:") && e.contains("format version"),
            "{e}"
        );
        // Bad hex digit, resealed: the line of the template.
        let tline = body.lines().position(|l| l.starts_with("t ")).expect("t") + 1;
        let bad = body
            .lines()
            .enumerate()
            .map(|(n, l)| {
                if n + 1 == tline {
                    format!("{}g\n", &l[..l.len() - 1])
                } else {
                    format!("{l}\n")
                }
            })
            .collect::<String>();
        let e = err(&reseal(&bad, 3_000));
        assert!(
            e.starts_with(&format!("v.txt:{tline}:")) && e.contains("hex"),
            "{e}"
        );
        // A wrong cycle count.
        let e = err(&reseal(body, 2_999));
        assert!(e.contains("2999 cycles") && e.contains("3000"), "{e}");
        // Header of another beat width.
        let e = err(&reseal(
            &body.replacen("data_bytes 8", "data_bytes 32", 1),
            3_000,
        ));
        assert!(e.contains("expected `f 2 in 256 s_axis_tdata`"), "{e}");
    }

    #[test]
    fn verify_passes_fresh_sets_and_names_stale_cycle_and_field() {
        let def = SetDef::from_scenario("cnp-storm", 3_000, 7).expect("a scenario");
        let g = generate(&def).expect("generates");
        let dir = std::env::temp_dir().join(format!("dcqcn-golden-stale-{}", std::process::id()));
        write_set(&dir, &g).expect("writes");
        let ok = verify_set(&dir).expect("a fresh set verifies");
        assert_eq!(ok.cycles, 3_000);

        // A stale set: one expected credit delta changed, the file resealed and the manifest
        // updated, as if generated by an older model.
        let text = String::from_utf8(g.files[0].1.clone()).expect("text");
        let credit = fields(8)
            .iter()
            .position(|f| f.name == "credit")
            .expect("credit");
        let key = format!(" {credit} ");
        let (n, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.starts_with("t ") && l.contains(&key))
            .expect("a template changing credit");
        let p = line.find(&key).expect("key") + key.len();
        let mut l2 = line.to_string();
        let digit = if &line[p..p + 1] == "0" { "1" } else { "0" };
        l2.replace_range(p..p + 1, digit);
        let body: String = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.starts_with("end "))
            .map(|(k, l)| {
                if k == n {
                    format!("{l2}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let stale = reseal(&body, 3_000);
        std::fs::write(dir.join("vectors.txt"), &stale).expect("writes");
        let m = String::from_utf8(g.files.last().expect("manifest").1.clone()).expect("text");
        let m: String = m
            .lines()
            .map(|l| {
                if l.starts_with("file vectors.txt ") {
                    format!(
                        "file vectors.txt bytes {} crc32 {:08x} sha256 {}\n",
                        stale.len(),
                        crc32(0, stale.as_bytes()),
                        sha256_hex(stale.as_bytes())
                    )
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(dir.join("manifest.txt"), m).expect("writes");
        let e = verify_set(&dir).expect_err("stale").to_string();
        assert!(
            e.contains("stale vectors: cycle") && e.contains("field credit"),
            "{e}"
        );

        // A corrupt file that the manifest no longer covers.
        std::fs::write(dir.join("vectors.txt"), &text[..text.len() - 10]).expect("writes");
        let e = verify_set(&dir).expect_err("corrupt").to_string();
        assert!(e.contains("manifest.txt:") && e.contains("corrupt"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
