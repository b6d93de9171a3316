//! Tests of the multi-QP block's sets ([`super::mq`]): the port list against docs/golden-format.md
//! and spec-mq 3, the encoding against the model cycle by cycle, byte-identical generation, the
//! events the canonical sets reach, and `verify` on fresh, stale and damaged sets.

use super::format::{crc32, fields, Decoder, FORMAT};
use super::manifest::{FileEntry, Manifest};
use super::mq::*;
use super::verify::verify_set;
use super::GoldenError;
use crate::mq::MqBench;
use dcqcn_model::mq::{MqBlock, MqOutputs};
use std::path::{Path, PathBuf};

/// The smallest canonical set (6,000 cycles, both run records, CNP storm on QP 1).
fn small() -> MqSetDef {
    mq_canonical_set("mq-cnp-storm-q4").expect("a canonical set")
}

/// A short set from a scenario (its source records the length, so `verify` can re-run it):
/// window writes and reads, `qp_clear`, DECERR.
fn short() -> MqSetDef {
    MqSetDef::from_scenario("mq-sw-writes", 4, 2_500, 1).expect("a scenario")
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dcqcn-golden-mq-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn write(dir: &Path, g: &MqGeneratedSet) {
    std::fs::create_dir_all(dir).expect("creates");
    for (name, bytes) in &g.files {
        std::fs::write(dir.join(name), bytes).expect("writes");
    }
}

fn text(g: &MqGeneratedSet, name: &str) -> String {
    let f = g.files.iter().find(|(n, _)| *n == name).expect("a file");
    String::from_utf8(f.1.clone()).expect("text")
}

#[test]
fn port_list_matches_the_format_document_and_the_rtl_top() {
    let f = mq_fields(4);
    assert_eq!(f.len(), 30);
    assert_eq!(mq_fields(4096), f, "the same ports at every QPS");
    let ins = f.iter().filter(|g| g.dir == super::Dir::In).count();
    assert_eq!(ins, 19);
    assert!(f[ins..].iter().all(|g| g.dir == super::Dir::Out));
    // docs/golden-format.md lists the same names and widths in the same order (its mq table)
    let doc = include_str!("../../../../docs/golden-format.md");
    let mut pos = doc.find("## The multi-QP block").expect("the mq section");
    for g in &f {
        let needle = format!("{} {}", g.name, g.width);
        let p = doc[pos..]
            .find(&needle)
            .unwrap_or_else(|| panic!("`{needle}` not in the mq section after byte {pos}"));
        pos += p + needle.len();
    }
    // rtl/mq/dcqcn_mq.sv declares each port with this width and direction
    let sv = include_str!("../../../../rtl/mq/dcqcn_mq.sv");
    for g in &f {
        let dir = if g.dir == super::Dir::In {
            "input"
        } else {
            "output"
        };
        let decl = sv
            .lines()
            .find(|l| {
                l.trim_end().ends_with(&format!(" {},", g.name))
                    || l.trim_end().ends_with(&format!(" {}", g.name))
            })
            .unwrap_or_else(|| panic!("port {} not in dcqcn_mq.sv", g.name));
        assert!(decl.contains(dir), "{}: {decl}", g.name);
        let width = match decl.find('[') {
            Some(p) => {
                let hi: u32 = decl[p + 1..decl.find(':').expect("a range")]
                    .trim()
                    .parse()
                    .expect("a number");
                hi + 1
            }
            None => 1,
        };
        assert_eq!(width, g.width, "{}: {decl}", g.name);
    }
}

/// Decoding the encoded file gives back the ports of every cycle of the model's run.
#[test]
fn round_trip_is_exact() {
    let def = small();
    let g = generate_mq(&def).expect("generates");
    let v = text(&g, "vectors.txt");
    assert!(
        v.starts_with("dcqcn-golden-mq 1\n# set mq-cnp-storm-q4: "),
        "{}",
        &v[..80]
    );
    assert!(v.contains("\nqps 4\nfields 30\nf 0 in 1 rst\n"));
    let mut d = mq_decoder("t", &v).expect("valid");
    assert_eq!(d.data_bytes, 4);
    let mut model = MqBlock::new(def.params);
    let mut bench = MqBench::new(&def.stimulus, 4, def.seed);
    let mut out = MqOutputs::default();
    for k in 0..def.cycles {
        let i = bench.next(&out);
        out = model.step(&i);
        let got = d.next_cycle().expect("valid").expect("a cycle");
        assert_eq!(got, &mq_cycle_values(&i, &out)[..], "cycle {k}");
    }
    assert!(d.next_cycle().expect("valid").is_none());
    assert!(
        v.contains("\nc ") && v.contains("\nr "),
        "both run records used"
    );
}

#[test]
fn generation_is_byte_identical_and_the_manifest_reads_back() {
    let def = small();
    let a = generate_mq(&def).expect("generates");
    let b = generate_mq(&def).expect("generates");
    assert_eq!(a.files, b.files);
    let m = Manifest::parse("m", &text(&a, "manifest.txt")).expect("parses");
    assert_eq!(m.get("format"), Some(FORMAT));
    assert_eq!(m.get("block"), Some(BLOCK));
    assert_eq!(m.get("qps"), Some("4"));
    assert_eq!(m.get("clk_hz"), Some("156250000"));
    assert_eq!(m.get("line_rate_bytes_per_s"), Some("1250000000"));
    assert_eq!(m.get("source"), Some("canonical mq-cnp-storm-q4"));
    assert_eq!(m.get("events"), Some(a.events.render().as_str()));
    let names: Vec<&str> = m.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["vectors.txt", "config.txt"]);
    let back = mq_source_of("m", &m).expect("a source");
    assert_eq!(back.name, "mq-cnp-storm-q4");
    // the setup writes, 21-bit addresses as 6 hex digits
    let config = text(&a, "config.txt");
    assert!(config.contains("\nw 000"), "{config}");
    assert!(config
        .lines()
        .skip(1)
        .all(|l| l.len() > 20 && l.as_bytes()[8] == b' '));
}

