#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""formal_mq: proves the SystemVerilog (rtl/mq/*.sv) and the VHDL twin (rtl/vhdl/mq/*.vhd) of the
multi-QP block sequentially equivalent with Yosys (docs/formal.md, "The multi-QP block"; docs/spec-mq.md 9).

Two kinds of proof, each with the machinery of scripts/formal.py (its functions, imported):

* the core `dcqcn_mq_core` at each --qps (default 4): every output port, the three obs_*
  observation ports included;
* the picker `dcqcn_mq_rr` on its own at each --rr-n (default 64, 65 and 4096): the picker's second
  level (more than one 64-bit chunk), which the core at QPS 4 does not have (spec-mq 9, part 3).

The register correspondence is read from the netlists and the sources:

* SV: one register per name; each `$dff` is named by the one net of its own instance that is
  exactly its output (`u_regs.cfg_alpha_init`, `u_grant.u_rr.rr`, `req_valid` at the top,
  `u_req_mem_grant.ram_rdata_q` for the synchronous read register that `memory_map` makes of a RAM
  read port).
* VHDL: the record `r` of each entity (the core's bitmaps, u_visit, u_grant, u_grant.u_rr, u_rpt,
  u_regs), its layout from rtl/vhdl/mq/dcqcn_mq_pkg.vhd and the core's BitmapsType
  (vhdl2verilog.records(); first element at the least significant bits), and the plain signals of
  dcqcn_mq_mem (raddr_q, byp_we_q, byp_addr_q, byp_data_q, ram_rdata_q).
* A VHDL field is paired with the SV register of the same instance and name; a field of the
  configuration record `cfg` carries the prefix the SV register has (`r.cfg.alpha_init` <->
  `cfg_alpha_init`). Every memory word (`memory_map` makes one `$dff` per entry of each copy, the
  19 state-memory copies and dfx_mem) is paired with the same word of the other design. The run
  stops on a width difference, a field or register without a partner, or a flip-flop bit outside
  the correspondence.

The obligations (step and reset, the memories shared in the reset one: they are never reset,
spec-mq 8.3) are formal.py's build() and prove(), with free cut points (formal.free_cut_points: the
sub-block ports and the products' operands, read by both designs from shared inputs), cells split
per bit before equiv_simple (formal.BIT_LEVEL), and a second pass with the cut points driven by the
SV's values for what the first leaves. Cut points whose own obligations fail are dropped and the
step is proven again without them (docs/formal.md, "The multi-QP block").

Usage: formal_mq.py [--qps N ...] [--rr-n N ...] [--sv-dir DIR] [--vhdl-dir DIR] [--mutant FILE.toml]
                    [--expect-fail] [--expect-differ PORT]... [--no-cut-points] [--keep-cut-points]
                    [--work DIR] [--jobs N]
