//! Sekigahara positions written by name (docs/positions.md, docs/rules/sekigahara.md): blocks
//! by side and place with their leaders' names (`"Ishida": {"Gifu": ["Ishida Mitsunari", ...]}`),
//! locations, card types and sides by the names of the map, the cards and the rulebook.

use serde_json::json;

use super::data::{NONE, SIDES};
use super::state::{BAG, BOX, DEAD, DEFECTED, DEPLOYED, IN_CASTLE, MORI_BOX, MOVED, MUSTERED, SELECTED, SHOWN};
use super::Sekigahara;
use crate::named::{title_words, Conv, Space};

/// The block flags as words.
const FLAGS: [(u64, &str); 7] = [
    (MOVED as u64, "moved"),
    (MUSTERED as u64, "mustered"),
    (IN_CASTLE as u64, "in_castle"),
    (SELECTED as u64, "selected"),
    (DEPLOYED as u64, "deployed"),
    (DEFECTED as u64, "defected"),
    (SHOWN as u64, "shown"),
];

impl Sekigahara {
    fn names_sides(&self) -> Space {
        Space::plain("side", SIDES.iter().map(|s| title_words(s))).or_none(NONE as u64)
    }

    /// The map's locations (by their printed names; the data ids are read too).
    fn names_locations(&self) -> Space {
        let d = &self.data;
        Space::new("location", d.locations.iter().map(|l| l.name.clone()).collect(), d.locations.iter().map(|l| l.id.clone()).collect())
            .or_none(NONE as u64)
    }

    /// Where a block can be: a location or one of the boxes (5).
    fn names_places(&self) -> Space {
        self.names_locations()
            .with(BAG as u64, "bag")
            .with(BOX as u64, "recruitment box")
            .with(MORI_BOX as u64, "Mori box")
            .with(DEAD as u64, "eliminated")
    }

    /// Blocks by their leader's name, the others by their id.
    fn names_block_names(&self) -> Space {
        let d = &self.data;
        Space::new(
            "block",
            d.blocks.iter().map(|b| b.name.clone().unwrap_or_else(|| b.id.clone())).collect(),
            d.blocks.iter().map(|b| b.id.clone()).collect(),
        )
    }

    fn names_card_names(&self) -> Space {
        Space::plain("card", self.data.cards.iter().map(|c| c.id.clone())).or_none(NONE as u64)
    }

