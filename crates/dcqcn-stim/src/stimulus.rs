//! Stimulus sources. Each is described by a plain-data spec (serialisable, so scenarios, fuzz
//! cases and reports can hold it) and driven by a small state machine that obeys its protocol:
//! an AXI4-Stream master that never withdraws a beat, an AXI4-Lite master, a downstream tready
//! pattern, a CNP source (among them the paper's emulated switch, Sec. VI-A) and a reset schedule.
//!
//! A source sees the outputs of the previous cycle and what it drove then, which is all a real
//! master knows at a clock edge.

use crate::wide::wide_add;
use dcqcn_harness::emulated_switch::{EmulatedSwitch, Monitor};
use dcqcn_harness::rng::Rng;
use dcqcn_model::regmap::{self, MAP};
use dcqcn_model::{AxilIn, AxisIn, Config, Inputs, Outputs, Params, DATA_WORDS};
use serde::{Deserialize, Serialize};

/// Upstream AXI4-Stream traffic (the RoCEv2 engine).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrafficSpec {
    /// Frame length in bytes, uniform in `min..=max` (1..=4096).
    pub frame_bytes: (u32, u32),
    /// Idle cycles between frames, uniform in `min..=max`.
    pub gap_cycles: (u32, u32),
    /// Probability of offering the next beat in a cycle inside a frame (1.0: no bubbles).
    pub valid_prob: f64,
    /// Last beat carries a random (possibly sparse) non-zero tkeep instead of contiguous bytes.
    pub sparse_last_keep: bool,
    /// What tdata carries.
    #[serde(default)]
    pub data: DataPattern,
}

/// The payload of the beats. The block passes it through untouched; the choice matters for
/// how well it is checked (random bits) and how compactly golden vectors encode it (a ramp).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DataPattern {
    /// Random bits from the traffic stream.
    #[default]
    Random,
    /// Beat n carries `n * RAMP_STEP` (mod 2^(8 x beat bytes)): every bit toggles, and the
    /// difference between successive beats is constant.
    Ramp,
}

/// The step of [`DataPattern::Ramp`]: an odd constant with bits spread over every byte lane.
pub const RAMP_STEP: u64 = 0x9e37_79b9_7f4a_7c15;

impl TrafficSpec {
    /// Back-to-back frames of `bytes`, no bubbles: a saturating RDMA WRITE source.
    pub fn saturating(bytes: u32) -> TrafficSpec {
        TrafficSpec {
            frame_bytes: (bytes, bytes),
            gap_cycles: (0, 0),
            valid_prob: 1.0,
            sparse_last_keep: false,
            data: DataPattern::Random,
        }
    }
}

/// Downstream `m_axis_tready` (the MAC).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SinkSpec {
    Always,
    /// Ready each cycle with this probability.
    Random {
        ready_prob: f64,
    },
    /// Alternating runs of ready and stalled cycles with these mean lengths.
    Bursty {
        mean_ready: u64,
        mean_stall: u64,
    },
}

/// The `cnp` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CnpSpec {
    None,
    /// The paper's emulated switch (Sec. VI-A, [`dcqcn_harness::emulated_switch`]): egress bytes
    /// over a sliding window of `window_cycles`; above `threshold_bytes` and `cooldown_cycles`
    /// after the last trigger, a CNP pulse of `pulse_cycles`.
    Switch {
        window_cycles: u32,
        threshold_bytes: u64,
        cooldown_cycles: u64,
        pulse_cycles: u32,
    },
    /// A pulse starts in a cycle with probability `prob`; width uniform in `1..=max_width`.
    Random {
        prob: f64,
        max_width: u32,
    },
    /// A pulse of `width` every `period` cycles.
    Periodic {
        period: u64,
        width: u32,
    },
}

impl CnpSpec {
    /// The emulated switch of a [`CnpSpec::Switch`].
    pub fn emulated_switch(&self) -> Option<EmulatedSwitch> {
        match *self {
            CnpSpec::Switch {
                window_cycles,
                threshold_bytes,
                cooldown_cycles,
                pulse_cycles,
            } => Some(EmulatedSwitch {
                window_cycles,
                threshold_bytes,
                cooldown_cycles,
                pulse_cycles,
            }),
            _ => None,
        }
    }
}

