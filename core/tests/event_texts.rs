//! Events as sentences (`Game::event_text`): along random games of every registered game (each
//! covered configuration), every event every observer is shown has a sentence, and a seat's
//! sentences never depend on what it may not know (its determinized twin, which shares only
//! what the seat has seen, gives the very same sentences).

use std::collections::BTreeSet;

use kassen_core::rng::Rng;
use kassen_core::{covered_configs, games, load_game, DynState, Player, SPECTATOR};

fn texts(state: &dyn DynState, observer: Player, id: &str, kinds: &mut BTreeSet<String>, bad: &mut BTreeSet<String>) -> Vec<String> {
    let events = state.events(observer).unwrap();
    let texts = state.event_texts_since(observer, 0).unwrap();
    assert_eq!(events.len(), texts.len(), "{id}: one text per event");
    events
        .iter()
        .zip(texts)
        .map(|(e, t)| {
            let kind = e.body["kind"].as_str().unwrap_or("?").to_string();
            let t = t.unwrap_or_default();
            if t.trim().is_empty() || t.contains('?') || t.contains('{') || t.contains('_') {
                bad.insert(format!("{id} {kind}: text {t:?} for {}", e.body.to_value()));
            }
            kinds.insert(kind);
            t
        })
        .collect()
}

#[test]
fn every_event_has_a_sentence_that_tells_no_secret() {
    for (id, _) in games() {
        let mut kinds = BTreeSet::new();
        let mut bad = BTreeSet::new();
        for config in covered_configs(id) {
            let game = load_game(id, Some(&config)).unwrap();
            let n = game.num_players() as Player;
            for seed in 1..=3u64 {
                let mut state = game.new_initial_state(seed);
                let mut rng = Rng::from_seed(seed + 500);
                let mut step = 0u64;
                loop {
                    if step % 61 == 7 || state.is_terminal() {
                        for observer in std::iter::once(SPECTATOR).chain(0..n) {
                            let mine = texts(&*state, observer, id, &mut kinds, &mut bad);
                            let twin = state.determinize(observer, seed * 7919 + step).unwrap();
                            let theirs = texts(&*twin, observer, id, &mut kinds, &mut bad);
                            assert_eq!(mine, theirs, "{id} seed {seed} step {step}: observer {observer}'s sentences tell a secret");
                        }
                    }
                    if state.is_terminal() || step > 4000 {
                        break;
                    }
                    let legal = state.legal_actions();
                    state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
                    step += 1;
                }
            }
        }
        let firsts: BTreeSet<&str> = bad.iter().map(|b| b.split(':').next().unwrap_or("")).collect();
        let examples: Vec<&String> = firsts.iter().filter_map(|k| bad.iter().find(|b| b.starts_with(k))).collect();
        assert!(bad.is_empty(), "events without a finished sentence (one per kind):\n{examples:#?}");
        assert!(kinds.len() >= 10, "{id}: only {} event kinds seen: {kinds:?}", kinds.len());
        assert!(kinds.contains("game_over"), "{id}: no game reached its end");
    }
}

/// Samurai's last sentence says why the game ended and gives the score, each seat's captured
/// figures, beside the winner (the play page's end screen shows it; issue 33 item 2).
#[test]
fn samurai_game_over_gives_the_score() {
    let game = load_game("samurai", None).unwrap();
    for seed in 1..=3u64 {
        let mut state = game.new_initial_state(seed);
        let mut rng = Rng::from_seed(seed + 40);
        while !state.is_terminal() {
            let legal = state.legal_actions();
            state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
        let last = state.event_texts_since(SPECTATOR, 0).unwrap().pop().flatten().unwrap_or_default();
        assert!(last.starts_with("Game over: ") && last.contains(" wins"), "seed {seed}: {last}");
        for p in 1..=game.num_players() {
            assert!(
                last.contains(&format!("Player {p}: ")) && last.contains(" helmet, "),
                "seed {seed}: no score for player {p} in {last}"
            );
        }
    }
}
