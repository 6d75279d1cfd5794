//! A light tree of a serialized value for the text observation: what `serde_json::to_value`
//! gives (objects with their keys in ascending order, a later duplicate key replacing an
//! earlier one, non-finite floats as null), built straight from the typed view with struct
//! field names borrowed rather than copied and no map of strings per object. The text writers
//! ([`super::board`], [`super::observation`]) read it.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{self, Serialize};
use serde_json::Value;

/// The key of an object field.
pub type Key = Cow<'static, str>;

/// One serialized value.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
    List(Vec<Node>),
    /// Fields in ascending key order, each key once.
    Map(Vec<(Key, Node)>),
}

static NULL: Node = Node::Null;

impl Node {
    /// The serialization of `v`, or `None` where it has something the JSON of a view cannot
    /// hold (a map key that is not a string, a number or a unit variant).
    pub fn of<T: Serialize + ?Sized>(v: &T) -> Option<Node> {
        v.serialize(ToNode).ok()
    }

    /// The field `key` of an object (null if absent or not an object), as `Value` indexes.
    pub fn get(&self, key: &str) -> &Node {
        match self {
            Node::Map(fields) => fields.binary_search_by(|(k, _)| k.as_ref().cmp(key)).map_or(&NULL, |i| &fields[i].1),
            _ => &NULL,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Node::Int(i) => Some(i),
            Node::Uint(u) => i64::try_from(u).ok(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Node::Int(i) => Some(i as f64),
            Node::Uint(u) => Some(u as f64),
            Node::Float(f) => Some(f),
            _ => None,
        }
    }

    pub fn as_list(&self) -> &[Node] {
        match self {
            Node::List(items) => items,
            _ => &[],
        }
    }
}

impl From<&Value> for Node {
    fn from(v: &Value) -> Node {
        match v {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => Node::Uint(u),
                (_, Some(i), _) => Node::Int(i),
                (_, _, f) => Node::Float(f.unwrap_or(0.0)),
            },
            Value::String(s) => Node::Str(s.clone()),
            Value::Array(a) => Node::List(a.iter().map(Node::from).collect()),
            Value::Object(o) => Node::Map(o.iter().map(|(k, x)| (Key::Owned(k.clone()), Node::from(x))).collect()),
        }
    }
}

/// Why a value has no [`Node`].
#[derive(Debug)]
pub struct NodeError(String);

impl fmt::Display for NodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl NodeError {
    pub(crate) fn new(why: &str) -> NodeError {
        NodeError(why.to_string())
    }
}

impl std::error::Error for NodeError {}

/// A map key as serde_json writes it.
pub(crate) fn key_text<T: Serialize + ?Sized>(key: &T) -> Result<String, NodeError> {
    key.serialize(KeyOf).map(Key::into_owned)
}

impl ser::Error for NodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        NodeError(msg.to_string())
    }
}

/// Sorts fields by key, a later duplicate replacing an earlier one.
fn map(mut fields: Vec<(Key, Node)>) -> Node {
    if !fields.windows(2).all(|w| w[0].0 < w[1].0) {
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        fields.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
    }
    Node::Map(fields)
}

fn wide<T: TryInto<i64> + TryInto<u64> + Copy + fmt::Display>(v: T) -> Result<Node, NodeError> {
    if let Ok(u) = TryInto::<u64>::try_into(v) {
        return Ok(Node::Uint(u));
    }
    TryInto::<i64>::try_into(v).map(Node::Int).map_err(|_| NodeError(format!("number {v} out of range")))
}

struct ToNode;

