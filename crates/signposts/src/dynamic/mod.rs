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
//! from the target over the edited graph. When the repairs grow past
//! what a build costs (a bridge cut), the table is rebuilt instead; so are edits of a forest
//! or of a forest with one cycle (a perfect maze), which builds mostly by peeling. Rows of
//! nodes whose neighbour lists changed are remapped to their new slots. The layout stays: a
//! row keeps its entry width while its degree fits; when a node outgrows its width, the table
//! is rebuilt (both reported in [`Update`]`::rebuilt`).
//!
//! The property tests compare every answer after every random edit sequence (unit, weighted,
//! one-way, batches, 4- and 8-connected grids) with a fresh build of the edited graph.

mod repair;
mod weighted;
mod workspace;

use std::collections::BTreeMap;

use crate::build::dijkstra::Queue;
use crate::builder::CostModel;
use crate::error::panic_with;
use crate::table::entry_bits;
use crate::{Cost, Error, Graph, GraphBuilder, NodeId, components};
use repair::Local;
use weighted::WeightedLocal;

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

/// A node's out-arcs: sorted heads and their stored costs.
type Arcs = (Vec<NodeId>, Vec<u32>);

/// Old distances from the nodes searched before an edit (the ends of inserted arcs; on small
/// weighted edits every edited node), by node.
type Ends = BTreeMap<usize, Distances>;

/// Costs from (or to) one node, as a search found them: 32-bit on unit costs.
#[derive(Debug, Clone)]
enum Distances {
    Unit(Vec<u32>),
    Costs(Vec<Cost>),
}

impl Distances {
    /// The cost of node `x` (`Cost::INFINITE` when unreachable).
    #[inline]
    fn get(&self, x: usize) -> Cost {
        match self {
            Distances::Unit(d) if d[x] == u32::MAX => Cost::INFINITE,
            Distances::Unit(d) => Cost::integer(u64::from(d[x])),
            Distances::Costs(c) => c[x],
        }
    }
}

/// In-arcs: offsets per head, arc indices, and each arc's tail; built on first use.
type Incoming = std::cell::OnceCell<(Vec<u32>, Vec<u32>, Vec<NodeId>)>;

/// What one target column needs after an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing beyond the remapping of edited rows.
    None,
    /// New optimal moves (in [`Plan::add`]) without any distance change.
    Add,
    /// Distances change: repair from the seeds, or search from the target again. Inserted
    /// arcs as good as the old paths (in [`Plan::add`]) stay optimal where neither end's
    /// distance changes; elsewhere the repair recomputes them.
    Search,
}

/// A node that lost its last optimal move toward column `col`, with its old distance (set by
/// [`Graph::old_distances`]).
#[derive(Debug, Clone, Copy)]
struct Lost {
    col: usize,
    u: usize,
    old: Old,
}

/// The old distance of a node that lost its last optimal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Old {
    /// Not known yet.
    Unknown,
    /// Exact.
    Exact(Cost),
    /// On unit costs, relative to the column's other seeds: `d − d(root)` for one root seed,
    /// the same for all the column's seeds.
    Relative(u32),
}

/// An inserted arc `u → v` strictly shorter toward column `col` (the shortest of `u`'s): the
/// new and old distances of `u` and the distance of `v` (`Cost::INFINITE` = unreachable).
#[derive(Debug, Clone, Copy)]
struct Shorter {
    col: usize,
    u: usize,
    v: usize,
    new: Cost,
    old: Cost,
    old_v: Cost,
}

/// What an edit needs, column by column, judged on the graph before the edit.
struct Plan {
    states: Vec<State>,
    /// Inserted arcs `u → v` as good as the old paths toward column `col`, `(col, u, v)`,
    /// sorted by column.
    add: Vec<(u32, u32, NodeId)>,
    /// Seeds of the columns to search, sorted by column.
    lost: Vec<Lost>,
    shorter: Vec<Shorter>,
    /// Each column with entries in the lists, in order, and where they start in `lost`,
    /// `shorter` and `add`; then where the lists end. Set by [`Plan::index`].
    columns: Vec<(u32, [u32; 3])>,
}

/// One column to repair locally: its target, its seeds, and the edit's inserted arcs with the
/// old distances from their ends.
#[derive(Debug, Clone, Copy)]
struct Column<'a> {
    col: usize,
    t: usize,
    seeds: Seeds<'a>,
    inserted: &'a [(usize, usize)],
    ends: &'a Ends,
}

/// Where distances toward one target start to change, and the inserted arcs as good as the
/// old paths.
#[derive(Debug, Clone, Copy)]
struct Seeds<'a> {
    lost: &'a [Lost],
    shorter: &'a [Shorter],
    add: &'a [(u32, u32, NodeId)],
}

