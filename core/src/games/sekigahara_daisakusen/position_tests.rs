//! Positions: every reachable state validates, each corruption is rejected with its rule,
//! the position is its own sample, and the scenario files load and play to the end.

use std::path::PathBuf;

use serde_json::{json, Map, Value};

use super::super::data::{Faction, NONE};
use super::super::state::{Fight, Mode, Pending, State, DEAD, TRACK};
use super::super::Daisakusen;
use crate::events::Events;
use crate::game::{Game, Player, CHANCE, SPECTATOR};
use crate::rng::Rng;

fn game() -> Daisakusen {
    Daisakusen::setup(&Map::new()).unwrap()
}

/// One random game from `s` to the end, calling `f` on every state; returns the last one.
fn playout(g: &Daisakusen, mut s: State, seed: u64, mut f: impl FnMut(&State)) -> State {
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
    panic!("daisakusen: a game outlasted max_game_length");
}

#[test]
fn every_state_of_random_games_validates() {
    let mut states = 0;
    for (cfg, games) in [(json!({}), 500u64), (json!({"max_turns": 2}), 200)] {
        let g = Daisakusen::setup(cfg.as_object().unwrap()).unwrap();
        for seed in 0..games {
            playout(&g, g.new_initial_state(seed), seed ^ 0x77, |s| {
                g.validate_position(s)
                    .unwrap_or_else(|e| panic!("{cfg} seed {seed}: {e}\n{:?} card {} cmdr {}", s.pending, s.card, s.cmdr));
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
    for cfg in [json!({})] {
        let g = Daisakusen::setup(cfg.as_object().unwrap()).unwrap();
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
fn a_position_is_its_own_sample_nothing_is_hidden() {
    let g = game();
    let s = playout(&g, g.new_initial_state(4), 4, |_| {});
    for observer in SPECTATOR..2 {
        assert_eq!(g.sample_position(&s, observer, &mut Rng::from_seed(1)), Some(s.clone()));
    }
}

// === corruptions ===

/// A state after set-up with the first card drawn (seed 2), and a mid-game state.
fn states() -> (Daisakusen, State) {
    let g = game();
    let mut s = g.new_initial_state(2);
    let mut rng = Rng::from_seed(9);
    let mut legal = Vec::new();
    while matches!(s.pending, Pending::Setup { .. } | Pending::Draw) {
        let a = if g.current_player(&s) == CHANCE {
            g.sample_chance(&mut s)
        } else {
            legal.clear();
            g.legal_actions(&s, &mut legal);
            legal[rng.below(legal.len() as u32) as usize]
        };
        g.apply(&mut s, a, &mut Events::off());
    }
    g.validate_position(&s).unwrap();
    (g, s)
}

fn rejected(g: &Daisakusen, s: &State, needle: &str) {
    match g.validate_position(s) {
        Ok(()) => panic!("accepted, expected an error with {needle:?}"),
        Err(e) => assert!(e.contains(needle), "{e:?} does not contain {needle:?}"),
    }
}

/// Edits a counter and keeps the occupancy caches in step.
fn moved(g: &Daisakusen, s: &State, u: usize, f: impl Fn(&mut super::super::state::Unit)) -> State {
    let mut t = s.clone();
    f(&mut t.units[u]);
    g.rebuild(&mut t);
    t
}

fn on_map(s: &State) -> usize {
    s.units.iter().position(|x| x.loc < TRACK && matches!(x.faction, Faction::Tokugawa | Faction::Fudai | Faction::WestMain)).unwrap()
}

#[test]
fn r12_1_only_turning_factions_change_sides_and_take_the_turning_faction() {
    let (g, s) = states();
    let u = on_map(&s);
    rejected(&g, &moved(&g, &s, u, |x| x.faction = Faction::Fudai), "(R 12.1(2))");
    let turned = |x: &mut super::super::state::Unit| {
        x.side = 1 - x.side;
        x.faction = if x.side == 0 { Faction::EastTozama } else { Faction::WestShosho };
    };
    rejected(&g, &moved(&g, &s, u, turned), "only 東軍外様 and 西軍諸将 counters turn (R 12.1)");
}

#[test]
fn r6_counters_stand_on_passable_hexes_within_the_stacking_limit() {
    let (g, s) = states();
    let d = g.data();
    let u = on_map(&s);
    let closed = (0..d.hexes.len()).find(|&h| !d.hexes[h].passable()).unwrap() as u16;
    rejected(&g, &moved(&g, &s, u, |x| x.loc = closed), "which no counter may enter (R 2.4, 6.2(1))");
    // Every East counter on the map onto one hex.
    let mut t = s.clone();
    let h = t.units[u].loc;
    for x in t.units.iter_mut().filter(|x| x.side == 0 && x.loc < TRACK) {
        x.loc = h;
    }
    g.rebuild(&mut t);
    rejected(&g, &t, "the stacking limit is");
}

#[test]
fn r9_entry_tracks_hold_their_own_groups_until_they_arrive() {
    let (g, s) = states();
    let d = g.data();
    let t0 = d.entry.iter().position(|e| !e.group.is_empty()).unwrap();
    let member = d.entry[t0].group[0] as usize;
    rejected(&g, &moved(&g, &s, on_map(&s), |x| x.loc = TRACK + t0 as u16), "which it does not belong to (R 9.0)");
    let mut t = s.clone();
    t.entry[t0] = d.entry[t0].boxes.len() as u8 + 1;
    rejected(&g, &t, &format!("entry[{t0}]: box"));
    let h = s.units[on_map(&s)].loc;
    rejected(&g, &moved(&g, &s, member, |x| x.loc = h), "has not arrived");
}

#[test]
fn r4_1_every_entered_card_is_in_exactly_one_place() {
    let (g, s) = states();
    let d = g.data();
    let mut t = s.clone();
    let c = s.deck.trailing_zeros();
    t.discard |= 1 << c;
    rejected(&g, &t, "both in the deck and in the discards (R 4.1)");
    let mut t = s.clone();
    t.deck &= !(1 << c);
    rejected(&g, &t, "has entered the game but is nowhere");
    let late = d.cards.iter().position(|c| c.enters != super::super::data::Enters::AtStart).unwrap();
    let mut t = s.clone();
    t.deck |= 1 << late;
    if t.card as usize != late {
        rejected(&g, &t, "is in play before it enters the game");
    }
    let mut t = s.clone();
    t.ieyasu_arrived = true;
    rejected(&g, &t, "ieyasu_arrived: true but 家康's entry track has not");
    let mut t = s.clone();
    t.first_draw = true;
    rejected(&g, &t, "first_draw: set after the first card was drawn");
}

#[test]
fn r11_markers_stay_in_their_boxes() {
    let (g, s) = states();
    let mut t = s.clone();
    t.chouryaku = g.data().chouryaku_labels.len() as u8;
    rejected(&g, &t, "chouryaku: box");
    let mut t = s.clone();
    t.morale[0] = 200;
    rejected(&g, &t, "morale[0]: box 200");
    let mut t = s.clone();
    t.kyoto_owner = 2;
    rejected(&g, &t, "kyoto_owner: 2");
}

#[test]
fn r4_0_the_card_program_matches_the_decision() {
    let (g, s) = states();
    let mut t = s.clone();
    t.discard |= 1 << t.card;
    t.card = NONE;
    rejected(&g, &t, "card: none with the decision");
    let mut t = s.clone();
    t.pending = Pending::Draw;
    t.card = s.card;
    rejected(&g, &t, "card: a card in play with the decision Draw");
    let mut t = s.clone();
    t.mp = 3;
    rejected(&g, &t, "movement points outside a move (R 6.2)");
    let mut t = s.clone();
    t.fight = Some(Fight { from: 0, target: 0, dir: 0, siege: false, stage: 1, queue: 0, hits: 0, modifier: 0 });
    rejected(&g, &t, "fight: an attack with the decision");
    let mut t = s.clone();
    t.pending = Pending::Select { mode: Mode::Move };
    rejected(&g, &t, "cmdr: none with the decision");
    let mut t = s.clone();
    t.turn = 0;
    rejected(&g, &t, "turn: 0 is outside 1..=20");
}

#[test]
fn r14_over_exactly_when_a_victory_condition_holds() {
    let (g, s) = states();
    let d = g.data();
    rejected(&g, &moved(&g, &s, d.ishida as usize, |x| x.loc = DEAD), "a victory condition holds, so the game is over (R 14.0)");
    let mut t = s.clone();
    t.winner = 0;
    rejected(&g, &t, "winner: set while the game goes on");
    let mut t = s.clone();
    t.pending = Pending::Over;
    t.winner = 1;
    rejected(&g, &t, "winner: 1 without its cause");
    // The 調略 marker in the West's victory box is the cause (R 14.0(3)).
    t.chouryaku = d.chouryaku_labels.len() as u8 - 1;
    g.validate_position(&t).unwrap();
    t.winner = 0;
    rejected(&g, &t, "winner: 0 without its cause");
}

// === scenario files (positions/*.json) ===

/// The first state of seeded random games (seeds from 0) that `pick` accepts.
fn found(pick: impl Fn(&Daisakusen, &State) -> bool) -> State {
    let g = game();
    for seed in 0..400 {
        let mut hit = None;
        playout(&g, g.new_initial_state(seed), seed, |s| {
            if hit.is_none() && pick(&g, s) {
                hit = Some(s.clone());
            }
        });
        if let Some(s) = hit {
            return s;
        }
    }
    panic!("no random game reached the scenario");
}

/// The scenario of the rule test `r7_2_siege_the_besieged_fire_first_and_the_attacker_at_minus_two`
/// on the full map (nothing cleared): 福島正則 moved to 1815, card C05 drawn, an attack on 大垣.
fn siege_at_ogaki() -> State {
    use super::super::action::{Action, ACT_ATTACK};
    let g = game();
    let d = g.data();
    let mut s = g.new_initial_state(1);
    let mut legal = Vec::new();
    while matches!(s.pending, Pending::Setup { .. }) {
        legal.clear();
        g.legal_actions(&s, &mut legal);
        g.apply(&mut s, legal[0], &mut Events::off());
    }
    let (from, ogaki) = (d.hex_index("1815").unwrap(), d.hex_index("1716").unwrap());
    let fukushima = d.counter_index("福島正則").unwrap();
    s.units[fukushima as usize].loc = from;
    g.rebuild(&mut s);
    let c05 = d.cards.iter().position(|c| c.id == "C05").unwrap() as u8;
    let step = |s: &mut State, a: Action| g.step(s, g.encode(a), &mut Events::off()).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    step(&mut s, Action::Draw(c05));
    step(&mut s, Action::Commander(fukushima));
    step(&mut s, Action::Act(ACT_ATTACK));
    step(&mut s, Action::Done);
    let dir = (0..6).find(|&k| d.hexes[from as usize].nb[k] == ogaki).unwrap() as u8;
    step(&mut s, Action::Target(dir));
    assert!(s.fight.is_some_and(|f| f.siege && f.stage == 0));
    s
}

fn scenarios() -> Vec<(&'static str, &'static str, State)> {
    let g = game();
    vec![
        (
            "setup_tozama_placement",
            "The start: East places the 外様主力 counters one by one in the set-up hexes with room, then the first card is drawn (rule §3.0(1)①, RULES_NOTES D23)",
            g.new_initial_state(1),
        ),
        (
            "siege_besieged_fire_first",
            "As the rule test r7_2: 福島正則 (card C05) attacks the castle of 大垣 (1716) from 1815; the garrison 福原長堯 fires first with no modifier, then 福島 at -2, minimum 1 (rule §7.2)",
            siege_at_ogaki(),
        ),
        (
            "advance_after_combat",
            "An attack emptied the target hex: the commander may advance with part of the surviving group, under the movement limits (rule §7.3)",
            found(|_, s| s.pending == Pending::Advance),
        ),
        (
            "chouryaku_judgement",
            "The card owner may attempt a 調略 or 恫喝判定 against a hex of enemy counters before the activations (rule §12.1-12.2)",
            found(|_, s| s.pending == Pending::Plot),
        ),
        (
            "chouryaku_one_box_from_victory",
            "The 調略 marker stands one box from a victory box: the next marker move toward that side wins at once (rule §14.0(3), §11.0(1))",
            found(|g, s| s.pending == Pending::Draw && (s.chouryaku == 1 || s.chouryaku as usize + 2 == g.data().chouryaku_labels.len())),
        ),
        (
            "ieyasu_takes_the_field",
            "家康's group has arrived on the map, so 家康出馬 is in the deck (rule §4.2①, §9.0)",
            found(|_, s| s.pending == Pending::Draw && s.ieyasu_arrived),
        ),
    ]
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/games/sekigahara_daisakusen/positions")
}

/// JSON with two-space indentation and arrays of plain values on one line.
fn pretty(v: &Value, depth: usize) -> String {
    let pad = |d: usize| "  ".repeat(d);
    match v {
        Value::Array(a) if a.iter().all(|x| !x.is_array() && !x.is_object()) => {
            format!("[{}]", a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
        }
        Value::Array(a) if a.iter().all(|x| x.as_array().is_some_and(|y| y.iter().all(|z| !z.is_array() && !z.is_object()))) => {
            format!("[{}]", a.iter().map(|x| pretty(x, depth + 1)).collect::<Vec<_>>().join(", "))
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
        "game": "sekigahara_daisakusen",
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
        assert_eq!(doc["game"], "sekigahara_daisakusen");
        let g = Daisakusen::setup(doc["config"].as_object().unwrap()).unwrap();
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

fn fuzz_games() -> Vec<Daisakusen> {
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
fn exercise(g: &Daisakusen, mut s: State, seed: u64) {
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
