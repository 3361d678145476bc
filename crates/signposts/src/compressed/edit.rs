//! Editing a built [`CompressedGraph`] in place: edges of the build removed and restored, the
//! answers kept optimal by an overlay of fresh rows and columns beside the runs.
//!
//! ## What an edit changes
//!
//! Write `d(x, t)` for the cost from `x` to `t` before a batch of edits and `d'` after, and
//! `E` for the nodes whose arcs changed. For one target `t`:
//!
//! - If every node of `E` with arcs both before and after that can reach `t` after the edit
//!   keeps its distance to `t`, no node that can reach `t` changes distance. (An old shortest
//!   path from `y` that uses a removed arc leaves by the first such arc from a node `a` of
//!   `E`: the path up to `a` is intact, so `a` reaches `t` if `y` does, and
//!   `d'(y, t) ≤ d(y, a) + d'(a, t) = d(y, t)`; the same, with the new path and an inserted
//!   arc, gives `d(y, t) ≤ d'(y, t)`, and a node that reaches `t` only now makes some `a`
//!   reach it only now. A node without arcs on one side is only ever the first node of such a
//!   path.) Every move kept toward `t` by a node outside `E` then stays optimal: its arc is
//!   there and both ends keep their distances; nodes cut off from `t` are answered by the
//!   component labels. Only the moves of `E` change, and those are given by fresh *rows*:
//!   each node of `E` gets its moves toward every target from searches from it and its
//!   neighbours on the edited graph.
//! - Otherwise `t` gets a fresh *column*: one search from `t` on the edited graph gives every
//!   node's optimal moves toward it.
//!
//! The distances of `E` before and after come from one search per node of `E` on each side
//! (by symmetry: arcs go both ways at one cost), so an edit costs `2|E| + |neighbours of E|`
//! searches and one per target whose distances changed. A query reads the column of its
//! target if there is one, else the row of its source if there is one, else the runs; the
//! overlay's component labels answer reachability. Columns kept from earlier edits get the
//! new rows' entries, so every entry stays optimal after every edit. When the edited graph is
//! the built one again (every removed edge restored), the overlay is dropped.
//!
//! When the columns would outgrow [`CompressedGraph::table_bytes`] (or 64 MiB, if more), or
//! an edit changes the distances toward more than a sixteenth of the targets (a build costs
//! about as much as that many searches), the table is rebuilt from the edited graph instead
//! (reported by [`Update::rebuilt`]); a rebuilt table has no arcs for what was blocked, so a
//! [`GridOracle`](crate::grid::GridOracle) reopening such a cell rebuilds again.

use std::collections::BinaryHeap;

use super::CompressedGraph;
use crate::builder::CostModel;
use crate::dynamic::{Change, Update};
use crate::{Cost, Error, GraphBuilder, NodeId};

/// Marks "no row" or "no column" in the overlay's indices.
const NONE: u32 = u32::MAX;

/// The overlay of an edited table; see the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Edits {
    /// Per node, the slots of its arcs that are present now (bit `s`: arc `offsets[v] + s`).
    pub(super) live: Vec<u8>,
    /// Arcs absent now, each direction counted.
    dead: usize,
    /// Component labels of the edited graph.
    component: Vec<u32>,
    /// Per target, its column in `columns` (`NONE`: none).
    column_of: Vec<u32>,
    /// Fresh columns, `n` entries each: the moves of every node toward the column's target.
    columns: Vec<u8>,
    /// The target of each column.
    column_targets: Vec<u32>,
    /// Per node, its row in `rows` (`NONE`: none).
    row_of: Vec<u32>,
    /// Fresh rows, `n` entries each: the node's moves toward every target.
    rows: Vec<u8>,
    /// The node of each row.
    row_nodes: Vec<u32>,
}

impl Edits {
    /// Whether `u` and `t` lie in one component of the edited graph.
    #[inline]
    pub(super) fn connected(&self, u: usize, t: usize) -> bool {
        self.component[u] == self.component[t]
    }

    /// The overlay's moves of `u` toward `t`, or `None` where the runs answer.
    #[inline]
    pub(super) fn moves(&self, u: usize, t: usize) -> Option<u8> {
        let n = self.live.len();
        if u == t || !self.connected(u, t) {
            return Some(0);
        }
        let column = self.column_of[t];
        if column != NONE {
            return Some(self.columns[column as usize * n + u]);
        }
        let row = self.row_of[u];
        (row != NONE).then(|| self.rows[row as usize * n + t])
    }

