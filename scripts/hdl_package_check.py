#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the HDL packaging (make hdl-package-check, part of make test):

1. dcqcn.core (FuseSoC CAPI2), rtl/files.f, rtl/files_vhdl.f and rtl/ruckus.tcl name exactly the RTL
   files that exist (rtl/*.sv, rtl/*.svh; rtl/vhdl/*.vhd), the VHDL in one compile order everywhere
   (ruckus.tcl is evaluated by tclsh with a stand-in `loadSource` that records its calls);
2. `fusesoc run --target lint` (Verilator -Wall through FuseSoC/Edalize) passes on the core, and
   fails on a copy of the core whose RTL has a width mismatch planted (the target really lints);
3. `fusesoc run --target vhdl` analyses and elaborates the VHDL twin with GHDL in the core's order;
4. `fusesoc run --target sim` replays the golden set golden/fuzz-mutant-cnp-edge-early on Icarus and
   the testbench reports PASS with the set's cycle count.

Work directories live under target/fusesoc (FuseSoC's library is given with --cores-root, no user
configuration is read or written). Exit status 1 on a failed check, 2 on a missing tool.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CORE = "dcqcn.core"
VLNV = "dcqcn:rl:dcqcn_rl"
SIM_SET = "golden/fuzz-mutant-cnp-edge-early"

failures = []


def check(ok, msg):
    print(("ok    " if ok else "FAIL  ") + msg)
    if not ok:
        failures.append(msg)


def rtl_files():
    sv = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "rtl", "*.sv")))
    svh = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "rtl", "*.svh")))
    vhd = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "rtl", "vhdl", "*.vhd")))
    return sv, svh, vhd


def core_filesets():
    import yaml
    with open(os.path.join(ROOT, CORE)) as fh:
        text = fh.read()
    if not text.startswith("CAPI=2:"):
        check(False, f"{CORE}: does not start with CAPI=2:")
    core = yaml.safe_load(text)
    out = {}
    for name, fs in core["filesets"].items():
        files = []
        for f in fs["files"]:
            files.append(next(iter(f)) if isinstance(f, dict) else f)
        out[name] = files
    return core, out


def read_list(rel):
    with open(os.path.join(ROOT, rel)) as fh:
        return [line.strip() for line in fh if line.strip()]


def ruckus_loads(hdl):
    """The paths rtl/ruckus.tcl loads, evaluated by tclsh with stand-ins for ruckus's procs."""
    script = f"""
proc loadSource {{args}} {{
    array set a $args
    puts "$a(-lib) $a(-path)"
}}
set ::DIR_PATH {{{os.path.join(ROOT, 'rtl')}}}
set ::env(RUCKUS_DIR) {{{tempfile.gettempdir()}}}
rename source tcl_source
proc source {{args}} {{}}
{'set ::env(DCQCN_HDL) vhdl' if hdl == 'vhdl' else 'catch {unset ::env(DCQCN_HDL)}'}
tcl_source {{{os.path.join(ROOT, 'rtl', 'ruckus.tcl')}}}
"""
    r = subprocess.run(["tclsh"], input=script, capture_output=True, text=True)
    if r.returncode != 0:
        check(False, f"rtl/ruckus.tcl ({hdl}): tclsh: {r.stderr.strip()}")
        return []
    out = []
    for line in r.stdout.splitlines():
        lib, path = line.split(" ", 1)
        if lib != "dcqcn":
            check(False, f"rtl/ruckus.tcl ({hdl}): {os.path.basename(path)} in library {lib}")
        out.append(os.path.relpath(os.path.normpath(path), ROOT))
    return out


def lists():
    sv, svh, vhd = rtl_files()
    core, fs = core_filesets()
    sv_core = fs.get("rtl_sv", [])
    vhd_core = fs.get("rtl_vhdl", [])
    check(sorted(sv_core) == sorted(sv + svh),
          f"{CORE} rtl_sv names exactly rtl/*.sv and rtl/*.svh ({len(sv) + len(svh)} files)")
    check(sorted(vhd_core) == vhd, f"{CORE} rtl_vhdl names exactly rtl/vhdl/*.vhd ({len(vhd)} files)")
    for name, files in fs.items():
        missing = [f for f in files if not os.path.isfile(os.path.join(ROOT, f))]
        check(not missing, f"{CORE} fileset {name}: every file exists {missing or ''}")
    f_sv = read_list("rtl/files.f")
    check(f_sv[0] == "+incdir+rtl" and all(os.path.isfile(os.path.join(ROOT, h)) for h in svh),
          "rtl/files.f: +incdir+rtl first (the .svh are included from rtl/)")
    check(sorted(f_sv[1:]) == sv, f"rtl/files.f names exactly rtl/*.sv ({len(sv)} files)")
    check([f for f in sv_core if f.endswith(".sv")] == f_sv[1:], "rtl/files.f: the core's order")
    f_vhd = read_list("rtl/files_vhdl.f")
    check(f_vhd == vhd_core, "rtl/files_vhdl.f: the core's VHDL files in the core's compile order")
    check(ruckus_loads("sv") == sv_core, "rtl/ruckus.tcl (SV): the core's rtl_sv files, same order")
    check(ruckus_loads("vhdl") == vhd_core, "rtl/ruckus.tcl (DCQCN_HDL=vhdl): the core's rtl_vhdl files, same order")
    return core


def fusesoc(cores_root, build_root, *args):
    cmd = ["fusesoc", "--cores-root", cores_root, "run", "--build-root", build_root, *args]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cores_root)
    return r, " ".join(cmd)


def lint():
    build = os.path.join(ROOT, "target", "fusesoc")
    r, cmd = fusesoc(ROOT, build, "--target", "lint", VLNV)
    check(r.returncode == 0, f"{cmd}: exit {r.returncode}")
    if r.returncode != 0:
        print(r.stdout[-3000:], r.stderr[-3000:])
    # the Verilator command file FuseSoC wrote: -Wall and every SV source
    vc = glob.glob(os.path.join(build, "*", "lint", "*.vc"))
    text = open(vc[0]).read() if vc else ""
    sv, _, _ = rtl_files()
    check("-Wall" in text and all(os.path.basename(f) in text for f in sv),
          "the lint target runs verilator -Wall on every rtl/*.sv")
    # a planted lint defect must fail the same target
    with tempfile.TemporaryDirectory(prefix="fusesoc-plant-") as tmp:
        shutil.copy(os.path.join(ROOT, CORE), tmp)
        shutil.copytree(os.path.join(ROOT, "rtl"), os.path.join(tmp, "rtl"))
        os.makedirs(os.path.join(tmp, "regmap"))
        shutil.copy(os.path.join(ROOT, "regmap", "dcqcn_regs.rdl"), os.path.join(tmp, "regmap"))
        for d in ("verilator", "testbench/sv"):
            shutil.copytree(os.path.join(ROOT, d), os.path.join(tmp, d))
        p = os.path.join(tmp, "rtl", "dcqcn_rl.sv")
        src = open(p).read()
        i = src.rindex("endmodule")
        plant = "    logic [3:0] planted_narrow;\n    assign planted_narrow = 8'd255;\n"
        open(p, "w").write(src[:i] + plant + src[i:])
        r, _ = fusesoc(tmp, os.path.join(tmp, "build"), "--target", "lint", VLNV)
        check(r.returncode != 0 and "planted_narrow" in r.stdout + r.stderr,
              "the lint target fails on an RTL copy with a planted width mismatch")


def vhdl():
    build = os.path.join(ROOT, "target", "fusesoc")
    r, cmd = fusesoc(ROOT, build, "--target", "vhdl", VLNV)
    check(r.returncode == 0, f"fusesoc --target vhdl: GHDL analyses and elaborates the twin in the core's order (exit {r.returncode})")
    if r.returncode != 0:
        print(r.stdout[-3000:], r.stderr[-3000:])


def sim():
    build = os.path.join(ROOT, "target", "fusesoc")
    vectors = os.path.join(ROOT, SIM_SET, "vectors.txt")
    name = os.path.basename(SIM_SET)
    head = open(vectors).read(2000)
    m = re.search(r"\((\d+) cycles", head)
    r, cmd = fusesoc(ROOT, build, "--target", "sim", VLNV, f"--vectors={vectors}", f"--set={name}")
    out = r.stdout + r.stderr
    ok = r.returncode == 0 and m and f"PASS {name} {m.group(1)} cycles" in out
    check(bool(ok), f"fusesoc --target sim (Icarus) replays {SIM_SET}: PASS {name} "
          f"{m.group(1) if m else '?'} cycles")
    if not ok:
        print(out[-3000:])


def main():
    for tool in ("fusesoc", "verilator", "iverilog", "ghdl", "tclsh"):
        if shutil.which(tool) is None:
            print(f"error: {tool} is missing: run scripts/deps.sh", file=sys.stderr)
            return 2
    lists()
    lint()
    vhdl()
    sim()
    if failures:
        print(f"hdl-package-check: {len(failures)} failed")
        return 1
    print("hdl-package-check: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
