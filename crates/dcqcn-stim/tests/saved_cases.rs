//! Saved fuzz cases read, written and refused without the RTL: the committed regressions
//! (crates/dcqcn-cosim/tests/fuzz-regressions, which `dcqcn_cosim` replays on the RTL) round-trip,
//! and a corrupt file is an error naming the file and the line or the field.

use dcqcn_stim::fuzz::{load_case, parse_case, save_case};

fn regressions() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dcqcn-cosim/tests/fuzz-regressions")
}

/// A corrupt regression file is a clear error naming the file and line, not a panic in the loader.
#[test]
fn corrupt_regression_file_is_named() {
    let dir = std::env::temp_dir().join(format!("dcqcn-fuzz-reg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.json");
    std::fs::write(
        &f,
        "{\n  \"format\": \"dcqcn-fuzz-case 1\",\n  \"cycles\": \"many\"\n}\n",
    )
    .unwrap();
    let e = load_case(&f).unwrap_err().to_string();
    assert!(
        e.contains("bad.json:3: `cycles`: invalid type: string \"many\", expected u64"),
        "{e}"
    );
    // a nested field is named by its path, and serde_json's own position is not repeated
    let text = std::fs::read_to_string(regressions().join("mutant-gate-strict.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["case"]["stimulus"]["axil"]["write_prob"] = "often".into();
    let e = parse_case(&json.to_string(), "w.json")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("w.json:1: `case.stimulus.axil.write_prob`: invalid type"),
        "{e}"
    );
    assert!(!e.contains("column"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `save_case` writes what `load_case` reads, in the pretty-printed JSON of the saved regressions;
/// a file that cannot be written is an error naming it.
#[test]
fn saved_cases_round_trip() {
    let dir = std::env::temp_dir().join(format!("dcqcn-fuzz-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(regressions()).unwrap() {
        let f = e.unwrap().path();
        if f.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let saved = load_case(&f).unwrap();
        let out = dir.join(f.file_name().unwrap());
        save_case(&out, &saved).unwrap();
        assert_eq!(load_case(&out).unwrap(), saved);
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            std::fs::read_to_string(&f).unwrap().trim_end(),
            "{}",
            f.display()
        );
        n += 1;
    }
    assert!(n >= 6);
    let saved = load_case(&regressions().join("mutant-gate-strict.json")).unwrap();
    let e = save_case(&dir.join("missing/x.json"), &saved)
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing/x.json: cannot write: "), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}
