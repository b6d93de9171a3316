//! An illegal parameter (spec 2) stops every build with the RTL's own message: Verilator with the
//! flags build.rs verilates every variant with (no `-Wno-fatal`), GHDL synthesis of the VHDL twin
//! through scripts/vhdl2verilog.py (what build.rs runs for the twin), and Icarus through
//! testbench/sv/run.sh. Each check also builds a legal parameter set with the same command, so a
//! command that fails for another reason cannot pass for a rejection.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dcqcn-params-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The illegal values and the message each check of dcqcn_rl gives (rtl/dcqcn_checks.svh,
/// rtl/vhdl/dcqcn_pkg.vhd).
const BAD: &[(&str, u64, &str)] = &[
    (
        "DATA_BYTES",
        65,
        "dcqcn_rl: DATA_BYTES 65 out of range 1..64",
    ),
    (
        "CLK_FREQ_HZ",
        65_536,
        "dcqcn_rl: CLK_FREQ_HZ 65536 out of range 65537..4294967295",
    ),
    (
        "LINE_RATE",
        0,
        "dcqcn_rl: LINE_RATE 0 out of range 1..4294967295",
    ),
    (
        "RATE_RULES",
        2,
        "dcqcn_rl: RATE_RULES 2 out of range 0 or 1",
    ),
    ("CONTROL", 2, "dcqcn_rl: CONTROL 2 out of range 0 or 1"),
    (
        "TRACE_DEPTH",
        32,
        "dcqcn_rl: TRACE_DEPTH 32 out of range 0 or 64",
    ),
];

/// The parameters of the three first rows of [`BAD`] (the others are the features, spec 2).
const RATES_AND_WIDTH: [&str; 3] = ["DATA_BYTES", "CLK_FREQ_HZ", "LINE_RATE"];

/// 25 GbE at 390.625 MHz, 8-byte beats: legal.
fn legal(name: &str) -> u64 {
    match name {
        "DATA_BYTES" => 8,
        "CLK_FREQ_HZ" => 390_625_000,
        "LINE_RATE" => 3_125_000_000,
        "TRACE_DEPTH" => 64,
        _ => 1,
    }
}

/// Verilator on the SV with build.rs's flags, `name` set to `value` (the others legal).
fn verilate(name: &str, value: u64, dir: &Path) -> Output {
    let r = root();
    let mut sv: Vec<PathBuf> = std::fs::read_dir(r.join("rtl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sv"))
        .collect();
    sv.sort();
    let mut cmd = Command::new(std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into()));
    cmd.args(env!("DCQCN_VERILATOR_FLAGS").split(' '))
        .args(["--top-module", "dcqcn_cosim_top", "--Mdir"])
        .arg(dir)
        .arg(format!("-I{}", r.join("rtl").display()));
    for (p, _, _) in BAD {
        let v = if *p == name { value } else { legal(p) };
        if matches!(*p, "CLK_FREQ_HZ" | "LINE_RATE") {
            cmd.arg(format!("-G{p}=32'd{v}"));
        } else {
            cmd.arg(format!("-G{p}={v}"));
        }
    }
    cmd.args(&sv)
        .arg(r.join("verilator/dcqcn_cosim_top.sv"))
        .output()
        .expect("running verilator")
}

