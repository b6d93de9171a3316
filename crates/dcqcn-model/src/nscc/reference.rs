//! Floating-point reference of the NSCC sender (UE 1.0 section 3.6.13): one flow's congestion
//! window, driven by sends, ACKs, NACKs and inferred losses.
//!
//! This is the independent rendering the fixed-point NSCC engine is checked against. It follows
//! the order of operations of the UE pseudocode (3.6.13.5 `NSCC.OnACK`, `OnNACK`,
//! `OnInferredLoss`, `OnSend`, `CanSend`, `AckRequest`; 3.6.13.6 the internal functions) in `f64`,
//! with every quantity in bytes or seconds. It was written from the restated facts in the issue-30
//! notes, not from any implementation; where the specification leaves a choice open (the delay
//! average, the tolerance of "delay ≈ 0") the choice is a parameter here and its default is the
//! one UEC's simulator makes.
//!
//! Floating-point departures from the integer operations the pseudocode writes: the receiver
//! penalty `(pend × newly) >> 7` is `pend × newly / 128` without the floor, and the QA gate
//! `max_wnd >> qa_gate` is `max_wnd / 2^qa_gate`. A fixed-point implementation that floors them
//! differs by less than one byte per operation.
//!
//! Times (`now_s`) are seconds on any clock that never goes backwards; the reference does not
//! check it.

use thiserror::Error;

/// Base_BDP, the reference bandwidth-delay product the increase constants are scaled by:
/// 100 Gb/s × 12 µs = 150,000 bytes (UE 3.6.13.3; the same constant in UEC's simulator).
pub const BASE_BDP_BYTES: f64 = 150_000.0;
/// The reference round trip behind [`BASE_BDP_BYTES`] and `scaling_b`: 12 µs.
pub const REFERENCE_RTT_S: f64 = 12e-6;
/// The MTU the constructor assumes, bytes (UEC's simulator: 4096-byte payloads).
pub const DEFAULT_MTU_BYTES: f64 = 4096.0;
/// The largest Rcv_Cwnd_Pend: the ACK_CC field is 7 bits (UE 3.6.13.2).
pub const RCV_CWND_PEND_MAX: u8 = 127;

/// Why a parameter set cannot be built.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum NsccParamError {
    #[error("link speed {0} b/s: must be finite and positive")]
    LinkSpeed(f64),
    #[error("config_base_rtt {0} s: must be finite and positive")]
    BaseRtt(f64),
    #[error("MTU {0} B: must be finite and positive")]
    Mtu(f64),
    #[error(
        "MaxWnd {max_wnd} B is below one MTU ({mtu} B): the link speed or base RTT is too small"
    )]
    WindowBelowMtu { max_wnd: f64, mtu: f64 },
}

/// Why an event was refused (the flow's state is unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum NsccInputError {
    #[error("rcv_cwnd_pend = {0}: the ACK_CC field is 7 bits, 0..=127")]
    Pend(u8),
    #[error("{field} = {value}: must be finite and not negative")]
    Value { field: &'static str, value: f64 },
}

/// The NSCC configuration (UE 3.6.13.3, Table 3-76), with the default derivations.
///
/// [`NsccParams::new`] and [`NsccParams::with`] derive every constant from the link speed, the
/// configured base RTT, the MTU and whether switches trim. The fields are public so that a test
/// can override one constant (say `delay_ewma = 1.0` to make the average the last sample); the
/// derived ones are not recomputed when an input field is changed afterwards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NsccParams {
    /// MTU (the spec's nominal packet size), bytes: the window floor, the send rule's packet, the
    /// unit of `fi`, `eta`, `alpha` and the adjust byte threshold.
    pub mtu: f64,
    /// min(sender, receiver) link speed, bytes/s. Also used when a smaller base RTT rescales
    /// `max_wnd` (the spec names the sender's speed there; one speed serves both here).
    pub link_bytes_per_s: f64,
    /// `config_base_rtt`, seconds: the unloaded RTT of the longest path.
    pub config_base_rtt: f64,
    /// BDP = link speed × config_base_rtt, bytes.
    pub bdp: f64,
    /// MaxWnd = 1.5 × BDP, bytes: the initial window and the ceiling.
    pub max_wnd: f64,
    /// `target_qdelay`, seconds: 0.75 × config_base_rtt where switches trim, else 1.0 ×.
    pub target_qdelay: f64,
    /// BDP / Base_BDP.
    pub scaling_a: f64,
    /// target_qdelay / 12 µs.
    pub scaling_b: f64,
    /// Proportional-increase gain, bytes/s: 4.0 × scaling_a × scaling_b × MTU / target_qdelay.
    pub alpha: f64,
    /// Fair-increase constant, bytes: 5 × MTU × scaling_a.
    pub fi: f64,
    /// Fast-increase window bytes per acknowledged byte: 0.25 × scaling_a.
    pub fi_scale: f64,
    /// Additive increase once per adjust period, bytes: 0.15 × MTU × scaling_a.
    pub eta: f64,
    /// Multiplicative-decrease gain: 0.8.
    pub gamma: f64,
    /// Smallest factor one multiplicative decrease applies: 0.5.
    pub max_md_jump: f64,
    /// Quick adapt fires only while the period's achieved bytes are below max_wnd / 2^qa_gate: 3.
    pub qa_gate: u32,
    /// Queueing delay above which quick adapt fires without a trim, seconds: 4 × target_qdelay
    /// without trimming; infinite (never) with trimming, where a trim NACK triggers it instead.
    pub qa_threshold: f64,
    /// Switches quick adapt off entirely.
    pub disable_quick_adapt: bool,
    /// Accumulated increases are applied once more than this many bytes were received: 8 × MTU.
    pub adjust_bytes_threshold: f64,
    /// ... and at least this often (eta is added on this path only), seconds: one config_base_rtt.
    pub adjust_period_threshold: f64,
    /// The spec's "delay ≈ 0" for fast increase: delays below this count as zero, seconds. The spec
    /// gives no value; 1 µs is UEC's simulator's.
    pub fast_increase_delay: f64,
    /// Weight of a new sample in the delay average (an exponentially weighted moving average). The
    /// spec leaves the estimator to the implementation; 0.0125 is UEC's simulator's weight.
    pub delay_ewma: f64,
    /// UEC's simulator's variant of the average: an unmarked ACK whose delay is at or above target
    /// feeds base_rtt / 4 instead of its delay. Off by default (the spec has no such rule).
    pub htsim_delay_substitution: bool,
}

impl NsccParams {
    /// The defaults for a link of `link_bps` bits/s and a configured base RTT of
    /// `config_base_rtt_s` seconds, 4096-byte MTU, switches that trim.
    pub fn new(link_bps: f64, config_base_rtt_s: f64) -> Result<NsccParams, NsccParamError> {
        NsccParams::with(link_bps, config_base_rtt_s, DEFAULT_MTU_BYTES, true)
    }

