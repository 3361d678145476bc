//! `signposts`: build, query, check and render exact next-hop oracles of Moving AI maps.
//!
//! ```text
//! signposts build maps/arena.map --diagonal -o arena.sp
//! signposts query arena.sp 1 11 40 30
//! signposts scen maps/arena.map.scen
//! signposts scen maps/arena.map.scen --astar
//! signposts chase maps/den312d.map --diagonal -o chase.gif
//! signposts render maps/arena.map --diagonal --path 1 11 40 30 -o arena.png
//! ```
//!
//! Every command prints readable text, or one JSON object with `--json`. Errors are one line on
//! standard error and a non-zero exit.
//!
//! The command is this library's [`Cli`] (parsed by clap) and [`run`]; `src/main.rs` only
//! calls them. The library exists so that the argument parsing and the size checks that
//! guard allocation ([`limits`]) can be tested and fuzzed without a process; it is not a
//! stable API.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use signposts::grid::{
    Cell, Connectivity, Direction, Grid, GridOracle, Scenario, ScenarioCheck, parse_map, parse_scenarios,
};
use signposts::search::{Layer, Searcher, TileGrid};

/// Exact all-pairs next-hop oracles for grid maps.
#[derive(Parser)]
#[command(name = "signposts", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the oracle of a Moving AI `.map` and save it (or, with `--shard I/K`, one shard
    /// of its compressed table, for `merge`).
    Build(BuildArgs),
    /// Join the parts of a sharded build (`build --shard I/K`, every I of one K, any order)
    /// into the table one build would save, byte for byte.
    Merge(MergeArgs),
    /// Ask a saved oracle for the way from one cell to another.
    Query(QueryArgs),
    /// Check every line of a `.scen` file against the oracle of its map.
    Scen(ScenArgs),
    /// Draw a map, a shortest path, or the flow field toward a goal, as PNG.
    Render(RenderArgs),
    /// Let enemies chase a walking player across a map, a door closing and opening, and write
    /// the chase as an animated GIF, with each tick's cost beside A* and a flow field.
    Chase(chase::ChaseArgs),
    /// Build the navigation mesh (convex regions and doors) of a map or a polygon file, and its
    /// region oracle, and save them.
    Rooms(rooms::RoomsArgs),
    /// Ask saved rooms for the path between two points.
    RoomsQuery(rooms::RoomsQueryArgs),
}

/// How to build an oracle.
#[derive(Args, Clone)]
#[expect(clippy::struct_excessive_bools, reason = "command-line switches, each its own flag")]
struct Making {
    /// 8-connected moves (diagonals cost √2, no corner cutting) instead of 4-connected.
    #[arg(long)]
    diagonal: bool,
    /// Refuse an oracle taking more than this many bytes: the `bytes` that `build` reports
    /// (the table, the maps between cells and nodes, and the grid). A dense table is refused
    /// before building; a compressed one before building when its per-node and per-arc arrays
    /// alone are over the limit, after building otherwise. Suffixes K, M, G, T (powers of
    /// 1024), optionally followed by `B` or `iB`.
    #[arg(long, default_value = "8G", value_parser = parse_bytes)]
    memory_limit: u64,
    /// Build the dense table (every optimal move, O(1) queries) even on a large map.
    #[arg(long, conflicts_with = "compressed")]
    dense: bool,
    /// Build the compressed table (runs of first moves, binary-search queries) even on a
    /// small map. By default the dense table is built when it takes at most 512 MiB and fits
    /// the memory limit, the compressed one otherwise.
    #[arg(long)]
    compressed: bool,
    /// Build the table on the GPU (the same bytes as on the CPU): needs a signposts built with
    /// the `gpu` feature (`cargo install --path crates/signposts-cli --features gpu`) and a
    /// GPU driver (Vulkan, Metal or DirectX 12).
    #[arg(long)]
    gpu: bool,
}

/// Dense tables up to this size are built by default.
const DENSE_BY_DEFAULT: u64 = 512 << 20;

/// Which table to build, and why.
fn choose_table(grid: &Grid, making: &Making) -> (bool, String) {
    let needed = GridOracle::memory_needed(grid, connectivity(making));
    if making.compressed {
        (true, "compressed (asked for with --compressed)".into())
    } else if making.dense {
        (false, "dense (asked for with --dense)".into())
    } else if needed <= DENSE_BY_DEFAULT.min(making.memory_limit) {
        (false, format!("dense (its table takes {needed} bytes, at most {DENSE_BY_DEFAULT})"))
    } else {
        (
            true,
            format!(
                "compressed (a dense table would take {needed} bytes, over {})",
                DENSE_BY_DEFAULT.min(making.memory_limit)
            ),
        )
    }
}

