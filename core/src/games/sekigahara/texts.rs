//! Events as sentences ("Ishida deploys a Ukita block at Gifu"): read from the event body and
//! the public component data only, so a sentence tells a seat no more than its event does.

use serde_json::Value;

use super::data::SIDES;
use super::Sekigahara;
use crate::events::sentence::{capitalized, count, list, title, Read};
use crate::events::{Body, Field};
use crate::game::Player;

impl Sekigahara {
    pub(super) fn place(&self, id: &str) -> String {
        match self.data.locations.iter().find(|l| l.id == id) {
            Some(l) => l.name.clone(),
            None if id == "recruitment_box" => "the recruitment box".to_string(),
            None => title(id),
        }
    }

    fn place_field(&self, f: &Field) -> String {
        f.as_str().map_or_else(|| "the map".to_string(), |id| self.place(id))
    }

    /// A block by its face: its leader's name, or its clan, unit and strength.
    pub(super) fn block(&self, id: &str) -> String {
        let Some(b) = self.data.blocks.iter().find(|b| b.id == id) else { return title(id) };
        let clan = title(&self.data.clans[b.clan as usize].id);
        match &b.name {
            Some(name) => format!("{name} ({clan}, {} mon)", b.mons),
            None => format!("a {clan} {} ({} mon)", unit_name(b.unit), b.mons),
        }
    }

    fn blocks(&self, v: &Value) -> String {
        let names: Vec<String> = v.as_array().into_iter().flatten().filter_map(|x| x.as_str()).map(|id| self.block(id)).collect();
        list(&names)
    }

    /// A card by its face: its clan (or Loyalty Challenge) and initiative.
    pub(super) fn card(&self, id: &str) -> String {
        let Some(c) = self.data.cards.iter().find(|c| c.id == id) else { return title(id) };
        if c.loyalty {
            return "a Loyalty Challenge card".to_string();
        }
        let clan = c.clan.map_or_else(|| "any-clan".to_string(), |k| title(&self.data.clans[k as usize].id));
        let double = if c.double { ", double" } else { "" };
        format!("a {clan} card (initiative {}{double})", c.initiative)
    }

    fn card_field(&self, f: &Field) -> String {
        f.as_str().map_or_else(|| "no card".to_string(), |id| self.card(id))
    }

    /// A legal move as a sentence, from its verb and arguments (`describe::action_json`).
    pub(super) fn action_sentence(&self, verb: &str, v: &Value) -> String {
        let arg = |k: &str| v[k].as_str().unwrap_or("?");
        match verb {
            "bid" => format!("Bid {}", self.card(arg("card"))),
            "bid_nothing" => "Bid nothing".to_string(),
            "first" => format!("{} plays first", title(arg("side"))),
            "discard" => format!("Discard {}", self.card(arg("card"))),
            "mode" => format!("Movement: {}", title(arg("mode"))),
            "origin" => format!("Move from {}", self.place(arg("location"))),
            "muster_a" => format!("Muster at {} (option A)", self.place(arg("location"))),
            "muster_b" => format!("Muster at {} (option B)", self.place(arg("location"))),
            "select" => format!("Select {}", self.block(arg("block"))),
            "step" => {
                let road: Vec<String> =
                    v["road"].as_array().into_iter().flatten().filter_map(Value::as_str).map(|l| self.place(l)).collect();
                format!("Move along the road {}", road.join(" – "))
            }
            "drop" => format!("Leave {} behind", self.block(arg("block"))),
            "stop" => "Stop here".to_string(),
            "end_stack" => "End this stack's move".to_string(),
            "command" => format!("Command with {}", self.block(arg("block"))),
            "forced_march" => format!("Forced march with {}", self.card(arg("card"))),
            "end_phase" => "End the phase".to_string(),
            "battle" => format!("Fight the battle at {}", self.place(arg("location"))),
            "siege" => "Besiege".to_string(),
            "field" => "Fight a field battle".to_string(),
            "leader" => format!("Lead with {}", self.block(arg("block"))),
            "card" => format!("Play {}", self.card(arg("card"))),
            "end_deploy" => "End deployment".to_string(),
            "challenge" => "Challenge their loyalty".to_string(),
            "no_challenge" => "Make no loyalty challenge".to_string(),
            "refute" => format!("Refute with {}", self.card(arg("card"))),
            "disk" => format!("Remove disk {}", title(arg("disk"))),
            "retreat" => format!("Retreat to {}", self.place(arg("location"))),
            "draw_card" => format!("Draw {}", self.card(arg("card"))),
            "draw_block" => format!("Draw {}", self.block(arg("block"))),
            "join_garrison" => format!("Join the garrison at {}", self.place(arg("location"))),
            "stay_outside" => format!("Stay outside the castle at {}", self.place(arg("location"))),
            other => capitalized(&other.replace('_', " ")),
        }
    }

