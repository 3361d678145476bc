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
//! - A node left without arcs (a grid cell blocked) changes nothing by itself: its row is
//!   empty after the edit and no move leads to it. It gives the nodes that moved through it
//!   their old distances (one step farther), and is then no seed: only targets where one of
//!   its neighbours lost its last move need a repair.
//! - A node that had no arcs and gets some (a cell opened again) has a new distance toward
//!   every target it can reach; where that improves none of its neighbours, its entry is its
//!   moves to the neighbours it is reached through and each neighbour as far as it plus one
//!   step gets a move to it, bits set without a repair.
//!
//! Only targets where some node loses its last optimal move, or where an inserted arc is
//! strictly shorter, change distances. On undirected graphs their columns are repaired
//! *locally*, without a search from the target:
//!
//! - **Removals**: the nodes whose distance grows are exactly those all of whose optimal moves
//!   lead into that set, grown from the nodes that lost their last move in order of old
//!   distance (a node is decided when every move of its, all closer, is). Nothing outside the
//!   set changes distance; the set's new distances come from its boundary by a search inside
//!   it.
//! - **Insertions**: the nodes whose distance drops are grown from the tails of the strictly
//!   shorter arcs in order of new distance, each compared with its old distance.
//! - **A node opened again** (no arcs before, unit arcs after, nothing else changed: a grid
//!   cell unblocked) is repaired without regions, 64 targets at a time: the new distance is
//!   `min(d(x, t), D(x) + D(t))` with `D` the distances to the node, and the slack between the
//!   two is carried outward from the node along the old entries (`dynamic/opened.rs`).
//! - **A node blocked** (every arc of it removed, nothing else changed) is repaired 64 targets
//!   at a time too: the removal regions of a lane's targets are found together by one walk
//!   away from the node, with bit operations over the lane, and their new distances by one
//!   search inside them for all 64 (`dynamic/blocked.rs`).
//! - Old distances are read off the table across old edges: on unit costs `d(y)` is `d(x) − 1`,
//!   `d(x) + 1` or `d(x)` as `y` is a move of `x`, `x` a move of `y`, or neither
//!   (`dynamic/repair.rs`); with weights only the first two hold, and a node's old distance otherwise
//!   comes from walking its optimal moves to a node already known, or searched from before the
//!   edit (`dynamic/weighted.rs`). Across an inserted edge the searches from its ends (above)
//!   give them.
//! - Entries are rewritten for the set and, toward the set, for its boundary; an inserted arc
//!   as good as the old paths whose ends both keep their distance is one more bit.
//! - On unit costs a removal's column needs no absolute distance: shifting every distance by
//!   the same amount changes none of the comparisons above. A single seed starts at an
//!   arbitrary distance; several seeds do when all but one moved, before the edit, to another
//!   seed (a seed's every old move led one step closer: a closed door cell and the cells that
//!   went through it). Only if the repair meets the target (whose distance is 0) does the
//!   column need a search. This spares the searches from the seeds.
//! - **Replay.** A repair is then a function of its seeds (for an inserted edge, with the gap
//!   between its ends' old distances), of the entries it reads and of where it meets its
//!   target. Neighbouring targets mostly see the few nodes around an edit alike: when a column
//!   has the seed of the column repaired before it, its target is not among the nodes that
//!   repair touched, and every entry that repair read is the same toward it, its repair is the
//!   same, and its writes are copied ([`Update::replayed`] counts those). Checking the entries
//!   is cheaper than repairing.
//!
//! Columns are repaired on all cores, in runs of a few columns that the threads take as they
//! go, the targets at the edited nodes (the largest regions: all that lies behind the edit)
//! first; the new entries are written afterwards, in groups of whole blocks of columns, which
//! share no table word. A repair of a few columns stays on the calling thread. Directed
//! graphs, and columns the local repair cannot read (a region that touches an inserted edge
//! after a removal, seeds that mix removals and insertions), are recomputed by one search
//! from the target over the edited graph. When the repairs would cost more than a build (a
//! bridge cut, a door every route goes through), the table is rebuilt instead, decided from
//! measured costs: the graph's own build was timed, the repair times itself as it goes and
//! foretells its whole from the columns done (the columns at the edited nodes first, then the
//! mean of the others), and gives way as soon as the foretold time passes the build's — so a
//! repair that gives way has spent a small part of a rebuild, not all of one. Graphs loaded
//! from files, builds under 20 ms (too short to time well: the choice between two ways that
//! both take milliseconds is left to a rule that decides the same on every run) and targets
//! without a clock (`wasm32-unknown-unknown`) weigh the repair's work against a model of the
//! build's instead. Small repairs always go on (their choice is the
//! same from run to run); either way the table is a fresh build's. So are edits of a forest
//! or of a forest with one cycle (a perfect maze), which builds mostly by peeling. Rows of
//! nodes whose neighbour lists changed are remapped to their new slots. The layout stays: a
//! row keeps its entry width while its degree fits; when a node outgrows its width, the table
//! is rebuilt (both reported in [`Update`]`::rebuilt`).
//!
//! **Repairs over frames.** [`Graph::apply`] runs to its end in one call. A game that cannot
//! wait that long in one frame (a page on one thread, a wall in a maze: hundreds of
//! milliseconds) starts a [`RepairJob`] instead ([`Graph::repair_job`], or
//! [`GridOracle::set_blocked_job`](crate::grid::GridOracle::set_blocked_job)): it owns a copy of
//! the table and repairs it a [`Budget`] at a time ([`RepairJob::step`]), one column repaired,
//! written or searched a unit, while the table before the edit keeps answering; the caller
//! checks the moves it reads against the edited map meanwhile (a closed cell, a diagonal past
//! it) and swaps in [`RepairJob::finish`]'s table. The job makes the same plan and the same
//! repairs on the calling thread, with three differences: the targets at the edited nodes are
//! searched (their regions are the largest: half a maze); a rebuild that the edit forces (a
//! node outgrows its entry width, a forest, a cell opened that has no node), the lane repairs
//! of one node opened or blocked on a unit grid, and the plan are one unit each; and it never
//! gives way to a rebuild on cost. Its table answers as [`Graph::apply`]'s, and equals it
//! byte for byte where neither rebuilds.
//!
//! The property tests compare every answer after every random edit sequence (unit, weighted,
//! one-way, batches, 4- and 8-connected grids) with a fresh build of the edited graph.

