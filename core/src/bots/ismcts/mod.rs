//! Information-set Monte Carlo tree search: the engine's strong bot, for every registered game.
//!
//! Single-observer IS-MCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
//! Search", 2012; OpenSpiel's `ismcts.py` is the same family): the searching seat draws
//! determinizations of what it cannot see with [`crate::DynState::determinize`] (a pool of
//! [`SearchParams::determinizations`] worlds, used in turn), and grows one tree over all of
//! them, keyed by the actions from the root. Legal sets that differ between worlds are handled
//! by availability counts; chance nodes are sampled by their probabilities; every seat of a
//! game with two or more players maximizes its own reward. Playouts use the game's own
//! knowledge ([`crate::Game::rollout_action`], [`crate::Game::evaluate`]), which lives in
//! `games/<id>/`; the search itself knows no game.
//!
//! A decision depends only on what the seat knows: the search reads the real state through
//! `determinize`, `current_player` and `legal_actions` alone (a test plays the bot on the real
//! state and on a determinization of it and compares the decisions).
//!
//! Budgets: iterations, time, or both (whichever ends first), and threads (each thread grows
//! its own tree; the root statistics are summed). For a given seed, iteration budget and thread
//! count, without a time limit, the decision is always the same. [`Level`] names the budgets a
//! frontend offers. [`Search`] runs a search on worker threads that a user interface polls and
//! stops.

mod background;
pub mod explain;
#[cfg(test)]
mod reuse_tests;
pub(crate) mod search;
mod tree;
mod turn;

use std::time::Duration;

use serde::Serialize;

pub use background::Search;
pub use search::{Control, Kept};
pub use turn::{TurnBudget, TurnClock, FIRST_GUESS, FLOOR_SHARE};

use super::{random_action, Bot};
use crate::engine::StateHandle;
use crate::error::{Error, RuleError, SetupError};
use crate::game::{ActionId, Player};
use crate::rng::Rng;

/// The longest time limit of a search or a search bot: 24 hours (bot specs, search parameters
/// and the C and Python surfaces share it; a larger one is `ConfigOutOfRange`).
pub const MAX_TIME_MS: u64 = 86_400_000;
/// The largest iteration budget of a search or a search bot (a larger one is
/// `ConfigOutOfRange`). A search with only a time limit also ends here, so no count of a
/// tree's statistics can overflow.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;
/// The largest node budget ([`SearchParams::max_nodes`]) a caller may ask for (a larger one is
/// `ConfigOutOfRange`).
pub const MAX_NODES: u64 = 1_000_000_000;
/// The node budget of a search unless its parameters say otherwise: 1,000,000 nodes, at most
/// about 80 MB (a node with its entry in its parent's list of children holds about 75 bytes
/// of heap, reserved room included, and adds about 63 bytes to the resident memory of a
/// Samurai search; the test `a_tree_costs_few_bytes_per_node` bounds the first). The `hard`
/// level (200,000 iterations, a node or a few each) rarely reaches it; a search of hours does,
/// and then goes on within it.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// UCB1's exploration constant of a search whose parameters leave it unset, in a game that
/// does not ask for another ([`crate::game::Game::search_exploration`]).
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// The budgets and knobs of one search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Stop after this many iterations (over all threads; at most [`MAX_ITERATIONS`]).
    /// `None`: only the time limit (and [`MAX_ITERATIONS`]).
    pub iterations: Option<u64>,
    /// Stop after this long (at most [`MAX_TIME_MS`]). `None`: only the iteration budget.
    pub time: Option<Duration>,
    /// Threads, each growing its own tree (at least 1).
    pub threads: u32,
    /// Determinizations per thread, used in turn (at least 1; games without hidden
    /// information use one).
    pub determinizations: u32,
    /// UCB1's exploration constant, for rewards scaled to `[0, 1]`. `None` (the levels'):
    /// the game's own ([`crate::game::Game::search_exploration`], [`DEFAULT_EXPLORATION`]
    /// unless the game's evaluation asks for another).
    pub exploration: Option<f64>,
    /// The most tree nodes of the search, over all threads (each thread's tree gets an equal
    /// share, at least its root; from 1 to [`MAX_NODES`], default [`DEFAULT_MAX_NODES`]).
    /// A tree at its share stops growing: later iterations walk the tree as it is and play
    /// out from where it ends, so the search goes on in bounded memory; the decision says
    /// so ([`Decision::tree_full`]).
    pub max_nodes: u64,
    /// Seed of the search's own random numbers (determinizations, playouts, chance).
    pub seed: u64,
    /// End the search as soon as more iterations cannot change its decision: with an
    /// iteration budget, when a thread's most visited action leads its second by more than
    /// the iterations it has left (the decision is the one the whole budget would give; the
    /// budget not spent is what a [`TurnClock`] gives to the turn's later decisions).
    pub early_stop: bool,
    /// Give every candidate of the decision its principal line and a short reason in words
    /// ([`Candidate::reason`]; true for the levels, false for the decisions of a bot, which
    /// nobody reads).
    pub explain: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        Level::Normal.params(0)
    }
}

