//! Constructed positions: what a `State` built by hand (without the history that led to it)
//! must satisfy, and the sample of its hidden parts from one seat's view.
//!
//! [`validate_position`] checks every value against the component data and every invariant a
//! reachable state keeps: each general in one place (its kingdom's deck, drawn, chosen,
//! recruited, stationed on exactly one region) with a recruitment round to match; each
//! development card in at most one of a hand, a build, an import under way or a deck's known
//! bottom (the rest is its deck, §2, T1); regions held by one seat's general whose region token
//! that seat banked (§8 3)); supplies within their bounds and the component limits (C35); the
//! bids on the board adding up to the totals (§7 3)); the game over exactly when §11 ends it,
//! with the scores of §11.
//!
//! [`sample_position`]: hidden from a seat are the other seats' development hands and imports,
//! the cards another seat put at the bottom of a deck, the unknown part of each deck, and the
//! other seats' drawn and chosen generals before the reveal. The sample deals the unseen
//! development cards anew among those places and the other seats' unrevealed generals among
//! their decks (RULES_NOTES.md T33). The invariants the rulebook implies without stating them:
//! RULES_NOTES.md T32.

use super::data::{Stat, A_BATTLE0, A_TRIBAL0};
use super::state::*;
use super::Tkr;
use crate::game::Player;
use crate::rng::Rng;

const ACTIONS: u8 = 18;

/// The largest supply a position may hold (RULES_NOTES.md T32).
const SUPPLY_CAP: i32 = 100_000;

/// Checks a constructed position (see the module comment).
pub fn validate_position(g: &Tkr, s: &State) -> Result<(), String> {
    shape(g, s)?;
    indices(g, s)?;
    generals(g, s)?;
    developments(g, s)?;
    regions(g, s)?;
    supplies(g, s)?;
    bids(g, s)?;
    stage(g, s)?;
    end(g, s)
}

