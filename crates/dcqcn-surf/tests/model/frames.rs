//! The data path: the same frames through both models; and the configuration both ways.

use super::bench::*;

use dcqcn_model::{Inputs, Outputs, Params, RateLimiter};
use dcqcn_surf::model::{SurfLimiter, SurfParams};

/// A model's full port step.
trait Ports {
    fn step_all(&mut self, i: &Inputs) -> Outputs;
}

impl Ports for SurfLimiter {
    fn step_all(&mut self, i: &Inputs) -> Outputs {
        self.step(i)
    }
}

impl Ports for RateLimiter {
    fn step_all(&mut self, i: &Inputs) -> Outputs {
        self.step(i)
    }
}

/// Egress of one run: for each frame, the cycle of its first and of its last output beat, and the
/// bytes that left.
struct Egress {
    first: Vec<u64>,
    last: Vec<u64>,
    bytes: u64,
}

/// Offers `frames` (sizes in bytes, 32-byte beats, always valid from cycle `start`) after a reset
/// in cycles 0..8; `ready(cycle)` drives m_axis_tready. The beat's first data word carries the
/// frame index, checked on the way out.
fn send_frames<D: Ports>(
    dut: &mut D,
    frames: &[u32],
    start: u64,
    cycles: u64,
    ready: impl Fn(u64) -> bool,
) -> Egress {
    let (mut f, mut b) = (0usize, 0u32);
    let mut out = Egress {
        first: Vec::new(),
        last: Vec::new(),
        bytes: 0,
    };
    let mut in_frame = false;
    for t in 0..cycles {
        let mut i = Inputs {
            rst: t < 8,
            m_axis_tready: ready(t),
            ..Inputs::default()
        };
        if t >= start && f < frames.len() {
            let beats = frames[f].div_ceil(32);
            let last = b + 1 == beats;
            let n = if last { frames[f] - 32 * b } else { 32 };
            i.s_axis.tvalid = true;
            i.s_axis.tlast = last;
            i.s_axis.tkeep = (1u64 << n) - 1;
            i.s_axis.tdata[0] = f as u64;
        }
        let o = dut.step_all(&i);
        if i.s_axis.tvalid && o.s_axis_tready {
            b += 1;
            if i.s_axis.tlast {
                (f, b) = (f + 1, 0);
            }
        }
        if o.m_axis_tvalid && i.m_axis_tready {
            let k = out.last.len();
            assert_eq!(o.m_axis_tdata[0], k as u64, "frames leave in order, whole");
            if !in_frame {
                out.first.push(t);
                in_frame = true;
            }
            out.bytes += u64::from(o.m_axis_tkeep.count_ones());
            if o.m_axis_tlast {
                out.last.push(t);
                in_frame = false;
            }
        }
    }
    out
}

fn surf_wrapper() -> SurfLimiter {
    SurfLimiter::new(SurfParams::default())
}

fn ours_32() -> RateLimiter {
    RateLimiter::new(Params::with_data_bytes(32).unwrap())
}

#[test]
fn defect_first_frame_after_reset_is_free() {
    // Three 4096 B frames from cycle 19 (the facts' bench): tokens accrue at 8 B/clk from reset.
    let frames = [4096u32; 3];
    let up = send_frames(&mut surf_wrapper(), &frames, 19, 2000, |_| true);
    let ours = send_frames(&mut ours_32(), &frames, 19, 2000, |_| true);
    assert_eq!(up.last.len(), 3);
    assert_eq!(
        up.first[0], 159,
        "upstream frame 1 egresses at 159, uncharged"
    );
    assert_eq!(up.last[0], 159 + 127);
    // Ours charges the first frame too: its last byte leaves once 4096 B of credit accrued.
    assert!(ours.last[0] >= 8 + 4096 / 8, "ours: {:?}", ours.last);
    println!(
        "3 x 4096 B after reset: frames start at {:?} and end at {:?} upstream (frame 1 free), \
         start at {:?} and end at {:?} ours",
        up.first, up.last, ours.first, ours.last
    );
}

#[test]
fn defect_size_fifo_overflow_charges_wrong_sizes() {
    // The facts' b4: 100 x 64 B then 20 x 1024 B back to back.
    let frames: Vec<u32> = std::iter::repeat_n(64, 100)
        .chain(std::iter::repeat_n(1024, 20))
        .collect();
    let total: u64 = frames.iter().map(|&s| u64::from(s)).sum();
    let up = send_frames(&mut surf_wrapper(), &frames, 19, 12_000, |_| true);
    let ours = send_frames(&mut ours_32(), &frames, 19, 12_000, |_| true);
    assert_eq!((up.bytes, ours.bytes), (total, total), "every byte leaves");
    // Time for the 100 small frames: at 8 B/clk 6400 B take 800 cycles.
    let small_up = up.last[99] - up.first[1];
    let small_ours = ours.last[99] - ours.first[1];
    assert!(
        small_up > small_ours + 500,
        "upstream charges 64 B frames 1024 B"
    );
    println!(
        "b4 (100 x 64 B, 20 x 1024 B): the 64 B frames 2..100 take {small_up} cycles upstream, \
         {small_ours} ours; all {total} B out at cycle {} upstream, {} ours",
        up.last[119], ours.last[119]
    );
}

