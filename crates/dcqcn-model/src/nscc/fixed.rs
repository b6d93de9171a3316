//! NSCC's per-flow arithmetic in fixed point, bit for bit as docs/spec-nscc.md sections 4.2-7
//! write it: the ACK process's execution of one feedback event on one flow's record.
//!
//! The formats: windows in Q24.8 bytes (`u32`), times in cycles of the block's clock, the delay
//! average in Q24.8 cycles, the accumulated increase in bytes² (40 bits, saturating). Every
//! intermediate is formed in `u64`/`i64` wide enough not to wrap (the spec states each width) and
//! then saturated or clamped as the spec says; the only modular quantities are `now`, `gbytes`
//! and `abytes`.
//!
//! What this module does not do: the engine around it (scan, picker, grants, the register file).
//! `execute` is the ACK process's function; the block calls it with the flow's memories.

use thiserror::Error;

use super::reference::{AckCase, AckOutcome, NsccParams};

/// The largest age a stamp reads (spec-nscc 6.1, 6.4): 2^26 − 1 cycles.
pub const AGE_MAX: u32 = (1 << 26) - 1;
/// The largest `inc` (40 bits).
pub const INC_MAX: u64 = (1 << 40) - 1;
/// The largest `rcv_cwnd_pend` (7 bits).
pub const PEND_MAX: u8 = 127;
/// The byte and RTT fields of the ACK port are 24 bits.
pub const EVENT_FIELD_MAX: u32 = (1 << 24) - 1;

/// The NSCC registers of spec-nscc 8.1 (the configuration the ACK process reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NsccRegs {
    /// `base_rtt` [23:0], cycles; 0 acts as 1.
    pub base_rtt: u32,
    /// `target` [23:0], cycles.
    pub target: u32,
    /// `mtu` [15:0], bytes; 0 acts as 1.
    pub mtu: u32,
    /// `max_wnd` [23:0], bytes.
    pub max_wnd: u32,
    /// `init_cwnd` [23:0], bytes; 0: `max_wnd`.
    pub init_cwnd: u32,
    /// `fi` [19:0], bytes.
    pub fi: u32,
    /// `alpha` [31:0], Q16.16 bytes per cycle.
    pub alpha: u32,
    /// `fi_scale` [23:0], Q8.16.
    pub fi_scale: u32,
    /// `eta` [23:0], Q16.8 bytes.
    pub eta: u32,
    /// `adjust_period` [23:0], cycles.
    pub adjust_period: u32,
    /// `adjust_bytes` [23:0], bytes.
    pub adjust_bytes: u32,
    /// `gamma` [8:0], Q1.8; above 256 acts as 256.
    pub gamma: u32,
    /// `ewma_shift` [3:0].
    pub ewma_shift: u32,
    /// `qa_gate` [3:0].
    pub qa_gate: u32,
    /// `qa_en`.
    pub qa_en: bool,
    /// `fi_delay` [15:0], cycles.
    pub fi_delay: u32,
    /// `qa_delay` [23:0], cycles; 0: never.
    pub qa_delay: u32,
    /// `enables.cc_en`: 0 freezes every flow's window (only inflight moves).
    pub cc_en: bool,
}

/// One register field: its name in spec-nscc 8.1 and its width.
struct Field {
    name: &'static str,
    bits: u32,
}

impl NsccRegs {
    /// Every field with its width, in the order of spec-nscc 8.1 (for the checks and messages).
    fn fields(&self) -> [(Field, u32); 17] {
        let f = |name, bits| Field { name, bits };
        [
            (f("base_rtt", 24), self.base_rtt),
            (f("target", 24), self.target),
            (f("mtu", 16), self.mtu),
            (f("max_wnd", 24), self.max_wnd),
            (f("init_cwnd", 24), self.init_cwnd),
            (f("fi", 20), self.fi),
            (f("alpha", 32), self.alpha),
            (f("fi_scale", 24), self.fi_scale),
            (f("eta", 24), self.eta),
            (f("adjust_period", 24), self.adjust_period),
            (f("adjust_bytes", 24), self.adjust_bytes),
            (f("gamma", 9), self.gamma),
            (f("ewma_shift", 4), self.ewma_shift),
            (f("qa_gate", 4), self.qa_gate),
            (f("fi_delay", 16), self.fi_delay),
            (f("qa_delay", 24), self.qa_delay),
            (f("qa_en", 1), u32::from(self.qa_en)),
        ]
    }

    /// Checks that every field fits its width (a register can hold nothing wider).
    pub fn validate(&self) -> Result<(), NsccRegsError> {
        for (field, value) in self.fields() {
            if field.bits < 32 && value >> field.bits != 0 {
                return Err(NsccRegsError::Width {
                    field: field.name,
                    value: u64::from(value),
                    bits: field.bits,
                });
            }
        }
        Ok(())
    }

