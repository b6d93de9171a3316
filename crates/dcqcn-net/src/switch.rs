//! An output-queued switch as simulators model it: one uplink toward the receiver, per-ingress
//! FIFOs in a shared buffer served round-robin onto the uplink, RED/ECN marking at dequeue on the
//! uplink queue, and PFC per ingress port (XOFF above a threshold, XON below a lower one, refreshed
//! before the pause expires, headroom above XOFF for what is still on the cable).

use crate::config::SwitchCfg;
use dcqcn_harness::rng::Rng;
use std::collections::VecDeque;

/// A data frame in the network (all frames of a run have the same size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Packet {
    pub flow: u16,
    /// ECN Congestion Experienced.
    pub ce: bool,
    /// An NSCC frame's transmit cycle (mod 2^32), echoed in its ACK; 0 for other frames.
    pub tx_cycle: u32,
}

/// What the switch asks the network to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send a PFC frame upstream through ingress `port`: pause (XOFF) or resume (XON).
    Pfc { port: usize, xoff: bool },
    /// Re-check XOFF of `port` at `at_ps` (`generation` guards against stale checks).
    Refresh {
        port: usize,
        at_ps: u64,
        generation: u64,
    },
    /// `pkt` starts on the uplink at `at_ps`.
    Transmit { pkt: Packet, at_ps: u64 },
}

#[derive(Clone, Debug, Default)]
struct Ingress {
    fifo: VecDeque<Packet>,
    use_bytes: u64,
    xoff: bool,
    generation: u64,
    xoff_since_ps: u64,
}

/// Cumulative counters of one switch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwitchStats {
    pub arrivals: u64,
    pub drops: u64,
    pub marks: u64,
    /// PFC pause frames sent (XOFF and its refreshes).
    pub xoff_sent: u64,
    pub xon_sent: u64,
    /// Total time ingress ports spent in XOFF, summed over ports.
    pub xoff_ps: u64,
    pub max_queue_bytes: u64,
    /// Largest use of any ingress port.
    pub max_ingress_bytes: u64,
}

#[derive(Clone, Debug)]
pub struct Switch {
    cfg: SwitchCfg,
    frame_bytes: u64,
    /// Time the PFC refresh is sent before an XOFF expires (half the pause).
    refresh_ps: u64,
    ports: Vec<Ingress>,
    queue_bytes: u64,
    tx_busy: bool,
    paused_until_ps: u64,
    rr: usize,
    rng: Rng,
    pub stats: SwitchStats,
}

impl Switch {
    pub fn new(
        cfg: SwitchCfg,
        ports: usize,
        frame_bytes: u32,
        pause_ps: u64,
        seed: u64,
        id: u64,
    ) -> Switch {
        Switch {
            cfg,
            frame_bytes: u64::from(frame_bytes),
            refresh_ps: (pause_ps / 2).max(1),
            ports: vec![Ingress::default(); ports],
            queue_bytes: 0,
            tx_busy: false,
            paused_until_ps: 0,
            rr: 0,
            rng: Rng::new(seed, 0x5317_C400 + id),
            stats: SwitchStats::default(),
        }
    }

    /// Bytes in the uplink egress queue.
    pub fn queue_bytes(&self) -> u64 {
        self.queue_bytes
    }

    /// Bytes held for ingress `port`.
    pub fn ingress_bytes(&self, port: usize) -> u64 {
        self.ports[port].use_bytes
    }

    pub fn ingress_paused(&self, port: usize) -> bool {
        self.ports[port].xoff
    }

