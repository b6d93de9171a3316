//! The grant process: the pick stage, the grant execution and the speed limiter (spec-mq 4.5;
//! RTL `dcqcn_mq_grant`).
//!
//! A pick in cycle t (rr.rs over the eligibility bitmap) is executed in t + 1: the QP's credit is
//! refilled at its applied rate since its last grant and charged the request's bytes, and the
//! grant registers drive `m_grant_*` in t + 2. The outstanding count is the joint count of rpt.rs.

use super::bitmaps::Bitmaps;
use super::mem::{Credit, MqMems};
use super::params::MqParams;
use super::regs::MqConfig;
use super::rr;

/// The grant process's registers (spec-mq 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrantRegs {
    /// The last QP picked.
    pub rr: u16,
    /// The pick of the previous cycle, executed this cycle.
    pub gx_valid: bool,
    pub gx_qp: u16,
    /// Port credit of the speed limiter, 1/1024 byte, signed.
    pub pcredit: i32,
    /// Drive `m_grant_valid`, `m_grant_qp`, `m_grant_bytes`.
    pub g_valid: bool,
    pub g_qp: u16,
    pub g_bytes: u16,
}

impl GrantRegs {
    pub fn reset(p: &MqParams, cfg: &MqConfig) -> GrantRegs {
        GrantRegs {
            rr: (p.qps() - 1) as u16,
            gx_valid: false,
            gx_qp: 0,
            pcredit: cfg.capq() as i32,
            g_valid: false,
            g_qp: 0,
            g_bytes: 0,
        }
    }
}

/// Word k of the eligibility vector of spec-mq 4.5 (QPs 64k .. 64k + 63):
/// `req_valid & ~arb_mask & (~throttle | rate_ok) & (~ost_en | (lim8 ? ost_lt_lo : ost_lt_hi))`.
#[inline]
pub fn elig_word(bm: &Bitmaps, cfg: &MqConfig, k: usize) -> u64 {
    let req = bm.req_valid.0[k];
    if req == 0 {
        return 0;
    }
    let mut w = req & !bm.arb_mask.0[k];
    if cfg.hw_rate_throttle_en {
        w &= bm.rate_ok.0[k];
    }
    if cfg.tx_wqe_ost_limit_en {
        let l = bm.lim8.0[k];
        w &= (l & bm.ost_lt_lo.0[k]) | (!l & bm.ost_lt_hi.0[k]);
    }
    w
}

/// The whole eligibility vector into `out` (one word per 64 QPs), [`elig_word`] for every word,
/// written branch-free over the bitmaps' words so that it vectorises.
#[inline]
pub fn eligibility(bm: &Bitmaps, cfg: &MqConfig, out: &mut [u64]) {
    // The enables as all-ones masks: an enable off lets every QP through its term.
    let no_throttle = if cfg.hw_rate_throttle_en { 0 } else { u64::MAX };
    let no_ost = if cfg.tx_wqe_ost_limit_en { 0 } else { u64::MAX };
    let words = out
        .iter_mut()
        .zip(&bm.req_valid.0)
        .zip(&bm.arb_mask.0)
        .zip(&bm.rate_ok.0)
        .zip(&bm.lim8.0)
        .zip(&bm.ost_lt_lo.0)
        .zip(&bm.ost_lt_hi.0);
    for ((((((e, &req), &mask), &ok), &l), &lo), &hi) in words {
        let ost = (l & lo) | (!l & hi);
        *e = req & !mask & (ok | no_throttle) & (ost | no_ost);
    }
}

/// The pick stage of cycle t (spec-mq 4.5): `pick_en` and the picker over the eligibility words
/// of S(t) ([`eligibility`]). `clear_next` is a `qp_clear` completing at the next visit.
#[inline]
pub fn pick_stage(
    g: &GrantRegs,
    init: bool,
    grant_pause: bool,
    clear_next: bool,
    cfg: &MqConfig,
    elig: &[u64],
) -> Option<u16> {
    let pick_en = !init && !grant_pause && (!cfg.speed_limiter_en || g.pcredit > 0) && !clear_next;
    if pick_en {
        rr::pick(elig, g.rr)
    } else {
        None
    }
}

/// A grant execution of cycle t (spec-mq 4.5): QP, bytes and the new credit entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrantExec {
    pub q: u16,
    pub bytes: u16,
    /// `credit'`, `stamp'`.
    pub credit: Credit,
    /// `rate_ok'[q] = credit' > 0`.
    pub rate_ok: bool,
}

/// The token-bucket refill of a QP at `now` (spec-mq 4.3, 4.5): `credit + r * e` with
/// `r = min(cc_rate, LINE_WIN)` and `e = (now - stamp) mod 2^32`; 58-bit signed, no wrap.
#[inline]
pub fn refill(c: &Credit, cc_rate: u32, line_win: u32, now: u32) -> i64 {
    let r = u64::from(cc_rate.min(line_win));
    let e = u64::from(now.wrapping_sub(c.stamp));
    i64::from(c.credit) + (r * e) as i64
}

