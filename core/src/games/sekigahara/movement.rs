//! The movement phase (7): the mode and its cards (7.1), mustering (7.2), moving stacks along
//! roads with the movement allowance (7.3), and contact and overruns on the way (7.3.2, 7.4).

use super::cards;
use super::control;
use super::data::{NONE, SIDES};
use super::state::{Census, Group, Mode, Pending, State, BOX, IN_CASTLE, MOVED, MUSTERED, SELECTED, SHOWN};
use super::{week, Action, Sekigahara};
use crate::bits::bits;
use crate::events::{event, Audience, Events};
use crate::game::ActionId;

/// INTERPRETATION (RULES_NOTES.md S5): fixed by the group's size when it sets out.
/// 7.3.5: -1 per four blocks beyond the first four (5-8: -1, ..., 17+: -4).
pub fn size_penalty(size: u32) -> u8 {
    (size.saturating_sub(1) / 4).min(4) as u8
}

/// INTERPRETATION (RULES_NOTES.md S7): at the group's origin; a leader of the stack may be shown instead.
/// 7.3.4: command from a friendly castle the side controls, or its own capital, at `loc`.
pub fn origin_command(g: &Sekigahara, s: &State, side: u8, loc: u8) -> bool {
    let l = &g.data.locations[loc as usize];
    (l.castle == Some(side) && s.castle[loc as usize] == side) || l.capital == Some(side)
}

/// A block of the active side at `loc` that may still move this phase: not moved, not
/// mustered, not besieged (8.9.6).
fn movable(g: &Sekigahara, s: &State, side: u8, loc: u8, b: usize) -> bool {
    let blk = &s.blocks[b];
    blk.loc == loc
        && g.data.blocks[b].side == side
        && blk.flags & (MOVED | MUSTERED) == 0
        && !(blk.flags & IN_CASTLE != 0 && s.contested(g, loc))
}

fn selected(s: &State) -> impl Iterator<Item = usize> + '_ {
    s.blocks.iter().enumerate().filter(|(_, b)| b.flags & SELECTED != 0).map(|(i, _)| i)
}

fn enemy_at(g: &Sekigahara, s: &State, side: u8, loc: u8) -> bool {
    s.units_at(g, 1 - side, loc) > 0
}

/// INTERPRETATION (RULES_NOTES.md S11).
/// 7.2: blocks may be mustered to a recruitment location of their side with no enemy there,
/// unless a battle is already set up there by friendly blocks (checked in `legal`).
fn matches_site(g: &Sekigahara, loc: u8, b: usize) -> bool {
    g.data.locations[loc as usize].recruit.contains(&g.data.blocks[b].clan)
}

fn in_box<'a>(g: &'a Sekigahara, s: &'a State, side: u8) -> impl Iterator<Item = usize> + 'a {
    s.blocks.iter().zip(&g.data.blocks).enumerate().filter(move |(_, (b, d))| b.loc == BOX && d.side == side).map(|(i, _)| i)
}

fn can_start_stack(s: &State) -> bool {
    s.mode == Mode::All || s.stacks_left > 0
}

/// INTERPRETATION (RULES_NOTES.md S6): a road is crossed once per phase, by any group.
/// Whether the group may take road `r` now (7.3.1, 7.3.3), with a forced march if `forced`.
fn can_step(g: &Sekigahara, s: &State, size: u32, r: u8, forced: bool) -> bool {
    if s.roads_used & (1 << r) != 0 || size == 0 {
        return false;
    }
    let gr = &s.group;
    let penalty = if gr.steps == 0 { size_penalty(size) } else { gr.penalty };
    let base = 1 + u8::from(gr.command) + u8::from(forced);
    let main = gr.all_main && g.data.roads[r as usize].main;
    gr.steps + 1 + penalty <= base + u8::from(main)
}

