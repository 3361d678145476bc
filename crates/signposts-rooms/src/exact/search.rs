//! The graph tier's query: A* over the visibility graph from the corners the start sees to
//! the corners the goal sees, with the straight-line distance to the goal as its (consistent)
//! heuristic.

use core::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::Point;

use super::table::Graph;

/// Per-query buffers of the search, reset in O(1) by a stamp.
#[derive(Debug, Clone, Default)]
pub(crate) struct Astar {
    g: Vec<f64>,
    parent: Vec<u32>,
    /// `goal[c]`: the straight-line length from corner `c` to the goal, when it sees it.
    goal: Vec<f64>,
    stamp: Vec<u32>,
    goal_stamp: Vec<u32>,
    now: u32,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

/// No parent: a corner the start sees.
const ROOT: u32 = u32::MAX;

impl Astar {
    fn reset(&mut self, n: usize) {
        if self.g.len() != n || self.now == u32::MAX {
            *self = Astar {
                g: vec![0.0; n],
                parent: vec![ROOT; n],
                goal: vec![0.0; n],
                stamp: vec![0; n],
                goal_stamp: vec![0; n],
                now: 0,
                heap: BinaryHeap::new(),
            };
        }
        self.now += 1;
        self.heap.clear();
    }

    /// The shortest `|s a| + d(a, b) + |b t|` over the given ends: `(length, last corner)`.
    /// `corner(c)` is corner `c`'s point.
    pub(crate) fn run(
        &mut self,
        graph: &Graph,
        n: usize,
        from: &[(u32, f64)],
        to: &[(u32, f64)],
        goal: Point,
        corner: impl Fn(u32) -> Point,
    ) -> Option<(f64, u32)> {
        self.reset(n);
        for &(b, d) in to {
            let b = b as usize;
            if self.goal_stamp[b] != self.now || d < self.goal[b] {
                self.goal_stamp[b] = self.now;
                self.goal[b] = d;
            }
        }
        for &(a, d) in from {
            let i = a as usize;
            if self.stamp[i] != self.now || d < self.g[i] {
                self.stamp[i] = self.now;
                self.g[i] = d;
                self.parent[i] = ROOT;
                self.heap.push(Reverse(((d + corner(a).distance(goal)).to_bits(), a)));
            }
        }
        let mut best: Option<(f64, u32)> = None;
        while let Some(Reverse((key, u))) = self.heap.pop() {
            let f = f64::from_bits(key);
            if best.is_some_and(|(b, _)| f >= b) {
                break;
            }
            let ui = u as usize;
            let g = self.g[ui];
            if f > g + corner(u).distance(goal) {
                continue; // stale
            }
            if self.goal_stamp[ui] == self.now {
                let total = g + self.goal[ui];
                if best.is_none_or(|(b, _)| total < b) {
                    best = Some((total, u));
                }
            }
            for &(v, w) in graph.of(u) {
                let vi = v as usize;
                let ng = g + w;
                if self.stamp[vi] != self.now || ng < self.g[vi] {
                    self.stamp[vi] = self.now;
                    self.g[vi] = ng;
                    self.parent[vi] = u;
                    self.heap.push(Reverse(((ng + corner(v).distance(goal)).to_bits(), v)));
                }
            }
        }
        best
    }

    /// The corners from the start's corner to `last`, after a [`Astar::run`] that found it,
    /// appended to `out` first to last.
    pub(crate) fn route(&self, last: u32, out: &mut Vec<u32>) {
        let from = out.len();
        let mut at = last;
        loop {
            out.push(at);
            let p = self.parent[at as usize];
            if p == ROOT {
                break;
            }
            at = p;
        }
        out[from..].reverse();
    }
}
