//! The rules: setup (§3), conflict phase (§7), resolution (§8), upkeep (§9-§10), end (§11).
//!
//! `advance` runs every automatic step until a player decision or a chance node is pending;
//! `legal` lists the actions of the pending decision and `apply` answers it.

use super::action::CHOICES;
use super::data::*;
use super::state::*;
use super::Tkr;
use crate::events::{event, Audience, Events};

// === helpers: stats, effects, conditions, metrics ===

/// A card that carries effects: a general (index < G) or a built development (G + d).
pub type Card = u16;

/// A set of generals, bit g for general g (the data holds at most 128 generals, data.rs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Generals(pub u128);

impl Generals {
    pub(crate) fn contains(self, g: u8) -> bool {
        g < 128 && self.0 & (1 << g) != 0
    }

    pub(crate) fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The generals in ascending order.
    pub(crate) fn iter(self) -> impl Iterator<Item = u8> {
        crate::bits::bits(self.0)
    }
}

impl Tkr {
    pub(crate) fn g_count(&self) -> usize {
        self.data.generals.len()
    }

    /// A general's stat in `round` (stat_change_from_round applied).
    pub fn stat(&self, g: u8, round: u8, stat: Stat) -> u8 {
        let gen = &self.data.generals[g as usize];
        let mut v = match stat {
            Stat::Admin => gen.admin,
            Stat::Combat => gen.combat,
            Stat::Leadership => gen.leadership,
            Stat::Higher => return self.stat(g, round, Stat::Admin).max(self.stat(g, round, Stat::Combat)),
        };
        for e in &gen.effects {
            if let Effect::StatChange { stat: s2, value, round: from } = e {
                if *s2 == stat && round >= *from {
                    v = *value;
                }
            }
        }
        v
    }

    /// The cards whose effects are active for `seat`: recruited generals (also stationed,
    /// C31) and built developments.
    pub(crate) fn cards<'a>(&'a self, s: &'a State, seat: usize) -> impl Iterator<Item = Card> + 'a {
        let generals = self.data.by_kingdom[seat]
            .iter()
            .filter(move |&&g| {
                matches!(s.gloc[g as usize], GLoc::Active | GLoc::Stationed) && !self.data.generals[g as usize].effects.is_empty()
            })
            .map(|&g| g as Card);
        let mut b = s.seats[seat].built;
        let built = std::iter::from_fn(move || {
            let d = (b != 0).then(|| b.trailing_zeros() as usize)?;
            b &= b - 1;
            Some((self.g_count() + d) as Card)
        });
        generals.chain(built)
    }

    pub(crate) fn effects(&self, card: Card) -> &[Effect] {
        let c = card as usize;
        if c < self.g_count() {
            &self.data.generals[c].effects
        } else {
            &self.data.developments[c - self.g_count()].effects
        }
    }

    pub(crate) fn card_name(&self, card: Card) -> &str {
        let c = card as usize;
        if c < self.g_count() {
            &self.data.generals[c].name_en
        } else {
            &self.data.developments[c - self.g_count()].name_en
        }
    }

    /// The bid-order track of this round (during resolution the track already shows the
    /// next round's order; "this round" then means the action order).
    pub(crate) fn round_order(&self, s: &State) -> [u8; 3] {
        match s.stage {
            Stage::Setup | Stage::Recruit | Stage::Alliance | Stage::Bidding => s.bid_order,
            _ => s.action_order,
        }
    }

