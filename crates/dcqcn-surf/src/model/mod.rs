//! A second, separate model: the upstream SURF block `RoCEv2Dcqcn` as its cocotb wrapper
//! `RoCEv2DcqcnWrapper` deploys it (32-byte beats, one clock, synchronous active-high reset),
//! bit-exact at the wrapper's ports. It shares nothing with our block's model but the port types,
//! so the lockstep, the reports and the waveform writers take it unchanged. Where upstream differs
//! from our block, `docs/surf-upstream.md` lists the difference with a reproducer.
//!
//! Module by module (every upstream register is a field here; upstream outputs are all registers,
//! so each block's combinational part is a read of its registers and its `next` is the clock edge):
//!
//! - `sync.rs`: the `cnp` pin's two-flop synchroniser and registered edge detector (`cnpRe` three
//!   cycles after the pin), the counter-reset edge detector and the 16-bit CNP counter;
//! - `overseer.rs`: the block's own register record: configuration, `Rc`, `Rt`, alpha, the CNP
//!   flags, the sticky enables, `incReset`, the overseer state, the AXI4-Lite response registers;
//! - `rate_dec.rs`, `alpha.rs`, `rate_inc.rs`: the three timer processes (periods `Nd + 3`,
//!   `Na + 2`, `Ni + 3`);
//! - `axil.rs`: the wrapper's AXI4-Lite shim (strobes forced to 0xF) and the register endpoint;
//! - `datapath.rs`: the token bucket and the store-and-forward data path.
//!
//! [`SurfRate`] is everything but the token bucket and the data path; [`SurfLimiter`] composes it
//! with [`datapath::Datapath`], which takes `Rc` of each cycle and nothing else from the rate side.

pub mod alpha;
pub mod axil;
pub mod datapath;
pub mod overseer;
pub mod rate_dec;
pub mod rate_inc;
pub mod sync;

pub use alpha::{AlphaIn, AlphaOut, SurfAlpha};
pub use overseer::{OverseerState, SurfRegs};
pub use rate_dec::{DecIn, DecOut, SurfRateDec};
pub use rate_inc::{IncIn, IncOut, SurfRateInc};
pub use sync::{CnpCounter, CnpEdge, CntRstEdge};

use datapath::Datapath;
use dcqcn_model::{AxilIn, Config, Inputs, Outputs};

/// The block's generics as the wrapper sets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfParams {
    /// `LINE_RATE_G`, bytes/s.
    pub line_rate: u32,
    /// `CLK_FREQ_G`, Hz (the reset values of the three intervals and the token constant K).
    pub clk_freq_hz: u32,
}

impl Default for SurfParams {
    /// The wrapper's values (the block's defaults: 10 Gb/s at 156.25 MHz).
    fn default() -> SurfParams {
        SurfParams {
            line_rate: 1_250_000_000,
            clk_freq_hz: 156_250_000,
        }
    }
}

/// Register values of the block, as they are during the cycle after the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurfProbe {
    /// Current rate (0x018), bytes/s.
    pub rc: u32,
    /// Target rate (0x01C), bytes/s.
    pub rt: u32,
    /// Q0.10 (0x020[9:0]).
    pub alpha: u16,
    /// The CNP count register (0x020[26:11]), one cycle behind the counter itself.
    pub cnp_cnt: u16,
}

/// The AXI4-Lite outputs of the wrapper in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxilOut {
    pub awready: bool,
    pub wready: bool,
    pub bvalid: bool,
    pub bresp: u8,
    pub arready: bool,
    pub rvalid: bool,
    pub rdata: u32,
    pub rresp: u8,
}

/// The rate side of the upstream block: CNP path, overseer, the three processes, the CNP counter
/// and the register file with its AXI4-Lite slave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfRate {
    pub params: SurfParams,
    pub regs: SurfRegs,
    pub dec: SurfRateDec,
    pub inc: SurfRateInc,
    pub alpha: SurfAlpha,
    pub cnp: CnpEdge,
    pub cnt_rst: CntRstEdge,
    pub counter: CnpCounter,
}

impl SurfRate {
    /// Power-up: every signal at its declared initial value (the reset values).
    pub fn new(params: SurfParams) -> SurfRate {
        SurfRate {
            params,
            regs: SurfRegs::reset(&params),
            dec: SurfRateDec::RESET,
            inc: SurfRateInc::RESET,
            alpha: SurfAlpha::RESET,
            cnp: CnpEdge::POWER_UP,
            cnt_rst: CntRstEdge::POWER_UP,
            counter: CnpCounter::POWER_UP,
        }
    }

    /// `Rc` during the current cycle (what the token calculator reads this cycle).
    #[inline(always)]
    pub fn rc(&self) -> u32 {
        self.regs.rc
    }

    /// The wrapper's AXI4-Lite outputs during the current cycle.
    #[inline(always)]
    pub fn axil_out(&self) -> AxilOut {
        let (ws, rs) = (&self.regs.ws, &self.regs.rs);
        AxilOut {
            awready: ws.awready,
            wready: ws.wready,
            bvalid: ws.bvalid,
            bresp: ws.bresp,
            arready: rs.arready,
            rvalid: rs.rvalid,
            rdata: rs.rdata,
            rresp: rs.rresp,
        }
    }

