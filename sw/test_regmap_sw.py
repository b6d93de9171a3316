# SPDX-License-Identifier: MIT
"""The generated software descriptions against the register map source (make regmap-check).

- sw/c/dcqcn_regs.h: compiled with gcc -std=c11 -Wall -Wextra -Werror -pedantic in the hand-written
  spot checks sw/c/test_dcqcn_regs.c, and in a program that prints every field's mask, shift, width
  and reset and every word's offset, reset, writability and struct offset, compared with
  regmap/dcqcn_regs.rdl compiled here by systemrdl-compiler (not read from the JSON export).
- sw/python/dcqcn_rogue.py: byte-compiled, then imported against a minimal stand-in of the pyrogue
  names it uses (PyRogue is not on PyPI); every RemoteVariable against the source's field.

Run: python3 -m unittest discover -s sw -p 'test_*.py' -v
"""

import importlib.util
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import types
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RDL = os.path.join(ROOT, "regmap", "dcqcn_regs.rdl")
HEADER_DIR = os.path.join(ROOT, "sw", "c")
ROGUE = os.path.join(ROOT, "sw", "python", "dcqcn_rogue.py")
CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"]


def source():
    """(word, offset, [(field, lsb, width, sw access, singlepulse, reset, desc, unit)])."""
    from systemrdl import RDLCompiler
    rdlc = RDLCompiler()
    rdlc.compile_file(RDL)
    top = rdlc.elaborate().top
    words = []
    for reg in top.registers():
        fields = [(f.inst_name, f.lsb, f.width, f.get_property("sw").name,
                   bool(f.get_property("singlepulse")), f.get_property("reset"),
                   " ".join(f.get_property("desc").split()), f.get_property("unit"))
                  for f in reg.fields()]
        words.append((reg.inst_name, reg.address_offset, fields))
    return words


def cx(v):
    """v as C's printf("%#lx") writes it."""
    return f"{v:#x}" if v else "0"


def rogue_mode(sw, pulse):
    return {("rw", False): "RW", ("r", False): "RO", ("w", True): "WO"}[(sw, pulse)]


class CHeader(unittest.TestCase):
    def setUp(self):
        if shutil.which("gcc") is None:
            self.fail("gcc is missing (scripts/deps.sh installs it)")
        self.tmp = tempfile.mkdtemp(prefix="regmap-c-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def build_run(self, src):
        exe = os.path.join(self.tmp, "a.out")
        r = subprocess.run(["gcc", *CFLAGS, "-I", HEADER_DIR, src, "-o", exe],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, f"gcc {' '.join(CFLAGS)} {src}:\n{r.stderr}")
        r = subprocess.run([exe], capture_output=True, text=True)
        return r

    def test_spot_values(self):
        r = self.build_run(os.path.join(HEADER_DIR, "test_dcqcn_regs.c"))
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_every_macro_equals_the_source(self):
        words = source()
        lines, want = [], []
        for word, offset, fields in words:
            w = f"DCQCN_REGS__{word.upper()}"
            writable = any(sw != "r" for _, _, _, sw, _, _, _, _ in fields)
            reset = sum(r << lsb for _, lsb, _, sw, pulse, r, _, _ in fields if not pulse)
            lines.append(f'printf("{word} %#lx %#lx %d %#lx\\n", (unsigned long){w}_OFFSET, '
                         f'(unsigned long){w}_RESET, {w}_WRITABLE, '
                         f'(unsigned long)offsetof(dcqcn_regs_t, {word}));')
            want.append(f"{word} {cx(offset)} {cx(reset)} {int(writable)} {cx(offset)}")
            for name, lsb, width, _, _, reset, _, _ in fields:
                f = f"{w}__{name.upper()}"
                lines.append(f'printf("{word}.{name} %#lx %d %d %#lx\\n", (unsigned long){f}_bm, '
                             f'{f}_bp, {f}_bw, (unsigned long){f}_reset);')
                mask = ((1 << width) - 1) << lsb
                want.append(f"{word}.{name} {cx(mask)} {lsb} {width} {cx(reset)}")
        prog = os.path.join(self.tmp, "all.c")
        with open(prog, "w") as fh:
            fh.write('#include <stddef.h>\n#include <stdio.h>\n#include "dcqcn_regs.h"\n'
                     "int main(void) {\n    " + "\n    ".join(lines) + "\n    return 0;\n}\n")
        r = self.build_run(prog)
        self.assertEqual(r.returncode, 0)
        got = r.stdout.splitlines()
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(g, w)
        self.assertGreater(len(want), 60)


class RogueDevice(unittest.TestCase):
    def test_byte_compiles(self):
        py_compile.compile(ROGUE, cfile=os.path.join(tempfile.mkdtemp(), "x.pyc"), doraise=True)

    def load(self):
        """dcqcn_rogue imported against a stand-in `pyrogue` (keyword-only, no defaults: a missing
        or misspelt argument fails as it would in PyRogue)."""
        pr = types.ModuleType("pyrogue")

        class UInt:
            pass

        class Device:
            def __init__(self, *, description, name=None):
                self.description = description
                self.name = name
                self.nodes = []

            def add(self, node):
                self.nodes.append(node)

        class RemoteVariable:
            def __init__(self, *, name, description, offset, bitOffset, bitSize, mode, base, units):
                assert mode in ("RW", "RO", "WO"), mode
                assert base is UInt
                self.name, self.description, self.offset = name, description, offset
                self.bitOffset, self.bitSize, self.mode, self.units = bitOffset, bitSize, mode, units

        pr.UInt, pr.Device, pr.RemoteVariable = UInt, Device, RemoteVariable
        saved = sys.modules.get("pyrogue")
        sys.modules["pyrogue"] = pr
        try:
            spec = importlib.util.spec_from_file_location("dcqcn_rogue", ROGUE)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
        finally:
            if saved is None:
                del sys.modules["pyrogue"]
            else:
                sys.modules["pyrogue"] = saved
        return mod.DcqcnRegs(name="Dcqcn")

    def test_every_field_equals_the_source(self):
        dev = self.load()
        want = [(name, offset, lsb, width, rogue_mode(sw, pulse), unit, desc)
                for _, offset, fields in source()
                for name, lsb, width, sw, pulse, _, desc, unit in sorted(fields, key=lambda f: f[1])]
        got = [(v.name, v.offset, v.bitOffset, v.bitSize, v.mode, v.units, v.description)
               for v in dev.nodes]
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(g[:6], w[:6])
            self.assertTrue(g[6].startswith(w[6]), f"{g[0]}: description {g[6]!r}")
        # PyRogue refuses overlapping variables: none overlap
        bits = {}
        for v in dev.nodes:
            m = ((1 << v.bitSize) - 1) << v.bitOffset
            self.assertEqual(bits.get(v.offset, 0) & m, 0, v.name)
            bits[v.offset] = bits.get(v.offset, 0) | m
        self.assertEqual(len({v.name for v in dev.nodes}), len(dev.nodes))


if __name__ == "__main__":
    unittest.main()