    pub fn metric(&self, s: &State, seat: usize, m: u8) -> i32 {
        let p = &s.seats[seat];
        let units_of = |u: u8| s.regions.iter().filter(|r| r.seat as usize == seat && r.unit == u).map(|r| r.units as i32).sum::<i32>();
        match m {
            0 => p.farm_level as i32,
            1 => p.market_level as i32,
            2 => (p.farm_level + p.market_level) as i32,
            3 => p.office as i32,
            4 => p.tribal,
            5 => p.support,
            6 => p.tribal + p.support,
            7 => p.military,
            8 => p.gold,
            9 => p.rice,
            10 => s.regions.iter().filter(|r| r.seat as usize == seat).count() as i32,
            11..=14 => units_of(m - 11),
            15 => s.stationed[seat].len() as i32,
            16 => {
                let mask = p.granary_regions | p.treasury_regions;
                (0..s.regions.len()).filter(|&r| mask & (1 << r) != 0 && s.regions[r].flipped).count() as i32
            }
            17 => p.built.count_ones() as i32,
            _ => (0..3u8).filter(|&b| border_result(&self.data, s, b, seat) > 0).count() as i32,
        }
    }

    /// Evaluates a condition for `seat`; `general` is the effect's general (if any), `pl` the
    /// placement being made (if any), `action` the action concerned (if any).
    pub(crate) fn holds(&self, s: &State, seat: usize, c: &Cond, general: Option<u8>, pl: Option<&Placement>, action: Option<u8>) -> bool {
        match c {
            Cond::Metric { metric, op, value } => op.test(self.metric(s, seat, *metric), *value),
            Cond::Highest(m) => {
                let mine = self.metric(s, seat, *m);
                (0..3).all(|o| o == seat || mine >= self.metric(s, o, *m))
            }
            Cond::RoundParity { even } => (s.round % 2 == 0) == *even,
            Cond::DidNotPerform(set) => (0..18u8).all(|a| !set.has(a, seat) || s.seats[seat].performed & (1 << a) == 0),
            Cond::AllianceAction => {
                let order = self.round_order(s);
                action == Some(s.alliance_action) && s.alliance_action != NONE && order[0] as usize != seat
            }
            Cond::InAlliance => self.round_order(s)[0] as usize != seat,
            Cond::AlliedWith(k) => {
                let order = self.round_order(s);
                order[0] as usize != seat && order[0] != *k && *k as usize != seat
            }
            Cond::BidPosition(n) => self.round_order(s)[*n as usize - 1] as usize == seat,
            Cond::AssignedUnits(u) => pl.is_some_and(|p| p.unit == *u && p.units > 0),
            Cond::WithGeneral(partner) => {
                let Some(pl) = pl else { return false };
                s.placements.iter().any(|q| q.seat as usize == seat && q.action == pl.action && q.general == *partner)
                    || pl.general == *partner
            }
            Cond::SelfStationed => general.is_some_and(|g| s.gloc[g as usize] == GLoc::Stationed),
            Cond::SelfStationedOn(b) => general.is_some_and(|g| {
                s.regions.iter().enumerate().any(|(i, r)| r.general == g && r.seat != NONE && self.data.regions[i].border == *b)
            }),
            Cond::HasAtLeast(bundle) => self.has(s, seat, bundle),
            Cond::Built(d) => s.seats[seat].built & (1 << d) != 0,
            Cond::All(list) => list.iter().all(|c| self.holds(s, seat, c, general, pl, action)),
            Cond::Any(list) => list.iter().any(|c| self.holds(s, seat, c, general, pl, action)),
            Cond::Not(c) => !self.holds(s, seat, c, general, pl, action),
        }
    }

    /// Whether `seat`'s supply holds the bundle (weapon = any weapons; army = either side).
    pub(crate) fn has(&self, s: &State, seat: usize, b: &Bundle) -> bool {
        let p = &s.seats[seat];
        p.gold >= b[B_GOLD]
            && p.rice >= b[B_RICE]
            && p.support >= b[B_SUPPORT]
            && p.untrained >= b[B_UNTRAINED]
            && p.trained >= b[B_TRAINED]
            && p.untrained + p.trained >= b[B_UNTRAINED] + b[B_TRAINED] + b[B_ARMY]
            && (0..4).all(|w| p.weapons[w] >= b[B_SPEAR + w])
            && p.weapons.iter().sum::<i32>() >= (0..4).map(|w| b[B_SPEAR + w]).sum::<i32>() + b[B_WEAPON]
    }

