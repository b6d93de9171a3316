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
use dcqcn_model::{Config, Inputs, NamedConfig, Outputs, Params, RateLimiter, DATA_WORDS};
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

// Arguments. A value of the wrong type raises TypeError, an integer outside its range the
// argument's DcqcnError (InputError, or ParamError for data_bytes / clk_hz / line_rate); both
// messages name the argument and its range. Nothing is converted with wrapping or saturation,
// and no Python value is shown whole (an int by its size past 128 bits, other values by type).

/// The Python type of `v`, as a TypeError names it.
fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an object".into())
}

/// `v` as an integer (an int, a numpy integer, a bool: anything with `__index__`), not yet
/// range-checked; a TypeError naming `name` and its `range` for anything else.
fn int_of(v: &Bound<'_, PyAny>, name: &str, range: impl FnOnce() -> String) -> PyResult<Int> {
    if let Ok(x) = v.extract::<u64>() {
        return Ok(Int::from(x));
    }
    let index = index_of(v).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(v.py()) {
            PyTypeError::new_err(format!(
                "`{name}`: expected an integer {}, got {}",
                range(),
                type_name(v)
            ))
        } else {
            e
        }
    })?;
    if let Ok(x) = index.extract::<i128>() {
        return Ok(Int::Small(x));
    }
    let bits: u64 = index.call_method0("bit_length")?.extract()?;
    Ok(Int::Huge {
        negative: index.lt(0)?,
        bits,
    })
}

/// `operator.index(v)`: the Python int of anything integer-like.
fn index_of<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    v.py().import("operator")?.getattr("index")?.call1((v,))
}

/// An unsigned integer argument of `bits` bits (at most 64); InputError out of range.
fn uint_arg(v: &Bound<'_, PyAny>, name: &str, bits: u32) -> PyResult<u64> {
    let x = int_of(v, name, || format!("0..={}", max_of(bits, false)))?;
    fit_bits(name, x, bits).map_err(input_err)
}

/// An elaboration parameter (data_bytes, clk_hz, line_rate): 32 bits, ParamError out of range;
/// `None` is the default.
fn param_arg(v: Option<&Bound<'_, PyAny>>, name: &str, default: u32) -> PyResult<u32> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(default);
    };
    let x = int_of(v, name, || format!("0..={}", u32::MAX))?;
    fit_bits(name, x, 32)
        .map(|x| x as u32)
        .map_err(|e| ParamError::new_err(e.to_string()))
}

/// A dict argument (`what`: of what to what).
fn dict_of<'a, 'py>(
    v: &'a Bound<'py, PyAny>,
    name: &str,
    what: &str,
) -> PyResult<&'a Bound<'py, PyDict>> {
    v.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "`{name}`: expected a dict of {what}, got {}",
            type_name(v)
        ))
    })
}

/// A text argument (a name, a value in human units); lone surrogates become U+FFFD, so a
/// message can always quote it.
fn text_of(v: &Bound<'_, PyAny>, name: &str, what: &str) -> PyResult<String> {
    v.cast::<PyString>()
        .map(|s| s.to_string_lossy().into_owned())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "`{name}`: expected {what} (str), got {}",
                type_name(v)
            ))
        })
}

/// The value of input port `idx` (not `s_axis_tdata`) for `data_bytes`-byte beats.
fn port_value(v: &Bound<'_, PyAny>, idx: usize, data_bytes: u32, at: &str) -> PyResult<u64> {
    if let Ok(x) = v.extract::<u64>() {
        return check_input(idx, Int::from(x), data_bytes, at).map_err(input_err);
    }
    let (name, w) = INPUTS[idx];
    let x = int_of(v, name, || {
        format!("0..={}", max_of(width(w, name, data_bytes), true))
    })?;
    check_input(idx, x, data_bytes, at).map_err(input_err)
}

