//! The body of an event: a flat JSON object held without allocating.
//!
//! Keys are `&'static str` written at the emit site; the [`event!`] macro sorts them when the
//! crate compiles (byte order, the order of a `serde_json` map), so a body serializes and
//! encodes in that order without sorting at run time. Values are scalars and `&'static str`
//! held inline; text a game formats, and nested arrays and objects, are the only allocations.

use std::fmt;
use std::ops::Index;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// The most fields one event body holds (checked by `event!` when the crate compiles).
pub const MAX_FIELDS: usize = 13;

/// One value of a body. Numbers are held as `serde_json` holds them: a non-negative integer
/// as `U64`, a negative one as `I64`, anything else as `F64`; arrays and objects as `Json`.
#[derive(Clone, Debug, Default)]
pub enum Field {
    #[default]
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(&'static str),
    Text(Box<str>),
    Json(Box<Value>),
}

const NULL: Field = Field::Null;

impl Field {
    /// `v` in the form a `serde_json::Value` of it would take.
    pub fn json(v: Value) -> Field {
        match v {
            Value::Null => Field::Null,
            Value::Bool(b) => Field::Bool(b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => Field::U64(u),
                (None, Some(i)) => Field::I64(i),
                _ => n.as_f64().map_or(Field::Null, Field::F64),
            },
            Value::String(t) => Field::Text(t.into_boxed_str()),
            other => Field::Json(Box::new(other)),
        }
    }

    /// An integer as `serde_json` holds it: `U64` when it is not negative, else `I64`.
    fn int(i: i128) -> Field {
        if i >= 0 {
            Field::U64(i as u64)
        } else {
            Field::I64(i as i64)
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Field::Str(t) => Some(t),
            Field::Text(t) => Some(t),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Field::U64(u) => Some(*u),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Field::U64(u) => i64::try_from(*u).ok(),
            Field::I64(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Field::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Field::Null)
    }

    /// The value as a `serde_json::Value`.
    pub fn to_value(&self) -> Value {
        match self {
            Field::Null => Value::Null,
            Field::Bool(b) => Value::Bool(*b),
            Field::U64(u) => Value::from(*u),
            Field::I64(i) => Value::from(*i),
            Field::F64(f) => Value::from(*f),
            Field::Str(t) => Value::from(*t),
            Field::Text(t) => Value::from(&**t),
            Field::Json(v) => (**v).clone(),
        }
    }

    /// Appends the key encoding of the value: the bytes `Event::encode_key` writes for the
    /// equal `serde_json::Value`.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Field::Null => out.push(0),
            Field::Bool(b) => out.push(1 + *b as u8),
            Field::U64(u) => {
                out.push(3);
                out.extend_from_slice(&u.to_le_bytes());
            }
            Field::I64(i) => {
                out.push(4);
                out.extend_from_slice(&i.to_le_bytes());
            }
            Field::F64(f) => {
                out.push(5);
                out.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Field::Str(t) => super::encode_str(t, out),
            Field::Text(t) => super::encode_str(t, out),
            Field::Json(v) => super::encode_value(v, out),
        }
    }
}

/// Fields are equal when their JSON values are (a `Str` and a `Text` of the same text).
impl PartialEq for Field {
    fn eq(&self, other: &Field) -> bool {
        match (self, other) {
            (Field::Null, Field::Null) => true,
            (Field::Bool(a), Field::Bool(b)) => a == b,
            (Field::U64(a), Field::U64(b)) => a == b,
            (Field::I64(a), Field::I64(b)) => a == b,
            (Field::F64(a), Field::F64(b)) => a == b,
            (Field::Json(a), Field::Json(b)) => a == b,
            _ => matches!((self.as_str(), other.as_str()), (Some(a), Some(b)) if a == b),
        }
    }
}

impl PartialEq<str> for Field {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Field {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Null => s.serialize_unit(),
            Field::Bool(b) => s.serialize_bool(*b),
            Field::U64(u) => s.serialize_u64(*u),
            Field::I64(i) => s.serialize_i64(*i),
            Field::F64(f) => s.serialize_f64(*f),
            Field::Str(t) => s.serialize_str(t),
            Field::Text(t) => s.serialize_str(t),
            Field::Json(v) => v.serialize(s),
        }
    }
}

static NULL_VALUE: Value = Value::Null;

/// `field[i]` indexes a nested array as `Value` does (null when there is none).
impl Index<usize> for Field {
    type Output = Value;
    fn index(&self, i: usize) -> &Value {
        match self {
            Field::Json(v) => &v[i],
            _ => &NULL_VALUE,
        }
    }
}

/// `field["key"]` indexes a nested object as `Value` does (null when there is none).
impl Index<&str> for Field {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        match self {
            Field::Json(v) => &v[key],
            _ => &NULL_VALUE,
        }
    }
}

/// The value as compact JSON text (as a `serde_json::Value` displays).
impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

/// A value an event field can hold, taken by reference as `serde_json::json!` takes it.
pub trait ToField {
    fn to_field(&self) -> Field;
}

