//! The shared conformance suite, run on every registered game (core/tests/conformance.rs)
//! and usable by downstream users on their own games through [`check`] or
//! [`crate::DynGame::conformance`].
//!
//! From each seed it plays a random game through the erased interface and checks, at every
//! state: no dead ends; legal actions sorted, unique and in range, agreeing with `is_legal`
//! over the whole id range (every 5th state) and with the mask; every legal action applies;
//! illegal ids are rejected with the state unchanged; legal actions are distinct moves (unique
//! descriptions); views and tensors have the declared shape, are finite and deterministic;
//! determinizations ([`check_determinization`]) are real states with the observer's view,
//! tensor and whole event history, depend only on what the observer knows, and keep nothing
//! of the hidden truth (this is also the leak test); events only grow; JSON round-trips. At the end: the game ended within `max_game_length`, returns are finite, the
//! same seed and actions reproduce the same state, and every event a seat gets is addressed
//! to it, and the returns and chance outcome ids are as the game info declares (metadata.rs).
//! The declared observation layout tiles the tensor, and every value of every observer's
//! tensor at every step is finite and inside its feature's bounds (`crate::layout`); its bytes
//! (`observation_tensor_u8`, a uint8 batch's observations) are the quantized floats.
//! Along each game, sampled steps are changed to another legal action and the game replayed
//! from there ([`variants`]): two histories an observer cannot tell apart by its
//! information-state key must give it the same view, tensor, events and legal actions.

use std::sync::Arc;

use serde::Serialize;

use crate::engine::{Instance, StateHandle};
use crate::game::{ActionId, Game, Player, CHANCE, SPECTATOR, TERMINAL};
use crate::rng::Rng;
use crate::DynGame;

pub mod compact;
mod info_state;
mod metadata;
pub mod named;
mod parallel;
#[cfg(test)]
pub(crate) mod positions;
pub mod schema;
mod soak;
mod text;
mod variants;
pub use parallel::on_every_core;
pub use soak::{soak, SoakReport};

/// What the suite exercised.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub games: u32,
    pub states: u32,
    pub legal_actions_applied: u32,
    pub illegal_actions_rejected: u32,
    pub views_compared: u32,
    /// Resampled states that differed from the original (hidden information was exercised).
    pub hidden_variants: u32,
    /// States of one-action variants compared with the game's own ([`variants`]).
    pub variant_states: u32,
    pub longest_game: u32,
}

fn ensure(cond: bool, msg: impl FnOnce() -> String) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(msg())
    }
}

/// Plays one random game from `seed`, choosing uniformly among legal actions with a separate
/// RNG; returns the final state and the actions chosen by the caller (chance outcomes that the
/// engine resolved itself are not in the list).
pub fn random_playout(game: &dyn DynGame, seed: u64) -> (StateHandle, Vec<ActionId>) {
    let mut rng = Rng::from_seed(seed ^ 0x5eed_1e55);
    let mut s = game.new_initial_state(seed);
    let mut chosen = Vec::new();
    let mut legal = Vec::new();
    while !s.is_terminal() {
        legal.clear();
        s.legal_actions_into(&mut legal);
        let a = legal[rng.below(legal.len() as u32) as usize];
        s.apply_in_place(a).expect("a legal action applies");
        chosen.push(a);
    }
    (s, chosen)
}

/// Runs every check from every seed.
pub fn check<G: Game>(game: &Arc<Instance<G>>, seeds: &[u64]) -> Result<Report, String> {
    let mut report = Report::default();
    let mut recall = info_state::Recall::default();
    let mut complete = compact::Complete::default();
    for &seed in seeds {
        check_one(game, seed, &mut report, &mut recall, &mut complete).map_err(|e| format!("{} seed {seed}: {e}", G::ID))?;
        report.variant_states +=
            variants::check(&**game, seed, variants::rounds()).map_err(|e| format!("{} one-action variants: {e}", G::ID))?;
    }
    Ok(report)
}

