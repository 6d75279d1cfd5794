//! The game state: a plain value (RNG inside), with every piece on the board and behind the
//! screens. Seats: 0 Wei, 1 Wu, 2 Shu.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

pub const NONE: u8 = u8::MAX;

/// Where a general is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum GLoc {
    /// In its kingdom's general deck.
    Deck,
    /// Drawn during a recruitment, not yet chosen (hidden from the others).
    Drawn,
    /// Chosen, face down until the reveal (hidden from the others).
    Chosen,
    /// Recruited and available (public).
    Active,
    /// Standing on a border region until the game ends.
    Stationed,
}

/// One player's supply and tracks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Seat {
    pub gold: i32,
    pub rice: i32,
    pub support: i32,
    pub untrained: i32,
    pub trained: i32,
    /// spear, horse, crossbow, ship
    pub weapons: [i32; 4],
    pub deficits: i32,
    pub tribal: i32,
    pub office: u8,
    pub military: i32,
    pub farm_level: u8,
    /// Developed farm tokens still in the farm area (C11).
    pub farm_area: u8,
    pub granary_farm: u8,
    pub market_level: u8,
    pub market_area: u8,
    pub treasury_market: u8,
    /// Region tokens (bit r) in the granary / treasury.
    pub granary_regions: u32,
    pub treasury_regions: u32,
    /// Development cards in hand (bit d), hidden from the others.
    pub hand: u64,
    /// Built developments (bit d), public.
    pub built: u64,
    /// Actions performed this round (bit a).
    pub performed: u32,
    /// Won actions not yet performed or declined this round (bit a).
    pub todo: u32,
    /// Actions this seat won this round (bit a; for counting and the Han token).
    pub won: u32,
    /// Deficit protections used this round.
    pub protections_used: u8,
    /// Cards drawn by Import Technology awaiting the keep choice (bit d), hidden.
    pub import_drawn: u64,
}

/// One placement turn on an action: a general with what came with it (C3, C7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub seat: u8,
    pub general: u8,
    pub action: u8,
    /// Unit type of the assigned units (NONE if none).
    pub unit: u8,
    pub units: u8,
    /// Gold placed on the tribal action.
    pub gold: u8,
    pub support: u8,
    pub han: bool,
    /// Ability and development bonuses added with this placement.
    pub bonus: i32,
    /// This placement's bid value (base + units + tokens + bonuses).
    pub value: i32,
    pub seq: u32,
}

/// A region's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionState {
    /// Occupying seat (NONE = empty).
    pub seat: u8,
    pub general: u8,
    pub unit: u8,
    pub units: u8,
    /// The region token shows its 1-VP side.
    pub flipped: bool,
}

/// The pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Pending {
    /// Chance: which side the Control Han Emperor criterion marker shows (§3-C).
    Criterion,
    /// Chance: a state-development card from deck `deck` (0 unity, 1 separation) for `seat`.
    DrawDev {
        seat: u8,
        deck: u8,
        left: u8,
        import: bool,
    },
    /// Chance: a general card from `seat`'s deck (recruitment).
    DrawGeneral {
        seat: u8,
        left: u8,
    },
    /// `seat` chooses one drawn general to keep (`left` more to choose).
    Keep {
        seat: u8,
        left: u8,
    },
    /// Bid-order player 3 places the alliance token (§7 2)).
    Alliance,
    /// The bidder places a general or passes.
    Bid,
    /// The chosen general's action.
    Target,
    /// Units, gold, support and the Han Emperor token placed with the general, then confirm.
    Extras,
    /// `seat` picks its next won action to perform or declines one (C26).
    ChooseAction,
    /// Develop or harvest/tax (action 0 or 1).
    DevelopMode {
        action: u8,
    },
    /// How many developed tokens to bank in the granary/treasury (action 0 or 1).
    Bank {
        action: u8,
    },
    /// Rice trade: skip, buy 1-3 lots or sell 1-3 lots.
    TradeRice,
    /// Weapon trade: skip, buy 1-2 lots or sell 1-2 lots.
    TradeWeapons,
    /// Choose weapon types: `left` picks; `give` = paying (selling) rather than taking.
    WeaponPick {
        left: u8,
        give: bool,
    },
    /// Hire an instructor: skip or train k.
    Hire,
    /// Import technology: skip or a deck.
    Import,
    /// Keep one of the imported cards (`left` more to keep).
    KeepImport {
        left: u8,
    },
    /// Build a development from hand or skip.
    Build,
    /// Build: how many of development `dev`'s `army` cost are paid with trained armies (the
    /// rest with untrained ones, C34).
    ArmyCost {
        dev: u8,
    },
    /// Produce: how many of the first weapon type (action 5 or 6).
    Produce {
        action: u8,
    },
    /// Train armies: how many.
    Train,
    /// Demand Tribute: which option.
    Tribute,
    /// Control Han Emperor: which winning general to flip.
    HanFlip,
    /// Battle: which winning general occupies (or none).
    OccupyGeneral {
        action: u8,
    },
    /// Battle: which region.
    OccupyRegion {
        action: u8,
        general: u8,
    },
    /// Battle: how many units.
    OccupyUnits {
        action: u8,
        general: u8,
        region: u8,
    },
    /// Battle: region token to the granary or the treasury.
    OccupyStore {
        region: u8,
    },
    /// choose_one bonus: which bundle (`effect` indexes the owner's effect list, see rules).
    BonusChoice {
        card: u16,
        effect: u8,
    },
    /// Tribal 12: pay 2 rice for 1 support? (C16)
    Tribal12,
    /// Deficit protection instead of a rebellion deficit? (`card` is the development)
    Protect {
        card: u8,
    },
    /// Round-end benefits: which one `seat` activates next (§8 5)).
    BenefitOrder,
    /// Action bonuses: which pending bonus (index into `State::bonus_queue`) `seat`
    /// resolves next (T10).
    BonusOrder,
    /// Round-end exchange (`card` 0..G generals, G.. developments; `left` uses).
    Exchange {
        card: u16,
        effect: u8,
        left: u8,
    },
    /// Nothing pending: `advance` continues the round.
    Auto,
    Over,
}

