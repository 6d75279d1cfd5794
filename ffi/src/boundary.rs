//! The one panic-catching boundary every exported function runs inside, the thread-local
//! last error, and the checked conversions of raw arguments.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use kassen_core::{LoadError, RuleError, SetupError};

use crate::status::kassen_status;

/// Why an exported call failed: a status and a message for `kassen_last_error_message`.
#[derive(Debug)]
pub struct Failure {
    pub status: kassen_status,
    pub message: String,
}

impl Failure {
    pub fn new(status: kassen_status, message: impl Into<String>) -> Self {
        Failure { status, message: message.into() }
    }

    pub fn null(name: &str) -> Self {
        Failure::new(kassen_status::NullPointer, format!("argument `{name}` is NULL"))
    }
}

// Core errors carry their own stable code; their messages never contain hidden state.
impl From<SetupError> for Failure {
    fn from(e: SetupError) -> Self {
        Failure::new(e.code().into(), e.to_string())
    }
}

impl From<RuleError> for Failure {
    fn from(e: RuleError) -> Self {
        Failure::new(e.code().into(), e.to_string())
    }
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Self {
        Failure::new(e.code().into(), e.to_string())
    }
}

impl From<kassen_core::Error> for Failure {
    fn from(e: kassen_core::Error) -> Self {
        Failure::new(e.code().into(), e.to_string())
    }
}

pub type FfiResult = Result<(), Failure>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Stores `message` as this thread's last error (interior NULs are replaced), cut to
/// [`MESSAGE_BYTES`](kassen_core::input::MESSAGE_BYTES) bytes: a message that quotes a huge
/// argument never becomes a huge string.
pub fn set_last_error(message: &str) {
    let message = kassen_core::input::cut(message, kassen_core::input::MESSAGE_BYTES);
    let c = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    // `try_with` fails only while the thread is being torn down; then there is no one to tell.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = c;
        }
    });
}

/// Clears this thread's last error (every fallible call starts with it).
pub fn clear_last_error() {
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            if !slot.as_bytes().is_empty() {
                *slot = CString::default();
            }
        }
    });
}

/// A pointer to this thread's last error message, valid until the next kassen call on
/// this thread.
pub fn last_error_ptr() -> *const c_char {
    LAST_ERROR
        .try_with(|slot| match slot.try_borrow() {
            Ok(s) => s.as_ptr(),
            Err(_) => c"".as_ptr(),
        })
        .unwrap_or(c"".as_ptr())
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    kassen_core::error::describe_panic(payload)
}

/// Runs a fallible body: clears the last error, catches panics, maps failures to a status
/// and stores their message. Use it through [`ffi_boundary!`].
pub fn run_status<F: FnOnce() -> FfiResult>(body: F) -> kassen_status {
    clear_last_error();
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => kassen_status::Ok,
        Ok(Err(f)) => {
            set_last_error(&f.message);
            f.status
        }
        Err(payload) => {
            let msg = panic_message(&*payload);
            // Dropping the payload could itself panic; forget it instead.
            std::mem::forget(payload);
            set_last_error(&msg);
            kassen_status::Panic
        }
    }
}

/// Runs an infallible body; a panic yields `fallback` and is stored as the last error.
/// Use it through [`ffi_boundary!`].
pub fn run_value<T, F: FnOnce() -> T>(fallback: T, body: F) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(v) => v,
        Err(payload) => {
            let msg = panic_message(&*payload);
            std::mem::forget(payload);
            set_last_error(&msg);
            fallback
        }
    }
}

/// The one boundary of every exported function.
///
/// `ffi_boundary! { body }` — `body` evaluates to `Result<(), Failure>` (use `?` freely);
/// the function returns the matching `kassen_status`, `KASSEN_STATUS_PANIC` on a panic.
///
/// `ffi_boundary! { or fallback; body }` — for the few functions that cannot fail
/// (`*_free`, getters of static strings): `body` evaluates to the return value; a panic
/// returns `fallback`.
macro_rules! ffi_boundary {
    (or $fallback:expr; $($body:tt)*) => {
        $crate::boundary::run_value($fallback, move || { $($body)* })
    };
    ($($body:tt)*) => {
        $crate::boundary::run_status(move || -> $crate::boundary::FfiResult { $($body)* })
    };
}
pub(crate) use ffi_boundary;

// === Checked conversions of raw arguments ===

/// A shared reference from a pointer the caller promises is valid or NULL.
///
/// # Safety
/// `p` is NULL or points to a live `T`.
pub unsafe fn arg_ref<'a, T>(p: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller guarantees validity when non-NULL.
    unsafe { p.as_ref() }.ok_or_else(|| Failure::null(name))
}

/// An exclusive reference from a pointer the caller promises is valid or NULL.
///
/// # Safety
/// `p` is NULL or points to a live `T` nobody else uses during the call.
pub unsafe fn arg_mut<'a, T>(p: *mut T, name: &str) -> Result<&'a mut T, Failure> {
    // SAFETY: the caller guarantees validity and exclusivity when non-NULL.
    unsafe { p.as_mut() }.ok_or_else(|| Failure::null(name))
}

/// A checked output pointer: written only at the end of a successful call.
pub struct Out<T>(*mut T);

impl<T> Out<T> {
    /// Checks `p` for NULL and alignment.
    pub fn new(p: *mut T, name: &str) -> Result<Out<T>, Failure> {
        if p.is_null() {
            return Err(Failure::null(name));
        }
        if !p.is_aligned() {
            return Err(Failure::new(kassen_status::InvalidArgument, format!("argument `{name}` is misaligned")));
        }
        Ok(Out(p))
    }

