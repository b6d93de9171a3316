//! Register configuration files (TOML), in human units or raw register values.
//!
//! ```toml
//! base = "paper-table2"          # optional: upstream-reset (default) or paper-table2
//! [registers]
//! g = "1/256"                    # or alpha_g = 1020
//! rai = "6MB/s"                  # rates: Gbps, Mbps, MB/s, B/s ... or a raw integer in bytes/s
//! inc_interval = "2ms"           # times: s, ms, us, ns or cycles at the clock ... or raw cycles
//! clamp_tgt = true
//! credit_cap = "1MiB"            # sizes: B, KB, MB, KiB, MiB ... or raw bytes
//! ```
//!
//! Other TOML formats embed the same `base` and `[registers]` (the network simulation's flows):
//! they deserialise [`Registers`] and call [`apply`] with the same text so that errors still name
//! the line.

use crate::units;
use dcqcn_model::config::FIELD_WIDTHS;
use dcqcn_model::{Config, NamedConfig, Params};
use std::collections::BTreeMap;
use std::path::Path;
use thiserror::Error;
use toml::Spanned;

/// A configuration file that cannot be used, with where and why.
#[derive(Debug, Error)]
pub enum ConfigFileError {
    #[error("{file}: cannot read: {source}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: {message}")]
    Syntax { file: String, message: String },
    /// A field with a bad value; `line` 0: the value did not come from a file line (a default,
    /// the command line).
    #[error("{file}:{line}: `{field}`: {message}")]
    Field {
        file: String,
        line: usize,
        field: String,
        message: String,
    },
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    base: Option<Spanned<String>>,
    #[serde(default)]
    registers: Registers,
}

/// How a field's value is written by a human.
#[derive(Clone, Copy)]
enum Kind {
    Rate,
    Time,
    Size,
    Flag,
    Raw,
}

fn kind(field: &str) -> Option<Kind> {
    Some(match field {
        "rai" | "rhai" | "rmin" => Kind::Rate,
        "inc_interval" | "dec_interval" | "alpha_interval" => Kind::Time,
        "byte_threshold" | "credit_cap" => Kind::Size,
        "clamp_tgt" | "bypass" | "timer_en" | "byte_en" => Kind::Flag,
        "alpha_g" | "dec_gain" | "stage_threshold" | "g" => Kind::Raw,
        _ => return None,
    })
}

/// A TOML error in `text` (named `file`), with the line it points at.
pub fn syntax_error(text: &str, file: &str, e: &toml::de::Error) -> ConfigFileError {
    ConfigFileError::Syntax {
        file: file.to_string(),
        message: match e.span() {
            Some(sp) => format!("line {}: {}", line_of(text, sp.start), e.message()),
            None => e.message().to_string(),
        },
    }
}

/// The line (1-based) of a byte offset in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// A register map as it appears in a TOML table, with spans into the file's text.
pub type Registers = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

/// Parses `text` (named `file` in messages) on top of the configuration it names as `base`.
pub fn parse(text: &str, file: &str, params: &Params) -> Result<Config, ConfigFileError> {
    let parsed: File = toml::from_str(text).map_err(|e| syntax_error(text, file, &e))?;
    apply(
        text,
        file,
        parsed.base.as_ref(),
        &parsed.registers,
        Config::reset(params),
        params,
    )
}

