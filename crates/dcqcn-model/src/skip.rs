//! Closed-form skip over stretches of uneventful cycles, for long network simulations.
//!
//! Not part of the RTL contract and not used by the lockstep: [`RateLimiter::skip`] computes in
//! one call what `n` calls of [`RateLimiter::step`] with the same inputs would leave behind, and
//! only when every one of those cycles is certain to be uneventful. `tests/skip.rs` holds it to
//! stepping, register for register, over random configurations, states and inputs.

use crate::credit_gate::keep_bytes;
use crate::{CycleEvents, Inputs, RateLimiter};

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
    /// - a fixed point (typically bypass with a stalled or idle stream): if one cycle leaves every
    ///   register as it was, so do all the following ones.
    pub fn skip(&mut self, i: &Inputs, max_cycles: u64) -> u64 {
        if max_cycles == 0 {
            return 0;
        }
        let n = self.quiet_stretch(i).min(max_cycles);
        if n > 0 {
            self.advance_quiet(i, n);
            return n;
        }
        if self.state.regs.cfg.bypass {
            return self.fixed_point(i, max_cycles);
        }
        0
    }

    /// How many cycles from now are quiet, load nothing and hand nothing downstream, with inputs
    /// `i` held (0 if the next cycle is not such a cycle).
    fn quiet_stretch(&self, i: &Inputs) -> u64 {
        let s = &self.state;
        // The output register must neither drain nor be refilled: the cheapest test, and the one
        // that fails on most busy cycles, comes first.
        if s.gate.m_valid && i.m_axis_tready {
            return 0;
        }
        // With the output register empty, a valid beat must stay refused for lack of credit:
        // credit + (k - 1) bpc < need for the k-th cycle (no bound if bpc is 0).
        let mut credit_bound = u64::MAX;
        if i.s_axis.tvalid && !s.gate.m_valid {
            let need = u64::from(keep_bytes(i.s_axis.tkeep)) << 16;
            let credit = s.gate.credit;
            if credit >= need {
                return 0;
            }
            if let Some(k) = (need - credit - 1).checked_div(u64::from(s.gate.bpc)) {
                credit_bound = k + 1;
            }
        }
        // The synchroniser must hold the held CNP level in every stage, so that no edge comes.
        let settled = s.cnp.cnp_meta == i.cnp && s.cnp.cnp_sync == i.cnp && s.cnp.cnp_prev == i.cnp;
        if !self.calm(i)
            || s.regs.cfg.bypass
            || !settled
            // bpc must already follow Rc, so that the credit grows by one constant per cycle.
            || s.gate.bpc != self.params.bpc(s.rc)
        {
            return 0;
        }
        self.quiet_cycles_ahead().min(credit_bound)
    }

    /// `n` quiet cycles without a load or a transfer, in closed form (the conditions are those of
    /// [`Self::quiet_stretch`]; the per-cycle form is `step_quiet`).
    fn advance_quiet(&mut self, i: &Inputs, n: u64) {
        let p = self.params;
        let s = &mut self.state;
        let cfg = &s.regs.cfg;
        // With the output register empty the source's beat is refused for lack of credit; with it
        // full the downstream is not ready.
        let stall = i.s_axis.tvalid && !s.gate.m_valid;
        if s.active {
            // quiet_cycles_ahead bounds n below the next expiry: no timer wraps.
            s.alpha.alpha_timer += n as u16;
            s.inc.inc_timer = if cfg.timer_en {
                s.inc.inc_timer + n as u32
            } else {
                0
            };
            if !cfg.byte_en {
                s.inc.byte_cnt = 0;
            }
        }
        s.dec.dec_timer = (u64::from(s.dec.dec_timer) + n).min(u64::from(u16::MAX)) as u16;
        let cap_q = u64::from(cfg.credit_cap.max(p.data_bytes())) << 16;
        // min(min(c + b, cap) + b, cap) = min(c + 2b, cap): the cap applies once.
        s.gate.credit = (s.gate.credit + n * u64::from(s.gate.bpc)).min(cap_q);
        if stall {
            s.regs.cnt.cnt_stall = s.regs.cnt.cnt_stall.wrapping_add(n as u32);
        }
        self.events = CycleEvents {
            stall,
            ..CycleEvents::default()
        };
        // The budget is a function of the state: what a full step would have left.
        self.quiet_budget = self.quiet_cycles_ahead();
    }

    /// Steps one cycle; if it changed no register and moved no beat, the remaining cycles up to
    /// `max_cycles` are the same cycle again. Returns the cycles advanced (at least 1 if the
    /// probe cycle qualifies, else 0 and nothing changed).
    fn fixed_point(&mut self, i: &Inputs, max_cycles: u64) -> u64 {
        let mut probe = self.clone();
        let out = probe.step(i);
        let moved =
            (out.m_axis_tvalid && i.m_axis_tready) || (i.s_axis.tvalid && out.s_axis_tready);
        if moved || probe.state != self.state {
            return 0;
        }
        self.events = probe.events;
        self.quiet_budget = 0;
        max_cycles
    }
}
