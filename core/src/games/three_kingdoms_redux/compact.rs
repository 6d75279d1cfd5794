//! The compact observation ([`crate::compact`]; fields documented in
//! `docs/rules/three_kingdoms_redux.md`): what a seat may see (view.rs), in absolute seats (0
//! Wei, 1 Wu, 2 Shu; the `observer` field says who is looking): per seat its resources, tracks,
//! cards and actions, per general and per region their place, the bids of the round, the
//! decks as far as the observer knows them, and the pending decision.

use super::state::{GLoc, Pending, State, NONE};
use super::{view, Tkr};
use crate::compact::record::Seq;
use crate::compact::{CompactBuilder, CompactField, Writer};
use crate::game::{Player, SPECTATOR};

/// Bytes of the `placements` record: up to 40 placements of 13 bytes.
const PLACEMENTS: usize = 1 + 40 * 13;
/// Bytes of the `placing` record.
const PLACING: usize = 14;
/// Bytes of the `deck_bottoms` record.
const BOTTOMS: usize = 2 * 17;
/// Bytes of the `decision` record.
const DECISION: usize = 40;
/// Bytes of the `scores` record (once over: 3 scores of 12 four-byte fields).
const SCORES: usize = 1 + 3 * 48;

/// Seat scalars written as signed words, in this order.
const WORDS: &str = "gold, rice, support, untrained, trained, spear, horse, crossbow, ship, deficits, tribal, military";

/// The named fields, in the order [`write`] fills them.
pub fn layout(g: &Tkr) -> Vec<CompactField> {
    let (gn, d, r) = (g.data.generals.len(), g.data.developments.len(), g.data.regions.len());
    CompactBuilder::new()
        .u8("observer", &[1], 3, "0 Wei, 1 Wu, 2 Shu, 3 the spectator")
        .i16("seat_words", &[3, 12], i16::MIN, i16::MAX, &format!("per seat: {WORDS}"))
        .u8("seat_bytes", &[3, 7], 255, "per seat: office, farm level, farm area, granary, market level, market area, treasury")
        .bits("granary_regions", &[3, r], "per seat, per region: a granary token there")
        .bits("treasury_regions", &[3, r], "per seat, per region: a treasury token there")
        .bits("built", &[3, d], "per seat, per development: built")
        .bits("hand", &[3, d], "per seat, per development: in its hand (the observer's own only)")
        .bits("importing", &[3, d], "per seat, per development: drawn by its Import Technology (the observer's own only)")
        .u8("card_counts", &[3, 2], 255, "per seat: hand size, cards being imported")
        .bits("won", &[3, 18], "per seat, per action: won this round")
        .bits("to_perform", &[3, 18], "per seat, per action: still to perform")
        .bits("passed", &[3], "per seat: passed in the bidding")
        .u8(
            "general",
            &[gn],
            4,
            "per general (data order): 0 in its deck (or unknown), 1 drawn, 2 chosen (both the observer's own only), 3 recruited, \
             4 stationed",
        )
        .u8("generals_hidden", &[3, 2], 255, "per seat: generals drawn, generals chosen")
        .u8("region", &[r, 4], 255, "per region (data order): 1 + holding seat (0 none), 1 + general, 1 + unit type (held only), units")
        .bits("region_flipped", &[r], "per region: its token flipped")
        .i16("totals", &[18, 3], i16::MIN, i16::MAX, "per action, per seat: bid total")
        .u8(
            "round",
            &[12],
            255,
            "round, Control Han Emperor criterion (0 administration, 1 combat), bid order (3), action order (3), alliance action, \
             last alliance action, Han token holder, general flipped on Control Han Emperor (255 none)",
        )
        .u8("decks", &[6], 255, "cards left: unity, separation, generals of Wei, Wu, Shu (drawn included), end reason")
        .record(
            "placements",
            PLACEMENTS,
            "record: the placements of the round (count, then seat, general, action, unit, units, gold, support, han, value (i32) each)",
        )
        .record("placing", PLACING, "record: the placement being built (0 none; 1 then its fields as in placements)")
        .record(
            "deck_bottoms",
            BOTTOMS,
            "record: per development deck the known bottom, next first (count, then 1 + card the observer put there, 0 another's)",
        )
        .record(
            "decision",
            DECISION,
            "record: pending kind (view.rs order), seat, deck, left, card (u16), action, acting (255 none), the bonuses to order \
             (count, then cards as u16)",
        )
        .record("scores", SCORES, "record: the scores once over (0 before; 1 then 3 scores, scoring.rs field order)")
        .build()
}

