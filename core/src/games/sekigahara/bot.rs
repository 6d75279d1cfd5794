//! Bot knowledge for the search bots (`crate::bots`): the playout policy, the static
//! evaluation and the playout depth behind the `Game` hooks. Playouts run on full states of
//! determinizations, so these read the whole state; nothing here is shown to a player.
//!
//! A game is about 700 actions of small prompt steps over seven weeks; uniform playouts to the
//! end are slow and mostly noise (blocks wander, battles are fought with random cards). The
//! search instead plays [`PLAYOUT_DEPTH`] actions of a cheap, randomized, purposeful policy and
//! scores the position by the victory conditions (2.1, 2.2).

use super::control;
use super::data::{ISHIDA, TOKUGAWA};
use super::state::{Mode, Pending, State, BOX, MORI_BOX, SELECTED};
use super::{Action, Sekigahara};
use crate::bots::policy::{self, chance, or_any, uniform};
use crate::game::ActionId;
use crate::rng::Rng;

/// Actions a playout makes after the search tree before the evaluation: a group's move or
/// part of a battle. Much shorter than a turn: at a few tens of milliseconds per decision more
/// iterations beat longer playouts (duel against flat Monte Carlo at 20 ms, games 0-39: depth
/// 40 scored 0.475, depth 20 0.60; depth 80 with more weight on strength 0.20 on games 0-19).
pub const PLAYOUT_DEPTH: u32 = 20;

/// The most iterations a level with a budget per turn searches for one decision
/// (`Game::search_decision_cap`). Sekigahara's search stops gaining strength after a few
/// hundred iterations a decision and loses it past a few thousand (release `duel`, seats
/// alternated: 2,000 against 200 scored 11 / 20; 16,000 against 2,000 6 / 18; `ismcts:normal`,
/// about 12,700 a decision, against 2,000 7 / 20), so the levels stop there: `normal` capped at
/// 2,000 against `normal` uncapped won 29 / 40 = 0.725 [0.57, 0.84] (14 / 20 as Tokugawa, 15 / 20
/// as Ishida), with a median turn of 40 ms against 508 ms (worst 2.5 s against 3.8 s); against
/// 2,000 iterations a decision it scored 10 / 20 (uncapped 7 / 20).
pub const DECISION_CAP: u64 = 2_000;

// The search keeps UCB1's default exploration constant here (`Game::search_exploration`, 0.7):
// 2,000 iterations at 0.25 against 2,000 at 0.7 scored 15 / 40 (release `duel`, seats
// alternated), where 関ヶ原大作戦's flat estimates gained from 0.25.

/// A uniform choice among the legal actions that `keep` accepts, or among all of them.
fn among(g: &Sekigahara, legal: &[ActionId], rng: &mut Rng, keep: impl Fn(Action) -> bool) -> ActionId {
    policy::among(legal, rng, |a| g.decode(a).is_some_and(&keep))
}

// ---- evaluation: 2.1 immediate victory, 2.2 victory points ----

/// What a card in hand is worth to [`tokugawa_value`]'s argument, next to a block's share of the
/// strength term (a block of 2 mons, of the 181 in the game, counts 2 x 2 / 181 = 0.022).
/// Measured (`duel sekigahara '{}' ismcts:1000 ismcts:1000 40`, the bot with the card term
/// against the same bot without it, seats alternated): 0.03 per card won 29 of 40 games (games
/// 0-39; 12 of 20 as Tokugawa, 17 of 20 as Ishida), 0.1 won 28 of 40 (the same games; 12 and
/// 16), 0.06 won 27 of 40 (games 40-79; 13 and 14): 84 of 120 (0.70), flat across the three.
const CARD_WEIGHT: f64 = 0.06;

