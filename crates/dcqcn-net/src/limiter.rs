//! A sender's rate limiter: our block or the upstream SURF block (`profile` in a parameter file).
//!
//! Both are bit-exact models stepped one 156.25 MHz cycle at a time; they differ in beat width
//! (ours 8 bytes, the upstream wrapper 32) and in what the network may skip: only our block has
//! the closed-form advances (`RateLimiter::skip`, `skip_stream`), so a `surf` sender steps every
//! cycle. What the network reads of either is [`View`] (the sampled registers) and, for the
//! emulated switch, [`Cut`] (a decrease as it lands).

use crate::config::Profile;
use dcqcn_model::{Config, Inputs, Outputs, Params, RateLimiter};
use dcqcn_surf::model::{SurfConfig, SurfLimiter, SurfParams};

/// Reset cycles an upstream limiter is given before time 0 (at least two: the token calculator's
/// two register stages).
pub const RESET_CYCLES: u32 = 4;

/// The registers a sample records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Current and target rate, bytes/s.
    pub rc: u32,
    pub rt: u32,
    /// Q0.10.
    pub alpha: u16,
    /// Rate-increase timer expiries: our block's counter register (spec 6.1, it wraps at 2^32);
    /// upstream has none, so for a `surf` limiter the updates of its increase process counted here.
    pub inc_timer_fires: u32,
}

/// A rate decrease, reported by the step that computes it (Rc takes the new value within the
/// next two edges).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Alpha the cut multiplied by (Q0.10).
    pub alpha: u16,
    /// Rc before and after, bytes/s.
    pub rc_before: u32,
    pub rc_after: u32,
}

/// The upstream block with what the network counts beside it.
#[derive(Clone, Debug)]
pub struct Surf {
    pub model: SurfLimiter,
    /// Updates of the increase process (its `valid` pulses).
    inc_updates: u32,
    /// Alpha latched by the decrease process's first update cycle, while its cut is in flight.
    cut_alpha: u16,
}

/// A sender's rate limiter. Ours stays inline (the network's hot path, skipped in closed form);
/// the upstream block, whose FIFOs are on the heap anyway, is boxed.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Limiter {
    Ours(RateLimiter),
    Surf(Box<Surf>),
}

impl Limiter {
    /// A limiter of `profile` at power-up, configured with `registers` (for `surf`, the upstream
    /// registers of the same fields: `SurfConfig::from_ours`, checked by `NetConfig::validate`).
    ///
    /// # Panics
    /// If `registers` has a field upstream lacks at a value other than upstream's (the
    /// configuration was not validated), or for profile `mq`, which is a NIC
    /// (the `NicSender` of nic.rs), not a single-flow limiter (the network builds NICs for it,
    /// and the experiments without a network refuse it: `experiment::plan`), or for profile
    /// `nscc`, which has no limiter (the `NsccSender` of nscc.rs; refused alike).
    pub fn new(profile: Profile, registers: Config) -> Limiter {
        match profile {
            Profile::Mq => panic!("profile mq is a NIC sender, not a single-flow limiter"),
            Profile::Nscc => panic!("profile nscc is a window-based sender without a limiter"),
            Profile::Ours => {
                let mut rl = RateLimiter::new(Params::DEFAULT);
                rl.set_config(registers);
                Limiter::Ours(rl)
            }
            Profile::Surf => {
                let cfg = SurfConfig::from_ours(&registers)
                    .expect("NetConfig::validate checks that upstream has these registers");
                let mut model = SurfLimiter::new(SurfParams::default());
                // Out of reset at time 0, as our block's `RateLimiter::new`: reset cycles before
                // it load the token calculator, so the bucket starts empty. (Stepped from
                // power-up without them, upstream's undefined calculator makes the bucket jump to
                // its 1 MiB cap in the first cycle: a simulation artefact, not the FPGA.)
                let rst = Inputs {
                    rst: true,
                    ..Inputs::default()
                };
                for _ in 0..RESET_CYCLES {
                    model.step(&rst);
                }
                model.set_config(&cfg);
                Limiter::Surf(Box::new(Surf {
                    model,
                    inc_updates: 0,
                    cut_alpha: 0,
                }))
            }
        }
    }

    /// Bytes per beat of the AXI4-Stream.
    pub fn data_bytes(&self) -> u32 {
        match self {
            Limiter::Ours(rl) => rl.params().data_bytes(),
            Limiter::Surf(_) => SurfLimiter::DATA_BYTES,
        }
    }

    /// One cycle: the outputs (before the edge), then the edge.
    #[inline]
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        match self {
            Limiter::Ours(rl) => rl.step(i),
            Limiter::Surf(s) => {
                let o = s.model.step(i);
                s.inc_updates = s
                    .inc_updates
                    .wrapping_add(u32::from(s.model.rate().inc.valid));
                o
            }
        }
    }

    /// [`Limiter::step`], and the decrease that lands in this cycle's edge, if one does.
    pub fn step_cut(&mut self, i: &Inputs) -> (Outputs, Option<Cut>) {
        match self {
            Limiter::Ours(rl) => {
                let (alpha, rc_before) = (rl.state().alpha.alpha, rl.state().rc);
                let o = rl.step(i);
                let cut = rl.events().dec_fire.then(|| Cut {
                    alpha,
                    rc_before,
                    rc_after: rl.state().rc,
                });
                (o, cut)
            }
            Limiter::Surf(s) => {
                let before = s.model.probe();
                let o = self.step(i);
                let Limiter::Surf(s) = self else {
                    unreachable!()
                };
                let dec = &s.model.rate().dec;
                // The first update cycle latched Rc x alpha of the cycle just stepped.
                if dec.state == dcqcn_surf::model::rate_dec::DecState::Update2 && dec.do_update {
                    s.cut_alpha = before.alpha;
                }
                // The overseer writes the result at the next edge (spec of rate_dec.rs): report
                // it there, from the Rc the second update cycle subtracted from.
                let cut = dec.valid.then_some(Cut {
                    alpha: s.cut_alpha,
                    rc_before: before.rc,
                    rc_after: dec.new_rc,
                });
                (o, cut)
            }
        }
    }

    /// The registers now.
    pub fn view(&self) -> View {
        match self {
            Limiter::Ours(rl) => {
                let st = rl.state();
                View {
                    rc: st.rc,
                    rt: st.rt,
                    alpha: st.alpha.alpha,
                    inc_timer_fires: st.regs.cnt.cnt_inc_timer,
                }
            }
            Limiter::Surf(s) => {
                let p = s.model.probe();
                View {
                    rc: p.rc,
                    rt: p.rt,
                    alpha: p.alpha,
                    inc_timer_fires: s.inc_updates,
                }
            }
        }
    }
}
