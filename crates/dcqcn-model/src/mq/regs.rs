//! The register file of `dcqcn_mq`: AXI4-Lite handshake, global words, the per-QP window access
//! unit, the counters and the DFX window (spec-mq 6.1, 6.2, 6.3, 5.9; RTL `dcqcn_mq_regs`).
//!
//! Like every block of the model it has registers ([`MqRegs`]), a combinational part
//! ([`MqRegs::bus_comb`]: the handshake and the decode of the accesses of the cycle, and the read
//! data of a global word from S(t)) and a clock edge ([`MqRegs::next`]: configuration writes,
//! responses, pending window accesses, counters, DFX). A window access completes at its QP's visit;
//! the visit (visit.rs) reads and writes the record with [`window_read`] and [`window_write`].

use super::mem::{Credit, Record, DFX_ENTRIES, M24};
use super::params::MqParams;
use super::ports::MqAxilIn;

/// AXI4-Lite responses.
pub const OKAY: u8 = 0b00;
pub const DECERR: u8 = 0b11;

/// `magic` and `version` of the `id` word (spec-mq 6.2).
pub const MAGIC: u32 = 0xDC4D;
pub const VERSION: u32 = 1;

/// Global word byte addresses (spec-mq 6.2): the generated register map's
/// (`regmap/dcqcn_mq_regs.rdl`, [`super::regmap`]), and the base of the per-QP windows.
pub mod addr {
    pub use crate::mq::regmap::{
        ALPHA_CFG, ALPHA_TIMER_TH, BYTE_CNT_TH, CNP_MERGE_PERIOD, CNP_TIMER_THRD, CNT_BAD_QP,
        CNT_CNP, CNT_CTRL, CNT_DEC, CNT_GRANT, CNT_GRANT_BYTES_HI, CNT_GRANT_BYTES_LO, CNT_INC_AI,
        CNT_INC_BYTE, CNT_INC_FR, CNT_INC_HAI, CNT_INC_TIMER, CNT_INIT_DROP, CNT_REQ, CNT_REQ_DROP,
        CNT_RPT, CNT_RPT_SPURIOUS, CREDIT_CAP, DFX_COUNTS, DFX_CTRL, DFX_ENTRY, DFX_QP, DFX_RC,
        DFX_SEL, DFX_STAMP, DFX_STATUS, DFX_TIME, ENABLES, ID, INC_CFG, LINE_WIN, MAX_RATE,
        NOCNP_TIMER_TH, NOW, OST_LIMITS, PARAMS, PORT_CREDIT, RATE_AI, RATE_HAI, RATE_MIN, STATUS,
    };
    /// The base of the per-QP windows; QP q's window is at `WINDOW + q * 0x100`.
    pub const WINDOW: u32 = crate::mq::regmap::QP_BASE;
}

/// Word indices (`addr[7:2]`) of the per-QP window (spec-mq 6.3), from the generated offsets.
pub mod win {
    use crate::mq::regmap as m;
    pub const QP_CNP_MERGE: u8 = (m::QP_CNP_MERGE >> 2) as u8;
    pub const QP_CNP_TIMER: u8 = (m::QP_CNP_TIMER >> 2) as u8;
    pub const QP_RATE: u8 = (m::QP_RATE >> 2) as u8;
    pub const QP_TARGET: u8 = (m::QP_TARGET >> 2) as u8;
    pub const QP_ALPHA: u8 = (m::QP_ALPHA >> 2) as u8;
    pub const QP_BYTE_CNT: u8 = (m::QP_BYTE_CNT >> 2) as u8;
    pub const QP_SENT_SEEN: u8 = (m::QP_SENT_SEEN >> 2) as u8;
    pub const QP_T_BC: u8 = (m::QP_T_BC >> 2) as u8;
    pub const QP_INC_TIMER: u8 = (m::QP_INC_TIMER >> 2) as u8;
    pub const QP_CC_RATE: u8 = (m::QP_CC_RATE >> 2) as u8;
    pub const QP_CREDIT: u8 = (m::QP_CREDIT >> 2) as u8;
    pub const QP_STAMP: u8 = (m::QP_STAMP >> 2) as u8;
    pub const QP_OST: u8 = (m::QP_OST >> 2) as u8;
    pub const QP_SENT: u8 = (m::QP_SENT >> 2) as u8;
    pub const QP_REQ: u8 = (m::QP_REQ >> 2) as u8;
    pub const QP_CTRL: u8 = (m::QP_CTRL >> 2) as u8;
}

