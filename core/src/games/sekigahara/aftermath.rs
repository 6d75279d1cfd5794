//! After the deployments: casualties (8.7), the siege result (8.9.4), retreat (8.8), card
//! replenishment (8.10), Hideyori and Sanada (9.1-9.2) and immediate victory (2.1).

use super::control;
use super::data::{DiskRule, ISHIDA, NONE, SIDES, TOKUGAWA};
use super::state::{Pending, State, DEFECTED, DEPLOYED, IN_CASTLE, SELECTED};
use super::{battle, week, Action, Sekigahara};
use crate::bits::bits;
use crate::events::{event, Audience, Events};
use crate::game::ActionId;

/// The deployments are over: the winner, and the hits each side takes.
pub fn resolve(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    let b = s.battle.as_mut().expect("battle");
    let (att, def) = (b.attacker as usize, 1 - b.attacker as usize);
    if b.siege {
        // 8.9.4 B: one defending block or disk per 7 impact; the attacker loses nothing.
        b.hits = [0; 2];
        b.hits[def] = (b.impact[att] / 7) as u8;
        b.winner = NONE;
    } else {
        // 8.2.1, 8.7.1: ties go to the defender; 1 block per 7 impact taken, +1 for the loser.
        let winner = if b.impact[att] > b.impact[def] { att } else { def };
        b.winner = winner as u8;
        for p in 0..2 {
            b.hits[p] = (b.impact[1 - p] / 7) as u8 + u8::from(p != winner);
        }
    }
    let (impact, hits, winner, siege, loc) = (b.impact, b.hits, b.winner, b.siege, b.loc);
    ev.emit(Audience::ALL, || {
        event!({"kind": "battle_result", "at": g.data.locations[loc as usize].id, "type": if siege { "siege" } else { "field" },
               "impact": {"tokugawa": impact[0], "ishida": impact[1]}, "winner": (winner < 2).then(|| SIDES[winner as usize]),
               "casualties": {"tokugawa": hits[0], "ishida": hits[1]}})
    });
    s.pending = Pending::Casualty { side: att as u8 };
    casualties(g, s, ev);
}

/// A unit that can be lost: a block, or a disk (siege only).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unit {
    Block(u8),
    Disk(u8),
}

/// A set of units: blocks (bit i; at most 128, data.rs) and disks (bit d; at most 8).
#[derive(Clone, Copy, Default)]
struct Units {
    blocks: u128,
    disks: u8,
}

impl Units {
    fn len(self) -> usize {
        (self.blocks.count_ones() + self.disks.count_ones()) as usize
    }

    /// The blocks, then the disks, each ascending.
    fn iter(self) -> impl Iterator<Item = Unit> {
        bits(self.blocks).map(Unit::Block).chain(bits(self.disks as u128).map(Unit::Disk))
    }
}

/// The units `side` must choose its next loss from: in a field battle defected blocks, then
/// deployed blocks, then the rest (8.7.2); in a siege the units inside the castle, Hideyori
/// only when nothing else is left (9.1).
fn candidates(g: &Sekigahara, s: &State, side: u8) -> Units {
    let b = s.battle.as_ref().expect("battle");
    let ours = |i: usize| s.blocks[i].loc == b.loc && g.data.blocks[i].side == side;
    let blocks = |keep: &dyn Fn(usize) -> bool| (0..s.blocks.len()).filter(|&i| ours(i) && keep(i)).fold(0u128, |m, i| m | 1 << i);
    if b.siege {
        let disks = |hideyori: bool| {
            (0..g.data.disks.len())
                .filter(move |&d| {
                    let disk = &g.data.disks[d];
                    s.disks[d] && disk.location == b.loc && disk.side == side && (disk.rule == DiskRule::Hideyori) == hideyori
                })
                .fold(0u8, |m, d| m | 1 << d)
        };
        let mut v = Units { blocks: blocks(&|i| s.blocks[i].flags & IN_CASTLE != 0), disks: disks(false) };
        if v.len() == 0 {
            v.disks = disks(true);
        }
        return v;
    }
    for class in [DEFECTED, DEPLOYED, 0] {
        let v = Units {
            blocks: blocks(&|i| {
                (if class == 0 { s.blocks[i].flags & DEPLOYED == 0 } else { s.blocks[i].flags & class != 0 })
                    && (class != DEPLOYED || s.blocks[i].flags & DEFECTED == 0)
            }),
            disks: 0,
        };
        if v.len() > 0 {
            return v;
        }
    }
    Units::default()
}

