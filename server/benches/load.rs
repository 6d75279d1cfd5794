//! `make load` (bench/load.sh): many concurrent games played by scripted WebSocket clients and
//! bot seats against a release `kassen-server`, for a fixed time. A benchmark, not a test.
//!
//! Environment: `KASSEN_LOAD_DATABASE` (sqlite://... or postgres://..., required),
//! `KASSEN_LOAD_LABEL`, `KASSEN_LOAD_GAMES` (1000 concurrent games), `KASSEN_LOAD_BOT_GAMES`
//! (of them, games of one client against a `random` bot; 0), `KASSEN_LOAD_SECONDS` (60),
//! `KASSEN_LOAD_THINK_MS` (mean pause of a scripted player before its move; 1000),
//! `KASSEN_LOAD_IDLE_GAMES` (games created and left alone to measure memory; 1000),
//! `KASSEN_LOAD_OUT` (a JSON file the figures are written to).
//! Measured: moves per second, p50/p99 from a move sent to its ack and to the opponent's
//! event, connections held, RSS per idle game, errors, lost moves (acknowledged moves missing
//! from the record at the end).

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

fn env_num(k: &str, d: u64) -> u64 {
    std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d)
}

#[derive(Default)]
struct Stats {
    ack_us: Mutex<Vec<u64>>,
    event_us: Mutex<Vec<u64>>,
    moves: AtomicU64,
    errors: AtomicU64,
    error_samples: Mutex<Vec<String>>,
    connections: AtomicUsize,
    peak_connections: AtomicUsize,
    /// Every acknowledged move: (game, step, action).
    acked: Mutex<Vec<(String, u64, u64)>>,
    games_done: AtomicU64,
}

impl Stats {
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut s = self.error_samples.lock().unwrap();
        if s.len() < 10 {
            s.push(what);
        }
    }
}

async fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.map_err(|e| e.to_string())?;
    s.write_all(body.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |x| x.1);
    Ok((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok()))
        .unwrap_or(0)
}

/// Small deterministic generator for the scripted players.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// How long a client waits for the next message: up to 30 s, and not much past the deadline.
fn wait(deadline: Instant) -> Duration {
    (deadline.saturating_duration_since(Instant::now()) + Duration::from_secs(2)).min(Duration::from_secs(30))
}

type Sent = Arc<Mutex<HashMap<u64, Instant>>>;

/// One scripted player on one seat: moves after a pause whenever it is to act.
/// One scripted player's seat.
struct Player {
    addr: String,
    game: String,
    token: String,
    seat: u64,
    sent: Sent,
    stats: Arc<Stats>,
    think: u64,
    seed: u64,
    deadline: Instant,
}

