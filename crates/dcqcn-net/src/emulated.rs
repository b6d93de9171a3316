//! The paper's emulated switch (Sec. VI-A, Fig. 9): one sender, no network. The RDMA payload
//! bytes leaving the rate limiter are summed over a sliding window; above a threshold, and a
//! cooldown after the last trigger, a CNP pulse is raised on the limiter's pin. The monitor is
//! `dcqcn_harness::emulated_switch`, the one the lockstep's `paper-table2` scenario drives
//! (`dcqcn-cosim`'s `CnpSpec::Switch`); what differs is what is counted: the lockstep counts every
//! stream byte, the paper's monitor payload bytes ("records every payload byte"), which keeps a
//! limiter at exactly Rc = 5 Gb/s below a 5 Gb/s threshold.

use crate::config::Profile;
use crate::limiter::Limiter;
use dcqcn_harness::emulated_switch::{window_gbps, EmulatedSwitch, Monitor};
use dcqcn_model::credit_gate::keep_bytes;
use dcqcn_model::{AxilIn, AxisIn, Config, Inputs, Params, DATA_WORDS};

/// A CNP as the limiter saw it: the cycle of the edge and the registers it found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CnpSeen {
    pub cycle: u64,
    /// Alpha when the decrease fired (Q0.10): the value the cut used.
    pub alpha: u16,
    /// Rc before and after the cut, bytes/s.
    pub rc_before_bytes_per_s: u32,
    pub rc_after_bytes_per_s: u32,
}

/// One point of the time series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub cycle: u64,
    /// Window throughput, Gb/s.
    pub window_gbps: f64,
    /// The limiter's Rc and Rt registers, bytes/s.
    pub rc_bytes_per_s: u32,
    pub rt_bytes_per_s: u32,
    pub alpha: u16,
}

pub struct Fig9Run {
    pub points: Vec<Point>,
    pub cnps: Vec<CnpSeen>,
    pub threshold_gbps: f64,
    pub cycles: u64,
}

/// Runs `cycles` cycles of a saturating source of `frame_bytes` frames through a limiter of
/// `profile` with `registers` (validated for the profile), the downstream always ready, CNPs from `switch`; a point every `every` cycles.
/// The switch counts RDMA payload bytes: those of each frame after its first `header_bytes` and
/// before its last `trailer_bytes` (the BTH and the ICRC that the engine adds to the stream).
#[allow(clippy::too_many_arguments)]
pub fn run(
    profile: Profile,
    registers: Config,
    frame_bytes: u32,
    header_bytes: u32,
    trailer_bytes: u32,
    switch: EmulatedSwitch,
    cycles: u64,
    every: u64,
    mut progress: impl FnMut(f64),
) -> Fig9Run {
    let p = Params::DEFAULT;
    let mut rl = Limiter::new(profile, registers);
    let db = rl.data_bytes();
    let beats = frame_bytes.div_ceil(db);
    let rem = frame_bytes % db;
    let clk_hz = p.clk_hz();
    let threshold_gbps = switch.threshold_gbps(clk_hz);
    let window_cycles = switch.window_cycles;
    let mut mon = Monitor::new(switch);
    let mut beat = 0u32;
    let mut egress = 0u32;
    // Offset in its frame of the next beat handed downstream.
    let mut out_offset = 0u32;
    let payload_end = frame_bytes.saturating_sub(trailer_bytes);
    let mut points = Vec::new();
    let mut cnps = Vec::new();
    for c in 0..cycles {
        let last = beat + 1 == beats;
        let keep = if last && rem != 0 {
            (1u64 << rem) - 1
        } else {
            (1u64 << db) - 1
        };
        let i = Inputs {
            rst: false,
            cnp: mon.next(c, egress),
            s_axis: AxisIn {
                tdata: [0; DATA_WORDS],
                tkeep: keep,
                tvalid: true,
                tlast: last,
            },
            m_axis_tready: true,
            axil: AxilIn::default(),
        };
        let (o, cut) = rl.step_cut(&i);
        if let Some(cut) = cut {
            cnps.push(CnpSeen {
                cycle: c,
                alpha: cut.alpha,
                rc_before_bytes_per_s: cut.rc_before,
                rc_after_bytes_per_s: cut.rc_after,
            });
        }
        if o.s_axis_tready {
            beat = if last { 0 } else { beat + 1 };
        }
        egress = 0;
        if o.m_axis_tvalid {
            let n = keep_bytes(o.m_axis_tkeep);
            let (a, b) = (out_offset, out_offset + n);
            egress = b.min(payload_end).saturating_sub(a.max(header_bytes));
            out_offset = if o.m_axis_tlast { 0 } else { b };
        }
        if c % every == 0 {
            let st = rl.view();
            points.push(Point {
                cycle: c,
                window_gbps: window_gbps(mon.window_bytes(), window_cycles, clk_hz),
                rc_bytes_per_s: st.rc,
                rt_bytes_per_s: st.rt,
                alpha: st.alpha,
            });
        }
        if c % (1 << 20) == 0 {
            progress(c as f64 / cycles as f64);
        }
    }
    progress(1.0);
    Fig9Run {
        points,
        cnps,
        threshold_gbps,
        cycles,
    }
}
