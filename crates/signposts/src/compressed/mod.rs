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
//!   [`CompressedGraph::distance`] (by walking the path) and [`CompressedGraph::path_exists`]
//!   answer exactly what the dense [`Graph`](crate::Graph) answers: every move returned is
//!   optimal.
//! - [`CompressedGraph::neighbors_to`] returns the moves optimal toward every target of the run
//!   (at least one, all of them optimal), which is a subset of all optimal moves; keeping every
//!   optimal move would cut a run wherever the set changes, about doubling the size on grids.
//!   On graphs of more than 65,536 nodes some of which have more than four neighbours (large
//!   octile maps), a run after a row's first keeps one of those moves, which keeps its record
//!   in 3 bytes. Use the dense table where all ties matter.
//!
//! Unit-cost graphs (4-connected grids) are searched by the bit-parallel breadth-first engine
//! of the dense build, weighted ones (octile grids: straight 1, diagonal √2, compared exactly)
//! by its Dijkstra engine, 64 targets a batch; batches run on all cores and are folded into
//! runs wave by wave, so no dense table is ever held. Nodes have at most eight neighbours
//! (one byte of moves per run) and arcs go both ways at the same cost.

use core::sync::atomic::{AtomicUsize, Ordering};

use crate::Cost;
use crate::build::{self, Adjacency, Progress};
use crate::builder::CostModel;
use crate::{Error, GraphBuilder, NodeId, components};

/// The widest neighbour list the compressed engine supports: one byte of moves per run.
pub const MAX_DEGREE: usize = 8;

/// A first-move oracle stored as run-length encoded rows; see the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompressedGraph {
    /// Out-arcs of node `v`: `heads[offsets[v]..offsets[v + 1]]`, sorted.
    offsets: Vec<u32>,
    heads: Vec<NodeId>,
    /// Stored cost of each arc (empty: every arc costs 1), read by `model`.
    costs: Vec<u32>,
    model: CostModel,
    /// Target number (column) of each node.
    column: U24s,
    /// Component label of each node; empty when the graph is connected.
    component: Vec<u32>,
    /// The moves of each node's first run (which starts at column 0).
    first_moves: Vec<u8>,
    /// Per node: the slot of its parent in a peeled tree ([`CORE`] for core nodes, [`ROOT`]
    /// for the root of a component that is a tree).
    parent_slot: Vec<u8>,
    /// Number of core nodes: the columns of peeled nodes come after theirs.
    core_len: u32,
    /// Per peeled node, by its column less `core_len`: the nodes in its subtree, itself
    /// included (their columns are `column[v]..column[v] + size`).
    size: Vec<u32>,
    /// Core nodes with hanging trees, and tree roots, with the first column of their trees'
    /// block; increasing columns.
    anchors: Vec<(u32, u32)>,
    /// Later runs of node `v`: runs `first_run.row(v)` (core nodes only).
    first_run: RowStarts,
    /// The runs, sorted within a row, so that a binary search finds a column's run.
    runs: Packed,
}

/// Runs packed as little-endian records `first column << move_bits | moves`: 4 bits of moves
/// when no node has more than four neighbours, else 8; 3 bytes per record when the column
/// fits in the rest of 24 bits (4-connected maps up to a million cells, octile ones up to
/// 65,536). Past that, nodes of more than four neighbours keep one move of each run, as its
/// slot in 3 bits, so that records stay 3 bytes up to 2^21 nodes (a quarter smaller than 4,
/// the runs unchanged); 4 bytes of a whole move set beyond. Comparing records compares first
/// columns.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Packed {
    /// The records, then padding so that any record reads as a whole `u32`.
    bytes: Vec<u8>,
    len: usize,
    width: usize,
    move_bits: u32,
}

/// Padding after the records.
const PAD: usize = 1;

/// Bits of a record that holds one move, as its slot (below [`MAX_DEGREE`]).
const SLOT_BITS: u32 = 3;

impl Packed {
    fn new(width: usize, move_bits: u32) -> Packed {
        Packed { bytes: vec![0; PAD], len: 0, width, move_bits }
    }

    /// The record layout for `nodes` nodes of at most `degree` neighbours.
    fn for_graph(nodes: usize, degree: usize) -> Packed {
        let column_bits = usize::BITS - nodes.leading_zeros();
        match (degree <= 4, column_bits) {
            (true, bits) => Packed::new(if 4 + bits <= 24 { 3 } else { 4 }, 4),
            (false, bits) if 8 + bits <= 24 => Packed::new(3, 8),
            (false, bits) if SLOT_BITS + bits <= 24 => Packed::new(3, SLOT_BITS),
            (false, _) => Packed::new(4, 8),
        }
    }

    /// Whether records hold one move's slot instead of a set of moves.
    fn single(&self) -> bool {
        self.move_bits == SLOT_BITS
    }

    /// Appends a run from column `start` whose moves are `moves` (not empty).
    fn push(&mut self, start: u32, moves: u8) {
        debug_assert!(moves != 0);
        let low = if self.single() { moves.trailing_zeros() as u8 } else { moves };
        let record = start << self.move_bits | u32::from(low);
        self.bytes.truncate(self.bytes.len() - PAD);
        self.bytes.extend_from_slice(&record.to_le_bytes()[..self.width]);
        self.bytes.resize(self.bytes.len() + PAD, 0);
        self.len += 1;
    }

    #[inline]
    fn record(&self, i: usize) -> u32 {
        let at = i * self.width;
        let word = u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("padded"));
        if self.width == 4 { word } else { word & 0x00FF_FFFF }
    }

    #[inline]
    fn start(&self, i: usize) -> u32 {
        self.record(i) >> self.move_bits
    }

    /// The moves of record `i`, as a set of slots.
    #[inline]
    fn moves(&self, i: usize) -> u8 {
        let low = (self.record(i) & ((1 << self.move_bits) - 1)) as u8;
        if self.single() { 1 << low } else { low }
    }

    /// In records `range`, the number of runs starting at or before column `col`.
    ///
    /// A plain binary search. Measured slower (medians of 15 alternating rounds on saved
    /// tables): the same search without branches, by conditional moves (brc202d path steps
    /// 15.6 → 24 ns: the branchy search's speculation runs ahead), and every 16th run's column
    /// copied in front of long rows to search first (Berlin octile 82 → 96 ns a step).
    #[inline]
    fn starting_by(&self, range: core::ops::Range<usize>, col: u32) -> usize {
        let key = (col << self.move_bits) | ((1 << self.move_bits) - 1);
        let (mut lo, mut hi) = (range.start, range.end);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.record(mid) <= key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo - range.start
    }

    fn memory_bytes(&self) -> usize {
        self.bytes.len()
    }
}

/// Queries whose memory [`CompressedGraph::neighbor_to_each`] asks for at a time.
const PREFETCH_GROUP: usize = 16;

/// Bits of a run's first column.
const START_BITS: u32 = 24;

/// One value below 2^24 per node (the columns) in three bytes, read as one unaligned
/// little-endian `u32` and masked (one byte of padding at the end).
#[derive(Debug, Clone, PartialEq, Eq)]
struct U24s {
    bytes: Vec<u8>,
}

impl U24s {
    fn new(values: &[u32]) -> U24s {
        let mut bytes = Vec::with_capacity(3 * values.len() + 1);
        for &v in values {
            debug_assert!(v < 1 << START_BITS);
            bytes.extend_from_slice(&v.to_le_bytes()[..3]);
        }
        bytes.push(0);
        U24s { bytes }
    }

    fn len(&self) -> usize {
        (self.bytes.len() - 1) / 3
    }

    #[inline]
    fn get(&self, i: usize) -> u32 {
        let at = 3 * i;
        u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("padded")) & 0x00FF_FFFF
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// Where each row's runs start: a `u32` per block of 16 rows and a `u16` per row counted
/// from its block's start, 2.25 bytes a row instead of 4. Blocks shrink (down to one row,
/// 6 bytes a row) when a block's rows hold more than 65,535 runs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RowStarts {
    shift: u32,
    base: Vec<u32>,
    offset: Vec<u16>,
}

impl RowStarts {
    /// From the non-decreasing `starts` of each row and the end of the last.
    fn new(starts: &[u32]) -> RowStarts {
        (0..=4)
            .rev()
            .find_map(|shift| {
                let base: Vec<u32> = starts.iter().step_by(1 << shift).copied().collect();
                let offset = starts
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| u16::try_from(s - base[i >> shift]).ok())
                    .collect::<Option<Vec<u16>>>()?;
                Some(RowStarts { shift, base, offset })
            })
            .expect("blocks of one row start at offset 0")
    }

    #[inline]
    fn start(&self, i: usize) -> usize {
        self.base[i >> self.shift] as usize + usize::from(self.offset[i])
    }

    /// Asks for the cache lines [`RowStarts::row`] reads for row `v`.
    #[inline]
    fn prefetch(&self, v: usize) {
        crate::prefetch::prefetch(&self.base[v >> self.shift]);
        crate::prefetch::prefetch(&self.offset[v]);
    }

    /// The runs of row `v`.
    #[inline]
    fn row(&self, v: usize) -> core::ops::Range<usize> {
        self.start(v)..self.start(v + 1)
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.offset.len()).map(|i| self.start(i) as u32)
    }

    fn memory_bytes(&self) -> usize {
        self.base.len() * 4 + self.offset.len() * 2
    }
}

/// [`CompressedGraph::parent_slot`] of a core node.
const CORE: u8 = 0xFF;
/// [`CompressedGraph::parent_slot`] of a tree's root.
const ROOT: u8 = 0xFE;

