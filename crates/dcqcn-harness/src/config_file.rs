//! Register configuration files (TOML), in human units or raw register values.
//!
//! ```toml
//! base = "paper-table2"          # optional, spec 6.3: upstream-reset (default), paper-table2,
//!                                # dcqcn-sigcomm15, nvidia-cx or ns3-hpcc
//! [registers]
//! g = "1/256"                    # or alpha_g = 1020
//! rai = "6MB/s"                  # rates: Gbps, Mbps, MB/s, B/s ... or a raw integer in bytes/s
//! inc_interval = "2ms"           # times: s, ms, us, ns or cycles at the clock ... or raw cycles
//! clamp_tgt = true
//! credit_cap = "1MiB"            # sizes: B, KB, MB, KiB, MiB ... or raw bytes
//! rmax = "40Gbps"                 # extension rate rules (spec 6.2, 0x150-0x158): rates ...
//! rate_first_cnp = "1Gbps"
//! min_dec_fac = "50%"             # Q0.10: a percent, a fraction ("0.5") or the raw value (512)
//! alpha_init = 1023
//! hai_mult = true
//! byte_threshold = "2097088B"     # NVIDIA rpg_byte_reset 32767 (64-byte units) x 64
//! scheme = "firmware-rate"        # control scheme (spec 4.9): hardware-dcqcn, firmware-rate,
//!                                 # dcqcn-observing, firmware-only, or 0-3
//! fw_rate = "2Gbps"               # the firmware's rate (0 = L); gate_mask = true blocks the stream
//! trace_en = true                 # event trace (spec 4.10): armed from the start; trace_wrap = true
//!                                 # keeps the last 64 events instead of the first
//! ```
//!
//! Values are read by the serde types of [`units`] ([`units::Rate`], [`units::Time`] ...); a
//! [`Field`] keeps a value's place in the file so that an error names file, line and field.
//! Other TOML formats embed the same `base` and `[registers]` (the network simulation's flows):
//! they deserialise [`Registers`] and call [`apply`] with the same text so that errors still name
//! the line; they read their own fields as [`Field`]s through a [`Source`].

use crate::units;
use dcqcn_model::config::FIELD_WIDTHS;
use dcqcn_model::{Config, NamedConfig, Params};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::ops::Range;
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

/// How a field's value is written by a human: the type that reads it.
#[derive(Clone, Copy)]
enum Kind {
    Rate,
    Time,
    Size,
    Flag,
    Gain,
    Q10,
    Scheme,
    Raw,
}

fn kind(field: &str) -> Option<Kind> {
    Some(match field {
        "rai" | "rhai" | "rmin" | "rmax" | "rate_first_cnp" | "fw_rate" => Kind::Rate,
        "inc_interval" | "dec_interval" | "alpha_interval" => Kind::Time,
        "byte_threshold" | "credit_cap" => Kind::Size,
        "clamp_tgt" | "bypass" | "timer_en" | "byte_en" | "hai_mult" | "gate_mask" | "trace_en"
        | "trace_wrap" => Kind::Flag,
        "scheme" => Kind::Scheme,
        "g" => Kind::Gain,
        "alpha_init" | "min_dec_fac" => Kind::Q10,
        // every other configuration register (alpha_g, dec_gain, stage_threshold, trace_sel, and
        // any register the map gains) is a plain count
        f if FIELD_WIDTHS.iter().any(|(name, _)| *name == f) => Kind::Raw,
        _ => return None,
    })
}

/// A TOML error in `text` (named `file`), with the line it points at.
pub fn syntax_error(text: &str, file: &str, e: &toml::de::Error) -> ConfigFileError {
    ConfigFileError::Syntax {
        file: file.to_string(),
        message: match e.span() {
            Some(sp) => format!(
                "line {}: {}",
                line_of(text, sp.start),
                crate::clip_message(e.message())
            ),
            None => crate::clip_message(e.message()),
        },
    }
}

