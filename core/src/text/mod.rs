//! The text face of every game, for language-model agents (docs/text.md): a seat's text
//! observation ([`crate::DynState::text_observation`]), moves read from free text
//! ([`crate::DynState::parse_move`]) and a rules primer per game for a system prompt
//! ([`crate::DynGame::rules_primer`]). Generic over the registry: a game's own words come
//! through [`crate::Game::board_text`], [`crate::Game::event_text`] and
//! [`crate::Game::rules_primer`].

use crate::events::Body;
use node::Node;

/// `SerializeTuple` and `SerializeTupleStruct` for a serializer state whose `SerializeSeq` they
/// mirror (a tuple is written as a list); `NodeError` must be in scope where it is used.
macro_rules! tuples_as_seq {
    ($ty:ty) => {
        impl serde::ser::SerializeTuple for $ty {
            type Ok = <Self as serde::ser::SerializeSeq>::Ok;
            type Error = NodeError;
            fn serialize_element<T: serde::Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
                serde::ser::SerializeSeq::serialize_element(self, v)
            }
            fn end(self) -> Result<Self::Ok, NodeError> {
                serde::ser::SerializeSeq::end(self)
            }
        }

        impl serde::ser::SerializeTupleStruct for $ty {
            type Ok = <Self as serde::ser::SerializeSeq>::Ok;
            type Error = NodeError;
            fn serialize_field<T: serde::Serialize + ?Sized>(&mut self, v: &T) -> Result<(), NodeError> {
                serde::ser::SerializeSeq::serialize_element(self, v)
            }
            fn end(self) -> Result<Self::Ok, NodeError> {
                serde::ser::SerializeSeq::end(self)
            }
        }
    };
}

pub mod board;
pub mod node;
pub mod observation;
pub mod parse;
pub mod primer;
pub mod stream;

/// The sentence of an event whose game has no text for it: its kind and fields.
pub fn generic_sentence(body: &Body) -> String {
    let v = Node::of(body).unwrap_or(Node::Null);
    let mut out = v.get("kind").as_str().map(crate::events::sentence::title).unwrap_or_else(|| "Event".into());
    out.push_str(": ");
    let mark = out.len();
    board::inline_except(&mut out, &v, &["kind"]);
    if out.len() == mark {
        out.truncate(mark - 2);
    }
    out
}

#[cfg(test)]
mod tests;
