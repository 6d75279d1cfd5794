//! Random Samurai data files: whatever the validator accepts must give games that end
//! (tracker 7, item 5). See support/data_fuzz.rs.

#[path = "support/data_fuzz.rs"]
mod data_fuzz;

use kassen_core::games::samurai::data::EMBEDDED;
use serde_json::{json, Value};

/// Half the files get figure counts that fill their (mutated) board again, so that board
/// mutations reach the games instead of stopping at the slot count.
fn refill_figure_counts(v: &mut Value, rng: &mut kassen_core::rng::Rng) {
    if rng.below(2) == 0 {
        return;
    }
    let Some(hexes) = v.pointer("/board/hexes").and_then(Value::as_array).cloned() else { return };
    for p in 2..=4u64 {
        let slots: u64 = hexes
            .iter()
            .filter(|h| h["players"].as_array().is_some_and(|ps| ps.contains(&json!(p))))
            .map(|h| match h["kind"].as_str() {
                Some("village") => 1,
                Some("city") => 2,
                Some("edo") => 3,
                _ => 0,
            })
            .sum();
        if slots % 3 == 0 {
            if let Some(per) = v.pointer_mut("/figures/per_type") {
                per[p.to_string()] = json!(slots / 3);
            }
        }
    }
}

#[test]
fn data_fuzz_every_accepted_file_gives_games_that_end() {
    let configs = [json!({"players": 2}), json!({"players": 3}), json!({"players": 4})];
    let tally = data_fuzz::run("samurai", EMBEDDED, 300, &configs, refill_figure_counts);
    eprintln!("{tally:?}");
    assert!(tally.accepted > 20 && tally.rejected > 20, "{tally:?}");
}
