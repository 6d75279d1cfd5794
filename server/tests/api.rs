//! The HTTP API against the running server (docs/server.md section 3): games are created,
//! played to the end and replayed; every refusal is coded and changes nothing.

mod common;

use common::{fresh_database, Client, Created, Server};
use kassen_core::rng::Rng;
use kassen_core::{load_game, StateHandle};
use serde_json::{json, Value};

/// Plays the game to its end with random legal moves of its human seats, checking each
/// answer; returns the actions played in order.
async fn play_out(c: &Client, g: &Created, rng: &mut Rng) -> Vec<u64> {
    let mut played = Vec::new();
    let mut last: Option<(u64, i64)> = None;
    for _ in 0..5000 {
        let s = c.get(&format!("/api/games/{}", g.id), None).await.json;
        if s["finished"] == true {
            return played;
        }
        let Some(seat) = s["to_act"].as_u64() else { panic!("an active game without a seat to act: {s}") };
        let token = g.tokens[seat as usize].as_deref().expect("a human to act");
        let snap = c.snapshot(&g.id, Some(token), 0).await;
        assert_eq!(snap["seat"], seat);
        // The last move names its seat and the step it answered (its events carry that step).
        if let (Some((by, at)), false) = (last, snap["last_move"]["seat"].is_null()) {
            assert_eq!((&snap["last_move"]["seat"], &snap["last_move"]["step"]), (&json!(by), &json!(at)), "{}", snap["last_move"]);
        }
        let legal = snap["legal"].as_array().unwrap();
        assert!(!legal.is_empty(), "the seat to act has moves");
        let a = legal[rng.below(legal.len() as u32) as usize]["id"].as_u64().unwrap();
        let r = c.play(&g.id, token, a, snap["step"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "move: {}", r.text);
        assert_eq!(r.json["applied"], true);
        last = Some((seat, snap["step"].as_i64().unwrap()));
        played.push(a);
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn a_game_is_created_played_to_its_end_and_replayed() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    let health = c.get("/healthz", None).await;
    assert_eq!(health.json["ok"], true);
    let catalog = c.get("/api/catalog", None).await.json;
    assert!(catalog["games"].as_array().unwrap().iter().any(|g| g["id"] == "samurai"));
    assert!(catalog["bots"].as_array().unwrap().iter().any(|b| b["spec"] == "ismcts:normal"));
    // Every game offers its default config, its player counts and its example configs with
    // their seat names; each of those configs creates a game with exactly those seats.
    for entry in catalog["games"].as_array().unwrap() {
        let id = entry["id"].as_str().unwrap();
        let default = &entry["default_config"];
        assert!(default.is_object(), "{id}: {entry}");
        assert!(!entry["players"].as_array().unwrap().is_empty(), "{id}");
        let configs = entry["configs"].as_array().unwrap();
        assert_eq!(entry["config_seats"].as_array().unwrap().len(), configs.len(), "{id}");
        for (config, names) in
            configs.iter().chain([default]).zip(entry["config_seats"].as_array().unwrap().iter().chain([&entry["seats"]]))
        {
            let n = names.as_array().unwrap().len();
            assert!(entry["players"].as_array().unwrap().contains(&json!(n)), "{id} {config}: {n} seats");
            let kinds = vec!["human"; n];
            let created = c.create(id, config.clone(), 1, &kinds).await;
            let got: Vec<&Value> = created.json["seats"].as_array().unwrap().iter().map(|s| &s["name"]).collect();
            assert_eq!(got, names.as_array().unwrap().iter().collect::<Vec<_>>(), "{id} {config}");
        }
    }
    let samurai = catalog["games"].as_array().unwrap().iter().find(|g| g["id"] == "samurai").unwrap();
    assert_eq!(samurai["players"], json!([2, 3, 4]));

    let g = c.create("samurai", json!({"players": 2}), 7, &["human", "human"]).await;
    let seats = g.json["seats"].as_array().unwrap();
    for (i, s) in seats.iter().enumerate() {
        let token = s["token"].as_str().unwrap();
        assert_eq!(token.len(), 40);
        assert_eq!(s["invite"], format!("/g/{}#seat={i}&token={token}", g.id));
    }
    assert_eq!(g.json["watch"], format!("/g/{}", g.id));
    let summary = c.get(&format!("/api/games/{}", g.id), None).await;
    assert_eq!(summary.json["status"], "active");
    assert!(!summary.text.contains(g.token(0)), "the summary holds no token");
    assert_eq!(summary.header("cache-control"), Some("no-store"));
    assert_eq!(summary.header("x-content-type-options"), Some("nosniff"));

    let early = c.get(&format!("/api/games/{}/replay", g.id), None).await;
    assert_eq!((early.status, early.code()), (409, 1013));

    let played = play_out(&c, &g, &mut Rng::from_seed(1)).await;
    let summary = c.get(&format!("/api/games/{}", g.id), None).await.json;
    assert_eq!(summary["status"], "finished");
    assert_eq!(summary["result"]["reason"], "played_out");
    assert_eq!(summary["step"], played.len());

    // The record replays to the same game in the engine, here.
    let replay = c.get(&format!("/api/games/{}/replay", g.id), None).await.json;
    let actions: Vec<u64> = replay["moves"].as_array().unwrap().iter().map(|m| m["action"].as_u64().unwrap()).collect();
    assert_eq!(actions, played);
    let mut local = load_game("samurai", Some(&replay["config"])).unwrap().new_initial_state(7);
    for a in &played {
        local.apply_in_place(*a as u32).unwrap();
    }
    assert!(local.is_terminal());
    assert_eq!(json!(local.returns()), summary["result"]["returns"]);
    let save = StateHandle::from_value(&replay["save"]).unwrap();
    assert!(save == local, "the record's save is the game");
    let html = c.get(&format!("/api/games/{}/replay.html", g.id), None).await;
    assert_eq!(html.status, 200);
    assert!(html.header("content-type").is_some_and(|t| t.starts_with("text/html")));
    assert!(html.text.contains("svg") && html.text.len() > 1000, "the replay page holds the pictures");

    // A finished game refuses moves with the engine's GameOver.
    let r = c.play(&g.id, g.token(0), 0, played.len() as i64).await;
    assert_eq!((r.status, r.code()), (409, 203));
}

#[tokio::test]
async fn a_repeated_or_stale_move_is_not_played_twice() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    let g = c.create("samurai", json!({}), 11, &["human", "human"]).await;
    let snap = c.snapshot(&g.id, Some(g.token(0)), 0).await;
    let seat = snap["to_act"].as_u64().unwrap() as usize;
    let token = g.token(seat);
    let snap = c.snapshot(&g.id, Some(token), 0).await;
    let a = snap["legal"][0]["id"].as_u64().unwrap();
    let first = c.play(&g.id, token, a, 0).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.json["step"], 1);
    let again = c.play(&g.id, token, a, 0).await;
    assert_eq!((again.status, again.code()), (409, 1007));
    assert_eq!(again.json["step"], 1);
    let ahead = c.play(&g.id, token, a, 5).await;
    assert_eq!(ahead.code(), 1007);
    let summary = c.get(&format!("/api/games/{}", g.id), None).await.json;
    assert_eq!(summary["step"], 1, "one move in the record");
}

