//! Waveforms: the model's and the RTL's records side by side (scopes `model` and `rtl`, same
//! names), with the testbench inputs in scope `tb`. Only changes are written. Outputs change at the
//! falling edge before the cycle's rising edge, registers just after it, so a viewer shows each
//! register update on its clock edge.

use crate::lockstep::{self, Outcome, Tracer};
use crate::CosimError;
use dcqcn_model::snapshot::{FieldValue, FIELDS};
use dcqcn_model::{Inputs, Snapshot};
use dcqcn_stim::run::RunSpec;
use std::fmt::Display;
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use thiserror::Error;
use vcd::{IdCode, TimescaleUnit, Value};

/// A traced run that could not write its waveform, or could not run.
#[derive(Debug, Error)]
pub enum TraceError {
    #[error("{}: cannot create: {source}", path.display())]
    Create {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Run(#[from] CosimError),
}

impl TraceError {
    /// The cause alone, without the file name.
    pub fn cause(&self) -> &dyn Display {
        match self {
            TraceError::Create { source, .. } | TraceError::Write { source, .. } => source,
            TraceError::Run(e) => e,
        }
    }
}

/// Runs the lockstep with a waveform of both sides (scopes `tb`, `model`, `rtl`) of the cycles in
/// `window` written to `path`.
pub fn run_traced(spec: &RunSpec, path: &Path, window: Range<u64>) -> Result<Outcome, TraceError> {
    let file = std::fs::File::create(path).map_err(|source| TraceError::Create {
        path: path.to_path_buf(),
        source,
    })?;
    let write = |source| TraceError::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut t = VcdTrace::new(
        io::BufWriter::new(file),
        spec.params.data_bytes(),
        spec.params.clk_hz(),
        true,
    )
    .map_err(write)?;
    let outcome = lockstep::run(spec, Some((&mut t, window)))?;
    t.finish().map_err(write)?;
    Ok(outcome)
}

/// The testbench inputs traced in scope `tb`: name, width function of DATA_BYTES, value getter.
type InputGetter = fn(&Inputs) -> FieldValue;
fn input_fields(db: u32) -> Vec<(&'static str, u32, InputGetter)> {
    use FieldValue::{Scalar as S, Wide as Wd};
    vec![
        ("rst", 1, |i| S(u64::from(i.rst))),
        ("cnp", 1, |i| S(u64::from(i.cnp))),
        ("s_axis_tdata", 8 * db, |i| Wd(i.s_axis.tdata)),
        ("s_axis_tkeep", db, |i| S(i.s_axis.tkeep)),
        ("s_axis_tvalid", 1, |i| S(u64::from(i.s_axis.tvalid))),
        ("s_axis_tlast", 1, |i| S(u64::from(i.s_axis.tlast))),
        ("m_axis_tready", 1, |i| S(u64::from(i.m_axis_tready))),
        ("s_axil_awaddr", 12, |i| S(u64::from(i.axil.awaddr))),
        ("s_axil_awvalid", 1, |i| S(u64::from(i.axil.awvalid))),
        ("s_axil_wdata", 32, |i| S(u64::from(i.axil.wdata))),
        ("s_axil_wstrb", 4, |i| S(u64::from(i.axil.wstrb))),
        ("s_axil_wvalid", 1, |i| S(u64::from(i.axil.wvalid))),
        ("s_axil_bready", 1, |i| S(u64::from(i.axil.bready))),
        ("s_axil_araddr", 12, |i| S(u64::from(i.axil.araddr))),
        ("s_axil_arvalid", 1, |i| S(u64::from(i.axil.arvalid))),
        ("s_axil_rready", 1, |i| S(u64::from(i.axil.rready))),
    ]
}

/// A VCD writer implementing [`Tracer`].
pub struct VcdTrace<W: Write> {
    w: vcd::Writer<W>,
    db: u32,
    half_period_ps: u64,
    clk: IdCode,
    inputs: Vec<(IdCode, u32, InputGetter)>,
    model: Vec<IdCode>,
    rtl: Vec<IdCode>,
    prev_in: Option<Inputs>,
    prev_model: Option<Snapshot>,
    prev_rtl: Option<Snapshot>,
    error: Option<io::Error>,
}

/// Writes one value change: a scalar for 1-bit signals, a vector otherwise.
fn change<W: Write>(
    w: &mut vcd::Writer<W>,
    id: IdCode,
    width: u32,
    v: &FieldValue,
) -> io::Result<()> {
    if width == 1 {
        w.change_scalar(
            id,
            if *v == FieldValue::Scalar(0) {
                Value::V0
            } else {
                Value::V1
            },
        )
    } else {
        w.change_vector(id, bits(v, width))
    }
}

fn bits(v: &FieldValue, width: u32) -> Vec<Value> {
    (0..width)
        .rev()
        .map(|b| {
            let set = match v {
                FieldValue::Scalar(x) => b < 64 && x >> b & 1 == 1,
                FieldValue::Wide(w) => w[(b / 64) as usize] >> (b % 64) & 1 == 1,
            };
            if set {
                Value::V1
            } else {
                Value::V0
            }
        })
        .collect()
}

impl<W: Write> VcdTrace<W> {
    pub fn new(out: W, data_bytes: u32, clk_hz: u32, with_rtl: bool) -> io::Result<Self> {
        let mut w = vcd::Writer::new(out);
        w.timescale(1, TimescaleUnit::PS)?;
        w.add_module("dcqcn")?;
        let clk = w.add_wire(1, "clk")?;
        w.add_module("tb")?;
        let mut inputs = Vec::new();
        for (name, width, get) in input_fields(data_bytes) {
            inputs.push((w.add_wire(width, name)?, width, get));
        }
        w.upscope()?;
        let scope = |w: &mut vcd::Writer<W>, name: &str| -> io::Result<Vec<IdCode>> {
            w.add_module(name)?;
            let ids = FIELDS
                .iter()
                .map(|f| w.add_wire(f.bits(data_bytes), f.name))
                .collect::<io::Result<Vec<_>>>()?;
            w.upscope()?;
            Ok(ids)
        };
        let model = scope(&mut w, "model")?;
        let rtl = if with_rtl {
            scope(&mut w, "rtl")?
        } else {
            vec![]
        };
        w.upscope()?;
        w.enddefinitions()?;
        Ok(VcdTrace {
            w,
            db: data_bytes,
            half_period_ps: 500_000_000_000 / u64::from(clk_hz),
            clk,
            inputs,
            model,
            rtl,
            prev_in: None,
            prev_model: None,
            prev_rtl: None,
            error: None,
        })
    }

    fn write_scope(
        w: &mut vcd::Writer<W>,
        ids: &[IdCode],
        s: &Snapshot,
        prev: Option<&Snapshot>,
        outputs: bool,
        db: u32,
    ) -> io::Result<()> {
        for (k, f) in FIELDS.iter().enumerate() {
            if (f.block == "out") != outputs {
                continue;
            }
            let v = s.value(k);
            if prev.is_some_and(|p| p.value(k) == v) {
                continue;
            }
            change(w, ids[k], f.bits(db), &v)?;
        }
        Ok(())
    }

    fn write_cycle(
        &mut self,
        cycle: u64,
        i: &Inputs,
        m: &Snapshot,
        r: Option<&Snapshot>,
    ) -> io::Result<()> {
        let t0 = cycle * 2 * self.half_period_ps;
        self.w.timestamp(t0)?;
        self.w.change_scalar(self.clk, Value::V0)?;
        for (id, width, get) in &self.inputs {
            let v = get(i);
            if self.prev_in.as_ref().is_some_and(|p| get(p) == v) {
                continue;
            }
            change(&mut self.w, *id, *width, &v)?;
        }
        Self::write_scope(
            &mut self.w,
            &self.model,
            m,
            self.prev_model.as_ref(),
            true,
            self.db,
        )?;
        if let Some(r) = r.filter(|_| !self.rtl.is_empty()) {
            Self::write_scope(
                &mut self.w,
                &self.rtl,
                r,
                self.prev_rtl.as_ref(),
                true,
                self.db,
            )?;
        }
        self.w.timestamp(t0 + self.half_period_ps)?;
        self.w.change_scalar(self.clk, Value::V1)?;
        Self::write_scope(
            &mut self.w,
            &self.model,
            m,
            self.prev_model.as_ref(),
            false,
            self.db,
        )?;
        if let Some(r) = r.filter(|_| !self.rtl.is_empty()) {
            Self::write_scope(
                &mut self.w,
                &self.rtl,
                r,
                self.prev_rtl.as_ref(),
                false,
                self.db,
            )?;
            self.prev_rtl = Some(*r);
        }
        self.prev_in = Some(*i);
        self.prev_model = Some(*m);
        Ok(())
    }

    /// Flushes and returns the first write error, if any.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.w.flush()
    }
}

impl<W: Write> Tracer for VcdTrace<W> {
    fn cycle(&mut self, cycle: u64, inputs: &Inputs, model: &Snapshot, rtl: Option<&Snapshot>) {
        if self.error.is_none() {
            if let Err(e) = self.write_cycle(cycle, inputs, model, rtl) {
                self.error = Some(e);
            }
        }
    }
}

/// The multi-QP block's waveform (docs/spec-mq.md 8): the inputs in scope `tb`; in scopes `model`
/// and `rtl` the outputs, every state field, the seven bitmaps (one QPS-bit vector each) and the
/// write streams (valid, QP, each data field), under the observation record's names. Everything
/// is sampled before the edge, so it is written at the falling edge that opens the cycle.
pub struct MqVcdTrace<W: Write> {
    w: vcd::Writer<W>,
    qps: u32,
    half_period_ps: u64,
    clk: IdCode,
    tb: Vec<(IdCode, u32)>,
    model: Vec<(IdCode, u32)>,
    rtl: Vec<(IdCode, u32)>,
    prev: Option<[Vec<FieldValue>; 3]>,
    error: Option<io::Error>,
}

/// The traced inputs: (name, width).
const MQ_INPUTS: [(&str, u32); 19] = [
    ("rst", 1),
    ("s_req_valid", 1),
    ("s_req_qp", 12),
    ("s_req_bytes", 16),
    ("s_cnp_valid", 1),
    ("s_cnp_qp", 12),
    ("s_rpt_valid", 1),
    ("s_rpt_qp", 12),
    ("s_rpt_bytes", 16),
    ("grant_pause", 1),
    ("s_axil_awaddr", 21),
    ("s_axil_awvalid", 1),
    ("s_axil_wdata", 32),
    ("s_axil_wstrb", 4),
    ("s_axil_wvalid", 1),
    ("s_axil_bready", 1),
    ("s_axil_araddr", 21),
    ("s_axil_arvalid", 1),
    ("s_axil_rready", 1),
];

/// The traced outputs: (name, width).
const MQ_OUTPUTS: [(&str, u32); 11] = [
    ("m_grant_valid", 1),
    ("m_grant_qp", 12),
    ("m_grant_bytes", 16),
    ("s_axil_awready", 1),
    ("s_axil_wready", 1),
    ("s_axil_arready", 1),
    ("s_axil_bvalid", 1),
    ("s_axil_bresp", 2),
    ("s_axil_rvalid", 1),
    ("s_axil_rdata", 32),
    ("s_axil_rresp", 2),
];

fn mq_inputs(i: &dcqcn_model::mq::MqInputs) -> Vec<FieldValue> {
    let a = &i.axil;
    let f = |b: bool| FieldValue::Scalar(u64::from(b));
    let n = |v: u32| FieldValue::Scalar(u64::from(v));
    vec![
        f(i.rst),
        f(i.req.valid),
        n(i.req.qp.into()),
        n(i.req.bytes.into()),
        f(i.cnp.valid),
        n(i.cnp.qp.into()),
        f(i.rpt.valid),
        n(i.rpt.qp.into()),
        n(i.rpt.bytes.into()),
        f(i.grant_pause),
        n(a.awaddr),
        f(a.awvalid),
        n(a.wdata),
        n(a.wstrb.into()),
        f(a.wvalid),
        f(a.bready),
        n(a.araddr),
        f(a.arvalid),
        f(a.rready),
    ]
}

/// One side's traced values: outputs, state fields, bitmaps, write streams.
fn mq_side(o: &dcqcn_model::mq::MqOutputs, obs: &dcqcn_model::mq::MqObs) -> Vec<FieldValue> {
    use dcqcn_model::mq::obs::STREAMS;
    let f = |b: bool| FieldValue::Scalar(u64::from(b));
    let n = |v: u32| FieldValue::Scalar(u64::from(v));
    let mut v = vec![
        f(o.m_grant_valid),
        n(o.m_grant_qp.into()),
        n(o.m_grant_bytes.into()),
        f(o.s_axil_awready),
        f(o.s_axil_wready),
        f(o.s_axil_arready),
        f(o.s_axil_bvalid),
        n(o.s_axil_bresp.into()),
        f(o.s_axil_rvalid),
        n(o.s_axil_rdata),
        n(o.s_axil_rresp.into()),
    ];
    v.extend(obs.state.iter().map(|&x| FieldValue::Scalar(x)));
    for m in &obs.bitmaps {
        v.push(FieldValue::Wide(std::array::from_fn(|k| {
            m.get(k).copied().unwrap_or(0)
        })));
    }
    for (s, w) in STREAMS.iter().zip(&obs.writes) {
        v.push(f(w.valid));
        v.push(n(w.qp.into()));
        for k in 0..s.fields.len() {
            v.push(FieldValue::Scalar(w.field(s, k)));
        }
    }
    v
}

impl<W: Write> MqVcdTrace<W> {
    pub fn new(out: W, qps: u32, clk_hz: u32) -> io::Result<Self> {
        use dcqcn_model::mq::obs::{BITMAPS, STATE_FIELDS, STREAMS};
        let mut w = vcd::Writer::new(out);
        w.timescale(1, TimescaleUnit::PS)?;
        w.add_module("dcqcn_mq")?;
        let clk = w.add_wire(1, "clk")?;
        w.add_module("tb")?;
        let mut tb = vec![];
        for (name, width) in MQ_INPUTS {
            tb.push((w.add_wire(width, name)?, width));
        }
        w.upscope()?;
        // bitmaps wider than a FieldValue::Wide (512 bits) show their first 512 QPs
        let bm_width = qps.min(512);
        let scope = |w: &mut vcd::Writer<W>, name: &str| -> io::Result<Vec<(IdCode, u32)>> {
            w.add_module(name)?;
            let mut ids = vec![];
            for (n, width) in MQ_OUTPUTS {
                ids.push((w.add_wire(width, n)?, width));
            }
            for &(n, width) in STATE_FIELDS {
                ids.push((w.add_wire(width, n)?, width));
            }
            for n in BITMAPS {
                ids.push((w.add_wire(bm_width, n)?, bm_width));
            }
            for s in &STREAMS {
                ids.push((w.add_wire(1, &format!("{}_valid", s.name))?, 1));
                ids.push((w.add_wire(12, &format!("{}_qp", s.name))?, 12));
                for &(f, width) in s.fields {
                    ids.push((w.add_wire(width, &format!("{}_{f}", s.name))?, width));
                }
            }
            w.upscope()?;
            Ok(ids)
        };
        let model = scope(&mut w, "model")?;
        let rtl = scope(&mut w, "rtl")?;
        w.upscope()?;
        w.enddefinitions()?;
        Ok(MqVcdTrace {
            w,
            qps,
            half_period_ps: 500_000_000_000 / u64::from(clk_hz),
            clk,
            tb,
            model,
            rtl,
            prev: None,
            error: None,
        })
    }

