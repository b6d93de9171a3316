//! The comparison record: every output and every register of one cycle, flat, with names, widths
//! and units (spec 7). The lockstep compares two of these per cycle; reports, waveforms and vectors
//! walk [`FIELDS`].

use crate::{Outputs, State, DATA_WORDS};

/// How a field's value reads to a human.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Flag,
    /// Plain count or code.
    Count,
    /// Bytes per second.
    BytesPerS,
    /// Q0.10 fraction.
    Q10,
    /// Q16.16 bytes per clock.
    BpcQ16,
    /// Q32.16 bytes.
    CreditQ16,
    Cycles,
    Bytes,
    /// Raw bits.
    Hex,
    /// AXI response code.
    Resp,
}

/// A field's value: up to 64 bits, or a full data beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldValue {
    Scalar(u64),
    Wide([u64; DATA_WORDS]),
}

/// Static description of a field.
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    pub name: &'static str,
    /// The block it belongs to ("out" for ports).
    pub block: &'static str,
    /// Width in bits; 0 for the beat fields, whose width follows DATA_BYTES (see [`FieldInfo::bits`]).
    pub width: u32,
    pub unit: Unit,
    /// Where the register is held in the SV block of `block` (`dut.u_<block>.<sv>`, `dut.<sv>` for
    /// the top) and in the VHDL block's state record (`<vhdl>` inside the record `r`); both the
    /// field's name unless the list says otherwise. Empty for the ports and for the fields that
    /// show an entry of the trace memory (`trace_last_*`). The cosim wrappers, the shim and the
    /// testbenches are generated from these (crates/dcqcn-gen).
    pub sv: &'static str,
    pub vhdl: &'static str,
}

impl FieldInfo {
    /// Width in bits for a beat width of `data_bytes`.
    pub fn bits(&self, data_bytes: u32) -> u32 {
        match (self.width, self.name) {
            (0, "m_axis_tdata") => 8 * data_bytes,
            (0, _) => data_bytes,
            (w, _) => w,
        }
    }
}

trait ToField {
    fn to_field(&self) -> FieldValue;
}
impl ToField for bool {
    fn to_field(&self) -> FieldValue {
        FieldValue::Scalar(u64::from(*self))
    }
}
macro_rules! scalar_field {
    ($($t:ty),*) => {$(
        impl ToField for $t {
            fn to_field(&self) -> FieldValue {
                FieldValue::Scalar(u64::from(*self))
            }
        }
    )*};
}
scalar_field!(u8, u16, u32, u64);
impl ToField for [u64; DATA_WORDS] {
    fn to_field(&self) -> FieldValue {
        FieldValue::Wide(*self)
    }
}

macro_rules! snapshot {
    ($( $block:literal { $( $name:ident : $ty:ty, $width:expr, $unit:ident $(@ $sv:literal $vhdl:literal)?; )* } )*) => {
        /// Outputs of a cycle and the registers after its clock edge.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Snapshot {
            $($( pub $name: $ty, )*)*
        }

        /// Every field of [`Snapshot`], in declaration order.
        pub const FIELDS: &[FieldInfo] = &[
            $($( FieldInfo {
                name: stringify!($name),
                block: $block,
                width: $width,
                unit: Unit::$unit,
                sv: if is_port($block) { "" } else { rtl_path!(stringify!($name) $(, $sv)?) },
                vhdl: if is_port($block) { "" } else { rtl_path!(stringify!($name) $(, $vhdl)?) },
            }, )*)*
        ];

        impl Snapshot {
            /// The value of field number `idx` of [`FIELDS`].
            pub fn value(&self, idx: usize) -> FieldValue {
                let mut n = 0usize;
                $($(
                    if n == idx {
                        return self.$name.to_field();
                    }
                    n += 1;
                )*)*
                let _ = n;
                panic!("field index {idx} out of range")
            }
        }

        field_list_macro! { ($) $($($name)*)* }
    };
}

