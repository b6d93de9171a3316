//! Issue 33, the `net` verbs: nonsense is refused with one line naming the flag or key and its
//! limit (exit 2, within seconds, before anything runs), and a failed write ends the run at once
//! (exit 2; 141 for a closed standard output).

mod common;

use common::{dcqcn, stderr, tmp};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The limit every refusal here is held to (the documented 5 s; a loaded machine).
const QUICK: Duration = Duration::from_secs(5);

/// Runs `dcqcn args` in `dir`, timed.
fn timed(args: &[&str], dir: &std::path::Path) -> (Output, Duration) {
    let t = Instant::now();
    let o = dcqcn(args, dir);
    (o, t.elapsed())
}

/// Expects exit 2 within [`QUICK`] with every one of `what` in the first line of the message.
fn refused(name: &str, args: &[&str], what: &[&str]) -> String {
    let dir = tmp(name);
    let (o, took) = timed(args, &dir);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(took < QUICK, "{args:?}: {took:?}");
    let first = e.lines().next().unwrap_or("");
    assert!(first.starts_with("error: "), "{e}");
    for w in what {
        assert!(first.contains(w), "{args:?}: no `{w}` in {e}");
    }
    assert!(!e.contains("panicked"), "{e}");
    e
}

/// A grid of 1024 points of one simulated second each: minutes if it ever started.
const BIG_X: &str = "registers.inc_interval=500us..64000us:64";
const BIG_Y: &str = "receiver.cnp_interval=4us..1024us:16";

