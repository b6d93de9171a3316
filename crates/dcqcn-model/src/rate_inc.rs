//! Rate increase process: timer and byte-counter triggers, stage counters, phases (spec 4.5;
//! RTL `dcqcn_rate_inc`).

use crate::fixed::{expired, sat_inc};

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

/// The configuration fields the increase reads.
#[derive(Clone, Copy, Debug)]
pub struct IncCfg {
    pub timer_en: bool,
    pub byte_en: bool,
    pub inc_interval: u32,
    pub byte_threshold: u32,
    pub stage_threshold: u8,
    pub rai: u32,
    pub rhai: u32,
    pub line_rate: u32,
}

/// The two triggers of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Triggers {
    pub timer_fire: bool,
    pub byte_fire: bool,
}

impl Triggers {
    #[inline(always)]
    pub fn any(&self) -> bool {
        self.timer_fire | self.byte_fire
    }
}

impl RateInc {
    pub const RESET: RateInc = RateInc {
        inc_timer: 0,
        byte_cnt: 0,
        t_stage: 0,
        b_stage: 0,
    };

    #[inline(always)]
    pub fn triggers(&self, active: bool, cfg: &IncCfg) -> Triggers {
        Triggers {
            timer_fire: active && cfg.timer_en && expired(self.inc_timer, cfg.inc_interval),
            byte_fire: active && cfg.byte_en && self.byte_cnt >= cfg.byte_threshold.max(1),
        }
    }

    /// Stage counters after this cycle's increase event (`t_new`, `b_new`).
    #[inline(always)]
    pub fn new_stages(&self, inc_event: bool, t: Triggers) -> (u8, u8) {
        let t_new = if inc_event && t.timer_fire {
            sat_inc(self.t_stage)
        } else {
            self.t_stage
        };
        let b_new = if inc_event && t.byte_fire {
            sat_inc(self.b_stage)
        } else {
            self.b_stage
        };
        (t_new, b_new)
    }

    /// `restart` is `cfg_bypass | ~active | dec_fire`.
    #[inline(always)]
    pub fn next(
        &self,
        restart: bool,
        t: Triggers,
        inc_event: bool,
        bytes_in: u32,
        cfg: &IncCfg,
    ) -> RateInc {
        if restart {
            return RateInc::RESET;
        }
        let (t_stage, b_stage) = self.new_stages(inc_event, t);
        RateInc {
            inc_timer: if !cfg.timer_en || t.timer_fire {
                0
            } else {
                self.inc_timer + 1
            },
            byte_cnt: if !cfg.byte_en || t.byte_fire {
                0
            } else {
                self.byte_cnt.saturating_add(bytes_in)
            },
            t_stage,
            b_stage,
        }
    }
}

/// spec 4.5: the DCQCN paper's phase rule on the new stage values.
#[inline]
pub fn phase(t_new: u8, b_new: u8, cfg: &IncCfg) -> Phase {
    let (smax, smin) = match (cfg.timer_en, cfg.byte_en) {
        (true, true) => (t_new.max(b_new), t_new.min(b_new)),
        (false, true) => (b_new, b_new),
        _ => (t_new, t_new),
    };
    let f = cfg.stage_threshold;
    if smax < f {
        Phase::FastRecovery
    } else if smin > f {
        Phase::Hyper
    } else {
        Phase::Additive
    }
}

/// spec 4.5: the (Rc, Rt) written by an increase event.
#[inline]
pub fn result(rc: u32, rt: u32, phase: Phase, cfg: &IncCfg) -> (u32, u32) {
    let l = u64::from(cfg.line_rate);
    let rt_inc = match phase {
        Phase::FastRecovery => rt,
        Phase::Additive => (u64::from(rt) + u64::from(cfg.rai)).min(l) as u32,
        Phase::Hyper => (u64::from(rt) + u64::from(cfg.rhai)).min(l) as u32,
    };
    // Average rounded toward the target, so Rc reaches Rt exactly.
    let up = u64::from(rc < rt_inc);
    let rc_inc = ((u64::from(rc) + u64::from(rt_inc) + up) >> 1) as u32;
    (rc_inc, rt_inc)
}

#[cfg(test)]
mod tests {
    use super::*;

    const L: u32 = 1_250_000_000;

    fn cfg(timer_en: bool, byte_en: bool, f: u8) -> IncCfg {
        IncCfg {
            timer_en,
            byte_en,
            inc_interval: 10,
            byte_threshold: 100,
            stage_threshold: f,
            rai: 6_000_000,
            rhai: 12_000_000,
            line_rate: L,
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
            (rc, rt) = result(rc, rt, Phase::FastRecovery, &c);
        }
        assert_eq!((rc, rt), (L, L));
        // From above, it rounds down toward the target.
        assert_eq!(result(11, 4, Phase::FastRecovery, &c), (7, 4));
    }

    #[test]
    fn target_clamps_before_wrapping() {
        let c = IncCfg {
            rai: 0xFFFF_FFFB,
            ..cfg(true, false, 5)
        };
        assert_eq!(result(L, 1_000_000_000, Phase::Additive, &c).1, L);
    }
}
