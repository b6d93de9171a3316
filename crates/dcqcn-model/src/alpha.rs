//! Alpha update process (spec 4.3; RTL `dcqcn_alpha`).

use crate::fixed::expired;

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

/// The signals the alpha process reads in a cycle.
#[derive(Clone, Copy, Debug)]
pub struct AlphaIn {
    pub bypass: bool,
    pub active: bool,
    pub cnp_event: bool,
    /// G = 1 - g, Q0.10 (`cfg_alpha_g`).
    pub alpha_g: u16,
    pub interval_cycles: u16,
}

impl Alpha {
    pub const RESET: Alpha = Alpha {
        alpha: ALPHA_MAX,
        alpha_timer: 0,
        alpha_pending: false,
    };

    #[inline(always)]
    pub fn next(&self, i: &AlphaIn) -> Alpha {
        if i.bypass {
            return Alpha::RESET;
        }
        // The first CNP after reset or bypass is not counted: alpha already holds its initial 1023.
        let pend = self.alpha_pending || (i.cnp_event && i.active);
        let fire = i.active && expired(self.alpha_timer, i.interval_cycles);
        if fire {
            Alpha {
                alpha: update(self.alpha, i.alpha_g, pend),
                alpha_timer: 0,
                alpha_pending: false,
            }
        } else {
            Alpha {
                alpha: self.alpha,
                // Not firing means timer + 1 < interval <= 0xFFFF: no wrap.
                alpha_timer: if i.active { self.alpha_timer + 1 } else { 0 },
                alpha_pending: pend,
            }
        }
    }

    /// `alpha_fire` for this cycle (used by the counters and the trace).
    #[inline(always)]
    pub fn fires(&self, active: bool, interval_cycles: u16) -> bool {
        active && expired(self.alpha_timer, interval_cycles)
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

    #[test]
    fn inactive_holds_timer_and_ignores_first_cnp() {
        let i = AlphaIn {
            bypass: false,
            active: false,
            cnp_event: true,
            alpha_g: 1020,
            interval_cycles: 1,
        };
        assert_eq!(Alpha::RESET.next(&i), Alpha::RESET);
    }

    #[test]
    fn period_is_exactly_the_interval() {
        let i = AlphaIn {
            bypass: false,
            active: true,
            cnp_event: false,
            alpha_g: 1020,
            interval_cycles: 5,
        };
        let mut s = Alpha::RESET;
        let mut fires = vec![];
        for c in 0..20 {
            if s.fires(true, 5) {
                fires.push(c);
            }
            s = s.next(&i);
        }
        assert_eq!(fires, vec![4, 9, 14, 19]);
    }
}
