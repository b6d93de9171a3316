//! Bit-exact, cycle-accurate model of the DCQCN rate limiter specified in `docs/spec.md`.
//!
//! The model is the reference the RTL is lock-stepped against. It mirrors the RTL module by module,
//! each a [`Block`] (`block.rs`): a state struct with its reset value, a combinational function of
//! (registers, inputs, configuration) -> (outputs, events), and the clock edge `next`;
//! [`RateLimiter::step`] composes them as `dcqcn_rl` wires its modules, one call per clock cycle.
//! Side by side: `cnp_sync.rs` = `rtl/dcqcn_cnp_sync.sv`, `alpha.rs` = `dcqcn_alpha`, `rate_dec.rs` =
//! `dcqcn_rate_dec`, `rate_inc.rs` = `dcqcn_rate_inc`, `credit_gate.rs` = `dcqcn_credit_gate`,
//! `regs.rs` = `dcqcn_regs`, and [`RateLimiter`]'s rate registers = `dcqcn_rl`.
//!
//! What the crate is: the block's behaviour (spec 2-7), its register map and configuration values
//! (`regmap`, `config`), the comparison record (`snapshot`) and a closed-form skip over uneventful
//! stretches (`skip.rs`). What it is not: it reads no files, parses no user text, draws no random
//! numbers, starts no threads and calls no foreign code (`tests/purity.rs` holds this). Register
//! files, units and random streams are in `dcqcn-harness`; stimulus and the Verilator lockstep in
//! `dcqcn-cosim`; the network simulation in `dcqcn-net`.

pub mod alpha;
pub mod block;
pub mod cnp_sync;
pub mod config;
pub mod credit_gate;
pub mod fixed;
pub mod mq;
pub mod nscc;
pub mod params;
pub mod profiles;
pub mod rate_dec;
pub mod rate_inc;
pub mod regmap;
pub mod regs;
mod skip;
pub mod snapshot;

pub use config::Config;
pub use credit_gate::{AxisIn, DATA_WORDS};
pub use params::{Features, ParamError, Params};
pub use profiles::NamedConfig;
pub use rate_inc::Phase;
pub use regs::AxilIn;
pub use skip::Streamed;
pub use snapshot::Snapshot;

pub use block::Block;

use alpha::{Alpha, AlphaIn};
use cnp_sync::{CnpSync, CnpSyncIn};
use credit_gate::{CreditGate, GateIn};
use rate_dec::{RateDec, RateDecIn, RateDecOut};
use rate_inc::{RateInc, RateIncIn, RateIncOut};
use regs::{Events, Monitors, Regs, RegsIn};

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

impl Inputs {
    /// The cycle's inputs in one line, as mismatch reports list them (tdata left out).
    pub fn describe(&self) -> String {
        format!(
            "rst={} cnp={} s_tvalid={} s_tkeep={:#x} s_tlast={} m_tready={} aw={}@{:#05x} w={}:{:#010x}/{:x} bready={} ar={}@{:#05x} rready={}",
            u8::from(self.rst),
            u8::from(self.cnp),
            u8::from(self.s_axis.tvalid),
            self.s_axis.tkeep,
            u8::from(self.s_axis.tlast),
            u8::from(self.m_axis_tready),
            u8::from(self.axil.awvalid),
            self.axil.awaddr,
            u8::from(self.axil.wvalid),
            self.axil.wdata,
            self.axil.wstrb,
            u8::from(self.axil.bready),
            u8::from(self.axil.arvalid),
            self.axil.araddr,
            u8::from(self.axil.rready)
        )
    }
}

impl Outputs {
    /// The cycle's outputs in one line, as mismatch reports list them (tdata left out).
    pub fn describe(&self) -> String {
        format!(
            "s_tready={} m_tvalid={} m_tkeep={:#x} m_tlast={} awready={} bvalid={}/{} arready={} rvalid={}/{}:{:#010x}",
            u8::from(self.s_axis_tready),
            u8::from(self.m_axis_tvalid),
            self.m_axis_tkeep,
            u8::from(self.m_axis_tlast),
            u8::from(self.s_axil_awready),
            u8::from(self.s_axil_bvalid),
            self.s_axil_bresp,
            u8::from(self.s_axil_arready),
            u8::from(self.s_axil_rvalid),
            self.s_axil_rresp,
            self.s_axil_rdata
        )
    }
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
    /// spec 2: this state with the registers of the features `p` does not build at their reset
    /// values (what they always hold there): a state drawn or saved for the full block becomes
    /// one of a block without some features.
    pub fn restricted(mut self, p: &Params) -> State {
        self.regs.restrict(p);
        self
    }

