//! Network parameters and their TOML form.
//!
//! Every experiment has complete defaults ([`NetConfig::default_network`] plus its own flows and
//! duration); a file overrides any subset. Units are the model's, read by the serde types of
//! `dcqcn_harness::units`: times `1us`, `0.5s` (a bare integer is nanoseconds); rates `10Gbps`
//! (the link's rate is kept in bits/s); sizes `5KB`, `12MiB`. Every error names file, line and
//! field. A flow's DCQCN registers are written exactly as in a
//! register configuration file (`base = "paper-table2"`, `[flow.registers]`).
//!
//! ```toml
//! seed = 7
//! duration = "0.3s"
//! [switch]
//! kmin = "5KB"
//! kmax = "200KB"
//! pmax = 0.01
//! [[flow]]                 # one table per sender, in order; omitted fields keep the defaults
//! stop = "0.1s"
//! [flow.registers]
//! inc_interval = "200ms"
//! clamp_tgt = false
//! ```

use crate::NetError;
use dcqcn_harness::config_file::{self, line_of, ConfigFileError, Field, Registers, Source};
use dcqcn_harness::units::{Rate, Size, Time, UnitError};
use dcqcn_model::mq::{MqParamError, MqParams};
use dcqcn_model::nscc::fixed::{NsccRegs, NsccRegsError};
use dcqcn_model::{Config, Params};
use dcqcn_surf::model::SurfConfig;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::convert::Infallible;
use toml::Spanned;

/// Picoseconds per second.
pub const PS_PER_S: u64 = 1_000_000_000_000;

/// Bytes of a PFC frame, a CNP or an ACK on the wire (minimum frame 64 plus preamble and gap).
pub(crate) const CONTROL_WIRE_BYTES: u64 = 84;

/// Frame sizes of a RoCEv2 RDMA WRITE at MTU 4096.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameCfg {
    /// RDMA payload per frame (the MTU).
    pub payload_bytes: u32,
    /// Bytes the RoCEv2 engine adds on the AXI4-Stream through the rate limiter (BTH 12, ICRC 4).
    pub stream_overhead_bytes: u32,
    /// Bytes the UDP/IP/MAC stack adds after the limiter and the switch buffers (UDP 8, IPv4 20,
    /// Ethernet 14, FCS 4).
    pub l2_overhead_bytes: u32,
    /// Bytes of wire time per frame that carry no frame (preamble and SFD 8, inter-frame gap 12).
    pub gap_bytes: u32,
}

