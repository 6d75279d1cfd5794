//! Constructed positions (docs/positions.md): the checks every game shares. Run on every
//! registered game from the registry ([`Suite`], one row per game in `crate::engine`): the
//! position files in `games/<id>/positions/` load, round-trip, validate and play to the end;
//! every state of games played by the playout policy validates; mutated positions that
//! validate never make the rules panic and play on within them. The helpers below serve each
//! game's own position tests (`games/<id>/position_tests.rs`), which hold its scenarios and
//! corruption cases.

use std::collections::HashSet;
use std::hash::Hash;
use std::ops::Range;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::engine::check_position;
use crate::events::Events;
use crate::game::{Game, Player, CHANCE, SPECTATOR};
use crate::rng::Rng;

/// The typed position checks of one game, kept in its registry row.
pub(crate) struct Suite {
    pub files: fn(),
    pub policy_games: fn(),
    pub fuzz: fn(),
}

impl Suite {
    pub(crate) const fn of<G: Game>() -> Suite {
        Suite { files: files_load_validate_and_play_to_the_end::<G>, policy_games: playout_policy_games_validate::<G>, fuzz: fuzz::<G> }
    }
}

/// The game of a covered config.
fn setup<G: Game>(cfg: &Value) -> G {
    G::setup(cfg.as_object().expect("a config object")).unwrap_or_else(|e| panic!("{} {cfg}: {e}", G::ID))
}

/// One random game from `s` to the end, calling `f` on every state; returns the last one.
pub(crate) fn playout<G: Game>(g: &G, mut s: G::State, seed: u64, mut f: impl FnMut(&G::State)) -> G::State {
    let mut rng = Rng::from_seed(seed);
    let mut legal = Vec::new();
    for _ in 0..g.info().max_game_length {
        f(&s);
        if g.is_terminal(&s) {
            return s;
        }
        random_step(g, &mut s, &mut rng, &mut legal);
    }
    panic!("{}: a game outlasted max_game_length", G::ID);
}

/// Applies a chance outcome drawn by the game or a legal action drawn uniformly from `rng`
/// (`legal` is scratch).
pub(crate) fn random_step<G: Game>(g: &G, s: &mut G::State, rng: &mut Rng, legal: &mut Vec<crate::game::ActionId>) {
    let a = if g.current_player(s) == CHANCE {
        g.sample_chance(s)
    } else {
        legal.clear();
        g.legal_actions(s, legal);
        legal[rng.below(legal.len() as u32) as usize]
    };
    g.apply(s, a, &mut Events::off());
}

/// Checks every state of the random games from `seeds` (actions drawn from `seed ^ salt`) as
/// a loaded position; a failure names the seed and `describe(state)`. Returns the states checked.
pub(crate) fn every_state_validates<G: Game>(g: &G, seeds: Range<u64>, salt: u64, describe: impl Fn(&G::State) -> String) -> usize {
    let mut states = 0;
    for seed in seeds {
        playout(g, g.new_initial_state(seed), seed ^ salt, |s| {
            check_position(g, s).unwrap_or_else(|e| panic!("{} seed {seed}: {e}\n{}", G::ID, describe(s)));
            states += 1;
        });
    }
    states
}

/// The first state of the random games from `seeds`, in order, that `pick` accepts.
pub(crate) fn first_state<G: Game>(g: &G, seeds: Range<u64>, pick: impl Fn(&G::State) -> bool) -> G::State {
    for seed in seeds {
        let mut hit = None;
        playout(g, g.new_initial_state(seed), seed, |s| {
            if hit.is_none() && pick(s) {
                hit = Some(s.clone());
            }
        });
        if let Some(s) = hit {
            return s;
        }
    }
    panic!("{}: no random game reached the scenario", G::ID);
}

/// A corruption is rejected with a message that contains `needle` (the field and the rule).
pub(crate) fn assert_rejected(checked: Result<(), String>, needle: &str) {
    match checked {
        Ok(()) => panic!("accepted, expected an error with {needle:?}"),
        Err(e) => assert!(e.contains(needle), "{e:?} does not contain {needle:?}"),
    }
}

