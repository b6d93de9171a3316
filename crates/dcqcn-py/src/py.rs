//! The PyO3 layer: `dcqcn_model._dcqcn_model`. The Python package (`python/dcqcn_model`) re-exports
//! it with typed stubs; see `__init__.pyi` for the documented API.

use crate::{
    axil_transaction, check_input, check_tdata, config_from_file, event_value, input_index,
    named_config, recorded, register, set_input, set_tdata, show, state_fields, width, Diff,
    InputError as BadInput, Recorded, Report, EVENTS, INPUTS, PORT_REGISTERS, TDATA,
};
use dcqcn_harness::units;
use dcqcn_model::config::FIELD_WIDTHS;
use dcqcn_model::snapshot::{FieldValue, FIELDS};
use dcqcn_model::{Config, Inputs, NamedConfig, Outputs, Params, RateLimiter, DATA_WORDS};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyString};
use std::collections::VecDeque;
use std::path::PathBuf;

create_exception!(
    _dcqcn_model,
    DcqcnError,
    PyValueError,
    "Base of every error of dcqcn_model (a ValueError); str() is the Rust crate's message."
);
create_exception!(
    _dcqcn_model,
    ConfigFileError,
    DcqcnError,
    "A register configuration file that cannot be used: `file:line: `field`: reason`, as `dcqcn`."
);
create_exception!(
    _dcqcn_model,
    UnitError,
    DcqcnError,
    "A value in human units that cannot be converted, e.g. `12 parsecs`: unknown rate unit."
);
create_exception!(
    _dcqcn_model,
    ParamError,
    DcqcnError,
    "Elaboration parameters the RTL refuses (DATA_BYTES, CLK_FREQ_HZ, LINE_RATE)."
);
create_exception!(
    _dcqcn_model,
    InputError,
    DcqcnError,
    "Bad input to the model: an unknown port or field, a value wider than its port, a bus timeout."
);

fn input_err(e: BadInput) -> PyErr {
    InputError::new_err(e.to_string())
}
fn unit_err(e: units::UnitError) -> PyErr {
    UnitError::new_err(e.to_string())
}

/// Cycles of inputs and outputs a mismatch report lists (`dcqcn cosim`'s HISTORY_CYCLES).
const HISTORY: usize = 8;

/// A value as a Python int (wide beats through `int.from_bytes`).
fn value_to_py<'py>(
    py: Python<'py>,
    v: &FieldValue,
    data_bytes: u32,
) -> PyResult<Bound<'py, PyAny>> {
    match v {
        FieldValue::Scalar(x) => Ok(x.into_pyobject(py)?.into_any()),
        FieldValue::Wide(w) => {
            let words = (data_bytes as usize).div_ceil(8);
            let bytes: Vec<u8> = w[..words].iter().flat_map(|x| x.to_le_bytes()).collect();
            py.get_type::<PyInt>()
                .call_method1("from_bytes", (PyBytes::new(py, &bytes), "little"))
        }
    }
}

/// A Python int (or None, never equal) as a field value: scalars up to 64 bits, beats as words.
fn py_to_value(v: &Bound<'_, PyAny>, wide: bool, name: &str) -> PyResult<Option<FieldValue>> {
    if v.is_none() {
        return Ok(None);
    }
    if !wide {
        return match v.extract::<u64>() {
            Ok(x) => Ok(Some(FieldValue::Scalar(x))),
            Err(_) => Err(InputError::new_err(format!(
                "`{name}`: {} is not an integer 0..2^64",
                dcqcn_harness::clip(&v.repr()?.to_string())
            ))),
        };
    }
    Ok(Some(FieldValue::Wide(beat_words(v, name)?)))
}

/// A beat (a Python int of up to 512 bits) as 64-bit words.
fn beat_words(v: &Bound<'_, PyAny>, name: &str) -> PyResult<[u64; DATA_WORDS]> {
    let bytes = v
        .call_method1("to_bytes", (8 * DATA_WORDS, "little"))
        .map_err(|_| {
            InputError::new_err(format!(
                "`{name}`: {} is not an integer 0..2^512",
                v.repr()
                    .map(|r| dcqcn_harness::clip(&r.to_string()))
                    .unwrap_or_default()
            ))
        })?;
    let b: Vec<u8> = bytes.extract()?;
    let mut w = [0u64; DATA_WORDS];
    for (k, c) in b.chunks(8).enumerate() {
        w[k] = u64::from_le_bytes(c.try_into().expect("8 bytes"));
    }
    Ok(w)
}

