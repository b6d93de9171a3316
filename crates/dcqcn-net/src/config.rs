//! Network parameters and their TOML form.
//!
//! Every experiment has complete defaults ([`NetConfig::default_network`] plus its own flows and
//! duration); a file overrides any subset. Units are the model's (`units`): times `1us`, `0.5s`;
//! rates `10Gbps`; sizes `5KB`, `12MiB`. A flow's DCQCN registers are written exactly as in a
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
use dcqcn_harness::config_file::{self, line_of, ConfigFileError, Registers};
use dcqcn_harness::units;
use dcqcn_model::{Config, Params};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// Picoseconds per second.
pub const PS_PER_S: u64 = 1_000_000_000_000;

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
    /// Bits per second (every link of the topology).
    pub rate_bps: u64,
    /// Propagation delay.
    pub delay_ps: u64,
}

impl LinkCfg {
    /// Serialisation time of `bytes`, rounded up to the picosecond.
    pub fn ser_ps(&self, bytes: u64) -> u64 {
        (bytes * 8 * PS_PER_S).div_ceil(self.rate_bps)
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
    /// Time from the marked frame's arrival to the CNP leaving the receiver.
    pub cnp_latency_ps: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SenderCfg {
    /// MAC frame FIFO between the rate limiter and the wire.
    pub mac_fifo_bytes: u32,
    /// Cycles the receive path holds the rate limiter's `cnp` pin high per CNP.
    pub cnp_pulse_cycles: u32,
    /// Advance uneventful stretches with `RateLimiter::skip` (false: step every cycle; the results
    /// are the same, only slower).
    pub skip: bool,
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
    /// Senders per leaf switch; one leaf is a single switch in front of the receiver, more leaves
    /// meet at a root switch.
    pub leaves: Vec<u32>,
    /// One flow per sender, leaf by leaf.
    pub flows: Vec<FlowCfg>,
}

impl NetConfig {
    /// The network of `docs/paper-reproduction.md`, from `network-anchors.md` and the paper, with
    /// no flows yet.
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
                rate_bps: 10_000_000_000,
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
            },
            sender: SenderCfg {
                mac_fifo_bytes: 2 * 4112,
                cnp_pulse_cycles: 4,
                skip: true,
            },
            leaves: vec![],
            flows: vec![],
        }
    }

    pub fn senders(&self) -> usize {
        self.leaves.iter().map(|&n| n as usize).sum()
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
        if f.payload_bytes == 0 || f.stream_bytes() > 9_000 {
            return Err(err(
                "frame.payload_bytes",
                format!(
                    "a stream frame of {} bytes: must be 1..=9000",
                    f.stream_bytes()
                ),
            ));
        }
        if self.link.rate_bps == 0 {
            return Err(err("link.rate", "must be above 0".into()));
        }
        let cycle = cycle_ps(&Params::DEFAULT);
        if self.link.delay_ps < cycle {
            return Err(err(
                "link.delay",
                format!("{} ps: must be at least one clock cycle ({cycle} ps), the lookahead of the event loop", self.link.delay_ps),
            ));
        }
        let s = &self.switch;
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
        if self.sender.mac_fifo_bytes < f.stream_bytes() {
            return Err(err(
                "sender.mac_fifo",
                format!(
                    "{} bytes cannot hold one {}-byte frame",
                    self.sender.mac_fifo_bytes,
                    f.stream_bytes()
                ),
            ));
        }
        if self.sender.cnp_pulse_cycles == 0 {
            return Err(err("sender.cnp_pulse_cycles", "must be at least 1".into()));
        }
        if self.sample_ps == 0 || self.duration_ps == 0 {
            return Err(err("sample", "duration and sample must be above 0".into()));
        }
        if self.leaves.is_empty() || self.leaves.contains(&0) || self.senders() > 64 {
            return Err(err(
                "topology.leaves",
                "one to 64 senders, at least one per leaf".into(),
            ));
        }
        if self.flows.len() != self.senders() {
            return Err(err(
                "flow",
                format!("{} flows for {} senders", self.flows.len(), self.senders()),
            ));
        }
        Ok(())
    }
}

/// The model's clock period in picoseconds.
pub fn cycle_ps(p: &Params) -> u64 {
    PS_PER_S / u64::from(p.clk_hz())
}

