//! Derives every hand-written copy of the comparison record (spec 7) from its one declaration, the
//! `snapshot!` list of `crates/dcqcn-model/src/snapshot.rs` (read here as [`FIELDS`]).
//!
//! Each derived copy sits in a file between two marker comments,
//! `BEGIN GENERATED <tag>` and `END GENERATED <tag>`; the lines between them are this crate's
//! output and nothing else. [`regions`] lists every (file, tag, text); [`splice`] puts a text
//! between the markers of one tag. `make gen` writes them, `make gen-check` (part of `make test`)
//! fails when a committed file differs.
//!
//! The configuration registers' reset values in the SV and the VHDL and the Python `Config` type join
//! this list with the register map: the fields of `regmap/dcqcn_regs.json` (exported from
//! `regmap/dcqcn_regs.rdl` by `scripts/regmap_gen.py`) whose `state` names a `cfg_*` register.
//! The register map's other copies (addresses, C header, PyRogue device, Rust regmap) are
//! `scripts/regmap_gen.py`'s own.

use dcqcn_model::snapshot::{FieldInfo, FIELDS, GOLDEN_V1_FIELDS};
use dcqcn_model::DATA_WORDS;
use std::fmt::Write as _;

/// The files that hold generated regions, relative to the repository root.
pub const FFI: &str = "crates/dcqcn-cosim/src/ffi.rs";
pub const SHIM: &str = "crates/dcqcn-cosim/shim/dcqcn_shim.cpp";
pub const SV_TOP: &str = "verilator/dcqcn_cosim_top.sv";
pub const VHDL_TOP: &str = "testbench/vhdl/dcqcn_cosim_top_vhdl.vhd";
pub const VHDL_TAP: &str = "testbench/vhdl/dcqcn_cosim_top_tap.vhd";
pub const TB_VHDL: &str = "testbench/vhdl/tb_golden.vhd";
pub const PY_TYPES: &str = "crates/dcqcn-py/python/dcqcn_model/_types.py";
pub const SV_REGS: &str = "rtl/dcqcn_regs.sv";
pub const VHDL_REGS: &str = "rtl/vhdl/dcqcn_regs.vhd";
/// The register map's JSON export, read for the reset values.
pub const REGMAP_JSON: &str = "regmap/dcqcn_regs.json";

/// The part of the register map's JSON export the reset values need.
#[derive(Debug, serde::Deserialize)]
pub struct RegMap {
    pub words: Vec<Word>,
}

#[derive(Debug, serde::Deserialize)]
pub struct Word {
    pub name: String,
    pub fields: Vec<MapField>,
}

#[derive(Debug, serde::Deserialize)]
pub struct MapField {
    pub name: String,
    pub width: u32,
    pub access: String,
    pub reset: u64,
    pub reset_param: Option<String>,
    pub state: Option<String>,
}

/// A configuration register: its snapshot field (`cfg_<name>`) and its register-map field.
struct CfgReg<'a> {
    info: &'static FieldInfo,
    map: &'a MapField,
}

/// The configuration registers in snapshot order: every snapshot register named `cfg_*`, each
/// with the one register-map field whose `state` names it.
fn cfg_regs(map: &RegMap) -> Result<Vec<CfgReg<'_>>, GenError> {
    registers()
        .filter(|f| f.name.starts_with("cfg_"))
        .map(|info| {
            let found: Vec<&MapField> = map
                .words
                .iter()
                .flat_map(|w| &w.fields)
                .filter(|m| m.state.as_deref() == Some(info.name))
                .collect();
            match found.as_slice() {
                [m] if m.access == "RW" && m.width == info.width => Ok(CfgReg { info, map: m }),
                [m] => Err(GenError::Map(format!(
                    "field `{}` shows `{}` but is {} bits {} (the snapshot: {} bits, RW)",
                    m.name, info.name, m.width, m.access, info.width
                ))),
                _ => Err(GenError::Map(format!(
                    "{} fields have `state = \"{}\"` (a configuration register needs one)",
                    found.len(),
                    info.name
                ))),
            }
        })
        .collect()
}

/// The name of a configuration register in the model's `Config` and the HDL records.
fn cfg_name(f: &FieldInfo) -> &'static str {
    f.name.strip_prefix("cfg_").unwrap_or(f.name)
}

