//! The text format of docs/golden-format.md, both directions: the field list of format version 1,
//! field values and their hex tokens, the CRC-32 of the `end` line, and the template-of-deltas
//! [`Encoder`] and [`Decoder`] of `vectors.txt`.
//!
//! The encoder and decoder share nothing with the testbenches but the format document; the
//! decoder exists so that `verify` can point at the first stale cycle and field, and so that tests
//! can hold the encoding to the model's values.

use super::{at, GoldenError};
use crate::wide::{wide_add, wide_mask, wide_sub, Wide};
use dcqcn_model::snapshot::{FieldValue, FIELDS, GOLDEN_V1_FIELDS};
use dcqcn_model::{Inputs, Params, Snapshot, DATA_WORDS};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Line 1 of `vectors.txt`, and the `format` of a manifest.
pub const FORMAT: &str = "dcqcn-golden 1";
/// The model that computed the expectations (the workspace version).
pub const MODEL: &str = concat!("dcqcn-model ", env!("CARGO_PKG_VERSION"));
/// Template slots a reader keeps.
pub const SLOTS: usize = 256;
/// Longest slot sequence of an `r` record.
pub const MAX_SEQ: usize = 32;
/// The longest line of any file of a set, in characters (docs/golden-format.md).
pub const MAX_LINE: usize = 2048;
/// The most cycles a set holds (2^31-1, docs/golden-format.md).
pub const MAX_CYCLES: u64 = i32::MAX as u64;
/// The most cycles `golden gen` writes and `golden verify` runs the model for, per set
/// (docs/golden-format.md): the work of a set is bounded before it starts, whatever few bytes
/// claim more (`c 0 2147483647` is one line). 2^24 cycles run in about a minute on one core; the
/// canonical sets' longest is 400,000.
pub const MAX_RUN_CYCLES: u64 = 1 << 24;
/// The largest file of a set that `golden verify` reads (the canonical sets' largest is 1.4 MB).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Checks the format's line limit: the first line longer than [`MAX_LINE`] is an error that
/// names `file` and the line.
pub fn check_lines(file: &str, text: &[u8]) -> Result<(), GoldenError> {
    match text.split(|&b| b == b'\n').position(|l| l.len() > MAX_LINE) {
        None => Ok(()),
        Some(n) => Err(at(
            file,
            n + 1,
            format!("line longer than the format's limit of {MAX_LINE} characters"),
        )),
    }
}

/// Line number (from 1) of the first line where `a` and `b` differ (a stale file's message).
pub(crate) fn first_differing_line(a: &[u8], b: &[u8]) -> usize {
    let n = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    a[..n].iter().filter(|&&c| c == b'\n').count() + 1
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
/// outputs and registers in [`FIELDS`] order, up to `bytes_hi` ([`GOLDEN_V1_FIELDS`]; the
/// extension rate rules after it are not in format 1).
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
        .chain(FIELDS[..GOLDEN_V1_FIELDS].iter().map(|f| GField {
            name: f.name,
            dir: if f.block == "out" { Dir::Out } else { Dir::St },
            width: f.bits(data_bytes),
        }))
        .collect()
}

/// A field value: up to 512 bits, little-endian 64-bit words.
pub type Val = Wide;

