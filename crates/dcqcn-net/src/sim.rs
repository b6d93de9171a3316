//! The network and its event loop.
//!
//! Topology: senders behind leaf switches; one leaf is a single switch in front of the receiver,
//! several leaves meet at a root switch. A sender is one flow behind a single-flow limiter
//! ([`Sender`]), with profile `mq` a NIC whose QPs are flows sharing one port ([`NicSender`]), or
//! with profile `nscc` one NSCC flow ([`NsccSender`]), which the receiver answers with one ACK per
//! frame; flows are numbered sender by sender, a NIC's QPs in order. Edge links (sender to leaf)
//! run at `link.rate`, switch uplinks (leaf to root, into the receiver) at `link.uplink_rate`
//! (default the same); data flows toward the receiver, PFC frames, CNPs and NSCC ACKs flow back.
//! The receiver may model its memory ([`RecvMemory`]), whose queue sets the ACKs'
//! `rcv_cwnd_pend`.
//!
//! Time is in picoseconds. Switches, the receiver and the links are event-driven (a heap ordered by
//! time, then insertion); senders are clocked. The loop is conservative: a sender's frame reaches a
//! switch at least one link delay after it left, so all senders may run ahead to the next event or
//! one link delay, whichever is sooner, before the events of that instant are handled. Everything
//! is sequential and seeded, so a run is the same byte for byte.

use crate::config::{NetConfig, Profile, CONTROL_WIRE_BYTES, PS_PER_S};
use crate::nic::{NicDeparture, NicSender};
use crate::nscc::{Ack, NsccDeparture, NsccSender, RecvMemory};
use crate::sender::Sender;
use crate::switch::{Action, Packet, Switch, SwitchStats};
use dcqcn_model::Params;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    /// A frame has fully arrived at `sw`'s ingress `port`.
    Arrive {
        sw: usize,
        port: usize,
        pkt: Packet,
    },
    /// `sw`'s uplink has finished a frame.
    UplinkFree {
        sw: usize,
    },
    /// A PFC frame reaches `sw`'s uplink from downstream.
    PauseUplink {
        sw: usize,
        xoff: bool,
    },
    /// A PFC frame reaches sender `s`.
    PauseSender {
        s: usize,
        xoff: bool,
    },
    Refresh {
        sw: usize,
        port: usize,
        generation: u64,
    },
    /// The pause of `sw`'s uplink may have expired.
    Wake {
        sw: usize,
    },
    /// A frame has fully arrived at the receiver.
    Deliver {
        pkt: Packet,
    },
    /// A CNP for flow `f` reaches its sender.
    Cnp {
        f: usize,
    },
    /// An NSCC ACK for flow `f` reaches its sender (it takes the CNPs' way back).
    Ack {
        f: usize,
        ack: Ack,
    },
    Sample,
}

/// Where an ingress port's frames come from.
#[derive(Clone, Copy, Debug)]
enum Upstream {
    Sender(usize),
    Switch(usize),
}

