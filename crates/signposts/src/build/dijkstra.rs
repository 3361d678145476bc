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
//! buckets, no settled flags, eight arc slots per node tested without a branch.

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

/// Per-thread scratch.
pub(crate) struct Scratch {
    dist: Vec<Cost>,
    settled: Vec<bool>,
    touched: Vec<u32>,
    queue: Queue,
    acc: Vec<u64>,
    /// The search for small counts of unit and √2 steps, when the graph allows it.
    octile: Option<Octile>,
}

impl Scratch {
    pub(crate) fn new(g: Arcs<'_>, nodes: usize) -> Scratch {
        Scratch {
            dist: vec![Cost::INFINITE; nodes],
            settled: vec![false; nodes],
            touched: Vec::new(),
            queue: Queue::new(g.cost.iter().copied().max().unwrap_or(Cost::ZERO)),
            acc: vec![0; g.heads.len()],
            octile: Octile::new(g, nodes),
        }
    }

    /// Searches from each of up to 64 `targets`, adding bit `j` to the mask in `acc` of
    /// every optimal arc toward `targets[j]`.
    fn search_all(&mut self, g: Arcs<'_>, targets: &[NodeId]) {
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
        self.search_all(g, targets);
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
    let scratch = || Scratch::new(g, n);
    super::for_each_batch(total, scratch, run);
}

/// Counts of unit and √2 steps of at most this many per path: the [`Octile`] search's keys
/// then order them exactly.
const OCTILE_COUNTS: u64 = 1 << 20;

/// Fixed-point bits of an [`Octile`] key.
const KEY_SHIFT: u32 = 42;

/// `√2 · 2^42`, rounded to the nearest integer.
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "below 2^43")]
const SQRT_2_KEY: u64 = (core::f64::consts::SQRT_2 * (1u64 << KEY_SHIFT) as f64 + 0.5) as u64;

/// The key of a path cost `a + b·√2`: `a · 2^42 + b · round(√2 · 2^42)`, an integer.
///
/// Keys of costs whose counts are below 2^20 add exactly (an arc's key plus a path's key is
/// the longer path's key) and order exactly as the costs: a key is off the cost's exact
/// multiple of 2^42 by at most `b / 2 < 2^19`, two keys together by less than 2^20, and two
/// different costs differ by more than `1 / (2^20 · (1 + √2))` (`|p + q√2| = |p² − 2q²| /
/// |p − q√2|`, a non-zero integer over less than `2^20 (1 + √2)`), which is more than
/// `1.7 · 10^6` at this scale. They are also below 2^64 (`2^20 · (1 + √2) < 2^22`), and
/// `key >> 42` is `⌊a + b√2⌋`: the key's error is below `2^-23` at the scale of the cost, and
/// such a cost is never within `1 / (3 · 2^20)` of an integer unless `b = 0`, when the key is
/// exact.
#[inline]
fn key(cost: Cost) -> u64 {
    (cost.straight << KEY_SHIFT) + cost.diagonal * SQRT_2_KEY
}

/// The key of a node no path has reached yet.
const UNREACHED: u64 = u64::MAX;

/// The search for undirected graphs whose arcs cost between 1 and 2 and whose paths count
/// fewer than 2^20 unit and √2 steps (octile grids under a million cells; costs 1 and 2).
/// Against the general search:
///
/// - A node's cost is one integer [`key`], added and compared exactly.
/// - The queue is three buckets of width 1: arcs cost 1 to 2, so a bucket only feeds the next
///   two, and every node of a bucket is final when its bucket is reached (see [`Queue`]). A
///   node whose cost fell into an earlier bucket after it was queued is skipped when its old
///   entry comes up; one queued twice in the same bucket is settled twice, the second time
///   changing nothing. No settled flags, no separate distance array.
/// - A node's optimal moves are the arcs toward a neighbour whose cost plus the arc's equals
///   its own, tested when it is settled, as in [`search`] (an unsettled neighbour's tentative
///   cost is never that low). They are kept as one byte per node and target, in a row per
///   target; the batch's rows become one mask per arc by 64 × 64 bit transposes.
///
/// Measured (`OCTILE=1 cargo run --release -p signposts --example profile_compressed -- MAP`,
/// alternating binaries, 2 cores): lak303d (14,784 cells) 9.8–10.3 s with counts packed in a
/// `u64` beside a float value, a byte of moves per node and target turned into masks a bit at
/// a time, and a head and a cost per arc; 4.5–5.3 s with keys, transposes and packed slots;
/// brc202d (43,151 cells) 152–164 s → 39–50 s.
///
/// A node's slots are prefetched when it is queued, one or two buckets before it is settled:
/// past a few tens of thousands of cells they do not stay in the level-2 cache, and the load
/// of the settled node's slots took a third of the samples (maze512-4-0). Searches alone,
/// one thread, 384 targets: AR0602SR 57 → 38 ns per node, maze512-4-0 80 → 52–57 ns
/// (alternating); whole builds: brc202d 50 → 41 s, lak303d (whose slots fit that cache)
/// 5.0 → 4.6 s.
///
/// Tried and dropped:
///
/// - pushing every neighbour without a branch (each entry written, the bucket's length
///   advanced by the comparison): 6.5–7.5 s on lak303d against 4.7–5.2 s; the stores make
///   each settle wait on the previous one's;
/// - prefetching the next queued node's slots and key (one settle ahead, too late): no
///   faster; also prefetching, at queue time, the key of the cell beyond the queued one:
///   no faster than the slots alone;
/// - the buckets as bitmaps over node ids (each settled in id order, a node queued twice in
///   a bucket settled once): 10–20% slower (AR0602SR 47 → 54 ns per node, maze512-4-0 66 →
///   79) — the stacks settle first what was queued last, whose lines are still in cache;
/// - indexing the search by the cells of the padded grid (neighbours at fixed offsets, no
///   arcs read, the grid's layout handed down from the grid layer): lak303d 9% faster,
///   brc202d (43,151 open cells of 254,930) 3% slower in one run each: its rows grow sixfold;
/// - one mask per arc written when a node settles, instead of a move byte per node: 28% of
///   the samples on that store, the masks (64 bytes a node) not staying in cache.
pub(crate) struct Octile {
    /// Each node's arcs.
    arcs: OctileArcs,
    /// Per node: the key of the best path found.
    key: Vec<u64>,
    buckets: [Vec<u32>; 3],
    /// Per target of the batch, then per node: the slots of the optimal moves.
    moves: Vec<u8>,
}

