# SPDX-License-Identifier: MIT
"""The register block's generated code, from the register map that scripts/regmap_gen.py loads from
regmap/dcqcn_regs.rdl: the word layouts, the configuration the block holds, the decode of the
writable words and the read of the held ones, in the SV, the VHDL and the model.

Rules (docs/generated.md):
- a word is *held* when it has a read/write field; the block keeps its read/write fields, which are
  the configuration registers: each one's `state` is `cfg_<field name>`, its name in the model's
  `Config`, the SV `regs_t` member's word and the VHDL `CfgType` (or `TraceCfgType`: feature
  "trace", a record of its own for GHDL 2.0's synthesis, see rtl/vhdl/dcqcn_pkg.vhd);
- a word mixes read/write fields with action bits (sw = w) and reserved bits only, never with
  read-only ones;
- an action bit lies in one byte lane and acts when that lane is strobed;
- every held word has a unique `write_order`: the order in which a configuration is written
  (`Config::register_writes`), which golden sets and scenarios replay;
- the configuration fields of a word with a `feature` are optional in a configuration (JSON or TOML
  omits them at their reset value).
"""


import textwrap


class BlockError(Exception):
    pass


SV_KEYWORDS = {"config": "config_word"}
RUST_KIND = {"Q0.10": "Q10", "shift": "Count", "events": "Count", "count": "Count", "code": "Count",
             "flag": "Flag", "bytes/s": "BytesPerS", "cycles": "Cycles", "bytes": "Bytes"}


def held(w):
    return any(f["access"] == "RW" for f in w["fields"])


def actions(w):
    return [f for f in w["fields"] if f["access"] == "W"]


def single32(w):
    return len(w["fields"]) == 1 and w["fields"][0]["width"] == 32


def writable(w):
    return any(f["access"] != "RO" for f in w["fields"])


def sv_member(w):
    return SV_KEYWORDS.get(w["name"], w["name"])


def vhdl_record(w):
    return "trace_cfg" if w.get("feature") == "trace" else "cfg"


def camel(name):
    return "".join(p.capitalize() for p in name.split("_"))


def rust_ty(width):
    return "bool" if width == 1 else "u8" if width <= 8 else "u16" if width <= 16 else "u32"


