//! Rate increase process: timer and byte-counter triggers, stage counters, phases (spec 4.5;
//! RTL `dcqcn_rate_inc`).

use crate::block::Block;
use crate::fixed::{expired, sat_inc, until_expired};
use crate::{Config, Params};

/// Registers of the increase process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateInc {
    /// Cycles since the last decrease or timer event.
    pub inc_timer: u32,
    /// Bytes loaded since the last decrease or byte-counter event (saturating).
    pub byte_cnt: u32,
    /// Timer events since the last decrease (the DCQCN paper's T), saturating at 255.
    pub t_stage: u8,
    /// Byte-counter events since the last decrease (the DCQCN paper's BC), saturating at 255.
    pub b_stage: u8,
}

/// The recovery phase of an increase event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    FastRecovery,
    Additive,
    Hyper,
}

/// The increase process's input ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateIncIn {
    /// A decrease this cycle: it cancels the increase and restarts the process.
    pub dec_fire: bool,
    /// Bytes of the beat loaded this cycle (0 without a load).
    pub bytes_in: u32,
    /// The reaction point is active (spec 4.2).
    pub active: bool,
    pub rc: u32,
    pub rt: u32,
    /// The decrease's (Rc, Rt) before the ceiling (`dcqcn_rate_dec`'s `rc_dec`, `rt_dec`).
    pub rc_dec: u32,
    pub rt_dec: u32,
}

/// The increase process's outputs and events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateIncOut {
    pub timer_fire: bool,
    pub byte_fire: bool,
    /// A trigger fired and no decrease cancels it.
    pub inc_event: bool,
    /// The phase of the increase event (`Some` exactly when `inc_event`).
    pub phase: Option<Phase>,
    /// The (Rc, Rt) the rate registers take in a cycle with a decrease (`dec_fire`) or an
    /// increase event, after the ceiling (`dcqcn_rate_inc`'s `rc_upd`, `rt_upd`); meaningful only
    /// then.
    pub rc_upd: u32,
    pub rt_upd: u32,
}

impl RateIncOut {
    pub const IDLE: RateIncOut = RateIncOut {
        timer_fire: false,
        byte_fire: false,
        inc_event: false,
        phase: None,
        rc_upd: 0,
        rt_upd: 0,
    };
}

impl RateInc {
    pub const RESET: RateInc = RateInc {
        inc_timer: 0,
        byte_cnt: 0,
        t_stage: 0,
        b_stage: 0,
    };

    /// Stage counters after this cycle's increase event (`t_new`, `b_new`).
    #[inline(always)]
    fn new_stages(&self, o: &RateIncOut) -> (u8, u8) {
        let t_new = if o.inc_event && o.timer_fire {
            sat_inc(self.t_stage)
        } else {
            self.t_stage
        };
        let b_new = if o.inc_event && o.byte_fire {
            sat_inc(self.b_stage)
        } else {
            self.b_stage
        };
        (t_new, b_new)
    }

    /// Cycles from now without a trigger, if the block stays active, the configuration unchanged
    /// and at most one full beat of `data_bytes` is loaded per cycle (0: a trigger may fire this
    /// cycle; `u64::MAX` while inactive or with both triggers off).
    #[inline(always)]
    pub fn quiet_cycles(&self, active: bool, cfg: &Config, data_bytes: u32) -> u64 {
        let n = self.timer_quiet_cycles(active, cfg);
        if !active || !cfg.byte_en {
            return n;
        }
        let left = u64::from(cfg.byte_threshold.max(1)).saturating_sub(u64::from(self.byte_cnt));
        // The counter must still be below the threshold after this many full beats.
        n.min(left.saturating_sub(1) / u64::from(data_bytes))
    }

    /// Cycles from now without a timer trigger (the byte counter aside): `u64::MAX` while
    /// inactive or with the timer off.
    #[inline(always)]
    pub fn timer_quiet_cycles(&self, active: bool, cfg: &Config) -> u64 {
        if active && cfg.timer_en {
            until_expired(u64::from(self.inc_timer), u64::from(cfg.inc_interval))
        } else {
            u64::MAX
        }
    }

    /// Beats of `beat_bytes` that can be loaded, the last of them in the last cycle of a stretch,
    /// without a byte trigger in any cycle of it (the trigger fires in the cycle after the counter
    /// reaches the threshold): 0 if it fires this cycle, `u64::MAX` without a limit.
    #[inline(always)]
    pub fn quiet_loads(&self, active: bool, cfg: &Config, beat_bytes: u32) -> u64 {
        if !active || !cfg.byte_en || beat_bytes == 0 {
            return if active && cfg.byte_en && self.byte_cnt >= cfg.byte_threshold.max(1) {
                0
            } else {
                u64::MAX
            };
        }
        let thr = u64::from(cfg.byte_threshold.max(1));
        let cnt = u64::from(self.byte_cnt);
        if cnt >= thr {
            return 0;
        }
        // j loads keep the counter below the threshold while cnt + j b < thr; one more may come
        // in the stretch's last cycle.
        (thr - cnt - 1) / u64::from(beat_bytes) + 1
    }