impl SearchParams {
    /// Checks the budgets: at least one of iterations and time, both non-zero when given and
    /// within [`MAX_ITERATIONS`] and [`MAX_TIME_MS`] (`ConfigOutOfRange` beyond), a node
    /// budget from 1 to [`MAX_NODES`].
    pub fn validate(&self) -> Result<(), SetupError> {
        let bad = |m: &str| Err(SetupError::InvalidConfig(m.to_string()));
        let over = |m: String| Err(SetupError::OutOfRange(m));
        match (self.iterations, self.time) {
            (None, None) => bad("a search needs an iteration budget, a time limit or both"),
            (Some(0), _) => bad("the iteration budget must be at least 1"),
            (_, Some(t)) if t.is_zero() => bad("the time limit must be more than 0"),
            (Some(n), _) if n > MAX_ITERATIONS => over(format!("the iteration budget {n} is above the largest, {MAX_ITERATIONS}")),
            (_, Some(t)) if t > Duration::from_millis(MAX_TIME_MS) => {
                over(format!("the time limit of {} ms is above the longest, {MAX_TIME_MS} ms (24 h)", t.as_millis()))
            }
            _ if self.max_nodes == 0 => bad("the node budget (max_nodes) must be at least 1"),
            _ if self.max_nodes > MAX_NODES => over(format!("the node budget {} is above the largest, {MAX_NODES}", self.max_nodes)),
            _ if self.threads == 0 || self.threads > 256 => bad("threads must be from 1 to 256"),
            _ if self.determinizations == 0 || self.determinizations > 4096 => bad("determinizations must be from 1 to 4096"),
            _ if self.exploration.is_some_and(|c| !(c.is_finite() && c >= 0.0)) => bad("exploration must be a finite number >= 0"),
            _ => Ok(()),
        }
    }
}