/// One row of the time series: the interval that ends at `t_ps`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub t_ps: u64,
    pub flows: Vec<FlowSample>,
    pub switches: Vec<SwitchSample>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowSample {
    /// Payload received in the interval, Gb/s.
    pub payload_gbps: f64,
    /// The limiter's Rc and Rt registers at the end of the interval, bytes/s.
    pub rc_bytes_per_s: u32,
    pub rt_bytes_per_s: u32,
    /// Q0.10.
    pub alpha: u16,
    /// CNPs sent to this flow in the interval.
    pub cnps: u64,
    /// CE-marked frames of this flow received in the interval.
    pub marked: u64,
    /// Rate-increase timer expiries so far (the limiter's `cnt_inc_timer`, wrapping).
    pub inc_timer_fires: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchSample {
    pub queue_bytes: u64,
    /// XOFF frames sent in the interval.
    pub xoff: u64,
    /// Frames marked in the interval.
    pub marks: u64,
    /// Drops so far.
    pub drops: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct FlowCounters {
    payload_bytes: u64,
    frames: u64,
    marked: u64,
    cnps: u64,
    last_cnp_ps: Option<u64>,
}

/// What a sample records of NSCC flows and the receiver's memory (kept only when some flow is
/// an NSCC flow or the receiver has a memory model).
#[derive(Clone, Debug, PartialEq)]
pub struct NsccSample {
    pub t_ps: u64,
    /// Per flow: the window and inflight at the end of the interval, bytes (0 for other flows).
    pub cwnd_bytes: Vec<u32>,
    pub inflight_bytes: Vec<i32>,
    /// The receiver's memory queue at the end of the interval, bytes (0 without a model).
    pub receiver_mem_bytes: u64,
    /// ACKs sent in the interval with `rcv_cwnd_pend` above 0.
    pub penalised_acks: u64,
}

/// Everything measured in a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub samples: Vec<Sample>,
    /// One per sample when some flow is an NSCC flow or the receiver has a memory model; else
    /// empty.
    pub nscc: Vec<NsccSample>,
    /// The receiver memory queue's peak, bytes (0 without a model).
    pub receiver_mem_max_bytes: u64,
    /// Per flow: payload bytes received, frames, CE-marked frames, CNPs sent.
    pub flow_payload_bytes: Vec<u64>,
    pub flow_frames: Vec<u64>,
    pub flow_cnps: Vec<u64>,
    pub switches: Vec<SwitchStats>,
    /// Time spent in XOFF, per switch, summed over its ports.
    pub xoff_ps: Vec<u64>,
    pub stepped_cycles: u64,
    pub skipped_cycles: u64,
    pub duration_ps: u64,
}

impl RunResult {
    pub fn drops(&self) -> u64 {
        self.switches.iter().map(|s| s.drops).sum()
    }
}

/// How the event loop advances the senders; every choice gives the same run (tested).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// A sender runs only once the window reaches the cycle its next frame can leave at
    /// ([`Sender::next_departure_cycle`]), or when a CNP, a PFC frame or a sample reaches it:
    /// the frames are pushed in the same windows and order as [`Schedule::Eager`]'s.
    Lazy,
    /// Every sender to the end of every window.
    Eager,
    /// Eager, and a frame leaving before its sender's bound panics (the bound's test).
    Checked,
}

/// What sits behind an edge port: one flow's sender, or a NIC with its QPs. The single-flow
/// sender, the hot path of every paper experiment, stays inline (as [`crate::limiter::Limiter`]
/// keeps our block inline); the NIC, whose block is on the heap anyway, is boxed.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
enum Port {
    Flow(Sender),
    Nic(Box<NicSender>),
    Nscc(NsccSender),
}

impl Port {
    fn next_departure_cycle(&self) -> u64 {
        match self {
            Port::Flow(x) => x.next_departure_cycle(),
            Port::Nic(n) => n.next_departure_cycle(),
            Port::Nscc(x) => x.next_departure_cycle(),
        }
    }

    fn pause(&mut self, t: u64, pause_ps: u64) {
        match self {
            Port::Flow(x) => x.pause(t, pause_ps),
            Port::Nic(n) => n.pause(t, pause_ps),
            Port::Nscc(x) => x.pause(t, pause_ps),
        }
    }

    fn stepped_cycles(&self) -> u64 {
        match self {
            Port::Flow(x) => x.stepped_cycles,
            Port::Nic(n) => n.stepped_cycles,
            Port::Nscc(_) => 0,
        }
    }

    fn skipped_cycles(&self) -> u64 {
        match self {
            Port::Flow(x) => x.skipped_cycles,
            Port::Nic(_) | Port::Nscc(_) => 0,
        }
    }
}

