//! Leading units (5.1(4)-(6), 6.1), movement (6.2), ZOC (6.3), garrisons (6.4), 豊臣秀頼
//! (13.0), the entry tracks (5.3, 9.0) and recovery (8.0).

use super::action::Action;
use super::data::{Enters, Faction, Kind, EAST, NO_HEX, RIVER, ROAD, SEA_SIDE};
use super::sequence::commander_done;
use super::state::{bit, bits, Mode, Pending, State, TRACK};
use super::Daisakusen;
use crate::events::{event, Audience, Events};
use crate::game::ActionId;

// === 5.1(4)-(6), 6.1 who may go with the commander ===

/// Whether unit `v` may join the group of commander `s.cmdr` now.
pub fn may_join(g: &Daisakusen, s: &State, v: u8, mode: Mode) -> bool {
    let u = s.cmdr;
    let (cx, x) = (&s.units[u as usize], &s.units[v as usize]);
    if s.group & bit(v) != 0 || x.loc != cx.loc || x.side != cx.side {
        return false;
    }
    if mode == Mode::Advance {
        // R 7.3: the advance is taken by the surviving attack group (kept in `fight.queue`
        // while the commander picks), within the stacking limit of the emptied hex (R 7.3①).
        // INTERPRETATION (RULES_NOTES.md D20).
        let Some(f) = s.fight else { return false };
        if f.queue & bit(v) == 0 || s.occ[f.target as usize][x.side as usize] + s.group.count_ones() as u8 >= g.data.stacking {
            return false;
        }
    } else if s.used & bit(v) != 0 {
        // A counter acts once per card: INTERPRETATION (RULES_NOTES.md D10).
        return false;
    }
    let d = &g.data;
    if mode == Mode::Recover {
        // R 8.0: flipped counters, up to the leadership (the commander included), any clan.
        // INTERPRETATION (RULES_NOTES.md D21).
        return x.flipped && (s.group.count_ones() as u8) < d.counters[u as usize].command;
    }
    if (s.group.count_ones() as u8) >= d.counters[u as usize].command {
        return false;
    }
    let lead = &d.counters[u as usize];
    let c = &d.counters[v as usize];
    let own_clan = lead.clan == c.clan || lead.also_leads.contains(&c.clan);
    match c.kind {
        // R 5.1(6), 6.4: garrisons never act.
        Kind::Garrison => false,
        // R 13.0(1): 秀頼 leaves 大坂 only under 13.0(1); led like a 武将 (13.0 note, (5)).
        Kind::Special => mode == Mode::Attack || x.loc != d.osaka || g.hideyori_may_leave(s),
        // R 5.1(5)①: 武将 of any clan.
        Kind::Busho => true,
        // R 2.3.2(1) "指挥官驹也作为军势驹使用" and R 5.1(5) "不能率领其他大名家的军势驹": in a
        // move, a strategic move and an advance a commander goes only with a commander of his
        // own clan; R 7.1(1) "也可以指挥统率力相同的指挥官进行攻击" lets any commander join an
        // attack. INTERPRETATION (RULES_NOTES.md D4).
        Kind::Commander => mode == Mode::Attack || own_clan,
        // R 5.1(5)② and its note: 足軽 with a commander of their clan (吉川 leads 毛利), or
        // together with a 武将 of their clan.
        Kind::Ashigaru => {
            own_clan
                || bits(s.group).any(|w| {
                    w != u && matches!(d.counters[w as usize].kind, Kind::Busho | Kind::Commander) && d.counters[w as usize].clan == c.clan
                })
        }
    }
}

pub fn legal_select(g: &Daisakusen, s: &State, mode: Mode, out: &mut Vec<ActionId>) {
    let loc = s.units[s.cmdr as usize].loc;
    for v in 0..s.units.len() as u8 {
        if s.units[v as usize].loc == loc && may_join(g, s, v, mode) {
            out.push(g.encode(Action::Select(v)));
        }
    }
    out.push(g.encode(Action::Done));
}

