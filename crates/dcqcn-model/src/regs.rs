//! AXI4-Lite register file: configuration, event counters, read mux (spec 6; RTL `dcqcn_regs`).

use crate::block::Block;
use crate::config::Config;
use crate::params::Params;
use crate::rate_inc::Phase;
use crate::regmap::{self, RESP_DECERR, RESP_OKAY};
use bitvec::prelude::*;

/// Event counters (spec 6.2, 0x020 and 0x120-0x144).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub cnp_cnt16: u16,
    pub cnt_cnp: u32,
    pub cnt_dec: u32,
    pub cnt_inc_fr: u32,
    pub cnt_inc_ai: u32,
    pub cnt_inc_hai: u32,
    pub cnt_inc_timer: u32,
    pub cnt_inc_byte: u32,
    pub cnt_stall: u32,
    pub cnt_bytes: u64,
    pub bytes_hi: u32,
}

/// AXI4-Lite response registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxilState {
    pub bvalid: bool,
    pub bresp: u8,
    pub rvalid: bool,
    pub rdata: u32,
    pub rresp: u8,
}

/// The AXI4-Lite master's signals this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxilIn {
    pub awaddr: u16,
    pub awvalid: bool,
    pub wdata: u32,
    pub wstrb: u8,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u16,
    pub arvalid: bool,
    pub rready: bool,
}

/// Registers of the register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Regs {
    pub cfg: Config,
    pub cnt: Counters,
    pub axil: AxilState,
}

/// The events of this cycle the counters count (the RTL's event ports of `dcqcn_regs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    pub cnp_edge: bool,
    pub dec_fire: bool,
    /// The phase of this cycle's increase event (`Some` exactly when `inc_event`).
    pub inc: Option<Phase>,
    pub timer_fire: bool,
    pub byte_fire: bool,
    pub stall: bool,
    pub bytes_in: u32,
}

/// The register file's input ports.
#[derive(Clone, Copy, Debug)]
pub struct RegsIn<'a> {
    pub rst: bool,
    pub axil: &'a AxilIn,
    /// The other blocks' registers the read mux shows.
    pub mon: Monitors,
    pub ev: Events,
}

/// The register file's combinational outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegsOut {
    /// A write is accepted: `s_axil_awready = s_axil_wready = wr_en`.
    pub wr_en: bool,
    /// A read is accepted: `s_axil_arready = rd_en`.
    pub rd_en: bool,
    /// The bus does something this cycle: a transaction is accepted or a response is held.
    pub bus_active: bool,
}

impl RegsOut {
    pub const IDLE: RegsOut = RegsOut {
        wr_en: false,
        rd_en: false,
        bus_active: false,
    };
}

/// Live values the read mux shows (all registers of this cycle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Monitors {
    pub rc: u32,
    pub rt: u32,
    pub alpha: u16,
    pub credit: u64,
    pub bpc: u32,
    pub t_stage: u8,
    pub b_stage: u8,
    pub active: bool,
    pub dec_pending: bool,
    pub alpha_pending: bool,
}

/// Side effects of an accepted write beyond the configuration itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct WriteEffects {
    cnp_cnt_clear: bool,
    cnt_clear: bool,
    /// A read of 0x140 latches the upper half of `cnt_bytes`.
    latch_hi: bool,
}

/// Byte-lane mask for `wstrb`.
fn lane_mask(wstrb: u8) -> u32 {
    (0..4)
        .filter(|i| wstrb >> i & 1 == 1)
        .fold(0, |m, i| m | 0xFF << (8 * i))
}

impl Regs {
    /// Cycles without bus activity or reaction-point events in closed form, `stalls` of them with
    /// the stall condition and `bytes_in` bytes loaded in all: only the traffic counters move
    /// (what as many calls of `next` leave behind).
    #[inline(always)]
    pub fn skip_quiet(&mut self, stalls: u64, bytes_in: u64) {
        let c = &mut self.cnt;
        // Both counters wrap: stalls mod 2^32, bytes mod 2^64.
        c.cnt_stall = c.cnt_stall.wrapping_add(stalls as u32);
        c.cnt_bytes = c.cnt_bytes.wrapping_add(bytes_in);
    }

