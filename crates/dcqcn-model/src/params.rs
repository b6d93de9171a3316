//! Elaboration parameters and the constants derived from them (spec 2).

use thiserror::Error;

/// The RTL's parameters. Construct with [`Params::new`], which applies the same legality checks as
/// the RTL's elaboration-time `$fatal`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    data_bytes: u32,
    clk_hz: u32,
    line_rate: u32,
    k: u64,
}

/// A parameter combination the RTL refuses to elaborate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParamError {
    #[error("DATA_BYTES = {0}: must be 1..=64")]
    DataBytes(u32),
    #[error("CLK_FREQ_HZ = {0}: must be at least 65537 (K = 2^48/f must fit 32 bits)")]
    ClkFreq(u32),
    #[error("LINE_RATE = {0}: must be at least 1 byte/s")]
    LineRate(u32),
}

impl Params {
    /// 8-byte beats at 156.25 MHz, 10 Gb/s: the paper's KCU105 10 GbE configuration.
    pub const DEFAULT: Params = Params {
        data_bytes: 8,
        clk_hz: 156_250_000,
        line_rate: 1_250_000_000,
        k: 1_801_440,
    };

    pub fn new(data_bytes: u32, clk_hz: u32, line_rate: u32) -> Result<Self, ParamError> {
        if !(1..=64).contains(&data_bytes) {
            return Err(ParamError::DataBytes(data_bytes));
        }
        if clk_hz < 65_537 {
            return Err(ParamError::ClkFreq(clk_hz));
        }
        if line_rate == 0 {
            return Err(ParamError::LineRate(line_rate));
        }
        let f = u64::from(clk_hz);
        // spec 2: K = round(2^48 / f), half up.
        let k = ((1u64 << 48) + f / 2) / f;
        Ok(Params {
            data_bytes,
            clk_hz,
            line_rate,
            k,
        })
    }

    /// Default clock and line rate with another beat width.
    pub fn with_data_bytes(data_bytes: u32) -> Result<Self, ParamError> {
        Self::new(data_bytes, Self::DEFAULT.clk_hz, Self::DEFAULT.line_rate)
    }

    pub fn data_bytes(&self) -> u32 {
        self.data_bytes
    }
    pub fn clk_hz(&self) -> u32 {
        self.clk_hz
    }
    /// L, bytes/s.
    pub fn line_rate(&self) -> u32 {
        self.line_rate
    }
    /// K = round(2^48 / f_clk).
    pub fn k(&self) -> u64 {
        self.k
    }

    /// spec 5.1: bytes per clock in Q16.16 for a rate in bytes/s.
    #[inline(always)]
    pub fn bpc(&self, rate_bytes_per_s: u32) -> u32 {
        ((u64::from(rate_bytes_per_s) * self.k) >> 32) as u32
    }

    /// round(1.5 ms x f), the reset value of `inc_interval`.
    pub fn rate_inc_reset(&self) -> u32 {
        ((u64::from(self.clk_hz) * 3 + 1000) / 2000) as u32
    }
    /// round(4 us x f) mod 2^16, the reset value of `dec_interval`.
    pub fn rate_dec_reset(&self) -> u16 {
        ((u64::from(self.clk_hz) * 4 + 500_000) / 1_000_000) as u16
    }
    /// round(55 us x f) mod 2^16, the reset value of `alpha_interval`.
    pub fn alpha_reset(&self) -> u16 {
        ((u64::from(self.clk_hz) * 55 + 500_000) / 1_000_000) as u16
    }
}

impl Default for Params {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_constants_match_spec_examples() {
        let p = Params::new(8, 156_250_000, 1_250_000_000).unwrap();
        assert_eq!(p, Params::DEFAULT);
        assert_eq!(p.k(), 1_801_440);
        assert_eq!(p.bpc(1_250_000_000), 524_288);
        assert_eq!(p.bpc(625_610_352), 262_400);
        assert_eq!(p.rate_inc_reset(), 234_375);
        assert_eq!(p.rate_dec_reset(), 625);
        assert_eq!(p.alpha_reset(), 8_594);
    }

    #[test]
    fn illegal_parameters_are_refused() {
        assert_eq!(
            Params::new(0, 156_250_000, 1),
            Err(ParamError::DataBytes(0))
        );
        assert_eq!(
            Params::new(65, 156_250_000, 1),
            Err(ParamError::DataBytes(65))
        );
        assert_eq!(Params::new(8, 65_536, 1), Err(ParamError::ClkFreq(65_536)));
        assert_eq!(Params::new(8, 156_250_000, 0), Err(ParamError::LineRate(0)));
    }
}