    pub(super) fn named_conv(&self) -> Conv {
        let d = &self.data;
        let per_side = |c: Conv| Conv::Keyed(self.names_sides(), None, Box::new(c));
        let counts = || Conv::Keyed(self.names_card_names(), Some(json!(0)), Box::new(Conv::Same));
        let held = || Conv::Keyed(self.names_locations(), Some(json!(NONE)), Box::new(Conv::Index(self.names_sides())));
        let roads =
            Space::plain("road", d.roads.iter().map(|r| format!("{}-{}", d.locations[r.a as usize].name, d.locations[r.b as usize].name)));
        let side = || Conv::Fields(vec![("side", Conv::Index(self.names_sides()))]);
        let card = || Conv::Fields(vec![("card", Conv::Index(self.names_card_names()))]);
        Conv::Fields(vec![
            ("first", Conv::Index(self.names_sides())),
            (
                "blocks",
                Conv::Placed {
                    pieces: self.names_block_names(),
                    groups: d.blocks.iter().map(|b| title_words(SIDES[b.side as usize])).collect(),
                    place_field: "loc",
                    places: self.names_places(),
                    plain: vec![json!({"flags": 0, "from": NONE}); d.blocks.len()],
                    rest: Box::new(Conv::Fields(vec![
                        ("flags", Conv::Flags(FLAGS.to_vec())),
                        ("from", Conv::Index(self.names_locations())),
                    ])),
                },
            ),
            ("disks", Conv::Keyed(Space::plain("disk", d.disks.iter().map(|x| title_words(&x.id))), None, Box::new(Conv::Same))),
            ("hand", counts()),
            ("deck", counts()),
            ("discard", counts()),
            ("reinforce_discards", counts()),
            ("resource", held()),
            ("castle", held()),
            ("bids", per_side(Conv::Index(self.names_card_names()))),
            ("bid_made", per_side(Conv::Same)),
            ("reinforce_done", per_side(Conv::Same)),
            ("roads_used", Conv::Bits(roads)),
            ("origins_used", Conv::Bits(self.names_locations())),
            ("declared", Conv::Bits(self.names_locations())),
            ("group", Conv::Fields(vec![("origin", Conv::Index(self.names_locations())), ("at", Conv::Index(self.names_locations()))])),
            ("forced", Conv::Tuple(vec![Conv::Index(self.names_locations()), Conv::Index(self.names_sides())])),
            (
                "battle",
                Conv::Fields(vec![
                    ("loc", Conv::Index(self.names_locations())),
                    ("attacker", Conv::Index(self.names_sides())),
                    ("holder", Conv::Index(self.names_sides())),
                    ("initiative", Conv::Index(self.names_sides())),
                    ("winner", Conv::Index(self.names_sides())),
                    ("impact", per_side(Conv::Same)),
                    ("done", per_side(Conv::Same)),
                    ("carded", per_side(Conv::Same)),
                    ("hits", per_side(Conv::Same)),
                    ("lost", per_side(Conv::Same)),
                    ("commander_lost", per_side(Conv::Same)),
                    ("used", counts()),
                    (
                        "deploys",
                        Conv::Each(Box::new(Conv::Fields(vec![
                            ("block", Conv::Index(self.names_block_names())),
                            ("side", Conv::Index(self.names_sides())),
                            ("card", Conv::Index(self.names_card_names())),
                        ]))),
                    ),
                ]),
            ),
            (
                "due",
                Conv::Fields(vec![
                    ("setup", Conv::Each(Box::new(Conv::Tuple(vec![Conv::Index(self.names_places()), Conv::Index(self.names_sides())])))),
                    ("blocks", per_side(Conv::Same)),
                    ("cards", per_side(Conv::Same)),
                ]),
            ),
            (
                "pending",
                Conv::Fields(vec![
                    ("ReinforceDiscard", side()),
                    ("Bid", side()),
                    ("ChooseFirst", side()),
                    ("SiegeChoice", side()),
                    ("Casualty", side()),
                    ("Muster", Conv::Fields(vec![("loc", Conv::Index(self.names_locations()))])),
                    ("DeployBlock", card()),
                    ("DeploySecond", card()),
                    ("JoinGarrison", Conv::Fields(vec![("to", Conv::Index(self.names_locations()))])),
                ]),
            ),
            ("winner", Conv::Index(self.names_sides())),
        ])
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use crate::engine::{load_game, StateHandle};
    use crate::error::ErrorCode;

    /// The documents of a named position of the initial state, for editing.
    fn named() -> Value {
        let mut doc = load_game("sekigahara", None).unwrap().new_initial_state(3).to_named_position().unwrap();
        doc["position"].as_object_mut().unwrap().remove("rng");
        doc
    }

    #[test]
    fn blocks_are_written_by_side_place_and_leader() {
        let doc = named();
        let osaka = doc["position"]["blocks"]["Ishida"]["Osaka"].as_array().unwrap();
        assert!(osaka.contains(&Value::from("Ishida Mitsunari")), "{osaka:?}");
        assert!(StateHandle::from_position_value(&doc).is_ok());
    }

    #[test]
    fn an_unknown_place_is_refused_with_the_nearest_names() {
        let mut doc = named();
        let ishida = doc["position"]["blocks"]["Ishida"].as_object_mut().unwrap();
        let osaka = ishida.remove("Osaka").unwrap();
        ishida.insert("Osakka".into(), osaka);
        let e = StateHandle::from_position_value(&doc).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidPosition);
        let m = e.to_string();
        assert!(m.contains("unknown location \"Osakka\"; nearest: \"Osaka\""), "{m}");
    }

    #[test]
    fn an_unknown_block_and_a_missing_block_are_refused() {
        let mut doc = named();
        let osaka = doc["position"]["blocks"]["Ishida"]["Osaka"].as_array_mut().unwrap();
        let i = osaka.iter().position(|b| b == "Ishida Mitsunari").unwrap();
        osaka[i] = Value::from("Ishida Mitsunary");
        let m = StateHandle::from_position_value(&doc).unwrap_err().to_string();
        assert!(m.contains("unknown block \"Ishida Mitsunary\"; nearest: \"Ishida Mitsunari\""), "{m}");
        let osaka = doc["position"]["blocks"]["Ishida"]["Osaka"].as_array_mut().unwrap();
        osaka.remove(i);
        let m = StateHandle::from_position_value(&doc).unwrap_err().to_string();
        assert!(m.contains("every block has a place; missing Ishida Mitsunari"), "{m}");
    }
}
