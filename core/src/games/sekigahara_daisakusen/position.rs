//! Constructed positions: what a `State` built by hand (without the history that led to it)
//! must satisfy. Nothing is hidden in this game (the deck is public as a set, R 4.1), so a
//! position needs no sampling: the trait's default returns it as it is.
//!
//! [`validate_position`] checks every value against the component data and every invariant a
//! reachable state keeps: counters on hexes, entry tracks or removed, with a side and faction
//! their defections allow (R 12.1); the occupancy caches; the stacking limit (R 6.1(3)); the
//! entry tracks (R 9.0); each card that has entered the game exactly once in the deck, the
//! discards or play (R 4.1-4.2); the tracks within their boxes (R 11.0); the card program and
//! the commander's action consistent with the pending decision (R 4.0, 5.1, 7.0); and the game
//! over exactly when a victory condition (R 14.0) or the turn cap (RULES_NOTES.md D1) holds.
//! Interpretations: RULES_NOTES.md D27.

use super::data::{Enters, Faction, Kind, EAST, NONE, NO_HEX, WEST};
use super::state::{bit, bits, Mode, Pending, State, DEAD, TRACK};
use super::Daisakusen;

/// Checks a constructed position (see the module comment).
pub fn validate_position(g: &Daisakusen, s: &State) -> Result<(), String> {
    shape(g, s)?;
    counters(g, s)?;
    castles(g, s)?;
    tracks(g, s)?;
    cards(g, s)?;
    program(g, s)?;
    end(g, s)
}

fn all_units(s: &State) -> u128 {
    if s.units.len() >= 128 {
        u128::MAX
    } else {
        (1u128 << s.units.len()) - 1
    }
}

/// Sizes and indices in bounds (the occupancy caches are checked by `validate`, which runs first).
fn shape(g: &Daisakusen, s: &State) -> Result<(), String> {
    let d = g.data();
    if s.zoc.len() != d.hexes.len() {
        return Err(format!("zoc: {} entries, the map has {} hexes (R 2.4)", s.zoc.len(), d.hexes.len()));
    }
    let castles = if d.castles.len() >= 64 { u64::MAX } else { (1u64 << d.castles.len()) - 1 };
    if s.castle_west & !castles != 0 || s.castle_alive & !castles != 0 {
        return Err(format!("castle_west: names a castle beyond the {} of the map (R 10.0)", d.castles.len()));
    }
    if s.kyoto_owner > 1 {
        return Err(format!("kyoto_owner: {} is neither East (0) nor West (1) (R 11.0(1)④)", s.kyoto_owner));
    }
    let units = all_units(s);
    for (name, m) in [("acted", s.acted), ("used", s.used), ("group", s.group)] {
        if m & !units != 0 {
            return Err(format!("{name}: names a counter beyond the {} (R 2.3)", s.units.len()));
        }
    }
    if s.cmdr != NONE && s.cmdr as usize >= s.units.len() {
        return Err(format!("cmdr: {} is no counter (R 5.1)", s.cmdr));
    }
    if s.card != NONE && s.card as usize >= d.cards.len() {
        return Err(format!("card: {} is no card (R 4.0)", s.card));
    }
    if s.turn == 0 || s.turn > g.max_turns() {
        return Err(format!("turn: {} is outside 1..={} (R 4.1(4), RULES_NOTES.md D1)", s.turn, g.max_turns()));
    }
    Ok(())
}

/// The faction a counter of `c`'s printed faction has on `side` (R 12.1(2): a counter that
/// turns takes the turning faction of its new side).
fn faction_ok(printed_side: u8, printed: Faction, side: u8, faction: Faction) -> bool {
    if side == printed_side {
        faction == printed
    } else {
        faction == if side == EAST { Faction::EastTozama } else { Faction::WestShosho }
    }
}

