//! Build engines: fill a [`Table`](crate::table::Table) from a graph.
//!
//! The engine processes targets in batches of 64 (see [`bfs`]); batches are independent and each
//! writes a disjoint range of words of every row, so with the `parallel` feature they run on all
//! cores and the table is bit-for-bit the same for any thread count.

pub(crate) mod bfs;
pub(crate) mod order;
pub(crate) mod peel;
pub(crate) mod spread;

use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::NodeId;
use crate::table::{NodeRow, entry_bits, row_words};

pub(crate) use bfs::Adjacency;

/// How far a build has come: `done` of `total` batches of targets are in the table.
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

/// Assigns each node's row its word offset; returns the total word count.
pub(crate) fn assign_rows(rows: &mut [NodeRow]) -> u64 {
    let n = rows.len();
    let mut word = 0u64;
    for row in rows {
        row.word = word;
        word += row_words(n, entry_bits(row.deg));
    }
    word
}

/// Number of table words for a graph whose nodes have the given degrees.
pub(crate) fn table_words(degrees: impl Iterator<Item = u32>, nodes: usize) -> u64 {
    degrees.map(|d| row_words(nodes, entry_bits(d))).sum()
}

/// Lanes of 64 targets per batch: 2 makes a degree-4 node's batch chunk one 64-byte line.
const LANES: usize = 4;

/// Targets per batch.
pub(crate) const BATCH: usize = 64 * LANES;

/// Fills `words` (zeroed, laid out by [`assign_rows`]) with the first-move entries toward
/// the `targets` (the first columns, column `c` holding target `targets[c]`).
pub(crate) fn fill_unit(
    g: Adjacency<'_>,
    rows: &[NodeRow],
    targets: &[NodeId],
    words: &[AtomicU64],
    progress: &(dyn Fn(Progress) + Sync),
) {
    let n = g.nodes();
    let total = targets.len().div_ceil(BATCH);
    let done = AtomicUsize::new(0);
    let run = |bfs: &mut bfs::BfsBatch<LANES>, batch: usize| {
        let batch_targets = &targets[batch * BATCH..targets.len().min(batch * BATCH + BATCH)];
        bfs.run(g, batch_targets, |v, lanes| {
            let row = rows[v];
            let bits = entry_bits(row.deg);
            for k in 0..LANES {
                let first = batch * BATCH + k * 64;
                if first >= n {
                    break;
                }
                #[expect(clippy::cast_possible_truncation, reason = "the table is in memory")]
                let start = row.word as usize + (first / 64) * bits as usize;
                #[expect(clippy::cast_possible_truncation, reason = "at most 64 * bits")]
                let count = row_words((n - first).min(64), bits) as usize;
                spread::transpose_chunk(lanes.len(), |i| lanes[i][k], bits, count, |j, word| {
                    words[start + j].store(word, Ordering::Relaxed);
                });
            }
        });
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress(Progress { done: finished, total });
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