/// The canonical sets together reach every event the issue asks for, each set at least its
/// grants, and stay small enough for Icarus and GHDL (a few thousand to 20,000 cycles).
#[test]
fn canonical_sets_cover_grants_cnps_windows_clears_and_decerr() {
    let all = mq_canonical();
    assert!(all.iter().any(|d| d.params.qps() == 64));
    let mut total = MqEvents::default();
    for d in &all {
        assert!((2_000..=20_000).contains(&d.cycles), "{}", d.name);
        let g = generate_mq(d).expect("generates");
        let e = g.events;
        assert!(e.grants > 40 && e.resets >= 2, "{}: {e:?}", d.name);
        total.grants += e.grants;
        total.cnps += e.cnps;
        total.decreases += e.decreases;
        total.increases += e.increases;
        total.window_writes += e.window_writes;
        total.window_reads += e.window_reads;
        total.qp_clears += e.qp_clears;
        total.decerr += e.decerr;
        total.resets += e.resets;
    }
    let t = total;
    assert!(
        t.cnps > 0
            && t.decreases > 0
            && t.increases > 0
            && t.window_writes > 0
            && t.window_reads > 0
            && t.qp_clears > 0
            && t.decerr > 0
            && t.resets > 2 * all.len() as u64,
        "{t:?}"
    );
}

#[test]
fn readers_refuse_the_other_blocks_vectors_and_bad_qps() {
    let g = generate_mq(&short()).expect("generates");
    let v = text(&g, "vectors.txt");
    let e = Decoder::new("v", &v)
        .err()
        .expect("not single-flow vectors")
        .to_string();
    assert!(
        e.starts_with("v:1: `dcqcn-golden-mq 1` is not `dcqcn-golden 1`"),
        "{e}"
    );
    let rl = "dcqcn-golden 1\ndata_bytes 8\n";
    let rl = format!("{rl}end 1 {:08x}\n", crc32(0, rl.as_bytes()));
    let e = mq_decoder("v", &rl)
        .err()
        .expect("not mq vectors")
        .to_string();
    assert!(
        e.starts_with("v:1: `dcqcn-golden 1` is not `dcqcn-golden-mq 1`"),
        "{e}"
    );
    // line 2 names a QPS out of range (spec-mq 2), and a beat width instead of a QPS
    let body_end = v.rfind("end ").expect("an end line");
    for (from, to, want) in [
        ("\nqps 4\n", "\nqps 0\n", "v:4: bad qps `0`"),
        ("\nqps 4\n", "\nqps 4097\n", "v:4: bad qps `4097`"),
        ("\nqps 4\n", "\ndata_bytes 8\n", "v:4: expected `qps <n>`"),
        (
            "f 20 out 12 m_grant_qp",
            "f 20 out 16 m_grant_qp",
            "v:26: `f 20 out 16 m_grant_qp`: expected `f 20 out 12 m_grant_qp`",
        ),
    ] {
        let body = v[..body_end].replacen(from, to, 1);
        let bad = format!("{body}end {} {:08x}\n", g.cycles, crc32(0, body.as_bytes()));
        let e = mq_decoder("v", &bad).err().expect("refused").to_string();
        assert!(e.starts_with(want), "{want}: {e}");
    }
    assert_eq!(fields(8).len(), 72, "the single-flow list is untouched");
}

