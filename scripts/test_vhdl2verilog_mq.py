#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of scripts/vhdl2verilog.py's multi-QP state injection (--sv-inject; docs/spec-mq.md 8.3):
every observed register and memory copy of rtl/mq/ is written once, and a register the lockstep does
not observe, or an observed one the RTL no longer assigns, stops the generation by name.

Run: python3 -m unittest scripts/test_vhdl2verilog_mq.py (Python 3 standard library; no GHDL: the
twin's --inject is exercised by the lockstep build and crates/dcqcn-cosim/tests/mq_inject.rs)."""

import re
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vhdl2verilog as v2v  # noqa: E402

RTL_MQ = v2v.ROOT / "rtl" / "mq"


class SvInjection(unittest.TestCase):
    def test_every_register_and_copy_once(self):
        fields, bitmaps, copies = v2v.mq_declarations()
        regs, mems = v2v.mq_sv_targets(RTL_MQ, 4)
        self.assertEqual(set(regs), {f for f, _ in fields} | set(bitmaps))
        self.assertEqual(set(mems), {c[0] for c in copies})
        text = "\n".join(v2v.mq_inject_lines(regs, mems, 4))
        for name, _ in fields:
            self.assertEqual(len(re.findall(rf"\s{re.escape(regs[name])} <= in_state\[", text)), 1, name)
        # one write and one read per copy, numbered in mem.rs order
        for k, (name, _, _) in enumerate(copies):
            self.assertEqual(len(re.findall(rf"5'd{k}: .*// {name}$", text, re.M)), 2, name)
        # the bitmaps at k * QPS, the state's last field ending at the width of obs_state
        self.assertIn(f"{regs['arb_mask']} <= in_bitmaps[27:24];", text)
        self.assertIn(f"<= in_state[{sum(w for _, w in fields) - 1}:", text)

    def mutated(self, file, find, replace):
        tmp = Path(tempfile.mkdtemp(prefix="dcqcn-mq-inject-"))
        self.addCleanup(shutil.rmtree, tmp)
        for f in RTL_MQ.glob("*.sv"):
            shutil.copy(f, tmp / f.name)
        if find:
            text = (tmp / file).read_text()
            self.assertEqual(text.count(find), 1)
            (tmp / file).write_text(text.replace(find, replace))
        return tmp

    def test_an_unobserved_register_is_refused(self):
        src = self.mutated("dcqcn_mq_visit.sv", "            now    <= now + 32'd1;\n",
                           "            now    <= now + 32'd1;\n            shadow_q <= now;\n")
        with self.assertRaisesRegex(v2v.Error, r"dut\.u_visit\.shadow_q: a register that is not in obs\.rs"):
            v2v.mq_sv_targets(src, 4)

    def test_an_observed_register_not_assigned_is_refused(self):
        src = self.mutated("dcqcn_mq_visit.sv", "", "")
        visit = src / "dcqcn_mq_visit.sv"
        text, n = re.subn(r"^(\s*)now(\s*<=)", r"\1now_x\2", visit.read_text(), flags=re.M)
        self.assertGreater(n, 0)
        visit.write_text(text)
        with self.assertRaisesRegex(v2v.Error, r"register now is assigned in 0 places"):
            v2v.mq_sv_targets(src, 4)

    def test_a_copy_of_another_width_is_refused(self):
        src = self.mutated("dcqcn_mq_core.sv", "dcqcn_mq_mem #(.W(48), .QPS(QPS_E), .AW(AW)) u_rate_mem_visit",
                           "dcqcn_mq_mem #(.W(47), .QPS(QPS_E), .AW(AW)) u_rate_mem_visit")
        with self.assertRaisesRegex(v2v.Error, r"u_rate_mem_visit is 47 bits wide, mem\.rs MEMORIES says 48"):
            v2v.mq_sv_targets(src, 4)


if __name__ == "__main__":
    unittest.main()
