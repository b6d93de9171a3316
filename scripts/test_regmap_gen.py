# SPDX-License-Identifier: MIT
"""The register-map generator (scripts/regmap_gen.py) on its three sources: a broken source is
refused with an error naming its file and exit status 2, the window maps' windows and reset
expressions, nscc_mq's engine words against dcqcn_mq's, and the generated Rust maps of dcqcn_mq
and nscc_mq compiled on their own and compared with their sources. For nscc_mq also its C header
(sw/c/test_nscc_mq_regs.c and every macro) and PyRogue device, with the checks
sw/test_regmap_sw.py makes for the other two blocks. Run by `make regmap-check`:

    python3 -m unittest discover -s scripts -p 'test_*.py' -v
"""

import contextlib
import dataclasses
import io
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import regmap_gen as gen  # noqa: E402

sys.path.insert(0, os.path.join(gen.ROOT, "sw"))
import test_regmap_sw as sw_checks  # noqa: E402  (its helpers; its tests run from sw/)


def read(rel):
    with open(os.path.join(gen.ROOT, rel)) as fh:
        return fh.read()


class BrokenSource(unittest.TestCase):
    """Each case changes one line of a source; the generator must refuse it, name the file and the
    register, and exit with status 2 (`make regmap`, `make regmap-check`)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="regmap-broken-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def refused(self, blk, old, new, text):
        source = read(blk.source)
        self.assertEqual(source.count(old), 1, old)
        path = os.path.join(self.tmp, os.path.basename(blk.source))
        with open(path, "w") as fh:
            fh.write(source.replace(old, new))
        broken = dataclasses.replace(blk, source=path)
        saved, argv = gen.BLOCKS, sys.argv
        gen.BLOCKS, sys.argv = [broken], ["regmap_gen.py", "--check"]
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                status = gen.main()
        finally:
            gen.BLOCKS, sys.argv = saved, argv
        self.assertEqual(status, 2, err.getvalue())
        self.assertIn(path, err.getvalue())
        self.assertIn(text, err.getvalue())

    def test_a_field_name_used_twice(self):
        self.refused(gen.MQ, "} rc[23:0] = 8192;", "} now[23:0] = 8192;",
                     "reg qp[].qp_rate: field name `now` is also a field of `now`")
        self.refused(gen.RL, "} active[16:16]", "} alpha[16:16]",
                     "reg status: field name `alpha` is also a field of `alpha_cnp`")
        # a flow's record field named as the register it starts from
        self.refused(gen.NSCC, "} flow_base_rtt[23:0]", "} base_rtt[23:0]",
                     "reg qp[].qp_base_rtt: field name `base_rtt` is also a field of `base_rtt`")

    def test_an_access_kind_that_is_not_one_of_the_three(self):
        self.refused(gen.MQ, "field { sw = w; singlepulse; desc = \"writing 1 clears 0x104",
                     "field { sw = w; desc = \"writing 1 clears 0x104",
                     "access sw = w: use sw = rw, sw = r, or sw = w with singlepulse")

    def test_a_reset_that_is_not_its_expression(self):
        self.refused(gen.MQ, "rate_ai[23:0] = 39;", "rate_ai[23:0] = 40;",
                     "field rate_ai: reset 40 is not AI_RESET = 39")
        self.refused(gen.MQ, 'reset_param = "QPS"; }', 'reset_param = "QP_COUNT"; }',
                     "field qps: unknown reset_param `QP_COUNT`")

    def test_a_field_without_what_it_shows(self):
        self.refused(gen.MQ, 'view = "RATE_MEM[q].rt"; ', "",
                     "reg qp[].qp_target: field rt: a window field needs `view`")
        self.refused(gen.MQ, ' state = "cnt_dec";', "",
                     "field cnt_dec needs `state`")
        self.refused(gen.MQ, 'unit = "hex";', "", "field magic needs desc and unit")

    def test_a_window_array_not_at_the_default_qps(self):
        self.refused(gen.MQ, "} qp[1024] @ 0x100000 += 0x100;", "} qp[512] @ 0x100000 += 0x100;",
                     "regfile qp: 512 windows; the array is shown at the default QPS = 1024")
        self.refused(gen.MQ, "} qp[1024] @ 0x100000 += 0x100;", "} qp[1024] @ 0x100000 += 0x180;",
                     "regfile qp: windows at 0x100000 += 0x180")

    def test_a_window_word_outside_its_window_or_named_as_a_global_word(self):
        self.refused(gen.MQ, "} qp_ctrl @ 0x44;", "} qp_ctrl @ 0x46;",
                     "reg qp_ctrl: offset 0x46 is not a word inside the 0x100-byte window")
        self.refused(gen.MQ, "} qp_sent @ 0x3C;", "} now @ 0x3C;",
                     "reg now: a global word and a window word share the name")

    def test_the_rules_of_the_words_with_read_write_fields(self):
        self.refused(gen.MQ, 'state = "cfg_rate_min"; }', 'state = "cfg_rmin"; }',
                     "field rate_min: a read/write field is a configuration register")
        self.refused(gen.MQ, "write_order = 17;", "write_order = 16;",
                     "write_order 16 is also dfx_sel's")

    def test_a_systemrdl_error(self):
        self.refused(gen.MQ, "} dfx_qp @ 0x190;", "} dfx_qp @ 0x190", "SystemRDL errors")


class MultiQpMap(unittest.TestCase):
    def test_the_reset_expressions_of_spec_mq_2(self):
        d = gen.MQ_DEFAULTS
        want = {"QPS": 1024, "LINE_WIN": 8192, "MERGE_RESET": 625, "ALPHA_RESET": 8594,
                "NOCNP_RESET": 234_375, "CNP_TIMER_RESET": 15_625, "AI_RESET": 39,
                "HAI_RESET": 79, "RMIN_RESET": 66}
        self.assertEqual({n: gen.mq_param_value(n, d) for n in gen.MQ_PARAM_TEXT}, want)
        # spec-mq 2: HAI_RESET is at most 187,497 (at 65,537 Hz)
        self.assertEqual(gen.mq_param_value("HAI_RESET", dict(d, CLK_FREQ_HZ=65_537)), 187_497)

    def test_the_window_array(self):
        m, _ = gen.load(os.path.join(gen.ROOT, gen.MQ_SOURCE), gen.MQ)
        win = m["window"]
        self.assertEqual((win["name"], win["base"], win["stride"], win["count"], win["count_param"]),
                         ("qp", 0x100000, 0x100, 1024, "QPS"))
        self.assertEqual([w["offset"] for w in win["words"]],
                         [0x00, 0x04, 0x08, 0x0C, 0x10, 0x18, 0x1C, 0x20, 0x24, 0x28, 0x30, 0x34,
                          0x38, 0x3C, 0x40, 0x44])
        # the dcqcn_rl export has no window: its JSON keeps its shape
        self.assertNotIn("window", gen.load(os.path.join(gen.ROOT, gen.SOURCE))[0])

    def test_both_spec_regions_are_generated(self):
        text = read(gen.MQ_SPEC)
        for tag in ("regmap", "regmap-window"):
            begin, end = gen.markers(gen.MQ, tag)
            self.assertEqual((text.count(begin), text.count(end)), (1, 1), tag)


def field_rows(words):
    """{word name: (offset, [(field, lsb, width, access, reset)])}"""
    return {w["name"]: (w["offset"], [(f["name"], f["lsb"], f["width"], f["access"], f["reset"])
                                      for f in w["fields"]])
            for w in words}


class NsccMap(unittest.TestCase):
    """regmap/nscc_mq_regs.rdl: the engine's words are dcqcn_mq's (spec-nscc 8.1, 8.3), the NSCC
    words where spec-nscc 8 puts them."""

    @classmethod
    def setUpClass(cls):
        cls.nscc = gen.load(os.path.join(gen.ROOT, gen.NSCC_SOURCE), gen.NSCC)[0]
        cls.mq = gen.load(os.path.join(gen.ROOT, gen.MQ_SOURCE), gen.MQ)[0]

    def test_the_reset_expressions(self):
        self.assertEqual({n: gen.mq_param_value(n, gen.MQ_DEFAULTS) for n in gen.NSCC_PARAM_TEXT},
                         {"QPS": 1024, "LINE_WIN": 8192})

    def test_the_engine_words_are_those_of_dcqcn_mq(self):
        for key, engine in (("words", ["id", "params", "line_win", "status", "enables", "max_rate",
                                       "ost_limits", "credit_cap", "port_credit", "now",
                                       "cnt_ctrl", "cnt_grant", "cnt_grant_bytes_lo",
                                       "cnt_grant_bytes_hi", "cnt_req", "cnt_req_drop", "cnt_rpt",
                                       "cnt_rpt_spurious", "cnt_bad_qp", "cnt_init_drop"]),
                            ("window", ["qp_cc_rate", "qp_credit", "qp_stamp", "qp_ost", "qp_sent",
                                        "qp_req", "qp_ctrl"])):
            words = (lambda m: m["window"]["words"] if key == "window" else m["words"])
            nscc, mq = field_rows(words(self.nscc)), field_rows(words(self.mq))
            self.assertEqual(sorted(set(nscc) & set(mq)), sorted(engine), key)
            for name in engine:
                (off, fields), (mq_off, mq_fields) = nscc[name], mq[name]
                self.assertEqual(off, mq_off, name)
                if name == "id":
                    # nscc_mq's own magic (spec-nscc 8.1); the version field as dcqcn_mq's
                    self.assertEqual(fields[1], ("magic", 16, 16, "RO", 0x5CC0))
                    fields, mq_fields = fields[:1], mq_fields[:1]
                if name == "enables":
                    # bit 0 is NSCC's own enable; bits 1-3 as dcqcn_mq
                    self.assertEqual(fields[0], ("cc_en", 0, 1, "RW", 1))
                    fields, mq_fields = fields[1:], mq_fields[1:]
                if name == "ost_limits":
                    mq_fields = [f for f in mq_fields if f[0] != "ost_limit_cnp"]
                if name == "qp_ctrl":
                    mq_fields = [f for f in mq_fields if f[0] not in ("lim8", "cnp_flag", "ost_lt_lo")]
                self.assertEqual(fields, mq_fields, name)

    def test_the_nscc_words(self):
        self.assertEqual([w["offset"] for w in self.nscc["words"]
                          if 0x050 <= w["offset"] <= 0x084 or w["offset"] >= 0x144],
                         list(range(0x050, 0x088, 4)) + list(range(0x144, 0x168, 4)))
        win = self.nscc["window"]
        self.assertEqual((win["name"], win["base"], win["stride"], win["count"], win["count_param"]),
                         ("qp", 0x100000, 0x100, 1024, "QPS"))
        self.assertEqual([w["offset"] for w in win["words"] if w["offset"] >= 0x48],
                         list(range(0x48, 0x8C, 4)))
        # every counter of spec-nscc 8.1 is cleared by cnt_clear
        counters = [f for w in self.nscc["words"] for f in w["fields"] if w["offset"] >= 0x120]
        self.assertEqual({f["cleared_by"] for f in counters}, {"cnt_clear"})

    def test_both_spec_regions_are_generated(self):
        text = read(gen.NSCC_SPEC)
        for tag in ("regmap", "regmap-window"):
            begin, end = gen.markers(gen.NSCC, tag)
            self.assertEqual((text.count(begin), text.count(end)), (1, 1), tag)


class NsccSoftware(unittest.TestCase):
    """sw/c/nscc_mq_regs.h and sw/python/nscc_mq_rogue.py against regmap/nscc_mq_regs.rdl compiled
    afresh, as sw/test_regmap_sw.py checks dcqcn_mq's (its helpers)."""

    RDL = os.path.join(gen.ROOT, gen.NSCC_SOURCE)
    ROGUE = os.path.join(gen.ROOT, gen.NSCC_ROGUE_OUT)
    setUp = sw_checks.CHeader.setUp
    tearDown = sw_checks.CHeader.tearDown
    build_run = sw_checks.CHeader.build_run
    word_lines = sw_checks.CHeader.word_lines
    run_lines = sw_checks.CHeader.run_lines
    load = sw_checks.RogueDevice.load
    check_variables = sw_checks.RogueDevice.check_variables

    def test_spot_values(self):
        r = self.build_run(os.path.join(sw_checks.HEADER_DIR, "test_nscc_mq_regs.c"))
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_every_macro_equals_the_source(self):
        words, (win, base, stride, count, qp_words) = sw_checks.source(self.RDL, window=True)
        p, t, w = "NSCC_MQ_REGS", "nscc_mq_regs_t", win.upper()
        lines, want = self.word_lines(words, p, lambda n: f"offsetof({t}, {n})")
        more, more_want = self.word_lines(
            qp_words, f"{p}__{w}X", lambda n: f"offsetof({t}, {win}[0].{n}) - {p}_{w}_BASE")
        lines += more
        want += more_want
        lines.append(f'printf("window %#lx %#lx %lu\\n", (unsigned long){p}_{w}_BASE, '
                     f'(unsigned long){p}_{w}_STRIDE, (unsigned long){p}_{w}_COUNT);')
        want.append(f"window {sw_checks.cx(base)} {sw_checks.cx(stride)} {count}")
        for word, offset, _ in qp_words:
            for q in (0, 1, count - 1):
                lines.append(f'printf("{word}[{q}] %#lx %#lx\\n", (unsigned long){p}_{w}_ADDR({q}, '
                             f'{p}__{w}X__{word.upper()}_OFFSET), '
                             f'(unsigned long)offsetof({t}, {win}[{q}].{word}));')
                addr = sw_checks.cx(base + q * stride + offset)
                want.append(f"{word}[{q}] {addr} {addr}")
        self.run_lines(os.path.basename(gen.NSCC_C_OUT), lines, want)
        self.assertGreater(len(qp_words), 20)

    def test_the_pyrogue_device_byte_compiles(self):
        with tempfile.TemporaryDirectory() as tmp:
            py_compile.compile(self.ROGUE, cfile=os.path.join(tmp, "x.pyc"), doraise=True)

    def test_every_pyrogue_field_and_window_equals_the_source(self):
        words, (win, base, stride, count, qp_words) = sw_checks.source(self.RDL, window=True)
        mod = self.load(self.ROGUE, "nscc_mq_rogue")
        for qps in (count, 3):
            dev = (mod.NsccMqRegs(name="NsccMq") if qps == count
                   else mod.NsccMqRegs(name="NsccMq", qps=qps))
            variables = [n for n in dev.nodes if not isinstance(n, mod.NsccMqQp)]
            windows = [n for n in dev.nodes if isinstance(n, mod.NsccMqQp)]
            self.check_variables(variables, words)
            self.assertEqual([(d.name, d.offset) for d in windows],
                             [(f"{win}[{q}]", base + q * stride) for q in range(qps)])
            for d in (windows[0], windows[-1]):
                self.check_variables(d.nodes, qp_words)