/// The line (1-based) of a byte offset in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// A field of a TOML file as written, with where: it becomes a `T` (whose `Deserialize` does the
/// parsing, e.g. [`units::Size`]) when a [`Source`] reads it, so that a value that cannot be one
/// is reported with the file, the line and the field's name.
#[derive(Clone, Debug, PartialEq)]
pub struct Field<T> {
    value: Spanned<toml::Value>,
    to: PhantomData<fn() -> T>,
}

impl<T> Field<T> {
    /// Where the value is in the file's text.
    pub fn span(&self) -> Range<usize> {
        self.value.span()
    }
}

impl<'de, T> serde::Deserialize<'de> for Field<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Field {
            value: Spanned::deserialize(d)?,
            to: PhantomData,
        })
    }
}

/// A file's text and its name in messages: reads [`Field`]s and names file, line and field in
/// every error.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub text: &'a str,
    pub file: &'a str,
}

impl Source<'_> {
    /// The line of a span.
    pub fn line(&self, span: Range<usize>) -> usize {
        line_of(self.text, span.start)
    }

    /// An error in `field`, at the line of `span`.
    pub fn error(&self, span: Range<usize>, field: &str, message: String) -> ConfigFileError {
        ConfigFileError::Field {
            file: self.file.to_string(),
            line: self.line(span),
            field: field.to_string(),
            message,
        }
    }

    /// The value of `field` as a `T`.
    pub fn read<T: DeserializeOwned>(
        &self,
        v: &Field<T>,
        field: &str,
    ) -> Result<T, ConfigFileError> {
        self.read_value(&v.value, field)
    }

    /// The value of `field` as a `T`, then through `convert` (a unit conversion that needs more
    /// than the text, e.g. the clock).
    pub fn convert<T: DeserializeOwned, U, E: std::fmt::Display>(
        &self,
        v: &Field<T>,
        field: &str,
        convert: impl FnOnce(T) -> Result<U, E>,
    ) -> Result<U, ConfigFileError> {
        let t = self.read(v, field)?;
        convert(t).map_err(|e| self.error(v.span(), field, e.to_string()))
    }

    /// A raw TOML value of `field` as a `T`.
    pub fn read_value<T: DeserializeOwned>(
        &self,
        v: &Spanned<toml::Value>,
        field: &str,
    ) -> Result<T, ConfigFileError> {
        T::deserialize(v.get_ref().clone())
            .map_err(|e| self.error(v.span(), field, crate::clip_message(e.message())))
    }
}

/// A register map as it appears in a TOML table, with spans into the file's text.
pub type Registers = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

/// The named configuration (spec 6.3) called `name`, or the message that refuses it with the
/// valid names (a `base` line here, `dcqcn --base` on the command line).
pub fn named(name: &str) -> Result<NamedConfig, String> {
    NamedConfig::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = NamedConfig::ALL.iter().map(|c| c.name()).collect();
        format!(
            "unknown configuration `{}` (known: {})",
            crate::clip(name),
            known.join(", ")
        )
    })
}

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
    let src = Source { text, file };
    let mut cfg = match base {
        None => default,
        Some(b) => named(b.get_ref())
            .map_err(|message| src.error(b.span(), "base", message))?
            .config(params),
    };
    let gain = registers.keys().find(|k| k.get_ref() == "g");
    if let (Some(g), Some(a)) = (gain, registers.keys().find(|k| k.get_ref() == "alpha_g")) {
        return Err(src.error(
            g.span(),
            "g",
            format!(
                "given together with `alpha_g` (line {}): both set alpha_g, give one",
                src.line(a.span())
            ),
        ));
    }
    for (key, value) in registers {
        let name = key.get_ref().as_str();
        let k = kind(name).ok_or_else(|| {
            let mut known: Vec<&str> = FIELD_WIDTHS.iter().map(|f| f.0).collect();
            known.push("g");
            src.error(
                key.span(),
                &crate::clip(name),
                format!("unknown register field (known: {})", known.join(", ")),
            )
        })?;
        let v: u64 = match k {
            Kind::Rate => src.read_value::<units::Rate>(value, name)?.bytes_per_s,
            Kind::Time => src
                .read_value::<units::Time>(value, name)?
                .cycles(params.clk_hz())
                .map_err(|e| src.error(value.span(), name, e.to_string()))?,
            Kind::Size => src.read_value::<units::Size>(value, name)?.bytes,
            Kind::Flag => u64::from(src.read_value::<units::Flag>(value, name)?.0),
            Kind::Gain => u64::from(src.read_value::<units::Gain>(value, name)?.alpha_g),
            Kind::Q10 => src.read_value::<units::Q10>(value, name)?.0,
            Kind::Scheme => u64::from(src.read_value::<units::Scheme>(value, name)?.0),
            Kind::Raw => src.read_value::<units::Count>(value, name)?.0,
        };
        let field = if name == "g" { "alpha_g" } else { name };
        match cfg.set_field(field, v) {
            Ok(true) => {}
            Ok(false) => {
                return Err(src.error(key.span(), name, "not a configuration register".into()))
            }
            Err(width) => {
                return Err(src.error(
                    value.span(),
                    name,
                    format!(
                        "{v} does not fit the {width}-bit field (max {})",
                        (1u64 << width) - 1
                    ),
                ))
            }
        }
    }
    Ok(cfg)
}