/// A beat given as one Python int of at most `bits` bits (at most 64 x DATA_WORDS) as 64-bit
/// words, least significant first.
fn beat_words(v: &Bound<'_, PyAny>, name: &str, bits: u32) -> PyResult<[u64; DATA_WORDS]> {
    let mut w = [0u64; DATA_WORDS];
    let x = match v.extract::<u64>() {
        Ok(x) => {
            w[0] = x;
            Int::from(x)
        }
        Err(_) => {
            let x = int_of(v, name, || format!("0..={}", max_of(bits, true)))?;
            let fits = match x {
                Int::Small(s) => s >= 0,
                Int::Huge { negative, bits: b } => !negative && b <= 64 * DATA_WORDS as u64,
            };
            if !fits {
                return Err(too_wide(name, x, bits));
            }
            let bytes = index_of(v)?.call_method1("to_bytes", (8 * DATA_WORDS, "little"))?;
            let b: Vec<u8> = bytes.extract()?;
            for (k, c) in b.chunks_exact(8).enumerate() {
                let mut word = [0u8; 8];
                word.copy_from_slice(c);
                w[k] = u64::from_le_bytes(word);
            }
            x
        }
    };
    let data_bytes = bits / 8;
    if w.iter()
        .enumerate()
        .any(|(k, &word)| word > word_max(k, data_bytes))
    {
        return Err(too_wide(name, x, bits));
    }
    Ok(w)
}

