//! The READMEs keep up with the registry: every registered game has its provenance bullet in
//! README.md and its entry in python/README.md's list of games, and no paragraph of README.md
//! (nor the start of one) is pasted twice.

use kassen_core::engine::games;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text of the section of `doc` under heading `heading` (up to the next `## `).
fn section<'a>(doc: &'a str, heading: &str) -> &'a str {
    let start = doc.find(heading).unwrap_or_else(|| panic!("no section {heading:?}")) + heading.len();
    let end = doc[start..].find("\n## ").map_or(doc.len(), |e| start + e);
    &doc[start..end]
}

/// The top-level bullets (`- ` at the start of a line, with their indented continuation lines).
fn bullets(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("- ") {
            out.push(rest.to_string());
        } else if line.starts_with("  ") && !out.is_empty() {
            let last = out.last_mut().unwrap();
            last.push(' ');
            last.push_str(line.trim());
        } else if !line.trim().is_empty() {
            // a paragraph line ends the list
            if !out.is_empty() && !line.starts_with(' ') {
                break;
            }
        }
    }
    out
}

#[test]
fn readme_has_a_complete_provenance_bullet_for_every_registered_game() {
    let readme = read("README.md");
    let provenance = section(&readme, "## Component data and its provenance");
    let items = bullets(provenance);
    for (id, name) in games() {
        let data_dir = format!("core/src/games/{id}/data/");
        let found: Vec<&String> = items.iter().filter(|b| b.contains(&data_dir)).collect();
        assert_eq!(found.len(), 1, "{id}: expected one provenance bullet naming {data_dir}, found {}", found.len());
        let bullet = found[0];
        // `- **Name** (`core/src/games/<id>/data/<file>` ...): ...`
        let title = bullet.strip_prefix("**").and_then(|b| b.split("**").next()).unwrap_or("");
        assert!(!title.is_empty() && name.starts_with(title), "{id}: the bullet's title {title:?} is not the game's name {name:?}");
        let file = bullet[bullet.find(&data_dir).unwrap()..].split('`').next().unwrap();
        assert!(root().join(file).is_file(), "{id}: the bullet names {file}, which does not exist");
        let notes = format!("`core/src/games/{id}/RULES_NOTES.md`.");
        assert!(bullet.ends_with(&notes), "{id}: the bullet does not end by naming {notes} (cut short?): {bullet}");
        assert!(root().join(notes.trim_matches(|c| c == '`' || c == '.')).is_file());
    }
    assert_eq!(items.len(), games().len(), "one provenance bullet per registered game and no other");
}

#[test]
fn readme_has_no_paragraph_twice() {
    let readme = read("README.md");
    let mut seen = std::collections::HashSet::new();
    let mut in_code = false;
    for para in readme.split("\n\n") {
        if para.matches("```").count() % 2 == 1 {
            in_code = !in_code;
        }
        let text = para.trim();
        // Only prose: tables, headings, fenced code and one-liners repeat legitimately.
        if in_code || text.starts_with('|') || text.starts_with('#') || text.contains("```") || text.len() < 120 {
            continue;
        }
        // Keyed by its opening words, so that a copy cut short is found too.
        let words: Vec<&str> = text.split_whitespace().take(16).collect();
        assert!(seen.insert(words.join(" ")), "README.md has this paragraph twice (or a copy of its start):\n{text}");
    }
}

#[test]
fn python_readme_lists_exactly_the_registered_games() {
    let readme = read("python/README.md");
    let start = readme.find("- `kassen.games()`").expect("python/README.md describes kassen.games()");
    let listed: Vec<&str> = readme[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  - ") || l.starts_with("    "))
        .filter_map(|l| l.strip_prefix("  - `"))
        .map(|l| l.split('`').next().unwrap())
        .collect();
    let registered: Vec<&str> = games().into_iter().map(|(id, _)| id).collect();
    assert_eq!(listed, registered, "python/README.md's list of games (in registry order)");
}
