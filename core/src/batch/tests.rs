use serde_json::json;

use super::*;
use crate::engine::{covered_configs, games, load_game, GameHandle, StateHandle};
use crate::rng::Rng;

fn every_config() -> Vec<GameHandle> {
    let mut out = Vec::new();
    for (id, _) in games() {
        for cfg in covered_configs(id) {
            out.push(load_game(id, Some(&cfg)).unwrap());
        }
    }
    out
}

/// A uniformly random legal action of each slot, from the masks.
fn pick(mask: &[u8], num_actions: usize, rng: &mut Rng, out: &mut Vec<ActionId>) {
    out.clear();
    for m in mask.chunks(num_actions) {
        let legal: Vec<usize> = (0..num_actions).filter(|&a| m[a] == 1).collect();
        out.push(legal[rng.below(legal.len() as u32) as usize] as ActionId);
    }
}

fn batch(game: &GameHandle, opts: BatchOptions) -> (Box<dyn DynBatch>, BatchBuffers) {
    let b = game.new_batch(opts.clone()).unwrap();
    let bufs = BatchBuffers::new(b.dims(), opts.obs_dtype);
    (b, bufs)
}

/// Runs `steps` random steps and returns every output concatenated.
fn trajectory(game: &GameHandle, opts: BatchOptions, steps: usize) -> Vec<BatchBuffers> {
    let (mut b, mut bufs) = batch(game, opts);
    b.reset(None, &mut bufs.out()).unwrap();
    let mut rng = Rng::from_seed(9);
    let mut actions = Vec::new();
    let mut seen = vec![bufs.clone()];
    for _ in 0..steps {
        pick(&bufs.mask, b.dims().num_actions, &mut rng, &mut actions);
        b.step(&actions, &mut bufs.out()).unwrap();
        seen.push(bufs.clone());
    }
    seen
}

#[test]
fn batch_matches_single_states_in_every_game() {
    for game in every_config() {
        let n = 3;
        let (mut b, mut bufs) = batch(&game, BatchOptions::new(n, 77));
        let d = b.dims();
        b.reset(None, &mut bufs.out()).unwrap();
        let mut singles: Vec<StateHandle> = (0..n).map(|i| game.new_initial_state(episode_seed(77, i, 0))).collect();
        let mut episodes = vec![0u64; n];
        let mut lens = vec![0u32; n];
        let mut rng = Rng::from_seed(3);
        let mut actions = Vec::new();
        let mut ended = 0;
        let steps = 400;
        let max_len = game.info().max_game_length;
        for _ in 0..steps {
            for (i, s) in singles.iter().enumerate() {
                assert_eq!(bufs.player[i], s.current_player(), "{game:?} slot {i}");
                let mask: Vec<u8> = s.legal_actions_mask().into_iter().map(u8::from).collect();
                assert_eq!(&bufs.mask[i * d.num_actions..(i + 1) * d.num_actions], &mask[..]);
                let seat = if s.current_player() >= 0 { s.current_player() } else { crate::SPECTATOR };
                let obs = s.compact_observation(seat).unwrap();
                assert_eq!(&bufs.obs_u8[i * d.obs_len..(i + 1) * d.obs_len], &obs[..]);
                let legal = s.legal_actions();
                assert_eq!(bufs.legal_count[i] as usize, legal.len());
                let k = legal.len().min(d.max_legal);
                assert_eq!(&bufs.legal_ids[i * d.max_legal..i * d.max_legal + k], &legal[..k]);
            }
            pick(&bufs.mask, d.num_actions, &mut rng, &mut actions);
            b.step(&actions, &mut bufs.out()).unwrap();
            for (i, s) in singles.iter_mut().enumerate() {
                s.apply_in_place(actions[i]).unwrap();
                lens[i] += 1;
                assert!(lens[i] <= max_len, "{game:?}: an episode longer than max_game_length");
                let done = s.is_terminal();
                assert_eq!(bufs.terminated[i], done as u8);
                assert_eq!(bufs.truncated[i], 0);
                let expect: Vec<f32> = if done { s.returns().iter().map(|&r| r as f32).collect() } else { vec![0.0; d.num_players] };
                let p = d.num_players;
                assert_eq!(&bufs.rewards[i * p..(i + 1) * p], &expect[..]);
                assert_eq!(&bufs.final_returns[i * p..(i + 1) * p], &expect[..]);
                assert_eq!(bufs.episode_len[i], if done { lens[i] } else { 0 });
                if done {
                    ended += 1;
                    episodes[i] += 1;
                    lens[i] = 0;
                    *s = game.new_initial_state(episode_seed(77, i, episodes[i]));
                }
            }
        }
        // A game may legitimately outlast the run only if its declared bound allows it.
        assert!(ended > 0 || steps < max_len as usize, "{game:?}: no episode ended in {steps} steps (max_game_length {max_len})");
    }
}

