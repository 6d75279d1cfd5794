//! The full game state: every block's place and flags, hands, decks and discard piles (as counts
//! per card type: copies of a type are interchangeable), control cubes, the turn track, the
//! movement and battle in progress, the owed chance draws and the pending decision.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::rng::Rng;

/// Block places beyond the map locations (which are `0..locations`).
pub const BAG: u8 = 100;
pub const BOX: u8 = 101;
pub const MORI_BOX: u8 = 102;
pub const DEAD: u8 = 103;

/// Block flags.
pub const MOVED: u8 = 1;
/// Mustered or arrived from the Mori box this turn: cannot move until the next turn (7.2, 9.3).
pub const MUSTERED: u8 = 2;
/// Inside the castle of its location (8.9.2).
pub const IN_CASTLE: u8 = 4;
/// Chosen for the group being moved, the muster being placed, or the castle during a retreat.
pub const SELECTED: u8 = 8;
/// Deployed in the current battle (face up).
pub const DEPLOYED: u8 = 16;
/// Deployed and then defected to the enemy in the current battle (8.6).
pub const DEFECTED: u8 = 32;
/// Revealed for the rest of the current move (a leader giving command, 7.3.4).
pub const SHOWN: u8 = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Blk {
    /// A location index, or [`BAG`], [`BOX`], [`MORI_BOX`], [`DEAD`].
    pub loc: u8,
    pub flags: u8,
    /// The location this block last entered its location from, or `NONE` (8.8.2).
    pub from: u8,
}

impl Blk {
    pub fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
}

/// The four movement modes (7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Mode {
    /// 0 cards: no stack moves; exchange any number of cards.
    NoMove,
    /// 0 cards: one stack or one muster.
    Minimal,
    /// 1 card: three stacks, one of which may be a muster.
    Limited,
    /// 2 cards: every stack, plus one muster.
    All,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::NoMove, Mode::Minimal, Mode::Limited, Mode::All];

    pub fn cards(self) -> u8 {
        match self {
            Mode::NoMove | Mode::Minimal => 0,
            Mode::Limited => 1,
            Mode::All => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::NoMove => "no_move",
            Mode::Minimal => "minimal",
            Mode::Limited => "limited",
            Mode::All => "all",
        }
    }
}

/// The group of blocks being moved (7.3): they left `origin` together and are now at `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    pub origin: u8,
    pub at: u8,
    pub steps: u8,
    /// Every step so far was on a main road.
    pub all_main: bool,
    /// Size penalty (7.3.5), fixed by the group's size when it set out.
    pub penalty: u8,
    /// Command (7.3.4): from a castle or capital at the origin, or a revealed leader.
    pub command: bool,
    pub forced: bool,
    /// A forced march was paid and the group has not stepped since: it must step (7.3.3).
    pub march_owed: bool,
}

/// One deployment in a battle (8.2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deploy {
    pub block: u8,
    /// The side whose impact it counts for now (changes on defection).
    pub side: u8,
    /// Card type used, or `NONE` for a free leader deployment (8.2.4).
    pub card: u8,
    /// Impact from mons and the clan bonus (8.3).
    pub impact: u8,
    /// Impact from the special attack (8.4.1).
    pub special: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub loc: u8,
    pub attacker: u8,
    pub siege: bool,
    /// The side that held the castle here before the battle, or `NONE` (8.8.4, 8.9.1).
    pub holder: u8,
    pub impact: [u16; 2],
    /// Side to deploy next (8.5).
    pub initiative: u8,
    /// Declared that it deploys no more.
    pub done: [bool; 2],
    /// Has deployed with a card (ends free leader deployment, 8.2.4).
    pub carded: [bool; 2],
    /// The deployments in order (inline up to 16; a longer list spills to the heap).
    pub deploys: SmallVec<[Deploy; 16]>,
    /// Cards played in this battle, per card type (discarded and replaced afterwards, 8.10);
    /// inline up to 32 card types (the published game has 26).
    pub used: SmallVec<[u8; 32]>,
    /// Index into `deploys` of the last card deployment (1 or 2 blocks), for a challenge.
    pub last: u8,
    /// Casualties still to take, per side.
    pub hits: [u8; 2],
    pub lost: [u8; 2],
    pub winner: u8,
    /// Commanders eliminated in this battle (2.1).
    pub commander_lost: [bool; 2],
}

