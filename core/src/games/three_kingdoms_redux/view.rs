//! What a seat may see: the JSON view (with the pending decision), action texts and the
//! observation tensor. Hidden: other seats' development hands and imported cards, their
//! drawn and chosen generals before the reveal, the unknown deck orders, the cards another
//! seat put at the bottom of a development deck (T1).
//!
//! Tensor layout (f32, values scaled to about [0, 1]):
//! - per seat (3 blocks, seat order Wei, Wu, Shu): 27 scalars (gold/30, rice/30, support/15,
//!   untrained/20, trained/20, 4 weapons/15, deficits/10, tribal/12, office/5, military/50,
//!   farm level/area/granary /5, market level/area/treasury /5, granary and treasury region
//!   tokens /15, hand size/20, passed, won count/18, bid position one-hot 3), then built
//!   developments (D bits), won actions (18 bits), actions still to perform (18 bits);
//! - per general (G blocks of 5): recruited and available, stationed, placed this round,
//!   flipped on Control Han Emperor, drawn/chosen by the observer (own only);
//! - the observer's hand (D bits), imported cards (D bits), the cards the observer put at
//!   the bottom of a deck that are still there (D bits), each deck's bottom size/10 (2);
//! - per region (R blocks of 5): occupant one-hot 3, token flipped, units/2;
//! - per action (18 blocks of 3): each seat's bid total /20;
//! - global: round/12, Control Han Emperor criterion, Han token holder one-hot 4, alliance
//!   action one-hot 18, last alliance action one-hot 18, pending kind one-hot 40, seat to
//!   act one-hot 3, observer one-hot 4 (last = spectator), game over.

use serde::Serialize;
use serde_json::{json, Value};

use super::action::Action;
use super::data::*;
use super::state::*;
use super::texts::trade_words;
use super::Tkr;
use crate::game::{ActionId, Player, SPECTATOR};
use crate::quantize::Value as TensorValue;

const SEAT_SCALARS: usize = 27;
const PENDING_KINDS: usize = 40;

pub fn tensor_len(g: &Tkr) -> usize {
    let (gn, d, r) = (g.data.generals.len(), g.data.developments.len(), g.data.regions.len());
    3 * (SEAT_SCALARS + d + 36) + gn * 5 + 3 * d + 2 + r * 5 + 54 + 1 + 1 + 4 + 18 + 18 + PENDING_KINDS + 3 + 4 + 1
}

pub(super) fn pending_index(p: &Pending) -> usize {
    pending_kind(p).0
}

fn pending_kind(p: &Pending) -> (usize, &'static str) {
    match p {
        Pending::Criterion => (0, "criterion"),
        Pending::DrawDev { .. } => (1, "draw_development"),
        Pending::DrawGeneral { .. } => (2, "draw_general"),
        Pending::Keep { .. } => (3, "keep_general"),
        Pending::Alliance => (4, "alliance"),
        Pending::Bid => (5, "bid"),
        Pending::Target => (6, "target"),
        Pending::Extras => (7, "extras"),
        Pending::ChooseAction => (8, "choose_action"),
        Pending::DevelopMode { .. } => (9, "develop_mode"),
        Pending::Bank { .. } => (10, "bank"),
        Pending::TradeRice => (11, "trade_rice"),
        Pending::TradeWeapons => (12, "trade_weapons"),
        Pending::WeaponPick { .. } => (13, "weapon_pick"),
        Pending::Hire => (14, "hire_instructor"),
        Pending::Import => (15, "import_tech"),
        Pending::KeepImport { .. } => (16, "keep_import"),
        Pending::Build => (17, "build"),
        Pending::Produce { .. } => (18, "produce"),
        Pending::Train => (19, "train"),
        Pending::Tribute => (20, "tribute"),
        Pending::HanFlip => (21, "han_flip"),
        Pending::OccupyGeneral { .. } => (22, "occupy_general"),
        Pending::OccupyRegion { .. } => (23, "occupy_region"),
        Pending::OccupyUnits { .. } => (24, "occupy_units"),
        Pending::OccupyStore { .. } => (25, "occupy_store"),
        Pending::BonusChoice { .. } => (26, "bonus_choice"),
        Pending::Tribal12 => (27, "tribal12"),
        Pending::Protect { .. } => (28, "protect"),
        Pending::Exchange { .. } => (29, "exchange"),
        Pending::Auto => (30, "auto"),
        Pending::Over => (31, "over"),
        Pending::BenefitOrder => (32, "benefit_order"),
        Pending::ArmyCost { .. } => (33, "army_cost"),
        Pending::BonusOrder => (34, "bonus_order"),
    }
}