    pub fn reset(p: &Params) -> State {
        State {
            cnp: CnpSync::reset(p),
            rc: p.line_rate(),
            rt: p.line_rate(),
            active: false,
            alpha: Alpha::reset(p),
            dec: RateDec::reset(p),
            inc: RateInc::reset(p),
            gate: CreditGate::reset(p),
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

/// What the quiet cycles between two full ones share, fixed at the full one (a cache: derived from
/// the state and the configuration, which only full cycles change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct QuietPlan {
    /// Cycles certainly quiet from now (0: the next cycle is a full one).
    budget: u64,
    /// bpc(Rc), which the credit rate takes at every quiet edge (Rc holds).
    bpc: u32,
    /// The credit cap, Q32.16.
    cap_q: u64,
}

impl QuietPlan {
    /// No quiet cycle until the next full one.
    const NONE: QuietPlan = QuietPlan {
        budget: 0,
        bpc: 0,
        cap_q: 0,
    };
}

/// One rate limiter instance.
#[derive(Clone, Debug)]
pub struct RateLimiter {
    params: Params,
    state: State,
    events: CycleEvents,
    /// What the quiet cycles until the next full one need (a cache of the state, not state:
    /// recomputed after every full cycle; see [`RateLimiter::quiet`]).
    quiet: QuietPlan,
    /// Use the quiet-cycle fast path (on by default; off only to test it against the full path).
    fast_path: bool,
    /// The outputs of the last full cycle. `step` returns a copy of them rather than letting
    /// `cycle_full` write into its return value: the full path is an out-of-line call, and a
    /// return slot it writes through would have to hold every output of every cycle in memory,
    /// so a caller reading a few outputs of a quiet cycle (a sender: the handshakes) would pay
    /// for the other fields, the 64-byte data beat among them. A cache, not state.
    full_out: Outputs,
}

impl RateLimiter {
    pub fn new(params: Params) -> RateLimiter {
        RateLimiter {
            params,
            state: State::reset(&params),
            events: CycleEvents::default(),
            quiet: QuietPlan::NONE,
            fast_path: true,
            full_out: Outputs::default(),
        }
    }

    /// Turns the quiet-cycle fast path off (or back on). Both paths compute the same cycle; this
    /// exists so that a test can hold one against the other.
    pub fn set_fast_path(&mut self, on: bool) {
        self.fast_path = on;
        self.quiet = QuietPlan::NONE;
    }

    pub fn params(&self) -> &Params {
        &self.params
    }
    pub fn state(&self) -> &State {
        &self.state
    }
    /// Mutable state, for tests that start from a constructed state.
    pub fn state_mut(&mut self) -> &mut State {
        self.quiet = QuietPlan::NONE;
        &mut self.state
    }
    pub fn events(&self) -> &CycleEvents {
        &self.events
    }

    /// The event trace's registers and storage (spec 4.10; [`regs::Trace::entries`] reads the
    /// window oldest first).
    pub fn trace(&self) -> &regs::Trace {
        &self.state.regs.trace
    }

    /// Sets the configuration registers directly, as if written through AXI4-Lite (test shortcut):
    /// an absent feature's registers keep their reset values (spec 2).
    pub fn set_config(&mut self, cfg: Config) {
        self.state.regs.cfg = cfg;
        self.state.regs.restrict(&self.params);
        self.quiet = QuietPlan::NONE;
    }

    /// One clock cycle: returns the outputs of this cycle and advances every register (spec 4.0).
    #[inline(always)]
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        if self.quiet(i) {
            self.quiet.budget -= 1;
            self.cycle_quiet(i)
        } else {
            self.full_out = self.cycle_full(i);
            self.quiet = self.quiet_plan();
            self.full_out
        }
    }

    /// A quiet cycle: no reset, no bypass, no CNP edge or pending decrease, no alpha, timer or
    /// byte-counter event, no bus activity. Most cycles are quiet. What only a full cycle can
    /// change (a pending decrease, a bus response, the fast path switched off) is folded into the
    /// budget; the rest is checked here.
    #[inline(always)]
    fn quiet(&self, i: &Inputs) -> bool {
        // Bitwise on the flags: one branch for the whole test.
        (self.quiet.budget > 0) & self.calm_ports(i) & !self.state.cnp.edge()
    }

    /// The plan of the quiet cycles after a full one. Its budget is 0 while the fast path is off,
    /// a decrease is pending or a bus response is held (none of them changes in a quiet cycle),
    /// else the timers' bound; Rc and the configuration hold until the next full cycle, and with
    /// them bpc(Rc) and the credit cap.
    #[inline(always)]
    fn quiet_plan(&self) -> QuietPlan {
        let s = &self.state;
        let budget = if !self.fast_path || self.full_cycle_pending() {
            0
        } else {
            self.quiet_cycles_ahead()
        };
        QuietPlan {
            budget,
            bpc: self.params.bpc(s.rc),
            cap_q: credit_gate::cap_q(&s.regs.cfg, &self.params),
        }
    }

    /// The ports' half of [`Self::calm`]: no reset and no bus request this cycle.
    #[inline(always)]
    fn calm_ports(&self, i: &Inputs) -> bool {
        !(i.rst | (i.axil.awvalid & i.axil.wvalid) | i.axil.arvalid)
    }

    /// The per-cycle half of a quiet cycle (the other half is the timers' budget): no reset, no
    /// CNP edge or pending decrease, no bus activity. Shared with the closed-form skip.
    #[inline(always)]
    fn calm(&self, i: &Inputs) -> bool {
        self.calm_ports(i) && !self.state.cnp.edge() && !self.full_cycle_pending()
    }

    /// A decrease is pending or a bus response is held: only a full cycle ends either.
    #[inline(always)]
    fn full_cycle_pending(&self) -> bool {
        let s = &self.state;
        s.dec.dec_pending || s.regs.axil.bvalid || s.regs.axil.rvalid
    }

    /// How many cycles from now are certainly free of alpha, timer and byte-counter events, given
    /// that configuration and restarts only change in full cycles: each block's own bound (each
    /// timer advances by one per quiet cycle and the byte counter by at most one beat).
    fn quiet_cycles_ahead(&self) -> u64 {
        let s = &self.state;
        let cfg = &s.regs.cfg;
        if cfg.bypass || !cfg.hw_scheme() {
            return 0;
        }
        s.alpha.quiet_cycles(s.active, cfg).min(s.inc.quiet_cycles(
            s.active,
            cfg,
            self.params.data_bytes(),
        ))
    }

    /// A quiet cycle: each block's own closed form for one cycle. The credit gate is the only
    /// block that sees the stream (gated by credit: no bypass, open scheme or gate mask); the CNP
    /// pins shift, the timers tick, the traffic counters count, and nothing else changes.
    #[inline(always)]
    fn cycle_quiet(&mut self, i: &Inputs) -> Outputs {
        let s = &mut self.state;
        let bus = &s.regs.axil;
        let mut out = Outputs {
            s_axis_tready: false,
            m_axis_tvalid: s.gate.m_valid,
            m_axis_tdata: s.gate.m_data,
            m_axis_tkeep: s.gate.m_keep,
            m_axis_tlast: s.gate.m_last,
            // No handshake on the bus, and no response held (the budget is 0 with one).
            s_axil_awready: false,
            s_axil_wready: false,
            s_axil_bvalid: false,
            s_axil_bresp: bus.bresp,
            s_axil_arready: false,
            s_axil_rvalid: false,
            s_axil_rdata: bus.rdata,
            s_axil_rresp: bus.rresp,
        };
        let gate = s
            .gate
            .gated_cycle(&i.s_axis, i.m_axis_tready, self.quiet.bpc, self.quiet.cap_q);
        out.s_axis_tready = gate.s_tready;
        s.cnp.shift(i.cnp);
        let active = s.active;
        s.alpha.skip_quiet(active, 1);
        s.inc.skip_quiet(active, &s.regs.cfg, 1, gate.bytes_in);
        s.dec.skip_quiet(1);
        s.regs
            .skip_quiet(1, u64::from(gate.stall), u64::from(gate.bytes_in));
        self.events = CycleEvents {
            load: gate.load,
            bytes_in: gate.bytes_in,
            stall: gate.stall,
            ..CycleEvents::default()
        };
        out
    }

    /// One cycle, composed as `dcqcn_rl` wires its modules: every block's combinational outputs
    /// from the registers of the cycle, then every block's clock edge.
    #[inline(never)]
    fn cycle_full(&mut self, i: &Inputs) -> Outputs {
        let p = self.params;
        let s = &mut self.state;
        let cfg = s.regs.cfg;
        let (p, cfg) = (&p, &cfg);
        let rst = i.rst;

        // Combinational signals of the cycle (spec 4.0: all from the registers before the edge).
        let cnp_in = CnpSyncIn { cnp: i.cnp };
        let cnp = s.cnp.comb(&cnp_in, cfg, p);
        let active = s.active;
        let alpha_in = AlphaIn {
            cnp_event: cnp.cnp_event,
            active,
        };
        let alpha = s.alpha.comb(&alpha_in, cfg, p);
        let dec_in = RateDecIn {
            cnp_event: cnp.cnp_event,
            rc: s.rc,
            rt: s.rt,
            alpha: s.alpha.alpha,
            t_stage: s.inc.t_stage,
            b_stage: s.inc.b_stage,
            active,
        };
        let dec = s.dec.comb(&dec_in, cfg, p);
        let gate_in = GateIn {
            rst,
            s: &i.s_axis,
            m_tready: i.m_axis_tready,
            rc: s.rc,
        };
        let gate = s.gate.comb(&gate_in, cfg, p);
        let inc_in = RateIncIn {
            dec_fire: dec.dec_fire,
            bytes_in: gate.bytes_in,
            active,
            rc: s.rc,
            rt: s.rt,
            rc_dec: dec.rc_dec,
            rt_dec: dec.rt_dec,
        };
        let inc = s.inc.comb(&inc_in, cfg, p);
        let mut regs_in = RegsIn {
            rst,
            axil: &i.axil,
            mon: Monitors {
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
            ev: Events {
                cnp_edge: cnp.cnp_edge,
                dec_fire: dec.dec_fire,
                inc: inc.phase,
                timer_fire: inc.timer_fire,
                byte_fire: inc.byte_fire,
                stall: gate.stall,
                bytes_in: gate.bytes_in,
                rc_next: s.rc,
            },
        };
        let regs = s.regs.comb(&regs_in, cfg, p);

        let out = Outputs {
            s_axis_tready: gate.s_tready,
            m_axis_tvalid: s.gate.m_valid,
            m_axis_tdata: s.gate.m_data,
            m_axis_tkeep: s.gate.m_keep,
            m_axis_tlast: s.gate.m_last,
            s_axil_awready: regs.wr_en,
            s_axil_wready: regs.wr_en,
            s_axil_bvalid: s.regs.axil.bvalid,
            s_axil_bresp: s.regs.axil.bresp,
            s_axil_arready: regs.rd_en,
            s_axil_rvalid: s.regs.axil.rvalid,
            s_axil_rdata: s.regs.axil.rdata,
            s_axil_rresp: s.regs.axil.rresp,
        };

        if rst {
            *s = State::reset(p);
            self.events = CycleEvents::default();
            return out;
        }

        // The clock edge: each block from its own registers and the signals above.
        (s.rc, s.rt, s.active) = rates_next(s.rc, s.rt, active, cfg, p, &dec, &inc);
        regs_in.ev.rc_next = s.rc;
        s.alpha.next(&alpha_in, &alpha, cfg, p);
        s.dec.next(&dec_in, &dec, cfg, p);
        s.inc.next(&inc_in, &inc, cfg, p);
        s.regs.next(&regs_in, &regs, cfg, p);
        s.cnp.next(&cnp_in, &cnp, cfg, p);
        s.gate.next(&gate_in, &gate, cfg, p);

        self.events = CycleEvents {
            cnp_edge: cnp.cnp_edge,
            dec_fire: dec.dec_fire,
            alpha_fire: alpha.alpha_fire,
            timer_fire: inc.timer_fire,
            byte_fire: inc.byte_fire,
            inc: inc.phase,
            load: gate.load,
            bytes_in: gate.bytes_in,
            stall: gate.stall,
        };
        out
    }

    /// The comparison record of the cycle just stepped: its outputs and the registers after the edge.
    pub fn snapshot(&self, out: &Outputs) -> Snapshot {
        Snapshot::from_model(out, &self.state)
    }
}

/// `dcqcn_rl`'s own registers (spec 4.2, 4.6, 4.9): (Rc, Rt, active) after the edge.
/// Priority: bypass > firmware rate (scheme bit 0) > decrease > increase > hold.
#[inline(always)]
fn rates_next(
    rc: u32,
    rt: u32,
    active: bool,
    cfg: &Config,
    p: &Params,
    dec: &RateDecOut,
    inc: &RateIncOut,
) -> (u32, u32, bool) {
    let (rc, rt) = if cfg.bypass {
        (p.line_rate(), p.line_rate())
    } else if cfg.scheme & config::SCHEME_FW_RATE != 0 {
        let fw = cfg.fw_rc(p.line_rate());
        (fw, fw)
    } else if dec.dec_fire || inc.inc_event {
        // spec 4.6: the increase process's update, ceiling applied (a decrease wins there)
        (inc.rc_upd, inc.rt_upd)
    } else {
        (rc, rt)
    };
    // Set by the first decrease, cleared by reset and a held reaction point.
    (rc, rt, !cfg.rp_held() && (active || dec.dec_fire))
}
