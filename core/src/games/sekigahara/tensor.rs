//! The observation tensor: a flat f32 vector built from what the observer may see (the same
//! facts as its view), from the observer's side ("own" and "other"; the spectator sees
//! Tokugawa as "own"). Every value is in `[0, 1]`: counts are divided by the largest value
//! the component data allows ([`Maxima`]), battle impact by a cap (RULES_NOTES.md S29).
//!
//! Layout ([`layout`] names the ranges): per location 25 planes (own/other blocks, in castle,
//! moved, disks, resource and castle control, resource/capital flags, mons, leaders, arquebus
//! and cavalry of the own blocks and of the other side's face-up blocks, selected, the battle
//! location, the group's position); then globals: week (one-hot), turn, phase, whether the
//! observer is active/first/to move, the pending kind (one-hot), the own hand per card type,
//! card pile sizes, box/bag/Mori/eliminated counts, the battle (impact, initiative, done,
//! attacker, siege) and the group (steps, command, forced), the roads used this phase.

use super::data::{Unit, NONE};
use super::hidden::{deployed_blocks, face_down_given};
use super::state::{Pending, State, BAG, BOX, DEAD, IN_CASTLE, MORI_BOX, MOVED, SELECTED};
use super::{Data, Sekigahara};
use crate::game::{Player, SPECTATOR};
use crate::layout::{Feature, LayoutBuilder};

const PER_LOCATION: usize = 25;
const PENDING_KINDS: usize = 21;
const WEEKS: usize = 7;
/// Battle impact has no printed maximum: it is divided by this cap and clamped
/// (RULES_NOTES.md S29: 49 impact inflicts 7 hits, 8.7).
const IMPACT_CAP: f32 = 49.0;
/// A group takes at most 4 steps: 1, +1 with a leader's command, +1 with a forced march, +1
/// along main roads only (7.3.1-7.3.3, `movement::can_step`).
const MAX_STEPS: f32 = 4.0;

pub fn len(g: &Sekigahara) -> usize {
    g.data.locations.len() * PER_LOCATION + WEEKS + 2 + 2 + 3 + PENDING_KINDS + g.data.cards.len() + 6 + 8 + 8 + 4 + 64
}

/// The largest value each count can reach, from the component data: a count of one side's
/// blocks (at a location, in castle, moved, selected, in the box, the bag, the Mori box,
/// eliminated) is at most all that side's blocks; the sums of mons, leaders, arquebus and
/// cavalry at a location at most the side's totals; the disks at a location the disks printed
/// there; a card pile or hand at most all the side's cards.
#[derive(Clone, Debug)]
pub struct Maxima {
    blocks: f32,
    mons: f32,
    leaders: f32,
    arquebus: f32,
    cavalry: f32,
    disks: f32,
    cards: f32,
}

impl Maxima {
    pub fn of(d: &Data) -> Maxima {
        let per_side = |f: &dyn Fn(&super::data::Block) -> u32| -> f32 {
            (0..2u8).map(|side| d.blocks.iter().filter(|b| b.side == side).map(f).sum::<u32>()).max().unwrap_or(0).max(1) as f32
        };
        let disks = (0..d.locations.len())
            .flat_map(|l| (0..2u8).map(move |side| (l, side)))
            .map(|(l, side)| d.disks.iter().filter(|x| x.location as usize == l && x.side == side).count())
            .max()
            .unwrap_or(0)
            .max(1) as f32;
        let cards =
            d.side_cards.iter().map(|cs| cs.iter().map(|&c| d.cards[c as usize].count as u32).sum::<u32>()).max().unwrap_or(0).max(1);
        Maxima {
            blocks: per_side(&|_| 1),
            mons: per_side(&|b| b.mons as u32),
            leaders: per_side(&|b| b.leader as u32),
            arquebus: per_side(&|b| (b.unit == Unit::Arquebus) as u32),
            cavalry: per_side(&|b| (b.unit == Unit::Cavalry) as u32),
            disks,
            cards: cards as f32,
        }
    }
}

