//! Component data: 69 generals, 42 state developments, 15 border regions, the 18 actions and
//! their parameters, tracks, setup, recruitment and scoring, read once into typed tables.
//!
//! The embedded file `data/three_kingdoms_redux.json` is the reference file
//! three_kingdoms_redux.json (README: component data and its provenance) unchanged (schema_version 2), provenance of every field included. A replacement file with
//! the same schema can be passed as the config key `"data"`; it is validated here (every error
//! names the bad field) before any game uses it. Every ability and development effect becomes
//! an [`Effect`] of the 18-type vocabulary: the rules code never looks at a card name.

use serde_json::Value;

mod load;

/// The embedded component data.
pub const EMBEDDED: &str = include_str!("data/three_kingdoms_redux.json");

/// Seats: 0 Wei, 1 Wu, 2 Shu (fixed by the rulebook's asymmetric setup).
pub const KINGDOMS: [&str; 3] = ["Wei", "Wu", "Shu"];
pub const KINGDOMS_KO: [&str; 3] = ["위", "오", "촉"];

/// Unit / weapon types: infantry (spear), cavalry (horse), archer (crossbow), navy (ship).
pub const UNITS: [&str; 4] = ["infantry", "cavalry", "archer", "navy"];
pub const WEAPONS: [&str; 4] = ["spear", "horse", "crossbow", "ship"];

/// The 18 actions in their fixed order (the data must hold exactly these ids).
pub const ACTIONS: [&str; 18] = [
    "develop_farm_or_harvest",
    "develop_market_or_tax",
    "trade_rice_weapons",
    "hire_instructor_import_tech",
    "build_state_development",
    "produce_spear_horse",
    "produce_crossbow_ship",
    "recruit_armies",
    "train_armies",
    "demand_tribute",
    "win_popular_support",
    "control_han_emperor",
    "battle_shu_wei",
    "battle_shu_wu",
    "battle_wei_wu",
    "tribal_xiongnu",
    "tribal_shanyue",
    "tribal_nanman",
];
pub const A_FARM: u8 = 0;
pub const A_MARKET: u8 = 1;
pub const A_TRADE: u8 = 2;
pub const A_INSTRUCT: u8 = 3;
pub const A_BUILD: u8 = 4;
pub const A_SPEAR_HORSE: u8 = 5;
pub const A_CROSSBOW_SHIP: u8 = 6;
pub const A_RECRUIT: u8 = 7;
pub const A_TRAIN: u8 = 8;
pub const A_TRIBUTE: u8 = 9;
pub const A_SUPPORT: u8 = 10;
pub const A_HAN: u8 = 11;
pub const A_BATTLE0: u8 = 12;
pub const A_TRIBAL0: u8 = 15;
pub const NUM_ACTIONS: usize = 18;

/// Borders in the order of the battle actions: shu_wei, shu_wu, wei_wu.
pub const BORDERS: [&str; 3] = ["shu_wei", "shu_wu", "wei_wu"];
/// The two kingdoms of each border.
pub const BORDER_SEATS: [[u8; 2]; 3] = [[2, 0], [2, 1], [0, 1]];

/// The borders of a seat (its two battle actions), in border order.
pub fn borders_of(seat: usize) -> [u8; 2] {
    match seat {
        0 => [0, 2],
        1 => [1, 2],
        _ => [0, 1],
    }
}

/// The neighbour across border `b` from `seat`.
pub fn neighbour(b: u8, seat: usize) -> usize {
    let [x, y] = BORDER_SEATS[b as usize];
    if x as usize == seat {
        y as usize
    } else {
        x as usize
    }
}

