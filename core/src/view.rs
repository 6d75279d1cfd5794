//! The view envelope: the same top level for every game's view, so that a frontend can show
//! whose turn it is, what is asked, who won and what just happened without per-game code. The
//! game's own view goes under `body`. The JSON Schema is `schema/view.schema.json`.

use serde::Serialize;
use serde_json::Value;

use crate::game::{ActionId, Game, GameInfo, Player, CHANCE, TERMINAL};

/// The `schema` field of every view.
pub const VIEW_SCHEMA: &str = "kassen.view/2";

/// The last action applied through the engine (not a chance outcome it resolved itself), as
/// one observer may see it.
pub struct LastAction {
    /// The seat that chose it, or [`CHANCE`] for an explicit chance outcome.
    pub seat: Player,
    pub id: ActionId,
    /// `None` when the observer may not see which action it was.
    pub text: Option<String>,
    /// The sentences of the events of that move the observer was shown, in order
    /// ([`Game::event_text`], else a generic sentence): how a page tells the move.
    pub sentences: Vec<String>,
}

/// The default pending decision: a `kind` and a human `prompt` (see [`Game::decision`]).
#[derive(Serialize)]
pub struct Prompt {
    pub kind: &'static str,
    pub prompt: &'static str,
}

// Field order: the keys in ascending order, as `serde_json::Value` objects print them, so that
// the direct JSON text and the JSON of `Value`s are the same bytes.
#[derive(Serialize)]
struct Envelope<'a, B, D> {
    body: B,
    game: &'a str,
    last_action: Option<LastActionJson<'a>>,
    observer: Option<Player>,
    returns: Option<Vec<f64>>,
    rules_version: &'a str,
    schema: &'static str,
    seats: Vec<SeatName>,
    terminal: bool,
    to_act: ToAct<D>,
    winners: Option<Vec<usize>>,
}

#[derive(Serialize)]
struct LastActionJson<'a> {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    hidden: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<ActionId>,
    seat: Option<Player>,
    sentences: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
}

#[derive(Serialize)]
struct SeatName {
    name: String,
    seat: usize,
}

#[derive(Serialize)]
struct ToAct<D> {
    decision: Option<D>,
    kind: &'static str,
    seat: Option<Player>,
}

fn seat_or_null(p: Player) -> Option<Player> {
    (p >= 0).then_some(p)
}

/// The envelope of `rules.view_body(s, observer)`, ready to serialize.
fn build<'a, G: Game>(
    rules: &'a G,
    info: &'a GameInfo,
    s: &'a G::State,
    observer: Player,
    last: Option<&'a LastAction>,
) -> Envelope<'a, impl Serialize + 'a, impl Serialize + 'a> {
    let current = rules.current_player(s);
    let terminal = current == TERMINAL;
    let kind = match current {
        TERMINAL => "terminal",
        CHANCE => "chance",
        _ => "player",
    };
    let to_act = ToAct { kind, seat: seat_or_null(current), decision: (!terminal).then(|| rules.decision(s, observer)) };
    let last_action = last.map(|l| LastActionJson {
        hidden: l.text.is_none(),
        id: l.text.is_some().then_some(l.id),
        seat: seat_or_null(l.seat),
        sentences: &l.sentences,
        text: l.text.as_deref(),
    });
    Envelope {
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
        body: rules.view_body(s, observer),
    }
}

/// The envelope of `rules.view(s, observer)`.
pub fn envelope<G: Game>(rules: &G, info: &GameInfo, s: &G::State, observer: Player, last: Option<LastAction>) -> Value {
    serde_json::to_value(build(rules, info, s, observer, last.as_ref())).expect("views serialize")
}

/// [`envelope`] for the text observation: the envelope without its body as a
/// [`crate::text::node::Node`] tree (the same tree as `Node::from(&envelope(..))` with a null
/// body, without the JSON `Value`), and the body itself, to be written as it serializes.
pub fn envelope_parts<'a, G: Game>(
    rules: &'a G,
    info: &'a GameInfo,
    s: &'a G::State,
    observer: Player,
    last: Option<&'a LastAction>,
) -> (crate::text::node::Node, impl Serialize + 'a) {
    let Envelope { body, game, last_action, observer, returns, rules_version, schema, seats, terminal, to_act, winners } =
        build(rules, info, s, observer, last);
    let env = Envelope { body: (), game, last_action, observer, returns, rules_version, schema, seats, terminal, to_act, winners };
    let tree = crate::text::node::Node::of(&env).unwrap_or_else(|| (&serde_json::to_value(&env).expect("views serialize")).into());
    (tree, body)
}

/// [`envelope`] as JSON text, written straight from the state (the same bytes as the
/// envelope's `to_string()`).
pub fn envelope_json<G: Game>(rules: &G, info: &GameInfo, s: &G::State, observer: Player, last: Option<LastAction>) -> String {
    let capacity = info.buffer_sizes.max_view_bytes as usize;
    crate::json_text::to_string(&build(rules, info, s, observer, last.as_ref()), capacity).expect("views serialize")
}
