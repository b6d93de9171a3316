//! The CNP input path of the upstream block and its CNP counter.
//!
//! - [`CnpEdge`]: the `cnp` pin through a two-flop synchroniser (synchronous reset to 0), then a
//!   registered rising-edge detector (the base library's edge synchroniser with three stages: two
//!   synchroniser flops, one delay flop, one output flop). A pin that goes high in cycle `c` gives
//!   `cnpRe` high during cycle `c + 3`, for exactly one cycle.
//! - [`CntRstEdge`]: the counter-reset path. The block's one-shot counter is instantiated for a
//!   common clock, so its reset input skips the synchroniser and only the registered rising-edge
//!   detector remains: a 0 -> 1 of the `cnpCntRst` register bit gives one reset cycle one cycle
//!   later. A bit held at 1 resets nothing more.
//! - [`CnpCounter`]: the 16-bit counter of `cnpRe` rising edges (roll-over enabled), cleared by the
//!   reset edge (which wins over a count in the same cycle) and by `axisRst`. Its output feeds the
//!   block's `cnpCnt` register one cycle later (see `overseer.rs`).
//!
//! Every output is a register, so each block's combinational part is a read of its registers; the
//! edge functions take `rst` (the synchronous, active-high `axisRst`) because the upstream resets
//! are not uniform: the edge detectors load their delay flop from their input during reset, so no
//! edge is seen when reset ends with the input already high.

/// Two synchroniser flops, the delay flop and the registered rising edge of the `cnp` pin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnpEdge {
    /// First synchroniser flop.
    pub meta: bool,
    /// Second synchroniser flop: the synchronised level.
    pub sync: bool,
    /// The synchronised level one cycle earlier.
    pub dly: bool,
    /// `cnpRe`: high for one cycle per rising edge of the synchronised level.
    pub rising: bool,
}

impl CnpEdge {
    /// Power-up and reset value (all flops 0; the delay flop is reloaded during reset, see `next`).
    pub const POWER_UP: CnpEdge = CnpEdge {
        meta: false,
        sync: false,
        dly: false,
        rising: false,
    };

    /// `cnpRe` of this cycle.
    #[inline(always)]
    pub fn out(&self) -> bool {
        self.rising
    }

    /// The clock edge with pin value `cnp` sampled.
    #[inline(always)]
    pub fn next(&mut self, rst: bool, cnp: bool) {
        let sync = self.sync;
        if rst {
            *self = CnpEdge {
                meta: false,
                sync: false,
                dly: sync,
                rising: false,
            };
        } else {
            *self = CnpEdge {
                meta: cnp,
                sync: self.meta,
                dly: sync,
                rising: sync && !self.dly,
            };
        }
    }
}

/// The registered rising-edge detector on the `cnpCntRst` register bit (no synchroniser).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CntRstEdge {
    /// The input one cycle earlier.
    pub dly: bool,
    /// High for one cycle after each 0 -> 1 of the input.
    pub rising: bool,
}

impl CntRstEdge {
    pub const POWER_UP: CntRstEdge = CntRstEdge {
        dly: false,
        rising: false,
    };

    /// The counter reset of this cycle.
    #[inline(always)]
    pub fn out(&self) -> bool {
        self.rising
    }

    #[inline(always)]
    pub fn next(&mut self, rst: bool, level: bool) {
        *self = CntRstEdge {
            dly: level,
            rising: !rst && level && !self.dly,
        };
    }
}

/// The CNP counter: counts rising edges of `cnpRe`, 16 bits, wraps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnpCounter {
    /// `cnpRe` one cycle earlier.
    pub dly: bool,
    pub count: u16,
}

impl CnpCounter {
    pub const POWER_UP: CnpCounter = CnpCounter {
        dly: false,
        count: 0,
    };

    /// The count of this cycle (the counter's output port).
    #[inline(always)]
    pub fn out(&self) -> u16 {
        self.count
    }

    /// `pulse`: `cnpRe` of this cycle; `clear`: the reset edge of this cycle.
    #[inline(always)]
    pub fn next(&mut self, rst: bool, pulse: bool, clear: bool) {
        let mut count = self.count;
        if pulse && !self.dly {
            count = count.wrapping_add(1);
        }
        if clear || rst {
            count = 0;
        }
        *self = CnpCounter { dly: pulse, count };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pin_to_rising_edge_is_three_cycles_and_one_wide() {
        let mut e = CnpEdge::POWER_UP;
        let mut seen = Vec::new();
        for c in 0..10 {
            seen.push(e.out());
            e.next(false, c >= 2);
        }
        // pin high from cycle 2: rising during cycle 5 only.
        assert_eq!(
            seen,
            [false, false, false, false, false, true, false, false, false, false]
        );
    }

    #[test]
    fn reset_loads_the_delay_flop_so_no_edge_follows_it() {
        let mut e = CnpEdge::POWER_UP;
        for _ in 0..4 {
            e.next(false, true);
        }
        // A reset cycle clears both synchroniser flops: the level is seen rising again after it.
        e.next(true, true);
        assert_eq!(
            e,
            CnpEdge {
                meta: false,
                sync: false,
                dly: true,
                rising: false
            }
        );
        let mut r = CntRstEdge::POWER_UP;
        r.next(false, true);
        assert!(r.out());
        r.next(false, true);
        assert!(!r.out());
        let mut r = CntRstEdge::POWER_UP;
        r.next(true, true);
        r.next(false, true);
        assert!(!r.out(), "a level already high through reset is no edge");
    }
}