#[test]
fn advcam_with_a_legal_sample_too_fine_for_256_flows_is_refused() {
    let dir = tmp("advcam-sample");
    std::fs::write(dir.join("fine.toml"), "sample = \"100ns\"\n").unwrap();
    let (o, took) = timed(
        &[
            "net",
            "advcam",
            "--quiet",
            "--config",
            "fine.toml",
            "--out",
            "o",
        ],
        &dir,
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(took < QUICK, "{took:?}");
    assert!(
        e.starts_with("error: fine.toml:1: `sample`")
            && e.contains("1000000 samples x 273 flows and switches")
            && e.contains("at most 4000000"),
        "{e}"
    );
    assert!(!dir.join("o").exists());
}

#[test]
fn sweep_jobs_beyond_1024_are_refused() {
    let e = refused(
        "sweep-jobs",
        &[
            "net", "sweep", "--quiet", "--x", BIG_X, "--y", BIG_Y, "--jobs", "100000",
        ],
        &["--jobs", "1..=1024"],
    );
    assert!(e.contains("`100000`"), "{e}");
}

#[test]
fn a_line_break_in_an_axis_cannot_add_a_key() {
    let e = refused(
        "sweep-newline",
        &[
            "net",
            "sweep",
            "--quiet",
            "--x",
            "receiver.cnp_interval=1000\nseed = 3",
            "--y",
            "switch.kmin=5KB",
        ],
        &["--x", "control character"],
    );
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn a_sample_longer_than_the_duration_is_refused() {
    refused(
        "sweep-sample",
        &[
            "net",
            "sweep",
            "--quiet",
            "--duration",
            "0.02",
            "--x",
            "sample=1ms,50ms",
            "--y",
            "switch.kmin=5KB",
        ],
        &["--x", "`sample` = `50ms`", "longer than the duration"],
    );
    refused(
        "advcam-short",
        &["net", "advcam", "--quiet", "--duration", "0.0005"],
        &["`sample`", "longer than the duration"],
    );
}

#[test]
fn a_long_axis_value_is_clipped_in_the_message() {
    let long = format!("receiver.cnp_interval={}us", "5".repeat(100_000));
    let e = refused(
        "sweep-long",
        &[
            "net",
            "sweep",
            "--quiet",
            "--x",
            &long,
            "--y",
            "switch.kmin=5KB",
        ],
        &["--x", "at most 4096"],
    );
    assert!(e.len() < 400, "{} bytes: {e}", e.len());
    let one = format!("receiver.cnp_interval={}us,5us", "5".repeat(1_000));
    let e = refused(
        "sweep-long-value",
        &[
            "net",
            "sweep",
            "--quiet",
            "--x",
            &one,
            "--y",
            "switch.kmin=5KB",
        ],
        &["--x", "at most 64 characters"],
    );
    assert!(e.len() < 400, "{} bytes: {e}", e.len());
}

#[test]
fn messages_name_the_key_in_plain_words() {
    let e = refused(
        "sweep-dotted",
        &[
            "net",
            "sweep",
            "--quiet",
            "--x",
            "switch.kmin=5KB",
            "--y",
            "registers.inc_interval.x=1",
        ],
        &["--y", "unknown register field `inc_interval.x`"],
    );
    assert!(!e.contains("borrowed"), "{e}");
    let dir = tmp("out-file");
    std::fs::write(dir.join("f"), "x").unwrap();
    for verb in [
        vec![
            "net",
            "sweep",
            "--quiet",
            "--x",
            "switch.kmin=5KB",
            "--y",
            "seed=1",
        ],
        vec!["net", "advcam", "--quiet"],
        vec!["net", "fig12", "--quiet"],
    ] {
        let mut args = verb.clone();
        args.extend(["--out", "f"]);
        let (o, took) = timed(&args, &dir);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{verb:?}: {e}");
        assert!(took < QUICK, "{verb:?}: {took:?}");
        assert!(
            e.contains("--out: `f") && e.contains("is not a folder"),
            "{verb:?}: {e}"
        );
        assert!(!e.contains("File exists"), "{e}");
    }
}

#[test]
fn an_output_on_a_device_ends_the_run_before_it_starts() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    for out in ["/dev/full", "/dev/full/x"] {
        let e = refused(
            "sweep-dev-full",
            &[
                "net",
                "sweep",
                "--quiet",
                "--x",
                BIG_X,
                "--y",
                BIG_Y,
                "--duration",
                "1",
                "--out",
                out,
            ],
            &["--out: `/dev/full`", "is not a folder"],
        );
        assert!(!e.contains("File exists"), "{e}");
    }
}

#[test]
fn a_full_disk_ends_the_run_at_once() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    // A folder whose CSV is the full device: opening succeeds, the first write fails.
    for (verb, csv) in [
        (
            vec![
                "net",
                "sweep",
                "--quiet",
                "--x",
                BIG_X,
                "--y",
                BIG_Y,
                "--duration",
                "1",
            ],
            "sweep.csv",
        ),
        (
            vec!["net", "advcam", "--quiet", "--duration", "10"],
            "advcam.csv",
        ),
    ] {
        let dir = tmp("full-disk");
        std::fs::create_dir(dir.join("o")).unwrap();
        std::os::unix::fs::symlink("/dev/full", dir.join("o").join(csv)).unwrap();
        let mut args = verb.clone();
        args.extend(["--out", "o"]);
        let (o, took) = timed(&args, &dir);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{verb:?}: {e}");
        assert!(took < QUICK, "{verb:?}: {took:?}");
        assert!(
            e.starts_with(&format!("error: o/{csv}: cannot write: No space left")),
            "{verb:?}: {e}"
        );
    }
}

#[test]
fn a_closed_standard_output_ends_the_run_at_once() {
    let dir = tmp("closed-stdout");
    for verb in [
        vec![
            "net",
            "sweep",
            "--quiet",
            "--x",
            BIG_X,
            "--y",
            BIG_Y,
            "--duration",
            "1",
            "--out",
            "s",
        ],
        vec!["net", "advcam", "--quiet", "--duration", "10", "--out", "a"],
    ] {
        let (r, w) = std::io::pipe().unwrap();
        drop(r);
        let t = Instant::now();
        let o = Command::new(env!("CARGO_BIN_EXE_dcqcn"))
            .args(&verb)
            .current_dir(&dir)
            .stdout(w)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(141), "{verb:?}: {}", stderr(&o));
        assert!(t.elapsed() < QUICK, "{verb:?}: {:?}", t.elapsed());
        assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    }
}
