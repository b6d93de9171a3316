//! The vector-set variant: the golden format's fields for the upstream wrapper's ports and four
//! registers ([`fields`], [`cycle_values`]), a run of the upstream block ([`run_upstream`]) and its
//! set on disk ([`write_set`]).

use super::common::{io_err, Regs, SurfError, DATA_BYTES, FORMAT, GHDL_FLAGS};
use super::scenarios::{params, SurfScenario};
use super::sim::SurfSim;
use super::tree::Built;
use dcqcn_cosim::lockstep::{FieldDiff, HistoryRow};
use dcqcn_model::{Inputs, Outputs, DATA_WORDS};
use dcqcn_stim::golden::format::{Dir, Encoder, GField, Val};
use dcqcn_stim::golden::manifest::FileEntry;
use dcqcn_stim::stimulus::Bench;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

const INS: &[(&str, u32)] = &[
    ("rst", 1),
    ("cnp", 1),
    ("s_axis_tdata", 256),
    ("s_axis_tkeep", 32),
    ("s_axis_tvalid", 1),
    ("s_axis_tlast", 1),
    ("m_axis_tready", 1),
    ("s_axil_awaddr", 32),
    ("s_axil_awvalid", 1),
    ("s_axil_wdata", 32),
    ("s_axil_wstrb", 4),
    ("s_axil_wvalid", 1),
    ("s_axil_bready", 1),
    ("s_axil_araddr", 32),
    ("s_axil_arvalid", 1),
    ("s_axil_rready", 1),
];
const OUTS: &[(&str, u32)] = &[
    ("s_axis_tready", 1),
    ("m_axis_tvalid", 1),
    ("m_axis_tdata", 256),
    ("m_axis_tkeep", 32),
    ("m_axis_tlast", 1),
    ("s_axil_awready", 1),
    ("s_axil_wready", 1),
    ("s_axil_bvalid", 1),
    ("s_axil_bresp", 2),
    ("s_axil_arready", 1),
    ("s_axil_rvalid", 1),
    ("s_axil_rdata", 32),
    ("s_axil_rresp", 2),
];
const STS: &[(&str, u32)] = &[("rc", 32), ("rt", 32), ("alpha", 10), ("cnp_cnt", 16)];

