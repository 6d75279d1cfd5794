//! Bot seats on the server: an IS-MCTS seat searches in the background and shows that it is
//! thinking, a resignation during its search stops the search, and bot moves are in the record
//! like anybody's (they survive a SIGKILL and a restart).

mod common;

use std::time::Duration;

use common::{fresh_database, Client, Server};
use kassen_core::rng::Rng;
use serde_json::{json, Value};

/// Polls the game's summary until `done` says so (at most a minute).
async fn summary_until(c: &Client, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let s = c.get(&format!("/api/games/{id}"), None).await.json;
        if done(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the game {id} did not get there");
}

/// Plays seeded random moves for seat 0 until its turn ends (the bot's turn or the end).
async fn play_turn(c: &Client, id: &str, token: &str, rng: &mut Rng) {
    for _ in 0..100 {
        let snap = c.snapshot(id, Some(token), 0).await;
        if snap["to_act"] != 0 || snap["terminal"] == true {
            return;
        }
        let legal = snap["legal"].as_array().unwrap();
        let a = legal[rng.below(legal.len() as u32) as usize]["id"].as_u64().unwrap();
        let r = c.play(id, token, a, snap["step"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    panic!("seat 0's turn did not end");
}

#[tokio::test]
async fn a_resignation_stops_the_bot_search_of_its_game() {
    let server = Server::start(&fresh_database().await, &["--bot-threads", "1"]);
    let c = server.client();
    // The hard level searches for seconds: long enough to be stopped.
    let g = c.create("samurai", json!({"players": 2}), 5, &["human", "ismcts:hard"]).await;
    play_turn(&c, &g.id, g.token(0), &mut Rng::from_seed(1)).await;
    let thinking = summary_until(&c, &g.id, |s| s["thinking"] == 1 && s["thinking_progress"]["iterations"].as_u64() > Some(0)).await;
    assert_eq!(thinking["to_act"], 1, "{thinking}");
    let health = c.get("/healthz", None).await.json;
    assert_eq!(health["bots"]["thinking"], 1, "{health}");
    assert_eq!(health["bots"]["limit"], 1, "{health}");

    let r = c.post(&format!("/api/games/{}/resign", g.id), Some(g.token(0)), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let over = c.get(&format!("/api/games/{}", g.id), None).await.json;
    assert_eq!((over["status"].as_str(), over["thinking"].is_null()), (Some("finished"), true), "{over}");
    // The search ends because it was stopped, not because its budget ran out, and its move
    // is not played.
    let mut health = Value::Null;
    for _ in 0..600 {
        health = c.get("/healthz", None).await.json;
        if health["bots"]["thinking"] == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(health["bots"]["thinking"], 0, "{health}");
    assert_eq!(health["bots"]["stopped"], 1, "{health}");
    assert_eq!(health["bots"]["moves"], 0, "{health}");
    let replay = c.get(&format!("/api/games/{}/replay", g.id), None).await.json;
    assert!(replay["moves"].as_array().unwrap().iter().all(|m| m["seat"] != 1), "{replay}");
}

#[tokio::test]
async fn bot_moves_are_persisted_and_survive_a_restart() {
    let mut server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    let g = c.create("samurai", json!({"players": 2}), 6, &["human", "ismcts:easy"]).await;
    let mut rng = Rng::from_seed(2);
    for _ in 0..3 {
        play_turn(&c, &g.id, g.token(0), &mut rng).await;
        summary_until(&c, &g.id, |s| s["to_act"] == 0 || s["finished"] == true).await;
    }
    let before = c.get(&format!("/api/games/{}", g.id), None).await.json;
    let events = c.snapshot(&g.id, Some(g.token(0)), 0).await["events"].clone();
    server.kill_and_restart();
    let c = server.client();
    let after = c.get(&format!("/api/games/{}", g.id), None).await.json;
    assert_eq!(after["step"], before["step"], "{before} {after}");
    assert_eq!(c.snapshot(&g.id, Some(g.token(0)), 0).await["events"], events);
    let r = c.post(&format!("/api/games/{}/resign", g.id), Some(g.token(0)), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let replay = c.get(&format!("/api/games/{}/replay", g.id), None).await.json;
    let moves = replay["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, before["step"].as_u64().unwrap());
    assert!(moves.iter().filter(|m| m["seat"] == 1).count() >= 3, "the bot's three answers: {replay}");
}

#[tokio::test]
async fn the_stream_tells_how_far_a_thinking_bot_has_searched() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    let g = c.create("samurai", json!({"players": 2}), 5, &["human", "ismcts:hard"]).await;
    let mut ws = c.ws(&g.id, json!({"token": g.token(0), "since": 0})).await;
    play_turn(&c, &g.id, g.token(0), &mut Rng::from_seed(1)).await;
    let step = c.get(&format!("/api/games/{}", g.id), None).await.json["step"].clone();
    // Progress messages of the bot at the step it answers, counting up.
    let first = ws.next_of("progress").await;
    let second = ws.next_of("progress").await;
    for m in [&first, &second] {
        assert_eq!((&m["seat"], &m["step"]), (&json!(1), &step), "{m}");
    }
    assert!(second["iterations"].as_u64() >= first["iterations"].as_u64(), "{first} {second}");
    assert!(second["elapsed_ms"].as_f64() >= first["elapsed_ms"].as_f64(), "{first} {second}");
    // A connection that opens meanwhile is told at once.
    let mut late = c.ws(&g.id, json!({"since": 0})).await;
    assert_eq!(late.next_of("progress").await["seat"], 1);
    let r = c.post(&format!("/api/games/{}/resign", g.id), Some(g.token(0)), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
}
