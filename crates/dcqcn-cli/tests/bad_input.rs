//! Issue #11: bad input never wraps, hangs, reads outside its folder or passes as a success.
//! One test per kind, several inputs each: the exit code, and that the message names the
//! culprit (file, line, field or flag).

mod common;

use common::{case_json, dcqcn, stderr, tmp};
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `args` in `dir` and asserts exit 2 with every one of `names` in the message.
fn refused(args: &[&str], dir: &Path, names: &[&str]) -> String {
    let o = dcqcn(args, dir);
    let e = stderr(&o);
    // Arguments as the messages below show them (a 100 kB one shortened).
    let args: Vec<String> = args.iter().map(|a| a.chars().take(80).collect()).collect();
    let e = if e.len() > 10_000 {
        panic!("{args:?}: {} bytes on stderr", e.len())
    } else {
        e
    };
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    for n in names {
        assert!(e.contains(n), "{args:?}: `{n}` not in: {e}");
    }
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    e
}

fn write_case(dir: &Path, name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v = case_json();
    edit(&mut v);
    std::fs::write(dir.join(name), serde_json::to_string_pretty(&v).unwrap()).unwrap();
    name.to_string()
}

/// A fresh golden set of `cycles` cycles in `dir/name`.
fn golden_set(dir: &Path, name: &str, cycles: &str) {
    let o = dcqcn(
        &[
            "golden",
            "gen",
            "--scenario",
            "cnp-storm",
            "--cycles",
            cycles,
            "--out",
            name,
        ],
        dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Rewrites `vectors.txt` of `set` with `text` and its manifest entry to match, so that only what
/// a test changed on purpose is wrong.
fn replace_vectors(set: &Path, text: &str) {
    use sha2::Digest;
    std::fs::write(set.join("vectors.txt"), text).unwrap();
    let m = std::fs::read_to_string(set.join("manifest.txt")).unwrap();
    let entry = format!(
        "file vectors.txt bytes {} crc32 {:08x} sha256 {:x}",
        text.len(),
        crc32fast::hash(text.as_bytes()),
        sha2::Sha256::digest(text.as_bytes())
    );
    let old = m
        .lines()
        .find(|l| l.starts_with("file vectors.txt "))
        .unwrap();
    std::fs::write(set.join("manifest.txt"), m.replace(old, &entry)).unwrap();
}

/// `body` (a vectors file without its end line) with an end line of `cycles` and its CRC.
fn reseal(body: &str, cycles: &str) -> String {
    format!(
        "{body}end {cycles} {:08x}\n",
        crc32fast::hash(body.as_bytes())
    )
}

/// Kind 8: a closed standard output ends the command quietly, like coreutils (status 141).
#[test]
fn closed_stdout_exits_quietly() {
    let d = tmp("pipe");
    for args in [
        &["variants"][..],
        &["scenarios"],
        &["golden", "list"],
        &["sim", "--scenario", "cnp-storm", "--cycles", "20k"],
    ] {
        // A pipe whose reader is gone before the command starts: its first write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = Command::new(env!("CARGO_BIN_EXE_dcqcn"))
            .args(args)
            .current_dir(&d)
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(141), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
    let _ = std::fs::remove_dir_all(d);
}

/// Kind 4: a run that would check nothing is an error, not a success.
#[test]
fn runs_that_check_nothing_fail() {
    let d = tmp("nothing");
    refused(
        &["cosim", "--cycles", "0"],
        &d,
        &["--cycles", "0 would check nothing"],
    );
    refused(
        &["sim", "--cycles", "0k"],
        &d,
        &["--cycles", "check nothing"],
    );
    refused(&["fuzz", "--cases", "0"], &d, &["--cases", "check nothing"]);
    refused(
        &["fuzz", "--cycles", "0"],
        &d,
        &["--cycles", "check nothing"],
    );
    refused(&["fuzz", "--seconds", "0"], &d, &["--seconds", "above 0"]);
    refused(&["fuzz", "--seconds", "NaN"], &d, &["--seconds"]);
    // A budget too short for any case (threads start microseconds after the clock does).
    refused(
        &["fuzz", "--seconds", "0.000000001"],
        &d,
        &[
            "--seconds 0.000000001: no case finished",
            "nothing was checked",
        ],
    );
    refused(&["fuzz", "--jobs", "0"], &d, &["--jobs", "1..=1024"]);
    refused(
        &[
            "golden",
            "gen",
            "--scenario",
            "cnp-storm",
            "--cycles",
            "0",
            "--out",
            "g",
        ],
        &d,
        &["--cycles", "check nothing"],
    );
    let c = write_case(&d, "zero.json", |v| v["cycles"] = 0.into());
    refused(
        &["fuzz", "--replay", &c],
        &d,
        &["zero.json", "`cycles`", "0: must be 1..="],
    );
    // A golden set whose end line says 0 cycles (resealed so that only the count is wrong).
    golden_set(&d, "set", "1000");
    let v = std::fs::read_to_string(d.join("set/vectors.txt")).unwrap();
    let body_end = v[..v.len() - 1].rfind('\n').unwrap() + 1;
    replace_vectors(&d.join("set"), &reseal(&v[..body_end], "0"));
    refused(
        &["golden", "verify", "set"],
        &d,
        &[
            "vectors.txt:",
            "the end line says 0 cycles: a set holds 1 to 2147483647",
        ],
    );
    assert!(!d.join("g").exists());
    let _ = std::fs::remove_dir_all(d);
}

/// Kind 3: a manifest names plain files inside its own folder only; `golden gen` does not write
/// into a folder that holds other things.
#[test]
fn manifests_stay_inside_their_set_and_gen_keeps_out_of_foreign_folders() {
    let d = tmp("paths");
    golden_set(&d, "set", "1000");
    let m = std::fs::read_to_string(d.join("set/manifest.txt")).unwrap();
    for bad in [
        "../../../etc/passwd",
        "/etc/passwd",
        "/dev/zero",
        "..",
        ".hidden",
        "a/b",
    ] {
        std::fs::write(
            d.join("set/manifest.txt"),
            m.replacen("file config.txt ", &format!("file {bad} "), 1),
        )
        .unwrap();
        let e = refused(&["golden", "verify", "set"], &d, &["manifest.txt:", bad]);
        assert!(e.contains("plain files inside its set's folder"), "{e}");
    }
    for bad in ["../../x.json", "/dev/zero", "/etc/passwd"] {
        let src = m.lines().find(|l| l.starts_with("source ")).unwrap();
        std::fs::write(
            d.join("set/manifest.txt"),
            m.replace(src, &format!("source case {bad}")),
        )
        .unwrap();
        refused(
            &["golden", "verify", "set"],
            &d,
            &["manifest.txt:", bad, "plain files"],
        );
    }
    // A link inside the set that points outside is not a plain file either.
    std::fs::write(d.join("set/manifest.txt"), &m).unwrap();
    std::fs::remove_file(d.join("set/config.txt")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", d.join("set/config.txt")).unwrap();
    refused(
        &["golden", "verify", "set"],
        &d,
        &["config.txt", "not a regular file"],
    );

    // gen --out: a folder with other files is refused, untouched; --force writes.
    std::fs::create_dir_all(d.join("src")).unwrap();
    std::fs::write(d.join("src/main.rs"), "fn main() {}\n").unwrap();
    let gen = |out: &str, extra: &[&str]| {
        let mut a = vec![
            "golden",
            "gen",
            "--scenario",
            "cnp-storm",
            "--cycles",
            "500",
        ];
        a.extend_from_slice(extra);
        a.extend_from_slice(&["--out", out]);
        dcqcn(&a, &d)
    };
    let o = gen("src", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--out src: not empty and not a golden set"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("src/vectors.txt").exists());
    let o = gen("src", &["--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(d.join("src/vectors.txt").exists());
    // A set is regenerated in place; --canonical wants a folder of sets only.
    let o = gen("set", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = gen("src/main.rs", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a folder"), "{}", stderr(&o));
    std::fs::write(d.join("notes.txt"), "mine\n").unwrap();
    refused(
        &["golden", "gen", "--canonical", "--out", "."],
        &d,
        &["--out .: not empty and not a folder of golden sets"],
    );
    let _ = std::fs::remove_dir_all(d);
}

/// Kind 1: numbers whose exact value overflows are errors naming file, line and field.
#[test]
fn huge_numbers_never_wrap() {
    let d = tmp("wrap");
    for (text, culprit) in [
        (
            "[registers]\nrai = \"340282366920938463463374607431GB/s\"\n",
            "c.toml:2: `rai`",
        ),
        (
            "[registers]\n\ng = \"99999999999999999999/0.0000000001\"\n",
            "c.toml:3: `g`",
        ),
        (
            "[registers]\ncredit_cap = \"17179869184GiB\"\n",
            "c.toml:2: `credit_cap`",
        ),
        (
            "[registers]\ninc_interval = \".000000000000000000000000000001ns\"\n",
            "c.toml:2: `inc_interval`",
        ),
    ] {
        std::fs::write(d.join("c.toml"), text).unwrap();
        refused(
            &["sim", "--config", "c.toml", "--cycles", "10"],
            &d,
            &[culprit],
        );
    }
    for (text, culprit) in [
        (
            "duration = \"18446744.073709551s\"\n",
            "n.toml:1: `duration`",
        ),
        (
            "[link]\nrate = \"2305843009213693952B/s\"\n",
            "n.toml:2: `link.rate`",
        ),
        (
            "[link]\nrate = 2300000000000000000\n",
            "n.toml:2: `link.rate`",
        ),
        (
            "[link]\ndelay = \"18446744073709551ms\"\n",
            "n.toml:2: `link.delay`",
        ),
    ] {
        std::fs::write(d.join("n.toml"), text).unwrap();
        refused(
            &[
                "net", "fig12", "--quiet", "--config", "n.toml", "--out", "o",
            ],
            &d,
            &[culprit],
        );
    }
    assert!(!d.join("o").exists());
    let _ = std::fs::remove_dir_all(d);
}

/// Kind 2: every count, size and period of a file has a bound, checked before any work.
#[test]
fn counts_from_files_are_bounded_before_any_work() {
    let d = tmp("bounds");
    let t = std::time::Instant::now();
    let c = write_case(&d, "long.json", |v| {
        v["cycles"] = 1_000_000_000_000_000u64.into()
    });
    refused(
        &["fuzz", "--replay", &c],
        &d,
        &["long.json", "`cycles`", "1..=100000000"],
    );
    let c = write_case(&d, "window.json", |v| {
        v["case"]["stimulus"]["cnp"] = serde_json::json!({"Switch": {
            "window_cycles": 4294967295u32, "threshold_bytes": 1,
            "cooldown_cycles": 0, "pulse_cycles": 1}});
    });
    refused(
        &["fuzz", "--replay", &c],
        &d,
        &[
            "window.json",
            "`case.stimulus.cnp.window_cycles`",
            "1..=1048576",
        ],
    );
    refused(
        &["golden", "gen", "--case", &c, "--out", "g"],
        &d,
        &["`case.stimulus.cnp.window_cycles`"],
    );
    let c = write_case(&d, "values.json", |v| {
        v["case"]["stimulus"]["axil"]["periodic"] =
            serde_json::json!([{"period": 1, "addr": 0, "values": []}]);
    });
    refused(
        &["fuzz", "--replay", &c],
        &d,
        &["`case.stimulus.axil.periodic[0].values`"],
    );
    refused(
        &["fuzz", "--replay", "/dev/zero"],
        &d,
        &["/dev/zero: not a regular file"],
    );

    golden_set(&d, "set", "1000");
    let m = std::fs::read_to_string(d.join("set/manifest.txt")).unwrap();
    let src = m.lines().find(|l| l.starts_with("source ")).unwrap();
    let line = m.lines().position(|l| l == src).unwrap() + 1;
    for (cycles, why) in [
        (
            "1000000000000000",
            "bad cycles `1000000000000000` (1 to 16777216, the most `golden verify` runs)",
        ),
        ("2000", "the source runs 2000 cycles but"),
    ] {
        let s = src.replace("cycles 1000 ", &format!("cycles {cycles} "));
        std::fs::write(d.join("set/manifest.txt"), m.replace(src, &s)).unwrap();
        let want = format!("manifest.txt:{line}:");
        refused(&["golden", "verify", "set"], &d, &[&want, why]);
    }
    for (text, culprit) in [
        ("sample = \"1ns\"\n", "n.toml:1: `sample`"),
        ("[switch]\nbuffer = \"2GiB\"\n", "n.toml:2: `switch.buffer`"),
        (
            "[sender]\ncnp_pulse_cycles = 4294967295\n",
            "n.toml:2: `sender.cnp_pulse_cycles`",
        ),
    ] {
        std::fs::write(d.join("n.toml"), text).unwrap();
        refused(
            &[
                "net", "fig12", "--quiet", "--config", "n.toml", "--out", "o",
            ],
            &d,
            &[culprit],
        );
    }
    refused(
        &["sim", "--config", "/dev/zero"],
        &d,
        &["/dev/zero: not a regular file"],
    );
    refused(
        &["net", "fig12", "--config", "/dev/zero"],
        &d,
        &["/dev/zero: not a regular file"],
    );
    assert!(
        t.elapsed().as_secs() < 60,
        "bounded checks took {:?}",
        t.elapsed()
    );
    let _ = std::fs::remove_dir_all(d);
}

/// Kind 5: a flag or field that would be ignored or overridden is an error.
#[test]
fn ignored_flags_and_fields_are_errors() {
    let d = tmp("ignored");
    refused(
        &["cosim", "--vcd-window", "0:100"],
        &d,
        &["--vcd-window", "--vcd"],
    );
    refused(
        &[
            "cosim",
            "--scenario",
            "cnp-storm",
            "--cycles",
            "1000",
            "--vcd",
            "w.vcd",
            "--vcd-window",
            "2000:3000",
        ],
        &d,
        &["--vcd-window 2000:3000", "end of the run (1000 cycles)"],
    );
    refused(&["sim", "--init-seed", "7"], &d, &["--init-seed"]);
    let c = write_case(&d, "c.json", |_| {});
    for extra in [
        &["--variant", "w8"][..],
        &["--hdl", "vhdl"],
        &["--cycles", "5"],
        &["--seed", "3"],
    ] {
        let mut a = vec!["fuzz", "--replay", &c];
        a.extend_from_slice(extra);
        refused(&a, &d, &["--replay", extra[0]]);
    }
    std::fs::write(
        d.join("g.toml"),
        "[registers]\nalpha_g = 1020\ng = \"1/256\"\n",
    )
    .unwrap();
    refused(
        &["sim", "--config", "g.toml"],
        &d,
        &["g.toml:3: `g`: given together with `alpha_g` (line 2)"],
    );
    for (field, value) in [("alpha_g", 1024u32), ("dec_gain", 16)] {
        let c = write_case(&d, "f.json", |v| {
            v["case"]["stimulus"]["config"][field] = value.into()
        });
        let want = format!("`case.stimulus.config.{field}`: {value} does not fit");
        refused(&["fuzz", "--replay", &c], &d, &["f.json", &want]);
    }
    std::fs::write(
        d.join("n.toml"),
        "[[flow]]\nstart = \"0.05s\"\nstop = \"0.01s\"\n[[flow]]\n[[flow]]\n",
    )
    .unwrap();
    refused(
        &["net", "fig12", "--quiet", "--config", "n.toml"],
        &d,
        &["n.toml:3: `flow[0].stop`", "after the flow's start"],
    );
    let _ = std::fs::remove_dir_all(d);
}

/// Kind 6: messages blame the right field and never echo a huge value whole.
#[test]
fn messages_name_the_real_culprit_briefly() {
    let d = tmp("messages");
    std::fs::write(d.join("n.toml"), "duration = \"0s\"\n").unwrap();
    let e = refused(
        &["net", "fig12", "--quiet", "--config", "n.toml"],
        &d,
        &["n.toml:1: `duration`"],
    );
    assert!(!e.contains("sample"), "{e}");
    std::fs::write(d.join("n.toml"), "[frame]\npayload_bytes = 0\n").unwrap();
    let e = refused(
        &["net", "fig12", "--quiet", "--config", "n.toml"],
        &d,
        &["n.toml:2: `frame.payload_bytes`: 0"],
    );
    assert!(!e.contains("16 bytes"), "{e}");
    let c = write_case(&d, "w16.json", |v| v["case"]["data_bytes"] = 16.into());
    refused(
        &["fuzz", "--replay", &c],
        &d,
        &["w16.json", "`case.data_bytes`", "16-byte beats"],
    );
    let c = write_case(&d, "v.json", |v| v["variant"] = "w7".into());
    refused(
        &["fuzz", "--replay", &c],
        &d,
        &["v.json", "`variant`", "`w7`"],
    );
    let huge = "9".repeat(900_000);
    std::fs::write(d.join("r.toml"), format!("[registers]\nrai = \"{huge}\"\n")).unwrap();
    let e = refused(
        &["sim", "--config", "r.toml"],
        &d,
        &["r.toml:2: `rai`", "bytes in all"],
    );
    assert!(e.len() < 1_000, "{} bytes of message", e.len());
    let e = refused(
        &["cosim", "--scenario", &huge[..100_000]],
        &d,
        &["unknown scenario"],
    );
    assert!(e.len() < 1_000, "{} bytes of message", e.len());
    let e = refused(&["cosim", "--cycles", &huge[..100_000]], &d, &["--cycles"]);
    assert!(e.len() < 1_000, "{} bytes of message", e.len());
    let _ = std::fs::remove_dir_all(d);
}

/// Kind 7: the format's limits (docs/golden-format.md) are the Rust reader's too.
#[test]
fn golden_format_limits_are_enforced() {
    let d = tmp("limits");
    golden_set(&d, "set", "1000");
    let v = std::fs::read_to_string(d.join("set/vectors.txt")).unwrap();
    let body_end = v[..v.len() - 1].rfind('\n').unwrap() + 1;
    let body = &v[..body_end];
    let cycles = v[body_end..].split(' ').nth(1).unwrap();
    // A comment line of 2049 characters (resealed: only the length is wrong).
    let long = body.replacen('\n', &format!("\n#{}\n", "x".repeat(2048)), 1);
    replace_vectors(&d.join("set"), &reseal(&long, cycles));
    refused(
        &["golden", "verify", "set"],
        &d,
        &["vectors.txt:2:", "limit of 2048 characters"],
    );
    replace_vectors(&d.join("set"), &reseal(body, "2147483648"));
    refused(
        &["golden", "verify", "set"],
        &d,
        &[
            "vectors.txt:",
            "2147483648 cycles: a set holds 1 to 2147483647",
        ],
    );
    // Records beyond the end line's count: stopped at the count, not decoded to the end.
    let last = body
        .lines()
        .rev()
        .find(|l| l.starts_with("c ") || l.starts_with("r "))
        .unwrap();
    let slot = if last.starts_with("c ") {
        last.split(' ').nth(1).unwrap()
    } else {
        last.split(' ').nth(3).unwrap()
    };
    let more = format!("{body}{}", format!("c {slot} 2147483647\n").repeat(1000));
    replace_vectors(&d.join("set"), &reseal(&more, cycles));
    let t = std::time::Instant::now();
    refused(
        &["golden", "verify", "set"],
        &d,
        &["vectors.txt:", "more than the 1000 cycles"],
    );
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
    // A manifest line over the limit.
    let m = std::fs::read_to_string(d.join("set/manifest.txt")).unwrap();
    std::fs::write(
        d.join("set/manifest.txt"),
        format!("{m}description {}\n", "y".repeat(2100)),
    )
    .unwrap();
    refused(
        &["golden", "verify", "set"],
        &d,
        &["manifest.txt:", "limit of 2048 characters"],
    );
    let _ = std::fs::remove_dir_all(d);
}
