//! Exact costs from one node over the graph: the searches before an edit (from the ends of
//! inserted arcs) and after it (from the targets the local repair leaves).

use crate::build::dijkstra::Queue;
use crate::builder::CostModel;
use crate::{Cost, Graph, NodeId};

/// Costs from (or to) one node, as a search found them: 32-bit on unit costs.
#[derive(Debug, Clone)]
pub(super) enum Distances {
    Unit(Vec<u32>),
    Costs(Vec<Cost>),
}

impl Distances {
    /// The cost of node `x` (`Cost::INFINITE` when unreachable).
    #[inline]
    pub(super) fn get(&self, x: usize) -> Cost {
        match self {
            Distances::Unit(d) if d[x] == u32::MAX => Cost::INFINITE,
            Distances::Unit(d) => Cost::integer(u64::from(d[x])),
            Distances::Costs(c) => c[x],
        }
    }
}

/// In-arcs: offsets per head, arc indices, and each arc's tail; built on first use.
pub(super) type Incoming = std::cell::OnceCell<(Vec<u32>, Vec<u32>, Vec<NodeId>)>;

impl Graph {
    /// In-arcs: offsets per head, arc indices, and each arc's tail.
    pub(super) fn incoming(&self) -> (Vec<u32>, Vec<u32>, Vec<NodeId>) {
        let n = self.nodes_len();
        let m = self.table.neighbors.len();
        let mut offsets = vec![0u32; n + 1];
        for &h in &self.table.neighbors {
            offsets[h as usize + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut fill = offsets.clone();
        let mut arcs = vec![0u32; m];
        let mut tails = vec![0; m];
        for u in 0..n {
            for a in self.table.rows[u].slots() {
                let h = self.table.neighbors[a] as usize;
                arcs[fill[h] as usize] = a as u32;
                fill[h] += 1;
                tails[a] = u as NodeId;
            }
        }
        (offsets, arcs, tails)
    }

    /// Exact costs from `start` along arcs (`backward`: to `start`, against arcs).
    pub(super) fn search(&self, start: usize, backward: bool, incoming: &Incoming) -> Distances {
        // Against the arcs of an undirected graph is along them.
        let backward = backward && self.directed;
        let n = self.nodes_len();
        if self.costs.is_empty() && !self.directed {
            // Unit costs both ways: a plain breadth-first search on 32-bit distances.
            let mut dist = vec![u32::MAX; n];
            let mut queue: Vec<NodeId> = Vec::with_capacity(n);
            dist[start] = 0;
            queue.push(start as NodeId);
            let mut head = 0;
            while let Some(&x) = queue.get(head) {
                head += 1;
                let next = dist[x as usize] + 1;
                for &y in self.table.neighbors(x as usize) {
                    if dist[y as usize] == u32::MAX {
                        dist[y as usize] = next;
                        queue.push(y);
                    }
                }
            }
            return Distances::Unit(dist);
        }
        let integer = self.model == CostModel::Integer;
        // The largest arc from the stored costs, without comparing costs (which on octile
        // ones costs more than the search's start): on integer costs the largest stored one,
        // on octile ones a diagonal if there is one.
        let stored = || (0..self.table.neighbors.len()).map(|a| self.arc_cost(a));
        let max_arc = match self.model {
            CostModel::Integer => stored().max().map_or(Cost::ZERO, |c| self.model.cost(c)),
            CostModel::Octile if stored().any(|c| c == 2) => self.model.cost(2),
            CostModel::Octile => self.model.cost(1),
        };
        let mut queue = Queue::new(max_arc);
        let mut dist = vec![Cost::INFINITE; n];
        let mut settled = vec![false; n];
        dist[start] = Cost::ZERO;
        queue.push(Cost::ZERO, start as u32, integer);
        while let Some(x) = queue.pop() {
            let x = x as usize;
            if settled[x] {
                continue;
            }
            settled[x] = true;
            let mut relax = |y: usize, arc: usize| {
                let nd = dist[x] + self.model.cost(self.arc_cost(arc));
                if !settled[y] && nd < dist[y] {
                    dist[y] = nd;
                    queue.push(nd, y as u32, integer);
                }
            };
            if backward {
                let (offsets, arcs, tails) = incoming.get_or_init(|| self.incoming());
                for &a in &arcs[offsets[x] as usize..offsets[x + 1] as usize] {
                    relax(tails[a as usize] as usize, a as usize);
                }
            } else {
                for a in self.table.rows[x].slots() {
                    relax(self.table.neighbors[a] as usize, a);
                }
            }
        }
        Distances::Costs(dist)
    }
}
