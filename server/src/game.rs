//! One game in memory: its fixed facts ([`Meta`]) and its position rebuilt from the record
//! ([`Live`]), and what a seat may know of it (the snapshot and the stream's messages of
//! docs/server.md sections 4 and 5).

use std::sync::Arc;

use kassen_core::rng::Rng;
use kassen_core::{load_game, ActionId, GameHandle, Player, StateHandle, CHANCE, SPECTATOR};
use serde_json::{json, Value};

use crate::store::{GameRow, MoveRow, SeatRow};
use crate::tokens;

pub const HUMAN: &str = "human";

/// One seat: its number, name, who plays it, and the hash of its token (human seats).
#[derive(Clone, Debug)]
pub struct Seat {
    pub seat: i32,
    pub name: String,
    pub kind: String,
    pub token_hash: Option<[u8; 32]>,
}

impl Seat {
    pub fn is_bot(&self) -> bool {
        self.kind != HUMAN
    }

    pub fn public(&self) -> Value {
        json!({"seat": self.seat, "name": self.name, "kind": self.kind})
    }
}

/// What never changes in a game.
#[derive(Debug)]
pub struct Meta {
    pub id: String,
    pub game: String,
    pub game_name: String,
    /// The engine's game, or `None` when this build does not play the stored rules.
    pub handle: Option<GameHandle>,
    pub config: Value,
    pub seed: u64,
    pub rules_version: String,
    pub seats: Vec<Seat>,
    pub created_at: i64,
}

impl Meta {
    /// The seat whose token `token` is.
    pub fn seat_of(&self, token: &str) -> Option<i32> {
        tokens::find_seat(token, self.seats.iter().map(|s| (s.seat, s.token_hash.as_ref())))
    }

    pub fn seat(&self, seat: i32) -> Option<&Seat> {
        usize::try_from(seat).ok().and_then(|i| self.seats.get(i))
    }
}

/// The game's name in the registry.
pub fn game_name(id: &str) -> String {
    kassen_core::games().into_iter().find(|g| g.0 == id).map_or_else(|| id.to_string(), |g| g.1.to_string())
}

/// The seat names of a configured game (its spectator view's `seats`).
pub fn seat_names(state: &StateHandle) -> Vec<String> {
    let view = state.view(SPECTATOR).unwrap_or(Value::Null);
    let n = state.game().num_players();
    (0..n).map(|i| view["seats"][i]["name"].as_str().map_or_else(|| format!("Seat {}", i + 1), str::to_string)).collect()
}

/// The game's position, rebuilt from the record.
#[derive(Clone)]
pub struct Live {
    pub meta: Arc<Meta>,
    /// `None` when the rules are unsupported.
    pub state: Option<StateHandle>,
    pub finished: bool,
    pub step: i64,
    pub result: Option<Value>,
    pub updated_at: i64,
    /// The bot seat searching now.
    pub thinking: Option<i32>,
    /// How far the thinking bot's search has got (IS-MCTS): `{"iterations", "elapsed_ms"}`.
    pub bot_progress: Option<Value>,
    /// The step of the record's last move by a seat (not a chance outcome): the move whose
    /// event sentences tell the last move.
    pub last_step: Option<i64>,
}

/// Why a stored game could not be replayed.
pub enum Unplayable {
    Rules,
    Record(String),
}

/// The state of `meta`'s game after `moves`; `Err` when the rules are unsupported or the
/// record does not replay.
pub fn replay(meta: &Meta, moves: &[MoveRow]) -> Result<StateHandle, Unplayable> {
    let game = meta.handle.as_ref().ok_or(Unplayable::Rules)?;
    let mut state = game.new_initial_state(meta.seed);
    for (i, m) in moves.iter().enumerate() {
        if m.step != i as i64 {
            return Err(Unplayable::Record(format!("move {i} has step {}", m.step)));
        }
        let a = ActionId::try_from(m.action).map_err(|_| Unplayable::Record(format!("move {i}: action {}", m.action)))?;
        state.apply_in_place(a).map_err(|e| Unplayable::Record(format!("move {i}: {e}")))?;
    }
    Ok(state)
}