/// A field's location in the RTL: the given path, else its name.
macro_rules! rtl_path {
    ($name:expr) => {
        $name
    };
    ($name:expr, $path:literal) => {
        $path
    };
}

/// Whether `block` is the ports' pseudo-block "out" (they have no RTL location).
const fn is_port(block: &str) -> bool {
    matches!(block.as_bytes(), b"out")
}

/// Defines [`with_snapshot_fields!`] from the field names (`$d` is a `$` token, so that the
/// defined macro can have metavariables of its own).
macro_rules! field_list_macro {
    (($d:tt) $($name:ident)*) => {
        /// Calls `$m!` with the name of every field of [`Snapshot`], in declaration order, comma
        /// separated: for a type that holds the same record under the same names (the lockstep's
        /// RTL record in dcqcn-cosim), one list to convert and compare it from.
        #[macro_export]
        macro_rules! with_snapshot_fields {
            ($d m:ident) => {
                $d m! { $($name),* }
            };
        }
    };
}

// The one declaration of the comparison record. Each row: name, storage type, width in bits, unit,
// then, for a register whose RTL name is not its own, `@ "<SV path>" "<VHDL record path>"` (see
// [`FieldInfo::sv`]). `make gen` (crates/dcqcn-gen) derives from this list the bridge record, the
// shim's copy lists, the cosim wrappers' st_*/in_* ports, assignments and injection, the golden
// testbenches' field lists and the Python State type; `make gen-check` fails when one is stale.
snapshot! {
    "out" {
        s_axis_tready: bool, 1, Flag;
        m_axis_tvalid: bool, 1, Flag;
        m_axis_tdata: [u64; DATA_WORDS], 0, Hex;
        m_axis_tkeep: u64, 0, Hex;
        m_axis_tlast: bool, 1, Flag;
        s_axil_awready: bool, 1, Flag;
        s_axil_wready: bool, 1, Flag;
        s_axil_bvalid: bool, 1, Flag;
        s_axil_bresp: u8, 2, Resp;
        s_axil_arready: bool, 1, Flag;
        s_axil_rvalid: bool, 1, Flag;
        s_axil_rdata: u32, 32, Hex;
        s_axil_rresp: u8, 2, Resp;
    }
    "cnp_sync" {
        cnp_meta: bool, 1, Flag;
        cnp_sync: bool, 1, Flag;
        cnp_prev: bool, 1, Flag;
    }
    "top" {
        rc: u32, 32, BytesPerS;
        rt: u32, 32, BytesPerS;
        active: bool, 1, Flag;
    }
    "alpha" {
        alpha: u16, 10, Q10;
        alpha_timer: u16, 16, Cycles;
        alpha_pending: bool, 1, Flag;
    }
    "rate_dec" {
        dec_timer: u16, 16, Cycles;
        dec_pending: bool, 1, Flag;
    }
    "rate_inc" {
        inc_timer: u32, 32, Cycles;
        byte_cnt: u32, 32, Bytes;
        t_stage: u8, 8, Count;
        b_stage: u8, 8, Count;
    }
    "credit_gate" {
        bpc: u32, 32, BpcQ16;
        credit: u64, 48, CreditQ16;
    }
    "regs" {
        // BEGIN GENERATED cfg-base: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
        cfg_alpha_g: u16, 10, Q10 @ "r.config_word.alpha_g" "cfg.alpha_g";
        cfg_dec_gain: u8, 4, Count @ "r.config_word.dec_gain" "cfg.dec_gain";
        cfg_stage_threshold: u8, 8, Count @ "r.config_word.stage_threshold" "cfg.stage_threshold";
        cfg_clamp_tgt: bool, 1, Flag @ "r.config_word.clamp_tgt" "cfg.clamp_tgt";
        cfg_rai: u32, 32, BytesPerS @ "r.rai" "cfg.rai";
        cfg_rhai: u32, 32, BytesPerS @ "r.rhai" "cfg.rhai";
        cfg_rmin: u32, 32, BytesPerS @ "r.rmin" "cfg.rmin";
        cfg_inc_interval: u32, 32, Cycles @ "r.inc_interval" "cfg.inc_interval";
        cfg_dec_interval: u16, 16, Cycles @ "r.intervals.dec_interval" "cfg.dec_interval";
        cfg_alpha_interval: u16, 16, Cycles @ "r.intervals.alpha_interval" "cfg.alpha_interval";
        cfg_bypass: bool, 1, Flag @ "r.bypass.bypass" "cfg.bypass";
        cfg_timer_en: bool, 1, Flag @ "r.ext_ctrl.timer_en" "cfg.timer_en";
        cfg_byte_en: bool, 1, Flag @ "r.ext_ctrl.byte_en" "cfg.byte_en";
        cfg_byte_threshold: u32, 32, Bytes @ "r.byte_threshold" "cfg.byte_threshold";
        cfg_credit_cap: u32, 32, Bytes @ "r.credit_cap" "cfg.credit_cap";
        // END GENERATED cfg-base
        cnp_cnt16: u16, 16, Count @ "r.cnp_cnt16" "cnt.cnp_cnt16";
        cnt_cnp: u32, 32, Count @ "r.stats.cnt_cnp" "cnt.cnt_cnp";
        cnt_dec: u32, 32, Count @ "r.stats.cnt_dec" "cnt.cnt_dec";
        cnt_inc_fr: u32, 32, Count @ "r.stats.cnt_inc_fr" "cnt.cnt_inc_fr";
        cnt_inc_ai: u32, 32, Count @ "r.stats.cnt_inc_ai" "cnt.cnt_inc_ai";
        cnt_inc_hai: u32, 32, Count @ "r.stats.cnt_inc_hai" "cnt.cnt_inc_hai";
        cnt_inc_timer: u32, 32, Count @ "r.stats.cnt_inc_timer" "cnt.cnt_inc_timer";
        cnt_inc_byte: u32, 32, Count @ "r.stats.cnt_inc_byte" "cnt.cnt_inc_byte";
        cnt_stall: u32, 32, Count @ "r.stats.cnt_stall" "cnt.cnt_stall";
        cnt_bytes: u64, 64, Bytes @ "r.stats.cnt_bytes" "cnt.cnt_bytes";
        bytes_hi: u32, 32, Hex @ "r.stats.bytes_hi" "cnt.bytes_hi";
    }
    // The extension rate rules (0x150-0x158) and the control scheme (0x15C-0x160), after every
    // field of golden format 1, which holds the first [`GOLDEN_V1_FIELDS`] fields.
    "regs" {
        // BEGIN GENERATED cfg-rate_rules: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
        cfg_rmax: u32, 32, BytesPerS @ "r.rmax" "cfg.rmax";
        cfg_rate_first_cnp: u32, 32, BytesPerS @ "r.rate_first_cnp" "cfg.rate_first_cnp";
        cfg_alpha_init: u16, 10, Q10 @ "r.rate_rules.alpha_init" "cfg.alpha_init";
        cfg_min_dec_fac: u16, 11, Q10 @ "r.rate_rules.min_dec_fac" "cfg.min_dec_fac";
        cfg_hai_mult: bool, 1, Flag @ "r.rate_rules.hai_mult" "cfg.hai_mult";
        // END GENERATED cfg-rate_rules
        // BEGIN GENERATED cfg-control: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
        cfg_scheme: u8, 2, Count @ "r.control.scheme" "cfg.scheme";
        cfg_gate_mask: bool, 1, Flag @ "r.control.gate_mask" "cfg.gate_mask";
        cfg_fw_rate: u32, 32, BytesPerS @ "r.fw_rate" "cfg.fw_rate";
        // END GENERATED cfg-control
    }
    // The event trace (0x170-0x18C, spec 4.10); its storage through the most recent entry (spec 7).
    "regs" {
        // BEGIN GENERATED cfg-trace: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
        cfg_trace_en: bool, 1, Flag @ "r.trace_ctrl.trace_en" "trace_cfg.trace_en";
        cfg_trace_wrap: bool, 1, Flag @ "r.trace_ctrl.trace_wrap" "trace_cfg.trace_wrap";
        cfg_trace_sel: u8, 6, Count @ "r.trace_sel.trace_sel" "trace_cfg.trace_sel";
        // END GENERATED cfg-trace
        trace_count: u8, 7, Count @ "r.trace.count" "trace.count";
        trace_wptr: u8, 6, Count @ "r.trace.wptr" "trace.wptr";
        trace_lost: bool, 1, Flag @ "r.trace.lost" "trace.lost";
        trace_time: u32, 32, Cycles @ "r.trace.time_" "trace.time";
        trace_n_dec: u16, 10, Count @ "r.trace.n_dec" "trace.n_dec";
        trace_n_byte: u16, 10, Count @ "r.trace.n_byte" "trace.n_byte";
        trace_n_timer: u16, 10, Count @ "r.trace.n_timer" "trace.n_timer";
        trace_last_type: u8, 4, Hex @ "" "";
        trace_last_rc: u32, 32, BytesPerS @ "" "";
        trace_last_stamp: u32, 32, Cycles @ "" "";
    }
    // The configuration registers of every other feature of the map, after everything above.
    "regs" {
        // BEGIN GENERATED cfg-other: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
        // END GENERATED cfg-other
    }
}

