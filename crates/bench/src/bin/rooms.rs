//! signposts-rooms beside polyanya on Moving AI maps: mesh size, build time and memory, the
//! time of a point-to-point query (signposts' `next_waypoint_with` and `path_with`, polyanya's
//! optimal any-angle `Mesh::path`), path lengths against polyanya's, the article's walks
//! through region centres and door midpoints against the funnel path, and every signposts
//! path checked against the grid.
//!
//! `cargo run --release -p signposts-bench --bin rooms [-- [--queries N] [--rounds N] [--one-way] [--door-ends] MAP.map ...]`
//! (default: arena, den312d, lak303d, brc202d and AR0602SR of maps, 2,000 queries,
//! the fastest of 20 rounds (a round of the small maps lasts under a millisecond: fewer rounds
//! leave the clock and caches unsettled); `--one-way`: polyanya's dead-end pruning on, which its authors
//! only set on meshes imported from recast; `--door-ends`: the rooms' oracle with two nodes per
//! door, at its ends, `DoorNodes::Ends`, instead of one at its midpoint)
//!
//! Both sides get the same walkable area: the union of the open cells' closed squares.
//! signposts builds its mesh from the grid; polyanya gets its own triangulation of the same
//! area, merged and baked as its authors do, from rings traced here per 4-connected component
//! of open cells (polyanya never crosses a point where two open cells touch only at a corner,
//! so a component split there loses nothing for it).

use std::path::PathBuf;
use std::time::Instant;

use glam::Vec2;
use polyanya::Mesh;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid, parse_map};
use signposts_bench::navmesh::{
    closed_components, cpu, fastest, four_components, index, maps_dir, polyanya_bytes, polyanya_cover_errors,
    polyanya_mesh, polyline_length, segment_is_walkable, today, trace_rings,
};
use signposts_rooms::{DoorNodes, NavMesh, Path, Point, RegionId, Rooms, Scratch};

/// The maps of the default run, in `maps`.
const DEFAULT_MAPS: [&str; 5] = ["arena", "den312d", "lak303d", "brc202d", "AR0602SR"];

/// Relative tolerance on path lengths (polyanya's lengths are `f32` sums).
const TOLERANCE: f64 = 1e-3;

/// The article's two walks from `s` to `t` along the oracle's corridor of regions: through
/// each door's midpoint and the centroid of every region between two doors ("centre to edge
/// midpoint to centre"), and through the door midpoints only ("edge midpoint to edge
/// midpoint"). Their lengths.
fn article_walks(rooms: &Rooms, s: Point, t: Point) -> (f64, f64) {
    let mesh = rooms.mesh();
    let (from, to) = (mesh.region_at(s).expect("s is walkable"), mesh.region_at(t).expect("t is walkable"));
    let regions = rooms.region_path(from, to).expect("connected");
    // The corridor's doors are not public: the door between two neighbours is found again
    // among the first one's doors (two convex regions share at most one door).
    let door_between = |region: RegionId, next: RegionId| {
        let door = mesh
            .doors_of(region)
            .iter()
            .find(|&&door| mesh.door(door).other(region) == next)
            .expect("neighbours share a door");
        mesh.door(*door).midpoint()
    };
    let mut centres = vec![s];
    let mut midpoints = vec![s];
    for (i, pair) in regions.windows(2).enumerate() {
        if i > 0 {
            centres.push(mesh.centroid(pair[0]));
        }
        let midpoint = door_between(pair[0], pair[1]);
        centres.push(midpoint);
        midpoints.push(midpoint);
    }
    centres.push(t);
    midpoints.push(t);
    (polyline_length(&centres), polyline_length(&midpoints))
}

