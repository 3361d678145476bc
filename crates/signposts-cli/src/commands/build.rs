//! `signposts build`: the oracle of a map, built and saved; with `--shard I/K`, one shard of
//! its compressed table (joined by `merge`); with `--plan`, what a sharded build would cost.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::json;
use signposts::BuildOptions;

use crate::input::read_map;
use crate::oracle::{Built, Making, build_oracle, connectivity, show_progress};
use crate::output::progress_bar;

/// Arguments of `signposts build`.
#[derive(Args)]
pub(crate) struct BuildArgs {
    /// The Moving AI `.map` file.
    map: PathBuf,
    /// Where to save the oracle, for `query` and `scen --oracle` (with `--shard`, the part,
    /// for `merge`).
    #[arg(short, long, required_unless_present = "plan")]
    output: Option<PathBuf>,
    #[command(flatten)]
    making: Making,
    /// Build only shard I of K of the compressed table (its searches toward one K-th of the
    /// targets), to join with the others by `merge`; implies `--compressed`. The spans
    /// follow from the map and K alone, so each machine of a build farm takes one I.
    #[arg(long, value_name = "I/K", value_parser = parse_shard, conflicts_with_all = ["dense", "gpu"])]
    shard: Option<(u32, u32)>,
    /// Before a sharded build: the time and memory one shard would take for each shard count
    /// K listed (`--plan 16,64,256`), from one small calibration shard built now (about 1,024
    /// targets' searches), scaled to each K's span. Saves nothing (`-o` is not written).
    #[arg(long, value_name = "K,K,...", value_delimiter = ',', conflicts_with_all = ["dense", "shard", "gpu"])]
    plan: Option<Vec<u32>>,
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

/// Runs `signposts build` (`--plan`, `--shard`, or the whole table).
pub(crate) fn run(args: &BuildArgs) -> Result<()> {
    match (&args.plan, args.shard) {
        (Some(counts), _) => plan_shards(args, counts),
        (None, Some(shard)) => build_shard(args, shard),
        (None, None) => build(args),
    }
}

/// `build`: the whole table, saved.
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
    crate::oracle::check_compressed(&grid, &args.making)?;
    let bar = progress_bar(
        args.json,
        "{spinner} shard [{bar:40}] {pos}/{len} batches, {elapsed} elapsed, ETA {eta}",
    );
    let start = Instant::now();
    let part = args.making.options(|p| show_progress(&bar, p)).build_grid_shard(
        &grid,
        connectivity(&args.making),
        index,
        count,
    );
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
    // The threads asked for, but no memory limit: calibration shards are small.
    let threads = args.making.threads.count();
    let mut options = BuildOptions::new();
    options.threads(threads);
    let start = Instant::now();
    let (mut core, mut span, mut densest) = (0usize, 0, 0f64);
    for &index in &picks {
        let part = options
            .build_grid_shard(&grid, connectivity(&args.making), index, calibration)
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
        threads,
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