/// The decision matches the stage of the round (§3, §7, §8): setup draws, recruitment,
/// alliance, bidding, resolution with its prompts, the round's end.
fn stage(g: &Tkr, s: &State) -> Result<(), String> {
    use Pending as P;
    let p = s.pending;
    // Prompts queued behind a step (ability gains, the tribal-12 purchase, deficits).
    let deferred = matches!(p, P::WeaponPick { .. } | P::BonusChoice { .. } | P::BonusOrder | P::Tribal12 | P::Protect { .. });
    let ok = match s.stage {
        Stage::Setup => matches!(p, P::Criterion | P::DrawDev { .. }),
        Stage::Recruit => matches!(p, P::DrawGeneral { .. } | P::Keep { .. }),
        Stage::Alliance => p == P::Alliance,
        Stage::Bidding => matches!(p, P::Bid | P::Target | P::Extras),
        Stage::Perform => !matches!(
            p,
            P::Criterion
                | P::DrawGeneral { .. }
                | P::Keep { .. }
                | P::Alliance
                | P::Bid
                | P::Target
                | P::Extras
                | P::BenefitOrder
                | P::Exchange { .. }
                | P::Auto
                | P::Over
        ),
        Stage::TribalDecay => deferred,
        Stage::Benefits => deferred || matches!(p, P::BenefitOrder | P::Exchange { .. }),
        Stage::Over => p == P::Over,
    };
    if !ok {
        return Err(format!("pending: {p:?} in the {:?} stage of the round (§7-§8)", s.stage));
    }
    if s.cur.is_some() != matches!(p, P::Target | P::Extras) {
        return Err(format!(
            "cur: {} with the decision {p:?} (§7 3))",
            if s.cur.is_some() { "a placement under way" } else { "no placement" }
        ));
    }
    let performing = s.stage == Stage::Perform && p != P::ChooseAction;
    if performing != (s.acting != NONE) {
        return Err(format!(
            "acting: {} with the decision {p:?} in {:?} (§8 3))",
            if s.acting == NONE { "no action" } else { "an action under way" },
            s.stage
        ));
    }
    // §8 3): the seats perform in action order (`cursor`), each its won actions still to do, one
    // at a time.
    if s.stage == Stage::Perform {
        let seat = s.action_order.get(s.cursor as usize).copied();
        if seat != Some(s.seat) {
            return Err(format!("seat: seat {} performs but seat {seat:?} is the one in action order (§8 3))", s.seat));
        }
        let todo = s.seats.get(s.seat as usize).map_or(0, |x| x.todo);
        if todo == 0 || (s.acting != NONE && (s.acting >= ACTIONS || todo & (1 << s.acting) == 0)) {
            return Err(format!("acting: seat {} performs action {} but its actions to do are {todo:#b} (§8 3))", s.seat, s.acting));
        }
    }
    let importing = s.seats.iter().any(|x| x.import_drawn != 0);
    if importing == s.import_seq.is_empty()
        || (importing && !matches!(p, P::KeepImport { .. } | P::DrawDev { import: true, .. }))
        || (matches!(p, P::KeepImport { .. }) && !importing)
    {
        return Err(format!("import_seq: an import under way does not match the decision {p:?} (§8 3))"));
    }
    if !s.bonus_queue.is_empty() && (s.stage != Stage::Perform || s.queue.is_empty()) {
        return Err("bonus_queue: action bonuses waiting outside the action that gained them (§8 3), T10)".into());
    }
    if matches!(s.stage, Stage::Setup | Stage::Recruit | Stage::Alliance) && (s.passed != [false; 3] || !s.placements.is_empty()) {
        return Err(format!("placements: bids on the board during the {:?} stage (§7)", s.stage));
    }
    if let P::Keep { seat, .. } | P::DrawGeneral { seat, .. } = p {
        if seat > 2 {
            return Err(format!("pending: seat {seat} (§7 1))"));
        }
    }
    // §7 1): the kingdoms recruit in seat order (`cursor`), each drawing, then keeping.
    if let P::Keep { seat, left } | P::DrawGeneral { seat, left } = p {
        if seat != s.cursor || left == 0 {
            return Err(format!("pending: seat {seat} recruits ({left} left) but seat {} is the one recruiting (§7 1))", s.cursor));
        }
    }
    // The prompts of an action belong to the action being performed.
    if let P::DevelopMode { action }
    | P::Bank { action }
    | P::Produce { action }
    | P::OccupyGeneral { action }
    | P::OccupyRegion { action, .. }
    | P::OccupyUnits { action, .. } = p
    {
        if action != s.acting {
            return Err(format!("pending: a prompt of action {action} while action {} is performed (§8 3))", s.acting));
        }
    }
    if let P::DrawGeneral { seat, left } = p {
        if left as usize > g.general_deck(s, seat as usize).count() {
            return Err(format!("pending: seat {seat} draws {left} generals from a deck of fewer (§7 1))"));
        }
        // It keeps some of the generals it draws, no more.
        let drawn = drawn(g, s, seat);
        let keep = s.keep_left[seat as usize];
        if keep as usize > drawn + left as usize {
            return Err(format!(
                "keep_left[{seat}]: seat {seat} is to keep {keep} of the {} generals it draws (§7 1))",
                drawn + left as usize
            ));
        }
    }
    if let P::Keep { seat, left } = p {
        let drawn = drawn(g, s, seat);
        if left as usize > drawn {
            return Err(format!("pending: seat {seat} keeps {left} of {drawn} drawn generals (§7 1))"));
        }
    }
    if let P::DrawDev { deck, left, .. } = p {
        if left == 0 || left as usize > g.dev_remaining(s, deck).count() {
            return Err(format!("pending: {left} development cards drawn from deck {deck}, which holds fewer (§3-K, §8 3))"));
        }
    }
    if s.stage == Stage::Recruit {
        let later = |i: usize| g.data.generals[i].kingdom > s.cursor;
        if let Some(i) = (0..s.gloc.len()).find(|&i| later(i) && matches!(s.gloc[i], GLoc::Drawn | GLoc::Chosen)) {
            return Err(format!("gloc[{i}]: {} is {:?} before its kingdom recruits (§7 1))", g.data.generals[i].id, s.gloc[i]));
        }
    }
    if let P::Keep { seat, .. } = p {
        if !s.gloc.contains(&GLoc::Drawn) {
            return Err(format!("pending: seat {seat} keeps a general but none is drawn (§7 1))"));
        }
    }
    Ok(())
}

/// The generals of `seat`'s kingdom drawn in the recruitment under way (§7 1)).
fn drawn(g: &Tkr, s: &State, seat: u8) -> usize {
    g.data.decks[seat as usize].iter().filter(|&&x| s.gloc[x as usize] == GLoc::Drawn).count()
}