/// The decision the game waits for. Chance draws owed (`State::due`) come first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Pending {
    /// 6.2: discard half the hand (rounding chosen by the player).
    ReinforceDiscard {
        side: u8,
    },
    /// 6.3: bid a card face down (sequentialized; the second bidder does not see the first).
    Bid {
        side: u8,
    },
    /// 6.3: the bid winner chooses who goes first.
    ChooseFirst {
        side: u8,
    },
    /// 7.1: choose the movement mode.
    Mode,
    /// 7.1: discard the mode's cards.
    PayMode {
        left: u8,
    },
    /// 7.1 no movement: discard any number of cards, then draw as many.
    Exchange {
        discarded: u8,
    },
    /// 7.1: start a stack, muster, or end the phase.
    Menu,
    /// 7.3: choose blocks of the stack at `group.origin`, then step along roads.
    Group,
    /// 7.2: choose blocks from the recruitment box for option A or B.
    Muster {
        loc: u8,
        option_a: bool,
    },
    /// 8.1: choose the next battle.
    Combat,
    /// 8.9.2: the castle holder chooses to stay inside (siege) or fight outside.
    SiegeChoice {
        side: u8,
    },
    /// 8.2.3/8.5: the side with the initiative deploys or declares it is done.
    Deploy,
    /// 8.2.3: choose the block for the card just played.
    DeployBlock {
        card: u8,
    },
    /// 8.4.2: optionally a second block for a double card.
    DeploySecond {
        card: u8,
    },
    /// 8.6.1: the opponent of the last deployment may play a Loyalty Challenge.
    Challenge,
    /// 8.6.1: the challenged side shows a matching card.
    Refute,
    /// 8.7.2 / 8.9.4 C: choose the blocks (or disks) lost.
    Casualty {
        side: u8,
    },
    /// 8.8.4: up to two blocks into the castle held before the battle.
    RetreatCastle,
    /// 8.8: the destination of the retreating blocks.
    Retreat,
    /// 8.8.5: the retreating blocks reached `to`, where their side is besieged in its castle
    /// (blocks or a disk inside): `Siege` joins the garrison, `Field` stays outside.
    JoinGarrison {
        to: u8,
    },
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum EndReason {
    /// 2.1: a commander eliminated or Hideyori captured.
    Immediate,
    /// 2.2: victory points after the last week.
    Points,
}

/// Chance draws the game owes before the next decision, in this order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Due {
    /// Random setup placements (5.2.2): `(location or BOX, side)`, drawn front to back.
    pub setup: Vec<(u8, u8)>,
    /// Blocks owed to each recruitment box (6.2).
    pub blocks: [u8; 2],
    /// Cards owed to each hand.
    pub cards: [u8; 2],
}