fn check_one<G: Game>(
    game: &Arc<Instance<G>>,
    seed: u64,
    report: &mut Report,
    recall: &mut info_state::Recall,
    complete: &mut compact::Complete,
) -> Result<(), String> {
    let info = game.info().clone();
    let n = info.num_distinct_actions;
    let players = game.num_players() as i32;
    metadata::check_declared(&info)?;
    crate::layout::check_tiles(&info.observation_layout, info.observation_len())?;
    crate::compact::check_tiles(&info.compact_layout, info.compact_len())?;
    ensure(info.compact_len() > 0, || "the game has no compact observation".into())?;
    let mut rng = Rng::from_seed(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 1);
    let mut s = game.new_initial_state(seed);
    let mut chosen = Vec::new();
    let mut legal = Vec::new();
    let mut step = 0u32;
    let mut seen = Vec::new();
    loop {
        report.states += 1;
        let cp = s.current_player();
        ensure(s.is_terminal() == (cp == TERMINAL), || "is_terminal disagrees with current_player".into())?;
        ensure(cp == TERMINAL || cp == CHANCE || (0..players).contains(&cp), || format!("current_player {cp} out of range"))?;
        ensure(game.explicit_chance() || cp != CHANCE, || "a chance node was left unresolved without explicit_chance".into())?;
        legal.clear();
        s.legal_actions_into(&mut legal);
        if cp == TERMINAL {
            ensure(legal.is_empty(), || "a finished game has legal actions".into())?;
        } else {
            ensure(!legal.is_empty(), || format!("dead end at step {step}: no legal action"))?;
        }
        ensure(legal.windows(2).all(|w| w[0] < w[1]), || "legal actions not sorted and unique".into())?;
        ensure(legal.iter().all(|&a| a < n), || "legal action out of range".into())?;
        let mask = s.legal_actions_mask();
        ensure(mask.iter().filter(|&&m| m).count() == legal.len() && legal.iter().all(|&a| mask[a as usize]), || "mask disagrees".into())?;
        if step % 5 == 0 {
            for a in 0..n {
                ensure(s.is_legal(a) == legal.binary_search(&a).is_ok(), || {
                    format!("is_legal({a}) disagrees with legal_actions at step {step}")
                })?;
            }
        }
        if cp == CHANCE {
            let outcomes = s.chance_outcomes();
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            ensure((total - 1.0).abs() < 1e-9, || format!("chance probabilities sum to {total}"))?;
            let ids: Vec<ActionId> = outcomes.iter().map(|o| o.0).collect();
            ensure(ids == legal, || "chance outcomes differ from the legal actions of a chance node".into())?;
            metadata::check_chance_ids(&info, &ids)?;
        }
        named::named_round_trip(game.rules(), typed_state::<G>(&s)?)?;
        check_illegal(&s, &legal, n, &mut rng, report)?;
        check_legal_apply(&s, &legal, &mut rng, report)?;
        check_views(game, &s, players, step, &mut rng, report)?;
        seen = info_state::check_step(&s, players, &seen)?;
        recall.check(&s, players, step as usize)?;
        complete.check(&s, players, step as usize)?;
        check_action_strings(&s, &legal)?;
        if cp >= 0 {
            // Its own generator: the conformance games stay the ones they were.
            check_bot_hooks(game, &s, &legal, &mut Rng::from_seed(seed ^ (step as u64) << 20))?;
        }
        if step % 10 == 0 {
            text::check(&s, players, &mut rng.clone()).map_err(|e| format!("text at step {step}: {e}"))?;
        }
        if step % 25 == 0 {
            check_events_append(&s, &legal, players)?;
        }
        if step % 10 == 0 {
            let back = StateHandle::from_value(&s.to_json()).map_err(|e| format!("to_json/from_json failed: {e}"))?;
            ensure(back == s && back.to_json() == s.to_json(), || "json round trip changed the state".into())?;
            for p in SPECTATOR..players {
                info_state::check_same_key(&s, &back, p, "the reloaded state")?;
            }
        }
        if cp == TERMINAL {
            break;
        }
        let a = legal[rng.below(legal.len() as u32) as usize];
        s.apply_in_place(a).map_err(|e| format!("legal action {a} rejected: {e}"))?;
        chosen.push(a);
        step += 1;
        ensure((s.history().len() as u32) <= info.max_game_length, || "game longer than max_game_length".into())?;
    }
    let returns = s.returns();
    ensure(returns.len() == players as usize && returns.iter().all(|r| r.is_finite()), || "bad returns".into())?;
    metadata::check_returns(&info, &returns)?;
    // Determinism: the same seed and actions reproduce the same state.
    let mut again = game.new_initial_state(seed);
    for &a in &chosen {
        again.apply_in_place(a).map_err(|e| format!("replay rejected {a}: {e}"))?;
    }
    ensure(again == s && again.stable_hash() == s.stable_hash() && again.to_json() == s.to_json(), || "replay differs".into())?;
    // Events: each seat's list only holds events addressed to it.
    for p in SPECTATOR..players {
        let events = s.events(p).map_err(|e| e.to_string())?;
        ensure(events.iter().all(|e| e.audience.includes(p) && e.body.get("kind").is_some()), || {
            format!("seat {p} got an event not addressed to it")
        })?;
        // The events' JSON text (the C ABI's) is serde_json's, byte for byte.
        let expected = serde_json::to_string(&events).map_err(|e| e.to_string())?;
        ensure(crate::events::to_json(&events) == expected, || format!("events JSON text of seat {p} differs from serde_json's"))?;
    }
    report.games += 1;
    report.longest_game = report.longest_game.max(s.history().len() as u32);
    Ok(())
}