/// The static estimate of Tokugawa's return, in (-1, 1); Ishida's is its negative.
///
/// - 2.2: the game is won on points after week 7 (2 per castle, 1 per resource location,
///   ties to Ishida): the point margin, minus half a point for the tie rule, weighs more as
///   the end nears (early control changes hands often). Its weight is small next to strength:
///   at 0.1 + 0.3 x progress per point, Tokugawa chased points with battles that cost it blocks
///   (`duel sekigahara '{}' ismcts@20ms monte_carlo@20ms`, IS-MCTS as Tokugawa in games 0-47:
///   0.67); at 0.04 + 0.12 x progress 0.94 (and 0.92 as Ishida, games 0-23).
/// - Strength on the map (7, 8): the mons of each side's blocks on the map and in its
///   recruitment and Mori boxes decide the battles that change control later; blocks lost
///   (8.7.3) never return.
/// - 2.1: a commander (Ieyasu, Mitsunari) at a location where the enemy has at least as many
///   blocks may be eliminated in the coming battle, which ends the game at once.
/// - 3.3: the cards in hand ([`CARD_WEIGHT`] each). A block fights only when a card of its clan
///   deploys it (8.2.2), and moves (7.2: up to 2 cards a movement phase; 7.3.3: a forced
///   march) spend cards too, which only the reinforcement step (6.2) replaces.
fn tokugawa_value(g: &Sekigahara, s: &State) -> f64 {
    let d = &g.data;
    let p = control::points(g, s);
    let margin = p[TOKUGAWA as usize] as f64 - p[ISHIDA as usize] as f64 - 0.5;
    let weeks = d.weeks.max(1) as f64;
    // 0 at the start, 1 at the end of the last week.
    let progress = (((s.week.max(1) - 1) as f64) * 4.0 + s.turn as f64 * 2.0 + (s.step / 2) as f64) / (weeks * 4.0);
    let mut mons = [0.0f64; 2];
    let mut blocks_at = [[0u8; 2]; 64];
    for (b, bd) in s.blocks.iter().zip(&d.blocks) {
        let on_map = (b.loc as usize) < d.locations.len();
        if on_map || b.loc == BOX || b.loc == MORI_BOX {
            mons[bd.side as usize] += bd.mons as f64;
        }
        if on_map && (b.loc as usize) < 64 {
            blocks_at[b.loc as usize][bd.side as usize] += 1;
        }
    }
    let strength = (mons[0] - mons[1]) / (mons[0] + mons[1]).max(1.0);
    let mut danger = 0.0;
    for (b, bd) in s.blocks.iter().zip(&d.blocks) {
        if bd.commander && (b.loc as usize) < d.locations.len() && (b.loc as usize) < 64 {
            let here = blocks_at[b.loc as usize];
            let (own, enemy) = (here[bd.side as usize], here[1 - bd.side as usize]);
            if enemy > 0 && enemy >= own {
                danger += if bd.side == TOKUGAWA { -1.0 } else { 1.0 };
            }
        }
    }
    let cards = s.hand_size(g, TOKUGAWA) as f64 - s.hand_size(g, ISHIDA) as f64;
    let x = margin * (0.04 + 0.12 * progress) + 2.0 * strength + 0.4 * danger + CARD_WEIGHT * cards;
    x.tanh()
}

pub fn evaluate(g: &Sekigahara, s: &State, out: &mut [f64]) -> bool {
    if s.pending == Pending::Over {
        return false;
    }
    let v = tokugawa_value(g, s);
    out[TOKUGAWA as usize] = v;
    out[ISHIDA as usize] = -v;
    true
}

// ---- playout policy ----

/// Where a step along road `r` from `at` leads.
fn road_end(g: &Sekigahara, r: u8, at: u8) -> u8 {
    let road = g.data.roads[r as usize];
    if road.a == at {
        road.b
    } else {
        road.a
    }
}

/// How much `side` wants a group of `size` blocks to step into `to` (7.3): to take an enemy
/// castle or resource location (4.2, 4.3, points 2.2), to attack enemy units it outnumbers
/// (an overrun at 4:1, 7.4), not into a stronger force.
fn step_score(g: &Sekigahara, s: &State, side: u8, size: u32, to: u8) -> i32 {
    let l = &g.data.locations[to as usize];
    let mut v = 0;
    if l.castle.is_some() && s.castle[to as usize] != side {
        v += 3;
    }
    if l.resource && s.resource[to as usize] != side {
        v += 2;
    }
    let enemy = s.units_at(g, 1 - side, to);
    if enemy > 0 {
        v += if size >= 2 * enemy {
            3
        } else if size >= enemy {
            1
        } else {
            -3
        };
    }
    v
}

