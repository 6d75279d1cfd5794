//! Legal actions of each pending decision, and their effects (§3, §7, §8 actions).

use super::action::{Action, Actions, Count};
use super::data::*;
use super::rules::Generals;
use super::state::*;
use super::Tkr;
use crate::events::{event, text, Audience, Events};

/// Lots of a rice trade: (buy lots, sell lots) bounds come from the trade caps (C13).
fn rice_lot(r: &Rate, buying: bool) -> i32 {
    if buying {
        r.get
    } else {
        r.pay
    }
}

impl Tkr {
    pub(crate) fn rates(&self) -> &Rates {
        if self.literal_rates {
            &self.data.rates_literal
        } else {
            &self.data.rates
        }
    }

    /// Development `d` can be built by `seat` now (prerequisite and cost, with discount).
    pub(crate) fn buildable(&self, s: &State, seat: usize, d: u8) -> bool {
        let dev = &self.data.developments[d as usize];
        if let Some(c) = &dev.prerequisite {
            if !self.holds(s, seat, c, None, None, Some(A_BUILD)) {
                return false;
            }
        }
        let cost = self.build_cost(s, seat, d);
        self.has(s, seat, &cost)
    }

    pub(crate) fn build_cost(&self, s: &State, seat: usize, d: u8) -> Bundle {
        let mut cost = self.data.developments[d as usize].cost;
        let winners = self.bidders(s, seat, A_BUILD);
        let discount = self.param(s, seat, A_BUILD, None, P_GOLD_DISCOUNT, winners);
        cost[B_GOLD] = (cost[B_GOLD] - discount).max(0);
        cost
    }

    /// Regions where `general` (of `seat`, with its units on battle action `a`) may occupy.
    pub(crate) fn occupy_regions(&self, s: &State, seat: usize, a: u8, general: u8) -> u32 {
        let Some(pl) = s.placements.iter().find(|p| p.general == general && p.action == a && p.seat as usize == seat) else {
            return 0;
        };
        if pl.units == 0 || pl.unit == NONE {
            return 0;
        }
        let border = a - A_BATTLE0;
        let effects = &self.data.generals[general as usize].effects;
        let any_type = effects.iter().any(|e| matches!(e, Effect::OccupationRule(OccRule::AnyUnitType)));
        let ignore_alt = effects.iter().any(|e| matches!(e, Effect::OccupationRule(OccRule::IgnoreAlternation)));
        // §8 두 번째 장군 점령 (C18): with exactly one stationed general the next one goes to
        // the other border
        if s.stationed[seat].len() == 1 && !ignore_alt {
            let first = self.data.regions[s.stationed[seat][0] as usize].border;
            if first == border {
                // INTERPRETATION (RULES_NOTES.md T18): the switch `alternation`
                let other = borders_of(seat).into_iter().find(|&b| b != border).expect("two borders");
                let other_action = A_BATTLE0 + other;
                let bid_other = s.placements.iter().any(|p| p.seat as usize == seat && p.action == other_action);
                let won_other = s.seats[seat].won & (1 << other_action) != 0;
                if !(self.rule_text_alternation && bid_other && !won_other) {
                    return 0;
                }
            }
        }
        let mut out = 0;
        for (r, reg) in self.data.regions.iter().enumerate() {
            if reg.border != border || s.regions[r].seat != NONE {
                continue;
            }
            let ok = reg.unit == pl.unit
                || any_type
                || effects.iter().any(|e| matches!(e, Effect::OccupationRule(OccRule::Substitute { requires, may_use }) if *requires == reg.unit && *may_use == pl.unit));
            if ok {
                out |= 1 << r;
            }
        }
        out
    }

