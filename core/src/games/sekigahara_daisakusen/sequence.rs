//! Set-up (3.0), the sequence of play and the cards (4.0, the 16 card texts), commanders and
//! their actions (5.0), the entry tracks (9.0) and 調略 (12.0).

use super::action::{Action, ACT_ATTACK, ACT_HOLD, ACT_MARCH, ACT_MOVE, ACT_NAMES, ACT_RECOVER, ACT_STRATEGIC};
use super::data::{Enters, Faction, Kind, Who, EAST, NONE, SIDES, WEST};
use super::state::{bit, bits, Mode, Pending, State, Unit, DEAD, TRACK};
use super::Daisakusen;
use crate::events::{event, Audience, Events};
use crate::game::ActionId;
use crate::rng::Rng;

// === 3.0 set-up ===

pub fn initial_state(g: &Daisakusen, rng: Rng) -> State {
    let d = &g.data;
    let mut units: Vec<Unit> = d.counters.iter().map(|c| Unit { loc: DEAD, side: c.side, faction: c.faction, flipped: false }).collect();
    for (h, list) in &d.stacks {
        for &u in list {
            units[u as usize].loc = *h;
        }
    }
    for (t, e) in d.entry.iter().enumerate() {
        for &u in &e.group {
            units[u as usize].loc = TRACK + t as u16;
        }
    }
    let mut castle_west = 0u64;
    for (i, c) in d.castles.iter().enumerate() {
        if c.owner == WEST {
            castle_west |= 1 << i;
        }
    }
    let deck = d.cards.iter().enumerate().filter(|(_, c)| c.enters == Enters::AtStart).fold(0u32, |m, (i, _)| m | 1 << i);
    let mut s = State {
        units,
        castle_west,
        castle_alive: if d.castles.len() == 64 { u64::MAX } else { (1u64 << d.castles.len()) - 1 },
        // R 2.4(1)⑥: the West holds 京 at the start.
        kyoto_owner: WEST,
        chouryaku: d.chouryaku_start,
        morale: d.morale_tracks.iter().map(|t| t.start).collect(),
        entry: vec![0; d.entry.len()],
        deck,
        discard: 0,
        turn: 1,
        first_draw: true,
        hideyori_left: false,
        hideyori_released: false,
        ieyasu_arrived: false,
        card: NONE,
        stage: 0,
        picks: 0,
        acted: 0,
        used: 0,
        cmdr: NONE,
        group: 0,
        mp: 0,
        strategic: false,
        fight: None,
        pending: if d.tozama_units.is_empty() { Pending::Draw } else { Pending::Setup { next: 0 } },
        winner: NONE,
        occ: Vec::new(),
        zoc: Vec::new(),
        rng,
    };
    g.rebuild_occupancy(&mut s);
    s.hideyori_released = g.hideyori_condition(&s);
    s
}

/// INTERPRETATION (RULES_NOTES.md D23).
fn tozama_room(g: &Daisakusen, s: &State, k: usize) -> bool {
    let (h, cap) = g.data.tozama_hexes[k];
    s.occ[h as usize][EAST as usize] < cap
}

// === 4.0 sequence: draws ===

pub fn chance_outcomes(g: &Daisakusen, s: &State, out: &mut Vec<(ActionId, f64)>) {
    match s.pending {
        Pending::Draw => {
            let n = s.deck.count_ones() as f64;
            for c in 0..g.data.cards.len() as u8 {
                if s.deck & 1 << c != 0 {
                    out.push((g.encode(Action::Draw(c)), 1.0 / n));
                }
            }
        }
        Pending::PlotDie { .. } | Pending::StratDie | Pending::Dice => {
            for n in 1..=6 {
                out.push((g.encode(Action::Die(n)), 1.0 / 6.0));
            }
        }
        _ => {}
    }
}