/// The configuration registers (spec-mq 6.2), named `cfg_<field>` in the spec and the obs record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MqConfig {
    pub dcqcn_hw_en: bool,
    pub hw_rate_throttle_en: bool,
    pub tx_wqe_ost_limit_en: bool,
    pub speed_limiter_en: bool,
    pub cnp_merge_period: u16,
    pub nocnp_timer_th: u32,
    pub byte_cnt_th: u32,
    pub max_rate: u32,
    pub alpha_timer_th: u16,
    pub upd_alpha_g: u16,
    pub alpha_rate_shift: u8,
    pub alpha_init: u16,
    pub rate_ai: u32,
    pub rate_hai: u32,
    pub rate_min: u32,
    pub stage_threshold: u8,
    pub clamp_tgt: bool,
    pub cnp_timer_thrd: u32,
    pub ost_limit: u8,
    pub ost_limit_cnp: u8,
    pub credit_cap: u32,
    pub dfx_en: bool,
    pub dfx_wrap: bool,
    pub dfx_sel: u8,
    pub dfx_qp: u16,
}

impl MqConfig {
    /// Reset values (spec-mq 6.2; the clock-dependent ones from section 2).
    pub fn reset(p: &MqParams) -> MqConfig {
        MqConfig {
            dcqcn_hw_en: true,
            hw_rate_throttle_en: true,
            tx_wqe_ost_limit_en: true,
            speed_limiter_en: true,
            cnp_merge_period: p.merge_reset(),
            nocnp_timer_th: p.nocnp_reset(),
            byte_cnt_th: 0,
            max_rate: 0,
            alpha_timer_th: p.alpha_reset(),
            upd_alpha_g: 4,
            alpha_rate_shift: 1,
            alpha_init: 1023,
            rate_ai: p.ai_reset(),
            rate_hai: p.hai_reset(),
            rate_min: p.rmin_reset(),
            stage_threshold: 5,
            clamp_tgt: false,
            cnp_timer_thrd: p.cnp_timer_reset(),
            ost_limit: 16,
            ost_limit_cnp: 8,
            credit_cap: 65_536,
            dfx_en: false,
            dfx_wrap: false,
            dfx_sel: 0,
            dfx_qp: 0,
        }
    }

    /// `CAPQ = max(cfg_credit_cap, 1) * 1024` (spec-mq 2), in 1/1024 byte.
    #[inline]
    pub fn capq(&self) -> i64 {
        i64::from(self.credit_cap.max(1)) * 1024
    }

    /// `rmax` (spec-mq 5.1): `max_rate`, or `LINE_WIN` when it is 0 or above it.
    #[inline]
    pub fn rmax(&self, line_win: u32) -> u32 {
        if self.max_rate == 0 || self.max_rate > line_win {
            line_win
        } else {
            self.max_rate
        }
    }

    /// `rmin = min(max(cfg_rate_min, 1), rmax)` (spec-mq 5.1): the ceiling wins.
    #[inline]
    pub fn rmin(&self, line_win: u32) -> u32 {
        self.rate_min.max(1).min(self.rmax(line_win))
    }
}

/// The counters 0x104-0x140 (spec-mq 6.2); they wrap, `cnt_clear` wins over an increment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub cnt_cnp: u32,
    pub cnt_dec: u32,
    pub cnt_inc_fr: u32,
    pub cnt_inc_ai: u32,
    pub cnt_inc_hai: u32,
    pub cnt_inc_timer: u32,
    pub cnt_inc_byte: u32,
    pub cnt_grant: u32,
    pub cnt_grant_bytes: u64,
    /// `cnt_grant_bytes[63:32]` latched by the last read of `cnt_grant_bytes_lo` (spec-mq 6.1).
    pub cnt_grant_bytes_latch: u32,
    pub cnt_req: u32,
    pub cnt_req_drop: u32,
    pub cnt_rpt: u32,
    pub cnt_rpt_spurious: u32,
    pub cnt_bad_qp: u32,
    pub cnt_init_drop: u32,
}

/// The DFX window's registers (spec-mq 5.9; docs/spec.md 4.10 with `dfx_` names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dfx {
    pub dfx_count: u8,
    pub dfx_wptr: u8,
    pub dfx_lost: bool,
    pub dfx_n_dec: u16,
    pub dfx_n_byte: u16,
    pub dfx_n_timer: u16,
    pub dfx_time: u32,
}

/// The AXI4-Lite response registers and the pending window accesses (spec-mq 4.2, 6.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bus {
    pub wpend: bool,
    pub wq: u16,
    pub wword: u8,
    pub wdata: u32,
    pub wstrb: u8,
    pub rpend: bool,
    pub rq: u16,
    pub rword: u8,
    pub bvalid: bool,
    pub bresp: u8,
    pub rvalid: bool,
    pub rdata: u32,
    pub rresp: u8,
}

