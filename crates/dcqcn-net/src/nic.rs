//! A NIC sender: one port (one link) whose queue pairs share the multi-QP block `dcqcn_mq`
//! (docs/spec-mq.md), the bit-exact [`MqBlock`] stepped one 156.25 MHz cycle at a time
//! (`profile = "mq"` in a parameter file).
//!
//! Around the block, the three neighbours spec-mq 1 names, as simple as they can be:
//!
//! - the **send-queue logic**: every QP whose flow is on has an endless backlog of send units of
//!   one frame each (the RoCEv2 engine's stream bytes, the bytes `dcqcn_rl` meters too). It posts
//!   a QP's first work request when its flow starts and the next one after it sees that QP's grant
//!   (spec-mq 4.4), one request per cycle at most (`s_req` is one port), in the order the QPs
//!   became ready;
//! - the **transmit engine**: it takes each grant into a queue of granted frames, puts them on the
//!   wire one after another at the link rate, and reports each frame's bytes (`s_rpt`, spec-mq
//!   4.6) in the cycle its last byte has left. While its queue holds [`TX_PAUSE_AT`] frames or more
//!   it raises `grant_pause` (the block's skid of two grants, spec-mq 3, then fits in
//!   [`TX_SLOTS`]). PFC pauses the wire as it pauses a single-flow sender's MAC;
//! - the **receive path**: every CNP that reaches the NIC is passed to `s_cnp` tagged with its QP
//!   (spec-mq 5.3), one per cycle, in arrival order.
//!
//! The block runs its reset register values: hardware DCQCN (scheme 1, spec-mq 5.7) with the
//! speed limiter at the line rate. Every rate decision, grant and pause comes from the block;
//! the NIC around it only moves frames.
//!
//! There is no closed-form skip: a visit changes some QP's record in nearly every cycle (the
//! timers advance by `QPS` per visit, spec-mq 5.5), so the block is stepped every cycle.

use crate::config::{cycle_ps, FlowCfg, FrameCfg, LinkCfg};
use crate::limiter::View;
use dcqcn_model::mq::{MqBlock, MqInputs, MqParams, QpEvent};
use dcqcn_model::Params;
use std::collections::VecDeque;

/// Frames the transmit engine's queue holds (waiting or on the wire).
pub const TX_SLOTS: usize = 4;
/// Occupancy from which `grant_pause` is raised: the block may still grant in this cycle and the
/// next (spec-mq 3), which [`TX_SLOTS`] leaves room for.
pub const TX_PAUSE_AT: usize = TX_SLOTS - 2;

/// A frame handed to the wire: when its last bit reaches the far end of the link, and its QP.
pub type NicDeparture = (u64, u16);

/// One QP's flow as the send-queue logic sees it.
#[derive(Clone, Copy, Debug)]
struct QpFlow {
    start_cycle: u64,
    stop_cycle: u64,
}

/// A NIC with its QPs.
#[derive(Clone, Debug)]
pub struct NicSender {
    block: MqBlock,
    cycle_ps: u64,
    /// The next cycle to run.
    cycle: u64,
    flows: Vec<QpFlow>,
    /// Bytes of each work request: one frame on the stream.
    req_bytes: u16,
    // Send-queue logic.
    /// QPs whose flows have not started yet, by start cycle (earliest last).
    not_started: Vec<(u64, u16)>,
    /// QPs with no request in the block, in the order they became ready.
    to_post: VecDeque<u16>,
    // Transmit engine.
    /// Granted frames waiting for the wire: the time each was taken, its QP and bytes.
    tx: VecDeque<(u64, u16, u16)>,
    /// The frame on the wire: when its last byte (and gap) has left, its QP and bytes.
    on_wire: Option<(u64, u16, u16)>,
    /// Reports not yet given to the block (one per cycle).
    reports: VecDeque<(u16, u16)>,
    wire_ps: u64,
    link_delay_ps: u64,
    paused_until_ps: u64,
    // Receive path.
    /// CNPs: the first cycle each may be given to the block, and its QP.
    cnps: VecDeque<(u64, u16)>,
    /// Per QP: visits whose rate-increase timer fired (the block counts them only in total).
    inc_timer_fires: Vec<u32>,
    /// Counters (cumulative).
    pub grants: Vec<u64>,
    pub granted_bytes: Vec<u64>,
    pub frames_sent: u64,
    pub cnps_received: u64,
    pub pauses_received: u64,
    pub stepped_cycles: u64,
}

