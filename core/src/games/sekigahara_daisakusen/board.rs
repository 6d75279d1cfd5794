//! Counters on the board, castles and 京 (10.0), the 調略 and 戦意 tracks (11.0) and the
//! immediate victories (14.0).

use std::fmt::Display;

use serde_json::json;

use super::data::{Faction, Kind, EAST, NONE, SIDES, WEST};
use super::state::{bit, Pending, State, DEAD, TRACK};
use super::Daisakusen;
use crate::events::{event, Audience, Events};

impl Daisakusen {
    pub fn unit_name(&self, u: u8) -> String {
        let c = &self.data.counters[u as usize];
        format!("{} {}", c.id, c.name)
    }

    /// A unit as [`Self::unit_name`] names it ("E13 福島正則"), with the romanized name of a
    /// commander that has one after it ("E13 福島正則 (Fukushima Masanori)"): what the log
    /// and the moves show a reader.
    pub fn unit_label(&self, unit_name: &str) -> String {
        let id = unit_name.split(' ').next().unwrap_or("");
        match self.data.counters.iter().find(|c| c.id == id && !c.romaji.is_empty()) {
            Some(c) => format!("{unit_name} ({})", c.romaji),
            None => unit_name.to_string(),
        }
    }

    pub fn hex_name(&self, h: u16) -> String {
        let hx = &self.data.hexes[h as usize];
        if hx.castle != NONE {
            format!("{} {}", hx.id, self.data.castles[hx.castle as usize].name)
        } else if hx.kyoto {
            format!("{} 京", hx.id)
        } else {
            hx.id.clone()
        }
    }

    // === 5.2 戦意 ===

    /// The 戦意 track a commander uses now, if any (R 5.2): turned West → 西軍諸将 (R
    /// 5.2(2)③), turned East → none (fixed 1, R 5.2(1)③). INTERPRETATION (RULES_NOTES.md D16).
    pub fn track_of(&self, s: &State, u: u8) -> Option<u8> {
        let c = &self.data.counters[u as usize];
        let side = s.units[u as usize].side;
        if side == c.side {
            (c.track != NONE).then_some(c.track)
        } else if side == WEST {
            Some(self.shosho_track)
        } else {
            None
        }
    }

    pub fn morale_of(&self, s: &State, u: u8) -> u8 {
        let c = &self.data.counters[u as usize];
        if s.units[u as usize].side != c.side && s.units[u as usize].side == EAST {
            return 1;
        }
        match self.track_of(s, u) {
            Some(t) => self.data.morale_tracks[t as usize].values[s.morale[t as usize] as usize],
            None => c.morale,
        }
    }

    pub fn track_value(&self, s: &State, t: u8) -> u8 {
        self.data.morale_tracks[t as usize].values[s.morale[t as usize] as usize]
    }

    // === occupancy and ZOC (6.3) ===

    pub fn has_zoc(&self, u: u8) -> bool {
        self.data.counters[u as usize].kind != Kind::Special
    }

    pub fn on_map(loc: u16) -> bool {
        loc < TRACK
    }

    pub fn rebuild_occupancy(&self, s: &mut State) {
        let n = self.data.hexes.len();
        s.occ = vec![[0, 0]; n];
        s.zoc = vec![[0, 0]; n];
        for u in 0..s.units.len() {
            let x = s.units[u];
            if Self::on_map(x.loc) {
                s.occ[x.loc as usize][x.side as usize] += 1;
                if self.has_zoc(u as u8) {
                    s.zoc[x.loc as usize][x.side as usize] += 1;
                }
            }
        }
    }

    fn leave(&self, s: &mut State, u: u8) {
        let x = s.units[u as usize];
        if Self::on_map(x.loc) {
            s.occ[x.loc as usize][x.side as usize] -= 1;
            if self.has_zoc(u) {
                s.zoc[x.loc as usize][x.side as usize] -= 1;
            }
        }
    }

    fn arrive(&self, s: &mut State, u: u8) {
        let x = s.units[u as usize];
        if Self::on_map(x.loc) {
            s.occ[x.loc as usize][x.side as usize] += 1;
            if self.has_zoc(u) {
                s.zoc[x.loc as usize][x.side as usize] += 1;
            }
        }
    }

    pub fn relocate(&self, s: &mut State, u: u8, loc: u16) {
        self.leave(s, u);
        s.units[u as usize].loc = loc;
        self.arrive(s, u);
    }

    pub fn set_side(&self, s: &mut State, u: u8, side: u8, faction: Faction) {
        self.leave(s, u);
        s.units[u as usize].side = side;
        s.units[u as usize].faction = faction;
        self.arrive(s, u);
    }

