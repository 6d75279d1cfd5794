//! The view envelope as the drawing code reads it: who looks, who acts, what happened last,
//! and the game's own view under `body`.

use serde_json::Value;

use super::RenderError;

/// Who is to act, from the envelope's `to_act`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToAct {
    /// `player`, `chance` or `terminal`.
    pub kind: String,
    pub seat: Option<usize>,
    /// The decision's stable snake_case kind (empty when there is none).
    pub decision: String,
    /// A short human prompt (empty when there is none).
    pub prompt: String,
}

/// The last action as this observer may know it.
#[derive(Debug, Clone, PartialEq)]
pub struct LastAction {
    pub seat: Option<usize>,
    /// The action id and its text, only when the observer may see them.
    pub id: Option<u32>,
    pub text: Option<String>,
    /// The sentences of the move's events as this observer was told them (`sentences`).
    pub sentences: Vec<String>,
}

/// A parsed view envelope.
#[derive(Debug, Clone)]
pub struct Frame<'a> {
    pub game: String,
    pub observer: Option<usize>,
    pub seats: Vec<String>,
    pub to_act: ToAct,
    pub terminal: bool,
    pub winners: Vec<usize>,
    pub last_action: Option<LastAction>,
    pub body: &'a Value,
    /// The envelope's `to_act.decision` as the game wrote it (null when there is none).
    pub decision: &'a Value,
}

fn malformed(what: &str) -> RenderError {
    RenderError::Malformed(what.to_string())
}

fn seat_of(v: &Value) -> Option<usize> {
    v.as_u64().map(|s| s as usize)
}

impl<'a> Frame<'a> {
    pub fn parse(v: &'a Value) -> Result<Frame<'a>, RenderError> {
        let obj = v.as_object().ok_or_else(|| malformed("a view must be a json object"))?;
        let game = obj.get("game").and_then(Value::as_str).ok_or_else(|| malformed("missing string field \"game\""))?.to_string();
        let body = obj.get("body").filter(|b| b.is_object()).ok_or_else(|| malformed("missing object field \"body\""))?;
        let observer = match obj.get("observer") {
            None | Some(Value::Null) => None,
            Some(o) => Some(seat_of(o).ok_or_else(|| malformed("\"observer\" must be a seat number or null"))?),
        };
        let seats = obj
            .get("seats")
            .and_then(Value::as_array)
            .ok_or_else(|| malformed("missing array field \"seats\""))?
            .iter()
            .enumerate()
            .map(|(i, s)| s.get("name").and_then(Value::as_str).map_or_else(|| format!("seat {i}"), str::to_string))
            .collect::<Vec<_>>();
        if observer.is_some_and(|o| o >= seats.len()) {
            return Err(malformed("\"observer\" is not one of the seats"));
        }
        let t = obj.get("to_act").unwrap_or(&Value::Null);
        let decision = t.get("decision").unwrap_or(&Value::Null);
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let to_act = ToAct {
            kind: text(t, "kind"),
            seat: t.get("seat").and_then(seat_of),
            decision: text(decision, "kind"),
            prompt: text(decision, "prompt"),
        };
        let winners = obj.get("winners").and_then(Value::as_array).map_or_else(Vec::new, |w| w.iter().filter_map(seat_of).collect());
        let last_action = obj.get("last_action").filter(|l| l.is_object()).map(|l| {
            let hidden = l.get("hidden").and_then(Value::as_bool).unwrap_or(false);
            LastAction {
                seat: l.get("seat").and_then(seat_of),
                id: if hidden { None } else { l.get("id").and_then(Value::as_u64).map(|a| a as u32) },
                text: if hidden { None } else { l.get("text").and_then(Value::as_str).map(str::to_string) },
                sentences: list(l, "sentences").iter().filter_map(Value::as_str).map(str::to_string).collect(),
            }
        });
        Ok(Frame {
            game,
            observer,
            seats,
            to_act,
            terminal: obj.get("terminal").and_then(Value::as_bool).unwrap_or(false),
            winners,
            last_action,
            body,
            decision,
        })
    }

    /// The printed name of a seat (`seat N` past the list).
    pub fn seat_name(&self, seat: usize) -> String {
        self.seats.get(seat).cloned().unwrap_or_else(|| format!("seat {seat}"))
    }

    /// Who looks: a seat's name, or `spectator`.
    pub fn observer_name(&self) -> String {
        self.observer.map_or_else(|| "spectator".to_string(), |o| self.seat_name(o))
    }

    /// The id of the last action when this observer may see it.
    pub fn last_visible_id(&self) -> Option<u32> {
        self.last_action.as_ref().and_then(|l| l.id)
    }

    /// The seat whose view may show its own private pieces (hand, blocks' faces).
    pub fn own_seat(&self) -> Option<usize> {
        self.observer
    }
}

/// Reads `body[key]` as text ("" when missing).
pub fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Reads `body[key]` as a number (0 when missing).
pub fn int(v: &Value, key: &str) -> i64 {
    v.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// Reads `body[key]` as an array (empty when missing).
pub fn list<'v>(v: &'v Value, key: &str) -> &'v [Value] {
    v.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// A JSON scalar as short text (strings without quotes).
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_string(),
        other => other.to_string(),
    }
}
