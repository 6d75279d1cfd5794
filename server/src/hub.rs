//! The games in memory: a bounded cache of positions rebuilt from the record, one lock per
//! game that serializes its moves, and a change signal per game that the live streams watch.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::watch;

use crate::frames::{self, Frame};
use crate::game::{self, Live, Meta, Unplayable};
use crate::store::{GameRow, Store, StoreError};

/// One cached game.
pub struct Slot {
    pub meta: Arc<Meta>,
    pub live: tokio::sync::Mutex<Live>,
    /// Bumped after every change; the live streams wait on it.
    pub changed: watch::Sender<u64>,
    /// The stream's messages of the latest position built ([`frames::publish`]), shared by
    /// every connection of a seat and by all spectators.
    pub frames: watch::Sender<Option<Arc<Frame>>>,
    /// Held while the frame of a position is built: one build at a time.
    pub building: tokio::sync::Mutex<()>,
    /// What a bot thinking in the game has searched so far, as the stream's `progress`
    /// message (docs/server.md section 5).
    pub progress: watch::Sender<Option<axum::extract::ws::Utf8Bytes>>,
    last_used: AtomicU64,
}

impl Slot {
    /// Tells the watchers that the game changed, and builds the stream's messages of its new
    /// position (on their own task: the caller, a move's commit, does not wait for them).
    pub fn bump(self: &Arc<Self>) {
        self.changed.send_modify(|v| *v += 1);
        tokio::spawn(frames::publish(self.clone()));
    }

    /// Tells the connections how far the bot of `seat`, thinking on `step`, has searched
    /// (`None`: it has stopped).
    pub fn show_progress(&self, seat: i32, step: i64, progress: Option<&Value>) {
        let text = progress.map(|p| {
            let mut m = serde_json::json!({"type": "progress", "seat": seat, "step": step});
            m["iterations"] = p["iterations"].clone();
            m["elapsed_ms"] = p["elapsed_ms"].clone();
            m.to_string().into()
        });
        self.progress.send_replace(text);
    }
}

pub struct Hub {
    slots: Mutex<HashMap<String, Arc<Slot>>>,
    capacity: usize,
    tick: AtomicU64,
}

impl Hub {
    pub fn new(capacity: usize) -> Hub {
        Hub { slots: Mutex::new(HashMap::new()), capacity, tick: AtomicU64::new(0) }
    }

    fn touch(&self, slot: &Slot) {
        slot.last_used.store(self.tick.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
    }

    /// The cached game `id`, if it is in memory.
    pub fn cached(&self, id: &str) -> Option<Arc<Slot>> {
        let slot = self.slots.lock().expect("hub lock").get(id).cloned()?;
        self.touch(&slot);
        Some(slot)
    }

    /// Every cached game.
    pub fn all(&self) -> Vec<Arc<Slot>> {
        self.slots.lock().expect("hub lock").values().cloned().collect()
    }

    /// Game `id`, from the cache or rebuilt from the record.
    pub async fn get(&self, store: &dyn Store, id: &str) -> Result<Option<Arc<Slot>>, StoreError> {
        if let Some(slot) = self.cached(id) {
            return Ok(Some(slot));
        }
        let Some((row, seats)) = store.game(id).await? else { return Ok(None) };
        let meta = Arc::new(game::meta_of(&row, &seats));
        let moves = if meta.handle.is_some() { store.moves_from(id, 0).await? } else { Vec::new() };
        // Replaying a long record is engine work: off the runtime's worker threads.
        let (replayed, moves) = {
            let meta = meta.clone();
            tokio::task::spawn_blocking(move || (game::replay(&meta, &moves), moves)).await
        }
        .map_err(|e| StoreError(format!("replay of game {id}: {e}")))?;
        let state = match replayed {
            Ok(s) => Some(s),
            Err(Unplayable::Rules) => None,
            Err(Unplayable::Record(why)) => {
                eprintln!("kassen-server: game {id} does not replay ({why}); listed as unsupported");
                None
            }
        };
        let mut live = live_of(meta.clone(), state, &row);
        live.last_step = game::last_seat_move(&moves);
        Ok(Some(self.insert(meta, live)))
    }

    /// Puts a game in the cache (or returns the one another task put there first), dropping
    /// the least recently used games nobody watches when the cache is full.
    pub fn insert(&self, meta: Arc<Meta>, live: Live) -> Arc<Slot> {
        let mut slots = self.slots.lock().expect("hub lock");
        if let Some(slot) = slots.get(&meta.id) {
            return slot.clone();
        }
        if slots.len() >= self.capacity {
            let mut idle: Vec<(u64, String)> = slots
                .iter()
                .filter(|(_, s)| Arc::strong_count(s) == 1 && s.changed.receiver_count() == 0)
                .map(|(k, s)| (s.last_used.load(Ordering::Relaxed), k.clone()))
                .collect();
            idle.sort_unstable();
            let drop = (slots.len() + 1 - self.capacity * 9 / 10).min(idle.len());
            for (_, k) in idle.into_iter().take(drop) {
                slots.remove(&k);
            }
        }
        let (changed, _) = watch::channel(0);
        let slot = Arc::new(Slot {
            meta: meta.clone(),
            live: tokio::sync::Mutex::new(live),
            changed,
            frames: watch::channel(None).0,
            building: tokio::sync::Mutex::new(()),
            progress: watch::channel(None).0,
            last_used: AtomicU64::new(0),
        });
        self.touch(&slot);
        slots.insert(meta.id.clone(), slot.clone());
        slot
    }
}

/// The live game of a stored row and its rebuilt state.
pub fn live_of(meta: Arc<Meta>, state: Option<kassen_core::StateHandle>, row: &GameRow) -> Live {
    Live {
        meta,
        state,
        finished: row.status == "finished",
        step: row.step,
        result: row.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
        updated_at: row.updated_at,
        thinking: None,
        bot_progress: None,
        last_step: None,
    }
}

/// Brings a cached game up to the record (after another process changed it): the moves after
/// its step and the row's status. Returns whether anything changed.
pub async fn refresh(store: &dyn Store, slot: &Slot, live: &mut Live) -> Result<bool, StoreError> {
    let Some((row, _)) = store.game(&slot.meta.id).await? else { return Ok(false) };
    if row.step == live.step && (row.status == "finished") == live.finished {
        return Ok(false);
    }
    if let Some(state) = live.state.as_mut() {
        let moves = store.moves_from(&slot.meta.id, live.step).await?;
        if let Some(s) = game::last_seat_move(&moves) {
            live.last_step = Some(s);
        }
        for m in moves {
            if m.step != state.history().len() as i64 {
                break;
            }
            let ok = u32::try_from(m.action).ok().is_some_and(|a| state.apply_in_place(a).is_ok());
            if !ok {
                eprintln!("kassen-server: game {} step {} does not replay", slot.meta.id, m.step);
                live.state = None;
                break;
            }
            live.step = m.step + 1;
        }
    }
    if live.state.is_none() {
        live.step = row.step;
    }
    live.finished = row.status == "finished";
    live.result = row.result.as_deref().and_then(|r| serde_json::from_str(r).ok());
    live.updated_at = row.updated_at;
    Ok(true)
}
