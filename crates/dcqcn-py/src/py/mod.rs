//! The PyO3 layer: `dcqcn_model._dcqcn_model`. The Python package (`python/dcqcn_model`) re-exports
//! it with typed stubs; see `_dcqcn_model.pyi` for the documented API and docs/inputs.md for the
//! limits every argument is checked against.

use crate::{
    axil_transaction, check_input, config_from_file, event_value, fit_bits, fit_range, input_index,
    max_of, named_config, recorded, register, set_input, set_tdata, show, state_fields,
    value_bytes, width, word_max, Diff, InputError as BadInput, Int, Recorded, Report, EVENTS,
    INPUTS, MAX_BUS_CYCLES, MAX_RECORD_NAMES, PORT_REGISTERS, SIGNAL_CHECK_CYCLES, TDATA,
};
use dcqcn_harness::units;
use dcqcn_model::config::FIELD_WIDTHS;
use dcqcn_model::snapshot::{FieldValue, FIELDS};
use dcqcn_model::{
    Config, Features, Inputs, NamedConfig, Outputs, Params, RateLimiter, DATA_WORDS,
};
use numpy::ndarray::{Axis, Slice};
use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyString};
use std::collections::VecDeque;
use std::path::PathBuf;

mod args;
mod run;
mod surf;
use args::*;
use run::*;

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
fn param_err(e: dcqcn_model::ParamError) -> PyErr {
    ParamError::new_err(e.to_string())
}

