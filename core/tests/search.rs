//! The IS-MCTS bot on every registered game: it decides from what its seat knows only (the
//! real state and a determinization of it give the same decision), it is deterministic for a
//! seed, an iteration budget and a thread count, its statistics add up, and a background
//! search can be polled and stopped.

use kassen_core::bots::{analyze, from_spec, Bot, Decision, Level, Search, SearchParams};
use kassen_core::rng::Rng;
use kassen_core::{games, load_game};

#[path = "support/decisions.rs"]
mod support;
use support::decisions;

fn budget(iterations: u64, threads: u32, seed: u64) -> SearchParams {
    SearchParams { iterations: Some(iterations), time: None, threads, ..Level::Normal.params(seed) }
}

/// The decision without its wall time (the one thing that differs between runs).
fn timeless(mut d: Decision) -> Decision {
    d.elapsed_ms = 0.0;
    d
}

#[test]
fn a_decision_depends_only_on_what_the_seat_knows() {
    for (id, _) in games() {
        let mut compared = 0;
        for seed in [1, 2] {
            for s in decisions(id, seed, 9, 4) {
                let seat = s.current_player();
                let world = s.determinize(seat, seed * 77 + compared).unwrap();
                let params = budget(40, 1, 9 + seed);
                let (real, seen) = (analyze(&s, &params).unwrap(), analyze(&world, &params).unwrap());
                assert_eq!(timeless(real), timeless(seen), "{id} seed {seed}: the bot's decision depends on hidden information");
                compared += 1;
            }
        }
        assert!(compared >= 4, "{id}: only {compared} decisions compared");
    }
}

#[test]
fn a_decision_is_deterministic_for_a_seed_budget_and_thread_count() {
    for (id, _) in games() {
        let s = &decisions(id, 3, 7, 1)[0];
        for threads in [1, 2] {
            let params = budget(64, threads, 5);
            let (a, b) = (analyze(s, &params).unwrap(), analyze(s, &params).unwrap());
            assert_eq!(timeless(a.clone()), timeless(b), "{id}: {threads} threads");
            assert_eq!(a.iterations, 64);
            assert_eq!(a.candidates.iter().map(|c| c.visits as u64).sum::<u64>(), 64, "{id}: every iteration visits one root action");
            assert_eq!(a.candidates.iter().map(|c| c.action).collect::<Vec<_>>(), s.legal_actions());
            let best = a.candidates.iter().map(|c| c.visits).max().unwrap();
            assert_eq!(a.candidates.iter().find(|c| c.action == a.action).unwrap().visits, best, "{id}: the most visited action is chosen");
            let info = s.game().info().utility.clone();
            assert!(a.candidates.iter().filter_map(|c| c.value).all(|v| (info.min..=info.max).contains(&v)));
        }
    }
}

#[test]
fn forced_moves_and_finished_games_need_no_search() {
    let game = load_game("sekigahara", None).unwrap();
    let mut s = game.new_initial_state(1);
    let mut rng = Rng::from_seed(4);
    let mut forced = None;
    while !s.is_terminal() {
        let legal = s.legal_actions();
        if legal.len() == 1 && forced.is_none() {
            forced = Some(s.clone());
        }
        s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
    }
    let forced = forced.expect("a game with a forced move");
    let d = analyze(&forced, &Level::Hard.params(1)).unwrap();
    assert_eq!((d.iterations, d.action), (0, forced.legal_actions()[0]));
    assert!(analyze(&s, &Level::Easy.params(1)).is_err());
    let mut bot = from_spec("ismcts:easy", 1).unwrap();
    assert_eq!(bot.choose(&forced), forced.legal_actions()[0]);
    assert!(bot.last_decision().is_some());
}

#[test]
fn parameters_are_checked() {
    let ok = SearchParams::from_json(&serde_json::json!({"level": "easy", "threads": 2, "time_ms": null}), 1).unwrap();
    assert_eq!((ok.threads, ok.time, ok.iterations), (2, None, Level::Easy.params(1).iterations));
    for bad in [
        serde_json::json!({"iterations": null, "time_ms": null}),
        serde_json::json!({"iterations": 0}),
        serde_json::json!({"threads": 0}),
        serde_json::json!({"level": 3}),
        serde_json::json!({"exploration": -1.0}),
        serde_json::json!({"unknown": 1}),
        serde_json::json!([1]),
    ] {
        assert!(SearchParams::from_json(&bad, 1).is_err(), "{bad} accepted");
    }
}

#[test]
fn a_search_that_leaves_exploration_unset_uses_the_games_constant() {
    use kassen_core::bots::ismcts::DEFAULT_EXPLORATION;
    assert_eq!(Level::Normal.params(1).exploration, None, "the levels take the game's constant");
    assert_eq!(SearchParams::from_json(&serde_json::json!({"exploration": 0.5}), 1).unwrap().exploration, Some(0.5));
    let visits = |d: &Decision| d.candidates.iter().map(|c| c.visits).collect::<Vec<_>>();
    for (id, _) in games() {
        let s = &decisions(id, 3, 7, 1)[0];
        let with = |c: Option<f64>| timeless(analyze(s, &SearchParams { exploration: c, ..budget(400, 1, 5) }).unwrap());
        let unset = with(None);
        if id == "sekigahara_daisakusen" {
            // Its estimates differ by hundredths between moves: it asks for 0.25 (bot::EXPLORATION).
            assert_eq!(unset, with(Some(0.25)), "{id}");
            assert_ne!(visits(&unset), visits(&with(Some(DEFAULT_EXPLORATION))), "{id}: the game's constant changes the search");
        } else {
            assert_eq!(unset, with(Some(DEFAULT_EXPLORATION)), "{id}");
        }
    }
}

#[test]
fn a_background_search_is_polled_stopped_and_dropped() {
    let s = &decisions("samurai", 2, 5, 1)[0];
    let params = SearchParams { iterations: None, time: Some(std::time::Duration::from_secs(600)), threads: 2, ..Level::Hard.params(3) };
    let search = Search::start(s, params.clone()).unwrap();
    while search.progress().iterations < 300 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let p = search.progress();
    assert!(!p.done);
    let d = search.finish().unwrap();
    assert!(s.legal_actions().contains(&d.action) && d.iterations >= 300);
    assert!(search.progress().done && search.progress().best == Some(d.action));
    assert_eq!(search.wait().unwrap(), d, "the decision is kept");
    // Dropped while it runs: stops and joins.
    let running = Search::start(s, params).unwrap();
    drop(running);
    // Deterministic with an iteration budget, like the blocking search.
    let bounded = Search::start(s, budget(50, 1, 8)).unwrap();
    assert_eq!(timeless(bounded.wait().unwrap()), timeless(analyze(s, &budget(50, 1, 8)).unwrap()));
}

#[test]
fn the_search_beats_random_play() {
    // Not a benchmark: a sanity check that the search plays to win. Samurai, four games, seats
    // alternated, 200 iterations per decision against uniformly random moves.
    let game = load_game("samurai", None).unwrap();
    let mut wins = 0.0;
    for k in 0..4u64 {
        let mut bots: Vec<Box<dyn Bot + Send>> = vec![from_spec("ismcts:200", k).unwrap(), from_spec("random", k).unwrap()];
        if k % 2 == 1 {
            bots.swap(0, 1);
        }
        let mut s = game.new_initial_state(k);
        while !s.is_terminal() {
            let a = bots[s.current_player() as usize].choose(&s);
            s.apply_in_place(a).unwrap();
        }
        wins += s.returns()[(k % 2) as usize];
    }
    assert!(wins >= 3.0, "the search won {wins} of 4 games against random moves");
}