pub fn apply_select(g: &Daisakusen, s: &mut State, mode: Mode, a: Action, ev: &mut Events) {
    match a {
        Action::Select(v) => {
            s.group |= bit(v);
            ev.emit(Audience::ALL, || event!({"kind": "select", "unit": g.unit_name(v)}));
        }
        _ => match mode {
            Mode::Move => {
                s.mp = g.morale_of(s, s.cmdr);
                s.pending = Pending::Moving;
                ev.emit(Audience::ALL, || event!({"kind": "move_start", "mode": "normal", "points": s.mp}));
            }
            Mode::Strategic => s.pending = Pending::StratDie,
            Mode::Attack => s.pending = Pending::Target,
            Mode::Recover => {
                for v in bits(s.group) {
                    s.units[v as usize].flipped = false;
                    ev.emit(Audience::ALL, || event!({"kind": "recovered", "unit": g.unit_name(v)}));
                }
                commander_done(g, s, ev);
            }
            Mode::Advance => {
                let f = s.fight.expect("a fight");
                advance(g, s, f.target, ev);
                commander_done(g, s, ev);
            }
        },
    }
}

/// R 6.2(2)①: a die plus the commander's 戦意. INTERPRETATION (RULES_NOTES.md D11).
pub fn strategic_die(g: &Daisakusen, s: &mut State, roll: u8, ev: &mut Events) {
    s.mp = roll + g.morale_of(s, s.cmdr);
    s.pending = Pending::Moving;
    ev.emit(Audience::ALL, || event!({"kind": "move_start", "mode": "strategic", "roll": roll, "points": s.mp}));
}

// === 6.2 crossing a hexside ===

/// Whether a group may cross from `h` in direction `d` (R 2.4, 6.2(1)(2)): no mountain or
/// all-sea hex, no all-sea hexside, a river only where a road crosses (a ford); a
/// strategic move only along roads.
pub fn crossing_ok(g: &Daisakusen, h: u16, d: usize, strategic: bool) -> Option<u16> {
    let hx = &g.data.hexes[h as usize];
    let n = hx.nb[d];
    if n == NO_HEX || !g.data.hexes[n as usize].passable() {
        return None;
    }
    let f = hx.sides[d];
    if f & SEA_SIDE != 0 || (f & RIVER != 0 && f & ROAD == 0) || (strategic && f & ROAD == 0) {
        return None;
    }
    Some(n)
}

/// Own counters at `n` that are not in the moving group.
fn others(s: &State, n: u16, side: u8, group_here: bool) -> u8 {
    let c = s.occ[n as usize][side as usize];
    if group_here {
        c - s.group.count_ones() as u8
    } else {
        c
    }
}

/// Whether only 豊臣秀頼 stands at `n` and this group may enter to capture him (R 13.0(4)).
/// INTERPRETATION (RULES_NOTES.md D12).
fn hideyori_alone(g: &Daisakusen, s: &State, n: u16, side: u8) -> bool {
    let hy = g.data.hideyori;
    side == EAST
        && s.units[s.cmdr as usize].faction == Faction::EastTozama
        && s.units[hy as usize].loc == n
        && s.units[hy as usize].side != side
        && s.occ[n as usize][1 - side as usize] == 1
}

/// Whether a step would end the move (R 6.3(1), 10.0(2), 13.0(4), points spent).
fn step_ends(g: &Daisakusen, s: &State, n: u16, side: u8) -> bool {
    let c = g.data.hexes[n as usize].castle;
    s.mp <= 1 || g.enemy_zoc(s, n, side) || (c != super::data::NONE && g.castle_owner(s, c) != side) || hideyori_alone(g, s, n, side)
}

pub fn step_ok(g: &Daisakusen, s: &State, d: usize, strategic: bool) -> bool {
    if s.mp == 0 {
        return false;
    }
    let side = s.units[s.cmdr as usize].side;
    let h = s.units[s.cmdr as usize].loc;
    let Some(n) = crossing_ok(g, h, d, strategic) else { return false };
    if s.occ[n as usize][1 - side as usize] > 0 && !hideyori_alone(g, s, n, side) {
        return false;
    }
    let size = s.group.count_ones() as u8;
    let limit = g.data.stacking;
    if others(s, n, side, false) + size <= limit {
        return true;
    }
    // R 6.1(3): no stacking limit on the way, but the move must not be forced to end over it:
    // passing through is allowed only if the group can still leave (INTERPRETATION
    // (RULES_NOTES.md D5)).
    if step_ends(g, s, n, side) {
        return false;
    }
    (0..6).any(|e| match crossing_ok(g, n, e, strategic) {
        Some(m) => s.occ[m as usize][1 - side as usize] == 0 && others(s, m, side, m == h) + size <= limit,
        None => false,
    })
}

pub fn legal_moving(g: &Daisakusen, s: &State, strategic: bool, out: &mut Vec<ActionId>) {
    for d in 0..6 {
        if step_ok(g, s, d, strategic) {
            out.push(g.encode(Action::Step(d as u8)));
        }
    }
    let side = s.units[s.cmdr as usize].side;
    let h = s.units[s.cmdr as usize].loc;
    if s.occ[h as usize][side as usize] <= g.data.stacking {
        out.push(g.encode(Action::Done));
    }
}

