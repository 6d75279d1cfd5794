//! Samurai positions written by name (docs/positions.md, docs/rules/samurai.md): seats as
//! "Player 1".."Player 4", hexes as "hex <number>" (the numbers the board and the event
//! sentences print), settlements by their hex, tokens by face ("samurai-2"; where a seat has
//! two copies of a face, "samurai-1 (1)" and "samurai-1 (2)") and figures by type.

use serde_json::json;

use super::state::EMPTY;
use super::Samurai;
use crate::named::{Conv, Space};

/// The three figure types (rulebook 2.1), in the order of the state's per-type counts.
const FIGURES: [&str; 3] = ["helmet", "buddha", "rice"];

impl Samurai {
    fn names_seats(&self) -> Space {
        Space::plain("seat", (1..=4).map(|i| format!("Player {i}")))
    }

    fn names_hexes(&self) -> Space {
        Space::plain("hex", self.data().hexes.iter().map(|h| format!("hex {}", h.id)))
    }

    fn names_settlements(&self) -> Space {
        Space::plain("settlement", self.data().settlements.iter().map(|t| format!("hex {}", t.hex)))
    }

    fn names_tokens(&self) -> Space {
        let tokens = &self.data().tokens;
        let names = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let copies = tokens.iter().filter(|u| u.name == t.name).count();
                if copies > 1 {
                    format!("{} ({})", t.name, tokens[..=i].iter().filter(|u| u.name == t.name).count())
                } else {
                    t.name.clone()
                }
            })
            .collect::<Vec<_>>();
        Space::plain("token", names)
    }

    fn names_figures(&self) -> Space {
        Space::plain("figure", FIGURES)
    }

    pub(super) fn named_conv(&self) -> Conv {
        let per_type = || Conv::Keyed(self.names_figures(), None, Box::new(Conv::Same));
        let per_seat_tokens = || Conv::Keyed(self.names_seats(), Some(json!(0)), Box::new(Conv::Bits(self.names_tokens())));
        let figure_bits: Vec<(u64, &'static str)> = FIGURES.iter().enumerate().map(|(i, f)| (1u64 << i, *f)).collect();
        Conv::Fields(vec![
            ("seat", Conv::Index(self.names_seats())),
            ("hands", per_seat_tokens()),
            ("stacks", per_seat_tokens()),
            (
                "cells",
                Conv::Keyed(self.names_hexes(), Some(json!(EMPTY)), Box::new(Conv::Pair(5, self.names_seats(), self.names_tokens()))),
            ),
            ("figures", Conv::Keyed(self.names_settlements(), Some(json!(0)), Box::new(Conv::Flags(figure_bits)))),
            ("resolved", Conv::Bits(self.names_settlements())),
            ("supply", per_type()),
            ("on_board", per_type()),
            ("set_aside", per_type()),
            ("captured", Conv::Keyed(self.names_seats(), Some(json!([0, 0, 0])), Box::new(per_type()))),
            (
                "turn",
                Conv::Fields(vec![(
                    "pending",
                    Conv::Fields(vec![
                        (
                            "SwapFigure",
                            Conv::Fields(vec![
                                ("settlement", Conv::Index(self.names_settlements())),
                                ("figure", Conv::Index(self.names_figures())),
                            ]),
                        ),
                        ("ReplaceToken", Conv::Fields(vec![("token", Conv::Index(self.names_tokens()))])),
                    ]),
                )]),
            ),
            ("end", Conv::Fields(vec![("TypeExhausted", Conv::Index(self.names_figures()))])),
        ])
    }
}
