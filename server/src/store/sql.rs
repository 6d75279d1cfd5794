//! [`super::Store`] over SQLite and PostgreSQL: one set of SQL texts (`$N` parameters, which
//! both accept) and one implementation, stamped out for each pool type by a macro.

use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use tokio::sync::mpsc;

use super::batch::{Batcher, Job, WriteBatch};
use super::{Appended, Fut, GameRow, MoveRow, Notice, SeatRow, Store, StoreError, Update};

/// The PostgreSQL channel every commit of a move notifies, with the game id as payload.
pub const CHANNEL: &str = "kassen_moves";

const GAME_COLUMNS: &str = "id, game, config, seed, rules_version, status, step, to_act, result, created_at, updated_at";

type GameTuple = (String, String, String, i64, String, String, i64, Option<i32>, Option<String>, i64, i64);

fn game_row(t: GameTuple) -> GameRow {
    let (id, game, config, seed, rules_version, status, step, to_act, result, created_at, updated_at) = t;
    GameRow { id, game, config, seed, rules_version, status, step, to_act, result, created_at, updated_at }
}

pub struct SqliteStore {
    pool: SqlitePool,
    /// The one connection that writes: transactions queue for it in order instead of
    /// contending for SQLite's write lock and sleeping in its busy handler.
    writer: SqlitePool,
    /// Moves, committed in groups on `writer`.
    batcher: Batcher,
    /// Copies the write-ahead log into the database file in the background.
    checkpoints: tokio::task::JoinHandle<()>,
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.checkpoints.abort();
    }
}

/// How often the write-ahead log is copied back into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

pub struct PgStore {
    pool: PgPool,
    /// The same pool: PostgreSQL serves concurrent writers itself.
    writer: PgPool,
    /// Moves, committed in groups (one transaction at a time).
    batcher: Batcher,
    listener: Mutex<Option<PgListener>>,
}

impl SqliteStore {
    /// WAL with `synchronous=FULL`: a commit is on disk before the move is acknowledged. The
    /// writer does not checkpoint (SQLite's automatic checkpoint would run inside the commit
    /// of a move, which then waits for the database file's flushes too): a background task
    /// checkpoints on a reading connection instead, passively, without blocking the writer.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let writer = SqlitePoolOptions::new().max_connections(1).connect_with(options.clone().pragma("wal_autocheckpoint", "0")).await?;
        super::migrator().await?.run(&writer).await?;
        let pool = SqlitePoolOptions::new().max_connections(4).connect_with(options).await?;
        let checkpoints = tokio::spawn(checkpoint(pool.clone()));
        Ok(SqliteStore { pool, batcher: Batcher::start(writer.clone()), writer, checkpoints })
    }
}

/// Copies the committed write-ahead log into the database file every [`CHECKPOINT_EVERY`]
/// (a passive checkpoint: it copies what no reader still needs and never waits for the
/// writer). A failed checkpoint is tried again at the next turn.
async fn checkpoint(pool: SqlitePool) {
    let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
    loop {
        tick.tick().await;
        let _ = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&pool).await;
    }
}

impl PgStore {
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let pool = PgPoolOptions::new().max_connections(16).acquire_timeout(Duration::from_secs(10)).connect(url).await?;
        super::migrator().await?.run(&pool).await?;
        let mut listener = PgListener::connect_with(&pool).await?;
        listener.listen(CHANNEL).await?;
        Ok(PgStore { writer: pool.clone(), batcher: Batcher::start(pool.clone()), pool, listener: Mutex::new(Some(listener)) })
    }
}

/// Tells the other processes sharing the database about changes of the games `ids`.
trait Notify {
    fn notify<'a>(tx: &'a mut Self, ids: &'a [&'a str]) -> Fut<'a, ()>;
}

impl Notify for sqlx::SqliteConnection {
    fn notify<'a>(_tx: &'a mut Self, _ids: &'a [&'a str]) -> Fut<'a, ()> {
        Box::pin(async { Ok(()) })
    }
}

impl Notify for sqlx::PgConnection {
    fn notify<'a>(tx: &'a mut Self, ids: &'a [&'a str]) -> Fut<'a, ()> {
        Box::pin(async move {
            // Delivered when the transaction commits, never before: one statement for the batch.
            sqlx::query("SELECT pg_notify($1, g) FROM UNNEST($2::text[]) AS g").bind(CHANNEL).bind(ids).execute(tx).await?;
            Ok(())
        })
    }
}

