//! Determinization by sampled history ([`crate::game::Game::resample_history`]): an action log
//! the observer cannot tell apart from the true one, with what it has not seen drawn anew.
//!
//! Hidden from a side: which of the other side's face-down blocks is which, and which cards
//! the other side drew (and, until they are shown, its bid and reinforcement discards). The
//! sample keeps every public step and every step of the observer, and changes only:
//!
//! - Blocks, by relabeling. A block whose identity the observer sees at some step (face up in
//!   a battle, shown for command, mustered with option A, arriving from the Mori box,
//!   eliminated) is *pinned* up to the last such step: the sample names it where the game did.
//!   Any other reference to a hidden block (a bag draw, a block chosen for a group, a muster,
//!   a drop or the castle) goes to a block chosen at random among the *free* blocks (not
//!   pinned from that step on) of the same side in the same physical state (place, flags,
//!   entry location). Blocks in the same state are interchangeable for every rule that does
//!   not read their faces, and every rule that does reads a pinned block, so the sample
//!   replays, and its public events, views and tensors are the game's. A fixed setup block
//!   is free from the start: once a bag block stands next to it, either may be the one that
//!   moves on.
//! - Cards, by redealing the draws. Decks are unordered and refilled only when empty, so the
//!   observer knows the deck of each refill (its "epoch") and the hand at each refill. Within
//!   an epoch the draws are redealt at random under the constraints the observer has seen:
//!   every card that left the hand face up (or was shown to refute a challenge) was in the
//!   hand, and a hand that could not refute a challenge held no fitting card. Each copy gets
//!   a release and a deadline; a random draw is kept only if an earliest-deadline-first
//!   completion still exists (it always does for the game's own draws), so the redeal never
//!   fails. Reinforcement discards are shown as a set: they are replayed in card order. A bid
//!   or discards not shown yet are drawn from the sampled hand.
//!
//! Everything random is drawn in a fixed order from observer-visible quantities, so two
//! histories the observer cannot tell apart give the same sample (checked by the conformance
//! suite against the sample's own redraw). Known leaks, all small: a pinned block keeps the
//! route it took between the steps it was seen; the entry locations (`from`) of a side's
//! blocks keep the game's values where the observer cannot tell which blocks moved; and
//! where the final decision shows that something fitting exists without naming it (a card
//! played and its block not chosen yet, a double card's second block, an option-A muster
//! under way) the other side's blocks at that place stay as they are.

use super::battle::card_fits;
use super::data::{Start, NONE};
use super::state::{Pending, State, BOX, DEAD, DEFECTED, DEPLOYED, MORI_BOX, SELECTED, SHOWN};
use super::{Action, Sekigahara};
use crate::events::Events;
use crate::game::{ActionId, Game, Player, CHANCE};
use crate::rng::Rng;

/// One flag per block id: deployed in the battle in progress (all false outside a battle).
/// The battle is read once, under its own `Some`, so that a loop over the blocks does not
/// read the battle's fields while there is none (an optimized build hoisted that read of
/// `deploys` out of the loop, ahead of the check, onto the unwritten bytes of `None`; the
/// result was discarded, but valgrind reported the branch on them).
pub fn deployed_blocks(s: &State) -> [bool; 256] {
    let mut out = [false; 256];
    if let Some(b) = &s.battle {
        for d in &b.deploys {
            out[d.block as usize] = true;
        }
    }
    out
}

/// Whether block `i` is face down (its identity hidden from the other side), given the
/// battle's deployed blocks ([`deployed_blocks`]).
pub fn face_down_given(s: &State, i: usize, deployed: &[bool; 256]) -> bool {
    let b = &s.blocks[i];
    b.loc != MORI_BOX && b.loc != DEAD && b.flags & (DEPLOYED | DEFECTED | SHOWN) == 0
        // Blocks deployed in the battle stay face up until it is over (the losses clear the
        // flags before the retreat decisions; the battle view still lists them).
        && !deployed.get(i).copied().unwrap_or(false)
}