fn bits_list(mut m: u64) -> Vec<usize> {
    let mut v = Vec::new();
    while m != 0 {
        v.push(m.trailing_zeros() as usize);
        m &= m - 1;
    }
    v
}

/// A short human prompt for each pending kind.
fn prompt(kind: &str) -> &'static str {
    match kind {
        "criterion" => "choose the Control Han Emperor criterion",
        "draw_development" => "a development card is drawn",
        "draw_general" => "a general is drawn",
        "keep_general" => "choose a general to keep",
        "alliance" => "choose the alliance action",
        "bid" => "place a general on an action",
        "target" => "choose the target of the placement",
        "extras" => "add units, gold or support to the placement",
        "choose_action" => "choose the next action to perform",
        "develop_mode" => "choose how to develop",
        "bank" => "choose what to bank",
        "trade_rice" => "trade rice",
        "trade_weapons" => "trade weapons",
        "weapon_pick" => "choose a weapon",
        "hire_instructor" => "hire an instructor or not",
        "import_tech" => "import technology or not",
        "keep_import" => "choose an imported card to keep",
        "build" => "choose a development to build",
        "produce" => "choose what to produce",
        "train" => "train units",
        "tribute" => "pay tribute or not",
        "han_flip" => "choose the general to flip on Control Han Emperor",
        "occupy_general" => "choose the general to occupy with",
        "occupy_region" => "choose the region to occupy",
        "occupy_units" => "choose the units to occupy with",
        "occupy_store" => "choose where to store the region's goods",
        "bonus_choice" => "choose the card bonus",
        "tribal12" => "choose the tribal reward",
        "protect" => "protect a region or not",
        "exchange" => "choose a card to exchange",
        "auto" => "the rules resolve the next step",
        "over" => "the game is over",
        "benefit_order" => "choose the order of the benefits",
        "army_cost" => "choose trained or untrained armies to pay with",
        "bonus_order" => "choose which card bonus resolves next",
        _ => "choose an action",
    }
}

/// The pending decision for the view envelope (public: the same for every observer).
pub fn decision<'a>(g: &'a Tkr, s: &State) -> Decision<'a> {
    let (_, kind) = pending_kind(&s.pending);
    let mut pending = Decision {
        acting: None,
        action: None,
        bonuses: None,
        card: None,
        deck: None,
        kind,
        left: None,
        prompt: prompt(kind),
        seat: (!matches!(s.pending, Pending::Over)).then_some(s.seat),
    };
    match s.pending {
        Pending::DrawDev { seat, deck, left, .. } => {
            (pending.seat, pending.deck, pending.left) = (Some(seat), Some(deck), Some(left));
        }
        Pending::DrawGeneral { seat, left } | Pending::Keep { seat, left } => (pending.seat, pending.left) = (Some(seat), Some(left)),
        Pending::Exchange { card, .. } | Pending::BonusChoice { card, .. } => pending.card = Some(g.card_name(card)),
        Pending::ArmyCost { dev } => pending.card = Some(&g.data.developments[dev as usize].id),
        Pending::BonusOrder => pending.bonuses = Some(s.bonus_queue.iter().map(|&(c, _)| g.card_name(c)).collect()),
        Pending::OccupyGeneral { action } | Pending::Produce { action } | Pending::Bank { action } | Pending::DevelopMode { action } => {
            pending.action = Some(ACTIONS[action as usize])
        }
        _ => {}
    }
    if s.acting != NONE {
        pending.acting = Some(ACTIONS[s.acting as usize]);
    }
    pending
}

