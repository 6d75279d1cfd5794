//! The stream's `events` messages (docs/server.md section 5), built once per position of a
//! game for each seat and for the spectators, serialized once, and shared as bytes by every
//! connection that stands where the message starts. A change of the game is acknowledged
//! first; its messages are built afterwards on the blocking pool from a copy of the game,
//! never under the game's lock or on the path of a move's commit.

use std::sync::{Arc, OnceLock};

use axum::extract::ws::Utf8Bytes;
use kassen_core::SPECTATOR;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::game::Live;
use crate::hub::Slot;

/// Messages built at once on the blocking pool, one per core: a burst of changes or of new
/// connections waits here instead of starting a thread each.
static BUILDERS: OnceLock<tokio::sync::Semaphore> = OnceLock::new();

/// Runs `build` on the blocking pool within [`BUILDERS`]; `None` if it panicked.
pub async fn on_builder<T: Send + 'static>(build: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let permits = BUILDERS.get_or_init(|| tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get())));
    let _permit = permits.acquire().await.ok()?;
    tokio::task::spawn_blocking(build).await.ok()
}

/// What the stream's `events` message depends on besides the seat and its first event: the
/// step, the bot searching and whether the game is over.
pub type Position = (i64, Option<i32>, bool);

/// One serialized `events` message.
pub struct Update {
    pub text: Utf8Bytes,
    /// The index of its first event.
    pub events_from: usize,
    /// The index after its last event.
    pub events_total: usize,
}

impl Update {
    /// Whether it carries any event.
    pub fn fresh(&self) -> bool {
        self.events_total > self.events_from
    }
}

/// The messages of one position: by seat, the spectators' last. Each starts where the
/// previous frame of the game ended for that seat, so a connection that sent the previous
/// frame sends this one as it is.
pub struct Frame {
    pub at: Position,
    pub seats: Vec<Update>,
}

impl Frame {
    /// The message of `seat` (None: a spectator).
    pub fn of(&self, seat: Option<i32>) -> &Update {
        let i = seat.and_then(|s| usize::try_from(s).ok()).filter(|&s| s + 1 < self.seats.len());
        &self.seats[i.unwrap_or(self.seats.len() - 1)]
    }
}

/// The `events` message, written straight to JSON text (the events as the engine writes
/// them, not parsed again).
#[derive(Serialize)]
struct Message<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    events: &'a RawValue,
    events_from: usize,
    events_total: usize,
    step: i64,
    to_act: Option<i32>,
    thinking: Option<i32>,
    terminal: bool,
    returns: &'a Value,
    winners: &'a Value,
    status: &'static str,
    result: &'a Option<Value>,
    last_move: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<Vec<Value>>,
}

/// The `events` message of `seat` (None: a spectator) from its event `since`: the events, the
/// position of play, the last move as the seat may see it, and its legal moves when it is to
/// act.
pub fn message(live: &Live, seat: Option<i32>, since: usize) -> Update {
    let player = seat.unwrap_or(SPECTATOR);
    let state = live.state.as_ref().expect("a supported game");
    let events = state.events_with_text_json(player, since).unwrap_or_else(|_| "[]".into());
    let n = serde_json::from_str::<Vec<&RawValue>>(&events).map_or(0, |v| v.len());
    let raw: Box<RawValue> = RawValue::from_string(events).unwrap_or_else(|_| RawValue::from_string("[]".into()).expect("json"));
    let null = Value::Null;
    let (returns, winners) = match &live.result {
        Some(r) => (&r["returns"], &r["winners"]),
        None => (&null, &null),
    };
    let msg = Message {
        kind: "events",
        events: &raw,
        events_from: since,
        events_total: since + n,
        step: live.step,
        to_act: live.to_act(),
        thinking: live.thinking,
        terminal: live.finished,
        returns,
        winners,
        status: live.status(),
        result: &live.result,
        last_move: live.last_move(player),
        legal: (seat.is_some() && live.to_act() == seat).then(|| live.legal(seat)),
    };
    let text = serde_json::to_string(&msg).expect("messages serialize");
    Update { text: text.into(), events_from: since, events_total: since + n }
}

/// The frame of `live`'s position: each seat's message from where `prev` ended for it (from
/// its present number of events when there is no previous frame: an empty message).
fn frame(live: &Live, prev: Option<&Frame>) -> Frame {
    let n = live.meta.seats.len();
    let seats = (0..=n)
        .map(|i| {
            let seat = (i < n).then_some(i as i32);
            let since = match prev {
                Some(p) => p.of(seat).events_total,
                None => {
                    let player = seat.unwrap_or(SPECTATOR);
                    live.state.as_ref().and_then(|s| s.events_since(player, 0).ok()).map_or(0, |e| e.len())
                }
            };
            message(live, seat, since)
        })
        .collect();
    Frame { at: live.position(), seats }
}

