//! The weighted engine: one Dijkstra search per target, for integer costs, octile grids and
//! one-way arcs.
//!
//! Each search runs backwards from its target `t` over in-arcs, so `dist[v] = d(v, t)` along
//! arc directions. When a node `v` is settled at distance `d`, each of its out-arcs `v → w` of
//! cost `c` is an optimal first move toward `t` exactly when `dist[w] + c = d`: an optimal `w`
//! is closer to `t`, so it was settled before `v` and `dist[w]` is final; any other `w` has a
//! tentative distance of at least `d(w, t) > d − c`. Costs are compared exactly ([`Cost`]).
//!
//! A batch runs 64 targets one after the other, accumulating one bit per target in a word per
//! arc, then writes one lane of 64 columns of the table; batches run in parallel.

use core::cmp::Reverse;
use core::sync::atomic::{AtomicU64, Ordering};
use std::collections::BinaryHeap;

use super::spread;
use crate::table::{BLOCK, Layout, NodeRow};
use crate::{Cost, NodeId};

/// Read-only arcs for the engine.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Arcs<'a> {
    /// Out-arcs of `v`: indices `offsets[v]..offsets[v + 1]`, in table slot order.
    pub offsets: &'a [u32],
    /// Head of each arc.
    pub heads: &'a [NodeId],
    /// Exact cost of each arc.
    pub cost: &'a [Cost],
    /// In-arcs of `v`: `incoming[in_offsets[v]..in_offsets[v + 1]]` are arc indices.
    pub in_offsets: &'a [u32],
    /// Arc indices grouped by head.
    pub incoming: &'a [u32],
    /// Tail of each arc.
    pub tails: &'a [NodeId],
    /// Whether every cost is an integer (no diagonal steps): queue keys are then exact.
    pub integer: bool,
    /// Whether every arc has a reverse arc of the same cost (an undirected graph): then one
    /// pass over a node's arcs both checks and relaxes.
    pub symmetric: bool,
}

/// Targets per batch: one lane.
pub(crate) const BATCH: usize = 64;

/// The priority queue of a search.
///
/// Arcs cost at least 1, so a node can only improve another whose cost is at least 1 larger.
/// Any order that settles every node of cost below `k` before the nodes of cost `k` or more
/// is therefore exact. Dial's buckets of width 1 (`⌊cost⌋`) give that order in O(1) per
/// operation when the largest arc cost is small; a binary heap on [`Cost::queue_key`]
/// otherwise. `⌊a + b√2⌋` is computed in floating point: `a + b√2` is never within
/// `1 / (3 · max(a, b))` of an integer unless `b = 0` (then it is exact), far more than the
/// rounding error for any path on a graph in memory.
pub(crate) enum Queue {
    Buckets { ring: Vec<Vec<u32>>, current: u64, len: usize },
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
}

/// `⌊cost⌋` (see [`Queue`] for why floating point is exact here).
#[expect(
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    reason = "costs are non-negative and finite"
)]
fn floor(cost: Cost) -> u64 {
    cost.value().floor() as u64
}

/// Largest `⌊arc cost⌋` for which buckets are used.
const MAX_BUCKET_COST: u64 = 1 << 12;

impl Queue {
    pub(crate) fn new(max_arc: Cost) -> Queue {
        let span = floor(max_arc);
        if span <= MAX_BUCKET_COST {
            Queue::Buckets { ring: vec![Vec::new(); span as usize + 2], current: 0, len: 0 }
        } else {
            Queue::Heap(BinaryHeap::new())
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, cost: Cost, node: u32, integer: bool) {
        match self {
            Queue::Buckets { ring, len, .. } => {
                let bucket = if integer { cost.straight } else { floor(cost) };
                let slots = ring.len() as u64;
                ring[(bucket % slots) as usize].push(node);
                *len += 1;
            }
            Queue::Heap(heap) => heap.push(Reverse((cost.queue_key(integer), node))),
        }
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        match self {
            Queue::Buckets { ring, current, len } => {
                if *len == 0 {
                    *current = 0;
                    return None;
                }
                let slots = ring.len() as u64;
                loop {
                    if let Some(node) = ring[(*current % slots) as usize].pop() {
                        *len -= 1;
                        return Some(node);
                    }
                    *current += 1;
                }
            }
            Queue::Heap(heap) => heap.pop().map(|Reverse((_, node))| node),
        }
    }
}

/// Per-thread scratch.
pub(crate) struct Scratch {
    dist: Vec<Cost>,
    settled: Vec<bool>,
    touched: Vec<u32>,
    queue: Queue,
    acc: Vec<u64>,
}

impl Scratch {
    pub(crate) fn new(g: Arcs<'_>, nodes: usize) -> Scratch {
        Scratch {
            dist: vec![Cost::INFINITE; nodes],
            settled: vec![false; nodes],
            touched: Vec::new(),
            queue: Queue::new(g.cost.iter().copied().max().unwrap_or(Cost::ZERO)),
            acc: vec![0; g.heads.len()],
        }
    }

