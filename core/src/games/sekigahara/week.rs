//! Setup (5), the week cycle (6): reinforcement, the initiative bid, turns A and B with their
//! movement and combat phases, and the end of the game after the last week (2.2).

use super::cards;
use super::control;
use super::data::{Start, ISHIDA, NONE, SIDES, TOKUGAWA, TURNS};
use super::state::{Blk, Due, EndReason, Group, Mode, Pending, State, BAG, BOX, MORI_BOX, MOVED, MUSTERED, SELECTED, SHOWN};
use super::{battle, Action, Sekigahara};
use crate::events::{event, Audience, Events};
use crate::game::ActionId;
use crate::rng::Rng;

/// 5.1-5.2: fixed blocks on their symbols, the Mori box face up, the rest in the bags; the
/// random draws for the `+N` locations, then four blocks for each recruitment box (5.2.3),
/// then five cards each, are owed as chance draws. Week 1 has no reinforcement step (6.2).
pub fn initial_state(g: &Sekigahara, rng: Rng) -> State {
    let d = &g.data;
    let blocks = d
        .blocks
        .iter()
        .map(|b| Blk {
            loc: match b.start {
                Start::Bag => BAG,
                Start::Location(l) => l,
                Start::MoriBox => MORI_BOX,
            },
            flags: 0,
            from: NONE,
        })
        .collect();
    let mut due = Due::default();
    // one allocation for the setup draws: the random setups, then the boxes' blocks
    due.setup.reserve_exact(
        d.locations.iter().map(|l| l.random_setup as usize).sum::<usize>() + d.box_start.iter().map(|&n| n as usize).sum::<usize>(),
    );
    for (i, l) in d.locations.iter().enumerate() {
        for _ in 0..l.random_setup {
            due.setup.push((i as u8, l.random_side));
        }
    }
    for side in [TOKUGAWA, ISHIDA] {
        for _ in 0..d.box_start[side as usize] {
            due.setup.push((BOX, side));
        }
    }
    due.cards = [d.hand_start; 2];
    let mut s = State {
        rng,
        week: 1,
        turn: 0,
        step: 0,
        first: TOKUGAWA,
        blocks,
        disks: vec![true; d.disks.len()],
        hand: vec![0; d.cards.len()],
        deck: d.cards.iter().map(|c| c.count).collect(),
        discard: vec![0; d.cards.len()],
        // INTERPRETATION (RULES_NOTES.md S1): the capitals start controlled by their side (4.5).
        resource: d.locations.iter().map(|l| if l.resource { l.capital.unwrap_or(NONE) } else { NONE }).collect(),
        castle: d.locations.iter().map(|l| l.castle.unwrap_or(NONE)).collect(),
        bids: [NONE; 2],
        bid_made: [false; 2],
        reinforce_discards: vec![0; d.cards.len()],
        reinforce_done: [0; 2],
        mode: Mode::NoMove,
        stacks_left: 0,
        muster_left: false,
        roads_used: 0,
        origins_used: 0,
        group: Group { origin: NONE, at: NONE, steps: 0, all_main: true, penalty: 0, command: false, forced: false, march_owed: false },
        declared: 0,
        forced: None,
        battle: None,
        due,
        pending: Pending::Bid { side: TOKUGAWA },
        winner: NONE,
        end: None,
    };
    for l in 0..d.locations.len() as u8 {
        control::refresh_castle(g, &mut s, l);
    }
    s
}

/// After every action: owed draws that cannot be made are dropped, empty decks refilled.
pub fn settle(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    if s.pending != Pending::Over {
        cards::settle_draws(g, s, ev);
    }
}

/// INTERPRETATION (RULES_NOTES.md S2): one card at a time, stopping at half rounded down or up.
/// Cards a side may still discard at the reinforcement step, and whether it may stop now:
/// half the hand, rounded either way (6.2).
fn reinforce_bounds(g: &Sekigahara, s: &State, side: u8) -> (u32, u32) {
    let done = s.reinforce_done[side as usize] as u32;
    let n = s.hand_size(g, side) + done;
    (n / 2, n.div_ceil(2))
}

