//! Local repair of one target column of a weighted undirected graph (integer weights or
//! octile costs), around the nodes whose distance changes, without a search from the target.
//!
//! Across an edge `x`–`y` of cost `c` the table gives the old distances only along optimal
//! moves: `d(x) = c + d(y)` when `y` is a move of `x`. When neither end is a move of the
//! other, the old distance of a node is found by walking its optimal moves, preferring one
//! whose head is already known, until a node of known distance, a node searched from before
//! the edit (the ends of inserted arcs; on a small edit every edited node, around which the
//! paths that avoid the edit pass), or the target; the walk is remembered for the rest of the
//! column. Everything else follows the unit repair
//! ([`super::repair`]): removals grow the region of nodes all of whose moves lead into it, in
//! order of old distance, deciding each node when it leaves the queue (by then all its moves,
//! which are closer, are decided); insertions grow the region whose distance drops, in order
//! of new distance. Costs compare exactly ([`Cost`]), so the new entries are exact.

use core::cmp::Reverse;
use std::collections::BinaryHeap;

use super::driver::Column;
use super::plan::{Lost, Old, Seeds, Shorter};
use super::workspace::Workspace;
use crate::builder::CostModel;
use crate::dense::table::Entry;
use crate::{Cost, Graph, NodeId};

/// The weighted repair's own scratch: its queue and the walk it is following.
pub(super) struct Walks {
    /// Nodes by the key of their distance ([`Walks::push`]); the distance itself is read
    /// back from the scratch when a node leaves.
    heap: BinaryHeap<Reverse<(u64, usize)>>,
    /// Whether costs are integers (else octile).
    integer: bool,
    path: Vec<(usize, Cost)>,
    /// Walk steps allowed per column before the column is left to a search.
    limit: usize,
}

/// Scratch for weighted repairs: distances as exact [`Cost`]s.
pub(super) type WeightedLocal = Workspace<Cost, Walks>;

impl WeightedLocal {
    pub(super) fn new(n: usize) -> WeightedLocal {
        Workspace::with_queue(
            n,
            Walks { heap: BinaryHeap::new(), integer: true, path: Vec::new(), limit: (n / 4).max(64) },
        )
    }
}

impl Walks {
    /// Queues `x` by the key of its distance `cost` ([`Cost::queue_key`]: the sum on integer
    /// costs; on octile ones the bits of the value in floating point, which order the costs of
    /// any graph with a dense table exactly, two different costs differing by far more than
    /// the value's rounding, see the octile build's keys). One integer comparison per heap
    /// step instead of [`Cost`]'s.
    fn push(&mut self, cost: Cost, x: usize) {
        self.heap.push(Reverse((cost.queue_key(self.integer), x)));
    }

    /// The key `push` gives `cost`.
    fn key(&self, cost: Cost) -> u64 {
        cost.queue_key(self.integer)
    }
}

/// `a + c`, unreachable staying unreachable.
fn plus(a: Cost, c: Cost) -> Cost {
    if a == Cost::INFINITE { Cost::INFINITE } else { a + c }
}

/// `a − c` where `a = c + b` for some cost `b` (exact: a cost's straight and diagonal counts
/// are unique).
fn minus(a: Cost, c: Cost) -> Option<Cost> {
    if a == Cost::INFINITE {
        return Some(Cost::INFINITE);
    }
    Some(Cost {
        straight: a.straight.checked_sub(c.straight)?,
        diagonal: a.diagonal.checked_sub(c.diagonal)?,
    })
}

impl Graph {
    /// Whether the weighted local repair applies: undirected, entries of at most 32 bits.
    pub(super) fn weighted_repairable(&self) -> bool {
        !self.directed && self.narrow()
    }

    /// Repairs column `col` (target `t`) of a weighted undirected graph around the nodes whose
    /// distance changes, leaving the new entries in [`WeightedLocal::writes`]. Returns `false`
    /// when the seeds mix removals and insertions, a walk runs too long, or an old distance
    /// cannot be read; the caller then searches.
    pub(super) fn repair_weighted(&self, column: Column<'_>, local: &mut WeightedLocal) -> bool {
        let Column { seeds, .. } = column;
        local.start();
        local.queue.heap.clear();
        local.queue.integer = self.model == CostModel::Integer;
        let done = match (seeds.lost.is_empty(), seeds.shorter.is_empty()) {
            (false, true) => self.weighted_lost(column, local),
            (true, false) => self.weighted_shorter(column, local),
            _ => None,
        };
        done.is_some()
    }

