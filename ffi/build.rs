//! Gives the shared library the SONAME `libkassen.so.<KASSEN_ABI_VERSION>` on ELF targets, so
//! that programs linked against one ABI never load a library of another. The number is read
//! from `src/version.rs`, where the header's `KASSEN_ABI_VERSION` is defined.

use std::fs;

fn main() {
    println!("cargo:rerun-if-changed=src/version.rs");
    let source = fs::read_to_string("src/version.rs").expect("read src/version.rs");
    let abi = source
        .lines()
        .find_map(|line| line.trim().strip_prefix("pub const KASSEN_ABI_VERSION: u32 = "))
        .and_then(|rest| rest.strip_suffix(';'))
        .and_then(|n| n.parse::<u32>().ok())
        .expect("src/version.rs defines `pub const KASSEN_ABI_VERSION: u32 = <n>;`");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let elf = !matches!(os.as_str(), "macos" | "ios" | "windows" | "tvos" | "watchos");
    if elf {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libkassen.so.{abi}");
    }
}
