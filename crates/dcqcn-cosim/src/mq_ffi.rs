//! The cxx bridge to the Verilated multi-QP block `dcqcn_mq_core` (docs/spec-mq.md): set the port
//! inputs, evaluate, read the outputs and the three observation ports, clock one edge.

#[cxx::bridge(namespace = "dcqcn::mq")]
pub mod bridge {
    /// The port inputs of one cycle (spec-mq 3).
    #[derive(Clone, Copy, Debug, Default)]
    struct MqPortsIn {
        rst: bool,
        s_req_valid: bool,
        s_req_qp: u16,
        s_req_bytes: u16,
        s_cnp_valid: bool,
        s_cnp_qp: u16,
        s_rpt_valid: bool,
        s_rpt_qp: u16,
        s_rpt_bytes: u16,
        grant_pause: bool,
        s_axil_awaddr: u32,
        s_axil_awvalid: bool,
        s_axil_wdata: u32,
        s_axil_wstrb: u8,
        s_axil_wvalid: bool,
        s_axil_bready: bool,
        s_axil_araddr: u32,
        s_axil_arvalid: bool,
        s_axil_rready: bool,
    }

    /// The output ports of one cycle (spec-mq 3), sampled before the edge.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct MqPortsOut {
        m_grant_valid: bool,
        m_grant_qp: u16,
        m_grant_bytes: u16,
        s_axil_awready: bool,
        s_axil_wready: bool,
        s_axil_arready: bool,
        s_axil_bvalid: bool,
        s_axil_bresp: u8,
        s_axil_rvalid: bool,
        s_axil_rdata: u32,
        s_axil_rresp: u8,
    }

    /// A compiled variant of `dcqcn_mq_core`.
    struct MqVariantInfo {
        name: String,
        /// The VHDL twin through ghdl --synth (else the SystemVerilog).
        vhdl: bool,
        qps: u32,
        clk_hz: u32,
        line_rate: u32,
    }

    unsafe extern "C++" {
        include!("dcqcn-cosim/shim/dcqcn_mq_shim.h");

        /// One Verilated instance of `dcqcn_mq_core`; its registers and memories start at 0.
        type MqDut;

        /// The variant of the VHDL twin (`vhdl`) or of the SystemVerilog at `qps`; errors when it
        /// is not built.
        fn new_mq_dut(vhdl: bool, qps: u32) -> Result<UniquePtr<MqDut>>;
        /// The variant named `name` (a mutant `mut_<name>` too); errors when it is not built.
        fn new_mq_dut_named(name: &str) -> Result<UniquePtr<MqDut>>;
        /// Every variant compiled into this binary.
        fn mq_variants() -> Vec<MqVariantInfo>;
        /// Sets the input ports (clk untouched).
        fn set_inputs(self: Pin<&mut MqDut>, inp: &MqPortsIn);
        /// Evaluates with clk low: outputs and observation ports of the cycle.
        fn eval(self: Pin<&mut MqDut>);
        fn outputs(self: &MqDut, out: &mut MqPortsOut);
        /// `obs_state` as 32-bit little-endian words (replaces the vector's contents).
        fn obs_state(self: &MqDut, words: &mut Vec<u32>);
        /// `obs_bitmaps` as 32-bit little-endian words.
        fn obs_bitmaps(self: &MqDut, words: &mut Vec<u32>);
        /// `obs_writes` as 32-bit little-endian words.
        fn obs_writes(self: &MqDut, words: &mut Vec<u32>);
        /// The rising edge of clk.
        fn clock_edge(self: Pin<&mut MqDut>);
        /// State injection (spec-mq 8.3), between two edges: every register of `obs_state` and
        /// every bitmap bit from words in the layout of `obs_state` and `obs_bitmaps`, and each
        /// memory copy's read pipeline as if read at its reader's QP (load the memories first).
        fn inject_state(self: Pin<&mut MqDut>, state: &[u32], bitmaps: &[u32]);
        /// Entry `addr` of memory copy `copy` (`dcqcn_model::mq::mem_copies` numbering) := `data`.
        fn write_mem(self: Pin<&mut MqDut>, copy: u32, addr: u32, data: u64);
        /// Entry `addr` of memory copy `copy`.
        fn read_mem(self: Pin<&mut MqDut>, copy: u32, addr: u32) -> u64;
    }
}

// The bridge is plain data; let the rest of the crate use it as such.
unsafe impl Send for bridge::MqDut {}