    fn write_cycle(
        &mut self,
        cycle: u64,
        i: &dcqcn_model::mq::MqInputs,
        m: &(dcqcn_model::mq::MqOutputs, dcqcn_model::mq::MqObs),
        r: &(dcqcn_model::mq::MqOutputs, dcqcn_model::mq::MqObs),
    ) -> io::Result<()> {
        let _ = self.qps;
        let now = [mq_inputs(i), mq_side(&m.0, &m.1), mq_side(&r.0, &r.1)];
        let t0 = cycle * 2 * self.half_period_ps;
        self.w.timestamp(t0)?;
        self.w.change_scalar(self.clk, Value::V0)?;
        for (k, ids) in [&self.tb, &self.model, &self.rtl].into_iter().enumerate() {
            for (j, (id, width)) in ids.iter().enumerate() {
                let v = &now[k][j];
                if self.prev.as_ref().is_some_and(|p| p[k][j] == *v) {
                    continue;
                }
                change(&mut self.w, *id, *width, v)?;
            }
        }
        self.w.timestamp(t0 + self.half_period_ps)?;
        self.w.change_scalar(self.clk, Value::V1)?;
        self.prev = Some(now);
        Ok(())
    }

    /// Flushes and returns the first write error, if any.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.w.flush()
    }
}

