//! `signposts query`: a saved oracle asked for the way from one cell to another.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;
use signposts::grid::{Cell, Direction};

use crate::oracle::open_saved;
use crate::output::decimal;

/// Arguments of `signposts query`.
#[derive(Args)]
pub(crate) struct QueryArgs {
    /// A saved oracle (from `signposts build` or `signposts merge`).
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

/// Runs `signposts query`.
pub(crate) fn run(args: &QueryArgs) -> Result<()> {
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
            out!("distance: {}", decimal(d));
            let cells: Vec<String> = path.iter().map(ToString::to_string).collect();
            out!("path ({} cells): {}", path.len(), cells.join(" "));
        }
    }
    Ok(())
}

/// The name of a move, as printed.
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