/// Builds and publishes the frame of the game's present position, after a change. One build
/// at a time per game, from the newest position (a burst of changes gives one frame); nothing
/// is built while no connection watches.
pub async fn publish(slot: Arc<Slot>) {
    let _one = slot.building.lock().await;
    if slot.frames.receiver_count() == 0 {
        slot.frames.send_replace(None);
        return;
    }
    let copy = {
        let live = slot.live.lock().await;
        if !live.supported() || slot.frames.borrow().as_ref().is_some_and(|f| f.at == live.position()) {
            return;
        }
        live.clone()
    };
    let prev = slot.frames.borrow().clone();
    if let Some(f) = on_builder(move || frame(&copy, prev.as_deref())).await {
        slot.frames.send_replace(Some(Arc::new(f)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{self, HUMAN};
    use crate::store::{GameRow, SeatRow};
    use kassen_core::rng::Rng;

    /// A 2-player Samurai game at its start, as the server holds it.
    fn started() -> Live {
        let handle = kassen_core::load_game("samurai", Some(&serde_json::json!({"players": 2}))).unwrap();
        let row = GameRow {
            id: "0123456789abcdef".into(),
            game: "samurai".into(),
            config: handle.info_json()["config"].to_string(),
            seed: 3,
            rules_version: handle.info().rules_version.clone(),
            status: "active".into(),
            step: 0,
            to_act: Some(0),
            result: None,
            created_at: 0,
            updated_at: 0,
        };
        let seats: Vec<SeatRow> = (0..2).map(|seat| SeatRow { seat, kind: HUMAN.into(), token_hash: None }).collect();
        let meta = Arc::new(game::meta_of(&row, &seats));
        let state = handle.new_initial_state(3);
        crate::hub::live_of(meta, Some(state), &row)
    }

    fn events(u: &Update) -> Vec<Value> {
        let m: Value = serde_json::from_str(&u.text).unwrap();
        m["events"].as_array().unwrap().clone()
    }

    #[test]
    fn each_frame_starts_where_the_last_ended_and_is_the_seats_own_message() {
        let mut live = started();
        let mut rng = Rng::from_seed(11);
        let mut prev: Option<Frame> = None;
        // Each seat's events as the frames told them, from the first frame's start.
        let mut told: Vec<Vec<Value>> = vec![Vec::new(); 3];
        let mut base = Vec::new();
        for _ in 0..40 {
            let f = frame(&live, prev.as_ref());
            for (i, seat) in [Some(0), Some(1), None].into_iter().enumerate() {
                let u = f.of(seat);
                match &prev {
                    Some(p) => assert_eq!(u.events_from, p.of(seat).events_total, "seat {seat:?}: a gap or an overlap"),
                    None => base.push(u.events_from),
                }
                // The shared message is the one a connection standing there would build itself.
                assert_eq!(u.text, message(&live, seat, u.events_from).text, "seat {seat:?} at step {}", live.step);
                told[i].extend(events(u));
                let player = seat.unwrap_or(SPECTATOR);
                // The last move is the view's last action, read without building the view.
                let view = live.state.as_ref().unwrap().view(player).unwrap();
                let (last, shown) = (&view["last_action"], live.last_move(player));
                if last.is_object() {
                    for key in ["seat", "text"] {
                        assert_eq!(shown[key], *last.get(key).unwrap_or(&Value::Null), "seat {seat:?}: last move's {key}");
                    }
                } else {
                    assert!(shown.is_null(), "seat {seat:?}: a last move before any: {shown}");
                }
                let engine: Value =
                    serde_json::from_str(&live.state.as_ref().unwrap().events_with_text_json(player, base[i]).unwrap()).unwrap();
                assert_eq!(Value::Array(told[i].clone()), engine, "seat {seat:?}");
            }
            let state = live.state.as_mut().unwrap();
            if state.is_terminal() {
                break;
            }
            let legal = state.legal_actions();
            let p = state.current_player();
            state.apply_as(p, legal[rng.below(legal.len() as u32) as usize]).unwrap();
            live.last_step = Some(live.step);
            live.step += 1;
            prev = Some(f);
        }
        assert!(told[0].len() > 10, "the game went on: {} events", told[0].len());
    }
}
