//! The compressed build: searches in batches and waves, folded into rows of runs.

use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[cfg(target_arch = "x86_64")]
use super::fold::{BitPlan, Gather, vbmi};
use super::fold::{OCTET, OctetFold, bit_span, octet_slots};
use super::format::{Packed, RowBuilder, RowStarts, START_BITS, U24s};
use super::{CORE, CompressedGraph, MAX_DEGREE, ROOT};
use crate::Cost;
use crate::build::{self, Adjacency, Progress};
use crate::builder::CostModel;
use crate::{BuildOptions, Error, GraphBuilder, NodeId, components};

impl CompressedGraph {
    /// The node count a compressed table supports: below 2^24 (row starts are 24-bit). A
    /// grid's compressed oracle has a node per open cell, so a map's count can be checked
    /// against it before anything is built.
    ///
    /// ```
    /// assert_eq!(signposts::CompressedGraph::MAX_NODES, (1 << 24) - 1);
    /// ```
    pub const MAX_NODES: usize = (1 << START_BITS) - 1;

    /// Whether a compressed table of `nodes` nodes can be built: the check that needs nothing
    /// but the count, for every compressed build (of a builder, of a grid) to make before it
    /// allocates or searches anything.
    ///
    /// # Errors
    /// [`Error::TooManyNodes`] above [`CompressedGraph::MAX_NODES`].
    pub(crate) fn check_nodes(nodes: usize) -> Result<(), Error> {
        if nodes > Self::MAX_NODES {
            Err(Error::TooManyNodes { nodes, max: Self::MAX_NODES })
        } else {
            Ok(())
        }
    }
}

impl GraphBuilder {
    /// Builds a compressed oracle (see [`compressed`](crate::compressed)): far smaller than
    /// [`GraphBuilder::build`]'s dense table on large maps, queries by binary search.
    ///
    /// # Errors
    /// [`Error::TooManyNodes`] for 2^24 nodes or more, checked before any work;
    /// [`Error::Unsupported`] for graphs with one-way arcs and for nodes of more than
    /// [`MAX_DEGREE`] neighbours; [`Error::TooManyArcs`].
    ///
    /// ```
    /// let builder = signposts::generate::grid(20, 20, signposts::generate::Connectivity::Four);
    /// let compressed = builder.build_compressed()?;
    /// let dense = builder.build();
    /// assert_eq!(compressed.cost(0, 399), dense.cost(0, 399));
    /// assert_eq!(compressed.neighbor_to(0, 1), Some(1));
    /// assert!(compressed.memory_bytes() < dense.memory_bytes());
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_compressed(&self) -> Result<CompressedGraph, Error> {
        self.build_compressed_by(&BuildOptions::new())
    }

    /// The compressed build as `options` say: on the GPU when one is set.
    pub(crate) fn build_compressed_by(&self, options: &BuildOptions<'_>) -> Result<CompressedGraph, Error> {
        #[cfg(feature = "gpu")]
        if let Some(gpu) = options.gpu_context() {
            return self.build_compressed_on_gpu(gpu, options.progress_fn(), options.halt());
        }
        self.build_compressed_using(
            options.progress_fn(),
            build::Avx2::detect(),
            build::Vbmi::detect(),
            WAVE_BYTES,
            options.halt(),
        )
    }

    /// The compressed build on the CPU, with the engines' AVX2 copies when
    /// `avx2` is given, and the search buffers sized by `wave_bytes` (see
    /// [`batches_per_worker`]); the tables are the same either way.
    pub(crate) fn build_compressed_using(
        &self,
        progress: impl Fn(Progress) + Sync,
        avx2: Option<build::Avx2>,
        vbmi: Option<build::Vbmi>,
        wave_bytes: usize,
        halt: Option<&AtomicBool>,
    ) -> Result<CompressedGraph, Error> {
        let plan = self.compressed_plan()?;
        let rows =
            self.search_rows(&plan, 0..plan.core_len, false, &progress, (avx2, vbmi), wave_bytes, halt);
        if build::stopped(halt) {
            return Err(Error::Cancelled);
        }
        self.finish_compressed(plan, rows)
    }

