//! [`BuildOptions`]: the one way to build a table with a memory limit, progress reports,
//! cancellation, a thread count or the GPU.

use core::fmt;
use core::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::build::{Cancel, Progress};
use crate::builder::Gpu;
use crate::grid::{Connectivity, Grid, GridOracle, GridShard, TableKind};
use crate::{CompressedGraph, CompressedShard, Error, Graph, GraphBuilder};

/// How to run a build, shaped like [`std::fs::OpenOptions`]: make one with
/// [`BuildOptions::new`], set what you need, then call the method that builds what you want.
///
/// | setting | default | effect |
/// | --- | --- | --- |
/// | [`memory_limit`](BuildOptions::memory_limit) | none | [`Error::OverMemoryLimit`] instead of a table past it |
/// | [`progress`](BuildOptions::progress) | none | called as batches of targets finish |
/// | [`cancel`](BuildOptions::cancel) | none | [`Error::Cancelled`] once the token is cancelled |
/// | [`threads`](BuildOptions::threads) | every core | the build's worker threads (feature `parallel`) |
/// | `gpu` | the CPU | build on a `GpuContext` (feature `gpu`) |
///
/// | method | builds |
/// | --- | --- |
/// | [`build`](BuildOptions::build) | a dense [`Graph`] |
/// | [`build_compressed`](BuildOptions::build_compressed) | a [`CompressedGraph`] |
/// | [`build_shard`](BuildOptions::build_shard) | one [`CompressedShard`] of a build farm's |
/// | [`build_grid`](BuildOptions::build_grid) | a [`GridOracle`], dense or compressed |
/// | [`build_grid_shard`](BuildOptions::build_grid_shard) | one [`GridShard`] |
/// | [`merge_grid_shards_to`](BuildOptions::merge_grid_shards_to) | a saved [`GridOracle`] from the [`GridShardFile`](crate::grid::GridShardFile)s of a sharded build, streaming |
///
/// The rooms layer (crate `signposts-rooms`) adds `build_rooms` and `build_exact` through its
/// `BuildRooms` trait. The same options give the same table: only how it is run changes.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use signposts::grid::{Cell, Connectivity, Grid, GridOracle, TableKind};
/// use signposts::{BuildOptions, Cancel};
///
/// let grid = Grid::new(40, 40);
/// let (batches, token) = (AtomicUsize::new(0), Cancel::new());
/// let oracle = BuildOptions::new()
///     .memory_limit(64 << 20)
///     .progress(|p| { batches.fetch_max(p.done, Ordering::Relaxed); })
///     .cancel(&token)
///     .threads(2)
///     .build_grid(&grid, Connectivity::Eight, TableKind::Dense)?;
/// assert_eq!(oracle.distance(Cell::new(0, 0), Cell::new(3, 4)), Some(1.0 + 3.0 * 2f64.sqrt()));
/// assert!(batches.into_inner() > 0);
/// # Ok::<(), signposts::Error>(())
/// ```
#[derive(Clone, Default)]
#[must_use = "options do nothing until one of their build methods is called"]
pub struct BuildOptions<'a> {
    memory_limit: Option<u64>,
    progress: Option<Arc<dyn Fn(Progress) + Send + Sync + 'a>>,
    cancel: Option<Cancel>,
    threads: Option<usize>,
    gpu: Option<&'a Gpu>,
}

impl fmt::Debug for BuildOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuildOptions")
            .field("memory_limit", &self.memory_limit)
            .field("progress", &self.progress.is_some())
            .field("cancel", &self.cancel)
            .field("threads", &self.threads)
            .field("gpu", &self.gpu.is_some())
            .finish()
    }
}