    /// One cycle: the AXI4-Lite outputs of this cycle, then the clock edge. `rst` is `axisRst`.
    pub fn step(&mut self, rst: bool, cnp: bool, axil: &AxilIn) -> AxilOut {
        let out = self.axil_out();
        let p = self.params;
        let r = &self.regs;
        // Every signal crossing between blocks is a register of this cycle.
        let cnp_re = self.cnp.out();
        let count = self.counter.out();
        let cnt_clear = self.cnt_rst.out();
        let (dec_o, inc_o, alpha_o) = (self.dec.out(), self.inc.out(), self.alpha.out());
        let dec_in = DecIn {
            start: r.dec_en,
            cnp: r.cnp_dec,
            clamp_tgt_rate: r.clamp_tgt_rate,
            alpha: r.alpha,
            dec_gain: r.dec_gain,
            rmin: r.rmin,
            interval: r.dec_interval,
            time_stage: inc_o.time_stage,
            rc: r.rc,
            rt: r.rt,
        };
        let inc_in = IncIn {
            start: r.inc_en,
            rst_timers: r.inc_reset,
            interval: r.inc_interval,
            rai: r.rai,
            rhai: r.rhai,
            rc: r.rc,
            rt: r.rt,
            threshold: r.threshold,
        };
        let alpha_in = AlphaIn {
            start: r.alpha_en,
            alpha: r.alpha,
            g: r.alpha_g,
            cnp: r.cnp_alpha,
            interval: r.alpha_interval,
        };
        let cnt_rst_level = r.cnp_cnt_rst;

        self.regs.next(
            rst,
            axil::shim(axil),
            cnp_re,
            count,
            &dec_o,
            &inc_o,
            &alpha_o,
            &p,
        );
        self.dec.next(rst, &dec_in);
        self.inc.next(rst, &inc_in, p.line_rate);
        self.alpha.next(rst, &alpha_in);
        self.cnp.next(rst, cnp);
        self.cnt_rst.next(rst, cnt_rst_level);
        self.counter.next(rst, cnp_re, cnt_clear);
        out
    }

    /// Register values during the cycle after the last step.
    pub fn probe(&self) -> SurfProbe {
        SurfProbe {
            rc: self.regs.rc,
            rt: self.regs.rt,
            alpha: self.regs.alpha,
            cnp_cnt: self.regs.cnp_cnt,
        }
    }
}

/// The block's software-written configuration: the register fields a driver sets (0x000 to 0x014
/// and the bypass bit of 0x024), at their widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfConfig {
    /// `1 - g`, Q0.10 (0x000[9:0]).
    pub alpha_g: u16,
    /// 0x000[13:10].
    pub dec_gain: u8,
    /// `T`, 0x000[21:14].
    pub threshold: u8,
    /// 0x000[22].
    pub clamp_tgt_rate: bool,
    /// 0x004, bytes/s.
    pub rai: u32,
    /// 0x008, bytes/s.
    pub rhai: u32,
    /// 0x00C, bytes/s.
    pub rmin: u32,
    /// 0x010, cycles.
    pub inc_interval: u32,
    /// 0x014[15:0], cycles.
    pub dec_interval: u16,
    /// 0x014[31:16], cycles.
    pub alpha_interval: u16,
    /// 0x024[0].
    pub bypass: bool,
}

/// A field of our block's [`Config`] that the upstream block has no register for, set to a value
/// other than the one upstream behaves as (our reset value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoUpstreamField {
    /// The field's name in [`dcqcn_model::config::FIELD_WIDTHS`].
    pub field: &'static str,
    /// What upstream does instead.
    pub upstream: &'static str,
}

