//! The crate's one error type.

use core::fmt;
use std::sync::Arc;

use crate::NodeId;

/// Everything that can go wrong in `signposts`, with the data needed to fix it.
///
/// The enum is `#[non_exhaustive]`: later versions add variants as new inputs (map files, saved
/// tables) are read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A node id was not below the graph's node count.
    ///
    /// Fix: ids run from `0` to `nodes - 1`; grow the builder with
    /// [`GraphBuilder::resize`](crate::GraphBuilder::resize) first if the node is meant to exist.
    NodeOutOfRange {
        /// The id that was passed.
        node: NodeId,
        /// How many nodes the graph has.
        nodes: usize,
    },
    /// Building would need more memory than the
    /// [`memory_limit`](crate::BuildOptions::memory_limit). Nothing was allocated.
    ///
    /// Fix: raise the limit, or use a smaller graph (the dense table grows with the square of the
    /// node count; see the crate docs' memory table).
    OverMemoryLimit {
        /// Bytes the built structure would occupy.
        needed: u64,
        /// The configured limit in bytes.
        limit: u64,
    },
    /// The allocator refused the memory a build needs (the machine does not have it).
    ///
    /// Fix: as for [`Error::OverMemoryLimit`]; set a limit to fail before trying.
    AllocationFailed {
        /// Bytes that were requested.
        bytes: u64,
    },
    /// The graph has more arcs (two per undirected edge) than the table's `u32` arc index holds.
    ///
    /// Fix: split the graph; a table that large would not fit in memory anyway.
    TooManyArcs {
        /// Arcs in the graph.
        arcs: usize,
        /// The largest arc count supported.
        max: usize,
    },
    /// The operation does not support this kind of graph (say, a compressed table of a
    /// weighted graph).
    ///
    /// Fix: `what` names the limit; use the dense [`Graph`](crate::Graph), which takes every
    /// graph.
    Unsupported {
        /// What is not supported.
        what: &'static str,
    },
    /// An arc was given cost 0. Free arcs would let a path cycle without cost, so every arc
    /// costs at least 1.
    ///
    /// Fix: scale the costs so that the cheapest arc costs 1.
    ZeroCost {
        /// The arc's tail.
        from: NodeId,
        /// The arc's head.
        to: NodeId,
    },
    /// Malformed input text (a Moving AI map or scenario file, an ASCII grid).
    ///
    /// Fix: the file is not in the format; `line` and `column` (1-based; 0 when the whole
    /// input is at fault) point at the first problem.
    Parse {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What was wrong there.
        message: String,
    },
    /// A cell outside the grid was passed.
    ///
    /// Fix: cells run from `(0, 0)` to `(width − 1, height − 1)`.
    CellOutOfBounds {
        /// Column passed.
        x: u32,
        /// Row passed.
        y: u32,
        /// Grid width.
        width: u32,
        /// Grid height.
        height: u32,
    },
    /// A blocked cell was passed where an open one is needed (a start or a goal).
    ///
    /// Fix: blocked cells have no node in the oracle; check `Grid::is_passable` first.
    CellBlocked {
        /// Column passed.
        x: u32,
        /// Row passed.
        y: u32,
    },
    /// Reading or writing a file failed.
    ///
    /// Fix: as the operating system's message says (a missing file, no permission, a full
    /// disk).
    Io {
        /// The kind of failure.
        kind: std::io::ErrorKind,
        /// The operating system's error: also [`std::error::Error::source`].
        source: IoError,
    },
    /// The data is not a saved table this build can read: wrong magic bytes, another format
    /// version, or another kind of oracle.
    ///
    /// Fix: rebuild and save the table with this version of signposts.
    Format {
        /// What was found.
        message: String,
    },
    /// A saved table ends early.
    ///
    /// Fix: the file was cut short (an interrupted copy or download); save it again.
    Truncated {
        /// Bytes the header implies (at least).
        expected: u64,
        /// Bytes found.
        actual: u64,
    },
    /// A saved table fails its checksum or a structural check.
    ///
    /// Fix: the file is damaged; save it again.
    Corrupt {
        /// Which check failed.
        message: String,
    },
    /// The graph has more nodes than node ids can name.
    ///
    /// Fix: node ids are `u32`, and `u32::MAX` is reserved; split the graph.
    TooManyNodes {
        /// The requested node count.
        nodes: usize,
        /// The largest node count supported by this type.
        max: usize,
    },
    /// The build was stopped by its [`Cancel`](crate::Cancel) token.
    ///
    /// Fix: nothing to fix; the caller asked for it (start the build again to have a table).
    Cancelled,
    /// Shards of a compressed build that do not make one table: of another graph or another
    /// column order, of another shard count, or a span missing or given twice.
    ///
    /// Fix: merge every shard `0..k` of one `k`, each built from the same map, options and
    /// signposts version.
    ShardMismatch {
        /// What does not match.
        message: String,
    },
    /// A GPU build (feature `gpu`) could not use the GPU: no adapter (no GPU, no driver, no
    /// Vulkan loader), a device that could not be opened or was lost, or an error its driver
    /// reported.
    ///
    /// Fix: `message` says which; install the GPU's driver (on Linux its Vulkan driver and
    /// `libvulkan1`), or build on the CPU, which takes every graph.
    Gpu {
        /// What went wrong, in the words of wgpu or the driver.
        message: String,
    },
    /// A GPU build's buffers do not fit the device: even its smallest chunk of targets passes
    /// a limit (`limit`: the device's largest buffer, or the context's memory limit), or the
    /// device refused the memory (`limit` is `None`). Nothing was left allocated.
    ///
    /// Fix: raise `GpuContext::with_memory_limit` where it was set, use a larger device, or
    /// build on the CPU.
    GpuMemory {
        /// Bytes the build needs on the device (one buffer when a buffer limit refused it).
        needed: u64,
        /// The limit it passed, when one did.
        limit: Option<u64>,
    },
}

