//! numpy is an optional dependency of the wheel: the methods that return arrays ask for it
//! first, so that without it they raise a clear `ImportError` naming numpy instead of the
//! panic (`PanicException`) of the numpy bindings that cannot find numpy's C API.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;

use crate::errors::{Error, Result};

/// Set once numpy was imported (it stays in `sys.modules`).
static FOUND: AtomicBool = AtomicBool::new(false);

/// `Ok` if numpy can be imported; else an `ImportError` saying that `what` needs it.
pub fn require(py: Python<'_>, what: &str) -> Result<()> {
    if FOUND.load(Ordering::Relaxed) {
        return Ok(());
    }
    match py.import("numpy") {
        Ok(_) => {
            FOUND.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(e) => Err(Error::Py(PyImportError::new_err(format!(
            "{what} returns numpy arrays, but the numpy package is not installed (pip install numpy): {e}"
        )))),
    }
}
