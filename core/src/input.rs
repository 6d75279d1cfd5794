//! Caller input read within bounds.
//!
//! - JSON text (a saved state, a position document, a config) is checked by [`scan`] before it
//!   is parsed: a pass over the bytes that allocates nothing rejects a text longer, an array
//!   or object longer, or a document holding more values than its [`Limits`], so a parse
//!   never allocates more than a bounded multiple of what the game can hold. A document's
//!   limits come from its game ([`Limits::saved`], [`Limits::position`]): its longest action
//!   log (`max_game_length`) plus room for the typed state, the start position and a
//!   replacement component file.
//! - Caller text quoted in an error message is cut to [`QUOTE_BYTES`] bytes ([`quote`],
//!   [`cut`], [`json`]), so a 10 MB argument never becomes a 10 MB message.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::Value;

use crate::error::LoadError;
use crate::game::GameInfo;

// === Document limits ===

/// The longest JSON text any surface parses: 16 MiB.
pub const MAX_DOCUMENT_BYTES: usize = 16 << 20;
/// The most values (containers, numbers, strings, ...) any parsed document holds, whatever its
/// game: about 100 MB as `serde_json::Value`s at worst.
pub const MAX_VALUES: usize = 1_000_000;
/// The deepest nesting of arrays and objects (serde_json's own bound).
pub const MAX_DEPTH: usize = 128;
/// Values a document holds besides its action log: the typed state, the start position and a
/// config with a replacement component file (the largest embedded one, 関ヶ原大作戦's, holds
/// 18,707; its positions about 4,200).
pub const COMPONENT_VALUES: usize = 65_536;
/// The longest array or object outside the action log (the largest in the embedded data and
/// positions holds 550 entries).
pub const COMPONENT_LEN: usize = 4_096;
/// Bytes of text allowed per value (the embedded component files use 12 to 17).
pub const BYTES_PER_VALUE: usize = 64;

/// Bounds on one JSON text: its length in bytes, the elements of any one array or object, and
/// the values of the whole document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub bytes: usize,
    pub len: usize,
    pub values: usize,
}

impl Limits {
    /// The bounds of any document, before its game is known.
    pub const ANY: Limits = Limits { bytes: MAX_DOCUMENT_BYTES, len: MAX_VALUES, values: MAX_VALUES };

    /// The bounds of a config, a position document or anything else without an action log.
    pub const COMPONENTS: Limits = Limits::with_log(0);

    const fn with_log(log: usize) -> Limits {
        let mut values = log.saturating_add(COMPONENT_VALUES);
        if values > MAX_VALUES {
            values = MAX_VALUES;
        }
        let mut len = if log > COMPONENT_LEN { log } else { COMPONENT_LEN };
        if len > values {
            len = values;
        }
        let mut bytes = values.saturating_mul(BYTES_PER_VALUE);
        if bytes > MAX_DOCUMENT_BYTES {
            bytes = MAX_DOCUMENT_BYTES;
        }
        Limits { bytes, len, values }
    }

    /// The bounds of a saved state of `game`: an action log of up to `max_game_length` ids.
    pub fn saved(game: &GameInfo) -> Limits {
        Limits::with_log(game.max_game_length as usize)
    }

    /// The bounds of a position document of `game` (no action log).
    pub fn position(_game: &GameInfo) -> Limits {
        Limits::COMPONENTS
    }

    /// Checks a parsed value against the limits on elements and values (a document given as a
    /// value, not as text: a Python dict, a Rust caller's `Value`).
    pub fn check_value(&self, v: &Value) -> Result<(), LoadError> {
        let mut values = 0usize;
        let mut todo = vec![v];
        while let Some(v) = todo.pop() {
            values += 1;
            let n = match v {
                Value::Array(a) => {
                    todo.extend(a.iter());
                    a.len()
                }
                Value::Object(m) => {
                    todo.extend(m.values());
                    m.len()
                }
                _ => 0,
            };
            if n > self.len {
                return Err(self.too_long());
            }
            if values > self.values {
                return Err(self.too_many());
            }
        }
        Ok(())
    }

    fn too_long(&self) -> LoadError {
        LoadError::TooLarge(format!("an array or object holds more than {} elements", self.len))
    }

    fn too_many(&self) -> LoadError {
        LoadError::TooLarge(format!("the document holds more than {} values", self.values))
    }
}

/// Checks JSON text against `limits` without allocating: its length, the elements of each
/// array and object (counted by their commas) and the values of the whole text. Nesting
/// deeper than [`MAX_DEPTH`] is `MalformedJson`, as serde_json reports it. The text need not
/// be valid JSON: the parse that follows reports what is malformed.
pub fn scan(text: &str, limits: &Limits) -> Result<(), LoadError> {
    if text.len() > limits.bytes {
        return Err(LoadError::TooLarge(format!("{} bytes of json text, at most {}", text.len(), limits.bytes)));
    }
    let b = text.as_bytes();
    // The commas seen so far in each open container (its elements are at most one more).
    let mut commas = [0usize; MAX_DEPTH + 1];
    let mut depth = 0usize;
    // Containers and commas: a text holds at most one value more.
    let mut values = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(LoadError::MalformedJson(format!("nested more than {MAX_DEPTH} levels deep")));
                }
                commas[depth] = 0;
                values += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' => {
                commas[depth] += 1;
                if commas[depth] >= limits.len {
                    return Err(limits.too_long());
                }
                values += 1;
            }
            _ => {}
        }
        if values >= limits.values {
            return Err(limits.too_many());
        }
        i += 1;
    }
    Ok(())
}

