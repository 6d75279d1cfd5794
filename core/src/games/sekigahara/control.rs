//! Control of resource locations (4.2) and castles (4.3), eliminations, immediate victory
//! (2.1) and overruns (7.4).

use super::data::{DiskRule, NONE, SIDES};
use super::state::{EndReason, Pending, State, DEAD, IN_CASTLE};
use super::Sekigahara;
use crate::bits::bits;
use crate::events::{event, Audience, Events};

/// INTERPRETATION (RULES_NOTES.md S10): every arrival counts (move, muster, Mori box, retreat).
/// 4.2: the last side to move blocks into (or through) a resource location controls it.
pub fn enter(g: &Sekigahara, s: &mut State, side: u8, loc: u8) {
    if g.data.locations[loc as usize].resource {
        s.resource[loc as usize] = side;
    }
}

/// 4.3: a castle is controlled by the side whose units are inside it (a siege), else by the
/// only side with blocks there, else by its natural owner; with both sides present and nobody
/// inside, the side that held it before keeps it.
pub fn refresh_castle(g: &Sekigahara, s: &mut State, loc: u8) {
    let Some(natural) = g.data.locations[loc as usize].castle else { return };
    let inside = |side: u8| {
        s.disks_at(g, side, loc) > 0
            || s.blocks.iter().zip(&g.data.blocks).any(|(b, d)| b.loc == loc && d.side == side && b.flags & IN_CASTLE != 0)
    };
    let (t_in, i_in) = (inside(0), inside(1));
    let (t, i) = (s.count_at(g, 0, loc), s.count_at(g, 1, loc));
    s.castle[loc as usize] = match (t_in, i_in, t > 0, i > 0) {
        (false, true, _, _) => 1,
        (true, false, _, _) => 0,
        (_, _, true, false) => 0,
        (_, _, false, true) => 1,
        (_, _, false, false) => natural,
        _ => s.castle[loc as usize],
    };
}

/// Clears the castle flag of blocks no longer besieged (no enemy at their location).
pub fn lift_sieges(g: &Sekigahara, s: &mut State, loc: u8) {
    if !s.contested(g, loc) {
        for b in s.blocks.iter_mut().filter(|b| b.loc == loc) {
            b.flags &= !IN_CASTLE;
        }
    }
}

/// Blocks of `side` just arrived at `loc` (move, muster, Mori box, retreat): control, and an
/// overrun if they now outnumber the enemy 4:1. Returns whether an overrun happened.
pub fn arrive(g: &Sekigahara, s: &mut State, side: u8, loc: u8, ev: &mut Events) -> bool {
    enter(g, s, side, loc);
    let overran = overrun(g, s, side, loc, ev);
    refresh_castle(g, s, loc);
    overran
}

/// INTERPRETATION (RULES_NOTES.md S23): the card draw applies to every overrun.
/// 7.4: `side` overruns the enemy blocks at `loc` if it has at least four times as many
/// blocks there (strength ignored; blocks inside a castle count, 7.4.3). Enemy units holding
/// the castle cannot be overrun. The overrun side draws a card per two blocks lost (8.10).
pub fn overrun(g: &Sekigahara, s: &mut State, side: u8, loc: u8, ev: &mut Events) -> bool {
    let enemy = 1 - side;
    let theirs = s.count_at(g, enemy, loc);
    if theirs == 0 || s.pending == Pending::Over {
        return false;
    }
    if g.data.locations[loc as usize].castle.is_some() && s.castle[loc as usize] == enemy {
        return false;
    }
    let mine = s.count_at(g, side, loc);
    if mine < 4 * theirs {
        return false;
    }
    let lost = (0..s.blocks.len()).filter(|&b| s.blocks[b].loc == loc && g.data.blocks[b].side == enemy).fold(0u128, |m, b| m | 1 << b);
    ev.emit(Audience::ALL, || {
        event!({"kind": "overrun", "side": SIDES[side as usize], "at": g.data.locations[loc as usize].id, "blocks": mine, "overrun": theirs})
    });
    let mut commander = false;
    for b in bits(lost) {
        commander |= eliminate(g, s, b, ev);
    }
    s.due.cards[enemy as usize] += lost.count_ones() as u8 / 2;
    // 8.9.2: blocks of `side` besieged there are relieved and come out of the castle.
    lift_sieges(g, s, loc);
    if commander {
        win(s, side, ev);
    }
    true
}

/// Removes a block from play, face up (8.7.3). Returns whether it was a commander (2.1).
pub fn eliminate(g: &Sekigahara, s: &mut State, b: u8, ev: &mut Events) -> bool {
    let at = s.blocks[b as usize].loc;
    s.blocks[b as usize].loc = DEAD;
    s.blocks[b as usize].flags = 0;
    s.blocks[b as usize].from = NONE;
    let d = &g.data.blocks[b as usize];
    ev.emit(Audience::ALL, || {
        event!({"kind": "block_eliminated", "block": d.id, "side": SIDES[d.side as usize], "at": g.data.locations.get(at as usize).map(|l| &l.id)})
    });
    d.commander
}

/// Removes a disk (8.9.3). Hideyori's capture wins for Tokugawa (9.1); returns whether it did.
pub fn eliminate_disk(g: &Sekigahara, s: &mut State, d: u8, ev: &mut Events) -> bool {
    s.disks[d as usize] = false;
    let disk = &g.data.disks[d as usize];
    ev.emit(Audience::ALL, || event!({"kind": "disk_eliminated", "disk": disk.id}));
    disk.rule == DiskRule::Hideyori
}

/// 2.1: the game ends at once.
pub fn win(s: &mut State, side: u8, ev: &mut Events) {
    if s.pending == Pending::Over {
        return;
    }
    s.winner = side;
    s.end = Some(EndReason::Immediate);
    s.pending = Pending::Over;
    s.due = Default::default();
    s.battle = None;
    ev.emit(Audience::ALL, || event!({"kind": "game_over", "reason": "immediate", "winner": SIDES[side as usize]}));
}

/// 2.2: victory points: 2 per castle, 1 per resource location.
pub fn points(g: &Sekigahara, s: &State) -> [u32; 2] {
    let mut p = [0u32; 2];
    for (i, l) in g.data.locations.iter().enumerate() {
        if l.castle.is_some() && s.castle[i] < 2 {
            p[s.castle[i] as usize] += 2;
        }
        if l.resource && s.resource[i] < 2 {
            p[s.resource[i] as usize] += 1;
        }
    }
    p
}

/// Castles and resource locations controlled, per side (6.2).
pub fn holdings(g: &Sekigahara, s: &State) -> ([u32; 2], [u32; 2]) {
    let (mut castles, mut resources) = ([0u32; 2], [0u32; 2]);
    for (i, l) in g.data.locations.iter().enumerate() {
        if l.castle.is_some() && s.castle[i] < 2 {
            castles[s.castle[i] as usize] += 1;
        }
        if l.resource && s.resource[i] < 2 {
            resources[s.resource[i] as usize] += 1;
        }
    }
    (castles, resources)
}