impl FrameCfg {
    /// Bytes of one frame on the AXI4-Stream into the rate limiter.
    pub fn stream_bytes(&self) -> u32 {
        self.payload_bytes + self.stream_overhead_bytes
    }
    /// Bytes of one frame in a switch buffer.
    pub fn frame_bytes(&self) -> u32 {
        self.stream_bytes() + self.l2_overhead_bytes
    }
    /// Bytes of wire time of one frame.
    pub fn wire_bytes(&self) -> u32 {
        self.frame_bytes() + self.gap_bytes
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct LinkCfg {
    /// Bits per second of the edge links (sender to leaf switch), and of every link unless
    /// `uplink_rate_bits_per_s` is given.
    pub rate_bits_per_s: u64,
    /// Bits per second of the switch uplinks (leaf to root, and the link into the receiver);
    /// `None`: the edge rate.
    pub uplink_rate_bits_per_s: Option<u64>,
    /// Propagation delay (every link).
    pub delay_ps: u64,
}

impl LinkCfg {
    /// The multi-QP block's parameters for a NIC of `qps` QPs on this link: the model's clock and
    /// the link rate in bytes/s (spec-mq 2). An error names the parameter the RTL would refuse; a
    /// link faster than `LINE_RATE`'s 32 bits of bytes/s is refused as `LineRate(u32::MAX)`
    /// (`NetConfig::validate` says so in its own words first).
    pub fn mq_params(&self, qps: u32) -> Result<MqParams, MqParamError> {
        let line = u32::try_from(self.rate_bits_per_s / 8)
            .map_err(|_| MqParamError::LineRate(u32::MAX))?;
        MqParams::new(qps, Params::DEFAULT.clk_hz(), line)
    }

    /// The uplinks' link: the same delay at the uplink rate.
    pub fn uplink(&self) -> LinkCfg {
        LinkCfg {
            rate_bits_per_s: self.uplink_rate_bits_per_s.unwrap_or(self.rate_bits_per_s),
            uplink_rate_bits_per_s: None,
            delay_ps: self.delay_ps,
        }
    }

    /// Serialisation time of `bytes`, rounded up to the picosecond.
    pub fn ser_ps(&self, bytes: u64) -> u64 {
        let ps = (u128::from(bytes) * 8 * u128::from(PS_PER_S))
            .div_ceil(u128::from(self.rate_bits_per_s));
        u64::try_from(ps).unwrap_or(u64::MAX)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCfg {
    /// Shared buffer of a switch.
    pub buffer_bytes: u64,
    /// RED/ECN marking at dequeue on the uplink egress queue.
    pub ecn: bool,
    pub kmin_bytes: u64,
    pub kmax_bytes: u64,
    pub pmax: f64,
    /// PFC per ingress port.
    pub pfc: bool,
    /// Ingress use above which XOFF is sent.
    pub xoff_bytes: u64,
    /// Ingress use below which XON is sent (hysteresis).
    pub xon_bytes: u64,
    /// Bytes an ingress port may hold above XOFF (what is on the cable when the pause lands);
    /// a frame beyond it, or beyond the shared buffer, is dropped.
    pub headroom_bytes: u64,
    /// Pause time of an XOFF frame, in quanta of 512 bit times.
    pub pause_quanta: u16,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReceiverCfg {
    /// At most one CNP per flow per this interval.
    pub cnp_interval_ps: u64,
    /// Time from the marked frame's arrival to the CNP leaving the receiver (and from a frame's
    /// arrival to its NSCC ACK leaving).
    pub cnp_latency_ps: u64,
    /// The receiver's memory (e.g. its HBM controller), which retires the payload of every frame
    /// at this rate; `None`: no memory model (retired at once). Below the link's payload rate it
    /// is the bottleneck and a memory queue builds (seed 004).
    pub mem_drain_bits_per_s: Option<u64>,
    /// Memory queue above which the receiver's NSCC ACKs carry `rcv_cwnd_pend`.
    pub mem_threshold_bytes: u64,
    /// `rcv_cwnd_pend` of those ACKs, 0..=127 (0: the receiver never penalises).
    pub rcv_cwnd_pend: u8,
}

/// NSCC senders (profile `nscc`): the network they derive their registers for
/// (`dcqcn_model::nscc::fixed::NsccRegs::derive`, spec-nscc 8.2).
#[derive(Clone, Debug, PartialEq)]
pub struct NsccCfg {
    /// The configured base RTT; `None`: the unloaded RTT of the network (a frame's way to the
    /// receiver and its ACK's way back, [`nscc_unloaded_rtt_ps`]).
    pub base_rtt_ps: Option<u64>,
    /// The switches trim (target delay 0.75 base RTT, no quick-adapt delay threshold); ours do
    /// not (target 1 base RTT, quick adapt above 4 targets).
    pub trimming: bool,
}

/// Which block a sender's rate limiter is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Profile {
    /// Our block: `dcqcn_model::RateLimiter` at 8-byte beats (docs/spec.md).
    #[default]
    Ours,
    /// The upstream SURF block as deployed: `dcqcn_surf::model::SurfLimiter`, the wrapper's
    /// 32-byte beats, bit-exact to upstream's VHDL (docs/surf-upstream.md).
    Surf,
    /// A NIC: `sender.qps` queue pairs behind one port, sharing the multi-QP block
    /// `dcqcn_model::mq::MqBlock` (docs/spec-mq.md; the NIC sender of nic.rs). Each flow is one QP.
    Mq,
    /// An Ultra Ethernet NSCC sender: window-based, its window from the bit-exact per-flow
    /// arithmetic `dcqcn_model::nscc::fixed` (docs/spec-nscc.md), one ACK per frame from the
    /// receiver (the sender of nscc.rs). No rate limiter; the flow's registers are unused.
    Nscc,
}

impl Profile {
    pub const ALL: [Profile; 4] = [Profile::Ours, Profile::Surf, Profile::Mq, Profile::Nscc];

    /// The name in parameter files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Ours => "ours",
            Profile::Surf => "surf",
            Profile::Mq => "mq",
            Profile::Nscc => "nscc",
        }
    }

    /// The profile called `name`, or an error listing the known names.
    pub fn from_name(name: &str) -> Result<Profile, String> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| format!("unknown profile `{name}` (known: ours, surf, mq, nscc)"))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SenderCfg {
    /// MAC frame FIFO between the rate limiter and the wire; `None`: two frames at the
    /// limiter's beat width (8224 bytes at our 8-byte beats, 8256 at upstream's 32: a frame of
    /// 4112 bytes is 129 beats there, the last one half full).
    pub mac_fifo_bytes: Option<u32>,
    /// Cycles the receive path holds the rate limiter's `cnp` pin high per CNP.
    pub cnp_pulse_cycles: u32,
    /// Advance uneventful stretches with `RateLimiter::skip` (false: step every cycle; the results
    /// are the same, only slower).
    pub skip: bool,
    /// QPs per sender with profile `mq` (the block's `QPS`, 1..=4096, spec-mq 2); each sender is
    /// then a NIC and carries this many flows. Other profiles: 1.
    pub qps: u32,
}

/// One sender's flow.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowCfg {
    pub name: String,
    pub start_ps: u64,
    /// The source stops offering frames at this time (the frame in progress completes).
    pub stop_ps: Option<u64>,
    /// The rate limiter's registers.
    pub registers: Config,
    /// The block the limiter is (`[sender] profile`, or the flow's own `profile`).
    pub profile: Profile,
}

/// Everything a network run needs.
#[derive(Clone, Debug, PartialEq)]
pub struct NetConfig {
    pub seed: u64,
    pub duration_ps: u64,
    /// CSV row and plot sample interval.
    pub sample_ps: u64,
    pub frame: FrameCfg,
    pub link: LinkCfg,
    pub switch: SwitchCfg,
    pub receiver: ReceiverCfg,
    pub sender: SenderCfg,
    /// NSCC senders' registers (flows of profile `nscc`).
    pub nscc: NsccCfg,
    /// Senders per leaf switch; one leaf is a single switch in front of the receiver, more leaves
    /// meet at a root switch.
    pub leaves: Vec<u32>,
    /// One flow per sender, leaf by leaf.
    pub flows: Vec<FlowCfg>,
}

impl NetConfig {
    /// The network of `docs/paper-reproduction.md`, from the paper and the DCQCN paper's
    /// settings, with no flows yet.
    pub fn default_network() -> NetConfig {
        NetConfig {
            seed: 1,
            duration_ps: PS_PER_S / 10,
            sample_ps: PS_PER_S / 1000,
            frame: FrameCfg {
                payload_bytes: 4096,
                stream_overhead_bytes: 16,
                l2_overhead_bytes: 46,
                gap_bytes: 20,
            },
            link: LinkCfg {
                rate_bits_per_s: 10_000_000_000,
                uplink_rate_bits_per_s: None,
                delay_ps: 1_000_000,
            },
            switch: SwitchCfg {
                buffer_bytes: 12_000_000,
                ecn: true,
                kmin_bytes: 5_000,
                kmax_bytes: 200_000,
                pmax: 0.01,
                pfc: true,
                xoff_bytes: 500_000,
                xon_bytes: 450_000,
                headroom_bytes: 30_000,
                pause_quanta: 0xFFFF,
            },
            receiver: ReceiverCfg {
                cnp_interval_ps: 50_000_000,
                cnp_latency_ps: 1_000_000,
                mem_drain_bits_per_s: None,
                mem_threshold_bytes: 64_000,
                rcv_cwnd_pend: 0,
            },
            sender: SenderCfg {
                mac_fifo_bytes: None,
                cnp_pulse_cycles: 4,
                skip: true,
                qps: 1,
            },
            nscc: NsccCfg {
                base_rtt_ps: None,
                trimming: false,
            },
            leaves: vec![],
            flows: vec![],
        }
    }