impl Due {
    pub fn any(&self) -> bool {
        !self.setup.is_empty() || self.blocks != [0, 0] || self.cards != [0, 0]
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub rng: Rng,
    /// 1-based week.
    pub week: u8,
    /// 0 = turn A, 1 = turn B.
    pub turn: u8,
    /// Step within the turn: 0 first player's movement, 1 its combat, 2 second's movement, 3 its combat.
    pub step: u8,
    /// Side that goes first this week.
    pub first: u8,
    pub blocks: Vec<Blk>,
    /// Disks still in play.
    pub disks: Vec<bool>,
    /// Cards per card type (each type belongs to one side).
    pub hand: Vec<u8>,
    pub deck: Vec<u8>,
    pub discard: Vec<u8>,
    /// Controller of each resource location (`NONE` until first taken, 4.2).
    pub resource: Vec<u8>,
    /// Controller of each castle (`NONE` where there is none, 4.3).
    pub castle: Vec<u8>,
    /// Bids (card type, or `NONE` for an empty hand) of this week (6.3).
    pub bids: [u8; 2],
    pub bid_made: [bool; 2],
    /// Cards discarded at the reinforcement step, shown when both sides are done.
    pub reinforce_discards: Vec<u8>,
    pub reinforce_done: [u8; 2],
    // ---- movement phase ----
    pub mode: Mode,
    pub stacks_left: u8,
    pub muster_left: bool,
    pub roads_used: u64,
    pub origins_used: u64,
    pub group: Group,
    // ---- combat phase ----
    pub declared: u64,
    /// A battle caused by a retreat, fought next (8.8.5): `(location, attacker)`.
    pub forced: Option<(u8, u8)>,
    /// The battle being fought, kept inline: declaring one does not allocate.
    pub battle: Option<Battle>,
    pub due: Due,
    pub pending: Pending,
    pub winner: u8,
    pub end: Option<EndReason>,
}

impl State {
    /// The side whose movement or combat phase it is.
    pub fn active(&self) -> u8 {
        if self.step < 2 {
            self.first
        } else {
            1 - self.first
        }
    }

    pub fn in_movement(&self) -> bool {
        self.step % 2 == 0
    }

    pub fn hand_size(&self, g: &super::Sekigahara, side: u8) -> u32 {
        g.data.side_cards[side as usize].iter().map(|&c| self.hand[c as usize] as u32).sum()
    }

    pub fn pile_size(&self, g: &super::Sekigahara, pile: &[u8], side: u8) -> u32 {
        g.data.side_cards[side as usize].iter().map(|&c| pile[c as usize] as u32).sum()
    }

    /// Blocks of `side` at location `loc`.
    pub fn count_at(&self, g: &super::Sekigahara, side: u8, loc: u8) -> u32 {
        self.blocks.iter().zip(&g.data.blocks).filter(|(b, d)| b.loc == loc && d.side == side).count() as u32
    }

    /// Disks of `side` still in play at `loc`.
    pub fn disks_at(&self, g: &super::Sekigahara, side: u8, loc: u8) -> u32 {
        g.data.disks.iter().zip(&self.disks).filter(|(d, &alive)| alive && d.location == loc && d.side == side).count() as u32
    }

    /// Blocks and disks of `side` at `loc`.
    pub fn units_at(&self, g: &super::Sekigahara, side: u8, loc: u8) -> u32 {
        self.count_at(g, side, loc) + self.disks_at(g, side, loc)
    }

    pub fn contested(&self, g: &super::Sekigahara, loc: u8) -> bool {
        self.units_at(g, 0, loc) > 0 && self.units_at(g, 1, loc) > 0
    }

    pub fn is_over(&self) -> bool {
        self.pending == Pending::Over
    }
}

/// Blocks and disks per location and side, counted in one pass (for move generation).
pub struct Census {
    pub blocks: [[u8; 2]; 64],
    pub disks: [[u8; 2]; 64],
}

impl Census {
    pub fn of(g: &super::Sekigahara, s: &State) -> Census {
        let mut c = Census { blocks: [[0; 2]; 64], disks: [[0; 2]; 64] };
        for (b, d) in s.blocks.iter().zip(&g.data.blocks) {
            if (b.loc as usize) < 64 {
                c.blocks[b.loc as usize][d.side as usize] += 1;
            }
        }
        for (d, &alive) in g.data.disks.iter().zip(&s.disks) {
            if alive {
                c.disks[d.location as usize][d.side as usize] += 1;
            }
        }
        c
    }

    pub fn units(&self, side: u8, loc: u8) -> u32 {
        (self.blocks[loc as usize][side as usize] + self.disks[loc as usize][side as usize]) as u32
    }

    pub fn contested(&self, loc: u8) -> bool {
        self.units(0, loc) > 0 && self.units(1, loc) > 0
    }
}
