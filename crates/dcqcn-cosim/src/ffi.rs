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
    ///
    /// Generated from the snapshot! list (`make gen`). The registers come in four runs by width
    /// (8, 16, 32, 64 bits), each in the order the cosim wrapper declares its `st_` ports
    /// (`verilator/dcqcn_cosim_top.sv`, generated from the same list), one-bit registers
    /// as bytes (0 or 1, as the Verilated model stores them): Verilator lays a module's ports of
    /// one width out in declaration order, so the shim copies a run whole where the Verilated
    /// instance has it in one piece (it checks that once per instance, `dcqcn_shim.cpp`).
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    struct Sample {
        // BEGIN GENERATED sample: `make gen` from the snapshot! list; do not edit
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
        // 8-bit registers
        cnp_meta: u8,
        cnp_sync: u8,
        cnp_prev: u8,
        active: u8,
        alpha_pending: u8,
        dec_pending: u8,
        t_stage: u8,
        b_stage: u8,
        cfg_dec_gain: u8,
        cfg_stage_threshold: u8,
        cfg_clamp_tgt: u8,
        cfg_bypass: u8,
        cfg_timer_en: u8,
        cfg_byte_en: u8,
        cfg_hai_mult: u8,
        cfg_scheme: u8,
        cfg_gate_mask: u8,
        cfg_trace_en: u8,
        cfg_trace_wrap: u8,
        cfg_trace_sel: u8,
        trace_count: u8,
        trace_wptr: u8,
        trace_lost: u8,
        trace_last_type: u8,
        // 16-bit registers
        alpha: u16,
        alpha_timer: u16,
        dec_timer: u16,
        cfg_alpha_g: u16,
        cfg_dec_interval: u16,
        cfg_alpha_interval: u16,
        cnp_cnt16: u16,
        cfg_alpha_init: u16,
        cfg_min_dec_fac: u16,
        trace_n_dec: u16,
        trace_n_byte: u16,
        trace_n_timer: u16,
        // 32-bit registers
        rc: u32,
        rt: u32,
        inc_timer: u32,
        byte_cnt: u32,
        bpc: u32,
        cfg_rai: u32,
        cfg_rhai: u32,
        cfg_rmin: u32,
        cfg_inc_interval: u32,
        cfg_byte_threshold: u32,
        cfg_credit_cap: u32,
        cnt_cnp: u32,
        cnt_dec: u32,
        cnt_inc_fr: u32,
        cnt_inc_ai: u32,
        cnt_inc_hai: u32,
        cnt_inc_timer: u32,
        cnt_inc_byte: u32,
        cnt_stall: u32,
        bytes_hi: u32,
        cfg_rmax: u32,
        cfg_rate_first_cnp: u32,
        cfg_fw_rate: u32,
        trace_time: u32,
        trace_last_rc: u32,
        trace_last_stamp: u32,
        // 64-bit registers
        credit: u64,
        cnt_bytes: u64,
        // END GENERATED sample
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
        /// The features it was built with (spec 2).
        rate_rules: bool,
        control: bool,
        trace_depth: u32,
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
        /// Whether `step` may copy a run of registers whole (see `Sample`) where the instance
        /// holds it in one piece (the default), or copies every register field by field; returns
        /// how many of the four runs it now copies whole.
        fn copy_whole_runs(self: Pin<&mut Dut>, allow: bool) -> u32;
    }
}

// The bridge is plain data; let the rest of the crate use it as such.
unsafe impl Send for bridge::Dut {}
