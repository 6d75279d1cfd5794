//! Each example in README.md is exactly the file that the tests compile and run: the C example
//! is examples/c/play.c (tests/c/run.sh), the C++ one examples/cpp/play.cpp (tests/cpp/run.sh)
//! and the C# one examples/csharp/Play.cs (tests/csharp/run.sh).

fn assert_readme_block_is(fence: &str, file: &str) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let example = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
    let open = format!("```{fence}\n");
    let start = readme.find(&open).unwrap_or_else(|| panic!("README has a {fence} example")) + open.len();
    let end = start + readme[start..].find("```\n").unwrap();
    assert_eq!(&readme[start..end], example, "the README's {fence} example differs from {file}");
}

#[test]
fn readme_c_example_is_the_compiled_example() {
    assert_readme_block_is("c", "examples/c/play.c");
}

#[test]
fn readme_cpp_example_is_the_compiled_example() {
    assert_readme_block_is("cpp", "examples/cpp/play.cpp");
}

#[test]
fn readme_csharp_example_is_the_compiled_example() {
    assert_readme_block_is("csharp", "examples/csharp/Play.cs");
}
