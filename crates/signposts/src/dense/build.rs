//! The dense build: [`GraphBuilder::build`] and the engines' glue that fills a [`Graph`]'s
//! table (bit-parallel BFS for unit-cost undirected graphs, one Dijkstra per target otherwise).

use core::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crate::build::{self, Adjacency, Progress};
use crate::builder::{CostModel, Gpu, arc_index, degree};
use crate::dense::table::{Layout, MAX_ENTRY_DEGREE, NodeRow, Table};
use crate::error::{Error, panic_with};
use crate::{BuildOptions, Cost, Graph, GraphBuilder, NodeId, components};

impl GraphBuilder {
    /// Builds the oracle.
    ///
    /// # Panics
    /// If the build is over the memory limit or the allocator refuses it;
    /// [`GraphBuilder::try_build`] returns an error instead.
    ///
    /// # Complexity
    /// Time O(n · (n + m) / 64 · D) where D is about the diameter of a 64-node ball (the
    /// batched BFS); extra space O(n + m) per thread besides the table.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(3);
    /// b.connect(0, 1).connect(1, 2);
    /// assert_eq!(b.build().path_to(0, 2).collect::<Vec<_>>(), [0, 1, 2]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn build(&self) -> Graph {
        self.try_build().unwrap_or_else(|e| panic_with(&e))
    }

    /// Builds the oracle, or says why it cannot (before allocating the table).
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when the allocator refuses the table;
    /// [`Error::Unsupported`] for a [`reserve_degree`](GraphBuilder::reserve_degree) above 2^31.
    ///
    /// ```
    /// let graph = signposts::GraphBuilder::new(2).try_build()?;
    /// assert!(!graph.path_exists(0, 1));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    ///
    /// A memory limit, progress reports, cancellation, a thread count or the GPU:
    /// [`BuildOptions::build`](crate::BuildOptions::build).
    pub fn try_build(&self) -> Result<Graph, Error> {
        self.build_dense(&BuildOptions::new(), None)
    }

    /// The dense build as `options` say, with the batch width forced in tests.
    pub(crate) fn build_dense(
        &self,
        options: &BuildOptions<'_>,
        batch: Option<usize>,
    ) -> Result<Graph, Error> {
        let started = crate::dynamic::clock::now();
        let (progress, gpu, halt) = (options.progress_fn(), options.gpu_context(), options.halt());
        if gpu.is_some() && (self.is_directed() || (self.is_weighted() && self.model != CostModel::Octile)) {
            return Err(Error::Unsupported {
                what: "GPU builds of graphs with integer arc costs or one-way arcs (build them on the CPU)",
            });
        }
        if self.reserve_degree > MAX_ENTRY_DEGREE {
            return Err(Error::Unsupported {
                what: "reserve_degree above 2^31: entries that wide cannot be stored",
            });
        }
        let n = self.nodes_len();
        let needed = self.memory_needed();
        if let Some(limit) = options.memory_limit_bytes()
            && needed > limit
        {
            return Err(Error::OverMemoryLimit { needed, limit });
        }
        if needed == u64::MAX {
            // The size overflowed: no allocator holds it, and the layout's sums would wrap.
            return Err(Error::AllocationFailed { bytes: needed });
        }

        let mut rows = Vec::with_capacity(n);
        let mut neighbors = Vec::with_capacity(self.arcs_len());
        let mut costs = Vec::with_capacity(self.arcs_len());
        for (list, cost) in self.adjacency.iter().zip(&self.costs) {
            rows.push(NodeRow { word: 0, first: arc_index(neighbors.len())?, deg: degree(list.len()) });
            neighbors.extend_from_slice(list);
            costs.extend_from_slice(cost);
        }
        arc_index(neighbors.len())?;
        let reserve = self.reserve_degree;
        let layout =
            Layout::assign_widths(&mut rows, |row| crate::dense::table::entry_bits(row.deg.max(reserve)));
        let total_words =
            usize::try_from(layout.words()).map_err(|_| Error::AllocationFailed { bytes: needed })?;
        let words = crate::memory::zeroed_words(total_words, needed)?;
        let offsets: Vec<u32> =
            rows.iter().map(|r| r.first).chain(core::iter::once(arc_index(neighbors.len())?)).collect();
        let directed = self.is_directed();
        let weighted = self.is_weighted();
        let edges = self.edges_len();

        let (order, component, components) = if directed || weighted {
            self.fill_weighted(&rows, &offsets, &neighbors, &costs, layout, &words, progress, gpu, halt)?
        } else {
            costs = Vec::new(); // every arc costs 1
            Self::fill_unit(&rows, &offsets, &neighbors, layout, &words, progress, (batch, gpu), halt)?
        };
        if build::stopped(halt) {
            return Err(Error::Cancelled);
        }

        let mut column = vec![0u32; n];
        for (c, &node) in order.iter().enumerate() {
            column[node as usize] = u32::try_from(c).expect("column fits: n <= MAX_NODES");
        }
        let words = crate::memory::into_plain(words);
        let table = Table { rows, neighbors, column, order, words: words.into(), layout };
        let mut graph = Graph::from_parts(table, component, components, costs, self.model, directed, edges);
        graph.reserve = self.reserve_degree;
        graph.build_time = crate::dynamic::clock::BuildTime(crate::dynamic::clock::since(started));
        Ok(graph)
    }

    /// Fills the table of an undirected unit-cost graph: peel trees, bit-parallel BFS on the
    /// core (on the GPU when `gpu` is given). Returns the column order and the components.
    #[expect(clippy::too_many_arguments, reason = "the pieces of one build, passed once")]
    #[cfg_attr(
        not(feature = "gpu"),
        expect(clippy::unnecessary_wraps, reason = "the GPU engine's errors come back through it")
    )]
    fn fill_unit(
        rows: &[NodeRow],
        offsets: &[u32],
        neighbors: &[NodeId],
        layout: Layout,
        words: &[AtomicU64],
        progress: &(dyn Fn(Progress) + Sync),
        (batch, gpu): (Option<usize>, Option<&Gpu>),
        halt: Option<&AtomicBool>,
    ) -> Result<(Vec<NodeId>, Vec<u32>, u32), Error> {
        let (component, components) = components::label(rows, neighbors);
        let mut peel = build::peel::peel(rows, neighbors);
        let batch = batch.unwrap_or_else(|| build::batch_width(peel.core_len));
        let mut order = build::order::ball_order(rows, neighbors, &peel.peeled, batch);
        peel.order_trees(rows, neighbors, &mut order);
        let mut column = vec![0u32; rows.len()];
        for (c, &node) in order.iter().enumerate() {
            column[node as usize] = u32::try_from(c).expect("column fits: n <= MAX_NODES");
        }
        let trees = usize::from(!peel.is_trivial());
        let done = AtomicUsize::new(0);
        let core = &order[..peel.core_len];
        // The core's searches, on the GPU or the CPU; then the trees, a step of their own.
        #[cfg(feature = "gpu")]
        let on_gpu = gpu
            .map(|gpu| {
                let graph = crate::gpu::engine::DeviceGraph {
                    offsets,
                    heads: neighbors,
                    costs: &[],
                    skip: &peel.peeled,
                };
                let progress = (progress, &done, trees);
                crate::gpu::engine::fill_dense(gpu, graph, rows, layout, core, words, progress, halt)
            })
            .transpose()?;
        #[cfg(not(feature = "gpu"))]
        let on_gpu: Option<usize> = gpu.map(|never| match *never {});
        let total = if let Some(total) = on_gpu {
            total
        } else {
            let padded = build::bfs::padded(offsets, neighbors, &peel.peeled);
            let adjacency = Adjacency {
                offsets,
                heads: neighbors,
                in_offsets: offsets,
                tails: neighbors,
                component: &component,
                peeled: &peel.peeled,
                padded: &padded,
            };
            let total = peel.core_len.div_ceil(batch) + trees;
            let step = || progress(Progress { done: done.fetch_add(1, Ordering::Relaxed) + 1, total });
            build::fill_unit(adjacency, rows, layout, core, batch, words, &step, halt);
            total
        };
        if !peel.is_trivial() && !build::stopped(halt) {
            peel.fill(rows, layout, neighbors, &column, &component, words);
            progress(Progress { done: done.fetch_add(1, Ordering::Relaxed) + 1, total });
        }
        Ok((order, component, components))
    }

    /// Fills the table of a weighted or directed graph: one Dijkstra search per target, or on
    /// the GPU (octile graphs) when `gpu` is given.
    #[expect(clippy::too_many_arguments, reason = "the pieces of one build, passed once")]
    #[cfg_attr(
        not(feature = "gpu"),
        expect(clippy::unnecessary_wraps, reason = "the GPU engine's errors come back through it")
    )]
    fn fill_weighted(
        &self,
        rows: &[NodeRow],
        offsets: &[u32],
        heads: &[NodeId],
        costs: &[u32],
        layout: Layout,
        words: &[AtomicU64],
        progress: &(dyn Fn(Progress) + Sync),
        gpu: Option<&Gpu>,
        halt: Option<&AtomicBool>,
    ) -> Result<(Vec<NodeId>, Vec<u32>, u32), Error> {
        let n = rows.len();
        let mut tails = Vec::with_capacity(heads.len());
        for (v, row) in rows.iter().enumerate() {
            tails.extend(core::iter::repeat_n(v as NodeId, row.deg as usize));
        }
        // In-arcs grouped by head (a counting sort of the arcs).
        let mut in_offsets = vec![0u32; n + 1];
        for &h in heads {
            in_offsets[h as usize + 1] += 1;
        }
        for v in 0..n {
            in_offsets[v + 1] += in_offsets[v];
        }
        let mut fill = in_offsets.clone();
        let mut in_arcs = vec![0u32; heads.len()];
        for (a, &h) in heads.iter().enumerate() {
            in_arcs[fill[h as usize] as usize] = a as u32;
            fill[h as usize] += 1;
        }
        let (component, components) = components::label_weak(offsets, heads, &in_offsets, &in_arcs, &tails);
        let order = build::order::ball_order(rows, heads, &[], build::dijkstra::BATCH);
        #[cfg(feature = "gpu")]
        if let Some(gpu) = gpu {
            let graph = crate::gpu::engine::DeviceGraph { offsets, heads, costs, skip: &[] };
            let done = AtomicUsize::new(0);
            crate::gpu::engine::fill_dense(
                gpu,
                graph,
                rows,
                layout,
                &order,
                words,
                (progress, &done, 0),
                halt,
            )?;
            return Ok((order, component, components));
        }
        #[cfg(not(feature = "gpu"))]
        let _ = gpu;
        let cost: Vec<Cost> = costs.iter().map(|&c| self.model.cost(c)).collect();
        let arcs = build::dijkstra::Arcs {
            offsets,
            heads,
            cost: &cost,
            in_offsets: &in_offsets,
            incoming: &in_arcs,
            tails: &tails,
            integer: self.model == CostModel::Integer,
            symmetric: !self.is_directed(),
            skip: &[],
        };
        let total = n.div_ceil(build::dijkstra::BATCH);
        let done = AtomicUsize::new(0);
        let step = || progress(Progress { done: done.fetch_add(1, Ordering::Relaxed) + 1, total });
        build::dijkstra::fill(arcs, rows, layout, &order, words, &step, halt);
        Ok((order, component, components))
    }
}
