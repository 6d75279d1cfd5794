//! The rules primer of a game: its docs/rules/<id>.md condensed for a system prompt. The
//! condensed text is kept beside the game as `core/src/games/<id>/primer.md` (returned by
//! [`crate::Game::rules_primer`]); a test checks that it is [`condense`] of the rules page and
//! rewrites it under `KASSEN_BLESS=1`.

/// The primer of a rules page: without the lines that cite the engine's modules and tests,
/// without links (their text stays), without the references to rule notes and code, and
/// without the paragraph about the sources under the title.
pub fn condense(markdown: &str) -> String {
    let mut out = Vec::new();
    let mut in_list = false;
    let mut intro = 0; // 0: before the title, 1: in the title's first paragraph, 2: past it
    let mut engine_section = false;
    for line in markdown.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            // The engine's own formats (positions, views, observations) are no rules of play.
            let h = h.to_lowercase();
            engine_section = ["positions", "views", "compact observation", "observation"].iter().any(|s| h.starts_with(s));
        }
        if engine_section {
            continue;
        }
        if line.starts_with("- Modules:") || line.starts_with("- Module:") || line.starts_with("- Tests:") || line.starts_with("- Test:") {
            in_list = true;
            continue;
        }
        if in_list && line.starts_with("  ") {
            continue;
        }
        in_list = false;
        match intro {
            0 if line.starts_with("# ") => {
                intro = 1;
                out.push(line.to_string());
                continue;
            }
            1 if line.trim().is_empty() => continue,
            1 if !line.starts_with('#') && out.len() == 1 => {
                // The sources paragraph: only its first sentence (title, author, players) stays.
                let first = line.split(". ").next().unwrap_or(line);
                out.push(String::new());
                out.push(format!("{}.", first.trim_end_matches('.')));
                intro = 3;
                continue;
            }
            3 if !line.trim().is_empty() => continue,
            3 => intro = 2,
            _ => {}
        }
        out.push(delinked(line));
    }
    let mut text = out.join("\n");
    while text.contains("\n\n\n") {
        text = text.replace("\n\n\n", "\n\n");
    }
    shortened(text.trim()) + "\n"
}

/// The most words a primer has.
pub const MAX_WORDS: usize = 2_000;

/// The text cut to about [`MAX_WORDS`]: where it is longer, every section (from one heading
/// to the next) keeps its heading, its first paragraph and as many of its next paragraphs as
/// fit its share of the words (its words in proportion).
fn shortened(text: &str) -> String {
    let total = words(text);
    if total <= MAX_WORDS {
        return text.to_string();
    }
    let ratio = (MAX_WORDS - 60) as f64 / total as f64;
    let mut sections: Vec<Vec<&str>> = Vec::new();
    for para in text.split("\n\n") {
        if para.starts_with('#') || sections.is_empty() {
            sections.push(Vec::new());
        }
        sections.last_mut().expect("a section").push(para);
    }
    let mut kept: Vec<String> = Vec::new();
    for section in sections {
        let share = (words(&section.join(" ")) as f64 * ratio) as usize;
        let mut used = 0;
        for para in section {
            let n = words(para);
            if para.starts_with('#') {
                kept.push(para.to_string());
            } else if used + n <= share {
                kept.push(para.to_string());
                used += n;
            } else if used == 0 {
                // The section's first paragraph, cut to the sentences that fit (one at least).
                let mut cut = String::new();
                for sentence in para.split_inclusive(". ") {
                    if !cut.is_empty() && words(&cut) + words(sentence) > share {
                        break;
                    }
                    cut.push_str(sentence);
                }
                used += words(&cut);
                kept.push(cut.trim_end().to_string());
            }
        }
    }
    kept.join("\n\n") + "\n\n(Condensed: some details of long sections are left out; the full rules are in the game's rules page.)"
}

/// A line without markdown links (their text stays), without parenthesized references to
/// rules notes (`([N2](...))`) and without code spans naming files.
fn delinked(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else { break };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else { break };
        let text = &rest[open + 1..close];
        let before = &rest[..open];
        // `([N2](..))` and `, [S3](..)`: references to notes, dropped with their bracket.
        let is_note = text.len() <= 4
            && text.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && text[1..].chars().all(|c| c.is_ascii_digit() || c == '-');
        if is_note {
            out.push_str(before.trim_end_matches(['(', ' ', ',']));
            rest = rest[end + 1..].trim_start_matches(')');
        } else {
            out.push_str(before);
            out.push_str(text);
            rest = &rest[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// Words in a text (whitespace-separated).
pub fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each game's primer.md is the condensed docs/rules/<id>.md, of at most about 2,000
    /// words; `KASSEN_BLESS=1` rewrites the files.
    #[test]
    fn primers_are_the_condensed_rules_pages() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        for (id, _) in crate::games() {
            let page = std::fs::read_to_string(format!("{root}/docs/rules/{id}.md")).expect("every game has a rules page");
            let want = condense(&page);
            let path = format!("{root}/core/src/games/{id}/primer.md");
            let game = crate::load_game(id, None).expect("loads");
            if std::env::var("KASSEN_BLESS").is_ok() {
                // The compiled-in text is the old one until the next build.
                std::fs::write(&path, &want).expect("writes the primer");
            } else {
                assert_eq!(game.rules_primer(), want, "{id}: primer.md is not the condensed rules page (KASSEN_BLESS=1 rewrites it)");
            }
            let n = words(&want);
            assert!(n <= 2_100, "{id}: the primer has {n} words, more than about 2,000");
            assert!(!want.contains("core/src") && !want.contains("Tests:"), "{id}: the primer cites code");
        }
    }

    #[test]
    fn links_keep_their_text_and_notes_go() {
        assert_eq!(delinked("Seat 0 starts ([N2](../x.md#n2)). See [the map](m.md)."), "Seat 0 starts. See the map.");
    }
}
