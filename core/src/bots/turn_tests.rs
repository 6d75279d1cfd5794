//! Budgets per whole turn ([`super::ismcts::TurnClock`]) and the early end of a settled search.

use serde_json::json;

use super::ismcts::{TurnBudget, FIRST_GUESS, FLOOR_SHARE};
use super::*;
use crate::engine::load_game;
use crate::game::Player;

/// Plays a game of `id` with one per-turn bot per seat (`budget` per turn), calling
/// `each(bot's clock after the decision, seat, whether the seat acted last)` after every
/// searched decision; returns the actions.
fn play_per_turn(
    id: &str,
    seed: u64,
    budget: TurnBudget,
    max_actions: usize,
    mut each: impl FnMut(&IsmctsBot, Player, bool),
) -> Vec<ActionId> {
    let game = load_game(id, Some(&json!({}))).unwrap();
    let mut bots: Vec<IsmctsBot> =
        (0..game.num_players()).map(|p| IsmctsBot::per_turn("t".into(), Level::Normal.params(p as u64 + 1), budget)).collect();
    let mut s = game.new_initial_state(seed);
    let mut actions = Vec::new();
    let mut last_seat: Option<Player> = None;
    while !s.is_terminal() && actions.len() < max_actions {
        let p = s.current_player();
        if p < 0 {
            let first = s.legal_actions()[0];
            s.apply_in_place(first).unwrap();
            continue;
        }
        let searched = s.legal_actions().len() > 1;
        let a = bots[p as usize].choose(&s);
        if searched {
            each(&bots[p as usize], p, last_seat == Some(p));
        }
        last_seat = Some(p);
        s.apply_in_place(a).unwrap();
        actions.push(a);
    }
    actions
}

#[test]
fn a_turn_budget_gives_the_same_decisions_on_every_run() {
    let budget = TurnBudget::of_iterations(400);
    let a = play_per_turn("samurai", 3, budget, 60, |_, _, _| {});
    let b = play_per_turn("samurai", 3, budget, 60, |_, _, _| {});
    assert_eq!(a, b);
}

#[test]
fn a_turn_spends_its_budget_and_ends_when_another_seat_acts() {
    // Sekigahara: a turn is many decisions of one seat (chance inside it, e.g. battles).
    let budget = 2_000;
    let (mut longest, mut turns) = (0, 0);
    play_per_turn("sekigahara", 1, TurnBudget::of_iterations(budget), 300, |bot, _, continues| {
        let (searched, spent) = bot.turn_clock().unwrap().current();
        // The seat's first searched decision after another seat acted starts a turn; a later
        // one of the same run continues it (the clock counts only searched decisions).
        if !continues {
            assert_eq!(searched, 1, "a decision after another seat's starts a new turn");
            turns += 1;
        }
        longest = longest.max(searched);
        assert!(spent <= budget + searched * (budget / FLOOR_SHARE), "a turn of {searched} decisions spent {spent} of {budget}");
    });
    assert!(turns >= 2 && longest >= 3, "turns {turns}, longest {longest}");
}

#[test]
fn a_turn_of_many_decisions_gets_its_iterations_per_decision() {
    // Sekigahara's turns are many decisions: at 300 iterations per expected decision a turn
    // gets more than the turn's own 600, and no more than 300 times the longest the seat can
    // expect (its longest turn so far, or the first guess) plus each decision's floor.
    let budget = TurnBudget { iterations: 600, per_decision: 300, time: None };
    let (mut longest, mut most) = (0, 0);
    play_per_turn("sekigahara", 1, budget, 300, |bot, _, _| {
        let (searched, spent) = bot.turn_clock().unwrap().current();
        longest = longest.max(searched);
        most = most.max(spent);
        let turn = budget.iterations.max(budget.per_decision * longest.max(FIRST_GUESS));
        assert!(spent <= turn + searched * (turn / FLOOR_SHARE), "a turn of {searched} decisions spent {spent}");
    });
    // More than the turn's own iterations and floors could give.
    let without = budget.iterations + longest * (budget.iterations / FLOOR_SHARE);
    assert!(most > without, "no turn spent more than {without}: {most}");
}