/// What a column's repair depends on besides the entries it reads and where its target is,
/// up to a shift of all distances: two columns with equal keys whose repairs read equal
/// entries (and do not meet their targets) are repaired alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReplayKey {
    /// Up to four nodes lost their last optimal move, with their old distances relative to
    /// the first.
    Lost([(u32, u32); 4]),
    /// One inserted arc `u → v` is strictly shorter, with `d(u) − d(v)` before the edit
    /// (`None`: `u` could not reach the target). The edit inserted one edge, `u`–`v`.
    Shorter(usize, usize, Option<u64>),
}

impl Seeds<'_> {
    /// The column's [`ReplayKey`], if its repair has one.
    fn replay_key(&self, ends: &Ends) -> Option<ReplayKey> {
        if !self.add.is_empty() {
            return None;
        }
        match (self.lost, self.shorter) {
            (lost @ [first, ..], []) if lost.len() <= 4 => {
                let offset = |l: &Lost| match l.old {
                    Old::Relative(d) => Some(i64::from(d)),
                    Old::Exact(d) if d != Cost::INFINITE && d.diagonal == 0 => i64::try_from(d.straight).ok(),
                    _ => None,
                };
                let base = offset(first)?;
                let mut key = [(u32::MAX, 0); 4];
                for (slot, seed) in key.iter_mut().zip(lost) {
                    *slot = (u32::try_from(seed.u).ok()?, u32::try_from(offset(seed)? - base).ok()?);
                }
                Some(ReplayKey::Lost(key))
            }
            ([], [s]) if ends.len() == 2 && ends.contains_key(&s.u) && ends.contains_key(&s.v) => {
                let gap = (s.old != Cost::INFINITE).then(|| s.old.straight - s.old_v.straight);
                Some(ReplayKey::Shorter(s.u, s.v, gap))
            }
            _ => None,
        }
    }
}

impl Plan {
    fn new(n: usize) -> Plan {
        Plan {
            states: vec![State::None; n],
            add: Vec::new(),
            lost: Vec::new(),
            shorter: Vec::new(),
            columns: Vec::new(),
        }
    }

    /// Orders the lists by column and indexes where each column's entries start. Each list
    /// is a few runs already in column order (one per edited node or inserted arc), which a
    /// stable sort merges in about linear time.
    fn index(&mut self) {
        self.lost.sort_by_key(|l| l.col);
        self.shorter.sort_by_key(|s| s.col);
        self.add.sort_by_key(|a| a.0);
        let keys = [
            self.lost.iter().map(|l| l.col).collect::<Vec<_>>(),
            self.shorter.iter().map(|s| s.col).collect(),
            self.add.iter().map(|a| a.0 as usize).collect(),
        ];
        let head = |list: usize, at: usize| keys[list].get(at).copied().unwrap_or(usize::MAX);
        let as_u32 =
            |at: [usize; 3]| at.map(|i| u32::try_from(i).expect("one entry per column and edited arc"));
        let mut at = [0usize; 3];
        let mut columns = Vec::new();
        loop {
            let col = head(0, at[0]).min(head(1, at[1])).min(head(2, at[2]));
            if col == usize::MAX {
                break;
            }
            columns.push((col as u32, as_u32(at)));
            for (list, at) in at.iter_mut().enumerate() {
                while head(list, *at) == col {
                    *at += 1;
                }
            }
        }
        columns.push((u32::MAX, as_u32(at)));
        self.columns = columns;
    }

    /// Marks column `col` as needing a search.
    fn search(&mut self, col: usize) {
        self.states[col] = State::Search;
    }

    /// The seeds of column `col`.
    fn seeds(&self, col: usize) -> Seeds<'_> {
        let at = self.columns.partition_point(|&(c, _)| (c as usize) < col);
        if self.columns[at].0 as usize != col {
            return Seeds { lost: &[], shorter: &[], add: &[] };
        }
        let (from, to) = (self.columns[at].1, self.columns[at + 1].1);
        let range = |list: usize| from[list] as usize..to[list] as usize;
        Seeds { lost: &self.lost[range(0)], shorter: &self.shorter[range(1)], add: &self.add[range(2)] }
    }

    /// Columns to search, in order.
    fn searches(&self) -> impl Iterator<Item = usize> + '_ {
        self.states.iter().enumerate().filter_map(|(col, state)| (*state == State::Search).then_some(col))
    }
}

