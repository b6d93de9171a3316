//! The harnesses `make bench` times and `make bench-instructions` counts, on one recorded
//! stimulus: the model alone, the Verilated RTL in the bridge's bare C++ loop, and the lockstep's
//! per-cycle work (model, RTL, every field compared). Recording the stimulus first keeps its
//! generation out of every figure.

use crate::ffi::bridge::PortsIn;
use crate::rtl::{self, Rtl};
use crate::CosimError;
use dcqcn_model::{Inputs, Outputs, RateLimiter};
use dcqcn_stim::run::{self, RunSpec, RunStats};
use dcqcn_stim::scenario;

/// The cycles `make bench` records (65,536: the recording stays in cache; a 2 M-cycle one is
/// about 224 MB and would measure memory bandwidth, not the harness).
pub const RECORDED_CYCLES: u64 = 65_536;

/// A recorded stimulus and the run it comes from.
pub struct Recording {
    pub spec: RunSpec,
    pub inputs: Vec<Inputs>,
    /// The same inputs as the bridge's ports (for the bare loop).
    pub ports: Vec<PortsIn>,
    /// What the model saw while recording.
    pub stats: RunStats,
}

impl Recording {
    /// The first `cycles` cycles of the paper-table2 scenario: Table II registers, saturating
    /// 4096-byte RDMA WRITEs into an emulated switch at 5 Gb/s.
    pub fn paper_table2(cycles: u64) -> Recording {
        let sc = scenario::by_name("paper-table2").expect("a built-in scenario");
        let spec = RunSpec {
            scenario: sc.name.into(),
            params: sc.params(),
            stimulus: sc.stimulus.clone(),
            seed: 1,
            cycles,
            variant: dcqcn_stim::variant::width_variant(sc.data_bytes),
            replay: String::new(),
            rtl_init_seed: 0,
            initial_state: None,
        };
        let mut inputs = Vec::with_capacity(usize::try_from(cycles).unwrap_or(0));
        let stats = run::run_model(&spec, |_, i, _, _| inputs.push(*i));
        let ports = inputs.iter().map(rtl::ports).collect();
        Recording {
            spec,
            inputs,
            ports,
            stats,
        }
    }

    /// The model's `step` over the recording, `repeat` times, reading the outputs a sender's loop
    /// reads (`dcqcn-net`'s senders, the cosim stimulus): the handshakes and the beat's tkeep and
    /// tlast, not its data. Returns a checksum of them.
    pub fn model(&self, repeat: u32) -> u64 {
        self.model_with(repeat, sender_outputs)
    }

    /// [`Self::model`] reading every output, the data beat and the bus included.
    pub fn model_all_outputs(&self, repeat: u32) -> u64 {
        self.model_with(repeat, |o| {
            sender_outputs(o)
                + o.m_axis_tdata.iter().fold(0u64, |a, w| a ^ w)
                + (u64::from(o.s_axil_awready) << 3)
                + (u64::from(o.s_axil_wready) << 4)
                + (u64::from(o.s_axil_bvalid) << 5)
                + (u64::from(o.s_axil_bresp) << 6)
                + (u64::from(o.s_axil_arready) << 8)
                + (u64::from(o.s_axil_rvalid) << 9)
                + (u64::from(o.s_axil_rresp) << 10)
                + (u64::from(o.s_axil_rdata) << 12)
        })
    }

    fn model_with(&self, repeat: u32, read: impl Fn(&Outputs) -> u64) -> u64 {
        let mut m = RateLimiter::new(self.spec.params);
        let mut acc = 0u64;
        for _ in 0..repeat {
            for i in &self.inputs {
                acc = acc.wrapping_add(read(&m.step(i)));
            }
        }
        acc ^ u64::from(m.state().rc)
    }

    /// The RTL over the recording in the bridge's bare C++ loop (no call into Rust per cycle),
    /// `repeat` times: a checksum of its outputs.
    pub fn bare(&self, repeat: u32) -> Result<u64, CosimError> {
        Ok(Rtl::new(&self.spec.variant)?.run_bare(&self.ports, repeat))
    }

    /// The lockstep's per-cycle work over the recording, `repeat` times: the model's step, the
    /// RTL's cycle and the comparison of every field of the two records. Returns the number of
    /// cycles that differ.
    pub fn lockstep(&self, repeat: u32) -> Result<u64, CosimError> {
        let mut m = RateLimiter::new(self.spec.params);
        let mut r = Rtl::new(&self.spec.variant)?;
        let mut differ = 0u64;
        for _ in 0..repeat {
            for i in &self.inputs {
                let out = m.step(i);
                let ms = m.snapshot(&out);
                r.cycle(i);
                differ += u64::from(!r.matches(&ms));
            }
        }
        Ok(differ)
    }
}

/// A checksum of the outputs a sender's loop reads: the handshakes, the beat's tkeep and tlast.
#[inline(always)]
fn sender_outputs(o: &Outputs) -> u64 {
    u64::from(o.s_axis_tready)
        + (u64::from(o.m_axis_tvalid) << 1)
        + (u64::from(o.m_axis_tlast) << 2)
        + o.m_axis_tkeep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rtl::{variants, Rtl};

    /// Copying a run of registers whole gives the same record, every field every cycle, as
    /// copying field by field, on every compiled variant; and every run is copied whole there
    /// (else the lockstep pays a load and a store per register).
    #[test]
    fn whole_runs_copy_what_field_by_field_copies() {
        let inputs = Recording::paper_table2(4096).inputs;
        for v in variants() {
            let mut whole = Rtl::new(&v.name).unwrap();
            let mut by_field = Rtl::new(&v.name).unwrap();
            assert_eq!(
                whole.copy_whole_runs(true),
                4,
                "{}: a run is not in one piece",
                v.name
            );
            assert_eq!(by_field.copy_whole_runs(false), 0, "{}", v.name);
            let mut changed = 0;
            let mut last = whole.snapshot();
            for (cycle, i) in inputs.iter().enumerate() {
                let (a, b) = (whole.step(i), by_field.step(i));
                // The records byte for byte (a flag's byte included), the differing fields named.
                assert!(
                    whole.sample() == by_field.sample(),
                    "{} cycle {cycle}: fields {:?} differ",
                    v.name,
                    a.diff(&b)
                );
                changed += usize::from(!a.diff(&last).is_empty());
                last = a;
            }
            assert!(
                changed > 100,
                "{}: the record changed in {changed} cycles",
                v.name
            );
        }
    }
}
