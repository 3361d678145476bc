//! `signposts rooms`, `signposts rooms-query` and `signposts render --rooms`: navigation meshes
//! of Moving AI maps or polygon files, their region oracle, paths between points, pictures.

#![expect(
    clippy::cast_sign_loss,
    clippy::many_single_char_names,
    reason = "pixel coordinates are clamped to 0 before each cast; points of figures are a b p q"
)]

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::json;
use signposts_rooms::{
    DoorState, ExactRooms, ExactStage, NavMesh, NavMeshBuilder, Path as RoomsPath, Point, RegionId, Rooms,
};

use crate::{limits, read_capped, write_whole};

/// The largest saved rooms file `rooms-query` reads.
const MAX_ROOMS_BYTES: u64 = 4 << 30;

/// Arguments of `signposts rooms`.
#[derive(Args)]
pub struct RoomsArgs {
    /// A Moving AI `.map`, or a polygon file (`boundary x,y …`, `obstacle x,y …` lines).
    input: PathBuf,
    /// Agent radius, in cells or map units: paths keep at least this far from every wall.
    #[arg(long, default_value_t = 0.0)]
    radius: f64,
    /// Where to save the rooms (mesh and oracle).
    #[arg(short, long)]
    output: PathBuf,
    /// Refuse a region oracle taking more than this many bytes, before building it. Suffixes
    /// K, M, G, T (powers of 1024), optionally followed by `B` or `iB`.
    #[arg(long, default_value = "8G", value_parser = crate::parse_bytes)]
    memory_limit: u64,
    /// Close the door between the regions at two points (`X,Y:X,Y`); repeatable.
    #[arg(long, value_name = "X,Y:X,Y", value_parser = parse_point_pair)]
    close: Vec<(Point, Point)>,
    /// Make the door between the regions at two points passable only from the first into the
    /// second (`X,Y:X,Y`, a cliff); repeatable.
    #[arg(long, value_name = "X,Y:X,Y", value_parser = parse_point_pair)]
    one_way: Vec<(Point, Point)>,
    /// Build the exact index too (exactly shortest paths: corners, their visibility graph and
    /// table) and say its size and build time. It is not saved: `rooms-query --exact` and
    /// `render --exact` build it from the saved rooms where they need it.
    #[arg(long)]
    exact: bool,
    /// The exact index's memory budget (the fastest tier that fits is kept). Suffixes as
    /// `--memory-limit`.
    #[arg(long, default_value = "2G", value_parser = crate::parse_bytes, requires = "exact")]
    exact_budget: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Builds the exact index of `rooms`' mesh and door states, with a progress bar on standard
/// error (hidden when it is not a terminal).
fn build_exact(rooms: &Rooms, budget: u64, quiet: bool) -> Result<ExactRooms> {
    let mesh = rooms.mesh();
    let states: Vec<DoorState> = (0..mesh.doors_len() as u32)
        .map(|d| rooms.door_state(signposts_rooms::DoorId(d)).unwrap_or(DoorState::Open))
        .collect();
    let bar =
        crate::progress_bar(quiet, "{spinner} exact index: {msg} [{bar:40}] {pos}/{len} corners, {elapsed}");
    let exact = ExactRooms::builder(mesh)
        .door_states(states)
        .memory_budget(budget)
        .progress(|p| {
            bar.set_message(if p.stage == ExactStage::Visibility {
                "what each corner sees"
            } else {
                "the corner table"
            });
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
        })
        .build();
    bar.finish_and_clear();
    exact.context("building the exact index")
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

/// Arguments of `signposts rooms-query`.
#[derive(Args)]
pub struct RoomsQueryArgs {
    /// Saved rooms (from `signposts rooms`).
    rooms: PathBuf,
    /// Start x (cell units on grid maps: a cell's centre is x + 0.5).
    sx: f64,
    /// Start y.
    sy: f64,
    /// Goal x.
    gx: f64,
    /// Goal y.
    gy: f64,
    /// Answer with the exactly shortest path (the exact index is built first, within
    /// `--exact-budget`).
    #[arg(long)]
    exact: bool,
    /// The exact index's memory budget.
    #[arg(long, default_value = "2G", value_parser = crate::parse_bytes, requires = "exact")]
    exact_budget: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The mesh of a `.map` or a polygon file (the radius from the flag, or the file's `radius`).
pub(crate) fn read_mesh(path: &Path, radius: f64) -> Result<(NavMesh, Option<signposts::grid::Grid>)> {
    let bytes = read_capped(path)?;
    if bytes.starts_with(b"type ") {
        let grid = signposts::grid::parse_map(&bytes).with_context(|| format!("{}", path.display()))?;
        let mesh = match terrain(&bytes, &grid) {
            // Swamp (`S`) besides ground (`.`, `G`): two areas (tags 1 and 2).
            Some(tiles) => NavMesh::from_tiles(&tiles, radius),
            None => NavMesh::from_grid_with_radius(&grid, radius),
        }
        .with_context(|| format!("the mesh of {}", path.display()))?;
        return Ok((mesh, Some(grid)));
    }
    let text = std::str::from_utf8(&bytes)
        .with_context(|| format!("{} is neither a Moving AI map nor polygon text", path.display()))?;
    let mut builder = NavMeshBuilder::from_text(text).with_context(|| format!("{}", path.display()))?;
    if radius != 0.0 {
        builder = builder.agent_radius(radius);
    }
    let problems = builder.validate();
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
        bail!("{}: {}", path.display(), list.join("; "));
    }
    Ok((builder.build().with_context(|| format!("{}", path.display()))?, None))
}

/// The tile tags of a Moving AI map with more than one passable kind of ground — 1 for `.` and
/// `G`, 2 for swamp `S`, 0 for the rest — or `None` when it has only one.
fn terrain(bytes: &[u8], grid: &signposts::grid::Grid) -> Option<signposts::search::TileGrid> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    lines.by_ref().find(|l| l.trim() == "map")?;
    let rows: Vec<&[u8]> = lines.take(grid.height() as usize).map(str::as_bytes).collect();
    if !rows.iter().any(|r| r.contains(&b'S')) {
        return None;
    }
    let tag = |c: signposts::grid::Cell| match rows.get(c.y as usize).and_then(|r| r.get(c.x as usize)) {
        Some(b'.' | b'G') => 1,
        Some(b'S') => 2,
        _ => 0,
    };
    signposts::search::TileGrid::from_fn(grid.width(), grid.height(), tag).ok()
}

pub fn rooms(args: &RoomsArgs) -> Result<()> {
    let start = Instant::now();
    let (mesh, grid) = read_mesh(&args.input, args.radius)?;
    let mesh_s = start.elapsed().as_secs_f64();
    let mut rooms = Rooms::builder(&mesh)
        .memory_limit(args.memory_limit)
        .build()
        .context("building the region oracle")?;
    let seconds = start.elapsed().as_secs_f64();
    for &(a, b) in &args.close {
        let (door, _) = door_between(&rooms, a, b).context("--close")?;
        rooms.set_door_open(door, false)?;
    }
    for &(a, b) in &args.one_way {
        let (door, from) = door_between(&rooms, a, b).context("--one-way")?;
        rooms.set_one_way(door, from)?;
    }
    rooms.save_to(&args.output)?;
    let cells = grid.as_ref().map(signposts::grid::Grid::passable_len);
    let exact = if args.exact {
        let start = Instant::now();
        let exact = build_exact(&rooms, args.exact_budget, args.json)?;
        Some((exact, start.elapsed().as_secs_f64()))
    } else {
        None
    };
    let exact_json = exact.as_ref().map(|(e, secs)| {
        json!({
            "corners": e.corners_len(), "edges": e.edges_len(), "tier": format!("{:?}", e.tier()),
            "bytes": e.memory_bytes(), "seconds": secs,
        })
    });
    if args.json {
        crate::out!(
            "{}",
            json!({
                "input": args.input.display().to_string(), "output": args.output.display().to_string(),
                "radius": args.radius, "regions": mesh.regions_len(), "doors": mesh.doors_len(),
                "point_doors": mesh.doors().iter().filter(|d| d.is_point()).count(),
                "open_cells": cells, "mesh_seconds": mesh_s, "seconds": seconds, "bytes": rooms.memory_bytes(),
                "exact": exact_json,
            })
        );
    } else {
        let per = cells.map(|c| {
            format!(" for {c} open cells ({:.1} cells a region)", c as f64 / mesh.regions_len() as f64)
        });
        crate::out!(
            "{}: {} regions, {} doors{}, agent radius {}",
            args.input.display(),
            mesh.regions_len(),
            mesh.doors_len(),
            per.unwrap_or_default(),
            args.radius
        );
        crate::out!(
            "built in {seconds:.3} s (mesh {mesh_s:.3} s); {} bytes; saved to {}",
            rooms.memory_bytes(),
            args.output.display()
        );
        if let Some((e, secs)) = &exact {
            crate::out!(
                "exact index: {} corners, {} visibility edges, {:?} tier, {} bytes, built in {secs:.3} s (not saved)",
                e.corners_len(),
                e.edges_len(),
                e.tier(),
                e.memory_bytes()
            );
        }
    }
    Ok(())
}

pub fn rooms_query(args: &RoomsQueryArgs) -> Result<()> {
    let rooms = Rooms::load_from(&args.rooms, MAX_ROOMS_BYTES)
        .with_context(|| format!("{}", args.rooms.display()))?;
    let (from, to) = (Point::new(args.sx, args.sy), Point::new(args.gx, args.gy));
    for (name, p) in [("start", from), ("goal", to)] {
        if rooms.region_at(p).is_none() {
            bail!("the {name} {p} is outside the walkable area");
        }
    }
    let exact = if args.exact { Some(build_exact(&rooms, args.exact_budget, args.json)?) } else { None };
    let (path, waypoint) = match &exact {
        Some(e) => (e.path(from, to), e.next_waypoint(from, to)),
        None => (rooms.path(from, to), rooms.next_waypoint(from, to)),
    };
    let regions =
        rooms.region_path(rooms.region_at(from).expect("checked"), rooms.region_at(to).expect("checked"));
    if args.json {
        crate::out!(
            "{}",
            json!({
                "from": [from.x, from.y], "to": [to.x, to.y],
                "exact": args.exact,
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
        crate::out!("{to} cannot be reached from {from}");
        return Ok(());
    };
    if args.exact {
        crate::out!("exactly shortest");
    }
    crate::out!("next waypoint: {}", waypoint.expect("reachable"));
    crate::out!("length: {:.4}", path.length());
    let points: Vec<String> = path.points().iter().map(ToString::to_string).collect();
    crate::out!("path: {}", points.join(" → "));
    crate::out!("regions: {}", regions.map_or(0, |r| r.len()));
    Ok(())
}

/// Draws the mesh (each region its own pale colour, walls dark, doors as lines, one-way doors
/// with an arrow), and a path between two points with its corridor, as a PNG.
pub(crate) fn render(
    map: &Path,
    radius: f64,
    path: Option<&[f64]>,
    exact: bool,
    scale: Option<u32>,
    output: &Path,
) -> Result<()> {
    // Saved rooms (their doors' states drawn too), or a map or polygon file built here.
    let saved = std::fs::File::open(map).and_then(|mut f| {
        let mut magic = [0u8; 8];
        std::io::Read::read_exact(&mut f, &mut magic).map(|()| magic)
    });
    let rooms = if saved.is_ok_and(|m| &m == b"SPROOMS\0") {
        Rooms::load_from(map, MAX_ROOMS_BYTES).with_context(|| format!("{}", map.display()))?
    } else {
        let (mesh, _) = read_mesh(map, radius)?;
        Rooms::build(&mesh).context("building the region oracle")?
    };
    let mesh = rooms.mesh();
    let (lo, hi) = mesh.vertices().iter().fold(
        (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
        |(lo, hi), p| (Point::new(lo.x.min(p.x), lo.y.min(p.y)), Point::new(hi.x.max(p.x), hi.y.max(p.y))),
    );
    let (width, height) = ((hi.x - lo.x).ceil().max(1.0) as u32, (hi.y - lo.y).ceil().max(1.0) as u32);
    let scale = limits::render_scale(scale, width, height).max(4);
    let (w, h) = limits::render_image(width, height, scale)?;
    let s = f64::from(scale);
    let mut image = image::RgbImage::from_pixel(w, h, image::Rgb([40, 44, 52]));
    let to_pixel = |p: Point| ((p.x - lo.x) * s, (p.y - lo.y) * s);
    // Regions: every pixel whose centre a region holds takes the region's colour.
    let corridor: Vec<RegionId> = path
        .and_then(|p| {
            let (a, b) = (rooms.region_at(Point::new(p[0], p[1]))?, rooms.region_at(Point::new(p[2], p[3]))?);
            rooms.region_path(a, b)
        })
        .unwrap_or_default();
    for r in 0..mesh.regions_len() as u32 {
        let region = RegionId(r);
        let polygon: Vec<(f64, f64)> = mesh.polygon(region).map(to_pixel).collect();
        let colour = if corridor.contains(&region) { [255, 236, 170] } else { pale(r) };
        let (x0, x1) =
            polygon.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let (y0, y1) =
            polygon.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
        for py in (y0.floor().max(0.0) as u32)..(y1.ceil() as u32).min(h) {
            for px in (x0.floor().max(0.0) as u32)..(x1.ceil() as u32).min(w) {
                let (cx, cy) = (f64::from(px) + 0.5, f64::from(py) + 0.5);
                let n = polygon.len();
                let inside = (0..n).all(|i| {
                    let (a, b) = (polygon[i], polygon[(i + 1) % n]);
                    (b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0) >= 0.0
                });
                if inside {
                    image.put_pixel(px, py, image::Rgb(colour));
                }
            }
        }
    }
    // Doors: thin grey lines (closed: thick red); point doors a dot; one-way doors an arrow
    // into the region they lead to.
    for (d, door) in mesh.doors().iter().enumerate() {
        let state = rooms.door_state(signposts_rooms::DoorId(d as u32)).unwrap_or(DoorState::Open);
        let (a, b) = (to_pixel(door.ends[0]), to_pixel(door.ends[1]));
        let closed = state == DoorState::Closed;
        if door.is_point() {
            disc(&mut image, a, 2.0, if closed { [200, 30, 30] } else { [200, 60, 160] });
        } else if closed {
            line(&mut image, a, b, (s / 6.0).max(1.5), [200, 30, 30]);
        } else {
            line(&mut image, a, b, 0.6, [150, 150, 160]);
        }
        if let DoorState::OneWay { from } = state {
            let [l, r] = door.ends_from(from);
            let (m, across) = (door.midpoint(), mesh.centroid(door.other(from)));
            let tip = Point::new(m.x + (across.x - m.x) * 0.3, m.y + (across.y - m.y) * 0.3);
            let width = (s / 8.0).max(1.5);
            line(&mut image, to_pixel(l.midpoint_to(m)), to_pixel(tip), width, [230, 120, 20]);
            line(&mut image, to_pixel(r.midpoint_to(m)), to_pixel(tip), width, [230, 120, 20]);
        }
    }
    if let Some(p) = path {
        let (from, to) = (Point::new(p[0], p[1]), Point::new(p[2], p[3]));
        let Some(route) = rooms.path(from, to) else {
            bail!("{to} cannot be reached from {from} (or a point is outside the walkable area)")
        };
        for pair in route.points().windows(2) {
            line(&mut image, to_pixel(pair[0]), to_pixel(pair[1]), (s / 5.0).max(1.5), [220, 40, 40]);
        }
        for &q in &route.points()[1..route.points().len() - 1] {
            disc(&mut image, to_pixel(q), (s / 3.0).max(2.5), [220, 40, 40]);
        }
        if exact {
            draw_exact(&mut image, &rooms, (from, to), route.length(), &to_pixel, s)?;
        }
        disc(&mut image, to_pixel(from), (s / 2.0).max(3.0), [30, 160, 60]);
        disc(&mut image, to_pixel(to), (s / 2.0).max(3.0), [30, 80, 220]);
        crate::out!(
            "path: {} points, length {:.3}, {} regions in its corridor",
            route.points().len(),
            route.length(),
            corridor.len()
        );
    }
    write_png(&image, output)?;
    crate::out!(
        "wrote {} ({w}×{h} pixels, {} regions, {} doors)",
        output.display(),
        mesh.regions_len(),
        mesh.doors_len()
    );
    Ok(())
}

/// Encodes `image` as a PNG into `output`.
fn write_png(image: &image::RgbImage, output: &Path) -> Result<()> {
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).context("encoding the PNG")?;
    write_whole(output, png.get_ref())
}

/// Draws the exactly shortest path from `from` to `to` (dashed blue) and says its length
/// beside the corridor path's.
fn draw_exact(
    image: &mut image::RgbImage,
    rooms: &Rooms,
    (from, to): (Point, Point),
    corridor_length: f64,
    to_pixel: &impl Fn(Point) -> (f64, f64),
    s: f64,
) -> Result<()> {
    let index = build_exact(rooms, signposts_rooms::DEFAULT_BUDGET, true)?;
    let shortest = index.path(from, to).context("the exact index found no path")?;
    // Dashed blue, over the corridor path.
    for pair in shortest.points().windows(2) {
        let (a, b) = (to_pixel(pair[0]), to_pixel(pair[1]));
        let dashes = ((b.0 - a.0).hypot(b.1 - a.1) / (s * 0.8)).ceil().max(1.0) as u32;
        for k in (0..dashes).step_by(2) {
            let (t0, t1) = (f64::from(k) / f64::from(dashes), f64::from(k + 1) / f64::from(dashes));
            let at = |t: f64| (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
            line(image, at(t0), at(t1), (s / 5.0).max(1.5), [30, 60, 210]);
        }
    }
    for &q in &shortest.points()[1..shortest.points().len() - 1] {
        disc(image, to_pixel(q), (s / 3.0).max(2.5), [30, 60, 210]);
    }
    crate::out!(
        "exact path: {} points, length {:.3} ({:.3}% shorter than the corridor path)",
        shortest.points().len(),
        shortest.walked(),
        100.0 * (1.0 - shortest.walked() / corridor_length)
    );
    Ok(())
}

/// A pale colour of its own for region `r`.
fn pale(r: u32) -> [u8; 3] {
    let x = r.wrapping_mul(0x9E37_79B9).rotate_left(7);
    let c = |k: u32| 170 + ((x >> k) & 0x3F) as u8;
    [c(0), c(8), c(16)]
}

fn disc(image: &mut image::RgbImage, (x, y): (f64, f64), radius: f64, colour: [u8; 3]) {
    let (w, h) = image.dimensions();
    for py in ((y - radius).floor().max(0.0) as u32)..((y + radius).ceil() as u32).min(h) {
        for px in ((x - radius).floor().max(0.0) as u32)..((x + radius).ceil() as u32).min(w) {
            let (dx, dy) = (f64::from(px) + 0.5 - x, f64::from(py) + 0.5 - y);
            if dx * dx + dy * dy <= radius * radius {
                image.put_pixel(px, py, image::Rgb(colour));
            }
        }
    }
}

fn line(image: &mut image::RgbImage, a: (f64, f64), b: (f64, f64), half_width: f64, colour: [u8; 3]) {
    let steps = ((b.0 - a.0).hypot(b.1 - a.1) * 2.0).ceil().max(1.0) as u32;
    for i in 0..=steps {
        let t = f64::from(i) / f64::from(steps);
        disc(image, (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)), half_width, colour);
    }
}

/// Halfway between two points.
trait Halfway {
    fn midpoint_to(self, other: Point) -> Point;
}

impl Halfway for Point {
    fn midpoint_to(self, other: Point) -> Point {
        Point::new(self.x.midpoint(other.x), self.y.midpoint(other.y))
    }
}