/// The largest TOML file (register or network configuration) read, in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The text of a configuration file: a regular file (not a device or a fifo) of at most
/// [`MAX_FILE_BYTES`], read without ever holding more.
pub fn read_text(path: &Path) -> Result<String, ConfigFileError> {
    use std::io::Read;
    let file = path.display().to_string();
    let read_err = |source| ConfigFileError::Read {
        file: file.clone(),
        source,
    };
    let syntax = |message: String| ConfigFileError::Syntax {
        file: file.clone(),
        message,
    };
    if !std::fs::metadata(path).map_err(read_err)?.is_file() {
        return Err(syntax("not a regular file".into()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(read_err)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(syntax(format!(
            "larger than the limit of {MAX_FILE_BYTES} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        syntax(format!(
            "line {}: not UTF-8 text",
            line_of(
                std::str::from_utf8(&e.as_bytes()[..e.utf8_error().valid_up_to()]).unwrap_or(""),
                usize::MAX
            )
        ))
    })
}

/// Reads and parses a configuration file.
pub fn load(path: &Path, params: &Params) -> Result<Config, ConfigFileError> {
    let file = path.display().to_string();
    parse(&read_text(path)?, &file, params)
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
            e.to_string().contains(
                "unknown configuration `nope` (known: upstream-reset, paper-table2, \
                 dcqcn-sigcomm15, nvidia-cx, ns3-hpcc)"
            ),
            "{e}"
        );
        for named in NamedConfig::ALL {
            let text = format!("base = \"{}\"\n", named.name());
            assert_eq!(parse(&text, "t.toml", &P).unwrap(), named.config(&P));
        }
        let e = parse("[registers]\nclamp_tgt = \"yes\"\n", "c.toml", &P).unwrap_err();
        assert!(e.to_string().contains("expected true or false"), "{e}");
    }

    /// The control scheme (spec 4.9): by name or code, the firmware rate in units, the mask.
    #[test]
    fn control_scheme_fields() {
        let c = parse(
            "[registers]\nscheme = \"firmware-rate\"\nfw_rate = \"2Gbps\"\ngate_mask = true\n",
            "c.toml",
            &P,
        )
        .unwrap();
        assert_eq!((c.scheme, c.fw_rate, c.gate_mask), (1, 250_000_000, true));
        assert_eq!(
            c.register_writes(&P)[c.register_writes(&P).len() - 1],
            (dcqcn_model::regmap::CONTROL, 1 | 1 << 8)
        );
        for (k, name) in units::SCHEME_NAMES.iter().enumerate() {
            let c = parse(&format!("[registers]\nscheme = \"{name}\"\n"), "c.toml", &P).unwrap();
            assert_eq!(c.scheme as usize, k);
            let c = parse(&format!("[registers]\nscheme = {k}\n"), "c.toml", &P).unwrap();
            assert_eq!(c.scheme as usize, k);
        }
        let e = parse("[registers]\n\nscheme = 4\n", "c.toml", &P).unwrap_err();
        assert!(
            e.to_string().starts_with("c.toml:3: `scheme`")
                && e.to_string().contains("firmware-only"),
            "{e}"
        );
        let e = parse("[registers]\nscheme = \"software\"\n", "c.toml", &P).unwrap_err();
        assert!(e.to_string().contains("expected 0-3 or one of"), "{e}");
    }

    /// The extension rate rules in human units (spec 6.2, 0x150-0x158), NVIDIA's names mapped.
    #[test]
    fn extension_rules_in_units() {
        let c = parse(
            "[registers]\nrmax = \"8Gbps\"\nrate_first_cnp = \"1Gbps\"\nmin_dec_fac = \"50%\"\n\
             alpha_init = \"0.5\"\nhai_mult = true\nbyte_threshold = 2097088\n",
            "c.toml",
            &P,
        )
        .unwrap();
        assert_eq!(
            (
                c.rmax,
                c.rate_first_cnp,
                c.min_dec_fac,
                c.alpha_init,
                c.hai_mult
            ),
            (1_000_000_000, 125_000_000, 512, 512, true)
        );
        assert_eq!(c.byte_threshold, 32_767 * 64);
        // alpha_init is 10 bits: 1.0 (1024) does not fit; min_dec_fac is 11 bits: 100 % does.
        let e = parse("[registers]\nalpha_init = \"100%\"\n", "c.toml", &P).unwrap_err();
        assert!(
            e.to_string()
                .contains("`alpha_init`: 1024 does not fit the 10-bit field"),
            "{e}"
        );
        let c = parse("[registers]\nmin_dec_fac = \"100%\"\n", "c.toml", &P).unwrap();
        assert_eq!(c.min_dec_fac, 1024);
        let e = parse("[registers]\nmin_dec_fac = 2048\n", "c.toml", &P).unwrap_err();
        assert!(
            e.to_string().contains("does not fit the 11-bit field"),
            "{e}"
        );
    }

    #[test]
    fn g_and_alpha_g_together_are_an_error() {
        for text in [
            "[registers]\ng = \"1/256\"\nalpha_g = 1020\n",
            "[registers]\nalpha_g = 3\nrai = 5\ng = \"1/2\"\n",
        ] {
            let e = parse(text, "c.toml", &P).unwrap_err().to_string();
            assert!(
                e.contains("c.toml:") && e.contains("`g`: given together with `alpha_g` (line"),
                "{e}"
            );
        }
        assert_eq!(
            parse("[registers]\nalpha_g = 1020\n", "c.toml", &P)
                .unwrap()
                .alpha_g,
            1020
        );
    }

    #[test]
    fn huge_or_wrapping_values_name_the_field() {
        for (text, field) in [
            (
                "[registers]\nrai = \"340282366920938463463374607431GB/s\"\n",
                "`rai`",
            ),
            (
                "[registers]\ng = \"99999999999999999999/0.0000000001\"\n",
                "`g`",
            ),
            (
                "[registers]\ncredit_cap = \"99999999999999999999999GiB\"\n",
                "`credit_cap`",
            ),
            (
                "[registers]\ninc_interval = \"99999999999999999999s\"\n",
                "`inc_interval`",
            ),
        ] {
            let e = parse(text, "c.toml", &P).unwrap_err().to_string();
            assert!(e.starts_with(&format!("c.toml:2: {field}:")), "{e}");
        }
    }

    #[test]
    fn special_and_huge_files_are_refused_before_reading() {
        let e = load(Path::new("/dev/zero"), &P).unwrap_err().to_string();
        assert_eq!(e, "/dev/zero: not a regular file");
        let big = std::env::temp_dir().join(format!("dcqcn-big-{}.toml", std::process::id()));
        std::fs::write(&big, vec![b'#'; MAX_FILE_BYTES as usize + 1]).unwrap();
        let e = load(&big, &P).unwrap_err().to_string();
        let _ = std::fs::remove_file(&big);
        assert!(e.ends_with("larger than the limit of 1048576 bytes"), "{e}");
    }
}