#[test]
fn verilator_build_stops_on_an_illegal_parameter() {
    let flags = env!("DCQCN_VERILATOR_FLAGS");
    assert!(
        !flags.split(' ').any(|f| f == "-Wno-fatal"),
        "build.rs masks warnings: {flags}"
    );
    for &(name, value, message) in BAD {
        let dir = tmp(&format!("vl-{name}"));
        let ok = verilate(name, legal(name), &dir);
        assert!(ok.status.success(), "legal {name}:\n{}", text(&ok));
        let bad = verilate(name, value, &dir);
        assert!(!bad.status.success(), "{name} = {value} was verilated");
        assert!(
            text(&bad).contains(message),
            "{name} = {value}: no `{message}` in:\n{}",
            text(&bad)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// scripts/vhdl2verilog.py as build.rs runs it for a VHDL variant.
fn vhdl2verilog(name: &str, value: u64, dir: &Path) -> Output {
    let mut cmd = Command::new(std::env::var("PYTHON").unwrap_or_else(|_| "python3".into()));
    cmd.arg(root().join("scripts/vhdl2verilog.py"));
    for p in RATES_AND_WIDTH {
        let v = if p == name { value } else { legal(p) };
        cmd.arg(format!("--{}={v}", p.to_lowercase().replace('_', "-")));
    }
    if !RATES_AND_WIDTH.contains(&name) {
        cmd.arg(format!("--generic={name}={value}"));
    }
    cmd.arg("--out")
        .arg(dir.join("dcqcn_rl.v"))
        .arg("--state")
        .arg(dir.join("state.svh"))
        .arg("--inject")
        .arg(dir.join("inject.svh"))
        .output()
        .expect("running scripts/vhdl2verilog.py")
}

#[test]
fn the_twin_and_its_script_stop_on_an_illegal_feature_generic() {
    let r = root();
    let dir = tmp("ghdl-trace-depth");
    std::fs::create_dir_all(&dir).unwrap();
    // the twin's units in analysis order, as every other VHDL flow reads them
    let list =
        std::fs::read_to_string(r.join("rtl/files_vhdl.f")).expect("reading rtl/files_vhdl.f");
    let srcs: Vec<PathBuf> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| r.join(l))
        .collect();
    assert!(!srcs.is_empty(), "rtl/files_vhdl.f lists no file");
    let o = Command::new(std::env::var("GHDL").unwrap_or_else(|_| "ghdl".into()))
        .args([
            "--synth",
            "--std=08",
            "-fsynopsys",
            "-frelaxed-rules",
            "-fexplicit",
        ])
        .arg(format!("--workdir={}", dir.display()))
        .arg("-gTRACE_DEPTH=32")
        .args(&srcs)
        .args(["-e", "dcqcn_rl"])
        .output()
        .expect("running ghdl");
    assert!(!o.status.success(), "TRACE_DEPTH = 32 was synthesised");
    let want = "dcqcn_rl: TRACE_DEPTH 32 out of range 0 or 64";
    assert!(text(&o).contains(want), "no `{want}` in:\n{}", text(&o));
    // RATE_RULES and CONTROL are booleans in the twin (no illegal value to give it); the script
    // refuses any illegal feature generic itself
    for (name, value) in [("RATE_RULES", 2), ("CONTROL", 2), ("TRACE_DEPTH", 32)] {
        let bad = vhdl2verilog(name, value, &dir);
        assert_eq!(
            bad.status.code(),
            Some(2),
            "{name} = {value}:\n{}",
            text(&bad)
        );
        assert!(
            text(&bad).contains(&format!("'{name}={value}': expected one of")),
            "{name} = {value}:\n{}",
            text(&bad)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ghdl_synthesis_of_the_twin_stops_on_an_illegal_generic() {
    for &(name, value, message) in BAD.iter().filter(|b| RATES_AND_WIDTH.contains(&b.0)) {
        let dir = tmp(&format!("ghdl-{name}"));
        let ok = vhdl2verilog(name, legal(name), &dir);
        assert!(ok.status.success(), "legal {name}:\n{}", text(&ok));
        let bad = vhdl2verilog(name, value, &dir);
        assert_eq!(
            bad.status.code(),
            Some(2),
            "{name} = {value}:\n{}",
            text(&bad)
        );
        assert!(
            text(&bad).contains(message),
            "{name} = {value}: no `{message}` in:\n{}",
            text(&bad)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Icarus: testbench/sv/run.sh with RTL_DATA_BYTES (the testbench's one parameter) stops at its
/// build; the clock and line-rate checks run the same way on the wrapper alone (run.sh's check).
#[test]
fn icarus_stops_on_an_illegal_parameter() {
    let r = root();
    let build = tmp("icarus");
    let set = r.join("golden/bypass");
    let o = Command::new("bash")
        .arg(r.join("testbench/sv/run.sh"))
        .arg("icarus")
        .arg(&set)
        .env("BUILD", &build)
        .env("RTL_DATA_BYTES", "65")
        .output()
        .expect("running testbench/sv/run.sh");
    assert!(!o.status.success());
    let t = text(&o);
    assert!(t.contains("build failed"), "{t}");
    assert!(t.contains(BAD[0].2), "no `{}` in:\n{t}", BAD[0].2);
    for &(name, value, message) in &BAD[1..] {
        let run = |v: u64| {
            let exe = build.join(format!("check-{name}-{v}.vvp"));
            let c = Command::new("iverilog")
                .args(["-g2012", "-s", "dcqcn_cosim_top"])
                .arg(format!("-I{}", r.join("rtl").display()))
                .arg(format!("-Pdcqcn_cosim_top.{name}={v}"))
                .arg("-o")
                .arg(&exe)
                .args(
                    [
                        "cnp_sync",
                        "alpha",
                        "rate_dec",
                        "rate_inc",
                        "credit_gate",
                        "regs",
                        "rl",
                    ]
                    .map(|m| r.join(format!("rtl/dcqcn_{m}.sv"))),
                )
                .arg(r.join("verilator/dcqcn_cosim_top.sv"))
                .output()
                .expect("running iverilog");
            assert!(c.status.success(), "{}", text(&c));
            Command::new("vvp")
                .arg("-n")
                .arg(&exe)
                .output()
                .expect("running vvp")
        };
        let ok = run(legal(name));
        assert!(!text(&ok).contains("FATAL"), "legal {name}:\n{}", text(&ok));
        let bad = run(value);
        assert!(
            text(&bad).contains(message),
            "{name} = {value}: no `{message}` in:\n{}",
            text(&bad)
        );
    }
    let _ = std::fs::remove_dir_all(&build);
}
