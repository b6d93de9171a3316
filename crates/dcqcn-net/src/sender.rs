//! A sender: the RoCEv2 engine's RDMA WRITE source, the rate limiter (a bit-exact model: our
//! block or the upstream SURF block, [`Limiter`]) and the MAC, clocked at the model's 156.25 MHz.
//!
//! The source offers back-to-back frames on the AXI4-Stream while its flow is scheduled; the
//! limiter passes them at most at Rc; the MAC takes whole frames into its FIFO (`m_axis_tready`
//! falls when a beat would not fit) and puts each on the wire once it is complete, the wire is free
//! and the link is not paused by PFC. A CNP that reaches the sender raises the limiter's `cnp` pin
//! for a few cycles, as the receive path of the FPGA does.

use crate::config::{cycle_ps, FlowCfg, FrameCfg, LinkCfg, SenderCfg};
use crate::limiter::Limiter;
use dcqcn_model::credit_gate::{keep_bytes, CreditGate};
use dcqcn_model::fixed::until_expired;
use dcqcn_model::{AxilIn, AxisIn, Inputs, Params, DATA_WORDS};
use std::collections::VecDeque;

/// A frame handed to the wire: when its last bit reaches the far end of the link.
pub type Departure = u64;

/// One sender with its flow.
#[derive(Clone, Debug)]
pub struct Sender {
    rl: Limiter,
    data_bytes: u32,
    cycle_ps: u64,
    /// The next cycle to run.
    cycle: u64,
    // Source.
    beats_per_frame: u32,
    last_keep: u64,
    beat: u32,
    start_cycle: u64,
    stop_cycle: u64,
    // MAC.
    fifo_cap: u32,
    /// Bytes in the FIFO: complete frames waiting or on the wire, and the frame being received.
    fifo_bytes: u32,
    stream_frame_bytes: u32,
    /// Complete frames waiting for the wire: the time each became complete.
    waiting: VecDeque<u64>,
    /// The frame on the wire: when its last byte (and gap) has left.
    on_wire_until: Option<u64>,
    wire_ps: u64,
    link_delay_ps: u64,
    paused_until_ps: u64,
    // CNP pin.
    cnp_arrivals: VecDeque<u64>,
    pin_until: u64,
    pulse_cycles: u64,
    use_skip: bool,
    /// Counters (cumulative).
    pub frames_sent: u64,
    pub cnps_received: u64,
    pub pauses_received: u64,
    /// Cycles advanced by `skip` rather than `step` (for the speed report).
    pub skipped_cycles: u64,
    pub stepped_cycles: u64,
}

impl Sender {
    /// The sender of `flow` (its configuration validated: `NetConfig::validate`).
    pub fn new(flow: &FlowCfg, frame: &FrameCfg, link: &LinkCfg, cfg: &SenderCfg) -> Sender {
        let rl = Limiter::new(flow.profile, flow.registers);
        // Both blocks run at the same clock.
        let cycle_ps = cycle_ps(&Params::DEFAULT);
        let db = rl.data_bytes();
        let (start_ps, stop_ps) = (flow.start_ps, flow.stop_ps);
        let stream = frame.stream_bytes();
        let rem = stream % db;
        Sender {
            rl,
            data_bytes: db,
            cycle_ps,
            cycle: 0,
            beats_per_frame: stream.div_ceil(db),
            last_keep: if rem == 0 {
                keep_low(db)
            } else {
                keep_low(rem)
            },
            beat: 0,
            start_cycle: start_ps.div_ceil(cycle_ps),
            stop_cycle: stop_ps.map_or(u64::MAX, |t| t.div_ceil(cycle_ps)),
            fifo_cap: cfg.mac_fifo_bytes.unwrap_or(2 * stream.div_ceil(db) * db),
            fifo_bytes: 0,
            stream_frame_bytes: stream,
            waiting: VecDeque::new(),
            on_wire_until: None,
            wire_ps: link.ser_ps(u64::from(frame.wire_bytes())),
            link_delay_ps: link.delay_ps,
            paused_until_ps: 0,
            cnp_arrivals: VecDeque::new(),
            pin_until: 0,
            pulse_cycles: u64::from(cfg.cnp_pulse_cycles),
            use_skip: cfg.skip,
            frames_sent: 0,
            cnps_received: 0,
            pauses_received: 0,
            skipped_cycles: 0,
            stepped_cycles: 0,
        }
    }