impl<'a> BuildOptions<'a> {
    /// Options with nothing set: every core, no limit, no reports, no cancel, the CPU.
    pub fn new() -> BuildOptions<'a> {
        BuildOptions::default()
    }

    /// Refuse to build a table of more than `bytes`: [`Error::OverMemoryLimit`] says the
    /// bytes needed. Dense tables are checked before anything is allocated (their size
    /// follows from the graph: [`GraphBuilder::memory_needed`]); a compressed table's size is
    /// known only once built, so it is checked then.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, TableKind};
    /// let err = signposts::BuildOptions::new()
    ///     .memory_limit(1 << 20)
    ///     .build_grid(&Grid::new(100, 100), Connectivity::Four, TableKind::Dense);
    /// assert!(matches!(err, Err(signposts::Error::OverMemoryLimit { .. })));
    /// ```
    pub fn memory_limit(&mut self, bytes: u64) -> &mut BuildOptions<'a> {
        self.memory_limit = Some(bytes);
        self
    }

    /// Call `report` as steps of the build finish, from worker threads in no particular
    /// order; the largest [`Progress::done`] reported is [`Progress::total`], and
    /// [`Progress::fraction`] goes from 0 to 1 (a progress bar's position).
    pub fn progress(&mut self, report: impl Fn(Progress) + Send + Sync + 'a) -> &mut BuildOptions<'a> {
        self.progress = Some(Arc::new(report));
        self
    }

    /// Stop early once `token` is cancelled (from any thread: a game leaving the level, a
    /// newer edit superseding this build): no batch of targets starts after that, and the
    /// build returns [`Error::Cancelled`].
    ///
    /// ```
    /// use signposts::{BuildOptions, Cancel, Error};
    /// let builder = signposts::generate::grid(40, 40, signposts::grid::Connectivity::Four);
    /// let token = Cancel::new();
    /// // Cancelled by its own progress report, after the first batch of targets.
    /// let result = BuildOptions::new().progress(|_| token.cancel()).cancel(&token).build(&builder);
    /// assert!(matches!(result, Err(Error::Cancelled)));
    /// ```
    pub fn cancel(&mut self, token: &Cancel) -> &mut BuildOptions<'a> {
        self.cancel = Some(token.clone());
        self
    }

    /// Build on `threads` worker threads (a pool of this build's own) instead of rayon's
    /// global pool; 0 means every core. Without the `parallel` feature builds run on the
    /// calling thread whatever this says. The table is the same for every thread count.
    pub fn threads(&mut self, threads: usize) -> &mut BuildOptions<'a> {
        self.threads = (threads > 0).then_some(threads);
        self
    }

    /// Build on the GPU of `context` (feature `gpu`): dense and compressed tables of
    /// unit-cost and octile graphs, byte for byte the CPU's. Graphs with integer arc costs or
    /// one-way arcs are [`Error::Unsupported`] there.
    #[cfg(feature = "gpu")]
    pub fn gpu(&mut self, context: &'a crate::gpu::GpuContext) -> &mut BuildOptions<'a> {
        self.gpu = Some(context);
        self
    }

    /// Builds the dense table of `graph`.
    ///
    /// # Errors
    /// [`Error::OverMemoryLimit`] past the limit and [`Error::AllocationFailed`] when the
    /// allocator refuses the table, both before any work; [`Error::Cancelled`];
    /// [`Error::Unsupported`] for a GPU build of a graph with integer costs or one-way arcs.
    ///
    /// ```
    /// let mut builder = signposts::GraphBuilder::new(3);
    /// builder.connect(0, 1).connect(1, 2);
    /// let graph = signposts::BuildOptions::new().threads(1).build(&builder)?;
    /// assert_eq!(graph.neighbor_to(0, 2), Some(1));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build(&self, graph: &GraphBuilder) -> Result<Graph, Error> {
        self.install(|| graph.build_dense(self, None))
    }

    /// Builds the compressed table of `graph` (see [`compressed`](crate::compressed)).
    ///
    /// # Errors
    /// As [`GraphBuilder::build_compressed`]; [`Error::OverMemoryLimit`] when the finished
    /// table is over the limit; [`Error::Cancelled`].
    pub fn build_compressed(&self, graph: &GraphBuilder) -> Result<CompressedGraph, Error> {
        let table = self.install(|| graph.build_compressed_by(self))?;
        self.check_size(table.memory_bytes())?;
        Ok(table)
    }

    /// Builds shard `index` of `count` of `graph`'s compressed table: the runs of every row
    /// over one span of target columns, for a build spread over machines and joined by
    /// [`GraphBuilder::merge_compressed`] into the bytes of one build.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an index not below the count; as
    /// [`BuildOptions::build_compressed`].
    ///
    /// ```
    /// use signposts::{BuildOptions, generate::{maze}};
    /// let builder = maze(12, 12, 7);
    /// let options = BuildOptions::new();
    /// let shards = (0..3).map(|i| options.build_shard(&builder, i, 3)).collect::<Result<Vec<_>, _>>()?;
    /// assert_eq!(builder.merge_compressed(&shards)?, builder.build_compressed()?);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_shard(
        &self,
        graph: &GraphBuilder,
        index: u32,
        count: u32,
    ) -> Result<CompressedShard, Error> {
        self.install(|| graph.build_shard_by(index, count, self))
    }

    /// Builds the oracle of `grid`, with the `kind` of table given ([`TableKind::for_memory`]
    /// chooses by size).
    ///
    /// # Errors
    /// As [`BuildOptions::build`] or [`BuildOptions::build_compressed`];
    /// [`Error::TooManyNodes`] for a compressed table of 2^24 open cells or more, found from
    /// the count before any work.
    pub fn build_grid(
        &self,
        grid: &Grid,
        connectivity: Connectivity,
        kind: TableKind,
    ) -> Result<GridOracle, Error> {
        GridOracle::build_by(grid, connectivity, kind, self)
    }

    /// Builds shard `index` of `count` of `grid`'s compressed oracle, joined by
    /// [`GridOracle::merge_shards`].
    ///
    /// # Errors
    /// As [`BuildOptions::build_shard`].
    pub fn build_grid_shard(
        &self,
        grid: &Grid,
        connectivity: Connectivity,
        index: u32,
        count: u32,
    ) -> Result<GridShard, Error> {
        GridShard::build_by(grid, connectivity, index, count, self)
    }

    /// Reports `progress` to the callback, if one is set: for builds of crates over the core
    /// (the rooms layer) that report in the same terms.
    pub fn report(&self, progress: Progress) {
        if let Some(report) = &self.progress {
            report(progress);
        }
    }

    /// Whether the cancel token, if one is set, has been cancelled.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// `Err(Error::Cancelled)` once the cancel token, if one is set, has been cancelled.
    ///
    /// # Errors
    /// [`Error::Cancelled`].
    pub fn check_cancelled(&self) -> Result<(), Error> {
        if self.is_cancelled() { Err(Error::Cancelled) } else { Ok(()) }
    }

    /// The memory limit set, in bytes.
    #[must_use]
    pub fn memory_limit_bytes(&self) -> Option<u64> {
        self.memory_limit
    }

    /// `Err(Error::OverMemoryLimit)` when `bytes` is over the memory limit set.
    ///
    /// # Errors
    /// [`Error::OverMemoryLimit`].
    pub fn check_size(&self, bytes: usize) -> Result<(), Error> {
        let needed = u64::try_from(bytes).unwrap_or(u64::MAX);
        match self.memory_limit {
            Some(limit) if needed > limit => Err(Error::OverMemoryLimit { needed, limit }),
            _ => Ok(()),
        }
    }

    /// Runs `work` on this build's threads: a pool of [`threads`](BuildOptions::threads)
    /// workers when set, rayon's global pool otherwise, so that every parallel loop inside
    /// it runs there.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when the pool cannot be made (the system refuses threads), or
    /// the error of `work`.
    pub fn install<T: Send>(&self, work: impl FnOnce() -> Result<T, Error> + Send) -> Result<T, Error> {
        #[cfg(feature = "parallel")]
        if let Some(threads) = self.threads {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|_| {
                Error::Unsupported { what: "a build thread pool: the system refused its threads" }
            })?;
            return pool.install(work);
        }
        work()
    }

    /// The progress callback for the engines: the one set, or one that does nothing.
    pub(crate) fn progress_fn(&self) -> &(dyn Fn(Progress) + Sync + 'a) {
        match &self.progress {
            Some(report) => &**report,
            None => &|_| {},
        }
    }

    /// The flag the engines check before each batch, when a cancel token is set.
    pub(crate) fn halt(&self) -> Option<&AtomicBool> {
        self.cancel.as_ref().map(Cancel::flag)
    }

    /// The GPU to build on, when one is set.
    pub(crate) fn gpu_context(&self) -> Option<&'a Gpu> {
        self.gpu
    }
}
