//! An Ultra Ethernet NSCC sender (profile `nscc`) and the receiver's memory (seed 004).
//!
//! The sender is one flow whose window is the bit-exact per-flow arithmetic of
//! `dcqcn_model::nscc::fixed` (docs/spec-nscc.md): the record [`NsccFlow`], the granted-bytes
//! counter `gbytes` (spec-nscc 4.1), the send test [`win_ok`] (4.2) and one [`execute`] per ACK
//! (6.2). It is not a second NSCC: every window decision comes from the model. What this module
//! adds is the transport around it, as spec-nscc 1 leaves it outside the block: a frame leaves
//! when the window has room for one MTU more (`win_ok`), the wire is free (at most line rate) and
//! PFC does not pause the link; the frame carries its transmit cycle; the ACK that comes back
//! carries the frame's payload as newly received bytes, the ECN mark the frame arrived with, the
//! receiver's `rcv_cwnd_pend`, and the sender forms the RTT sample (ACK arrival − transmit, NIC
//! cycles).
//!
//! Times: the NIC clock is the model's 156.25 MHz ([`crate::config::cycle_ps`]); `now` is the
//! cycle mod 2^32 as the block's free-running counter. The stamps' `old` bit (spec-nscc 6.4),
//! which the block's visits set when a stamp's age passes 2^31 cycles, is computed from the time
//! since the flow's last event.
//!
//! [`RecvMemory`]: the receiver's memory as one server that retires each frame's payload at a
//! drain rate; its queue (bytes not yet retired) decides the ACKs' `rcv_cwnd_pend`.

use crate::config::{cycle_ps, FlowCfg, FrameCfg, LinkCfg, PS_PER_S};
pub use crate::config::{nscc_registers as registers, nscc_unloaded_rtt_ps as unloaded_rtt_ps};
use dcqcn_model::nscc::fixed::{
    execute, win_ok, Event, EventKind, NsccFlow, NsccRegs, AGE_MAX, EVENT_FIELD_MAX,
};
use dcqcn_model::Params;
use std::collections::VecDeque;

/// What the receiver's ACK tells the sender about one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ack {
    /// The frame's transmit cycle (mod 2^32), echoed.
    pub tx_cycle: u32,
    /// The frame arrived ECN-CE marked.
    pub ecn: bool,
    /// `rcv_cwnd_pend`, 0..=127.
    pub pend: u8,
}

/// A frame put on the wire: when its last bit reaches the far end of the link, and its transmit
/// cycle (mod 2^32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NsccDeparture {
    pub arrive_ps: u64,
    pub tx_cycle: u32,
}

/// `LINE_WIN` of the edge link (spec-mq 2): bytes per 1024 cycles, saturated to 32 bits.
pub fn line_win(link: &LinkCfg) -> u32 {
    let clk = u128::from(Params::DEFAULT.clk_hz());
    let w = u128::from(link.rate_bits_per_s / 8) * 1024 / clk;
    u32::try_from(w).unwrap_or(u32::MAX)
}

/// One NSCC flow behind its own port.
#[derive(Clone, Debug)]
pub struct NsccSender {
    regs: NsccRegs,
    line_win: u32,
    flow: NsccFlow,
    /// Bytes granted, mod 2^32 (`GBYTES_MEM`).
    gbytes: u32,
    /// Bytes of one frame in the window (the payload, the MTU).
    frame_bytes: u32,
    cycle_ps: u64,
    /// The next cycle to run.
    cycle: u64,
    start_cycle: u64,
    stop_cycle: u64,
    /// When the frame on the wire has left (its gap included).
    wire_free_ps: u64,
    wire_ps: u64,
    link_delay_ps: u64,
    paused_until_ps: u64,
    /// The cycle of the flow's last event and the largest age of its stamps then (for `old`).
    last_event_cycle: u64,
    last_event_age: u64,
    /// Counters (cumulative).
    pub frames_sent: u64,
    pub acks: u64,
    pub penalised_acks: u64,
    pub pauses_received: u64,
}

