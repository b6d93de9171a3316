//! AXI4-Lite register file: configuration, event counters, read mux (spec 6; RTL `dcqcn_regs`).

use crate::block::Block;
use crate::config::Config;
use crate::params::Params;
use crate::rate_inc::Phase;
use crate::regmap::{self, RESP_DECERR, RESP_OKAY};
use bitvec::prelude::*;

/// Event counters (spec 6.2, 0x020 and 0x120-0x144).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub cnp_cnt16: u16,
    pub cnt_cnp: u32,
    pub cnt_dec: u32,
    pub cnt_inc_fr: u32,
    pub cnt_inc_ai: u32,
    pub cnt_inc_hai: u32,
    pub cnt_inc_timer: u32,
    pub cnt_inc_byte: u32,
    pub cnt_stall: u32,
    pub cnt_bytes: u64,
    pub bytes_hi: u32,
}

/// AXI4-Lite response registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxilState {
    pub bvalid: bool,
    pub bresp: u8,
    pub rvalid: bool,
    pub rdata: u32,
    pub rresp: u8,
}

/// The AXI4-Lite master's signals this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxilIn {
    pub awaddr: u16,
    pub awvalid: bool,
    pub wdata: u32,
    pub wstrb: u8,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u16,
    pub arvalid: bool,
    pub rready: bool,
}

/// Entries of the event trace window (spec 4.10).
pub const TRACE_DEPTH: usize = 64;

/// Width of the AXI4-Lite address ports `s_axil_awaddr` and `s_axil_araddr` (spec 3).
pub const AXIL_ADDR_BITS: u32 = 12;

/// One entry of the event trace (spec 4.10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TraceEntry {
    /// `type` in bits [2:0] (0b000 decrease; an increase: bit 2 timer, bits [1:0] phase 0b01 fast
    /// recovery, 0b10 hyper, 0b11 additive) and `both` in bit 3.
    pub kind: u8,
    /// Rc after the event, bytes/s.
    pub rc: u32,
    /// `trace_time` of the event's cycle.
    pub stamp: u32,
}

/// What a trace entry's `kind` says, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    Decrease,
    /// An increase: its phase, whether the timer fired (else the byte counter did) and whether
    /// both triggers fired.
    Increase {
        phase: Phase,
        timer: bool,
        both: bool,
    },
    /// A code the block never writes (0b100, or bit 3 without an increase): an injected entry.
    Other(u8),
}

impl TraceEntry {
    /// The entry of a rate event: a decrease, else the increase of `phase` (spec 4.10).
    pub fn of_event(
        dec_fire: bool,
        inc: Option<Phase>,
        timer: bool,
        byte: bool,
        rc: u32,
        stamp: u32,
    ) -> TraceEntry {
        let kind = match (dec_fire, inc) {
            (false, Some(ph)) => {
                let phase = match ph {
                    Phase::FastRecovery => 0b01,
                    Phase::Hyper => 0b10,
                    Phase::Additive => 0b11,
                };
                u8::from(timer && byte) << 3 | u8::from(timer) << 2 | phase
            }
            _ => 0,
        };
        TraceEntry { kind, rc, stamp }
    }

    pub fn decode(&self) -> TraceKind {
        let both = self.kind & 0b1000 != 0;
        let timer = self.kind & 0b100 != 0;
        let phase = match self.kind & 0b11 {
            0b01 => Phase::FastRecovery,
            0b10 => Phase::Hyper,
            0b11 => Phase::Additive,
            _ if self.kind == 0 => return TraceKind::Decrease,
            _ => return TraceKind::Other(self.kind),
        };
        if both && !timer {
            return TraceKind::Other(self.kind);
        }
        TraceKind::Increase { phase, timer, both }
    }
}