/// The configuration named by `base` (`default` without one) with `registers` applied. `text`
/// is the file the spans point into, `file` its name in messages.
pub fn apply(
    text: &str,
    file: &str,
    base: Option<&Spanned<String>>,
    registers: &Registers,
    default: Config,
    params: &Params,
) -> Result<Config, ConfigFileError> {
    let field_err =
        |span: std::ops::Range<usize>, field: &str, message: String| ConfigFileError::Field {
            file: file.to_string(),
            line: line_of(text, span.start),
            field: field.to_string(),
            message,
        };
    let mut cfg = match base {
        None => default,
        Some(b) => NamedConfig::from_name(b.get_ref())
            .ok_or_else(|| {
                let known: Vec<&str> = NamedConfig::ALL.iter().map(|c| c.name()).collect();
                field_err(
                    b.span(),
                    "base",
                    format!(
                        "unknown configuration `{}` (known: {})",
                        b.get_ref(),
                        known.join(", ")
                    ),
                )
            })?
            .config(params),
    };
    for (key, value) in registers {
        let name = key.get_ref().as_str();
        let span = value.span();
        let k = kind(name).ok_or_else(|| {
            let mut known: Vec<&str> = FIELD_WIDTHS.iter().map(|f| f.0).collect();
            known.push("g");
            field_err(
                key.span(),
                name,
                format!("unknown register field (known: {})", known.join(", ")),
            )
        })?;
        let v: u64 = match (k, value.get_ref()) {
            (Kind::Flag, toml::Value::Boolean(b)) => u64::from(*b),
            (Kind::Flag, toml::Value::Integer(i)) if *i == 0 || *i == 1 => *i as u64,
            (Kind::Flag, other) => {
                return Err(field_err(
                    span,
                    name,
                    format!("expected true or false, found {other}"),
                ))
            }
            (_, toml::Value::Integer(i)) => {
                if name == "g" {
                    return Err(field_err(
                        span,
                        name,
                        "give g as a fraction string, e.g. \"1/256\"".into(),
                    ));
                }
                u64::try_from(*i)
                    .map_err(|_| field_err(span.clone(), name, format!("{i} is negative")))?
            }
            (k, toml::Value::String(s)) => {
                let r = match k {
                    Kind::Rate => units::rate_bytes_per_s(s),
                    Kind::Time => units::cycles(s, params.clk_hz()),
                    Kind::Size => units::bytes(s),
                    Kind::Raw if name == "g" => units::alpha_g_from_gain(s).map(u64::from),
                    Kind::Raw => s.trim().parse::<u64>().map_err(|_| units::UnitError {
                        input: s.clone(),
                        reason: "expected a plain integer".into(),
                    }),
                    Kind::Flag => unreachable!(),
                };
                r.map_err(|e| field_err(span.clone(), name, e.to_string()))?
            }
            (_, other) => {
                return Err(field_err(
                    span,
                    name,
                    format!("expected a number or a string with a unit, found {other}"),
                ))
            }
        };
        let field = if name == "g" { "alpha_g" } else { name };
        let width = FIELD_WIDTHS
            .iter()
            .find(|f| f.0 == field)
            .map(|f| f.1)
            .unwrap_or(32);
        if v >= 1u64 << width {
            return Err(field_err(
                span,
                name,
                format!(
                    "{v} does not fit the {width}-bit field (max {})",
                    (1u64 << width) - 1
                ),
            ));
        }
        match field {
            "alpha_g" => cfg.alpha_g = v as u16,
            "dec_gain" => cfg.dec_gain = v as u8,
            "stage_threshold" => cfg.stage_threshold = v as u8,
            "clamp_tgt" => cfg.clamp_tgt = v == 1,
            "rai" => cfg.rai = v as u32,
            "rhai" => cfg.rhai = v as u32,
            "rmin" => cfg.rmin = v as u32,
            "inc_interval" => cfg.inc_interval = v as u32,
            "dec_interval" => cfg.dec_interval = v as u16,
            "alpha_interval" => cfg.alpha_interval = v as u16,
            "bypass" => cfg.bypass = v == 1,
            "timer_en" => cfg.timer_en = v == 1,
            "byte_en" => cfg.byte_en = v == 1,
            "byte_threshold" => cfg.byte_threshold = v as u32,
            "credit_cap" => cfg.credit_cap = v as u32,
            _ => unreachable!("kind() and FIELD_WIDTHS list the same fields"),
        }
    }
    Ok(cfg)
}

/// Reads and parses a configuration file.
pub fn load(path: &Path, params: &Params) -> Result<Config, ConfigFileError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| ConfigFileError::Read {
        file: file.clone(),
        source,
    })?;
    parse(&text, &file, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Params = Params::DEFAULT;

    #[test]
    fn human_units_give_table2() {
        let text = r#"
[registers]
g = "1/256"
clamp_tgt = true
rai = "6MB/s"
rhai = "96Mbps"
dec_interval = "3us"
alpha_interval = "40us"
inc_interval = "2ms"
"#;
        assert_eq!(parse(text, "t.toml", &P).unwrap(), Config::paper_table2(&P));
        assert_eq!(
            parse("base = \"paper-table2\"\n", "t.toml", &P).unwrap(),
            Config::paper_table2(&P)
        );
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let e = parse(
            "[registers]\nrai = 5\nrhai = \"12 parsecs\"\n",
            "c.toml",
            &P,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "c.toml:3: `rhai`: `12 parsecs`: unknown rate unit `parsecs` (use Gbps, Mbps, MB/s, B/s ...)");
        let e = parse("[registers]\n\ndec_interval = \"1ms\"\n", "c.toml", &P).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("c.toml:3: `dec_interval`: 156250 does not fit the 16-bit field"),
            "{e}"
        );
        let e = parse("[registers]\nfoo = 1\n", "c.toml", &P).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("c.toml:2: `foo`: unknown register field"),
            "{e}"
        );
        let e = parse("[registers\n", "c.toml", &P).unwrap_err();
        assert!(e.to_string().starts_with("c.toml: line 1:"), "{e}");
        let e = parse("base = \"nope\"\n", "c.toml", &P).unwrap_err();
        assert!(
            e.to_string().contains("unknown configuration `nope`"),
            "{e}"
        );
        let e = parse("[registers]\nclamp_tgt = \"yes\"\n", "c.toml", &P).unwrap_err();
        assert!(e.to_string().contains("expected true or false"), "{e}");
    }
}
