//! Human units to register values, with the spec's rounding (spec 6.3: round half up, exact
//! decimal arithmetic, range-checked): `10Gbps`, `6MB/s`, `2ms`, `40us`, `1MiB`, `1/256`.
//!
//! [`Rate`], [`Size`], [`Time`], [`Count`], [`Gain`] and [`Flag`] read the same values from
//! configuration files through serde (a string with a unit, or a bare integer in the base unit).

use serde::de::{self, Deserialize, Deserializer, Visitor};
use std::fmt;
use thiserror::Error;

/// A value that could not be converted.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("`{input}`: {reason}")]
pub struct UnitError {
    pub input: String,
    pub reason: String,
}

fn err(input: &str, reason: impl Into<String>) -> UnitError {
    UnitError {
        input: crate::clip(input),
        reason: reason.into(),
    }
}

/// An exact non-negative decimal: `mantissa / 10^scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decimal {
    mantissa: u128,
    scale: u32,
}

/// Splits `12.5 MB/s` into the decimal 12.5 and the unit `MB/s` (spaces and `_` allowed).
fn split(input: &str) -> Result<(Decimal, String), UnitError> {
    let s: String = input
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(end);
    if num.is_empty() || num == "." {
        return Err(err(
            input,
            "expected a number, e.g. `10Gbps`, `2ms`, `6MB/s`",
        ));
    }
    let mut parts = num.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next().unwrap_or("");
    if frac.contains('.') {
        return Err(err(input, "more than one decimal point"));
    }
    if int.len() + frac.len() > 30 {
        return Err(err(input, "too many digits"));
    }
    let digits = format!("{int}{frac}");
    let mantissa: u128 = digits.parse().map_err(|_| err(input, "not a number"))?;
    Ok((
        Decimal {
            mantissa,
            scale: frac.len() as u32,
        },
        unit.to_string(),
    ))
}

/// round_half_up(n / den) without overflow (n / den + 1 when the remainder is at least half).
fn div_round_half_up(n: u128, den: u128) -> u128 {
    let (q, r) = (n / den, n % den);
    if r >= den - r {
        q + 1
    } else {
        q
    }
}

/// round_half_up(d x num / den), every step checked: a product that does not fit is an error,
/// never a wrapped value.
fn scale(d: Decimal, num: u128, den: u128, input: &str) -> Result<u64, UnitError> {
    let range = || err(input, "value out of range");
    let den = 10u128
        .checked_pow(d.scale)
        .and_then(|p| p.checked_mul(den))
        .ok_or_else(|| err(input, "too many decimal places"))?;
    let n = d.mantissa.checked_mul(num).ok_or_else(range)?;
    u64::try_from(div_round_half_up(n, den)).map_err(|_| range())
}

/// A rate to bytes/s. Units: `bps b/s Kbps Kb/s Mbps Mb/s Gbps Gb/s` (bits, SI) and
/// `B/s KB/s MB/s GB/s` (bytes, SI); no unit means bytes/s.
pub fn rate_bytes_per_s(input: &str) -> Result<u64, UnitError> {
    let (d, unit) = split(input)?;
    let (num, den) = match unit.as_str() {
        "" | "B/s" | "Bps" => (1, 1),
        "KB/s" | "kB/s" => (1_000, 1),
        "MB/s" => (1_000_000, 1),
        "GB/s" => (1_000_000_000, 1),
        "bps" | "b/s" => (1, 8),
        "Kbps" | "kbps" | "Kb/s" | "kb/s" => (1_000, 8),
        "Mbps" | "Mb/s" => (1_000_000, 8),
        "Gbps" | "Gb/s" => (1_000_000_000, 8),
        _ => {
            return Err(err(
                input,
                format!(
                    "unknown rate unit `{}` (use Gbps, Mbps, MB/s, B/s ...)",
                    crate::clip(&unit)
                ),
            ))
        }
    };
    scale(d, num, den, input)
}

