//! The report process and the joint outstanding count (spec-mq 4.6; RTL `dcqcn_mq_rpt`).
//!
//! A sent-byte report is registered in the cycle it arrives (`rx_*`) and executed in the next:
//! it adds its bytes to `SENT_MEM` and retires one grant from the QP's outstanding count
//! `gcnt - dcnt`. The count is computed jointly by the grant and report processes from S(t) and
//! three flags: a `qp_clear` visit, a grant and a report on the QP ([`joint`]).

use super::mem::MqMems;
use super::params::MqParams;
use super::ports::QpEvent;
use super::regs::MqConfig;

/// The report process's registers (spec-mq 4.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RptRegs {
    pub rx_valid: bool,
    pub rx_qp: u16,
    pub rx_bytes: u16,
}

/// What the joint count writes for one QP (spec-mq 4.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joint {
    /// `dcnt'` (written by the report process when `dec`).
    pub dcnt: u8,
    /// `gcnt'` (written by the grant process when `inc` or `clr`).
    pub gcnt: u8,
    pub ost_lt_hi: bool,
    pub ost_lt_lo: bool,
    /// A report with nothing outstanding.
    pub spur: bool,
}

/// The joint outstanding count of one QP (spec-mq 4.6) from its `gcnt`, `dcnt` of S(t) and the
/// cycle's `clr`, `inc`, `dec` flags.
#[inline]
pub fn joint(gcnt: u8, dcnt: u8, clr: bool, inc: bool, dec: bool, cfg: &MqConfig) -> Joint {
    let ost0 = gcnt.wrapping_sub(dcnt);
    let ost1 = if clr { 0 } else { ost0 };
    let ost2 = if inc { ost1.saturating_add(1) } else { ost1 };
    let spur = dec && ost2 == 0;
    let retire = dec && !spur;
    let ost3 = if retire { ost2 - 1 } else { ost2 };
    let dcnt_n = dcnt.wrapping_add(u8::from(retire));
    Joint {
        dcnt: dcnt_n,
        gcnt: dcnt_n.wrapping_add(ost3),
        ost_lt_hi: ost3 < cfg.ost_limit.max(1),
        ost_lt_lo: ost3 < cfg.ost_limit_cnp.max(1),
        spur,
    }
}

/// The report input of cycle t (spec-mq 4.6): the registers' next value and the counted drops
/// (`bad_qp`, `init_drop`).
#[inline]
pub fn input(i: &QpEvent, init: bool, p: &MqParams) -> (RptRegs, bool, bool) {
    let bad = i.valid && u32::from(i.qp) >= p.qps();
    let drop = i.valid && !bad && init;
    if i.valid && !bad && !init {
        (
            RptRegs {
                rx_valid: true,
                rx_qp: i.qp & 0xFFF,
                rx_bytes: i.bytes,
            },
            false,
            false,
        )
    } else {
        (
            RptRegs {
                rx_valid: false,
                ..RptRegs::default()
            },
            bad,
            drop,
        )
    }
}

/// A report execution of cycle t: QP and `sent'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RptExec {
    pub q: u16,
    pub sent: u32,
}

/// The report execution of cycle t, if any (`rx_valid`, `rx_qp` < QPS, `init` = 0).
#[inline]
pub fn execute(r: &RptRegs, init: bool, m: &MqMems, p: &MqParams) -> Option<RptExec> {
    if !r.rx_valid || u32::from(r.rx_qp) >= p.qps() || init {
        return None;
    }
    let q = usize::from(r.rx_qp);
    Some(RptExec {
        q: r.rx_qp,
        sent: m.sent_mem[q].wrapping_add(u32::from(r.rx_bytes)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> MqConfig {
        MqConfig::reset(&MqParams::with_qps(4).unwrap())
    }

    #[test]
    fn joint_count_cases() {
        let c = cfg();
        // A grant alone: count 3 -> 4.
        let j = joint(13, 10, false, true, false, &c);
        assert_eq!((j.gcnt, j.dcnt, j.spur), (14, 10, false));
        // A report alone: 3 -> 2.
        let j = joint(13, 10, false, false, true, &c);
        assert_eq!((j.gcnt, j.dcnt), (13, 11));
        // A grant and a report on one QP: the count is unchanged.
        let j = joint(13, 10, false, true, true, &c);
        assert_eq!(
            (j.gcnt.wrapping_sub(j.dcnt), j.dcnt, j.spur),
            (3, 11, false)
        );
        // A report with nothing outstanding: spurious, dcnt unchanged.
        let j = joint(7, 7, false, false, true, &c);
        assert_eq!((j.gcnt, j.dcnt, j.spur), (7, 7, true));
        // A clear and a report: the clear zeroes the count first, so the report is spurious.
        let j = joint(9, 2, true, false, true, &c);
        assert_eq!((j.gcnt, j.dcnt, j.spur), (2, 2, true));
        assert!(j.ost_lt_hi && j.ost_lt_lo);
        // Saturation at 255 (the count wraps the counters, never itself).
        let j = joint(254, 255, false, true, false, &c);
        assert_eq!(j.gcnt.wrapping_sub(j.dcnt), 255);
        // Limits: 16 and 8; 0 acts as 1.
        let j = joint(15, 0, false, true, false, &c);
        assert!(!j.ost_lt_hi && !j.ost_lt_lo);
        let j = joint(14, 0, false, true, false, &c);
        assert!(j.ost_lt_hi && !j.ost_lt_lo);
        let mut z = c;
        z.ost_limit = 0;
        z.ost_limit_cnp = 0;
        let j = joint(0, 0, false, false, false, &z);
        assert!(j.ost_lt_hi && j.ost_lt_lo);
        let j = joint(0, 0, false, true, false, &z);
        assert!(!j.ost_lt_hi && !j.ost_lt_lo);
    }
}