/// The writes of the runs of columns, in groups of whole blocks in column order for the table
/// to write them in parallel (runs that share a block join one group), and the columns left
/// to a search; `None` if a run gave up.
#[expect(clippy::type_complexity, reason = "the runs' results, as they come")]
fn group_writes(
    runs: &[&[usize]],
    results: Vec<Option<(Vec<(usize, usize, u64)>, Vec<usize>)>>,
) -> Option<(Vec<Vec<(usize, usize, u64)>>, Vec<usize>)> {
    let block = |col: usize| col / crate::table::BLOCK;
    let mut results: Vec<_> = runs.iter().map(|run| (run[0], run[run.len() - 1])).zip(results).collect();
    results.sort_unstable_by_key(|&((first, _), _)| first);
    let mut groups: Vec<Vec<(usize, usize, u64)>> = Vec::with_capacity(results.len());
    let mut last_block = None;
    let mut all_failed = Vec::new();
    for ((first, last), result) in results {
        let (writes, failed) = result?;
        all_failed.extend(failed);
        match groups.last_mut() {
            Some(group) if last_block == Some(block(first)) => group.extend(writes),
            _ => groups.push(writes),
        }
        last_block = Some(block(last));
    }
    Some((groups, all_failed))
}

/// The arcs of `heads` and `costs` (a node's new list) that `old` lacks or has at another cost.
fn changed_arcs<'a>(
    old: &'a Arcs,
    heads: &'a [NodeId],
    costs: &'a [u32],
) -> impl Iterator<Item = (NodeId, u32)> + 'a {
    heads
        .iter()
        .zip(costs)
        .filter(|&(v, c)| !old.0.binary_search(v).is_ok_and(|i| old.1[i] == *c))
        .map(|(&v, &c)| (v, c))
}

/// A local repair's scratch, one per worker: the unit repair ([`repair`]) or the weighted one
/// ([`weighted`]).
trait Scratch {
    /// Repairs one column into [`Scratch::writes`]; `false` leaves it to a search.
    fn repair(&mut self, graph: &Graph, column: Column<'_>) -> bool;
    /// Forgets what the scratch knows of an earlier edit's graph.
    fn new_update(&mut self);
    fn writes(&self) -> &[(usize, u64)];
    /// Nodes handled so far.
    fn work(&self) -> usize;
    /// Columns repaired so far by repeating an earlier column's repair.
    fn replayed(&self) -> usize;
    /// What a rebuild costs, in the same units as [`Scratch::work`].
    fn rebuild_work(graph: &Graph) -> usize;
    /// Runs `f` with this thread's scratch for `n` nodes, kept from one update to the next: a
    /// fresh one is an allocation of 32 bytes per node whose pages fault on first touch, which
    /// costs more than a small repair. (It stays allocated on the thread, a small fraction of
    /// the n² table it serves.)
    fn with<R>(n: usize, f: impl FnOnce(&mut Self) -> R) -> R;
}

/// Runs `f` with the scratch kept in `pool` if it is for `n` nodes, else a new one, and keeps
/// it there afterwards.
fn pooled<S, R>(
    pool: &'static std::thread::LocalKey<std::cell::Cell<Option<S>>>,
    n: usize,
    nodes: impl Fn(&S) -> usize,
    new: impl Fn(usize) -> S,
    f: impl FnOnce(&mut S) -> R,
) -> R {
    let mut scratch = pool.take().filter(|s| nodes(s) == n).unwrap_or_else(|| new(n));
    let result = f(&mut scratch);
    pool.set(Some(scratch));
    result
}

impl Scratch for Local {
    fn repair(&mut self, graph: &Graph, column: Column<'_>) -> bool {
        if graph.replay(column, self) {
            self.work += self.members.len();
            self.replayed += 1;
            return true;
        }
        let key = column.seeds.replay_key(column.ends);
        let repaired = graph.repair(column, self);
        if repaired && !self.met_target {
            self.replay = key;
        }
        repaired
    }

    fn new_update(&mut self) {
        self.replay = None;
    }

    fn writes(&self) -> &[(usize, u64)] {
        &self.writes
    }

    fn work(&self) -> usize {
        self.work
    }

    fn replayed(&self) -> usize {
        self.replayed
    }

    /// The bit-parallel build's cost grows with the square of the 2-core (trees are filled by
    /// runs); a region node costs about what it spends on 64 entries.
    fn rebuild_work(graph: &Graph) -> usize {
        graph.core_len().pow(2) / 64
    }

    fn with<R>(n: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        thread_local!(static POOL: std::cell::Cell<Option<Local>> = const { std::cell::Cell::new(None) });
        pooled(&POOL, n, Local::nodes_len, Local::new, f)
    }
}

impl Scratch for WeightedLocal {
    fn repair(&mut self, graph: &Graph, column: Column<'_>) -> bool {
        graph.repair_weighted(column, self)
    }

    fn new_update(&mut self) {}

    fn writes(&self) -> &[(usize, u64)] {
        &self.writes
    }

    fn work(&self) -> usize {
        self.work
    }

    fn replayed(&self) -> usize {
        self.replayed
    }

