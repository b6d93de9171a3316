//! The configuration registers (spec 6.2) as one value type, the two named configurations of this
//! block (spec 6.3: SURF's reset values and the paper's Table II; the others and the list of every
//! named configuration are in `profiles.rs`), and the writes that set them. The
//! struct's fields and their encoding as AXI4-Lite words (`Config::word`, `Config::set_word`)
//! are generated from regmap/dcqcn_regs.rdl (crates/dcqcn-model/src/regmap.rs).

use crate::params::Params;
use crate::regmap;

/// Every RW field of the register file, in register units (bytes/s, cycles, raw codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Config {
    // BEGIN GENERATED fields: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    /// G = 1 - g, the alpha EWMA weight of the old value (Q0.10; 0x000 alpha_g).
    pub alpha_g: u16,
    /// Rc <- Rc (1 - alpha / 2^dec_gain) (shift; 0x000 dec_gain).
    pub dec_gain: u8,
    /// F, increase events per stage (fast recovery length) (events; 0x000 stage_threshold).
    pub stage_threshold: u8,
    /// 1: a decrease always sets Rt to Rc; 0: only if a rate increase happened since the last
    /// decrease (flag; 0x000 clamp_tgt).
    pub clamp_tgt: bool,
    /// Rt += rai in additive increase (bytes/s; 0x004 rai).
    pub rai: u32,
    /// Rt += rhai in hyper increase (bytes/s; 0x008 rhai).
    pub rhai: u32,
    /// floor of Rc (min(rmin, L)) after a decrease (bytes/s; 0x00C rmin).
    pub rmin: u32,
    /// period of the rate-increase timer (cycles; 0x010 inc_interval).
    pub inc_interval: u32,
    /// minimum time between two decreases (cycles; 0x014 dec_interval).
    pub dec_interval: u16,
    /// period of the alpha update (cycles; 0x014 alpha_interval).
    pub alpha_interval: u16,
    /// 1: the reaction point is held in reset (Rc = Rt = L, credit 0) and traffic passes unshaped
    /// (flag; 0x024 bypass).
    pub bypass: bool,
    /// rate-increase timer trigger enable (flag; 0x100 timer_en).
    pub timer_en: bool,
    /// rate-increase byte-counter trigger enable (flag; 0x100 byte_en).
    pub byte_en: bool,
    /// bytes between two byte-counter increase triggers (0 behaves as 1) (bytes; 0x104
    /// byte_threshold).
    pub byte_threshold: u32,
    /// credit saturation (below DATA_BYTES behaves as DATA_BYTES) (bytes; 0x108 credit_cap).
    pub credit_cap: u32,
    /// ceiling of every Rc and Rt a decrease or increase writes, min(rmax, L) (NVIDIA
    /// rpg_max_rate); 0: no ceiling other than L (bytes/s; 0x150 rmax).
    #[serde(
        default = "regmap::reset_rmax",
        skip_serializing_if = "regmap::is_reset_rmax"
    )]
    pub rmax: u32,
    /// the first decrease after reset, bypass or a firmware-rate scheme sets Rc to
    /// min(rate_first_cnp, L) instead of cutting it (then rmin and rmax apply; NVIDIA
    /// rate_to_set_on_first_cnp); 0: off (bytes/s; 0x154 rate_first_cnp).
    #[serde(
        default = "regmap::reset_rate_first_cnp",
        skip_serializing_if = "regmap::is_reset_rate_first_cnp"
    )]
    pub rate_first_cnp: u32,
    /// alpha while the reaction point is inactive, so the first decrease uses it (NVIDIA
    /// initial_alpha_value) (Q0.10; 0x158 alpha_init).
    #[serde(
        default = "regmap::reset_alpha_init",
        skip_serializing_if = "regmap::is_reset_alpha_init"
    )]
    pub alpha_init: u16,
    /// a decrease keeps at least floor(Rc min(min_dec_fac, 1024) / 1024): 0 no limit, 512 = NVIDIA
    /// rpg_min_dec_fac 50 %, 1024 and above no cut (Q0.10; 0x158 min_dec_fac).
    #[serde(
        default = "regmap::reset_min_dec_fac",
        skip_serializing_if = "regmap::is_reset_min_dec_fac"
    )]
    pub min_dec_fac: u16,
    /// 1: hyper increase adds i x rhai, i = min(T, BC) - F (DCQCN paper); 0: rhai (SURF, ns-3)
    /// (flag; 0x158 hai_mult).
    #[serde(
        default = "regmap::reset_hai_mult",
        skip_serializing_if = "regmap::is_reset_hai_mult"
    )]
    pub hai_mult: bool,
    /// bit 0: the reaction point is held and firmware sets the rate (Rc = Rt = fw_rate); bit 1: the
    /// stream is not throttled (credit held at 0); 0 hardware DCQCN, 1 firmware rate, 2 DCQCN
    /// observing, 3 firmware only (4.9) (code; 0x15C scheme).
    #[serde(
        default = "regmap::reset_scheme",
        skip_serializing_if = "regmap::is_reset_scheme"
    )]
    pub scheme: u8,
    /// 1: no beat is accepted (s_axis_tready = 0), in every scheme and in bypass; a beat already in
    /// the output register is still handed on (flag; 0x15C gate_mask).
    #[serde(
        default = "regmap::reset_gate_mask",
        skip_serializing_if = "regmap::is_reset_gate_mask"
    )]
    pub gate_mask: bool,
    /// Rc and Rt while scheme bit 0 is set: min(fw_rate, L); 0: L (4.9) (bytes/s; 0x160 fw_rate).
    #[serde(
        default = "regmap::reset_fw_rate",
        skip_serializing_if = "regmap::is_reset_fw_rate"
    )]
    pub fw_rate: u32,
    /// 1: the event trace is armed: rate events are recorded and trace_time counts (4.10) (flag;
    /// 0x170 trace_en).
    #[serde(
        default = "regmap::reset_trace_en",
        skip_serializing_if = "regmap::is_reset_trace_en"
    )]
    pub trace_en: bool,
    /// 1: the window keeps the last 64 events (oldest overwritten); 0: the first 64 after the clear
    /// (flag; 0x170 trace_wrap).
    #[serde(
        default = "regmap::reset_trace_wrap",
        skip_serializing_if = "regmap::is_reset_trace_wrap"
    )]
    pub trace_wrap: bool,
    /// k: 0x184-0x18C show the k-th oldest entry of the window (count; 0x180 trace_sel).
    #[serde(
        default = "regmap::reset_trace_sel",
        skip_serializing_if = "regmap::is_reset_trace_sel"
    )]
    pub trace_sel: u8,
    // END GENERATED fields
}