/// Samples at the states of the random game from `seed` that `at(step, state)` picks (steps
/// count from 1), for every observer: `n` samples each, from the generators
/// `sample_seed(step, k)`, each passing the checks of a loaded position and showing the
/// observer the same view. `distinct(step, state, observer, d)` gets how many different
/// hidden parts (`key`) the `n` samples had. Returns the number of samples compared.
pub(crate) fn samples_keep_the_view<G: Game, K: Hash + Eq>(
    g: &G,
    seed: u64,
    n: u64,
    at: impl Fn(u64, &G::State) -> bool,
    sample_seed: impl Fn(u64, u64) -> u64,
    key: impl Fn(&G::State) -> K,
    mut distinct: impl FnMut(u64, &G::State, Player, usize),
) -> usize {
    let (mut step, mut compared) = (0u64, 0);
    playout(g, g.new_initial_state(seed), seed, |s| {
        step += 1;
        if !at(step, s) {
            return;
        }
        for observer in SPECTATOR..g.num_players() as Player {
            let view = g.view(s, observer);
            let mut seen = HashSet::new();
            for k in 0..n {
                let where_ = format!("{} seed {seed} step {step} seat {observer}", G::ID);
                let t = g
                    .sample_position(s, observer, &mut Rng::from_seed(sample_seed(step, k)))
                    .unwrap_or_else(|| panic!("{where_}: no sample"));
                check_position(g, &t).unwrap_or_else(|e| panic!("{where_}: {e}"));
                assert_eq!(g.view(&t, observer), view, "{where_}");
                seen.insert(key(&t));
                compared += 1;
            }
            distinct(step, s, observer, seen.len());
        }
    });
    compared
}

/// A sample is one the observer cannot tell from the position, so sampling it again with the
/// same generator gives the same position: checked every `stride` steps of the random game
/// from `seed`, for every observer.
pub(crate) fn samples_depend_only_on_the_view<G: Game>(g: &G, seed: u64, stride: u64) {
    let mut step = 0u64;
    let sample = |s: &G::State, observer: Player, seed: u64| {
        g.sample_position(s, observer, &mut Rng::from_seed(seed)).unwrap_or_else(|| panic!("{}: no sample", G::ID))
    };
    playout(g, g.new_initial_state(seed), seed, |s| {
        step += 1;
        if step % stride != 0 {
            return;
        }
        for observer in SPECTATOR..g.num_players() as Player {
            let t = sample(s, observer, step);
            let a = sample(s, observer, step + 1);
            let b = sample(&t, observer, step + 1);
            assert_eq!(a, b, "{} seed {seed} step {step} seat {observer}", G::ID);
        }
    });
}

// === position files (games/<id>/positions/*.json) ===

/// A position file: its name, the game's config, what it shows and the position.
pub(crate) type Scenario<G> = (&'static str, Value, &'static str, <G as Game>::State);

fn dir<G: Game>() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/games").join(G::ID).join("positions")
}