pub fn legal(g: &Sekigahara, s: &State, out: &mut Vec<ActionId>) {
    match s.pending {
        Pending::ReinforceDiscard { side } => {
            let (lo, hi) = reinforce_bounds(g, s, side);
            let done = s.reinforce_done[side as usize] as u32;
            if done < hi {
                for &c in &g.data.side_cards[side as usize] {
                    if s.hand[c as usize] > 0 {
                        out.push(g.encode(Action::Discard(c)));
                    }
                }
            }
            if done >= lo {
                out.push(g.encode(Action::Done));
            }
        }
        Pending::Bid { side } => {
            let before = out.len();
            for &c in &g.data.side_cards[side as usize] {
                if s.hand[c as usize] > 0 {
                    out.push(g.encode(Action::Bid(c)));
                }
            }
            if out.len() == before {
                out.push(g.encode(Action::BidNothing));
            }
        }
        Pending::ChooseFirst { .. } => out.extend([g.encode(Action::First(TOKUGAWA)), g.encode(Action::First(ISHIDA))]),
        _ => {}
    }
}

pub fn apply(g: &Sekigahara, s: &mut State, a: Action, ev: &mut Events) {
    match (s.pending, a) {
        (Pending::ReinforceDiscard { side }, Action::Discard(c)) => {
            s.hand[c as usize] -= 1;
            s.reinforce_discards[c as usize] += 1;
            s.reinforce_done[side as usize] += 1;
            ev.emit(Audience::seat(side as usize), || event!({"kind": "reinforce_discard_private", "card": g.data.cards[c as usize].id}));
            let (_, hi) = reinforce_bounds(g, s, side);
            if s.reinforce_done[side as usize] as u32 >= hi {
                reinforce_next(g, s, side, ev);
            }
        }
        (Pending::ReinforceDiscard { side }, Action::Done) => reinforce_next(g, s, side, ev),
        (Pending::Bid { side }, Action::Bid(c)) => {
            s.hand[c as usize] -= 1;
            bid_made(g, s, side, c, ev);
        }
        (Pending::Bid { side }, Action::BidNothing) => bid_made(g, s, side, NONE, ev),
        (Pending::ChooseFirst { side }, Action::First(f)) => {
            s.first = f;
            ev.emit(Audience::ALL, || event!({"kind": "first_player", "chosen_by": SIDES[side as usize], "first": SIDES[f as usize]}));
            s.turn = 0;
            s.step = 0;
            start_movement(s, ev);
        }
        _ => unreachable!("week::apply called with {a:?} at {:?}", s.pending),
    }
}

/// The side finished its reinforcement discards; after both, the discards are shown and the
/// draws are owed: 5 cards (+1 for more castles), the recruitment row's blocks (+1 for more
/// resources, both on a tie).
fn reinforce_next(g: &Sekigahara, s: &mut State, side: u8, ev: &mut Events) {
    if side == TOKUGAWA && needs_discard_choice(g, s, ISHIDA) {
        s.pending = Pending::ReinforceDiscard { side: ISHIDA };
        return;
    }
    ev.emit(Audience::ALL, || {
        let shown: Vec<(&str, u8)> = (0..g.data.cards.len())
            .filter(|&c| s.reinforce_discards[c] > 0)
            .map(|c| (g.data.cards[c].id.as_str(), s.reinforce_discards[c]))
            .collect();
        event!({"kind": "reinforcement_discards", "cards": shown})
    });
    for c in 0..g.data.cards.len() {
        s.discard[c] += s.reinforce_discards[c];
        s.reinforce_discards[c] = 0;
    }
    s.reinforce_done = [0; 2];
    let (castles, resources) = control::holdings(g, s);
    let row = g.data.recruitment_row[s.week as usize - 1];
    for p in 0..2 {
        s.due.cards[p] += 5 + u8::from(castles[p] > castles[1 - p]);
        s.due.blocks[p] += row + u8::from(resources[p] >= resources[1 - p]);
    }
    ev.emit(Audience::ALL, || event!({"kind": "reinforcements", "week": s.week, "castles": castles, "resources": resources}));
    s.pending = Pending::Bid { side: TOKUGAWA };
}

/// Whether the side has a discard decision at the reinforcement step (a hand of one card
/// still offers the rounding choice). Cards still owed to it (a no-movement exchange or a
/// battle's replenishment at the end of the week) are drawn before the decision, which halves
/// the hand as it is after them (6.2).
fn needs_discard_choice(g: &Sekigahara, s: &State, side: u8) -> bool {
    s.hand_size(g, side) + s.due.cards[side as usize] as u32 > 0
}

