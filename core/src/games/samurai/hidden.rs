//! Determinization by sampled history ([`crate::Game::resample_history`]).
//!
//! What a seat cannot see of another seat p (4.2, 4.3, 5.5): which tokens p kept at setup and
//! which it drew at each refill. Everything else is public: every token p plays is shown when
//! it is played (5.2), the figures and the board are open, captured figures follow from the
//! board (3.1-3.3), and at the end the screens are lifted (7.1) so p's last hand is shown too.
//!
//! So the sample keeps every action as it was, except p's keeps and draws ("acquisitions"),
//! which it deals anew: each acquisition gets one of p's 20 tokens, such that
//! - every token p played later was acquired before it was played;
//! - p's hand at each of its passes held nothing playable (N9: a pass is legal only then);
//! - at the game's end, p's hand is the one shown (7.1);
//!
//! going through the acquisitions in order and drawing each uniformly among the tokens that
//! still allow the rest to be dealt (a bipartite matching of acquisitions to tokens decides
//! that). Only observer-visible facts enter (where p acquired, what and when p played, the
//! board at p's passes, the revealed last hand) and they are read in history order, so two
//! histories the observer cannot tell apart give the same sample for the same RNG. The
//! observer's own keeps and draws are kept: it saw them.
//!
//! Identical tokens (N14) enter and leave a hand in index order, so the dealt tokens are
//! turned into the keep and draw actions of their kind, and p's plays keep their ids.

use super::action::Action;
use super::state::{Pending, Phase};
use super::{bits, turn, Samurai};
use crate::events::Events;
use crate::game::{ActionId, Game, Player};
use crate::rng::Rng;

/// What the observer sees of one seat's hand over the game.
#[derive(Clone, Debug, Default)]
struct Timeline {
    /// History indices of the seat's keeps (4.2) and draws (5.5), ascending.
    acquisitions: Vec<usize>,
    /// Per token: the history index at which the seat played it from its hand, if it did.
    played_at: Vec<Option<usize>>,
    /// The seat's passes (N9): history index and the tokens that would have been playable then.
    passes: Vec<(usize, u32)>,
}

pub fn resample_history(g: &Samurai, history: &[ActionId], observer: Player, rng: &mut Rng) -> Vec<ActionId> {
    let nt = g.data().tokens.len();
    let mut lines = vec![Timeline { played_at: vec![None; nt], ..Timeline::default() }; g.n];
    let mut s = g.new_initial_state(0);
    for (i, &a) in history.iter().enumerate() {
        let seat = s.seat as usize;
        let line = &mut lines[seat];
        match (s.phase, g.decode(a)) {
            (Phase::ChooseTokens, _) | (Phase::Refill, _) => line.acquisitions.push(i),
            (Phase::Play, Some(Action::PlaceToken { token, .. })) if s.turn.pending == Pending::None => {
                line.played_at[token as usize] = Some(i)
            }
            (Phase::Play, Some(Action::SwapFigure { .. })) if s.turn.pending == Pending::None => {
                line.played_at[g.data().figure_swap as usize] = Some(i)
            }
            (Phase::Play, Some(Action::PickUp { .. })) => line.played_at[g.data().token_swap as usize] = Some(i),
            (Phase::Play, Some(Action::EndTurn)) if s.turn.played == 0 => line.passes.push((i, turn::playable_tokens(g, &s))),
            _ => {}
        }
        g.step(&mut s, a, &mut Events::off()).unwrap_or_else(|e| panic!("samurai: a state's own history does not replay at step {i}: {e}"));
    }

    // Deal every other seat's acquisitions anew, seat by seat.
    let mut dealt: Vec<Option<u8>> = vec![None; history.len()];
    for (p, line) in lines.iter().enumerate() {
        if p as Player == observer {
            continue;
        }
        // 7.1: at the end the last hand is shown.
        let shown = (s.phase == Phase::Over).then_some(s.hands[p]);
        for (i, token) in line.acquisitions.iter().zip(deal(g, line, shown, rng)) {
            dealt[*i] = Some(token);
        }
    }

    // Replay with the dealt tokens as the keeps and draws of their kind.
    let mut r = g.new_initial_state(0);
    let mut out = Vec::with_capacity(history.len());
    for (i, &a) in history.iter().enumerate() {
        let seat = r.seat as usize;
        let a = match (dealt[i], r.phase) {
            (Some(t), Phase::ChooseTokens) => g.encode(Action::Keep { token: g.first_twin(g.all_tokens & !r.hands[seat], t) }),
            (Some(t), Phase::Refill) => g.encode(Action::Draw { token: g.first_twin(r.stacks[seat], t) }),
            _ => a,
        };
        g.step(&mut r, a, &mut Events::off()).unwrap_or_else(|e| panic!("samurai: the resampled history is illegal at step {i}: {e}"));
        out.push(a);
    }
    out
}

