//! The observation tensor's layout and its `[0, 1]` guarantee. The encoder is `view::tensor`
//! (what a seat may see, beside the view); its counts are divided by caps rather than hard
//! maxima (gold and rice have no supply limit, and the other supplies only with
//! `component_limits`), so the encoder clamps every value into `[0, 1]` as it writes it
//! (RULES_NOTES.md T31). It clears the buffer, then writes every element in order (only the
//! ones of masks and one-hot ranges), as floats or directly as bytes.

use super::state::State;
use super::{view, Tkr};
use crate::game::Player;
use crate::layout::{Feature, LayoutBuilder};

/// Seat names in seat order (the per-seat blocks of the tensor).
const SEATS: [&str; 3] = ["wei", "wu", "shu"];

/// The named ranges of the tensor, in the order `view::tensor` fills them.
pub fn layout(g: &Tkr) -> Vec<Feature> {
    let (gn, d, r) = (g.data.generals.len(), g.data.developments.len(), g.data.regions.len());
    let mut b = LayoutBuilder::new();
    for name in SEATS {
        b = b.unit(
            format!("seat_{name}"),
            27 + d + 36,
            "27 scalars (gold/30, rice/30, support/15, untrained/20, trained/20, spear, horse, crossbow, ship /15, \
             deficits/10, tribal/12, office/5, military/50, farm level, area, granary /5, market level, area, treasury /5, \
             granary and treasury region tokens /15, hand size/20, passed, actions won/18, bid position one-hot 3; clamped), \
             built developments (one flag per card), actions won (18 flags), actions still to perform (18 flags)",
        );
    }
    b.unit(
        "generals",
        gn * 5,
        "per general (data order), 5 values: recruited and available, stationed, placed this round, flipped on Control Han \
         Emperor, drawn (0.5) or chosen (1) by the observer (own generals only)",
    )
    .unit("own_hand", d, "the observer's development hand, one flag per card")
    .unit("own_imports", d, "the observer's imported cards, one flag per card")
    .unit("own_bottom", d, "the cards the observer put at the bottom of a deck that are still there, one flag per card")
    .unit("deck_bottoms", 2, "each development deck's known bottom size / 10 (clamped)")
    .unit("regions", r * 5, "per region (data order), 5 values: occupant one-hot (Wei, Wu, Shu), token flipped, units / 2")
    .unit("bids", 54, "per action (18), each seat's bid total / 20 (clamped)")
    .unit("round", 1, "round / 12 (clamped)")
    .unit("han_criterion", 1, "the Control Han Emperor criterion (0 or 1)")
    .unit("han_holder", 4, "one-hot Han token holder: Wei, Wu, Shu, nobody")
    .unit("alliance_action", 18, "one-hot alliance action of this round")
    .unit("last_alliance_action", 18, "one-hot alliance action of the previous round")
    .unit("pending", 40, "one-hot kind of the pending decision (35 used)")
    .unit("seat_to_act", 3, "one-hot seat to act (zeros when the game is over)")
    .unit("observer", 4, "one-hot observer: Wei, Wu, Shu, spectator")
    .unit("game_over", 1, "the game is over")
    .build()
}

pub fn write(g: &Tkr, s: &State, player: Player, out: &mut [f32]) {
    view::tensor(g, s, player, out);
}

/// The tensor as bytes, written directly (the same bytes as quantizing the floats).
pub fn write_u8(g: &Tkr, s: &State, player: Player, out: &mut [u8]) {
    view::tensor_u8(g, s, player, out);
}
