//! Measured costs for the choice between repairing a table and rebuilding it: how long the
//! graph's build took (timed when it was built in this process), against how long the repair
//! under way is taking and how much of it is left. Targets without a clock
//! (`wasm32-unknown-unknown`) and graphs loaded from files fall back on the work model
//! (`driver.rs`).

use core::sync::atomic::{AtomicUsize, Ordering};
use core::time::Duration;

/// How long a graph's build took, when it was built in this process on a target with a
/// clock. Not part of the graph's value: two graphs are equal whatever their builds took.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BuildTime(pub(crate) Option<Duration>);

impl PartialEq for BuildTime {
    fn eq(&self, _: &BuildTime) -> bool {
        true
    }
}

impl Eq for BuildTime {}

/// A point in time to measure from; `None` where the target has no clock.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) type Started = Option<std::time::Instant>;
/// A point in time to measure from; `None` where the target has no clock.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) type Started = Option<()>;

/// Now, where the target has a clock.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[expect(clippy::unnecessary_wraps, reason = "`None` on targets without a clock")]
pub(crate) fn now() -> Started {
    Some(std::time::Instant::now())
}

/// Now, where the target has a clock (not this one).
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) fn now() -> Started {
    None
}

/// The time since `started`, where the target has a clock.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) fn since(started: Started) -> Option<Duration> {
    started.map(|s| s.elapsed())
}

/// The time since `started`, where the target has a clock (not this one).
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) fn since(_: Started) -> Option<Duration> {
    None
}

/// Whether a repair that has taken `elapsed` for `done` units of work, of `foretold` in all,
/// will take longer than the rebuild it replaces (`build`): the time per unit measured so far
/// times the units foretold; or whether it has taken that long already.
pub(crate) fn repair_costs_more(elapsed: Duration, done: usize, foretold: usize, build: Duration) -> bool {
    if elapsed >= build {
        return true;
    }
    done > 0 && elapsed.as_secs_f64() * (foretold.max(done) as f64 / done as f64) > build.as_secs_f64()
}

/// The shortest build whose time the choice trusts: below it a thread's wait for a core, a page
/// fault or a timer's grain is a good part of the measure, and the choice between two ways
/// that both take a few milliseconds is left to the work model, which decides the same way on
/// every run.
pub(crate) const MEASURED_BUILD: Duration = Duration::from_millis(20);

/// A repair's foresight of its own cost: the work of the columns at the edited nodes (the
/// largest, repaired first) and of cut-off columns, and the mean of the others so far, which
/// are alike, times how many there are; with the time taken so far and the build's.
pub(crate) struct Foresight {
    started: Started,
    build: Option<Duration>,
    /// Columns other than those at the edited nodes.
    others: usize,
    certain: AtomicUsize,
    other_work: AtomicUsize,
    others_done: AtomicUsize,
}

impl Foresight {
    /// From now, for a graph whose build took `build` (if measured), with `others` columns to
    /// repair besides those at the edited nodes. A build shorter than [`MEASURED_BUILD`]
    /// counts as not measured.
    pub(crate) fn new(build: Option<Duration>, others: usize) -> Foresight {
        Foresight {
            started: now(),
            build: build.filter(|&b| b >= MEASURED_BUILD),
            others,
            certain: AtomicUsize::new(0),
            other_work: AtomicUsize::new(0),
            others_done: AtomicUsize::new(0),
        }
    }

    /// Whether there is a measured build to weigh the repair against.
    pub(crate) fn measured(&self) -> bool {
        self.build.is_some() && self.started.is_some()
    }

    /// Records a column's work: one at an edited node (or cut off) or one of the others.
    pub(crate) fn record(&self, spent: usize, at_edit: bool) {
        if at_edit {
            self.certain.fetch_add(spent, Ordering::Relaxed);
        } else {
            self.other_work.fetch_add(spent, Ordering::Relaxed);
            self.others_done.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Whether the repair, `work` units in, will take longer than the build: `None` without
    /// a measured build.
    pub(crate) fn costs_more(&self, work: usize) -> Option<bool> {
        let (elapsed, build) = (since(self.started)?, self.build?);
        let done = self.others_done.load(Ordering::Relaxed);
        let foretold = if done >= 16 && done * 16 >= self.others {
            self.certain.load(Ordering::Relaxed)
                + self.other_work.load(Ordering::Relaxed) / done * self.others
        } else {
            work
        };
        Some(repair_costs_more(elapsed, work, foretold, build))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repair_that_foretells_more_than_the_build_costs_more() {
        let ms = Duration::from_millis;
        assert!(!repair_costs_more(ms(10), 100, 400, ms(50))); // 40 ms foretold
        assert!(repair_costs_more(ms(10), 100, 600, ms(50))); // 60 ms foretold
        assert!(repair_costs_more(ms(50), 100, 100, ms(50))); // as long as the build already
        assert!(!repair_costs_more(ms(0), 0, 100, ms(50))); // nothing to go on yet
    }
}
