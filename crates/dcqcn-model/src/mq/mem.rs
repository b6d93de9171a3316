//! The memories of `dcqcn_mq` (spec-mq 4.2, 5.2, 5.9; RTL `dcqcn_mq_mem`, one instance per memory
//! and read port).
//!
//! Each memory is a plain vector of its packed words, the bit layout of the spec's tables. The
//! model never models a memory's read latency or its bypass (spec-mq 4.1, 4.8): a process reads
//! S(t) and its write lands at the end of the cycle. Memories are never reset; [`MqMems::new`]
//! starts them at 0 (the init round writes every entry, spec-mq 4.3).

/// Width masks of the fields (spec-mq 5.1, 5.2).
pub const M24: u32 = (1 << 24) - 1;

/// Every memory of the block, named as spec-mq 4.2, 5.2 and 5.9 name them (lower case). Entry q
/// of a per-QP memory is QP q; `dfx_mem` has 64 entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MqMems {
    /// `credit` [31:0] (signed, 1/1024 byte), `stamp` [63:32].
    pub cc_byte_cnt_mem: Vec<u64>,
    /// `gcnt` [7:0].
    pub grant_cnt_mem: Vec<u8>,
    /// `dcnt` [7:0].
    pub done_cnt_mem: Vec<u8>,
    /// `sent` [31:0].
    pub sent_mem: Vec<u32>,
    /// `req_bytes` [15:0].
    pub req_mem: Vec<u16>,
    /// `rc` [23:0], `rt` [47:24].
    pub rate_mem: Vec<u64>,
    /// `cc_rate` [23:0].
    pub cc_rate_mem: Vec<u32>,
    /// `alpha` [9:0], `alpha_el` [25:10].
    pub alpha_mem: Vec<u32>,
    /// `merge_el` [15:0], `dec_pending` [16], `cnp_el` [40:17].
    pub cnp_merge_mem: Vec<u64>,
    /// `byte_cnt` [31:0], `sent_seen` [63:32].
    pub byte_counter_mem: Vec<u64>,
    /// `t_stage` [7:0], `b_stage` [15:8], `active` [16], `inc_el` [40:17].
    pub t_bc_mem: Vec<u64>,
    /// The DFX window (spec-mq 5.9): `type` [2:0], `both` [3], `rc` [27:4], `stamp` [59:28].
    pub dfx_mem: Vec<u64>,
}

/// Entries of the DFX window.
pub const DFX_ENTRIES: usize = 64;

impl MqMems {
    /// Every memory of `qps` entries, all 0.
    pub fn new(qps: u32) -> MqMems {
        let n = qps as usize;
        MqMems {
            cc_byte_cnt_mem: vec![0; n],
            grant_cnt_mem: vec![0; n],
            done_cnt_mem: vec![0; n],
            sent_mem: vec![0; n],
            req_mem: vec![0; n],
            rate_mem: vec![0; n],
            cc_rate_mem: vec![0; n],
            alpha_mem: vec![0; n],
            cnp_merge_mem: vec![0; n],
            byte_counter_mem: vec![0; n],
            t_bc_mem: vec![0; n],
            dfx_mem: vec![0; DFX_ENTRIES],
        }
    }

    /// The per-QP DCQCN record of QP q (spec-mq 5.2), unpacked.
    #[inline]
    pub fn record(&self, q: usize) -> Record {
        Record::unpack(
            self.rate_mem[q],
            self.cc_rate_mem[q],
            self.alpha_mem[q],
            self.cnp_merge_mem[q],
            self.byte_counter_mem[q],
            self.t_bc_mem[q],
        )
    }

    /// Writes the record of QP q into its six memories (the visit's write port).
    #[inline]
    pub fn set_record(&mut self, q: usize, r: &Record) {
        self.rate_mem[q] = u64::from(r.rc & M24) | (u64::from(r.rt & M24) << 24);
        self.cc_rate_mem[q] = r.cc_rate & M24;
        self.alpha_mem[q] = u32::from(r.alpha & 0x3FF) | (u32::from(r.alpha_el) << 10);
        self.cnp_merge_mem[q] = u64::from(r.merge_el)
            | (u64::from(r.dec_pending) << 16)
            | (u64::from(r.cnp_el & M24) << 17);
        self.byte_counter_mem[q] = u64::from(r.byte_cnt) | (u64::from(r.sent_seen) << 32);
        self.t_bc_mem[q] = u64::from(r.t_stage)
            | (u64::from(r.b_stage) << 8)
            | (u64::from(r.active) << 16)
            | (u64::from(r.inc_el & M24) << 17);
    }