    /// The defaults for the given link speed (bits/s), base RTT (s), MTU (bytes) and trimming.
    pub fn with(
        link_bps: f64,
        config_base_rtt_s: f64,
        mtu: f64,
        trimming: bool,
    ) -> Result<NsccParams, NsccParamError> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if !positive(link_bps) {
            return Err(NsccParamError::LinkSpeed(link_bps));
        }
        if !positive(config_base_rtt_s) {
            return Err(NsccParamError::BaseRtt(config_base_rtt_s));
        }
        if !positive(mtu) {
            return Err(NsccParamError::Mtu(mtu));
        }
        let link_bytes_per_s = link_bps / 8.0;
        let bdp = link_bytes_per_s * config_base_rtt_s;
        let max_wnd = 1.5 * bdp;
        if max_wnd < mtu {
            return Err(NsccParamError::WindowBelowMtu { max_wnd, mtu });
        }
        let target_qdelay = config_base_rtt_s * if trimming { 0.75 } else { 1.0 };
        let scaling_a = bdp / BASE_BDP_BYTES;
        let scaling_b = target_qdelay / REFERENCE_RTT_S;
        Ok(NsccParams {
            mtu,
            link_bytes_per_s,
            config_base_rtt: config_base_rtt_s,
            bdp,
            max_wnd,
            target_qdelay,
            scaling_a,
            scaling_b,
            alpha: 4.0 * scaling_a * scaling_b * mtu / target_qdelay,
            fi: 5.0 * mtu * scaling_a,
            fi_scale: 0.25 * scaling_a,
            eta: 0.15 * mtu * scaling_a,
            gamma: 0.8,
            max_md_jump: 0.5,
            qa_gate: 3,
            qa_threshold: if trimming {
                f64::INFINITY
            } else {
                4.0 * target_qdelay
            },
            disable_quick_adapt: false,
            adjust_bytes_threshold: 8.0 * mtu,
            adjust_period_threshold: config_base_rtt_s,
            fast_increase_delay: 1e-6,
            delay_ewma: 0.0125,
            htsim_delay_substitution: false,
        })
    }
}

/// One flow's NSCC source state (UE Table 3-77), plus the running delay average the spec leaves to
/// the implementation. Bytes and seconds throughout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NsccStateF64 {
    /// Congestion window.
    pub cwnd: f64,
    /// Bytes sent and not yet acknowledged, NACKed or declared lost. Signed: Rcvd_Bytes is rounded
    /// up to 256 bytes and ACKs reorder, so it may dip below zero.
    pub inflight: f64,
    /// The window saved when destination flow control began; 0 when none is saved.
    pub saved_cwnd: f64,
    /// This flow's base RTT: config_base_rtt, lowered by any smaller sample.
    pub base_rtt: f64,
    /// Bytes received in the current quick-adapt period.
    pub achieved_bytes: f64,
    /// Bytes received since the last window adjustment.
    pub received_bytes: f64,
    /// Bytes seen at near-zero delay without a mark (the fast-increase detector).
    pub fi_count: f64,
    /// Set by a trim NACK: the next due quick adapt fires.
    pub trigger_qa: bool,
    /// End of the current quick-adapt period; 0 before the first ACK.
    pub qa_endtime: f64,
    /// After a quick adapt, marked ACKs are ignored until this many bytes were counted.
    pub bytes_to_ignore: f64,
    /// Bytes counted toward `bytes_to_ignore`.
    pub bytes_ignored: f64,
    /// Accumulated increase, bytes²; divided by cwnd when applied.
    pub inc_bytes: f64,
    /// When eta was last added (the adjust period's start).
    pub last_adjust_time: f64,
    /// Fast-increase mode.
    pub increase: bool,
    /// When the last multiplicative decrease happened.
    pub last_dec_time: f64,
    /// Window ceiling, rescaled when base_rtt drops.
    pub max_wnd: f64,
    /// Running average of the queueing delay, seconds.
    pub avg_delay: f64,
}

impl NsccStateF64 {
    /// The state of a flow created at `now_s` with window `cwnd` (UE Table 3-77: the times start
    /// at creation, so there is no decrease in the first base RTT and no eta in the first period).
    pub fn init(p: &NsccParams, now_s: f64, cwnd: f64) -> NsccStateF64 {
        NsccStateF64 {
            cwnd,
            inflight: 0.0,
            saved_cwnd: 0.0,
            base_rtt: p.config_base_rtt,
            achieved_bytes: 0.0,
            received_bytes: 0.0,
            fi_count: 0.0,
            trigger_qa: false,
            qa_endtime: 0.0,
            bytes_to_ignore: 0.0,
            bytes_ignored: 0.0,
            inc_bytes: 0.0,
            last_adjust_time: now_s,
            increase: false,
            last_dec_time: now_s,
            max_wnd: p.max_wnd,
            avg_delay: 0.0,
        }
    }
}

/// One ACK as NSCC sees it (UE 3.6.13.5 `NSCC.OnACK`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ack {
    /// Arrival time, seconds.
    pub now_s: f64,
    /// Newly received bytes: this ACK's Rcvd_Bytes less the largest seen before, in bytes.
    pub newly_rcvd_bytes: f64,
    /// The M flag: the acknowledged packet arrived ECN-CE marked.
    pub ecn: bool,
    /// The RTT sample (arrival − transmit time − service time), seconds; `None` where the spec's
    /// `calculate_rtt` finds it ambiguous (a retransmitted packet whose ACK cannot be matched).
    pub rtt_s: Option<f64>,
    /// Rcv_Cwnd_Pend, 0..=127 (0: no destination flow control).
    pub rcv_cwnd_pend: u8,
    /// The rc flag: restore the window saved when destination flow control began.
    pub restore_cwnd: bool,
}

/// Which of the four ECN × delay responses an ACK took (UE 3.6.13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AckCase {
    /// No mark, delay ≥ target: `inc_bytes += fi × newly`.
    FairIncrease,
    /// No mark, delay < target, not in fast increase: `inc_bytes += alpha × newly × (target − delay)`.
    ProportionalIncrease,
    /// No mark, delay ≈ 0 for more than a window: `cwnd += newly × fi_scale`.
    FastIncrease,
    /// Mark, delay ≥ target; `applied` is false when the average delay was not above target or a
    /// decrease happened within the last base RTT.
    MultiplicativeDecrease { applied: bool },
    /// Mark, delay < target: no change.
    Hold,
    /// No mark while destination flow control holds the window: increases are suppressed.
    ReceiverLimited,
}

/// What one ACK did, for traces and for holding a fixed-point engine's decisions to these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AckOutcome {
    /// Rcv_Cwnd_Pend was non-zero and the penalty was applied.
    pub penalty: bool,
    /// The saved window was restored.
    pub restored: bool,
    /// The RTT sample was valid (else the ACK ended after the penalty).
    pub rtt_valid: bool,
    /// Quick adapt set the window this ACK.
    pub qa_fired: bool,
    /// The ACK fell in the ignore phase after a quick adapt (marked, bytes still to ignore).
    pub qa_ignored: bool,
    /// The response taken, if the ACK got that far.
    pub case: Option<AckCase>,
    /// The accumulated increase was applied (`fulfill_adjustment`).
    pub adjusted: bool,
    /// ... and eta was added (the time path).
    pub eta_added: bool,
}

/// Why a NACK arrived (UE 3.6.12.3 `OnNACK` reasons as NSCC distinguishes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NackReason {
    /// Trimmed before the last hop.
    Trimmed,
    /// Trimmed at the last hop.
    TrimmedLastHop,
    /// Any other reason: no window change.
    Other,
}

/// One NSCC sender flow in floating point: the reference the fixed-point engine tracks.
#[derive(Debug, Clone, PartialEq)]
pub struct NsccFlowF64 {
    p: NsccParams,
    s: NsccStateF64,
}