impl From<EmulatedSwitch> for CnpSpec {
    fn from(s: EmulatedSwitch) -> CnpSpec {
        CnpSpec::Switch {
            window_cycles: s.window_cycles,
            threshold_bytes: s.threshold_bytes,
            cooldown_cycles: s.cooldown_cycles,
            pulse_cycles: s.pulse_cycles,
        }
    }
}

/// How random register writes choose their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WriteMode {
    /// Plausible values that keep traffic flowing (mid-run retuning).
    Sane,
    /// Any 32-bit value and any strobe.
    Any,
}

/// A register write repeated every `period` cycles, cycling through `values`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PeriodicWrite {
    pub period: u64,
    pub addr: u16,
    pub values: Vec<u32>,
}

/// The AXI4-Lite master (the SURF register bus).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AxilSpec {
    /// Probability per cycle of queueing a random read of a mapped word.
    pub read_prob: f64,
    /// Probability per cycle of queueing a random write.
    pub write_prob: f64,
    pub write_mode: WriteMode,
    /// Random reads and writes also target unmapped and read-only words (DECERR).
    pub decerr: bool,
    /// Probabilities of bready / rready in a cycle (1.0: always ready).
    pub bready_prob: f64,
    pub rready_prob: f64,
    pub periodic: Vec<PeriodicWrite>,
    /// Random reads and writes of mapped words also target the extension rate-rule words
    /// 0x150-0x158. Off in stimuli saved before those words existed (absent = false), so that
    /// their random streams, and the golden sets made from them, stay as they were (except where
    /// a draw of an unmapped word hit 0x150-0x158: that draw is repeated, see `random_addr`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rule_words: bool,
    /// Random reads and writes of mapped words also target the control-scheme words 0x15C-0x160
    /// (spec 4.9); absent = false, for the same reason as `rule_words`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scheme_words: bool,
    /// Random reads and writes of mapped words also target the event-trace words 0x170-0x18C
    /// (spec 4.10); absent = false, for the same reason as `rule_words`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trace_words: bool,
}

impl AxilSpec {
    /// Program the configuration after each reset, nothing else.
    pub fn config_only() -> AxilSpec {
        AxilSpec {
            read_prob: 0.0,
            write_prob: 0.0,
            write_mode: WriteMode::Sane,
            decerr: false,
            bready_prob: 1.0,
            rready_prob: 1.0,
            periodic: vec![],
            rule_words: false,
            scheme_words: false,
            trace_words: false,
        }
    }
}

/// Reset pulses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResetSpec {
    /// Reset cycles at the start of the run.
    pub initial_cycles: u32,
    /// Mean cycles between mid-run resets (0: none).
    pub mean_interval: u64,
    /// Width of a mid-run reset, uniform in `min..=max`.
    pub width: (u32, u32),
}

impl ResetSpec {
    pub fn initial_only() -> ResetSpec {
        ResetSpec {
            initial_cycles: 4,
            mean_interval: 0,
            width: (1, 1),
        }
    }
}

/// Everything that drives the block's inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StimulusSpec {
    pub config: Config,
    pub traffic: Option<TrafficSpec>,
    pub sink: SinkSpec,
    pub cnp: CnpSpec,
    pub axil: AxilSpec,
    pub resets: ResetSpec,
}

// Independent random streams, one per source.
const STREAM_TRAFFIC: u64 = 1;
const STREAM_SINK: u64 = 2;
const STREAM_CNP: u64 = 3;
const STREAM_AXIL: u64 = 4;
const STREAM_RESET: u64 = 5;

/// Beat bytes as a contiguous tkeep.
fn keep_low(bytes: u32) -> u64 {
    if bytes >= 64 {
        u64::MAX
    } else {
        (1u64 << bytes) - 1
    }
}

/// The AXI4-Stream master.
#[derive(Clone, Debug)]
struct FrameSource {
    spec: TrafficSpec,
    rng: Rng,
    data_bytes: u32,
    /// Bytes still to send in the current frame (0: between frames).
    remaining: u32,
    gap: u64,
    /// The beat being offered (held until accepted).
    beat: Option<AxisIn>,
    /// The last ramp beat's data ([`DataPattern::Ramp`]).
    ramp: [u64; DATA_WORDS],
}