    pub fn castle_alive(&self, s: &State, h: u16) -> bool {
        let c = self.data.hexes[h as usize].castle;
        c != NONE && s.castle_alive & (1 << c) != 0
    }

    pub fn castle_owner(&self, s: &State, c: u8) -> u8 {
        if s.castle_west & (1 << c) != 0 {
            WEST
        } else {
            EAST
        }
    }

    /// Whether hex `h` lies in the ZOC of `side`'s enemies (R 6.3, 10.0(1), 13.0(4)):
    /// never an all-sea hex or a castle hex that still works as a castle; the six neighbours
    /// are in it across any hexside, all-sea ones included (INTERPRETATION (RULES_NOTES.md D6)).
    pub fn enemy_zoc(&self, s: &State, h: u16, side: u8) -> bool {
        let hx = &self.data.hexes[h as usize];
        if !hx.passable() || self.castle_alive(s, h) {
            return false;
        }
        let e = (1 - side) as usize;
        if s.zoc[h as usize][e] > 0 {
            return true;
        }
        (0..6).any(|d| {
            let n = hx.nb[d];
            n != super::data::NO_HEX && s.zoc[n as usize][e] > 0
        })
    }

    pub fn side_mask_at(s: &State, h: u16, side: u8) -> u128 {
        let mut m = 0;
        for (u, x) in s.units.iter().enumerate() {
            if x.loc == h && x.side == side {
                m |= bit(u as u8);
            }
        }
        m
    }

    // === 11.0 the tracks ===

    /// Moves one 戦意 marker `n` boxes toward `toward`; it stops at the ends (R 11.0(4)).
    pub fn move_marker(&self, s: &mut State, t: u8, toward: u8, n: u8, why: &dyn Display, ev: &mut Events) {
        let len = self.data.morale_tracks[t as usize].values.len() as i32;
        let cur = s.morale[t as usize] as i32;
        let next = if toward == EAST { (cur - n as i32).max(0) } else { (cur + n as i32).min(len - 1) };
        s.morale[t as usize] = next as u8;
        if next != cur {
            ev.emit(Audience::ALL, || {
                event!({"kind": "morale", "track": self.data.morale_tracks[t as usize].name, "toward": SIDES[toward as usize], "from": cur, "to": next, "value": self.data.morale_tracks[t as usize].values[next as usize], "why": why.to_string()})
            });
            self.note_hideyori_release(s, ev);
        }
    }

    /// Moves the 調略 marker and every 戦意 marker `n` boxes toward `toward` (R 11.0(1),
    /// 12.2(3)); the 調略 marker entering a victory box wins at once (R 14.0(3)).
    pub fn move_all(&self, s: &mut State, toward: u8, n: u8, why: &dyn Display, ev: &mut Events) {
        if n == 0 || s.pending == Pending::Over {
            return;
        }
        let last = self.data.chouryaku_labels.len() as i32 - 1;
        let cur = s.chouryaku as i32;
        let next = if toward == EAST { (cur - n as i32).max(0) } else { (cur + n as i32).min(last) };
        s.chouryaku = next as u8;
        ev.emit(Audience::ALL, || {
            event!({"kind": "chouryaku", "toward": SIDES[toward as usize], "from": self.data.chouryaku_labels[cur as usize], "to": self.data.chouryaku_labels[next as usize], "why": why.to_string()})
        });
        for t in 0..self.data.morale_tracks.len() as u8 {
            self.move_marker(s, t, toward, n, why, ev);
        }
        self.note_hideyori_release(s, ev);
        if next == 0 {
            self.game_over(s, EAST, "the 調略 marker reached 東軍勝利 (R 14.0(3))", ev);
        } else if next == last {
            self.game_over(s, WEST, "the 調略 marker reached 西軍勝利 (R 14.0(3))", ev);
        }
    }

    // === 14.0 victory ===

    pub fn game_over(&self, s: &mut State, winner: u8, why: &'static str, ev: &mut Events) {
        if s.pending == Pending::Over {
            return;
        }
        s.pending = Pending::Over;
        s.winner = winner;
        s.fight = None;
        ev.emit(
            Audience::ALL,
            || event!({"kind": "game_over", "winner": if winner < 2 { json!(SIDES[winner as usize]) } else { json!(null) }, "why": why}),
        );
    }