    /// spec 6.1/6.2: the word and response a read of `addr` returns.
    pub fn read(&self, addr: u16, m: &Monitors, p: &Params) -> (u32, u8) {
        let c = &self.cfg;
        let n = &self.cnt;
        let data = match addr & 0xFFC {
            regmap::CONFIG => c.word_config(),
            regmap::RAI => c.rai,
            regmap::RHAI => c.rhai,
            regmap::RMIN => c.rmin,
            regmap::INC_INTERVAL => c.inc_interval,
            regmap::INTERVALS => c.word_intervals(),
            regmap::RC => m.rc,
            regmap::RT => m.rt,
            regmap::ALPHA_CNP => {
                let mut w = 0u32;
                let b = w.view_bits_mut::<Lsb0>();
                b[0..10].store_le(m.alpha);
                b[11..27].store_le(n.cnp_cnt16);
                w
            }
            regmap::BYPASS => u32::from(c.bypass),
            regmap::EXT_CTRL => c.word_ext_ctrl(),
            regmap::BYTE_THRESHOLD => c.byte_threshold,
            regmap::CREDIT_CAP => c.credit_cap,
            regmap::RMAX => c.rmax,
            regmap::RATE_FIRST_CNP => c.rate_first_cnp,
            regmap::RATE_RULES => c.word_rate_rules(),
            regmap::CONTROL => c.word_control(),
            regmap::FW_RATE => c.fw_rate,
            regmap::ID => 0xDCC1_0100 | p.data_bytes(),
            regmap::CREDIT_BYTES => (m.credit >> 16) as u32,
            regmap::CREDIT_FRAC => (m.credit & 0xFFFF) as u32,
            regmap::BPC => m.bpc,
            regmap::CNT_CNP => n.cnt_cnp,
            regmap::CNT_DEC => n.cnt_dec,
            regmap::CNT_INC_FR => n.cnt_inc_fr,
            regmap::CNT_INC_AI => n.cnt_inc_ai,
            regmap::CNT_INC_HAI => n.cnt_inc_hai,
            regmap::CNT_INC_TIMER => n.cnt_inc_timer,
            regmap::CNT_INC_BYTE => n.cnt_inc_byte,
            regmap::CNT_STALL => n.cnt_stall,
            regmap::CNT_BYTES_LO => n.cnt_bytes as u32,
            regmap::CNT_BYTES_HI => n.bytes_hi,
            regmap::STATUS => {
                let mut w = 0u32;
                let b = w.view_bits_mut::<Lsb0>();
                b[0..8].store_le(m.t_stage);
                b[8..16].store_le(m.b_stage);
                b.set(16, m.active);
                b.set(17, m.dec_pending);
                b.set(18, m.alpha_pending);
                w
            }
            _ => return (0, RESP_DECERR),
        };
        (data, RESP_OKAY)
    }

    /// spec 6.1/6.2: apply an accepted write to `cfg`; returns the response and side effects.
    fn write(cfg: &mut Config, addr: u16, wdata: u32, wstrb: u8) -> (u8, WriteEffects) {
        let m = lane_mask(wstrb);
        let merge = |old: u32| (old & !m) | (wdata & m);
        let mut fx = WriteEffects::default();
        match addr & 0xFFC {
            regmap::CONFIG => cfg.set_word_config(merge(cfg.word_config())),
            regmap::RAI => cfg.rai = merge(cfg.rai),
            regmap::RHAI => cfg.rhai = merge(cfg.rhai),
            regmap::RMIN => cfg.rmin = merge(cfg.rmin),
            regmap::INC_INTERVAL => cfg.inc_interval = merge(cfg.inc_interval),
            regmap::INTERVALS => {
                let w = merge(cfg.word_intervals());
                cfg.dec_interval = w as u16;
                cfg.alpha_interval = (w >> 16) as u16;
            }
            regmap::ALPHA_CNP => fx.cnp_cnt_clear = wstrb & 0b10 != 0 && wdata >> 10 & 1 == 1,
            regmap::BYPASS => {
                if wstrb & 1 != 0 {
                    cfg.bypass = wdata & 1 == 1;
                }
            }
            regmap::EXT_CTRL => {
                if wstrb & 1 != 0 {
                    cfg.timer_en = wdata & 1 == 1;
                    cfg.byte_en = wdata >> 1 & 1 == 1;
                }
                fx.cnt_clear = wstrb & 0b10 != 0 && wdata >> 8 & 1 == 1;
            }
            regmap::BYTE_THRESHOLD => cfg.byte_threshold = merge(cfg.byte_threshold),
            regmap::CREDIT_CAP => cfg.credit_cap = merge(cfg.credit_cap),
            regmap::RMAX => cfg.rmax = merge(cfg.rmax),
            regmap::RATE_FIRST_CNP => cfg.rate_first_cnp = merge(cfg.rate_first_cnp),
            regmap::RATE_RULES => cfg.set_word_rate_rules(merge(cfg.word_rate_rules())),
            regmap::CONTROL => cfg.set_word_control(merge(cfg.word_control())),
            regmap::FW_RATE => cfg.fw_rate = merge(cfg.fw_rate),
            // Read-only and unmapped words.
            _ => return (RESP_DECERR, fx),
        }
        (RESP_OKAY, fx)
    }