#[tokio::test]
async fn bad_input_gets_a_coded_error_and_changes_nothing() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    let g = c.create("samurai", json!({}), 3, &["human", "human"]).await;
    let path = format!("/api/games/{}/moves", g.id);
    let before = c.snapshot(&g.id, None, 0).await;
    let to_act = before["to_act"].as_u64().unwrap() as usize;
    let (mine, other) = (g.token(to_act), g.token(1 - to_act));
    let json_h = vec!["Content-Type: application/json".to_string(), format!("Authorization: Bearer {mine}")];

    let cases: Vec<(common::Reply, u16, i64)> = vec![
        (c.raw("POST", &path, &json_h, b"{\"action\": ").await, 400, 1000),
        (c.raw("POST", &path, &json_h, "[".repeat(40).as_bytes()).await, 400, 1001),
        (c.raw("POST", &path, &json_h, &vec![b' '; 70 * 1024]).await, 413, 1002),
        (c.raw("POST", &path, &[format!("Authorization: Bearer {mine}")], b"{\"action\":1,\"step\":0}").await, 415, 1019),
        (c.post(&path, Some(mine), &json!({"action": 1, "step": 0, "extra": 1})).await, 400, 1000),
        (c.post(&path, Some(mine), &json!({"action": "one", "step": 0})).await, 400, 1000),
        (c.post(&path, None, &json!({"action": 1, "step": 0})).await, 401, 1004),
        (c.post(&path, Some("0123456789abcdef0123456789abcdef01234567"), &json!({"action": 1, "step": 0})).await, 401, 1004),
        (c.post(&path, Some(other), &json!({"action": 1, "step": 0})).await, 409, 202),
        (c.post(&path, Some(mine), &json!({"action": 4_000_000_000u64, "step": 0})).await, 400, 201),
        (c.post(&path, Some(mine), &json!({"action": -1, "step": 0})).await, 400, 201),
        (c.raw("OPTIONS", &path, &[], b"").await, 405, 1008),
        (c.get(&path, None).await, 405, 1008),
        (c.get("/api/nothing", None).await, 404, 1003),
        (c.get("/api/games/ffffffffffffffff", None).await, 404, 1003),
        (c.get("/api/games/../../etc", None).await, 404, 1003),
        (c.get(&format!("/api/games/{}/snapshot?since=x", g.id), None).await, 400, 1000),
        (c.post("/api/games", None, &json!({"game": "chess", "seats": ["human"]})).await, 400, 100),
        (c.post("/api/games", None, &json!({"game": "samurai", "config": {"players": 9}, "seats": ["human"]})).await, 400, 102),
        (c.post("/api/games", None, &json!({"game": "samurai", "config": {"data": {}}, "seats": ["human", "human"]})).await, 400, 101),
        (c.post("/api/games", None, &json!({"game": "samurai", "seats": ["human"]})).await, 400, 1014),
        (c.post("/api/games", None, &json!({"game": "samurai", "seats": ["human", "ismcts:99999999"]})).await, 400, 1014),
        (c.post("/api/games", None, &json!({"game": "samurai", "seats": ["human", "human"], "seed": 1u64 << 60})).await, 400, 1000),
    ];
    for (i, (r, status, code)) in cases.iter().enumerate() {
        assert_eq!((r.status, r.code()), (*status, *code), "case {i}: {}", r.text);
        assert!(r.json["error"].as_str().is_some_and(|e| !e.is_empty()), "case {i} names the error");
        assert!(r.header("access-control-allow-origin").is_none(), "CORS stays closed");
    }
    // An illegal action id (in range, not legal now).
    let legal: Vec<u64> =
        c.snapshot(&g.id, Some(mine), 0).await["legal"].as_array().unwrap().iter().map(|l| l["id"].as_u64().unwrap()).collect();
    let illegal = (0..).find(|a| !legal.contains(a)).unwrap();
    let r = c.play(&g.id, mine, illegal, 0).await;
    assert_eq!((r.status, r.code()), (400, 200), "{}", r.text);
    let after = c.snapshot(&g.id, None, 0).await;
    assert_eq!(after["step"], 0);
    assert_eq!(after["view"], before["view"], "nothing changed");
}

