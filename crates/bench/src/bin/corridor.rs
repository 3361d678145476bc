//! How long the corridor paths of `Rooms` are beside the exactly shortest paths of
//! `ExactRooms`, per class of world: random polygon worlds of thin rotated obstacles (seeded),
//! and grid maps. Prints, per class, the mean and worst ratio of the two lengths, the share of
//! paths within 0.1% and 1%, and the time of `next_waypoint` of both.
//!
//! `cargo run --release -p signposts-bench --bin corridor [-- [--worlds N] [--queries N] [--rounds N] [--seed N] [--worst]]`
//! (default: 12 worlds a polygon class, 500 queries a world, the fastest of 5 rounds, seed 17;
//! `--worst` prints the worst query of each class, to draw or replay)
//!
//! Polygon worlds are 100 × 100 boxes with rectangles 0.2–1 wide and 5–30 long at any angle,
//! wholly inside the box, overlapping as they fall (the mesh builder unites them): "sparse"
//! has 25, "dense" 70, "long" 30 of length 20–60. The grid maps are arena and den312d of
//! `maps`, queries between random open cell centres. A query's two points are drawn
//! uniformly in the walkable area (polygons) and kept when connected.

use std::time::Instant;

use signposts::generate::SplitMix64;
use signposts::grid::{Cell, parse_map};
use signposts_bench::navmesh::{cpu, fastest, maps_dir, today};
use signposts_rooms::{DoorNodes, ExactRooms, ExactScratch, NavMesh, Path, Point, Rooms, Scratch};

/// The command line's settings.
struct Options {
    worlds: usize,
    queries: usize,
    rounds: usize,
    seed: u64,
    worst: bool,
}

/// A class of polygon world: how many rectangles, how long.
struct Class {
    name: &'static str,
    count: usize,
    length: (f64, f64),
}

const CLASSES: [Class; 3] = [
    Class { name: "sparse", count: 25, length: (5.0, 30.0) },
    Class { name: "dense", count: 70, length: (5.0, 30.0) },
    Class { name: "long", count: 30, length: (20.0, 60.0) },
];

/// The side of a polygon world's box.
const SIDE: f64 = 100.0;

fn uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * (rng.below(1 << 30) as f64 / f64::from(1u32 << 30))
}

/// A world of `class` from `rng`: thin rectangles at any angle, wholly inside the box.
fn polygon_world(class: &Class, rng: &mut SplitMix64) -> NavMesh {
    let corners = [(0.0, 0.0), (SIDE, 0.0), (SIDE, SIDE), (0.0, SIDE)].map(Point::from);
    let mut builder = NavMesh::builder().boundary(corners);
    let mut placed = 0;
    while placed < class.count {
        let (cx, cy) = (uniform(rng, 0.0, SIDE), uniform(rng, 0.0, SIDE));
        let (length, width) = (uniform(rng, class.length.0, class.length.1), uniform(rng, 0.2, 1.0));
        let angle = uniform(rng, 0.0, std::f64::consts::PI);
        let (ux, uy) = (angle.cos() * length / 2.0, angle.sin() * length / 2.0);
        let (vx, vy) = (-angle.sin() * width / 2.0, angle.cos() * width / 2.0);
        let rectangle = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
            .map(|(a, b)| Point::new(cx + a * ux + b * vx, cy + a * uy + b * vy));
        // Counter-clockwise: +u+v, −u+v, −u−v, +u−v turns left from u to v.
        if rectangle.iter().all(|p| p.x > 0.5 && p.y > 0.5 && p.x < SIDE - 0.5 && p.y < SIDE - 0.5) {
            builder = builder.obstacle(rectangle);
            placed += 1;
        }
    }
    builder.build().expect("rectangles inside the box make a valid world")
}