struct Seq(Vec<Node>);
struct Variant(&'static str, Vec<Node>);
struct Fields(Vec<(Key, Node)>);
struct VariantFields(&'static str, Vec<(Key, Node)>);
struct MapFields(Vec<(Key, Node)>, Option<Key>);

impl ser::Serializer for ToNode {
    type Ok = Node;
    type Error = NodeError;
    type SerializeSeq = Seq;
    type SerializeTuple = Seq;
    type SerializeTupleStruct = Seq;
    type SerializeTupleVariant = Variant;
    type SerializeMap = MapFields;
    type SerializeStruct = Fields;
    type SerializeStructVariant = VariantFields;

    fn serialize_bool(self, v: bool) -> Result<Node, NodeError> {
        Ok(Node::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Node, NodeError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Node, NodeError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Node, NodeError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Node, NodeError> {
        Ok(if v >= 0 { Node::Uint(v as u64) } else { Node::Int(v) })
    }
    fn serialize_i128(self, v: i128) -> Result<Node, NodeError> {
        wide(v)
    }
    fn serialize_u8(self, v: u8) -> Result<Node, NodeError> {
        Ok(Node::Uint(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Node, NodeError> {
        Ok(Node::Uint(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Node, NodeError> {
        Ok(Node::Uint(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Node, NodeError> {
        Ok(Node::Uint(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Node, NodeError> {
        wide(v)
    }
    fn serialize_f32(self, v: f32) -> Result<Node, NodeError> {
        // As serde_json's value serializer: through the float's shortest text.
        Ok(Value::from(v).as_f64().map_or(Node::Null, Node::Float))
    }
    fn serialize_f64(self, v: f64) -> Result<Node, NodeError> {
        Ok(if v.is_finite() { Node::Float(v) } else { Node::Null })
    }
    fn serialize_char(self, v: char) -> Result<Node, NodeError> {
        Ok(Node::Str(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Node, NodeError> {
        Ok(Node::Str(v.to_string()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Node, NodeError> {
        Ok(Node::List(v.iter().map(|&b| Node::Uint(b.into())).collect()))
    }
    fn serialize_none(self) -> Result<Node, NodeError> {
        Ok(Node::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Node, NodeError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Node, NodeError> {
        Ok(Node::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Node, NodeError> {
        Ok(Node::Null)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Node, NodeError> {
        Ok(Node::Str(variant.to_string()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<Node, NodeError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Node, NodeError> {
        Ok(Node::Map(vec![(Key::Borrowed(variant), v.serialize(ToNode)?)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq, NodeError> {
        Ok(Seq(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq, NodeError> {
        Ok(Seq(Vec::with_capacity(len)))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq, NodeError> {
        Ok(Seq(Vec::with_capacity(len)))
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, len: usize) -> Result<Variant, NodeError> {
        Ok(Variant(variant, Vec::with_capacity(len)))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapFields, NodeError> {
        Ok(MapFields(Vec::with_capacity(len.unwrap_or(0)), None))
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Fields, NodeError> {
        Ok(Fields(Vec::with_capacity(len)))
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, len: usize) -> Result<VariantFields, NodeError> {
        Ok(VariantFields(variant, Vec::with_capacity(len)))
    }
}

impl ser::SerializeSeq for Seq {
    type Ok = Node;
    type Error = NodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        self.0.push(v.serialize(ToNode)?);
        Ok(())
    }
    fn end(self) -> Result<Node, NodeError> {
        Ok(Node::List(self.0))
    }
}

tuples_as_seq!(Seq);

impl ser::SerializeTupleVariant for Variant {
    type Ok = Node;
    type Error = NodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        self.1.push(v.serialize(ToNode)?);
        Ok(())
    }
    fn end(self) -> Result<Node, NodeError> {
        Ok(Node::Map(vec![(Key::Borrowed(self.0), Node::List(self.1))]))
    }
}

impl ser::SerializeStruct for Fields {
    type Ok = Node;
    type Error = NodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), NodeError> {
        self.0.push((Key::Borrowed(key), v.serialize(ToNode)?));
        Ok(())
    }
    fn end(self) -> Result<Node, NodeError> {
        Ok(map(self.0))
    }
}

impl ser::SerializeStructVariant for VariantFields {
    type Ok = Node;
    type Error = NodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), NodeError> {
        self.1.push((Key::Borrowed(key), v.serialize(ToNode)?));
        Ok(())
    }
    fn end(self) -> Result<Node, NodeError> {
        Ok(Node::Map(vec![(Key::Borrowed(self.0), map(self.1))]))
    }
}

impl ser::SerializeMap for MapFields {
    type Ok = Node;
    type Error = NodeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NodeError> {
        self.1 = Some(key.serialize(KeyOf)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
        let key = self.1.take().ok_or_else(|| NodeError("a map value without a key".into()))?;
        self.0.push((key, v.serialize(ToNode)?));
        Ok(())
    }
    fn end(self) -> Result<Node, NodeError> {
        Ok(map(self.0))
    }
}

/// Map keys as serde_json writes them: strings, numbers and unit variants as text.
struct KeyOf;

fn no_key() -> NodeError {
    NodeError("a map key that is not a string".into())
}

type Never = ser::Impossible<Key, NodeError>;

impl ser::Serializer for KeyOf {
    type Ok = Key;
    type Error = NodeError;
    type SerializeSeq = Never;
    type SerializeTuple = Never;
    type SerializeTupleStruct = Never;
    type SerializeTupleVariant = Never;
    type SerializeMap = Never;
    type SerializeStruct = Never;
    type SerializeStructVariant = Never;

    fn serialize_bool(self, v: bool) -> Result<Key, NodeError> {
        Ok(Key::Borrowed(if v { "true" } else { "false" }))
    }
    fn serialize_i8(self, v: i8) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_i16(self, v: i16) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_i32(self, v: i32) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_i64(self, v: i64) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_u8(self, v: u8) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_u16(self, v: u16) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_u32(self, v: u32) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_u64(self, v: u64) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_f32(self, _: f32) -> Result<Key, NodeError> {
        Err(no_key())
    }
    fn serialize_f64(self, _: f64) -> Result<Key, NodeError> {
        Err(no_key())
    }
    fn serialize_char(self, v: char) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Key, NodeError> {
        Ok(Key::Owned(v.to_string()))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Key, NodeError> {
        Err(no_key())
    }
    fn serialize_none(self) -> Result<Key, NodeError> {
        Err(no_key())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<Key, NodeError> {
        Err(no_key())
    }
    fn serialize_unit(self) -> Result<Key, NodeError> {
        Err(no_key())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Key, NodeError> {
        Err(no_key())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Key, NodeError> {
        Ok(Key::Borrowed(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<Key, NodeError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<Key, NodeError> {
        Err(no_key())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Never, NodeError> {
        Err(no_key())
    }
    fn serialize_tuple(self, _: usize) -> Result<Never, NodeError> {
        Err(no_key())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Never, NodeError> {
        Err(no_key())
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Never, NodeError> {
        Err(no_key())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Never, NodeError> {
        Err(no_key())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Never, NodeError> {
        Err(no_key())
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Never, NodeError> {
        Err(no_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::json;

    #[test]
    fn a_node_is_the_value_serde_json_builds() {
        #[derive(Serialize)]
        enum E {
            Unit,
            New(u8),
            Tuple(i32, bool),
            Fields { z: f64, a: Option<String> },
        }
        #[derive(Serialize)]
        struct S {
            zeta: Vec<E>,
            alpha: std::collections::HashMap<u32, f32>,
            #[serde(flatten)]
            more: Value,
            nan: f64,
        }
        let s = S {
            zeta: vec![E::Unit, E::New(3), E::Tuple(-4, true), E::Fields { z: 1.5, a: None }],
            alpha: [(10, 0.1), (2, 2.0)].into_iter().collect(),
            more: json!({"beta": [1, "x", null], "zeta": "later wins"}),
            nan: f64::NAN,
        };
        let value = serde_json::to_value(&s).unwrap();
        assert_eq!(Node::of(&s).unwrap(), Node::from(&value));
        assert_eq!(Node::of(&s).unwrap().get("zeta").as_str(), Some("later wins"));
        assert_eq!(Node::of(&s).unwrap().get("nan"), &Node::Null);
    }
}
