//! Gives the shared library the SONAME `libkassen.so.<KASSEN_ABI_VERSION>` on ELF targets, so
//! that programs linked against one ABI never load a library of another. The number is read
//! from `src/version.rs`, where the header's `KASSEN_ABI_VERSION` is defined.
//!
//! A program linked with `-L target/<profile> -lkassen` records that SONAME and looks for
//! `libkassen.so.<abi>` when it starts, so the script also leaves the link
//! `libkassen.so.<abi> -> libkassen.so` in the profile directory, as `ldconfig` (or
//! `make install`) does in an installed prefix.

use std::fs;
use std::path::{Path, PathBuf};

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
        soname_link(abi);
    }
}

/// Creates `<profile dir>/libkassen.so.<abi> -> libkassen.so` (relative, so the directory may
/// move). The link dangles until cargo writes the library beside it at the end of this build.
fn soname_link(abi: u32) {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // OUT_DIR is <profile dir>/build/kassen-ffi-<hash>/out.
    let profile = out_dir.ancestors().nth(3).filter(|dir| dir.join("build").is_dir() && out_dir.starts_with(dir.join("build")));
    let Some(profile) = profile else {
        println!("cargo:warning=no link libkassen.so.{abi} made: unexpected OUT_DIR {}", out_dir.display());
        return;
    };
    let link = profile.join(format!("libkassen.so.{abi}"));
    if let Err(e) = make_link(&link) {
        println!("cargo:warning=could not create {}: {e}", link.display());
    }
}

#[cfg(unix)]
fn make_link(link: &Path) -> std::io::Result<()> {
    match fs::read_link(link) {
        Ok(target) if target == Path::new("libkassen.so") => Ok(()),
        Ok(_) => {
            fs::remove_file(link)?;
            std::os::unix::fs::symlink("libkassen.so", link)
        }
        Err(_) if fs::symlink_metadata(link).is_ok() => Ok(()), // a real file someone put there
        Err(_) => std::os::unix::fs::symlink("libkassen.so", link),
    }
}

#[cfg(not(unix))]
fn make_link(_link: &Path) -> std::io::Result<()> {
    Ok(()) // a non-Unix host building for an ELF target: the link is the packager's step
}
