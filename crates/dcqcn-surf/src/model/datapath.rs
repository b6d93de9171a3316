//! The datapath of the upstream SURF block (its token bucket with the frame FIFOs), bit-exact and
//! cycle-exact at the ports: `s_axis_tready`, `m_axis_t{valid,data,keep,last}` for the inputs
//! `axisRst`, Rc, `s_axis_*` and `m_axis_tready`, at the upstream wrapper's 32-byte beats.
//!
//! A model written from the upstream VHDL's behaviour (no upstream code here). Its parts, each a
//! state struct with its reset, the combinational values of a cycle and the clock edge, as in
//! `block.rs`:
//!
//! - [`TokenCalc`]: `byte_per_clk` (Q16.16) = `(Rc * K) >> 32`, `K = round(2^48 / f_clk)`,
//!   through two registers (the product, then the shift) that no reset touches.
//! - [`Ingress`]: the store-and-forward data FIFO's write side and its read side up to the
//!   output register: a 4096-entry block RAM with a one-cycle read latch and an output register
//!   (first-word fall-through, so a beat written in cycle t is valid at the RAM output in t + 3),
//!   pointer registers whose occupancy count keeps the latched entry until it reaches the output
//!   register, `s_axis_tready` = not almost-full (count >= 4094, registered; also low in the first
//!   cycle after reset), and the frame gate: a 4096-entry end-of-frame FIFO (distributed RAM, so
//!   valid two cycles after a write) and an in-frame flag that lets the data out only while a whole
//!   frame is inside (or the data FIFO is almost full), cleared for a cycle after each frame's
//!   last beat is read.
//! - [`Pipeline`]: the 8-stage output pipeline (ten cells with a skid cell and a registered
//!   ready), between the data FIFO and the bucket.
//! - [`FrameMon`]: the per-frame byte count at the FIFO input (tkeep popcount of accepted beats,
//!   one cycle late), which reports every frame but the first after reset, three cycles after the
//!   frame's last beat, into [`SizeFifo`]: 64 entries of 32 bits, first-word fall-through, that
//!   drops writes while full (63 counted entries) and whose output register keeps the last value
//!   read (stale when the FIFO is empty; reads of an empty FIFO are ignored).
//! - [`Bucket`]: the Q32.16 token count (`min(count + bpc, CAP) - admitted size << 16`, CAP
//!   1 MiB, 0 after reset) and the admission state machine: in IDLE the head frame is admitted
//!   when the pipeline's output beat is valid and `count >= size << 16` (the size FIFO's output),
//!   which charges the size and pops the size FIFO; the first frame after reset goes through
//!   uncharged; a frame of B beats then takes B + 2 cycles, its first beat on the port two cycles
//!   after admission, one beat per cycle while `m_axis_tready` is high.
//!
//! Reset (`axisRst`, synchronous, active high) clears the pointer, flag and state registers; the
//! RAMs, the RAM latches and output registers, the token calculator and the frame monitor's
//! update register keep their values, as upstream. Registers upstream powers up undefined ('U' in
//! simulation): the token calculator's are modelled as undefined until loaded (a bucket that
//! counts while `byte_per_clk` is still undefined, i.e. reset released before cycle 2, jumps to
//! the cap, as upstream simulates; an FPGA's registers would power up 0 instead); the FIFO output
//! registers are 0 here, visible only on the data ports while `m_axis_tvalid` is low.

use super::SurfParams;
use dcqcn_model::AxisIn;

/// Bytes of a beat at the upstream wrapper's stream width.
pub const BEAT_BYTES: u32 = 32;
/// Data FIFO depth (entries of one beat).
pub const DATA_FIFO_DEPTH: usize = 4096;
/// Size FIFO depth.
pub const SIZE_FIFO_DEPTH: usize = 64;
/// Bucket capacity, Q32.16 (1 MiB).
pub const BUCKET_CAP: u64 = 0x0010_0000 << 16;
/// Cells of the output pipeline (eight stages, a skid cell and the output cell).
const PIPE_CELLS: usize = 10;