/// Bundle keys (effects vocabulary `bundle_keys`), in this fixed order.
pub const BUNDLE_KEYS: [&str; 14] = [
    "gold",
    "rice",
    "support",
    "untrained",
    "trained",
    "army",
    "spear",
    "horse",
    "crossbow",
    "ship",
    "weapon",
    "train",
    "tribal",
    "military",
];
pub const B_GOLD: usize = 0;
pub const B_RICE: usize = 1;
pub const B_SUPPORT: usize = 2;
pub const B_UNTRAINED: usize = 3;
pub const B_TRAINED: usize = 4;
pub const B_ARMY: usize = 5;
pub const B_SPEAR: usize = 6;
pub const B_WEAPON: usize = 10;
pub const B_TRAIN: usize = 11;
pub const B_TRIBAL: usize = 12;
pub const B_MILITARY: usize = 13;

/// A bundle of tokens: counts per [`BUNDLE_KEYS`] entry.
pub type Bundle = [i32; 14];

/// Metrics of the effects vocabulary, in this fixed order.
pub const METRICS: [&str; 19] = [
    "farm_level",
    "market_level",
    "domestic_total",
    "office_rank",
    "tribal",
    "support",
    "security_total",
    "military_score",
    "gold",
    "rice",
    "regions_occupied",
    "units_stationed_infantry",
    "units_stationed_cavalry",
    "units_stationed_archer",
    "units_stationed_navy",
    "generals_stationed",
    "flipped_region_tokens",
    "developments_built",
    "border_wins",
];

/// Numeric action parameters (`effects_vocabulary.action_params`): (action, name).
pub const PARAMS: [(u8, &str); 18] = [
    (A_FARM, "develop_farm.levels"),
    (A_FARM, "harvest.rice_per_token"),
    (A_MARKET, "develop_market.levels"),
    (A_MARKET, "collect_tax.gold_per_token"),
    (A_TRADE, "trade_rice.max_rice"),
    (A_TRADE, "trade_weapons.max_weapons"),
    (A_INSTRUCT, "hire_instructor.rice_cost"),
    (A_INSTRUCT, "hire_instructor.train_limit"),
    (A_INSTRUCT, "import_tech.draw"),
    (A_INSTRUCT, "import_tech.keep"),
    (A_BUILD, "builds"),
    (A_BUILD, "gold_discount"),
    (A_SPEAR_HORSE, "amount"),
    (A_CROSSBOW_SHIP, "amount"),
    (A_RECRUIT, "amount"),
    (A_RECRUIT, "as_trained"),
    (A_TRAIN, "train_limit"),
    (A_SUPPORT, "support"),
];
/// Parameters outside the table above: Han Emperor cost/exhaust and the tribal bonus steps.
pub const P_HAN_GOLD: usize = 18;
pub const P_HAN_EXHAUST: usize = 19;
pub const P_TRIBAL_BONUS: usize = 20;
pub const NUM_PARAMS: usize = 21;
pub const P_FARM_LEVELS: usize = 0;
pub const P_HARVEST_RICE: usize = 1;
pub const P_MARKET_LEVELS: usize = 2;
pub const P_TAX_GOLD: usize = 3;
pub const P_MAX_RICE: usize = 4;
pub const P_MAX_WEAPONS: usize = 5;
pub const P_HIRE_RICE: usize = 6;
pub const P_HIRE_LIMIT: usize = 7;
pub const P_IMPORT_DRAW: usize = 8;
pub const P_IMPORT_KEEP: usize = 9;
pub const P_GOLD_DISCOUNT: usize = 11;
pub const P_SPEAR_HORSE: usize = 12;
pub const P_CROSSBOW_SHIP: usize = 13;
pub const P_RECRUIT: usize = 14;
pub const P_AS_TRAINED: usize = 15;
pub const P_TRAIN_LIMIT: usize = 16;
pub const P_SUPPORT: usize = 17;

/// Action modes that effects may name (`effects_vocabulary.action_modes`).
pub const MODES: [&str; 9] =
    ["develop_farm", "harvest", "develop_market", "collect_tax", "trade_rice", "trade_weapons", "hire_instructor", "import_tech", "occupy"];
pub const M_HARVEST: u8 = 1;
pub const M_TAX: u8 = 3;
pub const M_IMPORT: u8 = 7;
pub const M_OCCUPY: u8 = 8;