// Field order in the structs below: the keys in ascending order, as `serde_json::Value`
// objects print them (the view JSON is the same bytes either way).

#[derive(Serialize)]
pub struct Decision<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    acting: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bonuses: Option<Vec<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    card: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deck: Option<u8>,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    left: Option<u8>,
    prompt: &'static str,
    seat: Option<u8>,
}

#[derive(Serialize)]
struct GeneralView<'a> {
    ability: &'a str,
    admin: u8,
    combat: u8,
    id: &'a str,
    leadership: u8,
    name: &'a str,
    state: &'static str,
}

#[derive(Serialize)]
struct Weapons {
    crossbow: i32,
    horse: i32,
    ship: i32,
    spear: i32,
}

#[derive(Serialize)]
struct Farm {
    area: u8,
    granary: u8,
    level: u8,
}

#[derive(Serialize)]
struct Market {
    area: u8,
    level: u8,
    treasury: u8,
}

#[derive(Serialize)]
struct StoreRegion<'a> {
    flipped: bool,
    region: &'a str,
}

#[derive(Serialize)]
struct SeatView<'a> {
    built: Vec<&'a str>,
    deficits: i32,
    farm: Farm,
    generals: Vec<GeneralView<'a>>,
    generals_chosen: usize,
    generals_drawn: usize,
    gold: i32,
    granary_regions: Vec<StoreRegion<'a>>,
    hand: Option<Vec<&'a str>>,
    hand_size: u32,
    importing: Option<Vec<&'a str>>,
    importing_size: u32,
    kingdom: &'static str,
    market: Market,
    military: i32,
    office: u8,
    passed: bool,
    rice: i32,
    support: i32,
    to_perform: Vec<&'static str>,
    trained: i32,
    treasury_regions: Vec<StoreRegion<'a>>,
    tribal: i32,
    untrained: i32,
    weapons: Weapons,
    won: Vec<&'static str>,
}

#[derive(Serialize)]
struct PlacementView<'a> {
    action: Option<&'static str>,
    general: &'a str,
    gold: u8,
    han: bool,
    seat: u8,
    support: u8,
    unit: Option<&'static str>,
    units: u8,
    value: i32,
}

#[derive(Serialize)]
struct RegionView<'a> {
    border: &'static str,
    flipped: bool,
    general: Option<&'a str>,
    id: &'a str,
    name: &'a str,
    requires: &'static str,
    seat: Option<u8>,
    unit: Option<&'static str>,
    units: u8,
}

#[derive(Serialize)]
struct Criteria {
    control_han_emperor: &'static str,
    win_popular_support: &'static str,
}

#[derive(Serialize)]
struct DeckSizes {
    generals: Vec<usize>,
    separation: usize,
    unity: usize,
}

#[derive(Serialize)]
struct Decks<T> {
    separation: T,
    unity: T,
}

/// The view body of one observer.
#[derive(Serialize)]
pub struct View<'a> {
    action_order: [u8; 3],
    alliance_action: Option<&'static str>,
    bid_order: [u8; 3],
    criteria: Criteria,
    deck_bottoms: Decks<Vec<Option<&'a str>>>,
    deck_sizes: DeckSizes,
    end_reason: u8,
    han_emperor_token: Option<u8>,
    han_flipped_general: Option<&'a str>,
    last_alliance_action: Option<&'static str>,
    placements: Vec<PlacementView<'a>>,
    placing: Option<PlacementView<'a>>,
    regions: Vec<RegionView<'a>>,
    round: u8,
    scores: Option<[super::Score; 3]>,
    seats: Vec<SeatView<'a>>,
    totals: [[i32; 3]; 18],
}

fn action_name(a: u8) -> Option<&'static str> {
    (a != NONE).then(|| ACTIONS[a as usize])
}