pub fn legal(g: &Sekigahara, s: &State, out: &mut Vec<ActionId>) {
    let side = s.active();
    let own_cards = || g.data.side_cards[side as usize].iter().copied().filter(|&c| s.hand[c as usize] > 0);
    match s.pending {
        Pending::Mode => {
            let n = s.hand_size(g, side);
            out.extend(Mode::ALL.iter().filter(|m| m.cards() as u32 <= n).map(|&m| g.encode(Action::Mode(m))));
        }
        Pending::PayMode { .. } => out.extend(own_cards().map(|c| g.encode(Action::Discard(c)))),
        Pending::Exchange { .. } => {
            out.extend(own_cards().map(|c| g.encode(Action::Discard(c))));
            out.push(g.encode(Action::Done));
        }
        Pending::Menu => {
            if can_start_stack(s) {
                let census = Census::of(g, s);
                let mut origins = 0u64;
                for (b, d) in s.blocks.iter().zip(&g.data.blocks) {
                    let free = b.flags & (MOVED | MUSTERED) == 0 && !(b.flags & IN_CASTLE != 0 && census.contested(b.loc));
                    if d.side == side && (b.loc as usize) < g.data.locations.len() && free {
                        origins |= 1 << b.loc;
                    }
                }
                origins &= !s.origins_used;
                out.extend((0..64u8).filter(|&l| origins & (1 << l) != 0).map(|l| g.encode(Action::Origin(l))));
                if s.muster_left && in_box(g, s, side).next().is_some() {
                    for &l in &g.recruit_sites[side as usize] {
                        if census.units(1 - side, l) == 0 || census.units(side, l) > 0 {
                            if in_box(g, s, side).any(|b| matches_site(g, l, b)) {
                                out.push(g.encode(Action::MusterA(l)));
                            }
                            out.push(g.encode(Action::MusterB(l)));
                        }
                    }
                }
            }
            out.push(g.encode(Action::EndPhase));
        }
        Pending::Group => {
            let gr = s.group;
            let size = selected(s).count() as u32;
            // INTERPRETATION (RULES_NOTES.md S8): a group that paid a forced march has set out
            // and must take a step before it stops.
            if gr.steps == 0 {
                if !gr.march_owed {
                    for b in 0..s.blocks.len() {
                        if movable(g, s, side, gr.origin, b) && s.blocks[b].flags & SELECTED == 0 {
                            out.push(g.encode(Action::Select(b as u8)));
                        }
                    }
                    out.push(g.encode(Action::EndStack));
                }
            } else {
                if size >= 2 {
                    out.extend(selected(s).map(|b| g.encode(Action::Drop(b as u8))));
                }
                if !gr.march_owed {
                    out.push(g.encode(Action::Stop));
                }
            }
            // INTERPRETATION (RULES_NOTES.md S7): a leader of the stack gives command to the
            // whole stack (7.3.4 "one stack of one location"), whether it moves with this group,
            // a later one, or stays.
            if !gr.command {
                let leaders = (0..s.blocks.len())
                    .filter(|&b| g.data.blocks[b].leader && (s.blocks[b].flags & SELECTED != 0 || movable(g, s, side, gr.origin, b)));
                out.extend(leaders.map(|b| g.encode(Action::Command(b as u8))));
            }
            if size > 0 {
                let roads = &g.data.locations[gr.at as usize].adj;
                for &(_, r) in roads {
                    if can_step(g, s, size, r, gr.forced) {
                        out.push(g.encode(Action::Step(r)));
                    }
                }
                // INTERPRETATION (RULES_NOTES.md S8): one forced march per group, at any point of
                // its move, and only where the group can then take a step.
                if !gr.forced && roads.iter().any(|&(_, r)| can_step(g, s, size, r, true)) {
                    out.extend(own_cards().map(|c| g.encode(Action::ForcedMarch(c))));
                }
            }
        }
        Pending::Muster { loc, option_a } => {
            let chosen = in_box(g, s, side).filter(|&b| s.blocks[b].flags & SELECTED != 0).count();
            if option_a || chosen == 0 {
                for b in in_box(g, s, side) {
                    if s.blocks[b].flags & SELECTED == 0 && (!option_a || matches_site(g, loc, b)) {
                        out.push(g.encode(Action::Select(b as u8)));
                    }
                }
            }
            // Done once something is chosen.
            if chosen > 0 {
                out.push(g.encode(Action::Done));
            }
        }
        _ => {}
    }
}