    /// A weighted build settles every node once per target; a region node costs a few
    /// settles.
    fn rebuild_work(graph: &Graph) -> usize {
        graph.nodes_len().pow(2) / 8
    }

    fn with<R>(n: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        thread_local!(static POOL: std::cell::Cell<Option<WeightedLocal>> = const { std::cell::Cell::new(None) });
        pooled(&POOL, n, WeightedLocal::nodes_len, WeightedLocal::new, f)
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
    /// // A corridor 0-1-2-3 with a door 1-4-2 around it, and a loop 2-5-3.
    /// let mut b = signposts::Graph::builder(6);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3).connect(1, 4).connect(4, 2);
    /// b.connect(2, 5).connect(5, 3);
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

        // A forest is built by peeling alone, in about the time one repair takes to start, and
        // a forest with one more edge (one cycle) mostly so: edits of those (a perfect maze
        // with a wall opened or closed) rebuild at once.
        if self.costs.is_empty()
            && !self.directed
            && self.edges + self.components as usize <= self.nodes_len() + 1
        {
            return self.rebuild(&edited);
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
        if (self.directed || !undirected_before) && to_search > (self.nodes_len() / 2).max(8) {
            return self.rebuild(&BTreeMap::new());
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
        // A search costs about what the bit-parallel build spends on 32 targets, or one
        // target's share of a weighted build.
        let rebuild = if unit {
            searched.len() * 32 > 64 && searched.len() * 32 > self.core_len()
        } else {
            searched.len() > (self.nodes_len() / 2).max(8)
        };
        if rebuild {
            return self.rebuild(&BTreeMap::new());
        }
        let mut value = vec![0u64; (self.max_width() as usize).div_ceil(64)];
        let incoming = Incoming::new();
        for &col in &searched {
            let t = self.table.order[col] as usize;
            let dist = self.search(t, true, &incoming);
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
                self.table.set_entry(x, col, &value);
            }
        }
        let columns = searched.len();
        Ok(Update { columns, repaired, replayed, patched, rows, rebuilt: false })
    }

    /// The nodes of each component, by label.
    fn nodes_by_component(&self) -> Vec<Vec<u32>> {
        let mut nodes = vec![Vec::new(); self.components as usize];
        for (x, &c) in self.component.iter().enumerate() {
            nodes[c as usize].push(x as u32);
        }
        nodes
    }

    /// The size of the 2-core: the bit-parallel build's cost grows with its square (trees
    /// hanging off it are filled by runs).
    fn core_len(&self) -> usize {
        crate::build::peel::peel(&self.table.rows, &self.table.neighbors).core_len
    }

    /// Repairs every column that needs a search locally, on all cores, and writes the new
    /// entries. Returns the columns the local repair leaves to a search, or `None` once the
    /// regions grow past what a rebuild costs (nothing is written then).
    fn repair_columns<S: Scratch>(
        &mut self,
        plan: &Plan,
        columns: &[usize],
        near: &[usize],
        inserted: &[(usize, usize)],
        ends: &Ends,
    ) -> Option<(Vec<usize>, usize)> {
        use std::sync::OnceLock;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let n = self.nodes_len();
        // The work of a rebuild in region nodes; the 2-core is measured only once the repair
        // has done more than a small share.
        let floor = (n / 4).max(1 << 10);
        let budget = OnceLock::new();
        let work = AtomicUsize::new(0);
        let replayed = AtomicUsize::new(0);
        let over = |work: usize| work > floor && work > *budget.get_or_init(|| S::rebuild_work(self));
        let graph = &*self;
        // Nodes by component, for columns whose target an edit cut off.
        let by_component = OnceLock::new();
        // Repairs a run of columns with one scratch: new entries `(column, node, mask)` and
        // the columns left to a search; `None` once over the budget.
        let run = |columns: &[usize]| {
            S::with(n, |local| {
                local.new_update();
                let mut writes = Vec::new();
                let mut failed = Vec::new();
                // Columns whose target the removals cut off from every node that lost its last
                // move: each such node's whole component loses the target (no distance elsewhere
                // changes), so their entries there are cleared without a search.
                let mut rest = Vec::new();
                for &col in columns {
                    let t = graph.table.order[col] as usize;
                    let seeds = plan.seeds(col);
                    let target = graph.component[t];
                    // (Inserted arcs as good as the old paths in the same column are left to
                    // the repair, which records them.)
                    if seeds.lost.is_empty()
                        || !seeds.shorter.is_empty()
                        || !seeds.add.is_empty()
                        || seeds.lost.iter().any(|s| graph.component[s.u] == target)
                    {
                        rest.push(col);
                        continue;
                    }
                    let by_component: &Vec<Vec<u32>> =
                        by_component.get_or_init(|| graph.nodes_by_component());
                    let mut cut: Vec<u32> = seeds.lost.iter().map(|s| graph.component[s.u]).collect();
                    cut.sort_unstable();
                    cut.dedup();
                    for c in cut {
                        let nodes = &by_component[c as usize];
                        // Counted before writing: a cut through the middle clears half the
                        // table.
                        if over(work.fetch_add(nodes.len(), Ordering::Relaxed) + nodes.len()) {
                            return None;
                        }
                        writes.extend(nodes.iter().map(|&x| (col, x as usize, 0)));
                    }
                }
                for &col in &rest {
                    if over(work.load(Ordering::Relaxed)) {
                        return None;
                    }
                    let (before, replays) = (local.work(), local.replayed());
                    let t = graph.table.order[col] as usize;
                    if local.repair(graph, Column { col, t, seeds: plan.seeds(col), inserted, ends }) {
                        writes.extend(local.writes().iter().map(|&(u, mask)| (col, u, mask)));
                    } else {
                        failed.push(col);
                    }
                    work.fetch_add(local.work() - before, Ordering::Relaxed);
                    replayed.fetch_add(local.replayed() - replays, Ordering::Relaxed);
                }
                Some((writes, failed))
            })
        };
        #[cfg(feature = "parallel")]
        let threads = rayon::current_num_threads();
        #[cfg(not(feature = "parallel"))]
        let threads = 1;
        let runs = self.runs(columns, near, threads);
        // A few columns are repaired on this thread: waking the others costs more.
        #[cfg(feature = "parallel")]
        let results: Vec<_> = if columns.len() < 64 {
            runs.iter().map(|r| run(r)).collect()
        } else {
            use rayon::prelude::*;
            // Each thread takes the next run whenever it finishes one, so the large runs in
            // front go to different threads.
            let next = AtomicUsize::new(0);
            let mut done: Vec<_> = (0..threads)
                .into_par_iter()
                .flat_map_iter(|_| {
                    core::iter::from_fn(|| {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        runs.get(i).map(|r| (i, run(r)))
                    })
                    .collect::<Vec<_>>()
                })
                .collect();
            done.sort_unstable_by_key(|&(i, _)| i);
            done.into_iter().map(|(_, result)| result).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let results: Vec<_> = runs.iter().map(|r| run(r)).collect();
        if over(work.into_inner()) {
            return None;
        }
        let (groups, failed) = group_writes(&runs, results)?;
        self.table.write_groups(&groups);
        Some((failed, replayed.into_inner()))
    }

    /// Runs of a few columns each, for `threads` threads to share out as they go; the targets
    /// at the `near` nodes first, alone: theirs are the largest regions (all that lies behind
    /// the edit), a good part of the whole repair.
    fn runs<'a>(&self, columns: &'a [usize], near: &[usize], threads: usize) -> Vec<&'a [usize]> {
        let chunk = (columns.len() / (16 * threads)).clamp(8, 256);
        let mut runs: Vec<&[usize]> = Vec::new();
        let mut rest = Vec::new();
        let mut start = 0;
        for (i, &col) in columns.iter().enumerate() {
            if near.contains(&(self.table.order[col] as usize)) {
                rest.extend((start < i).then(|| &columns[start..i]));
                runs.push(&columns[i..=i]);
                start = i + 1;
            } else if i + 1 - start == chunk {
                rest.push(&columns[start..=i]);
                start = i + 1;
            }
        }
        rest.extend((start < columns.len()).then(|| &columns[start..]));
        runs.extend(rest);
        runs
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
    fn fixes(&self, edited: &BTreeMap<usize, Arcs>) -> (Plan, Ends) {
        let n = self.nodes_len();
        let mut plan = Plan::new(n);
        let incoming = Incoming::new();
        let ends = self.searches_from_ends(edited);
        for (&u, (heads, costs)) in edited {
            let old = self.out_arcs(u);
            // Slots of removed arcs (or arcs whose cost changed).
            let removed: Vec<usize> = (0..old.0.len())
                .filter(|&slot| !heads.binary_search(&old.0[slot]).is_ok_and(|i| costs[i] == old.1[slot]))
                .collect();
            if !removed.is_empty() {
                // Columns toward which `u` lost its last optimal move.
                let mut lost = Vec::new();
                // A mask of the removed slots for rows of narrow entries (slots below 64); wide
                // rows are scanned entry by entry below.
                let gone = removed.iter().fold(0u64, |m, &s| m | 1u64.checked_shl(s as u32).unwrap_or(0));
                let narrow = self.table.for_each_narrow(u, |col, entry| {
                    if entry & !gone == 0 {
                        lost.push(col);
                    }
                });
                if !narrow {
                    lost = (0..n)
                        .filter(|&col| {
                            let entry = self.table.entry(u, col);
                            removed.iter().any(|&s| entry.contains(s))
                                && crate::table::Slots::new(entry).all(|s| removed.contains(&s))
                        })
                        .collect();
                }
                for col in lost {
                    plan.search(col);
                    plan.lost.push(Lost { col, u, old: Old::Unknown });
                }
            }
            // Inserted arcs (or new costs) that are at least as good as the old distances: per
            // column, one seed for `u`, its shortest new arc; the others as good as the old
            // paths are one more move each.
            let inserted: Vec<(NodeId, Cost, &Distances)> = changed_arcs(&old, heads, costs)
                .map(|(v, c)| (v, self.model.cost(c), &ends[&(v as usize)]))
                .collect();
            if inserted.is_empty() {
                continue;
            }
            let from_u = &ends[&u];
            // In column order, for the plan's lists to come out in runs by column.
            for col in 0..n {
                let t = self.table.order[col] as usize;
                let to_u = from_u.get(t);
                let mut best: Option<Shorter> = None;
                for &(v, c, from_v) in &inserted {
                    let to_v = from_v.get(t);
                    if to_v == Cost::INFINITE {
                        continue;
                    }
                    let via = c + to_v;
                    if to_u == Cost::INFINITE || via < to_u {
                        if best.is_none_or(|b| via < b.new) {
                            best = Some(Shorter { col, u, v: v as usize, new: via, old: to_u, old_v: to_v });
                        }
                    } else if via == to_u && t != u {
                        if plan.states[col] == State::None {
                            plan.states[col] = State::Add;
                        }
                        plan.add.push((col as u32, u as u32, v));
                    }
                }
                if let Some(shorter) = best {
                    plan.search(col);
                    plan.shorter.push(shorter);
                }
            }
        }
        plan.index();
        self.old_distances(&mut plan, &ends, &incoming);
        (plan, ends)
    }

    /// Old distances from the ends of inserted arcs (or arcs whose cost changed), which the
    /// plan and the repairs need, and on weighted undirected graphs from every edited node of
    /// a small edit: the weighted repair walks optimal moves to a node of known distance, and
    /// paths around an edit pass by its nodes. The searches run on all cores.
    fn searches_from_ends(&self, edited: &BTreeMap<usize, Arcs>) -> Ends {
        let weighted = !self.directed && (!self.costs.is_empty() || self.model != CostModel::Integer);
        let mut nodes = std::collections::BTreeSet::new();
        for (&u, (heads, costs)) in edited {
            let old = self.out_arcs(u);
            let mut new = changed_arcs(&old, heads, costs).peekable();
            if new.peek().is_some() || (weighted && edited.len() <= 16) {
                nodes.insert(u);
            }
            nodes.extend(new.map(|(v, _)| v as usize));
        }
        let search = |&u: &usize| (u, self.search(u, false, &Incoming::new()));
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            nodes.par_iter().map(search).collect()
        }
        #[cfg(not(feature = "parallel"))]
        nodes.iter().map(search).collect()
    }