pub fn sample_chance(g: &Daisakusen, s: &mut State) -> ActionId {
    match s.pending {
        Pending::Draw => {
            let k = s.rng.below(s.deck.count_ones());
            let mut m = s.deck;
            for _ in 0..k {
                m &= m - 1;
            }
            g.encode(Action::Draw(m.trailing_zeros() as u8))
        }
        _ => g.encode(Action::Die(s.rng.below(6) as u8 + 1)),
    }
}

pub fn is_chance(s: &State) -> bool {
    matches!(s.pending, Pending::Draw | Pending::PlotDie { .. } | Pending::StratDie | Pending::Dice)
}

pub fn draw(g: &Daisakusen, s: &mut State, c: u8, ev: &mut Events) {
    let card = &g.data.cards[c as usize];
    s.deck &= !(1 << c);
    ev.emit(Audience::ALL, || event!({"kind": "card_drawn", "card": card.name, "id": card.id, "turn": s.turn}));
    if card.draw_again {
        // 強行軍: draw again at once; drawn at the very start, it goes back and is redrawn
        // (card text). INTERPRETATION (RULES_NOTES.md D2).
        if s.first_draw {
            s.deck |= 1 << c;
        } else {
            s.discard |= 1 << c;
        }
        s.first_draw = false;
        return;
    }
    s.first_draw = false;
    s.card = c;
    s.stage = 0;
    s.acted = 0;
    s.used = 0;
    s.picks = card.activation.as_ref().map_or(0, |a| a.count);
    next(g, s, ev);
}

/// Carries the current card forward to its next decision (card texts; R 4.1).
/// INTERPRETATION (RULES_NOTES.md D3).
pub fn next(g: &Daisakusen, s: &mut State, ev: &mut Events) {
    loop {
        if s.pending == Pending::Over {
            return;
        }
        let card = &g.data.cards[s.card as usize];
        match s.stage {
            0 => {
                s.stage = 1;
                if let Some(m) = card.marker.as_ref().filter(|m| m.first) {
                    apply_marker(g, s, m.tracks[0], ev);
                }
                if card.judgement {
                    s.pending = Pending::Plot;
                    return;
                }
            }
            1 => {
                if s.picks > 0 && has_eligible(g, s) {
                    s.pending = Pending::Commander;
                    return;
                }
                s.stage = 2;
            }
            2 => {
                s.stage = 3;
                if let Some(m) = card.marker.as_ref().filter(|m| !m.first) {
                    if m.tracks.len() > 1 {
                        s.pending = Pending::Marker;
                        return;
                    }
                    apply_marker(g, s, m.tracks[0], ev);
                }
            }
            _ => {
                end_card(g, s, ev);
                return;
            }
        }
    }
}

fn apply_marker(g: &Daisakusen, s: &mut State, t: u8, ev: &mut Events) {
    let m = g.data.cards[s.card as usize].marker.as_ref().expect("card moves a marker");
    if let Some((u, prov)) = &m.only_if {
        // 大谷吉継: only while he is in 越前 (card text).
        let loc = s.units[*u as usize].loc;
        if !(Daisakusen::on_map(loc)
            && g.data.hexes[loc as usize].province == *prov
            && s.units[*u as usize].side == g.data.counters[*u as usize].side)
        {
            return;
        }
    }
    let name = &g.data.cards[s.card as usize].name;
    g.move_marker(s, t, m.toward, m.boxes, &format_args!("card {name}"), ev);
}

fn end_card(g: &Daisakusen, s: &mut State, ev: &mut Events) {
    let c = s.card;
    let card = &g.data.cards[c as usize];
    s.card = NONE;
    s.cmdr = NONE;
    s.group = 0;
    if card.reshuffle {
        // R 4.1(4): this card, the discards and the undrawn cards form the new deck; the
        // max_turns cap: INTERPRETATION (RULES_NOTES.md D1).
        s.deck |= s.discard | 1 << c;
        s.discard = 0;
        ev.emit(Audience::ALL, || event!({"kind": "reshuffle", "turn_ended": s.turn}));
        if s.turn >= g.max_turns {
            g.game_over(s, 2, "max_turns reached: the stalemate is a draw", ev);
            return;
        }
        s.turn += 1;
    } else {
        s.discard |= 1 << c;
    }
    s.pending = Pending::Draw;
}

