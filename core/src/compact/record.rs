//! The record encoding of a compact field: a serde value as a self-delimiting sequence of
//! small integers, for the few small structures of a state (a pending decision, a battle in
//! progress) whose shape varies with their kind.
//!
//! - `bool`, `u8`, `i8`: one byte (`i8` as its two's-complement byte);
//! - 16-, 32-, 64- and 128-bit integers: 2, 4, 8, 16 bytes, little-endian; floats their bits;
//! - an enum: its variant index (one byte), then the variant's fields;
//! - `Option`: 0 for `None`, 1 then the value for `Some`;
//! - a sequence or map: its length (one byte), then its elements; a string: its length, then
//!   its UTF-8 bytes;
//! - a struct or tuple: its fields in declaration order; a unit: nothing.
//!
//! A value's type fixes how its bytes parse, so two values of one type give different bytes
//! (the padding after a record is zeros and never read).

use serde::ser::{self, Serialize};

/// Writes `value` into `out` and returns the number of bytes its encoding takes; bytes past
/// the end of `out` are dropped.
pub fn write<T: Serialize + ?Sized>(value: &T, out: &mut [u8]) -> usize {
    let mut s = Sink { out, at: 0 };
    // The sink never fails: every value has an encoding.
    let _ = value.serialize(&mut s);
    s.at
}

/// A sequence written from an iterator, encoded as the `Vec` of its items would be, without
/// collecting them (the iterator is cloned to write; its length must be exact).
pub struct Seq<I>(pub I);

impl<I> Serialize for Seq<I>
where
    I: Iterator + ExactSizeIterator + Clone,
    I::Item: Serialize,
{
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.clone())
    }
}

/// The number of bytes `value`'s encoding takes.
pub fn len<T: Serialize + ?Sized>(value: &T) -> usize {
    write(value, &mut [])
}

struct Sink<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl Sink<'_> {
    fn put(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if let Some(x) = self.out.get_mut(self.at) {
                *x = b;
            }
            self.at += 1;
        }
    }

    fn len(&mut self, n: Option<usize>) {
        self.put(&[n.unwrap_or(0).min(255) as u8]);
    }
}

#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("record encoding")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Never
    }
}

impl<'a, 'b> ser::Serializer for &'a mut Sink<'b> {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<(), Never> {
        self.put(&[v as u8]);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Never> {
        self.put(&[v]);
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Never> {
        self.put(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Never> {
        self.put(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Never> {
        self.put(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Never> {
        self.put(&u32::from(v).to_le_bytes());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Never> {
        self.len(Some(v.len()));
        self.put(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Never> {
        self.len(Some(v.len()));
        self.put(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Never> {
        self.put(&[0]);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Never> {
        self.put(&[1]);
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> Result<(), Never> {
        self.put(&[index as u8]);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), Never> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, index: u32, _: &'static str, v: &T) -> Result<(), Never> {
        self.put(&[index as u8]);
        v.serialize(self)
    }
    fn serialize_seq(self, n: Option<usize>) -> Result<Self, Never> {
        self.len(n);
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_variant(self, _: &'static str, index: u32, _: &'static str, _: usize) -> Result<Self, Never> {
        self.put(&[index as u8]);
        Ok(self)
    }
    fn serialize_map(self, n: Option<usize>) -> Result<Self, Never> {
        self.len(n);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_struct_variant(self, _: &'static str, index: u32, _: &'static str, _: usize) -> Result<Self, Never> {
        self.put(&[index as u8]);
        Ok(self)
    }
}

macro_rules! compound {
    ($tr:ident, $method:ident) => {
        impl ser::$tr for &mut Sink<'_> {
            type Ok = ();
            type Error = Never;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Never> {
                Ok(())
            }
        }
    };
}

compound!(SerializeSeq, serialize_element);
compound!(SerializeTuple, serialize_element);
compound!(SerializeTupleStruct, serialize_field);
compound!(SerializeTupleVariant, serialize_field);

impl ser::SerializeMap for &mut Sink<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Never> {
        k.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

/// The fields of a struct, in declaration order; their names are not written.
macro_rules! named_compound {
    ($tr:ident) => {
        impl ser::$tr for &mut Sink<'_> {
            type Ok = ();
            type Error = Never;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, v: &T) -> Result<(), Never> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Never> {
                Ok(())
            }
        }
    };
}

named_compound!(SerializeStruct);
named_compound!(SerializeStructVariant);

#[cfg(test)]
mod tests {
    use serde::Serialize;

    use super::*;

    #[derive(Serialize)]
    enum Pending {
        None,
        Swap { settlement: u8, figure: u8 },
        Many(Vec<u16>),
    }

    #[test]
    fn values_are_written_as_small_integers_and_cut_at_the_end() {
        let mut out = [0u8; 8];
        assert_eq!(write(&Pending::None, &mut out), 1);
        assert_eq!(out[0], 0);
        assert_eq!(write(&Pending::Swap { settlement: 4, figure: 2 }, &mut out), 3);
        assert_eq!(out[..3], [1, 4, 2]);
        assert_eq!(write(&(Pending::Many(vec![258, 1]), Some(-1i8), None::<u8>, true), &mut out), 10);
        assert_eq!(out, [2, 2, 2, 1, 1, 0, 1, 255]);
        assert_eq!(len(&"ab"), 3);
    }

    #[test]
    fn a_seq_is_written_as_the_vec_of_its_items() {
        let rows = [vec![(1u8, 300u16)], vec![], vec![(2, 3), (4, 5)]];
        let collected: Vec<Vec<(u8, u16)>> = rows.to_vec();
        let streamed = Seq(rows.iter().map(|r| Seq(r.iter().copied())));
        let (mut a, mut b) = ([0u8; 24], [0u8; 24]);
        assert_eq!(write(&collected, &mut a), write(&streamed, &mut b));
        assert_eq!(a, b);
        assert_eq!(len(&streamed), 1 + 1 + 3 + 1 + 1 + 6);
    }
}
