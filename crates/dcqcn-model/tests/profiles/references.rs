//! The published algorithms, each rendered from its published description as an event-driven
//! process in continuous time: the DCQCN paper's reaction point, SURF's block as the seed paper
//! describes it, ns-3 HPCC's `rdma-hw`, and NVIDIA's parameter semantics in integer form.

use super::*;

/// The DCQCN paper's reaction point (Zhu et al., SIGCOMM 2015, Sec. 3): on a CNP, Rt ← Rc,
/// Rc ← Rc (1 − α/2), α ← (1 − g) α + g, T = BC = 0 and both timers restart; every K without a
/// CNP α ← (1 − g) α; every T_inc T += 1 and: max(T, BC) < F fast recovery, min(T, BC) > F
/// Rt += i R_HAI (i = min(T, BC) − F), else Rt += R_AI; then Rc ← (Rt + Rc) / 2. Rates start at
/// L, α at 1. `byte_counter`: BC exists (and stays 0 without traffic); without it, T alone.
pub(super) struct PaperRp {
    pub(super) g: f64,
    pub(super) k_ns: u64,
    pub(super) t_inc_ns: u64,
    pub(super) f: u32,
    pub(super) rai: f64,
    pub(super) rhai: f64,
    pub(super) byte_counter: bool,
    pub(super) rc: f64,
    pub(super) rt: f64,
    pub(super) alpha: f64,
    pub(super) t: u32,
    pub(super) started: bool,
    /// [α timer, increase timer]
    pub(super) timers: [u64; 2],
    pub(super) o: Obs,
}

impl PaperRp {
    pub(super) fn new(
        g: f64,
        k_ns: u64,
        t_inc_ns: u64,
        f: u32,
        rai: f64,
        rhai: f64,
        bc: bool,
    ) -> Self {
        PaperRp {
            g,
            k_ns,
            t_inc_ns,
            f,
            rai,
            rhai,
            byte_counter: bc,
            rc: L,
            rt: L,
            alpha: 1.0,
            t: 0,
            started: false,
            timers: [u64::MAX; 2],
            o: Obs::default(),
        }
    }
}

impl Reference for PaperRp {
    fn next_timer(&self) -> Option<(u64, usize)> {
        earliest(&self.timers)
    }
    fn fire(&mut self, id: usize, t: u64) {
        if id == 0 {
            self.alpha *= 1.0 - self.g;
            self.o.alpha_updates += 1;
            self.timers[0] = t + self.k_ns;
            return;
        }
        self.t += 1;
        let bc = 0;
        let (hi, lo) = if self.byte_counter {
            (self.t.max(bc), self.t.min(bc))
        } else {
            (self.t, self.t)
        };
        if hi < self.f {
            self.o.incs[0] += 1;
        } else if lo > self.f {
            self.rt = (self.rt + f64::from(lo - self.f) * self.rhai).min(L);
            self.o.incs[2] += 1;
        } else {
            self.rt = (self.rt + self.rai).min(L);
            self.o.incs[1] += 1;
        }
        self.rc = (self.rt + self.rc) / 2.0;
        self.timers[1] = t + self.t_inc_ns;
    }
    fn cnp(&mut self, t: u64) {
        self.rt = self.rc;
        self.rc *= 1.0 - self.alpha / 2.0;
        self.alpha = (1.0 - self.g) * self.alpha + self.g;
        // The first CNP's update leaves α at 1; ours does not count it either (spec 4.3).
        self.o.alpha_updates += u32::from(self.started);
        self.started = true;
        self.o.decs += 1;
        self.t = 0;
        self.timers = [t + self.k_ns, t + self.t_inc_ns];
    }
    fn obs(&self) -> Obs {
        Obs {
            rc: self.rc,
            rt: self.rt,
            alpha: self.alpha,
            ..self.o
        }
    }
}