/// A decimal with `_` every three digits (Rust, SV and VHDL all read it).
fn grouped(v: u64) -> String {
    let d = v.to_string();
    if d.len() <= 4 {
        return d;
    }
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// A reset parameter's expression in each HDL: (SV, VHDL).
fn reset_param(name: &str) -> Result<(&'static str, &'static str), GenError> {
    match name {
        "RATE_INC_RESET" => Ok(("RATE_INC_RESET", "dcqcn_rate_inc_reset(CLK_FREQ_HZ)")),
        "RATE_DEC_RESET" => Ok(("RATE_DEC_RESET", "dcqcn_rate_dec_reset(CLK_FREQ_HZ)")),
        "ALPHA_RESET" => Ok(("ALPHA_RESET", "dcqcn_alpha_reset(CLK_FREQ_HZ)")),
        other => Err(GenError::Map(format!(
            "reset_param `{other}` of a configuration register has no HDL expression here"
        ))),
    }
}

/// The SV reset record's configuration fields (the rest of `r_init` is 0).
fn sv_reset(map: &RegMap) -> Result<String, GenError> {
    let regs = cfg_regs(map)?;
    let target = |c: &CfgReg| format!("r_init.{}", c.info.sv.trim_start_matches("r."));
    let n = regs.iter().map(|c| target(c).len()).max().unwrap_or(0);
    let mut s = String::new();
    let mut zero = Vec::new();
    for c in &regs {
        let v = match &c.map.reset_param {
            Some(p) => reset_param(p)?.0.to_string(),
            None if c.map.reset == 0 => {
                zero.push(cfg_name(c.info));
                continue;
            }
            None if c.info.width == 1 => "1'b1".into(),
            None => format!("{}'d{}", c.info.width, grouped(c.map.reset)),
        };
        writeln!(s, "        {:<n$} = {v};", target(c)).unwrap();
    }
    let mut line = String::from("        // 0:");
    for (i, z) in zero.iter().enumerate() {
        let sep = if i + 1 < zero.len() { "," } else { "" };
        if line.len() + z.len() + 2 > 100 {
            writeln!(s, "{line}").unwrap();
            line = String::from("        //");
        }
        write!(line, " {z}{sep}").unwrap();
    }
    writeln!(s, "{line}").unwrap();
    Ok(s)
}

/// The VHDL reset aggregates of the configuration records: `record` is the record path's first
/// part (`cfg`, `trace_cfg`).
fn vhdl_reset(map: &RegMap, record: &str) -> Result<String, GenError> {
    let regs: Vec<_> = cfg_regs(map)?
        .into_iter()
        .filter(|c| c.info.vhdl.split('.').next() == Some(record))
        .collect();
    let n = regs
        .iter()
        .map(|c| cfg_name(c.info).len())
        .max()
        .unwrap_or(0);
    let mut s = String::new();
    for (i, c) in regs.iter().enumerate() {
        let v = match (&c.map.reset_param, c.info.width, c.map.reset) {
            (Some(p), _, _) => reset_param(p)?.1.to_string(),
            (None, 1, r) => format!("'{}'", r & 1),
            (None, _, 0) => "(others => '0')".into(),
            (None, w, r) => format!("to_unsigned({}, {w})", grouped(r)),
        };
        let end = if i + 1 < regs.len() { "," } else { ");" };
        writeln!(s, "    {:<n$} => {v}{end}", cfg_name(c.info)).unwrap();
    }
    Ok(s)
}

/// The Python Config type's keys, in the map's order (the order of `Model.config`, which is
/// `Config::values`'): the comparison record groups them by feature instead.
fn py_config() -> String {
    dcqcn_model::regmap::CONFIG_FIELDS
        .iter()
        .map(|(name, _)| format!("    {name}: int\n"))
        .collect()
}

/// A generated region: the text between the markers of `tag` in `file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub file: &'static str,
    pub tag: &'static str,
    pub text: String,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenError {
    #[error("{file}: no line with `BEGIN GENERATED {tag}`")]
    NoBegin { file: String, tag: String },
    #[error(
        "{file}: `BEGIN GENERATED {tag}` at line {line} has no `END GENERATED {tag}` after it"
    )]
    NoEnd {
        file: String,
        tag: String,
        line: usize,
    },
    #[error("{file}: `BEGIN GENERATED {tag}` appears twice (lines {first} and {second})")]
    Twice {
        file: String,
        tag: String,
        first: usize,
        second: usize,
    },
    #[error("{REGMAP_JSON}: {0}")]
    Map(String),
}