    /// Fills in the old distances of the nodes that lost their last optimal move. On a unit
    /// undirected graph a column whose seeds hang from one of them by their old optimal moves
    /// (one seed; or a door cell and the nodes behind it) is repaired in distances relative to
    /// that root (see `dynamic/repair.rs`), which spares the searches from the seeds.
    fn old_distances(&self, plan: &mut Plan, ends: &Ends, incoming: &Incoming) {
        let unit = self.costs.is_empty() && !self.directed && self.nodes_len() < 1 << 30;
        let mut needed = Vec::new();
        let mut start = 0;
        while start < plan.lost.len() {
            let col = plan.lost[start].col;
            let end = start + plan.lost[start..].iter().take_while(|l| l.col == col).count();
            match unit.then(|| self.relative_seeds(&plan.lost[start..end])).flatten() {
                Some(offsets) => {
                    for (seed, offset) in plan.lost[start..end].iter_mut().zip(offsets) {
                        seed.old = Old::Relative(offset);
                    }
                }
                None => needed.extend(start..end),
            }
            start = end;
        }
        let mut per_node: BTreeMap<usize, usize> = BTreeMap::new();
        for &i in &needed {
            *per_node.entry(plan.lost[i].u).or_default() += 1;
        }
        // Old distances from the nodes searched, by node.
        let mut searched = Ends::new();
        for i in needed {
            let Lost { col, u, .. } = plan.lost[i];
            let t = self.table.order[col] as usize;
            // Searched already; or a walk along the old table when that is cheaper than one
            // search from `u`.
            let old = if let Some(from_u) = ends.get(&u) {
                from_u.get(t)
            } else if self.directed || per_node[&u] <= 32 {
                self.walk_cost(u, t).unwrap_or(Cost::INFINITE)
            } else {
                // A removed optimal move `u → h` gives `d(u) = c + d(h)` from a search already
                // made from `h` (the other end of a removed edge, say).
                let (heads, costs) = self.out_arcs(u);
                let known = crate::table::Slots::new(self.table.entry(u, col)).find_map(|s| {
                    let from_h =
                        searched.get(&(heads[s] as usize)).or_else(|| ends.get(&(heads[s] as usize)))?;
                    Some(self.model.cost(costs[s]) + from_h.get(t))
                });
                match known {
                    Some(d) => d,
                    None => searched.entry(u).or_insert_with(|| self.search(u, false, incoming)).get(t),
                }
            };
            plan.lost[i].old = Old::Exact(old);
        }
    }