/// A network ready to run.
pub struct Network {
    cfg: NetConfig,
    /// Per sender (edge port), in topology order.
    senders: Vec<Port>,
    /// Per sender: its first flow (a NIC's QP q is flow `first_flow + q`).
    first_flow: Vec<usize>,
    /// Per flow: its sender and QP (0 for a single-flow sender).
    flow_at: Vec<(usize, u16)>,
    /// Per sender: its leaf and port.
    attach: Vec<(usize, usize)>,
    switches: Vec<Switch>,
    /// Per switch, per port: upstream.
    upstream: Vec<Vec<Upstream>>,
    /// Per switch: the root's port its uplink feeds, or None for the receiver.
    downstream: Vec<Option<(usize, usize)>>,
    flows: Vec<FlowCounters>,
    heap: BinaryHeap<Reverse<(u64, u64, Ev)>>,
    seq: u64,
    /// Wire time of a frame (with its preamble and gap): the uplink is busy this long, and the
    /// far end has the whole frame this long plus the propagation delay after it started.
    wire_frame_ps: u64,
    /// Pause time of a PFC frame on an edge link (to a sender) and on an uplink (to a leaf).
    pause_ps: u64,
    uplink_pause_ps: u64,
    /// Time for a PFC frame or CNP to cross an edge link and an uplink.
    control_hop_ps: u64,
    uplink_hop_ps: u64,
    cnp_delay_ps: u64,
    samples: Vec<Sample>,
    schedule: Schedule,
    cycle_ps: u64,
    /// Per sender: the cycle bound of its next frame (`u64::MAX`: none, or being advanced).
    bound: Vec<u64>,
    /// The bounds, earliest first (an entry that no longer matches `bound` is stale).
    due: BinaryHeap<Reverse<(u64, usize)>>,
    departures: Vec<u64>,
    nic_departures: Vec<NicDeparture>,
    nscc_departures: Vec<NsccDeparture>,
    /// The receiver's memory, if modelled.
    mem: Option<RecvMemory>,
    /// Keep [`NsccSample`]s.
    record_nscc: bool,
    nscc_samples: Vec<NsccSample>,
    penalised_acks: u64,
    last_penalised_acks: u64,
    last: Vec<FlowCounters>,
    last_sw: Vec<SwitchStats>,
}

impl Network {
    /// Builds the network of `cfg` (validated by the caller: [`NetConfig::validate`]).
    pub fn new(cfg: NetConfig) -> Network {
        let params = Params::DEFAULT;
        let link = &cfg.link;
        let uplink = link.uplink();
        let nleaf = cfg.leaves.len();
        let has_root = nleaf > 1;
        // 65535 quanta x 512 bit times x 10^12 ps/s exceeds u64 before the division.
        let pause_at = |rate_bits_per_s: u64| {
            u64::try_from(
                u128::from(cfg.switch.pause_quanta) * 512 * u128::from(PS_PER_S)
                    / u128::from(rate_bits_per_s),
            )
            .unwrap_or(u64::MAX)
        };
        // A leaf pauses senders on edge links; the root pauses leaves' uplinks.
        let pause_ps = pause_at(link.rate_bits_per_s);
        let uplink_pause_ps = pause_at(uplink.rate_bits_per_s);
        let mut switches = Vec::new();
        let mut upstream = Vec::new();
        let mut downstream = Vec::new();
        let mut attach = Vec::new();
        let mut s = 0usize;
        for (l, &n) in cfg.leaves.iter().enumerate() {
            switches.push(Switch::new(
                cfg.switch.clone(),
                n as usize,
                cfg.frame.frame_bytes(),
                pause_ps,
                cfg.seed,
                l as u64,
            ));
            upstream.push((0..n as usize).map(|k| Upstream::Sender(s + k)).collect());
            downstream.push(has_root.then_some((nleaf, l)));
            for k in 0..n as usize {
                attach.push((l, k));
            }
            s += n as usize;
        }
        if has_root {
            switches.push(Switch::new(
                cfg.switch.clone(),
                nleaf,
                cfg.frame.frame_bytes(),
                uplink_pause_ps,
                cfg.seed,
                nleaf as u64,
            ));
            upstream.push((0..nleaf).map(Upstream::Switch).collect());
            downstream.push(None);
        }
        let per = cfg.flows_per_sender();
        let senders: Vec<Port> = if cfg.is_nic() {
            let p = link
                .mq_params(cfg.sender.qps)
                .expect("NetConfig::validate checks the block's parameters");
            cfg.flows
                .chunks(per)
                .map(|qps| Port::Nic(Box::new(NicSender::new(p, qps, &cfg.frame, link))))
                .collect()
        } else {
            // Validated: the registers derive whenever a flow is an NSCC flow.
            let regs = cfg
                .flows
                .iter()
                .any(|f| f.profile == Profile::Nscc)
                .then(|| {
                    crate::config::nscc_registers(&cfg)
                        .expect("NetConfig::validate checks the NSCC registers")
                });
            let line_win = crate::nscc::line_win(link);
            cfg.flows
                .iter()
                .map(|f| match (f.profile, regs) {
                    (Profile::Nscc, Some(regs)) => {
                        Port::Nscc(NsccSender::new(f, &cfg.frame, link, regs, line_win))
                    }
                    _ => Port::Flow(Sender::new(f, &cfg.frame, link, &cfg.sender)),
                })
                .collect()
        };
        let r = &cfg.receiver;
        let mem = r
            .mem_drain_bits_per_s
            .map(|rate| RecvMemory::new(rate, r.mem_threshold_bytes, r.rcv_cwnd_pend));
        let record_nscc = mem.is_some() || cfg.flows.iter().any(|f| f.profile == Profile::Nscc);
        let first_flow: Vec<usize> = (0..senders.len()).map(|s| s * per).collect();
        let flow_at: Vec<(usize, u16)> = (0..cfg.flows.len())
            .map(|f| (f / per, (f % per) as u16))
            .collect();
        let control_hop_ps = link.ser_ps(CONTROL_WIRE_BYTES) + link.delay_ps;
        let uplink_hop_ps = uplink.ser_ps(CONTROL_WIRE_BYTES) + uplink.delay_ps;
        // A CNP crosses the uplinks back to the leaf, then the sender's edge link.
        let uplink_hops = if has_root { 2 } else { 1 };
        let n = senders.len();
        let nflows = flow_at.len();
        let nsw = switches.len();
        let mut net = Network {
            wire_frame_ps: uplink.ser_ps(u64::from(cfg.frame.wire_bytes())),
            pause_ps,
            uplink_pause_ps,
            control_hop_ps,
            uplink_hop_ps,
            cnp_delay_ps: cfg.receiver.cnp_latency_ps
                + uplink_hops * uplink_hop_ps
                + control_hop_ps,
            cfg,
            senders,
            first_flow,
            flow_at,
            attach,
            switches,
            upstream,
            downstream,
            flows: vec![FlowCounters::default(); nflows],
            heap: BinaryHeap::new(),
            seq: 0,
            samples: Vec::new(),
            schedule: Schedule::Lazy,
            cycle_ps: crate::config::cycle_ps(&params),
            bound: vec![u64::MAX; n],
            due: BinaryHeap::new(),
            departures: Vec::new(),
            nic_departures: Vec::new(),
            nscc_departures: Vec::new(),
            mem,
            record_nscc,
            nscc_samples: Vec::new(),
            penalised_acks: 0,
            last_penalised_acks: 0,
            last: vec![FlowCounters::default(); nflows],
            last_sw: vec![SwitchStats::default(); nsw],
        };
        let first = net.cfg.sample_ps;
        net.push(first, Ev::Sample);
        net
    }

