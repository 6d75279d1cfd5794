//! Views and action texts: what a seat may know, and nothing else.
//!
//! Hidden from other seats: the tokens behind a screen (4.2), the order and content of a
//! stack (4.3), and in 3-4 player games the type of captured figures (3.3); the others see
//! counts. At the end the screens are lifted (7.1) and everything is shown.

use serde::Serialize;
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

// Field order in the structs below: the keys in ascending order, as `serde_json::Value`
// objects print them (the view JSON is the same bytes either way).

/// One count per figure type.
#[derive(Serialize)]
struct PerType {
    buddha: u8,
    helmet: u8,
    rice: u8,
}

fn per_type(v: [u8; 3]) -> PerType {
    PerType { helmet: v[0], buddha: v[1], rice: v[2] }
}

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

#[derive(Serialize)]
struct TokenName<'a> {
    name: &'a str,
    token: u8,
}

fn token_list(g: &Samurai, mask: u32) -> Vec<TokenName<'_>> {
    bits(mask).map(|t| TokenName { token: t, name: &g.data().tokens[t as usize].name }).collect()
}

#[derive(Serialize)]
struct FirstFigure {
    figure: &'static str,
    hex: u8,
}

#[derive(Serialize)]
pub struct Decision<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<FirstFigure>,
    #[serde(skip_serializing_if = "Option::is_none")]
    for_seat: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kept: Option<u32>,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    of: Option<u32>,
    prompt: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<u8>,
}

pub fn decision<'a>(g: &'a Samurai, s: &State) -> Decision<'a> {
    let d = g.data();
    let mut v = Decision { first: None, for_seat: None, kept: None, kind: "", name: None, of: None, prompt: "", token: None };
    (v.kind, v.prompt) = match (s.phase, s.turn.pending) {
        (Phase::ChooseTokens, _) => {
            (v.kept, v.of) = (Some(s.hand_size(s.seat as usize)), Some(super::HAND));
            ("keep_token", "keep a token for your hand")
        }
        (Phase::PlaceFigures, _) => ("place_figure", "put a figure on a settlement"),
        (Phase::Play, Pending::None) => ("play_token_or_end_turn", "play a token or end your turn"),
        (Phase::Play, Pending::ReplaceToken { token }) => {
            (v.token, v.name) = (Some(token), Some(d.tokens[token as usize].name.as_str()));
            ("replace_picked_up_token", "place the picked-up token elsewhere")
        }
        (Phase::Play, Pending::SwapFigure { settlement, figure }) => {
            v.first = Some(FirstFigure { hex: d.settlements[settlement as usize].hex, figure: FIGURE_TYPES[figure as usize] });
            ("choose_second_figure", "choose the second figure of the exchange")
        }
        (Phase::Refill, _) => {
            v.for_seat = Some(s.seat);
            ("draw_token", "a token is drawn")
        }
        (Phase::Over, _) => ("over", "the game is over"),
    };
    v
}

pub fn action_is_public(g: &Samurai, a: ActionId) -> bool {
    !matches!(g.decode(a), Some(Action::Keep { .. }) | Some(Action::Draw { .. }) | None)
}

#[derive(Serialize)]
struct TokenView<'a> {
    hex: usize,
    name: &'a str,
    seat: usize,
    token: u8,
}

#[derive(Serialize)]
struct SettlementView {
    figures: Vec<&'static str>,
    hex: u8,
    kind: &'static str,
    resolved: bool,
}

#[derive(Serialize)]
struct Board<'a> {
    settlements: Vec<SettlementView>,
    tokens: Vec<TokenView<'a>>,
}

#[derive(Serialize)]
struct PlayerView<'a> {
    captured: Option<PerType>,
    captured_count: u8,
    hand: Option<Vec<TokenName<'a>>>,
    hand_size: u32,
    seat: usize,
    stack: Option<Vec<TokenName<'a>>>,
    stack_size: u32,
    used: Vec<TokenName<'a>>,
}

#[derive(Serialize)]
struct TurnView {
    consecutive_passes: u8,
    normal_token_used: bool,
    seat: u8,
    tokens_played: u8,
}

#[derive(Serialize)]
struct ResultView {
    reason: Option<String>,
    score: super::scoring::Score,
}

/// The view body of one observer.
#[derive(Serialize)]
pub struct View<'a> {
    board: Board<'a>,
    num_players: usize,
    on_board: PerType,
    phase: &'static str,
    players: Vec<PlayerView<'a>>,
    result: Option<ResultView>,
    set_aside: PerType,
    supply: PerType,
    turn: TurnView,
}

pub fn view<'a>(g: &'a Samurai, s: &State, observer: Player) -> View<'a> {
    let d = g.data();
    let tokens = s
        .cells
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != EMPTY)
        .map(|(h, &c)| TokenView { hex: h, seat: cell_owner(c), token: cell_token(c), name: &d.tokens[cell_token(c) as usize].name })
        .collect();
    let settlements = g
        .settlements
        .iter()
        .map(|&st| {
            let info = &d.settlements[st as usize];
            SettlementView {
                hex: info.hex,
                kind: info.kind.name(),
                figures: figure_names(s.figures[st as usize]),
                resolved: s.is_resolved(st as usize),
            }
        })
        .collect();
    let players = (0..g.n)
        .map(|p| {
            let own = observer == p as Player;
            PlayerView {
                seat: p,
                hand: (own || s.phase == Phase::Over).then(|| token_list(g, s.hands[p])),
                hand_size: s.hand_size(p),
                stack: own.then(|| token_list(g, s.stacks[p])),
                stack_size: s.stacks[p].count_ones(),
                used: token_list(g, used_tokens(g, s, p)),
                captured: sees_captured(g, s, observer, p).then(|| per_type(s.captured[p])),
                captured_count: s.captured[p].iter().sum(),
            }
        })
        .collect();
    View {
        num_players: g.n,
        phase: phase_name(s.phase),
        turn: TurnView { seat: s.seat, tokens_played: s.turn.played, normal_token_used: s.turn.normal_used, consecutive_passes: s.passes },
        board: Board { tokens, settlements },
        players,
        supply: per_type(s.supply),
        on_board: per_type(s.on_board),
        set_aside: per_type(s.set_aside),
        result: (s.phase == Phase::Over)
            .then(|| ResultView { reason: s.end.map(super::scoring::reason_name), score: score(&s.captured[..g.n]) }),
    }
}

fn hex_label(g: &Samurai, hex: u8) -> String {
    g.hex_name(u64::from(hex))
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
