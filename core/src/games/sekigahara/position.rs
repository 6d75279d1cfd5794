//! Constructed positions: what a `State` built by hand (without the history that led to it)
//! must satisfy, and the sample of its hidden parts from one side's view.
//!
//! [`validate_position`] checks every value against the component data and every invariant a
//! reachable state keeps: each block in one place its origin allows (the bags and recruitment
//! boxes hold only bag blocks, the Mori box only Mori blocks, 5.1, 9.3) with flags its place
//! allows; each card in exactly one of hand, deck, discards, the hidden reinforcement discards,
//! a hidden bid or the battle in progress (3.3, 6.2, 6.3, 8.10); castle control as 4.3 sets
//! it; owed draws that can be made (3.3); the week, turn and phase consistent with the
//! pending decision (6); and the game over exactly when 2.1 or 2.2 ends it.
//!
//! [`sample_position`]: hidden from a side are the identities of the other side's face-down
//! blocks (on the map, in its recruitment box and its bag) and the composition of every pile
//! it cannot browse: the other side's hand, bid and reinforcement discards, and both sides'
//! decks and discard piles (3.3: only their sizes are shown). The sample deals the face-down
//! identities anew among the same places and the unseen cards anew among the piles of the
//! shown sizes (RULES_NOTES.md S31). The invariants the rulebook implies without stating
//! them: RULES_NOTES.md S30.

use super::data::{DiskRule, Start, ISHIDA, NONE, TOKUGAWA};
use super::hidden::{deployed_blocks, face_down_given};
use super::state::{EndReason, Pending, State, BAG, BOX, DEAD, DEFECTED, DEPLOYED, IN_CASTLE, MORI_BOX, MOVED, MUSTERED, SELECTED, SHOWN};
use super::{control, Sekigahara};
use crate::game::Player;
use crate::rng::Rng;

/// Checks a constructed position (see the module comment).
pub fn validate_position(g: &Sekigahara, s: &State) -> Result<(), String> {
    shape(g, s)?;
    blocks(g, s)?;
    cards(g, s)?;
    control_ok(g, s)?;
    sequence(g, s)?;
    end(g, s)
}

fn shape(g: &Sekigahara, s: &State) -> Result<(), String> {
    let d = &g.data;
    let n = d.cards.len();
    for (name, len, want) in [
        ("disks", s.disks.len(), d.disks.len()),
        ("deck", s.deck.len(), n),
        ("discard", s.discard.len(), n),
        ("reinforce_discards", s.reinforce_discards.len(), n),
        ("castle", s.castle.len(), d.locations.len()),
    ] {
        if len != want {
            return Err(format!("{name}: {len} entries, the components have {want} (1)"));
        }
    }
    if s.week == 0 || s.week > d.weeks || s.turn > 1 || s.step > 3 || s.first > 1 {
        return Err(format!(
            "week: week {} turn {} step {} first {} out of range ({} weeks of turns A and B, 6)",
            s.week, s.turn, s.step, s.first, d.weeks
        ));
    }
    let locs = d.locations.len() as u64;
    let loc_mask = if locs >= 64 { u64::MAX } else { (1u64 << locs) - 1 };
    if s.declared & !loc_mask != 0 || s.origins_used & !loc_mask != 0 {
        return Err("declared: names a location beyond the map (8.1)".into());
    }
    let road_mask = if d.roads.len() >= 64 { u64::MAX } else { (1u64 << d.roads.len()) - 1 };
    if s.roads_used & !road_mask != 0 {
        return Err("roads_used: names a road beyond the map (7.3)".into());
    }
    Ok(())
}