/// `INSERT` of `n` move rows of one game, kept only where the game is active at the step
/// (`$1` the game, `$2` the step, then four parameters per row: step, seat, action, at) and
/// skipped where a row of that step exists; answers the steps written.
fn insert_moves(n: usize) -> String {
    let rows: Vec<String> = (0..n).map(|i| format!("(${}, ${}, ${}, ${})", 4 * i + 3, 4 * i + 4, 4 * i + 5, 4 * i + 6)).collect();
    format!(
        "INSERT INTO moves (game_id, step, seat, action, at) \
         SELECT g.id, m.column1, m.column2, m.column3, m.column4 FROM games g, (VALUES {}) AS m \
         WHERE g.id = $1 AND g.step = $2 AND g.status = 'active' \
         ON CONFLICT DO NOTHING RETURNING step",
        rows.join(", ")
    )
}

/// Inside the batch's transaction: if game `job.id` is active at step `job.at` and holds no
/// move of the steps `job.moves` fill, appends them and sets its row to `job.update`; else
/// `Conflict`, leaving no trace. Two statements (the moves, then the row), no savepoint: a
/// refused append takes back the rows it wrote itself.
macro_rules! append_one {
    ($tx:expr, $job:expr) => {{
        let (tx, job): (_, &Job) = ($tx, $job);
        let mut written: Vec<i64> = Vec::new();
        if !job.moves.is_empty() {
            let text = insert_moves(job.moves.len());
            let mut q = sqlx::query_scalar::<_, i64>(&text).bind(&job.id).bind(job.at);
            for m in &job.moves {
                q = q.bind(m.step).bind(m.seat).bind(m.action).bind(m.at);
            }
            written = q.fetch_all(&mut *tx).await?;
        }
        let mut outcome = Appended::Conflict;
        if written.len() == job.moves.len() {
            let u = &job.update;
            let changed = sqlx::query(
                "UPDATE games SET step = $1, status = $2, to_act = $3, result = $4, updated_at = $5 \
                 WHERE id = $6 AND step = $7 AND status = 'active'",
            )
            .bind(u.step)
            .bind(u.status)
            .bind(u.to_act)
            .bind(&u.result)
            .bind(u.updated_at)
            .bind(&job.id)
            .bind(job.at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if changed == 1 {
                outcome = Appended::Done;
            }
        }
        if outcome == Appended::Conflict {
            for step in written {
                sqlx::query("DELETE FROM moves WHERE game_id = $1 AND step = $2").bind(&job.id).bind(step).execute(&mut *tx).await?;
            }
        }
        Ok::<Appended, StoreError>(outcome)
    }};
}

macro_rules! sql_store {
    ($store:ty, $kind:literal) => {
        impl Store for $store {
            fn kind(&self) -> &'static str {
                $kind
            }

            fn create<'a>(&'a self, g: &'a GameRow, seats: &'a [SeatRow], moves: &'a [MoveRow]) -> Fut<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.writer.begin().await?;
                    sqlx::query(
                        "INSERT INTO games (id, game, config, seed, rules_version, status, step, to_act, result, created_at, updated_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                    )
                    .bind(&g.id)
                    .bind(&g.game)
                    .bind(&g.config)
                    .bind(g.seed)
                    .bind(&g.rules_version)
                    .bind(&g.status)
                    .bind(g.step)
                    .bind(g.to_act)
                    .bind(&g.result)
                    .bind(g.created_at)
                    .bind(g.updated_at)
                    .execute(&mut *tx)
                    .await?;
                    for s in seats {
                        sqlx::query("INSERT INTO seats (game_id, seat, kind, token_hash) VALUES ($1, $2, $3, $4)")
                            .bind(&g.id)
                            .bind(s.seat)
                            .bind(&s.kind)
                            .bind(&s.token_hash)
                            .execute(&mut *tx)
                            .await?;
                    }
                    for m in moves {
                        sqlx::query("INSERT INTO moves (game_id, step, seat, action, at) VALUES ($1, $2, $3, $4, $5)")
                            .bind(&g.id)
                            .bind(m.step)
                            .bind(m.seat)
                            .bind(m.action)
                            .bind(m.at)
                            .execute(&mut *tx)
                            .await?;
                    }
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn game<'a>(&'a self, id: &'a str) -> Fut<'a, Option<(GameRow, Vec<SeatRow>)>> {
                Box::pin(async move {
                    let q = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
                    let Some(t) = sqlx::query_as::<_, GameTuple>(&q).bind(id).fetch_optional(&self.pool).await? else {
                        return Ok(None);
                    };
                    let seats = sqlx::query_as::<_, (i32, String, Option<String>)>(
                        "SELECT seat, kind, token_hash FROM seats WHERE game_id = $1 ORDER BY seat",
                    )
                    .bind(id)
                    .fetch_all(&self.pool)
                    .await?
                    .into_iter()
                    .map(|(seat, kind, token_hash)| SeatRow { seat, kind, token_hash })
                    .collect();
                    Ok(Some((game_row(t), seats)))
                })
            }

            fn moves_from<'a>(&'a self, id: &'a str, from: i64) -> Fut<'a, Vec<MoveRow>> {
                Box::pin(async move {
                    let rows = sqlx::query_as::<_, (i64, i32, i64, i64)>(
                        "SELECT step, seat, action, at FROM moves WHERE game_id = $1 AND step >= $2 ORDER BY step",
                    )
                    .bind(id)
                    .bind(from)
                    .fetch_all(&self.pool)
                    .await?;
                    Ok(rows.into_iter().map(|(step, seat, action, at)| MoveRow { step, seat, action, at }).collect())
                })
            }

            fn append<'a>(&'a self, id: &'a str, at: i64, moves: &'a [MoveRow], u: &'a Update) -> Fut<'a, Appended> {
                Box::pin(self.batcher.append(Job { id: id.to_string(), at, moves: moves.to_vec(), update: u.clone() }))
            }

            fn list<'a>(&'a self, status: Option<&'a str>, limit: i64) -> Fut<'a, Vec<GameRow>> {
                Box::pin(async move {
                    let rows = match status {
                        Some(s) => {
                            let q = format!("SELECT {GAME_COLUMNS} FROM games WHERE status = $1 ORDER BY created_at DESC, id LIMIT $2");
                            sqlx::query_as::<_, GameTuple>(&q).bind(s).bind(limit).fetch_all(&self.pool).await?
                        }
                        None => {
                            let q = format!("SELECT {GAME_COLUMNS} FROM games ORDER BY created_at DESC, id LIMIT $1");
                            sqlx::query_as::<_, GameTuple>(&q).bind(limit).fetch_all(&self.pool).await?
                        }
                    };
                    Ok(rows.into_iter().map(game_row).collect())
                })
            }

            fn count_active(&self) -> Fut<'_, i64> {
                Box::pin(async move {
                    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM games WHERE status = 'active'").fetch_one(&self.pool).await?;
                    Ok(n)
                })
            }

            fn bot_turns(&self) -> Fut<'_, Vec<String>> {
                Box::pin(async move {
                    let rows: Vec<(String,)> = sqlx::query_as(
                        "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.to_act \
                         WHERE g.status = 'active' AND s.kind <> 'human'",
                    )
                    .fetch_all(&self.pool)
                    .await?;
                    Ok(rows.into_iter().map(|r| r.0).collect())
                })
            }

            fn listen(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
                self.listener()
            }

            #[cfg(test)]
            fn commits(&self) -> u64 {
                self.batcher.commits()
            }
        }
    };
}