RUST_MAIN = r'''
#[path = "{path}"]
mod regmap;

fn access(a: regmap::Access) -> &'static str {{
    match a {{
        regmap::Access::ReadWrite => "RW",
        regmap::Access::ReadOnly => "RO",
        regmap::Access::WriteOnly => "W",
    }}
}}

fn main() {{
    println!("{{}} {{}} {{}} {{}}", regmap::DECODE_BITS, regmap::QP_BASE, regmap::QP_STRIDE, regmap::QP_COUNT);
    for (a, n, w) in regmap::MAP {{
        println!("map {{a}} {{n}} {{w}}");
    }}
    for (a, n, w) in regmap::QP_MAP {{
        println!("qp_map {{a}} {{n}} {{w}}");
    }}
    for (t, fields) in [("field", regmap::FIELDS), ("qp_field", regmap::QP_FIELDS)] {{
        for f in fields {{
            println!("{{t}} {{}} {{}} {{}} {{}} {{}} {{}} {{}}", f.word, f.name, f.lsb, f.width, access(f.access), f.reset, f.mask());
        }}
    }}
    for a in {probes} {{
        let g = regmap::lookup(a).map(|w| w.1).unwrap_or("-");
        let q = regmap::qp_lookup(a).map(|(q, w)| format!("{{q}}:{{}}", w.1)).unwrap_or("-".into());
        println!("lookup {{a}} {{g}} {{q}}");
    }}
    assert_eq!(regmap::qp_addr(5, regmap::{qp_word}), {qp_word_addr});
}}
'''