impl NicSender {
    /// A NIC of `params.qps()` QPs at power-up, QP q carrying `flows[q]` (the configuration
    /// validated: `NetConfig::validate`).
    ///
    /// # Panics
    /// If `flows` does not have one flow per QP, or the frame does not fit a request's 16 bits
    /// (both checked by `NetConfig::validate`).
    pub fn new(params: MqParams, flows: &[FlowCfg], frame: &FrameCfg, link: &LinkCfg) -> Self {
        assert_eq!(flows.len(), params.qps() as usize, "one flow per QP");
        let cycle_ps = cycle_ps(&Params::DEFAULT);
        let flows: Vec<QpFlow> = flows
            .iter()
            .map(|f| QpFlow {
                start_cycle: f.start_ps.div_ceil(cycle_ps),
                stop_cycle: f.stop_ps.map_or(u64::MAX, |t| t.div_ceil(cycle_ps)),
            })
            .collect();
        let mut not_started: Vec<(u64, u16)> = flows
            .iter()
            .enumerate()
            .map(|(q, f)| (f.start_cycle, q as u16))
            .collect();
        // Earliest last (ties: lowest QP last), so that starting pops from the end.
        not_started.sort_unstable_by_key(|&k| std::cmp::Reverse(k));
        let n = flows.len();
        NicSender {
            block: MqBlock::new(params),
            cycle_ps,
            cycle: 0,
            flows,
            req_bytes: u16::try_from(frame.stream_bytes())
                .expect("NetConfig::validate bounds the frame"),
            not_started,
            to_post: VecDeque::new(),
            tx: VecDeque::new(),
            on_wire: None,
            reports: VecDeque::new(),
            wire_ps: link.ser_ps(u64::from(frame.wire_bytes())),
            link_delay_ps: link.delay_ps,
            paused_until_ps: 0,
            cnps: VecDeque::new(),
            inc_timer_fires: vec![0; n],
            grants: vec![0; n],
            granted_bytes: vec![0; n],
            frames_sent: 0,
            cnps_received: 0,
            pauses_received: 0,
            stepped_cycles: 0,
        }
    }

    /// The block (read access: its registers, bitmaps and memories).
    pub fn block(&self) -> &MqBlock {
        &self.block
    }

    /// QPs of the NIC.
    pub fn qps(&self) -> usize {
        self.flows.len()
    }

    /// Time up to which the NIC has run.
    pub fn now_ps(&self) -> u64 {
        self.cycle * self.cycle_ps
    }

    /// QP `qp`'s registers now, in the units a single-flow limiter reports: rates in bytes/s
    /// (the record's bytes per 1024-cycle window times `CLK_FREQ_HZ / 1024`, spec-mq 5.1), alpha
    /// in Q0.10.
    pub fn view(&self, qp: u16) -> View {
        let r = self.block.mems().record(usize::from(qp));
        let clk = u64::from(self.block.params().clk_hz());
        let bytes_per_s = |w: u32| u32::try_from(u64::from(w) * clk / 1024).unwrap_or(u32::MAX);
        View {
            rc: bytes_per_s(r.rc),
            rt: bytes_per_s(r.rt),
            alpha: r.alpha,
            inc_timer_fires: self.inc_timer_fires[usize::from(qp)],
        }
    }

    /// A CNP for `qp` reaches the NIC at `t_ps` (not before the time it has run to).
    pub fn cnp(&mut self, t_ps: u64, qp: u16) {
        self.cnps_received += 1;
        self.cnps.push_back((t_ps.div_ceil(self.cycle_ps), qp));
    }

