//! The configuration registers (spec 6.2) as one value type, the named configurations (spec 6.3;
//! the published parameter sets among them in `profiles.rs`), and their encoding as AXI4-Lite
//! words.

use crate::params::Params;
use crate::profiles;
use crate::regmap;
use bitvec::prelude::*;

/// Every RW field of the register file, in register units (bytes/s, cycles, raw codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Config {
    /// G = 1 - g, Q0.10 (10 bits).
    pub alpha_g: u16,
    /// 4 bits: Rc <- Rc (1 - alpha / 2^dec_gain).
    pub dec_gain: u8,
    /// F (8 bits).
    pub stage_threshold: u8,
    pub clamp_tgt: bool,
    pub rai: u32,
    pub rhai: u32,
    pub rmin: u32,
    pub inc_interval: u32,
    pub dec_interval: u16,
    pub alpha_interval: u16,
    pub bypass: bool,
    pub timer_en: bool,
    pub byte_en: bool,
    pub byte_threshold: u32,
    pub credit_cap: u32,
    /// Ceiling of the rates a decrease or increase writes, bytes/s: min(rmax, L); 0 = none
    /// (spec 4.6). Absent from a saved file = reset value, and not written when at reset, so that
    /// files saved before the extension registers read and write unchanged.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rmax: u32,
    /// Rc set by the first decrease after reset or bypass, bytes/s; 0 = off (spec 4.4).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rate_first_cnp: u32,
    /// alpha while the reaction point is inactive, Q0.10 (10 bits; spec 4.3).
    #[serde(
        default = "alpha_init_reset",
        skip_serializing_if = "is_alpha_init_reset"
    )]
    pub alpha_init: u16,
    /// Smallest fraction of Rc a decrease keeps, Q0.10 (11 bits; 1024 and above: no cut; spec 4.4).
    #[serde(default, skip_serializing_if = "is_zero16")]
    pub min_dec_fac: u16,
    /// Hyper increase adds i x rhai (i = smin - F) instead of rhai (spec 4.5).
    #[serde(default, skip_serializing_if = "is_false")]
    pub hai_mult: bool,
    /// Control scheme (2 bits, spec 4.9): bit 0 holds the reaction point and lets firmware set the
    /// rate (`fw_rate`), bit 1 opens the credit gate. 0 hardware DCQCN, 1 firmware rate,
    /// 2 DCQCN observing, 3 firmware only.
    #[serde(default, skip_serializing_if = "is_zero8")]
    pub scheme: u8,
    /// 1: no beat is accepted, in every scheme and in bypass (spec 4.9).
    #[serde(default, skip_serializing_if = "is_false")]
    pub gate_mask: bool,
    /// Rc and Rt while scheme bit 0 is set, bytes/s: min(fw_rate, L); 0 = L (spec 4.9).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fw_rate: u32,
    /// The event trace is armed (spec 4.10).
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_en: bool,
    /// The trace window keeps the last 64 events instead of the first 64 (spec 4.10).
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_wrap: bool,
    /// The trace entry 0x184-0x18C show, k-th oldest (6 bits, spec 4.10).
    #[serde(default, skip_serializing_if = "is_zero8")]
    pub trace_sel: u8,
}

/// `scheme` bit 0: the reaction point is held, firmware sets the rate (spec 4.9).
pub const SCHEME_FW_RATE: u8 = 1;
/// `scheme` bit 1: the stream is not throttled (spec 4.9).
pub const SCHEME_UNGATED: u8 = 2;

/// Reset value of `alpha_init` (spec 6.2).
pub const ALPHA_INIT_RESET: u16 = 1023;

fn alpha_init_reset() -> u16 {
    ALPHA_INIT_RESET
}
fn is_alpha_init_reset(v: &u16) -> bool {
    *v == ALPHA_INIT_RESET
}
fn is_zero(v: &u32) -> bool {
    *v == 0
}
fn is_zero16(v: &u16) -> bool {
    *v == 0
}
fn is_zero8(v: &u8) -> bool {
    *v == 0
}
fn is_false(v: &bool) -> bool {
    !*v
}

/// Width in bits of each field, for range checks of user input (generated from the register map:
/// [`regmap::CONFIG_FIELDS`]).
pub const FIELD_WIDTHS: &[(&str, u32)] = regmap::CONFIG_FIELDS;

