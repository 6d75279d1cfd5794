//! The batch over the typed states of one game.

use std::sync::Arc;

use super::pool::Pool;
use super::{
    episode_seed, opponent_seed, BatchDims, BatchError, BatchOptions, BatchOut, DynBatch, LegalOut, ObsBuf, ObsDtype, Opponent,
    MAX_NUM_ENVS, MAX_THREADS,
};
use crate::bots::{Bot, MonteCarloBot};
use crate::engine::Instance;
use crate::error::{RuleError, SetupError};
use crate::events::Events;
use crate::game::{ActionId, Game, Player, CHANCE, SPECTATOR, TERMINAL};
use crate::rng::Rng;

/// Parts a call is cut into per thread, so that threads can even out their loads (see
/// `pool.rs`).
const PARTS_PER_THREAD: usize = 8;

/// One environment of the batch.
struct Slot<G: Game> {
    state: G::State,
    /// The opponent's generator (single-agent mode).
    rng: Rng,
    episode: u64,
    steps: u32,
    /// The legal actions of `state` (also the entries set in the slot's mask row).
    legal: Vec<ActionId>,
    /// The seed of this episode's initial state and every action and chance outcome applied
    /// since (kept only for a bot opponent, which gets the episode as a full state).
    seed: u64,
    history: Vec<ActionId>,
}

/// The outputs of one slot.
struct SlotOut<'a> {
    obs: ObsBuf<'a>,
    mask: &'a mut [u8],
    player: &'a mut i32,
    rewards: &'a mut [f32],
    terminated: &'a mut u8,
    truncated: &'a mut u8,
    final_returns: &'a mut [f32],
    episode_len: &'a mut u32,
    legal: Option<(&'a mut u32, &'a mut [u32])>,
    /// The float observation before quantization (uint8 batches only), shared by the slots
    /// of a part: it stays in the core's cache from one slot to the next.
    scratch: &'a mut [f32],
}

/// What every slot's work reads: the rules and the options of the batch.
struct Ctx<'b, G: Game> {
    game: &'b Instance<G>,
    explicit_chance: bool,
    opts: &'b BatchOptions,
    /// The mask buffer holds what the previous call wrote: clear only the entries set then.
    sparse_mask: bool,
}

pub(crate) struct TypedBatch<G: Game> {
    game: Arc<Instance<G>>,
    explicit_chance: bool,
    opts: BatchOptions,
    dims: BatchDims,
    slots: Vec<Slot<G>>,
    /// Worker threads besides the caller's (`threads - 1` of them), if any.
    pool: Option<Pool>,
    /// One float observation per part of a call (uint8 batches only; see `SlotOut::scratch`).
    scratch: Vec<Vec<f32>>,
    /// Address and length of the mask buffer the last call wrote completely.
    last_mask: Option<(usize, usize)>,
    /// Nothing happened since construction: a `reset(None)` keeps the episodes (episode 0).
    fresh: bool,
}

impl<G: Game> TypedBatch<G> {
    pub(crate) fn new(game: Arc<Instance<G>>, explicit_chance: bool, opts: BatchOptions) -> Result<Self, SetupError> {
        let info = crate::engine::DynGame::info(&*game);
        let n = info.num_players as usize;
        let range = |m: String| Err(SetupError::OutOfRange(m));
        if !(1..=MAX_NUM_ENVS).contains(&opts.num_envs) {
            return range(format!("num_envs must be in [1, {MAX_NUM_ENVS}], got {}", opts.num_envs));
        }
        if !(1..=MAX_THREADS).contains(&opts.threads) {
            return range(format!("threads must be in [1, {MAX_THREADS}], got {}", opts.threads));
        }
        if opts.max_episode_steps == Some(0) {
            return range("max_episode_steps must be at least 1".into());
        }
        if let Some(seat) = opts.obs_seat {
            if seat != SPECTATOR && !(0..n as Player).contains(&seat) {
                return range(format!("obs_seat {seat} is not a seat of this game ({n} seats; -1 is the spectator)"));
            }
            if opts.opponent.is_some() {
                return Err(SetupError::InvalidConfig(
                    "obs_seat is for multi-agent batches; a single-agent batch observes the learner".into(),
                ));
            }
        }
        if opts.learner_seat >= n {
            return range(format!("learner_seat {} is not a seat of this game ({n} seats)", opts.learner_seat));
        }
        let num_actions = info.num_distinct_actions as usize;
        let dims = BatchDims {
            num_envs: opts.num_envs,
            num_players: n,
            num_actions,
            obs_len: if opts.obs_dtype == ObsDtype::Compact { info.compact_len() } else { info.observation_len() },
            max_legal: (info.buffer_sizes.max_legal_actions as usize).clamp(1, num_actions.max(1)),
        };
        let mut slots = Vec::new();
        slots.try_reserve_exact(dims.num_envs).map_err(|_| SetupError::OutOfMemory(format!("no memory for {} envs", dims.num_envs)))?;
        let ctx = Ctx { game: &game, explicit_chance, opts: &opts, sparse_mask: false };
        for i in 0..dims.num_envs {
            let mut slot = Slot {
                state: game.rules().new_initial_state(0),
                rng: Rng::from_seed(0),
                episode: 0,
                steps: 0,
                legal: Vec::with_capacity(dims.max_legal),
                seed: 0,
                history: Vec::new(),
            };
            ctx.start_episode(i, &mut slot);
            slots.push(slot);
        }
        let mut b = TypedBatch { game, explicit_chance, opts, dims, slots, pool: None, scratch: Vec::new(), last_mask: None, fresh: true };
        b.start_pool();
        Ok(b)
    }