    pub(crate) fn legal(&self, s: &State, out: &mut impl Actions) {
        let seat = s.seat as usize;
        let p = &s.seats[seat];
        match s.pending {
            Pending::Criterion => out.extend([Action::Criterion(0), Action::Criterion(1)]),
            // INTERPRETATION (RULES_NOTES.md T1): outcome k = the k-th card left (ascending id),
            // so the outcome list shows only the deck size
            // and once the unknown part is exhausted the one outcome is the next bottom card
            Pending::DrawDev { deck, .. } => out.extend((0..self.dev_outcomes(s, deck) as u8).map(Action::DrawDev)),
            Pending::DrawGeneral { seat: k, .. } => {
                out.extend((0..self.general_deck(s, k as usize).count() as u8).map(Action::DrawGeneral))
            }
            Pending::Keep { seat: k, .. } => {
                for &g in &self.data.decks[k as usize] {
                    if s.gloc[g as usize] == GLoc::Drawn {
                        out.push(Action::Keep(g));
                    }
                }
            }
            Pending::Alliance => {
                for a in 0..10u8 {
                    if self.data.alliance_eligible[a as usize] && a != s.last_alliance_action {
                        out.push(Action::Alliance(a));
                    }
                }
            }
            Pending::Bid => {
                out.extend(self.available_generals(s, seat).map(Action::Place));
                out.push(Action::Pass);
            }
            Pending::Target => {
                for a in 0..18u8 {
                    if self.target_ok(s, seat, a) {
                        out.push(Action::Target(a));
                    }
                }
            }
            Pending::Extras => self.extras(s, out),
            Pending::ChooseAction => {
                for a in 0..18u8 {
                    if p.todo & (1 << a) != 0 {
                        if self.performable(s, seat, a) {
                            out.push(Action::Perform(a));
                        }
                        out.push(Action::Decline(a));
                    }
                }
            }
            Pending::DevelopMode { .. } => out.extend([Action::Choice(0), Action::Choice(1)]),
            Pending::Bank { action } => {
                let area = if action == A_FARM { p.farm_area } else { p.market_area };
                out.extend((0..=area).map(Action::Choice));
            }
            Pending::TradeRice => {
                out.push(Action::Choice(0));
                let r = self.rates();
                let max = self.param(s, seat, A_TRADE, Some(4), P_MAX_RICE, self.bidders(s, seat, A_TRADE));
                for k in 1..=3 {
                    if k * rice_lot(&r.rice_buy, true) <= max && p.gold >= k * r.rice_buy.pay {
                        out.push(Action::Choice(k as u8));
                    }
                }
                for k in 1..=3 {
                    if k * rice_lot(&r.rice_sell, false) <= max && p.rice >= k * r.rice_sell.pay {
                        out.push(Action::Choice(3 + k as u8));
                    }
                }
            }
            Pending::TradeWeapons => {
                out.push(Action::Choice(0));
                let r = self.rates();
                let max = self.param(s, seat, A_TRADE, Some(5), P_MAX_WEAPONS, self.bidders(s, seat, A_TRADE));
                let free: i32 = (0..4).map(|w| self.available(s, B_SPEAR + w).max(0)).sum();
                let have: i32 = p.weapons.iter().sum();
                for k in 1..=2 {
                    if k * r.weapon_buy.get <= max && p.gold >= k * r.weapon_buy.pay && free >= k * r.weapon_buy.get {
                        out.push(Action::Choice(k as u8));
                    }
                }
                for k in 1..=2 {
                    if k * r.weapon_sell.pay <= max && have >= k * r.weapon_sell.pay {
                        out.push(Action::Choice(2 + k as u8));
                    }
                }
            }
            Pending::WeaponPick { give, .. } => {
                for w in 0..4u8 {
                    let ok = if give { p.weapons[w as usize] > 0 } else { self.available(s, B_SPEAR + w as usize) > 0 };
                    if ok {
                        out.push(Action::Weapon(w));
                    }
                }
            }
            Pending::Hire => {
                out.push(Action::Choice(0));
                let w = self.bidders(s, seat, A_INSTRUCT);
                let cost = self.param(s, seat, A_INSTRUCT, Some(6), P_HIRE_RICE, w);
                let limit = self.param(s, seat, A_INSTRUCT, Some(6), P_HIRE_LIMIT, w);
                if p.rice >= cost {
                    for k in 1..=limit.min(p.untrained).min(15) {
                        out.push(Action::Choice(k as u8));
                    }
                }
            }
            Pending::Import => {
                out.push(Action::Choice(0));
                for deck in 0..2u8 {
                    if self.dev_remaining(s, deck).next().is_some() {
                        out.push(Action::Choice(1 + deck));
                    }
                }
            }
            Pending::KeepImport { .. } => {
                let mut b = p.import_drawn;
                while b != 0 {
                    let d = b.trailing_zeros() as u8;
                    b &= b - 1;
                    out.push(Action::Dev(d));
                }
            }
            Pending::Build => {
                let mut b = p.hand;
                while b != 0 {
                    let d = b.trailing_zeros() as u8;
                    b &= b - 1;
                    if self.buildable(s, seat, d) {
                        out.push(Action::Dev(d));
                    }
                }
                out.push(Action::Done);
            }
            Pending::ArmyCost { dev } => {
                let (lo, hi) = self.army_split(s, seat, &self.build_cost(s, seat, dev));
                out.extend((lo..=hi).map(|k| Action::Choice(k as u8)));
            }
            Pending::BonusOrder => out.extend((0..s.bonus_queue.len().min(16)).map(|k| Action::Choice(k as u8))),
            Pending::Produce { action } => {
                let amount = self.param(
                    s,
                    seat,
                    action,
                    None,
                    if action == A_SPEAR_HORSE { P_SPEAR_HORSE } else { P_CROSSBOW_SHIP },
                    self.bidders(s, seat, action),
                );
                out.extend((0..=amount.min(15)).map(|k| Action::Choice(k as u8)));
            }
            Pending::Train => {
                let limit = self.param(s, seat, A_TRAIN, None, P_TRAIN_LIMIT, self.bidders(s, seat, A_TRAIN));
                out.extend((0..=limit.min(p.untrained).min(15)).map(|k| Action::Choice(k as u8)));
            }
            Pending::Tribute => out.extend((0..self.data.tribute.len().min(16)).map(|k| Action::Choice(k as u8))),
            Pending::HanFlip => {
                out.extend(self.bidders(s, seat, A_HAN).iter().map(Action::General));
            }
            Pending::OccupyGeneral { action } => {
                for g in self.bidders(s, seat, action).iter() {
                    if self.occupy_regions(s, seat, action, g) != 0 {
                        out.push(Action::General(g));
                    }
                }
                out.push(Action::Done);
            }
            Pending::OccupyRegion { action, general } => {
                let mut m = self.occupy_regions(s, seat, action, general);
                while m != 0 {
                    out.push(Action::Region(m.trailing_zeros() as u8));
                    m &= m - 1;
                }
            }
            Pending::OccupyUnits { action, general, .. } => {
                let units = s.placements.iter().find(|p| p.general == general && p.action == action).map_or(0, |p| p.units);
                out.extend((1..=units).map(Action::Choice));
            }
            Pending::OccupyStore { .. } => out.extend([Action::Choice(0), Action::Choice(1)]),
            Pending::BonusChoice { card, effect } => {
                let n = match &self.effects(card)[effect as usize] {
                    Effect::ActionBonus { gain: Gain::ChooseOne(list), .. }
                    | Effect::RoundEndIncome { gain: Gain::ChooseOne(list), .. }
                    | Effect::ImmediateGain { gain: Gain::ChooseOne(list) } => list.len(),
                    _ => 1,
                };
                out.extend((0..n.min(16)).map(|k| Action::Choice(k as u8)));
            }
            Pending::Tribal12 | Pending::Protect { .. } => out.extend([Action::Choice(0), Action::Choice(1)]),
            Pending::Exchange { card, effect, .. } => {
                out.push(Action::Choice(0));
                if let Effect::RoundEndExchange { options, .. } = &self.effects(card)[effect as usize] {
                    for (i, (give, _)) in options.iter().enumerate().take(15) {
                        if self.exchange_option_ok(s, seat, give) {
                            out.push(Action::Choice(1 + i as u8));
                        }
                    }
                }
            }
            Pending::BenefitOrder => {
                for k in 0..self.benefits(s, seat).count() {
                    if s.benefits_done & (1 << k) == 0 {
                        out.push(Action::Choice(k as u8));
                    }
                }
            }
            Pending::Auto | Pending::Over => {}
        }
    }