/// INTERPRETATION (RULES_NOTES.md S18, S26).
/// Takes the losses that need no choice; stops at the first choice, or moves on when both
/// sides are done (attacker first, 8.7.2).
fn casualties(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    loop {
        let Pending::Casualty { side } = s.pending else { return };
        let hits = s.battle.as_ref().expect("battle").hits[side as usize];
        let c = if hits > 0 { candidates(g, s, side) } else { Units::default() };
        if c.len() == 0 {
            let b = s.battle.as_mut().expect("battle");
            b.hits[side as usize] = 0;
            if side == b.attacker {
                s.pending = Pending::Casualty { side: 1 - side };
                continue;
            }
            return losses_taken(g, s, ev);
        }
        if c.len() > hits as usize {
            return; // a choice
        }
        for u in c.iter() {
            lose(g, s, side, u, ev);
        }
    }
}

fn lose(g: &Sekigahara, s: &mut State, side: u8, u: Unit, ev: &mut Events) {
    let b = s.battle.as_mut().expect("battle");
    b.hits[side as usize] -= 1;
    match u {
        Unit::Block(i) => {
            b.lost[side as usize] += 1;
            if control::eliminate(g, s, i, ev) {
                s.battle.as_mut().expect("battle").commander_lost[side as usize] = true;
            }
        }
        Unit::Disk(d) => {
            if control::eliminate_disk(g, s, d, ev) {
                // 9.1: Hideyori captured; counted like a commander of Ishida for 2.1.
                s.battle.as_mut().expect("battle").commander_lost[side as usize] = true;
            }
        }
    }
}

pub fn legal(g: &Sekigahara, s: &State, out: &mut Vec<ActionId>) {
    let b = s.battle.as_ref().expect("battle");
    match s.pending {
        Pending::Casualty { side } => {
            for u in candidates(g, s, side).iter() {
                out.push(match u {
                    Unit::Block(i) => g.encode(Action::Select(i)),
                    Unit::Disk(d) => g.encode(Action::Disk(d)),
                });
            }
        }
        Pending::RetreatCastle => {
            let loser = 1 - b.winner;
            let inside = retreating(g, s, loser, true).count();
            if inside < 2 {
                out.extend(retreating(g, s, loser, false).map(|i| g.encode(Action::Select(i as u8))));
            }
            out.push(g.encode(Action::Done));
        }
        Pending::Retreat => out.extend(bits(destinations(g, s) as u128).map(|l| g.encode(Action::Retreat(l)))),
        Pending::JoinGarrison { .. } => out.extend([g.encode(Action::Siege), g.encode(Action::Field)]),
        _ => {}
    }
}

pub fn apply(g: &Sekigahara, s: &mut State, a: Action, ev: &mut Events) {
    match (s.pending, a) {
        (Pending::Casualty { side }, Action::Select(i)) => {
            lose(g, s, side, Unit::Block(i), ev);
            casualties(g, s, ev);
        }
        (Pending::Casualty { side }, Action::Disk(d)) => {
            lose(g, s, side, Unit::Disk(d), ev);
            casualties(g, s, ev);
        }
        (Pending::RetreatCastle, Action::Select(i)) => {
            s.blocks[i as usize].flags |= IN_CASTLE | SELECTED;
            let loc = s.battle.as_ref().expect("battle").loc;
            ev.emit(Audience::ALL, || event!({"kind": "retreat_into_castle", "at": g.data.locations[loc as usize].id}));
        }
        (Pending::RetreatCastle, Action::Done) => after_castle(g, s, ev),
        (Pending::Retreat, Action::Retreat(l)) => retreat(g, s, l, ev),
        (Pending::JoinGarrison { to }, Action::Siege) => retreat_into(g, s, to, true, ev),
        (Pending::JoinGarrison { to }, Action::Field) => retreat_into(g, s, to, false, ev),
        _ => unreachable!("aftermath::apply called with {a:?} at {:?}", s.pending),
    }
}