    /// The registers for a network (spec-nscc 8.2): the UE defaults of the floating-point
    /// reference (`NsccParams::with`) turned into cycles of `clk_hz` and the fields' formats, each
    /// rounded to nearest. The reset values are `derive(156.25e6, 1.25e9, 12e-6, 4096, true)`.
    pub fn derive(
        clk_hz: f64,
        link_bytes_per_s: f64,
        base_rtt_s: f64,
        mtu: u32,
        trimming: bool,
    ) -> Result<NsccRegs, NsccRegsError> {
        if !(clk_hz.is_finite() && clk_hz > 0.0) {
            return Err(NsccRegsError::Clock(clk_hz));
        }
        if (base_rtt_s * clk_hz).round() == 0.0 {
            return Err(NsccRegsError::ZeroBaseRtt(base_rtt_s));
        }
        let p = NsccParams::with(link_bytes_per_s * 8.0, base_rtt_s, f64::from(mtu), trimming)
            .map_err(NsccRegsError::Params)?;
        let cycles = |s: f64| s * clk_hz;
        let round = |name: &'static str, bits: u32, x: f64| -> Result<u32, NsccRegsError> {
            let r = x.round();
            if !(r >= 0.0 && r < 2f64.powi(bits as i32)) {
                return Err(NsccRegsError::Range {
                    field: name,
                    value: x,
                    bits,
                });
            }
            Ok(r as u32)
        };
        let base_rtt = round("base_rtt", 24, cycles(p.config_base_rtt))?;
        let regs = NsccRegs {
            base_rtt,
            target: round("target", 24, cycles(p.target_qdelay))?,
            mtu: round("mtu", 16, p.mtu)?,
            max_wnd: round("max_wnd", 24, p.max_wnd)?,
            init_cwnd: 0,
            fi: round("fi", 20, p.fi)?,
            alpha: round("alpha", 32, p.alpha / clk_hz * 65536.0)?,
            fi_scale: round("fi_scale", 24, p.fi_scale * 65536.0)?,
            eta: round("eta", 24, p.eta * 256.0)?,
            adjust_period: round("adjust_period", 24, cycles(p.adjust_period_threshold))?,
            adjust_bytes: round("adjust_bytes", 24, p.adjust_bytes_threshold)?,
            gamma: round("gamma", 9, p.gamma * 256.0)?,
            // The reference's weight 0.0125 lies between 2^-6 and 2^-7; 2^-6 is nearer.
            ewma_shift: 6,
            qa_gate: p.qa_gate,
            qa_en: !p.disable_quick_adapt,
            fi_delay: round("fi_delay", 16, cycles(p.fast_increase_delay))?,
            qa_delay: if p.qa_threshold.is_finite() {
                round("qa_delay", 24, cycles(p.qa_threshold))?
            } else {
                0
            },
            cc_en: true,
        };
        if regs.mtu > regs.max_wnd {
            return Err(NsccRegsError::MtuAboveMaxWnd {
                mtu: regs.mtu,
                max_wnd: regs.max_wnd,
            });
        }
        Ok(regs)
    }

    /// `max(cfg_mtu, 1)`.
    pub fn mtu_eff(&self) -> u32 {
        self.mtu.max(1)
    }
}

impl Default for NsccRegs {
    /// The reset values of spec-nscc 8.1.
    fn default() -> NsccRegs {
        NsccRegs {
            base_rtt: 1875,
            target: 1406,
            mtu: 4096,
            max_wnd: 22_500,
            init_cwnd: 0,
            fi: 2048,
            alpha: 57_266,
            fi_scale: 1638,
            eta: 15_729,
            adjust_period: 1875,
            adjust_bytes: 32_768,
            gamma: 205,
            ewma_shift: 6,
            qa_gate: 3,
            qa_en: true,
            fi_delay: 156,
            qa_delay: 0,
            cc_en: true,
        }
    }
}

/// Why a register set was refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NsccRegsError {
    #[error("nscc register {field}: {value} does not fit {bits} bits")]
    Width {
        field: &'static str,
        value: u64,
        bits: u32,
    },
    #[error("nscc register {field}: {value} is outside 0..2^{bits} after rounding")]
    Range {
        field: &'static str,
        value: f64,
        bits: u32,
    },
    #[error("clock {0} Hz: must be finite and positive")]
    Clock(f64),
    #[error("base RTT {0} s rounds to 0 cycles")]
    ZeroBaseRtt(f64),
    #[error("mtu {mtu} B is above max_wnd {max_wnd} B")]
    MtuAboveMaxWnd { mtu: u32, max_wnd: u32 },
    #[error(transparent)]
    Params(#[from] super::reference::NsccParamError),
}