    /// Senders of the topology (saturating: [`MAX_SENDERS`] bounds it in [`NetConfig::validate`]).
    pub fn senders(&self) -> usize {
        self.leaves
            .iter()
            .fold(0usize, |a, &n| a.saturating_add(n as usize))
    }

    /// Cycle-level consistency checks; `lines` maps a field to its line in the file (absent: the
    /// value is a default).
    pub fn validate(&self, file: &str, lines: &BTreeMap<String, usize>) -> Result<(), NetError> {
        let err = |field: &str, message: String| {
            NetError::File(ConfigFileError::Field {
                file: file.to_string(),
                line: lines.get(field).copied().unwrap_or(0),
                field: field.to_string(),
                message,
            })
        };
        let f = &self.frame;
        if f.payload_bytes == 0 {
            return Err(err("frame.payload_bytes", "0: must be at least 1".into()));
        }
        for (field, v) in [
            ("frame.payload_bytes", f.payload_bytes),
            ("frame.stream_overhead_bytes", f.stream_overhead_bytes),
            ("frame.l2_overhead_bytes", f.l2_overhead_bytes),
            ("frame.gap_bytes", f.gap_bytes),
        ] {
            if v > MAX_FRAME_BYTES {
                return Err(err(
                    field,
                    format!("{v}: must be at most {MAX_FRAME_BYTES}"),
                ));
            }
        }
        if f.stream_bytes() > MAX_FRAME_BYTES {
            return Err(err(
                "frame.payload_bytes",
                format!(
                    "a stream frame of {} bytes (payload {} + overhead {}): must be 1..={MAX_FRAME_BYTES}",
                    f.stream_bytes(),
                    f.payload_bytes,
                    f.stream_overhead_bytes
                ),
            ));
        }
        for (field, rate) in [
            ("link.rate", Some(self.link.rate_bits_per_s)),
            ("link.uplink_rate", self.link.uplink_rate_bits_per_s),
        ] {
            let Some(rate) = rate else { continue };
            if !(MIN_RATE_BITS_PER_S..=MAX_RATE_BITS_PER_S).contains(&rate) {
                return Err(err(
                    field,
                    format!(
                        "{rate} bit/s: must be {MIN_RATE_BITS_PER_S}..={MAX_RATE_BITS_PER_S} (1 Mbit/s to 1 Tbit/s)"
                    ),
                ));
            }
        }
        if self.duration_ps == 0 || self.duration_ps > MAX_DURATION_PS {
            return Err(err(
                "duration",
                format!(
                    "{} ps: must be above 0 and at most {} s",
                    self.duration_ps,
                    MAX_DURATION_PS / PS_PER_S
                ),
            ));
        }
        if self.sample_ps == 0 || self.duration_ps / self.sample_ps > MAX_SAMPLES {
            return Err(err(
                "sample",
                format!(
                    "{} ps: must be above 0 and give at most {MAX_SAMPLES} samples over the duration ({} ps)",
                    self.sample_ps, self.duration_ps
                ),
            ));
        }
        for (field, v) in [
            ("link.delay", self.link.delay_ps),
            ("receiver.cnp_interval", self.receiver.cnp_interval_ps),
            ("receiver.cnp_latency", self.receiver.cnp_latency_ps),
        ] {
            if v > MAX_DELAY_PS {
                return Err(err(field, format!("{v} ps: must be at most 1 s")));
            }
        }
        let s = &self.switch;
        for (field, v) in [
            ("switch.buffer", s.buffer_bytes),
            ("switch.kmin", s.kmin_bytes),
            ("switch.kmax", s.kmax_bytes),
            ("switch.xoff", s.xoff_bytes),
            ("switch.xon", s.xon_bytes),
            ("switch.headroom", s.headroom_bytes),
        ] {
            if v > MAX_BUFFER_BYTES {
                return Err(err(
                    field,
                    format!("{v} bytes: must be at most {MAX_BUFFER_BYTES} (1 GiB)"),
                ));
            }
        }
        if self.sender.cnp_pulse_cycles > MAX_CNP_PULSE_CYCLES {
            return Err(err(
                "sender.cnp_pulse_cycles",
                format!(
                    "{}: must be at most {MAX_CNP_PULSE_CYCLES}",
                    self.sender.cnp_pulse_cycles
                ),
            ));
        }
        for (k, fl) in self.flows.iter().enumerate() {
            if fl.profile == Profile::Surf {
                if let Err(e) = SurfConfig::from_ours(&fl.registers) {
                    let field = format!("flow[{k}].registers.{}", e.field);
                    let line = lines
                        .get(&field)
                        .or_else(|| lines.get(&format!("flow[{k}].profile")))
                        .or_else(|| lines.get("sender.profile"))
                        .copied()
                        .unwrap_or(0);
                    return Err(NetError::File(ConfigFileError::Field {
                        file: file.to_string(),
                        line,
                        field,
                        message: format!("{e}; profile \"surf\" cannot run this flow"),
                    }));
                }
            }
            if let Some(stop) = fl.stop_ps {
                if stop <= fl.start_ps {
                    return Err(err(
                        &format!("flow[{k}].stop"),
                        format!(
                            "{stop} ps: must be after the flow's start ({} ps)",
                            fl.start_ps
                        ),
                    ));
                }
            }
        }
        let cycle = cycle_ps(&Params::DEFAULT);
        if self.link.delay_ps < cycle {
            return Err(err(
                "link.delay",
                format!("{} ps: must be at least one clock cycle ({cycle} ps), the lookahead of the event loop", self.link.delay_ps),
            ));
        }
        if s.kmin_bytes >= s.kmax_bytes {
            return Err(err(
                "switch.kmax",
                format!(
                    "Kmax ({}) must be above Kmin ({})",
                    s.kmax_bytes, s.kmin_bytes
                ),
            ));
        }
        if !(0.0..=1.0).contains(&s.pmax) {
            return Err(err("switch.pmax", format!("{}: must be in 0..=1", s.pmax)));
        }
        if s.xon_bytes >= s.xoff_bytes {
            return Err(err(
                "switch.xon",
                format!(
                    "XON ({}) must be below XOFF ({})",
                    s.xon_bytes, s.xoff_bytes
                ),
            ));
        }
        if s.buffer_bytes < u64::from(f.frame_bytes()) {
            return Err(err("switch.buffer", "smaller than one frame".to_string()));
        }
        if let Some(fifo) = self.sender.mac_fifo_bytes {
            if u64::from(fifo) > MAX_BUFFER_BYTES {
                return Err(err(
                    "sender.mac_fifo",
                    format!("{fifo} bytes: must be at most {MAX_BUFFER_BYTES} (1 GiB)"),
                ));
            }
            if fifo < f.stream_bytes() {
                return Err(err(
                    "sender.mac_fifo",
                    format!(
                        "{fifo} bytes cannot hold one {}-byte frame",
                        f.stream_bytes()
                    ),
                ));
            }
        }
        if self.sender.cnp_pulse_cycles == 0 {
            return Err(err("sender.cnp_pulse_cycles", "must be at least 1".into()));
        }
        if self.leaves.is_empty() || self.leaves.contains(&0) || self.senders() > MAX_SENDERS {
            return Err(err(
                "topology.leaves",
                format!("one to {MAX_SENDERS} senders, at least one per leaf"),
            ));
        }
        self.validate_nic(&err)?;
        self.validate_nscc(&err)?;
        if self.flows.len() != self.flow_count() {
            return Err(err(
                "flow",
                if self.is_nic() {
                    format!(
                        "{} flows for {} NICs of {} QPs: give one per QP",
                        self.flows.len(),
                        self.senders(),
                        self.sender.qps
                    )
                } else {
                    format!("{} flows for {} senders", self.flows.len(), self.senders())
                },
            ));
        }
        if self.sample_ps > self.duration_ps {
            // Blame what the file gave: a short duration under the default sample is the
            // duration's fault (`duration = 5` is 5 ps), not the sample's.
            return Err(
                if lines.contains_key("duration") && !lines.contains_key("sample") {
                    err(
                    "duration",
                    format!(
                        "{} ps: shorter than the sample ({} ps), no sample would be taken; give at least the sample",
                        self.duration_ps, self.sample_ps
                    ),
                )
                } else {
                    err(
                    "sample",
                    format!(
                        "{} ps: longer than the duration ({} ps), no sample would be taken; give at most the duration",
                        self.sample_ps, self.duration_ps
                    ),
                )
                },
            );
        }
        let cells = self.sample_cells();
        if cells > MAX_SAMPLE_CELLS {
            return Err(err(
                "sample",
                format!(
                    "{} samples x {} flows and switches = {cells} sample cells, at most {MAX_SAMPLE_CELLS} (a longer sample or a shorter duration)",
                    self.duration_ps / self.sample_ps,
                    self.flows.len() + self.switch_count()
                ),
            ));
        }
        Ok(())
    }

