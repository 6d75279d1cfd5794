//! Every registered game has its rules reference `docs/rules/<id>.md`, and what it cites is
//! there: each section names the modules that implement it (files that exist) and its rule
//! tests (`#[test]` functions of the repository's Rust sources), and each link to the
//! game's RULES_NOTES.md lands on one of its headings.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use kassen_core::engine::games;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The names of every `#[test]` function in the repository's Rust sources (target/ and hidden
/// dirs left out).
fn rust_test_names() -> HashSet<String> {
    fn walk(dir: &Path, names: &mut HashSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    walk(&path, names);
                }
            } else if name.ends_with(".rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                // The function that follows each `#[test]` attribute.
                for part in text.split("#[test]").skip(1) {
                    let Some(at) = part.find("fn ") else { continue };
                    let ident: String = part[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if !ident.is_empty() {
                        names.insert(ident);
                    }
                }
            }
        }
    }
    let mut names = HashSet::new();
    for top in ["core", "ffi", "python", "tests"] {
        walk(&root().join(top), &mut names);
    }
    names
}

/// The spans between backticks in `text`.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// One section of a rules reference: its heading and the items of its `- Modules:` and
/// `- Tests:` lists (continuation lines joined).
struct Section {
    heading: String,
    modules: Vec<String>,
    tests: Vec<String>,
}

fn sections(doc: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut current: Option<(bool, String)> = None; // (is tests, text) of the open item
    let close = |out: &mut Vec<Section>, current: &mut Option<(bool, String)>| {
        if let (Some((tests, text)), Some(section)) = (current.take(), out.last_mut()) {
            if tests {
                section.tests.push(text);
            } else {
                section.modules.push(text);
            }
        }
    };
    for line in doc.lines() {
        if line.starts_with('#') {
            close(&mut out, &mut current);
            out.push(Section { heading: line.to_string(), modules: vec![], tests: vec![] });
        } else if let Some(rest) = line.strip_prefix("- Modules:") {
            close(&mut out, &mut current);
            current = Some((false, rest.to_string()));
        } else if let Some(rest) = line.strip_prefix("- Tests:") {
            close(&mut out, &mut current);
            current = Some((true, rest.to_string()));
        } else if let (true, Some(open)) = (line.starts_with("  "), current.as_mut()) {
            open.1.push_str(line);
        } else {
            close(&mut out, &mut current);
        }
    }
    close(&mut out, &mut current);
    out
}

/// GitHub's anchor of a Markdown heading.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn every_registered_game_has_a_rules_reference_whose_modules_and_tests_exist() {
    let fns = rust_test_names();
    for (id, _) in games() {
        let rel = format!("docs/rules/{id}.md");
        let doc = std::fs::read_to_string(root().join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let secs = sections(&doc);
        let mut modules = 0;
        let mut tests = 0;
        for s in &secs {
            for item in &s.modules {
                let spans = code_spans(item);
                assert!(!spans.is_empty(), "{rel}, {}: a Modules item names no file", s.heading);
                for path in spans {
                    assert!(path.starts_with("core/src/"), "{rel}, {}: {path} is not a module path", s.heading);
                    assert!(root().join(path).is_file(), "{rel}, {}: module {path} does not exist", s.heading);
                    modules += 1;
                }
            }
            for item in &s.tests {
                for span in code_spans(item) {
                    if span.contains('/') {
                        assert!(root().join(span).exists(), "{rel}, {}: test file {span} does not exist", s.heading);
                    } else {
                        assert!(
                            span.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                            "{rel}, {}: {span:?} is no test name",
                            s.heading
                        );
                        assert!(fns.contains(span), "{rel}, {}: test {span} is not a #[test] function of the Rust sources", s.heading);
                        tests += 1;
                    }
                }
            }
        }
        // Every numbered section of the rulebook (a `## <number>` heading) names its modules,
        // in its own text or in its subsections'.
        for (i, s) in secs.iter().enumerate() {
            let numbered = s.heading.starts_with("## ") && s.heading[3..].starts_with(|c: char| c.is_ascii_digit() || c == '§');
            if numbered {
                let covered =
                    secs[i..].iter().take_while(|t| t.heading == s.heading || t.heading.starts_with("###")).any(|t| !t.modules.is_empty());
                assert!(covered, "{rel}: section {:?} names no module", s.heading);
            }
        }
        assert!(modules > 0 && tests > 0, "{rel} cites no module or no test");

        // Links into the game's RULES_NOTES.md land on a heading.
        let notes_rel = format!("core/src/games/{id}/RULES_NOTES.md");
        let notes = std::fs::read_to_string(root().join(&notes_rel)).unwrap();
        let anchors: HashSet<String> = notes.lines().filter(|l| l.starts_with('#')).map(|l| slug(l.trim_start_matches('#'))).collect();
        let link = format!("](../../{notes_rel}");
        let mut links = 0;
        for part in doc.split(&link).skip(1) {
            let target = &part[..part.find(')').unwrap()];
            if let Some(anchor) = target.strip_prefix('#') {
                assert!(anchors.contains(anchor), "{rel}: no heading of {notes_rel} has the anchor #{anchor}");
            }
            links += 1;
        }
        assert!(links > 0, "{rel} does not link the game's RULES_NOTES.md");
    }
}

#[test]
fn the_section_parser_sees_modules_and_tests() {
    let doc = "## 1. A\n\ntext\n\n- Modules: `a.rs`,\n  `b.rs`\n- Tests: `t1`,\n  `t2` (in `x.rs`)\n\n### 1.1 B\n- Tests: `t3`\n";
    let secs = sections(doc);
    assert_eq!(secs.len(), 2);
    assert_eq!(code_spans(&secs[0].modules[0]), ["a.rs", "b.rs"]);
    assert_eq!(code_spans(&secs[0].tests[0]), ["t1", "t2", "x.rs"]);
    assert_eq!(code_spans(&secs[1].tests[0]), ["t3"]);
    assert_eq!(slug(" N1 Setup order: cities first, then villages"), "n1-setup-order-cities-first-then-villages");
}

#[test]
fn no_comment_document_or_string_cites_a_rulebook_file_outside_the_repository() {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    walk(&path, found);
                }
                continue;
            }
            let md = name.ends_with(".md");
            if !(md || name.ends_with(".rs")) {
                continue;
            }
            if name == "rules_docs.rs" {
                continue; // this test names what it looks for
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for (i, line) in text.lines().enumerate() {
                // Comments, and string literals such as `GameInfo::rulebook`.
                let prose = md || line.trim_start().starts_with("//") || line.contains('"');
                if prose && (line.contains("shared/rules/") || line.contains("../shared/")) {
                    found.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&root(), &mut found);
    assert!(found.is_empty(), "cite docs/rules/<id>.md instead:\n{}", found.join("\n"));
}
