//! The bench every file of this test drives: the device under test through its ports (the
//! upstream model or ours), cycle counting, probe history, scheduled CNP pulses, bus transfers.

use std::collections::BTreeSet;

use dcqcn_model::{AxilIn, Inputs, Outputs, Params, RateLimiter};
use dcqcn_surf::model::{AxilOut, SurfLimiter, SurfParams, SurfProbe, SurfRate};

pub const L: u32 = 1_250_000_000;
pub const HALVED: u32 = 625_610_352;
pub const NA_RESET: u32 = 8594;

/// A model driven through the ports: the upstream one or ours.
pub trait Dut {
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

pub fn axil_of(o: &Outputs) -> AxilOut {
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
pub struct Bench<D: Dut = SurfLimiter> {
    pub dut: D,
    /// Index of the next cycle to step.
    pub cycle: u64,
    /// `hist[k]`: register values during cycle k.
    pub hist: Vec<SurfProbe>,
    /// Cycles whose `cnp` pin is high.
    pub pins: BTreeSet<u64>,
}

impl Bench<SurfLimiter> {
    /// The upstream wrapper.
    pub fn new() -> Bench<SurfLimiter> {
        Bench::with(SurfLimiter::new(SurfParams::default()))
    }
}

impl Bench<RateLimiter> {
    /// Our block, 32-byte beats like the upstream wrapper.
    pub fn ours() -> Bench<RateLimiter> {
        Bench::with(RateLimiter::new(Params::with_data_bytes(32).unwrap()))
    }
}

impl<D: Dut> Bench<D> {
    pub fn with(dut: D) -> Bench<D> {
        Bench {
            hist: vec![dut.probe_regs()],
            dut,
            cycle: 0,
            pins: BTreeSet::new(),
        }
    }

    pub fn step(&mut self, i: &Inputs) -> AxilOut {
        let cnp = i.cnp || self.pins.contains(&self.cycle);
        let out = self.dut.step_ports(&Inputs { cnp, ..*i });
        self.cycle += 1;
        self.hist.push(self.dut.probe_regs());
        out
    }

    pub fn idle(&mut self, n: u64) {
        for _ in 0..n {
            self.step(&Inputs::default());
        }
    }

    pub fn run_to(&mut self, cycle: u64) {
        assert!(
            cycle >= self.cycle,
            "cycle {cycle} is past ({})",
            self.cycle
        );
        self.idle(cycle - self.cycle);
    }

    /// A one-cycle `cnp` pulse at cycle `c`.
    pub fn pulse(&mut self, c: u64) {
        assert!(c >= self.cycle, "pulse at {c} is past ({})", self.cycle);
        self.pins.insert(c);
    }

    /// Register values during cycle `k`.
    pub fn at(&self, k: u64) -> SurfProbe {
        self.hist[k as usize]
    }

    /// A write with strobes `strb`; returns (BRESP, the cycle AWREADY was high: the field holds the
    /// new value from that cycle on).
    pub fn write_strb(&mut self, addr: u16, data: u32, strb: u8) -> (u8, u64) {
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

    pub fn write(&mut self, addr: u16, data: u32) -> u8 {
        self.write_strb(addr, data, 0xF).0
    }

    /// A read; returns (RDATA, RRESP, the cycle whose register values it returns).
    pub fn read_at(&mut self, addr: u16) -> (u32, u8, u64) {
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

    pub fn read(&mut self, addr: u16) -> u32 {
        let (d, resp, _) = self.read_at(addr);
        assert_eq!(resp, 0, "read of {addr:#x}");
        d
    }

    pub fn cfg(&mut self, addr: u16, data: u32) {
        assert_eq!(self.write(addr, data), 0, "write of {addr:#x}");
    }

    /// Cycles in `from..to` during which `f` differs from the cycle before, with the new value.
    pub fn changes(&self, from: u64, to: u64, f: impl Fn(&SurfProbe) -> u32) -> Vec<(u64, u32)> {
        (from.max(1)..to)
            .filter(|&k| f(&self.at(k)) != f(&self.at(k - 1)))
            .map(|k| (k, f(&self.at(k))))
            .collect()
    }
}

/// Word 0x000 from its fields.
pub fn word0(g: u32, dec_gain: u32, t: u32, clamp: bool) -> u32 {
    g | (dec_gain << 10) | (t << 14) | (u32::from(clamp) << 22)
}

/// Word 0x014 from Nd and Na.
pub fn word14(nd: u32, na: u32) -> u32 {
    (na << 16) | nd
}

pub fn rc(p: &SurfProbe) -> u32 {
    p.rc
}
pub fn rt(p: &SurfProbe) -> u32 {
    p.rt
}
pub fn alpha(p: &SurfProbe) -> u32 {
    u32::from(p.alpha)
}
pub fn cnt(p: &SurfProbe) -> u32 {
    u32::from(p.cnp_cnt)
}

/// One decrease as upstream computes it (facts 3).
pub fn decreased(rc: u32, alpha: u32, dec_gain: u32) -> u32 {
    rc - ((u64::from(rc) * u64::from(alpha)) >> (dec_gain + 10)) as u32
}