/// The typed state of a handle of game `G`.
fn typed_state<G: Game>(s: &StateHandle) -> Result<&G::State, String> {
    Ok(s.as_any().downcast_ref::<crate::engine::Bound<G>>().ok_or("a state of another game")?.state())
}

/// The search's hooks (`Game::rollout_action`, `Game::evaluate`): the playout policy answers
/// with one of the actions it is given, also when that is only some of the legal ones (the
/// search asks it to pick among the untried actions of a node), and an evaluation stays within
/// the utility range.
fn check_bot_hooks<G: Game>(game: &Arc<Instance<G>>, s: &StateHandle, legal: &[ActionId], rng: &mut Rng) -> Result<(), String> {
    let typed = s.as_any().downcast_ref::<crate::engine::Bound<G>>().ok_or("a state of another game")?.state();
    let rules = game.rules();
    let mut some: Vec<ActionId> = legal.iter().copied().filter(|_| rng.below(2) == 0).collect();
    if some.is_empty() {
        some.push(legal[rng.below(legal.len() as u32) as usize]);
    }
    for list in [legal, &some[..]] {
        let a = rules.rollout_action(typed, list, rng);
        ensure(list.contains(&a), || format!("rollout_action chose {a}, not one of the {} actions it was given", list.len()))?;
    }
    let info = game.info();
    let mut out = vec![0.0; game.num_players()];
    if rules.evaluate(typed, &mut out) {
        ensure(out.iter().all(|v| v.is_finite() && (info.utility.min..=info.utility.max).contains(v)), || {
            format!("evaluate gave {out:?}, outside the utility range")
        })?;
    }
    Ok(())
}

/// Every legal action is a distinct move: no two share a description (OpenSpiel's rule).
fn check_action_strings(s: &StateHandle, legal: &[ActionId]) -> Result<(), String> {
    let mut seen = std::collections::HashMap::new();
    for &a in legal {
        let text = s.action_to_string(a).map_err(|e| e.to_string())?;
        if let Some(b) = seen.insert(text.clone(), a) {
            return Err(format!("legal actions {b} and {a} are the same move {text:?}"));
        }
    }
    Ok(())
}

/// Events are a perfect-recall log: a step only appends, and `events_since` is its tail.
fn check_events_append(s: &StateHandle, legal: &[ActionId], players: i32) -> Result<(), String> {
    let Some(&a) = legal.first() else { return Ok(()) };
    let next = s.child(a).map_err(|e| e.to_string())?;
    for p in SPECTATOR..players {
        let before = s.events(p).map_err(|e| e.to_string())?;
        let after = next.events(p).map_err(|e| e.to_string())?;
        ensure(after.starts_with(&before), || format!("events of seat {p} changed after a step instead of growing"))?;
        let tail = next.events_since(p, before.len()).map_err(|e| e.to_string())?;
        ensure(tail == after[before.len()..], || format!("events_since for seat {p} is not the tail of events"))?;
    }
    Ok(())
}

