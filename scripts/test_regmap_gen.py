# SPDX-License-Identifier: MIT
"""The register-map generator (scripts/regmap_gen.py) on its two sources: a broken source is refused
with an error naming its file and exit status 2, the multi-QP map's window and reset expressions,
and the generated Rust map of dcqcn_mq compiled on its own and compared with the source. Run by
`make regmap-check`:

    python3 -m unittest discover -s scripts -p 'test_*.py' -v
"""

import contextlib
import dataclasses
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import regmap_gen as gen  # noqa: E402


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
    assert_eq!(regmap::qp_addr(5, regmap::QP_RATE), 0x100508);
}}
'''


class RustMap(unittest.TestCase):
    """crates/dcqcn-model/src/mq/regmap.rs compiled on its own (rustc, warnings denied) and its
    tables printed, against the source."""

    def test_the_rust_map_equals_the_source(self):
        if shutil.which("rustc") is None:
            self.fail("rustc is missing (Rust stable is required: https://rustup.rs)")
        m, _ = gen.load(os.path.join(gen.ROOT, gen.MQ_SOURCE), gen.MQ)
        win = m["window"]
        # global words, their aliases above addr[11:2] and outside 21 bits, unmapped words, windows
        probes = [0x000, 0x04B, 0x190, 0x194, 0x1000, 0x0FFC, 0x200004, 0x100000, 0x100013,
                  0x100014, 0x1FFF44, 0x1FFF48, 0x300508]
        tmp = tempfile.mkdtemp(prefix="regmap-rust-")
        try:
            main = os.path.join(tmp, "main.rs")
            with open(main, "w") as fh:
                fh.write(RUST_MAIN.format(path=os.path.join(gen.ROOT, gen.MQ_RUST_OUT),
                                          probes=probes))
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
