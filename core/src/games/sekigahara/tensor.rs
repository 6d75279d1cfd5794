//! The observation tensor: a flat f32 vector built from what the observer may see (the same
//! facts as its view), from the observer's side ("own" and "other"; the spectator sees
//! Tokugawa as "own").
//!
//! Layout: per location 22 planes (own/other blocks, in castle, moved, disks, resource and
//! castle control, castle/resource/capital flags, mons, leaders, arquebus and cavalry of the
//! own blocks and of the other side's face-up blocks, selected, the battle location, the
//! group's position); then globals: week (one-hot),
//! turn, phase, whether the observer is active/first/to move, the pending kind (one-hot),
//! the own hand per card type, card pile sizes, box/bag/Mori/eliminated counts, the battle
//! (impact, initiative, done, attacker, siege) and the group (steps, command, forced).

use super::data::{Unit, NONE};
use super::hidden::face_down;
use super::state::{Pending, State, BAG, BOX, DEAD, IN_CASTLE, MORI_BOX, MOVED, SELECTED};
use super::Sekigahara;
use crate::game::{Player, SPECTATOR};

const PER_LOCATION: usize = 22;
const PENDING_KINDS: usize = 21;
const WEEKS: usize = 7;

pub fn len(g: &Sekigahara) -> usize {
    g.data.locations.len() * PER_LOCATION + WEEKS + 2 + 2 + 3 + PENDING_KINDS + g.data.cards.len() + 6 + 8 + 8 + 4 + 64
}

fn pending_index(p: Pending) -> usize {
    match p {
        Pending::ReinforceDiscard { .. } => 0,
        Pending::Bid { .. } => 1,
        Pending::ChooseFirst { .. } => 2,
        Pending::Mode => 3,
        Pending::PayMode { .. } => 4,
        Pending::Exchange { .. } => 5,
        Pending::Menu => 6,
        Pending::Group => 7,
        Pending::Muster { .. } => 8,
        Pending::Combat => 9,
        Pending::SiegeChoice { .. } => 10,
        Pending::Deploy => 11,
        Pending::DeployBlock { .. } => 12,
        Pending::DeploySecond { .. } => 13,
        Pending::Challenge => 14,
        Pending::Refute => 15,
        Pending::Casualty { .. } => 16,
        Pending::RetreatCastle => 17,
        Pending::Retreat => 18,
        Pending::Over => 19,
        Pending::JoinGarrison { .. } => 20,
    }
}

pub fn write(g: &Sekigahara, s: &State, player: Player, out: &mut [f32]) {
    let d = &g.data;
    let me: u8 = if player == SPECTATOR { 0 } else { player as u8 };
    let sees_all = player != SPECTATOR;
    let nl = d.locations.len();
    let side_of = |i: usize| d.blocks[i].side;
    let rel = |side: u8| if side == me { 0 } else { 1 };
    for (i, b) in s.blocks.iter().enumerate() {
        if (b.loc as usize) >= nl {
            continue;
        }
        let base = b.loc as usize * PER_LOCATION;
        let r = rel(side_of(i));
        out[base + r] += 1.0;
        if b.flags & IN_CASTLE != 0 {
            out[base + 2 + r] += 1.0;
        }
        if b.flags & MOVED != 0 {
            out[base + 4 + r] += 1.0;
        }
        if b.flags & SELECTED != 0 {
            out[base + 16] += 1.0;
        }
        // Identities: the observer's own blocks, and face-up blocks of the other side.
        let known = (sees_all && side_of(i) == me) || !face_down(s, i);
        if known {
            let blk = &d.blocks[i];
            let at = if r == 0 { base + 11 } else { base + 18 };
            out[at] += blk.mons as f32;
            out[at + 1] += f32::from(blk.leader);
            out[at + 2] += f32::from(blk.unit == Unit::Arquebus);
            out[at + 3] += f32::from(blk.unit == Unit::Cavalry);
        }
    }
    for (disk, &alive) in d.disks.iter().zip(&s.disks) {
        if alive {
            out[disk.location as usize * PER_LOCATION + 6 + rel(disk.side)] += 1.0;
        }
    }
    for (l, loc) in d.locations.iter().enumerate() {
        let base = l * PER_LOCATION;
        if s.resource[l] != NONE {
            out[base + 8] = if s.resource[l] == me { 1.0 } else { -1.0 };
        }
        if loc.castle.is_some() {
            out[base + 9] = if s.castle[l] == me { 1.0 } else { -1.0 };
        }
        out[base + 10] = f32::from(loc.resource) + 2.0 * f32::from(loc.capital.is_some());
    }
    if let Some(b) = &s.battle {
        out[b.loc as usize * PER_LOCATION + 15] = 1.0;
    }
    if s.pending == Pending::Group {
        out[s.group.at as usize * PER_LOCATION + 17] = 1.0;
    }
    let mut o = nl * PER_LOCATION;
    if (1..=WEEKS).contains(&(s.week as usize)) {
        out[o + s.week as usize - 1] = 1.0;
    }
    o += WEEKS;
    out[o] = s.turn as f32;
    out[o + 1] = f32::from(s.in_movement());
    o += 2;
    out[o] = f32::from(s.active() == me);
    out[o + 1] = f32::from(s.first == me);
    o += 2;
    out[o] = f32::from(s.due.any());
    out[o + 1] = f32::from(!s.due.any() && !s.is_over() && g.decider(s) == me);
    out[o + 2] = f32::from(s.is_over() && s.winner == me);
    o += 3;
    out[o + pending_index(s.pending)] = 1.0;
    o += PENDING_KINDS;
    if sees_all {
        for &c in &d.side_cards[me as usize] {
            out[o + c as usize] = s.hand[c as usize] as f32;
        }
    }
    o += d.cards.len();
    for (k, side) in [me, 1 - me].into_iter().enumerate() {
        out[o + 3 * k] = s.hand_size(g, side) as f32;
        out[o + 3 * k + 1] = s.pile_size(g, &s.deck, side) as f32;
        out[o + 3 * k + 2] = s.pile_size(g, &s.discard, side) as f32;
    }
    o += 6;
    for (k, side) in [me, 1 - me].into_iter().enumerate() {
        let count = |loc: u8| s.blocks.iter().zip(&d.blocks).filter(|(b, x)| b.loc == loc && x.side == side).count() as f32;
        out[o + 4 * k] = count(BOX);
        out[o + 4 * k + 1] = count(BAG);
        out[o + 4 * k + 2] = count(MORI_BOX);
        out[o + 4 * k + 3] = count(DEAD);
    }
    o += 8;
    if let Some(b) = &s.battle {
        out[o] = b.impact[me as usize] as f32;
        out[o + 1] = b.impact[1 - me as usize] as f32;
        out[o + 2] = f32::from(b.initiative == me);
        out[o + 3] = f32::from(b.done[me as usize]);
        out[o + 4] = f32::from(b.done[1 - me as usize]);
        out[o + 5] = f32::from(b.attacker == me);
        out[o + 6] = f32::from(b.siege);
        out[o + 7] = 1.0;
    }
    o += 8;
    if s.pending == Pending::Group {
        out[o] = s.group.steps as f32;
        out[o + 1] = f32::from(s.group.command);
        out[o + 2] = f32::from(s.group.forced);
        out[o + 3] = f32::from(s.group.all_main);
    }
    o += 4;
    // Roads used this movement phase.
    for r in 0..d.roads.len().min(64) {
        out[o + r] = f32::from(s.roads_used & (1 << r) != 0);
    }
}
