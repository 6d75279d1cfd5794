//! Constructed positions (docs/positions.md) of every registered game and covered config:
//! states taken along random games are exported as position documents and loaded again; the
//! loaded state shows every seat the same view, tensor, legal actions and returns, plays on
//! exactly like the game it was taken from, saves with its position and reloads mid-way, draws,
//! and determinizes (or fails with `PositionNotSupported`). Broken documents fail with their
//! codes. Every position file in a game's `positions/` folder loads and plays to the end.

use std::path::PathBuf;

use kassen_core::engine::POSITION_FORMAT;
use kassen_core::rng::Rng;
use kassen_core::{covered_configs, games, load_game, ActionId, ErrorCode, GameHandle, StateHandle, SPECTATOR};
use serde_json::{json, Value};

/// Every (game id, config) the tests cover.
fn all_configs() -> Vec<(String, Value)> {
    games().into_iter().flat_map(|(id, _)| covered_configs(id).into_iter().map(move |c| (id.to_string(), c))).collect()
}

/// A random legal action (a chance outcome at an explicit chance node, uniformly too).
fn random_action(s: &StateHandle, rng: &mut Rng) -> ActionId {
    let legal = s.legal_actions();
    assert!(!legal.is_empty(), "a state that is not over has legal actions");
    legal[rng.below(legal.len() as u32) as usize]
}

/// A view without the last action (a loaded position has none: its history starts there).
fn board(s: &StateHandle, observer: i32) -> Value {
    let mut v = s.view(observer).unwrap();
    v.as_object_mut().unwrap().remove("last_action");
    v
}

fn observers(s: &StateHandle) -> Vec<i32> {
    (SPECTATOR..s.game().num_players() as i32).collect()
}

/// What every seat can learn of `a` and `b` without playing on is the same.
fn assert_same_position(a: &StateHandle, b: &StateHandle, what: &str) {
    assert_eq!(a.current_player(), b.current_player(), "{what}: current player");
    assert_eq!(a.legal_actions(), b.legal_actions(), "{what}: legal actions");
    assert_eq!(a.returns(), b.returns(), "{what}: returns");
    assert_eq!(a.chance_outcomes(), b.chance_outcomes(), "{what}: chance outcomes");
    for q in observers(a) {
        assert_eq!(board(a, q), board(b, q), "{what}: view of observer {q}");
        assert_eq!(a.observation_tensor(q).unwrap(), b.observation_tensor(q).unwrap(), "{what}: tensor of observer {q}");
    }
}

/// The states along one random game from `seed`, at about `points` evenly spaced steps (the
/// first and the last included).
fn states_along(game: &GameHandle, seed: u64, points: usize) -> Vec<StateHandle> {
    let mut s = game.new_initial_state(seed);
    let mut rng = Rng::from_seed(seed ^ 0x5eed);
    let mut all = vec![s.clone()];
    while !s.is_terminal() {
        let a = random_action(&s, &mut rng);
        s.apply_in_place(a).unwrap();
        all.push(s.clone());
    }
    let n = all.len();
    let mut picks: Vec<usize> = (0..points).map(|k| k * (n - 1) / (points - 1).max(1)).collect();
    picks.dedup();
    picks.into_iter().map(|i| all[i].clone()).collect()
}

/// Plays `p` (started at a position) to the end with random actions. With `twin`, the state
/// the position was taken from gets the same actions and must stay in the same typed state.
/// Half-way the game is saved (the save records the position) and play goes on from the
/// reloaded save. Draws the board at the start and the end, and with `replay` the replay
/// page's pictures.
fn play_out(mut p: StateHandle, mut twin: Option<StateHandle>, seed: u64, what: &str, replay: bool) {
    let mut rng = Rng::from_seed(seed);
    assert!(p.render_svg(SPECTATOR).unwrap_or_else(|e| panic!("{what}: {e}")).starts_with("<svg"), "{what}: svg");
    let mut steps = 0usize;
    let save_at = 1 + rng.below(40) as usize;
    while !p.is_terminal() {
        let a = random_action(&p, &mut rng);
        p.apply_in_place(a).unwrap_or_else(|e| panic!("{what}: step {steps}: {e}"));
        if let Some(t) = twin.as_mut() {
            t.apply_in_place(a).unwrap();
            // The engine resolves chance from the state's own generator: same typed state,
            // same draws.
            if steps % 16 == 0 || p.is_terminal() {
                assert_eq!(p.to_position()["position"], t.to_position()["position"], "{what}: step {steps}: the typed states part");
            }
        }
        steps += 1;
        if steps == save_at {
            let save = p.to_json();
            assert!(save.get("position").is_some(), "{what}: a save of a game from a position records the position");
            let back = StateHandle::from_json(&save.to_string()).unwrap_or_else(|e| panic!("{what}: reload at step {steps}: {e}"));
            assert!(back == p, "{what}: the reloaded save is the same state");
            assert_eq!(back.history(), p.history(), "{what}: history after the position");
            p = back;
        }
        assert!(steps <= p.game().info().max_game_length as usize, "{what}: the game does not end");
    }
    if let Some(t) = &twin {
        assert_eq!(p.returns(), t.returns(), "{what}: returns at the end");
    }
    for q in observers(&p) {
        p.render_svg(q).unwrap_or_else(|e| panic!("{what}: svg of observer {q} at the end: {e}"));
    }
    if !replay {
        return;
    }
    // The replay page starts at the position: its first picture is the position's board.
    let seat = 0;
    let frames = kassen_core::render::replay::frames(&p, seat).unwrap_or_else(|e| panic!("{what}: replay: {e}"));
    let start = StateHandle::from_position_value(&p.start_position().expect("started at a position")).unwrap();
    // (Unless the position is a chance node: the replay pictures decision points only.)
    if start.history().is_empty() && !start.is_chance_node() {
        let first = frames.first().map(|f| f.1.clone());
        assert!(first == Some(start.render_svg(seat).unwrap()), "{what}: the replay's first picture is not the position");
    }
}

