//! The sweep's axes: `NAME=VALUES` parsed (a list, or `FROM..TO:N` with units), the names a
//! sweep may vary, and a value applied to a configuration through the parameter-file reader.

use crate::config::{self, NetConfig};
use crate::NetError;
use dcqcn_harness::clip;
use dcqcn_harness::config_file::ConfigFileError;

/// Largest axis (values).
pub const MAX_AXIS: usize = 64;

/// Longest `--x` / `--y` argument (characters): 64 values of [`MAX_VALUE_CHARS`] and a name.
pub const MAX_SPEC_CHARS: usize = 4096;

/// Longest value on an axis (characters).
pub const MAX_VALUE_CHARS: usize = 64;

/// Network fields a sweep may vary (the parameter-file names); register fields are
/// `registers.<field>`.
pub const NETWORK_FIELDS: [&str; 24] = [
    "seed",
    "duration",
    "sample",
    "frame.payload_bytes",
    "frame.stream_overhead_bytes",
    "frame.l2_overhead_bytes",
    "frame.gap_bytes",
    "link.rate",
    "link.uplink_rate",
    "link.delay",
    "switch.buffer",
    "switch.ecn",
    "switch.kmin",
    "switch.kmax",
    "switch.pmax",
    "switch.pfc",
    "switch.xoff",
    "switch.xon",
    "switch.headroom",
    "switch.pause_quanta",
    "receiver.cnp_interval",
    "receiver.cnp_latency",
    "sender.mac_fifo",
    "sender.cnp_pulse_cycles",
];

/// One axis: a parameter and its values as written in a parameter file.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The command-line flag that gave it (for messages): `--x` or `--y`.
    pub flag: String,
    pub name: String,
    pub values: Vec<String>,
}

pub(crate) fn flag_error(flag: &str, message: String) -> NetError {
    NetError::Flag {
        flag: flag.to_string(),
        message,
    }
}

/// A number followed by a unit (`200us` -> (200.0, "us")).
pub(crate) fn split_unit(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == 'e'))
        .map_or(s.len(), |(k, _)| k);
    // `e` starts a unit (none does) only after a digit-free prefix; keep exponents simple.
    let (num, unit) = s.split_at(end);
    let v: f64 = num.parse().ok()?;
    v.is_finite().then_some((v, unit.trim()))
}

/// `v` with four significant digits, trailing zeros removed.
pub(crate) fn four_digits(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    let decimals = (3 - mag).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The register fields a sweep may vary as `registers.<field>` (those of a register file).
pub fn register_fields() -> Vec<&'static str> {
    let mut known: Vec<&str> = dcqcn_model::config::FIELD_WIDTHS
        .iter()
        .map(|f| f.0)
        .collect();
    known.push("g");
    known
}