pub(crate) fn scalar(x: u64) -> Val {
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

/// The inverse of [`hex`]: exactly ceil(width/4) lowercase hex digits, no bits above `width`.
pub fn parse_hex(tok: &str, width: u32) -> Result<Val, String> {
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
        .chain((0..GOLDEN_V1_FIELDS).map(|n| match snap.value(n) {
            FieldValue::Scalar(x) => scalar(x),
            FieldValue::Wide(w) => w,
        }))
        .zip(f.iter())
        .map(|(v, g)| wide_mask(v, g.width))
        .collect()
}

/// CRC-32 (IEEE 802.3, reflected, as zlib), continued from `crc` (start with 0): the checksum of
/// the `end` line and of the manifest's `file` lines.
pub fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    // crc32fast resumes from a finished value (final XOR undone), like zlib's crc32(crc, ...).
    let mut h = crc32fast::Hasher::new_with_initial(crc);
    h.update(bytes);
    h.finalize()
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
        Encoder::with_fields(FORMAT, data_bytes, fields(data_bytes), comments)
    }

    /// [`Encoder::new`] for a variant of the format with its own line 1 (`format`) and field list
    /// (the upstream SURF block's ports, `dcqcn_surf::ghdl`); everything else is the same.
    pub fn with_fields(
        format: &str,
        data_bytes: u32,
        f: Vec<GField>,
        comments: &[String],
    ) -> Encoder {
        Encoder::with_header(format, ("data_bytes", data_bytes), f, comments)
    }

    /// [`Encoder::with_fields`] with another line 2 than `data_bytes <n>`: `param` is its key and
    /// value (the multi-QP block's `qps <n>`, module `golden::mq`).
    pub fn with_header(
        format: &str,
        param: (&str, u32),
        f: Vec<GField>,
        comments: &[String],
    ) -> Encoder {
        let mut text = format!("{format}\n");
        for c in comments {
            for l in c.lines() {
                let _ = writeln!(text, "# {l}");
            }
        }
        let _ = writeln!(text, "{} {}", param.0, param.1);
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
    /// The value of line 2: the beat width (`data_bytes <n>`), or the QPS of a multi-QP set
    /// (`qps <n>`, module `golden::mq`).
    pub data_bytes: u32,
    pub fields: Vec<GField>,
    pub cycles: u64,
    values: Vec<Val>,
    slots: Vec<Option<Template>>,
    /// The current `c` or `r` record: its slot sequence, repetitions left, position in it.
    run: Option<(Vec<usize>, u64, usize)>,
    end_line: usize,
    /// Cycles decoded so far (never more than `cycles`: the work is bounded by the end line).
    decoded: u64,
    /// Line number (from 1) of the `c` or `r` record of the cycle last decoded.
    record_line: usize,
}

impl<'a> Decoder<'a> {
    /// Checks line 1, the `end` line and its CRC, and the header against format version 1.
    pub fn new(file: &str, text: &'a str) -> Result<Decoder<'a>, GoldenError> {
        Decoder::with_fields(file, text, FORMAT, fields)
    }

    /// [`Decoder::new`] for a variant of the format: line 1 must be `format` and the header must
    /// list `fields(data_bytes)` (the upstream SURF block's sets, `dcqcn_surf::ghdl`).
    pub fn with_fields(
        file: &str,
        text: &'a str,
        format: &str,
        fields: fn(u32) -> Vec<GField>,
    ) -> Result<Decoder<'a>, GoldenError> {
        let beat_width = |d: u32| Params::with_data_bytes(d).is_ok();
        Decoder::with_header(file, text, format, ("data_bytes", beat_width), fields)
    }

    /// [`Decoder::with_fields`] for a variant whose line 2 is `<key> <n>` with another key than
    /// `data_bytes` (the multi-QP block's `qps <n>`, module `golden::mq`): `param` is the key and
    /// the test of a legal value; the value is kept in [`Decoder::data_bytes`] and picks the
    /// field list.
    pub fn with_header(
        file: &str,
        text: &'a str,
        format: &str,
        param: (&str, fn(u32) -> bool),
        fields: fn(u32) -> Vec<GField>,
    ) -> Result<Decoder<'a>, GoldenError> {
        check_lines(file, text.as_bytes())?;
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
        if !(1..=MAX_CYCLES).contains(&cycles) {
            return Err(at(
                file,
                end_line_no,
                format!("the end line says {cycles} cycles: a set holds 1 to {MAX_CYCLES}"),
            ));
        }
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
        if l != format {
            return Err(at(
                file,
                n,
                format!("`{l}` is not `{format}` (format version)"),
            ));
        }
        let (key, legal) = param;
        let (n, l) = next(&format!("{key} line"))?;
        let data_bytes = match l.split_once(' ') {
            Some((k, v)) if k == key => {
                v.parse::<u32>().ok().filter(|d| legal(*d)).ok_or_else(|| {
                    let what = if key == "data_bytes" {
                        "beat width"
                    } else {
                        key
                    };
                    at(file, n, format!("bad {what} `{v}`"))
                })?
            }
            _ => return Err(at(file, n, format!("expected `{key} <n>`"))),
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
            decoded: 0,
            record_line: 0,
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
                    self.decoded += 1;
                    if self.decoded > self.cycles {
                        return Err(at(
                            &self.file,
                            self.end_line,
                            format!(
                                "the records hold more than the {} cycles the end line says",
                                self.cycles
                            ),
                        ));
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
                    self.record_line = n;
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
                    self.record_line = n;
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

    /// Line number (from 1) of the record that made the cycle last decoded (0 before any).
    pub fn record_line(&self) -> usize {
        self.record_line
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