/// The record of spec-nscc 4.3 plus the other memories the ACK process writes: `CWND_MEM`,
/// `ABYTES_MEM`, `NSCC_TIME_MEM`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NsccFlow {
    /// `cwnd`, Q24.8 bytes.
    pub cwnd: u32,
    /// Bytes acknowledged, NACKed or lost, mod 2^32.
    pub abytes: u32,
    /// `saved`, Q24.8 bytes; 0: none.
    pub saved: u32,
    /// 24 bits, cycles.
    pub base_rtt: u32,
    /// 24 bits, bytes.
    pub max_wnd: u32,
    /// Q24.8 cycles.
    pub avg: u32,
    pub achieved: u32,
    pub received: u32,
    pub fi_count: u32,
    /// 40 bits, bytes².
    pub inc: u64,
    pub to_ignore: u32,
    pub ignored: u32,
    pub increase: bool,
    pub trigger_qa: bool,
    pub qa_armed: bool,
    /// `now` when eta was last added.
    pub t_adj: u32,
    /// `now` at the last multiplicative decrease.
    pub t_dec: u32,
    /// `now` at the start of the quick-adapt period.
    pub t_qa: u32,
}

impl NsccFlow {
    /// The init record (spec-nscc 7) written at `now`.
    pub fn init(r: &NsccRegs, now: u32) -> NsccFlow {
        let mtu = r.mtu_eff();
        let ceiling = r.max_wnd.max(mtu);
        let want = if r.init_cwnd == 0 {
            r.max_wnd
        } else {
            r.init_cwnd
        };
        NsccFlow {
            cwnd: want.clamp(mtu, ceiling) << 8,
            base_rtt: r.base_rtt.max(1),
            max_wnd: r.max_wnd,
            t_adj: now,
            t_dec: now,
            t_qa: now,
            ..NsccFlow::default()
        }
    }

    /// `inflight = (gbytes − abytes) mod 2^32`, signed.
    pub fn inflight(&self, gbytes: u32) -> i32 {
        gbytes.wrapping_sub(self.abytes) as i32
    }
}

/// The kind field of the ACK port (spec-nscc 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Ack = 0,
    TrimmedNack = 1,
    OtherNack = 2,
    Loss = 3,
}

impl EventKind {
    /// The 2-bit port code.
    pub fn from_code(code: u8) -> Option<EventKind> {
        match code {
            0 => Some(EventKind::Ack),
            1 => Some(EventKind::TrimmedNack),
            2 => Some(EventKind::OtherNack),
            3 => Some(EventKind::Loss),
            _ => None,
        }
    }
}

/// One feedback event, as the ACK port carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    pub kind: EventKind,
    /// 24 bits.
    pub bytes: u32,
    pub ecn: bool,
    /// The RTT sample in cycles (24 bits); `None` when the port's valid bit is 0.
    pub rtt: Option<u32>,
    /// 7 bits.
    pub pend: u8,
    pub rc: bool,
}

/// Why an event does not fit the port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum EventError {
    #[error("ack {field} = {value}: the port field is {bits} bits")]
    Width {
        field: &'static str,
        value: u32,
        bits: u32,
    },
}

impl Event {
    /// Checks every field against its port width.
    pub fn validate(&self) -> Result<(), EventError> {
        let check = |field, value: u32, bits: u32| {
            if value >> bits != 0 {
                Err(EventError::Width { field, value, bits })
            } else {
                Ok(())
            }
        };
        check("bytes", self.bytes, 24)?;
        check("rtt", self.rtt.unwrap_or(0), 24)?;
        check("pend", u32::from(self.pend), 7)
    }
}

/// `1/X ≈ RECIP[m] · 2^−(16 + e)` (spec-nscc 6.1): returns (`RECIP[m]`, `e`) for `0 < x < 2^40`.
pub fn recip(x: u64) -> (u64, u32) {
    debug_assert!(x > 0 && x < 1 << 40);
    let e = 63 - x.leading_zeros();
    let m = if e >= 8 { x >> (e - 8) } else { x << (8 - e) } & 255;
    ((1u64 << 24) / (256 + m), e)
}

/// `sat_N(x)`.
fn sat(x: u64, bits: u32) -> u64 {
    x.min((1u64 << bits) - 1)
}

/// What happened to the stamps in one event: set to `now`, or clamped (step 9).
#[derive(Default)]
struct StampSet {
    adj: bool,
    dec: bool,
    qa: bool,
}

/// One execution's inputs as read (spec-nscc 6.1: every name without a prime), shared by the
/// rules of each event kind.
struct Exec<'a> {
    /// The flow's memories as read.
    f: &'a NsccFlow,
    gbytes: u32,
    old: bool,
    now: u32,
    ev: &'a Event,
    r: &'a NsccRegs,
    line_win: u32,
}

