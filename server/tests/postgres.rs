//! Several server processes on one PostgreSQL database (run by server/tests/postgres.sh):
//! any process accepts any request, and a move made through one reaches the WebSocket
//! clients of another.

mod common;

use common::{fresh_database, postgres, Server};
use serde_json::json;

#[tokio::test]
#[ignore = "needs PostgreSQL: server/tests/postgres.sh runs it"]
async fn two_processes_share_one_database() {
    assert!(postgres().is_some(), "KASSEN_TEST_POSTGRES names the test cluster");
    let db = fresh_database().await;
    let a = Server::start(&db, &[]);
    let b = Server::start(&db, &[]);
    let (ca, cb) = (a.client(), b.client());
    let g = ca.create("samurai", json!({}), 31, &["human", "human"]).await;
    // Both seats and a spectator watch through B.
    let mut watchers = Vec::new();
    for hello in [json!({"token": g.token(0)}), json!({"token": g.token(1)}), json!({})] {
        let mut ws = cb.ws(&g.id, hello).await;
        let first = ws.next_of("events").await;
        assert_eq!(first["step"], 0);
        watchers.push(ws);
    }
    let mut step = 0i64;
    for _ in 0..6 {
        // The seat to act moves through A, then through B, in turn.
        let via = if step % 2 == 0 { &ca } else { &cb };
        let snap = via.snapshot(&g.id, None, 0).await;
        let p = snap["to_act"].as_u64().unwrap() as usize;
        let mine = via.snapshot(&g.id, Some(g.token(p)), 0).await;
        let a = mine["legal"][0]["id"].as_u64().unwrap();
        let r = via.play(&g.id, g.token(p), a, step).await;
        assert_eq!(r.status, 200, "{}", r.text);
        step += 1;
        for ws in watchers.iter_mut() {
            loop {
                let m = ws.next_of("events").await;
                if m["step"] == step {
                    break;
                }
            }
        }
        // B knows the move A acknowledged: the same stale step is refused there too.
        let again = cb.play(&g.id, g.token(p), a, step - 1).await;
        assert_eq!(again.code(), 1007);
    }
    // Two moves racing for one step on two processes: exactly one is played.
    let snap = ca.snapshot(&g.id, None, 0).await;
    let p = snap["to_act"].as_u64().unwrap() as usize;
    let legal = ca.snapshot(&g.id, Some(g.token(p)), 0).await["legal"].clone();
    let (x, y) = (legal[0]["id"].as_u64().unwrap(), legal[legal.as_array().unwrap().len() - 1]["id"].as_u64().unwrap());
    let (ra, rb) = tokio::join!(ca.play(&g.id, g.token(p), x, step), cb.play(&g.id, g.token(p), y, step));
    let mut statuses = [ra.status, rb.status];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{} / {}", ra.text, rb.text);
    let s = ca.get(&format!("/api/games/{}", g.id), None).await.json;
    assert_eq!(s["step"], step + 1);
    let s = cb.get(&format!("/api/games/{}", g.id), None).await.json;
    assert_eq!(s["step"], step + 1);
}
