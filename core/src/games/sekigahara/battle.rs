//! Battles (8.1-8.6): declaring them one location at a time, the castle holder's choice between
//! a field battle and a siege (8.9.2), deployment with cards and free leaders (8.2), impact
//! (8.3), special attacks and double cards (8.4), the initiative (8.5) and Loyalty Challenges
//! (8.6). Casualties, retreats and sieges' results are in `aftermath.rs`.

use smallvec::SmallVec;

use super::aftermath;
use super::cards;
use super::data::{Unit, NONE, SIDES, TOKUGAWA, TURNS};
use super::state::{Battle, Census, Deploy, Pending, State, DEFECTED, DEPLOYED, IN_CASTLE};
use super::{Action, Sekigahara};
use crate::events::{event, Audience, Events};
use crate::game::ActionId;

/// The side that holds the castle at `loc` and has units there, if any (8.9.1).
pub fn holder(g: &Sekigahara, s: &State, loc: u8) -> u8 {
    if g.data.locations[loc as usize].castle.is_none() {
        return NONE;
    }
    let h = s.castle[loc as usize];
    if h < 2 && s.units_at(g, h, loc) > 0 {
        h
    } else {
        NONE
    }
}

/// INTERPRETATION (RULES_NOTES.md S14): disks are units; a disk-only holder cannot sortie.
/// A contested location still to be fought this combat phase. Where the active side is the
/// besieged castle holder with no block to sortie, there is no battle (8.9.2).
fn declarable(g: &Sekigahara, s: &State, c: &Census, loc: u8) -> bool {
    let side = s.active();
    s.declared & (1 << loc) == 0 && c.contested(loc) && !(c.blocks[loc as usize][side as usize] == 0 && holder(g, s, loc) == side)
}

/// 8.1: a combat phase starts. Returns false if there is nothing to fight.
pub fn start_combat(g: &Sekigahara, s: &mut State, ev: &mut Events) -> bool {
    s.declared = 0;
    s.forced = None;
    let (week, turn, side) = (s.week, s.turn, s.active());
    ev.emit(
        Audience::ALL,
        || event!({"kind": "phase", "week": week, "turn": TURNS[turn as usize], "phase": "combat", "side": SIDES[side as usize]}),
    );
    next_battle(g, s, ev)
}

/// After a battle (or none): a battle caused by a retreat comes first (8.8.5), then the
/// active player's choice of the next location. Returns false when the phase is over.
pub fn next_battle(g: &Sekigahara, s: &mut State, ev: &mut Events) -> bool {
    if s.pending == Pending::Over {
        return true;
    }
    if let Some((loc, attacker)) = s.forced.take() {
        if s.contested(g, loc) {
            declare(g, s, loc, attacker, ev);
            return true;
        }
    }
    let census = Census::of(g, s);
    if (0..g.data.locations.len() as u8).any(|l| declarable(g, s, &census, l)) {
        s.pending = Pending::Combat;
        true
    } else {
        false
    }
}

/// 8.1/8.9.2: a battle at `loc` is declared, `attacker` against the other side.
fn declare(g: &Sekigahara, s: &mut State, loc: u8, attacker: u8, ev: &mut Events) {
    s.declared |= 1 << loc;
    ev.emit(
        Audience::ALL,
        || event!({"kind": "battle_declared", "at": g.data.locations[loc as usize].id, "attacker": SIDES[attacker as usize]}),
    );
    // INTERPRETATION (RULES_NOTES.md S13): before the siege choice.
    // 9.3: a Tokugawa attack on Osaka brings every block of the Mori box into the battle.
    if loc == g.data.mori_exit && attacker == TOKUGAWA {
        let n = cards::mori_order(g, s).count();
        cards::mori_arrive(g, s, n, ev);
        if s.pending == Pending::Over || !s.contested(g, loc) {
            return finish_without_battle(g, s, ev);
        }
    }
    let h = holder(g, s, loc);
    s.battle = Some(Battle {
        loc,
        attacker,
        siege: false,
        holder: h,
        impact: [0; 2],
        initiative: attacker,
        done: [false; 2],
        carded: [false; 2],
        deploys: SmallVec::new(),
        used: SmallVec::from_elem(0, g.data.cards.len()),
        last: NONE,
        hits: [0; 2],
        lost: [0; 2],
        winner: NONE,
        commander_lost: [false; 2],
    });
    if h == NONE {
        return begin(g, s, false, ev);
    }
    match s.count_at(g, h, loc) {
        // Disks alone cannot fight outside (8.9.3).
        0 => begin(g, s, true, ev),
        1 | 2 => s.pending = Pending::SiegeChoice { side: h },
        _ => begin(g, s, false, ev),
    }
}

