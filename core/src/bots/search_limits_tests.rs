//! The bounds of a search: its node budget, the caps of its budgets, the threads it may not
//! have, and a background search watched and waited for from several threads at once.

use std::time::Duration;

use serde_json::json;

use super::ismcts::search::hooks::REFUSE_AFTER;
use super::*;
use crate::engine::{load_game, StateHandle};
use crate::error::ErrorCode;

/// A Samurai position with a real choice for seat 0.
fn position() -> StateHandle {
    let game = load_game("samurai", Some(&json!({"players": 2}))).unwrap();
    let mut s = game.new_initial_state(7);
    while s.current_player() < 0 || s.legal_actions().len() < 2 {
        let a = s.legal_actions()[0];
        s.apply_in_place(a).unwrap();
    }
    s
}

fn params(iterations: Option<u64>, threads: u32, max_nodes: u64) -> SearchParams {
    SearchParams { iterations, time: None, threads, max_nodes, ..Level::Normal.params(3) }
}

#[test]
fn a_tiny_node_budget_stops_the_tree_and_says_so() {
    let s = position();
    for threads in [1, 2] {
        let d = analyze(&s, &params(Some(3_000), threads, 40)).unwrap();
        assert_eq!(d.iterations, 3_000, "the search goes on at the bound");
        assert!(d.tree_full, "{threads} threads: the decision says the tree is full");
        assert!(d.nodes <= 40, "{threads} threads: {} nodes for a budget of 40", d.nodes);
        assert!(s.legal_actions().contains(&d.action));
        let visits: u64 = d.candidates.iter().map(|c| c.visits as u64).sum();
        assert_eq!(visits, 3_000, "every iteration is counted at the root");
    }
    // A budget the search does not reach: the tree is not full, and the decision is the
    // unbounded search's.
    let roomy = analyze(&s, &params(Some(300), 1, DEFAULT_MAX_NODES)).unwrap();
    assert!(!roomy.tree_full && roomy.nodes > 40 && roomy.nodes <= 301 * 64);
}

#[test]
fn the_largest_iteration_budget_with_a_small_node_budget_stays_bounded() {
    // The search could run for days; it is stopped after many times more iterations than its
    // node budget, and its tree never grew past the budget.
    let s = position();
    let search = Search::start(&s, params(Some(MAX_ITERATIONS), 2, 200)).unwrap();
    while search.progress().iterations < 5_000 {
        std::thread::sleep(Duration::from_millis(2));
    }
    let d = search.finish().unwrap();
    assert!(d.iterations >= 5_000 && d.tree_full && d.nodes <= 200, "{} iterations, {} nodes", d.iterations, d.nodes);
}

#[test]
fn a_tree_costs_few_bytes_per_node() {
    let bytes = super::ismcts::search::tree_bytes_per_node(50_000);
    // The figure behind DEFAULT_MAX_NODES (about 80 MB for 1,000,000 nodes).
    assert!(bytes <= 80.0, "{bytes:.1} bytes per node");
}

#[test]
fn duplicate_search_parameters_are_refused() {
    let e = SearchParams::from_json_text(r#"{"iterations": 5, "threads": 1, "iterations": 100000000}"#, 1).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidConfig);
    assert!(e.to_string().contains("\"iterations\" is given twice"), "{e}");
    let p = SearchParams::from_json_text(r#"{"iterations": 5, "max_nodes": 64}"#, 1).unwrap();
    assert_eq!((p.iterations, p.max_nodes), (Some(5), 64));
    assert_eq!(SearchParams::from_json_text(" ", 1).unwrap(), Level::Normal.params(1));
    for bad in ["[1]", "3", "\"x\"", "{", "{\"max_nodes\": 0}", "{\"max_nodes\": null}", "{\"max_nodes\": -1}"] {
        assert!(SearchParams::from_json_text(bad, 1).is_err(), "{bad} accepted");
    }
}

#[test]
fn a_refused_thread_is_a_resource_error() {
    let s = position();
    // The third of four search threads is refused: the two started are stopped and joined.
    REFUSE_AFTER.with(|r| r.set(Some(2)));
    let e = analyze(&s, &params(Some(1_000_000), 4, 1_000)).unwrap_err();
    REFUSE_AFTER.with(|r| r.set(None));
    assert_eq!(e.code(), ErrorCode::ThreadsUnavailable, "{e}");
    // The background search's own thread.
    REFUSE_AFTER.with(|r| r.set(Some(0)));
    let e = Search::start(&s, params(Some(100), 1, 1_000)).err().expect("refused");
    assert_eq!(e.code(), ErrorCode::ThreadsUnavailable, "{e}");
    // One of its workers: the outcome of wait, for every waiter.
    REFUSE_AFTER.with(|r| r.set(Some(2)));
    let search = Search::start(&s, params(Some(1_000_000), 3, 1_000)).unwrap();
    REFUSE_AFTER.with(|r| r.set(None));
    assert_eq!(search.wait().unwrap_err().code(), ErrorCode::ThreadsUnavailable);
    assert_eq!(search.wait().unwrap_err().code(), ErrorCode::ThreadsUnavailable);
    assert!(search.progress().done);
    // A bot reports it too.
    REFUSE_AFTER.with(|r| r.set(Some(0)));
    let mut bot = IsmctsBot::with_params("t".into(), params(Some(100), 2, 1_000));
    let e = bot.try_choose(&s).unwrap_err();
    REFUSE_AFTER.with(|r| r.set(None));
    assert_eq!(e.code(), ErrorCode::ThreadsUnavailable);
}

#[test]
fn progress_and_wait_run_together_from_several_threads() {
    let s = position();
    let search =
        Search::start(&s, SearchParams { iterations: None, time: Some(Duration::from_secs(600)), ..params(None, 2, 10_000) }).unwrap();
    let search = &search;
    let (seen, waited, again) = std::thread::scope(|scope| {
        let poller = scope.spawn(move || {
            let mut seen = Vec::new();
            loop {
                let p = search.progress();
                seen.push(p.clone());
                if p.done {
                    return seen;
                }
                std::thread::yield_now();
            }
        });
        let waiter = scope.spawn(move || search.wait());
        let other = scope.spawn(move || search.wait());
        while search.progress().iterations < 500 {
            std::thread::sleep(Duration::from_millis(1));
        }
        search.stop();
        (poller.join().unwrap(), waiter.join().unwrap().unwrap(), other.join().unwrap().unwrap())
    });
    assert_eq!(waited, again, "every waiter gets the same decision");
    let last = seen.last().unwrap();
    assert!(last.done && last.best == Some(waited.action));
    assert!(seen.windows(2).all(|w| w[0].iterations <= w[1].iterations && (!w[0].done || w[1].done)));
}