/// The trace entry's bit ranges (spec 4.10) of the fields that show the most recent entry.
const TRACE_LAST: [(&str, u32, u32); 3] = [
    ("trace_last_type", 3, 0),
    ("trace_last_rc", 35, 4),
    ("trace_last_stamp", 67, 36),
];

/// Registers the wrappers declare as one-bit vectors (as they did before this list was derived).
const ONE_BIT_VECTORS: [&str; 1] = ["cnp_meta"];

fn ports() -> impl Iterator<Item = &'static FieldInfo> {
    FIELDS.iter().filter(|f| f.block == "out")
}

fn registers() -> impl Iterator<Item = &'static FieldInfo> {
    FIELDS.iter().filter(|f| f.block != "out")
}

/// The registers the RTL holds in a register of their own (every one but the `trace_last_*`
/// fields, which show an entry of the trace memory): the ones injected through `in_*` ports.
fn held_registers() -> impl Iterator<Item = &'static FieldInfo> {
    registers().filter(|f| trace_last(f).is_none())
}

/// Whether register `f` is among the fields of golden format 1 (the testbenches' port list).
fn in_v1(f: &FieldInfo) -> bool {
    // FIELDS is a slice of statics: `f` is one of its elements, so its index is its offset.
    FIELDS[..GOLDEN_V1_FIELDS]
        .iter()
        .any(|g| std::ptr::eq(g, f))
}

/// Whether register `f` shows an entry of the trace memory rather than a register of its own.
fn trace_last(f: &FieldInfo) -> Option<(u32, u32)> {
    TRACE_LAST
        .iter()
        .find(|t| t.0 == f.name)
        .map(|t| (t.1, t.2))
}

/// Storage bits of a register in the bridge record and in the Verilated model (8, 16, 32, 64).
fn storage_bits(width: u32) -> u32 {
    match width {
        0..=8 => 8,
        9..=16 => 16,
        17..=32 => 32,
        _ => 64,
    }
}

fn sv_range(f: &FieldInfo) -> String {
    if f.width == 1 && !ONE_BIT_VECTORS.contains(&f.name) {
        String::new()
    } else {
        format!("[{}:0]", f.width - 1)
    }
}

fn vhdl_type(f: &FieldInfo) -> String {
    if f.width == 1 && !ONE_BIT_VECTORS.contains(&f.name) {
        "std_logic".into()
    } else {
        format!("std_logic_vector({} downto 0)", f.width - 1)
    }
}

/// The SV hierarchical path of register `f` below the wrapper.
fn sv_path(f: &FieldInfo) -> String {
    match f.block {
        "top" => format!("dut.{}", f.sv),
        b => format!("dut.u_{b}.{}", f.sv),
    }
}

/// The VHDL expression of register `f` as a port value, from the record named `record(block)`.
fn vhdl_value(f: &FieldInfo, record: &dyn Fn(&str) -> String) -> String {
    let v = format!("{}.{}", record(f.block), f.vhdl);
    if ONE_BIT_VECTORS.contains(&f.name) {
        format!("(0 => {v})")
    } else if f.width == 1 {
        v
    } else {
        format!("std_logic_vector({v})")
    }
}

/// The bridge record `Sample` (ffi.rs): the ports, then the registers in four runs by storage
/// width, each in declaration order (the order of the wrapper's st_* ports).
fn ffi_sample() -> String {
    let mut s = String::new();
    for f in ports() {
        let ty = match (f.width, f.name) {
            (0, "m_axis_tdata") => format!("[u64; {DATA_WORDS}]"),
            (0, _) => "u64".into(),
            (1, _) => "bool".into(),
            (w, _) => format!("u{}", storage_bits(w)),
        };
        writeln!(s, "        {}: {ty},", f.name).unwrap();
    }
    for bits in [8, 16, 32, 64] {
        writeln!(s, "        // {bits}-bit registers").unwrap();
        for f in registers().filter(|f| storage_bits(f.width) == bits) {
            writeln!(s, "        {}: u{bits},", f.name).unwrap();
        }
    }
    s
}