    /// Tokens of a kind in use (supplies, placements, stationed units, card reservoirs), for
    /// the component limits (C35). kind: B_SUPPORT, B_UNTRAINED (= all armies) or a weapon.
    fn in_use(&self, s: &State, kind: usize) -> i32 {
        let mut n = 0;
        for p in &s.seats {
            n += match kind {
                B_SUPPORT => p.support,
                B_UNTRAINED | B_TRAINED => p.untrained + p.trained,
                _ => p.weapons[kind - B_SPEAR],
            };
        }
        for pl in &s.placements {
            n += match kind {
                B_SUPPORT => pl.support as i32,
                B_UNTRAINED | B_TRAINED => pl.units as i32,
                _ => (pl.unit as usize == kind - B_SPEAR) as i32 * pl.units as i32,
            };
        }
        for r in &s.regions {
            if r.seat != NONE {
                n += match kind {
                    B_SUPPORT => 0,
                    B_UNTRAINED | B_TRAINED => r.units as i32,
                    _ => (r.unit as usize == kind - B_SPEAR) as i32 * r.units as i32,
                };
            }
        }
        if let Some(pl) = &s.cur {
            n += match kind {
                B_SUPPORT => pl.support as i32,
                B_UNTRAINED | B_TRAINED => pl.units as i32,
                _ => (pl.unit as usize == kind - B_SPEAR) as i32 * pl.units as i32,
            };
        }
        for (c, &k) in s.reservoir.iter().enumerate() {
            if k > 0 && self.reservoir_kind(c as Card) == Some(kind) {
                n += k as i32;
            }
        }
        n
    }

    fn reservoir_kind(&self, card: Card) -> Option<usize> {
        self.effects(card).iter().find_map(|e| if let Effect::CardReservoir { resource, .. } = e { Some(*resource) } else { None })
    }

    /// How many tokens of `kind` the general supply still holds (C35; unlimited when the
    /// component_limits switch is off, and always for gold, rice and deficits).
    pub(crate) fn available(&self, s: &State, kind: usize) -> i32 {
        if !self.limits {
            return i32::MAX / 4;
        }
        match kind {
            B_SUPPORT => self.data.limit_support - self.in_use(s, B_SUPPORT),
            B_UNTRAINED | B_TRAINED => self.data.limit_armies - self.in_use(s, B_UNTRAINED),
            k if (B_SPEAR..B_SPEAR + 4).contains(&k) => self.data.limit_weapons[k - B_SPEAR] - self.in_use(s, k),
            _ => i32::MAX / 4,
        }
    }

    /// Adds tokens from the general supply (as many as it holds).
    pub(crate) fn take(&self, s: &mut State, seat: usize, kind: usize, n: i32) -> i32 {
        if n <= 0 {
            return 0;
        }
        let n = n.min(self.available(s, kind).max(0));
        let p = &mut s.seats[seat];
        match kind {
            B_GOLD => p.gold += n,
            B_RICE => p.rice += n,
            B_SUPPORT => p.support += n,
            B_UNTRAINED => p.untrained += n,
            B_TRAINED => p.trained += n,
            k => p.weapons[k - B_SPEAR] += n,
        }
        n
    }

    /// Gains a bundle: token keys now, `weapon` as pending picks, `train` flips, `tribal`
    /// and `military` move tracks. Returns the weapon picks still to make.
    pub(crate) fn gain(&self, s: &mut State, seat: usize, b: &Bundle, ev: &mut Events) -> u8 {
        for k in [B_GOLD, B_RICE, B_SUPPORT, B_UNTRAINED, B_TRAINED, B_SPEAR, B_SPEAR + 1, B_SPEAR + 2, B_SPEAR + 3] {
            if b[k] > 0 {
                let got = self.take(s, seat, k, b[k]);
                ev.emit(Audience::ALL, || event!({"kind": "gain", "seat": seat, "token": BUNDLE_KEYS[k], "amount": got}));
            }
        }
        if b[B_TRAIN] > 0 {
            let p = &mut s.seats[seat];
            let n = b[B_TRAIN].min(p.untrained);
            p.untrained -= n;
            p.trained += n;
            ev.emit(Audience::ALL, || event!({"kind": "train", "seat": seat, "amount": n}));
        }
        if b[B_TRIBAL] > 0 {
            let p = &mut s.seats[seat];
            p.tribal = (p.tribal + b[B_TRIBAL]).min(self.data.tribal_max);
        }
        if b[B_MILITARY] != 0 {
            s.seats[seat].military = (s.seats[seat].military + b[B_MILITARY]).max(0);
        }
        let mut picks = b[B_WEAPON];
        let free: i32 = (0..4).map(|w| self.available(s, B_SPEAR + w).max(0)).sum();
        picks = picks.min(free);
        picks.max(0) as u8
    }