    /// The senders are NICs with QPs (profile `mq`): the first flow's profile (every flow has the
    /// same then, [`NetConfig::validate`]).
    pub fn is_nic(&self) -> bool {
        self.flows.first().is_some_and(|f| f.profile == Profile::Mq)
    }

    /// Flows each sender carries: `sender.qps` for NICs, else 1.
    pub fn flows_per_sender(&self) -> usize {
        if self.is_nic() {
            self.sender.qps as usize
        } else {
            1
        }
    }

    /// Flows of the topology (saturating): senders times [`NetConfig::flows_per_sender`], leaf by
    /// leaf, a NIC's QPs in order.
    pub fn flow_count(&self) -> usize {
        self.senders().saturating_mul(self.flows_per_sender())
    }

    /// The checks of NIC senders (profile `mq`): every flow or none, `sender.qps` the block's
    /// `QPS`, the link rate its `LINE_RATE` (spec-mq 2), at most [`MAX_FLOWS`] flows.
    fn validate_nic(&self, err: &dyn Fn(&str, String) -> NetError) -> Result<(), NetError> {
        let nic = self.is_nic();
        if let Some(k) = self
            .flows
            .iter()
            .position(|f| (f.profile == Profile::Mq) != nic)
        {
            return Err(err(
                &format!("flow[{k}].profile"),
                "profile \"mq\" makes every sender a NIC: give it to every flow (sender.profile) or to none".into(),
            ));
        }
        let qps = self.sender.qps;
        if !nic {
            if qps != 1 {
                return Err(err(
                    "sender.qps",
                    format!("{qps}: QPs per sender other than 1 need profile \"mq\" (a NIC with the multi-QP block)"),
                ));
            }
            return Ok(());
        }
        if !(1..=MAX_QPS).contains(&qps) {
            return Err(err(
                "sender.qps",
                format!("{qps}: QPs per NIC must be 1..={MAX_QPS} (the multi-QP block's QPS, spec-mq 2)"),
            ));
        }
        if self.flow_count() > MAX_FLOWS {
            return Err(err(
                "sender.qps",
                format!(
                    "{} NICs of {qps} QPs = {} flows: at most {MAX_FLOWS}",
                    self.senders(),
                    self.flow_count()
                ),
            ));
        }
        let rate = self.link.rate_bits_per_s;
        if let Err(e) = self.link.mq_params(qps) {
            return Err(err(
                "link.rate",
                format!("{rate} bit/s is not a line rate the multi-QP block can take ({e}; LINE_RATE is bytes/s in 32 bits)"),
            ));
        }
        Ok(())
    }

