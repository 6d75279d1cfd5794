//! Three Kingdoms Redux positions written by name (docs/positions.md,
//! docs/rules/three_kingdoms_redux.md): kingdoms (Wei, Wu, Shu), generals, development cards
//! and regions by their English names (the data ids and Korean names are read too), actions by
//! the ids of the action board, unit types and weapons by name.

use serde_json::json;

use super::data::{ACTIONS, KINGDOMS, UNITS};
use super::state::NONE;
use super::Tkr;
use crate::named::{Conv, Space};

impl Tkr {
    fn names_kingdoms(&self) -> Space {
        Space::plain("kingdom", KINGDOMS).or_none(NONE as u64)
    }

    fn names_generals(&self) -> Space {
        let d = &self.data;
        let mut s = Space::new(
            "general",
            d.generals.iter().map(|g| g.name_en.clone()).collect(),
            d.generals.iter().map(|g| g.id.clone()).collect(),
        );
        for (i, g) in d.generals.iter().enumerate() {
            s = s.alias(g.name_ko.clone(), i as u64);
        }
        s.or_none(NONE as u64)
    }

    fn names_developments(&self) -> Space {
        let d = &self.data;
        let mut s = Space::new(
            "development",
            d.developments.iter().map(|x| x.name_en.clone()).collect(),
            d.developments.iter().map(|x| x.id.clone()).collect(),
        );
        for (i, x) in d.developments.iter().enumerate() {
            s = s.alias(x.name_ko.clone(), i as u64);
        }
        s.or_none(NONE as u64)
    }

    fn names_regions(&self) -> Space {
        let d = &self.data;
        let mut s =
            Space::new("region", d.regions.iter().map(|r| r.name_en.clone()).collect(), d.regions.iter().map(|r| r.id.clone()).collect());
        for (i, r) in d.regions.iter().enumerate() {
            s = s.alias(r.name_ko.clone(), i as u64).alias(r.name_zh.clone(), i as u64);
        }
        s.or_none(NONE as u64)
    }

    fn names_actions(&self) -> Space {
        Space::plain("action", ACTIONS).or_none(NONE as u64)
    }

    /// Generals, then development cards: the cards with a reservoir.
    fn names_cards(&self) -> Space {
        let (g, d) = (self.names_generals(), self.names_developments());
        Space::plain("card", g.names.into_iter().chain(d.names))
    }

    pub(super) fn named_conv(&self) -> Conv {
        let per_kingdom = |c: Conv| Conv::Keyed(self.names_kingdoms(), None, Box::new(c));
        let units = || Space::plain("unit", UNITS).or_none(NONE as u64);
        let placement = || {
            Conv::Fields(vec![
                ("seat", Conv::Index(self.names_kingdoms())),
                ("general", Conv::Index(self.names_generals())),
                ("action", Conv::Index(self.names_actions())),
                ("unit", Conv::Index(units())),
            ])
        };
        let per_action = || Conv::Keyed(self.names_actions(), Some(json!([0, 0, 0])), Box::new(per_kingdom(Conv::Same)));
        Conv::Fields(vec![
            ("seat", Conv::Index(self.names_kingdoms())),
            (
                "seats",
                per_kingdom(Conv::Fields(vec![
                    ("granary_regions", Conv::Bits(self.names_regions())),
                    ("treasury_regions", Conv::Bits(self.names_regions())),
                    ("hand", Conv::Bits(self.names_developments())),
                    ("built", Conv::Bits(self.names_developments())),
                    ("performed", Conv::Bits(self.names_actions())),
                    ("todo", Conv::Bits(self.names_actions())),
                    ("won", Conv::Bits(self.names_actions())),
                    ("import_drawn", Conv::Bits(self.names_developments())),
                ])),
            ),
            ("gloc", Conv::Keyed(self.names_generals(), Some(json!("Deck")), Box::new(Conv::Same))),
            ("recruited_round", Conv::Keyed(self.names_generals(), Some(json!(0)), Box::new(Conv::Same))),
            ("built_round", Conv::Keyed(self.names_developments(), Some(json!(0)), Box::new(Conv::Same))),
            ("reservoir", Conv::Keyed(self.names_cards(), Some(json!(-1)), Box::new(Conv::Same))),
            (
                "regions",
                Conv::Keyed(
                    self.names_regions(),
                    Some(json!({"seat": NONE, "general": NONE, "unit": NONE, "units": 0, "flipped": false})),
                    Box::new(Conv::Fields(vec![
                        ("seat", Conv::Index(self.names_kingdoms())),
                        ("general", Conv::Index(self.names_generals())),
                        ("unit", Conv::Index(units())),
                    ])),
                ),
            ),
            ("stationed", per_kingdom(Conv::Each(Box::new(Conv::Index(self.names_regions()))))),
            ("han_holder", Conv::Index(self.names_kingdoms())),
            ("han_flipped", Conv::Index(self.names_generals())),
            ("han_winner", Conv::Index(self.names_kingdoms())),
            ("bid_order", Conv::Each(Box::new(Conv::Index(self.names_kingdoms())))),
            ("action_order", Conv::Each(Box::new(Conv::Index(self.names_kingdoms())))),
            ("alliance_action", Conv::Index(self.names_actions())),
            ("last_alliance_action", Conv::Index(self.names_actions())),
            ("placements", Conv::Each(Box::new(placement()))),
            ("cur", placement()),
            ("totals", per_action()),
            ("last_inc", per_action()),
            ("passed", per_kingdom(Conv::Same)),
            ("acting", Conv::Index(self.names_actions())),
            ("bonus_action", Conv::Index(self.names_actions())),
            ("keep_left", per_kingdom(Conv::Same)),
            ("import_seq", Conv::Each(Box::new(Conv::Index(self.names_developments())))),
        ])
    }
}
