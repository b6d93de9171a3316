//! Closed-form skip over stretches of uneventful cycles, for long network simulations.
//!
//! Not part of the RTL contract and not used by the lockstep: [`RateLimiter::skip`] computes in
//! one call what `n` calls of [`RateLimiter::step`] with the same inputs would leave behind, and
//! only when every one of those cycles is certain to be uneventful. `tests/skip.rs` holds it to
//! stepping, register for register, over random configurations, states and inputs.

use crate::block::Block;
use crate::credit_gate::{keep_bytes, GateIn};
use crate::{CycleEvents, Inputs, RateLimiter};

/// What [`RateLimiter::skip_stream`] advanced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Streamed {
    /// Cycles advanced (0: step the next one).
    pub cycles: u64,
    /// Beats loaded from the source (`s_axis` handshakes).
    pub loads: u64,
    /// Beats handed downstream (`m_axis` handshakes), each the cycle after its load.
    pub handovers: u64,
}

impl RateLimiter {
    /// Advances up to `max_cycles` cycles with the inputs `i` held constant, exactly as that many
    /// calls of `step(i)` would, provided no beat is accepted or handed downstream in any of them
    /// and nothing fires. Returns the number of cycles advanced; 0 means the next cycle may be
    /// eventful and must be stepped.
    ///
    /// Two kinds of stretch are skipped:
    /// - a quiet stretch (no reset, no CNP edge or pending decrease, no bus activity, no alpha,
    ///   timer or byte-counter event) in which the source waits for credit or the output register
    ///   waits for `m_axis_tready`: the timers, the credit and the stall counter advance linearly;
    /// - in bypass, a stalled or idle stream whose cycle repeats itself (see `linear_point`).
    pub fn skip(&mut self, i: &Inputs, max_cycles: u64) -> u64 {
        if max_cycles == 0 || !self.state.regs.cfg.hw_scheme() {
            // spec 4.9: the other schemes and the gate mask are stepped.
            return 0;
        }
        let n = self.quiet_stretch(i).min(max_cycles);
        if n > 0 {
            self.advance_quiet(i, n);
            return n;
        }
        if self.state.regs.cfg.bypass {
            // No beat may move: none loaded, none handed downstream.
            return self.linear_point(i, max_cycles, 0, false).cycles;
        }
        0
    }

    /// Advances a stretch in which the limiter streams a saturating source at a constant Rc, in
    /// closed form: `tvalid` and `m_axis_tready` held high with the same beat offered each cycle
    /// (inputs `i` held), no reset, bypass, CNP edge, pending decrease, bus activity, alpha, timer
    /// or byte-counter event. Each cycle loads the beat if the credit covers it (see
    /// [`crate::credit_gate::StreamPlan`]) and a loaded beat is handed downstream the next cycle.
    ///
    /// Advances at most `max_cycles` cycles and loads at most `max_loads` beats: the stretch ends
    /// with the cycle that loads the `max_loads`-th beat (so that the caller can change the
    /// inputs for the next beat, e.g. a frame's last one), or earlier where the closed form ends
    /// (the next event, a cap that could bind). In bypass, a stretch that repeats one cycle up to
    /// the traffic counters is advanced instead (see `linear_point`). The result is what that
    /// many calls of
    /// `step(i)` leave behind, register for register and event for event (`tests/skip.rs`);
    /// [`Streamed::cycles`] is 0 when the next cycle must be stepped.
    pub fn skip_stream(&mut self, i: &Inputs, max_cycles: u64, max_loads: u64) -> Streamed {
        let none = Streamed::default();
        let s = &self.state;
        let cfg = &s.regs.cfg;
        if max_cycles == 0 || !cfg.hw_scheme() {
            // spec 4.9: the other schemes and the gate mask are stepped.
            return none;
        }
        if cfg.bypass {
            return self.linear_point(i, max_cycles, max_loads, true);
        }
        if !i.s_axis.tvalid
            || !i.m_axis_tready
            || !self.calm(i)
            || !s.cnp.settled(i.cnp)
            || s.gate.bpc != self.params.bpc(s.rc)
        {
            return none;
        }
        let plan = s.gate.stream_plan(i.s_axis.tkeep, cfg, &self.params);
        let beat_bytes = keep_bytes(i.s_axis.tkeep);
        // The exact windows: the timers advance one per cycle, the byte counter one beat per load.
        let byte_loads = s.inc.quiet_loads(s.active, cfg, beat_bytes);
        if byte_loads == 0 {
            return none;
        }
        let max_loads = max_loads.min(byte_loads);
        let mut k = s
            .alpha
            .quiet_cycles(s.active, cfg)
            .min(s.inc.timer_quiet_cycles(s.active, cfg))
            .min(plan.horizon())
            .min(max_cycles);
        if max_loads == 0 {
            // Only the refused cycles before the first load.
            if let Some(c) = plan.cycles_to_load(1) {
                k = k.min(c - 1);
            }
        } else if let Some(c) = plan.cycles_to_load(max_loads) {
            // Up to the cycle that loads the last allowed beat: the inputs may change after it.
            k = k.min(c);
        }
        if k == 0 {
            return none;
        }
        let at = plan.at(k);
        let bytes = at.loads * u64::from(beat_bytes);
        let handovers = u64::from(s.gate.m_valid) + at.loads - u64::from(at.last_loaded);

        let s = &mut self.state;
        let cfg = &s.regs.cfg;
        s.alpha.skip_quiet(s.active, k);
        // With byte_en the window keeps the counter below its threshold (a u32).
        s.inc
            .skip_quiet(s.active, cfg, k, u32::try_from(bytes).unwrap_or(u32::MAX));
        s.dec.skip_quiet(k);
        // Every cycle that loads nothing is a stall: a beat offered, room downstream, no credit.
        s.regs.skip_quiet(k, k - at.loads, bytes);
        let g = &mut s.gate;
        g.credit = at.credit;
        if at.loads > 0 {
            g.m_data = i.s_axis.tdata;
            g.m_keep = i.s_axis.tkeep;
            g.m_last = i.s_axis.tlast;
        }
        g.m_valid = at.last_loaded;
        self.events = CycleEvents {
            load: at.last_loaded,
            bytes_in: if at.last_loaded { beat_bytes } else { 0 },
            stall: !at.last_loaded,
            ..CycleEvents::default()
        };
        self.quiet = self.quiet_plan();
        Streamed {
            cycles: k,
            loads: at.loads,
            handovers,
        }
    }

