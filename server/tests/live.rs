//! The WebSocket stream against the running server (docs/server.md section 5): resumption
//! without gap or duplicate, and the hidden-information check over the wire: every message a
//! seat's connection receives is what the engine gives that seat, and what a determinization
//! of the game for that seat (a world it cannot tell apart) gives it too.

mod common;

use common::{fresh_database, Client, Created, Server, Ws};
use kassen_core::rng::Rng;
use kassen_core::{load_game, StateHandle, SPECTATOR};
use serde_json::{json, Value};

/// The seat's events from `from` as the engine gives them, with their sentences.
fn engine_events(s: &StateHandle, player: i32, from: usize) -> Value {
    serde_json::from_str(&s.events_with_text_json(player, from).unwrap()).unwrap()
}

/// The legal moves the engine gives the seat to act, as the server words them.
fn engine_legal_ids(s: &StateHandle) -> Vec<u64> {
    s.legal_actions().into_iter().map(u64::from).collect()
}

/// Reads `events` messages until the stream reports step `step`; returns their events.
/// Plays a random legal move of `local` for the seat to act through the server, mirrors it in
/// `local`, and returns the step after it.
async fn play_random(c: &Client, g: &Created, local: &mut StateHandle, rng: &mut Rng, step: i64) -> i64 {
    let p = local.current_player();
    let legal = local.legal_actions();
    let a = legal[rng.below(legal.len() as u32) as usize];
    let r = c.play(&g.id, g.token(p as usize), a as u64, step).await;
    assert_eq!(r.status, 200, "{}", r.text);
    local.apply_as(p, a).unwrap();
    step + 1
}

async fn events_until(ws: &mut Ws, step: usize, got: &mut Vec<Value>, last: &mut Value) {
    loop {
        let m = ws.next_of("events").await;
        assert_eq!(m["events_from"].as_u64().unwrap() as usize, got.len(), "no gap, no duplicate: {m}");
        got.extend(m["events"].as_array().unwrap().iter().cloned());
        assert_eq!(m["events_total"].as_u64().unwrap() as usize, got.len());
        let done = m["step"].as_u64().unwrap() as usize >= step;
        *last = m;
        if done {
            return;
        }
    }
}

#[tokio::test]
async fn every_message_of_a_seat_is_what_the_engine_gives_that_seat_and_its_twin() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    for (game, config, seed) in [("samurai", json!({"players": 3}), 17u64), ("sekigahara", json!({}), 5)] {
        let seats = load_game(game, Some(&config)).unwrap().num_players();
        let humans = vec!["human"; seats];
        let g = c.create(game, config.clone(), seed, &humans).await;
        let mut local = load_game(game, Some(&config)).unwrap().new_initial_state(seed);
        // One connection per seat and one spectator.
        let mut conns = Vec::new();
        for p in 0..seats {
            let mut ws = c.ws(&g.id, json!({"type": "hello", "token": g.token(p), "since": 0})).await;
            let welcome = ws.next_of("welcome").await;
            assert_eq!(welcome["seat"], p);
            conns.push((p as i32, ws, Vec::new(), Value::Null));
        }
        let mut spectator = c.ws(&g.id, json!({"type": "hello", "since": 0})).await;
        assert_eq!(spectator.next_of("welcome").await["seat"], Value::Null);
        conns.push((SPECTATOR, spectator, Vec::new(), Value::Null));
        let mut rng = Rng::from_seed(seed);
        let mut moves = 0;
        // The record's step: one entry per move (chance is drawn inside the engine here).
        let mut step = 0usize;
        while !local.is_terminal() && moves < 120 {
            for (p, ws, got, last) in conns.iter_mut() {
                events_until(ws, step, got, last).await;
                // Over the wire = the engine's own answer for this seat.
                assert_eq!(Value::Array(got.clone()), engine_events(&local, *p, 0), "seat {p} events at step {step}");
                assert_eq!(last["to_act"], json!(local.current_player()));
                let legal: Option<Vec<u64>> =
                    last.get("legal").map(|l| l.as_array().unwrap().iter().map(|x| x["id"].as_u64().unwrap()).collect());
                if *p == local.current_player() {
                    assert_eq!(legal, Some(engine_legal_ids(&local)), "seat {p} legal moves");
                } else {
                    assert_eq!(legal, None, "seat {p} gets no legal moves out of turn");
                }
                // The same messages in a world the seat cannot tell from this one.
                let twin = local.determinize(*p, rng.next_u64()).unwrap();
                assert_eq!(Value::Array(got.clone()), engine_events(&twin, *p, 0), "seat {p}'s stream equals its twin's");
                if *p == local.current_player() {
                    assert_eq!(legal, Some(engine_legal_ids(&twin)));
                }
            }
            // Every fifth step: the snapshot (view and board) equals the engine's and the twin's.
            if moves % 5 == 0 {
                for p in (0..seats as i32).chain([SPECTATOR]) {
                    let token = (p >= 0).then(|| g.token(p as usize));
                    let snap = c.snapshot(&g.id, token, 0).await;
                    assert_eq!(snap["view"], local.view(p).unwrap(), "seat {p} view");
                    assert_eq!(snap["svg"], json!(local.render_svg(p).unwrap()), "seat {p} board");
                    let twin = local.determinize(p, rng.next_u64()).unwrap();
                    assert_eq!(snap["view"], twin.view(p).unwrap(), "seat {p} view equals its twin's");
                    assert_eq!(snap["events"], engine_events(&twin, p, 0));
                }
            }
            let actor = local.current_player();
            let legal = local.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            let (_, ws, _, _) = conns.iter_mut().find(|x| x.0 == actor).unwrap();
            // A connection may send 20 messages a second (docs/server.md section 7): a client
            // that plays faster is refused, so this one keeps to the pace.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            ws.send(json!({"type": "move", "action": a, "step": step, "ref": moves})).await;
            let ack = ws.next_of("ack").await;
            assert_eq!(ack["ref"], moves);
            local.apply_as(actor, a).unwrap();
            step += 1;
            assert_eq!(ack["step"], step);
            moves += 1;
        }
    }
}