impl FrameSource {
    fn new(spec: TrafficSpec, data_bytes: u32, seed: u64) -> Self {
        FrameSource {
            spec,
            rng: Rng::new(seed, STREAM_TRAFFIC),
            data_bytes,
            remaining: 0,
            gap: 0,
            beat: None,
            ramp: [0; DATA_WORDS],
        }
    }

    fn reset(&mut self) {
        self.remaining = 0;
        self.gap = 0;
        self.beat = None;
    }

    fn make_beat(&mut self) -> AxisIn {
        let db = self.data_bytes;
        let bytes = self.remaining.min(db);
        let last = self.remaining <= db;
        let words = (db as usize).div_ceil(8);
        let mut tdata = [0u64; DATA_WORDS];
        match self.spec.data {
            DataPattern::Random => {
                for w in tdata.iter_mut().take(words) {
                    *w = self.rng.next_u64();
                }
            }
            DataPattern::Ramp => {
                self.ramp = wide_add(&self.ramp, &[RAMP_STEP; DATA_WORDS], 8 * db);
                tdata = self.ramp;
            }
        }
        let tkeep = if last && self.spec.sparse_last_keep {
            let mask = keep_low(db);
            let k = self.rng.next_u64() & mask;
            if k == 0 {
                1
            } else {
                k
            }
        } else {
            keep_low(bytes)
        };
        AxisIn {
            tdata,
            tkeep,
            tvalid: true,
            tlast: last,
        }
    }

    /// `accepted`: the beat offered last cycle was taken.
    fn next(&mut self, accepted: bool) -> AxisIn {
        if accepted {
            let b = self
                .beat
                .take()
                .expect("accepted a beat that was not offered");
            if b.tlast {
                self.remaining = 0;
                let (lo, hi) = self.spec.gap_cycles;
                self.gap = self.rng.range(u64::from(lo), u64::from(hi.max(lo)));
            } else {
                self.remaining -= self.data_bytes;
            }
        }
        if let Some(b) = self.beat {
            return b; // AXI4-Stream: an offered beat stays until its handshake.
        }
        if self.remaining == 0 {
            if self.gap > 0 {
                self.gap -= 1;
                return AxisIn::default();
            }
            let (lo, hi) = self.spec.frame_bytes;
            self.remaining = self
                .rng
                .range(u64::from(lo.max(1)), u64::from(hi.max(lo).max(1)))
                as u32;
        }
        if !self.rng.chance(self.spec.valid_prob) {
            return AxisIn::default();
        }
        let b = self.make_beat();
        self.beat = Some(b);
        b
    }
}

#[derive(Clone, Debug)]
struct Sink {
    spec: SinkSpec,
    rng: Rng,
    ready: bool,
    run: u64,
}

impl Sink {
    fn next(&mut self) -> bool {
        match self.spec {
            SinkSpec::Always => true,
            SinkSpec::Random { ready_prob } => self.rng.chance(ready_prob),
            SinkSpec::Bursty {
                mean_ready,
                mean_stall,
            } => {
                if self.run == 0 {
                    self.ready = !self.ready;
                    self.run =
                        self.rng
                            .run_length(if self.ready { mean_ready } else { mean_stall });
                }
                self.run -= 1;
                self.ready
            }
        }
    }
}

#[derive(Clone, Debug)]
struct CnpSource {
    spec: CnpSpec,
    rng: Rng,
    cycle: u64,
    /// Cycles left of the current pulse (random and periodic sources).
    pulse_left: u32,
    /// The emulated switch ([`CnpSpec::Switch`]).
    monitor: Option<Monitor>,
}

impl CnpSource {
    fn new(spec: CnpSpec, seed: u64) -> Self {
        CnpSource {
            monitor: spec.emulated_switch().map(Monitor::new),
            spec,
            rng: Rng::new(seed, STREAM_CNP),
            cycle: 0,
            pulse_left: 0,
        }
    }

    fn reset(&mut self) {
        self.pulse_left = 0;
        if let Some(m) = self.monitor.as_mut() {
            m.reset();
        }
    }