fn seat_view<'a>(g: &'a Tkr, s: &State, k: usize, own: bool) -> SeatView<'a> {
    let d = &g.data;
    let p = &s.seats[k];
    let generals = d
        .generals
        .iter()
        .enumerate()
        .filter(|(i, gen)| {
            gen.kingdom as usize == k
                && (matches!(s.gloc[*i], GLoc::Active | GLoc::Stationed) || (own && matches!(s.gloc[*i], GLoc::Drawn | GLoc::Chosen)))
        })
        .map(|(i, gen)| GeneralView {
            id: &gen.id,
            name: &gen.name_ko,
            state: match s.gloc[i] {
                GLoc::Active => "recruited",
                GLoc::Stationed => "stationed",
                GLoc::Drawn => "drawn",
                _ => "chosen",
            },
            admin: g.stat(i as u8, s.round, Stat::Admin),
            combat: g.stat(i as u8, s.round, Stat::Combat),
            leadership: g.stat(i as u8, s.round, Stat::Leadership),
            ability: &gen.ability,
        })
        .collect();
    let of_kingdom = |at: GLoc| s.gloc.iter().enumerate().filter(|(i, l)| d.generals[*i].kingdom as usize == k && **l == at).count();
    let names = |m: u64| bits_list(m).into_iter().map(|x| d.developments[x].id.as_str()).collect::<Vec<_>>();
    let regs =
        |m: u32| bits_list(m as u64).into_iter().map(|x| StoreRegion { region: &d.regions[x].id, flipped: s.regions[x].flipped }).collect();
    let actions = |m: u32| bits_list(m as u64).into_iter().map(|a| ACTIONS[a]).collect();
    SeatView {
        kingdom: KINGDOMS[k],
        gold: p.gold,
        rice: p.rice,
        support: p.support,
        untrained: p.untrained,
        trained: p.trained,
        weapons: Weapons { spear: p.weapons[0], horse: p.weapons[1], crossbow: p.weapons[2], ship: p.weapons[3] },
        deficits: p.deficits,
        tribal: p.tribal,
        office: p.office,
        military: p.military,
        farm: Farm { level: p.farm_level, area: p.farm_area, granary: p.granary_farm },
        market: Market { level: p.market_level, area: p.market_area, treasury: p.treasury_market },
        granary_regions: regs(p.granary_regions),
        treasury_regions: regs(p.treasury_regions),
        hand: own.then(|| names(p.hand)),
        hand_size: p.hand.count_ones(),
        importing: own.then(|| names(p.import_drawn)),
        importing_size: p.import_drawn.count_ones(),
        built: names(p.built),
        generals,
        generals_drawn: of_kingdom(GLoc::Drawn),
        generals_chosen: of_kingdom(GLoc::Chosen),
        won: actions(p.won),
        to_perform: actions(p.todo),
        passed: s.passed[k],
    }
}

pub fn view<'a>(g: &'a Tkr, s: &State, player: Player) -> View<'a> {
    let d = &g.data;
    let me = if player == SPECTATOR { None } else { Some(player as usize) };
    let pl = |p: &Placement| PlacementView {
        seat: p.seat,
        general: &d.generals[p.general as usize].id,
        action: action_name(p.action),
        unit: (p.unit != NONE).then(|| UNITS[p.unit as usize]),
        units: p.units,
        gold: p.gold,
        support: p.support,
        han: p.han,
        value: p.value,
    };
    let (chosen, other) = if s.han_criterion == 0 { ("administration", "combat") } else { ("combat", "administration") };
    View {
        round: s.round,
        criteria: Criteria { control_han_emperor: chosen, win_popular_support: other },
        bid_order: s.bid_order,
        action_order: s.action_order,
        alliance_action: action_name(s.alliance_action),
        last_alliance_action: action_name(s.last_alliance_action),
        han_emperor_token: (s.han_holder != NONE).then_some(s.han_holder),
        han_flipped_general: (s.han_flipped != NONE).then(|| d.generals[s.han_flipped as usize].id.as_str()),
        seats: (0..3).map(|k| seat_view(g, s, k, me == Some(k))).collect(),
        regions: d
            .regions
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let st = s.regions[i];
                let held = st.seat != NONE;
                RegionView {
                    id: &r.id,
                    name: &r.name_ko,
                    border: BORDERS[r.border as usize],
                    requires: UNITS[r.unit as usize],
                    seat: held.then_some(st.seat),
                    general: held.then(|| d.generals[st.general as usize].id.as_str()),
                    unit: held.then(|| UNITS[st.unit as usize]),
                    units: st.units,
                    flipped: st.flipped,
                }
            })
            .collect(),
        placements: s.placements.iter().map(pl).collect(),
        placing: s.cur.as_ref().map(pl),
        totals: s.totals,
        deck_sizes: DeckSizes {
            unity: g.dev_remaining(s, 0).count(),
            separation: g.dev_remaining(s, 1).count(),
            generals: (0..3)
                .map(|k| {
                    g.general_deck(s, k).count()
                        + s.gloc.iter().enumerate().filter(|(i, l)| d.generals[*i].kingdom as usize == k && **l == GLoc::Drawn).count()
                })
                .collect(),
        },
        deck_bottoms: Decks { unity: bottom_view(g, s, 0, me), separation: bottom_view(g, s, 1, me) },
        scores: s.is_over().then(|| g.scores(s)),
        end_reason: s.end_reason,
    }
}