#[derive(Args)]
struct BuildArgs {
    /// The `.map` file.
    map: PathBuf,
    /// Where to save the oracle (or the part, with `--shard`).
    #[arg(short, long, required_unless_present = "plan")]
    output: Option<PathBuf>,
    #[command(flatten)]
    making: Making,
    /// Build only shard I of K of the compressed table (its searches toward one K-th of the
    /// targets), to join with the others by `merge`; implies `--compressed`. The spans
    /// follow from the map and K alone, so each machine of a build farm takes one I.
    #[arg(long, value_name = "I/K", value_parser = parse_shard, conflicts_with = "dense")]
    shard: Option<(u32, u32)>,
    /// Before a sharded build: the time and memory one shard would take for each shard count
    /// K listed (`--plan 16,64,256`), from one small calibration shard built now (about 1,024
    /// targets' searches), scaled to each K's span. Saves nothing (`-o` is not written).
    #[arg(long, value_name = "K,K,...", value_delimiter = ',', conflicts_with_all = ["dense", "shard"])]
    plan: Option<Vec<u32>>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct MergeArgs {
    /// The part files, from `build --shard I/K`.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Where to save the joined oracle.
    #[arg(short, long)]
    output: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `I/K` with `I < K`.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let (i, k) = text.split_once('/').ok_or_else(|| format!("{text:?} is not I/K (say 2/8)"))?;
    let (i, k): (u32, u32) = (
        i.trim().parse().map_err(|e| format!("shard index {i:?}: {e}"))?,
        k.trim().parse().map_err(|e| format!("shard count {k:?}: {e}"))?,
    );
    if k == 0 || i >= k {
        return Err(format!("shard {i} of {k}: the index counts from 0 and stays below the count"));
    }
    Ok((i, k))
}

#[derive(Args)]
struct QueryArgs {
    /// A saved oracle (from `signposts build`).
    oracle: PathBuf,
    /// Start column.
    sx: u32,
    /// Start row.
    sy: u32,
    /// Goal column.
    gx: u32,
    /// Goal row.
    gy: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Answer from the memory-mapped table without checking it first: instant on a large
    /// table, but a damaged file may answer wrongly or stop with a panic (by default the
    /// whole file is checked first).
    #[arg(long)]
    no_verify: bool,
}

#[derive(Args)]
struct ScenArgs {
    /// The `.scen` file.
    scen: PathBuf,
    /// The map; by default the file named in the scenarios, next to the `.scen` file.
    #[arg(long)]
    map: Option<PathBuf>,
    /// Use this saved oracle instead of building one.
    #[arg(long, conflicts_with = "astar")]
    oracle: Option<PathBuf>,
    /// Answer each line with one A* search instead of an oracle (no table is built).
    #[arg(long)]
    astar: bool,
    /// Check 4-connected lengths. By default scenarios are checked with octile moves
    /// (diagonals √2, no corner cutting), the rule Moving AI's lengths are printed by;
    /// `--diagonal` says the same explicitly.
    #[arg(long, conflicts_with = "diagonal")]
    four: bool,
    #[command(flatten)]
    making: Making,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct RenderArgs {
    /// The `.map` file.
    map: PathBuf,
    /// Draw a shortest path from (SX, SY) to (GX, GY).
    #[arg(long, num_args = 4, value_names = ["SX", "SY", "GX", "GY"])]
    path: Option<Vec<u32>>,
    /// Colour every cell by its first move toward (GX, GY): the flow field.
    #[arg(long, num_args = 2, value_names = ["GX", "GY"])]
    field: Option<Vec<u32>>,
    /// Pixels per cell, 1 to 256 (default: the largest that keeps the image within 1024
    /// pixels). Images over 1 GiB of pixels are refused.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(limits::MAX_SCALE)))]
    scale: Option<u32>,
    /// Where to write the PNG.
    #[arg(short, long)]
    output: PathBuf,
    /// Draw the navigation mesh instead (regions, doors — closed ones red, one-way ones with
    /// an arrow — and with `--points` a path between two points); `map` may then be a polygon
    /// file or saved rooms (from `signposts rooms`) too.
    #[arg(long, conflicts_with_all = ["path", "field"])]
    rooms: bool,
    /// With `--rooms`: the agent radius.
    #[arg(long, requires = "rooms", default_value_t = 0.0)]
    radius: f64,
    /// With `--rooms`: draw the path from point (SX, SY) to (GX, GY) (cell units: a cell's
    /// centre is x + 0.5).
    #[arg(long, requires = "rooms", num_args = 4, value_names = ["SX", "SY", "GX", "GY"], allow_negative_numbers = true)]
    points: Option<Vec<f64>>,
    /// With `--points`: draw the exactly shortest path too (dashed white), beside the corridor
    /// path (red), and say both lengths.
    #[arg(long, requires = "points")]
    exact: bool,
    #[command(flatten)]
    making: Making,
}

/// `println!` that ends the program quietly when standard output is closed (a pipe into
/// `head`), instead of panicking.
#[macro_export]
#[doc(hidden)]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            panic!("writing to standard output: {e}");
        }
    }};
}