Exit 0 when every obligation is proven (or, with --expect-fail, when the proof fails on the named
signals), 1 otherwise, 2 on bad input.
"""

import argparse
import concurrent.futures
import json
import os
import re
import resource
import shutil
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(Path(__file__).resolve().parent))
import formal as F  # noqa: E402
import vhdl2verilog as v2v  # noqa: E402

ROOT = F.ROOT
Error = F.Error

# the picker's ports have other names in the twin (its entity's names -> the SV module's)
RR_PORTS = {"pick_en": "en", "pick_valid": "valid", "st_rr": "rr"}  # st.rr: GHDL names a record port per field

# dcqcn_mq_mem's registers, plain signals in both HDLs (docs/notes: shared RTL conventions)
MEM_REGS = ("raddr_q", "byp_we_q", "byp_addr_q", "byp_data_q", "ram_rdata_q")


def sv_files(sv_dir):
    """The SV sources in the order of rtl/mq/files.f (packages first)."""
    names = [ln.strip() for ln in (sv_dir / "files.f").read_text().splitlines()
             if ln.strip() and not ln.startswith("+")]
    return [sv_dir / Path(n).name for n in names]


def synth_vhdl(vhdl_dir, top, value):
    """The twin's Verilog (vhdl2verilog.synth: ghdl --synth and its repairs) of the core at QPS = value,
    or of the picker at N = value."""
    ns = argparse.Namespace(top=top, qps=value, src=vhdl_dir, ghdl="ghdl", clk_freq_hz=None,
                            line_rate=None)
    saved = v2v.ghdl_synth
    if top == "dcqcn_mq_rr":
        # vhdl2verilog passes the core's generic QPS; the picker's is N (its runner, the same sources)
        v2v.ghdl_synth = lambda a, out: v2v.ghdl_run(a, out, v2v.units_in_order(a.src), [f"-gN={value}"])
    try:
        return v2v.synth(ns)[0]
    except v2v.Error as e:
        raise Error(str(e)) from e
    finally:
        v2v.ghdl_synth = saved


def read_designs(work, sv_dir, vhdl_v, top, param, value):
    svs = " ".join(str(f) for f in sv_files(sv_dir))
    F.yosys(f"read_verilog -sv -defer -I{sv_dir} {svs}; hierarchy -top {top} -chparam {param} {value}; "
            f"{F.PREP}; write_json {work / 'sv.json'}", work / "read_sv.log")
    F.yosys(f"read_verilog {vhdl_v}; hierarchy -top {top}; {F.PREP}; write_json {work / 'vhdl.json'}",
            work / "read_vhdl.log")
    sv = json.loads((work / "sv.json").read_text())["modules"][top]
    vh = json.loads((work / "vhdl.json").read_text())["modules"][top]
    return sv, vh


def registers(mod, side):
    """{instance: {name: Q bits}} of the flip-flops outside the mapped memories. Each `$dff` is named
    by the one net of its own instance (the `$flatten\\<inst>.` prefixes of its cell name) whose bits
    are exactly its Q: the register's own name (GHDL's nNNN_q/o and the top's ports left out)."""
    by_bits = {}
    for n, net in mod["netnames"].items():
        if not n.startswith("$"):
            by_bits.setdefault(tuple(net["bits"]), []).append(n)
    regs = {}
    for cname, cell in mod["cells"].items():
        if cell["type"] != "$dff" or F.MEMORY_WORD.fullmatch(cname):
            continue
        q = cell["connections"]["Q"]
        inst = ".".join(re.findall(r"\\(u_\w+)\.", cname))
        prefix = inst + "." if inst else ""
        names, ports = [], []
        for n in by_bits.get(tuple(q), []):
            local = n[len(prefix):]
            if n.startswith(prefix) and "." not in local and not re.fullmatch(r"n\d+_[a-z]+", local):
                (ports if inst == "" and n in mod["ports"] else names).append(local)
        # a register that is also a port of the top (the picker's rr) has the port's name
        names = names or ports
        if len(names) > 1 and "r" in names:
            names = ["r"]  # a VHDL record and the output port that copies it (the picker's st_rr)
        elif len(names) > 1:
            # a register and an output port of its instance that is only its copy (`bvalid`,
            # `s_axil_bvalid`): the register is the one whose D input `proc` names `$0\<name>`
            d = cell["connections"]["D"]
            names = [n for n in names if any(
                nn.endswith(f"$0\\{n}[{len(q) - 1}:0]") and net["bits"] == d
                for nn, net in mod["netnames"].items())]
        if len(names) != 1:
            raise Error(f"{side}: cannot name flip-flop {cname} (nets of {inst or 'the top'} equal to "
                        f"its output: {names or 'none'})")
        if names[0] in regs.get(inst, {}):
            raise Error(f"{side}: two flip-flops named {prefix}{names[0]}")
        regs.setdefault(inst, {})[names[0]] = q
    return regs


def entity_of(vhdl_dir, top, inst):
    """The entity of an instance path (`u_grant.u_rr` -> dcqcn_mq_rr), from the `entity work.X`
    instantiations of the VHDL sources."""
    ent = top
    for name in inst.split(".") if inst else []:
        text = (vhdl_dir / f"{ent}.vhd").read_text()
        m = re.search(rf"^\s*{name}\s*:\s*entity\s+work\.(\w+)", text, re.M | re.I)
        if not m:
            raise Error(f"{ent}.vhd: no instance {name}")
        ent = m.group(1).lower()
    return ent