fn too_wide(name: &str, value: Int, bits: u32) -> PyErr {
    input_err(BadInput::TooWide {
        name: name.to_string(),
        at: String::new(),
        value,
        bits,
    })
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

/// A Python int (or None, never equal) as a field value: scalars up to 64 bits, beats (`wide`)
/// up to 64 x DATA_WORDS bits as words.
fn py_to_value(v: &Bound<'_, PyAny>, wide: bool, name: &str) -> PyResult<Option<FieldValue>> {
    if v.is_none() {
        return Ok(None);
    }
    if wide {
        let w = beat_words(v, name, 64 * DATA_WORDS as u32)?;
        return Ok(Some(FieldValue::Wide(w)));
    }
    Ok(Some(FieldValue::Scalar(uint_arg(v, name, 64)?)))
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

/// An element of a stimulus array: bool or a fixed-width integer, read as it is.
trait Lane: Copy {
    fn int(self) -> i128;
}
macro_rules! lanes {
    ($($t:ty),*) => { $(impl Lane for $t { fn int(self) -> i128 { i128::from(self) } })* };
}
lanes!(bool, u8, u16, u32, u64, i8, i16, i32, i64);

/// One stimulus array of any bool or integer dtype, read in place (never widened to a copy):
/// one value per cycle, or for `s_axis_tdata` one row of words per cycle.
enum Column<'py> {
    Bool(PyReadonlyArrayDyn<'py, bool>),
    U8(PyReadonlyArrayDyn<'py, u8>),
    U16(PyReadonlyArrayDyn<'py, u16>),
    U32(PyReadonlyArrayDyn<'py, u32>),
    U64(PyReadonlyArrayDyn<'py, u64>),
    I8(PyReadonlyArrayDyn<'py, i8>),
    I16(PyReadonlyArrayDyn<'py, i16>),
    I32(PyReadonlyArrayDyn<'py, i32>),
    I64(PyReadonlyArrayDyn<'py, i64>),
}

/// `$body` with `$v` the column's ndarray view, whatever its element type.
macro_rules! with_view {
    ($col:expr, |$v:ident| $body:expr) => {
        match $col {
            Column::Bool(a) => {
                let $v = a.as_array();
                $body
            }
            Column::U8(a) => {
                let $v = a.as_array();
                $body
            }
            Column::U16(a) => {
                let $v = a.as_array();
                $body
            }
            Column::U32(a) => {
                let $v = a.as_array();
                $body
            }
            Column::U64(a) => {
                let $v = a.as_array();
                $body
            }
            Column::I8(a) => {
                let $v = a.as_array();
                $body
            }
            Column::I16(a) => {
                let $v = a.as_array();
                $body
            }
            Column::I32(a) => {
                let $v = a.as_array();
                $body
            }
            Column::I64(a) => {
                let $v = a.as_array();
                $body
            }
        }
    };
}

impl<'py> Column<'py> {
    /// The array `a` (an ndarray) as a column, `None` for a dtype other than bool and integers.
    fn of(a: &Bound<'py, PyAny>) -> Option<Column<'py>> {
        let arr = a.cast::<PyUntypedArray>().ok()?;
        let dt = arr.dtype();
        Some(match (dt.kind(), dt.itemsize()) {
            (b'b', 1) => Column::Bool(a.extract().ok()?),
            (b'u', 1) => Column::U8(a.extract().ok()?),
            (b'u', 2) => Column::U16(a.extract().ok()?),
            (b'u', 4) => Column::U32(a.extract().ok()?),
            (b'u', 8) => Column::U64(a.extract().ok()?),
            (b'i', 1) => Column::I8(a.extract().ok()?),
            (b'i', 2) => Column::I16(a.extract().ok()?),
            (b'i', 4) => Column::I32(a.extract().ok()?),
            (b'i', 8) => Column::I64(a.extract().ok()?),
            _ => return None,
        })
    }

    /// The first element (index in row-major order, value) above `max(index)` or negative.
    fn first_bad(&self, max: impl Fn(usize) -> u64) -> Option<(usize, i128)> {
        with_view!(self, |v| v
            .iter()
            .map(|x| x.int())
            .enumerate()
            .find(|&(k, x)| x < 0 || x > i128::from(max(k))))
    }

    /// Rows `start..start + rows` into `out`, row-major (values checked by `first_bad`); false
    /// if the array no longer has the `shape` it was checked with (resized in place by another
    /// thread between two chunks).
    fn fill(&self, shape: &[usize], start: usize, rows: usize, out: &mut [u64]) -> bool {
        with_view!(self, |v| {
            if v.shape() != shape {
                return false;
            }
            let part = v.slice_axis(Axis(0), Slice::from(start..start + rows));
            for (o, x) in out.iter_mut().zip(part.iter()) {
                *o = x.int() as u64;
            }
            true
        })
    }
}

/// What a run records for one field, in the numpy type it returns: the smallest unsigned type
/// of the field's width (bool for one bit), a beat as its 64-bit words.
enum Rec {
    Bool(Vec<bool>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    Wide(Vec<u64>),
}

impl Rec {
    fn new(bits: u32, wide: bool) -> Rec {
        match (wide, bits) {
            (true, _) => Rec::Wide(Vec::new()),
            (false, 1) => Rec::Bool(Vec::new()),
            (false, 0..=8) => Rec::U8(Vec::new()),
            (false, 9..=16) => Rec::U16(Vec::new()),
            (false, 17..=32) => Rec::U32(Vec::new()),
            (false, _) => Rec::U64(Vec::new()),
        }
    }

    /// Room for `n` values (the size was checked against MAX_RECORD_BYTES before).
    fn reserve(&mut self, n: usize, words: usize) -> Result<(), std::collections::TryReserveError> {
        match self {
            Rec::Bool(v) => v.try_reserve_exact(n),
            Rec::U8(v) => v.try_reserve_exact(n),
            Rec::U16(v) => v.try_reserve_exact(n),
            Rec::U32(v) => v.try_reserve_exact(n),
            Rec::U64(v) => v.try_reserve_exact(n),
            Rec::Wide(v) => v.try_reserve_exact(n.saturating_mul(words)),
        }
    }

    /// Appends one value, which fits the field's width.
    fn push(&mut self, x: &FieldValue, words: usize) {
        let scalar = match x {
            FieldValue::Scalar(x) => *x,
            FieldValue::Wide(w) => {
                if let Rec::Wide(v) = self {
                    v.extend_from_slice(&w[..words]);
                }
                return;
            }
        };
        match self {
            Rec::Bool(v) => v.push(scalar != 0),
            Rec::U8(v) => v.push(scalar as u8),
            Rec::U16(v) => v.push(scalar as u16),
            Rec::U32(v) => v.push(scalar as u32),
            Rec::U64(v) => v.push(scalar),
            Rec::Wide(v) => v.push(scalar),
        }
    }

    fn into_py<'py>(self, py: Python<'py>, n: usize, words: usize) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Rec::Bool(v) => PyArray1::from_vec(py, v).into_any(),
            Rec::U8(v) => PyArray1::from_vec(py, v).into_any(),
            Rec::U16(v) => PyArray1::from_vec(py, v).into_any(),
            Rec::U32(v) => PyArray1::from_vec(py, v).into_any(),
            Rec::U64(v) => PyArray1::from_vec(py, v).into_any(),
            Rec::Wide(v) => PyArray1::from_vec(py, v).reshape([n, words])?.into_any(),
        })
    }
}

/// One input's stimulus in a run: a value held every cycle, or a column.
enum Stim<'py> {
    Const(u64),
    Beat([u64; DATA_WORDS]),
    /// The column and the shape it was checked with.
    Column(Column<'py>, Vec<usize>),
}

#[pymethods]
impl Model {
    #[new]
    #[pyo3(signature = (config=None, *, data_bytes=None, clk_hz=None, line_rate=None))]
    fn new(
        config: Option<&Bound<'_, PyAny>>,
        data_bytes: Option<&Bound<'_, PyAny>>,
        clk_hz: Option<&Bound<'_, PyAny>>,
        line_rate: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Model> {
        let d = Params::DEFAULT;
        let p = Params::new(
            param_arg(data_bytes, "data_bytes", d.data_bytes())?,
            param_arg(clk_hz, "clk_hz", d.clk_hz())?,
            param_arg(line_rate, "line_rate", d.line_rate())?,
        )
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

/// One chunk of a run's cycles: the columns' values for it (`ports`: input index and words per
/// cycle, `values` row-major) and the fields to record.
struct Chunk<'a> {
    ports: &'a [(usize, usize)],
    values: &'a [Vec<u64>],
    fields: &'a [Recorded],
    words: usize,
}

impl Chunk<'_> {
    /// Steps `len` cycles, recording into `recs`; the outputs of the last (None for none).
    fn step(
        &self,
        model: &mut RateLimiter,
        i: &mut Inputs,
        recs: &mut [Rec],
        len: usize,
    ) -> Option<Outputs> {
        let mut last = None;
        for c in 0..len {
            for (&(idx, w), buf) in self.ports.iter().zip(self.values) {
                if idx == TDATA {
                    set_tdata(i, &buf[c * w..(c + 1) * w]);
                } else {
                    set_input(i, idx, buf[c]);
                }
            }
            let out = model.step(i);
            last = Some(out);
            let mut snap = None;
            for (r, b) in self.fields.iter().zip(recs.iter_mut()) {
                let v = match r {
                    Recorded::Field(f) => {
                        snap.get_or_insert_with(|| model.snapshot(&out)).value(*f)
                    }
                    Recorded::Event(e) => FieldValue::Scalar(event_value(model, *e)),
                };
                b.push(&v, self.words);
            }
        }
        last
    }
}

impl Model {
    /// `record` of a run (None: every output port) as (name, field, bits, wide), once each,
    /// checked against MAX_RECORD_NAMES and, for `n` cycles, MAX_RECORD_BYTES.
    fn record_list(
        &self,
        record: Option<&Bound<'_, PyAny>>,
        n: u64,
        words: usize,
    ) -> PyResult<Vec<(String, Recorded, u32, bool)>> {
        let db = self.p().data_bytes();
        let names: Vec<String> = match record.filter(|r| !r.is_none()) {
            None => FIELDS
                .iter()
                .filter(|f| f.block == "out")
                .map(|f| f.name.to_string())
                .collect(),
            Some(r) => {
                let not_a_list = || {
                    PyTypeError::new_err(format!(
                        "`record`: expected a list of field names (str), got {}",
                        type_name(r)
                    ))
                };
                if r.is_instance_of::<PyString>() {
                    return Err(not_a_list());
                }
                let mut names = Vec::new();
                for (k, item) in r.try_iter().map_err(|_| not_a_list())?.enumerate() {
                    if k == MAX_RECORD_NAMES {
                        return Err(input_err(BadInput::TooManyNames));
                    }
                    names.push(text_of(&item?, "record", "field names")?);
                }
                names
            }
        };
        // the model's current snapshot says which fields are beats
        let snap = self.m.snapshot(&self.out);
        let mut rec: Vec<(String, Recorded, u32, bool)> = Vec::new();
        for name in names {
            if rec.iter().any(|r| r.0 == name) {
                continue;
            }
            let r = recorded(&name).map_err(input_err)?;
            let (bits, wide) = match r {
                Recorded::Field(i) => (
                    width(FIELDS[i].width, FIELDS[i].name, db),
                    matches!(snap.value(i), FieldValue::Wide(_)),
                ),
                Recorded::Event(i) => (EVENTS[i].1, false),
            };
            rec.push((name, r, bits, wide));
        }
        // at most MAX_RECORD_NAMES fields of at most 8 x DATA_WORDS bytes: no overflow
        let per_cycle: u64 = rec
            .iter()
            .map(|(_, _, bits, wide)| value_bytes(*bits, *wide, words))
            .sum();
        crate::check_record_size(n, per_cycle).map_err(input_err)?;
        Ok(rec)
    }
}

/// The stimulus of a run: input port name -> an int held every cycle or an array of `n` values
/// (`s_axis_tdata`: an (n, words) array, or an int beat), every value checked against its port.
fn stimuli<'py>(
    stimulus: Option<&Bound<'py, PyAny>>,
    n: u64,
    db: u32,
    words: usize,
) -> PyResult<Vec<(usize, Stim<'py>)>> {
    let mut out = Vec::new();
    let Some(stimulus) = stimulus.filter(|s| !s.is_none()) else {
        return Ok(out);
    };
    let d = dict_of(
        stimulus,
        "stimulus",
        "input port name to an int or an array",
    )?;
    for (k, v) in d.iter() {
        let name = text_of(&k, "stimulus", "input port names")?;
        let idx = input_index(&name).map_err(input_err)?;
        let (_, w) = INPUTS[idx];
        let bits = width(w, &name, db);
        let array = match v.cast::<PyUntypedArray>() {
            Ok(a) if a.ndim() > 0 => Some(v.clone()),
            _ => None,
        };
        let array = match array {
            Some(a) => a,
            None => {
                let constant = if idx == TDATA {
                    beat_words(&v, &name, bits).map(Stim::Beat)
                } else {
                    port_value(&v, idx, db, "").map(Stim::Const)
                };
                match constant {
                    Ok(s) => {
                        out.push((idx, s));
                        continue;
                    }
                    Err(e) if e.is_instance_of::<PyTypeError>(v.py()) => {
                        match as_array(&v, &name, bits)? {
                            Some(a) => a,
                            None => return Err(e),
                        }
                    }
                    Err(e) => return Err(e),
                }
            }
        };
        let a = native(&array)?;
        let col = Column::of(&a).ok_or_else(|| {
            let dtype = a
                .getattr("dtype")
                .and_then(|d| d.str())
                .map(|d| d.to_string_lossy().into_owned())
                .unwrap_or_default();
            PyTypeError::new_err(format!(
                "`{name}`: array of {dtype}, expected integers or bools"
            ))
        })?;
        let shape = a.cast::<PyUntypedArray>()?.shape().to_vec();
        let rows = usize::try_from(n).ok();
        if idx == TDATA {
            if shape.len() != 2 || Some(shape[0]) != rows || shape[1] != words {
                return Err(InputError::new_err(format!(
                    "`{name}`: shape {shape:?}, expected ({n}, {words})"
                )));
            }
            if let Some((k, x)) = col.first_bad(|k| word_max(k % words, db)) {
                return Err(input_err(BadInput::TooWide {
                    name,
                    at: format!("[{}] (word {})", k / words, k % words),
                    value: Int::Small(x),
                    bits,
                }));
            }
        } else {
            if shape.len() != 1 {
                return Err(InputError::new_err(format!(
                    "`{name}`: shape {shape:?}, expected ({n},)"
                )));
            }
            if Some(shape[0]) != rows {
                return Err(InputError::new_err(format!(
                    "`{name}`: {} values, expected {n}",
                    shape[0]
                )));
            }
            let max = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            if let Some((c, x)) = col.first_bad(|_| max) {
                return Err(input_err(BadInput::TooWide {
                    name,
                    at: format!("[{c}]"),
                    value: Int::Small(x),
                    bits,
                }));
            }
        }
        out.push((idx, Stim::Column(col, shape)));
    }
    Ok(out)
}

/// A sequence (a list, a tuple...) as a numpy array of at least one dimension, `None` for
/// anything else; a TypeError when numpy cannot read it (a ragged list).
fn as_array<'py>(
    v: &Bound<'py, PyAny>,
    name: &str,
    bits: u32,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = v.py();
    let a = match py.import("numpy")?.call_method1("asarray", (v,)) {
        Ok(a) => a,
        Err(e)
            if e.is_instance_of::<PyTypeError>(py)
                || e.is_instance_of::<PyValueError>(py)
                || e.is_instance_of::<PyOverflowError>(py) =>
        {
            return Err(PyTypeError::new_err(format!(
                "`{name}`: expected an integer 0..={} or an array of them, got {}",
                max_of(bits, true),
                type_name(v)
            )))
        }
        Err(e) => return Err(e),
    };
    Ok(match a.cast::<PyUntypedArray>() {
        Ok(arr) if arr.ndim() > 0 => Some(a),
        _ => None,
    })
}

/// `a` with native byte order and aligned (a copy of the same dtype when it is not), as the
/// typed views need.
fn native<'py>(a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let arr = a.cast::<PyUntypedArray>()?;
    if arr.is_aligned() && arr.dtype().is_native_byteorder() != Some(false) {
        return Ok(a.clone());
    }
    let dtype = arr.dtype().call_method1("newbyteorder", ("=",))?;
    a.call_method1("astype", (dtype,))
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
