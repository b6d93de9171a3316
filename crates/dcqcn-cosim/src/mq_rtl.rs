//! The Verilated multi-QP block `dcqcn_mq_core` (docs/spec-mq.md, in the lockstep wrapper
//! verilator/dcqcn_mq_cosim_top.sv) with the model's port types: `MqInputs` in, `MqOutputs` and
//! the three observation ports (32-bit words) out; state injection ([`MqRtl::inject`]) and whole
//! memory dumps ([`MqRtl::memories`]) between two clock edges (spec-mq 8.2, 8.3).

use crate::mq_ffi::bridge::{self, MqPortsIn, MqPortsOut};
use crate::CosimError;
use dcqcn_model::mq::mem::DFX_ENTRIES;
use dcqcn_model::mq::{mem_copies, MqInitial, MqInputs, MqObs, MqOutputs};
use dcqcn_stim::variant::Hdl;

/// A compiled variant of `dcqcn_mq_core`: `mq-q<QPS>` (rtl/mq/) or `mq-vhdl-q<QPS>` (rtl/vhdl/mq/
/// through ghdl --synth), at the default clock and line rate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MqVariant {
    pub name: String,
    pub hdl: Hdl,
    pub qps: u32,
    pub clk_hz: u32,
    pub line_rate: u32,
}

impl MqVariant {
    /// A deliberately defective copy (`mut_<name>`, feature `mutants`: verilator/mutants/mq/ or a
    /// campaign of scripts/mutants.py), chosen by name only, never as the variant of an HDL and QPS.
    pub fn is_mutant(&self) -> bool {
        self.name.starts_with("mut_")
    }
}

/// Every multi-QP variant compiled into this binary (none until rtl/mq/ or rtl/vhdl/mq/ exists),
/// the correct ones first, then the mutants.
pub fn mq_variants() -> Vec<MqVariant> {
    bridge::mq_variants()
        .into_iter()
        .map(|v| MqVariant {
            name: v.name,
            hdl: if v.vhdl { Hdl::Vhdl } else { Hdl::Sv },
            qps: v.qps,
            clk_hz: v.clk_hz,
            line_rate: v.line_rate,
        })
        .collect()
}

/// The observation ports of one cycle as the HDL drives them (spec-mq 8.1, 8.2; layout in
/// `dcqcn_model::mq::obs`): 32-bit little-endian words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObsWords {
    pub state: Vec<u32>,
    pub bitmaps: Vec<u32>,
    pub writes: Vec<u32>,
}

/// One Verilated instance of `dcqcn_mq_core`.
pub struct MqRtl {
    dut: cxx::UniquePtr<bridge::MqDut>,
    variant: MqVariant,
    out: MqPortsOut,
    obs: ObsWords,
}

impl MqRtl {
    /// The (correct) variant of `hdl` at `qps`.
    pub fn new(hdl: Hdl, qps: u32) -> Result<MqRtl, CosimError> {
        let variant = mq_variants()
            .into_iter()
            .find(|v| v.hdl == hdl && v.qps == qps && !v.is_mutant())
            .ok_or_else(|| CosimError::UnknownVariant {
                name: format!("{} QPS {qps}", hdl.name()),
                known: mq_variants().into_iter().map(|v| v.name).collect(),
            })?;
        let dut = bridge::new_mq_dut(hdl == Hdl::Vhdl, qps)
            .map_err(|e| CosimError::Verilator(e.what().to_string()))?;
        Ok(MqRtl {
            dut,
            variant,
            out: MqPortsOut::default(),
            obs: ObsWords::default(),
        })
    }

    /// The variant called `name` (`mq-q4`, `mut_mq_rpt_bytes_in_init`...).
    pub fn named(name: &str) -> Result<MqRtl, CosimError> {
        let variant = mq_variants()
            .into_iter()
            .find(|v| v.name == name)
            .ok_or_else(|| CosimError::UnknownVariant {
                name: name.to_string(),
                known: mq_variants().into_iter().map(|v| v.name).collect(),
            })?;
        let dut = bridge::new_mq_dut_named(name)
            .map_err(|e| CosimError::Verilator(e.what().to_string()))?;
        Ok(MqRtl {
            dut,
            variant,
            out: MqPortsOut::default(),
            obs: ObsWords::default(),
        })
    }

    pub fn variant(&self) -> &MqVariant {
        &self.variant
    }

    /// Cycle t before its edge: applies `i`, evaluates, and samples the outputs and the
    /// observation ports (S(t) and the writes of t).
    #[inline]
    pub fn sample(&mut self, i: &MqInputs) {
        let mut d = self.dut.pin_mut();
        d.as_mut().set_inputs(&ports(i));
        d.as_mut().eval();
        self.dut.outputs(&mut self.out);
        self.dut.obs_state(&mut self.obs.state);
        self.dut.obs_bitmaps(&mut self.obs.bitmaps);
        self.dut.obs_writes(&mut self.obs.writes);
    }