#[test]
fn an_early_stop_keeps_the_decision_of_the_whole_budget() {
    let game = load_game("samurai", Some(&json!({"players": 2}))).unwrap();
    let mut s = game.new_initial_state(4);
    let mut stopped_early = 0;
    for step in 0..40 {
        if s.is_terminal() {
            break;
        }
        if s.current_player() >= 0 && s.legal_actions().len() > 1 {
            let full = SearchParams { iterations: Some(3_000), time: None, ..Level::Normal.params(step) };
            let early = SearchParams { early_stop: true, ..full.clone() };
            let (a, b) = (analyze(&s, &full).unwrap(), analyze(&s, &early).unwrap());
            assert_eq!(a.action, b.action, "step {step}");
            assert!(b.iterations <= a.iterations);
            stopped_early += usize::from(b.iterations < a.iterations);
        }
        let legal = s.legal_actions();
        s.apply_in_place(legal[step as usize % legal.len()]).unwrap();
    }
    assert!(stopped_early > 0, "no search ended early");
}

#[test]
fn a_search_run_by_the_caller_spends_the_bots_turn_budget() {
    // What the play page and the server do: the bot names the search (`next_search`), the
    // caller runs it in the background (`Search`) and hands the decision back
    // (`record_search`). The same decisions as the bot's own `choose`, and a whole turn's
    // iterations stay within the turn's budget (plus the floor share of each decision past
    // the expected ones), counted by iterations.
    let game = load_game("sekigahara", Some(&json!({}))).unwrap();
    let budget = TurnBudget::of_iterations(600);
    let make = || -> Box<dyn Bot + Send> { Box::new(IsmctsBot::per_turn("t".into(), Level::Normal.params(9), budget)) };
    let (mut own, mut run_by_caller) = (make(), make());
    let mut s = game.new_initial_state(4);
    let (mut turn_iterations, mut turn_decisions, mut turns, mut last_seat) = (0u64, 0u64, 0, None);
    let mut longest = 0;
    for _ in 0..150 {
        if s.is_terminal() {
            break;
        }
        let p = s.current_player();
        if p < 0 {
            let first = s.legal_actions()[0];
            s.apply_in_place(first).unwrap();
            continue;
        }
        let a = if p == 0 {
            let params = run_by_caller.next_search(&s).expect("a search bot names its search");
            let search = Search::start(&s, params).unwrap();
            let d = search.wait().unwrap();
            run_by_caller.record_search(&s, &d, std::time::Duration::ZERO);
            assert_eq!(own.choose(&s), d.action, "the same decision as the bot's own");
            if last_seat != Some(0) {
                turns += 1;
                (turn_iterations, turn_decisions) = (0, 0);
            }
            turn_iterations += d.iterations;
            turn_decisions += u64::from(d.iterations > 0);
            longest = longest.max(turn_decisions);
            let floor = (budget.iterations / FLOOR_SHARE).max(1);
            assert!(
                turn_iterations <= budget.iterations + turn_decisions * floor,
                "a turn of {turn_decisions} decisions spent {turn_iterations} iterations"
            );
            d.action
        } else {
            s.legal_actions()[0]
        };
        last_seat = Some(p);
        s.apply_in_place(a).unwrap();
    }
    assert!(turns >= 2 && longest >= 3, "{turns} turns, the longest of {longest} searched decisions");
    assert!(RandomBot::new(1).next_search(&s).is_none(), "a bot that does not search names no search");
}

#[test]
fn a_decision_searches_no_more_than_its_games_cap() {
    // A game whose search stops gaining strength past some iterations a decision caps them
    // (`Game::search_decision_cap`, Sekigahara's 2,000): a turn far larger than that still
    // searches each decision up to the cap only; an uncapped game, and a bot without the cap
    // (`-v3`), take the whole share. Every registered game, at least one of them capped.
    let mut capped = 0;
    for (id, _) in crate::engine::games() {
        let game = load_game(id, None).unwrap();
        let cap = game.search_decision_cap();
        capped += usize::from(cap.is_some());
        let budget = TurnBudget::of_iterations(40_000);
        let mut bot = IsmctsBot::per_turn("t".into(), Level::Normal.params(3), budget);
        let mut s = game.new_initial_state(2);
        while s.current_player() < 0 || s.legal_actions().len() < 2 {
            let first = s.legal_actions()[0];
            s.apply_in_place(first).unwrap();
        }
        let share = bot.next_params(&s).iterations.unwrap();
        // The first decision of a turn expected to be four gets 2 / 5 of the turn.
        let whole = 40_000 * 2 / (FIRST_GUESS + 1);
        assert_eq!(share, cap.map_or(whole, |cap| cap.min(whole)), "{id}: the first decision's iterations");
        let mut v3 = IsmctsBot::per_turn("t".into(), Level::Normal.params(3), budget).without_decision_cap();
        assert_eq!(v3.next_params(&s).iterations, Some(whole), "{id}: the level without the cap takes its whole share");
    }
    assert!(capped > 0, "no registered game caps a decision, so nothing above tested the cap");
}
