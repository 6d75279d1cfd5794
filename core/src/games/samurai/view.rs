//! Views and action texts: what a seat may know, and nothing else.
//!
//! Hidden from other seats: the tokens behind a screen (4.2), the order and content of a
//! stack (4.3), and in 3-4 player games the type of captured figures (3.3); the others see
//! counts. At the end the screens are lifted (7.1) and everything is shown.

use serde_json::{json, Value};

use super::action::Action;
use super::data::HexKind;
use super::state::{cell_owner, cell_token, Pending, Phase, State, EMPTY};
use super::{bits, score, Samurai, FIGURE_TYPES};
use crate::game::{ActionId, Player};

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::ChooseTokens => "choose_tokens",
        Phase::PlaceFigures => "place_figures",
        Phase::Play => "play",
        Phase::Refill => "refill",
        Phase::Over => "over",
    }
}

fn figure_names(mask: u8) -> Vec<&'static str> {
    (0..3).filter(|f| mask & (1 << f) != 0).map(|f| FIGURE_TYPES[f]).collect()
}

fn per_type(v: [u8; 3]) -> Value {
    json!({"helmet": v[0], "buddha": v[1], "rice": v[2]})
}

/// Whether `observer` may see the type of the figures captured by `seat`.
pub fn sees_captured(g: &Samurai, s: &State, observer: Player, seat: usize) -> bool {
    g.n == 2 || s.phase == Phase::Over || observer == seat as Player
}

/// Tokens of `seat` that are on the board or discarded (public).
pub fn used_tokens(g: &Samurai, s: &State, seat: usize) -> u32 {
    match s.phase {
        Phase::ChooseTokens | Phase::PlaceFigures => 0,
        _ => g.all_tokens & !s.hands[seat] & !s.stacks[seat],
    }
}

fn token_list(g: &Samurai, mask: u32) -> Vec<Value> {
    bits(mask).map(|t| json!({"token": t, "name": g.data().tokens[t as usize].name})).collect()
}

/// The pending decision for the view envelope (public: every seat sees what is asked).
pub fn decision(g: &Samurai, s: &State) -> Value {
    let d = g.data();
    let (kind, prompt, mut extra) = match (s.phase, s.turn.pending) {
        (Phase::ChooseTokens, _) => {
            ("keep_token", "keep a token for your hand", json!({"kept": s.hand_size(s.seat as usize), "of": super::HAND}))
        }
        (Phase::PlaceFigures, _) => ("place_figure", "put a figure on a settlement", json!({})),
        (Phase::Play, Pending::None) => ("play_token_or_end_turn", "play a token or end your turn", json!({})),
        (Phase::Play, Pending::ReplaceToken { token }) => (
            "replace_picked_up_token",
            "place the picked-up token elsewhere",
            json!({"token": token, "name": d.tokens[token as usize].name}),
        ),
        (Phase::Play, Pending::SwapFigure { settlement, figure }) => (
            "choose_second_figure",
            "choose the second figure of the exchange",
            json!({"first": {"hex": d.settlements[settlement as usize].hex, "figure": FIGURE_TYPES[figure as usize]}}),
        ),
        (Phase::Refill, _) => ("draw_token", "a token is drawn", json!({"for_seat": s.seat})),
        (Phase::Over, _) => ("over", "the game is over", json!({})),
    };
    extra["kind"] = json!(kind);
    extra["prompt"] = json!(prompt);
    extra
}

/// Whether everyone sees action `a` (4.2: the tokens kept for the hand are secret; the drawn
/// token is seen only by its owner, who is not told it as an action either).
pub fn action_is_public(g: &Samurai, a: ActionId) -> bool {
    !matches!(g.decode(a), Some(Action::Keep { .. }) | Some(Action::Draw { .. }) | None)
}