/// `K = round(2^48 / f_clk)`: Q16.16 bytes per clock from bytes per second is `(Rc * K) >> 32`.
pub fn token_k(clk_freq_hz: u32) -> u32 {
    let f = u64::from(clk_freq_hz.max(1));
    (((1u64 << 48) + f / 2) / f) as u32
}

/// One beat as the FIFO stores it: 256 data bits, 32 keep bits, last.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Beat {
    pub data: [u64; 4],
    pub keep: u32,
    pub last: bool,
}

impl Beat {
    /// A stream's idle bus (valid low): data 0, all 32 keep bits set, last low.
    pub const IDLE: Beat = Beat {
        data: [0; 4],
        keep: u32::MAX,
        last: false,
    };

    /// The beat on the slave port (low four words, low 32 keep bits).
    fn of(s: &AxisIn) -> Beat {
        Beat {
            data: [s.tdata[0], s.tdata[1], s.tdata[2], s.tdata[3]],
            keep: s.tkeep as u32,
            last: s.tlast,
        }
    }
}

/// Q16.16 bytes per clock of Rc: two registers, no reset, undefined until first loaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TokenCalc {
    /// `Rc * K`, loaded every edge.
    pub product: u64,
    /// `product >> 32`, loaded every edge: the bucket's increment.
    pub bpc: u32,
    /// The registers hold a value (false at power-up: upstream's simulation shows 'X', and the
    /// bucket's cap comparison with it is false, so a bucket counting then jumps to the cap).
    pub product_defined: bool,
    pub bpc_defined: bool,
}

impl TokenCalc {
    /// The clock edge (every cycle, reset or not).
    #[inline(always)]
    pub fn next(&mut self, rc: u32, k: u32) {
        self.bpc = (self.product >> 32) as u32;
        self.bpc_defined = self.product_defined;
        self.product = u64::from(rc) * u64::from(k);
        self.product_defined = true;
    }
}

/// Pointer registers of one synchronous first-word-fall-through FIFO: the write side (occupancy,
/// full, almost full) and the read side (one RAM read stage for block RAM, none for distributed
/// RAM, then the output register's valid). `BITS` is the address width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FifoPtrs<const BITS: u32> {
    /// Last written address.
    pub wr_addr: u32,
    /// Occupancy as the write side counts it (power-up and reset: all ones, "full").
    pub wr_count: u32,
    pub full: bool,
    pub almost_full: bool,
    /// Last address read from the RAM.
    pub rd_addr: u32,
    /// Entries in the RAM the read side has not fetched.
    pub rd_count: u32,
    pub empty: bool,
    /// A RAM read is in the latch (block RAM only).
    pub latched: bool,
    /// The output register holds an entry: the FIFO's `valid`.
    pub valid: bool,
}

/// What one FIFO cycle does to the RAM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FifoStrobes {
    /// Write `din` at `wr_at`.
    pub write: bool,
    pub wr_at: u32,
    /// Read `rd_at` into the latch (block) or the output register (distributed).
    pub fetch: bool,
    pub rd_at: u32,
    /// Move the latch into the output register (block only).
    pub load: bool,
}

impl<const BITS: u32> FifoPtrs<BITS> {
    const MASK: u32 = (1 << BITS) - 1;

    /// The registers after reset (and at power-up).
    pub const RESET: Self = FifoPtrs {
        wr_addr: 0,
        wr_count: (1 << BITS) - 1,
        full: true,
        almost_full: true,
        rd_addr: 0,
        rd_count: 0,
        empty: true,
        latched: false,
        valid: false,
    };

