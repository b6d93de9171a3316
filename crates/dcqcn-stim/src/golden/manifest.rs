//! `manifest.txt` (docs/golden-format.md): built by [`Manifest::for_set`] and written by
//! [`Manifest::render`], read back by [`Manifest::parse`]; and [`verify_set`] (`dcqcn golden
//! verify`), which checks a set directory against its manifest and against what the model
//! generates now.
//!
//! # Why a line parser and not serde
//! The manifest's text is a published contract that testbenches and humans read: `key value`
//! lines in which the value is the rest of the line (a `description` holds spaces), a `file` key
//! that repeats once per file with a fixed sub-record of its own (`bytes <n> crc32 <hex> sha256
//! <hex>`), and errors that name the offending line. No serde data format in the workspace reads
//! that syntax (TOML and JSON are other languages, and the file must not change), so serde would
//! need a hand-written `Deserializer` for it: several times the size of the parser below, with the
//! line numbers of the error messages lost on the way. The parser therefore stays a small line
//! parser, typed at its edges ([`Entry`], [`FileEntry`]), held to the writer by a round-trip test
//! over generated manifests and to its error messages by tests.

use super::def::{SetDef, Source};
use super::format::{check_lines, crc32, FORMAT, MAX_FILE_BYTES, MAX_RUN_CYCLES, MODEL};
use super::{at, io, GoldenError};
use crate::coverage::{Coverage, BINS};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One `key value` line other than `file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    /// The rest of the line after the first space.
    pub value: String,
    /// Line number in the manifest (from 1).
    pub line: usize,
}

/// One `file <name> bytes <n> crc32 <8 hex> sha256 <64 hex>` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEntry {
    pub name: String,
    pub bytes: u64,
    /// As written: 8 lowercase hex digits.
    pub crc32: String,
    /// As written: 64 lowercase hex digits.
    pub sha256: String,
    /// Line number in the manifest (from 1).
    pub line: usize,
}

impl FileEntry {
    /// The entry that describes a file with these contents (`line` 0: not read from a manifest).
    pub fn of(name: &str, contents: &[u8]) -> FileEntry {
        FileEntry {
            name: name.to_string(),
            bytes: contents.len() as u64,
            crc32: format!("{:08x}", crc32(0, contents)),
            sha256: format!("{:x}", Sha256::digest(contents)),
            line: 0,
        }
    }

    /// Same size and checksums (name and line aside).
    pub fn same_contents(&self, other: &FileEntry) -> bool {
        (self.bytes, &self.crc32, &self.sha256) == (other.bytes, &other.crc32, &other.sha256)
    }
}

/// A manifest: its `key value` lines in order, and its `file` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub keys: Vec<Entry>,
    pub files: Vec<FileEntry>,
}

/// The `source` value that lets `verify` re-run a set.
fn source_value(source: &Source) -> String {
    match source {
        Source::Canonical(n) => format!("canonical {n}"),
        Source::Scenario { name, cycles, seed } => {
            format!("scenario {name} cycles {cycles} seed {seed}")
        }
        Source::Case(_) => "case case.json".to_string(),
    }
}

impl Manifest {
    /// The manifest of a generated set: its definition, cycle count, the coverage bins it
    /// reaches, and one `file` line per file (in the order given).
    pub fn for_set(
        def: &SetDef,
        cycles: u64,
        coverage: &Coverage,
        builds: &[dcqcn_model::Features],
        files: &[(&str, Vec<u8>)],
    ) -> Manifest {
        let builds: Vec<String> = builds.iter().map(|f| f.name()).collect();
        let hit: Vec<&str> = BINS
            .iter()
            .zip(&coverage.hits)
            .filter(|(_, &n)| n > 0)
            .map(|((name, _), _)| *name)
            .collect();
        let keys = [
            ("format", FORMAT.to_string()),
            ("model", MODEL.to_string()),
            ("set", def.name.clone()),
            ("description", def.description.clone()),
            ("data_bytes", def.params.data_bytes().to_string()),
            ("clk_hz", def.params.clk_hz().to_string()),
            ("line_rate_bytes_per_s", def.params.line_rate().to_string()),
            ("builds", builds.join(" ")),
            ("seed", def.seed.to_string()),
            ("cycles", cycles.to_string()),
            ("source", source_value(&def.source)),
            (
                "coverage",
                format!("{}/{} {}", hit.len(), BINS.len(), hit.join(",")),
            ),
        ];
        let keys: Vec<Entry> = keys
            .into_iter()
            .enumerate()
            .map(|(n, (key, value))| Entry {
                key: key.to_string(),
                value,
                line: n + 1,
            })
            .collect();
        let files = files
            .iter()
            .enumerate()
            .map(|(n, (name, contents))| FileEntry {
                line: keys.len() + n + 1,
                ..FileEntry::of(name, contents)
            })
            .collect();
        Manifest { keys, files }
    }

    /// The text: the `key value` lines, then the `file` lines.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for e in &self.keys {
            let _ = writeln!(s, "{} {}", e.key, e.value);
        }
        for f in &self.files {
            let _ = writeln!(
                s,
                "file {} bytes {} crc32 {} sha256 {}",
                f.name, f.bytes, f.crc32, f.sha256
            );
        }
        s
    }

    /// The value of the first line with this key.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entry(key).map(|e| e.value.as_str())
    }

    pub(super) fn entry(&self, key: &str) -> Option<&Entry> {
        self.keys.iter().find(|e| e.key == key)
    }

    /// Reads a manifest; `file` names it in errors (`<file>:<line>: <reason>`).
    pub fn parse(file: &str, text: &str) -> Result<Manifest, GoldenError> {
        check_lines(file, text.as_bytes())?;
        let mut m = Manifest::default();
        for (n, l) in text.lines().enumerate() {
            let line = n + 1;
            let (key, value) = l
                .split_once(' ')
                .ok_or_else(|| at(file, line, format!("`{l}` is not `key value`")))?;
            if key != "file" {
                m.keys.push(Entry {
                    key: key.to_string(),
                    value: value.to_string(),
                    line,
                });
                continue;
            }
            match value.split(' ').collect::<Vec<_>>().as_slice() {
                [name, "bytes", _, "crc32", _, "sha256", _] if !plain_name(name) => {
                    return Err(at(file, line, not_plain(name)))
                }
                [name, "bytes", b, "crc32", c, "sha256", s] => {
                    let bytes = b
                        .parse()
                        .map_err(|_| at(file, line, format!("bad byte count `{b}`")))?;
                    if !SET_FILES.contains(name) {
                        return Err(at(
                            file,
                            line,
                            format!(
                                "`{name}` is not a file of a golden set ({})",
                                SET_FILES.join(", ")
                            ),
                        ));
                    }
                    if let Some(first) = m.files.iter().find(|f| f.name == *name) {
                        return Err(at(
                            file,
                            line,
                            format!("`{name}` is listed twice (first at line {})", first.line),
                        ));
                    }
                    m.files.push(FileEntry {
                        name: name.to_string(),
                        bytes,
                        crc32: c.to_string(),
                        sha256: s.to_string(),
                        line,
                    })
                }
                _ => {
                    return Err(at(
                        file,
                        line,
                        "expected `file <name> bytes <n> crc32 <hex> sha256 <hex>`",
                    ))
                }
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

/// The files a set's manifest may list, each once (docs/golden-format.md).
pub const SET_FILES: [&str; 3] = ["vectors.txt", "config.txt", "case.json"];

/// A file name a manifest may give: a plain name inside the set's own folder (letters, digits,
/// `.`, `_`, `-`, not starting with `.`), so never `..`, a path or an absolute name.
pub fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

pub(super) fn not_plain(name: &str) -> String {
    format!(
        "`{}`: a manifest names plain files inside its set's folder only (letters, digits, `.`, `_`, `-`; no `/`, no `..`)",
        crate::clip(name)
    )
}

/// A file of a set: a regular file (not a link, a device or a fifo) of at most
/// [`MAX_FILE_BYTES`], read without ever holding more.
pub(super) fn read(path: &Path) -> Result<Vec<u8>, GoldenError> {
    use std::io::Read;
    let meta = std::fs::symlink_metadata(path).map_err(io(path))?;
    let bad = |reason: String| GoldenError::File {
        file: path.display().to_string(),
        reason,
    };
    if !meta.file_type().is_file() {
        return Err(bad("not a regular file inside the set's folder".into()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io(path))?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io(path))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(bad(format!(
            "larger than the limit of {MAX_FILE_BYTES} bytes"
        )));
    }
    Ok(bytes)
}

/// A file of a set as UTF-8 text: a regular file of at most [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> Result<String, GoldenError> {
    String::from_utf8(read(path)?).map_err(|_| GoldenError::File {
        file: path.display().to_string(),
        reason: "not UTF-8 text".into(),
    })
}

/// The set directories under each of `dirs`: a directory with a `manifest.txt` is a set, any other
/// holds sets in its subdirectories (sorted by name).
pub fn find_sets(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, GoldenError> {
    let mut sets = Vec::new();
    for d in dirs {
        if d.join("manifest.txt").is_file() {
            sets.push(d.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(d)
            .map_err(io(d))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("manifest.txt").is_file())
            .collect();
        if found.is_empty() {
            return Err(GoldenError::File {
                file: d.display().to_string(),
                reason: "no manifest.txt here or in its subdirectories".into(),
            });
        }
        found.sort();
        sets.extend(found);
    }
    Ok(sets)
}

/// Refuses a set whose end line says more than [`MAX_RUN_CYCLES`], before a single cycle is
/// decoded or run (decoding itself never goes past the end line's count).
pub fn within_run_limit(vfile: &str, cycles: u64) -> Result<(), GoldenError> {
    if cycles > MAX_RUN_CYCLES {
        return Err(GoldenError::File {
            file: vfile.to_string(),
            reason: format!(
                "the end line says {cycles} cycles: above the {MAX_RUN_CYCLES} cycles per set that `golden verify` runs the model for (docs/golden-format.md)"
            ),
        });
    }
    Ok(())
}
