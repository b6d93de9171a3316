//! The SURF lockstep on a real SURF checkout (issue 33): a register difference far before the
//! end of the run is reported with its fields, history, JSON and waveform, and two runs of one
//! scenario at once each compare their own register dump. These need GHDL and a SURF checkout
//! assembled as docs/surf-lockstep.md describes, named by `SURF_DIR`; without it each test says
//! so and passes without running. The checkout is never written: the planted defect goes into a
//! copy of the files the build reads.

use dcqcn_surf::ghdl::{self, SurfOutcome};
use std::path::{Path, PathBuf};

fn surf_dir(test: &str) -> Option<PathBuf> {
    match std::env::var_os("SURF_DIR") {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => {
            eprintln!(
                "{test}: skipped: SURF_DIR is not set (a SURF checkout with the RoCEv2Dcqcn block, docs/surf-lockstep.md)"
            );
            None
        }
    }
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dcqcn-surf-lockstep-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Copies the directories the build reads (and PROVENANCE.txt) from `from` to `to`.
fn copy_tree(from: &Path, to: &Path) {
    fn copy_dir(a: &Path, b: &Path) {
        std::fs::create_dir_all(b).unwrap();
        for e in std::fs::read_dir(a).unwrap() {
            let e = e.unwrap();
            let (p, q) = (e.path(), b.join(e.file_name()));
            if p.is_dir() {
                copy_dir(&p, &q);
            } else {
                std::fs::copy(&p, &q).unwrap();
            }
        }
    }
    for d in [
        "base",
        "axi",
        "protocols/ssi",
        "dsp/generic",
        "ethernet/RoCEv2/rtl",
        "ethernet/RoCEv2/wrappers",
    ] {
        copy_dir(&from.join(d), &to.join(d));
    }
    if from.join("PROVENANCE.txt").is_file() {
        std::fs::copy(from.join("PROVENANCE.txt"), to.join("PROVENANCE.txt")).unwrap();
    }
}

fn run(
    b: &ghdl::Built,
    name: &str,
    seed: u64,
    cycles: u64,
    vcd: Option<(&Path, bool)>,
) -> SurfOutcome {
    let sc = ghdl::scenario(name).unwrap();
    ghdl::lockstep(b, &sc, seed, cycles, "replay", vcd).unwrap()
}

/// The alpha update without its rounding (`mult + 512` -> `mult` where a CNP was seen): alpha-wrap
/// has no traffic, so only the alpha register differs, and the difference lies hundreds of cycles
/// before the end of the run. Before issue 33 this panicked (exit 101, no report).
#[test]
fn a_late_register_difference_is_reported() {
    let Some(dir) = surf_dir("a_late_register_difference_is_reported") else {
        return;
    };
    let root = tmp("late");
    let tree = root.join("surf");
    copy_tree(&dir, &tree);
    let f = tree.join("ethernet/RoCEv2/rtl/RoCEv2AlphaUpdate.vhd");
    let text = std::fs::read_to_string(&f).unwrap();
    let line = "multRound         := mult + 512;";
    assert!(text.contains(line), "{} has no `{line}`", f.display());
    std::fs::write(&f, text.replacen(line, "multRound         := mult;", 1)).unwrap();
    let b = ghdl::build(&tree, &root.join("build")).unwrap();
    let vcd = root.join("window.vcd");
    let o = run(&b, "alpha-wrap", 1, 800, Some((&vcd, true)));
    let m = o.mismatch.expect("the planted defect is found");
    assert!(
        m.cycle + 200 < 800,
        "cycle {}: not before the cycles the run held",
        m.cycle
    );
    assert_eq!(o.cycles, m.cycle);
    let names: Vec<&str> = m.fields.iter().map(|f| f.field).collect();
    assert_eq!(names, ["alpha"], "{}", m.report());
    assert_ne!(m.fields[0].model, m.fields[0].rtl);
    assert_eq!(m.history.last().map(|h| h.cycle), Some(m.cycle));
    let j: serde_json::Value = serde_json::from_str(&m.to_json()).unwrap();
    assert_eq!(j["cycle"], m.cycle);
    let w = std::fs::read_to_string(&vcd).unwrap();
    let last = w.lines().rev().find_map(|l| l.strip_prefix('#')).unwrap();
    assert_eq!(last, (m.cycle * 6_400 + 3_200).to_string());
    // The run's own dump is kept for the report.
    assert!(o.kept && o.upstream_run.join("dump.vcd").is_file());
    assert_eq!(m.upstream_run, o.upstream_run.display().to_string());
    let _ = std::fs::remove_dir_all(root);
}

/// Two runs of one scenario at once on one build, with seeds whose register histories differ
/// (blind-windows draws its CNPs from the seed): each compares its own dump, and each folder is
/// removed when its run passed.
#[test]
fn two_runs_of_one_scenario_at_once_compare_their_own_dumps() {
    let Some(dir) = surf_dir("two_runs_of_one_scenario_at_once_compare_their_own_dumps") else {
        return;
    };
    let root = tmp("two");
    let b = ghdl::build(&dir, &root.join("build")).unwrap();
    let (a, c) = std::thread::scope(|s| {
        let a = s.spawn(|| run(&b, "blind-windows", 1, 300, None));
        let c = s.spawn(|| run(&b, "blind-windows", 2, 300, None));
        (a.join().unwrap(), c.join().unwrap())
    });
    for o in [&a, &c] {
        assert!(
            o.mismatch.is_none(),
            "{}",
            o.mismatch.as_ref().map(|m| m.report()).unwrap_or_default()
        );
        assert_eq!(o.cycles, 300);
        assert!(!o.kept && !o.upstream_run.exists());
    }
    assert_ne!(a.upstream_run, c.upstream_run);
    let _ = std::fs::remove_dir_all(root);
}
