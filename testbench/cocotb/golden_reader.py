"""Reader of golden vector files (docs/golden-format.md, format version 1), plain Python 3.

No dependency beyond the standard library, so a firmware CI can use it as is:

    from golden_reader import GoldenVectors
    vec = GoldenVectors("golden/paper-table2/vectors.txt")   # checks CRC and header
    for cycle, values in vec.cycles():                      # values: list of ints, one per field
        ...

Run as a script it checks a file and prints its cycle count:
    python3 golden_reader.py golden/paper-table2/vectors.txt
"""

import sys
import zlib

FORMAT = "dcqcn-golden 1"
SLOTS = 256
MAX_SEQ = 32


def field_list(data_bytes):
    """(name, dir, width) of every field of format version 1 for data_bytes-byte beats."""
    w = data_bytes
    ins = [("rst", 1), ("cnp", 1), ("s_axis_tdata", 8 * w), ("s_axis_tkeep", w),
           ("s_axis_tvalid", 1), ("s_axis_tlast", 1), ("m_axis_tready", 1),
           ("s_axil_awaddr", 12), ("s_axil_awvalid", 1), ("s_axil_wdata", 32),
           ("s_axil_wstrb", 4), ("s_axil_wvalid", 1), ("s_axil_bready", 1),
           ("s_axil_araddr", 12), ("s_axil_arvalid", 1), ("s_axil_rready", 1)]
    outs = [("s_axis_tready", 1), ("m_axis_tvalid", 1), ("m_axis_tdata", 8 * w),
            ("m_axis_tkeep", w), ("m_axis_tlast", 1), ("s_axil_awready", 1),
            ("s_axil_wready", 1), ("s_axil_bvalid", 1), ("s_axil_bresp", 2),
            ("s_axil_arready", 1), ("s_axil_rvalid", 1), ("s_axil_rdata", 32),
            ("s_axil_rresp", 2)]
    st = [("cnp_meta", 1), ("cnp_sync", 1), ("cnp_prev", 1), ("rc", 32), ("rt", 32),
          ("active", 1), ("alpha", 10), ("alpha_timer", 16), ("alpha_pending", 1),
          ("dec_timer", 16), ("dec_pending", 1), ("inc_timer", 32), ("byte_cnt", 32),
          ("t_stage", 8), ("b_stage", 8), ("bpc", 32), ("credit", 48), ("cfg_alpha_g", 10),
          ("cfg_dec_gain", 4), ("cfg_stage_threshold", 8), ("cfg_clamp_tgt", 1),
          ("cfg_rai", 32), ("cfg_rhai", 32), ("cfg_rmin", 32), ("cfg_inc_interval", 32),
          ("cfg_dec_interval", 16), ("cfg_alpha_interval", 16), ("cfg_bypass", 1),
          ("cfg_timer_en", 1), ("cfg_byte_en", 1), ("cfg_byte_threshold", 32),
          ("cfg_credit_cap", 32), ("cnp_cnt16", 16), ("cnt_cnp", 32), ("cnt_dec", 32),
          ("cnt_inc_fr", 32), ("cnt_inc_ai", 32), ("cnt_inc_hai", 32), ("cnt_inc_timer", 32),
          ("cnt_inc_byte", 32), ("cnt_stall", 32), ("cnt_bytes", 64), ("bytes_hi", 32)]
    return ([(n, "in", b) for n, b in ins] + [(n, "out", b) for n, b in outs]
            + [(n, "st", b) for n, b in st])


class GoldenError(Exception):
    """Malformed input: str() is `<file>:<line>: <reason>`."""

    def __init__(self, path, line, reason):
        super().__init__(f"{path}:{line}: {reason}")