impl NsccSender {
    /// The sender of `flow` with the network's registers `regs` ([`registers`]).
    pub fn new(
        flow: &FlowCfg,
        frame: &FrameCfg,
        link: &LinkCfg,
        regs: NsccRegs,
        line_win: u32,
    ) -> NsccSender {
        let cycle_ps = cycle_ps(&Params::DEFAULT);
        NsccSender {
            regs,
            line_win,
            flow: NsccFlow::init(&regs, 0),
            gbytes: 0,
            frame_bytes: frame.payload_bytes,
            cycle_ps,
            cycle: 0,
            start_cycle: flow.start_ps.div_ceil(cycle_ps),
            stop_cycle: flow.stop_ps.map_or(u64::MAX, |t| t.div_ceil(cycle_ps)),
            wire_free_ps: 0,
            wire_ps: link.ser_ps(u64::from(frame.wire_bytes())),
            link_delay_ps: link.delay_ps,
            paused_until_ps: 0,
            last_event_cycle: 0,
            last_event_age: 0,
            frames_sent: 0,
            acks: 0,
            penalised_acks: 0,
            pauses_received: 0,
        }
    }

    /// The flow's record (read access for samples and tests).
    pub fn record(&self) -> &NsccFlow {
        &self.flow
    }

    /// Bytes granted and not yet acknowledged (`inflight`, spec-nscc 4.1).
    pub fn inflight_bytes(&self) -> i32 {
        self.flow.inflight(self.gbytes)
    }

    /// The window in bytes (`cwnd` is Q24.8).
    pub fn cwnd_bytes(&self) -> u32 {
        self.flow.cwnd >> 8
    }

    /// The registers the flow runs.
    pub fn regs(&self) -> &NsccRegs {
        &self.regs
    }

    /// A PFC frame reaches the sender at `t_ps`: pause for `pause_ps` (0: resume).
    pub fn pause(&mut self, t_ps: u64, pause_ps: u64) {
        self.pauses_received += u64::from(pause_ps > 0);
        self.paused_until_ps = t_ps + pause_ps;
    }

    fn window_open(&self) -> bool {
        win_ok(
            self.gbytes,
            self.flow.abytes,
            self.flow.cwnd,
            self.regs.mtu_eff(),
        )
    }

    /// The cycle whose grant puts the next frame on the wire, if no ACK or PFC frame reaches the
    /// sender before it (`u64::MAX`: none before an ACK): the window has room, the flow is on,
    /// the wire is free by the end of the cycle and the pause is over. The network advances the
    /// sender only from this cycle on, or when an input or a sample reaches it.
    pub fn next_departure_cycle(&self) -> u64 {
        if !self.window_open() {
            return u64::MAX;
        }
        let c = self
            .cycle
            .max(self.start_cycle)
            .max(self.wire_free_ps / self.cycle_ps)
            .max(self.paused_until_ps.div_ceil(self.cycle_ps));
        if c >= self.stop_cycle {
            u64::MAX
        } else {
            c
        }
    }

    /// Runs every cycle that starts before `t_ps`; frames put on the wire are appended to `out`.
    /// One frame at most per cycle; a frame starts when the wire is free (back to back at line
    /// rate), not before its cycle.
    pub fn advance_to(&mut self, t_ps: u64, out: &mut Vec<NsccDeparture>) {
        let end = t_ps.div_ceil(self.cycle_ps);
        loop {
            let c = self.next_departure_cycle();
            if c >= end {
                break;
            }
            let start = (c * self.cycle_ps)
                .max(self.wire_free_ps)
                .max(self.paused_until_ps);
            self.gbytes = self.gbytes.wrapping_add(self.frame_bytes);
            self.wire_free_ps = start + self.wire_ps;
            self.frames_sent += 1;
            out.push(NsccDeparture {
                arrive_ps: start + self.wire_ps + self.link_delay_ps,
                tx_cycle: c as u32,
            });
            self.cycle = c + 1;
        }
        self.cycle = self.cycle.max(end);
    }

    /// The ACK of one frame reaches the sender at `t_ps` (the sender has run to `t_ps`): one
    /// ACK event of the ACK port (spec-nscc 3) through [`execute`].
    pub fn ack(&mut self, t_ps: u64, ack: Ack) {
        let now64 = t_ps.div_ceil(self.cycle_ps).max(self.cycle);
        let now = now64 as u32;
        let rtt = now.wrapping_sub(ack.tx_cycle).min(EVENT_FIELD_MAX);
        let ev = Event {
            kind: EventKind::Ack,
            bytes: self.frame_bytes,
            ecn: ack.ecn,
            rtt: Some(rtt),
            pend: ack.pend,
            rc: false,
        };
        // spec-nscc 6.4: `old` is set once some stamp's age has passed 2^31 cycles.
        let old = (now64 - self.last_event_cycle) + self.last_event_age >= 1 << 31;
        let (next, _) = execute(
            &self.flow,
            self.gbytes,
            old,
            now,
            &ev,
            &self.regs,
            self.line_win,
        );
        self.flow = next;
        self.last_event_cycle = now64;
        self.last_event_age = [next.t_adj, next.t_dec, next.t_qa]
            .iter()
            .map(|&s| u64::from(now.wrapping_sub(s).min(AGE_MAX)))
            .max()
            .unwrap_or(0);
        self.acks += 1;
        self.penalised_acks += u64::from(ack.pend > 0);
    }
}

