//! JSON values <-> Python objects, directly (no JSON text in between), and argument checks.
//!
//! Everything a caller passes is converted with bounds, so no input can exhaust the stack or
//! the memory of the process:
//! - a Python value becomes JSON with at most [`MAX_DEPTH`] levels of nesting, [`MAX_NODES`]
//!   values and [`MAX_STRING_BYTES`] bytes of strings (keys included); a self-referential list
//!   or dict fails on the depth bound;
//! - JSON text of a saved state or a position document is parsed by the core within the limits
//!   of its game (`kassen_core::input`: at most 16 MiB, and no longer an array or more values
//!   than the game's documents hold, else `DocumentTooLarge`, 308); a config's text is at most
//!   [`MAX_JSON_TEXT_BYTES`] bytes here and within the core's component limits; serde_json
//!   itself bounds nesting to 128 levels;
//! - ids and seeds are Python ints of any size: an int outside the range a method takes is a
//!   kassen error with the method's code (201 action out of range, 205 invalid player, 5 for a
//!   seed), never `OverflowError`; a `bool` is refused (`ArgumentTypeError`, code 5, also a
//!   `TypeError`) instead of being read as 0 or 1.

use kassen_core::{ActionId, ErrorCode, Player};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

use crate::errors::{Error, Result};

/// The deepest nesting of lists and dicts accepted from Python (the top-level value is level
/// 1). serde_json's parser has the same bound for JSON text.
pub const MAX_DEPTH: usize = 128;
/// The most values (containers, numbers, strings, ...) one converted value may hold. The
/// largest real config, a replacement component-data file, holds about 3,300.
pub const MAX_NODES: usize = 1_000_000;
/// The most bytes of string data (dict keys included, UTF-8) one converted value may hold.
pub const MAX_STRING_BYTES: usize = 16 << 20;
/// The longest JSON text of a config or a view accepted here: 16 MiB.
pub const MAX_JSON_TEXT_BYTES: usize = 16 << 20;

/// A JSON value as Python objects: dict, list, str, int, float, bool, None.
///
/// Only called on values the core built (bounded by construction: views, events, infos whose
/// config went through [`py_to_value`] or serde_json).
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
/// JSON value.
///
/// An object of any other type (or a dict key that is not a str) is an `ArgumentTypeError`
/// (code 5). A value JSON could hold but this conversion does not take - deeper than
/// [`MAX_DEPTH`], larger than [`MAX_NODES`] or [`MAX_STRING_BYTES`], an int outside the 64-bit
/// range, a NaN or infinite float, a str that is not valid Unicode - is an error with code
/// `code` (`InvalidConfig` for a config).
///
/// No Python code runs during the conversion (list and dict subclasses are read through the
/// C API, not their `__iter__`), so the value cannot change under it.
pub fn py_to_value(obj: &Bound<'_, PyAny>, code: ErrorCode) -> Result<Value> {
    let mut budget = Budget { nodes: 0, bytes: 0, code, size_code: code };
    budget.convert(obj, 1)
}

struct Budget {
    nodes: usize,
    bytes: usize,
    code: ErrorCode,
    /// The code of a value past [`MAX_NODES`] or [`MAX_STRING_BYTES`].
    size_code: ErrorCode,
}

impl Budget {
    fn error(&self, msg: impl Into<String>) -> Error {
        Error::new(self.code, msg)
    }

    /// Fails unless `n` more values fit in the budget (checked before a container's items are
    /// read, so a huge list fails at once).
    fn check_room(&self, n: usize) -> Result<()> {
        if self.nodes.saturating_add(n) > MAX_NODES {
            return Err(self.too_many());
        }
        Ok(())
    }

    #[cold]
    fn too_many(&self) -> Error {
        Error::new(self.size_code, format!("value is too large (more than {MAX_NODES} elements)"))
    }