mod chase;
mod frames;
pub mod limits;
mod rooms;

/// Runs one parsed command line.
///
/// # Errors
/// Whatever the command met: an unreadable or malformed file, a size over a limit, a table
/// that cannot be built or saved; the message names the file or the flag.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Build(args) => match (&args.plan, args.shard) {
            (Some(counts), _) => plan_shards(&args, counts),
            (None, Some(shard)) => build_shard(&args, shard),
            (None, None) => build(&args),
        },
        Command::Merge(args) => merge(&args),
        Command::Query(args) => query(&args),
        Command::Scen(args) => scen(&args),
        Command::Render(args) => render(&args),
        Command::Chase(args) => chase::chase(&args),
        Command::Rooms(args) => rooms::rooms(&args),
        Command::RoomsQuery(args) => rooms::rooms_query(&args),
    }
}

/// `"8G"`, `"512M"`, `"1000"`, `"1KiB"` → bytes: digits, then nothing or one unit of `K`,
/// `M`, `G`, `T` (powers of 1024), each alone or followed by `B` or `iB`, any case.
pub(crate) fn parse_bytes(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, ""),
    };
    let value: u64 = digits.parse().map_err(|_| format!("`{text}` is not a byte count"))?;
    let unit = unit.to_ascii_uppercase();
    let prefix = unit.strip_suffix("IB").or_else(|| unit.strip_suffix('B')).unwrap_or(&unit);
    let shift = match (prefix, unit.as_str()) {
        (_, "" | "B") => 0,
        ("K", _) => 10,
        ("M", _) => 20,
        ("G", _) => 30,
        ("T", _) => 40,
        _ => return Err(format!("unknown unit in `{text}` (use K, M, G or T, alone or with B or iB)")),
    };
    value.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

/// The largest map or scenario file read: the largest shared map takes under 2 MiB.
const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads at most [`MAX_INPUT_BYTES`] of `path`, refusing a longer file (or an endless one,
/// like `/dev/zero`) instead of reading it all into memory.
fn read_capped(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        if size > MAX_INPUT_BYTES {
            bail!(
                "{} is {size} bytes, over the {MAX_INPUT_BYTES}-byte limit on map and scenario files",
                path.display()
            );
        }
        bail!("{} goes on past the {MAX_INPUT_BYTES}-byte limit on map and scenario files", path.display());
    }
    Ok(bytes)
}

fn read_map(path: &Path) -> Result<Grid> {
    let bytes = read_capped(path)?;
    parse_map(&bytes).with_context(|| format!("{}", path.display()))
}

fn connectivity(making: &Making) -> Connectivity {
    if making.diagonal { Connectivity::Eight } else { Connectivity::Four }
}

/// A built oracle, how long it took, and which table it has and why.
struct Built {
    oracle: GridOracle,
    seconds: f64,
    compressed: bool,
    why: String,
}

/// A progress bar on standard error drawn by `template` (hidden when `quiet`, and by
/// indicatif when standard error is not a terminal).
pub(crate) fn progress_bar(quiet: bool, template: &str) -> ProgressBar {
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(0) };
    bar.set_style(ProgressStyle::with_template(template).expect("a valid template").progress_chars("=> "));
    bar
}