/// The receiver's memory: one server retiring each frame's payload at `drain` bits/s, first in
/// first out; its queue is the bytes received and not yet retired.
#[derive(Clone, Debug)]
pub struct RecvMemory {
    drain_bits_per_s: u64,
    threshold_bytes: u64,
    pend: u8,
    /// Frames not yet retired: the time each is retired and its bytes.
    pending: VecDeque<(u64, u64)>,
    queue_bytes: u64,
    busy_until_ps: u64,
    pub max_queue_bytes: u64,
    pub retired_bytes: u64,
}

impl RecvMemory {
    pub fn new(drain_bits_per_s: u64, threshold_bytes: u64, pend: u8) -> RecvMemory {
        RecvMemory {
            drain_bits_per_s,
            threshold_bytes,
            pend,
            pending: VecDeque::new(),
            queue_bytes: 0,
            busy_until_ps: 0,
            max_queue_bytes: 0,
            retired_bytes: 0,
        }
    }

    /// Retires what is done by `t_ps`.
    fn retire(&mut self, t_ps: u64) {
        while let Some(&(done, b)) = self.pending.front() {
            if done > t_ps {
                break;
            }
            self.pending.pop_front();
            self.queue_bytes -= b;
            self.retired_bytes += b;
        }
    }

    /// Bytes not yet retired at `t_ps` (times never go back).
    pub fn queue_bytes(&mut self, t_ps: u64) -> u64 {
        self.retire(t_ps);
        self.queue_bytes
    }