fn bid_made(g: &Sekigahara, s: &mut State, side: u8, c: u8, ev: &mut Events) {
    s.bids[side as usize] = c;
    s.bid_made[side as usize] = true;
    ev.emit(Audience::ALL, || event!({"kind": "bid_placed", "side": SIDES[side as usize]}));
    ev.emit(Audience::seat(side as usize), || event!({"kind": "bid_private", "card": g.data.cards.get(c as usize).map(|x| &x.id)}));
    if side == TOKUGAWA {
        s.pending = Pending::Bid { side: ISHIDA };
        return;
    }
    let value = |c: u8| g.data.cards.get(c as usize).map_or(0, |x| x.initiative);
    let (t, i) = (value(s.bids[0]), value(s.bids[1]));
    // INTERPRETATION (RULES_NOTES.md S3): ties (impossible with the printed decks, whose
    // values are even for Tokugawa and odd for Ishida) go to Ishida, as in 2.1 and 2.2.
    let winner = if t > i { TOKUGAWA } else { ISHIDA };
    let bids = s.bids;
    ev.emit(Audience::ALL, || {
        event!({"kind": "bids_revealed", "tokugawa": g.data.cards.get(bids[0] as usize).map(|x| &x.id),
               "ishida": g.data.cards.get(bids[1] as usize).map(|x| &x.id), "winner": SIDES[winner as usize]})
    });
    for p in 0..2 {
        if s.bids[p] != NONE {
            s.discard[s.bids[p] as usize] += 1;
        }
    }
    s.bids = [NONE; 2];
    s.bid_made = [false; 2];
    s.pending = Pending::ChooseFirst { side: winner };
}

/// 7: a movement phase starts: blocks may move again. Blocks mustered or arrived from the
/// Mori box stay put for the rest of their turn (7.2, 9.3), so that mark is lifted only when a
/// turn starts: Mori blocks brought to Osaka by a Tokugawa attack in Tokugawa's combat phase
/// cannot move in Ishida's movement phase of the same turn.
pub fn start_movement(s: &mut State, ev: &mut Events) {
    let turn_starts = s.step == 0;
    for b in &mut s.blocks {
        b.flags &= !(MOVED | SELECTED | SHOWN);
        if turn_starts {
            b.flags &= !MUSTERED;
        }
    }
    s.roads_used = 0;
    s.origins_used = 0;
    s.stacks_left = 0;
    s.muster_left = false;
    s.pending = Pending::Mode;
    let (week, turn, side) = (s.week, s.turn, s.active());
    ev.emit(
        Audience::ALL,
        || event!({"kind": "phase", "week": week, "turn": TURNS[turn as usize], "phase": "movement", "side": SIDES[side as usize]}),
    );
}

/// The current phase is over: on to the next phase, turn or week (6.4).
pub fn next_phase(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    loop {
        if s.pending == Pending::Over {
            return;
        }
        s.step += 1;
        if s.step == 4 {
            s.step = 0;
            s.turn += 1;
            if s.turn == 2 {
                end_week(g, s, ev);
                return;
            }
        }
        if s.in_movement() {
            start_movement(s, ev);
            return;
        }
        if battle::start_combat(g, s, ev) {
            return;
        }
    }
}

fn end_week(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    if s.week >= g.data.weeks {
        s.turn = 1;
        s.step = 3;
        s.due = Default::default();
        let p = control::points(g, s);
        s.winner = if p[TOKUGAWA as usize] > p[ISHIDA as usize] { TOKUGAWA } else { ISHIDA };
        s.end = Some(EndReason::Points);
        s.pending = Pending::Over;
        let w = s.winner;
        ev.emit(
            Audience::ALL,
            || event!({"kind": "game_over", "reason": "points", "points": {"tokugawa": p[0], "ishida": p[1]}, "winner": SIDES[w as usize]}),
        );
        return;
    }
    s.week += 1;
    s.turn = 0;
    s.step = 0;
    let week = s.week;
    ev.emit(Audience::ALL, || event!({"kind": "week", "week": week}));
    if needs_discard_choice(g, s, TOKUGAWA) {
        s.pending = Pending::ReinforceDiscard { side: TOKUGAWA };
    } else if needs_discard_choice(g, s, ISHIDA) {
        s.pending = Pending::ReinforceDiscard { side: ISHIDA };
    } else {
        reinforce_next(g, s, ISHIDA, ev);
    }
}
