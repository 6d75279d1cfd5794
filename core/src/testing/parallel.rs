//! Independent test cases on every core: the long suites of `make test` (conformance per game
//! and configuration, compact observations along random games) would otherwise keep one core
//! of the machine busy and leave the others idle.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `check` on every case, one thread per core taking the next case until none is left.
/// Returns once every case has run or a check has panicked; that panic is raised here, after
/// the other threads have stopped.
pub fn on_every_core<T: Sync>(cases: &[T], check: impl Fn(&T) + Sync) {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(cases.len());
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    while let Some(case) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                        check(case);
                    }
                })
            })
            .collect();
        for worker in workers {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_runs_once() {
        for n in [0, 1, 2, 7] {
            let runs: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            let cases: Vec<usize> = (0..n).collect();
            on_every_core(&cases, |&i| {
                runs[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1), "{n} cases");
        }
    }

    #[test]
    fn a_failing_case_fails_the_call() {
        let cases = [1, 2, 3];
        let r = std::panic::catch_unwind(|| on_every_core(&cases, |&c| assert_ne!(c, 2, "case 2 fails")));
        assert!(r.is_err());
    }
}