    /// The checks of the receiver's memory and of NSCC senders (profile `nscc`): the pend fits its
    /// 7 bits, the drain rate is a link rate, the registers derive for the network and fit
    /// their fields (spec-nscc 8).
    fn validate_nscc(&self, err: &dyn Fn(&str, String) -> NetError) -> Result<(), NetError> {
        let r = &self.receiver;
        if r.rcv_cwnd_pend > dcqcn_model::nscc::fixed::PEND_MAX {
            return Err(err(
                "receiver.rcv_cwnd_pend",
                format!("{}: must be 0..=127 (7 bits)", r.rcv_cwnd_pend),
            ));
        }
        if r.mem_threshold_bytes > MAX_BUFFER_BYTES {
            return Err(err(
                "receiver.mem_threshold",
                format!(
                    "{} bytes: must be at most {MAX_BUFFER_BYTES} (1 GiB)",
                    r.mem_threshold_bytes
                ),
            ));
        }
        if let Some(rate) = r.mem_drain_bits_per_s {
            if !(MIN_RATE_BITS_PER_S..=MAX_RATE_BITS_PER_S).contains(&rate) {
                return Err(err(
                    "receiver.mem_drain_rate",
                    format!(
                        "{rate} bit/s: must be {MIN_RATE_BITS_PER_S}..={MAX_RATE_BITS_PER_S} (1 Mbit/s to 1 Tbit/s)"
                    ),
                ));
            }
        }
        if let Some(t) = self.nscc.base_rtt_ps {
            if t > MAX_DELAY_PS {
                return Err(err("nscc.base_rtt", format!("{t} ps: must be at most 1 s")));
            }
        }
        if !self.flows.iter().any(|f| f.profile == Profile::Nscc) {
            return Ok(());
        }
        if let Err(e) = nscc_registers(self) {
            let field = if self.nscc.base_rtt_ps.is_some() {
                "nscc.base_rtt"
            } else {
                "link.rate"
            };
            return Err(err(
                field,
                format!("the NSCC registers cannot be derived for this network: {e}"),
            ));
        }
        Ok(())
    }

    /// Switches of the topology: one per leaf, and a root when there is more than one leaf.
    pub fn switch_count(&self) -> usize {
        let n = self.leaves.len();
        if n > 1 {
            n + 1
        } else {
            n
        }
    }