mod arcs;
mod blocked;
pub(crate) mod clock;
mod driver;
mod job;
mod opened;
mod plan;
mod rebuild;
mod repair;
mod search;
mod weighted;
mod workspace;

use std::collections::BTreeMap;

use crate::error::panic_with;
use crate::{Cost, Error, Graph, NodeId};
use plan::State;
use repair::Local;
use search::Incoming;
use weighted::WeightedLocal;

pub use job::{Budget, RepairJob};

/// How a repair starts ([`Graph::start_repair`]): each way with the edits it still needs.
enum Start {
    /// Rebuild the table, with these edits (none: the structure is edited already).
    Rebuild(BTreeMap<usize, arcs::Arcs>),
    /// Node `c` opened: the lane repair of `dynamic/opened.rs`.
    Opened(usize, BTreeMap<usize, arcs::Arcs>),
    /// Node `c` blocked: the lane repair of `dynamic/blocked.rs`.
    Blocked(usize, BTreeMap<usize, arcs::Arcs>),
    /// Columns to repair locally or search.
    Columns(Prepared),
}

/// A column repair's plan, with the structure edited and the ties patched.
struct Prepared {
    plan: plan::Plan,
    ends: plan::Ends,
    /// The edited nodes.
    near: Vec<usize>,
    /// Arcs new to the graph.
    inserted: Vec<(usize, usize)>,
    /// Rows remapped.
    rows: usize,
    /// Repaired by the unit local repair.
    unit: bool,
    /// Repaired by the weighted local repair (neither: searched).
    weighted: bool,
    /// Entries given one more optimal move.
    patched: usize,
}

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
    /// Of those, the columns repaired by repeating the repair of another column that read the
    /// same entries (see the module docs).
    pub replayed: usize,
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
        Update { columns: nodes, repaired: 0, replayed: 0, patched: 0, rows: nodes, rebuilt: true }
    }
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
    /// assert_eq!(g.cost(0, 2), Some(signposts::Cost::integer(2)));
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
    /// // A corridor 0-1-2-3 with a door 1-4-2 around it, and a loop 2-5-3.
    /// let mut b = signposts::Graph::builder(6);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3).connect(1, 4).connect(4, 2);
    /// b.connect(2, 5).connect(5, 3);
    /// let mut g = b.build();
    /// let update = g.apply(&[Change::Disconnect(1, 2), Change::ConnectWeighted(1, 4, 5)])?;
    /// assert_eq!(g.path_to(0, 3).collect::<Vec<_>>(), [0, 1, 4, 2, 3]);
    /// assert_eq!(g.cost(0, 3), Some(signposts::Cost::integer(8)));
    /// assert!(!update.rebuilt);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn apply(&mut self, changes: &[Change]) -> Result<Update, Error> {
        let mut edited = self.edited_arcs(changes)?;
        edited.retain(|&u, arcs| *arcs != self.out_arcs(u));
        if edited.is_empty() {
            return Ok(Update::default());
        }

        match self.start_repair(edited, true) {
            Start::Rebuild(edited) => self.rebuild(&edited),
            Start::Opened(c, edited) => Ok(self.repair_opened(c, &edited)),
            Start::Blocked(c, edited) => Ok(self.repair_blocked(c, &edited)),
            Start::Columns(prepared) => self.repair_prepared(prepared),
        }
    }

    /// The first part of a repair, shared by [`Graph::apply`] and [`RepairJob`]: which way
    /// the edit goes and, for the column repairs, the plan, with the new structure in place
    /// and the inserted arcs as good as the old paths patched in. `gives_way`: rebuild where
    /// the searches of a directed or weighted graph would cost more (else search them all).
    fn start_repair(&mut self, edited: BTreeMap<usize, arcs::Arcs>, gives_way: bool) -> Start {
        if self.rebuilds_at_once(&edited) {
            return Start::Rebuild(edited);
        }
        if let Some(c) = self.opened_node(&edited) {
            return Start::Opened(c, edited);
        }
        if let Some(c) = self.blocked_node(&edited) {
            return Start::Blocked(c, edited);
        }

        let (plan, ends) = self.fixes(&edited);
        let near: Vec<usize> = edited.keys().copied().collect();
        let to_search = plan.searches().count();
        // Undirected graphs are repaired locally, within a work budget (below). Elsewhere each
        // such target costs a search, and past half the targets a build, which searches every
        // target anyway, is cheaper.
        let undirected_before = !self.directed;
        let unit_before = self.costs.is_empty() && undirected_before;
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
        if gives_way && (self.directed || !undirected_before) && to_search > (self.nodes_len() / 2).max(8) {
            return Start::Rebuild(BTreeMap::new());
        }
        let unit = unit_before && self.costs.is_empty() && !self.directed && self.narrow();
        let weighted = !unit && undirected_before && self.weighted_repairable();
        let mut patched = 0;
        // The slot of the last arc patched: the list holds runs of the same arc.
        let mut last = None;
        for &(col, u, v) in &plan.add {
            let (col, u) = (col as usize, u as usize);
            if plan.states[col] != State::Add {
                continue;
            }
            let slot = match last {
                Some((lu, lv, slot)) if (lu, lv) == (u, v) => slot,
                _ => {
                    let slot = self.table.neighbors(u).binary_search(&v).ok();
                    last = Some((u, v, slot));
                    slot
                }
            };
            if let Some(slot) = slot {
                self.table.set_slot(u, col, slot);
                patched += 1;
            }
        }
        Start::Columns(Prepared { plan, ends, near, inserted, rows, unit, weighted, patched })
    }

    /// The rest of a column repair, at once: the local repairs on all cores, then the
    /// searches.
    fn repair_prepared(&mut self, prepared: Prepared) -> Result<Update, Error> {
        let Prepared { plan, ends, near, inserted, rows, unit, weighted, patched } = prepared;
        let mut searched: Vec<usize> = Vec::new();
        let (mut repaired, mut replayed) = (0, 0);
        if unit || weighted {
            let local: Vec<usize> = plan.searches().collect();
            let failed = if unit {
                self.repair_columns::<Local>(&plan, &local, &near, &inserted, &ends)
            } else {
                self.repair_columns::<WeightedLocal>(&plan, &local, &near, &inserted, &ends)
            };
            // Regions this large (a bridge cut) cost more than a build.
            let Some((failed, replays)) = failed else { return self.rebuild(&BTreeMap::new()) };
            repaired = local.len() - failed.len();
            replayed = replays;
            searched.extend(failed);
        } else {
            searched.extend(plan.searches());
        }
        if self.searches_cost_more(unit, searched.len()) {
            return self.rebuild(&BTreeMap::new());
        }
        let mut value = vec![0u64; (self.max_width() as usize).div_ceil(64)];
        let incoming = Incoming::new();
        for &col in &searched {
            self.search_column(col, &incoming, &mut value);
        }
        let columns = searched.len();
        Ok(Update { columns, repaired, replayed, patched, rows, rebuilt: false })
    }

    /// Recomputes column `col` by one search from its target over the edited graph
    /// (`value`: scratch of [`Graph::max_width`] bits).
    fn search_column(&mut self, col: usize, incoming: &Incoming, value: &mut [u64]) {
        let t = self.table.order[col] as usize;
        let dist = self.search(t, true, incoming);
        for x in 0..self.nodes_len() {
            value.fill(0);
            let dx = dist.get(x);
            if dx != Cost::INFINITE && x != t {
                let slots = self.table.rows[x].slots();
                for (i, arc) in slots.enumerate() {
                    let dw = dist.get(self.table.neighbors[arc] as usize);
                    if dw != Cost::INFINITE && dw + self.model.cost(self.arc_cost(arc)) == dx {
                        value[i / 64] |= 1 << (i % 64);
                    }
                }
            }
            self.table.set_entry(x, col, value);
        }
    }

    /// The widest entry, in bits.
    fn max_width(&self) -> u32 {
        self.table.rows.iter().map(|r| r.width_bits()).max().unwrap_or(1)
    }
}
