//! The upstream (SURF `RoCEv2Dcqcn`) model at its ports: every rate-side number of
//! ../shared/reference/surf-rocev2dcqcn-facts.md (sections 1-3, 5, 6), driven through the pins
//! (`cnp`, `rst`, AXI4-Lite writes and reads) and observed through the AXI4-Lite reads and the
//! probe (the register values during each cycle). Cycle numbers follow the facts: "cnp at cycle c"
//! is the pin high in the c-th stepped cycle; "Rc at cycle x" is the value during cycle x (the probe
//! after step x - 1).
//!
//! Tests named `defect_*` are the reproducers of docs/surf-upstream.md: each runs the same stimulus
//! on our block's model and shows the difference.

use std::collections::BTreeSet;

use dcqcn_model::{AxilIn, Inputs, Outputs, Params, RateLimiter};
use dcqcn_surf::model::{AxilOut, SurfLimiter, SurfParams, SurfProbe, SurfRate};

const L: u32 = 1_250_000_000;
const HALVED: u32 = 625_610_352;
const NA_RESET: u32 = 8594;

/// A model driven through the ports: the upstream one or ours.
trait Dut {
    fn step_ports(&mut self, i: &Inputs) -> AxilOut;
    fn probe_regs(&self) -> SurfProbe;
}

impl Dut for SurfRate {
    fn step_ports(&mut self, i: &Inputs) -> AxilOut {
        self.step(i.rst, i.cnp, &i.axil)
    }
    fn probe_regs(&self) -> SurfProbe {
        self.probe()
    }
}

fn axil_of(o: &Outputs) -> AxilOut {
    AxilOut {
        awready: o.s_axil_awready,
        wready: o.s_axil_wready,
        bvalid: o.s_axil_bvalid,
        bresp: o.s_axil_bresp,
        arready: o.s_axil_arready,
        rvalid: o.s_axil_rvalid,
        rdata: o.s_axil_rdata,
        rresp: o.s_axil_rresp,
    }
}

/// The whole upstream wrapper (the data path idles: no stream input in these tests).
impl Dut for SurfLimiter {
    fn step_ports(&mut self, i: &Inputs) -> AxilOut {
        axil_of(&self.step(i))
    }
    fn probe_regs(&self) -> SurfProbe {
        self.probe()
    }
}

/// Our block at the upstream wrapper's beat width.
impl Dut for RateLimiter {
    fn step_ports(&mut self, i: &Inputs) -> AxilOut {
        let o = self.step(i);
        AxilOut {
            awready: o.s_axil_awready,
            wready: o.s_axil_wready,
            bvalid: o.s_axil_bvalid,
            bresp: o.s_axil_bresp,
            arready: o.s_axil_arready,
            rvalid: o.s_axil_rvalid,
            rdata: o.s_axil_rdata,
            rresp: o.s_axil_rresp,
        }
    }
    fn probe_regs(&self) -> SurfProbe {
        let s = self.state();
        SurfProbe {
            rc: s.rc,
            rt: s.rt,
            alpha: s.alpha.alpha,
            cnp_cnt: s.regs.cnt.cnp_cnt16,
        }
    }
}

/// The device under test with a cycle counter, a per-cycle probe history and scheduled CNP pulses.
struct Bench<D: Dut = SurfLimiter> {
    dut: D,
    /// Index of the next cycle to step.
    cycle: u64,
    /// `hist[k]`: register values during cycle k.
    hist: Vec<SurfProbe>,
    /// Cycles whose `cnp` pin is high.
    pins: BTreeSet<u64>,
}

impl Bench<SurfLimiter> {
    /// The upstream wrapper.
    fn new() -> Bench<SurfLimiter> {
        Bench::with(SurfLimiter::new(SurfParams::default()))
    }
}

impl Bench<RateLimiter> {
    /// Our block, 32-byte beats like the upstream wrapper.
    fn ours() -> Bench<RateLimiter> {
        Bench::with(RateLimiter::new(Params::with_data_bytes(32).unwrap()))
    }
}

impl<D: Dut> Bench<D> {
    fn with(dut: D) -> Bench<D> {
        Bench {
            hist: vec![dut.probe_regs()],
            dut,
            cycle: 0,
            pins: BTreeSet::new(),
        }
    }

    fn step(&mut self, i: &Inputs) -> AxilOut {
        let cnp = i.cnp || self.pins.contains(&self.cycle);
        let out = self.dut.step_ports(&Inputs { cnp, ..*i });
        self.cycle += 1;
        self.hist.push(self.dut.probe_regs());
        out
    }

    fn idle(&mut self, n: u64) {
        for _ in 0..n {
            self.step(&Inputs::default());
        }
    }

    fn run_to(&mut self, cycle: u64) {
        assert!(
            cycle >= self.cycle,
            "cycle {cycle} is past ({})",
            self.cycle
        );
        self.idle(cycle - self.cycle);
    }

    /// A one-cycle `cnp` pulse at cycle `c`.
    fn pulse(&mut self, c: u64) {
        assert!(c >= self.cycle, "pulse at {c} is past ({})", self.cycle);
        self.pins.insert(c);
    }

    /// Register values during cycle `k`.
    fn at(&self, k: u64) -> SurfProbe {
        self.hist[k as usize]
    }

    /// A write with strobes `strb`; returns (BRESP, the cycle AWREADY was high: the field holds the
    /// new value from that cycle on).
    fn write_strb(&mut self, addr: u16, data: u32, strb: u8) -> (u8, u64) {
        let req = Inputs {
            axil: AxilIn {
                awaddr: addr,
                awvalid: true,
                wdata: data,
                wstrb: strb,
                wvalid: true,
                bready: true,
                ..AxilIn::default()
            },
            ..Inputs::default()
        };
        let start = self.cycle;
        let accepted = loop {
            let c = self.cycle;
            let o = self.step(&req);
            assert_eq!(o.awready, o.wready, "AWREADY and WREADY rise together");
            if o.awready {
                break c;
            }
            assert!(self.cycle < start + 100, "write not accepted in 100 cycles");
        };
        let wait = Inputs {
            axil: AxilIn {
                bready: true,
                ..AxilIn::default()
            },
            ..Inputs::default()
        };
        loop {
            let o = self.step(&wait);
            if o.bvalid {
                return (o.bresp, accepted);
            }
        }
    }

    fn write(&mut self, addr: u16, data: u32) -> u8 {
        self.write_strb(addr, data, 0xF).0
    }

    /// A read; returns (RDATA, RRESP, the cycle whose register values it returns).
    fn read_at(&mut self, addr: u16) -> (u32, u8, u64) {
        let req = Inputs {
            axil: AxilIn {
                araddr: addr,
                arvalid: true,
                ..AxilIn::default()
            },
            ..Inputs::default()
        };
        let start = self.cycle;
        let sampled = loop {
            let c = self.cycle;
            let o = self.step(&req);
            if o.arready {
                break c - 1;
            }
            assert!(self.cycle < start + 100, "read not accepted in 100 cycles");
        };
        let wait = Inputs {
            axil: AxilIn {
                rready: true,
                ..AxilIn::default()
            },
            ..Inputs::default()
        };
        loop {
            let o = self.step(&wait);
            if o.rvalid {
                return (o.rdata, o.rresp, sampled);
            }
        }
    }

    fn read(&mut self, addr: u16) -> u32 {
        let (d, resp, _) = self.read_at(addr);
        assert_eq!(resp, 0, "read of {addr:#x}");
        d
    }

    fn cfg(&mut self, addr: u16, data: u32) {
        assert_eq!(self.write(addr, data), 0, "write of {addr:#x}");
    }

    /// Cycles in `from..to` during which `f` differs from the cycle before, with the new value.
    fn changes(&self, from: u64, to: u64, f: impl Fn(&SurfProbe) -> u32) -> Vec<(u64, u32)> {
        (from.max(1)..to)
            .filter(|&k| f(&self.at(k)) != f(&self.at(k - 1)))
            .map(|k| (k, f(&self.at(k))))
            .collect()
    }
}

/// Word 0x000 from its fields.
fn word0(g: u32, dec_gain: u32, t: u32, clamp: bool) -> u32 {
    g | (dec_gain << 10) | (t << 14) | (u32::from(clamp) << 22)
}

/// Word 0x014 from Nd and Na.
fn word14(nd: u32, na: u32) -> u32 {
    (na << 16) | nd
}

fn rc(p: &SurfProbe) -> u32 {
    p.rc
}
fn rt(p: &SurfProbe) -> u32 {
    p.rt
}
fn alpha(p: &SurfProbe) -> u32 {
    u32::from(p.alpha)
}
fn cnt(p: &SurfProbe) -> u32 {
    u32::from(p.cnp_cnt)
}

/// One decrease as upstream computes it (facts 3).
fn decreased(rc: u32, alpha: u32, dec_gain: u32) -> u32 {
    rc - ((u64::from(rc) * u64::from(alpha)) >> (dec_gain + 10)) as u32
}

// ------------------------------------------------------------------------------------------------
// 5. Register map and AXI4-Lite slave
// ------------------------------------------------------------------------------------------------

#[test]
fn reset_words() {
    let mut b = Bench::new();
    let expect = [
        (0x000, 0x0001_47FC),
        (0x004, 0x005B_8D80),
        (0x008, 0x00B7_1B00),
        (0x00C, 0x0098_9680),
        (0x010, 0x0003_9387),
        (0x014, 0x2192_0271),
        (0x018, 0x4A81_7C80),
        (0x01C, 0x4A81_7C80),
        (0x020, 0x0000_03FF),
        (0x024, 0x0000_0000),
    ];
    for (addr, word) in expect {
        assert_eq!(b.read(addr), word, "reset word at {addr:#05x}");
    }
    assert_eq!(0x0003_9387, 234_375);
    assert_eq!(0x2192_0271, (8594 << 16) | 625);
}

