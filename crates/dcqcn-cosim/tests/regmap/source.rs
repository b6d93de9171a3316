//! The register map read from regmap/dcqcn_regs.rdl itself, line by line, against the generator's
//! JSON export and the Rust `regmap` (no RTL needed; in this test binary for the export's types).

use super::*;

/// One field as regmap/dcqcn_regs.rdl writes it: (word offset, word name, field name, lsb,
/// width, access "RW" / "RO" / "W", reset, `state`, the action bit that clears it).
type RdlField = (
    u16,
    String,
    String,
    u32,
    u32,
    String,
    u32,
    Option<String>,
    Option<String>,
);

const RDL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../regmap/dcqcn_regs.rdl");

/// `s` split at `;` outside double quotes, each part trimmed, empty parts dropped.
fn properties(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

fn number(s: &str) -> u64 {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|e| panic!("{RDL}: `{s}` is not a number: {e}"))
}

/// The register map read from the SystemRDL source itself, line by line, without the generator
/// (scripts/regmap_gen.py and systemrdl-compiler): the map is written one field per line
/// (`field { props } name[msb:lsb] = reset;`), each register closed by `} name @ offset;`, and
/// each clearing as `word.field->hwclr = word.action;`. A line of another shape inside a register
/// fails the test, so the reader cannot skip what it does not understand.
fn rdl_fields() -> Vec<RdlField> {
    let text = std::fs::read_to_string(RDL).unwrap_or_else(|e| panic!("{RDL}: {e}"));
    let mut out: Vec<RdlField> = Vec::new();
    let mut open: Option<Vec<RdlField>> = None;
    let mut clears = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = || format!("{RDL}:{}: `{line}`", n + 1);
        if line.starts_with("//") || line.is_empty() {
            continue;
        }
        if line == "reg {" {
            assert!(open.is_none(), "{}: a register inside a register", at());
            open = Some(Vec::new());
        } else if let Some(field) = line.strip_prefix("field {") {
            let fields = open
                .as_mut()
                .unwrap_or_else(|| panic!("{}: a field outside a register", at()));
            let close = field.rfind('}').unwrap_or_else(|| panic!("{}", at()));
            let (props, decl) = (&field[..close], field[close + 1..].trim());
            let mut access = "RW";
            let mut state = None;
            for p in properties(props) {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                match (k.trim(), v.trim()) {
                    ("sw", "rw") => access = "RW",
                    ("sw", "r") => access = "RO",
                    ("sw", "w") => access = "W",
                    ("sw", other) => panic!("{}: sw = {other}", at()),
                    ("state", v) => state = Some(v.trim_matches('"').to_string()),
                    _ => {}
                }
            }
            let decl = decl.strip_suffix(';').unwrap_or_else(|| panic!("{}", at()));
            let (lhs, reset) = decl
                .split_once('=')
                .unwrap_or_else(|| panic!("{}: no reset", at()));
            let (name, range) = lhs
                .trim()
                .split_once('[')
                .unwrap_or_else(|| panic!("{}", at()));
            let (msb, lsb) = range
                .strip_suffix(']')
                .and_then(|r| r.split_once(':'))
                .unwrap_or_else(|| panic!("{}", at()));
            let (msb, lsb) = (number(msb) as u32, number(lsb) as u32);
            assert!(msb >= lsb && msb < 32, "{}", at());
            fields.push((
                0,
                String::new(),
                name.trim().to_string(),
                lsb,
                msb - lsb + 1,
                access.to_string(),
                number(reset) as u32,
                state,
                None,
            ));
        } else if let Some(rest) = line.strip_prefix('}').filter(|r| r.contains('@')) {
            let fields = open
                .take()
                .unwrap_or_else(|| panic!("{}: no register open", at()));
            let (name, offset) = rest
                .trim()
                .strip_suffix(';')
                .and_then(|r| r.split_once('@'))
                .unwrap_or_else(|| panic!("{}", at()));
            for mut f in fields {
                f.0 = number(offset) as u16;
                f.1 = name.trim().to_string();
                out.push(f);
            }
        } else if let Some((lhs, rhs)) = line.split_once("->hwclr") {
            let action = rhs
                .trim()
                .trim_start_matches('=')
                .trim()
                .trim_end_matches(';');
            let (_, action) = action.split_once('.').unwrap_or_else(|| panic!("{}", at()));
            clears.push((lhs.trim().to_string(), action.to_string()));
        } else {
            assert!(
                open.is_none()
                    || ["name =", "desc =", "feature =", "write_order ="]
                        .iter()
                        .any(|p| line.starts_with(p)),
                "{}: a line the reader does not know inside a register",
                at()
            );
        }
    }
    assert!(open.is_none(), "{RDL}: a register left open");
    // The export lists words by offset and each word's fields by lsb; the source may write a
    // word's fields in any order.
    out.sort_by_key(|f| (f.0, f.3));
    for (target, action) in clears {
        let f = out
            .iter_mut()
            .find(|f| format!("{}.{}", f.1, f.2) == target)
            .unwrap_or_else(|| panic!("{RDL}: hwclr of unknown field {target}"));
        f.8 = Some(action);
    }
    out
}