/// Random pairs of distinct open cell centres in the same component of the closed walkable
/// area, `count` of them; every pair drawn (connected or not) is checked against
/// `rooms.path`, which must agree with `components`.
fn queries(grid: &Grid, rooms: &Rooms, components: &[u32], count: usize, seed: u64) -> Vec<(Point, Point)> {
    let w = grid.width();
    let open: Vec<(u32, u32)> = (0..grid.height())
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_passable(Cell::new(x, y)))
        .collect();
    let centre = |(x, y): (u32, u32)| Point::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
    let mut rng = SplitMix64::new(seed);
    let (mut out, mut drawn, mut apart) = (Vec::with_capacity(count), 0usize, 0usize);
    while out.len() < count {
        drawn += 1;
        assert!(drawn <= 100 * count + 1000, "too few connected pairs");
        let from = open[rng.below(open.len() as u64) as usize];
        let to = open[rng.below(open.len() as u64) as usize];
        if from == to {
            continue;
        }
        let component = |(x, y): (u32, u32)| components[(y * w + x) as usize];
        let connected = component(from) == component(to);
        let (s, t) = (centre(from), centre(to));
        assert_eq!(rooms.path(s, t).is_some(), connected, "{s} -> {t}: signposts and union-find disagree");
        if connected {
            out.push((s, t));
        } else {
            apart += 1;
        }
    }
    eprintln!("  {drawn} pairs drawn, {apart} in different components (signposts agreed on every one)");
    out
}

/// The checks and lengths of one map's answers.
struct Answers {
    /// polyanya found no path: start and goal in different 4-components (joined only at a
    /// pinch, which polyanya never crosses).
    none_pinch: usize,
    /// polyanya found no path in the same 4-component (its expansion cap, `10 × polygons`).
    none_cap: usize,
    /// signposts' path shorter than polyanya's by more than the tolerance: through a pinch.
    shorter: usize,
    /// The rest, compared.
    compared: usize,
    mean_ratio: f64,
    max_ratio: f64,
    /// Compared queries within the tolerance of polyanya's length.
    within: usize,
    /// Mean ratio of the article's centre–midpoint walk to the funnel path.
    centres_ratio: f64,
    /// Mean ratio of the article's midpoint–midpoint walk to the funnel path.
    midpoints_ratio: f64,
    /// signposts paths with a segment outside the walkable area.
    invalid: usize,
    /// `next_waypoint_with` answers other than the path's first corner.
    waypoint_mismatch: usize,
}

/// Every query answered once by both sides: signposts' paths checked against the grid and its
/// first waypoints against its paths, lengths compared with polyanya's and the article's walks.
fn check_answers(
    grid: &Grid,
    rooms: &Rooms,
    pa: &Mesh,
    labels: &[u32],
    queries: &[(Point, Point)],
) -> Answers {
    let (mut scratch, mut sp_path) = (Scratch::default(), Path::default());
    let (mut invalid, mut waypoint_mismatch, mut shorter, mut none_pinch, mut none_cap) = (0, 0, 0, 0, 0);
    let mut ratios = Vec::new();
    let (mut centres_sum, mut midpoints_sum) = (0.0, 0.0);
    let width = i64::from(grid.width());
    let four_of = |p: Point| labels[index(width, p.x.floor() as i64, p.y.floor() as i64)];
    for &(s, t) in queries {
        assert!(rooms.path_with(s, t, &mut scratch, &mut sp_path), "{s} -> {t}: connected");
        let points = sp_path.points();
        assert!(points.first() == Some(&s) && points.last() == Some(&t), "{s} -> {t}: ends");
        if points.windows(2).any(|seg| !segment_is_walkable(grid, seg[0], seg[1])) {
            invalid += 1;
        }
        if rooms.next_waypoint_with(s, t, &mut scratch) != points.get(1).copied() {
            waypoint_mismatch += 1;
        }
        let ours = sp_path.length();
        let (centres, midpoints) = article_walks(rooms, s, t);
        centres_sum += centres / ours;
        midpoints_sum += midpoints / ours;
        match pa.path(Vec2::new(s.x as f32, s.y as f32), Vec2::new(t.x as f32, t.y as f32)) {
            None if four_of(s) != four_of(t) => none_pinch += 1,
            None => none_cap += 1,
            Some(theirs) => {
                let theirs = f64::from(theirs.length);
                if ours < theirs * (1.0 - TOLERANCE) {
                    shorter += 1;
                } else {
                    ratios.push(ours / theirs);
                }
            }
        }
    }
    let queries = queries.len() as f64;
    let compared = ratios.len();
    Answers {
        none_pinch,
        none_cap,
        shorter,
        compared,
        mean_ratio: ratios.iter().sum::<f64>() / compared.max(1) as f64,
        max_ratio: ratios.iter().copied().fold(f64::NAN, f64::max),
        within: ratios.iter().filter(|&&r| r <= 1.0 + TOLERANCE).count(),
        centres_ratio: centres_sum / queries,
        midpoints_ratio: midpoints_sum / queries,
        invalid,
        waypoint_mismatch,
    }
}

