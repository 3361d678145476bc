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
    /// Target columns recomputed by a search from the target.
    pub columns: usize,
    /// Target columns repaired locally, around the nodes whose distance changed.
    pub repaired: usize,
    /// Entries given one more optimal move without a search.
    pub patched: usize,
    /// Rows remapped to new neighbour slots.
    pub rows: usize,
    /// Whether the whole table was rebuilt (a node outgrew its entry width).
    pub rebuilt: bool,
}

impl Fix {
    /// Turns this fix into a search (keeping its seeds) and returns the seeds.
    fn search(&mut self) -> &mut Seeds {
        if !matches!(self, Fix::Search(_)) {
            // New optimal moves recorded here are judged on the old distances, which change.
            let other = matches!(self, Fix::Add(_));
            *self = Fix::Search(Seeds { other, ..Seeds::default() });
        }
        match self {
            Fix::Search(seeds) => seeds,
            _ => unreachable!("set just above"),
        }
    }
}

impl Update {
    /// The report of a full rebuild of `nodes` nodes.
    pub(crate) fn rebuilt(nodes: usize) -> Update {
        Update { columns: nodes, repaired: 0, patched: 0, rows: nodes, rebuilt: true }
    }
}

/// A node's out-arcs: sorted heads and their stored costs.
type Arcs = (Vec<NodeId>, Vec<u32>);

/// Old distances from the endpoints of inserted arcs, by node.
type Ends = BTreeMap<usize, Vec<Cost>>;

/// What one target column needs after an edit.
enum Fix {
    /// Nothing beyond the remapping of edited rows.
    None,
    /// New optimal moves `(u, v)` without any distance change.
    Add(Vec<(usize, NodeId)>),
    /// Distances change: repair from these seeds, or search from the target again.
    Search(Seeds),
}

/// Where distances toward one target start to change.
#[derive(Debug, Default)]
struct Seeds {
    /// Nodes that lost their last optimal move, with their old distance.
    lost: Vec<(usize, u64)>,
    /// Inserted arcs `u → v` strictly shorter: `(u, v, new distance of u, old distance of u)`
    /// (`u64::MAX` = unreachable).
    shorter: Vec<(usize, usize, u64, u64)>,
    /// A cause the local repair does not handle (costs, one-way arcs, an inserted arc that is
    /// merely as good as the old paths): search.
    other: bool,
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
        let mut edited = self.edited_arcs(changes)?;
        edited.retain(|&u, arcs| *arcs != self.out_arcs(u));
        if edited.is_empty() {
            return Ok(Update::default());
        }

        // A node that outgrows its entry width: rebuild.
        if edited.iter().any(|(&u, arcs)| entry_bits(arcs.0.len() as u32) > self.table.rows[u].width_bits()) {
            return self.rebuild(&edited);
        }