    /// The compressed table of an undirected graph of unit or octile costs with the searches
    /// on the GPU: each chunk of columns comes back as every node's move bitmaps, folded into
    /// the rows on all cores while the device searches the next chunk. The same table as the
    /// CPU build.
    #[cfg(feature = "gpu")]
    pub(crate) fn build_compressed_on_gpu(
        &self,
        gpu: &crate::gpu::GpuContext,
        progress: &(dyn Fn(Progress) + Sync),
        halt: Option<&AtomicBool>,
    ) -> Result<CompressedGraph, Error> {
        use crate::gpu::engine;
        if self.is_weighted() && self.model() != CostModel::Octile {
            return Err(Error::Unsupported {
                what: "GPU builds of graphs with integer arc costs (build them on the CPU)",
            });
        }
        let plan = self.compressed_plan()?;
        let n = plan.offsets.len() - 1;
        let degree = |v: usize| (plan.offsets[v + 1] - plan.offsets[v]) as usize;
        let moves = (0..n).map(degree).max().unwrap_or(0).max(1);
        let graph = engine::DeviceGraph {
            offsets: &plan.offsets,
            heads: &plan.heads,
            costs: &plan.costs,
            skip: &plan.peel.peeled,
        };
        let output = engine::Output::Masks { moves };
        let targets = &plan.order[..plan.core_len];
        let chunks = engine::plan(gpu, graph, targets.len(), output)?;
        let mut rows = vec![RowBuilder::default(); n];
        let done = AtomicUsize::new(0);
        let fold = |chunk: engine::Chunk<'_>| {
            // Per node, `moves` bitmaps of `words` words: node `v`'s first `degree(v)` of them.
            let words = chunk.lanes / 2;
            let masks: Vec<u64> = engine::words(chunk.bytes).collect();
            let fold_node = |(v, row): (usize, &mut RowBuilder)| {
                let at = v * moves * words;
                row.push_masks(
                    chunk.first as u32,
                    chunk.columns,
                    &masks[at..at + degree(v) * words],
                    degree(v),
                );
            };
            #[cfg(feature = "parallel")]
            {
                use rayon::prelude::*;
                rows.par_iter_mut().enumerate().with_min_len(1024).for_each(fold_node);
            }
            #[cfg(not(feature = "parallel"))]
            rows.iter_mut().enumerate().for_each(fold_node);
            progress(Progress { done: done.fetch_add(1, Ordering::Relaxed) + 1, total: chunks.chunks });
        };
        engine::run(gpu, graph, targets, output, chunks, fold, halt)?;
        if build::stopped(halt) {
            return Err(Error::Cancelled);
        }
        self.finish_compressed(plan, rows)
    }

    /// What a compressed build knows before its searches, the same for every shard of it:
    /// the graph's arrays, its components, the peeled trees and the column order.
    pub(super) fn compressed_plan(&self) -> Result<Plan, Error> {
        // Known from the node count alone: refused before any pass over the arcs.
        let n = self.nodes_len();
        CompressedGraph::check_nodes(n)?;
        if self.is_directed() {
            return Err(Error::Unsupported { what: "compressed tables of graphs with one-way arcs" });
        }
        let weighted = self.is_weighted();
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
            rows.push(crate::dense::table::NodeRow { word: 0, first, deg: list.len() as u32 });
            heads.extend_from_slice(list);
        }
        let offsets: Vec<u32> =
            rows.iter().map(|r| r.first).chain(core::iter::once(heads.len() as u32)).collect();
        let (component, components) = components::label(&rows, &heads);
        // Trees hanging off the core need no row (see `build::peel`): the core is searched,
        // the trees answer by interval tests.
        let mut peel = build::peel::peel(&rows, &heads);
        let around = |v: usize| &heads[offsets[v] as usize..offsets[v + 1] as usize];
        let mut order = if self.model() == CostModel::Octile {
            build::order::dissection_order(n, around, &peel.peeled)
        } else {
            build::order::dfs_order(n, around, &peel.peeled)
        };
        peel.order_trees(&rows, &heads, &mut order);
        let mut column = vec![0u32; n];
        for (c, &node) in order.iter().enumerate() {
            column[node as usize] = c as u32;
        }
        let padded = if weighted { Vec::new() } else { build::bfs::padded(&offsets, &heads, &peel.peeled) };
        let core_len = peel.core_len;
        Ok(Plan { offsets, heads, costs, component, components, peel, order, column, padded, core_len })
    }

    /// The rows toward the targets of columns `columns` (of the core's), greedy or `exact`
    /// runs (see [`RowBuilder::exact`]), their columns counted from the range's start.
    #[expect(clippy::too_many_arguments, reason = "the build's engines and their settings, passed down")]
    pub(super) fn search_rows(
        &self,
        plan: &Plan,
        columns: core::ops::Range<usize>,
        exact: bool,
        progress: &(dyn Fn(Progress) + Sync),
        (avx2, vbmi): (Option<build::Avx2>, Option<build::Vbmi>),
        wave_bytes: usize,
        halt: Option<&AtomicBool>,
    ) -> Vec<RowBuilder> {
        let Plan { offsets, heads, costs, component, peel, order, padded, .. } = plan;
        // The engines number the targets they search from 0: a span's columns, shifted, and
        // every other node past them.
        let shifted: Vec<u32>;
        let column = if columns == (0..plan.core_len) {
            &plan.column
        } else {
            let span = columns.start as u32..columns.end as u32;
            shifted = plan
                .column
                .iter()
                .map(|&c| if span.contains(&c) { c - span.start } else { u32::MAX })
                .collect();
            &shifted
        };
        let targets = &order[columns];
        if self.is_weighted() {
            let exact_costs: Vec<Cost> = costs.iter().map(|&c| self.model().cost(c)).collect();
            let arcs = build::dijkstra::Arcs {
                offsets,
                heads,
                cost: &exact_costs,
                in_offsets: offsets,
                incoming: &[],
                tails: &[],
                integer: self.model() == CostModel::Integer,
                symmetric: true,
                skip: &peel.peeled,
            };
            let bitalg = vbmi.and_then(build::Bitalg::detect);
            fill_runs_weighted(arcs, targets, column, progress, (avx2, bitalg), wave_bytes, halt, exact)
        } else {
            let adjacency = Adjacency {
                offsets,
                heads,
                in_offsets: offsets,
                tails: heads,
                component,
                peeled: &peel.peeled,
                padded,
            };
            fill_runs_unit(adjacency, targets, column, progress, (avx2, vbmi), wave_bytes, halt, exact)
        }
    }

    /// The table from the plan and its rows (greedy runs over every core column).
    pub(super) fn finish_compressed(
        &self,
        plan: Plan,
        rows: Vec<RowBuilder>,
    ) -> Result<CompressedGraph, Error> {
        let Plan { offsets, heads, costs, mut component, components, peel, order, column, .. } = plan;
        let n = offsets.len() - 1;
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
        if components <= 1 {
            component = Vec::new();
        }
        let degree = (0..n).map(|v| offsets[v + 1] - offsets[v]).max().unwrap_or(0) as usize;
        let (first_moves, first_run, runs) = pack(rows, Packed::for_graph(n, degree))?;
        let (column, first_run) = (U24s::new(&column), RowStarts::new(&first_run));
        Ok(CompressedGraph {
            offsets: offsets.into(),
            heads: heads.into(),
            costs: costs.into(),
            model: self.model(),
            column,
            component: component.into(),
            first_moves: first_moves.into(),
            parent_slot: parent_slot.into(),
            core_len: peel.core_len as u32,
            size: size.into(),
            anchors: peel
                .anchors
                .iter()
                .map(|&(a, first)| u64::from(first) << 32 | u64::from(a))
                .collect::<Vec<_>>()
                .into(),
            first_run,
            runs,
            origin: crate::buf::Origin::default(),
            edits: None,
        })
    }
}