/// Each register's `write_order` and `feature` read from the SystemRDL source line by line, as
/// (register name, write_order, feature) in source order.
fn rdl_word_props() -> Vec<(String, Option<u64>, Option<String>)> {
    let text = std::fs::read_to_string(RDL).unwrap_or_else(|e| panic!("{RDL}: {e}"));
    let mut out = Vec::new();
    let (mut order, mut feature) = (None, None);
    for line in text.lines().map(str::trim) {
        let value = |key: &str| {
            line.strip_prefix(key)
                .map(|v| v.trim().trim_end_matches(';').trim().to_string())
        };
        if line == "reg {" {
            (order, feature) = (None, None);
        } else if let Some(v) = value("write_order =") {
            order = Some(number(&v));
        } else if let Some(v) = value("feature =") {
            feature = Some(v.trim_matches('"').to_string());
        } else if let Some(rest) = line.strip_prefix('}').filter(|r| r.contains('@')) {
            let name = rest.split('@').next().unwrap_or_default().trim();
            out.push((name.to_string(), order.take(), feature.take()));
        }
    }
    out
}

/// The order of a configuration's writes (regmap::WRITE_ORDER, generated) against the source's
/// `write_order`s read independently; and the optional configuration registers (those of a word
/// with a `feature`) are exactly those a configuration file may leave out.
#[test]
fn write_order_and_features_equal_the_rdl_read_independently() {
    let props = rdl_word_props();
    let mut ordered: Vec<(u64, &str)> = props
        .iter()
        .filter_map(|(name, o, _)| Some(((*o)?, name.as_str())))
        .collect();
    ordered.sort();
    let want: Vec<&str> = ordered.iter().map(|(_, n)| *n).collect();
    let got: Vec<&str> = regmap::WRITE_ORDER
        .iter()
        .map(|a| regmap::lookup(*a).expect("a mapped word").1)
        .collect();
    assert_eq!(got, want);
    assert!(want.len() >= 17, "read only {} write_orders", want.len());
    // A configuration file of `{}` parses: every register of a feature word is optional; leaving
    // out any other one is an error naming it.
    let reset = dcqcn_model::Config::reset(&dcqcn_model::Params::DEFAULT);
    let json = serde_json::to_value(reset).expect("a config serializes");
    let written: Vec<&str> = json
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    for (name, _, feature) in &props {
        for f in regmap::FIELDS.iter().filter(|f| {
            regmap::lookup(f.word).expect("mapped").1 == name && f.access == Access::ReadWrite
        }) {
            assert_eq!(
                written.contains(&f.name),
                feature.is_none(),
                "{name}.{}: feature {feature:?}",
                f.name
            );
        }
    }
}

/// The export and the Rust regmap, both written by scripts/regmap_gen.py, against the SystemRDL
/// read independently of it: a generator that gets a field wrong in both fails here.
#[test]
fn export_and_rust_regmap_equal_the_rdl_read_independently() {
    let rdl = rdl_fields();
    assert!(rdl.len() >= 60, "read only {} fields from {RDL}", rdl.len());
    let m = source();
    let mut fl = Failures::default();
    let export: Vec<RdlField> = m
        .words
        .iter()
        .flat_map(|w| {
            w.fields.iter().map(move |f| {
                (
                    w.offset,
                    w.name.clone(),
                    f.name.clone(),
                    f.lsb,
                    f.width,
                    f.access.clone(),
                    f.reset,
                    f.state.clone(),
                    f.cleared_by.clone(),
                )
            })
        })
        .collect();
    let mut offsets: Vec<(u16, String)> = rdl.iter().map(|f| (f.0, f.1.clone())).collect();
    offsets.dedup();
    fl.check(export.len() == rdl.len(), || {
        format!(
            "the export has {} fields, the RDL {}",
            export.len(),
            rdl.len()
        )
    });
    for (e, r) in export.iter().zip(&rdl) {
        fl.check(e == r, || format!("export {e:?}\n   RDL {r:?}"));
    }
    let rust: Vec<(u16, &str, u32, u32, &str, u32)> = regmap::FIELDS
        .iter()
        .map(|f| {
            let access = match f.access {
                Access::ReadWrite => "RW",
                Access::ReadOnly => "RO",
                Access::WriteOnly => "W",
            };
            (f.word, f.name, f.lsb, f.width, access, f.reset)
        })
        .collect();
    let want: Vec<(u16, &str, u32, u32, &str, u32)> = rdl
        .iter()
        .map(|f| (f.0, f.2.as_str(), f.3, f.4, f.5.as_str(), f.6))
        .collect();
    fl.check(rust.len() == want.len(), || {
        format!(
            "regmap::FIELDS has {} fields, the RDL {}",
            rust.len(),
            want.len()
        )
    });
    for (o, r) in rust.iter().zip(&want) {
        fl.check(o == r, || {
            format!("regmap::FIELDS {o:?}\n            RDL {r:?}")
        });
    }
    let words: Vec<(u16, &str, bool)> = offsets
        .iter()
        .map(|(o, name)| {
            let writable = rdl.iter().any(|f| f.0 == *o && f.5 != "RO");
            (*o, name.as_str(), writable)
        })
        .collect();
    let map: Vec<(u16, &str, bool)> = regmap::MAP.to_vec();
    fl.check(map == words, || {
        format!("regmap::MAP {map:?}\n        RDL {words:?}")
    });
    fl.finish();
}