def vhdl_fields(vh, vhdl_dir, top, value):
    """{instance: {leaf name: (field name, bits)}}: the records `r` (pkg and core record types, the
    core's bitmap_t of QPS bits) and dcqcn_mq_mem's plain registers."""
    core = (vhdl_dir / "dcqcn_mq_core.vhd").read_text()
    if top == "dcqcn_mq_core":
        core = re.sub(r"\bNQ_C\s*-\s*1\b", str(value - 1), core)
    recs = v2v.records((vhdl_dir / "dcqcn_mq_pkg.vhd").read_text() + "\n" + core)
    regs = registers(vh, "VHDL")
    out = {}
    for inst, named in regs.items():
        ent = entity_of(vhdl_dir, top, inst)
        prefix = inst + "." if inst else ""
        fields = {}
        for local, bits in named.items():
            if local == "r":
                text = (vhdl_dir / f"{ent}.vhd").read_text()
                m = re.search(r"^\s*signal\s+r\s*:\s*(\w+)", text, re.M | re.I)
                if not m or m.group(1).lower() not in recs:
                    raise Error(f"{ent}.vhd: `signal r` has no record type of the package or the core")
                ty = m.group(1).lower()
                if v2v.width(recs, ty, {}) != len(bits):
                    raise Error(f"VHDL {prefix}r: {len(bits)} bits, record {ty} is {v2v.width(recs, ty, {})}")
                for path, lsb, w in F.vhdl_leaves(recs, ty, {}, [], 0):
                    leaf = ("cfg_" if path[:-1] == ["cfg"] else "") + path[-1]
                    if leaf in fields:
                        raise Error(f"VHDL {ent}: field name {leaf} is not unique")
                    fields[leaf] = (f"{prefix}r." + ".".join(path), bits[lsb:lsb + w])
            elif ent == "dcqcn_mq_mem" and local in MEM_REGS:
                fields[local] = (prefix + local, bits)
            else:
                raise Error(f"VHDL: flip-flop {prefix}{local} is neither a record `r` nor a register of "
                            "dcqcn_mq_mem")
        out[inst] = fields
    return out


def correspondence(sv, vh, vhdl_dir, top, value):
    """[(field, sv field, sv bits, vhdl bits)] (formal.py's form), every flip-flop bit covered."""
    sv_q2d, vh_q2d = F.flops(sv, "SV"), F.flops(vh, "VHDL")
    sregs = registers(sv, "SV")
    vfields = vhdl_fields(vh, vhdl_dir, top, value)
    if set(sregs) != set(vfields):
        raise Error(f"instances with registers differ: SV {sorted(sregs)}, VHDL {sorted(vfields)}")
    pairs = []
    for inst in sorted(vfields):
        prefix = inst + "." if inst else ""
        svn, vhf = sregs[inst], vfields[inst]
        if set(svn) != set(vhf):
            raise Error(f"{inst or 'top'}: SV registers without a VHDL field: "
                        f"{sorted(set(svn) - set(vhf))}; VHDL fields without an SV register: "
                        f"{sorted(set(vhf) - set(svn))}")
        for leaf in sorted(vhf):
            vname, vbits = vhf[leaf]
            if len(vbits) != len(svn[leaf]):
                raise Error(f"{prefix}{leaf}: {len(svn[leaf])} bits in the SV, {vname} {len(vbits)}")
            pairs.append((vname, prefix + leaf, svn[leaf], vbits))
    sv_words, vh_words = F.memory_words(sv, "SV"), F.memory_words(vh, "VHDL")
    if set(sv_words) != set(vh_words):
        diff = sorted(set(sv_words) ^ set(vh_words))
        raise Error(f"memory words in one design only: {', '.join(diff[:4])}")
    F.MEMORY_FIELDS.clear()
    F.MEMORY_FIELDS.update(sv_words)
    for name in sorted(sv_words, key=lambda n: (n.rsplit(".e", 1)[0], int(n.rsplit(".e", 1)[1]))):
        if len(sv_words[name]) != len(vh_words[name]):
            raise Error(f"memory word {name}: {len(sv_words[name])} bits in the SV, "
                        f"{len(vh_words[name])} in the twin")
        pairs.append((name, name, sv_words[name], vh_words[name]))
    for side, q2d, k in (("SV", sv_q2d, 2), ("VHDL", vh_q2d, 3)):
        cov = [b for p in pairs for b in p[k]]
        if len(cov) != len(set(cov)) or set(cov) != set(q2d):
            raise Error(f"{side}: {len(set(q2d) - set(cov))} flip-flop bits outside the correspondence")
    return pairs, sv_q2d, vh_q2d