fn check_illegal(s: &StateHandle, legal: &[ActionId], n: u32, rng: &mut Rng, report: &mut Report) -> Result<(), String> {
    let before = s.to_json();
    let mut probes = vec![n, n + 17, u32::MAX];
    for _ in 0..4 {
        let a = rng.below(n);
        if legal.binary_search(&a).is_err() {
            probes.push(a);
        }
    }
    for a in probes {
        let mut t = s.clone();
        ensure(t.apply_in_place(a).is_err(), || format!("illegal action {a} was accepted"))?;
        ensure(t == *s && t.to_json() == before, || format!("rejected action {a} changed the state"))?;
        report.illegal_actions_rejected += 1;
    }
    Ok(())
}

fn check_legal_apply(s: &StateHandle, legal: &[ActionId], rng: &mut Rng, report: &mut Report) -> Result<(), String> {
    let sample: Vec<ActionId> =
        if legal.len() <= 24 { legal.to_vec() } else { (0..24).map(|_| legal[rng.below(legal.len() as u32) as usize]).collect() };
    for a in sample {
        let c = s.child(a).map_err(|e| format!("legal action {a} rejected: {e}"))?;
        ensure(c.history().len() > s.history().len(), || "apply did not record the action".into())?;
        report.legal_actions_applied += 1;
    }
    Ok(())
}

fn check_views<G: Game>(
    game: &Arc<Instance<G>>,
    s: &StateHandle,
    players: i32,
    step: u32,
    rng: &mut Rng,
    report: &mut Report,
) -> Result<(), String> {
    let len = game.info().observation_len();
    for p in SPECTATOR..players {
        let v = s.view(p).map_err(|e| e.to_string())?;
        ensure(v == s.view(p).map_err(|e| e.to_string())?, || "view is not deterministic".into())?;
        // The text is written straight from the state: it must be the value's JSON, byte for
        // byte (the keys of every object in ascending order, as `Value` prints them).
        let text = s.view_json(p).map_err(|e| e.to_string())?;
        let expected = v.to_string();
        ensure(text == expected, || format!("view_json of seat {p} differs from the view value's JSON:\n{text}\n{expected}"))?;
        check_envelope(s, p, &v)?;
        let t = s.observation_tensor(p).map_err(|e| e.to_string())?;
        ensure(t.len() == len && t.iter().all(|x| x.is_finite()), || "tensor has the wrong length or a non-finite value".into())?;
        crate::layout::check_values(&game.info().observation_layout, &t).map_err(|e| format!("observer {p} at step {step}: {e}"))?;
        // The bytes of a uint8 batch are the quantized floats (a game may write them itself).
        let typed = s.as_any().downcast_ref::<crate::engine::Bound<G>>().ok_or("the state is not of this game")?;
        let (mut bytes, mut scratch) = (vec![7u8; len], vec![f32::NAN; len]);
        game.rules().observation_tensor_u8(typed.state(), p, &mut bytes, &mut scratch);
        let mut expected = vec![0u8; len];
        crate::quantize::quantize(&t, &mut expected);
        ensure(bytes == expected, || format!("observer {p} at step {step}: the uint8 observation is not the quantized float one"))?;
        if step % 10 == 5 {
            compact::check_twin(s, p, rng.next_u64()).map_err(|e| format!("step {step}: {e}"))?;
        }
        if step % 10 == 0 && check_determinization(s, p, rng.next_u64())? {
            report.hidden_variants += 1;
        }
        report.views_compared += 1;
    }
    ensure(s.view(players).is_err() && s.view(-2).is_err(), || "a view of a seat that does not exist was given".into())
}

