//! The state: counters, castles, tracks, the deck and the pending decision.

use serde::{Deserialize, Serialize};

use super::data::Faction;
use crate::rng::Rng;

/// `Unit::loc` of a counter on entry track `t` (R 9.0).
pub const TRACK: u16 = 0xFFF0;
/// `Unit::loc` of a removed counter.
pub const DEAD: u16 = 0xFFFF;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub loc: u16,
    pub side: u8,
    pub faction: Faction,
    pub flipped: bool,
}

/// What the group of the acting commander is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Mode {
    Move,
    Strategic,
    Attack,
    Recover,
    /// The commander picks who advances with him after combat (R 7.3①).
    Advance,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Pending {
    /// East places the `next`-th 外様主力 counter (R 3.0(1)①).
    Setup {
        next: u8,
    },
    /// Chance: the next card.
    Draw,
    /// The card owner may choose a hex for a 調略 / 恫喝判定 (R 12.0).
    Plot,
    /// Chance: the 調略 / 恫喝 die.
    PlotDie {
        hex: u16,
        intimidate: bool,
    },
    /// The card owner chooses which 戦意 marker the card moves.
    Marker,
    /// The card owner chooses the next commander to act, or passes.
    Commander,
    /// The chosen commander's action (R 5.1(1)).
    ActionChoice,
    /// Units join the commander's group.
    Select {
        mode: Mode,
    },
    /// Chance: the strategic move die (R 6.2(2)①).
    StratDie,
    /// The group moves hex by hex.
    Moving,
    /// The attack's target hex.
    Target,
    /// Chance: the next combat die.
    Dice,
    /// `side` allocates the next hit.
    Allocate {
        side: u8,
    },
    /// Advance after combat (R 7.3).
    Advance,
    Over,
}

/// An attack in progress (R 7.1-7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fight {
    pub from: u16,
    pub target: u16,
    pub dir: u8,
    pub siege: bool,
    /// 0: the besieged fire first (R 7.2); 1: the attack.
    pub stage: u8,
    /// Units still to roll in this stage; while the commander picks who advances (R 7.3), the
    /// surviving attack group.
    #[serde(with = "mask")]
    pub queue: u128,
    pub hits: u8,
    /// Modifier of the attacker's dice (R 7.1(3), 7.2(2)).
    pub modifier: i8,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub units: Vec<Unit>,
    /// West-owned castles (bit per castle) and castles that still work as castles (R 10.0(4)).
    pub castle_west: u64,
    pub castle_alive: u64,
    pub kyoto_owner: u8,
    /// 調略 marker box (index into the track; the ends are the victory boxes).
    pub chouryaku: u8,
    /// 戦意 marker boxes, one per track (index from the East end).
    pub morale: Vec<u8>,
    /// Entry track boxes; `boxes.len()` = arrived (R 9.0).
    pub entry: Vec<u8>,
    /// Cards in the deck, in the discard pile (bits by card index).
    pub deck: u32,
    pub discard: u32,
    pub turn: u16,
    pub first_draw: bool,
    pub hideyori_left: bool,
    /// R 13.0(1): the condition for 秀頼 to leave 大坂 has held once; he is free for good.
    #[serde(default)]
    pub hideyori_released: bool,
    pub ieyasu_arrived: bool,
    pub card: u8,
    /// Card program: 0 start, 1 activations, 2 marker after, 3 end.
    pub stage: u8,
    pub picks: u8,
    #[serde(with = "mask")]
    pub acted: u128,
    #[serde(with = "mask")]
    pub used: u128,
    pub cmdr: u8,
    #[serde(with = "mask")]
    pub group: u128,
    pub mp: u8,
    /// The move in progress is a strategic move (R 6.2(2)).
    pub strategic: bool,
    pub fight: Option<Fight>,
    pub pending: Pending,
    /// 0 East, 1 West, 2 draw (when over).
    pub winner: u8,
    /// Per hex: counters of each side, and of those the ones with a ZOC (R 6.3, 13.0(4)).
    pub occ: Vec<[u8; 2]>,
    pub zoc: Vec<[u8; 2]>,
    pub rng: Rng,
}

pub fn bit(u: u8) -> u128 {
    1u128 << u
}

pub use crate::bits::bits;

/// Counter masks (u128) are saved as decimal strings: JSON numbers stop at 64 bits.
mod mask {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(m: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&m.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