impl<W: Write> crate::mq_lockstep::MqTracer for MqVcdTrace<W> {
    fn cycle(
        &mut self,
        cycle: u64,
        inputs: &dcqcn_model::mq::MqInputs,
        model: &(dcqcn_model::mq::MqOutputs, dcqcn_model::mq::MqObs),
        rtl: &(dcqcn_model::mq::MqOutputs, dcqcn_model::mq::MqObs),
    ) {
        if self.error.is_none() {
            if let Err(e) = self.write_cycle(cycle, inputs, model, rtl) {
                self.error = Some(e);
            }
        }
    }
}

/// Runs the multi-QP lockstep with a waveform of both sides of the cycles in `window` written to
/// `path`.
pub fn mq_run_traced(
    spec: &crate::mq_lockstep::MqRunSpec,
    path: &Path,
    window: Range<u64>,
) -> Result<crate::mq_lockstep::MqOutcome, TraceError> {
    let file = std::fs::File::create(path).map_err(|source| TraceError::Create {
        path: path.to_path_buf(),
        source,
    })?;
    let write = |source| TraceError::Write {
        path: path.to_path_buf(),
        source,
    };
    let clk = dcqcn_model::mq::MqParams::DEFAULT.clk_hz();
    let mut t = MqVcdTrace::new(io::BufWriter::new(file), spec.qps, clk).map_err(write)?;
    let outcome = crate::mq_lockstep::run(spec, Some((&mut t, window)))?;
    t.finish().map_err(write)?;
    Ok(outcome)
}