#[test]
fn rust_regmap_equals_the_source() {
    let m = source();
    let mut fl = Failures::default();
    let words: Vec<(u16, &str, bool)> = m
        .words
        .iter()
        .map(|w| (w.offset, w.name.as_str(), w.writable))
        .collect();
    let rust: Vec<(u16, &str, bool)> = regmap::MAP.to_vec();
    fl.check(rust == words, || {
        format!("regmap::MAP {rust:?}\n  source {words:?}")
    });
    let src: Vec<(u16, &str, u32, u32, u32, &str, u32)> = m
        .words
        .iter()
        .flat_map(|w| {
            w.fields.iter().map(move |f| {
                (
                    w.offset,
                    f.name.as_str(),
                    f.lsb,
                    f.width,
                    f.mask,
                    f.access.as_str(),
                    f.reset,
                )
            })
        })
        .collect();
    let ours: Vec<(u16, &str, u32, u32, u32, &str, u32)> = regmap::FIELDS
        .iter()
        .map(|f| {
            let access = match f.access {
                Access::ReadWrite => "RW",
                Access::ReadOnly => "RO",
                Access::WriteOnly => "W",
            };
            (f.word, f.name, f.lsb, f.width, f.mask(), access, f.reset)
        })
        .collect();
    fl.check(ours.len() == src.len(), || {
        format!(
            "regmap::FIELDS has {} fields, the source {}",
            ours.len(),
            src.len()
        )
    });
    for (o, s) in ours.iter().zip(&src) {
        fl.check(o == s, || {
            format!(
                "regmap::FIELDS {o:?}, source (word, name, lsb, width, mask, access, reset) {s:?}"
            )
        });
    }
    // The export's masks are its lsb/width, the word resets its fields' resets.
    for w in &m.words {
        for f in &w.fields {
            let mask = (((1u64 << f.width) - 1) << f.lsb) as u32;
            fl.check(f.mask == mask, || {
                format!(
                    "{}.{}: mask {:#x} is not [{}+:{}]",
                    w.name, f.name, f.mask, f.lsb, f.width
                )
            });
        }
        let reset = w
            .fields
            .iter()
            .filter(|f| f.access != "W")
            .fold(0, |r, f| r | f.reset << f.lsb);
        fl.check(w.reset == reset, || {
            format!(
                "{}: word reset {:#x}, fields give {reset:#x}",
                w.name, w.reset
            )
        });
    }
    // regmap::lookup decodes addr[11:2] on exactly the source's words.
    for idx in 0..1u16 << (m.decode_bits - 2) {
        let addr = idx << 2;
        let want = m
            .words
            .iter()
            .find(|w| w.offset == addr)
            .map(|w| w.name.as_str());
        for a in [addr, addr | 3] {
            let got = regmap::lookup(a).map(|r| r.1);
            fl.check(got == want, || {
                format!("regmap::lookup({a:#05x}) = {got:?}, source {want:?}")
            });
        }
    }
    fl.finish();
}

/// The source's reset values are its parameter expressions at the default parameters, which are
/// the model's defaults.
#[test]
fn source_resets_are_the_parameter_expressions_at_the_defaults() {
    let m = source();
    let d = &m.defaults;
    let p = Params::new(d.data_bytes, d.clk_freq_hz, d.line_rate).unwrap();
    assert_eq!(p, Params::DEFAULT);
    let mut n = 0;
    for w in &m.words {
        for f in &w.fields {
            assert_eq!(f.reset_at(&p), f.reset, "{}.{}", w.name, f.name);
            assert!(
                f.reset <= f.ones(),
                "{}.{}: reset does not fit",
                w.name,
                f.name
            );
            n += usize::from(f.reset_param.is_some());
        }
    }
    assert_eq!(n, 7, "parameter-dependent resets");
}
