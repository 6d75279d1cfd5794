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

/// The doc comment of every function in the header that returns a `kassen_status` names the
/// statuses it returns: at least one, only ones the header defines, and
/// `KASSEN_STATUS_NULL_POINTER` wherever the function takes a pointer.
#[test]
fn every_function_documents_its_statuses() {
    let header = std::fs::read_to_string(root().join("include").join("kassen.h")).expect("read include/kassen.h");
    let defined: Vec<&str> = header
        .lines()
        .filter_map(|l| l.trim().strip_prefix("KASSEN_STATUS_"))
        .filter_map(|rest| rest.split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')).next())
        .collect();
    assert!(defined.contains(&"INVALID_PLAYER") && defined.contains(&"INVALID_DATA"));
    let lines: Vec<&str> = header.lines().collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("kassen_status kassen_") else { continue };
        let name = format!("kassen_{}", rest.split('(').next().unwrap_or(""));
        // The doc block right above the declaration.
        let start = (0..i).rev().find(|&j| lines[j].trim_start().starts_with("/**")).unwrap_or(i);
        let doc = lines[start..i].join("\n");
        let mut signature = lines[i].to_string();
        let mut k = i;
        while !signature.contains(')') && k + 1 < lines.len() {
            k += 1;
            signature.push_str(lines[k]);
        }
        let named: Vec<&str> = doc
            .split("KASSEN_STATUS_")
            .skip(1)
            .map(|s| s.split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')).next().unwrap_or(""))
            .collect();
        assert!(!named.is_empty(), "{name}: its doc names no status");
        for s in &named {
            assert!(defined.contains(s), "{name}: its doc names KASSEN_STATUS_{s}, which the header does not define");
        }
        if signature.contains('*') {
            assert!(named.contains(&"NULL_POINTER"), "{name}: takes a pointer but its doc omits KASSEN_STATUS_NULL_POINTER");
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} functions found in the header");
    // Two the issue named: a game's component data can fail validation; a seat that does not
    // exist is INVALID_PLAYER, not NOT_YOUR_TURN.
    let doc_of = |f: &str| {
        let i = lines.iter().position(|l| l.contains(&format!(" {f}("))).unwrap_or_else(|| panic!("{f} is in the header"));
        let start = (0..i).rev().find(|&j| lines[j].trim_start().starts_with("/**")).unwrap_or(i);
        lines[start..i].join("\n")
    };
    assert!(doc_of("kassen_game_new").contains("KASSEN_STATUS_INVALID_DATA"));
    assert!(doc_of("kassen_state_apply_as").contains("KASSEN_STATUS_INVALID_PLAYER"));
}
