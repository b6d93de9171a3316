//! CNP synchroniser and rising-edge detector (spec 4.1; RTL `dcqcn_cnp_sync`).

use crate::block::Block;
use crate::{Config, Params};

/// Registers of the CNP input path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnpSync {
    pub cnp_meta: bool,
    pub cnp_sync: bool,
    pub cnp_prev: bool,
}

/// The input port of the CNP path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnpSyncIn {
    /// The asynchronous `cnp` pin.
    pub cnp: bool,
}

/// The outputs of the CNP path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnpSyncOut {
    /// One cycle per rising edge of the synchronised input (counted even in bypass).
    pub cnp_edge: bool,
    /// `cnp_edge & ~cfg_bypass`: the edge the reaction point acts on.
    pub cnp_event: bool,
}

impl CnpSyncOut {
    /// No edge.
    pub const IDLE: CnpSyncOut = CnpSyncOut {
        cnp_edge: false,
        cnp_event: false,
    };
}

impl CnpSync {
    pub const RESET: CnpSync = CnpSync {
        cnp_meta: false,
        cnp_sync: false,
        cnp_prev: false,
    };

    /// `cnp_edge`: one cycle per rising edge of the synchronised input.
    #[inline(always)]
    pub fn edge(&self) -> bool {
        self.cnp_sync & !self.cnp_prev
    }

    /// The clock edge: the pin enters the synchroniser, each stage takes the one before.
    #[inline(always)]
    pub fn shift(&mut self, cnp: bool) {
        *self = CnpSync {
            cnp_meta: cnp,
            cnp_sync: self.cnp_meta,
            cnp_prev: self.cnp_sync,
        };
    }

    /// Every stage holds `level`: no edge can come while the pin stays at `level`.
    #[inline(always)]
    pub fn settled(&self, level: bool) -> bool {
        self.cnp_meta == level && self.cnp_sync == level && self.cnp_prev == level
    }
}

impl Block for CnpSync {
    type In<'a> = CnpSyncIn;
    type Out = CnpSyncOut;

    fn reset(_: &Params) -> CnpSync {
        CnpSync::RESET
    }

    #[inline(always)]
    fn comb(&self, _: &CnpSyncIn, cfg: &Config, _: &Params) -> CnpSyncOut {
        let cnp_edge = self.edge();
        CnpSyncOut {
            cnp_edge,
            cnp_event: cnp_edge && !cfg.rp_held(),
        }
    }

    #[inline(always)]
    fn next(&mut self, i: &CnpSyncIn, _: &CnpSyncOut, _: &Config, _: &Params) {
        self.shift(i.cnp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Edges seen per cycle for an input waveform.
    fn edges(wave: &[bool]) -> Vec<bool> {
        let cfg = Config::reset(&Params::DEFAULT);
        let mut s = CnpSync::RESET;
        wave.iter()
            .map(|&c| {
                let e = s.edge();
                s.next(
                    &CnpSyncIn { cnp: c },
                    &CnpSyncOut::IDLE,
                    &cfg,
                    &Params::DEFAULT,
                );
                e
            })
            .collect()
    }

    #[test]
    fn edge_two_cycles_after_sample() {
        // cnp high at cycle 1 -> edge during cycle 3.
        let e = edges(&[false, true, false, false, false, false]);
        assert_eq!(e, vec![false, false, false, true, false, false]);
    }

    #[test]
    fn held_level_is_one_cnp_and_alternate_pulses_each_count() {
        let held = edges(&[true; 8]);
        assert_eq!(held.iter().filter(|&&x| x).count(), 1);
        let alt: Vec<bool> = (0..10).map(|i| i % 2 == 0).collect();
        assert_eq!(edges(&alt).iter().filter(|&&x| x).count(), 4);
    }
}
