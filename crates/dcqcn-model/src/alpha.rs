//! Alpha update process (spec 4.3; RTL `dcqcn_alpha`).

use crate::block::Block;
use crate::fixed::{expired, until_expired};
use crate::{Config, Params};

/// Largest alpha, Q0.10 (about 1.0).
pub const ALPHA_MAX: u16 = 1023;

/// Registers of the alpha process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alpha {
    /// Congestion estimate, Q0.10.
    pub alpha: u16,
    /// Cycles since the last alpha update (held 0 while inactive).
    pub alpha_timer: u16,
    /// A CNP arrived since the last alpha update.
    pub alpha_pending: bool,
}

/// The alpha process's input ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AlphaIn {
    /// `cnp_edge & ~cfg_bypass`.
    pub cnp_event: bool,
    /// The reaction point is active (spec 4.2).
    pub active: bool,
}

/// The alpha process's events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AlphaOut {
    /// The alpha timer expired while active: alpha is updated at this edge.
    pub alpha_fire: bool,
}

impl AlphaOut {
    pub const IDLE: AlphaOut = AlphaOut { alpha_fire: false };
}

impl Alpha {
    pub const RESET: Alpha = Alpha {
        alpha: ALPHA_MAX,
        alpha_timer: 0,
        alpha_pending: false,
    };

    /// Cycles from now without an alpha update, if the block stays active and the interval
    /// unchanged (0: it may fire this cycle; `u64::MAX` while inactive).
    #[inline(always)]
    pub fn quiet_cycles(&self, active: bool, cfg: &Config) -> u64 {
        if active {
            until_expired(u64::from(self.alpha_timer), u64::from(cfg.alpha_interval))
        } else if self.alpha == cfg.alpha_init {
            u64::MAX
        } else {
            // Inactive, alpha takes alpha_init at the next edge (spec 4.3): not a quiet cycle.
            0
        }
    }

    /// `n` cycles without bypass, CNP event or update in closed form: what `n` calls of `next`
    /// leave behind when `n <= quiet_cycles`.
    #[inline(always)]
    pub fn skip_quiet(&mut self, active: bool, n: u64) {
        // n is below the next expiry: timer + n < interval <= 0xFFFF. Inactive, next holds it at 0.
        self.alpha_timer = if active {
            self.alpha_timer + n as u16
        } else {
            0
        };
    }
}

impl Block for Alpha {
    type In<'a> = AlphaIn;
    type Out = AlphaOut;

    fn reset(_: &Params) -> Alpha {
        Alpha::RESET
    }

    #[inline(always)]
    fn comb(&self, i: &AlphaIn, cfg: &Config, _: &Params) -> AlphaOut {
        AlphaOut {
            alpha_fire: i.active && expired(self.alpha_timer, cfg.alpha_interval),
        }
    }

    #[inline(always)]
    fn next(&mut self, i: &AlphaIn, o: &AlphaOut, cfg: &Config, _: &Params) {
        // spec 4.7, 4.9: a held reaction point (bypass, scheme bit 0) holds the process in its
        // reset state, alpha at its initial value.
        if cfg.rp_held() {
            *self = Alpha {
                alpha: cfg.alpha_init,
                ..Alpha::RESET
            };
            return;
        }
        // The first CNP after reset or bypass is not counted: alpha already holds its initial
        // value.
        let pend = self.alpha_pending || (i.cnp_event && i.active);
        if !i.active {
            // spec 4.3: inactive, alpha holds the initial value (the timer is held at 0).
            self.alpha = cfg.alpha_init;
            self.alpha_timer = 0;
            self.alpha_pending = pend;
        } else if o.alpha_fire {
            self.alpha = update(self.alpha, cfg.alpha_g, pend);
            self.alpha_timer = 0;
            self.alpha_pending = false;
        } else {
            // Not firing means timer + 1 < interval <= 0xFFFF: no wrap.
            self.alpha_timer += 1;
            self.alpha_pending = pend;
        }
    }
}

