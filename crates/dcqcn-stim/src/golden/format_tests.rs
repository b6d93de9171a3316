//! Tests of the vectors format ([`super::format`]) on sets the model generates: in a file of
//! their own, so that `format` does not import `sets`, which imports it.

use super::def::SetDef;
use super::format::*;
use super::sets::{canonical, generate};
use crate::wide::{wide_add, wide_sub};
use dcqcn_model::DATA_WORDS;

fn small() -> SetDef {
    let mut d = canonical()
        .into_iter()
        .find(|s| s.name == "cnp-storm")
        .expect("a canonical set");
    d.cycles = 3_000;
    d
}

#[test]
fn field_list_matches_the_format_document() {
    let f = fields(8);
    assert_eq!(f.len(), 72);
    assert_eq!(f[2].name, "s_axis_tdata");
    assert_eq!(f[2].width, 64);
    assert_eq!(f[16].name, "s_axis_tready");
    assert_eq!(f[29].name, "cnp_meta");
    assert_eq!((f[45].name, f[45].width), ("credit", 48));
    assert_eq!(f[71].name, "bytes_hi");
    assert_eq!(fields(64)[18].width, 512);
    // docs/golden-format.md lists the same names in the same order.
    let doc = include_str!("../../../../docs/golden-format.md");
    let mut pos = 0;
    for g in &f {
        let needle = format!(
            "{} {}",
            g.name,
            if g.name.ends_with("tdata") {
                "8W".to_string()
            } else if g.name.ends_with("tkeep") {
                "W".to_string()
            } else {
                g.width.to_string()
            }
        );
        let p = doc[pos..]
            .find(&needle)
            .unwrap_or_else(|| panic!("`{needle}` not in the document after byte {pos}"));
        pos += p + needle.len();
    }
}

#[test]
fn delta_arithmetic_wraps_at_the_width() {
    let w = 48;
    let a = scalar(5);
    let b = scalar(9);
    let d = wide_sub(&a, &b, w);
    assert_eq!(d[0], (1u64 << 48) - 4);
    assert_eq!(wide_add(&b, &d, w), a);
    let mut wide = [u64::MAX; DATA_WORDS];
    wide[7] = 0;
    let one = scalar(1);
    let s = wide_add(&wide, &one, 512);
    assert_eq!(s[..7], [0; 7]);
    assert_eq!(s[7], 1);
    assert_eq!(hex(&scalar(0x2bc), 10), "2bc");
    assert_eq!(parse_hex("2bc", 10), Ok(scalar(0x2bc)));
    assert!(
        parse_hex("fff", 10).is_err(),
        "bit 10 set in a 10-bit field"
    );
    assert!(parse_hex("0ab", 12).is_ok());
    assert!(parse_hex("ab", 12).is_err(), "too few digits");
    assert!(parse_hex("0aB", 12).is_err(), "upper case");
}

#[test]
fn crc_matches_the_zlib_check_value() {
    assert_eq!(crc32(0, b"123456789"), 0xcbf4_3926);
    assert_eq!(crc32(crc32(0, b"1234"), b"56789"), 0xcbf4_3926);
}