    /// Applies a legal action.
    pub(crate) fn play(&self, s: &mut State, a: Action, ev: &mut Events) {
        let seat = s.seat as usize;
        match (s.pending, a) {
            (Pending::Criterion, Action::Criterion(c)) => {
                // §3-C: Control Han Emperor's marker shows side c, Win Popular Support the other
                s.han_criterion = c;
                ev.emit(
                    Audience::ALL,
                    || event!({"kind": "criterion", "control_han_emperor": if c == 0 { "administration" } else { "combat" }}),
                );
                s.pending = Pending::Auto;
            }
            (Pending::DrawDev { seat: k, deck, left, import }, Action::DrawDev(i)) => {
                let k = k as usize;
                let d = self.dev_card(s, deck, i as usize).expect("a card left");
                let bottom = &mut s.bottom[deck as usize];
                if bottom.first().is_some_and(|&(c, _)| c == d) {
                    bottom.remove(0);
                }
                if import {
                    s.seats[k].import_drawn |= 1 << d;
                    s.import_seq.push(d);
                } else {
                    s.seats[k].hand |= 1 << d;
                }
                let id = &self.data.developments[d as usize].id;
                ev.emit(Audience::seat(k), || event!({"kind": "draw_development", "seat": k, "deck": deck, "card": id}));
                ev.emit(Audience::all_but(k, 3), || event!({"kind": "draw_development", "seat": k, "deck": deck}));
                if left > 1 && self.dev_remaining(s, deck).next().is_some() {
                    s.pending = Pending::DrawDev { seat: k as u8, deck, left: left - 1, import };
                } else if import {
                    self.after_import_draws(s, k, ev);
                } else {
                    s.scratch += 1;
                    s.pending = Pending::Auto;
                }
            }
            (Pending::DrawGeneral { seat: k, left }, Action::DrawGeneral(i)) => {
                let g = self.general_deck(s, k as usize).nth(i as usize).expect("a general left");
                s.gloc[g as usize] = GLoc::Drawn;
                let id = &self.data.generals[g as usize].id;
                ev.emit(Audience::seat(k as usize), || event!({"kind": "draw_general", "seat": k, "general": id}));
                ev.emit(Audience::all_but(k as usize, 3), || event!({"kind": "draw_general", "seat": k}));
                if left > 1 {
                    s.pending = Pending::DrawGeneral { seat: k, left: left - 1 };
                } else {
                    s.seat = k;
                    let keep = s.keep_left[k as usize];
                    if keep > 0 {
                        s.pending = Pending::Keep { seat: k, left: keep };
                    } else {
                        self.end_keep(s, k as usize);
                    }
                }
            }
            (Pending::Keep { seat: k, left }, Action::Keep(g)) => {
                s.gloc[g as usize] = GLoc::Chosen;
                let id = &self.data.generals[g as usize].id;
                ev.emit(Audience::seat(k as usize), || event!({"kind": "keep_general", "seat": k, "general": id}));
                ev.emit(Audience::all_but(k as usize, 3), || event!({"kind": "keep_general", "seat": k}));
                if left > 1 {
                    s.pending = Pending::Keep { seat: k, left: left - 1 };
                } else {
                    self.end_keep(s, k as usize);
                }
            }
            (Pending::Alliance, Action::Alliance(x)) => {
                s.alliance_action = x;
                ev.emit(
                    Audience::ALL,
                    || event!({"kind": "alliance", "seat": seat, "action": ACTIONS[x as usize], "allies": [s.bid_order[1], s.bid_order[2]]}),
                );
                s.stage = Stage::Bidding;
                s.turn = 0;
                s.pending = Pending::Auto;
            }
            (Pending::Bid, Action::Place(g)) => {
                s.cur = Some(Placement {
                    seat: seat as u8,
                    general: g,
                    action: NONE,
                    unit: NONE,
                    units: 0,
                    gold: 0,
                    support: 0,
                    han: false,
                    bonus: 0,
                    value: 0,
                    seq: 0,
                });
                s.pending = Pending::Target;
            }
            (Pending::Bid, Action::Pass) => {
                s.passed[seat] = true;
                ev.emit(Audience::ALL, || event!({"kind": "pass", "seat": seat}));
                s.turn = (s.turn + 1) % 3;
                s.pending = Pending::Auto;
            }
            (Pending::Target, Action::Target(x)) => {
                s.cur.as_mut().expect("placement").action = x;
                s.pending = Pending::Extras;
                let mut ex = Count::default();
                self.extras(s, &mut ex);
                if ex.0 == 1 {
                    self.confirm(s, ev);
                }
            }
            (Pending::Extras, x) => {
                let p = &mut s.seats[seat];
                let cur = s.cur.as_mut().expect("placement");
                match x {
                    Action::Unit(u) => {
                        p.trained -= 1;
                        p.weapons[u as usize] -= 1;
                        cur.unit = u;
                        cur.units += 1;
                    }
                    Action::Gold => {
                        p.gold -= 1;
                        cur.gold += 1;
                    }
                    Action::Support => {
                        p.support -= 1;
                        cur.support += 1;
                    }
                    Action::Han => cur.han = true,
                    _ => {
                        self.confirm(s, ev);
                        return;
                    }
                }
                let mut ex = Count::default();
                self.extras(s, &mut ex);
                if ex.0 == 1 {
                    self.confirm(s, ev);
                }
            }
            (Pending::ChooseAction, Action::Decline(x)) => self.finish_action(s, seat, x, false, ev),
            (Pending::ChooseAction, Action::Perform(x)) => self.start_action(s, seat, x, ev),
            (_, x) => self.answer(s, seat, x, ev),
        }
    }