/// spec 4.3: one EWMA step, `alpha <- (1-g) alpha + g [CNP]`, rounded half up, saturating at 1023.
#[inline(always)]
pub fn update(alpha: u16, alpha_g: u16, cnp_seen: bool) -> u16 {
    let g = u32::from(alpha_g);
    let s = (u32::from(alpha) * g + 512) >> 10;
    if cnp_seen {
        (s + (1024 - g)).min(u32::from(ALPHA_MAX)) as u16
    } else {
        s as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_from_top_matches_surf() {
        // SURF reset G = 1020: 1023 -> 1019 -> 1015.
        assert_eq!(update(1023, 1020, false), 1019);
        assert_eq!(update(1019, 1020, false), 1015);
    }

    #[test]
    fn decay_floor_is_512_over_g() {
        let mut a = ALPHA_MAX;
        for _ in 0..10_000 {
            a = update(a, 1020, false);
        }
        assert_eq!(a, 128);
        let mut a = ALPHA_MAX;
        for _ in 0..100 {
            a = update(a, 512, false);
        }
        assert_eq!(a, 1);
    }

    #[test]
    fn cnp_saturates_instead_of_wrapping() {
        // SURF wraps 1023 -> 0 here.
        assert_eq!(update(1023, 512, true), 1023);
        // G = 0 (g = 1): 1023 with a CNP, 0 without.
        assert_eq!(update(77, 0, true), 1023);
        assert_eq!(update(77, 0, false), 0);
    }

    fn cfg(interval: u16) -> Config {
        Config {
            alpha_interval: interval,
            ..Config::reset(&Params::DEFAULT)
        }
    }

    #[test]
    fn inactive_holds_timer_and_ignores_first_cnp() {
        let i = AlphaIn {
            active: false,
            cnp_event: true,
        };
        let (c, p) = (cfg(1), Params::DEFAULT);
        let o = Alpha::RESET.comb(&i, &c, &p);
        assert_eq!(o, AlphaOut::IDLE);
        assert_eq!(Alpha::RESET.after(&i, &o, &c, &p), Alpha::RESET);
    }

    /// spec 4.3 alpha_init: while inactive alpha takes the initial value at every edge (and in
    /// bypass); once active it evolves from there.
    #[test]
    fn initial_alpha_while_inactive() {
        let p = Params::DEFAULT;
        let mut c = cfg(3);
        c.alpha_init = 400;
        let idle = AlphaIn {
            active: false,
            cnp_event: false,
        };
        let mut s = Alpha::RESET;
        assert_eq!(s.quiet_cycles(false, &c), 0);
        let o = s.comb(&idle, &c, &p);
        s.next(&idle, &o, &c, &p);
        assert_eq!(s.alpha, 400);
        assert_eq!(s.quiet_cycles(false, &c), u64::MAX);
        // Active, no CNP: at the third cycle alpha = floor((400 x 1020 + 512) / 1024) = 398.
        let on = AlphaIn {
            active: true,
            cnp_event: false,
        };
        for _ in 0..3 {
            let o = s.comb(&on, &c, &p);
            s.next(&on, &o, &c, &p);
        }
        assert_eq!(s.alpha, 398);
        // Bypass restores the initial value, not 1023.
        let b = Config { bypass: true, ..c };
        let o = s.comb(&on, &b, &p);
        s.next(&on, &o, &b, &p);
        assert_eq!((s.alpha, s.alpha_timer), (400, 0));
        // An injected inactive alpha of 7 with the reset alpha_init goes back to 1023.
        let r = cfg(3);
        let mut t = Alpha {
            alpha: 7,
            ..Alpha::RESET
        };
        let o = t.comb(&idle, &r, &p);
        t.next(&idle, &o, &r, &p);
        assert_eq!(t.alpha, 1023);
    }

    #[test]
    fn period_is_exactly_the_interval() {
        let i = AlphaIn {
            active: true,
            cnp_event: false,
        };
        let (c, p) = (cfg(5), Params::DEFAULT);
        let mut s = Alpha::RESET;
        let mut fires = vec![];
        for n in 0..20 {
            let o = s.comb(&i, &c, &p);
            if o.alpha_fire {
                fires.push(n);
            }
            s.next(&i, &o, &c, &p);
        }
        assert_eq!(fires, vec![4, 9, 14, 19]);
    }
}
