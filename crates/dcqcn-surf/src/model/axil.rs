//! The upstream AXI4-Lite slave: the wrapper's flat-port shim and the block's register endpoint.
//!
//! **Shim.** The wrapper converts its flat ports with the base library's IP-integrator shim, built
//! with error responses enabled and *without* the strobe port: the write strobes reaching the block
//! are always `0xF`, whatever `WSTRB` is (so a partial-strobe write at the wrapper writes every field
//! of the word). `AWPROT`/`ARPROT` are dropped. Responses pass through unchanged.
//!
//! **Endpoint.** The block's response registers (`awready`, `wready`, `bvalid`, `bresp`,
//! `arready`, `rvalid`, `rdata`, `rresp`) are registers of the block's own record, so the ports show
//! them one cycle after the combinational decision. Per cycle, on the registers `ws`/`rs`:
//!
//! - write: `bready` clears `bvalid`; if `awready & wready` were set (the cycle after an
//!   acceptance) `bvalid` rises, else a write is taken when `awvalid & wvalid & !bvalid` (after the
//!   clear); `awready`/`wready` fall.
//! - read: if `arready` was set `rvalid` rises, else `rready` clears `rvalid` and `rdata`, and a read
//!   is taken when `arvalid & !rvalid` (after the clear); `arready` falls.
//! - each field is then decoded on address bits `[11:2]` (higher bits alias): a taken read whose
//!   address matches copies the field into its bits of `rdata` (other bits keep their value) and
//!   sets `arready`, `rvalid = 0`, `rresp = OKAY`; a taken write whose address matches *and* whose
//!   strobes cover every byte of the field loads the field and sets `awready = wready = 1`,
//!   `bvalid = 0`, `bresp = OKAY`.
//! - a read-only field only takes part when a read is taken; then it also answers a taken write to
//!   its address with OKAY (and no effect): a write to a read-only word is DECERR only when no read
//!   is taken in the same cycle.
//! - finally a taken write or read that no field answered gets the same response with DECERR.

use dcqcn_model::AxilIn;

pub const RESP_OKAY: u8 = 0;
pub const RESP_DECERR: u8 = 3;

/// The block's write-response registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteSlave {
    pub awready: bool,
    pub wready: bool,
    pub bresp: u8,
    pub bvalid: bool,
}

/// The block's read-response registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadSlave {
    pub arready: bool,
    pub rdata: u32,
    pub rresp: u8,
    pub rvalid: bool,
}

impl WriteSlave {
    pub const RESET: WriteSlave = WriteSlave {
        awready: false,
        wready: false,
        bresp: RESP_OKAY,
        bvalid: false,
    };
}

impl ReadSlave {
    pub const RESET: ReadSlave = ReadSlave {
        arready: false,
        rdata: 0,
        rresp: RESP_OKAY,
        rvalid: false,
    };
}

/// The bus master as the block sees it, after the shim (32-bit addresses, strobes forced to 0xF).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Master {
    pub awaddr: u32,
    pub awvalid: bool,
    pub wdata: u32,
    pub wstrb: u8,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u32,
    pub arvalid: bool,
    pub rready: bool,
}

/// The wrapper's shim: the port's 16 address bits are the low bits of the 32-bit address; the
/// strobe port does not exist on the shim as instantiated.
#[inline(always)]
pub fn shim(i: &AxilIn) -> Master {
    Master {
        awaddr: u32::from(i.awaddr),
        awvalid: i.awvalid,
        wdata: i.wdata,
        wstrb: 0xF,
        wvalid: i.wvalid,
        bready: i.bready,
        araddr: u32::from(i.araddr),
        arvalid: i.arvalid,
        rready: i.rready,
    }
}

/// One cycle's decode in progress (the response registers' next values and what was taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    pub m: Master,
    pub ws: WriteSlave,
    pub rs: ReadSlave,
    pub write_enable: bool,
    pub read_enable: bool,
}

/// The word address bits the decode compares.
#[inline(always)]
fn word(addr: u32) -> u32 {
    (addr >> 2) & 0x3FF
}

/// Bit mask of a field `width` bits wide (1..=32).
#[inline(always)]
fn mask(width: u32) -> u32 {
    (((1u64) << width) - 1) as u32
}