/// Whether effect `effect` of card `card` (generals, then developments) exists.
fn effect_ok(g: &Tkr, card: u16, effect: u8) -> bool {
    let d = &g.data;
    let c = card as usize;
    let list = if c < d.generals.len() {
        &d.generals[c].effects
    } else if c < d.generals.len() + d.developments.len() {
        &d.developments[c - d.generals.len()].effects
    } else {
        return false;
    };
    (effect as usize) < list.len()
}

/// Every index the decision, the queued prompts and the placement under way carry.
fn indices(g: &Tkr, s: &State) -> Result<(), String> {
    use Pending as P;
    let d = &g.data;
    let (ng, nd, nr) = (d.generals.len(), d.developments.len(), d.regions.len());
    let ok = match s.pending {
        P::DrawDev { seat, deck, .. } => seat < 3 && deck < 2,
        P::DrawGeneral { seat, .. } | P::Keep { seat, .. } => seat < 3,
        P::DevelopMode { action } | P::Bank { action } => action < 2,
        P::Produce { action } | P::OccupyGeneral { action } => action < ACTIONS,
        P::OccupyRegion { action, general } => action < ACTIONS && (general as usize) < ng,
        P::OccupyUnits { action, general, region } => action < ACTIONS && (general as usize) < ng && (region as usize) < nr,
        P::OccupyStore { region } => (region as usize) < nr,
        P::ArmyCost { dev } | P::Protect { card: dev } => (dev as usize) < nd,
        P::BonusChoice { card, effect } | P::Exchange { card, effect, .. } => effect_ok(g, card, effect),
        _ => true,
    };
    if !ok {
        return Err(format!("pending: {:?} names a seat, deck, action, general, region or card that does not exist (§2)", s.pending));
    }
    for q in &s.queue {
        let ok = match *q {
            Deferred::Weapons { seat, .. } | Deferred::Bonuses { seat } | Deferred::Tribal12 { seat } => seat < 3,
            Deferred::Choose { seat, card, effect } => seat < 3 && effect_ok(g, card, effect),
            // The end of the action being performed.
            Deferred::Finish { seat, action } => s.stage == Stage::Perform && seat == s.seat && action == s.acting,
        };
        if !ok {
            return Err(format!("queue: {q:?} names a seat, action or card effect that does not exist (§8 3))"));
        }
    }
    if let Some(&(card, effect)) = s.bonus_queue.iter().find(|&&(c, e)| !effect_ok(g, c, e)) {
        return Err(format!("bonus_queue: effect {effect} of card {card} does not exist (T10)"));
    }
    if let Some(c) = s.cur {
        if c.seat > 2 || c.general as usize >= ng || (c.action != NONE && c.action >= ACTIONS) || (c.unit != NONE && c.unit > 3) {
            return Err(format!("cur: {c:?} is no placement (§7 3))"));
        }
    }
    if s.picks.iter().any(|&x| x < 0) || s.keep_left.iter().any(|&x| x as usize > ng) {
        return Err("picks: a negative weapon pick or more generals to keep than exist (§7 1), §8 3))".into());
    }
    Ok(())
}