/// The known bottom part of a development deck, next card first: the cards `me` put there,
/// `null` for the others' (T1).
fn bottom_view<'a>(g: &'a Tkr, s: &State, deck: usize, me: Option<usize>) -> Vec<Option<&'a str>> {
    s.bottom[deck].iter().map(|&(c, seat)| (me == Some(seat as usize)).then(|| g.data.developments[c as usize].id.as_str())).collect()
}

pub fn tensor(g: &Tkr, s: &State, player: Player, out: &mut [f32]) {
    tensor_values(g, s, player, out)
}

/// The tensor as bytes ([`crate::quantize`]), written directly.
pub fn tensor_u8(g: &Tkr, s: &State, player: Player, out: &mut [u8]) {
    tensor_values(g, s, player, out)
}

/// Writes the tensor as floats or bytes.
fn tensor_values<T: TensorValue>(g: &Tkr, s: &State, player: Player, out: &mut [T]) {
    let d = &g.data;
    let me = if player == SPECTATOR { None } else { Some(player as usize) };
    // Every element is written in order (tensor.rs): values clamped into [0, 1], flags and
    // bits of a mask as 0 or 1. (Most are zeros: the buffer is cleared first, and a mask or a
    // one-hot range writes only its ones.)
    out.fill(T::default());
    let mut w = Writer { out, i: 0 };
    for k in 0..3 {
        let p = &s.seats[k];
        for v in [
            p.gold as f32 / 30.0,
            p.rice as f32 / 30.0,
            p.support as f32 / 15.0,
            p.untrained as f32 / 20.0,
            p.trained as f32 / 20.0,
            p.weapons[0] as f32 / 15.0,
            p.weapons[1] as f32 / 15.0,
            p.weapons[2] as f32 / 15.0,
            p.weapons[3] as f32 / 15.0,
            p.deficits as f32 / 10.0,
            p.tribal as f32 / 12.0,
            p.office as f32 / 5.0,
            p.military as f32 / 50.0,
            p.farm_level as f32 / 5.0,
            p.farm_area as f32 / 5.0,
            p.granary_farm as f32 / 5.0,
            p.market_level as f32 / 5.0,
            p.market_area as f32 / 5.0,
            p.treasury_market as f32 / 5.0,
            p.granary_regions.count_ones() as f32 / 15.0,
            p.treasury_regions.count_ones() as f32 / 15.0,
            p.hand.count_ones() as f32 / 20.0,
            s.passed[k] as u8 as f32,
            p.won.count_ones() as f32 / 18.0,
            (s.bid_order[0] as usize == k) as u8 as f32,
            (s.bid_order[1] as usize == k) as u8 as f32,
            (s.bid_order[2] as usize == k) as u8 as f32,
        ] {
            w.value(v);
        }
        w.bits(p.built, d.developments.len());
        w.bits(p.won as u64, 18);
        w.bits(p.todo as u64, 18);
    }
    let placed = s.placed_generals();
    for (x, gen) in d.generals.iter().enumerate() {
        let own = me == Some(gen.kingdom as usize);
        w.flag(s.gloc[x] == GLoc::Active);
        w.flag(s.gloc[x] == GLoc::Stationed);
        w.flag(placed >> x & 1 != 0);
        w.flag(s.han_flipped as usize == x);
        w.value((own && matches!(s.gloc[x], GLoc::Drawn | GLoc::Chosen)) as u8 as f32 * if s.gloc[x] == GLoc::Chosen { 1.0 } else { 0.5 });
    }
    let (hand, imp) = me.map_or((0, 0), |k| (s.seats[k].hand, s.seats[k].import_drawn));
    w.bits(hand, d.developments.len());
    w.bits(imp, d.developments.len());
    let mine = s.bottom.iter().flatten().filter(|&&(_, seat)| me == Some(seat as usize)).fold(0u64, |m, &(c, _)| m | 1 << c);
    w.bits(mine, d.developments.len());
    for b in &s.bottom {
        w.value(b.len() as f32 / 10.0);
    }
    for r in &s.regions {
        w.one_hot(r.seat as usize, 3);
        w.flag(r.flipped);
        w.value(r.units as f32 / 2.0);
    }
    for a in 0..18 {
        for k in 0..3 {
            w.value(s.totals[a][k] as f32 / 20.0);
        }
    }
    w.value(s.round as f32 / 12.0);
    w.value(s.han_criterion as f32);
    w.one_hot(if s.han_holder == NONE { 3 } else { s.han_holder as usize }, 4);
    w.one_hot(s.alliance_action as usize, 18);
    w.one_hot(s.last_alliance_action as usize, 18);
    w.one_hot(pending_kind(&s.pending).0, PENDING_KINDS);
    w.one_hot(if s.is_over() { 3 } else { s.seat as usize }, 3);
    w.one_hot(me.unwrap_or(3), 4);
    w.flag(s.is_over());
    debug_assert_eq!(w.i, w.out.len());
}

