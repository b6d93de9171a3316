//! The memories of `dcqcn_mq` (spec-mq 4.2, 5.2, 5.9; RTL `dcqcn_mq_mem`, one instance per memory
//! and read port).
//!
//! Each memory is a plain vector of its packed words, the bit layout of the spec's tables. The
//! model never models a memory's read latency or its bypass (spec-mq 4.1, 4.8): a process reads
//! S(t) and its write lands at the end of the cycle. Memories are never reset; [`MqMems::new`]
//! starts them at 0 (the init round writes every entry, spec-mq 4.3).

use super::obs::Field;

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

/// A memory of the block (spec-mq 4.2, 5.2, 5.9): its name (the [`MqMems`] field), its entry's
/// fields from bit 0 up (name, width), and the processes that read it. The RTL keeps one copy
/// per reader (spec-mq 4.2 "a memory read by k processes has k copies always written
/// together"), the `dcqcn_mq_mem` instance `u_<name>_<reader>` of `dcqcn_mq_core`; a memory with
/// no reader listed is the register file's own array (`dfx_mem`, [`DFX_ENTRIES`] entries, read
/// through the AXI4-Lite window only), one copy.
pub struct Memory {
    pub name: &'static str,
    pub fields: &'static [Field],
    pub readers: &'static [&'static str],
}

impl Memory {
    /// Bits of one entry.
    pub const fn width(&self) -> u32 {
        let mut w = 0;
        let mut i = 0;
        while i < self.fields.len() {
            w += self.fields[i].1;
            i += 1;
        }
        w
    }
}

/// Every memory, in the order of the [`MqMems`] fields: the one declaration of the memories and
/// their copies. scripts/vhdl2verilog.py reads this literal (each entry as written here, one
/// `Memory { .. }` per memory) to generate the lockstep's memory injection and dump for both HDLs
/// (spec-mq 8.2, 8.3), and checks each copy's width against the RTL.
pub const MEMORIES: [Memory; 12] = [
    Memory {
        name: "cc_byte_cnt_mem",
        fields: &[("credit", 32), ("stamp", 32)],
        readers: &["grant", "visit"],
    },
    Memory {
        name: "grant_cnt_mem",
        fields: &[("gcnt", 8)],
        readers: &["grant", "rpt", "visit"],
    },
    Memory {
        name: "done_cnt_mem",
        fields: &[("dcnt", 8)],
        readers: &["rpt", "grant", "visit"],
    },
    Memory {
        name: "sent_mem",
        fields: &[("sent", 32)],
        readers: &["rpt", "visit"],
    },
    Memory {
        name: "req_mem",
        fields: &[("req_bytes", 16)],
        readers: &["grant", "visit"],
    },
    Memory {
        name: "rate_mem",
        fields: &[("rc", 24), ("rt", 24)],
        readers: &["visit"],
    },
    Memory {
        name: "cc_rate_mem",
        fields: &[("cc_rate", 24)],
        readers: &["visit", "grant"],
    },
    Memory {
        name: "alpha_mem",
        fields: &[("alpha", 10), ("alpha_el", 16)],
        readers: &["visit"],
    },
    Memory {
        name: "cnp_merge_mem",
        fields: &[("merge_el", 16), ("dec_pending", 1), ("cnp_el", 24)],
        readers: &["visit"],
    },
    Memory {
        name: "byte_counter_mem",
        fields: &[("byte_cnt", 32), ("sent_seen", 32)],
        readers: &["visit"],
    },
    Memory {
        name: "t_bc_mem",
        fields: &[
            ("t_stage", 8),
            ("b_stage", 8),
            ("active", 1),
            ("inc_el", 24),
        ],
        readers: &["visit"],
    },
    Memory {
        name: "dfx_mem",
        fields: &[("type", 3), ("both", 1), ("rc", 24), ("stamp", 32)],
        readers: &[],
    },
];

/// Index of `REQ_MEM` in [`MEMORIES`] (compared only where `req_valid` is set, spec-mq 8.2).
pub const REQ_MEM: usize = 4;

/// One RTL copy of a memory: [`MEMORIES`]`[memory]` as read by `reader` (None: the only copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemCopy {
    pub memory: usize,
    pub reader: Option<&'static str>,
}

impl MemCopy {
    /// `rate_mem_visit`, `dfx_mem`: the RTL instance without its `u_`.
    pub fn name(&self) -> String {
        let m = MEMORIES[self.memory].name;
        match self.reader {
            Some(r) => format!("{m}_{r}"),
            None => m.to_string(),
        }
    }
}