/// Per node, its arcs in slot order as the head shifted left by 2, or'ed with the cost's index
/// in `keys`; slots past the node's degree hold the node itself at cost 1, which is never
/// optimal and never improves it, so a settled node's eight slots are tested without a branch.
///
/// Heads are stored as their offset from the node in 14 bits when every arc allows it (grid
/// maps up to 8,000 cells wide): 16 bytes a node instead of 32, which the search streams for
/// every node it settles (brc202d's octile build 49–54 s → 42–46 s, alternating).
enum OctileArcs {
    Near(Vec<[u16; 8]>),
    Far(Vec<[u32; 8]>),
}

/// The keys of the (at most three) arc costs from 1 to 2: 1, 2 and √2, by their index in an
/// [`OctileArcs`] slot.
const ARC_KEYS: [u64; 4] = [1 << KEY_SHIFT, 2 << KEY_SHIFT, SQRT_2_KEY, 0];

/// A stored arc slot of [`OctileArcs`].
trait Slot: Copy {
    /// The head of the arc in this slot of node `v`, and the arc's key.
    fn arc(self, v: usize) -> (usize, u64);
}

impl Slot for u16 {
    #[inline]
    fn arc(self, v: usize) -> (usize, u64) {
        (v.wrapping_add_signed((self.cast_signed() >> 2) as isize), ARC_KEYS[(self & 3) as usize])
    }
}

impl Slot for u32 {
    #[inline]
    fn arc(self, _: usize) -> (usize, u64) {
        ((self >> 2) as usize, ARC_KEYS[(self & 3) as usize])
    }
}

impl OctileArcs {
    fn new(g: Arcs<'_>, nodes: usize) -> OctileArcs {
        let class = |a: usize| {
            let k = key(g.cost[a]);
            ARC_KEYS.iter().position(|&c| c == k).expect("a cost from 1 to 2") as u32
        };
        let slots = |v: usize| g.offsets[v] as usize..g.offsets[v + 1] as usize;
        // A slot toward a skipped node is left as padding: never optimal, never relaxed.
        let skipped = |a: usize| super::flagged(g.skip, g.heads[a] as usize);
        // The head's offset from the node, when it fits in 14 bits.
        let near = |v: usize, a: usize| {
            let offset = i64::from(g.heads[a]) - i64::try_from(v).ok()?;
            (-(1 << 13)..1 << 13).contains(&offset).then(|| i16::try_from(offset).ok()).flatten()
        };
        if (0..nodes).all(|v| slots(v).all(|a| near(v, a).is_some())) {
            OctileArcs::Near(
                (0..nodes)
                    .map(|v| {
                        let mut slot_arcs = [0u16; 8];
                        for (slot, a) in slots(v).enumerate().filter(|&(_, a)| !skipped(a)) {
                            let offset = near(v, a).expect("checked above");
                            slot_arcs[slot] = (offset << 2).cast_unsigned() | class(a) as u16;
                        }
                        slot_arcs
                    })
                    .collect(),
            )
        } else {
            OctileArcs::Far(
                (0..nodes)
                    .map(|v| {
                        let mut far = [(v as u32) << 2; 8];
                        for (slot, a) in slots(v).enumerate().filter(|&(_, a)| !skipped(a)) {
                            far[slot] = g.heads[a] << 2 | class(a);
                        }
                        far
                    })
                    .collect(),
            )
        }
    }
}