/// Writes the tensor's elements in order.
struct Writer<'a, T> {
    out: &'a mut [T],
    i: usize,
}

impl<T: TensorValue> Writer<'_, T> {
    /// A value, clamped into [0, 1].
    fn value(&mut self, v: f32) {
        self.out[self.i] = T::of(v.clamp(0.0, 1.0));
        self.i += 1;
    }

    fn flag(&mut self, b: bool) {
        self.out[self.i] = T::flag(b);
        self.i += 1;
    }

    /// Bits `0..n` of `mask`, one flag each (`n` ≤ 64; the range holds zeros).
    fn bits(&mut self, mask: u64, n: usize) {
        let range = &mut self.out[self.i..self.i + n];
        let mut m = if n < 64 { mask & ((1 << n) - 1) } else { mask };
        while m != 0 {
            range[m.trailing_zeros() as usize] = T::ONE;
            m &= m - 1;
        }
        self.i += n;
    }

    /// A one-hot range of `n` flags with `k` set (none where `k` ≥ `n`; the range holds zeros).
    fn one_hot(&mut self, k: usize, n: usize) {
        if k < n {
            self.out[self.i + k] = T::ONE;
        }
        self.i += n;
    }
}

/// The meaning of Choice(k) in the pending prompt.
fn choice_text(g: &Tkr, s: &State, k: u8) -> String {
    let r = g.rates();
    match s.pending {
        Pending::DevelopMode { action } => match (action, k) {
            (A_FARM, 0) => "develop farm".into(),
            (A_FARM, _) => "harvest".into(),
            (_, 0) => "develop market".into(),
            _ => "collect tax".into(),
        },
        Pending::Bank { action } => format!("bank {k} token(s) in the {}", if action == A_FARM { "granary" } else { "treasury" }),
        Pending::TradeRice => trade_words(r.rice_trade(k.into()), Goods::Rice, None),
        Pending::TradeWeapons => trade_words(r.weapon_trade(k.into()), Goods::Weapons, None),
        Pending::Hire => {
            if k == 0 {
                "no instructor".into()
            } else {
                format!("hire an instructor: train {k}")
            }
        }
        Pending::Import => match k {
            0 => "no import".into(),
            1 => "import from the unity (연합) deck".into(),
            _ => "import from the separation (분리) deck".into(),
        },
        Pending::Produce { action } => {
            let (a, b) = if action == A_SPEAR_HORSE { ("spear", "horse") } else { ("crossbow", "ship") };
            format!("produce {k} {a}(s) and the rest {b}s")
        }
        Pending::Train => format!("train {k} armies"),
        Pending::Tribute => {
            let b = g.data.tribute.get(k as usize).copied().unwrap_or([0; 14]);
            format!("tribute: {}", bundle_text(&b))
        }
        Pending::OccupyUnits { .. } => format!("occupy with {k} unit(s)"),
        Pending::OccupyStore { .. } => {
            if k == 0 {
                "region token to the granary".into()
            } else {
                "region token to the treasury".into()
            }
        }
        Pending::BonusChoice { card, effect } => {
            let b = match &g.effects(card)[effect as usize] {
                Effect::ActionBonus { gain: Gain::ChooseOne(l), .. }
                | Effect::RoundEndIncome { gain: Gain::ChooseOne(l), .. }
                | Effect::ImmediateGain { gain: Gain::ChooseOne(l) } => l.get(k as usize).copied().unwrap_or([0; 14]),
                _ => [0; 14],
            };
            format!("{}: take {}", g.card_name(card), bundle_text(&b))
        }
        Pending::ArmyCost { dev } => {
            let n = g.data.developments[dev as usize].cost[B_ARMY];
            format!("pay the army cost with {k} trained and {} untrained armies", n - k as i32)
        }
        Pending::BonusOrder => match s.bonus_queue.get(k as usize) {
            Some(&(c, i)) => {
                let gain = match &g.effects(c)[i as usize] {
                    Effect::ActionBonus { gain, .. } => gain_text(gain),
                    _ => "nothing".into(),
                };
                format!("resolve {}'s bonus next: {gain}", g.card_name(c))
            }
            None => format!("option {k}"),
        },
        Pending::Tribal12 => {
            if k == 1 {
                "pay 2 rice for 1 support".into()
            } else {
                "no support purchase".into()
            }
        }
        Pending::Protect { card } => {
            if k == 1 {
                format!("{}: pay instead of the rebellion deficit", g.data.developments[card as usize].name_en)
            } else {
                "take the rebellion deficit".into()
            }
        }
        Pending::BenefitOrder => match g.benefits(s, s.seat as usize).nth(k as usize) {
            Some((c, i)) => format!("{}'s round-end benefit next: {}", g.card_name(c), benefit_text(&g.effects(c)[i as usize])),
            None => format!("option {k}"),
        },
        Pending::Exchange { card, effect, .. } => {
            if k == 0 {
                "no exchange".into()
            } else if let Effect::RoundEndExchange { options, .. } = &g.effects(card)[effect as usize] {
                let (give, get) = options[(k - 1) as usize];
                format!("{}: give {} for {}", g.card_name(card), bundle_text(&give), bundle_text(&get))
            } else {
                format!("option {k}")
            }
        }
        _ => format!("option {k}"),
    }
}

