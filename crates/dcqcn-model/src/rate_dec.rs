//! Rate decrease process (spec 4.4; RTL `dcqcn_rate_dec`).

use crate::block::Block;
use crate::fixed::{expired, sat_inc};
use crate::{Config, Params};

/// Registers of the decrease process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateDec {
    /// Cycles since the last decrease, saturating at 0xFFFF ("long ago" after reset).
    pub dec_timer: u16,
    /// A CNP arrived during the cooldown and waits for it to end.
    pub dec_pending: bool,
}

/// The decrease process's input ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateDecIn {
    /// `cnp_edge & ~cfg_bypass`.
    pub cnp_event: bool,
    pub rc: u32,
    pub rt: u32,
    pub alpha: u16,
    pub t_stage: u8,
    pub b_stage: u8,
}

/// The decrease process's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateDecOut {
    /// A CNP is waiting (or arrives now) and the cooldown is over.
    pub dec_fire: bool,
    /// The (Rc, Rt) a decrease writes; meaningful with `dec_fire` only (the rate mux reads them
    /// only then).
    pub rc_dec: u32,
    pub rt_dec: u32,
}

impl RateDecOut {
    pub const IDLE: RateDecOut = RateDecOut {
        dec_fire: false,
        rc_dec: 0,
        rt_dec: 0,
    };
}

impl RateDec {
    pub const RESET: RateDec = RateDec {
        dec_timer: 0xFFFF,
        dec_pending: false,
    };

    /// `n` cycles without bypass, CNP event or pending decrease in closed form: what `n` calls of
    /// `next` leave behind.
    #[inline(always)]
    pub fn skip_quiet(&mut self, n: u64) {
        self.dec_timer = self
            .dec_timer
            .saturating_add(u16::try_from(n).unwrap_or(u16::MAX));
    }
}

impl Block for RateDec {
    type In<'a> = RateDecIn;
    type Out = RateDecOut;

    fn reset(_: &Params) -> RateDec {
        RateDec::RESET
    }

    #[inline(always)]
    fn comb(&self, i: &RateDecIn, cfg: &Config, p: &Params) -> RateDecOut {
        let dec_fire =
            (self.dec_pending || i.cnp_event) && expired(self.dec_timer, cfg.dec_interval);
        let (rc_dec, rt_dec) = if dec_fire {
            let increased = i.t_stage != 0 || i.b_stage != 0;
            result(i.rc, i.rt, i.alpha, increased, cfg, p.line_rate())
        } else {
            (i.rc, i.rt)
        };
        RateDecOut {
            dec_fire,
            rc_dec,
            rt_dec,
        }
    }

    #[inline(always)]
    fn next(&mut self, i: &RateDecIn, o: &RateDecOut, cfg: &Config, _: &Params) {
        *self = if cfg.bypass {
            RateDec::RESET
        } else {
            RateDec {
                dec_timer: if o.dec_fire {
                    0
                } else {
                    sat_inc(self.dec_timer)
                },
                dec_pending: (self.dec_pending || i.cnp_event) && !o.dec_fire,
            }
        };
    }
}

/// spec 4.4: the (Rc, Rt) written by a decrease. `increased` is `t_stage != 0 | b_stage != 0`
/// before the decrease resets the stages; `line_rate` is L (Rmin is clamped to it).
#[inline]
pub fn result(
    rc: u32,
    rt: u32,
    alpha: u16,
    increased: bool,
    cfg: &Config,
    line_rate: u32,
) -> (u32, u32) {
    // 42-bit product, truncating shift of 10..25; alpha < 1024 so delta < rc.
    let delta = ((u64::from(rc) * u64::from(alpha)) >> (u32::from(cfg.dec_gain) + 10)) as u32;
    let rc_dec = (rc - delta).max(cfg.rmin.min(line_rate));
    let rt_dec = if cfg.clamp_tgt || increased { rc } else { rt };
    (rc_dec, rt_dec)
}

#[cfg(test)]
mod tests {
    use super::*;

    const L: u32 = 1_250_000_000;

    fn cfg(dec_gain: u8, clamp_tgt: bool, rmin: u32) -> Config {
        Config {
            dec_gain,
            clamp_tgt,
            rmin,
            ..Config::reset(&Params::DEFAULT)
        }
    }

    #[test]
    fn first_cut_matches_spec_example() {
        assert_eq!(
            result(L, L, 1023, false, &cfg(1, false, 10_000_000), L),
            (625_610_352, L)
        );
    }

    #[test]
    fn floor_and_clamp() {
        assert_eq!(
            result(L, L, 1023, false, &cfg(0, true, 800_000_000), L),
            (800_000_000, L)
        );
        // Rmin above L is clamped to L.
        assert_eq!(result(L / 2, L, 0, false, &cfg(0, false, u32::MAX), L).0, L);
        // Stage non-zero clamps Rt to the pre-decrease Rc even with clamp_tgt = 0.
        assert_eq!(
            result(1000, 5000, 1023, true, &cfg(15, false, 1), L),
            (1000, 1000)
        );
        // Rc = 1 never reaches 0.
        assert_eq!(result(1, 1, 1023, false, &cfg(0, false, 1), L).0, 1);
    }

    #[test]
    fn cooldown_coalesces_and_never_loses() {
        let c = Config {
            dec_interval: 4,
            ..Config::reset(&Params::DEFAULT)
        };
        let p = Params::DEFAULT;
        let mut s = RateDec::RESET;
        let cnps = [
            true, false, true, false, false, false, false, false, true, true,
        ];
        let mut fires = vec![];
        for (n, &cnp) in cnps.iter().enumerate() {
            let i = RateDecIn {
                cnp_event: cnp,
                rc: L,
                rt: L,
                alpha: 1023,
                ..RateDecIn::default()
            };
            let o = s.comb(&i, &c, &p);
            if o.dec_fire {
                fires.push(n);
            }
            s.next(&i, &o, &c, &p);
        }
        // First CNP immediately, second waits for the cooldown (cycle 4), the two at 8-9 fire at 8 and
        // leave one pending.
        assert_eq!(fires, vec![0, 4, 8]);
        assert!(s.dec_pending);
    }
}