impl Bus {
    /// The pending write is a `qp_clear`: to `qp_ctrl`, bit 1 set in a strobed lane (spec-mq 4.5
    /// `wclr`, 5.8).
    #[inline]
    pub fn wclr(&self) -> bool {
        self.wword == win::QP_CTRL && self.wstrb & 1 != 0 && (self.wdata >> 1) & 1 == 1
    }
}

/// Every register of `dcqcn_mq_regs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MqRegs {
    pub cfg: MqConfig,
    pub cnt: Counters,
    pub dfx: Dfx,
    pub bus: Bus,
}

/// The engine registers the global words show (spec-mq 6.2: `status`, `port_credit`, `now`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Monitors {
    pub init: bool,
    pub pcredit: i32,
    pub now: u32,
}

/// How an accepted write is handled (spec-mq 6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteKind {
    /// A mapped writable global word: applied at the edge, OKAY next cycle.
    Global(u32),
    /// Answered next cycle with DECERR and no effect.
    Decerr,
    /// A window write waiting for its QP's visit.
    Pending { q: u16, word: u8 },
}

/// How an accepted read is handled (spec-mq 6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadKind {
    /// Answered next cycle with this data and response.
    Now { data: u32, resp: u8 },
    /// A window read waiting for its QP's visit.
    Pending { q: u16, word: u8 },
}

/// The combinational outputs of the register file in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusComb {
    pub wr_en: bool,
    pub rd_en: bool,
    /// Meaningful with `wr_en`.
    pub wr: WriteKind,
    /// Meaningful with `rd_en`.
    pub rd: ReadKind,
}

/// The completion of pending window accesses at a visit (visit.rs), for the edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WinDone {
    pub write: bool,
    pub read: Option<u32>,
}

/// The counted events of one cycle (spec-mq 6.2 counters, 5.9 DFX).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountEvents {
    pub cnp: bool,
    pub dec: bool,
    pub inc_fr: bool,
    pub inc_ai: bool,
    pub inc_hai: bool,
    pub inc_timer: bool,
    pub inc_byte: bool,
    pub grant: bool,
    pub grant_bytes: u16,
    pub req: bool,
    pub req_drop: bool,
    pub rpt: bool,
    pub rpt_spurious: bool,
    /// 0..3 inputs with QP >= QPS.
    pub bad_qp: u32,
    /// 0..2 inputs dropped in the init round.
    pub init_drop: u32,
    /// A rate event of the visit of `dfx_qp` (spec-mq 5.9), or none.
    pub dfx: Option<DfxEvent>,
}

/// A visit's rate event as the DFX window sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DfxEvent {
    pub dec: bool,
    pub tf: bool,
    pub bf: bool,
    /// Entry type code (docs/spec.md 4.10).
    pub typ: u8,
    pub both: bool,
    /// The final `rc'` of the visit.
    pub rc: u32,
}

/// A DFX record of the cycle: entry index and the 60-bit entry (the `wd` stream).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DfxWrite {
    pub index: u8,
    pub entry: u64,
}

/// Byte-lane mask of a write strobe.
#[inline]
pub fn lane_mask(wstrb: u8) -> u32 {
    (0..4).fold(0, |m, i| {
        if (wstrb >> i) & 1 == 1 {
            m | (0xFF << (8 * i))
        } else {
            m
        }
    })
}

/// The window words: 0 unmapped, 1 read-only, 2 writable (spec-mq 6.3).
#[inline]
pub fn win_access(word: u8) -> u8 {
    use win::*;
    match word {
        QP_CNP_MERGE | QP_CNP_TIMER | QP_RATE | QP_TARGET | QP_ALPHA | QP_BYTE_CNT
        | QP_SENT_SEEN | QP_T_BC | QP_INC_TIMER | QP_CC_RATE | QP_CTRL => 2,
        QP_CREDIT | QP_STAMP | QP_OST | QP_SENT | QP_REQ => 1,
        _ => 0,
    }
}

/// What a window read shows of one QP besides its record (S(t) of the visit cycle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpView {
    pub credit: Credit,
    pub gcnt: u8,
    pub dcnt: u8,
    pub sent: u32,
    pub req_bytes: u16,
    pub req_valid: bool,
    pub arb_mask: bool,
    pub rate_ok: bool,
    pub lim8: bool,
    pub cnp_flag: bool,
    pub ost_lt_hi: bool,
    pub ost_lt_lo: bool,
}