/// Whether `a` is among [`legal`]'s actions, without listing them: the same predicates, one
/// action at a time. `None` for the decisions this does not cover (the caller lists them).
pub fn is_legal(g: &Sekigahara, s: &State, a: Action) -> Option<bool> {
    let side = s.active();
    let own_card = |c: u8| g.data.side_cards[side as usize].contains(&c) && s.hand[c as usize] > 0;
    Some(match (s.pending, a) {
        (Pending::Mode, Action::Mode(m)) => m.cards() as u32 <= s.hand_size(g, side),
        (Pending::PayMode { .. } | Pending::Exchange { .. }, Action::Discard(c)) => own_card(c),
        (Pending::Exchange { .. }, Action::Done) => true,
        (Pending::Menu, Action::EndPhase) => true,
        (Pending::Menu, Action::Origin(l)) => {
            l < 64 && s.origins_used & (1 << l) == 0 && can_start_stack(s) && {
                let census = Census::of(g, s);
                s.blocks.iter().zip(&g.data.blocks).any(|(b, d)| {
                    b.loc == l
                        && d.side == side
                        && (b.loc as usize) < g.data.locations.len()
                        && b.flags & (MOVED | MUSTERED) == 0
                        && !(b.flags & IN_CASTLE != 0 && census.contested(b.loc))
                })
            }
        }
        (Pending::Menu, Action::MusterA(_) | Action::MusterB(_)) => return None,
        (Pending::Group, _) => group_is_legal(g, s, side, a),
        (Pending::Muster { loc, option_a }, Action::Select(b)) => {
            let chosen = in_box(g, s, side).filter(|&b| s.blocks[b].flags & SELECTED != 0).count();
            let b = b as usize;
            (option_a || chosen == 0)
                && b < s.blocks.len()
                && s.blocks[b].loc == BOX
                && g.data.blocks[b].side == side
                && s.blocks[b].flags & SELECTED == 0
                && (!option_a || matches_site(g, loc, b))
        }
        (Pending::Muster { .. }, Action::Done) => in_box(g, s, side).any(|b| s.blocks[b].flags & SELECTED != 0),
        (Pending::Mode | Pending::PayMode { .. } | Pending::Exchange { .. } | Pending::Menu | Pending::Muster { .. }, _) => false,
        _ => return None,
    })
}

/// [`is_legal`] for a group on the move (the `Pending::Group` arm of [`legal`]).
fn group_is_legal(g: &Sekigahara, s: &State, side: u8, a: Action) -> bool {
    let gr = s.group;
    let size = || selected(s).count() as u32;
    let is_selected = |b: u8| (b as usize) < s.blocks.len() && s.blocks[b as usize].flags & SELECTED != 0;
    let may_move = |b: u8| (b as usize) < s.blocks.len() && movable(g, s, side, gr.origin, b as usize);
    let roads = &g.data.locations[gr.at as usize].adj;
    match a {
        Action::Select(b) => gr.steps == 0 && !gr.march_owed && may_move(b) && !is_selected(b),
        Action::EndStack => gr.steps == 0 && !gr.march_owed,
        Action::Drop(b) => gr.steps != 0 && size() >= 2 && is_selected(b),
        Action::Stop => gr.steps != 0 && !gr.march_owed,
        Action::Command(b) => {
            !gr.command && (b as usize) < s.blocks.len() && g.data.blocks[b as usize].leader && (is_selected(b) || may_move(b))
        }
        Action::Step(r) => {
            let n = size();
            n > 0 && roads.iter().any(|&(_, x)| x == r) && can_step(g, s, n, r, gr.forced)
        }
        Action::ForcedMarch(c) => {
            let n = size();
            n > 0
                && !gr.forced
                && roads.iter().any(|&(_, r)| can_step(g, s, n, r, true))
                && g.data.side_cards[side as usize].contains(&c)
                && s.hand[c as usize] > 0
        }
        _ => false,
    }
}