    /// A frame has fully arrived on ingress `port`.
    pub fn arrive(&mut self, t: u64, port: usize, pkt: Packet, out: &mut Vec<Action>) {
        self.stats.arrivals += 1;
        let b = self.frame_bytes;
        let c = &self.cfg;
        let ing = &mut self.ports[port];
        let over_buffer = self.queue_bytes + b > c.buffer_bytes;
        let over_headroom = c.pfc && ing.use_bytes + b > c.xoff_bytes + c.headroom_bytes;
        if over_buffer || over_headroom {
            self.stats.drops += 1;
            return;
        }
        ing.fifo.push_back(pkt);
        ing.use_bytes += b;
        self.queue_bytes += b;
        self.stats.max_queue_bytes = self.stats.max_queue_bytes.max(self.queue_bytes);
        self.stats.max_ingress_bytes = self.stats.max_ingress_bytes.max(ing.use_bytes);
        if c.pfc && !ing.xoff && ing.use_bytes > c.xoff_bytes {
            ing.xoff = true;
            ing.generation += 1;
            ing.xoff_since_ps = t;
            self.stats.xoff_sent += 1;
            out.push(Action::Pfc { port, xoff: true });
            out.push(Action::Refresh {
                port,
                at_ps: t + self.refresh_ps,
                generation: ing.generation,
            });
        }
        self.try_transmit(t, out);
    }

    /// The uplink finished sending a frame (its gap included).
    pub fn uplink_free(&mut self, t: u64, out: &mut Vec<Action>) {
        self.tx_busy = false;
        self.try_transmit(t, out);
    }

    /// A PFC frame from downstream: the uplink may not start a frame before `t + pause_ps`.
    pub fn pause_uplink(&mut self, t: u64, pause_ps: u64, out: &mut Vec<Action>) {
        self.paused_until_ps = t + pause_ps;
        self.try_transmit(t, out);
    }

    /// The pause of the uplink may have expired.
    pub fn wake(&mut self, t: u64, out: &mut Vec<Action>) {
        self.try_transmit(t, out);
    }

    pub fn uplink_paused_until(&self) -> u64 {
        self.paused_until_ps
    }

    /// Refresh of an XOFF before it expires, if the port is still above XON.
    pub fn refresh(&mut self, t: u64, port: usize, generation: u64, out: &mut Vec<Action>) {
        let ing = &mut self.ports[port];
        if ing.xoff && ing.generation == generation {
            self.stats.xoff_sent += 1;
            out.push(Action::Pfc { port, xoff: true });
            out.push(Action::Refresh {
                port,
                at_ps: t + self.refresh_ps,
                generation,
            });
        }
    }

    /// Time in XOFF up to `t`, including ports still paused.
    pub fn xoff_ps(&self, t: u64) -> u64 {
        self.stats.xoff_ps
            + self
                .ports
                .iter()
                .filter(|p| p.xoff)
                .map(|p| t - p.xoff_since_ps)
                .sum::<u64>()
    }

    fn try_transmit(&mut self, t: u64, out: &mut Vec<Action>) {
        if self.tx_busy || self.paused_until_ps > t || self.queue_bytes == 0 {
            return;
        }
        let n = self.ports.len();
        let Some(port) = (0..n)
            .map(|k| (self.rr + k) % n)
            .find(|&p| !self.ports[p].fifo.is_empty())
        else {
            return;
        };
        self.rr = (port + 1) % n;
        let b = self.frame_bytes;
        let ing = &mut self.ports[port];
        let mut pkt = ing.fifo.pop_front().expect("a non-empty FIFO was chosen");
        ing.use_bytes -= b;
        self.queue_bytes -= b;
        let c = &self.cfg;
        if c.pfc && ing.xoff && ing.use_bytes < c.xon_bytes {
            ing.xoff = false;
            self.stats.xoff_ps += t - ing.xoff_since_ps;
            self.stats.xon_sent += 1;
            out.push(Action::Pfc { port, xoff: false });
        }
        // RED at dequeue on the bytes left behind the departing frame.
        if c.ecn {
            let q = self.queue_bytes;
            let mark = if q > c.kmax_bytes {
                true
            } else if q > c.kmin_bytes {
                let p = c.pmax * (q - c.kmin_bytes) as f64 / (c.kmax_bytes - c.kmin_bytes) as f64;
                self.rng.chance(p)
            } else {
                false
            };
            if mark && !pkt.ce {
                pkt.ce = true;
                self.stats.marks += 1;
            }
        }
        self.tx_busy = true;
        out.push(Action::Transmit { pkt, at_ps: t });
    }
}