/// Counters: where they are, their side and faction, stacking, entry tracks.
fn counters(g: &Daisakusen, s: &State) -> Result<(), String> {
    let d = g.data();
    let setup = match s.pending {
        Pending::Setup { next } => Some(next as usize),
        _ => None,
    };
    for (u, x) in s.units.iter().enumerate() {
        let c = &d.counters[u];
        if !faction_ok(c.side, c.faction, x.side, x.faction) {
            return Err(format!(
                "units[{u}]: faction {:?} on side {} (printed {:?} of side {}) (R 12.1(2))",
                x.faction, x.side, c.faction, c.side
            ));
        }
        if x.side != c.side && !matches!(c.faction, Faction::EastTozama | Faction::WestShosho) {
            return Err(format!("units[{u}]: {} turned sides, only 東軍外様 and 西軍諸将 counters turn (R 12.1)", c.id));
        }
        if Daisakusen::on_map(x.loc) {
            if !d.hexes[x.loc as usize].passable() {
                return Err(format!("units[{u}]: on hex {}, which no counter may enter (R 2.4, 6.2(1))", d.hexes[x.loc as usize].id));
            }
        } else if x.loc != DEAD {
            let t = (x.loc - TRACK) as usize;
            if !d.entry[t].group.contains(&(u as u8)) {
                return Err(format!("units[{u}]: on entry track {t}, which it does not belong to (R 9.0)"));
            }
            if x.side != c.side || x.flipped {
                return Err(format!("units[{u}]: on entry track {t} turned or flipped (R 9.0)"));
            }
        }
        // Before set-up ends, the 外様主力 counters not yet placed wait off the map.
        if let Some(k) = d.tozama_units.iter().position(|&t| t as usize == u) {
            let placed = setup.is_none_or(|next| k < next);
            if placed != (x.loc != DEAD) && setup.is_some() {
                return Err(format!(
                    "units[{u}]: 外様主力 counter {k} is {} but set-up places counter {} next (R 3.0(1)①)",
                    if placed { "off the map" } else { "placed" },
                    setup.unwrap_or(0)
                ));
            }
        }
        if setup.is_some() && x.flipped {
            return Err(format!("units[{u}]: flipped during set-up (R 3.0)"));
        }
    }
    // R 9.0: a track's group waits on it until it arrives, all together.
    for (t, e) in d.entry.iter().enumerate() {
        let at = s.entry[t] as usize;
        if at > e.boxes.len() {
            return Err(format!("entry[{t}]: box {at} of {} (R 9.0)", e.boxes.len()));
        }
        let arrived = at == e.boxes.len();
        for &u in &e.group {
            let on_track = s.units[u as usize].loc == TRACK + t as u16;
            if on_track == arrived {
                return Err(format!(
                    "units[{u}]: {} entry track {t} ({}) (R 9.0)",
                    if arrived { "still on" } else { "off" },
                    if arrived { "its group arrived" } else { "its group has not arrived" }
                ));
            }
        }
    }
    // R 6.1(3): the stacking limit, except where the moving group stands (it may pass through
    // a full hex but not stop there).
    let moving_at = match s.pending {
        Pending::Moving if s.cmdr != NONE => s.units[s.cmdr as usize].loc,
        _ => NO_HEX,
    };
    for (h, o) in s.occ.iter().enumerate() {
        for (side, &n) in o.iter().enumerate() {
            if n > d.stacking && h as u16 != moving_at {
                return Err(format!(
                    "occ[{h}]: {} counters of side {side} on hex {}, the stacking limit is {} (R 6.1(3))",
                    n, d.hexes[h].id, d.stacking
                ));
            }
        }
    }
    if let Some(next) = setup {
        if next >= d.tozama_units.len() {
            return Err(format!("pending: set-up counter {next} of {} (R 3.0(1)①)", d.tozama_units.len()));
        }
        for (k, &(h, cap)) in d.tozama_hexes.iter().enumerate() {
            if s.occ[h as usize][EAST as usize] > cap {
                return Err(format!("occ[{h}]: set-up hex {k} holds more than its {cap} counters (R 3.0(1)①, RULES_NOTES.md D23)"));
            }
        }
    }
    Ok(())
}

/// R 10.0(2)(3)(5): counters stand in a castle only when their side owns it. A counter that
/// enters an enemy castle (moving into it empty, advancing into it after combat) or turns in it
/// takes it at once, so no decision is ever asked with a castle held against its occupants
/// (the game may end between the two, by a victory on the way: then it is not checked).
/// INTERPRETATION (RULES_NOTES.md D13, D27).
fn castles(g: &Daisakusen, s: &State) -> Result<(), String> {
    if s.pending == Pending::Over {
        return Ok(());
    }
    let d = g.data();
    for (u, x) in s.units.iter().enumerate() {
        if !Daisakusen::on_map(x.loc) {
            continue;
        }
        let c = d.hexes[x.loc as usize].castle;
        if c != NONE && g.castle_owner(s, c) != x.side {
            return Err(format!(
                "castle_west: {} on hex {} is held by side {}, but units[{u}] ({}) of side {} stands in it (R 10.0(2)(3))",
                d.castles[c as usize].name,
                d.hexes[x.loc as usize].id,
                g.castle_owner(s, c),
                d.counters[u].id,
                x.side
            ));
        }
    }
    Ok(())
}