/// Blocks: a place their origin allows, flags their place allows.
fn blocks(g: &Sekigahara, s: &State) -> Result<(), String> {
    let d = &g.data;
    let nl = d.locations.len() as u8;
    let battle_loc = s.battle.as_ref().map_or(NONE, |b| b.loc);
    let known = MOVED | MUSTERED | IN_CASTLE | SELECTED | DEPLOYED | DEFECTED | SHOWN;
    for (i, b) in s.blocks.iter().enumerate() {
        let x = &d.blocks[i];
        let on_map = b.loc < nl;
        if !on_map && ![BAG, BOX, MORI_BOX, DEAD].contains(&b.loc) {
            return Err(format!("blocks[{i}]: location {} is neither on the map nor a box (5)", b.loc));
        }
        if b.flags & !known != 0 {
            return Err(format!("blocks[{i}]: unknown flags {:#b}", b.flags & !known));
        }
        if b.from != NONE && b.from >= nl {
            return Err(format!("blocks[{i}]: entered from {}, no location (8.8.2)", b.from));
        }
        match (b.loc, x.start) {
            (BAG | BOX, Start::Bag) | (MORI_BOX, Start::MoriBox) => {}
            (BAG | BOX, _) => {
                return Err(format!(
                    "blocks[{i}]: {} is in a bag or recruitment box but starts on the map or in the Mori box (5.1-5.2)",
                    x.id
                ))
            }
            (MORI_BOX, _) => return Err(format!("blocks[{i}]: {} is in the Mori box, which holds only Mori blocks (9.3)", x.id)),
            _ => {}
        }
        if matches!(b.loc, BAG | MORI_BOX | DEAD) && (b.flags != 0 || b.from != NONE) {
            return Err(format!("blocks[{i}]: {} is off the map with flags or an entry location (5)", x.id));
        }
        if b.loc == BOX && b.flags & !SELECTED != 0 {
            return Err(format!("blocks[{i}]: {} waits in the recruitment box with flags of the map (7.2)", x.id));
        }
        if b.flags & IN_CASTLE != 0 && !(on_map && d.locations[b.loc as usize].castle.is_some()) {
            return Err(format!("blocks[{i}]: {} is inside a castle where there is none (8.9.2)", x.id));
        }
        // A game that ends at once in a battle (2.1) leaves its blocks as they were.
        if b.flags & (DEPLOYED | DEFECTED) != 0 && b.loc != battle_loc && s.pending != Pending::Over {
            return Err(format!("blocks[{i}]: {} is deployed outside the battle in progress (8.2.3)", x.id));
        }
        let listed = s.battle.as_ref().is_some_and(|x| x.deploys.iter().any(|dep| dep.block as usize == i));
        if b.flags & DEPLOYED != 0 && !listed && s.pending != Pending::Over {
            return Err(format!("blocks[{i}]: {} is face up as deployed but is no deployment of the battle (8.2.3)", x.id));
        }
        if b.flags & DEFECTED != 0 && b.flags & DEPLOYED == 0 {
            return Err(format!("blocks[{i}]: {} defected without being deployed (8.6)", x.id));
        }
    }
    // 2.1: a commander eliminated ends the game at once (checked with the end).
    for (k, disk) in d.disks.iter().enumerate() {
        if disk.location >= nl {
            return Err(format!("disks[{k}]: at no location (4.4)"));
        }
    }
    Ok(())
}

/// The hidden bid of `side`, as a card count, while bids are under way.
fn bid_of(s: &State, side: usize) -> Option<u8> {
    (s.bid_made[side] && s.bids[side] != NONE).then_some(s.bids[side])
}