/// See [`GraphBuilder::compressed_plan`].
pub(super) struct Plan {
    offsets: Vec<u32>,
    heads: Vec<NodeId>,
    costs: Vec<u32>,
    component: Vec<u32>,
    components: u32,
    peel: build::peel::Peel,
    /// Nodes in column order: the core's first.
    pub(super) order: Vec<NodeId>,
    column: Vec<u32>,
    padded: Vec<[u32; 4]>,
    pub(super) core_len: usize,
}

/// Stores finished rows: each row's first run's moves, the index of its later runs, the runs.
fn pack(rows: Vec<RowBuilder>, mut runs: Packed) -> Result<(Vec<u8>, Vec<u32>, Packed), Error> {
    let mut first_moves = Vec::with_capacity(rows.len());
    let mut first_run = Vec::with_capacity(rows.len() + 1);
    let mut records = Vec::new();
    let mut count = 0;
    let index =
        |len: usize| u32::try_from(len).map_err(|_| Error::Unsupported { what: "more than 2^32 runs" });
    for row in rows {
        let row = row.finish();
        first_moves.push(row.first().map_or(0, |&(_, moves)| moves));
        first_run.push(index(count)?);
        for &(start, moves) in row.iter().skip(1) {
            runs.encode(&mut records, start, moves);
            count += 1;
        }
    }
    first_run.push(index(count)?);
    runs.finish(records);
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
pub(super) const WAVE_BYTES: usize = 512 << 20;

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
#[expect(clippy::too_many_arguments, reason = "the engine, its settings and the rows' kind, passed down")]
fn in_waves<S, B: Default + Send + Sync, F: Default>(
    n: usize,
    total: usize,
    wave: usize,
    scratch: impl Fn() -> S + Sync + Send,
    search: impl Fn(&mut S, usize, &mut B) + Sync + Send,
    fold: impl Fn(&mut F, usize, &mut RowBuilder, usize, &[B]) + Sync + Send,
    halt: Option<&AtomicBool>,
    exact: bool,
) -> Vec<RowBuilder> {
    let wave = wave_batches(wave);
    let mut rows = vec![if exact { RowBuilder::exact() } else { RowBuilder::default() }; n];
    let mut buffers: Vec<B> = (0..wave).map(|_| B::default()).collect();
    for first_batch in (0..total).step_by(wave) {
        if build::stopped(halt) {
            break; // the caller returns `Error::Cancelled`
        }
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
#[expect(clippy::too_many_arguments, reason = "the engine, its settings and the rows' kind, passed down")]
fn fill_runs_weighted(
    g: build::dijkstra::Arcs<'_>,
    order: &[NodeId],
    column: &[u32],
    progress: &(dyn Fn(Progress) + Sync),
    (avx2, bitalg): (Option<build::Avx2>, Option<build::Bitalg>),
    wave_bytes: usize,
    halt: Option<&AtomicBool>,
    exact: bool,
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
        return in_waves(n, total, wave, scratch, search, fold, halt, exact);
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
    in_waves(n, total, wave, scratch, search, fold, halt, exact)
}

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
#[expect(clippy::too_many_arguments, reason = "the engine, its settings and the rows' kind, passed down")]
fn fill_runs_unit(
    g: Adjacency<'_>,
    order: &[NodeId],
    column: &[u32],
    progress: &(dyn Fn(Progress) + Sync),
    (avx2, vbmi): (Option<build::Avx2>, Option<build::Vbmi>),
    wave_bytes: usize,
    halt: Option<&AtomicBool>,
    exact: bool,
) -> Vec<RowBuilder> {
    match avx2 {
        Some(avx2) => {
            fill_runs_lanes::<4>(g, order, column, progress, (Some(avx2), vbmi), wave_bytes, halt, exact)
        }
        None => fill_runs_lanes::<2>(g, order, column, progress, (None, None), wave_bytes, halt, exact),
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
#[expect(clippy::too_many_arguments, reason = "the engine, its settings and the rows' kind, passed down")]
fn fill_runs_lanes<const LANES: usize>(
    g: Adjacency<'_>,
    order: &[NodeId],
    column: &[u32],
    progress: &(dyn Fn(Progress) + Sync),
    (avx2, vbmi): (Option<build::Avx2>, Option<build::Vbmi>),
    wave_bytes: usize,
    halt: Option<&AtomicBool>,
    exact: bool,
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
    in_waves(n, total, wave, || build::bfs::BfsBatch::<LANES>::new(n), search, fold, halt, exact)
}

#[cfg(test)]
mod tests {
    use crate::{Error, GraphBuilder};

    #[test]
    fn compressed_builds_past_2_pow_24_nodes_are_refused_from_the_count_alone() {
        use crate::CompressedGraph;
        assert_eq!(CompressedGraph::check_nodes(CompressedGraph::MAX_NODES), Ok(()));
        assert_eq!(
            CompressedGraph::check_nodes(1 << 24),
            Err(Error::TooManyNodes { nodes: 1 << 24, max: (1 << 24) - 1 })
        );
    }

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
                    .build_compressed_using(|_| {}, avx2, vbmi, super::WAVE_BYTES, None)
                    .expect("fits")
                    .save(&mut bytes)
                    .expect("saved");
                bytes
            };
            let baseline = save(None, None);
            assert!(save(Some(avx2), None) == baseline, "{} nodes", builder.nodes_len());
            // Waves of the fewest batches (2 a worker), so more of them, as the largest.
            let mut small = Vec::new();
            let built =
                builder.build_compressed_using(|_| {}, Some(avx2), crate::build::Vbmi::detect(), 1, None);
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
}
