//! Golden sets of the multi-QP block `dcqcn_mq` (docs/golden-format.md, "The multi-QP block";
//! docs/spec-mq.md): the ports of spec-mq 3 in the same text format as the single-flow block's
//! sets (templates of deltas, CRC-32 end line), driven by the closed-loop bench of
//! [`crate::mq`] and expected from the model [`MqBlock`].
//!
//! What differs from the single-flow sets, and only that:
//! - `vectors.txt` starts `dcqcn-golden-mq 1`, its line 2 is `qps <n>` (the block's `QPS`), and
//!   its fields are the 19 input and 11 output ports of `dcqcn_mq` ([`mq_fields`]): no register
//!   fields (the top level has no observation outputs; the lockstep compares those, spec-mq 8);
//! - the manifest says `block dcqcn_mq` and gives the generics `qps`, `clk_hz` and
//!   `line_rate_bytes_per_s`; its `events` line counts what the set exercises ([`MqEvents`]);
//! - `config.txt` lists the setup writes of the scenario (21-bit addresses, 6 hex digits).
//!
//! A manifest without a `block` line is a single-flow set, so every set written before the
//! multi-QP block keeps its bytes.

use super::format::{
    check_lines, first_differing_line, hex, Decoder, Dir, EncodedVectors, Encoder, GField, Val,
};
use super::format::{MAX_RUN_CYCLES, MODEL};
use super::manifest::{Entry, FileEntry, Manifest};
use super::{at, stale, GoldenError};
use crate::mq::{self as mqstim, MqBench, MqStimulus};
use dcqcn_model::mq::{regmap, MqBlock, MqInputs, MqOutputs, MqParams};
use dcqcn_model::DATA_WORDS;
use std::fmt::Write as _;

/// Line 1 of a multi-QP set's `vectors.txt`.
pub const MQ_FORMAT: &str = "dcqcn-golden-mq 1";
/// The manifest's `block` value of a multi-QP set (a manifest without `block` is `dcqcn_rl`'s).
pub const BLOCK: &str = "dcqcn_mq";
/// The manifest's `block` value of the single-flow block (the default).
pub const BLOCK_RL: &str = "dcqcn_rl";

/// The ports of `dcqcn_mq` (spec-mq 3) in format order: the inputs, then the outputs. Every width
/// is the same at every `QPS` (QP fields are 12 bits, AXI addresses 21, spec-mq 9).
const PORTS: &[(&str, Dir, u32)] = &[
    ("rst", Dir::In, 1),
    ("s_req_valid", Dir::In, 1),
    ("s_req_qp", Dir::In, 12),
    ("s_req_bytes", Dir::In, 16),
    ("s_cnp_valid", Dir::In, 1),
    ("s_cnp_qp", Dir::In, 12),
    ("s_rpt_valid", Dir::In, 1),
    ("s_rpt_qp", Dir::In, 12),
    ("s_rpt_bytes", Dir::In, 16),
    ("grant_pause", Dir::In, 1),
    ("s_axil_awaddr", Dir::In, 21),
    ("s_axil_awvalid", Dir::In, 1),
    ("s_axil_wdata", Dir::In, 32),
    ("s_axil_wstrb", Dir::In, 4),
    ("s_axil_wvalid", Dir::In, 1),
    ("s_axil_bready", Dir::In, 1),
    ("s_axil_araddr", Dir::In, 21),
    ("s_axil_arvalid", Dir::In, 1),
    ("s_axil_rready", Dir::In, 1),
    ("m_grant_valid", Dir::Out, 1),
    ("m_grant_qp", Dir::Out, 12),
    ("m_grant_bytes", Dir::Out, 16),
    ("s_axil_awready", Dir::Out, 1),
    ("s_axil_wready", Dir::Out, 1),
    ("s_axil_bvalid", Dir::Out, 1),
    ("s_axil_bresp", Dir::Out, 2),
    ("s_axil_arready", Dir::Out, 1),
    ("s_axil_rvalid", Dir::Out, 1),
    ("s_axil_rdata", Dir::Out, 32),
    ("s_axil_rresp", Dir::Out, 2),
];