impl NsccFlowF64 {
    /// A flow created at `now_s` with the window at MaxWnd (UE Table 3-77).
    pub fn new(p: NsccParams, now_s: f64) -> NsccFlowF64 {
        NsccFlowF64::with_initial_cwnd(p, now_s, p.max_wnd)
    }

    /// A flow created at `now_s` with a configured initial window (the spec's default is MaxWnd;
    /// a smaller one limits the first round trip of an incast). Clamped to [MTU, MaxWnd].
    pub fn with_initial_cwnd(p: NsccParams, now_s: f64, cwnd: f64) -> NsccFlowF64 {
        let cwnd = cwnd.min(p.max_wnd).max(p.mtu);
        NsccFlowF64 {
            s: NsccStateF64::init(&p, now_s, cwnd),
            p,
        }
    }

    /// A flow resumed from a given state (state injection, as the lockstep's starts).
    pub fn from_state(p: NsccParams, s: NsccStateF64) -> NsccFlowF64 {
        NsccFlowF64 { p, s }
    }

    pub fn params(&self) -> &NsccParams {
        &self.p
    }
    pub fn state(&self) -> &NsccStateF64 {
        &self.s
    }
    pub fn cwnd(&self) -> f64 {
        self.s.cwnd
    }
    pub fn inflight(&self) -> f64 {
        self.s.inflight
    }
    pub fn max_wnd(&self) -> f64 {
        self.s.max_wnd
    }

    /// `NSCC.OnSend`: a packet of `bytes` (nominal size) left.
    pub fn on_send(&mut self, bytes: f64) -> Result<(), NsccInputError> {
        check("bytes", bytes)?;
        self.s.inflight += bytes;
        Ok(())
    }

    /// Whether `bytes` more may be sent: `inflight + bytes ≤ cwnd`. The spec's `NSCC.CanSend` is
    /// this with one MTU ([`Self::can_send_mtu`]); the actual packet size is allowed too.
    pub fn can_send(&self, bytes: f64) -> bool {
        self.s.inflight + bytes <= self.s.cwnd
    }

    /// `NSCC.CanSend`: `inflight + MTU ≤ cwnd` (UE 3.6.13.5; spec-mq 4.9's `win_ok`).
    pub fn can_send_mtu(&self) -> bool {
        self.can_send(self.p.mtu)
    }

    /// `NSCC.AckRequest`: ask the destination for an ACK when less than an MTU of window is left
    /// or the window is below the destination's ACK generation trigger. Called after the packet's
    /// size was added to inflight.
    pub fn ack_request(&self, ack_gen_trigger: f64) -> bool {
        self.s.cwnd - self.s.inflight < self.p.mtu || self.s.cwnd < ack_gen_trigger
    }

    /// `NSCC.OnACK` (UE 3.6.13.5), in the spec's order: the byte counters, the receiver penalty,
    /// the RTT (an invalid one ends the ACK), quick adapt (which may end it), one of the four
    /// responses, then the periodic adjustment when due.
    pub fn on_ack(&mut self, a: &Ack) -> Result<AckOutcome, NsccInputError> {
        check("now_s", a.now_s)?;
        check("newly_rcvd_bytes", a.newly_rcvd_bytes)?;
        if let Some(rtt) = a.rtt_s {
            check("rtt_s", rtt)?;
        }
        if a.rcv_cwnd_pend > RCV_CWND_PEND_MAX {
            return Err(NsccInputError::Pend(a.rcv_cwnd_pend));
        }
        let (now, newly) = (a.now_s, a.newly_rcvd_bytes);
        let mut out = AckOutcome::default();

        let s = &mut self.s;
        s.inflight -= newly;
        s.bytes_ignored += newly;
        s.received_bytes += newly;
        s.achieved_bytes += newly;

        let rcv_limit = self.apply_cwnd_penalty(a.rcv_cwnd_pend, a.restore_cwnd, newly, &mut out);

        let Some(rtt) = a.rtt_s else {
            return Ok(out);
        };
        out.rtt_valid = true;
        self.update_base_rtt(rtt);
        let delay = rtt - self.s.base_rtt;
        self.update_delay(delay, a.ecn);

        match self.quick_adapt(now, false, a.ecn, delay) {
            Qa::Fired => {
                out.qa_fired = true;
                return Ok(out);
            }
            Qa::Ignored => {
                out.qa_ignored = true;
                return Ok(out);
            }
            Qa::No => {}
        }

        let target = self.p.target_qdelay;
        out.case = Some(match (a.ecn, delay >= target) {
            (false, _) if rcv_limit => AckCase::ReceiverLimited,
            (false, true) => {
                self.s.inc_bytes += self.p.fi * newly;
                AckCase::FairIncrease
            }
            (false, false) => self.proportional_increase(newly, delay),
            (true, true) => AckCase::MultiplicativeDecrease {
                applied: self.multiplicative_decrease(now),
            },
            (true, false) => AckCase::Hold,
        });

        if self.adjustment_due(now) {
            out.adjusted = true;
            out.eta_added = self.fulfill_adjustment(now);
        }
        Ok(out)
    }

    /// `NSCC.OnNACK` (UE 3.6.13.5): a NACK for a packet of `bytes` (nominal size). `rtt_s` is the
    /// NACK's RTT sample if valid (service time 0); `rccc` says whether receiver credit control
    /// runs too (then a last-hop trim leaves the window to it).
    pub fn on_nack(
        &mut self,
        now_s: f64,
        bytes: f64,
        rtt_s: Option<f64>,
        reason: NackReason,
        rccc: bool,
    ) -> Result<(), NsccInputError> {
        check("now_s", now_s)?;
        check("bytes", bytes)?;
        if let Some(rtt) = rtt_s {
            check("rtt_s", rtt)?;
        }
        self.s.inflight -= bytes;
        if let Some(rtt) = rtt_s {
            self.update_base_rtt(rtt);
        }
        let trimmed = matches!(reason, NackReason::Trimmed | NackReason::TrimmedLastHop);
        if trimmed {
            // A trimmed packet stands for a queue of about one base RTT.
            let sample = self.p.config_base_rtt;
            self.update_delay(sample, true);
            self.s.bytes_ignored += bytes;
        }
        let reacts =
            reason == NackReason::Trimmed || (reason == NackReason::TrimmedLastHop && !rccc);
        if reacts {
            self.s.trigger_qa = true;
            // A loss: the delay is not looked at, and a trimmed packet counts as marked.
            if self.quick_adapt(now_s, true, true, 0.0) == Qa::No {
                self.s.cwnd = (self.s.cwnd - bytes).max(self.p.mtu);
            }
        }
        Ok(())
    }

    /// `NSCC.OnInferredLoss` (UE 3.6.13.5): a packet of `bytes` declared lost (timeout, or inferred
    /// from SACKs).
    pub fn on_inferred_loss(&mut self, bytes: f64) -> Result<(), NsccInputError> {
        check("bytes", bytes)?;
        self.s.cwnd = (self.s.cwnd - bytes).max(self.p.mtu);
        self.s.bytes_ignored += bytes;
        self.s.inflight -= bytes;
        Ok(())
    }

    /// Whether the periodic adjustment is due at `now_s`: a full adjust period since eta was last
    /// added, or more than the byte threshold received since the last adjustment.
    pub fn adjustment_due(&self, now_s: f64) -> bool {
        self.period_elapsed(now_s) || self.s.received_bytes > self.p.adjust_bytes_threshold
    }

