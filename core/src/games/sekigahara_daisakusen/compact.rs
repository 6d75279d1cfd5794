//! The compact observation ([`crate::compact`]; fields documented in
//! `docs/rules/sekigahara_daisakusen.md`). The game hides nothing (the deck is a set, drawn by
//! chance), so every seat's compact observation is the whole state except its random
//! generator: the counters as an entity list (the map is sparse: a few dozen counters on some
//! 500 hexes), the castles, tracks and cards as bits and bytes, the card program's step and
//! the attack in progress. The occupancy and zone-of-control counts per hex follow from the
//! counters and are left out, as are the printed map's terrain, rivers and roads (component
//! data, the same in every observation).

use super::state::State;
use super::Daisakusen;
use crate::compact::{CompactBuilder, CompactField, Writer};
use crate::game::Player;

/// Bytes of the `pending` record (the largest variant: a hex and a flag).
const PENDING: usize = 4;
/// Bytes of the `fight` record: `Some`, two hexes, direction, siege, stage, hits, modifier.
const FIGHT: usize = 10;

/// The named fields, in the order [`write`] fills them.
pub fn layout(g: &Daisakusen) -> Vec<CompactField> {
    let d = &g.data;
    let (u, c, nc) = (d.counters.len(), d.cards.len(), d.castles.len());
    CompactBuilder::new()
        .u16("counter_loc", &[u], u16::MAX, "per counter (data order): its hex, 0xFFF0 + t on entry track t, 0xFFFF removed")
        .bits("counter_west", &[u], "per counter: serves the West (after 調略 a counter may change sides)")
        .u8("counter_faction", &[u], 4, "per counter: 徳川, 譜代, 東軍外様, 西軍主戦派, 西軍諸将 (0-4)")
        .bits("counter_flipped", &[u], "per counter: flipped (reduced)")
        .bits("castle_west", &[nc], "per castle (data order): owned by the West")
        .bits("castle_working", &[nc], "per castle: still works as a castle (R 10.0(4))")
        .u8("kyoto_owner", &[1], 255, "京's owner: 0 East, 1 West, other values nobody")
        .u8("chouryaku", &[1], 255, "調略 marker box (index into the track)")
        .u8("morale", &[d.morale_tracks.len()], 255, "per 戦意 track: marker box from the East end")
        .u8("entry", &[d.entry.len()], 255, "per entry track: marker box (the track's length: arrived)")
        .bits("card_in_deck", &[c], "per card: in the deck")
        .bits("card_discarded", &[c], "per card: in the discard pile")
        .u16("turn", &[1], u16::MAX, "turn")
        .bits("flags", &[5], "first draw of the game, 秀頼 left 大坂, 秀頼 free to leave (R 13.0(1)), 家康 arrived, strategic move")
        .u8("card_program", &[6], 255, "card being carried out, program stage, picks, acting commander, movement points, winner")
        .bits("counter_acted", &[u], "per counter: has acted this card")
        .bits("counter_used", &[u], "per counter: used this card")
        .bits("counter_in_group", &[u], "per counter: in the acting commander's group")
        .record("pending", PENDING, "record: the pending decision (variant index, then its fields: R 5.0-13.0 in state.rs)")
        .record("fight", FIGHT, "record: the attack in progress (0 none; 1, from hex, target hex, direction, siege, stage, hits, modifier)")
        .bits("fight_queue", &[u], "per counter: still to roll in this combat stage (or the surviving attack group)")
        .build()
}

pub fn write(g: &Daisakusen, s: &State, _observer: Player, out: &mut [u8]) {
    let d = &g.data;
    let (u, c, nc) = (d.counters.len(), d.cards.len(), d.castles.len());
    let mut w = Writer::new(out);
    let locs = w.take(2 * u);
    for (k, unit) in s.units.iter().enumerate() {
        locs[2 * k..2 * k + 2].copy_from_slice(&unit.loc.to_le_bytes());
    }
    w.bits(u, s.units.iter().enumerate().filter(|(_, x)| x.side == 1).map(|(k, _)| k));
    let factions = w.take(u);
    for (k, unit) in s.units.iter().enumerate() {
        factions[k] = unit.faction as u8;
    }
    w.bits(u, s.units.iter().enumerate().filter(|(_, x)| x.flipped).map(|(k, _)| k));
    w.mask(s.castle_west.into(), nc);
    w.mask(s.castle_alive.into(), nc);
    w.u8(s.kyoto_owner);
    w.u8(s.chouryaku);
    w.take(s.morale.len()).copy_from_slice(&s.morale);
    w.take(s.entry.len()).copy_from_slice(&s.entry);
    w.mask(s.deck.into(), c);
    w.mask(s.discard.into(), c);
    w.u16(s.turn);
    let flags = [s.first_draw, s.hideyori_left, s.hideyori_released, s.ieyasu_arrived, s.strategic];
    w.bits(5, (0..5).filter(|&i| flags[i]));
    for v in [s.card, s.stage, s.picks, s.cmdr, s.mp, s.winner] {
        w.u8(v);
    }
    w.mask(s.acted, u);
    w.mask(s.used, u);
    w.mask(s.group, u);
    w.record(PENDING, &s.pending);
    w.record(FIGHT, &s.fight.map(|f| (f.from, f.target, f.dir, f.siege, f.stage, f.hits, f.modifier)));
    w.mask(s.fight.map_or(0, |f| f.queue), u);
}