async fn player(p: Player) {
    let Player { addr, game, token, seat, sent, stats, think, seed, deadline } = p;
    let url = format!("ws://{addr}/api/games/{game}/ws");
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await else {
        stats.error(format!("connect {game}"));
        return;
    };
    let n = stats.connections.fetch_add(1, Ordering::Relaxed) + 1;
    stats.peak_connections.fetch_max(n, Ordering::Relaxed);
    let _ = ws.send(Message::Text(json!({"token": token, "since": 0}).to_string().into())).await;
    let mut rng = Lcg(seed);
    let mut pending: Option<(u64, u64, Instant)> = None;
    let mut seen_step = 0u64;
    loop {
        let msg = match tokio::time::timeout(wait(deadline), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => t,
            Ok(Some(Ok(_))) => continue,
            _ => {
                if Instant::now() < deadline {
                    stats.error(format!("connection of {game} seat {seat} ended"));
                }
                break;
            }
        };
        let m: Value = serde_json::from_str(&msg).unwrap_or(Value::Null);
        match m["type"].as_str() {
            Some("ack") => {
                if let Some((step, action, at)) = pending.take() {
                    stats.ack_us.lock().unwrap().push(at.elapsed().as_micros() as u64);
                    stats.moves.fetch_add(1, Ordering::Relaxed);
                    stats.acked.lock().unwrap().push((game.clone(), step, action));
                }
            }
            Some("error") => {
                stats.error(format!("{game} seat {seat}: {m}"));
                pending = None;
            }
            Some("events") => {
                let step = m["step"].as_u64().unwrap_or(0);
                if step > seen_step {
                    // The opponent's move reaching this seat.
                    if let Some(at) = sent.lock().unwrap().remove(&(step - 1)) {
                        stats.event_us.lock().unwrap().push(at.elapsed().as_micros() as u64);
                    }
                    seen_step = step;
                }
                if m["terminal"] == true {
                    stats.games_done.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                if Instant::now() >= deadline {
                    break;
                }
                if let Some(legal) = m.get("legal").and_then(Value::as_array).filter(|l| !l.is_empty()) {
                    if think > 0 {
                        tokio::time::sleep(Duration::from_millis(think / 2 + rng.below(think))).await;
                    }
                    let a = legal[rng.below(legal.len() as u64) as usize]["id"].as_u64().unwrap_or(0);
                    let at = Instant::now();
                    if m["to_act"].as_u64() == Some(seat) {
                        sent.lock().unwrap().insert(step, at);
                    }
                    pending = Some((step, a, at));
                    let _ =
                        ws.send(Message::Text(json!({"type": "move", "action": a, "step": step, "ref": step}).to_string().into())).await;
                }
            }
            _ => {}
        }
    }
    stats.connections.fetch_sub(1, Ordering::Relaxed);
}

/// A spectator: reads the game's stream until it ends.
async fn watcher(addr: String, game: String, stats: Arc<Stats>, deadline: Instant) {
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{game}/ws")).await else {
        stats.error(format!("connect {game} spectator"));
        return;
    };
    let n = stats.connections.fetch_add(1, Ordering::Relaxed) + 1;
    stats.peak_connections.fetch_max(n, Ordering::Relaxed);
    let _ = ws.send(Message::Text(json!({"since": 0}).to_string().into())).await;
    while Instant::now() < deadline {
        match tokio::time::timeout(wait(deadline), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let m: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                if m["type"] == "error" {
                    stats.error(format!("{game} spectator: {m}"));
                }
                if m["terminal"] == true {
                    break;
                }
            }
            Ok(Some(Ok(_))) => {}
            // A stream that ends before the run does is a lost connection; one still quiet
            // two seconds after the run's end (a bot seat waiting for a thread) is not.
            _ => {
                if Instant::now() < deadline {
                    stats.error(format!("spectator of {game} lost its connection"));
                }
                break;
            }
        }
    }
    stats.connections.fetch_sub(1, Ordering::Relaxed);
}