    fn end_keep(&self, s: &mut State, k: usize) {
        // unchosen cards go back to the deck (§3-L, §7 1))
        for &g in &self.data.decks[k] {
            if s.gloc[g as usize] == GLoc::Drawn {
                s.gloc[g as usize] = GLoc::Deck;
            }
        }
        s.cursor += 1;
        s.pending = Pending::Auto;
    }

    fn after_import_draws(&self, s: &mut State, seat: usize, ev: &mut Events) {
        let keep = self.param(s, seat, A_INSTRUCT, Some(M_IMPORT), P_IMPORT_KEEP, self.bidders(s, seat, A_INSTRUCT)) as u32;
        if s.seats[seat].import_drawn.count_ones() > keep {
            s.seat = seat as u8;
            s.pending = Pending::KeepImport { left: keep as u8 };
        } else {
            let p = &mut s.seats[seat];
            p.hand |= p.import_drawn;
            p.import_drawn = 0;
            s.import_seq.clear();
            self.end_instruct(s, seat, ev);
        }
    }

    fn end_instruct(&self, s: &mut State, seat: usize, ev: &mut Events) {
        let modes = s.scratch as u16;
        if modes == 0 {
            // §8 3): hiring no instructor and importing nothing is not performing the action.
            // INTERPRETATION (RULES_NOTES.md T8).
            self.finish_action(s, seat, A_INSTRUCT, false, ev);
        } else {
            self.complete(s, seat, A_INSTRUCT, modes, None);
        }
    }

    // === 8. the actions ===