fn finish_without_battle(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    s.battle = None;
    if !next_battle(g, s, ev) {
        super::week::next_phase(g, s, ev);
    }
}

/// INTERPRETATION (RULES_NOTES.md S19, S20): the besieger deploys as in 8.2.3-8.2.4; in a
/// field battle the castle garrison fights too.
/// The battle begins as a field battle or a siege (the castle holder inside, 8.9.2).
fn begin(g: &Sekigahara, s: &mut State, siege: bool, ev: &mut Events) {
    let b = s.battle.as_mut().expect("declared");
    let loc = b.loc;
    if siege {
        let h = b.holder;
        b.siege = true;
        // The besiegers attack the castle holder.
        b.attacker = 1 - h;
        b.initiative = 1 - h;
        for (blk, d) in s.blocks.iter_mut().zip(&g.data.blocks) {
            if blk.loc == loc && d.side == h {
                blk.flags |= IN_CASTLE;
            }
        }
    } else {
        for blk in s.blocks.iter_mut().filter(|x| x.loc == loc) {
            blk.flags &= !IN_CASTLE;
        }
    }
    let b = s.battle.as_ref().expect("declared");
    let (kind, attacker) = (if siege { "siege" } else { "field" }, b.attacker);
    ev.emit(
        Audience::ALL,
        || event!({"kind": "battle_begins", "at": g.data.locations[loc as usize].id, "type": kind, "attacker": SIDES[attacker as usize]}),
    );
    s.pending = Pending::Deploy;
}

/// Blocks of `side` taking part in the battle that are not deployed yet.
fn undeployed<'a>(g: &'a Sekigahara, s: &'a State, b: &'a Battle, side: u8) -> impl Iterator<Item = usize> + 'a {
    (0..s.blocks.len()).filter(move |&i| {
        let blk = &s.blocks[i];
        blk.loc == b.loc && g.data.blocks[i].side == side && blk.flags & DEPLOYED == 0 && !(b.siege && blk.flags & IN_CASTLE != 0)
    })
}

/// 8.2.2: whether card type `c` may deploy block `i` (Ishida Mitsunari and Ii Naomasa take any
/// clan card; Loyalty Challenge cards deploy nothing, 9.4-9.5).
pub fn card_fits(g: &Sekigahara, c: u8, i: usize) -> bool {
    let card = &g.data.cards[c as usize];
    let blk = &g.data.blocks[i];
    !card.loyalty && card.side == blk.side && (blk.any_card || card.clan == Some(blk.clan))
}

/// INTERPRETATION (RULES_NOTES.md S17).
/// 8.4.2: a double card's second block: same clan, not an any-card block.
fn second_fits(g: &Sekigahara, c: u8, i: usize) -> bool {
    g.data.cards[c as usize].clan == Some(g.data.blocks[i].clan) && !g.data.blocks[i].any_card
}