def cut_points(sv, vh, sv_q2d, vh_q2d, sv_dir, vhdl_dir, top):
    """{net: [(SV bit, twin bit)]}: the ports of the sub-block instances that both netlists have
    under the same instance and port name (`u_visit.next_scan`, `u_rate_mem_visit.wdata`,
    `u_req_mem_grant.rdata`, `u_grant.pick_qp`, ...), made free cut points (formal.free_cut_points):
    each is an obligation of its own, and downstream of it both designs read the same free input,
    so each SAT problem holds only the logic between cut points. The memories' write ports matter
    most: without them every bit of every memory word's next state holds the whole visit function
    in its cone. Left out: aliases of a paired register or of a top port; a port whose bits are,
    in both designs, those of a port already cut (`u_done_cnt_mem_grant.raddr` is
    `u_cc_byte_cnt_mem_grant.raddr`, the grant's read address); a
    port whose twin bits are already cut as other SV bits (not cutting is always sound). A port
    that is a second name in the SV but its own signal in the twin (`u_rate_mem_visit.raddr` and
    `u_alpha_mem_visit.raddr` are one net in the SV, two in the twin) is kept: its obligation
    proves the twin's copy equal."""
    insts = sorted({n.rsplit(".", 1)[0] for n in sv["netnames"] if re.fullmatch(r"(u_\w+\.)+\w+", n)})
    top_ports = [p["bits"] for m in (sv, vh) for p in m["ports"].values()]
    out, vh2sv = {}, {}
    for inst in insts:
        ent = entity_of(vhdl_dir, top, inst)
        text = (sv_dir / f"{ent}.sv").read_text()
        head = re.search(rf"module\s+{ent}\b.*?\)\s*\((.*?)\);", text, re.S)
        if not head:
            raise Error(f"{ent}.sv: no module header")
        for m in re.finditer(r"^\s*(?:input|output)\b[^,;]*?(\w+)\s*,?\s*(?://.*)?$", head.group(1), re.M):
            net = f"{inst}.{m.group(1)}"
            if net not in sv["netnames"] or net not in vh["netnames"]:
                continue  # a port of one HDL only (the twin's record ports, the picker's names)
            sb, vb = sv["netnames"][net]["bits"], vh["netnames"][net]["bits"]
            if len(sb) != len(vb):
                raise Error(f"sub-block port {net}: {len(sb)} bits in the SV, {len(vb)} in the twin")
            if any(all(b in q2d for b in bits) or bits in top_ports or not any(isinstance(b, int) for b in bits)
                   for bits, q2d in ((sb, sv_q2d), (vb, vh_q2d))):
                continue
            pairs = [(s, v) for s, v in zip(sb, vb) if isinstance(s, int) and isinstance(v, int)]
            if any(vh2sv.get(v, s) != s for s, v in pairs):
                continue  # twin bits already cut as other SV bits
            if all(vh2sv.get(v) == s for s, v in pairs):
                continue  # the same signal under another instance's port in both designs
            vh2sv.update((v, s) for s, v in pairs)
            out[net] = list(zip(sb, vb))
    for net, (sb, vb) in product_operands(sv, vh).items():
        pairs = list(zip(sb, vb))
        if any(vh2sv.get(v, s) != s for s, v in pairs) or all(vh2sv.get(v) == s for s, v in pairs):
            continue
        vh2sv.update((v, s) for s, v in pairs)
        out[net] = pairs
    return out


def product_operands(sv, vh):
    """{`<instance>.mul<k>_a` / `_b`: (SV bits, twin bits)}: the operands of the products ($mul),
    paired within an instance by their widths without the constant-0 top bits (the SV's
    `{8'd0, r} * {24'd0, e}` and the twin's `ra * e` of dcqcn_mq_grant are both 24 x 32). Made cut
    points, the two designs' products read the same inputs, and Yosys merges them into one cell
    (wreduce, opt_merge), so that no cone holds a product of each HDL: a SAT proof that two
    multipliers are equal does not finish (docs/formal.md, Limits). The operands' own obligations
    (SV r = twin ra, a minimum; SV e = twin e, a difference) are small. Products whose widths do not
    pair one to one are left alone (not cutting is always sound)."""
    def muls(mod):
        by_inst = {}
        for name, c in sorted(mod["cells"].items()):
            if c["type"] != "$mul":
                continue
            inst = ".".join(re.findall(r"\\(u_\w+)\.", name))
            ops = []
            for port in ("A", "B"):
                bits = list(c["connections"][port])
                while bits and bits[-1] == "0":
                    bits.pop()
                ops.append(bits)
            by_inst.setdefault(inst, []).append(ops)
        return by_inst
    out = {}
    s_muls, v_muls = muls(sv), muls(vh)
    for inst in sorted(set(s_muls) & set(v_muls)):
        def key(ops):
            return tuple(len(b) for b in ops)
        s_keys = [key(o) for o in s_muls[inst]]
        v_keys = [key(o) for o in v_muls[inst]]
        if sorted(s_keys) != sorted(v_keys) or len(set(s_keys)) != len(s_keys):
            continue
        for k, ops in enumerate(sorted(s_muls[inst], key=key)):
            vops = next(o for o in v_muls[inst] if key(o) == key(ops))
            for port, sb, vb in zip("ab", ops, vops):
                out[f"{inst}.mul{k}_{port}"] = (sb, vb)
    return out