    /// One cycle with `wr_en` and `rd_en` (`block`: block RAM with its read latch), the clock edge
    /// included: the RAM strobes of the cycle, the pointers after the edge (reset if `rst`).
    #[inline(always)]
    pub fn step(&mut self, rst: bool, block: bool, wr_en: bool, rd_en: bool) -> FifoStrobes {
        let r = *self;
        let mut st = FifoStrobes::default();
        // Write side.
        let write = wr_en && !r.full;
        let wr_addr = if write {
            (r.wr_addr + 1) & Self::MASK
        } else {
            r.wr_addr
        };
        st.write = write;
        st.wr_at = wr_addr;
        // Read side.
        let mut valid = r.valid && !rd_en;
        let mut latched = r.latched;
        let mut rd_addr = r.rd_addr;
        if block {
            if !valid && r.latched {
                st.load = true;
                valid = true;
                latched = false;
            }
            if !latched && !r.empty {
                st.fetch = true;
                latched = true;
                rd_addr = (r.rd_addr + 1) & Self::MASK;
            }
        } else if !valid && !r.empty {
            st.fetch = true;
            valid = true;
            rd_addr = (r.rd_addr + 1) & Self::MASK;
        }
        st.rd_at = rd_addr;
        let rd_count = wr_addr.wrapping_sub(rd_addr) & Self::MASK;
        // The latched entry still occupies its RAM word.
        let rd_index = if latched {
            rd_addr.wrapping_sub(1) & Self::MASK
        } else {
            rd_addr
        };
        let wr_count = wr_addr.wrapping_sub(rd_index) & Self::MASK;
        *self = if rst {
            Self::RESET
        } else {
            FifoPtrs {
                wr_addr,
                wr_count,
                full: wr_count == Self::MASK,
                almost_full: wr_count >= Self::MASK - 1,
                rd_addr,
                rd_count,
                empty: rd_count == 0,
                latched,
                valid,
            }
        };
        st
    }

    /// Entries held: in the RAM (including a latched one) and in the output register.
    pub fn len(&self) -> u32 {
        self.rd_count + u32::from(self.latched) + u32::from(self.valid)
    }

    /// Whether the FIFO holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The data FIFO with its frame gate (store and forward): everything between `s_axis` and the
/// output pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ingress {
    pub ptrs: FifoPtrs<12>,
    /// The RAM (not reset).
    pub ram: Vec<Beat>,
    /// RAM read latch (not reset).
    pub latch: Beat,
    /// Output register (not reset): the FIFO's data output.
    pub dout: Beat,
    /// The end-of-frame FIFO's pointers (one entry per frame written; data unused).
    pub lasts: FifoPtrs<12>,
    /// A whole frame (or an almost full FIFO) is inside: the output may be valid.
    pub in_frame: bool,
}

/// The ingress's combinational values of a cycle (all from registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IngressOut {
    pub s_tready: bool,
    /// Output beat valid for the pipeline.
    pub valid: bool,
}

impl Ingress {
    pub fn new() -> Ingress {
        Ingress {
            ptrs: FifoPtrs::RESET,
            ram: vec![Beat::default(); DATA_FIFO_DEPTH],
            latch: Beat::default(),
            dout: Beat::default(),
            lasts: FifoPtrs::RESET,
            in_frame: false,
        }
    }

    #[inline(always)]
    pub fn comb(&self) -> IngressOut {
        IngressOut {
            s_tready: !self.ptrs.almost_full,
            valid: self.ptrs.valid && self.in_frame,
        }
    }

    /// The clock edge: `s` offered on the slave port, `take` = the pipeline reads the output beat.
    #[inline(always)]
    pub fn next(&mut self, rst: bool, s: &AxisIn, o: &IngressOut, take: bool) {
        let write = s.tvalid && o.s_tready;
        let read = take && o.valid;
        let read_last = read && self.dout.last;
        let valid_int = self.ptrs.valid;
        let last_valid = self.lasts.valid;
        let almost_full = self.ptrs.almost_full;
        let st = self.ptrs.step(rst, true, write, read);
        if st.load {
            self.dout = self.latch;
        }
        if st.fetch {
            self.latch = self.ram[st.rd_at as usize];
        }
        if st.write {
            self.ram[st.wr_at as usize] = Beat::of(s);
        }
        self.lasts.step(rst, false, write && s.tlast, read_last);
        self.in_frame = if rst || read_last || !valid_int {
            false
        } else {
            self.in_frame || last_valid || almost_full
        };
    }
}

impl Default for Ingress {
    fn default() -> Self {
        Ingress::new()
    }
}

/// One cell of the output pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub valid: bool,
    pub beat: Beat,
}

impl Cell {
    const IDLE: Cell = Cell {
        valid: false,
        beat: Beat::IDLE,
    };
}