/// A time to clock cycles at `clk_hz`. Units: `s ms us ns` or `cycles`; no unit means cycles.
pub fn cycles(input: &str, clk_hz: u32) -> Result<u64, UnitError> {
    let (d, unit) = split(input)?;
    let f = u128::from(clk_hz);
    let (num, den) = match unit.as_str() {
        "" | "cycles" | "cycle" | "clk" => (1, 1),
        "s" => (f, 1),
        "ms" => (f, 1_000),
        "us" | "µs" => (f, 1_000_000),
        "ns" => (f, 1_000_000_000),
        _ => {
            return Err(err(
                input,
                format!(
                    "unknown time unit `{}` (use s, ms, us, ns or cycles)",
                    crate::clip(&unit)
                ),
            ))
        }
    };
    scale(d, num, den, input)
}

/// A size to bytes. Units: `B KB MB GB` (SI) and `KiB MiB GiB`; no unit means bytes.
pub fn bytes(input: &str) -> Result<u64, UnitError> {
    let (d, unit) = split(input)?;
    let num: u128 = match unit.as_str() {
        "" | "B" => 1,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        _ => {
            return Err(err(
                input,
                format!(
                    "unknown size unit `{}` (use B, KB, MB, KiB, MiB)",
                    crate::clip(&unit)
                ),
            ))
        }
    };
    scale(d, num, 1, input)
}

/// The gain g (`1/256` or `0.00390625`) to the register value alpha_g = 1024 - round(1024 g).
pub fn alpha_g_from_gain(input: &str) -> Result<u16, UnitError> {
    let g1024 = if let Some((a, b)) = input.split_once('/') {
        let (n, nu) = split(a)?;
        let (dn, du) = split(b)?;
        if !nu.is_empty() || !du.is_empty() || dn.mantissa == 0 {
            return Err(err(input, "expected a fraction like `1/256`"));
        }
        // round(1024 n / d) with both sides exact decimals, every product checked.
        let range = || err(input, "g must be between 0 and 1");
        let num = n
            .mantissa
            .checked_mul(1024)
            .and_then(|x| x.checked_mul(10u128.checked_pow(dn.scale)?))
            .ok_or_else(range)?;
        let den = 10u128
            .checked_pow(n.scale)
            .and_then(|p| p.checked_mul(dn.mantissa))
            .ok_or_else(range)?;
        div_round_half_up(num, den)
    } else {
        let (d, unit) = split(input)?;
        if !unit.is_empty() {
            return Err(err(input, "expected a fraction like `1/256` or `0.0039`"));
        }
        u128::from(scale(d, 1024, 1, input)?)
    };
    if g1024 > 1024 {
        return Err(err(input, "g must be between 0 and 1"));
    }
    Ok((1024 - g1024) as u16)
}

/// A Q0.10 fraction (`min_dec_fac`, `alpha_init`) from a percent (`50%`) or a fraction (`0.5`):
/// round(1024 x), half up. The caller checks the field's width.
pub fn q10_from_fraction(input: &str) -> Result<u64, UnitError> {
    let (d, unit) = split(input)?;
    match unit.as_str() {
        "%" => scale(d, 1024, 100, input),
        "" => scale(d, 1024, 1, input),
        _ => Err(err(
            input,
            "expected a percent like `50%`, a fraction like `0.5`, or a raw Q0.10 integer",
        )),
    }
}

/// How a number is written in a file: a bare integer (in the field's base unit) or a string.
enum Written {
    Int(i128),
    Text(String),
}

impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Written;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or a string with a unit")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Written, E> {
                Ok(Written::Int(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Written, E> {
                Ok(Written::Int(v.into()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Written, E> {
                Ok(Written::Text(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A bare integer of a file as a non-negative count.
fn non_negative<E: de::Error>(i: i128) -> Result<u64, E> {
    u64::try_from(i).map_err(|_| {
        if i < 0 {
            E::custom(format!("{i} is negative"))
        } else {
            E::custom(format!("{i} is out of range"))
        }
    })
}

impl Written {
    /// The integer as is, or the string through `parse`.
    fn value<E: de::Error>(
        self,
        parse: impl FnOnce(&str) -> Result<u64, UnitError>,
    ) -> Result<u64, E> {
        match self {
            Written::Int(i) => non_negative(i),
            Written::Text(s) => parse(&s).map_err(E::custom),
        }
    }
}

/// A rate as written in a file (`10Gbps`, `6MB/s`, or an integer in bytes/s), in bytes/s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub bytes_per_s: u64,
}

impl<'de> Deserialize<'de> for Rate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let bytes_per_s = Written::deserialize(d)?.value(rate_bytes_per_s)?;
        Ok(Rate { bytes_per_s })
    }
}

/// A size as written in a file (`5KB`, `1MiB`, or an integer in bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub bytes: u64,
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let bytes = Written::deserialize(d)?.value(bytes)?;
        Ok(Size { bytes })
    }
}

/// A time as written in a file: a string with a unit (`2ms`, `40us`, `100cycles`), checked when
/// read, or a bare integer in the base unit of the field (cycles in a register file). It becomes
/// a count of clock periods with [`Time::cycles`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Time {
    Bare(u64),
    Text(String),
}

impl Time {
    /// The time in cycles of a `clk_hz` clock, rounded half up; a bare integer is taken as is.
    pub fn cycles(&self, clk_hz: u32) -> Result<u64, UnitError> {
        match self {
            Time::Bare(n) => Ok(*n),
            Time::Text(s) => cycles(s, clk_hz),
        }
    }
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Written::deserialize(d)? {
            Written::Text(s) => {
                // The unit and the number are checked now; the clock comes with `cycles`.
                cycles(&s, 1).map_err(de::Error::custom)?;
                Ok(Time::Text(s))
            }
            Written::Int(i) => Ok(Time::Bare(non_negative(i)?)),
        }
    }
}

/// A register field's raw value: an integer, or a string holding a plain integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count(pub u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = Written::deserialize(d)?.value(|s| {
            s.trim().parse::<u64>().map_err(|_| UnitError {
                input: crate::clip(s),
                reason: "expected a plain integer".into(),
            })
        })?;
        Ok(Count(n))
    }
}

/// A Q0.10 fraction as written in a file: a raw integer (1024 = 1.0), or a string holding a
/// percent or a fraction ([`q10_from_fraction`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Q10(pub u64);

impl<'de> Deserialize<'de> for Q10 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Q10(Written::deserialize(d)?.value(q10_from_fraction)?))
    }
}

/// The gain g as written in a file, a fraction string (`"1/256"`, `"0.00390625"`), as the
/// register value alpha_g ([`alpha_g_from_gain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gain {
    pub alpha_g: u16,
}

impl<'de> Deserialize<'de> for Gain {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Written::deserialize(d)? {
            Written::Text(s) => Ok(Gain {
                alpha_g: alpha_g_from_gain(&s).map_err(de::Error::custom)?,
            }),
            Written::Int(_) => Err(de::Error::custom(
                "give g as a fraction string, e.g. \"1/256\"",
            )),
        }
    }
}