    pub fn limiter(&self) -> &Limiter {
        &self.rl
    }

    /// Time up to which the sender has run.
    pub fn now_ps(&self) -> u64 {
        self.cycle * self.cycle_ps
    }

    /// A CNP reaches the sender at `t_ps` (not before the time it has run to).
    pub fn cnp(&mut self, t_ps: u64) {
        self.cnps_received += 1;
        self.cnp_arrivals.push_back(t_ps.div_ceil(self.cycle_ps));
    }

    /// A PFC frame reaches the sender at `t_ps`: pause for `pause_ps` (0: resume).
    pub fn pause(&mut self, t_ps: u64, pause_ps: u64) {
        self.pauses_received += u64::from(pause_ps > 0);
        self.paused_until_ps = t_ps + pause_ps;
    }

    /// The source is offering frames in `cycle` (a frame in progress always completes).
    fn source_on(&self, cycle: u64) -> bool {
        self.beat > 0 || (cycle >= self.start_cycle && cycle < self.stop_cycle)
    }

    /// The `cnp` pin in `cycle`, consuming arrivals up to it.
    fn pin(&mut self, cycle: u64) -> bool {
        while let Some(&a) = self.cnp_arrivals.front() {
            if a > cycle {
                break;
            }
            self.cnp_arrivals.pop_front();
            self.pin_until = self.pin_until.max(a + self.pulse_cycles);
        }
        cycle < self.pin_until
    }

    /// The next cycle after `cycle` at which the pin may change.
    fn pin_change(&self, cycle: u64) -> u64 {
        if cycle < self.pin_until {
            self.pin_until
        } else {
            self.cnp_arrivals.front().copied().unwrap_or(u64::MAX)
        }
    }

    /// MAC work at the start of `cycle`: retire the frame on the wire, start the next one.
    fn mac(&mut self, cycle: u64, out: &mut Vec<Departure>) {
        let t = cycle * self.cycle_ps;
        if let Some(end) = self.on_wire_until {
            if end > t {
                return;
            }
            self.on_wire_until = None;
            self.fifo_bytes -= self.stream_frame_bytes;
            self.mac_start(end, t, out);
        } else {
            self.mac_start(0, t, out);
        }
    }

    fn mac_start(&mut self, wire_free: u64, t: u64, out: &mut Vec<Departure>) {
        if self.paused_until_ps > t {
            return;
        }
        if let Some(ready) = self.waiting.pop_front() {
            let start = wire_free.max(ready).max(self.paused_until_ps);
            self.on_wire_until = Some(start + self.wire_ps);
            self.frames_sent += 1;
            out.push(start + self.wire_ps + self.link_delay_ps);
        }
    }

    /// The next cycle after `cycle` at which the MAC may act by itself.
    fn mac_change(&self, cycle: u64) -> u64 {
        if let Some(end) = self.on_wire_until {
            return end.div_ceil(self.cycle_ps).max(cycle + 1);
        }
        if !self.waiting.is_empty() && self.paused_until_ps > cycle * self.cycle_ps {
            return self.paused_until_ps.div_ceil(self.cycle_ps).max(cycle + 1);
        }
        u64::MAX
    }

    fn inputs(&mut self, cycle: u64) -> Inputs {
        let on = self.source_on(cycle);
        let last = self.beat + 1 == self.beats_per_frame;
        Inputs {
            rst: false,
            cnp: self.pin(cycle),
            s_axis: AxisIn {
                tdata: [0; DATA_WORDS],
                tkeep: if last {
                    self.last_keep
                } else {
                    keep_low(self.data_bytes)
                },
                tvalid: on,
                tlast: last,
            },
            m_axis_tready: self.fifo_bytes + self.data_bytes <= self.fifo_cap,
            axil: AxilIn::default(),
        }
    }

