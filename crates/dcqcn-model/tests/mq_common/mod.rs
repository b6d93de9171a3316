//! A small testbench for `MqBlock`: cycle numbering as spec-mq 4.3 (the reset cycle is cycle 0),
//! AXI4-Lite accesses that respect the handshake, and named state fields.

#![allow(dead_code)]

use dcqcn_model::mq::obs::state_index;
use dcqcn_model::mq::{MqBlock, MqInputs, MqOutputs, MqParams, QpEvent};

pub struct Tb {
    pub b: MqBlock,
    /// The number of the next cycle `step` runs (the reset cycle is cycle 0).
    pub cycle: u64,
    /// Grants seen: (cycle, qp, bytes).
    pub grants: Vec<(u64, u16, u16)>,
}

pub fn ev(qp: u16, bytes: u16) -> QpEvent {
    QpEvent {
        valid: true,
        qp,
        bytes,
    }
}

impl Tb {
    /// A block of `qps` QPs with reset in cycle 0 (stepped).
    pub fn new(qps: u32) -> Tb {
        let mut tb = Tb {
            b: MqBlock::new(MqParams::with_qps(qps).unwrap()),
            cycle: 0,
            grants: Vec::new(),
        };
        tb.step(MqInputs {
            rst: true,
            ..MqInputs::default()
        });
        tb
    }

    /// A block past its init round: the next cycle is QPS + 1, the first normal visit.
    pub fn ready(qps: u32) -> Tb {
        let mut tb = Tb::new(qps);
        tb.idle(u64::from(qps));
        assert!(!tb.b.state().scan.init);
        tb
    }

    pub fn qps(&self) -> u32 {
        self.b.params().qps()
    }

    pub fn step(&mut self, i: MqInputs) -> MqOutputs {
        let o = self.b.step(&i);
        if o.m_grant_valid {
            self.grants
                .push((self.cycle, o.m_grant_qp, o.m_grant_bytes));
        }
        self.cycle += 1;
        o
    }

    pub fn idle(&mut self, n: u64) {
        for _ in 0..n {
            self.step(MqInputs::default());
        }
    }

    /// Steps idle cycles until `cycle` is the next cycle to run.
    pub fn idle_until(&mut self, cycle: u64) {
        assert!(self.cycle <= cycle, "already at {} > {}", self.cycle, cycle);
        self.idle(cycle - self.cycle);
    }

    /// A state field of S(next cycle) by its obs.rs name.
    pub fn field(&self, name: &str) -> u64 {
        let fields = self.b.state_fields();
        let k = state_index(name).unwrap_or_else(|| panic!("no field {name}"));
        assert_eq!(fields[k].0, name);
        fields[k].1
    }

    /// An AXI4-Lite write: (bresp, cycle the address was accepted, cycle bvalid was seen).
    pub fn write_full(&mut self, addr: u32, data: u32, strb: u8) -> (u8, u64, u64) {
        let mut i = MqInputs::default();
        i.axil.awaddr = addr;
        i.axil.awvalid = true;
        i.axil.wdata = data;
        i.axil.wstrb = strb;
        i.axil.wvalid = true;
        let accepted;
        let mut n = 0;
        loop {
            let c = self.cycle;
            let o = self.step(i);
            if o.s_axil_awready {
                assert!(o.s_axil_wready);
                accepted = c;
                break;
            }
            n += 1;
            assert!(n < 100_000, "write to {addr:#x} never accepted");
        }
        let mut i = MqInputs::default();
        i.axil.bready = true;
        loop {
            let c = self.cycle;
            let o = self.step(i);
            if o.s_axil_bvalid {
                return (o.s_axil_bresp, accepted, c);
            }
            n += 1;
            assert!(n < 100_000, "write to {addr:#x} never answered");
        }
    }

    pub fn write(&mut self, addr: u32, data: u32) -> u8 {
        self.write_full(addr, data, 0xF).0
    }

    /// An AXI4-Lite read: (data, rresp, cycle accepted, cycle rvalid seen).
    pub fn read_full(&mut self, addr: u32) -> (u32, u8, u64, u64) {
        let mut i = MqInputs::default();
        i.axil.araddr = addr;
        i.axil.arvalid = true;
        let accepted;
        let mut n = 0;
        loop {
            let c = self.cycle;
            let o = self.step(i);
            if o.s_axil_arready {
                accepted = c;
                break;
            }
            n += 1;
            assert!(n < 100_000, "read of {addr:#x} never accepted");
        }
        let mut i = MqInputs::default();
        i.axil.rready = true;
        loop {
            let c = self.cycle;
            let o = self.step(i);
            if o.s_axil_rvalid {
                return (o.s_axil_rdata, o.s_axil_rresp, accepted, c);
            }
            n += 1;
            assert!(n < 100_000, "read of {addr:#x} never answered");
        }
    }

    pub fn read(&mut self, addr: u32) -> (u32, u8) {
        let (d, r, _, _) = self.read_full(addr);
        (d, r)
    }

    /// The window address of word offset `off` of QP q.
    pub fn win(q: u32, off: u32) -> u32 {
        0x10_0000 + q * 0x100 + off
    }

    /// The first cycle >= `from` at which QP q is visited (normal visits, spec-mq 4.3).
    pub fn visit_at_or_after(&self, q: u32, from: u64) -> u64 {
        let qps = u64::from(self.qps());
        let base = qps + 1 + u64::from(q);
        if from <= base {
            return base;
        }
        base + (from - base).div_ceil(qps) * qps
    }
}