/// One node's row while it is being built: closed runs and the open one.
#[derive(Debug, Clone, Default)]
struct RowBuilder {
    runs: Vec<(u32, u8)>,
    start: u32,
    moves: u8,
}

impl RowBuilder {
    /// Adds the entry `mask` of the next target, column `col`.
    #[inline]
    fn push(&mut self, col: u32, mask: u8) {
        if mask == 0 {
            return; // no move: fits any run
        }
        if self.moves & mask == 0 {
            if self.moves != 0 {
                self.runs.push((self.start, self.moves));
                self.start = col;
            }
            self.moves = mask;
        } else {
            self.moves &= mask;
        }
    }

    /// Adds the entries of columns `first..first + len`, given as one bitmap per move: bit `p`
    /// of `masks[i * words..(i + 1) * words]` (`words = len.div_ceil(64)`) set when move `i`
    /// (of `moves`) is optimal toward column `first + p`; bits from `len` on are zero. Folds
    /// exactly as [`RowBuilder::push`] entry by entry, but only looks at the entries where
    /// the open run changes: those holding no move are skipped, and those holding every move
    /// of the open run only keep it, so a word of 64 entries is one test per move of the run.
    fn push_masks(&mut self, first: u32, len: usize, masks: &[u64], moves: usize) {
        let words = len.div_ceil(64);
        debug_assert!(masks.len() >= moves * words);
        let mut pos = 0;
        while pos < len {
            // The next entry at or after `pos` that changes the open run.
            let mut x = pos / 64;
            let mut low = !0u64 << (pos % 64);
            let q = loop {
                if x == words {
                    return;
                }
                let any = (0..moves).fold(0, |u, i| u | masks[i * words + x]);
                let changes = if self.moves == 0 {
                    any
                } else {
                    (0..moves)
                        .filter(|&i| self.moves >> i & 1 == 1)
                        .fold(0, |c, i| c | (any & !masks[i * words + x]))
                };
                let changes = changes & low;
                if changes != 0 {
                    break x * 64 + changes.trailing_zeros() as usize;
                }
                x += 1;
                low = !0;
            };
            let entry =
                (0..moves).fold(0u8, |e, i| e | (((masks[i * words + q / 64] >> (q % 64)) & 1) as u8) << i);
            self.push(first + q as u32, entry);
            pos = q + 1;
        }
    }

    fn finish(mut self) -> Vec<(u32, u8)> {
        if self.moves != 0 {
            self.runs.push((self.start, self.moves));
        }
        self.runs
    }
}

impl GraphBuilder {
    /// Builds a compressed oracle (see [`compressed`](crate::compressed)): far smaller than
    /// [`GraphBuilder::build`]'s dense table on large maps, queries by binary search.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for graphs with one-way arcs and for nodes of more than
    /// [`MAX_DEGREE`] neighbours; [`Error::TooManyArcs`].
    ///
    /// ```
    /// let builder = signposts::generate::grid(20, 20, signposts::generate::Connectivity::Four);
    /// let compressed = builder.build_compressed()?;
    /// let dense = builder.build();
    /// assert_eq!(compressed.distance(0, 399), dense.distance(0, 399));
    /// assert_eq!(compressed.neighbor_to(0, 1), Some(1));
    /// assert!(compressed.memory_bytes() < dense.memory_bytes());
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_compressed(&self) -> Result<CompressedGraph, Error> {
        self.build_compressed_with_progress(|_| {})
    }

    /// As [`GraphBuilder::build_compressed`], calling `progress` as batches of targets finish.
    ///
    /// # Errors
    /// As [`GraphBuilder::build_compressed`].
    pub fn build_compressed_with_progress(
        &self,
        progress: impl Fn(Progress) + Sync,
    ) -> Result<CompressedGraph, Error> {
        self.build_compressed_using(progress, build::Avx2::detect(), build::Vbmi::detect(), WAVE_BYTES)
    }

    /// [`GraphBuilder::build_compressed_with_progress`], with the engines' AVX2 copies when
    /// `avx2` is given, and the search buffers sized by `wave_bytes` (see
    /// [`batches_per_worker`]); the tables are the same either way.
    pub(crate) fn build_compressed_using(
        &self,
        progress: impl Fn(Progress) + Sync,
        avx2: Option<build::Avx2>,
        vbmi: Option<build::Vbmi>,
        wave_bytes: usize,
    ) -> Result<CompressedGraph, Error> {
        if self.is_directed() {
            return Err(Error::Unsupported { what: "compressed tables of graphs with one-way arcs" });
        }
        let weighted = self.is_weighted();
        let n = self.nodes_len();
        if n >= 1 << START_BITS {
            return Err(Error::Unsupported { what: "compressed tables of more than 2^24 nodes" });
        }
        let mut rows = Vec::with_capacity(n);
        let mut heads = Vec::with_capacity(self.arcs_len());
        let mut costs = Vec::new();
        for v in 0..n {
            let list = self.neighbors(v as NodeId);
            if weighted {
                costs.extend(self.costs_of(v));
            }
            if list.len() > MAX_DEGREE {
                return Err(Error::Unsupported {
                    what: "compressed tables of nodes with more than 8 neighbours",
                });
            }
            let first = u32::try_from(heads.len())
                .map_err(|_| Error::TooManyArcs { arcs: self.arcs_len(), max: u32::MAX as usize })?;
            rows.push(crate::table::NodeRow { word: 0, first, deg: list.len() as u32 });
            heads.extend_from_slice(list);
        }
        let offsets: Vec<u32> =
            rows.iter().map(|r| r.first).chain(core::iter::once(heads.len() as u32)).collect();
        let (mut component, components) = components::label(&rows, &heads);
        // Trees hanging off the core need no row (see `build::peel`): the core is searched,
        // its targets in depth-first order (half the runs of the dense build's ball order on
        // Moving AI maps, for a build about a third slower), then each anchor's trees.
        let mut peel = build::peel::peel(&rows, &heads);
        let mut order = build::order::dfs_order(
            n,
            |v| &heads[offsets[v] as usize..offsets[v + 1] as usize],
            &peel.peeled,
        );
        peel.order_trees(&rows, &heads, &mut order);
        let mut column = vec![0u32; n];
        for (c, &node) in order.iter().enumerate() {
            column[node as usize] = c as u32;
        }
        let parent_slot: Vec<u8> = (0..n)
            .map(|v| match (peel.peeled[v], peel.parent[v]) {
                (false, _) => CORE,
                (true, build::peel::NONE) => ROOT,
                (true, p) => heads[offsets[v] as usize..offsets[v + 1] as usize]
                    .binary_search(&p)
                    .expect("the parent is a neighbour") as u8,
            })
            .collect();
        let size: Vec<u32> = order[peel.core_len..].iter().map(|&v| peel.size[v as usize]).collect();
        let padded = if weighted { Vec::new() } else { build::bfs::padded(&offsets, &heads, &peel.peeled) };
        let adjacency = Adjacency {
            offsets: &offsets,
            heads: &heads,
            in_offsets: &offsets,
            tails: &heads,
            component: &component,
            peeled: &peel.peeled,
            padded: &padded,
        };
        let core = &order[..peel.core_len];
        let row_builders = if weighted {
            let exact: Vec<Cost> = costs.iter().map(|&c| self.model().cost(c)).collect();
            let arcs = build::dijkstra::Arcs {
                offsets: &offsets,
                heads: &heads,
                cost: &exact,
                in_offsets: &offsets,
                incoming: &[],
                tails: &[],
                integer: self.model() == CostModel::Integer,
                symmetric: true,
                skip: &peel.peeled,
            };
            let bitalg = vbmi.and_then(build::Bitalg::detect);
            fill_runs_weighted(arcs, core, &column, &progress, (avx2, bitalg), wave_bytes)
        } else {
            fill_runs_unit(adjacency, core, &column, &progress, (avx2, vbmi), wave_bytes)
        };
        if components <= 1 {
            component = Vec::new();
        }
        let degree = (0..n).map(|v| offsets[v + 1] - offsets[v]).max().unwrap_or(0) as usize;
        let (first_moves, first_run, runs) = pack(row_builders, Packed::for_graph(n, degree))?;
        let (column, first_run) = (U24s::new(&column), RowStarts::new(&first_run));
        Ok(CompressedGraph {
            offsets,
            heads,
            costs,
            model: self.model(),
            column,
            component,
            first_moves,
            parent_slot,
            core_len: peel.core_len as u32,
            size,
            anchors: peel.anchors,
            first_run,
            runs,
        })
    }
}

/// Stores finished rows: each row's first run's moves, the index of its later runs, the runs.
fn pack(rows: Vec<RowBuilder>, mut runs: Packed) -> Result<(Vec<u8>, Vec<u32>, Packed), Error> {
    let mut first_moves = Vec::with_capacity(rows.len());
    let mut first_run = Vec::with_capacity(rows.len() + 1);
    let index =
        |len: usize| u32::try_from(len).map_err(|_| Error::Unsupported { what: "more than 2^32 runs" });
    for row in rows {
        let row = row.finish();
        first_moves.push(row.first().map_or(0, |&(_, moves)| moves));
        first_run.push(index(runs.len)?);
        for &(start, moves) in row.iter().skip(1) {
            runs.push(start, moves);
        }
    }
    first_run.push(index(runs.len)?);
    runs.bytes.shrink_to_fit();
    Ok((first_moves, first_run, runs))
}

