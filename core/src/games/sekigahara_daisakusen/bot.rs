//! Bot knowledge for the search bots (`crate::bots`): the playout policy, the static
//! evaluation and the playout depth behind the `Game` hooks. The game hides nothing but the
//! deck order, and playouts run on full states, so these read the whole state.
//!
//! The game has no last turn (R 14.0 lists only immediate victories; the `max_turns` cap makes
//! a stalemate a draw), so bots that play aimlessly drift to the cap. The knowledge here points
//! the search at the three victory conditions of R 14.0: removing 徳川家康 (West), removing
//! 石田三成 or 豊臣秀頼 (East), and driving the 調略 marker into one's victory box (R 14.0(3)),
//! which moves for every enemy commander removed, castle taken, 京 taken and commander turned
//! (R 11.0(1)).

use super::action::{Action, ACT_ATTACK, ACT_HOLD, ACT_MARCH, ACT_MOVE, ACT_RECOVER, ACT_STRATEGIC};
use super::data::{Kind, EAST, WEST};
use super::state::{Mode, Pending, State, DEAD, TRACK};
use super::Daisakusen;
use crate::bots::policy::{self, chance, or_any, uniform};
use crate::game::ActionId;
use crate::rng::Rng;

/// Actions a playout makes after the search tree before the evaluation: about ten cards.
/// Measured (`duel ... ismcts:500 random 24`, the other terms as below): 20 actions 0.62, 40
/// actions 0.88, 70 actions 0.83, 120 actions 0.81: longer playouts add noise, shorter ones
/// do not reach the end of the attacks and marches they start.
pub const PLAYOUT_DEPTH: u32 = 40;

/// UCB1's exploration constant of this game's search ([`crate::game::Game::search_exploration`];
/// 0.7 elsewhere). The estimates of [`east_value`] differ by about a hundredth between the
/// best moves of a decision (the median gap between the best two moves' mean returns was
/// 0.0096 over 12 decisions of random games at 4,000 iterations, whose visits spread almost
/// evenly: 1,134 / 1,029 / 963 / 874), so at 0.7 the exploration term outweighed them far past
/// any decision's budget: a larger budget spread evenly instead of deepening the best lines,
/// and more search did not play better (`ismcts:16000` against `ismcts:2000`, both at 0.7: 5.5
/// of 16 games; 5 and 5.5 of 12 with two other weightings of the evaluation). Measured with the
/// release `duel`, seats alternated: 2,000 iterations at 0.25 against 2,000 at 0.7 scored
/// 35 / 58 = 0.60 [0.48, 0.72], at 0.1 10 / 20; `ismcts:normal` against `ismcts:2000`, both at
/// 0.25, 34.5 / 60 = 0.575 [0.45, 0.69] (0.51 over 40 at 0.7).
pub const EXPLORATION: f64 = 0.25;

/// The evaluation's argument is scaled by this before `tanh`: at 1 the estimate saturated at
/// ±0.99 once 家康 was on the map, and every move looked the same to the search.
const SQUASH: f64 = 0.4;

/// Weight of the march of 家康 and 秀忠 along their entry tracks (R 9.0): one for both tracks
/// walked to the end. 家康出馬 (C04, R 12.0) enters the deck only when 家康 arrives.
const ENTRY_WEIGHT: f64 = 1.0;

/// Weight of the expected gain of the next 調略/恫喝判定 ([`plot_gain`], as a share of half the
/// 調略 track; the marker's own weight is 4).
const PLOT_WEIGHT: f64 = 4.0;

/// Weight of [`approach`]: commanders closing in on enemy stacks, castles and 京. Measured
/// (`duel sekigahara_daisakusen '{}' ismcts:500 random 192`, with the sortie term): 0 gave
/// 0.90, 2 gave 0.93, 4 gave 0.94, 6 gave 0.96, 9 gave 0.96, 12 gave 0.90, 18 gave 0.81 (the
/// commanders then walk up to the enemy and stop there).
const APPROACH_WEIGHT: f64 = 6.0;