pub fn write(g: &Tkr, s: &State, player: Player, out: &mut [u8]) {
    let dt = &g.data;
    let (gn, d, r) = (dt.generals.len(), dt.developments.len(), dt.regions.len());
    let me = if player == SPECTATOR { None } else { Some(player as usize) };
    let mut w = Writer::new(out);
    w.u8(me.map_or(3, |m| m as u8));
    for p in &s.seats {
        let w4 = p.weapons;
        for v in [p.gold, p.rice, p.support, p.untrained, p.trained, w4[0], w4[1], w4[2], w4[3], p.deficits, p.tribal, p.military] {
            w.i16(v);
        }
    }
    for p in &s.seats {
        for v in [p.office, p.farm_level, p.farm_area, p.granary_farm, p.market_level, p.market_area, p.treasury_market] {
            w.u8(v);
        }
    }
    w.bits(3 * r, rows(r, |k| s.seats[k].granary_regions.into()));
    w.bits(3 * r, rows(r, |k| s.seats[k].treasury_regions.into()));
    w.bits(3 * d, rows(d, |k| s.seats[k].built));
    w.bits(3 * d, rows(d, |k| if me == Some(k) { s.seats[k].hand } else { 0 }));
    w.bits(3 * d, rows(d, |k| if me == Some(k) { s.seats[k].import_drawn } else { 0 }));
    for p in &s.seats {
        w.u8(p.hand.count_ones() as u8);
        w.u8(p.import_drawn.count_ones() as u8);
    }
    w.bits(3 * 18, rows(18, |k| s.seats[k].won.into()));
    w.bits(3 * 18, rows(18, |k| s.seats[k].todo.into()));
    w.bits(3, (0..3).filter(|&k| s.passed[k]));
    let mut hidden = [0u8; 6];
    let generals = w.take(gn);
    for (i, gen) in dt.generals.iter().enumerate() {
        let k = gen.kingdom as usize;
        generals[i] = match s.gloc[i] {
            GLoc::Deck => 0,
            GLoc::Drawn | GLoc::Chosen => {
                let chosen = s.gloc[i] == GLoc::Chosen;
                hidden[2 * k + chosen as usize] += 1;
                if me == Some(k) {
                    1 + chosen as u8
                } else {
                    0
                }
            }
            GLoc::Active => 3,
            GLoc::Stationed => 4,
        };
    }
    w.take(6).copy_from_slice(&hidden);
    for st in &s.regions {
        let held = st.seat != NONE;
        w.u8(if held { st.seat + 1 } else { 0 });
        w.u8(if held { st.general.wrapping_add(1) } else { 0 });
        w.u8(if held { st.unit.wrapping_add(1) } else { 0 });
        w.u8(st.units);
    }
    w.bits(r, s.regions.iter().enumerate().filter(|(_, x)| x.flipped).map(|(i, _)| i));
    for row in &s.totals {
        for &v in row {
            w.i16(v);
        }
    }
    w.u8(s.round);
    w.u8(s.han_criterion);
    w.take(3).copy_from_slice(&s.bid_order);
    w.take(3).copy_from_slice(&s.action_order);
    for v in [s.alliance_action, s.last_alliance_action, s.han_holder, s.han_flipped] {
        w.u8(v);
    }
    w.u8(g.dev_remaining(s, 0).count() as u8);
    w.u8(g.dev_remaining(s, 1).count() as u8);
    for k in 0..3 {
        let drawn = s.gloc.iter().enumerate().filter(|(i, l)| dt.generals[*i].kingdom as usize == k && **l == GLoc::Drawn).count();
        w.u8((g.general_deck(s, k).count() + drawn) as u8);
    }
    w.u8(s.end_reason);
    let pl = |p: &super::Placement| (p.seat, p.general, p.action, p.unit, p.units, p.gold, p.support, p.han, p.value);
    w.record(PLACEMENTS, &Seq(s.placements.iter().map(pl)));
    w.record(PLACING, &s.cur.as_ref().map(pl));
    let bottoms = s.bottom.iter().map(|deck| Seq(deck.iter().map(move |&(c, seat)| if me == Some(seat as usize) { c + 1 } else { 0 })));
    w.record(BOTTOMS, &Seq(bottoms));
    w.record(DECISION, &decision(s));
    w.record(SCORES, &s.is_over().then(|| g.scores(s)));
}

/// The pending decision as the view envelope shows it (view.rs `decision`), as numbers.
fn decision(s: &State) -> (u8, u8, u8, u8, u16, u8, u8, Seq<impl ExactSizeIterator<Item = u16> + Clone + '_>) {
    let kind = view::pending_index(&s.pending) as u8;
    let seat = if matches!(s.pending, Pending::Over) { NONE } else { s.seat };
    let (mut seat, mut deck, mut left, mut card, mut action, mut bonuses) = (seat, NONE, NONE, u16::MAX, NONE, 0);
    match s.pending {
        Pending::DrawDev { seat: k, deck: x, left: l, .. } => (seat, deck, left) = (k, x, l),
        Pending::DrawGeneral { seat: k, left: l } | Pending::Keep { seat: k, left: l } => (seat, left) = (k, l),
        Pending::Exchange { card: c, .. } | Pending::BonusChoice { card: c, .. } => card = c,
        Pending::ArmyCost { dev } => card = dev.into(),
        Pending::BonusOrder => bonuses = s.bonus_queue.len(),
        Pending::OccupyGeneral { action: a }
        | Pending::Produce { action: a }
        | Pending::Bank { action: a }
        | Pending::DevelopMode { action: a } => action = a,
        _ => {}
    }
    (kind, seat, deck, left, card, action, s.acting, Seq(s.bonus_queue[..bonuses].iter().map(|&(c, _)| c)))
}

/// The bit indices of a three-row plane of `n` bits per seat: bit `k * n + b` for each bit `b`
/// of `f(k)`, seat `k` of three.
fn rows(n: usize, f: impl Fn(usize) -> u64) -> impl Iterator<Item = usize> {
    (0..3).flat_map(move |k| crate::bits::bits(f(k).into()).map(move |b| k * n + b as usize))
}