/// A set of actions: bit a = action a; `own_tribal` adds the owner's tribal action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActSet {
    pub mask: u32,
    pub own_tribal: bool,
}

impl ActSet {
    pub fn has(self, action: u8, owner: usize) -> bool {
        self.mask & (1 << action) != 0 || (self.own_tribal && action as usize == A_TRIBAL0 as usize + owner)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Eq,
    Ge,
    Gt,
}

impl Op {
    pub fn test(self, a: i32, b: i32) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Eq => a == b,
            Op::Ge => a >= b,
            Op::Gt => a > b,
        }
    }
}

/// Conditions of the effects vocabulary.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Metric { metric: u8, op: Op, value: i32 },
    Highest(u8),
    RoundParity { even: bool },
    DidNotPerform(ActSet),
    AllianceAction,
    InAlliance,
    AlliedWith(u8),
    BidPosition(u8),
    AssignedUnits(u8),
    WithGeneral(u8),
    SelfStationed,
    SelfStationedOn(u8),
    HasAtLeast(Bundle),
    Built(u8),
    All(Vec<Cond>),
    Any(Vec<Cond>),
    Not(Box<Cond>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stat {
    Admin,
    Combat,
    Leadership,
    Higher,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upkeep {
    UnitGold,
    UnitRice,
    SupportRice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OccRule {
    AnyUnitType,
    Substitute { requires: u8, may_use: u8 },
    AlwaysFlip,
    IgnoreAlternation,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    Rebellion,
    Upkeep,
    Any,
}

/// A gain: a fixed bundle or one of several (the owner chooses).
#[derive(Clone, Debug, PartialEq)]
pub enum Gain {
    Fixed(Bundle),
    ChooseOne(Vec<Bundle>),
}

/// One effect object of the 18-type vocabulary.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    BidBonus { actions: ActSet, amount: i32, side: bool, cond: Option<Cond> },
    WinTies { actions: ActSet, cond: Option<Cond> },
    BidWithStat { actions: ActSet, stat: Stat },
    StatChange { stat: Stat, value: u8, round: u8 },
    ActionBonus { actions: ActSet, mode: Option<u8>, gain: Gain, per: Option<(u8, i32)>, self_scope: bool, cond: Option<Cond> },
    ActionParam { actions: ActSet, mode: Option<u8>, param: usize, delta: i32, set: Option<i32>, self_scope: bool },
    RoundEndIncome { gain: Gain, cond: Option<Cond> },
    RoundEndExchange { options: Vec<(Bundle, Bundle)>, times: u8, cond: Option<Cond> },
    CardReservoir { resource: usize, initial: i32, per_round: i32, cond: Option<Cond> },
    TribalNoDecay { cond: Option<Cond> },
    UpkeepReduction { upkeep: Upkeep, amount: i32, cond: Option<Cond> },
    ImmediateGain { gain: Gain },
    EndGameVp { vp: i32, per: Option<(u8, i32, i32)>, vp_each: i32, cond: Option<Cond> },
    RankingBonus { category: u8, amount: i32 },
    MilitaryScoreChange { on_build: bool, self_amount: i32, each_opponent: i32, transfer: bool, cond: Option<Cond> },
    OccupationRule(OccRule),
    RecruitmentBonus { draw_extra: u8, choose_extra: u8 },
    DeficitProtection { cause: Cause, pay: Bundle, max_per_round: u8 },
}

/// The 18 effect type names, in the order of [`Effect::kind`].
pub const EFFECT_TYPES: [&str; 18] = [
    "bid_bonus",
    "win_ties",
    "bid_with_stat",
    "stat_change_from_round",
    "action_bonus",
    "action_param",
    "round_end_income",
    "round_end_exchange",
    "card_reservoir",
    "tribal_no_decay",
    "upkeep_reduction",
    "immediate_gain",
    "end_game_vp",
    "ranking_bonus",
    "military_score_change",
    "occupation_rule",
    "recruitment_bonus",
    "deficit_protection",
];

impl Effect {
    /// Index into [`EFFECT_TYPES`].
    pub fn kind(&self) -> usize {
        match self {
            Effect::BidBonus { .. } => 0,
            Effect::WinTies { .. } => 1,
            Effect::BidWithStat { .. } => 2,
            Effect::StatChange { .. } => 3,
            Effect::ActionBonus { .. } => 4,
            Effect::ActionParam { .. } => 5,
            Effect::RoundEndIncome { .. } => 6,
            Effect::RoundEndExchange { .. } => 7,
            Effect::CardReservoir { .. } => 8,
            Effect::TribalNoDecay { .. } => 9,
            Effect::UpkeepReduction { .. } => 10,
            Effect::ImmediateGain { .. } => 11,
            Effect::EndGameVp { .. } => 12,
            Effect::RankingBonus { .. } => 13,
            Effect::MilitaryScoreChange { .. } => 14,
            Effect::OccupationRule(_) => 15,
            Effect::RecruitmentBonus { .. } => 16,
            Effect::DeficitProtection { .. } => 17,
        }
    }
}

#[derive(Clone, Debug)]
pub struct General {
    pub id: String,
    pub name_ko: String,
    pub name_en: String,
    pub kingdom: u8,
    pub ruler: bool,
    pub civil: bool,
    pub admin: u8,
    pub combat: u8,
    pub leadership: u8,
    /// Bit u = unit type u is a specialty.
    pub specialties: u8,
    pub ability: String,
    pub effects: Vec<Effect>,
}

#[derive(Clone, Debug)]
pub struct Development {
    pub id: String,
    pub name_ko: String,
    pub name_en: String,
    /// 0 unity (연합), 1 separation (분리).
    pub deck: u8,
    pub cost: Bundle,
    pub prerequisite: Option<Cond>,
    pub vp: i32,
    pub effects: Vec<Effect>,
}

#[derive(Clone, Debug)]
pub struct Region {
    pub id: String,
    pub name_ko: String,
    /// English and Chinese names (empty when the data has none).
    pub name_en: String,
    pub name_zh: String,
    pub border: u8,
    pub unit: u8,
}

/// A trade rate: pay `pay` of one good for `get` of the other, per lot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub pay: i32,
    pub get: i32,
}

/// Trade rates: [buy, sell] for rice (gold ↔ 4 rice) and weapons (gold ↔ 3 weapons).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rates {
    pub rice_buy: Rate,
    pub rice_sell: Rate,
    pub weapon_buy: Rate,
    pub weapon_sell: Rate,
}