/// Weight of 秀頼's sortie ([`sortie`]) for the West. Measured as above: without it the West
/// won 24 of 48 games against random and drew the others, 19 of those with 秀頼 released but
/// still in 大坂 (0.83 over 96 games); 0.5 gave 0.87, 1 gave 0.90 (the West won 72 of 96),
/// 1.5 gave 0.88, 2 gave 0.84, 4 gave 0.79 (48 games each for 2 and 4); with the approach term
/// 0.5 gave 0.94, 1 gave 0.96, 2 gave 0.93.
const SORTIE_WEIGHT: f64 = 1.0;

/// Strength (hit values) worth one unit of the evaluation's argument: about a dozen counters
/// (`duel ... ismcts:500 random`, 48 games: 25 gave 0.83, 40 gave 0.89).
const MATERIAL_SCALE: f64 = 40.0;

/// A uniform choice among the legal actions that `keep` accepts, or among all of them.
fn among(g: &Daisakusen, legal: &[ActionId], rng: &mut Rng, keep: impl Fn(Action) -> bool) -> ActionId {
    policy::among(legal, rng, |a| g.decode(a).is_some_and(&keep))
}

/// The legal action with the highest `score` plus a little noise (ties: the first).
fn best_by(g: &Daisakusen, legal: &[ActionId], rng: &mut Rng, noise: u32, score: impl Fn(Action) -> i32) -> ActionId {
    let mut best = (i32::MIN, legal[0]);
    for &a in legal {
        let Some(x) = g.decode(a) else { continue };
        let v = score(x).saturating_mul(4).saturating_add(if noise > 0 { rng.below(noise) as i32 } else { 0 });
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

/// The 総大将 of each side whose removal ends the game (R 14.0(1)(2)).
fn is_king(g: &Daisakusen, u: u8) -> bool {
    u == g.data.ieyasu || u == g.data.ishida || u == g.data.hideyori
}

// ---- evaluation: R 14.0 ----

/// The static estimate of the East's return, in (-1, 1); the West's is its negative.
///
/// - R 14.0(3): the 調略 marker's distance from each victory box, the main term (every
///   achievement of R 11.0(1) moves it).
/// - R 7.1, 11.0(1)①: strength, the hit values of the counters still in play (on the map or
///   on an entry track, face-up counters worth more than flipped ones): the side with more of
///   it removes commanders and takes castles. Counted in absolute terms ([`MATERIAL_SCALE`]),
///   so that a flip or a removal moves the estimate enough for the search to seek it, and
///   against the set-up's balance (the West starts with more), so that the estimate starts
///   near 0 where `tanh` separates moves best.
/// - R 9.0, 4.2: the East's marches along the entry tracks ([`ENTRY_WEIGHT`]).
/// - R 12.0-12.2: what the next 家康出馬 / 秀頼出陣 can win ([`plot_gain`], [`PLOT_WEIGHT`]): a
///   調略 or 恫喝 on a hex where a 総大将 stands beside counters that can turn removes him.
/// - R 14.0(1)(2): an enemy 総大将 (家康, 石田三成, 豊臣秀頼) with enemy counters next to him
///   can be attacked and removed.
/// - R 6.0, 7.1, 10.0: commanders near enemy stacks, castles and 京 ([`approach`],
///   [`APPROACH_WEIGHT`]): what they can attack at their next activation.
/// - R 13.0, 4.2: 豊臣秀頼 led out of 大坂, which puts 秀頼出陣 in the deck ([`sortie`],
///   [`SORTIE_WEIGHT`]).
///
/// The `max_turns` cap (a draw) is deliberately left out: an estimate that shrinks toward it
/// makes both sides indifferent in the last turns, and the game is meant to be won.
fn east_value(g: &Daisakusen, s: &State) -> f64 {
    let f = features(g, s);
    let w = g.eval_weights.as_ref().map_or(&WEIGHTS, |w| w);
    let x = f.iter().zip(w).fold(0.0, |x, (f, w)| x + w * f);
    (SQUASH * x).tanh()
}

/// The terms of [`east_value`], in the order of [`WEIGHTS`].
pub const FEATURES: usize = 10;

/// The weights of [`features`] before [`SQUASH`]. A game's config may replace them
/// (`"eval_weights"`: ten numbers in this order), so that a bot author can tune the bots
/// without rebuilding, and `duel` can set two weightings against each other
/// (`DUEL_CONFIG_A`).
///
/// Weights fitted to 300 `ismcts:easy` self-play games (`fit_weights.py`: 29,927 positions)
/// predict the outcome better than these (cross-validated log loss 0.628 against 0.771; a
/// constant gives 0.679: these are overconfident, most late in the game), but did not play
/// better: `[2.67, 0, 0.28, 0.31, 0.12, 3.74, -0.77, 0, 0, 0]` scored 0.575 [0.42, 0.71] over
/// 40 games against these at 2,000 iterations per decision, and gained less from ten times
/// the iterations (8,000 against 800: 0.475 over 20 games, these 0.60). These weights
/// times 2.5 (a sharper estimate) scored 0.37 [0.22, 0.54] over 30 games against these.
pub const WEIGHTS: [f64; FEATURES] = [4.0, 1.0, 0.3, ENTRY_WEIGHT, PLOT_WEIGHT, APPROACH_WEIGHT, -SORTIE_WEIGHT, 0.0, 0.0, 0.0];

/// Largest magnitude of a configured weight: far past any useful one (the estimate
/// saturates), and it keeps every sum finite.
const MAX_WEIGHT: f64 = 1000.0;

/// The weights of config `"eval_weights"`: [`FEATURES`] finite numbers of magnitude at most
/// [`MAX_WEIGHT`].
pub fn weights_from_config(v: &serde_json::Value) -> Result<[f64; FEATURES], crate::error::SetupError> {
    let bad = || {
        crate::error::SetupError::InvalidConfig(format!(
            "eval_weights must be an array of {FEATURES} numbers in -{MAX_WEIGHT}..={MAX_WEIGHT}, got {}",
            crate::input::json(v)
        ))
    };
    let items = v.as_array().filter(|a| a.len() == FEATURES).ok_or_else(bad)?;
    let mut w = [0.0; FEATURES];
    for (w, x) in w.iter_mut().zip(items) {
        *w = x.as_f64().filter(|x| x.abs() <= MAX_WEIGHT).ok_or_else(bad)?;
    }
    Ok(w)
}

/// The terms of the estimate, for the East: the 調略 marker, material, the threat to the
/// 総大将, the entry tracks, the next plot's gain, the approach, 秀頼's sortie; then three that
/// the weights leave out: the marker times the share of the turns played, 家康 arrived, and 1.
pub fn features(g: &Daisakusen, s: &State) -> [f64; FEATURES] {
    let d = &g.data;
    let last = (d.chouryaku_labels.len() as f64 - 1.0).max(2.0);
    let centre = last / 2.0;
    // +1 at the East's victory box (index 0), -1 at the West's.
    let marker = (centre - s.chouryaku as f64) / centre;
    let track_half = centre;
    let mut strength = [0.0f64; 2];
    for (u, x) in s.units.iter().enumerate() {
        if x.loc == DEAD {
            continue;
        }
        let c = &d.counters[u];
        let hit = c.attack[x.flipped as usize] as f64 + if x.flipped { 0.5 } else { 1.0 };
        strength[x.side as usize] += if x.loc >= TRACK { 0.7 * hit } else { hit };
    }
    let material = (strength[0] - strength[1] - g.initial_balance) / MATERIAL_SCALE;
    // Both entry tracks belong to the East.
    let entry: f64 = s.entry.iter().zip(&d.entry).map(|(&b, t)| b as f64 / t.boxes.len().max(1) as f64).sum();
    let mut threat = 0.0;
    for (king, side) in [(d.ieyasu, EAST), (d.ishida, WEST), (d.hideyori, WEST)] {
        let x = s.units[king as usize];
        if x.side != side || !Daisakusen::on_map(x.loc) {
            continue;
        }
        let hx = &d.hexes[x.loc as usize];
        let near: u32 = hx.nb.iter().filter(|&&n| n != super::data::NO_HEX).map(|&n| s.occ[n as usize][1 - side as usize] as u32).sum();
        let guard = s.occ[x.loc as usize][side as usize] as f64;
        let t = (near as f64 / (1.0 + guard)).min(2.0);
        threat += if side == EAST { -t } else { t };
    }
    let plots = (plot_gain(g, s, EAST) - plot_gain(g, s, WEST)) / track_half;
    let approach = approach(g, s, EAST) - approach(g, s, WEST);
    let progress = (s.turn as f64 / g.max_turns.max(1) as f64).min(1.0);
    let arrived = if s.ieyasu_arrived { 1.0 } else { 0.0 };
    [marker, material, threat, entry, plots, approach, sortie(g, s), marker * progress, arrived, 1.0]
}

/// R 6.0, 7.1, 10.0, 11.0(1): how close `side`'s commanders stand to what they can win, the
/// mean over its commanders on the map (not the 総大将) of `1 / (1 + d)`, `d` the distance to
/// the nearest of [`objectives`] (1/2 beside an enemy stack or castle). A side gets about 30
/// commander activations in a game of 20 turns, and a playout sees about four of them, so
/// without this term a march toward the enemy looked no better than holding and the search
/// held or walked in circles (measured below [`APPROACH_WEIGHT`]).
fn approach(g: &Daisakusen, s: &State, side: u8) -> f64 {
    let mut targets = [0u16; 64];
    let n = objectives(g, s, side, &mut targets);
    let targets = &targets[..n];
    let (mut sum, mut count) = (0.0, 0u32);
    for (u, x) in s.units.iter().enumerate() {
        if x.side != side || !Daisakusen::on_map(x.loc) || g.data.counters[u].kind != Kind::Commander || is_king(g, u as u8) {
            continue;
        }
        count += 1;
        sum += 1.0 / (1.0 + nearest(g, x.loc, targets) as f64);
    }
    if count > 0 {
        sum / count as f64
    } else {
        0.0
    }
}

/// R 13.0(1)(2), 4.2, 12.0: 豊臣秀頼's sortie, for the West. Once he has left 大坂, 秀頼出陣 is
/// in the deck: one more West card per pass through the deck, with a 調略 or 恫喝判定 (at most
/// 4 beside him, R 12.2(1)) and any West commander acting. He leaves only when a West commander
/// leads him out after his release, so a commander staying with him in 大坂 counts for part of
/// it: 1 out, 1/2 released with a commander beside him, 3/10 not yet released with one.
fn sortie(g: &Daisakusen, s: &State) -> f64 {
    let d = &g.data;
    let h = s.units[d.hideyori as usize];
    if h.side != WEST || h.loc == DEAD {
        return 0.0;
    }
    if s.hideyori_left {
        return 1.0;
    }
    let escort = s
        .units
        .iter()
        .enumerate()
        .any(|(u, x)| x.loc == h.loc && x.side == WEST && u as u8 != d.hideyori && d.counters[u].kind == Kind::Commander);
    match (escort, s.hideyori_released) {
        (false, _) => 0.0,
        (true, true) => 0.5,
        (true, false) => 0.3,
    }
}

/// R 12.0-12.2, 11.0(1), 14.0: what `side`'s next 家康出馬 / 秀頼出陣 is worth, in boxes of the
/// 調略 track (a 総大将 removed counts as the whole track): the best expected gain over the enemy
/// hexes holding a counter that can turn. A success turns every such counter (one box per
/// commander), removes the others of that side there (one box per commander; a 総大将 ends the
/// game) and takes a castle; a failed 恫喝判定 costs two boxes, a failed 調略判定 nothing. 0 while
/// the card is not in the deck (R 4.2).
fn plot_gain(g: &Daisakusen, s: &State, side: u8) -> f64 {
    let d = &g.data;
    let card_in_deck = if side == EAST {
        Daisakusen::on_map(s.units[d.ieyasu as usize].loc) && s.units[d.ieyasu as usize].side == EAST
    } else {
        s.hideyori_left
    };
    if !card_in_deck {
        return 0.0;
    }
    let turnable = turnable_for(side);
    let own = d.chouryaku_side[s.chouryaku as usize] == side;
    let mut best = 0.0f64;
    let mut seen = [0u16; 128];
    let mut n = 0;
    for x in &s.units {
        if x.side == side || !Daisakusen::on_map(x.loc) || x.faction != turnable || seen[..n].contains(&x.loc) {
            continue;
        }
        if n < seen.len() {
            seen[n] = x.loc;
            n += 1;
        }
        best = best.max(plot_value(g, s, side, x.loc, true));
        if own {
            best = best.max(plot_value(g, s, side, x.loc, false));
        }
    }
    best
}

/// The enemy faction that a 調略 of `side` turns (R 12.1(2)).
fn turnable_for(side: u8) -> super::data::Faction {
    if side == EAST {
        super::data::Faction::WestShosho
    } else {
        super::data::Faction::EastTozama
    }
}

/// The expected gain, in boxes of the 調略 track, of `side`'s 調略判定 (or 恫喝判定) against hex
/// `h` (R 12.1, 12.2, 11.0(1), 14.0).
fn plot_value(g: &Daisakusen, s: &State, side: u8, h: u16, intimidate: bool) -> f64 {
    let d = &g.data;
    let turnable = turnable_for(side);
    let track = (d.chouryaku_labels.len() as f64 - 1.0) / 2.0;
    let mut gain = 0.0;
    let mut turns = false;
    for (u, y) in s.units.iter().enumerate() {
        if y.loc != h || y.side == side {
            continue;
        }
        turns |= y.faction == turnable;
        if is_king(g, u as u8) && y.faction != turnable {
            gain += track;
        } else if d.counters[u].kind == Kind::Commander {
            gain += d.mv_commander.max(d.mv_defection) as f64;
        }
    }
    if !turns {
        gain = 0.0;
    }
    let c = d.hexes[h as usize].castle;
    if turns && c != super::data::NONE && g.castle_owner(s, c) != side {
        gain += if d.castles[c as usize].double { d.mv_double_castle } else { d.mv_castle } as f64;
    }
    let p = super::sequence::plot_threshold(g, s, side, h, intimidate) as f64 / 6.0;
    if intimidate {
        p * gain - (1.0 - p) * d.mv_failed_intimidation as f64
    } else {
        p * gain
    }
}

/// The East's strength minus the West's with every counter face up: the scenario's balance,
/// which the evaluation measures material against.
pub fn initial_balance(g: &Daisakusen) -> f64 {
    g.data.counters.iter().map(|c| (c.attack[0] as f64 + 1.0) * if c.side == EAST { 1.0 } else { -1.0 }).sum()
}

pub fn evaluate(g: &Daisakusen, s: &State, out: &mut [f64]) -> bool {
    if s.pending == Pending::Over {
        return false;
    }
    let v = east_value(g, s);
    out[EAST as usize] = v;
    out[WEST as usize] = -v;
    true
}

// ---- playout policy ----

/// The hexes `side` wants to reach: enemy counters (to attack them, R 7.1), enemy castles
/// (R 10.0, 11.0(1)③) and 京 when the enemy holds it (R 11.0(1)④). At most 64, nearest
/// first is not needed: the policy takes the minimum distance.
fn objectives(g: &Daisakusen, s: &State, side: u8, out: &mut [u16; 64]) -> usize {
    let mut n = 0;
    let mut push = |h: u16, n: &mut usize| {
        if *n < out.len() {
            out[*n] = h;
            *n += 1;
        }
    };
    if s.kyoto_owner != side {
        push(g.data.kyoto, &mut n);
    }
    for (c, castle) in g.data.castles.iter().enumerate() {
        if g.castle_owner(s, c as u8) != side {
            push(castle.hex, &mut n);
        }
    }
    // An enemy 総大将 first: he is the target that ends the game.
    for (u, x) in s.units.iter().enumerate() {
        if x.side != side && Daisakusen::on_map(x.loc) && is_king(g, u as u8) {
            push(x.loc, &mut n);
        }
    }
    for x in &s.units {
        if x.side != side && Daisakusen::on_map(x.loc) {
            push(x.loc, &mut n);
        }
    }
    n
}

/// The hex steps from `h` to the nearest of `targets` (0 when there are none): the grid's
/// distance, from the axial coordinates kept per hex.
fn nearest(g: &Daisakusen, h: u16, targets: &[u16]) -> u32 {
    let axial = &g.data.axial;
    let (Some(&from), true) = (axial.get(h as usize), targets.iter().all(|&t| (t as usize) < axial.len())) else {
        return targets.iter().map(|&t| g.data.grid.distance(h as usize, t as usize)).min().unwrap_or(0);
    };
    targets.iter().map(|&t| from.distance(axial[t as usize])).min().unwrap_or(0)
}

/// The playout move: random, biased toward the victory conditions: commanders act (not
/// pass), attack when they can, march onto the map, move toward enemy counters, castles
/// and 京, advance after combat, and put hits on anyone but the 総大将.
pub fn rollout_action(g: &Daisakusen, s: &State, legal: &[ActionId], rng: &mut Rng) -> ActionId {
    if legal.len() == 1 {
        return legal[0];
    }
    match s.pending {
        // R 5.1: a commander that may act acts.
        Pending::Commander => {
            if chance(rng, 0.05) {
                or_any(legal, g.encode(Action::Pass), rng)
            } else {
                among(g, legal, rng, |a| matches!(a, Action::Commander(_)))
            }
        }
        Pending::ActionChoice => best_by(g, legal, rng, 12, |a| match a {
            Action::Act(ACT_MARCH) => 4,
            Action::Act(ACT_ATTACK) => 5,
            Action::Act(ACT_MOVE) | Action::Act(ACT_STRATEGIC) => 2,
            Action::Act(ACT_RECOVER) => 1,
            Action::Act(ACT_HOLD) => -2,
            _ => 0,
        }),
        // R 6.1, 7.1(1): the group goes together; recovery takes every flipped counter.
        Pending::Select { mode } => {
            let p = if mode == Mode::Attack || mode == Mode::Recover { 0.9 } else { 0.7 };
            if chance(rng, p) {
                among(g, legal, rng, |a| matches!(a, Action::Select(_)))
            } else {
                or_any(legal, g.encode(Action::Done), rng)
            }
        }
        Pending::Moving => {
            let side = s.units[s.cmdr as usize].side;
            let at = s.units[s.cmdr as usize].loc;
            let mut targets = [0u16; 64];
            let n = objectives(g, s, side, &mut targets);
            let targets = &targets[..n];
            let here = nearest(g, at, targets) as i32;
            best_by(g, legal, rng, 6, |a| match a {
                Action::Step(dir) => {
                    let to = g.data.hexes[at as usize].nb[dir as usize];
                    here - nearest(g, to, targets) as i32
                }
                // Stopping is worth a step that gains nothing.
                _ => 0,
            })
        }
        // R 14.0: strike a 総大将 when one is in reach, else the weakest stack.
        Pending::Target => {
            let side = s.units[s.cmdr as usize].side;
            let at = s.units[s.cmdr as usize].loc;
            best_by(g, legal, rng, 4, |a| match a {
                Action::Target(dir) => {
                    let to = g.data.hexes[at as usize].nb[dir as usize];
                    let king = s.units.iter().enumerate().any(|(u, x)| x.loc == to && x.side != side && is_king(g, u as u8));
                    -(s.occ[to as usize][1 - side as usize] as i32) + if king { 10 } else { 0 }
                }
                _ => 0,
            })
        }
        // R 7.1(4), 14.0: a hit never falls on the 総大将 or a commander when it can go
        // elsewhere; the weakest counter takes it.
        Pending::Allocate { .. } => best_by(g, legal, rng, 0, |a| match a {
            Action::Hit(u) => {
                let c = &g.data.counters[u as usize];
                let rank = if is_king(g, u) {
                    -100
                } else if c.kind == Kind::Commander {
                    -20
                } else {
                    0
                };
                rank - c.attack[0] as i32
            }
            _ => 0,
        }),
        // R 7.3: advance into the emptied hex (castles and 京 change hands by it).
        Pending::Advance => {
            if chance(rng, 0.8) {
                among(g, legal, rng, |a| a == Action::Advance)
            } else {
                or_any(legal, g.encode(Action::Stay), rng)
            }
        }
        // R 12.0: a 調略/恫喝判定 now and then (a failed 恫喝 costs two boxes, R 12.2(3)).
        Pending::Plot => {
            if chance(rng, 0.6) {
                or_any(legal, g.encode(Action::Pass), rng)
            } else {
                among(g, legal, rng, |a| matches!(a, Action::Chouryaku(_)))
            }
        }
        _ => uniform(legal, rng),
    }
}

#[cfg(test)]
#[path = "bot_tests.rs"]
mod tests;