#[test]
fn positions_along_random_games_round_trip_and_play_on_like_the_game() {
    for (id, cfg) in all_configs() {
        let game = load_game(&id, Some(&cfg)).unwrap();
        for seed in [3u64, 11] {
            for (k, s) in states_along(&game, seed, 4).into_iter().enumerate() {
                let what = format!("{id} {cfg} seed {seed} point {k}");
                let doc = s.to_position();
                assert_eq!(doc["format"], POSITION_FORMAT);
                let p = StateHandle::from_position_value(&doc).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(p.started_at_position() && !s.started_at_position(), "{what}");
                assert!(p.history().is_empty(), "{what}: a loaded position has no history");
                assert_same_position(&s, &p, &what);
                assert_eq!(p.to_position(), doc, "{what}: the document round-trips");
                // Text, the game handle's route, and a save of the fresh position load alike.
                let q = game.load_position_json(&doc.to_string()).unwrap();
                assert!(q == p, "{what}: load_position and from_position_value agree");
                let resaved = StateHandle::from_json(&p.to_json().to_string()).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(resaved == p, "{what}: the save of a fresh position reloads");
                assert_eq!(p.info_state_hash(0).unwrap(), resaved.info_state_hash(0).unwrap(), "{what}: info keys");
                play_out(p, Some(s.clone()), seed + k as u64, &what, k == 1);
            }
        }
    }
}