/// How many leading fields of [`FIELDS`] golden format version 1 holds (docs/golden-format.md):
/// every field up to `bytes_hi`. The extension rate rules that follow are compared by the
/// lockstep; a golden set's testbench sees them through the register file only.
pub const GOLDEN_V1_FIELDS: usize = 56;

impl Snapshot {
    /// The model's record: `out` of the cycle and `s`, the registers after its edge.
    pub fn from_model(out: &Outputs, s: &State) -> Snapshot {
        let c = &s.regs.cfg;
        let n = &s.regs.cnt;
        let t = &s.regs.trace;
        let last = t.last();
        Snapshot {
            s_axis_tready: out.s_axis_tready,
            m_axis_tvalid: out.m_axis_tvalid,
            m_axis_tdata: out.m_axis_tdata,
            m_axis_tkeep: out.m_axis_tkeep,
            m_axis_tlast: out.m_axis_tlast,
            s_axil_awready: out.s_axil_awready,
            s_axil_wready: out.s_axil_wready,
            s_axil_bvalid: out.s_axil_bvalid,
            s_axil_bresp: out.s_axil_bresp,
            s_axil_arready: out.s_axil_arready,
            s_axil_rvalid: out.s_axil_rvalid,
            s_axil_rdata: out.s_axil_rdata,
            s_axil_rresp: out.s_axil_rresp,
            cnp_meta: s.cnp.cnp_meta,
            cnp_sync: s.cnp.cnp_sync,
            cnp_prev: s.cnp.cnp_prev,
            rc: s.rc,
            rt: s.rt,
            active: s.active,
            alpha: s.alpha.alpha,
            alpha_timer: s.alpha.alpha_timer,
            alpha_pending: s.alpha.alpha_pending,
            dec_timer: s.dec.dec_timer,
            dec_pending: s.dec.dec_pending,
            inc_timer: s.inc.inc_timer,
            byte_cnt: s.inc.byte_cnt,
            t_stage: s.inc.t_stage,
            b_stage: s.inc.b_stage,
            bpc: s.gate.bpc,
            credit: s.gate.credit,
            // BEGIN GENERATED cfg-from: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
            cfg_alpha_g: c.alpha_g,
            cfg_dec_gain: c.dec_gain,
            cfg_stage_threshold: c.stage_threshold,
            cfg_clamp_tgt: c.clamp_tgt,
            cfg_rai: c.rai,
            cfg_rhai: c.rhai,
            cfg_rmin: c.rmin,
            cfg_inc_interval: c.inc_interval,
            cfg_dec_interval: c.dec_interval,
            cfg_alpha_interval: c.alpha_interval,
            cfg_bypass: c.bypass,
            cfg_timer_en: c.timer_en,
            cfg_byte_en: c.byte_en,
            cfg_byte_threshold: c.byte_threshold,
            cfg_credit_cap: c.credit_cap,
            cfg_rmax: c.rmax,
            cfg_rate_first_cnp: c.rate_first_cnp,
            cfg_alpha_init: c.alpha_init,
            cfg_min_dec_fac: c.min_dec_fac,
            cfg_hai_mult: c.hai_mult,
            cfg_scheme: c.scheme,
            cfg_gate_mask: c.gate_mask,
            cfg_fw_rate: c.fw_rate,
            cfg_trace_en: c.trace_en,
            cfg_trace_wrap: c.trace_wrap,
            cfg_trace_sel: c.trace_sel,
            // END GENERATED cfg-from
            cnp_cnt16: n.cnp_cnt16,
            cnt_cnp: n.cnt_cnp,
            cnt_dec: n.cnt_dec,
            cnt_inc_fr: n.cnt_inc_fr,
            cnt_inc_ai: n.cnt_inc_ai,
            cnt_inc_hai: n.cnt_inc_hai,
            cnt_inc_timer: n.cnt_inc_timer,
            cnt_inc_byte: n.cnt_inc_byte,
            cnt_stall: n.cnt_stall,
            cnt_bytes: n.cnt_bytes,
            bytes_hi: n.bytes_hi,
            trace_count: t.count,
            trace_wptr: t.wptr,
            trace_lost: t.lost,
            trace_time: t.time,
            trace_n_dec: t.n_dec,
            trace_n_byte: t.n_byte,
            trace_n_timer: t.n_timer,
            trace_last_type: last.kind,
            trace_last_rc: last.rc,
            trace_last_stamp: last.stamp,
        }
    }