/// The named configurations of spec 6.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedConfig {
    UpstreamReset,
    PaperTable2,
    /// Zhu et al., SIGCOMM 2015 ([`profiles::dcqcn_sigcomm15`]).
    DcqcnSigcomm15,
    /// NVIDIA ConnectX defaults ([`profiles::nvidia_cx`]).
    NvidiaCx,
    /// The ns-3 simulator of HPCC ([`profiles::ns3_hpcc`]).
    Ns3Hpcc,
}

impl NamedConfig {
    pub const ALL: [NamedConfig; 5] = [
        NamedConfig::UpstreamReset,
        NamedConfig::PaperTable2,
        NamedConfig::DcqcnSigcomm15,
        NamedConfig::NvidiaCx,
        NamedConfig::Ns3Hpcc,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NamedConfig::UpstreamReset => "upstream-reset",
            NamedConfig::PaperTable2 => "paper-table2",
            NamedConfig::DcqcnSigcomm15 => "dcqcn-sigcomm15",
            NamedConfig::NvidiaCx => "nvidia-cx",
            NamedConfig::Ns3Hpcc => "ns3-hpcc",
        }
    }

    pub fn from_name(name: &str) -> Option<NamedConfig> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    pub fn config(self, p: &Params) -> Config {
        match self {
            NamedConfig::UpstreamReset => Config::reset(p),
            NamedConfig::PaperTable2 => Config::paper_table2(p),
            NamedConfig::DcqcnSigcomm15 => profiles::dcqcn_sigcomm15(p),
            NamedConfig::NvidiaCx => profiles::nvidia_cx(p),
            NamedConfig::Ns3Hpcc => profiles::ns3_hpcc(p),
        }
    }
}

/// round(seconds x f) for a time given as `num / den` seconds, half up.
pub(crate) fn cycles(p: &Params, num: u64, den: u64) -> u64 {
    (u64::from(p.clk_hz()) * num + den / 2) / den
}

/// The extension rate rules of a [`Config`] (words 0x150-0x158): `(rmax, rate_first_cnp,
/// alpha_init, min_dec_fac, hai_mult)`.
pub type RuleFields = (u32, u32, u16, u16, bool);

/// The fields of a [`Config`] other than `bypass` and the extension rate rules, as random-configuration generators (proptest)
/// produce them: `(alpha_g, dec_gain, stage_threshold, clamp_tgt, rai, rhai, rmin)` and
/// `(inc_interval, dec_interval, alpha_interval, timer_en, byte_en, byte_threshold, credit_cap)`.
pub type ConfigFields = (
    (u16, u8, u8, bool, u32, u32, u32),
    (u32, u16, u16, bool, bool, u32, u32),
);

impl Config {
    /// A configuration from its fields (see [`ConfigFields`]) and `bypass`.
    pub fn from_fields(
        (
            (alpha_g, dec_gain, stage_threshold, clamp_tgt, rai, rhai, rmin),
            (
                inc_interval,
                dec_interval,
                alpha_interval,
                timer_en,
                byte_en,
                byte_threshold,
                credit_cap,
            ),
        ): ConfigFields,
        bypass: bool,
    ) -> Config {
        Config {
            alpha_g,
            dec_gain,
            stage_threshold,
            clamp_tgt,
            rai,
            rhai,
            rmin,
            inc_interval,
            dec_interval,
            alpha_interval,
            bypass,
            timer_en,
            byte_en,
            byte_threshold,
            credit_cap,
            rmax: 0,
            rate_first_cnp: 0,
            alpha_init: ALPHA_INIT_RESET,
            min_dec_fac: 0,
            hai_mult: false,
            scheme: 0,
            gate_mask: false,
            fw_rate: 0,
            trace_en: false,
            trace_wrap: false,
            trace_sel: 0,
        }
    }

    /// This configuration with the extension rate rules of 0x150-0x158 (spec 6.2):
    /// `(rmax, rate_first_cnp, alpha_init, min_dec_fac, hai_mult)`.
    pub fn with_rules(
        self,
        (rmax, rate_first_cnp, alpha_init, min_dec_fac, hai_mult): RuleFields,
    ) -> Config {
        Config {
            rmax,
            rate_first_cnp,
            alpha_init,
            min_dec_fac,
            hai_mult,
            ..self
        }
    }

