//! The upstream block's own registers: configuration, rates, alpha, CNP flags, sticky enables, the
//! overseer state and the AXI4-Lite response registers, with the one combinational process that
//! computes all of their next values.
//!
//! Order inside the cycle (later assignments win):
//! 1. `cnpCnt` takes the counter's output (so it lags the counter by one cycle);
//! 2. the AXI4-Lite decode (`axil.rs`) writes configuration fields (visible next cycle);
//! 3. the overseer: in `Idle`, a `cnpRe` with bypass off sets both CNP flags (the alpha flag not
//!    for the first CNP after reset, which instead reloads alpha with 1023), the three sticky
//!    enables and `incReset`, and moves to `Aftermath`; `Aftermath` clears `incReset` and returns
//!    to `Idle` (CNP edges are at least two cycles apart, so none is dropped there);
//! 4. an increase result writes `Rc`/`Rt`;
//! 5. a decrease result writes `Rc`/`Rt` (over an increase in the same cycle) and clears the
//!    decrease flag (over a CNP setting it in the same cycle: the blind window);
//! 6. an alpha result writes alpha and clears the alpha flag (same blind window);
//! 7. bypass (the register's current value) forces `Rc = Rt = L`;
//! 8. `axisRst` loads the reset value into everything, configuration included.

use super::axil::{Endpoint, Master, ReadSlave, WriteSlave, RESP_DECERR};
use super::{AlphaOut, DecOut, IncOut, SurfParams};

/// The overseer's two states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OverseerState {
    #[default]
    Idle,
    Aftermath,
}

/// The block's own registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfRegs {
    /// Current rate, bytes/s (0x018).
    pub rc: u32,
    /// Target rate, bytes/s (0x01C).
    pub rt: u32,
    /// Q0.10 (0x020[9:0]).
    pub alpha: u16,
    /// `1 - g`, Q0.10 (0x000[9:0]).
    pub alpha_g: u16,
    /// 0x000[13:10].
    pub dec_gain: u8,
    /// 0x004.
    pub rai: u32,
    /// 0x008.
    pub rhai: u32,
    /// 0x000[22].
    pub clamp_tgt_rate: bool,
    /// 0x024[0].
    pub bypass: bool,
    /// 0x00C.
    pub rmin: u32,
    /// CNP pending for the decrease process.
    pub cnp_dec: bool,
    /// CNP pending for the alpha process.
    pub cnp_alpha: bool,
    /// 0x020[26:11].
    pub cnp_cnt: u16,
    /// 0x020[10].
    pub cnp_cnt_rst: bool,
    /// One-cycle restart of the increase timer and stage.
    pub inc_reset: bool,
    pub inc_en: bool,
    pub dec_en: bool,
    pub alpha_en: bool,
    /// 0x010.
    pub inc_interval: u32,
    /// 0x014[15:0].
    pub dec_interval: u16,
    /// 0x014[31:16].
    pub alpha_interval: u16,
    /// 0x000[21:14].
    pub threshold: u8,
    /// No CNP taken since reset.
    pub first_cnp: bool,
    pub ws: WriteSlave,
    pub rs: ReadSlave,
    pub state: OverseerState,
}

/// The reset values of the time intervals: `round(t * f)` as the block's generics compute it
/// (`t / (1 / f)` in double precision, rounded half away from zero), cut to the register width.
pub fn interval_cycles(t: f64, clk_freq_hz: u32) -> u64 {
    let period = 1.0 / f64::from(clk_freq_hz);
    (t / period).abs().round() as u64
}

impl SurfRegs {
    pub fn reset(p: &SurfParams) -> SurfRegs {
        let f = p.clk_freq_hz;
        SurfRegs {
            rc: p.line_rate,
            rt: p.line_rate,
            alpha: 0x3FF,
            alpha_g: 0x3FC,
            dec_gain: 1,
            rai: 0x005B_8D80,
            rhai: 0x00B7_1B00,
            clamp_tgt_rate: false,
            bypass: false,
            rmin: 0x0098_9680,
            cnp_dec: false,
            cnp_alpha: false,
            cnp_cnt: 0,
            cnp_cnt_rst: false,
            inc_reset: false,
            inc_en: false,
            dec_en: false,
            alpha_en: false,
            inc_interval: interval_cycles(1.5e-3, f) as u32,
            dec_interval: interval_cycles(4.0e-6, f) as u16,
            alpha_interval: interval_cycles(55.0e-6, f) as u16,
            threshold: 5,
            first_cnp: true,
            ws: WriteSlave::RESET,
            rs: ReadSlave::RESET,
            state: OverseerState::Idle,
        }
    }

