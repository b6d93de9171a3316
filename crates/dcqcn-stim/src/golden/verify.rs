//! `dcqcn golden verify`: a set's manifest read back to its definition ([`source_of`]) and the set
//! checked ([`verify_set`]): checksums, the vectors' structure, and that the model still produces
//! exactly these bytes.

use super::def::SetDef;
#[cfg(test)]
use super::format::crc32;
use super::format::{first_differing_line, hex, Decoder, MAX_RUN_CYCLES};
#[cfg(test)]
use super::manifest::find_sets;
use super::manifest::{
    not_plain, plain_name, read, read_text, within_run_limit, FileEntry, Manifest,
};
use super::mq;
use super::sets::{canonical_set, generate};
use super::{at, stale, GoldenError};
use crate::fuzz;
use std::path::Path;

/// What `verify` found for one set.
#[derive(Clone, Debug)]
pub struct Verified {
    pub name: String,
    pub cycles: u64,
    pub bytes: u64,
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
    // the block the set is for: no `block` line is the single-flow block (docs/golden-format.md)
    match m.entry("block") {
        None => {}
        Some(e) if e.value == mq::BLOCK_RL => {}
        Some(e) if e.value == mq::BLOCK => {
            let cycles = mq::verify_mq(dir, &m, &vtext)?;
            return Ok(Verified {
                name: m.get("set").unwrap_or("?").to_string(),
                cycles,
                bytes: vtext.len() as u64,
            });
        }
        Some(e) => {
            return Err(at(
                &mfile,
                e.line,
                format!(
                    "unknown block `{}` ({} or {})",
                    crate::clip(&e.value),
                    mq::BLOCK_RL,
                    mq::BLOCK
                ),
            ))
        }
    }
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
            assert_eq!(
                m,
                Manifest::for_set(&def, g.cycles, &g.coverage, &g.builds, files)
            );
            assert_eq!(m.get("set"), Some(def.name.as_str()));
            assert_eq!(m.get("description"), Some(def.description.as_str()));
            assert_eq!(m.files.len(), files.len());
            assert_eq!(m.files[0].line, m.keys.len() + 1);
            assert_eq!(m.entry("source").expect("source").line, 11);
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