/// The block an action names, if any.
fn block_of(a: Action) -> Option<u8> {
    match a {
        Action::Select(b) | Action::Drop(b) | Action::Command(b) | Action::Leader(b) | Action::DrawBlock(b) => Some(b),
        _ => None,
    }
}

fn with_block(a: Action, b: u8) -> Action {
    match a {
        Action::Select(_) => Action::Select(b),
        Action::Drop(_) => Action::Drop(b),
        Action::Command(_) => Action::Command(b),
        Action::Leader(_) => Action::Leader(b),
        Action::DrawBlock(_) => Action::DrawBlock(b),
        other => other,
    }
}

/// A deck between two refills: refilled at the end of step `after` (`None`: the initial deck),
/// with these cards per type, and the hand (known to everyone: all drawn cards minus the ones
/// that left face up) at that moment.
struct Epoch {
    after: Option<usize>,
    deck: Vec<u8>,
    hand: Vec<u8>,
}

/// What one side's hidden cards must satisfy, recorded from the true history.
#[derive(Default)]
struct CardLog {
    epochs: Vec<Epoch>,
    /// Steps of this side's card draws, with their epoch.
    draws: Vec<(usize, usize)>,
    /// `(step, type, leaves)`: before the step the hand holds this type (it leaves the hand at
    /// the step, or is shown).
    needs: Vec<(usize, u8, bool)>,
    /// `(step, types)`: before the step the hand holds none of these types.
    bans: Vec<(usize, Vec<u8>)>,
    /// `(step, types)`: at the end, before the step, the hand holds one of these (a refute is due).
    wants: Option<(usize, Vec<u8>)>,
    /// Steps of reinforcement discards not shown yet.
    reinforce_open: Vec<usize>,
    /// A bid not shown yet (step, type).
    bid_open: Option<(usize, u8)>,
}

