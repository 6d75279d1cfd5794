//! 関ヶ原大作戦 positions written by name (docs/positions.md, docs/rules/sekigahara_daisakusen.md):
//! counters by side and hex with the names the counters print (`"West": {"0612": ["石田三成"]}`;
//! the romanized name and the data id are read too), hexes by the printed hex number (the
//! data file's `id`, not the state's index), castles, cards, tracks and sides by name.

use serde_json::json;

use super::data::{NONE, SIDES};
use super::state::{DEAD, TRACK};
use super::Daisakusen;
use crate::named::{title_words, Conv, Space};

impl Daisakusen {
    fn names_sides(&self) -> Space {
        Space::plain("side", SIDES.iter().map(|s| title_words(s))).or_none(NONE as u64)
    }

    /// Hexes by their printed number; the name with the castle or 京 is read too.
    fn names_hexes(&self) -> Space {
        let d = &self.data;
        Space::new("hex", d.hexes.iter().map(|h| h.id.clone()).collect(), (0..d.hexes.len()).map(|h| self.hex_name(h as u16)).collect())
    }

    /// Where a counter can be: a hex, an entry track (R 9.0), or removed.
    fn names_places(&self) -> Space {
        let mut s = self.names_hexes().with(DEAD as u64, "removed");
        for (t, track) in self.data.entry.iter().enumerate() {
            s = s.with(TRACK as u64 + t as u64, &format!("entry track {}", track.name));
        }
        s
    }

    fn names_counters(&self) -> Space {
        let d = &self.data;
        let mut s =
            Space::new("counter", d.counters.iter().map(|c| c.name.clone()).collect(), d.counters.iter().map(|c| c.id.clone()).collect());
        for (i, c) in d.counters.iter().enumerate() {
            if !c.romaji.is_empty() && !s.names.contains(&c.romaji) {
                s = s.alias(c.romaji.clone(), i as u64);
            }
        }
        s.or_none(NONE as u64)
    }

    fn names_cards(&self) -> Space {
        let d = &self.data;
        Space::new("card", d.cards.iter().map(|c| c.name.clone()).collect(), d.cards.iter().map(|c| c.id.clone()).collect())
            .or_none(NONE as u64)
    }

    pub(super) fn named_conv(&self) -> Conv {
        let d = &self.data;
        let castles = || Space::plain("castle", d.castles.iter().map(|c| c.name.clone()));
        Conv::Fields(vec![
            (
                "units",
                Conv::Placed {
                    pieces: self.names_counters(),
                    groups: d.counters.iter().map(|c| title_words(SIDES[c.side as usize])).collect(),
                    place_field: "loc",
                    places: self.names_places(),
                    plain: d.counters.iter().map(|c| json!({"side": c.side, "faction": c.faction, "flipped": false})).collect(),
                    rest: Box::new(Conv::Fields(vec![("side", Conv::Index(self.names_sides()))])),
                },
            ),
            ("castle_west", Conv::Bits(castles())),
            ("castle_alive", Conv::Bits(castles())),
            ("kyoto_owner", Conv::Index(self.names_sides())),
            ("morale", Conv::Keyed(Space::plain("track", d.morale_tracks.iter().map(|t| t.name.clone())), None, Box::new(Conv::Same))),
            ("entry", Conv::Keyed(Space::plain("entry track", d.entry.iter().map(|t| t.name.clone())), None, Box::new(Conv::Same))),
            ("deck", Conv::Bits(self.names_cards())),
            ("discard", Conv::Bits(self.names_cards())),
            ("card", Conv::Index(self.names_cards())),
            ("acted", Conv::BigBits(self.names_counters())),
            ("used", Conv::BigBits(self.names_counters())),
            ("group", Conv::BigBits(self.names_counters())),
            ("cmdr", Conv::Index(self.names_counters())),
            (
                "fight",
                Conv::Fields(vec![
                    ("from", Conv::Index(self.names_hexes())),
                    ("target", Conv::Index(self.names_hexes())),
                    ("queue", Conv::BigBits(self.names_counters())),
                ]),
            ),
            (
                "pending",
                Conv::Fields(vec![
                    ("PlotDie", Conv::Fields(vec![("hex", Conv::Index(self.names_hexes()))])),
                    ("Allocate", Conv::Fields(vec![("side", Conv::Index(self.names_sides()))])),
                ]),
            ),
            ("winner", Conv::Index(self.names_sides().with(2, "draw"))),
            ("occ", Conv::Keyed(self.names_hexes(), Some(json!([0, 0])), Box::new(Conv::Same))),
            ("zoc", Conv::Keyed(self.names_hexes(), Some(json!([0, 0])), Box::new(Conv::Same))),
        ])
    }
}
