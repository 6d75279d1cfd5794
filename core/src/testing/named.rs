//! Positions written by name (docs/positions.md): the round trip every game with named
//! positions keeps, checked on every state of the conformance games.

use crate::game::Game;

/// A position written by name (docs/positions.md) reads back as the very same state: the
/// typed form, written by name ([`crate::named::to_named`]) and read back
/// ([`crate::named::from_named`]), deserializes to `s`. Games without named positions pass.
pub fn named_round_trip<G: Game>(g: &G, s: &G::State) -> Result<(), String> {
    let Some(conv) = g.position_names() else { return Ok(()) };
    let typed = serde_json::to_value(s).map_err(|e| e.to_string())?;
    let named = crate::named::to_named(&conv, &typed);
    let back = crate::named::from_named(&conv, &named, "position")
        .map_err(|e| format!("a position written by name does not read back: {e}\n{named}"))?;
    if back != typed {
        return Err(format!("a position written by name reads back as another typed form:\n{named}\n{back}\n{typed}"));
    }
    let state: G::State = serde_json::from_value(back).map_err(|e| format!("a position written by name reads back off the schema: {e}"))?;
    if state != *s {
        return Err("a position written by name reads back as another state".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::engine::{covered_configs, games, load_game, StateHandle};
    use crate::rng::Rng;

    /// Every state of random games of every game and covered config, written by name
    /// (`to_named_position`), loads back through the position loader as the same state.
    #[test]
    fn named_positions_of_every_state_load_back() {
        for (id, _) in games() {
            for cfg in covered_configs(id) {
                let game = load_game(id, Some(&cfg)).unwrap();
                for seed in 0..2u64 {
                    let mut rng = Rng::from_seed(seed);
                    let mut s = game.new_initial_state(seed);
                    let mut step = 0;
                    while !s.is_terminal() {
                        if step % 7 == 0 {
                            let Some(doc) = s.to_named_position() else { break };
                            let back = StateHandle::from_position_value(&doc)
                                .unwrap_or_else(|e| panic!("{id} {cfg} seed {seed} step {step}: {e}\n{doc}"));
                            assert_eq!(back.to_position()["position"], s.to_position()["position"], "{id} {cfg} seed {seed} step {step}");
                        }
                        let legal = s.legal_actions();
                        s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
                        step += 1;
                    }
                }
            }
        }
    }

    /// The worked example of each game's rules document (`docs/rules/<id>.md`, the first json
    /// block under "Positions written by name") loads, and reads back as written.
    #[test]
    fn every_rules_document_has_a_named_position_that_loads() {
        for (id, _) in games() {
            let path = format!("{}/../docs/rules/{id}.md", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let section =
                text.split("## Positions written by name").nth(1).unwrap_or_else(|| panic!("{path}: no section on named positions"));
            let block =
                section.split("```json\n").nth(1).and_then(|b| b.split("\n```").next()).unwrap_or_else(|| panic!("{path}: no example"));
            let s = StateHandle::from_position_json(block).unwrap_or_else(|e| panic!("{path}: {e}"));
            let written: serde_json::Value = serde_json::from_str(block).unwrap();
            let mut again = s.to_named_position().unwrap()["position"].clone();
            again.as_object_mut().unwrap().remove("rng");
            assert_eq!(again, written["position"], "{path}: the example does not read back as written");
        }
    }
}