    fn start_action(&self, s: &mut State, seat: usize, a: u8, ev: &mut Events) {
        s.acting = a;
        s.scratch = 0;
        let w = self.bidders(s, seat, a);
        let p = &s.seats[seat];
        match a {
            A_FARM | A_MARKET => {
                let (level, area) = if a == A_FARM { (p.farm_level, p.farm_area) } else { (p.market_level, p.market_area) };
                match (level < 5, area > 0) {
                    (true, true) => s.pending = Pending::DevelopMode { action: a },
                    (true, false) => self.develop(s, seat, a, ev),
                    _ => s.pending = Pending::Bank { action: a },
                }
            }
            A_TRADE => s.pending = Pending::TradeRice,
            A_INSTRUCT => s.pending = Pending::Hire,
            A_BUILD => s.pending = Pending::Build,
            A_SPEAR_HORSE | A_CROSSBOW_SHIP => s.pending = Pending::Produce { action: a },
            A_RECRUIT => {
                let n = self.param(s, seat, a, None, P_RECRUIT, w);
                let trained = self.param(s, seat, a, None, P_AS_TRAINED, w).min(n);
                let t = self.take(s, seat, B_TRAINED, trained);
                let u = self.take(s, seat, B_UNTRAINED, n - trained);
                ev.emit(Audience::ALL, || event!({"kind": "recruit_armies", "seat": seat, "untrained": u, "trained": t}));
                self.complete(s, seat, a, 0, None);
            }
            A_TRAIN => {
                let limit = self.param(s, seat, a, None, P_TRAIN_LIMIT, w);
                if limit.min(p.untrained) == 0 {
                    // §8 3): nothing to train, nothing done: the action is declined (T8).
                    self.finish_action(s, seat, a, false, ev);
                } else {
                    s.pending = Pending::Train;
                }
            }
            A_TRIBUTE => s.pending = Pending::Tribute,
            A_SUPPORT => {
                let n = self.param(s, seat, a, None, P_SUPPORT, w);
                let got = self.take(s, seat, B_SUPPORT, n);
                ev.emit(Audience::ALL, || event!({"kind": "support", "seat": seat, "amount": got}));
                self.complete(s, seat, a, 0, None);
            }
            A_HAN => {
                let cost = self.param(s, seat, a, None, P_HAN_GOLD, w);
                let p = &mut s.seats[seat];
                p.gold -= cost;
                p.office += 1;
                let office = p.office;
                ev.emit(Audience::ALL, || event!({"kind": "office", "seat": seat, "office": office, "paid": cost}));
                let exhaust = self.param(s, seat, a, None, P_HAN_EXHAUST, w);
                if exhaust > 0 && w.len() > 1 {
                    s.pending = Pending::HanFlip;
                } else {
                    if exhaust > 0 {
                        s.han_flipped = w.iter().next().expect("the winning general");
                    }
                    self.complete(s, seat, a, 0, None);
                }
            }
            12..=14 => {
                let mut any = false;
                for g in w.iter() {
                    any |= self.occupy_regions(s, seat, a, g) != 0;
                }
                if any {
                    s.pending = Pending::OccupyGeneral { action: a };
                } else {
                    // C21: nothing can be occupied; everything returns
                    self.finish_action(s, seat, a, true, ev);
                }
            }
            _ => self.tribal_action(s, seat, a, ev),
        }
    }

    fn develop(&self, s: &mut State, seat: usize, a: u8, ev: &mut Events) {
        let w = self.bidders(s, seat, a);
        let (mode, p_levels) = if a == A_FARM { (0u8, P_FARM_LEVELS) } else { (2u8, P_MARKET_LEVELS) };
        let n = self.param(s, seat, a, Some(mode), p_levels, w) as u8;
        let p = &mut s.seats[seat];
        let (level, area) = if a == A_FARM { (&mut p.farm_level, &mut p.farm_area) } else { (&mut p.market_level, &mut p.market_area) };
        // C12: only the leftmost undeveloped token flips; 5 positions
        let n = n.min(5 - *level);
        *level += n;
        *area += n;
        let lv = *level;
        ev.emit(Audience::ALL, || event!({"kind": "develop", "seat": seat, "action": ACTIONS[a as usize], "level": lv}));
        self.complete(s, seat, a, 1 << mode, None);
    }

    fn tribal_action(&self, s: &mut State, seat: usize, a: u8, ev: &mut Events) {
        let w = self.bidders(s, seat, a);
        let bonus = self.param(s, seat, a, None, P_TRIBAL_BONUS, w);
        let steps: i32 =
            s.placements.iter().filter(|p| p.seat as usize == seat && p.action == a).map(|p| p.gold as i32 + p.units as i32).sum::<i32>()
                + bonus;
        let p = &mut s.seats[seat];
        p.tribal = (p.tribal + steps).min(self.data.tribal_max);
        let t = p.tribal;
        ev.emit(Audience::ALL, || event!({"kind": "tribal_action", "seat": seat, "steps": steps, "tribal": t}));
        self.bonuses(s, seat, a, 0, None);
        s.queue.push(Deferred::Tribal12 { seat: seat as u8 });
        s.queue.push(Deferred::Finish { seat: seat as u8, action: a });
        s.pending = Pending::Auto;
    }

