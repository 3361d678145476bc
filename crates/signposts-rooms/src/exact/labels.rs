//! Hub labels over the visibility graph ([`Tier::Labels`](super::Tier)): for every corner a
//! short list of hubs, each with the length of a shortest path to it and the next corner on
//! that path, such that any two connected corners share a hub on a shortest path between them
//! (a 2-hop cover). Built by pruned landmark labelling (Akiba, Iwata & Yoshida, SIGMOD 2013):
//! one Dijkstra search per corner in order of importance, each stopped wherever the labels
//! so far already give a path as short.
//!
//! Importance is estimated from a few sampled shortest-path trees: a corner many sampled
//! shortest paths pass through (a large subtree) is labelled first, and then prunes most of
//! the later searches.
//!
//! A query folds the goal's side into a per-hub array (the best `d(b, h) + |b t|` and its
//! `b`), then scans the label of each corner the start may see: one pass over `|S| + |T|`
//! labels, no table. A path is unpacked along the next corners toward the meeting hub; the
//! search that put a hub in a corner's label reached the corner from a corner it did not
//! prune, so that corner's label holds the hub too.

use core::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;

use super::table::Graph;
use crate::buf::Buf;
use crate::mesh::NONE;
use signposts::generate::SplitMix64;

/// Sampled shortest-path trees for the importance order.
const SAMPLES: usize = 32;

/// Bytes per label entry: hub `u32`, length `f64`, next corner `u32`.
pub(crate) const ENTRY: u64 = 16;

/// Every corner's label, entries sorted by hub rank.
#[derive(Debug, Clone)]
pub(crate) struct Labels {
    /// The corner of each rank (rank 0 is the most important).
    pub(crate) hub_corner: Buf<u32>,
    /// Corner `a`'s label is `start[a]..start[a + 1]` of the arrays below.
    pub(crate) start: Buf<u32>,
    /// Each entry's hub, as its rank; ascending within a label.
    pub(crate) hubs: Buf<u32>,
    /// The length of a shortest path from the corner to the hub.
    pub(crate) lengths: Buf<f64>,
    /// The corner after this one on that path (the corner itself at the hub).
    pub(crate) next: Buf<u32>,
    /// [`Tier::Labels`](super::Tier) only: `hop[b * n + a]`, the corner after `a` on a shortest
    /// path from `a` to `b`, as the table has it (a path is then a walk along one row).
    pub(crate) hop: Option<Buf<u16>>,
}

impl Labels {
    /// Corner `a`'s entries' range.
    #[inline]
    pub(crate) fn range(&self, a: u32) -> core::ops::Range<usize> {
        self.start[a as usize] as usize..self.start[a as usize + 1] as usize
    }

    /// The length of a shortest path from `a` to `b`: the two labels merged (infinite when
    /// they share no hub, out of reach).
    pub(crate) fn distance(&self, a: u32, b: u32) -> f64 {
        let (ra, rb) = (self.range(a), self.range(b));
        let (ha, hb) = (&self.hubs[ra.clone()], &self.hubs[rb.clone()]);
        let (la, lb) = (&self.lengths[ra], &self.lengths[rb]);
        let (mut i, mut j, mut best) = (0, 0, f64::INFINITY);
        while i < ha.len() && j < hb.len() {
            match ha[i].cmp(&hb[j]) {
                core::cmp::Ordering::Less => i += 1,
                core::cmp::Ordering::Greater => j += 1,
                core::cmp::Ordering::Equal => {
                    best = best.min(la[i] + lb[j]);
                    i += 1;
                    j += 1;
                }
            }
        }
        best
    }

    /// The length from `a` to hub rank `h`, if `a`'s label holds it.
    #[inline]
    pub(crate) fn length_to(&self, a: u32, h: u32) -> Option<f64> {
        let range = self.range(a);
        self.hubs[range.clone()].binary_search(&h).ok().map(|i| self.lengths[range.start + i])
    }

    /// The corner after `a` on its shortest path to hub rank `h` (which `a`'s label holds; in
    /// a damaged file opened without [`Check::Full`](signposts::format::Check::Full) it may not: the hub
    /// itself then, which ends the walk).
    pub(crate) fn next_of(&self, a: u32, h: u32) -> u32 {
        let range = self.range(a);
        match self.hubs[range.clone()].binary_search(&h) {
            Ok(i) => self.next[range.start + i],
            Err(_) => self.hub_corner[h as usize],
        }
    }

