//! The server's shared state and its three ways of changing a game: create, play, resign.
//! Every change is committed to the record before it is acknowledged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use kassen_core::{load_game, ActionId, SPECTATOR};
use serde_json::{json, Value};

use crate::error::{ApiError, Code};
use crate::game::{self, Live, Meta, Seat, HUMAN};
use crate::hub::{self, Hub, Slot};
use crate::limits::Limits;
use crate::settings::Settings;
use crate::store::{Appended, GameRow, MoveRow, SeatRow, Store, Update};
use crate::{bots, tokens};

pub struct App {
    pub store: Box<dyn Store>,
    pub hub: Hub,
    pub settings: Settings,
    pub limits: Limits,
    /// The bots thinking now (a bounded pool).
    pub bots: bots::BotPool,
    pub catalog: Value,
    /// Several processes may share the database (PostgreSQL).
    pub shared_db: bool,
    /// rules_version of each game id under each config, as this build plays it.
    rules: Mutex<HashMap<(String, String), Option<String>>>,
}

pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// `GET /api/catalog`: the games a lobby offers, each with its seat names and normalized
/// config under the defaults, its player counts, and the example configs (the engine's
/// covered configs) with their seat names; and the bots.
fn catalog() -> Value {
    let games: Vec<Value> = kassen_core::games()
        .into_iter()
        .filter_map(|(id, name)| {
            let g = load_game(id, None).ok()?;
            let info = g.info();
            let configs = kassen_core::covered_configs(id);
            let config_seats: Vec<Value> = configs
                .iter()
                .map(|c| load_game(id, Some(c)).map_or(Value::Null, |h| json!(game::seat_names(&h.new_initial_state(0)))))
                .collect();
            Some(json!({"id": id, "name": name, "seats": game::seat_names(&g.new_initial_state(0)),
                        "default_config": g.info_json()["config"], "players": (info.min_players..=info.max_players).collect::<Vec<_>>(),
                        "configs": configs, "config_seats": config_seats}))
        })
        .collect();
    json!({"games": games, "bots": kassen_core::bots::specs()})
}

/// A bot seat's spec must be one the catalog offers (their budgets are bounded).
pub fn is_catalog_bot(spec: &str) -> bool {
    kassen_core::bots::specs().iter().any(|b| b.spec == spec)
}

impl App {
    pub fn new(store: Box<dyn Store>, settings: Settings) -> App {
        let shared_db = store.kind() == "postgres";
        let mut catalog = catalog();
        catalog["limits"] = json!({
            "max_body_bytes": crate::settings::MAX_BODY, "max_json_depth": crate::settings::MAX_DEPTH,
            "max_ws_message_bytes": crate::settings::MAX_WS_MESSAGE, "max_my_games": crate::settings::MAX_MY_GAMES,
            "rate_per_second": settings.rate, "burst": settings.burst, "creates_per_minute": settings.creates_per_minute,
        });
        App {
            store,
            hub: Hub::new(settings.cache_games),
            limits: Limits::new(&settings),
            bots: bots::BotPool::new(settings.bot_threads),
            catalog,
            shared_db,
            settings,
            rules: Mutex::new(HashMap::new()),
        }
    }

