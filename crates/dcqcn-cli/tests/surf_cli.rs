//! Bad `--surf-dir` input (issue 10 item 6): each case exits 2 with one error line naming what is
//! missing, and nothing panics. None of these needs SURF or GHDL: the checkout is checked first.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dcqcn-surf-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes empty files at these paths under `root`.
fn touch(root: &Path, files: &[&str]) {
    for f in files {
        let p = root.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "").unwrap();
    }
}

/// Runs `dcqcn` with `args`: (exit code, stderr).
fn run(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_dcqcn"))
        .args(args)
        .env(
            "CARGO_TARGET_DIR",
            std::env::temp_dir().join("dcqcn-surf-cli-target"),
        )
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code().unwrap_or(-1), err)
}

/// Both commands that take `--surf-dir`, on `dir`.
fn both(dir: &Path, out: &Path) -> Vec<(i32, String)> {
    let d = dir.to_str().unwrap();
    vec![
        run(&[
            "cosim",
            "--rtl",
            "surf",
            "--surf-dir",
            d,
            "--scenario",
            "first-cnp",
        ]),
        run(&[
            "surf",
            "record",
            "--surf-dir",
            d,
            "--scenario",
            "first-cnp",
            "--out",
            out.to_str().unwrap(),
        ]),
    ]
}

#[test]
fn missing_directory() {
    let root = tmp("missing");
    let gone = root.join("no-such-surf");
    for (code, err) in both(&gone, &root.join("out")) {
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("no such directory") && err.contains("no-such-surf"),
            "{err}"
        );
    }
}

#[test]
fn not_a_directory() {
    let root = tmp("file");
    let f = root.join("surf.tar");
    std::fs::write(&f, "x").unwrap();
    for (code, err) in both(&f, &root.join("out")) {
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("not a directory") && err.contains("surf.tar"),
            "{err}"
        );
    }
}

#[test]
fn not_a_surf_tree() {
    let root = tmp("notsurf");
    touch(&root, &["README.md", "src/main.rs"]);
    for (code, err) in both(&root, &root.join("out")) {
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("not a SURF checkout"), "{err}");
        assert!(err.contains("base/general/rtl/StdRtlPkg.vhd"), "{err}");
    }
}

#[test]
fn surf_without_the_block() {
    let root = tmp("noblock");
    touch(&root, dcqcn_cosim_base());
    for (code, err) in both(&root, &root.join("out")) {
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("has no RoCEv2Dcqcn block"), "{err}");
        assert!(err.contains("ethernet/RoCEv2/rtl/RoCEv2Dcqcn.vhd"), "{err}");
        assert!(
            err.contains("ethernet/RoCEv2/wrappers/RoCEv2DcqcnWrapper.vhd"),
            "{err}"
        );
    }
    // The block without its wrapper: only the wrapper is named.
    touch(&root, &dcqcn_surf::ghdl::BLOCK_FILES[..8]);
    for (code, err) in both(&root, &root.join("out")) {
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("RoCEv2DcqcnWrapper.vhd"), "{err}");
        assert!(!err.contains("RoCEv2Dcqcn.vhd,"), "{err}");
    }
}

#[test]
fn surf_dir_required_and_only_with_rtl_surf() {
    let (code, err) = run(&["cosim", "--rtl", "surf", "--scenario", "first-cnp"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--surf-dir"), "{err}");
    let (code, err) = run(&[
        "cosim",
        "--surf-dir",
        "/nonexistent",
        "--scenario",
        "upstream-reset",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--rtl surf"), "{err}");
}

#[test]
fn unknown_surf_scenario() {
    let root = tmp("scenario");
    let (code, err) = run(&[
        "surf",
        "record",
        "--surf-dir",
        root.to_str().unwrap(),
        "--scenario",
        "no-such",
        "--out",
        root.join("o").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("unknown SURF scenario `no-such`") && err.contains("first-cnp"),
        "{err}"
    );
}

fn dcqcn_cosim_base() -> &'static [&'static str] {
    dcqcn_surf::ghdl::BASE_FILES
}

#[test]
fn surf_with_a_monitor_too_old_for_the_block() {
    let root = tmp("oldmon");
    touch(&root, dcqcn_cosim_base());
    touch(&root, dcqcn_surf::ghdl::BLOCK_FILES);
    std::fs::write(
        root.join(dcqcn_surf::ghdl::TOKEN_BUCKET_FILE),
        "architecture rtl of RoCEv2TokenBucket is\nbegin\n   M : entity surf.AxiStreamMon\n      port map (axisClk => clk, frameUpdate => upd);\nend rtl;\n",
    )
    .unwrap();
    std::fs::write(
        root.join(dcqcn_surf::ghdl::MONITOR_FILE),
        "entity AxiStreamMon is\n   port (axisClk : in sl; frameSize : out slv(31 downto 0));\nend AxiStreamMon;\n",
    )
    .unwrap();
    for (code, err) in both(&root, &root.join("out")) {
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("axi/axi-stream/rtl/AxiStreamMon.vhd has no `frameUpdate` output port"),
            "{err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

/// Options of our block's lockstep that `--rtl surf` cannot honour are refused, each with one line
/// naming the option and why, exit 2, before the checkout is looked at (issue 33).
#[test]
fn options_of_our_block_are_refused_with_rtl_surf() {
    let root = tmp("ours-only");
    let d = root.join("no-surf-needed");
    let d = d.to_str().unwrap();
    let base = [
        "cosim",
        "--rtl",
        "surf",
        "--surf-dir",
        d,
        "--scenario",
        "alpha-wrap",
    ];
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["--variant", "w32"],
            "--variant is not for --rtl surf",
            "Verilated variant",
        ),
        (&["--hdl", "sv"], "--hdl is not for --rtl surf", "VHDL twin"),
        (
            &["--init-seed", "0"],
            "--init-seed is not for --rtl surf",
            "VHDL initial values",
        ),
        (
            &["--init-seed", "7"],
            "--init-seed is not for --rtl surf",
            "VHDL initial values",
        ),
        (
            &["--jobs", "2"],
            "--jobs is not for --rtl surf",
            "one after another",
        ),
        (
            &["--vcd", "w.vcd", "--vcd-window", "10:20"],
            "--vcd-window is not for --rtl surf",
            "--vcd writes the whole run",
        ),
        (
            &["--base", "paper-table2"],
            "--base is our block's configuration",
            "upstream registers",
        ),
    ];
    for (extra, head, why) in cases {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let (code, err) = run(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(head) && err.contains(why), "{extra:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{extra:?}: {err}");
    }
    // Without them the same command goes on to the checkout.
    let (code, err) = run(&base);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no such directory"), "{err}");
}