/// Returns the sampled history (see the module documentation).
pub fn resample_history(g: &Sekigahara, history: &[ActionId], observer: Player, rng: &mut Rng) -> Vec<ActionId> {
    let d = &g.data;
    let n = history.len();
    let hidden = [observer != 0, observer != 1];
    if n == 0 || hidden == [false, false] {
        return history.to_vec();
    }
    let nb = d.blocks.len();
    let side_blocks: [Vec<u8>; 2] = [0, 1].map(|p| (0..nb as u8).filter(|&i| d.blocks[i as usize].side == p).collect());
    let watched: Vec<u8> = (0..nb as u8).filter(|&i| hidden[d.blocks[i as usize].side as usize]).collect();
    let mori: Vec<u8> = watched.iter().copied().filter(|&i| d.blocks[i as usize].start == Start::MoriBox).collect();

    // === Pass 1: the true history ===
    // The last step after which each hidden block was seen (-1: never).
    let mut seen = vec![-1i64; nb];
    // Each reference to a hidden block: its step, and the blocks of its side in the same
    // state before the step (`bundles[start..end]`, the block itself included).
    let mut refs: Vec<(usize, u32, u32)> = Vec::new();
    let mut bundles: Vec<u8> = Vec::new();
    // Card types of the sample at the steps that draw or hide a card of a hidden side.
    let mut card_at = vec![NONE; n];
    let mut logs: [CardLog; 2] = Default::default();
    for p in 0..2 {
        if hidden[p] {
            logs[p].epochs.push(Epoch { after: None, deck: Vec::new(), hand: vec![0; d.cards.len()] });
        }
    }
    let mut s = g.new_initial_state(0);
    for p in 0..2 {
        if hidden[p] {
            logs[p].epochs[0].deck = s.deck.clone();
        }
    }
    let mut ev = Events::off();
    let mut hand_before = vec![0u8; d.cards.len()];
    let mut pinned_here: Vec<u8> = Vec::new();
    for (t, &a) in history.iter().enumerate() {
        let act = g.decode(a).expect("a recorded action decodes");
        let chance = g.current_player(&s) == CHANCE;
        let side = if chance { NONE } else { g.decider(&s) };
        let pending = s.pending;
        if let Some(b) = block_of(act) {
            let bs = d.blocks[b as usize].side as usize;
            if hidden[bs] {
                let start = bundles.len() as u32;
                let state = s.blocks[b as usize];
                bundles.extend(side_blocks[bs].iter().copied().filter(|&i| s.blocks[i as usize] == state));
                refs.push((t, start, bundles.len() as u32));
            }
        }
        // Reveals and existence shown by this step that the state after it does not keep.
        pinned_here.clear();
        if let (Pending::Muster { option_a: true, .. }, Action::Done) = (pending, act) {
            pinned_here.extend(watched.iter().copied().filter(|&i| s.blocks[i as usize].loc == BOX && s.blocks[i as usize].has(SELECTED)));
        }
        let last = t + 1 == n;
        if !chance && hidden[side as usize] {
            let at_battle = |s: &State| {
                let loc = s.battle.as_ref().map_or(NONE, |b| b.loc);
                side_blocks[side as usize].iter().copied().filter(move |&i| s.blocks[i as usize].loc == loc).collect::<Vec<u8>>()
            };
            match (pending, act) {
                // The second block of a double card is offered only if one fits (8.4.2).
                (Pending::DeployBlock { card }, Action::Select(_)) if d.cards[card as usize].double => pinned_here.extend(at_battle(&s)),
                // A card is played for a block not chosen yet: one of them fits.
                (Pending::Deploy, Action::Card(_)) if last => pinned_here.extend(at_battle(&s)),
                // An option-A muster under way: a matching block is in the box.
                (Pending::Menu, Action::MusterA(_)) | (Pending::Muster { option_a: true, .. }, Action::Select(_)) if last => {
                    pinned_here.extend(side_blocks[side as usize].iter().copied().filter(|&i| s.blocks[i as usize].loc == BOX))
                }
                _ => {}
            }
        }
        let mori_before: u64 =
            mori.iter().enumerate().filter(|(_, &i)| s.blocks[i as usize].loc == MORI_BOX).fold(0, |m, (k, _)| m | 1 << k);
        // Cards: who holds what before the step.
        let card_side = match act {
            Action::DrawCard(c) => d.cards[c as usize].side,
            Action::Discard(_) | Action::Bid(_) | Action::Card(_) | Action::ForcedMarch(_) | Action::Challenge => side,
            _ => NONE,
        };
        let watch_cards = card_side < 2 && hidden[card_side as usize];
        if watch_cards {
            hand_before.copy_from_slice(&s.hand);
        }
        let deck_before = [0, 1].map(|p| if hidden[p] { s.pile_size(g, &s.deck, p as u8) } else { 0 });
        let challenged = match (pending, act) {
            (Pending::Challenge, Action::Challenge) => s.battle.as_ref().map(|b| (1 - side, b.deploys[b.last as usize].block)),
            _ => None,
        };

        g.apply(&mut s, a, &mut ev);

        // Face up after the step (see `face_down_given`); eliminated blocks and the Mori box are
        // settled at the end.
        for &i in &watched {
            if s.blocks[i as usize].flags & (DEPLOYED | DEFECTED | SHOWN) != 0 {
                seen[i as usize] = t as i64;
            }
        }
        if let Some(b) = &s.battle {
            for x in &b.deploys {
                if hidden[d.blocks[x.block as usize].side as usize] {
                    seen[x.block as usize] = t as i64;
                }
            }
        }
        for &i in &pinned_here {
            seen[i as usize] = t as i64;
        }
        for (k, &i) in mori.iter().enumerate() {
            if mori_before & (1 << k) != 0 && s.blocks[i as usize].loc != MORI_BOX {
                seen[i as usize] = t as i64;
            }
        }
        if watch_cards {
            let log = &mut logs[card_side as usize];
            if let Action::DrawCard(_) = act {
                log.draws.push((t, log.epochs.len() - 1));
            }
            for &c in &d.side_cards[card_side as usize] {
                if s.hand[c as usize] < hand_before[c as usize] {
                    match pending {
                        Pending::ReinforceDiscard { .. } => log.reinforce_open.push(t),
                        Pending::Bid { .. } => log.bid_open = Some((t, c)),
                        _ => log.needs.push((t, c, true)),
                    }
                    if act == Action::Challenge {
                        // The first Loyalty Challenge card in the hand is the one played.
                        let before: Vec<u8> = d.side_cards[card_side as usize]
                            .iter()
                            .copied()
                            .take_while(|&x| x != c)
                            .filter(|&x| d.cards[x as usize].loyalty)
                            .collect();
                        if !before.is_empty() {
                            log.bans.push((t, before));
                        }
                    }
                }
            }
        }
        if let Some((deployer, blk)) = challenged {
            if hidden[deployer as usize] {
                let fit: Vec<u8> = d.side_cards[deployer as usize].iter().copied().filter(|&c| card_fits(g, c, blk as usize)).collect();
                let log = &mut logs[deployer as usize];
                if s.pending != Pending::Refute {
                    log.bans.push((t, fit));
                } else if last {
                    log.wants = Some((t, fit));
                }
            }
        }
        if let Action::Refute(c) = act {
            if hidden[side as usize] {
                logs[side as usize].needs.push((t, c, false));
            }
        }
        for p in 0..2 {
            if !hidden[p] {
                continue;
            }
            let log = &mut logs[p];
            if s.pile_size(g, &s.deck, p as u8) > deck_before[p] {
                log.epochs.push(Epoch { after: Some(t), deck: s.deck.clone(), hand: s.hand.clone() });
            }
            // Reinforcement discards are shown together, as a set: replayed in card order.
            if !log.reinforce_open.is_empty() && s.pile_size(g, &s.reinforce_discards, p as u8) == 0 {
                let mut types: Vec<u8> = log
                    .reinforce_open
                    .iter()
                    .filter_map(|&step| match g.decode(history[step]) {
                        Some(Action::Discard(c)) => Some(c),
                        _ => None,
                    })
                    .collect();
                types.sort_unstable();
                for (&step, &c) in log.reinforce_open.iter().zip(&types) {
                    card_at[step] = c;
                    log.needs.push((step, c, true));
                }
                log.reinforce_open.clear();
            }
            if let Some((step, c)) = log.bid_open {
                if !s.bid_made[p] {
                    log.needs.push((step, c, true));
                    log.bid_open = None;
                }
            }
        }
    }

    // Shown for good: eliminated, or still in the Mori box.
    for &i in &watched {
        if matches!(s.blocks[i as usize].loc, DEAD | MORI_BOX) {
            seen[i as usize] = n as i64;
        }
    }

    // === The cards of each hidden side ===
    for p in 0..2 {
        if hidden[p] {
            deal(g, p as u8, &mut logs[p], rng, &mut card_at);
        }
    }

    // === Pass 2: the sample ===
    // The true history relabeled: `on[b]` is the block of the sample that follows the path of
    // the game's block `b`. A pinned block follows its own path; a reference to a free one
    // goes to a free block on a path in the same state, and the two paths trade blocks (they
    // are in the same state, so the sample's states stay a relabeling of the game's).
    let mut out = Vec::with_capacity(n);
    let mut on: Vec<u8> = (0..nb as u8).collect();
    let mut cands: Vec<(u8, u8)> = Vec::new();
    let mut next_ref = refs.iter().peekable();
    for (t, &a) in history.iter().enumerate() {
        let act = g.decode(a).expect("a recorded action decodes");
        let mut act2 = match act {
            Action::DrawCard(_) if card_at[t] != NONE => Action::DrawCard(card_at[t]),
            Action::Discard(_) if card_at[t] != NONE => Action::Discard(card_at[t]),
            Action::Bid(_) if card_at[t] != NONE => Action::Bid(card_at[t]),
            other => other,
        };
        if let Some(&(_, start, end)) = next_ref.next_if(|r| r.0 == t) {
            let b = block_of(act).expect("a block reference") as usize;
            if seen[b] < t as i64 {
                let free = |x: u8| seen[x as usize] < t as i64;
                cands.clear();
                cands.extend(bundles[start as usize..end as usize].iter().map(|&path| (on[path as usize], path)).filter(|&(x, _)| free(x)));
                cands.sort_unstable();
                let k = if cands.len() == 1 { 0 } else { rng.below(cands.len() as u32) as usize };
                let (x, path) = cands[k];
                on.swap(b, path as usize);
                act2 = with_block(act, x);
            }
        }
        out.push(g.encode(act2));
    }
    out
}