    /// A frame of `bytes` payload arrives at `t_ps`; returns the `rcv_cwnd_pend` of its ACK: the
    /// configured value while the queue, this frame included, is above the threshold, else 0.
    pub fn arrive(&mut self, t_ps: u64, bytes: u64) -> u8 {
        self.retire(t_ps);
        let service = u64::try_from(
            (u128::from(bytes) * 8 * u128::from(PS_PER_S))
                .div_ceil(u128::from(self.drain_bits_per_s)),
        )
        .unwrap_or(u64::MAX);
        let done = self.busy_until_ps.max(t_ps).saturating_add(service);
        self.busy_until_ps = done;
        self.pending.push_back((done, bytes));
        self.queue_bytes += bytes;
        self.max_queue_bytes = self.max_queue_bytes.max(self.queue_bytes);
        if self.queue_bytes > self.threshold_bytes {
            self.pend
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{NetConfig, Profile};

    fn net() -> NetConfig {
        let mut c = NetConfig::default_network();
        c.leaves = vec![1];
        c.flows = vec![FlowCfg {
            name: "f".into(),
            start_ps: 0,
            stop_ps: None,
            registers: dcqcn_model::Config::paper_table2(&Params::DEFAULT),
            profile: Profile::Nscc,
        }];
        c
    }

    fn sender(c: &NetConfig) -> NsccSender {
        let regs = registers(c).unwrap();
        NsccSender::new(&c.flows[0], &c.frame, &c.link, regs, line_win(&c.link))
    }

    #[test]
    fn registers_of_the_default_network() {
        let c = net();
        // 3342.4 + 1000 ns twice, then the ACK: 1000 + 2 × (67.2 + 1000) ns.
        assert_eq!(unloaded_rtt_ps(&c), 11_819_200);
        let r = registers(&c).unwrap();
        // 11.8192 us at 156.25 MHz; 1.5 × 1.25e9 B/s × 11.8192 us; no trimming: target = base.
        assert_eq!((r.base_rtt, r.target, r.mtu), (1847, 1847, 4096));
        assert_eq!(r.max_wnd, 22_161);
        assert_eq!(line_win(&c.link), 8192);
    }

    #[test]
    fn sends_while_the_window_has_room_back_to_back_at_line_rate() {
        let c = net();
        let mut s = sender(&c);
        let cwnd = s.cwnd_bytes();
        assert_eq!(cwnd, 22_161, "init: max_wnd");
        let mut out = Vec::new();
        s.advance_to(100_000_000, &mut out);
        // inflight + 4096 <= cwnd: 5 frames (20,480 bytes), the sixth would need 24,576.
        assert_eq!(out.len(), 5);
        assert_eq!(s.inflight_bytes(), 5 * 4096);
        assert_eq!(s.next_departure_cycle(), u64::MAX);
        let wire = c.link.ser_ps(u64::from(c.frame.wire_bytes()));
        for w in out.windows(2) {
            assert_eq!(w[1].arrive_ps - w[0].arrive_ps, wire, "back to back");
        }
        assert_eq!(out[0].tx_cycle, 0);
        assert_eq!(out[0].arrive_ps, wire + c.link.delay_ps);
        assert_eq!(out[1].tx_cycle as u64, wire / 6_400);
    }

    #[test]
    fn an_ack_frees_its_bytes_and_samples_the_rtt() {
        let c = net();
        let mut s = sender(&c);
        let mut out = Vec::new();
        // 50 us: the five frames of the window have left, the sender waits for an ACK.
        let t = 50_000_000;
        s.advance_to(t, &mut out);
        assert_eq!(out.len(), 5);
        let regs = *s.regs();
        let before = *s.record();
        s.ack(
            t,
            Ack {
                tx_cycle: out[0].tx_cycle,
                ecn: false,
                pend: 0,
            },
        );
        // The model's own result for the ACK port fields the sender formed: the payload as newly
        // received bytes, the RTT sample from the transmit cycle to the ACK's (50 us = 7,813
        // cycles, rounded up).
        let now = 7_813;
        let ev = Event {
            kind: EventKind::Ack,
            bytes: 4096,
            ecn: false,
            rtt: Some(now),
            pend: 0,
            rc: false,
        };
        let (want, _) = execute(&before, 5 * 4096, false, now, &ev, &regs, 8192);
        assert_eq!(*s.record(), want);
        assert_eq!(s.inflight_bytes(), 4 * 4096);
        assert_eq!(s.record().abytes, 4096);
        assert!(
            s.cwnd_bytes() >= 22_161,
            "an unmarked ACK does not shrink the window"
        );
        // One MTU of room again: the sixth frame leaves in the ACK's cycle.
        assert_eq!(s.next_departure_cycle(), u64::from(now));
        s.advance_to(t + 6_400, &mut out);
        assert_eq!(out.len(), 6);
        assert_eq!(out[5].tx_cycle, now);
    }

    #[test]
    fn a_penalty_shrinks_the_window_by_pend_of_128_of_the_bytes() {
        let c = net();
        let mut s = sender(&c);
        let mut out = Vec::new();
        // 10 us: three frames out (one each 3.34 us); the ACK comes before the adjustment period
        // (one base RTT), so only the penalty moves the window.
        let t = 10_000_000;
        s.advance_to(t, &mut out);
        assert_eq!(out.len(), 3);
        s.ack(
            t,
            Ack {
                tx_cycle: 0,
                ecn: false,
                pend: 64,
            },
        );
        // spec-nscc 6.2 step 2: min(cwnd, inflight) − 4096 · 64 / 128, inflight after the ACK.
        assert_eq!(s.cwnd_bytes(), 2 * 4096 - 2048);
        assert_eq!(
            s.record().saved,
            22_161 << 8,
            "the window before the penalty is saved"
        );
        assert_eq!(s.penalised_acks, 1);
        assert_eq!(
            s.next_departure_cycle(),
            u64::MAX,
            "inflight above cwnd: wait"
        );
    }

    #[test]
    fn pause_and_stop_hold_the_sender() {
        let mut c = net();
        c.flows[0].stop_ps = Some(1_000_000);
        let mut s = sender(&c);
        s.pause(0, 5_000_000);
        let mut out = Vec::new();
        s.advance_to(50_000_000, &mut out);
        assert!(out.is_empty(), "paused past the stop");
        let mut s = sender(&net());
        s.pause(0, 5_000_000);
        s.advance_to(50_000_000, &mut out);
        assert_eq!(out[0].tx_cycle as u64, 5_000_000 / 6_400 + 1);
    }

    #[test]
    fn memory_drains_at_its_rate_and_penalises_above_the_threshold() {
        // 4096 bytes at 4.096 Gb/s: 8 us each.
        let mut m = RecvMemory::new(4_096_000_000, 8_000, 64);
        assert_eq!(m.arrive(0, 4096), 0);
        assert_eq!(m.arrive(0, 4096), 64, "8192 > 8000");
        assert_eq!(m.queue_bytes(8_000_000 - 1), 8192);
        assert_eq!(m.queue_bytes(8_000_000), 4096);
        assert_eq!(m.arrive(8_000_000, 4096), 64);
        assert_eq!(m.queue_bytes(24_000_000), 0);
        assert_eq!((m.max_queue_bytes, m.retired_bytes), (8192, 3 * 4096));
    }
}