/// Builds with a progress bar on standard error (hidden when not a terminal), choosing the
/// table by [`choose_table`].
fn build_oracle(grid: &Grid, making: &Making, quiet: bool) -> Result<Built> {
    let bar = progress_bar(
        quiet,
        "{spinner} building [{bar:40}] {pos}/{len} batches, {elapsed} elapsed, ETA {eta}",
    );
    let (compressed, why) = choose_table(grid, making);
    let progress = |p: signposts::Progress| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
    };
    let limit = making.memory_limit;
    if compressed {
        let at_least = compressed_bytes_at_least(grid, connectivity(making));
        if at_least > limit {
            bail!(
                "the compressed oracle of this map takes at least {at_least} bytes (its per-node and per-arc arrays), over the memory limit of {limit} bytes (raise --memory-limit)"
            );
        }
    }
    let start = Instant::now();
    let (result, why) = if making.gpu {
        let needed = GridOracle::memory_needed(grid, connectivity(making));
        if !compressed && needed > limit {
            bail!(
                "the dense oracle of this map takes {needed} bytes, over the memory limit of {limit} bytes (raise --memory-limit)"
            );
        }
        let (result, adapter) = build_on_gpu(grid, connectivity(making), compressed, progress)?;
        (result, format!("{why}, on the GPU ({adapter})"))
    } else if compressed {
        (GridOracle::build_compressed(grid, connectivity(making), progress), why)
    } else {
        (GridOracle::build_with(grid, connectivity(making), Some(limit), progress), why)
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

/// Builds `grid`'s table on the GPU wgpu finds; the build's result and the adapter's name.
#[cfg(feature = "gpu")]
fn build_on_gpu(
    grid: &Grid,
    connectivity: Connectivity,
    compressed: bool,
    progress: impl Fn(signposts::Progress) + Sync,
) -> Result<(Result<GridOracle, signposts::Error>, String)> {
    use signposts::grid::TableKind;
    let gpu = signposts::gpu::GpuContext::new().context("opening the GPU")?;
    let kind = if compressed { TableKind::Compressed } else { TableKind::Dense };
    Ok((GridOracle::build_gpu(grid, connectivity, kind, &gpu, progress), gpu.adapter_name().to_string()))
}

/// Without the `gpu` feature: an error saying how to get it.
#[cfg(not(feature = "gpu"))]
fn build_on_gpu(
    _: &Grid,
    _: Connectivity,
    _: bool,
    _: impl Fn(signposts::Progress) + Sync,
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
    let cells = u64::from(grid.width()) * u64::from(grid.height());
    let graph = GridOracle::graph_builder(grid, connectivity);
    5 * cells + 16 * graph.nodes_len() as u64 + 4 + 4 * graph.arcs_len() as u64
}

fn build(args: &BuildArgs) -> Result<()> {
    let output = args.output.as_deref().context("-o is required")?;
    let grid = read_map(&args.map)?;
    let Built { oracle, seconds, compressed, why } = build_oracle(&grid, &args.making, args.json)?;
    oracle.save_to(output).with_context(|| format!("saving {}", output.display()))?;
    let edges = oracle.edges_len();
    if args.json {
        out!(
            "{}",
            json!({
                "map": args.map.display().to_string(),
                "output": output.display().to_string(),
                "width": grid.width(),
                "height": grid.height(),
                "connectivity": if args.making.diagonal { 8 } else { 4 },
                "nodes": oracle.nodes_len(),
                "edges": edges,
                "table": if compressed { "compressed" } else { "dense" },
                "why": why,
                "bytes": oracle.memory_bytes(),
                "seconds": seconds,
            })
        );
    } else {
        out!(
            "{}: {}×{} map, {} open cells ({}-connected), {} edges",
            args.map.display(),
            grid.width(),
            grid.height(),
            oracle.nodes_len(),
            if args.making.diagonal { 8 } else { 4 },
            edges
        );
        out!("table: {why}");
        out!("built in {seconds:.2} s, {} bytes, saved to {}", oracle.memory_bytes(), output.display());
    }
    Ok(())
}

/// `build --shard I/K`: one shard of the compressed table, saved with the grid.
fn build_shard(args: &BuildArgs, (index, count): (u32, u32)) -> Result<()> {
    let output = args.output.as_deref().context("-o is required")?;
    let grid = read_map(&args.map)?;
    let bar = progress_bar(
        args.json,
        "{spinner} shard [{bar:40}] {pos}/{len} batches, {elapsed} elapsed, ETA {eta}",
    );
    let start = Instant::now();
    let part = GridOracle::build_shard(&grid, connectivity(&args.making), index, count, |p| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
    });
    bar.finish_and_clear();
    let part =
        part.with_context(|| format!("building shard {index} of {count} of {}", args.map.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    part.save_to(output).with_context(|| format!("saving {}", output.display()))?;
    let shard = part.shard();
    let columns = shard.columns();
    // Linux's peak resident memory of this process, the shard's build included.
    let peak = peak_memory();
    if args.json {
        out!(
            "{}",
            json!({
                "map": args.map.display().to_string(),
                "output": output.display().to_string(),
                "shard": index,
                "shards": count,
                "columns": [columns.start, columns.end],
                "runs": shard.runs_len(),
                "bytes": shard.memory_bytes(),
                "peak_bytes": peak,
                "seconds": seconds,
            })
        );
    } else {
        out!(
            "{}: shard {index} of {count}, target columns {}..{}: {} exact runs, {} bytes, built in {seconds:.2} s{}, saved to {}",
            args.map.display(),
            columns.start,
            columns.end,
            shard.runs_len(),
            shard.memory_bytes(),
            peak.map_or(String::new(), |p| format!(" (peak memory {p} bytes)")),
            output.display()
        );
    }
    Ok(())
}

/// This process's peak resident memory (Linux), or `None`.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse::<u64>()
        .ok()?;
    Some(kb * 1024)
}

/// A shard's bytes a run at the end of its build: 8 while its row folds, 5 in the part.
const RUN_BYTES: f64 = 13.0;

/// `build --plan K,K,...`: calibration shards' time, memory and runs per column, scaled to
/// each K's span.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "estimates of sizes and times, printed"
)]
fn plan_shards(args: &BuildArgs, counts: &[u32]) -> Result<()> {
    if counts.is_empty() || counts.contains(&0) {
        bail!("--plan takes shard counts of at least 1 (say --plan 16,64,256)");
    }
    let grid = read_map(&args.map)?;
    let cells = grid.passable_len();
    // About 1,024 targets a calibration shard (the core is at most the open cells), four of
    // them spread over the columns: spans differ (den312d's thirds by 13%, AR0602SR's
    // quarters by 2×), so the densest is scaled.
    let calibration = u32::try_from((cells / 1024).max(1)).unwrap_or(u32::MAX);
    let mut picks = vec![0, calibration / 3, 2 * calibration / 3, calibration - 1];
    picks.dedup();
    let start = Instant::now();
    let (mut core, mut span, mut densest) = (0, 0, 0f64);
    for &index in &picks {
        let part = GridOracle::build_shard(&grid, connectivity(&args.making), index, calibration, |_| {})
            .with_context(|| format!("building a calibration shard of {}", args.map.display()))?;
        let shard = part.shard();
        (core, span) = (shard.core_len(), shard.columns().len().max(1));
        densest = densest.max(shard.runs_len() as f64 / span as f64);
    }
    let seconds = start.elapsed().as_secs_f64() / picks.len() as f64;
    let peak = peak_memory();
    let calibration_runs = densest * span as f64;
    let rows: Vec<serde_json::Value> = counts
        .iter()
        .map(|&k| {
            let columns = core.div_ceil(k as usize);
            let runs = densest * columns as f64;
            // The calibration's peak less its runs is the graph and the searches' buffers.
            let memory = peak.map(|p| (p as f64 + (runs - calibration_runs).max(0.0) * RUN_BYTES) as u64);
            let part_bytes = (runs * 5.0 + 4.0 * cells as f64) as u64;
            json!({ "shards": k, "columns": columns, "seconds": seconds * columns as f64 / span as f64, "part_bytes": part_bytes, "peak_bytes": memory })
        })
        .collect();
    let runs = calibration_runs;
    if args.json {
        out!(
            "{}",
            json!({ "map": args.map.display().to_string(), "core": core, "calibration": { "shards": picks.len(), "columns": span, "seconds": seconds, "peak_bytes": peak, "runs_per_column": runs / span as f64 }, "plans": rows })
        );
        return Ok(());
    }
    out!(
        "{}: {core} target columns; {} calibration shards of {span} columns on {} threads, {seconds:.2} s each, at most {:.0} runs a column{}",
        args.map.display(),
        picks.len(),
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        runs / span as f64,
        peak.map_or(String::new(), |p| format!(", peak memory {p} bytes"))
    );
    out!(
        "per shard, scaled from them (time and runs in proportion to the columns; the graph and the searches' buffers as measured):"
    );
    for row in &rows {
        out!(
            "  {:>6} shards: {:>9} columns each, about {:>10.1} s, part {:>12} bytes, peak memory {}",
            row["shards"].as_u64().unwrap_or(0),
            row["columns"].as_u64().unwrap_or(0),
            row["seconds"].as_f64().unwrap_or(0.0),
            row["part_bytes"].as_u64().unwrap_or(0),
            row["peak_bytes"].as_u64().map_or("unknown (not Linux)".into(), |b| format!("{b} bytes")),
        );
    }
    Ok(())
}