    /// The most beats a streamed stretch with inputs `i` may load (`RateLimiter::skip_stream`), or
    /// `None` where the sender must step: the source offers and the MAC takes (`m_axis_tready`
    /// held, so the FIFO keeps room for every beat handed before the stretch's last cycle), the
    /// inputs stay the same beat (the stretch ends with the load of the frame's last beat with
    /// the current `tkeep`/`tlast`), and no frame completes in it (a frame's last beat in the
    /// output register is handed over by a stepped cycle, so the MAC sees it at the next one).
    fn stream_loads(&self, gate: &CreditGate, i: &Inputs) -> Option<u64> {
        if !i.s_axis.tvalid || !i.m_axis_tready || (gate.m_valid && gate.m_last) {
            return None;
        }
        let frame = if i.s_axis.tlast {
            1
        } else {
            u64::from(self.beats_per_frame - 1 - self.beat)
        };
        // Full beats that fit in the FIFO now; the handovers before the last cycle must leave
        // room for one more, so that m_axis_tready stays high in every cycle.
        let room = u64::from((self.fifo_cap - self.fifo_bytes) / self.data_bytes);
        let handed = room.checked_sub(1 + u64::from(gate.m_valid))?;
        Some(frame.min(handed))
    }

    /// A lower bound on the cycle whose MAC work puts the next frame on the wire, if no CNP or
    /// PFC frame reaches the sender before it (`u64::MAX`: never): [`Sender::advance_to`] up to
    /// `cycle * cycle_ps` then appends nothing to its `out`. The network advances a sender only
    /// from this cycle on, or when an input or a sample reaches it.
    ///
    /// With a complete frame waiting, it is the cycle the wire is free and the pause over. Else
    /// the frame being assembled must first hand its remaining beats to the MAC (one per cycle at
    /// most) and load them through the credit gate: until the rate-increase timer can next fire,
    /// Rc cannot rise (a decrease only lowers it; a CNP is an input), so the credit grows by at
    /// most max(bpc, bpc(Rc)) per cycle, and every load but the frame's last takes a full beat of
    /// credit.
    pub fn next_departure_cycle(&self) -> u64 {
        let c0 = self.cycle;
        let wire = self
            .on_wire_until
            .map_or(0, |end| end.div_ceil(self.cycle_ps));
        let paused = self.paused_until_ps.div_ceil(self.cycle_ps);
        if !self.waiting.is_empty() {
            return c0.max(wire).max(paused);
        }
        let complete = self.waiting.len() as u32 + u32::from(self.on_wire_until.is_some());
        let partial = self.fifo_bytes - complete * self.stream_frame_bytes;
        // Beats still to hand over (one per cycle at most; the MAC starts the frame the cycle
        // after the last), and of them the ones still to load.
        let to_hand = u64::from(self.beats_per_frame - partial / self.data_bytes);
        let rl = match &self.rl {
            Limiter::Ours(rl) => rl,
            // The upstream block has no closed form here: only the one-beat-per-cycle bound.
            Limiter::Surf(_) => return (c0 + to_hand).max(wire).max(paused),
        };
        let st = rl.state();
        let to_load = to_hand - u64::from(st.gate.m_valid);
        let mut start = c0;
        if to_load > 0 && !self.source_on(c0) {
            if c0 >= self.stop_cycle {
                return u64::MAX;
            }
            start = self.start_cycle.max(c0);
        }
        // One load per cycle at most; the frame's last beat is handed over the cycle after its
        // load, and the MAC starts the frame the cycle after that.
        let mut last_load = start + to_load.saturating_sub(1);
        let cfg = &st.regs.cfg;
        if to_load > 1 && start == c0 && !cfg.bypass && !cfg.byte_en {
            let p = rl.params();
            // A decrease never takes Rc below Rmin: with Rmin above Rc it would raise it.
            let bpc_max = u64::from(st.gate.bpc.max(p.bpc(st.rc.max(cfg.rmin)))).max(1);
            let need = ((to_load - 1) * u64::from(self.data_bytes)) << 16;
            let credit_cycles = need.saturating_sub(st.gate.credit) / bpc_max;
            // The timer fires `until_expired` cycles from now at the earliest; its Rc reaches
            // bpc a cycle later and the credit the cycle after.
            let safe = if st.active && cfg.timer_en {
                until_expired(u64::from(st.inc.inc_timer), u64::from(cfg.inc_interval))
            } else {
                u64::MAX
            };
            last_load = last_load.max(c0 + credit_cycles.min(safe) + 1);
        }
        let handed = if to_load > 0 { last_load + 1 } else { c0 };
        (handed + 1).max(c0 + to_hand).max(wire).max(paused)
    }