    /// Bytes held by the overlay.
    pub(super) fn memory_bytes(&self) -> usize {
        self.live.len()
            + (self.component.len() + self.column_of.len() + self.row_of.len()) * 4
            + self.columns.len()
            + self.rows.len()
            + (self.column_targets.len() + self.row_nodes.len()) * 4
    }

    /// Edges absent now (each once).
    pub(super) fn dead_edges(&self) -> usize {
        self.dead / 2
    }
}

/// Distances from one source, `Cost::INFINITE` where unreachable.
type Distances = Vec<Cost>;

impl CompressedGraph {
    /// The slots of `v`'s arcs present now.
    #[inline]
    fn live_slots(&self, v: usize) -> u8 {
        match &self.edits {
            Some(e) => e.live[v],
            None => self.all_slots(v),
        }
    }

    /// Every slot of `v`'s arcs as built.
    #[inline]
    fn all_slots(&self, v: usize) -> u8 {
        let degree = self.offsets[v + 1] - self.offsets[v];
        ((1u16 << degree) - 1) as u8
    }

    /// The exact cost of arc `arc`.
    #[inline]
    fn arc_cost(&self, arc: usize) -> Cost {
        self.model.cost(self.costs.get(arc).copied().unwrap_or(1))
    }

    /// Whether every arc costs 1.
    fn unit_costs(&self) -> bool {
        self.costs.is_empty() && self.model == CostModel::Integer
    }

    /// The slot of the arc `a → b` as built, if there is one.
    fn slot(&self, a: usize, b: NodeId) -> Option<usize> {
        let arcs = &self.heads[self.offsets[a] as usize..self.offsets[a + 1] as usize];
        arcs.iter().position(|&w| w == b)
    }

    /// Distances from `source` over the arcs `live` allows, into `dist`.
    fn distances(&self, live: &[u8], source: usize, dist: &mut Distances) {
        dist.clear();
        dist.resize(self.nodes_len(), Cost::INFINITE);
        dist[source] = Cost::ZERO;
        if self.unit_costs() {
            let mut queue = vec![source as u32];
            let mut head = 0;
            while let Some(&v) = queue.get(head) {
                head += 1;
                let v = v as usize;
                let next = Cost::integer(dist[v].straight + 1);
                let first = self.offsets[v] as usize;
                let mut slots = live[v];
                while slots != 0 {
                    let w = self.heads[first + slots.trailing_zeros() as usize] as usize;
                    slots &= slots - 1;
                    if dist[w] == Cost::INFINITE {
                        dist[w] = next;
                        queue.push(w as u32);
                    }
                }
            }
            return;
        }
        let integer = self.model == CostModel::Integer;
        let mut heap = BinaryHeap::new();
        heap.push(core::cmp::Reverse((0u64, source as u32)));
        while let Some(core::cmp::Reverse((key, v))) = heap.pop() {
            let v = v as usize;
            if dist[v].queue_key(integer) != key {
                continue;
            }
            let first = self.offsets[v] as usize;
            let mut slots = live[v];
            while slots != 0 {
                let arc = first + slots.trailing_zeros() as usize;
                slots &= slots - 1;
                let w = self.heads[arc] as usize;
                let through = dist[v] + self.arc_cost(arc);
                if through < dist[w] {
                    dist[w] = through;
                    heap.push(core::cmp::Reverse((through.queue_key(integer), w as u32)));
                }
            }
        }
    }

    /// The optimal moves of `u` toward the target whose distances are `dist`.
    #[inline]
    fn optimal_moves(&self, live: &[u8], u: usize, dist: &[Cost]) -> u8 {
        if dist[u] == Cost::INFINITE {
            return 0;
        }
        let first = self.offsets[u] as usize;
        let (mut slots, mut mask) = (live[u], 0);
        while slots != 0 {
            let s = slots.trailing_zeros() as usize;
            slots &= slots - 1;
            let w = self.heads[first + s] as usize;
            if dist[w] != Cost::INFINITE && dist[w] + self.arc_cost(first + s) == dist[u] {
                mask |= 1 << s;
            }
        }
        mask
    }

    /// Component labels of the graph `live` allows.
    fn components(&self, live: &[u8]) -> Vec<u32> {
        let n = self.nodes_len();
        let mut label = vec![NONE; n];
        let mut stack = Vec::new();
        for s in 0..n {
            if label[s] != NONE {
                continue;
            }
            label[s] = s as u32;
            stack.push(s);
            while let Some(v) = stack.pop() {
                let first = self.offsets[v] as usize;
                let mut slots = live[v];
                while slots != 0 {
                    let w = self.heads[first + slots.trailing_zeros() as usize] as usize;
                    slots &= slots - 1;
                    if label[w] == NONE {
                        label[w] = s as u32;
                        stack.push(w);
                    }
                }
            }
        }
        label
    }