    fn push(&mut self, t: u64, ev: Ev) {
        self.seq += 1;
        self.heap.push(Reverse((t, self.seq, ev)));
    }

    /// Runs to the configured duration; `progress` is called now and then with the fraction done.
    pub fn run(mut self, mut progress: impl FnMut(f64)) -> RunResult {
        let end = self.cfg.duration_ps;
        let lookahead = self.cfg.link.delay_ps;
        let mut now = 0u64;
        let mut actions = Vec::new();
        let mut due = Vec::new();
        let mut iter = 0u64;
        for s in 0..self.senders.len() {
            self.rebound(s);
        }
        loop {
            let head = self.heap.peek().map_or(u64::MAX, |Reverse((t, _, _))| *t);
            let t1 = head.min(now + lookahead).min(end);
            if t1 > now {
                match self.schedule {
                    Schedule::Lazy => {
                        // The senders whose next frame may leave before t1, in index order
                        // (the order of the eager loop's pushes).
                        due.clear();
                        while let Some(&Reverse((b, s))) = self.due.peek() {
                            if self.cycle_start_ps(b) >= t1 {
                                break;
                            }
                            self.due.pop();
                            if self.bound[s] == b {
                                self.bound[s] = u64::MAX;
                                due.push(s);
                            }
                        }
                        due.sort_unstable();
                        for &s in &due {
                            self.advance_sender(s, t1);
                            self.rebound(s);
                        }
                    }
                    Schedule::Eager | Schedule::Checked => {
                        for s in 0..self.senders.len() {
                            let bound = self.senders[s].next_departure_cycle();
                            let sent = self.advance_sender(s, t1);
                            if self.schedule == Schedule::Checked && sent > 0 {
                                assert!(
                                    self.cycle_start_ps(bound) < t1,
                                    "sender {s}: a frame left before {t1} ps, bound cycle {bound}"
                                );
                            }
                        }
                    }
                }
                now = t1;
            }
            while let Some(Reverse((t, _, ev))) = self.heap.peek().copied() {
                if t > now {
                    break;
                }
                self.heap.pop();
                self.handle(t, ev, &mut actions);
            }
            if now >= end {
                break;
            }
            iter += 1;
            if iter.is_multiple_of(4096) {
                progress(now as f64 / end as f64);
            }
        }
        for s in 0..self.senders.len() {
            self.advance_quiet(s, end);
        }
        progress(1.0);
        let xoff_ps = self.switches.iter().map(|s| s.xoff_ps(end)).collect();
        RunResult {
            samples: self.samples,
            nscc: self.nscc_samples,
            receiver_mem_max_bytes: self.mem.as_ref().map_or(0, |m| m.max_queue_bytes),
            flow_payload_bytes: self.flows.iter().map(|f| f.payload_bytes).collect(),
            flow_frames: self.flows.iter().map(|f| f.frames).collect(),
            flow_cnps: self.flows.iter().map(|f| f.cnps).collect(),
            switches: self.switches.iter().map(|s| s.stats).collect(),
            xoff_ps,
            stepped_cycles: self.senders.iter().map(Port::stepped_cycles).sum(),
            skipped_cycles: self.senders.iter().map(Port::skipped_cycles).sum(),
            duration_ps: end,
        }
    }

