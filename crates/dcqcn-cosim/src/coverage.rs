//! Functional coverage: named corner cases counted while a run steps, from the model's events and
//! registers (the RTL equals the model on every compared cycle, so these are the RTL's corners
//! too). A zero-mismatch run is only as good as the corners it reached; the table shows them.

use dcqcn_model::alpha::ALPHA_MAX;
use dcqcn_model::regmap::{RESP_DECERR, RESP_OKAY};
use dcqcn_model::{Inputs, Outputs, Phase, RateLimiter};

/// The bins, in report order: (name, what it means).
pub const BINS: &[(&str, &str)] = &[
    (
        "inc_fr_by_timer",
        "fast-recovery increase triggered by the timer",
    ),
    (
        "inc_fr_by_bytes",
        "fast-recovery increase triggered by the byte counter",
    ),
    (
        "inc_ai_by_timer",
        "additive increase triggered by the timer",
    ),
    (
        "inc_ai_by_bytes",
        "additive increase triggered by the byte counter",
    ),
    ("inc_hai_by_timer", "hyper increase triggered by the timer"),
    (
        "inc_hai_by_bytes",
        "hyper increase triggered by the byte counter",
    ),
    (
        "timer_and_bytes_same_cycle",
        "both increase triggers fire in one cycle",
    ),
    (
        "decrease_cancels_increase",
        "a decrease and an increase trigger in the same cycle",
    ),
    (
        "cnp_with_alpha_update",
        "a CNP edge in the cycle alpha updates",
    ),
    (
        "cnp_coalesced",
        "a CNP edge while a decrease is already pending",
    ),
    ("alpha_pinned_at_max", "alpha update saturates at 1023"),
    ("alpha_at_zero", "alpha reaches 0"),
    ("rc_clamped_at_rmin", "a decrease floors Rc at min(Rmin, L)"),
    ("rc_reaches_line_rate", "an increase brings Rc to L"),
    (
        "rt_saturated_at_line_rate",
        "an additive or hyper step clamps Rt at L",
    ),
    ("credit_at_cap", "the credit accumulator sits at its cap"),
    ("stall_by_credit", "a beat waits for credit"),
    (
        "backpressure_with_credit",
        "downstream stalls a beat the credit covers",
    ),
    ("write_okay", "AXI4-Lite write answered OKAY"),
    ("write_decerr", "AXI4-Lite write answered DECERR"),
    ("read_okay", "AXI4-Lite read answered OKAY"),
    ("read_decerr", "AXI4-Lite read answered DECERR"),
    (
        "reset_mid_frame",
        "reset while a beat is held on either side",
    ),
    ("bypass_on", "cycles with bypass set"),
    ("cnp_cnt16_wraps", "the 16-bit CNP counter wraps"),
];

/// Hit counts per bin (same order as [`BINS`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub hits: Vec<u64>,
}

impl Coverage {
    pub fn new() -> Coverage {
        Coverage {
            hits: vec![0; BINS.len()],
        }
    }

    /// Samples the cycle just stepped: its inputs, outputs, and the model after the edge.
    #[inline]
    pub fn sample(&mut self, i: &Inputs, out: &Outputs, m: &RateLimiter) {
        let e = m.events();
        let s = m.state();
        let cfg = &s.regs.cfg;
        let l = m.params().line_rate();
        let h = &mut self.hits;
        let mut hit = |k: usize, c: bool| h[k] += u64::from(c);
        let (t, b) = (e.timer_fire, e.byte_fire);
        if let Some(ph) = e.inc {
            let base = match ph {
                Phase::FastRecovery => 0,
                Phase::Additive => 2,
                Phase::Hyper => 4,
            };
            hit(base, t);
            hit(base + 1, b);
            hit(6, t && b);
            hit(13, s.rc == l);
            hit(14, ph != Phase::FastRecovery && s.rt == l);
        }
        hit(7, e.dec_fire && (t || b));
        hit(8, e.cnp_edge && e.alpha_fire);
        hit(9, e.cnp_edge && !e.dec_fire && s.dec.dec_pending);
        hit(10, e.alpha_fire && s.alpha.alpha == ALPHA_MAX);
        hit(11, s.alpha.alpha == 0);
        hit(12, e.dec_fire && s.rc == cfg.rmin.min(l));
        hit(
            15,
            !cfg.bypass
                && s.gate.credit == u64::from(cfg.credit_cap.max(m.params().data_bytes())) << 16,
        );
        hit(16, e.stall);
        hit(
            17,
            i.s_axis.tvalid && out.m_axis_tvalid && !i.m_axis_tready && !e.stall && !i.rst,
        );
        if out.s_axil_awready {
            hit(18, s.regs.axil.bresp == RESP_OKAY);
            hit(19, s.regs.axil.bresp == RESP_DECERR);
        }
        if out.s_axil_arready {
            hit(20, s.regs.axil.rresp == RESP_OKAY);
            hit(21, s.regs.axil.rresp == RESP_DECERR);
        }
        hit(22, i.rst && (out.m_axis_tvalid || i.s_axis.tvalid));
        hit(23, cfg.bypass);
        hit(24, e.cnp_edge && s.regs.cnt.cnp_cnt16 == 0 && !i.rst);
    }

    pub fn merge(&mut self, other: &Coverage) {
        for (a, b) in self.hits.iter_mut().zip(&other.hits) {
            *a += b;
        }
    }

    /// Bins hit at least once.
    pub fn covered(&self) -> usize {
        self.hits.iter().filter(|&&n| n > 0).count()
    }

    /// The table: one line per bin, misses marked.
    pub fn table(&self) -> String {
        let mut s = format!("coverage: {}/{} bins hit\n", self.covered(), BINS.len());
        for ((name, what), n) in BINS.iter().zip(&self.hits) {
            let mark = if *n == 0 { "MISS" } else { "" };
            s += &format!("  {name:<28} {n:>12} {mark:<4}  {what}\n");
        }
        s
    }
}
