//! The view envelope (`kassen.view/1`) built around a game's own view: the shared top level
//! (observer, seats, who acts, result, last action) with the game's view as `body`.

use serde_json::{json, Value};

use crate::engine::{load_game, DynState};
use crate::error::RuleError;
use crate::game::{Player, CHANCE, SPECTATOR, TERMINAL};

/// The envelope schema name.
pub const VIEW_SCHEMA: &str = "kassen.view/1";

/// The view of `state` for `observer` ([`SPECTATOR`] for public information only), in the
/// envelope.
pub fn view(state: &dyn DynState, observer: Player) -> Result<Value, RuleError> {
    let body = state.view(observer)?;
    let game = state.game();
    let info = game.info();
    let n = game.num_players();
    let current = state.current_player();
    let decision = decision_of(&body);
    let to_act = match current {
        TERMINAL => json!({"kind": "terminal", "seat": null, "decision": null}),
        CHANCE => json!({"kind": "chance", "seat": null, "decision": null}),
        p => json!({"kind": "player", "seat": p, "decision": decision}),
    };
    let terminal = current == TERMINAL;
    let returns = state.returns();
    let winners: Option<Vec<usize>> = terminal.then(|| {
        let best = returns.iter().cloned().fold(f64::MIN, f64::max);
        let all_equal = returns.iter().all(|&r| r == best);
        if all_equal {
            Vec::new()
        } else {
            (0..n).filter(|&p| returns[p] == best).collect()
        }
    });
    Ok(json!({
        "schema": VIEW_SCHEMA,
        "game": info.id,
        "rules_version": info.rules_version,
        "observer": if observer == SPECTATOR { Value::Null } else { json!(observer) },
        "seats": (0..n).map(|p| json!({"seat": p, "name": format!("seat {p}")})).collect::<Vec<_>>(),
        "to_act": to_act,
        "terminal": terminal,
        "returns": if terminal { json!(returns) } else { Value::Null },
        "winners": winners,
        "last_action": last_action(state, observer),
        "body": body,
    }))
}

/// The game's pending decision in one shape: its kind and a prompt made from it.
fn decision_of(body: &Value) -> Value {
    let kind = body
        .get("decision")
        .and_then(|d| d.get("ask"))
        .or_else(|| body.get("pending").and_then(|p| p.get("kind")))
        .and_then(Value::as_str)
        .unwrap_or("act");
    json!({"kind": kind, "prompt": kind.replace('_', " ")})
}

/// Who made the last action and, when `observer` may know it, which: a seat's own actions, or
/// any action in a game without hidden information. Chance outcomes are shown only in such a
/// game.
fn last_action(state: &dyn DynState, observer: Player) -> Value {
    let history = state.history();
    let Some(&last) = history.last() else { return Value::Null };
    let game = state.game();
    let mut config = game.info().config.clone();
    config["explicit_chance"] = json!(true);
    // Replays the log one entry at a time to learn who chose its last entry.
    let Ok(explicit) = load_game(game.id(), Some(&config)) else { return Value::Null };
    let mut replay = explicit.new_initial_state(state.seed());
    let mut actor = CHANCE;
    let mut text = String::new();
    for (i, &a) in history.iter().enumerate() {
        actor = replay.current_player();
        if i + 1 == history.len() {
            text = replay.action_to_string(a).unwrap_or_default();
        }
        if replay.apply_in_place(a).is_err() {
            return Value::Null;
        }
    }
    let public = !game.info().hidden_information;
    let seat = if actor == CHANCE { Value::Null } else { json!(actor) };
    if public || (actor != CHANCE && actor == observer) {
        json!({"seat": seat, "id": last, "text": text})
    } else {
        json!({"seat": seat, "hidden": true})
    }
}