/// The data FIFO's 8-stage output pipeline: cells 1..=9 shift towards the output cell 9 when it
/// is empty or taken, cell 0 is a skid cell for the beat that arrives while the shift stops, and
/// the ready to the FIFO is a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pipeline {
    pub cells: [Cell; PIPE_CELLS],
    /// Ready to the data FIFO (registered).
    pub ready: bool,
}

impl Pipeline {
    pub const RESET: Pipeline = Pipeline {
        cells: [Cell::IDLE; PIPE_CELLS],
        ready: false,
    };

    /// The output cell.
    #[inline(always)]
    pub fn out(&self) -> &Cell {
        &self.cells[PIPE_CELLS - 1]
    }

    /// The clock edge: the FIFO's output (`in_valid`, `input`) is captured when `ready` was
    /// high, valid or not; `m_ready` is the bucket's ready. In place, cells from the top down.
    #[inline(always)]
    pub fn next(&mut self, rst: bool, in_valid: bool, input: &Beat, m_ready: bool) {
        if rst {
            *self = Pipeline::RESET;
            return;
        }
        const TOP: usize = PIPE_CELLS - 1;
        let was_ready = self.ready;
        let skid_valid = self.cells[0].valid;
        if !self.cells[TOP].valid || m_ready {
            for i in (2..=TOP).rev() {
                self.cells[i] = self.cells[i - 1];
            }
            if !skid_valid {
                self.ready = true;
                if was_ready {
                    self.cells[1] = Cell {
                        valid: in_valid,
                        beat: *input,
                    };
                } else {
                    self.cells[1].valid = false;
                }
            } else {
                self.cells[1] = self.cells[0];
                if was_ready {
                    self.ready = false;
                    self.cells[0] = Cell {
                        valid: in_valid,
                        beat: *input,
                    };
                } else {
                    self.ready = true;
                    self.cells[0].valid = false;
                }
            }
        } else {
            // The output cell holds: fill the skid cell, close one gap per cell (decided on the
            // valid bits before the edge).
            let valid: [bool; PIPE_CELLS] = core::array::from_fn(|i| self.cells[i].valid);
            self.ready = false;
            if was_ready {
                self.cells[0] = Cell {
                    valid: in_valid,
                    beat: *input,
                };
            } else if !skid_valid {
                self.ready = true;
            }
            for i in (1..TOP).rev() {
                if !valid[i] && valid[i - 1] {
                    self.cells[i] = self.cells[i - 1];
                    self.cells[i - 1].valid = false;
                }
            }
        }
    }

    /// Valid beats held.
    pub fn beats(&self) -> u32 {
        self.cells.iter().filter(|c| c.valid).count() as u32
    }
}

/// Per-frame byte count at the FIFO input and its report into the size FIFO.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameMon {
    /// A beat was accepted last cycle, with `bytes` bytes.
    pub beat: bool,
    pub bytes: u32,
    /// The accepted beat was a frame's last.
    pub sent: bool,
    /// Bytes of the frame so far (32 bits, wraps).
    pub accum: u32,
    /// A frame has ended since reset: the next sizes are reported.
    pub armed: bool,
    /// Report the size (the strobe and the size register).
    pub update: bool,
    pub size: u32,
    /// The strobe one register later, as the size FIFO's write enable (no reset).
    pub update_q: bool,
    /// The size one register later (the min/max unit's copy), the size FIFO's data (no reset
    /// that can be observed).
    pub size_q: u32,
}

impl FrameMon {
    /// The clock edge: `accepted` = a beat moved on the slave port with `keep` and `last`.
    #[inline(always)]
    pub fn next(&mut self, rst: bool, accepted: bool, keep: u32, last: bool) {
        let r = *self;
        self.update_q = r.update;
        if r.update {
            self.size_q = r.size;
        }
        self.update = false;
        self.sent = accepted && last;
        self.beat = accepted;
        if accepted {
            self.bytes = keep.count_ones();
        }
        if r.beat {
            self.accum = r.accum.wrapping_add(r.bytes);
            if r.sent {
                self.update = r.armed;
                self.size = self.accum;
                self.accum = 0;
                self.armed = true;
            }
        }
        if rst {
            *self = FrameMon {
                update_q: self.update_q,
                size_q: self.size_q,
                ..FrameMon::default()
            };
        }
    }
}

