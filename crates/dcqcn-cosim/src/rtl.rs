//! The Verilated RTL as a stepper with the model's types: `Inputs` in, `Snapshot` out.

use crate::ffi::bridge::{self, PortsIn, Sample};
use crate::CosimError;
use dcqcn_model::{Inputs, Snapshot};

/// A compiled RTL variant (beat width or deliberate defect).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub data_bytes: u32,
    pub description: String,
}

/// Every variant compiled into this binary.
pub fn variants() -> Vec<Variant> {
    bridge::variants()
        .into_iter()
        .map(|v| Variant {
            name: v.name,
            data_bytes: v.data_bytes,
            description: v.description,
        })
        .collect()
}

/// Which description of the block a run verilates: the SystemVerilog (rtl/*.sv) or the VHDL twin
/// (rtl/vhdl/, through `ghdl --synth`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Hdl {
    #[default]
    Sv,
    Vhdl,
}

impl Hdl {
    /// The variant of this HDL for a beat width: `w8`, `w32`, `w64`; `vhdl-w8`, `vhdl-w32`, ...
    pub fn width_variant(self, data_bytes: u32) -> String {
        match self {
            Hdl::Sv => format!("w{data_bytes}"),
            Hdl::Vhdl => format!("vhdl-w{data_bytes}"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Hdl::Sv => "sv",
            Hdl::Vhdl => "vhdl",
        }
    }
}

/// The SystemVerilog variant for a beat width: `w8`, `w32`, `w64`.
pub fn width_variant(data_bytes: u32) -> String {
    Hdl::Sv.width_variant(data_bytes)
}

/// One Verilated instance.
pub struct Rtl {
    dut: cxx::UniquePtr<bridge::Dut>,
    variant: Variant,
    sample: Sample,
}

impl Rtl {
    /// A variant with every register starting at 0.
    pub fn new(variant: &str) -> Result<Rtl, CosimError> {
        Self::with_init(variant, 0)
    }

    /// A variant whose registers start at random values drawn from `init_seed` (0: all zero). The
    /// reset must bring every register to its spec value; the lockstep checks it.
    pub fn with_init(variant: &str, init_seed: u64) -> Result<Rtl, CosimError> {
        let info = variants()
            .into_iter()
            .find(|v| v.name == variant)
            .ok_or_else(|| CosimError::UnknownVariant {
                name: variant.to_string(),
                known: variants().into_iter().map(|v| v.name).collect(),
            })?;
        let dut = bridge::new_dut(variant, init_seed)
            .map_err(|e| CosimError::Verilator(e.what().to_string()))?;
        Ok(Rtl {
            dut,
            variant: info,
            sample: Sample::default(),
        })
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// One clock cycle.
    #[inline]
    pub fn step(&mut self, i: &Inputs) -> Snapshot {
        let p = ports(i);
        self.dut.pin_mut().step(&p, &mut self.sample);
        from_sample(&self.sample)
    }

    /// The bare C++ loop over pre-built inputs (benchmark only).
    pub fn run_bare(&mut self, inputs: &[PortsIn], repeat: u32) -> u64 {
        self.dut.pin_mut().run_bare(inputs, repeat)
    }
}

/// Model inputs as bridge ports.
#[inline]
pub fn ports(i: &Inputs) -> PortsIn {
    PortsIn {
        rst: i.rst,
        cnp: i.cnp,
        s_axis_tdata: i.s_axis.tdata,
        s_axis_tkeep: i.s_axis.tkeep,
        s_axis_tvalid: i.s_axis.tvalid,
        s_axis_tlast: i.s_axis.tlast,
        m_axis_tready: i.m_axis_tready,
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

#[inline]
fn from_sample(s: &Sample) -> Snapshot {
    Snapshot {
        s_axis_tready: s.s_axis_tready,
        m_axis_tvalid: s.m_axis_tvalid,
        m_axis_tdata: s.m_axis_tdata,
        m_axis_tkeep: s.m_axis_tkeep,
        m_axis_tlast: s.m_axis_tlast,
        s_axil_awready: s.s_axil_awready,
        s_axil_wready: s.s_axil_wready,
        s_axil_bvalid: s.s_axil_bvalid,
        s_axil_bresp: s.s_axil_bresp,
        s_axil_arready: s.s_axil_arready,
        s_axil_rvalid: s.s_axil_rvalid,
        s_axil_rdata: s.s_axil_rdata,
        s_axil_rresp: s.s_axil_rresp,
        cnp_meta: s.cnp_meta,
        cnp_sync: s.cnp_sync,
        cnp_prev: s.cnp_prev,
        rc: s.rc,
        rt: s.rt,
        active: s.active,
        alpha: s.alpha,
        alpha_timer: s.alpha_timer,
        alpha_pending: s.alpha_pending,
        dec_timer: s.dec_timer,
        dec_pending: s.dec_pending,
        inc_timer: s.inc_timer,
        byte_cnt: s.byte_cnt,
        t_stage: s.t_stage,
        b_stage: s.b_stage,
        bpc: s.bpc,
        credit: s.credit,
        cfg_alpha_g: s.cfg_alpha_g,
        cfg_dec_gain: s.cfg_dec_gain,
        cfg_stage_threshold: s.cfg_stage_threshold,
        cfg_clamp_tgt: s.cfg_clamp_tgt,
        cfg_rai: s.cfg_rai,
        cfg_rhai: s.cfg_rhai,
        cfg_rmin: s.cfg_rmin,
        cfg_inc_interval: s.cfg_inc_interval,
        cfg_dec_interval: s.cfg_dec_interval,
        cfg_alpha_interval: s.cfg_alpha_interval,
        cfg_bypass: s.cfg_bypass,
        cfg_timer_en: s.cfg_timer_en,
        cfg_byte_en: s.cfg_byte_en,
        cfg_byte_threshold: s.cfg_byte_threshold,
        cfg_credit_cap: s.cfg_credit_cap,
        cnp_cnt16: s.cnp_cnt16,
        cnt_cnp: s.cnt_cnp,
        cnt_dec: s.cnt_dec,
        cnt_inc_fr: s.cnt_inc_fr,
        cnt_inc_ai: s.cnt_inc_ai,
        cnt_inc_hai: s.cnt_inc_hai,
        cnt_inc_timer: s.cnt_inc_timer,
        cnt_inc_byte: s.cnt_inc_byte,
        cnt_stall: s.cnt_stall,
        cnt_bytes: s.cnt_bytes,
        bytes_hi: s.bytes_hi,
    }
}