/// Connected pairs of points drawn uniformly in the box's walkable area.
fn polygon_queries(
    mesh: &NavMesh,
    exact: &ExactRooms,
    count: usize,
    rng: &mut SplitMix64,
) -> Vec<(Point, Point)> {
    let mut out = Vec::with_capacity(count);
    let point = |rng: &mut SplitMix64| loop {
        let p = Point::new(uniform(rng, 0.0, SIDE), uniform(rng, 0.0, SIDE));
        if mesh.region_at(p).is_some() {
            return p;
        }
    };
    while out.len() < count {
        let (s, t) = (point(rng), point(rng));
        if s != t && exact.distance(s, t).is_some() {
            out.push((s, t));
        }
    }
    out
}

/// Connected pairs of open cell centres of a grid map.
fn grid_queries(
    exact: &ExactRooms,
    grid: &signposts::grid::Grid,
    count: usize,
    rng: &mut SplitMix64,
) -> Vec<(Point, Point)> {
    let open: Vec<Cell> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect();
    let centre = |c: Cell| Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let (s, t) = (
            centre(open[rng.below(open.len() as u64) as usize]),
            centre(open[rng.below(open.len() as u64) as usize]),
        );
        if s != t && exact.distance(s, t).is_some() {
            out.push((s, t));
        }
    }
    out
}

/// What a class of worlds measured.
#[derive(Default)]
struct Tally {
    worlds: usize,
    regions: usize,
    queries: usize,
    ratio_sum: f64,
    worst: f64,
    worst_query: Option<(usize, Point, Point)>,
    within_01: usize,
    within_1: usize,
    /// Paths that do not end where asked, or whose waypoint is not their first corner.
    bad: usize,
    rooms_us: f64,
    exact_us: f64,
    /// The oracles' build time and memory, summed over the worlds.
    build_s: f64,
    bytes: usize,
}

/// Measures one world into `tally`.
fn measure(
    tally: &mut Tally,
    world: usize,
    mesh: &NavMesh,
    queries: &[(Point, Point)],
    exact: &ExactRooms,
    rounds: usize,
    door_nodes: DoorNodes,
) {
    let start = Instant::now();
    let rooms = Rooms::builder(mesh).door_nodes(door_nodes).build().expect("the oracle builds");
    tally.build_s += start.elapsed().as_secs_f64();
    tally.bytes += rooms.memory_bytes();
    tally.worlds += 1;
    tally.regions += mesh.regions_len();
    let (mut scratch, mut exact_scratch, mut path) =
        (Scratch::default(), ExactScratch::default(), Path::default());
    for &(s, t) in queries {
        let shortest = exact.distance(s, t).expect("connected");
        assert!(
            rooms.path_with(s, t, &mut scratch, &mut path),
            "{s} → {t}: connected in the exact index, not in the rooms"
        );
        let points = path.points();
        if points.first() != Some(&s)
            || points.last() != Some(&t)
            || rooms.next_waypoint_with(s, t, &mut scratch) != points.get(1).copied()
        {
            tally.bad += 1;
        }
        let ratio = if shortest > 0.0 { path.length() / shortest } else { 1.0 };
        tally.queries += 1;
        tally.ratio_sum += ratio;
        if ratio > tally.worst {
            tally.worst = ratio;
            tally.worst_query = Some((world, s, t));
        }
        tally.within_01 += usize::from(ratio <= 1.001);
        tally.within_1 += usize::from(ratio <= 1.01);
    }
    // µs summed over the queries.
    if queries.is_empty() {
        return;
    }
    let count = queries.len() as f64;
    tally.rooms_us += fastest(rounds, queries, |s, t| rooms.next_waypoint_with(s, t, &mut scratch)) * count;
    tally.exact_us +=
        fastest(rounds, queries, |s, t| exact.next_waypoint_with(s, t, &mut exact_scratch)) * count;
}

/// The door node settings measured, the default first.
const SETTINGS: [DoorNodes; 2] = [DoorNodes::Midpoints, DoorNodes::Ends];

