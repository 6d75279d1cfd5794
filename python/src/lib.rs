//! Python module `kassen._kassen`: a thin layer over `kassen_core::engine`.
//!
//! Conversion and GIL handling only; the ergonomic Python API (exceptions, environments,
//! testing helpers) lives in `py_src/kassen/`.

mod convert;
mod errors;
mod game;
mod state;

use kassen_core::{ErrorCode, CHANCE, SPECTATOR, TERMINAL};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `{name: number}` of every core error code (tests check the Python classes against it).
#[pyfunction]
fn _error_codes(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for c in ErrorCode::ALL {
        d.set_item(format!("{c:?}"), c.as_i32())?;
    }
    Ok(d)
}

#[pymodule]
fn _kassen(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", kassen_core::VERSION)?;
    m.add("CHANCE", CHANCE)?;
    m.add("TERMINAL", TERMINAL)?;
    m.add("SPECTATOR", SPECTATOR)?;
    m.add("STATE_FORMAT", kassen_core::engine::STATE_FORMAT)?;
    m.add_class::<game::Game>()?;
    m.add_class::<state::State>()?;
    m.add_function(wrap_pyfunction!(game::games, m)?)?;
    m.add_function(wrap_pyfunction!(game::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(game::_load_game_json, m)?)?;
    m.add_function(wrap_pyfunction!(state::_state_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(_error_codes, m)?)?;
    Ok(())
}