/// R 4.1-4.2: every card that has entered the game is in exactly one place.
fn cards(g: &Daisakusen, s: &State) -> Result<(), String> {
    let d = g.data();
    let all = if d.cards.len() >= 32 { u32::MAX } else { (1u32 << d.cards.len()) - 1 };
    if (s.deck | s.discard) & !all != 0 {
        return Err(format!("deck: names a card beyond the {} (R 4.0)", d.cards.len()));
    }
    if s.deck & s.discard != 0 {
        return Err("deck: a card both in the deck and in the discards (R 4.1)".into());
    }
    let current = if s.card == NONE { 0 } else { 1u32 << s.card };
    if (s.deck | s.discard) & current != 0 {
        return Err(format!("card: card {} is in play and in the deck or the discards (R 4.1)", s.card));
    }
    let ieyasu_track = d.entry.iter().position(|e| e.commander == d.ieyasu);
    if let Some(t) = ieyasu_track {
        let arrived = s.entry[t] as usize == d.entry[t].boxes.len();
        if arrived != s.ieyasu_arrived {
            return Err(format!(
                "ieyasu_arrived: {} but 家康's entry track {} (R 4.2①, 9.0)",
                s.ieyasu_arrived,
                if arrived { "has arrived" } else { "has not" }
            ));
        }
    }
    let hideyori = s.units[d.hideyori as usize].loc;
    if Daisakusen::on_map(hideyori) && hideyori != d.osaka && !s.hideyori_left {
        return Err("hideyori_left: false with 豊臣秀頼 outside 大坂 (R 4.2②, 13.0(2))".into());
    }
    if g.hideyori_condition(s) && !s.hideyori_released && s.pending != Pending::Over {
        return Err("hideyori_released: false while the condition of R 13.0(1) holds (RULES_NOTES.md D18)".into());
    }
    let placed = s.deck | s.discard | current;
    for (i, c) in d.cards.iter().enumerate() {
        let entered = match c.enters {
            Enters::AtStart => true,
            Enters::IeyasuArrives => s.ieyasu_arrived,
            Enters::HideyoriLeaves => s.hideyori_left,
        };
        let here = placed & (1 << i) != 0;
        if entered != here {
            return Err(format!(
                "deck: card {i} ({}) {} (R 4.1-4.2)",
                c.id,
                if entered { "has entered the game but is nowhere" } else { "is in play before it enters the game" }
            ));
        }
        if c.draw_again && current & (1 << i) != 0 {
            return Err(format!("card: {} is drawn again at once and never stays in play (card text)", c.id));
        }
    }
    if s.first_draw && (s.discard != 0 || s.turn != 1 || s.card != NONE || !matches!(s.pending, Pending::Setup { .. } | Pending::Draw)) {
        return Err("first_draw: set after the first card was drawn (RULES_NOTES.md D2)".into());
    }
    if matches!(s.pending, Pending::Setup { .. }) && !s.first_draw {
        return Err("first_draw: cleared during set-up (R 3.0)".into());
    }
    Ok(())
}

/// R 11.0, 12.0: the 調略 marker and the 戦意 markers in their boxes.
fn tracks(g: &Daisakusen, s: &State) -> Result<(), String> {
    let d = g.data();
    if s.chouryaku as usize >= d.chouryaku_labels.len() {
        return Err(format!("chouryaku: box {} of {} (R 12.0)", s.chouryaku, d.chouryaku_labels.len()));
    }
    for (t, &m) in s.morale.iter().enumerate() {
        if m as usize >= d.morale_tracks[t].values.len() {
            return Err(format!("morale[{t}]: box {m} of {} (R 5.2)", d.morale_tracks[t].values.len()));
        }
    }
    Ok(())
}