    /// The seeds' old distances relative to one of them, on unit costs, if every other seed
    /// reaches that root by old optimal moves through seeds: each seed lost its last move, so
    /// every old move of its led to a node one closer; a seed whose move leads to another seed
    /// is one farther than it. Read on the table before the edit.
    fn relative_seeds(&self, seeds: &[Lost]) -> Option<Vec<u32>> {
        if let [_] = seeds {
            return Some(vec![0]);
        }
        if seeds.len() > 8 {
            return None;
        }
        let col = seeds[0].col;
        // The seed each seed moves to, if any.
        let parent: Vec<Option<usize>> = seeds
            .iter()
            .map(|seed| {
                let heads = self.table.neighbors(seed.u);
                crate::table::Slots::new(self.table.entry(seed.u, col))
                    .find_map(|s| seeds.iter().position(|other| other.u == heads[s] as usize))
            })
            .collect();
        if parent.iter().filter(|p| p.is_none()).count() != 1 {
            return None;
        }
        // Parents are strictly closer, so following them ends at the root within `len` steps
        // (more only in a table whose moves circle, which a crafted file could hold: no
        // relative distances then).
        let offsets = (0..seeds.len()).map(|mut i| {
            let mut offset = 0u32;
            while let Some(p) = parent[i] {
                offset += 1;
                i = p;
                if offset as usize > seeds.len() {
                    return None;
                }
            }
            Some(offset)
        });
        offsets.collect()
    }

