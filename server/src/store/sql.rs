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

fn unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error().is_some_and(|d| d.is_unique_violation())
}

pub struct SqliteStore {
    pool: SqlitePool,
    /// The one connection that writes: transactions queue for it in order instead of
    /// contending for SQLite's write lock and sleeping in its busy handler.
    writer: SqlitePool,
    /// Moves, committed in groups on `writer`.
    batcher: Batcher,
}

pub struct PgStore {
    pool: PgPool,
    /// The same pool: PostgreSQL serves concurrent writers itself.
    writer: PgPool,
    /// Moves, committed in groups (one transaction at a time).
    batcher: Batcher,
    listener: Mutex<Option<PgListener>>,
}

impl SqliteStore {
    /// WAL with `synchronous=FULL`: a commit is on disk before the move is acknowledged.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let writer = SqlitePoolOptions::new().max_connections(1).connect_with(options.clone()).await?;
        super::migrator().await?.run(&writer).await?;
        let pool = SqlitePoolOptions::new().max_connections(4).connect_with(options).await?;
        Ok(SqliteStore { pool, batcher: Batcher::start(writer.clone()), writer })
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

/// Inside the batch's transaction: if game `job.id` is active at step `job.at`, sets its row
/// to `job.update` and appends `job.moves`; `Conflict` (the caller rolls back to the job's
/// savepoint) when it is not, or when a move row of those steps exists already.
macro_rules! append_one {
    ($tx:expr, $job:expr) => {{
        let (tx, job): (_, &Job) = ($tx, $job);
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
        let mut outcome = if changed == 1 { Appended::Done } else { Appended::Conflict };
        if outcome == Appended::Done {
            for m in &job.moves {
                let r = sqlx::query("INSERT INTO moves (game_id, step, seat, action, at) VALUES ($1, $2, $3, $4, $5)")
                    .bind(&job.id)
                    .bind(m.step)
                    .bind(m.seat)
                    .bind(m.action)
                    .bind(m.at)
                    .execute(&mut *tx)
                    .await;
                match r {
                    Ok(_) => {}
                    Err(e) if unique_violation(&e) => {
                        outcome = Appended::Conflict;
                        break;
                    }
                    Err(e) => return Err(e.into()),
                }
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
            /// One transaction; each job inside its own savepoint, so a job whose game is not
            /// at its step (or whose move rows exist already) leaves no trace and the others
            /// go on. The notifications (PostgreSQL) are sent by the commit.
            fn write_batch<'a>(&'a self, jobs: &'a [Job]) -> Fut<'a, Vec<Result<Appended, StoreError>>> {
                Box::pin(async move {
                    let mut tx = self.begin().await?;
                    let mut out = Vec::with_capacity(jobs.len());
                    let mut changed = Vec::new();
                    for job in jobs {
                        sqlx::query("SAVEPOINT job").execute(&mut *tx).await?;
                        let r = async { append_one!(&mut *tx, job) }.await;
                        match r {
                            Ok(Appended::Done) => {
                                sqlx::query("RELEASE SAVEPOINT job").execute(&mut *tx).await?;
                                changed.push(job.id.as_str());
                            }
                            _ => {
                                sqlx::query("ROLLBACK TO SAVEPOINT job").execute(&mut *tx).await?;
                                sqlx::query("RELEASE SAVEPOINT job").execute(&mut *tx).await?;
                            }
                        }
                        out.push(r);
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
