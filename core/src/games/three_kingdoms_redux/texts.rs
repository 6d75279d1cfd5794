//! Events as sentences ("Wei places Cao Ren on Develop farm or harvest"): read from the event
//! body and the public component data only, so a sentence tells a seat no more than its event
//! does.

use serde_json::Value;

use super::data::{Goods, Trade, KINGDOMS};
use super::Tkr;
use crate::events::sentence::{capitalized, count, list, title, words, Read};
use crate::events::Body;
use crate::game::Player;

/// What ended the game (`Tkr::end_trigger`).
const END_REASONS: [&str; 5] = [
    "the game ended",
    "the last round was played",
    "a kingdom reached farm and market level 5",
    "a kingdom reached the highest office",
    "a border holds five armies",
];

const DECKS: [&str; 2] = ["unity", "separation"];

impl Tkr {
    fn general(&self, id: &str) -> String {
        self.data.generals.iter().find(|g| g.id == id).map_or_else(|| title(id), |g| format!("{} ({})", g.name_en, g.name_ko))
    }

    fn development(&self, id: &str) -> String {
        self.data.developments.iter().find(|d| d.id == id).map_or_else(|| title(id), |d| format!("{} ({})", d.name_en, d.name_ko))
    }

    fn region(&self, id: &str) -> String {
        self.data.regions.iter().find(|r| r.id == id).map_or_else(|| title(id), |r| format!("{} ({})", title(&r.id), r.name_ko))
    }

    /// An action space by its printed name (the data's `action_names`; its id in words where
    /// the data has none): as the board, the log and the moves name it.
    pub(super) fn action_label(&self, id: &str) -> String {
        super::data::ACTIONS
            .iter()
            .position(|a| *a == id)
            .and_then(|i| self.data.action_names.get(i))
            .filter(|n| !n.is_empty())
            .cloned()
            .unwrap_or_else(|| capitalized(&words(id)))
    }

    fn kingdom(v: &Value) -> String {
        v.as_u64().and_then(|k| KINGDOMS.get(k as usize)).map_or_else(|| "?".to_string(), |k| k.to_string())
    }