    /// Counts `n` more values.
    fn take_nodes(&mut self, n: usize) -> Result<()> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_NODES {
            return Err(self.too_many());
        }
        Ok(())
    }

    fn take_str(&mut self, s: &Bound<'_, PyString>) -> Result<String> {
        let text = s.to_cow().map_err(|_| self.error("string is not valid unicode (it contains a lone surrogate)"))?;
        self.bytes = self.bytes.saturating_add(text.len());
        if self.bytes > MAX_STRING_BYTES {
            return Err(Error::new(self.size_code, format!("value is too large (more than {MAX_STRING_BYTES} bytes of strings)")));
        }
        Ok(text.into_owned())
    }

    fn enter(&self, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!(
                "value is nested too deeply (more than {MAX_DEPTH} levels of lists and dicts; a list or dict that contains itself never ends)"
            )));
        }
        Ok(())
    }

    fn convert(&mut self, obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value> {
        self.take_nodes(1)?;
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
            return Err(self.error(format!("integer {} does not fit in 64 bits", int_text(obj))));
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            let x = f.value();
            return Number::from_f64(x).map(Value::Number).ok_or_else(|| self.error(format!("{x} is not representable in json")));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(Value::String(self.take_str(s)?));
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            self.enter(depth)?;
            // A snapshot of the items (one C call), after checking the count fits the budget.
            self.check_room(d.len())?;
            let mut map = Map::new();
            for item in d.items().iter() {
                let (k, v) = (item.get_item(0)?, item.get_item(1)?);
                let key =
                    k.cast::<PyString>().map_err(|_| Error::wrong_type(format!("config keys must be strings, got {}", type_name(&k))))?;
                let key = self.take_str(key)?;
                map.insert(key, self.convert(&v, depth + 1)?);
            }
            return Ok(Value::Object(map));
        }
        if let Ok(t) = obj.cast::<PyTuple>() {
            self.enter(depth)?;
            self.check_room(t.len())?;
            let mut items = Vec::with_capacity(t.len());
            for x in t.iter() {
                items.push(self.convert(&x, depth + 1)?);
            }
            return Ok(Value::Array(items));
        }
        if let Ok(list) = obj.cast::<PyList>() {
            self.enter(depth)?;
            self.check_room(list.len())?;
            let mut items = Vec::with_capacity(list.len());
            // By index: a list cannot change while the GIL is held and no Python code runs.
            let mut i = 0;
            while let Ok(x) = list.get_item(i) {
                items.push(self.convert(&x, depth + 1)?);
                i += 1;
            }
            return Ok(Value::Array(items));
        }
        Err(Error::wrong_type(format!("cannot convert an object of type {} to json", type_name(obj))))
    }
}

/// A position document as the caller gave it.
pub enum Position {
    /// JSON text, parsed by the core within the limits of the game it names.
    Text(String),
    /// The parsed form, held by the core to the same limits.
    Value(Value),
}

/// A position document given as JSON text (a `str`) or as its parsed form (a `dict`), for
/// `State.from_position` and `Game.load_position`: text is parsed by the core like a save's
/// (`DocumentTooLargeError` past its game's limits, before it is parsed), a dict goes through
/// [`py_to_value`] (a value with no JSON counterpart is `InvalidPosition`, one too large
/// `DocumentTooLarge`); anything else is `ArgumentTypeError`.
pub fn position_arg(obj: &Bound<'_, PyAny>) -> Result<Position> {
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Ok(Position::Text(obj.extract()?));
    }
    if obj.is_instance_of::<pyo3::types::PyDict>() {
        // Too many values is the code of a text too large, as the core reports it for text.
        let mut budget = Budget { nodes: 0, bytes: 0, code: ErrorCode::InvalidPosition, size_code: ErrorCode::DocumentTooLarge };
        return Ok(Position::Value(budget.convert(obj, 1)?));
    }
    Err(Error::wrong_type(format!("a position document is a str of json or a dict, not {}", type_name(obj))))
}

/// JSON text given by a caller, checked against [`MAX_JSON_TEXT_BYTES`] (error `code`).
pub fn json_text(text: &str, code: ErrorCode) -> Result<&str> {
    if text.len() > MAX_JSON_TEXT_BYTES {
        return Err(Error::new(code, format!("json text is too large ({} bytes, at most {MAX_JSON_TEXT_BYTES})", text.len())));
    }
    Ok(text)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// The decimal text of a Python int, shortened when it is very long.
fn int_text(obj: &Bound<'_, PyAny>) -> String {
    match obj.str() {
        Ok(s) => {
            let s = s.to_string();
            if s.len() > 40 {
                format!("{}...{} ({} digits)", &s[..12], &s[s.len() - 6..], s.trim_start_matches('-').len())
            } else {
                s
            }
        }
        // Python refuses to print ints of more than 4,300 digits.
        // The sign is kept: callers tell a negative int from a large one by its leading '-'.
        Err(_) if obj.lt(0).unwrap_or(false) => "-(an int of more than 4300 digits)".to_string(),
        Err(_) => "of more than 4300 digits".to_string(),
    }
}

/// An int argument (an action id or a player): `Ok` if it fits in an `i64`, else `Err` with its
/// decimal text. A `bool`, a float, a str, ... is an `ArgumentTypeError` (code 5, also a
/// `TypeError`); numpy integers and other objects with `__index__` are ints.
pub struct IntArg(pub std::result::Result<i64, String>);

impl<'a, 'py> FromPyObject<'a, 'py> for IntArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj = obj.to_owned();
        if obj.is_instance_of::<PyBool>() {
            return Err(Error::wrong_type("expected an int, got bool").into());
        }
        match obj.extract::<i64>() {
            Ok(v) => Ok(IntArg(Ok(v))),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(IntArg(Err(int_text(&obj)))),
            Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => {
                Err(Error::wrong_type(format!("expected an int, got {}", type_name(&obj))).into())
            }
            Err(e) => Err(e),
        }
    }
}