/// SURF's `RoCEv2Dcqcn` as the seed paper (Sec. V) and its register map describe it: α starts at
/// 1023/1024 and the first CNP is not counted; every alpha interval α ← (1 − g) α + g [a CNP
/// arrived in the period] (period grid started by the first CNP); a CNP cuts Rc ← max(Rmin,
/// Rc (1 − α / 2^gain)), sets Rt ← Rc only with ClampTargetRate, resets the stage and restarts the
/// increase timer; every increase interval: stage < F − 1 fast recovery, = F − 1 Rt += Rai, above
/// Rt += Rhai (constant), Rt ≤ L, then Rc ← (Rc + Rt) / 2, stage += 1 (held at F).
pub(super) struct SurfRp {
    pub(super) g: f64,
    pub(super) gain: i32,
    pub(super) na_ns: u64,
    pub(super) ni_ns: u64,
    pub(super) f: u32,
    pub(super) clamp: bool,
    pub(super) rai: f64,
    pub(super) rhai: f64,
    pub(super) rmin: f64,
    pub(super) rc: f64,
    pub(super) rt: f64,
    pub(super) alpha: f64,
    pub(super) pending: bool,
    pub(super) stage: u32,
    pub(super) active: bool,
    /// [α timer, increase timer]
    pub(super) timers: [u64; 2],
    pub(super) o: Obs,
}

impl SurfRp {
    pub(super) fn new(c: SurfParams) -> Self {
        SurfRp {
            g: c.g,
            gain: c.gain,
            na_ns: c.na_ns,
            ni_ns: c.ni_ns,
            f: c.f,
            clamp: c.clamp,
            rai: c.rai,
            rhai: c.rhai,
            rmin: c.rmin,
            rc: L,
            rt: L,
            alpha: 1023.0 / 1024.0,
            pending: false,
            stage: 0,
            active: false,
            timers: [u64::MAX; 2],
            o: Obs::default(),
        }
    }
}

/// The published register values of a SURF-family configuration, in physical units.
pub(super) struct SurfParams {
    pub(super) g: f64,
    pub(super) gain: i32,
    pub(super) na_ns: u64,
    pub(super) ni_ns: u64,
    pub(super) f: u32,
    pub(super) clamp: bool,
    pub(super) rai: f64,
    pub(super) rhai: f64,
    pub(super) rmin: f64,
}

impl Reference for SurfRp {
    fn next_timer(&self) -> Option<(u64, usize)> {
        earliest(&self.timers)
    }
    fn fire(&mut self, id: usize, t: u64) {
        if id == 0 {
            let cnp = if self.pending { self.g } else { 0.0 };
            self.alpha = (1.0 - self.g) * self.alpha + cnp;
            self.pending = false;
            self.o.alpha_updates += 1;
            self.timers[0] = t + self.na_ns;
            return;
        }
        if self.stage + 1 < self.f {
            self.o.incs[0] += 1;
        } else if self.stage + 1 == self.f {
            self.rt = (self.rt + self.rai).min(L);
            self.o.incs[1] += 1;
        } else {
            self.rt = (self.rt + self.rhai).min(L);
            self.o.incs[2] += 1;
        }
        self.rc = (self.rc + self.rt) / 2.0;
        self.stage = (self.stage + 1).min(self.f);
        self.timers[1] = t + self.ni_ns;
    }
    fn cnp(&mut self, t: u64) {
        if self.active {
            self.pending = true;
        } else {
            self.active = true;
            self.timers[0] = t + self.na_ns;
        }
        if self.clamp {
            self.rt = self.rc;
        }
        self.rc = (self.rc * (1.0 - self.alpha / 2f64.powi(self.gain))).max(self.rmin);
        self.o.decs += 1;
        self.stage = 0;
        self.timers[1] = t + self.ni_ns;
    }
    fn obs(&self) -> Obs {
        Obs {
            rc: self.rc,
            rt: self.rt,
            alpha: self.alpha,
            ..self.o
        }
    }
}