/// 3.3: every card in exactly one pile.
fn cards(g: &Sekigahara, s: &State) -> Result<(), String> {
    let d = &g.data;
    for side in 0..2 {
        if let Some(c) = bid_of(s, side) {
            if c as usize >= d.cards.len() || d.cards[c as usize].side != side as u8 {
                return Err(format!("bids[{side}]: card {c} is not a card of that side (6.3)"));
            }
        }
        if !s.bid_made[side] && s.bids[side] != NONE {
            return Err(format!("bids[{side}]: a bid card without a bid (6.3)"));
        }
    }
    let used = |c: usize| s.battle.as_ref().map_or(0, |b| b.used.get(c).copied().unwrap_or(0));
    if let Some(b) = &s.battle {
        if b.used.len() != d.cards.len() {
            return Err(format!("battle.used: {} entries, the game has {} card types (8.10)", b.used.len(), d.cards.len()));
        }
    }
    for (c, card) in d.cards.iter().enumerate() {
        let bid = (0..2).filter(|&p| bid_of(s, p) == Some(c as u8)).count() as u32;
        let total = s.hand[c] as u32 + s.deck[c] as u32 + s.discard[c] as u32 + s.reinforce_discards[c] as u32 + used(c) as u32 + bid;
        // A game that ends at once in a battle (2.1) drops the battle with its played cards.
        let over = s.pending == Pending::Over;
        if total > card.count as u32 || (total < card.count as u32 && !over) {
            return Err(format!(
                "hand[{c}]: {} copies of {} in hand, deck, discards, reinforcement discards, bid and battle, the game has {} (3.3)",
                total, card.id, card.count
            ));
        }
    }
    // 6.2: the reinforcement discards wait face down only during that step.
    for side in 0..2u8 {
        let r = s.pile_size(g, &s.reinforce_discards, side);
        if r != s.reinforce_done[side as usize] as u32 {
            return Err(format!("reinforce_done[{side}]: {} but {r} cards are set aside (6.2)", s.reinforce_done[side as usize]));
        }
        if r > 0 && !matches!(s.pending, Pending::ReinforceDiscard { .. }) {
            return Err(format!("reinforce_discards: side {side}'s reinforcement discards outside the reinforcement step (6.2)"));
        }
        // 3.3: an owed draw is made from the deck, refilled from the discards when empty.
        if s.due.cards[side as usize] > 0 && s.pile_size(g, &s.deck, side) == 0 {
            return Err(format!("due.cards[{side}]: a card is owed from an empty deck; it is refilled or the draw dropped (3.3)"));
        }
        if s.due.blocks[side as usize] > 0 && super::cards::bag(g, s, side).next().is_none() {
            return Err(format!("due.blocks[{side}]: a block is owed from an empty bag (6.2)"));
        }
    }
    // What may be owed: never more cards than a side has, nor blocks than there are.
    for side in 0..2usize {
        let cards: u32 = d.side_cards[side].iter().map(|&c| d.cards[c as usize].count as u32).sum();
        if s.due.cards[side] as u32 > cards || s.due.blocks[side] as usize > s.blocks.len() {
            return Err(format!(
                "due.cards[{side}]: {} cards and {} blocks owed, more than the side has (3.3, 6.2)",
                s.due.cards[side], s.due.blocks[side]
            ));
        }
    }
    if s.due.setup.len() > s.blocks.len() {
        return Err("due.setup: more setup draws than blocks (5.2)".into());
    }
    for &(dest, side) in &s.due.setup {
        if side > 1 || (dest != BOX && dest as usize >= d.locations.len()) {
            return Err(format!("due.setup: ({dest}, {side}) is no setup draw (5.2)"));
        }
        if super::cards::bag(g, s, side).next().is_none() {
            return Err(format!("due.setup: a block is owed from side {side}'s empty bag (5.2)"));
        }
    }
    Ok(())
}

/// 4.3: castle control follows the blocks and disks; 4.2 resource control is a side or nobody.
fn control_ok(g: &Sekigahara, s: &State) -> Result<(), String> {
    let d = &g.data;
    for (l, loc) in d.locations.iter().enumerate() {
        match loc.castle {
            None if s.castle[l] != NONE => return Err(format!("castle[{l}]: {} has no castle (4.3)", loc.id)),
            Some(_) if s.castle[l] > 1 => return Err(format!("castle[{l}]: the castle of {} is held by nobody (4.3)", loc.id)),
            _ => {}
        }
        if s.resource[l] != NONE && (!loc.resource || s.resource[l] > 1) {
            return Err(format!("resource[{l}]: {} is no resource location or the controller is no side (4.2)", loc.id));
        }
        // A game that ends at once (2.1) stops before control is brought up to date.
        if loc.castle.is_some() && s.pending != Pending::Over {
            let mut t = s.clone();
            control::refresh_castle(g, &mut t, l as u8);
            if t.castle[l] != s.castle[l] {
                return Err(format!(
                    "castle[{l}]: held by side {} but the units at {} give it to side {} (4.3)",
                    s.castle[l], loc.id, t.castle[l]
                ));
            }
        }
        // 4.3, 8.9.1: at a contested location the castle stays with the side that was there
        // when the enemy came. From its movement until the battle there is fought, a side
        // whose units there all moved in this phase found the enemy there, so the castle is the
        // enemy's, unless the enemy came after them by a retreat into them (8.8.5).
        if loc.castle.is_some() && s.castle[l] == s.active() && s.contested(g, l as u8) && castle_question_open(s, l as u8) {
            let (h, e, at) = (s.castle[l], 1 - s.castle[l], l as u8);
            let side_blocks = |side: u8| s.blocks.iter().zip(&d.blocks).filter(move |(b, x)| b.loc == at && x.side == side).map(|(b, _)| b);
            let arrived = s.disks_at(g, h, at) == 0 && side_blocks(h).all(|b| b.flags & MOVED != 0);
            let enemy_stayed = s.disks_at(g, e, at) > 0 || side_blocks(e).any(|b| b.flags & MOVED == 0);
            if arrived && enemy_stayed && s.forced != Some((at, e)) {
                return Err(format!(
                    "castle[{l}]: the castle of {} is held by side {h}, whose units there all just arrived where side {e} was (4.3, 8.9.1)",
                    loc.id
                ));
            }
        }
        // 8.9.2: a block stays inside a castle only while the enemy is at its location.
        let inside = s.blocks.iter().any(|b| b.loc == l as u8 && b.flags & IN_CASTLE != 0);
        if inside && !s.contested(g, l as u8) && s.battle.as_ref().is_none_or(|b| b.loc != l as u8) && s.pending != Pending::Over {
            return Err(format!("blocks: a block inside the castle of {} with no enemy there (8.9.2)", loc.id));
        }
    }
    Ok(())
}

