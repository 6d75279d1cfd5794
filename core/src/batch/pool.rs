//! The worker threads of a batch: started once with the batch, parked between calls, and
//! joined when the batch is dropped (no thread outlives it).

use std::thread::JoinHandle;

/// `workers` threads that run parts of a call next to the calling thread.
pub(super) struct Pool {
    pool: Option<rayon_core::ThreadPool>,
    handles: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool of `workers` threads, or `None` if the system refuses to start them (the batch
    /// then runs on the calling thread alone, with the same results).
    pub(super) fn new(workers: usize) -> Option<Pool> {
        let mut handles = Vec::with_capacity(workers);
        let pool = rayon_core::ThreadPoolBuilder::new()
            .num_threads(workers)
            .thread_name(|i| format!("kassen-batch-{i}"))
            .spawn_handler(|t| {
                let mut b = std::thread::Builder::new();
                if let Some(name) = t.name() {
                    b = b.name(name.to_owned());
                }
                if let Some(size) = t.stack_size() {
                    b = b.stack_size(size);
                }
                handles.push(b.spawn(|| t.run())?);
                Ok(())
            })
            .build();
        match pool {
            Ok(pool) => Some(Pool { pool: Some(pool), handles }),
            Err(_) => {
                // The threads that did start stop when the builder's registry is dropped.
                for h in handles {
                    let _ = h.join();
                }
                None
            }
        }
    }

    /// Runs `work` on every part: the first on the calling thread, the others on the
    /// workers. Returns when every part is done (a panic in a part is raised here after all
    /// parts have finished).
    pub(super) fn run<T: Send, F: Fn(T) + Sync>(&self, parts: Vec<T>, work: F) {
        let work = &work;
        let Some(pool) = &self.pool else {
            parts.into_iter().for_each(work);
            return;
        };
        pool.in_place_scope(|scope| {
            let mut parts = parts.into_iter();
            let first = parts.next();
            for part in parts {
                scope.spawn(move |_| work(part));
            }
            if let Some(part) = first {
                work(part);
            }
        });
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Dropping the pool tells its threads to stop; joining them frees them before the
        // batch is gone.
        drop(self.pool.take());
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}
