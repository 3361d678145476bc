//! Build engines: fill a [`Table`](crate::dense::table::Table) from a graph.
//!
//! The engine processes targets in batches of 128 or 256 (see [`bfs`], [`batch_width`]); batches are independent
//! and each writes its own words of the table, so with the `parallel` feature they run on all
//! cores and the table is bit-for-bit the same for any thread count.

pub(crate) mod bfs;
mod cpu;
pub(crate) mod dijkstra;
#[cfg_attr(
    not(target_arch = "x86_64"),
    expect(dead_code, unused_variables, reason = "the level engine runs on x86-64 vector instructions only")
)]
pub(crate) mod levels;
pub(crate) mod octile;
pub(crate) mod order;
pub(crate) mod peel;
pub(crate) mod spread;

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use std::sync::Arc;

use crate::NodeId;
use crate::dense::table::{BLOCK, Layout, NodeRow};

pub(crate) use bfs::Adjacency;
pub(crate) use cpu::{Avx2, Avx512, Bitalg, Bmi2, Vbmi};

/// Stops a build that is under way: [`Cancel::cancel`] from any thread, and the build that was
/// given the token ([`BuildOptions::cancel`](crate::BuildOptions::cancel): every build of the
/// core, and the rooms layer's) starts no further batch of
/// targets and returns [`Error::Cancelled`](crate::Error::Cancelled), its memory freed. Batches
/// already running finish first: a cancel takes effect within one batch's time (a few
/// milliseconds on the maps the crate is measured on).
///
/// Clones share one flag: keep one where the build runs and one to cancel it with (a game
/// leaving a level, a newer edit of the map).
///
/// ```
/// use signposts::{Cancel, Error};
/// let cancel = Cancel::new();
/// cancel.cancel(); // before the build starts: it does no search at all
/// let builder = signposts::generate::grid(50, 50, signposts::generate::Connectivity::Four);
/// assert!(matches!(signposts::BuildOptions::new().cancel(&cancel).build(&builder), Err(Error::Cancelled)));
/// assert!(signposts::BuildOptions::new().cancel(&Cancel::new()).build(&builder).is_ok());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not yet cancelled.
    #[must_use]
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every build holding a clone of this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called on this token or a clone.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag the engines check before each batch.
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// Whether a build given `halt` was cancelled.
pub(crate) fn stopped(halt: Option<&AtomicBool>) -> bool {
    halt.is_some_and(|flag| flag.load(Ordering::Relaxed))
}

/// How far a build has come: `done` of `total` steps are finished. A step is a batch of targets
/// searched, or the filling of peeled trees.
///
/// Passed to the callback of [`BuildOptions::progress`](crate::BuildOptions::progress).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// Batches finished.
    pub done: usize,
    /// Batches in all.
    pub total: usize,
}

impl Progress {
    /// `done` of `total` steps: for builds of crates over the core (the rooms layer) that
    /// report through [`BuildOptions::report`](crate::BuildOptions::report).
    ///
    /// ```
    /// assert_eq!(signposts::Progress::new(3, 4).fraction(), 0.75);
    /// ```
    #[must_use]
    pub const fn new(done: usize, total: usize) -> Progress {
        Progress { done, total }
    }

    /// The finished fraction, from 0.0 to 1.0.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// let last = Mutex::new(0.0);
    /// let builder = signposts::generate::grid(30, 30, signposts::generate::Connectivity::Four);
    /// signposts::BuildOptions::new()
    ///     .progress(|p| {
    ///         let mut last = last.lock().unwrap();
    ///         *last = f64::max(*last, p.fraction());
    ///     })
    ///     .build(&builder)?;
    /// assert_eq!(last.into_inner().unwrap(), 1.0);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    #[expect(clippy::cast_precision_loss, reason = "a ratio for display")]
    pub fn fraction(&self) -> f64 {
        if self.total == 0 { 1.0 } else { self.done as f64 / self.total as f64 }
    }
}

/// Whether node `v` is flagged in `flags`, a per-node list that is empty when no node is (the
/// peeled trees the searches leave out).
#[inline]
pub(crate) fn flagged(flags: &[bool], v: usize) -> bool {
    flags.get(v).is_some_and(|&f| f)
}