macro_rules! integer_fields {
    ($($t:ty),*) => {$(
        impl ToField for $t {
            fn to_field(&self) -> Field {
                // Every integer type here fits in an i128 exactly.
                Field::int(*self as i128)
            }
        }
    )*};
}

integer_fields!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl ToField for bool {
    fn to_field(&self) -> Field {
        Field::Bool(*self)
    }
}

impl ToField for f64 {
    /// `serde_json` holds a NaN or an infinity as null.
    fn to_field(&self) -> Field {
        if self.is_finite() {
            Field::F64(*self)
        } else {
            Field::Null
        }
    }
}

impl ToField for &'static str {
    fn to_field(&self) -> Field {
        Field::Str(self)
    }
}

/// Text borrowed from the game (its data, a parameter): the body keeps a copy.
/// `&'static str` needs no wrapper and is not copied.
pub struct Copied<'a>(&'a str);

pub fn text(t: &str) -> Copied<'_> {
    Copied(t)
}

impl ToField for Copied<'_> {
    fn to_field(&self) -> Field {
        Field::Text(self.0.into())
    }
}

impl ToField for String {
    fn to_field(&self) -> Field {
        Field::Text(self.as_str().into())
    }
}

impl ToField for char {
    fn to_field(&self) -> Field {
        Field::Text(self.to_string().into_boxed_str())
    }
}

impl ToField for Value {
    fn to_field(&self) -> Field {
        Field::json(self.clone())
    }
}

impl<T: ToField + ?Sized> ToField for &T {
    fn to_field(&self) -> Field {
        (**self).to_field()
    }
}

impl<T: ToField> ToField for Option<T> {
    fn to_field(&self) -> Field {
        self.as_ref().map_or(Field::Null, T::to_field)
    }
}

/// `v` as `serde_json` would hold it: how lists and a game's own records become fields
/// (they allocate, as nested values may).
fn serde_field<T: Serialize + ?Sized>(v: &T) -> Field {
    Field::json(serde_json::to_value(v).expect("event values serialize"))
}

/// A game's own record, held as `serde_json` would hold it.
pub struct Serialized<'a, T: ?Sized>(&'a T);

pub fn serialized<T: Serialize + ?Sized>(v: &T) -> Serialized<'_, T> {
    Serialized(v)
}

impl<T: Serialize + ?Sized> ToField for Serialized<'_, T> {
    fn to_field(&self) -> Field {
        serde_field(self.0)
    }
}

impl<T: Serialize> ToField for Vec<T> {
    fn to_field(&self) -> Field {
        serde_field(self)
    }
}

impl<T: Serialize> ToField for [T] {
    fn to_field(&self) -> Field {
        serde_field(self)
    }
}

impl<T: Serialize, const N: usize> ToField for [T; N]
where
    [T; N]: Serialize,
{
    fn to_field(&self) -> Field {
        serde_field(self)
    }
}

/// The keys of one emit site: as written, and the order that sorts them (built by [`event!`]).
#[doc(hidden)]
pub struct Keys<const N: usize> {
    written: [&'static str; N],
    sorted: [u8; N],
}

impl<const N: usize> Keys<N> {
    /// Sorts `written` by bytes; fails to compile on a repeated key or too many keys.
    pub const fn new(written: [&'static str; N]) -> Keys<N> {
        assert!(N <= MAX_FIELDS, "an event body holds at most MAX_FIELDS fields");
        let mut sorted = [0u8; N];
        let mut i = 0;
        while i < N {
            sorted[i] = i as u8;
            let mut j = i;
            while j > 0 && before(written[sorted[j] as usize], written[sorted[j - 1] as usize]) {
                let t = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = t;
                j -= 1;
            }
            i += 1;
        }
        let mut k = 1;
        while k < N {
            assert!(before(written[sorted[k - 1] as usize], written[sorted[k] as usize]), "a key is repeated in an event body");
            k += 1;
        }
        Keys { written, sorted }
    }
}

/// Whether `a` sorts strictly before `b` by bytes.
const fn before(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// A flat JSON object: the keys of its emit site and the values, in the order written.
#[derive(Clone)]
pub struct Body {
    keys: &'static [&'static str],
    sorted: &'static [u8],
    values: [Field; MAX_FIELDS],
}

impl Body {
    /// The body with `keys` and `values` (built by [`event!`]).
    #[doc(hidden)]
    pub fn new<const N: usize>(keys: &'static Keys<N>, values: [Field; N]) -> Body {
        let mut all = [NULL; MAX_FIELDS];
        for (slot, v) in all.iter_mut().zip(values) {
            *slot = v;
        }
        Body { keys: &keys.written, sorted: &keys.sorted, values: all }
    }

    /// The fields in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &Field)> + '_ {
        self.sorted.iter().map(|&i| (self.keys[i as usize], &self.values[i as usize]))
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn get(&self, key: &str) -> Option<&Field> {
        self.keys.iter().position(|k| *k == key).map(|i| &self.values[i])
    }