def check(m, source):
    """The rules above; raises BlockError naming the word or field."""
    orders = {}
    for w in m["words"]:
        where = f"{source}: reg {w['name']}"
        acc = {f["access"] for f in w["fields"]}
        if "RW" in acc and "RO" in acc:
            raise BlockError(f"{where}: a word with read/write fields cannot also have read-only "
                             "ones (split it)")
        for f in w["fields"]:
            if f["access"] == "RW" and f["state"] != "cfg_" + f["name"]:
                raise BlockError(f"{where}: field {f['name']}: a read/write field is a "
                                 f"configuration register: its state must be cfg_{f['name']}")
            if f["access"] == "W" and (f["lsb"] // 8 != (f["lsb"] + f["width"] - 1) // 8):
                raise BlockError(f"{where}: field {f['name']}: an action bit must lie in one "
                                 "byte lane")
        if held(w):
            o = w.get("write_order")
            if o is None:
                raise BlockError(f"{where}: a word with read/write fields needs write_order (its "
                                 "place in a configuration's writes)")
            if o in orders:
                raise BlockError(f"{where}: write_order {o} is also {orders[o]}'s")
            orders[o] = w["name"]
        elif w.get("write_order") is not None:
            raise BlockError(f"{where}: write_order is for words with read/write fields")


def members_msb_first(w):
    """(name, msb, lsb, field or None) from bit 31 down, reserved gaps named rsvd_<msb>_<lsb>."""
    out = []
    bit = 32
    for f in sorted(w["fields"], key=lambda f: f["lsb"], reverse=True):
        top = f["lsb"] + f["width"]
        if top < bit:
            out.append((f"rsvd_{bit - 1}_{top}", bit - 1, top, None))
        out.append((f["name"], top - 1, f["lsb"], f))
        bit = f["lsb"]
    if bit > 0:
        out.append((f"rsvd_{bit - 1}_0", bit - 1, 0, None))
    return out


def bits(msb, lsb):
    return f"[{msb}]" if msb == lsb else f"[{msb}:{lsb}]"


# ------------------------------------------------------------------------------------------------
# SystemVerilog
# ------------------------------------------------------------------------------------------------

def sv_logic(width):
    return "logic" if width == 1 else f"logic [{width - 1}:0]"


def sv_words(m):
    """rtl/dcqcn_regmap.svh: one packed struct per word that is not a single 32-bit field."""
    out = []
    for w in m["words"]:
        if single32(w):
            continue
        out.append(f"// 0x{w['offset']:03X} {w['name']}: {w['title']}")
        out.append("typedef struct packed {")
        members = members_msb_first(w)
        n = max(17, max(len(name) + 2 for name, _, _, _ in members))
        for name, msb, lsb, f in members:
            note = "reserved: reads 0, ignores writes" if f is None else (
                {"RW": "RW", "RO": "RO", "W": "W, reads 0"}[f["access"]])
            out.append(f"    {sv_logic(msb - lsb + 1):<13}{name + ';':<{n}}// {bits(msb, lsb):<8}{note}")
        out.append(f"}} {w['name']}_t;")
        out.append("")
    return "\n".join(out[:-1]) + "\n"


def sv_held(m):
    """rtl/dcqcn_regmap.svh, inside regs_t: the held words, as read."""
    rows = [("logic [31:0]" if single32(w) else f"{w['name']}_t", sv_member(w) + ";", w)
            for w in m["words"] if held(w)]
    t = max(13, max(len(ty) + 1 for ty, _, _ in rows))
    n = max(17, max(len(mem) + 1 for _, mem, _ in rows))
    return "".join(f"    {ty:<{t}}{mem:<{n}}// 0x{w['offset']:03X}\n" for ty, mem, w in rows)


def sv_write_decl(m):
    out = ["    // the strobed write data of the words with action bits (only the action bits are used)",
           "    /* verilator lint_off UNUSEDSIGNAL */"]
    t = max([14] + [len(w["name"]) + 3 for w in m["words"] if actions(w)])
    for w in m["words"]:
        if actions(w):
            out.append(f"    {w['name'] + '_t':<{t}}wr_{w['name']};")
    out.append("    /* verilator lint_on UNUSEDSIGNAL */")
    for w in m["words"]:
        for f in actions(w):
            out.append(f"    {'logic':<{t}}{f['name']};")
    return "\n".join(out) + "\n"


def sv_write_init(m):
    out = []
    for w in m["words"]:
        if actions(w):
            out.append(f"        wr_{w['name']} = '0;")
    for w in m["words"]:
        for f in actions(w):
            out.append(f"        {f['name']} = 1'b0;")
    return "\n".join(out) + "\n"


def sv_write(m):
    """The write case's items: every writable word."""
    out = []
    merge = "lane_merge({}, s_axil_wdata, s_axil_wstrb)"
    for w in m["words"]:
        if not writable(w):
            continue
        label = f"ADDR_{w['name'].upper()}[11:2]:"
        stmts = []
        if held(w):
            mem = sv_member(w)
            stmts.append(f"r_d.{mem} = {merge.format('r.' + mem)};")
        if actions(w):
            zero = merge.format("32'd0")
            stmts.append(f"wr_{w['name']} = {zero};")
            stmts += [f"{f['name']} = wr_{w['name']}.{f['name']};" for f in actions(w)]
        if len(stmts) == 1:
            out.append(f"                {label:<27}{stmts[0]}")
        else:
            out.append(f"                {label} begin")
            out += [f"                    {s}" for s in stmts]
            out.append("                end")
    return "\n".join(out) + "\n"


def sv_clear(m):
    """After the write: the reserved and action bits of the held words read 0."""
    out = []
    for w in m["words"]:
        if not held(w) or single32(w):
            continue
        for name, msb, lsb, f in members_msb_first(w):
            if f is None or f["access"] == "W":
                zero = "1'b0" if msb == lsb else "'0"
                out.append(f"        r_d.{sv_member(w)}.{name} = {zero};")
    return "\n".join(out) + "\n"


def sv_read(m):
    """The read case's items for the held words (the block reads its other words itself)."""
    out = []
    for w in m["words"]:
        if held(w):
            label = f"ADDR_{w['name'].upper()}[11:2]:"
            out.append(f"                {label:<27}rword = r.{sv_member(w)};")
    return "\n".join(out) + "\n"


def features(m):
    """The features in map order, each with its words: [(feature, [word, ...])]."""
    out = {}
    for w in m["words"]:
        if w.get("feature"):
            out.setdefault(w["feature"], []).append(w)
    return list(out.items())


def sv_built(m):
    """spec 2: the function that tells whether a word index is built: a feature's words only when
    its generic is set (the block defines FEAT_<FEATURE>), every other word always."""
    out = ["    // spec 2: 1 when the word at word index `word` is built: a feature's words only when the",
           "    // feature is (FEAT_<feature>, from the generics); an absent word answers as an unmapped one",
           "    function automatic logic word_built(input logic [9:0] word);",
           "        case (word)"]
    for feat, ws in features(m):
        labels = ", ".join(f"ADDR_{w['name'].upper()}[11:2]" for w in ws)
        for line in textwrap.wrap(labels + ":", 100):
            out.append(f"            {line}")
        out.append(f"                word_built = FEAT_{feat.upper()};")
    out += ["            default: word_built = 1'b1;", "        endcase", "    endfunction"]
    return "\n".join(out) + "\n"


def sv_tie_off(m):
    """spec 2: an absent feature's configuration registers are held at their reset values (a
    constant the synthesis removes)."""
    out = []
    for feat, ws in features(m):
        hw = [w for w in ws if held(w)]
        if not hw:
            continue
        out.append(f"        if (!FEAT_{feat.upper()}) begin")
        out += [f"            r_d.{sv_member(w)} = r_init.{sv_member(w)};" for w in hw]
        out.append("        end")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------------
# VHDL
# ------------------------------------------------------------------------------------------------

def vhdl_ty(width):
    return "std_logic" if width == 1 else f"unsigned({width - 1} downto 0)"


def vhdl_slice(msb, lsb):
    return f"({msb})" if msb == lsb else f"({msb} downto {lsb})"


def vhdl_cfg_record(m, record):
    fields = [f for w in m["words"] if held(w) and vhdl_record(w) == record
              for f in w["fields"] if f["access"] == "RW"]
    n = max(len(f["name"]) for f in fields)
    return "".join(f"    {f['name']:<{n}} : {vhdl_ty(f['width'])};\n" for f in fields)


def ro_record_words(m):
    """Words of two or more read-only fields: a record each, packed by to_word."""
    return [w for w in m["words"] if len([f for f in w["fields"] if f["access"] == "RO"]) >= 2
            and all(f.get("state") or f.get("view") for f in w["fields"] if f["access"] == "RO")]


def vhdl_word_decls(m):
    out = []
    for w in ro_record_words(m):
        ro = [f for f in w["fields"] if f["access"] == "RO"]
        n = max(len(f["name"]) for f in ro)
        out.append(f"  -- 0x{w['offset']:03X} {w['name']}: {w['title']} (its read-only fields)")
        out.append(f"  type {camel(w['name'])}WordType is record")
        t = max(len(vhdl_ty(f["width"])) for f in ro) + 1
        for f in ro:
            out.append(f"    {f['name']:<{n}} : {vhdl_ty(f['width']) + ';':<{t}} -- "
                       f"{bits(f['lsb'] + f['width'] - 1, f['lsb'])}")
        out.append(f"  end record {camel(w['name'])}WordType;")
        out.append("")
    for w in ro_record_words(m):
        out.append(f"  function to_word (w : {camel(w['name'])}WordType) return word32_t;")
    return "\n".join(out) + "\n"


def vhdl_held_decls(m):
    out = []
    for w in m["words"]:
        if held(w) and not single32(w):
            rec = "TraceCfgType" if vhdl_record(w) == "trace_cfg" else "CfgType"
            out.append(f"  function word_{w['name']} (c : {rec}) return word32_t;")
    return "\n".join(out) + "\n"


def vhdl_pack_body(name, arg, fields, src):
    out = [f"  function {name} ({arg}) return word32_t is",
           "    variable v : word32_t := (others => '0');",
           "  begin"]
    sl = [vhdl_slice(f["lsb"] + f["width"] - 1, f["lsb"]) for f in fields]
    n = max(len(s) for s in sl)
    for f, s in zip(fields, sl):
        val = f"{src}.{f['name']}" if f["width"] == 1 else f"std_logic_vector({src}.{f['name']})"
        out.append(f"    v{s:<{n}} := {val};")
    out += ["    return v;", f"  end function {name.split(' ')[0]};", ""]
    return out


def vhdl_word_bodies(m):
    out = []
    for w in ro_record_words(m):
        ro = [f for f in w["fields"] if f["access"] == "RO"]
        out += vhdl_pack_body("to_word", f"w : {camel(w['name'])}WordType", ro, "w")
    for w in m["words"]:
        if held(w) and not single32(w):
            rec = "TraceCfgType" if vhdl_record(w) == "trace_cfg" else "CfgType"
            rw = [f for f in w["fields"] if f["access"] == "RW"]
            out += vhdl_pack_body(f"word_{w['name']}", f"c : {rec}", rw, "c")
    return "\n".join(out) + "\n"


def vhdl_action_vars(m):
    fs = [f for w in m["words"] for f in actions(w)]
    return "".join(f"    variable {f['name']:<13} : std_logic;\n" for f in fs)


def vhdl_actions(m):
    out = []
    fs = [(w, f) for w in m["words"] for f in actions(w)]
    n = max(len(f["name"]) for _, f in fs)
    for w, f in fs:
        out.append(f"    {f['name']:<{n}} := wr_ok and to_sl(wr_word = word_index(ADDR_{w['name'].upper()})) "
                   f"and s_axil_wstrb({f['lsb'] // 8}) and")
        out.append(f"    {'':<{n}}    s_axil_wdata({f['lsb']});")
    return "\n".join(out) + "\n"


def vhdl_held_word(w):
    rec = vhdl_record(w)
    if single32(w):
        return f"std_logic_vector(r.{rec}.{w['fields'][0]['name']})"
    return f"word_{w['name']}(r.{rec})"


def vhdl_write(m):
    out = []
    for w in m["words"]:
        if not writable(w):
            continue
        out.append(f"      if (wr_word = word_index(ADDR_{w['name'].upper()})) then")
        rec = vhdl_record(w)
        lines = [("wresp", "RESP_OKAY")]
        if held(w):
            if single32(w):
                f = w["fields"][0]
                lines.append((f"v.{rec}.{f['name']}",
                              f"lane_merge(r.{rec}.{f['name']}, s_axil_wdata, s_axil_wstrb)"))
            else:
                merged = f"lane_merge({vhdl_held_word(w)}, s_axil_wdata, s_axil_wstrb)"
                for f in w["fields"]:
                    if f["access"] != "RW":
                        continue
                    s = vhdl_slice(f["lsb"] + f["width"] - 1, f["lsb"])
                    val = merged + s if f["width"] == 1 else f"unsigned({merged}{s})"
                    lines.append((f"v.{rec}.{f['name']}", val))
        else:
            out.append("        -- no register: its action bits act (above)")
        n = max(len(a) for a, _ in lines)
        for a, b in lines:
            line = f"        {a:<{n}} := {b};"
            if len(line) >= 120:
                # VSG's line length: the strobes on a continuation line under lane_merge's arguments
                cut = line.index("s_axil_wstrb")
                col = line.index("lane_merge(") + len("lane_merge(")
                out += [line[:cut].rstrip(), " " * col + line[cut:]]
            else:
                out.append(line)
        out.append("      end if;")
    return "\n".join(out) + "\n"


def vhdl_read(m):
    ws = [w for w in m["words"] if held(w)]
    n = max(len(f"rtab(ADDR_{w['name'].upper()} / 4)") for w in ws)
    return "".join(f"      {'rtab(ADDR_' + w['name'].upper() + ' / 4)':<{n}} := {vhdl_held_word(w)};\n"
                   for w in ws)


def vhdl_read_addrs(m):
    names = [f"ADDR_{w['name'].upper()}" for w in m["words"]]
    return "".join(f"    {n}{',' if i + 1 < len(names) else ');'}\n" for i, n in enumerate(names))


def vhdl_built(m):
    """The VHDL twin of sv_built (FEAT_<FEATURE>_C constants of the architecture)."""
    out = ["  -- spec 2: '1' when the word at word index `word` is built: a feature's words only when the",
           "  -- feature is (FEAT_<feature>_C, from the generics); an absent word answers as an unmapped one",
           "  function word_built (word : word_index_t) return std_logic is",
           "    variable b : std_logic;",
           "  begin",
           "    b := '1';"]
    for feat, ws in features(m):
        conds = [f"word = word_index(ADDR_{w['name'].upper()})" for w in ws]
        out.append(f"    if ({conds[0]} or")
        for c in conds[1:-1]:
            out.append(f"        {c} or")
        out.append(f"        {conds[-1]}) then")
        out.append(f"      b := to_sl(FEAT_{feat.upper()}_C);")
        out.append("    end if;")
    out += ["    return b;", "  end function word_built;", ""]
    return "\n".join(out) + "\n"


def vhdl_tie_off(m):
    """The VHDL twin of sv_tie_off."""
    out = []
    for feat, ws in features(m):
        lines = []
        for w in ws:
            if not held(w):
                continue
            rec = vhdl_record(w)
            init = "TRACE_CFG_INIT_C" if rec == "trace_cfg" else "CFG_INIT_C"
            lines += [(f"v.{rec}.{f['name']}", f"{init}.{f['name']}")
                      for f in w["fields"] if f["access"] == "RW"]
        if not lines:
            continue
        n = max(len(a) for a, _ in lines)
        out.append(f"    if (not FEAT_{feat.upper()}_C) then")
        out += [f"      {a:<{n}} := {b};" for a, b in lines]
        out.append("    end if;")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------------
# The model (crates/dcqcn-model)
# ------------------------------------------------------------------------------------------------

def cfg_fields(m, feature=...):
    """The configuration registers (read/write fields), in map order; of one feature if given
    (None: no feature), or of every feature not in it if a list is given."""
    def chosen(w):
        if feature is ...:
            return True
        if isinstance(feature, list):
            return w.get("feature") not in feature
        return w.get("feature") == feature
    return [(w, f) for w in m["words"] if held(w) and chosen(w)
            for f in w["fields"] if f["access"] == "RW"]


def rust_config_struct(m):
    """crates/dcqcn-model/src/config.rs, inside `pub struct Config`."""
    out = []
    for w, f in cfg_fields(m):
        doc = f"{f['desc']} ({f['unit']}; 0x{w['offset']:03X} {f['name']})."
        out += ["    /// " + line for line in textwrap.wrap(doc, 92)]
        if w.get("feature"):
            out += ["    #[serde(",
                    f"        default = \"regmap::reset_{f['name']}\",",
                    f"        skip_serializing_if = \"regmap::is_reset_{f['name']}\"",
                    "    )]"]
        out.append(f"    pub {f['name']}: {rust_ty(f['width'])},")
    return "\n".join(out) + "\n"


def rust_snapshot_rows(m, feature):
    out = []
    for w, f in cfg_fields(m, feature):
        kind = RUST_KIND.get(f["unit"])
        if kind is None:
            raise BlockError(f"field {f['name']}: unit {f['unit']!r} has no snapshot kind "
                             f"(scripts/regmap_blocks.py RUST_KIND)")
        sv = f"r.{sv_member(w)}" + ("" if single32(w) else f".{f['name']}")
        vh = f"{vhdl_record(w)}.{f['name']}"
        out.append(f"        cfg_{f['name']}: {rust_ty(f['width'])}, {f['width']}, {kind} "
                   f"@ \"{sv}\" \"{vh}\";")
    return "\n".join(out) + "\n" if out else ""


def rust_snapshot_from(m):
    return "".join(f"            cfg_{f['name']}: c.{f['name']},\n" for _, f in cfg_fields(m))


def rust_hex(v):
    s = f"{v:X}"
    return "0x" + "_".join(s[max(0, i - 4):i] for i in range(len(s), 0, -4)[::-1]) if len(s) > 4 \
        else f"0x{s}"


def rust_regmap_blocks(m, rust_int):
    """Lines appended to crates/dcqcn-model/src/regmap.rs."""
    out = ["/// The configuration words (the words with read/write fields), in the order a",
           "/// configuration is written ([`crate::Config::register_writes`]).",
           "pub const WRITE_ORDER: &[u16] = &["]
    for w in sorted((w for w in m["words"] if held(w)), key=lambda w: w["write_order"]):
        out.append(f"    {w['name'].upper()},")
    out += ["];", "", "impl crate::Config {",
            "    /// The configuration word at `addr` (decoded on bits 11:2) as it reads: its read/write",
            "    /// fields; `None` for a word without one.",
            "    pub fn word(&self, addr: u16) -> Option<u32> {",
            "        Some(match addr & 0xFFC {"]
    for w in m["words"]:
        if not held(w):
            continue
        rw = [f for f in w["fields"] if f["access"] == "RW"]
        if single32(w):
            out.append(f"            {w['name'].upper()} => self.{rw[0]['name']},")
            continue
        out.append(f"            {w['name'].upper()} => {{")
        out.append("                let mut w = 0;")
        for f in rw:
            sh = f" << {f['lsb']}" if f["lsb"] else ""
            out.append(f"                w |= u32::from(self.{f['name']}){sh};")
        out += ["                w", "            }"]
    out += ["            _ => return None,", "        })", "    }", "",
            "    /// Sets the read/write fields of the configuration word at `addr` from `w` (other bits",
            "    /// ignored); `false` for a word without one.",
            "    pub fn set_word(&mut self, addr: u16, w: u32) -> bool {",
            "        match addr & 0xFFC {"]
    for w in m["words"]:
        if not held(w):
            continue
        rw = [f for f in w["fields"] if f["access"] == "RW"]
        if single32(w):
            out.append(f"            {w['name'].upper()} => self.{rw[0]['name']} = w,")
            continue
        out.append(f"            {w['name'].upper()} => {{")
        for f in rw:
            sh = f"w >> {f['lsb']}" if f["lsb"] else "w"
            ty = rust_ty(f["width"])
            if ty == "bool":
                val = f"{sh} & 1 == 1"
            else:
                mask = rust_hex((1 << f["width"]) - 1)
                val = f"({sh} & {mask}) as {ty}"
            out.append(f"                self.{f['name']} = {val};")
        out.append("            }")
    out += ["            _ => return false,", "        }", "        true", "    }", "}", "",
            "/// The action bits a write sets (spec 6.2): each acts when its byte lane is strobed.",
            "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]",
            "pub struct Actions {"]
    for w in m["words"]:
        for f in actions(w):
            out += ["    /// " + line for line in textwrap.wrap(f["desc"], 92)]
            out.append(f"    pub {f['name']}: bool,")
    out += ["}", "",
            "/// spec 6.1/6.2: an accepted write of `wdata` with byte strobes `wstrb` to `addr`: the",
            "/// configuration word takes the strobed lanes and the action bits of strobed lanes act;",
            "/// `None` (DECERR, no effect) for a word without a writable field.",
            "pub fn write(cfg: &mut crate::Config, addr: u16, wdata: u32, wstrb: u8) -> Option<Actions> {",
            "    let lanes = (0..4)",
            "        .filter(|i| wstrb >> i & 1 == 1)",
            "        .fold(0u32, |m, i| m | 0xFF << (8 * i));",
            "    let strobed = wdata & lanes;",
            "    let word = addr & 0xFFC;",
            "    if !lookup(word)?.2 {",
            "        return None;",
            "    }",
            "    if let Some(old) = cfg.word(word) {",
            "        cfg.set_word(word, old & !lanes | strobed);",
            "    }",
            "    Some(match word {"]
    for w in m["words"]:
        acts = actions(w)
        if not acts:
            continue
        out.append(f"        {w['name'].upper()} => Actions {{")
        for f in acts:
            out.append(f"            {f['name']}: strobed >> {f['lsb']} & 1 == 1,")
        out.append("            ..Actions::default()")
        out.append("        },")
    out += ["        _ => Actions::default(),", "    })", "}", ""]
    out += ["/// The feature of the word at `addr` (decoded on bits 11:2), if it has one (the RDL's",
            "/// `feature`): random bus traffic reaches a feature's words only where a scenario asks.",
            "pub fn feature(addr: u16) -> Option<&'static str> {",
            "    match addr & 0xFFC {"]
    for w in m["words"]:
        if w.get("feature"):
            out.append(f"        {w['name'].upper()} => Some(\"{w['feature']}\"),")
    out += ["        _ => None,", "    }", "}", ""]
    out.append("// The reset values of the optional configuration registers (those of a word with a")
    out.append("// feature): a configuration file may leave them out (serde's default and skip).")
    for w, f in cfg_fields(m):
        if not w.get("feature"):
            continue
        ty = rust_ty(f["width"])
        if f["reset_param"]:
            raise BlockError(f"field {f['name']}: an optional register's reset cannot depend on "
                             "the parameters")
        v = ("true" if f["reset"] else "false") if ty == "bool" else rust_int(f["reset"])
        cmp = f"*v == {v}" if ty != "bool" else ("*v" if f["reset"] else "!*v")
        out += ["#[doc(hidden)]", f"pub fn reset_{f['name']}() -> {ty} {{", f"    {v}", "}",
                "#[doc(hidden)]", f"pub fn is_reset_{f['name']}(v: &{ty}) -> bool {{", f"    {cmp}",
                "}"]
    return out