/// Whether the castle at `l` is as the last movement left it: during the movement phase, or in
/// the combat phase before a battle there is fought (not declared yet, or declared and its
/// holder asked to choose a siege, 8.9.2).
fn castle_question_open(s: &State, l: u8) -> bool {
    let movement = matches!(
        s.pending,
        Pending::Mode | Pending::PayMode { .. } | Pending::Exchange { .. } | Pending::Menu | Pending::Group | Pending::Muster { .. }
    );
    let combat = s.pending == Pending::Combat && s.declared & (1 << l) == 0;
    let choosing = matches!(s.pending, Pending::SiegeChoice { .. }) && s.battle.as_ref().is_some_and(|b| b.loc == l);
    movement || combat || choosing
}

/// The week's sequence (6) and the pending decision.
fn sequence(g: &Sekigahara, s: &State) -> Result<(), String> {
    let p = s.pending;
    let week_start = matches!(p, Pending::ReinforceDiscard { .. } | Pending::Bid { .. } | Pending::ChooseFirst { .. });
    let movement = matches!(
        p,
        Pending::Mode | Pending::PayMode { .. } | Pending::Exchange { .. } | Pending::Menu | Pending::Group | Pending::Muster { .. }
    );
    let battle = matches!(
        p,
        Pending::SiegeChoice { .. }
            | Pending::Deploy
            | Pending::DeployBlock { .. }
            | Pending::DeploySecond { .. }
            | Pending::Challenge
            | Pending::Refute
            | Pending::Casualty { .. }
            | Pending::RetreatCastle
            | Pending::Retreat
            | Pending::JoinGarrison { .. }
    );
    if week_start && (s.turn != 0 || s.step != 0) {
        return Err(format!("step: turn {} step {} during the week's start (6.1-6.3)", s.turn, s.step));
    }
    if matches!(p, Pending::ReinforceDiscard { .. }) && s.week == 1 {
        return Err("pending: week 1 has no reinforcement step (6.2)".into());
    }
    if (movement && !s.in_movement()) || ((battle || p == Pending::Combat) && s.in_movement()) {
        return Err(format!("step: {p:?} in step {} of the turn (6.4: movement, then combat)", s.step));
    }
    if battle != s.battle.is_some() && p != Pending::Over {
        return Err(format!("battle: {} with the decision {p:?} (8)", if s.battle.is_some() { "a battle" } else { "no battle" }));
    }
    match p {
        Pending::ReinforceDiscard { side }
        | Pending::Bid { side }
        | Pending::ChooseFirst { side }
        | Pending::SiegeChoice { side }
        | Pending::Casualty { side }
            if side > 1 =>
        {
            return Err(format!("pending: side {side} (6)"));
        }
        Pending::Bid { side } => {
            let want = [side == ISHIDA, false];
            if s.bid_made != want {
                return Err(format!("bid_made: {:?} while side {side} bids (6.3)", s.bid_made));
            }
        }
        _ if s.bid_made != [false; 2] => return Err("bid_made: bids outstanding after the bid (6.3)".into()),
        _ => {}
    }
    if let Some(b) = &s.battle {
        let d = &g.data;
        if b.loc as usize >= d.locations.len() || b.attacker > 1 || b.initiative > 1 {
            return Err(format!("battle: at {} by side {} is no battle (8.1)", b.loc, b.attacker));
        }
        let n = s.blocks.len() as u32;
        if b.impact.iter().any(|&x| x > 1000) || b.hits.iter().chain(&b.lost).any(|&x| x as u32 > n) || b.deploys.len() > s.blocks.len() {
            return Err(format!(
                "battle: impact {:?}, hits {:?}, losses {:?} beyond the blocks in play (8.3, 8.7)",
                b.impact, b.hits, b.lost
            ));
        }
        if b.holder != NONE && b.holder > 1 || b.winner != NONE && b.winner > 1 {
            return Err(format!("battle: castle holder {} or winner {} is no side (8.8.4)", b.holder, b.winner));
        }
        // `last` names the deployment a challenge or a double card's second block refers to
        // (8.4.2, 8.6.1); while a card's block is being chosen it is the one to come.
        let refers = matches!(p, Pending::DeploySecond { .. } | Pending::Challenge | Pending::Refute);
        if b.last != NONE && (b.last as usize > b.deploys.len() || (refers && b.last as usize >= b.deploys.len())) {
            return Err(format!("battle.last: deployment {} of {} (8.6.1)", b.last, b.deploys.len()));
        }
        if b.used.len() == g.data.cards.len() && b.used.iter().zip(&g.data.cards).any(|(&n, c)| n > c.count) {
            return Err("battle.used: more copies played than the game has (8.10)".into());
        }
        for dep in &b.deploys {
            if dep.block as usize >= s.blocks.len() || dep.side > 1 || (dep.card != NONE && dep.card as usize >= d.cards.len()) {
                return Err(format!("battle.deploys: block {} card {} is no deployment (8.2.3)", dep.block, dep.card));
            }
        }
    }
    // 7.1: the mode's cards are paid before anything moves; the exchange is the no-move mode.
    match p {
        Pending::PayMode { left } if left == 0 || left > s.mode.cards() => {
            return Err(format!("pending: {left} cards left to pay for the {} mode (7.1)", s.mode.name()));
        }
        Pending::Exchange { .. } if s.mode != super::state::Mode::NoMove => {
            return Err(format!("pending: a card exchange in the {} mode (7.1)", s.mode.name()));
        }
        _ => {}
    }
    // 8.9.2: the castle holder of the battle chooses between a siege and a field battle.
    if let (Some(b), Pending::SiegeChoice { side }) = (&s.battle, p) {
        if side != b.holder || b.holder != s.castle[b.loc as usize] {
            return Err(format!(
                "pending: side {side} chooses a siege or a field battle, but the castle there is held by side {} (battle.holder {}, 8.9.2)",
                s.castle[b.loc as usize], b.holder
            ));
        }
    }
    if let (Some(b), Pending::Casualty { side }) = (&s.battle, p) {
        if b.hits[side as usize] == 0 {
            return Err(format!("pending: side {side} chooses casualties with none to take (8.7.2)"));
        }
    }
    if let (Some(b), Pending::DeployBlock { card } | Pending::DeploySecond { card }) = (&s.battle, p) {
        if card as usize >= g.data.cards.len() || b.used.get(card as usize).copied().unwrap_or(0) == 0 {
            return Err(format!("pending: a block is deployed for card {card}, which was not played in the battle (8.2.3)"));
        }
    }
    if let (Some(b), Pending::Challenge | Pending::Refute) = (&s.battle, p) {
        if b.last as usize >= b.deploys.len() {
            return Err("pending: a loyalty challenge with no deployment to challenge (8.6.1)".into());
        }
    }
    if let Some((l, side)) = s.forced {
        if l as usize >= g.data.locations.len() || side > 1 {
            return Err(format!("forced: ({l}, {side}) is no battle (8.8.5)"));
        }
    }
    if let Pending::Muster { loc, .. } = p {
        if loc as usize >= g.data.locations.len() {
            return Err(format!("pending: a muster at {loc}, no location (7.2)"));
        }
    }
    // S25: blocks are selected only while a group, a muster or a retreat is being chosen.
    let selecting =
        matches!(p, Pending::Group | Pending::Muster { .. } | Pending::RetreatCastle | Pending::Retreat | Pending::JoinGarrison { .. });
    if !selecting && s.pending != Pending::Over && s.blocks.iter().any(|b| b.flags & SELECTED != 0) {
        return Err(format!("blocks: a block is selected with the decision {p:?} (7.2, 7.3, 8.8.4, S25)"));
    }
    if let Pending::Muster { .. } = p {
        if s.blocks.iter().any(|b| b.flags & SELECTED != 0 && b.loc != BOX) {
            return Err("blocks: a block selected for a muster is not in the recruitment box (7.2)".into());
        }
    }
    if s.group.steps > 20 || s.group.penalty > 20 {
        return Err(format!("group: {} steps with penalty {}, beyond any move (7.3)", s.group.steps, s.group.penalty));
    }
    if let Pending::Group = p {
        let nl = g.data.locations.len() as u8;
        if s.group.origin >= nl || s.group.at >= nl {
            return Err("group: the moving group is at no location (7.3)".into());
        }
        if s.blocks.iter().any(|b| b.flags & SELECTED != 0 && b.loc != s.group.at) {
            return Err("group: a selected block is not where the group is (7.3)".into());
        }
        if s.group.steps == 0 && s.group.at != s.group.origin {
            return Err("group: a group that has not stepped is away from its origin (7.3)".into());
        }
    }
    Ok(())
}

