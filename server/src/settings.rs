//! The command line (docs/server.md section 9).

use std::path::PathBuf;

/// Everything the server is started with.
#[derive(Clone, Debug)]
pub struct Settings {
    pub listen: String,
    pub database: String,
    pub web: Option<PathBuf>,
    pub allow_origins: Vec<String>,
    pub max_games: i64,
    pub max_connections: usize,
    pub max_connections_per_ip: usize,
    pub rate: f64,
    pub burst: f64,
    pub creates_per_minute: f64,
    pub cache_games: usize,
    pub bot_threads: usize,
    /// How long a request may take before it is answered with code 1015 (the work it
    /// started, a move's commit, still runs to its end).
    pub request_timeout_ms: u64,
}

/// Request body limit (bytes).
pub const MAX_BODY: usize = 64 * 1024;
/// JSON nesting limit.
pub const MAX_DEPTH: usize = 32;
/// WebSocket message limit (bytes).
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// Entries of one `POST /api/my-games`.
pub const MAX_MY_GAMES: usize = 100;
/// WebSocket messages per second and burst, per connection.
pub const WS_RATE: f64 = 20.0;
pub const WS_BURST: f64 = 40.0;

impl Default for Settings {
    fn default() -> Self {
        let web = PathBuf::from("web");
        Settings {
            listen: "127.0.0.1:8080".into(),
            database: "sqlite://kassen-server.db".into(),
            web: web.is_dir().then_some(web),
            allow_origins: Vec::new(),
            max_games: 10_000,
            max_connections: 10_000,
            max_connections_per_ip: 500,
            rate: 20.0,
            burst: 100.0,
            creates_per_minute: 10.0,
            cache_games: 2000,
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            request_timeout_ms: 10_000,
        }
    }
}

const USAGE: &str = "usage: kassen-server [--listen ADDR] [--database URL] [--web DIR] [--allow-origin ORIGIN]... \
[--max-games N] [--max-connections N] [--max-connections-per-ip N] [--rate N] [--burst N] [--creates-per-minute N] \
[--cache-games N] [--bot-threads N] [--request-timeout-ms N]   (docs/server.md)";

impl Settings {
    /// Reads the flags (and `KASSEN_LISTEN`, `KASSEN_DATABASE_URL`).
    pub fn from_args(args: impl IntoIterator<Item = String>) -> Result<Settings, String> {
        let mut s = Settings::default();
        if let Ok(v) = std::env::var("KASSEN_LISTEN") {
            s.listen = v;
        }
        if let Ok(v) = std::env::var("KASSEN_DATABASE_URL") {
            s.database = v;
        }
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            if flag == "--help" || flag == "-h" {
                return Err(USAGE.into());
            }
            let value = args.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
            fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
                v.parse().map_err(|_| format!("{flag}: not a number: {v:?}"))
            }
            match flag.as_str() {
                "--listen" => s.listen = value,
                "--database" => s.database = value,
                "--web" => s.web = Some(PathBuf::from(value)),
                "--allow-origin" => s.allow_origins.push(value.trim_end_matches('/').to_string()),
                "--max-games" => s.max_games = num(&flag, &value)?,
                "--max-connections" => s.max_connections = num(&flag, &value)?,
                "--max-connections-per-ip" => s.max_connections_per_ip = num(&flag, &value)?,
                "--rate" => s.rate = num(&flag, &value)?,
                "--burst" => s.burst = num(&flag, &value)?,
                "--creates-per-minute" => s.creates_per_minute = num(&flag, &value)?,
                "--cache-games" => s.cache_games = num::<usize>(&flag, &value)?.max(1),
                "--bot-threads" => s.bot_threads = num::<usize>(&flag, &value)?.max(1),
                "--request-timeout-ms" => s.request_timeout_ms = num::<u64>(&flag, &value)?.max(1),
                _ => return Err(format!("unknown flag {flag}\n{USAGE}")),
            }
        }
        if !(s.rate > 0.0 && s.burst >= 1.0 && s.creates_per_minute > 0.0) {
            return Err("--rate, --burst and --creates-per-minute must be positive".into());
        }
        Ok(s)
    }
}
