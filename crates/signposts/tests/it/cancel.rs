//! Cancelling a build: once the token is cancelled no further batch of targets starts, for the
//! dense and the compressed builds, unit and weighted; an uncancelled token changes nothing.

use std::sync::atomic::{AtomicUsize, Ordering};

use signposts::generate::{Connectivity, grid};
use signposts::grid::{Cell, Grid, GridOracle, TableKind};
use signposts::{Cancel, Error, GraphBuilder, Progress};

/// Builds with a callback that cancels at the first finished batch; returns the batches that
/// finished and the total the build announced.
fn cancel_at_first_batch<T>(
    build: impl FnOnce(&(dyn Fn(Progress) + Sync), &Cancel) -> Result<T, Error>,
) -> (usize, usize) {
    let cancel = Cancel::new();
    let (finished, total) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let progress = |p: Progress| {
        finished.fetch_add(1, Ordering::Relaxed);
        total.store(p.total, Ordering::Relaxed);
        cancel.cancel();
    };
    assert!(matches!(build(&progress, &cancel), Err(Error::Cancelled)));
    (finished.into_inner(), total.into_inner())
}

/// Batches already running when the token is cancelled finish: at most one a worker.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from).max(rayon::current_num_threads())
}

#[test]
fn a_cancelled_dense_build_starts_no_further_batch() {
    let unit = grid(60, 60, Connectivity::Four); // 3,600 targets: 15 or more batches
    let (finished, total) = cancel_at_first_batch(|p, c| unit.build_with_cancel(p, c));
    assert!(total >= 14, "{total} batches");
    assert!(finished <= workers(), "{finished} of {total} batches ran after the cancel");

    let mut weighted = grid(40, 40, Connectivity::Four);
    weighted.connect_weighted(0, 41, 3);
    let (finished, total) = cancel_at_first_batch(|p, c| weighted.build_with_cancel(p, c));
    assert!(total >= 20, "{total} batches");
    assert!(finished <= workers(), "{finished} of {total} batches ran after the cancel");
}

#[test]
fn a_cancelled_compressed_build_starts_no_further_wave() {
    let unit = grid(120, 120, Connectivity::Eight);
    let (finished, total) = cancel_at_first_batch(|p, c| unit.build_compressed_with_cancel(p, c));
    // The first wave runs whole (up to 8 batches a worker); nothing after it.
    assert!(total >= 40, "{total} batches");
    assert!(finished <= 8 * workers(), "{finished} of {total} batches ran after the cancel");
    assert!(finished < total);
}

#[test]
fn a_token_never_cancelled_builds_the_same_tables() {
    let builder: GraphBuilder = grid(30, 20, Connectivity::Eight);
    let cancel = Cancel::new();
    assert_eq!(builder.build_with_cancel(|_| {}, &cancel).unwrap(), builder.build());
    let compressed = builder.build_compressed_with_cancel(|_| {}, &cancel).unwrap();
    assert_eq!(compressed, builder.build_compressed().unwrap());

    let map = Grid::from_ascii("......\n.####.\n......").unwrap();
    for kind in [TableKind::Dense, TableKind::Compressed] {
        let oracle =
            GridOracle::build_table(&map, signposts::grid::Connectivity::Four, kind, None, |_| {}, &cancel)
                .unwrap();
        assert_eq!(oracle.is_compressed(), kind == TableKind::Compressed);
        assert_eq!(oracle.distance(Cell::new(0, 1), Cell::new(5, 1)), Some(7.0));
    }
    assert!(!cancel.is_cancelled());
}