#[tokio::test]
async fn resignation_my_games_and_the_game_list() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    let a = c.create("samurai", json!({"players": 3}), 5, &["human", "human", "human"]).await;
    let b = c.create("sekigahara", json!({}), 5, &["human", "random"]).await;
    let mine = json!({"seats": [
        {"game_id": a.id, "token": a.token(1)},
        {"game_id": b.id, "token": b.token(0)},
        {"game_id": a.id, "token": b.token(0)},
        {"game_id": "nonsense", "token": "x"},
    ]});
    let r = c.post("/api/my-games", None, &mine).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let games = r.json["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0]["seat"], 1);
    assert_eq!(games[0]["status"], "active");
    assert_eq!(games[0]["your_turn"], games[0]["to_act"] == 1);
    assert_eq!(games[1]["game"], "sekigahara");
    assert_eq!(games[2]["code"], 1004, "a token of another game is no seat");
    assert_eq!(games[3]["code"], 1004);

    let r = c.post(&format!("/api/games/{}/resign", a.id), Some(a.token(2)), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["result"]["winners"], json!([0, 1]));
    assert_eq!(r.json["result"]["resigned"], 2);
    let again = c.post(&format!("/api/games/{}/resign", a.id), Some(a.token(0)), &json!({})).await;
    assert_eq!((again.status, again.code()), (409, 203));
    let snap = c.snapshot(&a.id, Some(a.token(0)), 0).await;
    assert_eq!(snap["terminal"], true);
    assert_eq!(snap["legal"], json!([]));
    let finished = c.get("/api/games?status=finished", None).await.json;
    let ids: Vec<&Value> = finished["games"].as_array().unwrap().iter().map(|g| &g["game_id"]).collect();
    assert!(ids.contains(&&json!(a.id)) && !ids.contains(&&json!(b.id)));
    let r = c
        .post("/api/my-games", None, &json!({"seats": (0..101).map(|_| json!({"game_id": a.id, "token": "x"})).collect::<Vec<_>>()}))
        .await;
    assert_eq!(r.code(), 1000);
}

