//! The round machine: setup (§3), recruitment (§7 1)), alliance (§7 2)), bidding (§7 3)),
//! resolution (§8 1)-5)), upkeep (§9), end (§11). Player decisions and chance nodes are
//! `Pending` values; everything else runs in `advance`.

use serde_json::json;

use super::action::{Action, Actions};
use super::data::*;
use super::rules::{Card, Generals};
use super::state::*;
use super::Tkr;
use crate::events::{event, text, Audience, Events};
use crate::rng::Rng;

impl Tkr {
    // === 3. Setup ===

    pub(crate) fn initial(&self, rng: Rng) -> State {
        let d = &self.data;
        let seats: [Seat; 3] = std::array::from_fn(|k| Seat {
            gold: d.start_gold[k],
            rice: d.start_rice[k],
            support: d.start_support[k],
            tribal: d.start_tribal[k],
            ..Seat::default()
        });
        let mut gloc = vec![GLoc::Deck; d.generals.len()];
        let mut recruited_round = vec![0u8; d.generals.len()];
        for &r in &d.rulers {
            gloc[r as usize] = GLoc::Active;
            recruited_round[r as usize] = 1;
        }
        State {
            rng,
            round: 1,
            stage: Stage::Setup,
            pending: Pending::Criterion,
            seat: 0,
            seats,
            gloc,
            recruited_round,
            built_round: vec![0; d.developments.len()],
            reservoir: vec![-1; d.generals.len() + d.developments.len()],
            regions: vec![RegionState { seat: NONE, general: NONE, unit: NONE, units: 0, flipped: false }; d.regions.len()],
            stationed: Default::default(),
            han_criterion: 0,
            han_holder: NONE,
            han_flipped: NONE,
            han_winner: NONE,
            // §3-B: Wei, Wu, Shu; §3-H: the alliance token goes to Shu (player 3)
            bid_order: [0, 1, 2],
            action_order: [0, 1, 2],
            alliance_action: NONE,
            last_alliance_action: NONE,
            // at most one placement per general a round: allocated once an episode
            placements: Vec::with_capacity(d.generals.len()),
            totals: [[0; 3]; 18],
            last_inc: [[0; 3]; 18],
            side_bonus: [0; 18],
            passed: [false; 3],
            han_used: false,
            seq: 0,
            cur: None,
            turn: 0,
            cursor: 0,
            acting: NONE,
            scratch: 0,
            bonus_queue: Vec::new(),
            bonus_action: NONE,
            picks: [0; 4],
            keep_left: [0; 3],
            queue: Vec::new(),
            bottom: Default::default(),
            import_seq: Vec::new(),
            benefits_done: 0,
            end_reason: 0,
            final_scores: Vec::new(),
        }
    }