/// The shim's X-macro lists: the port outputs besides the data beat, and the registers by width.
fn shim_lists() -> String {
    let mut s = String::new();
    let list = |s: &mut String, name: &str, items: Vec<&str>| {
        writeln!(s, "#define {name}(X) \\").unwrap();
        let n = items.len();
        for (i, it) in items.into_iter().enumerate() {
            let cont = if i + 1 < n { " \\" } else { "" };
            writeln!(s, "    X({it}){cont}").unwrap();
        }
    };
    list(
        &mut s,
        "DCQCN_PORT_OUTPUTS",
        ports()
            .filter(|f| f.name != "m_axis_tdata")
            .map(|f| f.name)
            .collect(),
    );
    writeln!(
        s,
        "// The registers by width, in the order the wrapper declares its st_ ports and Sample lists them."
    )
    .unwrap();
    for bits in [8, 16, 32, 64] {
        list(
            &mut s,
            &format!("DCQCN_REGISTERS_{bits}"),
            registers()
                .filter(|f| storage_bits(f.width) == bits)
                .map(|f| f.name)
                .collect(),
        );
    }
    s
}

/// The shim's injection: every register held in the RTL from its field of `Sample`, cut to its width.
fn shim_inject() -> String {
    let mut s = String::new();
    for f in held_registers() {
        let cut = if f.width > 1 && f.width < storage_bits(f.width) {
            format!(" & 0x{:X}", (1u64 << f.width) - 1)
        } else {
            String::new()
        };
        writeln!(s, "        t->in_{0} = st.{0}{cut};", f.name).unwrap();
    }
    s
}

/// The SV wrapper's st_* ports (golden format 1's unconditionally, the rest in lockstep builds)
/// and, in lockstep builds, the injection ports.
fn sv_ports() -> String {
    let mut s = String::new();
    let v1: Vec<_> = registers().filter(|f| in_v1(f)).collect();
    let mut block = "";
    for (i, f) in v1.iter().enumerate() {
        if f.block != block {
            block = f.block;
            writeln!(s, "\n    /* spec 7, {block} */").unwrap();
        }
        let comma = if i + 1 < v1.len() { "," } else { "" };
        writeln!(
            s,
            "    output logic {:<8} st_{}{comma}",
            sv_range(f),
            f.name
        )
        .unwrap();
    }
    writeln!(s, "`ifdef DCQCN_INJECT").unwrap();
    writeln!(
        s,
        "\n    /* spec 7, the registers after golden format 1's fields: lockstep builds only, so that\n       the golden-format-1 testbenches keep their port list */"
    )
    .unwrap();
    for f in registers().filter(|f| !in_v1(f)) {
        writeln!(s, "  , output logic {:<8} st_{}", sv_range(f), f.name).unwrap();
    }
    writeln!(
        s,
        "\n    /* state injection (spec 4.8): at a rising edge of inj_clk (clk held still) every register of\n       spec 7 takes the value of its in_* port; in_* and inj_clk are not used otherwise */"
    )
    .unwrap();
    writeln!(s, "  , input  wire logic                    inj_clk").unwrap();
    let input = |s: &mut String, range: &str, name: &str| {
        writeln!(s, "  , input  wire logic {range:<20} in_{name}").unwrap();
    };
    for f in held_registers() {
        let r = if f.width == 1 {
            String::new()
        } else {
            format!("[{}:0]", f.width - 1)
        };
        input(&mut s, &r, f.name);
    }
    writeln!(
        s,
        "    // the output register of credit_gate (spec 4.6): the m_axis_* outputs' registers"
    )
    .unwrap();
    input(&mut s, "", "m_valid");
    input(&mut s, "[8*DATA_BYTES-1:0]", "m_data");
    input(&mut s, "[DATA_BYTES-1:0]", "m_keep");
    input(&mut s, "", "m_last");
    writeln!(
        s,
        "    // trace_mem: entry i at bits [68i+67:68i] (type [2:0], both [3], rc [35:4], stamp [67:36])"
    )
    .unwrap();
    input(&mut s, "[64*68-1:0]", "trace_mem");
    writeln!(
        s,
        "    // the AXI4-Lite response registers (the s_axil_b*/r* outputs)"
    )
    .unwrap();
    input(&mut s, "", "bvalid");
    input(&mut s, "[1:0]", "bresp");
    input(&mut s, "", "rvalid");
    input(&mut s, "[31:0]", "rdata");
    input(&mut s, "[1:0]", "rresp");
    writeln!(s, "`endif").unwrap();
    s
}