/// The bit-exact DCQCN rate limiter, one clock cycle per `step`.
#[pyclass(module = "dcqcn_model._dcqcn_model", subclass)]
pub struct Model {
    m: RateLimiter,
    cfg: Config,
    cycle: u64,
    out: Outputs,
    history: VecDeque<(u64, Inputs, Outputs)>,
}

fn params(data_bytes: u32, clk_hz: u32, line_rate: u32) -> PyResult<Params> {
    Params::new(data_bytes, clk_hz, line_rate).map_err(|e| ParamError::new_err(e.to_string()))
}

impl Model {
    fn with_config(p: Params, cfg: Config) -> Model {
        let mut m = RateLimiter::new(p);
        m.set_config(cfg);
        Model {
            m,
            cfg,
            cycle: 0,
            out: Outputs::default(),
            history: VecDeque::with_capacity(HISTORY),
        }
    }

    fn p(&self) -> Params {
        *self.m.params()
    }

    fn inputs_from(
        &self,
        d: Option<&Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Inputs> {
        let mut i = Inputs::default();
        let db = self.p().data_bytes();
        let mut apply = |k: &Bound<'_, PyAny>, v: &Bound<'_, PyAny>| -> PyResult<()> {
            let name: String = k.extract()?;
            let idx = input_index(&name).map_err(input_err)?;
            if idx == TDATA {
                let w = beat_words(v, &name)?;
                check_tdata(&w, db, "").map_err(input_err)?;
                set_tdata(&mut i, &w);
            } else {
                let x: u128 = v.extract::<u64>().map(u128::from).map_err(|_| {
                    InputError::new_err(format!(
                        "`{name}`: {} is not an integer 0..2^64",
                        v.repr()
                            .map(|r| dcqcn_harness::clip(&r.to_string()))
                            .unwrap_or_default()
                    ))
                })?;
                check_input(idx, x, db, "").map_err(input_err)?;
                set_input(&mut i, idx, x as u64);
            }
            Ok(())
        };
        if let Some(d) = d {
            if !d.is_none() {
                let d = d.cast::<PyDict>().map_err(|_| {
                    InputError::new_err("inputs: expected a dict of port name to value")
                })?;
                for (k, v) in d.iter() {
                    apply(&k, &v)?;
                }
            }
        }
        if let Some(kw) = kw {
            for (k, v) in kw.iter() {
                apply(&k, &v)?;
            }
        }
        Ok(i)
    }

    fn step_inputs(&mut self, i: &Inputs) -> Outputs {
        let out = self.m.step(i);
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back((self.cycle, *i, out));
        self.cycle += 1;
        self.out = out;
        out
    }

    fn outputs_dict<'py>(&self, py: Python<'py>, out: &Outputs) -> PyResult<Bound<'py, PyDict>> {
        let snap = self.m.snapshot(out);
        let d = PyDict::new(py);
        let db = self.p().data_bytes();
        for (i, f) in FIELDS.iter().enumerate().filter(|(_, f)| f.block == "out") {
            d.set_item(f.name, value_to_py(py, &snap.value(i), db)?)?;
        }
        Ok(d)
    }

    fn address(&self, reg: &Bound<'_, PyAny>, writing: bool) -> PyResult<u16> {
        if let Ok(name) = reg.cast::<PyString>() {
            let name = name.to_cow()?;
            let name: &str = &name;
            let &(addr, _, writable) = register(name).map_err(input_err)?;
            if writing && !writable {
                return Err(input_err(BadInput::ReadOnly {
                    name: name.to_string(),
                    addr,
                }));
            }
            return Ok(addr);
        }
        let a: u64 = reg.extract().map_err(|_| {
            InputError::new_err("register: give a word name (e.g. \"rai\") or a byte address")
        })?;
        check_input(input_index("s_axil_awaddr").expect("port"), a.into(), 8, "")
            .map_err(input_err)?;
        Ok(a as u16)
    }

    fn idle(&self, idle: Option<&Bound<'_, PyDict>>) -> PyResult<Inputs> {
        self.inputs_from(idle.map(|d| d.as_any()), None)
    }

    fn bus(
        &mut self,
        idle: &Inputs,
        write: Option<(u16, u32, u8)>,
        read: Option<u16>,
        max_cycles: u64,
    ) -> PyResult<(u32, u8)> {
        let mut step = |i: &Inputs| self.step_inputs(i);
        axil_transaction(&mut step, idle, write, read, max_cycles).map_err(input_err)
    }
}