/// Parses `NAME=VALUES` of `flag`: VALUES is a comma-separated list (`5us,10us,50us`) or a range
/// `FROM..TO:N` (N values spaced evenly on a log scale; `FROM..TO:N:lin` evenly), both ends with
/// the same unit. At most [`MAX_SPEC_CHARS`] characters, no control character, at most
/// [`MAX_AXIS`] values of at most [`MAX_VALUE_CHARS`] characters each; a value quoted in a
/// message is clipped ([`dcqcn_harness::clip`]).
pub fn parse_axis(flag: &str, spec: &str) -> Result<Axis, NetError> {
    let chars = spec.chars().count();
    if chars > MAX_SPEC_CHARS {
        return Err(flag_error(
            flag,
            format!(
                "`{}`: {chars} characters, at most {MAX_SPEC_CHARS}",
                clip(spec)
            ),
        ));
    }
    if spec.chars().any(char::is_control) {
        return Err(flag_error(
            flag,
            format!(
                "`{}`: a control character (a line break?): give NAME=VALUES on one line",
                clip(&spec.escape_debug().to_string())
            ),
        ));
    }
    let (name, values) = spec.split_once('=').ok_or_else(|| {
        flag_error(
            flag,
            format!(
                "`{}`: expected NAME=VALUES (e.g. receiver.cnp_interval=5us,50us,500us)",
                clip(spec)
            ),
        )
    })?;
    let name = name.trim();
    match name.strip_prefix("registers.") {
        Some(field) => {
            let known = register_fields();
            if !known.contains(&field) {
                return Err(flag_error(
                    flag,
                    format!(
                        "unknown register field `{}` in `registers.<field>` (known: {})",
                        clip(field),
                        known.join(", ")
                    ),
                ));
            }
        }
        None if NETWORK_FIELDS.contains(&name) => {}
        None => {
            return Err(flag_error(
                flag,
                format!(
                    "unknown parameter `{}` (network fields: {}; a register field of every flow: registers.<field>, e.g. registers.inc_interval)",
                    clip(name),
                    NETWORK_FIELDS.join(", ")
                ),
            ))
        }
    }
    let values = values.trim();
    let list: Vec<String> = if let Some((from, rest)) = values.split_once("..") {
        let mut parts = rest.split(':');
        let to = parts.next().unwrap_or("");
        let n = parts.next().ok_or_else(|| {
            flag_error(
                flag,
                format!("range `{}`: expected FROM..TO:N", clip(values)),
            )
        })?;
        let linear = match parts.next() {
            None => false,
            Some("lin") => true,
            Some("log") => false,
            Some(o) => {
                return Err(flag_error(
                    flag,
                    format!(
                        "range `{}`: spacing `{}` is neither lin nor log",
                        clip(values),
                        clip(o)
                    ),
                ))
            }
        };
        let n: usize = n.trim().parse().map_err(|_| {
            flag_error(
                flag,
                format!(
                    "range `{}`: `{}` is not a number of points",
                    clip(values),
                    clip(n)
                ),
            )
        })?;
        if n == 0 || n > MAX_AXIS {
            return Err(flag_error(
                flag,
                format!(
                    "range `{}`: {n} points, must be 1..={MAX_AXIS}",
                    clip(values)
                ),
            ));
        }
        let (Some((a, ua)), Some((b, ub))) = (split_unit(from), split_unit(to)) else {
            return Err(flag_error(
                flag,
                format!(
                    "range `{}`: both ends must be numbers with the same unit",
                    clip(values)
                ),
            ));
        };
        if ua != ub {
            return Err(flag_error(
                flag,
                format!(
                    "range `{}`: the ends have different units (`{}`, `{}`)",
                    clip(values),
                    clip(ua),
                    clip(ub)
                ),
            ));
        }
        if b < a {
            return Err(flag_error(
                flag,
                format!("range `{}`: empty (TO is below FROM)", clip(values)),
            ));
        }
        if n > 1 && a == b {
            return Err(flag_error(
                flag,
                format!("range `{}`: {n} points between equal ends", clip(values)),
            ));
        }
        if !linear && a <= 0.0 {
            return Err(flag_error(
                flag,
                format!(
                    "range `{}`: a log range needs FROM above 0 (or use :lin)",
                    clip(values)
                ),
            ));
        }
        let integers = !from.contains('.') && !to.contains('.');
        (0..n)
            .map(|k| {
                let u = if n == 1 {
                    0.0
                } else {
                    k as f64 / (n - 1) as f64
                };
                let v = if linear {
                    a + (b - a) * u
                } else {
                    a * (b / a).powf(u)
                };
                let v = if k + 1 == n && n > 1 { b } else { v };
                let text = if integers && ua.is_empty() {
                    format!("{}", v.round() as i64)
                } else {
                    four_digits(v)
                };
                format!("{text}{ua}")
            })
            .collect()
    } else {
        let count = values.split(',').count();
        if count > MAX_AXIS {
            return Err(flag_error(
                flag,
                format!("{count} values, at most {MAX_AXIS}"),
            ));
        }
        values.split(',').map(|v| v.trim().to_string()).collect()
    };
    if list.is_empty() || list.iter().any(|v| v.is_empty()) {
        return Err(flag_error(
            flag,
            format!(
                "`{}`: an empty value (give VALUE,VALUE,... or FROM..TO:N)",
                clip(values)
            ),
        ));
    }
    if let Some(v) = list.iter().find(|v| v.chars().count() > MAX_VALUE_CHARS) {
        return Err(flag_error(
            flag,
            format!(
                "the value `{}`: at most {MAX_VALUE_CHARS} characters",
                clip(v)
            ),
        ));
    }
    Ok(Axis {
        flag: flag.to_string(),
        name: name.to_string(),
        values: list,
    })
}

/// `value` as a TOML value: as written if it is one (a number, a boolean, an array, a quoted
/// string), else a string (`10us`). Only a single value is read: `1\nseed = 3` is a string.
pub(crate) fn toml_value(value: &str) -> toml::Value {
    use serde::Deserialize;
    toml::Value::deserialize(toml::de::ValueDeserializer::new(value))
        .unwrap_or_else(|_| toml::Value::String(value.to_string()))
}

/// The parameter-file text that sets `name` to `value` in `cfg` (a register field in every
/// flow's table), built as a TOML document and written by the `toml` crate: the value is one
/// TOML value, it cannot add a key or a table.
pub(crate) fn file_text(
    cfg: &NetConfig,
    name: &str,
    value: &str,
) -> Result<String, toml::ser::Error> {
    let one = |key: &str, v: toml::Value| toml::Table::from_iter([(key.to_string(), v)]);
    let v = toml_value(value);
    let root = if let Some(field) = name.strip_prefix("registers.") {
        let flow = one("registers", toml::Value::Table(one(field, v)));
        one(
            "flow",
            toml::Value::Array(vec![toml::Value::Table(flow); cfg.flows.len()]),
        )
    } else if let Some((table, field)) = name.split_once('.') {
        one(table, toml::Value::Table(one(field, v)))
    } else {
        one(name, v)
    };
    toml::to_string(&root)
}

/// `cfg` with `name = value` applied through the parameter-file reader; an error names `flag`,
/// the parameter and the value (clipped), and what the reader expects.
pub fn apply(cfg: &NetConfig, axis: &Axis, value: &str) -> Result<NetConfig, NetError> {
    let refused = |message: String| {
        flag_error(
            &axis.flag,
            format!(
                "`{}` = `{}`: {}",
                clip(&axis.name),
                clip(value),
                dcqcn_harness::clip_message(&message)
            ),
        )
    };
    let mut c = cfg.clone();
    let text = file_text(cfg, &axis.name, value).map_err(|e| refused(e.to_string()))?;
    config::apply_file(&mut c, &text, &axis.flag).map_err(|e| {
        let own = axis.name.strip_prefix("registers.").unwrap_or(&axis.name);
        refused(match e {
            // A check of this parameter, or of another one it made inconsistent (named).
            NetError::File(ConfigFileError::Field { field, message, .. }) => {
                if field == own || field == axis.name {
                    message
                } else {
                    format!("`{field}`: {message}")
                }
            }
            other => other.to_string(),
        })
    })?;
    Ok(c)
}
