//! The upstream rate-decrease process: a free-running poll.
//!
//! Idle until the overseer's sticky enable, then forever: count a 16-bit timer from 0 and leave at
//! the cycle the timer is `>= rateDecInterval` (live comparison), one cycle `Update1`, one cycle
//! `Update2`, back to counting from 0: a period of `Nd + 3` cycles. A CNP never restarts it.
//!
//! `Update1` looks at the pending flag. If set, it latches the target `Rc` (when `clampTgtRate` is
//! 1 or `timeStage` is not 0) or `Rt`, the 42-bit product `Rc * alpha` and the shift
//! `dec_gain + 10`. `Update2` subtracts `(product >> shift)`, cut to 32 bits, from the `Rc` of *that*
//! cycle modulo 2^32, raises the result to `Rmin` if below it (unsigned, `Rmin` not limited to the
//! line rate) and raises `valid` for one cycle. The outputs are registers: the overseer sees `valid`
//! the cycle after `Update2`, and its `Rc`/`Rt` change one cycle later.

/// The process states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DecState {
    #[default]
    Idle,
    Counting,
    Update1,
    Update2,
}

/// Registers of the decrease process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurfRateDec {
    pub timer: u16,
    pub new_rc: u32,
    pub new_rt: u32,
    /// A CNP was pending at `Update1`.
    pub do_update: bool,
    /// `Rc * alpha` latched at `Update1` (42 bits).
    pub mult: u64,
    /// `dec_gain + 10` latched at `Update1`.
    pub shift: u32,
    pub valid: bool,
    pub state: DecState,
}

/// The process's input ports (all registers of the block, read in the same cycle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecIn {
    /// `decEn`.
    pub start: bool,
    /// `cnpDecDetected`.
    pub cnp: bool,
    pub clamp_tgt_rate: bool,
    /// Q0.10.
    pub alpha: u16,
    /// 4 bits.
    pub dec_gain: u8,
    pub rmin: u32,
    pub interval: u16,
    /// The increase process's stage counter.
    pub time_stage: u8,
    pub rc: u32,
    pub rt: u32,
}

/// The process's output ports (registers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecOut {
    pub new_rc: u32,
    pub new_rt: u32,
    pub valid: bool,
}

impl SurfRateDec {
    pub const RESET: SurfRateDec = SurfRateDec {
        timer: 0,
        new_rc: 0,
        new_rt: 0,
        do_update: false,
        mult: 0,
        shift: 0,
        valid: false,
        state: DecState::Idle,
    };

    #[inline(always)]
    pub fn out(&self) -> DecOut {
        DecOut {
            new_rc: self.new_rc,
            new_rt: self.new_rt,
            valid: self.valid,
        }
    }

    /// `delta`: the product shifted right, low 32 bits.
    #[inline(always)]
    pub fn delta(mult: u64, shift: u32) -> u32 {
        (mult >> shift) as u32
    }

    pub fn next(&mut self, rst: bool, i: &DecIn) {
        if rst {
            *self = SurfRateDec::RESET;
            return;
        }
        let mut v = *self;
        v.valid = false;
        match self.state {
            DecState::Idle => {
                v.timer = 0;
                if i.start {
                    v.state = DecState::Counting;
                }
            }
            DecState::Counting => {
                v.timer = self.timer.wrapping_add(1);
                if self.timer >= i.interval {
                    v.state = DecState::Update1;
                }
            }
            DecState::Update1 => {
                if i.cnp {
                    let clamp = i.clamp_tgt_rate || i.time_stage != 0;
                    v.new_rt = if clamp { i.rc } else { i.rt };
                    v.mult = u64::from(i.rc) * u64::from(i.alpha & 0x3FF);
                    v.shift = u32::from(i.dec_gain & 0xF) + 10;
                    v.do_update = true;
                } else {
                    v.do_update = false;
                }
                v.state = DecState::Update2;
            }
            DecState::Update2 => {
                if self.do_update {
                    let rc = i.rc.wrapping_sub(Self::delta(self.mult, self.shift));
                    v.new_rc = if rc < i.rmin { i.rmin } else { rc };
                    v.valid = true;
                }
                v.timer = 0;
                v.state = DecState::Counting;
            }
        }
        *self = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reset_example_halves_to_625_610_352() {
        let mult = 1_250_000_000u64 * 1023;
        assert_eq!(1_250_000_000 - SurfRateDec::delta(mult, 11), 625_610_352);
    }
}
