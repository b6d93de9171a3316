"""Typed dictionaries of the model's ports, registers and events; tests/test_model.py holds their keys
equal to the module's INPUTS, OUTPUTS, REGISTERS and the configuration fields."""

from typing import Optional, TypedDict

__all__ = ["Inputs", "Outputs", "State", "Config", "Events"]


class Inputs(TypedDict, total=False):
    """Input ports of one cycle (spec 3); a missing port is 0. `s_axis_tdata` is an int of 8 x data_bytes bits."""

    rst: int
    cnp: int
    s_axis_tdata: int
    s_axis_tkeep: int
    s_axis_tvalid: int
    s_axis_tlast: int
    m_axis_tready: int
    s_axil_awaddr: int
    s_axil_awvalid: int
    s_axil_wdata: int
    s_axil_wstrb: int
    s_axil_wvalid: int
    s_axil_bready: int
    s_axil_araddr: int
    s_axil_arvalid: int
    s_axil_rready: int


class Outputs(TypedDict):
    """Output ports of one cycle (spec 3), before the clock edge."""

    s_axis_tready: int
    m_axis_tvalid: int
    m_axis_tdata: int
    m_axis_tkeep: int
    m_axis_tlast: int
    s_axil_awready: int
    s_axil_wready: int
    s_axil_bvalid: int
    s_axil_bresp: int
    s_axil_arready: int
    s_axil_rvalid: int
    s_axil_rdata: int
    s_axil_rresp: int


class State(TypedDict):
    """Every register of spec 7 after the clock edge, by its spec name (`m_data`: an int of 8 x data_bytes bits)."""

    # BEGIN GENERATED state: `make gen` from the snapshot! list; do not edit
    cnp_meta: int
    cnp_sync: int
    cnp_prev: int
    rc: int
    rt: int
    active: int
    alpha: int
    alpha_timer: int
    alpha_pending: int
    dec_timer: int
    dec_pending: int
    inc_timer: int
    byte_cnt: int
    t_stage: int
    b_stage: int
    bpc: int
    credit: int
    cfg_alpha_g: int
    cfg_dec_gain: int
    cfg_stage_threshold: int
    cfg_clamp_tgt: int
    cfg_rai: int
    cfg_rhai: int
    cfg_rmin: int
    cfg_inc_interval: int
    cfg_dec_interval: int
    cfg_alpha_interval: int
    cfg_bypass: int
    cfg_timer_en: int
    cfg_byte_en: int
    cfg_byte_threshold: int
    cfg_credit_cap: int
    cnp_cnt16: int
    cnt_cnp: int
    cnt_dec: int
    cnt_inc_fr: int
    cnt_inc_ai: int
    cnt_inc_hai: int
    cnt_inc_timer: int
    cnt_inc_byte: int
    cnt_stall: int
    cnt_bytes: int
    bytes_hi: int
    cfg_rmax: int
    cfg_rate_first_cnp: int
    cfg_alpha_init: int
    cfg_min_dec_fac: int
    cfg_hai_mult: int
    cfg_scheme: int
    cfg_gate_mask: int
    cfg_fw_rate: int
    cfg_trace_en: int
    cfg_trace_wrap: int
    cfg_trace_sel: int
    trace_count: int
    trace_wptr: int
    trace_lost: int
    trace_time: int
    trace_n_dec: int
    trace_n_byte: int
    trace_n_timer: int
    trace_last_type: int
    trace_last_rc: int
    trace_last_stamp: int
    # END GENERATED state
    m_valid: int
    m_data: int
    m_keep: int
    m_last: int
    bvalid: int
    bresp: int
    rvalid: int
    rdata: int
    rresp: int


class Config(TypedDict):
    """The configuration registers of spec 6.2 in register units (bytes/s, cycles, raw codes)."""

    # BEGIN GENERATED config: `make gen` from the snapshot! list and regmap/dcqcn_regs.rdl; do not edit
    alpha_g: int
    dec_gain: int
    stage_threshold: int
    clamp_tgt: int
    rai: int
    rhai: int
    rmin: int
    inc_interval: int
    dec_interval: int
    alpha_interval: int
    bypass: int
    timer_en: int
    byte_en: int
    byte_threshold: int
    credit_cap: int
    rmax: int
    rate_first_cnp: int
    alpha_init: int
    min_dec_fac: int
    hai_mult: int
    scheme: int
    gate_mask: int
    fw_rate: int
    trace_en: int
    trace_wrap: int
    trace_sel: int
    # END GENERATED config


class Events(TypedDict):
    """The internal events of the last cycle (not architectural state); `inc_phase`: None or fast_recovery / additive / hyper."""

    cnp_edge: bool
    dec_fire: bool
    alpha_fire: bool
    timer_fire: bool
    byte_fire: bool
    inc_phase: Optional[str]
    load: bool
    bytes_in: int
    stall: bool
