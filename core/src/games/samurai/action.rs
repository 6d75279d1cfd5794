//! The action ids: a small verb + noun vocabulary in fixed blocks.
//!
//! With `T` tokens per player and `H` hexes (20 and 174 with the embedded data):
//!
//! | block | ids | meaning |
//! |---|---|---|
//! | keep | `t` | setup 4.2: keep token t behind the screen |
//! | place figure | `T + f*H + h` | setup 4.5-4.7: put a figure of type f on the settlement at hex h |
//! | place token | `T + 3H + t*H + h` | 5.2: place token t on hex h (also the re-placement of a token exchange) |
//! | swap figure | `T + 3H + TH + f*H + h` | 2.4 figure exchange: choose the figure of type f at hex h (first, then second) |
//! | pick up | `T + 6H + TH + h` | 2.4 token exchange: pick up the own token at hex h |
//! | end turn | `T + 7H + TH` | end the turn (or pass when nothing can be played) |
//! | draw | `T + 7H + TH + 1 + t` | chance outcome 5.5: token t comes from the stack |

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Keep { token: u8 },
    PlaceFigure { figure: u8, hex: u8 },
    PlaceToken { token: u8, hex: u8 },
    SwapFigure { figure: u8, hex: u8 },
    PickUp { hex: u8 },
    EndTurn,
    Draw { token: u8 },
}

/// The block boundaries for one data set.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub tokens: u32,
    pub hexes: u32,
}

impl Layout {
    fn place_figure(&self) -> u32 {
        self.tokens
    }
    fn place_token(&self) -> u32 {
        self.place_figure() + 3 * self.hexes
    }
    fn swap_figure(&self) -> u32 {
        self.place_token() + self.tokens * self.hexes
    }
    fn pick_up(&self) -> u32 {
        self.swap_figure() + 3 * self.hexes
    }
    fn end_turn(&self) -> u32 {
        self.pick_up() + self.hexes
    }
    fn draw(&self) -> u32 {
        self.end_turn() + 1
    }

    pub fn num_actions(&self) -> u32 {
        self.draw() + self.tokens
    }

    pub fn encode(&self, a: Action) -> u32 {
        match a {
            Action::Keep { token } => token as u32,
            Action::PlaceFigure { figure, hex } => self.place_figure() + figure as u32 * self.hexes + hex as u32,
            Action::PlaceToken { token, hex } => self.place_token() + token as u32 * self.hexes + hex as u32,
            Action::SwapFigure { figure, hex } => self.swap_figure() + figure as u32 * self.hexes + hex as u32,
            Action::PickUp { hex } => self.pick_up() + hex as u32,
            Action::EndTurn => self.end_turn(),
            Action::Draw { token } => self.draw() + token as u32,
        }
    }

    /// The action of an id, or None when the id is out of range.
    pub fn decode(&self, id: u32) -> Option<Action> {
        let h = self.hexes;
        let split = |x: u32| ((x / h) as u8, (x % h) as u8);
        Some(if id < self.place_figure() {
            Action::Keep { token: id as u8 }
        } else if id < self.place_token() {
            let (figure, hex) = split(id - self.place_figure());
            Action::PlaceFigure { figure, hex }
        } else if id < self.swap_figure() {
            let (token, hex) = split(id - self.place_token());
            Action::PlaceToken { token, hex }
        } else if id < self.pick_up() {
            let (figure, hex) = split(id - self.swap_figure());
            Action::SwapFigure { figure, hex }
        } else if id < self.end_turn() {
            Action::PickUp { hex: (id - self.pick_up()) as u8 }
        } else if id == self.end_turn() {
            Action::EndTurn
        } else if id < self.num_actions() {
            Action::Draw { token: (id - self.draw()) as u8 }
        } else {
            return None;
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips() {
        let l = Layout { tokens: 20, hexes: 174 };
        assert_eq!(l.num_actions(), 20 + 7 * 174 + 20 * 174 + 1 + 20);
        for id in 0..l.num_actions() {
            assert_eq!(l.encode(l.decode(id).unwrap()), id);
        }
        assert_eq!(l.decode(l.num_actions()), None);
    }
}