/// The value of window word `word` of a QP (spec-mq 6.3); 0 for an unmapped word.
pub fn window_read(word: u8, r: &Record, v: &QpView) -> u32 {
    use win::*;
    match word {
        QP_CNP_MERGE => u32::from(r.merge_el) | (u32::from(r.dec_pending) << 16),
        QP_CNP_TIMER => r.cnp_el,
        QP_RATE => r.rc,
        QP_TARGET => r.rt,
        QP_ALPHA => u32::from(r.alpha) | (u32::from(r.alpha_el) << 16),
        QP_BYTE_CNT => r.byte_cnt,
        QP_SENT_SEEN => r.sent_seen,
        QP_T_BC => u32::from(r.t_stage) | (u32::from(r.b_stage) << 8) | (u32::from(r.active) << 16),
        QP_INC_TIMER => r.inc_el,
        QP_CC_RATE => r.cc_rate,
        QP_CREDIT => v.credit.credit as u32,
        QP_STAMP => v.credit.stamp,
        QP_OST => {
            u32::from(v.gcnt)
                | (u32::from(v.dcnt) << 8)
                | (u32::from(v.gcnt.wrapping_sub(v.dcnt)) << 16)
        }
        QP_SENT => v.sent,
        // `req_bytes` shows only while `req_valid` is set (spec-mq 4.4).
        QP_REQ if v.req_valid => u32::from(v.req_bytes) | (1 << 16),
        QP_CTRL => {
            u32::from(v.arb_mask)
                | (u32::from(v.rate_ok) << 8)
                | (u32::from(v.lim8) << 9)
                | (u32::from(v.cnp_flag) << 10)
                | (u32::from(v.ost_lt_hi) << 11)
                | (u32::from(v.ost_lt_lo) << 12)
        }
        _ => 0,
    }
}

/// A window write completing at a visit (spec-mq 5.4 step 8): the strobed lanes of `wdata`
/// replace the bytes of the visit's primed record; bits no table lists are ignored. `arb_mask` is
/// the bitmap bit (`qp_ctrl` bit 0); `qp_clear` is handled by the visit (5.8).
pub fn window_write(word: u8, wdata: u32, wstrb: u8, r: &mut Record, arb_mask: &mut bool) {
    use win::*;
    let m = lane_mask(wstrb);
    let old = window_read(word, r, &QpView::default());
    let w = (old & !m) | (wdata & m);
    match word {
        QP_CNP_MERGE => {
            r.merge_el = w as u16;
            r.dec_pending = (w >> 16) & 1 == 1;
        }
        QP_CNP_TIMER => r.cnp_el = w & M24,
        QP_RATE => r.rc = w & M24,
        QP_TARGET => r.rt = w & M24,
        QP_ALPHA => {
            r.alpha = (w & 0x3FF) as u16;
            r.alpha_el = (w >> 16) as u16;
        }
        QP_BYTE_CNT => r.byte_cnt = w,
        QP_SENT_SEEN => r.sent_seen = w,
        QP_T_BC => {
            r.t_stage = w as u8;
            r.b_stage = (w >> 8) as u8;
            r.active = (w >> 16) & 1 == 1;
        }
        QP_INC_TIMER => r.inc_el = w & M24,
        QP_CC_RATE => r.cc_rate = w & M24,
        QP_CTRL if m & 1 != 0 => *arb_mask = wdata & 1 == 1,
        _ => {}
    }
}

/// A flag or narrow field as a word's bits.
#[inline]
fn f<T: Into<u32>>(x: T) -> u32 {
    x.into()
}

/// Saturating increment of an n-bit field.
#[inline]
fn sat_inc_n(x: u16, bits: u32) -> u16 {
    if u32::from(x) >= (1 << bits) - 1 {
        x
    } else {
        x + 1
    }
}

impl MqRegs {
    pub fn reset(p: &MqParams) -> MqRegs {
        MqRegs {
            cfg: MqConfig::reset(p),
            cnt: Counters::default(),
            dfx: Dfx::default(),
            bus: Bus::default(),
        }
    }

    /// The handshake and decode of the cycle (spec-mq 6.1): combinational of S(t) and the inputs.
    #[inline]
    pub fn bus_comb(
        &self,
        a: &MqAxilIn,
        rst: bool,
        p: &MqParams,
        mon: &Monitors,
        dfx_mem: &[u64],
    ) -> BusComb {
        let b = &self.bus;
        let wr_en = !rst && a.awvalid && a.wvalid && !b.bvalid && !b.wpend;
        let rd_en = !rst && a.arvalid && !b.rvalid && !b.rpend;
        let wr = if wr_en {
            self.decode_write(a.awaddr, p)
        } else {
            WriteKind::Decerr
        };
        let rd = if rd_en {
            self.decode_read(a.araddr, p, mon, dfx_mem)
        } else {
            ReadKind::Now {
                data: 0,
                resp: OKAY,
            }
        };
        BusComb {
            wr_en,
            rd_en,
            wr,
            rd,
        }
    }

