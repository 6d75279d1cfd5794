//! Positions: every reachable state validates, each corruption is rejected with its rule,
//! samples keep the observer's view, and the scenario files load and play to the end.

use std::path::PathBuf;

use serde_json::{json, Map, Value};

use super::super::state::*;
use super::super::Tkr;
use super::{sample_position, validate_position};
use crate::events::Events;
use crate::game::{Game, Player, CHANCE, SPECTATOR};
use crate::rng::Rng;

fn game() -> Tkr {
    Tkr::setup(&Map::new()).unwrap()
}

/// One random game from `s` to the end, calling `f` on every state; returns the last one.
fn playout(g: &Tkr, mut s: State, seed: u64, mut f: impl FnMut(&State)) -> State {
    let mut rng = Rng::from_seed(seed);
    let mut legal = Vec::new();
    for _ in 0..g.info().max_game_length {
        f(&s);
        if g.is_terminal(&s) {
            return s;
        }
        let a = if g.current_player(&s) == CHANCE {
            g.sample_chance(&mut s)
        } else {
            legal.clear();
            g.legal_actions(&s, &mut legal);
            legal[rng.below(legal.len() as u32) as usize]
        };
        g.apply(&mut s, a, &mut Events::off());
    }
    panic!("three_kingdoms_redux: a game outlasted max_game_length");
}

#[test]
fn every_state_of_random_games_validates() {
    let mut states = 0;
    for cfg in Tkr::covered_configs() {
        let g = Tkr::setup(cfg.as_object().unwrap()).unwrap();
        for seed in 0..200u64 {
            playout(&g, g.new_initial_state(seed), seed ^ 0x99, |s| {
                g.validate_position(s)
                    .unwrap_or_else(|e| panic!("{cfg} seed {seed}: {e}\n{:?} {:?} round {}", s.stage, s.pending, s.round));
                states += 1;
            });
        }
    }
    println!("{states} states validated");
    assert!(states > 50_000, "{states}");
}

/// Games played by the bots' playout policy (the game's own knowledge), which reach
/// situations uniform play rarely does.
#[test]
fn every_state_of_playout_policy_games_validates() {
    let mut states = 0;
    for cfg in Tkr::covered_configs() {
        let g = Tkr::setup(cfg.as_object().unwrap()).unwrap();
        for seed in 0..40u64 {
            let mut s = g.new_initial_state(seed);
            let mut rng = Rng::from_seed(seed ^ 0x51);
            let mut legal = Vec::new();
            while !g.is_terminal(&s) {
                g.validate_position(&s).unwrap_or_else(|e| panic!("{cfg} seed {seed}: {e}"));
                states += 1;
                let a = if g.current_player(&s) == CHANCE {
                    g.sample_chance(&mut s)
                } else {
                    legal.clear();
                    g.legal_actions(&s, &mut legal);
                    g.rollout_action(&s, &legal, &mut rng)
                };
                g.apply(&mut s, a, &mut Events::off());
            }
            g.validate_position(&s).unwrap();
        }
    }
    println!("{states} states validated");
    assert!(states > 10_000, "{states}");
}

#[test]
fn samples_keep_the_observers_view_and_validate_and_vary() {
    let g = game();
    let (mut varied, mut compared) = (0, 0);
    for seed in 0..6u64 {
        let mut step = 0u64;
        playout(&g, g.new_initial_state(seed), seed, |s| {
            step += 1;
            if step % 17 != 0 {
                return;
            }
            for observer in SPECTATOR..3 {
                let view = g.view(s, observer);
                let mut seen = std::collections::HashSet::new();
                for k in 0..6 {
                    let t = sample_position(&g, s, observer, &mut Rng::from_seed(seed * 1013 + step * 7 + k));
                    g.validate_position(&t).unwrap_or_else(|e| panic!("seed {seed} step {step} seat {observer}: {e}"));
                    assert_eq!(g.view(&t, observer), view, "seed {seed} step {step} seat {observer}");
                    seen.insert((t.seats.iter().map(|p| (p.hand, p.import_drawn)).collect::<Vec<_>>(), t.gloc.clone(), t.bottom.clone()));
                    compared += 1;
                }
                varied += usize::from(seen.len() > 1);
            }
        });
    }
    assert!(varied > 100 && compared > 1000, "{varied} {compared}");
}