    fn start_pool(&mut self) {
        let parts = self.opts.threads.min(self.dims.num_envs);
        self.pool = if parts > 1 { Pool::new(parts - 1) } else { None };
    }

    fn check_out(&self, out: &BatchOut<'_>) -> Result<(), BatchError> {
        let d = self.dims;
        let (bytes, got_dtype, obs_len) = match &out.obs {
            ObsBuf::F32(b) => (false, "float32", b.len()),
            ObsBuf::U8(b) => (true, "uint8", b.len()),
        };
        if bytes != self.opts.obs_dtype.bytes() {
            let expected = if self.opts.obs_dtype.bytes() { "uint8" } else { "float32" };
            return Err(BatchError::WrongDtype { expected, got: got_dtype });
        }
        let n = d.num_envs;
        let (count_len, ids_len) = match &out.legal {
            Some(l) => (l.count.len(), l.ids.len()),
            None => (n, n * d.max_legal),
        };
        let lens = [
            ("obs", n * d.obs_len, obs_len),
            ("mask", n * d.num_actions, out.mask.len()),
            ("player", n, out.player.len()),
            ("rewards", n * d.num_players, out.rewards.len()),
            ("terminated", n, out.terminated.len()),
            ("truncated", n, out.truncated.len()),
            ("final_returns", n * d.num_players, out.final_returns.len()),
            ("episode_len", n, out.episode_len.len()),
            ("legal_count", n, count_len),
            ("legal_ids", n * d.max_legal, ids_len),
        ];
        for (what, expected, got) in lens {
            if expected != got {
                return Err(BatchError::WrongLength { what, expected, got });
            }
        }
        Ok(())
    }

    /// Runs `f(ctx, slot index, slot, outputs)` on every slot, over the configured threads.
    /// `sparse_mask`: the mask buffer may be cleared entry by entry if it is the one the
    /// previous call wrote.
    fn run<F>(&mut self, out: &mut BatchOut<'_>, sparse_mask: bool, f: F)
    where
        F: Fn(&Ctx<'_, G>, usize, &mut Slot<G>, &mut SlotOut<'_>) + Sync,
    {
        let d = self.dims;
        let mask_id = (out.mask.as_ptr() as usize, out.mask.len());
        let ctx = Ctx {
            game: &self.game,
            explicit_chance: self.explicit_chance,
            opts: &self.opts,
            sparse_mask: sparse_mask && self.last_mask == Some(mask_id),
        };
        // A panic below leaves the mask in an unknown state: the next call writes it in full.
        self.last_mask = None;
        let parts = self.pool.as_ref().map_or(1, |p| (p.threads() * PARTS_PER_THREAD).min(d.num_envs).max(1));
        let size = d.num_envs.div_ceil(parts);
        let scratch_len = if self.opts.obs_dtype == ObsDtype::U8 { d.obs_len } else { 0 };
        self.scratch.resize_with(parts, || vec![0.0; scratch_len]);
        let mut scratch = self.scratch.iter_mut();
        let mut chunks = Vec::with_capacity(parts);
        let mut rest: &mut [Slot<G>] = &mut self.slots;
        let mut rest_out = reborrow(out);
        let mut base = 0;
        while rest.len() > size {
            let (head, tail) = rest.split_at_mut(size);
            let (head_out, tail_out) = split_out(rest_out, size, d);
            chunks.push((base, head, head_out, scratch.next().expect("a scratch per part")));
            rest = tail;
            rest_out = tail_out;
            base += size;
        }
        chunks.push((base, rest, rest_out, scratch.next().expect("a scratch per part")));
        let work = |(base, chunk, mut o, scratch): (usize, &mut [Slot<G>], BatchOut<'_>, &mut Vec<f32>)| {
            for (j, slot) in chunk.iter_mut().enumerate() {
                let mut so = slot_out(&mut o, j, d, scratch);
                f(&ctx, base + j, slot, &mut so);
            }
        };
        match &self.pool {
            Some(pool) => pool.run(chunks, work),
            None => chunks.into_iter().for_each(work),
        }
        self.last_mask = Some(mask_id);
    }
}

impl<G: Game> Ctx<'_, G> {
    fn rules(&self) -> &G {
        self.game.rules()
    }

