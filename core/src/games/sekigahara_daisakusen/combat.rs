//! Attack (7.1), sieges (7.2), advance after combat (7.3) and the attacked commander's
//! marker (11.0(2)).

use super::action::Action;
use super::data::{Faction, Kind, Terrain, NO_HEX, RIVER, SEA_SIDE, SIDES};
use super::movement::crossing_ok;
use super::sequence::commander_done;
use super::state::{bit, bits, Fight, Mode, Pending, State};
use super::Daisakusen;
use crate::events::{event, Audience, Events};
use crate::game::ActionId;

/// Whether the commander at `from` may attack the hex in direction `d` (R 7.1, 7.1(3)③,
/// 13.0(3)).
pub fn target_ok(g: &Daisakusen, s: &State, from: u16, d: usize) -> bool {
    let hx = &g.data.hexes[from as usize];
    let n = hx.nb[d];
    if n == NO_HEX || hx.sides[d] & SEA_SIDE != 0 {
        return false;
    }
    let side = s.units[s.cmdr as usize].side;
    if s.occ[n as usize][1 - side as usize] == 0 {
        return false;
    }
    // R 7.1(3)③: never across all sea (INTERPRETATION (RULES_NOTES.md D7)).
    // R 13.0(3): East 外様 commanders may not attack 秀頼's hex.
    let hy = g.data.hideyori;
    !(s.units[s.cmdr as usize].faction == Faction::EastTozama && s.units[hy as usize].loc == n && s.units[hy as usize].side != side)
}

pub fn legal(g: &Daisakusen, s: &State, out: &mut Vec<ActionId>) {
    match s.pending {
        Pending::Target => {
            let from = s.units[s.cmdr as usize].loc;
            for d in 0..6 {
                if target_ok(g, s, from, d) {
                    out.push(g.encode(Action::Target(d as u8)));
                }
            }
        }
        Pending::Allocate { side } => {
            for u in bits(hit_candidates(s, side)) {
                out.push(g.encode(Action::Hit(u)));
            }
        }
        Pending::Advance => {
            let f = s.fight.expect("a fight");
            if advance_ok(g, s, &f) {
                out.push(g.encode(Action::Advance));
            }
            out.push(g.encode(Action::Stay));
        }
        _ => {}
    }
}

fn base_hill(g: &Daisakusen, h: u16) -> bool {
    g.data.hexes[h as usize].base == Terrain::Hill
}

/// The counters that may take the next hit of `side` (R 7.1(4)): the defenders in the
/// attacked hex, or (siege first strike) the attacking group; face-up counters are flipped
/// before any flipped one is removed (INTERPRETATION (RULES_NOTES.md D8)).
pub fn hit_candidates(s: &State, side: u8) -> u128 {
    let f = s.fight.expect("a fight");
    let pool: u128 = if f.stage == 0 { s.group } else { Daisakusen::side_mask_at(s, f.target, side) };
    let fresh = bits(pool).filter(|&u| !s.units[u as usize].flipped).fold(0u128, |m, u| m | bit(u));
    if fresh == 0 {
        pool
    } else {
        fresh
    }
}

/// Whether the commander may advance into the emptied hex (R 7.3①: across the attack's
/// hexside under the normal-move limits, within the stacking limit; he then picks who goes
/// with him). INTERPRETATION (RULES_NOTES.md D20).
pub fn advance_ok(g: &Daisakusen, s: &State, f: &Fight) -> bool {
    let side = s.units[s.cmdr as usize].side;
    s.group & bit(s.cmdr) != 0
        && s.occ[f.target as usize][1 - side as usize] == 0
        && crossing_ok(g, f.from, f.dir as usize, false).is_some()
        && s.occ[f.target as usize][side as usize] < g.data.stacking
}

pub fn apply(g: &Daisakusen, s: &mut State, a: Action, ev: &mut Events) {
    match a {
        Action::Target(d) => declare(g, s, d, ev),
        Action::Hit(u) => take_hit(g, s, u, ev),
        Action::Advance => {
            // R 7.3①: the commander advances leading whom he could lead in a move, out of the
            // surviving attack group (which has acted either way). INTERPRETATION
            // (RULES_NOTES.md D20).
            let mut f = s.fight.expect("a fight");
            f.queue = s.group;
            s.fight = Some(f);
            s.used |= s.group;
            s.group = bit(s.cmdr);
            s.pending = Pending::Select { mode: Mode::Advance };
        }
        Action::Stay => commander_done(g, s, ev),
        _ => unreachable!("combat::apply got {a:?}"),
    }
}

