//! Positions written by name (docs/positions.md, "Named positions"): the typed state's JSON
//! with every index into the component data (a place, a piece, a card, a seat) written as the
//! name the rulebook prints, and every flag set as a list of words.
//!
//! A game describes the fields that hold indices as a [`Conv`] tree over its state's serde
//! form ([`crate::game::Game::position_names`]); [`to_named`] and [`from_named`] walk it. Every
//! field the tree does not name stays as it is in the typed form, so the conversion is an
//! identity on them, and the conformance suite checks the round trip on every state of its
//! random games. An unknown name is an error that names it and the nearest valid names.

use serde_json::{Map, Value};

use crate::input;

/// The names of one index space (the places, the pieces, the card types, the seats, ...).
#[derive(Clone, Debug)]
pub struct Space {
    /// What an entry is, for messages ("place", "block").
    pub what: &'static str,
    /// The name of each index, unique within the space.
    pub names: Vec<String>,
    /// Other accepted spellings of an index (data ids, kanji), read but never written.
    pub aliases: Vec<(String, u64)>,
    /// Values beyond the names with a name of their own (a bag, the dead pile), read and written.
    pub extra: Vec<(u64, String)>,
    /// The value written as `null` (a `NONE` sentinel), if the space has one.
    pub none: Option<u64>,
}

impl Space {
    /// A space of `names`; where two entries share a name, each is written as `alt` of it
    /// (the component data's id), and both spellings are read.
    pub fn new(what: &'static str, names: Vec<String>, alt: Vec<String>) -> Space {
        let mut out = Vec::with_capacity(names.len());
        let mut aliases = Vec::new();
        for (i, n) in names.iter().enumerate() {
            let shared = names.iter().filter(|m| *m == n).count() > 1;
            let name = if shared { alt[i].clone() } else { n.clone() };
            if alt.get(i).is_some_and(|a| *a != name) {
                aliases.push((alt[i].clone(), i as u64));
            }
            out.push(name);
        }
        Space { what, names: out, aliases, extra: Vec::new(), none: None }
    }

    /// Names without other spellings.
    pub fn plain(what: &'static str, names: impl IntoIterator<Item = impl Into<String>>) -> Space {
        Space { what, names: names.into_iter().map(Into::into).collect(), aliases: Vec::new(), extra: Vec::new(), none: None }
    }

    /// With `value` written as `null`.
    pub fn or_none(mut self, value: u64) -> Space {
        self.none = Some(value);
        self
    }

    /// With another accepted spelling of `value`.
    pub fn alias(mut self, name: impl Into<String>, value: u64) -> Space {
        self.aliases.push((name.into(), value));
        self
    }

    /// With one more named value beyond the names.
    pub fn with(mut self, value: u64, name: &str) -> Space {
        self.extra.push((value, name.to_string()));
        self
    }

    /// The name of `value` (`null` for the none value); a value without a name stays a number.
    pub fn name(&self, value: u64) -> Value {
        if self.none == Some(value) {
            return Value::Null;
        }
        if let Some(n) = self.names.get(value as usize) {
            return Value::String(n.clone());
        }
        match self.extra.iter().find(|(v, _)| *v == value) {
            Some((_, n)) => Value::String(n.clone()),
            None => Value::from(value),
        }
    }

    /// The value a name stands for.
    pub fn value(&self, v: &Value) -> Result<u64, String> {
        match v {
            Value::Null => self.none.ok_or_else(|| format!("a {} is required here, got null", self.what)),
            Value::String(s) => self.lookup(s),
            other => Err(format!("a {} must be written by name, got {}", self.what, input::json(other))),
        }
    }

    /// The index of name `s`, or an error that names the nearest valid names.
    pub fn lookup(&self, s: &str) -> Result<u64, String> {
        if let Some(i) = self.names.iter().position(|n| n == s) {
            return Ok(i as u64);
        }
        if let Some((v, _)) = self.extra.iter().find(|(_, n)| n == s) {
            return Ok(*v);
        }
        if let Some((_, v)) = self.aliases.iter().find(|(n, _)| n == s) {
            return Ok(*v);
        }
        let all: Vec<&str> = self.names.iter().chain(self.extra.iter().map(|(_, n)| n)).map(String::as_str).collect();
        Err(format!("unknown {} {}; nearest: {}", self.what, input::quote(s), nearest(s, &all).join(", ")))
    }
}