impl std::fmt::Display for NoUpstreamField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` has no register in the upstream SURF block ({})",
            self.field, self.upstream
        )
    }
}

impl std::error::Error for NoUpstreamField {}

impl SurfConfig {
    /// The upstream registers that carry our block's configuration `c`. The fields are the same
    /// quantities at the same widths and units (spec 6.1 against upstream's map), so they copy;
    /// our fields upstream lacks must keep the value upstream behaves as: `timer_en` on (its
    /// increase timer always runs), `byte_en` off (it has no byte counter), `credit_cap` 2^20
    /// bytes (its bucket cap, `datapath::BUCKET_CAP`), and the rate-rule extensions off (`rmax`,
    /// `rate_first_cnp`, `min_dec_fac` 0, `alpha_init` 1023, `hai_mult` off). `byte_threshold` is
    /// then unused.
    pub fn from_ours(c: &Config) -> Result<SurfConfig, NoUpstreamField> {
        if !c.timer_en {
            return Err(NoUpstreamField {
                field: "timer_en",
                upstream: "its increase timer always runs",
            });
        }
        if c.byte_en {
            return Err(NoUpstreamField {
                field: "byte_en",
                upstream: "it has no byte counter",
            });
        }
        if u64::from(c.credit_cap) << 16 != datapath::BUCKET_CAP {
            return Err(NoUpstreamField {
                field: "credit_cap",
                upstream: "its token bucket is capped at 1048576 bytes",
            });
        }
        // Our rate-rule extensions (spec 4.3-4.6), off at their reset values, and the control scheme.
        let rules = [
            (
                c.rmax != 0,
                "rmax",
                "its rates are capped by the line rate only",
            ),
            (
                c.rate_first_cnp != 0,
                "rate_first_cnp",
                "its first decrease cuts by alpha like every other",
            ),
            (
                c.alpha_init != dcqcn_model::regmap::reset_alpha_init(),
                "alpha_init",
                "its alpha starts at 1023",
            ),
            (
                c.min_dec_fac != 0,
                "min_dec_fac",
                "its decrease has no floor factor",
            ),
            (c.hai_mult, "hai_mult", "its hyper increase adds R_HAI once"),
            // Our control schemes (spec 4.9), hardware DCQCN with the gate open at reset.
            (
                c.scheme != 0,
                "scheme",
                "it has hardware DCQCN only (bypass aside)",
            ),
            (
                c.gate_mask,
                "gate_mask",
                "it has no mask that stops the stream",
            ),
            (c.fw_rate != 0, "fw_rate", "software cannot set its rate"),
        ];
        if let Some(&(_, field, upstream)) = rules.iter().find(|r| r.0) {
            return Err(NoUpstreamField { field, upstream });
        }
        Ok(SurfConfig {
            alpha_g: c.alpha_g,
            dec_gain: c.dec_gain,
            threshold: c.stage_threshold,
            clamp_tgt_rate: c.clamp_tgt,
            rai: c.rai,
            rhai: c.rhai,
            rmin: c.rmin,
            inc_interval: c.inc_interval,
            dec_interval: c.dec_interval,
            alpha_interval: c.alpha_interval,
            bypass: c.bypass,
        })
    }
}

/// The whole upstream wrapper: the rate side and the data path, one clock, 32-byte beats.
#[derive(Clone, Debug)]
pub struct SurfLimiter {
    rate: SurfRate,
    datapath: Datapath,
}

impl SurfLimiter {
    /// The wrapper's beat width in bytes.
    pub const DATA_BYTES: u32 = 32;

    /// Power-up state: every signal at its declared initial value.
    pub fn new(p: SurfParams) -> SurfLimiter {
        SurfLimiter {
            rate: SurfRate::new(p),
            datapath: Datapath::new(&p),
        }
    }

    /// Sets the configuration registers as AXI4-Lite writes of the same words would, without the
    /// bus cycles (for a run that starts configured; tests/surf.rs holds the two equal).
    pub fn set_config(&mut self, c: &SurfConfig) {
        let r = &mut self.rate.regs;
        r.alpha_g = c.alpha_g & 0x3FF;
        r.dec_gain = c.dec_gain & 0xF;
        r.threshold = c.threshold;
        r.clamp_tgt_rate = c.clamp_tgt_rate;
        r.rai = c.rai;
        r.rhai = c.rhai;
        r.rmin = c.rmin;
        r.inc_interval = c.inc_interval;
        r.dec_interval = c.dec_interval;
        r.alpha_interval = c.alpha_interval;
        r.bypass = c.bypass;
    }

    /// One cycle: the outputs of this cycle (sampled before the clock edge), then the edge.
    /// `s_axis.tdata` words 4..7 and `tkeep` bits 32..63 are not wrapper ports and are ignored;
    /// `m_axis_tdata` words 4..7 and `m_axis_tkeep` bits 32..63 are 0.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        // The token calculator reads Rc of this cycle: take it before the rate side's edge.
        let rc = self.rate.rc();
        let d = self.datapath.step(i.rst, rc, &i.s_axis, i.m_axis_tready);
        let a = self.rate.step(i.rst, i.cnp, &i.axil);
        let mut m_axis_tdata = [0u64; dcqcn_model::DATA_WORDS];
        m_axis_tdata[..4].copy_from_slice(&d.m_axis_tdata);
        Outputs {
            s_axis_tready: d.s_axis_tready,
            m_axis_tvalid: d.m_axis_tvalid,
            m_axis_tdata,
            m_axis_tkeep: u64::from(d.m_axis_tkeep),
            m_axis_tlast: d.m_axis_tlast,
            s_axil_awready: a.awready,
            s_axil_wready: a.wready,
            s_axil_bvalid: a.bvalid,
            s_axil_bresp: a.bresp,
            s_axil_arready: a.arready,
            s_axil_rvalid: a.rvalid,
            s_axil_rdata: a.rdata,
            s_axil_rresp: a.rresp,
        }
    }

    /// Register values during the cycle after the last step.
    pub fn probe(&self) -> SurfProbe {
        self.rate.probe()
    }

    /// The rate side (its registers are public, for tests and reports).
    pub fn rate(&self) -> &SurfRate {
        &self.rate
    }

    /// The data path (its registers are public, for tests and reports).
    pub fn datapath(&self) -> &Datapath {
        &self.datapath
    }
}
