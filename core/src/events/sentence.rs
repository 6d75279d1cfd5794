//! Small helpers for the sentences games give their events ([`crate::Game::event_text`]).

use super::{Body, Field};

/// A snake_case id as words: `"develop_farm_or_harvest"` -> `"develop farm or harvest"`.
pub fn words(id: &str) -> String {
    id.replace('_', " ")
}

/// The text with its first letter in upper case.
pub fn capitalized(t: &str) -> String {
    let mut c = t.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A snake_case id as a title: `"tokugawa"` -> `"Tokugawa"`, `"no_move"` -> `"No move"`.
pub fn title(id: &str) -> String {
    capitalized(&words(id))
}

/// `n` and the noun, singular or plural: `count(1, "block", "blocks")` -> `"1 block"`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Items joined as a sentence lists them: `"a"`, `"a and b"`, `"a, b and c"`.
pub fn list(items: &[String]) -> String {
    match items {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Typed reads of body fields, with a visible placeholder where a field is missing.
pub trait Read {
    fn s(&self, key: &str) -> &str;
    fn n(&self, key: &str) -> u64;
    fn i(&self, key: &str) -> i64;
    fn flag(&self, key: &str) -> bool;
    fn has(&self, key: &str) -> bool;
}

impl Read for Body {
    fn s(&self, key: &str) -> &str {
        self[key].as_str().unwrap_or("?")
    }
    fn n(&self, key: &str) -> u64 {
        self[key].as_u64().unwrap_or(0)
    }
    fn i(&self, key: &str) -> i64 {
        self[key].as_i64().unwrap_or(0)
    }
    fn flag(&self, key: &str) -> bool {
        self[key].as_bool().unwrap_or(false)
    }
    fn has(&self, key: &str) -> bool {
        !matches!(self.get(key), None | Some(Field::Null))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentence_helpers() {
        assert_eq!(title("no_move"), "No move");
        assert_eq!(count(1, "block", "blocks"), "1 block");
        assert_eq!(count(3, "block", "blocks"), "3 blocks");
        assert_eq!(list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
        assert_eq!(list(&["a".into()]), "a");
    }
}