/// The ACK process's execution of `ev` on one flow (spec-nscc 5, 6): from the flow's memories as
/// read (`f`, its `gbytes`, its `old` bit) at `now`, the memories it writes. `line_win` is the
/// block's `LINE_WIN`. The outcome names the rule taken, in the floating-point reference's terms,
/// so that the two can be held to each other.
pub fn execute(
    f: &NsccFlow,
    gbytes: u32,
    old: bool,
    now: u32,
    ev: &Event,
    r: &NsccRegs,
    line_win: u32,
) -> (NsccFlow, AckOutcome) {
    let x = Exec {
        f,
        gbytes,
        old,
        now,
        ev,
        r,
        line_win,
    };
    let mut s = *f;
    let mut out = AckOutcome::default();
    let mut set = StampSet::default();
    s.abytes = f.abytes.wrapping_add(ev.bytes);
    if r.cc_en {
        match ev.kind {
            EventKind::Ack => x.ack(&mut s, &mut set, &mut out),
            EventKind::TrimmedNack => x.trimmed_nack(&mut s, &mut set),
            EventKind::OtherNack => {
                if let Some(rtt) = ev.rtt {
                    base_rtt_sample(&mut s, rtt, line_win);
                }
            }
            EventKind::Loss => {
                x.shrink_by_packet(&mut s);
                s.ignored = sat(u64::from(s.ignored) + u64::from(ev.bytes), 32) as u32;
            }
        }
    }
    // Step 9: stamps set by a rule read `now`; every other stamp is clamped to AGE_MAX.
    let keep = |was_set: bool, stamp: u32| {
        if was_set {
            now
        } else {
            now.wrapping_sub(x.age(stamp))
        }
    };
    s.t_adj = keep(set.adj, f.t_adj);
    s.t_dec = keep(set.dec, f.t_dec);
    s.t_qa = keep(set.qa, f.t_qa);
    (s, out)
}

/// Step 4: a smaller sample lowers `base_rtt` and rescales `max_wnd` to 1.5 × line × sample.
fn base_rtt_sample(s: &mut NsccFlow, rtt: u32, line_win: u32) {
    if rtt < s.base_rtt {
        s.base_rtt = rtt;
        s.max_wnd = sat((3 * u64::from(line_win) * u64::from(rtt)) >> 11, 24) as u32;
    }
}

/// Step 5: the delay average moves 2^−w of the way to the sample, rounded half up.
fn average(s: &mut NsccFlow, delay_cycles: u32, w: u32) {
    let diff = (i64::from(delay_cycles) << 8) - i64::from(s.avg);
    let half = if w == 0 { 0 } else { 1i64 << (w - 1) };
    s.avg = (i64::from(s.avg) + ((diff + half) >> w)) as u32;
}

/// What quick adapt did (step 6).
#[derive(PartialEq)]
enum Qa {
    No,
    Ignored,
    Fired,
}