fn shape(g: &Tkr, s: &State) -> Result<(), String> {
    let d = &g.data;
    let (ng, nd) = (d.generals.len(), d.developments.len());
    for (name, len, want) in [("recruited_round", s.recruited_round.len(), ng), ("reservoir", s.reservoir.len(), ng + nd)] {
        if len != want {
            return Err(format!("{name}: {len} entries, the components have {want} (§2)"));
        }
    }
    if s.round == 0 || s.round > d.rounds {
        return Err(format!("round: {} is outside 1..={} (§11)", s.round, d.rounds));
    }
    if s.seat > 2 {
        return Err(format!("seat: {} is not a seat (§1)", s.seat));
    }
    for (name, order) in [("bid_order", s.bid_order), ("action_order", s.action_order)] {
        let mut o = order;
        o.sort_unstable();
        if o != [0, 1, 2] {
            return Err(format!("{name}: {order:?} is no order of the three seats (§7-8)"));
        }
    }
    for (name, a) in [
        ("alliance_action", s.alliance_action),
        ("last_alliance_action", s.last_alliance_action),
        ("acting", s.acting),
        ("bonus_action", s.bonus_action),
    ] {
        if a != NONE && a >= ACTIONS {
            return Err(format!("{name}: {a} is none of the 18 actions (§8 3))"));
        }
    }
    if s.alliance_action != NONE && !d.alliance_eligible[s.alliance_action as usize] {
        return Err(format!("alliance_action: action {} may not hold the alliance token (§7 2))", s.alliance_action));
    }
    for (name, x) in [("han_holder", s.han_holder), ("han_winner", s.han_winner)] {
        if x != NONE && x > 2 {
            return Err(format!("{name}: {x} is not a seat (§7 3))"));
        }
    }
    if s.han_criterion > 1 {
        return Err(format!("han_criterion: {} is neither administration (0) nor combat (1) (§3-C)", s.han_criterion));
    }
    if s.han_flipped != NONE && s.han_flipped as usize >= ng {
        return Err(format!("han_flipped: {} is no general (C9)", s.han_flipped));
    }
    if s.seq > SUPPLY_CAP as u32 || s.last_inc.iter().flatten().any(|&x| x > s.seq) {
        return Err(format!("seq: {} bids numbered beyond any game, or a bid numbered after it (§7 3), T32)", s.seq));
    }
    if s.cursor > 3 || s.turn > 3 || s.end_reason > 4 {
        return Err(format!("cursor: cursor {} turn {} end reason {} out of range (§7-§11)", s.cursor, s.turn, s.end_reason));
    }
    Ok(())
}

/// Generals: one place each, recruited in a round so far, kingdoms matching.
fn generals(g: &Tkr, s: &State) -> Result<(), String> {
    let d = &g.data;
    for (i, gen) in d.generals.iter().enumerate() {
        let loc = s.gloc[i];
        let r = s.recruited_round[i];
        let recruited = matches!(loc, GLoc::Active | GLoc::Stationed);
        if recruited != (r > 0) || r > s.round {
            return Err(format!("recruited_round[{i}]: {r} for {} {loc:?} in round {} (§7 1))", gen.id, s.round));
        }
        if gen.ruler && !recruited {
            return Err(format!("gloc[{i}]: the ruler {} is always recruited (§3)", gen.id));
        }
        if !recruited && !d.decks[gen.kingdom as usize].contains(&(i as u8)) {
            return Err(format!("gloc[{i}]: {} is {loc:?} but not in its kingdom's general deck (§3)", gen.id));
        }
        if matches!(loc, GLoc::Drawn | GLoc::Chosen) && !matches!(s.stage, Stage::Setup | Stage::Recruit) {
            return Err(format!("gloc[{i}]: {} is {loc:?} outside a recruitment (§7 1))", gen.id));
        }
    }
    if s.han_flipped != NONE && !matches!(s.gloc[s.han_flipped as usize], GLoc::Active | GLoc::Stationed) {
        return Err("han_flipped: the flipped general is not recruited (C9)".into());
    }
    Ok(())
}

/// Development cards: each in at most one place outside its deck.
fn developments(g: &Tkr, s: &State) -> Result<(), String> {
    let d = &g.data;
    let nd = d.developments.len();
    let all = if nd >= 64 { u64::MAX } else { (1u64 << nd) - 1 };
    let mut seen = 0u64;
    for (k, p) in s.seats.iter().enumerate() {
        for (name, m) in [("hand", p.hand), ("built", p.built), ("import_drawn", p.import_drawn)] {
            if m & !all != 0 {
                return Err(format!("seats[{k}].{name}: names a card beyond the {nd} developments (§2)"));
            }
            if m & seen != 0 {
                return Err(format!("seats[{k}].{name}: a development card is in two places (§2)"));
            }
            seen |= m;
        }
        if p.import_drawn != 0 {
            let decks: Vec<usize> = (0..2).filter(|&x| d.dev_decks[x].iter().any(|&c| p.import_drawn & (1 << c) != 0)).collect();
            if decks.len() > 1 {
                return Err(format!("seats[{k}].import_drawn: cards of both decks in one import (§8 3))"));
            }
        }
    }
    for (i, &r) in s.built_round.iter().enumerate() {
        let built = seen_built(s) & (1 << i) != 0;
        if built != (r > 0) || r > s.round {
            return Err(format!(
                "built_round[{i}]: {r} for a card {} in round {} (§8 3))",
                if built { "built" } else { "not built" },
                s.round
            ));
        }
    }
    for (deck, bottom) in s.bottom.iter().enumerate() {
        for &(c, seat) in bottom {
            if c as usize >= nd || !d.dev_decks[deck].contains(&c) || seat > 2 {
                return Err(format!("bottom[{deck}]: ({c}, {seat}) is no card of that deck put back by a seat (T1)"));
            }
            if seen & (1 << c) != 0 {
                return Err(format!("bottom[{deck}]: card {c} is at the bottom and in another place (T1)"));
            }
            seen |= 1 << c;
        }
    }
    let mut seq = 0u64;
    for &c in &s.import_seq {
        if c as usize >= nd || seq & (1 << c) != 0 {
            return Err(format!("import_seq: {c} is no development or drawn twice (§8 3))"));
        }
        seq |= 1 << c;
    }
    let importing = s.seats.iter().fold(0u64, |m, p| m | p.import_drawn);
    if importing & !seq != 0 || s.seats.iter().filter(|p| p.import_drawn != 0).count() > 1 {
        return Err("import_seq: an imported card missing from the import's draws, or two imports at once (§8 3))".into());
    }
    // Reservoirs are stocked when a card comes into play.
    for (i, &r) in s.reservoir.iter().enumerate() {
        let in_play = if i < d.generals.len() {
            matches!(s.gloc[i], GLoc::Active | GLoc::Stationed)
        } else {
            seen_built(s) & (1 << (i - d.generals.len())) != 0
        };
        if r < -1 || (!in_play && r != -1) {
            return Err(format!("reservoir[{i}]: {r} tokens on a card not in play (§8 3))"));
        }
    }
    Ok(())
}

