//! The register map source (regmap/dcqcn_regs.rdl, exported by scripts/regmap_gen.py to
//! regmap/dcqcn_regs.json) against the SystemVerilog decode, the VHDL twin's decode and the model,
//! field by field through AXI4-Lite in the lockstep, and against the Rust `regmap`.
//!
//! For every beat width compiled, the model, the SV variant and the VHDL variant get the same
//! inputs every cycle (every register compared every cycle, as in the lockstep), and for every word
//! of the source each of them must: read its reset value right after a reset (fields whose reset
//! depends on the parameters at those parameters), show in each field the spec-7 register the
//! source names (`state`), answer writes OKAY or DECERR as the word's access says, keep exactly
//! the written bits of RW fields (all-ones, 0xA5A5A5A5, 0x5A5A5A5A, 0 with full strobes, then lane
//! by lane), read 0 from action bits and reserved bits, and leave RO fields as a second model that
//! never saw the write. Every unmapped word index answers DECERR with read data 0 and its writes
//! change no register. After traffic and CNPs have moved the counters, writing 1 to each action bit
//! clears exactly the counters the source says (`hwclr`), and writing 0, or 1 without its byte
//! lane, clears nothing.

use dcqcn_cosim::rtl::{self, Rtl};
use dcqcn_model::regmap::{self, Access};
use dcqcn_model::snapshot::{FieldValue, FIELDS};
use dcqcn_model::{Inputs, Params, RateLimiter, Snapshot};
use serde::Deserialize;
use std::collections::BTreeSet;

// The register map read from the SystemRDL source directly, against the export and the Rust regmap.
mod source;