/// Batches searched per wave of [`in_waves`] when each worker takes `wave`.
fn wave_batches(wave: usize) -> usize {
    #[cfg(feature = "parallel")]
    let wave = wave * rayon::current_num_threads();
    wave.max(1)
}

/// Bytes the searches' buffers may take: each worker takes as many batches a wave
/// (from 2 to 8) as fit in it.
const WAVE_BYTES: usize = 512 << 20;

/// Batches per worker in a wave of a build whose searches leave `batch_bytes` each, within
/// `wave_bytes` ([`WAVE_BYTES`] but in tests).
///
/// The workers wait at the end of each wave for its slowest batch; more batches a wave wait
/// less often. On 2 cores, 8 batches a worker against 2 (medians of 2 alternating runs):
/// random512-10-0 61.7 → 55.9 s, `64room_000` 55.2 → 52.5 s (buffers of 483 and 504 MB);
/// brc202d's octile build, 8 against 4: 10.6 s against 10.7–11.4 s.
fn batches_per_worker(wave_bytes: usize, batch_bytes: usize) -> usize {
    (wave_bytes / wave_batches(1).saturating_mul(batch_bytes).max(1)).clamp(2, 8)
}

/// Searches the `total` batches a wave at a time (`wave` per worker), each into its own
/// buffer by `search(scratch, batch, buffer)` on all cores, then folds each wave into the
/// rows in target order by `fold(scratch, node, row, first batch of the wave, buffers)`, nodes
/// on all cores.
///
/// Each batch takes fresh scratch (`scratch()`, zeroed just before its search): reusing a
/// worker's scratch across batches measured 1.5× slower on AR0602SR and random512-40-0. On 2
/// cores, with 2 batches a worker, the workers waited for a wave's slowest batch about 16% of
/// the search time (larger waves wait less: [`batches_per_worker`]); searching the next wave
/// while folding this one (two sets of buffers, `rayon::join`) measured 8% slower.
fn in_waves<S, B: Default + Send + Sync, F: Default>(
    n: usize,
    total: usize,
    wave: usize,
    scratch: impl Fn() -> S + Sync + Send,
    search: impl Fn(&mut S, usize, &mut B) + Sync + Send,
    fold: impl Fn(&mut F, usize, &mut RowBuilder, usize, &[B]) + Sync + Send,
) -> Vec<RowBuilder> {
    let wave = wave_batches(wave);
    let mut rows = vec![RowBuilder::default(); n];
    let mut buffers: Vec<B> = (0..wave).map(|_| B::default()).collect();
    for first_batch in (0..total).step_by(wave) {
        let used = &mut buffers[..wave.min(total - first_batch)];
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            used.par_iter_mut()
                .enumerate()
                .for_each_init(&scratch, |s, (i, b)| search(s, first_batch + i, b));
        }
        #[cfg(not(feature = "parallel"))]
        {
            let mut s = scratch();
            for (i, b) in used.iter_mut().enumerate() {
                search(&mut s, first_batch + i, b);
            }
        }
        let used = &*used;
        let fold_node = |scratch: &mut F, (v, row): (usize, &mut RowBuilder)| {
            fold(scratch, v, row, first_batch, used);
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            rows.par_iter_mut().enumerate().with_min_len(1024).for_each_init(F::default, fold_node);
        }
        #[cfg(not(feature = "parallel"))]
        {
            let mut scratch = F::default();
            rows.iter_mut().enumerate().for_each(|node| fold_node(&mut scratch, node));
        }
    }
    rows
}

/// As [`fill_runs_lanes`], for arc costs: one exact Dijkstra search per target, 64 targets a
/// batch (the dense build's weighted engine); a batch leaves one mask of targets per arc.
///
/// Octile grids are searched 32 targets at a time ([`build::levels`]), and a group costs time
/// in proportion to how many levels its nodes stay live, about its targets' spread: the
/// targets are regrouped within spans of the column order, and the fold puts each node's bits
/// back in column order. With `bitalg` (AVX-512 with byte permutes and bit shuffles) single
/// targets are regrouped, by recursive bisection ([`build::order::bisected_batches`]) within
/// spans of up to 512 ([`BitPlan`]), and the fold moves 64 bits with two instructions;
/// otherwise octets, in balls within each wave ([`build::order::compact_batches`]), moved a
/// byte at a time.
///
/// Measured on 2 cores with AVX-512 (the same tables), looks per node and target: balls of
/// octets within waves of 1,024, balls of single targets within spans of 512, and bisection
/// within spans of 512 (cut by distance from one end of the path, then along it): brc202d
/// 0.546, 0.443, 0.392, 0.374; AR0602SR 0.459, 0.405, 0.356, 0.339; lak303d 0.468, 0.411,
/// 0.365, 0.344; 192×192 corners of random512-10-0 (balls and bisection) 0.424, 0.358, 0.331,
/// of `64room_000` 0.264, 0.238, 0.239, of maze512-4-0 0.113, 0.112, 0.107. Balls of single
/// targets within spans of 256, 1,024, 4,096 and 16,384 made 0.414, 0.438, 0.473 and 0.477
/// looks on random512-10-0's corner (the last balls of a span take what is left, ragged);
/// bisection within spans of 2,048 and 16,384, 0.350 and 0.352 (by distance from one end). Earlier, with 16 targets a
/// search, lak303d's nodes stayed live 10.2 levels a search for runs of the column order,
/// 10.0 for balls of octets, 9.2 for balls of single targets, whose bits a fold moving one at
/// a time then ate the time saved (brc202d 11.6 s against 10.8–12.1 s).
fn fill_runs_weighted(
    g: build::dijkstra::Arcs<'_>,
    order: &[NodeId],
    column: &[u32],
    progress: &(dyn Fn(Progress) + Sync),
    (avx2, bitalg): (Option<build::Avx2>, Option<build::Bitalg>),
    wave_bytes: usize,
) -> Vec<RowBuilder> {
    const WIDTH: usize = build::dijkstra::BATCH;
    let n = g.offsets.len() - 1;
    let total = order.len().div_ceil(WIDTH);
    let wave = batches_per_worker(wave_bytes, g.heads.len() * core::mem::size_of::<u64>());
    let neighbors = |v: usize| &g.heads[g.offsets[v] as usize..g.offsets[v + 1] as usize];
    // With bit shuffles, groups of single targets cut by bisection within spans of up to 512
    // columns; else balls of octets within each wave.
    let (span, batched) = if bitalg.is_some() {
        let span = bit_span(wave_batches(wave));
        (span, build::order::bisected_batches(neighbors, order, column, span, build::levels::LANES))
    } else {
        let span = wave_batches(wave) * WIDTH;
        (span, build::order::compact_batches(neighbors, order, column, span, build::levels::LANES, OCTET))
    };
    let done = AtomicUsize::new(0);
    let search = |scratch: &mut build::dijkstra::Scratch<'_>, batch: usize, acc: &mut Vec<u64>| {
        let first = batch * WIDTH;
        scratch.search_batch(g, &batched[first..batched.len().min(first + WIDTH)], acc);
        progress(Progress { done: done.fetch_add(1, Ordering::Relaxed) + 1, total });
    };
    let prepared = build::dijkstra::Prepared::new(g, n);
    let scratch = || build::dijkstra::Scratch::new(&prepared, n, avx2);
    // A batch's masks are one bitmap of its 64 searched targets per arc: per node, one word
    // per move.
    #[cfg(target_arch = "x86_64")]
    if let Some(bitalg) = bitalg {
        let plans = BitPlan::plan(&batched, column, span);
        let fold = |bitmaps: &mut Vec<u64>,
                    v: usize,
                    row: &mut RowBuilder,
                    first_batch: usize,
                    wave: &[Vec<u64>]| {
            let arcs = g.offsets[v] as usize..g.offsets[v + 1] as usize;
            let start = first_batch * WIDTH;
            bitmaps.clear();
            bitmaps.resize(arcs.len() * wave.len(), 0);
            vbmi::fold_bits(bitalg, &plans[start / span..], span / 64, arcs.clone(), wave, bitmaps);
            let end = order.len().min(start + wave.len() * WIDTH);
            row.push_masks(start as u32, end - start, bitmaps, arcs.len());
        };
        return in_waves(n, total, wave, scratch, search, fold);
    }
    let octet_slot = octet_slots(&batched, column, span);
    let fold = |(bytes, bitmaps): &mut (Vec<u8>, Vec<u64>),
                v: usize,
                row: &mut RowBuilder,
                first_batch: usize,
                wave: &[Vec<u64>]| {
        let arcs = g.offsets[v] as usize..g.offsets[v + 1] as usize;
        let start = first_batch * WIDTH;
        let end = order.len().min(start + wave.len() * WIDTH);
        let mut octets = OctetFold::new(bytes, start, end, arcs.len());
        for (b, acc) in wave.iter().enumerate() {
            let masks = acc[arcs.clone()].iter().map(core::slice::from_ref);
            octets.scatter(masks, &octet_slot, start + b * WIDTH, WIDTH);
        }
        octets.push(bitmaps, row);
    };
    in_waves(n, total, wave, scratch, search, fold)
}

/// Columns a span of the weighted fold with bit shuffles, for waves of `batches` batches: the
/// most batches, up to 8 (one 512-bit vector of masks), that divide the wave, so that no span
/// crosses waves.
fn bit_span(batches: usize) -> usize {
    (1..=8).rev().find(|d| batches.is_multiple_of(*d)).unwrap_or(1) * 64
}