/// The field list of a multi-QP set (the same at every `QPS`; the argument is line 2's value, so
/// that the function fits [`Decoder::with_header`]).
pub fn mq_fields(_qps: u32) -> Vec<GField> {
    PORTS
        .iter()
        .map(|&(name, dir, width)| GField { name, dir, width })
        .collect()
}

/// Whether `qps` is a legal `QPS` (spec-mq 2).
fn legal_qps(qps: u32) -> bool {
    MqParams::with_qps(qps).is_ok()
}

/// Reads a multi-QP `vectors.txt` (header, checksum; cycles on demand).
pub fn mq_decoder<'a>(file: &str, text: &'a str) -> Result<Decoder<'a>, GoldenError> {
    Decoder::with_header(file, text, MQ_FORMAT, ("qps", legal_qps), mq_fields)
}

fn val(x: u64) -> Val {
    let mut v = [0; DATA_WORDS];
    v[0] = x;
    v
}

/// The values of every field in one cycle: `i` driven, `o` the model's outputs of the cycle.
pub fn mq_cycle_values(i: &MqInputs, o: &MqOutputs) -> Vec<Val> {
    let a = &i.axil;
    [
        u64::from(i.rst),
        u64::from(i.req.valid),
        u64::from(i.req.qp),
        u64::from(i.req.bytes),
        u64::from(i.cnp.valid),
        u64::from(i.cnp.qp),
        u64::from(i.rpt.valid),
        u64::from(i.rpt.qp),
        u64::from(i.rpt.bytes),
        u64::from(i.grant_pause),
        u64::from(a.awaddr),
        u64::from(a.awvalid),
        u64::from(a.wdata),
        u64::from(a.wstrb),
        u64::from(a.wvalid),
        u64::from(a.bready),
        u64::from(a.araddr),
        u64::from(a.arvalid),
        u64::from(a.rready),
        u64::from(o.m_grant_valid),
        u64::from(o.m_grant_qp),
        u64::from(o.m_grant_bytes),
        u64::from(o.s_axil_awready),
        u64::from(o.s_axil_wready),
        u64::from(o.s_axil_bvalid),
        u64::from(o.s_axil_bresp),
        u64::from(o.s_axil_arready),
        u64::from(o.s_axil_rvalid),
        u64::from(o.s_axil_rdata),
        u64::from(o.s_axil_rresp),
    ]
    .iter()
    .zip(PORTS)
    .map(|(&x, &(_, _, w))| val(x & ((1u64 << w) - 1)))
    .collect()
}

// ---------------------------------------------------------------------------------------------
// Set definitions

/// Where a multi-QP set's stimulus comes from (the manifest's `source`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MqSource {
    /// A canonical set of [`mq_canonical`], by name.
    Canonical(String),
    /// A scenario of [`crate::mq::scenarios`] as it is, at a `QPS`, for some cycles.
    Scenario {
        name: String,
        qps: u32,
        cycles: u64,
        seed: u64,
    },
}

/// Everything a multi-QP set is generated from.
#[derive(Clone, Debug)]
pub struct MqSetDef {
    pub name: String,
    pub description: String,
    pub params: MqParams,
    pub stimulus: MqStimulus,
    pub seed: u64,
    pub cycles: u64,
    pub source: MqSource,
}

fn unknown_scenario(name: &str) -> GoldenError {
    crate::StimError::UnknownScenario {
        name: name.to_string(),
        known: mqstim::names().iter().map(|s| s.to_string()).collect(),
    }
    .into()
}

/// An illegal QPS for scenario `name` (the message names the parameter, spec-mq 2).
fn bad_qps(name: &str, e: impl std::fmt::Display) -> GoldenError {
    GoldenError::File {
        file: name.to_string(),
        reason: e.to_string(),
    }
}

