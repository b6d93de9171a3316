//! What the lockstep observes of `dcqcn_mq` every cycle (spec-mq 8.1, 8.2), declared once.
//!
//! The HDL core `dcqcn_mq_core` (both HDLs) drives three observation ports with exactly these
//! layouts, and the model's `MqBlock::obs` returns the same record:
//!
//! - `obs_state`, [`STATE_WIDTH`] bits: the fields of [`STATE_FIELDS`] in that order, the first at
//!   bit 0, each as many bits as its width (a signed field as its two's complement bits);
//! - `obs_bitmaps`, 7 x `QPS` bits: bitmap k of [`BITMAPS`] at bits `k*QPS .. k*QPS+QPS-1`, QP q at
//!   bit `k*QPS + q`;
//! - `obs_writes`, [`WRITES_WIDTH`] bits: the memory-write streams of [`STREAMS`] in that order,
//!   each `valid` (1 bit), then `qp` (12 bits; for `wd` the entry index), then `data` (the stream's
//!   width), the first stream at bit 0. A stream that does not write this cycle has `valid` 0 and
//!   `qp` and `data` 0.
//!
//! All three are sampled in cycle t with the cycle's inputs applied, before its closing clock edge:
//! the state is S(t), the registers at the start of the cycle (spec-mq 4.1), and the write streams
//! are the writes the cycle makes at that edge (write enable, address and data of cycle t).

