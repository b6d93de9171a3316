//! The ports of `dcqcn_mq` for one clock cycle (spec-mq 3).

/// AXI4-Lite inputs; addresses are 21 bits (spec-mq 6.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MqAxilIn {
    pub awaddr: u32,
    pub awvalid: bool,
    pub wdata: u32,
    pub wstrb: u8,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u32,
    pub arvalid: bool,
    pub rready: bool,
}

/// Width of `s_axil_awaddr` and `s_axil_araddr`.
pub const MQ_AXIL_ADDR_BITS: u32 = 21;
/// Width of every QP field of the ports.
pub const QP_BITS: u32 = 12;

/// A QP-tagged event input: `valid`, `qp` (12 bits) and `bytes` (16 bits; unused for CNPs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpEvent {
    pub valid: bool,
    pub qp: u16,
    pub bytes: u16,
}

/// The port inputs of one clock cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MqInputs {
    pub rst: bool,
    /// `s_req_valid`, `s_req_qp`, `s_req_bytes`
    pub req: QpEvent,
    /// `s_cnp_valid`, `s_cnp_qp` (`bytes` unused, 0)
    pub cnp: QpEvent,
    /// `s_rpt_valid`, `s_rpt_qp`, `s_rpt_bytes`
    pub rpt: QpEvent,
    pub grant_pause: bool,
    pub axil: MqAxilIn,
}

/// The output ports of one cycle. The AXI ready outputs are combinational (of the registers at the
/// start of the cycle and the cycle's inputs); the others are registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MqOutputs {
    pub m_grant_valid: bool,
    pub m_grant_qp: u16,
    pub m_grant_bytes: u16,
    pub s_axil_awready: bool,
    pub s_axil_wready: bool,
    pub s_axil_arready: bool,
    pub s_axil_bvalid: bool,
    pub s_axil_bresp: u8,
    pub s_axil_rvalid: bool,
    pub s_axil_rdata: u32,
    pub s_axil_rresp: u8,
}