impl MqSetDef {
    /// A scenario of [`crate::mq::scenarios`] at `qps` for `cycles` cycles.
    pub fn from_scenario(
        name: &str,
        qps: u32,
        cycles: u64,
        seed: u64,
    ) -> Result<MqSetDef, GoldenError> {
        let sc = mqstim::by_name(name).ok_or_else(|| unknown_scenario(name))?;
        let params = MqParams::with_qps(qps).map_err(|e| bad_qps(name, e))?;
        Ok(MqSetDef {
            name: format!("{name}-q{qps}"),
            description: sc.description.to_string(),
            params,
            stimulus: (sc.stimulus)(qps),
            seed,
            cycles,
            source: MqSource::Scenario {
                name: name.to_string(),
                qps,
                cycles,
                seed,
            },
        })
    }
}

/// The canonical multi-QP sets checked in under `golden/`: scenarios of `dcqcn cosim --block mq`
/// at QPS 4 (one at 64), a few thousand cycles each (CI replays them on Icarus and GHDL), some
/// retuned so that their events happen within a short set. Together they reach grants, CNP
/// decreases, every increase phase, window reads and writes, `qp_clear`, `arb_mask`, DECERR and
/// mid-run resets (each manifest's `events` line says how often).
pub fn mq_canonical() -> Vec<MqSetDef> {
    type Tweak = fn(&mut MqStimulus, u32);
    let keep: Tweak = |_, _| {};
    // (set, scenario, QPS, cycles, description if retuned, retuning)
    type Row = (
        &'static str,
        &'static str,
        u32,
        u64,
        Option<&'static str>,
        Tweak,
    );
    let sets: [Row; 5] = [
        ("mq-incast-q4", "mq-incast", 4, 8_000, None, keep),
        ("mq-cnp-storm-q4", "mq-cnp-storm", 4, 6_000, None, keep),
        (
            "mq-schemes-q4",
            "mq-enable-toggle",
            4,
            10_000,
            Some("the four enables (schemes 1-3 and the rest of the 16 combinations, spec-mq 5.7) switched every ~100 cycles under traffic and CNPs"),
            keep,
        ),
        (
            "mq-window-q4",
            "mq-sw-writes",
            4,
            10_000,
            Some("window writes and reads, qp_clear, arb_mask and out-of-range windows (DECERR) on running QPs, spurious reports, a reset mid-run"),
            |s, _| {
                s.spurious = 0.002;
                s.resets = vec![6_000];
            },
        ),
        (
            "mq-busy-q64",
            "mq-sw-writes",
            64,
            12_000,
            Some("64 QPs sending, CNPs spread over them, window writes and reads, qp_clear, arb_mask and out-of-range windows (DECERR)"),
            |s, _| s.cnp_rate = 0.03,
        ),
    ];
    sets.into_iter()
        .map(|(name, from, qps, cycles, description, tweak)| {
            let sc = mqstim::by_name(from).expect("a built-in mq scenario");
            let mut stimulus = (sc.stimulus)(qps);
            tweak(&mut stimulus, qps);
            MqSetDef {
                name: name.to_string(),
                description: description.unwrap_or(sc.description).to_string(),
                params: MqParams::with_qps(qps).expect("a legal QPS"),
                stimulus,
                seed: 1,
                cycles,
                source: MqSource::Canonical(name.to_string()),
            }
        })
        .collect()
}

/// A canonical multi-QP set by name (`None`: not one).
pub fn mq_canonical_set(name: &str) -> Option<MqSetDef> {
    mq_canonical().into_iter().find(|s| s.name == name)
}

// ---------------------------------------------------------------------------------------------
// Generation

/// What a set exercises, counted on the ports and on the block's counters while it is generated
/// (the manifest's `events` line): a reader sees what the set covers without replaying it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MqEvents {
    /// Cycles with `rst` high.
    pub resets: u64,
    /// Grants (`m_grant_valid`).
    pub grants: u64,
    /// CNP events on the port (`s_cnp_valid`, any QP).
    pub cnps: u64,
    /// Rate decreases (increments of `cnt_dec`, spec-mq 5.4).
    pub decreases: u64,
    /// Rate increases of every phase (increments of `cnt_inc_fr/ai/hai`).
    pub increases: u64,
    /// Accepted writes and reads of the per-QP windows (spec-mq 6.3).
    pub window_writes: u64,
    pub window_reads: u64,
    /// Accepted window writes with the `qp_clear` bit set (spec-mq 5.8).
    pub qp_clears: u64,
    /// Write and read responses DECERR (spec-mq 6.1).
    pub decerr: u64,
}