impl Octile {
    /// The search's scratch, or `None` when `g` does not meet its conditions.
    fn new(g: Arcs<'_>, nodes: usize) -> Option<Octile> {
        let largest = g.cost.iter().map(|c| c.straight.max(c.diagonal)).max().unwrap_or(0);
        let fits = (nodes as u64).saturating_mul(largest.max(1)) < OCTILE_COUNTS;
        let steps = g.cost.iter().all(|c| (1.0..=2.0).contains(&c.value()));
        let slots = (0..nodes).all(|v| g.offsets[v + 1] - g.offsets[v] <= 8);
        if !g.symmetric || !fits || !steps || !slots {
            return None;
        }
        Some(Octile {
            arcs: OctileArcs::new(g, nodes),
            key: vec![UNREACHED; nodes],
            buckets: [Vec::new(), Vec::new(), Vec::new()],
            moves: vec![0; nodes * BATCH],
        })
    }

    /// Searches from each of the `targets`, then sets bit `j` in the mask in `acc` of every
    /// optimal arc toward `targets[j]` (`acc` holds zeros).
    ///
    /// Each search writes its nodes' move bytes into a row of its own (`n` bytes, where its
    /// writes stay in cache); blocks of 8 nodes × 64 targets are then turned into masks by
    /// one 64 × 64 bit transpose.
    fn search_batch(&mut self, g: Arcs<'_>, targets: &[NodeId], acc: &mut [u64]) {
        let n = self.key.len();
        for (j, &t) in targets.iter().enumerate() {
            let Octile { arcs, key, buckets, moves } = self;
            let moves = &mut moves[j * n..(j + 1) * n];
            match arcs {
                OctileArcs::Near(near) => octile_search(near, t, key, buckets, moves),
                OctileArcs::Far(far) => octile_search(far, t, key, buckets, moves),
            }
        }
        for first in (0..n).step_by(8) {
            let nodes = (n - first).min(8);
            let mut block = [0u64; 64];
            for (j, word) in block.iter_mut().enumerate().take(targets.len()) {
                let mut bytes = [0u8; 8];
                bytes[..nodes].copy_from_slice(&self.moves[j * n + first..j * n + first + nodes]);
                *word = u64::from_le_bytes(bytes);
            }
            transpose64(&mut block);
            for (k, slots) in block.chunks_exact(8).take(nodes).enumerate() {
                let v = first + k;
                let arcs = &mut acc[g.offsets[v] as usize..g.offsets[v + 1] as usize];
                arcs.copy_from_slice(&slots[..arcs.len()]);
            }
        }
    }
}

/// One [`Octile`] search from `target`, leaving each node's optimal moves toward it in `moves`.
fn octile_search<S: Slot>(
    arcs: &[[S; 8]],
    target: NodeId,
    key: &mut [u64],
    buckets: &mut [Vec<u32>; 3],
    moves: &mut [u8],
) {
    moves.fill(0);
    key.fill(UNREACHED);
    key[target as usize] = 0;
    buckets[0].push(target);
    let mut pending = 1usize;
    let mut bucket = 0usize;
    while pending > 0 {
        while let Some(v) = buckets[bucket % 3].pop() {
            pending -= 1;
            let vi = v as usize;
            let own = key[vi];
            if (own >> KEY_SHIFT) as usize != bucket {
                continue; // its cost fell into an earlier bucket, where it was settled
            }
            let slots = &arcs[vi];
            let (mut optimal, mut improved) = (0u8, 0u8);
            for (slot, &a) in slots.iter().enumerate() {
                let (w, arc) = a.arc(vi);
                let kw = key[w];
                optimal |= u8::from(kw.wrapping_add(arc) == own && kw != UNREACHED) << slot;
                improved |= u8::from(own + arc < kw) << slot;
            }
            moves[vi] = optimal;
            while improved != 0 {
                let (w, arc) = slots[improved.trailing_zeros() as usize].arc(vi);
                improved &= improved - 1;
                let nk = own + arc;
                key[w] = nk;
                // Settled one or two buckets from now: its slots will be in cache by then.
                crate::prefetch::prefetch(&arcs[w]);
                buckets[(nk >> KEY_SHIFT) as usize % 3].push(w as u32);
                pending += 1;
            }
        }
        bucket += 1;
    }
}

/// Transposes a 64 × 64 bit matrix in place: bit `c` of `rows[r]` becomes bit `r` of
/// `rows[c]` (blocks of 32, 16, …, 1 swapped across the diagonal).
fn transpose64(rows: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask = 0x0000_0000_FFFF_FFFF_u64;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            let t = (rows[k] >> width ^ rows[k + width]) & mask;
            rows[k] ^= t << width;
            rows[k + width] ^= t;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
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

#[cfg(test)]
mod tests {
    use super::transpose64;

    #[test]
    fn transpose64_moves_every_bit_across_the_diagonal() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let rows: [u64; 64] = core::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        });
        let mut got = rows;
        transpose64(&mut got);
        for (r, row) in rows.iter().enumerate() {
            for (c, column) in got.iter().enumerate() {
                assert_eq!(column >> r & 1, row >> c & 1, "row {r} column {c}");
            }
        }
    }
}