#[test]
fn samples_depend_only_on_the_view() {
    let g = game();
    let mut step = 0u64;
    playout(&g, g.new_initial_state(5), 5, |s| {
        step += 1;
        if step % 29 != 0 {
            return;
        }
        for observer in SPECTATOR..3 as Player {
            let t = sample_position(&g, s, observer, &mut Rng::from_seed(step));
            let a = sample_position(&g, s, observer, &mut Rng::from_seed(step + 1));
            let b = sample_position(&g, &t, observer, &mut Rng::from_seed(step + 1));
            assert_eq!(a, b, "step {step} seat {observer}");
        }
    });
}

#[test]
fn r7_1_unrevealed_generals_are_dealt_from_their_own_kingdoms_deck() {
    let g = game();
    let mut s = None;
    playout(&g, g.new_initial_state(2), 2, |x| {
        if s.is_none() && x.round > 1 && matches!(x.pending, Pending::Keep { seat: 2, .. }) {
            s = Some(x.clone());
        }
    });
    let s = s.expect("a recruitment with drawn generals");
    let mut varied = false;
    for k in 0..20 {
        let t = sample_position(&g, &s, 0, &mut Rng::from_seed(k));
        for (i, gen) in g.data.generals.iter().enumerate() {
            if gen.kingdom == 0 {
                assert_eq!(t.gloc[i], s.gloc[i], "seat 0's own generals are kept");
            }
        }
        varied |= t.gloc != s.gloc;
    }
    assert!(varied, "the other seats' drawn generals never changed");
}

// === corruptions ===

fn mid_game() -> (Tkr, State) {
    let g = game();
    let mut s = None;
    for seed in 0..100 {
        playout(&g, g.new_initial_state(seed), seed, |x| {
            if s.is_none()
                && x.round >= 4
                && x.pending == Pending::Bid
                && x.placements.len() >= 2
                && x.stationed.iter().any(|v| !v.is_empty())
            {
                s = Some(x.clone());
            }
        });
        if s.is_some() {
            break;
        }
    }
    let s = s.expect("bidding with a stationed general");
    validate_position(&g, &s).unwrap();
    (g, s)
}

fn rejected(g: &Tkr, s: &State, needle: &str) {
    match validate_position(g, s) {
        Ok(()) => panic!("accepted, expected an error with {needle:?}"),
        Err(e) => assert!(e.contains(needle), "{e:?} does not contain {needle:?}"),
    }
}

#[test]
fn r2_every_development_card_is_in_one_place() {
    let (g, s) = mid_game();
    let k = (0..3).find(|&k| s.seats[k].hand != 0).unwrap();
    let c = s.seats[k].hand.trailing_zeros();
    let mut t = s.clone();
    t.seats[(k + 1) % 3].hand |= 1 << c;
    rejected(&g, &t, "a development card is in two places (§2)");
    let mut t = s.clone();
    t.seats[k].built |= 1 << c;
    rejected(&g, &t, "a development card is in two places");
    let mut t = s.clone();
    t.seats[k].hand &= !(1 << c);
    t.seats[k].built |= 1 << c;
    rejected(&g, &t, &format!("built_round[{c}]: 0 for a card built"));
    let mut t = s.clone();
    let deck = g.data.developments[c as usize].deck as usize;
    t.bottom[deck].push((c as u8, 0));
    rejected(&g, &t, "is at the bottom and in another place (T1)");
    let mut t = s.clone();
    t.bottom[1 - deck].push((c as u8, 0));
    rejected(&g, &t, "is no card of that deck");
}