impl MqEvents {
    /// The manifest's `events` value.
    pub fn render(&self) -> String {
        format!(
            "resets {} grants {} cnps {} decreases {} increases {} window_writes {} window_reads {} qp_clears {} decerr {}",
            self.resets,
            self.grants,
            self.cnps,
            self.decreases,
            self.increases,
            self.window_writes,
            self.window_reads,
            self.qp_clears,
            self.decerr
        )
    }

    /// Counts one cycle: `i` driven, `o` the outputs, counters before and after the edge.
    fn sample(&mut self, i: &MqInputs, o: &MqOutputs, before: (u32, u32), after: (u32, u32)) {
        let a = &i.axil;
        let grew = |b: u32, x: u32| u64::from(if x >= b { x - b } else { x });
        self.resets += u64::from(i.rst);
        self.grants += u64::from(o.m_grant_valid);
        self.cnps += u64::from(i.cnp.valid);
        self.decreases += grew(before.0, after.0);
        self.increases += grew(before.1, after.1);
        // addresses are 21 bits; the windows are the upper half (spec-mq 6.1)
        let in_window = |addr: u32| addr >= regmap::QP_BASE;
        if a.awvalid && a.wvalid && o.s_axil_awready && o.s_axil_wready && in_window(a.awaddr) {
            self.window_writes += 1;
            let is_ctrl = regmap::qp_lookup(a.awaddr).is_some_and(|(_, w)| w.0 == regmap::QP_CTRL);
            if is_ctrl && a.wdata & 2 != 0 && a.wstrb & 1 != 0 {
                self.qp_clears += 1;
            }
        }
        if a.arvalid && o.s_axil_arready && in_window(a.araddr) {
            self.window_reads += 1;
        }
        self.decerr += u64::from(a.bready && o.s_axil_bvalid && o.s_axil_bresp == 3);
        self.decerr += u64::from(a.rready && o.s_axil_rvalid && o.s_axil_rresp == 3);
    }
}

/// The files of one generated multi-QP set, in memory.
pub struct MqGeneratedSet {
    /// `vectors.txt`, `config.txt`, `manifest.txt`.
    pub files: Vec<(&'static str, Vec<u8>)>,
    pub cycles: u64,
    pub templates_defined: u64,
    pub events: MqEvents,
}

impl MqGeneratedSet {
    /// The size of every file together.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|(_, b)| b.len() as u64).sum()
    }
}

fn counters(m: &MqBlock) -> (u32, u32) {
    let c = &m.state().regs.cnt;
    (
        c.cnt_dec,
        c.cnt_inc_fr
            .wrapping_add(c.cnt_inc_ai)
            .wrapping_add(c.cnt_inc_hai),
    )
}

/// Runs the model with the closed-loop bench over the set and encodes it.
fn encode(def: &MqSetDef) -> (EncodedVectors, MqEvents) {
    let qps = def.params.qps();
    let comments = vec![
        format!("set {}: {}", def.name, def.description),
        format!(
            "dcqcn_mq with QPS {qps}, CLK_FREQ_HZ {}, LINE_RATE {}; generated by {MODEL}; see docs/golden-format.md",
            def.params.clk_hz(),
            def.params.line_rate()
        ),
    ];
    let mut enc = Encoder::with_header(MQ_FORMAT, ("qps", qps), mq_fields(qps), &comments);
    let mut model = MqBlock::new(def.params);
    let mut bench = MqBench::new(&def.stimulus, qps, def.seed);
    let mut out = MqOutputs::default();
    let mut events = MqEvents::default();
    for _ in 0..def.cycles {
        let i = bench.next(&out);
        let before = counters(&model);
        out = model.step(&i);
        events.sample(&i, &out, before, counters(&model));
        enc.push(&mq_cycle_values(&i, &out));
    }
    (enc.finish(), events)
}

