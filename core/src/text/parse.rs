//! Moves from free text ([`crate::DynState::parse_move`]): a move string, its number in the
//! list of the text observation, or a JSON action, tolerant of case, whitespace, quotes, code
//! fences and a sentence around it, as long as exactly one legal move is meant.

use serde_json::Value;

use crate::error::RuleError;
use crate::game::ActionId;
use crate::input;

/// Answers longer than this are refused unread.
pub const MAX_TEXT_BYTES: usize = 16 * 1024;

/// Lower case, every run of whitespace one space, typographic quotes and dashes as ASCII.
fn normalized(t: &str) -> String {
    let mapped: String = t
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201c}' | '\u{201d}' => '"',
            '\u{2013}' | '\u{2014}' => '-',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text without code fences, surrounding quotes, backticks, markup and end punctuation.
fn unwrapped(t: &str) -> String {
    let mut s = t.trim().to_string();
    if let Some(rest) = s.strip_prefix("```") {
        // Drop the fence's language tag line, if any, and the closing fence.
        let body = rest.split_once('\n').map_or(rest, |(first, body)| if first.trim().contains(' ') { rest } else { body });
        s = body.trim_end().trim_end_matches("```").trim().to_string();
    }
    loop {
        let t = s.trim().trim_end_matches(['.', '!', ';']).trim();
        let stripped = ["\"", "'", "`", "*", "_", "\u{201c}", "\u{201d}", "\u{2018}", "\u{2019}"]
            .iter()
            .find_map(|q| t.strip_prefix(q).map(|x| x.trim_end_matches(q)))
            .or_else(|| t.strip_suffix('"').or_else(|| t.strip_suffix('`')));
        match stripped {
            Some(x) if x.len() < t.len() => s = x.to_string(),
            _ => return t.to_string(),
        }
    }
}

/// A whole number, optionally as `#3`, `3.` or `(3)`.
fn number(t: &str) -> Option<usize> {
    let t = t.trim().trim_start_matches('#').trim_start_matches('(').trim_end_matches([')', '.', ':']).trim();
    (!t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.parse().ok()).flatten()
}

/// Whether `needle` occurs in `hay` with no letter or digit right before or after it.
fn occurs_as_phrase(hay: &str, needle: &str) -> bool {
    let alnum = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    hay.match_indices(needle).any(|(i, _)| !alnum(hay[..i].chars().next_back()) && !alnum(hay[i + needle.len()..].chars().next()))
}

/// One legal move as the parser compares it.
pub struct Candidate {
    pub id: ActionId,
    pub text: String,
    pub json: Value,
}

/// The options in an error message: the first ten numbered, and how many more.
fn options(moves: &[Candidate]) -> String {
    let shown: Vec<String> = moves.iter().take(10).enumerate().map(|(i, m)| format!("{}. {}", i + 1, m.text)).collect();
    let more = moves.len().saturating_sub(10);
    let tail = if more > 0 { format!("; and {more} more (see the list of legal moves)") } else { String::new() };
    format!("legal moves: {}{tail}", shown.join("; "))
}

fn unreadable(what: String, moves: &[Candidate]) -> RuleError {
    RuleError::UnreadableMove(format!("{what}; answer with one move's text or its number ({})", options(moves)))
}

/// The JSON action: `{"id": n}`, an action object (every given field as the move's JSON has
/// it), a JSON string or number (read as text), or `None` where the text is no JSON.
fn from_json(v: &Value, moves: &[Candidate]) -> Option<Result<ActionId, RuleError>> {
    match v {
        Value::Object(o) => {
            if let Some(id) = o.get("id") {
                let found = id.as_u64().and_then(|id| moves.iter().find(|m| m.id as u64 == id));
                return Some(found.map(|m| m.id).ok_or_else(|| unreadable(format!("action id {id} is not a legal move here"), moves)));
            }
            if let Some(m) = o.get("move").or_else(|| o.get("action")) {
                return Some(match m {
                    Value::String(t) => resolve(t, moves),
                    Value::Number(_) => resolve(&m.to_string(), moves),
                    other => from_json(other, moves)?,
                });
            }
            let hits: Vec<&Candidate> = moves.iter().filter(|m| !o.is_empty() && o.iter().all(|(k, x)| m.json.get(k) == Some(x))).collect();
            Some(match hits.as_slice() {
                [one] => Ok(one.id),
                [] => Err(unreadable("the JSON action matches no legal move".into(), moves)),
                _ => Err(unreadable(format!("the JSON action matches {} legal moves", hits.len()), moves)),
            })
        }
        Value::String(t) => Some(resolve(t, moves)),
        _ => None,
    }
}