/// The step of the last move in `moves` made by a seat (not a chance outcome).
pub fn last_seat_move(moves: &[MoveRow]) -> Option<i64> {
    moves.iter().rev().find(|m| m.seat >= 0).map(|m| m.step)
}

/// The fixed facts of a stored game.
pub fn meta_of(row: &GameRow, seats: &[SeatRow]) -> Meta {
    let config: Value = serde_json::from_str(&row.config).unwrap_or(Value::Null);
    let handle = load_game(&row.game, Some(&config)).ok().filter(|g| g.info().rules_version == row.rules_version);
    let names = handle.as_ref().map(|g| seat_names(&g.new_initial_state(0)));
    let seats = seats
        .iter()
        .map(|s| Seat {
            seat: s.seat,
            name: names.as_ref().and_then(|n| n.get(s.seat as usize).cloned()).unwrap_or_else(|| format!("Seat {}", s.seat + 1)),
            kind: s.kind.clone(),
            token_hash: s.token_hash.as_deref().and_then(tokens::parse_hash),
        })
        .collect();
    Meta {
        id: row.id.clone(),
        game: row.game.clone(),
        game_name: game_name(&row.game),
        handle,
        config,
        seed: row.seed as u64,
        rules_version: row.rules_version.clone(),
        seats,
        created_at: row.created_at,
    }
}

/// Resolves chance nodes of a game with `"explicit_chance": true` from a generator seeded by
/// the game's seed and the step, appending the outcomes to `rows`.
pub fn settle_chance(state: &mut StateHandle, seed: u64, at: i64, rows: &mut Vec<MoveRow>) {
    while state.current_player() == CHANCE {
        let step = state.history().len() as u64;
        let mut rng = Rng::from_seed(seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let outcomes = state.chance_outcomes();
        let x = rng.unit_f64();
        let mut acc = 0.0;
        let mut pick = outcomes.last().map(|o| o.0);
        for &(a, p) in &outcomes {
            acc += p;
            if x < acc {
                pick = Some(a);
                break;
            }
        }
        let Some(a) = pick else { return };
        if state.apply_in_place(a).is_err() {
            return;
        }
        rows.push(MoveRow { step: step as i64, seat: CHANCE, action: a as i64, at });
    }
}

/// The seat to act in a state (None when it is over).
pub fn to_act(state: &StateHandle) -> Option<i32> {
    let p = state.current_player();
    (p >= 0).then_some(p)
}

/// The result of a game played to its end.
pub fn played_out(state: &StateHandle) -> Value {
    let winners = state.view(SPECTATOR).map(|v| v["winners"].clone()).unwrap_or(Value::Null);
    json!({"reason": "played_out", "resigned": null, "returns": state.returns(), "winners": winners})
}

/// The result of a resignation by `seat`.
pub fn resigned(meta: &Meta, seat: i32) -> Value {
    let winners: Vec<i32> = meta.seats.iter().map(|s| s.seat).filter(|&s| s != seat).collect();
    json!({"reason": "resigned", "resigned": seat, "returns": null, "winners": winners})
}

impl Live {
    pub fn supported(&self) -> bool {
        self.state.is_some()
    }

    pub fn status(&self) -> &'static str {
        match (self.supported(), self.finished) {
            (false, _) => "unsupported_rules",
            (true, true) => "finished",
            (true, false) => "active",
        }
    }

    /// What the stream's messages of the game depend on besides the seat.
    pub fn position(&self) -> crate::frames::Position {
        (self.step, self.thinking, self.finished)
    }

    pub fn to_act(&self) -> Option<i32> {
        if self.finished {
            return None;
        }
        self.state.as_ref().and_then(to_act)
    }

    /// The public summary (`GET /api/games/<id>`).
    pub fn summary(&self) -> Value {
        let m = &self.meta;
        json!({
            "game_id": m.id, "game": m.game, "game_name": m.game_name, "config": m.config,
            "rules_version": m.rules_version, "seats": m.seats.iter().map(Seat::public).collect::<Vec<_>>(),
            "status": self.status(), "finished": self.finished, "to_act": self.to_act(), "thinking": self.thinking,
            "thinking_progress": self.bot_progress,
            "step": self.step, "result": self.result, "created_at": m.created_at, "updated_at": self.updated_at,
        })
    }

    /// The seat's legal moves when it is to act, else empty.
    pub fn legal(&self, seat: Option<i32>) -> Vec<Value> {
        let (Some(seat), Some(state)) = (seat, self.state.as_ref()) else { return Vec::new() };
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        let game = state.game();
        state
            .legal_actions()
            .into_iter()
            .map(|a| {
                let j = state.action_to_json(a).unwrap_or(Value::Null);
                json!({
                    "id": a, "text": state.action_to_string(a).unwrap_or_default(),
                    "sentence": action_sentence(&j), "json": j, "target": game.action_target(a),
                })
            })
            .collect()
    }

    /// The last move as `player` may see it (the view's `last_action`): its seat, its `step`
    /// (the seat's events of that step are its sentences), and where the seat may see the move,
    /// its text and board target.
    pub fn last_move(&self, player: Player) -> Value {
        let Some(state) = self.state.as_ref() else { return Value::Null };
        let Ok(Some(last)) = state.last_action(player) else { return Value::Null };
        let target = last.text.as_ref().and_then(|_| state.game().action_target(last.id));
        json!({"seat": (last.seat >= 0).then_some(last.seat), "step": self.last_step, "text": last.text, "target": target})
    }
}