/// The fields of [`FORMAT`] (the beat width is always 32 bytes; the argument is the format's
/// `data_bytes` line): the wrapper's inputs (AWPROT/ARPROT are tied to 0 and left out), its
/// outputs, and Rc, Rt, alpha and the CNP counter register after the cycle's edge.
pub fn fields(_data_bytes: u32) -> Vec<GField> {
    let f = |list: &[(&'static str, u32)], dir| {
        list.iter()
            .map(move |&(name, width)| GField { name, dir, width })
            .collect::<Vec<_>>()
    };
    let mut v = f(INS, Dir::In);
    v.extend(f(OUTS, Dir::Out));
    v.extend(f(STS, Dir::St));
    v
}

fn val(x: u64) -> Val {
    let mut v = [0; DATA_WORDS];
    v[0] = x;
    v
}

pub(super) fn data(w: &[u64; DATA_WORDS]) -> Val {
    let mut v = [0; DATA_WORDS];
    v[..4].copy_from_slice(&w[..4]);
    v
}

/// The values of every field of [`fields`] in one cycle. The m_axis payload (tdata, tkeep,
/// tlast) is recorded only while m_axis_tvalid is 1, and as 0 otherwise (upstream leaves it
/// undefined then: it is not compared).
pub fn cycle_values(i: &Inputs, o: &Outputs, r: &Regs) -> Vec<Val> {
    let a = &i.axil;
    let s = &i.s_axis;
    fn b<T: Into<u64>>(x: T) -> u64 {
        x.into()
    }
    let v = o.m_axis_tvalid;
    vec![
        val(b(i.rst)),
        val(b(i.cnp)),
        data(&s.tdata),
        val(s.tkeep & 0xFFFF_FFFF),
        val(b(s.tvalid)),
        val(b(s.tlast)),
        val(b(i.m_axis_tready)),
        val(b(a.awaddr)),
        val(b(a.awvalid)),
        val(b(a.wdata)),
        val(b(a.wstrb & 0xF)),
        val(b(a.wvalid)),
        val(b(a.bready)),
        val(b(a.araddr)),
        val(b(a.arvalid)),
        val(b(a.rready)),
        val(b(o.s_axis_tready)),
        val(b(o.m_axis_tvalid)),
        if v { data(&o.m_axis_tdata) } else { val(0) },
        val(if v { o.m_axis_tkeep & 0xFFFF_FFFF } else { 0 }),
        val(b(v && o.m_axis_tlast)),
        val(b(o.s_axil_awready)),
        val(b(o.s_axil_wready)),
        val(b(o.s_axil_bvalid)),
        val(b(o.s_axil_bresp)),
        val(b(o.s_axil_arready)),
        val(b(o.s_axil_rvalid)),
        val(b(o.s_axil_rdata)),
        val(b(o.s_axil_rresp)),
        val(b(r.rc)),
        val(b(r.rt)),
        val(b(r.alpha)),
        val(b(r.cnp_cnt)),
    ]
}

/// One recorded run.
pub struct Recording {
    pub inputs: Vec<Inputs>,
    pub ports: Vec<Outputs>,
    pub regs: Vec<Regs>,
    pub seconds: f64,
}

impl Recording {
    pub fn cycles_per_second(&self) -> f64 {
        self.inputs.len() as f64 / self.seconds.max(1e-9)
    }
}

/// Runs `cycles` cycles of `sc` (seed `seed`) on the upstream block, closed loop: the sources see
/// the wrapper's outputs. Any output bit that is not 0/1 outside cycle 0 and outside the m_axis
/// payload while m_axis_tvalid is 0 is an error.
pub fn run_upstream(
    b: &Built,
    sc: &SurfScenario,
    seed: u64,
    cycles: u64,
) -> Result<Recording, SurfError> {
    let p = params();
    let mut bench = Bench::with_config_writes(&sc.stimulus, &p, seed, sc.writes.clone());
    let mut sim = SurfSim::start(b, sc.name)?;
    let mut prev = Outputs::default();
    let (mut inputs, mut ports) = (Vec::new(), Vec::new());
    let start = Instant::now();
    for k in 0..=cycles {
        let mut i = bench.next(&prev);
        i.cnp |= sc.cnp_at.contains(&k);
        let po = sim.step(&i)?;
        if k == cycles {
            break; // the extra cycle that shows the registers after the last edge
        }
        if k > 0 {
            if let Some(f) = po.undefined.iter().find(|f| {
                po.out.m_axis_tvalid
                    || !matches!(**f, "m_axis_tdata" | "m_axis_tkeep" | "m_axis_tlast")
            }) {
                return Err(SurfError::Undefined {
                    cycle: k,
                    field: f,
                    value: "not 0/1".into(),
                });
            }
        }
        inputs.push(i);
        ports.push(po.out);
        prev = po.out;
    }
    let regs = sim.finish()?.collect(inputs.iter().map(|i| i.rst))?;
    Ok(Recording {
        inputs,
        ports,
        regs,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Writes the recording `r` of `sc` as a vector set in `dir` (vectors.txt and manifest.txt).
pub fn write_set(
    dir: &Path,
    b: &Built,
    sc: &SurfScenario,
    seed: u64,
    r: &Recording,
    command: &str,
) -> Result<(), SurfError> {
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    let comments = vec![
        format!(
            "upstream SURF RoCEv2Dcqcn (RoCEv2DcqcnWrapper) scenario {}: {}",
            sc.name, sc.description
        ),
        format!("SURF {}", b.commit),
        format!("recorded by: {command}"),
    ];
    let mut e = Encoder::with_fields(FORMAT, DATA_BYTES, fields(DATA_BYTES), &comments);
    for k in 0..r.inputs.len() {
        e.push(&cycle_values(&r.inputs[k], &r.ports[k], &r.regs[k]));
    }
    let v = e.finish();
    let vp = dir.join("vectors.txt");
    std::fs::write(&vp, &v.text).map_err(io_err(&vp))?;
    let fe = FileEntry::of("vectors.txt", v.text.as_bytes());
    let mut m = String::new();
    let _ = writeln!(m, "format {FORMAT}");
    let _ = writeln!(m, "set {}", sc.name);
    let _ = writeln!(m, "description {}", sc.description);
    let _ = writeln!(m, "data_bytes {DATA_BYTES}");
    let _ = writeln!(m, "clk_hz 156250000");
    let _ = writeln!(m, "line_rate_bytes_per_s 1250000000");
    let _ = writeln!(m, "seed {seed}");
    let _ = writeln!(m, "cycles {}", v.cycles);
    let _ = writeln!(m, "surf_commit {}", b.commit);
    for (f, h) in &b.versions {
        let _ = writeln!(m, "surf_file {f} sha256 {h}");
    }
    let _ = writeln!(m, "simulator {} (GHDL {})", b.ghdl, GHDL_FLAGS.join(" "));
    let _ = writeln!(m, "command {command}");
    for (a, d) in &sc.writes {
        let _ = writeln!(m, "write {a:03x} {d:08x}");
    }
    let _ = writeln!(
        m,
        "file vectors.txt bytes {} crc32 {} sha256 {}",
        fe.bytes, fe.crc32, fe.sha256
    );
    let mp = dir.join("manifest.txt");
    std::fs::write(&mp, m).map_err(io_err(&mp))?;
    Ok(())
}

/// `FieldDiff` for one differing field (hex and decimal on both sides).
pub fn field_diff(
    name: &'static str,
    block: &'static str,
    width: u32,
    model: &Val,
    rtl: &Val,
) -> FieldDiff {
    let hex = |v: &Val| dcqcn_stim::golden::format::hex(v, width);
    let dec = |v: &Val| {
        if width <= 64 {
            v[0].to_string()
        } else {
            String::new()
        }
    };
    FieldDiff {
        field: name,
        block,
        model_hex: hex(model),
        rtl_hex: hex(rtl),
        model: dec(model),
        rtl: dec(rtl),
    }
}

/// Rows for a report's history (inputs | outputs of a cycle).
pub fn history_row(cycle: u64, i: &Inputs, o: &Outputs) -> HistoryRow {
    HistoryRow {
        cycle,
        inputs: i.describe(),
        outputs: o.describe(),
    }
}