/// Whether `a` is among [`legal`]'s actions, without listing them: the same predicates, one
/// action at a time. `None` for the decisions this does not cover (the caller lists them).
pub fn is_legal(g: &Sekigahara, s: &State, a: Action) -> Option<bool> {
    let side = g.decider(s);
    let own_card = |c: u8| g.data.side_cards[side as usize].contains(&c) && s.hand[c as usize] > 0;
    if let (Pending::Combat, Action::Battle(l)) = (s.pending, a) {
        return Some((l as usize) < g.data.locations.len() && declarable(g, s, &Census::of(g, s), l));
    }
    let b = || s.battle.as_ref();
    let ready = |i: u8| b().is_some_and(|b| undeployed(g, s, b, side).any(|x| x == i as usize));
    Some(match (s.pending, a) {
        (Pending::Combat, _) => false,
        (Pending::SiegeChoice { .. }, Action::Siege | Action::Field) => true,
        (Pending::Deploy, Action::Leader(i)) => !b()?.carded[side as usize] && g.data.blocks[i as usize].leader && ready(i),
        (Pending::Deploy, Action::Card(c)) => own_card(c) && undeployed(g, s, b()?, side).any(|i| card_fits(g, c, i)),
        (Pending::Deploy, Action::EndDeploy) => true,
        (Pending::DeployBlock { card }, Action::Select(i)) => (i as usize) < s.blocks.len() && card_fits(g, card, i as usize) && ready(i),
        (Pending::DeploySecond { card }, Action::Select(i)) => {
            (i as usize) < s.blocks.len() && second_fits(g, card, i as usize) && ready(i)
        }
        (Pending::DeploySecond { .. }, Action::Done) => true,
        (Pending::Challenge, Action::Challenge) => {
            g.data.side_cards[side as usize].iter().any(|&c| s.hand[c as usize] > 0 && g.data.cards[c as usize].loyalty)
        }
        (Pending::Challenge, Action::NoChallenge) => true,
        (Pending::Refute, Action::Refute(c)) => {
            let b = b()?;
            own_card(c) && card_fits(g, c, b.deploys[b.last as usize].block as usize)
        }
        (
            Pending::SiegeChoice { .. }
            | Pending::Deploy
            | Pending::DeployBlock { .. }
            | Pending::DeploySecond { .. }
            | Pending::Challenge
            | Pending::Refute,
            _,
        ) => false,
        _ => return None,
    })
}

pub fn legal(g: &Sekigahara, s: &State, out: &mut Vec<ActionId>) {
    let side = g.decider(s);
    let own_cards = || g.data.side_cards[side as usize].iter().copied().filter(|&c| s.hand[c as usize] > 0);
    match s.pending {
        Pending::Combat => {
            let census = Census::of(g, s);
            out.extend((0..g.data.locations.len() as u8).filter(|&l| declarable(g, s, &census, l)).map(|l| g.encode(Action::Battle(l))))
        }
        Pending::SiegeChoice { .. } => out.extend([g.encode(Action::Siege), g.encode(Action::Field)]),
        Pending::Deploy => {
            let b = s.battle.as_ref().expect("battle");
            if !b.carded[side as usize] {
                out.extend(undeployed(g, s, b, side).filter(|&i| g.data.blocks[i].leader).map(|i| g.encode(Action::Leader(i as u8))));
            }
            for c in own_cards() {
                if undeployed(g, s, b, side).any(|i| card_fits(g, c, i)) {
                    out.push(g.encode(Action::Card(c)));
                }
            }
            out.push(g.encode(Action::EndDeploy));
        }
        Pending::DeployBlock { card } => {
            let b = s.battle.as_ref().expect("battle");
            out.extend(undeployed(g, s, b, side).filter(|&i| card_fits(g, card, i)).map(|i| g.encode(Action::Select(i as u8))));
        }
        Pending::DeploySecond { card } => {
            let b = s.battle.as_ref().expect("battle");
            out.extend(undeployed(g, s, b, side).filter(|&i| second_fits(g, card, i)).map(|i| g.encode(Action::Select(i as u8))));
            out.push(g.encode(Action::Done));
        }
        Pending::Challenge => {
            if own_cards().any(|c| g.data.cards[c as usize].loyalty) {
                out.push(g.encode(Action::Challenge));
            }
            out.push(g.encode(Action::NoChallenge));
        }
        Pending::Refute => {
            let b = s.battle.as_ref().expect("battle");
            let blk = b.deploys[b.last as usize].block as usize;
            out.extend(own_cards().filter(|&c| card_fits(g, c, blk)).map(|c| g.encode(Action::Refute(c))));
        }
        _ => {}
    }
}