fn main() {
    let mut o = Options { worlds: 12, queries: 500, rounds: 5, seed: 17, worst: false };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |name: &str| -> u64 {
            args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{name} takes a number"))
        };
        match a.as_str() {
            "--worlds" => o.worlds = number("--worlds") as usize,
            "--queries" => o.queries = number("--queries") as usize,
            "--rounds" => o.rounds = number("--rounds") as usize,
            "--seed" => o.seed = number("--seed"),
            "--worst" => o.worst = true,
            _ => panic!("unknown argument {a}: --worlds N, --queries N, --rounds N, --seed N, --worst"),
        }
    }
    println!(
        "On {}, {} ({} worlds a polygon class, {} queries a world, seed {}, fastest of {} rounds).\n",
        today(),
        cpu(),
        o.worlds,
        o.queries,
        o.seed,
        o.rounds
    );
    println!(
        "| worlds | door nodes | regions a world | queries | Rooms / exact, mean | worst | within 0.1% | within 1% | Rooms next_waypoint | exact next_waypoint | Rooms build | Rooms memory |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut rng = SplitMix64::new(o.seed);
    let mut rows: Vec<(String, DoorNodes, Tally)> = Vec::new();
    for class in &CLASSES {
        let mut tallies = [Tally::default(), Tally::default()];
        for w in 0..o.worlds {
            let mesh = polygon_world(class, &mut rng);
            let exact = ExactRooms::build(&mesh).expect("the exact index builds");
            let queries = polygon_queries(&mesh, &exact, o.queries, &mut rng);
            for (tally, door_nodes) in tallies.iter_mut().zip(SETTINGS) {
                measure(tally, w, &mesh, &queries, &exact, o.rounds, door_nodes);
            }
        }
        for (tally, door_nodes) in tallies.into_iter().zip(SETTINGS) {
            rows.push((format!("polygons, {}", class.name), door_nodes, tally));
        }
    }
    for name in ["arena", "den312d"] {
        let path = maps_dir().join(format!("{name}.map"));
        let grid = parse_map(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
            .expect("a Moving AI map");
        let mesh = NavMesh::from_grid(&grid).expect("walkable");
        let exact = ExactRooms::build(&mesh).expect("the exact index builds");
        let queries = grid_queries(&exact, &grid, o.queries * 4, &mut rng);
        for door_nodes in SETTINGS {
            let mut tally = Tally::default();
            measure(&mut tally, 0, &mesh, &queries, &exact, o.rounds, door_nodes);
            rows.push((format!("grid, {name}"), door_nodes, tally));
        }
    }
    for (name, door_nodes, t) in &rows {
        let q = t.queries as f64;
        let door_nodes = if *door_nodes == DoorNodes::Ends { "ends" } else { "midpoints" };
        println!(
            "| {name} ({}) | {door_nodes} | {:.0} | {} | {:.4} | {:.3} | {:.1}% | {:.1}% | {:.3} µs | {:.3} µs | {:.1} ms | {:.0} KiB |",
            t.worlds,
            t.regions as f64 / t.worlds as f64,
            t.queries,
            t.ratio_sum / q,
            t.worst,
            100.0 * t.within_01 as f64 / q,
            100.0 * t.within_1 as f64 / q,
            t.rooms_us / q,
            t.exact_us / q,
            t.build_s * 1e3 / t.worlds as f64,
            t.bytes as f64 / 1024.0 / t.worlds as f64
        );
    }
    let bad: usize = rows.iter().map(|(_, _, t)| t.bad).sum();
    println!("\nPaths not ending where asked, or whose next_waypoint is not their first corner: {bad}.");
    if o.worst {
        for (name, door_nodes, t) in &rows {
            if let Some((w, s, t_)) = t.worst_query {
                println!("worst of {name}, {door_nodes:?}: world {w}, {} → {} ({:.3})", s, t_, t.worst);
            }
        }
    }
}