/// One game slot: games of two scripted players (or one against a bot), one after another,
/// until the deadline.
async fn table(
    addr: String,
    bot: bool,
    stats: Arc<Stats>,
    think: u64,
    seed: u64,
    deadline: Instant,
    games: Arc<Mutex<HashMap<String, String>>>,
) {
    let mut round = 0;
    while Instant::now() < deadline {
        let seats = if bot { json!(["human", "random"]) } else { json!(["human", "human"]) };
        let body = json!({"game": "samurai", "config": {"players": 2}, "seed": seed * 1000 + round, "seats": seats});
        let (status, created) = match http(&addr, "POST", "/api/games", Some(&body)).await {
            Ok(x) => x,
            Err(e) => {
                stats.error(format!("create: {e}"));
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        if status != 201 {
            stats.error(format!("create: {status} {created}"));
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        }
        let id = created["game_id"].as_str().unwrap_or("").to_string();
        let token0 = created["seats"][0]["token"].as_str().unwrap_or("").to_string();
        games.lock().unwrap().insert(id.clone(), token0);
        let sent: Sent = Arc::new(Mutex::new(HashMap::new()));
        let mut players = Vec::new();
        for (i, s) in created["seats"].as_array().cloned().unwrap_or_default().into_iter().enumerate() {
            if let Some(token) = s["token"].as_str() {
                players.push(tokio::spawn(player(Player {
                    addr: addr.clone(),
                    game: id.clone(),
                    token: token.to_string(),
                    seat: i as u64,
                    sent: sent.clone(),
                    stats: stats.clone(),
                    think,
                    seed: seed * 7 + round * 3 + i as u64,
                    deadline,
                })));
            }
        }
        if bot {
            // A spectator watches each game against a bot: two clients per game here too.
            players.push(tokio::spawn(watcher(addr.clone(), id.clone(), stats.clone(), deadline)));
        }
        for p in players {
            let _ = p.await;
        }
        round += 1;
    }
}

fn pct(v: &mut [u64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_unstable();
    v[((v.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0
}

fn main() {
    let database = std::env::var("KASSEN_LOAD_DATABASE").expect("KASSEN_LOAD_DATABASE: sqlite://... or postgres://...");
    let label = std::env::var("KASSEN_LOAD_LABEL").unwrap_or_else(|_| "sqlite".into());
    let games = env_num("KASSEN_LOAD_GAMES", 1000);
    let bot_games = env_num("KASSEN_LOAD_BOT_GAMES", 0).min(games);
    let seconds = env_num("KASSEN_LOAD_SECONDS", 60);
    let think = env_num("KASSEN_LOAD_THINK_MS", 1000);
    let idle = env_num("KASSEN_LOAD_IDLE_GAMES", 1000);

    let mut child = Command::new(env!("CARGO_BIN_EXE_kassen-server"))
        .args(["--listen", "127.0.0.1:0", "--database", &database, "--rate", "1000000", "--burst", "1000000"])
        .args(["--creates-per-minute", "1000000", "--max-connections-per-ip", "1000000", "--max-connections", "1000000"])
        .args(["--max-games", "1000000", "--cache-games", &(games + idle + 100).to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start kassen-server");
    let pid = child.id();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().to_string();

    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let report = rt.block_on(async {
        // Memory per idle game: RSS before and after creating games nobody plays.
        http(&addr, "GET", "/healthz", None).await.expect("the server answers");
        let rss0 = rss_kb(pid);
        for i in 0..idle {
            let body = json!({"game": "samurai", "config": {"players": 2}, "seed": i, "seats": ["human", "human"]});
            let (s, r) = http(&addr, "POST", "/api/games", Some(&body)).await.unwrap();
            assert_eq!(s, 201, "{r}");
        }
        let rss1 = rss_kb(pid);
        let per_idle_kb = if idle > 0 { (rss1.saturating_sub(rss0)) as f64 / idle as f64 } else { 0.0 };

        let stats = Arc::new(Stats::default());
        let ids = Arc::new(Mutex::new(HashMap::new()));
        let start = Instant::now();
        let deadline = start + Duration::from_secs(seconds);
        let tables: Vec<_> = (0..games)
            .map(|i| tokio::spawn(table(addr.clone(), i < bot_games, stats.clone(), think, i + 1, deadline, ids.clone())))
            .collect();
        // Sample the connections held while the load runs.
        let mut held = Vec::new();
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_secs(1)).await;
            held.push(stats.connections.load(Ordering::Relaxed));
        }
        for t in tables {
            let _ = t.await;
        }
        let elapsed = start.elapsed().as_secs_f64();
        let rss_end = rss_kb(pid);

        // Lost moves: every acknowledged move must be in the record.
        let mut lost = 0u64;
        let acked = std::mem::take(&mut *stats.acked.lock().unwrap());
        let mut by_game: HashMap<String, Vec<(u64, u64)>> = HashMap::new();
        for (g, s, a) in acked.iter() {
            by_game.entry(g.clone()).or_default().push((*s, *a));
        }
        for (g, moves) in &by_game {
            // Finish the game first so its record is public.
            let (_, summary) = http(&addr, "GET", &format!("/api/games/{g}"), None).await.unwrap();
            if summary["finished"] != true {
                let token = ids.lock().unwrap().get(g).cloned().unwrap_or_default();
                resign(&addr, g, &token).await;
            }
            let (_, replay) = http(&addr, "GET", &format!("/api/games/{g}/replay"), None).await.unwrap();
            for (s, a) in moves {
                if replay["moves"][*s as usize]["action"].as_u64() != Some(*a) {
                    lost += 1;
                }
            }
        }
        let mut ack = std::mem::take(&mut *stats.ack_us.lock().unwrap());
        let mut ev = std::mem::take(&mut *stats.event_us.lock().unwrap());
        let moves = stats.moves.load(Ordering::Relaxed);
        held.sort_unstable();
        json!({
            "database": label, "games": games, "bot_games": bot_games, "seconds": seconds, "think_ms_mean": think,
            "moves": moves, "moves_per_s": moves as f64 / elapsed,
            "ack_ms_p50": pct(&mut ack, 0.5), "ack_ms_p99": pct(&mut ack, 0.99),
            "event_ms_p50": pct(&mut ev, 0.5), "event_ms_p99": pct(&mut ev, 0.99),
            "connections_peak": stats.peak_connections.load(Ordering::Relaxed),
            "connections_median": held.get(held.len() / 2).copied().unwrap_or(0),
            "games_finished": stats.games_done.load(Ordering::Relaxed) / 2,
            "idle_games": idle, "rss_kb_per_idle_game": per_idle_kb, "rss_mb_end": rss_end as f64 / 1024.0,
            "errors": stats.errors.load(Ordering::Relaxed), "error_samples": *stats.error_samples.lock().unwrap(),
            "lost_moves": lost, "acked_moves_checked": acked.len(),
        })
    });
    let _ = child.kill();
    let _ = child.wait();
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
    if let Ok(out) = std::env::var("KASSEN_LOAD_OUT") {
        std::fs::write(out, report.to_string()).expect("write the figures");
    }
}

/// Ends an unfinished game (its record becomes public).
async fn resign(addr: &str, g: &str, token: &str) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/games/{g}/resign HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
}
