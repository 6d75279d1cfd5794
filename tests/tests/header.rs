//! The committed include/kassen.h must be exactly what the pinned cbindgen generates from
//! ffi/src. `KASSEN_BLESS=1 cargo test -p kassen-tests header` (`make header`) rewrites it.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

fn generate() -> String {
    let ffi = root().join("ffi");
    let config = cbindgen::Config::from_file(ffi.join("cbindgen.toml")).expect("ffi/cbindgen.toml parses");
    // Parse the sources directly (following `mod` items): no `cargo metadata`, no network.
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(ffi.join("src").join("lib.rs"))
        .generate()
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn header_is_current() {
    let path = root().join("include").join("kassen.h");
    let fresh = generate();
    if std::env::var("KASSEN_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, &fresh).expect("write include/kassen.h");
        eprintln!("wrote {}", path.display());
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != fresh {
        let first = committed.lines().zip(fresh.lines()).position(|(a, b)| a != b);
        panic!(
            "include/kassen.h is out of date (first differing line: {:?}); run `make header` \
             (KASSEN_BLESS=1 cargo test -p kassen-tests header) and commit it",
            first.map(|i| i + 1)
        );
    }
}

#[test]
fn header_has_the_version_macros_of_cargo() {
    let h = generate();
    for (name, value) in [
        ("KASSEN_VERSION_MAJOR", env!("CARGO_PKG_VERSION_MAJOR")),
        ("KASSEN_VERSION_MINOR", env!("CARGO_PKG_VERSION_MINOR")),
        ("KASSEN_VERSION_PATCH", env!("CARGO_PKG_VERSION_PATCH")),
    ] {
        assert!(h.contains(&format!("#define {name} {value}\n")), "{name} is not {value} in the header");
    }
}

#[test]
fn header_names_every_status() {
    let h = generate();
    for s in kassen::kassen_status::all() {
        assert!(h.contains(&format!("{} = {},", s.name(), s as i32)), "{} missing from the header", s.name());
    }
}