    /// A cycle with AXI4-Lite activity (spec 6.1): accept a write and/or a read, retire responses.
    #[cold]
    #[inline(never)]
    fn bus_cycle(
        &mut self,
        i: &AxilIn,
        wr_en: bool,
        rd_en: bool,
        m: &Monitors,
        p: &Params,
    ) -> WriteEffects {
        // The read sees the registers before this cycle's write (spec 6.1).
        let read = if rd_en {
            Some(self.read(i.araddr, m, p))
        } else {
            None
        };
        let mut fx = WriteEffects::default();
        if wr_en {
            let (resp, e) = Self::write(&mut self.cfg, i.awaddr, i.wdata, i.wstrb);
            self.axil.bresp = resp;
            fx = e;
        }
        self.axil.bvalid = wr_en || (self.axil.bvalid && !i.bready);
        if let Some((data, resp)) = read {
            self.axil.rdata = data;
            self.axil.rresp = resp;
            fx.latch_hi = i.araddr & 0xFFC == regmap::CNT_BYTES_LO;
        }
        self.axil.rvalid = rd_en || (self.axil.rvalid && !i.rready);
        fx
    }
}

impl Block for Regs {
    type In<'a> = RegsIn<'a>;
    type Out = RegsOut;

    fn reset(p: &Params) -> Regs {
        Regs {
            cfg: Config::reset(p),
            cnt: Counters::default(),
            axil: AxilState::default(),
        }
    }

    /// spec 6.1: one transaction per channel; handshakes are 0 in a reset cycle (spec 4.0).
    #[inline(always)]
    fn comb(&self, i: &RegsIn<'_>, _: &Config, _: &Params) -> RegsOut {
        let wr_en = !i.rst && i.axil.awvalid && i.axil.wvalid && !self.axil.bvalid;
        let rd_en = !i.rst && i.axil.arvalid && !self.axil.rvalid;
        RegsOut {
            wr_en,
            rd_en,
            bus_active: wr_en || rd_en || self.axil.bvalid || self.axil.rvalid,
        }
    }

    /// In place; the bus logic runs only in a cycle with AXI4-Lite activity, so that the common
    /// cycle copies almost nothing.
    #[inline(always)]
    fn next(&mut self, i: &RegsIn<'_>, o: &RegsOut, _: &Config, p: &Params) {
        let fx = if o.bus_active {
            self.bus_cycle(i.axil, o.wr_en, o.rd_en, &i.mon, p)
        } else {
            WriteEffects::default()
        };
        let ev = &i.ev;
        let n = &mut self.cnt;
        n.cnp_cnt16 = if fx.cnp_cnt_clear {
            0
        } else {
            n.cnp_cnt16.wrapping_add(u16::from(ev.cnp_edge))
        };
        if fx.cnt_clear {
            *n = Counters {
                cnp_cnt16: n.cnp_cnt16,
                ..Counters::default()
            };
            return;
        }
        if fx.latch_hi {
            n.bytes_hi = (n.cnt_bytes >> 32) as u32;
        }
        n.cnt_cnp = n.cnt_cnp.wrapping_add(u32::from(ev.cnp_edge));
        n.cnt_dec = n.cnt_dec.wrapping_add(u32::from(ev.dec_fire));
        if let Some(ph) = ev.inc {
            match ph {
                Phase::FastRecovery => n.cnt_inc_fr = n.cnt_inc_fr.wrapping_add(1),
                Phase::Additive => n.cnt_inc_ai = n.cnt_inc_ai.wrapping_add(1),
                Phase::Hyper => n.cnt_inc_hai = n.cnt_inc_hai.wrapping_add(1),
            }
            n.cnt_inc_timer = n.cnt_inc_timer.wrapping_add(u32::from(ev.timer_fire));
            n.cnt_inc_byte = n.cnt_inc_byte.wrapping_add(u32::from(ev.byte_fire));
        }
        n.cnt_stall = n.cnt_stall.wrapping_add(u32::from(ev.stall));
        n.cnt_bytes = n.cnt_bytes.wrapping_add(u64::from(ev.bytes_in));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_lanes_merge_into_fields() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        // Lane 2 only: bits 23:16 of 0x000 -> stage_threshold bits [7:2] and clamp (bit 22).
        let (resp, _) = Regs::write(&mut c, 0x000, 0x00FF_0000, 0b0100);
        assert_eq!(resp, RESP_OKAY);
        assert_eq!(c.word_config(), 0x007F_47FC);
        assert!(c.clamp_tgt);
    }