/// The `source` value of the manifest.
fn source_value(s: &MqSource) -> String {
    match s {
        MqSource::Canonical(n) => format!("canonical {n}"),
        MqSource::Scenario {
            name,
            qps,
            cycles,
            seed,
        } => format!("scenario {name} qps {qps} cycles {cycles} seed {seed}"),
    }
}

/// Runs the model over the set and encodes it: `vectors.txt`, `config.txt` and the manifest.
pub fn generate_mq(def: &MqSetDef) -> Result<MqGeneratedSet, GoldenError> {
    if !(3..=MAX_RUN_CYCLES).contains(&def.cycles) {
        return Err(GoldenError::File {
            file: def.name.clone(),
            reason: format!(
                "{} cycles: a multi-QP set runs 3 to {MAX_RUN_CYCLES} cycles (two reset cycles first; docs/golden-format.md)",
                def.cycles
            ),
        });
    }
    let (v, events) = encode(def);
    let mut config = String::from(
        "# register writes (full strobes) that the bench makes after each reset (spec-mq 6.2)\n",
    );
    for &(addr, data) in &def.stimulus.setup {
        let name = regmap::lookup(addr).map_or("?", |r| r.1);
        let _ = writeln!(config, "w {addr:06x} {data:08x} f {name}");
    }
    let mut files: Vec<(&'static str, Vec<u8>)> = vec![
        ("vectors.txt", v.text.into_bytes()),
        ("config.txt", config.into_bytes()),
    ];
    let p = &def.params;
    let keys = [
        ("format", super::FORMAT.to_string()),
        ("model", MODEL.to_string()),
        ("set", def.name.clone()),
        ("description", def.description.clone()),
        ("block", BLOCK.to_string()),
        ("qps", p.qps().to_string()),
        ("clk_hz", p.clk_hz().to_string()),
        ("line_rate_bytes_per_s", p.line_rate().to_string()),
        ("seed", def.seed.to_string()),
        ("cycles", v.cycles.to_string()),
        ("source", source_value(&def.source)),
        ("events", events.render()),
    ];
    let keys: Vec<Entry> = keys
        .into_iter()
        .enumerate()
        .map(|(n, (key, value))| Entry {
            key: key.to_string(),
            value,
            line: n + 1,
        })
        .collect();
    let mfiles = files
        .iter()
        .enumerate()
        .map(|(n, (name, contents))| FileEntry {
            line: keys.len() + n + 1,
            ..FileEntry::of(name, contents)
        })
        .collect();
    let manifest = Manifest {
        keys,
        files: mfiles,
    };
    files.push(("manifest.txt", manifest.render().into_bytes()));
    for (name, bytes) in &files {
        check_lines(&format!("{}/{name}", def.name), bytes)?;
    }
    Ok(MqGeneratedSet {
        files,
        cycles: v.cycles,
        templates_defined: v.templates_defined,
        events,
    })
}

// ---------------------------------------------------------------------------------------------
// Verification