    fn start_episode(&self, i: usize, slot: &mut Slot<G>) {
        slot.seed = episode_seed(self.opts.seed, i, slot.episode);
        slot.state = self.rules().new_initial_state(slot.seed);
        slot.history.clear();
        slot.rng = Rng::from_seed(opponent_seed(self.opts.seed, i, slot.episode));
        slot.steps = 0;
        self.advance(slot);
    }

    /// Whether slots keep their episode's history (for a bot opponent).
    fn keeps_history(&self) -> bool {
        matches!(self.opts.opponent, Some(Opponent::MonteCarlo { .. } | Opponent::Ismcts { .. }))
    }

    /// Applies `a` to the slot's state (recorded in its history if it keeps one).
    fn apply(&self, slot: &mut Slot<G>, a: ActionId) {
        self.rules().apply(&mut slot.state, a, &mut Events::off());
        if self.keeps_history() {
            slot.history.push(a);
        }
    }

    /// The Monte Carlo bot's choice for the seat to act: the episode replayed into a full
    /// state from its seed and history, searched with a seed from the slot's generator.
    fn monte_carlo(&self, slot: &mut Slot<G>, playouts: u32) -> ActionId {
        let state = self.game.state_after(slot.seed, &slot.history).expect("a batch slot's own history replays");
        MonteCarloBot::new(slot.rng.next_u64()).with_playouts(playouts).choose(&state)
    }

    /// The IS-MCTS bot's choice at `level` (the level's budget per decision: a batch slot
    /// keeps no bot between decisions), like [`Self::monte_carlo`].
    fn ismcts(&self, slot: &mut Slot<G>, level: crate::bots::Level) -> ActionId {
        let state = self.game.state_after(slot.seed, &slot.history).expect("a batch slot's own history replays");
        let name = format!("ismcts-{}", level.name());
        crate::bots::IsmctsBot::with_params(name, level.params(slot.rng.next_u64())).choose(&state)
    }

    /// Plays what is not the caller's to play: chance nodes (unless chance is explicit in a
    /// multi-agent batch) and, in single-agent mode, the opponent's seats. Leaves the legal
    /// actions of the state it stops at in `slot.legal`.
    fn advance(&self, slot: &mut Slot<G>) {
        let rules = self.rules();
        loop {
            slot.legal.clear();
            let p = rules.current_player(&slot.state);
            let a = if p == TERMINAL {
                return;
            } else if p == CHANCE {
                if self.explicit_chance && self.opts.opponent.is_none() {
                    rules.legal_actions(&slot.state, &mut slot.legal);
                    return;
                }
                rules.sample_chance(&mut slot.state)
            } else {
                rules.legal_actions(&slot.state, &mut slot.legal);
                match self.opts.opponent {
                    Some(_) if p as usize == self.opts.learner_seat => return,
                    Some(Opponent::Random) => slot.legal[slot.rng.below(slot.legal.len() as u32) as usize],
                    Some(Opponent::MonteCarlo { playouts }) => self.monte_carlo(slot, playouts),
                    Some(Opponent::Ismcts { level }) => self.ismcts(slot, level),
                    None => return,
                }
            };
            self.apply(slot, a);
        }
    }

    /// Why slot `i` cannot take action `a` (the checks of [`Game::check`], against the legal
    /// actions the slot keeps).
    fn check(&self, i: usize, slot: &Slot<G>, a: ActionId) -> Result<(), BatchError> {
        let error = if self.rules().is_terminal(&slot.state) {
            RuleError::GameOver
        } else if a >= self.rules().num_distinct_actions() {
            RuleError::ActionOutOfRange { action: a, num_actions: self.rules().num_distinct_actions() }
        } else if slot.legal.binary_search(&a).is_err() {
            RuleError::IllegalAction { action: a }
        } else {
            return Ok(());
        };
        Err(BatchError::Rule { slot: i, error })
    }

