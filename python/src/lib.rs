//! Python module `kassen._kassen`: a thin layer over `kassen_core::engine`.
//!
//! Conversion and GIL handling only; the ergonomic Python API (exceptions, environments,
//! testing helpers) lives in `py_src/kassen/`.

mod batch;
mod bots;
mod convert;
mod errors;
mod game;
mod numpy_check;
mod render;
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

/// Test hook: panics inside the panic boundary, to show that a panic reaches Python as
/// `kassen.exceptions.PanicError` (code 4), never as pyo3's `PanicException`.
#[pyfunction]
fn _test_panic(message: &str) -> errors::Result<()> {
    errors::guard(|| panic!("{message}"))
}

#[pymodule]
fn _kassen(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", kassen_core::VERSION)?;
    m.add("CHANCE", CHANCE)?;
    m.add("TERMINAL", TERMINAL)?;
    m.add("SPECTATOR", SPECTATOR)?;
    m.add("STATE_FORMAT", kassen_core::engine::STATE_FORMAT)?;
    m.add("POSITION_FORMAT", kassen_core::engine::POSITION_FORMAT)?;
    m.add("NAMED_POSITION_FORMAT", kassen_core::engine::NAMED_POSITION_FORMAT)?;
    // Whether this is a debug build (benchmarks warn about it).
    m.add("_debug_build", cfg!(debug_assertions))?;
    m.add_class::<game::Game>()?;
    m.add_class::<state::State>()?;
    m.add_class::<batch::Batch>()?;
    m.add_class::<bots::RandomBot>()?;
    m.add_class::<bots::MonteCarloBot>()?;
    m.add_class::<bots::SpecBot>()?;
    m.add_class::<bots::PySearch>()?;
    m.add_function(wrap_pyfunction!(bots::bot_specs, m)?)?;
    m.add_function(wrap_pyfunction!(bots::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(game::games, m)?)?;
    m.add_function(wrap_pyfunction!(game::covered_configs, m)?)?;
    m.add_function(wrap_pyfunction!(game::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(game::_load_game_json, m)?)?;
    m.add_function(wrap_pyfunction!(state::_state_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(batch::episode_seed, m)?)?;
    m.add_function(wrap_pyfunction!(_error_codes, m)?)?;
    m.add_function(wrap_pyfunction!(_test_panic, m)?)?;
    Ok(())
}
