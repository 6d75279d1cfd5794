//! The observation tensor's layout. The encoder is `view::tensor` (beside the view, whose
//! module doc describes it); every value is already in `[0, 1]`: indicators, counters per hex
//! / 6 and movement points / 12 clamped (RULES_NOTES.md D26), turn / `max_turns`.

use super::view::{HEX_PLANES, PENDING_KINDS};
use super::Daisakusen;
use crate::layout::{Feature, LayoutBuilder};

/// The hex planes of `view::tensor` in order, one value per hex each.
const PLANES: [(&str, &str); HEX_PLANES] = [
    ("hex_plain", "base terrain plain"),
    ("hex_hill", "base terrain hill"),
    ("hex_mountain", "base terrain mountain"),
    ("hex_sea", "all-sea hex"),
    ("castle_working", "a castle that still stands"),
    ("castle_fallen", "a fallen castle"),
    ("kyoto", "京"),
    ("road_hex", "a road hex"),
    ("river_n", "river on the N hexside"),
    ("river_ne", "river on the NE hexside"),
    ("river_se", "river on the SE hexside"),
    ("river_s", "river on the S hexside"),
    ("river_sw", "river on the SW hexside"),
    ("river_nw", "river on the NW hexside"),
    ("road_n", "road across the N hexside"),
    ("road_ne", "road across the NE hexside"),
    ("road_se", "road across the SE hexside"),
    ("road_s", "road across the S hexside"),
    ("road_sw", "road across the SW hexside"),
    ("road_nw", "road across the NW hexside"),
    ("castle_mine", "a castle the observer's side owns"),
    ("castle_enemy", "a castle the other side owns"),
    ("kyoto_mine", "京 held by the observer's side"),
    ("my_face_up", "the observer's face-up counters / 6 (clamped)"),
    ("my_flipped", "the observer's flipped counters / 6 (clamped)"),
    ("enemy_face_up", "the other side's face-up counters / 6 (clamped)"),
    ("enemy_flipped", "the other side's flipped counters / 6 (clamped)"),
    ("my_commander", "the observer's commander is here"),
    ("enemy_commander", "the other side's commander is here"),
    ("my_garrison", "the observer's garrison is here"),
    ("enemy_garrison", "the other side's garrison is here"),
    ("enemy_zoc", "in the other side's zone of control"),
    ("my_zoc", "in the observer's zone of control"),
    ("acting_commander", "the acting commander's hex"),
    ("attacked", "the attacked hex"),
];

/// The named ranges of the tensor, in the order `view::tensor` fills them.
pub fn layout(g: &Daisakusen) -> Vec<Feature> {
    let d = &g.data;
    let (n, c, u) = (d.hexes.len(), d.cards.len(), d.counters.len());
    let mut b = LayoutBuilder::new();
    for (name, what) in PLANES {
        b = b.unit(name, n, format!("per hex (data order): {what}"));
    }
    b = b.unit("chouryaku", d.chouryaku_labels.len(), "one-hot 調略 marker box");
    for (t, track) in d.morale_tracks.iter().enumerate() {
        b = b.unit(format!("morale_{t}"), track.values.len(), format!("one-hot 戦意 marker box of {}", track.name));
    }
    for (t, track) in d.entry.iter().enumerate() {
        b = b.unit(
            format!("entry_{t}"),
            track.boxes.len() + 1,
            format!("one-hot marker box of the entry track {} (last: 登場)", track.name),
        );
    }
    b.unit("card_in_deck", c, "per card: in the deck")
        .unit("card_discarded", c, "per card: in the discard pile")
        .unit("card_current", c, "per card: the card being carried out")
        .unit("counter_on_map", u, "per counter: on the map")
        .unit("counter_flipped", u, "per counter: flipped")
        .unit("counter_mine", u, "per counter: the observer's side")
        .unit("counter_removed", u, "per counter: removed")
        .unit("counter_in_group", u, "per counter: in the acting group")
        .unit("counter_acted", u, "per counter: has acted this card")
        .unit("turn", 1, format!("turn / max_turns ({}), clamped", g.max_turns))
        .unit("movement_points", 1, "movement points / 12, clamped")
        .unit("is_east", 1, "the observer is East (the spectator sees East's perspective)")
        .unit("to_act", 1, "the observer is to act")
        .unit("hideyori_may_leave", 1, "豊臣秀頼 may leave 大坂 (R 13.0(1); for good once its condition has held)")
        .unit("pending", PENDING_KINDS.len(), "one-hot kind of the pending decision")
        .build()
}
