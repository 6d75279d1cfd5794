//! Golden playthroughs: generation (core API, uniform random policy) and replay through
//! any [`Surface`] (the core API and the C ABI implement it).

use std::path::{Path, PathBuf};

use kassen_core::engine::{load_game, StateHandle};
use kassen_core::game::GameInfo;
use kassen_core::rng::Rng;
use serde_json::{json, Map, Value};

use crate::capi::{CGame, CState};
use crate::json::first_difference;

/// A checkpoint every this many player actions (see [`spacing`]).
pub const CHECKPOINT_EVERY: usize = 25;
/// Seeds of the golden games of every (game, config).
pub const SEEDS: [u64; 3] = [1, 2, 3];

pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden")
}

/// `<game>_p<players>_seed<seed>.json`; the number of players is the config's.
pub fn file_name(game: &str, players: u32, seed: u64) -> String {
    format!("{game}_p{players}_seed{seed}.json")
}

/// The file name of the golden game of `game` with `config` and `seed`: `file_name`, with
/// `_<key>-<value>` inserted before `_seed` for every config key other than `players` (rule
/// switches), so that several configs with one player count get files of their own.
pub fn file_name_for(game: &str, config: &Value, seed: u64) -> String {
    let base = file_name(game, num_players(game, config), seed);
    let mut variant = String::new();
    if let Some(m) = config.as_object() {
        let mut keys: Vec<&String> = m.keys().filter(|k| *k != "players" && *k != "explicit_chance").collect();
        keys.sort();
        for k in keys {
            let v = match &m[k] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let clean = |s: &str| s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect::<String>();
            variant.push_str(&format!("_{}-{}", clean(k), clean(&v)));
        }
    }
    match base.rfind("_seed") {
        Some(i) if !variant.is_empty() => format!("{}{variant}{}", &base[..i], &base[i..]),
        _ => base,
    }
}

/// Every golden file, sorted by name.
pub fn files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

pub fn load(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()))
}

/// The text a golden file holds: JSON with the outer three levels indented and everything
/// deeper (views, state snapshots, id lists) on one line, so diffs stay readable and files
/// small. Any JSON parser reads it.
pub fn render(g: &Value) -> String {
    let mut s = String::new();
    render_into(g, 0, &mut s);
    s.push('\n');
    s
}

fn render_into(v: &Value, depth: usize, out: &mut String) {
    const EXPAND_DEPTH: usize = 3;
    let pad = |d: usize| "  ".repeat(d);
    let scalar_array = matches!(v, Value::Array(a) if a.iter().all(|x| !x.is_array() && !x.is_object()));
    match v {
        Value::Object(m) if depth < EXPAND_DEPTH && !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                render_into(x, depth + 1, out);
                out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
        Value::Array(a) if depth < EXPAND_DEPTH && !a.is_empty() && !scalar_array => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                render_into(x, depth + 1, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        _ => out.push_str(&v.to_string()),
    }
}

/// `(min_players, max_players)` of a registered game (from its default config).
pub fn player_range(game: &str) -> (u32, u32) {
    let info = load_game(game, None).unwrap_or_else(|e| panic!("{game}: {e}")).info().clone();
    (info.min_players, info.max_players)
}

/// The number of players of `game` with `config`.
pub fn num_players(game: &str, config: &Value) -> u32 {
    load_game(game, Some(config)).unwrap_or_else(|e| panic!("{game} {config}: {e}")).info().num_players
}

/// The configs of the golden games of a registered game: its covered configs
/// ([`kassen_core::covered_configs`]) with chance resolved automatically.
pub fn configs(game: &str) -> Vec<Value> {
    kassen_core::covered_configs(game).into_iter().filter(|c| c.get("explicit_chance").is_none()).collect()
}

/// How often the golden files of a game record what a replay compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spacing {
    /// Player actions between two checkpoints (current player, legal actions, a save/load
    /// round trip).
    pub checkpoint: usize,
    /// Player actions between two checkpoints that also hold the view of the seat to act (a
    /// multiple of `checkpoint`).
    pub view: usize,
}

/// Views larger than this (the game's `max_view_bytes`) are recorded every sixth checkpoint.
pub const LARGE_VIEW_BYTES: u32 = 12 * 1024;

/// The spacing of a game's golden files, from its game info. A view is recorded at every
/// checkpoint, unless the game's views are large: a Sekigahara game has ~450 player actions and
/// views up to ~20 kB (51 locations, every block), so a view at every checkpoint would make
/// files of ~400 kB; every sixth (150 actions) keeps them near 130 kB. The final views of every
/// seat are always stored.
pub fn spacing(info: &GameInfo) -> Spacing {
    let views_every = if info.buffer_sizes.max_view_bytes > LARGE_VIEW_BYTES { 6 } else { 1 };
    Spacing { checkpoint: CHECKPOINT_EVERY, view: views_every * CHECKPOINT_EVERY }
}

