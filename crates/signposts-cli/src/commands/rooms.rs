//! `signposts rooms`: the navigation mesh of a map or a polygon file and its region oracle,
//! built (doors closed or made one-way as asked) and saved; with `--exact`, the exact index
//! built from them and saved instead (with the mesh and door states it needs).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;
use signposts_rooms::{Point, RegionId, Rooms};

use crate::cli::Threads;
use crate::navmesh::{build_exact, build_rooms, read_mesh};

/// Arguments of `signposts rooms`.
#[derive(Args)]
pub(crate) struct RoomsArgs {
    /// A Moving AI `.map`, or a polygon file (`boundary x,y …`, `obstacle x,y …` lines).
    input: PathBuf,
    /// Agent radius, in cells or map units: paths keep at least this far from every wall.
    #[arg(long, default_value_t = 0.0)]
    radius: f64,
    /// Where to save the rooms (mesh and oracle), for `rooms-query` and `render --rooms`; with
    /// `--exact`, the exact index (mesh, door states and index), for `rooms-query`.
    #[arg(short, long)]
    output: PathBuf,
    /// Refuse a region oracle taking more than this many bytes, before building it. Suffixes
    /// K, M, G, T (powers of 1024), optionally followed by `B` or `iB`.
    #[arg(long, default_value = "8G", value_parser = crate::cli::parse_bytes)]
    memory_limit: u64,
    #[command(flatten)]
    threads: Threads,
    /// Close the door between the regions at two points (`X,Y:X,Y`); repeatable.
    #[arg(long, value_name = "X,Y:X,Y", value_parser = parse_point_pair, allow_hyphen_values = true)]
    close: Vec<(Point, Point)>,
    /// Make the door between the regions at two points passable only from the first into the
    /// second (`X,Y:X,Y`, a cliff); repeatable.
    #[arg(long, value_name = "X,Y:X,Y", value_parser = parse_point_pair, allow_hyphen_values = true)]
    one_way: Vec<(Point, Point)>,
    /// Build the exact index (exactly shortest paths: corners, their visibility graph and
    /// table) from the rooms, say its size and build time, and save it to `--output` instead
    /// of the rooms: `rooms-query` opens it in place and answers exactly, without a build.
    #[arg(long)]
    exact: bool,
    /// The exact index's memory budget (the first tier that fits: hub labels, the
    /// tables, the labels alone, the graph; `ExactBuilder::memory_budget`). Suffixes K, M, G,
    /// T (powers of 1024), optionally followed by `B` or `iB`.
    #[arg(long, default_value = "2G", value_parser = crate::cli::parse_bytes, requires = "exact")]
    exact_budget: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `"3.5,10.5:4.5,10.5"` → two points.
fn parse_point_pair(text: &str) -> Result<(Point, Point), String> {
    let point = |t: &str| -> Option<Point> {
        let (x, y) = t.split_once(',')?;
        let p = Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?);
        p.is_finite().then_some(p)
    };
    let parsed = text.split_once(':').and_then(|(a, b)| Some((point(a)?, point(b)?)));
    parsed.ok_or_else(|| format!("`{text}` is not two points `X,Y:X,Y`"))
}

/// The door between the regions at `a` and at `b`.
fn door_between(rooms: &Rooms, a: Point, b: Point) -> Result<(signposts_rooms::DoorId, RegionId)> {
    let region = |p: Point| rooms.region_at(p).with_context(|| format!("{p} is outside the walkable area"));
    let (ra, rb) = (region(a)?, region(b)?);
    let mesh = rooms.mesh();
    let door = mesh.doors_of(ra).iter().copied().find(|&d| mesh.door(d).other(ra) == rb);
    let door = door.with_context(|| format!("the regions at {a} and {b} share no door"))?;
    Ok((door, ra))
}

/// Runs `signposts rooms`.
pub(crate) fn run(args: &RoomsArgs) -> Result<()> {
    let start = Instant::now();
    let (mesh, grid) = read_mesh(&args.input, args.radius)?;
    let mesh_s = start.elapsed().as_secs_f64();
    let mut rooms = build_rooms(&Rooms::builder(&mesh), args.memory_limit, args.threads, args.json)?;
    let seconds = start.elapsed().as_secs_f64();
    for &(a, b) in &args.close {
        let (door, _) = door_between(&rooms, a, b).context("--close")?;
        rooms.set_door_open(door, false)?;
    }
    for &(a, b) in &args.one_way {
        let (door, from) = door_between(&rooms, a, b).context("--one-way")?;
        rooms.set_one_way(door, from)?;
    }
    let cells = grid.as_ref().map(signposts::grid::Grid::passable_len);
    let saving = || format!("saving {}", args.output.display());
    let exact = if args.exact {
        let start = Instant::now();
        let exact = build_exact(&rooms, args.exact_budget, args.threads, args.json)?;
        let secs = start.elapsed().as_secs_f64();
        exact.save_to(&args.output).with_context(saving)?;
        Some((exact, secs))
    } else {
        rooms.save_to(&args.output).with_context(saving)?;
        None
    };
    let file_bytes = std::fs::metadata(&args.output).map_or(0, |m| m.len());
    let exact_json = exact.as_ref().map(|(e, secs)| {
        json!({
            "corners": e.corners_len(), "edges": e.edges_len(), "tier": format!("{:?}", e.tier()),
            "bytes": e.memory_bytes(), "seconds": secs,
        })
    });
    if args.json {
        out!(
            "{}",
            json!({
                "input": args.input.display().to_string(), "output": args.output.display().to_string(),
                "radius": args.radius, "regions": mesh.regions_len(), "doors": mesh.doors_len(),
                "point_doors": mesh.doors().iter().filter(|d| d.is_point()).count(),
                "open_cells": cells, "mesh_seconds": mesh_s, "seconds": seconds, "bytes": rooms.memory_bytes(), "file_bytes": file_bytes,
                "saved": if exact.is_some() { "exact" } else { "rooms" },
                "exact": exact_json,
            })
        );
    } else {
        let per = cells.map(|c| {
            format!(" for {c} open cells ({:.1} cells a region)", c as f64 / mesh.regions_len() as f64)
        });
        out!(
            "{}: {} regions, {} doors{}, agent radius {}",
            args.input.display(),
            mesh.regions_len(),
            mesh.doors_len(),
            per.unwrap_or_default(),
            args.radius
        );
        let output = args.output.display();
        let built =
            format!("built in {seconds:.3} s (mesh {mesh_s:.3} s); {} bytes in memory", rooms.memory_bytes());
        match &exact {
            None => out!("{built}; saved to {output} ({file_bytes} bytes)"),
            Some((e, secs)) => {
                out!("{built}");
                out!(
                    "exact index: {} corners, {} visibility edges, {:?} tier, {} bytes, built in {secs:.3} s; saved to {output} ({file_bytes} bytes)",
                    e.corners_len(),
                    e.edges_len(),
                    e.tier(),
                    e.memory_bytes()
                );
            }
        }
    }
    Ok(())
}