    /// Whether the table holds edits: an overlay beside the runs (see
    /// [`CompressedGraph::apply`]).
    #[must_use]
    pub fn is_edited(&self) -> bool {
        self.edits.is_some()
    }

    /// Removes the edge `a`–`b` (an edge of the build) and repairs the answers: see
    /// [`CompressedGraph::apply`].
    ///
    /// # Errors
    /// As [`CompressedGraph::apply`].
    pub fn disconnect(&mut self, a: NodeId, b: NodeId) -> Result<Update, Error> {
        self.apply(&[Change::Disconnect(a, b)])
    }

    /// Restores the edge `a`–`b` (an edge of the build, removed since) and repairs the
    /// answers: see [`CompressedGraph::apply`].
    ///
    /// # Errors
    /// As [`CompressedGraph::apply`].
    pub fn connect(&mut self, a: NodeId, b: NodeId) -> Result<Update, Error> {
        self.apply(&[Change::Connect(a, b)])
    }

    /// Applies a batch of edits, in order, and repairs the answers once: afterwards every
    /// move returned is optimal on the edited graph, and reachability is exact.
    ///
    /// A compressed table keeps the arcs it was built with: an edit removes an edge of the
    /// build ([`Change::Disconnect`]; an edge not there is left alone) or restores one
    /// ([`Change::Connect`], or [`Change::ConnectWeighted`] with the edge's built cost). The
    /// repair is an overlay of fresh rows and columns beside the runs (see the
    /// [`compressed`](crate::compressed) module docs, "Edits"): `Update::rows` counts the rows
    /// computed, `Update::columns` the columns. A graph whose every edge is back answers from
    /// its runs alone again. When the columns would take more memory than the runs (or 64
    /// MiB, if more), or more than a sixteenth of the targets need one, the table is rebuilt
    /// ([`Update`]`::rebuilt`) from the edited graph: its arcs are then those present, and
    /// restoring a removed edge is refused.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] for a bad id; [`Error::Unsupported`] for an edge that the
    /// build did not have, another cost, or a one-way change; nothing is changed then.
    /// [`Error::AllocationFailed`] if a rebuild does not fit.
    ///
    /// # Complexity
    /// Two searches per node whose arcs changed, one per neighbour of those, and one per
    /// target whose distances changed (each O(n log n), or O(n) on unit costs).
    ///
    /// ```
    /// use signposts::dynamic::Change;
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3).connect(3, 0);
    /// let mut g = b.build_compressed()?;
    /// assert_eq!(g.neighbor_to(0, 1), Some(1));
    /// g.apply(&[Change::Disconnect(0, 1)])?;
    /// assert_eq!(g.path_to(0, 1).collect::<Vec<_>>(), [0, 3, 2, 1]);
    /// g.apply(&[Change::Connect(0, 1)])?;
    /// assert!(!g.is_edited());
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn apply(&mut self, changes: &[Change]) -> Result<Update, Error> {
        let n = self.nodes_len();
        let old_live: Vec<u8> = match &self.edits {
            Some(e) => e.live.clone(),
            None => (0..n).map(|v| self.all_slots(v)).collect(),
        };
        let mut live = old_live.clone();
        for &change in changes {
            let (a, b, present, cost) = match change {
                Change::Connect(a, b) => (a, b, true, Some(1)),
                Change::ConnectWeighted(a, b, c) => (a, b, true, Some(c)),
                Change::Disconnect(a, b) => (a, b, false, None),
                Change::ConnectDirected(..) | Change::DisconnectDirected(..) => {
                    return Err(Error::Unsupported {
                        what: "one-way edits of a compressed table (its arcs go both ways)",
                    });
                }
            };
            let (ia, ib) = (self.index(a)?, self.index(b)?);
            let Some(sa) = self.slot(ia, b) else {
                if present {
                    return Err(Error::Unsupported {
                        what: "a new edge in a compressed table (only edges of its build can be restored; rebuild to add others)",
                    });
                }
                continue;
            };
            let Some(sb) = self.slot(ib, a) else {
                return Err(Error::Unsupported { what: "an edge the table holds one way only" });
            };
            if let Some(c) = cost {
                let built = self.costs.get(self.offsets[ia] as usize + sa).copied().unwrap_or(1);
                if c != built {
                    return Err(Error::Unsupported {
                        what: "another cost for an edge of a compressed table (rebuild to change costs)",
                    });
                }
            }
            if present {
                live[ia] |= 1 << sa;
                live[ib] |= 1 << sb;
            } else {
                live[ia] &= !(1 << sa);
                live[ib] &= !(1 << sb);
            }
        }
        let touched: Vec<usize> = (0..n).filter(|&v| live[v] != old_live[v]).collect();
        if touched.is_empty() {
            return Ok(Update::default());
        }
        let dead: usize = (0..n).map(|v| (self.all_slots(v) & !live[v]).count_ones() as usize).sum();
        if dead == 0 {
            // The built graph again: the runs are exact.
            self.edits = None;
            return Ok(Update { rows: touched.len(), ..Update::default() });
        }
        self.repair(&old_live, live, &touched, dead)
    }

    /// The repair of [`CompressedGraph::apply`] once the arcs present before (`old_live`) and
    /// after (`live`) are known.
    fn repair(
        &mut self,
        old_live: &[u8],
        live: Vec<u8>,
        touched: &[usize],
        dead: usize,
    ) -> Result<Update, Error> {
        let n = self.nodes_len();
        // Nodes of `touched` with arcs on both sides decide which targets change.
        let judges: Vec<usize> =
            touched.iter().copied().filter(|&a| old_live[a] != 0 && live[a] != 0).collect();
        let opened: Vec<usize> =
            touched.iter().copied().filter(|&a| old_live[a] == 0 && live[a] != 0).collect();
        // Rows: the touched nodes, from searches from them and their neighbours.
        let mut sources: Vec<usize> = touched.to_vec();
        for &a in touched {
            let first = self.offsets[a] as usize;
            sources.extend(self.heads[first..self.offsets[a + 1] as usize].iter().map(|&w| w as usize));
        }
        sources.sort_unstable();
        sources.dedup();
        let before = self.searches(old_live, &judges);
        let after = self.searches(&live, &sources);
        let after_of = |v: usize| &after[sources.binary_search(&v).expect("a source")];
        let mut targets: Vec<usize> = (0..n)
            .filter(|&t| {
                judges.iter().zip(&before).any(|(&a, old)| {
                    let new = after_of(a)[t];
                    new != Cost::INFINITE && old[t] != new
                })
            })
            .collect();
        targets.extend(&opened);
        targets.sort_unstable();
        targets.dedup();
        // The overlay, its columns kept from earlier edits.
        let mut edits = match self.edits.take() {
            Some(e) => *e,
            None => Edits {
                live: Vec::new(),
                dead: 0,
                component: Vec::new(),
                column_of: vec![NONE; n],
                columns: Vec::new(),
                column_targets: Vec::new(),
                row_of: vec![NONE; n],
                rows: Vec::new(),
                row_nodes: Vec::new(),
            },
        };
        let fresh: Vec<usize> = targets.iter().copied().filter(|&t| edits.column_of[t] == NONE).collect();
        // A column costs one search; a build about as much as n/16 of them (it searches many
        // targets at once), measured on 512×512 maps.
        let limit = self.table_bytes().max(64 << 20);
        if (edits.column_targets.len() + fresh.len()) * n > limit || targets.len() > n / 16 + 64 {
            return self.rebuild_edited(&live).map(|()| Update::rebuilt(n));
        }
        for &t in &fresh {
            edits.column_of[t] = edits.column_targets.len() as u32;
            edits.column_targets.push(t as u32);
        }
        edits.columns.resize(edits.column_targets.len() * n, 0);
        // Rows of the touched nodes.
        for &u in touched {
            if edits.row_of[u] == NONE {
                edits.row_of[u] = edits.row_nodes.len() as u32;
                edits.row_nodes.push(u as u32);
                edits.rows.resize(edits.row_nodes.len() * n, 0);
            }
            let row = edits.row_of[u] as usize;
            self.fresh_row(&live, u, &after_of, &mut edits.rows[row * n..(row + 1) * n]);
        }
        // Columns of the targets whose distances changed, by a search from each.
        let fill = |t: usize, column: &mut [u8]| {
            let mut dist = Vec::new();
            self.distances(&live, t, &mut dist);
            for (u, entry) in column.iter_mut().enumerate() {
                *entry = self.optimal_moves(&live, u, &dist);
            }
        };
        {
            let slices: Vec<(usize, &mut [u8])> = edits
                .columns
                .chunks_mut(n)
                .zip(&edits.column_targets)
                .filter(|&(_, &t)| targets.binary_search(&(t as usize)).is_ok())
                .map(|(column, &t)| (t as usize, column))
                .collect();
            #[cfg(feature = "parallel")]
            {
                use rayon::prelude::*;
                slices.into_par_iter().for_each(|(t, column)| fill(t, column));
            }
            #[cfg(not(feature = "parallel"))]
            for (t, column) in slices {
                fill(t, column);
            }
        }
        // Columns kept: the touched nodes' entries from their new rows.
        for (c, &t) in edits.column_targets.iter().enumerate() {
            if targets.binary_search(&(t as usize)).is_err() {
                for &u in touched {
                    edits.columns[c * n + u] = edits.rows[edits.row_of[u] as usize * n + t as usize];
                }
            }
        }
        edits.component = self.components(&live);
        edits.live = live;
        edits.dead = dead;
        self.edits = Some(Box::new(edits));
        Ok(Update { columns: targets.len(), rows: touched.len(), ..Update::default() })
    }

    /// Distances from each of `from` over the arcs `live` allows, on all cores.
    fn searches(&self, live: &[u8], from: &[usize]) -> Vec<Distances> {
        let one = |&s: &usize| {
            let mut dist = Vec::new();
            self.distances(live, s, &mut dist);
            dist
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            from.par_iter().map(one).collect()
        }
        #[cfg(not(feature = "parallel"))]
        from.iter().map(one).collect()
    }

    /// The moves of `u` toward every target into `row`, from the distances of `u` and of its
    /// neighbours (`after_of`) over the arcs `live` allows.
    fn fresh_row<'d>(
        &self,
        live: &[u8],
        u: usize,
        after_of: &impl Fn(usize) -> &'d Distances,
        row: &mut [u8],
    ) {
        let first = self.offsets[u] as usize;
        let du = after_of(u);
        let arcs: Vec<(u8, &Distances, Cost)> = (0..8)
            .filter(|&s| live[u] >> s & 1 == 1)
            .map(|s| (1u8 << s, after_of(self.heads[first + s] as usize), self.arc_cost(first + s)))
            .collect();
        for (t, entry) in row.iter_mut().enumerate() {
            let d = du[t];
            *entry = if d == Cost::INFINITE {
                0
            } else {
                arcs.iter()
                    .filter(|(_, dw, c)| dw[t] != Cost::INFINITE && dw[t] + *c == d)
                    .fold(0, |m, a| m | a.0)
            };
        }
    }

    /// Replaces the table by a fresh build of the graph `live` allows.
    fn rebuild_edited(&mut self, live: &[u8]) -> Result<(), Error> {
        *self = self.builder_of(live).build_compressed()?;
        Ok(())
    }

    /// A builder of the graph `live` allows.
    pub(super) fn builder_of(&self, live: &[u8]) -> GraphBuilder {
        let n = self.nodes_len();
        let (mut adjacency, mut costs) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for (v, &slots) in live.iter().enumerate() {
            let first = self.offsets[v] as usize;
            let arcs = (0..8).filter(|&s| slots >> s & 1 == 1).map(|s| first + s);
            adjacency.push(arcs.clone().map(|a| self.heads[a]).collect());
            costs.push(arcs.map(|a| self.costs.get(a).copied().unwrap_or(1)).collect());
        }
        GraphBuilder::from_parts(adjacency, costs, self.model)
    }
}

