//! The top of the model, `MqBlock` (spec-mq 4.1; RTL `dcqcn_mq`): the bitmaps, the memories and
//! the processes of one clock cycle, wired as the RTL wires its modules.
//!
//! A cycle t reads S(t) only: every process computes its writes from the registers, bitmaps and
//! memories at the start of t and the inputs of t; then all writes land together at the closing
//! edge (spec-mq 4.1). Two results are shared within the cycle, as the spec names them: the joint
//! outstanding count (4.6) and the precedence of the bitmap bits two processes write (4.7), applied
//! here in one place, [`MqBlock::cycle`].

pub use super::bitmaps::{Bitmap, Bitmaps};
use super::grant::{self, GrantExec, GrantRegs};
use super::mem::{Credit, MqMems, Record};
use super::obs::{MqObs, WriteObs, STATE_FIELDS, STREAMS};
use super::params::MqParams;
use super::ports::{MqInputs, MqOutputs};
use super::regs::{win, BusComb, CountEvents, DfxWrite, Monitors, MqRegs, WriteKind};
use super::rpt::{self, RptExec, RptRegs};
use super::visit::{self, Scan, VisitKind};
use crate::rate_inc::Phase;

/// Every register and bitmap of the block: S(t) without the memories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MqState {
    pub scan: Scan,
    pub grant: GrantRegs,
    pub rpt: RptRegs,
    pub regs: MqRegs,
    pub bitmaps: Bitmaps,
}

impl MqState {
    pub fn reset(p: &MqParams) -> MqState {
        let regs = MqRegs::reset(p);
        MqState {
            scan: Scan::RESET,
            grant: GrantRegs::reset(p, &regs.cfg),
            rpt: RptRegs::default(),
            regs,
            bitmaps: Bitmaps::reset(p.qps()),
        }
    }
}

/// The memory writes of one cycle (spec-mq 8.2), one per write port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleWrites {
    /// The visit: QP and the record written (`CC_RATE_MEM` included).
    pub wv: Option<(u16, Record)>,
    /// The grant process: QP, credit entry, `gcnt`.
    pub wg: Option<(u16, Credit, u8)>,
    /// The report process: QP, `dcnt`, `sent`.
    pub wr: Option<(u16, u8, u32)>,
    /// The request input: QP, `req_bytes`.
    pub wq: Option<(u16, u16)>,
    /// The DFX window.
    pub wd: Option<DfxWrite>,
}

impl CycleWrites {
    /// The streams as obs.rs lays them out.
    pub fn to_obs(&self) -> [WriteObs; 5] {
        let mut w = [WriteObs::default(); 5];
        if let Some((q, r)) = self.wv {
            w[0] = WriteObs::of(&STREAMS[0], q, &r.wv_fields());
        }
        if let Some((q, c, g)) = self.wg {
            let v = [u64::from(c.credit as u32), u64::from(c.stamp), u64::from(g)];
            w[1] = WriteObs::of(&STREAMS[1], q, &v);
        }
        if let Some((q, d, s)) = self.wr {
            w[2] = WriteObs::of(&STREAMS[2], q, &[u64::from(d), u64::from(s)]);
        }
        if let Some((q, b)) = self.wq {
            w[3] = WriteObs::of(&STREAMS[3], q, &[u64::from(b)]);
        }
        if let Some(d) = self.wd {
            let e = d.entry;
            let v = [e & 7, (e >> 3) & 1, (e >> 4) & 0xFF_FFFF, e >> 28];
            w[4] = WriteObs::of(&STREAMS[4], u16::from(d.index), &v);
        }
        w
    }
}

/// The multi-QP DCQCN block `dcqcn_mq`: registers, bitmaps and memories, one [`MqBlock::step`]
/// per clock cycle.
#[derive(Clone, Debug)]
pub struct MqBlock {
    p: MqParams,
    s: MqState,
    mems: MqMems,
    /// Scratch for the eligibility words of a cycle (not state; no allocation per step).
    elig: Vec<u64>,
}

impl MqBlock {
    /// Registers and bitmaps at their reset values, memories all 0.
    pub fn new(p: MqParams) -> MqBlock {
        MqBlock {
            p,
            s: MqState::reset(&p),
            mems: MqMems::new(p.qps()),
            elig: vec![0; p.qps().div_ceil(64) as usize],
        }
    }