/// `merge PART... -o TABLE`: the parts joined, each refusal naming its file.
fn merge(args: &MergeArgs) -> Result<()> {
    let output = &args.output;
    let start = Instant::now();
    let mut parts = Vec::with_capacity(args.parts.len());
    let mut seen: std::collections::HashMap<(u32, u32), &PathBuf> = std::collections::HashMap::new();
    for path in &args.parts {
        let part = signposts::grid::GridShard::load_from(path)
            .with_context(|| format!("loading {}", path.display()))?;
        if let Some(first) = parts.first() {
            let first: &signposts::grid::GridShard = first;
            if part.shard().fingerprint() != first.shard().fingerprint() {
                bail!(
                    "{} is a shard of another map or other options than {}",
                    path.display(),
                    args.parts[0].display()
                );
            }
        }
        if let Some(twin) = seen.insert(part.shard().index(), path) {
            let (i, k) = part.shard().index();
            bail!("{} and {} are both shard {i} of {k}", twin.display(), path.display());
        }
        parts.push(part);
    }
    let oracle = GridOracle::merge_shards(&parts).with_context(|| {
        let names: Vec<String> = args.parts.iter().map(|p| p.display().to_string()).collect();
        format!("merging {}", names.join(", "))
    })?;
    oracle.save_to(output).with_context(|| format!("saving {}", output.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        out!(
            "{}",
            json!({
                "parts": args.parts.len(),
                "output": output.display().to_string(),
                "nodes": oracle.nodes_len(),
                "bytes": oracle.memory_bytes(),
                "seconds": seconds,
            })
        );
    } else {
        out!(
            "merged {} parts in {seconds:.2} s: {} nodes, {} bytes, saved to {}",
            args.parts.len(),
            oracle.nodes_len(),
            oracle.memory_bytes(),
            output.display()
        );
    }
    Ok(())
}

fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::North => "north",
        Direction::NorthEast => "north-east",
        Direction::East => "east",
        Direction::SouthEast => "south-east",
        Direction::South => "south",
        Direction::SouthWest => "south-west",
        Direction::West => "west",
        Direction::NorthWest => "north-west",
    }
}