/// Where each bit of one span of columns comes from in its batches' masks (up to 8 batches of
/// 64 searched targets, one 512-bit vector), for the weighted fold with bit shuffles: bit `b`
/// of the span's word `k` is bit `bit[k][b] % 8` of byte `index[k][b]` of the vector (`bit`
/// as the shuffle takes it, counted within the byte's quadword), when bit `b` of `valid[k]`
/// is set.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone)]
struct BitPlan {
    index: [[u8; 64]; 8],
    bit: [[u8; 64]; 8],
    valid: [u64; 8],
}

#[cfg(target_arch = "x86_64")]
impl BitPlan {
    /// The plans of the spans of `span` columns, for targets searched in the order `batched`
    /// (a regrouping within those spans: [`build::order::bisected_batches`]).
    fn plan(batched: &[NodeId], column: &[u32], span: usize) -> Vec<BitPlan> {
        debug_assert!(span <= 512 && span.is_multiple_of(64));
        batched
            .chunks(span)
            .enumerate()
            .map(|(s, searched)| {
                let mut plan = BitPlan { index: [[0; 64]; 8], bit: [[0; 64]; 8], valid: [0; 8] };
                for (q, &v) in searched.iter().enumerate() {
                    let o = column[v as usize] as usize - s * span;
                    debug_assert!(o < span, "a target stays in its span");
                    let (k, b) = (o / 64, o % 64);
                    plan.index[k][b] = (q / 8) as u8;
                    plan.bit[k][b] = (8 * (b % 8) + q % 8) as u8;
                    plan.valid[k] |= 1 << b;
                }
                plan
            })
            .collect()
    }
}

/// Where each searched octet goes in its wave's bitmaps, in bytes, for targets searched in the
/// order `batched` ([`build::order::compact_batches`] within spans of `span` columns): every
/// octet stays in its span, which is its wave.
fn octet_slots(batched: &[NodeId], column: &[u32], span: usize) -> Vec<u32> {
    batched.iter().step_by(OCTET).map(|&v| (column[v as usize] as usize % span / OCTET) as u32).collect()
}

/// One node's bitmaps of a wave of columns `start..end`, one per move, put back in column
/// order an octet (a byte) at a time by plain byte stores, each byte written once (ORs into
/// words chained a read-modify-write per octet through memory).
struct OctetFold<'a> {
    bytes: &'a mut Vec<u8>,
    start: usize,
    end: usize,
    stride: usize,
    moves: usize,
}

impl<'a> OctetFold<'a> {
    /// Empty bitmaps of `moves` moves, in `bytes`.
    fn new(bytes: &'a mut Vec<u8>, start: usize, end: usize, moves: usize) -> OctetFold<'a> {
        let stride = (end - start).div_ceil(64) * 8;
        bytes.clear();
        bytes.resize(moves * stride, 0);
        OctetFold { bytes, start, end, stride, moves }
    }

    /// Writes the octets of the batch of `width` searched targets from position `first` on
    /// (in the order [`octet_slots`] was given): `masks` yields one bitmap per move, in words.
    fn scatter<'m>(
        &mut self,
        masks: impl Iterator<Item = &'m [u64]>,
        octet_slot: &[u32],
        first: usize,
        width: usize,
    ) {
        let slots = &octet_slot[first / OCTET..self.end.div_ceil(OCTET).min((first + width) / OCTET)];
        for (mask, to) in masks.zip(self.bytes.chunks_exact_mut(self.stride)) {
            for (o, &slot) in slots.iter().enumerate() {
                to[slot as usize] = (mask[o / 8] >> (8 * (o % 8))) as u8;
            }
        }
    }

    /// Adds the bitmaps' entries to `row` (`bitmaps` is scratch).
    fn push(self, bitmaps: &mut Vec<u64>, row: &mut RowBuilder) {
        bitmaps.clear();
        bitmaps.extend(
            self.bytes.chunks_exact(8).map(|word| u64::from_le_bytes(word.try_into().expect("8 bytes"))),
        );
        row.push_masks(self.start as u32, self.end - self.start, bitmaps, self.moves);
    }
}

/// Targets that move together between the column order and the searched order
/// ([`build::order::compact_batches`]'s units): the fold moves a byte of each move's bitmap
/// at a time. Against single targets, nodes stay live about 9% more levels (brc202d).
const OCTET: usize = 8;

/// One search's output in [`fill_runs_lanes`]: move lanes per node, and which nodes it reached.
#[derive(Debug, Default)]
struct SearchLanes<const LANES: usize> {
    lanes: Vec<[u64; LANES]>,
    reached: Vec<u64>,
}

impl<const LANES: usize> SearchLanes<LANES> {
    /// Node `v`'s lanes, one per move of its `degree` (`stride` lanes kept per node), or
    /// `None` when the search did not reach it (its lanes are then stale).
    fn of(&self, v: usize, stride: usize, degree: usize) -> Option<&[[u64; LANES]]> {
        (self.reached[v / 64] & (1 << (v % 64)) != 0).then(|| &self.lanes[v * stride..v * stride + degree])
    }
}

/// [`fill_runs_lanes`] in batches of 256 targets with AVX2, 128 without; `vbmi` is only
/// used with AVX2 (the byte permutes take lanes of 256 targets).
fn fill_runs_unit(
    g: Adjacency<'_>,
    order: &[NodeId],
    column: &[u32],
    progress: &(dyn Fn(Progress) + Sync),
    (avx2, vbmi): (Option<build::Avx2>, Option<build::Vbmi>),
    wave_bytes: usize,
) -> Vec<RowBuilder> {
    match avx2 {
        Some(avx2) => fill_runs_lanes::<4>(g, order, column, progress, (Some(avx2), vbmi), wave_bytes),
        None => fill_runs_lanes::<2>(g, order, column, progress, (None, None), wave_bytes),
    }
}