    /// Development cards still in deck `deck` (not in a hand, not built, not being imported),
    /// the known bottom part included.
    pub(crate) fn dev_remaining(&self, s: &State, deck: u8) -> impl Iterator<Item = u8> + '_ {
        let used = s.seats.iter().fold(0u64, |m, p| m | p.hand | p.built | p.import_drawn);
        self.data.dev_decks[deck as usize].iter().copied().filter(move |&c| used & (1 << c) == 0)
    }

    /// The unknown (shuffled) part of deck `deck`: the cards left that are not in its bottom.
    pub(crate) fn dev_unknown<'a>(&'a self, s: &'a State, deck: u8) -> impl Iterator<Item = u8> + 'a {
        let bottom = s.bottom[deck as usize].iter().fold(0u64, |m, &(c, _)| m | 1 << c);
        self.dev_remaining(s, deck).filter(move |&c| bottom & (1 << c) == 0)
    }

    /// Outcomes of a draw from deck `deck`: one per card of the unknown part, or the single
    /// next bottom card once the unknown part is exhausted (T1).
    pub(crate) fn dev_outcomes(&self, s: &State, deck: u8) -> usize {
        match self.dev_unknown(s, deck).count() {
            0 => s.bottom[deck as usize].len().min(1),
            n => n,
        }
    }

    /// The card behind draw outcome `k` of deck `deck`.
    pub(crate) fn dev_card(&self, s: &State, deck: u8, k: usize) -> Option<u8> {
        let mut unknown = self.dev_unknown(s, deck).peekable();
        if unknown.peek().is_some() {
            unknown.nth(k)
        } else {
            s.bottom[deck as usize].first().filter(|_| k == 0).map(|&(c, _)| c)
        }
    }

    pub(crate) fn general_deck<'a>(&'a self, s: &'a State, seat: usize) -> impl Iterator<Item = u8> + 'a {
        self.data.decks[seat].iter().copied().filter(move |&g| s.gloc[g as usize] == GLoc::Deck)
    }

    // === the machine ===

    pub(crate) fn advance(&self, s: &mut State, ev: &mut Events) {
        loop {
            if s.pending != Pending::Auto {
                return;
            }
            if let Some(q) = s.queue.first().copied() {
                match q {
                    Deferred::Weapons { seat, n, give } => {
                        let p = &s.seats[seat as usize];
                        let possible =
                            if give { p.weapons.iter().sum::<i32>() > 0 } else { (0..4).any(|w| self.available(s, B_SPEAR + w) > 0) };
                        if n == 0 || !possible {
                            s.queue.remove(0);
                            continue;
                        }
                        s.seat = seat;
                        s.pending = Pending::WeaponPick { left: n, give };
                    }
                    Deferred::Choose { seat, card, effect } => {
                        s.seat = seat;
                        s.pending = Pending::BonusChoice { card, effect };
                    }
                    Deferred::Bonuses { seat } => {
                        if s.bonus_queue.is_empty() {
                            s.queue.remove(0);
                            continue;
                        }
                        // INTERPRETATION (RULES_NOTES.md T10): the owner orders its bonuses
                        // when the order can change the result; otherwise card order
                        if self.bonus_order_matters(s) {
                            s.seat = seat;
                            s.pending = Pending::BonusOrder;
                        } else {
                            self.resolve_bonus(s, seat as usize, 0, ev);
                            continue;
                        }
                    }
                    Deferred::Tribal12 { seat } => {
                        s.queue.remove(0);
                        // C16: at 12 the player may pay 2 rice for 1 support token
                        let p = &s.seats[seat as usize];
                        if p.tribal == self.data.tribal_max && self.can_buy_support(s, seat as usize) {
                            s.seat = seat;
                            s.pending = Pending::Tribal12;
                        } else {
                            continue;
                        }
                    }
                    Deferred::Finish { seat, action } => {
                        s.queue.remove(0);
                        self.finish_action(s, seat as usize, action, true, ev);
                        continue;
                    }
                }
                return;
            }
            match s.stage {
                Stage::Setup => self.step_setup(s),
                Stage::Recruit => self.step_recruit(s, ev),
                Stage::Alliance => {
                    s.seat = s.bid_order[2];
                    s.pending = Pending::Alliance;
                }
                Stage::Bidding => self.step_bidding(s, ev),
                Stage::Perform => self.step_perform(s, ev),
                Stage::TribalDecay => self.step_tribal(s, ev),
                Stage::Benefits => self.step_benefits(s, ev),
                Stage::Over => {
                    s.pending = Pending::Over;
                    return;
                }
            }
        }
    }

    fn step_setup(&self, s: &mut State) {
        // §3-K: development hands, separation then unity per seat
        while s.scratch < 6 {
            let seat = s.scratch / 2;
            let deck = if s.scratch % 2 == 0 { 1 } else { 0 };
            let want = self.data.start_hand[seat as usize][(1 - deck) as usize];
            let have = self.dev_remaining(s, deck).count() as u8;
            let n = want.min(have);
            if n > 0 {
                s.pending = Pending::DrawDev { seat, deck, left: n, import: false };
                return;
            }
            s.scratch += 1;
        }
        // §3-L: initial recruitment (scratch 1 marks the setup recruitment)
        s.stage = Stage::Recruit;
        s.cursor = 0;
        s.scratch = 1;
    }

    /// (draw, keep) of `seat` in the current recruitment.
    fn recruit_counts(&self, s: &State, seat: usize) -> (u8, u8) {
        let (mut draw, mut keep) =
            if s.scratch == 1 { self.data.setup_recruit[seat] } else { self.data.recruit_in(s.round, seat).unwrap_or((0, 0)) };
        if s.scratch != 1 {
            // recruitment_bonus: rounds 3, 5, 9 only, not at setup
            for c in self.cards(s, seat) {
                for e in self.effects(c) {
                    if let Effect::RecruitmentBonus { draw_extra, choose_extra } = e {
                        draw += draw_extra + choose_extra;
                        keep += choose_extra;
                    }
                }
            }
        }
        let deck = self.general_deck(s, seat).count() as u8;
        let draw = draw.min(deck);
        (draw, keep.min(draw))
    }

    fn step_recruit(&self, s: &mut State, ev: &mut Events) {
        while s.cursor < 3 {
            let seat = s.cursor as usize;
            let (draw, keep) = self.recruit_counts(s, seat);
            if draw > 0 {
                s.keep_left[seat] = keep;
                s.pending = Pending::DrawGeneral { seat: seat as u8, left: draw };
                return;
            }
            s.cursor += 1;
        }
        // reveal together (§7 1), C41)
        let round = s.round;
        let mut revealed = Generals::default();
        for g in 0..s.gloc.len() {
            match s.gloc[g] {
                GLoc::Chosen => {
                    s.gloc[g] = GLoc::Active;
                    s.recruited_round[g] = round;
                    revealed.0 |= 1 << g;
                }
                GLoc::Drawn => s.gloc[g] = GLoc::Deck,
                _ => {}
            }
        }
        ev.emit(Audience::ALL, || {
            event!({"kind": "reveal", "round": round, "generals": revealed.iter().map(|g| json!({"seat": self.data.generals[g as usize].kingdom, "general": self.data.generals[g as usize].id})).collect::<Vec<_>>()})
        });
        // immediate_gain of the new generals (C31: setup ones after setup)
        for g in revealed.iter().map(usize::from) {
            let seat = self.data.generals[g].kingdom as usize;
            for (i, e) in self.data.generals[g].effects.iter().enumerate() {
                if let Effect::ImmediateGain { gain } = e {
                    self.grant(s, seat, gain, g as Card, i as u8, 1, ev);
                }
            }
        }
        s.scratch = 0;
        s.cursor = 0;
        s.stage = Stage::Alliance;
    }

    /// Gains a `Gain` (fixed: now; choose_one: queued prompt), `times` times.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn grant(&self, s: &mut State, seat: usize, gain: &Gain, card: Card, effect: u8, times: i32, ev: &mut Events) {
        match gain {
            Gain::Fixed(b) => {
                let mut b = *b;
                for x in b.iter_mut() {
                    *x *= times;
                }
                let picks = self.gain(s, seat, &b, ev);
                if picks > 0 {
                    s.queue.push(Deferred::Weapons { seat: seat as u8, n: picks, give: false });
                }
            }
            Gain::ChooseOne(_) => {
                for _ in 0..times {
                    s.queue.push(Deferred::Choose { seat: seat as u8, card, effect });
                }
            }
        }
    }

    // === 7. Conflict phase: bidding ===

    /// Generals of `seat` that may still be placed this round.
    pub(crate) fn available_generals<'a>(&'a self, s: &'a State, seat: usize) -> impl Iterator<Item = u8> + 'a {
        let placed = s.placed_generals();
        let flipped = s.han_flipped;
        self.data.by_kingdom[seat]
            .iter()
            .copied()
            .filter(move |&g| s.gloc[g as usize] == GLoc::Active && placed & (1u128 << g) == 0 && g != flipped)
    }

    pub(crate) fn target_ok(&self, s: &State, seat: usize, a: u8) -> bool {
        match a {
            0..=11 => true,
            12..=14 => BORDER_SEATS[(a - A_BATTLE0) as usize].contains(&(seat as u8)),
            _ => a == A_TRIBAL0 + seat as u8 && !s.placements.iter().any(|p| p.seat as usize == seat && p.action == a),
        }
    }

    fn step_bidding(&self, s: &mut State, ev: &mut Events) {
        for i in 0..3 {
            let idx = (s.turn + i) % 3;
            let seat = s.bid_order[idx as usize] as usize;
            if !s.passed[seat] && self.available_generals(s, seat).next().is_some() {
                s.turn = idx;
                s.seat = seat as u8;
                s.pending = Pending::Bid;
                return;
            }
        }
        self.resolve_bids(s, ev);
        s.stage = Stage::Perform;
        s.cursor = 0;
    }

    /// Extras that may still be added to the placement being built.
    pub(crate) fn extras(&self, s: &State, out: &mut impl Actions) {
        let Some(pl) = s.cur else { return };
        let seat = pl.seat as usize;
        let p = &s.seats[seat];
        let a = pl.action;
        let lead = self.stat(pl.general, s.round, Stat::Leadership);
        let tribal = a >= A_TRIBAL0;
        if (a >= A_BATTLE0) && pl.gold == 0 && pl.units < lead && p.trained > 0 {
            for u in 0..4u8 {
                if (pl.unit == NONE || pl.unit == u) && p.weapons[u as usize] > 0 {
                    out.push(Action::Unit(u));
                }
            }
        }
        if tribal && pl.units == 0 && pl.gold < lead && p.gold > 0 {
            out.push(Action::Gold);
        }
        // INTERPRETATION (RULES_NOTES.md T32): at most 255 support tokens on one placement.
        if !tribal && p.support > 0 && pl.support < u8::MAX {
            out.push(Action::Support);
        }
        if !tribal && s.han_holder as usize == seat && !s.han_used && !pl.han {
            out.push(Action::Han);
        }
        out.push(Action::Confirm);
    }

    /// Base bid of a general on an action (criterion stat or bid_with_stat, §7).
    pub(crate) fn base_bid(&self, s: &State, g: u8, a: u8) -> i32 {
        let crit = match self.data.criterion[a as usize] {
            0 => Stat::Admin,
            1 | 3 => Stat::Combat,
            2 => {
                let c = if a == A_HAN { s.han_criterion } else { 1 - s.han_criterion };
                if c == 0 {
                    Stat::Admin
                } else {
                    Stat::Combat
                }
            }
            _ => return 0,
        };
        let mut stat = crit;
        for e in &self.data.generals[g as usize].effects {
            if let Effect::BidWithStat { actions, stat: st } = e {
                if actions.has(a, self.data.generals[g as usize].kingdom as usize) {
                    stat = *st;
                }
            }
        }
        self.stat(g, s.round, stat) as i32
    }

    /// Ends the placement turn: value, bonuses, timestamp (C3, C7).
    pub(crate) fn confirm(&self, s: &mut State, ev: &mut Events) {
        let mut pl = s.cur.take().expect("a placement is being built");
        let seat = pl.seat as usize;
        let a = pl.action;
        s.seq += 1;
        pl.seq = s.seq;
        if a < A_TRIBAL0 {
            let mut bonus = 0;
            let g = pl.general;
            for e in &self.data.generals[g as usize].effects {
                if let Effect::BidBonus { actions, amount, side: false, cond } = e {
                    if actions.has(a, seat) && self.cond_ok_pub(s, seat, cond, g as Card, Some(&pl), Some(a)) {
                        bonus += amount;
                    }
                }
            }
            // partners already on the action whose with_general bonus now holds
            for q in s.placements.iter().filter(|q| q.seat as usize == seat && q.action == a) {
                for e in &self.data.generals[q.general as usize].effects {
                    if let Effect::BidBonus { actions, amount, side: false, cond: Some(Cond::WithGeneral(partner)) } = e {
                        if *partner == g && actions.has(a, seat) {
                            bonus += amount;
                        }
                    }
                }
            }
            if s.side_bonus[a as usize] & (1 << seat) == 0 {
                s.side_bonus[a as usize] |= 1 << seat;
                for c in self.cards(s, seat).filter(|&c| c as usize >= self.g_count()) {
                    for e in self.effects(c) {
                        if let Effect::BidBonus { actions, amount, side: true, cond } = e {
                            if actions.has(a, seat) && self.cond_ok_pub(s, seat, cond, c, Some(&pl), Some(a)) {
                                bonus += amount;
                            }
                        }
                    }
                }
            }
            pl.bonus = bonus;
            let units = if a >= A_BATTLE0 { pl.units as i32 } else { 0 };
            pl.value = self.base_bid(s, g, a) + units + pl.support as i32 + pl.han as i32 + bonus;
            s.totals[a as usize][seat] += pl.value;
            s.last_inc[a as usize][seat] = s.seq;
        }
        if pl.han {
            s.han_used = true;
        }
        ev.emit(Audience::ALL, || {
            event!({"kind": "place", "seat": seat, "general": self.data.generals[pl.general as usize].id, "action": ACTIONS[a as usize],
                   "unit": if pl.unit == NONE { None } else { Some(UNITS[pl.unit as usize]) }, "units": pl.units, "gold": pl.gold,
                   "support": pl.support, "han": pl.han, "bonus": pl.bonus, "value": pl.value, "total": s.totals[a as usize][seat]})
        });
        s.placements.push(pl);
        s.turn = (s.turn + 1) % 3;
        s.pending = Pending::Auto;
    }

    pub(crate) fn cond_ok_pub(
        &self,
        s: &State,
        seat: usize,
        c: &Option<Cond>,
        card: Card,
        pl: Option<&Placement>,
        action: Option<u8>,
    ) -> bool {
        let general = ((card as usize) < self.g_count()).then_some(card as u8);
        c.as_ref().is_none_or(|c| self.holds(s, seat, c, general, pl, action))
    }

    /// Whether a side (seats in `mask`) has an active win_ties general on `a` (§7 동률, C4, C6).
    fn wins_ties(&self, s: &State, mask: u8, a: u8) -> bool {
        s.placements.iter().filter(|p| p.action == a && mask & (1 << p.seat) != 0).any(|p| {
            self.data.generals[p.general as usize].effects.iter().any(|e| {
                matches!(e, Effect::WinTies { actions, cond } if actions.has(a, p.seat as usize) && self.cond_ok_pub(s, p.seat as usize, cond, p.general as Card, Some(p), Some(a)))
            })
        })
    }

    /// The winning side of `a` as a seat mask (0 = nobody bid), by the totals of each side.
    pub fn bid_winner(&self, s: &State, a: u8) -> u8 {
        let order = s.bid_order;
        // (seat mask, total, last increase) of each side that bid: at most one per seat
        let mut sides = [(0u8, 0i32, 0u32); 3];
        let mut n = 0;
        let placed = |k: usize| s.placements.iter().any(|p| p.action == a && p.seat as usize == k);
        if a == s.alliance_action {
            if placed(order[0] as usize) {
                let k = order[0] as usize;
                sides[n] = (1 << k, s.totals[a as usize][k], s.last_inc[a as usize][k]);
                n += 1;
            }
            let allies = || [order[1] as usize, order[2] as usize].into_iter().filter(|&k| placed(k));
            if allies().next().is_some() {
                let mask = allies().fold(0u8, |m, k| m | 1 << k);
                let total = allies().map(|k| s.totals[a as usize][k]).sum();
                let last = allies().map(|k| s.last_inc[a as usize][k]).max().unwrap_or(0);
                sides[n] = (mask, total, last);
                n += 1;
            }
        } else {
            for k in 0..3 {
                if placed(k) {
                    sides[n] = (1 << k, s.totals[a as usize][k], s.last_inc[a as usize][k]);
                    n += 1;
                }
            }
        }
        let sides = &sides[..n];
        let Some(best) = sides.iter().map(|x| x.1).max() else { return 0 };
        let tied = || sides.iter().filter(move |x| x.1 == best);
        if tied().count() > 1 {
            let mut with = tied().filter(|x| self.wins_ties(s, x.0, a));
            if let (Some(w), None) = (with.next(), with.next()) {
                return w.0;
            }
        }
        // INTERPRETATION (RULES_NOTES.md T3): the side that reached the tied total first
        tied().min_by_key(|x| x.2).map(|x| x.0).unwrap_or(0)
    }

    // === 8. Resolution 1) remove tokens, 2) next-round order ===

    fn resolve_bids(&self, s: &mut State, ev: &mut Events) {
        // the general flipped on Control Han Emperor last round comes back (C9)
        s.han_flipped = NONE;
        s.han_winner = NONE;
        for a in 0..A_TRIBAL0 {
            let w = self.bid_winner(s, a);
            if w == 0 {
                continue;
            }
            if a == A_HAN {
                s.han_winner = w.trailing_zeros() as u8;
            }
            for k in 0..3 {
                if w & (1 << k) != 0 {
                    s.seats[k].won |= 1 << a;
                    s.seats[k].todo |= 1 << a;
                }
            }
            let seq_w = w;
            ev.emit(Audience::ALL, || event!({"kind": "bid_won", "action": ACTIONS[a as usize], "seats": (0..3).filter(|k| seq_w & (1 << k) != 0).collect::<Vec<_>>()}));
            // losers take back generals, units and the Han token; support is spent
            for i in 0..s.placements.len() {
                let p = s.placements[i];
                if p.action == a && w & (1 << p.seat) == 0 {
                    self.return_pieces(s, i, false);
                }
            }
        }
        for k in 0..3 {
            if s.placements.iter().any(|p| p.seat as usize == k && p.action == A_TRIBAL0 + k as u8) {
                s.seats[k].won |= 1 << (A_TRIBAL0 + k as u8);
                s.seats[k].todo |= 1 << (A_TRIBAL0 + k as u8);
            }
        }
        // 2) action order = bid order; new bid order (C25)
        s.action_order = s.bid_order;
        let mut order = [0u8, 1, 2];
        order.sort_by_key(|&k| {
            (std::cmp::Reverse(s.seats[k as usize].won.count_ones()), std::cmp::Reverse(s.seats[k as usize].military), k)
        });
        s.bid_order = order;
        ev.emit(Audience::ALL, || event!({"kind": "order", "action_order": s.action_order, "next_bid_order": s.bid_order}));
    }

    /// Returns placement `i`'s units (and refunds tribal gold unless `paid`); support is spent.
    pub(crate) fn return_pieces(&self, s: &mut State, i: usize, paid: bool) {
        let p = s.placements[i];
        let seat = p.seat as usize;
        if p.units > 0 && p.unit != NONE {
            s.seats[seat].trained += p.units as i32;
            s.seats[seat].weapons[p.unit as usize] += p.units as i32;
        }
        if !paid {
            s.seats[seat].gold += p.gold as i32;
        }
        let q = &mut s.placements[i];
        q.units = 0;
        q.gold = 0;
        q.support = 0;
    }

    // === 8. 3) perform actions ===

    fn step_perform(&self, s: &mut State, _ev: &mut Events) {
        while s.cursor < 3 {
            let seat = s.action_order[s.cursor as usize];
            if s.seats[seat as usize].todo != 0 {
                s.seat = seat;
                s.pending = Pending::ChooseAction;
                return;
            }
            s.cursor += 1;
        }
        s.stage = Stage::TribalDecay;
        s.cursor = 0;
        s.scratch = 0;
    }

    /// Whether `seat` can perform won action `a` now.
    pub(crate) fn performable(&self, s: &State, seat: usize, a: u8) -> bool {
        let p = &s.seats[seat];
        match a {
            A_FARM => p.farm_level < 5 || p.farm_area > 0,
            A_MARKET => p.market_level < 5 || p.market_area > 0,
            A_HAN => {
                let winners = self.bidders(s, seat, a);
                p.gold >= self.param(s, seat, a, None, P_HAN_GOLD, winners) && (p.office as usize) + 1 < self.data.office_vp.len()
            }
            _ => true,
        }
    }

    pub(crate) fn finish_action(&self, s: &mut State, seat: usize, a: u8, performed: bool, ev: &mut Events) {
        s.seats[seat].todo &= !(1 << a);
        if performed {
            s.seats[seat].performed |= 1 << a;
        }
        for i in 0..s.placements.len() {
            if s.placements[i].seat as usize == seat && s.placements[i].action == a {
                self.return_pieces(s, i, performed);
            }
        }
        s.acting = NONE;
        s.scratch = 0;
        s.pending = Pending::Auto;
        ev.emit(
            Audience::ALL,
            || event!({"kind": if performed { "performed" } else { "declined" }, "seat": seat, "action": ACTIONS[a as usize]}),
        );
    }

    // === 8. 4) tribal decrease and rebellion ===

    fn step_tribal(&self, s: &mut State, ev: &mut Events) {
        while s.cursor < 3 {
            let seat = s.action_order[s.cursor as usize] as usize;
            match s.scratch {
                0 => {
                    s.scratch = 1;
                    let own = A_TRIBAL0 + seat as u8;
                    if s.seats[seat].performed & (1 << own) == 0 {
                        let hold = self.cards(s, seat).any(|c| {
                            self.effects(c)
                                .iter()
                                .any(|e| matches!(e, Effect::TribalNoDecay { cond } if self.cond_ok_pub(s, seat, cond, c, None, None)))
                        });
                        if hold {
                            // INTERPRETATION (RULES_NOTES.md T16): maintained at 12 → support purchase
                            if s.seats[seat].tribal == self.data.tribal_max && self.can_buy_support(s, seat) {
                                s.seat = seat as u8;
                                s.pending = Pending::Tribal12;
                                return;
                            }
                        } else {
                            s.seats[seat].tribal = (s.seats[seat].tribal - 1).max(1);
                        }
                        let t = s.seats[seat].tribal;
                        ev.emit(Audience::ALL, || event!({"kind": "tribal", "seat": seat, "tribal": t, "held": hold}));
                    }
                }
                1 => {
                    s.scratch = 2;
                    if s.seats[seat].tribal == 1 {
                        // rebellion (C17), unless a deficit protection is used
                        if let Some(card) = self.protection(s, seat, Cause::Rebellion) {
                            s.seat = seat as u8;
                            s.pending = Pending::Protect { card };
                            return;
                        }
                        s.seats[seat].deficits += 1;
                        ev.emit(Audience::ALL, || event!({"kind": "deficit", "seat": seat, "cause": "rebellion"}));
                    }
                }
                _ => {
                    s.scratch = 0;
                    s.cursor += 1;
                }
            }
        }
        s.stage = Stage::Benefits;
        s.cursor = 0;
        s.scratch = 0;
    }

    pub(crate) fn can_buy_support(&self, s: &State, seat: usize) -> bool {
        s.seats[seat].rice >= 2 && self.available(s, B_SUPPORT) > 0
    }

    /// A built development that can protect `seat` from a deficit of `cause` now.
    pub(crate) fn protection(&self, s: &State, seat: usize, cause: Cause) -> Option<u8> {
        let mut b = s.seats[seat].built;
        while b != 0 {
            let d = b.trailing_zeros() as u8;
            b &= b - 1;
            for e in &self.data.developments[d as usize].effects {
                if let Effect::DeficitProtection { cause: c, pay, max_per_round } = e {
                    if (*c == cause || *c == Cause::Any) && s.seats[seat].protections_used < *max_per_round && self.has(s, seat, pay) {
                        return Some(d);
                    }
                }
            }
        }
        None
    }

    // === 8. 5) round-end benefits ===

    pub(crate) fn exchange_option_ok(&self, s: &State, seat: usize, give: &Bundle) -> bool {
        self.has(s, seat, give)
    }

    /// (card, effect index) of `seat`'s round-end benefits (§8 5)): incomes, exchanges,
    /// card reservoirs and round-end military changes, in card order (at most 16).
    pub(crate) fn benefits<'a>(&'a self, s: &'a State, seat: usize) -> impl Iterator<Item = (Card, u8)> + 'a {
        self.cards(s, seat)
            .flat_map(move |c| {
                self.effects(c).iter().enumerate().filter_map(move |(i, e)| {
                    matches!(
                        e,
                        Effect::RoundEndIncome { .. }
                            | Effect::RoundEndExchange { .. }
                            | Effect::CardReservoir { .. }
                            | Effect::MilitaryScoreChange { on_build: false, .. }
                    )
                    .then_some((c, i as u8))
                })
            })
            .take(16)
    }

    fn step_benefits(&self, s: &mut State, ev: &mut Events) {
        while s.cursor < 3 {
            let seat = s.action_order[s.cursor as usize] as usize;
            let (first, more) = {
                let mut open = self.benefits(s, seat).enumerate().filter(|&(k, _)| s.benefits_done & (1 << k) == 0);
                (open.next(), open.next().is_some())
            };
            match (first, more) {
                (None, _) => {
                    s.benefits_done = 0;
                    s.cursor += 1;
                }
                (Some((k, (c, i))), false) => {
                    // INTERPRETATION (RULES_NOTES.md T24): the owner orders its benefits; with
                    // one left there is nothing to choose
                    s.benefits_done |= 1 << k;
                    self.activate_benefit(s, seat, c, i, ev);
                    if s.pending != Pending::Auto {
                        return;
                    }
                }
                _ => {
                    s.seat = seat as u8;
                    s.pending = Pending::BenefitOrder;
                    return;
                }
            }
        }
        self.end_of_round(s, ev);
    }

    /// Receives or activates one round-end benefit (an exchange becomes a prompt).
    pub(crate) fn activate_benefit(&self, s: &mut State, seat: usize, c: Card, i: u8, ev: &mut Events) {
        let name = self.card_name(c);
        match &self.effects(c)[i as usize] {
            Effect::RoundEndIncome { gain, cond } if self.cond_ok_pub(s, seat, cond, c, None, None) => {
                ev.emit(Audience::ALL, || event!({"kind": "income", "seat": seat, "card": text(name)}));
                self.grant(s, seat, gain, c, i, 1, ev);
            }
            Effect::MilitaryScoreChange { self_amount, each_opponent, transfer, cond, .. }
                if self.cond_ok_pub(s, seat, cond, c, None, None) =>
            {
                self.military_change(s, seat, *self_amount, *each_opponent, *transfer);
            }
            Effect::RoundEndExchange { options, times, cond }
                if self.cond_ok_pub(s, seat, cond, c, None, None)
                    && options.iter().any(|(give, _)| self.exchange_option_ok(s, seat, give)) =>
            {
                s.seat = seat as u8;
                s.pending = Pending::Exchange { card: c, effect: i, left: *times };
            }
            Effect::CardReservoir { resource, initial, per_round, cond } => {
                let placed_round =
                    if (c as usize) < self.g_count() { s.recruited_round[c as usize] } else { s.built_round[c as usize - self.g_count()] };
                let r = s.reservoir[c as usize];
                if r < 0 {
                    if placed_round == s.round {
                        let n = (*initial).min(self.available(s, *resource).max(0));
                        s.reservoir[c as usize] = n as i8;
                        ev.emit(Audience::ALL, || event!({"kind": "reservoir_stocked", "seat": seat, "card": text(name), "amount": n}));
                    }
                } else if r > 0 && self.cond_ok_pub(s, seat, cond, c, None, None) {
                    let n = (*per_round).min(r as i32);
                    s.reservoir[c as usize] -= n as i8;
                    match *resource {
                        B_GOLD => s.seats[seat].gold += n,
                        B_RICE => s.seats[seat].rice += n,
                        B_SUPPORT => s.seats[seat].support += n,
                        B_UNTRAINED => s.seats[seat].untrained += n,
                        B_TRAINED => s.seats[seat].trained += n,
                        k => s.seats[seat].weapons[k - B_SPEAR] += n,
                    }
                    ev.emit(Audience::ALL, || event!({"kind": "reservoir_paid", "seat": seat, "card": text(name), "amount": n}));
                }
            }
            _ => {}
        }
    }

    pub(crate) fn military_change(&self, s: &mut State, seat: usize, self_amount: i32, each_opponent: i32, transfer: bool) {
        let mut gained = self_amount;
        for o in 0..3 {
            if o != seat {
                let before = s.seats[o].military;
                s.seats[o].military = (before + each_opponent).max(0);
                if transfer {
                    gained += before - s.seats[o].military;
                }
            }
        }
        s.seats[seat].military = (s.seats[seat].military + gained).max(0);
    }

    // === 11. end triggers, 9. upkeep ===

    /// The end trigger that holds (0 none, 1 last round, 2 farm 5 + market 5, 3 emperor,
    /// 4 fifth stationed general; C39).
    pub fn end_trigger(&self, s: &State) -> u8 {
        if s.round >= self.data.rounds {
            return 1;
        }
        if s.seats.iter().any(|p| p.farm_level >= 5 && p.market_level >= 5) {
            return 2;
        }
        if s.seats.iter().any(|p| p.office as usize + 1 >= self.data.office_vp.len()) {
            return 3;
        }
        if s.stationed.iter().any(|v| v.len() >= 5) {
            return 4;
        }
        0
    }

    fn end_of_round(&self, s: &mut State, ev: &mut Events) {
        let t = self.end_trigger(s);
        if t != 0 {
            // no upkeep after the last resolution (§11)
            s.end_reason = t;
            s.stage = Stage::Over;
            s.pending = Pending::Over;
            s.final_scores = self.scores(s).iter().map(|x| x.total).collect();
            ev.emit(Audience::ALL, || event!({"kind": "game_over", "reason": t, "scores": s.final_scores}));
            return;
        }
        self.upkeep(s, ev);
        self.start_round(s);
    }

    pub fn upkeep(&self, s: &mut State, ev: &mut Events) {
        // 1) flip the criterion markers
        s.han_criterion = 1 - s.han_criterion;
        // 2) the Han Emperor token goes to this round's bid winner (C9)
        s.han_holder = s.han_winner;
        // 3) support and unit upkeep (C22, C23)
        for seat in 0..3 {
            let (support_rice, unit_gold, unit_rice) = self.upkeep_due(s, seat);
            let p = &mut s.seats[seat];
            let gold_short = (unit_gold - p.gold).max(0);
            p.gold -= unit_gold - gold_short;
            let rice_due = support_rice + unit_rice;
            let rice_short = (rice_due - p.rice).max(0);
            p.rice -= rice_due - rice_short;
            p.deficits += gold_short + rice_short;
            // INTERPRETATION (RULES_NOTES.md T25): a deficit_protection card with cause
            // upkeep/any is used automatically, as far as its payment can be made
            let mut shortfall = gold_short + rice_short;
            while shortfall > 0 {
                let Some(d) = self.protection(s, seat, Cause::Upkeep) else { break };
                for e in &self.data.developments[d as usize].effects {
                    if let Effect::DeficitProtection { pay, .. } = e {
                        self.pay(s, seat, pay, 0);
                    }
                }
                s.seats[seat].protections_used += 1;
                s.seats[seat].deficits -= 1;
                shortfall -= 1;
            }
            // 4) military score
            let units: i32 = s.regions.iter().filter(|r| r.seat as usize == seat).map(|r| r.units as i32).sum();
            s.seats[seat].military += units;
            ev.emit(Audience::ALL, || {
                event!({"kind": "upkeep", "seat": seat, "support_rice": support_rice, "unit_gold": unit_gold, "unit_rice": unit_rice,
                       "deficits": gold_short + rice_short, "military_gain": units})
            });
        }
        // 5) round marker
        s.round += 1;
    }

    /// (support rice, unit gold, unit rice) that `seat` owes in upkeep (§9 3)).
    pub fn upkeep_due(&self, s: &State, seat: usize) -> (i32, i32, i32) {
        let p = &s.seats[seat];
        let units: i32 = s.regions.iter().filter(|r| r.seat as usize == seat).map(|r| r.units as i32).sum();
        let mut support_rice = p.support / 2;
        let mut unit_gold = (units - p.treasury_market as i32 - p.treasury_regions.count_ones() as i32).max(0);
        let mut unit_rice = (units - p.granary_farm as i32 - p.granary_regions.count_ones() as i32).max(0);
        for c in self.cards(s, seat) {
            for e in self.effects(c) {
                if let Effect::UpkeepReduction { upkeep, amount, cond } = e {
                    if self.cond_ok_pub(s, seat, cond, c, None, None) {
                        match upkeep {
                            Upkeep::UnitGold => unit_gold = (unit_gold - amount).max(0),
                            Upkeep::UnitRice => unit_rice = (unit_rice - amount).max(0),
                            Upkeep::SupportRice => support_rice = (support_rice - amount).max(0),
                        }
                    }
                }
            }
        }
        (support_rice, unit_gold, unit_rice)
    }

    fn start_round(&self, s: &mut State) {
        s.last_alliance_action = s.alliance_action;
        s.alliance_action = NONE;
        s.placements.clear();
        s.totals = [[0; 3]; 18];
        s.last_inc = [[0; 3]; 18];
        s.side_bonus = [0; 18];
        s.passed = [false; 3];
        s.han_used = false;
        s.benefits_done = 0;
        s.seq = 0;
        s.turn = 0;
        s.cursor = 0;
        s.scratch = 0;
        for p in s.seats.iter_mut() {
            p.performed = 0;
            p.todo = 0;
            p.won = 0;
            p.protections_used = 0;
        }
        s.stage = if self.data.recruit_rounds.iter().any(|r| r.0 == s.round) { Stage::Recruit } else { Stage::Alliance };
        s.pending = Pending::Auto;
    }
}