impl std::fmt::Display for TraceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TraceKind::Decrease => write!(f, "decrease"),
            TraceKind::Increase { phase, timer, both } => {
                let by = match (timer, both) {
                    (true, true) => "timer+byte",
                    (true, false) => "timer",
                    _ => "byte",
                };
                let ph = match phase {
                    Phase::FastRecovery => "fast-recovery",
                    Phase::Additive => "additive",
                    Phase::Hyper => "hyper",
                };
                write!(f, "increase/{by}/{ph}")
            }
            TraceKind::Other(k) => write!(f, "code {k:#06b}"),
        }
    }
}

/// The event trace's registers and storage (spec 4.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Entries in the window (7 bits; 64 and above: full).
    pub count: u8,
    /// Where the next entry is written (6 bits).
    pub wptr: u8,
    pub lost: bool,
    /// Armed cycles since the clear, saturating.
    pub time: u32,
    /// Per-type counts of the armed time, 10 bits each, saturating.
    pub n_dec: u16,
    pub n_byte: u16,
    pub n_timer: u16,
    /// The storage (not cleared by reset in the RTL; the model's reset leaves 0, which no read
    /// shows before an entry is written, spec 4.10).
    pub mem: [TraceEntry; TRACE_DEPTH],
}

impl Default for Trace {
    fn default() -> Trace {
        Trace {
            count: 0,
            wptr: 0,
            lost: false,
            time: 0,
            n_dec: 0,
            n_byte: 0,
            n_timer: 0,
            mem: [TraceEntry::default(); TRACE_DEPTH],
        }
    }
}

/// Largest value of the 10-bit trace counts.
const TRACE_N_MAX: u16 = 1023;

impl Trace {
    /// The window holds 64 entries (or an injected count above).
    pub fn full(&self) -> bool {
        usize::from(self.count) >= TRACE_DEPTH
    }

    /// Storage index of the k-th oldest entry (`phys`, spec 4.10).
    pub fn phys(&self, k: u8) -> usize {
        let k = usize::from(k) % TRACE_DEPTH;
        if self.full() {
            (usize::from(self.wptr) + k) % TRACE_DEPTH
        } else {
            k
        }
    }

    /// The k-th oldest entry, if the window has one (what 0x184-0x18C show for `trace_sel` = k).
    pub fn entry(&self, k: u8) -> Option<TraceEntry> {
        (k < self.count && usize::from(k) < TRACE_DEPTH).then(|| self.mem[self.phys(k)])
    }

    /// The window, oldest first.
    pub fn entries(&self) -> Vec<TraceEntry> {
        (0..TRACE_DEPTH as u8)
            .map_while(|k| self.entry(k))
            .collect()
    }

    /// The most recent entry as the comparison record holds it (spec 7): 0 when empty.
    pub fn last(&self) -> TraceEntry {
        if self.count == 0 {
            TraceEntry::default()
        } else {
            self.mem[(usize::from(self.wptr) + TRACE_DEPTH - 1) % TRACE_DEPTH]
        }
    }

    /// Words 0x174 and 0x178.
    pub fn word_status(&self) -> u32 {
        u32::from(self.count & 0x7F) | u32::from(self.wptr & 0x3F) << 8 | u32::from(self.lost) << 16
    }
    pub fn word_counts(&self) -> u32 {
        u32::from(self.n_dec) | u32::from(self.n_byte) << 10 | u32::from(self.n_timer) << 20
    }

