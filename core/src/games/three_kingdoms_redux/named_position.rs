//! Three Kingdoms Redux positions written by name (docs/positions.md,
//! docs/rules/three_kingdoms_redux.md): kingdoms (Wei, Wu, Shu), generals, development cards
//! and regions by their English names (the data ids and Korean names are read too), actions by
//! the ids of the action board, unit types and weapons by name.

use serde_json::json;

use super::data::{ACTIONS, KINGDOMS, UNITS};
use super::state::NONE;
use super::Tkr;
use crate::named::{Conv, Space};

/// A space of component-data entries named by their English names (the data ids where two
/// share a name), with their ids and printed names read too.
fn data_space<'a>(what: &'static str, entries: impl Iterator<Item = (&'a String, &'a String, Vec<&'a String>)>) -> Space {
    let (mut names, mut ids, mut aliases) = (Vec::new(), Vec::new(), Vec::new());
    for (i, (name, id, printed)) in entries.enumerate() {
        names.push(name.clone());
        ids.push(id.clone());
        aliases.extend(printed.into_iter().map(|a| (a.clone(), i as u64)));
    }
    aliases.into_iter().fold(Space::new(what, names, ids), |s, (a, i)| s.alias(a, i)).or_none(NONE as u64)
}

impl Tkr {
    fn names_kingdoms(&self) -> Space {
        Space::plain("kingdom", KINGDOMS).or_none(NONE as u64)
    }

    fn names_generals(&self) -> Space {
        let g = &self.data.generals;
        data_space("general", g.iter().map(|x| (&x.name_en, &x.id, vec![&x.name_ko])))
    }

    fn names_developments(&self) -> Space {
        let d = &self.data.developments;
        data_space("development", d.iter().map(|x| (&x.name_en, &x.id, vec![&x.name_ko])))
    }

    fn names_regions(&self) -> Space {
        let r = &self.data.regions;
        data_space("region", r.iter().map(|x| (&x.name_en, &x.id, vec![&x.name_ko, &x.name_zh])))
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
            ("bonus_queue", Conv::Each(Box::new(Conv::Tuple(vec![Conv::Index(self.names_cards()), Conv::Same])))),
            ("pending", self.pending_conv()),
            ("queue", Conv::Each(Box::new(self.deferred_conv()))),
        ])
    }

    /// The pending decision's seats, actions, generals, regions and cards by name.
    fn pending_conv(&self) -> Conv {
        let seat = || ("seat", Conv::Index(self.names_kingdoms()));
        let action = || ("action", Conv::Index(self.names_actions()));
        let general = || ("general", Conv::Index(self.names_generals()));
        let region = || ("region", Conv::Index(self.names_regions()));
        let card = || ("card", Conv::Index(self.names_cards()));
        let development = |field| (field, Conv::Index(self.names_developments()));
        Conv::Fields(vec![
            ("DrawDev", Conv::Fields(vec![seat()])),
            ("DrawGeneral", Conv::Fields(vec![seat()])),
            ("Keep", Conv::Fields(vec![seat()])),
            ("DevelopMode", Conv::Fields(vec![action()])),
            ("Bank", Conv::Fields(vec![action()])),
            ("ArmyCost", Conv::Fields(vec![development("dev")])),
            ("Produce", Conv::Fields(vec![action()])),
            ("OccupyGeneral", Conv::Fields(vec![action()])),
            ("OccupyRegion", Conv::Fields(vec![action(), general()])),
            ("OccupyUnits", Conv::Fields(vec![action(), general(), region()])),
            ("OccupyStore", Conv::Fields(vec![region()])),
            ("BonusChoice", Conv::Fields(vec![card()])),
            ("Protect", Conv::Fields(vec![development("card")])),
            ("Exchange", Conv::Fields(vec![card()])),
        ])
    }

    /// The prompts queued behind the current step, their seats, actions and cards by name.
    fn deferred_conv(&self) -> Conv {
        let seat = || ("seat", Conv::Index(self.names_kingdoms()));
        Conv::Fields(vec![
            ("Weapons", Conv::Fields(vec![seat()])),
            ("Choose", Conv::Fields(vec![seat(), ("card", Conv::Index(self.names_cards()))])),
            ("Bonuses", Conv::Fields(vec![seat()])),
            ("Tribal12", Conv::Fields(vec![seat()])),
            ("Finish", Conv::Fields(vec![seat(), ("action", Conv::Index(self.names_actions()))])),
        ])
    }
}