    fn handle(&mut self, t: u64, ev: Ev, actions: &mut Vec<Action>) {
        actions.clear();
        match ev {
            Ev::Arrive { sw, port, pkt } => {
                self.switches[sw].arrive(t, port, pkt, actions);
                self.apply(t, sw, actions);
            }
            Ev::UplinkFree { sw } => {
                self.switches[sw].uplink_free(t, actions);
                self.apply(t, sw, actions);
            }
            Ev::PauseUplink { sw, xoff } => {
                let p = if xoff { self.uplink_pause_ps } else { 0 };
                self.switches[sw].pause_uplink(t, p, actions);
                if xoff {
                    self.push(t + p, Ev::Wake { sw });
                }
                self.apply(t, sw, actions);
            }
            Ev::Wake { sw } => {
                if self.switches[sw].uplink_paused_until() <= t {
                    self.switches[sw].wake(t, actions);
                    self.apply(t, sw, actions);
                }
            }
            Ev::PauseSender { s, xoff } => {
                let p = if xoff { self.pause_ps } else { 0 };
                self.advance_quiet(s, t);
                self.senders[s].pause(t, p);
                self.rebound(s);
            }
            Ev::Refresh {
                sw,
                port,
                generation,
            } => {
                self.switches[sw].refresh(t, port, generation, actions);
                self.apply(t, sw, actions);
            }
            Ev::Deliver { pkt } => self.deliver(t, pkt),
            Ev::Cnp { f } => {
                let (s, qp) = self.flow_at[f];
                self.advance_quiet(s, t);
                match &mut self.senders[s] {
                    Port::Flow(x) => x.cnp(t),
                    Port::Nic(n) => n.cnp(t, qp),
                    Port::Nscc(_) => unreachable!("the receiver sends no CNP to an NSCC flow"),
                }
                self.rebound(s);
            }
            Ev::Ack { f, ack } => {
                let (s, _) = self.flow_at[f];
                self.advance_quiet(s, t);
                match &mut self.senders[s] {
                    Port::Nscc(x) => x.ack(t, ack),
                    Port::Flow(_) | Port::Nic(_) => {
                        unreachable!("the receiver ACKs only NSCC flows")
                    }
                }
                self.rebound(s);
            }
            Ev::Sample => {
                self.sample(t);
                if t + self.cfg.sample_ps <= self.cfg.duration_ps {
                    self.push(t + self.cfg.sample_ps, Ev::Sample);
                }
            }
        }
    }

