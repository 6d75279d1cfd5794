//! Events: what happened in a transition, and who may know it.
//!
//! Games emit events while applying an action. Building them costs nothing when the sink is
//! off (the closure is not called), so fast playouts never pay for them; the engine rebuilds
//! a seat's perfect-recall history by replaying the action log with the sink on, except that
//! a state whose information-state key was asked records its next step's events as it applies
//! it (the key after the step needs no replay).

use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::game::{Player, SPECTATOR};

mod body;
pub mod sentence;

pub use crate::event;
#[doc(hidden)]
pub use body::{nested_json, Keys};
pub use body::{serialized, text, Body, Copied, Field, Serialized, ToField, MAX_FIELDS};

/// The seats an event is shown to: everyone, or a set of seats (bit i = seat i).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Audience(u32);

impl Audience {
    pub const ALL: Audience = Audience(u32::MAX);

    /// Only `seat` sees it.
    pub fn seat(seat: usize) -> Audience {
        Audience(1 << seat)
    }

    /// Every seat except `seat` (the spectator does not see it either).
    pub fn all_but(seat: usize, num_players: usize) -> Audience {
        Audience(((1u32 << num_players) - 1) & !(1 << seat))
    }

    pub fn is_all(self) -> bool {
        self.0 == u32::MAX
    }

    /// Whether `player` (a seat, or the spectator) sees the event.
    pub fn includes(self, player: Player) -> bool {
        if self.is_all() {
            return true;
        }
        player != SPECTATOR && (0..32).contains(&player) && self.0 & (1 << player) != 0
    }
}

impl Serialize for Audience {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_all() {
            return s.serialize_str("all");
        }
        let seats: Vec<u32> = (0..32).filter(|i| self.0 & (1 << i) != 0).collect();
        let mut seq = s.serialize_seq(Some(seats.len()))?;
        for i in seats {
            seq.serialize_element(&i)?;
        }
        seq.end()
    }
}

/// One event: the index of the action that caused it, its audience and its body
/// (a flat JSON object with a `"kind"` field).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub step: u32,
    pub audience: Audience,
    #[serde(flatten)]
    pub body: Body,
}

impl Event {
    /// Appends an unambiguous binary encoding of the event (step, audience, body) to `out`:
    /// what the information-state keys hash. Every value carries a tag, and strings, arrays
    /// and objects their length, so two events encode alike exactly when they are equal.
    pub(crate) fn encode_key(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&self.audience.0.to_le_bytes());
        self.body.encode(out);
    }
}

// Lengths past u32::MAX (4 GiB of event text) cannot occur: four bytes tell them apart.
fn encode_len(n: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(&(n as u32).to_le_bytes());
}

fn encode_str(t: &str, out: &mut Vec<u8>) {
    out.push(6);
    encode_len(t.len(), out);
    out.extend_from_slice(t.as_bytes());
}

/// The key encoding of a JSON value (what [`Body::encode`] writes for nested values, and
/// the encoding a body's must equal).
fn encode_value(v: &Value, out: &mut Vec<u8>) {
    let len = encode_len;
    match v {
        Value::Null => out.push(0),
        Value::Bool(b) => out.push(1 + *b as u8),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                out.push(3);
                out.extend_from_slice(&u.to_le_bytes());
            } else if let Some(i) = n.as_i64() {
                out.push(4);
                out.extend_from_slice(&i.to_le_bytes());
            } else {
                out.push(5);
                out.extend_from_slice(&n.as_f64().unwrap_or(f64::NAN).to_bits().to_le_bytes());
            }
        }
        Value::String(t) => encode_str(t, out),
        Value::Array(items) => {
            out.push(7);
            len(items.len(), out);
            items.iter().for_each(|x| encode_value(x, out));
        }
        Value::Object(map) => {
            out.push(8);
            len(map.len(), out);
            for (k, x) in map {
                len(k.len(), out);
                out.extend_from_slice(k.as_bytes());
                encode_value(x, out);
            }
        }
    }
}

/// A list of events as compact JSON text (what the C ABI returns; the same bytes as
/// `serde_json::to_string`).
pub fn to_json(events: &[Event]) -> String {
    // Event bodies are JSON objects with string keys: they always serialize.
    crate::json_text::to_string(events, 128 * events.len()).expect("events serialize")
}

/// An event sink that is either recording or off.
#[derive(Debug, Default)]
pub struct Events {
    on: bool,
    step: u32,
    list: Vec<Event>,
}