    /// Pays a bundle from `seat`'s supply. An `army` cost is paid with `trained_army` trained
    /// armies and the rest untrained ones (the payer's choice, C34; see `army_split`).
    pub(crate) fn pay(&self, s: &mut State, seat: usize, b: &Bundle, trained_army: i32) {
        let p = &mut s.seats[seat];
        p.gold -= b[B_GOLD];
        p.rice -= b[B_RICE];
        p.support -= b[B_SUPPORT];
        p.untrained -= b[B_UNTRAINED] + b[B_ARMY] - trained_army;
        p.trained -= b[B_TRAINED] + trained_army;
        for w in 0..4 {
            p.weapons[w] -= b[B_SPEAR + w];
        }
    }

    /// The possible numbers of trained armies paying `cost`'s `army` part (C34): `lo..=hi`
    /// (capped to the 16 choice ids; one value = no real choice).
    pub(crate) fn army_split(&self, s: &State, seat: usize, cost: &Bundle) -> (i32, i32) {
        let p = &s.seats[seat];
        let n = cost[B_ARMY];
        let (u, t) = (p.untrained - cost[B_UNTRAINED], p.trained - cost[B_TRAINED]);
        let lo = (n - u).max(0);
        let hi = n.min(t).min(lo.max(CHOICES as i32 - 1));
        (lo, hi.max(lo))
    }

    /// A numeric parameter of `action` for `seat` performing it in `mode` (action_param).
    pub(crate) fn param(&self, s: &State, seat: usize, action: u8, mode: Option<u8>, p: usize, winners: Generals) -> i32 {
        let mut v = self.data.param_default[p];
        let mut deltas = 0;
        for c in self.cards(s, seat) {
            for e in self.effects(c) {
                if let Effect::ActionParam { actions, mode: m, param, delta, set, self_scope } = e {
                    if *param != p || !actions.has(action, seat) || (m.is_some() && *m != mode) {
                        continue;
                    }
                    if *self_scope && !winners.contains(c as u8) {
                        continue;
                    }
                    if let Some(x) = set {
                        v = *x;
                    }
                    deltas += delta;
                }
            }
        }
        (v + deltas).max(0)
    }

    /// The generals of `seat` that bid on `action` this round (its winning generals while
    /// the action is being performed).
    pub(crate) fn bidders(&self, s: &State, seat: usize, action: u8) -> Generals {
        Generals(s.placements.iter().filter(|p| p.seat as usize == seat && p.action == action).fold(0, |m, p| m | 1u128 << p.general))
    }
}

/// For border `b` and `seat`: 1 = more regions than the neighbour, 0 = tie, -1 = fewer;
/// i8::MIN if the seat is not on that border.
pub fn border_result(d: &Data, s: &State, b: u8, seat: usize) -> i8 {
    let [x, y] = BORDER_SEATS[b as usize];
    if x as usize != seat && y as usize != seat {
        return i8::MIN;
    }
    let other = if x as usize == seat { y } else { x };
    let count = |k: u8| s.regions.iter().enumerate().filter(|(_, r)| r.seat == k).filter(|(i, _)| d.regions[*i].border == b).count();
    let (m, o) = (count(seat as u8), count(other));
    (m > o) as i8 - (m < o) as i8
}