    /// Searches from each of up to 64 `targets`, leaving in `out` one mask per arc: bit `j`
    /// set when the arc is an optimal first move toward `targets[j]`.
    pub(crate) fn search_batch(&mut self, g: Arcs<'_>, targets: &[NodeId], out: &mut Vec<u64>) {
        debug_assert!(targets.len() <= BATCH);
        for (j, &t) in targets.iter().enumerate() {
            search(g, t, 1 << j, self);
        }
        out.clear();
        out.extend_from_slice(&self.acc);
        self.acc.fill(0);
    }
}

/// Fills the table for `targets` (column `c` holds `targets[c]`).
pub(crate) fn fill(
    g: Arcs<'_>,
    rows: &[NodeRow],
    layout: Layout,
    targets: &[NodeId],
    words: &[AtomicU64],
    batch_done: &(dyn Fn() + Sync),
) {
    let n = rows.len();
    let total = targets.len().div_ceil(BATCH);
    let run = |s: &mut Scratch, batch: usize| {
        let first_column = batch * BATCH;
        let these = &targets[first_column..targets.len().min(first_column + BATCH)];
        for (j, &t) in these.iter().enumerate() {
            search(g, t, 1 << j, s);
        }
        let block = first_column / BLOCK;
        let lane = (first_column % BLOCK) / 64;
        for (v, &row) in rows.iter().enumerate() {
            let arcs = g.offsets[v] as usize..g.offsets[v + 1] as usize;
            if arcs.is_empty() {
                continue;
            }
            let bits = row.width_bits();
            let (start, _) = layout.chunk(row, block);
            let lane_start = start + lane * bits as usize;
            let masks = &s.acc[arcs];
            spread::transpose_chunk(
                masks.len(),
                |i| masks[i],
                bits,
                bits as usize,
                |k, word| {
                    words[lane_start + k].store(word, Ordering::Relaxed);
                },
            );
        }
        s.acc.fill(0);
        batch_done();
    };
    let scratch = || Scratch::new(g, n);
    super::for_each_batch(total, scratch, run);
}

/// One backward Dijkstra search from `target`, setting `bit` on every optimal arc.
fn search(g: Arcs<'_>, target: NodeId, bit: u64, s: &mut Scratch) {
    let Scratch { dist, settled, touched, queue, acc } = s;
    dist[target as usize] = Cost::ZERO;
    touched.push(target);
    queue.push(Cost::ZERO, target, g.integer);
    // See `Queue`: every node is settled at its exact cost.
    while let Some(v) = queue.pop() {
        let vi = v as usize;
        if settled[vi] {
            continue;
        }
        settled[vi] = true;
        let d = dist[vi];
        let out = g.offsets[vi] as usize..g.offsets[vi + 1] as usize;
        for ((&w, &c), acc) in g.heads[out.clone()].iter().zip(&g.cost[out.clone()]).zip(&mut acc[out]) {
            let wi = w as usize;
            if settled[wi] {
                if dist[wi] + c == d {
                    *acc |= bit;
                }
            } else if g.symmetric {
                // The arc w → v has the same cost: relax it here.
                let nd = d + c;
                if nd < dist[wi] {
                    if dist[wi] == Cost::INFINITE {
                        touched.push(w);
                    }
                    dist[wi] = nd;
                    queue.push(nd, w, g.integer);
                }
            }
        }
        if g.symmetric {
            continue;
        }
        for &a in &g.incoming[g.in_offsets[vi] as usize..g.in_offsets[vi + 1] as usize] {
            let u = g.tails[a as usize];
            let ui = u as usize;
            if settled[ui] {
                continue;
            }
            let nd = d + g.cost[a as usize];
            if nd < dist[ui] {
                if dist[ui] == Cost::INFINITE {
                    touched.push(u);
                }
                dist[ui] = nd;
                queue.push(nd, u, g.integer);
            }
        }
    }
    for &v in touched.iter() {
        dist[v as usize] = Cost::INFINITE;
        settled[v as usize] = false;
    }
    touched.clear();
}