fn move_group(g: &Daisakusen, s: &mut State, to: u16) {
    for v in bits(s.group) {
        g.relocate(s, v, to);
    }
}

pub fn apply_moving(g: &Daisakusen, s: &mut State, a: Action, ev: &mut Events) {
    let side = s.units[s.cmdr as usize].side;
    match a {
        Action::Step(d) => {
            let h = s.units[s.cmdr as usize].loc;
            let n = g.data.hexes[h as usize].nb[d as usize];
            let ends = step_ends(g, s, n, side);
            let capture = hideyori_alone(g, s, n, side);
            s.mp -= 1;
            move_group(g, s, n);
            ev.emit(Audience::ALL, || event!({"kind": "step", "commander": g.unit_name(s.cmdr), "from": g.data.hexes[h as usize].id, "to": g.data.hexes[n as usize].id, "points_left": s.mp}));
            g.check_hideyori(s, ev);
            if capture {
                g.eliminate(s, g.data.hideyori, side, "captured alone by an East 外様 commander (R 13.0(4))", ev);
                return;
            }
            g.take_castle(s, n, side, false, ev);
            if ends {
                finish_move(g, s, ev);
            }
        }
        _ => finish_move(g, s, ev),
    }
}

fn finish_move(g: &Daisakusen, s: &mut State, ev: &mut Events) {
    if s.pending == Pending::Over {
        return;
    }
    let side = s.units[s.cmdr as usize].side;
    let h = s.units[s.cmdr as usize].loc;
    s.mp = 0;
    ev.emit(Audience::ALL, || event!({"kind": "move_end", "hex": g.data.hexes[h as usize].id}));
    g.end_move_at(s, h, side, ev);
    commander_done(g, s, ev);
}

/// R 7.3: the commander and the part of the attack group he picked advance into the emptied
/// hex.
pub fn advance(g: &Daisakusen, s: &mut State, to: u16, ev: &mut Events) {
    let side = s.units[s.cmdr as usize].side;
    move_group(g, s, to);
    ev.emit(Audience::ALL, || event!({"kind": "advance", "to": g.data.hexes[to as usize].id}));
    g.check_hideyori(s, ev);
    g.take_castle(s, to, side, false, ev);
    if s.pending != Pending::Over {
        g.end_move_at(s, to, side, ev);
    }
}

// === 5.3, 9.0 the entry tracks ===

pub fn march_ok(g: &Daisakusen, s: &State, t: usize) -> bool {
    let e = &g.data.entry[t];
    let next = s.entry[t] as usize + 1;
    if next < e.boxes.len() {
        return true;
    }
    // Arriving: the entry hex must hold no enemy and room for the group (R 6.1(3)).
    // INTERPRETATION (RULES_NOTES.md D17).
    let group = s.units.iter().filter(|x| x.loc == TRACK + t as u16).count() as u8;
    s.occ[e.hex as usize][1] == 0 && s.occ[e.hex as usize][0] + group <= g.data.stacking
}

pub fn march(g: &Daisakusen, s: &mut State, ev: &mut Events) {
    let t = (s.units[s.cmdr as usize].loc - TRACK) as usize;
    let e = &g.data.entry[t];
    s.entry[t] += 1;
    let at = s.entry[t] as usize;
    ev.emit(Audience::ALL, || event!({"kind": "march", "track": e.name, "box": e.boxes.get(at).cloned().unwrap_or_else(|| "登場".into())}));
    if at >= e.boxes.len() {
        let group = (0..s.units.len() as u8).filter(|&u| s.units[u as usize].loc == TRACK + t as u16).fold(0, |m, u| m | bit(u));
        for u in bits(group) {
            g.relocate(s, u, e.hex);
            s.group |= bit(u);
        }
        ev.emit(
            Audience::ALL,
            || event!({"kind": "arrival", "track": e.name, "hex": g.data.hexes[e.hex as usize].id, "units": group.count_ones()}),
        );
        if e.commander == g.data.ieyasu && !s.ieyasu_arrived {
            s.ieyasu_arrived = true;
            for (i, c) in g.data.cards.iter().enumerate() {
                if c.enters == Enters::IeyasuArrives {
                    s.deck |= 1 << i;
                    ev.emit(Audience::ALL, || event!({"kind": "card_enters_deck", "card": c.name}));
                }
            }
        }
    }
}