/// One map's measurements, for the two tables.
struct Row {
    name: String,
    open: usize,
    regions: usize,
    doors: usize,
    polygons: usize,
    build_sp: f64,
    build_pa: f64,
    memory_sp: usize,
    memory_pa: usize,
    queries: usize,
    waypoint_us: f64,
    path_us: f64,
    polyanya_us: f64,
    answers: Answers,
}

/// Builds both meshes of one map, runs the queries, checks and times them.
fn measure(path: &std::path::Path, options: &Options) -> Row {
    let Options { count, rounds, one_way, door_nodes } = *options;
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let grid = parse_map(&std::fs::read(path).expect("readable")).expect("a valid map");
    eprintln!("{name}: {}×{}, {} open cells", grid.width(), grid.height(), grid.passable_len());

    let start = Instant::now();
    let mesh = NavMesh::from_grid(&grid).expect("walkable");
    let mesh_s = start.elapsed().as_secs_f64();
    let rooms = Rooms::builder(&mesh).door_nodes(door_nodes).build().expect("the oracle fits");
    let build_sp = start.elapsed().as_secs_f64();
    eprintln!(
        "  signposts: {} regions, {} doors; mesh {:.1} ms, oracle {:.1} ms",
        mesh.regions_len(),
        mesh.doors_len(),
        mesh_s * 1e3,
        (build_sp - mesh_s) * 1e3
    );

    let start = Instant::now();
    let (labels, four) = four_components(&grid);
    let rings = trace_rings(&grid, &labels, four);
    let traced = start.elapsed().as_secs_f64();
    let pa = polyanya_mesh(&rings, one_way);
    let build_pa = start.elapsed().as_secs_f64();
    let polygons: usize = pa.layers.iter().map(|l| l.polygons.len()).sum();
    let holes: usize = rings.iter().map(|r| r.holes.len()).sum();
    eprintln!(
        "  polyanya: {four} components, {holes} holes, {polygons} polygons; rings {:.1} ms, triangulation + merge + bake {:.1} ms",
        traced * 1e3,
        (build_pa - traced) * 1e3
    );

    let wrong = polyanya_cover_errors(&grid, &pa);
    assert_eq!(wrong, 0, "{name}: polyanya's point_in_mesh disagrees with the grid at {wrong} cell centres");

    let components = closed_components(&grid);
    let queries = queries(&grid, &rooms, &components, count, 17);

    let answers = check_answers(&grid, &rooms, &pa, &labels, &queries);
    eprintln!(
        "  lengths: polyanya None {} (apart at a pinch) + {} (same 4-component); {} shorter through a pinch; {} invalid",
        answers.none_pinch, answers.none_cap, answers.shorter, answers.invalid
    );

    let (mut scratch, mut sp_path) = (Scratch::default(), Path::default());
    eprintln!("  timing {rounds} rounds of {} queries", queries.len());
    let waypoint_us = fastest(rounds, &queries, |s, t| rooms.next_waypoint_with(s, t, &mut scratch));
    let path_us = fastest(rounds, &queries, |s, t| {
        rooms.path_with(s, t, &mut scratch, &mut sp_path);
        sp_path.points().len()
    });
    let polyanya_us = fastest(rounds, &queries, |s, t| {
        pa.path(Vec2::new(s.x as f32, s.y as f32), Vec2::new(t.x as f32, t.y as f32))
    });
    eprintln!("  next_waypoint {waypoint_us:.2} µs, path_with {path_us:.2} µs, polyanya {polyanya_us:.2} µs");

    Row {
        name,
        open: grid.passable_len(),
        regions: mesh.regions_len(),
        doors: mesh.doors_len(),
        polygons,
        build_sp,
        build_pa,
        memory_sp: rooms.memory_bytes(),
        memory_pa: polyanya_bytes(&pa),
        queries: queries.len(),
        waypoint_us,
        path_us,
        polyanya_us,
        answers,
    }
}