/// Targets per batch: `64 · lanes`, where a lane is one `u64` of target bits.
///
/// A batch fills `lanes` of the 4 lanes of one block of the table. Wider batches amortise the
/// per-node work of a level over more targets; narrower ones keep the per-thread scratch
/// (about `2n · 8 · lanes` bytes) and the live band closer to the cache. Measured on 2 cores
/// (with the engine's earlier five lanes per node): 2 lanes build a 100×100 grid about 25%
/// faster than 4, 4 lanes a 320×320 grid about 15% faster than 2; with two lanes per node,
/// 4 lanes build the 320×320 grid in 27 s against 34–35 s (`cargo run --release -p
/// signposts-bench --bin big`, alternating). The compressed build takes 4 lanes with AVX2
/// and 2 without (see `compressed::fill_runs_lanes`).
pub(crate) fn batch_width(nodes: usize) -> usize {
    if nodes <= 1 << 16 { 128 } else { 256 }
}

const _: () = assert!(BLOCK.is_multiple_of(128), "a batch fills part of one block");

/// Fills `words` (zeroed, laid out by `layout`) with the first-move entries toward
/// the `targets` (the first columns, column `c` holding target `targets[c]`), in batches of
/// `batch` ([`batch_width`]) targets.
#[expect(clippy::too_many_arguments, reason = "the pieces of one build, passed once")]
pub(crate) fn fill_unit(
    g: Adjacency<'_>,
    rows: &[NodeRow],
    layout: Layout,
    targets: &[NodeId],
    batch: usize,
    words: &[AtomicU64],
    batch_done: &(dyn Fn() + Sync),
    halt: Option<&AtomicBool>,
) {
    match batch {
        128 => fill_unit_lanes::<2>(g, rows, layout, targets, words, batch_done, halt),
        256 => fill_unit_lanes::<4>(g, rows, layout, targets, words, batch_done, halt),
        other => unreachable!("batch width {other}"),
    }
}

fn fill_unit_lanes<const LANES: usize>(
    g: Adjacency<'_>,
    rows: &[NodeRow],
    layout: Layout,
    targets: &[NodeId],
    words: &[AtomicU64],
    batch_done: &(dyn Fn() + Sync),
    halt: Option<&AtomicBool>,
) {
    const { assert!(BLOCK.is_multiple_of(64 * LANES)) };
    let batch_targets = 64 * LANES;
    let n = g.nodes();
    let total = targets.len().div_ceil(batch_targets);
    let run = |bfs: &mut bfs::BfsBatch<LANES>, batch: usize| {
        let first_column = batch * batch_targets;
        let these = &targets[first_column..targets.len().min(first_column + batch_targets)];
        bfs.run(g, these, |v, lanes| {
            let row = rows[v];
            let bits = row.width_bits();
            let (start, block_lanes) = layout.chunk(row, first_column / BLOCK);
            let first_lane = (first_column % BLOCK) / 64;
            for k in 0..LANES.min(block_lanes - first_lane) {
                // A lane of 64 entries of `bits` bits is `bits` words.
                let lane_start = start + (first_lane + k) * bits as usize;
                spread::transpose_chunk(
                    lanes.len(),
                    |i| lanes[i][k],
                    bits,
                    bits as usize,
                    |j, word| {
                        words[lane_start + j].store(word, Ordering::Relaxed);
                    },
                );
            }
        });
        batch_done();
    };
    for_each_batch(total, || bfs::BfsBatch::new(n), run, halt);
}

/// Runs `run(scratch, batch)` for every batch in `0..total`: on all cores with the `parallel`
/// feature (each worker making its own scratch), in order without it. Once `halt` is set, no
/// further batch starts.
pub(crate) fn for_each_batch<S>(
    total: usize,
    scratch: impl Fn() -> S + Sync + Send,
    run: impl Fn(&mut S, usize) + Sync + Send,
    halt: Option<&AtomicBool>,
) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        (0..total).into_par_iter().for_each_init(scratch, |s, b| {
            if !stopped(halt) {
                run(s, b);
            }
        });
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut s = scratch();
        for b in 0..total {
            if stopped(halt) {
                break;
            }
            run(&mut s, b);
        }
    }
}