#[test]
fn all_ones_reads_back_as_the_fields_only() {
    let mut b = Bench::new();
    b.cfg(0x000, 0xFFFF_FFFF);
    assert_eq!(b.read(0x000), 0x007F_FFFF);
    b.cfg(0x024, 0xFFFF_FFFF);
    assert_eq!(b.read(0x024), 1);
    b.cfg(0x014, 0xFFFF_FFFF);
    assert_eq!(b.read(0x014), 0xFFFF_FFFF);
}

#[test]
fn decode_on_bits_11_to_2_aliases_higher_addresses() {
    let mut b = Bench::new();
    assert_eq!(b.read(0x1018), L, "0x1018 reads Rc");
    assert_eq!(b.read(0xF01C), L, "0xF01C reads Rt");
    b.cfg(0x1004, 1234);
    assert_eq!(b.read(0x004), 1234, "a write to 0x1004 lands in Rai");
    assert_eq!(b.read(0x007), 1234, "address bits 1:0 are not decoded");
}

#[test]
fn decerr_for_unmapped_words_and_read_only_writes() {
    let mut b = Bench::new();
    for addr in [0x028u16, 0x02C, 0x100, 0x3FC] {
        let (_, resp, _) = b.read_at(addr);
        assert_eq!(resp, 3, "read of {addr:#x}");
        assert_eq!(b.write(addr, 0xFFFF_FFFF), 3, "write of {addr:#x}");
    }
    // Read-only words: DECERR and no effect.
    assert_eq!(b.write(0x018, 5), 3);
    assert_eq!(b.write(0x01C, 5), 3);
    assert_eq!(b.read(0x018), L);
    assert_eq!(b.read(0x01C), L);
    // 0x020 holds a writable bit: a write there is OKAY and only that bit changes.
    assert_eq!(b.write(0x020, 0xFFFF_FFFF), 0);
    assert_eq!(b.read(0x020), 0x7FF);
    // The decode leaves every configuration word untouched by the refused writes.
    assert_eq!(b.read(0x000), 0x0001_47FC);
}

