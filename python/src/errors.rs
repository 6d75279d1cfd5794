//! Core errors -> the exception classes of `kassen.exceptions`, and the panic boundary.
//!
//! The classes live in Python (`py_src/kassen/exceptions.py`), so they can use multiple
//! inheritance (`RuleError` is also a `ValueError`). The module is imported the first time an
//! error is raised, not at import time, and `_error_from_code` is cached.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use kassen_core::{ErrorCode, LoadError, RuleError, SetupError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// The error type of every native function: a kassen error (code + message), an argument of a
/// type kassen cannot take (`ArgumentTypeError`: code 5, also a `TypeError`), or a Python error
/// raised while converting results.
pub enum Error {
    Kassen(ErrorCode, String),
    WrongType(String),
    Py(PyErr),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(code: ErrorCode, msg: impl Into<String>) -> Error {
        Error::Kassen(code, msg.into())
    }

    pub fn invalid_argument(msg: impl Into<String>) -> Error {
        Error::new(ErrorCode::InvalidArgument, msg)
    }

    /// An argument of the wrong type (`kassen.exceptions.ArgumentTypeError`, code 5).
    pub fn wrong_type(msg: impl Into<String>) -> Error {
        Error::WrongType(msg.into())
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Error {
        Error::Py(e)
    }
}

impl From<RuleError> for Error {
    fn from(e: RuleError) -> Error {
        Error::Kassen(e.code(), e.to_string())
    }
}

impl From<SetupError> for Error {
    fn from(e: SetupError) -> Error {
        Error::Kassen(e.code(), e.to_string())
    }
}

impl From<LoadError> for Error {
    fn from(e: LoadError) -> Error {
        Error::Kassen(e.code(), e.to_string())
    }
}

impl From<kassen_core::Error> for Error {
    fn from(e: kassen_core::Error) -> Error {
        Error::Kassen(e.code(), e.to_string())
    }
}

static ERROR_FROM_CODE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match e {
            Error::Py(e) => e,
            Error::Kassen(code, msg) => Python::attach(|py| to_exception(py, code, msg, false)),
            Error::WrongType(msg) => Python::attach(|py| to_exception(py, ErrorCode::InvalidArgument, msg, true)),
        }
    }
}

/// Builds the `kassen.exceptions` instance for `code` (`ArgumentTypeError` if `wrong_type`).
/// Falls back to `ValueError` / `TypeError` if the Python package is missing, e.g. when the
/// native module is imported on its own.
///
/// The message is cut to [`MESSAGE_BYTES`](kassen_core::input::MESSAGE_BYTES) bytes: one that
/// quotes a huge argument never becomes a huge string.
fn to_exception(py: Python<'_>, code: ErrorCode, msg: String, wrong_type: bool) -> PyErr {
    let msg = kassen_core::input::cut(&msg, kassen_core::input::MESSAGE_BYTES).into_owned();
    let factory = ERROR_FROM_CODE
        .get_or_try_init(py, || -> PyResult<Py<PyAny>> { Ok(py.import("kassen.exceptions")?.getattr("_error_from_code")?.unbind()) });
    match factory {
        Ok(f) => match f.bind(py).call1((code.as_i32(), msg.as_str(), wrong_type)) {
            Ok(exc) => PyErr::from_value(exc),
            Err(e) => e,
        },
        Err(_) if wrong_type => PyTypeError::new_err(format!("[kassen error {}] {msg}", code.as_i32())),
        Err(_) => PyValueError::new_err(format!("[kassen error {}] {msg}", code.as_i32())),
    }
}

/// Runs `f`, turning a panic into a `KassenError` with code 4 (PANIC) instead of letting it
/// unwind into Python as `PanicException`. Costs nothing when nothing panics.
#[inline(always)]
pub fn guard<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(panic_error(payload)),
    }
}

/// The error for a caught panic payload.
pub fn panic_error(payload: Box<dyn Any + Send>) -> Error {
    Error::new(ErrorCode::Panic, kassen_core::error::describe_panic(&*payload))
}
