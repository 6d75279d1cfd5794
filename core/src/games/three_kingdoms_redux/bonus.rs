//! Action bonuses (`action_bonus` effects, §8 3)): which trigger, the owner's order of
//! resolution, and resolving one (T10).

use super::data::*;
use super::rules::Card;
use super::state::*;
use super::Tkr;
use crate::events::{event, text, Audience, Events};

/// Whether a gain can give token `k` (any option of a choose_one).
fn gain_gives(gain: &Gain, k: usize) -> bool {
    match gain {
        Gain::Fixed(b) => b[k] > 0,
        Gain::ChooseOne(list) => list.iter().any(|b| b[k] > 0),
    }
}

fn gain_nonempty(gain: &Gain) -> bool {
    match gain {
        Gain::Fixed(b) => b.iter().any(|&x| x != 0),
        Gain::ChooseOne(list) => list.iter().any(|b| b.iter().any(|&x| x != 0)),
    }
}

/// Metrics a gained bundle can change (tribal, support, security, military, gold, rice).
fn gain_moves_metric(m: u8) -> bool {
    (4..=9).contains(&m)
}

/// Whether a condition can change its value when the owner gains a bundle.
fn cond_moves_with_gains(c: &Cond) -> bool {
    match c {
        Cond::Metric { metric, .. } | Cond::Highest(metric) => gain_moves_metric(*metric),
        Cond::HasAtLeast(_) => true,
        Cond::All(list) | Cond::Any(list) => list.iter().any(cond_moves_with_gains),
        Cond::Not(c) => cond_moves_with_gains(c),
        _ => false,
    }
}

/// A bonus's gain, its per-count multiplier and its condition.
type BonusParts<'a> = (&'a Gain, &'a Option<(u8, i32)>, &'a Option<Cond>);

impl Tkr {
    /// Queues the action_bonus effects of `seat` that trigger on action `a` (modes done:
    /// bit m; `occupier` = the general that occupied, for self-scoped occupy bonuses). Their
    /// conditions and `per` counts are read when each one resolves.
    pub(crate) fn bonuses(&self, s: &mut State, seat: usize, a: u8, modes: u16, occupier: Option<u8>) {
        let winners = self.bidders(s, seat, a);
        let mut queue = std::mem::take(&mut s.bonus_queue);
        queue.clear();
        for c in self.cards(s, seat) {
            for (i, e) in self.effects(c).iter().enumerate() {
                if let Effect::ActionBonus { actions, mode, self_scope, .. } = e {
                    if !actions.has(a, seat) || mode.is_some_and(|m| modes & (1 << m) == 0) {
                        continue;
                    }
                    if *self_scope {
                        let ok = if *mode == Some(M_OCCUPY) { occupier == Some(c as u8) } else { winners.contains(c as u8) };
                        if !ok {
                            continue;
                        }
                    }
                    queue.push((c, i as u8));
                }
            }
        }
        s.bonus_queue = queue;
        if !s.bonus_queue.is_empty() {
            s.bonus_action = a;
            s.queue.push(Deferred::Bonuses { seat: seat as u8 });
        }
    }

    /// Queues the bonuses of action `a`, then its end (the action is complete).
    pub(crate) fn complete(&self, s: &mut State, seat: usize, a: u8, modes: u16, occupier: Option<u8>) {
        self.bonuses(s, seat, a, modes, occupier);
        s.queue.push(Deferred::Finish { seat: seat as u8, action: a });
        s.pending = Pending::Auto;
    }

    fn bonus_gain(&self, c: Card, i: u8) -> Option<BonusParts<'_>> {
        match &self.effects(c)[i as usize] {
            Effect::ActionBonus { gain, per, cond, .. } => Some((gain, per, cond)),
            _ => None,
        }
    }

    /// Whether the order of the pending bonuses can change their result: one trains armies
    /// and another can give untrained armies, or one reads a count or condition that another's
    /// gain can change (T10).
    pub(crate) fn bonus_order_matters(&self, s: &State) -> bool {
        let q = &s.bonus_queue;
        if q.len() < 2 {
            return false;
        }
        for (x, &(c, i)) in q.iter().enumerate() {
            let Some((gain, per, cond)) = self.bonus_gain(c, i) else { continue };
            let trains = gain_gives(gain, B_TRAIN);
            let reads = per.is_some_and(|(m, _)| gain_moves_metric(m)) || cond.as_ref().is_some_and(cond_moves_with_gains);
            for (y, &(c2, i2)) in q.iter().enumerate() {
                let Some((other, _, _)) = self.bonus_gain(c2, i2) else { continue };
                if x != y && ((trains && gain_gives(other, B_UNTRAINED)) || (reads && gain_nonempty(other))) {
                    return true;
                }
            }
        }
        false
    }

    /// Resolves pending bonus `k`: its condition and count now, its gain (prompts it needs
    /// come before the next bonus).
    pub(crate) fn resolve_bonus(&self, s: &mut State, seat: usize, k: usize, ev: &mut Events) {
        let (c, i) = s.bonus_queue.remove(k);
        let a = s.bonus_action;
        let Some((gain, per, cond)) = self.bonus_gain(c, i) else { return };
        if !self.cond_ok_pub(s, seat, cond, c, None, Some(a)) {
            return;
        }
        let times = match per {
            Some((m, max)) => self.metric(s, seat, *m).min(*max),
            None => 1,
        };
        if times <= 0 {
            return;
        }
        let name = self.card_name(c);
        ev.emit(Audience::ALL, || event!({"kind": "ability", "seat": seat, "card": text(name), "action": ACTIONS[a as usize]}));
        // the prompts of this gain go before the ones already queued
        let queued = s.queue.len();
        self.grant(s, seat, gain, c, i, times, ev);
        s.queue.rotate_left(queued);
    }
}
