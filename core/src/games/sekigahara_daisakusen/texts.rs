//! Events as sentences ("E13 福島正則 moves from 1916 to 1917"): read from the event body and
//! the public map data only, so a sentence tells a seat no more than its event does.

use super::Daisakusen;
use crate::events::sentence::{count, title, words, Read};
use crate::events::Body;
use crate::game::Player;

impl Daisakusen {
    /// A hex by its printed number, with the castle or city printed there.
    fn hex_text(&self, id: &str) -> String {
        match self.data.hexes.iter().position(|h| h.id == id) {
            Some(h) => format!("hex {}", self.hex_name(h as u16)),
            None => format!("hex {id}"),
        }
    }

    /// The sentence for one event (see [`crate::Game::event_text`]).
    pub(super) fn text(&self, e: &Body, _observer: Player) -> Option<String> {
        let side = |k: &str| title(e.s(k));
        let hex = |k: &str| self.hex_text(e.s(k));
        let unit = |k: &str| self.unit_label(e.s(k));
        Some(match e.s("kind") {
            "setup_place" => format!("{} is placed on {}", unit("unit"), hex("hex")),
            "card_drawn" => format!("Turn {}: card {} {} is drawn", e.n("turn"), e.s("id"), e.s("card")),
            "card_enters_deck" => format!("Card {} enters the deck", e.s("card")),
            "reshuffle" => format!("Turn {} ends; the cards are reshuffled", e.n("turn_ended")),
            "commander" => format!("{} is activated", unit("unit")),
            "action" => format!("{} chooses to {}", unit("unit"), words(e.s("action"))),
            "select" => format!("{} joins the group", unit("unit")),
            "move_start" if e.has("roll") => {
                format!("Strategic move: rolled {}, {}", e.n("roll"), count(e.n("points"), "movement point", "movement points"))
            }
            "move_start" => format!("{} move: {}", title(e.s("mode")), count(e.n("points"), "movement point", "movement points")),
            "step" => format!("{} moves from {} to {} ({} left)", unit("commander"), hex("from"), hex("to"), e.n("points_left")),
            "move_end" => format!("The group stops on {}", hex("hex")),
            "advance" => format!("The attackers advance into {}", hex("to")),
            "march" => format!("The {} column marches to {}", e.s("track"), e.s("box")),
            "arrival" => format!("The {} column arrives on {} with {}", e.s("track"), hex("hex"), count(e.n("units"), "unit", "units")),
            "attack" => format!(
                "{} ({}) attacks {} from {} with {} against {}{} (modifier {:+})",
                unit("commander"),
                side("by"),
                hex("target"),
                hex("from"),
                count(e.n("attackers"), "unit", "units"),
                count(e.n("defenders"), "unit", "units"),
                if e.flag("siege") { ", a siege" } else { "" },
                e.i("modifier")
            ),
            "combat_die" => format!(
                "{} rolls {} (needs {} or less): {}",
                unit("unit"),
                e.n("roll"),
                e.i("need"),
                if e.flag("hit") { "a hit" } else { "no hit" }
            ),
            "hit" => format!("{} takes a hit and is flipped", unit("unit")),
            "eliminated" if e.has("hex") => format!("{} is eliminated on {} ({})", unit("unit"), hex("hex"), words(e.s("why"))),
            "eliminated" => format!("{} is eliminated ({})", unit("unit"), words(e.s("why"))),
            "recovered" => format!("{} recovers", unit("unit")),
            "castle_taken" => format!(
                "{} takes the castle {} on {}{}",
                side("by"),
                e.s("castle"),
                hex("hex"),
                if e.flag("by_defection") { " by defection" } else { "" }
            ),
            "kyoto_taken" => format!("{} takes 京 (Kyoto)", side("by")),
            "morale" => format!(
                "Morale track {} moves toward {}: {} → {} ({})",
                e.s("track"),
                side("toward"),
                e["from"],
                e["to"],
                words(e.s("why"))
            ),
            "chouryaku" => format!(
                "The 調略 (chouryaku) marker moves toward {}: {} → {} ({})",
                side("toward"),
                e.s("from"),
                e.s("to"),
                words(e.s("why"))
            ),
            "chouryaku_roll" | "intimidation" => format!(
                "{} tries {} on {}: rolled {}, needs {}: {}",
                side("by"),
                if e.s("kind") == "intimidation" { "intimidation" } else { "調略 (chouryaku)" },
                hex("hex"),
                e.n("roll"),
                e.i("need"),
                if e.flag("success") { "success" } else { "failure" }
            ),
            "defection" => format!("{} defects to {}", unit("unit"), side("to")),
            "defection_void" => format!("The defection on {} comes to nothing", hex("hex")),
            "hideyori_released" => format!("豊臣秀頼 is released for the rest of the game: {}", e.s("why")),
            "game_over" if e.has("winner") => format!("{} wins: {}", side("winner"), words(e.s("why"))),
            "game_over" => format!("Game over, a draw: {}", words(e.s("why"))),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::SPECTATOR;

    /// A commander is named with its romanized name beside the Japanese, in the log and in the
    /// moves (issue 33 item 2): "E1 徳川家康 (Tokugawa Ieyasu)".
    #[test]
    fn commanders_are_named_in_latin_letters_too() {
        let mut state = crate::load_game("sekigahara_daisakusen", None).expect("loads").new_initial_state(1);
        let (mut logged, mut offered) = (false, false);
        for i in 0..3000u64 {
            if state.is_terminal() || (logged && offered) {
                break;
            }
            let legal = state.legal_actions();
            for &a in &legal {
                let j = state.action_to_json(a).expect("a legal action");
                if j["verb"] == "commander" {
                    let text = j["text"].as_str().unwrap_or("");
                    assert!(text.ends_with(')') && text.contains(" ("), "a commander move without its romaji: {text}");
                    offered = true;
                }
            }
            state.apply_in_place(legal[(i as usize * 7919) % legal.len()]).expect("a legal action");
        }
        for t in state.event_texts_since(SPECTATOR, 0).expect("the spectator's events").into_iter().flatten() {
            if t.ends_with(" is activated") {
                assert!(t.contains(" (") && t.contains(") is activated"), "a commander without its romaji: {t}");
                logged = true;
            }
        }
        assert!(logged && offered, "no commander was activated");
    }
}