    /// `egress_bytes`: bytes that left on m_axis last cycle.
    fn next(&mut self, egress_bytes: u32) -> bool {
        let now = self.cycle;
        self.cycle += 1;
        match self.spec {
            CnpSpec::None => {}
            CnpSpec::Switch { .. } => {
                if let Some(m) = self.monitor.as_mut() {
                    return m.next(now, egress_bytes);
                }
            }
            CnpSpec::Random { prob, max_width } => {
                if self.pulse_left == 0 && self.rng.chance(prob) {
                    self.pulse_left = self.rng.range(1, u64::from(max_width.max(1))) as u32;
                }
            }
            CnpSpec::Periodic { period, width } => {
                if period > 0 && now.is_multiple_of(period) {
                    self.pulse_left = width.max(1);
                }
            }
        }
        if self.pulse_left > 0 {
            self.pulse_left -= 1;
            true
        } else {
            false
        }
    }
}

/// The AXI4-Lite master: one write and one read in flight, each from its own queue.
#[derive(Clone, Debug)]
struct AxilMaster {
    spec: AxilSpec,
    rng: Rng,
    config_writes: Vec<(u16, u32)>,
    writes: std::collections::VecDeque<(u16, u32, u8)>,
    reads: std::collections::VecDeque<u16>,
    /// In-flight write: address sent, data sent, waiting for B.
    aw_pending: bool,
    w_pending: bool,
    cur_write: Option<(u16, u32, u8)>,
    b_wait: bool,
    ar_pending: bool,
    cur_read: Option<u16>,
    r_wait: bool,
    cycle: u64,
    pub writes_done: u64,
    pub reads_done: u64,
}

impl AxilMaster {
    fn new(spec: AxilSpec, config: &Config, params: &Params, seed: u64) -> Self {
        let mut m = AxilMaster {
            spec,
            rng: Rng::new(seed, STREAM_AXIL),
            config_writes: config.register_writes(params),
            writes: Default::default(),
            reads: Default::default(),
            aw_pending: false,
            w_pending: false,
            cur_write: None,
            b_wait: false,
            ar_pending: false,
            cur_read: None,
            r_wait: false,
            cycle: 0,
            writes_done: 0,
            reads_done: 0,
        };
        m.reset();
        m
    }

    /// After a reset: drop what was in flight and program the configuration again.
    fn reset(&mut self) {
        self.writes = self
            .config_writes
            .iter()
            .map(|&(a, d)| (a, d, 0xF))
            .collect();
        self.reads.clear();
        self.aw_pending = false;
        self.w_pending = false;
        self.cur_write = None;
        self.b_wait = false;
        self.ar_pending = false;
        self.cur_read = None;
        self.r_wait = false;
    }

    /// Whether random accesses reach the word at `addr`: a word of no feature always; the
    /// extension words (the RDL's `feature`) only where the scenario asks for them
    /// ([`AxilSpec::rule_words`], [`AxilSpec::scheme_words`], [`AxilSpec::trace_words`]); the
    /// words of any other feature never (a format-1 golden set must leave them at reset).
    fn feature_drawn(&self, addr: u16) -> bool {
        match regmap::feature(addr) {
            None => true,
            Some("rate_rules") => self.spec.rule_words,
            Some("control") => self.spec.scheme_words,
            Some("trace") => self.spec.trace_words,
            Some(_) => false,
        }
    }

    fn random_addr(&mut self, writable: bool) -> u16 {
        if self.spec.decerr && self.rng.chance(0.15) {
            // Unmapped word, or (for writes) a read-only one.
            if writable && self.rng.chance(0.5) {
                let ro: Vec<u16> = MAP.iter().filter(|m| !m.2).map(|m| m.0).collect();
                return ro[self.rng.range(0, ro.len() as u64 - 1) as usize];
            }
            loop {
                let a = (self.rng.range(0, 0x3FF) as u16) << 2;
                // An unmapped word is unmapped in the map of this build: a draw of a mapped one
                // (the words 0x150-0x18C included, whatever rule_words, scheme_words and
                // trace_words say) is
                // drawn again, so that the access really gets DECERR.
                if regmap::lookup(a).is_none() {
                    return a | self.rng.range(0, 3) as u16;
                }
            }
        }
        let cands: Vec<u16> = MAP
            .iter()
            .filter(|m| !writable || m.2)
            .filter(|m| self.feature_drawn(m.0))
            .map(|m| m.0)
            .collect();
        cands[self.rng.range(0, cands.len() as u64 - 1) as usize]
    }