    /// The first field whose value does not fit its register field ([`FIELD_WIDTHS`]), as
    /// `(name, value, width)`: a configuration read from a file (a saved fuzz case) whose field
    /// types are wider than the register fields.
    pub fn out_of_range(&self) -> Option<(&'static str, u64, u32)> {
        let values = self.values();
        FIELD_WIDTHS
            .iter()
            .zip(values)
            .find(|((_, w), v)| v >> w != 0)
            .map(|(&(name, w), v)| (name, v, w))
    }

    /// spec 6.2 reset values (generated from regmap/dcqcn_regs.rdl into
    /// [`crate::regmap::config_reset`]).
    pub fn reset(p: &Params) -> Config {
        crate::regmap::config_reset(p)
    }

    /// spec 6.3: the paper's Table II.
    pub fn paper_table2(p: &Params) -> Config {
        Config {
            clamp_tgt: true,
            dec_interval: cycles(p, 3, 1_000_000) as u16,
            alpha_interval: cycles(p, 40, 1_000_000) as u16,
            inc_interval: cycles(p, 2, 1_000) as u32,
            ..Config::reset(p)
        }
    }

    /// Word 0x000.
    pub fn word_config(&self) -> u32 {
        let mut w = 0u32;
        let b = w.view_bits_mut::<Lsb0>();
        b[0..10].store_le(self.alpha_g);
        b[10..14].store_le(self.dec_gain);
        b[14..22].store_le(self.stage_threshold);
        b.set(22, self.clamp_tgt);
        w
    }

    /// Sets the fields of word 0x000 from a full word (bits 31:23 ignored).
    pub fn set_word_config(&mut self, w: u32) {
        let b = w.view_bits::<Lsb0>();
        self.alpha_g = b[0..10].load_le();
        self.dec_gain = b[10..14].load_le();
        self.stage_threshold = b[14..22].load_le();
        self.clamp_tgt = b[22];
    }

    /// Word 0x014.
    pub fn word_intervals(&self) -> u32 {
        u32::from(self.alpha_interval) << 16 | u32::from(self.dec_interval)
    }

    /// Word 0x100 as read (the clear bit reads 0).
    pub fn word_ext_ctrl(&self) -> u32 {
        u32::from(self.byte_en) << 1 | u32::from(self.timer_en)
    }

    /// Word 0x158 (`rate_rules`).
    pub fn word_rate_rules(&self) -> u32 {
        let mut w = 0u32;
        let b = w.view_bits_mut::<Lsb0>();
        b[0..10].store_le(self.alpha_init);
        b[16..27].store_le(self.min_dec_fac);
        b.set(28, self.hai_mult);
        w
    }

    /// Sets the fields of word 0x158 from a full word (reserved bits ignored).
    pub fn set_word_rate_rules(&mut self, w: u32) {
        let b = w.view_bits::<Lsb0>();
        self.alpha_init = b[0..10].load_le();
        self.min_dec_fac = b[16..27].load_le();
        self.hai_mult = b[28];
    }

    /// Word 0x15C (`control`).
    pub fn word_control(&self) -> u32 {
        u32::from(self.gate_mask) << 8 | u32::from(self.scheme & 3)
    }

    /// Sets the fields of word 0x15C from a full word (reserved bits ignored).
    pub fn set_word_control(&mut self, w: u32) {
        self.scheme = (w & 3) as u8;
        self.gate_mask = w >> 8 & 1 == 1;
    }

    /// Word 0x170 (`trace_ctrl`) as read (the clear bit reads 0).
    pub fn word_trace_ctrl(&self) -> u32 {
        u32::from(self.trace_wrap) << 1 | u32::from(self.trace_en)
    }

    /// spec 4.7, 4.9: the reaction point's processes are held in reset (bypass or scheme bit 0).
    #[inline(always)]
    pub fn rp_held(&self) -> bool {
        self.bypass || self.scheme & SCHEME_FW_RATE != 0
    }

    /// spec 4.7, 4.9: the credit gate is open and the credit held at 0 (bypass or scheme bit 1).
    #[inline(always)]
    pub fn ungated(&self) -> bool {
        self.bypass || self.scheme & SCHEME_UNGATED != 0
    }

    /// spec 4.9: hardware DCQCN throttling the stream, no gate mask (scheme 0): the only
    /// configuration the quiet fast path and the closed-form skip cover besides bypass.
    #[inline(always)]
    pub fn hw_scheme(&self) -> bool {
        self.scheme == 0 && !self.gate_mask
    }

