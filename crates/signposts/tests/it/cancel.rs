//! Cancelling a build: once the token is cancelled no further batch of targets starts, for the
//! dense and the compressed builds, unit and weighted; an uncancelled token changes nothing.

use std::sync::atomic::{AtomicUsize, Ordering};

use signposts::generate::{grid, maze};
use signposts::grid::{Cell, Connectivity, Grid, TableKind};
use signposts::{BuildOptions, Cancel, Error, GraphBuilder, Progress};

/// Builds with options whose progress report cancels at the first finished batch; returns the
/// batches that finished and the total the build announced.
fn cancel_at_first_batch<T>(build: impl FnOnce(&BuildOptions<'_>) -> Result<T, Error>) -> (usize, usize) {
    let cancel = Cancel::new();
    let (finished, total) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let mut options = BuildOptions::new();
    options
        .progress(|p: Progress| {
            finished.fetch_add(1, Ordering::Relaxed);
            total.store(p.total, Ordering::Relaxed);
            cancel.cancel();
        })
        .cancel(&cancel);
    assert!(matches!(build(&options), Err(Error::Cancelled)));
    drop(options);
    (finished.into_inner(), total.into_inner())
}

/// Batches already running when the token is cancelled finish: at most one a worker.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from).max(rayon::current_num_threads())
}

#[test]
fn a_cancelled_dense_build_starts_no_further_batch() {
    let unit = grid(60, 60, Connectivity::Four); // 3,600 targets: 15 or more batches
    let (finished, total) = cancel_at_first_batch(|o| o.build(&unit));
    assert!(total >= 14, "{total} batches");
    assert!(finished <= workers(), "{finished} of {total} batches ran after the cancel");

    let mut weighted = grid(40, 40, Connectivity::Four);
    weighted.connect_weighted(0, 41, 3);
    let (finished, total) = cancel_at_first_batch(|o| o.build(&weighted));
    assert!(total >= 20, "{total} batches");
    assert!(finished <= workers(), "{finished} of {total} batches ran after the cancel");
}

#[test]
fn a_cancelled_compressed_build_starts_no_further_wave() {
    let unit = grid(120, 120, Connectivity::EightUnit);
    let (finished, total) = cancel_at_first_batch(|o| o.build_compressed(&unit));
    // The first wave runs whole (up to 8 batches a worker); nothing after it.
    assert!(total >= 40, "{total} batches");
    assert!(finished <= 8 * workers(), "{finished} of {total} batches ran after the cancel");
    assert!(finished < total);
}

#[test]
fn a_cancelled_shard_build_starts_no_further_wave() {
    let unit = grid(120, 120, Connectivity::Four);
    let (finished, total) = cancel_at_first_batch(|o| o.build_shard(&unit, 0, 2));
    assert!(finished < total, "{finished} of {total} batches ran after the cancel");
}

#[test]
fn a_token_never_cancelled_builds_the_same_tables() {
    for builder in [grid(30, 20, Connectivity::EightUnit), grid(30, 20, Connectivity::Eight)] {
        let builder: GraphBuilder = builder;
        let cancel = Cancel::new();
        let mut options = BuildOptions::new();
        options.cancel(&cancel).progress(|_| {});
        assert_eq!(options.build(&builder).unwrap(), builder.build());
        assert_eq!(options.build_compressed(&builder).unwrap(), builder.build_compressed().unwrap());
        assert!(!cancel.is_cancelled());
    }

    let map = Grid::from_ascii("......\n.####.\n......").unwrap();
    let cancel = Cancel::new();
    for kind in [TableKind::Dense, TableKind::Compressed] {
        let oracle = BuildOptions::new().cancel(&cancel).build_grid(&map, Connectivity::Four, kind).unwrap();
        assert_eq!(oracle.is_compressed(), kind == TableKind::Compressed);
        assert_eq!(oracle.distance(Cell::new(0, 1), Cell::new(5, 1)), Some(7.0));
    }
}

#[test]
fn every_thread_count_builds_the_same_tables() {
    let builder = maze(24, 24, 5);
    let (dense, compressed) = (builder.build(), builder.build_compressed().unwrap());
    for threads in [1, 2, 3] {
        let mut options = BuildOptions::new();
        options.threads(threads);
        assert_eq!(options.build(&builder).unwrap(), dense, "{threads} threads");
        assert_eq!(options.build_compressed(&builder).unwrap(), compressed, "{threads} threads");
    }
}

#[test]
fn progress_reports_end_at_their_total_for_every_build() {
    let builder = grid(50, 50, Connectivity::Eight);
    let grid_map = Grid::new(50, 50);
    let last = std::sync::Mutex::new(Vec::new());
    let mut options = BuildOptions::new();
    options.progress(|p: Progress| last.lock().unwrap().push(p));
    options.build(&builder).unwrap();
    options.build_compressed(&builder).unwrap();
    options.build_shard(&builder, 1, 2).unwrap();
    options.build_grid(&grid_map, Connectivity::Four, TableKind::Dense).unwrap();
    drop(options);
    let reports = last.into_inner().unwrap();
    assert!(!reports.is_empty());
    assert!(reports.iter().all(|p| p.done <= p.total && (0.0..=1.0).contains(&p.fraction())));
    // Each of the four builds reached its total.
    assert!(reports.iter().filter(|p| p.done == p.total).count() >= 4);
}

#[test]
fn memory_limits_hold_for_dense_and_compressed_tables() {
    let builder = grid(40, 40, Connectivity::Four);
    let needed = builder.memory_needed();
    let over = BuildOptions::new().memory_limit(needed - 1).build(&builder);
    assert_eq!(over.unwrap_err(), Error::OverMemoryLimit { needed, limit: needed - 1 });
    assert_eq!(
        BuildOptions::new().memory_limit(needed).build(&builder).unwrap().memory_bytes() as u64,
        needed
    );
    let small = BuildOptions::new().memory_limit(64).build_compressed(&builder);
    assert!(matches!(small, Err(Error::OverMemoryLimit { limit: 64, .. })));
}