/// One token per acquisition of `line`, in order (see the module comment). `shown`: the hand
/// revealed at the end of the game, if it is over.
fn deal(g: &Samurai, line: &Timeline, shown: Option<u32>, rng: &mut Rng) -> Vec<u8> {
    let played = (0..line.played_at.len()).filter(|&t| line.played_at[t].is_some()).fold(0u64, |m, t| m | 1 << t);
    // Tokens that must be dealt, and the tokens that may be.
    let needed = played | shown.map_or(0, u64::from);
    let allowed = if shown.is_some() { needed } else { g.all_tokens as u64 };
    // Which tokens each acquisition may receive: held from then until played (or until now),
    // a token must not have been playable at any pass in between.
    let options: Vec<u64> = line
        .acquisitions
        .iter()
        .map(|&at| {
            bits(allowed as u32)
                .filter(|&t| {
                    let until = line.played_at[t as usize].unwrap_or(usize::MAX);
                    at < until && line.passes.iter().all(|&(pass, playable)| pass <= at || pass >= until || playable & (1 << t) == 0)
                })
                .fold(0u64, |m, t| m | 1 << t)
        })
        .collect();
    let mut free = allowed;
    let mut out = Vec::with_capacity(options.len());
    for k in 0..options.len() {
        let mut choices = options[k] & free;
        loop {
            assert!(choices != 0, "samurai: no token fits acquisition {k}; the true history shows one does");
            let pick = bits64(choices).nth(rng.below(choices.count_ones()) as usize).expect("below popcount");
            let rest = free & !(1 << pick);
            if can_deal(&options[k + 1..], rest, needed & rest) {
                out.push(pick);
                free = rest;
                break;
            }
            choices &= !(1 << pick);
        }
    }
    out
}

/// Whether the acquisitions with these `options` can each get a different token of `free`
/// while every token of `needed` is dealt. Both sides must be matched; by the
/// Mendelsohn-Dulmage theorem two matchings, one covering each side, give one covering both.
fn can_deal(options: &[u64], free: u64, needed: u64) -> bool {
    let by_acquisition: Vec<u64> = options.iter().map(|&o| o & free).collect();
    let by_token: Vec<u64> =
        bits64(needed).map(|t| (0..options.len()).filter(|&k| by_acquisition[k] & (1 << t) != 0).fold(0u64, |m, k| m | 1 << k)).collect();
    saturates(&by_acquisition) && saturates(&by_token)
}

/// Whether every left vertex (its neighbours a mask of right vertices < 64) can be matched.
fn saturates(left: &[u64]) -> bool {
    fn augment(l: usize, left: &[u64], owner: &mut [usize; 64], seen: &mut u64) -> bool {
        for r in bits64(left[l]) {
            if *seen & (1 << r) != 0 {
                continue;
            }
            *seen |= 1 << r;
            let o = owner[r as usize];
            if o == usize::MAX || augment(o, left, owner, seen) {
                owner[r as usize] = l;
                return true;
            }
        }
        false
    }
    let mut owner = [usize::MAX; 64];
    (0..left.len()).all(|l| augment(l, left, &mut owner, &mut 0))
}