#[derive(Debug, Deserialize)]
struct Map {
    decode_bits: u32,
    defaults: Defaults,
    words: Vec<Word>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct Defaults {
    data_bytes: u32,
    clk_freq_hz: u32,
    line_rate: u32,
}

#[derive(Debug, Deserialize)]
struct Word {
    name: String,
    offset: u16,
    writable: bool,
    reset: u32,
    fields: Vec<Field>,
}

#[derive(Debug, Deserialize)]
struct Field {
    name: String,
    lsb: u32,
    width: u32,
    mask: u32,
    access: String,
    reset: u32,
    reset_param: Option<String>,
    state: Option<String>,
    /// The action bit whose write of 1 clears this counter.
    cleared_by: Option<String>,
}

const EXPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../regmap/dcqcn_regs.json");

fn source() -> Map {
    let text = std::fs::read_to_string(EXPORT)
        .unwrap_or_else(|e| panic!("{EXPORT}: {e} (run `make regmap`)"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{EXPORT}: {e}"))
}

impl Field {
    fn get(&self, word: u32) -> u32 {
        (word & self.mask) >> self.lsb
    }

    fn ones(&self) -> u32 {
        self.mask >> self.lsb
    }

    /// The reset value at the parameters `p`.
    fn reset_at(&self, p: &Params) -> u32 {
        match self.reset_param.as_deref() {
            None => self.reset,
            Some("RATE_INC_RESET") => p.rate_inc_reset(),
            Some("RATE_DEC_RESET") => p.rate_dec_reset().into(),
            Some("ALPHA_RESET") => p.alpha_reset().into(),
            Some("LINE_RATE") => p.line_rate(),
            Some("BPC_LINE_RATE") => p.bpc(p.line_rate()),
            Some("DATA_BYTES") => p.data_bytes(),
            Some(other) => panic!("{EXPORT}: field {}: unknown reset_param {other}", self.name),
        }
    }

    /// The field's `state` register in the snapshot `s` (the registers the read shows).
    fn state_in(&self, s: &Snapshot) -> Option<u32> {
        let st = self.state.as_deref()?;
        let (name, slice) = match st.split_once('[') {
            None => (st, None),
            Some((n, rest)) => {
                let (hi, lo) = rest
                    .trim_end_matches(']')
                    .split_once(':')
                    .unwrap_or_else(|| panic!("{EXPORT}: field {}: state {st}", self.name));
                (
                    n,
                    Some((hi.parse::<u32>().unwrap(), lo.parse::<u32>().unwrap())),
                )
            }
        };
        let idx = FIELDS
            .iter()
            .position(|f| f.name == name)
            .unwrap_or_else(|| {
                panic!(
                    "{EXPORT}: field {}: state `{name}` is not a spec-7 register",
                    self.name
                )
            });
        let FieldValue::Scalar(v) = s.value(idx) else {
            panic!("{EXPORT}: field {}: state `{name}` is a beat", self.name)
        };
        let v = match slice {
            None => v,
            Some((hi, lo)) => (v >> lo) & ((1u64 << (hi - lo + 1)) - 1),
        };
        Some(v as u32)
    }
}

impl Word {
    fn reserved(&self) -> u32 {
        !self.fields.iter().fold(0, |m, f| m | f.mask)
    }
}

/// The model, a shadow model that never sees a write, and the RTL variants of one beat width,
/// stepped with the same inputs; every RTL register is compared with the model's every cycle (the
/// first difference of each RTL is reported with the field checks).
struct Bench {
    params: Params,
    model: RateLimiter,
    shadow: RateLimiter,
    rtls: Vec<(String, Rtl)>,
    /// The registers after the last edge: model, then each RTL.
    last: Vec<Snapshot>,
    shadow_last: Snapshot,
    cycle: u64,
    /// The first cycle where each RTL differed from the model (reported with the field checks).
    lockstep: Vec<(String, String)>,
    /// The shadow model gets the writes too (configuration both models share).
    shadow_writes: bool,
}

/// One DUT's answer to a read or a write.
struct Answer {
    dut: String,
    data: u32,
    resp: u8,
    /// Its registers when the transaction was accepted (what a read shows).
    before: Snapshot,
}

impl Bench {
    fn new(data_bytes: u32, variants: &[String]) -> Bench {
        let params = Params::with_data_bytes(data_bytes).unwrap();
        let rtls: Vec<(String, Rtl)> = variants
            .iter()
            .map(|v| (v.clone(), Rtl::new(v).unwrap()))
            .collect();
        let n = rtls.len() + 1;
        Bench {
            params,
            model: RateLimiter::new(params),
            shadow: RateLimiter::new(params),
            rtls,
            last: vec![Snapshot::default(); n],
            shadow_last: Snapshot::default(),
            cycle: 0,
            lockstep: Vec::new(),
            shadow_writes: false,
        }
    }

    fn names(&self) -> Vec<String> {
        std::iter::once("model".to_string())
            .chain(self.rtls.iter().map(|(n, _)| n.clone()))
            .collect()
    }

    /// One cycle; the shadow model gets `i` without its write.
    fn step(&mut self, i: &Inputs, what: &str) -> Vec<Snapshot> {
        let out = self.model.step(i);
        let ms = self.model.snapshot(&out);
        let mut si = *i;
        si.axil.awvalid &= self.shadow_writes;
        si.axil.wvalid &= self.shadow_writes;
        let so = self.shadow.step(&si);
        self.shadow_last = self.shadow.snapshot(&so);
        let mut all = vec![ms];
        for (name, rtl) in &mut self.rtls {
            let rs = rtl.step(i);
            let differs = if self.cycle == 0 {
                !ms.same_registers(&rs)
            } else {
                ms != rs
            };
            if differs && !self.lockstep.iter().any(|(n, _)| n == name) {
                let fields: Vec<String> = ms
                    .diff(&rs)
                    .into_iter()
                    .map(|k| {
                        format!(
                            "{} model {:?} rtl {:?}",
                            FIELDS[k].name,
                            ms.value(k),
                            rs.value(k)
                        )
                    })
                    .collect();
                self.lockstep.push((
                    name.clone(),
                    format!(
                        "{name}: first lockstep difference from the model at cycle {} ({what}): {}",
                        self.cycle,
                        fields.join("; ")
                    ),
                ));
            }
            all.push(rs);
        }
        self.cycle += 1;
        self.last = all.clone();
        all
    }

    fn reset(&mut self) {
        let i = Inputs {
            rst: true,
            ..Inputs::default()
        };
        self.step(&i, "reset");
        self.step(&i, "reset");
    }

    /// A read of `addr`: the answer of each DUT (model first) and of the shadow model.
    fn read(&mut self, addr: u16) -> (Vec<Answer>, u32) {
        let before = self.last.clone();
        let mut i = Inputs::default();
        i.axil.arvalid = true;
        i.axil.araddr = addr;
        let what = format!("read {addr:#05x}");
        let s = self.step(&i, &what);
        assert!(s[0].s_axil_arready, "{what}: the model does not accept");
        i.axil.arvalid = false;
        i.axil.rready = true;
        let s = self.step(&i, &what);
        let shadow = self.shadow_last;
        assert!(shadow.s_axil_rvalid, "{what}: no read response (shadow)");
        let ans = self
            .names()
            .into_iter()
            .zip(s)
            .zip(before)
            .map(|((dut, s), before)| {
                assert!(s.s_axil_rvalid, "{what}: {dut}: no read response");
                Answer {
                    dut,
                    data: s.s_axil_rdata,
                    resp: s.s_axil_rresp,
                    before,
                }
            })
            .collect();
        (ans, shadow.s_axil_rdata)
    }

    /// A write of `data` with strobes `strb` to `addr`: the response of each DUT (model first).
    fn write(&mut self, addr: u16, data: u32, strb: u8) -> Vec<Answer> {
        let before = self.last.clone();
        let mut i = Inputs::default();
        i.axil.awvalid = true;
        i.axil.wvalid = true;
        i.axil.awaddr = addr;
        i.axil.wdata = data;
        i.axil.wstrb = strb;
        let what = format!("write {data:#010x}/{strb:x} to {addr:#05x}");
        let s = self.step(&i, &what);
        assert!(s[0].s_axil_awready, "{what}: the model does not accept");
        let mut i = Inputs::default();
        i.axil.bready = true;
        let s = self.step(&i, &what);
        self.names()
            .into_iter()
            .zip(s)
            .zip(before)
            .map(|((dut, s), before)| {
                assert!(s.s_axil_bvalid, "{what}: {dut}: no write response");
                Answer {
                    dut,
                    data: 0,
                    resp: s.s_axil_bresp,
                    before,
                }
            })
            .collect()
    }

    /// The names of the registers (not ports) where the model differs from the shadow model.
    fn differs_from_shadow(&self) -> Vec<&'static str> {
        let m = &self.last[0];
        (0..FIELDS.len())
            .filter(|&k| FIELDS[k].block != "out" && m.value(k) != self.shadow_last.value(k))
            .map(|k| FIELDS[k].name)
            .collect()
    }
}

impl Bench {
    /// A write that both models see.
    fn configure(&mut self, addr: u16, data: u32) {
        self.shadow_writes = true;
        self.write(addr, data, 0xF);
        self.shadow_writes = false;
    }

    /// 400 cycles of back-to-back beats with five CNP pulses, with short increase triggers and the
    /// event trace armed (the counters move), then `idle` cycles without traffic, CNPs or increase triggers (pending
    /// decreases fire, then nothing moves).
    fn activity(&mut self, m: &Map, idle: u64) {
        // (word address, the word at reset with `field` set to `value`)
        let set = |field: &str, value: u32| {
            let w = m
                .words
                .iter()
                .find(|w| w.fields.iter().any(|f| f.name == field))
                .unwrap_or_else(|| panic!("{EXPORT}: no field {field}"));
            let f = w.fields.iter().find(|f| f.name == field).unwrap();
            (w.offset, w.reset & !f.mask | value << f.lsb)
        };
        for (field, value) in [
            ("inc_interval", 20),
            ("byte_threshold", 256),
            ("stage_threshold", 2),
        ] {
            let (addr, data) = set(field, value);
            self.configure(addr, data);
        }
        let (enables, both) = set("byte_en", 1);
        self.configure(enables, both);
        // the event trace armed for the traffic (its counts and time move), then disarmed (spec 4.10)
        let (trace, armed) = set("trace_en", 1);
        self.configure(trace, armed);
        let db = self.params.data_bytes();
        let keep = if db == 64 { u64::MAX } else { (1u64 << db) - 1 };
        let mut beats = 0u64;
        for c in 0..400u64 {
            let mut i = Inputs {
                cnp: (c / 40) % 2 == 1,
                m_axis_tready: true,
                ..Inputs::default()
            };
            i.s_axis.tvalid = true;
            i.s_axis.tkeep = keep;
            i.s_axis.tlast = beats % 8 == 7;
            i.s_axis.tdata[0] = beats;
            let s = self.step(&i, "traffic and CNPs");
            beats += u64::from(s[0].s_axis_tready);
        }
        self.configure(enables, 0);
        self.configure(trace, 0);
        for _ in 0..idle {
            self.step(&Inputs::default(), "idle");
        }
    }
}

/// Failures collected over a run, reported together.
#[derive(Default)]
struct Failures(Vec<String>, usize);

impl Failures {
    fn check(&mut self, ok: bool, msg: impl FnOnce() -> String) {
        self.1 += 1;
        if !ok {
            self.0.push(msg());
        }
    }

    /// Panics with every failure; returns the number of checks.
    fn finish(self) -> usize {
        eprintln!("{} checks, {} failed", self.1, self.0.len());
        if !self.0.is_empty() {
            let n = self.0.len();
            let shown: Vec<&String> = self.0.iter().take(40).collect();
            panic!(
                "{n} disagreement(s) with {EXPORT}:\n  {}",
                shown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("\n  ")
            );
        }
        self.1
    }
}

/// The beat widths compiled, each with its SV and its VHDL variant.
fn width_groups() -> Vec<(u32, Vec<String>)> {
    let names: BTreeSet<String> = rtl::variants().into_iter().map(|v| v.name).collect();
    let widths: BTreeSet<u32> = rtl::variants()
        .into_iter()
        .filter(|v| v.name == format!("w{}", v.data_bytes))
        .map(|v| v.data_bytes)
        .collect();
    assert!(
        !widths.is_empty(),
        "no SV width variant compiled: {names:?}"
    );
    widths
        .into_iter()
        .map(|w| {
            let sv = format!("w{w}");
            let vhdl = format!("vhdl-w{w}");
            assert!(names.contains(&vhdl), "{vhdl} is not compiled: {names:?}");
            (w, vec![sv, vhdl])
        })
        .collect()
}

const OKAY: u8 = regmap::RESP_OKAY;
const DECERR: u8 = regmap::RESP_DECERR;

/// The word's read value in `a` against the source: RW fields `rw(field)`, action bits and reserved
/// bits 0, RO fields `ro(field)`, every field with a `state` showing that register.
fn check_word(
    fl: &mut Failures,
    w: &Word,
    a: &Answer,
    ctx: &str,
    rw: impl Fn(&Field) -> u32,
    ro: impl Fn(&Field) -> u32,
) {
    fl.check(a.resp == OKAY, || {
        format!(
            "{}: {} {ctx}: read answers {:#04b}, expected OKAY",
            a.dut, w.name, a.resp
        )
    });
    fl.check(a.data & w.reserved() == 0, || {
        format!(
            "{}: {} {ctx}: reserved bits {:#010x} read {:#010x}, expected 0",
            a.dut,
            w.name,
            w.reserved(),
            a.data & w.reserved()
        )
    });
    for f in &w.fields {
        let want = match f.access.as_str() {
            "RW" => rw(f),
            "RO" => ro(f),
            "W" => 0,
            other => panic!("{EXPORT}: field {}: access {other}", f.name),
        };
        let got = f.get(a.data);
        fl.check(got == want, || {
            format!(
                "{}: {}.{} [{}:{}] {ctx}: reads {got:#x}, source expects {want:#x}",
                a.dut,
                w.name,
                f.name,
                f.lsb + f.width - 1,
                f.lsb
            )
        });
        if let Some(st) = f.state_in(&a.before) {
            fl.check(got == st, || {
                format!(
                    "{}: {}.{} {ctx}: reads {got:#x} but its register `{}` holds {st:#x}",
                    a.dut,
                    w.name,
                    f.name,
                    f.state.as_deref().unwrap_or_default()
                )
            });
        }
    }
}

fn check_resp(fl: &mut Failures, answers: &[Answer], want: u8, ctx: &str) {
    for a in answers {
        fl.check(a.resp == want, || {
            format!(
                "{}: {ctx}: answers {:#04b}, source expects {want:#04b}",
                a.dut, a.resp
            )
        });
    }
}

/// Returns the cycles run.
fn run_width(fl: &mut Failures, m: &Map, data_bytes: u32, variants: &[String]) -> u64 {
    let mut b = Bench::new(data_bytes, variants);
    let p = b.params;
    b.reset();
    for w in &m.words {
        // Reset values, also through an address with addr[1:0] set (ignored, spec 6.1).
        for addr in [w.offset, w.offset | 3] {
            b.reset();
            let (answers, _) = b.read(addr);
            for a in &answers {
                check_word(
                    fl,
                    w,
                    a,
                    &format!("after reset (read at {addr:#05x})"),
                    |f| f.reset_at(&p),
                    |f| f.reset_at(&p),
                );
            }
        }
        // Full-strobe patterns.
        b.reset();
        let want_resp = if w.writable { OKAY } else { DECERR };
        for pattern in [0xFFFF_FFFFu32, 0xA5A5_A5A5, 0x5A5A_5A5A, 0] {
            let ctx = format!("after writing {pattern:#010x}");
            let resp = b.write(w.offset, pattern, 0xF);
            check_resp(fl, &resp, want_resp, &format!("{} {ctx}", w.name));
            if !w.writable {
                let d = b.differs_from_shadow();
                fl.check(d.is_empty(), || {
                    format!("model: {} {ctx}: read-only word changed {d:?}", w.name)
                });
            }
            let (answers, shadow) = b.read(w.offset);
            for a in &answers {
                check_word(fl, w, a, &ctx, |f| f.get(pattern), |f| f.get(shadow));
            }
        }
        // Byte lanes one at a time over a zeroed word: RW fields take exactly the strobed lanes.
        if w.fields.iter().any(|f| f.access == "RW") {
            b.reset();
            b.write(w.offset, 0, 0xF);
            let mut lanes = 0u32;
            for lane in 0..4 {
                lanes |= 0xFF << (8 * lane);
                let ctx = format!("after writing ones to lane {lane}");
                let resp = b.write(w.offset, 0xFFFF_FFFF, 1 << lane);
                check_resp(fl, &resp, OKAY, &format!("{} {ctx}", w.name));
                let (answers, shadow) = b.read(w.offset);
                for a in &answers {
                    check_word(fl, w, a, &ctx, |f| f.get(lanes), |f| f.get(shadow));
                }
            }
        }
    }
    // Every unmapped word index: DECERR, read data 0, writes change nothing.
    let mapped: BTreeSet<u16> = m.words.iter().map(|w| w.offset).collect();
    b.reset();
    let mut unmapped = 0;
    for idx in 0..1u16 << (m.decode_bits - 2) {
        let addr = idx << 2;
        if mapped.contains(&addr) {
            continue;
        }
        unmapped += 1;
        let resp = b.write(addr, 0xFFFF_FFFF, 0xF);
        check_resp(fl, &resp, DECERR, &format!("write to unmapped {addr:#05x}"));
        let (answers, _) = b.read(addr);
        for a in &answers {
            fl.check(a.resp == DECERR && a.data == 0, || {
                format!(
                    "{}: read of unmapped {addr:#05x}: {:#010x}/{:#04b}, spec: 0/DECERR",
                    a.dut, a.data, a.resp
                )
            });
        }
    }
    let d = b.differs_from_shadow();
    fl.check(d.is_empty(), || {
        format!("model: writes to unmapped words changed {d:?}")
    });
    run_actions(fl, m, &mut b);
    assert_eq!(
        unmapped,
        (1usize << (m.decode_bits - 2)) - m.words.len(),
        "unmapped word count"
    );
    for (_, msg) in &b.lockstep {
        fl.check(false, || msg.clone());
    }
    b.cycle
}

/// Each action bit clears exactly the counters whose `cleared_by` names it (with its byte lane
/// strobed and a 1 written), and nothing otherwise.
fn run_actions(fl: &mut Failures, m: &Map, b: &mut Bench) {
    // Every read-only field: those an action clears read 0 after it, all others as the shadow
    // model that never saw the write.
    let observed: Vec<(&Word, &Field)> = m
        .words
        .iter()
        .flat_map(|w| w.fields.iter().map(move |f| (w, f)))
        .filter(|(_, f)| f.access == "RO")
        .collect();
    let actions: Vec<(&Word, &Field)> = m
        .words
        .iter()
        .flat_map(|w| w.fields.iter().map(move |f| (w, f)))
        .filter(|(_, f)| f.access == "W")
        .collect();
    assert!(!actions.is_empty() && observed.iter().any(|(_, f)| f.cleared_by.is_some()));
    // Longer than two decrease intervals: no pending decrease fires while the counters are read.
    let idle = 2 * u64::from(b.params.rate_dec_reset()) + 100;
    for (aw, af) in &actions {
        let bit = 1u32 << af.lsb;
        let lane = 1u8 << (af.lsb / 8);
        let cases = [
            ("1 without its byte lane", bit, 0xF & !lane, false),
            ("0", 0, 0xF, false),
            ("1", bit, 0xF, true),
        ];
        for (what, data, strb, acts) in cases {
            b.reset();
            b.activity(m, idle);
            // how many of the counters this action clears hold a nonzero value now
            let mut moved = Vec::new();
            for (w, f) in &observed {
                let (answers, _) = b.read(w.offset);
                if f.cleared_by.as_deref() == Some(af.name.as_str()) && f.get(answers[0].data) != 0
                {
                    moved.push(f.name.as_str());
                }
            }
            let ctx = format!("writing {what} to {}.{}", aw.name, af.name);
            let resp = b.write(aw.offset, data, strb);
            check_resp(fl, &resp, OKAY, &ctx);
            for (w, f) in &observed {
                let (answers, shadow) = b.read(w.offset);
                let cleared = acts && f.cleared_by.as_deref() == Some(af.name.as_str());
                let want = if cleared { 0 } else { f.get(shadow) };
                for a in &answers {
                    let got = f.get(a.data);
                    fl.check(got == want, || {
                        format!(
                            "{}: {}.{} after {ctx}: reads {got:#x}, expected {want:#x} ({})",
                            a.dut,
                            w.name,
                            f.name,
                            if cleared { "cleared" } else { "untouched" }
                        )
                    });
                }
            }
            // The traffic really moved the counters this action clears (not a vacuous check).
            fl.check(!moved.is_empty(), || {
                format!("{ctx}: none of the counters it clears moved before the write")
            });
            if acts {
                eprintln!("{ctx}: {moved:?} nonzero before, cleared");
            }
        }
    }
}

#[test]
fn every_field_agrees_through_axi4_lite_on_sv_vhdl_and_model() {
    let m = source();
    let mut fl = Failures::default();
    let groups = width_groups();
    for (w, variants) in &groups {
        let cycles = run_width(&mut fl, &m, *w, variants);
        eprintln!(
            "DATA_BYTES = {w}: model, {} in lockstep for {cycles} cycles",
            variants.join(", ")
        );
    }
    let n = fl.finish();
    // model + SV + VHDL, every field of 28 words several times, ~1000 unmapped words: the run
    // really checked (a loop that skipped everything would pass with 0 checks).
    assert!(n > 5_000 * groups.len(), "only {n} checks");
}