/// `scheme` bit 0: the reaction point is held, firmware sets the rate (spec 4.9).
pub const SCHEME_FW_RATE: u8 = 1;
/// `scheme` bit 1: the stream is not throttled (spec 4.9).
pub const SCHEME_UNGATED: u8 = 2;

/// Width in bits of each field, for range checks of user input (generated from the register map:
/// [`regmap::CONFIG_FIELDS`]).
pub const FIELD_WIDTHS: &[(&str, u32)] = regmap::CONFIG_FIELDS;

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
            // the other registers (the optional ones) at their reset values
            ..Config::reset(&Params::DEFAULT)
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
        regmap::WRITE_ORDER
            .iter()
            .filter_map(|&addr| {
                let ours = self.word(addr)?;
                (Some(ours) != r.word(addr)).then_some((addr, ours))
            })
            .collect()
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
        assert_eq!(c.word(regmap::CONFIG), Some(0x0001_47FC));
        assert_eq!(c.word(regmap::INTERVALS), Some(0x2192_0271));
        assert_eq!(c.word(regmap::INC_INTERVAL), Some(0x0003_9387));
        let mut d = c;
        assert!(d.set_word(regmap::CONFIG, 0xFFFF_FFFF));
        assert_eq!(d.word(regmap::CONFIG), Some(0x007F_FFFF));
        assert_eq!(d.word(regmap::RC), None);
        assert!(!d.set_word(regmap::RC, 0));
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
