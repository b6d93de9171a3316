//! Issue 33 on the model, fuzz-case and golden surfaces: a failed write ends a run at once, work
//! is bounded by limits checked before it starts (not by what a few bytes claim), flags that would
//! be ignored are refused, and the project's own upstream sets verify. Each check runs the built
//! `dcqcn` and asserts the exit code, the message and the time (and, where a claim could make it
//! grow, an address-space limit of 1 GiB).

mod common;

use common::{case_json, dcqcn, stderr, tmp};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `dcqcn args` in `dir` under `ulimit -v 1 GiB`; asserts exit 2 within 5 s with each of
/// `names` in the message; returns the message.
fn refused_bounded(args: &[&str], dir: &Path, names: &[&str]) -> String {
    let t = Instant::now();
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_dcqcn"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let e = stderr(&o);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "{args:?}: {:?}",
        t.elapsed()
    );
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    for n in names {
        assert!(e.contains(n), "{args:?}: `{n}` not in: {e}");
    }
    assert!(!e.contains("panicked"), "{e}");
    e
}

/// A long `dcqcn sim` that writes a row every cycle: without the stop at a failed write it would
/// run for minutes.
const LONG_SIM: [&str; 7] = [
    "sim",
    "--scenario",
    "paper-table2",
    "--cycles",
    "2000M",
    "--every",
    "1",
];