/// INTERPRETATION (RULES_NOTES.md S21): Hideyori counts like Ishida Mitsunari.
/// Both sides took their losses: immediate victory (2.1, both in one battle: Ishida), the
/// defected blocks go home (8.6.1), then the siege result or the loser's retreat.
fn losses_taken(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    let b = s.battle.as_ref().expect("battle");
    let (loc, lost) = (b.loc, b.commander_lost);
    if lost[TOKUGAWA as usize] {
        return control::win(s, ISHIDA, ev);
    }
    if lost[ISHIDA as usize] {
        return control::win(s, TOKUGAWA, ev);
    }
    for blk in s.blocks.iter_mut().filter(|x| x.loc == loc) {
        blk.flags &= !(DEFECTED | DEPLOYED);
    }
    let b = s.battle.as_ref().expect("battle");
    if b.siege {
        let def = 1 - b.attacker;
        if s.units_at(g, def, loc) == 0 {
            // 8.9.4 D: the castle falls to the besiegers.
            let attacker = b.attacker;
            ev.emit(
                Audience::ALL,
                || event!({"kind": "castle_falls", "at": g.data.locations[loc as usize].id, "to": SIDES[attacker as usize]}),
            );
        }
        control::lift_sieges(g, s, loc);
        control::refresh_castle(g, s, loc);
        return replenish(g, s, ev);
    }
    let loser = 1 - b.winner;
    if s.count_at(g, loser, loc) == 0 {
        control::refresh_castle(g, s, loc);
        return replenish(g, s, ev);
    }
    // 8.8.4: up to two blocks into a castle the loser held before the battle.
    s.pending = if b.holder == loser { Pending::RetreatCastle } else { Pending::Retreat };
    if s.pending == Pending::Retreat {
        to_destination(g, s, ev);
    }
}

/// The loser's blocks at the battle: inside the castle (`inside`) or outside it.
fn retreating<'a>(g: &'a Sekigahara, s: &'a State, loser: u8, inside: bool) -> impl Iterator<Item = usize> + 'a {
    let loc = s.battle.as_ref().expect("battle").loc;
    (0..s.blocks.len())
        .filter(move |&i| s.blocks[i].loc == loc && g.data.blocks[i].side == loser && (s.blocks[i].flags & SELECTED != 0) == inside)
}

fn after_castle(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    let loser = 1 - s.battle.as_ref().expect("battle").winner;
    for b in &mut s.blocks {
        b.flags &= !SELECTED;
    }
    let loc = s.battle.as_ref().expect("battle").loc;
    let outside =
        (0..s.blocks.len()).any(|i| s.blocks[i].loc == loc && g.data.blocks[i].side == loser && s.blocks[i].flags & IN_CASTLE == 0);
    if outside {
        s.pending = Pending::Retreat;
        to_destination(g, s, ev);
    } else {
        control::refresh_castle(g, s, loc);
        replenish(g, s, ev);
    }
}

/// A single possible destination needs no choice.
fn to_destination(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    let d = destinations(g, s);
    if d.count_ones() == 1 {
        retreat(g, s, d.trailing_zeros() as u8, ev);
    }
}

/// 8.8.2-8.8.3: where the loser may retreat (bit l for location l; at most 60 locations,
/// data.rs). The attacker goes back to a location its blocks entered from; the defender to a
/// location with no enemy that the enemy did not come from. If there is none, any adjacent
/// location.
fn destinations(g: &Sekigahara, s: &State) -> u64 {
    let b = s.battle.as_ref().expect("battle");
    let loser = 1 - b.winner;
    let adj = g.data.locations[b.loc as usize].adj.iter().fold(0u64, |m, &(n, _)| m | 1 << n);
    let came_from = |side: u8| {
        (0..s.blocks.len())
            .filter(|&i| s.blocks[i].loc == b.loc && g.data.blocks[i].side == side)
            .map(|i| s.blocks[i].from)
            .filter(|&l| l < 64 && adj & (1 << l) != 0)
            .fold(0u64, |m, l| m | 1 << l)
    };
    let preferred = if loser == b.attacker {
        // INTERPRETATION (RULES_NOTES.md S9): the retreating blocks go together, to any one of
        // the locations they came from.
        came_from(loser)
    } else {
        let enemy_from = came_from(1 - loser);
        bits(adj as u128).filter(|&l| s.units_at(g, 1 - loser, l) == 0 && enemy_from & (1 << l) == 0).fold(0u64, |m, l| m | 1 << l)
    };
    if preferred == 0 {
        adj
    } else {
        preferred
    }
}