impl Events {
    /// A sink that drops everything (and never builds the events).
    pub fn off() -> Self {
        Events::default()
    }

    /// A recording sink.
    pub fn recording() -> Self {
        Events { on: true, ..Events::default() }
    }

    pub fn is_on(&self) -> bool {
        self.on
    }

    /// The action index the following events belong to.
    pub fn set_step(&mut self, step: u32) {
        self.step = step;
    }

    /// Records the event built by `body` if the sink is on.
    pub fn emit(&mut self, audience: Audience, body: impl FnOnce() -> Body) {
        if self.on {
            let step = self.step;
            self.list.push(Event { step, audience, body: body() });
        }
    }

    pub fn into_vec(self) -> Vec<Event> {
        self.list
    }

    pub fn as_slice(&self) -> &[Event] {
        &self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audience_membership() {
        assert!(Audience::ALL.includes(SPECTATOR));
        assert!(Audience::seat(2).includes(2));
        assert!(!Audience::seat(2).includes(1));
        assert!(!Audience::seat(0).includes(SPECTATOR));
        let others = Audience::all_but(1, 3);
        assert!(others.includes(0) && others.includes(2) && !others.includes(1));
        assert_eq!(serde_json::to_value(Audience::seat(3)).unwrap(), serde_json::json!([3]));
        assert_eq!(serde_json::to_value(Audience::ALL).unwrap(), serde_json::json!("all"));
    }

    #[test]
    fn key_encodings_differ_where_the_events_differ() {
        let event = |step, audience, body| Event { step, audience, body };
        let bodies = [
            event!({"a": "bc"}),
            event!({"ab": "c"}),
            event!({"a": ["b", "c"]}),
            event!({"a": ["bc"]}),
            event!({"a": [1, 2]}),
            event!({"a": [12]}),
            event!({"a": 1}),
            event!({"a": -1}),
            event!({"a": 1.0}),
            event!({"a": "1"}),
            event!({"a": true}),
            event!({"a": null}),
            event!({"a": {}}),
            event!({"a": []}),
            event!({"a": 1, "b": 2}),
            event!({"a": {"b": 2}}),
        ];
        let mut events: Vec<Event> = bodies.iter().map(|b| event(0, Audience::ALL, b.clone())).collect();
        events.push(event(1, Audience::ALL, bodies[0].clone()));
        events.push(event(0, Audience::seat(0), bodies[0].clone()));
        let keys: Vec<Vec<u8>> = events
            .iter()
            .map(|e| {
                let mut k = Vec::new();
                e.encode_key(&mut k);
                k
            })
            .collect();
        for i in 0..keys.len() {
            for j in 0..i {
                assert_ne!(keys[i], keys[j], "{:?} and {:?} encode alike", events[i], events[j]);
            }
        }
        let mut again = Vec::new();
        events[3].encode_key(&mut again);
        assert_eq!(again, keys[3]);
    }

    /// Every body of random playouts of every game (each covered configuration) encodes,
    /// serializes and reads back as the `serde_json::Value` serde builds from it.
    #[test]
    fn bodies_encode_as_their_json_values_in_every_game() {
        use crate::rng::Rng;
        let mut rng = Rng::from_seed(7);
        let mut checked = 0;
        for (id, _) in crate::games() {
            for config in crate::engine::covered_configs(id) {
                let game = crate::load_game(id, Some(&config)).unwrap();
                let mut state = game.new_initial_state(rng.next_u64());
                let mut legal = Vec::new();
                while !state.is_terminal() && state.history().len() < 600 {
                    legal.clear();
                    state.legal_actions_into(&mut legal);
                    state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
                }
                for p in std::iter::once(SPECTATOR).chain(0..game.num_players() as Player) {
                    for e in state.events(p).unwrap() {
                        let value = serde_json::to_value(&e.body).unwrap();
                        let (mut compact, mut through_serde) = (Vec::new(), Vec::new());
                        e.body.encode(&mut compact);
                        encode_value(&value, &mut through_serde);
                        assert_eq!(compact, through_serde, "{id}: {value}");
                        assert_eq!(e.body.to_value(), value, "{id}");
                        assert_eq!(serde_json::to_string(&e.body).unwrap(), value.to_string(), "{id}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "only {checked} events");
    }

    #[test]
    fn off_sink_never_builds() {
        let mut ev = Events::off();
        ev.emit(Audience::ALL, || panic!("built while off"));
        assert!(ev.into_vec().is_empty());
    }
}