#[test]
fn r7_generals_are_in_one_place_with_their_recruitment_round() {
    let (g, s) = mid_game();
    let ruler = g.data.rulers[0] as usize;
    let mut t = s.clone();
    t.gloc[ruler] = GLoc::Deck;
    rejected(&g, &t, "recruited_round");
    let undrafted = (0..s.gloc.len()).find(|&i| s.gloc[i] == GLoc::Deck).unwrap();
    let mut t = s.clone();
    t.gloc[undrafted] = GLoc::Drawn;
    rejected(&g, &t, "outside a recruitment (§7 1))");
    let mut t = s.clone();
    t.recruited_round[ruler] = s.round + 1;
    rejected(&g, &t, &format!("in round {} (§7 1))", s.round));
}

#[test]
fn r8_regions_are_held_by_stationed_generals_of_the_holder() {
    let (g, s) = mid_game();
    let r = (0..s.regions.len()).find(|&r| s.regions[r].seat != NONE).unwrap();
    let holder = s.regions[r].seat as usize;
    let mut t = s.clone();
    t.regions[r].seat = ((holder + 1) % 3) as u8;
    rejected(&g, &t, "is no occupation");
    let mut t = s.clone();
    let gen = t.regions[r].general as usize;
    t.regions[r] = RegionState { seat: NONE, general: NONE, unit: NONE, units: 0, flipped: false };
    rejected(&g, &t, &format!("gloc[{gen}]: {} is Stationed but holds no region", g.data.generals[gen].id));
    t.gloc[gen] = GLoc::Active;
    rejected(&g, &t, &format!("stationed[{holder}]: region {r} is not held by seat {holder}"));
    let mut t = s.clone();
    t.seats[0].granary_regions |= 1;
    t.seats[1].granary_regions |= 1;
    rejected(&g, &t, "a region token beyond the map or in two places");
}

#[test]
fn r9_supplies_stay_in_bounds() {
    let (g, s) = mid_game();
    let mut t = s.clone();
    t.seats[1].rice = -1;
    rejected(&g, &t, "seats[1].rice: -1 is below zero");
    let mut t = s.clone();
    t.seats[2].tribal = g.data.tribal_max + 1;
    rejected(&g, &t, "seats[2].tribal");
    let mut t = s.clone();
    t.seats[0].trained = g.data.limit_armies + 1;
    rejected(&g, &t, "beyond the components (C35)");
    let mut t = s.clone();
    t.seats[1].farm_area = t.seats[1].farm_level + 1;
    rejected(&g, &t, "the developed tokens are at most the level");
    let mut t = s.clone();
    t.seats[0].todo |= 1 << 3;
    t.seats[0].won &= !(1 << 3);
    rejected(&g, &t, "an action to perform that was not won");
}

#[test]
fn r7_3_the_bids_add_up_and_the_stage_matches_the_decision() {
    let (g, s) = mid_game();
    let mut t = s.clone();
    t.totals[0][0] += 1;
    rejected(&g, &t, "do not add up to the placements");
    let mut t = s.clone();
    let p = t.placements[0];
    t.placements.push(p);
    rejected(&g, &t, "is placed twice");
    let mut t = s.clone();
    t.stage = Stage::Alliance;
    rejected(&g, &t, "in the Alliance stage");
    let mut t = s.clone();
    t.acting = 2;
    rejected(&g, &t, "acting: an action under way");
    let mut t = s.clone();
    t.round = 0;
    rejected(&g, &t, "round: 0");
    let mut t = s.clone();
    t.bid_order = [0, 0, 1];
    rejected(&g, &t, "bid_order");
}