/// The set definition a multi-QP manifest records (`mf` names the manifest in errors).
pub fn mq_source_of(mf: &str, m: &Manifest) -> Result<MqSetDef, GoldenError> {
    let entry = m
        .entry("source")
        .ok_or_else(|| at(mf, 1, "no `source` line"))?;
    let (src, line) = (entry.value.as_str(), entry.line);
    match src.split(' ').collect::<Vec<_>>().as_slice() {
        ["canonical", name] => mq_canonical_set(name).ok_or_else(|| {
            at(
                mf,
                line,
                format!(
                    "unknown multi-QP canonical set `{}` (canonical: {})",
                    crate::clip(name),
                    mq_canonical()
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        }),
        ["scenario", name, "qps", q, "cycles", c, "seed", s] => {
            let qps = q.parse().ok().filter(|q| legal_qps(*q)).ok_or_else(|| {
                at(
                    mf,
                    line,
                    format!("bad qps `{}` (1 to 4096)", crate::clip(q)),
                )
            })?;
            let cycles = c
                .parse()
                .ok()
                .filter(|n| (3..=MAX_RUN_CYCLES).contains(n))
                .ok_or_else(|| {
                    at(
                        mf,
                        line,
                        format!("bad cycles `{}` (3 to {MAX_RUN_CYCLES})", crate::clip(c)),
                    )
                })?;
            let seed = s
                .parse()
                .map_err(|_| at(mf, line, format!("bad seed `{}`", crate::clip(s))))?;
            MqSetDef::from_scenario(name, qps, cycles, seed)
        }
        _ => Err(at(
            mf,
            line,
            format!("unknown multi-QP source `{}`", crate::clip(src)),
        )),
    }
}

/// Checks a multi-QP set whose files already match their manifest entries: the vectors'
/// structure, the manifest's `qps` against the vectors' header and the source, and that the model
/// still produces exactly these bytes (stale vectors fail with the first differing cycle and
/// port). Returns the set's cycle count.
pub(super) fn verify_mq(
    dir: &std::path::Path,
    m: &Manifest,
    vtext: &str,
) -> Result<u64, GoldenError> {
    let mf = dir.join("manifest.txt").display().to_string();
    let vfile = dir.join("vectors.txt").display().to_string();
    let dec = mq_decoder(&vfile, vtext)?;
    super::manifest::within_run_limit(&vfile, dec.cycles)?;
    let header_qps = dec.data_bytes;
    let cycles = dec.check_count()?;
    let def = mq_source_of(&mf, m)?;
    let qps_line = m.entry("qps").map_or(1, |e| e.line);
    if m.get("qps") != Some(&def.params.qps().to_string()) || header_qps != def.params.qps() {
        return Err(at(
            &mf,
            qps_line,
            format!(
                "qps `{}`: the source runs QPS {} and {vfile} says qps {header_qps}: corrupt or edited",
                m.get("qps").unwrap_or("(missing)"),
                def.params.qps()
            ),
        ));
    }
    if def.cycles != cycles {
        let line = m.entry("source").map_or(1, |e| e.line);
        return Err(at(
            &mf,
            line,
            format!(
                "the source runs {} cycles but {vfile} holds {cycles}: corrupt or edited",
                def.cycles
            ),
        ));
    }
    let fresh = generate_mq(&def)?;
    for (name, bytes) in &fresh.files {
        let p = dir.join(name);
        let old = super::manifest::read(&p)?;
        if &old == bytes {
            continue;
        }
        let file = p.display().to_string();
        if *name == "vectors.txt" {
            let new_text = String::from_utf8_lossy(bytes).into_owned();
            return Err(stale_mq_vectors(&file, vtext, &new_text));
        }
        return Err(stale(
            &file,
            first_differing_line(&old, bytes),
            "differs from what the model generates now (stale: regenerate with `make golden`)",
        ));
    }
    Ok(cycles)
}

/// The first cycle and port where the file's vectors differ from the model's.
fn stale_mq_vectors(file: &str, old: &str, new: &str) -> GoldenError {
    let line = first_differing_line(old.as_bytes(), new.as_bytes());
    let generic = |cycle: u64| {
        stale(
            file,
            line,
            format!("stale vectors: differ from the model from cycle {cycle} on (length, header or encoding; regenerate with `make golden`)"),
        )
    };
    let (Ok(mut a), Ok(mut b)) = (mq_decoder(file, old), mq_decoder("model", new)) else {
        return generic(0);
    };
    let fields = a.fields.clone();
    let mut cycle = 0u64;
    loop {
        match (a.next_cycle(), b.next_cycle()) {
            (Ok(Some(x)), Ok(Some(y))) => {
                if let Some(k) = (0..x.len()).find(|&k| x[k] != y[k]) {
                    let f = fields[k];
                    return stale(
                        file,
                        line,
                        format!(
                            "stale vectors: cycle {cycle} field {}: file has {}, the model gives {} (regenerate with `make golden`)",
                            f.name,
                            hex(&x[k], f.width),
                            hex(&y[k], f.width)
                        ),
                    );
                }
            }
            _ => return generic(cycle),
        }
        cycle += 1;
    }
}
