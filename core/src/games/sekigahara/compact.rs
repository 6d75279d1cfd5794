//! The compact observation ([`crate::compact`]; fields documented in
//! `docs/rules/sekigahara.md`): what a side may see (view.rs), in absolute sides (0 Tokugawa,
//! 1 Ishida; the `observer` field says which one is looking). Blocks are an entity list (each
//! block's place where the observer knows it), locations hold the per-side counts every side
//! sees, then the cards, the movement and the battle in progress.

use super::control;
use super::data::NONE;
use super::hidden::{deployed_blocks, face_down_given};
use super::state::{Pending, State, BAG, BOX, DEAD, IN_CASTLE, MORI_BOX, MOVED, MUSTERED, SELECTED};
use super::Sekigahara;
use crate::compact::{CompactBuilder, CompactField, Writer};
use crate::game::{Player, SPECTATOR};

/// Bytes of the `pending` record.
const PENDING: usize = 4;
/// Bytes of the `group` record.
const GROUP: usize = 9;
/// Bytes of the `battle` record: 16 deployments and 32 card types at most (state.rs).
const BATTLE: usize = 160;

/// The named fields, in the order [`write`] fills them.
pub fn layout(g: &Sekigahara) -> Vec<CompactField> {
    let d = &g.data;
    let (nb, nl, nc) = (d.blocks.len(), d.locations.len(), d.cards.len());
    CompactBuilder::new()
        .u8("observer", &[1], 2, "0 Tokugawa, 1 Ishida, 2 the spectator")
        .u8(
            "block_place",
            &[nb],
            DEAD + 1,
            "per block (data order): 0 unknown to the observer (another side's face-down block, or in its bag), else 1 + its \
             location (data order), 101 the bag, 102 the recruitment box, 103 the Mori box, 104 eliminated",
        )
        .u8("block_flags", &[nb], 15, "per block the observer knows: bits moved 1, mustered 2, in castle 4, selected 8")
        .u8("location_blocks", &[nl, 2, 3], 255, "per location, per side: blocks, blocks in the castle, blocks moved")
        .bits("disks", &[d.disks.len()], "per disk (data order): still in play")
        .u8("resource", &[nl], 2, "per location: 0 uncontrolled or no resource, 1 + the side controlling the resource")
        .u8("castle", &[nl], 2, "per location: 0 no castle or uncontrolled, 1 + the side holding the castle")
        .u8("pools", &[7], 255, "Tokugawa, Ishida blocks in the bag, in the recruitment box, eliminated; blocks in the Mori box")
        .u8("cards", &[4, 2], 255, "per side: hand, deck, discard, reinforcement discards (sizes)")
        .u8("own_hand", &[nc], 255, "per card type: copies in the observer's hand (zeros for the spectator)")
        .u8("own_reinforcement_discards", &[nc], 255, "per card type: copies the observer discarded for reinforcements")
        .u8("own_bid", &[1], 255, "0 none, else 1 + the card type the observer bid")
        .bits("bid_placed", &[2], "per side: has bid this week")
        .u16("points", &[2], u16::MAX, "per side: victory points (control.rs)")
        .u8(
            "week",
            &[5],
            255,
            "week (1-7), turn (0 A, 1 B), step (0-3: first side's movement, combat, second's), first side, 1 + the winner once over",
        )
        .u8("movement", &[3], 255, "movement mode (state.rs order), stacks left (255 all), a muster left (0/1)")
        .bits("roads_used", &[d.roads.len()], "per road (data order): crossed this movement phase")
        .record(
            "pending",
            PENDING,
            "record: the pending decision (variant index, then its fields, state.rs), then whether a chance step is due",
        )
        .record(
            "group",
            GROUP,
            "record: the moving group (0 none; 1, origin, at, steps, blocks, command, forced march, must step, all main road)",
        )
        .record(
            "battle",
            BATTLE,
            "record: the battle (0 none; 1, location, attacker, siege, castle holder, impact per side (u16), initiative, done per \
             side, deployments (count, then block, side, card, impact, special each), cards played (count, then per card type \
             in data order), casualties left per side, winner)",
        )
        .build()
}