    /// Replaces the neighbour lists of the edited nodes, remapping their rows' entries to the
    /// new slots, and updates costs, flags and components.
    fn replace_structure(&mut self, edited: &BTreeMap<usize, Arcs>) {
        let n = self.nodes_len();
        let old_heads: BTreeMap<usize, Vec<NodeId>> =
            edited.keys().map(|&u| (u, self.table.neighbors(u).to_vec())).collect();
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
            self.table.remap_row(u, &map);
        }
        let costs = self.replace_arcs(edited);
        // Flags and counts. An undirected graph can turn directed only at an arc with an
        // edited end: each such arc starts at an edited node or at an old or new neighbour of
        // one, so only those rows are checked.
        let rows = &self.table.rows;
        let arcs = &self.table.neighbors;
        let cost = |a: usize| costs.get(a).copied().unwrap_or(1);
        let reverse_cost = |u: usize, v: usize| {
            let list = &arcs[rows[v].slots()];
            list.binary_search(&(u as NodeId)).ok().map(|i| cost(rows[v].first as usize + i))
        };
        let symmetric =
            |u: usize| rows[u].slots().all(|a| reverse_cost(u, arcs[a] as usize) == Some(cost(a)));
        let directed = if self.directed {
            !(0..n).all(symmetric)
        } else {
            !edited.iter().all(|(&u, (heads, _))| {
                symmetric(u) && heads.iter().chain(&old_heads[&u]).all(|&v| symmetric(v as usize))
            })
        };
        let edges = if directed {
            (0..n)
                .map(|u| {
                    rows[u]
                        .slots()
                        .filter(|&a| u < arcs[a] as usize || reverse_cost(u, arcs[a] as usize).is_none())
                        .count()
                })
                .sum()
        } else {
            arcs.len() / 2
        };
        let weighted = self.model != CostModel::Integer || costs.iter().any(|&c| c != 1);
        let was_directed = self.directed;
        self.directed = directed;
        self.edges = edges;
        self.costs = match (directed || weighted, costs.is_empty()) {
            (true, true) => vec![1; self.table.neighbors.len()],
            (true, false) => costs,
            (false, _) => Vec::new(),
        };
        if directed {
            let offsets: Vec<u32> = rows
                .iter()
                .map(|r| r.first)
                .chain(core::iter::once(self.table.neighbors.len() as u32))
                .collect();
            let incoming = self.incoming();
            (self.component, self.components) = components::label_weak(
                &offsets,
                &self.table.neighbors,
                &incoming.0,
                &incoming.1,
                &incoming.2,
            );
        } else if was_directed || !self.components_kept(edited, &old_heads) {
            (self.component, self.components) = components::label(&self.table.rows, &self.table.neighbors);
        }
    }