/// JSON with two-space indentation; arrays of plain values, arrays of such arrays and objects
/// of such values on one line.
fn pretty(v: &Value, depth: usize) -> String {
    let pad = |d: usize| "  ".repeat(d);
    let flat = |x: &Value| !x.is_array() && !x.is_object();
    let flat_array = |x: &Value| x.as_array().is_some_and(|y| y.iter().all(flat));
    match v {
        Value::Array(a) if a.iter().all(flat) => format!("[{}]", a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")),
        Value::Array(a) if a.iter().all(flat_array) => {
            format!("[{}]", a.iter().map(|x| pretty(x, depth + 1)).collect::<Vec<_>>().join(", "))
        }
        Value::Array(a) if a.iter().all(|x| x.as_object().is_some_and(|m| m.values().all(|z| flat(z) || flat_array(z)))) => {
            let items: Vec<String> = a.iter().map(|x| format!("{}{}", pad(depth + 1), x)).collect();
            format!("[\n{}\n{}]", items.join(",\n"), pad(depth))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(|x| format!("{}{}", pad(depth + 1), pretty(x, depth + 1))).collect();
            format!("[\n{}\n{}]", items.join(",\n"), pad(depth))
        }
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Object(m) => {
            let items: Vec<String> =
                m.iter().map(|(k, x)| format!("{}{}: {}", pad(depth + 1), Value::from(k.as_str()), pretty(x, depth + 1))).collect();
            format!("{{\n{}\n{}}}", items.join(",\n"), pad(depth))
        }
        _ => v.to_string(),
    }
}

fn document<G: Game>(g: &G, (name, config, description, s): &Scenario<G>) -> Value {
    let mut position = serde_json::to_value(s).unwrap();
    position.as_object_mut().unwrap().remove("rng");
    json!({
        "format": crate::engine::POSITION_FORMAT,
        "game": G::ID,
        "rules_version": g.info().rules_version,
        "config": config,
        "seed": 1,
        "position": position,
        "name": name,
        "description": description,
    })
}

/// The committed files are the scenarios' documents (`KASSEN_BLESS=1` rewrites them); each
/// scenario passes the checks of a loaded position.
pub(crate) fn scenario_files_are_up_to_date<G: Game>(scenarios: &[Scenario<G>]) {
    let bless = std::env::var_os("KASSEN_BLESS").is_some();
    for scenario in scenarios {
        let (name, config, _, s) = scenario;
        let g: G = setup(config);
        check_position(&g, s).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = pretty(&document(&g, scenario), 0) + "\n";
        let path = dir::<G>().join(format!("{name}.json"));
        if bless {
            std::fs::create_dir_all(dir::<G>()).unwrap();
            std::fs::write(&path, text).unwrap();
        } else {
            let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (KASSEN_BLESS=1 writes it)", path.display()));
            assert_eq!(committed, text, "{} is stale (KASSEN_BLESS=1 rewrites it)", path.display());
        }
    }
}

/// Each file loads through the typed API, round-trips, validates and plays to the end (20
/// random games, every state validated); a game has at least three.
fn files_load_validate_and_play_to_the_end<G: Game>() {
    let mut files = 0;
    for entry in std::fs::read_dir(dir::<G>()).unwrap_or_else(|e| panic!("{}: {e}", dir::<G>().display())) {
        let path = entry.unwrap().path();
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(doc["format"], crate::engine::POSITION_FORMAT);
        assert_eq!(doc["game"], G::ID);
        let g: G = setup(&doc["config"]);
        assert_eq!(doc["rules_version"], g.info().rules_version.as_str());
        let mut position = doc["position"].clone();
        position["rng"] = serde_json::to_value(Rng::from_seed(doc["seed"].as_u64().unwrap())).unwrap();
        let s: G::State = serde_json::from_value(position.clone()).unwrap();
        assert_eq!(serde_json::to_value(&s).unwrap(), position, "{}", path.display());
        check_position(&g, &s).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for seed in 0..20 {
            let end = playout(&g, s.clone(), seed, |x| check_position(&g, x).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
            assert!(g.is_terminal(&end));
        }
        files += 1;
    }
    assert!(files >= 3, "{}: {files} scenario files", G::ID);
}

// === reachable states ===

/// Games played by the bots' playout policy (the game's own knowledge), which reach
/// situations uniform play rarely does: 40 per covered config, every state validated, and the
/// search's hooks checked on the way ([`check_bot_hooks`]).
fn playout_policy_games_validate<G: Game>() {
    let mut states = 0;
    let mut evaluated = 0;
    for cfg in G::covered_configs() {
        let g: G = setup(&cfg);
        assert!(g.playout_depth() > 0, "{}: a playout of no actions", G::ID);
        for seed in 0..40u64 {
            let mut s = g.new_initial_state(seed);
            let mut rng = Rng::from_seed(seed ^ 0x51);
            let mut legal = Vec::new();
            while !g.is_terminal(&s) {
                check_position(&g, &s).unwrap_or_else(|e| panic!("{} {cfg} seed {seed}: {e}", G::ID));
                states += 1;
                let a = if g.current_player(&s) == CHANCE {
                    g.sample_chance(&mut s)
                } else {
                    legal.clear();
                    g.legal_actions(&s, &mut legal);
                    evaluated += check_bot_hooks(&g, &s, &legal, &mut rng).unwrap_or_else(|e| panic!("{} {cfg} seed {seed}: {e}", G::ID));
                    g.rollout_action(&s, &legal, &mut rng)
                };
                g.apply(&mut s, a, &mut Events::off());
            }
            check_position(&g, &s).unwrap_or_else(|e| panic!("{} {cfg} seed {seed} at the end: {e}", G::ID));
        }
    }
    println!("{}: {states} states validated, {evaluated} evaluated", G::ID);
    assert!(states > 10_000, "{}: {states}", G::ID);
}

/// The search's hooks at a decision: the playout policy answers with one of the actions it is
/// given (all the legal ones, and a random part of them as when the search expands a node),
/// and an evaluation stays within the utility range and, for a constant-sum game, sums to the
/// constant. Returns 1 when the game evaluated the state.
fn check_bot_hooks<G: Game>(g: &G, s: &G::State, legal: &[crate::game::ActionId], rng: &mut Rng) -> Result<u32, String> {
    let mut some: Vec<_> = legal.iter().copied().filter(|_| rng.below(2) == 0).collect();
    if some.is_empty() {
        some.push(legal[0]);
    }
    for list in [legal, &some[..]] {
        let a = g.rollout_action(s, list, rng);
        if !list.contains(&a) {
            return Err(format!("rollout_action chose {a}, not one of the {} actions it was given", list.len()));
        }
    }
    let u = g.info().utility;
    let mut out = vec![0.0; g.num_players()];
    if !g.evaluate(s, &mut out) {
        return Ok(0);
    }
    if out.iter().any(|&x| !(x >= u.min - 1e-9 && x <= u.max + 1e-9)) {
        return Err(format!("evaluation {out:?} outside [{}, {}]", u.min, u.max));
    }
    if let Some(sum) = u.sum {
        if (out.iter().sum::<f64>() - sum).abs() > 1e-9 {
            return Err(format!("evaluation {out:?} does not sum to {sum}"));
        }
    }
    Ok(1)
}

// === fuzz: accepted positions never panic and play on within the rules ===

/// The JSON paths of every number in `v`.
fn number_paths(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Number(_) => out.push(path.clone()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Value::from(i));
                number_paths(x, path, out);
                path.pop();
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                path.push(Value::from(k.as_str()));
                number_paths(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match k {
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        Value::String(s) => &mut v[s.as_str()],
        _ => unreachable!(),
    })
}

/// Mutates one number of `s` (not its generator) at random; `None` when the result does not
/// deserialize.
fn mutate<G: Game>(s: &G::State, rng: &mut Rng) -> Option<G::State> {
    let mut v = serde_json::to_value(s).unwrap();
    let mut paths = Vec::new();
    number_paths(&v, &mut Vec::new(), &mut paths);
    paths.retain(|p| p[0] != "rng");
    let p = &paths[rng.below(paths.len() as u32) as usize];
    let x = at(&mut v, p);
    let old = x.as_i64().unwrap_or(0);
    let new = match rng.below(6) {
        0 => old + 1,
        1 => old - 1,
        2 => rng.below(4) as i64,
        3 => 255,
        4 => rng.below(64) as i64,
        _ => [65535, 127, 32, 100, 254][rng.below(5) as usize],
    };
    *x = Value::from(new);
    serde_json::from_value(v).ok()
}

/// The values that differ between `a` and `b`, by path (`seats[1].gold`), shortened.
fn changed<G: Game>(a: &G::State, b: &G::State) -> Vec<String> {
    fn walk(path: String, x: &Value, y: &Value, out: &mut Vec<String>) {
        let short = |v: &Value| v.to_string().chars().take(300).collect::<String>();
        match (x, y) {
            _ if x == y => {}
            (Value::Object(xs), Value::Object(ys)) if xs.len() == ys.len() => {
                for (k, v) in xs {
                    let sep = if path.is_empty() { "" } else { "." };
                    walk(format!("{path}{sep}{k}"), v, &ys[k.as_str()], out);
                }
            }
            (Value::Array(xs), Value::Array(ys)) if xs.len() == ys.len() => {
                for (i, (v, w)) in xs.iter().zip(ys).enumerate() {
                    walk(format!("{path}[{i}]"), v, w, out);
                }
            }
            _ => out.push(format!("{path}: {} -> {}", short(x), short(y))),
        }
    }
    let mut out = Vec::new();
    walk(String::new(), &serde_json::to_value(a).unwrap(), &serde_json::to_value(b).unwrap(), &mut out);
    out
}

/// Mutated positions that validate never make the rules panic, and play from them stays
/// valid: states every 5 steps of 6 random games per covered config, `fuzz_rounds` mutations
/// of each.
fn fuzz<G: Game>() {
    let mut accepted = 0;
    let mut tried = 0;
    for (gi, cfg) in G::covered_configs().iter().enumerate() {
        let g: G = setup(cfg);
        let mut states = Vec::new();
        for seed in 0..6u64 {
            let mut n = 0;
            playout(&g, g.new_initial_state(seed), seed, |s| {
                n += 1;
                if n % 5 == 0 {
                    states.push(s.clone());
                }
            });
        }
        let mut rng = Rng::from_seed(gi as u64 + 77);
        for (i, s) in states.iter().enumerate() {
            for _ in 0..fuzz_rounds() {
                let Some(t) = mutate::<G>(s, &mut rng) else { continue };
                tried += 1;
                if check_position(&g, &t).is_err() {
                    continue;
                }
                accepted += 1;
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| exercise(&g, t.clone(), i as u64)));
                if let Err(e) = run {
                    let msg =
                        e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|x| x.to_string())).unwrap_or_default();
                    panic!("{} {cfg}: an accepted position (changed: {:?}) fails: {msg}", G::ID, changed::<G>(s, &t));
                }
            }
        }
    }
    println!("{}: {accepted} of {tried} mutated positions accepted and played", G::ID);
    assert!(tried > 1000, "{}: {tried}", G::ID);
}