/// The legal move `text` means, among `moves` (in the order of the numbered list).
pub fn resolve(text: &str, moves: &[Candidate]) -> Result<ActionId, RuleError> {
    let quoted = input::cut(text.trim(), input::QUOTE_BYTES);
    if text.len() > MAX_TEXT_BYTES {
        return Err(unreadable(format!("the answer has {} bytes, more than the {MAX_TEXT_BYTES} read", text.len()), moves));
    }
    let t = unwrapped(text);
    if t.is_empty() {
        return Err(unreadable("the answer is empty".into(), moves));
    }
    // A JSON action: the whole answer or an object inside it.
    if t.starts_with('{') || t.starts_with('"') {
        if let Ok(v) = serde_json::from_str::<Value>(&t) {
            if let Some(r) = from_json(&v, moves) {
                return r;
            }
        }
    }
    if let Some(n) = number(&t) {
        return match n.checked_sub(1).and_then(|i| moves.get(i)) {
            Some(m) => Ok(m.id),
            None => Err(unreadable(format!("there is no move number {n} (the list has 1 to {})", moves.len()), moves)),
        };
    }
    let norm = normalized(&t);
    let texts: Vec<String> = moves.iter().map(|m| normalized(&m.text)).collect();
    if let Some(i) = texts.iter().position(|m| *m == norm) {
        return Ok(moves[i].id);
    }
    // A move named inside a sentence: the longest names found, unless two unrelated ones are.
    let mut hits: Vec<usize> = (0..moves.len()).filter(|&i| occurs_as_phrase(&norm, &texts[i])).collect();
    hits.sort_by_key(|&i| std::cmp::Reverse(texts[i].len()));
    if let Some(&best) = hits.first() {
        let rivals: Vec<usize> = hits[1..].iter().copied().filter(|&i| !texts[best].contains(texts[i].as_str())).collect();
        if rivals.is_empty() {
            return Ok(moves[best].id);
        }
        let named: Vec<String> = std::iter::once(best).chain(rivals).map(|i| format!("{:?}", moves[i].text)).collect();
        return Err(unreadable(format!("{quoted:?} names several legal moves: {}", named.join(", ")), moves));
    }
    // A JSON object inside a sentence.
    if let (Some(a), Some(b)) = (t.find('{'), t.rfind('}')) {
        if let Ok(v) = serde_json::from_str::<Value>(&t[a..=b]) {
            if let Some(r) = from_json(&v, moves) {
                return r;
            }
        }
    }
    // A number inside a sentence ("I choose option 3", "#3"), when it is the only one.
    let words: Vec<&str> = norm.split(|c: char| c.is_whitespace() || c == ':' || c == ',').filter(|x| !x.is_empty()).collect();
    let marked: Vec<usize> = (0..words.len())
        .filter_map(|i| {
            let after_word = i > 0 && ["move", "option", "number", "choice", "no.", "answer"].contains(&words[i - 1]);
            (words[i].starts_with('#') || after_word).then(|| number(words[i])).flatten()
        })
        .collect();
    if let [n] = marked.as_slice() {
        return match n.checked_sub(1).and_then(|i| moves.get(i)) {
            Some(m) => Ok(m.id),
            None => Err(unreadable(format!("there is no move number {n} (the list has 1 to {})", moves.len()), moves)),
        };
    }
    Err(unreadable(format!("{quoted:?} names no legal move"), moves))
}