    pub fn params(&self) -> &MqParams {
        &self.p
    }
    /// The registers and bitmaps, S(t) of the next step.
    pub fn state(&self) -> &MqState {
        &self.s
    }
    /// For state injection (spec-mq 8.3) and tests: every value within its field's width is
    /// legal.
    pub fn state_mut(&mut self) -> &mut MqState {
        &mut self.s
    }
    pub fn mems(&self) -> &MqMems {
        &self.mems
    }
    /// For state injection (spec-mq 8.3) and tests.
    pub fn mems_mut(&mut self) -> &mut MqMems {
        &mut self.mems
    }

    /// One clock cycle t: the outputs the block drives in t, then the closing edge.
    #[inline]
    pub fn step(&mut self, i: &MqInputs) -> MqOutputs {
        self.cycle(i).0
    }

    /// [`MqBlock::step`] plus the observation of cycle t (obs.rs): S(t), its bitmaps and the
    /// memory writes of t.
    pub fn step_obs(&mut self, i: &MqInputs) -> (MqOutputs, MqObs) {
        let mut obs = self.obs_state();
        let (out, w) = self.cycle(i);
        obs.writes = w.to_obs();
        (out, obs)
    }

    /// State and bitmaps of the current S, writes all invalid.
    pub fn obs_state(&self) -> MqObs {
        MqObs {
            state: self.state_fields().iter().map(|f| f.1).collect(),
            bitmaps: self.s.bitmaps.in_order().map(|b| b.0.clone()),
            writes: [WriteObs::default(); 5],
        }
    }