fn seen_built(s: &State) -> u64 {
    s.seats.iter().fold(0, |m, p| m | p.built)
}

/// Regions: held by a recruited general of the holder's kingdom, stationed in order, tokens banked.
fn regions(g: &Tkr, s: &State) -> Result<(), String> {
    let d = &g.data;
    let nr = d.regions.len();
    let mut stationed_at = vec![NONE; d.generals.len()];
    for (r, st) in s.regions.iter().enumerate() {
        if st.seat == NONE {
            if st.general != NONE || st.unit != NONE || st.units != 0 {
                return Err(format!("regions[{r}]: an empty region holds a general or units (§8 3))"));
            }
            continue;
        }
        if st.seat > 2
            || st.general as usize >= d.generals.len()
            || d.generals[st.general as usize].kingdom != st.seat
            || st.unit > 3
            || st.units == 0
        {
            return Err(format!(
                "regions[{r}]: seat {} general {} unit {} x{} is no occupation (§8 3))",
                st.seat, st.general, st.unit, st.units
            ));
        }
        if s.gloc[st.general as usize] != GLoc::Stationed {
            return Err(format!("regions[{r}]: general {} holds it but is not stationed (§8 3))", d.generals[st.general as usize].id));
        }
        if stationed_at[st.general as usize] != NONE {
            return Err(format!("regions[{r}]: general {} is stationed on two regions (§8 3))", d.generals[st.general as usize].id));
        }
        stationed_at[st.general as usize] = r as u8;
        if !s.stationed[st.seat as usize].contains(&(r as u8)) {
            return Err(format!("stationed[{}]: region {r} is held but not in the seat's stationing order (§11)", st.seat));
        }
    }
    for (i, &at) in stationed_at.iter().enumerate() {
        if (at != NONE) != (s.gloc[i] == GLoc::Stationed) {
            return Err(format!(
                "gloc[{i}]: {} is {:?} but {} (§8 3))",
                d.generals[i].id,
                s.gloc[i],
                if at == NONE { "holds no region" } else { "holds a region" }
            ));
        }
    }
    let mut banked = 0u32;
    for (k, p) in s.seats.iter().enumerate() {
        let all = if nr >= 32 { u32::MAX } else { (1u32 << nr) - 1 };
        if (p.granary_regions | p.treasury_regions) & !all != 0
            || p.granary_regions & p.treasury_regions != 0
            || (p.granary_regions | p.treasury_regions) & banked != 0
        {
            return Err(format!("seats[{k}].granary_regions: a region token beyond the map or in two places (§8 3))"));
        }
        banked |= p.granary_regions | p.treasury_regions;
        for (n, &r) in s.stationed[k].iter().enumerate() {
            if r as usize >= nr || s.regions[r as usize].seat != k as u8 || s.stationed[k][..n].contains(&r) {
                return Err(format!("stationed[{k}]: region {r} is not held by seat {k} (§11)"));
            }
        }
    }
    // §8 3): a seat banks a region's token when it occupies the region (the decision right
    // after), and regions stay held.
    let storing = match s.pending {
        Pending::OccupyStore { region } => 1u32.checked_shl(region as u32).unwrap_or(0),
        _ => 0,
    };
    for (k, p) in s.seats.iter().enumerate() {
        let held = (0..nr.min(32)).filter(|&r| s.regions[r].seat == k as u8).fold(0u32, |m, r| m | 1 << r);
        if p.granary_regions | p.treasury_regions != held & !storing {
            return Err(format!(
                "seats[{k}].treasury_regions: the region tokens banked are not those of the regions the seat occupied (§8 3))"
            ));
        }
    }
    Ok(())
}

