//! `signposts rooms-query`: saved rooms asked for the path between two points (the corridor
//! path, or with `--exact` the exactly shortest one), or a saved exact index (always exact).

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use serde_json::json;
use signposts_rooms::{Path as RoomsPath, Point};

use crate::cli::Threads;
use crate::input::{FileKind, expect_kind, sniff};
use crate::navmesh::{build_exact, load_rooms, open_exact};
use crate::output::{decimal, point};

/// Arguments of `signposts rooms-query`.
#[derive(Args)]
pub(crate) struct RoomsQueryArgs {
    /// Saved rooms (from `signposts rooms`), or a saved exact index (from `signposts rooms
    /// --exact`: answered exactly, opened in place without a build).
    rooms: PathBuf,
    /// Start x (cell units on grid maps: a cell's centre is x + 0.5; negative numbers are
    /// taken as they are, without `--`).
    #[arg(allow_negative_numbers = true)]
    sx: f64,
    /// Start y.
    #[arg(allow_negative_numbers = true)]
    sy: f64,
    /// Goal x.
    #[arg(allow_negative_numbers = true)]
    gx: f64,
    /// Goal y.
    #[arg(allow_negative_numbers = true)]
    gy: f64,
    /// Answer with the exactly shortest path (the exact index is built first, within
    /// `--exact-budget`).
    #[arg(long)]
    exact: bool,
    /// The exact index's memory budget (the first tier that fits: hub labels, the
    /// tables, the labels alone, the graph; `ExactBuilder::memory_budget`). Suffixes K, M, G,
    /// T (powers of 1024), optionally followed by `B` or `iB`.
    #[arg(long, default_value = "2G", value_parser = crate::cli::parse_bytes, requires = "exact")]
    exact_budget: u64,
    #[command(flatten)]
    threads: Threads,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `signposts rooms-query`.
pub(crate) fn run(args: &RoomsQueryArgs) -> Result<()> {
    expect_kind(&args.rooms, &[FileKind::Rooms, FileKind::Exact], "saved rooms or a saved exact index")?;
    let (rooms, exact) = if sniff(&args.rooms) == FileKind::Exact {
        (None, Some(open_exact(&args.rooms)?))
    } else {
        let rooms = load_rooms(&args.rooms)?;
        let exact = if args.exact {
            Some(build_exact(&rooms, args.exact_budget, args.threads, args.json)?)
        } else {
            None
        };
        (Some(rooms), exact)
    };
    let (from, to) = (Point::new(args.sx, args.sy), Point::new(args.gx, args.gy));
    let region_at =
        |p: Point| exact.as_ref().map_or_else(|| rooms.as_ref()?.region_at(p), |e| e.region_at(p));
    for (name, p) in [("start", from), ("goal", to)] {
        if region_at(p).is_none() {
            bail!("the {name} {} is outside the walkable area", point(p.x, p.y));
        }
    }
    let (path, waypoint) = match (&exact, &rooms) {
        (Some(e), _) => (e.path(from, to), e.next_waypoint(from, to)),
        (None, Some(r)) => (r.path(from, to), r.next_waypoint(from, to)),
        (None, None) => unreachable!("rooms or an exact index"),
    };
    // The regions crossed, as the rooms' oracle says (an exact index holds no oracle).
    let regions = rooms
        .as_ref()
        .and_then(|r| r.region_path(r.region_at(from).expect("checked"), r.region_at(to).expect("checked")));
    if args.json {
        out!(
            "{}",
            json!({
                "from": [from.x, from.y], "to": [to.x, to.y],
                "exact": exact.is_some(),
                "reachable": path.is_some(),
                "next_waypoint": waypoint.map(|p| [p.x, p.y]),
                "length": path.as_ref().map(RoomsPath::length),
                "points": path.as_ref().map(|p| p.points().iter().map(|q| [q.x, q.y]).collect::<Vec<_>>()),
                "regions": regions.map(|r| r.iter().map(|r| r.0).collect::<Vec<_>>()),
            })
        );
        return Ok(());
    }
    let Some(path) = path else {
        out!("{} cannot be reached from {}", point(to.x, to.y), point(from.x, from.y));
        return Ok(());
    };
    if exact.is_some() {
        out!("exactly shortest");
    }
    let waypoint = waypoint.expect("reachable");
    out!("next waypoint: {}", point(waypoint.x, waypoint.y));
    out!("length: {}", decimal(path.length()));
    let points: Vec<String> = path.points().iter().map(|p| point(p.x, p.y)).collect();
    out!("path: {}", points.join(" → "));
    if rooms.is_some() {
        out!("regions: {}", regions.map_or(0, |r| r.len()));
    }
    Ok(())
}