/// The command line's settings.
struct Options {
    /// Queries a map.
    count: usize,
    /// Timed passes over the queries; the fastest counts.
    rounds: usize,
    /// Mark polyanya's dead-end polygons (`--one-way`).
    one_way: bool,
    /// The rooms' door nodes (`--door-ends`: at the doors' ends).
    door_nodes: DoorNodes,
}

fn usage(problem: &str) -> ! {
    eprintln!("{problem}\nusage: rooms [--queries N] [--rounds N] [--one-way] [--door-ends] [MAP.map ...]");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = Options { count: 2000, rounds: 20, one_way: false, door_nodes: DoorNodes::Midpoints };
    let mut paths = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            flag @ ("--queries" | "--rounds") => {
                let value = args.get(i + 1).and_then(|v| v.parse::<usize>().ok()).filter(|&v| v > 0);
                let Some(value) = value else { usage(&format!("{flag} needs a positive number")) };
                if flag == "--queries" {
                    options.count = value;
                } else {
                    options.rounds = value;
                }
                i += 1;
            }
            "--one-way" => options.one_way = true,
            "--door-ends" => options.door_nodes = DoorNodes::Ends,
            other if other.starts_with("--") => usage(&format!("unknown option {other}")),
            map => paths.push(PathBuf::from(map)),
        }
        i += 1;
    }
    if paths.is_empty() {
        paths = DEFAULT_MAPS.iter().map(|m| maps_dir().join(format!("{m}.map"))).collect();
    }
    let rows: Vec<Row> = paths.iter().map(|p| measure(p, &options)).collect();

    let command = std::iter::once("cargo run --release -p signposts-bench --bin rooms".to_string())
        .chain((!args.is_empty()).then(|| format!("-- {}", args.join(" "))))
        .collect::<Vec<_>>()
        .join(" ");
    println!("```sh\n{command}\n```\n");
    println!(
        "On {}, {} ({} queries a map, seed 17, fastest of {} rounds; polyanya 0.18.0{}).\n",
        today(),
        cpu(),
        options.count,
        options.rounds,
        if options.one_way { " with its dead-end pruning" } else { ", merged and baked" }
    );
    println!(
        "| map | open cells | regions (doors) / polygons | build sp / pa | memory sp / pa | next_waypoint | path_with | polyanya path | pa / path_with | pa / next_waypoint |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let kib = |b: usize| b as f64 / 1024.0;
    for r in &rows {
        println!(
            "| {} | {} | {} ({}) / {} | {:.1} / {:.1} ms | {:.0} / ≥ {:.0} KiB | {:.2} µs | {:.2} µs | {:.2} µs | **{:.1}×** | **{:.0}×** |",
            r.name,
            r.open,
            r.regions,
            r.doors,
            r.polygons,
            r.build_sp * 1e3,
            r.build_pa * 1e3,
            kib(r.memory_sp),
            kib(r.memory_pa),
            r.waypoint_us,
            r.path_us,
            r.polyanya_us,
            r.polyanya_us / r.path_us,
            r.polyanya_us / r.waypoint_us,
        );
    }
    println!();
    println!(
        "| map | queries | polyanya None (apart at a pinch / same 4-component) | sp shorter, through a pinch | compared | length sp / pa, mean | max | within 0.1% | centre–midpoint–centre walk / funnel | midpoint–midpoint walk / funnel | invalid sp paths | next_waypoint ≠ path's first corner |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in &rows {
        let a = &r.answers;
        println!(
            "| {} | {} | {} / {} | {} | {} | {:.4} | {:.3} | {:.1}% | {:.3} | {:.3} | {} | {} |",
            r.name,
            r.queries,
            a.none_pinch,
            a.none_cap,
            a.shorter,
            a.compared,
            a.mean_ratio,
            a.max_ratio,
            100.0 * a.within as f64 / a.compared.max(1) as f64,
            a.centres_ratio,
            a.midpoints_ratio,
            a.invalid,
            a.waypoint_mismatch,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// polyanya's mesh of the grid's rings, and how many cell centres it gets wrong.
    fn cover_errors(grid: &Grid) -> (Mesh, usize) {
        let (labels, count) = four_components(grid);
        let mesh = polyanya_mesh(&trace_rings(grid, &labels, count), false);
        let wrong = polyanya_cover_errors(grid, &mesh);
        (mesh, wrong)
    }

    #[test]
    fn rings_cover_the_open_cells_through_pinches_and_nested_islands() {
        let grid = |picture: &str| Grid::from_ascii(picture).expect("a grid");
        let at = Vec2::new;
        // A pinch inside one 4-component, between two holes: polyanya goes round it.
        let (mesh, wrong) = cover_errors(&grid(".....\n.#...\n..#..\n....."));
        assert_eq!(wrong, 0);
        assert!(mesh.path(at(1.5, 2.5), at(2.5, 1.5)).unwrap().length > 2.0f32.sqrt() + 0.1);
        // A pinch between two 4-components: polyanya cannot cross it.
        let (mesh, wrong) = cover_errors(&grid("..#\n..#\n##."));
        assert_eq!(wrong, 0);
        assert!(mesh.path(at(0.5, 0.5), at(2.5, 2.5)).is_none());
        // An island with a hole, inside a hole of the outer component.
        let (mesh, wrong) =
            cover_errors(&grid(".......\n.#####.\n.#...#.\n.#.#.#.\n.#...#.\n.#####.\n......."));
        assert_eq!(wrong, 0);
        assert!(mesh.path(at(2.5, 2.5), at(0.5, 0.5)).is_none());
        assert!(mesh.path(at(2.5, 2.5), at(4.5, 4.5)).is_some());
    }

    #[test]
    fn segments_are_checked_against_the_blocked_cells_open_interiors() {
        let grid = Grid::from_ascii("...\n.#.\n..#").expect("a grid");
        let ok = |a: (f64, f64), b: (f64, f64)| segment_is_walkable(&grid, Point::from(a), Point::from(b));
        assert!(ok((0.5, 0.5), (2.5, 0.5)));
        assert!(ok((1.0, 0.5), (1.0, 2.5)), "along a wall");
        assert!(ok((0.5, 0.5), (1.0, 1.0)), "to a blocked cell's corner");
        assert!(ok((1.5, 2.5), (2.5, 1.5)), "through a pinch corner");
        assert!(!ok((0.5, 0.5), (2.5, 2.5)), "through the blocked cells");
        assert!(!ok((0.5, 1.5), (2.5, 1.5)), "through a blocked cell");
        assert!(!ok((0.5, 0.5), (1.01, 1.5)), "clips a blocked cell's corner");
        assert!(!ok((0.5, 0.5), (3.5, 0.5)), "off the map");
        assert!(!ok((1.5, 1.5), (1.5, 1.5)), "a point inside a blocked cell");
    }

    #[test]
    fn rings_cover_the_open_cells_of_the_shared_maps() {
        let Ok(dir) = std::fs::read_dir(maps_dir()) else { return };
        let mut maps: Vec<PathBuf> = dir
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "map"))
            .collect();
        maps.sort();
        for path in maps {
            let grid = parse_map(&std::fs::read(&path).expect("readable")).expect("a valid map");
            let (_, wrong) = cover_errors(&grid);
            assert_eq!(wrong, 0, "{}", path.display());
        }
    }
}
