//! Random rollouts for search code: play a state to the end with uniformly random legal
//! actions, on the typed state (no action log grows), and report the returns.

use crate::events::Events;
use crate::game::{ActionId, Game, CHANCE, TERMINAL};
use crate::rng::Rng;

/// Scratch space of a rollout, reused between rollouts.
#[derive(Default)]
pub(crate) struct Scratch {
    legal: Vec<ActionId>,
    outcomes: Vec<(ActionId, f64)>,
}

/// Plays `s` to the end: players' actions uniformly among the legal ones, chance outcomes by
/// their probabilities, both drawn from `rng` (never from the state's own generator, so
/// rollouts from one state under different seeds see different chance outcomes). Writes the
/// returns into `out` (`num_players` elements).
pub(crate) fn play_out<G: Game>(rules: &G, mut s: G::State, rng: &mut Rng, scratch: &mut Scratch, out: &mut [f64]) {
    loop {
        let a = match rules.current_player(&s) {
            TERMINAL => break,
            CHANCE => {
                scratch.outcomes.clear();
                rules.chance_outcomes(&s, &mut scratch.outcomes);
                let x = rng.unit_f64();
                let mut acc = 0.0;
                let mut pick = scratch.outcomes.last().expect("a chance node has outcomes").0;
                for &(a, p) in &scratch.outcomes {
                    acc += p;
                    if x < acc {
                        pick = a;
                        break;
                    }
                }
                pick
            }
            _ => {
                scratch.legal.clear();
                rules.legal_actions(&s, &mut scratch.legal);
                scratch.legal[rng.below(scratch.legal.len() as u32) as usize]
            }
        };
        rules.apply(&mut s, a, &mut Events::off());
    }
    for (o, r) in out.iter_mut().zip(rules.returns(&s)) {
        *o = r;
    }
}

/// `n` rollouts from `s`, the `k`-th drawing from `Rng::from_seed(seed)` after the first `k`
/// (one generator for all, so the result is one pure function of `seed`). `out` holds
/// `n × num_players` returns, row by row.
pub(crate) fn play_outs<G: Game>(rules: &G, s: &G::State, seed: u64, n: usize, out: &mut [f64]) {
    let players = rules.num_players();
    let mut rng = Rng::from_seed(seed);
    let mut scratch = Scratch::default();
    for row in out.chunks_mut(players).take(n) {
        play_out(rules, s.clone(), &mut rng, &mut scratch, row);
    }
}