/// `features`: "full" (default) or "base" (spec 2).
fn features_arg(v: Option<&Bound<'_, PyAny>>) -> Result<Features, dcqcn_model::ParamError> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(Features::FULL);
    };
    match v.extract::<String>().as_deref() {
        Ok("full") => Ok(Features::FULL),
        Ok("base") => Ok(Features::BASE),
        _ => Err(dcqcn_model::ParamError::Features(format!(
            "`features`: expected \"full\" or \"base\", got {}",
            v.repr().map_or_else(|_| "?".into(), |r| r.to_string())
        ))),
    }
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

    /// Room in the cycle count for `n` more cycles (checked before they are stepped).
    fn room(&self, n: u64) -> PyResult<()> {
        match self.cycle.checked_add(n) {
            Some(_) => Ok(()),
            None => Err(input_err(BadInput::CycleCount {
                cycle: self.cycle,
                n,
            })),
        }
    }

    fn inputs_from(
        &self,
        d: Option<&Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
        arg: &str,
    ) -> PyResult<Inputs> {
        let mut i = Inputs::default();
        let db = self.p().data_bytes();
        let mut apply = |k: &Bound<'_, PyAny>, v: &Bound<'_, PyAny>| -> PyResult<()> {
            let name = text_of(k, arg, "input port names")?;
            let idx = input_index(&name).map_err(input_err)?;
            if idx == TDATA {
                set_tdata(&mut i, &beat_words(v, &name, 8 * db)?);
            } else {
                set_input(&mut i, idx, port_value(v, idx, db, "")?);
            }
            Ok(())
        };
        if let Some(d) = d.filter(|d| !d.is_none()) {
            let d = dict_of(d, arg, "input port name to value")?;
            for (k, v) in d.iter() {
                apply(&k, &v)?;
            }
        }
        if let Some(kw) = kw {
            for (k, v) in kw.iter() {
                apply(&k, &v)?;
            }
        }
        Ok(i)
    }

    /// One cycle; the caller has checked [`Model::room`].
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
            let name = name.to_string_lossy();
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
        let bits = INPUTS[input_index("s_axil_awaddr").expect("port")].1;
        let a = int_of(reg, "register", || {
            format!(
                "(a byte address 0..={}) or a word name",
                max_of(bits, false)
            )
        })?;
        Ok(fit_bits("register", a, bits).map_err(input_err)? as u16)
    }

    fn bus_cycles(&self, max_cycles: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        let Some(v) = max_cycles else {
            return Ok(DEFAULT_BUS_CYCLES);
        };
        let x = int_of(v, "max_cycles", || format!("0..={MAX_BUS_CYCLES}"))?;
        let n = fit_range("max_cycles", x, 0, MAX_BUS_CYCLES).map_err(input_err)?;
        self.room(n)?;
        Ok(n)
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

impl Model {
    /// The fields of `observed` (a DUT's values by name) that differ from the model's last
    /// cycle: (name, the model's value, the observed one; None for X/Z, which always differs).
    fn differing(
        &self,
        observed: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<(String, FieldValue, Option<FieldValue>)>> {
        let observed = dict_of(observed, "observed", "field name to value")?;
        let model = Observed::of(self);
        let mut out = Vec::new();
        for (k, v) in observed.iter() {
            let name = text_of(&k, "observed", "field names")?;
            let ours = model.value(&name)?;
            let theirs = py_to_value(&v, matches!(ours, FieldValue::Wide(_)), &name)?;
            if theirs != Some(ours) {
                out.push((name, ours, theirs));
            }
        }
        Ok(out)
    }
}

/// `max_cycles` of `write` and `read` when not given.
const DEFAULT_BUS_CYCLES: u64 = 16;

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
    let values = c.values();
    for ((name, _), v) in FIELD_WIDTHS.iter().zip(values) {
        d.set_item(*name, v)?;
    }
    Ok(d)
}

#[pymethods]
impl Model {
    #[new]
    #[pyo3(signature = (config=None, *, data_bytes=None, clk_hz=None, line_rate=None, features=None))]
    fn new(
        config: Option<&Bound<'_, PyAny>>,
        data_bytes: Option<&Bound<'_, PyAny>>,
        clk_hz: Option<&Bound<'_, PyAny>>,
        line_rate: Option<&Bound<'_, PyAny>>,
        features: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Model> {
        let d = Params::DEFAULT;
        let p = Params::new(
            param_arg(data_bytes, "data_bytes", d.data_bytes())?,
            param_arg(clk_hz, "clk_hz", d.clk_hz())?,
            param_arg(line_rate, "line_rate", d.line_rate())?,
        )
        .and_then(|p| p.with_features(features_arg(features)?))
        .map_err(param_err)?;
        let cfg = match config {
            None => Config::reset(&p),
            Some(c) if c.is_none() => Config::reset(&p),
            Some(c) => {
                if let Ok(name) = c.cast::<PyString>() {
                    named_config(&name.to_string_lossy(), &p).map_err(input_err)?
                } else {
                    let path: PathBuf = c.extract().map_err(|_| {
                        PyTypeError::new_err(format!(
                            "`config`: expected a configuration name (str) or a TOML file \
                             (pathlib.Path), got {}",
                            type_name(c)
                        ))
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
    /// The feature configuration (spec 2): "full", "base".
    #[getter]
    fn features(&self) -> String {
        self.p().features().name()
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
        let i = self.inputs_from(inputs, kwargs, "inputs")?;
        self.room(1)?;
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

    fn diff(&self, observed: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        Ok(self.differing(observed)?.into_iter().map(|d| d.0).collect())
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
        let scenario = &text_of(scenario, "scenario", "a scenario name")?;
        let seed = seed.map_or(Ok(0), |s| uint_arg(s, "seed", 64))?;
        let variant = &text_of(variant, "variant", "a variant name")?;
        let replay = &text_of(replay, "replay", "a command")?;
        let p = self.p();
        let mut diffs = Vec::new();
        for (name, ours, theirs) in self.differing(observed)? {
            let field = record_name(&name);
            let (model_hex, model) = show(field, &ours, &p).map_err(input_err)?;
            let (rtl_hex, rtl) = match theirs {
                Some(t) => show(field, &t, &p).map_err(input_err)?,
                None => {
                    let shown = match raw.map(|r| r.get_item(&name)).transpose()?.flatten() {
                        Some(r) => dcqcn_harness::clip(&r.str()?.to_string_lossy()),
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

    #[pyo3(signature = (register, data, strb=None, *, idle=None, max_cycles=None))]
    fn write(
        &mut self,
        register: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        strb: Option<&Bound<'_, PyAny>>,
        idle: Option<&Bound<'_, PyAny>>,
        max_cycles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u8> {
        let addr = self.address(register, true)?;
        let data = uint_arg(data, "data", 32)? as u32;
        let strb = strb.map_or(Ok(0xF), |s| uint_arg(s, "strb", 4))? as u8;
        let idle = self.inputs_from(idle, None, "idle")?;
        let max_cycles = self.bus_cycles(max_cycles)?;
        Ok(self
            .bus(&idle, Some((addr, data, strb)), None, max_cycles)?
            .1)
    }

    #[pyo3(signature = (register, *, idle=None, max_cycles=None))]
    fn read(
        &mut self,
        register: &Bound<'_, PyAny>,
        idle: Option<&Bound<'_, PyAny>>,
        max_cycles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u32, u8)> {
        let addr = self.address(register, false)?;
        let idle = self.inputs_from(idle, None, "idle")?;
        let max_cycles = self.bus_cycles(max_cycles)?;
        self.bus(&idle, None, Some(addr), max_cycles)
    }

    fn config_writes(&self) -> Vec<(u16, u32)> {
        self.cfg.register_writes(&self.p())
    }

    fn show(
        &self,
        field: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<(String, String)> {
        let field = &text_of(field, "field", "a field name")?;
        let field = record_name(field);
        let wide = matches!(field, "m_axis_tdata");
        let v = py_to_value(value, wide, field)?
            .ok_or_else(|| InputError::new_err(format!("`{field}`: no value")))?;
        show(field, &v, &self.p()).map_err(input_err)
    }

    fn cycles(&self, time: &Bound<'_, PyAny>) -> PyResult<u64> {
        let time = text_of(time, "time", "a time, e.g. \"2ms\"")?;
        units::cycles(&time, self.p().clk_hz()).map_err(unit_err)
    }

    fn bpc(&self, rate_bytes_per_s: &Bound<'_, PyAny>) -> PyResult<u32> {
        let rate = uint_arg(rate_bytes_per_s, "rate_bytes_per_s", 32)? as u32;
        Ok(self.p().bpc(rate))
    }

    /// The bulk run behind `Model.run` (python/dcqcn_model/__init__.py documents it). Every
    /// argument is checked, and the record's size against MAX_RECORD_BYTES, before the first
    /// cycle; signals are checked every SIGNAL_CHECK_CYCLES cycles.
    #[pyo3(signature = (n, stimulus=None, record=None))]
    fn _run<'py>(
        &mut self,
        py: Python<'py>,
        n: &Bound<'py, PyAny>,
        stimulus: Option<&Bound<'py, PyAny>>,
        record: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let n = {
            let x = int_of(n, "n", || format!("(cycles) 0..={}", u64::MAX))?;
            fit_bits("n", x, 64).map_err(input_err)?
        };
        self.room(n)?;
        let db = self.p().data_bytes();
        let words = (db as usize).div_ceil(8);
        let rec = self.record_list(record, n, words)?;
        let stims = stimuli(stimulus, n, db, words)?;
        // Every check passed: reserve the record (at most MAX_RECORD_BYTES in all).
        let rows = usize::try_from(n).ok();
        let mut bufs: Vec<Rec> = Vec::with_capacity(rec.len());
        for (name, _, bits, wide) in &rec {
            let mut b = Rec::new(*bits, *wide);
            let reserved = rows.is_some_and(|rows| b.reserve(rows, words).is_ok());
            if !reserved && n > 0 {
                return Err(PyMemoryError::new_err(format!(
                    "`record`: cannot reserve {n} values of `{name}`"
                )));
            }
            bufs.push(b);
        }
        let mut i = Inputs::default();
        for (idx, s) in &stims {
            match s {
                Stim::Const(x) => set_input(&mut i, *idx, *x),
                Stim::Beat(w) => set_tdata(&mut i, w),
                Stim::Column(..) => {}
            }
        }
        let cols: Vec<(usize, &Column<'_>, &[usize], usize)> = stims
            .iter()
            .filter_map(|(idx, s)| match s {
                Stim::Column(c, shape) => {
                    Some((*idx, c, &shape[..], shape.get(1).map_or(1, |w| *w)))
                }
                _ => None,
            })
            .collect();
        let chunk = n.min(SIGNAL_CHECK_CYCLES) as usize;
        let mut chunks: Vec<Vec<u64>> = cols.iter().map(|c| vec![0; chunk * c.3]).collect();
        let ports: Vec<(usize, usize)> = cols.iter().map(|c| (c.0, c.3)).collect();
        let fields: Vec<Recorded> = rec.iter().map(|r| r.1).collect();
        let model = &mut self.m;
        let mut last = self.out;
        let mut done: u64 = 0;
        let mut interrupted = Ok(());
        while done < n {
            let len = (n - done).min(SIGNAL_CHECK_CYCLES) as usize;
            if !cols.is_empty() {
                // a column holds n values, so n (and `done`) fit usize
                let start = done as usize;
                for ((idx, col, shape, w), buf) in cols.iter().zip(chunks.iter_mut()) {
                    if !col.fill(shape, start, len, &mut buf[..len * w]) {
                        interrupted = Err(InputError::new_err(format!(
                            "`{}`: the array changed shape during the run",
                            INPUTS[*idx].0
                        )));
                        break;
                    }
                }
                if interrupted.is_err() {
                    break;
                }
            }
            // the chunk steps without the GIL: other Python threads (and a signal's sender) run
            let chunk = Chunk {
                ports: &ports,
                values: &chunks,
                fields: &fields,
                words,
            };
            let (m, inputs, recs) = (&mut *model, &mut i, &mut bufs);
            last = py
                .detach(move || chunk.step(m, inputs, recs, len))
                .unwrap_or(last);
            done += len as u64;
            if done < n {
                if let Err(e) = py.check_signals() {
                    interrupted = Err(e);
                    break;
                }
            }
        }
        // The cycles stepped count, interrupted or not (room() checked the sum).
        self.cycle += done;
        self.out = last;
        self.history.clear();
        interrupted?;
        let d = PyDict::new(py);
        let rows = rows.unwrap_or(0);
        for ((name, _, _, _), b) in rec.into_iter().zip(bufs) {
            d.set_item(name, b.into_py(py, rows, words)?)?;
        }
        Ok(d)
    }
}

#[pyfunction]
fn rate(text: &Bound<'_, PyAny>) -> PyResult<u64> {
    let text = text_of(text, "text", "a rate, e.g. \"10Gbps\"")?;
    units::rate_bytes_per_s(&text).map_err(unit_err)
}

#[pyfunction]
fn size(text: &Bound<'_, PyAny>) -> PyResult<u64> {
    let text = text_of(text, "text", "a size, e.g. \"1MiB\"")?;
    units::bytes(&text).map_err(unit_err)
}

/// The clock of `cycles()`: checked as `Model(clk_hz=...)` checks it (same ParamError).
#[pyfunction]
#[pyo3(signature = (text, clk_hz=None))]
fn cycles(text: &Bound<'_, PyAny>, clk_hz: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let d = Params::DEFAULT;
    let clk_hz = param_arg(clk_hz, "clk_hz", d.clk_hz())?;
    let p = Params::new(d.data_bytes(), clk_hz, d.line_rate()).map_err(param_err)?;
    let text = text_of(text, "text", "a time, e.g. \"2ms\"")?;
    units::cycles(&text, p.clk_hz()).map_err(unit_err)
}

#[pyfunction]
fn alpha_g(gain: &Bound<'_, PyAny>) -> PyResult<u16> {
    let gain = text_of(gain, "gain", "a gain, e.g. \"1/256\"")?;
    units::alpha_g_from_gain(&gain).map_err(unit_err)
}

#[pyfunction]
fn port_width(name: &Bound<'_, PyAny>, data_bytes: &Bound<'_, PyAny>) -> PyResult<u32> {
    let name = &text_of(name, "name", "a port, field or event name")?;
    let data_bytes = param_arg(Some(data_bytes), "data_bytes", 0)?;
    let data_bytes = Params::with_data_bytes(data_bytes)
        .map_err(param_err)?
        .data_bytes();
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
    surf::add(m)?;
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
    m.add("MAX_RECORD_BYTES", crate::MAX_RECORD_BYTES)?;
    m.add("MAX_BUS_CYCLES", MAX_BUS_CYCLES)?;
    m.add("SIGNAL_CHECK_CYCLES", SIGNAL_CHECK_CYCLES)?;
    Ok(())
}