    fn decode_write(&self, awaddr: u32, p: &MqParams) -> WriteKind {
        let a = awaddr & 0x1F_FFFF;
        if a & addr::WINDOW != 0 {
            let q = ((a >> 8) & 0xFFF) as u16;
            let word = ((a >> 2) & 0x3F) as u8;
            if u32::from(q) >= p.qps() || win_access(word) != 2 {
                WriteKind::Decerr
            } else {
                WriteKind::Pending { q, word }
            }
        } else if (a >> 12) & 0xFF != 0 || !global_writable(a & 0xFFC) {
            WriteKind::Decerr
        } else {
            WriteKind::Global(a & 0xFFC)
        }
    }

    fn decode_read(&self, araddr: u32, p: &MqParams, mon: &Monitors, dfx_mem: &[u64]) -> ReadKind {
        let a = araddr & 0x1F_FFFF;
        let decerr = ReadKind::Now {
            data: 0,
            resp: DECERR,
        };
        if a & addr::WINDOW != 0 {
            let q = ((a >> 8) & 0xFFF) as u16;
            let word = ((a >> 2) & 0x3F) as u8;
            if u32::from(q) >= p.qps() || win_access(word) == 0 {
                decerr
            } else {
                ReadKind::Pending { q, word }
            }
        } else if (a >> 12) & 0xFF != 0 {
            decerr
        } else {
            match self.global_read(a & 0xFFC, p, mon, dfx_mem) {
                Some(data) => ReadKind::Now { data, resp: OKAY },
                None => decerr,
            }
        }
    }

    /// The DFX entry `cfg_dfx_sel` selects (docs/spec.md 4.10 read-out): (valid, entry).
    pub fn dfx_selected(&self, dfx_mem: &[u64]) -> (bool, u64) {
        let d = &self.dfx;
        let k = self.cfg.dfx_sel & 0x3F;
        let full = d.dfx_count >= 64;
        let phys = if full { (d.dfx_wptr + k) & 0x3F } else { k };
        if k < d.dfx_count {
            (true, dfx_mem[phys as usize])
        } else {
            (false, 0)
        }
    }

    /// The value of global word `a` (byte address), `None` if unmapped (spec-mq 6.2).
    pub fn global_read(
        &self,
        a: u32,
        p: &MqParams,
        mon: &Monitors,
        dfx_mem: &[u64],
    ) -> Option<u32> {
        let c = &self.cfg;
        let n = &self.cnt;
        let d = &self.dfx;
        let b = &self.bus;
        Some(match a {
            addr::ID => (VERSION << 8) | (MAGIC << 16),
            addr::PARAMS => p.qps(),
            addr::LINE_WIN => p.line_win(),
            addr::STATUS => f(mon.init) | (f(b.wpend) << 1) | (f(b.rpend) << 2),
            addr::ENABLES => {
                f(c.dcqcn_hw_en)
                    | (f(c.hw_rate_throttle_en) << 1)
                    | (f(c.tx_wqe_ost_limit_en) << 2)
                    | (f(c.speed_limiter_en) << 3)
            }
            addr::CNP_MERGE_PERIOD => f(c.cnp_merge_period),
            addr::NOCNP_TIMER_TH => c.nocnp_timer_th,
            addr::BYTE_CNT_TH => c.byte_cnt_th,
            addr::MAX_RATE => c.max_rate,
            addr::ALPHA_TIMER_TH => f(c.alpha_timer_th),
            addr::ALPHA_CFG => {
                f(c.upd_alpha_g) | (f(c.alpha_rate_shift) << 16) | (f(c.alpha_init) << 20)
            }
            addr::RATE_AI => c.rate_ai,
            addr::RATE_HAI => c.rate_hai,
            addr::RATE_MIN => c.rate_min,
            addr::INC_CFG => f(c.stage_threshold) | (f(c.clamp_tgt) << 8),
            addr::CNP_TIMER_THRD => c.cnp_timer_thrd,
            addr::OST_LIMITS => f(c.ost_limit) | (f(c.ost_limit_cnp) << 8),
            addr::CREDIT_CAP => c.credit_cap,
            addr::PORT_CREDIT => mon.pcredit as u32,
            addr::NOW => mon.now,
            addr::CNT_CTRL => 0,
            addr::CNT_CNP => n.cnt_cnp,
            addr::CNT_DEC => n.cnt_dec,
            addr::CNT_INC_FR => n.cnt_inc_fr,
            addr::CNT_INC_AI => n.cnt_inc_ai,
            addr::CNT_INC_HAI => n.cnt_inc_hai,
            addr::CNT_INC_TIMER => n.cnt_inc_timer,
            addr::CNT_INC_BYTE => n.cnt_inc_byte,
            addr::CNT_GRANT => n.cnt_grant,
            addr::CNT_GRANT_BYTES_LO => n.cnt_grant_bytes as u32,
            addr::CNT_GRANT_BYTES_HI => n.cnt_grant_bytes_latch,
            addr::CNT_REQ => n.cnt_req,
            addr::CNT_REQ_DROP => n.cnt_req_drop,
            addr::CNT_RPT => n.cnt_rpt,
            addr::CNT_RPT_SPURIOUS => n.cnt_rpt_spurious,
            addr::CNT_BAD_QP => n.cnt_bad_qp,
            addr::CNT_INIT_DROP => n.cnt_init_drop,
            addr::DFX_CTRL => f(c.dfx_en) | (f(c.dfx_wrap) << 1),
            addr::DFX_STATUS => f(d.dfx_count) | (f(d.dfx_wptr) << 8) | (f(d.dfx_lost) << 16),
            addr::DFX_COUNTS => f(d.dfx_n_dec) | (f(d.dfx_n_byte) << 10) | (f(d.dfx_n_timer) << 20),
            addr::DFX_TIME => d.dfx_time,
            addr::DFX_SEL => f(c.dfx_sel),
            addr::DFX_ENTRY => {
                let (valid, e) = self.dfx_selected(dfx_mem);
                (e & 0xF) as u32 | (f(valid) << 8)
            }
            addr::DFX_RC => ((self.dfx_selected(dfx_mem).1 >> 4) as u32) & M24,
            addr::DFX_STAMP => (self.dfx_selected(dfx_mem).1 >> 28) as u32,
            addr::DFX_QP => f(c.dfx_qp),
            _ => return None,
        })
    }