    fn random_write(&mut self) -> (u16, u32, u8) {
        let addr = self.random_addr(true);
        if self.spec.write_mode == WriteMode::Any {
            return (
                addr,
                self.rng.next_u64() as u32,
                self.rng.range(0, 15) as u8,
            );
        }
        let r = &mut self.rng;
        let data = match addr {
            regmap::CONFIG => {
                let g = r.range(900, 1023) as u32;
                let gain = r.range(0, 3) as u32;
                let f = r.range(0, 10) as u32;
                let clamp = r.range(0, 1) as u32;
                g | gain << 10 | f << 14 | clamp << 22
            }
            regmap::RAI | regmap::RHAI => r.range(0, 50_000_000) as u32,
            regmap::RMIN => r.range(1_000_000, 200_000_000) as u32,
            regmap::INC_INTERVAL => r.range(1, 20_000) as u32,
            regmap::INTERVALS => (r.range(1, 2_000) as u32) << 16 | r.range(1, 500) as u32,
            regmap::ALPHA_CNP => (r.range(0, 1) as u32) << 10,
            regmap::BYPASS => u32::from(r.chance(0.2)),
            regmap::EXT_CTRL => r.range(0, 3) as u32 | (r.range(0, 1) as u32) << 8,
            regmap::BYTE_THRESHOLD => r.range(1, 200_000) as u32,
            regmap::CREDIT_CAP => r.range(0, 1 << 20) as u32,
            regmap::RMAX | regmap::RATE_FIRST_CNP => {
                if r.chance(0.3) {
                    0
                } else {
                    r.range(1_000_000, 1_500_000_000) as u32
                }
            }
            regmap::RATE_RULES => {
                let alpha_init = r.range(0, 1023) as u32;
                let fac = r.range(0, 1100) as u32;
                let hai = r.range(0, 1) as u32;
                alpha_init | fac << 16 | hai << 28
            }
            // Hardware DCQCN half the time, the gate mask set one write in ten.
            regmap::CONTROL => {
                let scheme = if r.chance(0.5) {
                    0
                } else {
                    r.range(1, 3) as u32
                };
                scheme | u32::from(r.chance(0.1)) << 8
            }
            regmap::FW_RATE => {
                if r.chance(0.2) {
                    0
                } else {
                    r.range(1_000_000, 1_500_000_000) as u32
                }
            }
            // Armed four writes in five, either window mode, a clear one write in ten.
            regmap::TRACE_CTRL => {
                u32::from(r.chance(0.8))
                    | u32::from(r.chance(0.5)) << 1
                    | u32::from(r.chance(0.1)) << 8
            }
            regmap::TRACE_SEL => r.range(0, 63) as u32,
            _ => r.next_u64() as u32,
        };
        let strb = if self.rng.chance(0.9) {
            0xF
        } else {
            self.rng.range(0, 15) as u8
        };
        (addr, data, strb)
    }