    /// Writes the value without reading or dropping the old one.
    ///
    /// # Safety
    /// The pointer given to [`Out::new`] is valid for writes.
    pub unsafe fn write(self, v: T) {
        // SAFETY: non-NULL and aligned (checked in `new`), writable (caller's promise).
        unsafe { self.0.write(v) }
    }
}

/// A NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that stays valid during the call.
pub unsafe fn arg_str<'a>(p: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: non-NULL and NUL-terminated (caller's promise).
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str().map_err(|e| {
        Failure::new(
            kassen_status::InvalidUtf8,
            format!("argument `{name}` is not valid UTF-8 (invalid byte at offset {})", e.valid_up_to()),
        )
    })
}

/// The string argument `(p, len)`: `len` bytes of UTF-8, no NUL terminator needed. NULL
/// with `len == 0` is the empty string. A NUL byte inside is an error (a caller's string is
/// never silently cut short).
///
/// # Safety
/// `p` is NULL or valid for `len` reads.
pub unsafe fn arg_str_n<'a>(p: *const u8, len: usize, name: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return if len == 0 { Ok("") } else { Err(Failure::null(name)) };
    }
    // SAFETY: non-NULL and valid for `len` bytes (caller's promise).
    let bytes = unsafe { std::slice::from_raw_parts(p, len) };
    if let Some(i) = bytes.iter().position(|&b| b == 0) {
        return Err(Failure::new(kassen_status::InvalidArgument, format!("argument `{name}` contains a NUL byte at offset {i}")));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        Failure::new(
            kassen_status::InvalidUtf8,
            format!("argument `{name}` is not valid UTF-8 (invalid byte at offset {})", e.valid_up_to()),
        )
    })
}

/// Copies `src` into the caller buffer `(buf, cap)` and its length into `out_len`.
///
/// `buf` may be NULL when `cap` is 0 (a size query). If `src` does not fit, nothing is
/// copied, the required length is written to `out_len` and the status is
/// `BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` is NULL or valid for `cap` writes of `T`; `out_len` is NULL or valid for a write.
pub unsafe fn write_slice<T: Copy>(src: &[T], buf: *mut T, cap: usize, out_len: *mut usize, buf_name: &str) -> FfiResult {
    let out_len = Out::new(out_len, "out_len")?;
    if buf.is_null() && cap > 0 {
        return Err(Failure::null(buf_name));
    }
    if !buf.is_null() && !buf.is_aligned() {
        return Err(Failure::new(kassen_status::InvalidArgument, format!("argument `{buf_name}` is misaligned")));
    }
    if src.len() > cap {
        // SAFETY: checked by `Out::new`; writable by the caller's promise.
        unsafe { out_len.write(src.len()) };
        return Err(Failure::new(
            kassen_status::BufferTooSmall,
            format!("buffer `{buf_name}` holds {cap} elements, {} are needed", src.len()),
        ));
    }
    if !src.is_empty() {
        // SAFETY: `buf` is non-NULL (cap >= len > 0), aligned, and valid for `cap >= len`
        // writes; a caller buffer cannot overlap the Rust-owned `src`.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), buf, src.len()) };
    }
    // SAFETY: as above.
    unsafe { out_len.write(src.len()) };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn last() -> String {
        unsafe { CStr::from_ptr(last_error_ptr()) }.to_str().unwrap().to_string()
    }

    #[test]
    fn panics_become_a_status_and_a_message() {
        let s = run_status(|| panic!("boom {}", 42));
        assert_eq!(s, kassen_status::Panic);
        assert!(last().contains("boom 42"), "{}", last());
        // The next successful call clears it.
        assert_eq!(run_status(|| Ok(())), kassen_status::Ok);
        assert_eq!(last(), "");
    }

    #[test]
    fn failures_store_their_message() {
        let s = run_status(|| Err(Failure::new(kassen_status::IllegalAction, "nope")));
        assert_eq!(s, kassen_status::IllegalAction);
        assert_eq!(last(), "nope");
    }

    #[test]
    fn value_boundary_returns_the_fallback_on_panic() {
        let v: i32 = run_value(-1, || panic!("x"));
        assert_eq!(v, -1);
        assert_eq!(run_value(0, || 5), 5);
    }

    #[test]
    fn slices_report_the_required_length() {
        let src = [1u32, 2, 3];
        let mut buf = [0u32; 2];
        let mut len = 0usize;
        let s = run_status(|| unsafe { write_slice(&src, buf.as_mut_ptr(), 2, &mut len, "buf") });
        assert_eq!((s, len, buf), (kassen_status::BufferTooSmall, 3, [0, 0]));
        let mut len = 0usize;
        let s = run_status(|| unsafe { write_slice(&src, std::ptr::null_mut(), 0, &mut len, "buf") });
        assert_eq!((s, len), (kassen_status::BufferTooSmall, 3));
        let mut big = [0u32; 4];
        let s = run_status(|| unsafe { write_slice(&src, big.as_mut_ptr(), 4, &mut len, "buf") });
        assert_eq!((s, len, big), (kassen_status::Ok, 3, [1, 2, 3, 0]));
        let s = run_status(|| unsafe { write_slice(&src, std::ptr::null_mut(), 4, &mut len, "buf") });
        assert_eq!(s, kassen_status::NullPointer);
        let s = run_status(|| unsafe { write_slice(&src, big.as_mut_ptr(), 4, std::ptr::null_mut(), "buf") });
        assert_eq!(s, kassen_status::NullPointer);
    }
}
