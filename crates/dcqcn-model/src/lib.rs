//! Bit-exact, cycle-accurate model of the DCQCN rate limiter specified in `docs/spec.md`.
//!
//! The model is the reference the RTL is lock-stepped against. It mirrors the RTL block by block:
//! one state struct per RTL module with a reset constant and a pure `next`, composed by
//! [`RateLimiter::step`], one call per clock cycle. It is pure: no FFI, no I/O, no threads.
//! It is not a network simulator and not a stimulus generator (see `dcqcn-cosim`).

pub mod alpha;
pub mod cnp_sync;
pub mod config;
pub mod credit_gate;
pub mod fixed;
pub mod params;
pub mod rate_dec;
pub mod rate_inc;
pub mod regmap;
pub mod regs;
mod skip;
pub mod snapshot;

pub use config::{Config, NamedConfig};
pub use credit_gate::{AxisIn, DATA_WORDS};
pub use params::{ParamError, Params};
pub use rate_inc::Phase;
pub use regs::AxilIn;
pub use snapshot::Snapshot;

use alpha::{Alpha, AlphaIn};
use cnp_sync::CnpSync;
use credit_gate::keep_bytes;
use credit_gate::{CreditGate, GateIn};
use rate_dec::{DecCfg, RateDec};
use rate_inc::{IncCfg, RateInc};
use regs::{Events, Monitors, Regs};

/// The port inputs of one clock cycle (spec 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub rst: bool,
    pub cnp: bool,
    pub s_axis: AxisIn,
    pub m_axis_tready: bool,
    pub axil: AxilIn,
}

/// The port outputs of one clock cycle (spec 3), sampled before the clock edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_axis_tready: bool,
    pub m_axis_tvalid: bool,
    pub m_axis_tdata: [u64; DATA_WORDS],
    pub m_axis_tkeep: u64,
    pub m_axis_tlast: bool,
    pub s_axil_awready: bool,
    pub s_axil_wready: bool,
    pub s_axil_bvalid: bool,
    pub s_axil_bresp: u8,
    pub s_axil_arready: bool,
    pub s_axil_rvalid: bool,
    pub s_axil_rdata: u32,
    pub s_axil_rresp: u8,
}

/// All registers of the block (spec 7), one field per RTL module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub cnp: CnpSync,
    /// Current rate Rc, bytes/s.
    pub rc: u32,
    /// Target rate Rt, bytes/s.
    pub rt: u32,
    pub active: bool,
    pub alpha: Alpha,
    pub dec: RateDec,
    pub inc: RateInc,
    pub gate: CreditGate,
    pub regs: Regs,
}

impl State {
    /// The port outputs of a cycle: the registered ones from this state, plus the combinational
    /// handshakes (`wr_en` drives awready and wready, `rd_en` arready).
    #[inline(always)]
    fn outputs(&self, s_tready: bool, wr_en: bool, rd_en: bool) -> Outputs {
        Outputs {
            s_axis_tready: s_tready,
            m_axis_tvalid: self.gate.m_valid,
            m_axis_tdata: self.gate.m_data,
            m_axis_tkeep: self.gate.m_keep,
            m_axis_tlast: self.gate.m_last,
            s_axil_awready: wr_en,
            s_axil_wready: wr_en,
            s_axil_bvalid: self.regs.axil.bvalid,
            s_axil_bresp: self.regs.axil.bresp,
            s_axil_arready: rd_en,
            s_axil_rvalid: self.regs.axil.rvalid,
            s_axil_rdata: self.regs.axil.rdata,
            s_axil_rresp: self.regs.axil.rresp,
        }
    }

    pub fn reset(p: &Params) -> State {
        State {
            cnp: CnpSync::RESET,
            rc: p.line_rate(),
            rt: p.line_rate(),
            active: false,
            alpha: Alpha::RESET,
            dec: RateDec::RESET,
            inc: RateInc::RESET,
            gate: CreditGate::reset(p.bpc(p.line_rate())),
            regs: Regs::reset(p),
        }
    }
}

