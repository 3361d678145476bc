//! Tables built on the GPU (feature `gpu`): wgpu compute shaders in WGSL, on any adapter wgpu
//! drives (Vulkan, Metal, DirectX 12), the same bytes as the CPU build.
//!
//! The batched bit-parallel BFS of the CPU build is a stencil over the graph for every lane of
//! targets: each level, every node ORs the lanes of its neighbours. On a GPU one invocation
//! serves one node and one lane of 32 targets (WGSL has no 64-bit integers), one dispatch a
//! level over the nodes that level can change (a ring about the chunk's ball of targets),
//! every lane of a chunk of targets at once. The kernels are in `unit.wgsl`, `octile.wgsl` and
//! `common.wgsl` beside this file; the design notes in `docs/design.md`.
//!
//! Set a context on [`BuildOptions::gpu`](crate::BuildOptions::gpu) and build as usual. What
//! runs where:
//! - [`BuildOptions::build`](crate::BuildOptions::build): the dense table of an
//!   undirected graph of unit costs (4- and 8-connected grids, mazes, any graph through its
//!   out-arc arrays) or octile costs (1 and √2: [`grid::GridOracle`](crate::grid::GridOracle)'s
//!   8-connected graphs). The column order, the peeled trees and the components are the CPU
//!   build's; the GPU searches and packs the table's words, which come back in blocks of 256
//!   columns straight into place. Byte for byte the CPU build's table.
//! - [`BuildOptions::build_compressed`](crate::BuildOptions::build_compressed): the
//!   compressed table of the same graphs. The GPU searches and writes each move's bitmap of a
//!   chunk of columns; the CPU folds them into runs on all cores while the GPU searches the
//!   next chunk.
//! - [`BuildOptions::build_grid`](crate::BuildOptions::build_grid): grids, 4-connected or
//!   octile, dense or compressed.
//!
//! Graphs with integer arc costs or one-way arcs are refused with
//! [`Error::Unsupported`](crate::Error::Unsupported): their engine is the CPU's.
//!
//! Memory: chunks of targets are sized so that every buffer fits the device's limits
//! (WebGPU's default is 128 MiB a storage binding; native adapters allow more) and the budget
//! of [`GpuContext::with_memory_limit`] (1 GiB by default); the bytes a build needs on the
//! device are known before it allocates, and a device too small is
//! [`Error::GpuMemory`](crate::Error::GpuMemory). A machine with no adapter gets
//! [`Error::Gpu`](crate::Error::Gpu) from [`GpuContext::new`]; the CPU build stays the
//! default.
//!
//! ```no_run
//! use signposts::gpu::GpuContext;
//! let gpu = GpuContext::new()?;
//! let builder = signposts::generate::grid(100, 100, signposts::grid::Connectivity::Four);
//! let table = signposts::BuildOptions::new().gpu(&gpu).build(&builder)?;
//! assert_eq!(table, builder.build());
//! # Ok::<(), signposts::Error>(())
//! ```

mod context;
pub(crate) mod engine;
mod window;

pub use context::{GpuContext, GpuStats};
/// The wgpu this crate was built with: pass a game's own device to
/// [`GpuContext::from_device`] through the same version.
pub use wgpu;