class GoldenVectors:
    """A checked vectors.txt: the CRC and the header are verified when it is opened."""

    def __init__(self, path, data_bytes=None):
        self.path = str(path)
        with open(path, "rb") as f:
            raw = f.read()
        if b"\r" in raw:
            line = raw[: raw.index(b"\r")].count(b"\n") + 1
            self._fail(line, "carriage return: lines must end with LF only")
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError as e:
            self._fail(raw[: e.start].count(b"\n") + 1, "not ASCII")
        if not text.endswith("\n"):
            self._fail(text.count("\n") + 1, "truncated: the last line has no LF")
        self.lines = text.split("\n")[:-1]
        end_no = len(self.lines)
        end = self.lines[-1].split(" ")
        if len(end) != 3 or end[0] != "end":
            self._fail(end_no, "truncated: the last line is not `end <cycles> <crc32>`")
        self.total_cycles = self._num(end[1], end_no, "cycle count")
        if len(end[2]) != 8 or any(c not in "0123456789abcdef" for c in end[2]):
            self._fail(end_no, f"bad checksum `{end[2]}`")
        body_len = len(text) - len(self.lines[-1]) - 1
        crc = zlib.crc32(raw[:body_len])
        if crc != int(end[2], 16):
            self._fail(end_no, f"checksum mismatch: the end line says {end[2]}, the lines before "
                               f"it give {crc:08x} (corrupt or edited file)")
        self.end_line = end_no
        self._parse_header(data_bytes)

    def _fail(self, line, reason):
        raise GoldenError(self.path, line, reason)

    def _num(self, tok, line, what):
        if not tok.isdigit() or not tok.isascii():
            self._fail(line, f"bad {what} `{tok}`")
        return int(tok)

    def _records(self):
        for n, l in enumerate(self.lines[:-1], start=1):
            if n > 1 and l.startswith("#"):
                continue
            yield n, l

    def _parse_header(self, data_bytes):
        rec = self._records()
        n, l = next(rec)
        if l != FORMAT:
            self._fail(n, f"`{l}` is not `{FORMAT}` (format version)")
        n, l = next(rec, (self.end_line, ""))
        t = l.split(" ")
        if len(t) != 2 or t[0] != "data_bytes" or not t[1].isdigit() or not 1 <= int(t[1]) <= 64:
            self._fail(n, "expected `data_bytes <n>`")
        self.data_bytes = int(t[1])
        if data_bytes is not None and data_bytes != self.data_bytes:
            self._fail(n, f"beat-width mismatch: the vectors are for {self.data_bytes}-byte "
                          f"beats, the RTL is built with DATA_BYTES={data_bytes}")
        self.fields = field_list(self.data_bytes)
        n, l = next(rec, (self.end_line, ""))
        if l != f"fields {len(self.fields)}":
            self._fail(n, f"expected `fields {len(self.fields)}`")
        for k, (name, d, w) in enumerate(self.fields):
            n, l = next(rec, (self.end_line, ""))
            want = f"f {k} {d} {w} {name}"
            if l != want:
                self._fail(n, f"`{l}`: expected `{want}`")
        self._body = rec

    def cycles(self):
        """Yields (cycle, values) for every cycle; values is the list of field values (reused)."""
        widths = [w for _, _, w in self.fields]
        digits = [(w + 3) // 4 for w in widths]
        masks = [(1 << w) - 1 for w in widths]
        values = [0] * len(self.fields)
        slots = [None] * SLOTS
        cycle = 0
        for n, l in self._body:
            t = l.split(" ")
            if t[0] == "t":
                if len(t) < 3:
                    self._fail(n, "short template record")
                slot = self._num(t[1], n, "slot")
                if slot >= SLOTS:
                    self._fail(n, f"slot {slot} is not in 0..255")
                count = self._num(t[2], n, "entry count")
                if len(t) != 3 + 2 * count:
                    self._fail(n, f"{count} entries announced, {len(t) - 3} tokens follow")
                tpl, prev = [], -1
                for e in range(count):
                    k = self._num(t[3 + 2 * e], n, "field index")
                    if k >= len(self.fields):
                        self._fail(n, f"field index {k} out of range")
                    if k <= prev:
                        self._fail(n, "field indices not increasing")
                    prev = k
                    h = t[4 + 2 * e]
                    if len(h) != digits[k]:
                        self._fail(n, f"`{h}`: a {widths[k]}-bit value takes exactly "
                                      f"{digits[k]} hex digits")
                    if any(c not in "0123456789abcdef" for c in h):
                        self._fail(n, f"`{h}` is not lowercase hex")
                    d = int(h, 16)
                    if d > masks[k]:
                        self._fail(n, f"`{h}`: bits above {widths[k]} are set")
                    tpl.append((k, d))
                slots[slot] = tpl
                continue
            if t[0] == "c":
                if len(t) != 3:
                    self._fail(n, "expected `c <slot> <count>`")
                seq = [self._num(t[1], n, "slot")]
                reps = self._num(t[2], n, "count")
            elif t[0] == "r":
                if len(t) < 4:
                    self._fail(n, "expected `r <count> <k> <slot>...`")
                reps = self._num(t[1], n, "count")
                k = self._num(t[2], n, "sequence length")
                if not 1 <= k <= MAX_SEQ or len(t) != 3 + k:
                    self._fail(n, f"sequence of {len(t) - 3} slots announced as {k} (1..32)")
                seq = [self._num(s, n, "slot") for s in t[3:]]
            else:
                self._fail(n, f"unknown record `{t[0]}`")
            if not 1 <= reps <= 0x7FFFFFFF:
                self._fail(n, f"count {reps} out of range")
            for s in seq:
                if s >= SLOTS or slots[s] is None:
                    self._fail(n, f"slot {s} is not defined")
            tpls = [slots[s] for s in seq]
            for _ in range(reps):
                for tpl in tpls:
                    for k, d in tpl:
                        values[k] = (values[k] + d) & masks[k]
                    yield cycle, values
                    cycle += 1
        if cycle != self.total_cycles:
            self._fail(self.end_line, f"the end line says {self.total_cycles} cycles, "
                                      f"the records hold {cycle}")


def main(argv):
    if len(argv) != 2:
        print("usage: golden_reader.py VECTORS", file=sys.stderr)
        return 2
    try:
        vec = GoldenVectors(argv[1])
        n = sum(1 for _ in vec.cycles())
    except (GoldenError, OSError) as e:
        print(e, file=sys.stderr)
        return 2
    print(f"ok {argv[1]}: {vec.data_bytes}-byte beats, {n} cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
