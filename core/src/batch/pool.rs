//! The worker threads of a batch: started once with the batch, parked between calls, and
//! joined when the batch is dropped (no thread outlives it).
//!
//! A call is cut into more parts than there are threads. Each thread (the caller included)
//! first takes the parts of its own region, in order, then those left in the other regions:
//! a slot usually stays on the same thread from one call to the next (its state stays in that
//! core's cache), a thread whose games ran longer is helped, and the caller does not sit idle
//! while a parked worker wakes up.
//!
//! After a call each worker stays awake a little while, spinning and then yielding its core:
//! a training loop comes back within microseconds (a Python loop sampling the next actions
//! takes about ten), and waking a sleeping thread costs tens of microseconds on a virtual
//! machine, more than the work of a small batch. Only then does it sleep.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a worker spins after a call, then yields its core, before it may sleep.
const SPIN: Duration = Duration::from_micros(50);
const AWAKE: Duration = Duration::from_micros(250);

/// `workers` threads that run parts of a call next to the calling thread.
pub(super) struct Pool {
    pool: Option<rayon_core::ThreadPool>,
    handles: Vec<JoinHandle<()>>,
    /// Calls started: a worker staying awake after a call returns when it moves.
    calls: Arc<AtomicU64>,
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
            Ok(pool) => Some(Pool { pool: Some(pool), handles, calls: Arc::default() }),
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
        let call = self.calls.fetch_add(1, Ordering::Release) + 1;
        let queue = Queue::new(parts, self.threads());
        let (queue, work) = (&queue, &work);
        pool.in_place_scope(|scope| {
            for home in 1..self.threads() {
                scope.spawn(move |_| queue.drain(home, work));
            }
            queue.drain(0, work);
            // Wait for the workers here, spinning, rather than asleep in the scope's end.
            spin_until(|| queue.drained.load(Ordering::Acquire) == queue.regions.len(), AWAKE, AWAKE);
        });
        for _ in 1..self.threads() {
            let calls = Arc::clone(&self.calls);
            pool.spawn(move || stay_awake(&calls, call));
        }
    }
}

/// Spins, then yields, until a call after `call` starts or [`AWAKE`] has passed.
fn stay_awake(calls: &AtomicU64, call: u64) {
    spin_until(|| calls.load(Ordering::Acquire) != call, SPIN, AWAKE);
}

/// Waits until `done()` or `limit` has passed: spinning for `spin`, then yielding its core
/// between looks.
fn spin_until(done: impl Fn() -> bool, spin: Duration, limit: Duration) {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if done() {
                return;
            }
            std::hint::spin_loop();
        }
        let waited = start.elapsed();
        if waited > limit {
            return;
        }
        if waited > spin {
            std::thread::yield_now();
        }
    }
}

/// The parts of one call, cut into one region of consecutive parts per thread.
struct Queue<T> {
    parts: Vec<Mutex<Option<T>>>,
    /// Per region: the parts not taken yet (`start..end`). Its thread takes them from the
    /// start, the others from the end: when one thread keeps finishing early, it keeps taking
    /// the same parts of the other's region, so slots do not move back and forth.
    regions: Vec<Mutex<Range<usize>>>,
    /// Threads that found no part left.
    drained: AtomicUsize,
}

impl<T> Queue<T> {
    fn new(parts: Vec<T>, threads: usize) -> Self {
        let n = parts.len();
        let regions = (0..threads).map(|r| Mutex::new(r * n / threads..(r + 1) * n / threads)).collect();
        Queue { parts: parts.into_iter().map(|p| Mutex::new(Some(p))).collect(), regions, drained: AtomicUsize::new(0) }
    }

    /// Takes parts until none is left: those of region `home` from its start, then the
    /// others' from their ends.
    fn drain(&self, home: usize, work: &impl Fn(T)) {
        let r = self.regions.len();
        for k in 0..r {
            let region = &self.regions[(home + k) % r];
            loop {
                let next = {
                    let mut left = lock(region);
                    if k == 0 {
                        left.next()
                    } else {
                        left.next_back()
                    }
                };
                let Some(i) = next else { break };
                // Each index is handed out once, so the part's lock is never contended.
                if let Some(part) = lock(&self.parts[i]).take() {
                    work(part);
                }
            }
        }
        self.drained.fetch_add(1, Ordering::Release);
    }
}

/// A lock that a panic in a part cannot poison for good (every critical section here only
/// moves a bound or takes a part).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Dropping the pool tells its threads to stop (those staying awake return at once);
        // joining them frees them before the batch is gone.
        self.calls.fetch_add(1, Ordering::Release);
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
    fn calls_after_the_workers_slept_run_every_part() {
        let pool = Pool::new(2).expect("threads start");
        for pause in [Duration::ZERO, AWAKE * 4, SPIN / 2] {
            std::thread::sleep(pause);
            let done: Vec<AtomicUsize> = (0..24).map(|_| AtomicUsize::new(0)).collect();
            pool.run((0..24).collect(), |i: usize| {
                done[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(done.iter().all(|d| d.load(Ordering::Relaxed) == 1), "after a pause of {pause:?}");
        }
    }

    #[test]
    fn regions_cover_the_parts_in_order() {
        let q = Queue::new((0..10).collect::<Vec<usize>>(), 3);
        let bounds: Vec<Range<usize>> = q.regions.iter().map(|r| lock(r).clone()).collect();
        assert_eq!(bounds, [0..3, 3..6, 6..10]);
        let seen = Mutex::new(Vec::new());
        q.drain(1, &|i| seen.lock().unwrap().push(i));
        // Its own region from the start, then the others from their ends.
        assert_eq!(*seen.lock().unwrap(), [3, 4, 5, 9, 8, 7, 6, 2, 1, 0]);
    }
}
