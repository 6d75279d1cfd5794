//! C ABI of kassen (see `include/kassen.h`, generated from this crate by cbindgen).
//!
//! Conventions (rustls-ffi is the model): opaque handles `kassen_game` and `kassen_state`;
//! every function is `kassen_<noun>_<verb>`, returns a `kassen_status` and writes its
//! outputs only on success; every body runs inside the one panic-catching
//! [`boundary::ffi_boundary!`]; NULL is checked everywhere and `*_free(NULL)` is a no-op;
//! bounded outputs go to caller buffers `(buf, cap, &out_len)`, unbounded ones (JSON) to a
//! Rust-owned [`buf::kassen_buf`] released by `kassen_buf_free`.
#![deny(unsafe_op_in_unsafe_fn)]
#![allow(clippy::missing_safety_doc)] // the safety contract of every function is its C doc comment

pub mod batch;
pub mod bots;
pub mod boundary;
pub mod buf;
pub mod game;
pub mod position;
pub mod render;
pub mod search;
pub mod state;
pub mod status;
pub mod text;
pub mod version;

use std::ffi::c_char;

pub use batch::*;
pub use bots::*;
pub use buf::{kassen_buf, kassen_buf_free};
pub use game::*;
pub use position::*;
pub use render::*;
pub use search::*;
pub use state::*;
pub use status::{kassen_status, kassen_status_name};
pub use text::*;
pub use version::*;

/// The message of the last failed kassen call on this thread, e.g.
/// `"action 17 is not legal here"`; `""` if the last call succeeded.
///
/// Every fallible function clears the message when it starts, so read it right after the
/// failure. The returned string is owned by kassen: never NULL, valid until the next kassen
/// call on this thread; do not free it. Messages never reveal hidden information. This
/// function cannot fail.
#[no_mangle]
pub extern "C" fn kassen_last_error_message() -> *const c_char {
    boundary::last_error_ptr()
}