/// Searches the targets in batches of `64 · LANES` (a wave of batches at a time, on all
/// cores) and folds each wave's entries into the rows, in target order; with `avx2`, the
/// searches run the engine's copy compiled for AVX2.
///
/// The unit build runs batches of 256 with AVX2 and 128 without. Measured on AR0602SR (one
/// thread, searches alone, ns per node and target, medians of 3 alternating runs): 3.83 for
/// 128 and 3.50 for 256 without AVX2, 3.37 and 2.65 with it (a lane of 256 targets is one
/// AVX2 instruction; a node's state, 64 bytes, one cache line); whole builds 10.5 s (128,
/// without) against 8.9 s (256 with the AVX2 copy of the engine). Without AVX2, 256 measured
/// no faster on 2 cores (random512-40-0 44 s against 43 s), and 64 slower (AR0602SR 20 s
/// against 11–12 s for 128).
///
/// The fold puts each batch's octets back in column order. With `vbmi` (AVX-512 with byte
/// permutes, detected at run time, and lanes of 256 targets) a move's bitmap of a wave is
/// built 64 bytes at a time, each from the lanes of up to four batches by one masked permute
/// ([`Gather`], planned once per wave); otherwise a byte at a time. AR0602SR's whole build
/// 6.20 → 5.18 s, random512-40-0 12.4 → 11.8 s (medians of 3 alternating runs, 2 cores); the
/// byte-at-a-time fold had taken 23% of AR0602SR's build.
///
/// Tried and dropped: regrouping the column order itself into the searched balls, so that
/// the fold would need no permutation (43–64% more runs: brc202d 387,707 → 554,721, AR0602SR
/// 813,170 → 1,261,133; no faster); 512 targets a batch compiled for AVX-512 (AR0602SR's
/// searches 4.3–4.6 s → 7.0–7.2 s); streaming (non-temporal) stores of the searches' output
/// lanes (no faster).
fn fill_runs_lanes<const LANES: usize>(
    g: Adjacency<'_>,
    order: &[NodeId],
    column: &[u32],
    progress: &(dyn Fn(Progress) + Sync),
    (avx2, vbmi): (Option<build::Avx2>, Option<build::Vbmi>),
    wave_bytes: usize,
) -> Vec<RowBuilder> {
    let n = g.nodes();
    // Move bitmaps kept per node: as many as the largest degree.
    let moves = (0..n).map(|v| g.arcs(v).len()).max().unwrap_or(0);
    let wave = batches_per_worker(wave_bytes, n * moves * core::mem::size_of::<[u64; LANES]>());
    let width = 64 * LANES;
    let total = order.len().div_ceil(width);
    let waves = wave_batches(wave);
    let span = waves * width;
    let batched = build::order::compact_batches(|v| &g.heads[g.arcs(v)], order, column, span, width, OCTET);
    let octet_slot = octet_slots(&batched, column, span);
    // With byte permutes (lanes of 32 bytes only), each wave's plan of them.
    #[cfg(target_arch = "x86_64")]
    let (vbmi, plans) = {
        let vbmi = vbmi.filter(|_| LANES == 4);
        let plans: Vec<Vec<Gather>> = if vbmi.is_some() {
            (0..total)
                .step_by(waves)
                .map(|first_batch| {
                    let start = first_batch * width;
                    Gather::plan(start, order.len().min(start + span), width, &octet_slot)
                })
                .collect()
        } else {
            Vec::new()
        };
        (vbmi, plans)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = vbmi;
    let done = AtomicUsize::new(0);
    // Per node, `moves` lanes: bit `j` of lane `i` set when move `i` is optimal toward target
    // `j` of the batch; valid for the nodes set in `reached` (the others hold stale lanes, which
    // saves a memset of the whole buffer per batch: 8% of AR0602SR's build).
    let search = |bfs: &mut build::bfs::BfsBatch<LANES>, batch: usize, buffer: &mut SearchLanes<LANES>| {
        let SearchLanes { lanes, reached } = buffer;
        lanes.resize(n * moves, [0; LANES]);
        reached.clear();
        reached.resize(n.div_ceil(64), 0);
        let first = batch * width;
        let targets = &batched[first..batched.len().min(first + width)];
        bfs.run_into(avx2, g, targets, lanes, moves, reached);
        progress(Progress { done: done.fetch_add(1, Ordering::Relaxed) + 1, total });
    };
    let fold = |(bytes, bitmaps): &mut (Vec<u8>, Vec<u64>),
                v: usize,
                row: &mut RowBuilder,
                first_batch: usize,
                wave: &[SearchLanes<LANES>]| {
        // The wave's bitmaps of `v`, one per move, back in column order: 64 bytes at a time
        // with byte permutes, else an octet (a byte) at a time by plain byte stores, each byte
        // written once (ORs into words chained a read-modify-write per octet through memory).
        let degree = g.arcs(v).len();
        let start = first_batch * width;
        let end = order.len().min(start + wave.len() * width);
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = vbmi {
            let words = (end - start).div_ceil(64);
            bitmaps.clear();
            bitmaps.resize(degree * words, 0);
            // Batch `b`'s lanes of `v`, when it reached `v` (a wave's last batches may be missing).
            let lanes = |b: usize| wave.get(b)?.of(v, moves, degree).map(<[[u64; LANES]]>::as_flattened);
            vbmi::fold(token, &plans[first_batch / waves], lanes, words, bitmaps);
            row.push_masks(start as u32, end - start, bitmaps, degree);
            return;
        }
        let mut octets = OctetFold::new(bytes, start, end, degree);
        for (b, search) in wave.iter().enumerate() {
            let Some(lanes) = search.of(v, moves, degree) else { continue };
            octets.scatter(lanes.iter().map(<[u64; LANES]>::as_slice), &octet_slot, start + b * width, width);
        }
        octets.push(bitmaps, row);
    };
    in_waves(n, total, wave, || build::bfs::BfsBatch::<LANES>::new(n), search, fold)
}

/// Where the bytes of one 64-byte chunk of a move's bitmap (a wave's columns, in order) come
/// from in one quad of the wave's batches (their lanes of that move, 4 × 32 bytes), for the
/// fold with byte permutes: byte `k` of the chunk is byte `index[k]` of the quad when bit `k`
/// of `mask` is set.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone)]
struct Gather {
    chunk: usize,
    quad: usize,
    index: [u8; 64],
    mask: u64,
}

#[cfg(target_arch = "x86_64")]
impl Gather {
    /// The gathers of the wave of columns `start..end`, searched in batches of `width` (256)
    /// targets whose octets go to the bytes `octet_slot` gives.
    fn plan(start: usize, end: usize, width: usize, octet_slot: &[u32]) -> Vec<Gather> {
        debug_assert_eq!(width, 256, "lanes of 32 bytes");
        let mut plan: Vec<Gather> = Vec::new();
        for (b, first) in (start..end).step_by(width).enumerate() {
            let octets = (end.min(first + width) - first).div_ceil(OCTET);
            for (o, &slot) in octet_slot[first / OCTET..][..octets].iter().enumerate() {
                let (chunk, quad) = (slot as usize / 64, b / 4);
                let at = if let Some(at) = plan.iter().position(|g| g.chunk == chunk && g.quad == quad) {
                    at
                } else {
                    plan.push(Gather { chunk, quad, index: [0; 64], mask: 0 });
                    plan.len() - 1
                };
                plan[at].index[slot as usize % 64] = ((b % 4) * 32 + o) as u8;
                plan[at].mask |= 1 << (slot % 64);
            }
        }
        plan
    }
}

/// The fold's byte permutes with AVX-512 (F, BW, VBMI).
#[cfg(target_arch = "x86_64")]
mod vbmi {
    use core::arch::x86_64::{
        __m256i, _mm256_loadu_si256, _mm256_setzero_si256, _mm512_castsi256_si512, _mm512_inserti64x4,
        _mm512_loadu_si512, _mm512_mask_bitshuffle_epi64_mask, _mm512_mask_storeu_epi64,
        _mm512_maskz_loadu_epi64, _mm512_maskz_permutex2var_epi8, _mm512_or_si512, _mm512_permutexvar_epi8,
        _mm512_setzero_si512,
    };
    use core::ops::Range;

    use super::{BitPlan, Gather};
    use crate::build::{Bitalg, Vbmi};

    /// Writes a wave's bitmaps of one node (`bitmaps`, zeros on entry: `words` per move, one
    /// move after the other) from `lanes(b)`, the node's lanes in batch `b` of the wave (`None`
    /// when that batch did not reach it: zeros), by the wave's `plan`.
    ///
    /// # Panics
    /// If a batch's lanes are not 4 words per move of `bitmaps`, or the plan points past them.
    pub(super) fn fold<'a>(
        token: Vbmi,
        plan: &[Gather],
        lanes: impl Fn(usize) -> Option<&'a [u64]>,
        words: usize,
        bitmaps: &mut [u64],
    ) {
        assert!(plan.iter().all(|g| g.chunk * 8 < words), "a chunk within the bitmap");
        // SAFETY: the token exists only when the processor has AVX-512 F, BW and VBMI.
        unsafe { fold_vbmi(token, plan, lanes, words, bitmaps) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn fold_vbmi<'a>(
        _: Vbmi,
        plan: &[Gather],
        lanes: impl Fn(usize) -> Option<&'a [u64]>,
        words: usize,
        bitmaps: &mut [u64],
    ) {
        let moves = bitmaps.len() / words;
        for g in plan {
            let quad: [Option<&[u64]>; 4] = core::array::from_fn(|i| lanes(4 * g.quad + i));
            assert!(quad.iter().flatten().all(|lane| lane.len() == 4 * moves), "4 words a move");
            // SAFETY: `index` is 64 bytes.
            let index = unsafe { _mm512_loadu_si512(g.index.as_ptr().cast()) };
            let at = g.chunk * 8;
            let count = (words - at).min(8);
            let keep = if count == 8 { u8::MAX } else { (1u8 << count) - 1 };
            for m in 0..moves {
                let lane = |l: Option<&[u64]>| match l {
                    // SAFETY: the slice holds the 32 bytes read (an unaligned load).
                    #[expect(clippy::cast_ptr_alignment, reason = "an unaligned load")]
                    Some(words) => unsafe {
                        _mm256_loadu_si256(words[4 * m..4 * m + 4].as_ptr().cast::<__m256i>())
                    },
                    None => _mm256_setzero_si256(),
                };
                let low = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lane(quad[0])), lane(quad[1]));
                let high = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lane(quad[2])), lane(quad[3]));
                let bytes = _mm512_maskz_permutex2var_epi8(g.mask, low, index, high);
                let to = &mut bitmaps[m * words + at..m * words + at + count];
                // SAFETY: `to` holds `count` words, the bits of `keep`.
                unsafe {
                    let old = _mm512_maskz_loadu_epi64(keep, to.as_ptr().cast());
                    _mm512_mask_storeu_epi64(to.as_mut_ptr().cast(), keep, _mm512_or_si512(old, bytes));
                }
            }
        }
    }

    /// Writes one node's bitmaps of a wave (`bitmaps`: one word per move and batch, one move
    /// after the other) from its arcs' masks in each of the wave's batches (`wave`), by the
    /// plans of the wave's spans of `span_words` batches (`plans`, from the wave's first span
    /// on).
    ///
    /// # Panics
    /// If `bitmaps` is not one word per arc and batch, a node has more than 8 arcs, or `plans`
    /// has too few spans.
    pub(super) fn fold_bits(
        token: Bitalg,
        plans: &[BitPlan],
        span_words: usize,
        arcs: Range<usize>,
        wave: &[Vec<u64>],
        bitmaps: &mut [u64],
    ) {
        assert_eq!(bitmaps.len(), arcs.len() * wave.len(), "a word per arc and batch");
        assert!(arcs.len() <= 8 && (1..=8).contains(&span_words), "8 moves and 8 words a span at most");
        assert!(plans.len() >= wave.len().div_ceil(span_words), "a plan per span");
        assert!(wave.iter().all(|acc| acc.len() >= arcs.end), "masks of the arcs");
        // SAFETY: the token exists only when the processor has AVX-512 F, BW, VBMI and BITALG.
        unsafe { fold_bits_bitalg(token, plans, span_words, arcs, wave, bitmaps) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    fn fold_bits_bitalg(
        _: Bitalg,
        plans: &[BitPlan],
        span_words: usize,
        arcs: Range<usize>,
        wave: &[Vec<u64>],
        bitmaps: &mut [u64],
    ) {
        let words = wave.len();
        let moves = arcs.len();
        let mut sources = [_mm512_setzero_si512(); 8];
        for (s, (batches, plan)) in wave.chunks(span_words).zip(plans).enumerate() {
            // Each move's masks of the span's batches, as one vector.
            for (source, a) in sources.iter_mut().zip(arcs.clone()) {
                let mut masks = [0u64; 8];
                for (mask, acc) in masks.iter_mut().zip(batches) {
                    *mask = acc[a];
                }
                // SAFETY: `masks` is 64 bytes.
                *source = unsafe { _mm512_loadu_si512(masks.as_ptr().cast()) };
            }
            for k in 0..batches.len() {
                // SAFETY: each plan row is 64 bytes.
                let (index, bit) = unsafe {
                    (
                        _mm512_loadu_si512(plan.index[k].as_ptr().cast()),
                        _mm512_loadu_si512(plan.bit[k].as_ptr().cast()),
                    )
                };
                for (m, &source) in sources[..moves].iter().enumerate() {
                    let bytes = _mm512_permutexvar_epi8(index, source);
                    bitmaps[m * words + s * span_words + k] =
                        _mm512_mask_bitshuffle_epi64_mask(plan.valid[k], bytes, bit);
                }
            }
        }
    }
}

impl CompressedGraph {
    /// Number of nodes.
    #[must_use]
    pub fn nodes_len(&self) -> usize {
        self.column.len()
    }

    /// Number of edges (each undirected edge once).
    #[must_use]
    pub fn edges_len(&self) -> usize {
        self.heads.len() / 2
    }

    /// Nodes with a row: the core left after peeling trees.
    #[must_use]
    pub fn core_len(&self) -> usize {
        self.core_len as usize
    }

    /// Runs stored, over all rows (a row's first run included).
    #[must_use]
    pub fn runs_len(&self) -> usize {
        self.runs.len + self.first_moves.iter().filter(|&&m| m != 0).count()
    }

    /// Bytes held: runs (3 or 4 bytes each, a row's first 1 byte), row and arc indices,
    /// labels, peeled trees.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.first_moves.len()
            + self.parent_slot.len()
            + self.size.len() * 4
            + self.anchors.len() * 8
            + self.runs.memory_bytes()
            + self.first_run.memory_bytes()
            + self.column.bytes.len()
            + (self.offsets.len() + self.heads.len() + self.component.len()) * 4
    }

    /// Bytes of the first-move data alone: [`CompressedGraph::memory_bytes`] less the graph's
    /// own arcs (which a grid, say, holds anyway).
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.memory_bytes() - (self.offsets.len() + self.heads.len()) * 4
    }

    fn index(&self, id: NodeId) -> Result<usize, Error> {
        let n = self.nodes_len();
        if (id as usize) < n { Ok(id as usize) } else { Err(Error::NodeOutOfRange { node: id, nodes: n }) }
    }

    #[track_caller]
    fn expect_index(&self, id: NodeId) -> usize {
        self.index(id).unwrap_or_else(|e| crate::error::panic_with(&e))
    }

    /// Whether `u` and `t` lie in one component.
    #[inline]
    fn connected(&self, u: usize, t: usize) -> bool {
        self.component.is_empty() || self.component[u] == self.component[t]
    }

    /// The nodes in the subtree of the peeled node `w`, itself included.
    #[inline]
    fn tree_size(&self, w: usize) -> u32 {
        self.size[(self.column.get(w) - self.core_len) as usize]
    }

    /// The moves of `u` toward `t` as a slot mask (0 when `u == t` or `t` is unreachable).
    #[inline]
    fn moves(&self, u: usize, mut t: usize) -> u8 {
        if u == t || !self.connected(u, t) {
            return 0;
        }
        if self.parent_slot[u] != CORE {
            // In a tree: down into the child whose subtree holds `t`, else up.
            let up = match self.parent_slot[u] {
                ROOT => 0,
                slot => 1 << slot,
            };
            return self.child_toward(u, t).unwrap_or(up);
        }
        if self.parent_slot[t] != CORE {
            // Toward a tree node: as toward its anchor, or from the anchor into the tree.
            let col = self.column.get(t);
            let block = self.anchors.partition_point(|&(_, first)| first <= col).saturating_sub(1);
            let anchor = self.anchors.get(block).map_or(t, |&(a, _)| a as usize);
            if anchor == u {
                return self.child_toward(u, t).unwrap_or(0);
            }
            t = anchor;
        }
        let row = self.first_run.row(u);
        // The last run starting at or before the target's column.
        match self.runs.starting_by(row.clone(), self.column.get(t)) {
            0 => self.first_moves[u],
            i => self.runs.moves(row.start + i - 1),
        }
    }

    /// The slot of the child of `u` in a peeled tree whose subtree holds `t`, as a mask.
    fn child_toward(&self, u: usize, t: usize) -> Option<u8> {
        let col = self.column.get(t);
        let first = self.offsets[u] as usize;
        self.heads[first..self.offsets[u + 1] as usize].iter().enumerate().find_map(|(s, &w)| {
            let w = w as usize;
            let hangs = self.parent_slot[w] < ROOT
                && self.heads[self.offsets[w] as usize + self.parent_slot[w] as usize] as usize == u;
            let holds = hangs && (self.column.get(w)..self.column.get(w) + self.tree_size(w)).contains(&col);
            holds.then_some(1 << s)
        })
    }

    /// An optimal next node from `from` toward `to`, or `None` when `from == to` or `to` is
    /// unreachable.
    ///
    /// # Panics
    /// If an id is out of range.
    ///
    /// # Complexity
    /// O(log r) for the `r` runs of `from`'s row.
    #[must_use]
    #[track_caller]
    pub fn neighbor_to(&self, from: NodeId, to: NodeId) -> Option<NodeId> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        let moves = self.moves(u, t);
        (moves != 0).then(|| self.heads[self.offsets[u] as usize + moves.trailing_zeros() as usize])
    }

    /// [`CompressedGraph::neighbor_to`] for many `(from, to)` queries at once, written to
    /// `out` (which is cleared first): the step of each entity toward its target.
    ///
    /// Answers equal one [`CompressedGraph::neighbor_to`] call per query, but the memory of a
    /// group of queries is asked for before any of it is read, in two rounds (each query's
    /// node data, then each row's runs: with the first round alone, no faster than single
    /// calls on random512-10-0), so that the cache misses of many queries overlap: on
    /// tables larger than the cache about twice as fast per query as single calls
    /// (random512-10-0, 4-connected: 146 → 77–81 ns), on tables that fit it a few
    /// nanoseconds slower (see the README's tables of compressed oracles).
    ///
    /// # Panics
    /// If an id is out of range; see [`CompressedGraph::try_neighbor_to_each`].
    ///
    /// # Complexity
    /// O(log r) per query for the `r` runs of its source's row; no allocation beyond `out`.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2);
    /// let g = b.build_compressed()?;
    /// let mut steps = Vec::new();
    /// g.neighbor_to_each(&[(0, 2), (2, 0), (1, 1), (0, 3)], &mut steps);
    /// assert_eq!(steps, [Some(1), Some(1), None, None]);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[track_caller]
    pub fn neighbor_to_each(&self, queries: &[(NodeId, NodeId)], out: &mut Vec<Option<NodeId>>) {
        if let Err(e) = self.try_neighbor_to_each(queries, out) {
            crate::error::panic_with(&e);
        }
    }

    /// [`CompressedGraph::neighbor_to_each`] with an error for out-of-range ids (then `out`
    /// is left empty).
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(2).build_compressed()?;
    /// let mut out = Vec::new();
    /// assert!(g.try_neighbor_to_each(&[(0, 1), (0, 7)], &mut out).is_err());
    /// assert!(out.is_empty());
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn try_neighbor_to_each(
        &self,
        queries: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        out.clear();
        for &(from, to) in queries {
            self.index(from)?;
            self.index(to)?;
        }
        out.reserve(queries.len());
        for group in queries.chunks(PREFETCH_GROUP) {
            for &(from, to) in group {
                self.prefetch_nodes(from as usize, to as usize);
            }
            for &(from, _) in group {
                self.prefetch_row(from as usize);
            }
            out.extend(group.iter().map(|&(from, to)| {
                let u = from as usize;
                let moves = self.moves(u, to as usize);
                (moves != 0).then(|| self.heads[self.offsets[u] as usize + moves.trailing_zeros() as usize])
            }));
        }
        Ok(())
    }

    /// Asks for what [`CompressedGraph::moves`] reads of `u` and `t` before the row.
    #[inline]
    fn prefetch_nodes(&self, u: usize, t: usize) {
        use crate::prefetch::prefetch;
        if !self.component.is_empty() {
            prefetch(&self.component[u]);
            prefetch(&self.component[t]);
        }
        prefetch(&self.parent_slot[u]);
        prefetch(&self.parent_slot[t]);
        prefetch(&self.column.bytes[3 * t]);
        prefetch(&self.first_moves[u]);
        prefetch(&self.offsets[u]);
        self.first_run.prefetch(u);
    }

    /// Asks for the runs of `u`'s row (its first lines: a row of up to 8 lines whole).
    #[inline]
    fn prefetch_row(&self, u: usize) {
        let row = self.first_run.row(u);
        let bytes = &self.runs.bytes[row.start * self.runs.width..row.end * self.runs.width];
        for line in bytes.iter().step_by(64).take(8) {
            crate::prefetch::prefetch(line);
        }
    }

    /// The optimal next nodes from `from` toward `to` kept in its run (at least one when a
    /// path exists; a subset of all optimal moves, see the [module docs](self)).
    ///
    /// # Panics
    /// If an id is out of range.
    #[track_caller]
    pub fn neighbors_to(&self, from: NodeId, to: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        let moves = self.moves(u, t);
        let first = self.offsets[u] as usize;
        (0..MAX_DEGREE).filter(move |s| moves >> s & 1 == 1).map(move |s| self.heads[first + s])
    }

    /// The nodes of a shortest path from `from` to `to`, both included (empty when `to` is
    /// unreachable; `[from]` when they are equal).
    ///
    /// # Panics
    /// If an id is out of range.
    #[track_caller]
    pub fn path_to(&self, from: NodeId, to: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let reachable = self.path_exists(from, to);
        let mut at = reachable.then_some(from);
        // At most one visit per node (see `walk_cost`).
        let mut left = self.nodes_len();
        core::iter::from_fn(move || {
            let here = at?;
            left = left.checked_sub(1)?;
            at = self.neighbor_to(here, to);
            Some(here)
        })
    }

    /// Whether `to` can be reached from `from`.
    ///
    /// # Panics
    /// If an id is out of range.
    #[must_use]
    #[track_caller]
    pub fn path_exists(&self, from: NodeId, to: NodeId) -> bool {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.connected(u, t)
    }

    /// The cost of a shortest path (its length on unit costs; the straight part of an
    /// octile cost, as [`Graph::distance`](crate::Graph::distance)), by walking it:
    /// O(length · log runs).
    ///
    /// # Panics
    /// If an id is out of range.
    #[must_use]
    #[track_caller]
    pub fn distance(&self, from: NodeId, to: NodeId) -> Option<u64> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.walk_cost(u, t).map(|c| c.straight)
    }

    /// The exact cost of a shortest path from `u` to `t`, by walking it.
    pub(crate) fn walk_cost(&self, u: usize, t: usize) -> Option<Cost> {
        if !self.connected(u, t) {
            return None;
        }
        let mut total = Cost::ZERO;
        let mut at = u;
        // A shortest path has fewer steps than nodes; the bound only matters for a loaded
        // file whose checksum holds but whose moves go round in a circle.
        for _ in 0..self.nodes_len() {
            if at == t {
                return Some(total);
            }
            let moves = self.moves(at, t);
            if moves == 0 {
                return None;
            }
            let arc = self.offsets[at] as usize + moves.trailing_zeros() as usize;
            total = total + self.model.cost(self.costs.get(arc).copied().unwrap_or(1));
            at = self.heads[arc] as usize;
        }
        (at == t).then_some(total)
    }
}