/// Whether `side` is besieged in its castle at `loc`: it holds the castle with units inside
/// (blocks or a disk, which is always inside, 8.9.3) and the enemy is there too (8.9.4 E).
fn besieged_garrison(g: &Sekigahara, s: &State, side: u8, loc: u8) -> bool {
    g.data.locations[loc as usize].castle.is_some()
        && s.castle[loc as usize] == side
        && s.contested(g, loc)
        && (s.disks_at(g, side, loc) > 0
            || s.blocks.iter().zip(&g.data.blocks).any(|(x, d)| x.loc == loc && d.side == side && x.flags & IN_CASTLE != 0))
}

/// INTERPRETATION (RULES_NOTES.md S24).
/// 8.8: the loser's blocks outside the castle retreat together to `to`. Where their side is
/// besieged in its castle (blocks or only a disk inside), they may join the garrison (8.8.5
/// "参加することも可能"): the retreating side decides.
fn retreat(g: &Sekigahara, s: &mut State, to: u8, ev: &mut Events) {
    let loser = 1 - s.battle.as_ref().expect("battle").winner;
    if besieged_garrison(g, s, loser, to) {
        s.pending = Pending::JoinGarrison { to };
        return;
    }
    retreat_into(g, s, to, false, ev)
}

/// The retreat arrives at `to`. Into enemy units it overruns them or starts a battle there,
/// the retreating blocks attacking (8.8.5); into a location where its side has units (blocks,
/// or a disk holding its castle) it joins the fight there, inside the castle if `garrison`
/// (the castle limit is lifted until the next battle, 8.9.6).
fn retreat_into(g: &Sekigahara, s: &mut State, to: u8, garrison: bool, ev: &mut Events) {
    let b = s.battle.as_ref().expect("battle");
    let (loc, loser) = (b.loc, 1 - b.winner);
    let friends_there = s.units_at(g, loser, to) > 0;
    let mut n = 0;
    for (blk, d) in s.blocks.iter_mut().zip(&g.data.blocks) {
        if blk.loc == loc && d.side == loser && blk.flags & IN_CASTLE == 0 {
            blk.loc = to;
            blk.from = loc;
            blk.flags = if garrison { IN_CASTLE } else { 0 };
            n += 1;
        }
    }
    ev.emit(Audience::ALL, || {
        event!({"kind": "retreat", "side": SIDES[loser as usize], "from": g.data.locations[loc as usize].id, "to": g.data.locations[to as usize].id, "blocks": n})
    });
    if garrison {
        ev.emit(Audience::ALL, || event!({"kind": "retreat_into_castle", "at": g.data.locations[to as usize].id}));
    }
    control::refresh_castle(g, s, loc);
    let mut overran = control::arrive(g, s, loser, to, ev);
    if s.pending == Pending::Over {
        return;
    }
    // INTERPRETATION (RULES_NOTES.md S27): the losing force may be overrun after its retreat
    // (8.7.1 note, 8.8.5 "a battle or an overrun") by four times as many enemy blocks there.
    if !overran && control::overrun(g, s, 1 - loser, to, ev) {
        overran = true;
        control::refresh_castle(g, s, to);
        if s.pending == Pending::Over {
            return;
        }
    }
    if !friends_there && !overran && s.contested(g, to) {
        s.forced = Some((to, loser));
    }
    replenish(g, s, ev);
}

/// 8.10: both sides discard the cards used and draw as many; after a field battle +1 card per
/// two blocks lost, after a siege the defender +1 per block lost (not disks). Then the next
/// battle, or the end of the combat phase.
fn replenish(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    let b = s.battle.take().expect("battle");
    let mut used = [0u8; 2];
    for (c, &n) in b.used.iter().enumerate() {
        s.discard[c] += n;
        used[g.data.cards[c].side as usize] += n;
    }
    for (p, &n) in used.iter().enumerate() {
        let extra = if b.siege {
            if p as u8 == b.attacker {
                0
            } else {
                b.lost[p]
            }
        } else {
            b.lost[p] / 2
        };
        s.due.cards[p] += n + extra;
    }
    ev.emit(Audience::ALL, || event!({"kind": "battle_over", "at": g.data.locations[b.loc as usize].id, "cards_drawn": {"tokugawa": s.due.cards[0], "ishida": s.due.cards[1]}}));
    if !battle::next_battle(g, s, ev) {
        week::next_phase(g, s, ev);
    }
}