        let (fixes, ends) = self.fixes(&edited);
        let searches = fixes.iter().filter(|f| matches!(f, Fix::Search(_))).count();
        let unit_before = self.costs.is_empty() && !self.directed;
        // Unweighted undirected graphs are repaired locally, within a work budget (below);
        // elsewhere each such target costs a search, and past half the targets a build, which
        // searches every target anyway, is cheaper.
        if !unit_before && searches > (self.nodes_len() / 2).max(8) {
            return self.rebuild(&edited);
        }
        let rows = edited.len();
        // Arcs new to the graph: the local repair reads no old relation across them.
        let inserted: Vec<(usize, usize)> = edited
            .iter()
            .flat_map(|(&u, (heads, _))| {
                let old = self.out_arcs(u).0;
                heads.iter().filter(move |v| old.binary_search(v).is_err()).map(move |&v| (u, v as usize))
            })
            .collect();
        self.replace_structure(&edited);
        let unit = unit_before && self.costs.is_empty() && !self.directed;
        let mut local = Local::new(self.nodes_len());
        // What a rebuild would cost, in the units of the repair's work: the bit-parallel
        // build's cost grows with the square of the graph's 2-core (trees are filled by runs).
        let core =
            if unit { crate::build::peel::peel(&self.table.rows, &self.table.neighbors).core_len } else { 0 };
        let budget = (core * core / 64).max(self.nodes_len() / 4).max(1 << 10);
        let mut patched = 0;
        for (col, fix) in fixes.iter().enumerate() {
            if let Fix::Add(arcs) = fix {
                for &(u, v) in arcs {
                    let Ok(slot) = self.table.neighbors(u).binary_search(&v) else { continue };
                    match self.table.entry(u, col) {
                        crate::table::Entry::Narrow(m) => self.table.set_entry(u, col, &[m | 1 << slot]),
                        crate::table::Entry::Wide(w) => {
                            let mut value = w.to_vec();
                            value[slot / 64] |= 1 << (slot % 64);
                            self.table.set_entry(u, col, &value);
                        }
                    }
                    patched += 1;
                }
            }
        }
        let mut columns = 0;
        let mut value = vec![0u64; (self.max_width() as usize).div_ceil(64)];
        let incoming = self.incoming();
        let mut repaired = 0;
        for (col, fix) in fixes.iter().enumerate() {
            if let Fix::Search(seeds) = fix {
                let t = self.table.order[col] as usize;
                if unit && !seeds.other && self.repair(col, t, seeds, &inserted, &ends, &mut local) {
                    repaired += 1;
                    // Regions this large (a bridge cut) cost more than the bit-parallel build.
                    if local.work > budget {
                        return self.rebuild(&BTreeMap::new());
                    }
                    continue;
                }
                columns += 1;
                // A search costs about what the bit-parallel build spends on 32 targets.
                if unit && columns * 32 > core.max(64) {
                    return self.rebuild(&BTreeMap::new());
                }
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
        Ok(Update { columns, repaired, patched, rows, rebuilt: false })
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

    /// The new out-arc lists of every node the changes touch (validated; nothing changes on
    /// an error).
    fn edited_arcs(&self, changes: &[Change]) -> Result<BTreeMap<usize, Arcs>, Error> {
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
        Ok(edited)
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
        let mut builder = GraphBuilder::from_parts(heads, costs, self.model);
        builder.reserve_degree(self.reserve);
        builder
    }

    /// The widest entry, in bits.
    fn max_width(&self) -> u32 {
        self.table.rows.iter().map(|r| r.width_bits()).max().unwrap_or(1)
    }

    /// What each column needs after an edit (see the module docs), judged on the graph before
    /// the edit.
    /// Also returns the old distances from every endpoint of an inserted arc (to every
    /// target), which the local repair needs across new edges.
    fn fixes(&self, edited: &BTreeMap<usize, Arcs>) -> (Vec<Fix>, Ends) {
        let mut ends = Ends::new();
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
                // Old distances from `u` (to every target, the graph being undirected when the
                // local repair applies; otherwise they are only passed along).
                let mut from_u_old: Option<Vec<Cost>> = None;
                for (col, fix) in fixes.iter_mut().enumerate() {
                    let entry = self.table.entry(u, col);
                    let lost = removed.iter().any(|&s| entry.contains(s));
                    if lost && crate::table::Slots::new(entry).all(|s| removed.contains(&s)) {
                        // `u` lost its last optimal move toward this target.
                        let t = self.table.order[col] as usize;
                        let old = if self.directed {
                            self.walk_cost(u, t).map_or(u64::MAX, |c| c.straight)
                        } else {
                            let d = from_u_old.get_or_insert_with(|| self.search(u, false, &incoming))[t];
                            if d == Cost::INFINITE { u64::MAX } else { d.straight }
                        };
                        fix.search().lost.push((u, old));
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
                let from_v =
                    ends.entry(v as usize).or_insert_with(|| self.search(v as usize, false, &incoming));
                let c = self.model.cost(c);
                for t in 0..n {
                    if from_v[t] == Cost::INFINITE {
                        continue;
                    }
                    let fix = &mut fixes[self.table.column[t] as usize];
                    let via = c + from_v[t];
                    if from_u[t] == Cost::INFINITE || via < from_u[t] {
                        let old = if from_u[t] == Cost::INFINITE { u64::MAX } else { from_u[t].straight };
                        let seeds = fix.search();
                        seeds.shorter.push((u, v as usize, via.straight, old));
                        seeds.other |=
                            via.diagonal != 0 || (from_u[t] != Cost::INFINITE && from_u[t].diagonal != 0);
                    } else if via == from_u[t] && t != u {
                        match fix {
                            Fix::None => *fix = Fix::Add(vec![(u, v)]),
                            Fix::Add(arcs) => arcs.push((u, v)),
                            Fix::Search(seeds) => seeds.other = true,
                        }
                    }
                }
            }
            if let Some(from_u) = from_u {
                ends.insert(u, from_u);
            }
        }
        (fixes, ends)
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
        // New arc arrays: edited nodes' lists, everybody else's copied.
        let old_neighbors = core::mem::take(&mut self.table.neighbors);
        let old_costs = core::mem::take(&mut self.costs);
        let old_cost = |a: usize| old_costs.get(a).copied().unwrap_or(1);
        let mut neighbors = Vec::with_capacity(old_neighbors.len());
        let mut costs = Vec::with_capacity(old_neighbors.len());
        for u in 0..n {
            let slots = self.table.rows[u].slots();
            let first = neighbors.len();
            if let Some((heads, cost)) = edited.get(&u) {
                neighbors.extend_from_slice(heads);
                costs.extend_from_slice(cost);
            } else {
                neighbors.extend_from_slice(&old_neighbors[slots.clone()]);
                costs.extend(slots.map(old_cost));
            }
            let row = &mut self.table.rows[u];
            row.first = u32::try_from(first).expect("arcs fit u32");
            row.deg = u32::try_from(neighbors.len() - first).expect("degree fits u32");
        }
        self.table.neighbors = neighbors;
        // Flags and counts, straight from the arrays.
        let rows = &self.table.rows;
        let reverse_cost = |u: usize, v: usize| {
            let list = &self.table.neighbors[rows[v].slots()];
            list.binary_search(&(u as NodeId)).ok().map(|i| costs[rows[v].first as usize + i])
        };
        let mut directed = false;
        let mut edges = 0;
        for (u, row) in rows.iter().enumerate() {
            for a in row.slots() {
                let v = self.table.neighbors[a] as usize;
                let back = reverse_cost(u, v);
                directed |= back != Some(costs[a]);
                edges += usize::from(u < v || back.is_none());
            }
        }
        let weighted = self.model != CostModel::Integer || costs.iter().any(|&c| c != 1);
        self.directed = directed;
        self.edges = edges;
        self.costs = if directed || weighted { costs } else { Vec::new() };
        let (component, count) = if directed {
            let offsets: Vec<u32> = rows
                .iter()
                .map(|r| r.first)
                .chain(core::iter::once(self.table.neighbors.len() as u32))
                .collect();
            let incoming = self.incoming();
            components::label_weak(&offsets, &self.table.neighbors, &incoming.0, &incoming.1, &incoming.2)
        } else {
            components::label(rows, &self.table.neighbors)
        };
        self.component = component;
        self.components = count;
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
        if self.costs.is_empty() && !self.directed {
            // Unit costs both ways: a plain breadth-first search.
            let mut dist = vec![Cost::INFINITE; n];
            let mut queue = Vec::with_capacity(n);
            dist[start] = Cost::ZERO;
            queue.push(start);
            let mut head = 0;
            while let Some(&x) = queue.get(head) {
                head += 1;
                let next = Cost::integer(dist[x].straight + 1);
                for &y in self.table.neighbors(x) {
                    if dist[y as usize] == Cost::INFINITE {
                        dist[y as usize] = next;
                        queue.push(y as usize);
                    }
                }
            }
            return dist;
        }
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

/// Scratch for local repairs: per-node stamps and distances, reset in O(1) per repair.
struct Local {
    generation: u32,
    /// `generation` when the node is in the region whose distance changes.
    region: Vec<u32>,
    /// `generation` when the node's old distance is known.
    known: Vec<u32>,
    /// `generation` when the node has been examined (lost repairs).
    seen: Vec<u32>,
    old: Vec<u64>,
    new: Vec<u64>,
    members: Vec<usize>,
    /// Nodes placed in regions so far, over all repairs of one edit.
    work: usize,
    heap: std::collections::BinaryHeap<core::cmp::Reverse<(u64, usize)>>,
}

impl Local {
    fn new(n: usize) -> Local {
        Local {
            generation: 0,
            region: vec![0; n],
            known: vec![0; n],
            seen: vec![0; n],
            old: vec![0; n],
            new: vec![0; n],
            members: Vec::new(),
            work: 0,
            heap: std::collections::BinaryHeap::new(),
        }
    }

    fn start(&mut self) {
        self.generation += 1;
        self.members.clear();
        self.heap.clear();
    }

    fn in_region(&self, v: usize) -> bool {
        self.region[v] == self.generation
    }

    fn is_known(&self, v: usize) -> bool {
        self.known[v] == self.generation
    }

    fn set_old(&mut self, v: usize, d: u64) {
        self.known[v] = self.generation;
        self.old[v] = d;
    }

    fn join(&mut self, v: usize) {
        if !self.in_region(v) {
            self.region[v] = self.generation;
            self.members.push(v);
            self.work += 1;
        }
    }
}

const UNREACHABLE: u64 = u64::MAX;

impl Graph {
    /// Repairs column `col` (target `t`) of an unweighted undirected graph around the nodes
    /// whose distance changes, without a search from `t`. Distances are read off the table:
    /// across an old edge `x`–`y`, `d(y) = d(x) − 1` when `y` is a move of `x`, `d(x) + 1` when
    /// `x` is a move of `y`, and `d(x)` otherwise. Returns `false` (changing nothing) when the
    /// seeds mix removals and insertions; the caller then searches.
    fn repair(
        &mut self,
        col: usize,
        t: usize,
        seeds: &Seeds,
        inserted: &[(usize, usize)],
        ends: &Ends,
        local: &mut Local,
    ) -> bool {
        match (seeds.lost.is_empty(), seeds.shorter.is_empty()) {
            (false, true) => self.repair_lost(col, t, &seeds.lost, inserted, local),
            (true, false) => self.repair_shorter(col, t, &seeds.shorter, inserted, ends, local),
            _ => false,
        }
    }

    /// Whether `to` is an optimal move of `from` toward column `col`.
    fn is_move(&self, from: usize, to: usize, col: usize) -> bool {
        self.table
            .neighbors(from)
            .binary_search(&(to as NodeId))
            .is_ok_and(|slot| self.table.entry(from, col).contains(slot))
    }

    /// The old distance of `y` from that of its neighbour `x` across an old edge.
    fn across(&self, x: usize, y: usize, old_x: u64, col: usize) -> u64 {
        if old_x == UNREACHABLE {
            UNREACHABLE
        } else if self.is_move(x, y, col) {
            old_x - 1
        } else if self.is_move(y, x, col) {
            old_x + 1
        } else {
            old_x
        }
    }

    /// Writes the entry of `y` toward `col` from neighbour distances `dist(z)`.
    fn write_from(&mut self, y: usize, col: usize, dy: u64, dist: impl Fn(usize) -> u64) {
        let width = self.table.rows[y].width_bits() as usize;
        let mut narrow = [0u64; 1];
        let mut wide = Vec::new();
        let value: &mut [u64] = if width <= 64 {
            &mut narrow
        } else {
            wide.resize(width / 64, 0);
            &mut wide
        };
        if dy != UNREACHABLE && dy != 0 {
            for (i, &z) in self.table.neighbors(y).iter().enumerate() {
                if dist(z as usize) == dy - 1 {
                    value[i / 64] |= 1 << (i % 64);
                }
            }
        }
        self.table.set_entry(y, col, value);
    }

    /// Removals: the region is every node all of whose optimal moves lead into it, grown from
    /// the nodes that lost their last move, in order of old distance; its new distances come
    /// from its boundary, whose distances do not change.
    fn repair_lost(
        &mut self,
        col: usize,
        t: usize,
        lost: &[(usize, u64)],
        inserted: &[(usize, usize)],
        local: &mut Local,
    ) -> bool {
        use core::cmp::Reverse;
        local.start();
        let mut heap = core::mem::take(&mut local.heap);
        for &(u, old) in lost {
            if old == UNREACHABLE {
                return false;
            }
            local.join(u);
            local.set_old(u, old);
            local.seen[u] = local.generation;
            heap.push(Reverse((old, u)));
        }
        while let Some(Reverse((d, x))) = heap.pop() {
            for i in 0..self.table.neighbors(x).len() {
                let y = self.table.neighbors(x)[i] as usize;
                if y == t || local.seen[y] == local.generation || !self.is_move(y, x, col) {
                    continue;
                }
                local.seen[y] = local.generation;
                local.set_old(y, d + 1);
                let row = self.table.rows[y];
                let all_inside = crate::table::Slots::new(self.table.entry(y, col))
                    .all(|s| local.in_region(self.table.neighbors[row.first as usize + s] as usize));
                if all_inside {
                    local.join(y);
                    heap.push(Reverse((d + 1, y)));
                }
            }
        }
        // Old distances of the boundary, and new distances of the region from it. No old
        // relation holds across an inserted edge: leave those cases to a search.
        let members = core::mem::take(&mut local.members);
        if inserted.iter().any(|&(a, b)| local.in_region(a) || local.in_region(b)) {
            return false;
        }
        for &x in &members {
            local.new[x] = UNREACHABLE;
        }
        for &x in &members {
            for &w in self.table.neighbors(x) {
                let w = w as usize;
                if !local.in_region(w) && !local.is_known(w) {
                    let d = if w == t { 0 } else { local.old[x] + u64::from(self.is_move(w, x, col)) };
                    local.set_old(w, d);
                }
            }
        }
        let mut heap = core::mem::take(&mut local.heap);
        for &x in &members {
            let best = self
                .table
                .neighbors(x)
                .iter()
                .filter(|&&w| !local.in_region(w as usize))
                .map(|&w| local.old[w as usize].saturating_add(1))
                .min()
                .unwrap_or(UNREACHABLE);
            if best < local.new[x] {
                local.new[x] = best;
                heap.push(Reverse((best, x)));
            }
        }
        while let Some(Reverse((d, x))) = heap.pop() {
            if d > local.new[x] {
                continue;
            }
            for &y in self.table.neighbors(x) {
                let y = y as usize;
                if local.in_region(y) && d + 1 < local.new[y] {
                    local.new[y] = d + 1;
                    heap.push(Reverse((d + 1, y)));
                }
            }
        }
        local.members = members;
        local.heap = heap;
        self.write_region(col, t, local);
        true
    }

    /// Writes the repaired entries: the region's from its new distances and its boundary's old
    /// ones; the boundary's bits toward the region follow the new distances.
    fn write_region(&mut self, col: usize, t: usize, local: &Local) {
        let dist = |z: usize| if local.in_region(z) { local.new[z] } else { local.old[z] };
        for &y in &local.members {
            self.write_from(y, col, local.new[y], dist);
        }
        self.patch_boundary(col, t, local);
    }

    /// Sets, in the entries of the region's outside neighbours, the bits toward region nodes
    /// to what the new distances say; their other bits do not change.
    fn patch_boundary(&mut self, col: usize, t: usize, local: &Local) {
        for &x in &local.members {
            for i in 0..self.table.neighbors(x).len() {
                let w = self.table.neighbors(x)[i] as usize;
                if local.in_region(w) || w == t {
                    continue;
                }
                let dw = local.old[w];
                let mut narrow = [0u64; 1];
                let mut wide = Vec::new();
                let value: &mut [u64] = match self.table.entry(w, col) {
                    crate::table::Entry::Narrow(m) => {
                        narrow[0] = m;
                        &mut narrow
                    }
                    crate::table::Entry::Wide(words) => {
                        wide.extend_from_slice(words);
                        &mut wide
                    }
                };
                for (slot, &z) in self.table.neighbors(w).iter().enumerate() {
                    let z = z as usize;
                    if local.in_region(z) {
                        let optimal = dw != UNREACHABLE && dw != 0 && local.new[z] == dw - 1;
                        if optimal {
                            value[slot / 64] |= 1 << (slot % 64);
                        } else {
                            value[slot / 64] &= !(1 << (slot % 64));
                        }
                    }
                }
                self.table.set_entry(w, col, value);
            }
        }
    }

    /// Insertions: the region is every node whose distance drops, grown from the tails of the
    /// shorter arcs in order of new distance; old distances are read across old edges.
    fn repair_shorter(
        &mut self,
        col: usize,
        t: usize,
        shorter: &[(usize, usize, u64, u64)],
        inserted: &[(usize, usize)],
        ends: &Ends,
        local: &mut Local,
    ) -> bool {
        use core::cmp::Reverse;
        // Across a new edge no old relation holds; the searches from its ends tell instead.
        let old_end =
            |y: usize| ends.get(&y).map(|d| if d[t] == Cost::INFINITE { UNREACHABLE } else { d[t].straight });
        local.start();
        let mut heap = core::mem::take(&mut local.heap);
        for &(u, v, new, old) in shorter {
            local.set_old(u, old);
            local.set_old(v, new - 1);
            if !local.in_region(u) || new < local.new[u] {
                local.join(u);
                local.new[u] = new;
                heap.push(Reverse((new, u)));
            }
        }
        let is_new = |x: usize, y: usize| inserted.contains(&(x, y)) || inserted.contains(&(y, x));
        // The old distance of `y`, seen from its neighbour `x` of known old distance.
        let old_of = |graph: &Graph, local: &Local, x: usize, y: usize| {
            if is_new(x, y) { old_end(y) } else { Some(graph.across(x, y, local.old[x], col)) }
        };
        while let Some(Reverse((d, x))) = heap.pop() {
            if d > local.new[x] {
                continue;
            }
            for i in 0..self.table.neighbors(x).len() {
                let y = self.table.neighbors(x)[i] as usize;
                if y == t {
                    continue;
                }
                if !local.is_known(y) {
                    let Some(old) = old_of(self, local, x, y) else { return false };
                    local.set_old(y, old);
                }
                if d + 1 < local.old[y] && (!local.in_region(y) || d + 1 < local.new[y]) {
                    local.join(y);
                    local.new[y] = d + 1;
                    heap.push(Reverse((d + 1, y)));
                }
            }
        }
        let members = core::mem::take(&mut local.members);
        // Every neighbour of the region needs a known old distance.
        for &x in &members {
            for &z in self.table.neighbors(x) {
                let z = z as usize;
                if !local.is_known(z) {
                    let Some(old) = old_of(self, local, x, z) else { return false };
                    local.set_old(z, old);
                }
            }
        }
        local.members = members;
        local.heap = heap;
        self.write_region(col, t, local);
        true
    }
}
