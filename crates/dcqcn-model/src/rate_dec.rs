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
    /// The reaction point is active (spec 4.2): a decrease while inactive is the first one.
    pub active: bool,
}

/// The decrease process's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateDecOut {
    /// A CNP is waiting (or arrives now) and the cooldown is over.
    pub dec_fire: bool,
    /// The (Rc, Rt) of a decrease before the ceiling ([`result`]); meaningful with `dec_fire`
    /// only (the increase process reads them only then).
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
            result(
                i.rc,
                i.rt,
                i.alpha,
                increased,
                !i.active,
                cfg,
                p.line_rate(),
            )
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
        *self = if cfg.rp_held() {
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

/// spec 4.4: the (Rc, Rt) of a decrease before the ceiling, as `dcqcn_rate_dec` hands them over
/// (`rc_dec`, `rt_dec`); the increase process applies the `rmax` ceiling to them
/// (`rate_inc::ceil_decrease`, spec 4.6). `increased` is `t_stage != 0 | b_stage != 0`
/// before the decrease resets the stages; `first` is `~active` (the first decrease since reset
/// or bypass); `line_rate` is L (Rmin and the first-CNP rate are clamped to it).
#[inline]
pub fn result(
    rc: u32,
    rt: u32,
    alpha: u16,
    increased: bool,
    first: bool,
    cfg: &Config,
    line_rate: u32,
) -> (u32, u32) {
    // 42-bit product, truncating shift of 10..25; alpha < 1024 so delta < rc.
    let delta = ((u64::from(rc) * u64::from(alpha)) >> (u32::from(cfg.dec_gain) + 10)) as u32;
    // The share of Rc a decrease keeps: 43-bit product; min_dec_fac <= 1024 so keep <= rc.
    let keep = ((u64::from(rc) * u64::from(cfg.min_dec_fac.min(1024))) >> 10) as u32;
    let rc_cut = if first && cfg.rate_first_cnp != 0 {
        cfg.rate_first_cnp.min(line_rate)
    } else {
        (rc - delta).max(keep)
    };
    let rc_dec = rc_cut.max(cfg.rmin.min(line_rate));
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
            result(L, L, 1023, false, false, &cfg(1, false, 10_000_000), L),
            (625_610_352, L)
        );
    }

    #[test]
    fn floor_and_clamp() {
        assert_eq!(
            result(L, L, 1023, false, false, &cfg(0, true, 800_000_000), L),
            (800_000_000, L)
        );
        // Rmin above L is clamped to L.
        assert_eq!(
            result(L / 2, L, 0, false, false, &cfg(0, false, u32::MAX), L).0,
            L
        );
        // Stage non-zero clamps Rt to the pre-decrease Rc even with clamp_tgt = 0.
        assert_eq!(
            result(1000, 5000, 1023, true, false, &cfg(15, false, 1), L),
            (1000, 1000)
        );
        // Rc = 1 never reaches 0.
        assert_eq!(result(1, 1, 1023, false, false, &cfg(0, false, 1), L).0, 1);
    }

    /// spec 4.4 min_dec_fac, hand-computed: Rc = 1,000,000, alpha = 1023, dec_gain = 0 cuts
    /// floor(1,000,000 x 1023 / 1024) = 999,023 (Rc 977); keep = floor(Rc x f / 1024).
    #[test]
    fn min_dec_fac_limits_the_cut() {
        let mut c = cfg(0, false, 1);
        let rc = 1_000_000;
        assert_eq!(result(rc, L, 1023, false, false, &c, L).0, 977);
        // 512 (NVIDIA 50 %): keep floor(1,000,000 x 512 / 1024) = 500,000.
        c.min_dec_fac = 512;
        assert_eq!(result(rc, L, 1023, false, false, &c, L).0, 500_000);
        // A cut smaller than the limit is untouched: alpha = 100 cuts 97,656 -> 902,344.
        assert_eq!(result(rc, L, 100, false, false, &c, L).0, 902_344);
        // 1000: keep floor(1,000,000,000 / 1024) = 976,562.
        c.min_dec_fac = 1000;
        assert_eq!(result(rc, L, 1023, false, false, &c, L).0, 976_562);
        // 1024 and every value above (11-bit field): no cut at all.
        for f in [1024, 1025, 2047] {
            c.min_dec_fac = f;
            assert_eq!(result(rc, L, 1023, false, false, &c, L).0, rc);
        }
        // 0: no limit (the reset rule); the floor rmin still applies after the limit.
        c.min_dec_fac = 0;
        c.rmin = 5_000;
        assert_eq!(result(rc, L, 1023, false, false, &c, L).0, 5_000);
        c.min_dec_fac = 1;
        // keep = floor(1,000,000 / 1024) = 976 < rmin 5,000
        assert_eq!(result(rc, L, 1023, false, false, &c, L).0, 5_000);
    }

    /// spec 4.4 rate_first_cnp: the first decrease (inactive) sets Rc = min(x, L), then rmin (rmax
    /// follows in the increase process: rate_inc's tests); later decreases cut as usual; 0 is off.
    #[test]
    fn rate_on_first_cnp() {
        let mut c = cfg(1, false, 10_000_000);
        c.rate_first_cnp = 300_000_000;
        assert_eq!(result(L, L, 1023, false, true, &c, L), (300_000_000, L));
        // Not the first: the spec-example cut.
        assert_eq!(result(L, L, 1023, false, false, &c, L).0, 625_610_352);
        // Above L: L (no cut at all on the first CNP).
        c.rate_first_cnp = u32::MAX;
        assert_eq!(result(L, L, 1023, false, true, &c, L).0, L);
        // Below rmin: rmin.
        c.rate_first_cnp = 1;
        assert_eq!(result(L, L, 1023, false, true, &c, L).0, 10_000_000);
        // Off.
        c.rate_first_cnp = 0;
        assert_eq!(result(L, L, 1023, false, true, &c, L).0, 625_610_352);
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
