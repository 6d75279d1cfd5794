//! Positions: every reachable state validates, each corruption is rejected with its rule,
//! samples keep the observer's view, and the scenario files load and play to the end.

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::{json, Map, Value};

use super::super::data::NONE;
use super::super::state::{Pending, State, BAG, DEAD, DEPLOYED, IN_CASTLE, MORI_BOX};
use super::super::Sekigahara;
use super::{sample_position, validate_position};
use crate::events::Events;
use crate::game::{Game, Player, CHANCE, SPECTATOR};
use crate::rng::Rng;

fn game() -> Sekigahara {
    Sekigahara::setup(&Map::new()).unwrap()
}

/// One random game from `s` to the end, calling `f` on every state; returns the last one.
fn playout(g: &Sekigahara, mut s: State, seed: u64, mut f: impl FnMut(&State)) -> State {
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
    panic!("sekigahara: a game outlasted max_game_length");
}

#[test]
fn every_state_of_random_games_validates() {
    let g = game();
    let mut states = 0;
    for seed in 0..500u64 {
        playout(&g, g.new_initial_state(seed), seed ^ 0x33, |s| {
            g.validate_position(s)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{:?} week {} turn {} step {}", s.pending, s.week, s.turn, s.step));
            states += 1;
        });
    }
    println!("{states} states validated");
    assert!(states > 50_000, "{states}");
}