/// The model's last cycle as the DUT is compared with it: the comparison record (outputs of the
/// cycle, registers after its edge) and the spec-7 registers shown on ports, by name.
struct Observed {
    snap: dcqcn_model::Snapshot,
    ports: Vec<(&'static str, FieldValue)>,
}

impl Observed {
    fn of(model: &Model) -> Observed {
        let ports = state_fields(model.m.state())
            .into_iter()
            .filter(|(n, _)| PORT_REGISTERS.iter().any(|(r, _)| r == n))
            .collect();
        Observed {
            snap: model.m.snapshot(&model.out),
            ports,
        }
    }

    /// The value of `name`: a field of the comparison record or a spec-7 register.
    fn value(&self, name: &str) -> PyResult<FieldValue> {
        if let Some(i) = FIELDS.iter().position(|f| f.name == name) {
            return Ok(self.snap.value(i));
        }
        self.ports
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                InputError::new_err(format!(
                    "unknown field `{}` (known: {}, {})",
                    dcqcn_harness::clip(name),
                    FIELDS.iter().map(|f| f.name).collect::<Vec<_>>().join(", "),
                    PORT_REGISTERS
                        .iter()
                        .map(|f| f.0)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }
}

/// The field of the comparison record that shows `name` (spec-7 port registers by their port).
fn record_name(name: &str) -> &str {
    PORT_REGISTERS
        .iter()
        .find(|(r, _)| *r == name)
        .map_or(name, |(_, port)| port)
}

fn config_dict<'py>(py: Python<'py>, c: &Config) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let values: [u64; 26] = [
        c.alpha_g.into(),
        c.dec_gain.into(),
        c.stage_threshold.into(),
        c.clamp_tgt.into(),
        c.rai.into(),
        c.rhai.into(),
        c.rmin.into(),
        c.inc_interval.into(),
        c.dec_interval.into(),
        c.alpha_interval.into(),
        c.bypass.into(),
        c.timer_en.into(),
        c.byte_en.into(),
        c.byte_threshold.into(),
        c.credit_cap.into(),
        c.rmax.into(),
        c.rate_first_cnp.into(),
        c.alpha_init.into(),
        c.min_dec_fac.into(),
        c.hai_mult.into(),
        c.scheme.into(),
        c.gate_mask.into(),
        c.fw_rate.into(),
        c.trace_en.into(),
        c.trace_wrap.into(),
        c.trace_sel.into(),
    ];
    for ((name, _), v) in FIELD_WIDTHS.iter().zip(values) {
        d.set_item(*name, v)?;
    }
    Ok(d)
}

/// A numpy array of the smallest unsigned type (bool for one bit) holding `bits`.
fn column<'py>(py: Python<'py>, v: Vec<u64>, bits: u32) -> Bound<'py, PyAny> {
    match bits {
        1 => PyArray1::from_vec(py, v.into_iter().map(|x| x != 0).collect()).into_any(),
        2..=8 => PyArray1::from_vec(py, v.into_iter().map(|x| x as u8).collect()).into_any(),
        9..=16 => PyArray1::from_vec(py, v.into_iter().map(|x| x as u16).collect()).into_any(),
        17..=32 => PyArray1::from_vec(py, v.into_iter().map(|x| x as u32).collect()).into_any(),
        _ => PyArray1::from_vec(py, v).into_any(),
    }
}