#[test]
fn a_write_to_a_read_only_word_is_okay_when_a_read_is_taken_in_the_same_cycle() {
    // The read-only fields take part in the decode only when a read is taken; then they also
    // answer a write to their address (with no effect).
    let mut b = Bench::new();
    let both = Inputs {
        axil: AxilIn {
            awaddr: 0x018,
            awvalid: true,
            wdata: 7,
            wstrb: 0xF,
            wvalid: true,
            bready: true,
            araddr: 0x000,
            arvalid: true,
            rready: true,
        },
        ..Inputs::default()
    };
    b.step(&both);
    let o = b.step(&Inputs::default());
    assert!(o.awready && o.arready);
    let o = b.step(&Inputs {
        axil: AxilIn {
            bready: true,
            rready: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    });
    assert!(o.bvalid && o.rvalid);
    assert_eq!((o.bresp, o.rresp, o.rdata), (0, 0, 0x0001_47FC));
    assert_eq!(b.read(0x018), L, "no effect");
}

#[test]
fn strobes_are_ignored_at_the_wrapper() {
    // The wrapper's shim has no strobe port: a partial-strobe write writes every field.
    let mut b = Bench::new();
    assert_eq!(b.write_strb(0x000, 0x0040_0000 | 0x3FF, 0x1).0, 0);
    assert_eq!(b.read(0x000), 0x0040_03FF);
    assert_eq!(b.write_strb(0x004, 0xDEAD_BEEF, 0x0).0, 0);
    assert_eq!(b.read(0x004), 0xDEAD_BEEF);
}

#[test]
fn handshake_timing() {
    let mut b = Bench::new();
    b.idle(3);
    let w = Inputs {
        axil: AxilIn {
            awaddr: 0x004,
            awvalid: true,
            wdata: 99,
            wstrb: 0xF,
            wvalid: true,
            bready: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    };
    // Taken in the first cycle it is offered; AWREADY/WREADY in the next, BVALID in the one after.
    let o0 = b.step(&w);
    let o1 = b.step(&w);
    let o2 = b.step(&Inputs {
        axil: AxilIn {
            bready: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    });
    let o3 = b.step(&Inputs::default());
    assert!(!o0.awready && !o0.bvalid);
    assert!(o1.awready && o1.wready && !o1.bvalid);
    assert!(!o2.awready && o2.bvalid && o2.bresp == 0);
    assert!(!o3.bvalid, "BREADY in the BVALID cycle ends the response");
    // BVALID stays until BREADY.
    b.step(&w);
    b.step(&Inputs::default());
    for _ in 0..5 {
        assert!(b.step(&Inputs::default()).bvalid);
    }
    // Read: ARREADY one cycle after ARVALID with RDATA already shown, RVALID one cycle later,
    // held until RREADY, after which RDATA returns to 0.
    let r = Inputs {
        axil: AxilIn {
            araddr: 0x004,
            arvalid: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    };
    let rready = Inputs {
        axil: AxilIn {
            rready: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    };
    let o0 = b.step(&r);
    let o1 = b.step(&r);
    let o2 = b.step(&Inputs::default());
    let o3 = b.step(&rready);
    let o4 = b.step(&Inputs::default());
    assert!(!o0.arready && !o0.rvalid);
    assert!(o1.arready && !o1.rvalid && o1.rdata == 99);
    assert!(o2.rvalid && o2.rdata == 99);
    assert!(o3.rvalid && o3.rdata == 99);
    assert!(!o4.rvalid && o4.rdata == 0);
}

#[test]
fn axis_rst_resets_every_register_configuration_included() {
    let mut b = Bench::new();
    b.cfg(0x000, 0x0040_0000 | (3 << 14) | (2 << 10) | 700);
    b.cfg(0x004, 1);
    b.cfg(0x008, 2);
    b.cfg(0x00C, 3);
    b.cfg(0x010, 4);
    b.cfg(0x014, word14(5, 6));
    b.cfg(0x020, 0x400);
    let c = b.cycle + 2;
    b.pulse(c);
    b.run_to(c + 40);
    assert_ne!(b.at(c + 40).rc, L);
    b.step(&Inputs {
        rst: true,
        ..Inputs::default()
    });
    assert_eq!(b.read(0x000), 0x0001_47FC);
    assert_eq!(b.read(0x004), 0x005B_8D80);
    assert_eq!(b.read(0x008), 0x00B7_1B00);
    assert_eq!(b.read(0x00C), 0x0098_9680);
    assert_eq!(b.read(0x010), 234_375);
    assert_eq!(b.read(0x014), 0x2192_0271);
    assert_eq!(b.read(0x018), L);
    assert_eq!(b.read(0x01C), L);
    assert_eq!(b.read(0x020), 0x3FF);
    // The processes are idle again: the next CNP is a first CNP with the reset Nd (634 cycles).
    let c = b.cycle + 1;
    b.pulse(c);
    b.run_to(c + 700);
    assert_eq!(b.changes(c, c + 700, rc), vec![(c + 634, HALVED)]);
}

// ------------------------------------------------------------------------------------------------
// 1. CNP path, counter, first CNP
// ------------------------------------------------------------------------------------------------

#[test]
fn first_cnp_changes_rc_at_c_plus_9_plus_nd() {
    for nd in [0u32, 4, 7, 100] {
        let mut b = Bench::new();
        b.cfg(0x014, word14(nd, NA_RESET));
        let c = b.cycle + 3;
        b.pulse(c);
        let end = c + u64::from(nd) + 20;
        b.run_to(end);
        assert_eq!(
            b.changes(c, end, rc),
            vec![(c + 9 + u64::from(nd), HALVED)],
            "Nd = {nd}"
        );
        assert_eq!(b.read(0x018), HALVED);
        assert_eq!(b.read(0x01C), L, "clampTgtRate = 0 leaves Rt");
    }
    // Reset Nd = 625: 634 cycles.
    let mut b = Bench::new();
    b.pulse(10);
    b.run_to(700);
    assert_eq!(b.changes(10, 700, rc), vec![(644, HALVED)]);
}

#[test]
fn cnp_counter_counts_rising_edges_even_in_bypass() {
    let mut b = Bench::new();
    b.pulse(10);
    b.run_to(20);
    // The counter increments at the end of cycle c + 3 (cnpRe): its own output changes at c + 4,
    // the 0x020 register one cycle later.
    assert_eq!(b.changes(10, 20, cnt), vec![(15, 1)]);
    // A level held high is one CNP.
    let hold = Inputs {
        cnp: true,
        ..Inputs::default()
    };
    for _ in 0..50 {
        b.step(&hold);
    }
    b.idle(10);
    assert_eq!(b.at(b.cycle).cnp_cnt, 2);
    // One-cycle pulses every 2 cycles are each counted.
    let s = b.cycle + 1;
    for k in 0..10 {
        b.pulse(s + 2 * k);
    }
    b.run_to(s + 40);
    assert_eq!(b.at(b.cycle).cnp_cnt, 12);
    assert_eq!(b.read(0x020) >> 11, 12);
    // Bypass: still counted.
    b.cfg(0x024, 1);
    let s = b.cycle + 1;
    for k in 0..5 {
        b.pulse(s + 7 * k);
    }
    b.run_to(s + 50);
    assert_eq!(b.read(0x020) >> 11, 17);
}

#[test]
fn cnp_counter_wraps_at_16_bits() {
    let mut b = Bench::new();
    b.cfg(0x024, 1);
    let s = b.cycle + 1;
    let pulse = Inputs {
        cnp: true,
        ..Inputs::default()
    };
    for _ in 0..65_537 {
        b.step(&pulse);
        b.idle(1);
    }
    b.idle(6);
    assert_eq!(b.at(b.cycle).cnp_cnt, 1, "65537 CNPs from {s}");
}

#[test]
fn cnp_cnt_rst_is_edge_triggered() {
    let mut b = Bench::new();
    b.cfg(0x024, 1); // no dynamics, only counting
    for k in 0..3 {
        let c = b.cycle + 2 + 4 * k;
        b.pulse(c);
    }
    b.idle(20);
    assert_eq!(b.read(0x020) >> 11, 3);
    // 0 -> 1: clears once. Bit set in cycle k (AWREADY), edge in k+1, counter 0 in k+2, the
    // register 0 in k+3.
    let (resp, k) = b.write_strb(0x020, 0x400, 0xF);
    assert_eq!(resp, 0);
    b.idle(3);
    assert_eq!(b.at(k + 2).cnp_cnt, 3);
    assert_eq!(b.at(k + 3).cnp_cnt, 0);
    assert_eq!(b.read(0x020), 0x400 | 0x3FF, "the bit reads back 1");
    // It keeps counting with the bit at 1.
    let c = b.cycle + 2;
    b.pulse(c);
    b.idle(10);
    assert_eq!(b.read(0x020) >> 11, 1);
    // Writing 1 again does nothing.
    b.cfg(0x020, 0x400);
    b.idle(5);
    assert_eq!(b.read(0x020) >> 11, 1);
    // 0, then 1: clears again.
    b.cfg(0x020, 0);
    assert_eq!(b.read(0x020) >> 11, 1);
    b.cfg(0x020, 0x400);
    b.idle(5);
    assert_eq!(b.read(0x020) >> 11, 0);
}

#[test]
fn later_cnp_latency_spans_c_plus_7_to_c_plus_nd_plus_9() {
    let nd = 20u64;
    let mut b = Bench::new();
    b.cfg(0x014, word14(nd as u32, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    // UPDATE1 cycles: c0 + 6 + Nd + k (Nd + 3).
    let u = |k: u64| c0 + 6 + nd + k * (nd + 3);
    // Shortest: cnpRe the cycle before UPDATE1 (pin at u - 4): Rc at pin + 7.
    let p1 = u(1) - 4;
    b.pulse(p1);
    // Longest: cnpRe on an UPDATE1 that consumes nothing (pin at u - 3): Rc at pin + Nd + 9.
    let p2 = u(2) - 3;
    b.pulse(p2);
    b.run_to(u(4));
    let r1 = decreased(HALVED, 1023, 1);
    let r2 = decreased(r1, 1023, 1);
    assert_eq!(
        b.changes(c0, u(4), rc),
        vec![(u(0) + 3, HALVED), (p1 + 7, r1), (p2 + nd + 9, r2)]
    );
}

// ------------------------------------------------------------------------------------------------
// 2. Periods and blind windows
// ------------------------------------------------------------------------------------------------

#[test]
fn decrease_polls_every_nd_plus_3() {
    for nd in [5u64, 20, 61] {
        let mut b = Bench::new();
        b.cfg(0x014, word14(nd as u32, NA_RESET));
        let c0 = b.cycle + 2;
        // A CNP every 4 cycles: one is pending at every poll.
        for k in 0..200 {
            b.pulse(c0 + 4 * k);
        }
        b.run_to(c0 + 800);
        let ch = b.changes(c0, c0 + 800, rc);
        assert!(ch.len() >= 5, "Nd = {nd}: {ch:?}");
        for w in ch.windows(2).take(4) {
            assert_eq!(w[1].0 - w[0].0, nd + 3, "Nd = {nd}");
        }
        assert_eq!(ch[0].0, c0 + 9 + nd);
    }
}

#[test]
fn decrease_blind_window_loses_cnps_at_u_to_u_plus_2() {
    let nd = 20u64;
    for j in 0..=3u64 {
        let mut b = Bench::new();
        b.cfg(0x014, word14(nd as u32, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        let u0 = c0 + 6 + nd;
        let u1 = u0 + nd + 3;
        // cnpRe at u0 + j.
        b.pulse(u0 + j - 3);
        b.run_to(u1 + 2 * (nd + 3));
        let ch = b.changes(c0, b.cycle, rc);
        if j <= 2 {
            assert_eq!(ch, vec![(u0 + 3, HALVED)], "cnpRe at u0 + {j} is lost");
        } else {
            assert_eq!(
                ch,
                vec![(u0 + 3, HALVED), (u1 + 3, decreased(HALVED, 1023, 1))],
                "cnpRe at u0 + 3 is applied"
            );
        }
        // Counted all the same.
        assert_eq!(b.at(b.cycle).cnp_cnt, 2);
    }
}

#[test]
fn alpha_updates_every_na_plus_2_and_decays_1023_1019_1015() {
    let na = 30u64;
    let mut b = Bench::new();
    b.cfg(0x014, word14(60_000, na as u32));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 10 * (na + 2));
    let ch = b.changes(c0, b.cycle, alpha);
    // The first CNP is not pending for alpha: the first update decays.
    assert_eq!(ch[0], (c0 + 8 + na, 1019));
    assert_eq!(ch[1], (c0 + 8 + na + (na + 2), 1015));
    for w in ch.windows(2) {
        assert_eq!(w[1].0 - w[0].0, na + 2);
        assert_eq!(w[0].1 - w[1].1, 4, "-4 per step at the top");
    }
}

#[test]
fn alpha_floors_at_128_for_g_1020_and_1_for_g_512() {
    for (g, floor) in [(1020u32, 128u32), (512, 1)] {
        let mut b = Bench::new();
        b.cfg(0x000, word0(g, 1, 5, false));
        b.cfg(0x014, word14(60_000, 10));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        b.run_to(c0 + 3000 * 12);
        let vals: Vec<u32> = (c0..b.cycle).map(|k| alpha(&b.at(k))).collect();
        assert!(vals.windows(2).all(|w| w[1] <= w[0]), "G = {g}: monotone");
        assert_eq!(*vals.last().unwrap(), floor, "G = {g}");
        assert_eq!(*vals.iter().min().unwrap(), floor, "G = {g}: never below");
        assert_eq!(floor, 512 / (1024 - g));
        assert_eq!(b.read(0x020) & 0x3FF, floor);
    }
}

#[test]
fn alpha_blind_window_loses_cnps_at_a_and_a_plus_1() {
    let na = 30u64;
    for j in [-1i64, 0, 1, 2] {
        let mut b = Bench::new();
        b.cfg(0x014, word14(60_000, na as u32));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        let a0 = c0 + 6 + na;
        let a1 = a0 + na + 2;
        b.pulse((a0 as i64 + j - 3) as u64);
        b.run_to(a1 + 4);
        let (after_a0, after_a1) = (b.at(a0 + 2).alpha, b.at(a1 + 2).alpha);
        match j {
            -1 => assert_eq!((after_a0, after_a1), (1023, 1019), "counted at a0"),
            0 | 1 => assert_eq!((after_a0, after_a1), (1019, 1015), "lost (j = {j})"),
            _ => assert_eq!((after_a0, after_a1), (1019, 1019), "counted at a1"),
        }
    }
}

#[test]
fn alpha_wraps_to_0_with_g_512() {
    let na = 50u64;
    let mut b = Bench::new();
    b.cfg(0x000, word0(512, 1, 5, false));
    b.cfg(0x014, word14(60_000, na as u32));
    let c0 = b.cycle + 2;
    for k in 0..60 {
        b.pulse(c0 + 10 * k);
    }
    let a = |k: u64| c0 + 6 + na + k * (na + 2);
    b.run_to(a(4) + 3);
    let seq: Vec<u16> = (0..4).map(|k| b.at(a(k) + 2).alpha).collect();
    assert_eq!(seq, [0, 512, 768, 896], "1023 -> 0 -> 512 -> 768 ...");
}

#[test]
fn g_0_stops_every_decrease() {
    // Na < Nd: alpha reaches 0 before the first decrease; then no CNP changes Rc.
    let mut b = Bench::new();
    b.cfg(0x000, word0(0, 1, 5, false));
    b.cfg(0x014, word14(100, 10));
    let c0 = b.cycle + 2;
    for k in 0..200 {
        b.pulse(c0 + 37 * k);
    }
    b.run_to(c0 + 8000);
    assert_eq!(b.changes(c0, b.cycle, alpha), vec![(c0 + 18, 0)]);
    assert!(b.changes(c0, b.cycle, rc).is_empty());
    assert!(b.changes(c0, b.cycle, rt).is_empty());
    // The same stimulus with G = 1020 decreases.
    let mut b = Bench::new();
    b.cfg(0x014, word14(100, 10));
    for k in 0..200 {
        b.pulse(c0 + 37 * k);
    }
    b.run_to(c0 + 8000);
    assert!(!b.changes(c0, b.cycle, rc).is_empty());
}

#[test]
fn first_increase_at_c_plus_ni_plus_9_then_every_ni_plus_3() {
    let ni = 100u64;
    let mut b = Bench::new();
    b.cfg(0x010, ni as u32);
    b.cfg(0x014, word14(5, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 14 + 6 * (ni + 3));
    let ch = b.changes(c0, b.cycle, rc);
    assert_eq!(ch[0], (c0 + 14, HALVED));
    let mut expect = HALVED;
    for (k, &(cycle, v)) in ch[1..].iter().enumerate() {
        assert_eq!(cycle, c0 + ni + 9 + k as u64 * (ni + 3));
        expect = (expect >> 1) + (L >> 1);
        assert_eq!(v, expect);
    }
    assert_eq!(ch.len(), 7);
}

#[test]
fn a_cnp_restarts_the_increase_only_while_counting_up_to_ni() {
    // T = 2 and Rai = -5 make the stage visible: the second increase after a restart-free run is
    // additive (Rt = L - 5); no decrease in the window (Nd large), so Rc = Rt = L until then.
    let ni = 100u64;
    for (d, restarted) in [(1u64, true), (2, false), (3, false)] {
        let mut b = Bench::new();
        b.cfg(0x000, word0(1020, 1, 2, false));
        b.cfg(0x004, 0xFFFF_FFFB);
        b.cfg(0x010, ni as u32);
        b.cfg(0x014, word14(60_000, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        // The second CNP's incReset is in cycle c1 + 4 = c0 + Ni + 4 + d: d = 1 is the last
        // counting cycle with timer <= Ni, d = 2 the expiry cycle, d = 3 the update cycle.
        let c1 = c0 + ni + d;
        b.pulse(c1);
        b.run_to(c0 + 4 * (ni + 3) + 20);
        let first_rt_change = b.changes(c0, b.cycle, rt)[0];
        let expect = if restarted {
            c1 + ni + 9 + (ni + 3)
        } else {
            c0 + ni + 9 + (ni + 3)
        };
        assert_eq!(first_rt_change, (expect, L - 5), "d = {d}");
    }
}

// ------------------------------------------------------------------------------------------------
// 3. Arithmetic
// ------------------------------------------------------------------------------------------------

#[test]
fn rmin_floors_and_raises_above_line_rate() {
    for (rmin, expect) in [
        (800_000_000u32, 800_000_000u32),
        (2_000_000_000, 2_000_000_000),
    ] {
        let mut b = Bench::new();
        b.cfg(0x00C, rmin);
        b.cfg(0x014, word14(4, NA_RESET));
        let c = b.cycle + 2;
        b.pulse(c);
        b.run_to(c + 20);
        assert_eq!(b.changes(c, c + 20, rc), vec![(c + 13, expect)]);
        assert_eq!(b.read(0x018), expect);
    }
}

#[test]
fn dec_gain_sets_the_shift() {
    for dg in [0u32, 1, 2, 15] {
        let mut b = Bench::new();
        b.cfg(0x000, word0(1020, dg, 5, false));
        b.cfg(0x014, word14(4, NA_RESET));
        let c = b.cycle + 2;
        b.pulse(c);
        b.run_to(c + 20);
        let want = L.wrapping_sub(((u64::from(L) * 1023) >> (dg + 10)) as u32);
        assert_eq!(b.at(c + 13).rc, want.max(10_000_000), "dec_gain {dg}");
    }
}

/// Rt after each increase following a second CNP that lowered Rt (clamp = 1).
fn stage_deltas(t: u32, incs: u64) -> Vec<i64> {
    let (ni, nd) = (30u64, 5u64);
    let mut b = Bench::new();
    b.cfg(0x000, word0(1020, 1, t, true));
    b.cfg(0x010, ni as u32);
    b.cfg(0x014, word14(nd as u32, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    let c1 = c0 + 30;
    b.pulse(c1);
    let first = c1 + ni + 9;
    b.run_to(first + incs * (ni + 3) + 1);
    assert_eq!(
        b.at(first - 1).rt,
        HALVED,
        "clamp = 1: Rt = Rc before the decrease"
    );
    let mut out = Vec::new();
    for k in 0..incs {
        let at = first + k * (ni + 3);
        let (before, after) = (b.at(at - 1), b.at(at));
        assert_eq!(
            after.rc,
            (before.rc >> 1) + (after.rt >> 1),
            "two truncated halves"
        );
        assert_eq!(b.at(at + 1), after);
        out.push(i64::from(after.rt) - i64::from(before.rt));
    }
    out
}

#[test]
fn stage_sequences_for_t_5_1_and_0() {
    let (a, h) = (6_000_000i64, 12_000_000i64);
    assert_eq!(stage_deltas(5, 8), [0, 0, 0, 0, a, h, h, h], "T = 5");
    assert_eq!(stage_deltas(1, 4), [a, h, h, h], "T = 1");
    let t0 = stage_deltas(0, 600);
    let mut want = vec![0i64; 600];
    want[255] = a;
    want[511] = a;
    assert_eq!(t0, want, "T = 0: 255 fast recovery, additive, repeat");
}

#[test]
fn rc_converges_to_l_minus_1_and_stays() {
    let ni = 30u64;
    let mut b = Bench::new();
    b.cfg(0x010, ni as u32);
    b.cfg(0x014, word14(5, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 200 * (ni + 3));
    let ch = b.changes(c0, b.cycle, rc);
    let last = *ch.last().unwrap();
    assert_eq!(last.1, L - 1);
    assert!(last.0 < c0 + 60 * (ni + 3), "reached early, then no change");
    assert_eq!(b.read(0x018), 1_249_999_999);
    assert_eq!(b.read(0x01C), L);
}

#[test]
fn rai_0xfffffffb_lowers_rt() {
    let ni = 30u64;
    let mut b = Bench::new();
    b.cfg(0x000, word0(1020, 1, 1, false));
    b.cfg(0x004, 0xFFFF_FFFB);
    b.cfg(0x010, ni as u32);
    b.cfg(0x014, word14(60_000, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + ni + 12);
    assert_eq!(
        b.changes(c0, b.cycle, rt),
        vec![(c0 + ni + 9, L - 5)],
        "(L + 0xFFFFFFFB) mod 2^32 = L - 5 < L"
    );
    assert_eq!(b.at(c0 + ni + 9).rc, (L >> 1) + ((L - 5) >> 1));
}

#[test]
fn decrease_wins_a_collision_and_the_stage_still_advances() {
    // Nd = Ni: the first increase lands with the first decrease. T = 2 and Rai = -5 show the
    // stage: the next increase is additive.
    let n = 100u64;
    let mut b = Bench::new();
    b.cfg(0x000, word0(1020, 1, 2, false));
    b.cfg(0x004, 0xFFFF_FFFB);
    b.cfg(0x010, n as u32);
    b.cfg(0x014, word14(n as u32, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + n + 9 + n + 5);
    let next = c0 + n + 9 + n + 3;
    assert_eq!(
        b.changes(c0, b.cycle, rc),
        vec![(c0 + n + 9, HALVED), (next, (HALVED >> 1) + ((L - 5) >> 1))]
    );
    assert_eq!(b.changes(c0, b.cycle, rt), vec![(next, L - 5)]);
}

#[test]
fn clamp_1_sets_rt_to_rc_clamp_0_leaves_it() {
    for clamp in [true, false] {
        let mut b = Bench::new();
        b.cfg(0x000, word0(1020, 1, 5, clamp));
        b.cfg(0x014, word14(5, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        b.pulse(c0 + 30);
        b.run_to(c0 + 60);
        let want_rt = if clamp { HALVED } else { L };
        assert_eq!(b.at(c0 + 60).rt, want_rt, "clamp {clamp}");
        assert_eq!(b.at(c0 + 60).rc, decreased(HALVED, 1023, 1));
    }
}

#[test]
fn clamp_0_clamps_when_update1_lands_on_c_plus_4() {
    // Stage 1 after the first increase; UPDATE1 at u = c0 + 11 + 8k (Nd = 5).
    let (ni, nd) = (30u64, 5u64);
    let u = |c0: u64| c0 + 6 + nd + 4 * (nd + 3);
    for (lead, clamped) in [(4u64, true), (5, false)] {
        let mut b = Bench::new();
        b.cfg(0x010, ni as u32);
        b.cfg(0x014, word14(nd as u32, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        let u = u(c0);
        assert!(u > c0 + ni + 9);
        b.pulse(u - lead);
        b.run_to(u + 5);
        let rc_u = b.at(u).rc;
        assert_eq!(rc_u, (HALVED >> 1) + (L >> 1), "one fast recovery before");
        let want = if clamped { rc_u } else { L };
        assert_eq!(b.at(u + 3).rt, want, "pin at u - {lead}");
        assert_eq!(b.at(u + 3).rc, decreased(rc_u, 1023, 1));
    }
}

// ------------------------------------------------------------------------------------------------
// 6. Bypass
// ------------------------------------------------------------------------------------------------

#[test]
fn bypass_from_reset_starts_nothing_and_the_next_cnp_is_a_first_cnp() {
    let nd = 10u64;
    let mut b = Bench::new();
    b.cfg(0x014, word14(nd as u32, 30));
    b.cfg(0x024, 1);
    let s = b.cycle + 1;
    for k in 0..5 {
        b.pulse(s + 50 * k);
    }
    b.run_to(s + 400);
    assert!(b.changes(s, b.cycle, rc).is_empty());
    assert!(b.changes(s, b.cycle, alpha).is_empty());
    assert_eq!(b.at(b.cycle).cnp_cnt, 5);
    b.cfg(0x024, 0);
    b.idle(100);
    assert!(b.changes(s, b.cycle, rc).is_empty());
    let c = b.cycle + 3;
    b.pulse(c);
    b.run_to(c + 80);
    assert_eq!(b.changes(c, b.cycle, rc)[0], (c + 9 + nd, HALVED));
    // First CNP: not pending for alpha, so the first alpha update decays.
    assert_eq!(b.changes(c, b.cycle, alpha)[0], (c + 8 + 30, 1019));
}

#[test]
fn bypass_forces_line_rate_one_cycle_after_the_bit_and_the_processes_keep_running() {
    let (nd, na) = (10u64, 30u64);
    let mut b = Bench::new();
    b.cfg(0x014, word14(nd as u32, na as u32));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    // A CNP pending when bypass comes on (cnpRe at c0 + 38, poll at c0 + 42) is consumed but
    // its result is overridden.
    b.pulse(c0 + 35);
    b.run_to(c0 + 40);
    assert_eq!(b.at(b.cycle).rc, HALVED);
    let (_, k) = b.write_strb(0x024, 1, 0xF);
    assert_eq!((b.at(k).rc, b.at(k + 1).rc, b.at(k + 1).rt), (HALVED, L, L));
    let s = b.cycle;
    for j in 0..6 {
        b.pulse(s + 5 + 40 * j);
    }
    b.run_to(s + 400);
    assert!(b.changes(k + 2, b.cycle, rc).is_empty());
    assert!(b.changes(k + 2, b.cycle, rt).is_empty());
    assert!(
        !b.changes(k + 2, b.cycle, alpha).is_empty(),
        "alpha keeps updating"
    );
    // Cleared: Rc = Rt = L, and the decrease poll keeps its phase from the first CNP.
    b.cfg(0x024, 0);
    assert_eq!(b.read(0x018), L);
    let c2 = b.cycle + 2;
    b.pulse(c2);
    b.run_to(c2 + nd + 12);
    let u0 = c0 + 6 + nd;
    let first_u = (c2 + 4..)
        .find(|&u| (u - u0).is_multiple_of(nd + 3))
        .unwrap();
    let ch = b.changes(c2, b.cycle, rc);
    assert_eq!(ch[0].0, first_u + 3);
    assert_eq!(ch[0].1, decreased(L, u32::from(b.at(first_u).alpha), 1));
}

// ------------------------------------------------------------------------------------------------
// Our block against upstream: the reproducers of docs/surf-upstream.md
// ------------------------------------------------------------------------------------------------

/// Cycles from a first CNP's pin pulse to the first change of Rc.
fn first_decrease_latency<D: Dut>(mut b: Bench<D>) -> (u64, u32) {
    let c = b.cycle + 2;
    b.pulse(c);
    b.run_to(c + 700);
    let (at, rc) = b.changes(c, b.cycle, rc)[0];
    (at - c, rc)
}

#[test]
fn defect_first_cnp_latency() {
    let (up, up_rc) = first_decrease_latency(Bench::new());
    let (ours, ours_rc) = first_decrease_latency(Bench::ours());
    assert_eq!((up, up_rc), (634, HALVED));
    assert_eq!(
        (ours, ours_rc),
        (3, HALVED),
        "same decrease arithmetic, c + 3"
    );
    println!(
        "first CNP -> Rc: upstream {up} cycles ({:.2} us), ours {ours} cycles; at line rate \
         upstream sends {} B more before reacting",
        up as f64 / 156.25,
        (up - ours) * 8
    );
}

/// Latency (pin to Rc change) of a second CNP at `c0 + 2000 + j` for every phase j of the
/// upstream poll (Nd + 3 = 628 phases, reset intervals).
fn later_latencies<D: Dut>(make: impl Fn() -> Bench<D>) -> Vec<u64> {
    (0..628)
        .map(|j| {
            let mut b = make();
            let c0 = b.cycle + 2;
            b.pulse(c0);
            let c1 = c0 + 2000 + j;
            b.pulse(c1);
            b.run_to(c1 + 700);
            b.changes(c1, b.cycle, rc)[0].0 - c1
        })
        .collect()
}

#[test]
fn defect_later_cnp_latency_depends_on_the_poll_phase() {
    let up = later_latencies(Bench::new);
    let ours = later_latencies(Bench::ours);
    let (min, max) = (*up.iter().min().unwrap(), *up.iter().max().unwrap());
    assert_eq!((min, max), (7, 634), "c + 7 .. c + Nd + 9");
    assert!(
        ours.iter().all(|&l| l == 3),
        "ours: c + 3 once the cooldown is over"
    );
    let mean = up.iter().sum::<u64>() as f64 / up.len() as f64;
    println!("later CNP -> Rc over all 628 poll phases: upstream {min}..{max} cycles, mean {mean:.1}; ours 3");
}

/// A deterministic stream of CNP pin cycles with exponential gaps of mean `mean` (at least 2).
fn cnp_stream(mean: f64, cycles: u64, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    let mut t = 10u64;
    let mut out = Vec::new();
    loop {
        // xorshift64*
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let u = ((x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        t += ((-u.ln() * mean) as u64).max(2);
        if t >= cycles {
            return out;
        }
        out.push(t);
    }
}

/// CNPs that no decrease serves: a decrease visible at cycle x serves every earlier CNP pulsed at
/// least `min_lat` cycles before x; a CNP not served within `max_lat` cycles is lost.
fn lost_cnps<D: Dut>(
    dut: &mut D,
    pins: &[u64],
    cycles: u64,
    min_lat: u64,
    max_lat: u64,
) -> (u64, u64) {
    let mut pending = std::collections::VecDeque::new();
    let (mut next, mut lost, mut served) = (0usize, 0u64, 0u64);
    let mut prev = dut.probe_regs().rc;
    for t in 0..cycles {
        let cnp = next < pins.len() && pins[next] == t;
        if cnp {
            next += 1;
            pending.push_back(t);
        }
        dut.step_ports(&Inputs {
            cnp,
            ..Inputs::default()
        });
        let rc = dut.probe_regs().rc;
        let x = t + 1;
        if rc < prev {
            while pending.front().is_some_and(|&c| x - c >= min_lat) {
                pending.pop_front();
                served += 1;
            }
        }
        prev = rc;
        while pending.front().is_some_and(|&c| x - c > max_lat) {
            pending.pop_front();
            lost += 1;
        }
    }
    (lost, served)
}

#[test]
fn defect_cnps_lost_in_the_decrease_blind_window() {
    // dec_gain 15: each decrease is small, so Rc never reaches Rmin and every decrease shows.
    let cycles = 20_000_000u64;
    let setup = |b: &mut dyn FnMut(u16, u32)| b(0x000, word0(1020, 15, 5, false));
    for mean in [906.0, 7812.5] {
        let pins = cnp_stream(mean, cycles, 0x5EED);
        let mut up = Bench::with(SurfRate::new(SurfParams::default()));
        setup(&mut |a, d| up.cfg(a, d));
        let mut ours = Bench::ours();
        setup(&mut |a, d| ours.cfg(a, d));
        let (up_lost, up_served) = lost_cnps(&mut up.dut, &pins, cycles, 7, 625 + 9);
        let (ours_lost, ours_served) = lost_cnps(&mut ours.dut, &pins, cycles, 3, 625 + 9);
        let seconds = cycles as f64 / 156.25e6;
        println!(
            "Poisson CNPs, mean gap {mean} cycles ({:.0} CNP/s): upstream lost {up_lost} of {} \
             ({:.0} lost CNP/s), ours lost {ours_lost} of {}",
            pins.len() as f64 / seconds,
            up_lost + up_served,
            up_lost as f64 / seconds,
            ours_lost + ours_served
        );
        assert_eq!(ours_lost, 0, "ours loses none");
        if mean < 1000.0 {
            assert!(up_lost > 0, "upstream loses CNPs at this rate");
        }
    }
}

/// Upstream only (internal signals): CNPs that set the alpha flag inside the 2-cycle window of an
/// update and are not followed by another before the next update. Measured at Na = 100 (period
/// 102) with CNPs every 102 cycles on average, where the loss is frequent enough to count; the
/// expected count is N * 2/102 * P(no further CNP before the next update).
#[test]
fn defect_cnps_lost_for_alpha() {
    let cycles = 5_000_000u64;
    let (na, mean) = (100u32, 102.0);
    let pins = cnp_stream(mean, cycles, 0xA1FA);
    let mut up = Bench::with(SurfRate::new(SurfParams::default()));
    up.cfg(0x000, word0(1020, 15, 5, false));
    up.cfg(0x014, word14(625, na));
    let dut = &mut up.dut;
    let (mut next, mut at_risk, mut lost, mut updates_with_cnp) = (0usize, 0u64, 0u64, 0u64);
    let mut last_update = None;
    for t in 0..cycles {
        let cnp = next < pins.len() && pins[next] == t;
        next += usize::from(cnp);
        // This cycle's registers.
        let cnp_re = dut.cnp.rising && !dut.regs.bypass;
        let updating = dut.alpha.state == dcqcn_surf::model::alpha::AlphaState::Update;
        if updating {
            if at_risk > 0 && !dut.regs.cnp_alpha {
                lost += at_risk;
            }
            updates_with_cnp += u64::from(dut.regs.cnp_alpha);
            at_risk = 0;
            last_update = Some(t);
        }
        if cnp_re {
            if last_update.is_some_and(|a| t - a <= 1) {
                at_risk += 1;
            } else {
                at_risk = 0;
            }
        }
        dut.step_ports(&Inputs {
            cnp,
            ..Inputs::default()
        });
    }
    let seconds = cycles as f64 / 156.25e6;
    // Exponential gaps: P(no CNP in the ~100 cycles after the window) = exp(-100 / mean).
    let expect = pins.len() as f64 * 2.0 / 102.0 * (-100.0 / mean).exp();
    println!(
        "Na = {na}, CNPs every {mean} cycles on average ({:.0} CNP/s): {lost} lost for alpha \
         ({:.0} per second; expected about {expect:.0}), {updates_with_cnp} alpha increases",
        pins.len() as f64 / seconds,
        lost as f64 / seconds
    );
    assert!(lost > 0);
    assert!(
        (lost as f64 - expect).abs() < 0.2 * expect,
        "{lost} vs {expect}"
    );
}

/// Rc at the end of a CNP train (`n` CNPs, `gap` cycles apart) with alphaG = `g`, Na = 100.
fn rc_after_cnps<D: Dut>(mut b: Bench<D>, g: u32, n: u64, gap: u64) -> (u32, u16) {
    b.cfg(0x000, word0(g, 1, 5, false));
    b.cfg(0x014, word14(625, 100));
    let c0 = b.cycle + 2;
    for k in 0..n {
        b.pulse(c0 + gap * k);
    }
    b.run_to(c0 + gap * n + 2000);
    let p = b.at(b.cycle);
    (p.rc, p.alpha)
}

#[test]
fn defect_alpha_wrap_with_g_512_and_no_decrease_with_g_0() {
    // G = 512: two CNPs; the second is pending when alpha = 1023 updates: alpha wraps to 0 and
    // the first decrease (polled later) cuts nothing.
    let (up_rc, up_alpha) = rc_after_cnps(Bench::new(), 512, 2, 10);
    let (ours_rc, ours_alpha) = rc_after_cnps(Bench::ours(), 512, 2, 10);
    println!(
        "G = 512, two CNPs: upstream Rc = {up_rc} (alpha {up_alpha}), ours Rc = {ours_rc} (alpha {ours_alpha})"
    );
    assert_eq!(up_rc, L, "upstream: no cut at all");
    assert!(ours_rc < HALVED);
    // G = 0: a CNP every 50 cycles for 0.2 ms.
    let (up_rc, up_alpha) = rc_after_cnps(Bench::new(), 0, 625, 50);
    let (ours_rc, ours_alpha) = rc_after_cnps(Bench::ours(), 0, 625, 50);
    println!(
        "G = 0, a CNP every 50 cycles for 0.2 ms: upstream Rc = {up_rc} (alpha {up_alpha}), \
         ours Rc = {ours_rc} (alpha {ours_alpha})"
    );
    assert_eq!(up_rc, L, "upstream: alpha is 0 from the first update on");
    assert_eq!(ours_rc, 10_000_000, "ours: cut to Rmin");
}

/// Cycles between the first two alpha changes, and between the first two increases.
fn periods<D: Dut>(mut b: Bench<D>) -> (u64, u64) {
    b.cfg(0x010, 2000);
    b.cfg(0x014, word14(625, 300));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 8000);
    let a = b.changes(c0, b.cycle, alpha);
    let r: Vec<_> = b
        .changes(c0, b.cycle, rc)
        .into_iter()
        .filter(|&(k, v)| v > b.at(k - 1).rc)
        .collect();
    (a[1].0 - a[0].0, r[1].0 - r[0].0)
}

#[test]
fn defect_periods_are_2_and_3_cycles_long() {
    let up = periods(Bench::new());
    let ours = periods(Bench::ours());
    assert_eq!(up, (302, 2003));
    assert_eq!(ours, (300, 2000));
    println!(
        "alpha period for Na = 300: upstream {} ours {}; increase period for Ni = 2000: upstream {} ours {} \
         (at the reset values: +{:.3} % and +{:.1} ppm)",
        up.0,
        ours.0,
        up.1,
        ours.1,
        200.0 / 8594.0,
        3e6 / 234_375.0
    );
}

/// Rt after a second CNP that comes after two increases (clampTgtRate = 0).
fn rt_after_second_cnp<D: Dut>(mut b: Bench<D>) -> (u32, u32) {
    b.cfg(0x010, 1000);
    b.cfg(0x014, word14(20, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.pulse(c0 + 2500);
    b.run_to(c0 + 2600);
    let p = b.at(b.cycle);
    (p.rt, b.at(c0 + 2500).rc)
}

#[test]
fn defect_clamp_tgt_rate_0_never_clamps() {
    let (up_rt, _) = rt_after_second_cnp(Bench::new());
    let (ours_rt, ours_rc_before) = rt_after_second_cnp(Bench::ours());
    assert_eq!(
        up_rt, L,
        "upstream: the stage is zeroed before the decrease reads it"
    );
    assert_eq!(ours_rt, ours_rc_before, "ours: Rt = Rc after an increase");
    assert!(ours_rt < L);
    println!(
        "clampTgtRate = 0, CNP after two increases: upstream Rt = {up_rt}, ours Rt = {ours_rt}"
    );
}

/// Rc after 100 increases following one CNP (Ni = 100).
fn settled_rc<D: Dut>(mut b: Bench<D>) -> u32 {
    b.cfg(0x010, 100);
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 700 + 100 * 103);
    b.read(0x018)
}

#[test]
fn defect_rc_stalls_at_l_minus_1() {
    let up = settled_rc(Bench::new());
    let ours = settled_rc(Bench::ours());
    assert_eq!((up, ours), (L - 1, L));
    // The token rate at the wrapper clock: (Rc * K) >> 32 with K = round(2^48 / f).
    let k = 1_801_440u64;
    let bpc = |r: u32| (u64::from(r) * k) >> 32;
    assert_eq!(bpc(L - 1), bpc(L), "no throughput lost at 156.25 MHz");
    println!(
        "Rc after recovery: upstream {up}, ours {ours}; byte_per_clk {} vs {} (Q16.16)",
        bpc(up),
        bpc(ours)
    );
}

#[test]
fn defect_rai_wraps_and_rmin_raises_rc_above_line_rate() {
    let run = |mut b: Bench<SurfLimiter>| {
        b.cfg(0x000, word0(1020, 1, 1, false));
        b.cfg(0x004, 0xFFFF_FFFB);
        b.cfg(0x010, 100);
        b.cfg(0x014, word14(60_000, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        b.run_to(c0 + 120);
        b.read(0x01C)
    };
    let up = run(Bench::new());
    let mut ours = Bench::ours();
    ours.cfg(0x000, word0(1020, 1, 1, false));
    ours.cfg(0x004, 0xFFFF_FFFB);
    ours.cfg(0x010, 100);
    ours.cfg(0x014, word14(0, NA_RESET));
    let c0 = ours.cycle + 2;
    ours.pulse(c0);
    ours.run_to(c0 + 120);
    // Ours: the additive step (after the decrease) goes to min(Rt + Rai, L) in 33 bits: L.
    assert_eq!(ours.at(ours.cycle).rt, L);
    assert_eq!(up, L - 5);
    // Rmin above L.
    let rmin_run = |b: &mut dyn FnMut(u16, u32)| {
        b(0x00C, 2_000_000_000);
        b(0x014, word14(4, NA_RESET));
    };
    let mut up = Bench::new();
    rmin_run(&mut |a, d| up.cfg(a, d));
    let mut ours = Bench::ours();
    rmin_run(&mut |a, d| ours.cfg(a, d));
    for b in [up.cycle, ours.cycle] {
        assert!(b > 0);
    }
    let c = up.cycle.max(ours.cycle) + 2;
    up.pulse(c);
    ours.pulse(c);
    up.run_to(c + 30);
    ours.run_to(c + 30);
    let (u, o) = (up.read(0x018), ours.read(0x018));
    assert_eq!((u, o), (2_000_000_000, L));
    let bpc = |r: u32| (u64::from(r) * 1_801_440) >> 32;
    println!(
        "Rai = 0xFFFFFFFB: upstream Rt = {up_rt} after the additive step, ours L; Rmin = 2e9: upstream \
         Rc = {u} ({:.2} B/clk of tokens, line rate is 8), ours Rc = {o}",
        bpc(u) as f64 / 65536.0,
        up_rt = L - 5
    );
}

/// Rt changes over the first `n` increases after a second CNP lowered Rt (clamp = 1), with `t`.
fn rt_steps<D: Dut>(mut b: Bench<D>, t: u32, n: usize) -> Vec<i64> {
    b.cfg(0x000, word0(1020, 1, t, true));
    b.cfg(0x010, 100);
    b.cfg(0x014, word14(5, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.pulse(c0 + 50);
    b.run_to(c0 + 80 + 110 * n as u64);
    let ch = b.changes(c0 + 80, b.cycle, rc);
    ch.iter()
        .take(n)
        .map(|&(k, _)| i64::from(b.at(k).rt) - i64::from(b.at(k - 1).rt))
        .collect()
}

#[test]
fn defect_t_0_is_255_fast_recovery_steps() {
    let up = rt_steps(Bench::new(), 0, 4);
    let ours = rt_steps(Bench::ours(), 0, 4);
    assert_eq!(up, [0, 0, 0, 0], "upstream: fast recovery");
    assert_eq!(ours, [12_000_000; 4], "ours: hyper from the first increase");
    println!("T = 0, Rt steps of the first 4 increases: upstream {up:?}, ours {ours:?}");
}

/// Rc after a CNP that follows a bypass on/off pulse, which itself followed a first CNP.
fn after_bypass<D: Dut>(mut b: Bench<D>) -> (u32, u16) {
    b.cfg(0x014, word14(10, 30));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 500);
    b.cfg(0x024, 1);
    b.idle(500);
    b.cfg(0x024, 0);
    let c1 = b.cycle + 2;
    b.pulse(c1);
    b.run_to(c1 + 30);
    let p = b.at(b.cycle);
    (p.rc, p.alpha)
}

#[test]
fn defect_bypass_does_not_restart_the_reaction_point() {
    let (up_rc, up_alpha) = after_bypass(Bench::new());
    let (ours_rc, ours_alpha) = after_bypass(Bench::ours());
    assert_eq!(
        (ours_rc, ours_alpha),
        (HALVED, 1023),
        "ours: a first CNP again"
    );
    assert!(
        up_rc > HALVED && up_alpha < 1023,
        "upstream: the decayed alpha cuts less"
    );
    println!(
        "CNP after a bypass pulse: upstream Rc = {up_rc} (alpha {up_alpha}), ours Rc = {ours_rc} (alpha {ours_alpha})"
    );
}

/// The CNP count after 3 CNPs and two writes of 1 to cnpCntRst.
fn count_after_two_clears<D: Dut>(mut b: Bench<D>) -> u32 {
    b.cfg(0x024, 1);
    b.cfg(0x020, 0x400);
    for k in 0..3 {
        let c = b.cycle + 2 + 4 * k;
        b.pulse(c);
    }
    b.idle(20);
    b.cfg(0x020, 0x400);
    b.idle(5);
    b.read(0x020) >> 11
}

#[test]
fn defect_cnp_cnt_rst_acts_only_on_a_0_to_1_write() {
    let (up, ours) = (
        count_after_two_clears(Bench::new()),
        count_after_two_clears(Bench::ours()),
    );
    assert_eq!((up, ours), (3, 0));
    println!("count after a second write of 1 to cnpCntRst: upstream {up}, ours {ours}");
}

/// Word 0x000 after a one-byte write (lane 2) meant to set clampTgtRate.
fn config_after_byte_write<D: Dut>(mut b: Bench<D>) -> u32 {
    assert_eq!(b.write_strb(0x000, 0x0040_0000, 0x4).0, 0);
    b.read(0x000)
}

#[test]
fn defect_wstrb_is_ignored_at_the_wrapper() {
    let up = config_after_byte_write(Bench::new());
    let ours = config_after_byte_write(Bench::ours());
    // Upstream: alphaG = 0, dec_gain = 0, T = 0 (then no decrease ever: see G = 0).
    assert_eq!(up, 0x0040_0000);
    // Ours: only lane 2 (bits 23:16): T[7:2] = 0, clamp = 1, the rest kept.
    assert_eq!(ours, 0x0040_0000 | (1 << 14) | (1 << 10) | 0x3FC);
    println!(
        "0x000 after writing 0x00400000 with WSTRB = 0x4: upstream {up:#010x}, ours {ours:#010x}"
    );
}

/// BRESP of a write to Rc (read-only) issued together with a read.
fn ro_write_with_read<D: Dut>(mut b: Bench<D>) -> u8 {
    let both = Inputs {
        axil: AxilIn {
            awaddr: 0x018,
            awvalid: true,
            wdata: 7,
            wstrb: 0xF,
            wvalid: true,
            bready: true,
            araddr: 0x004,
            arvalid: true,
            rready: true,
        },
        ..Inputs::default()
    };
    loop {
        let o = b.step(&both);
        if o.awready {
            break;
        }
    }
    loop {
        let o = b.step(&Inputs {
            axil: AxilIn {
                bready: true,
                rready: true,
                ..AxilIn::default()
            },
            ..Inputs::default()
        });
        if o.bvalid {
            return o.bresp;
        }
    }
}

#[test]
fn defect_read_only_write_answers_okay_during_a_read() {
    let (up, ours) = (
        ro_write_with_read(Bench::new()),
        ro_write_with_read(Bench::ours()),
    );
    assert_eq!((up, ours), (0, 3));
    println!("BRESP of a write to 0x018 taken with a read: upstream {up}, ours {ours} (DECERR)");
}

// ------------------------------------------------------------------------------------------------
// Replay of recorded upstream I/O (the per-cycle bridge protocol of the upstream lockstep)
// ------------------------------------------------------------------------------------------------

/// One recorded cycle: the inputs and the upstream wrapper's outputs.
struct Recorded {
    inputs: Inputs,
    outputs: Outputs,
    /// Which stream outputs were known (0 or 1 in every bit): tvalid, tready, tlast, tdata, tkeep.
    /// The simulator shows X for the data FIFO's never-written memory behind an invalid beat.
    known: [bool; 5],
    text: String,
}

/// `got` equals the recorded outputs wherever the recording knows the value.
fn matches(got: &Outputs, r: &Recorded) -> bool {
    let e = &r.outputs;
    axil_of(got) == axil_of(e)
        && (!r.known[0] || got.m_axis_tvalid == e.m_axis_tvalid)
        && (!r.known[1] || got.s_axis_tready == e.s_axis_tready)
        && (!r.known[2] || got.m_axis_tlast == e.m_axis_tlast)
        && (!r.known[3] || got.m_axis_tdata == e.m_axis_tdata)
        && (!r.known[4] || got.m_axis_tkeep == e.m_axis_tkeep)
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s, 16).unwrap_or_else(|e| panic!("bad hex {s:?}: {e}"))
}

/// Parses `I`/`O` line pairs (flags, tdata, tkeep, awaddr, wdata, wstrb, araddr / flags, tdata,
/// tkeep, rdata, bresp, rresp). Addresses above 16 bits are outside what our ports carry.
fn parse_io(text: &str) -> Vec<Recorded> {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("I ") || l.starts_with("O "))
        .collect();
    lines
        .chunks(2)
        .map(|pair| {
            let i: Vec<&str> = pair[0].split_whitespace().collect();
            let o: Vec<&str> = pair[1].split_whitespace().collect();
            assert!(i[0] == "I" && o[0] == "O", "unpaired lines {pair:?}");
            let f = hex(i[1]);
            let bit = |n: u32| f >> n & 1 == 1;
            let (awaddr, araddr) = (hex(i[4]), hex(i[7]));
            assert!(awaddr <= 0xFFFF && araddr <= 0xFFFF);
            let mut inputs = Inputs {
                rst: bit(0),
                cnp: bit(1),
                m_axis_tready: bit(4),
                ..Inputs::default()
            };
            inputs.s_axis.tvalid = bit(2);
            inputs.s_axis.tlast = bit(3);
            let data = i[2];
            for w in 0..4 {
                let hi = data.len() - 16 * w;
                inputs.s_axis.tdata[w] = hex(&data[hi - 16..hi]);
            }
            inputs.s_axis.tkeep = hex(i[3]);
            inputs.axil = AxilIn {
                awaddr: awaddr as u16,
                awvalid: bit(5),
                wdata: hex(i[5]) as u32,
                wstrb: hex(i[6]) as u8,
                wvalid: bit(6),
                bready: bit(7),
                araddr: araddr as u16,
                arvalid: bit(8),
                rready: bit(9),
            };
            let of: Vec<bool> = o[1].chars().map(|c| c == '1').collect();
            let resp = |s: &str| u8::from_str_radix(s, 2).unwrap_or(0xFF);
            let mut m_axis_tdata = [0u64; dcqcn_model::DATA_WORDS];
            for (w, word) in m_axis_tdata.iter_mut().take(4).enumerate() {
                let hi = o[2].len() - 16 * w;
                *word = u64::from_str_radix(&o[2][hi - 16..hi], 16).unwrap_or(u64::MAX);
            }
            let outputs = Outputs {
                s_axil_rvalid: of[0],
                s_axil_arready: of[1],
                s_axil_bvalid: of[2],
                s_axil_wready: of[3],
                s_axil_awready: of[4],
                m_axis_tlast: of[5],
                m_axis_tvalid: of[6],
                s_axis_tready: of[7],
                m_axis_tdata,
                m_axis_tkeep: u64::from_str_radix(o[3], 16).unwrap_or(u64::MAX),
                s_axil_rdata: hex(o[4]) as u32,
                s_axil_bresp: resp(o[5]),
                s_axil_rresp: resp(o[6]),
            };
            let bit_known = |c: char| c == '0' || c == '1';
            let hex_known = |t: &str| t.chars().all(|c| c.is_ascii_hexdigit());
            let flags: Vec<char> = o[1].chars().collect();
            let known = [
                bit_known(flags[6]),
                bit_known(flags[7]),
                bit_known(flags[5]),
                hex_known(o[2]),
                hex_known(o[3]),
            ];
            Recorded {
                inputs,
                outputs,
                known,
                text: format!("{}\n{}", pair[0], pair[1]),
            }
        })
        .collect()
}

/// Replays the recorded runs named in `SURF_IO_TRACES` (paths separated by `:`) on the upstream
/// model and compares every output port every cycle (the rate side is observed through the
/// register reads in the stimulus). Run with
/// `SURF_IO_TRACES=a.txt:b.txt cargo test --release -p dcqcn-model --test surf -- --ignored`.
#[test]
#[ignore = "needs recorded upstream runs (SURF_IO_TRACES)"]
fn recorded_upstream_io_replays_bit_exact() {
    let paths = std::env::var("SURF_IO_TRACES").expect("SURF_IO_TRACES names the recorded runs");
    let mut total = 0usize;
    for path in paths.split(':') {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let rec = parse_io(&text);
        assert!(!rec.is_empty(), "{path}: no cycles");
        let mut dut = SurfLimiter::new(SurfParams::default());
        let (mut all_ports, mut unknown, mut first_stream_diff) = (0usize, 0usize, None);
        for (k, r) in rec.iter().enumerate() {
            let got = dut.step(&r.inputs);
            assert_eq!(
                axil_of(&got),
                axil_of(&r.outputs),
                "{path}: cycle {k}: the AXI4-Lite ports differ\n{}\nprobe after: {:?}",
                r.text,
                dut.probe()
            );
            unknown += usize::from(r.known.contains(&false));
            if matches(&got, r) {
                all_ports += 1;
            } else if first_stream_diff.is_none() {
                first_stream_diff = Some((k, got, r.text.clone()));
            }
        }
        println!(
            "{path}: {} cycles; AXI4-Lite ports match in all, every port in {all_ports} \
             ({unknown} cycles with an unknown (X/U) stream output, compared where known)",
            rec.len()
        );
        total += rec.len();
        if let Some((k, got, text)) = first_stream_diff {
            panic!("{path}: cycle {k}: the stream ports differ\n{text}\nmodel: {got:?}");
        }
    }
    println!("{total} cycles match");
}

// ------------------------------------------------------------------------------------------------
// Data path: the same frames through both models
// ------------------------------------------------------------------------------------------------

/// A model's full port step.
trait Ports {
    fn step_all(&mut self, i: &Inputs) -> Outputs;
}

impl Ports for SurfLimiter {
    fn step_all(&mut self, i: &Inputs) -> Outputs {
        self.step(i)
    }
}

impl Ports for RateLimiter {
    fn step_all(&mut self, i: &Inputs) -> Outputs {
        self.step(i)
    }
}

/// Egress of one run: for each frame, the cycle of its first and of its last output beat, and the
/// bytes that left.
struct Egress {
    first: Vec<u64>,
    last: Vec<u64>,
    bytes: u64,
}

/// Offers `frames` (sizes in bytes, 32-byte beats, always valid from cycle `start`) after a reset
/// in cycles 0..8; `ready(cycle)` drives m_axis_tready. The beat's first data word carries the
/// frame index, checked on the way out.
fn send_frames<D: Ports>(
    dut: &mut D,
    frames: &[u32],
    start: u64,
    cycles: u64,
    ready: impl Fn(u64) -> bool,
) -> Egress {
    let (mut f, mut b) = (0usize, 0u32);
    let mut out = Egress {
        first: Vec::new(),
        last: Vec::new(),
        bytes: 0,
    };
    let mut in_frame = false;
    for t in 0..cycles {
        let mut i = Inputs {
            rst: t < 8,
            m_axis_tready: ready(t),
            ..Inputs::default()
        };
        if t >= start && f < frames.len() {
            let beats = frames[f].div_ceil(32);
            let last = b + 1 == beats;
            let n = if last { frames[f] - 32 * b } else { 32 };
            i.s_axis.tvalid = true;
            i.s_axis.tlast = last;
            i.s_axis.tkeep = (1u64 << n) - 1;
            i.s_axis.tdata[0] = f as u64;
        }
        let o = dut.step_all(&i);
        if i.s_axis.tvalid && o.s_axis_tready {
            b += 1;
            if i.s_axis.tlast {
                (f, b) = (f + 1, 0);
            }
        }
        if o.m_axis_tvalid && i.m_axis_tready {
            let k = out.last.len();
            assert_eq!(o.m_axis_tdata[0], k as u64, "frames leave in order, whole");
            if !in_frame {
                out.first.push(t);
                in_frame = true;
            }
            out.bytes += u64::from(o.m_axis_tkeep.count_ones());
            if o.m_axis_tlast {
                out.last.push(t);
                in_frame = false;
            }
        }
    }
    out
}

fn surf_wrapper() -> SurfLimiter {
    SurfLimiter::new(SurfParams::default())
}

fn ours_32() -> RateLimiter {
    RateLimiter::new(Params::with_data_bytes(32).unwrap())
}

#[test]
fn defect_first_frame_after_reset_is_free() {
    // Three 4096 B frames from cycle 19 (the facts' bench): tokens accrue at 8 B/clk from reset.
    let frames = [4096u32; 3];
    let up = send_frames(&mut surf_wrapper(), &frames, 19, 2000, |_| true);
    let ours = send_frames(&mut ours_32(), &frames, 19, 2000, |_| true);
    assert_eq!(up.last.len(), 3);
    assert_eq!(
        up.first[0], 159,
        "upstream frame 1 egresses at 159, uncharged"
    );
    assert_eq!(up.last[0], 159 + 127);
    // Ours charges the first frame too: its last byte leaves once 4096 B of credit accrued.
    assert!(ours.last[0] >= 8 + 4096 / 8, "ours: {:?}", ours.last);
    println!(
        "3 x 4096 B after reset: frames start at {:?} and end at {:?} upstream (frame 1 free), \
         start at {:?} and end at {:?} ours",
        up.first, up.last, ours.first, ours.last
    );
}

#[test]
fn defect_size_fifo_overflow_charges_wrong_sizes() {
    // The facts' b4: 100 x 64 B then 20 x 1024 B back to back.
    let frames: Vec<u32> = std::iter::repeat_n(64, 100)
        .chain(std::iter::repeat_n(1024, 20))
        .collect();
    let total: u64 = frames.iter().map(|&s| u64::from(s)).sum();
    let up = send_frames(&mut surf_wrapper(), &frames, 19, 12_000, |_| true);
    let ours = send_frames(&mut ours_32(), &frames, 19, 12_000, |_| true);
    assert_eq!((up.bytes, ours.bytes), (total, total), "every byte leaves");
    // Time for the 100 small frames: at 8 B/clk 6400 B take 800 cycles.
    let small_up = up.last[99] - up.first[1];
    let small_ours = ours.last[99] - ours.first[1];
    assert!(
        small_up > small_ours + 500,
        "upstream charges 64 B frames 1024 B"
    );
    println!(
        "b4 (100 x 64 B, 20 x 1024 B): the 64 B frames 2..100 take {small_up} cycles upstream, \
         {small_ours} ours; all {total} B out at cycle {} upstream, {} ours",
        up.last[119], ours.last[119]
    );
}

#[test]
fn defect_store_and_forward_latency() {
    // One 32 B frame offered long after reset (bucket full): cycles from its beat to egress.
    let up = send_frames(&mut surf_wrapper(), &[32, 32], 3000, 4000, |_| true);
    let ours = send_frames(&mut ours_32(), &[32, 32], 3000, 4000, |_| true);
    let (lu, lo) = (up.first[0] - 3000, ours.first[0] - 3000);
    assert!(
        lu >= 13,
        "upstream: at least 13 cycles through the FIFO: {lu}"
    );
    assert!(lo <= 2, "ours: one output register: {lo}");
    println!("latency of a single beat frame with a full bucket: upstream {lu} cycles, ours {lo}");
}

/// `SurfLimiter::set_config` (how `dcqcn net` starts an upstream sender configured) leaves the
/// block as AXI4-Lite writes of the same words do: the configuration registers equal, then the
/// same CNPs and the same stream give the same outputs and registers in every cycle.
#[test]
fn set_config_equals_the_bus_writes() {
    use dcqcn_model::{AxisIn, Config};
    use dcqcn_surf::model::SurfConfig;
    // Every field away from its reset value, bypass off (it would hide the rate side).
    let ours = Config {
        alpha_g: 1000,
        dec_gain: 2,
        stage_threshold: 3,
        clamp_tgt: true,
        rai: 40_000_000,
        rhai: 90_000_000,
        rmin: 20_000_000,
        inc_interval: 700,
        dec_interval: 9,
        alpha_interval: 300,
        ..Config::reset(&Params::DEFAULT)
    };
    let c = SurfConfig::from_ours(&ours).unwrap();
    let mut bus = Bench::new();
    bus.cfg(0x000, word0(1000, 2, 3, true));
    bus.cfg(0x004, 40_000_000);
    bus.cfg(0x008, 90_000_000);
    bus.cfg(0x00C, 20_000_000);
    bus.cfg(0x010, 700);
    bus.cfg(0x014, word14(9, 300));
    let mut direct = SurfLimiter::new(SurfParams::default());
    direct.set_config(&c);
    for _ in 0..bus.cycle {
        direct.step(&Inputs::default());
    }
    let (a, b) = (&direct.rate().regs, &bus.dut.rate().regs);
    assert_eq!(
        (
            a.alpha_g,
            a.dec_gain,
            a.threshold,
            a.clamp_tgt_rate,
            a.rai,
            a.rhai,
            a.rmin
        ),
        (
            b.alpha_g,
            b.dec_gain,
            b.threshold,
            b.clamp_tgt_rate,
            b.rai,
            b.rhai,
            b.rmin
        )
    );
    assert_eq!(
        (a.inc_interval, a.dec_interval, a.alpha_interval, a.bypass),
        (b.inc_interval, b.dec_interval, b.alpha_interval, b.bypass)
    );
    // Frames of 5 beats offered back to back, a CNP every 3000 cycles.
    let mut beat = 0;
    for k in 0..20_000u64 {
        let last = beat == 4;
        let i = Inputs {
            cnp: k % 3000 == 10,
            s_axis: AxisIn {
                tkeep: u64::from(u32::MAX),
                tvalid: true,
                tlast: last,
                ..AxisIn::default()
            },
            m_axis_tready: k % 7 != 0,
            ..Inputs::default()
        };
        let (x, y) = (direct.step(&i), bus.dut.step(&i));
        assert_eq!(x, y, "outputs differ in cycle {k} after configuration");
        assert_eq!(
            direct.probe(),
            bus.dut.probe(),
            "registers differ in cycle {k}"
        );
        if x.s_axis_tready {
            beat = if last { 0 } else { beat + 1 };
        }
    }
    assert!(direct.probe().rc < L, "the CNPs must have cut Rc");
}

/// Our fields upstream has no register for are refused unless they hold what upstream does.
#[test]
fn our_fields_without_an_upstream_register_are_refused() {
    use dcqcn_model::Config;
    use dcqcn_surf::model::SurfConfig;
    let base = Config::paper_table2(&Params::DEFAULT);
    assert!(SurfConfig::from_ours(&base).is_ok());
    for (cfg, field) in [
        (
            Config {
                timer_en: false,
                ..base
            },
            "timer_en",
        ),
        (
            Config {
                byte_en: true,
                ..base
            },
            "byte_en",
        ),
        (
            Config {
                credit_cap: 1 << 19,
                ..base
            },
            "credit_cap",
        ),
        (
            Config {
                rmax: 1_000_000_000,
                ..base
            },
            "rmax",
        ),
        (
            Config {
                rate_first_cnp: 1,
                ..base
            },
            "rate_first_cnp",
        ),
        (
            Config {
                alpha_init: 512,
                ..base
            },
            "alpha_init",
        ),
        (
            Config {
                min_dec_fac: 512,
                ..base
            },
            "min_dec_fac",
        ),
        (
            Config {
                hai_mult: true,
                ..base
            },
            "hai_mult",
        ),
        (Config { scheme: 2, ..base }, "scheme"),
        (
            Config {
                gate_mask: true,
                ..base
            },
            "gate_mask",
        ),
        (Config { fw_rate: 1, ..base }, "fw_rate"),
    ] {
        assert_eq!(SurfConfig::from_ours(&cfg).unwrap_err().field, field);
    }
}