/// Games played by the bots' playout policy (the game's own knowledge), which reach
/// situations uniform play rarely does.
#[test]
fn every_state_of_playout_policy_games_validates() {
    let mut states = 0;
    for cfg in [json!({})] {
        let g = Sekigahara::setup(cfg.as_object().unwrap()).unwrap();
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
    for seed in 0..8u64 {
        let mut step = 0u64;
        playout(&g, g.new_initial_state(seed), seed, |s| {
            step += 1;
            if step % 23 != 0 {
                return;
            }
            for observer in SPECTATOR..2 {
                let view = g.view(s, observer);
                let mut seen = HashSet::new();
                for k in 0..6 {
                    let t = sample_position(&g, s, observer, &mut Rng::from_seed(seed * 1009 + step * 7 + k));
                    g.validate_position(&t).unwrap_or_else(|e| panic!("seed {seed} step {step} seat {observer}: {e}"));
                    assert_eq!(g.view(&t, observer), view, "seed {seed} step {step} seat {observer}");
                    seen.insert((t.blocks.clone(), t.hand.clone(), t.deck.clone(), t.discard.clone()));
                    compared += 1;
                }
                varied += usize::from(seen.len() > 1);
            }
        });
    }
    // Every state past the setup draws hides a hand or a bag from every observer.
    assert!(varied > 100 && compared > 1000, "{varied} {compared}");
}

#[test]
fn samples_depend_only_on_the_view() {
    let g = game();
    let mut step = 0u64;
    playout(&g, g.new_initial_state(3), 3, |s| {
        step += 1;
        if step % 31 != 0 {
            return;
        }
        for observer in SPECTATOR..2 as Player {
            let t = sample_position(&g, s, observer, &mut Rng::from_seed(step));
            let a = sample_position(&g, s, observer, &mut Rng::from_seed(step + 1));
            let b = sample_position(&g, &t, observer, &mut Rng::from_seed(step + 1));
            assert_eq!(a, b, "step {step} seat {observer}");
        }
    });
}

#[test]
fn r5_the_own_blocks_and_cards_are_kept_and_the_others_dealt_anew() {
    let g = game();
    let mut s = None;
    playout(&g, g.new_initial_state(6), 6, |x| {
        if s.is_none() && x.week == 2 && x.pending == Pending::Mode {
            s = Some(x.clone());
        }
    });
    let s = s.unwrap();
    let mut moved_block = false;
    for k in 0..20 {
        let t = sample_position(&g, &s, 0, &mut Rng::from_seed(k));
        assert_eq!(
            t.hand.iter().zip(&g.data.cards).filter(|(_, c)| c.side == 0).map(|(n, _)| n).collect::<Vec<_>>(),
            s.hand.iter().zip(&g.data.cards).filter(|(_, c)| c.side == 0).map(|(n, _)| n).collect::<Vec<_>>(),
            "Tokugawa's own hand"
        );
        for (i, b) in s.blocks.iter().enumerate() {
            if g.data.blocks[i].side == 0 {
                assert_eq!(t.blocks[i], *b, "Tokugawa's own block {i}");
            } else if [MORI_BOX, DEAD].contains(&b.loc) {
                assert_eq!(t.blocks[i], *b, "a face-up Ishida block {i}");
            } else {
                moved_block |= t.blocks[i] != *b;
            }
        }
    }
    assert!(moved_block, "Ishida's face-down blocks were never dealt anew");
}

// === corruptions ===

fn mid_game() -> (Sekigahara, State) {
    let g = game();
    let mut s = None;
    playout(&g, g.new_initial_state(2), 2, |x| {
        if s.is_none() && x.week == 2 && x.pending == Pending::Mode && !x.due.any() {
            s = Some(x.clone());
        }
    });
    let s = s.unwrap();
    validate_position(&g, &s).unwrap();
    (g, s)
}

fn rejected(g: &Sekigahara, s: &State, needle: &str) {
    match validate_position(g, s) {
        Ok(()) => panic!("accepted, expected an error with {needle:?}"),
        Err(e) => assert!(e.contains(needle), "{e:?} does not contain {needle:?}"),
    }
}

fn block_at(s: &State, pred: impl Fn(usize) -> bool) -> usize {
    (0..s.blocks.len()).find(|&i| pred(i)).expect("such a block")
}

#[test]
fn r5_blocks_stay_where_their_origin_allows() {
    let (g, s) = mid_game();
    let fixed =
        block_at(&s, |i| g.data.blocks[i].start != super::super::data::Start::Bag && s.blocks[i].loc < 100 && !g.data.blocks[i].commander);
    let mut t = s.clone();
    t.blocks[fixed].loc = BAG;
    t.blocks[fixed].flags = 0;
    t.blocks[fixed].from = NONE;
    rejected(&g, &t, "is in a bag or recruitment box but starts on the map");
    let mut t = s.clone();
    t.blocks[fixed].loc = MORI_BOX;
    rejected(&g, &t, "which holds only Mori blocks (9.3)");
    let mut t = s.clone();
    t.blocks[fixed].loc = 99;
    rejected(&g, &t, "neither on the map nor a box");
    let bagged = block_at(&s, |i| s.blocks[i].loc == BAG);
    let mut t = s.clone();
    t.blocks[bagged].flags = IN_CASTLE;
    rejected(&g, &t, "off the map with flags");
    let no_castle = (0..g.data.locations.len()).find(|&l| g.data.locations[l].castle.is_none()).unwrap() as u8;
    let mut t = s.clone();
    t.blocks[fixed].loc = no_castle;
    t.blocks[fixed].flags = IN_CASTLE;
    rejected(&g, &t, "inside a castle where there is none (8.9.2)");
    let mut t = s.clone();
    t.blocks[fixed].flags = DEPLOYED;
    rejected(&g, &t, "deployed outside the battle in progress (8.2.3)");
}

#[test]
fn r3_3_every_card_is_in_exactly_one_pile() {
    let (g, s) = mid_game();
    let c = (0..g.data.cards.len()).find(|&c| s.deck[c] > 0).unwrap();
    let mut t = s.clone();
    t.deck[c] -= 1;
    rejected(&g, &t, "copies of");
    let mut t = s.clone();
    t.hand[c] += 1;
    rejected(&g, &t, "in hand, deck, discards, reinforcement discards, bid and battle");
    let mut t = s.clone();
    t.deck[c] -= 1;
    t.reinforce_discards[c] += 1;
    rejected(&g, &t, "reinforce_done");
    let mut t = s.clone();
    t.bids[0] = c as u8;
    rejected(&g, &t, "a bid card without a bid (6.3)");
    let mut t = s.clone();
    let side = g.data.cards[c].side;
    for &k in &g.data.side_cards[side as usize] {
        t.discard[k as usize] += t.deck[k as usize];
        t.deck[k as usize] = 0;
    }
    t.due.cards[side as usize] = 1;
    rejected(&g, &t, "a card is owed from an empty deck");
}

#[test]
fn r4_3_castle_control_follows_the_units() {
    let (g, s) = mid_game();
    let l = (0..g.data.locations.len()).find(|&l| g.data.locations[l].castle.is_some() && !s.contested(&g, l as u8)).unwrap();
    let mut t = s.clone();
    t.castle[l] = 1 - s.castle[l];
    rejected(&g, &t, &format!("castle[{l}]: held by side"));
    let none = (0..g.data.locations.len()).find(|&l| g.data.locations[l].castle.is_none()).unwrap();
    let mut t = s.clone();
    t.castle[none] = 0;
    rejected(&g, &t, "has no castle (4.3)");
    let mut t = s.clone();
    let r = (0..g.data.locations.len()).find(|&l| !g.data.locations[l].resource).unwrap();
    t.resource[r] = 0;
    rejected(&g, &t, "is no resource location");
}

#[test]
fn r6_the_sequence_matches_the_pending_decision() {
    let (g, s) = mid_game();
    let mut t = s.clone();
    t.step = 1;
    rejected(&g, &t, "in step 1 of the turn");
    let mut t = s.clone();
    t.pending = Pending::Bid { side: 0 };
    t.step = 0;
    t.turn = 1;
    rejected(&g, &t, "during the week's start");
    let mut t = s.clone();
    t.pending = Pending::Deploy;
    t.step = 1;
    rejected(&g, &t, "no battle with the decision Deploy");
    let mut t = s.clone();
    t.week = 0;
    rejected(&g, &t, "week: week 0");
    let mut t = s.clone();
    t.bid_made = [true, false];
    rejected(&g, &t, "bids outstanding after the bid");
    let mut t = s.clone();
    t.mode = super::super::state::Mode::Limited;
    t.pending = Pending::PayMode { left: 2 };
    rejected(&g, &t, "2 cards left to pay for the limited mode (7.1)");
    t.pending = Pending::Exchange { discarded: 0 };
    rejected(&g, &t, "a card exchange in the limited mode (7.1)");
    let mut t = s.clone();
    t.forced = Some((200, 0));
    rejected(&g, &t, "forced: (200, 0) is no battle");
}

#[test]
fn r2_over_exactly_when_the_game_ends() {
    let (g, s) = mid_game();
    let commander = (0..s.blocks.len()).find(|&i| g.data.blocks[i].commander && g.data.blocks[i].side == 1).unwrap();
    let mut t = s.clone();
    t.blocks[commander] = super::super::state::Blk { loc: DEAD, flags: 0, from: NONE };
    rejected(&g, &t, "a commander is eliminated or Hideyori captured, so the game is over (2.1)");
    t.pending = Pending::Over;
    t.end = Some(super::super::state::EndReason::Immediate);
    t.winner = 0;
    validate_position(&g, &t).unwrap();
    t.winner = 1;
    rejected(&g, &t, "without its cause (2.1-2.2)");
    let mut t = s.clone();
    t.pending = Pending::Over;
    t.end = Some(super::super::state::EndReason::Points);
    t.winner = 0;
    rejected(&g, &t, "without its cause");
    let mut t = s.clone();
    t.winner = 0;
    rejected(&g, &t, "end: set while the game goes on (2)");
}

// === scenario files (positions/*.json) ===

/// The first state of seeded random games (seeds from 0) that `pick` accepts.
fn found(pick: impl Fn(&State) -> bool) -> State {
    let g = game();
    for seed in 0..300 {
        let mut hit = None;
        playout(&g, g.new_initial_state(seed), seed, |s| {
            if hit.is_none() && !s.due.any() && pick(s) {
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
            "initiative_bid",
            "Week 2: Tokugawa has bid a card face down for the initiative and Ishida bids now without seeing it; the higher initiative chooses who moves first (rule §6.3)",
            found(|s| s.week == 2 && s.pending == (Pending::Bid { side: 1 })),
        ),
        (
            "muster_from_the_recruitment_box",
            "A muster under way: blocks from the recruitment box go to a location that may recruit them, option A or B (rule §7.2)",
            found(|s| matches!(s.pending, Pending::Muster { .. })),
        ),
        (
            "siege_choice",
            "The holder of a castle chooses to stay inside (a siege) or fight outside (rule §8.9.2)",
            found(|s| matches!(s.pending, Pending::SiegeChoice { .. })),
        ),
        (
            "loyalty_challenge",
            "A block was just deployed: its opponent may play a Loyalty Challenge, which the deploying side must refute with a matching card or lose the block to the enemy (rule §8.6.1)",
            found(|s| s.pending == Pending::Challenge),
        ),
        (
            "retreat_after_battle",
            "A battle is lost: the loser chooses where its surviving blocks retreat (rule §8.8)",
            found(|s| s.pending == Pending::Retreat),
        ),
        (
            "last_week_combat",
            "The last week's last combat phase: when it ends, the castles (2 points) and resource locations (1 point) decide the winner (rule §2.2)",
            found(|s| s.week == game().data.weeks && s.turn == 1 && s.step == 3 && s.pending == Pending::Combat),
        ),
    ]
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/games/sekigahara/positions")
}

/// JSON with two-space indentation and arrays of plain values on one line.
fn pretty(v: &Value, depth: usize) -> String {
    let pad = |d: usize| "  ".repeat(d);
    match v {
        Value::Array(a) if a.iter().all(|x| !x.is_array() && !x.is_object()) => {
            format!("[{}]", a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
        }
        Value::Array(a) if a.iter().all(|x| x.as_object().is_some_and(|m| m.values().all(|z| !z.is_array() && !z.is_object()))) => {
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
        "game": "sekigahara",
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
        assert_eq!(doc["game"], "sekigahara");
        let g = Sekigahara::setup(doc["config"].as_object().unwrap()).unwrap();
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

fn fuzz_games() -> Vec<Sekigahara> {
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
fn exercise(g: &Sekigahara, mut s: State, seed: u64) {
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