/// The snapshot of docs/server.md section 4 for `seat` (None: spectator): the stream's
/// `events` message from `since` and the board as the seat sees it, computed from a copy of
/// the live game (the board drawing takes a while and holds no lock).
pub fn snapshot(live: &Live, seat: Option<i32>, since: usize) -> Value {
    let player: Player = seat.unwrap_or(SPECTATOR);
    let state = live.state.as_ref().expect("a supported game");
    let view = state.view(player).unwrap_or(Value::Null);
    let svg = state.render_svg(player).unwrap_or_default();
    let mut out: Value = serde_json::from_str(&crate::frames::message(live, seat, since).text).unwrap_or(Value::Null);
    let m = &live.meta;
    let fields = json!({
        "game_id": m.id, "game": m.game, "game_name": m.game_name,
        "seat_names": m.seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
        "seats": m.seats.iter().map(Seat::public).collect::<Vec<_>>(),
        "seat": seat, "svg": svg,
        "prompt": view["to_act"]["decision"]["prompt"].clone(),
        "legal": live.legal(seat),
    });
    if let (Value::Object(o), Value::Object(f)) = (&mut out, fields) {
        o.remove("type");
        o.extend(f);
        o.insert("view".into(), view);
    }
    out
}

fn words(v: &Value) -> String {
    match v {
        Value::String(s) => s.replace('_', " "),
        Value::Array(a) => a.iter().map(words).collect::<Vec<_>>().join(" – "),
        Value::Object(o) => o.iter().map(|(k, x)| format!("{} {}", words(&json!(k)), words(x))).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// A legal move as a short sentence from its JSON, as the local play page words it: the
/// game's own `text` when it gives one, else its verb and arguments.
pub fn action_sentence(action: &Value) -> String {
    if let Some(text) = action["text"].as_str().filter(|t| !t.is_empty()) {
        return capitalized(&text.replace('_', " "));
    }
    let verb = capitalized(&action.get("verb").map_or_else(|| "move".to_string(), words));
    let rest: Vec<String> = action
        .as_object()
        .map(|o| o.iter().filter(|(k, _)| *k != "id" && *k != "verb").map(|(k, v)| format!("{} {}", words(&json!(k)), words(v))).collect())
        .unwrap_or_default();
    if rest.is_empty() {
        verb
    } else {
        format!("{verb}: {}", rest.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_follow_the_play_page() {
        assert_eq!(action_sentence(&json!({"verb": "step", "road": ["ueda", "arato"]})), "Step: road ueda – arato");
        assert_eq!(action_sentence(&json!({"text": "pass_turn", "verb": "x"})), "Pass turn");
        assert_eq!(action_sentence(&json!({"id": 3})), "Move");
    }
}