    /// The corners of a shortest path from `a` to `b` through hub rank `h` into `out`
    /// (appended, both ends included). Each half takes at most one step per corner (a damaged
    /// file's next corners could go round).
    #[expect(clippy::many_single_char_names, reason = "corners a b, hub h, the walk x, count n")]
    pub(crate) fn route(&self, a: u32, b: u32, h: u32, out: &mut Vec<u32>) {
        let (hub, n) = (self.hub_corner[h as usize], self.hub_corner.len());
        if let Some(hop) = &self.hop {
            let row = &hop[b as usize * n..(b as usize + 1) * n];
            let mut x = a;
            out.push(x);
            for _ in 0..n {
                if x == b {
                    break;
                }
                x = u32::from(row[x as usize]);
                out.push(x);
            }
            return;
        }
        let mut x = a;
        out.push(x);
        for _ in 0..n {
            if x == hub {
                break;
            }
            x = self.next_of(x, h);
            out.push(x);
        }
        // From `b` back to the hub, then turned round.
        let from = out.len();
        let mut x = b;
        for _ in 0..n {
            if x == hub {
                break;
            }
            out.push(x);
            x = self.next_of(x, h);
        }
        out[from..].reverse();
    }

    /// The corner after `a` on a shortest path from `a` to `b` through hub rank `h`.
    #[expect(clippy::many_single_char_names, reason = "corners a b, hub h, the walk x y")]
    pub(crate) fn step(&self, a: u32, b: u32, h: u32) -> u32 {
        let hub = self.hub_corner[h as usize];
        if let Some(hop) = &self.hop {
            return u32::from(hop[b as usize * self.hub_corner.len() + a as usize]);
        }
        if a != hub {
            return self.next_of(a, h);
        }
        let mut x = b;
        for _ in 0..self.hub_corner.len() {
            let y = self.next_of(x, h);
            if y == hub {
                break;
            }
            x = y;
        }
        x
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        (self.hub_corner.len() + self.start.len()) * 4
            + self.hubs.len() * ENTRY as usize
            + self.hop.as_ref().map_or(0, |h| h.len() * 2)
    }
}

/// A query's per-hub array: the best `d(b, h) + |b t|` over the goal's corners `b`, and the
/// hubs written (reset by them).
#[derive(Debug, Clone, Default)]
pub(crate) struct HubFold {
    pub(crate) best: Vec<f64>,
    touched: Vec<u32>,
}

impl HubFold {
    /// Empties the array (sized for `n` hubs).
    pub(crate) fn reset(&mut self, n: usize) {
        if self.best.len() == n {
            for &h in &self.touched {
                self.best[h as usize] = f64::INFINITY;
            }
        } else {
            self.best.clear();
            self.best.resize(n, f64::INFINITY);
        }
        self.touched.clear();
    }

    /// Folds goal corner `b`, at `db` from the goal, into the array: a plain minimum per
    /// entry (which goal corner gave a hub its length is found again only for the answer's).
    #[inline]
    pub(crate) fn fold(&mut self, labels: &Labels, b: u32, db: f64) {
        let range = labels.range(b);
        let hubs = &labels.hubs[range.clone()];
        self.touched.extend_from_slice(hubs);
        for (&h, &d) in hubs.iter().zip(&labels.lengths[range]) {
            let slot = &mut self.best[h as usize];
            *slot = slot.min(d + db);
        }
    }

    /// The shortest `d(a, h) + best[h]` over `a`'s label, and its hub rank (`NONE`: none).
    #[inline]
    pub(crate) fn through(&self, labels: &Labels, a: u32) -> (f64, u32) {
        let range = labels.range(a);
        let mut best = (f64::INFINITY, NONE);
        for (&h, &d) in labels.hubs[range.clone()].iter().zip(&labels.lengths[range]) {
            let total = d + self.best[h as usize];
            if total < best.0 {
                best = (total, h);
            }
        }
        best
    }
}