// === 5.0 commanders ===

/// The side of the current card.
pub fn card_side(g: &Daisakusen, s: &State) -> u8 {
    g.data.cards[s.card as usize].side
}

/// INTERPRETATION (RULES_NOTES.md D22).
pub fn eligible(g: &Daisakusen, s: &State, u: u8) -> bool {
    let c = &g.data.counters[u as usize];
    let x = &s.units[u as usize];
    // A commander who already went along with another one on this card does not act again (D10).
    if c.kind != Kind::Commander || x.loc == DEAD || (s.acted | s.used) & bit(u) != 0 {
        return false;
    }
    let card = &g.data.cards[s.card as usize];
    if x.side != card.side {
        return false;
    }
    let Some(a) = &card.activation else { return false };
    let morale = g.morale_of(s, u);
    if morale < a.min_morale {
        return false;
    }
    if x.loc >= TRACK {
        let t = (x.loc - TRACK) as usize;
        if g.data.entry[t].commander != u || s.entry[t] as usize >= g.data.entry[t].boxes.len() {
            return false;
        }
    }
    match &a.who {
        Who::Named(list) => list.contains(&u),
        Who::Any => true,
        Who::Faction(f, ms) => x.faction == *f && ms.contains(&morale),
        Who::Track(t) => g.track_of(s, u) == Some(*t),
    }
}

fn has_eligible(g: &Daisakusen, s: &State) -> bool {
    (0..s.units.len() as u8).any(|u| eligible(g, s, u))
}

/// Whether the commander (on the map) may take action `k`.
pub fn action_ok(g: &Daisakusen, s: &State, k: u8) -> bool {
    let u = s.cmdr;
    let loc = s.units[u as usize].loc;
    if loc >= TRACK {
        return k == ACT_MARCH && super::movement::march_ok(g, s, (loc - TRACK) as usize) || k == ACT_HOLD;
    }
    let side = s.units[u as usize].side;
    match k {
        ACT_MOVE => g.morale_of(s, u) >= 1,
        ACT_STRATEGIC => g.data.hexes[loc as usize].road,
        ACT_ATTACK => (0..6).any(|d| super::combat::target_ok(g, s, loc, d)),
        ACT_RECOVER => {
            !g.enemy_zoc(s, loc, side)
                && s.units.iter().enumerate().any(|(v, x)| x.loc == loc && x.side == side && x.flipped && s.used & bit(v as u8) == 0)
        }
        ACT_HOLD => true,
        _ => false,
    }
}

pub fn legal(g: &Daisakusen, s: &State, out: &mut Vec<ActionId>) {
    match s.pending {
        Pending::Setup { .. } => {
            for k in 0..g.data.tozama_hexes.len() {
                if tozama_room(g, s, k) {
                    out.push(g.encode(Action::Place(k as u8)));
                }
            }
        }
        Pending::Commander => {
            out.push(g.encode(Action::Pass));
            for u in 0..s.units.len() as u8 {
                if eligible(g, s, u) {
                    out.push(g.encode(Action::Commander(u)));
                }
            }
        }
        Pending::ActionChoice => {
            for k in 0..ACT_NAMES.len() as u8 {
                if action_ok(g, s, k) {
                    out.push(g.encode(Action::Act(k)));
                }
            }
        }
        Pending::Marker => {
            let m = g.data.cards[s.card as usize].marker.as_ref().expect("card moves a marker");
            for &t in &m.tracks {
                out.push(g.encode(Action::Marker(t)));
            }
        }
        Pending::Plot => plot_legal(g, s, out),
        _ => {}
    }
}