/// Supplies: never below zero where the rules forbid it, within the tracks and component limits.
fn supplies(g: &Tkr, s: &State) -> Result<(), String> {
    let d = &g.data;
    for (k, p) in s.seats.iter().enumerate() {
        let checks = [
            ("support", p.support),
            ("untrained", p.untrained),
            ("trained", p.trained),
            ("deficits", p.deficits),
            ("military", p.military),
            ("gold", p.gold),
            ("rice", p.rice),
        ];
        for (name, v) in checks {
            if v < 0 {
                return Err(format!("seats[{k}].{name}: {v} is below zero (§9-10)"));
            }
            // INTERPRETATION (RULES_NOTES.md T32): no supply is unbounded in play; a cap far
            // above any game keeps the rules' arithmetic exact.
            if v > SUPPLY_CAP {
                return Err(format!("seats[{k}].{name}: {v} is above {SUPPLY_CAP} (T32)"));
            }
        }
        if let Some(w) = (0..4).find(|&w| p.weapons[w] < 0 || p.weapons[w] > SUPPLY_CAP) {
            return Err(format!("seats[{k}].weapons[{w}]: {} is below zero (§8 3))", p.weapons[w]));
        }
        if p.tribal < 0 || p.tribal > d.tribal_max {
            return Err(format!("seats[{k}].tribal: {} is outside 0..={} (§8 4))", p.tribal, d.tribal_max));
        }
        if p.farm_level > 5
            || p.market_level > 5
            || p.farm_area as u32 + p.granary_farm as u32 > p.farm_level as u32
            || p.market_area as u32 + p.treasury_market as u32 > p.market_level as u32
        {
            return Err(format!(
                "seats[{k}].farm_level: farm {}/{}+{} or market {}/{}+{}: the developed tokens are at most the level, at most 5 (§8 3), C11)",
                p.farm_level, p.farm_area, p.granary_farm, p.market_level, p.market_area, p.treasury_market
            ));
        }
        if p.office as usize >= d.office_vp.len() {
            return Err(format!("seats[{k}].office: {} is beyond the office track (§11)", p.office));
        }
        if g.limits
            && (p.untrained + p.trained > d.limit_armies
                || p.support > d.limit_support
                || (0..4).any(|w| p.weapons[w] > d.limit_weapons[w]))
        {
            return Err(format!("seats[{k}].untrained: armies, weapons or support tokens beyond the components (C35)"));
        }
        if p.todo & !p.won != 0 || p.performed & !p.won != 0 || p.todo & p.performed != 0 {
            return Err(format!("seats[{k}].todo: an action to perform that was not won, or performed twice (§8 3), C26)"));
        }
        let actions = (1u32 << ACTIONS) - 1;
        if (p.won | p.todo | p.performed) & !actions != 0 {
            return Err(format!("seats[{k}].won: names an action beyond the 18 (§8)"));
        }
    }
    Ok(())
}