impl SearchParams {
    /// The parameters a JSON object names, with `seed`: `{"level": "instant" | "easy" | "normal" | "hard"}`
    /// (the level's budget, the default `normal`) overridden by any of `"iterations"` (a
    /// number, or null for none), `"time_ms"` (a number, or null for none), `"threads"`,
    /// `"determinizations"`, `"exploration"` (by default the game's,
    /// [`crate::game::Game::search_exploration`]), `"max_nodes"` and `"explain"` (true or false,
    /// default true: each candidate's line and reason, [`Candidate::reason`]). Unknown keys and values out of
    /// range are errors (an iteration budget, time limit or node budget above its largest is
    /// `ConfigOutOfRange`). `null` or an empty object: the `normal` level.
    pub fn from_json(v: &serde_json::Value, seed: u64) -> Result<SearchParams, SetupError> {
        use serde_json::Value;
        let bad = |m: String| SetupError::InvalidConfig(m);
        let empty = serde_json::Map::new();
        let obj = match v {
            Value::Null => &empty,
            Value::Object(o) => o,
            _ => return Err(bad("search parameters must be a json object".into())),
        };
        const KEYS: [&str; 8] = ["level", "iterations", "time_ms", "threads", "determinizations", "exploration", "max_nodes", "explain"];
        if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(bad(format!("unknown search parameter {k:?} (known: {})", KEYS.join(", "))));
        }
        let level = match obj.get("level") {
            None => Level::Normal,
            Some(Value::String(name)) => {
                Level::parse(name).ok_or_else(|| bad(format!("unknown level {name:?} (instant, easy, normal, hard)")))?
            }
            Some(_) => return Err(bad("level must be a string".into())),
        };
        let mut p = level.params(seed);
        // A whole number; one above `u64::MAX` is above every cap (`validate` names it).
        let count = |k: &str| -> Result<Option<Option<u64>>, SetupError> {
            match obj.get(k) {
                None => Ok(None),
                Some(Value::Null) => Ok(Some(None)),
                Some(Value::Number(n)) if n.is_u64() => Ok(Some(n.as_u64())),
                Some(Value::Number(n)) if n.as_f64().is_some_and(|x| x.fract() == 0.0 && x > u64::MAX as f64) => {
                    Err(SetupError::OutOfRange(format!("{k} {n} is above the largest")))
                }
                Some(_) => Err(bad(format!("{k} must be a whole number >= 0"))),
            }
        };
        if let Some(n) = count("iterations")? {
            p.iterations = n;
        }
        if let Some(ms) = count("time_ms")? {
            p.time = ms.map(Duration::from_millis);
        }
        match count("max_nodes")? {
            Some(Some(n)) => p.max_nodes = n,
            Some(None) => return Err(bad("max_nodes cannot be null".into())),
            None => {}
        }
        for (k, field) in [("threads", &mut p.threads), ("determinizations", &mut p.determinizations)] {
            match count(k)? {
                Some(Some(n)) => {
                    *field = u32::try_from(n).map_err(|_| bad(format!("{k} must be a whole number from 0 to {}", u32::MAX)))?
                }
                Some(None) => return Err(bad(format!("{k} cannot be null"))),
                None => {}
            }
        }
        if let Some(x) = obj.get("exploration") {
            p.exploration = Some(x.as_f64().ok_or_else(|| bad("exploration must be a number".into()))?);
        }
        if let Some(x) = obj.get("explain") {
            p.explain = x.as_bool().ok_or_else(|| bad("explain must be true or false".into()))?;
        }
        p.validate()?;
        Ok(p)
    }

    /// [`SearchParams::from_json`] of JSON text (empty or blank: the `normal` level), the form
    /// the C ABI takes. A key given twice in the object is an error (`InvalidConfig`), not a
    /// silent choice of one of them; malformed text is `InvalidConfig` too.
    pub fn from_json_text(text: &str, seed: u64) -> Result<SearchParams, SetupError> {
        if text.trim().is_empty() {
            return SearchParams::from_json(&serde_json::Value::Null, seed);
        }
        let v: UniqueKeys =
            serde_json::from_str(text).map_err(|e| SetupError::InvalidConfig(format!("malformed search parameters json: {e}")))?;
        SearchParams::from_json(&v.0, seed)
    }
}

