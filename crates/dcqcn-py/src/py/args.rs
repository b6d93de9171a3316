//! Arguments and values between Python and the model: type and range checks that name the
//! argument, wide beats as words, field values to and from Python ints.

use super::*;

// Arguments. A value of the wrong type raises TypeError, an integer outside its range the
// argument's DcqcnError (InputError, or ParamError for data_bytes / clk_hz / line_rate); both
// messages name the argument and its range. Nothing is converted with wrapping or saturation,
// and no Python value is shown whole (an int by its size past 128 bits, other values by type).

/// The Python type of `v`, as a TypeError names it.
pub(super) fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an object".into())
}

/// `v` as an integer (an int, a numpy integer, a bool: anything with `__index__`), not yet
/// range-checked; a TypeError naming `name` and its `range` for anything else.
pub(super) fn int_of(
    v: &Bound<'_, PyAny>,
    name: &str,
    range: impl FnOnce() -> String,
) -> PyResult<Int> {
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
pub(super) fn index_of<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    v.py().import("operator")?.getattr("index")?.call1((v,))
}

/// An unsigned integer argument of `bits` bits (at most 64); InputError out of range.
pub(super) fn uint_arg(v: &Bound<'_, PyAny>, name: &str, bits: u32) -> PyResult<u64> {
    let x = int_of(v, name, || format!("0..={}", max_of(bits, false)))?;
    fit_bits(name, x, bits).map_err(input_err)
}

/// An elaboration parameter (data_bytes, clk_hz, line_rate): 32 bits, ParamError out of range;
/// `None` is the default.
pub(super) fn param_arg(v: Option<&Bound<'_, PyAny>>, name: &str, default: u32) -> PyResult<u32> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(default);
    };
    let x = int_of(v, name, || format!("0..={}", u32::MAX))?;
    fit_bits(name, x, 32)
        .map(|x| x as u32)
        .map_err(|e| ParamError::new_err(e.to_string()))
}

/// A dict argument (`what`: of what to what).
pub(super) fn dict_of<'a, 'py>(
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
pub(super) fn text_of(v: &Bound<'_, PyAny>, name: &str, what: &str) -> PyResult<String> {
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
pub(super) fn port_value(
    v: &Bound<'_, PyAny>,
    idx: usize,
    data_bytes: u32,
    at: &str,
) -> PyResult<u64> {
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
pub(super) fn beat_words(
    v: &Bound<'_, PyAny>,
    name: &str,
    bits: u32,
) -> PyResult<[u64; DATA_WORDS]> {
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

pub(super) fn too_wide(name: &str, value: Int, bits: u32) -> PyErr {
    input_err(BadInput::TooWide {
        name: name.to_string(),
        at: String::new(),
        value,
        bits,
    })
}

/// Cycles of inputs and outputs a mismatch report lists (`dcqcn cosim`'s HISTORY_CYCLES).
pub(super) const HISTORY: usize = 8;

/// A value as a Python int (wide beats through `int.from_bytes`).
pub(super) fn value_to_py<'py>(
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
pub(super) fn py_to_value(
    v: &Bound<'_, PyAny>,
    wide: bool,
    name: &str,
) -> PyResult<Option<FieldValue>> {
    if v.is_none() {
        return Ok(None);
    }
    if wide {
        let w = beat_words(v, name, 64 * DATA_WORDS as u32)?;
        return Ok(Some(FieldValue::Wide(w)));
    }
    Ok(Some(FieldValue::Scalar(uint_arg(v, name, 64)?)))
}