    /// `fulfill_adjustment` (UE 3.6.13.6): applies the accumulated increase (`inc_bytes / cwnd`),
    /// adds eta when a full period has passed, caps at max_wnd, and clears the accumulators.
    /// Returns whether eta was added. [`Self::on_ack`] calls it when due; an engine that runs the
    /// periodic rule elsewhere (spec-mq 4.9: in the visit) calls it directly.
    pub fn fulfill_adjustment(&mut self, now_s: f64) -> bool {
        let eta = self.period_elapsed(now_s);
        let s = &mut self.s;
        s.cwnd += s.inc_bytes / s.cwnd;
        if eta {
            s.last_adjust_time = now_s;
            s.cwnd += self.p.eta;
        }
        s.cwnd = s.cwnd.min(s.max_wnd);
        s.inc_bytes = 0.0;
        s.received_bytes = 0.0;
        eta
    }

    fn period_elapsed(&self, now_s: f64) -> bool {
        now_s - self.s.last_adjust_time >= self.p.adjust_period_threshold
    }

    /// `apply_cwnd_penalty` (UE 3.6.13.2, 3.6.13.6). Returns whether the destination limits the
    /// window (then both increases are suppressed).
    fn apply_cwnd_penalty(
        &mut self,
        pend: u8,
        restore: bool,
        newly: f64,
        out: &mut AckOutcome,
    ) -> bool {
        let s = &mut self.s;
        if pend > 0 {
            if s.saved_cwnd == 0.0 {
                s.saved_cwnd = s.cwnd;
            }
            let decrease = f64::from(pend) * newly / 128.0;
            s.cwnd = s.cwnd.min(s.inflight);
            s.cwnd = (s.cwnd - decrease).max(self.p.mtu);
            out.penalty = true;
        } else if restore && s.saved_cwnd > 0.0 {
            s.cwnd = s.saved_cwnd;
            s.saved_cwnd = 0.0;
            out.restored = true;
        }
        pend > 0
    }

    /// `update_base_rtt`: a smaller sample lowers base_rtt and rescales max_wnd to 1.5 × the link
    /// speed × base_rtt. The window itself is not clamped here (the next adjustment does).
    fn update_base_rtt(&mut self, rtt: f64) {
        if self.s.base_rtt > rtt {
            self.s.base_rtt = rtt;
            self.s.max_wnd = 1.5 * self.p.link_bytes_per_s * rtt;
        }
    }

    /// `update_delay`: feeds one queueing-delay sample into the running average.
    fn update_delay(&mut self, delay: f64, ecn: bool) {
        let sample = if self.p.htsim_delay_substitution && !ecn && delay >= self.p.target_qdelay {
            self.s.base_rtt / 4.0
        } else {
            delay
        };
        let w = self.p.delay_ewma;
        self.s.avg_delay = w * sample + (1.0 - w) * self.s.avg_delay;
    }

    /// `proportional_increase`, which first gives `fast_increase` its chance.
    fn proportional_increase(&mut self, newly: f64, delay: f64) -> AckCase {
        if self.fast_increase(newly, delay) {
            return AckCase::FastIncrease;
        }
        self.s.inc_bytes += self.p.alpha * newly * (self.p.target_qdelay - delay);
        AckCase::ProportionalIncrease
    }

    /// `fast_increase`: after more than a window of bytes at delay ≈ 0, grow the window directly by
    /// `fi_scale` per acknowledged byte until the delay rises. Returns whether it grew the window.
    fn fast_increase(&mut self, newly: f64, delay: f64) -> bool {
        let s = &mut self.s;
        if delay < self.p.fast_increase_delay {
            s.fi_count += newly;
            if s.fi_count > s.cwnd || s.increase {
                s.cwnd = (s.cwnd + newly * self.p.fi_scale).min(s.max_wnd);
                s.increase = true;
                return true;
            }
        } else {
            s.fi_count = 0.0;
        }
        s.increase = false;
        false
    }

    /// `multiplicative_decrease`: ends fast increase; if the average delay exceeds target and no
    /// decrease happened within the last base RTT, scales the window by
    /// max(1 − gamma × (avg − target) / avg, max_md_jump), floored at one MTU. Returns whether it
    /// decreased.
    fn multiplicative_decrease(&mut self, now: f64) -> bool {
        let (p, s) = (&self.p, &mut self.s);
        s.increase = false;
        s.fi_count = 0.0;
        let avg = s.avg_delay;
        if avg > p.target_qdelay && now - s.last_dec_time > s.base_rtt {
            let factor = (1.0 - p.gamma * (avg - p.target_qdelay) / avg).max(p.max_md_jump);
            s.cwnd = (s.cwnd * factor).max(p.mtu);
            s.last_dec_time = now;
            return true;
        }
        false
    }

    /// `quick_adapt`: once per period (base_rtt + target), if a trim, a loss or a delay above
    /// `qa_threshold` was seen and the period delivered less than max_wnd / 2^qa_gate, set the
    /// window to what the period delivered; then ignore marked ACKs for the bytes in flight at that
    /// moment. Either clears the adjustment accumulators.
    fn quick_adapt(&mut self, now: f64, is_loss: bool, marked: bool, qdelay: f64) -> Qa {
        if self.p.disable_quick_adapt {
            return Qa::No;
        }
        let (p, s) = (&self.p, &mut self.s);
        let mut result = Qa::No;
        if s.bytes_ignored < s.bytes_to_ignore && marked {
            result = Qa::Ignored;
        } else if now >= s.qa_endtime {
            let gate = s.max_wnd * 0.5f64.powi(i32::try_from(p.qa_gate).unwrap_or(i32::MAX));
            if s.qa_endtime != 0.0
                && (s.trigger_qa || is_loss || qdelay > p.qa_threshold)
                && s.achieved_bytes < gate
            {
                s.cwnd = s.achieved_bytes.max(p.mtu);
                s.bytes_to_ignore = s.inflight;
                s.bytes_ignored = 0.0;
                s.trigger_qa = false;
                result = Qa::Fired;
            }
            s.achieved_bytes = 0.0;
            s.qa_endtime = now + s.base_rtt + p.target_qdelay;
        }
        if result != Qa::No {
            s.inc_bytes = 0.0;
            s.received_bytes = 0.0;
        }
        result
    }
}

/// What `quick_adapt` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Qa {
    No,
    Fired,
    Ignored,
}