    /// spec 4.9: the rate firmware sets, min(fw_rate, L) with 0 = L.
    #[inline(always)]
    pub fn fw_rc(&self, line_rate: u32) -> u32 {
        if self.fw_rate == 0 {
            line_rate
        } else {
            self.fw_rate.min(line_rate)
        }
    }

    /// spec 4.6: the ceiling of a rate a decrease or increase writes (`rmax`, 0 = none).
    #[inline(always)]
    pub fn ceil_rate(&self, x: u32, line_rate: u32) -> u32 {
        if self.rmax == 0 {
            x
        } else {
            x.min(self.rmax.min(line_rate))
        }
    }

    /// The full-strobe AXI4-Lite writes that program this configuration into a block that holds
    /// its reset values, in address order, except that the firmware rate (0x160) comes before the
    /// scheme word (0x15C) that uses it and bypass (0x024) comes after the rate words, so that the
    /// traffic rules change once; the trace words (0x170, 0x180) come last, so that an armed trace
    /// starts with the configuration complete.
    pub fn register_writes(&self, p: &Params) -> Vec<(u16, u32)> {
        let r = Config::reset(p);
        let mut w = Vec::new();
        let mut push = |addr: u16, ours: u32, theirs: u32| {
            if ours != theirs {
                w.push((addr, ours));
            }
        };
        push(regmap::CONFIG, self.word_config(), r.word_config());
        push(regmap::RAI, self.rai, r.rai);
        push(regmap::RHAI, self.rhai, r.rhai);
        push(regmap::RMIN, self.rmin, r.rmin);
        push(regmap::INC_INTERVAL, self.inc_interval, r.inc_interval);
        push(regmap::INTERVALS, self.word_intervals(), r.word_intervals());
        push(regmap::EXT_CTRL, self.word_ext_ctrl(), r.word_ext_ctrl());
        push(
            regmap::BYTE_THRESHOLD,
            self.byte_threshold,
            r.byte_threshold,
        );
        push(regmap::CREDIT_CAP, self.credit_cap, r.credit_cap);
        push(regmap::RMAX, self.rmax, r.rmax);
        push(
            regmap::RATE_FIRST_CNP,
            self.rate_first_cnp,
            r.rate_first_cnp,
        );
        push(
            regmap::RATE_RULES,
            self.word_rate_rules(),
            r.word_rate_rules(),
        );
        push(regmap::FW_RATE, self.fw_rate, r.fw_rate);
        push(regmap::CONTROL, self.word_control(), r.word_control());
        push(regmap::BYPASS, u32::from(self.bypass), u32::from(r.bypass));
        push(
            regmap::TRACE_CTRL,
            self.word_trace_ctrl(),
            r.word_trace_ctrl(),
        );
        push(regmap::TRACE_SEL, self.trace_sel.into(), r.trace_sel.into());
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_names_the_field() {
        let p = Params::DEFAULT;
        assert_eq!(Config::paper_table2(&p).out_of_range(), None);
        let mut c = Config::reset(&p);
        c.alpha_g = 1024;
        assert_eq!(c.out_of_range(), Some(("alpha_g", 1024, 10)));
        c.alpha_g = 1023;
        c.dec_gain = 16;
        assert_eq!(c.out_of_range(), Some(("dec_gain", 16, 4)));
        c.dec_gain = 15;
        assert_eq!(c.out_of_range(), None);
    }

    #[test]
    fn reset_words_match_surf() {
        let c = Config::reset(&Params::DEFAULT);
        assert_eq!(c.word_config(), 0x0001_47FC);
        assert_eq!(c.word_intervals(), 0x2192_0271);
        assert_eq!(c.inc_interval, 0x0003_9387);
        let mut d = c;
        d.set_word_config(0xFFFF_FFFF);
        assert_eq!(d.word_config(), 0x007F_FFFF);
    }

    #[test]
    fn table2_in_cycles() {
        let c = Config::paper_table2(&Params::DEFAULT);
        assert_eq!(
            (c.dec_interval, c.alpha_interval, c.inc_interval),
            (469, 6_250, 312_500)
        );
        assert!(c.clamp_tgt);
        let w = c.register_writes(&Params::DEFAULT);
        assert_eq!(w.len(), 3);
    }
}
