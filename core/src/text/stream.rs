//! The generic board text ([`super::board`]) written straight from a typed view body as it
//! serializes, with no tree in between: each field is first measured ([`Probe`]: empty, zero,
//! flat or nested) and then written. Same text as [`super::board::render`] of the body's
//! [`super::node::Node`] for the views of the registered games, whose fields serialize in
//! ascending key order, each once (the order the view JSON is written in, `json_text`). A body
//! with what this writer does not handle (enum variants with data, 128-bit numbers, bytes)
//! gives an error, and the text observation falls back to the tree.

use std::fmt::Write;

use serde::ser::{self, Impossible, Serialize};

use super::node::NodeError;

fn unsupported() -> NodeError {
    NodeError::new("not written by the streaming board text")
}

/// What a value is, as far as the layout of the board text cares.
#[derive(Clone, Copy, Default)]
struct Shape {
    /// null, false, "", [], or an object of such.
    empty: bool,
    zero: bool,
    truth: bool,
    map: bool,
    list: bool,
    /// An object with an object or list field, or a list with an object or list element.
    nested: bool,
    len: usize,
}

impl Shape {
    fn compound(&self) -> bool {
        self.map || self.list
    }
}

fn probe<T: Serialize + ?Sized>(v: &T) -> Result<Shape, NodeError> {
    v.serialize(Probe)
}

/// Measures a value's [`Shape`].
struct Probe;

struct ProbeAll(Shape);

impl ProbeAll {
    fn add<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        let s = probe(v)?;
        // `|`, not `||`: with a short circuit, the compiler branches on the length of an
        // `Option<Vec>` it loads before knowing the option is `Some` (harmless, but memcheck
        // reports a jump on uninitialised memory).
        self.0.empty &= s.empty | self.0.list;
        self.0.nested |= s.compound();
        self.0.len += 1;
        Ok(())
    }
}

fn scalar(empty: bool, zero: bool) -> Result<Shape, NodeError> {
    Ok(Shape { empty, zero, ..Shape::default() })
}

impl ser::Serializer for Probe {
    type Ok = Shape;
    type Error = NodeError;
    type SerializeSeq = ProbeAll;
    type SerializeTuple = ProbeAll;
    type SerializeTupleStruct = ProbeAll;
    type SerializeTupleVariant = Impossible<Shape, NodeError>;
    type SerializeMap = ProbeAll;
    type SerializeStruct = ProbeAll;
    type SerializeStructVariant = Impossible<Shape, NodeError>;

