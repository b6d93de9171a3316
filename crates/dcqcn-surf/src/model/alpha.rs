//! The upstream alpha process.
//!
//! Idle until the overseer's sticky enable, then forever: a 16-bit timer counts from 0 and leaves at
//! the cycle it is `>= alphaUpdInterval`, one `Update` cycle, back to 0: a period of `Na + 2`
//! cycles. Every `Update` writes a new alpha, whether a CNP is pending or not:
//!
//! ```text
//! s = ((alpha * G + 512) mod 2^20) >> 10
//! new = (s + (1024 - G) mod 1024) mod 1024   if the pending flag is set
//! new = s                                    otherwise
//! ```
//!
//! (10-bit result: 1023 + a CNP with `G <= 512` wraps to a small value; `G = 0` pins alpha at 0.)
//! The output is registered: the overseer sees `valid` one cycle after `Update` and writes alpha
//! one cycle later.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AlphaState {
    #[default]
    Idle,
    Counting,
    Update,
}

/// Registers of the alpha process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurfAlpha {
    pub timer: u16,
    pub new_alpha: u16,
    pub valid: bool,
    pub state: AlphaState,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AlphaIn {
    /// `alphaUpdEn`.
    pub start: bool,
    /// Q0.10, 10 bits.
    pub alpha: u16,
    /// `alphaG`, 10 bits.
    pub g: u16,
    /// `cnpAlphaDetected`.
    pub cnp: bool,
    pub interval: u16,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AlphaOut {
    pub new_alpha: u16,
    pub valid: bool,
}

impl SurfAlpha {
    pub const RESET: SurfAlpha = SurfAlpha {
        timer: 0,
        new_alpha: 0,
        valid: false,
        state: AlphaState::Idle,
    };

    #[inline(always)]
    pub fn out(&self) -> AlphaOut {
        AlphaOut {
            new_alpha: self.new_alpha,
            valid: self.valid,
        }
    }

    /// The update arithmetic (10-bit operands and result).
    #[inline(always)]
    pub fn update(alpha: u16, g: u16, cnp: bool) -> u16 {
        let (alpha, g) = (u32::from(alpha & 0x3FF), u32::from(g & 0x3FF));
        let s = ((alpha * g + 512) & 0xF_FFFF) >> 10;
        let new = if cnp { s + ((1024 - g) & 0x3FF) } else { s };
        (new & 0x3FF) as u16
    }

    pub fn next(&mut self, rst: bool, i: &AlphaIn) {
        if rst {
            *self = SurfAlpha::RESET;
            return;
        }
        let mut v = *self;
        v.valid = false;
        match self.state {
            AlphaState::Idle => {
                v.timer = 0;
                if i.start {
                    v.state = AlphaState::Counting;
                }
            }
            AlphaState::Counting => {
                v.timer = self.timer.wrapping_add(1);
                if self.timer >= i.interval {
                    v.state = AlphaState::Update;
                }
            }
            AlphaState::Update => {
                v.new_alpha = Self::update(i.alpha, i.g, i.cnp);
                v.valid = true;
                v.timer = 0;
                v.state = AlphaState::Counting;
            }
        }
        *self = v;
    }
}

#[cfg(test)]
mod tests {
    use super::SurfAlpha;

    #[test]
    fn arithmetic_examples() {
        assert_eq!(SurfAlpha::update(1023, 1020, false), 1019);
        assert_eq!(SurfAlpha::update(1019, 1020, false), 1015);
        assert_eq!(SurfAlpha::update(1023, 512, true), 0);
        assert_eq!(SurfAlpha::update(0, 512, true), 512);
        assert_eq!(SurfAlpha::update(128, 1020, false), 128);
        assert_eq!(SurfAlpha::update(0, 0, true), 0);
    }
}