/// Checks `view` of `observer` against the envelope schema and against the state it describes.
pub fn check_envelope(s: &StateHandle, observer: Player, view: &serde_json::Value) -> Result<(), String> {
    schema::validate_view(view).map_err(|e| format!("view of seat {observer} breaks the envelope schema: {e}"))?;
    let info = s.game().info().clone();
    let cp = s.current_player();
    let seat = |p: Player| if p >= 0 { serde_json::json!(p) } else { serde_json::Value::Null };
    ensure(view["game"] == info.id.as_str() && view["rules_version"] == info.rules_version.as_str(), || {
        "envelope names another game".into()
    })?;
    ensure(view["observer"] == seat(observer), || format!("envelope observer {} for seat {observer}", view["observer"]))?;
    ensure(view["seats"].as_array().map(Vec::len) == Some(info.num_players as usize), || {
        "envelope seats differ from the player count".into()
    })?;
    ensure(view["terminal"] == s.is_terminal() && view["to_act"]["seat"] == seat(cp), || "envelope to_act differs from the state".into())?;
    let kind = view["to_act"]["decision"]["kind"].as_str().unwrap_or("");
    ensure(s.is_terminal() || kind.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'), || {
        format!("decision kind {kind:?} is not snake_case")
    })?;
    if s.is_terminal() {
        ensure(view["returns"] == serde_json::json!(s.returns()), || "envelope returns differ from the state's".into())?;
    }
    ensure(view["last_action"].is_null() || !s.history().is_empty(), || "envelope has a last action before any".into())
}

/// Checks a determinization of `s` for `observer` (see [`crate::DynState::determinize`]):
/// - it is a real state of the game: its sampled history replays, and it round-trips through
///   `to_json`/`from_json`;
/// - it carries nothing of the hidden truth: another seed;
/// - `observer` cannot tell it apart: the same view, tensor and whole event history (perfect
///   recall: everything the observer has seen happened in the sampled world too), the same
///   player to act, the same information-state key and, where the observer acts, the same
///   legal actions;
/// - it depends only on what `observer` knows: determinizing it again gives the same result as
///   determinizing `s`, for the same seed.
///
/// Also the leak test: any view, tensor or event of `observer` that changed with information
/// hidden from it fails here. Returns whether the sampled history differs from the true one.
pub fn check_determinization(s: &StateHandle, observer: Player, seed: u64) -> Result<bool, String> {
    let d = s.determinize(observer, seed).map_err(|e| e.to_string())?;
    let p = observer;
    ensure(d.seed() != s.seed() || s.history().is_empty(), || format!("determinization for seat {p} kept the true seed"))?;
    ensure(d.current_player() == s.current_player(), || format!("determinization for seat {p} changed the player to act"))?;
    ensure(d.view(p).ok() == s.view(p).ok(), || format!("view of seat {p} changes with information hidden from it"))?;
    ensure(d.observation_tensor(p).ok() == s.observation_tensor(p).ok(), || {
        format!("tensor of seat {p} changes with information hidden from it")
    })?;
    let (mine, theirs) = (s.events(p).map_err(|e| e.to_string())?, d.events(p).map_err(|e| e.to_string())?);
    if let Some(i) = (0..mine.len().max(theirs.len())).find(|&i| mine.get(i) != theirs.get(i)) {
        return Err(format!(
            "seat {p} saw event {i} {} in the game, but the determinization for it gives {}",
            mine.get(i).map_or("(none)".into(), |e| serde_json::to_string(e).unwrap_or_default()),
            theirs.get(i).map_or("(none)".into(), |e| serde_json::to_string(e).unwrap_or_default()),
        ));
    }
    if p != SPECTATOR && s.current_player() == p {
        ensure(d.legal_actions() == s.legal_actions(), || format!("seat {p}'s own legal actions changed in its determinization"))?;
    }
    info_state::check_same_key(s, &d, p, "a determinization for it")?;
    let back = StateHandle::from_value(&d.to_json()).map_err(|e| format!("a determinization does not load from its save: {e}"))?;
    ensure(back == d, || "a determinization changed through to_json/from_json".into())?;
    let again = seed.rotate_left(17) ^ 0x00de_7e12;
    let (from_truth, from_world) =
        (s.determinize(p, again).map_err(|e| e.to_string())?, d.determinize(p, again).map_err(|e| e.to_string())?);
    ensure(from_truth == from_world, || format!("the determinization for seat {p} depends on information hidden from it"))?;
    Ok(d.history() != s.history())
}