    fn serialize_bool(self, v: bool) -> Result<Shape, NodeError> {
        Ok(Shape { empty: !v, truth: v, ..Shape::default() })
    }
    fn serialize_i8(self, v: i8) -> Result<Shape, NodeError> {
        scalar(false, v == 0)
    }
    fn serialize_i16(self, v: i16) -> Result<Shape, NodeError> {
        scalar(false, v == 0)
    }
    fn serialize_i32(self, v: i32) -> Result<Shape, NodeError> {
        scalar(false, v == 0)
    }
    fn serialize_i64(self, v: i64) -> Result<Shape, NodeError> {
        scalar(false, v == 0)
    }
    fn serialize_u8(self, v: u8) -> Result<Shape, NodeError> {
        scalar(false, v == 0)
    }
    fn serialize_u16(self, v: u16) -> Result<Shape, NodeError> {
        scalar(false, v == 0)
    }
    fn serialize_u32(self, v: u32) -> Result<Shape, NodeError> {
        scalar(false, v == 0)
    }
    fn serialize_u64(self, v: u64) -> Result<Shape, NodeError> {
        scalar(false, v == 0)
    }
    fn serialize_f32(self, _: f32) -> Result<Shape, NodeError> {
        Err(unsupported())
    }
    fn serialize_f64(self, v: f64) -> Result<Shape, NodeError> {
        scalar(!v.is_finite(), v == 0.0)
    }
    fn serialize_char(self, _: char) -> Result<Shape, NodeError> {
        scalar(false, false)
    }
    fn serialize_str(self, v: &str) -> Result<Shape, NodeError> {
        scalar(v.is_empty(), false)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Shape, NodeError> {
        Err(unsupported())
    }
    fn serialize_none(self) -> Result<Shape, NodeError> {
        scalar(true, false)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Shape, NodeError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Shape, NodeError> {
        scalar(true, false)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Shape, NodeError> {
        scalar(true, false)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<Shape, NodeError> {
        scalar(false, false)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<Shape, NodeError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<Shape, NodeError> {
        Err(unsupported())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<ProbeAll, NodeError> {
        Ok(ProbeAll(Shape { list: true, empty: true, ..Shape::default() }))
    }
    fn serialize_tuple(self, len: usize) -> Result<ProbeAll, NodeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<ProbeAll, NodeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeTupleVariant, NodeError> {
        Err(unsupported())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<ProbeAll, NodeError> {
        Ok(ProbeAll(Shape { map: true, empty: true, ..Shape::default() }))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<ProbeAll, NodeError> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NodeError> {
        Err(unsupported())
    }
}

impl ser::SerializeSeq for ProbeAll {
    type Ok = Shape;
    type Error = NodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        self.add(v)?;
        self.0.empty = false;
        Ok(())
    }
    fn end(self) -> Result<Shape, NodeError> {
        Ok(self.0)
    }
}

tuples_as_seq!(ProbeAll);

impl ser::SerializeMap for ProbeAll {
    type Ok = Shape;
    type Error = NodeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, _: &T) -> Result<(), NodeError> {
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        self.add(v)
    }
    fn end(self) -> Result<Shape, NodeError> {
        Ok(self.0)
    }
}

impl ser::SerializeStruct for ProbeAll {
    type Ok = Shape;
    type Error = NodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, v: &T) -> Result<(), NodeError> {
        self.add(v)
    }
    fn end(self) -> Result<Shape, NodeError> {
        Ok(self.0)
    }
}

/// Where a value is written.
#[derive(Clone, Copy)]
enum Mode {
    /// On one line at a nesting depth (`board::inline_at`): objects as `k=v, ...`, lists as
    /// `x, y`, null as `null`.
    Inline(usize),
    /// As an element of a list on one line: objects in braces, lists in brackets, null as `-`.
    Elem(usize),
    /// An object's fields as blocks at an indent (`board::block`).
    Blocks(usize),
    /// A list's elements one per line at an indent.
    Lines(usize),
}

struct W<'o> {
    out: &'o mut String,
    mode: Mode,
}

/// The fields or elements of an object or list being written.
struct C<'o> {
    out: &'o mut String,
    mode: Mode,
    first: bool,
    /// What closes it: `]` or `}` for an element of a list on one line.
    close: Option<char>,
    key: String,
}

fn pad(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
}

impl W<'_> {
    fn text(self, t: &str) -> Result<(), NodeError> {
        match self.mode {
            Mode::Inline(_) | Mode::Elem(_) => {
                self.out.push_str(t);
                Ok(())
            }
            _ => Err(unsupported()),
        }
    }
    fn null(self) -> Result<(), NodeError> {
        let t = if matches!(self.mode, Mode::Elem(_)) { "-" } else { "null" };
        self.text(t)
    }
    fn number(self, n: impl std::fmt::Display) -> Result<(), NodeError> {
        match self.mode {
            Mode::Inline(_) | Mode::Elem(_) => {
                let _ = write!(self.out, "{n}");
                Ok(())
            }
            _ => Err(unsupported()),
        }
    }
}

impl<'o> W<'o> {
    fn compound(self, list: bool) -> Result<C<'o>, NodeError> {
        let mut close = None;
        let mode = match (self.mode, list) {
            (Mode::Inline(d), _) => Mode::Inline(d),
            (Mode::Elem(d), _) => {
                self.out.push(if list { '[' } else { '{' });
                close = Some(if list { ']' } else { '}' });
                Mode::Elem(d)
            }
            (Mode::Blocks(i), false) => Mode::Blocks(i),
            (Mode::Lines(i), true) => Mode::Lines(i),
            _ => return Err(unsupported()),
        };
        Ok(C { out: self.out, mode, first: true, close, key: String::new() })
    }
}

impl C<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        match self.mode {
            Mode::Inline(d) | Mode::Elem(d) => {
                if !self.first {
                    self.out.push_str(", ");
                }
                self.first = false;
                v.serialize(W { out: self.out, mode: Mode::Elem(d + 1) })
            }
            Mode::Lines(i) => {
                pad(self.out, i);
                self.out.push_str("  - ");
                v.serialize(W { out: self.out, mode: Mode::Inline(0) })?;
                self.out.push('\n');
                Ok(())
            }
            Mode::Blocks(_) => Err(unsupported()),
        }
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Result<(), NodeError> {
        let s = probe(v)?;
        match self.mode {
            Mode::Inline(d) | Mode::Elem(d) => {
                if s.empty || (d > 0 && s.zero) {
                    return Ok(());
                }
                let mark = self.out.len();
                if !self.first {
                    self.out.push_str(", ");
                }
                self.out.push_str(key);
                if s.truth {
                } else if s.map {
                    self.out.push_str("={");
                    let inner = self.out.len();
                    v.serialize(W { out: self.out, mode: Mode::Inline(d + 1) })?;
                    if self.out.len() == inner {
                        self.out.truncate(mark);
                        return Ok(());
                    }
                    self.out.push('}');
                } else if s.list {
                    self.out.push_str("=[");
                    v.serialize(W { out: self.out, mode: Mode::Inline(d + 1) })?;
                    self.out.push(']');
                } else {
                    self.out.push('=');
                    v.serialize(W { out: self.out, mode: Mode::Inline(d + 1) })?;
                }
                self.first = false;
                Ok(())
            }
            Mode::Blocks(i) => block(self.out, i, key, v, s),
            Mode::Lines(_) => Err(unsupported()),
        }
    }