type V = Option<Spanned<toml::Value>>;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileCfg {
    seed: V,
    duration: V,
    sample: V,
    frame: Option<FrameFile>,
    link: Option<LinkFile>,
    switch: Option<SwitchFile>,
    receiver: Option<ReceiverFile>,
    sender: Option<SenderFile>,
    topology: Option<TopologyFile>,
    #[serde(default)]
    flow: Vec<FlowFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrameFile {
    payload_bytes: V,
    stream_overhead_bytes: V,
    l2_overhead_bytes: V,
    gap_bytes: V,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkFile {
    rate: V,
    delay: V,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SwitchFile {
    buffer: V,
    ecn: V,
    kmin: V,
    kmax: V,
    pmax: V,
    pfc: V,
    xoff: V,
    xon: V,
    headroom: V,
    pause_quanta: V,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReceiverFile {
    cnp_interval: V,
    cnp_latency: V,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SenderFile {
    mac_fifo: V,
    cnp_pulse_cycles: V,
    skip: V,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TopologyFile {
    leaves: V,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FlowFile {
    name: V,
    start: V,
    stop: V,
    base: Option<Spanned<String>>,
    #[serde(default)]
    registers: Registers,
}

/// Converts spanned TOML values, naming the file, line and field on failure.
struct Reader<'a> {
    text: &'a str,
    file: &'a str,
    lines: BTreeMap<String, usize>,
}

impl Reader<'_> {
    fn err(&self, v: &Spanned<toml::Value>, field: &str, message: String) -> NetError {
        NetError::File(ConfigFileError::Field {
            file: self.file.to_string(),
            line: line_of(self.text, v.span().start),
            field: field.to_string(),
            message,
        })
    }

    fn seen(&mut self, v: &Spanned<toml::Value>, field: &str) {
        self.lines
            .insert(field.to_string(), line_of(self.text, v.span().start));
    }

    fn string<'v>(&self, v: &'v Spanned<toml::Value>, field: &str) -> Result<&'v str, NetError> {
        v.get_ref().as_str().ok_or_else(|| {
            self.err(
                v,
                field,
                format!("expected a string, found {}", v.get_ref()),
            )
        })
    }

    /// A unit string (or a bare integer in the base unit) through `conv`.
    fn unit(
        &mut self,
        v: &V,
        field: &str,
        conv: impl Fn(&str) -> Result<u64, units::UnitError>,
        out: &mut u64,
    ) -> Result<(), NetError> {
        let Some(v) = v else { return Ok(()) };
        self.seen(v, field);
        *out = match v.get_ref() {
            toml::Value::Integer(i) => {
                u64::try_from(*i).map_err(|_| self.err(v, field, format!("{i} is negative")))?
            }
            toml::Value::String(s) => conv(s).map_err(|e| self.err(v, field, e.to_string()))?,
            other => {
                return Err(self.err(
                    v,
                    field,
                    format!("expected a number or a string with a unit, found {other}"),
                ))
            }
        };
        Ok(())
    }

    /// A time in picoseconds (`1us`, `0.2s`; bare integers are nanoseconds).
    fn time(&mut self, v: &V, field: &str, out: &mut u64) -> Result<(), NetError> {
        let mut ns = *out / 1000;
        self.unit(v, field, |s| units::cycles(s, 1_000_000_000), &mut ns)?;
        if v.is_some() {
            *out = ns * 1000;
        }
        Ok(())
    }

    fn rate_bits(&mut self, v: &V, field: &str, out: &mut u64) -> Result<(), NetError> {
        let mut bytes = *out / 8;
        self.unit(v, field, units::rate_bytes_per_s, &mut bytes)?;
        if v.is_some() {
            *out = bytes * 8;
        }
        Ok(())
    }

    fn size(&mut self, v: &V, field: &str, out: &mut u64) -> Result<(), NetError> {
        self.unit(v, field, units::bytes, out)
    }

    fn int<T: TryFrom<i64>>(&mut self, v: &V, field: &str, out: &mut T) -> Result<(), NetError> {
        let Some(v) = v else { return Ok(()) };
        self.seen(v, field);
        let i = v.get_ref().as_integer().ok_or_else(|| {
            self.err(
                v,
                field,
                format!("expected an integer, found {}", v.get_ref()),
            )
        })?;
        *out = T::try_from(i).map_err(|_| self.err(v, field, format!("{i} is out of range")))?;
        Ok(())
    }

    fn float(&mut self, v: &V, field: &str, out: &mut f64) -> Result<(), NetError> {
        let Some(v) = v else { return Ok(()) };
        self.seen(v, field);
        *out = match v.get_ref() {
            toml::Value::Float(f) => *f,
            toml::Value::Integer(i) => *i as f64,
            other => return Err(self.err(v, field, format!("expected a number, found {other}"))),
        };
        Ok(())
    }

    fn flag(&mut self, v: &V, field: &str, out: &mut bool) -> Result<(), NetError> {
        let Some(v) = v else { return Ok(()) };
        self.seen(v, field);
        *out = v.get_ref().as_bool().ok_or_else(|| {
            self.err(
                v,
                field,
                format!("expected true or false, found {}", v.get_ref()),
            )
        })?;
        Ok(())
    }
}

fn to_u32(
    v: u64,
    file: &str,
    lines: &BTreeMap<String, usize>,
    field: &str,
) -> Result<u32, NetError> {
    u32::try_from(v).map_err(|_| {
        NetError::File(ConfigFileError::Field {
            file: file.to_string(),
            line: lines.get(field).copied().unwrap_or(0),
            field: field.to_string(),
            message: format!("{v} is out of range"),
        })
    })
}

/// Applies the file `text` (named `file`) on top of `cfg`, then validates the result.
pub fn apply_file(cfg: &mut NetConfig, text: &str, file: &str) -> Result<(), NetError> {
    let parsed: FileCfg =
        toml::from_str(text).map_err(|e| config_file::syntax_error(text, file, &e))?;
    let mut r = Reader {
        text,
        file,
        lines: BTreeMap::new(),
    };
    r.int(&parsed.seed, "seed", &mut cfg.seed)?;
    r.time(&parsed.duration, "duration", &mut cfg.duration_ps)?;
    r.time(&parsed.sample, "sample", &mut cfg.sample_ps)?;
    if let Some(f) = &parsed.frame {
        r.int(
            &f.payload_bytes,
            "frame.payload_bytes",
            &mut cfg.frame.payload_bytes,
        )?;
        r.int(
            &f.stream_overhead_bytes,
            "frame.stream_overhead_bytes",
            &mut cfg.frame.stream_overhead_bytes,
        )?;
        r.int(
            &f.l2_overhead_bytes,
            "frame.l2_overhead_bytes",
            &mut cfg.frame.l2_overhead_bytes,
        )?;
        r.int(&f.gap_bytes, "frame.gap_bytes", &mut cfg.frame.gap_bytes)?;
    }
    if let Some(l) = &parsed.link {
        r.rate_bits(&l.rate, "link.rate", &mut cfg.link.rate_bps)?;
        r.time(&l.delay, "link.delay", &mut cfg.link.delay_ps)?;
    }
    if let Some(s) = &parsed.switch {
        let c = &mut cfg.switch;
        r.size(&s.buffer, "switch.buffer", &mut c.buffer_bytes)?;
        r.flag(&s.ecn, "switch.ecn", &mut c.ecn)?;
        r.size(&s.kmin, "switch.kmin", &mut c.kmin_bytes)?;
        r.size(&s.kmax, "switch.kmax", &mut c.kmax_bytes)?;
        r.float(&s.pmax, "switch.pmax", &mut c.pmax)?;
        r.flag(&s.pfc, "switch.pfc", &mut c.pfc)?;
        r.size(&s.xoff, "switch.xoff", &mut c.xoff_bytes)?;
        r.size(&s.xon, "switch.xon", &mut c.xon_bytes)?;
        r.size(&s.headroom, "switch.headroom", &mut c.headroom_bytes)?;
        r.int(&s.pause_quanta, "switch.pause_quanta", &mut c.pause_quanta)?;
    }
    if let Some(n) = &parsed.receiver {
        r.time(
            &n.cnp_interval,
            "receiver.cnp_interval",
            &mut cfg.receiver.cnp_interval_ps,
        )?;
        r.time(
            &n.cnp_latency,
            "receiver.cnp_latency",
            &mut cfg.receiver.cnp_latency_ps,
        )?;
    }
    if let Some(s) = &parsed.sender {
        let mut fifo = u64::from(cfg.sender.mac_fifo_bytes);
        r.size(&s.mac_fifo, "sender.mac_fifo", &mut fifo)?;
        cfg.sender.mac_fifo_bytes = to_u32(fifo, file, &r.lines, "sender.mac_fifo")?;
        r.int(
            &s.cnp_pulse_cycles,
            "sender.cnp_pulse_cycles",
            &mut cfg.sender.cnp_pulse_cycles,
        )?;
        r.flag(&s.skip, "sender.skip", &mut cfg.sender.skip)?;
    }
    if let Some(t) = &parsed.topology {
        if let Some(v) = &t.leaves {
            r.seen(v, "topology.leaves");
            let arr = v.get_ref().as_array().ok_or_else(|| {
                r.err(
                    v,
                    "topology.leaves",
                    "expected an array of sender counts, e.g. [2, 4, 2]".into(),
                )
            })?;
            cfg.leaves = arr
                .iter()
                .map(|x| x.as_integer().and_then(|i| u32::try_from(i).ok()))
                .collect::<Option<Vec<u32>>>()
                .ok_or_else(|| {
                    r.err(
                        v,
                        "topology.leaves",
                        "expected non-negative integers".into(),
                    )
                })?;
            // Senders added by a larger topology run the last flow's configuration.
            let n = cfg.senders();
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
        if let Some(v) = &f.name {
            out.name = r.string(v, &format!("flow[{k}].name"))?.to_string();
        }
        r.time(&f.start, &format!("flow[{k}].start"), &mut out.start_ps)?;
        if f.stop.is_some() {
            let mut stop = out.stop_ps.unwrap_or(0);
            r.time(&f.stop, &format!("flow[{k}].stop"), &mut stop)?;
            out.stop_ps = Some(stop);
        }
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

/// Reads `path` and applies it on top of `cfg`.
pub fn load_file(cfg: &mut NetConfig, path: &std::path::Path) -> Result<(), NetError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| {
        NetError::File(ConfigFileError::Read {
            file: file.clone(),
            source,
        })
    })?;
    apply_file(cfg, &text, &file)
}