/// ns-3 HPCC's `rdma-hw` DCQCN ("Mellanox" mode), from its source as a description: the first CNP
/// sets α = 1 (not counted), Rc = Rt = RateOnFirstCnp × Rc (1.0), and starts the α timer (every
/// t_α: α ← (1 − g) α + g [CNP since the last update]) and the decrease check (every t_d, 1 ns
/// after the α update of the same microsecond): if a CNP arrived, Rt ← Rc if ClampTargetRate or
/// stage ≠ 0, Rc ← max(MinRate, Rc (1 − α/2)), stage = 0, the increase timer restarts; every
/// RP_TIMER: stage < F fast recovery, = F Rt += R_AI, > F Rt += R_HAI (Rt ≤ L), Rc ← Rc/2 + Rt/2,
/// stage += 1. At equal times the increase timer (scheduled first) runs before the check.
pub(super) struct Ns3Rp {
    pub(super) g: f64,
    pub(super) ta_ns: u64,
    pub(super) td_ns: u64,
    pub(super) tinc_ns: u64,
    pub(super) f: u32,
    pub(super) rai: f64,
    pub(super) rhai: f64,
    pub(super) min_rate: f64,
    pub(super) rc: f64,
    pub(super) rt: f64,
    pub(super) alpha: f64,
    pub(super) alpha_cnp: bool,
    pub(super) dec_cnp: bool,
    pub(super) stage: u32,
    pub(super) first: bool,
    /// [increase timer, decrease check, α timer]
    pub(super) timers: [u64; 3],
    pub(super) o: Obs,
}

impl Reference for Ns3Rp {
    fn next_timer(&self) -> Option<(u64, usize)> {
        earliest(&self.timers)
    }
    fn fire(&mut self, id: usize, t: u64) {
        match id {
            0 => {
                if self.stage < self.f {
                    self.o.incs[0] += 1;
                } else if self.stage == self.f {
                    self.rt = (self.rt + self.rai).min(L);
                    self.o.incs[1] += 1;
                } else {
                    self.rt = (self.rt + self.rhai).min(L);
                    self.o.incs[2] += 1;
                }
                self.rc = self.rc / 2.0 + self.rt / 2.0;
                self.stage += 1;
                self.timers[0] = t + self.tinc_ns;
            }
            1 => {
                self.timers[1] = t + self.td_ns;
                if self.dec_cnp {
                    if self.stage != 0 {
                        self.rt = self.rc;
                    }
                    self.rc = (self.rc * (1.0 - self.alpha / 2.0)).max(self.min_rate);
                    self.stage = 0;
                    self.dec_cnp = false;
                    self.o.decs += 1;
                    self.timers[0] = t + self.tinc_ns;
                }
            }
            _ => {
                let cnp = if self.alpha_cnp { self.g } else { 0.0 };
                self.alpha = (1.0 - self.g) * self.alpha + cnp;
                self.alpha_cnp = false;
                self.o.alpha_updates += 1;
                self.timers[2] = t + self.ta_ns;
            }
        }
    }
    fn cnp(&mut self, t: u64) {
        self.alpha_cnp = true;
        self.dec_cnp = true;
        if self.first {
            self.first = false;
            self.alpha = 1.0;
            self.alpha_cnp = false;
            self.timers[2] = t + self.ta_ns;
            self.timers[1] = t + self.td_ns + 1;
        }
    }
    fn obs(&self) -> Obs {
        Obs {
            rc: self.rc,
            rt: self.rt,
            alpha: self.alpha,
            ..self.o
        }
    }
}

