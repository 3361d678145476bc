//! Which nodes a level of a chunk's searches can change: a window over the nodes sorted by
//! their least distance from the chunk's targets.
//!
//! Level `L` of the search from target `t` changes the nodes at distance `L` from `t` (in
//! the octile engine, at a cost in `[L, L + 1)`). With `m(v)` the least distance from `v` to
//! any target of the chunk and `D` the largest distance between two of its targets (in one
//! component), such a node has `L - D ≤ m(v) ≤ L + 1`: each level needs only the nodes whose
//! `m` lies in a band of width `D + 2` behind it, a ring about the chunk's ball of targets.
//! Sorted by `m` (the order in which one search from all the targets settles them), those
//! nodes are one contiguous range, and a level dispatches that range alone.
//!
//! The ping-pong buffers stay right: a node changes only at levels `m(v)` to `m(v) + D`, and
//! the window keeps it for the engine's quiet levels after that (1 for unit costs, 2 for
//! octile), so both buffers hold its final state before it leaves, and it holds "not
//! reached" in both before it enters. Nodes no target reaches, and peeled ones, are in no
//! window.
//!
//! Against a sweep of every node at every level, this cuts a chunk's work from
//! `n · levels` invocations to about `n · (D + 4)`: the chunk's targets are a compact ball
//! (the build's column order), so `D` is the ball's diameter, a small fraction of the map's.

use super::engine::DeviceGraph;
use crate::NodeId;

/// Extra bands on each side of a window: the searches' distances are computed in `f64`,
/// whose rounding could put a node whose distance is an integer one band low.
const SLACK: u32 = 1;

/// A chunk's nodes sorted by their least distance from its targets, in bands of 1.
#[derive(Debug, Default)]
pub(crate) struct Window {
    /// Nodes reached from the targets, by band of their least distance.
    pub perm: Vec<u32>,
    /// `perm[starts[b]..starts[b + 1]]` are the nodes of band `b`.
    starts: Vec<u32>,
    /// Bands a level looks behind it: `D` rounded up, the quiet levels and the slack.
    behind: u32,
}

impl Window {
    /// The window of the chunk `targets` of `g`, for an engine whose searches end after
    /// `quiet` levels that reach nothing.
    pub(crate) fn new(g: DeviceGraph<'_>, targets: &[NodeId], quiet: u32) -> Window {
        let n = g.offsets.len() - 1;
        let mut search = Search::new(n);
        // `D`: for each component of the targets, twice the farthest target from one of them.
        let mut spread = 0.0f64;
        let mut covered = vec![false; targets.len()];
        for first in 0..targets.len() {
            if covered[first] {
                continue;
            }
            search.run(g, &targets[first..=first]);
            for (j, &t) in targets.iter().enumerate() {
                let d = search.dist[t as usize];
                if d.is_finite() {
                    covered[j] = true;
                    spread = spread.max(2.0 * d);
                }
            }
        }
        search.run(g, targets);
        let Search { order, starts, .. } = search;
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a distance below n·√2")]
        let behind = spread.ceil() as u32 + quiet + SLACK;
        Window { perm: order, starts, behind }
    }

    /// The last level whose window holds a node: past it no node can change.
    pub(crate) fn last_level(&self) -> u32 {
        self.starts.len() as u32 + self.behind
    }

    /// The range of `perm` that level `level` looks at.
    pub(crate) fn level(&self, level: u32) -> core::ops::Range<u32> {
        let bands = self.starts.len() as u32 - 1;
        let from = level.saturating_sub(self.behind).min(bands);
        let to = (level + 1 + SLACK).min(bands);
        self.starts[from as usize]..self.starts[to as usize]
    }
}

/// A search from many sources over arcs of cost 1 or √2 by buckets of width 1: arcs cost at
/// least 1, so nodes of one bucket cannot improve each other and each bucket is settled in any
/// order (Dial's algorithm).
struct Search {
    dist: Vec<f64>,
    settled: Vec<bool>,
    order: Vec<u32>,
    starts: Vec<u32>,
    buckets: Vec<Vec<u32>>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            dist: vec![f64::INFINITY; n],
            settled: vec![false; n],
            order: Vec::new(),
            starts: Vec::new(),
            buckets: Vec::new(),
        }
    }

    /// Distances from the nearest of `sources`, and the nodes in the order settled.
    fn run(&mut self, g: DeviceGraph<'_>, sources: &[NodeId]) {
        // Every node a run touched was settled: the order lists what to reset.
        for &v in &self.order {
            self.dist[v as usize] = f64::INFINITY;
            self.settled[v as usize] = false;
        }
        self.order.clear();
        self.starts.clear();
        self.buckets.iter_mut().for_each(Vec::clear);
        let settled = &mut self.settled;
        for &s in sources {
            self.dist[s as usize] = 0.0;
        }
        self.buckets.resize_with(self.buckets.len().max(1), Vec::new);
        self.buckets[0].extend_from_slice(sources);
        let mut b = 0;
        while b < self.buckets.len() {
            self.starts.push(self.order.len() as u32);
            let bucket = core::mem::take(&mut self.buckets[b]);
            for &v in &bucket {
                if settled[v as usize] {
                    continue;
                }
                settled[v as usize] = true;
                self.order.push(v);
                let d = self.dist[v as usize];
                for a in g.offsets[v as usize] as usize..g.offsets[v as usize + 1] as usize {
                    let w = g.heads[a] as usize;
                    if crate::build::flagged(g.skip, w) {
                        continue;
                    }
                    let cost = if g.costs.get(a) == Some(&2) { core::f64::consts::SQRT_2 } else { 1.0 };
                    if d + cost < self.dist[w] {
                        self.dist[w] = d + cost;
                        #[expect(
                            clippy::cast_possible_truncation,
                            clippy::cast_sign_loss,
                            reason = "a distance below n·√2"
                        )]
                        let at = (d + cost) as usize;
                        if at >= self.buckets.len() {
                            self.buckets.resize_with(at + 1, Vec::new);
                        }
                        self.buckets[at].push(w as u32);
                    }
                }
            }
            self.buckets[b] = bucket;
            b += 1;
        }
        self.starts.push(self.order.len() as u32);
    }
}