    /// Puts the edited nodes' arc lists in place and returns the arcs' costs (empty while
    /// every arc costs 1), leaving `self.costs` empty.
    fn replace_arcs(&mut self, edited: &BTreeMap<usize, Arcs>) -> Vec<u32> {
        let n = self.nodes_len();
        // Unit costs stay implicit (an empty list) while every edited arc costs 1.
        let unit_costs = self.costs.is_empty() && edited.values().all(|(_, c)| c.iter().all(|&c| c == 1));
        // A few edited lists are spliced into the arc arrays in place, the last first (so the
        // earlier rows' slots stay where they are): a move of the arcs after each, and no new
        // arrays (whose fresh pages cost more than the moves). Many are copied over once.
        if edited.len() <= 16 && (unit_costs || !self.costs.is_empty()) {
            let mut costs = core::mem::take(&mut self.costs);
            for (&u, (heads, cost)) in edited.iter().rev() {
                let slots = self.table.rows[u].slots();
                if !costs.is_empty() {
                    costs.splice(slots.clone(), cost.iter().copied());
                }
                self.table.neighbors.splice(slots, heads.iter().copied());
                self.table.rows[u].deg = u32::try_from(heads.len()).expect("degree fits u32");
            }
            let mut first = 0u32;
            for row in &mut self.table.rows {
                row.first = first;
                first = first.checked_add(row.deg).expect("arcs fit u32");
            }
            costs
        } else {
            // New arc arrays: edited nodes' lists, everybody else's copied.
            let old_neighbors = core::mem::take(&mut self.table.neighbors);
            let old_costs = core::mem::take(&mut self.costs);
            let old_cost = |a: usize| old_costs.get(a).copied().unwrap_or(1);
            let mut neighbors = Vec::with_capacity(old_neighbors.len());
            let mut costs = Vec::with_capacity(if unit_costs { 0 } else { old_neighbors.len() });
            for u in 0..n {
                let slots = self.table.rows[u].slots();
                let first = neighbors.len();
                if let Some((heads, cost)) = edited.get(&u) {
                    neighbors.extend_from_slice(heads);
                    if !unit_costs {
                        costs.extend_from_slice(cost);
                    }
                } else {
                    neighbors.extend_from_slice(&old_neighbors[slots.clone()]);
                    if !unit_costs {
                        costs.extend(slots.map(old_cost));
                    }
                }
                let row = &mut self.table.rows[u];
                row.first = u32::try_from(first).expect("arcs fit u32");
                row.deg = u32::try_from(neighbors.len() - first).expect("degree fits u32");
            }
            self.table.neighbors = neighbors;
            costs
        }
    }

    /// Keeps the component labels of an undirected graph through an edit of undirected edges
    /// where that is cheap: an inserted edge between two components merges their labels
    /// (renumbered as a fresh labelling would), a removed edge whose ends stay connected
    /// changes nothing. Returns `false` when the labels must be recomputed (a removed edge
    /// whose ends are not found connected within a small search).
    fn components_kept(
        &mut self,
        edited: &BTreeMap<usize, Arcs>,
        old_heads: &BTreeMap<usize, Vec<NodeId>>,
    ) -> bool {
        let n = self.nodes_len();
        // Removed edges: their ends must still meet.
        let mut seen = std::collections::HashSet::new();
        let mut queue = std::collections::VecDeque::new();
        for (&u, (heads, _)) in edited {
            for &v in &old_heads[&u] {
                if heads.binary_search(&v).is_ok() || (v as usize) < u && edited.contains_key(&(v as usize)) {
                    continue;
                }
                // A breadth-first search from `u` for `v`, given up after a few hundred nodes.
                seen.clear();
                queue.clear();
                seen.insert(u);
                queue.push_back(u);
                let mut found = false;
                while let Some(x) = queue.pop_front() {
                    if x == v as usize {
                        found = true;
                        break;
                    }
                    if seen.len() > 512.min(n) {
                        break;
                    }
                    for &y in self.table.neighbors(x) {
                        if seen.insert(y as usize) {
                            queue.push_back(y as usize);
                        }
                    }
                }
                if !found {
                    return false;
                }
            }
        }
        // Inserted edges: merge labels, keeping the numbering of a fresh labelling (by the
        // lowest node of each component).
        for (&u, (heads, _)) in edited {
            for &v in heads {
                let (a, b) = (self.component[u], self.component[v as usize]);
                if a == b {
                    continue;
                }
                let (keep, gone) = (a.min(b), a.max(b));
                for label in &mut self.component {
                    if *label == gone {
                        *label = keep;
                    } else if *label > gone {
                        *label -= 1;
                    }
                }
                self.components -= 1;
            }
        }
        true
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
    fn search(&self, start: usize, backward: bool, incoming: &Incoming) -> Distances {
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
