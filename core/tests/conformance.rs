//! The shared conformance suite on every registered game, in every covered configuration.

use kassen_core::testing::on_every_core;
use kassen_core::{covered_configs, games, load_game};
use serde_json::Value;

/// The suite on one game in one configuration.
fn conforms(id: &str, cfg: &Value) {
    let game = load_game(id, Some(cfg)).unwrap();
    let report = game.conformance(&[1, 2, 3]).unwrap_or_else(|e| panic!("{id} {cfg}: {e}"));
    assert_eq!(report.games, 3);
    // A game whose past hides nothing (every draw and die public) keeps its history.
    let hidden = game.info().hidden_information;
    assert_eq!(report.hidden_variants > 0, hidden, "{id} {cfg}: determinizations varied hidden information: {}", !hidden);
    assert!(report.illegal_actions_rejected > 0 && report.legal_actions_applied > 0);
    assert!(report.variant_states > 0, "{id} {cfg}: no one-action variant was compared");
}

#[test]
fn every_registered_game_conforms() {
    assert!(!games().is_empty());
    let mut cases = Vec::new();
    for (id, _) in games() {
        let configs = covered_configs(id);
        assert!(configs.len() >= 2, "{id}: covers no configuration");
        cases.extend(configs.into_iter().map(|cfg| (id, cfg)));
    }
    on_every_core(&cases, |(id, cfg)| conforms(id, cfg));
}