    /// The sentence for one event (see [`crate::Game::event_text`]).
    pub(super) fn text(&self, e: &Body, observer: Player) -> Option<String> {
        let who = || Self::kingdom(&e["seat"].to_value());
        let you = if observer >= 0 { Self::kingdom(&Value::from(observer)) } else { "Someone".to_string() };
        let action = |k: &str| format!("“{}”", self.action_label(e.s(k)));
        let deck = || DECKS.get(e.n("deck") as usize).copied().unwrap_or("?");
        let kingdoms = |v: Value| -> String { list(&v.as_array().into_iter().flatten().map(Self::kingdom).collect::<Vec<_>>()) };
        Some(match e.s("kind") {
            "reveal" => {
                let g: Vec<String> = e["generals"]
                    .to_value()
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| format!("{} for {}", self.general(x["general"].as_str().unwrap_or("?")), Self::kingdom(&x["seat"])))
                    .collect();
                format!("Round {}: generals revealed: {}", e.n("round"), list(&g))
            }
            "criterion" => format!("The Han emperor goes to the best {}", e.s("control_han_emperor")),
            "draw_general" if e.has("general") => format!("{} draws {}", who(), self.general(e.s("general"))),
            "draw_general" => format!("{} draws a general", who()),
            "keep_general" if e.has("general") => format!("{} keeps {}", who(), self.general(e.s("general"))),
            "keep_general" => format!("{} keeps a general", who()),
            "draw_development" if e.has("card") => format!("{} draws {} from the {} deck", who(), self.development(e.s("card")), deck()),
            "draw_development" => format!("{} draws a card from the {} deck", who(), deck()),
            "keep_development" => format!("{you} keeps {}", self.development(e.s("card"))),
            "to_deck_bottom" if e.has("cards") => {
                let cards: Vec<String> =
                    e["cards"].to_value().as_array().into_iter().flatten().map(|c| self.development(c.as_str().unwrap_or("?"))).collect();
                format!("{} puts {} under the {} deck", who(), list(&cards), deck())
            }
            "to_deck_bottom" => format!("{} puts {} under the {} deck", who(), count(e.n("count"), "card", "cards"), deck()),
            "alliance" => format!("{} forms an alliance of {} on {}", who(), kingdoms(e["allies"].to_value()), action("action")),
            "pass" => format!("{} passes", who()),
            "bid_won" => format!("{} wins the bid for {}", kingdoms(e["seats"].to_value()), action("action")),
            "place" => {
                let mut t = format!("{} places {} on {} (value {}", who(), self.general(e.s("general")), action("action"), e.n("total"));
                if e.n("gold") > 0 {
                    t += &format!(", {} gold", e.n("gold"));
                }
                if e.n("units") > 0 {
                    t += &format!(", {} {}", e.n("units"), e.s("unit"));
                }
                t + ")"
            }
            "order" => format!(
                "Action order: {}; next bid order: {}",
                kingdoms(e["action_order"].to_value()),
                kingdoms(e["next_bid_order"].to_value())
            ),
            "performed" => format!("{} performs {}", who(), action("action")),
            "declined" => format!("{} declines {}", who(), action("action")),
            "develop" => format!("{} develops {} to level {}", who(), action("action"), e.n("level")),
            "harvest" => format!("{} harvests: {} rice", who(), e.n("gain")),
            "collect_tax" => format!("{} collects taxes: {} gold", who(), e.n("gain")),
            "trade_rice" => trade_words(self.rates().rice_trade(e.n("choice") as i32), Goods::Rice, Some(&who())),
            "trade_weapons" => trade_words(self.rates().weapon_trade(e.n("choice") as i32), Goods::Weapons, Some(&who())),
            "weapon_gained" => format!("{} gains a {}", who(), e.s("weapon")),
            "weapon_paid" => format!("{} pays a {}", who(), e.s("weapon")),
            "hire_instructor" => format!("{} hires an instructor: {} trained", who(), count(e.n("trained"), "army", "armies")),
            "import_tech" => format!("{} imports technology from the {} deck", who(), deck()),
            "build" => format!("{} builds {}", who(), self.development(e.s("card"))),
            "produce" => {
                let parts: Vec<String> =
                    ["spear", "horse", "crossbow", "ship"].iter().filter(|w| e.has(w)).map(|w| format!("{} {w}", e.n(w))).collect();
                format!("{} produces {}", who(), list(&parts))
            }
            "recruit_armies" => format!("{} recruits {} untrained and {} trained armies", who(), e.n("untrained"), e.n("trained")),
            "train" => format!("{} trains {}", who(), count(e.n("amount"), "army", "armies")),
            "support" => format!("{} wins {} popular support", who(), e.n("amount")),
            "office" => format!("{} rises to office {} for {} gold", who(), e.n("office"), e.n("paid")),
            "han_flip" => format!("{} exhausts {} at the Han court", who(), self.general(e.s("general"))),
            "occupy" => format!(
                "{} occupies {} with {} ({} {}{})",
                who(),
                self.region(e.s("region")),
                self.general(e.s("general")),
                e.n("units"),
                e.s("unit"),
                if e.flag("flipped") { ", flipped" } else { "" }
            ),
            "tribal" => format!("{} {} the tribal marker at {}", who(), if e.flag("held") { "holds" } else { "moves" }, e.n("tribal")),
            "tribal_action" => format!("{} acts on the tribes: {} steps (track {})", who(), e.n("steps"), e.n("tribal")),
            "tribal12_support" => format!("{} gains popular support from the tribes", who()),
            "deficit" => format!("{} takes a deficit ({})", who(), e.s("cause")),
            "deficit_protected" => format!("{} is protected from a deficit", who()),
            "exchange" => format!("{} exchanges with {} (option {})", who(), e.s("card"), e.n("option") + 1),
            "ability" => format!("{} uses the ability of {} on {}", who(), e.s("card"), action("action")),
            "income" => format!("{} takes the income of {}", who(), e.s("card")),
            "reservoir_stocked" => format!("{} stocks {} on {}", who(), e.n("amount"), e.s("card")),
            "reservoir_paid" => format!("{} takes {} from {}", who(), e.n("amount"), e.s("card")),
            "gain" => format!("{} gains {} {}", who(), e.i("amount"), words(e.s("token"))),
            "upkeep" => format!(
                "{} pays upkeep: {} rice for support, {} gold and {} rice for armies; {}",
                who(),
                e.n("support_rice"),
                e.n("unit_gold"),
                e.n("unit_rice"),
                count(e.n("deficits"), "deficit", "deficits")
            ),
            "game_over" => {
                let scores: Vec<String> = e["scores"]
                    .to_value()
                    .as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(k, v)| format!("{} {v}", KINGDOMS.get(k).copied().unwrap_or("?")))
                    .collect();
                let why = END_REASONS.get(e.n("reason") as usize).copied().unwrap_or("the game ended");
                format!("Game over ({why}): {}", scores.join(", "))
            }
            _ => return None,
        })
    }
}

/// A trade in words: the menu's ("buy 4 rice for 5 gold", "no rice trade") without a
/// subject, a sentence ("Wu buys 4 rice for 5 gold") with one.
pub(super) fn trade_words(t: Trade, goods: Goods, who: Option<&str>) -> String {
    let (kind, goods_name) = (goods.trade_name(), goods.name());
    let (verb, amounts) = match t {
        Trade::Nothing => return who.map_or_else(|| format!("no {kind} trade"), |w| format!("{w} makes no {kind} trade")),
        Trade::Buy { goods, gold } => ("buy", format!("{goods} {goods_name} for {gold} gold")),
        Trade::Sell { goods, gold } => ("sell", format!("{goods} {goods_name} for {gold} gold")),
    };
    who.map_or_else(|| format!("{verb} {amounts}"), |w| format!("{w} {verb}s {amounts}"))
}