/// The goods of the trade decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goods {
    Rice,
    Weapons,
}

impl Goods {
    /// The goods' name in an amount ("4 rice", "3 weapons").
    pub fn name(self) -> &'static str {
        match self {
            Goods::Rice => "rice",
            Goods::Weapons => "weapons",
        }
    }

    /// The name of its trade ("rice trade", "weapon trade").
    pub fn trade_name(self) -> &'static str {
        match self {
            Goods::Rice => "rice",
            Goods::Weapons => "weapon",
        }
    }
}

/// What a choice of a trade decision does, in goods (rice or weapons) and gold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trade {
    Nothing,
    Buy { goods: i32, gold: i32 },
    Sell { goods: i32, gold: i32 },
}

impl Rates {
    /// Choice `k` of the rice trade: 0 none, 1-3 buy that many lots, 4 and up sell `k - 3`.
    pub fn rice_trade(&self, k: i32) -> Trade {
        lots(k, 3, self.rice_buy, self.rice_sell)
    }

    /// Choice `k` of the weapon trade: 0 none, 1-2 buy that many lots, 3 and up sell `k - 2`.
    pub fn weapon_trade(&self, k: i32) -> Trade {
        lots(k, 2, self.weapon_buy, self.weapon_sell)
    }
}

/// Choice `k` of a menu of `buys` buying lots, then selling lots: a lot bought pays `buy.pay`
/// gold for `buy.get` goods, a lot sold pays `sell.pay` goods for `sell.get` gold.
fn lots(k: i32, buys: i32, buy: Rate, sell: Rate) -> Trade {
    match k {
        k if k <= 0 => Trade::Nothing,
        k if k <= buys => Trade::Buy { goods: k * buy.get, gold: k * buy.pay },
        k => Trade::Sell { goods: (k - buys) * sell.pay, gold: (k - buys) * sell.get },
    }
}