/// The SV wrapper's st_* assignments by hierarchical reference.
fn sv_assign() -> String {
    let mut s = String::new();
    let mut inject_open = false;
    let mut trace_last_done = false;
    for f in registers() {
        if !in_v1(f) && !inject_open {
            writeln!(s, "`ifdef DCQCN_INJECT").unwrap();
            inject_open = true;
        }
        let value = match trace_last(f) {
            Some((hi, lo)) => {
                if !trace_last_done {
                    s.push_str(
                        "    // spec 7: the most recent entry, 0 while the window is empty\n\
                         \x20   logic [67:0] trace_last;\n\
                         \x20   assign trace_last = (dut.u_regs.r.trace.count == 7'd0) ? 68'd0\n\
                         \x20                     : dut.u_regs.trace_mem[dut.u_regs.r.trace.wptr - 6'd1];\n",
                    );
                    trace_last_done = true;
                }
                format!("trace_last[{hi}:{lo}]")
            }
            None => sv_path(f),
        };
        writeln!(s, "    assign {:<25} = {value};", format!("st_{}", f.name)).unwrap();
    }
    if inject_open {
        writeln!(s, "`endif").unwrap();
    }
    s
}

/// The SV wrapper's injection: every register from its in_* port. The record r of dcqcn_regs is
/// cleared first so that its reserved and write-only bits are 0, as after a reset.
fn sv_inject() -> String {
    let mut s = String::new();
    let line = |s: &mut String, target: &str, value: &str| {
        writeln!(s, "        {target:<36} <= {value};").unwrap();
    };
    let regs_cleared = |s: &mut String| line(s, "dut.u_regs.r", "'0");
    let mut cleared = false;
    for f in held_registers() {
        if f.block == "regs" && !cleared {
            line(&mut s, "dut.u_credit_gate.m_valid", "in_m_valid");
            line(&mut s, "dut.u_credit_gate.m_data", "in_m_data");
            line(&mut s, "dut.u_credit_gate.m_keep", "in_m_keep");
            line(&mut s, "dut.u_credit_gate.m_last", "in_m_last");
            regs_cleared(&mut s);
            cleared = true;
        }
        line(&mut s, &sv_path(f), &format!("in_{}", f.name));
    }
    s.push_str(
        "        for (int i = 0; i < 64; i++) begin\n\
         \x20           dut.u_regs.trace_mem[i]          <= in_trace_mem[68*i +: 68];\n\
         \x20       end\n",
    );
    for (reg, port) in [
        ("bvalid", "bvalid"),
        ("bresp", "bresp"),
        ("rvalid", "rvalid"),
        ("rdata", "rdata"),
        ("rresp", "rresp"),
    ] {
        line(
            &mut s,
            &format!("dut.u_regs.r.{reg}"),
            &format!("in_{port}"),
        );
    }
    s
}

/// The VHDL wrapper's st_* ports, as the entity (`component` false: every register, the VHDL
/// wrapper is not built for the golden-format-1 testbenches' fixed port list) or as the golden
/// testbench's component declaration of it (`component` true: golden format 1's registers only,
/// the ones it compares, as the SV wrapper declares them outside lockstep builds, so that the
/// component binds to the netlist of that wrapper as well as to the VHDL wrapper).
fn vhdl_ports(component: bool) -> String {
    let mut s = String::new();
    let regs: Vec<_> = registers().filter(|f| !component || in_v1(f)).collect();
    let mut block = "";
    for (i, f) in regs.iter().enumerate() {
        let semi = if i + 1 < regs.len() { ";" } else { "" };
        let st = format!("st_{}", f.name);
        if component {
            writeln!(s, "      {st:<22} : out {}{semi}", vhdl_type(f)).unwrap();
            continue;
        }
        if f.block != block {
            block = f.block;
            writeln!(s, "    -- spec 7, {block}").unwrap();
        }
        writeln!(s, "    {st:<22} : out   {}{semi}", vhdl_type(f)).unwrap();
    }
    s
}

/// The VHDL wrapper's st_* assignments from the records named by `record(block)`, the trace memory
/// `mem` and the trace record path `trace`.
fn vhdl_assign(indent: &str, record: &dyn Fn(&str) -> String, mem: &str) -> String {
    let mut s = String::new();
    let mut tail = String::new();
    for f in registers() {
        match trace_last(f) {
            Some((hi, lo)) => {
                if tail.is_empty() {
                    let t = format!("{}.trace", record("regs"));
                    writeln!(
                        tail,
                        "{indent}-- spec 7: the most recent entry, 0 while the window is empty"
                    )
                    .unwrap();
                    writeln!(
                        tail,
                        "{indent}trace_last          <= (others => '0') when {t}.count = 0 else"
                    )
                    .unwrap();
                    writeln!(
                        tail,
                        "{indent}                       {mem}(to_integer({t}.wptr - 1));"
                    )
                    .unwrap();
                }
                writeln!(
                    tail,
                    "{indent}{:<19} <= trace_last({hi} downto {lo});",
                    format!("st_{}", f.name)
                )
                .unwrap();
            }
            None => {
                writeln!(
                    s,
                    "{indent}{:<22} <= {};",
                    format!("st_{}", f.name),
                    vhdl_value(f, record)
                )
                .unwrap();
            }
        }
    }
    s + &tail
}