impl CompressedGraph {
    /// A 64-bit fingerprint of the graph (node count and arcs), equal to the
    /// [`Graph::fingerprint`](crate::Graph::fingerprint) of the dense build of the same graph.
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        let n = self.nodes_len();
        crate::io::fingerprint(
            n,
            (0..n).map(|v| self.offsets[v + 1] - self.offsets[v]),
            self.heads.iter().copied(),
            (0..self.heads.len()).map(|a| self.costs.get(a).copied().unwrap_or(1)),
            self.model,
        )
    }

    /// Writes the oracle (see the [`io`](crate::io) module for the format).
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    ///
    /// ```
    /// let builder = signposts::generate::grid(6, 6, signposts::generate::Connectivity::Four);
    /// let compressed = builder.build_compressed()?;
    /// let mut bytes = Vec::new();
    /// compressed.save(&mut bytes)?;
    /// assert_eq!(signposts::CompressedGraph::load(bytes.as_slice())?, compressed);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn save(&self, sink: impl std::io::Write) -> Result<(), Error> {
        let mut w = crate::io::Writer::new(sink);
        w.header(crate::io::KIND_COMPRESSED)?;
        self.write_body(&mut w)?;
        w.finish()
    }

    /// Reads an oracle written by [`CompressedGraph::save`].
    ///
    /// # Errors
    /// As [`Graph::load`](crate::Graph::load).
    ///
    /// ```
    /// assert!(signposts::CompressedGraph::load(&b"SIGNPOST"[..]).is_err());
    /// ```
    pub fn load(source: impl std::io::Read) -> Result<CompressedGraph, Error> {
        let mut r = crate::io::Reader::open(source, crate::io::KIND_COMPRESSED)?;
        let graph = CompressedGraph::read_body(&mut r)?;
        r.finish()?;
        Ok(graph)
    }

    /// Checks every invariant a query relies on (after reading a file).
    fn check(&self) -> Result<(), Error> {
        use crate::io::corrupt;
        let n = self.nodes_len();
        let nodes = n as u64;
        let runs_len = self.runs.len as u64;
        let list = |v: usize| &self.heads[self.offsets[v] as usize..self.offsets[v + 1] as usize];
        for v in 0..n {
            let l = list(v);
            if l.iter().any(|&w| u64::from(w) >= nodes) || l.windows(2).any(|p| p[0] >= p[1]) {
                return Err(corrupt("a neighbour list is out of range or unsorted"));
            }
            let cost = |a: usize| self.costs.get(a).copied().unwrap_or(1);
            let reverse = |s: usize, w: usize| {
                let back = list(w).binary_search(&(v as NodeId)).ok()?;
                Some(cost(self.offsets[w] as usize + back) == cost(self.offsets[v] as usize + s))
            };
            if l.iter().enumerate().any(|(s, &w)| reverse(s, w as usize) != Some(true)) {
                return Err(corrupt("an arc has no reverse arc of the same cost"));
            }
            if l.iter().any(|&w| !self.connected(w as usize, v)) {
                return Err(corrupt("component labels disagree across an arc"));
            }
        }
        let mut seen = vec![false; n];
        for c in self.column.iter() {
            if u64::from(c) >= nodes || core::mem::replace(&mut seen[c as usize], true) {
                return Err(corrupt("the column order is not a permutation"));
            }
        }
        if self.first_run.start(0) != 0 || self.first_run.start(n) as u64 != runs_len {
            return Err(corrupt("run indices do not cover the runs"));
        }
        for v in 0..n {
            let slots = (1u32 << (self.offsets[v + 1] - self.offsets[v])) - 1;
            let row = self.first_run.row(v);
            let starts_ok = row.clone().skip(1).all(|i| self.runs.start(i - 1) < self.runs.start(i))
                && row.clone().all(|i| self.runs.start(i) > 0 && u64::from(self.runs.start(i)) < nodes);
            let moves_ok = u32::from(self.first_moves[v]) & !slots == 0
                && row
                    .clone()
                    .all(|i| self.runs.moves(i) != 0 && u32::from(self.runs.moves(i)) & !slots == 0);
            if !starts_ok || !moves_ok {
                return Err(corrupt("a row of runs is out of order or names a missing move"));
            }
        }
        for v in 0..n {
            let deg = self.offsets[v + 1] - self.offsets[v];
            let ok = match self.parent_slot[v] {
                CORE => self.column.get(v) < self.core_len,
                slot => {
                    (slot == ROOT || u32::from(slot) < deg)
                        && self.column.get(v) >= self.core_len
                        && self.tree_size(v) >= 1
                        && u64::from(self.column.get(v)) + u64::from(self.tree_size(v)) <= nodes
                }
            };
            if !ok {
                return Err(corrupt("a peeled tree's parent or size is out of range"));
            }
        }
        if self.anchors.iter().any(|&(a, first)| u64::from(a) >= nodes || u64::from(first) >= nodes)
            || self.anchors.windows(2).any(|p| p[0].1 >= p[1].1)
        {
            return Err(corrupt("the tree anchors are out of range or order"));
        }
        Ok(())
    }

    pub(crate) fn write_body<W: std::io::Write>(&self, w: &mut crate::io::Writer<W>) -> Result<(), Error> {
        let n = self.nodes_len();
        w.u64(n as u64)?;
        w.u64(self.heads.len() as u64)?;
        w.u64(self.runs.len as u64)?;
        w.u32(self.runs.width as u32)?;
        w.u32(self.runs.move_bits)?;
        w.u32(u32::from(!self.costs.is_empty()) | u32::from(self.model == CostModel::Octile) << 1)?;
        w.u64(self.fingerprint())?;
        w.u32s((0..n).map(|v| self.offsets[v + 1] - self.offsets[v]))?;
        w.u32s(self.heads.iter().copied())?;
        w.u32s(self.costs.iter().copied())?;
        w.u32s(self.column.iter())?;
        w.u64(self.component.len() as u64)?;
        w.u32s(self.component.iter().copied())?;
        w.bytes(&self.parent_slot)?;
        w.u32(self.core_len)?;
        w.u32s(self.size.iter().copied())?;
        w.u64(self.anchors.len() as u64)?;
        w.u32s(self.anchors.iter().flat_map(|&(a, first)| [a, first]))?;
        w.bytes(&self.first_moves)?;
        w.u32s(self.first_run.iter())?;
        w.bytes(&self.runs.bytes[..self.runs.len * self.runs.width])
    }

    /// Reads and checks every invariant a query relies on: arcs in range, sorted and
    /// symmetric; a permutation of columns; labels that agree across arcs; rows of increasing
    /// runs whose moves name existing slots. A file that passes answers without panicking.
    pub(crate) fn read_body(r: &mut crate::io::Reader) -> Result<CompressedGraph, Error> {
        use crate::io::corrupt;
        let nodes = r.u64()?;
        let arcs = r.u64()?;
        let runs_len = r.u64()?;
        let width = r.u32()? as usize;
        let move_bits = r.u32()?;
        let flags = r.u32()?;
        let fingerprint = r.u64()?;
        if nodes >= 1 << START_BITS || arcs > u64::from(u32::MAX) || runs_len > u64::from(u32::MAX) {
            return Err(corrupt("node, arc or run count out of range"));
        }
        let degrees = r.u32s(nodes)?;
        let heads = r.u32s(arcs)?;
        let costs = r.u32s(if flags & 1 == 1 { arcs } else { 0 })?;
        let model = if flags & 2 == 2 { CostModel::Octile } else { CostModel::Integer };
        if costs.contains(&0) || flags > 3 {
            return Err(corrupt("an arc costs 0, or unknown flags"));
        }
        let column = r.u32s(nodes)?;
        let labels = r.u64()?;
        if labels != 0 && labels != nodes {
            return Err(corrupt("component labels for some nodes only"));
        }
        let component = r.u32s(labels)?;
        let parent_slot = r.bytes(nodes)?.to_vec();
        let core_len = r.u32()?;
        if u64::from(core_len) > nodes {
            return Err(corrupt("more core nodes than nodes"));
        }
        let size = r.u32s(nodes - u64::from(core_len))?;
        let anchors_len = r.u64()?;
        if anchors_len > nodes {
            return Err(corrupt("more anchors than nodes"));
        }
        let anchors: Vec<(u32, u32)> =
            r.u32s(2 * anchors_len)?.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let first_moves = r.bytes(nodes)?.to_vec();
        let first_run = r.u32s(nodes + 1)?;
        // Checked before packing: columns must fit three bytes, row starts must not fall.
        if column.iter().any(|&c| u64::from(c) >= nodes) {
            return Err(corrupt("the column order is not a permutation"));
        }
        if first_run.windows(2).any(|p| p[0] > p[1]) {
            return Err(corrupt("run indices are not increasing"));
        }
        let (column, first_run) = (U24s::new(&column), RowStarts::new(&first_run));
        let column_bits = u64::BITS - nodes.leading_zeros();
        if !matches!((width, move_bits), (3 | 4, SLOT_BITS | 4 | 8))
            || move_bits + column_bits > 8 * width as u32
        {
            return Err(corrupt("a run layout too narrow for the graph"));
        }
        let mut runs = Packed::new(width, move_bits);
        runs.bytes = r.bytes(runs_len * width as u64)?.to_vec();
        runs.bytes.resize(runs.bytes.len() + PAD, 0);
        runs.len = runs_len as usize;
        let n = nodes as usize;
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        for &deg in &degrees {
            let next = u64::from(*offsets.last().expect("non-empty")) + u64::from(deg);
            if deg as usize > MAX_DEGREE || next > arcs {
                return Err(corrupt("a degree is too large or the degrees exceed the arcs"));
            }
            offsets.push(next as u32);
        }
        if u64::from(offsets[n]) != arcs {
            return Err(corrupt("degrees do not add up to the stored arcs"));
        }
        let graph = CompressedGraph {
            offsets,
            heads,
            costs,
            model,
            column,
            component,
            first_moves,
            parent_slot,
            core_len,
            size,
            anchors,
            first_run,
            runs,
        };
        graph.check()?;
        if graph.fingerprint() != fingerprint {
            return Err(corrupt("the graph does not match its fingerprint"));
        }
        Ok(graph)
    }
}

