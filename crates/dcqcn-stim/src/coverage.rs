//! Functional coverage: named corner cases counted while a run steps, from the model's events and
//! registers (the RTL equals the model on every compared cycle, so these are the RTL's corners
//! too). A zero-mismatch run is only as good as the corners it reached; the table shows them.
//!
//! Two lists. [`BINS`]: corners a run from reset reaches in practical lengths; `make cosim`'s
//! default suite reaches every one (its pass criterion, [`Coverage::covered`]). [`EDGE_BINS`]: the
//! corners of every register's width and of the parameter variants (counters at wrap or
//! saturation, timers at their top value, the credit's top bits, the 33-bit rate average's top
//! bit, each built rate set): a run from reset at 10 GbE does not reach most of them, the default
//! fuzz campaign does (state injection, spec 4.8, and cases at every rate set); they are reported
//! apart ([`Coverage::edge_covered`]) and are not part of `make cosim`'s criterion.

use crate::variant::Rates;
use dcqcn_model::alpha::ALPHA_MAX;
use dcqcn_model::rate_inc::hyper_index;
use dcqcn_model::regmap::{self, RESP_DECERR, RESP_OKAY};
use dcqcn_model::regs::TRACE_DEPTH;
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
    (
        "rmax_caps_increase",
        "an increase sets Rt to rmax below L (0x150)",
    ),
    (
        "first_cnp_rate_set",
        "the first decrease sets the rate on first CNP (0x154)",
    ),
    (
        "min_dec_fac_binds",
        "a decrease keeps exactly floor(Rc min_dec_fac / 1024) (0x158)",
    ),
    (
        "alpha_init_used",
        "the first decrease cuts with alpha_init != 1023 (0x158)",
    ),
    (
        "hyper_i_x_rhai",
        "a hyper increase adds i x rhai with i >= 2 (0x158 hai_mult)",
    ),
    (
        "fw_rate_throttles",
        "a beat waits for credit at the firmware rate (scheme 1)",
    ),
    (
        "observe_decrease",
        "a decrease while the stream passes unthrottled (scheme 2)",
    ),
    ("fw_only_load", "a beat passes in scheme 3 (firmware only)"),
    ("gate_mask_blocks", "the gate mask refuses a beat"),
    (
        "fw_rate_handover",
        "hardware DCQCN takes over a firmware rate below L (scheme bit 0 cleared)",
    ),
    (
        "fw_rate_is_line",
        "firmware rate 0 or above L: Rc = L in a firmware-rate scheme",
    ),
    (
        "trace_full_stops",
        "an armed event finds the stop-mode trace window full: not recorded (0x170)",
    ),
    (
        "trace_wraps",
        "an armed event overwrites the oldest entry of a full wrap-mode window (0x170)",
    ),
    (
        "trace_entry_read",
        "a read of 0x184 returns an entry of the trace window (valid)",
    ),
];

/// The corners of the registers' widths and of the parameter variants (see the module
/// documentation): (name, what it means). Each counter of spec 7 at its wrap or saturation, each
/// timer at its top value, the credit's top bits, the rate average's top bit, each rate set.
/// The bins of [`BINS`] that only a feature of spec 2 can reach: (bin, feature, as
/// [`dcqcn_model::Features::has`] names it). A run of a configuration without the feature reports
/// them as `n/a`, not as misses: the words that would reach them answer DECERR there.
pub const FEATURE_BINS: &[(&str, &str)] = &[
    ("rmax_caps_increase", "rate_rules"),
    ("first_cnp_rate_set", "rate_rules"),
    ("min_dec_fac_binds", "rate_rules"),
    ("alpha_init_used", "rate_rules"),
    ("hyper_i_x_rhai", "rate_rules"),
    ("fw_rate_throttles", "control"),
    ("observe_decrease", "control"),
    ("fw_only_load", "control"),
    ("gate_mask_blocks", "control"),
    ("fw_rate_handover", "control"),
    ("fw_rate_is_line", "control"),
    ("trace_full_stops", "trace"),
    ("trace_wraps", "trace"),
    ("trace_entry_read", "trace"),
];

/// The feature bin `k` of [`BINS`] needs, if any ([`FEATURE_BINS`]).
pub fn bin_feature(k: usize) -> Option<&'static str> {
    FEATURE_BINS
        .iter()
        .find(|(bin, _)| *bin == BINS[k].0)
        .map(|&(_, f)| f)
}

