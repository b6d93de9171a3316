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
    features: Features,
}

/// The optional features a build carries (spec 2: the generics RATE_RULES, CONTROL and
/// TRACE_DEPTH). The register map's `feature` of a word names one of them
/// ([`crate::regmap::feature`]); an absent feature's words answer as unmapped ones (DECERR, read
/// 0) and its registers stay at their reset values, so the block behaves as the full one with
/// them at reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    /// The rate rules, 0x150-0x158 (`rate_rules`).
    pub rate_rules: bool,
    /// The control schemes, 0x15C-0x160 (`control`).
    pub control: bool,
    /// The event trace's entries, 0x170-0x18C (`trace`): 0 absent, or 64.
    pub trace_depth: u32,
}

impl Features {
    /// Every feature (the generics' defaults).
    pub const FULL: Features = Features {
        rate_rules: true,
        control: true,
        trace_depth: 64,
    };
    /// None of them: the paper's block with the counters and schemes of spec 6.2's base words.
    pub const BASE: Features = Features {
        rate_rules: false,
        control: false,
        trace_depth: 0,
    };
    /// The trace depths the RTL builds.
    pub const TRACE_DEPTHS: [u32; 2] = [0, 64];

    /// Whether the feature the register map names `feature` is built (`false` for a name that
    /// is not a feature: a unit test holds every name of the map known).
    pub fn has(&self, feature: &str) -> bool {
        match feature {
            "rate_rules" => self.rate_rules,
            "control" => self.control,
            "trace" => self.trace_depth != 0,
            _ => false,
        }
    }

    /// The configuration's name: `full`, `base`, or the features built joined by `+`
    /// (`rate_rules+trace`).
    pub fn name(&self) -> String {
        match *self {
            Features::FULL => "full".into(),
            Features::BASE => "base".into(),
            _ => {
                let mut v = Vec::new();
                if self.rate_rules {
                    v.push("rate_rules");
                }
                if self.control {
                    v.push("control");
                }
                if self.trace_depth != 0 {
                    v.push("trace");
                }
                v.join("+")
            }
        }
    }
}

impl Default for Features {
    fn default() -> Self {
        Self::FULL
    }
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
    #[error("TRACE_DEPTH = {0}: must be 0 (no trace) or 64")]
    TraceDepth(u32),
    /// A feature configuration named wrongly (a binding's argument).
    #[error("{0}")]
    Features(String),
}

impl Params {
    /// 8-byte beats at 156.25 MHz, 10 Gb/s: the paper's KCU105 10 GbE configuration.
    pub const DEFAULT: Params = Params {
        data_bytes: 8,
        clk_hz: 156_250_000,
        line_rate: 1_250_000_000,
        k: 1_801_440,
        features: Features::FULL,
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
            features: Features::FULL,
        })
    }

    /// The same parameters with other features (spec 2).
    pub fn with_features(self, features: Features) -> Result<Self, ParamError> {
        if !Features::TRACE_DEPTHS.contains(&features.trace_depth) {
            return Err(ParamError::TraceDepth(features.trace_depth));
        }
        Ok(Params { features, ..self })
    }

    /// The features built.
    pub fn features(&self) -> Features {
        self.features
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
        let bad = Features {
            trace_depth: 32,
            ..Features::FULL
        };
        assert_eq!(
            Params::DEFAULT.with_features(bad),
            Err(ParamError::TraceDepth(32))
        );
    }

    #[test]
    fn every_feature_of_the_register_map_is_known() {
        for w in crate::regmap::MAP {
            if let Some(f) = crate::regmap::feature(w.0) {
                assert!(Features::FULL.has(f), "feature {f} of word {:#05x}", w.0);
                assert!(!Features::BASE.has(f), "feature {f} of word {:#05x}", w.0);
            }
        }
    }
}