pub fn apply(g: &Sekigahara, s: &mut State, a: Action, ev: &mut Events) {
    let side = g.decider(s);
    match (s.pending, a) {
        (Pending::Combat, Action::Battle(l)) => declare(g, s, l, s.active(), ev),
        (Pending::SiegeChoice { side }, Action::Siege) => {
            let b = s.battle.as_ref().expect("battle");
            let loc = b.loc;
            if side == b.attacker {
                // 8.9.2: the active player stays inside its castle: no battle here this phase.
                ev.emit(
                    Audience::ALL,
                    || event!({"kind": "stays_in_castle", "side": SIDES[side as usize], "at": g.data.locations[loc as usize].id}),
                );
                for (blk, d) in s.blocks.iter_mut().zip(&g.data.blocks) {
                    if blk.loc == loc && d.side == side {
                        blk.flags |= IN_CASTLE;
                    }
                }
                finish_without_battle(g, s, ev);
            } else {
                begin(g, s, true, ev);
            }
        }
        (Pending::SiegeChoice { .. }, Action::Field) => begin(g, s, false, ev),
        (Pending::Deploy, Action::Leader(i)) => {
            deploy(g, s, side, i, NONE, ev);
            next_initiative(g, s, ev);
        }
        (Pending::Deploy, Action::Card(c)) => {
            s.hand[c as usize] -= 1;
            let b = s.battle.as_mut().expect("battle");
            b.used[c as usize] += 1;
            b.carded[side as usize] = true;
            b.last = b.deploys.len() as u8;
            ev.emit(Audience::ALL, || event!({"kind": "card_played", "side": SIDES[side as usize], "card": g.data.cards[c as usize].id}));
            s.pending = Pending::DeployBlock { card: c };
        }
        (Pending::Deploy, Action::EndDeploy) => {
            let b = s.battle.as_mut().expect("battle");
            b.done[side as usize] = true;
            let (siege, both) = (b.siege, b.done == [true, true]);
            ev.emit(Audience::ALL, || event!({"kind": "deployment_done", "side": SIDES[side as usize]}));
            if siege || both {
                aftermath::resolve(g, s, ev);
            } else {
                b.initiative = 1 - side;
            }
        }
        (Pending::DeployBlock { card }, Action::Select(i)) => {
            deploy(g, s, side, i, card, ev);
            let b = s.battle.as_ref().expect("battle");
            let more = g.data.cards[card as usize].double
                && !g.data.blocks[i as usize].any_card
                && undeployed(g, s, b, side).any(|j| second_fits(g, card, j));
            if more {
                s.pending = Pending::DeploySecond { card };
            } else {
                card_deployed(g, s, ev);
            }
        }
        (Pending::DeploySecond { card }, Action::Select(i)) => {
            deploy(g, s, side, i, card, ev);
            card_deployed(g, s, ev);
        }
        (Pending::DeploySecond { .. }, Action::Done) => card_deployed(g, s, ev),
        (Pending::Challenge, Action::Challenge) => challenge(g, s, side, ev),
        (Pending::Challenge, Action::NoChallenge) => {
            ev.emit(Audience::ALL, || event!({"kind": "no_challenge", "side": SIDES[side as usize]}));
            next_initiative(g, s, ev);
        }
        (Pending::Refute, Action::Refute(c)) => {
            ev.emit(
                Audience::ALL,
                || event!({"kind": "challenge_refuted", "side": SIDES[side as usize], "shown": g.data.cards[c as usize].id}),
            );
            next_initiative(g, s, ev);
        }
        _ => unreachable!("battle::apply called with {a:?} at {:?}", s.pending),
    }
}

/// 8.2.3-8.4: block `i` is deployed face up for `side` with card type `card` (or free).
fn deploy(g: &Sekigahara, s: &mut State, side: u8, i: u8, card: u8, ev: &mut Events) {
    let blk = &g.data.blocks[i as usize];
    let b = s.battle.as_mut().expect("battle");
    let ours = |d: &&Deploy| d.side == side;
    // 8.3.3: +1 per block of the same clan already deployed on this side.
    let clan_bonus = b.deploys.iter().filter(ours).filter(|d| g.data.blocks[d.block as usize].clan == blk.clan).count() as u8;
    let card_t = g.data.cards.get(card as usize);
    // 8.4.1: a sword card on an arquebus or cavalry block: +2, and +2 per block of that type
    // already deployed on this side. Not with a double card (8.4.2), not in a siege (8.9.5).
    let special = match card_t {
        Some(c) if c.sword && !c.double && !b.siege && blk.unit != Unit::Plain => {
            2 + 2 * b.deploys.iter().filter(ours).filter(|d| g.data.blocks[d.block as usize].unit == blk.unit).count() as u8
        }
        _ => 0,
    };
    let impact = blk.mons + clan_bonus;
    b.deploys.push(Deploy { block: i, side, card, impact, special });
    b.impact[side as usize] += (impact + special) as u16;
    s.blocks[i as usize].flags |= DEPLOYED;
    let total = b.impact;
    ev.emit(Audience::ALL, || {
        event!({"kind": "block_deployed", "side": SIDES[side as usize], "block": blk.id, "card": card_t.map(|c| &c.id),
               "impact": impact + special, "special": special, "totals": {"tokugawa": total[0], "ishida": total[1]}})
    });
}

