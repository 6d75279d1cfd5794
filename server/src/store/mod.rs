//! The game record behind one trait ([`Store`]), kept in SQLite (the embedded default) or
//! PostgreSQL (several server processes on one database). The record is the truth: the game,
//! its seats and the append-only list of moves; positions are rebuilt from it by replay.

mod batch;
mod sql;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::fmt;

use futures_util::future::BoxFuture;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use tokio::sync::mpsc;

pub use sql::{PgStore, SqliteStore};

/// One row of `games`.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    /// The normalized config as JSON text.
    pub config: String,
    /// The u64 seed as its bit pattern.
    pub seed: i64,
    pub rules_version: String,
    /// `active` or `finished`.
    pub status: String,
    /// Entries in the record.
    pub step: i64,
    pub to_act: Option<i32>,
    /// JSON text of the result once finished.
    pub result: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// One row of `seats`.
#[derive(Clone, Debug)]
pub struct SeatRow {
    pub seat: i32,
    /// `human` or a bot spec.
    pub kind: String,
    /// Lowercase hex SHA-256 of the seat token (human seats).
    pub token_hash: Option<String>,
}

/// One row of `moves`: the action that answered `step`, by `seat` (-1: a chance outcome).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub step: i64,
    pub seat: i32,
    pub action: i64,
    pub at: i64,
}

/// What an append changes in the game's row besides the moves.
#[derive(Clone, Debug)]
pub struct Update {
    pub step: i64,
    pub status: &'static str,
    pub to_act: Option<i32>,
    pub result: Option<String>,
    pub updated_at: i64,
}

/// The outcome of [`Store::append`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Appended {
    Done,
    /// The game was not at the step (or no longer active): nothing was written.
    Conflict,
}

#[derive(Debug)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage error: {}", self.0)
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError(e.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        StoreError(e.to_string())
    }
}

pub type Fut<'a, T> = BoxFuture<'a, Result<T, StoreError>>;

/// A change another process made: the id of a game, or `None` after a lost listening
/// connection (every cached game must be refreshed).
pub type Notice = Option<String>;

/// The storage of game records.
pub trait Store: Send + Sync {
    /// `sqlite` or `postgres`.
    fn kind(&self) -> &'static str;
    /// Writes a new game, its seats and its first moves (chance outcomes drawn before the
    /// first decision) in one transaction.
    fn create<'a>(&'a self, game: &'a GameRow, seats: &'a [SeatRow], moves: &'a [MoveRow]) -> Fut<'a, ()>;
    /// A game and its seats.
    fn game<'a>(&'a self, id: &'a str) -> Fut<'a, Option<(GameRow, Vec<SeatRow>)>>;
    /// The moves of a game from step `from` on, in order.
    fn moves_from<'a>(&'a self, id: &'a str, from: i64) -> Fut<'a, Vec<MoveRow>>;
    /// Atomically: if the game is active at step `at`, appends `moves` (steps `at`, `at + 1`,
    /// ...) and sets the row to `update`; tells the other processes (PostgreSQL). Answers once
    /// the transaction holding it has committed; appends of other games made at the same time
    /// share that transaction (group commit, store/batch.rs); a refused one leaves no trace.
    fn append<'a>(&'a self, id: &'a str, at: i64, moves: &'a [MoveRow], update: &'a Update) -> Fut<'a, Appended>;
    /// Games newest first, optionally of one status.
    fn list<'a>(&'a self, status: Option<&'a str>, limit: i64) -> Fut<'a, Vec<GameRow>>;
    /// Active games.
    fn count_active(&self) -> Fut<'_, i64>;
    /// Active games whose seat to act is a bot.
    fn bot_turns(&self) -> Fut<'_, Vec<String>>;
    /// The changes made by other processes (PostgreSQL), or `None` (SQLite: one process).
    fn listen(&self) -> Option<mpsc::UnboundedReceiver<Notice>>;
    /// Transactions of appends committed so far.
    #[cfg(test)]
    fn commits(&self) -> u64;
}

/// Opens the database at `url` (`sqlite://PATH` or `postgres://...`) and runs the migrations.
pub async fn open(url: &str) -> Result<Box<dyn Store>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Box::new(PgStore::open(url).await?))
    } else if url.starts_with("sqlite:") {
        Ok(Box::new(SqliteStore::open(url).await?))
    } else {
        Err(StoreError(format!("unsupported database url (sqlite://PATH or postgres://...): {}", redact(url))))
    }
}

/// `url` without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => format!("{}://***{}", &url[..s], &url[at..]),
        _ => url.to_string(),
    }
}

/// The migrations of server/migrations/, embedded in the binary.
#[derive(Debug)]
struct Embedded;

const MIGRATIONS: &[(i64, &str, &str)] = &[(1, "games", include_str!("../../migrations/0001_games.sql"))];

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(self) -> BoxFuture<'s, Result<Vec<Migration>, sqlx::error::BoxDynError>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(v, d, sql)| Migration::new(v, Cow::Borrowed(d), MigrationType::Simple, Cow::Borrowed(sql), false))
                .collect())
        })
    }
}

async fn migrator() -> Result<Migrator, StoreError> {
    Ok(Migrator::new(Embedded).await?)
}