/// The named ranges of the tensor, in the order [`write`] fills them.
pub fn layout(g: &Sekigahara) -> Vec<Feature> {
    let d = &g.data;
    LayoutBuilder::new()
        .unit(
            "locations",
            d.locations.len() * PER_LOCATION,
            "per location (data order), 25 planes: 0-1 own/other blocks, 2-3 own/other blocks in castle, 4-5 own/other \
             blocks moved, 6-7 own/other disks, 8 own resource control, 9 own castle control, 10 resource, 11-14 own mons, \
             leaders, arquebus, cavalry, 15 battle location, 16 selected blocks, 17 group position, 18-21 the other side's \
             face-up mons, leaders, arquebus, cavalry, 22 other resource control, 23 other castle control, 24 capital; \
             counts / the side's total in the component data (disks / the disks printed there)",
        )
        .unit("week", WEEKS, "one-hot week")
        .unit("turn", 2, "turn B, in the movement phase")
        .unit("initiative", 2, "the observer is the active side, the observer went first")
        .unit("to_move", 3, "a forced step is due, the observer decides next, the observer won")
        .unit("pending", PENDING_KINDS, "one-hot kind of the pending decision")
        .unit("own_hand", d.cards.len(), "the observer's cards per card type / the copies of that type (zeros for the spectator)")
        .unit("cards", 6, "own hand, deck, discard, other hand, deck, discard sizes / the larger side's card count")
        .unit("block_pools", 8, "own then other blocks in the box, bag, Mori box, eliminated / the side's blocks")
        .unit(
            "battle",
            8,
            format!("own impact / {IMPACT_CAP} and other impact (clamped), own initiative, own done, other done, own attacker, siege, a battle is on"),
        )
        .unit("group", 4, format!("the moving group's steps / {MAX_STEPS}, command, forced march, all on main roads"))
        .unit("roads_used", 64, "one flag per road (data order, the first 64) crossed this movement phase")
        .build()
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

/// The tensor with the values no state changes (each location's resource and capital flags)
/// and zeros elsewhere: every observation starts as a copy of it.
pub fn base(g: &Sekigahara) -> Vec<f32> {
    let mut out = vec![0.0; len(g)];
    for (l, loc) in g.data.locations.iter().enumerate() {
        out[l * PER_LOCATION + 10] = f32::from(loc.resource);
        out[l * PER_LOCATION + 24] = f32::from(loc.capital.is_some());
    }
    out
}

pub fn write(g: &Sekigahara, s: &State, player: Player, out: &mut [f32]) {
    let d = &g.data;
    let m = &g.tensor_max;
    let me: u8 = if player == SPECTATOR { 0 } else { player as u8 };
    let sees_all = player != SPECTATOR;
    let nl = d.locations.len();
    let side_of = |i: usize| d.blocks[i].side;
    let rel = |side: u8| if side == me { 0 } else { 1 };
    out.copy_from_slice(&g.tensor_base);
    let deployed = deployed_blocks(s);
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
        let known = (sees_all && side_of(i) == me) || !face_down_given(s, i, &deployed);
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
    // The counts above, divided once by their maxima (exact: a count never exceeds its maximum).
    let divisors = [
        (0, m.blocks),
        (1, m.blocks),
        (2, m.blocks),
        (3, m.blocks),
        (4, m.blocks),
        (5, m.blocks),
        (6, m.disks),
        (7, m.disks),
        (11, m.mons),
        (12, m.leaders),
        (13, m.arquebus),
        (14, m.cavalry),
        (16, m.blocks),
        (18, m.mons),
        (19, m.leaders),
        (20, m.arquebus),
        (21, m.cavalry),
    ];
    for (l, loc) in d.locations.iter().enumerate() {
        let base = l * PER_LOCATION;
        // Every divided plane counts blocks or disks at the location: empty ones stay 0.
        if out[base] + out[base + 1] + out[base + 6] + out[base + 7] > 0.0 {
            for (plane, max) in divisors {
                out[base + plane] /= max;
            }
        }
        if s.resource[l] != NONE {
            out[base + if s.resource[l] == me { 8 } else { 22 }] = 1.0;
        }
        if loc.castle.is_some() {
            out[base + if s.castle[l] == me { 9 } else { 23 }] = 1.0;
        }
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
            out[o + c as usize] = s.hand[c as usize] as f32 / f32::from(d.cards[c as usize].count.max(1));
        }
    }
    o += d.cards.len();
    for (k, side) in [me, 1 - me].into_iter().enumerate() {
        out[o + 3 * k] = s.hand_size(g, side) as f32 / m.cards;
        out[o + 3 * k + 1] = s.pile_size(g, &s.deck, side) as f32 / m.cards;
        out[o + 3 * k + 2] = s.pile_size(g, &s.discard, side) as f32 / m.cards;
    }
    o += 6;
    // Each side's blocks in the box, the bag, the Mori box and eliminated, counted in one pass.
    let mut off_map = [[0u32; 4]; 2];
    for (b, x) in s.blocks.iter().zip(&d.blocks) {
        let place = match b.loc {
            BOX => 0,
            BAG => 1,
            MORI_BOX => 2,
            DEAD => 3,
            _ => continue,
        };
        off_map[rel(x.side)][place] += 1;
    }
    for (k, counts) in off_map.iter().enumerate() {
        for (j, &c) in counts.iter().enumerate() {
            out[o + 4 * k + j] = c as f32 / m.blocks;
        }
    }
    o += 8;
    if let Some(b) = &s.battle {
        out[o] = (b.impact[me as usize] as f32 / IMPACT_CAP).min(1.0);
        out[o + 1] = (b.impact[1 - me as usize] as f32 / IMPACT_CAP).min(1.0);
        out[o + 2] = f32::from(b.initiative == me);
        out[o + 3] = f32::from(b.done[me as usize]);
        out[o + 4] = f32::from(b.done[1 - me as usize]);
        out[o + 5] = f32::from(b.attacker == me);
        out[o + 6] = f32::from(b.siege);
        out[o + 7] = 1.0;
    }
    o += 8;
    if s.pending == Pending::Group {
        out[o] = s.group.steps as f32 / MAX_STEPS;
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