/// One input's stimulus in a run: a constant, a column, or beats (n x words).
enum Stim<'a> {
    Const(u64),
    Column(&'a [u64]),
    Beats(&'a [u64], usize),
}

#[pymethods]
impl Model {
    #[new]
    #[pyo3(signature = (config=None, *, data_bytes=8, clk_hz=156_250_000, line_rate=1_250_000_000))]
    fn new(
        config: Option<&Bound<'_, PyAny>>,
        data_bytes: u32,
        clk_hz: u32,
        line_rate: u32,
    ) -> PyResult<Model> {
        let p = params(data_bytes, clk_hz, line_rate)?;
        let cfg = match config {
            None => Config::reset(&p),
            Some(c) if c.is_none() => Config::reset(&p),
            Some(c) => {
                if let Ok(name) = c.cast::<PyString>() {
                    named_config(&name.to_cow()?, &p).map_err(input_err)?
                } else {
                    let path: PathBuf = c.extract().map_err(|_| {
                        InputError::new_err(
                            "config: give a configuration name (str) or a TOML file (pathlib.Path)",
                        )
                    })?;
                    config_from_file(&path, &p)
                        .map_err(|e| ConfigFileError::new_err(e.to_string()))?
                }
            }
        };
        Ok(Model::with_config(p, cfg))
    }

    /// Back to the state after construction: every register at its reset value, the model's
    /// configuration programmed, cycle 0.
    fn reset(&mut self) {
        *self = Model::with_config(self.p(), self.cfg);
    }

    #[getter]
    fn data_bytes(&self) -> u32 {
        self.p().data_bytes()
    }
    #[getter]
    fn clk_hz(&self) -> u32 {
        self.p().clk_hz()
    }
    #[getter]
    fn line_rate(&self) -> u32 {
        self.p().line_rate()
    }
    /// Cycles stepped since construction or reset().
    #[getter]
    fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The configuration the model was built with (spec 6.2 fields, register units).
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        config_dict(py, &self.cfg)
    }

    #[pyo3(signature = (inputs=None, **kwargs))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        inputs: Option<&Bound<'py, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let i = self.inputs_from(inputs, kwargs)?;
        let out = self.step_inputs(&i);
        self.outputs_dict(py, &out)
    }

    /// The outputs of the last stepped cycle.
    #[getter]
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.outputs_dict(py, &self.out)
    }

    #[getter]
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let db = self.p().data_bytes();
        for (name, v) in state_fields(self.m.state()) {
            d.set_item(name, value_to_py(py, &v, db)?)?;
        }
        Ok(d)
    }

    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, (name, bits)) in EVENTS.iter().enumerate() {
            let v = event_value(&self.m, k);
            if *name == "inc_phase" {
                let phase = ["", "fast_recovery", "additive", "hyper"][v as usize];
                d.set_item(*name, if v == 0 { None } else { Some(phase) })?;
            } else if *bits == 1 {
                d.set_item(*name, v != 0)?;
            } else {
                d.set_item(*name, v)?;
            }
        }
        Ok(d)
    }

    /// The event trace window (spec 4.10), oldest first, as software reads it through
    /// 0x184-0x18C: one dict per entry with `kind` (type in bits 2:0, both triggers in bit 3),
    /// `event` (decoded), `rc` (bytes/s after the event) and `stamp` (armed cycles).
    #[getter]
    fn trace<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.m
            .trace()
            .entries()
            .iter()
            .map(|e| {
                let d = PyDict::new(py);
                d.set_item("kind", e.kind)?;
                d.set_item("event", e.decode().to_string())?;
                d.set_item("rc", e.rc)?;
                d.set_item("stamp", e.stamp)?;
                Ok(d)
            })
            .collect()
    }

    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let snap = self.m.snapshot(&self.out);
        let d = PyDict::new(py);
        let db = self.p().data_bytes();
        for (i, f) in FIELDS.iter().enumerate() {
            d.set_item(f.name, value_to_py(py, &snap.value(i), db)?)?;
        }
        Ok(d)
    }

    fn diff(&self, observed: &Bound<'_, PyDict>) -> PyResult<Vec<String>> {
        let mut out = Vec::new();
        let model = Observed::of(self);
        for (k, v) in observed.iter() {
            let name: String = k.extract()?;
            let ours = model.value(&name)?;
            let theirs = py_to_value(&v, matches!(ours, FieldValue::Wide(_)), &name)?;
            let mut differs = theirs != Some(ours);
            if let (Some(FieldValue::Wide(t)), FieldValue::Wide(o)) = (theirs, ours) {
                differs = t != o;
            }
            if differs {
                out.push(name);
            }
        }
        Ok(out)
    }

    #[pyo3(signature = (observed, *, scenario, seed=0, variant, replay, raw=None))]
    fn report(
        &self,
        observed: &Bound<'_, PyDict>,
        scenario: &str,
        seed: u64,
        variant: &str,
        replay: &str,
        raw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let p = self.p();
        let mut diffs = Vec::new();
        let model = Observed::of(self);
        for name in self.diff(observed)? {
            let field = record_name(&name);
            let ours = model.value(&name)?;
            let (model_hex, model) = show(field, &ours, &p).map_err(input_err)?;
            let v = observed.get_item(&name)?.expect("key of observed");
            let (rtl_hex, rtl) = match py_to_value(&v, matches!(ours, FieldValue::Wide(_)), &name)?
            {
                Some(t) => show(field, &t, &p).map_err(input_err)?,
                None => {
                    let shown = match raw.map(|r| r.get_item(&name)).transpose()?.flatten() {
                        Some(r) => r.str()?.to_string(),
                        None => "unresolved".into(),
                    };
                    (shown, "(X/Z)".into())
                }
            };
            diffs.push(Diff {
                field: name.clone(),
                block: crate::block_of(field).unwrap_or("out").to_string(),
                model_hex,
                rtl_hex,
                model,
                rtl,
            });
        }
        let history: Vec<(u64, String, String)> = self
            .history
            .iter()
            .map(|(c, i, o)| (*c, i.describe(), o.describe()))
            .collect();
        Ok(Report {
            cycle: self.cycle.saturating_sub(1),
            scenario,
            seed,
            variant,
            params: p,
            fields: &diffs,
            history: &history,
            config: self.m.state().regs.cfg,
            replay,
        }
        .text())
    }

    #[pyo3(signature = (register, data, strb=0xF, *, idle=None, max_cycles=16))]
    fn write(
        &mut self,
        register: &Bound<'_, PyAny>,
        data: u32,
        strb: u8,
        idle: Option<&Bound<'_, PyDict>>,
        max_cycles: u64,
    ) -> PyResult<u8> {
        let addr = self.address(register, true)?;
        check_input(
            input_index("s_axil_wstrb").expect("port"),
            strb.into(),
            8,
            "",
        )
        .map_err(input_err)?;
        let idle = self.idle(idle)?;
        Ok(self
            .bus(&idle, Some((addr, data, strb)), None, max_cycles)?
            .1)
    }

    #[pyo3(signature = (register, *, idle=None, max_cycles=16))]
    fn read(
        &mut self,
        register: &Bound<'_, PyAny>,
        idle: Option<&Bound<'_, PyDict>>,
        max_cycles: u64,
    ) -> PyResult<(u32, u8)> {
        let addr = self.address(register, false)?;
        let idle = self.idle(idle)?;
        self.bus(&idle, None, Some(addr), max_cycles)
    }

    fn config_writes(&self) -> Vec<(u16, u32)> {
        self.cfg.register_writes(&self.p())
    }

    fn show(&self, field: &str, value: &Bound<'_, PyAny>) -> PyResult<(String, String)> {
        let field = record_name(field);
        let wide = matches!(field, "m_axis_tdata");
        let v = py_to_value(value, wide, field)?
            .ok_or_else(|| InputError::new_err(format!("`{field}`: no value")))?;
        show(field, &v, &self.p()).map_err(input_err)
    }

    fn cycles(&self, time: &str) -> PyResult<u64> {
        units::cycles(time, self.p().clk_hz()).map_err(unit_err)
    }

    fn bpc(&self, rate_bytes_per_s: u32) -> u32 {
        self.p().bpc(rate_bytes_per_s)
    }

    /// The bulk run (the Python wrapper `Model.run` prepares the arrays).
    fn _run<'py>(
        &mut self,
        py: Python<'py>,
        n: usize,
        stimulus: &Bound<'py, PyDict>,
        record: Vec<String>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let db = self.p().data_bytes();
        let words = (db as usize).div_ceil(8);
        // Borrow every array, check lengths and widths before the first cycle.
        let mut cols: Vec<(usize, PyReadonlyArray1<'py, u64>)> = Vec::new();
        let mut beats: Option<PyReadonlyArray2<'py, u64>> = None;
        let mut consts: Vec<(usize, u64)> = Vec::new();
        for (k, v) in stimulus.iter() {
            let name: String = k.extract()?;
            let idx = input_index(&name).map_err(input_err)?;
            if let Ok(x) = v.extract::<u64>() {
                if idx == TDATA {
                    check_tdata(&[x], db, "").map_err(input_err)?;
                } else {
                    check_input(idx, x.into(), db, "").map_err(input_err)?;
                }
                consts.push((idx, x));
            } else if idx == TDATA {
                let a: PyReadonlyArray2<'py, u64> = v.extract().map_err(|_| {
                    InputError::new_err(format!("`{name}`: expected an (n, {words}) uint64 array"))
                })?;
                if a.shape() != [n, words] {
                    return Err(InputError::new_err(format!(
                        "`{name}`: shape {:?}, expected ({n}, {words})",
                        a.shape()
                    )));
                }
                let s = a
                    .as_slice()
                    .map_err(|_| InputError::new_err("`s_axis_tdata`: not contiguous"))?;
                for (c, row) in s.chunks(words).enumerate() {
                    check_tdata(row, db, &format!("[{c}]")).map_err(input_err)?;
                }
                beats = Some(a);
            } else {
                let a: PyReadonlyArray1<'py, u64> = v.extract().map_err(|_| {
                    InputError::new_err(format!("`{name}`: expected a 1-D uint64 array of {n}"))
                })?;
                if a.len() != n {
                    return Err(InputError::new_err(format!(
                        "`{name}`: {} values, expected {n}",
                        a.len()
                    )));
                }
                let s = a
                    .as_slice()
                    .map_err(|_| InputError::new_err(format!("`{name}`: not contiguous")))?;
                if let Some((c, &x)) = s
                    .iter()
                    .enumerate()
                    .find(|(_, &x)| check_input(idx, x.into(), db, "").is_err())
                {
                    check_input(idx, x.into(), db, &format!("[{c}]")).map_err(input_err)?;
                }
                cols.push((idx, a));
            }
        }
        let rec: Vec<(String, Recorded, u32)> = record
            .into_iter()
            .map(|name| {
                let r = recorded(&name).map_err(input_err)?;
                let bits = match r {
                    Recorded::Field(i) => width(FIELDS[i].width, FIELDS[i].name, db),
                    Recorded::Event(i) => EVENTS[i].1,
                };
                Ok((name, r, bits))
            })
            .collect::<PyResult<_>>()?;
        let mut stims: Vec<(usize, Stim<'_>)> =
            consts.iter().map(|&(i, x)| (i, Stim::Const(x))).collect();
        for (i, a) in &cols {
            stims.push((*i, Stim::Column(a.as_slice().expect("checked"))));
        }
        if let Some(b) = &beats {
            stims.push((TDATA, Stim::Beats(b.as_slice().expect("checked"), words)));
        }
        let needs_snapshot = rec.iter().any(|r| matches!(r.1, Recorded::Field(_)));
        let mut scalars: Vec<Vec<u64>> = rec.iter().map(|_| Vec::with_capacity(n)).collect();
        let mut data: Vec<Vec<u64>> = rec.iter().map(|_| Vec::new()).collect();
        let mut i = Inputs::default();
        for (idx, s) in &stims {
            if let Stim::Const(x) = s {
                if *idx == TDATA {
                    set_tdata(&mut i, &[*x]);
                } else {
                    set_input(&mut i, *idx, *x);
                }
            }
        }
        let stims: Vec<&(usize, Stim<'_>)> = stims
            .iter()
            .filter(|s| !matches!(s.1, Stim::Const(_)))
            .collect();
        let model = &mut self.m;
        for c in 0..n {
            for (idx, s) in &stims {
                match s {
                    Stim::Column(a) => set_input(&mut i, *idx, a[c]),
                    Stim::Beats(a, w) => set_tdata(&mut i, &a[c * w..(c + 1) * w]),
                    Stim::Const(_) => {}
                }
            }
            let out = model.step(&i);
            if c + 1 == n {
                self.out = out;
            }
            if rec.is_empty() {
                continue;
            }
            let snap = needs_snapshot.then(|| model.snapshot(&out));
            for (k, (_, r, _)) in rec.iter().enumerate() {
                match r {
                    Recorded::Field(f) => match snap.as_ref().expect("snapshot").value(*f) {
                        FieldValue::Scalar(x) => scalars[k].push(x),
                        FieldValue::Wide(w) => data[k].extend_from_slice(&w[..words]),
                    },
                    Recorded::Event(e) => scalars[k].push(event_value(model, *e)),
                }
            }
        }
        self.cycle += n as u64;
        self.history.clear();
        let d = PyDict::new(py);
        for (k, (name, _, bits)) in rec.into_iter().enumerate() {
            if !data[k].is_empty() || (bits > 64) {
                let a = PyArray1::from_vec(py, std::mem::take(&mut data[k]));
                d.set_item(name, a.reshape([n, words])?)?;
            } else {
                d.set_item(name, column(py, std::mem::take(&mut scalars[k]), bits))?;
            }
        }
        Ok(d)
    }
}

