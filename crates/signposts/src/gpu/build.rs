//! The GPU builds' entry points on [`GraphBuilder`].

use super::GpuContext;
use crate::{Cancel, CompressedGraph, Error, Graph, GraphBuilder, Progress};

impl GraphBuilder {
    /// Builds the dense table on the GPU: the same table as [`GraphBuilder::build`], byte for
    /// byte, for undirected graphs whose arcs all cost 1 (4- and 8-connected grids of
    /// [`generate`](crate::generate), mazes, any graph of [`connect`](GraphBuilder::connect))
    /// and octile grids ([`GridOracle::graph_builder`](crate::grid::GridOracle::graph_builder)
    /// with [`Connectivity::Eight`](crate::grid::Connectivity::Eight): arcs of 1 and √2).
    /// `progress` is called as chunks of targets come back, as the CPU build calls it for
    /// batches (on another thread than the caller's).
    ///
    /// The table is allocated in host memory as the CPU build allocates it (held to
    /// [`memory_limit`](GraphBuilder::memory_limit)); the device holds the graph, two states
    /// of a chunk of targets and its output (see the [`gpu`](crate::gpu) module).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for graphs with integer arc costs or one-way arcs (before any
    /// work), for octile rows given more than 32 slots by
    /// [`reserve_degree`](GraphBuilder::reserve_degree), and for octile searches past cost
    /// 19,000 (met during the build); as [`GraphBuilder::try_build`]; [`Error::GpuMemory`]
    /// when the device cannot hold the graph or one chunk; [`Error::Gpu`] when the device
    /// fails.
    ///
    /// ```no_run
    /// let gpu = signposts::gpu::GpuContext::new()?;
    /// let builder = signposts::generate::grid(64, 64, signposts::generate::Connectivity::Eight);
    /// let table = builder.build_gpu(&gpu, |p| eprintln!("{:.0}%", 100.0 * p.fraction()))?;
    /// assert_eq!(table, builder.build());
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_gpu(&self, gpu: &GpuContext, progress: impl Fn(Progress) + Sync) -> Result<Graph, Error> {
        self.build_inner(&progress, None, Some(gpu), None)
    }

    /// [`GraphBuilder::build_gpu`] that stops early when `cancel` is cancelled: no chunk of
    /// targets starts after that, and the build returns [`Error::Cancelled`].
    ///
    /// # Errors
    /// As [`GraphBuilder::build_gpu`]; [`Error::Cancelled`].
    pub fn build_gpu_with_cancel(
        &self,
        gpu: &GpuContext,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<Graph, Error> {
        self.build_inner(&progress, None, Some(gpu), Some(cancel.flag()))
    }

    /// Builds the compressed table on the GPU: the same table as
    /// [`GraphBuilder::build_compressed`], byte for byte, for undirected graphs of unit or
    /// octile costs (as [`GraphBuilder::build_gpu`]). The device searches and writes every
    /// move's bitmap of a chunk of columns; the CPU folds them into runs on all cores while
    /// the device searches the next chunk.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for graphs with integer arc costs and octile searches past cost
    /// 19,000; as [`GraphBuilder::build_compressed`]; [`Error::GpuMemory`], [`Error::Gpu`].
    ///
    /// ```no_run
    /// let gpu = signposts::gpu::GpuContext::new()?;
    /// let builder = signposts::generate::grid(64, 64, signposts::generate::Connectivity::Four);
    /// let table = builder.build_compressed_gpu(&gpu, |_| {})?;
    /// assert_eq!(table.distance(0, 4095), Some(126));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_compressed_gpu(
        &self,
        gpu: &GpuContext,
        progress: impl Fn(Progress) + Sync,
    ) -> Result<CompressedGraph, Error> {
        self.build_compressed_on_gpu(gpu, &progress, None)
    }

    /// [`GraphBuilder::build_compressed_gpu`] that stops early when `cancel` is cancelled.
    ///
    /// # Errors
    /// As [`GraphBuilder::build_compressed_gpu`]; [`Error::Cancelled`].
    pub fn build_compressed_gpu_with_cancel(
        &self,
        gpu: &GpuContext,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<CompressedGraph, Error> {
        self.build_compressed_on_gpu(gpu, &progress, Some(cancel.flag()))
    }
}