    /// What a run keeps of its samples: samples over the duration times the flows and switches
    /// each records (saturating; [`MAX_SAMPLE_CELLS`] bounds it, and with it a run's memory).
    /// `sample_ps` 0 counts as one sample per picosecond.
    pub fn sample_cells(&self) -> u64 {
        let samples = self.duration_ps / self.sample_ps.max(1);
        let per = (self.flows.len() as u64).saturating_add(self.switch_count() as u64);
        samples.saturating_mul(per)
    }
}

/// Bounds of the parameters (docs/inputs.md), checked by [`NetConfig::validate`] before a run.
/// Simulated time (as `dcqcn net --duration`).
pub const MAX_DURATION_PS: u64 = 100 * PS_PER_S;
/// CSV rows per run (`duration / sample`).
pub const MAX_SAMPLES: u64 = 1_000_000;
/// Link delay, CNP interval and CNP latency.
pub const MAX_DELAY_PS: u64 = PS_PER_S;
/// Link rate.
pub const MIN_RATE_BITS_PER_S: u64 = 1_000_000;
pub const MAX_RATE_BITS_PER_S: u64 = 1_000_000_000_000;
/// A frame on the stream (payload and overhead), and each frame size field.
pub const MAX_FRAME_BYTES: u32 = 9_000;
/// Switch buffer sizes and thresholds.
pub const MAX_BUFFER_BYTES: u64 = 1 << 30;
/// CNP pulse on the limiter's pin.
pub const MAX_CNP_PULSE_CYCLES: u32 = 1 << 20;
/// Senders of a topology (`topology.leaves` summed).
pub const MAX_SENDERS: usize = 1024;
/// QPs of a NIC (`sender.qps`): the multi-QP block's largest `QPS` (spec-mq 2).
pub const MAX_QPS: u32 = dcqcn_model::mq::params::MAX_QPS;
/// Flows of a network: a frame names its flow in 16 bits.
pub const MAX_FLOWS: usize = 1 << 16;
/// Samples times the flows and switches each records, in one run: about 40 bytes each in
/// memory, and as much again in the CSV (160 MB each at the bound).
pub const MAX_SAMPLE_CELLS: u64 = 4_000_000;

/// The name of QP `qp` of NIC `nic`: `nic2_qp15`.
pub fn nic_flow_name(nic: usize, qp: usize) -> String {
    format!("nic{nic}_qp{qp}")
}

/// The model's clock period in picoseconds.
pub fn cycle_ps(p: &Params) -> u64 {
    PS_PER_S / u64::from(p.clk_hz())
}

/// A field of the file, if given.
type F<T> = Option<Field<T>>;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileCfg {
    seed: F<u64>,
    duration: F<Time>,
    sample: F<Time>,
    frame: Option<FrameFile>,
    link: Option<LinkFile>,
    switch: Option<SwitchFile>,
    receiver: Option<ReceiverFile>,
    sender: Option<SenderFile>,
    nscc: Option<NsccFile>,
    topology: Option<TopologyFile>,
    #[serde(default)]
    flow: Vec<FlowFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrameFile {
    payload_bytes: F<u32>,
    stream_overhead_bytes: F<u32>,
    l2_overhead_bytes: F<u32>,
    gap_bytes: F<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkFile {
    /// Written as a rate (`10Gbps`; a bare integer is bytes/s like a register's), kept in bits/s.
    rate: F<Rate>,
    /// The switch uplinks' rate, written as `rate`.
    uplink_rate: F<Rate>,
    delay: F<Time>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SwitchFile {
    buffer: F<Size>,
    ecn: F<bool>,
    kmin: F<Size>,
    kmax: F<Size>,
    pmax: F<f64>,
    pfc: F<bool>,
    xoff: F<Size>,
    xon: F<Size>,
    headroom: F<Size>,
    pause_quanta: F<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReceiverFile {
    cnp_interval: F<Time>,
    cnp_latency: F<Time>,
    /// Written as a rate, kept in bits/s.
    mem_drain_rate: F<Rate>,
    mem_threshold: F<Size>,
    rcv_cwnd_pend: F<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NsccFile {
    base_rtt: F<Time>,
    trimming: F<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SenderFile {
    mac_fifo: F<Size>,
    cnp_pulse_cycles: F<u32>,
    skip: F<bool>,
    /// Every flow's block, unless the flow names its own.
    profile: F<String>,
    /// QPs per NIC (profile `mq`).
    qps: F<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TopologyFile {
    leaves: F<Vec<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FlowFile {
    name: F<String>,
    start: F<Time>,
    stop: F<Time>,
    profile: F<String>,
    base: Option<Spanned<String>>,
    #[serde(default)]
    registers: Registers,
}

/// A time in picoseconds: a bare integer is nanoseconds, a unit string is rounded half up to
/// the nanosecond.
fn picoseconds(t: Time) -> Result<u64, UnitError> {
    let ns = t.cycles(1_000_000_000)?;
    ns.checked_mul(1_000).ok_or_else(|| UnitError {
        input: format!("{ns} ns"),
        reason: "value out of range".into(),
    })
}

/// Reads the given fields over the defaults and remembers the line of each (for the checks of
/// [`NetConfig::validate`]).
struct Reader<'a> {
    src: Source<'a>,
    lines: BTreeMap<String, usize>,
}

impl Reader<'_> {
    /// `*out = convert(value)` if `field` is given.
    fn set<T: DeserializeOwned, U, E: std::fmt::Display>(
        &mut self,
        v: &F<T>,
        field: &str,
        out: &mut U,
        convert: impl FnOnce(T) -> Result<U, E>,
    ) -> Result<(), NetError> {
        let Some(v) = v else { return Ok(()) };
        self.lines
            .insert(field.to_string(), self.src.line(v.span()));
        *out = self.src.convert(v, field, convert)?;
        Ok(())
    }

    /// `*out = value` if `field` is given.
    fn copy<T: DeserializeOwned>(
        &mut self,
        v: &F<T>,
        field: &str,
        out: &mut T,
    ) -> Result<(), NetError> {
        self.set(v, field, out, Ok::<T, Infallible>)
    }

    fn time(&mut self, v: &F<Time>, field: &str, out: &mut u64) -> Result<(), NetError> {
        self.set(v, field, out, picoseconds)
    }

    fn size(&mut self, v: &F<Size>, field: &str, out: &mut u64) -> Result<(), NetError> {
        self.set(v, field, out, |s| Ok::<u64, Infallible>(s.bytes))
    }
}

/// The first table or list of a parameter file that has the wrong kind: its key and what it
/// should be.
fn shape_error(t: &toml::Table) -> Option<(String, &'static str)> {
    for key in [
        "frame", "link", "switch", "receiver", "sender", "nscc", "topology",
    ] {
        if t.get(key).is_some_and(|v| !v.is_table()) {
            return Some((key.to_string(), "a table"));
        }
    }
    let flows = t.get("flow")?;
    let Some(flows) = flows.as_array() else {
        return Some((
            "flow".into(),
            "an array of tables ([[flow]], one per sender)",
        ));
    };
    for (k, f) in flows.iter().enumerate() {
        let Some(f) = f.as_table() else {
            return Some((format!("flow[{k}]"), "a table ([[flow]])"));
        };
        if f.get("base").is_some_and(|b| !b.is_str()) {
            return Some((
                format!("flow[{k}].base"),
                "the name of a register set, a string (e.g. \"paper-table2\")",
            ));
        }
        if f.get("registers").is_some_and(|r| !r.is_table()) {
            return Some((
                format!("flow[{k}].registers"),
                "a table of register fields ([flow.registers])",
            ));
        }
    }
    None
}

/// Applies the file `text` (named `file`) on top of `cfg`, then validates the result.
pub fn apply_file(cfg: &mut NetConfig, text: &str, file: &str) -> Result<(), NetError> {
    let parsed: FileCfg = toml::from_str(text).map_err(|e| {
        // A table or list of the wrong kind: a plain message naming the key (serde's would
        // name this reader's types).
        match toml::from_str::<toml::Table>(text)
            .ok()
            .and_then(|t| shape_error(&t))
        {
            Some((field, expected)) => ConfigFileError::Field {
                file: file.to_string(),
                line: e.span().map_or(0, |s| line_of(text, s.start)),
                field,
                message: format!("expected {expected}"),
            },
            None => config_file::syntax_error(text, file, &e),
        }
    })?;
    let src = Source { text, file };
    let mut r = Reader {
        src,
        lines: BTreeMap::new(),
    };
    r.copy(&parsed.seed, "seed", &mut cfg.seed)?;
    r.time(&parsed.duration, "duration", &mut cfg.duration_ps)?;
    r.time(&parsed.sample, "sample", &mut cfg.sample_ps)?;
    if let Some(f) = &parsed.frame {
        let c = &mut cfg.frame;
        r.copy(
            &f.payload_bytes,
            "frame.payload_bytes",
            &mut c.payload_bytes,
        )?;
        r.copy(
            &f.stream_overhead_bytes,
            "frame.stream_overhead_bytes",
            &mut c.stream_overhead_bytes,
        )?;
        r.copy(
            &f.l2_overhead_bytes,
            "frame.l2_overhead_bytes",
            &mut c.l2_overhead_bytes,
        )?;
        r.copy(&f.gap_bytes, "frame.gap_bytes", &mut c.gap_bytes)?;
    }
    if let Some(l) = &parsed.link {
        r.set(
            &l.rate,
            "link.rate",
            &mut cfg.link.rate_bits_per_s,
            |rate| rate.bytes_per_s.checked_mul(8).ok_or("value out of range"),
        )?;
        r.set(
            &l.uplink_rate,
            "link.uplink_rate",
            &mut cfg.link.uplink_rate_bits_per_s,
            |rate| {
                rate.bytes_per_s
                    .checked_mul(8)
                    .map(Some)
                    .ok_or("value out of range")
            },
        )?;
        r.time(&l.delay, "link.delay", &mut cfg.link.delay_ps)?;
    }
    if let Some(s) = &parsed.switch {
        let c = &mut cfg.switch;
        r.size(&s.buffer, "switch.buffer", &mut c.buffer_bytes)?;
        r.copy(&s.ecn, "switch.ecn", &mut c.ecn)?;
        r.size(&s.kmin, "switch.kmin", &mut c.kmin_bytes)?;
        r.size(&s.kmax, "switch.kmax", &mut c.kmax_bytes)?;
        r.copy(&s.pmax, "switch.pmax", &mut c.pmax)?;
        r.copy(&s.pfc, "switch.pfc", &mut c.pfc)?;
        r.size(&s.xoff, "switch.xoff", &mut c.xoff_bytes)?;
        r.size(&s.xon, "switch.xon", &mut c.xon_bytes)?;
        r.size(&s.headroom, "switch.headroom", &mut c.headroom_bytes)?;
        r.copy(&s.pause_quanta, "switch.pause_quanta", &mut c.pause_quanta)?;
    }
    if let Some(n) = &parsed.receiver {
        let c = &mut cfg.receiver;
        r.time(
            &n.cnp_interval,
            "receiver.cnp_interval",
            &mut c.cnp_interval_ps,
        )?;
        r.time(
            &n.cnp_latency,
            "receiver.cnp_latency",
            &mut c.cnp_latency_ps,
        )?;
        r.set(
            &n.mem_drain_rate,
            "receiver.mem_drain_rate",
            &mut c.mem_drain_bits_per_s,
            |rate| {
                rate.bytes_per_s
                    .checked_mul(8)
                    .map(Some)
                    .ok_or("value out of range")
            },
        )?;
        r.size(
            &n.mem_threshold,
            "receiver.mem_threshold",
            &mut c.mem_threshold_bytes,
        )?;
        r.copy(
            &n.rcv_cwnd_pend,
            "receiver.rcv_cwnd_pend",
            &mut c.rcv_cwnd_pend,
        )?;
    }
    if let Some(n) = &parsed.nscc {
        r.set(
            &n.base_rtt,
            "nscc.base_rtt",
            &mut cfg.nscc.base_rtt_ps,
            |t| picoseconds(t).map(Some),
        )?;
        r.copy(&n.trimming, "nscc.trimming", &mut cfg.nscc.trimming)?;
    }
    if let Some(s) = &parsed.sender {
        let c = &mut cfg.sender;
        r.set(&s.mac_fifo, "sender.mac_fifo", &mut c.mac_fifo_bytes, |s| {
            u32::try_from(s.bytes)
                .map(Some)
                .map_err(|_| format!("{} is out of range", s.bytes))
        })?;
        r.copy(
            &s.cnp_pulse_cycles,
            "sender.cnp_pulse_cycles",
            &mut c.cnp_pulse_cycles,
        )?;
        r.copy(&s.skip, "sender.skip", &mut c.skip)?;
        r.copy(&s.qps, "sender.qps", &mut c.qps)?;
        let mut profile = None;
        r.set(&s.profile, "sender.profile", &mut profile, |n: String| {
            Profile::from_name(&n).map(Some)
        })?;
        if let Some(p) = profile {
            for f in &mut cfg.flows {
                f.profile = p;
            }
        }
    }
    if let Some(t) = &parsed.topology {
        if t.leaves.is_some() {
            r.copy(&t.leaves, "topology.leaves", &mut cfg.leaves)?;
            // Senders added by a larger topology run the last flow's configuration; the count
            // is checked first, so that no more than MAX_SENDERS flows are ever made.
            let n = cfg.senders();
            if cfg.leaves.is_empty() || cfg.leaves.contains(&0) || n > MAX_SENDERS {
                let line = r.lines.get("topology.leaves").copied().unwrap_or(0);
                return Err(NetError::File(ConfigFileError::Field {
                    file: file.to_string(),
                    line,
                    field: "topology.leaves".into(),
                    message: format!("one to {MAX_SENDERS} senders, at least one per leaf"),
                }));
            }
            if let Some(last) = cfg.flows.last().cloned() {
                while cfg.flows.len() < n {
                    let mut f = last.clone();
                    f.name = format!("flow_{}", cfg.flows.len());
                    cfg.flows.push(f);
                }
                cfg.flows.truncate(n);
            }
        }
    }
    // A NIC carries `sender.qps` flows: flows added run the last flow's configuration, as senders
    // added by `topology.leaves` do (a count out of bounds is left to `validate` to name).
    let n = cfg.flow_count();
    if cfg.is_nic() && (1..=MAX_QPS).contains(&cfg.sender.qps) && n <= MAX_FLOWS {
        if let Some(last) = cfg.flows.last().cloned() {
            if cfg.flows.len() != n {
                cfg.flows.resize(n, last);
                // Every flow renamed: the old names no longer say which NIC and QP.
                let qps = cfg.flows_per_sender();
                for (k, f) in cfg.flows.iter_mut().enumerate() {
                    f.name = nic_flow_name(k / qps, k % qps);
                }
            }
        }
    }
    if !parsed.flow.is_empty() && parsed.flow.len() != cfg.flows.len() {
        let line = text.find("[[flow]]").map_or(0, |o| line_of(text, o));
        return Err(NetError::File(ConfigFileError::Field {
            file: file.to_string(),
            line,
            field: "flow".into(),
            message: format!(
                "{} [[flow]] tables for {} senders: give one per sender, in order",
                parsed.flow.len(),
                cfg.flows.len()
            ),
        }));
    }
    let params = Params::DEFAULT;
    for (k, (f, out)) in parsed.flow.iter().zip(cfg.flows.iter_mut()).enumerate() {
        r.copy(&f.name, &format!("flow[{k}].name"), &mut out.name)?;
        r.time(&f.start, &format!("flow[{k}].start"), &mut out.start_ps)?;
        r.set(&f.stop, &format!("flow[{k}].stop"), &mut out.stop_ps, |t| {
            picoseconds(t).map(Some)
        })?;
        r.set(
            &f.profile,
            &format!("flow[{k}].profile"),
            &mut out.profile,
            |n: String| Profile::from_name(&n),
        )?;
        out.registers = config_file::apply(
            text,
            file,
            f.base.as_ref(),
            &f.registers,
            out.registers,
            &params,
        )?;
    }
    cfg.validate(file, &r.lines)
}

/// The command line over `cfg`: a parameter file (`file`: its text and name), then the seed and
/// the simulated time (`--duration`, seconds, in (0, 100]), then the checks.
pub fn command_line(
    cfg: &mut NetConfig,
    file: Option<(&str, &str)>,
    seed: Option<u64>,
    duration_s: Option<f64>,
) -> Result<(), NetError> {
    if let Some((text, name)) = file {
        apply_file(cfg, text, name)?;
    }
    if let Some(s) = seed {
        cfg.seed = s;
    }
    if let Some(d) = duration_s {
        if !(d > 0.0 && d <= (MAX_DURATION_PS / PS_PER_S) as f64) {
            return Err(NetError::Flag {
                flag: "--duration".into(),
                message: format!("{d}: must be in (0, 100] seconds"),
            });
        }
        cfg.duration_ps = (d * PS_PER_S as f64).round() as u64;
    }
    cfg.validate("command line", &Default::default())
}

/// Reads `path` and applies it on top of `cfg`.
pub fn load_file(cfg: &mut NetConfig, path: &std::path::Path) -> Result<(), NetError> {
    let file = path.display().to_string();
    let text = config_file::read_text(path)?;
    apply_file(cfg, &text, &file)
}

/// The unloaded round trip of the network in picoseconds: a frame over the edge link and every
/// switch's uplink to the receiver (serialisation and propagation), then its ACK's way back as
/// the network sends CNPs (the receiver's latency, the uplinks and the edge link at the size of a
/// control frame).
pub fn nscc_unloaded_rtt_ps(cfg: &NetConfig) -> u64 {
    let link = &cfg.link;
    let uplink = link.uplink();
    let wire = u64::from(cfg.frame.wire_bytes());
    let hops = if cfg.leaves.len() > 1 { 2 } else { 1 };
    let data = link.ser_ps(wire) + link.delay_ps + hops * (uplink.ser_ps(wire) + uplink.delay_ps);
    let ack = cfg.receiver.cnp_latency_ps
        + hops * (uplink.ser_ps(CONTROL_WIRE_BYTES) + uplink.delay_ps)
        + link.ser_ps(CONTROL_WIRE_BYTES)
        + link.delay_ps;
    data + ack
}

/// The NSCC registers of the network (spec-nscc 8.2): derived for the model's clock, the edge
/// link's rate, the base RTT (`nscc.base_rtt`, or [`unloaded_rtt_ps`]), the MTU (the frame's
/// payload, the bytes a window counts) and whether the switches trim. (Here, not in `nscc.rs`:
/// validating a network file derives them, and the senders are built from a valid file.)
pub fn nscc_registers(cfg: &NetConfig) -> Result<NsccRegs, NsccRegsError> {
    let base_rtt_ps = cfg
        .nscc
        .base_rtt_ps
        .unwrap_or_else(|| nscc_unloaded_rtt_ps(cfg));
    let regs = NsccRegs::derive(
        f64::from(Params::DEFAULT.clk_hz()),
        cfg.link.rate_bits_per_s as f64 / 8.0,
        base_rtt_ps as f64 / PS_PER_S as f64,
        cfg.frame.payload_bytes,
        cfg.nscc.trimming,
    )?;
    regs.validate()?;
    Ok(regs)
}