    /// Runs every cycle that starts before `t_ps`; frames put on the wire are appended to `out`
    /// as arrival times at the far end of the link.
    pub fn advance_to(&mut self, t_ps: u64, out: &mut Vec<Departure>) {
        let end = t_ps.div_ceil(self.cycle_ps);
        while self.cycle < end {
            let c = self.cycle;
            self.mac(c, out);
            let i = self.inputs(c);
            if let (true, Limiter::Ours(_)) = (self.use_skip && c + 1 < end, &self.rl) {
                let mut horizon = end.min(self.mac_change(c)).min(self.pin_change(c));
                if c < self.start_cycle {
                    horizon = horizon.min(self.start_cycle);
                }
                if c < self.stop_cycle {
                    horizon = horizon.min(self.stop_cycle);
                }
                if horizon > c + 1 {
                    // A beat handed downstream this cycle rules the waiting skip out.
                    let Limiter::Ours(rl) = &mut self.rl else {
                        unreachable!("matched above")
                    };
                    let gate = rl.state().gate;
                    if !(gate.m_valid && i.m_axis_tready) {
                        let k = rl.skip(&i, horizon - c);
                        if k > 0 {
                            self.skipped_cycles += k;
                            self.cycle += k;
                            continue;
                        }
                    }
                    if let Some(max_loads) = self.stream_loads(&gate, &i) {
                        let Limiter::Ours(rl) = &mut self.rl else {
                            unreachable!("matched above")
                        };
                        let r = rl.skip_stream(&i, horizon - c, max_loads);
                        if r.cycles > 0 {
                            // The beat in the output register (never a frame's last: see
                            // stream_loads) leaves in the first cycle, then each loaded beat the
                            // cycle after its load.
                            let first = u64::from(gate.m_valid);
                            if gate.m_valid {
                                self.fifo_bytes += keep_bytes(gate.m_keep);
                            }
                            let beat_bytes = keep_bytes(i.s_axis.tkeep);
                            self.fifo_bytes += (r.handovers - first) as u32 * beat_bytes;
                            self.beat = if i.s_axis.tlast && r.loads == 1 {
                                0
                            } else {
                                self.beat + r.loads as u32
                            };
                            self.skipped_cycles += r.cycles;
                            self.cycle += r.cycles;
                            continue;
                        }
                    }
                }
            }
            let o = self.rl.step(&i);
            self.stepped_cycles += 1;
            if i.s_axis.tvalid && o.s_axis_tready {
                self.beat = if i.s_axis.tlast { 0 } else { self.beat + 1 };
            }
            if o.m_axis_tvalid && i.m_axis_tready {
                self.fifo_bytes += keep_bytes(o.m_axis_tkeep);
                if o.m_axis_tlast {
                    self.waiting.push_back((c + 1) * self.cycle_ps);
                }
            }
            self.cycle += 1;
        }
    }
}

fn keep_low(bytes: u32) -> u64 {
    if bytes >= 64 {
        u64::MAX
    } else {
        (1u64 << bytes) - 1
    }
}