impl Edits {
    /// Writes the overlay after a body (see [`CompressedGraph::write_body`]).
    pub(super) fn write<W: std::io::Write>(&self, w: &mut crate::format::Writer<W>) -> Result<(), Error> {
        w.u64(self.column_targets.len() as u64)?;
        w.u64(self.row_nodes.len() as u64)?;
        w.array(&self.live)?;
        w.u32s(self.component.iter().copied())?;
        w.u32s(self.column_targets.iter().copied())?;
        w.u32s(self.row_nodes.iter().copied())?;
        w.array(&self.columns)?;
        w.array(&self.rows)
    }

    /// Reads an overlay written by [`Edits::write`] for `n` nodes, its sizes and indices
    /// checked ([`Edits::check`] checks the rest).
    pub(super) fn read(r: &mut impl crate::format::Source, n: u64) -> Result<Edits, Error> {
        use crate::format::corrupt;
        let columns_len = r.u64()?;
        let rows_len = r.u64()?;
        if columns_len > n || rows_len > n {
            return Err(corrupt("more edited columns or rows than nodes"));
        }
        let live: Vec<u8> = r.array::<u8>(n)?.to_vec();
        let component: Vec<u32> = r.array::<u32>(n)?.to_vec();
        let column_targets: Vec<u32> = r.array::<u32>(columns_len)?.to_vec();
        let row_nodes: Vec<u32> = r.array::<u32>(rows_len)?.to_vec();
        let columns: Vec<u8> = r.array::<u8>(columns_len * n)?.to_vec();
        let rows: Vec<u8> = r.array::<u8>(rows_len * n)?.to_vec();
        let index = |of: &[u32]| -> Result<Vec<u32>, Error> {
            let mut index = vec![NONE; n as usize];
            for (i, &v) in of.iter().enumerate() {
                let slot =
                    index.get_mut(v as usize).ok_or_else(|| corrupt("an edited column or row of no node"))?;
                if *slot != NONE {
                    return Err(corrupt("an edited column or row twice"));
                }
                *slot = i as u32;
            }
            Ok(index)
        };
        let (column_of, row_of) = (index(&column_targets)?, index(&row_nodes)?);
        Ok(Edits { live, dead: 0, component, column_of, columns, column_targets, row_of, rows, row_nodes })
    }