pub fn apply(g: &Daisakusen, s: &mut State, a: Action, ev: &mut Events) {
    match (s.pending, a) {
        (Pending::Setup { next: k }, Action::Place(slot)) => {
            let u = g.data.tozama_units[k as usize];
            let h = g.data.tozama_hexes[slot as usize].0;
            g.relocate(s, u, h);
            ev.emit(Audience::ALL, || event!({"kind": "setup_place", "unit": g.unit_name(u), "hex": g.data.hexes[h as usize].id}));
            s.pending = if (k as usize) + 1 < g.data.tozama_units.len() { Pending::Setup { next: k + 1 } } else { Pending::Draw };
        }
        (Pending::Commander, Action::Pass) => {
            s.picks = 0;
            next(g, s, ev);
        }
        (Pending::Commander, Action::Commander(u)) => {
            s.cmdr = u;
            s.acted |= bit(u);
            s.pending = Pending::ActionChoice;
            ev.emit(Audience::ALL, || event!({"kind": "commander", "unit": g.unit_name(u)}));
        }
        (Pending::ActionChoice, Action::Act(k)) => {
            ev.emit(Audience::ALL, || event!({"kind": "action", "unit": g.unit_name(s.cmdr), "action": ACT_NAMES[k as usize]}));
            let u = s.cmdr;
            s.group = bit(u);
            match k {
                ACT_MOVE => s.pending = Pending::Select { mode: Mode::Move },
                ACT_STRATEGIC => s.pending = Pending::Select { mode: Mode::Strategic },
                ACT_ATTACK => s.pending = Pending::Select { mode: Mode::Attack },
                ACT_RECOVER => {
                    s.group = 0;
                    s.pending = Pending::Select { mode: Mode::Recover };
                }
                ACT_MARCH => {
                    super::movement::march(g, s, ev);
                    commander_done(g, s, ev);
                }
                _ => commander_done(g, s, ev),
            }
        }
        (Pending::Marker, Action::Marker(t)) => {
            apply_marker(g, s, t, ev);
            next(g, s, ev);
        }
        (Pending::Plot, _) => plot_apply(g, s, a, ev),
        _ => unreachable!("sequence::apply got {a:?} in {:?}", s.pending),
    }
}

/// The acting commander's action is over (R 5.1(2)).
pub fn commander_done(g: &Daisakusen, s: &mut State, ev: &mut Events) {
    if s.pending == Pending::Over {
        return;
    }
    s.used |= s.group;
    s.group = 0;
    s.fight = None;
    s.cmdr = NONE;
    s.picks = s.picks.saturating_sub(1);
    next(g, s, ev);
}

// === 12.0 調略 ===

fn plot_legal(g: &Daisakusen, s: &State, out: &mut Vec<ActionId>) {
    let side = card_side(g, s);
    out.push(g.encode(Action::Pass));
    // R 12.1: 調略判定 only while the marker is on one's own side.
    let own = g.data.chouryaku_side[s.chouryaku as usize] == side;
    // the hexes of enemy counters, ascending and distinct: at most one per counter (at most
    // 128 counters, data.rs)
    let mut hexes = [0u16; 128];
    let mut n = 0;
    for x in s.units.iter().filter(|x| x.side != side && Daisakusen::on_map(x.loc)) {
        hexes[n] = x.loc;
        n += 1;
    }
    hexes[..n].sort_unstable();
    let hexes = &hexes[..n];
    let targets = || hexes.iter().enumerate().filter(|&(i, h)| i == 0 || hexes[i - 1] != *h).map(|(_, &h)| h);
    if own {
        out.extend(targets().map(|h| g.encode(Action::Chouryaku(h))));
    }
    out.extend(targets().map(|h| g.encode(Action::Intimidate(h))));
}

fn plot_apply(g: &Daisakusen, s: &mut State, a: Action, ev: &mut Events) {
    match a {
        Action::Chouryaku(h) => s.pending = Pending::PlotDie { hex: h, intimidate: false },
        Action::Intimidate(h) => s.pending = Pending::PlotDie { hex: h, intimidate: true },
        _ => next(g, s, ev),
    }
}