pub fn view(g: &Samurai, s: &State, observer: Player) -> Value {
    let d = g.data();
    let tokens: Vec<Value> = s
        .cells
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != EMPTY)
        .map(|(h, &c)| json!({"hex": h, "seat": cell_owner(c), "token": cell_token(c), "name": d.tokens[cell_token(c) as usize].name}))
        .collect();
    let settlements: Vec<Value> = g
        .settlements
        .iter()
        .map(|&st| {
            let info = &d.settlements[st as usize];
            json!({"hex": info.hex, "kind": info.kind.name(), "figures": figure_names(s.figures[st as usize]), "resolved": s.is_resolved(st as usize)})
        })
        .collect();
    let players: Vec<Value> = (0..g.n)
        .map(|p| {
            let own = observer == p as Player;
            let open = sees_captured(g, s, observer, p);
            let captured_total: u8 = s.captured[p].iter().sum();
            json!({
                "seat": p,
                "hand": if own || s.phase == Phase::Over { json!(token_list(g, s.hands[p])) } else { Value::Null },
                "hand_size": s.hand_size(p),
                "stack": if own { json!(token_list(g, s.stacks[p])) } else { Value::Null },
                "stack_size": s.stacks[p].count_ones(),
                "used": token_list(g, used_tokens(g, s, p)),
                "captured": if open { per_type(s.captured[p]) } else { Value::Null },
                "captured_count": captured_total,
            })
        })
        .collect();
    let result = (s.phase == Phase::Over).then(|| {
        let sc = score(&s.captured[..g.n]);
        json!({"reason": s.end.map(super::scoring::reason_name), "score": sc})
    });
    json!({
        "num_players": g.n,
        "phase": phase_name(s.phase),
        "turn": {"seat": s.seat, "tokens_played": s.turn.played, "normal_token_used": s.turn.normal_used, "consecutive_passes": s.passes},
        "board": {"tokens": tokens, "settlements": settlements},
        "players": players,
        "supply": per_type(s.supply),
        "on_board": per_type(s.on_board),
        "set_aside": per_type(s.set_aside),
        "result": result,
    })
}

fn hex_label(g: &Samurai, hex: u8) -> String {
    match g.data().hexes.get(hex as usize) {
        Some(h) if h.kind.is_settlement() => format!("{} h{hex}", h.kind.name()),
        _ => format!("h{hex}"),
    }
}

pub fn action_string(g: &Samurai, a: ActionId) -> String {
    let d = g.data();
    let name = |t: u8| d.tokens.get(t as usize).map(|x| x.name.as_str()).unwrap_or("?");
    match g.decode(a) {
        Some(Action::Keep { token }) => format!("keep {}", name(token)),
        Some(Action::PlaceFigure { figure, hex }) => format!("put {} on {}", FIGURE_TYPES[figure as usize], hex_label(g, hex)),
        Some(Action::PlaceToken { token, hex }) => format!("place {} on {}", name(token), hex_label(g, hex)),
        Some(Action::SwapFigure { figure, hex }) => format!("figure exchange: {} on {}", FIGURE_TYPES[figure as usize], hex_label(g, hex)),
        Some(Action::PickUp { hex }) => format!("token exchange: pick up from {}", hex_label(g, hex)),
        Some(Action::EndTurn) => "end turn".into(),
        Some(Action::Draw { token }) => format!("draw {}", name(token)),
        None => format!("invalid action {a}"),
    }
}

pub fn action_json(g: &Samurai, a: ActionId) -> Value {
    let hex = |h: u8| {
        let k = g.data().hexes.get(h as usize).map(|x| x.kind).unwrap_or(HexKind::Sea);
        json!({"id": h, "kind": k.name()})
    };
    let mut v = match g.decode(a) {
        Some(Action::Keep { token }) => json!({"verb": "keep", "token": token}),
        Some(Action::PlaceFigure { figure, hex: h }) => {
            json!({"verb": "place_figure", "figure": FIGURE_TYPES[figure as usize], "hex": hex(h)})
        }
        Some(Action::PlaceToken { token, hex: h }) => json!({"verb": "place_token", "token": token, "hex": hex(h)}),
        Some(Action::SwapFigure { figure, hex: h }) => {
            json!({"verb": "choose_exchange_figure", "figure": FIGURE_TYPES[figure as usize], "hex": hex(h)})
        }
        Some(Action::PickUp { hex: h }) => json!({"verb": "token_exchange_pick_up", "hex": hex(h)}),
        Some(Action::EndTurn) => json!({"verb": "end_turn"}),
        Some(Action::Draw { token }) => json!({"verb": "draw", "token": token}),
        None => json!({"verb": "invalid"}),
    };
    v["id"] = json!(a);
    v["text"] = json!(action_string(g, a));
    if let Some(t) = v.get("token").and_then(Value::as_u64) {
        v["token_name"] = json!(g.data().tokens[t as usize].name);
    }
    v
}