/// The error returned by [`GraphBuilder::try_build`](crate::GraphBuilder::try_build): the
/// crate's [`Error`].
pub type BuildError = Error;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::NodeOutOfRange { node, nodes } => {
                write!(f, "node {node} is out of range: the graph has {nodes} nodes (ids 0..{nodes})")
            }
            Error::OverMemoryLimit { needed, limit } => write!(
                f,
                "building needs {needed} bytes ({}), over the memory limit of {limit} bytes ({})",
                human_bytes(needed),
                human_bytes(limit)
            ),
            Error::AllocationFailed { bytes } => {
                write!(f, "could not allocate {bytes} bytes ({}) for the table", human_bytes(bytes))
            }
            Error::TooManyArcs { arcs, max } => {
                write!(f, "{arcs} arcs is too many: at most {max} are supported")
            }
            Error::Unsupported { what } => write!(f, "not supported: {what}"),
            Error::ZeroCost { from, to } => {
                write!(f, "the arc {from} -> {to} has cost 0; every arc must cost at least 1")
            }
            Error::Parse { line, column, ref message } => {
                write!(f, "line {line}, column {column}: {message}")
            }
            Error::CellOutOfBounds { x, y, width, height } => {
                write!(f, "cell ({x}, {y}) is outside the {width}×{height} grid")
            }
            Error::CellBlocked { x, y } => write!(f, "cell ({x}, {y}) is blocked"),
            Error::Io { .. } => write!(f, "reading or writing failed"),
            Error::Format { ref message } => write!(f, "unreadable table: {message}"),
            Error::Truncated { expected, actual } => {
                write!(f, "the saved table is truncated: {actual} bytes, expected at least {expected}")
            }
            Error::Corrupt { ref message } => write!(f, "the saved table is corrupt: {message}"),
            Error::TooManyNodes { nodes, max } => {
                write!(f, "{nodes} nodes is too many: at most {max} are supported")
            }
            Error::Cancelled => write!(f, "the build was cancelled"),
            Error::ShardMismatch { ref message } => write!(f, "the shards do not make one table: {message}"),
            Error::Gpu { ref message } => write!(f, "GPU: {message}"),
            Error::GpuMemory { needed, limit: Some(limit) } => write!(
                f,
                "the GPU build needs {needed} bytes ({}) on the device, over its limit of {limit} bytes ({})",
                human_bytes(needed),
                human_bytes(limit)
            ),
            Error::GpuMemory { needed, limit: None } => write!(
                f,
                "the GPU refused the {needed} bytes ({}) the build needs on the device",
                human_bytes(needed)
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source.get()),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    /// [`Error::Io`], keeping `error` as the source.
    fn from(error: std::io::Error) -> Error {
        Error::Io { kind: error.kind(), source: IoError::from(error) }
    }
}

/// An operating system's I/O error inside [`Error::Io`], shared so that [`Error`] stays
/// `Clone`. Two compare equal when their kinds and messages do.
#[derive(Debug, Clone)]
pub struct IoError(Arc<std::io::Error>);

impl IoError {
    /// The error itself.
    #[must_use]
    pub fn get(&self) -> &std::io::Error {
        &self.0
    }
}

impl From<std::io::Error> for IoError {
    fn from(error: std::io::Error) -> IoError {
        IoError(Arc::new(error))
    }
}

impl PartialEq for IoError {
    fn eq(&self, other: &IoError) -> bool {
        self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoError {}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Formats a byte count with a binary unit, e.g. `1.50 GiB`.
#[expect(clippy::cast_precision_loss, reason = "display only")]
pub(crate) fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{value:.2} {}", UNITS[unit]) }
}

#[cold]
#[track_caller]
pub(crate) fn panic_with(error: &Error) -> ! {
    panic!("{error}")
}