/// The number a 調略 / 恫喝判定 against `h` must not exceed (R 12.1(1), 12.2(1)).
pub fn plot_threshold(g: &Daisakusen, s: &State, side: u8, h: u16, intimidate: bool) -> u8 {
    if !intimidate {
        return g.data.chouryaku_value[s.chouryaku as usize];
    }
    let hx = &g.data.hexes[h as usize];
    let star = if side == EAST { g.data.ieyasu } else { g.data.hideyori };
    let star_loc = s.units[star as usize].loc;
    let star_ok = s.units[star as usize].side == side;
    let near = |pred: &dyn Fn(u16) -> bool| hx.nb.iter().any(|&n| n != super::data::NO_HEX && pred(n));
    if star_ok && Daisakusen::on_map(star_loc) && near(&|n| n == star_loc) {
        4
    } else if near(&|n| s.occ[n as usize][side as usize] > 0) {
        3
    } else {
        2
    }
}

pub fn plot_die(g: &Daisakusen, s: &mut State, hex: u16, intimidate: bool, roll: u8, ev: &mut Events) {
    let side = card_side(g, s);
    let need = plot_threshold(g, s, side, hex, intimidate);
    let ok = roll <= need;
    ev.emit(Audience::ALL, || {
        event!({"kind": if intimidate { "intimidation" } else { "chouryaku_roll" }, "by": SIDES[side as usize], "hex": g.data.hexes[hex as usize].id, "roll": roll, "need": need, "success": ok})
    });
    if ok {
        defect(g, s, hex, side, ev);
    } else if intimidate {
        // R 12.2(3): the 調略 marker and every 戦意 marker move 2 toward the enemy.
        g.move_all(s, 1 - side, g.data.mv_failed_intimidation, &"failed 恫喝判定 (R 12.2(3))", ev);
    }
    if s.pending != Pending::Over {
        next(g, s, ev);
    }
}

/// INTERPRETATION (RULES_NOTES.md D15).
/// R 12.1(2)-(4): every counter of the hex that can turn (West: 西軍諸将, East: 東軍外様)
/// turns to `gainer`; the others of its side there are removed, but only when someone turned.
pub fn defect(g: &Daisakusen, s: &mut State, hex: u16, gainer: u8, ev: &mut Events) {
    let loser = 1 - gainer;
    let turnable = if loser == WEST { Faction::WestShosho } else { Faction::EastTozama };
    let new_faction = if gainer == EAST { Faction::EastTozama } else { Faction::WestShosho };
    let here = (0..s.units.len() as u8)
        .filter(|&u| s.units[u as usize].loc == hex && s.units[u as usize].side == loser)
        .fold(0, |m, u| m | bit(u));
    let turning = bits(here).filter(|&u| s.units[u as usize].faction == turnable).fold(0, |m, u| m | bit(u));
    if turning == 0 {
        ev.emit(Audience::ALL, || event!({"kind": "defection_void", "hex": g.data.hexes[hex as usize].id}));
        return;
    }
    let mut commanders = 0;
    for u in bits(turning) {
        g.set_side(s, u, gainer, new_faction);
        ev.emit(Audience::ALL, || event!({"kind": "defection", "unit": g.unit_name(u), "to": SIDES[gainer as usize]}));
        if g.data.counters[u as usize].kind == Kind::Commander {
            commanders += 1;
        }
    }
    for u in bits(here & !turning) {
        if s.pending == Pending::Over {
            return;
        }
        g.eliminate(s, u, gainer, "removed beside a defection (R 12.1(3))", ev);
    }
    for _ in 0..commanders {
        g.move_all(s, gainer, g.data.mv_defection, &"enemy commander turned (R 11.0(1)②)", ev);
    }
    // R 10.0(3)(5): a castle falls by defection and keeps working as a castle.
    g.take_castle(s, hex, gainer, true, ev);
}