    /// Game `id` in memory, or 1003.
    pub async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if id.len() != 16 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ApiError::not_found());
        }
        self.hub.get(&*self.store, id).await.map_err(ApiError::storage)?.ok_or_else(ApiError::not_found)
    }

    /// Whether this build plays the stored game's rules.
    pub fn rules_supported(&self, row: &GameRow) -> bool {
        let key = (row.game.clone(), row.config.clone());
        let mut rules = self.rules.lock().expect("rules lock");
        let version = rules.entry(key).or_insert_with(|| {
            let config: Value = serde_json::from_str(&row.config).ok()?;
            load_game(&row.game, Some(&config)).ok().map(|g| g.info().rules_version.clone())
        });
        version.as_deref() == Some(row.rules_version.as_str())
    }

    /// `POST /api/games`, on its own task like [`App::play`]: a game committed to the record
    /// is in the cache and its first bot started, even when the caller gave up.
    pub async fn create(self: &Arc<Self>, game_id: &str, config: Value, seed: Option<u64>, seats: Vec<String>) -> Result<Value, ApiError> {
        let (app, game_id) = (self.clone(), game_id.to_string());
        tokio::spawn(async move { app.create_now(&game_id, config, seed, seats).await })
            .await
            .map_err(|e| ApiError::storage(format!("the game was not created: {e}")))?
    }

    async fn create_now(self: &Arc<Self>, game_id: &str, config: Value, seed: Option<u64>, seats: Vec<String>) -> Result<Value, ApiError> {
        if !config.is_object() {
            return Err(ApiError::engine(kassen_core::ErrorCode::InvalidConfig, "invalid config: config must be a json object"));
        }
        if config.get("data").is_some() {
            return Err(ApiError::engine(
                kassen_core::ErrorCode::InvalidConfig,
                "invalid config: replacement component data (\"data\") is not accepted online",
            ));
        }
        let handle = load_game(game_id, Some(&config))?;
        let n = handle.num_players();
        if seats.len() != n {
            return Err(ApiError::new(Code::BadSeats, format!("{game_id} under this config has {n} seats; got {}", seats.len())));
        }
        if let Some(bad) = seats.iter().find(|s| *s != HUMAN && !is_catalog_bot(s)) {
            return Err(ApiError::new(Code::BadSeats, format!("seat kind {bad:?} is neither \"human\" nor a bot of the catalog")));
        }
        let seed = match seed {
            Some(s) if s >= 1 << 53 => return Err(ApiError::new(Code::BadRequest, "seed must be below 2^53")),
            Some(s) => s,
            None => tokens::seed(),
        };
        if self.store.count_active().await.map_err(ApiError::storage)? >= self.settings.max_games {
            return Err(ApiError::new(Code::GamesCap, "the server holds its maximum of active games; try again later"));
        }
        let mut state = handle.new_initial_state(seed);
        let now = now_ms();
        let mut rows = Vec::new();
        game::settle_chance(&mut state, seed, now, &mut rows);
        let id = tokens::game_id();
        let names = game::seat_names(&state);
        let mut out_seats = Vec::new();
        let mut seat_rows = Vec::new();
        let mut meta_seats = Vec::new();
        for (i, kind) in seats.iter().enumerate() {
            let mut public = json!({"seat": i, "name": names[i], "kind": kind});
            let token = (kind == HUMAN).then(tokens::seat_token);
            if let Some(t) = &token {
                public["token"] = json!(t);
                public["invite"] = json!(format!("/g/{id}#seat={i}&token={t}"));
            }
            seat_rows.push(SeatRow { seat: i as i32, kind: kind.clone(), token_hash: token.as_deref().map(tokens::hash_hex) });
            meta_seats.push(Seat {
                seat: i as i32,
                name: names[i].clone(),
                kind: kind.clone(),
                token_hash: token.as_deref().map(tokens::hash),
            });
            out_seats.push(public);
        }
        let finished = state.is_terminal();
        let result = finished.then(|| game::played_out(&state));
        let row = GameRow {
            id: id.clone(),
            game: game_id.to_string(),
            config: handle.info_json()["config"].to_string(),
            seed: seed as i64,
            rules_version: handle.info().rules_version.clone(),
            status: if finished { "finished" } else { "active" }.into(),
            step: rows.len() as i64,
            to_act: game::to_act(&state),
            result: result.as_ref().map(Value::to_string),
            created_at: now,
            updated_at: now,
        };
        self.store.create(&row, &seat_rows, &rows).await.map_err(ApiError::storage)?;
        let meta = Arc::new(Meta {
            id: id.clone(),
            game: game_id.to_string(),
            game_name: game::game_name(game_id),
            handle: Some(handle.clone()),
            config: serde_json::from_str(&row.config).unwrap_or(Value::Null),
            seed,
            rules_version: row.rules_version.clone(),
            seats: meta_seats,
            created_at: now,
        });
        let step = rows.len() as i64;
        let to_act = row.to_act;
        let live = Live {
            meta: meta.clone(),
            state: Some(state),
            finished,
            step,
            result,
            updated_at: now,
            thinking: None,
            bot_progress: None,
            last_step: None,
        };
        let slot = self.hub.insert(meta, live);
        bots::kick(self, &slot);
        Ok(json!({"game_id": id, "seats": out_seats, "watch": format!("/g/{id}"), "step": step, "to_act": to_act}))
    }

    /// Plays `action` for `seat` answering `step`, then commits it (with any chance outcomes
    /// it leads to) before answering. Nothing changes on a refusal. The work runs to its end
    /// on its own task even when the caller gives up (a request timeout, a closed
    /// connection), so the cached position always matches what was committed.
    pub async fn play(self: &Arc<Self>, slot: &Arc<Slot>, seat: i32, action: i64, step: i64) -> Result<Value, ApiError> {
        let (app, slot) = (self.clone(), slot.clone());
        tokio::spawn(async move { app.play_now(&slot, seat, action, step).await })
            .await
            .map_err(|e| ApiError::storage(format!("the move failed: {e}")))?
    }

    async fn play_now(self: &Arc<Self>, slot: &Arc<Slot>, seat: i32, action: i64, step: i64) -> Result<Value, ApiError> {
        let mut live = slot.live.lock().await;
        if self.shared_db && step != live.step {
            // Another process may have moved the game on: read the record before refusing.
            hub::refresh(&*self.store, slot, &mut live).await.map_err(ApiError::storage)?;
        }
        check_playable(&live)?;
        if step != live.step {
            return Err(stale(live.step));
        }
        let Ok(a) = ActionId::try_from(action) else {
            let n = slot.meta.handle.as_ref().map_or(0, |g| g.info().num_distinct_actions);
            return Err(ApiError::engine(
                kassen_core::ErrorCode::ActionOutOfRange,
                format!("action {action} is out of range (the game has {n} distinct actions)"),
            ));
        };
        let now = now_ms();
        let seed = slot.meta.seed;
        let state = live.state.as_mut().expect("checked playable");
        let before = state.history().len();
        state.apply_as(seat, a)?;
        let mut rows = vec![MoveRow { step, seat, action, at: now }];
        game::settle_chance(state, seed, now, &mut rows);
        let new_step = step + rows.len() as i64;
        let finished = state.is_terminal();
        let result = finished.then(|| game::played_out(state));
        let update = Update {
            step: new_step,
            status: if finished { "finished" } else { "active" },
            to_act: game::to_act(state),
            result: result.as_ref().map(Value::to_string),
            updated_at: now,
        };
        let committed = self.store.append(&slot.meta.id, step, &rows, &update).await;
        match committed {
            Ok(Appended::Done) => {}
            other => {
                live.state.as_mut().expect("checked playable").rollback(before);
                return match other {
                    Ok(_) => {
                        hub::refresh(&*self.store, slot, &mut live).await.map_err(ApiError::storage)?;
                        Err(stale(live.step))
                    }
                    Err(e) => Err(ApiError::storage(e)),
                };
            }
        }
        live.step = new_step;
        live.last_step = Some(step);
        if live.thinking == Some(seat) {
            live.thinking = None;
            live.bot_progress = None;
        }
        live.finished = finished;
        live.result = result;
        live.updated_at = now;
        let answer = json!({"applied": true, "step": new_step, "to_act": live.to_act(), "status": live.status()});
        drop(live);
        slot.bump();
        bots::kick(self, slot);
        Ok(answer)
    }

    /// Ends the game: `seat` resigns (on its own task, like [`App::play`]). A bot thinking in
    /// the game stops.
    pub async fn resign(self: &Arc<Self>, slot: &Arc<Slot>, seat: i32) -> Result<Value, ApiError> {
        let (app, slot) = (self.clone(), slot.clone());
        tokio::spawn(async move { app.resign_now(&slot, seat).await })
            .await
            .map_err(|e| ApiError::storage(format!("the resignation failed: {e}")))?
    }

    async fn resign_now(self: &Arc<Self>, slot: &Arc<Slot>, seat: i32) -> Result<Value, ApiError> {
        let mut live = slot.live.lock().await;
        if self.shared_db {
            hub::refresh(&*self.store, slot, &mut live).await.map_err(ApiError::storage)?;
        }
        check_playable(&live)?;
        let now = now_ms();
        let result = game::resigned(&slot.meta, seat);
        let update = Update { step: live.step, status: "finished", to_act: None, result: Some(result.to_string()), updated_at: now };
        match self.store.append(&slot.meta.id, live.step, &[], &update).await.map_err(ApiError::storage)? {
            Appended::Done => {}
            Appended::Conflict => {
                hub::refresh(&*self.store, slot, &mut live).await.map_err(ApiError::storage)?;
                check_playable(&live)?;
                return Err(stale(live.step));
            }
        }
        live.finished = true;
        live.result = Some(result.clone());
        live.updated_at = now;
        live.thinking = None;
        live.bot_progress = None;
        drop(live);
        slot.bump();
        Ok(json!({"status": "finished", "result": result}))
    }

    /// Refreshes cached games another process changed (PostgreSQL notifications).
    pub async fn on_notice(self: &Arc<Self>, id: Option<String>) {
        let slots = match id {
            Some(id) => self.hub.cached(&id).into_iter().collect(),
            None => self.hub.all(),
        };
        for slot in slots {
            let mut live = slot.live.lock().await;
            match hub::refresh(&*self.store, &slot, &mut live).await {
                Ok(true) => {
                    drop(live);
                    slot.bump();
                    bots::kick(self, &slot);
                }
                Ok(false) => {}
                Err(e) => eprintln!("kassen-server: {e}"),
            }
        }
    }

    /// The spectator's replay page of a finished game.
    pub fn replay_html(live: &Live) -> Option<String> {
        kassen_core::render::replay::replay_html(live.state.as_ref()?, SPECTATOR).ok()
    }
}

fn stale(step: i64) -> ApiError {
    ApiError::new(Code::StaleStep, format!("the game is at step {step}: the move answers another step and was not played"))
        .with("step", json!(step))
}

fn check_playable(live: &Live) -> Result<(), ApiError> {
    if !live.supported() {
        return Err(unsupported());
    }
    if live.finished {
        return Err(ApiError::engine(kassen_core::ErrorCode::GameOver, "the game is over"));
    }
    Ok(())
}

pub fn unsupported() -> ApiError {
    ApiError::new(Code::UnsupportedRules, "this game's rules version is not played by this build of the engine")
}