    /// Whether every register after the edge matches (the port outputs, block "out", aside).
    pub fn same_registers(&self, other: &Snapshot) -> bool {
        (0..FIELDS.len()).all(|i| FIELDS[i].block == "out" || self.value(i) == other.value(i))
    }

    /// Indices into [`FIELDS`] of the fields that differ, in declaration order.
    pub fn diff(&self, other: &Snapshot) -> Vec<usize> {
        (0..FIELDS.len())
            .filter(|&i| self.value(i) != other.value(i))
            .collect()
    }
}

/// The value in hex, at the field's width (`data_bytes` sizes the data beat).
pub fn hex(v: &FieldValue, info: &FieldInfo, data_bytes: u32) -> String {
    match v {
        FieldValue::Scalar(x) => {
            let digits = info.bits(data_bytes).div_ceil(4).max(1) as usize;
            format!("0x{x:0digits$x}")
        }
        FieldValue::Wide(w) => {
            let words = (data_bytes as usize).div_ceil(8);
            let mut s = String::from("0x");
            for (n, word) in w[..words].iter().enumerate().rev() {
                if n + 1 == words && !data_bytes.is_multiple_of(8) {
                    let digits = (data_bytes % 8) as usize * 2;
                    s.push_str(&format!(
                        "{:0digits$x}",
                        word & ((1u64 << (8 * (data_bytes % 8))) - 1)
                    ));
                } else {
                    s.push_str(&format!("{word:016x}"));
                }
            }
            s
        }
    }
}