/// Builds the labels of `graph`'s `n` corners; `None` when they pass `limit` bytes (checked as
/// they grow), or when `cancelled` says so (the caller tells the two apart).
pub(crate) fn build(
    graph: &Graph,
    n: usize,
    limit: u64,
    cancelled: &(dyn Fn() -> bool + Sync),
    report: &dyn Fn(),
) -> Option<Labels> {
    let order = importance_order(graph, n);
    let mut rank = vec![NONE; n];
    for (k, &v) in order.iter().enumerate() {
        rank[v as usize] = k as u32;
    }
    let mut labels: Vec<Vec<(u32, f64, u32)>> = vec![Vec::new(); n];
    let mut entries = 0u64;
    let fixed = (2 * n as u64 + 1) * 4;
    // The hub's own label by rank, for the pruning test.
    let mut own = vec![f64::INFINITY; n];
    let mut dist = vec![f64::INFINITY; n];
    let mut parent = vec![NONE; n];
    let mut reached: Vec<u32> = Vec::new();
    let mut heap = BinaryHeap::<Reverse<(u64, u32)>>::new();
    for (k, &h) in order.iter().enumerate() {
        if cancelled() {
            return None;
        }
        for &(r, d, _) in &labels[h as usize] {
            own[r as usize] = d;
        }
        dist[h as usize] = 0.0;
        parent[h as usize] = h;
        reached.push(h);
        heap.push(Reverse((0f64.to_bits(), h)));
        while let Some(Reverse((key, v))) = heap.pop() {
            let d = f64::from_bits(key);
            if d > dist[v as usize] {
                continue;
            }
            let label = &mut labels[v as usize];
            if label.iter().any(|&(r, l, _)| own[r as usize] + l <= d) {
                continue;
            }
            label.push((k as u32, d, parent[v as usize]));
            entries += 1;
            for &(u, w) in graph.of(v) {
                let nd = d + w;
                if nd < dist[u as usize] {
                    if dist[u as usize] == f64::INFINITY {
                        reached.push(u);
                    }
                    dist[u as usize] = nd;
                    parent[u as usize] = v;
                    heap.push(Reverse((nd.to_bits(), u)));
                }
            }
        }
        for &v in &reached {
            dist[v as usize] = f64::INFINITY;
        }
        reached.clear();
        for &(r, _, _) in &labels[h as usize] {
            own[r as usize] = f64::INFINITY;
        }
        if fixed + entries * ENTRY > limit {
            return None;
        }
        report();
    }
    let mut start = Vec::with_capacity(n + 1);
    start.push(0u32);
    let (mut hubs, mut lengths, mut next) = (Vec::new(), Vec::new(), Vec::new());
    for label in &labels {
        for &(r, d, x) in label {
            hubs.push(r);
            lengths.push(d);
            next.push(x);
        }
        start.push(hubs.len() as u32);
    }
    Some(Labels {
        hub_corner: order.into(),
        start: start.into(),
        hubs: hubs.into(),
        lengths: lengths.into(),
        next: next.into(),
        hop: None,
    })
}

/// The corners by importance, most important first: the sizes of their subtrees in
/// [`SAMPLES`] shortest-path trees from spread-out roots summed, ties broken by degree. The
/// trees are grown on all cores (the sums do not depend on the order they are added in).
fn importance_order(graph: &Graph, n: usize) -> Vec<u32> {
    let mut rng = SplitMix64::new(0x5eed_1abe);
    let roots: Vec<u32> = (0..SAMPLES.min(n)).map(|_| rng.below(n as u64) as u32).collect();
    let score = roots
        .par_iter()
        .map_init(
            || Tree {
                dist: vec![f64::INFINITY; n],
                parent: vec![NONE; n],
                size: vec![0; n],
                ..Tree::default()
            },
            |tree, &root| tree.sizes(graph, root),
        )
        .reduce(
            || vec![0u64; n],
            |mut a, b| {
                if a.len() < b.len() {
                    return b.into_iter().zip(a).map(|(x, y)| x + y).collect();
                }
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by_key(|&v| Reverse((score.get(v as usize).copied().unwrap_or(0), graph.of(v).len())));
    order
}

/// One sampled shortest-path tree's buffers.
#[derive(Default)]
struct Tree {
    dist: Vec<f64>,
    parent: Vec<u32>,
    settled: Vec<u32>,
    size: Vec<u64>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl Tree {
    /// Each corner's subtree size in the shortest-path tree from `root` (0 out of reach).
    fn sizes(&mut self, graph: &Graph, root: u32) -> Vec<u64> {
        self.dist.fill(f64::INFINITY);
        self.settled.clear();
        self.dist[root as usize] = 0.0;
        self.parent[root as usize] = NONE;
        self.heap.push(Reverse((0f64.to_bits(), root)));
        while let Some(Reverse((key, v))) = self.heap.pop() {
            let d = f64::from_bits(key);
            if d > self.dist[v as usize] {
                continue;
            }
            self.settled.push(v);
            for &(u, w) in graph.of(v) {
                let nd = d + w;
                if nd < self.dist[u as usize] {
                    self.dist[u as usize] = nd;
                    self.parent[u as usize] = v;
                    self.heap.push(Reverse((nd.to_bits(), u)));
                }
            }
        }
        // Children are settled after their parents: sizes from the last settled back.
        let mut score = vec![0u64; self.size.len()];
        for &v in &self.settled {
            self.size[v as usize] = 1;
        }
        for &v in self.settled.iter().rev() {
            score[v as usize] = self.size[v as usize];
            let p = self.parent[v as usize];
            if p != NONE {
                self.size[p as usize] += self.size[v as usize];
            }
        }
        score
    }
}
