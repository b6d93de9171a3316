//! The cxx bridge to the Verilated RTL: one call per clock cycle, struct in, struct out.
//!
//! `PortsIn` carries the port inputs of spec 3; `Sample` the outputs of the cycle and every
//! register of spec 7 after its clock edge, with the same names as `dcqcn_model::Snapshot`.

#[cxx::bridge(namespace = "dcqcn")]
pub mod bridge {
    /// Port inputs of one cycle.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        rst: bool,
        cnp: bool,
        s_axis_tdata: [u64; 8],
        s_axis_tkeep: u64,
        s_axis_tvalid: bool,
        s_axis_tlast: bool,
        m_axis_tready: bool,
        s_axil_awaddr: u16,
        s_axil_awvalid: bool,
        s_axil_wdata: u32,
        s_axil_wstrb: u8,
        s_axil_wvalid: bool,
        s_axil_bready: bool,
        s_axil_araddr: u16,
        s_axil_arvalid: bool,
        s_axil_rready: bool,
    }

    /// Outputs of a cycle (before the edge) and registers after the edge.
    #[derive(Clone, Copy, Debug, Default)]
    struct Sample {
        s_axis_tready: bool,
        m_axis_tvalid: bool,
        m_axis_tdata: [u64; 8],
        m_axis_tkeep: u64,
        m_axis_tlast: bool,
        s_axil_awready: bool,
        s_axil_wready: bool,
        s_axil_bvalid: bool,
        s_axil_bresp: u8,
        s_axil_arready: bool,
        s_axil_rvalid: bool,
        s_axil_rdata: u32,
        s_axil_rresp: u8,
        cnp_meta: bool,
        cnp_sync: bool,
        cnp_prev: bool,
        rc: u32,
        rt: u32,
        active: bool,
        alpha: u16,
        alpha_timer: u16,
        alpha_pending: bool,
        dec_timer: u16,
        dec_pending: bool,
        inc_timer: u32,
        byte_cnt: u32,
        t_stage: u8,
        b_stage: u8,
        bpc: u32,
        credit: u64,
        cfg_alpha_g: u16,
        cfg_dec_gain: u8,
        cfg_stage_threshold: u8,
        cfg_clamp_tgt: bool,
        cfg_rai: u32,
        cfg_rhai: u32,
        cfg_rmin: u32,
        cfg_inc_interval: u32,
        cfg_dec_interval: u16,
        cfg_alpha_interval: u16,
        cfg_bypass: bool,
        cfg_timer_en: bool,
        cfg_byte_en: bool,
        cfg_byte_threshold: u32,
        cfg_credit_cap: u32,
        cnp_cnt16: u16,
        cnt_cnp: u32,
        cnt_dec: u32,
        cnt_inc_fr: u32,
        cnt_inc_ai: u32,
        cnt_inc_hai: u32,
        cnt_inc_timer: u32,
        cnt_inc_byte: u32,
        cnt_stall: u32,
        cnt_bytes: u64,
        bytes_hi: u32,
        cfg_rmax: u32,
        cfg_rate_first_cnp: u32,
        cfg_alpha_init: u16,
        cfg_min_dec_fac: u16,
        cfg_hai_mult: bool,
        cfg_scheme: u8,
        cfg_gate_mask: bool,
        cfg_fw_rate: u32,
        cfg_trace_en: bool,
        cfg_trace_wrap: bool,
        cfg_trace_sel: u8,
        trace_count: u8,
        trace_wptr: u8,
        trace_lost: bool,
        trace_time: u32,
        trace_n_dec: u16,
        trace_n_byte: u16,
        trace_n_timer: u16,
        trace_last_type: u8,
        trace_last_rc: u32,
        trace_last_stamp: u32,
    }

    /// One entry of the event trace's storage `trace_mem` (spec 4.10), loaded by `inject` only
    /// (not part of the per-cycle `Sample`).
    #[derive(Clone, Copy, Debug, Default)]
    struct TraceSlot {
        /// `type` in bits [2:0], `both` in bit 3.
        kind: u8,
        rc: u32,
        stamp: u32,
    }

    /// A compiled RTL variant.
    struct VariantInfo {
        name: String,
        data_bytes: u32,
        clk_hz: u32,
        line_rate: u32,
        description: String,
    }

    unsafe extern "C++" {
        include!("dcqcn-cosim/shim/dcqcn_shim.h");

        /// One Verilated instance of `dcqcn_cosim_top`.
        type Dut;

        /// Instantiates a compiled variant by name (see `variants()`); errors on an unknown name.
        /// `init_seed` 0 starts every register at 0; any other value gives each register a random
        /// initial value from that seed (so a register missing from the reset shows up).
        fn new_dut(variant: &str, init_seed: u64) -> Result<UniquePtr<Dut>>;
        /// Every variant compiled into this binary.
        fn variants() -> Vec<VariantInfo>;
        /// One clock cycle: apply `inp`, evaluate, sample outputs, clock edge, sample registers.
        fn step(self: Pin<&mut Dut>, inp: &PortsIn, out: &mut Sample);
        /// Loads every register of spec 7 from `state` (the registered outputs from their port
        /// fields; the combinational ones are ignored; the trace's most recent entry is not read)
        /// and the 64 entries of `trace_mem` from `trace_mem` (fewer: the rest 0), between two
        /// cycles (spec 4.8).
        fn inject(self: Pin<&mut Dut>, state: &Sample, trace_mem: &[TraceSlot]);
        /// Bare C++ loop over `inputs` (no per-cycle call into Rust), for the benchmark. Returns a
        /// checksum of the outputs so the work cannot be optimised away.
        fn run_bare(self: Pin<&mut Dut>, inputs: &[PortsIn], repeat: u32) -> u64;
    }
}

// The bridge is plain data; let the rest of the crate use it as such.
unsafe impl Send for bridge::Dut {}