/// The playout move: random, but biased toward what a player does with the turn (moves,
/// deployments while behind in a battle, cheap casualties). Every choice keeps some chance for
/// every legal action class so that playouts stay varied.
pub fn rollout_action(g: &Sekigahara, s: &State, legal: &[ActionId], rng: &mut Rng) -> ActionId {
    if legal.len() == 1 {
        return legal[0];
    }
    match s.pending {
        // 7.1: a turn without movement is rarely right.
        Pending::Mode => among(g, legal, rng, |a| !matches!(a, Action::Mode(Mode::NoMove))),
        // 7.1: move stacks and muster before ending the phase.
        Pending::Menu => {
            if chance(rng, 0.15) {
                return or_any(legal, g.encode(Action::EndPhase), rng);
            }
            among(g, legal, rng, |a| !matches!(a, Action::EndPhase))
        }
        Pending::Group => group_move(g, s, legal, rng),
        // 7.2: finish the muster once something is chosen, now and then.
        Pending::Muster { .. } => {
            if chance(rng, 0.6) {
                among(g, legal, rng, |a| matches!(a, Action::Select(_)))
            } else {
                uniform(legal, rng)
            }
        }
        // 8.5: the side behind in impact deploys; ahead, it usually stops.
        Pending::Deploy => {
            let b = s.battle.as_ref().expect("a battle");
            let me = g.decider(s) as usize;
            let behind = b.impact[me] < b.impact[1 - me] || (b.impact[me] == b.impact[1 - me] && me as u8 == b.attacker);
            if behind || chance(rng, 0.3) {
                among(g, legal, rng, |a| matches!(a, Action::Leader(_) | Action::Card(_)))
            } else {
                or_any(legal, g.encode(Action::EndDeploy), rng)
            }
        }
        // 8.3.2: deploy the block with the most mons.
        Pending::DeployBlock { .. } | Pending::DeploySecond { .. } if chance(rng, 0.8) => best_by(g, legal, |a| match a {
            Action::Select(i) => g.data.blocks[i as usize].mons as i32,
            _ => -1,
        })
        .unwrap_or_else(|| uniform(legal, rng)),
        // 8.7.2, 2.1: lose the weakest block, never a commander when there is a choice.
        Pending::Casualty { .. } if chance(rng, 0.9) => best_by(g, legal, |a| match a {
            Action::Select(i) => {
                let b = &g.data.blocks[i as usize];
                -(b.mons as i32) - if b.commander { 100 } else { 0 }
            }
            _ => -50,
        })
        .unwrap_or_else(|| uniform(legal, rng)),
        _ => uniform(legal, rng),
    }
}

/// The legal action with the highest `score` (ties: the first), if any scores above -1000.
fn best_by(g: &Sekigahara, legal: &[ActionId], score: impl Fn(Action) -> i32) -> Option<ActionId> {
    let mut best: Option<(i32, ActionId)> = None;
    for &a in legal {
        let Some(x) = g.decode(a) else { continue };
        let v = score(x);
        if v > -1000 && best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a)
}

/// 7.3: a group picks blocks, then steps toward objectives and stops somewhere worth
/// holding; forced marches (a card each) and drops are rare.
fn group_move(g: &Sekigahara, s: &State, legal: &[ActionId], rng: &mut Rng) -> ActionId {
    let side = s.active();
    let size = s.blocks.iter().filter(|b| b.flags & SELECTED != 0).count() as u32;
    let gr = s.group;
    if gr.steps == 0 && (size == 0 || chance(rng, 0.5)) {
        // Take blocks along (most of the stack moves together).
        let a = among(g, legal, rng, |a| matches!(a, Action::Select(_)));
        if matches!(g.decode(a), Some(Action::Select(_))) {
            return a;
        }
    }
    let mut best: Option<(i32, ActionId)> = None;
    let here = step_score(g, s, side, size, gr.at);
    for &a in legal {
        if let Some(Action::Step(r)) = g.decode(a) {
            let v = step_score(g, s, side, size, road_end(g, r, gr.at)) * 4 + rng.below(6) as i32;
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, a));
            }
        }
    }
    let stop = g.encode(Action::Stop);
    let end = g.encode(Action::EndStack);
    let may_stop = legal.contains(&stop);
    match best {
        Some((v, a)) if gr.steps == 0 || !may_stop || v > here * 4 + 2 || chance(rng, 0.3) => a,
        _ if may_stop => stop,
        _ if legal.contains(&end) && chance(rng, 0.7) => end,
        _ => among(g, legal, rng, |a| !matches!(a, Action::ForcedMarch(_) | Action::Drop(_))),
    }
}