#[test]
fn outputs_do_not_depend_on_the_thread_count() {
    for game in every_config() {
        let opts = |threads| BatchOptions { threads, max_episode_steps: Some(50), ..BatchOptions::new(7, 5) };
        let one = trajectory(&game, opts(1), 120);
        assert_eq!(one, trajectory(&game, opts(2), 120), "{game:?}");
        assert_eq!(one, trajectory(&game, opts(3), 120), "{game:?}");
    }
}

#[test]
fn truncation_ends_episodes_at_the_step_limit() {
    let game = load_game("sekigahara", None).unwrap();
    let opts = BatchOptions { max_episode_steps: Some(10), ..BatchOptions::new(2, 1) };
    let seen = trajectory(&game, opts, 25);
    for (k, bufs) in seen.iter().enumerate().skip(1) {
        let expect = (k % 10 == 0) as u8;
        assert_eq!(bufs.truncated, vec![expect; 2], "step {k}");
        assert_eq!(bufs.terminated, vec![0; 2]);
        assert_eq!(bufs.episode_len, vec![if expect == 1 { 10 } else { 0 }; 2]);
    }
    // The slot was reset: the observation after step 10 is the start of episode 1.
    let fresh = game.new_initial_state(episode_seed(1, 0, 1));
    let obs = fresh.compact_observation(fresh.current_player()).unwrap();
    assert_eq!(seen[10].obs_u8[..obs.len()], obs[..]);
}

#[test]
fn single_agent_batch_always_asks_the_learner() {
    for game in every_config() {
        for learner in 0..game.num_players() {
            let opts = BatchOptions { opponent: Some(Opponent::Random), learner_seat: learner, ..BatchOptions::new(3, 11) };
            let seen = trajectory(&game, opts.clone(), 150);
            for bufs in &seen {
                assert!(bufs.player.iter().all(|&p| p == learner as Player), "{game:?}: {:?}", bufs.player);
                assert!(bufs.mask.chunks(game.info().num_distinct_actions as usize).all(|m| m.contains(&1)));
            }
            assert_eq!(seen, trajectory(&game, BatchOptions { threads: 2, ..opts }, 150));
        }
    }
}

#[test]
fn single_agent_samurai_episodes_end_with_the_learners_returns() {
    let game = load_game("samurai", Some(&json!({"players": 2}))).unwrap();
    let opts = BatchOptions { opponent: Some(Opponent::Random), ..BatchOptions::new(4, 2) };
    let seen = trajectory(&game, opts, 300);
    let ends: Vec<&BatchBuffers> = seen.iter().filter(|b| b.terminated.contains(&1)).collect();
    assert!(!ends.is_empty());
    for b in ends {
        for i in 0..4 {
            if b.terminated[i] == 1 {
                assert!((b.final_returns[2 * i] + b.final_returns[2 * i + 1] - 1.0).abs() < 1e-6, "{:?}", b.final_returns);
                assert_eq!(b.rewards, b.final_returns);
                assert!(b.episode_len[i] > 0);
            }
        }
    }
}

