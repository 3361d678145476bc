//! The work on a map's table off the main thread, shared by [`NavGrid`](crate::NavGrid) and
//! [`NavRooms`](crate::NavRooms): one build (or load), then repairs one at a time, each a kept
//! task on Bevy's async compute pool, polled once a frame and cancelled when dropped.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use signposts::Cancel;

/// Where a map's table is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NavStatus {
    /// Made but not started: the next [`NavSystems::Sync`](crate::NavSystems::Sync) starts it.
    Waiting,
    /// Being built or loaded off the main thread (`progress()` says how far).
    Building,
    /// Answering.
    Ready,
    /// The build or load failed (a [`NavError`](crate::NavError) said why) or was cancelled.
    Failed,
}

/// A task with the token that stops it. Dropping the job cancels the work: the task if it has
/// not started, the build at its next batch if it has.
struct Job<T> {
    task: Task<T>,
    cancel: Cancel,
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// The build (output `B`) and the repairs (output `R`) of one map, its status, progress and
/// version.
pub(crate) struct Work<B, R> {
    pub(crate) status: NavStatus,
    progress: Arc<AtomicU32>,
    build: Option<Job<B>>,
    repair: Option<Job<R>>,
    /// Repairs swapped in.
    pub(crate) version: u64,
}

impl<B: Send + 'static, R: Send + 'static> Work<B, R> {
    pub(crate) fn new() -> Work<B, R> {
        Work { status: NavStatus::Waiting, progress: Arc::default(), build: None, repair: None, version: 0 }
    }

    /// The build's progress, from 0 to 1.
    pub(crate) fn progress(&self) -> f32 {
        f32::from_bits(self.progress.load(Ordering::Relaxed))
    }

    /// Starts the build made by `make` from its cancel token and a progress reporter.
    pub(crate) fn start_build<F: Future<Output = B> + Send + 'static>(
        &mut self,
        make: impl FnOnce(Cancel, Reporter) -> F,
    ) {
        self.progress.store(0f32.to_bits(), Ordering::Relaxed);
        let cancel = Cancel::new();
        let task =
            AsyncComputeTaskPool::get().spawn(make(cancel.clone(), Reporter(Arc::clone(&self.progress))));
        self.build = Some(Job { task, cancel });
        self.status = NavStatus::Building;
    }

    /// The build's output, once, when it is done (the progress then reads 1; the caller sets
    /// the status).
    pub(crate) fn poll_build(&mut self) -> Option<B> {
        let output = check_ready(&mut self.build.as_mut()?.task)?;
        self.build = None;
        self.progress.store(1f32.to_bits(), Ordering::Relaxed);
        Some(output)
    }

    /// Whether a repair is under way.
    pub(crate) fn repairing(&self) -> bool {
        self.repair.is_some()
    }

    /// Starts the repair made by `make` from its cancel token.
    pub(crate) fn start_repair<F: Future<Output = R> + Send + 'static>(
        &mut self,
        make: impl FnOnce(Cancel) -> F,
    ) {
        let cancel = Cancel::new();
        let task = AsyncComputeTaskPool::get().spawn(make(cancel.clone()));
        self.repair = Some(Job { task, cancel });
    }

    /// The repair's output, once, when it is done.
    pub(crate) fn poll_repair(&mut self) -> Option<R> {
        let output = check_ready(&mut self.repair.as_mut()?.task)?;
        self.repair = None;
        Some(output)
    }

    /// Cancels the build (the status becomes [`NavStatus::Failed`]) and the repair; returns
    /// whether a repair was cancelled.
    pub(crate) fn cancel(&mut self) -> bool {
        if self.build.take().is_some() {
            self.status = NavStatus::Failed;
        }
        self.repair.take().is_some()
    }
}

/// Reports a build's progress from its thread.
pub(crate) struct Reporter(Arc<AtomicU32>);

impl Reporter {
    /// The build is `fraction` done (reports never go back).
    pub(crate) fn report(&self, fraction: f32) {
        // Positive floats order as their bits.
        self.0.fetch_max(fraction.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
    }
}
