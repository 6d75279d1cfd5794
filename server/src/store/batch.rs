//! Group commit: appends of different games that arrive while a commit is in flight are
//! written together in the next transaction, so one disk flush (SQLite's `fsync` under
//! `synchronous=FULL`, PostgreSQL's WAL flush) acknowledges all of them. Each append is
//! answered only after the transaction that holds it has committed; an append that fails its
//! own check (the game is not at its step) leaves no trace and does not fail the others.

#[cfg(test)]
use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(test)]
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use super::{Appended, Fut, MoveRow, StoreError, Update};

/// At most this many appends share one transaction.
pub const MAX_BATCH: usize = 256;

/// One append waiting for its transaction.
pub struct Job {
    pub id: String,
    pub at: i64,
    pub moves: Vec<MoveRow>,
    pub update: Update,
}

/// Writes a batch of appends in one transaction: `Ok` with one outcome per job (in order)
/// when the transaction committed, `Err` when it did not (then nothing of it was written).
pub trait WriteBatch: Send + Sync + 'static {
    fn write_batch<'a>(&'a self, jobs: &'a [Job]) -> Fut<'a, Vec<Result<Appended, StoreError>>>;
}

type Waiting = (Job, oneshot::Sender<Result<Appended, StoreError>>);

/// The queue of appends and the task that commits them.
pub struct Batcher {
    queue: mpsc::UnboundedSender<Waiting>,
    /// Transactions written so far.
    #[cfg(test)]
    commits: Arc<AtomicU64>,
}

impl Batcher {
    /// Starts the committing task on the current runtime; it ends when the batcher is dropped.
    pub fn start<W: WriteBatch>(writer: W) -> Batcher {
        let (queue, mut rx) = mpsc::unbounded_channel::<Waiting>();
        #[cfg(test)]
        let commits = Arc::new(AtomicU64::new(0));
        #[cfg(test)]
        let counted = commits.clone();
        tokio::spawn(async move {
            let mut batch: Vec<Waiting> = Vec::new();
            while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
                let (jobs, waiters): (Vec<Job>, Vec<_>) = batch.drain(..).unzip();
                let outcome = writer.write_batch(&jobs).await;
                #[cfg(test)]
                counted.fetch_add(1, Ordering::Relaxed);
                match outcome {
                    Ok(results) => {
                        for (w, r) in waiters.into_iter().zip(results) {
                            let _ = w.send(r);
                        }
                    }
                    Err(e) => {
                        for w in waiters {
                            let _ = w.send(Err(StoreError(e.0.clone())));
                        }
                    }
                }
            }
        });
        Batcher {
            queue,
            #[cfg(test)]
            commits,
        }
    }

    /// Queues an append and waits for the commit of its transaction.
    pub async fn append(&self, job: Job) -> Result<Appended, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.queue.send((job, tx)).map_err(|_| StoreError("the database writer has stopped".into()))?;
        rx.await.map_err(|_| StoreError("the database writer has stopped".into()))?
    }

    /// Transactions written so far (tests).
    #[cfg(test)]
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }
}
