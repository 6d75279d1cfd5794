//! Bot knowledge for the search bots (crate::bots): the playout policy and the static
//! evaluation behind the `Game` hooks `rollout_action`, `evaluate` and `playout_depth`.
//!
//! A game runs to some 575 decisions of small prompt steps over up to 12 rounds (§6, §11),
//! so playouts to the end are slow and, played uniformly, mostly noise. A playout here makes
//! a few dozen actions with a policy that avoids the obviously wasteful choices, then scores
//! the position as if the game ended now (§11) and turns the score margins into an expected
//! return.
//!
//! These functions only steer the search: whatever they return, the search stays correct
//! (the policy always answers with one of the legal actions, the evaluation stays within the
//! utility range). They read the whole state of a determinization, never a real state's
//! secrets (the search calls them on determinized states only).

use super::action::Action;
use super::state::State;
use super::Tkr;
use crate::game::ActionId;
use crate::rng::Rng;

/// Actions a playout makes after the search tree before the evaluation scores the position:
/// a few bidding turns or the resolution of several actions (a round is about 50 decisions),
/// long enough for the actions the tree chose to show in the tracks the evaluation reads.
pub const PLAYOUT_DEPTH: u32 = 40;

/// Victory points worth a factor e in the odds of winning (a logistic scale over the margin
/// to the best other seat). The §11 categories move in steps of 1-5 points (rankings 5/2/0,
/// borders, tribal bonus 1-4), and an end score margin of a handful of points is usually
/// decisive, so a 4-point lead counts as a clear but not certain win.
const VP_SCALE: f64 = 4.0;

/// Out of this many playout moves, a "give up" choice (below) is made only when drawn
/// uniformly; otherwise the policy draws among the other legal actions.
const KEEP_GIVE_UP: u32 = 8;

impl Tkr {
    /// The playout policy: uniform over the legal actions, except that the choices that give
    /// something up are made only one time in [`KEEP_GIVE_UP`] when something else is legal:
    /// - `Pass` in the bidding (§7 3): passing ends the seat's bidding for the whole round,
    ///   leaving every action it has not yet bid on to the others; a uniform playout passes
    ///   with the same weight as placing any one general, and so gives away most rounds.
    /// - `Decline(a)` in the resolution (§8 3, C26): an action won at the price of a general
    ///   and tokens placed on it, then not performed.
    /// - `Done` (skip the step): building a development in hand (VP and abilities, §8 3),
    ///   importing technology, hiring an instructor, and the other optional steps are
    ///   usually worth taking once the action was won.
    pub(super) fn bot_rollout_action(&self, _s: &State, legal: &[ActionId], rng: &mut Rng) -> ActionId {
        let pick = legal[rng.below(legal.len() as u32) as usize];
        if legal.len() == 1 || !self.gives_up(pick) || rng.below(KEEP_GIVE_UP) == 0 {
            return pick;
        }
        let kept = legal.iter().filter(|&&a| !self.gives_up(a)).count();
        if kept == 0 {
            return pick;
        }
        let k = rng.below(kept as u32) as usize;
        *legal.iter().filter(|&&a| !self.gives_up(a)).nth(k).expect("k < kept")
    }

    /// `Pass`, `Decline(_)` or `Done` (their ids, without decoding).
    fn gives_up(&self, a: ActionId) -> bool {
        let l = &self.layout;
        let decline = l.encode(Action::Decline(0));
        a == l.encode(Action::Pass) || a == l.encode(Action::Done) || (decline..decline + 18).contains(&a)
    }

    /// The static evaluation: the §11 final score of each seat as if the game ended now
    /// (military track, borders, region tokens, the three rankings, tribal bonus, office, the
    /// Han Emperor token, developments, deficits: `scores`), plus the §11 tie-break (gold +
    /// rice) as a fraction of a point. A seat's chance to win is a softmax of these totals
    /// over [`VP_SCALE`], and its expected return under the T30 utility (winner +1, the
    /// others -1/2) is `1.5 p - 0.5`, which stays within [-0.5, 1] and sums to 0.
    pub(super) fn bot_evaluate(&self, s: &State, out: &mut [f64]) -> bool {
        let scores = self.scores(s);
        let v: [f64; 3] = std::array::from_fn(|k| {
            let p = &s.seats[k];
            scores[k].total as f64 + ((p.gold + p.rice).clamp(0, 99) as f64) / 100.0
        });
        let top = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let w: [f64; 3] = std::array::from_fn(|k| ((v[k] - top) / VP_SCALE).exp());
        let sum: f64 = w.iter().sum();
        for k in 0..3 {
            out[k] = 1.5 * (w[k] / sum) - 0.5;
        }
        true
    }
}