    /// A write of the strobed lanes of `wdata` to the writable global word `a` (spec-mq 6.1,
    /// 6.2), into `next`'s configuration. Returns the actions (`cnt_clear`, `dfx_clear`).
    fn global_write(next: &mut MqConfig, a: u32, wdata: u32, wstrb: u8) -> (bool, bool) {
        let m = lane_mask(wstrb);
        let c = next;
        // The word as it reads (S(t): `next` still holds it), merged lane by lane.
        let merge = |old: u32| (old & !m) | (wdata & m);
        let action = |bit: u32| (wdata & m) >> bit & 1 == 1;
        match a {
            addr::ENABLES => {
                let w = merge(
                    f(c.dcqcn_hw_en)
                        | (f(c.hw_rate_throttle_en) << 1)
                        | (f(c.tx_wqe_ost_limit_en) << 2)
                        | (f(c.speed_limiter_en) << 3),
                );
                c.dcqcn_hw_en = w & 1 == 1;
                c.hw_rate_throttle_en = w >> 1 & 1 == 1;
                c.tx_wqe_ost_limit_en = w >> 2 & 1 == 1;
                c.speed_limiter_en = w >> 3 & 1 == 1;
            }
            addr::CNP_MERGE_PERIOD => c.cnp_merge_period = merge(f(c.cnp_merge_period)) as u16,
            addr::NOCNP_TIMER_TH => c.nocnp_timer_th = merge(c.nocnp_timer_th) & M24,
            addr::BYTE_CNT_TH => c.byte_cnt_th = merge(c.byte_cnt_th),
            addr::MAX_RATE => c.max_rate = merge(c.max_rate) & M24,
            addr::ALPHA_TIMER_TH => c.alpha_timer_th = merge(f(c.alpha_timer_th)) as u16,
            addr::ALPHA_CFG => {
                let w = merge(
                    f(c.upd_alpha_g) | (f(c.alpha_rate_shift) << 16) | (f(c.alpha_init) << 20),
                );
                c.upd_alpha_g = (w & 0x3FF) as u16;
                c.alpha_rate_shift = (w >> 16 & 0xF) as u8;
                c.alpha_init = (w >> 20 & 0x3FF) as u16;
            }
            addr::RATE_AI => c.rate_ai = merge(c.rate_ai) & M24,
            addr::RATE_HAI => c.rate_hai = merge(c.rate_hai) & M24,
            addr::RATE_MIN => c.rate_min = merge(c.rate_min) & M24,
            addr::INC_CFG => {
                let w = merge(f(c.stage_threshold) | (f(c.clamp_tgt) << 8));
                c.stage_threshold = w as u8;
                c.clamp_tgt = w >> 8 & 1 == 1;
            }
            addr::CNP_TIMER_THRD => c.cnp_timer_thrd = merge(c.cnp_timer_thrd) & M24,
            addr::OST_LIMITS => {
                let w = merge(f(c.ost_limit) | (f(c.ost_limit_cnp) << 8));
                c.ost_limit = w as u8;
                c.ost_limit_cnp = (w >> 8) as u8;
            }
            addr::CREDIT_CAP => c.credit_cap = merge(c.credit_cap) & ((1 << 21) - 1),
            addr::CNT_CTRL => return (action(0), false),
            addr::DFX_CTRL => {
                let w = merge(f(c.dfx_en) | (f(c.dfx_wrap) << 1));
                c.dfx_en = w & 1 == 1;
                c.dfx_wrap = w >> 1 & 1 == 1;
                return (false, action(8));
            }
            addr::DFX_SEL => c.dfx_sel = (merge(f(c.dfx_sel)) & 0x3F) as u8,
            addr::DFX_QP => c.dfx_qp = (merge(f(c.dfx_qp)) & 0xFFF) as u16,
            _ => {}
        }
        (false, false)
    }