    /// Writes the observation, mask, player and legal ids of a slot. The mask row must hold
    /// zeros except where it is cleared here (`clear_mask`: the whole row).
    fn observe(&self, slot: &mut Slot<G>, o: &mut SlotOut<'_>, clear_mask: bool) {
        let rules = self.rules();
        let p = rules.current_player(&slot.state);
        *o.player = p;
        if clear_mask {
            o.mask.fill(0);
        }
        for &a in &slot.legal {
            o.mask[a as usize] = 1;
        }
        if let Some((count, ids)) = &mut o.legal {
            **count = slot.legal.len() as u32;
            let k = slot.legal.len().min(ids.len());
            ids[..k].copy_from_slice(&slot.legal[..k]);
        }
        let seat = match (self.opts.obs_seat, self.opts.opponent) {
            (Some(seat), _) => seat,
            (None, Some(_)) => self.opts.learner_seat as Player,
            (None, None) if p >= 0 => p,
            (None, None) => SPECTATOR,
        };
        match &mut o.obs {
            ObsBuf::F32(buf) => rules.observation_tensor(&slot.state, seat, buf),
            ObsBuf::U8(buf) if self.opts.obs_dtype == ObsDtype::Compact => rules.compact_observation(&slot.state, seat, buf),
            ObsBuf::U8(buf) => rules.observation_tensor_u8(&slot.state, seat, buf, o.scratch),
        }
    }

    fn step_slot(&self, i: usize, slot: &mut Slot<G>, a: ActionId, o: &mut SlotOut<'_>) {
        if self.sparse_mask {
            for &b in &slot.legal {
                o.mask[b as usize] = 0;
            }
        }
        let rules = self.rules();
        self.apply(slot, a);
        slot.steps += 1;
        self.advance(slot);
        let terminated = rules.is_terminal(&slot.state);
        let truncated = !terminated && self.opts.max_episode_steps.is_some_and(|m| slot.steps >= m);
        *o.terminated = terminated as u8;
        *o.truncated = truncated as u8;
        if terminated || truncated {
            // Returns are zero until the end, so the reward of the last step is the returns.
            for (k, r) in rules.returns(&slot.state).into_iter().enumerate() {
                o.rewards[k] = r as f32;
                o.final_returns[k] = r as f32;
            }
            *o.episode_len = slot.steps;
            slot.episode += 1;
            self.start_episode(i, slot);
        } else {
            o.rewards.fill(0.0);
            o.final_returns.fill(0.0);
            *o.episode_len = 0;
        }
        self.observe(slot, o, !self.sparse_mask);
    }
}

fn reborrow<'b>(o: &'b mut BatchOut<'_>) -> BatchOut<'b> {
    BatchOut {
        obs: match &mut o.obs {
            ObsBuf::F32(b) => ObsBuf::F32(b),
            ObsBuf::U8(b) => ObsBuf::U8(b),
        },
        mask: o.mask,
        player: o.player,
        rewards: o.rewards,
        terminated: o.terminated,
        truncated: o.truncated,
        final_returns: o.final_returns,
        episode_len: o.episode_len,
        legal: o.legal.as_mut().map(|l| LegalOut { count: l.count, ids: l.ids }),
    }
}

