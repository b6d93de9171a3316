//! `dcqcn net mq-incast` and `--profile mq`: a bad NIC configuration is refused with exit 2 and
//! one line naming its key, before anything runs; a short run writes the same CSV twice.

mod common;

use common::{dcqcn, stderr, tmp};

/// Runs `dcqcn args` in a fresh folder with `toml` as `n.toml`; expects exit 2 and every one of
/// `what` in the first line of the message.
fn refused(name: &str, toml: &str, args: &[&str], what: &[&str]) {
    let dir = tmp(name);
    std::fs::write(dir.join("n.toml"), toml).unwrap();
    let o = dcqcn(args, &dir);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    let first = e.lines().next().unwrap_or("");
    assert!(first.starts_with("error: "), "{e}");
    for w in what {
        assert!(first.contains(w), "{args:?}: no `{w}` in {e}");
    }
    assert!(!e.contains("panicked"), "{e}");
}

const MQ: [&str; 5] = ["net", "mq-incast", "--config", "n.toml", "--quiet"];

#[test]
fn qps_out_of_range_and_no_nic_are_refused_naming_the_key() {
    refused(
        "mq-qps0",
        "[sender]\nqps = 0\n",
        &MQ,
        &["n.toml", "sender.qps", "1..=4096"],
    );
    refused(
        "mq-qps4097",
        "[sender]\nqps = 4097\n",
        &MQ,
        &["sender.qps", "4097"],
    );
    refused(
        "mq-nics0",
        "[topology]\nleaves = [0]\n",
        &MQ,
        &["topology.leaves"],
    );
    refused(
        "mq-nics-none",
        "[topology]\nleaves = []\n",
        &MQ,
        &["topology.leaves"],
    );
    refused(
        "mq-fig9",
        "",
        &["net", "fig9", "--profile", "mq", "--quiet"],
        &["--profile", "fig9"],
    );
    refused(
        "mq-profile",
        "",
        &["net", "fig12", "--profile", "nic", "--quiet"],
        &["--profile", "ours, surf, mq"],
    );
}

#[test]
fn a_short_mq_incast_writes_the_same_csv_twice() {
    let dir = tmp("mq-twice");
    let run = |out: &str| {
        let o = dcqcn(
            &[
                "net",
                "mq-incast",
                "--duration",
                "0.002",
                "--out",
                out,
                "--quiet",
            ],
            &dir,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read(dir.join(out).join("mq-incast/mq-incast.csv")).unwrap()
    };
    let a = run("a");
    assert_eq!(a, run("b"));
    let text = String::from_utf8(a).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.contains("nic3_qp15_gbps"), "{header}");
    // One row per 1 ms sample.
    assert_eq!(text.lines().count(), 3);
}
