//! `kassen_buf`: Rust-owned text handed to C (JSON, action names).

use std::ffi::c_char;

use crate::boundary::{ffi_boundary, Failure, Out};

/// A read-only byte string owned by kassen: JSON text or a display string.
///
/// `data` points to `len` bytes of UTF-8 followed by a NUL terminator (not counted in
/// `len`), so it can be used as a C string. The buffer is owned by the caller once a
/// function has filled it and must be released with `kassen_buf_free`.
/// Do not call free() on `data`, and do not modify the bytes.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug)]
pub struct kassen_buf {
    /// UTF-8 bytes followed by a NUL; NULL in an empty or freed buffer.
    pub data: *const c_char,
    /// Number of bytes, excluding the terminating NUL.
    pub len: usize,
}

impl kassen_buf {
    /// Moves `text` (plus a NUL) to the heap and hands it out.
    pub fn from_string(text: String) -> kassen_buf {
        let mut bytes = text.into_bytes();
        let len = bytes.len();
        bytes.push(0);
        let data = Box::into_raw(bytes.into_boxed_slice()) as *mut u8 as *const c_char;
        kassen_buf { data, len }
    }
}

/// Writes `text` to the output buffer `out` (checked before any work by the caller).
///
/// # Safety
/// `out` was checked by [`Out::new`] and is valid for a write.
pub unsafe fn give(out: Out<kassen_buf>, text: String) {
    // SAFETY: forwarded from the caller.
    unsafe { out.write(kassen_buf::from_string(text)) }
}

/// Checks an output `kassen_buf*` argument.
pub fn out_buf(p: *mut kassen_buf) -> Result<Out<kassen_buf>, Failure> {
    Out::new(p, "out")
}

/// Releases the bytes of a buffer filled by a kassen function and resets it to
/// `{NULL, 0}`, so freeing it again is a harmless no-op.
///
/// `buf == NULL` and a buffer whose `data` is NULL are no-ops. Only pass buffers filled by
/// kassen and not modified since. This function cannot fail.
#[no_mangle]
pub unsafe extern "C" fn kassen_buf_free(buf: *mut kassen_buf) {
    ffi_boundary! { or ();
        // SAFETY: the caller passes NULL or a valid buffer.
        let Some(b) = (unsafe { buf.as_mut() }) else { return };
        if b.data.is_null() {
            return;
        }
        let raw = std::ptr::slice_from_raw_parts_mut(b.data as *mut u8, b.len + 1);
        // SAFETY: `data`/`len` come from `kassen_buf::from_string`: a boxed slice of
        // `len + 1` bytes, not yet freed (we reset the fields below).
        drop(unsafe { Box::from_raw(raw) });
        b.data = std::ptr::null();
        b.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn round_trip_and_double_free() {
        let mut b = kassen_buf::from_string("héllo".to_string());
        assert_eq!(b.len, 6);
        assert_eq!(unsafe { CStr::from_ptr(b.data) }.to_str().unwrap(), "héllo");
        unsafe { kassen_buf_free(&mut b) };
        assert!(b.data.is_null());
        assert_eq!(b.len, 0);
        unsafe { kassen_buf_free(&mut b) };
        unsafe { kassen_buf_free(std::ptr::null_mut()) };
        let mut e = kassen_buf::from_string(String::new());
        assert_eq!(e.len, 0);
        unsafe { kassen_buf_free(&mut e) };
    }
}