const NO_DEADLINE: usize = usize::MAX;

/// One epoch's copies per card type (index into the side's types): for the k-th copy drawn,
/// the step it must come after (release) and the step it must come before (deadline).
struct Copies {
    count: Vec<u8>,
    release: Vec<Vec<i64>>,
    deadline: Vec<Vec<usize>>,
}

impl Copies {
    /// Whether the slots `slots` can be filled, the copies already drawn being `taken`, by
    /// earliest deadline first (optimal for unit jobs with releases and deadlines). Every copy
    /// with a deadline must be drawn; in a completed epoch every copy is.
    fn feasible(&self, slots: &[usize], taken: &[u8]) -> bool {
        let mut k = taken.to_vec();
        for &slot in slots {
            let mut best: Option<(usize, usize)> = None;
            for (c, &kc) in k.iter().enumerate() {
                if kc >= self.count[c] {
                    continue;
                }
                let (r, dl) = (self.release[c][kc as usize], self.deadline[c][kc as usize]);
                if dl <= slot {
                    return false;
                }
                if r < slot as i64 && best.is_none_or(|(b, _)| dl < b) {
                    best = Some((dl, c));
                }
            }
            match best {
                Some((_, c)) => k[c] += 1,
                None => return false,
            }
        }
        (0..self.count.len()).all(|c| k[c] >= self.count[c] || self.deadline[c][k[c] as usize] == NO_DEADLINE)
    }
}

