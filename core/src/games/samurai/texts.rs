//! Events as sentences ("Player 2 places samurai-2 on the village at hex 86"): read
//! from the event body and the public board data only, so a sentence tells a seat no more than
//! its event does.

use serde_json::Value;

use super::Samurai;
use crate::events::sentence::{count, list, Read};
use crate::events::Body;
use crate::game::Player;

impl Samurai {
    /// A hex as a player finds it on the board, which prints every hex's number: its kind and
    /// number ("the village at hex 86", "land at hex 40"). Moves and events name hexes so.
    pub(super) fn hex_name(&self, id: u64) -> String {
        let Some(h) = self.data().hexes.iter().find(|h| h.id as u64 == id) else { return format!("hex {id}") };
        match h.kind.name() {
            "edo" => format!("Edo at hex {id}"),
            "land" => format!("land at hex {id}"),
            k => format!("the {k} at hex {id}"),
        }
    }

    fn seat(n: &Value) -> String {
        n.as_u64().map_or_else(|| "?".to_string(), |n| format!("Player {}", n + 1))
    }

    /// The sentence for one event (see [`crate::Game::event_text`]).
    pub(super) fn text(&self, e: &Body, observer: Player) -> Option<String> {
        let seat = || Self::seat(&e["seat"].to_value());
        let you = if observer >= 0 { format!("Player {}", observer + 1) } else { "Someone".to_string() };
        let figure_at =
            |v: &Value| format!("the {} at {}", v["figure"].as_str().unwrap_or("?"), self.hex_name(v["hex"].as_u64().unwrap_or(0)));
        Some(match e.s("kind") {
            "play_begins" => format!("Play begins with {}", seat()),
            "turn_begins" => format!("{}'s turn", seat()),
            "turn_ended" => format!("{} ends the turn", seat()),
            "passed" => format!("{} passes", seat()),
            "token_placed" => format!("{} places {} on {}", seat(), e.s("name"), self.hex_name(e.n("hex"))),
            "token_exchanged" => format!("{} picks up {} from {}", seat(), e.s("name"), self.hex_name(e.n("hex"))),
            "token_chosen" => format!("{} takes a token from behind the screen ({} there now)", seat(), e.n("behind_screen")),
            "token_drawn" => format!("{you} draws {}", e.s("name")),
            "token_kept" => format!("{you} keeps a token behind the screen"),
            // The drawing seat was also told which token (`token_drawn`, the same step): its
            // line says which, this one only how many are left (one draw, one line).
            "drew" if observer >= 0 && e.n("seat") == observer as u64 => {
                format!("{} left in the stack", count(e.n("stack_left"), "token", "tokens"))
            }
            "drew" => format!("{} draws a token ({} left in the stack)", seat(), e.n("stack_left")),
            "figure_placement_begins" => "The figures are placed on the cities and villages".to_string(),
            "figure_placed" => format!("{} places a {} on {}", seat(), e.s("figure"), self.hex_name(e.n("hex"))),
            "figure_captured" if e.has("figure") => {
                format!("{} captures the {} on {}", seat(), e.s("figure"), self.hex_name(e.n("hex")))
            }
            "figure_captured" => format!("{} captures a figure on {}", seat(), self.hex_name(e.n("hex"))),
            "figure_captured_private" => format!("{} captures the {} on {}", seat(), e.s("figure"), self.hex_name(e.n("hex"))),
            "figure_set_aside" => format!("The {} on {} is set aside (a tie)", e.s("figure"), self.hex_name(e.n("hex"))),
            "figure_exchange_played" => format!("{} plays a figure exchange on {}", seat(), figure_at(&e["first"].to_value())),
            "figures_exchanged" => {
                format!("{} exchanges {} with {}", seat(), figure_at(&e["a"].to_value()), figure_at(&e["b"].to_value()))
            }
            "screens_lifted" => "The screens are lifted".to_string(),
            "game_over" => {
                let score = e["score"].to_value();
                let winners: Vec<String> = score["winners"].as_array().into_iter().flatten().map(Self::seat).collect();
                // The score: each seat's captured helmets, buddhas and rice fields.
                let figures: Vec<String> = score["figures"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(p, f)| {
                        let n = |i: usize| f[i].as_u64().unwrap_or(0);
                        format!("{}: {} helmet, {} buddha, {} rice", Self::seat(&Value::from(p)), n(0), n(1), n(2))
                    })
                    .collect();
                let how = match score["decided_by"].as_str() {
                    Some("two_or_more_majorities") => " (the majority in two or more kinds)",
                    Some("candidates") => " (one majority each, then the most figures of the other kinds)",
                    Some("most_figures") => " (the most figures)",
                    _ => "",
                };
                let captured = if figures.is_empty() { String::new() } else { format!("; captured: {}", figures.join("; ")) };
                if winners.is_empty() {
                    format!("Game over: {}{captured}; nobody wins", e.s("reason").replace('_', " "))
                } else {
                    format!("Game over: {}{captured}; {} wins{how}", e.s("reason").replace('_', " "), list(&winners))
                }
            }
            _ => return None,
        })
    }
}