/// NVIDIA's reaction point from its documented parameter semantics, rates in integer bytes/s with
/// truncating divisions as integer reference models of ConnectX render them, α in 1/1024 with the
/// documented update in real arithmetic (a rendering that truncates α g / 1024 every microsecond
/// settles up to 0.5 / (1 − g/1024) ≈ 100 LSB below it, which no firmware document states): the
/// first CNP sets α = initial_alpha_value (not counted), Rc = Rt = rate_to_set_on_first_cnp, cuts
/// nothing, and starts the α timer (every dce_tcp_rtt: α ← α g / 1024 + (1024 − g) [CNP], at most
/// 1023), the decrease check (every rate_reduce_monitor_period) and the increase timer; at a check
/// after a CNP: Rt ← Rc if clamp_tgt_rate or BC > 0 or (clamp_tgt_rate_after_time_inc and T > 0),
/// Rc −= min(Rc α >> rpg_gd, Rc (100 − min_dec_fac) / 100), Rc ≥ rpg_min_rate, T = BC = 0, the
/// increase timer restarts; every rpg_time_reset: min(T, BC) > rpg_threshold Rt += hai, else
/// max(T, BC) ≥ rpg_threshold Rt += ai, Rt ≤ max rate, Rc ← (Rc + Rt) / 2, then T += 1. At equal
/// times: increase timer, check, α update (the order they were scheduled in).
pub(super) struct NvidiaRp {
    pub(super) g: u64,
    pub(super) rtt_ns: u64,
    pub(super) monitor_ns: u64,
    pub(super) time_reset_ns: u64,
    pub(super) threshold: u32,
    pub(super) ai: u64,
    pub(super) hai: u64,
    pub(super) min_rate: u64,
    pub(super) gd: u32,
    pub(super) min_dec_fac: u64,
    pub(super) first_rate: u64,
    /// Rt after the first CNP: NVIDIA's is `first_rate`; see `nvidia_cx_matches_nvidia`.
    pub(super) first_rt: u64,
    pub(super) rc: u64,
    pub(super) rt: u64,
    /// In 1/1024, real-valued as NVIDIA's documentation writes the update.
    pub(super) alpha: f64,
    pub(super) alpha_cnp: bool,
    pub(super) dec_cnp: bool,
    pub(super) t: u32,
    pub(super) first: bool,
    /// [increase timer, decrease check, α timer]
    pub(super) timers: [u64; 3],
    pub(super) o: Obs,
}

impl Reference for NvidiaRp {
    fn next_timer(&self) -> Option<(u64, usize)> {
        earliest(&self.timers)
    }
    fn fire(&mut self, id: usize, t: u64) {
        let max_rate = L as u64;
        match id {
            0 => {
                let bc = 0;
                if self.t.min(bc) > self.threshold {
                    self.rt += self.hai;
                    self.o.incs[2] += 1;
                } else if self.t.max(bc) >= self.threshold {
                    self.rt += self.ai;
                    self.o.incs[1] += 1;
                } else {
                    self.o.incs[0] += 1;
                }
                self.rt = self.rt.min(max_rate);
                self.rc = (self.rc + self.rt) / 2;
                self.t += 1;
                self.timers[0] = t + self.time_reset_ns;
            }
            1 => {
                self.timers[1] = t + self.monitor_ns;
                if self.dec_cnp {
                    if self.t > 0 {
                        self.rt = self.rc;
                    }
                    let cut = ((self.rc as f64 * self.alpha) as u64 >> self.gd)
                        .min(self.rc * (100 - self.min_dec_fac) / 100);
                    self.rc = (self.rc - cut).max(self.min_rate);
                    self.dec_cnp = false;
                    self.t = 0;
                    self.o.decs += 1;
                    self.timers[0] = t + self.time_reset_ns;
                }
            }
            _ => {
                let g = self.g as f64;
                self.alpha = if self.alpha_cnp {
                    (g * self.alpha / 1024.0 + 1024.0 - g).min(1023.0)
                } else {
                    g * self.alpha / 1024.0
                };
                self.alpha_cnp = false;
                self.o.alpha_updates += 1;
                self.timers[2] = t + self.rtt_ns;
            }
        }
    }
    fn cnp(&mut self, t: u64) {
        if self.first {
            self.first = false;
            self.alpha = 1023.0;
            self.rc = self.first_rate;
            self.rt = self.first_rt;
            // The first CNP is the limiter's first rate update; ours counts it as a decrease.
            self.o.decs += 1;
            self.timers = [t + self.time_reset_ns, t + self.monitor_ns, t + self.rtt_ns];
        } else {
            self.alpha_cnp = true;
            self.dec_cnp = true;
        }
    }
    fn obs(&self) -> Obs {
        Obs {
            rc: self.rc as f64,
            rt: self.rt as f64,
            alpha: self.alpha / 1024.0,
            ..self.o
        }
    }
}