/// Parses JSON text after [`scan`] accepted it.
pub fn parse(text: &str, limits: &Limits) -> Result<Value, LoadError> {
    scan(text, limits)?;
    serde_json::from_str(text).map_err(|e| LoadError::MalformedJson(e.to_string()))
}

// === Quoting input in messages ===

/// The most bytes of caller input an error message quotes.
pub const QUOTE_BYTES: usize = 200;

/// The longest message the C and Python boundaries pass on (a message is cut there if a
/// quote was missed).
pub const MESSAGE_BYTES: usize = 1024;

/// `text` cut to at most `max` bytes at a UTF-8 boundary, with a note of its full length when
/// it was cut.
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}... ({} bytes)", &text[..end], text.len()))
}

/// `text` as a quoted, escaped string (`{:?}`), cut to about [`QUOTE_BYTES`] bytes.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(QUOTE_BYTES) + 2);
    out.push('"');
    for c in text.chars() {
        if out.len() >= QUOTE_BYTES {
            let _ = write!(out, "\"... ({} bytes)", text.len());
            return out;
        }
        let _ = write!(out, "{}", c.escape_debug());
    }
    out.push('"');
    out
}

/// A JSON value as compact text, cut to about [`QUOTE_BYTES`] bytes; a huge value is never
/// written out in full.
pub fn json(v: &Value) -> String {
    struct Bounded(String);
    impl std::io::Write for Bounded {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0.len() > QUOTE_BYTES {
                return Err(std::io::Error::other("long enough"));
            }
            self.0.push_str(&String::from_utf8_lossy(buf));
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = Bounded(String::new());
    match serde_json::to_writer(&mut w, v) {
        Ok(()) => w.0,
        Err(_) => {
            let mut end = QUOTE_BYTES.min(w.0.len());
            while !w.0.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}...", &w.0[..end])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<(), LoadError>) -> Option<crate::ErrorCode> {
        r.err().map(|e| e.code())
    }

    #[test]
    fn scan_rejects_a_long_array_before_parsing() {
        let text = format!("[{}0]", "0,".repeat(8_000_000));
        assert_eq!(code(scan(&text, &Limits::ANY)), Some(crate::ErrorCode::DocumentTooLarge));
        let mut small = Limits::COMPONENTS;
        assert_eq!(code(scan("[0,0,0]", &small)), None);
        small.len = 3;
        assert_eq!(code(scan("[0,0,0]", &small)), None);
        assert_eq!(code(scan("[0,0,0,0]", &small)), Some(crate::ErrorCode::DocumentTooLarge));
        // Commas inside strings are not elements; escaped quotes do not end a string.
        assert_eq!(code(scan(r#"["a,b,c,d,\",e,f"]"#, &small)), None);
        assert_eq!(code(scan(r#"{"a":1,"b":2,"c":3,"d":4}"#, &small)), Some(crate::ErrorCode::DocumentTooLarge));
    }

    #[test]
    fn scan_counts_values_across_arrays() {
        let limits = Limits { bytes: 1 << 20, len: 10, values: 100 };
        let many = format!("[{}]", ["[0,0,0,0,0]"; 30].join(","));
        assert_eq!(code(scan(&many, &limits)), Some(crate::ErrorCode::DocumentTooLarge));
        let few = format!("[{}]", ["[0,0,0,0,0]"; 9].join(","));
        assert_eq!(code(scan(&few, &limits)), None);
        assert!(limits.check_value(&serde_json::from_str(&few).unwrap()).is_ok());
        assert!(limits.check_value(&serde_json::from_str(&many).unwrap()).is_err());
    }

    #[test]
    fn scan_bounds_bytes_and_depth() {
        let limits = Limits { bytes: 10, len: 10, values: 10 };
        assert_eq!(code(scan("\"0123456789\"", &limits)), Some(crate::ErrorCode::DocumentTooLarge));
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(code(scan(&deep, &Limits::ANY)), Some(crate::ErrorCode::MalformedJson));
        assert_eq!(code(scan(&"[".repeat(MAX_DEPTH), &Limits::ANY)), None);
    }

    #[test]
    fn game_limits_leave_room_for_the_log_and_the_components() {
        let game = crate::load_game("samurai", None).unwrap();
        let info = game.info();
        let saved = Limits::saved(info);
        assert_eq!(saved.values, info.max_game_length as usize + COMPONENT_VALUES);
        assert!(saved.len >= info.max_game_length as usize);
        assert!(saved.bytes <= MAX_DOCUMENT_BYTES);
        assert!(Limits::position(info).values < saved.values);
    }

    #[test]
    fn quotes_are_cut_at_a_char_boundary() {
        assert_eq!(quote("ab\"c"), "\"ab\\\"c\"");
        let long = "合".repeat(1_000_000);
        let q = quote(&long);
        assert!(q.len() < QUOTE_BYTES + 64, "{}", q.len());
        assert!(q.starts_with("\"合合") && q.ends_with("合\"... (3000000 bytes)"), "{q}");
        let c = cut(&long, 100);
        assert!(c.len() < 140 && c.starts_with("合合"));
        assert_eq!(cut("short", 100), "short");
        let v = Value::Array(vec![Value::from(0); 1_000_000]);
        assert!(json(&v).len() < QUOTE_BYTES + 32);
        assert_eq!(json(&serde_json::json!({"players": 2})), r#"{"players":2}"#);
    }
}
