//! `kassen_version` and the version macros of the header.

use std::ffi::c_char;

/// Major version of the kassen library this header belongs to.
pub const KASSEN_VERSION_MAJOR: u32 = 0;
/// Minor version of the kassen library this header belongs to.
pub const KASSEN_VERSION_MINOR: u32 = 1;
/// Patch version of the kassen library this header belongs to.
pub const KASSEN_VERSION_PATCH: u32 = 0;

const VERSION_C: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The version of the linked kassen library, e.g. `"0.1.0"`.
///
/// Compare it with `KASSEN_VERSION_MAJOR`/`MINOR`/`PATCH` to detect a header that does not
/// match the library. The returned string is static: never NULL, never freed by the
/// caller. This function cannot fail.
#[no_mangle]
pub extern "C" fn kassen_version() -> *const c_char {
    VERSION_C.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn macros_match_cargo() {
        assert_eq!(KASSEN_VERSION_MAJOR.to_string(), env!("CARGO_PKG_VERSION_MAJOR"));
        assert_eq!(KASSEN_VERSION_MINOR.to_string(), env!("CARGO_PKG_VERSION_MINOR"));
        assert_eq!(KASSEN_VERSION_PATCH.to_string(), env!("CARGO_PKG_VERSION_PATCH"));
        let s = unsafe { CStr::from_ptr(kassen_version()) }.to_str().unwrap();
        assert_eq!(s, env!("CARGO_PKG_VERSION"));
        assert_eq!(s, kassen_core::VERSION);
        assert!(s.starts_with(&format!("{KASSEN_VERSION_MAJOR}.{KASSEN_VERSION_MINOR}.{KASSEN_VERSION_PATCH}")));
    }
}