/// Bidding (§7 3)): placements of recruited generals of the placing seat, adding up to the totals.
fn bids(g: &Tkr, s: &State) -> Result<(), String> {
    let d = &g.data;
    let mut sums = [[0i32; 3]; ACTIONS as usize];
    let mut generals = 0u128;
    for (n, p) in s.placements.iter().enumerate() {
        if p.seat > 2 || p.general as usize >= d.generals.len() || p.action >= ACTIONS || (p.unit != NONE && p.unit > 3) {
            return Err(format!("placements[{n}]: seat {} general {} action {} is no placement (§7 3))", p.seat, p.general, p.action));
        }
        if d.generals[p.general as usize].kingdom != p.seat || !matches!(s.gloc[p.general as usize], GLoc::Active | GLoc::Stationed) {
            return Err(format!(
                "placements[{n}]: {} is not a recruited general of seat {} (§7 3))",
                d.generals[p.general as usize].id, p.seat
            ));
        }
        if generals & (1 << p.general) != 0 {
            return Err(format!("placements[{n}]: {} is placed twice (§7 3))", d.generals[p.general as usize].id));
        }
        generals |= 1 << p.general;
        if p.seq > s.seq {
            return Err(format!("placements[{n}]: sequence number {} is after the last one given, {} (§7 3))", p.seq, s.seq));
        }
        extras(g, s, p).map_err(|e| format!("placements[{n}]: {e}"))?;
        if p.value.unsigned_abs() > SUPPLY_CAP as u32 || p.bonus.unsigned_abs() > SUPPLY_CAP as u32 {
            return Err(format!("placements[{n}]: a bid value of {} is beyond any game (T32)", p.value));
        }
        sums[p.action as usize][p.seat as usize] += p.value;
    }
    if sums != s.totals {
        return Err("totals: the bids on the actions do not add up to the placements (§7 3))".into());
    }
    if let Some(c) = s.cur {
        if c.seat > 2 || c.seat != s.seat || c.general as usize >= d.generals.len() || generals & (1 << c.general) != 0 {
            return Err(format!("cur: general {} is no general the seat to act may still place (§7 3))", c.general));
        }
        if d.generals[c.general as usize].kingdom != c.seat || s.gloc[c.general as usize] != GLoc::Active {
            return Err(format!("cur: {} is not a recruited general of seat {} (§7 3))", d.generals[c.general as usize].id, c.seat));
        }
        // Its value and bonus are computed when it is confirmed.
        if c.value != 0 || c.bonus != 0 {
            return Err(format!("cur: a placement under way already has the value {} (§7 3))", c.value));
        }
        // The action is chosen first (Target), then what goes with the general (Extras).
        let chosen = c.action != NONE;
        if chosen != (s.pending == Pending::Extras) {
            return Err(format!("cur: action {} with the decision {:?} (§7 3))", c.action, s.pending));
        }
        if chosen {
            extras(g, s, &c).map_err(|e| format!("cur: {e}"))?;
        } else if c.units != 0 || c.gold != 0 || c.support != 0 || c.han || c.unit != NONE {
            return Err("cur: something goes with the general before its action is chosen (T4)".into());
        }
    }
    Ok(())
}

/// T4: units (battle and tribal actions) and gold (tribal only), never both, each at most the
/// general's leadership; units of one type.
fn extras(g: &Tkr, s: &State, p: &Placement) -> Result<(), String> {
    let lead = g.stat(p.general, s.round, Stat::Leadership);
    let units_ok = p.units == 0 || (p.action >= A_BATTLE0 && p.unit != NONE && p.units <= lead);
    let gold_ok = p.gold == 0 || (p.action >= A_TRIBAL0 && p.units == 0 && p.gold <= lead);
    if units_ok && gold_ok {
        return Ok(());
    }
    let id = &g.data.generals[p.general as usize].id;
    Err(format!("{} units and {} gold with {id} (leadership {lead}) on action {} (T4)", p.units, p.gold, p.action))
}

/// §11: over exactly when a trigger held at the end of a round, with the final scores.
fn end(g: &Tkr, s: &State) -> Result<(), String> {
    let over = s.stage == Stage::Over;
    if over != (s.pending == Pending::Over) {
        return Err(format!("stage: {:?} with the decision {:?} (§11)", s.stage, s.pending));
    }
    if !over {
        if s.end_reason != 0 || !s.final_scores.is_empty() {
            return Err("end_reason: set while the game goes on (§11)".into());
        }
        return Ok(());
    }
    if s.end_reason == 0 || g.end_trigger(s) != s.end_reason {
        return Err(format!("end_reason: {} but the position ends the game by {} (§11)", s.end_reason, g.end_trigger(s)));
    }
    let scores: Vec<i32> = g.scores(s).iter().map(|x| x.total).collect();
    if s.final_scores != scores {
        return Err(format!("final_scores: {:?} but the position scores {scores:?} (§11)", s.final_scores));
    }
    Ok(())
}

// === Sampling the hidden parts from a view ===