fn long_sim(extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = LONG_SIM.iter().map(|s| s.to_string()).collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

#[test]
fn a_failed_write_ends_sim_at_once() {
    let d = tmp("sim-writes");
    // `dcqcn sim ... | head -1`: the reader leaves after the first line.
    for extra in [&[][..], &["--out", "/dev/stdout"]] {
        let t = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_dcqcn"))
            .args(long_sim(extra))
            .current_dir(&d)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("cycle,time_us,event"), "{first}");
        // the pipe's read end is dropped here
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(141), "{extra:?}: {}", stderr(&o));
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{extra:?}: {:?}",
            t.elapsed()
        );
    }
    // a full disk
    let args = long_sim(&["--out", "/dev/full"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused_bounded(&args, &d, &["--out /dev/full", "No space left on device"]);
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn every_is_refused_with_trace() {
    let d = tmp("every-trace");
    let o = dcqcn(
        &[
            "sim",
            "--scenario",
            "cnp-storm",
            "--every",
            "5",
            "--trace",
            "stop",
        ],
        &d,
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("--every") && e.contains("--trace"), "{e}");
    // --trace alone, with --every at its default, still runs
    let o = dcqcn(
        &[
            "sim",
            "--scenario",
            "cnp-storm",
            "--cycles",
            "20k",
            "--trace",
            "stop",
        ],
        &d,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(d);
}

/// A fresh golden set of 1000 cycles in `dir/set`; its vectors' header (every line before the
/// first record) and its manifest.
fn small_set(dir: &Path) -> (String, String) {
    let o = dcqcn(
        &[
            "golden",
            "gen",
            "--scenario",
            "cnp-storm",
            "--cycles",
            "1000",
            "--out",
            "set",
        ],
        dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = std::fs::read_to_string(dir.join("set/vectors.txt")).unwrap();
    let header: String = v
        .lines()
        .take_while(|l| !l.starts_with("t ") && !l.starts_with("c ") && !l.starts_with("r "))
        .map(|l| format!("{l}\n"))
        .collect();
    let m = std::fs::read_to_string(dir.join("set/manifest.txt")).unwrap();
    (header, m)
}

/// `text` as the set's vectors, sealed (end line and CRC-32), with the manifest's file entry and
/// source cycles made to match: only the claim is wrong.
fn forge(set: &Path, manifest: &str, body: &str, cycles: u64) {
    use sha2::Digest;
    let text = format!(
        "{body}end {cycles} {:08x}\n",
        crc32fast::hash(body.as_bytes())
    );
    std::fs::write(set.join("vectors.txt"), &text).unwrap();
    let entry = format!(
        "file vectors.txt bytes {} crc32 {:08x} sha256 {:x}",
        text.len(),
        crc32fast::hash(text.as_bytes()),
        sha2::Sha256::digest(text.as_bytes())
    );
    let m: String = manifest
        .lines()
        .map(|l| {
            if l.starts_with("file vectors.txt ") {
                entry.clone()
            } else if l.starts_with("source scenario ") {
                l.replace("cycles 1000 ", &format!("cycles {cycles} "))
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect();
    std::fs::write(set.join("manifest.txt"), m).unwrap();
}

#[test]
fn golden_verify_work_is_bounded_before_it_starts() {
    let d = tmp("golden-bounds");
    let (header, manifest) = small_set(&d);
    // A set of about 1 KB whose records run 2^31 - 1 cycles: refused from its end line.
    let body = format!("{header}t 0 0\nc 0 2147483647\n");
    forge(&d.join("set"), &manifest, &body, 2_147_483_647);
    assert!(std::fs::metadata(d.join("set/vectors.txt")).unwrap().len() < 8192);
    refused_bounded(
        &["golden", "verify", "set"],
        &d,
        &[
            "set/vectors.txt",
            "2147483647 cycles",
            "above the 16777216 cycles per set",
        ],
    );
    // Just above the run limit, equally refused.
    forge(
        &d.join("set"),
        &manifest,
        &body.replace("2147483647", "16777217"),
        16_777_217,
    );
    refused_bounded(&["golden", "verify", "set"], &d, &["16777217 cycles"]);
    // golden gen refuses the same length before it runs.
    refused_bounded(
        &[
            "golden",
            "gen",
            "--scenario",
            "cnp-storm",
            "--cycles",
            "2147483647",
            "--out",
            "g",
        ],
        &d,
        &["2147483647 cycles", "1 to 16777216"],
    );
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn a_manifest_lists_each_set_file_once() {
    let d = tmp("golden-files");
    let (_, manifest) = small_set(&d);
    let entry = manifest
        .lines()
        .find(|l| l.starts_with("file vectors.txt "))
        .unwrap()
        .to_string();
    let first = manifest.lines().position(|l| l == entry).unwrap() + 1;
    // 100,000 file lines: corrupt at the second, not hashed 100,000 times and called stale
    let many = format!("{manifest}{}", format!("{entry}\n").repeat(100_000));
    std::fs::write(d.join("set/manifest.txt"), many).unwrap();
    let line = manifest.lines().count() + 1;
    refused_bounded(
        &["golden", "verify", "set"],
        &d,
        &[
            &format!("set/manifest.txt:{line}:"),
            &format!("`vectors.txt` is listed twice (first at line {first})"),
        ],
    );
    // a name that is no file of a set
    let other = entry.replacen("vectors.txt", "notes.txt", 1);
    std::fs::write(d.join("set/manifest.txt"), format!("{manifest}{other}\n")).unwrap();
    refused_bounded(
        &["golden", "verify", "set"],
        &d,
        &["`notes.txt` is not a file of a golden set (vectors.txt, config.txt, case.json)"],
    );
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn golden_verify_replays_the_upstream_sets() {
    let d = tmp("golden-surf");
    let surf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../golden/surf");
    let o = dcqcn(&["golden", "verify", surf.to_str().unwrap()], &d);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(
        out.lines().filter(|l| l.starts_with("ok ")).count() >= 10,
        "{out}"
    );
    assert!(out.contains("alpha-wrap"), "{out}");
    // a recorded value changed (and resealed): a stale set, exit 1, naming cycle and field
    let copy = d.join("alpha-wrap");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["manifest.txt", "vectors.txt"] {
        std::fs::copy(surf.join("alpha-wrap").join(f), copy.join(f)).unwrap();
    }
    let v = std::fs::read_to_string(copy.join("vectors.txt")).unwrap();
    let body_end = v[..v.len() - 1].rfind('\n').unwrap() + 1;
    let cycles = v[body_end..].split(' ').nth(1).unwrap().to_string();
    // the first template that sets Rc (field `rc`) gets another delta's top hex digit
    let rc = v
        .lines()
        .find_map(|l| {
            let (k, rest) = l.strip_prefix("f ")?.split_once(' ')?;
            rest.ends_with(" rc").then(|| k.to_string())
        })
        .unwrap();
    let mut changed = false;
    let body: String = v[..body_end]
        .lines()
        .map(|l| {
            let toks: Vec<&str> = l.split(' ').collect();
            if !changed && toks.first() == Some(&"t") {
                if let Some(p) = (3..toks.len()).step_by(2).find(|&p| toks[p] == rc) {
                    let mut t: Vec<String> = toks.iter().map(|s| s.to_string()).collect();
                    let d = &t[p + 1];
                    let flipped = if d.starts_with('0') { "1" } else { "0" };
                    t[p + 1] = format!("{flipped}{}", &d[1..]);
                    changed = true;
                    return t.join(" ") + "\n";
                }
            }
            format!("{l}\n")
        })
        .collect();
    assert!(changed);
    std::fs::write(
        copy.join("vectors.txt"),
        format!(
            "{body}end {cycles} {:08x}\n",
            crc32fast::hash(body.as_bytes())
        ),
    )
    .unwrap();
    let o = dcqcn(&["golden", "verify", "alpha-wrap"], &d);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains(": rc recorded") && e.contains("upstream model gives"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn a_fuzz_case_address_must_fit_the_port() {
    let d = tmp("case-addr");
    let mut v = case_json();
    v["case"]["stimulus"]["axil"]["periodic"] =
        serde_json::json!([{"period": 100, "addr": 4096, "values": [1]}]);
    std::fs::write(d.join("a.json"), v.to_string()).unwrap();
    refused_bounded(
        &["fuzz", "--replay", "a.json"],
        &d,
        &[
            "a.json",
            "`case.stimulus.axil.periodic[0].addr`",
            "0x1000 does not fit the 12-bit s_axil_awaddr port (max 0xfff)",
        ],
    );
    // the largest address the port holds is accepted (the case replays)
    v["case"]["stimulus"]["axil"]["periodic"] =
        serde_json::json!([{"period": 100, "addr": 4095, "values": [1]}]);
    std::fs::write(d.join("b.json"), v.to_string()).unwrap();
    let o = dcqcn(&["fuzz", "--replay", "b.json"], &d);
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(1),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("does not fit"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(d);
}
