//! Bot knowledge for the search bots (crate::bots): the static evaluation and the playout
//! depth behind the `Game` hooks `evaluate` and `playout_depth`.
//!
//! A playout makes [`PLAYOUT_DEPTH`] uniform actions after the search tree, then scores the
//! position by the majority rule (7) over the figures each seat has captured and the
//! figures each seat's influence leads for now (3.2-3.3). Most Samurai playouts are
//! longer than that (a game is some 110 actions, draws included), so this both cuts their
//! cost and replaces the noise of their last placements, random and often handing figures
//! to whoever they happen to favour, with the standing of the board.
//!
//! Measured and not kept: a playout policy that plays the captures it sees and avoids the
//! placements that hand figures to others (also as a tournament of 4 uniform draws scored by
//! the figures a placement influences) won no more games of IS-MCTS against flat Monte Carlo
//! than uniform playouts.
//!
//! The evaluation only steers the search: it stays within the utility range (winners share
//! 1, the others 0). It reads the whole state of a determinization (the captured figures
//! behind the screens), never a real state's secrets (the search calls it on determinized
//! states only).

use super::capture::influence;
use super::scoring::winners;
use super::state::State;
use super::Samurai;

/// Actions a playout makes after the search tree before the evaluation scores the position:
/// a turn or two of every seat with their refills. In the duels of IS-MCTS against flat Monte
/// Carlo (2-4 players) depth 20 won more games than 10, 40 or 80.
pub const PLAYOUT_DEPTH: u32 = 20;

impl Samurai {
    /// The static evaluation (7): the majority rule over twice the figures captured so far
    /// plus, for each figure still on the board, one for the seat whose influence strictly
    /// leads at its settlement now (3.3; ties lead for nobody, 3.4), so that a captured
    /// figure weighs more than a leaning one. Winners share 1, the others 0, as at the end
    /// (7.2-7.5).
    pub(super) fn bot_evaluate(&self, s: &State, out: &mut [f64]) -> bool {
        let mut figs = [[0u8; 3]; 4];
        for (mine, captured) in figs.iter_mut().zip(&s.captured).take(self.n) {
            for (fig, &c) in mine.iter_mut().zip(captured) {
                *fig = c.saturating_mul(2);
            }
        }
        for &st in &self.settlements {
            let st = st as usize;
            for f in 0..3u8 {
                if s.figures[st] & (1 << f) == 0 {
                    continue;
                }
                let infl = influence(self, s, st, f);
                let top = *infl[..self.n].iter().max().expect("two seats or more");
                let mut leaders = (0..self.n).filter(|&p| infl[p] == top);
                if let (Some(p), None) = (leaders.next(), leaders.next()) {
                    figs[p][f as usize] = figs[p][f as usize].saturating_add(1);
                }
            }
        }
        let (won, _) = winners(&figs[..self.n]);
        let share = 1.0 / won.count_ones() as f64;
        for (p, o) in out.iter_mut().enumerate() {
            *o = if won & (1 << p) != 0 { share } else { 0.0 };
        }
        true
    }
}