/// Opens a saved oracle memory-mapped, checked in full unless `verify` is false.
fn open_saved(path: &std::path::Path, verify: bool) -> Result<GridOracle> {
    let check = if verify { signposts::io::Check::Full } else { signposts::io::Check::Sizes };
    // SAFETY: the table is only read; a file rewritten while this process runs is the user's
    // to avoid (the map would show the change).
    unsafe { GridOracle::map_file(path, check) }.with_context(|| format!("loading {}", path.display()))
}

fn query(args: &QueryArgs) -> Result<()> {
    let oracle = open_saved(&args.oracle, !args.no_verify)?;
    let (from, to) = (Cell::new(args.sx, args.sy), Cell::new(args.gx, args.gy));
    let step = oracle.try_next_step(from, to).context("query")?;
    let steps: Vec<Direction> = oracle.next_steps(from, to).collect();
    let path: Vec<Cell> = oracle.path(from, to).collect();
    let distance = oracle.distance(from, to);
    if args.json {
        out!(
            "{}",
            json!({
                "from": [from.x, from.y],
                "to": [to.x, to.y],
                "reachable": oracle.path_exists(from, to),
                "table": if oracle.is_compressed() { "compressed" } else { "dense" },
                "next_step": step.map(direction_name),
                "next_steps": steps.iter().map(|&d| direction_name(d)).collect::<Vec<_>>(),
                "distance": distance,
                "path": path.iter().map(|c| [c.x, c.y]).collect::<Vec<_>>(),
            })
        );
        return Ok(());
    }
    match distance {
        None => out!("{to} cannot be reached from {from}"),
        Some(d) => {
            let names: Vec<&str> = steps.iter().map(|&d| direction_name(d)).collect();
            if let Some(s) = step {
                // A compressed table keeps the steps optimal toward its whole run of targets.
                let which = if oracle.is_compressed() { "optimal kept" } else { "all optimal" };
                out!("next step: {} ({which}: {})", direction_name(s), names.join(", "));
            } else {
                out!("already there");
            }
            out!("distance: {d:.6}");
            let cells: Vec<String> = path.iter().map(ToString::to_string).collect();
            out!("path ({} cells): {}", path.len(), cells.join(" "));
        }
    }
    Ok(())
}