#[test]
fn r11_over_exactly_with_its_trigger_and_scores() {
    let g = game();
    let end = playout(&g, g.new_initial_state(8), 8, |_| {});
    validate_position(&g, &end).unwrap();
    let mut t = end.clone();
    t.final_scores[0] += 1;
    rejected(&g, &t, "final_scores");
    let mut t = end.clone();
    t.end_reason = if end.end_reason == 1 { 2 } else { 1 };
    rejected(&g, &t, "end_reason");
    let (g, s) = mid_game();
    let mut t = s.clone();
    t.end_reason = 1;
    rejected(&g, &t, "end_reason: set while the game goes on");
}

// === scenario files (positions/*.json) ===

/// The first state of seeded random games (seeds from 0) that `pick` accepts.
fn found(pick: impl Fn(&State) -> bool) -> State {
    let g = game();
    for seed in 0..300 {
        let mut hit = None;
        playout(&g, g.new_initial_state(seed), seed, |s| {
            if hit.is_none() && g.current_player(s) != CHANCE && pick(s) {
                hit = Some(s.clone());
            }
        });
        if let Some(s) = hit {
            return s;
        }
    }
    panic!("no random game reached the scenario");
}

fn scenarios() -> Vec<(&'static str, &'static str, State)> {
    vec![
        (
            "recruitment_keep",
            "A recruitment: each kingdom keeps generals from its draws in secret; they are revealed when all three have chosen (rule §7 1))",
            found(|s| s.round > 1 && matches!(s.pending, Pending::Keep { .. })),
        ),
        (
            "alliance_token",
            "The third player in bid order puts the alliance token on an action (rule §7 2))",
            found(|s| s.round > 1 && s.pending == Pending::Alliance),
        ),
        (
            "bidding_round",
            "Bidding in progress: generals with units, gold and support tokens on the actions; the highest total wins each action (rule §7 3))",
            found(|s| s.pending == Pending::Bid && s.placements.len() >= 4),
        ),
        (
            "import_technology_keep",
            "Import Technology: the importer keeps some of the drawn development cards; the others go to the bottom of their deck, known only to the importer (rule §8 3), RULES_NOTES T1)",
            found(|s| matches!(s.pending, Pending::KeepImport { .. })),
        ),
        (
            "battle_occupy_region",
            "A battle won: the winning general occupies a border region with units (rule §8 3))",
            found(|s| matches!(s.pending, Pending::OccupyRegion { .. })),
        ),
        (
            "last_round_resolution",
            "The last round's resolution: after it the game ends and is scored (rule §11)",
            found(|s| s.round == game().data.rounds && s.pending == Pending::ChooseAction),
        ),
    ]
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/games/three_kingdoms_redux/positions")
}

