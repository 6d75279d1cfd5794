//! Reasons for a decision's candidates (issue 34 item 4): every candidate of an explained
//! search has a reason in words built from what its seat may know; the real state and a
//! determinized twin of it give the same lines and reasons; a bot's own decisions are not
//! explained.

use kassen_core::bots::{analyze, Decision, Level, SearchParams};
use kassen_core::games;

#[path = "support/decisions.rs"]
mod support;
use support::decisions;

fn budget(iterations: u64, seed: u64) -> SearchParams {
    SearchParams { iterations: Some(iterations), time: None, threads: 1, ..Level::Normal.params(seed) }
}

/// The candidates' actions, lines and reasons.
fn told(d: &Decision) -> Vec<(u32, Vec<u32>, Option<String>)> {
    d.candidates.iter().map(|c| (c.action, c.line.clone(), c.reason.clone())).collect()
}

#[test]
fn every_candidate_has_a_reason_and_a_line_of_the_seats_own_moves() {
    for (id, _) in games() {
        let mut lines = 0;
        for s in decisions(id, 4, 11, 3) {
            let d = analyze(&s, &budget(300, 7)).unwrap();
            for c in &d.candidates {
                let reason = c.reason.as_deref().unwrap_or_else(|| panic!("{id}: candidate {} has no reason", c.action));
                assert!(!reason.is_empty() && reason.chars().count() <= 160, "{id}: reason {reason:?}");
                assert!(c.line.len() < kassen_core::bots::ismcts::explain::LINE_MOVES, "{id}: line {:?}", c.line);
                // A line is the seat's own moves, legal one after another from the candidate
                // (on the real state too, as the seat's own moves are all it holds).
                let mut t = s.child(c.action).unwrap();
                for &a in &c.line {
                    assert_eq!(t.current_player(), d.seat, "{id}: a line holds only the seat's own moves");
                    t.apply_in_place(a).unwrap();
                }
                lines += c.line.len();
            }
        }
        assert!(lines > 0, "{id}: no candidate has a line past its own move");
    }
}

#[test]
fn reasons_depend_only_on_what_the_seat_knows() {
    for (id, _) in games() {
        let mut compared = 0;
        for seed in [1, 2] {
            for s in decisions(id, seed, 9, 3) {
                let seat = s.current_player();
                let twin = s.determinize(seat, seed * 31 + compared).unwrap();
                let params = budget(200, 9 + seed);
                let (real, seen) = (analyze(&s, &params).unwrap(), analyze(&twin, &params).unwrap());
                assert!(real.candidates.iter().all(|c| c.reason.is_some()));
                assert_eq!(told(&real), told(&seen), "{id} seed {seed}: a reason depends on hidden information");
                compared += 1;
            }
        }
        assert!(compared >= 4, "{id}: only {compared} decisions compared");
    }
}

#[test]
fn a_search_without_explain_and_a_bot_give_no_reasons() {
    let s = &decisions("sekigahara", 3, 7, 1)[0];
    let quiet = SearchParams { explain: false, ..budget(100, 3) };
    let d = analyze(s, &quiet).unwrap();
    assert!(d.candidates.iter().all(|c| c.reason.is_none() && c.line.is_empty()));
    // The same search explained: the same statistics.
    let loud = analyze(s, &budget(100, 3)).unwrap();
    let stats = |d: &Decision| d.candidates.iter().map(|c| (c.action, c.visits)).collect::<Vec<_>>();
    assert_eq!(stats(&d), stats(&loud));
    assert!(loud.candidates.iter().all(|c| c.reason.is_some()));
    let from_json = SearchParams::from_json_text(r#"{"iterations": 100, "explain": false}"#, 3).unwrap();
    assert!(!from_json.explain);
    assert!(SearchParams::from_json_text(r#"{"explain": 1}"#, 3).is_err());
    let mut bot = kassen_core::bots::IsmctsBot::new(Level::Instant, 5);
    let d = bot.decide(s).unwrap();
    assert!(d.candidates.iter().all(|c| c.reason.is_none()), "a bot's decision is not explained");
}