/// A JSON value whose top-level object (if it is one) has no key twice.
struct UniqueKeys(serde_json::Value);

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = UniqueKeys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a json object of search parameters")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<UniqueKeys, A::Error> {
                let mut obj = serde_json::Map::new();
                while let Some(k) = m.next_key::<String>()? {
                    if obj.contains_key(&k) {
                        return Err(serde::de::Error::custom(format!("the search parameter {k:?} is given twice")));
                    }
                    let v: serde_json::Value = m.next_value()?;
                    obj.insert(k, v);
                }
                Ok(UniqueKeys(serde_json::Value::Object(obj)))
            }
            // Anything else is read as it is (`from_json` then says it is not an object).
            fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys(serde_json::Value::Null))
            }
            fn visit_bool<E>(self, b: bool) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys(b.into()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys(n.into()))
            }
            fn visit_f64<E>(self, x: f64) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys(x.into()))
            }
            fn visit_str<E>(self, s: &str) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys(s.into()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<UniqueKeys, A::Error> {
                while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(UniqueKeys(serde_json::Value::Array(Vec::new())))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// The named strengths a frontend offers. Each is a budget on one core (threads 1), both an
/// iteration budget and a time limit, whichever ends first:
///
/// | level | iterations | time limit |
/// |---|---|---|
/// | `instant` | 100 | 0.05 s |
/// | `easy` | 300 | 0.2 s |
/// | `normal` | 20,000 | 0.9 s |
/// | `hard` | 200,000 | 4 s |
///
/// `normal` decides within a second on one core in every game. A caller may raise `threads`
/// (a faster decision at the same time limit does more iterations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Instant,
    Easy,
    Normal,
    Hard,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Instant, Level::Easy, Level::Normal, Level::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Level::Instant => "instant",
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    pub fn parse(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The level's budget with `seed`.
    pub fn params(self, seed: u64) -> SearchParams {
        let (iterations, ms) = match self {
            Level::Instant => (100, 50),
            Level::Easy => (300, 200),
            Level::Normal => (20_000, 900),
            Level::Hard => (200_000, 4_000),
        };
        SearchParams {
            iterations: Some(iterations),
            time: Some(Duration::from_millis(ms)),
            threads: 1,
            determinizations: 32,
            exploration: None,
            max_nodes: DEFAULT_MAX_NODES,
            seed,
            early_stop: false,
            explain: true,
        }
    }

    /// The level's budget per whole turn (see [`TurnClock`]), on one core:
    ///
    /// | level | iterations per turn | at least, per decision the seat expects in a turn | time per turn |
    /// |---|---|---|---|
    /// | `instant` | 200 | — | 0.1 s |
    /// | `easy` | 2,000 | 1,000 | 0.6 s |
    /// | `normal` | 60,000 | 20,000 | 3 s |
    /// | `hard` | 400,000 | 200,000 | 12 s |
    ///
    /// A seat whose turns are short gets the turn's iterations (Samurai, about two searched
    /// decisions a turn; in Three Kingdoms Redux, about three, `normal` too, while `easy` and
    /// `hard`, whose floors are half a turn, get three floors); a seat whose turns are long
    /// (Sekigahara and 関ヶ原大作戦 average five to seven searched decisions a turn) gets its
    /// per-decision iterations for each, until the time ends the turn.
    /// A settled decision stops early ([`SearchParams::early_stop`]), and a decision stops at its
    /// game's cap ([`crate::game::Game::search_decision_cap`]: 2,000 iterations in Sekigahara,
    /// whose search loses strength past it; `ismcts:<level>-v3` has no cap). A turn of many decisions
    /// spends up to `1 / FLOOR_SHARE` more per decision past the expected ones, which the times
    /// leave room for (`easy` within 1 s, `normal` 5 s and `hard` 20 s for a turn of 70
    /// decisions).
    ///
    /// The first per-turn levels ([`Level::turn_budget_v2`]) had no per-decision floor, and
    /// spent far less than their times where turns are long: `normal`'s 60,000 came to about
    /// 16,500 iterations a turn in Sekigahara and 32,000 in 関ヶ原大作戦 (median turns 0.16 s and
    /// 0.45 s), little more than 2,000 iterations per decision.
    pub fn turn_budget(self) -> TurnBudget {
        let per_decision = match self {
            Level::Instant => 0,
            Level::Easy => 1_000,
            Level::Normal => 20_000,
            Level::Hard => 200_000,
        };
        TurnBudget { per_decision, ..self.turn_budget_v2() }
    }

    /// The first per-turn budgets (spec `"ismcts:<level>-v2"`), kept for comparisons: 200 /
    /// 0.1 s, 2,000 / 0.6 s, 60,000 / 3 s and 400,000 / 12 s per turn, with no per-decision
    /// floor.
    pub fn turn_budget_v2(self) -> TurnBudget {
        let (iterations, ms) = match self {
            Level::Instant => (200, 100),
            Level::Easy => (2_000, 600),
            Level::Normal => (60_000, 3_000),
            Level::Hard => (400_000, 12_000),
        };
        TurnBudget { iterations, per_decision: 0, time: Some(Duration::from_millis(ms)) }
    }
}

/// One candidate of a decision, for "the AI's view" and for analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    pub action: ActionId,
    /// Iterations that chose it at the root.
    pub visits: u32,
    /// The mean return of the searching seat after it (in the game's return range); `None`
    /// when it was never tried.
    pub value: Option<f64>,
    /// The seat's own moves the search expects to follow it in the same turn (the most visited
    /// child at each step while the seat is still to act, at most [`explain::LINE_MOVES`]
    /// moves with the candidate); empty when the search did not look past it or did not
    /// explain ([`SearchParams::explain`]).
    pub line: Vec<ActionId>,
    /// A short reason in words: the game's event sentences, as the seat would be told them,
    /// of the candidate and its line played on one determinization of what the seat knows
    /// (e.g. "Ishida takes Gifu; Fukushima loses 2 blocks"), or the moves' own names when
    /// they tell nothing. `None` when the search did not explain.
    pub reason: Option<String>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decision {
    /// The seat that searched.
    pub seat: Player,
    /// The chosen action: the most visited candidate.
    pub action: ActionId,
    /// Iterations done, over every thread.
    pub iterations: u64,
    /// Wall time of the search.
    pub elapsed_ms: f64,
    /// Tree nodes used, over every thread (at most [`SearchParams::max_nodes`] plus one root
    /// per thread).
    pub nodes: u64,
    /// Whether a tree reached its share of the node budget and stopped growing (the search
    /// went on within it).
    pub tree_full: bool,
    /// Every legal action, ascending.
    pub candidates: Vec<Candidate>,
    /// The root visits the search started with, kept from the seat's last decision of the
    /// same turn (a bot that reuses its tree, [`IsmctsBot::reuses_tree`]); 0 for a search from
    /// scratch. Not part of the serialized decision.
    #[serde(skip)]
    pub reused: u64,
}

/// Searches for the player to act in `state`. A state with a single legal action, a chance
/// node (an outcome by its probability) or a finished game (an error) need no search. Errors
/// besides the state's: `ThreadsUnavailable` when the system refuses a thread of the search,
/// `OutOfMemory` when a tree's memory cannot be had.
pub fn analyze(state: &StateHandle, params: &SearchParams) -> Result<Decision, Error> {
    let control = std::sync::Arc::new(Control::default());
    analyze_with(state, params, &control)
}

/// [`analyze`] under a [`Control`] that another thread may watch and stop.
pub(crate) fn analyze_with(state: &StateHandle, params: &SearchParams, control: &std::sync::Arc<Control>) -> Result<Decision, Error> {
    analyze_carried(state, params, control, None)
}

/// [`analyze_with`], going on from the trees in `carry` when they serve this decision and
/// leaving the search's own there ([`Kept`]; a decision without a search leaves `carry` as it
/// is, so a forced move of the seat does not end what it kept).
fn analyze_carried(
    state: &StateHandle,
    params: &SearchParams,
    control: &std::sync::Arc<Control>,
    carry: Option<&mut Option<std::sync::Arc<Kept>>>,
) -> Result<Decision, Error> {
    let seat = state.current_player();
    if state.is_terminal() {
        return Err(RuleError::GameOver.into());
    }
    let legal = state.legal_actions();
    if seat < 0 {
        let mut rng = Rng::from_seed(params.seed);
        let a = random_action(state, &mut rng, &mut Vec::new());
        return Ok(Decision {
            seat,
            action: a,
            iterations: 0,
            elapsed_ms: 0.0,
            nodes: 0,
            tree_full: false,
            candidates: Vec::new(),
            reused: 0,
        });
    }
    if legal.len() == 1 {
        let only = Candidate { action: legal[0], visits: 0, value: None, line: Vec::new(), reason: None };
        let mut d = Decision {
            seat,
            action: legal[0],
            iterations: 0,
            elapsed_ms: 0.0,
            nodes: 0,
            tree_full: false,
            candidates: vec![only],
            reused: 0,
        };
        if params.explain && state.check_determinize(seat).is_ok() {
            explain::explain(state, &mut d, params.seed);
        }
        return Ok(d);
    }
    state.check_determinize(seat)?;
    let mut d = state.game().search(state, params, control, carry)?;
    if params.explain {
        explain::explain(state, &mut d, params.seed);
    } else {
        d.candidates.iter_mut().for_each(|c| c.line.clear());
    }
    Ok(d)
}

/// The IS-MCTS bot: a [`Bot`] that searches every decision, its seed advanced once per
/// decision; with the same parameters every time, or with a budget per whole turn
/// ([`IsmctsBot::per_turn`]) that it shares among the decisions of each turn ([`TurnClock`]).
#[derive(Clone, Debug)]
pub struct IsmctsBot {
    params: SearchParams,
    rng: Rng,
    name: String,
    last: Option<Decision>,
    turn: Option<TurnClock>,
    /// Whether the bot goes on from its last search's tree at its next decision of the same
    /// turn ([`IsmctsBot::reusing_tree`]).
    reuse: bool,
    kept: Option<std::sync::Arc<Kept>>,
    /// Whether a decision with a budget per turn stops at its game's cap
    /// ([`crate::game::Game::search_decision_cap`]); `ismcts:<level>-v3` does not.
    decision_cap: bool,
    /// Where the bot's background search ([`Bot::start_search`]) leaves the tree it keeps,
    /// taken back at [`Bot::record_search`] (or at the bot's next decision).
    background: Option<KeptSlot>,
}

/// The tree a search takes at its start and leaves at its end (a background search's, which
/// runs on its own thread while the bot waits).
pub(crate) type KeptSlot = std::sync::Arc<std::sync::Mutex<Option<std::sync::Arc<Kept>>>>;

impl IsmctsBot {
    /// A bot at `level` with the level's budget per turn ([`Level::turn_budget`]), seeded
    /// with `seed`.
    pub fn new(level: Level, seed: u64) -> Self {
        IsmctsBot::per_turn(format!("ismcts-{}", level.name()), level.params(seed), level.turn_budget())
    }

    /// A bot that searches every decision with `params` (`params.seed` seeds it).
    pub fn with_params(name: String, params: SearchParams) -> Self {
        IsmctsBot {
            rng: Rng::from_seed(params.seed),
            params,
            name,
            last: None,
            turn: None,
            reuse: false,
            kept: None,
            decision_cap: true,
            background: None,
        }
    }

    /// The bot, going on at each decision from the subtree its last search grew under the
    /// action it chose when the seat's own moves alone led here (the same turn, no chance in
    /// between; see [`Kept`]), or searching every decision from scratch (`false`, the
    /// default). Either way a decision is the same on every run for a seed and an iteration
    /// budget, and the same whether the bot searches itself ([`Bot::choose`]) or in the
    /// background ([`Bot::start_search`], then [`Bot::record_search`], as the play server and
    /// Python's `Bot.start_search` do).
    pub fn reusing_tree(self, reuse: bool) -> Self {
        IsmctsBot { reuse, kept: None, background: None, ..self }
    }

    /// The bot with a budget per turn that searches a decision up to its share of the turn even
    /// past its game's cap ([`crate::game::Game::search_decision_cap`]): the levels before the
    /// cap (`ismcts:<level>-v3`), kept for comparisons.
    pub fn without_decision_cap(self) -> Self {
        IsmctsBot { decision_cap: false, ..self }
    }

    /// Whether the bot goes on from its last search's tree ([`IsmctsBot::reusing_tree`]).
    pub fn reuses_tree(&self) -> bool {
        self.reuse
    }

    /// A bot with `budget` per whole turn: each decision searches with `params` but its share
    /// of the turn's iterations and time, and stops early when its choice is settled.
    pub fn per_turn(name: String, params: SearchParams, budget: TurnBudget) -> Self {
        IsmctsBot { turn: Some(TurnClock::new(budget)), ..IsmctsBot::with_params(name, params) }
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// The turn bookkeeping of a bot with a budget per turn.
    pub fn turn_clock(&self) -> Option<&TurnClock> {
        self.turn.as_ref()
    }

    /// The parameters of the search for the next decision at `state`, with the next seed of
    /// this bot (and, per turn, the decision's share of the turn). A caller that runs the
    /// search itself (a background [`Search`]) hands its decision to [`IsmctsBot::record`].
    pub fn next_params(&mut self, state: &StateHandle) -> SearchParams {
        let mut params = SearchParams { seed: self.rng.next_u64(), explain: false, ..self.params.clone() };
        if let Some(turn) = &mut self.turn {
            if state.current_player() >= 0 && state.legal_actions().len() > 1 {
                let (iterations, time) = turn.share(state);
                // Past its game's cap a decision gains nothing: the rest stays with the turn.
                let cap = if self.decision_cap { state.game().search_decision_cap() } else { None };
                let cap = cap.unwrap_or(u64::MAX);
                params.iterations = Some(iterations.min(cap));
                params.time = time;
                params.early_stop = true;
            }
        }
        params
    }

    /// Records the decision `d` taken at `state` with [`IsmctsBot::next_params`], which took
    /// `elapsed` in all (for a turn's budget of time).
    pub fn record(&mut self, state: &StateHandle, d: &Decision, elapsed: Duration) {
        if let Some(turn) = &mut self.turn {
            if state.current_player() >= 0 {
                turn.record(state, d, elapsed);
            }
        }
        self.last = Some(d.clone());
    }

    /// What the bot kept from its last search: the tree its last background search left, or
    /// its last blocking search's.
    fn take_kept(&mut self) -> Option<std::sync::Arc<Kept>> {
        match self.background.take() {
            Some(slot) => slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take(),
            None => self.kept.take(),
        }
    }

    /// Searches `state` (see [`analyze`]) with [`IsmctsBot::next_params`].
    pub fn decide(&mut self, state: &StateHandle) -> Result<Decision, Error> {
        let started = std::time::Instant::now();
        let params = self.next_params(state);
        let control = std::sync::Arc::new(Control::default());
        let d = if self.reuse {
            let mut kept = self.take_kept();
            let r = analyze_carried(state, &params, &control, Some(&mut kept));
            self.kept = if r.is_ok() { kept } else { None };
            r?
        } else {
            analyze_with(state, &params, &control)?
        };
        self.record(state, &d, started.elapsed());
        Ok(d)
    }
}

impl Bot for IsmctsBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn last_decision(&self) -> Option<&Decision> {
        self.last.as_ref()
    }

    fn choose(&mut self, state: &StateHandle) -> ActionId {
        self.decide(state).unwrap_or_else(|e| panic!("the bot cannot choose here: {e}")).action
    }

    fn try_choose(&mut self, state: &StateHandle) -> Result<ActionId, Error> {
        self.decide(state).map(|d| d.action)
    }

    fn next_search(&mut self, state: &StateHandle) -> Option<SearchParams> {
        Some(self.next_params(state))
    }

    fn start_search(&mut self, state: &StateHandle, params: SearchParams) -> Result<Search, Error> {
        if !self.reuse {
            return Search::start(state, params);
        }
        let slot: KeptSlot = std::sync::Arc::new(std::sync::Mutex::new(self.take_kept()));
        let search = Search::start_carried(state, params, Some(slot.clone()))?;
        self.background = Some(slot);
        Ok(search)
    }

    fn record_search(&mut self, state: &StateHandle, d: &Decision, elapsed: Duration) {
        // The tree the ended search left (if it is still running, it keeps none).
        self.kept = self.take_kept();
        self.record(state, d, elapsed);
    }
}