    fn end(self) -> Result<(), NodeError> {
        if let Some(c) = self.close {
            self.out.push(c);
        }
        Ok(())
    }
}

fn block<T: Serialize + ?Sized>(out: &mut String, indent: usize, key: &str, v: &T, s: Shape) -> Result<(), NodeError> {
    if s.empty {
        return Ok(());
    }
    pad(out, indent);
    out.push_str(key);
    if s.map && s.nested {
        out.push_str(":\n");
        v.serialize(W { out, mode: Mode::Blocks(indent + 1) })
    } else if s.list && s.nested {
        let _ = writeln!(out, " ({}):", s.len);
        v.serialize(W { out, mode: Mode::Lines(indent) })
    } else {
        out.push_str(": ");
        v.serialize(W { out: &mut *out, mode: Mode::Inline(0) })?;
        out.push('\n');
        Ok(())
    }
}

impl<'o> ser::Serializer for W<'o> {
    type Ok = ();
    type Error = NodeError;
    type SerializeSeq = C<'o>;
    type SerializeTuple = C<'o>;
    type SerializeTupleStruct = C<'o>;
    type SerializeTupleVariant = Impossible<(), NodeError>;
    type SerializeMap = C<'o>;
    type SerializeStruct = C<'o>;
    type SerializeStructVariant = Impossible<(), NodeError>;

