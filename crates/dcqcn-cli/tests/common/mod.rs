//! What the CLI test binaries share: running the built `dcqcn` and a scratch folder per test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the built `dcqcn` with `args` in `dir`.
pub fn dcqcn(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dcqcn"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run dcqcn")
}

/// An empty scratch folder of this test process named `name`.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dcqcn-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A saved fuzz case (a checked-in regression) as JSON, to be edited by a test.
#[allow(dead_code)] // each test binary compiles this module; not every one edits a saved case
pub fn case_json() -> serde_json::Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../dcqcn-cosim/tests/fuzz-regressions/mutant-gate-strict.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}