    /// `CC_BYTE_CNT_MEM[q]` as (`credit`, `stamp`).
    #[inline]
    pub fn credit(&self, q: usize) -> Credit {
        Credit::unpack(self.cc_byte_cnt_mem[q])
    }
}

/// One entry of `CC_BYTE_CNT_MEM`: the QP's token bucket (spec-mq 4.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Credit {
    /// 1/1024 byte, signed.
    pub credit: i32,
    /// The `now` of the last refill.
    pub stamp: u32,
}

impl Credit {
    #[inline]
    pub fn unpack(w: u64) -> Credit {
        Credit {
            credit: w as u32 as i32,
            stamp: (w >> 32) as u32,
        }
    }
    #[inline]
    pub fn pack(&self) -> u64 {
        u64::from(self.credit as u32) | (u64::from(self.stamp) << 32)
    }
}

/// The per-QP DCQCN record (spec-mq 5.2), spread over `RATE_MEM`, `CC_RATE_MEM`, `ALPHA_MEM`,
/// `CNP_MERGE_MEM`, `BYTE_COUNTER_MEM` and `T_BC_MEM`. Field widths as the spec's table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub rc: u32,
    pub rt: u32,
    pub cc_rate: u32,
    pub alpha: u16,
    pub alpha_el: u16,
    pub merge_el: u16,
    pub dec_pending: bool,
    pub cnp_el: u32,
    pub byte_cnt: u32,
    pub sent_seen: u32,
    pub t_stage: u8,
    pub b_stage: u8,
    pub active: bool,
    pub inc_el: u32,
}

impl Record {
    #[inline]
    pub fn unpack(rate: u64, cc_rate: u32, alpha: u32, merge: u64, bytes: u64, tbc: u64) -> Record {
        Record {
            rc: (rate as u32) & M24,
            rt: ((rate >> 24) as u32) & M24,
            cc_rate: cc_rate & M24,
            alpha: (alpha & 0x3FF) as u16,
            alpha_el: (alpha >> 10) as u16,
            merge_el: merge as u16,
            dec_pending: (merge >> 16) & 1 == 1,
            cnp_el: ((merge >> 17) as u32) & M24,
            byte_cnt: bytes as u32,
            sent_seen: (bytes >> 32) as u32,
            t_stage: tbc as u8,
            b_stage: (tbc >> 8) as u8,
            active: (tbc >> 16) & 1 == 1,
            inc_el: ((tbc >> 17) as u32) & M24,
        }
    }

    /// The values of the `wv` stream's fields (obs.rs `STREAMS[0]`), in its order.
    pub fn wv_fields(&self) -> [u64; 14] {
        [
            u64::from(self.rc),
            u64::from(self.rt),
            u64::from(self.cc_rate),
            u64::from(self.alpha),
            u64::from(self.alpha_el),
            u64::from(self.merge_el),
            u64::from(self.dec_pending),
            u64::from(self.cnp_el),
            u64::from(self.byte_cnt),
            u64::from(self.sent_seen),
            u64::from(self.t_stage),
            u64::from(self.b_stage),
            u64::from(self.active),
            u64::from(self.inc_el),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_packs_and_unpacks_at_full_field_widths() {
        let r = Record {
            rc: M24,
            rt: 0xABCDEF,
            cc_rate: 0x123456,
            alpha: 0x3FF,
            alpha_el: 0xFFFF,
            merge_el: 0xFFFE,
            dec_pending: true,
            cnp_el: M24 - 1,
            byte_cnt: u32::MAX,
            sent_seen: 0x8000_0001,
            t_stage: 255,
            b_stage: 7,
            active: true,
            inc_el: 0x800001,
        };
        let mut m = MqMems::new(2);
        m.set_record(1, &r);
        assert_eq!(m.record(1), r);
        assert_eq!(m.record(0), Record::default());
        assert!(m.rate_mem[1] < 1 << 48 && m.cnp_merge_mem[1] < 1 << 41);
        assert!(m.alpha_mem[1] < 1 << 26 && m.t_bc_mem[1] < 1 << 41);
        let c = Credit {
            credit: i32::MIN,
            stamp: 7,
        };
        assert_eq!(Credit::unpack(c.pack()), c);
    }
}