impl Endpoint {
    /// The start of a cycle's decode: which transactions are taken, from the response registers.
    pub fn wait_txn(m: Master, ws: WriteSlave, rs: ReadSlave) -> Endpoint {
        let (mut ws, mut rs) = (ws, rs);
        let mut write_enable = false;
        if m.bready {
            ws.bvalid = false;
        }
        if ws.awready && ws.wready {
            ws.bvalid = true;
        } else if m.awvalid && m.wvalid && !ws.bvalid {
            write_enable = true;
        }
        ws.awready = false;
        ws.wready = false;

        let mut read_enable = false;
        if rs.arready {
            rs.rvalid = true;
        } else {
            if m.rready {
                rs.rvalid = false;
                rs.rdata = 0;
            }
            if m.arvalid && !rs.rvalid {
                read_enable = true;
            }
        }
        rs.arready = false;
        Endpoint {
            m,
            ws,
            rs,
            write_enable,
            read_enable,
        }
    }

    fn write_response(&mut self, resp: u8) {
        self.ws.awready = true;
        self.ws.wready = true;
        self.ws.bvalid = false;
        self.ws.bresp = resp;
    }

    fn read_response(&mut self, resp: u8) {
        self.rs.arready = true;
        self.rs.rvalid = false;
        self.rs.rresp = resp;
    }

    /// A read-write field of `width` bits at bit `offset` of word `addr`: returns its value after
    /// this cycle's write, if any.
    pub fn register(&mut self, addr: u32, offset: u32, width: u32, reg: u32) -> u32 {
        let m = mask(width);
        let mut reg = reg & m;
        if self.read_enable && word(self.m.araddr) == word(addr) {
            self.rs.rdata = (self.rs.rdata & !(m << offset)) | (reg << offset);
            self.read_response(RESP_OKAY);
        }
        // The strobes must cover every byte lane the field touches.
        let lanes = (offset / 8..=(offset + width - 1) / 8).fold(0u8, |a, l| a | (1 << l));
        if self.write_enable && word(self.m.awaddr) == word(addr) && self.m.wstrb & lanes == lanes {
            reg = (self.m.wdata >> offset) & m;
            self.write_response(RESP_OKAY);
        }
        reg
    }

    /// A read-only field (see the module documentation for its answer to a write).
    pub fn register_r(&mut self, addr: u32, offset: u32, width: u32, value: u32) {
        if self.read_enable {
            self.register(addr, offset, width, value);
        }
    }

    /// Closes the cycle: an unanswered taken transaction gets `resp`. Returns the registers' next
    /// values.
    pub fn close(mut self, resp: u8) -> (WriteSlave, ReadSlave) {
        if self.write_enable && !self.ws.awready {
            self.write_response(resp);
        }
        if self.read_enable && !self.rs.arready {
            self.read_response(resp);
        }
        (self.ws, self.rs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taken_write(addr: u32, data: u32, strb: u8) -> Endpoint {
        let m = Master {
            awaddr: addr,
            awvalid: true,
            wdata: data,
            wstrb: strb,
            wvalid: true,
            bready: true,
            rready: true,
            ..Master::default()
        };
        Endpoint::wait_txn(m, WriteSlave::RESET, ReadSlave::RESET)
    }

    #[test]
    fn a_field_is_written_only_when_the_strobes_cover_it() {
        // Behind the shim the strobes are always 0xF; the endpoint itself checks them.
        let mut ep = taken_write(0x000, 0xFFFF_FFFF, 0x1);
        assert_eq!(
            ep.register(0x000, 0, 10, 0x3FC),
            0x3FC,
            "bits 9:0 need lanes 0 and 1"
        );
        assert_eq!(ep.register(0x000, 22, 1, 0), 0, "bit 22 needs lane 2");
        let (ws, _) = ep.close(RESP_DECERR);
        assert_eq!(ws.bresp, RESP_DECERR);
        let mut ep = taken_write(0x000, 0xFFFF_FFFF, 0x3);
        assert_eq!(ep.register(0x000, 0, 10, 0x3FC), 0x3FF);
        assert_eq!(
            ep.register(0x000, 10, 4, 1),
            0xF,
            "bits 13:10 are in lane 1 only"
        );
        assert_eq!(ep.close(RESP_DECERR).0.bresp, RESP_OKAY);
    }

    #[test]
    fn the_shim_forces_full_strobes() {
        let i = AxilIn {
            wstrb: 0x1,
            ..AxilIn::default()
        };
        assert_eq!(shim(&i).wstrb, 0xF);
    }
}
