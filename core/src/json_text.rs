//! Compact JSON text for views and event lists, written straight from `Serialize` values into
//! one pre-sized buffer.
//!
//! A view is many short pieces (struct keys, ids, small numbers, punctuation). This writer
//! appends each piece to one `String` in one inlined copy, without the `io::Write` plumbing and
//! per-fragment escaping of `serde_json`'s serializer, at about half its cost for the views.
//! The text is byte for byte what `serde_json::to_string` writes (compact form, the same
//! escapes, numbers formatted alike: floats are formatted by `serde_json` itself); the
//! conformance suite compares the two for every observer at every step of every game.

use std::fmt;

use serde::ser::{self, Serialize};

/// `value` as compact JSON text, the same bytes as `serde_json::to_string(value)`.
/// `capacity`: the expected length (a game's `max_view_bytes`, for instance).
pub fn to_string<T: Serialize + ?Sized>(value: &T, capacity: usize) -> Result<String, Error> {
    let mut w = Writer { out: String::with_capacity(capacity) };
    value.serialize(&mut w)?;
    Ok(w.out)
}

/// Why a value could not be written (a map key that is not a string, number or bool; a
/// `Serialize` implementation's own error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// Whether a string has a byte that JSON escapes (a control character, `"` or `\`), eight
/// bytes at a time: a byte below 0x20 or equal to one of the two sets the high bit of its lane
/// in `(x - 0x01..01 * n) & !x & 0x80..80` (for `x` xor the byte, n = 1; for `x`, n = 0x20).
#[inline]
fn needs_escape(b: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    #[inline]
    fn word(x: u64) -> bool {
        let control = x.wrapping_sub(ONES * 0x20) & !x;
        let quote = (x ^ (ONES * b'"' as u64)).wrapping_sub(ONES) & !(x ^ (ONES * b'"' as u64));
        let backslash = (x ^ (ONES * b'\\' as u64)).wrapping_sub(ONES) & !(x ^ (ONES * b'\\' as u64));
        (control | quote | backslash) & HIGH != 0
    }
    let n = b.len();
    if n >= 8 {
        let mut chunks = b.chunks_exact(8);
        let any = chunks.any(|c| word(u64::from_le_bytes(c.try_into().expect("8 bytes"))));
        // The last eight bytes, overlapping the chunks: the remainder is in them.
        any || word(u64::from_le_bytes(b[n - 8..].try_into().expect("8 bytes")))
    } else if n >= 4 {
        // Two overlapping 4-byte words, the upper lanes filled with a harmless byte.
        let pad = |w: &[u8]| u64::from(u32::from_le_bytes(w.try_into().expect("4 bytes"))) | 0x6161_6161_0000_0000;
        word(pad(&b[..4])) || word(pad(&b[n - 4..]))
    } else {
        b.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\')
    }
}

struct Writer {
    out: String,
}

/// The escape of each ASCII byte inside a JSON string, as `serde_json` writes it: 0 for none,
/// `u` for `\u00XX`, else the letter after the backslash.
const ESCAPE: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

impl Writer {
    #[inline]
    fn byte(&mut self, b: u8) {
        self.out.push(char::from(b));
    }

    #[inline]
    fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// A JSON string: `"`, the text with the escapes it needs, `"`.
    #[inline]
    fn string(&mut self, s: &str) {
        let bytes = s.as_bytes();
        self.out.reserve(bytes.len() + 2);
        self.raw("\"");
        if needs_escape(bytes) {
            self.escaped(s);
        } else {
            self.raw(s);
        }
        self.raw("\"");
    }

    /// A struct's field name and its colon. Field names are Rust identifiers or `rename`s
    /// without characters that need escaping, written as they are (debug builds check it).
    #[inline]
    fn field_name(&mut self, key: &'static str) {
        debug_assert!(!needs_escape(key.as_bytes()), "field name {key:?} needs escaping");
        self.out.reserve(key.len() + 3);
        self.raw("\"");
        self.raw(key);
        self.raw("\":");
    }