#[tokio::test]
async fn bots_play_their_seats_on_the_server() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    // A game of bots only plays itself to the end.
    let g = c.create("samurai", json!({"players": 2}), 9, &["random", "ismcts:easy"]).await;
    let mut summary = Value::Null;
    for _ in 0..600 {
        summary = c.get(&format!("/api/games/{}", g.id), None).await.json;
        if summary["finished"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(summary["status"], "finished", "{summary}");
    let replay = c.get(&format!("/api/games/{}/replay", g.id), None).await.json;
    let seats: Vec<i64> = replay["moves"].as_array().unwrap().iter().map(|m| m["seat"].as_i64().unwrap()).collect();
    assert!(seats.contains(&0) && seats.contains(&1), "both bots moved: {seats:?}");
    // A person against a bot: the bot answers every move.
    let h = c.create("samurai", json!({}), 4, &["human", "random"]).await;
    let mut rng = Rng::from_seed(3);
    for _ in 0..2000 {
        let snap = c.snapshot(&h.id, Some(h.token(0)), 0).await;
        if snap["terminal"] == true {
            return;
        }
        let legal = snap["legal"].as_array().unwrap();
        if legal.is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            continue;
        }
        let a = legal[rng.below(legal.len() as u32) as usize]["id"].as_u64().unwrap();
        let r = c.play(&h.id, h.token(0), a, snap["step"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    panic!("the game against the bot did not end");
}

#[tokio::test]
async fn chance_of_an_explicit_chance_game_comes_from_the_seed() {
    let server = Server::start(&fresh_database().await, &[]);
    let c = server.client();
    let g = c.create("samurai", json!({"explicit_chance": true}), 21, &["human", "human"]).await;
    let twin = c.create("samurai", json!({"explicit_chance": true}), 21, &["human", "human"]).await;
    let played = play_out(&c, &g, &mut Rng::from_seed(8)).await;
    let replay = c.get(&format!("/api/games/{}/replay", g.id), None).await.json;
    let moves = replay["moves"].as_array().unwrap();
    assert!(moves.len() > played.len(), "chance outcomes are in the record");
    assert!(moves.iter().any(|m| m["seat"] == -1));
    let mut local = load_game("samurai", Some(&replay["config"])).unwrap().new_initial_state(21);
    for m in moves {
        local.apply_in_place(m["action"].as_u64().unwrap() as u32).unwrap();
    }
    assert!(local.is_terminal());
    // The same seed and the same decisions draw the same chance outcomes in another game.
    for m in moves.iter().filter(|m| m["seat"] != -1) {
        let seat = m["seat"].as_u64().unwrap() as usize;
        let r = c.play(&twin.id, twin.token(seat), m["action"].as_u64().unwrap(), m["step"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let twin_record = c.get(&format!("/api/games/{}/replay", twin.id), None).await.json;
    let strip =
        |ms: &Value| ms.as_array().unwrap().iter().map(|m| (m["step"].clone(), m["seat"].clone(), m["action"].clone())).collect::<Vec<_>>();
    assert_eq!(strip(&twin_record["moves"]), strip(&replay["moves"]));
}