/// One field of the state record: its name (spec-mq 4.2 and 6.2; `cfg_` for a configuration
/// register) and its width in bits (at most 64).
pub type Field = (&'static str, u32);

/// The state record: engine registers (spec-mq 4.2), configuration registers (6.2), counters and
/// DFX registers (6.2, 5.9), in the order of the `obs_state` port.
pub const STATE_FIELDS: &[Field] = &[
    // engine (4.2)
    ("now", 32),
    ("scan_q", 12),
    ("init", 1),
    ("rr", 12),
    ("gx_valid", 1),
    ("gx_qp", 12),
    ("rx_valid", 1),
    ("rx_qp", 12),
    ("rx_bytes", 16),
    ("pcredit", 32),
    ("g_valid", 1),
    ("g_qp", 12),
    ("g_bytes", 16),
    ("wpend", 1),
    ("wq", 12),
    ("wword", 6),
    ("wdata", 32),
    ("wstrb", 4),
    ("rpend", 1),
    ("rq", 12),
    ("rword", 6),
    ("bvalid", 1),
    ("bresp", 2),
    ("rvalid", 1),
    ("rdata", 32),
    ("rresp", 2),
    // configuration (6.2)
    ("cfg_dcqcn_hw_en", 1),
    ("cfg_hw_rate_throttle_en", 1),
    ("cfg_tx_wqe_ost_limit_en", 1),
    ("cfg_speed_limiter_en", 1),
    ("cfg_cnp_merge_period", 16),
    ("cfg_nocnp_timer_th", 24),
    ("cfg_byte_cnt_th", 32),
    ("cfg_max_rate", 24),
    ("cfg_alpha_timer_th", 16),
    ("cfg_upd_alpha_g", 10),
    ("cfg_alpha_rate_shift", 4),
    ("cfg_alpha_init", 10),
    ("cfg_rate_ai", 24),
    ("cfg_rate_hai", 24),
    ("cfg_rate_min", 24),
    ("cfg_stage_threshold", 8),
    ("cfg_clamp_tgt", 1),
    ("cfg_cnp_timer_thrd", 24),
    ("cfg_ost_limit", 8),
    ("cfg_ost_limit_cnp", 8),
    ("cfg_credit_cap", 21),
    ("cfg_dfx_en", 1),
    ("cfg_dfx_wrap", 1),
    ("cfg_dfx_sel", 6),
    ("cfg_dfx_qp", 12),
    // counters (6.2)
    ("cnt_cnp", 32),
    ("cnt_dec", 32),
    ("cnt_inc_fr", 32),
    ("cnt_inc_ai", 32),
    ("cnt_inc_hai", 32),
    ("cnt_inc_timer", 32),
    ("cnt_inc_byte", 32),
    ("cnt_grant", 32),
    ("cnt_grant_bytes", 64),
    // the high word latched by a read of cnt_grant_bytes_lo (6.1)
    ("cnt_grant_bytes_latch", 32),
    ("cnt_req", 32),
    ("cnt_req_drop", 32),
    ("cnt_rpt", 32),
    ("cnt_rpt_spurious", 32),
    ("cnt_bad_qp", 32),
    ("cnt_init_drop", 32),
    // DFX window (5.9)
    ("dfx_count", 7),
    ("dfx_wptr", 6),
    ("dfx_lost", 1),
    ("dfx_n_dec", 10),
    ("dfx_n_byte", 10),
    ("dfx_n_timer", 10),
    ("dfx_time", 32),
];

/// Width of `obs_state`.
pub const STATE_WIDTH: u32 = {
    let mut w = 0;
    let mut i = 0;
    while i < STATE_FIELDS.len() {
        w += STATE_FIELDS[i].1;
        i += 1;
    }
    w
};

/// The seven per-QP bitmaps (spec-mq 4.2), in the order of `obs_bitmaps`.
pub const BITMAPS: [&str; 7] = [
    "req_valid",
    "rate_ok",
    "ost_lt_hi",
    "ost_lt_lo",
    "lim8",
    "cnp_flag",
    "arb_mask",
];

/// A memory-write stream (spec-mq 8.2): its name, the width of its data, and the data's fields
/// from bit 0 up (name, width).
pub struct Stream {
    pub name: &'static str,
    pub width: u32,
    pub fields: &'static [Field],
}

/// The five memory-write streams, in the order of `obs_writes`.
pub const STREAMS: [Stream; 5] = [
    // the visit: RATE_MEM, CC_RATE_MEM, ALPHA_MEM, CNP_MERGE_MEM, BYTE_COUNTER_MEM, T_BC_MEM (5.2)
    Stream {
        name: "wv",
        width: 244,
        fields: &[
            ("rc", 24),
            ("rt", 24),
            ("cc_rate", 24),
            ("alpha", 10),
            ("alpha_el", 16),
            ("merge_el", 16),
            ("dec_pending", 1),
            ("cnp_el", 24),
            ("byte_cnt", 32),
            ("sent_seen", 32),
            ("t_stage", 8),
            ("b_stage", 8),
            ("active", 1),
            ("inc_el", 24),
        ],
    },
    // the grant process: CC_BYTE_CNT_MEM, GRANT_CNT_MEM
    Stream {
        name: "wg",
        width: 72,
        fields: &[("credit", 32), ("stamp", 32), ("gcnt", 8)],
    },
    // the report process: DONE_CNT_MEM, SENT_MEM
    Stream {
        name: "wr",
        width: 40,
        fields: &[("dcnt", 8), ("sent", 32)],
    },
    // the request input: REQ_MEM
    Stream {
        name: "wq",
        width: 16,
        fields: &[("req_bytes", 16)],
    },
    // the DFX window: the entry (5.9) at index `qp`
    Stream {
        name: "wd",
        width: 60,
        fields: &[("type", 3), ("both", 1), ("rc", 24), ("stamp", 32)],
    },
];

/// Width of `obs_writes`.
pub const WRITES_WIDTH: u32 = {
    let mut w = 0;
    let mut i = 0;
    while i < STREAMS.len() {
        w += 13 + STREAMS[i].width;
        i += 1;
    }
    w
};

/// One memory write of a cycle (or none: `valid` false, the rest 0). `data` holds the stream's
/// data from bit 0 up, 64 bits per word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteObs {
    pub valid: bool,
    pub qp: u16,
    pub data: [u64; 4],
}

impl WriteObs {
    /// A write of `fields` values (in the stream's field order).
    pub fn of(stream: &Stream, qp: u16, values: &[u64]) -> WriteObs {
        let mut data = [0u64; 4];
        let mut at = 0;
        for (&(_, w), &v) in stream.fields.iter().zip(values) {
            put_bits(&mut data, at, w, v);
            at += w;
        }
        WriteObs {
            valid: true,
            qp,
            data,
        }
    }

    /// The value of the stream's field `i`.
    pub fn field(&self, stream: &Stream, i: usize) -> u64 {
        let at: u32 = stream.fields[..i].iter().map(|f| f.1).sum();
        get_bits(&self.data, at, stream.fields[i].1)
    }
}