fn declare(g: &Daisakusen, s: &mut State, d: u8, ev: &mut Events) {
    let from = s.units[s.cmdr as usize].loc;
    let side = s.units[s.cmdr as usize].side;
    let target = g.data.hexes[from as usize].nb[d as usize];
    let siege = g.castle_alive(s, target);
    // R 7.1(3)①②: plain→hill −1, across a river −1, hill→plain +1; R 7.2(2)(3): a siege
    // ignores terrain and the attacker fires at −2 (minimum 1). INTERPRETATION (RULES_NOTES.md D9).
    let modifier = if siege {
        -2
    } else {
        let mut m = 0i8;
        let (a_hill, d_hill) = (base_hill(g, from), base_hill(g, target));
        // R 7.1(3)①: plain → hill −1, out of a castle on plain ground too (① has no exception).
        if !a_hill && d_hill {
            m -= 1;
        }
        // R 7.1(3)② "从丘陵向平地攻击的场合（城塞除外）": hill → plain +1, but not out of a castle
        // that still works; a castle fallen by force is ordinary ground (R 10.0(4)).
        if a_hill && !d_hill && !g.castle_alive(s, from) {
            m += 1;
        }
        if g.data.hexes[from as usize].sides[d as usize] & RIVER != 0 {
            m -= 1;
        }
        m
    };
    let defenders = Daisakusen::side_mask_at(s, target, 1 - side);
    ev.emit(Audience::ALL, || {
        event!({"kind": "attack", "by": SIDES[side as usize], "commander": g.unit_name(s.cmdr), "from": g.data.hexes[from as usize].id, "target": g.data.hexes[target as usize].id, "siege": siege, "modifier": modifier, "attackers": s.group.count_ones(), "defenders": defenders.count_ones()})
    });
    // R 11.0(2): an attacked commander's marker moves 1 toward his own side.
    // INTERPRETATION (RULES_NOTES.md D19).
    let mut moved = 0u32;
    for u in bits(defenders) {
        if g.data.counters[u as usize].kind == Kind::Commander {
            if let Some(t) = g.track_of(s, u) {
                if moved & 1 << t == 0 {
                    moved |= 1 << t;
                    g.move_marker(s, t, 1 - side, 1, &"commander attacked (R 11.0(2))", ev);
                }
            }
        }
    }
    s.fight = Some(Fight {
        from,
        target,
        dir: d,
        siege,
        stage: if siege { 0 } else { 1 },
        queue: if siege { defenders } else { s.group },
        hits: 0,
        modifier,
    });
    s.pending = Pending::Dice;
}

/// The value a rolling unit hits on.
fn hit_value(g: &Daisakusen, s: &State, f: &Fight, u: u8) -> i8 {
    let base = g.data.counters[u as usize].attack[s.units[u as usize].flipped as usize] as i8;
    if f.stage == 0 {
        base
    } else if f.siege {
        (base + f.modifier).max(1)
    } else {
        base + f.modifier
    }
}

/// One die of the next unit in the queue (R 7.1(2)(3)), in counter order.
/// INTERPRETATION (RULES_NOTES.md D24).
pub fn die(g: &Daisakusen, s: &mut State, roll: u8, ev: &mut Events) {
    let mut f = s.fight.expect("a fight");
    let u = f.queue.trailing_zeros() as u8;
    f.queue &= !bit(u);
    let need = hit_value(g, s, &f, u);
    let hit = (roll as i8) <= need;
    if hit {
        f.hits += 1;
    }
    ev.emit(Audience::ALL, || event!({"kind": "combat_die", "unit": g.unit_name(u), "roll": roll, "need": need, "hit": hit}));
    s.fight = Some(f);
    if f.queue == 0 {
        volley_done(g, s, ev);
    }
}

fn volley_done(g: &Daisakusen, s: &mut State, ev: &mut Events) {
    let f = s.fight.expect("a fight");
    let side = s.units[s.cmdr as usize].side;
    let hit_side = if f.stage == 0 { side } else { 1 - side };
    if f.hits > 0 && hit_candidates(s, hit_side) != 0 {
        s.pending = Pending::Allocate { side: hit_side };
    } else {
        stage_done(g, s, ev);
    }
}

fn take_hit(g: &Daisakusen, s: &mut State, u: u8, ev: &mut Events) {
    let mut f = s.fight.expect("a fight");
    let Pending::Allocate { side } = s.pending else { unreachable!() };
    f.hits -= 1;
    s.fight = Some(f);
    if s.units[u as usize].flipped {
        g.eliminate(s, u, 1 - side, "hits (R 7.1(4)②)", ev);
        if s.pending == Pending::Over {
            return;
        }
    } else {
        s.units[u as usize].flipped = true;
        ev.emit(Audience::ALL, || event!({"kind": "hit", "unit": g.unit_name(u), "flipped": true}));
    }
    let f = s.fight.expect("a fight");
    if f.hits == 0 || hit_candidates(s, side) == 0 {
        stage_done(g, s, ev);
    }
}

fn stage_done(g: &Daisakusen, s: &mut State, ev: &mut Events) {
    let mut f = s.fight.expect("a fight");
    f.hits = 0;
    if f.stage == 0 {
        // R 7.2(2): then the attacker's surviving group fires.
        f.stage = 1;
        f.queue = s.group;
        s.fight = Some(f);
        if f.queue == 0 {
            return stage_done(g, s, ev);
        }
        s.pending = Pending::Dice;
        return;
    }
    s.fight = Some(f);
    let side = s.units[s.cmdr as usize].side;
    // R 7.3: the hex emptied, the commander may advance.
    if s.group & bit(s.cmdr) != 0 && s.occ[f.target as usize][1 - side as usize] == 0 {
        s.pending = Pending::Advance;
    } else {
        commander_done(g, s, ev);
    }
}