/// JSON with two-space indentation; arrays of plain values and small objects on one line.
fn pretty(v: &Value, depth: usize) -> String {
    let pad = |d: usize| "  ".repeat(d);
    let flat = |x: &Value| !x.is_array() && !x.is_object();
    match v {
        Value::Array(a) if a.iter().all(flat) => format!("[{}]", a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")),
        Value::Array(a) if a.iter().all(|x| x.as_array().is_some_and(|y| y.iter().all(flat))) => {
            format!("[{}]", a.iter().map(|x| pretty(x, depth + 1)).collect::<Vec<_>>().join(", "))
        }
        Value::Array(a)
            if a.iter().all(|x| {
                x.as_object().is_some_and(|m| m.values().all(|z| flat(z) || z.as_array().is_some_and(|y| y.iter().all(flat))))
            }) =>
        {
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

fn document(name: &str, description: &str, s: &State) -> Value {
    let g = game();
    let mut position = serde_json::to_value(s).unwrap();
    position.as_object_mut().unwrap().remove("rng");
    json!({
        "format": "kassen-position-1",
        "game": "three_kingdoms_redux",
        "rules_version": g.info().rules_version,
        "config": {},
        "seed": 1,
        "position": position,
        "name": name,
        "description": description,
    })
}

/// The committed files are the scenarios' documents (`KASSEN_BLESS=1` rewrites them).
#[test]
fn scenario_files_are_up_to_date() {
    let bless = std::env::var_os("KASSEN_BLESS").is_some();
    for (name, description, s) in scenarios() {
        game().validate_position(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = pretty(&document(name, description, &s), 0) + "\n";
        let path = dir().join(format!("{name}.json"));
        if bless {
            std::fs::create_dir_all(dir()).unwrap();
            std::fs::write(&path, text).unwrap();
        } else {
            let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (KASSEN_BLESS=1 writes it)", path.display()));
            assert_eq!(committed, text, "{} is stale (KASSEN_BLESS=1 rewrites it)", path.display());
        }
    }
}

/// Each file loads through the typed API, round-trips, validates and plays to the end.
#[test]
fn scenario_files_load_validate_and_play_to_the_end() {
    let mut files = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(doc["format"], "kassen-position-1");
        assert_eq!(doc["game"], "three_kingdoms_redux");
        let g = Tkr::setup(doc["config"].as_object().unwrap()).unwrap();
        assert_eq!(doc["rules_version"], g.info().rules_version.as_str());
        let mut position = doc["position"].clone();
        position["rng"] = serde_json::to_value(Rng::from_seed(doc["seed"].as_u64().unwrap())).unwrap();
        let s: State = serde_json::from_value(position.clone()).unwrap();
        assert_eq!(serde_json::to_value(&s).unwrap(), position, "{}", path.display());
        g.validate_position(&s).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for seed in 0..10 {
            let end = playout(&g, s.clone(), seed, |x| g.validate_position(x).unwrap());
            assert!(g.is_terminal(&end));
        }
        files += 1;
    }
    assert!(files >= 3, "{files} scenario files");
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
fn mutate(s: &State, rng: &mut Rng) -> Option<State> {
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

fn fuzz_games() -> Vec<Tkr> {
    vec![game()]
}

/// Mutated positions that validate never make the rules panic, and play from them stays valid.
#[test]
fn fuzz_accepted_positions_play_on_within_the_rules() {
    let mut accepted = 0;
    let mut tried = 0;
    for (gi, g) in fuzz_games().into_iter().enumerate() {
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
                let Some(t) = mutate(s, &mut rng) else { continue };
                tried += 1;
                if g.validate_position(&t).is_err() {
                    continue;
                }
                accepted += 1;
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| exercise(&g, t.clone(), i as u64)));
                if let Err(e) = run {
                    let msg =
                        e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|x| x.to_string())).unwrap_or_default();
                    let diff: Vec<String> = {
                        let (a, b) = (serde_json::to_value(s).unwrap(), serde_json::to_value(&t).unwrap());
                        a.as_object()
                            .unwrap()
                            .iter()
                            .filter(|(k, x)| b[k.as_str()] != **x)
                            .map(|(k, x)| {
                                format!(
                                    "{k}: {} -> {}",
                                    &x.to_string()[..x.to_string().len().min(300)],
                                    &b[k.as_str()].to_string()[..b[k.as_str()].to_string().len().min(300)]
                                )
                            })
                            .collect()
                    };
                    panic!("an accepted position (changed: {diff:?}) fails: {msg}");
                }
            }
        }
    }
    println!("{accepted} of {tried} mutated positions accepted and played");
    assert!(tried > 1000, "{tried}");
}

/// Views, tensors, samples and a short random continuation, each state validated.
fn exercise(g: &Tkr, mut s: State, seed: u64) {
    let mut rng = Rng::from_seed(seed);
    let mut legal = Vec::new();
    let mut out = vec![0f32; g.info().observation_len()];
    for _ in 0..40 {
        g.validate_position(&s).unwrap_or_else(|e| panic!("play from an accepted position left the rules: {e}"));
        for observer in SPECTATOR..g.num_players() as Player {
            let _ = g.view(&s, observer);
            g.observation_tensor(&s, observer, &mut out);
            if let Some(t) = g.sample_position(&s, observer, &mut rng) {
                g.validate_position(&t).unwrap_or_else(|e| panic!("a sample of an accepted position is invalid: {e}"));
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
