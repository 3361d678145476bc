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
//!
//! Undirected graphs whose arcs cost from 1 to 2 (octile grids; integer costs 1 and 2) take a
//! leaner search, [`Octile`]: one exact integer key per cost instead of [`Cost`], three
//! buckets, no settled flags, eight arc slots per node tested without a branch (four at a
//! time with AVX2). With AVX2, graphs whose arcs cost 1 or √2 (octile grids) are searched 32
//! targets at a time by [`super::levels`] instead; [`Octile`] then only takes the batches
//! whose costs pass that engine's level limit.

use core::cmp::Reverse;
use core::sync::atomic::{AtomicU64, Ordering};
use std::collections::BinaryHeap;

use super::octile::{Octile, OctileArcs};
use super::spread;
use crate::dense::table::{BLOCK, Layout, NodeRow};
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
    /// Nodes left out of the searches (empty: none): the trees the compressed build peels,
    /// which hold no shortest path between other nodes and get no rows. Their entries stay
    /// empty, and no move toward another node leads into them.
    pub skip: &'a [bool],
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

/// What the searches on one graph share, made once per build (each batch's scratch used to
/// redo it: 8–10% of brc202d's octile build went to finding the largest arc cost and
/// re-deriving the arc slots): the largest arc cost, which sizes the queue, and the
/// [`Octile`] search's arc slots when the graph allows that search.
pub(crate) struct Prepared {
    max_arc: Cost,
    octile: Option<OctileArcs>,
    /// The arcs of the 32-target octile engine, for graphs of unit and √2 arcs that the
    /// [`Octile`] search also takes (it searches the batches the engine cannot).
    levels: Option<super::levels::LevelArcs>,
}

impl Prepared {
    pub(crate) fn new(g: Arcs<'_>, nodes: usize) -> Prepared {
        let octile = Octile::fits(g, nodes).then(|| OctileArcs::new(g, nodes));
        let levels = octile.as_ref().and_then(|_| super::levels::LevelArcs::new(g, nodes));
        Prepared { max_arc: g.cost.iter().copied().max().unwrap_or(Cost::ZERO), octile, levels }
    }
}

/// Per-thread scratch.
pub(crate) struct Scratch<'a> {
    dist: Vec<Cost>,
    settled: Vec<bool>,
    touched: Vec<u32>,
    queue: Queue,
    /// One mask per arc, allocated on first use.
    acc: Vec<u64>,
    /// The search for small counts of unit and √2 steps, when the graph allows it.
    octile: Option<Octile<'a>>,
    /// The 32-target octile engine, when the graph allows it and the processor has AVX2.
    levels: Option<super::levels::Levels<'a>>,
}

impl<'a> Scratch<'a> {
    /// Scratch for searches on the graph `prepared` was made from; with `avx2`, octile
    /// searches test slots with AVX2.
    pub(crate) fn new(prepared: &'a Prepared, nodes: usize, avx2: Option<super::Avx2>) -> Scratch<'a> {
        let octile = prepared.octile.as_ref().map(|arcs| Octile::new(arcs, nodes, avx2));
        let levels = prepared
            .levels
            .as_ref()
            .zip(avx2)
            .map(|(arcs, avx2)| super::levels::Levels::new(arcs, super::levels::Simd::detect(avx2)));
        // The general search's arrays, which the octile search does without.
        let general = if octile.is_some() { 0 } else { nodes };
        Scratch {
            dist: vec![Cost::INFINITE; general],
            settled: vec![false; general],
            touched: Vec::new(),
            queue: Queue::new(prepared.max_arc),
            acc: Vec::new(),
            octile,
            levels,
        }
    }

    /// Searches from each of up to 64 `targets`, adding bit `j` to the mask in `acc` of
    /// every optimal arc toward `targets[j]`.
    fn search_all(&mut self, g: Arcs<'_>, targets: &[NodeId]) {
        if self.acc.len() != g.heads.len() {
            self.acc = vec![0; g.heads.len()];
        }
        if let Some(levels) = &mut self.levels
            && search_levels(levels, g, targets, &mut self.acc)
        {
            return;
        }
        if let Some(octile) = &mut self.octile {
            octile.search_batch(g, targets, &mut self.acc);
            return;
        }
        for (j, &t) in targets.iter().enumerate() {
            search(g, t, 1 << j, self);
        }
    }

    /// Searches from each of up to 64 `targets`, leaving in `out` one mask per arc: bit `j`
    /// set when the arc is an optimal first move toward `targets[j]`.
    pub(crate) fn search_batch(&mut self, g: Arcs<'_>, targets: &[NodeId], out: &mut Vec<u64>) {
        debug_assert!(targets.len() <= BATCH);
        if let Some(levels) = &mut self.levels {
            out.clear();
            out.resize(g.heads.len(), 0);
            if search_levels(levels, g, targets, out) {
                return;
            }
        }
        if let Some(octile) = &mut self.octile {
            // The octile search writes every arc's mask: `out` needs no clearing, nor a copy.
            out.resize(g.heads.len(), 0);
            octile.search_batch(g, targets, out);
            return;
        }
        self.search_all(g, targets);
        out.clear();
        out.extend_from_slice(&self.acc);
        self.acc.fill(0);
    }
}

/// Searches `targets` 32 at a time with the octile engine, setting each one's bit in the masks
/// of its optimal arcs in `acc` (zero on entry). `false` when a search passed the engine's
/// level limit: `acc` is then partly written, and the caller searches the batch again with a
/// search that overwrites every mask.
fn search_levels(
    levels: &mut super::levels::Levels<'_>,
    g: Arcs<'_>,
    targets: &[NodeId],
    acc: &mut [u64],
) -> bool {
    targets.chunks(super::levels::LANES).enumerate().all(|(i, group)| {
        let shift = u32::try_from(i * super::levels::LANES).expect("64 targets a batch");
        levels.search(g, group, shift, acc)
    })
}

/// Fills the table for `targets` (column `c` holds `targets[c]`).
pub(crate) fn fill(
    g: Arcs<'_>,
    rows: &[NodeRow],
    layout: Layout,
    targets: &[NodeId],
    words: &[AtomicU64],
    batch_done: &(dyn Fn() + Sync),
    halt: Option<&core::sync::atomic::AtomicBool>,
) {
    let n = rows.len();
    let total = targets.len().div_ceil(BATCH);
    let run = |s: &mut Scratch, batch: usize| {
        let first_column = batch * BATCH;
        let these = &targets[first_column..targets.len().min(first_column + BATCH)];
        s.search_all(g, these);
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
    let avx2 = super::Avx2::detect();
    let prepared = Prepared::new(g, n);
    let scratch = || Scratch::new(&prepared, n, avx2);
    super::for_each_batch(total, scratch, run, halt);
}

/// One backward Dijkstra search from `target`, setting `bit` on every optimal arc.
fn search(g: Arcs<'_>, target: NodeId, bit: u64, s: &mut Scratch) {
    let Scratch { dist, settled, touched, queue, acc, .. } = s;
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
                if super::flagged(g.skip, wi) {
                    continue;
                }
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
            if settled[ui] || super::flagged(g.skip, ui) {
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