    /// One edge (spec 4.10): `clear` from a write of 1 to `trace_clear`, `ev` this cycle's rate
    /// event (if armed), `entry` its entry.
    fn next(&mut self, cfg: &Config, clear: bool, ev: &Events) {
        if clear {
            *self = Trace {
                mem: self.mem,
                ..Trace::default()
            };
            return;
        }
        if !cfg.trace_en {
            return;
        }
        let sat = |n: u16, on: bool| if on && n < TRACE_N_MAX { n + 1 } else { n };
        let inc = ev.inc.is_some();
        if ev.dec_fire || inc {
            let full = self.full();
            if !full || cfg.trace_wrap {
                let e = TraceEntry::of_event(
                    ev.dec_fire,
                    ev.inc,
                    ev.timer_fire,
                    ev.byte_fire,
                    ev.rc_next,
                    self.time,
                );
                self.mem[usize::from(self.wptr) % TRACE_DEPTH] = e;
                self.wptr = (self.wptr + 1) % TRACE_DEPTH as u8;
                self.count = if full {
                    TRACE_DEPTH as u8
                } else {
                    self.count + 1
                };
            }
            self.lost |= full;
            self.n_dec = sat(self.n_dec, ev.dec_fire);
            self.n_byte = sat(self.n_byte, inc && ev.byte_fire);
            self.n_timer = sat(self.n_timer, inc && ev.timer_fire);
        }
        self.time = self.time.saturating_add(1);
    }
}

/// Registers of the register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Regs {
    pub cfg: Config,
    pub cnt: Counters,
    pub axil: AxilState,
    pub trace: Trace,
}

/// The events of this cycle the counters count (the RTL's event ports of `dcqcn_regs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    pub cnp_edge: bool,
    pub dec_fire: bool,
    /// The phase of this cycle's increase event (`Some` exactly when `inc_event`).
    pub inc: Option<Phase>,
    pub timer_fire: bool,
    pub byte_fire: bool,
    pub stall: bool,
    pub bytes_in: u32,
    /// Rc after this cycle's edge (the trace entry's rate, spec 4.10).
    pub rc_next: u32,
}

/// The register file's input ports.
#[derive(Clone, Copy, Debug)]
pub struct RegsIn<'a> {
    pub rst: bool,
    pub axil: &'a AxilIn,
    /// The other blocks' registers the read mux shows.
    pub mon: Monitors,
    pub ev: Events,
}

/// The register file's combinational outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegsOut {
    /// A write is accepted: `s_axil_awready = s_axil_wready = wr_en`.
    pub wr_en: bool,
    /// A read is accepted: `s_axil_arready = rd_en`.
    pub rd_en: bool,
    /// The bus does something this cycle: a transaction is accepted or a response is held.
    pub bus_active: bool,
}

impl RegsOut {
    pub const IDLE: RegsOut = RegsOut {
        wr_en: false,
        rd_en: false,
        bus_active: false,
    };
}

/// Live values the read mux shows (all registers of this cycle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Monitors {
    pub rc: u32,
    pub rt: u32,
    pub alpha: u16,
    pub credit: u64,
    pub bpc: u32,
    pub t_stage: u8,
    pub b_stage: u8,
    pub active: bool,
    pub dec_pending: bool,
    pub alpha_pending: bool,
}

/// Side effects of an accepted write beyond the configuration itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct WriteEffects {
    /// The action bits the write set.
    act: regmap::Actions,
    /// A read of 0x140 latches the upper half of `cnt_bytes`.
    latch_hi: bool,
}

impl Regs {
    /// `cycles` cycles without bus activity or reaction-point events in closed form, `stalls` of
    /// them with the stall condition and `bytes_in` bytes loaded in all: only the traffic counters
    /// and an armed trace's time move (what as many calls of `next` leave behind).
    #[inline(always)]
    pub fn skip_quiet(&mut self, cycles: u64, stalls: u64, bytes_in: u64) {
        if self.cfg.trace_en {
            let t = &mut self.trace;
            t.time = u32::try_from(u64::from(t.time) + cycles).unwrap_or(u32::MAX);
        }
        let c = &mut self.cnt;
        // Both counters wrap: stalls mod 2^32, bytes mod 2^64.
        c.cnt_stall = c.cnt_stall.wrapping_add(stalls as u32);
        c.cnt_bytes = c.cnt_bytes.wrapping_add(bytes_in);
    }

