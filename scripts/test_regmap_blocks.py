# SPDX-License-Identifier: MIT
"""The register block generator (scripts/regmap_blocks.py): its rules, and that what it writes
follows the map. Run by `make regmap-check`:

    python3 -m unittest discover -s scripts -p 'test_*.py' -v
"""

import copy
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import regmap_blocks as blocks  # noqa: E402
import regmap_gen  # noqa: E402


def field(name, lsb, width, access, state=None):
    return {"name": name, "lsb": lsb, "width": width, "access": access, "reset": 0,
            "reset_param": None, "state": state if state is not None else
            (f"cfg_{name}" if access == "RW" else None), "view": None, "unit": "flag",
            "desc": name}


def word(name, offset, fields, feature=None, write_order=None):
    return {"name": name, "offset": offset, "title": name, "fields": fields,
            "feature": feature, "write_order": write_order}


def small_map():
    return {"words": [
        word("ctl", 0x0, [field("en", 0, 1, "RW"), field("go", 8, 1, "W"),
                          field("mode", 16, 3, "RW")], write_order=2),
        word("limit", 0x4, [field("limit", 0, 32, "RW")], feature="extra", write_order=1),
        word("stat", 0x8, [field("a", 0, 4, "RO", "a"), field("b", 4, 4, "RO", "b")]),
    ]}


class Rules(unittest.TestCase):
    def refused(self, m, text):
        with self.assertRaises(blocks.BlockError) as e:
            blocks.check(m, "test.rdl")
        self.assertIn(text, str(e.exception))

    def test_the_small_map_passes(self):
        blocks.check(small_map(), "test.rdl")

    def test_read_write_and_read_only_fields_in_one_word(self):
        m = small_map()
        m["words"][0]["fields"].append(field("seen", 20, 1, "RO", "seen"))
        self.refused(m, "reg ctl: a word with read/write fields cannot also have read-only")

    def test_a_read_write_field_is_a_configuration_register_of_its_name(self):
        m = small_map()
        m["words"][0]["fields"][0]["state"] = "cfg_enable"
        self.refused(m, "field en: a read/write field is a configuration register")

    def test_an_action_bit_in_two_lanes(self):
        m = small_map()
        m["words"][0]["fields"][1].update(lsb=7, width=2)
        self.refused(m, "field go: an action bit must lie in one byte lane")

    def test_write_order_missing_repeated_or_misplaced(self):
        m = small_map()
        m["words"][1]["write_order"] = None
        self.refused(m, "reg limit: a word with read/write fields needs write_order")
        m = small_map()
        m["words"][1]["write_order"] = 2
        self.refused(m, "write_order 2 is also ctl's")
        m = small_map()
        m["words"][2]["write_order"] = 3
        self.refused(m, "reg stat: write_order is for words with read/write fields")