#[cfg(test)]
mod tests {
    use super::{CompressedGraph, RowBuilder};
    use crate::{Error, GraphBuilder};

    /// The engines' AVX2 copies build the same tables as the baseline ones: 4-connected maps
    /// (batches of 256 against 128) and octile ones (slot tests four at a time), with walls
    /// and more than one component.
    #[test]
    fn avx2_and_baseline_builds_are_the_same() {
        use crate::generate::walled_grid;
        use crate::grid::{Connectivity, GridOracle, parse_map};
        let Some(avx2) = crate::build::Avx2::detect() else { return };
        let same = |builder: &GraphBuilder| {
            let save = |avx2, vbmi| {
                let mut bytes = Vec::new();
                builder
                    .build_compressed_using(|_| {}, avx2, vbmi, super::WAVE_BYTES)
                    .expect("fits")
                    .save(&mut bytes)
                    .expect("saved");
                bytes
            };
            let baseline = save(None, None);
            assert!(save(Some(avx2), None) == baseline, "{} nodes", builder.nodes_len());
            // Waves of the fewest batches (2 a worker), so more of them, as the largest.
            let mut small = Vec::new();
            let built = builder.build_compressed_using(|_| {}, Some(avx2), crate::build::Vbmi::detect(), 1);
            built.expect("fits").save(&mut small).expect("saved");
            assert!(small == baseline, "{} nodes, small waves", builder.nodes_len());
            if let Some(vbmi) = crate::build::Vbmi::detect() {
                assert!(
                    save(Some(avx2), Some(vbmi)) == baseline,
                    "{} nodes, byte permutes",
                    builder.nodes_len()
                );
            }
        };
        for seed in 0..4 {
            same(&walled_grid(37, 29, 0.3, seed, crate::generate::Connectivity::Four));
        }
        // Waves of more than four batches (six workers: 12 to 48), whose byte permutes take
        // their bytes from several quads of batches.
        #[cfg(feature = "parallel")]
        rayon::ThreadPoolBuilder::new().num_threads(6).build().expect("a pool").install(|| {
            same(&walled_grid(90, 70, 0.25, 7, crate::generate::Connectivity::Four));
        });
        let mut rng = seed_rng(9);
        for _ in 0..3 {
            let (w, h) = (31, 23);
            let mut text = format!("type octile\nheight {h}\nwidth {w}\nmap\n");
            for _ in 0..h {
                text.extend((0..w).map(|_| if rng().is_multiple_of(4) { '@' } else { '.' }));
                text.push('\n');
            }
            let grid = parse_map(text.as_bytes()).expect("a valid map");
            same(&GridOracle::graph_builder(&grid, Connectivity::Eight));
        }
    }