/// A seed: an int in `[0, 2**64)`. Anything else is a kassen error with code 5
/// (`InvalidArgumentError` for an int out of range, `ArgumentTypeError` for another type).
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj = obj.to_owned();
        if obj.is_instance_of::<PyBool>() {
            return Err(Error::wrong_type("seed must be an int, got bool").into());
        }
        match obj.extract::<u64>() {
            Ok(v) => Ok(Seed(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Err(Error::invalid_argument(format!("seed {} is out of range (seeds are ints in [0, 2**64))", int_text(&obj))).into())
            }
            Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => {
                Err(Error::wrong_type(format!("seed must be an int, got {}", type_name(&obj))).into())
            }
            Err(e) => Err(e),
        }
    }
}

/// An action id given as a Python int: one outside `[0, 2**32)` is `ActionOutOfRange` (201),
/// as the core reports ids in that range the game does not have.
#[inline]
pub fn action_id(a: &IntArg, num_actions: impl FnOnce() -> u32) -> Result<ActionId> {
    match a.0 {
        Ok(v) if (0..=u32::MAX as i64).contains(&v) => Ok(v as ActionId),
        Ok(v) => Err(action_out_of_range(&v.to_string(), num_actions())),
        Err(ref text) => Err(action_out_of_range(text, num_actions())),
    }
}

#[cold]
fn action_out_of_range(text: &str, num_actions: u32) -> Error {
    Error::new(ErrorCode::ActionOutOfRange, format!("action {text} is out of range (the game has {num_actions} distinct actions)"))
}

/// A player given as a Python int: a seat `0..num_players`, or `-1` (`CHANCE` or `SPECTATOR`,
/// whichever the method takes; the core decides whether it applies). Anything else is
/// `InvalidPlayer` (205).
#[inline]
pub fn player_id(p: &IntArg, num_players: usize) -> Result<Player> {
    match p.0 {
        Ok(v) if (-1..num_players as i64).contains(&v) => Ok(v as Player),
        Ok(v) => Err(invalid_player(&v.to_string(), num_players)),
        Err(ref text) => Err(invalid_player(text, num_players)),
    }
}

#[cold]
fn invalid_player(text: &str, num_players: usize) -> Error {
    Error::new(ErrorCode::InvalidPlayer, format!("player {text} does not exist in this game ({num_players} seats)"))
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
        assert_eq!(action_id(&IntArg(Ok(0)), || 10).ok(), Some(0));
        assert_eq!(action_id(&IntArg(Ok(u32::MAX as i64)), || 10).ok(), Some(u32::MAX));
        assert_eq!(code(action_id(&IntArg(Ok(-1)), || 10)), Some(ErrorCode::ActionOutOfRange));
        assert_eq!(code(action_id(&IntArg(Ok(1 << 40)), || 10)), Some(ErrorCode::ActionOutOfRange));
        assert_eq!(code(action_id(&IntArg(Err("1".repeat(30))), || 10)), Some(ErrorCode::ActionOutOfRange));
    }

    #[test]
    fn players_outside_the_seats_are_invalid() {
        assert_eq!(player_id(&IntArg(Ok(1)), 2).ok(), Some(1));
        assert_eq!(player_id(&IntArg(Ok(-1)), 2).ok(), Some(-1));
        assert_eq!(code(player_id(&IntArg(Ok(2)), 2)), Some(ErrorCode::InvalidPlayer));
        assert_eq!(code(player_id(&IntArg(Ok(-4)), 2)), Some(ErrorCode::InvalidPlayer));
        assert_eq!(code(player_id(&IntArg(Ok(1 << 40)), 2)), Some(ErrorCode::InvalidPlayer));
        assert_eq!(code(player_id(&IntArg(Err("-9".repeat(20))), 2)), Some(ErrorCode::InvalidPlayer));
    }
}