    /// The clock edge (not called in a reset cycle): responses, pending accesses, configuration
    /// writes, counters and the DFX window. Returns the DFX record of the cycle, if any.
    pub fn next(
        &mut self,
        a: &MqAxilIn,
        bc: &BusComb,
        done: &WinDone,
        ev: &CountEvents,
        p: &MqParams,
        dfx_mem: &mut [u64],
    ) -> Option<DfxWrite> {
        let s = *self;
        let qps = p.qps();
        // An injected pending access to a QP >= QPS completes at once with DECERR (spec-mq 6.1).
        let w_bad = s.bus.wpend && u32::from(s.bus.wq) >= qps;
        let r_bad = s.bus.rpend && u32::from(s.bus.rq) >= qps;

        // Write channel: a global or DECERR write is answered in the next cycle, a window write
        // when its QP's visit completes it.
        let (mut cnt_clear, mut dfx_clear) = (false, false);
        let held_b = s.bus.bvalid && !a.bready;
        let b = &mut self.bus;
        b.bvalid = held_b || done.write || w_bad;
        if bc.wr_en {
            match bc.wr {
                WriteKind::Global(word) => {
                    b.bvalid = true;
                    b.bresp = OKAY;
                    (cnt_clear, dfx_clear) =
                        Self::global_write(&mut self.cfg, word, a.wdata, a.wstrb);
                }
                WriteKind::Decerr => {
                    b.bvalid = true;
                    b.bresp = DECERR;
                }
                WriteKind::Pending { q, word } => {
                    b.wpend = true;
                    b.wq = q;
                    b.wword = word;
                    b.wdata = a.wdata;
                    b.wstrb = a.wstrb & 0xF;
                }
            }
        } else if done.write {
            b.wpend = false;
            b.bresp = OKAY;
        } else if w_bad {
            b.wpend = false;
            b.bresp = DECERR;
        }

        // Read channel; a read of `cnt_grant_bytes_lo` latches the high word (spec-mq 6.1).
        let mut latch = false;
        let b = &mut self.bus;
        b.rvalid = (s.bus.rvalid && !a.rready) || done.read.is_some() || r_bad;
        if bc.rd_en {
            match bc.rd {
                ReadKind::Now { data, resp } => {
                    b.rvalid = true;
                    b.rdata = data;
                    b.rresp = resp;
                    latch = resp == OKAY && a.araddr & 0x1F_FFFC == addr::CNT_GRANT_BYTES_LO;
                }
                ReadKind::Pending { q, word } => {
                    b.rpend = true;
                    b.rq = q;
                    b.rword = word;
                }
            }
        } else if let Some(data) = done.read {
            b.rpend = false;
            b.rdata = data;
            b.rresp = OKAY;
        } else if r_bad {
            b.rpend = false;
            b.rdata = 0;
            b.rresp = DECERR;
        }

        // Counters (spec-mq 6.1, 6.2): wrap; a clear wins over increments and the latch.
        let n = &mut self.cnt;
        if cnt_clear {
            *n = Counters::default();
        } else {
            let add = |c: &mut u32, on: bool| *c = c.wrapping_add(u32::from(on));
            if latch {
                n.cnt_grant_bytes_latch = (s.cnt.cnt_grant_bytes >> 32) as u32;
            }
            add(&mut n.cnt_cnp, ev.cnp);
            add(&mut n.cnt_dec, ev.dec);
            add(&mut n.cnt_inc_fr, ev.inc_fr);
            add(&mut n.cnt_inc_ai, ev.inc_ai);
            add(&mut n.cnt_inc_hai, ev.inc_hai);
            add(&mut n.cnt_inc_timer, ev.inc_timer);
            add(&mut n.cnt_inc_byte, ev.inc_byte);
            add(&mut n.cnt_grant, ev.grant);
            n.cnt_grant_bytes = n.cnt_grant_bytes.wrapping_add(u64::from(ev.grant_bytes));
            add(&mut n.cnt_req, ev.req);
            add(&mut n.cnt_req_drop, ev.req_drop);
            add(&mut n.cnt_rpt, ev.rpt);
            add(&mut n.cnt_rpt_spurious, ev.rpt_spurious);
            n.cnt_bad_qp = n.cnt_bad_qp.wrapping_add(ev.bad_qp);
            n.cnt_init_drop = n.cnt_init_drop.wrapping_add(ev.init_drop);
        }

        // DFX window (spec-mq 5.9, docs/spec.md 4.10), armed by `cfg_dfx_en` of S(t).
        let d = &mut self.dfx;
        let ev_d = if s.cfg.dfx_en { ev.dfx } else { None };
        let full = s.dfx.dfx_count >= 64;
        let mut wd = None;
        if dfx_clear {
            *d = Dfx::default();
        } else {
            if let Some(e) = ev_d {
                if !full || s.cfg.dfx_wrap {
                    let entry = u64::from(e.typ & 7)
                        | (u64::from(e.both) << 3)
                        | (u64::from(e.rc & M24) << 4)
                        | (u64::from(s.dfx.dfx_time) << 28);
                    let index = s.dfx.dfx_wptr & 0x3F;
                    dfx_mem[index as usize % DFX_ENTRIES] = entry;
                    wd = Some(DfxWrite { index, entry });
                    d.dfx_wptr = (s.dfx.dfx_wptr + 1) & 0x3F;
                    d.dfx_count = if full { 64 } else { s.dfx.dfx_count + 1 };
                }
                d.dfx_lost |= full;
                if e.dec {
                    d.dfx_n_dec = sat_inc_n(d.dfx_n_dec, 10);
                } else {
                    if e.bf {
                        d.dfx_n_byte = sat_inc_n(d.dfx_n_byte, 10);
                    }
                    if e.tf {
                        d.dfx_n_timer = sat_inc_n(d.dfx_n_timer, 10);
                    }
                }
            }
            if s.cfg.dfx_en {
                d.dfx_time = d.dfx_time.saturating_add(1);
            }
        }
        wd
    }
}