/// Everything observed in one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MqObs {
    /// One value per [`STATE_FIELDS`] entry, zero-extended to 64 bits.
    pub state: Vec<u64>,
    /// One vector per [`BITMAPS`] entry: QP q is bit q % 64 of word q / 64.
    pub bitmaps: [Vec<u64>; 7],
    /// One write per [`STREAMS`] entry.
    pub writes: [WriteObs; 5],
}

/// The low `width` bits (at most 64) set.
fn low_bits(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

/// Insert the low `width` bits (at most 64) of `v` at bit `at` of a little-endian word vector (a
/// word or two at a time: the lockstep packs every cycle's writes with it).
pub fn put_bits(words: &mut [u64], at: u32, width: u32, v: u64) {
    if width == 0 {
        return;
    }
    let mask = low_bits(width);
    let v = v & mask;
    let (w, s) = ((at / 64) as usize, at % 64);
    words[w] = (words[w] & !(mask << s)) | (v << s);
    if s + width > 64 {
        // the bits that did not fit the first word
        let done = 64 - s;
        words[w + 1] = (words[w + 1] & !(mask >> done)) | (v >> done);
    }
}

/// `width` bits (at most 64) at bit `at` of a little-endian word vector.
pub fn get_bits(words: &[u64], at: u32, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    let (w, s) = ((at / 64) as usize, at % 64);
    let mut v = words[w] >> s;
    if s + width > 64 {
        v |= words[w + 1] << (64 - s);
    }
    v & low_bits(width)
}

/// The index of a state field by name.
pub fn state_index(name: &str) -> Option<usize> {
    STATE_FIELDS.iter().position(|f| f.0 == name)
}

impl MqObs {
    /// The three observation ports as 32-bit words (little-endian), as the HDL drives them.
    pub fn pack(&self, qps: u32) -> [Vec<u32>; 3] {
        let to32 = |w: &[u64], bits: u32| -> Vec<u32> {
            (0..bits.div_ceil(32) as usize)
                .map(|i| (w[i / 2] >> (32 * (i % 2))) as u32)
                .collect()
        };
        let mut st = vec![0u64; STATE_WIDTH.div_ceil(64) as usize];
        let mut at = 0;
        for (f, &v) in STATE_FIELDS.iter().zip(&self.state) {
            put_bits(&mut st, at, f.1, v);
            at += f.1;
        }
        let bm_bits = 7 * qps;
        let mut bm = vec![0u64; bm_bits.div_ceil(64) as usize];
        for (k, map) in self.bitmaps.iter().enumerate() {
            for q in 0..qps {
                let v = (map[(q / 64) as usize] >> (q % 64)) & 1;
                put_bits(&mut bm, k as u32 * qps + q, 1, v);
            }
        }
        let mut wr = vec![0u64; WRITES_WIDTH.div_ceil(64) as usize];
        let mut at = 0;
        for (s, w) in STREAMS.iter().zip(&self.writes) {
            put_bits(&mut wr, at, 1, u64::from(w.valid));
            put_bits(&mut wr, at + 1, 12, u64::from(w.qp));
            for b in 0..s.width {
                put_bits(&mut wr, at + 13 + b, 1, get_bits(&w.data, b, 1));
            }
            at += 13 + s.width;
        }
        [
            to32(&st, STATE_WIDTH),
            to32(&bm, bm_bits),
            to32(&wr, WRITES_WIDTH),
        ]
    }

    /// The record the HDL's three observation ports hold (32-bit little-endian words each).
    pub fn unpack(qps: u32, state: &[u32], bitmaps: &[u32], writes: &[u32]) -> MqObs {
        let to64 = |w: &[u32]| -> Vec<u64> {
            w.chunks(2)
                .map(|c| u64::from(c[0]) | c.get(1).map_or(0, |&h| u64::from(h) << 32))
                .collect()
        };
        let (st, bm, wr) = (to64(state), to64(bitmaps), to64(writes));
        let mut at = 0;
        let state = STATE_FIELDS
            .iter()
            .map(|f| {
                let v = get_bits(&st, at, f.1);
                at += f.1;
                v
            })
            .collect();
        let bitmaps = std::array::from_fn(|k| {
            let mut map = vec![0u64; qps.div_ceil(64) as usize];
            for q in 0..qps {
                put_bits(&mut map, q, 1, get_bits(&bm, k as u32 * qps + q, 1));
            }
            map
        });
        let mut at = 0;
        let writes = std::array::from_fn(|i| {
            let s = &STREAMS[i];
            let mut data = [0u64; 4];
            for b in 0..s.width {
                put_bits(&mut data, b, 1, get_bits(&wr, at + 13 + b, 1));
            }
            let w = WriteObs {
                valid: get_bits(&wr, at, 1) == 1,
                qp: get_bits(&wr, at + 1, 12) as u16,
                data,
            };
            at += 13 + s.width;
            w
        });
        MqObs {
            state,
            bitmaps,
            writes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// put_bits and get_bits against a bit-by-bit rendering of the same rule, at every offset and
    /// width across a word boundary, on words full of other bits.
    #[test]
    fn put_and_get_bits_follow_the_bit_rule() {
        let bit_get = |w: &[u64], at: u32, width: u32| {
            (0..width).fold(0u64, |v, b| {
                let bit = at + b;
                v | (((w[(bit / 64) as usize] >> (bit % 64)) & 1) << b)
            })
        };
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for at in 0..130 {
            for width in 0..=64 {
                let mut words = [next(), next(), next(), next()];
                let before = words;
                let v = next();
                put_bits(&mut words, at, width, v);
                let mask = if width == 64 {
                    u64::MAX
                } else {
                    (1 << width) - 1
                };
                assert_eq!(
                    get_bits(&words, at, width),
                    v & mask,
                    "at {at} width {width}"
                );
                assert_eq!(
                    bit_get(&words, at, width),
                    v & mask,
                    "at {at} width {width}"
                );
                // every other bit kept
                for bit in (0..256).filter(|&b| b < at || b >= at + width) {
                    let (k, s) = ((bit / 64) as usize, bit % 64);
                    assert_eq!((words[k] >> s) & 1, (before[k] >> s) & 1, "bit {bit}");
                }
                assert_eq!(get_bits(&before, at, width), bit_get(&before, at, width));
            }
        }
    }

    #[test]
    fn widths_add_up() {
        for s in &STREAMS {
            assert_eq!(
                s.fields.iter().map(|f| f.1).sum::<u32>(),
                s.width,
                "{}",
                s.name
            );
        }
        assert!(STATE_FIELDS.iter().all(|f| (1..=64).contains(&f.1)));
        assert_eq!(WRITES_WIDTH, 5 * 13 + 244 + 72 + 40 + 16 + 60);
        let mut names: Vec<_> = STATE_FIELDS.iter().map(|f| f.0).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), STATE_FIELDS.len(), "a state field named twice");
    }

    #[test]
    fn pack_then_unpack_is_the_identity() {
        for qps in [1u32, 4, 65, 1024] {
            let state: Vec<u64> = STATE_FIELDS
                .iter()
                .enumerate()
                .map(|(i, f)| (0x9E37_79B9_7F4A_7C15u64.rotate_left(i as u32)) & mask(f.1))
                .collect();
            let bitmaps = std::array::from_fn(|k| {
                let mut m = vec![0u64; qps.div_ceil(64) as usize];
                for q in 0..qps {
                    put_bits(
                        &mut m,
                        q,
                        1,
                        u64::from((q * 7 + k as u32).is_multiple_of(3)),
                    );
                }
                m
            });
            let writes = std::array::from_fn(|i| {
                let s = &STREAMS[i];
                let vals: Vec<u64> = s
                    .fields
                    .iter()
                    .map(|f| 0xDEAD_BEEF_1234_5678u64.rotate_left(i as u32 * 5) & mask(f.1))
                    .collect();
                WriteObs::of(s, (i as u16 * 1000 + 7) & 0xFFF, &vals)
            });
            let o = MqObs {
                state,
                bitmaps,
                writes,
            };
            let [a, b, c] = o.pack(qps);
            assert_eq!(a.len() as u32, STATE_WIDTH.div_ceil(32));
            assert_eq!(MqObs::unpack(qps, &a, &b, &c), o, "qps {qps}");
        }
    }

    fn mask(w: u32) -> u64 {
        if w == 64 {
            u64::MAX
        } else {
            (1 << w) - 1
        }
    }
}
