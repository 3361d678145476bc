//! Maps that change: editing a built [`Graph`] in place instead of rebuilding it.
//!
//! ## What an edit changes, exactly
//!
//! Write `d(x, t)` for the cost from `x` to `t` and `next(x, t)` for the optimal first moves.
//! For one target `t`:
//!
//! - **Removing an arc `u → v`** changes nothing toward `t` unless the arc was optimal,
//!   `v ∈ next(u, t)`: arcs off every shortest path do not define any distance. This is read
//!   from the table, one entry per target.
//! - **Inserting an arc `u → v` of cost `c`** changes nothing toward `t` unless
//!   `c + d(v, t) ≤ d(u, t)` in the graph before the edit: otherwise the old distances still
//!   satisfy every arc's inequality, so they stay the distances, and the new arc is optimal
//!   nowhere. One search from `u` and one from `v` give these for every target.
//! - For a batch, a target is untouched when no removed arc was optimal toward it and no
//!   inserted arc passes the test above: removals of non-optimal arcs leave its distances as
//!   they were, and the insertions are then judged on those.
//!
//! Among the affected targets, most need no search:
//!
//! - If every node that lost an optimal arc toward `t` keeps another one, no distance toward
//!   `t` changes (each node's distance is still witnessed by a remaining optimal arc, in order
//!   of distance): dropping the removed arcs' bits is the whole repair.
//! - An inserted arc with `c + d(v, t) = d(u, t)` exactly changes no distance either: it is one
//!   more optimal move of `u`, a bit to set.
//!
//! Only targets where some node loses its last optimal move, or where an inserted arc is
//! strictly shorter, change distances: their columns are recomputed from one search from `t`
//! over the edited graph. When those are so many that a full build is cheaper (a bridge cut),
//! the table is rebuilt instead. Rows of nodes whose neighbour lists changed are remapped to
//! their new slots. The layout stays: a row keeps its entry width while its degree fits; when a
//! node outgrows its width, the table is rebuilt (both reported in [`Update::rebuilt`]).
//!
//! The property tests compare every table after every random edit sequence with a fresh
//! build of the edited graph.

use std::collections::BTreeMap;

use crate::build::dijkstra::Queue;
use crate::builder::CostModel;
use crate::error::panic_with;
use crate::table::entry_bits;
use crate::{Cost, Error, Graph, GraphBuilder, NodeId, components};

/// One edit of a built graph; see [`Graph::apply`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Change {
    /// Add the undirected edge `a`–`b` with cost 1 (or set its cost to 1).
    Connect(NodeId, NodeId),
    /// Add the undirected edge `a`–`b` with the given cost (or set its cost).
    ConnectWeighted(NodeId, NodeId, u32),
    /// Add the one-way arc `a → b` with the given cost (or set its cost).
    ConnectDirected(NodeId, NodeId, u32),
    /// Remove the edge `a`–`b`, both ways.
    Disconnect(NodeId, NodeId),
    /// Remove the arc `a → b` only.
    DisconnectDirected(NodeId, NodeId),
}

/// What an edit did: how much of the table it touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Update {
    /// Target columns recomputed by a search.
    pub columns: usize,
    /// Entries given one more optimal move without a search.
    pub patched: usize,
    /// Rows remapped to new neighbour slots.
    pub rows: usize,
    /// Whether the whole table was rebuilt (a node outgrew its entry width).
    pub rebuilt: bool,
}

impl Update {
    /// The report of a full rebuild of `nodes` nodes.
    pub(crate) fn rebuilt(nodes: usize) -> Update {
        Update { columns: nodes, patched: 0, rows: nodes, rebuilt: true }
    }
}

/// A node's out-arcs: sorted heads and their stored costs.
type Arcs = (Vec<NodeId>, Vec<u32>);

/// What one target column needs after an edit.
enum Fix {
    /// Nothing beyond the remapping of edited rows.
    None,
    /// New optimal moves `(u, v)` without any distance change.
    Add(Vec<(usize, NodeId)>),
    /// Distances change: search from the target again.
    Search,
}

impl Graph {
    /// Adds the undirected edge `a`–`b` (cost 1) and repairs the table.
    ///
    /// # Panics
    /// If an id is out of range; see [`Graph::apply`].
    ///
    /// # Complexity
    /// See the [`dynamic`](crate::dynamic) module: one search per affected target.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3);
    /// let mut g = b.build();
    /// g.connect(0, 3);
    /// assert_eq!(g.path_to(0, 3).collect::<Vec<_>>(), [0, 3]);
    /// ```
    #[track_caller]
    pub fn connect(&mut self, a: NodeId, b: NodeId) -> Update {
        self.apply(&[Change::Connect(a, b)]).unwrap_or_else(|e| panic_with(&e))
    }