class Layout(unittest.TestCase):
    def test_members_cover_32_bits_once_msb_first(self):
        for w in small_map()["words"] + regmap_gen.load(
                os.path.join(regmap_gen.ROOT, regmap_gen.SOURCE))[0]["words"]:
            members = blocks.members_msb_first(w)
            bit = 32
            for name, msb, lsb, f in members:
                self.assertEqual(msb, bit - 1, (w["name"], name))
                self.assertLessEqual(lsb, msb)
                if f is None:
                    self.assertEqual(name, f"rsvd_{msb}_{lsb}")
                bit = lsb
            self.assertEqual(bit, 0, w["name"])

    def test_sv_struct_follows_the_map(self):
        m = small_map()
        text = blocks.sv_words(m)
        self.assertIn("logic [2:0]  mode;", text)
        self.assertIn("rsvd_31_19;", text)
        m["words"][0]["fields"][2]["lsb"] = 12
        moved = blocks.sv_words(m)
        self.assertIn("rsvd_31_15;", moved)
        self.assertNotEqual(text, moved)

    def test_long_names_stay_apart(self):
        m = small_map()
        m["words"].append(word("a_rather_long_word_name", 0xC,
                               [field("a_rather_long_field_name", 0, 16, "RW")], write_order=3))
        self.assertIn("a_rather_long_word_name_t a_rather_long_word_name;", blocks.sv_held(m))
        self.assertIn("a_rather_long_field_name; ", blocks.sv_words(m))

    def test_clears_are_the_bits_a_held_word_does_not_keep(self):
        m = small_map()
        clears = blocks.sv_clear(m)
        self.assertIn("r_d.ctl.go = 1'b0;", clears)
        self.assertIn("r_d.ctl.rsvd_7_1 = '0;", clears)
        self.assertNotIn("r_d.ctl.en", clears)
        self.assertNotIn("limit", clears)  # a single 32-bit field has no struct

    def test_every_writable_word_is_decoded_once(self):
        m = small_map()
        sv = blocks.sv_write(m)
        vhdl = blocks.vhdl_write(m)
        for w in ("CTL", "LIMIT"):
            self.assertEqual(sv.count(f"ADDR_{w}[11:2]:"), 1)
            self.assertEqual(vhdl.count(f"word_index(ADDR_{w})"), 1)
        self.assertNotIn("ADDR_STAT", sv + vhdl)
        self.assertIn("go = wr_ctl.go;", sv)

    def test_write_order_orders_the_configuration_writes(self):
        lines = blocks.rust_regmap_blocks(small_map(), str)
        order = lines[lines.index("pub const WRITE_ORDER: &[u16] = &[") + 1:][:2]
        self.assertEqual(order, ["    LIMIT,", "    CTL,"])

    def test_a_feature_makes_a_register_optional(self):
        m = small_map()
        text = blocks.rust_config_struct(m)
        self.assertIn('default = "regmap::reset_limit"', text)
        self.assertNotIn("reset_en", text)
        other = blocks.rust_snapshot_rows(m, [None])
        self.assertIn("cfg_limit: u32, 32, Flag", other)
        self.assertNotIn("cfg_en", other)


class Features(unittest.TestCase):
    def test_a_features_words_are_built_by_its_generic_and_held_at_reset_without_it(self):
        m = small_map()
        m["words"].append(word("extra_stat", 0xC, [field("c", 0, 8, "RO", "c")], feature="extra"))
        sv = blocks.sv_built(m)
        self.assertIn("ADDR_LIMIT[11:2], ADDR_EXTRA_STAT[11:2]:", sv)
        self.assertIn("word_built = FEAT_EXTRA;", sv)
        self.assertIn("default: word_built = 1'b1;", sv)
        self.assertNotIn("ADDR_CTL", sv)
        vhdl = blocks.vhdl_built(m)
        self.assertIn("word = word_index(ADDR_LIMIT) or", vhdl)
        self.assertIn("word = word_index(ADDR_EXTRA_STAT)) then", vhdl)
        self.assertIn("b := to_sl(FEAT_EXTRA_C);", vhdl)
        # only the held words are tied off (a read-only word's state is the block's own)
        self.assertEqual(blocks.sv_tie_off(m).split("\n")[:3],
                         ["        if (!FEAT_EXTRA) begin", "            r_d.limit = r_init.limit;",
                          "        end"])
        self.assertIn("v.cfg.limit := CFG_INIT_C.limit;", blocks.vhdl_tie_off(m))
        self.assertNotIn("extra_stat", blocks.vhdl_tie_off(m))


class Repository(unittest.TestCase):
    def test_the_repository_map_passes_and_every_held_word_is_in_both_hdls(self):
        m = regmap_gen.load(os.path.join(regmap_gen.ROOT, regmap_gen.SOURCE))[0]
        blocks.check(m, regmap_gen.SOURCE)
        regions = regmap_gen.block_regions(copy.deepcopy(m))
        sv = "".join(b for _, b in regions[regmap_gen.SV_REGS])
        vhdl = "".join(b for _, b in regions[regmap_gen.VHDL_REGS])
        for w in m["words"]:
            if blocks.held(w):
                self.assertIn(f"rword = r.{blocks.sv_member(w)};", sv)
                self.assertIn(f"rtab(ADDR_{w['name'].upper()} / 4)", vhdl)


if __name__ == "__main__":
    unittest.main()
