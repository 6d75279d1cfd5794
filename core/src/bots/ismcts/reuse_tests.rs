//! Going on from the last search's tree within a turn ([`super::Kept`]).

use serde_json::json;

use super::{IsmctsBot, Level, SearchParams, TurnBudget};
use crate::bots::Bot;
use crate::engine::{games, load_game};
use crate::game::{ActionId, Player};

/// One searched decision of a game played by one bot for every seat: its seat, the visits it
/// started with, its nodes, and whether the seat itself made every move since its last
/// searched decision (no other seat, no chance).
#[derive(Debug, PartialEq)]
struct Step {
    seat: Player,
    reused: u64,
    nodes: u64,
    own_moves_since: bool,
}

/// Plays `id` from `seed` with one bot `bot` for every seat (chance: its first outcome).
fn play(id: &str, seed: u64, bot: IsmctsBot, max_actions: usize) -> (Vec<ActionId>, Vec<Step>) {
    play_with(id, seed, bot, max_actions, false)
}

/// [`play`], the bot deciding by its blocking search or, `background`, by a background
/// [`super::Search`] that it starts ([`Bot::start_search`]) and is handed back
/// ([`Bot::record_search`]), as the play server and the Python `Bot.start_search` do.
fn play_with(id: &str, seed: u64, mut bot: IsmctsBot, max_actions: usize, background: bool) -> (Vec<ActionId>, Vec<Step>) {
    let game = load_game(id, Some(&json!({}))).unwrap();
    let mut s = game.new_initial_state(seed);
    let (mut actions, mut steps) = (Vec::new(), Vec::new());
    // The seat of the last searched decision, while only that seat has moved since.
    let mut run: Option<Player> = None;
    while !s.is_terminal() && actions.len() < max_actions {
        let p = s.current_player();
        let a = if p < 0 {
            run = None;
            s.legal_actions()[0]
        } else {
            if run.is_some_and(|q| q != p) {
                run = None;
            }
            let searched = s.legal_actions().len() > 1;
            let a = if background {
                let params = bot.next_search(&s).expect("a search bot");
                let d = bot.start_search(&s, params).unwrap().wait().unwrap();
                bot.record_search(&s, &d, std::time::Duration::ZERO);
                d.action
            } else {
                bot.choose(&s)
            };
            if searched {
                let d = bot.last_decision().unwrap();
                steps.push(Step { seat: p, reused: d.reused, nodes: d.nodes, own_moves_since: run == Some(p) });
                run = Some(p);
            }
            a
        };
        s.apply_in_place(a).unwrap();
        actions.push(a);
    }
    (actions, steps)
}

fn reusing(iterations: u64, max_nodes: u64) -> IsmctsBot {
    reusing_on(iterations, max_nodes, 1)
}

fn reusing_on(iterations: u64, max_nodes: u64, threads: u32) -> IsmctsBot {
    let params = SearchParams { max_nodes, threads, ..Level::Normal.params(5) };
    IsmctsBot::per_turn("t".into(), params, TurnBudget::of_iterations(iterations)).reusing_tree(true)
}

#[test]
fn a_turns_later_decisions_go_on_from_the_last_tree_of_the_same_seat_only() {
    // Sekigahara: a turn is many decisions of one seat, with battles (chance) inside.
    let (_, steps) = play("sekigahara", 2, reusing(3_000, 1_000_000), 250);
    let reused = steps.iter().filter(|s| s.reused > 0).count();
    assert!(reused >= 5, "{reused} of {} decisions went on from a kept tree", steps.len());
    for s in &steps {
        assert!(s.reused == 0 || s.own_moves_since, "a kept tree served a search after another seat or chance: {s:?}");
    }
    // Without the switch every search starts from scratch.
    let plain = IsmctsBot::per_turn("t".into(), Level::Normal.params(5), TurnBudget::of_iterations(3_000));
    let (_, steps) = play("sekigahara", 2, plain, 250);
    assert!(steps.iter().all(|s| s.reused == 0));
}

#[test]
fn a_background_search_goes_on_from_the_kept_tree_as_the_blocking_one_does() {
    for (id, _) in games() {
        let blocking = play_with(id, 4, reusing(1_500, 1_000_000), 150, false);
        let background = play_with(id, 4, reusing(1_500, 1_000_000), 150, true);
        assert_eq!(blocking, background, "{id}");
        assert!(background.1.iter().any(|s| s.reused > 0), "{id}: no background search went on from a kept tree");
    }
}

#[test]
fn reuse_gives_the_same_decisions_on_every_run() {
    for (id, _) in games() {
        let a = play(id, 3, reusing(1_500, 1_000_000), 120);
        let b = play(id, 3, reusing(1_500, 1_000_000), 120);
        assert_eq!(a, b, "{id}");
        assert!(a.1.iter().any(|s| s.reused > 0), "{id}: no decision went on from a kept tree");
    }
    // Two threads: each goes on from its own tree.
    let a = play("sekigahara", 3, reusing_on(1_500, 1_000_000, 2), 120);
    assert_eq!(a, play("sekigahara", 3, reusing_on(1_500, 1_000_000, 2), 120));
    assert!(a.1.iter().any(|s| s.reused > 0), "two threads: no decision went on from a kept tree");
}

#[test]
fn a_kept_tree_stays_within_the_node_budget() {
    for threads in [1, 2] {
        let max_nodes = 400;
        let (_, steps) = play("sekigahara", 2, reusing_on(3_000, max_nodes, threads), 200);
        assert!(steps.iter().any(|s| s.reused > 0));
        for s in &steps {
            assert!(s.nodes <= max_nodes, "a tree of {} nodes, budget {max_nodes}", s.nodes);
        }
    }
}

#[test]
fn a_subtree_keeps_the_statistics_under_its_top_and_its_bound() {
    let tree = super::search::samurai_tree(2_000, 100_000);
    let (a, visits, _) = tree.root_stats().max_by_key(|x| x.1).unwrap();
    let top = tree.child(0, a).unwrap();
    let sub = tree.subtree(top, 100_000).unwrap().unwrap();
    let below = sub.root_stats().map(|x| x.1).sum::<u32>();
    assert!(below > 0 && below <= visits, "{below} visits below a top of {visits}");
    let grand: Vec<_> = sub.root_stats().collect();
    for (b, n, mean) in grand {
        let c = tree.child(top, b).unwrap();
        assert_eq!(n, tree.nodes[c as usize].visits);
        assert!((mean * n as f64 - tree.nodes[c as usize].value).abs() < 1e-9);
    }
    let size = sub.nodes.len();
    assert!(size > 1 && size < tree.nodes.len());
    assert!(tree.subtree(top, size).unwrap().is_some());
    assert!(tree.subtree(top, size - 1).unwrap().is_none(), "a subtree over the bound is refused");
}