    /// Counts the arcs of the build absent now (arcs past a node's degree, in a file not yet
    /// checked, count nothing).
    pub(super) fn count_dead(&mut self, graph: &CompressedGraph) {
        self.dead = (0..self.live.len())
            .map(|v| {
                let degree = graph
                    .offsets
                    .get(v + 1)
                    .zip(graph.offsets.get(v))
                    .map_or(0, |(b, a)| b.saturating_sub(*a));
                let all = ((1u32 << degree.min(8)) - 1) as u8;
                (all & !self.live[v]).count_ones() as usize
            })
            .sum();
    }

    /// Checks the overlay against its table: arcs present both ways and only arcs of the
    /// build, the component labels those of the edited graph, every move an arc present.
    pub(super) fn check(&self, graph: &CompressedGraph) -> Result<(), Error> {
        use crate::format::corrupt;
        let n = self.live.len();
        for v in 0..n {
            let all = graph.all_slots(v);
            if self.live[v] & !all != 0 {
                return Err(corrupt("an edited arc the table does not have"));
            }
            let first = graph.offsets[v] as usize;
            for s in 0..8 {
                if self.live[v] >> s & 1 == 1 {
                    let w = graph.heads[first + s] as usize;
                    let back =
                        graph.slot(w, v as NodeId).ok_or_else(|| corrupt("an arc without its twin"))?;
                    if self.live[w] >> back & 1 == 0 {
                        return Err(corrupt("an edited arc present one way only"));
                    }
                }
            }
        }
        if self.dead == 0 {
            return Err(corrupt("an overlay of edits on the graph as built"));
        }
        if graph.components(&self.live) != self.component {
            return Err(corrupt("edited component labels that are not the edited graph's"));
        }
        let stray = |u: usize, m: u8| m & !self.live[u] != 0;
        if self.columns.chunks_exact(n.max(1)).any(|c| c.iter().enumerate().any(|(u, &m)| stray(u, m)))
            || self
                .row_nodes
                .iter()
                .enumerate()
                .any(|(r, &u)| self.rows[r * n..(r + 1) * n].iter().any(|&m| stray(u as usize, m)))
        {
            return Err(corrupt("an edited move along an arc that is not there"));
        }
        Ok(())
    }
}

impl CompressedGraph {
    /// Whether the edge `a`–`b` is there now.
    pub(crate) fn has_edge(&self, a: NodeId, b: NodeId) -> bool {
        self.slot(a as usize, b).is_some_and(|s| self.live_slots(a as usize) >> s & 1 == 1)
    }

    /// The fingerprint of the graph as edited ([`CompressedGraph::fingerprint`]).
    pub(super) fn edited_fingerprint(&self, edits: &Edits) -> u64 {
        let n = self.nodes_len();
        let arcs = |v: usize| {
            let first = self.offsets[v] as usize;
            (0..8).filter(move |&s| edits.live[v] >> s & 1 == 1).map(move |s| first + s)
        };
        crate::format::fingerprint(
            n,
            (0..n).map(|v| edits.live[v].count_ones()),
            (0..n).flat_map(arcs).map(|a| self.heads[a]),
            (0..n).flat_map(arcs).map(|a| self.costs.get(a).copied().unwrap_or(1)),
            self.model,
        )
    }
}