/// The global words with a writable field (spec-mq 6.2); a write to any other mapped word answers
/// DECERR.
fn global_writable(a: u32) -> bool {
    matches!(
        a,
        addr::ENABLES
            | addr::CNP_MERGE_PERIOD
            | addr::NOCNP_TIMER_TH
            | addr::BYTE_CNT_TH
            | addr::MAX_RATE
            | addr::ALPHA_TIMER_TH
            | addr::ALPHA_CFG
            | addr::RATE_AI
            | addr::RATE_HAI
            | addr::RATE_MIN
            | addr::INC_CFG
            | addr::CNP_TIMER_THRD
            | addr::OST_LIMITS
            | addr::CREDIT_CAP
            | addr::CNT_CTRL
            | addr::DFX_CTRL
            | addr::DFX_SEL
            | addr::DFX_QP
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_mask_and_window_classes() {
        assert_eq!(lane_mask(0b0101), 0x00FF_00FF);
        assert_eq!(lane_mask(0xF), u32::MAX);
        assert_eq!(win_access(0x14 >> 2), 0);
        assert_eq!(win_access(0x2C >> 2), 0);
        assert_eq!(win_access(0x48 >> 2), 0);
        assert_eq!(win_access(0xFC >> 2), 0);
        assert_eq!(win_access(win::QP_CREDIT), 1);
        assert_eq!(win_access(win::QP_CTRL), 2);
    }

    #[test]
    fn window_write_respects_lanes_and_field_widths() {
        let mut r = Record {
            alpha: 0x155,
            alpha_el: 0x1234,
            ..Record::default()
        };
        let mut m = false;
        // Lane 2 only: alpha_el low byte.
        window_write(win::QP_ALPHA, 0xFFFF_FFFF, 0b0100, &mut r, &mut m);
        assert_eq!((r.alpha, r.alpha_el), (0x155, 0x12FF));
        window_write(win::QP_RATE, 0xFFFF_FFFF, 0xF, &mut r, &mut m);
        assert_eq!(r.rc, M24);
        window_write(win::QP_CTRL, 0x1, 0b0010, &mut r, &mut m);
        assert!(!m, "bit 0 is in lane 0");
        window_write(win::QP_CTRL, 0x1, 0b0001, &mut r, &mut m);
        assert!(m);
    }
}