/// The card program (R 4.0) and the commander's action (R 5.1, 6.0, 7.0, 8.0) match the
/// pending decision.
fn program(g: &Daisakusen, s: &State) -> Result<(), String> {
    let d = g.data();
    let p = s.pending;
    let with_card = !matches!(p, Pending::Setup { .. } | Pending::Draw | Pending::Over);
    if with_card != (s.card != NONE) && p != Pending::Over {
        return Err(format!("card: {} with the decision {p:?} (R 4.0)", if s.card == NONE { "none" } else { "a card in play" }));
    }
    let with_cmdr = matches!(
        p,
        Pending::ActionChoice
            | Pending::Select { .. }
            | Pending::StratDie
            | Pending::Moving
            | Pending::Target
            | Pending::Dice
            | Pending::Allocate { .. }
            | Pending::Advance
    );
    if p == Pending::Over {
        return Ok(());
    }
    if with_cmdr != (s.cmdr != NONE) {
        return Err(format!("cmdr: {} with the decision {p:?} (R 5.1)", if s.cmdr == NONE { "none" } else { "a commander" }));
    }
    if s.cmdr == NONE && s.group != 0 {
        return Err("group: a group without a commander (R 5.1(4))".into());
    }
    let with_fight = matches!(p, Pending::Dice | Pending::Allocate { .. } | Pending::Advance | Pending::Select { mode: Mode::Advance });
    if with_fight != s.fight.is_some() {
        return Err(format!("fight: {} with the decision {p:?} (R 7.0)", if s.fight.is_some() { "an attack" } else { "no attack" }));
    }
    if s.mp > 30 {
        return Err(format!("mp: {} movement points, beyond a die and the best 戦意 (R 6.2)", s.mp));
    }
    if s.mp != 0 && p != Pending::Moving {
        return Err(format!("mp: {} movement points outside a move (R 6.2)", s.mp));
    }
    if with_card {
        let card = &d.cards[s.card as usize];
        let stage_ok = match p {
            Pending::Marker => s.stage == 3,
            _ => s.stage == 1,
        };
        if !stage_ok {
            return Err(format!("stage: {} with the decision {p:?} (R 4.0, card text)", s.stage));
        }
        if matches!(p, Pending::Plot | Pending::PlotDie { .. }) && !card.judgement {
            return Err(format!("pending: a 調略 / 恫喝判定 on {}, which has none (R 12.0)", card.id));
        }
        if p == Pending::Marker && card.marker.as_ref().is_none_or(|m| m.first || m.tracks.len() < 2) {
            return Err(format!("pending: a marker choice on {}, which offers none (card text)", card.id));
        }
        let count = card.activation.as_ref().map_or(0, |a| a.count);
        if s.picks > count || (p == Pending::Commander && s.picks == 0) {
            return Err(format!("picks: {} activations left of the card's {count} (R 5.1(1))", s.picks));
        }
    }
    if let Pending::PlotDie { hex, .. } = p {
        if hex as usize >= d.hexes.len() {
            return Err(format!("pending: the 調略 target {hex} is no hex (R 12.0)"));
        }
    }
    if s.cmdr != NONE {
        let u = s.cmdr as usize;
        let x = &s.units[u];
        let card = &d.cards[s.card as usize];
        if d.counters[u].kind != Kind::Commander || x.side != card.side || s.acted & bit(s.cmdr) == 0 {
            return Err(format!("cmdr: {} is not a commander of the card's side activated by it (R 5.1)", d.counters[u].id));
        }
        // A commander may fall to the hits of his own attack; the attack then runs its course.
        let in_fight = matches!(p, Pending::Dice | Pending::Allocate { .. });
        if x.loc == DEAD && !in_fight {
            return Err(format!("cmdr: {} acts while removed (R 7.1(4))", d.counters[u].id));
        }
        if p != Pending::ActionChoice && x.loc != DEAD && !Daisakusen::on_map(x.loc) {
            return Err(format!("cmdr: {} acts from an entry track (R 9.0)", d.counters[u].id));
        }
        // The group stands with its commander (an attack group stays in its hex).
        let at = s.fight.map_or(x.loc, |f| if p == (Pending::Select { mode: Mode::Advance }) { x.loc } else { f.from });
        for v in bits(s.group) {
            let y = &s.units[v as usize];
            if y.loc != at || y.side != x.side {
                return Err(format!("group: {} is not with its commander {} (R 5.1(4))", d.counters[v as usize].id, d.counters[u].id));
            }
        }
        let recovering = p == (Pending::Select { mode: Mode::Recover });
        if !recovering
            && p != Pending::ActionChoice
            && s.group != 0
            && s.group & bit(s.cmdr) == 0
            && !matches!(p, Pending::Dice | Pending::Allocate { .. })
        {
            return Err(format!("group: the commander {} is not in his own group (R 5.1(4))", d.counters[u].id));
        }
        if p == Pending::ActionChoice && s.group != 0 {
            return Err("group: chosen before the commander's action (R 5.1(1))".into());
        }
        if (s.group.count_ones() as u8) > d.counters[u].command.max(1)
            && !matches!(p, Pending::Dice | Pending::Allocate { .. } | Pending::Advance)
        {
            return Err(format!(
                "group: {} counters, {}'s leadership is {} (R 5.1(4))",
                s.group.count_ones(),
                d.counters[u].id,
                d.counters[u].command
            ));
        }
    }
    if let Some(f) = s.fight {
        if f.from as usize >= d.hexes.len() || f.dir > 5 || d.hexes[f.from as usize].nb[f.dir as usize] != f.target || f.stage > 1 {
            return Err(format!("fight: from {} across side {} to {} is no attack across a hexside (R 7.1)", f.from, f.dir, f.target));
        }
        if f.queue & !all_units(s) != 0 {
            return Err("fight: the queue names a counter beyond the counters (R 7.1)".into());
        }
        let cmdr_at = if s.cmdr == NONE { NO_HEX } else { s.units[s.cmdr as usize].loc };
        if cmdr_at != NO_HEX && cmdr_at != DEAD && cmdr_at != f.from && !matches!(p, Pending::Select { mode: Mode::Advance }) {
            return Err(format!("fight: the commander is not at the attacking hex {} (R 7.1)", f.from));
        }
        if f.hits as usize > s.units.len() || !(-4..=2).contains(&f.modifier) {
            return Err(format!("fight: {} hits or modifier {} beyond any attack (R 7.1(3), 7.2)", f.hits, f.modifier));
        }
        if f.stage == 0 && !f.siege {
            return Err("fight: the besieged fire first only in a siege (R 7.2)".into());
        }
        // R 7.2: while the dice are rolled, an attack is a siege exactly when the target hex
        // has a working castle (nothing changes the castle during the rolls).
        if matches!(p, Pending::Dice | Pending::Allocate { .. })
            && (f.target as usize) < d.hexes.len()
            && f.siege != g.castle_alive(s, f.target)
        {
            return Err(format!(
                "fight: siege {} at hex {}, whose castle works: {} (R 7.2)",
                f.siege, d.hexes[f.target as usize].id, !f.siege
            ));
        }
    }
    if let Pending::Allocate { side } = p {
        if side > 1 {
            return Err(format!("pending: hits allocated by side {side} (R 7.1(4))"));
        }
        let f = s.fight.expect("checked above");
        if f.hits == 0 {
            return Err("fight: hits to allocate but none scored (R 7.1(4))".into());
        }
    }
    Ok(())
}

/// R 14.0: over exactly when a victory condition or the turn cap holds.
fn end(g: &Daisakusen, s: &State) -> Result<(), String> {
    let d = g.data();
    let last = d.chouryaku_labels.len() as u8 - 1;
    let dead = |u: u8| s.units[u as usize].loc == DEAD;
    let east_wins = s.chouryaku == 0 || dead(d.ishida) || dead(d.hideyori);
    let west_wins = s.chouryaku == last || dead(d.ieyasu);
    if s.pending != Pending::Over {
        if s.winner != NONE {
            return Err("winner: set while the game goes on (R 14.0)".into());
        }
        if east_wins || west_wins {
            return Err("pending: a victory condition holds, so the game is over (R 14.0)".into());
        }
        return Ok(());
    }
    let ok = match s.winner {
        EAST => east_wins,
        WEST => west_wins,
        2 => s.turn == g.max_turns() && s.card == NONE,
        _ => false,
    };
    if !ok {
        return Err(format!("winner: {} without its cause (R 14.0, RULES_NOTES.md D1)", s.winner));
    }
    Ok(())
}

#[cfg(test)]
#[path = "position_tests.rs"]
pub(super) mod tests;