    /// Removes a counter from the map (R 7.1(4)②, 12.1(3), 13.0(4)); a commander moves every
    /// marker toward the side that removed it (R 11.0(1)①); 家康, 石田三成 and 豊臣秀頼 end the
    /// game (R 14.0(1)(2)).
    pub fn eliminate(&self, s: &mut State, u: u8, by: u8, why: &'static str, ev: &mut Events) {
        let from = s.units[u as usize].loc;
        self.relocate(s, u, DEAD);
        s.group &= !bit(u);
        ev.emit(Audience::ALL, || event!({"kind": "eliminated", "unit": self.unit_name(u), "hex": if Self::on_map(from) { json!(self.data.hexes[from as usize].id) } else { json!(null) }, "why": why}));
        if u == self.data.ieyasu {
            self.game_over(s, WEST, "徳川家康 was removed (R 14.0(1))", ev);
        } else if u == self.data.ishida || u == self.data.hideyori {
            self.game_over(s, EAST, "石田三成 or 豊臣秀頼 was removed (R 14.0(2))", ev);
        }
        if self.data.counters[u as usize].kind == Kind::Commander {
            self.move_all(s, by, self.data.mv_commander, &"enemy commander removed (R 11.0(1)①)", ev);
        }
    }

    // === 10.0 castles, 11.0(1)④ 京 ===

    /// `side` takes the castle at `h` (R 10.0(2)-(5), 11.0(1)③): by defection it keeps
    /// working as a castle, otherwise it stops (R 10.0(4)). INTERPRETATION (RULES_NOTES.md D13).
    pub fn take_castle(&self, s: &mut State, h: u16, side: u8, by_defection: bool, ev: &mut Events) {
        let c = self.data.hexes[h as usize].castle;
        if c == NONE || self.castle_owner(s, c) == side {
            return;
        }
        if side == WEST {
            s.castle_west |= 1 << c;
        } else {
            s.castle_west &= !(1 << c);
        }
        if !by_defection {
            s.castle_alive &= !(1 << c);
        }
        let castle = &self.data.castles[c as usize];
        ev.emit(Audience::ALL, || event!({"kind": "castle_taken", "castle": castle.name, "hex": self.data.hexes[h as usize].id, "by": SIDES[side as usize], "by_defection": by_defection}));
        let n = if castle.double { self.data.mv_double_castle } else { self.data.mv_castle };
        self.move_all(s, side, n, &"enemy castle taken (R 11.0(1)③)", ev);
    }

    /// A move of `side` ended at `h`: 京 changes hands (R 11.0(1)④). INTERPRETATION (RULES_NOTES.md D14).
    pub fn end_move_at(&self, s: &mut State, h: u16, side: u8, ev: &mut Events) {
        if h == self.data.kyoto && s.kyoto_owner != side {
            s.kyoto_owner = side;
            ev.emit(Audience::ALL, || event!({"kind": "kyoto_taken", "by": SIDES[side as usize]}));
            self.move_all(s, side, self.data.mv_kyoto, &"京 taken from the enemy (R 11.0(1)④)", ev);
        }
    }

    /// 秀頼 left 大坂: 秀頼出陣 joins the deck (R 4.2②, 13.0(2)).
    pub fn check_hideyori(&self, s: &mut State, ev: &mut Events) {
        let loc = s.units[self.data.hideyori as usize].loc;
        if !s.hideyori_left && Self::on_map(loc) && loc != self.data.osaka {
            s.hideyori_left = true;
            for (i, c) in self.data.cards.iter().enumerate() {
                if c.enters == super::data::Enters::HideyoriLeaves {
                    s.deck |= 1 << i;
                    ev.emit(Audience::ALL, || event!({"kind": "card_enters_deck", "card": c.name}));
                }
            }
        }
    }

    /// R 13.0(1) "毛利辉元战意在 1 以上，西军侧栏中有调略标记的场合": the condition for 秀頼 to
    /// leave 大坂.
    pub(crate) fn hideyori_condition(&self, s: &State) -> bool {
        self.track_value(s, self.data.terumoto_track) >= 1 && self.data.chouryaku_side[s.chouryaku as usize] == WEST
    }

    /// R 13.0(1) "游戏开始一直到满足条件为止，期间丰臣秀赖不得离开大阪城": 秀頼 is held in 大坂
    /// only until the condition is first met; after that he may leave whatever the markers
    /// show. INTERPRETATION (RULES_NOTES.md D18).
    pub fn hideyori_may_leave(&self, s: &State) -> bool {
        s.hideyori_released || self.hideyori_condition(s)
    }

    /// Records that the condition of R 13.0(1) holds (after any marker move).
    pub fn note_hideyori_release(&self, s: &mut State, ev: &mut Events) {
        if !s.hideyori_released && self.hideyori_condition(s) {
            s.hideyori_released = true;
            ev.emit(
                Audience::ALL,
                || event!({"kind": "hideyori_released", "why": "毛利輝元's 戦意 ≥ 1 with the 調略 marker on the West side (R 13.0(1))"}),
            );
        }
    }
}