    /// spec 2: leaves the registers of the features `p` does not build at their reset values (the
    /// state an absent feature's registers always have), for a state drawn or loaded for the full
    /// block and injected into another.
    pub fn restrict(&mut self, p: &Params) {
        let reset = Regs::reset(p);
        for &word in regmap::WRITE_ORDER {
            if !built(word, p) {
                if let Some(w) = reset.cfg.word(word) {
                    self.cfg.set_word(word, w);
                }
            }
        }
        if p.features().trace_depth == 0 {
            self.trace = reset.trace;
        }
    }

    /// spec 6.1/6.2: the word and response a read of `addr` returns.
    pub fn read(&self, addr: u16, m: &Monitors, p: &Params) -> (u32, u8) {
        if !built(addr, p) {
            return (0, RESP_DECERR);
        }
        let c = &self.cfg;
        let n = &self.cnt;
        let data = match addr & 0xFFC {
            regmap::RC => m.rc,
            regmap::RT => m.rt,
            regmap::ALPHA_CNP => {
                let mut w = 0u32;
                let b = w.view_bits_mut::<Lsb0>();
                b[0..10].store_le(m.alpha);
                b[11..27].store_le(n.cnp_cnt16);
                w
            }
            regmap::ID => 0xDCC1_0100 | p.data_bytes(),
            regmap::CREDIT_BYTES => (m.credit >> 16) as u32,
            regmap::CREDIT_FRAC => (m.credit & 0xFFFF) as u32,
            regmap::BPC => m.bpc,
            regmap::CNT_CNP => n.cnt_cnp,
            regmap::CNT_DEC => n.cnt_dec,
            regmap::CNT_INC_FR => n.cnt_inc_fr,
            regmap::CNT_INC_AI => n.cnt_inc_ai,
            regmap::CNT_INC_HAI => n.cnt_inc_hai,
            regmap::CNT_INC_TIMER => n.cnt_inc_timer,
            regmap::CNT_INC_BYTE => n.cnt_inc_byte,
            regmap::CNT_STALL => n.cnt_stall,
            regmap::CNT_BYTES_LO => n.cnt_bytes as u32,
            regmap::CNT_BYTES_HI => n.bytes_hi,
            regmap::STATUS => {
                let mut w = 0u32;
                let b = w.view_bits_mut::<Lsb0>();
                b[0..8].store_le(m.t_stage);
                b[8..16].store_le(m.b_stage);
                b.set(16, m.active);
                b.set(17, m.dec_pending);
                b.set(18, m.alpha_pending);
                w
            }
            regmap::TRACE_STATUS => self.trace.word_status(),
            regmap::TRACE_COUNTS => self.trace.word_counts(),
            regmap::TRACE_TIME => self.trace.time,
            regmap::TRACE_ENTRY => self
                .trace
                .entry(c.trace_sel)
                .map_or(0, |e| 1 << 8 | u32::from(e.kind & 0xF)),
            regmap::TRACE_RC => self.trace.entry(c.trace_sel).map_or(0, |e| e.rc),
            regmap::TRACE_STAMP => self.trace.entry(c.trace_sel).map_or(0, |e| e.stamp),
            // the configuration words (generated from the register map)
            _ => match c.word(addr) {
                Some(w) => w,
                None => return (0, RESP_DECERR),
            },
        };
        (data, RESP_OKAY)
    }

    /// spec 6.1/6.2: apply an accepted write to `cfg`; returns the response and side effects.
    fn write(cfg: &mut Config, addr: u16, wdata: u32, wstrb: u8, p: &Params) -> (u8, WriteEffects) {
        if !built(addr, p) {
            return (RESP_DECERR, WriteEffects::default());
        }
        match regmap::write(cfg, addr, wdata, wstrb) {
            Some(act) => (
                RESP_OKAY,
                WriteEffects {
                    act,
                    ..WriteEffects::default()
                },
            ),
            // Read-only and unmapped words.
            None => (RESP_DECERR, WriteEffects::default()),
        }
    }