    /// Steps one cycle; if it left every register as it was but the traffic counters (the stall
    /// and byte counters, which nothing but the read mux reads), the following cycles repeat it:
    /// the same outputs and events, the counters moving by the same amount each cycle (typically
    /// bypass, a beat loaded and handed on every cycle). Advances up to `max_cycles` cycles and,
    /// if each cycle loads a beat, `max_loads` beats; with `handovers` false, none if a beat is
    /// handed downstream.
    fn linear_point(
        &mut self,
        i: &Inputs,
        max_cycles: u64,
        max_loads: u64,
        handovers: bool,
    ) -> Streamed {
        let mut probe = self.clone();
        let out = probe.step(i);
        let (before, after) = (self.state.regs.cnt, probe.state.regs.cnt);
        let mut same = probe.state;
        same.regs.cnt.cnt_stall = before.cnt_stall;
        same.regs.cnt.cnt_bytes = before.cnt_bytes;
        if same != self.state {
            return Streamed::default();
        }
        let load = i.s_axis.tvalid && out.s_axis_tready;
        let handover = out.m_axis_tvalid && i.m_axis_tready;
        if handover && !handovers {
            return Streamed::default();
        }
        let k = if load {
            max_cycles.min(max_loads)
        } else {
            max_cycles
        };
        if k == 0 {
            return Streamed::default();
        }
        // Both counters wrap (spec 6.2): k times the one cycle's increment, modulo their width.
        let stall = after.cnt_stall.wrapping_sub(before.cnt_stall);
        let bytes = after.cnt_bytes.wrapping_sub(before.cnt_bytes);
        self.state = probe.state;
        let c = &mut self.state.regs.cnt;
        c.cnt_stall = before.cnt_stall.wrapping_add(stall.wrapping_mul(k as u32));
        c.cnt_bytes = before.cnt_bytes.wrapping_add(bytes.wrapping_mul(k));
        self.events = probe.events;
        self.quiet = self.quiet_plan();
        Streamed {
            cycles: k,
            loads: k * u64::from(load),
            handovers: k * u64::from(handover),
        }
    }

    /// The gate's inputs for a cycle with inputs `i`.
    fn gate_in<'a>(&self, i: &'a Inputs) -> GateIn<'a> {
        GateIn {
            rst: i.rst,
            s: &i.s_axis,
            m_tready: i.m_axis_tready,
            rc: self.state.rc,
        }
    }

    /// How many cycles from now are quiet, load nothing and hand nothing downstream, with inputs
    /// `i` held (0 if the next cycle is not such a cycle): the smallest of the blocks' own bounds.
    fn quiet_stretch(&self, i: &Inputs) -> u64 {
        let s = &self.state;
        // The gate's bound first: the cheapest test, and the one that fails on most busy cycles.
        let idle = s.gate.idle_cycles(&self.gate_in(i), &self.params);
        // The synchroniser must hold the held CNP level in every stage, so that no edge comes.
        if idle == 0 || !self.calm(i) || s.regs.cfg.bypass || !s.cnp.settled(i.cnp) {
            return 0;
        }
        self.quiet_cycles_ahead().min(idle)
    }

    /// `n` quiet cycles without a load or a transfer, in closed form: each block's `skip_*`, the
    /// same closed forms a quiet `step` applies with n = 1 (the conditions are those of
    /// [`Self::quiet_stretch`]).
    fn advance_quiet(&mut self, i: &Inputs, n: u64) {
        let p = self.params;
        let gate_in = self.gate_in(i);
        let s = &mut self.state;
        let cfg = &s.regs.cfg;
        // The stall condition holds in every cycle of the stretch or in none.
        let stall = s.gate.comb(&gate_in, cfg, &p).stall;
        s.alpha.skip_quiet(s.active, n);
        s.inc.skip_quiet(s.active, cfg, n, 0);
        s.dec.skip_quiet(n);
        s.gate.skip_idle(n, cfg, &p);
        s.regs.skip_quiet(n, if stall { n } else { 0 }, 0);
        self.events = CycleEvents {
            stall,
            ..CycleEvents::default()
        };
        // The budget is a function of the state: what a full step would have left.
        self.quiet = self.quiet_plan();
    }
}
