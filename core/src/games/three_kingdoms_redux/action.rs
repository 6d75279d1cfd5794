//! The fixed action layout: dense ids in consecutive blocks (G = generals, D = developments,
//! R = regions of the data set; 69 / 42 / 15 with the embedded data).
//!
//! | block | size | meaning |
//! |---|---|---|
//! | DrawGeneral(k) | G | chance: the k-th general left in the drawing kingdom's deck (ascending id) |
//! | DrawDev(k) | D | chance: the k-th card of the unknown part of the deck being drawn (ascending id); `DrawDev(0)` = the next bottom card once the unknown part is empty |
//! | Criterion(c) | 2 | chance: Control Han Emperor's criterion marker (0 administration, 1 combat) |
//! | Keep(g) | G | recruitment: keep drawn general g (secret until the reveal) |
//! | Alliance(a) | 18 | put the alliance token on action a |
//! | Place(g) | G | bidding: place general g |
//! | Target(a) | 18 | bidding: on action a |
//! | Unit(u) | 4 | bidding: assign one unit of type u (infantry, cavalry, archer, navy) |
//! | Gold | 1 | bidding: one gold with the tribal general |
//! | Support | 1 | bidding: one popular support token with the general |
//! | Han | 1 | bidding: the Han Emperor token with the general |
//! | Confirm | 1 | bidding: end the placement turn |
//! | Pass | 1 | bidding: pass for the rest of the round |
//! | Perform(a) | 18 | resolution: perform won action a next |
//! | Decline(a) | 18 | resolution: decline won action a |
//! | Choice(k) | 16 | option k of the pending prompt (see the prompt's text) |
//! | Weapon(w) | 4 | a weapon type (spear, horse, crossbow, ship) |
//! | Dev(d) | D | build / keep development d |
//! | Region(r) | R | occupy region r |
//! | General(g) | G | the occupying general / the general flipped on Control Han Emperor |
//! | Done | 1 | skip this step |

use crate::game::ActionId;

/// Where `legal` lists the actions of the pending decision: a `Vec<Action>`, the encoded ids
/// ([`Encoded`]), their number ([`Count`]), one of them ([`Nth`]) or a membership test
/// ([`Contains`]). The rules code lists without allocating; the caller picks what it needs.
pub(crate) trait Actions {
    fn push(&mut self, a: Action);

    fn extend(&mut self, list: impl IntoIterator<Item = Action>) {
        for a in list {
            self.push(a);
        }
    }
}

impl Actions for Vec<Action> {
    fn push(&mut self, a: Action) {
        Vec::push(self, a);
    }
}

/// Appends the encoded ids.
pub(crate) struct Encoded<'a> {
    pub layout: Layout,
    pub out: &'a mut Vec<ActionId>,
}

impl Actions for Encoded<'_> {
    fn push(&mut self, a: Action) {
        self.out.push(self.layout.encode(a));
    }
}

/// Counts the actions.
#[derive(Default)]
pub(crate) struct Count(pub usize);

impl Actions for Count {
    fn push(&mut self, _: Action) {
        self.0 += 1;
    }
}

/// Keeps the `k`-th action listed (from 0).
pub(crate) struct Nth {
    pub k: usize,
    pub found: Option<Action>,
}

impl Actions for Nth {
    fn push(&mut self, a: Action) {
        if self.k == 0 {
            self.found.get_or_insert(a);
        } else {
            self.k -= 1;
        }
    }
}

/// Whether `want` is listed.
pub(crate) struct Contains {
    pub want: Action,
    pub found: bool,
}

impl Actions for Contains {
    fn push(&mut self, a: Action) {
        self.found |= a == self.want;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    DrawGeneral(u8),
    DrawDev(u8),
    Criterion(u8),
    Keep(u8),
    Alliance(u8),
    Place(u8),
    Target(u8),
    Unit(u8),
    Gold,
    Support,
    Han,
    Confirm,
    Pass,
    Perform(u8),
    Decline(u8),
    Choice(u8),
    Weapon(u8),
    Dev(u8),
    Region(u8),
    General(u8),
    Done,
}

pub const CHOICES: u32 = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub g: u32,
    pub d: u32,
    pub r: u32,
}

impl Layout {
    fn blocks(&self) -> [u32; 21] {
        [self.g, self.d, 2, self.g, 18, self.g, 18, 4, 1, 1, 1, 1, 1, 18, 18, CHOICES, 4, self.d, self.r, self.g, 1]
    }

    pub fn num_actions(&self) -> u32 {
        self.blocks().iter().sum()
    }

    pub fn encode(&self, a: Action) -> ActionId {
        let (block, k) = match a {
            Action::DrawGeneral(x) => (0, x as u32),
            Action::DrawDev(x) => (1, x as u32),
            Action::Criterion(x) => (2, x as u32),
            Action::Keep(x) => (3, x as u32),
            Action::Alliance(x) => (4, x as u32),
            Action::Place(x) => (5, x as u32),
            Action::Target(x) => (6, x as u32),
            Action::Unit(x) => (7, x as u32),
            Action::Gold => (8, 0),
            Action::Support => (9, 0),
            Action::Han => (10, 0),
            Action::Confirm => (11, 0),
            Action::Pass => (12, 0),
            Action::Perform(x) => (13, x as u32),
            Action::Decline(x) => (14, x as u32),
            Action::Choice(x) => (15, x as u32),
            Action::Weapon(x) => (16, x as u32),
            Action::Dev(x) => (17, x as u32),
            Action::Region(x) => (18, x as u32),
            Action::General(x) => (19, x as u32),
            Action::Done => (20, 0),
        };
        self.blocks()[..block].iter().sum::<u32>() + k
    }

    pub fn decode(&self, id: ActionId) -> Option<Action> {
        let mut base = 0;
        for (block, size) in self.blocks().iter().enumerate() {
            if id < base + size {
                let k = (id - base) as u8;
                return Some(match block {
                    0 => Action::DrawGeneral(k),
                    1 => Action::DrawDev(k),
                    2 => Action::Criterion(k),
                    3 => Action::Keep(k),
                    4 => Action::Alliance(k),
                    5 => Action::Place(k),
                    6 => Action::Target(k),
                    7 => Action::Unit(k),
                    8 => Action::Gold,
                    9 => Action::Support,
                    10 => Action::Han,
                    11 => Action::Confirm,
                    12 => Action::Pass,
                    13 => Action::Perform(k),
                    14 => Action::Decline(k),
                    15 => Action::Choice(k),
                    16 => Action::Weapon(k),
                    17 => Action::Dev(k),
                    18 => Action::Region(k),
                    19 => Action::General(k),
                    _ => Action::Done,
                });
            }
            base += size;
        }
        None
    }
}