    /// A cycle with AXI4-Lite activity (spec 6.1): accept a write and/or a read, retire responses.
    #[cold]
    #[inline(never)]
    fn bus_cycle(
        &mut self,
        i: &AxilIn,
        wr_en: bool,
        rd_en: bool,
        m: &Monitors,
        p: &Params,
    ) -> WriteEffects {
        // The read sees the registers before this cycle's write (spec 6.1).
        let read = if rd_en {
            Some(self.read(i.araddr, m, p))
        } else {
            None
        };
        let mut fx = WriteEffects::default();
        if wr_en {
            let (resp, e) = Self::write(&mut self.cfg, i.awaddr, i.wdata, i.wstrb, p);
            self.axil.bresp = resp;
            fx = e;
        }
        self.axil.bvalid = wr_en || (self.axil.bvalid && !i.bready);
        if let Some((data, resp)) = read {
            self.axil.rdata = data;
            self.axil.rresp = resp;
            fx.latch_hi = i.araddr & 0xFFC == regmap::CNT_BYTES_LO;
        }
        self.axil.rvalid = rd_en || (self.axil.rvalid && !i.rready);
        fx
    }
}

/// spec 2: whether the word at `addr` is built: a feature's words only when `p` has the feature.
fn built(addr: u16, p: &Params) -> bool {
    regmap::feature(addr).is_none_or(|f| p.features().has(f))
}

impl Block for Regs {
    type In<'a> = RegsIn<'a>;
    type Out = RegsOut;

    fn reset(p: &Params) -> Regs {
        Regs {
            cfg: Config::reset(p),
            cnt: Counters::default(),
            axil: AxilState::default(),
            trace: Trace::default(),
        }
    }

    /// spec 6.1: one transaction per channel; handshakes are 0 in a reset cycle (spec 4.0).
    #[inline(always)]
    fn comb(&self, i: &RegsIn<'_>, _: &Config, _: &Params) -> RegsOut {
        let wr_en = !i.rst && i.axil.awvalid && i.axil.wvalid && !self.axil.bvalid;
        let rd_en = !i.rst && i.axil.arvalid && !self.axil.rvalid;
        RegsOut {
            wr_en,
            rd_en,
            bus_active: wr_en || rd_en || self.axil.bvalid || self.axil.rvalid,
        }
    }

    /// In place; the bus logic runs only in a cycle with AXI4-Lite activity, so that the common
    /// cycle copies almost nothing.
    #[inline(always)]
    fn next(&mut self, i: &RegsIn<'_>, o: &RegsOut, cfg: &Config, p: &Params) {
        let fx = if o.bus_active {
            self.bus_cycle(i.axil, o.wr_en, o.rd_en, &i.mon, p)
        } else {
            WriteEffects::default()
        };
        let ev = &i.ev;
        // The trace runs on the configuration of the cycle (`cfg`; a write lands in `self.cfg`).
        self.trace.next(cfg, fx.act.trace_clear, ev);
        let n = &mut self.cnt;
        n.cnp_cnt16 = if fx.act.cnp_cnt_clear {
            0
        } else {
            n.cnp_cnt16.wrapping_add(u16::from(ev.cnp_edge))
        };
        if fx.act.cnt_clear {
            *n = Counters {
                cnp_cnt16: n.cnp_cnt16,
                ..Counters::default()
            };
            return;
        }
        if fx.latch_hi {
            n.bytes_hi = (n.cnt_bytes >> 32) as u32;
        }
        n.cnt_cnp = n.cnt_cnp.wrapping_add(u32::from(ev.cnp_edge));
        n.cnt_dec = n.cnt_dec.wrapping_add(u32::from(ev.dec_fire));
        if let Some(ph) = ev.inc {
            match ph {
                Phase::FastRecovery => n.cnt_inc_fr = n.cnt_inc_fr.wrapping_add(1),
                Phase::Additive => n.cnt_inc_ai = n.cnt_inc_ai.wrapping_add(1),
                Phase::Hyper => n.cnt_inc_hai = n.cnt_inc_hai.wrapping_add(1),
            }
            n.cnt_inc_timer = n.cnt_inc_timer.wrapping_add(u32::from(ev.timer_fire));
            n.cnt_inc_byte = n.cnt_inc_byte.wrapping_add(u32::from(ev.byte_fire));
        }
        n.cnt_stall = n.cnt_stall.wrapping_add(u32::from(ev.stall));
        n.cnt_bytes = n.cnt_bytes.wrapping_add(u64::from(ev.bytes_in));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_lanes_merge_into_fields() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        // Lane 2 only: bits 23:16 of 0x000 -> stage_threshold bits [7:2] and clamp (bit 22).
        let (resp, _) = Regs::write(&mut c, 0x000, 0x00FF_0000, 0b0100, &Params::DEFAULT);
        assert_eq!(resp, RESP_OKAY);
        assert_eq!(c.word(regmap::CONFIG).unwrap(), 0x007F_47FC);
        assert!(c.clamp_tgt);
    }