fn vhdl_ext_names_record(block: &str) -> String {
    match block {
        "top" => "rl_r".into(),
        b => format!("{b}_r"),
    }
}

fn vhdl_tap_record(block: &str) -> String {
    match block {
        "top" => "tap_rl".into(),
        b => format!("tap_{b}"),
    }
}

/// The Python State type's register keys.
fn py_state() -> String {
    registers()
        .map(|f| format!("    {}: int\n", f.name))
        .collect()
}

/// Every generated region, in file order; `map` is the register map's JSON export.
pub fn regions(map: &RegMap) -> Result<Vec<Region>, GenError> {
    let r = |file, tag, text| Region { file, tag, text };
    Ok(vec![
        r(FFI, "sample", ffi_sample()),
        r(SHIM, "copy-lists", shim_lists()),
        r(SHIM, "inject", shim_inject()),
        r(SV_TOP, "st-ports", sv_ports()),
        r(SV_TOP, "st-assign", sv_assign()),
        r(SV_TOP, "inject", sv_inject()),
        r(VHDL_TOP, "st-ports", vhdl_ports(false)),
        r(
            VHDL_TOP,
            "st-assign",
            vhdl_assign("    ", &vhdl_ext_names_record, "trace_mem_r"),
        ),
        r(
            VHDL_TAP,
            "st-assign",
            vhdl_assign("  ", &vhdl_tap_record, "tap_trace_mem"),
        ),
        r(TB_VHDL, "component-st", vhdl_ports(true)),
        r(PY_TYPES, "state", py_state()),
        r(PY_TYPES, "config", py_config()),
        r(SV_REGS, "reset", sv_reset(map)?),
        r(VHDL_REGS, "reset", vhdl_reset(map, "cfg")?),
        r(VHDL_REGS, "trace-reset", vhdl_reset(map, "trace_cfg")?),
    ])
}