    /// The sentence for one event (see [`crate::Game::event_text`]).
    pub(super) fn text(&self, e: &Body, observer: Player) -> Option<String> {
        self.sentence(e, observer).map(|t| capitalized(&t))
    }

    fn sentence(&self, e: &Body, observer: Player) -> Option<String> {
        let side = |k: &str| title(e.s(k));
        let you = if (0..2).contains(&observer) { title(SIDES[observer as usize]) } else { "Someone".to_string() };
        let pair = |k: &str| format!("Tokugawa {}, Ishida {}", e[k]["tokugawa"], e[k]["ishida"]);
        Some(match e.s("kind") {
            "week" => format!("Week {} begins", e.n("week")),
            "reinforcements" => format!(
                "Week {} reinforcements: castles Tokugawa {}, Ishida {}; resources Tokugawa {}, Ishida {}",
                e.n("week"),
                e["castles"][0],
                e["castles"][1],
                e["resources"][0],
                e["resources"][1]
            ),
            "reinforce_discard_private" => format!("{you} discards {} for reinforcements", self.card(e.s("card"))),
            "reinforcement_discards" => {
                let cards: Vec<String> = e["cards"]
                    .to_value()
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|c| format!("{} ×{}", self.card(c[0].as_str().unwrap_or("?")), c[1]))
                    .collect();
                format!("Reinforcement discards: {}", list(&cards))
            }
            "bid_placed" => format!("{} places a bid face down", side("side")),
            "bid_private" => format!("{you} bids {}", self.card_field(&e["card"])),
            "bids_revealed" => format!(
                "Bids revealed: Tokugawa {}, Ishida {}; {} wins the bid",
                self.card_field(&e["tokugawa"]),
                self.card_field(&e["ishida"]),
                side("winner")
            ),
            "first_player" => format!("{} chooses {} to play first", side("chosen_by"), side("first")),
            "phase" => format!("Week {} turn {}: {} {} phase", e.n("week"), e.s("turn"), side("side"), e.s("phase")),
            "movement_mode" => format!("{} chooses movement: {}", side("side"), title(e.s("mode"))),
            "muster" if e.has("blocks") => {
                format!("{} musters {} at {}", side("side"), self.blocks(&e["blocks"].to_value()), self.place_field(&e["at"]))
            }
            "muster" => format!("{} musters {} at {}", side("side"), count(e.n("count"), "block", "blocks"), self.place_field(&e["at"])),
            "muster_private" => format!("{you} musters {}", self.blocks(&e["blocks"].to_value())),
            "stack_selected" => format!("{} moves the stack at {}", side("side"), self.place(e.s("at"))),
            "move" => format!(
                "{} moves {} from {} to {}",
                side("side"),
                count(e.n("blocks"), "block", "blocks"),
                self.place(e.s("from")),
                self.place(e.s("to"))
            ),
            "block_dropped" if e.has("block") => {
                format!("{} leaves {} at {}", side("side"), self.block(e.s("block")), self.place_field(&e["at"]))
            }
            "block_dropped" => format!("{} leaves a block at {}", side("side"), self.place_field(&e["at"])),
            "contact" => format!("{} makes contact at {}", side("side"), self.place_field(&e["at"])),
            "overrun" => format!(
                "{} overruns {} at {} with {}",
                side("side"),
                count(e.n("overrun"), "block", "blocks"),
                self.place(e.s("at")),
                count(e.n("blocks"), "block", "blocks")
            ),
            "leader_revealed" => {
                let with = if e["in_group"].as_bool() == Some(true) { ", moving with the group" } else { "" };
                format!("{} is revealed to command at {}{with}", self.block(e.s("block")), self.place_field(&e["at"]))
            }
            "movement_done" => format!("{} ends movement", side("side")),
            "mori_arrival" => format!("{} arrives at {}", self.block(e.s("block")), self.place(e.s("to"))),
            "block_drawn" => format!("{} draws a block to {}", side("side"), self.place_field(&e["to"])),
            "block_drawn_private" => format!("{you} draws {} to {}", self.block(e.s("block")), self.place_field(&e["to"])),
            "card_drawn" => format!("{} draws a card", side("side")),
            "card_drawn_private" => format!("{you} draws {}", self.card(e.s("card"))),
            "card_discarded" => format!("{} discards {} for {}", side("side"), self.card(e.s("card")), e.s("for").replace('_', " ")),
            "card_played" => format!("{} plays {}", side("side"), self.card(e.s("card"))),
            "deck_reshuffled" => format!("{} reshuffles the deck", side("side")),
            "battle_declared" => format!("{} declares a battle at {}", side("attacker"), self.place(e.s("at"))),
            "battle_begins" => format!("{} battle at {}, {} attacking", title(e.s("type")), self.place(e.s("at")), side("attacker")),
            "leader_joins" => format!("{} joins the group at {}", self.block(e.s("block")), self.place_field(&e["at"])),
            "block_chosen" => format!("{you} chooses {}", self.block(e.s("block"))),
            "block_deployed" => {
                let with = e["card"].as_str().map(|c| format!(" with {}", self.card(c))).unwrap_or_default();
                format!(
                    "{} deploys {}{with}: impact {} (totals: {})",
                    side("side"),
                    self.block(e.s("block")),
                    e.n("impact"),
                    pair("totals")
                )
            }
            "deployment_done" => format!("{} ends deployment", side("side")),
            "loyalty_challenge" => format!("{} challenges the loyalty of {}", side("side"), self.block(e.s("block"))),
            "challenge_refuted" => format!("{} refutes the challenge with {}", side("side"), self.card(e.s("shown"))),
            "no_challenge" => format!("{} makes no loyalty challenge", side("side")),
            "defection" => {
                let n = e["blocks"].to_value().as_array().map_or(0, Vec::len);
                let verb = if n == 1 { "defects" } else { "defect" };
                format!("{} {verb} to {} (totals: {})", self.blocks(&e["blocks"].to_value()), side("to"), pair("totals"))
            }
            "battle_result" if !e.has("winner") => {
                format!(
                    "The {} battle at {} ends without a winner (casualties: {})",
                    e.s("type"),
                    self.place(e.s("at")),
                    pair("casualties")
                )
            }
            "battle_result" => {
                format!(
                    "{} wins the {} battle at {} (casualties: {})",
                    side("winner"),
                    e.s("type"),
                    self.place(e.s("at")),
                    pair("casualties")
                )
            }
            "block_eliminated" => format!("{} is eliminated at {}", self.block(e.s("block")), self.place_field(&e["at"])),
            "retreat" => format!(
                "{} retreats {} from {} to {}",
                side("side"),
                count(e.n("blocks"), "block", "blocks"),
                self.place(e.s("from")),
                self.place(e.s("to"))
            ),
            "retreat_into_castle" => format!("The defenders retreat into the castle at {}", self.place(e.s("at"))),
            "stays_in_castle" => format!("{} stays in the castle at {}", side("side"), self.place(e.s("at"))),
            "castle_falls" => format!("The castle at {} falls to {}", self.place(e.s("at")), side("to")),
            "disk_eliminated" => format!("Disk {} is removed", title(e.s("disk"))),
            "battle_over" => format!("The battle at {} is over (cards drawn: {})", self.place(e.s("at")), pair("cards_drawn")),
            "game_over" if e.has("points") => format!("{} wins on points ({})", side("winner"), pair("points")),
            "game_over" => format!("{} wins the game ({})", side("winner"), e.s("reason")),
            _ => return None,
        })
    }
}

fn unit_name(u: super::data::Unit) -> &'static str {
    use super::data::Unit;
    match u {
        Unit::Plain => "block",
        Unit::Arquebus => "gun block",
        Unit::Cavalry => "cavalry block",
    }
}
