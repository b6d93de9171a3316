//! CNP synchroniser and rising-edge detector (spec 4.1; RTL `dcqcn_cnp_sync`).

/// Registers of the CNP input path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnpSync {
    pub cnp_meta: bool,
    pub cnp_sync: bool,
    pub cnp_prev: bool,
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
        self.cnp_sync && !self.cnp_prev
    }

    #[inline(always)]
    pub fn next(&self, cnp: bool) -> CnpSync {
        CnpSync {
            cnp_meta: cnp,
            cnp_sync: self.cnp_meta,
            cnp_prev: self.cnp_sync,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Edges seen per cycle for an input waveform.
    fn edges(wave: &[bool]) -> Vec<bool> {
        let mut s = CnpSync::RESET;
        wave.iter()
            .map(|&c| {
                let e = s.edge();
                s = s.next(c);
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