    /// `n` cycles without bypass, decrease or trigger in closed form, `bytes_in` bytes loaded in
    /// all: what `n` calls of `next` leave behind when `n <= quiet_cycles`.
    #[inline(always)]
    pub fn skip_quiet(&mut self, active: bool, cfg: &Config, n: u64, bytes_in: u32) {
        if !active {
            *self = RateInc::RESET;
            return;
        }
        // n is below the next expiry: no timer wraps.
        self.inc_timer = if cfg.timer_en {
            self.inc_timer + n as u32
        } else {
            0
        };
        self.byte_cnt = if cfg.byte_en {
            self.byte_cnt.saturating_add(bytes_in)
        } else {
            0
        };
    }
}

impl Block for RateInc {
    type In<'a> = RateIncIn;
    type Out = RateIncOut;

    fn reset(_: &Params) -> RateInc {
        RateInc::RESET
    }

    #[inline(always)]
    fn comb(&self, i: &RateIncIn, cfg: &Config, p: &Params) -> RateIncOut {
        let timer_fire = i.active && cfg.timer_en && expired(self.inc_timer, cfg.inc_interval);
        let byte_fire = i.active && cfg.byte_en && self.byte_cnt >= cfg.byte_threshold.max(1);
        let mut o = RateIncOut {
            timer_fire,
            byte_fire,
            inc_event: (timer_fire || byte_fire) && !i.dec_fire,
            phase: None,
            rc_upd: i.rc,
            rt_upd: i.rt,
        };
        if i.dec_fire {
            (o.rc_upd, o.rt_upd) = ceil_decrease(i.rc_dec, i.rt_dec, cfg, p.line_rate());
        } else if o.inc_event {
            // spec 4.5: the phase is decided on the stage values after this cycle's event.
            let (t_new, b_new) = self.new_stages(&o);
            let ph = phase(t_new, b_new, cfg);
            o.phase = Some(ph);
            let i_hai = hyper_index(t_new, b_new, cfg);
            (o.rc_upd, o.rt_upd) = result(i.rc, i.rt, ph, i_hai, cfg, p.line_rate());
        }
        o
    }

    #[inline(always)]
    fn next(&mut self, i: &RateIncIn, o: &RateIncOut, cfg: &Config, _: &Params) {
        // spec 4.5, 4.9: a held reaction point, inactivity and a decrease restart the process.
        if cfg.rp_held() || !i.active || i.dec_fire {
            *self = RateInc::RESET;
            return;
        }
        (self.t_stage, self.b_stage) = self.new_stages(o);
        self.inc_timer = if !cfg.timer_en || o.timer_fire {
            0
        } else {
            self.inc_timer + 1
        };
        self.byte_cnt = if !cfg.byte_en || o.byte_fire {
            0
        } else {
            self.byte_cnt.saturating_add(i.bytes_in)
        };
    }
}

/// spec 4.5: (smax, smin) of the new stage values, by the enabled triggers.
#[inline(always)]
fn stage_span(t_new: u8, b_new: u8, cfg: &Config) -> (u8, u8) {
    match (cfg.timer_en, cfg.byte_en) {
        (true, true) => (t_new.max(b_new), t_new.min(b_new)),
        (false, true) => (b_new, b_new),
        _ => (t_new, t_new),
    }
}

/// spec 4.5: the hyper-increase index i = smin - F (1..255 in the hyper phase; 0 otherwise).
#[inline]
pub fn hyper_index(t_new: u8, b_new: u8, cfg: &Config) -> u8 {
    stage_span(t_new, b_new, cfg)
        .1
        .saturating_sub(cfg.stage_threshold)
}

/// spec 4.5: the DCQCN paper's phase rule on the new stage values.
#[inline]
pub fn phase(t_new: u8, b_new: u8, cfg: &Config) -> Phase {
    let (smax, smin) = stage_span(t_new, b_new, cfg);
    let f = cfg.stage_threshold;
    if smax < f {
        Phase::FastRecovery
    } else if smin > f {
        Phase::Hyper
    } else {
        Phase::Additive
    }
}