/// Splits the outputs after the first `k` slots.
fn split_out(o: BatchOut<'_>, k: usize, d: BatchDims) -> (BatchOut<'_>, BatchOut<'_>) {
    let (obs_a, obs_b) = match o.obs {
        ObsBuf::F32(b) => {
            let (x, y) = b.split_at_mut(k * d.obs_len);
            (ObsBuf::F32(x), ObsBuf::F32(y))
        }
        ObsBuf::U8(b) => {
            let (x, y) = b.split_at_mut(k * d.obs_len);
            (ObsBuf::U8(x), ObsBuf::U8(y))
        }
    };
    let (mask_a, mask_b) = o.mask.split_at_mut(k * d.num_actions);
    let (player_a, player_b) = o.player.split_at_mut(k);
    let (rew_a, rew_b) = o.rewards.split_at_mut(k * d.num_players);
    let (term_a, term_b) = o.terminated.split_at_mut(k);
    let (trunc_a, trunc_b) = o.truncated.split_at_mut(k);
    let (fin_a, fin_b) = o.final_returns.split_at_mut(k * d.num_players);
    let (len_a, len_b) = o.episode_len.split_at_mut(k);
    let (legal_a, legal_b) = match o.legal {
        Some(l) => {
            let (count_a, count_b) = l.count.split_at_mut(k);
            let (ids_a, ids_b) = l.ids.split_at_mut(k * d.max_legal);
            (Some(LegalOut { count: count_a, ids: ids_a }), Some(LegalOut { count: count_b, ids: ids_b }))
        }
        None => (None, None),
    };
    (
        BatchOut {
            obs: obs_a,
            mask: mask_a,
            player: player_a,
            rewards: rew_a,
            terminated: term_a,
            truncated: trunc_a,
            final_returns: fin_a,
            episode_len: len_a,
            legal: legal_a,
        },
        BatchOut {
            obs: obs_b,
            mask: mask_b,
            player: player_b,
            rewards: rew_b,
            terminated: term_b,
            truncated: trunc_b,
            final_returns: fin_b,
            episode_len: len_b,
            legal: legal_b,
        },
    )
}

/// The outputs of slot `j` of a chunk.
fn slot_out<'b>(o: &'b mut BatchOut<'_>, j: usize, d: BatchDims, scratch: &'b mut [f32]) -> SlotOut<'b> {
    let obs = match &mut o.obs {
        ObsBuf::F32(b) => ObsBuf::F32(&mut b[j * d.obs_len..(j + 1) * d.obs_len]),
        ObsBuf::U8(b) => ObsBuf::U8(&mut b[j * d.obs_len..(j + 1) * d.obs_len]),
    };
    let p = d.num_players;
    SlotOut {
        obs,
        mask: &mut o.mask[j * d.num_actions..(j + 1) * d.num_actions],
        player: &mut o.player[j],
        rewards: &mut o.rewards[j * p..(j + 1) * p],
        terminated: &mut o.terminated[j],
        truncated: &mut o.truncated[j],
        final_returns: &mut o.final_returns[j * p..(j + 1) * p],
        episode_len: &mut o.episode_len[j],
        legal: o.legal.as_mut().map(|l| (&mut l.count[j], &mut l.ids[j * d.max_legal..(j + 1) * d.max_legal])),
        scratch,
    }
}

impl<G: Game> DynBatch for TypedBatch<G> {
    fn dims(&self) -> BatchDims {
        self.dims
    }

    fn options(&self) -> &BatchOptions {
        &self.opts
    }

    fn reset(&mut self, seed: Option<u64>, out: &mut BatchOut<'_>) -> Result<(), BatchError> {
        self.check_out(out)?;
        let keep = self.fresh && seed.is_none();
        if let Some(s) = seed {
            self.opts.seed = s;
        }
        self.fresh = false;
        self.run(out, false, |ctx, i, slot, o| {
            if !keep {
                slot.episode = if seed.is_some() { 0 } else { slot.episode + 1 };
                ctx.start_episode(i, slot);
            }
            o.rewards.fill(0.0);
            o.final_returns.fill(0.0);
            *o.terminated = 0;
            *o.truncated = 0;
            *o.episode_len = 0;
            ctx.observe(slot, o, true);
        });
        Ok(())
    }

    fn step(&mut self, actions: &[ActionId], out: &mut BatchOut<'_>) -> Result<(), BatchError> {
        if actions.len() != self.dims.num_envs {
            return Err(BatchError::WrongLength { what: "actions", expected: self.dims.num_envs, got: actions.len() });
        }
        self.check_out(out)?;
        let ctx = Ctx { game: &self.game, explicit_chance: self.explicit_chance, opts: &self.opts, sparse_mask: false };
        for (i, (slot, &a)) in self.slots.iter().zip(actions).enumerate() {
            ctx.check(i, slot, a)?;
        }
        self.run(out, true, |ctx, i, slot, o| ctx.step_slot(i, slot, actions[i], o));
        self.fresh = false;
        Ok(())
    }

    fn forget_mask(&mut self) {
        self.last_mask = None;
    }

    fn set_threads(&mut self, threads: usize) -> Result<(), BatchError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(BatchError::OutOfRange(format!("config value out of range: threads must be in [1, {MAX_THREADS}], got {threads}")));
        }
        if threads != self.opts.threads {
            self.opts.threads = threads;
            self.pool = None;
            self.start_pool();
        }
        Ok(())
    }
}
