//! The README's C example is exactly examples/c/play.c, which tests/c/run.sh compiles and runs.

#[test]
fn readme_c_example_is_the_compiled_example() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let play = std::fs::read_to_string(format!("{root}/examples/c/play.c")).unwrap();
    let start = readme.find("```c\n").expect("README has a C example") + 5;
    let end = start + readme[start..].find("```\n").unwrap();
    assert_eq!(&readme[start..end], play);
}