/// spec 4.6: the (Rc, Rt) a decrease writes, from the decrease's values before the ceiling
/// (`rate_dec::result`): both ceiled at min(rmax, L) (no ceiling while rmax = 0). The
/// ceiling is applied here, where `dcqcn_rate_inc` applies it, for the decrease and the increase.
#[inline]
pub fn ceil_decrease(rc_dec: u32, rt_dec: u32, cfg: &Config, line_rate: u32) -> (u32, u32) {
    (
        cfg.ceil_rate(rc_dec, line_rate),
        cfg.ceil_rate(rt_dec, line_rate),
    )
}

/// spec 4.5: the (Rc, Rt) written by an increase event; `i_hai` is the hyper index
/// ([`hyper_index`]), used with `hai_mult`; `line_rate` is L.
#[inline]
pub fn result(
    rc: u32,
    rt: u32,
    phase: Phase,
    i_hai: u8,
    cfg: &Config,
    line_rate: u32,
) -> (u32, u32) {
    let l = u64::from(line_rate);
    // The hyper step: rhai, or i x rhai (40 bits); the sums are formed wide and clamped to L.
    let hai = if cfg.hai_mult {
        u64::from(i_hai) * u64::from(cfg.rhai)
    } else {
        u64::from(cfg.rhai)
    };
    let rt_up = match phase {
        Phase::FastRecovery => rt,
        Phase::Additive => (u64::from(rt) + u64::from(cfg.rai)).min(l) as u32,
        Phase::Hyper => (u64::from(rt) + hai).min(l) as u32,
    };
    let rt_inc = cfg.ceil_rate(rt_up, line_rate);
    // Average rounded toward the target, so Rc reaches Rt exactly.
    let up = u64::from(rc < rt_inc);
    let rc_inc = cfg.ceil_rate(
        ((u64::from(rc) + u64::from(rt_inc) + up) >> 1) as u32,
        line_rate,
    );
    (rc_inc, rt_inc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a decrease writes: the decrease's result, then the ceiling applied here.
    fn written(
        rc: u32,
        rt: u32,
        alpha: u16,
        increased: bool,
        first: bool,
        c: &Config,
    ) -> (u32, u32) {
        let (rc_dec, rt_dec) = crate::rate_dec::result(rc, rt, alpha, increased, first, c, L);
        ceil_decrease(rc_dec, rt_dec, c, L)
    }

    fn dec_cfg(dec_gain: u8, clamp_tgt: bool, rmin: u32) -> Config {
        Config {
            dec_gain,
            clamp_tgt,
            rmin,
            ..Config::reset(&Params::DEFAULT)
        }
    }

    /// spec 4.4, 4.6: the rate on the first CNP is ceiled too.
    #[test]
    fn first_cnp_rate_is_ceiled() {
        let mut c = dec_cfg(1, false, 10_000_000);
        c.rate_first_cnp = 300_000_000;
        c.rmax = 200_000_000;
        assert_eq!(
            written(L, L, 1023, false, true, &c),
            (200_000_000, 200_000_000)
        );
    }

    /// spec 4.6 rmax on a decrease: Rc and Rt written are at most min(rmax, L); it wins over rmin.
    /// The decrease hands its values over before the ceiling; the increase process applies it.
    #[test]
    fn rmax_ceils_the_decrease() {
        let mut c = dec_cfg(1, true, 10_000_000);
        c.rmax = 400_000_000;
        // cut to 625,610,352, ceiled to 400,000,000; Rt = old Rc = L, ceiled.
        assert_eq!(
            written(L, L, 1023, false, false, &c),
            (400_000_000, 400_000_000)
        );
        // rmin above rmax: the ceiling wins.
        c.rmin = 900_000_000;
        assert_eq!(written(L, L, 1023, false, false, &c).0, 400_000_000);
        // rmax above L behaves as L: an injected Rc above L is brought down to L.
        c.rmax = u32::MAX;
        c.rmin = 10_000_000;
        assert_eq!(written(u32::MAX, u32::MAX, 0, false, false, &c), (L, L));
        // rmax = 0: no ceiling (the reset rule), the injected Rc above L stays.
        c.rmax = 0;
        assert_eq!(
            written(u32::MAX, u32::MAX, 0, false, false, &c),
            (u32::MAX, u32::MAX)
        );
    }

    const L: u32 = 1_250_000_000;

    fn cfg(timer_en: bool, byte_en: bool, f: u8) -> Config {
        Config {
            timer_en,
            byte_en,
            inc_interval: 10,
            byte_threshold: 100,
            stage_threshold: f,
            rai: 6_000_000,
            rhai: 12_000_000,
            ..Config::reset(&Params::DEFAULT)
        }
    }

    #[test]
    fn timer_only_phases_match_surf_counts() {
        // F = 5: four fast-recovery events, one additive, then hyper.
        let c = cfg(true, false, 5);
        let phases: Vec<Phase> = (1..=7).map(|t| phase(t, 0, &c)).collect();
        use Phase::*;
        assert_eq!(
            phases,
            vec![
                FastRecovery,
                FastRecovery,
                FastRecovery,
                FastRecovery,
                Additive,
                Hyper,
                Hyper
            ]
        );
        assert_eq!(phase(1, 0, &cfg(true, false, 1)), Additive);
        assert_eq!(phase(1, 0, &cfg(true, false, 0)), Hyper);
    }

    #[test]
    fn both_triggers_use_max_and_min() {
        let c = cfg(true, true, 5);
        assert_eq!(phase(4, 2, &c), Phase::FastRecovery);
        assert_eq!(phase(9, 0, &c), Phase::Additive);
        assert_eq!(phase(6, 6, &c), Phase::Hyper);
        assert_eq!(phase(0, 7, &cfg(false, true, 5)), Phase::Hyper);
    }

    #[test]
    fn rc_reaches_target_exactly() {
        let c = cfg(true, false, 5);
        let (mut rc, mut rt) = (625_610_352, L);
        for _ in 0..40 {
            (rc, rt) = result(rc, rt, Phase::FastRecovery, 0, &c, L);
        }
        assert_eq!((rc, rt), (L, L));
        // From above, it rounds down toward the target.
        assert_eq!(result(11, 4, Phase::FastRecovery, 0, &c, L), (7, 4));
    }

    #[test]
    fn target_clamps_before_wrapping() {
        let c = Config {
            rai: 0xFFFF_FFFB,
            ..cfg(true, false, 5)
        };
        assert_eq!(result(L, 1_000_000_000, Phase::Additive, 0, &c, L).1, L);
    }

    /// spec 4.5 hai_mult, hand-computed: F = 5, timer only, stages 6, 7, 8 are hyper steps
    /// i = 1, 2, 3; Rt += i x 12,000,000.
    #[test]
    fn hyper_steps_grow_with_i() {
        let mut c = cfg(true, false, 5);
        c.hai_mult = true;
        assert_eq!(hyper_index(6, 0, &c), 1);
        assert_eq!(hyper_index(8, 0, &c), 3);
        assert_eq!(hyper_index(4, 0, &c), 0);
        let rt = 100_000_000;
        assert_eq!(
            result(rt, rt, Phase::Hyper, 1, &c, L),
            (106_000_000, 112_000_000)
        );
        assert_eq!(
            result(rt, rt, Phase::Hyper, 3, &c, L),
            (118_000_000, 136_000_000)
        );
        // Rc averages toward the new target: (50,000,000 + 136,000,000) / 2.
        assert_eq!(
            result(50_000_000, rt, Phase::Hyper, 3, &c, L),
            (93_000_000, 136_000_000)
        );
        // Constant form ignores i.
        c.hai_mult = false;
        assert_eq!(result(rt, rt, Phase::Hyper, 3, &c, L).1, 112_000_000);
        // Both triggers: i = min(T, BC) - F = min(9, 7) - 5 = 2.
        let mut b = cfg(true, true, 5);
        b.hai_mult = true;
        assert_eq!(hyper_index(9, 7, &b), 2);
        // i x rhai beyond 32 bits: 255 x 0xFFFF_FFFF clamps at L.
        b.rhai = u32::MAX;
        assert_eq!(result(0, 0, Phase::Hyper, 255, &b, L), (L / 2, L));
    }

    /// spec 4.6 rmax on an increase: Rt and Rc are ceiled after the average.
    #[test]
    fn rmax_ceils_the_increase() {
        let mut c = cfg(true, false, 5);
        c.rmax = 500_000_000;
        // Additive: Rt 498,000,000 + 6,000,000 -> 504,000,000 -> 500,000,000; Rc (400M + 500M) / 2.
        assert_eq!(
            result(400_000_000, 498_000_000, Phase::Additive, 0, &c, L),
            (450_000_000, 500_000_000)
        );
        // Fast recovery with Rt above the ceiling (rmax written later): Rt and Rc come down.
        assert_eq!(
            result(L, L, Phase::FastRecovery, 0, &c, L),
            (500_000_000, 500_000_000)
        );
        // rmax above L behaves as L: Rt L - 1 + 12,000,000 clamps at L, Rc (2L - 1) / 2 = L - 1.
        c.rmax = u32::MAX;
        assert_eq!(result(L - 2, L - 1, Phase::Hyper, 1, &c, L), (L - 1, L));
        // and brings an injected Rc above L down to L.
        assert_eq!(result(u32::MAX, L, Phase::FastRecovery, 0, &c, L), (L, L));
    }
}
