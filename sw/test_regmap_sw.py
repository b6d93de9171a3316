# SPDX-License-Identifier: MIT
"""The generated software descriptions against the register map sources (make regmap-check).

- sw/c/dcqcn_regs.h, sw/c/dcqcn_mq_regs.h: compiled with gcc -std=c11 -Wall -Wextra -Werror
  -pedantic in the hand-written spot checks sw/c/test_dcqcn_regs.c, sw/c/test_dcqcn_mq_regs.c, and
  in a program that prints every field's mask, shift, width and reset and every word's offset,
  reset, writability and struct offset (for the multi-QP block also every window word's, and its
  address in the windows of QPs 0, 1 and the last through DCQCN_MQ_REGS_QP_ADDR), compared with
  regmap/dcqcn_regs.rdl and regmap/dcqcn_mq_regs.rdl compiled here by systemrdl-compiler (not read
  from the JSON exports).
- sw/python/dcqcn_rogue.py, sw/python/dcqcn_mq_rogue.py: byte-compiled, then imported against a
  minimal stand-in of the pyrogue names they use (PyRogue is not on PyPI); every RemoteVariable
  against the source's field, and for the multi-QP block one window Device per QP at its address.

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
MQ_RDL = os.path.join(ROOT, "regmap", "dcqcn_mq_regs.rdl")
HEADER_DIR = os.path.join(ROOT, "sw", "c")
ROGUE = os.path.join(ROOT, "sw", "python", "dcqcn_rogue.py")
MQ_ROGUE = os.path.join(ROOT, "sw", "python", "dcqcn_mq_rogue.py")
CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"]


def reg_words(regs):
    """(word, offset, [(field, lsb, width, sw access, singlepulse, reset, desc, unit)]); a window
    word's offset is from its window's base."""
    return [(reg.inst_name, reg.raw_address_offset,
             [(f.inst_name, f.lsb, f.width, f.get_property("sw").name,
               bool(f.get_property("singlepulse")), f.get_property("reset"),
               " ".join(f.get_property("desc").split()), f.get_property("unit"))
              for f in reg.fields()])
            for reg in regs]


def source(rdl=RDL, window=False):
    """The global words (reg_words) of `rdl`; with `window`, also its regfile array as
    (name, base, stride, count, words)."""
    from systemrdl import RDLCompiler
    from systemrdl.node import RegfileNode
    rdlc = RDLCompiler()
    rdlc.compile_file(rdl)
    top = rdlc.elaborate().top
    words = reg_words(top.registers())
    if not window:
        return words
    (rf,) = [c for c in top.children() if isinstance(c, RegfileNode)]
    return words, (rf.inst_name, rf.raw_address_offset, rf.array_stride, rf.array_dimensions[0],
                   reg_words(rf.registers()))


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

    def word_lines(self, words, prefix, offset_of):
        """printf lines for every word's and field's macros, and the values they must print;
        offset_of(word) is the C expression of the word's offset in the header's struct."""
        lines, want = [], []
        for word, offset, fields in words:
            w = f"{prefix}__{word.upper()}"
            writable = any(sw != "r" for _, _, _, sw, _, _, _, _ in fields)
            reset = sum(r << lsb for _, lsb, _, sw, pulse, r, _, _ in fields if not pulse)
            lines.append(f'printf("{word} %#lx %#lx %d %#lx\\n", (unsigned long){w}_OFFSET, '
                         f'(unsigned long){w}_RESET, {w}_WRITABLE, '
                         f'(unsigned long)({offset_of(word)}));')
            want.append(f"{word} {cx(offset)} {cx(reset)} {int(writable)} {cx(offset)}")
            for name, lsb, width, _, _, reset, _, _ in fields:
                f = f"{w}__{name.upper()}"
                lines.append(f'printf("{word}.{name} %#lx %d %d %#lx\\n", (unsigned long){f}_bm, '
                             f'{f}_bp, {f}_bw, (unsigned long){f}_reset);')
                mask = ((1 << width) - 1) << lsb
                want.append(f"{word}.{name} {cx(mask)} {lsb} {width} {cx(reset)}")
        return lines, want

    def run_lines(self, header, lines, want):
        prog = os.path.join(self.tmp, "all.c")
        with open(prog, "w") as fh:
            fh.write(f'#include <stddef.h>\n#include <stdio.h>\n#include "{header}"\n'
                     "int main(void) {\n    " + "\n    ".join(lines) + "\n    return 0;\n}\n")
        r = self.build_run(prog)
        self.assertEqual(r.returncode, 0)
        got = r.stdout.splitlines()
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(g, w)

    def test_every_macro_equals_the_source(self):
        lines, want = self.word_lines(source(), "DCQCN_REGS",
                                      lambda w: f"offsetof(dcqcn_regs_t, {w})")
        self.run_lines("dcqcn_regs.h", lines, want)
        self.assertGreater(len(want), 60)

    def test_mq_spot_values(self):
        r = self.build_run(os.path.join(HEADER_DIR, "test_dcqcn_mq_regs.c"))
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_every_mq_macro_equals_the_source(self):
        words, (win, base, stride, count, qp_words) = source(MQ_RDL, window=True)
        p, t = "DCQCN_MQ_REGS", "dcqcn_mq_regs_t"
        lines, want = self.word_lines(words, p, lambda w: f"offsetof({t}, {w})")
        # a window word's offset is its offset in the first window's struct
        more, more_want = self.word_lines(
            qp_words, f"{p}__{win.upper()}X",
            lambda w: f"offsetof({t}, {win}[0].{w}) - {p}_{win.upper()}_BASE")
        lines += more
        want += more_want
        lines.append(f'printf("window %#lx %#lx %lu\\n", (unsigned long){p}_{win.upper()}_BASE, '
                     f'(unsigned long){p}_{win.upper()}_STRIDE, (unsigned long){p}_{win.upper()}_COUNT);')
        want.append(f"window {cx(base)} {cx(stride)} {count}")
        for word, offset, _ in qp_words:
            for q in (0, 1, count - 1):
                lines.append(
                    f'printf("{word}[{q}] %#lx %#lx\\n", (unsigned long){p}_{win.upper()}_ADDR('
                    f'{q}, {p}__{win.upper()}X__{word.upper()}_OFFSET), '
                    f'(unsigned long)offsetof({t}, {win}[{q}].{word}));')
                addr = base + q * stride + offset
                want.append(f"{word}[{q}] {cx(addr)} {cx(addr)}")
        self.run_lines("dcqcn_mq_regs.h", lines, want)
        self.assertGreater(len(qp_words), 15)


class RogueDevice(unittest.TestCase):
    def test_byte_compiles(self):
        py_compile.compile(ROGUE, cfile=os.path.join(tempfile.mkdtemp(), "x.pyc"), doraise=True)

    def load(self, path=ROGUE, module="dcqcn_rogue"):
        """The module imported against a stand-in `pyrogue` (keyword-only, no defaults: a missing
        or misspelt argument fails as it would in PyRogue; `addNodes` adds `number` nodes named
        name[i] at offset + i * stride, as PyRogue's does)."""
        pr = types.ModuleType("pyrogue")

        class UInt:
            pass

        class Device:
            def __init__(self, *, description, name=None, offset=0):
                self.description = description
                self.name = name
                self.offset = offset
                self.nodes = []

            def add(self, node):
                assert node.name not in {n.name for n in self.nodes}, node.name
                self.nodes.append(node)

            def addNodes(self, nodeClass, number, stride, **kwargs):
                name = kwargs.pop("name")
                offset = kwargs.pop("offset")
                for i in range(number):
                    self.add(nodeClass(name=f"{name}[{i}]", offset=offset + i * stride, **kwargs))

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
            spec = importlib.util.spec_from_file_location(module, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
        finally:
            if saved is None:
                del sys.modules["pyrogue"]
            else:
                sys.modules["pyrogue"] = saved
        return mod

    def check_variables(self, nodes, words):
        """`nodes` (RemoteVariables) are the fields of `words`, in order, and do not overlap."""
        want = [(name, offset, lsb, width, rogue_mode(sw, pulse), unit, desc)
                for _, offset, fields in words
                for name, lsb, width, sw, pulse, _, desc, unit in sorted(fields, key=lambda f: f[1])]
        got = [(v.name, v.offset, v.bitOffset, v.bitSize, v.mode, v.units, v.description)
               for v in nodes]
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(g[:6], w[:6])
            self.assertTrue(g[6].startswith(w[6]), f"{g[0]}: description {g[6]!r}")
        # PyRogue refuses overlapping variables: none overlap
        bits = {}
        for v in nodes:
            m = ((1 << v.bitSize) - 1) << v.bitOffset
            self.assertEqual(bits.get(v.offset, 0) & m, 0, v.name)
            bits[v.offset] = bits.get(v.offset, 0) | m
        self.assertEqual(len({v.name for v in nodes}), len(nodes))

    def test_every_field_equals_the_source(self):
        dev = self.load().DcqcnRegs(name="Dcqcn")
        self.check_variables(dev.nodes, source())

    def test_mq_byte_compiles(self):
        py_compile.compile(MQ_ROGUE, cfile=os.path.join(tempfile.mkdtemp(), "x.pyc"), doraise=True)

    def test_every_mq_field_and_window_equals_the_source(self):
        words, (win, base, stride, count, qp_words) = source(MQ_RDL, window=True)
        mod = self.load(MQ_ROGUE, "dcqcn_mq_rogue")
        for qps in (count, 3):
            dev = mod.DcqcnMqRegs(name="DcqcnMq", qps=qps) if qps != count else \
                mod.DcqcnMqRegs(name="DcqcnMq")
            variables = [n for n in dev.nodes if not isinstance(n, mod.DcqcnMqQp)]
            windows = [n for n in dev.nodes if isinstance(n, mod.DcqcnMqQp)]
            self.check_variables(variables, words)
            self.assertEqual([(d.name, d.offset) for d in windows],
                             [(f"{win}[{q}]", base + q * stride) for q in range(qps)])
            for d in (windows[0], windows[-1]):
                self.check_variables(d.nodes, qp_words)


if __name__ == "__main__":
    unittest.main()
