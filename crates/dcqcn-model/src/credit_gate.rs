//! Credit accumulator, beat gate and output register (spec 5; RTL `dcqcn_credit_gate`).

/// Widest beat: 64 bytes, eight 64-bit words. Narrower beats use the low words.
pub const DATA_WORDS: usize = 8;

/// Popcount of a tkeep vector: the byte count of a beat (spec 5.3).
#[inline(always)]
pub fn keep_bytes(tkeep: u64) -> u32 {
    tkeep.count_ones()
}

/// Registers of the datapath.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreditGate {
    /// Bytes per clock from the previous cycle's Rc, Q16.16.
    pub bpc: u32,
    /// Credit, Q32.16 bytes (48 bits).
    pub credit: u64,
    pub m_valid: bool,
    pub m_data: [u64; DATA_WORDS],
    pub m_keep: u64,
    pub m_last: bool,
}

/// The upstream beat offered this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxisIn {
    pub tdata: [u64; DATA_WORDS],
    pub tkeep: u64,
    pub tvalid: bool,
    pub tlast: bool,
}

/// The signals the datapath registers read in a cycle.
#[derive(Clone, Copy, Debug)]
pub struct GateIn<'a> {
    pub s: &'a AxisIn,
    pub m_tready: bool,
    /// `s_axis_tvalid & s_axis_tready`.
    pub load: bool,
    /// Bytes of the loaded beat (0 without a load).
    pub bytes_in: u32,
    pub bypass: bool,
    /// bpc(Rc) of this cycle.
    pub bpc_next: u32,
    /// max(cfg_credit_cap, DATA_BYTES) << 16.
    pub cap_q: u64,
}

impl CreditGate {
    pub fn reset(bpc_line_rate: u32) -> CreditGate {
        CreditGate {
            bpc: bpc_line_rate,
            credit: 0,
            m_valid: false,
            m_data: [0; DATA_WORDS],
            m_keep: 0,
            m_last: false,
        }
    }

    /// `beat_ok`: the credit covers the offered beat's bytes (tkeep-aware), or bypass.
    #[inline(always)]
    pub fn beat_ok(&self, bypass: bool, tkeep: u64) -> bool {
        bypass || self.credit >= u64::from(keep_bytes(tkeep)) << 16
    }

    /// `s_axis_tready` (combinational).
    #[inline(always)]
    pub fn s_tready(&self, rst: bool, m_tready: bool, beat_ok: bool) -> bool {
        !rst && (!self.m_valid || m_tready) && beat_ok
    }

    /// Next state (pure form, for tests and readers; [`CreditGate::update`] is the same in place).
    pub fn next(&self, i: &GateIn<'_>) -> CreditGate {
        let mut n = *self;
        n.update(i);
        n
    }

    /// Advances the registers in place: the per-cycle hot path avoids copying the data beat
    /// unless one is loaded. Every right-hand side reads the registers before this edge.
    #[inline(always)]
    pub fn update(&mut self, i: &GateIn<'_>) {
        self.credit = if i.bypass {
            0
        } else {
            // credit >= charge by construction of beat_ok; the sum is at most 49 bits.
            (self.credit - (u64::from(i.bytes_in) << 16) + u64::from(self.bpc)).min(i.cap_q)
        };
        self.bpc = i.bpc_next;
        if i.load {
            self.m_valid = true;
            self.m_data = i.s.tdata;
            self.m_keep = i.s.tkeep;
            self.m_last = i.s.tlast;
        } else {
            self.m_valid &= !i.m_tready;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gate_is_tkeep_aware() {
        let mut g = CreditGate::reset(524_288);
        g.credit = 3 << 16;
        assert!(g.beat_ok(false, 0b0000_0111));
        assert!(!g.beat_ok(false, 0b0000_1111));
        assert!(g.beat_ok(false, 0));
        assert!(g.beat_ok(true, 0xFF));
    }

    const IDLE: AxisIn = AxisIn {
        tdata: [0; DATA_WORDS],
        tkeep: 0,
        tvalid: false,
        tlast: false,
    };

    fn idle(m_tready: bool, cap_q: u64) -> GateIn<'static> {
        GateIn {
            s: &IDLE,
            m_tready,
            load: false,
            bytes_in: 0,
            bypass: false,
            bpc_next: 524_288,
            cap_q,
        }
    }

    #[test]
    fn credit_accrues_and_caps() {
        let g = CreditGate::reset(524_288);
        let cap_q = 20u64 << 16;
        let g1 = g.next(&idle(true, cap_q));
        assert_eq!(g1.credit, 8 << 16);
        let g3 = g1.next(&idle(true, cap_q)).next(&idle(true, cap_q));
        assert_eq!(g3.credit, cap_q);
        // A beat of 8 bytes is charged, the cycle's accrual added, the cap applied after.
        let g4 = g3.next(&GateIn {
            load: true,
            bytes_in: 8,
            ..idle(true, cap_q)
        });
        assert_eq!(g4.credit, 20 << 16);
        assert!(g4.m_valid);
    }

    #[test]
    fn output_register_holds_until_handshake() {
        let mut g = CreditGate::reset(0);
        g.m_valid = true;
        assert!(g.next(&idle(false, 8 << 16)).m_valid);
        assert!(!g.next(&idle(true, 8 << 16)).m_valid);
    }
}