/// 2.1, 2.2: over exactly when a commander is eliminated, Hideyori captured, or the last week ended.
fn end(g: &Sekigahara, s: &State) -> Result<(), String> {
    let d = &g.data;
    let fallen = |side: u8| {
        d.blocks.iter().zip(&s.blocks).any(|(x, b)| x.commander && x.side == side && b.loc == DEAD)
            || (side == ISHIDA && d.disks.iter().zip(&s.disks).any(|(x, &alive)| x.rule == DiskRule::Hideyori && !alive))
    };
    let immediate = |winner: u8| fallen(1 - winner);
    if s.pending != Pending::Over {
        if s.end.is_some() || s.winner != NONE {
            return Err("end: set while the game goes on (2)".into());
        }
        if immediate(TOKUGAWA) || immediate(ISHIDA) {
            return Err("blocks: a commander is eliminated or Hideyori captured, so the game is over (2.1)".into());
        }
        return Ok(());
    }
    if s.due.any() {
        return Err("due: draws owed after the end (2)".into());
    }
    let ok = match s.end {
        Some(EndReason::Immediate) => s.winner < 2 && immediate(s.winner),
        Some(EndReason::Points) => {
            let p = control::points(g, s);
            let w = if p[0] > p[1] { TOKUGAWA } else { ISHIDA };
            s.week == d.weeks && s.turn == 1 && s.step == 3 && s.winner == w
        }
        None => false,
    };
    if !ok {
        return Err(format!("end: {:?} with winner {} without its cause (2.1-2.2)", s.end, s.winner));
    }
    Ok(())
}