pub fn apply(g: &Sekigahara, s: &mut State, a: Action, ev: &mut Events) {
    let side = s.active();
    match (s.pending, a) {
        (Pending::Mode, Action::Mode(m)) => {
            s.mode = m;
            ev.emit(Audience::ALL, || event!({"kind": "movement_mode", "side": SIDES[side as usize], "mode": m.name()}));
            s.muster_left = m != Mode::NoMove;
            s.stacks_left = match m {
                Mode::NoMove => 0,
                Mode::Minimal => 1,
                Mode::Limited => 3,
                Mode::All => u8::MAX,
            };
            s.pending = match m {
                Mode::NoMove => Pending::Exchange { discarded: 0 },
                Mode::Minimal => Pending::Menu,
                Mode::Limited | Mode::All => Pending::PayMode { left: m.cards() },
            };
        }
        (Pending::PayMode { left }, Action::Discard(c)) => {
            s.pending = if left > 1 { Pending::PayMode { left: left - 1 } } else { Pending::Menu };
            cards::discard(g, s, c, "movement", ev);
        }
        (Pending::Exchange { discarded }, Action::Discard(c)) => {
            s.pending = Pending::Exchange { discarded: discarded + 1 };
            cards::discard(g, s, c, "exchange", ev);
        }
        (Pending::Exchange { discarded }, Action::Done) => {
            s.due.cards[side as usize] += discarded;
            week::next_phase(g, s, ev);
        }
        (Pending::Menu, Action::Origin(l)) => {
            s.origins_used |= 1 << l;
            if s.mode != Mode::All {
                s.stacks_left -= 1;
            }
            s.group = fresh_group(g, s, side, l);
            s.pending = Pending::Group;
            ev.emit(
                Audience::ALL,
                || event!({"kind": "stack_selected", "side": SIDES[side as usize], "at": g.data.locations[l as usize].id}),
            );
        }
        (Pending::Menu, Action::MusterA(l) | Action::MusterB(l)) => {
            s.muster_left = false;
            if s.mode != Mode::All {
                s.stacks_left -= 1;
            }
            s.pending = Pending::Muster { loc: l, option_a: matches!(a, Action::MusterA(_)) };
        }
        (Pending::Menu, Action::EndPhase) => {
            ev.emit(Audience::ALL, || event!({"kind": "movement_done", "side": SIDES[side as usize]}));
            week::next_phase(g, s, ev);
        }
        // INTERPRETATION (RULES_NOTES.md S25): choosing is add-only.
        // INTERPRETATION (RULES_NOTES.md S7): a leader shown for command is face up: both sides
        // see it join the group.
        (Pending::Group, Action::Select(b)) => {
            s.blocks[b as usize].flags |= SELECTED;
            let id = &g.data.blocks[b as usize].id;
            if s.blocks[b as usize].flags & SHOWN != 0 {
                let at = &g.data.locations[s.group.at as usize].id;
                ev.emit(Audience::ALL, || event!({"kind": "leader_joins", "side": SIDES[side as usize], "block": id, "at": at}));
            } else {
                ev.emit(Audience::seat(side as usize), || event!({"kind": "block_chosen", "block": id}));
            }
        }
        (Pending::Group, Action::Step(r)) => step(g, s, side, r, ev),
        (Pending::Group, Action::Drop(b)) => {
            s.blocks[b as usize].flags &= !SELECTED;
            let at = &g.data.locations[s.group.at as usize].id;
            // A shown leader is left behind face up: it is named (RULES_NOTES.md S7).
            if s.blocks[b as usize].flags & SHOWN != 0 {
                let id = &g.data.blocks[b as usize].id;
                ev.emit(Audience::ALL, || event!({"kind": "block_dropped", "side": SIDES[side as usize], "at": at, "block": id}));
            } else {
                ev.emit(Audience::ALL, || event!({"kind": "block_dropped", "side": SIDES[side as usize], "at": at}));
            }
        }
        (Pending::Group, Action::Stop) => end_group(g, s, side),
        (Pending::Group, Action::EndStack) => {
            for b in &mut s.blocks {
                b.flags &= !(SELECTED | SHOWN);
            }
            s.pending = Pending::Menu;
        }
        // INTERPRETATION (RULES_NOTES.md S7): the leader is shown where it stands (with the
        // group, or at the origin the group left), and whether it is in the group.
        (Pending::Group, Action::Command(b)) => {
            s.group.command = true;
            let blk = &mut s.blocks[b as usize];
            blk.flags |= SHOWN;
            let (at, in_group) = (&g.data.locations[blk.loc as usize].id, blk.flags & SELECTED != 0);
            ev.emit(Audience::ALL, || {
                event!({"kind": "leader_revealed", "block": g.data.blocks[b as usize].id, "at": at, "for": "command", "in_group": in_group})
            });
        }
        (Pending::Group, Action::ForcedMarch(c)) => {
            s.group.forced = true;
            s.group.march_owed = true;
            cards::discard(g, s, c, "forced_march", ev);
        }
        (Pending::Muster { .. }, Action::Select(b)) => {
            s.blocks[b as usize].flags |= SELECTED;
            ev.emit(Audience::seat(side as usize), || event!({"kind": "block_chosen", "block": g.data.blocks[b as usize].id}));
        }
        (Pending::Muster { loc, option_a }, Action::Done) => muster(g, s, side, loc, option_a, ev),
        _ => unreachable!("movement::apply called with {a:?} at {:?}", s.pending),
    }
}