/// `source` (the text of `file`) with the lines between the markers of `tag` replaced by `text`.
pub fn splice(file: &str, source: &str, tag: &str, text: &str) -> Result<String, GenError> {
    let begin = format!("BEGIN GENERATED {tag}:");
    let end = format!("END GENERATED {tag}");
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains(&begin))
        .collect();
    let (b, e) = match starts.as_slice() {
        [] => {
            return Err(GenError::NoBegin {
                file: file.into(),
                tag: tag.into(),
            })
        }
        [b] => {
            let e = (b + 1..lines.len())
                .find(|&i| lines[i].contains(&end))
                .ok_or(GenError::NoEnd {
                    file: file.into(),
                    tag: tag.into(),
                    line: b + 1,
                })?;
            (*b, e)
        }
        [first, second, ..] => {
            return Err(GenError::Twice {
                file: file.into(),
                tag: tag.into(),
                first: first + 1,
                second: second + 1,
            })
        }
    };
    let mut out = String::with_capacity(source.len() + text.len());
    out.extend(lines[..=b].iter().copied());
    out.push_str(text);
    out.extend(lines[e..].iter().copied());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_the_lines_between_the_markers() {
        let src = "a\n// BEGIN GENERATED x: note\nold\nold2\n// END GENERATED x\nb\n";
        let out = splice("f", src, "x", "new\n").unwrap();
        assert_eq!(
            out,
            "a\n// BEGIN GENERATED x: note\nnew\n// END GENERATED x\nb\n"
        );
        // idempotent
        assert_eq!(splice("f", &out, "x", "new\n").unwrap(), out);
    }

    #[test]
    fn splice_names_missing_and_doubled_markers() {
        assert_eq!(
            splice("f", "a\n", "x", ""),
            Err(GenError::NoBegin {
                file: "f".into(),
                tag: "x".into()
            })
        );
        assert_eq!(
            splice("f", "// BEGIN GENERATED x: n\n", "x", ""),
            Err(GenError::NoEnd {
                file: "f".into(),
                tag: "x".into(),
                line: 1
            })
        );
        let twice = "// BEGIN GENERATED x: n\n// END GENERATED x\n// BEGIN GENERATED x: n\n";
        assert!(matches!(
            splice("f", twice, "x", ""),
            Err(GenError::Twice {
                first: 1,
                second: 3,
                ..
            })
        ));
        // another tag's markers are not this tag's
        assert!(splice(
            "f",
            "// BEGIN GENERATED xy: n\n// END GENERATED xy\n",
            "x",
            ""
        )
        .is_err());
    }

    #[test]
    fn every_register_has_a_place_in_both_hdls() {
        for f in registers() {
            let memory = trace_last(f).is_some();
            assert_eq!(f.sv.is_empty(), memory, "{}: SV path", f.name);
            assert_eq!(f.vhdl.is_empty(), memory, "{}: VHDL path", f.name);
        }
        for (name, hi, lo) in TRACE_LAST {
            let f = FIELDS.iter().find(|f| f.name == name).expect(name);
            assert_eq!(f.width, hi - lo + 1, "{name}");
        }
        assert!(ports().all(|f| f.sv.is_empty() && f.vhdl.is_empty()));
    }

    #[test]
    fn the_bridge_runs_hold_every_register_once() {
        let text = ffi_sample();
        for f in FIELDS {
            assert_eq!(
                text.matches(&format!(" {}: ", f.name)).count(),
                1,
                "{} in Sample",
                f.name
            );
        }
        let lists = shim_lists();
        for f in registers() {
            assert_eq!(
                lists.matches(&format!("X({})", f.name)).count(),
                1,
                "{}",
                f.name
            );
        }
    }

    fn committed_map() -> RegMap {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../regmap/dcqcn_regs.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn reset_values_come_from_the_register_map() {
        let mut map = committed_map();
        let sv = sv_reset(&map).unwrap();
        assert!(
            sv.contains("r_init.credit_cap") && sv.contains("= 32'd1_048_576;"),
            "{sv}"
        );
        assert!(sv.contains("r_init.inc_interval") && sv.contains("= RATE_INC_RESET;"));
        let vhdl = vhdl_reset(&map, "cfg").unwrap();
        assert!(
            vhdl.contains("credit_cap      => to_unsigned(1_048_576, 32),"),
            "{vhdl}"
        );
        assert!(vhdl.trim_end().ends_with(");"));
        assert!(!vhdl.contains("trace_en"));
        assert!(vhdl_reset(&map, "trace_cfg")
            .unwrap()
            .contains("trace_sel  => (others => '0'));"));
        // a changed reset value in the map changes the HDL reset
        let cap = map
            .words
            .iter_mut()
            .flat_map(|w| &mut w.fields)
            .find(|f| f.name == "credit_cap")
            .unwrap();
        cap.reset = 4096;
        assert!(sv_reset(&map).unwrap().contains("= 32'd4096;"));
        assert!(vhdl_reset(&map, "cfg")
            .unwrap()
            .contains("to_unsigned(4096, 32)"));
    }

    #[test]
    fn a_configuration_register_missing_from_the_map_or_of_another_width_is_refused() {
        fn rmax(map: &mut RegMap) -> &mut MapField {
            map.words
                .iter_mut()
                .flat_map(|w| &mut w.fields)
                .find(|f| f.name == "rmax")
                .unwrap()
        }
        let mut map = committed_map();
        rmax(&mut map).width = 16;
        let e = sv_reset(&map).unwrap_err().to_string();
        assert!(e.contains("`rmax` shows `cfg_rmax` but is 16 bits"), "{e}");
        let mut map = committed_map();
        rmax(&mut map).state = None;
        let e = vhdl_reset(&map, "cfg").unwrap_err().to_string();
        assert!(e.contains("0 fields have `state = \"cfg_rmax\"`"), "{e}");
    }

    #[test]
    fn injection_cuts_each_register_to_its_width() {
        let text = shim_inject();
        assert!(text.contains("t->in_cfg_trace_sel = st.cfg_trace_sel & 0x3F;"));
        assert!(text.contains("t->in_alpha = st.alpha & 0x3FF;"));
        assert!(text.contains("t->in_rc = st.rc;\n"));
        assert!(!text.contains("trace_last"));
    }
}