    fn apply(&mut self, t: u64, sw: usize, actions: &[Action]) {
        for a in actions {
            match *a {
                Action::Pfc { port, xoff } => match self.upstream[sw][port] {
                    Upstream::Sender(s) => {
                        self.push(t + self.control_hop_ps, Ev::PauseSender { s, xoff })
                    }
                    Upstream::Switch(up) => {
                        self.push(t + self.uplink_hop_ps, Ev::PauseUplink { sw: up, xoff })
                    }
                },
                Action::Refresh {
                    port,
                    at_ps,
                    generation,
                } => self.push(
                    at_ps,
                    Ev::Refresh {
                        sw,
                        port,
                        generation,
                    },
                ),
                Action::Transmit { pkt, at_ps } => {
                    self.push(at_ps + self.wire_frame_ps, Ev::UplinkFree { sw });
                    let arrive = at_ps + self.wire_frame_ps + self.cfg.link.delay_ps;
                    match self.downstream[sw] {
                        Some((root, port)) => self.push(
                            arrive,
                            Ev::Arrive {
                                sw: root,
                                port,
                                pkt,
                            },
                        ),
                        None => self.push(arrive, Ev::Deliver { pkt }),
                    }
                }
            }
        }
    }

    /// The notification point: payload accounting, the memory's queue, and at most one CNP per
    /// flow per interval (DCQCN flows) or one ACK per frame (NSCC flows).
    fn deliver(&mut self, t: u64, pkt: Packet) {
        let payload = u64::from(self.cfg.frame.payload_bytes);
        let pend = self.mem.as_mut().map_or(0, |m| m.arrive(t, payload));
        let f = &mut self.flows[pkt.flow as usize];
        f.payload_bytes += payload;
        f.frames += 1;
        if self.cfg.flows[usize::from(pkt.flow)].profile == Profile::Nscc {
            f.marked += u64::from(pkt.ce);
            self.penalised_acks += u64::from(pend > 0);
            let ack = Ack {
                tx_cycle: pkt.tx_cycle,
                ecn: pkt.ce,
                pend,
            };
            self.push(
                t + self.cnp_delay_ps,
                Ev::Ack {
                    f: usize::from(pkt.flow),
                    ack,
                },
            );
            return;
        }
        if pkt.ce {
            f.marked += 1;
            let due = f
                .last_cnp_ps
                .is_none_or(|last| t - last >= self.cfg.receiver.cnp_interval_ps);
            if due {
                f.last_cnp_ps = Some(t);
                f.cnps += 1;
                let at = t + self.cnp_delay_ps;
                self.push(
                    at,
                    Ev::Cnp {
                        f: usize::from(pkt.flow),
                    },
                );
            }
        }
    }

    fn sample(&mut self, t: u64) {
        for s in 0..self.senders.len() {
            self.advance_quiet(s, t);
        }
        let dt = self.cfg.sample_ps as f64 / PS_PER_S as f64;
        let flows = (0..self.flows.len())
            .map(|i| {
                let (now, last) = (&self.flows[i], &self.last[i]);
                let (s, qp) = self.flow_at[i];
                let payload_gbps = (now.payload_bytes - last.payload_bytes) as f64 * 8.0 / dt / 1e9;
                let st = match &self.senders[s] {
                    Port::Flow(x) => x.limiter().view(),
                    Port::Nic(n) => n.view(qp),
                    // No rate registers: the window is in the NSCC sample.
                    Port::Nscc(_) => {
                        return FlowSample {
                            payload_gbps,
                            rc_bytes_per_s: 0,
                            rt_bytes_per_s: 0,
                            alpha: 0,
                            cnps: 0,
                            marked: now.marked - last.marked,
                            inc_timer_fires: 0,
                        }
                    }
                };
                FlowSample {
                    payload_gbps,
                    rc_bytes_per_s: st.rc,
                    rt_bytes_per_s: st.rt,
                    alpha: st.alpha,
                    cnps: now.cnps - last.cnps,
                    marked: now.marked - last.marked,
                    inc_timer_fires: st.inc_timer_fires,
                }
            })
            .collect();
        let switches = self
            .switches
            .iter()
            .zip(&self.last_sw)
            .map(|(s, l)| SwitchSample {
                queue_bytes: s.queue_bytes(),
                xoff: s.stats.xoff_sent - l.xoff_sent,
                marks: s.stats.marks - l.marks,
                drops: s.stats.drops,
            })
            .collect();
        if self.record_nscc {
            let (cwnd_bytes, inflight_bytes) = self
                .flow_at
                .iter()
                .map(|&(s, _)| match &self.senders[s] {
                    Port::Nscc(x) => (x.cwnd_bytes(), x.inflight_bytes()),
                    Port::Flow(_) | Port::Nic(_) => (0, 0),
                })
                .unzip();
            self.nscc_samples.push(NsccSample {
                t_ps: t,
                cwnd_bytes,
                inflight_bytes,
                receiver_mem_bytes: self.mem.as_mut().map_or(0, |m| m.queue_bytes(t)),
                penalised_acks: self.penalised_acks - self.last_penalised_acks,
            });
            self.last_penalised_acks = self.penalised_acks;
        }
        self.last.clone_from(&self.flows);
        self.last_sw = self.switches.iter().map(|s| s.stats).collect();
        self.samples.push(Sample {
            t_ps: t,
            flows,
            switches,
        });
    }

