//! The fixed action layout: dense ids, verb by verb (sizes from the component data).
//!
//! | range | verb | meaning |
//! |---|---|---|
//! | `Draw(c)` | chance | card `c` is drawn (R 4.1) |
//! | `Die(n)` | chance | a die shows `n` (1-6): combat, strategic move, 調略 |
//! | `Place(k)` | East, set-up | the next 外様主力 counter goes to set-up hex `k` (R 3.0(1)①) |
//! | `Pass` | any | end this step: no (more) commanders act, no 調略 |
//! | `Commander(u)` | card owner | commander `u` acts (R 5.1) |
//! | `Act(k)` | card owner | move / strategic move / attack / recover / march / hold (R 5.1(1)) |
//! | `Select(u)` | card owner | unit `u` joins the commander's group (R 6.1, 7.1(1), 8.0) |
//! | `Done` | card owner | the group is complete / the move stops here |
//! | `Step(d)` | card owner | the group moves one hex in direction `d` (N, NE, SE, S, SW, NW) |
//! | `Target(d)` | card owner | attack the adjacent hex in direction `d` (R 7.1) |
//! | `Hit(u)` | side hit | unit `u` takes the next hit (R 7.1(4)) |
//! | `Advance` / `Stay` | attacker | advance after combat or not (R 7.3) |
//! | `Marker(t)` | card owner | the card's marker move applies to 戦意 track `t` |
//! | `Chouryaku(h)` | card owner | 調略判定 against hex `h` (R 12.1) |
//! | `Intimidate(h)` | card owner | 恫喝判定 against hex `h` (R 12.2) |

use crate::game::ActionId;

pub const ACT_MOVE: u8 = 0;
pub const ACT_STRATEGIC: u8 = 1;
pub const ACT_ATTACK: u8 = 2;
pub const ACT_RECOVER: u8 = 3;
pub const ACT_MARCH: u8 = 4;
pub const ACT_HOLD: u8 = 5;
pub const ACT_NAMES: [&str; 6] = ["move", "strategic_move", "attack", "recover", "march", "hold"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Draw(u8),
    Die(u8),
    Place(u8),
    Pass,
    Commander(u8),
    Act(u8),
    Select(u8),
    Done,
    Step(u8),
    Target(u8),
    Hit(u8),
    Advance,
    Stay,
    Marker(u8),
    Chouryaku(u16),
    Intimidate(u16),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    cards: u32,
    slots: u32,
    units: u32,
    tracks: u32,
    hexes: u32,
}

impl Layout {
    pub fn new(cards: usize, slots: usize, units: usize, tracks: usize, hexes: usize) -> Layout {
        Layout { cards: cards as u32, slots: slots as u32, units: units as u32, tracks: tracks as u32, hexes: hexes as u32 }
    }

    fn bases(&self) -> [u32; 17] {
        let sizes =
            [self.cards, 6, self.slots, 1, self.units, 6, self.units, 1, 6, 6, self.units, 1, 1, self.tracks, self.hexes, self.hexes];
        let mut b = [0u32; 17];
        for i in 0..16 {
            b[i + 1] = b[i] + sizes[i];
        }
        b
    }

    pub fn num_actions(&self) -> u32 {
        self.bases()[16]
    }

    pub fn encode(&self, a: Action) -> ActionId {
        let b = self.bases();
        match a {
            Action::Draw(c) => b[0] + c as u32,
            Action::Die(n) => b[1] + n as u32 - 1,
            Action::Place(k) => b[2] + k as u32,
            Action::Pass => b[3],
            Action::Commander(u) => b[4] + u as u32,
            Action::Act(k) => b[5] + k as u32,
            Action::Select(u) => b[6] + u as u32,
            Action::Done => b[7],
            Action::Step(d) => b[8] + d as u32,
            Action::Target(d) => b[9] + d as u32,
            Action::Hit(u) => b[10] + u as u32,
            Action::Advance => b[11],
            Action::Stay => b[12],
            Action::Marker(t) => b[13] + t as u32,
            Action::Chouryaku(h) => b[14] + h as u32,
            Action::Intimidate(h) => b[15] + h as u32,
        }
    }

    pub fn decode(&self, id: ActionId) -> Option<Action> {
        let b = self.bases();
        if id >= b[16] {
            return None;
        }
        let k = (0..16).rev().find(|&k| id >= b[k] && b[k + 1] > b[k])?;
        let o = id - b[k];
        Some(match k {
            0 => Action::Draw(o as u8),
            1 => Action::Die(o as u8 + 1),
            2 => Action::Place(o as u8),
            3 => Action::Pass,
            4 => Action::Commander(o as u8),
            5 => Action::Act(o as u8),
            6 => Action::Select(o as u8),
            7 => Action::Done,
            8 => Action::Step(o as u8),
            9 => Action::Target(o as u8),
            10 => Action::Hit(o as u8),
            11 => Action::Advance,
            12 => Action::Stay,
            13 => Action::Marker(o as u8),
            14 => Action::Chouryaku(o as u16),
            _ => Action::Intimidate(o as u16),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips() {
        let l = Layout::new(16, 4, 84, 4, 550);
        for id in 0..l.num_actions() {
            let a = l.decode(id).unwrap();
            assert_eq!(l.encode(a), id, "{a:?}");
        }
        assert_eq!(l.decode(l.num_actions()), None);
        assert_eq!(l.num_actions(), 16 + 6 + 4 + 1 + 84 + 6 + 84 + 1 + 6 + 6 + 84 + 2 + 4 + 1100);
    }
}