/// Every copy of every memory, memories in [`MEMORIES`] order and each one's readers in their
/// order: the copy numbers of the lockstep's memory injection and dump.
pub fn mem_copies() -> Vec<MemCopy> {
    let mut v = vec![];
    for (memory, m) in MEMORIES.iter().enumerate() {
        if m.readers.is_empty() {
            v.push(MemCopy {
                memory,
                reader: None,
            });
        }
        for &r in m.readers {
            v.push(MemCopy {
                memory,
                reader: Some(r),
            });
        }
    }
    v
}

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

    /// Entries of memory `m` ([`MEMORIES`] index).
    pub fn depth(&self, m: usize) -> usize {
        self.entries(m).len()
    }

    /// Entry `i` of memory `m` ([`MEMORIES`] index), packed as the memory holds it.
    pub fn entry(&self, m: usize, i: usize) -> u64 {
        self.entries(m)[i]
    }

    /// Every entry of memory `m`, packed.
    pub fn entries(&self, m: usize) -> Vec<u64> {
        fn w<T: Copy + Into<u64>>(v: &[T]) -> Vec<u64> {
            v.iter().map(|&x| x.into()).collect()
        }
        match m {
            0 => self.cc_byte_cnt_mem.clone(),
            1 => w(&self.grant_cnt_mem),
            2 => w(&self.done_cnt_mem),
            3 => w(&self.sent_mem),
            4 => w(&self.req_mem),
            5 => self.rate_mem.clone(),
            6 => w(&self.cc_rate_mem),
            7 => w(&self.alpha_mem),
            8 => self.cnp_merge_mem.clone(),
            9 => self.byte_counter_mem.clone(),
            10 => self.t_bc_mem.clone(),
            11 => self.dfx_mem.clone(),
            _ => panic!("memory {m}: there are {} memories", MEMORIES.len()),
        }
    }

    /// Sets entry `i` of memory `m` to `v` cut to the memory's width.
    pub fn set_entry(&mut self, m: usize, i: usize, v: u64) {
        let v = v & low_mask(MEMORIES[m].width());
        match m {
            0 => self.cc_byte_cnt_mem[i] = v,
            1 => self.grant_cnt_mem[i] = v as u8,
            2 => self.done_cnt_mem[i] = v as u8,
            3 => self.sent_mem[i] = v as u32,
            4 => self.req_mem[i] = v as u16,
            5 => self.rate_mem[i] = v,
            6 => self.cc_rate_mem[i] = v as u32,
            7 => self.alpha_mem[i] = v as u32,
            8 => self.cnp_merge_mem[i] = v,
            9 => self.byte_counter_mem[i] = v,
            10 => self.t_bc_mem[i] = v,
            11 => self.dfx_mem[i] = v,
            _ => panic!("memory {m}: there are {} memories", MEMORIES.len()),
        }
    }

    /// The value of field `f` of memory `m`'s entry `v` (packed).
    pub fn field_of(m: usize, f: usize, v: u64) -> u64 {
        let fields = MEMORIES[m].fields;
        let at: u32 = fields[..f].iter().map(|x| x.1).sum();
        (v >> at) & low_mask(fields[f].1)
    }

    /// `CC_BYTE_CNT_MEM[q]` as (`credit`, `stamp`).
    #[inline]
    pub fn credit(&self, q: usize) -> Credit {
        Credit::unpack(self.cc_byte_cnt_mem[q])
    }
}

/// The `bits` low bits set (`bits` at most 64).
pub const fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
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
    fn memories_follow_the_mqmems_fields_and_the_write_streams() {
        let m = MqMems::new(3);
        // widths of the packed layouts above and of the write streams (obs.rs)
        let widths: Vec<u32> = MEMORIES.iter().map(Memory::width).collect();
        assert_eq!(widths, [64, 8, 8, 32, 16, 48, 24, 26, 41, 64, 41, 60]);
        for (k, mem) in MEMORIES.iter().enumerate() {
            let depth = if mem.readers.is_empty() {
                DFX_ENTRIES
            } else {
                3
            };
            assert_eq!(m.depth(k), depth, "{}", mem.name);
        }
        assert_eq!(MEMORIES[REQ_MEM].name, "req_mem");
        assert_eq!(mem_copies().len(), 20);
        assert_eq!(mem_copies()[19].name(), "dfx_mem");
        assert_eq!(mem_copies()[3].name(), "grant_cnt_mem_rpt");
    }

    #[test]
    fn set_entry_cuts_to_the_width_and_entry_reads_it_back() {
        let mut m = MqMems::new(4);
        for (k, mem) in MEMORIES.iter().enumerate() {
            m.set_entry(k, 2, u64::MAX);
            assert_eq!(m.entry(k, 2), low_mask(mem.width()), "{}", mem.name);
            assert_eq!(m.entry(k, 1), 0);
        }
        let r = m.record(2);
        assert_eq!((r.rc, r.active, r.inc_el), (M24, true, M24));
        assert_eq!(MqMems::field_of(8, 1, 1 << 16), 1);
        assert_eq!(MqMems::field_of(8, 2, 3 << 17), 3);
    }

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