/// The frame-size FIFO: 64 x 32 bits, block RAM, first-word fall-through; the output register
/// keeps its value when empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeFifo {
    pub ptrs: FifoPtrs<6>,
    pub ram: [u32; SIZE_FIFO_DEPTH],
    pub latch: u32,
    /// The output: the head frame's size, or a stale one.
    pub dout: u32,
}

impl SizeFifo {
    pub const RESET: SizeFifo = SizeFifo {
        ptrs: FifoPtrs::RESET,
        ram: [0; SIZE_FIFO_DEPTH],
        latch: 0,
        dout: 0,
    };

    /// The clock edge.
    #[inline(always)]
    pub fn next(&mut self, rst: bool, wr_en: bool, din: u32, rd_en: bool) {
        let st = self.ptrs.step(rst, true, wr_en, rd_en);
        if st.load {
            self.dout = self.latch;
        }
        if st.fetch {
            self.latch = self.ram[st.rd_at as usize];
        }
        if st.write {
            self.ram[st.wr_at as usize] = din;
        }
    }
}

/// The token count and the per-frame admission state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    /// READ (streaming a frame) rather than IDLE.
    pub reading: bool,
    /// A frame has passed since reset: admission checks tokens.
    pub armed: bool,
    /// Tokens, Q32.16 bytes.
    pub count: u64,
    /// The frame's last beat is on the output: back to IDLE once it is taken.
    pub go_idle: bool,
    /// The output register.
    pub m_valid: bool,
    pub m: Beat,
}

/// The bucket's combinational outputs of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketOut {
    /// Ready to the pipeline.
    pub s_ready: bool,
    /// Admission: charge the head size, pop the size FIFO.
    pub admit: bool,
}

impl Bucket {
    pub const RESET: Bucket = Bucket {
        reading: false,
        armed: false,
        count: 0,
        go_idle: false,
        m_valid: false,
        m: Beat::IDLE,
    };

    /// Combinational outputs and the next registers: `s` the pipeline's output cell, `size` the
    /// size FIFO's output, `bpc` the token increment (`None`: undefined, see [`TokenCalc`]),
    /// `m_ready` the master port's ready.
    #[inline(always)]
    pub fn step(
        &mut self,
        rst: bool,
        s: &Cell,
        size: u32,
        bpc: Option<u32>,
        m_ready: bool,
    ) -> BucketOut {
        let r = *self;
        let need = u64::from(size) << 16;
        let mut o = BucketOut {
            s_ready: false,
            admit: false,
        };
        if m_ready {
            self.m_valid = false;
            if r.go_idle {
                self.go_idle = false;
                self.reading = false;
            }
        }
        if !r.reading {
            self.m_valid = false;
            self.m = Beat::IDLE;
            if s.valid && r.count >= need {
                o.admit = true;
                self.reading = true;
            }
            if !r.armed {
                self.reading = true;
            }
        } else if !self.m_valid && !r.go_idle {
            self.m_valid = s.valid;
            self.m = s.beat;
            o.s_ready = true;
            if s.valid && s.beat.last {
                self.armed = true;
                self.go_idle = true;
            }
        }
        self.count = match bpc {
            Some(bpc) if BUCKET_CAP.wrapping_sub(r.count) & 0xFFFF_FFFF_FFFF > u64::from(bpc) => {
                (r.count + u64::from(bpc)) & 0xFFFF_FFFF_FFFF
            }
            _ => BUCKET_CAP,
        };
        if o.admit {
            self.count = self.count.wrapping_sub(need) & 0xFFFF_FFFF_FFFF;
        }
        if rst {
            *self = Bucket::RESET;
        }
        o
    }
}

/// The datapath's port outputs of one cycle (sampled before the edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatapathOut {
    pub s_axis_tready: bool,
    pub m_axis_tvalid: bool,
    pub m_axis_tdata: [u64; 4],
    pub m_axis_tkeep: u32,
    pub m_axis_tlast: bool,
}

