//! The shared conformance suite on every registered game, in every supported configuration.

use kassen_core::{games, load_game};
use serde_json::json;

fn configs(id: &str) -> Vec<serde_json::Value> {
    match id {
        "samurai" => {
            vec![json!({"players": 2}), json!({"players": 3}), json!({"players": 4}), json!({"players": 3, "explicit_chance": true})]
        }
        "sekigahara" => vec![json!({}), json!({"explicit_chance": true})],
        _ => vec![json!({})],
    }
}

#[test]
fn every_registered_game_conforms() {
    assert!(!games().is_empty());
    for (id, _) in games() {
        for cfg in configs(id) {
            let game = load_game(id, Some(&cfg)).unwrap();
            let report = game.conformance(&[1, 2, 3]).unwrap_or_else(|e| panic!("{id} {cfg}: {e}"));
            assert_eq!(report.games, 3);
            assert!(report.hidden_variants > 0, "{id} {cfg}: the leak test never varied hidden information");
            assert!(report.illegal_actions_rejected > 0 && report.legal_actions_applied > 0);
        }
    }
}