#[test]
fn a_position_determinizes_for_every_seat_or_says_it_cannot() {
    for (id, cfg) in all_configs() {
        let game = load_game(&id, Some(&cfg)).unwrap();
        let hidden = game.info().hidden_information;
        for (k, s) in states_along(&game, 5, 3).into_iter().enumerate() {
            let mut p = StateHandle::from_position_value(&s.to_position()).unwrap();
            let mut rng = Rng::from_seed(k as u64);
            // Also a position with actions after it.
            for _ in 0..3 {
                if p.is_terminal() {
                    break;
                }
                let a = random_action(&p, &mut rng);
                p.apply_in_place(a).unwrap();
            }
            for seat in 0..game.num_players() as i32 {
                let what = format!("{id} {cfg} point {k} seat {seat}");
                match p.determinize(seat, 99) {
                    Ok(world) => {
                        assert!(world.started_at_position(), "{what}");
                        assert_eq!(board(&world, seat), board(&p, seat), "{what}: the seat cannot tell the world apart");
                        if p.current_player() == seat {
                            assert_eq!(world.legal_actions(), p.legal_actions(), "{what}: the seat's own choices");
                        }
                        if !hidden {
                            assert_eq!(world.history(), p.history(), "{what}: nothing hidden, the log is kept");
                            assert_eq!(world.info_state_hash(seat).unwrap(), p.info_state_hash(seat).unwrap(), "{what}");
                        }
                        let again = p.determinize(seat, 99).unwrap();
                        assert!(again == world, "{what}: a determinization is a function of its seed");
                        assert!(p.check_determinize(seat).is_ok());
                        if !world.is_terminal() {
                            play_out(world, None, 7, &what, false);
                        }
                    }
                    Err(e) => {
                        assert!(hidden, "{what}: a game without hidden information always determinizes: {e}");
                        assert_eq!(e.code(), ErrorCode::PositionNotSupported, "{what}: {e}");
                        assert_eq!(p.check_determinize(seat).unwrap_err().code(), ErrorCode::PositionNotSupported);
                        if p.current_player() == seat && p.legal_actions().len() > 1 {
                            let mut bot = kassen_core::bots::from_spec("ismcts:easy", 1).unwrap();
                            let err = bot.try_choose(&p).unwrap_err();
                            assert_eq!(err.code(), ErrorCode::PositionNotSupported, "{what}: the search bot reports it");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_position_without_a_generator_takes_it_from_the_seed() {
    for (id, cfg) in all_configs() {
        let game = load_game(&id, Some(&cfg)).unwrap();
        let s = &states_along(&game, 2, 3)[1];
        let mut doc = s.to_position();
        doc["seed"] = json!(42);
        doc["position"]["rng"] = serde_json::to_value(Rng::from_seed(42)).unwrap();
        let with = StateHandle::from_position_value(&doc).unwrap();
        doc["position"].as_object_mut().unwrap().remove("rng");
        let without = StateHandle::from_position_value(&doc).unwrap();
        assert!(with == without, "{id} {cfg}: rng left out = rng from the seed");
        doc.as_object_mut().unwrap().remove("seed");
        doc["name"] = json!("a scenario");
        doc["description"] = json!("what it teaches");
        let seedless = StateHandle::from_position_value(&doc).unwrap();
        assert_eq!(seedless.seed(), 0, "{id}: the seed defaults to 0");
    }
}

/// The code of loading `doc` through the registry.
fn code_of(doc: &Value) -> ErrorCode {
    match StateHandle::from_position_json(&doc.to_string()) {
        Ok(_) => panic!("{doc} loaded"),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            e.code()
        }
    }
}

#[test]
fn broken_position_documents_fail_with_their_codes() {
    let ids: Vec<&str> = games().into_iter().map(|(id, _)| id).collect();
    for (i, id) in ids.iter().enumerate() {
        let game = load_game(id, None).unwrap();
        let s = &states_along(&game, 8, 3)[1];
        let doc = s.to_position();
        let broken = |f: &dyn Fn(&mut Value)| {
            let mut d = doc.clone();
            f(&mut d);
            d
        };
        assert_eq!(StateHandle::from_position_json("{\"format\":").unwrap_err().code(), ErrorCode::MalformedJson);
        assert_eq!(code_of(&json!([1, 2])), ErrorCode::InvalidPosition, "{id}: not an object");
        assert_eq!(code_of(&broken(&|d| d["format"] = json!("kassen.state/1"))), ErrorCode::UnsupportedFormat, "{id}");
        assert_eq!(code_of(&broken(&|d| d["extra"] = json!(1))), ErrorCode::InvalidPosition, "{id}: unknown field");
        assert_eq!(code_of(&broken(&|d| d["position"]["no_such_field"] = json!(1))), ErrorCode::InvalidPosition, "{id}");
        assert_eq!(code_of(&broken(&|d| d["position"] = json!("x"))), ErrorCode::InvalidPosition, "{id}: not a state");
        assert_eq!(code_of(&broken(&|d| d.as_object_mut().unwrap().remove("position").map(drop).unwrap())), ErrorCode::InvalidPosition);
        assert_eq!(code_of(&broken(&|d| d["seed"] = json!(-1))), ErrorCode::InvalidPosition, "{id}: seed");
        assert_eq!(code_of(&broken(&|d| d["name"] = json!(7))), ErrorCode::InvalidPosition, "{id}: name");
        assert_eq!(code_of(&broken(&|d| d["config"] = json!([]))), ErrorCode::InvalidPosition, "{id}: config");
        assert_eq!(code_of(&broken(&|d| d["rules_version"] = json!("0.0-old"))), ErrorCode::RulesVersionMismatch, "{id}");
        assert_eq!(code_of(&broken(&|d| d["game"] = json!("no-such-game"))), ErrorCode::LoadUnknownGame, "{id}");
        // A field of the state replaced by a value of the wrong type, one by one.
        for (k, _) in doc["position"].as_object().unwrap().iter().filter(|(k, _)| *k != "rng") {
            let d = broken(&|d| d["position"][k] = json!({"wrong": "type"}));
            assert_eq!(code_of(&d), ErrorCode::InvalidPosition, "{id}: position field {k}");
        }
        // Another game's document, through this game's handle.
        let other = load_game(ids[(i + 1) % ids.len()], None).unwrap();
        if other.id() != game.id() {
            let e = other.load_position(&doc).unwrap_err();
            assert_eq!(e.code(), ErrorCode::WrongGame, "{id}: {e}");
        }
        // A save whose position is broken.
        let mut p = StateHandle::from_position_value(&doc).unwrap();
        if !p.is_terminal() {
            let mut rng = Rng::from_seed(1);
            let a = random_action(&p, &mut rng);
            p.apply_in_place(a).unwrap();
        }
        let mut save = p.to_json();
        save["position"]["no_such_field"] = json!(1);
        assert_eq!(StateHandle::from_value(&save).unwrap_err().code(), ErrorCode::InvalidPosition, "{id}: save");
        // The game is untouched by the failures.
        assert!(StateHandle::from_position_value(&doc).unwrap() == StateHandle::from_position_value(&doc).unwrap());
    }
}

/// Every position document in `core/src/games/<id>/positions/` of every registered game.
fn position_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let mut files = Vec::new();
    for (id, _) in games() {
        let Ok(dir) = std::fs::read_dir(root.join(id).join("positions")) else { continue };
        for entry in dir {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_position_file_loads_round_trips_and_plays_to_the_end() {
    for path in position_files() {
        let what = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let p = StateHandle::from_position_json(&text).unwrap_or_else(|e| panic!("{what}: {e} ({:?})", e.code()));
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(p.game().id(), doc["game"], "{what}");
        let again = StateHandle::from_position_value(&p.to_position()).unwrap();
        assert_same_position(&p, &again, &what);
        for seed in 0..3 {
            play_out(p.clone(), Some(again.clone()), seed, &format!("{what} seed {seed}"), seed == 0);
        }
    }
}