/// What the last step did inside (for tests and reports; not upstream state).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepEvents {
    /// The bucket admitted the head frame, charging `charged` bytes (the size FIFO's output).
    pub admit: bool,
    pub charged: u32,
    /// The frame monitor reported a size, and the size FIFO dropped it (full).
    pub size_reported: bool,
    pub size_dropped: bool,
}

/// Internal values for tests and reports (after the last step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatapathProbe {
    /// Bucket increment this cycle, Q16.16 bytes per clock.
    pub bpc: u32,
    /// Tokens, Q32.16 bytes.
    pub count: u64,
    /// The bucket has seen a frame since reset.
    pub armed: bool,
    /// Beats in the data FIFO (RAM, latch, output register) and in the output pipeline.
    pub fifo_beats: u32,
    pub pipe_beats: u32,
    /// Sizes queued in the size FIFO, and its output (the size the next admission charges).
    pub sizes_queued: u32,
    pub size_head: u32,
}

/// The upstream datapath: token calculator, frame monitor, size FIFO, data FIFO, output pipeline
/// and bucket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Datapath {
    k: u32,
    pub calc: TokenCalc,
    pub ingress: Ingress,
    pub pipe: Pipeline,
    pub mon: FrameMon,
    pub sizes: SizeFifo,
    pub bucket: Bucket,
    /// What the last step did.
    pub events: StepEvents,
}

impl Datapath {
    /// Beat width in bytes.
    pub const DATA_BYTES: u32 = BEAT_BYTES;

    /// The power-up state.
    pub fn new(p: &SurfParams) -> Datapath {
        Datapath {
            k: token_k(p.clk_freq_hz),
            calc: TokenCalc::default(),
            ingress: Ingress::new(),
            pipe: Pipeline::RESET,
            mon: FrameMon::default(),
            sizes: SizeFifo::RESET,
            bucket: Bucket::RESET,
            events: StepEvents::default(),
        }
    }

    /// `K` of the token calculator.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// One cycle: the outputs before the edge, then the edge. `rc` is the Rc register's value in
    /// this cycle, `rst` the synchronous `axisRst`.
    #[inline]
    pub fn step(&mut self, rst: bool, rc: u32, s: &AxisIn, m_tready: bool) -> DatapathOut {
        let ing = self.ingress.comb();
        let out = DatapathOut {
            s_axis_tready: ing.s_tready,
            m_axis_tvalid: self.bucket.m_valid,
            m_axis_tdata: self.bucket.m.data,
            m_axis_tkeep: self.bucket.m.keep,
            m_axis_tlast: self.bucket.m.last,
        };
        let head = *self.pipe.out();
        let bpc = self.calc.bpc_defined.then_some(self.calc.bpc);
        let b = self.bucket.step(rst, &head, self.sizes.dout, bpc, m_tready);
        let take = self.pipe.ready;
        self.pipe
            .next(rst, ing.valid, &self.ingress.dout, b.s_ready);
        // The size FIFO writes the monitor's registered strobe and size of this cycle.
        let (report, size) = (self.mon.update_q, self.mon.size_q);
        self.events = StepEvents {
            admit: b.admit,
            charged: self.sizes.dout,
            size_reported: report,
            size_dropped: report && self.sizes.ptrs.full,
        };
        self.sizes.next(rst, report, size, b.admit);
        let accepted = s.tvalid && ing.s_tready;
        self.mon.next(rst, accepted, s.tkeep as u32, s.tlast);
        self.ingress.next(rst, s, &ing, take);
        self.calc.next(rc, self.k);
        out
    }

    /// Internal values (after the last step).
    pub fn probe(&self) -> DatapathProbe {
        DatapathProbe {
            bpc: self.calc.bpc,
            count: self.bucket.count,
            armed: self.bucket.armed,
            fifo_beats: self.ingress.ptrs.len(),
            pipe_beats: self.pipe.beats(),
            sizes_queued: self.sizes.ptrs.len(),
            size_head: self.sizes.dout,
        }
    }
}