/// The CRC of the previous hand-written bitwise loop (reflected, polynomial 0xEDB88320), kept
/// here as the reference that the library's values are held to.
fn crc32_bitwise(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// Continuing from a previous value gives the CRC of the concatenation, at every split point
/// and across the library's block sizes, as the bitwise definition does.
#[test]
fn crc_continues_like_the_bitwise_definition() {
    let data: Vec<u8> = (0..300u32).map(|k| (k * 7 + k / 5) as u8).collect();
    let whole = crc32_bitwise(0, &data);
    assert_eq!(crc32(0, &data), whole);
    for split in [0, 1, 3, 15, 16, 17, 63, 64, 65, 128, 255, 299, 300] {
        let (a, b) = data.split_at(split);
        assert_eq!(crc32(crc32(0, a), b), whole, "split at {split}");
        assert_eq!(crc32(crc32_bitwise(0, a), b), whole, "split at {split}");
    }
    assert_eq!(crc32(0, b""), 0);
    assert_eq!(crc32(0x1234_5678, b""), 0x1234_5678);
}

#[test]
fn slot_eviction_round_trips() {
    let mut enc = Encoder::new(8, &[]);
    let f = fields(8);
    let mut all = Vec::new();
    let mut v = vec![[0u64; DATA_WORDS]; f.len()];
    for k in 0..2_000u64 {
        v[9] = scalar((k * k * 2_654_435_761) & 0xFFFF_FFFF); // s_axil_wdata: 2000 patterns
        v[1] = scalar(k & 1);
        all.push(v.clone());
        enc.push(&v);
    }
    let e = enc.finish();
    assert!(e.templates_defined > SLOTS as u64);
    let mut d = Decoder::new("t", &e.text).expect("valid");
    for want in &all {
        assert_eq!(d.next_cycle().expect("valid").expect("cycle"), &want[..]);
    }
}

fn vectors(def: &SetDef) -> String {
    let g = generate(def).expect("generates");
    String::from_utf8(g.files[0].1.clone()).expect("text")
}

fn err(text: &str) -> String {
    match Decoder::new("v.txt", text).and_then(|d| d.check_count()) {
        Ok(_) => panic!("accepted a bad file"),
        Err(e) => e.to_string(),
    }
}

/// Re-seals a modified body with a correct end line (a stale, not a corrupt, file).
fn reseal(body: &str, cycles: u64) -> String {
    format!("{body}end {cycles} {:08x}\n", crc32(0, body.as_bytes()))
}

#[test]
fn bad_files_are_errors_naming_the_line() {
    let text = vectors(&small());
    let body_end = text[..text.len() - 1].rfind('\n').expect("lines") + 1;
    let body = &text[..body_end];
    let lines = text.lines().count();
    // Truncated.
    let e = err(&text[..text.len() / 2]);
    assert!(e.starts_with("v.txt:") && e.contains("truncated"), "{e}");
    // One digit flipped: the checksum names the end line.
    let pos = body.rfind("c ").expect("a c record") + 2;
    let mut b = text.clone().into_bytes();
    b[pos] = if b[pos] == b'1' { b'2' } else { b'1' };
    let e = err(std::str::from_utf8(&b).expect("ascii"));
    assert!(
        e.starts_with(&format!("v.txt:{lines}:")) && e.contains("checksum"),
        "{e}"
    );
    // Wrong version, resealed.
    let e = err(&reseal(
        &body.replacen("dcqcn-golden 1", "dcqcn-golden 2", 1),
        3_000,
    ));
    assert!(
        e.starts_with("v.txt:1:") && e.contains("format version"),
        "{e}"
    );
    // Bad hex digit, resealed: the line of the template.
    let tline = body.lines().position(|l| l.starts_with("t ")).expect("t") + 1;
    let bad = body
        .lines()
        .enumerate()
        .map(|(n, l)| {
            if n + 1 == tline {
                format!("{}g\n", &l[..l.len() - 1])
            } else {
                format!("{l}\n")
            }
        })
        .collect::<String>();
    let e = err(&reseal(&bad, 3_000));
    assert!(
        e.starts_with(&format!("v.txt:{tline}:")) && e.contains("hex"),
        "{e}"
    );
    // A wrong cycle count.
    let e = err(&reseal(body, 2_999));
    assert!(
        e.contains("the records hold more than the 2999 cycles the end line says"),
        "{e}"
    );
    let e = err(&reseal(body, 3_001));
    assert!(e.contains("3001 cycles") && e.contains("3000"), "{e}");
    // No cycles at all, or more than the format allows.
    for n in [0, 2_147_483_648] {
        let e = err(&reseal(body, n));
        assert!(
            e.contains(&format!("{n} cycles: a set holds 1 to 2147483647")),
            "{e}"
        );
    }
    // Header of another beat width.
    let e = err(&reseal(
        &body.replacen("data_bytes 8", "data_bytes 32", 1),
        3_000,
    ));
    assert!(e.contains("expected `f 2 in 256 s_axis_tdata`"), "{e}");
}