/// A position that `observer` cannot tell from `s` (the same view), with the hidden parts
/// drawn from `rng` (see the module comment).
pub fn sample_position(g: &Tkr, s: &State, observer: Player, rng: &mut Rng) -> State {
    let mut t = s.clone();
    let hidden = |k: usize| observer != k as Player;
    deal_developments(g, s, &mut t, &hidden, rng);
    for k in (0..3).filter(|&k| hidden(k)) {
        deal_generals(g, s, &mut t, k, rng);
    }
    t.rng = Rng::from_seed(rng.next_u64());
    t
}

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        v.swap(i, j);
    }
}

/// The development cards the observer has not seen, dealt anew: per deck, among the bottom
/// places other seats filled, the other seats' imports from it, the deck's unknown part and
/// (the rest) the other seats' hands, whose per-deck split the deck sizes fix. Each place
/// keeps its seat; each physical card is equally likely in each place.
fn deal_developments(g: &Tkr, s: &State, t: &mut State, hidden: &dyn Fn(usize) -> bool, rng: &mut Rng) {
    let d = &g.data;
    let mut seen = 0u64;
    for (k, p) in s.seats.iter().enumerate() {
        seen |= p.built;
        if !hidden(k) {
            seen |= p.hand | p.import_drawn;
        }
    }
    for bottom in &s.bottom {
        for &(c, seat) in bottom {
            if !hidden(seat as usize) {
                seen |= 1 << c;
            }
        }
    }
    let import_deck = |k: usize| {
        let m = s.seats[k].import_drawn;
        (m != 0).then(|| d.developments[m.trailing_zeros() as usize].deck as usize)
    };
    let mut hand_bucket: Vec<u8> = Vec::new();
    for (deck, cards) in d.dev_decks.iter().enumerate() {
        let mut pool: Vec<u8> = cards.iter().copied().filter(|&c| seen & (1 << c) == 0).collect();
        shuffle(&mut pool, rng);
        let mut next = pool.into_iter();
        for (i, &(_, seat)) in s.bottom[deck].iter().enumerate() {
            if hidden(seat as usize) {
                t.bottom[deck][i].0 = next.next().expect("a card for each bottom place");
            }
        }
        for k in (0..3).filter(|&k| hidden(k) && import_deck(k) == Some(deck)) {
            let n = s.seats[k].import_drawn.count_ones() as usize;
            let new: Vec<u8> = next.by_ref().take(n).collect();
            t.seats[k].import_drawn = new.iter().fold(0, |m, &c| m | 1 << c);
            // The import's draw order: the kept cards are in the hand now; the rest follow.
            t.import_seq = new;
        }
        // The deck keeps as many unknown cards as it shows; the rest were drawn into hands.
        let unknown = g.dev_unknown(s, deck as u8).count();
        let rest: Vec<u8> = next.collect();
        hand_bucket.extend_from_slice(&rest[unknown.min(rest.len())..]);
    }
    shuffle(&mut hand_bucket, rng);
    let mut next = hand_bucket.into_iter();
    for k in (0..3).filter(|&k| hidden(k)) {
        let n = s.seats[k].hand.count_ones() as usize;
        t.seats[k].hand = next.by_ref().take(n).fold(0, |m, c| m | 1 << c);
    }
}

/// Seat `k`'s drawn and chosen generals before the reveal, dealt anew from its deck.
fn deal_generals(g: &Tkr, s: &State, t: &mut State, k: usize, rng: &mut Rng) {
    let mut pool: Vec<u8> =
        g.data.decks[k].iter().copied().filter(|&x| matches!(s.gloc[x as usize], GLoc::Deck | GLoc::Drawn | GLoc::Chosen)).collect();
    let chosen = pool.iter().filter(|&&x| s.gloc[x as usize] == GLoc::Chosen).count();
    let drawn = pool.iter().filter(|&&x| s.gloc[x as usize] == GLoc::Drawn).count();
    if chosen + drawn == 0 {
        return;
    }
    shuffle(&mut pool, rng);
    for (n, &x) in pool.iter().enumerate() {
        t.gloc[x as usize] = if n < chosen {
            GLoc::Chosen
        } else if n < chosen + drawn {
            GLoc::Drawn
        } else {
            GLoc::Deck
        };
    }
}

#[cfg(test)]
#[path = "position_tests.rs"]
mod tests;