/// Redeals the draws of `side` epoch by epoch (see the module documentation) into `card_at`,
/// then its bid or reinforcement discards not shown yet from the sampled hand.
fn deal(g: &Sekigahara, side: u8, log: &mut CardLog, rng: &mut Rng, card_at: &mut [u8]) {
    let d = &g.data;
    let types = &d.side_cards[side as usize];
    let nt = types.len();
    let local = |c: u8| types.iter().position(|&x| x == c).expect("a card of this side");
    log.needs.sort_by_key(|&(t, ..)| t);
    log.bans.sort_by_key(|&(t, _)| t);
    let epochs = log.epochs.len();
    // The epoch of the point before step t: the last one refilled before it.
    let epoch_of = |t: usize| log.epochs.iter().rposition(|e| e.after.is_none_or(|a| a < t)).unwrap_or(0);
    let mut end_hand = vec![0i64; nt];
    for e in 0..epochs {
        let ep = &log.epochs[e];
        let count: Vec<u8> = types.iter().map(|&c| ep.deck[c as usize]).collect();
        let held: Vec<i64> = types.iter().map(|&c| ep.hand[c as usize] as i64).collect();
        let mut copies = Copies {
            release: count.iter().map(|&k| vec![-1; k as usize]).collect(),
            deadline: count.iter().map(|&k| vec![NO_DEADLINE; k as usize]).collect(),
            count,
        };
        // Departures so far in this epoch, walked with the bans in step order.
        let mut left = vec![0i64; nt];
        let needs: Vec<(usize, u8, bool)> = log.needs.iter().copied().filter(|&(t, ..)| epoch_of(t) == e).collect();
        let bans: Vec<&(usize, Vec<u8>)> = log.bans.iter().filter(|(t, _)| epoch_of(*t) == e).collect();
        let mut bi = 0;
        let ban = |copies: &mut Copies, left: &[i64], fit: &[u8], t: usize| {
            for &c in fit {
                let c = local(c);
                // No copy of c in the hand: at most `left - held` drawn before t.
                let allowed = (left[c] - held[c]).max(0) as usize;
                for r in copies.release[c].iter_mut().skip(allowed) {
                    *r = (*r).max(t as i64);
                }
            }
        };
        for &(t, c, leaves) in &needs {
            while bi < bans.len() && bans[bi].0 <= t {
                ban(&mut copies, &left, &bans[bi].1, bans[bi].0);
                bi += 1;
            }
            let c = local(c);
            let must = (left[c] + 1 - held[c]).max(0) as usize;
            for dl in copies.deadline[c].iter_mut().take(must) {
                *dl = (*dl).min(t);
            }
            if leaves {
                left[c] += 1;
            }
        }
        for b in &bans[bi..] {
            ban(&mut copies, &left, &b.1, b.0);
        }
        let slots: Vec<usize> = log.draws.iter().filter(|&&(_, ep)| ep == e).map(|&(t, _)| t).collect();
        // A refute due at the end: some fitting type in the hand; the first feasible one of a
        // random order.
        if e + 1 == epochs {
            if let Some((t, fit)) = log.wants.take() {
                let mut order: Vec<usize> = fit.iter().map(|&c| local(c)).collect();
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i as u32 + 1) as usize);
                }
                for c in order {
                    let must = (left[c] + 1 - held[c]).max(0) as usize;
                    if must > copies.count[c] as usize {
                        continue;
                    }
                    let saved = copies.deadline[c].clone();
                    for dl in copies.deadline[c].iter_mut().take(must) {
                        *dl = (*dl).min(t);
                    }
                    if copies.feasible(&slots, &vec![0; nt]) {
                        break;
                    }
                    copies.deadline[c] = saved;
                }
            }
        }
        // The draws: uniform over the copies that may be drawn now, unless that leaves no way
        // to meet the constraints; then earliest deadline first.
        let mut taken = vec![0u8; nt];
        for (j, &slot) in slots.iter().enumerate() {
            let eligible = |c: usize, taken: &[u8]| taken[c] < copies.count[c] && copies.release[c][taken[c] as usize] < slot as i64;
            let weight: u32 = (0..nt).filter(|&c| eligible(c, &taken)).map(|c| (copies.count[c] - taken[c]) as u32).sum();
            let mut pick = None;
            if weight > 0 {
                let mut x = rng.below(weight);
                for c in (0..nt).filter(|&c| eligible(c, &taken)) {
                    let w = (copies.count[c] - taken[c]) as u32;
                    if x < w {
                        pick = Some(c);
                        break;
                    }
                    x -= w;
                }
            }
            let ok = pick.is_some_and(|c| {
                taken[c] += 1;
                let ok = copies.deadline[c][taken[c] as usize - 1] > slot && copies.feasible(&slots[j + 1..], &taken);
                taken[c] -= 1;
                ok
            });
            if !ok {
                pick = (0..nt).filter(|&c| eligible(c, &taken)).min_by_key(|&c| (copies.deadline[c][taken[c] as usize], c));
            }
            let c = pick.expect("the game's own draws meet the constraints");
            taken[c] += 1;
            card_at[slot] = types[c];
        }
        if e + 1 == epochs {
            for c in 0..nt {
                end_hand[c] = held[c] + taken[c] as i64 - left[c];
            }
        }
    }
    // Cards that left the hand face down and were not shown yet: from the sampled hand.
    let hidden_steps: Vec<usize> = log.reinforce_open.iter().copied().chain(log.bid_open.map(|(t, _)| t)).collect();
    if !hidden_steps.is_empty() {
        let mut pool: Vec<u8> = (0..nt).flat_map(|c| std::iter::repeat_n(types[c], end_hand[c].max(0) as usize)).collect();
        let mut chosen: Vec<u8> = Vec::new();
        for _ in &hidden_steps {
            if pool.is_empty() {
                break;
            }
            let k = rng.below(pool.len() as u32) as usize;
            chosen.push(pool.swap_remove(k));
        }
        chosen.sort_unstable();
        for (&t, &c) in hidden_steps.iter().zip(&chosen) {
            card_at[t] = c;
        }
    }
}
