//! The model crate stays pure (crate doc, issue "a pure model crate"): no I/O, no FFI, no threads,
//! no clocks, no randomness, and no dependency that brings any of them. Checked on the sources and
//! the manifest, so a new `use std::fs` or a new dependency fails here before review.

use std::path::Path;

/// Dependencies the model may use: bit packing, integer traits, error derive, serde derive.
const ALLOWED_DEPENDENCIES: &[&str] = &["bitvec", "num-traits", "thiserror", "serde"];

/// Paths whose use means I/O, FFI, threads, time or process state.
const FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::io",
    "std::net",
    "std::process",
    "std::thread",
    "std::env",
    "std::time",
    "std::sync",
    "unsafe ",
    "extern \"C\"",
    "println!",
    "eprintln!",
];

fn dependencies(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once(['=', '.']) {
                deps.push(name.trim().to_string());
            }
        }
    }
    deps
}

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            out.push((path.display().to_string(), text));
        }
    }
}

/// The offending `(file, line number, line)` of `text`: a forbidden path outside comments.
fn offences(file: &str, text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .filter_map(|(n, l)| {
            FORBIDDEN
                .iter()
                .find(|f| l.contains(*f))
                .map(|f| format!("{file}:{}: `{f}` in `{}`", n + 1, l.trim()))
        })
        .collect()
}

#[test]
fn manifest_has_only_pure_dependencies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let deps = dependencies(&manifest);
    assert!(deps.contains(&"bitvec".to_string()), "parsed {deps:?}");
    let extra: Vec<&String> = deps
        .iter()
        .filter(|d| !ALLOWED_DEPENDENCIES.contains(&d.as_str()))
        .collect();
    assert!(extra.is_empty(), "dcqcn-model depends on {extra:?}: it must stay pure (no I/O, parsing or randomness crates); put that code in dcqcn-harness");
}

#[test]
fn sources_do_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    assert!(files.len() >= 10, "found only {} sources", files.len());
    let bad: Vec<String> = files.iter().flat_map(|(f, t)| offences(f, t)).collect();
    assert!(
        bad.is_empty(),
        "impure code in dcqcn-model:\n{}",
        bad.join("\n")
    );
}

/// The checks can fail: a planted `std::fs` and a planted dependency are found.
#[test]
fn checks_catch_planted_impurity() {
    let planted =
        "fn f() {\n    let _ = std::fs::read(\"x\");\n}\n// std::fs in a comment is fine\n";
    let found = offences("planted.rs", planted);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("planted.rs:2:"));
    let deps = dependencies("[dependencies]\nbitvec.workspace = true\ntoml = \"0.8\"\n[dev-dependencies]\nproptest = \"1\"\n");
    assert_eq!(deps, vec!["bitvec", "toml"]);
}