/// The internal events of the last stepped cycle (for traces, statistics and coverage; not
/// architectural state).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleEvents {
    pub cnp_edge: bool,
    pub dec_fire: bool,
    pub alpha_fire: bool,
    pub timer_fire: bool,
    pub byte_fire: bool,
    /// Phase of the increase event, if one happened (not cancelled).
    pub inc: Option<Phase>,
    pub load: bool,
    pub bytes_in: u32,
    pub stall: bool,
}

/// One rate limiter instance.
#[derive(Clone, Debug)]
pub struct RateLimiter {
    params: Params,
    state: State,
    events: CycleEvents,
    /// Cycles that are certainly free of alpha, timer and byte-counter events (a cache of the
    /// state, not state: recomputed after every full cycle; see [`RateLimiter::quiet`]).
    quiet_budget: u64,
    /// Use the quiet-cycle fast path (on by default; off only to test it against the full path).
    fast_path: bool,
}

impl RateLimiter {
    pub fn new(params: Params) -> RateLimiter {
        RateLimiter {
            params,
            state: State::reset(&params),
            events: CycleEvents::default(),
            quiet_budget: 0,
            fast_path: true,
        }
    }

    /// Turns the quiet-cycle fast path off (or back on). Both paths compute the same cycle; this
    /// exists so that a test can hold one against the other.
    pub fn set_fast_path(&mut self, on: bool) {
        self.fast_path = on;
        self.quiet_budget = 0;
    }

    pub fn params(&self) -> &Params {
        &self.params
    }
    pub fn state(&self) -> &State {
        &self.state
    }
    /// Mutable state, for tests that start from a constructed state.
    pub fn state_mut(&mut self) -> &mut State {
        self.quiet_budget = 0;
        &mut self.state
    }
    pub fn events(&self) -> &CycleEvents {
        &self.events
    }

    /// Sets the configuration registers directly, as if written through AXI4-Lite (test shortcut).
    pub fn set_config(&mut self, cfg: Config) {
        self.state.regs.cfg = cfg;
        self.quiet_budget = 0;
    }