pub const EDGE_BINS: &[(&str, &str)] = &[
    (
        "byte_cnt_saturates",
        "rate-increase byte counter held at 2^32 - 1 by its saturating add",
    ),
    (
        "dec_timer_saturates",
        "dec_timer counts into its saturation at 0xFFFF",
    ),
    (
        "alpha_timer_at_top",
        "alpha_timer expires at 0xFFFF (its +1 needs the 17th bit)",
    ),
    (
        "inc_timer_at_top",
        "inc_timer expires at 2^32 - 1 (its +1 needs the 33rd bit)",
    ),
    (
        "t_stage_saturates",
        "timer stage held at 255 by a timer increase",
    ),
    (
        "b_stage_saturates",
        "byte stage held at 255 by a byte-counter increase",
    ),
    ("cnt_cnp_wraps", "cnt_cnp wraps 2^32 - 1 -> 0"),
    ("cnt_dec_wraps", "cnt_dec wraps 2^32 - 1 -> 0"),
    ("cnt_inc_fr_wraps", "cnt_inc_fr wraps 2^32 - 1 -> 0"),
    ("cnt_inc_ai_wraps", "cnt_inc_ai wraps 2^32 - 1 -> 0"),
    ("cnt_inc_hai_wraps", "cnt_inc_hai wraps 2^32 - 1 -> 0"),
    ("cnt_inc_timer_wraps", "cnt_inc_timer wraps 2^32 - 1 -> 0"),
    ("cnt_inc_byte_wraps", "cnt_inc_byte wraps 2^32 - 1 -> 0"),
    ("cnt_stall_wraps", "cnt_stall wraps 2^32 - 1 -> 0"),
    (
        "cnt_bytes_wraps",
        "the 64-bit cnt_bytes wraps past 2^64 - 1",
    ),
    (
        "credit_bit47_charged",
        "a beat charged while credit >= 2^47 (its top bit set)",
    ),
    (
        "credit_sum_bit48",
        "credit - charge + bpc >= 2^48 (the 49th bit of the sum), cut to the cap",
    ),
    (
        "rate_avg_bit32",
        "an increase with Rc + Rt >= 2^32 (the 33-bit average's top bit)",
    ),
    ("rates_10g", "cycles at 10 GbE, 156.25 MHz"),
    ("rates_1g", "cycles at 1 GbE, 125 MHz"),
    ("rates_25g", "cycles at 25 GbE, 390.625 MHz (L above 2^31)"),
    ("rates_lmax", "cycles at L = 2^32 - 1 B/s, 250 MHz"),
    (
        "trace_time_saturates",
        "an armed trace_time held at 2^32 - 1 by its saturating count",
    ),
    (
        "trace_count_saturates",
        "a trace event count held at 1023 by an event",
    ),
];

/// The registers the edge bins compare with their value one cycle earlier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Prev {
    byte_cnt: u32,
    dec_timer: u16,
    alpha_timer: u16,
    inc_timer: u32,
    t_stage: u8,
    b_stage: u8,
    cnt: [u32; 8],
    cnt_bytes: u64,
    credit: u64,
    bpc: u32,
    rc: u32,
    active: bool,
    scheme: u8,
    gate_mask: bool,
    trace_en: bool,
    trace_wrap: bool,
    trace_count: u8,
    trace_wptr: u8,
    trace_time: u32,
    trace_n: [u16; 3],
}

impl Prev {
    fn of(m: &RateLimiter) -> Prev {
        let s = m.state();
        let c = &s.regs.cnt;
        Prev {
            byte_cnt: s.inc.byte_cnt,
            dec_timer: s.dec.dec_timer,
            alpha_timer: s.alpha.alpha_timer,
            inc_timer: s.inc.inc_timer,
            t_stage: s.inc.t_stage,
            b_stage: s.inc.b_stage,
            cnt: [
                c.cnt_cnp,
                c.cnt_dec,
                c.cnt_inc_fr,
                c.cnt_inc_ai,
                c.cnt_inc_hai,
                c.cnt_inc_timer,
                c.cnt_inc_byte,
                c.cnt_stall,
            ],
            cnt_bytes: c.cnt_bytes,
            credit: s.gate.credit,
            bpc: s.gate.bpc,
            rc: s.rc,
            active: s.active,
            scheme: s.regs.cfg.scheme,
            gate_mask: s.regs.cfg.gate_mask,
            trace_en: s.regs.cfg.trace_en,
            trace_wrap: s.regs.cfg.trace_wrap,
            trace_count: s.regs.trace.count,
            trace_wptr: s.regs.trace.wptr,
            trace_time: s.regs.trace.time,
            trace_n: [
                s.regs.trace.n_dec,
                s.regs.trace.n_byte,
                s.regs.trace.n_timer,
            ],
        }
    }
}