impl Exec<'_> {
    /// `age(s)` of spec-nscc 6.1.
    fn age(&self, stamp: u32) -> u32 {
        if self.old {
            AGE_MAX
        } else {
            self.now.wrapping_sub(stamp).min(AGE_MAX)
        }
    }

    fn mtu(&self) -> u64 {
        u64::from(self.r.mtu_eff())
    }

    /// A trimmed NACK's or a loss's `C = max(C − n · 256, mtu · 256)` (spec-nscc 6.3).
    fn shrink_by_packet(&self, s: &mut NsccFlow) {
        let n = u64::from(self.ev.bytes);
        s.cwnd = (u64::from(s.cwnd).saturating_sub(n << 8)).max(self.mtu() << 8) as u32;
    }

    /// Step 6. `loss`: a trimmed NACK's call (fires without a delay test); `delay`: the ACK's
    /// delay.
    fn quick_adapt(
        &self,
        s: &mut NsccFlow,
        ecn: bool,
        loss: bool,
        delay: u32,
        set: &mut StampSet,
    ) -> Qa {
        let r = self.r;
        if !r.qa_en {
            return Qa::No;
        }
        let mut result = Qa::No;
        if s.ignored < s.to_ignore && ecn {
            result = Qa::Ignored;
        } else if !s.qa_armed
            || u64::from(self.age(self.f.t_qa)) >= u64::from(s.base_rtt) + u64::from(r.target)
        {
            let mtu = r.mtu_eff();
            let maxw = s.max_wnd.max(mtu);
            let fire = s.qa_armed
                && (s.trigger_qa || loss || (r.qa_delay != 0 && delay > r.qa_delay))
                && (u64::from(s.achieved) << r.qa_gate) < u64::from(maxw);
            if fire {
                s.cwnd = s.achieved.max(mtu) << 8;
                s.to_ignore = s.inflight(self.gbytes).max(0) as u32;
                s.ignored = 0;
                s.trigger_qa = false;
                result = Qa::Fired;
            }
            s.achieved = 0;
            set.qa = true;
            s.qa_armed = true;
        }
        if result != Qa::No {
            s.inc = 0;
            s.received = 0;
        }
        result
    }

    /// Spec-nscc 6.2: an ACK.
    fn ack(&self, s: &mut NsccFlow, set: &mut StampSet, out: &mut AckOutcome) {
        let (f, ev, r) = (self.f, self.ev, self.r);
        let n = u64::from(ev.bytes);
        let mtu = self.mtu();
        // Step 1.
        let infl = s.inflight(self.gbytes);
        s.ignored = sat(u64::from(f.ignored) + n, 32) as u32;
        s.received = sat(u64::from(f.received) + n, 32) as u32;
        s.achieved = sat(u64::from(f.achieved) + n, 32) as u32;
        // Step 2.
        let rlim = ev.pend > 0;
        if rlim {
            if s.saved == 0 {
                s.saved = s.cwnd;
            }
            let dec = (u64::from(ev.pend) * n) >> 7;
            let c = i64::from(s.cwnd).min(i64::from(infl) << 8) - ((dec as i64) << 8);
            s.cwnd = c.max((mtu as i64) << 8) as u32;
            out.penalty = true;
        } else if ev.rc && s.saved != 0 {
            s.cwnd = s.saved;
            s.saved = 0;
            out.restored = true;
        }
        // Step 3.
        let Some(rtt) = ev.rtt else {
            return;
        };
        out.rtt_valid = true;
        // Step 4.
        base_rtt_sample(s, rtt, self.line_win);
        let delay = rtt - s.base_rtt;
        // Step 5.
        average(s, delay, r.ewma_shift);
        // Step 6.
        match self.quick_adapt(s, ev.ecn, false, delay, set) {
            Qa::Fired => {
                out.qa_fired = true;
                return;
            }
            Qa::Ignored => {
                out.qa_ignored = true;
                return;
            }
            Qa::No => {}
        }
        let maxw = u64::from(s.max_wnd).max(mtu);
        // Step 7.
        let tgt = r.target;
        out.case = Some(match (ev.ecn, delay >= tgt) {
            (false, _) if rlim => AckCase::ReceiverLimited,
            (false, true) => {
                s.inc = (s.inc + u64::from(r.fi) * n).min(INC_MAX);
                AckCase::FairIncrease
            }
            (false, false) => {
                let mut fast = false;
                if delay < r.fi_delay {
                    s.fi_count = sat(u64::from(s.fi_count) + n, 32) as u32;
                    if (u64::from(s.fi_count) << 8) > u64::from(s.cwnd) || s.increase {
                        let grown = u64::from(s.cwnd) + ((n * u64::from(r.fi_scale)) >> 8);
                        s.cwnd = grown.min(maxw << 8) as u32;
                        s.increase = true;
                        fast = true;
                    }
                } else {
                    s.fi_count = 0;
                }
                if fast {
                    AckCase::FastIncrease
                } else {
                    s.increase = false;
                    let p = sat((u64::from(r.alpha) * u64::from(tgt - delay)) >> 16, 24);
                    s.inc = (s.inc + p * n).min(INC_MAX);
                    AckCase::ProportionalIncrease
                }
            }
            (true, true) => {
                s.increase = false;
                s.fi_count = 0;
                let tgt_q8 = u64::from(tgt) << 8;
                let avg = u64::from(s.avg);
                let applied = avg > tgt_q8 && self.age(f.t_dec) > s.base_rtt;
                if applied {
                    let d = avg - tgt_q8;
                    let (rc, e) = recip(avg);
                    let frac = ((d * rc) >> e).min(65_536);
                    let red = ((u64::from(r.gamma.min(256)) * frac) >> 8).min(32_768);
                    let c = u64::from(s.cwnd);
                    s.cwnd = (c - ((c * red) >> 16)).max(mtu << 8) as u32;
                    set.dec = true;
                }
                AckCase::MultiplicativeDecrease { applied }
            }
            (true, false) => AckCase::Hold,
        });
        // Step 8.
        let period = self.age(f.t_adj) >= r.adjust_period;
        if period || s.received > r.adjust_bytes {
            let x = u64::from(s.cwnd >> 8).max(1);
            let (rc, e) = recip(x);
            let q = sat((s.inc * rc) >> (8 + e), 32);
            let eta = if period { u64::from(r.eta) } else { 0 };
            s.cwnd = (u64::from(s.cwnd) + q + eta).min(maxw << 8) as u32;
            s.inc = 0;
            s.received = 0;
            set.adj |= period;
            out.adjusted = true;
            out.eta_added = period;
        }
    }

    /// Spec-nscc 6.3: a trimmed NACK.
    fn trimmed_nack(&self, s: &mut NsccFlow, set: &mut StampSet) {
        let n = u64::from(self.ev.bytes);
        if let Some(rtt) = self.ev.rtt {
            base_rtt_sample(s, rtt, self.line_win);
        }
        average(s, self.r.base_rtt.max(1), self.r.ewma_shift);
        s.ignored = sat(u64::from(self.f.ignored) + n, 32) as u32;
        s.trigger_qa = true;
        if self.quick_adapt(s, true, true, 0, set) == Qa::No {
            self.shrink_by_packet(s);
        }
    }
}

