//! `dcqcn net sweep` and `dcqcn net advcam` from the command line: bad input names its flag and
//! exits 2 before anything runs; a small grid writes its CSV and maps, the same bytes on one
//! thread and on two.

mod common;

use common::{dcqcn, stderr, tmp};

/// Runs `dcqcn net sweep` with `args` and expects exit 2 with `flag` and `what` in the message.
fn refused(args: &[&str], flag: &str, what: &str) {
    let dir = tmp("sweep-bad");
    let mut all = vec!["net", "sweep", "--quiet"];
    all.extend_from_slice(args);
    let o = dcqcn(&all, &dir);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(e.starts_with("error: "), "{args:?}: {e}");
    assert!(e.contains(flag), "{args:?}: no `{flag}` in {e}");
    assert!(e.contains(what), "{args:?}: no `{what}` in {e}");
    assert!(!e.contains("panicked"), "{e}");
    assert!(!dir.join("out").exists(), "{args:?} wrote output");
}

const Y: &str = "registers.inc_interval=1ms,2ms";

#[test]
fn unknown_parameter_names_the_flag() {
    refused(
        &["--x", "receiver.cnp_intervl=5us,50us", "--y", Y],
        "--x",
        "unknown parameter `receiver.cnp_intervl`",
    );
    refused(
        &[
            "--x",
            "receiver.cnp_interval=5us",
            "--y",
            "registers.inc_intervl=1ms",
        ],
        "--y",
        "inc_intervl",
    );
    refused(
        &["--x", "receiver.cnp_interval", "--y", Y],
        "--x",
        "expected NAME=VALUES",
    );
}

#[test]
fn empty_and_invalid_ranges_name_the_flag() {
    for (x, what) in [
        ("receiver.cnp_interval=", "empty value"),
        ("receiver.cnp_interval=5us,,50us", "empty value"),
        (
            "receiver.cnp_interval=50us..5us:4",
            "empty (TO is below FROM)",
        ),
        ("receiver.cnp_interval=5us..50us:0", "0 points"),
        ("receiver.cnp_interval=5us..50ms:3", "different units"),
        ("receiver.cnp_interval=5us..50us", "expected FROM..TO:N"),
        (
            "receiver.cnp_interval=5us..50us:3:cubic",
            "neither lin nor log",
        ),
        (
            "receiver.cnp_interval=0us..50us:3",
            "log range needs FROM above 0",
        ),
        ("receiver.cnp_interval=fast,slow", "receiver.cnp_interval"),
        ("receiver.cnp_interval=5us,2s", "at most 1 s"),
    ] {
        refused(&["--x", x, "--y", Y], "--x", what);
    }
    refused(
        &[
            "--x",
            "receiver.cnp_interval=5us",
            "--y",
            "receiver.cnp_interval=6us",
        ],
        "--y",
        "also the --x parameter",
    );
    refused(
        &["--x", "receiver.cnp_interval=5us", "--y", Y, "--jobs", "0"],
        "--jobs",
        "at least 1",
    );
    refused(
        &[
            "--x",
            "receiver.cnp_interval=5us",
            "--y",
            Y,
            "--base",
            "fig99",
        ],
        "--base",
        "unknown network `fig99`",
    );
}

#[test]
fn too_many_points_names_the_flags() {
    refused(
        &[
            "--x",
            "receiver.cnp_interval=1us..1000us:40",
            "--y",
            "registers.inc_interval=100us..10000us:40",
        ],
        "--x/--y",
        "40 x 40 = 1600 points, at most 1024",
    );
    refused(
        &["--x", "receiver.cnp_interval=1us..1000us:65", "--y", Y],
        "--x",
        "65 points, must be 1..=64",
    );
}

#[test]
fn advcam_refuses_bad_sizes_and_rates() {
    let dir = tmp("advcam-bad");
    for (args, flag, what) in [
        (vec!["--leaves", "0"], "--leaves", "at least 1"),
        (
            vec!["--leaves", "64", "--per-leaf", "32"],
            "--leaves/--per-leaf",
            "2048 senders, at most 1024",
        ),
        (vec!["--uplink", "fast"], "--uplink", "link.uplink_rate"),
        (vec!["--uplink", "2000Gbps"], "--uplink", "1 Tbit/s"),
        (vec!["--duration", "0"], "--duration", "(0, 100]"),
    ] {
        let mut all = vec!["net", "advcam", "--quiet", "--out", "o"];
        all.extend_from_slice(&args);
        let o = dcqcn(&all, &dir);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(flag) && e.contains(what), "{args:?}: {e}");
        assert!(!dir.join("o").exists(), "{args:?} wrote output");
    }
}

#[test]
fn a_small_grid_writes_the_same_csv_on_one_thread_and_two() {
    let dir = tmp("sweep-small");
    let run = |jobs: &str, out: &str| {
        let o = dcqcn(
            &[
                "net",
                "sweep",
                "--quiet",
                "--x",
                "receiver.cnp_interval=5us,50us",
                "--y",
                "registers.inc_interval=100us,2ms",
                "--config",
                "small.toml",
                "--duration",
                "0.004",
                "--jobs",
                jobs,
                "--out",
                out,
            ],
            &dir,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(text.contains("4 points (2 x 2)"), "{text}");
        std::fs::read(dir.join(out).join("sweep.csv")).unwrap()
    };
    std::fs::write(dir.join("small.toml"), "[topology]\nleaves = [3]\n").unwrap();
    let one = run("1", "a");
    let two = run("2", "b");
    assert_eq!(one, two, "the CSV depends on the number of threads");
    let csv = String::from_utf8(one).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "{csv}");
    assert!(lines[0].starts_with("receiver.cnp_interval,registers.inc_interval,throughput_gbps"));
    assert!(lines[1].starts_with("5us,100us,"), "{csv}");
    assert!(lines[4].starts_with("50us,2ms,"), "{csv}");
    for f in ["sweep.svg", "sweep.png"] {
        assert!(dir.join("a").join(f).exists(), "{f}");
    }
    assert_eq!(
        std::fs::read(dir.join("a/sweep.svg")).unwrap(),
        std::fs::read(dir.join("b/sweep.svg")).unwrap()
    );
}
