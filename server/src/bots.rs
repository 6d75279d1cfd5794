//! Bot seats: when a bot is to act, its search runs on the blocking pool, at most
//! `--bot-threads` searches at once, never on a request task; the chosen move is committed
//! like a person's ([`App::play`]).

use std::sync::Arc;

use crate::app::App;
use crate::hub::Slot;

/// Starts the bot to act in the game, if a bot is to act and none is searching yet.
pub fn kick(app: &Arc<App>, slot: &Arc<Slot>) {
    let app = app.clone();
    let slot = slot.clone();
    tokio::spawn(async move { turn(app, slot).await });
}

async fn turn(app: Arc<App>, slot: Arc<Slot>) {
    let (state, spec, seat, step) = {
        let mut live = slot.live.lock().await;
        if live.thinking.is_some() || live.finished {
            return;
        }
        let Some(seat) = live.to_act() else { return };
        let Some(s) = slot.meta.seat(seat).filter(|s| s.is_bot()) else { return };
        let Some(state) = live.state.clone() else { return };
        live.thinking = Some(seat);
        (state, s.kind.clone(), seat, live.step)
    };
    slot.bump();
    // The bot's own seed follows from the game's seed and the step.
    let seed = slot.meta.seed ^ (step as u64).wrapping_mul(0xD1B5_4A32_D192_ED03) ^ 0x6b61_7373_656e;
    let choice = match app.bot_pool.acquire().await {
        Ok(_permit) => tokio::task::spawn_blocking(move || {
            let mut bot = kassen_core::bots::from_spec(&spec, seed).map_err(|e| e.to_string())?;
            bot.try_choose(&state).map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| format!("the bot's search failed: {e}"))
        .and_then(|r| r),
        Err(_) => Err("the bot pool is closed".to_string()),
    };
    let played = match choice {
        Ok(a) => app.play(&slot, seat, i64::from(a), step).await.map_err(|e| e.message),
        Err(e) => Err(e),
    };
    if let Err(e) = played {
        // A lost race (another process moved first) is expected; anything else is logged.
        if !e.contains("answers another step") {
            eprintln!("kassen-server: bot of game {} seat {seat}: {e}", slot.meta.id);
        }
        let mut live = slot.live.lock().await;
        if live.thinking == Some(seat) {
            live.thinking = None;
        }
        drop(live);
        slot.bump();
    }
}