    #[cold]
    #[inline(never)]
    fn escaped(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut start = 0;
        for (i, b) in s.bytes().enumerate() {
            let e = if b < 0x80 { ESCAPE[b as usize] } else { 0 };
            if e == 0 {
                continue;
            }
            // Escaped bytes are ASCII: `start` and `i` are character boundaries.
            self.raw(&s[start..i]);
            self.raw("\\");
            if e == b'u' {
                self.raw("u00");
                self.byte(HEX[(b >> 4) as usize]);
                self.byte(HEX[(b & 0xf) as usize]);
            } else {
                self.byte(e);
            }
            start = i + 1;
        }
        self.raw(&s[start..]);
    }

    #[inline]
    fn integer<I: itoa::Integer>(&mut self, v: I) {
        self.raw(itoa::Buffer::new().format(v));
    }

    /// A float as `serde_json` formats it (its own formatter; `null` when not finite).
    fn float<F: Serialize>(&mut self, v: F) -> Result<(), Error> {
        self.raw(&serde_json::to_string(&v).map_err(|e| Error(e.to_string()))?);
        Ok(())
    }
}

/// An array or object being written: whether an element was written yet.
pub struct Compound<'a> {
    w: &'a mut Writer,
    first: bool,
    /// Close one more `}` (the value of an enum variant is wrapped in `{"variant": …}`).
    variant: bool,
}

impl Compound<'_> {
    #[inline]
    fn comma(&mut self) {
        if self.first {
            self.first = false;
        } else {
            self.w.raw(",");
        }
    }

    #[inline]
    fn key(&mut self, key: &'static str) {
        self.comma();
        self.w.field_name(key);
    }

    fn close(self, bracket: &'static str) {
        self.w.raw(bracket);
        if self.variant {
            self.w.raw("}");
        }
    }
}

/// The ten `serialize_<integer>` methods of a serializer, each `$body` with `$s` the serializer
/// and `$v` the number.
macro_rules! integers {
    (|$s:ident, $v:ident| $body:expr) => {
        integers!(@ $s $v $body; serialize_i8 i8, serialize_i16 i16, serialize_i32 i32, serialize_i64 i64,
            serialize_i128 i128, serialize_u8 u8, serialize_u16 u16, serialize_u32 u32, serialize_u64 u64,
            serialize_u128 u128);
    };
    (@ $s:ident $v:ident $body:expr; $($name:ident $t:ty),*) => {
        $(
            fn $name(self, $v: $t) -> Result<(), Error> {
                let $s = self;
                $body
            }
        )*
    };
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.raw(if v { "true" } else { "false" });
        Ok(())
    }
    integers!(|w, v| {
        w.integer(v);
        Ok(())
    });
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.float(v)
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }
    /// Bytes as an array of numbers, as `serde_json` writes them.
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.raw("null");
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
        self.string(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.raw("{");
        self.string(variant);
        self.raw(":");
        value.serialize(&mut *self)?;
        self.raw("}");
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        self.raw("[");
        Ok(Compound { w: self, first: true, variant: false })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(self, _name: &'static str, _index: u32, variant: &'static str, _len: usize) -> Result<Compound<'a>, Error> {
        self.raw("{");
        self.string(variant);
        self.raw(":[");
        Ok(Compound { w: self, first: true, variant: true })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        self.raw("{");
        Ok(Compound { w: self, first: true, variant: false })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(self, _name: &'static str, _index: u32, variant: &'static str, _len: usize) -> Result<Compound<'a>, Error> {
        self.raw("{");
        self.string(variant);
        self.raw(":{");
        Ok(Compound { w: self, first: true, variant: true })
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.comma();
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        self.close("]");
        Ok(())
    }
}

/// Tuples and tuple structs and variants are written as arrays, like sequences.
macro_rules! like_a_sequence {
    ($($kind:ident::$add:ident),*) => {
        $(
            impl ser::$kind for Compound<'_> {
                type Ok = ();
                type Error = Error;
                fn $add<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                    ser::SerializeSeq::serialize_element(self, value)
                }
                fn end(self) -> Result<(), Error> {
                    ser::SerializeSeq::end(self)
                }
            }
        )*
    };
}

like_a_sequence!(SerializeTuple::serialize_element, SerializeTupleStruct::serialize_field, SerializeTupleVariant::serialize_field);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        key.serialize(KeyWriter(&mut *self.w))?;
        self.w.raw(":");
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        self.close("}");
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.key(key);
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        self.close("}");
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeStruct::end(self)
    }
}