    /// Cycle t before its edge with nothing observed: applies `i`, evaluates, and returns the
    /// outputs (the bare-Verilator harness of `make bench`, mq_bench.rs).
    #[inline]
    pub fn drive(&mut self, i: &MqInputs) -> MqOutputs {
        let mut d = self.dut.pin_mut();
        d.as_mut().set_inputs(&ports(i));
        d.as_mut().eval();
        self.dut.outputs(&mut self.out);
        self.outputs()
    }

    /// The rising edge that closes the cycle.
    #[inline]
    pub fn edge(&mut self) {
        self.dut.pin_mut().clock_edge();
    }

    /// State injection (spec-mq 8.3), between two clock edges (after an [`MqRtl::edge`], before
    /// the next [`MqRtl::sample`]): every entry of every copy of every memory, then every
    /// register and bitmap bit, and each copy's read pipeline as if the copy had been read at
    /// its reader's QP of that state (spec-mq 4.8). `init` must be of this variant's QPS and
    /// fit its fields (`MqInitial::validate`); the wrapper keeps each value's low bits.
    pub fn inject(&mut self, init: &MqInitial) {
        let qps = self.variant.qps;
        for (k, c) in mem_copies().iter().enumerate() {
            for (i, v) in init.mems.entries(c.memory).into_iter().enumerate() {
                self.dut.pin_mut().write_mem(k as u32, i as u32, v);
            }
        }
        let obs = MqObs {
            state: init.state.fields().into_iter().map(|f| f.1).collect(),
            bitmaps: init.state.bitmaps.in_order().map(|b| b.0.clone()),
            writes: Default::default(),
        };
        let [state, bitmaps, _] = obs.pack(qps);
        self.dut.pin_mut().inject_state(&state, &bitmaps);
    }

    /// Every entry of every memory copy, in `mem_copies` order (spec-mq 8.2: whole memories,
    /// every copy), read between two clock edges.
    pub fn memories(&mut self) -> Vec<Vec<u64>> {
        let qps = self.variant.qps as usize;
        mem_copies()
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let depth = if c.reader.is_some() { qps } else { DFX_ENTRIES };
                (0..depth)
                    .map(|i| self.dut.pin_mut().read_mem(k as u32, i as u32))
                    .collect()
            })
            .collect()
    }

    /// Writes one entry of one memory copy only (`mem_copies` numbering), between two clock
    /// edges: for tests that plant a difference between the copies or against the model.
    pub fn write_mem_entry(&mut self, copy: usize, entry: usize, v: u64) {
        self.dut.pin_mut().write_mem(copy as u32, entry as u32, v);
    }

    /// The outputs of the last [`MqRtl::sample`].
    pub fn outputs(&self) -> MqOutputs {
        let o = &self.out;
        MqOutputs {
            m_grant_valid: o.m_grant_valid,
            m_grant_qp: o.m_grant_qp,
            m_grant_bytes: o.m_grant_bytes,
            s_axil_awready: o.s_axil_awready,
            s_axil_wready: o.s_axil_wready,
            s_axil_arready: o.s_axil_arready,
            s_axil_bvalid: o.s_axil_bvalid,
            s_axil_bresp: o.s_axil_bresp,
            s_axil_rvalid: o.s_axil_rvalid,
            s_axil_rdata: o.s_axil_rdata,
            s_axil_rresp: o.s_axil_rresp,
        }
    }

    /// The observation ports of the last [`MqRtl::sample`].
    pub fn obs(&self) -> &ObsWords {
        &self.obs
    }
}

/// Model inputs as bridge ports.
fn ports(i: &MqInputs) -> MqPortsIn {
    MqPortsIn {
        rst: i.rst,
        s_req_valid: i.req.valid,
        s_req_qp: i.req.qp,
        s_req_bytes: i.req.bytes,
        s_cnp_valid: i.cnp.valid,
        s_cnp_qp: i.cnp.qp,
        s_rpt_valid: i.rpt.valid,
        s_rpt_qp: i.rpt.qp,
        s_rpt_bytes: i.rpt.bytes,
        grant_pause: i.grant_pause,
        s_axil_awaddr: i.axil.awaddr,
        s_axil_awvalid: i.axil.awvalid,
        s_axil_wdata: i.axil.wdata,
        s_axil_wstrb: i.axil.wstrb,
        s_axil_wvalid: i.axil.wvalid,
        s_axil_bready: i.axil.bready,
        s_axil_araddr: i.axil.araddr,
        s_axil_arvalid: i.axil.arvalid,
        s_axil_rready: i.axil.rready,
    }
}
