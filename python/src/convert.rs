//! JSON values <-> Python objects, directly (no JSON text in between), and argument checks.

use kassen_core::{ActionId, ErrorCode, Player};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

use crate::errors::{Error, Result};

/// A JSON value as Python objects: dict, list, str, int, float, bool, None.
pub fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for x in items {
                list.append(value_to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, x) in map {
                dict.set_item(k, value_to_py(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

/// A Python object made of dict (str keys), list, tuple, str, int, float, bool and None as a
/// JSON value; anything else is an `InvalidArgumentError`.
pub fn py_to_value(obj: &Bound<'_, PyAny>) -> Result<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(Error::invalid_argument(format!("integer {obj} does not fit in 64 bits")));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let x = f.value();
        return Number::from_f64(x).map(Value::Number).ok_or_else(|| Error::invalid_argument(format!("{x} is not representable in json")));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_owned()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in d.iter() {
            let key =
                k.cast::<PyString>().map_err(|_| Error::invalid_argument(format!("config keys must be strings, got {}", type_name(&k))))?;
            map.insert(key.to_str()?.to_owned(), py_to_value(&v)?);
        }
        return Ok(Value::Object(map));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for x in obj.try_iter()? {
            items.push(py_to_value(&x?)?);
        }
        return Ok(Value::Array(items));
    }
    Err(Error::invalid_argument(format!("cannot convert an object of type {} to json", type_name(obj))))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// An action id given as a Python int (`i64`, so negative ids get a kassen error, not an
/// `OverflowError`).
#[inline]
pub fn action_id(a: i64, num_actions: impl FnOnce() -> u32) -> Result<ActionId> {
    if (0..=u32::MAX as i64).contains(&a) {
        Ok(a as ActionId)
    } else {
        Err(Error::new(
            ErrorCode::ActionOutOfRange,
            format!("action {a} is out of range (the game has {} distinct actions)", num_actions()),
        ))
    }
}

/// A player id given as a Python int.
#[inline]
pub fn player_id(p: i64, num_players: impl FnOnce() -> usize) -> Result<Player> {
    Player::try_from(p)
        .map_err(|_| Error::new(ErrorCode::InvalidPlayer, format!("player {p} does not exist in this game ({} seats)", num_players())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code<T>(r: Result<T>) -> Option<ErrorCode> {
        match r {
            Err(Error::Kassen(c, _)) => Some(c),
            _ => None,
        }
    }

    #[test]
    fn action_ids_outside_u32_are_out_of_range() {
        assert_eq!(action_id(0, || 10).ok(), Some(0));
        assert_eq!(action_id(u32::MAX as i64, || 10).ok(), Some(u32::MAX));
        assert_eq!(code(action_id(-1, || 10)), Some(ErrorCode::ActionOutOfRange));
        assert_eq!(code(action_id(1 << 40, || 10)), Some(ErrorCode::ActionOutOfRange));
    }

    #[test]
    fn player_ids_outside_i32_are_invalid_players() {
        assert_eq!(player_id(-1, || 2).ok(), Some(-1));
        assert_eq!(code(player_id(1 << 40, || 2)), Some(ErrorCode::InvalidPlayer));
        assert_eq!(code(player_id(-(1 << 40), || 2)), Some(ErrorCode::InvalidPlayer));
    }
}
