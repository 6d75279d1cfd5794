//! A move whose client gives up while it is committed (the request times out, or the client
//! closes its connection) is either recorded and in the cached position, or in neither: the
//! position the server holds in memory afterwards equals the one a fresh process rebuilds from
//! the record.

mod common;

use common::{fresh_database, Server, Ws};
use kassen_core::rng::Rng;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// The first `events` message of a new connection of the seat with `token` (None: spectator)
/// from event 0: every event of the seat, the step, the seat to act, its legal moves and the
/// last move, all from the position the server holds.
async fn everything(c: &common::Client, id: &str, token: Option<&str>) -> Value {
    let mut ws = connect(c, id, json!({"token": token, "since": 0})).await;
    ws.next_of("events").await
}

/// A stream of game `id`; its opening request is tried again while it times out (under the
/// 1 ms request timeout an opening that waits on the database is cut), with a pause between
/// tries so that a busy moment of the machine passes, for up to a minute.
async fn connect(c: &common::Client, id: &str, hello: Value) -> Ws {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        if let Some(ws) = c.try_ws(id, hello.clone()).await {
            return ws;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("no stream of game {id} in a minute of tries");
}

/// Waits on the seat's stream for the position after `step` (which `seen` may be already).
async fn after(ws: &mut Ws, step: u64, seen: Option<Value>) -> Value {
    if let Some(m) = seen.filter(|m| m["step"].as_u64().unwrap() > step) {
        return m;
    }
    loop {
        let m = ws.next_of("events").await;
        if m["step"].as_u64().unwrap() > step {
            return m;
        }
    }
}

/// The same move again over the seat's stream, which no request timeout cuts: played if the
/// first try never got to the game, refused as stale (1007) if it was played. Returns the
/// answer and the last `events` message read meanwhile.
async fn again(ws: &mut Ws, action: u64, step: u64) -> (Value, Option<Value>) {
    ws.send(json!({"type": "move", "action": action, "step": step, "ref": step})).await;
    let mut seen = None;
    loop {
        let m = ws.next().await.expect("the stream stays open");
        match m["type"].as_str() {
            Some("events") => seen = Some(m),
            Some("ack" | "error") if m["ref"] == step => return (m, seen),
            _ => {}
        }
    }
}

/// Sends a move and closes the connection as soon as the request is written.
async fn post_and_leave(addr: &str, id: &str, token: &str, action: u64, step: u64) {
    let body = json!({"action": action, "step": step}).to_string();
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/games/{id}/moves HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    drop(s);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_move_whose_client_gives_up_leaves_the_cached_position_equal_to_the_record() {
    let db = fresh_database().await;
    let (ids, tokens) = {
        let server = Server::start(&db, &[]);
        let c = server.client();
        let mut ids = Vec::new();
        let mut tokens = Vec::new();
        for i in 0..3u64 {
            let g = c.create("samurai", json!({"players": 2}), 40 + i, &["human", "human"]).await;
            ids.push(g.id.clone());
            tokens.push(vec![g.token(0).to_string(), g.token(1).to_string()]);
        }
        (ids, tokens)
    };
    // Every request times out after 1 ms, long before a move's commit (a flush to disk) ends:
    // the client is told 1015 while the move is still under way. Every other move's client
    // does not even wait for that and closes its connection.
    let server = Server::start(&db, &["--request-timeout-ms", "1"]);
    let c = server.client();
    let mut rng = Rng::from_seed(8);
    let mut played = 0;
    // Moves whose first try, given up by its client, was played all the same.
    let mut first_tries = 0;
    for (g, id) in ids.iter().enumerate() {
        let mut streams = Vec::new();
        for t in &tokens[g] {
            streams.push(connect(&c, id, json!({"token": t, "since": 0})).await);
        }
        let mut now = Vec::new();
        for ws in &mut streams {
            now.push(ws.next_of("events").await);
        }
        for turn in 0..10 {
            let step = now[0]["step"].as_u64().unwrap();
            if now[0]["terminal"] == true {
                break;
            }
            let p = now[0]["to_act"].as_u64().unwrap() as usize;
            let legal = now[p]["legal"].as_array().expect("the seat to act has its moves").clone();
            let a = legal[rng.below(legal.len() as u32) as usize]["id"].as_u64().unwrap();
            if turn % 2 == 0 {
                let r = c.play(id, &tokens[g][p], a, step as i64).await;
                assert!(r.status == 200 || r.code() == 1015, "game {g} step {step}: {} {}", r.status, r.text);
            } else {
                post_and_leave(&c.addr, id, &tokens[g][p], a, step).await;
            }
            // The client asks again: the move is recorded once, whether or not the first try
            // got to the game before its client gave up.
            let (answer, seen) = again(&mut streams[p], a, step).await;
            let stale = answer["type"] == "error" && answer["code"] == 1007 && answer["step"] == step + 1;
            assert!(answer["type"] == "ack" || stale, "game {g} step {step}: {answer}");
            first_tries += u32::from(stale);
            for (k, ws) in streams.iter_mut().enumerate() {
                now[k] = after(ws, step, if k == p { seen.clone() } else { None }).await;
                assert_eq!(now[k]["step"], step + 1, "game {g}: one move, one step");
            }
            played += 1;
        }
    }
    assert!(played >= 20, "only {played} moves were played");
    assert!(first_tries > 0, "no given-up move was played: the test did not test it");
    let mut held = Vec::new();
    for (g, id) in ids.iter().enumerate() {
        let mut seats = vec![everything(&c, id, None).await];
        for t in &tokens[g] {
            seats.push(everything(&c, id, Some(t)).await);
        }
        held.push(seats);
    }
    drop(server);
    // A new process knows only the record.
    let server = Server::start(&db, &[]);
    let c = server.client();
    for (g, id) in ids.iter().enumerate() {
        let mut seats = vec![everything(&c, id, None).await];
        for t in &tokens[g] {
            seats.push(everything(&c, id, Some(t)).await);
        }
        assert_eq!(held[g], seats, "game {g}: the cached position is not the record's");
    }
}