// === Sampling the hidden parts from a view ===

/// A position that `observer` cannot tell from `s` (the same view), with the hidden parts
/// drawn from `rng` (see the module comment).
///
/// The deal is drawn again while it gives no valid position (a decision that the dealt
/// identities leave without a legal action): the sample is uniform among the valid
/// completions. After 64 draws (never needed by a reachable position in the tests) the
/// cards are dealt and the blocks kept.
pub fn sample_position(g: &Sekigahara, s: &State, observer: Player, rng: &mut Rng) -> State {
    for attempt in 0..=64 {
        let mut t = s.clone();
        for side in 0..2u8 {
            let own = observer == side as Player;
            deal_cards(g, s, &mut t, side, own, rng);
            if !own && attempt < 64 {
                deal_blocks(g, s, &mut t, side, rng);
            }
        }
        t.rng = Rng::from_seed(rng.next_u64());
        if attempt == 64 || crate::engine::check_position(g, &t).is_ok() {
            return t;
        }
    }
    unreachable!("the last attempt returns")
}

/// The unseen cards of `side` dealt anew among its unseen piles (sizes kept): the hand, bid
/// and reinforcement discards of the other side, and the deck and discards of both. Each
/// physical copy is equally likely in each unseen place.
fn deal_cards(g: &Sekigahara, s: &State, t: &mut State, side: u8, own: bool, rng: &mut Rng) {
    let cards = &g.data.side_cards[side as usize];
    let si = side as usize;
    // The unseen copies, one entry per copy.
    let mut pool: Vec<u8> = Vec::new();
    for &c in cards {
        let c = c as usize;
        let mut n = s.deck[c] + s.discard[c];
        if !own {
            n += s.hand[c] + s.reinforce_discards[c] + u8::from(bid_of(s, si) == Some(c as u8));
        }
        pool.extend(std::iter::repeat_n(c as u8, n as usize));
    }
    // Fisher-Yates, then cut the shuffled copies into the piles in a fixed order.
    for i in (1..pool.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        pool.swap(i, j);
    }
    let mut copies = pool.into_iter();
    let mut fill = |pile: &mut Vec<u8>, n: u32| {
        for &c in cards {
            pile[c as usize] = 0;
        }
        for c in copies.by_ref().take(n as usize) {
            pile[c as usize] += 1;
        }
    };
    fill(&mut t.deck, s.pile_size(g, &s.deck, side));
    fill(&mut t.discard, s.pile_size(g, &s.discard, side));
    if !own {
        fill(&mut t.hand, s.hand_size(g, side));
        fill(&mut t.reinforce_discards, s.pile_size(g, &s.reinforce_discards, side));
        if bid_of(s, si).is_some() {
            let c = copies.next().expect("the bid's copy");
            t.bids[si] = c;
        }
    }
}

