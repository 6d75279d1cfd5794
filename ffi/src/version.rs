//! `kassen_version`, `kassen_abi_version` and the version macros of the header.

use std::ffi::c_char;

/// Major version of the kassen library this header belongs to.
pub const KASSEN_VERSION_MAJOR: u32 = 0;
/// Minor version of the kassen library this header belongs to.
pub const KASSEN_VERSION_MINOR: u32 = 1;
/// Patch version of the kassen library this header belongs to.
pub const KASSEN_VERSION_PATCH: u32 = 0;
/// Version of the C ABI this header describes. It changes whenever a function, type or
/// constant of this header changes incompatibly, and it is the number in the shared
/// library's SONAME (`libkassen.so.<KASSEN_ABI_VERSION>`). A frontend compares it with
/// `kassen_abi_version()` at startup and refuses a library that reports another number.
pub const KASSEN_ABI_VERSION: u32 = 1;

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

/// The ABI version of the linked kassen library.
///
/// Equal to `KASSEN_ABI_VERSION` of the header the library was built from; any other value
/// means the header and the library do not match and no other function may be called.
/// This function cannot fail.
#[no_mangle]
pub extern "C" fn kassen_abi_version() -> u32 {
    KASSEN_ABI_VERSION
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
        assert_eq!(kassen_abi_version(), KASSEN_ABI_VERSION);
        assert!(s.starts_with(&format!("{KASSEN_VERSION_MAJOR}.{KASSEN_VERSION_MINOR}.{KASSEN_VERSION_PATCH}")));
    }
}
