//! What `Model.run` reads and writes: the stimulus arrays read in place whatever their dtype, the
//! recorded fields in their numpy types, the held values and columns of a run, and its chunks.

use super::*;

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
pub(super) enum Column<'py> {
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
    pub(super) fn of(a: &Bound<'py, PyAny>) -> Option<Column<'py>> {
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
    pub(super) fn first_bad(&self, max: impl Fn(usize) -> u64) -> Option<(usize, i128)> {
        with_view!(self, |v| v
            .iter()
            .map(|x| x.int())
            .enumerate()
            .find(|&(k, x)| x < 0 || x > i128::from(max(k))))
    }

    /// Rows `start..start + rows` into `out`, row-major (values checked by `first_bad`); false
    /// if the array no longer has the `shape` it was checked with (resized in place by another
    /// thread between two chunks).
    pub(super) fn fill(&self, shape: &[usize], start: usize, rows: usize, out: &mut [u64]) -> bool {
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
pub(super) enum Rec {
    Bool(Vec<bool>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    Wide(Vec<u64>),
}

impl Rec {
    pub(super) fn new(bits: u32, wide: bool) -> Rec {
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
    pub(super) fn reserve(
        &mut self,
        n: usize,
        words: usize,
    ) -> Result<(), std::collections::TryReserveError> {
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
    pub(super) fn push(&mut self, x: &FieldValue, words: usize) {
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

    pub(super) fn into_py<'py>(
        self,
        py: Python<'py>,
        n: usize,
        words: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
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
pub(super) enum Stim<'py> {
    Const(u64),
    Beat([u64; DATA_WORDS]),
    /// The column and the shape it was checked with.
    Column(Column<'py>, Vec<usize>),
}

/// One chunk of a run's cycles: the columns' values for it (`ports`: input index and words per
/// cycle, `values` row-major) and the fields to record.
pub(super) struct Chunk<'a> {
    pub(super) ports: &'a [(usize, usize)],
    pub(super) values: &'a [Vec<u64>],
    pub(super) fields: &'a [Recorded],
    pub(super) words: usize,
}

impl Chunk<'_> {
    /// Steps `len` cycles, recording into `recs`; the outputs of the last (None for none).
    pub(super) fn step(
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
    pub(super) fn record_list(
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
pub(super) fn stimuli<'py>(
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
pub(super) fn as_array<'py>(
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
pub(super) fn native<'py>(a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let arr = a.cast::<PyUntypedArray>()?;
    if arr.is_aligned() && arr.dtype().is_native_byteorder() != Some(false) {
        return Ok(a.clone());
    }
    let dtype = arr.dtype().call_method1("newbyteorder", ("=",))?;
    a.call_method1("astype", (dtype,))
}
