//! The view envelope: the same top level for every game's view, so that a frontend can show
//! whose turn it is, what is asked, who won and what just happened without per-game code. The
//! game's own view goes under `body`. The JSON Schema is `schema/view.schema.json`.

use serde::Serialize;
use serde_json::Value;

use crate::game::{ActionId, Game, GameInfo, Player, CHANCE, TERMINAL};

/// The `schema` field of every view.
pub const VIEW_SCHEMA: &str = "kassen.view/1";

/// The last action applied through the engine (not a chance outcome it resolved itself), as
/// one observer may see it.
pub struct LastAction {
    /// The seat that chose it, or [`CHANCE`] for an explicit chance outcome.
    pub seat: Player,
    pub id: ActionId,
    /// `None` when the observer may not see which action it was.
    pub text: Option<String>,
}

#[derive(Serialize)]
struct Envelope<'a> {
    schema: &'static str,
    game: &'a str,
    rules_version: &'a str,
    observer: Option<Player>,
    seats: Vec<SeatName>,
    to_act: ToAct,
    terminal: bool,
    returns: Option<Vec<f64>>,
    winners: Option<Vec<usize>>,
    last_action: Option<Value>,
    body: Value,
}

#[derive(Serialize)]
struct SeatName {
    seat: usize,
    name: String,
}

#[derive(Serialize)]
struct ToAct {
    kind: &'static str,
    seat: Option<Player>,
    decision: Option<Value>,
}

fn seat_or_null(p: Player) -> Option<Player> {
    (p >= 0).then_some(p)
}

/// The envelope of `rules.view(s, observer)`.
pub fn envelope<G: Game>(rules: &G, info: &GameInfo, s: &G::State, observer: Player, last: Option<LastAction>) -> Value {
    let current = rules.current_player(s);
    let terminal = current == TERMINAL;
    let kind = match current {
        TERMINAL => "terminal",
        CHANCE => "chance",
        _ => "player",
    };
    let to_act = ToAct { kind, seat: seat_or_null(current), decision: (!terminal).then(|| rules.decision(s, observer)) };
    let last_action = last.map(|l| match l.text {
        Some(text) => serde_json::json!({"seat": seat_or_null(l.seat), "id": l.id, "text": text}),
        None => serde_json::json!({"seat": seat_or_null(l.seat), "hidden": true}),
    });
    let env = Envelope {
        schema: VIEW_SCHEMA,
        game: G::ID,
        rules_version: &info.rules_version,
        observer: seat_or_null(observer),
        seats: rules.seat_names().into_iter().enumerate().map(|(seat, name)| SeatName { seat, name }).collect(),
        to_act,
        terminal,
        returns: terminal.then(|| rules.returns(s)),
        winners: terminal.then(|| rules.winners(s)),
        last_action,
        body: rules.view(s, observer),
    };
    serde_json::to_value(env).expect("views serialize")
}