    /// `prev`: outputs of last cycle; `last`: what this master drove then.
    fn next(&mut self, prev: &Outputs, last: &AxilIn) -> AxilIn {
        let now = self.cycle;
        self.cycle += 1;
        // Handshakes of last cycle.
        if last.awvalid && prev.s_axil_awready {
            self.aw_pending = false;
        }
        if last.wvalid && prev.s_axil_wready {
            self.w_pending = false;
        }
        if self.cur_write.is_some() && !self.aw_pending && !self.w_pending {
            self.b_wait = true;
        }
        if self.b_wait && prev.s_axil_bvalid && last.bready {
            self.b_wait = false;
            self.cur_write = None;
            self.writes_done += 1;
        }
        if last.arvalid && prev.s_axil_arready {
            self.ar_pending = false;
            self.r_wait = true;
        }
        if self.r_wait && prev.s_axil_rvalid && last.rready {
            self.r_wait = false;
            self.cur_read = None;
            self.reads_done += 1;
        }

        // New work.
        for pw in &self.spec.periodic {
            if pw.period > 0 && now > 0 && now.is_multiple_of(pw.period) && !pw.values.is_empty() {
                let v = pw.values[((now / pw.period) as usize) % pw.values.len()];
                self.writes.push_back((pw.addr, v, 0xF));
            }
        }
        if self.writes.len() < 4 && self.rng.chance(self.spec.write_prob) {
            let w = self.random_write();
            self.writes.push_back(w);
        }
        if self.reads.len() < 4 && self.rng.chance(self.spec.read_prob) {
            let a = self.random_addr(false);
            self.reads.push_back(a);
        }
        if self.cur_write.is_none() {
            if let Some(w) = self.writes.pop_front() {
                self.cur_write = Some(w);
                self.aw_pending = true;
                self.w_pending = true;
            }
        }
        if self.cur_read.is_none() {
            if let Some(a) = self.reads.pop_front() {
                self.cur_read = Some(a);
                self.ar_pending = true;
            }
        }

        let (awaddr, wdata, wstrb) = self.cur_write.unwrap_or((0, 0, 0));
        AxilIn {
            awaddr,
            awvalid: self.aw_pending,
            wdata,
            wstrb,
            wvalid: self.w_pending,
            bready: self.rng.chance(self.spec.bready_prob),
            araddr: self.cur_read.unwrap_or(0),
            arvalid: self.ar_pending,
            rready: self.rng.chance(self.spec.rready_prob),
        }
    }
}

#[derive(Clone, Debug)]
struct Resets {
    spec: ResetSpec,
    rng: Rng,
    cycle: u64,
    left: u32,
}

impl Resets {
    fn next(&mut self) -> bool {
        let now = self.cycle;
        self.cycle += 1;
        if now < u64::from(self.spec.initial_cycles) {
            return true;
        }
        if self.left == 0
            && self.spec.mean_interval > 0
            && self.rng.chance(1.0 / self.spec.mean_interval as f64)
        {
            let (lo, hi) = self.spec.width;
            self.left = self
                .rng
                .range(u64::from(lo.max(1)), u64::from(hi.max(lo).max(1)))
                as u32;
        }
        if self.left > 0 {
            self.left -= 1;
            true
        } else {
            false
        }
    }
}

/// Counters of what the stimulus did (for the suite table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StimulusStats {
    pub resets: u64,
    pub axil_writes: u64,
    pub axil_reads: u64,
}

/// All sources together: the testbench around one rate limiter.
#[derive(Clone, Debug)]
pub struct Bench {
    source: Option<FrameSource>,
    sink: Sink,
    cnp: CnpSource,
    axil: AxilMaster,
    resets: Resets,
    last: Inputs,
    reset_pulses: u64,
}

impl Bench {
    pub fn new(spec: &StimulusSpec, params: &Params, seed: u64) -> Bench {
        Bench {
            source: spec
                .traffic
                .clone()
                .map(|t| FrameSource::new(t, params.data_bytes(), seed)),
            sink: Sink {
                spec: spec.sink.clone(),
                rng: Rng::new(seed, STREAM_SINK),
                ready: false,
                run: 0,
            },
            cnp: CnpSource::new(spec.cnp.clone(), seed),
            axil: AxilMaster::new(spec.axil.clone(), &spec.config, params, seed),
            resets: Resets {
                spec: spec.resets.clone(),
                rng: Rng::new(seed, STREAM_RESET),
                cycle: 0,
                left: 0,
            },
            last: Inputs::default(),
            reset_pulses: 0,
        }
    }

    /// [`Bench::new`] that programs `writes` (address, data, full strobes) after each reset
    /// instead of the writes of `spec.config`: for a block with another register map (the upstream
    /// SURF block, `dcqcn_surf::ghdl`).
    pub fn with_config_writes(
        spec: &StimulusSpec,
        params: &Params,
        seed: u64,
        writes: Vec<(u16, u32)>,
    ) -> Bench {
        let mut b = Bench::new(spec, params, seed);
        b.axil.config_writes = writes;
        b.axil.reset();
        b
    }