/// What a round-end benefit of a card does, for the menu that orders them.
fn benefit_text(e: &Effect) -> String {
    match e {
        Effect::RoundEndIncome { gain, .. } => format!("income of {}", gain_text(gain)),
        Effect::RoundEndExchange { .. } => "an exchange".into(),
        Effect::CardReservoir { resource, per_round, .. } => format!("up to {per_round} {} from its reserve", BUNDLE_KEYS[*resource]),
        Effect::MilitaryScoreChange { self_amount, .. } => format!("military score {self_amount:+}"),
        _ => "its effect".into(),
    }
}

/// A fixed gain's tokens, or the bundles a choice is between ("one of 2 gold / 2 rice").
fn gain_text(gain: &Gain) -> String {
    match gain {
        Gain::Fixed(b) => bundle_text(b),
        Gain::ChooseOne(l) => format!("one of {}", l.iter().map(bundle_text).collect::<Vec<_>>().join(" / ")),
    }
}

fn bundle_text(b: &Bundle) -> String {
    let parts: Vec<String> = BUNDLE_KEYS.iter().zip(b.iter()).filter(|(_, n)| **n != 0).map(|(k, n)| format!("{n} {k}")).collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(" + ")
    }
}

pub fn action_string(g: &Tkr, s: &State, id: ActionId) -> String {
    let d = &g.data;
    let Some(a) = g.decode(id) else { return format!("invalid {id}") };
    let gname = |x: u8| d.generals.get(x as usize).map_or("?".to_string(), |x| format!("{} {}", x.name_ko, x.name_en));
    match a {
        Action::DrawGeneral(x) => format!("draw general card #{x} of the deck"),
        Action::DrawDev(x) => format!("draw development card #{x} of the deck"),
        Action::Criterion(c) => format!("Control Han Emperor criterion: {}", if c == 0 { "administration" } else { "combat" }),
        Action::Keep(x) => format!("keep general {}", gname(x)),
        Action::Alliance(x) => format!("alliance action: {}", ACTIONS.get(x as usize).unwrap_or(&"?")),
        Action::Place(x) => format!("place {}", gname(x)),
        Action::Target(x) => format!("on {}", ACTIONS.get(x as usize).unwrap_or(&"?")),
        Action::Unit(u) => format!("assign one {} unit", UNITS.get(u as usize).unwrap_or(&"?")),
        Action::Gold => "add one gold".into(),
        Action::Support => "add one support token".into(),
        Action::Han => "add the Han Emperor token".into(),
        Action::Confirm => "confirm the placement".into(),
        Action::Pass => "pass".into(),
        Action::Perform(x) => format!("perform {}", ACTIONS.get(x as usize).unwrap_or(&"?")),
        Action::Decline(x) => format!("decline {}", ACTIONS.get(x as usize).unwrap_or(&"?")),
        Action::Choice(k) => choice_text(g, s, k),
        Action::Weapon(w) => format!(
            "{} one {}",
            if matches!(s.pending, Pending::WeaponPick { give: true, .. }) { "pay" } else { "take" },
            WEAPONS.get(w as usize).unwrap_or(&"?")
        ),
        Action::Dev(x) => format!(
            "{} {}",
            if matches!(s.pending, Pending::KeepImport { .. }) { "keep" } else { "build" },
            d.developments.get(x as usize).map_or("?", |c| c.name_en.as_str())
        ),
        Action::Region(r) => format!("occupy {}", d.regions.get(r as usize).map_or("?", |x| x.id.as_str())),
        Action::General(x) => format!("{} {}", if matches!(s.pending, Pending::HanFlip) { "flip" } else { "occupy with" }, gname(x)),
        Action::Done => match s.pending {
            Pending::Build => "build nothing".into(),
            Pending::OccupyGeneral { .. } => "occupy nothing".into(),
            _ => "done".into(),
        },
    }
}

pub fn action_json(g: &Tkr, s: &State, id: ActionId) -> Value {
    // The text a reader sees names an action space as the board and the log do.
    let mut text = action_string(g, s, id);
    if let Some(Action::Alliance(x) | Action::Target(x) | Action::Perform(x) | Action::Decline(x)) = g.decode(id) {
        if let Some(space) = ACTIONS.get(x as usize) {
            text = text.replacen(space, &format!("“{}”", g.action_label(space)), 1);
        }
    }
    let verb = match g.decode(id) {
        Some(a) => format!("{a:?}").split(['(', ' ']).next().unwrap_or("").to_lowercase(),
        None => "invalid".into(),
    };
    json!({"id": id, "verb": verb, "text": text})
}