    /// The cost of the arc in slot `slot` of `x`.
    fn slot_cost(&self, x: usize, slot: usize) -> Cost {
        self.model.cost(self.arc_cost(self.table.rows[x].first as usize + slot))
    }

    /// The slot of `to` in `from`'s list when it is an optimal move of `from`.
    fn weighted_move(&self, local: &mut WeightedLocal, from: usize, to: usize, col: usize) -> Option<usize> {
        let slot = self.table.neighbors(from).iter().position(|&z| z as usize == to)?;
        (self.cached_moves(local, from, col) >> slot & 1 == 1).then_some(slot)
    }

    /// The old distance of `y`, walking its optimal moves to a known node; remembered along
    /// the walk. `None` when the walk runs past the limit.
    fn walk_old(&self, local: &mut WeightedLocal, y: usize, column: Column<'_>) -> Option<Cost> {
        let Column { col, t, ends, .. } = column;
        local.queue.path.clear();
        let mut at = y;
        let base = loop {
            if at == t {
                break Cost::ZERO;
            }
            if local.is_known(at) {
                break local.old(at);
            }
            // Nodes searched from before the edit (around it).
            if let Some(from) = ends.get(&at) {
                break from.get(t);
            }
            let moves = self.cached_moves(local, at, col);
            if moves == 0 {
                break Cost::INFINITE;
            }
            let heads = self.table.neighbors(at);
            let slot = crate::dense::table::Slots::new(Entry::Narrow(u64::from(moves)))
                .find(|&s| local.is_known(heads[s] as usize) || heads[s] as usize == t)
                .unwrap_or(moves.trailing_zeros() as usize);
            local.queue.path.push((at, self.slot_cost(at, slot)));
            local.work += 1;
            if local.queue.path.len() > local.queue.limit {
                return None;
            }
            at = heads[slot] as usize;
        };
        let mut d = base;
        while let Some((x, c)) = local.queue.path.pop() {
            d = plus(d, c);
            local.set_old(x, d);
        }
        // An empty walk: `y` is the target, known, or cannot reach the target.
        if !local.is_known(y) {
            local.set_old(y, base);
        }
        Some(local.old(y))
    }

    /// The old distance of `y` from its neighbour `x` (of known old distance) across an old
    /// edge of cost `c`.
    fn weighted_across(
        &self,
        local: &mut WeightedLocal,
        x: usize,
        y: usize,
        c: Cost,
        column: Column<'_>,
    ) -> Option<Cost> {
        let Column { col, t, .. } = column;
        if y == t {
            return Some(Cost::ZERO);
        }
        if self.weighted_move(local, x, y, col).is_some() {
            return minus(local.old(x), c);
        }
        if self.weighted_move(local, y, x, col).is_some() {
            return Some(plus(local.old(x), c));
        }
        self.walk_old(local, y, column)
    }

    /// Removals; see the module docs.
    fn weighted_lost(&self, column: Column<'_>, local: &mut WeightedLocal) -> Option<()> {
        let Column { col, t, seeds: Seeds { lost, add, .. }, inserted, .. } = column;
        for &Lost { u, old, .. } in lost {
            let Old::Exact(old) = old else { return None };
            if old == Cost::INFINITE {
                return None;
            }
            local.join(u);
            local.set_old(u, old);
            local.saw(u);
            local.queue.push(old, u);
        }
        // Candidates leave the queue in order of old distance: by then every move of theirs
        // (strictly closer) is decided. A node is queued once, with the old distance it keeps.
        while let Some(Reverse((_, x))) = local.queue.heap.pop() {
            let d = local.old(x);
            if !local.in_region(x) {
                let moves = self.cached_moves(local, x, col);
                let heads = self.table.neighbors(x);
                let inside = crate::dense::table::Slots::new(Entry::Narrow(u64::from(moves)))
                    .all(|s| local.in_region(heads[s] as usize));
                if !inside {
                    continue;
                }
                local.join(x);
            }
            for i in 0..self.table.neighbors(x).len() {
                let y = self.table.neighbors(x)[i] as usize;
                if y == t || local.is_seen(y) {
                    continue;
                }
                let Some(slot) = self.weighted_move(local, y, x, col) else { continue };
                local.saw(y);
                let dy = d + self.slot_cost(y, slot);
                local.set_old(y, dy);
                local.queue.push(dy, y);
            }
        }
        if inserted.iter().any(|&(a, b)| local.in_region(a) || local.in_region(b)) {
            return None;
        }
        // Old distances of the boundary and the region's new distances from it.
        let members = core::mem::take(&mut local.members);
        for &x in &members {
            let mut best = Cost::INFINITE;
            for i in 0..self.table.neighbors(x).len() {
                let w = self.table.neighbors(x)[i] as usize;
                if local.in_region(w) {
                    continue;
                }
                let c = self.slot_cost(x, i);
                if !local.is_known(w) {
                    let old = self.weighted_across(local, x, w, c, column)?;
                    local.set_old(w, old);
                }
                best = best.min(plus(local.old(w), c));
            }
            local.set_new(x, best);
            if best != Cost::INFINITE {
                local.queue.push(best, x);
            }
        }
        self.settle_region(local);
        local.members = members;
        self.weighted_write(col, t, add, local);
        Some(())
    }