pub fn write(g: &Sekigahara, s: &State, player: Player, out: &mut [u8]) {
    let d = &g.data;
    let me: Option<u8> = (player != SPECTATOR).then_some(player as u8);
    let deployed = deployed_blocks(s);
    let mut w = Writer::new(out);
    w.u8(me.unwrap_or(2));
    // One pass over the blocks fills their places, their flags, the locations' counts and the
    // pools (the fields are adjacent in the layout). The pass does not branch on a block's
    // place: it tallies every place code (locations, then the bag, the box, the Mori box and
    // the eliminated) per side, and the counts and pools are read off the tally after it.
    let (nb, nl) = (d.blocks.len(), d.locations.len());
    let (places, rest) = w.take(2 * nb + 6 * nl).split_at_mut(nb);
    let (flags, counts) = rest.split_at_mut(nb);
    let mut tally = [[0u8; 3]; 2 * (DEAD as usize + 1)];
    for (i, (b, x)) in s.blocks.iter().zip(&d.blocks).enumerate() {
        // Its own blocks' places the observer knows even in the bag; their flags, and another
        // side's face-up blocks, once out of the bag.
        let own = me == Some(x.side);
        let shown = (b.loc != BAG) & (own | !face_down_given(s, i, &deployed));
        places[i] = if own | shown { b.loc + 1 } else { 0 };
        flags[i] = if shown { b.flags & (MOVED | MUSTERED | IN_CASTLE | SELECTED) } else { 0 };
        let t = &mut tally[b.loc as usize * 2 + x.side as usize];
        t[0] += 1;
        t[1] += u8::from(b.flags & IN_CASTLE != 0);
        t[2] += u8::from(b.flags & MOVED != 0);
    }
    for (c, t) in counts.chunks_exact_mut(3).zip(&tally) {
        c.copy_from_slice(t);
    }
    let pool = |place: u8, side: usize| tally[place as usize * 2 + side][0];
    let pools =
        [pool(BAG, 0), pool(BAG, 1), pool(BOX, 0), pool(BOX, 1), pool(DEAD, 0), pool(DEAD, 1), pool(MORI_BOX, 0) + pool(MORI_BOX, 1)];
    w.bits(d.disks.len(), s.disks.iter().enumerate().filter(|(_, &alive)| alive).map(|(k, _)| k));
    let side_byte = |v: u8| if v < 2 { v + 1 } else { 0 };
    for l in 0..nl {
        w.u8(side_byte(s.resource[l]));
    }
    for l in 0..nl {
        w.u8(side_byte(s.castle[l]));
    }
    w.take(7).copy_from_slice(&pools);
    for side in 0..2u8 {
        for pile in [&s.hand, &s.deck, &s.discard, &s.reinforce_discards] {
            w.u8(s.pile_size(g, pile, side) as u8);
        }
    }
    for pile in [&s.hand, &s.reinforce_discards] {
        let field = w.take(d.cards.len());
        if let Some(m) = me {
            for &c in &d.side_cards[m as usize] {
                field[c as usize] = pile[c as usize];
            }
        }
    }
    w.u8(me.map_or(0, |m| if s.bids[m as usize] == NONE { 0 } else { s.bids[m as usize] + 1 }));
    w.bits(2, (0..2).filter(|&x| s.bid_made[x]));
    let points = control::points(g, s);
    for p in points {
        w.u16(p.min(u16::MAX as u32) as u16);
    }
    for v in [s.week, s.turn, s.step, s.first, if s.is_over() { s.winner.saturating_add(1) } else { 0 }] {
        w.u8(v);
    }
    w.u8(s.mode as u8);
    w.u8(s.stacks_left);
    w.u8(s.muster_left as u8);
    w.mask(s.roads_used.into(), d.roads.len());
    w.record(PENDING, &(s.pending, s.due.any()));
    let group = (s.pending == Pending::Group).then(|| {
        let gr = &s.group;
        let size = s.blocks.iter().filter(|b| b.flags & SELECTED != 0).count() as u8;
        (gr.origin, gr.at, gr.steps, size, gr.command, gr.forced, gr.march_owed, gr.all_main)
    });
    w.record(GROUP, &group);
    let battle = s.battle.as_ref().map(|b| {
        let deploys: Vec<_> = b.deploys.iter().map(|x| (x.block, x.side, x.card, x.impact, x.special)).collect();
        (b.loc, b.attacker, b.siege, b.holder, b.impact, b.initiative, b.done, deploys, &b.used[..], b.hits, b.winner)
    });
    w.record(BATTLE, &battle);
}
