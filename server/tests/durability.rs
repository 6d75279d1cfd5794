//! The record is the truth: a server killed with SIGKILL at random moments while clients
//! send moves loses no acknowledged move and goes on; a game stored under rules this build
//! does not play is kept and listed as such.

mod common;

use std::time::Duration;

use common::{fresh_database, Client, Created, Server};
use kassen_core::rng::Rng;
use serde_json::json;

/// Plays random legal moves on `g` until the connection fails; returns the acknowledged
/// `(step, action)` pairs.
async fn mover(c: Client, g: Created, seed: u64) -> Vec<(u64, u64)> {
    let mut acked = Vec::new();
    let mut rng = Rng::from_seed(seed);
    loop {
        let r = c.get(&format!("/api/games/{}/snapshot", g.id), g.tokens[0].as_deref()).await;
        if r.status != 200 {
            return acked;
        }
        let Some(p) = r.json["to_act"].as_u64() else { return acked };
        let snap = c.get(&format!("/api/games/{}/snapshot", g.id), g.tokens[p as usize].as_deref()).await;
        let Some(legal) = snap.json["legal"].as_array().filter(|l| !l.is_empty()).cloned() else { return acked };
        let a = legal[rng.below(legal.len() as u32) as usize]["id"].as_u64().unwrap();
        let step = snap.json["step"].as_u64().unwrap();
        let r = c.play(&g.id, g.tokens[p as usize].as_deref().unwrap(), a, step as i64).await;
        match r.status {
            200 => acked.push((step, a)),
            0 => return acked,
            _ => return acked,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigkill_at_random_moments_loses_no_acknowledged_move() {
    let db = fresh_database().await;
    let mut server = Server::start(&db, &[]);
    let c = server.client();
    let mut games = Vec::new();
    for i in 0..4u64 {
        games.push(c.create("samurai", json!({"players": 2}), 100 + i, &["human", "human"]).await);
    }
    let mut acked: Vec<Vec<(u64, u64)>> = vec![Vec::new(); games.len()];
    let mut rng = Rng::from_seed(99);
    for round in 0..12 {
        let c = server.client();
        let tasks: Vec<_> = games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let g = Created { id: g.id.clone(), tokens: g.tokens.clone(), json: g.json.clone() };
                tokio::spawn(mover(c.clone(), g, round * 10 + i as u64))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(5 + u64::from(rng.below(120)))).await;
        server.kill();
        for (i, t) in tasks.into_iter().enumerate() {
            acked[i].extend(t.await.unwrap());
        }
        server.kill_and_restart();
        let c = server.client();
        for (i, g) in games.iter().enumerate() {
            let s = c.get(&format!("/api/games/{}", g.id), None).await.json;
            let step = s["step"].as_u64().unwrap();
            for &(k, _) in &acked[i] {
                assert!(k < step, "round {round}: acknowledged step {k} of game {i} is missing (record has {step})");
            }
            if s["finished"] == true {
                let replay = c.get(&format!("/api/games/{}/replay", g.id), None).await.json;
                for &(k, a) in &acked[i] {
                    assert_eq!(replay["moves"][k as usize]["action"], a, "round {round}: game {i} step {k}");
                }
            }
        }
    }
    assert!(acked.iter().map(Vec::len).sum::<usize>() > 0, "moves were acknowledged");
    // Every game goes on where it stood: finish them all and check every acknowledged action.
    let c = server.client();
    for (i, g) in games.iter().enumerate() {
        let g2 = Created { id: g.id.clone(), tokens: g.tokens.clone(), json: g.json.clone() };
        acked[i].extend(mover(c.clone(), g2, 7).await);
        let replay = c.get(&format!("/api/games/{}/replay", g.id), None).await;
        assert_eq!(replay.status, 200, "game {i} was played to its end: {}", replay.text);
        for &(k, a) in &acked[i] {
            assert_eq!(replay.json["moves"][k as usize]["action"], a, "game {i} step {k}");
        }
    }
}

#[tokio::test]
async fn a_game_under_rules_this_build_does_not_play_is_kept_and_listed() {
    let db = fresh_database().await;
    let mut server = Server::start(&db, &[]);
    let c = server.client();
    let done = c.create("samurai", json!({}), 1, &["human", "human"]).await;
    let r = c.post(&format!("/api/games/{}/resign", done.id), Some(done.token(0)), &json!({})).await;
    assert_eq!(r.status, 200);
    let open = c.create("samurai", json!({}), 2, &["human", "human"]).await;
    server.kill();
    // The stored games name a rules version this build does not have.
    {
        use sqlx::Connection;
        let url = db.clone();
        let sql = "UPDATE games SET rules_version = 'samurai/0-retired'";
        if url.starts_with("sqlite:") {
            let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
            sqlx::query(sql).execute(&mut conn).await.unwrap();
        } else {
            let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
            sqlx::query(sql).execute(&mut conn).await.unwrap();
        }
    }
    server.kill_and_restart();
    let c = server.client();
    for g in [&done, &open] {
        let s = c.get(&format!("/api/games/{}", g.id), None).await;
        assert_eq!(s.status, 200);
        assert_eq!(s.json["status"], "unsupported_rules");
        let snap = c.get(&format!("/api/games/{}/snapshot", g.id), None).await;
        assert_eq!((snap.status, snap.code()), (410, 1012));
        let mv = c.play(&g.id, g.token(0), 0, 0).await;
        assert_eq!(mv.code(), 1012, "never replayed under other rules");
    }
    let listed = c.get("/api/games", None).await.json;
    assert!(listed["games"].as_array().unwrap().iter().all(|g| g["status"] == "unsupported_rules"));
    let mine = c.post("/api/my-games", None, &json!({"seats": [{"game_id": open.id, "token": open.token(1)}]})).await.json;
    assert_eq!(mine["games"][0]["status"], "unsupported_rules");
    assert_eq!(mine["games"][0]["your_turn"], false);
    // The finished game's record stays readable.
    let replay = c.get(&format!("/api/games/{}/replay", done.id), None).await;
    assert_eq!(replay.status, 200);
    assert_eq!(replay.json["result"]["resigned"], 0);
    assert!(replay.json.get("save").is_none());
    let early = c.get(&format!("/api/games/{}/replay", open.id), None).await;
    assert_eq!(early.code(), 1013);
}