/// Hit counts per bin (same order as [`BINS`] and [`EDGE_BINS`]), and in a fuzz campaign the
/// first case that hit each.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    pub hits: Vec<u64>,
    pub edge: Vec<u64>,
    /// Per bin of [`BINS`] then [`EDGE_BINS`]: the lowest campaign case number that hit it (set by
    /// [`Coverage::mark_case`]; `None` outside a campaign).
    pub first_case: Vec<Option<u64>>,
    /// Per bin of [`BINS`]: whether some run merged here was of a configuration that builds the
    /// bin's feature (`None`: no run started yet). Not compared: it follows from the runs.
    built: Vec<Option<bool>>,
    /// The sampled registers one cycle earlier (not compared: a run's result is its counts).
    prev: Option<Prev>,
}

impl PartialEq for Coverage {
    fn eq(&self, other: &Coverage) -> bool {
        self.hits == other.hits && self.edge == other.edge && self.first_case == other.first_case
    }
}

impl Eq for Coverage {}

impl Coverage {
    pub fn new() -> Coverage {
        Coverage {
            hits: vec![0; BINS.len()],
            edge: vec![0; EDGE_BINS.len()],
            first_case: vec![None; BINS.len() + EDGE_BINS.len()],
            built: vec![None; BINS.len()],
            prev: None,
        }
    }

    /// Takes the registers before a run's first cycle (the model as the run starts: from reset
    /// or from an injected state), so that the edge bins see the first cycle too (an injected
    /// timer at its top value expires in it).
    pub fn start(&mut self, m: &RateLimiter) {
        self.prev = Some(Prev::of(m));
        let features = m.params().features();
        for (k, b) in self.built.iter_mut().enumerate() {
            let here = bin_feature(k).is_none_or(|f| features.has(f));
            *b = Some(b.unwrap_or(false) || here);
        }
    }