    /// One clock cycle: returns the outputs of this cycle and advances every register (spec 4.0).
    ///
    /// Every combinational signal is computed first from the registers of the cycle; then each
    /// block's registers advance, each reading only values from before the edge. Small blocks use
    /// their pure `next`; the datapath register and the register file update in place so that the
    /// common cycle (no event, no bus access) copies almost nothing.
    #[inline(always)]
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        if self.fast_path && self.quiet(i) {
            self.quiet_budget -= 1;
            self.step_quiet(i)
        } else {
            let out = self.step_full(i);
            self.quiet_budget = self.quiet_cycles_ahead();
            out
        }
    }

    /// A quiet cycle: no reset, no bypass, no CNP edge or pending decrease, no alpha, timer or
    /// byte-counter event, no bus activity. Most cycles are quiet; in them only the timers, the
    /// datapath, the traffic counters and the synchroniser advance.
    #[inline(always)]
    fn quiet(&self, i: &Inputs) -> bool {
        self.quiet_budget > 0 && self.calm(i)
    }

    /// The per-cycle half of a quiet cycle (the other half is the timers' budget): no reset, no
    /// CNP edge or pending decrease, no bus activity. Shared with the closed-form skip.
    #[inline(always)]
    fn calm(&self, i: &Inputs) -> bool {
        let s = &self.state;
        let bus = &s.regs.axil;
        !(i.rst
            || s.cnp.edge()
            || s.dec.dec_pending
            || bus.bvalid
            || bus.rvalid
            || (i.axil.awvalid && i.axil.wvalid)
            || i.axil.arvalid)
    }

    /// How many cycles from now are certainly free of alpha, timer and byte-counter events, given
    /// that configuration and restarts only change in full cycles: each timer advances by one per
    /// quiet cycle and the byte counter by at most one beat.
    fn quiet_cycles_ahead(&self) -> u64 {
        let s = &self.state;
        let cfg = &s.regs.cfg;
        if cfg.bypass {
            return 0;
        }
        if !s.active {
            return u64::MAX;
        }
        // Cycles until `expired(timer, interval)` would hold (0 if it holds now).
        let until = |timer: u64, interval: u64| interval.saturating_sub(timer + 1);
        let mut n = until(
            u64::from(s.alpha.alpha_timer),
            u64::from(cfg.alpha_interval),
        );
        if cfg.timer_en {
            n = n.min(until(
                u64::from(s.inc.inc_timer),
                u64::from(cfg.inc_interval),
            ));
        }
        if cfg.byte_en {
            let left =
                u64::from(cfg.byte_threshold.max(1)).saturating_sub(u64::from(s.inc.byte_cnt));
            // The counter must still be below the threshold after this many full beats.
            n = n.min(left.saturating_sub(1) / u64::from(self.params.data_bytes()));
        }
        n
    }

    /// [`Self::step_full`] specialised to a quiet cycle; the lockstep holds the two to the RTL.
    #[inline(always)]
    fn step_quiet(&mut self, i: &Inputs) -> Outputs {
        let p = self.params;
        let s = &mut self.state;
        let cfg = &s.regs.cfg;
        let beat_ok = s.gate.beat_ok(false, i.s_axis.tkeep);
        let s_tready = (!s.gate.m_valid || i.m_axis_tready) && beat_ok;
        let load = i.s_axis.tvalid && s_tready;
        let bytes_in = if load { keep_bytes(i.s_axis.tkeep) } else { 0 };
        let stall = i.s_axis.tvalid && (!s.gate.m_valid || i.m_axis_tready) && !beat_ok;
        let out = s.outputs(s_tready, false, false);
        if s.active {
            s.alpha.alpha_timer += 1;
            s.inc.inc_timer = if cfg.timer_en { s.inc.inc_timer + 1 } else { 0 };
            s.inc.byte_cnt = if cfg.byte_en {
                s.inc.byte_cnt.saturating_add(bytes_in)
            } else {
                0
            };
        }
        s.dec.dec_timer = fixed::sat_inc(s.dec.dec_timer);
        let cap_q = u64::from(cfg.credit_cap.max(p.data_bytes())) << 16;
        let bpc_next = p.bpc(s.rc);
        s.gate.update(&GateIn {
            s: &i.s_axis,
            m_tready: i.m_axis_tready,
            load,
            bytes_in,
            bypass: false,
            bpc_next,
            cap_q,
        });
        let n = &mut s.regs.cnt;
        n.cnt_stall = n.cnt_stall.wrapping_add(u32::from(stall));
        n.cnt_bytes = n.cnt_bytes.wrapping_add(u64::from(bytes_in));
        s.cnp = s.cnp.next(i.cnp);
        self.events = CycleEvents {
            load,
            bytes_in,
            stall,
            ..CycleEvents::default()
        };
        out
    }

    /// The general cycle: every process, every collision, reset and bus access.
    #[inline(never)]
    fn step_full(&mut self, i: &Inputs) -> Outputs {
        let p = self.params;
        let l = p.line_rate();
        let s = &mut self.state;
        let cfg = &s.regs.cfg;
        let bypass = cfg.bypass;
        let active = s.active;

        // Combinational signals of the cycle (spec 4.1-4.5, 5.3, 6.1).
        let cnp_edge = s.cnp.edge();
        let cnp_event = cnp_edge && !bypass;
        let dec_fire = s.dec.fire(cnp_event, cfg.dec_interval);
        let inc_cfg = IncCfg {
            timer_en: cfg.timer_en,
            byte_en: cfg.byte_en,
            inc_interval: cfg.inc_interval,
            byte_threshold: cfg.byte_threshold,
            stage_threshold: cfg.stage_threshold,
            rai: cfg.rai,
            rhai: cfg.rhai,
            line_rate: l,
        };
        let trig = s.inc.triggers(active, &inc_cfg);
        let inc_event = trig.any() && !dec_fire;
        let beat_ok = s.gate.beat_ok(bypass, i.s_axis.tkeep);
        let s_tready = s.gate.s_tready(i.rst, i.m_axis_tready, beat_ok);
        let load = i.s_axis.tvalid && s_tready;
        let bytes_in = if load { keep_bytes(i.s_axis.tkeep) } else { 0 };
        let wr_en = s.regs.wr_en(i.rst, &i.axil);
        let rd_en = s.regs.rd_en(i.rst, &i.axil);

        let out = s.outputs(s_tready, wr_en, rd_en);

        if i.rst {
            *s = State::reset(&p);
            self.events = CycleEvents::default();
            return out;
        }

        // spec 4.5: the phase is decided on the stage values after this cycle's event.
        let phase = if inc_event {
            let (t_new, b_new) = s.inc.new_stages(true, trig);
            Some(rate_inc::phase(t_new, b_new, &inc_cfg))
        } else {
            None
        };
        let alpha_fire = s.alpha.fires(active, cfg.alpha_interval);
        let alpha_in = AlphaIn {
            bypass,
            active,
            cnp_event,
            alpha_g: cfg.alpha_g,
            interval_cycles: cfg.alpha_interval,
        };
        let dec_cfg = DecCfg {
            dec_gain: cfg.dec_gain,
            clamp_tgt: cfg.clamp_tgt,
            rmin_eff: cfg.rmin.min(l),
        };
        let cap_q = u64::from(cfg.credit_cap.max(p.data_bytes())) << 16;
        let stall = i.s_axis.tvalid && (!s.gate.m_valid || i.m_axis_tready) && !beat_ok;
        let ev = Events {
            cnp_edge,
            dec_fire,
            inc: phase,
            inc_timer: inc_event && trig.timer_fire,
            inc_byte: inc_event && trig.byte_fire,
            stall,
            bytes_in,
        };

        // Register file first: a read shows the other blocks' registers before this edge.
        s.regs.update(
            &i.axil,
            wr_en,
            rd_en,
            &ev,
            || Monitors {
                rc: s.rc,
                rt: s.rt,
                alpha: s.alpha.alpha,
                credit: s.gate.credit,
                bpc: s.gate.bpc,
                t_stage: s.inc.t_stage,
                b_stage: s.inc.b_stage,
                active,
                dec_pending: s.dec.dec_pending,
                alpha_pending: s.alpha.alpha_pending,
            },
            &p,
        );

        // spec 5.1: bpc follows the Rc of this cycle (before the rate update below).
        let bpc_next = p.bpc(s.rc);

        // spec 4.6: bypass > decrease > increase > hold.
        if bypass {
            (s.rc, s.rt) = (l, l);
        } else if dec_fire {
            let increased = s.inc.t_stage != 0 || s.inc.b_stage != 0;
            (s.rc, s.rt) = rate_dec::result(s.rc, s.rt, s.alpha.alpha, increased, &dec_cfg);
        } else if let Some(ph) = phase {
            (s.rc, s.rt) = rate_inc::result(s.rc, s.rt, ph, &inc_cfg);
        }

        s.alpha = s.alpha.next(&alpha_in);
        s.dec = s.dec.next(bypass, cnp_event, dec_fire);
        s.inc = s.inc.next(
            bypass || !active || dec_fire,
            trig,
            inc_event,
            bytes_in,
            &inc_cfg,
        );
        s.active = !bypass && (active || dec_fire);
        s.gate.update(&GateIn {
            s: &i.s_axis,
            m_tready: i.m_axis_tready,
            load,
            bytes_in,
            bypass,
            bpc_next,
            cap_q,
        });
        s.cnp = s.cnp.next(i.cnp);

        self.events = CycleEvents {
            cnp_edge,
            dec_fire,
            alpha_fire,
            timer_fire: trig.timer_fire,
            byte_fire: trig.byte_fire,
            inc: phase,
            load,
            bytes_in,
            stall,
        };
        out
    }

    /// The comparison record of the cycle just stepped: its outputs and the registers after the edge.
    pub fn snapshot(&self, out: &Outputs) -> Snapshot {
        Snapshot::from_model(out, &self.state)
    }
}