/// INTERPRETATION (RULES_NOTES.md S15): offered whenever the opponent holds cards.
/// A card deployment is complete: the opponent may challenge it (not in a siege, 8.9.5; not
/// with an empty hand, which both players can see).
fn card_deployed(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    let b = s.battle.as_ref().expect("battle");
    let opponent = 1 - b.deploys[b.last as usize].side;
    if !b.siege && s.hand_size(g, opponent) > 0 {
        s.pending = Pending::Challenge;
    } else {
        next_initiative(g, s, ev);
    }
}

/// 8.6.1: a Loyalty Challenge is played against the last deployment.
fn challenge(g: &Sekigahara, s: &mut State, side: u8, ev: &mut Events) {
    let c = g.data.side_cards[side as usize]
        .iter()
        .copied()
        .find(|&c| g.data.cards[c as usize].loyalty && s.hand[c as usize] > 0)
        .expect("legal");
    s.hand[c as usize] -= 1;
    let b = s.battle.as_mut().expect("battle");
    b.used[c as usize] += 1;
    let blk = b.deploys[b.last as usize].block as usize;
    ev.emit(Audience::ALL, || event!({"kind": "loyalty_challenge", "side": SIDES[side as usize], "card": g.data.cards[c as usize].id, "block": g.data.blocks[blk].id}));
    let deployer = 1 - side;
    if g.data.side_cards[deployer as usize].iter().any(|&c| s.hand[c as usize] > 0 && card_fits(g, c, blk)) {
        s.pending = Pending::Refute;
    } else {
        defect(g, s, ev);
    }
}

/// INTERPRETATION (RULES_NOTES.md S16).
/// 8.6.1-8.6.3: the challenged block (both blocks of a double card) changes sides for this
/// battle, taking its impact without any special attack bonus.
fn defect(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    let b = s.battle.as_mut().expect("battle");
    let last = b.last as usize;
    let deployer = b.deploys[last].side;
    for d in &mut b.deploys[last..] {
        b.impact[deployer as usize] -= (d.impact + d.special) as u16;
        b.impact[1 - deployer as usize] += d.impact as u16;
        d.side = 1 - deployer;
        d.special = 0;
        s.blocks[d.block as usize].flags |= DEFECTED;
    }
    let total = b.impact;
    let ids = || b.deploys[last..].iter().map(|d| g.data.blocks[d.block as usize].id.as_str()).collect::<Vec<_>>();
    ev.emit(Audience::ALL, || event!({"kind": "defection", "blocks": ids(), "to": SIDES[1 - deployer as usize], "totals": {"tokugawa": total[0], "ishida": total[1]}}));
    next_initiative(g, s, ev);
}

/// 8.5: the side behind deploys next (the defender leads on a tie); after one side declared
/// it is done, the other keeps the initiative until it is done too.
fn next_initiative(g: &Sekigahara, s: &mut State, ev: &mut Events) {
    let b = s.battle.as_mut().expect("battle");
    let (att, def) = (b.attacker, 1 - b.attacker);
    b.initiative = match b.done {
        [true, true] => return aftermath::resolve(g, s, ev),
        [true, false] => 1,
        [false, true] => 0,
        _ if b.siege => att,
        _ if b.impact[att as usize] > b.impact[def as usize] => def,
        _ => att,
    };
    s.pending = Pending::Deploy;
}