#[pyfunction]
fn rate(text: &str) -> PyResult<u64> {
    units::rate_bytes_per_s(text).map_err(unit_err)
}

#[pyfunction]
fn size(text: &str) -> PyResult<u64> {
    units::bytes(text).map_err(unit_err)
}

#[pyfunction]
#[pyo3(signature = (text, clk_hz=156_250_000))]
fn cycles(text: &str, clk_hz: u32) -> PyResult<u64> {
    units::cycles(text, clk_hz).map_err(unit_err)
}

#[pyfunction]
fn alpha_g(gain: &str) -> PyResult<u16> {
    units::alpha_g_from_gain(gain).map_err(unit_err)
}

#[pyfunction]
fn port_width(name: &str, data_bytes: u32) -> PyResult<u32> {
    if let Ok(i) = input_index(name) {
        return Ok(width(INPUTS[i].1, name, data_bytes));
    }
    let name = record_name(name);
    crate::recordable()
        .find(|f| f.0 == name)
        .map(|(n, w)| width(w, n, data_bytes))
        .ok_or_else(|| input_err(recorded(name).expect_err("not recordable")))
}

#[pymodule]
fn _dcqcn_model(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Model>()?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(size, m)?)?;
    m.add_function(wrap_pyfunction!(cycles, m)?)?;
    m.add_function(wrap_pyfunction!(alpha_g, m)?)?;
    m.add_function(wrap_pyfunction!(port_width, m)?)?;
    m.add("DcqcnError", py.get_type::<DcqcnError>())?;
    m.add("ConfigFileError", py.get_type::<ConfigFileError>())?;
    m.add("UnitError", py.get_type::<UnitError>())?;
    m.add("ParamError", py.get_type::<ParamError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("INPUTS", INPUTS.iter().map(|p| p.0).collect::<Vec<_>>())?;
    m.add(
        "OUTPUTS",
        FIELDS
            .iter()
            .filter(|f| f.block == "out")
            .map(|f| f.name)
            .collect::<Vec<_>>(),
    )?;
    m.add(
        "REGISTERS",
        state_fields(RateLimiter::new(Params::DEFAULT).state())
            .into_iter()
            .map(|f| f.0)
            .collect::<Vec<_>>(),
    )?;
    m.add("FIELDS", FIELDS.iter().map(|f| f.name).collect::<Vec<_>>())?;
    m.add("EVENTS", EVENTS.iter().map(|e| e.0).collect::<Vec<_>>())?;
    m.add(
        "NAMED_CONFIGS",
        NamedConfig::ALL
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>(),
    )?;
    m.add(
        "REGISTER_MAP",
        PyList::new(py, dcqcn_model::regmap::MAP.iter().copied())?,
    )?;
    m.add("HISTORY_CYCLES", HISTORY)?;
    Ok(())
}