    /// A PFC frame reaches the NIC at `t_ps`: pause the wire for `pause_ps` (0: resume).
    pub fn pause(&mut self, t_ps: u64, pause_ps: u64) {
        self.pauses_received += u64::from(pause_ps > 0);
        self.paused_until_ps = t_ps + pause_ps;
    }

    /// A lower bound on the cycle whose work puts the next frame on the wire: the block is
    /// stepped every cycle, so the NIC is always due (the network advances it every window).
    pub fn next_departure_cycle(&self) -> u64 {
        self.cycle
    }

    /// The transmit engine at the start of `cycle`: retire the frame on the wire (its report
    /// becomes due), start the next one.
    fn mac(&mut self, cycle: u64, out: &mut Vec<NicDeparture>) {
        let t = cycle * self.cycle_ps;
        let wire_free = match self.on_wire {
            Some((end, _, _)) if end > t => return,
            Some((end, q, b)) => {
                self.on_wire = None;
                self.reports.push_back((q, b));
                end
            }
            None => 0,
        };
        if self.paused_until_ps > t {
            return;
        }
        if let Some((ready, q, b)) = self.tx.pop_front() {
            let start = wire_free.max(ready).max(self.paused_until_ps);
            self.on_wire = Some((start + self.wire_ps, q, b));
            self.frames_sent += 1;
            out.push((start + self.wire_ps + self.link_delay_ps, q));
        }
    }

    /// The port inputs of `cycle` from the three neighbours.
    fn inputs(&mut self, cycle: u64) -> MqInputs {
        while let Some(&(start, q)) = self.not_started.last() {
            if start > cycle {
                break;
            }
            self.not_started.pop();
            self.to_post.push_back(q);
        }
        let mut req = QpEvent::default();
        while let Some(q) = self.to_post.pop_front() {
            // A stopped flow posts nothing more.
            if cycle < self.flows[usize::from(q)].stop_cycle {
                req = QpEvent {
                    valid: true,
                    qp: q,
                    bytes: self.req_bytes,
                };
                break;
            }
        }
        let mut cnp = QpEvent::default();
        if let Some(&(at, q)) = self.cnps.front() {
            if at <= cycle {
                self.cnps.pop_front();
                cnp = QpEvent {
                    valid: true,
                    qp: q,
                    bytes: 0,
                };
            }
        }
        let rpt = self
            .reports
            .pop_front()
            .map_or(QpEvent::default(), |(q, b)| QpEvent {
                valid: true,
                qp: q,
                bytes: b,
            });
        let queued = self.tx.len() + usize::from(self.on_wire.is_some());
        MqInputs {
            req,
            cnp,
            rpt,
            grant_pause: queued >= TX_PAUSE_AT,
            ..MqInputs::default()
        }
    }

    /// Runs every cycle that starts before `t_ps`; frames put on the wire are appended to `out`
    /// as (arrival time at the far end of the link, QP).
    pub fn advance_to(&mut self, t_ps: u64, out: &mut Vec<NicDeparture>) {
        let end = t_ps.div_ceil(self.cycle_ps);
        while self.cycle < end {
            let c = self.cycle;
            self.mac(c, out);
            let i = self.inputs(c);
            let st = self.block.state();
            let (visited, fires) = (st.scan.scan_q, st.regs.cnt.cnt_inc_timer);
            let o = self.block.step(&i);
            self.stepped_cycles += 1;
            // cnt_inc_timer counts the timer increases of the visit (spec-mq 5.4): this cycle's
            // visit was of `visited`.
            if self.block.state().regs.cnt.cnt_inc_timer != fires {
                let k = &mut self.inc_timer_fires[usize::from(visited)];
                *k = k.wrapping_add(1);
            }
            if o.m_grant_valid {
                let q = o.m_grant_qp;
                let qi = usize::from(q);
                self.grants[qi] += 1;
                self.granted_bytes[qi] += u64::from(o.m_grant_bytes);
                self.tx
                    .push_back(((c + 1) * self.cycle_ps, q, o.m_grant_bytes));
                // The send-queue logic posts the QP's next request from the next cycle on.
                self.to_post.push_back(q);
            }
            self.cycle += 1;
        }
    }
}