    /// A small xorshift generator for the tests.
    fn seed_rng(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// Files with a valid checksum but broken contents are refused by the invariant checks.
    #[test]
    fn consistent_but_broken_files_are_corrupt() {
        let builder = crate::generate::walled_grid(10, 10, 0.2, 4, crate::generate::Connectivity::Four);
        let good = builder.build_compressed().unwrap();
        let breaks: [fn(&mut CompressedGraph); 5] = [
            |_| {}, // unchanged: the control
            |g| {
                let mut column: Vec<u32> = g.column.iter().collect();
                column[1] = column[0];
                g.column = super::U24s::new(&column);
            },
            |g| g.first_moves[0] = 0x80,
            |g| g.anchors.reverse(),
            |g| g.heads[0] = 10_000,
        ];
        for (i, broken) in breaks.iter().enumerate() {
            let mut graph = good.clone();
            broken(&mut graph);
            let mut bytes = Vec::new();
            graph.save(&mut bytes).unwrap();
            let loaded = CompressedGraph::load(bytes.as_slice());
            if i == 0 {
                assert_eq!(loaded.unwrap(), good);
            } else {
                assert!(matches!(loaded, Err(Error::Corrupt { .. })), "break {i}: {loaded:?}");
            }
        }
    }

    #[test]
    fn move_bitmaps_fold_like_entries_one_by_one() {
        let mut rng = crate::generate::SplitMix64::new(11);
        for round in 0..3000 {
            // Entries drawn from few masks, many empty, so that runs continue often; lengths
            // that end mid-word and rows folded in several calls.
            let len = 1 + (rng.next_u64() % 300) as usize;
            let moves = 1 + round % 4;
            let choices: &[u8] = &[0, 1, 3, 2, 6, 4, 5, 15, 8, 12];
            let entries: Vec<u8> = (0..len)
                .map(|_| choices[(rng.next_u64() % choices.len() as u64) as usize] & ((1 << moves) - 1))
                .collect();
            let split = (rng.next_u64() % (len as u64 + 1)) as usize;
            let (mut fast, mut slow) = (RowBuilder::default(), RowBuilder::default());
            for (first, part) in [(0, &entries[..split]), (split, &entries[split..])] {
                let words = part.len().div_ceil(64);
                let mut masks = vec![0u64; moves * words];
                for (p, &e) in part.iter().enumerate() {
                    for i in 0..moves {
                        masks[i * words + p / 64] |= u64::from(e >> i & 1) << (p % 64);
                    }
                }
                fast.push_masks(first as u32, part.len(), &masks, moves);
            }
            for (i, &e) in entries.iter().enumerate() {
                slow.push(i as u32, e);
            }
            assert_eq!(fast.finish(), slow.finish(), "entries {entries:?}");
        }
    }

    #[test]
    fn moves_that_go_round_in_a_circle_end_the_walk() {
        // A 4-cycle whose rows are tampered with (as a crafted file with a valid checksum
        // could be): 0 and 1 send every target to each other.
        let mut builder = GraphBuilder::new(4);
        builder.connect(0, 1).connect(1, 2).connect(2, 3).connect(3, 0);
        let mut g = builder.build_compressed().unwrap();
        assert_eq!(g.core_len(), 4);
        g.first_moves = vec![0b01, 0b01, 0b01, 0b01];
        g.first_run = super::RowStarts::new(&[0; 5]);
        g.runs.len = 0;
        assert_eq!(g.distance(0, 2), None);
        assert!(g.path_to(0, 2).count() <= 4);
    }

    #[test]
    fn row_starts_and_columns_read_back_what_was_packed() {
        // Rows of 0..40 runs (blocks of 16), then one row of 70,000 (blocks shrink).
        for huge in [false, true] {
            let mut starts = vec![0u32];
            for i in 0..100u32 {
                let len = if huge && i == 37 { 70_000 } else { i % 41 };
                starts.push(starts.last().unwrap() + len);
            }
            let packed = super::RowStarts::new(&starts);
            assert_eq!(packed.shift < 4, huge);
            assert_eq!(packed.iter().collect::<Vec<_>>(), starts);
        }
        let columns: Vec<u32> = (0..1000u32).map(|i| i.wrapping_mul(2_654_435_761) >> 8).collect();
        let packed = super::U24s::new(&columns);
        assert_eq!(packed.len(), 1000);
        assert_eq!(packed.iter().collect::<Vec<_>>(), columns);
    }
}
