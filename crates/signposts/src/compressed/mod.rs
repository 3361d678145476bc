//! Compressed first-move tables (compressed path databases) for maps too large for a dense
//! table.
//!
//! A dense table holds `n²` entries. Along one source's row, neighbouring targets mostly share
//! their first move, so the row compresses into *runs*: targets are numbered in depth-first
//! order, which keeps nearby targets together (measured against the dense build's ball order,
//! a Hilbert order and other neighbour orders: half the runs of the first, within ±17% of the
//! others), and each run stores its first target's number and the moves optimal toward
//! *every* target of the run. A query finds the run by binary search: `O(log runs)`, one or
//! two cache lines.
//!
//! Trees hanging off the graph are peeled first (see the dense build's peeling): their nodes
//! get no row; a depth-first numbering of each anchor's trees answers them by interval tests
//! (down into the child whose subtree holds the target, else up), and a core row answers a
//! tree target as its anchor. A perfect maze is one tree: O(n) memory, no search.
//!
//! Runs are cut greedily: a run grows while the intersection of its targets' optimal-move sets
//! stays non-empty, which gives the fewest runs that any choice of one optimal move per target
//! can give. Entries that carry no move — the source itself, targets in other components — fit
//! any run (reachability is answered by component labels, exactly).
//!
//! ## What is exact
//!
//! - [`CompressedGraph::neighbor_to`] (and [`CompressedGraph::neighbor_to_each`], the same for
//!   many entities at once, its memory reads overlapped), [`CompressedGraph::path_to`],
//!   [`CompressedGraph::cost`] (by walking the path) and [`CompressedGraph::path_exists`]
//!   answer exactly what the dense [`Graph`](crate::Graph) answers: every move returned is
//!   optimal.
//! - [`CompressedGraph::neighbors_to`] returns the moves optimal toward every target of the run
//!   (at least one, all of them optimal), which is a subset of all optimal moves; keeping every
//!   optimal move would cut a run wherever the set changes, about doubling the size on grids.
//!   On graphs of more than 65,536 nodes some of which have more than four neighbours (large
//!   octile maps), a run after a row's first keeps one of those moves, which keeps its record
//!   in 3 bytes. Use the dense table where all ties matter.
//!
//! ## Edits
//!
//! [`CompressedGraph::apply`] removes and restores edges of the build. The runs stay; an
//! overlay answers for what changed: fresh rows for the nodes whose arcs changed, fresh
//! columns for the targets toward which some distance changed (found exactly from searches
//! from the edited nodes before and after the edit), component labels of the edited graph. A
//! query reads the target's column, else the source's row, else the runs. Every move returned
//! stays optimal; [`CompressedGraph::neighbors_to`] stays a subset of the optimal moves. An
//! edit that changes distances toward more than a sixteenth of the targets rebuilds the table.
//! See `compressed/edit.rs` for the proof.
//!
//! Unit-cost graphs (4-connected grids) are searched by the bit-parallel breadth-first engine
//! of the dense build; octile grids (straight 1, diagonal √2, compared exactly) by its level
//! engine, 32 targets a search, on processors with AVX2; other weights, and processors
//! without AVX2, by its Dijkstra engine, 64 targets a batch. Batches run on all cores and are
//! folded into runs wave by wave, so no dense table is ever held. Nodes have at most eight neighbours
//! (one byte of moves per run) and arcs go both ways at the same cost.

mod build;
mod edit;
mod fold;
mod format;
mod query;
mod shard;
mod stream;
// After the queries: rustdoc lists `CompressedGraph`'s methods in module order.
mod io;

use crate::NodeId;
use crate::buf::{Buf, Origin};
use crate::builder::CostModel;
use format::{Packed, RowStarts, U24s};
pub use shard::{CompressedShard, shard_columns};
pub(crate) use stream::{BATCH_BYTES, Output, PartFile};

/// The widest neighbour list the compressed engine supports: one byte of moves per run.
pub const MAX_DEGREE: usize = 8;

/// A first-move oracle stored as run-length encoded rows; see the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompressedGraph {
    /// Out-arcs of node `v`: `heads[offsets[v]..offsets[v + 1]]`, sorted.
    offsets: Buf<u32>,
    heads: Buf<NodeId>,
    /// Stored cost of each arc (empty: every arc costs 1), read by `model`.
    costs: Buf<u32>,
    model: CostModel,
    /// Target number (column) of each node.
    column: U24s,
    /// Component label of each node; empty when the graph is connected.
    component: Buf<u32>,
    /// The moves of each node's first run (which starts at column 0).
    first_moves: Buf<u8>,
    /// Per node: the slot of its parent in a peeled tree ([`CORE`] for core nodes, [`ROOT`]
    /// for the root of a component that is a tree).
    parent_slot: Buf<u8>,
    /// Number of core nodes: the columns of peeled nodes come after theirs.
    core_len: u32,
    /// Per peeled node, by its column less `core_len`: the nodes in its subtree, itself
    /// included (their columns are `column[v]..column[v] + size`).
    size: Buf<u32>,
    /// Core nodes with hanging trees, and tree roots, with the first column of their trees'
    /// block, as `first << 32 | anchor`; increasing columns.
    anchors: Buf<u64>,
    /// Later runs of node `v`: runs `first_run.row(v)` (core nodes only).
    first_run: RowStarts,
    /// The runs, sorted within a row, so that a binary search finds a column's run.
    runs: Packed,
    /// The saved file the arrays are read from in place, if opened that way.
    origin: Origin,
    /// Fresh rows and columns beside the runs once edited ([`CompressedGraph::apply`]).
    edits: Option<Box<edit::Edits>>,
}

/// [`CompressedGraph::parent_slot`] of a core node.
const CORE: u8 = 0xFF;
/// [`CompressedGraph::parent_slot`] of a tree's root.
const ROOT: u8 = 0xFE;