/// The value decoded in the field's unit, e.g. `625610352 B/s (5.0049 Gb/s)`.
pub fn decode(v: &FieldValue, info: &FieldInfo, clk_hz: u32) -> String {
    let x = match v {
        FieldValue::Scalar(x) => *x,
        FieldValue::Wide(_) => return "data".into(),
    };
    match info.unit {
        Unit::Flag => (if x != 0 { "1" } else { "0" }).into(),
        Unit::Count => format!("{x}"),
        Unit::BytesPerS => format!("{x} B/s ({:.4} Gb/s)", x as f64 * 8.0 / 1e9),
        Unit::Q10 => format!("{x}/1024 ({:.4})", x as f64 / 1024.0),
        Unit::BpcQ16 => format!(
            "{:.6} B/clk ({:.4} Gb/s)",
            x as f64 / 65536.0,
            x as f64 / 65536.0 * 8.0 * f64::from(clk_hz) / 1e9
        ),
        Unit::CreditQ16 => format!("{:.6} B", x as f64 / 65536.0),
        Unit::Cycles => format!("{x} cycles ({:.3} us)", x as f64 * 1e6 / f64::from(clk_hz)),
        Unit::Bytes => format!("{x} B"),
        Unit::Hex => format!("{x}"),
        Unit::Resp => match x {
            0 => "OKAY".into(),
            1 => "EXOKAY".into(),
            2 => "SLVERR".into(),
            _ => "DECERR".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Params, RateLimiter};

    #[test]
    fn field_table_matches_struct() {
        let mut a = Snapshot::default();
        let b = Snapshot::default();
        assert!(a.diff(&b).is_empty());
        a.rc = 5;
        a.cnt_bytes = 1;
        let d: Vec<&str> = a.diff(&b).into_iter().map(|i| FIELDS[i].name).collect();
        assert_eq!(d, vec!["rc", "cnt_bytes"]);
    }

    /// One name per register: the configuration register `cfg_X` of the RTL and the comparison
    /// record is the field `X` of [`crate::Config`] (the struct is the `cfg_` prefix), with the
    /// same width, each once. The record lists them by feature (the map's words of no feature
    /// first, those of a feature added later at its end, so that golden format 1 keeps its
    /// fields), the map by address: the two lists are compared sorted.
    #[test]
    fn config_fields_are_the_cfg_registers() {
        let mut cfg: Vec<(String, u32)> = FIELDS
            .iter()
            .filter_map(|f| Some((f.name.strip_prefix("cfg_")?.to_string(), f.width)))
            .collect();
        let mut config: Vec<(String, u32)> = crate::config::FIELD_WIDTHS
            .iter()
            .map(|(n, w)| (n.to_string(), *w))
            .collect();
        cfg.sort();
        config.sort();
        assert_eq!(cfg, config);
        // each once: a register listed twice in the record would leave the sorted lists equal
        // only if the map listed it twice too, which the generator refuses
        cfg.dedup();
        assert_eq!(cfg.len(), config.len());
        let c = crate::Config::reset(&Params::DEFAULT);
        let s = RateLimiter::new(Params::DEFAULT).snapshot(&Default::default());
        assert_eq!((s.cfg_alpha_g, s.cfg_credit_cap), (c.alpha_g, c.credit_cap));
    }

    #[test]
    fn golden_v1_fields_end_at_bytes_hi() {
        assert_eq!(FIELDS[GOLDEN_V1_FIELDS - 1].name, "bytes_hi");
        assert_eq!(FIELDS[GOLDEN_V1_FIELDS].name, "cfg_rmax");
    }

    #[test]
    fn decode_and_hex() {
        let i = FIELDS.iter().position(|f| f.name == "rc").unwrap();
        let r = RateLimiter::new(Params::DEFAULT);
        let s = r.snapshot(&Default::default());
        assert_eq!(hex(&s.value(i), &FIELDS[i], 8), "0x4a817c80");
        assert_eq!(
            decode(&s.value(i), &FIELDS[i], 156_250_000),
            "1250000000 B/s (10.0000 Gb/s)"
        );
    }
}
