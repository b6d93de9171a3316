//! The `dcqcn` command's contract: exit 0 on a match, 1 on a mismatch (with a report, JSON and
//! waveform), 2 on bad input with a message naming the culprit, and no panic.

mod common;

use common::{dcqcn, stderr, tmp};

#[test]
fn short_cosim_passes() {
    let d = tmp("pass");
    let o = dcqcn(&["cosim", "--scenario", "cnp-storm", "--cycles", "50k"], &d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("cnp-storm") && out.contains("50000"), "{out}");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn mutant_gives_exit_1_report_json_and_waveform() {
    let d = tmp("mutant");
    let o = dcqcn(
        &[
            "cosim",
            "--scenario",
            "cnp-storm",
            "--variant",
            "mut_pending_set_loses",
        ],
        &d,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("MISMATCH at cycle")
            && e.contains("dec_pending")
            && e.contains("replay: dcqcn cosim"),
        "{e}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("dcqcn-mismatch.json")).unwrap())
            .unwrap();
    assert_eq!(json["variant"], "mut_pending_set_loses");
    assert!(json["fields"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["field"] == "dec_pending"));
    let vcd = std::fs::read_to_string(d.join("dcqcn-mismatch.vcd")).unwrap();
    assert!(vcd.contains("$scope module model $end") && vcd.contains("$scope module rtl $end"));
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn bad_input_exits_2_with_a_named_culprit() {
    let d = tmp("bad");
    let o = dcqcn(&["cosim", "--scenario", "nope"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown scenario `nope` (known: paper-table2"),
        "{}",
        stderr(&o)
    );

    std::fs::write(
        d.join("bad.toml"),
        "[registers]\nrai = \"6MB/s\"\nalpha_interval = \"1ms\"\n",
    )
    .unwrap();
    let o = dcqcn(&["sim", "--config", "bad.toml", "--cycles", "10"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.toml:3: `alpha_interval`: 156250 does not fit the 16-bit field"),
        "{}",
        stderr(&o)
    );

    let o = dcqcn(&["sim", "--config", "missing.toml"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing.toml: cannot read"),
        "{}",
        stderr(&o)
    );

    let o = dcqcn(&["fuzz", "--seed", "abc"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid value 'abc' for '--seed <SEED>'"),
        "{}",
        stderr(&o)
    );

    let o = dcqcn(&["cosim", "--cycles", "lots"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`lots` is not a cycle count"),
        "{}",
        stderr(&o)
    );

    let o = dcqcn(
        &[
            "cosim",
            "--variant",
            "w64",
            "--scenario",
            "bypass",
            "--cycles",
            "10",
        ],
        &d,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("64-byte beats but the scenario uses 8-byte beats"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn sim_writes_a_deterministic_csv() {
    let d = tmp("sim");
    let run = |out: &str| {
        let o = dcqcn(
            &[
                "sim",
                "--scenario",
                "cnp-storm",
                "--cycles",
                "20k",
                "--every",
                "1000",
                "--out",
                out,
            ],
            &d,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read(d.join(out)).unwrap()
    };
    let a = run("a.csv");
    assert_eq!(a, run("b.csv"), "same seed, same bytes");
    let text = String::from_utf8(a).unwrap();
    assert!(text.starts_with(
        "cycle,time_us,event,rc_bytes_per_s,rt_bytes_per_s,alpha,credit_bytes,cnt_cnp,cnt_dec\n"
    ));
    assert!(
        text.contains(",decrease,") && text.contains(",sample,"),
        "{}",
        &text[..400.min(text.len())]
    );
    let _ = std::fs::remove_dir_all(d);
}

/// `--base NAME` replaces the scenario's configuration with a named one (spec 6.3), as a
/// configuration file naming it as its `base` does; an unknown name and `--base` with `--config`
/// are refused (exit 2) with the valid names or the conflict.
#[test]
fn sim_base_selects_a_named_configuration() {
    let d = tmp("base");
    let run = |extra: &[&str], out: &str| {
        let mut args = vec![
            "sim",
            "--scenario",
            "cnp-storm",
            "--cycles",
            "20k",
            "--every",
            "0",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        let o = dcqcn(&args, &d);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        std::fs::read_to_string(d.join(out)).unwrap()
    };
    let first_decrease = |csv: &str| -> String {
        let row = csv.lines().find(|l| l.contains(",decrease,")).unwrap();
        row.split(',').nth(3).unwrap().to_string()
    };
    // nvidia-cx: the first CNP sets Rc to 85 % of L (rate_first_cnp) instead of cutting it.
    let nvidia = run(&["--base", "nvidia-cx"], "nvidia.csv");
    assert_eq!(first_decrease(&nvidia), "1062500000");
    // The scenario's own configuration cuts with alpha = 1023/1024.
    let own = run(&[], "own.csv");
    assert_eq!(first_decrease(&own), "625610352");
    assert_ne!(run(&["--base", "ns3-hpcc"], "ns3.csv"), nvidia);
    std::fs::write(d.join("nv.toml"), "base = \"nvidia-cx\"\n").unwrap();
    assert_eq!(run(&["--config", "nv.toml"], "file.csv"), nvidia);

    let o = dcqcn(&["sim", "--base", "nope", "--cycles", "10"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "unknown configuration `nope` (known: upstream-reset, paper-table2, dcqcn-sigcomm15, nvidia-cx, ns3-hpcc)"
        ),
        "{}",
        stderr(&o)
    );
    let o = dcqcn(&["sim", "--base", "nvidia-cx", "--config", "nv.toml"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'--base <NAME>' cannot be used with '--config <CONFIG>'"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn fuzz_campaign_passes_and_a_failure_is_shrunk_saved_and_replayed() {
    let d = tmp("fuzz");
    let o = dcqcn(&["fuzz", "--cases", "16", "--cycles", "5000"], &d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("16 cases x 5000 cycles"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    let o = dcqcn(
        &[
            "fuzz",
            "--cases",
            "8",
            "--cycles",
            "5000",
            "--variant",
            "mut_gate_strict",
        ],
        &d,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("shrunk in")
            && e.contains("s_axis_tready")
            && e.contains("replay: dcqcn fuzz --replay"),
        "{e}"
    );
    assert!(
        d.join("dcqcn-fuzz-case.mismatch.json").exists()
            && d.join("dcqcn-fuzz-case.mismatch.vcd").exists()
    );
    let o = dcqcn(&["fuzz", "--replay", "dcqcn-fuzz-case.json"], &d);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the saved case fails again: {}",
        stderr(&o)
    );

    std::fs::write(
        d.join("cut.json"),
        "{\"format\": \"dcqcn-fuzz-case 1\",\n\"cycles\": 10,\n",
    )
    .unwrap();
    let o = dcqcn(&["fuzz", "--replay", "cut.json"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cut.json:3:"), "{}", stderr(&o));
    let text = std::fs::read_to_string(d.join("dcqcn-fuzz-case.json")).unwrap();
    std::fs::write(
        d.join("v9.json"),
        text.replace("dcqcn-fuzz-case 1", "dcqcn-fuzz-case 9"),
    )
    .unwrap();
    let o = dcqcn(&["fuzz", "--replay", "v9.json"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("format `dcqcn-fuzz-case 9` is not `dcqcn-fuzz-case 1`"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(d);
}

/// `golden gen` then `golden verify`: 0 for a fresh set, 1 for a stale one (the model computes
/// something else now), 2 for a corrupt one; regeneration is byte-identical.
#[test]
fn golden_gen_verify_stale_and_corrupt() {
    let d = tmp("golden");
    let gen = |out: &str| {
        dcqcn(
            &[
                "golden",
                "gen",
                "--scenario",
                "cnp-storm",
                "--cycles",
                "3000",
                "--seed",
                "4",
                "--out",
                out,
            ],
            &d,
        )
    };
    let o = gen("a");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = gen("b");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for f in ["vectors.txt", "config.txt", "manifest.txt"] {
        assert_eq!(
            std::fs::read(d.join("a").join(f)).unwrap(),
            std::fs::read(d.join("b").join(f)).unwrap(),
            "{f} differs between two runs"
        );
    }
    let o = dcqcn(&["golden", "verify", "a"], &d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    // Stale: the manifest now says seed 5, so the model's stimulus and vectors differ.
    let m = std::fs::read_to_string(d.join("a/manifest.txt")).unwrap();
    std::fs::write(
        d.join("a/manifest.txt"),
        m.replace("seed 4\n", "seed 5\n")
            .replace(" seed 4", " seed 5"),
    )
    .unwrap();
    let o = dcqcn(&["golden", "verify", "a"], &d);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("stale"), "{}", stderr(&o));

    // Corrupt: a byte of the vectors changed.
    let mut v = std::fs::read(d.join("b/vectors.txt")).unwrap();
    let n = v.len() / 2;
    v[n] = if v[n] == b'1' { b'2' } else { b'1' };
    std::fs::write(d.join("b/vectors.txt"), v).unwrap();
    let o = dcqcn(&["golden", "verify", "b"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("manifest.txt:") && stderr(&o).contains("corrupt"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn net_runs_an_experiment_and_rejects_bad_parameters() {
    let d = tmp("net");
    // fig9 with no network is the shortest experiment: table, CSV, SVG, PNG, exit 0.
    let o = dcqcn(&["net", "fig9", "--quiet", "--duration", "0.005"], &d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("| alpha at CNP 1") && out.contains("| 1 |"),
        "{out}"
    );
    for f in ["fig9.csv", "fig9.svg", "fig9.png", "fig9-table.md"] {
        assert!(d.join("out/net/fig9").join(f).is_file(), "{f} missing");
    }
    std::fs::write(d.join("bad.toml"), "seed = 1\n[switch]\nxoff = \"lots\"\n").unwrap();
    let o = dcqcn(&["net", "fig12", "--config", "bad.toml"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.toml:3: `switch.xoff`"),
        "{}",
        stderr(&o)
    );
    let o = dcqcn(&["net", "fig99"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown experiment `fig99`"));
    // The upstream block as every sender: the title says so, the first cut is upstream's.
    let o = dcqcn(
        &[
            "net",
            "fig9",
            "--quiet",
            "--duration",
            "0.005",
            "--profile",
            "surf",
            "--out",
            "s",
        ],
        &d,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("(senders: upstream SURF block)"), "{out}");
    assert!(out.contains("| 10.00 -> 5.00 |"), "{out}");
    let o = dcqcn(&["net", "fig9", "--profile", "upstream"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown profile `upstream` (known: ours, surf, mq, nscc)"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(d);
}

/// The suite on two threads prints the same rows, in the same order, as on one (only the speed
/// columns differ), and the same coverage table.
#[test]
fn cosim_suite_on_two_threads_prints_what_one_thread_prints() {
    let d = tmp("jobs");
    let rows = |jobs: &str| {
        let o = dcqcn(&["cosim", "--cycles", "20k", "--jobs", jobs], &d);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| !l.starts_with("wall:"))
            // drop the last column of scenario rows and the speed in the total line
            .map(|l| match l.rsplit_once(' ') {
                Some((head, _)) if l.split_whitespace().count() == 14 => head.to_string(),
                _ => l.split(" cycles compared").next().unwrap_or(l).to_string(),
            })
            .collect::<Vec<_>>()
    };
    let one = rows("1");
    assert!(
        one.len() > 12 && one[1].starts_with("paper-table2"),
        "{one:?}"
    );
    assert_eq!(one, rows("2"));
    let _ = std::fs::remove_dir_all(d);
}

/// `dcqcn sim --trace`: the window decoded, oldest first, the same bytes for the same seed; the
/// stop window holds the first 64 events, the wrap window the last 64.
#[test]
fn sim_trace_prints_the_window_decoded() {
    let d = tmp("trace");
    let args = |mode| {
        [
            "sim",
            "--scenario",
            "byte-counter",
            "--cycles",
            "400k",
            "--trace",
            mode,
        ]
    };
    let o = dcqcn(&args("stop"), &d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(
        rows[0],
        "entry,stamp_cycles,stamp_us,code,event,rc_bytes_per_s,rc_gbps"
    );
    assert_eq!(rows.len(), 65, "{out}");
    assert!(
        rows[1].contains(",decrease,"),
        "the first event is the first CNP's cut: {out}"
    );
    assert!(
        out.contains("increase/byte/fast-recovery") && out.contains("increase/timer/"),
        "{out}"
    );
    let stamps: Vec<u64> = rows[1..]
        .iter()
        .map(|r| r.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(stamps.windows(2).all(|w| w[0] < w[1]), "{stamps:?}");
    assert!(
        stderr(&o).contains("trace: 64 entries (window full: events lost)"),
        "{}",
        stderr(&o)
    );
    let again = dcqcn(&args("stop"), &d);
    assert_eq!(again.stdout, o.stdout);
    let wrap = dcqcn(&args("wrap"), &d);
    assert_eq!(wrap.status.code(), Some(0), "{}", stderr(&wrap));
    let w = String::from_utf8_lossy(&wrap.stdout).to_string();
    let first_wrap: u64 = w
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        first_wrap > *stamps.last().unwrap(),
        "the wrap window is later"
    );
    let o = dcqcn(&["sim", "--trace", "forever"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--trace"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(d);
}
