//! `SurfModel`: the model of the upstream SURF block `RoCEv2Dcqcn` as its cocotb wrapper
//! `RoCEv2DcqcnWrapper` deploys it (`dcqcn_surf::model::SurfLimiter`, the model `dcqcn cosim
//! --rtl surf` lock-steps against upstream's VHDL), with the calls of `Model` where they mean the
//! same, and the upstream lockstep's comparison rules and report for a cocotb scoreboard.

use super::*;
use dcqcn_surf::model::{SurfLimiter, SurfParams, SurfProbe};

/// The wrapper's beat width in bytes (its `S_AXIS_TDATA` is 256 bits).
const SURF_BYTES: u32 = SurfLimiter::DATA_BYTES;
/// 64-bit words of a beat.
const SURF_WORDS: usize = 4;

/// The wrapper's inputs (clock aside; AWPROT and ARPROT go nowhere in the block) with their
/// widths, in the order of [`INPUTS`] and of the recorded sets (golden/surf/).
pub(super) const SURF_INPUTS: &[(&str, u32)] = &[
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

/// The wrapper's outputs, then the four registers the upstream lockstep compares after every
/// edge (Rc 0x018, Rt 0x01C, alpha 0x020[9:0], the CNP count 0x020[26:11]), with widths.
pub(super) const SURF_FIELDS: &[(&str, u32)] = &[
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
    ("rc", 32),
    ("rt", 32),
    ("alpha", 10),
    ("cnp_cnt", 16),
];

/// Fields of [`SURF_FIELDS`] that are output ports (the rest are registers).
const SURF_OUTPUTS: usize = 13;

/// The m_axis payload: compared only while upstream's m_axis_tvalid is 1 (upstream leaves it
/// undefined otherwise), as `dcqcn cosim --rtl surf` compares it.
const PAYLOAD: [&str; 3] = ["m_axis_tdata", "m_axis_tkeep", "m_axis_tlast"];

/// Per-cycle events of the last stepped cycle: the rate side's signals between its processes.
pub(super) const SURF_EVENTS: &[&str] = &[
    "cnp_edge",
    "dec_valid",
    "inc_valid",
    "alpha_valid",
    "time_stage",
];

/// The upstream address ports are 32 bits; the model takes the 16 the shim passes on.
const MODEL_ADDR_MAX: u64 = 0xFFFF;

/// Register writes a report lists (the last ones).
const WRITES_KEPT: usize = 32;

fn bit(x: bool) -> u64 {
    u64::from(x)
}

/// The value of field `k` of [`SURF_FIELDS`] for the cycle's outputs `o` and registers `p`.
fn field_value(k: usize, o: &Outputs, p: &SurfProbe) -> FieldValue {
    let s = FieldValue::Scalar;
    match k {
        0 => s(bit(o.s_axis_tready)),
        1 => s(bit(o.m_axis_tvalid)),
        2 => FieldValue::Wide(o.m_axis_tdata),
        3 => s(o.m_axis_tkeep & 0xFFFF_FFFF),
        4 => s(bit(o.m_axis_tlast)),
        5 => s(bit(o.s_axil_awready)),
        6 => s(bit(o.s_axil_wready)),
        7 => s(bit(o.s_axil_bvalid)),
        8 => s(u64::from(o.s_axil_bresp)),
        9 => s(bit(o.s_axil_arready)),
        10 => s(bit(o.s_axil_rvalid)),
        11 => s(u64::from(o.s_axil_rdata)),
        12 => s(u64::from(o.s_axil_rresp)),
        13 => s(u64::from(p.rc)),
        14 => s(u64::from(p.rt)),
        15 => s(u64::from(p.alpha)),
        16 => s(u64::from(p.cnp_cnt)),
        _ => panic!("field index {k} out of range"),
    }
}

/// A value as the upstream lockstep's report shows it: (hex digits of the field's width, decimal
/// for fields up to 64 bits).
fn shown(v: &FieldValue, width: u32) -> (String, String) {
    let words: [u64; DATA_WORDS] = match v {
        FieldValue::Scalar(x) => {
            let mut w = [0; DATA_WORDS];
            w[0] = *x;
            w
        }
        FieldValue::Wide(w) => *w,
    };
    let digits = width.div_ceil(4) as usize;
    let hex: String = (0..digits)
        .rev()
        .map(|d| {
            let nib = (words[d / 16] >> (4 * (d % 16))) & 0xF;
            char::from_digit(nib as u32, 16).expect("a nibble")
        })
        .collect();
    let dec = if width <= 64 {
        words[0].to_string()
    } else {
        String::new()
    };
    (hex, dec)
}

/// The model of the upstream SURF block, one clock cycle per `step`.
#[pyclass(module = "dcqcn_model._dcqcn_model", subclass)]
pub struct SurfModel {
    m: SurfLimiter,
    cycle: u64,
    out: Outputs,
    events: [u64; 5],
    history: VecDeque<(u64, Inputs, Outputs)>,
    /// Address and data of the write in progress, then the writes whose response was taken.
    aw: Option<u16>,
    w: Option<u32>,
    writes: VecDeque<String>,
}

impl SurfModel {
    fn fresh() -> SurfModel {
        SurfModel {
            m: SurfLimiter::new(SurfParams::default()),
            cycle: 0,
            out: Outputs::default(),
            events: [0; 5],
            history: VecDeque::with_capacity(HISTORY),
            aw: None,
            w: None,
            writes: VecDeque::new(),
        }
    }

    fn room(&self, n: u64) -> PyResult<()> {
        match self.cycle.checked_add(n) {
            Some(_) => Ok(()),
            None => Err(input_err(BadInput::CycleCount {
                cycle: self.cycle,
                n,
            })),
        }
    }

    /// Input `name`'s index in [`SURF_INPUTS`] (the same order as [`INPUTS`]).
    fn index(name: &str) -> PyResult<usize> {
        SURF_INPUTS
            .iter()
            .position(|(n, _)| *n == name)
            .ok_or_else(|| {
                input_err(BadInput::UnknownInput {
                    name: dcqcn_harness::clip(name),
                    known: SURF_INPUTS
                        .iter()
                        .map(|p| p.0)
                        .collect::<Vec<_>>()
                        .join(", "),
                })
            })
    }

    /// Sets input `idx` of `i` from a Python value, checked against the wrapper's port width
    /// and, for the addresses, the model's 16 bits.
    fn set(i: &mut Inputs, idx: usize, v: &Bound<'_, PyAny>) -> PyResult<()> {
        let (name, bits) = SURF_INPUTS[idx];
        if idx == TDATA {
            let w = beat_words(v, name, bits)?;
            set_tdata(i, &w[..SURF_WORDS]);
            return Ok(());
        }
        let x = uint_arg(v, name, bits)?;
        Self::set_value(i, idx, x)
    }

    fn set_value(i: &mut Inputs, idx: usize, x: u64) -> PyResult<()> {
        let name = SURF_INPUTS[idx].0;
        if (name == "s_axil_awaddr" || name == "s_axil_araddr") && x > MODEL_ADDR_MAX {
            return Err(InputError::new_err(format!(
                "`{name}` = {x:#x}: the upstream model takes addresses up to {MODEL_ADDR_MAX:#x} \
                 (the register decode reads bits 11:2; recorded sets and SURF's bench stay below)"
            )));
        }
        set_input(i, idx, x);
        Ok(())
    }

    fn inputs_from(
        d: Option<&Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
        arg: &str,
    ) -> PyResult<Inputs> {
        let mut i = Inputs::default();
        if let Some(d) = d.filter(|d| !d.is_none()) {
            for (k, v) in dict_of(d, arg, "input port name to value")?.iter() {
                let idx = Self::index(&text_of(&k, arg, "input port names")?)?;
                Self::set(&mut i, idx, &v)?;
            }
        }
        if let Some(kw) = kw {
            for (k, v) in kw.iter() {
                let idx = Self::index(&text_of(&k, arg, "input port names")?)?;
                Self::set(&mut i, idx, &v)?;
            }
        }
        Ok(i)
    }

    /// One cycle; the caller has checked [`SurfModel::room`].
    fn step_inputs(&mut self, i: &Inputs) -> Outputs {
        let r = self.m.rate();
        self.events = [
            bit(r.cnp.out()),
            bit(r.dec.out().valid),
            bit(r.inc.out().valid),
            bit(r.alpha.out().valid),
            u64::from(r.inc.out().time_stage),
        ];
        let out = self.m.step(i);
        let a = &i.axil;
        if a.awvalid && out.s_axil_awready {
            self.aw = Some(a.awaddr);
        }
        if a.wvalid && out.s_axil_wready {
            self.w = Some(a.wdata);
        }
        if a.bready && out.s_axil_bvalid {
            if let (Some(addr), Some(data)) = (self.aw.take(), self.w.take()) {
                if self.writes.len() == WRITES_KEPT {
                    self.writes.pop_front();
                }
                self.writes.push_back(format!("{addr:#05x}={data:#010x}"));
            }
        }
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back((self.cycle, *i, out));
        self.cycle += 1;
        self.out = out;
        out
    }

    fn outputs_dict<'py>(&self, py: Python<'py>, out: &Outputs) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let p = self.m.probe();
        for (k, (name, _)) in SURF_FIELDS[..SURF_OUTPUTS].iter().enumerate() {
            d.set_item(
                *name,
                value_to_py(py, &field_value(k, out, &p), SURF_BYTES)?,
            )?;
        }
        Ok(d)
    }

    fn address(reg: &Bound<'_, PyAny>) -> PyResult<u16> {
        let a = int_of(reg, "register", || {
            format!("(a byte address) 0..={MODEL_ADDR_MAX:#x}")
        })?;
        Ok(fit_range("register", a, 0, MODEL_ADDR_MAX).map_err(input_err)? as u16)
    }

    fn bus(
        &mut self,
        idle: &Inputs,
        write: Option<(u16, u32, u8)>,
        read: Option<u16>,
        max_cycles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u32, u8)> {
        let n = match max_cycles {
            None => 16,
            Some(v) => {
                let x = int_of(v, "max_cycles", || format!("0..={MAX_BUS_CYCLES}"))?;
                fit_range("max_cycles", x, 0, MAX_BUS_CYCLES).map_err(input_err)?
            }
        };
        self.room(n)?;
        let mut step = |i: &Inputs| self.step_inputs(i);
        axil_transaction(&mut step, idle, write, read, n).map_err(input_err)
    }

    /// The fields of `observed` that differ from the model's last cycle, by the upstream
    /// lockstep's rules: (index in [`SURF_FIELDS`], name, the model's value, the observed one;
    /// None for a value that is not 0/1, which always differs). The m_axis payload is compared
    /// only where the observed m_axis_tvalid is 1 (the model's when it is not given).
    fn differing(
        &self,
        observed: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<(usize, FieldValue, Option<FieldValue>)>> {
        let observed = dict_of(observed, "observed", "field name to value")?;
        let p = self.m.probe();
        let tvalid = match observed.get_item("m_axis_tvalid")? {
            Some(v) if !v.is_none() => uint_arg(&v, "m_axis_tvalid", 1)? == 1,
            Some(_) => true,
            None => self.out.m_axis_tvalid,
        };
        let mut out = Vec::new();
        for (k, v) in observed.iter() {
            let name = text_of(&k, "observed", "field names")?;
            let idx = SURF_FIELDS
                .iter()
                .position(|(n, _)| *n == name)
                .ok_or_else(|| {
                    InputError::new_err(format!(
                        "unknown field `{}` (known: {})",
                        dcqcn_harness::clip(&name),
                        SURF_FIELDS
                            .iter()
                            .map(|f| f.0)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?;
            if PAYLOAD.contains(&name.as_str()) && !tvalid {
                continue;
            }
            let ours = field_value(idx, &self.out, &p);
            let theirs = py_to_value(&v, matches!(ours, FieldValue::Wide(_)), &name)?;
            if theirs != Some(ours) {
                out.push((idx, ours, theirs));
            }
        }
        out.sort_by_key(|d| d.0);
        Ok(out)
    }
}

#[pymethods]
impl SurfModel {
    /// The wrapper's block at its generics (LINE_RATE_G 1.25e9 B/s, CLK_FREQ_G 156.25 MHz,
    /// 32-byte beats): the wrapper sets no other.
    #[new]
    fn new() -> SurfModel {
        SurfModel::fresh()
    }

    /// Back to power-up, cycle 0.
    fn reset(&mut self) {
        *self = SurfModel::fresh();
    }

    #[getter]
    fn data_bytes(&self) -> u32 {
        SURF_BYTES
    }
    #[getter]
    fn clk_hz(&self) -> u32 {
        SurfParams::default().clk_freq_hz
    }
    #[getter]
    fn line_rate(&self) -> u32 {
        SurfParams::default().line_rate
    }
    #[getter]
    fn cycle(&self) -> u64 {
        self.cycle
    }

    #[pyo3(signature = (inputs=None, **kwargs))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        inputs: Option<&Bound<'py, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let i = Self::inputs_from(inputs, kwargs, "inputs")?;
        self.room(1)?;
        let out = self.step_inputs(&i);
        self.outputs_dict(py, &out)
    }

    #[getter]
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.outputs_dict(py, &self.out)
    }

    /// The registers after the last edge: the four the lockstep compares, the configuration
    /// registers, and the CNP counter itself (`cnp_counter`; `cnp_cnt` is its register).
    #[getter]
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let r = &self.m.rate().regs;
        let p = self.m.probe();
        d.set_item("rc", p.rc)?;
        d.set_item("rt", p.rt)?;
        d.set_item("alpha", p.alpha)?;
        d.set_item("cnp_cnt", p.cnp_cnt)?;
        d.set_item("cnp_counter", self.m.rate().counter.out())?;
        d.set_item("alpha_g", r.alpha_g)?;
        d.set_item("dec_gain", r.dec_gain)?;
        d.set_item("threshold", r.threshold)?;
        d.set_item("clamp_tgt_rate", r.clamp_tgt_rate)?;
        d.set_item("rai", r.rai)?;
        d.set_item("rhai", r.rhai)?;
        d.set_item("rmin", r.rmin)?;
        d.set_item("inc_interval", r.inc_interval)?;
        d.set_item("dec_interval", r.dec_interval)?;
        d.set_item("alpha_interval", r.alpha_interval)?;
        d.set_item("bypass", r.bypass)?;
        d.set_item("cnp_cnt_rst", r.cnp_cnt_rst)?;
        Ok(d)
    }

    /// Signals between the rate side's processes during the last stepped cycle.
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, v) in SURF_EVENTS.iter().zip(self.events) {
            if *name == "time_stage" {
                d.set_item(*name, v)?;
            } else {
                d.set_item(*name, v != 0)?;
            }
        }
        Ok(d)
    }

    /// The comparison record of the last cycle: its outputs and the registers after its edge.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let p = self.m.probe();
        for (k, (name, _)) in SURF_FIELDS.iter().enumerate() {
            d.set_item(
                *name,
                value_to_py(py, &field_value(k, &self.out, &p), SURF_BYTES)?,
            )?;
        }
        Ok(d)
    }

    fn diff(&self, observed: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        Ok(self
            .differing(observed)?
            .into_iter()
            .map(|d| SURF_FIELDS[d.0].0.to_string())
            .collect())
    }

    #[pyo3(signature = (observed, *, scenario, seed=None, variant, replay, raw=None))]
    fn report(
        &self,
        observed: &Bound<'_, PyAny>,
        scenario: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        variant: &Bound<'_, PyAny>,
        replay: &Bound<'_, PyAny>,
        raw: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let raw = raw
            .filter(|r| !r.is_none())
            .map(|r| dict_of(r, "raw", "field name to text"))
            .transpose()?;
        let scenario = text_of(scenario, "scenario", "a scenario name")?;
        let seed = seed.map_or(Ok(0), |s| uint_arg(s, "seed", 64))?;
        let variant = text_of(variant, "variant", "a variant name")?;
        let replay = text_of(replay, "replay", "a command")?;
        let mut rows = Vec::new();
        for (k, ours, theirs) in self.differing(observed)? {
            let (name, width) = SURF_FIELDS[k];
            let (model_hex, model) = shown(&ours, width);
            let (rtl_hex, rtl) = match theirs {
                Some(t) => shown(&t, width),
                None => {
                    let text = match raw.map(|r| r.get_item(name)).transpose()?.flatten() {
                        Some(r) => dcqcn_harness::clip(&r.str()?.to_string_lossy()),
                        None => "x".repeat(width.div_ceil(4) as usize),
                    };
                    (text, "not 0/1".into())
                }
            };
            let block = if k < SURF_OUTPUTS { "out" } else { "st" };
            rows.push((name, block, model_hex, model, rtl_hex, rtl));
        }
        let diff_rows: Vec<_> = rows
            .iter()
            .map(|r| dcqcn_harness::report::DiffRow {
                field: r.0,
                block: r.1,
                model_hex: &r.2,
                model: &r.3,
                rtl_hex: &r.4,
                rtl: &r.5,
            })
            .collect();
        let history: Vec<(u64, String, String)> = self
            .history
            .iter()
            .map(|(c, i, o)| (*c, i.describe(), o.describe()))
            .collect();
        let cycle = self.cycle.saturating_sub(1);
        let time_us = cycle as f64 * 1e6 / f64::from(SurfParams::default().clk_freq_hz);
        let mut s = format!(
            "MISMATCH at cycle {cycle} (t = {time_us:.3} us), scenario {scenario}, seed {seed}, RTL variant {variant} ({SURF_BYTES} B beats)\n"
        );
        s += &dcqcn_harness::report::mismatch_table(
            &diff_rows,
            history.iter().map(|(c, i, o)| (*c, i.as_str(), o.as_str())),
        );
        s += &format!(
            "configuration: upstream writes [{}]\n",
            self.writes.iter().cloned().collect::<Vec<_>>().join(", ")
        );
        s += &format!("replay: {replay}\n");
        Ok(s)
    }

    /// One AXI4-Lite write through the ports (the wrapper's shim forces the strobes to 0xF:
    /// `strb` is driven on the port and has no effect); the response code.
    #[pyo3(signature = (register, data, strb=None, *, idle=None, max_cycles=None))]
    fn write(
        &mut self,
        register: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        strb: Option<&Bound<'_, PyAny>>,
        idle: Option<&Bound<'_, PyAny>>,
        max_cycles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u8> {
        let addr = Self::address(register)?;
        let data = uint_arg(data, "data", 32)? as u32;
        let strb = strb.map_or(Ok(0xF), |s| uint_arg(s, "strb", 4))? as u8;
        let idle = Self::inputs_from(idle, None, "idle")?;
        Ok(self
            .bus(&idle, Some((addr, data, strb)), None, max_cycles)?
            .1)
    }

    /// One AXI4-Lite read through the ports: (data, response code).
    #[pyo3(signature = (register, *, idle=None, max_cycles=None))]
    fn read(
        &mut self,
        register: &Bound<'_, PyAny>,
        idle: Option<&Bound<'_, PyAny>>,
        max_cycles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u32, u8)> {
        let addr = Self::address(register)?;
        let idle = Self::inputs_from(idle, None, "idle")?;
        self.bus(&idle, None, Some(addr), max_cycles)
    }

    /// The bulk run behind `SurfModel.run` (python/dcqcn_model/__init__.py): `consts` port name
    /// -> int held every cycle; `columns` port name -> a C-contiguous uint64 array of n values
    /// (`s_axis_tdata`: n x 4 words, least significant first); `record` names of [`SURF_FIELDS`]
    /// and [`SURF_EVENTS`]. Returns name -> a list of n ints (the Python side makes the arrays).
    fn _run<'py>(
        &mut self,
        py: Python<'py>,
        n: u64,
        consts: &Bound<'py, PyDict>,
        columns: &Bound<'py, PyDict>,
        record: Vec<String>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.room(n)?;
        let mut base = Inputs::default();
        for (k, v) in consts.iter() {
            let idx = Self::index(&text_of(&k, "stimulus", "input port names")?)?;
            Self::set(&mut base, idx, &v)?;
        }
        let mut cols: Vec<(usize, Vec<u64>)> = Vec::new();
        for (k, v) in columns.iter() {
            let name = text_of(&k, "stimulus", "input port names")?;
            let idx = Self::index(&name)?;
            let a: PyReadonlyArrayDyn<'py, u64> = v.extract()?;
            let a = a.as_array();
            let per = if idx == TDATA { SURF_WORDS } else { 1 };
            if a.len() as u64 != n * per as u64 {
                return Err(InputError::new_err(format!(
                    "`{name}`: expected {n} values{}, got an array of {} elements",
                    if per > 1 { " of 4 words" } else { "" },
                    a.len()
                )));
            }
            cols.push((idx, a.iter().copied().collect()));
        }
        let fields: Vec<(String, Option<usize>, Option<usize>)> = record
            .iter()
            .map(|name| {
                let f = SURF_FIELDS.iter().position(|(x, _)| x == name);
                let e = SURF_EVENTS.iter().position(|x| x == name);
                if f.is_none() && e.is_none() {
                    return Err(InputError::new_err(format!(
                        "`record`: unknown field `{}` (known: {}, {})",
                        dcqcn_harness::clip(name),
                        SURF_FIELDS
                            .iter()
                            .map(|f| f.0)
                            .collect::<Vec<_>>()
                            .join(", "),
                        SURF_EVENTS.join(", ")
                    )));
                }
                Ok((name.clone(), f, e))
            })
            .collect::<PyResult<_>>()?;
        let mut rec: Vec<Vec<u64>> = vec![Vec::new(); fields.len()];
        for c in 0..n as usize {
            let mut i = base;
            for (idx, col) in &cols {
                if *idx == TDATA {
                    set_tdata(&mut i, &col[c * SURF_WORDS..(c + 1) * SURF_WORDS]);
                } else {
                    let (name, bits) = SURF_INPUTS[*idx];
                    let x = col[c];
                    if bits < 64 && x >> bits != 0 {
                        return Err(input_err(BadInput::TooWide {
                            name: name.to_string(),
                            at: format!("[{c}]"),
                            value: Int::from(x),
                            bits,
                        }));
                    }
                    Self::set_value(&mut i, *idx, x)?;
                }
            }
            let out = self.step_inputs(&i);
            let p = self.m.probe();
            for ((_, f, e), r) in fields.iter().zip(rec.iter_mut()) {
                match (f, e) {
                    (Some(k), _) => match field_value(*k, &out, &p) {
                        FieldValue::Scalar(x) => r.push(x),
                        FieldValue::Wide(w) => r.extend_from_slice(&w[..SURF_WORDS]),
                    },
                    (None, Some(k)) => r.push(self.events[*k]),
                    (None, None) => unreachable!("checked above"),
                }
            }
            if c % SIGNAL_CHECK_CYCLES as usize == SIGNAL_CHECK_CYCLES as usize - 1 {
                py.check_signals()?;
            }
        }
        let d = PyDict::new(py);
        for ((name, _, _), r) in fields.iter().zip(rec) {
            d.set_item(name, PyArray1::from_vec(py, r))?;
        }
        Ok(d)
    }
}

/// Adds `SurfModel` and its name lists to the module.
pub(super) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SurfModel>()?;
    m.add(
        "SURF_INPUTS",
        SURF_INPUTS.iter().map(|p| p.0).collect::<Vec<_>>(),
    )?;
    m.add(
        "SURF_OUTPUTS",
        SURF_FIELDS[..SURF_OUTPUTS]
            .iter()
            .map(|p| p.0)
            .collect::<Vec<_>>(),
    )?;
    m.add(
        "SURF_FIELDS",
        SURF_FIELDS.iter().map(|p| p.0).collect::<Vec<_>>(),
    )?;
    m.add("SURF_EVENTS", SURF_EVENTS.to_vec())?;
    Ok(())
}