#[tokio::test]
async fn a_reconnecting_client_resumes_at_its_event_index() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    let g = c.create("samurai", json!({}), 23, &["human", "human"]).await;
    let mut local = load_game("samurai", Some(&json!({}))).unwrap().new_initial_state(23);
    let mut rng = Rng::from_seed(2);
    let mut got: Vec<Value> = Vec::new();
    let mut last = Value::Null;
    let mut ws = c.ws(&g.id, json!({"token": g.token(0), "since": 0})).await;
    let mut round = 0;
    let mut step = 0i64;
    while !local.is_terminal() {
        // Every few moves the watcher drops its connection; moves go on while it is away.
        if round % 3 == 1 {
            drop(ws);
            for _ in 0..2 {
                if local.is_terminal() {
                    break;
                }
                step = play_random(&c, &g, &mut local, &mut rng, step).await;
            }
            ws = c.ws(&g.id, json!({"token": g.token(0), "since": got.len()})).await;
        }
        events_until(&mut ws, step as usize, &mut got, &mut last).await;
        assert_eq!(Value::Array(got.clone()), engine_events(&local, 0, 0), "the resumed stream is the whole history");
        if local.is_terminal() {
            break;
        }
        step = play_random(&c, &g, &mut local, &mut rng, step).await;
        round += 1;
    }
    assert_eq!(last["terminal"], true);
    // Polling gives the same events as the stream.
    let snap = c.snapshot(&g.id, Some(g.token(0)), 3).await;
    assert_eq!(snap["events"], Value::Array(got[3..].to_vec()));
    assert_eq!(snap["events_total"], got.len());
}

#[tokio::test]
async fn the_stream_refuses_foreign_origins_bad_hellos_and_spectator_moves() {
    let server = Server::start(&fresh_database().await, &["--allow-origin", "https://play.example"]);
    let c = server.client();
    let g = c.create("samurai", json!({}), 1, &["human", "human"]).await;
    let path = format!("/api/games/{}/ws", g.id);
    let upgrade = |origin: &str| {
        vec![
            "Upgrade: websocket".to_string(),
            "Connection: Upgrade".to_string(),
            "Sec-WebSocket-Version: 13".to_string(),
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==".to_string(),
            format!("Origin: {origin}"),
        ]
    };
    let evil = c.raw("GET", &path, &upgrade("https://evil.example"), b"").await;
    assert_eq!((evil.status, evil.code()), (403, 1005));
    let own = c.raw("GET", &path, &upgrade(&format!("http://{}", c.addr)), b"").await;
    assert_eq!(own.status, 101);
    let allowed = c.raw("GET", &path, &upgrade("https://play.example"), b"").await;
    assert_eq!(allowed.status, 101);

    let mut bad = c.ws(&g.id, json!({"token": "not-a-token"})).await;
    let e = bad.next_of("error").await;
    assert_eq!(e["code"], 1004);
    assert!(bad.next().await.is_none(), "closed after a wrong token");
    let mut junk = c.ws(&g.id, json!({"hello": [1, 2]})).await;
    assert_eq!(junk.next_of("error").await["code"], 1000);

    let mut watcher = c.ws(&g.id, json!({})).await;
    watcher.next_of("events").await;
    watcher.send(json!({"type": "move", "action": 0, "step": 0, "ref": "x"})).await;
    let e = watcher.next_of("error").await;
    assert_eq!((e["code"].as_i64(), e["ref"].as_str()), (Some(1004), Some("x")));
    watcher.send(json!({"type": "ping"})).await;
    watcher.next_of("pong").await;
    assert_eq!(c.snapshot(&g.id, None, 0).await["step"], 0);
}

#[tokio::test]
async fn caps_and_rate_limits_answer_with_their_codes() {
    let db = fresh_database().await;
    let server = Server::start(&db, &["--rate", "2", "--burst", "3", "--max-games", "1", "--max-connections-per-ip", "1"]);
    let c = server.client();
    let g = c.create("samurai", json!({}), 1, &["human", "human"]).await;
    let second = c.post("/api/games", None, &json!({"game": "samurai", "seats": ["human", "human"]})).await;
    assert!(matches!(second.code(), 1010 | 1006), "{}", second.text);
    let mut codes = Vec::new();
    for _ in 0..6 {
        codes.push(c.get("/healthz", None).await.code());
    }
    let limited = c.get("/healthz", None).await;
    assert!(codes.contains(&1006) || limited.code() == 1006, "{codes:?}");
    assert!(limited.status == 200 || limited.json["retry_after_ms"].as_u64().is_some());
    drop(server);

    let server = Server::start(&db, &["--max-games", "1", "--max-connections-per-ip", "1"]);
    let c = server.client();
    let r = c.post("/api/games", None, &json!({"game": "samurai", "seats": ["human", "human"]})).await;
    assert_eq!((r.status, r.code()), (503, 1010));
    let mut first = c.ws(&g.id, json!({})).await;
    first.next_of("events").await;
    let upgrade = [
        "Upgrade: websocket".to_string(),
        "Connection: Upgrade".to_string(),
        "Sec-WebSocket-Version: 13".to_string(),
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==".to_string(),
    ];
    let second = c.raw("GET", &format!("/api/games/{}/ws", g.id), &upgrade, b"").await;
    assert_eq!((second.status, second.code()), (503, 1011));
}