/// Views, tensors, samples and a short random continuation, each state validated.
fn exercise<G: Game>(g: &G, mut s: G::State, seed: u64) {
    let mut rng = Rng::from_seed(seed);
    let mut legal = Vec::new();
    let mut out = vec![0f32; g.info().observation_len()];
    for _ in 0..40 {
        check_position(g, &s).unwrap_or_else(|e| panic!("play from an accepted position left the rules: {e}"));
        for observer in SPECTATOR..g.num_players() as Player {
            let _ = g.view(&s, observer);
            g.observation_tensor(&s, observer, &mut out);
            if let Some(t) = g.sample_position(&s, observer, &mut rng) {
                check_position(g, &t).unwrap_or_else(|e| panic!("a sample of an accepted position is invalid: {e}"));
            }
        }
        let _ = g.returns(&s);
        if g.is_terminal(&s) {
            return;
        }
        let a = if g.current_player(&s) == CHANCE {
            g.sample_chance(&mut s)
        } else {
            legal.clear();
            g.legal_actions(&s, &mut legal);
            assert!(!legal.is_empty(), "no legal action");
            legal[rng.below(legal.len() as u32) as usize]
        };
        let _ = g.action_to_string(&s, a);
        g.apply(&mut s, a, &mut Events::off());
    }
}

/// Mutations per state: 4, or `KASSEN_FUZZ_ROUNDS` for a longer local run.
fn fuzz_rounds() -> usize {
    std::env::var("KASSEN_FUZZ_ROUNDS").ok().and_then(|x| x.parse().ok()).unwrap_or(4)
}

// === every registered game ===

/// Runs `check` of every registered game, each game on its own thread.
fn every_game(check: fn(&Suite) -> fn()) {
    std::thread::scope(|scope| {
        for (id, suite) in crate::engine::position_suites() {
            let run = check(suite);
            std::thread::Builder::new().name(id.into()).spawn_scoped(scope, run).unwrap();
        }
    });
}

#[test]
fn scenario_files_load_validate_and_play_to_the_end() {
    every_game(|s| s.files);
}

#[test]
fn every_state_of_playout_policy_games_validates() {
    every_game(|s| s.policy_games);
}

#[test]
fn fuzz_accepted_positions_play_on_within_the_rules() {
    every_game(|s| s.fuzz);
}
