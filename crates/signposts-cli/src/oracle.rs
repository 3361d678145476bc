//! Grid oracles for the commands: the build flags that every building command shares
//! ([`Making`]), the choice between the dense and the compressed table, the build with its
//! progress bar and memory limit (on the CPU or the GPU), and saved oracles opened.

use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::ProgressBar;
use signposts::format::Check;
use signposts::grid::{Connectivity, Grid, GridOracle, TableKind};
use signposts::{BuildOptions, Progress};

use crate::cli::Threads;
use crate::input::{FileKind, expect_kind};
use crate::output::progress_bar;

/// How to build an oracle.
#[derive(Args, Clone)]
#[expect(clippy::struct_excessive_bools, reason = "command-line switches, each its own flag")]
pub(crate) struct Making {
    /// 8-connected moves: straight steps cost 1, diagonal ones √2, no corner cutting (octile).
    #[arg(long)]
    pub(crate) diagonal: bool,
    /// 4-connected moves, each costing 1: the default of every command but `scen`.
    #[arg(long, conflicts_with = "diagonal")]
    pub(crate) four: bool,
    /// Refuse an oracle taking more than this many bytes: the `bytes` that `build` reports
    /// (the table, the maps between cells and nodes, and the grid). A dense table is refused
    /// before building; a compressed one, or a shard of one (`build --shard`), before building
    /// when its per-node and per-arc arrays alone are over the limit, after building otherwise. Suffixes K, M, G, T (powers of 1024), optionally followed by `B` or `iB`.
    #[arg(long, default_value = "8G", value_parser = crate::cli::parse_bytes)]
    pub(crate) memory_limit: u64,
    /// Build the dense table (every optimal move, O(1) queries) even on a large map.
    #[arg(long, conflicts_with = "compressed")]
    pub(crate) dense: bool,
    /// Build the compressed table (runs of first moves, binary-search queries) even on a
    /// small map. By default the dense table is built when it takes at most 512 MiB and fits
    /// the memory limit, the compressed one otherwise.
    #[arg(long)]
    pub(crate) compressed: bool,
    /// Build the table on the GPU (the same bytes as on the CPU): needs a signposts built with
    /// the `gpu` feature (`cargo install --path crates/signposts-cli --features gpu`) and a
    /// GPU driver (Vulkan, Metal or DirectX 12).
    #[arg(long)]
    pub(crate) gpu: bool,
    #[command(flatten)]
    pub(crate) threads: Threads,
}

impl Making {
    /// The run settings these flags ask for, `progress` reported: the memory limit and the
    /// threads (the GPU is opened by the build that needs it).
    pub(crate) fn options<'a>(&self, progress: impl Fn(Progress) + Send + Sync + 'a) -> BuildOptions<'a> {
        let mut options = BuildOptions::new();
        self.threads.apply(options.memory_limit(self.memory_limit).progress(progress));
        options
    }
}

/// Dense tables up to this size are built by default.
const DENSE_BY_DEFAULT: u64 = 512 << 20;

/// Which table to build, and why.
pub(crate) fn choose_table(grid: &Grid, making: &Making) -> (TableKind, String) {
    if making.compressed {
        return (TableKind::Compressed, "compressed (asked for with --compressed)".into());
    } else if making.dense {
        return (TableKind::Dense, "dense (asked for with --dense)".into());
    }
    // A dense table holds a bit per arc for every target: counted from the cells, this rules
    // out a large map's dense table without building its graph (gigabytes on a map of 2^24
    // cells) to size it exactly.
    let (nodes, arcs) = graph_counts(grid, connectivity(making));
    let at_least = arcs.saturating_mul(nodes.div_ceil(64)).saturating_mul(8);
    let most = DENSE_BY_DEFAULT.min(making.memory_limit);
    if at_least > most {
        return (
            TableKind::Compressed,
            format!("compressed (a dense table would take at least {at_least} bytes, over {most})"),
        );
    }
    let needed = GridOracle::memory_needed(grid, connectivity(making));
    if needed <= most {
        (TableKind::Dense, format!("dense (its table takes {needed} bytes, at most {DENSE_BY_DEFAULT})"))
    } else {
        (
            TableKind::Compressed,
            format!(
                "compressed (a dense table would take {needed} bytes, over {})",
                DENSE_BY_DEFAULT.min(making.memory_limit)
            ),
        )
    }
}

/// The moves `making` asks for.
pub(crate) fn connectivity(making: &Making) -> Connectivity {
    if making.diagonal { Connectivity::Eight } else { Connectivity::Four }
}

/// A built oracle, how long it took, and which table it has and why.
pub(crate) struct Built {
    pub(crate) oracle: GridOracle,
    pub(crate) seconds: f64,
    pub(crate) compressed: bool,
    pub(crate) why: String,
}