sql_store!(SqliteStore, "sqlite");
sql_store!(PgStore, "postgres");

macro_rules! batch_writer {
    ($pool:ty) => {
        impl WriteBatch for $pool {
            /// One transaction; a job whose game is not at its step (or whose move rows exist
            /// already) leaves no trace and the others go on. The notifications (PostgreSQL)
            /// are sent by the commit.
            fn write_batch<'a>(&'a self, jobs: &'a [Job]) -> Fut<'a, Vec<Result<Appended, StoreError>>> {
                Box::pin(async move {
                    let mut tx = self.begin().await?;
                    let mut out = Vec::with_capacity(jobs.len());
                    let mut changed = Vec::new();
                    for job in jobs {
                        let r = append_one!(&mut *tx, job)?;
                        if r == Appended::Done {
                            changed.push(job.id.as_str());
                        }
                        out.push(Ok(r));
                    }
                    if !changed.is_empty() {
                        Notify::notify(&mut *tx, &changed).await?;
                    }
                    tx.commit().await?;
                    Ok(out)
                })
            }
        }
    };
}

batch_writer!(SqlitePool);
batch_writer!(PgPool);

impl SqliteStore {
    fn listener(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        None
    }
}

impl PgStore {
    /// Forwards the notifications of [`CHANNEL`]; after a lost connection (the listener
    /// reconnects by itself) it sends `None`, since notifications may have been missed.
    fn listener(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        let mut listener = self.listener.lock().ok()?.take()?;
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                let notice = match listener.try_recv().await {
                    Ok(Some(n)) => Some(n.payload().to_string()),
                    Ok(None) => None,
                    Err(e) => {
                        eprintln!("kassen-server: listening for changes: {e}");
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        None
                    }
                };
                if tx.send(notice).is_err() {
                    return;
                }
            }
        });
        Some(rx)
    }
}
