//! The upstream rate-increase process: timer only.
//!
//! Idle until the overseer's sticky enable, then forever: a 32-bit timer counts from 0 and leaves
//! at the cycle it is strictly `> rateIncInterval`, one update cycle, back to 0: a period of
//! `Ni + 3` cycles. While counting and not leaving, the overseer's one-cycle `incReset` zeroes the
//! timer and the 8-bit `timeStage` (a pulse that lands on the leaving cycle or the update cycle is
//! missed). The update chooses by `timeStage` against `T - 1` computed in 8 bits (`T = 0` gives 255):
//!
//! - below: fast recovery, `Rc = (Rc >> 1) + (Rt >> 1)`, stage + 1;
//! - equal: additive, `Rt = min((Rt + Rai) mod 2^32, L)`, then `Rc` as above with the new `Rt`,
//!   stage + 1 (wraps at 256);
//! - above: hyper, the same with `Rhai`, stage unchanged.
//!
//! The two halves are truncated separately (`Rc` converges to `L - 1` when `Rt = L`). The outputs
//! are registered: the overseer sees `valid` the cycle after the update cycle.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IncState {
    #[default]
    Idle,
    Counting,
    FastRecovery,
    Additive,
    Hyper,
}

/// Registers of the increase process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurfRateInc {
    pub timer: u32,
    pub time_stage: u8,
    pub new_rc: u32,
    pub new_rt: u32,
    pub valid: bool,
    pub state: IncState,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IncIn {
    /// `incEn`.
    pub start: bool,
    /// `incReset`.
    pub rst_timers: bool,
    pub interval: u32,
    pub rai: u32,
    pub rhai: u32,
    pub rc: u32,
    pub rt: u32,
    /// `T`, 8 bits.
    pub threshold: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IncOut {
    pub time_stage: u8,
    pub new_rc: u32,
    pub new_rt: u32,
    pub valid: bool,
}

impl SurfRateInc {
    pub const RESET: SurfRateInc = SurfRateInc {
        timer: 0,
        time_stage: 0,
        new_rc: 0,
        new_rt: 0,
        valid: false,
        state: IncState::Idle,
    };

    #[inline(always)]
    pub fn out(&self) -> IncOut {
        IncOut {
            time_stage: self.time_stage,
            new_rc: self.new_rc,
            new_rt: self.new_rt,
            valid: self.valid,
        }
    }

    /// `(rc >> 1) + (rt >> 1)`: two separately truncated halves.
    #[inline(always)]
    pub fn average(rc: u32, rt: u32) -> u32 {
        (rc >> 1) + (rt >> 1)
    }

    /// `min((rt + step) mod 2^32, line_rate)`.
    #[inline(always)]
    pub fn raise(rt: u32, step: u32, line_rate: u32) -> u32 {
        rt.wrapping_add(step).min(line_rate)
    }

    pub fn next(&mut self, rst: bool, i: &IncIn, line_rate: u32) {
        if rst {
            *self = SurfRateInc::RESET;
            return;
        }
        let mut v = *self;
        v.valid = false;
        match self.state {
            IncState::Idle => {
                v.timer = 0;
                if i.start {
                    v.state = IncState::Counting;
                }
            }
            IncState::Counting => {
                v.timer = self.timer.wrapping_add(1);
                if self.timer > i.interval {
                    let edge = i.threshold.wrapping_sub(1);
                    v.state = if self.time_stage < edge {
                        IncState::FastRecovery
                    } else if self.time_stage == edge {
                        IncState::Additive
                    } else {
                        IncState::Hyper
                    };
                } else if i.rst_timers {
                    v.timer = 0;
                    v.time_stage = 0;
                }
            }
            IncState::FastRecovery => {
                v.new_rc = Self::average(i.rc, i.rt);
                v.new_rt = i.rt;
                v.valid = true;
                v.time_stage = self.time_stage.wrapping_add(1);
                v.timer = 0;
                v.state = IncState::Counting;
            }
            IncState::Additive => {
                v.new_rt = Self::raise(i.rt, i.rai, line_rate);
                v.new_rc = Self::average(i.rc, v.new_rt);
                v.valid = true;
                v.time_stage = self.time_stage.wrapping_add(1);
                v.timer = 0;
                v.state = IncState::Counting;
            }
            IncState::Hyper => {
                v.new_rt = Self::raise(i.rt, i.rhai, line_rate);
                v.new_rc = Self::average(i.rc, v.new_rt);
                v.valid = true;
                v.timer = 0;
                v.state = IncState::Counting;
            }
        }
        *self = v;
    }
}

#[cfg(test)]
mod tests {
    use super::SurfRateInc;

    #[test]
    fn halves_truncate_separately_and_the_sum_wraps_before_the_clamp() {
        assert_eq!(
            SurfRateInc::average(1_250_000_000, 1_250_000_000),
            1_250_000_000
        );
        assert_eq!(
            SurfRateInc::average(1_249_999_999, 1_250_000_000),
            1_249_999_999
        );
        assert_eq!(
            SurfRateInc::raise(1_000_000_000, 0xFFFF_FFFB, 1_250_000_000),
            999_999_995
        );
        assert_eq!(
            SurfRateInc::raise(1_249_000_000, 6_000_000, 1_250_000_000),
            1_250_000_000
        );
    }
}