/// `win_ok` (spec-nscc 4.2): one MTU more fits the window.
pub fn win_ok(gbytes: u32, abytes: u32, cwnd: u32, mtu_eff: u32) -> bool {
    let infl = i64::from(gbytes.wrapping_sub(abytes) as i32);
    (infl << 8) + (i64::from(mtu_eff) << 8) <= i64::from(cwnd)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LW: u32 = 8192; // LINE_WIN at the default parameters

    fn ack(bytes: u32, ecn: bool, rtt: Option<u32>) -> Event {
        Event {
            kind: EventKind::Ack,
            bytes,
            ecn,
            rtt,
            pend: 0,
            rc: false,
        }
    }

    #[test]
    fn reset_values_are_the_derived_defaults() {
        let d = NsccRegs::derive(156.25e6, 1.25e9, 12e-6, 4096, true).unwrap();
        assert_eq!(d, NsccRegs::default());
        d.validate().unwrap();
        // 100 Gb/s at 1 GHz, 6 µs (seed 003's example): BDP 75,000 B, MaxWnd 112,500 B,
        // fi = 10,240 B, eta = 307.2 B, fi_scale 0.125, alpha × target = 3,072 B.
        let p = NsccRegs::derive(1e9, 12.5e9, 6e-6, 4096, true).unwrap();
        assert_eq!((p.base_rtt, p.target, p.max_wnd), (6000, 4500, 112_500));
        assert_eq!((p.fi, p.eta, p.fi_scale), (10_240, 78_643, 8192));
        assert_eq!(
            (u64::from(p.alpha) * u64::from(p.target) + 32_768) >> 16,
            3072
        );
        let no_trim = NsccRegs::derive(1e9, 12.5e9, 6e-6, 4096, false).unwrap();
        assert_eq!((no_trim.target, no_trim.qa_delay), (6000, 24_000));
    }

    #[test]
    fn bad_networks_are_named() {
        assert_eq!(
            NsccRegs::derive(156.25e6, 1.25e9, 1e-12, 64, true),
            Err(NsccRegsError::ZeroBaseRtt(1e-12))
        );
        // 1 Gb/s × 1 µs: MaxWnd 187.5 B is below a 4,096-byte MTU.
        assert!(matches!(
            NsccRegs::derive(156.25e6, 1.25e8, 1e-6, 4096, true),
            Err(NsccRegsError::Params(_))
        ));
        // 400 Gb/s × 1 ms: MaxWnd 75 MB does not fit 24 bits.
        let e = NsccRegs::derive(1e9, 50e9, 1e-3, 4096, true).unwrap_err();
        assert!(e.to_string().contains("max_wnd"), "{e}");
        assert_eq!(
            NsccRegs::derive(0.0, 1.25e9, 12e-6, 4096, true),
            Err(NsccRegsError::Clock(0.0))
        );
        let wide = NsccRegs {
            gamma: 512,
            ..NsccRegs::default()
        };
        assert_eq!(
            wide.validate().unwrap_err().to_string(),
            "nscc register gamma: 512 does not fit 9 bits"
        );
        let bad = Event {
            pend: 128,
            ..ack(1, false, None)
        };
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "ack pend = 128: the port field is 7 bits"
        );
    }

    /// The reciprocal is within −1/32,768 and +1/256 of 1/X for every X below 2^20, and at the
    /// edges of the 40-bit range (spec-nscc 6.1).
    #[test]
    fn reciprocal_error_is_bounded() {
        let check = |x: u64| {
            let (r, e) = recip(x);
            let ratio = (r as f64) * (x as f64) / 2f64.powi(16 + e as i32);
            assert!(
                (1.0 - 1.0 / 32_768.0..1.0 + 1.0 / 256.0).contains(&ratio),
                "x = {x}: ratio {ratio}"
            );
        };
        for x in 1..1u64 << 20 {
            check(x);
        }
        for x in [
            (1u64 << 40) - 1,
            1 << 39,
            (1 << 39) + (1 << 31) - 1,
            3 << 30,
        ] {
            check(x);
        }
        assert_eq!(recip(1), (65_536, 0));
        assert_eq!(recip(511), (32_832, 8));
    }

    #[test]
    fn the_published_penalty() {
        // UE's example: 4,096 newly received bytes with rcv_cwnd_pend 64 take 2,048 bytes off a
        // window of 75,776 bytes with more in flight.
        let r = NsccRegs::default();
        let f = NsccFlow {
            cwnd: 75_776 << 8,
            ..NsccFlow::init(&r, 0)
        };
        let ev = Event {
            pend: 64,
            ..ack(4096, false, None)
        };
        let (g, out) = execute(&f, 200_000, false, 10, &ev, &r, LW);
        assert_eq!(g.cwnd, 73_728 << 8);
        assert_eq!(g.saved, 75_776 << 8);
        assert!(out.penalty && !out.rtt_valid);
        // The restore flag puts it back, once.
        let ev = Event {
            rc: true,
            ..ack(4096, false, None)
        };
        let (h, out) = execute(&g, 200_000, false, 20, &ev, &r, LW);
        assert!(out.restored);
        assert_eq!((h.cwnd, h.saved), (75_776 << 8, 0));
        // With less in flight than the window, the penalty starts from inflight; never below an MTU.
        let (k, _) = execute(
            &f,
            8192,
            false,
            10,
            &Event {
                pend: 127,
                ..ack(4096, false, None)
            },
            &r,
            LW,
        );
        assert_eq!(k.cwnd, 4096 << 8);
    }

    #[test]
    fn fair_increase_then_adjustment_with_eta() {
        let r = NsccRegs::default();
        let f = NsccFlow {
            cwnd: 16_384 << 8,
            ..NsccFlow::init(&r, 0)
        };
        // An unmarked ACK at the target delay: inc = fi × n; the period has run (age 2,000 ≥
        // 1,875), so the adjustment applies inc / window and eta.
        let rtt = r.base_rtt + r.target;
        let (g, out) = execute(
            &f,
            65_536,
            false,
            2000,
            &ack(4096, false, Some(rtt)),
            &r,
            LW,
        );
        assert_eq!(out.case, Some(AckCase::FairIncrease));
        assert!(out.adjusted && out.eta_added);
        // inc = 2,048 × 4,096 = 8,388,608 bytes²; / 16,384 B = 512 B; RECIP[0] at e = 14 is exact.
        assert_eq!(g.cwnd, (16_384 << 8) + (512 << 8) + r.eta);
        assert_eq!((g.inc, g.received, g.t_adj), (0, 0, 2000));
        // The average moved 1/64 of the way to the delay, rounded half up.
        assert_eq!(g.avg, ((1406 << 8) + 32) / 64);
    }

    /// The average rounds half up: with w = 9, a 1-cycle sample from 0 moves it by 256/512 of a
    /// Q24.8 unit, which rounds to 1 (rounding down would leave it at 0 and bias it low).
    #[test]
    fn the_delay_average_rounds_half_up() {
        let r = NsccRegs {
            ewma_shift: 9,
            ..NsccRegs::default()
        };
        let f = NsccFlow::init(&r, 0);
        let (g, _) = execute(
            &f,
            0,
            false,
            1,
            &ack(0, false, Some(r.base_rtt + 1)),
            &r,
            LW,
        );
        assert_eq!(g.avg, 1);
        let (g, _) = execute(&g, 0, false, 2, &ack(0, false, Some(r.base_rtt)), &r, LW);
        assert_eq!(g.avg, 1); // −1/512 rounds to 0
        let r0 = NsccRegs {
            ewma_shift: 0,
            ..NsccRegs::default()
        };
        let (h, _) = execute(
            &g,
            0,
            false,
            3,
            &ack(0, false, Some(r.base_rtt + 77)),
            &r0,
            LW,
        );
        assert_eq!(h.avg, 77 << 8); // w = 0: the last sample
    }

    #[test]
    fn decrease_once_per_base_rtt_and_by_at_most_half() {
        let r = NsccRegs::default();
        let f = NsccFlow {
            cwnd: 20_000 << 8,
            avg: 2812 << 8, // twice the target: d / avg = 1/2, red = 0.8 × 1/2
            t_adj: 1000,    // no adjustment in these ACKs
            ..NsccFlow::init(&r, 0)
        };
        let marked = ack(4096, true, Some(r.base_rtt + 3000));
        // Inside the first base RTT: no decrease.
        let (g, out) = execute(&f, 100_000, false, 1000, &marked, &r, LW);
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: false })
        );
        assert_eq!(g.cwnd, f.cwnd);
        // Exactly one base RTT after the last decrease is still inside it (strictly greater).
        let (_, out) = execute(&f, 100_000, false, 1875, &marked, &r, LW);
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: false })
        );
        // After it: the window loses gamma × frac of itself.
        let (g, out) = execute(&f, 100_000, false, 1876, &marked, &r, LW);
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: true })
        );
        let avg = u64::from(g.avg);
        let (rc, e) = recip(avg);
        let frac = (((avg - (1406 << 8)) * rc) >> e).min(65_536);
        let red = ((205 * frac) >> 8).min(32_768);
        let c = u64::from(f.cwnd);
        assert_eq!(u64::from(g.cwnd), c - ((c * red) >> 16));
        assert_eq!(g.t_dec, 1876);
        // gamma at its ceiling and an average far above target: at most half.
        let r1 = NsccRegs { gamma: 511, ..r };
        let far = NsccFlow { avg: 1 << 30, ..f };
        let (h, _) = execute(&far, 100_000, false, 1876, &marked, &r1, LW);
        assert_eq!(h.cwnd, 10_000 << 8);
    }

    #[test]
    fn quick_adapt_fires_after_a_trim_and_then_ignores() {
        let r = NsccRegs::default();
        let mut f = NsccFlow::init(&r, 0);
        f.cwnd = 20_000 << 8;
        // The first ACK only arms the period.
        let rtt = Some(r.base_rtt);
        let (g, out) = execute(&f, 40_000, false, 10, &ack(1000, false, rtt), &r, LW);
        assert!(g.qa_armed && !out.qa_fired);
        assert_eq!((g.t_qa, g.achieved), (10, 0));
        // A trimmed NACK inside the period: trigger armed, window less the packet.
        let nack = Event {
            kind: EventKind::TrimmedNack,
            ..ack(4096, false, None)
        };
        let (h, _) = execute(&g, 40_000, false, 100, &nack, &r, LW);
        assert!(h.trigger_qa);
        assert_eq!(h.cwnd, g.cwnd - (4096 << 8));
        // The first ACK after the period (1,875 + 1,406 cycles) fires: the window becomes what
        // the period delivered, floored at an MTU; marked ACKs are then ignored.
        let (k, out) = execute(&h, 40_000, false, 10 + 3281, &ack(500, false, rtt), &r, LW);
        assert!(out.qa_fired);
        assert_eq!(k.cwnd, 4096 << 8);
        assert_eq!(k.to_ignore, k.inflight(40_000) as u32);
        let (m, out) = execute(&k, 40_000, false, 3300, &ack(100, true, rtt), &r, LW);
        assert!(out.qa_ignored);
        assert_eq!(m.cwnd, k.cwnd);
    }

    #[test]
    fn stamps_are_clamped_and_old_reads_long_ago() {
        let r = NsccRegs::default();
        let f = NsccFlow::init(&r, 0);
        // 2^27 cycles later, every stamp is written AGE_MAX in the past.
        let now = 1u32 << 27;
        let (g, _) = execute(&f, 0, false, now, &ack(0, false, None), &r, LW);
        assert_eq!(
            (g.t_adj, g.t_dec, g.t_qa),
            (now - AGE_MAX, now - AGE_MAX, now - AGE_MAX)
        );
        // With `old`, a stamp that looks young reads AGE_MAX: the decrease is allowed.
        let young = NsccFlow {
            cwnd: 20_000 << 8,
            avg: 1 << 20,
            t_dec: now - 5,
            ..f
        };
        let marked = ack(4096, true, Some(r.base_rtt + 3000));
        let (_, out) = execute(&young, 100_000, false, now, &marked, &r, LW);
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: false })
        );
        let (h, out) = execute(&young, 100_000, true, now, &marked, &r, LW);
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: true })
        );
        assert_eq!((h.t_dec, h.t_adj), (now, now));
    }

    #[test]
    fn loss_other_nack_and_a_frozen_window() {
        let r = NsccRegs::default();
        let f = NsccFlow::init(&r, 0);
        let loss = Event {
            kind: EventKind::Loss,
            ..ack(4096, false, None)
        };
        let (g, _) = execute(&f, 10_000, false, 5, &loss, &r, LW);
        assert_eq!(
            (g.cwnd, g.abytes, g.ignored),
            (f.cwnd - (4096 << 8), 4096, 4096)
        );
        // Below an MTU the floor holds.
        let mut h = g;
        for now in 6..12 {
            h = execute(&h, 10_000, false, now, &loss, &r, LW).0;
        }
        assert_eq!(h.cwnd, 4096 << 8);
        // Another NACK lowers the base RTT and rescales max_wnd: 1.5 × 8 B/cycle × 1,000 cycles.
        let other = Event {
            kind: EventKind::OtherNack,
            ..ack(100, false, Some(1000))
        };
        let (k, _) = execute(&f, 10_000, false, 5, &other, &r, LW);
        assert_eq!(
            (k.base_rtt, k.max_wnd, k.cwnd, k.abytes),
            (1000, 12_000, f.cwnd, 100)
        );
        // cc_en = 0: only abytes moves (and the stamps are clamped).
        let frozen = NsccRegs { cc_en: false, ..r };
        let (m, _) = execute(&f, 10_000, false, 5, &loss, &frozen, LW);
        assert_eq!(m, NsccFlow { abytes: 4096, ..f });
    }

    #[test]
    fn init_record_and_send_test() {
        let r = NsccRegs {
            mtu: 0,
            base_rtt: 0,
            init_cwnd: 99,
            max_wnd: 50,
            ..NsccRegs::default()
        };
        // mtu 0 acts as 1; the init window is clamped to the ceiling max(max_wnd, mtu) = 50.
        let f = NsccFlow::init(&r, 7);
        assert_eq!((f.cwnd, f.base_rtt, f.t_qa), (50 << 8, 1, 7));
        // inflight + MTU ≤ cwnd, in Q24.8, with inflight signed.
        assert!(win_ok(46, 0, 50 << 8, 4));
        assert!(!win_ok(47, 0, 50 << 8, 4));
        assert!(win_ok(0, 1000, 1 << 8, 4)); // inflight −1000
        assert!(win_ok(0x8000_0000, 0, 1 << 8, 1)); // inflight −2^31
        assert!(!win_ok(0x7FFF_FFFF, 0, u32::MAX, 1)); // inflight 2^31 − 1
    }
}