fn scen(args: &ScenArgs) -> Result<()> {
    // Octile unless 4-connected moves are asked for: Moving AI lengths are octile.
    let making = Making { diagonal: !args.four, ..args.making.clone() };
    let bytes = read_capped(&args.scen)?;
    let scenarios = parse_scenarios(&bytes).with_context(|| format!("{}", args.scen.display()))?;
    let map_path = if let Some(p) = &args.map {
        p.clone()
    } else {
        let Some(first) = scenarios.first() else { bail!("{} has no scenarios", args.scen.display()) };
        args.scen.with_file_name(first.map_name())
    };
    let grid = read_map(&map_path)?;
    // Lines naming another map than the file's first line are reported, not checked.
    let (scenarios, foreign) = lines_of_one_map(scenarios);
    // Lines that cannot be valid on this map are found from the grid alone.
    let mut invalid: Vec<(usize, String)> = foreign.clone();
    invalid.extend(scenarios.iter().filter_map(|s| Some((s.line, s.problem(&grid)?))));
    invalid.sort_unstable_by_key(|&(line, _)| line);
    let lines = scenarios.len() + foreign.len();
    if args.astar {
        let tiles = TileGrid::from_grid(&grid);
        let mut searcher = Searcher::new();
        let connectivity = connectivity(&making);
        let start = Instant::now();
        let mut check = ScenarioCheck::run_with(&grid, &scenarios, |a, b| {
            let route = searcher.astar(&tiles, Layer::WALKABLE, connectivity, a, b).ok()?;
            route.cost().map(signposts::Cost::value)
        });
        let per_query_ns = start.elapsed().as_secs_f64() * 1e9 / scenarios.len().max(1) as f64;
        add_invalid(&mut check, foreign);
        report_check(args, &map_path, lines, &check, per_query_ns, "astar", connectivity);
        return Ok(());
    }
    let oracle = if let Some(saved) = &args.oracle {
        open_saved(saved, true)?
    } else {
        let needed = GridOracle::memory_needed(&grid, connectivity(&making));
        if needed > making.memory_limit && !choose_table(&grid, &making).0 {
            let reason = format!(
                "the oracle of {} needs {needed} bytes, over the memory limit of {} (raise --memory-limit)",
                map_path.display(),
                making.memory_limit
            );
            if args.json {
                out!(
                    "{}",
                    json!({
                        "scen": args.scen.display().to_string(),
                        "checked": false,
                        "reason": reason,
                        "lines": lines,
                        "invalid": invalid.iter().map(|(l, r)| json!({"line": l, "reason": r})).collect::<Vec<_>>(),
                    })
                );
            } else {
                for (line, why) in &invalid {
                    out!("  line {line}: invalid on this map: {why}");
                }
            }
            bail!(reason);
        }
        build_oracle(&grid, &making, args.json)?.oracle
    };
    if oracle.grid() != &grid {
        bail!("the saved oracle belongs to another map than {}", map_path.display());
    }
    if oracle.connectivity() != connectivity(&making) {
        bail!(
            "the saved oracle has {} moves but the scenarios are checked with {} moves: {}",
            moves_name(oracle.connectivity()),
            moves_name(connectivity(&making)),
            if args.four {
                "drop --four to check the octile lengths Moving AI prints"
            } else {
                "Moving AI lengths are octile; build the table with --diagonal, or pass --four to check 4-connected lengths"
            }
        );
    }
    let start = Instant::now();
    let mut check = ScenarioCheck::run(&oracle, &scenarios);
    let per_query_ns = start.elapsed().as_secs_f64() * 1e9 / scenarios.len().max(1) as f64;
    add_invalid(&mut check, foreign);
    report_check(args, &map_path, lines, &check, per_query_ns, "oracle", connectivity(&making));
    Ok(())
}

/// Splits off the lines naming another map (by file name) than the first line does, each with
/// the reason it is not checked.
fn lines_of_one_map(scenarios: Vec<Scenario>) -> (Vec<Scenario>, Vec<(usize, String)>) {
    let Some(first) = scenarios.first().map(|s| s.map_name().to_string()) else {
        return (scenarios, Vec::new());
    };
    let (same, other): (Vec<Scenario>, Vec<Scenario>) =
        scenarios.into_iter().partition(|s| s.map_name() == first);
    let reasons = other
        .iter()
        .map(|s| {
            (s.line, format!("names the map {}, not {first} as the file's first line does", s.map_name()))
        })
        .collect();
    (same, reasons)
}

/// Adds lines found invalid before checking to `check`, keeping its lines in order.
fn add_invalid(check: &mut ScenarioCheck, invalid: Vec<(usize, String)>) {
    check.invalid.extend(invalid);
    check.invalid.sort_unstable_by_key(|&(line, _)| line);
}

/// `"octile"` or `"4-connected"`.
fn moves_name(connectivity: Connectivity) -> &'static str {
    match connectivity {
        Connectivity::Eight => "octile",
        Connectivity::Four => "4-connected",
    }
}

/// Prints a scenario check (text or JSON) and exits with 2 when a line mismatched.
fn report_check(
    args: &ScenArgs,
    map_path: &Path,
    lines: usize,
    check: &ScenarioCheck,
    per_query_ns: f64,
    method: &str,
    moves: Connectivity,
) {
    let ok = check.mismatched.is_empty();
    if args.json {
        out!(
            "{}",
            json!({
                "scen": args.scen.display().to_string(),
                "map": map_path.display().to_string(),
                "method": method,
                "moves": moves_name(moves),
                "checked": true,
                "lines": lines,
                "matched": check.matched,
                "mismatched": check.mismatched.iter().map(|&(l, p, c)| json!({"line": l, "printed": p, "computed": c})).collect::<Vec<_>>(),
                "invalid": check.invalid.iter().map(|(l, r)| json!({"line": l, "reason": r})).collect::<Vec<_>>(),
                "max_error": check.max_error,
                "ns_per_query": per_query_ns,
            })
        );
    } else {
        let how = if method == "astar" { "one A* search each" } else { "oracle, path walk included" };
        out!(
            "moves: {}",
            match moves {
                Connectivity::Eight =>
                    "octile (diagonals √2, no corner cutting), the rule Moving AI's lengths are printed by",
                Connectivity::Four =>
                    "4-connected (asked for with --four): lines whose shortest path turns diagonally differ from the printed octile lengths",
            }
        );
        out!(
            "{}: {} lines, {} matched, {} mismatched, {} invalid; max error {:.2e}; {:.0} ns per scenario ({how})",
            args.scen.display(),
            lines,
            check.matched,
            check.mismatched.len(),
            check.invalid.len(),
            check.max_error,
            per_query_ns
        );
        for (line, reason) in &check.invalid {
            out!("  line {line}: invalid on this map: {reason}");
        }
        for (line, printed, computed) in &check.mismatched {
            out!("  line {line}: printed {printed}, computed {computed:?}");
        }
    }
    if !ok {
        std::process::exit(2);
    }
}