def check(args, config):
    top, value = config
    short = "core" if top == "dcqcn_mq_core" else "rr"
    work = args.work / f"{short}{value}"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    t0 = time.monotonic()
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    (work / "vhdl.v").write_text(synth_vhdl(args.vhdl_dir, top, value))
    sv, vh = read_designs(work, args.sv_dir, work / "vhdl.v", top,
                          "QPS" if top == "dcqcn_mq_core" else "N", value)
    pairs, sv_q2d, vh_q2d = correspondence(sv, vh, args.vhdl_dir, top, value)
    if top == "dcqcn_mq_rr":
        vh["ports"] = {RR_PORTS.get(n, n): p for n, p in vh["ports"].items()}
    (work / "correspondence.txt").write_text(
        "".join(f"{v:<44} <-> {s:<44} {len(b):>4} bits\n" for v, s, b, _ in pairs))
    mem = [b for v, _, b, _ in pairs if v in F.MEMORY_FIELDS]
    res = {"ff_sv": len(sv_q2d), "ff_vhdl": len(vh_q2d), "pairs": len(pairs) - len(mem),
           "paired_bits": sum(len(b) for v, _, b, _ in pairs if v not in F.MEMORY_FIELDS),
           "mem_words": len(mem), "mem_bits": sum(len(b) for b in mem)}
    cps = (cut_points(sv, vh, sv_q2d, vh_q2d, args.sv_dir, args.vhdl_dir, top)
           if top == "dcqcn_mq_core" and not args.no_cut_points else {})
    failed, dropped = [], []
    for mode in ("step", "reset"):
        while True:
            outs, undef, ncp = F.build(work, sv, vh, pairs, [], sv_q2d, vh_q2d, mode, args.sv_dir, cps={},
                                       free_plan=cps)
            total, proven, unproven = F.prove(work, mode, free_cuts=mode == "step", bit_level=True)
            if total != outs:
                raise Error(f"{mode}: {outs} output bits but {total} $equiv cells")
            # A cut point is a claim of its own: a sub-block port the two HDLs define apart, even
            # where its readers mask the difference (until 2026-11-27 the twin's visit drove ev_tf
            # with tf, the SV with ev_inc & tf), fails, and so does what its readers compute from it.
            # Such cut points are dropped and the step proven again without them (fewer cut
            # points: the same claim, larger cones); first those that are not a memory's write
            # data, whose failures are mostly those of the others, then any.
            bad = sorted({port for port, _ in unproven if port in cps})
            bad = [n for n in bad if not n.endswith(".wdata")] or bad
            if mode != "step" or not bad or args.keep_cut_points:
                break
            dropped += bad
            print(f"formal_mq: core QPS={value}: cut points dropped (they differ): {', '.join(bad)}",
                  flush=True)
            cps = {n: p for n, p in cps.items() if n not in bad}
        res[f"undef_{mode}"] = undef
        res[f"cutpoints_{mode}"] = ncp
        res[mode] = (total, proven, len(unproven))
        failed += [f"{mode}: {sig}" for sig in F.summarise(unproven)]
    res["cutpoints"] = len(cps)
    res["dropped"] = dropped
    res["time"] = time.monotonic() - t0
    res["cpu"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c0
    res["failed"] = failed
    res["work"] = work
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--qps", type=int, nargs="*", default=[4],
                    help="QPS of the core proofs (1: GHDL 2.0 cannot synthesise the twin, docs/formal.md)")
    ap.add_argument("--rr-n", type=int, nargs="*", default=[64, 65, 4096],
                    help="N of the picker proofs (dcqcn_mq_rr on its own)")
    ap.add_argument("--sv-dir", type=Path, default=ROOT / "rtl" / "mq")
    ap.add_argument("--vhdl-dir", type=Path, default=ROOT / "rtl" / "vhdl" / "mq")
    ap.add_argument("--mutant", type=Path, help="a verilator/mutants/mq/*.toml edit applied to a copy "
                    "(file relative to rtl/: mq/... or vhdl/mq/...)")
    ap.add_argument("--expect-fail", action="store_true",
                    help="succeed only if the proof fails (for an injected difference)")
    ap.add_argument("--expect-differ", action="append", default=[], metavar="PORT",
                    help="with --expect-fail: this port (e.g. m_grant_qp, next:u_rpt.r.rx_bytes) must be "
                         "among the unproven ones")
    ap.add_argument("--no-cut-points", action="store_true",
                    help="no cut points at the sub-block outputs (slower; the same claim)")
    ap.add_argument("--keep-cut-points", action="store_true",
                    help="do not drop the cut points whose own obligations fail (a quick list of them)")
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "formal" / "mq")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="proofs run at once, one process each (default: one per core)")
    args = ap.parse_args()
    try:
        for n in args.qps + args.rr_n:
            if not 1 <= n <= 4096:
                raise Error(f"QPS / N {n}: out of range 1..4096")
        configs = [("dcqcn_mq_core", n) for n in args.qps] + [("dcqcn_mq_rr", n) for n in args.rr_n]
        if not configs:
            raise Error("--qps and --rr-n name nothing to prove")
        if args.jobs < 1:
            raise Error(f"--jobs {args.jobs}: at least 1")
        args.work.mkdir(parents=True, exist_ok=True)
        if args.mutant:
            # formal.py's copy of rtl/ (SV and VHDL trees side by side under <work>/rtl)
            mut = argparse.Namespace(mutant=args.mutant, work=args.work, sv_dir=ROOT / "rtl",
                                     vhdl_dir=ROOT / "rtl" / "vhdl")
            rtl, _, desc = F.apply_mutant(mut)
            args.sv_dir, args.vhdl_dir = rtl / "mq", rtl / "vhdl" / "mq"
            print(f"formal_mq: mutant {args.mutant.name} ({desc}) applied to a copy in {rtl}")
        with concurrent.futures.ProcessPoolExecutor(max_workers=min(args.jobs, len(configs))) as pool:
            results = list(pool.map(check, [args] * len(configs), configs))
        any_fail, differ = False, set()
        for (top, n), r in zip(configs, results):
            ok = not r["failed"]
            any_fail |= not ok
            what = f"dcqcn_mq_core QPS={n}" if top == "dcqcn_mq_core" else f"dcqcn_mq_rr N={n}"
            print(f"{what}: {'PROVEN' if ok else 'FAILED'} in {r['time']:.1f} s ({r['cpu']:.1f} s CPU in "
                  f"yosys/ghdl); flip-flop bits SV {r['ff_sv']}, VHDL {r['ff_vhdl']}; {r['pairs']} fields "
                  f"paired ({r['paired_bits']} bits), {r['mem_words']} memory words paired "
                  f"({r['mem_bits']} bits); {r['cutpoints']} cut points ({r['cutpoints_step']} bits; "
                  f"{len(r['dropped'])} dropped); x constants as free inputs SV "
                  f"{r['undef_step'].get('sv', 0)}, VHDL {r['undef_step'].get('vhdl', 0)}; $equiv cells "
                  f"step {r['step'][0]} ({r['step'][1]} proven, {r['step'][2]} unproven), reset "
                  f"{r['reset'][0]} ({r['reset'][1]} proven, {r['reset'][2]} unproven)", flush=True)
            differ.update(f.split(": ", 1)[1].split("[")[0] for f in r["failed"])
            for f in r["failed"][:20]:
                print(f"  differs: {f}")
            if len(r["failed"]) > 20:
                print(f"  ... {len(r['failed']) - 20} more ({r['work']}/*.log)")
        if args.expect_fail:
            if not any_fail:
                print("formal_mq: the injected difference was NOT detected", file=sys.stderr)
                sys.exit(1)
            missing = [p for p in args.expect_differ if p not in differ]
            if missing:
                print(f"formal_mq: the proof failed, but not on {', '.join(missing)}", file=sys.stderr)
                sys.exit(1)
            print("formal_mq: the injected difference makes the proof fail (expected)")
        elif any_fail:
            sys.exit(1)
    except (Error, OSError) as e:
        print(f"formal_mq: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