#[test]
fn verify_passes_fresh_sets_and_names_stale_cycle_and_port() {
    let def = short();
    let g = generate_mq(&def).expect("generates");
    let dir = temp("stale");
    write(&dir, &g);
    let ok = verify_set(&dir).expect("a fresh set verifies");
    assert_eq!((ok.name.as_str(), ok.cycles), ("mq-sw-writes-q4", 2_500));

    // A stale set: one expected grant QP changed, the file resealed and the manifest updated, as
    // if generated by an older model.
    let v = text(&g, "vectors.txt");
    let (n, line) = v
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("t ") && l.contains(" 20 "))
        .expect("a template changing m_grant_qp");
    let p = line.find(" 20 ").expect("key") + 4;
    let mut l2 = line.to_string();
    let digit = if &line[p + 2..p + 3] == "0" { "1" } else { "0" };
    l2.replace_range(p + 2..p + 3, digit);
    let body: String = v
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with("end "))
        .map(|(k, l)| {
            if k == n {
                format!("{l2}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let stale = format!("{body}end {} {:08x}\n", g.cycles, crc32(0, body.as_bytes()));
    std::fs::write(dir.join("vectors.txt"), &stale).expect("writes");
    let fix = |m: String, name: &str, contents: &[u8]| -> String {
        m.lines()
            .map(|l| {
                if l.starts_with(&format!("file {name} ")) {
                    let e = FileEntry::of(name, contents);
                    format!(
                        "file {name} bytes {} crc32 {} sha256 {}\n",
                        e.bytes, e.crc32, e.sha256
                    )
                } else {
                    format!("{l}\n")
                }
            })
            .collect()
    };
    let m = fix(text(&g, "manifest.txt"), "vectors.txt", stale.as_bytes());
    std::fs::write(dir.join("manifest.txt"), &m).expect("writes");
    let e = verify_set(&dir).expect_err("stale");
    assert!(e.is_stale(), "{e}");
    let e = e.to_string();
    assert!(
        e.contains("stale vectors: cycle") && e.contains("field m_grant_qp"),
        "{e}"
    );

    // An unknown block, and a manifest whose qps disagrees with its source.
    write(&dir, &g);
    let m = text(&g, "manifest.txt");
    std::fs::write(
        dir.join("manifest.txt"),
        m.replace("block dcqcn_mq", "block dcqcn_xx"),
    )
    .expect("writes");
    let e = verify_set(&dir).expect_err("unknown block").to_string();
    assert!(
        e.contains("manifest.txt:5: unknown block `dcqcn_xx`"),
        "{e}"
    );
    std::fs::write(
        dir.join("manifest.txt"),
        m.replace("\nqps 4\n", "\nqps 8\n"),
    )
    .expect("writes");
    let e = verify_set(&dir).expect_err("qps").to_string();
    assert!(
        e.contains("manifest.txt:6: qps `8`") && e.contains("corrupt or edited"),
        "{e}"
    );

    // A corrupt file that the manifest no longer covers.
    std::fs::write(dir.join("manifest.txt"), &m).expect("writes");
    std::fs::write(dir.join("vectors.txt"), &v[..v.len() - 10]).expect("writes");
    let e = verify_set(&dir).expect_err("corrupt");
    assert!(!e.is_stale() && matches!(e, GoldenError::At { .. }), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scenario_sets_record_their_source_and_bad_sources_are_named() {
    let d = MqSetDef::from_scenario("mq-incast", 8, 1_000, 3).expect("a scenario");
    assert_eq!(d.name, "mq-incast-q8");
    let g = generate_mq(&d).expect("generates");
    let m = Manifest::parse("m", &text(&g, "manifest.txt")).expect("parses");
    assert_eq!(
        m.get("source"),
        Some("scenario mq-incast qps 8 cycles 1000 seed 3")
    );
    let back = mq_source_of("m", &m).expect("a source");
    assert_eq!((back.params.qps(), back.cycles, back.seed), (8, 1_000, 3));
    assert!(MqSetDef::from_scenario("nope", 4, 100, 1).is_err());
    assert!(MqSetDef::from_scenario("mq-incast", 5000, 100, 1).is_err());
    for (src, want) in [
        ("canonical nope", "unknown multi-QP canonical set `nope`"),
        ("scenario mq-incast qps 0 cycles 10 seed 1", "bad qps `0`"),
        ("scenario mq-incast qps 4 cycles 2 seed 1", "bad cycles `2`"),
        ("scenario mq-incast qps 4 cycles 10 seed x", "bad seed `x`"),
        ("case case.json", "unknown multi-QP source"),
    ] {
        let m = Manifest::parse("m", &format!("format {FORMAT}\nsource {src}\n")).expect("parses");
        let e = mq_source_of("m", &m).expect_err("refused").to_string();
        assert!(e.starts_with("m:2: ") && e.contains(want), "{src}: {e}");
    }
    assert!(
        generate_mq(&MqSetDef { cycles: 2, ..d }).is_err(),
        "two reset cycles first"
    );
}