fn check(field: &'static str, value: f64) -> Result<(), NsccInputError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(NsccInputError::Value { field, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const US: f64 = 1e-6;
    const MTU: f64 = DEFAULT_MTU_BYTES;

    /// 100 Gb/s, 6 µs, trimming: BDP 75,000, MaxWnd 112,500, target 4.5 µs, scaling_a 0.5,
    /// scaling_b 0.375, fi 10,240, eta 307.2, fi_scale 0.125, alpha × target = 3072 B.
    fn p100() -> NsccParams {
        NsccParams::new(100e9, 6.0 * US).unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    macro_rules! assert_close {
        ($a:expr, $b:expr) => {
            assert!(
                close($a, $b),
                "{} = {} but expected {}",
                stringify!($a),
                $a,
                $b
            )
        };
    }

    fn ack(now_us: f64, bytes: f64, ecn: bool, rtt_us: f64) -> Ack {
        Ack {
            now_s: now_us * US,
            newly_rcvd_bytes: bytes,
            ecn,
            rtt_s: Some(rtt_us * US),
            rcv_cwnd_pend: 0,
            restore_cwnd: false,
        }
    }

    /// A flow at `cwnd` with `pkts` MTU packets in flight, created at time 0.
    fn flow(p: NsccParams, cwnd: f64, pkts: u32) -> NsccFlowF64 {
        let mut f = NsccFlowF64::with_initial_cwnd(p, 0.0, cwnd);
        for _ in 0..pkts {
            f.on_send(MTU).unwrap();
        }
        f
    }

    #[test]
    fn published_bdp_and_max_wnd() {
        // seed 003: 100 Gb/s × 6 µs = 600,000 bits = 75,000 B; MaxWnd = 1.5 × BDP = 112,500 B.
        let p = p100();
        assert_close!(p.bdp, 75_000.0);
        assert_close!(p.max_wnd, 112_500.0);
        assert_close!(NsccFlowF64::new(p, 0.0).cwnd(), 112_500.0);
        // Base_BDP is the 100 Gb/s × 12 µs flow's BDP: scaling_a is 1 there, and the blog's
        // illustrative step Base_BDP / 1024 is 146.5 B to one decimal.
        let reference = NsccParams::new(100e9, 12.0 * US).unwrap();
        assert_close!(reference.bdp, BASE_BDP_BYTES);
        assert_close!(reference.scaling_a, 1.0);
        assert_eq!((BASE_BDP_BYTES / 1024.0 * 10.0).round() / 10.0, 146.5);
        // The derived constants at 100 Gb/s, 6 µs.
        assert_close!(p.target_qdelay, 4.5 * US);
        assert_close!(p.scaling_a, 0.5);
        assert_close!(p.scaling_b, 0.375);
        assert_close!(p.fi, 10_240.0);
        assert_close!(p.eta, 307.2);
        assert_close!(p.fi_scale, 0.125);
        assert_close!(p.alpha * p.target_qdelay, 3072.0);
        assert_close!(p.adjust_bytes_threshold, 32_768.0);
        assert!(p.qa_threshold.is_infinite());
        let no_trim = NsccParams::with(100e9, 6.0 * US, MTU, false).unwrap();
        assert_close!(no_trim.target_qdelay, 6.0 * US);
        assert_close!(no_trim.qa_threshold, 24.0 * US);
    }

    #[test]
    fn bad_parameters_are_named() {
        assert_eq!(
            NsccParams::new(0.0, 6.0 * US),
            Err(NsccParamError::LinkSpeed(0.0))
        );
        assert_eq!(
            NsccParams::new(100e9, -1.0),
            Err(NsccParamError::BaseRtt(-1.0))
        );
        assert!(matches!(
            NsccParams::with(100e9, 6.0 * US, f64::NAN, true),
            Err(NsccParamError::Mtu(_))
        ));
        // 1 Mb/s × 1 µs is far below one MTU.
        assert!(matches!(
            NsccParams::new(1e6, 1.0 * US),
            Err(NsccParamError::WindowBelowMtu { .. })
        ));
        let mut f = NsccFlowF64::new(p100(), 0.0);
        let before = f.clone();
        let mut a = ack(1.0, MTU, false, 6.0);
        a.rcv_cwnd_pend = 128;
        assert_eq!(f.on_ack(&a), Err(NsccInputError::Pend(128)));
        a.rcv_cwnd_pend = 0;
        a.newly_rcvd_bytes = -1.0;
        assert_eq!(
            f.on_ack(&a),
            Err(NsccInputError::Value {
                field: "newly_rcvd_bytes",
                value: -1.0
            })
        );
        assert_eq!(f, before, "a refused event changes nothing");
    }

    #[test]
    fn published_receiver_penalty() {
        // seed 004: newly = 16,384 − 12,288 = 4,096 B at Rcv_Cwnd_Pend 64: 4,096 × 64 >> 7 = 2,048;
        // cwnd 75,776 → 73,728. In steady state inflight equals cwnd: 75,776 after this ACK.
        let mut f = NsccFlowF64::with_initial_cwnd(p100(), 0.0, 75_776.0);
        f.on_send(75_776.0 + 4_096.0).unwrap();
        let mut a = ack(1.0, 16_384.0 - 12_288.0, false, 6.0);
        a.rcv_cwnd_pend = 64;
        let out = f.on_ack(&a).unwrap();
        assert!(out.penalty);
        assert_close!(f.cwnd(), 73_728.0);
        assert_close!(f.state().saved_cwnd, 75_776.0);
        // No increase while the destination limits the window, though the ACK is unmarked and
        // its delay (0) is below target.
        assert_eq!(out.case, Some(AckCase::ReceiverLimited));
        assert_eq!(f.state().inc_bytes, 0.0);
    }

    #[test]
    fn penalty_starts_from_inflight_and_floors_at_mtu() {
        // Window 50,000 but only 20,000 left in flight: the penalty starts from 20,000.
        let mut f = flow(p100(), 50_000.0, 0);
        f.on_send(24_096.0).unwrap();
        let mut a = ack(1.0, 4_096.0, false, 6.0);
        a.rcv_cwnd_pend = 127;
        f.on_ack(&a).unwrap();
        assert_close!(f.cwnd(), 20_000.0 - 127.0 * 4_096.0 / 128.0);
        // Again and again: never below one MTU, and the saved window is the first one.
        for i in 0..20 {
            f.on_ack(&Ack {
                now_s: (2.0 + f64::from(i)) * US,
                ..a
            })
            .unwrap();
            assert!(f.cwnd() >= MTU);
        }
        assert_eq!(f.cwnd(), MTU);
        assert_close!(f.state().saved_cwnd, 50_000.0);
    }

    #[test]
    fn restore_flag_puts_the_saved_window_back() {
        let mut f = flow(p100(), 60_000.0, 20);
        let mut a = ack(1.0, 4_096.0, false, 6.0);
        a.rcv_cwnd_pend = 64;
        f.on_ack(&a).unwrap();
        assert!(f.cwnd() < 60_000.0);
        // Pend 0 without the flag: nothing restored, and increases resume.
        let plain = ack(2.0, 4_096.0, false, 8.0);
        let out = f.on_ack(&plain).unwrap();
        assert!(!out.restored);
        assert_eq!(out.case, Some(AckCase::ProportionalIncrease));
        assert_close!(f.state().saved_cwnd, 60_000.0);
        // The flag together with a non-zero pend does not restore: the penalty wins.
        let mut both = ack(3.0, 4_096.0, false, 6.0);
        both.rcv_cwnd_pend = 1;
        both.restore_cwnd = true;
        assert!(!f.on_ack(&both).unwrap().restored);
        // Pend 0 with the flag: the saved window comes back, and the saved slot empties.
        let mut restore = ack(4.0, 4_096.0, true, 6.0);
        restore.restore_cwnd = true;
        let out = f.on_ack(&restore).unwrap();
        assert!(out.restored);
        assert_close!(f.cwnd(), 60_000.0);
        assert_eq!(f.state().saved_cwnd, 0.0);
        // A second restore has nothing to restore.
        let out = f
            .on_ack(&Ack {
                now_s: 5.0 * US,
                ..restore
            })
            .unwrap();
        assert!(!out.restored);
    }

    #[test]
    fn fair_increase_accumulates_then_applies_with_eta() {
        // No mark, delay 5 µs ≥ target 4.5 µs: inc_bytes += fi × newly = 10,240 × 4,096.
        let mut f = flow(p100(), 50_000.0, 10);
        let out = f.on_ack(&ack(1.0, 4_096.0, false, 11.0)).unwrap();
        assert_eq!(out.case, Some(AckCase::FairIncrease));
        assert!(!out.adjusted, "4,096 B received and 1 µs elapsed: not due");
        assert_close!(f.state().inc_bytes, 41_943_040.0);
        assert_eq!(f.cwnd(), 50_000.0);
        // At 6 µs a full adjust period has passed since creation: apply inc / cwnd, then eta.
        let out = f.on_ack(&ack(6.0, 4_096.0, false, 11.0)).unwrap();
        assert!(out.adjusted && out.eta_added);
        assert_close!(f.cwnd(), 50_000.0 + 2.0 * 41_943_040.0 / 50_000.0 + 307.2);
        assert_eq!(f.state().inc_bytes, 0.0);
        assert_eq!(f.state().received_bytes, 0.0);
        assert_close!(f.state().last_adjust_time, 6.0 * US);
    }

    #[test]
    fn byte_threshold_applies_without_eta() {
        // More than 8 MTU received within one period: the increase is applied, eta is not, and
        // the period keeps its start.
        let mut f = flow(p100(), 50_000.0, 20);
        for i in 0..8 {
            let out = f
                .on_ack(&ack(1.0 + 0.1 * f64::from(i), 4_096.0, false, 11.0))
                .unwrap();
            assert!(!out.adjusted, "32,768 B is not more than the threshold");
        }
        let out = f.on_ack(&ack(2.0, 4_096.0, false, 11.0)).unwrap();
        assert!(out.adjusted && !out.eta_added);
        assert_close!(f.cwnd(), 50_000.0 + 9.0 * 41_943_040.0 / 50_000.0);
        assert_eq!(f.state().last_adjust_time, 0.0);
    }

    #[test]
    fn proportional_increase_scales_with_the_delay_gap() {
        // No mark, delay 2 µs < target: inc += alpha × newly × (4.5 − 2) µs = 3072 × 2.5 / 4.5 × 4096.
        let mut f = flow(p100(), 50_000.0, 10);
        let out = f.on_ack(&ack(1.0, 4_096.0, false, 8.0)).unwrap();
        assert_eq!(out.case, Some(AckCase::ProportionalIncrease));
        let inc = 3072.0 * 2.5 / 4.5 * 4_096.0;
        assert_close!(f.state().inc_bytes, inc);
        assert_eq!(f.cwnd(), 50_000.0);
        assert!(!f.state().increase);
        f.fulfill_adjustment(7.0 * US);
        assert_close!(f.cwnd(), 50_000.0 + inc / 50_000.0 + 307.2);
    }

    #[test]
    fn mark_with_low_delay_changes_nothing() {
        let mut f = flow(p100(), 50_000.0, 10);
        let before = *f.state();
        let out = f.on_ack(&ack(1.0, 4_096.0, true, 8.0)).unwrap();
        assert_eq!(out.case, Some(AckCase::Hold));
        assert_eq!(f.cwnd(), before.cwnd);
        assert_eq!(f.state().inc_bytes, 0.0);
        assert_close!(f.inflight(), before.inflight - 4_096.0);
    }

    /// Parameters whose delay average is the last sample (so a decrease is hand-computable).
    fn p100_last_sample() -> NsccParams {
        NsccParams {
            delay_ewma: 1.0,
            ..p100()
        }
    }

    #[test]
    fn multiplicative_decrease_once_per_base_rtt() {
        // Mark, delay 9 µs ≥ target: factor max(1 − 0.8 × (9 − 4.5) / 9, 0.5) = 0.6.
        let mut f = flow(p100_last_sample(), 50_000.0, 20);
        let out = f.on_ack(&ack(10.0, 4_096.0, true, 15.0)).unwrap();
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: true })
        );
        // ... and the adjustment is due (10 µs since creation): eta follows the decrease.
        assert!(out.eta_added);
        assert_close!(f.cwnd(), 50_000.0 * 0.6 + 307.2);
        // 2 µs later: within a base RTT of the last decrease, no decrease.
        let out = f.on_ack(&ack(12.0, 4_096.0, true, 15.0)).unwrap();
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: false })
        );
        assert_close!(f.cwnd(), 30_307.2);
        // Exactly one base RTT later: still not (the spec's decrease test is strict), but the
        // adjust period's test is not, so eta is added.
        let out = f.on_ack(&ack(16.0, 4_096.0, true, 15.0)).unwrap();
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: false })
        );
        assert!(out.eta_added);
        assert_close!(f.cwnd(), 30_614.4);
        // Beyond it: decrease (no adjustment: 0.5 µs into the period, 16 KB received).
        let out = f.on_ack(&ack(16.5, 4_096.0, true, 15.0)).unwrap();
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: true })
        );
        assert!(!out.adjusted);
        assert_close!(f.cwnd(), 30_614.4 * 0.6);
    }

    #[test]
    fn no_decrease_in_the_first_base_rtt() {
        let mut f = flow(p100_last_sample(), 50_000.0, 5);
        let out = f.on_ack(&ack(5.0, 4_096.0, true, 15.0)).unwrap();
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: false })
        );
        assert_eq!(f.cwnd(), 50_000.0);
    }

    #[test]
    fn decrease_is_bounded_by_max_md_jump_and_mtu() {
        // Delay 100 µs: 1 − 0.8 × 95.5 / 100 = 0.236 < 0.5, so the factor is 0.5.
        let mut f = flow(p100_last_sample(), 50_000.0, 5);
        f.on_ack(&ack(10.0, 4_096.0, true, 106.0)).unwrap();
        assert_close!(f.cwnd(), 25_000.0 + 307.2);
        // From just above one MTU, the floor holds.
        let mut f = flow(p100_last_sample(), MTU + 100.0, 1);
        f.on_ack(&ack(7.0, 1_000.0, true, 106.0)).unwrap();
        assert_close!(f.cwnd(), MTU + 307.2);
    }

    #[test]
    fn decrease_is_gated_by_the_average_not_the_sample() {
        // Default weight 0.0125 from an average of 0: one 9 µs sample moves it to 0.1125 µs,
        // below target, so the marked high-delay ACK decreases nothing.
        let mut f = flow(p100(), 50_000.0, 5);
        let out = f.on_ack(&ack(10.0, 4_096.0, true, 15.0)).unwrap();
        assert_eq!(
            out.case,
            Some(AckCase::MultiplicativeDecrease { applied: false })
        );
        assert_close!(f.state().avg_delay, 0.0125 * 9.0 * US);
        assert_close!(f.cwnd(), 50_000.0 + 307.2);
    }

    #[test]
    fn htsim_substitution_feeds_a_quarter_base_rtt() {
        let p = NsccParams {
            htsim_delay_substitution: true,
            ..p100()
        };
        let mut f = flow(p, 50_000.0, 5);
        f.on_ack(&ack(1.0, 4_096.0, false, 15.0)).unwrap();
        assert_close!(f.state().avg_delay, 0.0125 * 1.5 * US);
        // A marked sample is taken as it is.
        f.on_ack(&ack(2.0, 4_096.0, true, 15.0)).unwrap();
        assert_close!(
            f.state().avg_delay,
            0.0125 * 9.0 * US + 0.9875 * 0.0125 * 1.5 * US
        );
    }

    #[test]
    fn increases_stop_at_max_wnd() {
        let mut f = flow(p100(), 112_400.0, 20);
        for i in 0..3 {
            f.on_ack(&ack(1.0 + f64::from(i), 4_096.0, false, 11.0))
                .unwrap();
        }
        // 3 × 41,943,040 / 112,400 ≈ 1119 B would pass the ceiling.
        f.fulfill_adjustment(7.0 * US);
        assert_eq!(f.cwnd(), 112_500.0);
        // Fast increase also stops there.
        let mut f = flow(p100(), 112_000.0, 40);
        f.s.increase = true;
        f.on_ack(&ack(1.0, 8_192.0, false, 6.0)).unwrap();
        assert_eq!(f.cwnd(), 112_500.0);
    }

    #[test]
    fn fast_increase_after_a_window_at_zero_delay() {
        // Delay 0 (rtt = base): each ACK first counts toward fi_count; below a window of bytes it
        // is a proportional increase with the full gap (alpha × target × newly = 3072 × 4096).
        let mut f = flow(p100(), 20_000.0, 10);
        for i in 1..=4 {
            let out = f.on_ack(&ack(f64::from(i), 4_096.0, false, 6.0)).unwrap();
            assert_eq!(out.case, Some(AckCase::ProportionalIncrease));
        }
        assert_close!(f.state().inc_bytes, 4.0 * 3072.0 * 4_096.0);
        assert_close!(f.state().fi_count, 16_384.0);
        // The fifth brings fi_count to 20,480 > cwnd: cwnd += 4,096 × 0.125 directly.
        let out = f.on_ack(&ack(5.0, 4_096.0, false, 6.0)).unwrap();
        assert_eq!(out.case, Some(AckCase::FastIncrease));
        assert_close!(f.cwnd(), 20_512.0);
        assert!(f.state().increase);
        assert_close!(f.state().inc_bytes, 4.0 * 3072.0 * 4_096.0);
        // In increase mode each ACK grows the window again.
        f.on_ack(&ack(5.5, 4_096.0, false, 6.0)).unwrap();
        assert_close!(f.cwnd(), 21_024.0);
        // A delay of 2 µs ends it and clears the count; the ACK is a proportional increase.
        let out = f.on_ack(&ack(5.8, 4_096.0, false, 8.0)).unwrap();
        assert_eq!(out.case, Some(AckCase::ProportionalIncrease));
        assert!(!f.state().increase);
        assert_eq!(f.state().fi_count, 0.0);
    }

    #[test]
    fn quick_adapt_sets_the_window_to_what_was_delivered() {
        // No trimming: qa_threshold = 4 × 6 µs = 24 µs; gate MaxWnd / 8 = 14,062.5 B.
        let p = NsccParams::with(100e9, 6.0 * US, MTU, false).unwrap();
        let mut f = flow(p, p.max_wnd, 27);
        // The first ACK only starts the period: it ends at 1 + 6 + 6 = 13 µs.
        let out = f.on_ack(&ack(1.0, 4_096.0, false, 6.0)).unwrap();
        assert!(!out.qa_fired);
        assert_close!(f.state().qa_endtime, 13.0 * US);
        assert_eq!(f.state().achieved_bytes, 0.0);
        // At 14 µs, 34 µs of queueing delay and only 4,096 B delivered this period.
        let out = f.on_ack(&ack(14.0, 4_096.0, false, 40.0)).unwrap();
        assert!(out.qa_fired);
        assert_eq!(out.case, None, "quick adapt ends the ACK");
        assert_eq!(f.cwnd(), 4_096.0);
        assert_close!(f.state().bytes_to_ignore, 25.0 * 4_096.0);
        assert_eq!(f.state().inc_bytes, 0.0);
        assert_close!(f.state().qa_endtime, 26.0 * US);
        // Marked ACKs for the bytes in flight at that moment are ignored: no decrease.
        let out = f.on_ack(&ack(15.0, 4_096.0, true, 40.0)).unwrap();
        assert!(out.qa_ignored);
        assert_eq!(out.case, None);
        assert_eq!(f.cwnd(), 4_096.0);
        // Unmarked ones are processed (a fair increase here).
        let out = f.on_ack(&ack(15.5, 4_096.0, false, 40.0)).unwrap();
        assert_eq!(out.case, Some(AckCase::FairIncrease));
    }

    #[test]
    fn quick_adapt_needs_a_small_delivery() {
        // Same, but 16 KB delivered in the period: above the gate, so only a new period starts.
        let p = NsccParams::with(100e9, 6.0 * US, MTU, false).unwrap();
        let mut f = flow(p, p.max_wnd, 27);
        f.on_ack(&ack(1.0, 4_096.0, false, 6.0)).unwrap();
        for i in 0..3 {
            f.on_ack(&ack(2.0 + f64::from(i), 4_096.0, false, 6.0))
                .unwrap();
        }
        let out = f.on_ack(&ack(14.0, 4_096.0, false, 40.0)).unwrap();
        assert!(!out.qa_fired);
        assert_close!(f.cwnd(), p.max_wnd);
        assert_close!(f.state().qa_endtime, 26.0 * US);
    }

    #[test]
    fn trim_nack_shrinks_the_window_and_arms_quick_adapt() {
        let p = p100();
        let mut f = flow(p, 50_000.0, 10);
        f.on_ack(&ack(1.0, 4_096.0, false, 6.0)).unwrap(); // period ends at 11.5 µs
        f.on_nack(
            2.0 * US,
            4_096.0,
            Some(8.0 * US),
            NackReason::Trimmed,
            false,
        )
        .unwrap();
        assert_close!(f.cwnd(), 50_000.0 - 4_096.0);
        assert!(f.state().trigger_qa);
        assert_close!(f.inflight(), 8.0 * 4_096.0);
        // The trim fed one config_base_rtt into the average.
        assert_close!(f.state().avg_delay, 0.0125 * 6.0 * US);
        // A last-hop trim with RCCC running leaves the window to RCCC.
        f.on_nack(3.0 * US, 4_096.0, None, NackReason::TrimmedLastHop, true)
            .unwrap();
        assert_close!(f.cwnd(), 50_000.0 - 4_096.0);
        // Another reason: no window change either.
        f.on_nack(3.5 * US, 4_096.0, None, NackReason::Other, false)
            .unwrap();
        assert_close!(f.cwnd(), 50_000.0 - 4_096.0);
        assert_close!(f.inflight(), 6.0 * 4_096.0);
        // The next ACK after the period fires quick adapt on the trigger (small delay, no mark).
        let out = f.on_ack(&ack(12.0, 4_096.0, false, 6.0)).unwrap();
        assert!(out.qa_fired);
        assert_eq!(f.cwnd(), MTU);
        assert!(!f.state().trigger_qa);
    }

    #[test]
    fn inferred_loss_shrinks_to_no_less_than_an_mtu() {
        let mut f = flow(p100(), 10_000.0, 3);
        f.on_inferred_loss(4_096.0).unwrap();
        assert_close!(f.cwnd(), 5_904.0);
        assert_close!(f.inflight(), 8_192.0);
        f.on_inferred_loss(4_096.0).unwrap();
        assert_eq!(f.cwnd(), MTU);
        assert_close!(f.state().bytes_ignored, 8_192.0);
    }

    #[test]
    fn send_rule_is_inflight_plus_mtu_within_cwnd() {
        let mut f = flow(p100(), 5.0 * MTU, 4);
        assert!(f.can_send_mtu(), "4 + 1 MTU = cwnd");
        assert!(!f.ack_request(0.0), "exactly one MTU of window left");
        f.on_send(1.0).unwrap();
        assert!(!f.can_send_mtu());
        assert!(f.can_send(MTU - 1.0));
        assert!(f.ack_request(0.0));
        // Rcvd_Bytes is rounded up to 256 B: inflight may go below zero, and that is allowed.
        let mut g = flow(p100(), 5.0 * MTU, 1);
        g.on_ack(&ack(1.0, 4_096.0 + 256.0, false, 6.0)).unwrap();
        assert_close!(g.inflight(), -256.0);
    }

    #[test]
    fn invalid_rtt_applies_only_the_penalty() {
        let mut f = flow(p100(), 50_000.0, 20);
        let a = Ack {
            rtt_s: None,
            rcv_cwnd_pend: 64,
            ..ack(10.0, 4_096.0, true, 0.0)
        };
        let out = f.on_ack(&a).unwrap();
        assert!(out.penalty && !out.rtt_valid);
        assert_eq!(out.case, None);
        assert!(!out.adjusted, "the adjustment is skipped though due");
        assert_close!(f.cwnd(), 50_000.0 - 2_048.0);
        assert_eq!(f.state().qa_endtime, 0.0);
    }

    #[test]
    fn smaller_rtt_lowers_base_rtt_and_max_wnd() {
        let mut f = flow(p100(), 50_000.0, 5);
        f.on_ack(&ack(1.0, 4_096.0, false, 4.0)).unwrap();
        assert_close!(f.state().base_rtt, 4.0 * US);
        assert_close!(f.max_wnd(), 1.5 * 12.5e9 * 4.0 * US);
        // The delay is measured from the new base: 0 here.
        assert_close!(f.state().fi_count, 4_096.0);
    }

    /// One event of a random stream.
    #[derive(Debug, Clone)]
    enum Ev {
        /// Send up to this many MTU packets, as far as the window allows.
        Send(u32),
        Ack {
            dt_us: f64,
            bytes: f64,
            ecn: bool,
            rtt_us: Option<f64>,
            pend: u8,
            restore: bool,
        },
        Nack {
            dt_us: f64,
            reason: u8,
            rccc: bool,
        },
        Loss,
    }

    fn event(min_rtt_us: f64) -> impl Strategy<Value = Ev> {
        prop_oneof![
            4 => (1u32..8).prop_map(Ev::Send),
            8 => (
                0.0f64..3.0,
                prop_oneof![Just(MTU), 256.0f64..20_000.0],
                any::<bool>(),
                prop_oneof![9 => (min_rtt_us..120.0).prop_map(Some), 1 => Just(None)],
                prop_oneof![6 => Just(0u8), 1 => 1u8..=127],
                any::<bool>(),
            )
                .prop_map(|(dt_us, bytes, ecn, rtt_us, pend, restore)| Ev::Ack {
                    dt_us,
                    bytes,
                    ecn,
                    rtt_us,
                    pend,
                    restore,
                }),
            1 => (0.0f64..3.0, 0u8..3, any::<bool>())
                .prop_map(|(dt_us, reason, rccc)| Ev::Nack { dt_us, reason, rccc }),
            1 => Just(Ev::Loss),
        ]
    }

    /// Runs a stream; checks after every event that inflight is exactly what was sent less what
    /// was acknowledged, NACKed or lost, and that `bounds` holds.
    fn run(
        p: NsccParams,
        initial: f64,
        events: &[Ev],
        mut bounds: impl FnMut(&NsccFlowF64, &AckOutcome) -> Result<(), TestCaseError>,
    ) -> Result<(), TestCaseError> {
        let mut f = NsccFlowF64::with_initial_cwnd(p, 0.0, initial);
        let (mut now_us, mut ledger) = (0.0, 0.0);
        for ev in events {
            let mut out = AckOutcome::default();
            match *ev {
                Ev::Send(n) => {
                    for _ in 0..n {
                        if f.can_send_mtu() {
                            f.on_send(MTU).unwrap();
                            ledger += MTU;
                        }
                    }
                }
                Ev::Ack {
                    dt_us,
                    bytes,
                    ecn,
                    rtt_us,
                    pend,
                    restore,
                } => {
                    now_us += dt_us;
                    out = f
                        .on_ack(&Ack {
                            now_s: now_us * US,
                            newly_rcvd_bytes: bytes,
                            ecn,
                            rtt_s: rtt_us.map(|r| r * US),
                            rcv_cwnd_pend: pend,
                            restore_cwnd: restore,
                        })
                        .unwrap();
                    ledger -= bytes;
                }
                Ev::Nack {
                    dt_us,
                    reason,
                    rccc,
                } => {
                    now_us += dt_us;
                    let reason = [
                        NackReason::Trimmed,
                        NackReason::TrimmedLastHop,
                        NackReason::Other,
                    ][usize::from(reason)];
                    f.on_nack(now_us * US, MTU, None, reason, rccc).unwrap();
                    ledger -= MTU;
                }
                Ev::Loss => {
                    f.on_inferred_loss(MTU).unwrap();
                    ledger -= MTU;
                }
            }
            prop_assert!(
                (f.inflight() - ledger).abs() < 1e-6,
                "inflight {} vs {}",
                f.inflight(),
                ledger
            );
            prop_assert!(f.cwnd().is_finite());
            bounds(&f, &out)?;
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// RTT samples never below config_base_rtt (base_rtt and max_wnd stay put): the window
        /// stays within [MTU, max_wnd] after every event, trimming or not.
        #[test]
        fn window_stays_within_mtu_and_max_wnd(
            events in prop::collection::vec(event(6.0), 1..600),
            initial in MTU..112_500.0,
            trimming in any::<bool>(),
        ) {
            let p = NsccParams::with(100e9, 6.0 * US, MTU, trimming).unwrap();
            run(p, initial, &events, |f, _| {
                prop_assert!(f.cwnd() >= MTU, "cwnd {} below MTU", f.cwnd());
                prop_assert!(f.cwnd() <= f.max_wnd(), "cwnd {} above {}", f.cwnd(), f.max_wnd());
                prop_assert_eq!(f.max_wnd(), p.max_wnd);
                Ok(())
            })?;
        }

        /// RTT samples down to a third of config_base_rtt: max_wnd only falls, the window never
        /// goes below an MTU nor above the initial MaxWnd, and is back within max_wnd after every
        /// adjustment (the spec does not clamp it when base_rtt drops).
        #[test]
        fn window_follows_a_falling_max_wnd(
            events in prop::collection::vec(event(2.0), 1..600),
            initial in MTU..112_500.0,
        ) {
            let p = p100();
            let mut last_max = p.max_wnd;
            run(p, initial, &events, |f, out| {
                prop_assert!(f.max_wnd() <= last_max);
                last_max = f.max_wnd();
                prop_assert!(f.cwnd() >= MTU);
                prop_assert!(f.cwnd() <= p.max_wnd);
                if out.adjusted {
                    prop_assert!(f.cwnd() <= f.max_wnd());
                }
                Ok(())
            })?;
        }
    }
}