/// The grant execution of cycle t, if any (`gx_valid`, `gx_qp` < QPS, `init` = 0); `blocked` is a
/// `qp_clear` completing this cycle, which owns the grant process's write port (only an injected
/// state reaches this: `clear_next` suppresses the pick before it).
#[inline]
pub fn execute(
    g: &GrantRegs,
    init: bool,
    blocked: bool,
    now: u32,
    m: &MqMems,
    cfg: &MqConfig,
    p: &MqParams,
) -> Option<GrantExec> {
    if !g.gx_valid || u32::from(g.gx_qp) >= p.qps() || init || blocked {
        return None;
    }
    let q = usize::from(g.gx_qp);
    let bytes = m.req_mem[q];
    let c = m.credit(q);
    let fill = refill(&c, m.cc_rate_mem[q], p.line_win(), now).min(cfg.capq());
    let charge = if cfg.hw_rate_throttle_en {
        i64::from(bytes) * 1024
    } else {
        0
    };
    let credit = (fill - charge).max(i64::from(i32::MIN)) as i32;
    Some(GrantExec {
        q: g.gx_qp,
        bytes,
        credit: Credit { credit, stamp: now },
        rate_ok: credit > 0,
    })
}

impl GrantRegs {
    /// The clock edge of the grant process's registers (spec-mq 4.5).
    #[inline]
    pub fn next(&mut self, pick: Option<u16>, x: &Option<GrantExec>, cfg: &MqConfig, p: &MqParams) {
        let capq = cfg.capq();
        self.pcredit = if !cfg.speed_limiter_en {
            capq as i32
        } else {
            let charge = x.map_or(0, |x| i64::from(x.bytes) * 1024);
            let fill = (i64::from(self.pcredit) + i64::from(p.line_win())).min(capq);
            (fill - charge).max(i64::from(i32::MIN)) as i32
        };
        match pick {
            Some(q) => {
                self.gx_valid = true;
                self.gx_qp = q;
                self.rr = q;
            }
            None => self.gx_valid = false,
        }
        match x {
            Some(x) => {
                self.g_valid = true;
                self.g_qp = x.q;
                self.g_bytes = x.bytes;
            }
            None => self.g_valid = false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vectorised_eligibility_is_the_rule_word_by_word() {
        let p = MqParams::with_qps(130).unwrap();
        let mut bm = Bitmaps::reset(130);
        for q in 0..130 {
            bm.req_valid.set(q, q % 2 == 0 || q % 7 == 0);
            bm.arb_mask.set(q, q % 11 == 0);
            bm.rate_ok.set(q, q % 3 != 0);
            bm.lim8.set(q, q % 5 == 0);
            bm.ost_lt_lo.set(q, q % 4 == 0);
            bm.ost_lt_hi.set(q, q % 13 != 0);
        }
        let mut out = vec![0; 3];
        for en in 0..4u8 {
            let mut cfg = MqConfig::reset(&p);
            cfg.hw_rate_throttle_en = en & 1 == 1;
            cfg.tx_wqe_ost_limit_en = en & 2 == 2;
            eligibility(&bm, &cfg, &mut out);
            for (k, &w) in out.iter().enumerate() {
                assert_eq!(w, elig_word(&bm, &cfg, k), "enables {en} word {k}");
            }
            for q in 0..130usize {
                let e = bm.req_valid.get(q)
                    && !bm.arb_mask.get(q)
                    && (!cfg.hw_rate_throttle_en || bm.rate_ok.get(q))
                    && (!cfg.tx_wqe_ost_limit_en
                        || if bm.lim8.get(q) {
                            bm.ost_lt_lo.get(q)
                        } else {
                            bm.ost_lt_hi.get(q)
                        });
                assert_eq!((out[q / 64] >> (q % 64)) & 1 == 1, e, "QP {q}");
            }
        }
    }

    #[test]
    fn charge_saturates_at_minus_2_31_and_refill_caps() {
        let p = MqParams::with_qps(4).unwrap();
        let mut cfg = MqConfig::reset(&p);
        let mut m = MqMems::new(4);
        m.cc_byte_cnt_mem[1] = Credit {
            credit: i32::MIN + 5,
            stamp: 10,
        }
        .pack();
        m.req_mem[1] = 65_535;
        m.cc_rate_mem[1] = 0;
        let g = GrantRegs {
            gx_valid: true,
            gx_qp: 1,
            ..GrantRegs::reset(&p, &cfg)
        };
        let x = execute(&g, false, false, 20, &m, &cfg, &p).unwrap();
        assert_eq!(x.credit.credit, i32::MIN);
        assert!(!x.rate_ok);
        // A long idle time refills to the cap only.
        m.cc_rate_mem[1] = 8192;
        m.req_mem[1] = 0;
        let x = execute(&g, false, false, 1_000_000, &m, &cfg, &p).unwrap();
        assert_eq!(i64::from(x.credit.credit), cfg.capq());
        // Throttle off: no charge.
        cfg.hw_rate_throttle_en = false;
        m.req_mem[1] = 100;
        let x = execute(&g, false, false, 1_000_000, &m, &cfg, &p).unwrap();
        assert_eq!(i64::from(x.credit.credit), cfg.capq());
        // Out of range, init and a clear: nothing.
        assert!(execute(&g, true, false, 0, &m, &cfg, &p).is_none());
        assert!(execute(&g, false, true, 0, &m, &cfg, &p).is_none());
        let bad = GrantRegs { gx_qp: 4, ..g };
        assert!(execute(&bad, false, false, 0, &m, &cfg, &p).is_none());
    }
}
