//! Rate decrease process (spec 4.4; RTL `dcqcn_rate_dec`).

use crate::fixed::{expired, sat_inc};

/// Registers of the decrease process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateDec {
    /// Cycles since the last decrease, saturating at 0xFFFF ("long ago" after reset).
    pub dec_timer: u16,
    /// A CNP arrived during the cooldown and waits for it to end.
    pub dec_pending: bool,
}

impl RateDec {
    pub const RESET: RateDec = RateDec {
        dec_timer: 0xFFFF,
        dec_pending: false,
    };

    /// `dec_fire`: a CNP is waiting (or arrives now) and the cooldown is over.
    #[inline(always)]
    pub fn fire(&self, cnp_event: bool, interval_cycles: u16) -> bool {
        (self.dec_pending || cnp_event) && expired(self.dec_timer, interval_cycles)
    }

    #[inline(always)]
    pub fn next(&self, bypass: bool, cnp_event: bool, dec_fire: bool) -> RateDec {
        if bypass {
            return RateDec::RESET;
        }
        RateDec {
            dec_timer: if dec_fire { 0 } else { sat_inc(self.dec_timer) },
            dec_pending: (self.dec_pending || cnp_event) && !dec_fire,
        }
    }
}

/// The configuration fields the decrease reads.
#[derive(Clone, Copy, Debug)]
pub struct DecCfg {
    pub dec_gain: u8,
    pub clamp_tgt: bool,
    /// min(cfg_rmin, L).
    pub rmin_eff: u32,
}

/// spec 4.4: the (Rc, Rt) written by a decrease. `increased` is `t_stage != 0 | b_stage != 0`
/// before the decrease resets the stages.
#[inline]
pub fn result(rc: u32, rt: u32, alpha: u16, increased: bool, cfg: &DecCfg) -> (u32, u32) {
    // 42-bit product, truncating shift of 10..25; alpha < 1024 so delta < rc.
    let delta = ((u64::from(rc) * u64::from(alpha)) >> (u32::from(cfg.dec_gain) + 10)) as u32;
    let rc_dec = (rc - delta).max(cfg.rmin_eff);
    let rt_dec = if cfg.clamp_tgt || increased { rc } else { rt };
    (rc_dec, rt_dec)
}

#[cfg(test)]
mod tests {
    use super::*;

    const L: u32 = 1_250_000_000;

    #[test]
    fn first_cut_matches_spec_example() {
        let cfg = DecCfg {
            dec_gain: 1,
            clamp_tgt: false,
            rmin_eff: 10_000_000,
        };
        assert_eq!(result(L, L, 1023, false, &cfg), (625_610_352, L));
    }

    #[test]
    fn floor_and_clamp() {
        let cfg = DecCfg {
            dec_gain: 0,
            clamp_tgt: true,
            rmin_eff: 800_000_000,
        };
        assert_eq!(result(L, L, 1023, false, &cfg), (800_000_000, L));
        let cfg = DecCfg {
            dec_gain: 15,
            clamp_tgt: false,
            rmin_eff: 1,
        };
        // Stage non-zero clamps Rt to the pre-decrease Rc even with clamp_tgt = 0.
        assert_eq!(result(1000, 5000, 1023, true, &cfg), (1000, 1000));
        // Rc = 1 never reaches 0.
        assert_eq!(
            result(1, 1, 1023, false, &DecCfg { dec_gain: 0, ..cfg }).0,
            1
        );
    }

    #[test]
    fn cooldown_coalesces_and_never_loses() {
        let mut s = RateDec::RESET;
        let interval = 4;
        let cnps = [
            true, false, true, false, false, false, false, false, true, true,
        ];
        let mut fires = vec![];
        for (c, &cnp) in cnps.iter().enumerate() {
            let f = s.fire(cnp, interval);
            if f {
                fires.push(c);
            }
            s = s.next(false, cnp, f);
        }
        // First CNP immediately, second waits for the cooldown (cycle 4), the two at 8-9 fire at 8 and
        // leave one pending.
        assert_eq!(fires, vec![0, 4, 8]);
        assert!(s.dec_pending);
    }
}