    /// Answers the prompts of the actions and of the round end.
    fn answer(&self, s: &mut State, seat: usize, x: Action, ev: &mut Events) {
        let k = if let Action::Choice(k) = x { k as i32 } else { -1 };
        let a = s.acting;
        let w = if a != NONE { self.bidders(s, seat, a) } else { Generals::default() };
        match s.pending {
            Pending::DevelopMode { action } => {
                if k == 0 {
                    self.develop(s, seat, action, ev);
                } else {
                    s.pending = Pending::Bank { action };
                }
            }
            Pending::Bank { action } => {
                let farm = action == A_FARM;
                let (mode, pp) = if farm { (M_HARVEST, P_HARVEST_RICE) } else { (M_TAX, P_TAX_GOLD) };
                let per = self.param(s, seat, action, Some(mode), pp, w);
                let p = &mut s.seats[seat];
                let area = if farm { p.farm_area } else { p.market_area } as i32;
                let cashed = area - k;
                if farm {
                    p.granary_farm += k as u8;
                    p.farm_area = 0;
                    p.rice += cashed * per;
                } else {
                    p.treasury_market += k as u8;
                    p.market_area = 0;
                    p.gold += cashed * per;
                }
                ev.emit(Audience::ALL, || event!({"kind": if farm { "harvest" } else { "collect_tax" }, "seat": seat, "banked": k, "cashed": cashed, "gain": cashed * per}));
                self.complete(s, seat, action, 1 << mode, None);
            }
            Pending::TradeRice => {
                let trade = self.rates().rice_trade(k);
                let p = &mut s.seats[seat];
                match trade {
                    Trade::Nothing => {}
                    Trade::Buy { goods, gold } => {
                        p.gold -= gold;
                        p.rice += goods;
                    }
                    Trade::Sell { goods, gold } => {
                        p.rice -= goods;
                        p.gold += gold;
                    }
                }
                if trade != Trade::Nothing {
                    s.scratch |= 1 << 4;
                }
                ev.emit(Audience::ALL, || event!({"kind": "trade_rice", "seat": seat, "choice": k}));
                s.pending = Pending::TradeWeapons;
            }
            Pending::TradeWeapons => {
                let mut modes = s.scratch as u16;
                let trade = self.rates().weapon_trade(k);
                if let Trade::Buy { goods, gold } | Trade::Sell { goods, gold } = trade {
                    // Weapons bought are picks taken from the supply, weapons sold picks given from
                    // the seat's own (Deferred::Weapons).
                    let give = matches!(trade, Trade::Sell { .. });
                    s.seats[seat].gold += if give { gold } else { -gold };
                    s.queue.push(Deferred::Weapons { seat: seat as u8, n: goods as u8, give });
                    modes |= 1 << 5;
                }
                ev.emit(Audience::ALL, || event!({"kind": "trade_weapons", "seat": seat, "choice": k}));
                if modes == 0 {
                    // §8 3) "승리한 액션을 수행하지 않기로 선택할 수도 있습니다": no rice trade and no
                    // weapon trade is declining the action. INTERPRETATION (RULES_NOTES.md T8).
                    self.finish_action(s, seat, A_TRADE, false, ev);
                } else {
                    self.complete(s, seat, A_TRADE, modes, None);
                }
            }
            Pending::WeaponPick { left, give } => {
                let Action::Weapon(t) = x else { unreachable!("weapon pick") };
                if give {
                    s.seats[seat].weapons[t as usize] -= 1;
                } else {
                    self.take(s, seat, B_SPEAR + t as usize, 1);
                }
                ev.emit(
                    Audience::ALL,
                    || event!({"kind": if give { "weapon_paid" } else { "weapon_gained" }, "seat": seat, "weapon": WEAPONS[t as usize]}),
                );
                let more =
                    if give { s.seats[seat].weapons.iter().sum::<i32>() > 0 } else { (0..4).any(|w| self.available(s, B_SPEAR + w) > 0) };
                if left > 1 && more {
                    s.pending = Pending::WeaponPick { left: left - 1, give };
                } else {
                    s.queue.remove(0);
                    s.pending = Pending::Auto;
                }
            }
            Pending::Hire => {
                if k > 0 {
                    let cost = self.param(s, seat, A_INSTRUCT, Some(6), P_HIRE_RICE, w);
                    let p = &mut s.seats[seat];
                    p.rice -= cost;
                    p.untrained -= k;
                    p.trained += k;
                    s.scratch |= 1 << 6;
                    ev.emit(Audience::ALL, || event!({"kind": "hire_instructor", "seat": seat, "trained": k}));
                }
                s.pending = Pending::Import;
            }
            Pending::Import => {
                if k == 0 {
                    self.end_instruct(s, seat, ev);
                } else {
                    let deck = (k - 1) as u8;
                    s.scratch |= 1 << M_IMPORT;
                    let n = self.param(s, seat, A_INSTRUCT, Some(M_IMPORT), P_IMPORT_DRAW, w).max(1);
                    let have = self.dev_remaining(s, deck).count() as i32; // the bottom included
                    ev.emit(Audience::ALL, || event!({"kind": "import_tech", "seat": seat, "deck": deck}));
                    s.pending = Pending::DrawDev { seat: seat as u8, deck, left: n.min(have) as u8, import: true };
                }
            }
            Pending::KeepImport { left } => {
                let Action::Dev(d) = x else { unreachable!("keep import") };
                let p = &mut s.seats[seat];
                p.import_drawn &= !(1 << d);
                p.hand |= 1 << d;
                let id = &self.data.developments[d as usize].id;
                ev.emit(Audience::seat(seat), || event!({"kind": "keep_development", "seat": seat, "card": id}));
                if left > 1 && s.seats[seat].import_drawn != 0 {
                    s.pending = Pending::KeepImport { left: left - 1 };
                } else {
                    self.return_imports(s, seat, ev);
                    self.end_instruct(s, seat, ev);
                }
            }
            Pending::Build => match x {
                Action::Dev(d) => {
                    let (lo, hi) = self.army_split(s, seat, &self.build_cost(s, seat, d));
                    if lo < hi {
                        s.pending = Pending::ArmyCost { dev: d };
                    } else {
                        self.build(s, seat, d, lo, ev);
                    }
                }
                // §8 3): nothing built is not performing the action (T8).
                _ if s.scratch == 0 => self.finish_action(s, seat, A_BUILD, false, ev),
                _ => self.complete(s, seat, A_BUILD, 0, None),
            },
            Pending::ArmyCost { dev } => self.build(s, seat, dev, k, ev),
            Pending::Produce { action } => {
                let amount = self.param(s, seat, action, None, if action == A_SPEAR_HORSE { P_SPEAR_HORSE } else { P_CROSSBOW_SHIP }, w);
                let first = if action == A_SPEAR_HORSE { B_SPEAR } else { B_SPEAR + 2 };
                let a1 = self.take(s, seat, first, k);
                let a2 = self.take(s, seat, first + 1, amount - k);
                ev.emit(Audience::ALL, || {
                    if action == A_SPEAR_HORSE {
                        event!({"kind": "produce", "seat": seat, "spear": a1, "horse": a2})
                    } else {
                        event!({"kind": "produce", "seat": seat, "crossbow": a1, "ship": a2})
                    }
                });
                self.complete(s, seat, action, 0, None);
            }
            Pending::Train => {
                let p = &mut s.seats[seat];
                p.untrained -= k;
                p.trained += k;
                ev.emit(Audience::ALL, || event!({"kind": "train", "seat": seat, "amount": k}));
                if k == 0 {
                    // §8 3): training no army is not performing the action (T8).
                    self.finish_action(s, seat, A_TRAIN, false, ev);
                } else {
                    self.complete(s, seat, A_TRAIN, 0, None);
                }
            }
            Pending::Tribute => {
                let b = self.data.tribute[k as usize];
                let picks = self.gain(s, seat, &b, ev);
                if picks > 0 {
                    s.queue.push(Deferred::Weapons { seat: seat as u8, n: picks, give: false });
                }
                self.complete(s, seat, A_TRIBUTE, 0, None);
            }
            Pending::HanFlip => {
                let Action::General(g) = x else { unreachable!("han flip") };
                s.han_flipped = g;
                let id = &self.data.generals[g as usize].id;
                ev.emit(Audience::ALL, || event!({"kind": "han_flip", "seat": seat, "general": id}));
                self.complete(s, seat, A_HAN, 0, None);
            }
            Pending::OccupyGeneral { action } => match x {
                Action::General(g) => s.pending = Pending::OccupyRegion { action, general: g },
                _ => self.finish_action(s, seat, action, true, ev),
            },
            Pending::OccupyRegion { action, general } => {
                let Action::Region(r) = x else { unreachable!("region") };
                let units = s.placements.iter().find(|p| p.general == general && p.action == action).map_or(0, |p| p.units);
                if units == 1 {
                    self.occupy(s, seat, action, general, r, 1);
                } else {
                    s.pending = Pending::OccupyUnits { action, general, region: r };
                }
            }
            Pending::OccupyUnits { action, general, region } => self.occupy(s, seat, action, general, region, k as u8),
            Pending::OccupyStore { region } => {
                let p = &mut s.seats[seat];
                if k == 0 {
                    p.granary_regions |= 1 << region;
                } else {
                    p.treasury_regions |= 1 << region;
                }
                let reg = s.regions[region as usize];
                let (rid, gid) = (&self.data.regions[region as usize].id, &self.data.generals[reg.general as usize].id);
                ev.emit(Audience::ALL, || {
                    event!({"kind": "occupy", "seat": seat, "region": rid, "general": gid, "unit": UNITS[reg.unit as usize], "units": reg.units,
                           "flipped": reg.flipped, "token_to": if k == 0 { "granary" } else { "treasury" }})
                });
                let action = s.acting;
                self.complete(s, seat, action, 1 << M_OCCUPY, Some(reg.general));
            }
            Pending::BonusChoice { card, effect } => {
                let b = match &self.effects(card)[effect as usize] {
                    Effect::ActionBonus { gain: Gain::ChooseOne(list), .. }
                    | Effect::RoundEndIncome { gain: Gain::ChooseOne(list), .. }
                    | Effect::ImmediateGain { gain: Gain::ChooseOne(list) } => list[k as usize],
                    _ => [0; 14],
                };
                s.queue.remove(0);
                let picks = self.gain(s, seat, &b, ev);
                if picks > 0 {
                    s.queue.insert(0, Deferred::Weapons { seat: seat as u8, n: picks, give: false });
                }
                s.pending = Pending::Auto;
            }
            Pending::Tribal12 => {
                if k == 1 {
                    let p = &mut s.seats[seat];
                    p.rice -= 2;
                    p.support += 1;
                    ev.emit(Audience::ALL, || event!({"kind": "tribal12_support", "seat": seat}));
                }
                s.pending = Pending::Auto;
            }
            Pending::Protect { card } => {
                if k == 1 {
                    for e in &self.data.developments[card as usize].effects {
                        if let Effect::DeficitProtection { pay, .. } = e {
                            self.pay(s, seat, pay, 0);
                        }
                    }
                    s.seats[seat].protections_used += 1;
                    ev.emit(Audience::ALL, || event!({"kind": "deficit_protected", "seat": seat}));
                } else {
                    s.seats[seat].deficits += 1;
                    ev.emit(Audience::ALL, || event!({"kind": "deficit", "seat": seat, "cause": "rebellion"}));
                }
                s.pending = Pending::Auto;
            }
            Pending::BonusOrder => {
                s.pending = Pending::Auto;
                self.resolve_bonus(s, seat, k as usize, ev);
            }
            Pending::BenefitOrder => {
                let (c, i) = self.benefits(s, seat).nth(k as usize).expect("a listed benefit");
                s.benefits_done |= 1 << k;
                s.pending = Pending::Auto;
                self.activate_benefit(s, seat, c, i, ev);
            }
            Pending::Exchange { card, effect, left } => {
                if k == 0 {
                    s.pending = Pending::Auto;
                    return;
                }
                let (mut give, mut get) = match &self.effects(card)[effect as usize] {
                    Effect::RoundEndExchange { options, .. } => options[(k - 1) as usize],
                    _ => ([0; 14], [0; 14]),
                };
                let give_w = give[B_WEAPON];
                give[B_WEAPON] = 0;
                self.pay(s, seat, &give, 0);
                let get_w = get[B_WEAPON];
                get[B_WEAPON] = 0;
                let picks = self.gain(s, seat, &get, ev);
                ev.emit(Audience::ALL, || event!({"kind": "exchange", "seat": seat, "card": text(self.card_name(card)), "option": k - 1}));
                if give_w > 0 {
                    s.queue.push(Deferred::Weapons { seat: seat as u8, n: give_w as u8, give: true });
                }
                if get_w > 0 || picks > 0 {
                    let free: i32 = (0..4).map(|w| self.available(s, B_SPEAR + w).max(0)).sum();
                    s.queue.push(Deferred::Weapons { seat: seat as u8, n: (get_w.min(free) + picks as i32) as u8, give: false });
                }
                let again = left > 1
                    && match &self.effects(card)[effect as usize] {
                        Effect::RoundEndExchange { options, .. } => options.iter().any(|(g, _)| self.exchange_option_ok(s, seat, g)),
                        _ => false,
                    };
                s.pending = if again { Pending::Exchange { card, effect, left: left - 1 } } else { Pending::Auto };
            }
            _ => unreachable!("no answer for {:?} with {:?}", s.pending, x),
        }
    }