    /// Removes the edge `a`–`b` and repairs the table.
    ///
    /// # Panics
    /// If an id is out of range; see [`Graph::apply`].
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(3);
    /// b.connect(0, 1).connect(1, 2).connect(0, 2);
    /// let mut g = b.build();
    /// g.disconnect(0, 2);
    /// assert_eq!(g.distance(0, 2), Some(2));
    /// ```
    #[track_caller]
    pub fn disconnect(&mut self, a: NodeId, b: NodeId) -> Update {
        self.apply(&[Change::Disconnect(a, b)]).unwrap_or_else(|e| panic_with(&e))
    }

    /// Applies a batch of edits, in order, and repairs the table once. Afterwards every query
    /// answers exactly what a fresh build of the edited graph answers.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] or [`Error::ZeroCost`] for a bad change; nothing is changed
    /// then. [`Error::AllocationFailed`] if a rebuild is needed and does not fit.
    ///
    /// # Complexity
    /// O(k · (n + m) log) for `k` affected targets (see the module docs), plus O(n) per
    /// remapped row.
    ///
    /// ```
    /// use signposts::dynamic::Change;
    /// // A corridor 0-1-2-3 with a door 1-4-2 around it.
    /// let mut b = signposts::Graph::builder(5);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3).connect(1, 4).connect(4, 2);
    /// let mut g = b.build();
    /// let update = g.apply(&[Change::Disconnect(1, 2), Change::ConnectWeighted(1, 4, 5)])?;
    /// assert_eq!(g.path_to(0, 3).collect::<Vec<_>>(), [0, 1, 4, 2, 3]);
    /// assert_eq!(g.distance(0, 3), Some(8));
    /// assert!(!update.rebuilt);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn apply(&mut self, changes: &[Change]) -> Result<Update, Error> {
        // New out-arc lists of every node an edit touches, starting from the old ones.
        let mut edited: BTreeMap<usize, Arcs> = BTreeMap::new();
        for &change in changes {
            let (a, b) = match change {
                Change::Connect(a, b)
                | Change::ConnectWeighted(a, b, _)
                | Change::ConnectDirected(a, b, _)
                | Change::Disconnect(a, b)
                | Change::DisconnectDirected(a, b) => (a, b),
            };
            let (ua, ub) = (self.index(a)?, self.index(b)?);
            let cost = match change {
                Change::Connect(..) => Some(1),
                Change::ConnectWeighted(_, _, c) | Change::ConnectDirected(_, _, c) => Some(c),
                _ => None,
            };
            if cost == Some(0) {
                return Err(Error::ZeroCost { from: a, to: b });
            }
            if a == b {
                continue;
            }
            let both = !matches!(change, Change::ConnectDirected(..) | Change::DisconnectDirected(..));
            for (u, v) in if both { vec![(ua, b), (ub, a)] } else { vec![(ua, b)] } {
                let arcs = edited.entry(u).or_insert_with(|| self.out_arcs(u));
                match (arcs.0.binary_search(&v), cost) {
                    (Ok(i), Some(c)) => arcs.1[i] = c,
                    (Err(i), Some(c)) => {
                        arcs.0.insert(i, v);
                        arcs.1.insert(i, c);
                    }
                    (Ok(i), None) => {
                        arcs.0.remove(i);
                        arcs.1.remove(i);
                    }
                    (Err(_), None) => {}
                }
            }
        }
        edited.retain(|&u, arcs| *arcs != self.out_arcs(u));
        if edited.is_empty() {
            return Ok(Update::default());
        }

        // A node that outgrows its entry width: rebuild.
        if edited.iter().any(|(&u, arcs)| entry_bits(arcs.0.len() as u32) > self.table.rows[u].width_bits()) {
            return self.rebuild(&edited);
        }