    /// The AXI4-Lite decode of one cycle: the registers' values after this cycle's write (fields
    /// only) and the response registers' next values.
    pub fn decode(&self, m: Master) -> SurfRegs {
        let mut v = *self;
        let mut ep = Endpoint::wait_txn(m, self.ws, self.rs);
        v.alpha_g = ep.register(0x000, 0, 10, u32::from(v.alpha_g)) as u16;
        v.dec_gain = ep.register(0x000, 10, 4, u32::from(v.dec_gain)) as u8;
        v.threshold = ep.register(0x000, 14, 8, u32::from(v.threshold)) as u8;
        v.clamp_tgt_rate = ep.register(0x000, 22, 1, u32::from(v.clamp_tgt_rate)) != 0;
        v.rai = ep.register(0x004, 0, 32, v.rai);
        v.rhai = ep.register(0x008, 0, 32, v.rhai);
        v.rmin = ep.register(0x00C, 0, 32, v.rmin);
        v.inc_interval = ep.register(0x010, 0, 32, v.inc_interval);
        v.dec_interval = ep.register(0x014, 0, 16, u32::from(v.dec_interval)) as u16;
        v.alpha_interval = ep.register(0x014, 16, 16, u32::from(v.alpha_interval)) as u16;
        ep.register_r(0x018, 0, 32, self.rc);
        ep.register_r(0x01C, 0, 32, self.rt);
        ep.register_r(0x020, 0, 10, u32::from(self.alpha));
        v.cnp_cnt_rst = ep.register(0x020, 10, 1, u32::from(v.cnp_cnt_rst)) != 0;
        ep.register_r(0x020, 11, 16, u32::from(self.cnp_cnt));
        v.bypass = ep.register(0x024, 0, 1, u32::from(v.bypass)) != 0;
        (v.ws, v.rs) = ep.close(RESP_DECERR);
        v
    }

    /// The clock edge.
    #[allow(clippy::too_many_arguments)]
    pub fn next(
        &mut self,
        rst: bool,
        m: Master,
        cnp_re: bool,
        count: u16,
        dec: &DecOut,
        inc: &IncOut,
        alpha: &AlphaOut,
        p: &SurfParams,
    ) {
        if rst {
            *self = SurfRegs::reset(p);
            return;
        }
        let mut v = self.decode(m);
        v.cnp_cnt = count;
        match self.state {
            OverseerState::Idle => {
                if cnp_re && !self.bypass {
                    v.cnp_alpha = true;
                    v.cnp_dec = true;
                    v.alpha_en = true;
                    v.dec_en = true;
                    v.inc_en = true;
                    v.inc_reset = true;
                    v.state = OverseerState::Aftermath;
                    if self.first_cnp {
                        v.alpha = 0x3FF;
                        v.cnp_alpha = false;
                        v.first_cnp = false;
                    }
                }
            }
            OverseerState::Aftermath => {
                v.inc_reset = false;
                v.state = OverseerState::Idle;
            }
        }
        if inc.valid {
            v.rc = inc.new_rc;
            v.rt = inc.new_rt;
        }
        if dec.valid {
            v.cnp_dec = false;
            v.rc = dec.new_rc;
            v.rt = dec.new_rt;
        }
        if alpha.valid {
            v.cnp_alpha = false;
            v.alpha = alpha.new_alpha;
        }
        if self.bypass {
            v.rc = p.line_rate;
            v.rt = p.line_rate;
        }
        *self = v;
    }
}

#[cfg(test)]
mod tests {
    use super::interval_cycles;

    #[test]
    fn reset_intervals_at_156_25_mhz() {
        assert_eq!(interval_cycles(1.5e-3, 156_250_000), 234_375);
        assert_eq!(interval_cycles(4.0e-6, 156_250_000), 625);
        assert_eq!(interval_cycles(55.0e-6, 156_250_000), 8594);
    }
}