/// Plays a game through the core API, choosing uniformly among the legal actions with
/// `Rng::from_seed(seed)`, and records it in the golden format.
pub fn generate(game: &str, config: &Value, seed: u64) -> Value {
    let handle = load_game(game, Some(config)).unwrap_or_else(|e| panic!("{game} {config}: {e}"));
    let info = handle.info().clone();
    let mut state = handle.new_initial_state(seed);
    let mut policy = Rng::from_seed(seed);
    let mut player_actions: Vec<u32> = Vec::new();
    let mut checkpoints = Vec::new();
    let mut legal = Vec::new();
    let every = spacing(&info);
    while !state.is_terminal() {
        let p = state.current_player();
        assert!(p >= 0, "{game}: current player {p} with automatic chance");
        legal.clear();
        state.legal_actions_into(&mut legal);
        assert!(!legal.is_empty(), "{game} seed {seed}: no legal action at step {}", player_actions.len());
        let step = player_actions.len();
        if step % every.checkpoint == 0 {
            let mut cp = json!({ "step": step, "current_player": p, "legal_actions": legal });
            if step % every.view == 0 {
                cp["view"] = state.view(p).expect("view of the current player");
            }
            checkpoints.push(cp);
        }
        let a = legal[policy.below(legal.len() as u32) as usize];
        state.apply_as(p, a).unwrap_or_else(|e| panic!("{game}: legal action {a} rejected: {e}"));
        player_actions.push(a);
        assert!(state.history().len() <= info.max_game_length as usize, "{game} seed {seed}: longer than max_game_length");
    }
    json!({
        "game": game,
        "config": config,
        "seed": seed,
        "player_actions": player_actions,
        "history": state.history(),
        "final": final_of(&CoreSurface(state), info.num_players),
        "checkpoints": checkpoints,
    })
}

fn final_of(s: &impl Surface, num_players: u32) -> Value {
    let mut views = Map::new();
    let mut tails = Map::new();
    for p in -1..num_players as i32 {
        views.insert(p.to_string(), s.view(p));
        // The second half of the seat's events: the incremental form on every surface.
        let from = s.events_since(p, 0).as_array().map_or(0, Vec::len) as u64 / 2;
        tails.insert(p.to_string(), json!({"from": from, "events": s.events_since(p, from)}));
    }
    json!({
        "events_since": tails,
        "returns": s.returns(),
        "current_player": s.current_player(),
        "hash": s.hash().to_string(),
        "views": views,
        "state_json": s.to_json(),
    })
}

/// What a replay needs from an API surface.
pub trait Surface: Sized {
    fn name() -> &'static str;
    fn start(game: &str, config: &Value, seed: u64) -> Self;
    fn current_player(&self) -> i32;
    fn is_terminal(&self) -> bool;
    fn legal_actions(&self) -> Vec<u32>;
    fn view(&self, player: i32) -> Value;
    /// The events of `player` from its `from`-th on, as JSON.
    fn events_since(&self, player: i32, from: u64) -> Value;
    fn apply_as(&mut self, player: i32, action: u32);
    fn history(&self) -> Vec<u32>;
    fn returns(&self) -> Vec<f64>;
    fn hash(&self) -> u64;
    fn to_json(&self) -> Value;
    /// Saves and reloads the state; the reloaded state must be equal.
    fn round_trip(&self) -> Self;
    fn same(&self, other: &Self) -> bool;
}

pub struct CoreSurface(pub StateHandle);