class RustMap(unittest.TestCase):
    """crates/dcqcn-model/src/mq/regmap.rs and crates/dcqcn-model/src/nscc/regmap.rs, each compiled
    on its own (rustc, warnings denied) and its tables printed, against its source."""

    def test_the_mq_rust_map_equals_the_source(self):
        # global words, their aliases above addr[11:2] and outside 21 bits, unmapped words, windows
        self.check_rust_map(gen.MQ, [0x000, 0x04B, 0x190, 0x194, 0x1000, 0x0FFC, 0x200004,
                                     0x100000, 0x100013, 0x100014, 0x1FFF44, 0x1FFF48, 0x300508],
                            "QP_RATE", 0x100508)

    def test_the_nscc_rust_map_equals_the_source(self):
        # as above, and DCQCN's words, unmapped here (0x014, 0x104, 0x170; window 0x00, 0x24)
        self.check_rust_map(gen.NSCC, [0x000, 0x014, 0x04B, 0x087, 0x104, 0x164, 0x168, 0x170,
                                       0x1000, 0x200050, 0x100000, 0x100024, 0x100028, 0x10002C,
                                       0x10008B, 0x10008C, 0x1FFF88, 0x300548],
                            "QP_CWND", 0x100548)

    def check_rust_map(self, blk, probes, qp_word, qp_word_addr):
        if shutil.which("rustc") is None:
            self.fail("rustc is missing (Rust stable is required: https://rustup.rs)")
        m, _ = gen.load(os.path.join(gen.ROOT, blk.source), blk)
        win = m["window"]
        tmp = tempfile.mkdtemp(prefix="regmap-rust-")
        try:
            main = os.path.join(tmp, "main.rs")
            with open(main, "w") as fh:
                fh.write(RUST_MAIN.format(path=os.path.join(gen.ROOT, blk.rust_out),
                                          probes=probes, qp_word=qp_word,
                                          qp_word_addr=hex(qp_word_addr)))
            exe = os.path.join(tmp, "main")
            r = subprocess.run(["rustc", "--edition", "2021", "-D", "warnings", "-A", "dead_code",
                                main, "-o", exe], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            got = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
        finally:
            shutil.rmtree(tmp)
        want = [f"{m['decode_bits']} {win['base']} {win['stride']} {win['count']}"]
        want += [f"map {w['offset']} {w['name']} {str(w['writable']).lower()}" for w in m["words"]]
        want += [f"qp_map {w['offset']} {w['name']} {str(w['writable']).lower()}"
                 for w in win["words"]]
        for t, words in (("field", m["words"]), ("qp_field", win["words"])):
            want += [f"{t} {w['offset']} {f['name']} {f['lsb']} {f['width']} {f['access']} "
                     f"{f['reset']} {f['mask']}" for w in words for f in w["fields"]]
        names = {w["offset"]: w["name"] for w in m["words"]}
        qp_names = {w["offset"]: w["name"] for w in win["words"]}
        for a in probes:
            a21 = a & ((1 << m["decode_bits"]) - 1)
            g = names.get(a21 & ~3, "-") if a21 < 0x1000 else "-"
            q = "-"
            if a21 >= win["base"]:
                off = (a21 - win["base"]) % win["stride"] & ~3
                if off in qp_names:
                    q = f"{(a21 - win['base']) // win['stride']}:{qp_names[off]}"
            want.append(f"lookup {a} {g} {q}")
        self.assertEqual(got.splitlines(), want)


if __name__ == "__main__":
    unittest.main()