    /// §8 기술 수입: the imported cards not kept go to the bottom of their deck.
    // INTERPRETATION (RULES_NOTES.md T1): in the order they were drawn, under the cards
    // already there; the returning seat knows them, the others see how many
    fn return_imports(&self, s: &mut State, seat: usize, ev: &mut Events) {
        let back = s.seats[seat].import_drawn;
        s.seats[seat].import_drawn = 0;
        let mut seq = std::mem::take(&mut s.import_seq);
        let cards = || seq.iter().copied().filter(|&c| back & (1 << c) != 0);
        if let Some(first) = cards().next() {
            let deck = self.data.developments[first as usize].deck;
            s.bottom[deck as usize].extend(cards().map(|c| (c, seat as u8)));
            ev.emit(Audience::seat(seat), || {
                let ids: Vec<&str> = cards().map(|c| self.data.developments[c as usize].id.as_str()).collect();
                event!({"kind": "to_deck_bottom", "seat": seat, "deck": deck, "cards": ids})
            });
            ev.emit(
                Audience::all_but(seat, 3),
                || event!({"kind": "to_deck_bottom", "seat": seat, "deck": deck, "count": cards().count()}),
            );
        }
        seq.clear();
        s.import_seq = seq;
    }

    /// Builds development `d` from the hand, `trained_army` of its army cost paid with
    /// trained armies; then the next build if the action allows one.
    fn build(&self, s: &mut State, seat: usize, d: u8, trained_army: i32, ev: &mut Events) {
        let cost = self.build_cost(s, seat, d);
        self.pay(s, seat, &cost, trained_army);
        let p = &mut s.seats[seat];
        p.hand &= !(1 << d);
        p.built |= 1 << d;
        s.built_round[d as usize] = s.round;
        let id = &self.data.developments[d as usize].id;
        ev.emit(Audience::ALL, || event!({"kind": "build", "seat": seat, "card": id, "trained_armies_paid": trained_army}));
        let card = (self.g_count() + d as usize) as u16;
        for (i, e) in self.data.developments[d as usize].effects.iter().enumerate() {
            match e {
                Effect::ImmediateGain { gain } => self.grant(s, seat, gain, card, i as u8, 1, ev),
                Effect::MilitaryScoreChange { on_build: true, self_amount, each_opponent, transfer, cond }
                    if self.cond_ok_pub(s, seat, cond, card, None, None) =>
                {
                    self.military_change(s, seat, *self_amount, *each_opponent, *transfer);
                }
                _ => {}
            }
        }
        s.scratch += 1;
        let builds = self.param(s, seat, A_BUILD, None, 10, self.bidders(s, seat, A_BUILD));
        if (s.scratch as i32) < builds {
            s.pending = Pending::Build;
        } else {
            self.complete(s, seat, A_BUILD, 0, None);
        }
    }

    fn occupy(&self, s: &mut State, seat: usize, action: u8, general: u8, region: u8, k: u8) {
        let i = s.placements.iter().position(|p| p.general == general && p.action == action).expect("placement");
        let unit = s.placements[i].unit;
        s.placements[i].units -= k;
        let gen = &self.data.generals[general as usize];
        let flipped =
            gen.specialties & (1 << unit) != 0 || gen.effects.iter().any(|e| matches!(e, Effect::OccupationRule(OccRule::AlwaysFlip)));
        s.regions[region as usize] = RegionState { seat: seat as u8, general, unit, units: k, flipped };
        s.gloc[general as usize] = GLoc::Stationed;
        s.stationed[seat].push(region);
        s.pending = Pending::OccupyStore { region };
    }
}