/// Builds with a progress bar on standard error (hidden when not a terminal), choosing the
/// table by [`choose_table`]. The build's memory limit bounds the table (a dense one before it
/// is built); the oracle's maps between cells and nodes are counted here, after.
pub(crate) fn build_oracle(grid: &Grid, making: &Making, quiet: bool) -> Result<Built> {
    let bar = progress_bar(
        quiet,
        "{spinner} building [{bar:40}] {pos}/{len} batches, {elapsed} elapsed, ETA {eta}",
    );
    let (kind, why) = choose_table(grid, making);
    let compressed = kind == TableKind::Compressed;
    let limit = making.memory_limit;
    if compressed {
        check_compressed(grid, making)?;
    }
    let options = making.options(|p| show_progress(&bar, p));
    let start = Instant::now();
    let (result, why) = if making.gpu {
        let (result, adapter) = build_on_gpu(grid, connectivity(making), kind, &options)?;
        (result, format!("{why}, on the GPU ({adapter})"))
    } else {
        (options.build_grid(grid, connectivity(making), kind), why)
    };
    bar.finish_and_clear();
    let oracle = result.with_context(|| format!("building the {why}"))?;
    let bytes = oracle.memory_bytes() as u64;
    if bytes > limit {
        bail!(
            "the built {why} takes {bytes} bytes, over the memory limit of {limit} bytes (raise --memory-limit)"
        );
    }
    Ok(Built { oracle, seconds: start.elapsed().as_secs_f64(), compressed, why })
}

/// Moves `bar` to a build's progress: `done` of `total` batches of targets.
pub(crate) fn show_progress(bar: &ProgressBar, progress: Progress) {
    bar.set_length(progress.total as u64);
    bar.set_position(progress.done as u64);
}

/// Builds `grid`'s table on the GPU wgpu finds, with the other settings of `options`; the
/// build's result and the adapter's name.
#[cfg(feature = "gpu")]
fn build_on_gpu(
    grid: &Grid,
    connectivity: Connectivity,
    kind: TableKind,
    options: &BuildOptions<'_>,
) -> Result<(Result<GridOracle, signposts::Error>, String)> {
    let gpu = signposts::gpu::GpuContext::new().context("opening the GPU")?;
    let result = options.clone().gpu(&gpu).build_grid(grid, connectivity, kind);
    Ok((result, gpu.adapter_name().to_string()))
}

/// Without the `gpu` feature: an error saying how to get it.
#[cfg(not(feature = "gpu"))]
fn build_on_gpu(
    _: &Grid,
    _: Connectivity,
    _: TableKind,
    _: &BuildOptions<'_>,
) -> Result<(Result<GridOracle, signposts::Error>, String)> {
    bail!(
        "this signposts was built without GPU support: rebuild it with the `gpu` feature \
         (cargo install --path crates/signposts-cli --features gpu)"
    )
}

/// A lower bound on [`GridOracle::memory_bytes`] of the compressed oracle of `grid`, from the
/// arrays it holds whatever the runs: per cell a node id (4 bytes) and a passable flag (1); per
/// node its cell (8), its column (3), its parent slot (1) and its arc offset (4); per arc its
/// head (4).
fn compressed_bytes_at_least(grid: &Grid, connectivity: Connectivity) -> u64 {
    let (nodes, arcs) = graph_counts(grid, connectivity);
    let cells = u64::from(grid.width()) * u64::from(grid.height());
    5 * cells + 16 * nodes + 4 + 4 * arcs
}

/// The nodes and arcs of the grid's graph, counted from the cells without building it: a node
/// per open cell, two arcs per move between open cells (east and south, and for
/// eight-connected moves the diagonals the grid allows).
fn graph_counts(grid: &Grid, connectivity: Connectivity) -> (u64, u64) {
    use signposts::grid::{Cell, Direction};
    let forward: &[Direction] = if connectivity == Connectivity::Four {
        &[Direction::East, Direction::South]
    } else {
        &[Direction::East, Direction::South, Direction::SouthEast, Direction::SouthWest]
    };
    let (mut nodes, mut arcs) = (0u64, 0u64);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let cell = Cell::new(x, y);
            if grid.is_passable(cell) {
                nodes += 1;
                arcs += 2 * forward.iter().filter(|&&d| grid.step(cell, d).is_some()).count() as u64;
            }
        }
    }
    (nodes, arcs)
}

/// Refuses a compressed oracle (whole, or a shard of one) that cannot be built, before any
/// work: more open cells than the compressed table's node limit, or per-node and per-arc
/// arrays alone over the memory limit.
pub(crate) fn check_compressed(grid: &Grid, making: &Making) -> Result<()> {
    let nodes = grid.passable_len();
    let max = signposts::CompressedGraph::MAX_NODES;
    if nodes > max {
        bail!(
            "this map has {nodes} open cells, over the compressed table's limit of {max} nodes (2^24 - 1): split the map"
        );
    }
    let (at_least, limit) = (compressed_bytes_at_least(grid, connectivity(making)), making.memory_limit);
    if at_least > limit {
        bail!(
            "the compressed oracle of this map takes at least {at_least} bytes (its per-node and per-arc arrays), over the memory limit of {limit} bytes (raise --memory-limit)"
        );
    }
    Ok(())
}

/// Opens a saved oracle memory-mapped, checked in full unless `verify` is false.
pub(crate) fn open_saved(path: &std::path::Path, verify: bool) -> Result<GridOracle> {
    expect_kind(path, &[FileKind::Table], "a saved table")?;
    let check = if verify { Check::Full } else { Check::Sizes };
    // SAFETY: the table is only read; a file rewritten while this process runs is the user's
    // to avoid (the map would show the change).
    unsafe { GridOracle::map_file(path, check) }.with_context(|| format!("loading {}", path.display()))
}