/// A new group from `origin`: command from the origin's castle or capital, or from a leader of
/// the stack already shown (it stays shown until the stack is finished).
fn fresh_group(g: &Sekigahara, s: &State, side: u8, origin: u8) -> Group {
    let shown = s.blocks.iter().any(|b| b.flags & SHOWN != 0);
    Group {
        origin,
        at: origin,
        steps: 0,
        all_main: true,
        penalty: 0,
        command: origin_command(g, s, side, origin) || shown,
        forced: false,
        march_owed: false,
    }
}

/// 7.3: the group moves along road `r`, taking control of what it enters; contact with the
/// enemy stops it unless it overruns them (7.3.2, 7.4).
fn step(g: &Sekigahara, s: &mut State, side: u8, r: u8, ev: &mut Events) {
    let size = selected(s).count();
    if s.group.steps == 0 {
        s.group.penalty = size_penalty(size as u32);
    }
    let road = g.data.roads[r as usize];
    let from = s.group.at;
    let to = if road.a == from { road.b } else { road.a };
    s.roads_used |= 1 << r;
    for blk in s.blocks.iter_mut().filter(|b| b.flags & SELECTED != 0) {
        blk.loc = to;
        blk.from = from;
        blk.flags = (blk.flags | MOVED) & !IN_CASTLE;
    }
    s.group.steps += 1;
    s.group.march_owed = false;
    s.group.all_main &= road.main;
    s.group.at = to;
    ev.emit(Audience::ALL, || {
        event!({"kind": "move", "side": SIDES[side as usize], "from": g.data.locations[from as usize].id, "to": g.data.locations[to as usize].id, "blocks": size})
    });
    control::lift_sieges(g, s, from);
    control::refresh_castle(g, s, from);
    control::arrive(g, s, side, to, ev);
    if s.pending == Pending::Over {
        return;
    }
    if enemy_at(g, s, side, to) {
        let at = &g.data.locations[to as usize].id;
        ev.emit(Audience::ALL, || event!({"kind": "contact", "side": SIDES[side as usize], "at": at}));
        end_group(g, s, side);
    }
}

/// The group is finished: its blocks stay where they are. The stack goes on with another
/// group from the origin, or is finished when no block there can move.
fn end_group(g: &Sekigahara, s: &mut State, side: u8) {
    for b in &mut s.blocks {
        b.flags &= !SELECTED;
    }
    let origin = s.group.origin;
    let more = (0..s.blocks.len()).any(|b| movable(g, s, side, origin, b));
    if !more {
        for b in &mut s.blocks {
            b.flags &= !SHOWN;
        }
    }
    s.group = fresh_group(g, s, side, origin);
    s.pending = if more { Pending::Group } else { Pending::Menu };
}

/// 7.2: the chosen blocks leave the recruitment box for `loc`; option A shows them.
fn muster(g: &Sekigahara, s: &mut State, side: u8, loc: u8, option_a: bool, ev: &mut Events) {
    let chosen = selected(s).fold(0u128, |m, b| m | 1 << b);
    let ids = || bits(chosen).map(|b| g.data.blocks[b as usize].id.as_str()).collect::<Vec<_>>();
    for b in bits(chosen) {
        let blk = &mut s.blocks[b as usize];
        blk.loc = loc;
        blk.flags = MUSTERED;
        blk.from = NONE;
    }
    let at = &g.data.locations[loc as usize].id;
    if option_a {
        ev.emit(Audience::ALL, || event!({"kind": "muster", "side": SIDES[side as usize], "option": "A", "at": at, "blocks": ids()}));
    } else {
        ev.emit(
            Audience::ALL,
            || event!({"kind": "muster", "side": SIDES[side as usize], "option": "B", "at": at, "count": chosen.count_ones()}),
        );
        ev.emit(Audience::seat(side as usize), || event!({"kind": "muster_private", "blocks": ids()}));
    }
    s.pending = Pending::Menu;
    if chosen != 0 {
        control::arrive(g, s, side, loc, ev);
    }
}