    /// The body as a `serde_json::Value` (an object).
    pub fn to_value(&self) -> Value {
        Value::Object(self.iter().map(|(k, v)| (k.to_string(), v.to_value())).collect::<Map<_, _>>())
    }

    /// Appends the key encoding of the body: the bytes `Event::encode_key` writes for the
    /// equal `serde_json::Value` object.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        out.push(8);
        super::encode_len(self.len(), out);
        for (k, v) in self.iter() {
            super::encode_len(k.len(), out);
            out.extend_from_slice(k.as_bytes());
            v.encode(out);
        }
    }
}

/// `body["key"]` is the field, or null when the body has no such key (as on a `Value`).
impl Index<&str> for Body {
    type Output = Field;
    fn index(&self, key: &str) -> &Field {
        self.get(key).unwrap_or(&NULL)
    }
}

impl PartialEq for Body {
    fn eq(&self, other: &Body) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Body {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// An event body with `serde_json::json!`'s syntax for a flat object:
/// `event!({"kind": "place", "seat": seat, "at": {"hex": h}})`. Values are taken by
/// reference ([`ToField`]); nested `{...}` and `[...]` are built by `json!`.
///
/// ```
/// use kassen_core::event;
/// use kassen_core::events::text;
///
/// let (seat, name) = (2usize, String::from("Guan Yu"));
/// let body = event!({"kind": "place", "seat": seat, "general": text(&name), "at": {"hex": 7}, "unit": null});
/// assert_eq!(body["kind"], "place");
/// let json = r#"{"at":{"hex":7},"general":"Guan Yu","kind":"place","seat":2,"unit":null}"#;
/// assert_eq!(serde_json::to_string(&body).unwrap(), json);
/// ```
#[macro_export]
macro_rules! event {
    ({ $($body:tt)* }) => {
        $crate::event!(@fields [] $($body)*)
    };
    (@fields [$($done:tt)*]) => {
        $crate::event!(@body $($done)*)
    };
    (@fields [$($done:tt)*] $key:literal : { $($obj:tt)* } $(, $($rest:tt)*)?) => {
        $crate::event!(@fields [$($done)* ($key, $crate::events::Field::json($crate::events::nested_json!({ $($obj)* })))] $($($rest)*)?)
    };
    (@fields [$($done:tt)*] $key:literal : [ $($items:tt)* ] $(, $($rest:tt)*)?) => {
        $crate::event!(@fields [$($done)* ($key, $crate::events::Field::json($crate::events::nested_json!([ $($items)* ])))] $($($rest)*)?)
    };
    (@fields [$($done:tt)*] $key:literal : null $(, $($rest:tt)*)?) => {
        $crate::event!(@fields [$($done)* ($key, $crate::events::Field::Null)] $($($rest)*)?)
    };
    (@fields [$($done:tt)*] $key:literal : $value:expr $(, $($rest:tt)*)?) => {
        $crate::event!(@fields [$($done)* ($key, $crate::events::ToField::to_field(&$value))] $($($rest)*)?)
    };
    (@body $(($key:literal, $value:expr))*) => {{
        static KEYS: $crate::events::Keys<{ [$($key),*].len() }> = $crate::events::Keys::new([$($key),*]);
        $crate::events::Body::new(&KEYS, [$($value),*])
    }};
}

/// `json!` for the nested values of [`event!`], which games outside this crate may use too.
#[doc(hidden)]
pub use serde_json::json as nested_json;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_sort_by_bytes() {
        let body = event!({"kind": "x", "b": 1, "a": -2, "B": true, "ab": null, "aa": 1.5});
        let keys: Vec<&str> = body.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["B", "a", "aa", "ab", "b", "kind"]);
        assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"B":true,"a":-2,"aa":1.5,"ab":null,"b":1,"kind":"x"}"#);
    }

    #[test]
    fn values_take_serde_json_forms() {
        let owned = String::from("txt");
        let none: Option<u8> = None;
        let body = event!({"kind": "k", "u": 3u8, "i": -3i32, "p": 3i32, "s": owned, "o": Some("x"), "n": none,
                           "v": vec![1, 2], "arr": [1, 2], "obj": {"a": [1, {"b": 2}]}, "nan": f64::NAN});
        let value = json!({"kind": "k", "u": 3u8, "i": -3i32, "p": 3i32, "s": owned, "o": Some("x"), "n": none,
                           "v": vec![1, 2], "arr": [1, 2], "obj": {"a": [1, {"b": 2}]}, "nan": f64::NAN});
        assert_eq!(body.to_value(), value);
        assert_eq!(serde_json::to_string(&body).unwrap(), value.to_string());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        body.encode(&mut a);
        super::super::encode_value(&value, &mut b);
        assert_eq!(a, b);
        assert_eq!(body["kind"], "k");
        assert!(body["missing"].is_null());
        assert_eq!(body["p"], Field::U64(3));
        assert_eq!(body["i"].as_i64(), Some(-3));
    }
}