    /// Chooses how senders are advanced (the results are the same; [`Schedule`]).
    pub fn set_schedule(&mut self, schedule: Schedule) {
        self.schedule = schedule;
    }

    /// Start time of `cycle`, saturating.
    fn cycle_start_ps(&self, cycle: u64) -> u64 {
        cycle.saturating_mul(self.cycle_ps)
    }

    /// Records sender `s`'s bound on its next frame ([`Sender::next_departure_cycle`]).
    fn rebound(&mut self, s: usize) {
        let b = self.senders[s].next_departure_cycle();
        self.bound[s] = b;
        if b != u64::MAX {
            self.due.push(Reverse((b, s)));
        }
    }

    /// Advances sender `s` to `t` and schedules the frames it puts on the wire; returns how
    /// many.
    fn advance_sender(&mut self, s: usize, t: u64) -> usize {
        let (sw, port) = self.attach[s];
        let first = self.first_flow[s];
        match &mut self.senders[s] {
            Port::Flow(x) => {
                let mut departures = std::mem::take(&mut self.departures);
                departures.clear();
                x.advance_to(t, &mut departures);
                for &at in &departures {
                    let pkt = Packet {
                        flow: first as u16,
                        ce: false,
                        tx_cycle: 0,
                    };
                    self.push(at, Ev::Arrive { sw, port, pkt });
                }
                let n = departures.len();
                self.departures = departures;
                n
            }
            Port::Nic(nic) => {
                let mut departures = std::mem::take(&mut self.nic_departures);
                departures.clear();
                nic.advance_to(t, &mut departures);
                for &(at, qp) in &departures {
                    // MAX_FLOWS (NetConfig::validate) keeps every flow number in 16 bits.
                    let pkt = Packet {
                        flow: (first + usize::from(qp)) as u16,
                        ce: false,
                        tx_cycle: 0,
                    };
                    self.push(at, Ev::Arrive { sw, port, pkt });
                }
                let n = departures.len();
                self.nic_departures = departures;
                n
            }
            Port::Nscc(x) => {
                let mut departures = std::mem::take(&mut self.nscc_departures);
                departures.clear();
                x.advance_to(t, &mut departures);
                for d in &departures {
                    let pkt = Packet {
                        flow: first as u16,
                        ce: false,
                        tx_cycle: d.tx_cycle,
                    };
                    self.push(d.arrive_ps, Ev::Arrive { sw, port, pkt });
                }
                let n = departures.len();
                self.nscc_departures = departures;
                n
            }
        }
    }

    /// Advances sender `s` to `t` where its bound says no frame leaves (an input or a sample
    /// reaches it); a frame that did leave is still scheduled.
    fn advance_quiet(&mut self, s: usize, t: u64) {
        let sent = self.advance_sender(s, t);
        debug_assert_eq!(sent, 0, "sender {s}: a frame left before its bound");
    }

    /// Read access for tests.
    pub fn switch(&self, i: usize) -> &Switch {
        &self.switches[i]
    }

    /// Sender `s` if it is a NIC (profile `mq`; read access for tests).
    pub fn nic(&self, s: usize) -> Option<&NicSender> {
        match &self.senders[s] {
            Port::Nic(n) => Some(n),
            Port::Flow(_) | Port::Nscc(_) => None,
        }
    }
}

/// A rate register of the model (bytes/s) in Gb/s.
pub fn register_gbps(rate_bytes_per_s: u32) -> f64 {
    f64::from(rate_bytes_per_s) * 8.0 / 1e9
}
