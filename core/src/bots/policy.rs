//! Small building blocks of the games' playout policies (`Game::rollout_action` in
//! `games/<id>/bot.rs`). Each answers with one of the actions it is given, as the hook must.

use crate::game::ActionId;
use crate::rng::Rng;

/// `true` with probability `p`.
pub(crate) fn chance(rng: &mut Rng, p: f64) -> bool {
    rng.unit_f64() < p
}

/// A uniform choice among `legal` (never empty).
pub(crate) fn uniform(legal: &[ActionId], rng: &mut Rng) -> ActionId {
    legal[rng.below(legal.len() as u32) as usize]
}

/// `a` when it is among `legal`, else a uniform choice (the search may offer only some of the
/// legal actions).
pub(crate) fn or_any(legal: &[ActionId], a: ActionId, rng: &mut Rng) -> ActionId {
    if legal.contains(&a) {
        a
    } else {
        uniform(legal, rng)
    }
}

/// A uniform choice among the first 64 actions of `legal` that `keep` accepts, or among all of
/// `legal` when it accepts none.
pub(crate) fn among(legal: &[ActionId], rng: &mut Rng, keep: impl Fn(ActionId) -> bool) -> ActionId {
    let mut pick: [ActionId; 64] = [0; 64];
    let mut n = 0;
    for &a in legal {
        if n < pick.len() && keep(a) {
            pick[n] = a;
            n += 1;
        }
    }
    if n == 0 {
        uniform(legal, rng)
    } else {
        pick[rng.below(n as u32) as usize]
    }
}
