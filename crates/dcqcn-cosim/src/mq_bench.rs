//! The multi-QP block's harnesses for `make bench` (issue 29: lockstep speed at QPS 1024 against
//! bare Verilator of the same RTL), on one recorded stimulus, as [`crate::bench`] does for
//! `dcqcn_rl`: the model alone, the Verilated `dcqcn_mq_core` driven with no model and no
//! observation read (bare), and the lockstep's per-cycle work (model, RTL, every output, state
//! field, bitmap bit and memory write compared, spec-mq 8). Recording the stimulus first keeps
//! its generation (the closed-loop send queues of [`MqBench`]) out of every figure.
//!
//! The bare harness calls the bridge once per input set, evaluation, output read and edge; at
//! QPS 1024 one evaluation costs tens of microseconds, so the call overhead (nanoseconds) is
//! below the noise, and no C++ loop of its own is needed.
//!
//! The decision rate ([`decision_rate`]) is the model's: grants per cycle under full load, which
//! the RTL equals cycle for cycle (the lockstep).

use crate::mq_lockstep::obs_matches;
use crate::mq_rtl::MqRtl;
use crate::CosimError;
use dcqcn_model::mq::{MqBlock, MqInputs, MqObs, MqOutputs, MqParams};
use dcqcn_stim::mq::{self as scenarios, MqBench, MqBenchStats, MqStimulus};
use dcqcn_stim::variant::Hdl;

/// A recorded stimulus of the multi-QP block.
pub struct MqRecording {
    pub scenario: &'static str,
    pub qps: u32,
    pub inputs: Vec<MqInputs>,
    /// What the send queues drove while recording.
    pub stats: MqBenchStats,
}

impl MqRecording {
    /// The first `cycles` cycles of scenario `name` at `qps`, seed 1, closed loop on the model.
    pub fn scenario(name: &str, qps: u32, cycles: u64) -> Result<MqRecording, CosimError> {
        let sc = scenarios::by_name(name).ok_or_else(|| {
            CosimError::Verilator(format!("no multi-QP scenario `{name}` (bench recording)"))
        })?;
        let params = model_params(qps)?;
        let mut model = MqBlock::new(params);
        let mut bench = MqBench::new(&(sc.stimulus)(qps), qps, 1);
        let mut out = MqOutputs::default();
        let inputs = (0..cycles)
            .map(|_| {
                let i = bench.next(&out);
                out = model.step(&i);
                i
            })
            .collect();
        Ok(MqRecording {
            scenario: sc.name,
            qps,
            inputs,
            stats: bench.stats(),
        })
    }

    pub fn cycles(&self) -> u64 {
        self.inputs.len() as u64
    }

    /// The model over the recording: a checksum of the grants.
    pub fn model(&self) -> Result<u64, CosimError> {
        let mut m = MqBlock::new(model_params(self.qps)?);
        Ok(self
            .inputs
            .iter()
            .fold(0u64, |acc, i| fold(acc, &m.step(i))))
    }

    /// The RTL of `hdl` over the recording, with no model and no observation port read: a
    /// checksum of the grants.
    pub fn bare(&self, hdl: Hdl) -> Result<u64, CosimError> {
        let mut r = MqRtl::new(hdl, self.qps)?;
        let mut acc = 0;
        for i in &self.inputs {
            acc = fold(acc, &r.drive(i));
            r.edge();
        }
        Ok(acc)
    }

    /// The lockstep's per-cycle work over the recording on `hdl`: the number of cycles (from
    /// cycle 1 on, as the lockstep compares) whose outputs or observed state differ.
    pub fn lockstep(&self, hdl: Hdl) -> Result<u64, CosimError> {
        let mut m = MqBlock::new(model_params(self.qps)?);
        let mut r = MqRtl::new(hdl, self.qps)?;
        let mut differ = 0;
        let mut mobs = MqObs::default();
        for (cycle, i) in self.inputs.iter().enumerate() {
            let mo = m.step_obs_into(i, &mut mobs);
            r.sample(i);
            if cycle > 0 && (r.outputs() != mo || !obs_matches(self.qps, &mobs, r.obs(), true)) {
                differ += 1;
            }
            r.edge();
        }
        Ok(differ)
    }
}

fn model_params(qps: u32) -> Result<MqParams, CosimError> {
    MqParams::with_qps(qps).map_err(|e| CosimError::Verilator(format!("model parameters: {e}")))
}

#[inline]
fn fold(acc: u64, o: &MqOutputs) -> u64 {
    acc.rotate_left(5) ^ u64::from(o.m_grant_valid) ^ (u64::from(o.m_grant_qp) << 1)
}

/// The decision rate under full load: every QP keeps a request posted (a new one 1 cycle after
/// each grant), no CNP, and with `limits` false the enables word is 0 (no rate throttle, no
/// outstanding limit, no port speed limiter: only the picker decides), with `limits` true the
/// reset enables (the port's speed limiter holds the grants to the line rate). Returns (grants,
/// cycles after the init round).
pub fn decision_rate(qps: u32, cycles: u64, limits: bool) -> Result<(u64, u64), CosimError> {
    let params = model_params(qps)?;
    let mut s = MqStimulus {
        post_delay: (1, 1),
        unit_bytes: (64, 64),
        ..MqStimulus::busy(qps)
    };
    if !limits {
        s.setup.push((dcqcn_model::mq::regmap::ENABLES, 0));
    }
    let mut model = MqBlock::new(params);
    let mut bench = MqBench::new(&s, qps, 1);
    let mut out = MqOutputs::default();
    let (mut grants, mut counted) = (0, 0);
    // the reset cycle, the init round (QPS visits), the setup writes and the first visits that
    // wake the QPs come first: 2 QPS + 256 cycles, then `cycles` counted
    let start = 2 * u64::from(qps) + 256;
    for t in 0..cycles + start {
        let i = bench.next(&out);
        out = model.step(&i);
        if t >= start {
            counted += 1;
            grants += u64::from(out.m_grant_valid);
        }
    }
    Ok((grants, counted))
}
