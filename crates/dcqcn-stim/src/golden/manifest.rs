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

use super::format::{
    check_lines, crc32, hex, Decoder, FORMAT, MAX_FILE_BYTES, MAX_RUN_CYCLES, MODEL,
};
use super::sets::{canonical_set, generate, SetDef, Source};
use super::{at, io, stale, GoldenError};
use crate::coverage::{Coverage, BINS};
use crate::fuzz;
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
        files: &[(&str, Vec<u8>)],
    ) -> Manifest {
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

    fn entry(&self, key: &str) -> Option<&Entry> {
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

/// What `verify` found for one set.
#[derive(Clone, Debug)]
pub struct Verified {
    pub name: String,
    pub cycles: u64,
    pub bytes: u64,
}

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

fn not_plain(name: &str) -> String {
    format!(
        "`{}`: a manifest names plain files inside its set's folder only (letters, digits, `.`, `_`, `-`; no `/`, no `..`)",
        crate::clip(name)
    )
}

/// A file of a set: a regular file (not a link, a device or a fifo) of at most
/// [`MAX_FILE_BYTES`], read without ever holding more.
fn read(path: &Path) -> Result<Vec<u8>, GoldenError> {
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

/// The set definition a manifest records.
pub fn source_of(dir: &Path, m: &Manifest) -> Result<SetDef, GoldenError> {
    let mf = dir.join("manifest.txt").display().to_string();
    let entry = m
        .entry("source")
        .ok_or_else(|| at(&mf, 1, "no `source` line"))?;
    let (src, line) = (entry.value.as_str(), entry.line);
    match src.split(' ').collect::<Vec<_>>().as_slice() {
        ["canonical", name] => canonical_set(name),
        ["scenario", name, "cycles", c, "seed", s] => {
            let cycles = c
                .parse()
                .ok()
                .filter(|n| (1..=MAX_RUN_CYCLES).contains(n))
                .ok_or_else(|| {
                    at(
                        &mf,
                        line,
                        format!(
                            "bad cycles `{}` (1 to {MAX_RUN_CYCLES}, the most `golden verify` runs)",
                            crate::clip(c)
                        ),
                    )
                })?;
            let seed = s
                .parse()
                .map_err(|_| at(&mf, line, format!("bad seed `{s}`")))?;
            SetDef::from_scenario(name, cycles, seed)
        }
        ["case", f] => {
            if !plain_name(f) {
                return Err(at(&mf, line, not_plain(f)));
            }
            let path = dir.join(f);
            read(&path)?;
            let saved = fuzz::load_case(&path)?;
            let name = m.get("set").unwrap_or("case").to_string();
            SetDef::from_case(&name, saved)
        }
        _ => Err(at(
            &mf,
            line,
            format!("unknown source `{}`", crate::clip(src)),
        )),
    }
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

/// Checks a set directory: manifest checksums, the vectors' structure, and that the model still
/// produces exactly these bytes (stale vectors fail with the first differing cycle and field).
/// The upstream SURF block's recorded sets are `dcqcn_surf::golden::verify_set`'s.
pub fn verify_set(dir: &Path) -> Result<Verified, GoldenError> {
    let mpath = dir.join("manifest.txt");
    let mfile = mpath.display().to_string();
    let mtext = read_text(&mpath)?;
    let m = Manifest::parse(&mfile, &mtext)?;
    for entry in &m.files {
        let p = dir.join(&entry.name);
        let actual = FileEntry::of(&entry.name, &read(&p)?);
        if !actual.same_contents(entry) {
            return Err(at(
                &mfile,
                entry.line,
                format!(
                    "{} does not match its manifest entry ({} bytes, crc32 {}): corrupt or edited",
                    p.display(),
                    actual.bytes,
                    actual.crc32
                ),
            ));
        }
    }
    let vpath = dir.join("vectors.txt");
    let vfile = vpath.display().to_string();
    let vtext = read_text(&vpath)?;
    let dec = Decoder::new(&vfile, &vtext)?;
    within_run_limit(&vfile, dec.cycles)?;
    let cycles = dec.check_count()?;

    let def = source_of(dir, &m)?;
    // The model runs only as long as the (bounded) vectors file: a source that says otherwise
    // is corrupt, whatever its length.
    if def.cycles != cycles {
        let line = m.entry("source").map_or(1, |e| e.line);
        return Err(at(
            &mfile,
            line,
            format!(
                "the source runs {} cycles but {vfile} holds {cycles}: corrupt or edited",
                def.cycles
            ),
        ));
    }
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
    use crate::golden::format::fields;
    use crate::golden::sets::write_set;

    fn reseal(body: &str, cycles: u64) -> String {
        format!("{body}end {cycles} {:08x}\n", crc32(0, body.as_bytes()))
    }

    fn parse_err(text: &str) -> String {
        Manifest::parse("m.txt", text)
            .expect_err("a bad manifest")
            .to_string()
    }

    /// Parsing what the writer wrote gives back the same manifest and, rendered, the same bytes,
    /// for every kind of source (canonical set, scenario, fuzz case).
    #[test]
    fn parse_inverts_render() {
        let cases =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../dcqcn-cosim/tests/fuzz-regressions");
        let mut defs = vec![
            canonical_set("cnp-storm").expect("a canonical set"),
            SetDef::from_scenario("bypass", 2_000, 3).expect("a scenario"),
            SetDef::from_case_file(&cases.join("mutant-alpha-truncates.json")).expect("a case"),
        ];
        defs[0].cycles = 2_000;
        for def in defs {
            let g = generate(&def).expect("generates");
            let (name, text) = g.files.last().expect("a manifest");
            assert_eq!(*name, "manifest.txt");
            let text = std::str::from_utf8(text).expect("text");
            let m = Manifest::parse("m", text).expect("parses");
            assert_eq!(m.render(), text);
            let files = &g.files[..g.files.len() - 1];
            assert_eq!(m, Manifest::for_set(&def, g.cycles, &g.coverage, files));
            assert_eq!(m.get("set"), Some(def.name.as_str()));
            assert_eq!(m.get("description"), Some(def.description.as_str()));
            assert_eq!(m.files.len(), files.len());
            assert_eq!(m.files[0].line, m.keys.len() + 1);
            assert_eq!(m.entry("source").expect("source").line, 10);
        }
    }

    #[test]
    fn file_entries_hold_size_crc_and_sha256() {
        let e = FileEntry::of("x", b"123456789");
        assert_eq!((e.bytes, e.crc32.as_str()), (9, "cbf43926"));
        assert_eq!(
            e.sha256,
            "15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225"
        );
        assert!(e.same_contents(&FileEntry::of("y", b"123456789")));
        assert!(!e.same_contents(&FileEntry::of("x", b"123456780")));
    }

    #[test]
    fn bad_manifests_name_the_line() {
        let ok = "format dcqcn-golden 1\nset a\n";
        assert!(Manifest::parse("m.txt", ok).is_ok());
        let e = parse_err("format dcqcn-golden 1\nnovalue\n");
        assert_eq!(e, "m.txt:2: `novalue` is not `key value`");
        let e = parse_err("format dcqcn-golden 1\nfile v.txt bytes 12 crc32 00000000\n");
        assert!(e.starts_with("m.txt:2: expected `file <name> bytes"), "{e}");
        let e = parse_err("format dcqcn-golden 1\n\nfile v.txt bytes x crc32 00000000 sha256 00\n");
        assert!(e.starts_with("m.txt:2: ``"), "an empty line: {e}");
        let e = parse_err("format dcqcn-golden 1\nfile v.txt bytes x crc32 0 sha256 0\n");
        assert_eq!(e, "m.txt:2: bad byte count `x`");
        let e = parse_err("format dcqcn-golden 1\nfile v.txt bytes 1 crc32 0 sha256 0\n");
        assert_eq!(
            e,
            "m.txt:2: `v.txt` is not a file of a golden set (vectors.txt, config.txt, case.json)"
        );
        let twice = "file config.txt bytes 1 crc32 0 sha256 0\n";
        let e = parse_err(&format!("format dcqcn-golden 1\n{twice}set a\n{twice}"));
        assert_eq!(e, "m.txt:4: `config.txt` is listed twice (first at line 2)");
        let e = parse_err("set a\nformat dcqcn-golden 2\n");
        assert_eq!(
            e,
            "m.txt:1: format `dcqcn-golden 2` is not `dcqcn-golden 1`"
        );
        let e = parse_err("set a\n");
        assert_eq!(e, "m.txt:1: format `(missing)` is not `dcqcn-golden 1`");
        // The value is the rest of the line, spaces and all; the first of two lines wins.
        let m = Manifest::parse("m", "format dcqcn-golden 1\nd a  b \nd c\n").expect("parses");
        assert_eq!(m.get("d"), Some("a  b "));
        assert_eq!(m.keys[2].line, 3);
    }

    #[test]
    fn sources_name_their_line() {
        let dir = Path::new("/nonexistent-set");
        let m = |src: &str| {
            Manifest::parse(
                "m",
                &format!("format dcqcn-golden 1\nset s\nsource {src}\n"),
            )
            .expect("parses")
        };
        let e = source_of(dir, &m("scenario cnp-storm cycles lots seed 1"))
            .expect_err("bad cycles")
            .to_string();
        assert_eq!(
            e,
            "/nonexistent-set/manifest.txt:3: bad cycles `lots` (1 to 16777216, the most `golden verify` runs)"
        );
        let e = source_of(dir, &m("somewhere else"))
            .expect_err("unknown")
            .to_string();
        assert_eq!(
            e,
            "/nonexistent-set/manifest.txt:3: unknown source `somewhere else`"
        );
        let e = source_of(dir, &m("canonical nope"))
            .expect_err("unknown set")
            .to_string();
        assert!(e.starts_with("unknown golden set `nope`"), "{e}");
        let d = source_of(dir, &m("scenario cnp-storm cycles 100 seed 9")).expect("a scenario");
        assert_eq!((d.cycles, d.seed), (100, 9));
        let none = Manifest::parse("m", "format dcqcn-golden 1\n").expect("parses");
        let e = source_of(dir, &none).expect_err("no source").to_string();
        assert_eq!(e, "/nonexistent-set/manifest.txt:1: no `source` line");
    }

    #[test]
    fn find_sets_takes_sets_and_folders_of_sets() {
        let root = std::env::temp_dir().join(format!("dcqcn-golden-find-{}", std::process::id()));
        for s in ["b", "a"] {
            std::fs::create_dir_all(root.join(s)).expect("creates");
            std::fs::write(root.join(s).join("manifest.txt"), "").expect("writes");
        }
        std::fs::create_dir_all(root.join("empty")).expect("creates");
        let found = find_sets(&[root.clone(), root.join("b")]).expect("finds");
        assert_eq!(found, vec![root.join("a"), root.join("b"), root.join("b")]);
        let e = find_sets(&[root.join("empty")])
            .expect_err("no sets")
            .to_string();
        assert!(
            e.ends_with("empty: no manifest.txt here or in its subdirectories"),
            "{e}"
        );
        let e = find_sets(&[root.join("missing")]).expect_err("no dir");
        assert!(matches!(e, GoldenError::Io { .. }), "{e}");
        let _ = std::fs::remove_dir_all(&root);
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
                    let e = FileEntry::of("vectors.txt", stale.as_bytes());
                    format!(
                        "file vectors.txt bytes {} crc32 {} sha256 {}\n",
                        e.bytes, e.crc32, e.sha256
                    )
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(dir.join("manifest.txt"), m).expect("writes");
        let e = verify_set(&dir).expect_err("stale");
        assert!(e.is_stale());
        let e = e.to_string();
        assert!(
            e.contains("stale vectors: cycle") && e.contains("field credit"),
            "{e}"
        );

        // A corrupt file that the manifest no longer covers.
        std::fs::write(dir.join("vectors.txt"), &text[..text.len() - 10]).expect("writes");
        let e = verify_set(&dir).expect_err("corrupt");
        assert!(!e.is_stale());
        let e = e.to_string();
        assert!(e.contains("manifest.txt:") && e.contains("corrupt"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