    #[test]
    fn an_absent_features_words_answer_as_unmapped_ones() {
        use crate::Features;
        let full = Params::DEFAULT;
        let base = full.with_features(Features::BASE).unwrap();
        let m = Monitors::default();
        let regs = Regs::reset(&base);
        let mut features_seen = std::collections::BTreeSet::new();
        for &(addr, _, writable) in regmap::MAP {
            let mut c = Config::reset(&base);
            let before = c;
            let (resp, fx) = Regs::write(&mut c, addr, u32::MAX, 0xF, &base);
            match regmap::feature(addr) {
                Some(f) => {
                    features_seen.insert(f);
                    assert_eq!(resp, RESP_DECERR, "{addr:#05x} write");
                    assert_eq!(
                        fx.act,
                        regmap::Actions::default(),
                        "{addr:#05x}: no action bit acts"
                    );
                    assert_eq!(c, before, "{addr:#05x}");
                    assert_eq!(
                        regs.read(addr, &m, &base),
                        (0, RESP_DECERR),
                        "{addr:#05x} read"
                    );
                    // the full block answers there
                    let mut c = Config::reset(&full);
                    let want = if writable { RESP_OKAY } else { RESP_DECERR };
                    assert_eq!(Regs::write(&mut c, addr, 0, 0xF, &full).0, want);
                    assert_eq!(Regs::reset(&full).read(addr, &m, &full).1, RESP_OKAY);
                }
                None => {
                    let want = if writable { RESP_OKAY } else { RESP_DECERR };
                    assert_eq!(resp, want, "{addr:#05x} write");
                    assert_eq!(regs.read(addr, &m, &base).1, RESP_OKAY, "{addr:#05x} read");
                }
            }
        }
        assert_eq!(
            features_seen.into_iter().collect::<Vec<_>>(),
            ["control", "rate_rules", "trace"]
        );
    }

    #[test]
    fn restrict_leaves_only_the_built_features_registers() {
        use crate::Features;
        let full = Params::DEFAULT;
        let base = full.with_features(Features::BASE).unwrap();
        let mut r = Regs::reset(&full);
        r.cfg.rmax = 5;
        r.cfg.scheme = 3;
        r.cfg.trace_en = true;
        r.cfg.rai = 7;
        r.trace.time = 9;
        let mut b = r;
        b.restrict(&base);
        assert_eq!((b.cfg.rmax, b.cfg.scheme, b.cfg.trace_en), (0, 0, false));
        assert_eq!((b.cfg.rai, b.trace.time), (7, 0));
        let mut f = r;
        f.restrict(&full);
        assert_eq!(f, r);
    }