/// The identities of `side`'s face-down blocks dealt anew among their places (each place
/// keeping its flags and entry location): blocks that start in the bag may take any place,
/// the others only places on the map (5.1-5.2, 9.3).
fn deal_blocks(g: &Sekigahara, s: &State, t: &mut State, side: u8, rng: &mut Rng) {
    let d = &g.data;
    let deployed = deployed_blocks(s);
    // Where the decision shows that a fitting block exists without naming it (a card played
    // and its block not chosen yet, a muster from the recruitment box), the side's blocks
    // there stay as they are (as in the determinization by history, hidden.rs).
    let pinned = |i: usize| match (s.pending, &s.battle) {
        (Pending::DeployBlock { .. } | Pending::DeploySecond { .. }, Some(b)) => s.blocks[i].loc == b.loc,
        (Pending::Muster { loc, .. }, _) => s.blocks[i].loc == BOX || s.blocks[i].loc == loc,
        _ => false,
    };
    let hidden: Vec<usize> =
        (0..s.blocks.len()).filter(|&i| d.blocks[i].side == side && face_down_given(s, i, &deployed) && !pinned(i)).collect();
    // The places in an order of what they are, not of which block is there, so that the
    // sample depends on the view (and the places' flags) only.
    let (mut off, mut on): (Vec<usize>, Vec<usize>) = hidden.iter().partition(|&&i| matches!(s.blocks[i].loc, BAG | BOX));
    let key = |&i: &usize| (s.blocks[i].loc, s.blocks[i].flags, s.blocks[i].from);
    off.sort_by_key(key);
    on.sort_by_key(key);
    // Off-map places first, from the bag blocks; then the rest onto the map places.
    let mut free: Vec<usize> = hidden.clone();
    let mut take = |slot: usize, bag_only: bool, rng: &mut Rng| {
        let fits: Vec<usize> = (0..free.len()).filter(|&k| !bag_only || d.blocks[free[k]].start == Start::Bag).collect();
        let k = fits[rng.below(fits.len() as u32) as usize];
        let b = free.swap_remove(k);
        t.blocks[b] = s.blocks[slot];
    };
    for &slot in &off {
        take(slot, true, rng);
    }
    for &slot in &on {
        take(slot, false, rng);
    }
}

#[cfg(test)]
#[path = "position_tests.rs"]
mod tests;
