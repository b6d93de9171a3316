//! The parameters of `dcqcn_mq` and the values derived from them at elaboration (spec-mq 2).

use thiserror::Error;

/// A parameter combination the RTL refuses to elaborate (spec-mq 2; the message names the
/// parameter as the RTL's elaboration error does).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MqParamError {
    #[error("dcqcn_mq: QPS {0} out of range 1..4096")]
    Qps(u32),
    #[error("dcqcn_mq: CLK_FREQ_HZ {0} out of range 65537..4294967295")]
    ClkFreq(u32),
    #[error("dcqcn_mq: LINE_RATE {0} out of range 1..4294967295")]
    LineRate(u32),
    #[error("dcqcn_mq: LINE_WIN {0} out of range 1..16777215")]
    LineWin(u64),
}

/// `QPS`, `CLK_FREQ_HZ`, `LINE_RATE` (spec-mq 2), checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MqParams {
    qps: u32,
    clk_hz: u32,
    line_rate: u32,
}

/// The largest `QPS`; every QP field is 12 bits (spec-mq 2, 3).
pub const MAX_QPS: u32 = 4096;

impl MqParams {
    /// 1,024 QPs at 156.25 MHz, 10 Gb/s.
    pub const DEFAULT: MqParams = MqParams {
        qps: 1024,
        clk_hz: 156_250_000,
        line_rate: 1_250_000_000,
    };

    pub fn new(qps: u32, clk_hz: u32, line_rate: u32) -> Result<Self, MqParamError> {
        if !(1..=MAX_QPS).contains(&qps) {
            return Err(MqParamError::Qps(qps));
        }
        if clk_hz < 65_537 {
            return Err(MqParamError::ClkFreq(clk_hz));
        }
        if line_rate == 0 {
            return Err(MqParamError::LineRate(line_rate));
        }
        let lw = u64::from(line_rate) * 1024 / u64::from(clk_hz);
        if !(1..(1 << 24)).contains(&lw) {
            return Err(MqParamError::LineWin(lw));
        }
        Ok(MqParams {
            qps,
            clk_hz,
            line_rate,
        })
    }

    /// The default clock and line rate with another `QPS`.
    pub fn with_qps(qps: u32) -> Result<Self, MqParamError> {
        Self::new(qps, Self::DEFAULT.clk_hz, Self::DEFAULT.line_rate)
    }

    pub fn qps(&self) -> u32 {
        self.qps
    }
    pub fn clk_hz(&self) -> u32 {
        self.clk_hz
    }
    pub fn line_rate(&self) -> u32 {
        self.line_rate
    }

    /// `LINE_WIN = floor(LINE_RATE * 1024 / CLK_FREQ_HZ)`, bytes per 1024-cycle window.
    pub fn line_win(&self) -> u32 {
        (u64::from(self.line_rate) * 1024 / u64::from(self.clk_hz)) as u32
    }
    /// `MERGE_RESET`: round(4 us x f) mod 2^16.
    pub fn merge_reset(&self) -> u16 {
        ((u64::from(self.clk_hz) * 4 + 500_000) / 1_000_000) as u16
    }
    /// `ALPHA_RESET`: round(55 us x f) mod 2^16.
    pub fn alpha_reset(&self) -> u16 {
        ((u64::from(self.clk_hz) * 55 + 500_000) / 1_000_000) as u16
    }
    /// `NOCNP_RESET`: round(1.5 ms x f).
    pub fn nocnp_reset(&self) -> u32 {
        ((u64::from(self.clk_hz) * 3 + 1000) / 2000) as u32
    }
    /// `CNP_TIMER_RESET`: round(100 us x f).
    pub fn cnp_timer_reset(&self) -> u32 {
        ((u64::from(self.clk_hz) + 5000) / 10_000) as u32
    }
    /// A rate in bytes/s as bytes per 1024-cycle window, round half up.
    fn per_window(&self, bytes_per_s_times_1024: u64) -> u32 {
        let f = u64::from(self.clk_hz);
        ((bytes_per_s_times_1024 + f / 2) / f) as u32
    }
    /// `AI_RESET`: 6 MB/s in bytes per window.
    pub fn ai_reset(&self) -> u32 {
        self.per_window(6_144_000_000)
    }
    /// `HAI_RESET`: 12 MB/s in bytes per window.
    pub fn hai_reset(&self) -> u32 {
        self.per_window(12_288_000_000)
    }
    /// `RMIN_RESET`: 10 MB/s in bytes per window.
    pub fn rmin_reset(&self) -> u32 {
        self.per_window(10_240_000_000)
    }
}

impl Default for MqParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_values_match_the_spec_table() {
        let p = MqParams::DEFAULT;
        assert_eq!(p.line_win(), 8192);
        assert_eq!(p.merge_reset(), 625);
        assert_eq!(p.alpha_reset(), 8594);
        assert_eq!(p.nocnp_reset(), 234_375);
        assert_eq!(p.cnp_timer_reset(), 15_625);
        assert_eq!(p.ai_reset(), 39);
        assert_eq!(p.hai_reset(), 79);
        assert_eq!(p.rmin_reset(), 66);
        let slow = MqParams::new(1, 65_537, 1).unwrap_err();
        assert_eq!(slow, MqParamError::LineWin(0));
        assert_eq!(
            MqParams::new(1, 65_537, 1_000_000).unwrap().hai_reset(),
            187_497
        );
    }

    #[test]
    fn out_of_range_parameters_are_refused_with_the_rtl_message() {
        assert_eq!(MqParams::with_qps(0), Err(MqParamError::Qps(0)));
        assert_eq!(MqParams::with_qps(4097), Err(MqParamError::Qps(4097)));
        assert!(MqParams::with_qps(4096).is_ok());
        assert_eq!(
            MqParams::with_qps(0).unwrap_err().to_string(),
            "dcqcn_mq: QPS 0 out of range 1..4096"
        );
    }
}