    /// Dijkstra inside the region from the seeds queued with their new distances.
    fn settle_region(&self, local: &mut WeightedLocal) {
        while let Some(Reverse((key, x))) = local.queue.heap.pop() {
            let d = local.new_distance(x);
            if key > local.queue.key(d) {
                continue; // queued before its distance dropped
            }
            for (i, &y) in self.table.neighbors(x).iter().enumerate() {
                let y = y as usize;
                if local.in_region(y) {
                    let dy = d + self.slot_cost(x, i);
                    if dy < local.new_distance(y) {
                        local.set_new(y, dy);
                        local.queue.push(dy, y);
                    }
                }
            }
        }
    }

    /// Insertions; see the module docs.
    fn weighted_shorter(&self, column: Column<'_>, local: &mut WeightedLocal) -> Option<()> {
        let Column { col, t, seeds: Seeds { shorter, add, .. }, inserted, ends } = column;
        let is_new = |x: usize, y: usize| inserted.contains(&(x, y)) || inserted.contains(&(y, x));
        for &Shorter { u, v, new, old, old_v, .. } in shorter {
            local.set_old(u, old);
            local.set_old(v, old_v);
            if !local.in_region(u) || new < local.new_distance(u) {
                local.join(u);
                local.set_new(u, new);
                local.queue.push(new, u);
            }
        }
        while let Some(Reverse((key, x))) = local.queue.heap.pop() {
            let d = local.new_distance(x);
            if key > local.queue.key(d) {
                continue; // queued before its distance dropped
            }
            for i in 0..self.table.neighbors(x).len() {
                let y = self.table.neighbors(x)[i] as usize;
                if y == t {
                    continue;
                }
                let c = self.slot_cost(x, i);
                if !local.is_known(y) {
                    let old = if is_new(x, y) {
                        ends.get(&y)?.get(t)
                    } else {
                        self.weighted_across(local, x, y, c, column)?
                    };
                    local.set_old(y, old);
                }
                let dy = d + c;
                if dy < local.old(y) && (!local.in_region(y) || dy < local.new_distance(y)) {
                    local.join(y);
                    local.set_new(y, dy);
                    local.queue.push(dy, y);
                }
            }
        }
        // Every neighbour of the region needs a known old distance.
        let members = core::mem::take(&mut local.members);
        for &x in &members {
            for i in 0..self.table.neighbors(x).len() {
                let z = self.table.neighbors(x)[i] as usize;
                if !local.is_known(z) {
                    let c = self.slot_cost(x, i);
                    let old = if is_new(x, z) {
                        ends.get(&z)?.get(t)
                    } else {
                        self.weighted_across(local, x, z, c, column)?
                    };
                    local.set_old(z, old);
                }
            }
        }
        local.members = members;
        self.weighted_write(col, t, add, local);
        Some(())
    }

    /// Records the repaired entries: a move is optimal when its cost and the distance it
    /// leads to add up to the node's distance, compared exactly.
    fn weighted_write(&self, col: usize, t: usize, add: &[(u32, u32, NodeId)], local: &mut WeightedLocal) {
        self.record_region(col, t, add, local, |from, to, node, slot| {
            from != Cost::INFINITE && to != Cost::INFINITE && to + self.slot_cost(node, slot) == from
        });
    }
}
