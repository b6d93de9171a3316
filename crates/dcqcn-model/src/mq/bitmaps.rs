//! The seven per-QP bitmaps of `dcqcn_mq_core` (spec-mq 4.2): one flip-flop per QP each, read
//! whole by the picker in the cycle.

/// One bitmap: one bit per QP (spec-mq 4.2), QP q at bit q % 64 of word q / 64; bits >= `QPS`
/// are 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitmap(pub Vec<u64>);

impl Bitmap {
    /// `qps` bits, all `one`.
    pub fn new(qps: u32, one: bool) -> Bitmap {
        let mut b = Bitmap(vec![0; qps.div_ceil(64) as usize]);
        b.fill(qps, one);
        b
    }
    /// Every bit below `qps` set to `one`, the padding 0.
    pub fn fill(&mut self, qps: u32, one: bool) {
        for (k, w) in self.0.iter_mut().enumerate() {
            let lo = k as u32 * 64;
            let n = (qps - lo).min(64);
            *w = if one {
                if n == 64 {
                    u64::MAX
                } else {
                    (1 << n) - 1
                }
            } else {
                0
            };
        }
    }
    #[inline]
    pub fn get(&self, q: usize) -> bool {
        (self.0[q / 64] >> (q % 64)) & 1 == 1
    }
    #[inline]
    pub fn set(&mut self, q: usize, v: bool) {
        let bit = 1u64 << (q % 64);
        if v {
            self.0[q / 64] |= bit;
        } else {
            self.0[q / 64] &= !bit;
        }
    }
}

/// The seven bitmaps (spec-mq 4.2), in the order of obs.rs `BITMAPS`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitmaps {
    pub req_valid: Bitmap,
    pub rate_ok: Bitmap,
    pub ost_lt_hi: Bitmap,
    pub ost_lt_lo: Bitmap,
    pub lim8: Bitmap,
    pub cnp_flag: Bitmap,
    pub arb_mask: Bitmap,
}

impl Bitmaps {
    /// Reset values: `rate_ok`, `ost_lt_hi`, `ost_lt_lo` 1, the others 0.
    pub fn reset(qps: u32) -> Bitmaps {
        Bitmaps {
            req_valid: Bitmap::new(qps, false),
            rate_ok: Bitmap::new(qps, true),
            ost_lt_hi: Bitmap::new(qps, true),
            ost_lt_lo: Bitmap::new(qps, true),
            lim8: Bitmap::new(qps, false),
            cnp_flag: Bitmap::new(qps, false),
            arb_mask: Bitmap::new(qps, false),
        }
    }
    /// The reset values, in place (a reset cycle allocates nothing).
    pub fn reset_in_place(&mut self, qps: u32) {
        self.req_valid.fill(qps, false);
        self.rate_ok.fill(qps, true);
        self.ost_lt_hi.fill(qps, true);
        self.ost_lt_lo.fill(qps, true);
        self.lim8.fill(qps, false);
        self.cnp_flag.fill(qps, false);
        self.arb_mask.fill(qps, false);
    }
    /// The bitmaps in obs.rs `BITMAPS` order.
    pub fn in_order(&self) -> [&Bitmap; 7] {
        [
            &self.req_valid,
            &self.rate_ok,
            &self.ost_lt_hi,
            &self.ost_lt_lo,
            &self.lim8,
            &self.cnp_flag,
            &self.arb_mask,
        ]
    }
}