#[test]
fn uint8_observations_quantize_the_float_ones() {
    for game in every_config() {
        let f = trajectory(&game, BatchOptions { obs_dtype: ObsDtype::F32, ..BatchOptions::new(2, 4) }, 30);
        let q = trajectory(&game, BatchOptions { obs_dtype: ObsDtype::U8, ..BatchOptions::new(2, 4) }, 30);
        for (f, q) in f.iter().zip(&q) {
            let expect: Vec<u8> = f.obs_f32.iter().map(|v| (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8).collect();
            assert_eq!(expect, q.obs_u8);
            assert_eq!(f.mask, q.mask);
        }
    }
}

#[test]
fn float_observations_stay_available_beside_the_compact_default() {
    for game in every_config() {
        let (mut b, mut bufs) = batch(&game, BatchOptions { obs_dtype: ObsDtype::F32, ..BatchOptions::new(2, 6) });
        b.reset(None, &mut bufs.out()).unwrap();
        let d = b.dims();
        assert_eq!(d.obs_len, game.info().observation_len());
        let s = game.new_initial_state(episode_seed(6, 1, 0));
        let seat = if s.current_player() >= 0 { s.current_player() } else { crate::SPECTATOR };
        assert_eq!(bufs.obs_f32[d.obs_len..], s.observation_tensor(seat).unwrap()[..], "{game:?}");
        assert_eq!(game.new_batch(BatchOptions::new(1, 0)).unwrap().dims().obs_len, game.info().compact_len());
    }
}

#[test]
fn a_rejected_step_changes_nothing() {
    let game = load_game("samurai", None).unwrap();
    let (mut b, mut bufs) = batch(&game, BatchOptions { threads: 2, ..BatchOptions::new(4, 8) });
    b.reset(None, &mut bufs.out()).unwrap();
    let before = bufs.clone();
    let d = b.dims();
    let mut actions = Vec::new();
    pick(&bufs.mask, d.num_actions, &mut Rng::from_seed(1), &mut actions);
    let good = actions.clone();
    let illegal = (0..d.num_actions).find(|&a| bufs.mask[2 * d.num_actions + a] == 0).unwrap() as ActionId;
    actions[2] = illegal;
    let err = b.step(&actions, &mut bufs.out()).unwrap_err();
    assert_eq!(err, BatchError::Rule { slot: 2, error: crate::RuleError::IllegalAction { action: illegal } });
    assert_eq!(err.code(), crate::ErrorCode::IllegalAction);
    actions[2] = d.num_actions as ActionId;
    assert_eq!(b.step(&actions, &mut bufs.out()).unwrap_err().code(), crate::ErrorCode::ActionOutOfRange);
    assert_eq!(b.step(&good[..3], &mut bufs.out()).unwrap_err().code(), crate::ErrorCode::InvalidArgument);
    let mut short = BatchBuffers::new(BatchDims { num_envs: 3, ..d }, ObsDtype::Compact);
    assert!(matches!(b.step(&good, &mut short.out()), Err(BatchError::WrongLength { what: "obs", .. })));
    let mut other = BatchBuffers::new(d, ObsDtype::F32);
    assert!(matches!(b.step(&good, &mut other.out()), Err(BatchError::WrongDtype { .. })));
    assert_eq!(bufs, before);
    // The batch is where it was: the good actions give what a fresh batch gives.
    b.step(&good, &mut bufs.out()).unwrap();
    let (mut fresh, mut fresh_bufs) = batch(&game, BatchOptions::new(4, 8));
    fresh.reset(None, &mut fresh_bufs.out()).unwrap();
    fresh.step(&good, &mut fresh_bufs.out()).unwrap();
    assert_eq!(bufs, fresh_bufs);
}

#[test]
fn reset_with_a_seed_replays_and_without_moves_on() {
    let game = load_game("sekigahara_daisakusen", None).unwrap();
    let (mut b, mut bufs) = batch(&game, BatchOptions::new(3, 21));
    b.reset(None, &mut bufs.out()).unwrap();
    let first = bufs.clone();
    b.reset(None, &mut bufs.out()).unwrap();
    let second = bufs.clone();
    b.reset(Some(21), &mut bufs.out()).unwrap();
    assert_eq!(bufs, first);
    b.reset(None, &mut bufs.out()).unwrap();
    assert_eq!(bufs, second);
    let s = game.new_initial_state(episode_seed(21, 1, 1));
    let len = b.dims().obs_len;
    assert_eq!(bufs.obs_u8[len..2 * len], s.compact_observation(s.current_player()).unwrap()[..]);
}

#[test]
fn bad_options_are_setup_errors() {
    let game = load_game("samurai", None).unwrap();
    let bad = [
        BatchOptions::new(0, 1),
        BatchOptions { threads: 0, ..BatchOptions::new(1, 1) },
        BatchOptions { obs_seat: Some(5), ..BatchOptions::new(1, 1) },
        BatchOptions { opponent: Some(Opponent::Random), learner_seat: 2, ..BatchOptions::new(1, 1) },
        BatchOptions { max_episode_steps: Some(0), ..BatchOptions::new(1, 1) },
        // Hostile sizes (issue 24.1): checked before anything is allocated.
        BatchOptions::new(super::MAX_NUM_ENVS + 1, 1),
        BatchOptions::new(u32::MAX as usize, 1),
        BatchOptions::new(usize::MAX, 1),
        BatchOptions { threads: super::MAX_THREADS + 1, ..BatchOptions::new(1, 1) },
        BatchOptions { threads: usize::MAX, ..BatchOptions::new(1, 1) },
        // A learner seat the game does not have, with or without an opponent (issue 24.5).
        BatchOptions { learner_seat: 9, ..BatchOptions::new(1, 1) },
    ];
    for opts in bad {
        assert_eq!(game.new_batch(opts.clone()).err().map(|e| e.code()), Some(crate::ErrorCode::ConfigOutOfRange), "{opts:?}");
    }
    for bad in ["nobody", "monte_carlo:0", "monte_carlo:", "monte_carlo:x", "monte_carlo:+5", "random:3", "monte_carlo:-1"] {
        assert_eq!(Opponent::parse(bad).err().map(|e| e.code()), Some(crate::ErrorCode::InvalidConfig), "{bad}");
    }
    assert_eq!(Opponent::parse("monte_carlo:8").unwrap(), Opponent::MonteCarlo { playouts: 8 });
    assert_eq!(Opponent::parse("monte_carlo").unwrap(), Opponent::MonteCarlo { playouts: crate::bots::MonteCarloBot::new(0).playouts() });
}

#[test]
fn monte_carlo_opponent_plays_the_bots_choice() {
    // Reference: the same episodes on full states, the opponent's seat played by the bot
    // seeded from the slot's opponent generator, as the batch does.
    use crate::bots::{Bot, MonteCarloBot};
    let game = load_game("samurai", Some(&json!({"players": 2}))).unwrap();
    let (n, seed, learner) = (2, 4, 1);
    let opts = BatchOptions { opponent: Some(Opponent::MonteCarlo { playouts: 4 }), learner_seat: learner, ..BatchOptions::new(n, seed) };
    let (mut b, mut bufs) = batch(&game, opts.clone());
    let d = b.dims();
    b.reset(None, &mut bufs.out()).unwrap();
    let mut episodes = vec![0u64; n];
    let mut opp: Vec<Rng> = (0..n).map(|i| Rng::from_seed(opponent_seed(seed, i, 0))).collect();
    let bot_moves = |s: &mut StateHandle, rng: &mut Rng| {
        while !s.is_terminal() && s.current_player() != learner as Player {
            let a = MonteCarloBot::new(rng.next_u64()).with_playouts(4).choose(s);
            s.apply_in_place(a).unwrap();
        }
    };
    let mut refs: Vec<StateHandle> = (0..n).map(|i| game.new_initial_state(episode_seed(seed, i, 0))).collect();
    for (s, rng) in refs.iter_mut().zip(&mut opp) {
        bot_moves(s, rng);
    }
    let mut rng = Rng::from_seed(5);
    let mut actions = Vec::new();
    let mut ended = 0;
    for _ in 0..60 {
        for (i, s) in refs.iter().enumerate() {
            assert_eq!(bufs.player[i], s.current_player());
            let obs = s.compact_observation(learner as Player).unwrap();
            assert_eq!(&bufs.obs_u8[i * d.obs_len..(i + 1) * d.obs_len], &obs[..]);
        }
        pick(&bufs.mask, d.num_actions, &mut rng, &mut actions);
        b.step(&actions, &mut bufs.out()).unwrap();
        for i in 0..n {
            refs[i].apply_in_place(actions[i]).unwrap();
            bot_moves(&mut refs[i], &mut opp[i]);
            assert_eq!(bufs.terminated[i], refs[i].is_terminal() as u8);
            if refs[i].is_terminal() {
                assert_eq!(bufs.final_returns[i * 2 + learner], refs[i].returns()[learner] as f32);
                ended += 1;
                episodes[i] += 1;
                refs[i] = game.new_initial_state(episode_seed(seed, i, episodes[i]));
                opp[i] = Rng::from_seed(opponent_seed(seed, i, episodes[i]));
                bot_moves(&mut refs[i], &mut opp[i]);
            }
        }
    }
    assert!(ended > 0, "no episode ended");
    // Threads change nothing.
    assert_eq!(trajectory(&game, opts.clone(), 30), trajectory(&game, BatchOptions { threads: 2, ..opts }, 30));
}

#[test]
fn a_new_mask_buffer_each_call_gives_the_same_outputs() {
    // The batch clears only the mask entries it set when it gets the buffer of its previous
    // call; with a new buffer (full of stale entries here) it must rewrite the whole row.
    for game in every_config() {
        let opts = BatchOptions { threads: 2, max_episode_steps: Some(40), ..BatchOptions::new(5, 13) };
        let same = trajectory(&game, opts.clone(), 60);
        let (mut b, mut bufs) = batch(&game, opts);
        let d = b.dims();
        b.reset(None, &mut bufs.out()).unwrap();
        let mut rng = Rng::from_seed(9);
        let mut actions = Vec::new();
        for (k, expect) in same.iter().enumerate().skip(1) {
            pick(&bufs.mask, d.num_actions, &mut rng, &mut actions);
            let mut other = BatchBuffers::new(d, ObsDtype::Compact);
            other.mask.fill(1);
            other.obs_u8.fill(0xA5);
            b.step(&actions, &mut other.out()).unwrap();
            assert_eq!(other.mask, expect.mask, "{game:?} step {k}");
            assert_eq!(other.obs_u8, expect.obs_u8, "{game:?} step {k}");
            bufs = other;
        }
    }
}

#[test]
fn legal_ids_are_optional_and_checked() {
    let game = load_game("samurai", None).unwrap();
    let (mut b, mut bufs) = batch(&game, BatchOptions::new(3, 2));
    let d = b.dims();
    assert!(d.max_legal >= 1 && d.max_legal <= d.num_actions);
    b.reset(None, &mut bufs.out()).unwrap();
    let with = bufs.clone();
    let mut out = bufs.out();
    out.legal = None;
    b.reset(Some(2), &mut out).unwrap();
    assert_eq!(bufs.mask, with.mask);
    let mut short = bufs.clone();
    short.legal_ids.pop();
    assert!(matches!(b.reset(None, &mut short.out()), Err(BatchError::WrongLength { what: "legal_ids", .. })));
}

#[test]
fn thread_count_changes_keep_the_trajectory() {
    let game = load_game("samurai", None).unwrap();
    let expect = trajectory(&game, BatchOptions::new(6, 3), 40);
    let (mut b, mut bufs) = batch(&game, BatchOptions::new(6, 3));
    b.reset(None, &mut bufs.out()).unwrap();
    let mut rng = Rng::from_seed(9);
    let mut actions = Vec::new();
    for (k, expect) in expect.iter().enumerate().skip(1) {
        b.set_threads(1 + k % 3).unwrap();
        pick(&bufs.mask, b.dims().num_actions, &mut rng, &mut actions);
        b.step(&actions, &mut bufs.out()).unwrap();
        assert_eq!(&bufs, expect, "step {k}");
    }
}

#[test]
fn thread_counts_out_of_range_are_rejected_and_change_nothing() {
    let game = load_game("samurai", None).unwrap();
    let (mut b, _) = batch(&game, BatchOptions { threads: 2, ..BatchOptions::new(3, 1) });
    for bad in [0, super::MAX_THREADS + 1, usize::MAX] {
        assert_eq!(b.set_threads(bad).err().map(|e| e.code()), Some(crate::ErrorCode::ConfigOutOfRange), "{bad}");
        assert_eq!(b.options().threads, 2);
    }
    b.set_threads(super::MAX_THREADS).unwrap();
    assert_eq!(b.options().threads, super::MAX_THREADS);
}