/// A data id as a name: `"toyotomi_hideyori"` -> `"Toyotomi Hideyori"`.
pub fn title_words(id: &str) -> String {
    id.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The (up to) three names closest to `s` by edit distance, case folded, quoted.
pub fn nearest(s: &str, names: &[&str]) -> Vec<String> {
    let key: Vec<char> = s.to_lowercase().chars().take(64).collect();
    let mut scored: Vec<(usize, usize, &str)> =
        names.iter().enumerate().map(|(i, n)| (distance(&key, &n.to_lowercase().chars().collect::<Vec<_>>()), i, *n)).collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, _, n)| input::quote(n)).collect()
}

/// Levenshtein distance.
fn distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// How one field of the typed form is written by name. A conversion meets `null` (an
/// `Option` that is `None`) and values of another shape (another enum variant) by leaving them
/// as they are.
#[derive(Clone, Debug)]
pub enum Conv {
    /// An index: its name.
    Index(Space),
    /// An array with one entry per index of the space: an object from name to the entry
    /// (converted by the inner conversion), where entries equal to `default` (typed) are left out.
    Keyed(Space, Option<Value>, Box<Conv>),
    /// A bit set over the space (`bit i` = index `i`), a number: the list of names.
    Bits(Space),
    /// A bit set of up to 128 as a decimal string (JSON numbers stop at 64 bits): the list of names.
    BigBits(Space),
    /// Two indices packed in one number (`hi << shift | lo`): the pair of names.
    Pair(u32, Space, Space),
    /// Bit flags: the list of the words of the bits set.
    Flags(Vec<(u64, &'static str)>),
    /// An array: each element converted.
    Each(Box<Conv>),
    /// An object (or an externally tagged enum variant): the named fields converted.
    Fields(Vec<(&'static str, Conv)>),
    /// A tuple (a JSON array): element `i` converted by conversion `i`.
    Tuple(Vec<Conv>),
    /// Pieces in places: an array with one object per piece (space `pieces`), whose field
    /// `place_field` is an index into `places`, becomes `{group: {place: [piece, ...]}}` with
    /// the group of each piece given (its side). A piece whose other fields equal `plain`
    /// (typed, one per piece) is written as its name; another as `{"<what>": name, field: value,
    /// ...}` with its fields converted by `rest` and those equal to `plain`'s left out.
    Placed { pieces: Space, groups: Vec<String>, place_field: &'static str, places: Space, plain: Vec<Value>, rest: Box<Conv> },
    /// Left as it is.
    Same,
}

/// The typed form `v` written by name.
pub fn to_named(conv: &Conv, v: &Value) -> Value {
    match (conv, v) {
        (_, Value::Null) | (Conv::Same, _) => v.clone(),
        (Conv::Index(space), Value::Number(n)) => n.as_u64().map_or_else(|| v.clone(), |x| space.name(x)),
        (Conv::Keyed(space, default, inner), Value::Array(a)) => {
            let mut out = Map::new();
            for (i, x) in a.iter().enumerate() {
                if default.as_ref() != Some(x) {
                    out.insert(space.names.get(i).cloned().unwrap_or_else(|| i.to_string()), to_named(inner, x));
                }
            }
            Value::Object(out)
        }
        (Conv::Bits(space), Value::Number(n)) => {
            let bits = n.as_u64().unwrap_or(0);
            Value::Array((0..64).filter(|i| bits >> i & 1 == 1).map(|i| space.name(i)).collect())
        }
        (Conv::BigBits(space), Value::String(t)) => match t.parse::<u128>() {
            Ok(bits) => Value::Array((0..128).filter(|i| bits >> i & 1 == 1).map(|i| space.name(i)).collect()),
            Err(_) => v.clone(),
        },
        (Conv::Pair(shift, hi, lo), Value::Number(n)) => match n.as_u64() {
            Some(x) => Value::Array(vec![hi.name(x >> shift), lo.name(x & ((1 << shift) - 1))]),
            None => v.clone(),
        },
        (Conv::Flags(words), Value::Number(n)) => {
            let bits = n.as_u64().unwrap_or(0);
            let mut out: Vec<Value> = words.iter().filter(|(b, _)| bits & b != 0).map(|(_, w)| Value::from(*w)).collect();
            let rest = bits & !words.iter().fold(0, |m, (b, _)| m | b);
            if rest != 0 {
                out.push(Value::from(rest));
            }
            Value::Array(out)
        }
        (Conv::Each(inner), Value::Array(a)) => Value::Array(a.iter().map(|x| to_named(inner, x)).collect()),
        (Conv::Tuple(convs), Value::Array(a)) => {
            Value::Array(a.iter().enumerate().map(|(i, x)| convs.get(i).map_or_else(|| x.clone(), |c| to_named(c, x))).collect())
        }
        (Conv::Fields(fields), Value::Object(o)) => {
            let mut out = o.clone();
            for (k, c) in fields {
                if let Some(x) = o.get(*k) {
                    out.insert(k.to_string(), to_named(c, x));
                }
            }
            Value::Object(out)
        }
        (Conv::Placed { pieces, groups, place_field, places, plain, rest }, Value::Array(a)) => {
            let mut out = Map::new();
            for g in groups {
                out.entry(g.clone()).or_insert_with(|| Value::Object(Map::new()));
            }
            for (i, x) in a.iter().enumerate() {
                let place = match places.name(x.get(*place_field).and_then(Value::as_u64).unwrap_or(u64::MAX)) {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                let mut others = x.as_object().cloned().unwrap_or_default();
                others.remove(*place_field);
                let name = pieces.names.get(i).cloned().unwrap_or_else(|| i.to_string());
                let plain = plain.get(i).unwrap_or(&Value::Null);
                let entry = if Value::Object(others.clone()) == *plain {
                    Value::String(name)
                } else {
                    let mut e = Map::new();
                    e.insert(pieces.what.to_string(), Value::String(name));
                    let named = to_named(rest, &Value::Object(others.clone()));
                    for (k, val) in named.as_object().into_iter().flatten() {
                        if plain.get(k) != others.get(k) {
                            e.insert(k.clone(), val.clone());
                        }
                    }
                    Value::Object(e)
                };
                let group = groups.get(i).cloned().unwrap_or_default();
                let g = out.entry(group).or_insert_with(|| Value::Object(Map::new()));
                let list = g.as_object_mut().expect("a group object").entry(place).or_insert_with(|| Value::Array(Vec::new()));
                list.as_array_mut().expect("a place list").push(entry);
            }
            Value::Object(out)
        }
        _ => v.clone(),
    }
}

/// The typed form of the named form `v`: the inverse of [`to_named`]; `at` is the field path
/// for messages.
pub fn from_named(conv: &Conv, v: &Value, at: &str) -> Result<Value, String> {
    let here = |e: String| format!("{at}: {e}");
    Ok(match (conv, v) {
        (Conv::Same, _) => v.clone(),
        (Conv::Index(space), _) => match v {
            Value::Number(_) => v.clone(),
            Value::Null if space.none.is_none() => Value::Null,
            _ => Value::from(space.value(v).map_err(here)?),
        },
        (_, Value::Null) => Value::Null,
        (Conv::Keyed(space, default, inner), Value::Object(o)) => {
            let mut out: Vec<Option<Value>> = vec![default.clone(); space.names.len()];
            for (k, x) in o {
                let i = space.lookup(k).map_err(here)? as usize;
                let slot = out.get_mut(i).ok_or_else(|| here(format!("{} is no entry here", input::quote(k))))?;
                *slot = Some(from_named(inner, x, &format!("{at}.{k}"))?);
            }
            let missing: Vec<&str> = out.iter().zip(&space.names).filter(|(x, _)| x.is_none()).map(|(_, n)| n.as_str()).collect();
            if !missing.is_empty() {
                return Err(here(format!("missing {} {}", space.what, missing.join(", "))));
            }
            Value::Array(out.into_iter().flatten().collect())
        }
        (Conv::Bits(space) | Conv::BigBits(space), Value::Array(a)) => {
            let big = matches!(conv, Conv::BigBits(_));
            let mut bits = 0u128;
            for x in a {
                let i = space.value(x).map_err(here)?;
                if i >= 128 {
                    return Err(here(format!("{} cannot be in this set", input::json(x))));
                }
                bits |= 1 << i;
            }
            if big {
                Value::String(bits.to_string())
            } else {
                u64::try_from(bits).map(Value::from).map_err(|_| here("a set of more than 64".into()))?
            }
        }
        (Conv::Pair(shift, hi, lo), Value::Array(a)) if a.len() == 2 => {
            let (h, l) = (hi.value(&a[0]).map_err(here)?, lo.value(&a[1]).map_err(here)?);
            if l >= 1 << shift {
                return Err(here(format!("{} cannot be packed here", input::json(&a[1]))));
            }
            Value::from(h << shift | l)
        }
        (Conv::Flags(words), Value::Array(a)) => {
            let mut bits = 0u64;
            for x in a {
                bits |= match x {
                    Value::String(s) => words.iter().find(|(_, w)| w == s).map(|(b, _)| *b).ok_or_else(|| {
                        let all: Vec<&str> = words.iter().map(|(_, w)| *w).collect();
                        here(format!("unknown flag {}; nearest: {}", input::quote(s), nearest(s, &all).join(", ")))
                    })?,
                    other => other.as_u64().ok_or_else(|| here(format!("a flag must be a word, got {}", input::json(other))))?,
                };
            }
            Value::from(bits)
        }
        (Conv::Each(inner), Value::Array(a)) => {
            Value::Array(a.iter().enumerate().map(|(i, x)| from_named(inner, x, &format!("{at}[{i}]"))).collect::<Result<_, _>>()?)
        }
        (Conv::Tuple(convs), Value::Array(a)) => Value::Array(
            a.iter()
                .enumerate()
                .map(|(i, x)| convs.get(i).map_or_else(|| Ok(x.clone()), |c| from_named(c, x, &format!("{at}[{i}]"))))
                .collect::<Result<_, _>>()?,
        ),
        (Conv::Fields(fields), Value::Object(o)) => {
            let mut out = o.clone();
            for (k, c) in fields {
                if let Some(x) = o.get(*k) {
                    out.insert(k.to_string(), from_named(c, x, &join(at, k))?);
                }
            }
            Value::Object(out)
        }
        (Conv::Placed { pieces, groups, place_field, places, plain, rest }, Value::Object(o)) => {
            let mut out: Vec<Option<Value>> = vec![None; pieces.names.len()];
            for (group, by_place) in o {
                if !groups.contains(group) {
                    let all: Vec<&str> = groups.iter().map(String::as_str).collect();
                    return Err(here(format!("unknown side {}; nearest: {}", input::quote(group), nearest(group, &all).join(", "))));
                }
                let by_place = by_place.as_object().ok_or_else(|| here(format!("{group}: an object from place to pieces")))?;
                for (place, list) in by_place {
                    let at = format!("{at}.{group}.{place}");
                    let loc = places.lookup(place).map_err(|e| format!("{at}: {e}"))?;
                    let list = list.as_array().ok_or_else(|| format!("{at}: a list of {}s", pieces.what))?;
                    for entry in list {
                        let (name, fields) = match entry {
                            Value::String(n) => (n.as_str(), Map::new()),
                            Value::Object(e) => {
                                let n = e
                                    .get(pieces.what)
                                    .and_then(Value::as_str)
                                    .ok_or_else(|| format!("{at}: a {0} is its name or an object with the field \"{0}\"", pieces.what))?;
                                let mut f = e.clone();
                                f.remove(pieces.what);
                                (n, f)
                            }
                            other => return Err(format!("{at}: a {} is written by name, got {}", pieces.what, input::json(other))),
                        };
                        let i = pieces.lookup(name).map_err(|e| format!("{at}: {e}"))? as usize;
                        if groups.get(i) != Some(group) {
                            return Err(format!(
                                "{at}: {} belongs to {}",
                                input::quote(name),
                                groups.get(i).map_or("no side", String::as_str)
                            ));
                        }
                        let mut typed = plain.get(i).and_then(Value::as_object).cloned().unwrap_or_default();
                        let converted = from_named(rest, &Value::Object(fields.clone()), &format!("{at}.{name}"))?;
                        for (k, x) in converted.as_object().into_iter().flatten() {
                            if !typed.contains_key(k) {
                                return Err(format!("{at}: unknown field {} of {}", input::quote(k), input::quote(name)));
                            }
                            typed.insert(k.clone(), x.clone());
                        }
                        typed.insert(place_field.to_string(), Value::from(loc));
                        if out[i].replace(Value::Object(typed)).is_some() {
                            return Err(format!("{at}: {} is in two places", input::quote(name)));
                        }
                    }
                }
            }
            let missing: Vec<&str> = out.iter().zip(&pieces.names).filter(|(x, _)| x.is_none()).map(|(_, n)| n.as_str()).collect();
            if !missing.is_empty() {
                let shown: Vec<&str> = missing.iter().take(8).copied().collect();
                let more = if missing.len() > 8 { format!(" and {} more", missing.len() - 8) } else { String::new() };
                return Err(here(format!("every {} has a place; missing {}{more}", pieces.what, shown.join(", "))));
            }
            Value::Array(out.into_iter().flatten().collect())
        }
        _ => v.clone(),
    })
}

fn join(at: &str, k: &str) -> String {
    if at.is_empty() {
        k.to_string()
    } else {
        format!("{at}.{k}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn places() -> Space {
        Space::plain("place", ["Gifu", "Kyoto", "Osaka"]).or_none(255).with(100, "bag")
    }

    #[test]
    fn an_unknown_name_names_the_nearest() {
        let e = places().lookup("Gifuu").unwrap_err();
        assert!(e.starts_with("unknown place \"Gifuu\"; nearest: \"Gifu\""), "{e}");
    }

    #[test]
    fn every_conversion_round_trips() {
        let conv = Conv::Fields(vec![
            ("at", Conv::Index(places())),
            ("held", Conv::Keyed(places(), Some(json!(0)), Box::new(Conv::Same))),
            ("used", Conv::Bits(places())),
            ("flags", Conv::Flags(vec![(1, "moved"), (4, "in_castle")])),
            ("pairs", Conv::Each(Box::new(Conv::Tuple(vec![Conv::Index(places()), Conv::Same])))),
            (
                "blocks",
                Conv::Placed {
                    pieces: Space::plain("block", ["A", "B", "C"]),
                    groups: vec!["East".into(), "West".into(), "West".into()],
                    place_field: "loc",
                    places: places(),
                    plain: vec![json!({"flags": 0, "from": 255}); 3],
                    rest: Box::new(Conv::Fields(vec![("from", Conv::Index(places()))])),
                },
            ),
        ]);
        let typed = json!({
            "at": 255, "held": [0, 3, 0], "used": 5, "flags": 5, "pairs": [[2, 7]], "keep": "x",
            "blocks": [{"loc": 0, "flags": 0, "from": 255}, {"loc": 100, "flags": 1, "from": 1}, {"loc": 0, "flags": 0, "from": 255}],
        });
        let named = to_named(&conv, &typed);
        assert_eq!(
            named,
            json!({
                "at": null, "held": {"Kyoto": 3}, "used": ["Gifu", "Osaka"], "flags": ["moved", "in_castle"],
                "pairs": [["Osaka", 7]], "keep": "x",
                "blocks": {"East": {"Gifu": ["A"]}, "West": {"bag": [{"block": "B", "flags": 1, "from": "Kyoto"}], "Gifu": ["C"]}},
            })
        );
        assert_eq!(from_named(&conv, &named, "").unwrap(), typed);
        let mut missing = named.clone();
        missing["blocks"]["West"]["Gifu"] = json!([]);
        assert!(from_named(&conv, &missing, "").unwrap_err().contains("missing C"));
        let mut wrong = named;
        wrong["blocks"]["East"]["Gifu"] = json!(["C"]);
        assert!(from_named(&conv, &wrong, "").unwrap_err().contains("belongs to West"));
    }
}