fn bits64(mut m: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros() as u8;
            m &= m - 1;
            b
        })
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::game::{CHANCE, SPECTATOR};
    use crate::testing::check_determinization;
    use crate::{load_game, StateHandle};

    fn game(players: u32, explicit_chance: bool) -> crate::GameHandle {
        load_game("samurai", Some(&json!({"players": players, "explicit_chance": explicit_chance}))).unwrap()
    }

    /// Random playouts from `seed`, calling `f` on every state.
    fn each_state(players: u32, explicit_chance: bool, seed: u64, mut f: impl FnMut(&StateHandle, usize)) {
        let g = game(players, explicit_chance);
        let mut rng = crate::rng::Rng::from_seed(seed ^ 0xabcd);
        let mut s = g.new_initial_state(seed);
        let mut step = 0;
        loop {
            f(&s, step);
            if s.is_terminal() {
                break;
            }
            let legal = s.legal_actions();
            s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            step += 1;
        }
    }

    fn hidden_state(s: &StateHandle) -> Value {
        s.to_json()["state"].clone()
    }

    #[test]
    fn determinizations_pass_the_suites_check_for_every_seat_and_player_count() {
        for (players, explicit_chance) in [(2, false), (3, false), (4, false), (2, true), (3, true), (4, true)] {
            let mut variants = 0;
            for seed in 0..4u64 {
                each_state(players, explicit_chance, seed, |s, step| {
                    if step % 7 != 0 && !s.is_terminal() {
                        return;
                    }
                    for p in SPECTATOR..players as i32 {
                        // The spectator's id is also CHANCE's: at a chance node the suite would
                        // compare the chance outcomes, which depend on the hidden stack being drawn
                        // from (reported as an engine issue; the suite's own run skips no state).
                        if p == SPECTATOR && s.current_player() == CHANCE {
                            continue;
                        }
                        let varied = check_determinization(s, p, seed * 1000 + step as u64)
                            .unwrap_or_else(|e| panic!("{players}p chance {explicit_chance} seed {seed} step {step} seat {p}: {e}"));
                        variants += varied as u32;
                    }
                });
            }
            assert!(variants > 0, "{players} players: the hidden tokens never varied");
        }
    }

    #[test]
    fn r3_3_determinizations_keep_the_captures_every_seat_saw_in_three_and_four_player_games() {
        for players in [3, 4] {
            let mut checked = 0;
            each_state(players, false, 5, |s, step| {
                let st = hidden_state(s);
                let captured: u64 =
                    st["captured"].as_array().unwrap().iter().flat_map(|c| c.as_array().unwrap()).map(|x| x.as_u64().unwrap()).sum();
                if captured == 0 || step % 5 != 0 {
                    return;
                }
                for p in SPECTATOR..players as i32 {
                    for seed in 0..3 {
                        let d = s.determinize(p, seed).unwrap();
                        assert_eq!(hidden_state(&d)["captured"], st["captured"], "{players}p step {step} seat {p}");
                        assert_eq!(hidden_state(&d)["cells"], st["cells"]);
                    }
                }
                checked += 1;
            });
            assert!(checked > 0, "{players} players: no capture happened");
        }
    }

    #[test]
    fn r4_2_the_own_hand_is_kept_and_other_hands_are_dealt_anew() {
        let mut other_differs = false;
        each_state(3, false, 9, |s, step| {
            if step % 11 != 0 {
                return;
            }
            let st = hidden_state(s);
            for p in 0..3usize {
                for seed in 0..4 {
                    let d = hidden_state(&s.determinize(p as i32, seed).unwrap());
                    assert_eq!(d["hands"][p], st["hands"][p], "seat {p} knows its own hand");
                    assert_eq!(d["stacks"][p], st["stacks"][p], "seat {p} knows its own stack");
                    let q = (p + 1) % 3;
                    assert_eq!(d["hands"][q].as_u64().unwrap().count_ones(), st["hands"][q].as_u64().unwrap().count_ones());
                    other_differs |= d["hands"][q] != st["hands"][q];
                }
            }
        });
        assert!(other_differs, "another seat's hand was never dealt anew");
    }

    /// N9 and 5.2 through `deal` directly (no random game passes with tokens in hand): a seat
    /// kept 5 tokens (steps 0-4), played token 0 at step 10, passed at step 15 when everything
    /// but the ships and the exchanges was playable, drew at 20 and 21 and played token 5 at 22.
    #[test]
    fn n9_a_dealt_hand_keeps_every_pass_legal_and_every_play_in_hand() {
        use super::{deal, Timeline};
        let g = crate::games::samurai::Samurai::new(2, std::sync::Arc::new(crate::games::samurai::Data::embedded())).unwrap();
        let mut played_at = vec![None; 20];
        played_at[0] = Some(10);
        played_at[5] = Some(22);
        let unplayable: u32 = (15..20).fold(0, |m, t| m | 1 << t);
        let line = Timeline { acquisitions: vec![0, 1, 2, 3, 4, 20, 21], played_at, passes: vec![(15, ((1 << 20) - 1) & !unplayable)] };
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let dealt = deal(&g, &line, None, &mut crate::rng::Rng::from_seed(seed));
            assert_eq!(dealt.len(), 7);
            let kept: Vec<u8> = dealt[..5].to_vec();
            assert!(kept.contains(&0), "token 0 is played at step 10, so it was kept: {dealt:?}");
            assert!(kept.iter().filter(|&&t| t != 0).all(|&t| unplayable & (1 << t) != 0), "the pass at 15 was legal: {dealt:?}");
            assert!(dealt[5..].contains(&5), "token 5 is drawn before step 22: {dealt:?}");
            let mut unique = dealt.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), 7);
            seen.insert(dealt);
        }
        assert!(seen.len() > 10, "the deal varies");
        // After the end the shown hand is dealt too, and nothing else.
        let shown = (1 << 8) | (1 << 15) | (1 << 16) | (1 << 17) | (1 << 18);
        let dealt = deal(&g, &line, Some(shown), &mut crate::rng::Rng::from_seed(1));
        let mut sorted = dealt.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 5, 8, 15, 16, 17, 18]);
        assert!(dealt[5..].contains(&8), "token 8 was playable at the pass, so it was drawn later");
    }

    #[test]
    fn r7_1_after_the_end_every_hand_is_known_and_kept() {
        for players in [2, 3, 4] {
            let mut end = None;
            each_state(players, false, 3, |s, _| {
                if s.is_terminal() {
                    end = Some(s.clone());
                }
            });
            let s = end.unwrap();
            for p in SPECTATOR..players as i32 {
                let d = s.determinize(p, 77).unwrap();
                assert_eq!(hidden_state(&d)["hands"], hidden_state(&s)["hands"], "{players}p seat {p}");
                assert_eq!(hidden_state(&d)["stacks"], hidden_state(&s)["stacks"], "{players}p seat {p}");
            }
        }
    }
}