    /// The inputs of the next cycle, given the outputs of the cycle just stepped.
    pub fn next(&mut self, prev: &Outputs) -> Inputs {
        let last = self.last;
        let rst = self.resets.next();
        let egress = if prev.m_axis_tvalid && last.m_axis_tready && !last.rst {
            prev.m_axis_tkeep.count_ones()
        } else {
            0
        };
        let cnp = self.cnp.next(egress);
        let m_axis_tready = self.sink.next();
        let i = if rst {
            if !last.rst {
                self.reset_pulses += 1;
            }
            if let Some(s) = self.source.as_mut() {
                s.reset();
            }
            self.axil.reset();
            self.cnp.reset();
            Inputs {
                rst: true,
                cnp,
                m_axis_tready,
                ..Inputs::default()
            }
        } else {
            let accepted = last.s_axis.tvalid && prev.s_axis_tready && !last.rst;
            let s_axis = self
                .source
                .as_mut()
                .map_or(AxisIn::default(), |s| s.next(accepted));
            let prev_eff = if last.rst { Outputs::default() } else { *prev };
            let axil = self.axil.next(&prev_eff, &last.axil);
            Inputs {
                rst: false,
                cnp,
                s_axis,
                m_axis_tready,
                axil,
            }
        };
        self.last = i;
        i
    }

    pub fn stats(&self) -> StimulusStats {
        StimulusStats {
            resets: self.reset_pulses,
            axil_writes: self.axil.writes_done,
            axil_reads: self.axil.reads_done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dcqcn_model::RateLimiter;

    fn spec() -> StimulusSpec {
        let p = Params::DEFAULT;
        StimulusSpec {
            config: Config::paper_table2(&p),
            traffic: Some(TrafficSpec {
                frame_bytes: (1, 300),
                gap_cycles: (0, 3),
                valid_prob: 0.7,
                sparse_last_keep: true,
                data: DataPattern::Random,
            }),
            sink: SinkSpec::Random { ready_prob: 0.6 },
            cnp: CnpSpec::Random {
                prob: 0.01,
                max_width: 4,
            },
            axil: AxilSpec {
                read_prob: 0.05,
                write_prob: 0.02,
                write_mode: WriteMode::Sane,
                decerr: true,
                bready_prob: 0.5,
                rready_prob: 0.5,
                periodic: vec![],
                rule_words: false,
                scheme_words: false,
                trace_words: false,
            },
            resets: ResetSpec {
                initial_cycles: 4,
                mean_interval: 5_000,
                width: (1, 5),
            },
        }
    }

    /// The upstream master obeys AXI4-Stream: once tvalid is high, the beat stays until taken.
    #[test]
    fn stream_master_holds_beats_until_handshake() {
        let p = Params::DEFAULT;
        let mut bench = Bench::new(&spec(), &p, 3);
        let mut m = RateLimiter::new(p);
        let mut out = Outputs::default();
        let mut prev_in = Inputs::default();
        let mut beats = 0;
        for _ in 0..50_000 {
            let i = bench.next(&out);
            if prev_in.s_axis.tvalid && !out.s_axis_tready && !i.rst && !prev_in.rst {
                assert!(i.s_axis.tvalid, "tvalid withdrawn before handshake");
                assert_eq!(i.s_axis, prev_in.s_axis, "beat changed before handshake");
            }
            out = m.step(&i);
            beats += u64::from(i.s_axis.tvalid && out.s_axis_tready);
            prev_in = i;
        }
        assert!(beats > 1_000, "traffic flowed: {beats} beats");
        let st = bench.stats();
        assert!(
            st.resets > 0 && st.axil_reads > 0 && st.axil_writes > 0,
            "{st:?}"
        );
    }

    #[test]
    fn deterministic_for_a_seed() {
        let p = Params::DEFAULT;
        let run = |seed| {
            let mut bench = Bench::new(&spec(), &p, seed);
            let mut m = RateLimiter::new(p);
            let mut out = Outputs::default();
            let mut h = 0u64;
            for _ in 0..20_000 {
                let i = bench.next(&out);
                out = m.step(&i);
                h = h
                    .wrapping_mul(31)
                    .wrapping_add(u64::from(m.state().rc) ^ m.state().gate.credit);
            }
            h
        };
        assert_eq!(run(1), run(1));
        assert_ne!(run(1), run(2));
    }
}