/// A map key: a string, or a number or bool written as a string (as `serde_json` does).
struct KeyWriter<'a>(&'a mut Writer);

impl KeyWriter<'_> {
    fn quoted(self, f: impl FnOnce(&mut Writer) -> Result<(), Error>) -> Result<(), Error> {
        self.0.raw("\"");
        f(self.0)?;
        self.0.raw("\"");
        Ok(())
    }
}

fn key_error() -> Error {
    Error("a map key must be a string, a number or a bool".into())
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(|w| ser::Serializer::serialize_bool(w, v))
    }
    integers!(|key, v| key.quoted(|w| {
        w.integer(v);
        Ok(())
    }));
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error("a float map key must be finite".into()));
        }
        self.quoted(|w| w.float(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error("a float map key must be finite".into()));
        }
        self.quoted(|w| w.float(v))
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        ser::Serializer::serialize_char(self.0, v)
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.0.string(v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Error> {
        Err(key_error())
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(key_error())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Error> {
        Err(key_error())
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_error())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_error())
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
        self.0.string(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_error())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_error())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_error())
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_error())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_error())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_error())
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct, Error> {
        Err(key_error())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_error())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use serde_json::json;

    use super::to_string;

    fn same<T: Serialize>(v: &T) {
        assert_eq!(to_string(v, 0).unwrap(), serde_json::to_string(v).unwrap());
    }

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(u8),
        Tuple(i32, String),
        Struct { a: Option<bool>, b: f64 },
    }

    #[derive(Serialize)]
    struct Everything<'a> {
        text: &'a str,
        chars: Vec<char>,
        ints: (i8, i16, i32, i64, i128, u8, u16, u32, u64, u128),
        floats: Vec<f64>,
        small: f32,
        nothing: Option<u8>,
        unit: (),
        shapes: Vec<Shape>,
        bytes: serde_json::Value,
        int_keys: BTreeMap<i32, bool>,
        bool_keys: BTreeMap<bool, u8>,
        value: serde_json::Value,
    }

    #[test]
    fn writes_what_serde_json_writes() {
        same(&Everything {
            text: "quote \" backslash \\ controls \u{0}\u{1f}\u{8}\t\n\u{c}\r\u{7f} kanji 関ヶ原 emoji 🎲 end",
            chars: vec!['a', '"', '\n', '関'],
            ints: (i8::MIN, i16::MIN, i32::MIN, i64::MIN, i128::MIN, u8::MAX, u16::MAX, u32::MAX, u64::MAX, u128::MAX),
            floats: vec![0.0, -0.0, 1.0, -1.5, 0.1, 1e300, 1e-7, f64::NAN, f64::INFINITY, 123456789.125],
            small: 0.3,
            nothing: None,
            unit: (),
            shapes: vec![Shape::Unit, Shape::Newtype(7), Shape::Tuple(-3, "x\"y".into()), Shape::Struct { a: Some(true), b: 2.5 }],
            bytes: json!([]),
            int_keys: [(-5, true), (12, false)].into_iter().collect(),
            bool_keys: [(false, 0), (true, 1)].into_iter().collect(),
            value: json!({"z": [1, -2, 3.5, null, {"a\u{1}": "b"}], "a": {}, "m": [], "k": "\u{2028}"}),
        });
        same(&Vec::<u8>::new());
        same(&serde_bytes_like(b"\x00\xff"));
    }

    /// A byte string through `serialize_bytes`.
    fn serde_bytes_like(b: &'static [u8]) -> impl Serialize {
        struct Bytes(&'static [u8]);
        impl Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        Bytes(b)
    }

    #[test]
    fn finds_every_byte_that_needs_escaping_at_every_position() {
        for len in 0..24 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut text = vec![b'k'; len];
                    text[at] = b;
                    let expected = b < 0x20 || b == b'"' || b == b'\\';
                    assert_eq!(super::needs_escape(&text), expected, "byte {b:#x} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn refuses_keys_serde_json_refuses() {
        let mut m = BTreeMap::new();
        m.insert(vec![1u8], 1u8);
        assert!(to_string(&m, 0).is_err());
        assert!(serde_json::to_string(&m).is_err());
    }
}
