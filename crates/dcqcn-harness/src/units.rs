//! Human units to register values, with the spec's rounding (spec 6.3: round half up, exact
//! decimal arithmetic, range-checked): `10Gbps`, `6MB/s`, `2ms`, `40us`, `1MiB`, `1/256`.

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
        input: input.to_string(),
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

/// round_half_up(d x num / den).
fn scale(d: Decimal, num: u128, den: u128, input: &str) -> Result<u64, UnitError> {
    let den = den * 10u128.pow(d.scale);
    let n = d
        .mantissa
        .checked_mul(num)
        .ok_or_else(|| err(input, "value out of range"))?;
    let v = (n + den / 2) / den;
    u64::try_from(v).map_err(|_| err(input, "value out of range"))
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
                format!("unknown rate unit `{unit}` (use Gbps, Mbps, MB/s, B/s ...)"),
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
                format!("unknown time unit `{unit}` (use s, ms, us, ns or cycles)"),
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
                format!("unknown size unit `{unit}` (use B, KB, MB, KiB, MiB)"),
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
        // round(1024 n / d) with both sides exact decimals.
        let num = n.mantissa * 1024 * 10u128.pow(dn.scale);
        let den = dn.mantissa * 10u128.pow(n.scale);
        (num + den / 2) / den
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