    #[test]
    fn read_only_and_unmapped_answer_decerr() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        let before = c;
        assert_eq!(Regs::write(&mut c, regmap::RC, 0, 0xF).0, RESP_DECERR);
        assert_eq!(Regs::write(&mut c, 0x028, 0, 0xF).0, RESP_DECERR);
        assert_eq!(c, before);
    }

    /// spec 6.1: decode uses addr[11:2]; bits 1:0 and bits above the 12-bit port are ignored.
    #[test]
    fn decode_ignores_low_bits_and_bits_above_the_port() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        // A write to 0x1006 is a write to word 0x004 (rai).
        let (resp, _) = Regs::write(&mut c, 0x1000 | regmap::RAI | 0b10, 0x1234_5678, 0xF);
        assert_eq!(resp, RESP_OKAY);
        assert_eq!(c.rai, 0x1234_5678);
        // 0x1018 is word 0x018 (Rc), read-only: DECERR and no effect.
        let before = c;
        assert_eq!(Regs::write(&mut c, 0x1018, 0, 0xF).0, RESP_DECERR);
        assert_eq!(c, before);
        // Reads alias the same way: 0xF01B reads Rc.
        let regs = Regs {
            cfg: c,
            ..Regs::reset(&p)
        };
        let mon = Monitors {
            rc: 0xCAFE,
            ..Monitors::default()
        };
        assert_eq!(
            regs.read(0xF000 | regmap::RC | 0b11, &mon, &p),
            (0xCAFE, RESP_OKAY)
        );
        assert_eq!(regs.read(0x1004, &mon, &p), (0x1234_5678, RESP_OKAY));
    }

    /// spec 6.2, 0x158: fields at [9:0], [26:16], [28]; the other bits read 0; byte lanes merge.
    #[test]
    fn rate_rules_word_fields_and_lanes() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        assert_eq!(c.word_rate_rules(), 0x0000_03FF);
        assert_eq!(
            Regs::write(&mut c, regmap::RATE_RULES, 0xFFFF_FFFF, 0xF).0,
            RESP_OKAY
        );
        assert_eq!(
            (c.alpha_init, c.min_dec_fac, c.hai_mult),
            (1023, 2047, true)
        );
        assert_eq!(c.word_rate_rules(), 0x17FF_03FF);
        // Lane 2 only: min_dec_fac[7:0] = 0x00, the rest kept.
        Regs::write(&mut c, regmap::RATE_RULES, 0, 0b0100);
        assert_eq!(
            (c.alpha_init, c.min_dec_fac, c.hai_mult),
            (1023, 0x700, true)
        );
        // Lane 0 only: alpha_init[7:0].
        Regs::write(&mut c, regmap::RATE_RULES, 0x0000_0012, 0b0001);
        assert_eq!(c.alpha_init, 0x312);
        let regs = Regs {
            cfg: c,
            ..Regs::reset(&p)
        };
        let m = Monitors::default();
        assert_eq!(
            regs.read(regmap::RATE_RULES, &m, &p),
            (0x1700_0312, RESP_OKAY)
        );
        Regs::write(&mut c, regmap::RMAX, 0x1234_5678, 0b0011);
        Regs::write(&mut c, regmap::RATE_FIRST_CNP, 0x8765_4321, 0xF);
        assert_eq!((c.rmax, c.rate_first_cnp), (0x5678, 0x8765_4321));
    }

    #[test]
    fn cnp_counter_clear_every_write_of_one() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        assert!(
            Regs::write(&mut c, regmap::ALPHA_CNP, 1 << 10, 0b0010)
                .1
                .cnp_cnt_clear
        );
        assert!(
            !Regs::write(&mut c, regmap::ALPHA_CNP, 1 << 10, 0b0001)
                .1
                .cnp_cnt_clear
        );
    }
}