/// A prompt queued behind the current step (ability gains that need a choice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Deferred {
    /// `n` weapon picks: taken from the supply, or given (`give`) from the own supply.
    Weapons { seat: u8, n: u8, give: bool },
    /// A choose_one gain of `card`'s effect number `effect`.
    Choose { seat: u8, card: u16, effect: u8 },
    /// The action bonuses waiting in `State::bonus_queue`, resolved one at a time in the
    /// owner's order (T10).
    Bonuses { seat: u8 },
    /// Tribal action at 12: the support purchase prompt if it can be paid (C16).
    Tribal12 { seat: u8 },
    /// The end of the action being performed: pieces back, marked performed (§8 3)).
    Finish { seat: u8, action: u8 },
}

/// Macro stage of the round (what `advance` does next).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Stage {
    Setup,
    Recruit,
    Alliance,
    Bidding,
    Perform,
    TribalDecay,
    Benefits,
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub rng: Rng,
    pub round: u8,
    pub stage: Stage,
    pub pending: Pending,
    /// Seat to act (for player decisions).
    pub seat: u8,
    pub seats: [Seat; 3],
    pub gloc: Vec<GLoc>,
    /// Round in which each general was recruited (0 = not recruited).
    pub recruited_round: Vec<u8>,
    /// Round in which each development was built (0 = not built).
    pub built_round: Vec<u8>,
    /// Tokens on each card's reservoir (generals then developments; -1 = not yet stocked).
    pub reservoir: Vec<i8>,
    pub regions: Vec<RegionState>,
    /// Order in which each seat stationed its generals (region ids).
    pub stationed: [Vec<u8>; 3],
    /// Criterion of Control Han Emperor this round: 0 administration, 1 combat (Win Popular
    /// Support has the other, §7 c.).
    pub han_criterion: u8,
    pub han_holder: u8,
    /// The general flipped on Control Han Emperor (barred from bidding next round, C9).
    pub han_flipped: u8,
    /// Winner of this round's Control Han Emperor bid (gets the token in upkeep).
    pub han_winner: u8,
    pub bid_order: [u8; 3],
    /// Action order of this round's resolution (§8 2)).
    pub action_order: [u8; 3],
    pub alliance_action: u8,
    pub last_alliance_action: u8,
    // --- bidding ---
    pub placements: Vec<Placement>,
    /// Bid total and last-increase sequence per action per seat.
    pub totals: [[i32; 3]; 18],
    pub last_inc: [[u32; 3]; 18],
    /// 'side' development bonuses already added on an action (bit seat).
    pub side_bonus: [u8; 18],
    pub passed: [bool; 3],
    pub han_used: bool,
    pub seq: u32,
    /// The placement being built (Target / Extras).
    pub cur: Option<Placement>,
    /// Bid-turn pointer into bid_order.
    pub turn: u8,
    // --- resolution ---
    /// Index into action_order of the seat performing.
    pub cursor: u8,
    /// The action being performed (NONE between actions).
    pub acting: u8,
    /// Per-action scratch: the trade is in its weapon step, etc.
    pub scratch: u8,
    /// Action bonuses of the action being performed not yet resolved: (card, effect index),
    /// in card order (generals by id, then developments).
    pub bonus_queue: Vec<(u16, u8)>,
    /// The action whose bonuses are in `bonus_queue`.
    pub bonus_action: u8,
    /// Weapons picked so far in a trade lot (for selling: given).
    pub picks: [i32; 4],
    /// Recruitment: keep counts per seat (this recruitment).
    pub keep_left: [u8; 3],
    /// Round-end benefits already activated by the seat at `cursor` (bit = index in
    /// `benefits`).
    pub benefits_done: u32,
    /// Prompts waiting behind the current step.
    pub queue: Vec<Deferred>,
    /// The known bottom part of each development deck (0 unity, 1 separation): cards put
    /// back by Import Technology with the seat that put them there, next to be drawn first;
    /// drawn only when the unknown part of the deck is exhausted (T1). Known to that seat.
    pub bottom: [Vec<(u8, u8)>; 2],
    /// The cards of the current Import Technology in the order they were drawn.
    pub import_seq: Vec<u8>,
    pub end_reason: u8,
    pub final_scores: Vec<i32>,
}

impl State {
    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The generals placed this round, one bit per general (the data holds at most 120).
    pub fn placed_generals(&self) -> u128 {
        self.placements.iter().fold(0, |m, p| m | 1u128 << p.general)
    }
}
