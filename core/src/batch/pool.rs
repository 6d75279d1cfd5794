//! The worker threads of a batch: started once with the batch, parked between calls, and
//! joined when the batch is dropped (no thread outlives it).
//!
//! A call is cut into more parts than there are threads. Each thread (the caller included)
//! first takes the parts of its own region, in order, then those left in the other regions:
//! a slot usually stays on the same thread from one call to the next (its state stays in that
//! core's cache), a thread whose games ran longer is helped, and the caller does not sit idle
//! while a parked worker wakes up.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
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

    /// The threads a call runs on: the workers and the caller.
    pub(super) fn threads(&self) -> usize {
        self.handles.len() + 1
    }

    /// Runs `work` on every part, on the calling thread and the workers (see the module
    /// comment). Returns when every part is done (a panic in a part is raised here after all
    /// parts have finished).
    pub(super) fn run<T: Send, F: Fn(T) + Sync>(&self, parts: Vec<T>, work: F) {
        let Some(pool) = &self.pool else {
            parts.into_iter().for_each(work);
            return;
        };
        let queue = Queue::new(parts, self.threads());
        let (queue, work) = (&queue, &work);
        pool.in_place_scope(|scope| {
            for home in 1..self.threads() {
                scope.spawn(move |_| queue.drain(home, work));
            }
            queue.drain(0, work);
        });
    }
}

/// The parts of one call, cut into one region of consecutive parts per thread.
struct Queue<T> {
    parts: Vec<Mutex<Option<T>>>,
    /// Per region: the next part to take, and the end of the region.
    regions: Vec<(AtomicUsize, usize)>,
}

impl<T> Queue<T> {
    fn new(parts: Vec<T>, threads: usize) -> Self {
        let n = parts.len();
        let regions = (0..threads).map(|r| (AtomicUsize::new(r * n / threads), (r + 1) * n / threads)).collect();
        Queue { parts: parts.into_iter().map(|p| Mutex::new(Some(p))).collect(), regions }
    }

    /// Takes parts until none is left: those of region `home` first, then the others'.
    fn drain(&self, home: usize, work: &impl Fn(T)) {
        let r = self.regions.len();
        for (next, end) in (0..r).map(|k| &self.regions[(home + k) % r]) {
            loop {
                // Each index is handed out once, so the part's lock is never contended.
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= *end {
                    break;
                }
                let part = self.parts[i].lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
                if let Some(part) = part {
                    work(part);
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_runs_once_whatever_the_threads() {
        for workers in 1..4 {
            let pool = Pool::new(workers).expect("threads start");
            for n in [0, 1, 2, 5, 16, 33] {
                let done: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
                pool.run((0..n).collect(), |i: usize| {
                    done[i].fetch_add(1, Ordering::Relaxed);
                });
                assert!(done.iter().all(|d| d.load(Ordering::Relaxed) == 1), "{workers} workers, {n} parts");
            }
        }
    }

    #[test]
    fn regions_cover_the_parts_in_order() {
        let q = Queue::new((0..10).collect::<Vec<usize>>(), 3);
        let bounds: Vec<(usize, usize)> = q.regions.iter().map(|(next, end)| (next.load(Ordering::Relaxed), *end)).collect();
        assert_eq!(bounds, [(0, 3), (3, 6), (6, 10)]);
        let seen = Mutex::new(Vec::new());
        q.drain(1, &|i| seen.lock().unwrap().push(i));
        assert_eq!(*seen.lock().unwrap(), [3, 4, 5, 6, 7, 8, 9, 0, 1, 2]);
    }
}