/// A flag as written in a register file: `true`, `false`, 1 or 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag(pub bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Flag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("true or false")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Flag, E> {
                Ok(Flag(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Flag, E> {
                match v {
                    0 | 1 => Ok(Flag(v == 1)),
                    _ => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Flag, E> {
                match v {
                    0 | 1 => Ok(Flag(v == 1)),
                    _ => Err(E::invalid_value(de::Unexpected::Unsigned(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A control scheme as written in a register file (spec 4.9): its name or its code 0-3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheme(pub u8);

/// The control schemes' names, by code (spec 4.9).
pub const SCHEME_NAMES: [&str; 4] = [
    "hardware-dcqcn",
    "firmware-rate",
    "dcqcn-observing",
    "firmware-only",
];

impl<'de> Deserialize<'de> for Scheme {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Scheme;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "0-3 or one of {}", SCHEME_NAMES.join(", "))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scheme, E> {
                match SCHEME_NAMES.iter().position(|n| *n == v) {
                    Some(k) => Ok(Scheme(k as u8)),
                    None => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scheme, E> {
                match v {
                    0..=3 => Ok(Scheme(v as u8)),
                    _ => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scheme, E> {
                match v {
                    0..=3 => Ok(Scheme(v as u8)),
                    _ => Err(E::invalid_value(de::Unexpected::Unsigned(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------------------------------------
// Command-line quantities: counts with a multiplier, a cycle window, seconds, a thread count.
// Their errors are the messages the command line prints after the option's name.

/// A count (cycles, cases, points): `50000000`, `50_000_000`, `50M`, `2k` (`k`/`K`, `M`, `G`:
/// 10^3, 10^6, 10^9), at most 2^64 - 1.
pub fn count(s: &str) -> Result<u64, String> {
    let t = s.replace('_', "");
    let (num, mul) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1_000),
        Some('M') => (&t[..t.len() - 1], 1_000_000),
        Some('G') => (&t[..t.len() - 1], 1_000_000_000),
        _ => (&t[..], 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mul))
        .ok_or_else(|| {
            format!(
                "`{}` is not a cycle count (e.g. 1000000, 1_000_000, 1M)",
                crate::clip(s)
            )
        })
}

/// A count that must do something: [`count`] above 0.
pub fn positive_count(s: &str) -> Result<u64, String> {
    match count(s)? {
        0 => Err("0 would check nothing: give at least 1".into()),
        n => Ok(n),
    }
}

/// A cycle window `FROM:TO` of two [`count`]s, TO excluded, FROM below TO.
pub fn window(s: &str) -> Result<(u64, u64), String> {
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| format!("`{}`: expected FROM:TO cycles", crate::clip(s)))?;
    let (a, b) = (count(a)?, count(b)?);
    if a >= b {
        return Err(format!("`{}`: FROM must be below TO", crate::clip(s)));
    }
    Ok((a, b))
}

/// Most seconds a time budget may give ([`seconds`]): a week.
pub const MAX_SECONDS: f64 = 604_800.0;

/// A time budget in seconds: a finite number above 0, at most [`MAX_SECONDS`].
pub fn seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= MAX_SECONDS => Ok(x),
        Ok(_) => Err(format!(
            "`{}`: must be above 0 and at most 604800 (a week); 0 would check nothing",
            crate::clip(s)
        )),
        Err(_) => Err(format!("`{}` is not a number of seconds", crate::clip(s))),
    }
}

/// Most threads a `--jobs` may ask for.
pub const MAX_JOBS: usize = 1024;

/// A thread count: 1 to [`MAX_JOBS`] (the text `net sweep`'s test names: "at least 1").
pub fn jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ 1..=MAX_JOBS) => Ok(n),
        _ => Err(format!(
            "`{}`: must be a thread count 1..={MAX_JOBS} (at least 1, at most {MAX_JOBS})",
            crate::clip(s)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_counts() {
        assert_eq!(count("50000000"), Ok(50_000_000));
        assert_eq!(count("50_000_000"), Ok(50_000_000));
        assert_eq!(count("50M"), Ok(50_000_000));
        assert_eq!(count("2k"), Ok(2_000));
        assert_eq!(count("2K"), Ok(2_000));
        assert_eq!(count("3G"), Ok(3_000_000_000));
        assert_eq!(count("0"), Ok(0));
        assert_eq!(count("18446744073709551615"), Ok(u64::MAX));
        for bad in [
            "18446744073709551616",
            "18446744073709552k",
            "1.5M",
            "lots",
            "",
            "-1",
            "2m",
        ] {
            assert_eq!(
                count(bad),
                Err(format!(
                    "`{bad}` is not a cycle count (e.g. 1000000, 1_000_000, 1M)"
                ))
            );
        }
        assert_eq!(
            positive_count("0"),
            Err("0 would check nothing: give at least 1".into())
        );
        assert!(positive_count("0k").is_err());
        assert_eq!(positive_count("1"), Ok(1));
        assert_eq!(positive_count("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn command_line_windows() {
        assert_eq!(window("240k:260k"), Ok((240_000, 260_000)));
        assert_eq!(window("0:1"), Ok((0, 1)));
        assert_eq!(window("5:5"), Err("`5:5`: FROM must be below TO".into()));
        assert_eq!(window("6:5"), Err("`6:5`: FROM must be below TO".into()));
        assert_eq!(window("5"), Err("`5`: expected FROM:TO cycles".into()));
        assert!(window("a:5")
            .unwrap_err()
            .contains("`a` is not a cycle count"));
    }

    #[test]
    fn command_line_seconds_and_jobs() {
        assert_eq!(seconds("1.5"), Ok(1.5));
        assert_eq!(seconds(" 600 "), Ok(600.0));
        assert_eq!(seconds("604800"), Ok(MAX_SECONDS));
        for out_of_range in ["0", "-1", "604800.5", "inf", "NaN"] {
            assert_eq!(
                seconds(out_of_range),
                Err(format!(
                    "`{out_of_range}`: must be above 0 and at most 604800 (a week); 0 would check nothing"
                ))
            );
        }
        assert_eq!(
            seconds("soon"),
            Err("`soon` is not a number of seconds".into())
        );
        assert_eq!(jobs("1"), Ok(1));
        assert_eq!(jobs(" 8 "), Ok(8));
        assert_eq!(jobs("1024"), Ok(1024));
        for bad in ["0", "1025", "-1", "two", ""] {
            assert_eq!(
                jobs(bad),
                Err(format!(
                    "`{bad}`: must be a thread count 1..=1024 (at least 1, at most 1024)"
                ))
            );
        }
    }

    #[test]
    fn q10_fractions() {
        // NVIDIA rpg_min_dec_fac 50 % -> 512; 1 % -> round(10.24) = 10; 100 % -> 1024.
        assert_eq!(q10_from_fraction("50%").unwrap(), 512);
        assert_eq!(q10_from_fraction("1%").unwrap(), 10);
        assert_eq!(q10_from_fraction("100%").unwrap(), 1024);
        assert_eq!(q10_from_fraction("0.5").unwrap(), 512);
        // round half up: 0.0004882812 x 1024 = 0.49999... -> 0; 3/2048 = 1.5/1024 -> 2
        assert_eq!(q10_from_fraction("0.0004882812").unwrap(), 0);
        assert_eq!(q10_from_fraction("0.00146484375").unwrap(), 2);
        assert!(q10_from_fraction("50MB").is_err());
    }

    #[test]
    fn issue_examples() {
        assert_eq!(rate_bytes_per_s("10Gbps").unwrap(), 1_250_000_000);
        assert_eq!(rate_bytes_per_s("6MB/s").unwrap(), 6_000_000);
        assert_eq!(rate_bytes_per_s("48Mbps").unwrap(), 6_000_000);
        assert_eq!(cycles("2ms", 156_250_000).unwrap(), 312_500);
        assert_eq!(cycles("40us", 156_250_000).unwrap(), 6_250);
        assert_eq!(cycles("3us", 156_250_000).unwrap(), 469);
        assert_eq!(cycles("1.5ms", 156_250_000).unwrap(), 234_375);
        assert_eq!(bytes("1MiB").unwrap(), 1 << 20);
        assert_eq!(alpha_g_from_gain("1/256").unwrap(), 1020);
        assert_eq!(alpha_g_from_gain("0.00390625").unwrap(), 1020);
        assert_eq!(alpha_g_from_gain("1").unwrap(), 0);
    }

    #[test]
    fn rounds_half_up() {
        // 1 bit/s = 0.125 B/s -> 0; 4 bit/s = 0.5 B/s -> 1.
        assert_eq!(rate_bytes_per_s("1bps").unwrap(), 0);
        assert_eq!(rate_bytes_per_s("4bps").unwrap(), 1);
        // 3.2 ns at 156.25 MHz = 0.5 cycle -> 1.
        assert_eq!(cycles("3.2ns", 156_250_000).unwrap(), 1);
    }

    #[test]
    fn bad_input_names_the_problem() {
        let e = rate_bytes_per_s("10 furlongs").unwrap_err();
        assert!(
            e.to_string().contains("unknown rate unit `furlongs`"),
            "{e}"
        );
        assert!(cycles("ms", 1_000_000).is_err());
        assert!(cycles("1.2.3ms", 1_000_000).is_err());
        assert!(alpha_g_from_gain("2").is_err());
        assert!(rate_bytes_per_s("99999999999999999999999999999Gbps").is_err());
    }

    #[test]
    fn huge_values_are_errors_never_wrapped() {
        // Each of these once wrapped an intermediate u128 (rai = 0, alpha_g = 0 ...).
        // Once 0: the rounding's `n + den / 2` wrapped; the exact value is 425,352,958.65 B/s.
        assert_eq!(
            rate_bytes_per_s("3.40282366920938463463374607431Gbps").unwrap(),
            425_352_959
        );
        for v in [
            "340282366920938463463374607431GB/s",
            "99999999999999999999999999999.9Mbps",
            "18446744073709551616",
            "18446744073709551616B/s",
        ] {
            let e = rate_bytes_per_s(v).expect_err(v);
            assert!(e.to_string().contains("out of range"), "{v}: {e}");
        }
        // 10^30 x 10^9 (the scale of `ns`) once wrapped the divisor.
        for v in [
            ".000000000000000000000000000001ns",
            "9999999999999999999999999999s",
        ] {
            let e = cycles(v, 156_250_000).expect_err(v);
            assert!(e.to_string().contains(v), "{e}");
        }
        for v in [
            "999999999999999999999999999999/1",
            "0.99999999999999999999999999/0.00000000000000000000000001",
            "1/0.0000000000000000000000000001",
            "0.0000000000000000000000000001/0.000000000000000000000000001",
        ] {
            match alpha_g_from_gain(v) {
                Err(e) => assert!(e.to_string().contains("g must be between 0 and 1"), "{e}"),
                // The last one is an exact 0.1: 1024 - round(102.4).
                Ok(a) => assert_eq!((v, a), (v, 922)),
            }
        }
        assert!(alpha_g_from_gain("1/0.0000000000000000000000000001").is_err());
        // Exact results at the edges of u64 are kept.
        assert_eq!(rate_bytes_per_s("18446744073709551615").unwrap(), u64::MAX);
        assert_eq!(rate_bytes_per_s("0.5").unwrap(), 1);
        assert_eq!(
            rate_bytes_per_s("0.49999999999999999999999999999").unwrap(),
            0
        );
    }

    #[test]
    fn long_values_are_clipped_in_messages() {
        let v = format!("{}x", "1".repeat(1_000_000));
        let e = rate_bytes_per_s(&v).unwrap_err().to_string();
        assert!(e.len() < 200 && e.contains("1000001 bytes in all"), "{e}");
    }

    #[test]
    fn serde_types_read_units_and_name_the_problem() {
        fn read<T: serde::de::DeserializeOwned>(v: &str) -> Result<T, String> {
            let value: toml::Value = toml::from_str::<toml::Table>(&format!("v = {v}"))
                .unwrap()
                .remove("v")
                .unwrap();
            T::deserialize(value).map_err(|e| e.message().to_string())
        }
        assert_eq!(
            read::<Rate>("\"10Gbps\"").unwrap().bytes_per_s,
            1_250_000_000
        );
        assert_eq!(read::<Rate>("6000000").unwrap().bytes_per_s, 6_000_000);
        assert_eq!(read::<Size>("\"1MiB\"").unwrap().bytes, 1 << 20);
        let t = read::<Time>("\"2ms\"").unwrap();
        assert_eq!(t.cycles(156_250_000).unwrap(), 312_500);
        assert_eq!(read::<Time>("7").unwrap().cycles(156_250_000).unwrap(), 7);
        assert_eq!(read::<Gain>("\"1/256\"").unwrap().alpha_g, 1020);
        assert_eq!(read::<Count>("\" 12 \"").unwrap(), Count(12));
        assert_eq!(read::<Flag>("1").unwrap(), Flag(true));
        assert_eq!(read::<Flag>("false").unwrap(), Flag(false));
        assert!(read::<Size>("\"5 parsecs\"")
            .unwrap_err()
            .contains("unknown size unit `parsecs`"));
        assert!(read::<Time>("\"3 fortnights\"")
            .unwrap_err()
            .contains("unknown time unit"));
        assert_eq!(read::<Rate>("-3").unwrap_err(), "-3 is negative");
        assert!(read::<Gain>("5").unwrap_err().contains("fraction string"));
        assert!(read::<Flag>("2")
            .unwrap_err()
            .contains("expected true or false"));
        assert!(read::<Size>("true")
            .unwrap_err()
            .contains("expected a number or a string with a unit"));
    }
}