impl Surface for CoreSurface {
    fn name() -> &'static str {
        "core"
    }
    fn start(game: &str, config: &Value, seed: u64) -> Self {
        CoreSurface(load_game(game, Some(config)).expect("load_game").new_initial_state(seed))
    }
    fn current_player(&self) -> i32 {
        self.0.current_player()
    }
    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }
    fn legal_actions(&self) -> Vec<u32> {
        self.0.legal_actions()
    }
    fn view(&self, player: i32) -> Value {
        self.0.view(player).expect("view")
    }
    fn events_since(&self, player: i32, from: u64) -> Value {
        serde_json::to_value(self.0.events_since(player, from as usize).expect("events_since")).expect("events serialize")
    }
    fn apply_as(&mut self, player: i32, action: u32) {
        self.0.apply_as(player, action).unwrap_or_else(|e| panic!("core rejected action {action}: {e}"))
    }
    fn history(&self) -> Vec<u32> {
        self.0.history().to_vec()
    }
    fn returns(&self) -> Vec<f64> {
        self.0.returns()
    }
    fn hash(&self) -> u64 {
        self.0.stable_hash()
    }
    fn to_json(&self) -> Value {
        self.0.to_json()
    }
    fn round_trip(&self) -> Self {
        CoreSurface(StateHandle::from_json(&self.0.to_json_string()).expect("from_json"))
    }
    fn same(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

pub struct CSurface(pub CState);

impl Surface for CSurface {
    fn name() -> &'static str {
        "C ABI"
    }
    fn start(game: &str, config: &Value, seed: u64) -> Self {
        let g = CGame::new(game, Some(&config.to_string())).expect("kassen_game_new");
        // The state keeps its game alive: free the game handle right away.
        let s = g.new_state(seed);
        drop(g);
        CSurface(s)
    }
    fn current_player(&self) -> i32 {
        self.0.current_player()
    }
    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }
    fn legal_actions(&self) -> Vec<u32> {
        let v = self.0.legal_actions();
        // The mask agrees with the list.
        let mask = self.0.legal_actions_mask();
        let from_mask: Vec<u32> = (0..mask.len() as u32).filter(|&a| mask[a as usize] == 1).collect();
        assert_eq!(v, from_mask, "legal_actions_mask disagrees with legal_actions");
        v
    }
    fn view(&self, player: i32) -> Value {
        self.0.view(player).expect("kassen_state_view_json")
    }
    fn events_since(&self, player: i32, from: u64) -> Value {
        self.0.events_since(player, from).expect("kassen_state_events_since_json")
    }
    fn apply_as(&mut self, player: i32, action: u32) {
        self.0.apply_as(player, action).unwrap_or_else(|e| panic!("C ABI rejected action {action}: {e:?}"))
    }
    fn history(&self) -> Vec<u32> {
        self.0.history()
    }
    fn returns(&self) -> Vec<f64> {
        self.0.returns()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn to_json(&self) -> Value {
        self.0.to_json()
    }
    fn round_trip(&self) -> Self {
        CSurface(CState::from_json(&self.0.to_json_text()).expect("kassen_state_from_json"))
    }
    fn same(&self, other: &Self) -> bool {
        self.0.equal(&other.0)
    }
}

fn expect_same(what: &str, golden: &Value, got: &Value) -> Result<(), String> {
    match first_difference(golden, got, "$") {
        None => Ok(()),
        Some(d) => Err(format!("{what} differs: {d}")),
    }
}

/// Replays a golden game through `S`, checking every recorded fact.
pub fn replay<S: Surface>(g: &Value) -> Result<(), String> {
    let game = g["game"].as_str().ok_or("missing game")?;
    let seed = g["seed"].as_u64().ok_or("missing seed")?;
    let config = &g["config"];
    let actions: Vec<u32> = serde_json::from_value(g["player_actions"].clone()).map_err(|e| e.to_string())?;
    let checkpoints = g["checkpoints"].as_array().ok_or("missing checkpoints")?;
    let mut next_cp = checkpoints.iter().peekable();
    let info = load_game(game, Some(config)).map_err(|e| e.to_string())?.info().clone();
    let every = spacing(&info);
    let mut s = S::start(game, config, seed);
    for (i, &a) in actions.iter().enumerate() {
        let p = s.current_player();
        if p < 0 {
            return Err(format!("step {i}: current player {p}, the golden game goes on"));
        }
        if let Some(cp) = next_cp.next_if(|cp| cp["step"].as_u64() == Some(i as u64)) {
            if i % every.checkpoint != 0 {
                return Err(format!("step {i}: a checkpoint off the spacing of {}", every.checkpoint));
            }
            expect_same(&format!("step {i}: current_player"), &cp["current_player"], &json!(p))?;
            expect_same(&format!("step {i}: legal_actions"), &cp["legal_actions"], &json!(s.legal_actions()))?;
            if i % every.view == 0 {
                let view = cp.get("view").ok_or_else(|| format!("step {i}: the checkpoint has no view"))?;
                expect_same(&format!("step {i}: view"), view, &s.view(p))?;
            } else if cp.get("view").is_some() {
                return Err(format!("step {i}: a view where none is expected"));
            }
            let again = s.round_trip();
            if !again.same(&s) || again.hash() != s.hash() {
                return Err(format!("step {i}: to_json/from_json round trip changes the state"));
            }
        }
        s.apply_as(p, a);
    }
    if let Some(cp) = next_cp.next() {
        return Err(format!("checkpoint {} was never reached", cp["step"]));
    }
    let expected_cps = actions.len().div_ceil(every.checkpoint);
    if checkpoints.len() != expected_cps {
        return Err(format!("{} checkpoints, expected {expected_cps}", checkpoints.len()));
    }
    if !s.is_terminal() {
        return Err("the game is not over after the golden actions".into());
    }
    expect_same("history", &g["history"], &json!(s.history()))?;
    let num_players = g["final"]["views"].as_object().map_or(0, |m| m.len() as u32 - 1);
    expect_same("final", &g["final"], &final_of(&s, num_players))?;
    let again = s.round_trip();
    if !again.same(&s) {
        return Err("final to_json/from_json round trip changes the state".into());
    }
    Ok(())
}
