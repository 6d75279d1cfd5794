//! The running server for the integration tests: the real binary on a free localhost port,
//! on a fresh SQLite file, or on a fresh database of the PostgreSQL server named by
//! `KASSEN_TEST_POSTGRES` (server/tests/postgres.sh starts a throwaway cluster and sets it);
//! a small HTTP/1.1 client over TcpStream and a WebSocket client.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Connection;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// The PostgreSQL server of this run (a base URL), if any.
pub fn postgres() -> Option<String> {
    std::env::var("KASSEN_TEST_POSTGRES").ok().filter(|s| !s.is_empty())
}

static NEXT: AtomicU64 = AtomicU64::new(0);

fn unique(prefix: &str) -> String {
    format!("{prefix}_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A fresh, empty database: a file in a temporary directory or a new PostgreSQL database.
pub async fn fresh_database() -> String {
    match postgres() {
        Some(base) => {
            let name = unique("kassen_test");
            let mut c = sqlx::PgConnection::connect(&base).await.expect("connect to the test postgres");
            sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.expect("create database");
            let (head, _) = base.rsplit_once('/').expect("a postgres url with a database");
            let (db, query) = match base.rsplit_once('/').unwrap().1.split_once('?') {
                Some((_, q)) => (name.clone(), format!("?{q}")),
                None => (name.clone(), String::new()),
            };
            format!("{head}/{db}{query}")
        }
        None => {
            let dir = std::env::temp_dir().join(unique("kassen-server-test"));
            std::fs::create_dir_all(&dir).unwrap();
            format!("sqlite://{}", dir.join("games.db").display())
        }
    }
}

/// A running `kassen-server`.
pub struct Server {
    pub child: Child,
    pub addr: String,
    pub database: String,
    pub args: Vec<String>,
}

impl Server {
    /// Starts the server on `database` with extra flags (generous rate limits unless given).
    pub fn start(database: &str, extra: &[&str]) -> Server {
        let mut args: Vec<String> = vec!["--listen".into(), "127.0.0.1:0".into(), "--database".into(), database.into()];
        if !extra.contains(&"--rate") {
            args.extend(["--rate", "100000", "--burst", "100000", "--creates-per-minute", "100000"].map(String::from));
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        Self::start_with(database, args)
    }

    fn start_with(database: &str, args: Vec<String>) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kassen-server"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start kassen-server");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("the server's first line");
        let addr = line.trim().rsplit("http://").next().unwrap_or("").to_string();
        assert!(addr.starts_with("127.0.0.1:"), "the server did not start: {line:?}");
        Server { child, addr, database: database.to_string(), args }
    }

    /// `kill -9`, then a new process on the same database.
    pub fn kill_and_restart(&mut self) {
        self.kill();
        let args = self.args.clone();
        *self = Server::start_with(&self.database.clone(), args);
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn client(&self) -> Client {
        Client { addr: self.addr.clone() }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An answer: HTTP status, headers (lowercase names) and the body as JSON (Null when not JSON).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub text: String,
    pub json: Value,
}

impl Reply {
    pub fn code(&self) -> i64 {
        self.json["code"].as_i64().unwrap_or(-1)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

#[derive(Clone)]
pub struct Client {
    pub addr: String,
}

impl Client {
    /// One request on its own connection; `raw_headers` are extra header lines.
    pub async fn raw(&self, method: &str, path: &str, raw_headers: &[String], body: &[u8]) -> Reply {
        let Ok(mut s) = TcpStream::connect(&self.addr).await else {
            // No server (the SIGKILL test): status 0.
            return Reply { status: 0, headers: Vec::new(), text: String::new(), json: Value::Null };
        };
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if !raw_headers.iter().any(|h| h.to_ascii_lowercase().starts_with("connection:")) {
            head.push_str("Connection: close\r\n");
        }
        for h in raw_headers {
            head.push_str(h);
            head.push_str("\r\n");
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        if s.write_all(head.as_bytes()).await.is_err() {
            // The server died while the request was sent (the SIGKILL test): no answer, status 0.
            return Reply { status: 0, headers: Vec::new(), text: String::new(), json: Value::Null };
        }
        let _ = s.write_all(body).await;
        let mut out = Vec::new();
        let mut buf = [0u8; 16384];
        while !complete(&out) {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
        parse_reply(&out)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        let h: Vec<String> = token.map(|t| format!("Authorization: Bearer {t}")).into_iter().collect();
        self.raw("GET", path, &h, b"").await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        let mut h = vec!["Content-Type: application/json".to_string()];
        h.extend(token.map(|t| format!("Authorization: Bearer {t}")));
        self.raw("POST", path, &h, body.to_string().as_bytes()).await
    }

    /// Creates a game; panics unless 201.
    pub async fn create(&self, game: &str, config: Value, seed: u64, seats: &[&str]) -> Created {
        let r = self.post("/api/games", None, &json!({"game": game, "config": config, "seed": seed, "seats": seats})).await;
        assert_eq!(r.status, 201, "create: {}", r.text);
        Created {
            id: r.json["game_id"].as_str().unwrap().to_string(),
            tokens: r.json["seats"].as_array().unwrap().iter().map(|s| s["token"].as_str().map(str::to_string)).collect(),
            json: r.json,
        }
    }

    pub async fn snapshot(&self, id: &str, token: Option<&str>, since: usize) -> Value {
        let r = self.get(&format!("/api/games/{id}/snapshot?since={since}"), token).await;
        assert_eq!(r.status, 200, "snapshot: {}", r.text);
        r.json
    }

    pub async fn play(&self, id: &str, token: &str, action: u64, step: i64) -> Reply {
        self.post(&format!("/api/games/{id}/moves"), Some(token), &json!({"action": action, "step": step})).await
    }

    pub async fn ws(&self, id: &str, hello: Value) -> Ws {
        self.try_ws(id, hello).await.expect("websocket connect")
    }

    /// A stream of game `id` with `hello` sent, or None when its opening request failed.
    pub async fn try_ws(&self, id: &str, hello: Value) -> Option<Ws> {
        let (mut stream, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", self.addr)).await.ok()?;
        stream.send(Message::Text(hello.to_string().into())).await.unwrap();
        Some(Ws { stream })
    }
}

pub struct Created {
    pub id: String,
    pub tokens: Vec<Option<String>>,
    pub json: Value,
}

impl Created {
    pub fn token(&self, seat: usize) -> &str {
        self.tokens[seat].as_deref().expect("a human seat")
    }
}

/// Whether `out` holds a whole answer: its head and, by its length or chunks, its body (a
/// switched protocol is its head alone).
fn complete(out: &[u8]) -> bool {
    let Some(end) = out.windows(4).position(|w| w == b"\r\n\r\n") else { return false };
    let head = String::from_utf8_lossy(&out[..end]).to_ascii_lowercase();
    let body = &out[end + 4..];
    if head.starts_with("http/1.1 101") {
        return true;
    }
    if let Some(n) = head.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|v| v.trim().parse::<usize>().ok()) {
        return body.len() >= n;
    }
    if head.contains("transfer-encoding: chunked") {
        return body.ends_with(b"0\r\n\r\n");
    }
    false
}

fn parse_reply(bytes: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok()).unwrap_or(0);
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string())).collect();
    let chunked = headers.iter().any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { dechunk(body) } else { body.to_string() };
    let json = serde_json::from_str(&body).unwrap_or(Value::Null);
    Reply { status, headers, text: body, json }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

pub struct Ws {
    pub stream: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
}

impl Ws {
    /// The next JSON message (None when the connection ends); waits at most 30 s.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(30), self.stream.next()).await.expect("a message within 30 s")?;
            match m.ok()? {
                Message::Text(t) => return Some(serde_json::from_str(&t).expect("json message")),
                Message::Close(_) => return None,
                _ => {}
            }
        }
    }

    /// The next message of type `kind`, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let m = self.next().await.unwrap_or_else(|| panic!("the connection ended before a {kind} message"));
            if m["type"] == kind {
                return m;
            }
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.stream.send(Message::Text(v.to_string().into())).await.unwrap();
    }
}

/// A temp directory path for scratch files.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(unique(name));
    std::fs::create_dir_all(&d).unwrap();
    d
}