fn render(args: &RenderArgs) -> Result<()> {
    if args.rooms {
        return rooms::render(
            &args.map,
            args.radius,
            args.points.as_deref(),
            args.exact,
            args.scale,
            &args.output,
        );
    }
    let grid = read_map(&args.map)?;
    let scale = limits::render_scale(args.scale, grid.width(), grid.height());
    let (w, h) = limits::render_image(grid.width(), grid.height(), scale)?;
    let mut colours: Vec<[u8; 3]> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .map(|c| if grid.is_passable(c) { [245, 245, 240] } else { [40, 44, 52] })
        .collect();
    let index = |c: Cell| (c.y * grid.width() + c.x) as usize;
    if args.path.is_some() || args.field.is_some() {
        let oracle = build_oracle(&grid, &args.making, false)?.oracle;
        if let Some(field) = &args.field {
            let goal = Cell::new(field[0], field[1]);
            oracle.try_next_step(goal, goal).context("the field's goal")?;
            for y in 0..grid.height() {
                for x in 0..grid.width() {
                    let c = Cell::new(x, y);
                    if let Some(d) = oracle.next_step(c, goal) {
                        colours[index(c)] = direction_colour(d);
                    } else if grid.is_passable(c) && c != goal {
                        colours[index(c)] = [150, 150, 150];
                    }
                }
            }
            colours[index(goal)] = [0, 0, 0];
        }
        if let Some(p) = &args.path {
            let (from, to) = (Cell::new(p[0], p[1]), Cell::new(p[2], p[3]));
            oracle.try_next_step(from, to).context("the path's ends")?;
            let path: Vec<Cell> = oracle.path(from, to).collect();
            if path.is_empty() {
                bail!("{to} cannot be reached from {from}");
            }
            for &c in &path {
                colours[index(c)] = [220, 40, 40];
            }
            colours[index(from)] = [30, 160, 60];
            colours[index(to)] = [30, 80, 220];
        }
    }
    let image = image::RgbImage::from_fn(w, h, |px, py| {
        image::Rgb(colours[index(Cell::new(px / scale, py / scale))])
    });
    // Encoded in memory first, so a failed encoding leaves no file behind.
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).context("encoding the PNG")?;
    write_whole(&args.output, png.get_ref())?;
    out!("wrote {} ({w}×{h} pixels, {scale} per cell)", args.output.display());
    Ok(())
}

/// Writes `bytes` to a temporary file beside `path` and renames it onto `path`, so a failed
/// write leaves no partial file.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(name);
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("writing {}", path.display()));
    }
    Ok(())
}

/// A hue per direction, so a flow field reads at a glance.
fn direction_colour(d: Direction) -> [u8; 3] {
    match d {
        Direction::North => [66, 133, 244],
        Direction::NorthEast => [0, 172, 193],
        Direction::East => [52, 168, 83],
        Direction::SouthEast => [160, 200, 40],
        Direction::South => [251, 188, 5],
        Direction::SouthWest => [255, 112, 67],
        Direction::West => [234, 67, 53],
        Direction::NorthWest => [171, 71, 188],
    }
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn byte_counts_read_with_units() {
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert_eq!(parse_bytes("8G"), Ok(8 << 30));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert!(parse_bytes("12Q").is_err());
        assert!(parse_bytes("x").is_err());
        assert_eq!(parse_bytes("1kb"), Ok(1 << 10));
        assert_eq!(parse_bytes("2Tib"), Ok(2 << 40));
        assert_eq!(parse_bytes("7B"), Ok(7));
    }

    #[test]
    fn byte_counts_refuse_repeated_or_stray_unit_letters() {
        // `1KiBBBiii` was read as 1 KiB: the unit's trailing B and I were trimmed as often as found.
        for text in ["1KiBBBiii", "1KBB", "1KiBB", "1I", "1IB", "1Ki", "1KBi", "1 K", "1K ", "1KK"] {
            assert!(parse_bytes(text).is_err(), "{text} was accepted");
        }
    }
}