    fn serialize_bool(self, v: bool) -> Result<(), NodeError> {
        self.text(if v { "yes" } else { "false" })
    }
    fn serialize_i8(self, v: i8) -> Result<(), NodeError> {
        self.number(v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), NodeError> {
        self.number(v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), NodeError> {
        self.number(v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), NodeError> {
        self.number(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), NodeError> {
        self.number(v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), NodeError> {
        self.number(v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), NodeError> {
        self.number(v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), NodeError> {
        self.number(v)
    }
    fn serialize_f32(self, _: f32) -> Result<(), NodeError> {
        Err(unsupported())
    }
    fn serialize_f64(self, v: f64) -> Result<(), NodeError> {
        match serde_json::Number::from_f64(v) {
            Some(n) => self.number(n),
            None => self.null(),
        }
    }
    fn serialize_char(self, v: char) -> Result<(), NodeError> {
        self.text(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), NodeError> {
        self.text(v)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), NodeError> {
        Err(unsupported())
    }
    fn serialize_none(self) -> Result<(), NodeError> {
        self.null()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), NodeError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), NodeError> {
        self.null()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), NodeError> {
        self.null()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), NodeError> {
        self.text(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), NodeError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<(), NodeError> {
        Err(unsupported())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<C<'o>, NodeError> {
        self.compound(true)
    }
    fn serialize_tuple(self, _: usize) -> Result<C<'o>, NodeError> {
        self.compound(true)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<C<'o>, NodeError> {
        self.compound(true)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeTupleVariant, NodeError> {
        Err(unsupported())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<C<'o>, NodeError> {
        self.compound(false)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<C<'o>, NodeError> {
        self.compound(false)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NodeError> {
        Err(unsupported())
    }
}

impl ser::SerializeSeq for C<'_> {
    type Ok = ();
    type Error = NodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        self.element(v)
    }
    fn end(self) -> Result<(), NodeError> {
        C::end(self)
    }
}

tuples_as_seq!(C<'_>);

impl ser::SerializeMap for C<'_> {
    type Ok = ();
    type Error = NodeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NodeError> {
        self.key = super::node::key_text(key)?;
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        let key = std::mem::take(&mut self.key);
        self.field(&key, v)
    }
    fn end(self) -> Result<(), NodeError> {
        C::end(self)
    }
}

impl ser::SerializeStruct for C<'_> {
    type Ok = ();
    type Error = NodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), NodeError> {
        self.field(key, v)
    }
    fn end(self) -> Result<(), NodeError> {
        C::end(self)
    }
}

/// Writes the generic board text of a view body (see the module doc); on an error, `out` may
/// hold part of it.
pub fn render<T: Serialize + ?Sized>(out: &mut String, body: &T) -> Result<(), NodeError> {
    let s = probe(body)?;
    if s.map {
        body.serialize(W { out, mode: Mode::Blocks(0) })
    } else {
        block(out, 0, "state", body, s)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::super::{board, node::Node};

    #[derive(Serialize)]
    enum Side {
        East,
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Place {
        blocks: BTreeMap<&'static str, u8>,
        castle: Option<&'static str>,
        id: String,
        odds: (f64, f64),
        side: Side,
        stack: Vec<Vec<u8>>,
    }

    #[derive(Serialize)]
    struct Body {
        flags: BTreeMap<u32, bool>,
        hand: Option<Vec<u8>>,
        nested: BTreeMap<&'static str, BTreeMap<&'static str, u8>>,
        none: Unit,
        places: Vec<Place>,
        round: u8,
        score: f64,
        tags: Vec<&'static str>,
        zeros: Vec<Option<u8>>,
    }

    fn text<T: Serialize>(v: &T) -> (String, String) {
        let mut streamed = String::new();
        super::render(&mut streamed, v).expect("written");
        let mut tree = String::new();
        board::render(&mut tree, &Node::of(v).expect("a tree"));
        (streamed, tree)
    }

    #[test]
    fn streamed_text_is_the_text_of_the_tree() {
        let place = |id: &str, n: u8| Place {
            blocks: [("east", n), ("west", 0)].into_iter().collect(),
            castle: (n > 1).then_some("hill"),
            id: id.into(),
            odds: (0.5, f64::NAN),
            side: Side::East,
            stack: vec![vec![], vec![n, 0]],
        };
        let body = Body {
            flags: [(2, true), (1, false)].into_iter().collect(),
            hand: None,
            nested: [("a", [("x", 0)].into_iter().collect()), ("b", [("y", 2)].into_iter().collect())].into_iter().collect(),
            none: Unit,
            places: vec![place("edo", 2), place("gifu", 0)],
            round: 0,
            score: -1.5,
            tags: vec!["a", ""],
            zeros: vec![None, Some(0)],
        };
        let (streamed, tree) = text(&body);
        assert_eq!(streamed, tree);
        assert!(
            streamed.contains("places (2):\n  - blocks={east=2}, castle=hill, id=edo, odds=[0.5, -], side=East, stack=[[], [2, 0]]\n"),
            "{streamed}"
        );
        assert_eq!(text(&vec![1, 2]).0, "state: 1, 2\n");
        assert_eq!(text(&[[1u8]]), (String::from("state (1):\n  - 1\n"), String::from("state (1):\n  - 1\n")));
    }
}