    /// Records campaign case `index` as the first to hit each bin this run hit (earlier cases
    /// keep theirs when merged).
    pub fn mark_case(&mut self, index: u64) {
        for (f, &n) in self
            .first_case
            .iter_mut()
            .zip(self.hits.iter().chain(&self.edge))
        {
            if n > 0 {
                *f = Some(f.map_or(index, |x| x.min(index)));
            }
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
        // The extension rules and the schemes: what the cycle's registers were (the previous
        // sample; none before a run's first cycle without `start`).
        if let (Some(p), false) = (self.prev, i.rst) {
            hit(
                25,
                e.inc.is_some() && cfg.rmax != 0 && cfg.rmax < l && s.rt == cfg.rmax,
            );
            hit(
                26,
                e.dec_fire && !p.active && cfg.rate_first_cnp != 0 && s.rc != p.rc,
            );
            let fac = u64::from(cfg.min_dec_fac);
            hit(
                27,
                e.dec_fire
                    && (1..1024).contains(&fac)
                    && u64::from(s.rc) == u64::from(p.rc) * fac / 1024
                    && s.rc > cfg.rmin.min(l),
            );
            hit(
                28,
                e.dec_fire && !p.active && cfg.alpha_init != ALPHA_MAX && cfg.rate_first_cnp == 0,
            );
            if e.inc == Some(Phase::Hyper) && cfg.hai_mult {
                let (t_new, b_new) = (
                    p.t_stage.saturating_add(u8::from(t)),
                    p.b_stage.saturating_add(u8::from(b)),
                );
                hit(29, hyper_index(t_new, b_new, cfg) >= 2);
            }
            hit(30, e.stall && p.scheme == 1 && !p.gate_mask && !cfg.bypass);
            hit(31, e.dec_fire && p.scheme == 2);
            hit(32, e.load && p.scheme == 3 && !cfg.bypass);
            hit(33, e.stall && p.gate_mask);
            hit(
                34,
                p.scheme & 1 == 1 && cfg.scheme & 1 == 0 && !cfg.bypass && s.rc < l,
            );
            hit(
                35,
                cfg.scheme & 1 == 1 && !cfg.bypass && (cfg.fw_rate == 0 || cfg.fw_rate > l),
            );
            // The trace: the cycle's configuration and window are the previous sample's; a clear
            // in the cycle empties the window (count 0 after the edge).
            let t = &s.regs.trace;
            let armed_event = p.trace_en && (e.dec_fire || e.inc.is_some());
            let full = usize::from(p.trace_count) >= TRACE_DEPTH && t.count != 0;
            hit(36, armed_event && full && !p.trace_wrap);
            hit(
                37,
                armed_event && full && p.trace_wrap && t.wptr != p.trace_wptr,
            );
        }
        hit(
            38,
            out.s_axil_arready
                && i.axil.araddr & 0xFFC == regmap::TRACE_ENTRY
                && s.regs.axil.rdata >> 8 & 1 == 1,
        );
        self.sample_edges(i, m);
    }

    /// The edge bins: each register against its value one cycle earlier (from the first cycle on
    /// when the run called [`Coverage::start`], else from the second).
    fn sample_edges(&mut self, i: &Inputs, m: &RateLimiter) {
        let now = Prev::of(m);
        let Some(p) = self.prev.replace(now) else {
            return;
        };
        let e = m.events();
        let s = m.state();
        let cfg = &s.regs.cfg;
        let h = &mut self.edge;
        let mut hit = |k: usize, c: bool| h[k] += u64::from(c && !i.rst);
        let bytes = u64::from(e.bytes_in);
        hit(
            0,
            now.byte_cnt == u32::MAX && u64::from(p.byte_cnt) + bytes > u64::from(u32::MAX),
        );
        hit(1, p.dec_timer == 0xFFFE && now.dec_timer == 0xFFFF);
        hit(2, p.alpha_timer == 0xFFFF && e.alpha_fire);
        hit(3, p.inc_timer == u32::MAX && e.timer_fire);
        let inc = e.inc.is_some();
        hit(
            4,
            inc && e.timer_fire && p.t_stage == 255 && now.t_stage == 255,
        );
        hit(
            5,
            inc && e.byte_fire && p.b_stage == 255 && now.b_stage == 255,
        );
        // the event each statistics counter counts (spec 6.2), in Prev::cnt order
        let counted = [
            e.cnp_edge,
            e.dec_fire,
            e.inc == Some(Phase::FastRecovery),
            e.inc == Some(Phase::Additive),
            e.inc == Some(Phase::Hyper),
            inc && e.timer_fire,
            inc && e.byte_fire,
            e.stall,
        ];
        for (k, ev) in counted.into_iter().enumerate() {
            hit(6 + k, ev && p.cnt[k] == u32::MAX && now.cnt[k] == 0);
        }
        hit(
            14,
            bytes > 0 && p.cnt_bytes.checked_add(bytes).is_none() && now.cnt_bytes < p.cnt_bytes,
        );
        hit(15, !cfg.bypass && bytes > 0 && p.credit >= 1 << 47);
        hit(
            16,
            !cfg.bypass && (p.credit - (bytes << 16).min(p.credit)) + u64::from(p.bpc) >= 1 << 48,
        );
        hit(17, inc && u64::from(p.rc) + u64::from(s.rt) >= 1 << 32);
        let params = m.params();
        let rates = (params.clk_hz(), params.line_rate());
        for (k, r) in [Rates::TenG, Rates::OneG, Rates::TwentyFiveG, Rates::LMax]
            .into_iter()
            .enumerate()
        {
            hit(18 + k, r.clk_and_line_rate() == rates);
        }
        let t = &s.regs.trace;
        hit(
            22,
            p.trace_en && p.trace_time == u32::MAX && t.time == u32::MAX,
        );
        let armed = p.trace_en && (e.dec_fire || inc);
        let fired = [e.dec_fire, inc && e.byte_fire, inc && e.timer_fire];
        let now_n = [t.n_dec, t.n_byte, t.n_timer];
        hit(
            23,
            armed && (0..3).any(|k| fired[k] && p.trace_n[k] == 1023 && now_n[k] == 1023),
        );
    }

    pub fn merge(&mut self, other: &Coverage) {
        for (a, b) in self.hits.iter_mut().zip(&other.hits) {
            *a += b;
        }
        for (a, b) in self.edge.iter_mut().zip(&other.edge) {
            *a += b;
        }
        for (a, b) in self.first_case.iter_mut().zip(&other.first_case) {
            if let Some(b) = *b {
                *a = Some(a.map_or(b, |x| x.min(b)));
            }
        }
        for (a, b) in self.built.iter_mut().zip(&other.built) {
            if let Some(b) = *b {
                *a = Some(a.unwrap_or(false) || b);
            }
        }
    }

    /// Whether bin `k` of [`BINS`] needs a feature that no run merged here built.
    pub fn not_built(&self, k: usize) -> bool {
        self.built[k] == Some(false)
    }

    /// Bins of [`BINS`] that the runs' configurations can reach (all of them once a run of the
    /// full configuration is merged).
    pub fn reachable(&self) -> usize {
        (0..BINS.len()).filter(|&k| !self.not_built(k)).count()
    }

    /// Bins of [`BINS`] hit at least once (`make cosim`'s criterion: all of them).
    pub fn covered(&self) -> usize {
        self.hits.iter().filter(|&&n| n > 0).count()
    }

    /// Bins of [`EDGE_BINS`] hit at least once.
    pub fn edge_covered(&self) -> usize {
        self.edge.iter().filter(|&&n| n > 0).count()
    }

    /// The table: one line per bin, misses marked, the edge bins apart (in a campaign, the first
    /// case that hit each).
    pub fn table(&self) -> String {
        let campaign = self.first_case.iter().any(Option::is_some);
        let first = |k: usize| match self.first_case[k] {
            Some(c) if campaign => format!("  (first: case {c})"),
            _ => String::new(),
        };
        let absent = BINS.len() - self.reachable();
        let mut s = format!(
            "coverage: {}/{} bins hit (corners reached from reset){}\n",
            self.covered(),
            self.reachable(),
            if absent > 0 {
                format!(
                    "; {absent} more need a feature this configuration does not build (n/a; \
                     docs/spec.md 2)"
                )
            } else {
                String::new()
            }
        );
        for (k, ((name, what), n)) in BINS.iter().zip(&self.hits).enumerate() {
            let mark = if self.not_built(k) {
                "n/a"
            } else if *n == 0 {
                "MISS"
            } else {
                ""
            };
            s += &format!("  {name:<28} {n:>12} {mark:<4}  {what}{}\n", first(k));
        }
        s += &format!(
            "edge coverage: {}/{} bins hit (register-width and parameter corners: reached by state \
             injection and the rate variants of `dcqcn fuzz`, not by make cosim's runs from reset)\n",
            self.edge_covered(),
            EDGE_BINS.len()
        );
        for (k, ((name, what), n)) in EDGE_BINS.iter().zip(&self.edge).enumerate() {
            let mark = if *n == 0 { "miss" } else { "" };
            s += &format!(
                "  {name:<28} {n:>12} {mark:<4}  {what}{}\n",
                first(BINS.len() + k)
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dcqcn_model::{AxisIn, Params, State};

    /// The edge bins hit by `cycles` model cycles from `state` with a beat offered every cycle,
    /// downstream ready, and the CNP input at `cnp`.
    fn run(p: Params, cnp: bool, cycles: u64, state: impl Fn(&mut State)) -> Coverage {
        let mut m = RateLimiter::new(p);
        state(m.state_mut());
        let mut cov = Coverage::new();
        cov.start(&m);
        let i = Inputs {
            cnp,
            s_axis: AxisIn {
                tvalid: true,
                tkeep: (1u64 << p.data_bytes()) - 1,
                ..AxisIn::default()
            },
            m_axis_tready: true,
            ..Inputs::default()
        };
        for _ in 0..cycles {
            let out = m.step(&i);
            cov.sample(&i, &out, &m);
        }
        cov
    }

    fn edge(cov: &Coverage, name: &str) -> u64 {
        let k = EDGE_BINS.iter().position(|b| b.0 == name).unwrap();
        cov.edge[k]
    }

    #[test]
    fn a_base_run_reports_the_feature_bins_not_applicable_until_a_full_run_joins() {
        use dcqcn_model::Features;
        // every named bin exists, and each names a feature the model knows
        for (bin, feature) in FEATURE_BINS {
            assert!(BINS.iter().any(|b| b.0 == *bin), "{bin}");
            assert!(
                !Features::BASE.has(feature) && Features::FULL.has(feature),
                "{feature}"
            );
        }
        let base = Params::default().with_features(Features::BASE).unwrap();
        let b = run(base, true, 50, |_| {});
        assert_eq!(b.reachable(), BINS.len() - FEATURE_BINS.len());
        let table = b.table();
        assert!(table.contains(&format!(
            "/{} bins hit (corners reached from reset); {} more need a feature",
            BINS.len() - FEATURE_BINS.len(),
            FEATURE_BINS.len()
        )));
        for (bin, _) in FEATURE_BINS {
            let line = table
                .lines()
                .find(|l| l.trim_start().starts_with(bin))
                .unwrap();
            assert!(line.contains(" n/a ") && !line.contains("MISS"), "{line}");
        }
        // a reachable bin the short run misses is still a miss
        assert!(table.lines().any(|l| l.contains("MISS")));
        // merged with a full run, every bin is reachable again (and unknown merges change nothing)
        let mut all = Coverage::new();
        all.merge(&b);
        assert_eq!(all.reachable(), b.reachable());
        all.merge(&run(Params::default(), true, 50, |_| {}));
        assert_eq!(all.reachable(), BINS.len());
        assert!(!all.table().contains(" n/a "));
    }

    #[test]
    fn counter_wrap_bins_fire_at_the_wrap_only() {
        let p = Params::default();
        // one CNP edge (after the synchroniser): cnt_cnp counts it
        let wraps = run(p, true, 20, |s| s.regs.cnt.cnt_cnp = u32::MAX);
        assert_eq!(edge(&wraps, "cnt_cnp_wraps"), 1);
        let short = run(p, true, 20, |s| s.regs.cnt.cnt_cnp = u32::MAX - 1);
        assert_eq!(edge(&short, "cnt_cnp_wraps"), 0);
        // 8-byte beats flow once the credit covers them: the 64-bit byte counter passes 2^64 - 1
        let wraps = run(p, false, 100, |s| s.regs.cnt.cnt_bytes = u64::MAX - 3);
        assert_eq!(edge(&wraps, "cnt_bytes_wraps"), 1);
        let short = run(p, false, 100, |s| s.regs.cnt.cnt_bytes = u64::MAX - 1000);
        assert_eq!(edge(&short, "cnt_bytes_wraps"), 0);
    }

    #[test]
    fn byte_counter_saturation_and_rate_bins() {
        let p = Params::default();
        let sat = |start: u32| {
            run(p, false, 100, move |s| {
                s.regs.cfg.byte_en = true;
                s.regs.cfg.byte_threshold = u32::MAX;
                s.active = true;
                s.inc.byte_cnt = start;
            })
        };
        assert!(edge(&sat(u32::MAX - 20), "byte_cnt_saturates") > 0);
        // 100 cycles of at most 8 bytes cannot reach 2^32 - 1 from 2^32 - 1001
        assert_eq!(edge(&sat(u32::MAX - 1000), "byte_cnt_saturates"), 0);
        let one_g = run(
            Params::new(8, 125_000_000, 125_000_000).unwrap(),
            false,
            10,
            |_| {},
        );
        assert_eq!(edge(&one_g, "rates_1g"), 10, "every cycle");
        assert_eq!(edge(&one_g, "rates_10g") + edge(&one_g, "rates_25g"), 0);
        assert_eq!(one_g.edge_covered(), 1);
        assert_eq!(
            one_g.covered(),
            one_g.hits.iter().filter(|&&n| n > 0).count()
        );
    }

    #[test]
    fn a_timer_injected_at_its_top_value_expires_in_the_first_cycle() {
        let p = Params::default();
        let top = |timer: u16| {
            run(p, false, 3, move |s| {
                s.active = true;
                s.alpha.alpha_timer = timer;
            })
        };
        assert_eq!(edge(&top(0xFFFF), "alpha_timer_at_top"), 1);
        // 0xFFFE expires too (interval <= 0xFFFF), but not at the top value
        assert_eq!(edge(&top(0xFFFE), "alpha_timer_at_top"), 0);
    }

    #[test]
    fn first_case_is_the_lowest_case_that_hit_each_bin() {
        let p = Params::default();
        let mut a = run(p, true, 20, |s| s.regs.cnt.cnt_cnp = u32::MAX);
        let mut b = a.clone();
        a.mark_case(7);
        b.mark_case(3);
        let k = BINS.len()
            + EDGE_BINS
                .iter()
                .position(|x| x.0 == "cnt_cnp_wraps")
                .unwrap();
        let mut all = Coverage::new();
        all.merge(&a);
        assert_eq!(all.first_case[k], Some(7));
        all.merge(&b);
        assert_eq!(all.first_case[k], Some(3));
        assert_eq!(all.edge, a.edge.iter().map(|n| 2 * n).collect::<Vec<_>>());
        assert!(all.table().contains("(first: case 3)"));
        let miss = BINS.len() + EDGE_BINS.iter().position(|x| x.0 == "rates_lmax").unwrap();
        assert_eq!(all.first_case[miss], None);
    }
}