#[test]
fn defect_store_and_forward_latency() {
    // One 32 B frame offered long after reset (bucket full): cycles from its beat to egress.
    let up = send_frames(&mut surf_wrapper(), &[32, 32], 3000, 4000, |_| true);
    let ours = send_frames(&mut ours_32(), &[32, 32], 3000, 4000, |_| true);
    let (lu, lo) = (up.first[0] - 3000, ours.first[0] - 3000);
    assert!(
        lu >= 13,
        "upstream: at least 13 cycles through the FIFO: {lu}"
    );
    assert!(lo <= 2, "ours: one output register: {lo}");
    println!("latency of a single beat frame with a full bucket: upstream {lu} cycles, ours {lo}");
}

/// `SurfLimiter::set_config` (how `dcqcn net` starts an upstream sender configured) leaves the
/// block as AXI4-Lite writes of the same words do: the configuration registers equal, then the
/// same CNPs and the same stream give the same outputs and registers in every cycle.
#[test]
fn set_config_equals_the_bus_writes() {
    use dcqcn_model::{AxisIn, Config};
    use dcqcn_surf::model::SurfConfig;
    // Every field away from its reset value, bypass off (it would hide the rate side).
    let ours = Config {
        alpha_g: 1000,
        dec_gain: 2,
        stage_threshold: 3,
        clamp_tgt: true,
        rai: 40_000_000,
        rhai: 90_000_000,
        rmin: 20_000_000,
        inc_interval: 700,
        dec_interval: 9,
        alpha_interval: 300,
        ..Config::reset(&Params::DEFAULT)
    };
    let c = SurfConfig::from_ours(&ours).unwrap();
    let mut bus = Bench::new();
    bus.cfg(0x000, word0(1000, 2, 3, true));
    bus.cfg(0x004, 40_000_000);
    bus.cfg(0x008, 90_000_000);
    bus.cfg(0x00C, 20_000_000);
    bus.cfg(0x010, 700);
    bus.cfg(0x014, word14(9, 300));
    let mut direct = SurfLimiter::new(SurfParams::default());
    direct.set_config(&c);
    for _ in 0..bus.cycle {
        direct.step(&Inputs::default());
    }
    let (a, b) = (&direct.rate().regs, &bus.dut.rate().regs);
    assert_eq!(
        (
            a.alpha_g,
            a.dec_gain,
            a.threshold,
            a.clamp_tgt_rate,
            a.rai,
            a.rhai,
            a.rmin
        ),
        (
            b.alpha_g,
            b.dec_gain,
            b.threshold,
            b.clamp_tgt_rate,
            b.rai,
            b.rhai,
            b.rmin
        )
    );
    assert_eq!(
        (a.inc_interval, a.dec_interval, a.alpha_interval, a.bypass),
        (b.inc_interval, b.dec_interval, b.alpha_interval, b.bypass)
    );
    // Frames of 5 beats offered back to back, a CNP every 3000 cycles.
    let mut beat = 0;
    for k in 0..20_000u64 {
        let last = beat == 4;
        let i = Inputs {
            cnp: k % 3000 == 10,
            s_axis: AxisIn {
                tkeep: u64::from(u32::MAX),
                tvalid: true,
                tlast: last,
                ..AxisIn::default()
            },
            m_axis_tready: k % 7 != 0,
            ..Inputs::default()
        };
        let (x, y) = (direct.step(&i), bus.dut.step(&i));
        assert_eq!(x, y, "outputs differ in cycle {k} after configuration");
        assert_eq!(
            direct.probe(),
            bus.dut.probe(),
            "registers differ in cycle {k}"
        );
        if x.s_axis_tready {
            beat = if last { 0 } else { beat + 1 };
        }
    }
    assert!(direct.probe().rc < L, "the CNPs must have cut Rc");
}

/// Our fields upstream has no register for are refused unless they hold what upstream does.
#[test]
fn our_fields_without_an_upstream_register_are_refused() {
    use dcqcn_model::Config;
    use dcqcn_surf::model::SurfConfig;
    let base = Config::paper_table2(&Params::DEFAULT);
    assert!(SurfConfig::from_ours(&base).is_ok());
    for (cfg, field) in [
        (
            Config {
                timer_en: false,
                ..base
            },
            "timer_en",
        ),
        (
            Config {
                byte_en: true,
                ..base
            },
            "byte_en",
        ),
        (
            Config {
                credit_cap: 1 << 19,
                ..base
            },
            "credit_cap",
        ),
        (
            Config {
                rmax: 1_000_000_000,
                ..base
            },
            "rmax",
        ),
        (
            Config {
                rate_first_cnp: 1,
                ..base
            },
            "rate_first_cnp",
        ),
        (
            Config {
                alpha_init: 512,
                ..base
            },
            "alpha_init",
        ),
        (
            Config {
                min_dec_fac: 512,
                ..base
            },
            "min_dec_fac",
        ),
        (
            Config {
                hai_mult: true,
                ..base
            },
            "hai_mult",
        ),
        (Config { scheme: 2, ..base }, "scheme"),
        (
            Config {
                gate_mask: true,
                ..base
            },
            "gate_mask",
        ),
        (Config { fw_rate: 1, ..base }, "fw_rate"),
    ] {
        assert_eq!(SurfConfig::from_ours(&cfg).unwrap_err().field, field);
    }
}