    #[test]
    fn read_only_and_unmapped_answer_decerr() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        let before = c;
        assert_eq!(
            Regs::write(&mut c, regmap::RC, 0, 0xF, &Params::DEFAULT).0,
            RESP_DECERR
        );
        assert_eq!(
            Regs::write(&mut c, 0x028, 0, 0xF, &Params::DEFAULT).0,
            RESP_DECERR
        );
        assert_eq!(c, before);
    }

    /// spec 6.1: decode uses addr[11:2]; bits 1:0 and bits above the 12-bit port are ignored.
    #[test]
    fn decode_ignores_low_bits_and_bits_above_the_port() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        // A write to 0x1006 is a write to word 0x004 (rai).
        let (resp, _) = Regs::write(
            &mut c,
            0x1000 | regmap::RAI | 0b10,
            0x1234_5678,
            0xF,
            &Params::DEFAULT,
        );
        assert_eq!(resp, RESP_OKAY);
        assert_eq!(c.rai, 0x1234_5678);
        // 0x1018 is word 0x018 (Rc), read-only: DECERR and no effect.
        let before = c;
        assert_eq!(
            Regs::write(&mut c, 0x1018, 0, 0xF, &Params::DEFAULT).0,
            RESP_DECERR
        );
        assert_eq!(c, before);
        // Reads alias the same way: 0xF01B reads Rc.
        let regs = Regs {
            cfg: c,
            ..Regs::reset(&p)
        };
        let mon = Monitors {
            rc: 0xCAFE,
            ..Monitors::default()
        };
        assert_eq!(
            regs.read(0xF000 | regmap::RC | 0b11, &mon, &p),
            (0xCAFE, RESP_OKAY)
        );
        assert_eq!(regs.read(0x1004, &mon, &p), (0x1234_5678, RESP_OKAY));
    }

    /// spec 6.2, 0x158: fields at [9:0], [26:16], [28]; the other bits read 0; byte lanes merge.
    #[test]
    fn rate_rules_word_fields_and_lanes() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        assert_eq!(c.word(regmap::RATE_RULES).unwrap(), 0x0000_03FF);
        assert_eq!(
            Regs::write(
                &mut c,
                regmap::RATE_RULES,
                0xFFFF_FFFF,
                0xF,
                &Params::DEFAULT
            )
            .0,
            RESP_OKAY
        );
        assert_eq!(
            (c.alpha_init, c.min_dec_fac, c.hai_mult),
            (1023, 2047, true)
        );
        assert_eq!(c.word(regmap::RATE_RULES).unwrap(), 0x17FF_03FF);
        // Lane 2 only: min_dec_fac[7:0] = 0x00, the rest kept.
        Regs::write(&mut c, regmap::RATE_RULES, 0, 0b0100, &Params::DEFAULT);
        assert_eq!(
            (c.alpha_init, c.min_dec_fac, c.hai_mult),
            (1023, 0x700, true)
        );
        // Lane 0 only: alpha_init[7:0].
        Regs::write(
            &mut c,
            regmap::RATE_RULES,
            0x0000_0012,
            0b0001,
            &Params::DEFAULT,
        );
        assert_eq!(c.alpha_init, 0x312);
        let regs = Regs {
            cfg: c,
            ..Regs::reset(&p)
        };
        let m = Monitors::default();
        assert_eq!(
            regs.read(regmap::RATE_RULES, &m, &p),
            (0x1700_0312, RESP_OKAY)
        );
        Regs::write(&mut c, regmap::RMAX, 0x1234_5678, 0b0011, &Params::DEFAULT);
        Regs::write(
            &mut c,
            regmap::RATE_FIRST_CNP,
            0x8765_4321,
            0xF,
            &Params::DEFAULT,
        );
        assert_eq!((c.rmax, c.rate_first_cnp), (0x5678, 0x8765_4321));
    }

    #[test]
    fn cnp_counter_clear_every_write_of_one() {
        let p = Params::DEFAULT;
        let mut c = Config::reset(&p);
        assert!(
            Regs::write(&mut c, regmap::ALPHA_CNP, 1 << 10, 0b0010, &Params::DEFAULT)
                .1
                .act
                .cnp_cnt_clear
        );
        assert!(
            !Regs::write(&mut c, regmap::ALPHA_CNP, 1 << 10, 0b0001, &Params::DEFAULT)
                .1
                .act
                .cnp_cnt_clear
        );
    }
}
