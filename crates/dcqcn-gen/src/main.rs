//! `dcqcn-gen`: writes every region generated from the comparison record into the files that hold
//! them (`make gen`); with `--check`, writes nothing and fails (exit 1) when one differs
//! (`make gen-check`). Exit 2: a file cannot be read or written, or its markers are wrong.
//!
//!     dcqcn-gen [--check] [--root DIR]     (DIR: the repository root, default the current directory)

use dcqcn_gen::{regions, splice};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut check = false;
    let mut root = PathBuf::from(".");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--check" => check = true,
            "--root" => match args.next() {
                Some(d) => root = PathBuf::from(d),
                None => {
                    eprintln!("error: --root needs a directory");
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!(
                    "error: unknown argument `{other}` (usage: dcqcn-gen [--check] [--root DIR])"
                );
                return ExitCode::from(2);
            }
        }
    }
    let map_path = root.join(dcqcn_gen::REGMAP_JSON);
    let map: dcqcn_gen::RegMap = match std::fs::read_to_string(&map_path)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {}: {e}", map_path.display());
            return ExitCode::from(2);
        }
    };
    let regions = match regions(&map) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut by_file: BTreeMap<&str, Vec<_>> = BTreeMap::new();
    for r in regions {
        by_file.entry(r.file).or_default().push(r);
    }
    let mut stale = Vec::new();
    for (file, rs) in by_file {
        let path = root.join(file);
        let old = match std::fs::read_to_string(&path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let mut new = old.clone();
        for r in &rs {
            new = match splice(file, &new, r.tag, &r.text) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
        }
        if new == old {
            continue;
        }
        if check {
            let tags: Vec<_> = rs.iter().map(|r| r.tag).collect();
            stale.push(format!("{file} (regions {})", tags.join(", ")));
        } else if let Err(e) = std::fs::write(&path, new) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        } else {
            println!("wrote {file}");
        }
    }
    if !stale.is_empty() {
        for s in &stale {
            eprintln!("stale: {s}");
        }
        eprintln!(
            "error: {} file(s) differ from the snapshot! list (crates/dcqcn-model/src/snapshot.rs); run `make gen`",
            stale.len()
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