    /// The state record's fields (obs.rs `STATE_FIELDS`), named, in order.
    pub fn state_fields(&self) -> Vec<(&'static str, u64)> {
        let s = &self.s;
        let (sc, g, r, b, c, n, d) = (
            &s.scan,
            &s.grant,
            &s.rpt,
            &s.regs.bus,
            &s.regs.cfg,
            &s.regs.cnt,
            &s.regs.dfx,
        );
        let f = |x: bool| u64::from(x);
        let fields = vec![
            ("now", u64::from(sc.now)),
            ("scan_q", u64::from(sc.scan_q)),
            ("init", f(sc.init)),
            ("rr", u64::from(g.rr)),
            ("gx_valid", f(g.gx_valid)),
            ("gx_qp", u64::from(g.gx_qp)),
            ("rx_valid", f(r.rx_valid)),
            ("rx_qp", u64::from(r.rx_qp)),
            ("rx_bytes", u64::from(r.rx_bytes)),
            ("pcredit", u64::from(g.pcredit as u32)),
            ("g_valid", f(g.g_valid)),
            ("g_qp", u64::from(g.g_qp)),
            ("g_bytes", u64::from(g.g_bytes)),
            ("wpend", f(b.wpend)),
            ("wq", u64::from(b.wq)),
            ("wword", u64::from(b.wword)),
            ("wdata", u64::from(b.wdata)),
            ("wstrb", u64::from(b.wstrb)),
            ("rpend", f(b.rpend)),
            ("rq", u64::from(b.rq)),
            ("rword", u64::from(b.rword)),
            ("bvalid", f(b.bvalid)),
            ("bresp", u64::from(b.bresp)),
            ("rvalid", f(b.rvalid)),
            ("rdata", u64::from(b.rdata)),
            ("rresp", u64::from(b.rresp)),
            ("cfg_dcqcn_hw_en", f(c.dcqcn_hw_en)),
            ("cfg_hw_rate_throttle_en", f(c.hw_rate_throttle_en)),
            ("cfg_tx_wqe_ost_limit_en", f(c.tx_wqe_ost_limit_en)),
            ("cfg_speed_limiter_en", f(c.speed_limiter_en)),
            ("cfg_cnp_merge_period", u64::from(c.cnp_merge_period)),
            ("cfg_nocnp_timer_th", u64::from(c.nocnp_timer_th)),
            ("cfg_byte_cnt_th", u64::from(c.byte_cnt_th)),
            ("cfg_max_rate", u64::from(c.max_rate)),
            ("cfg_alpha_timer_th", u64::from(c.alpha_timer_th)),
            ("cfg_upd_alpha_g", u64::from(c.upd_alpha_g)),
            ("cfg_alpha_rate_shift", u64::from(c.alpha_rate_shift)),
            ("cfg_alpha_init", u64::from(c.alpha_init)),
            ("cfg_rate_ai", u64::from(c.rate_ai)),
            ("cfg_rate_hai", u64::from(c.rate_hai)),
            ("cfg_rate_min", u64::from(c.rate_min)),
            ("cfg_stage_threshold", u64::from(c.stage_threshold)),
            ("cfg_clamp_tgt", f(c.clamp_tgt)),
            ("cfg_cnp_timer_thrd", u64::from(c.cnp_timer_thrd)),
            ("cfg_ost_limit", u64::from(c.ost_limit)),
            ("cfg_ost_limit_cnp", u64::from(c.ost_limit_cnp)),
            ("cfg_credit_cap", u64::from(c.credit_cap)),
            ("cfg_dfx_en", f(c.dfx_en)),
            ("cfg_dfx_wrap", f(c.dfx_wrap)),
            ("cfg_dfx_sel", u64::from(c.dfx_sel)),
            ("cfg_dfx_qp", u64::from(c.dfx_qp)),
            ("cnt_cnp", u64::from(n.cnt_cnp)),
            ("cnt_dec", u64::from(n.cnt_dec)),
            ("cnt_inc_fr", u64::from(n.cnt_inc_fr)),
            ("cnt_inc_ai", u64::from(n.cnt_inc_ai)),
            ("cnt_inc_hai", u64::from(n.cnt_inc_hai)),
            ("cnt_inc_timer", u64::from(n.cnt_inc_timer)),
            ("cnt_inc_byte", u64::from(n.cnt_inc_byte)),
            ("cnt_grant", u64::from(n.cnt_grant)),
            ("cnt_grant_bytes", n.cnt_grant_bytes),
            ("cnt_grant_bytes_latch", u64::from(n.cnt_grant_bytes_latch)),
            ("cnt_req", u64::from(n.cnt_req)),
            ("cnt_req_drop", u64::from(n.cnt_req_drop)),
            ("cnt_rpt", u64::from(n.cnt_rpt)),
            ("cnt_rpt_spurious", u64::from(n.cnt_rpt_spurious)),
            ("cnt_bad_qp", u64::from(n.cnt_bad_qp)),
            ("cnt_init_drop", u64::from(n.cnt_init_drop)),
            ("dfx_count", u64::from(d.dfx_count)),
            ("dfx_wptr", u64::from(d.dfx_wptr)),
            ("dfx_lost", f(d.dfx_lost)),
            ("dfx_n_dec", u64::from(d.dfx_n_dec)),
            ("dfx_n_byte", u64::from(d.dfx_n_byte)),
            ("dfx_n_timer", u64::from(d.dfx_n_timer)),
            ("dfx_time", u64::from(d.dfx_time)),
        ];
        debug_assert_eq!(fields.len(), STATE_FIELDS.len());
        fields
    }

    /// The outputs of cycle t: registered outputs from S(t), AXI readies from the handshake.
    #[inline]
    fn outputs(&self, bc: &BusComb) -> MqOutputs {
        let g = &self.s.grant;
        let b = &self.s.regs.bus;
        MqOutputs {
            m_grant_valid: g.g_valid,
            m_grant_qp: g.g_qp,
            m_grant_bytes: g.g_bytes,
            s_axil_awready: bc.wr_en,
            s_axil_wready: bc.wr_en,
            s_axil_arready: bc.rd_en,
            s_axil_bvalid: b.bvalid,
            s_axil_bresp: b.bresp,
            s_axil_rvalid: b.rvalid,
            s_axil_rdata: b.rdata,
            s_axil_rresp: b.rresp,
        }
    }

