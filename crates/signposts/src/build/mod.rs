//! Build engines: fill a [`Table`](crate::table::Table) from a graph.
//!
//! The engine processes targets in batches of 64 (see [`bfs`]); batches are independent and each
//! writes a disjoint range of words of every row, so with the `parallel` feature they run on all
//! cores and the table is bit-for-bit the same for any thread count.

pub(crate) mod bfs;
pub(crate) mod order;
pub(crate) mod peel;
pub(crate) mod spread;

use core::sync::atomic::{AtomicU64, Ordering};

use crate::NodeId;
use crate::table::{BLOCK, Layout, NodeRow, entry_bits};

pub(crate) use bfs::Adjacency;

/// How far a build has come: `done` of `total` steps are finished. A step is a batch of 256
/// targets searched, or the filling of peeled trees.
///
/// Passed to the callback of [`GraphBuilder::build_with_progress`](crate::GraphBuilder::build_with_progress).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// Batches finished.
    pub done: usize,
    /// Batches in all.
    pub total: usize,
}

impl Progress {
    /// The finished fraction, from 0.0 to 1.0.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// let last = Mutex::new(0.0);
    /// let builder = signposts::generate::grid(30, 30, signposts::generate::Connectivity::Four);
    /// builder.build_with_progress(|p| {
    ///     let mut last = last.lock().unwrap();
    ///     *last = f64::max(*last, p.fraction());
    /// })?;
    /// assert_eq!(last.into_inner().unwrap(), 1.0);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    #[expect(clippy::cast_precision_loss, reason = "a ratio for display")]
    pub fn fraction(&self) -> f64 {
        if self.total == 0 { 1.0 } else { self.done as f64 / self.total as f64 }
    }
}

/// Lanes of 64 targets per batch: one batch fills one block of the table.
const LANES: usize = BLOCK / 64;

/// Targets per batch.
pub(crate) const BATCH: usize = BLOCK;

/// Batches [`fill_unit`] runs for `targets` targets.
pub(crate) fn batches(targets: usize) -> usize {
    targets.div_ceil(BATCH)
}

/// Fills `words` (zeroed, laid out by `layout`) with the first-move entries toward
/// the `targets` (the first columns, column `c` holding target `targets[c]`).
pub(crate) fn fill_unit(
    g: Adjacency<'_>,
    rows: &[NodeRow],
    layout: Layout,
    targets: &[NodeId],
    words: &[AtomicU64],
    batch_done: &(dyn Fn() + Sync),
) {
    let n = g.nodes();
    let total = targets.len().div_ceil(BATCH);
    let run = |bfs: &mut bfs::BfsBatch<LANES>, batch: usize| {
        let batch_targets = &targets[batch * BATCH..targets.len().min(batch * BATCH + BATCH)];
        bfs.run(g, batch_targets, |v, lanes| {
            let row = rows[v];
            let bits = entry_bits(row.deg);
            let (start, block_lanes) = layout.chunk(row, batch);
            for k in 0..block_lanes {
                // A lane of 64 entries of `bits` bits is `bits` words.
                let lane_start = start + k * bits as usize;
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
    let arcs = g.heads.len();
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        (0..total).into_par_iter().for_each_init(|| bfs::BfsBatch::new(n, arcs), |bfs, b| run(bfs, b));
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut bfs = bfs::BfsBatch::new(n, arcs);
        for b in 0..total {
            run(&mut bfs, b);
        }
    }
}