        let fixes = self.fixes(&edited);
        let searches = fixes.iter().filter(|f| matches!(f, Fix::Search)).count();
        // A search per column costs about what the bit-parallel build spends on 32 targets
        // (measured on grids); the weighted engine searches every target anyway.
        let unit = self.costs.is_empty() && !self.directed;
        if searches > if unit { self.nodes_len() / 32 } else { self.nodes_len() / 2 }.max(8) {
            return self.rebuild(&edited);
        }
        let rows = edited.len();
        self.replace_structure(&edited);
        let mut patched = 0;
        for (col, fix) in fixes.iter().enumerate() {
            if let Fix::Add(arcs) = fix {
                for &(u, v) in arcs {
                    let Ok(slot) = self.table.neighbors(u).binary_search(&v) else { continue };
                    let mut value: Vec<u64> = match self.table.entry(u, col) {
                        crate::table::Entry::Narrow(m) => vec![m],
                        crate::table::Entry::Wide(w) => w.to_vec(),
                    };
                    value[slot / 64] |= 1 << (slot % 64);
                    self.table.set_entry(u, col, &value);
                    patched += 1;
                }
            }
        }
        let mut columns = 0;
        let mut value = vec![0u64; (self.max_width() as usize).div_ceil(64)];
        let incoming = self.incoming();
        for (col, fix) in fixes.iter().enumerate() {
            if matches!(fix, Fix::Search) {
                columns += 1;
                let t = self.table.order[col] as usize;
                let dist = self.search(t, true, &incoming);
                for x in 0..self.nodes_len() {
                    value.fill(0);
                    if dist[x] != Cost::INFINITE && x != t {
                        let slots = self.table.rows[x].slots();
                        for (i, arc) in slots.enumerate() {
                            let w = self.table.neighbors[arc] as usize;
                            if dist[w] != Cost::INFINITE
                                && dist[w] + self.model.cost(self.arc_cost(arc)) == dist[x]
                            {
                                value[i / 64] |= 1 << (i % 64);
                            }
                        }
                    }
                    self.table.set_entry(x, col, &value);
                }
            }
        }
        Ok(Update { columns, patched, rows, rebuilt: false })
    }

    /// Rebuilds the table of the edited graph.
    fn rebuild(&mut self, edited: &BTreeMap<usize, Arcs>) -> Result<Update, Error> {
        let mut builder = self.clone_builder();
        for (u, arcs) in edited {
            builder.replace_arcs(*u, arcs.clone());
        }
        *self = builder.try_build()?;
        Ok(Update::rebuilt(self.nodes_len()))
    }

    /// The out-arcs of `u` as lists.
    fn out_arcs(&self, u: usize) -> Arcs {
        let slots = self.table.rows[u].slots();
        (self.table.neighbors[slots.clone()].to_vec(), slots.map(|a| self.arc_cost(a)).collect())
    }

    /// A builder holding this graph's arcs.
    fn clone_builder(&self) -> GraphBuilder {
        let n = self.nodes_len();
        let (heads, costs) = (0..n).map(|u| self.out_arcs(u)).unzip();
        GraphBuilder::from_parts(heads, costs, self.model)
    }

    /// The widest entry, in bits.
    fn max_width(&self) -> u32 {
        self.table.rows.iter().map(|r| r.width_bits()).max().unwrap_or(1)
    }

    /// What each column needs after an edit (see the module docs), judged on the graph before
    /// the edit.
    fn fixes(&self, edited: &BTreeMap<usize, Arcs>) -> Vec<Fix> {
        let n = self.nodes_len();
        let mut fixes: Vec<Fix> = (0..n).map(|_| Fix::None).collect();
        let incoming = self.incoming();
        for (&u, (heads, costs)) in edited {
            let old = self.out_arcs(u);
            // Slots of removed arcs (or arcs whose cost changed).
            let removed: Vec<usize> = (0..old.0.len())
                .filter(|&slot| !heads.binary_search(&old.0[slot]).is_ok_and(|i| costs[i] == old.1[slot]))
                .collect();
            if !removed.is_empty() {
                for (col, fix) in fixes.iter_mut().enumerate() {
                    let entry = self.table.entry(u, col);
                    let lost = removed.iter().any(|&s| entry.contains(s));
                    if lost && crate::table::Slots::new(entry).all(|s| removed.contains(&s)) {
                        *fix = Fix::Search; // `u` lost its last optimal move toward this target
                    }
                }
            }
            // Inserted arcs (or new costs) that are at least as good as the old distances.
            let mut from_u = None;
            for (&v, &c) in heads.iter().zip(costs) {
                if old.0.binary_search(&v).is_ok_and(|i| old.1[i] == c) {
                    continue;
                }
                let from_u = from_u.get_or_insert_with(|| self.search(u, false, &incoming));
                let from_v = self.search(v as usize, false, &incoming);
                let c = self.model.cost(c);
                for t in 0..n {
                    if from_v[t] == Cost::INFINITE {
                        continue;
                    }
                    let fix = &mut fixes[self.table.column[t] as usize];
                    let via = c + from_v[t];
                    if from_u[t] == Cost::INFINITE || via < from_u[t] {
                        *fix = Fix::Search;
                    } else if via == from_u[t] && t != u {
                        match fix {
                            Fix::None => *fix = Fix::Add(vec![(u, v)]),
                            Fix::Add(arcs) => arcs.push((u, v)),
                            Fix::Search => {}
                        }
                    }
                }
            }
        }
        fixes
    }

    /// Replaces the neighbour lists of the edited nodes, remapping their rows' entries to the
    /// new slots, and updates costs, flags and components.
    fn replace_structure(&mut self, edited: &BTreeMap<usize, Arcs>) {
        let n = self.nodes_len();
        // Remap rows first, while the old slots are still in place.
        for (&u, (heads, costs)) in edited {
            // Kept arcs move to their new slots; removed arcs, and arcs whose cost changed,
            // drop out (the column fixes add them back where they are optimal).
            let (old, old_costs) = self.out_arcs(u);
            let map: Vec<Option<usize>> = old
                .iter()
                .zip(&old_costs)
                .map(|(v, c)| heads.binary_search(v).ok().filter(|&i| costs[i] == *c))
                .collect();
            let width = self.table.rows[u].width_bits() as usize;
            let mut value = vec![0u64; width.div_ceil(64)];
            for col in 0..n {
                value.fill(0);
                for slot in crate::table::Slots::new(self.table.entry(u, col)) {
                    if let Some(new) = map[slot] {
                        value[new / 64] |= 1 << (new % 64);
                    }
                }
                self.table.set_entry(u, col, &value);
            }
        }
        // New arc arrays.
        let mut neighbors = Vec::with_capacity(self.table.neighbors.len());
        let mut costs = Vec::with_capacity(self.table.neighbors.len());
        for u in 0..n {
            let (heads, cost) = edited.get(&u).cloned().unwrap_or_else(|| self.out_arcs(u));
            let row = &mut self.table.rows[u];
            row.first = u32::try_from(neighbors.len()).expect("arcs fit u32");
            row.deg = u32::try_from(heads.len()).expect("degree fits u32");
            neighbors.extend(heads);
            costs.extend(cost);
        }
        self.table.neighbors = neighbors;
        let builder = self.clone_builder_from(&costs);
        self.directed = builder.is_directed();
        self.edges = builder.edges_len();
        self.costs = if self.directed || builder.is_weighted() { costs } else { Vec::new() };
        let offsets: Vec<u32> = self
            .table
            .rows
            .iter()
            .map(|r| r.first)
            .chain(core::iter::once(self.table.neighbors.len() as u32))
            .collect();
        let incoming = self.incoming();
        let (component, count) =
            components::label_weak(&offsets, &self.table.neighbors, &incoming.0, &incoming.1, &incoming.2);
        self.component = component;
        self.components = count;
    }

    /// A builder view of the current arcs with the given costs (to compute flags).
    fn clone_builder_from(&self, costs: &[u32]) -> GraphBuilder {
        let n = self.nodes_len();
        let heads = (0..n).map(|u| self.table.neighbors[self.table.rows[u].slots()].to_vec()).collect();
        let costs = (0..n).map(|u| costs[self.table.rows[u].slots()].to_vec()).collect();
        GraphBuilder::from_parts(heads, costs, self.model)
    }

    /// In-arcs: offsets per head, arc indices, and each arc's tail.
    fn incoming(&self) -> (Vec<u32>, Vec<u32>, Vec<NodeId>) {
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
    fn search(
        &self,
        start: usize,
        backward: bool,
        incoming: &(Vec<u32>, Vec<u32>, Vec<NodeId>),
    ) -> Vec<Cost> {
        let n = self.nodes_len();
        let integer = self.model == CostModel::Integer;
        let max_arc = (0..self.table.neighbors.len())
            .map(|a| self.model.cost(self.arc_cost(a)))
            .max()
            .unwrap_or(Cost::ZERO);
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
                let (offsets, arcs, tails) = incoming;
                for &a in &arcs[offsets[x] as usize..offsets[x + 1] as usize] {
                    relax(tails[a as usize] as usize, a as usize);
                }
            } else {
                for a in self.table.rows[x].slots() {
                    relax(self.table.neighbors[a] as usize, a);
                }
            }
        }
        dist
    }
}