    /// One cycle: every process from S(t), then the edge.
    #[inline]
    fn cycle(&mut self, i: &MqInputs) -> (MqOutputs, CycleWrites) {
        let p = self.p;
        let qps = p.qps();
        let mon = Monitors {
            init: self.s.scan.init,
            pcredit: self.s.grant.pcredit,
            now: self.s.scan.now,
        };
        let bc = self
            .s
            .regs
            .bus_comb(&i.axil, i.rst, &p, &mon, &self.mems.dfx_mem);
        let out = self.outputs(&bc);
        let MqBlock { s, mems, elig, .. } = self;
        let cfg = s.regs.cfg;
        let (init, now) = (mon.init, mon.now);
        let mut w = CycleWrites::default();

        // spec-mq 4.1 "Reset": registers and bitmaps take their reset values, no memory is
        // written.
        if i.rst {
            let regs = MqRegs::reset(&p);
            s.scan = Scan::RESET;
            s.grant = GrantRegs::reset(&p, &regs.cfg);
            s.rpt = RptRegs::default();
            s.regs = regs;
            s.bitmaps.reset_in_place(qps);
            return (out, w);
        }

        // The visit (spec-mq 4.3, 5.4, 5.8, 6.1).
        let vo = visit::comb(&s.scan, mems, &s.bitmaps, &s.regs, &p);
        let clear_now = vo.kind == VisitKind::Clear;

        // The pick stage (spec-mq 4.5).
        let bus = &s.regs.bus;
        let next_scan = s.scan.next_scan(qps);
        // A qp_clear completes at the next visit: pending now, or accepted now (pending in S(t+1)).
        let accepted_clear = match bc.wr {
            WriteKind::Pending { q, word } => {
                bc.wr_en
                    && q == next_scan
                    && word == win::QP_CTRL
                    && i.axil.wstrb & 1 != 0
                    && (i.axil.wdata >> 1) & 1 == 1
            }
            _ => false,
        };
        let clear_next = (bus.wpend && bus.wclr() && next_scan == bus.wq) || accepted_clear;
        grant::eligibility(&s.bitmaps, &cfg, elig);
        let pick = grant::pick_stage(&s.grant, init, i.grant_pause, clear_next, &cfg, elig);

        // Grant and report execution (spec-mq 4.5, 4.6).
        let gx: Option<GrantExec> = grant::execute(&s.grant, init, clear_now, now, mems, &cfg, &p);
        let rx: Option<RptExec> = rpt::execute(&s.rpt, init, mems, &p);
        let (rpt_next, rpt_bad, rpt_drop) = rpt::input(&i.rpt, init, &p);

        // CNP input (spec-mq 5.3) and request input (4.4), from S(t).
        let cnp_bad = i.cnp.valid && u32::from(i.cnp.qp) >= qps;
        let cnp_ok = i.cnp.valid && !cnp_bad && !init;
        let cnp_drop = i.cnp.valid && !cnp_bad && init;
        let req_bad = i.req.valid && u32::from(i.req.qp) >= qps;
        let req_full = !req_bad && i.req.valid && s.bitmaps.req_valid.get(usize::from(i.req.qp));
        let accept = i.req.valid && !req_bad && !req_full;

        // The joint outstanding count (spec-mq 4.6) of each QP a clear, grant or report touches.
        let clr_q = clear_now.then_some(vo.v);
        let inc_q = gx.map(|x| x.q);
        let dec_q = rx.map(|x| x.q);
        let mut spurious = false;
        let mut touched: [Option<u16>; 3] = [clr_q, inc_q, dec_q];
        for k in 0..3 {
            let Some(q) = touched[k] else { continue };
            // Each QP once.
            for t in touched.iter_mut().skip(k + 1) {
                if *t == Some(q) {
                    *t = None;
                }
            }
            let (clr, inc, dec) = (clr_q == Some(q), inc_q == Some(q), dec_q == Some(q));
            let qi = usize::from(q);
            let j = rpt::joint(
                mems.grant_cnt_mem[qi],
                mems.done_cnt_mem[qi],
                clr,
                inc,
                dec,
                &cfg,
            );
            s.bitmaps.ost_lt_hi.set(qi, j.ost_lt_hi);
            s.bitmaps.ost_lt_lo.set(qi, j.ost_lt_lo);
            if inc {
                let x = gx.expect("inc has a grant");
                w.wg = Some((q, x.credit, j.gcnt));
            } else if clr {
                let c = Credit {
                    credit: cfg.capq() as i32,
                    stamp: now,
                };
                w.wg = Some((q, c, j.gcnt));
            }
            if dec {
                let x = rx.expect("dec has a report");
                w.wr = Some((q, j.dcnt, x.sent));
                spurious = j.spur;
            }
        }

        // The visit's writes: record, and at init the credit and counts through the grant and
        // report ports.
        let dcq = vo.dcqcn;
        match vo.kind {
            VisitKind::None => {}
            VisitKind::Init => {
                w.wv = Some((vo.v, vo.rec));
                let c = Credit {
                    credit: cfg.capq() as i32,
                    stamp: now,
                };
                w.wg = Some((vo.v, c, 0));
                w.wr = Some((vo.v, 0, 0));
            }
            VisitKind::Normal | VisitKind::Clear => w.wv = Some((vo.v, vo.rec)),
        }
        if accept {
            w.wq = Some((i.req.qp, i.req.bytes));
        }

        // Bitmaps, with the precedence of spec-mq 4.7 (later lines win).
        let bm = &mut s.bitmaps;
        let v = usize::from(vo.v);
        if let Some(q) = pick {
            bm.req_valid.set(usize::from(q), false);
        }
        match vo.kind {
            VisitKind::Normal => {
                if vo.wake {
                    bm.rate_ok.set(v, true);
                }
                if dcq.is_some_and(|d| d.lim_clr) {
                    bm.lim8.set(v, false);
                }
                bm.cnp_flag.set(v, false);
            }
            VisitKind::Clear => {
                bm.req_valid.set(v, false);
                bm.rate_ok.set(v, true);
                bm.lim8.set(v, false);
                bm.cnp_flag.set(v, false);
            }
            VisitKind::None | VisitKind::Init => {}
        }
        if let Some(m) = vo.arb_mask {
            bm.arb_mask.set(v, m);
        }
        if let Some(x) = gx {
            bm.rate_ok.set(usize::from(x.q), x.rate_ok);
        }
        if accept {
            bm.req_valid.set(usize::from(i.req.qp), true);
        }
        if cnp_ok {
            let q = usize::from(i.cnp.qp);
            bm.cnp_flag.set(q, true);
            bm.lim8.set(q, true);
        }

        // Memories.
        if let Some((q, r)) = w.wv {
            mems.set_record(usize::from(q), &r);
        }
        if let Some((q, c, g)) = w.wg {
            mems.cc_byte_cnt_mem[usize::from(q)] = c.pack();
            mems.grant_cnt_mem[usize::from(q)] = g;
        }
        if let Some((q, d, sent)) = w.wr {
            mems.done_cnt_mem[usize::from(q)] = d;
            mems.sent_mem[usize::from(q)] = sent;
        }
        if let Some((q, b)) = w.wq {
            mems.req_mem[usize::from(q)] = b;
        }

        // Registers: counters and DFX (regs), the grant and report registers, the scan.
        let ev = CountEvents {
            cnp: cnp_ok,
            dec: dcq.is_some_and(|d| d.dec),
            inc_fr: dcq.is_some_and(|d| d.inc && d.phase == Phase::FastRecovery),
            inc_ai: dcq.is_some_and(|d| d.inc && d.phase == Phase::Additive),
            inc_hai: dcq.is_some_and(|d| d.inc && d.phase == Phase::Hyper),
            inc_timer: dcq.is_some_and(|d| d.inc && d.tf),
            inc_byte: dcq.is_some_and(|d| d.inc && d.bf),
            grant: gx.is_some(),
            grant_bytes: gx.map_or(0, |x| x.bytes),
            req: accept,
            req_drop: req_full,
            rpt: rx.is_some(),
            rpt_spurious: spurious,
            bad_qp: u32::from(req_bad) + u32::from(cnp_bad) + u32::from(rpt_bad),
            init_drop: u32::from(cnp_drop) + u32::from(rpt_drop),
            dfx: visit::dfx_event(&vo, &cfg),
        };
        w.wd = s
            .regs
            .next(&i.axil, &bc, &vo.win, &ev, &p, &mut mems.dfx_mem);
        s.grant.next(pick, &gx, &cfg, &p);
        s.rpt = rpt_next;
        s.scan.next(qps);
        (out, w)
    }
}