#[derive(Clone, Debug)]
pub struct Data {
    /// The English name of each action space, in [`ACTIONS`] order.
    pub action_names: Vec<String>,
    pub generals: Vec<General>,
    pub developments: Vec<Development>,
    pub regions: Vec<Region>,
    /// Criterion of each action: 0 administration, 1 combat, 2 variable, 3 battle, 4 tribal.
    pub criterion: [u8; NUM_ACTIONS],
    pub alliance_eligible: [bool; NUM_ACTIONS],
    pub param_default: [i32; NUM_PARAMS],
    /// Demand Tribute options.
    pub tribute: Vec<Bundle>,
    pub rates: Rates,
    pub rates_literal: Rates,
    pub start_gold: [i32; 3],
    pub start_rice: [i32; 3],
    pub start_support: [i32; 3],
    pub start_tribal: [i32; 3],
    /// Development cards dealt at setup: [separation, unity] per seat.
    pub start_hand: [[u8; 2]; 3],
    /// Setup recruitment: (draw, choose) per seat.
    pub setup_recruit: [(u8, u8); 3],
    /// Recruitment rounds: (round, [(draw, choose); 3]).
    pub recruit_rounds: Vec<(u8, [(u8, u8); 3])>,
    pub rounds: u8,
    pub tribal_max: i32,
    pub tribal_bonus: [i32; 13],
    pub office_vp: Vec<i32>,
    pub border_vp: [i32; 3],
    pub rank_vp: RankVp,
    pub han_vp: i32,
    pub deficit_vp: i32,
    /// Supply limits (component_limits): armies, spear, horse, crossbow, ship, support.
    pub limit_armies: i32,
    pub limit_weapons: [i32; 4],
    pub limit_support: i32,
    /// Rulers per seat.
    pub rulers: [u8; 3],
    /// Per seat, the non-ruler generals (the recruitment deck), ascending.
    pub decks: [Vec<u8>; 3],
    /// Per seat, all its generals (ruler included), ascending.
    pub by_kingdom: [Vec<u8>; 3],
    /// Development ids per deck [unity, separation].
    pub dev_decks: [Vec<u8>; 2],
    /// Provenance summary for info().
    pub provenance: Value,
    /// Switch defaults from the data (C14, C35, C18).
    pub default_literal_rates: bool,
    pub default_component_limits: bool,
    pub default_alternation_rule_text: bool,
}

/// Ranking points (C28): no tie 5/2/0, two tied first 3/3/0, two tied second 5/1/1, all 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankVp {
    pub first: i32,
    pub second: i32,
    pub third: i32,
    pub tied_first: i32,
    pub tied_second: i32,
    pub all_tied: i32,
}

impl Data {
    /// Recruitment (draw, choose) of `seat` in `round`, if it is a recruitment round.
    pub fn recruit_in(&self, round: u8, seat: usize) -> Option<(u8, u8)> {
        self.recruit_rounds.iter().find(|r| r.0 == round).map(|r| r.1[seat])
    }

    pub fn general_index(&self, id: &str) -> Option<u8> {
        self.generals.iter().position(|g| g.id == id).map(|i| i as u8)
    }

    pub fn dev_index(&self, id: &str) -> Option<u8> {
        self.developments.iter().position(|g| g.id == id).map(|i| i as u8)
    }

    pub fn region_index(&self, id: &str) -> Option<u8> {
        self.regions.iter().position(|g| g.id == id).map(|i| i as u8)
    }
}
