//! signposts-rooms' exact mode beside polyanya on Moving AI maps: build time and memory of the
//! exact index, the time of `next_waypoint` (one entity, and a crowd sharing a goal), of a
//! whole shortest path, and of polyanya's optimal search, with every length compared.
//!
//! `cargo run --release -p signposts-bench --bin exact [-- [--queries N] [--rounds N] [--crowd N] [--budgets] [--links N] [--sizes] [--write-scen DIR] [--peer-results FILE ...] MAP.map ...]`
//! (default: arena, den312d, lak303d, brc202d, AR0602SR and maze512-4-0 of maps,
//! 2,000 queries between cell centres, the fastest of 10 rounds, crowds of 250 entities;
//! `--budgets`: each map again in every other tier ([`ExactBuilder::tier`](signposts_rooms::ExactBuilder::tier)),
//! its lengths checked against the default's; `--sizes`: only the index of every shared
//! 512×512 map under the default budget; `--links N`: each map again with `N` two-way
//! teleporters between random open cell centres, costing a tenth of their straight length,
//! timed on the same queries beside the index without them; `--write-scen DIR`: each map's
//! queries as `DIR/<map>.map.scen` for other programs; `--peer-results FILE`, repeatable:
//! another program's lengths and times on those queries, compared and printed beside
//! `ExactRooms`: see the `gppc` module of the bench library)
//!
//! Both sides get the same walkable area, the union of the open cells' closed squares (see
//! the `rooms` bench for polyanya's mesh). Lengths are compared within 1e-5 of polyanya's
//! (its lengths are `f32` sums); every difference is counted: polyanya finding nothing
//! (it cannot cross a pinch point, and stops after `10 × polygons` expansions), signposts
//! shorter (through a pinch), signposts longer (a failure).

use std::path::PathBuf;
use std::time::Instant;

use glam::Vec2;
use polyanya::Mesh;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid, parse_map};
use signposts_bench::gppc::{PeerCompared, PeerResults, compare_peer, scen_text};
use signposts_bench::navmesh::{
    closed_components, cpu, fastest, four_components, index, maps_dir, polyanya_bytes, polyanya_cover_errors,
    polyanya_mesh, segment_is_walkable, today, trace_rings,
};
use signposts_bench::{MAPS_512, proc_status_bytes};
use signposts_rooms::{ExactRooms, ExactScratch, NavMesh, Path, Point, Tier};

/// The maps of the default run, in `maps`.
const DEFAULT_MAPS: [&str; 6] = ["arena", "den312d", "lak303d", "brc202d", "AR0602SR", "maze512-4-0"];

/// Relative tolerance on lengths (polyanya's are `f32` sums).
const TOLERANCE: f64 = 1e-5;

/// The command line's settings.
struct Options {
    count: usize,
    rounds: usize,
    crowd: usize,
    budgets: bool,
    /// Teleporters added for a second run of each map (`--links`).
    links: usize,
    /// Where to write each map's queries (`--write-scen`).
    write_scen: Option<PathBuf>,
    /// Other programs' answers (`--peer-results`).
    peers: Vec<PeerResults>,
}

/// Connected pairs of open cell centres.
fn queries(grid: &Grid, components: &[u32], count: usize, seed: u64) -> Vec<(Point, Point)> {
    let w = grid.width();
    let open: Vec<(u32, u32)> = (0..grid.height())
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_passable(Cell::new(x, y)))
        .collect();
    let centre = |(x, y): (u32, u32)| Point::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
    let component = |(x, y): (u32, u32)| components[(y * w + x) as usize];
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let from = open[rng.below(open.len() as u64) as usize];
        let to = open[rng.below(open.len() as u64) as usize];
        if from != to && component(from) == component(to) {
            out.push((centre(from), centre(to)));
        }
    }
    out
}

/// How one map's answers compare.
#[derive(Default)]
struct Compared {
    equal: usize,
    /// polyanya found nothing: start and goal apart at a pinch (4-components differ).
    none_pinch: usize,
    /// polyanya found nothing in one 4-component (its expansion cap).
    none_cap: usize,
    /// signposts shorter by more than the tolerance.
    shorter: usize,
    /// signposts longer by more than the tolerance: failures.
    longer: usize,
    worst_longer: f64,
    /// signposts paths leaving the walkable area, or not ending where asked.
    invalid: usize,
    /// `next_waypoint` other than the path's second point.
    waypoint_mismatch: usize,
    /// Queries whose goal is in sight.
    straight: usize,
    /// Each query's signposts length.
    ours: Vec<f64>,
    /// Each query's polyanya length, `None` where it found nothing.
    polyanya: Vec<Option<f64>>,
    /// Whether each query's start and goal are apart at a pinch (4-components differ).
    pinched: Vec<bool>,
}

fn compare(
    grid: &Grid,
    exact: &ExactRooms,
    pa: &Mesh,
    labels: &[u32],
    queries: &[(Point, Point)],
) -> Compared {
    let (mut scratch, mut path) = (ExactScratch::default(), Path::default());
    let mut c = Compared::default();
    let width = i64::from(grid.width());
    let four_of = |p: Point| labels[index(width, p.x.floor() as i64, p.y.floor() as i64)];
    for &(s, t) in queries {
        assert!(exact.path_with(s, t, &mut scratch, &mut path), "{s} -> {t}: connected");
        let points = path.points();
        if points.first() != Some(&s)
            || points.last() != Some(&t)
            || points.windows(2).any(|seg| !segment_is_walkable(grid, seg[0], seg[1]))
        {
            c.invalid += 1;
        }
        if points.len() == 2 {
            c.straight += 1;
        }
        if exact.next_waypoint_with(s, t, &mut scratch) != points.get(1).copied() {
            c.waypoint_mismatch += 1;
        }
        let ours = path.walked();
        let found = pa.path(Vec2::new(s.x as f32, s.y as f32), Vec2::new(t.x as f32, t.y as f32));
        c.ours.push(ours);
        c.polyanya.push(found.as_ref().map(|p| f64::from(p.length)));
        c.pinched.push(four_of(s) != four_of(t));
        match found {
            None if four_of(s) != four_of(t) => c.none_pinch += 1,
            None => c.none_cap += 1,
            Some(theirs) => {
                let theirs = f64::from(theirs.length);
                if ours < theirs * (1.0 - TOLERANCE) {
                    c.shorter += 1;
                } else if ours > theirs * (1.0 + TOLERANCE) {
                    c.longer += 1;
                    c.worst_longer = c.worst_longer.max(ours / theirs);
                } else {
                    c.equal += 1;
                }
            }
        }
    }
    c
}

/// Query times of one index, µs: `next_waypoint`, a crowd's `next_waypoint` per entity, `path`.
fn time_index(
    exact: &ExactRooms,
    queries: &[(Point, Point)],
    rounds: usize,
    crowd: usize,
) -> (f64, f64, f64) {
    let (mut scratch, mut path) = (ExactScratch::default(), Path::default());
    let waypoint = fastest(rounds, queries, |s, t| exact.next_waypoint_with(s, t, &mut scratch));
    let full = fastest(rounds, queries, |s, t| {
        exact.path_with(s, t, &mut scratch, &mut path);
        path.points().len()
    });
    // Crowds: the starts of `crowd` queries, all heading for the goal of the first.
    let starts: Vec<Point> = queries.iter().map(|q| q.0).collect();
    let mut out = Vec::with_capacity(crowd);
    let each = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for group in starts.chunks_exact(crowd) {
                let goal = queries[0].1;
                exact.next_waypoint_toward_with(group, goal, &mut out, &mut scratch);
                std::hint::black_box(&out);
            }
            start.elapsed().as_secs_f64() * 1e6 / (starts.len() / crowd * crowd).max(1) as f64
        })
        .fold(f64::INFINITY, f64::min);
    (waypoint, each, full)
}

/// One map's measurements.
struct Row {
    name: String,
    regions: usize,
    corners: usize,
    edges: usize,
    tier: Tier,
    build_sp: f64,
    build_pa: f64,
    memory_sp: usize,
    memory_pa: usize,
    polygons: usize,
    waypoint_us: f64,
    crowd_us: f64,
    path_us: f64,
    polyanya_us: f64,
    compared: Compared,
    /// `(peer, results, comparison)` of every `--peer-results` file of this map.
    peers: Vec<(String, PeerResults, PeerCompared)>,
    /// `(tier, bytes, build s, next_waypoint µs, path µs)` of the other tiers.
    smaller: Vec<(Tier, usize, f64, f64, f64)>,
    /// With `--links`: the extra build seconds, `next_waypoint` µs, path µs, and how many
    /// paths take a link.
    linked: Option<(f64, f64, f64, usize)>,
}

/// `--write-scen` and `--peer-results` for one map: writes its queries, and compares every
/// other program's lengths on them with ours.
fn write_and_compare(
    name: &str,
    grid: &Grid,
    queries: &[(Point, Point)],
    compared: &Compared,
    options: &Options,
) -> Vec<(String, PeerResults, PeerCompared)> {
    if let Some(dir) = &options.write_scen {
        let file = dir.join(format!("{name}.map.scen"));
        let text = scen_text(name, grid.width(), grid.height(), queries, &compared.ours);
        std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(&file, text))
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
        eprintln!("  queries written to {}", file.display());
    }
    options
        .peers
        .iter()
        .filter(|p| p.map == name)
        .map(|p| {
            let c =
                compare_peer(&compared.ours, &compared.polyanya, &compared.pinched, &p.lengths, TOLERANCE);
            eprintln!(
                "  {}: {} equal, {} through a pinch, {} longer, {} shorter, {} none, {} missing",
                p.peer, c.equal, c.pinch, c.longer, c.shorter, c.none, c.missing
            );
            (p.peer.clone(), p.clone(), c)
        })
        .collect()
}

/// `--links`: the index again with two-way teleporters between `link_ends`' pairs, timed on
/// `queries`: the extra build seconds, `next_waypoint` µs, path µs, and how many paths take a
/// link.
fn with_links(
    mesh: &NavMesh,
    link_ends: &[(Point, Point)],
    queries: &[(Point, Point)],
    options: &Options,
    build_sp: f64,
) -> (f64, f64, f64, usize) {
    let mut builder = ExactRooms::builder(mesh);
    for &(a, b) in link_ends {
        builder = builder.link(a, b, a.distance(b) / 10.0, true);
    }
    let start = Instant::now();
    let linked = builder.build().expect("fits the default budget");
    let extra = start.elapsed().as_secs_f64() - build_sp;
    let (w, _, p) = time_index(&linked, queries, options.rounds, options.crowd);
    let taken =
        queries.iter().filter(|&&(s, t)| linked.path(s, t).is_some_and(|p| p.links().count() > 0)).count();
    eprintln!(
        "  with {} links: next_waypoint {w:.3} µs, path {p:.3} µs, {taken} paths take one",
        options.links
    );
    (extra, w, p, taken)
}

fn measure(path: &std::path::Path, options: &Options) -> Row {
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let grid = parse_map(&std::fs::read(path).expect("readable")).expect("a valid map");
    eprintln!("{name}: {}×{}, {} open cells", grid.width(), grid.height(), grid.passable_len());
    let start = Instant::now();
    let mesh = NavMesh::from_grid(&grid).expect("walkable");
    let exact = ExactRooms::build(&mesh).expect("fits the default budget");
    let build_sp = start.elapsed().as_secs_f64();
    eprintln!(
        "  signposts: {} corners, {} edges, {:?}, {:.1} MiB, {build_sp:.2} s",
        exact.corners_len(),
        exact.edges_len(),
        exact.tier(),
        exact.memory_bytes() as f64 / f64::from(1 << 20)
    );
    let start = Instant::now();
    let (labels, four) = four_components(&grid);
    let pa = polyanya_mesh(&trace_rings(&grid, &labels, four), false);
    let build_pa = start.elapsed().as_secs_f64();
    let wrong = polyanya_cover_errors(&grid, &pa);
    assert_eq!(wrong, 0, "{name}: polyanya's mesh disagrees with the grid at {wrong} cell centres");
    let components = closed_components(&grid);
    let link_ends = queries(&grid, &components, options.links, 29);
    let queries = queries(&grid, &components, options.count, 17);
    let compared = compare(&grid, &exact, &pa, &labels, &queries);
    eprintln!(
        "  lengths: {} equal, {} longer (worst {:.6}), {} shorter, polyanya none {} + {}; {} invalid",
        compared.equal,
        compared.longer,
        compared.worst_longer,
        compared.shorter,
        compared.none_pinch,
        compared.none_cap,
        compared.invalid
    );
    let peers = write_and_compare(&name, &grid, &queries, &compared, options);
    let (waypoint_us, crowd_us, path_us) = time_index(&exact, &queries, options.rounds, options.crowd);
    let polyanya_us = fastest(options.rounds, &queries, |s, t| {
        pa.path(Vec2::new(s.x as f32, s.y as f32), Vec2::new(t.x as f32, t.y as f32))
    });
    eprintln!(
        "  next_waypoint {waypoint_us:.3} µs, crowd {crowd_us:.3} µs, path {path_us:.3} µs, polyanya {polyanya_us:.2} µs"
    );
    let mut smaller = Vec::new();
    if options.budgets {
        for tier in [Tier::Table, Tier::CompactTable, Tier::Labels, Tier::CompactLabels, Tier::Graph] {
            if tier == exact.tier() {
                continue;
            }
            let start = Instant::now();
            let other = ExactRooms::builder(&mesh).tier(tier).build().expect("fits");
            let secs = start.elapsed().as_secs_f64();
            let (w, _, p) = time_index(&other, &queries, options.rounds.min(3), options.crowd);
            let wrong = queries
                .iter()
                .filter(|&&(s, t)| {
                    let (a, b) = (exact.distance(s, t).unwrap(), other.distance(s, t).unwrap());
                    (a - b).abs() > 1e-6 * a
                })
                .count();
            eprintln!(
                "  {:?}: {:.1} MiB, built in {secs:.2} s, next_waypoint {w:.3} µs, path {p:.3} µs, {wrong} lengths differ",
                other.tier(),
                other.memory_bytes() as f64 / f64::from(1 << 20)
            );
            assert_eq!(wrong, 0, "{name}: {:?} answers other lengths than {:?}", other.tier(), exact.tier());
            smaller.push((other.tier(), other.memory_bytes(), secs, w, p));
        }
    }
    let linked = (options.links > 0).then(|| with_links(&mesh, &link_ends, &queries, options, build_sp));
    Row {
        linked,
        name,
        regions: mesh.regions_len(),
        corners: exact.corners_len(),
        edges: exact.edges_len(),
        tier: exact.tier(),
        build_sp,
        build_pa,
        memory_sp: exact.memory_bytes(),
        memory_pa: polyanya_bytes(&pa),
        polygons: pa.layers.iter().map(|l| l.polygons.len()).sum(),
        waypoint_us,
        crowd_us,
        path_us,
        polyanya_us,
        compared,
        peers,
        smaller,
    }
}

/// `--sizes`: every shared 512×512 map's index under the default budget.
fn sizes() {
    println!(
        "| map | regions | corners | edges | tier | index | build (mesh + index) | peak RSS of the process |"
    );
    println!("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |");
    for m in MAPS_512 {
        let grid =
            parse_map(&std::fs::read(maps_dir().join(format!("{m}.map"))).expect("readable")).expect("a map");
        let start = Instant::now();
        let mesh = NavMesh::from_grid(&grid).expect("walkable");
        let exact = ExactRooms::build(&mesh).expect("fits the default budget");
        let secs = start.elapsed().as_secs_f64();
        println!(
            "| {m} | {} | {} | {} | {:?} | {:.1} MiB | {secs:.2} s | {:.0} MiB |",
            mesh.regions_len(),
            exact.corners_len(),
            exact.edges_len(),
            exact.tier(),
            exact.memory_bytes() as f64 / f64::from(1 << 20),
            proc_status_bytes("VmHWM") as f64 / f64::from(1 << 20)
        );
    }
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "{problem}\nusage: exact [--queries N] [--rounds N] [--crowd N] [--budgets] [--links N] [--sizes] [--write-scen DIR] [--peer-results FILE ...] [MAP.map ...]"
    );
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = Options {
        count: 2000,
        rounds: 10,
        crowd: 250,
        budgets: false,
        links: 0,
        write_scen: None,
        peers: Vec::new(),
    };
    let mut paths = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            flag @ ("--queries" | "--rounds" | "--crowd" | "--links") => {
                let value = args.get(i + 1).and_then(|v| v.parse::<usize>().ok()).filter(|&v| v > 0);
                let Some(value) = value else { usage(&format!("{flag} needs a positive number")) };
                match flag {
                    "--queries" => options.count = value,
                    "--rounds" => options.rounds = value,
                    "--links" => options.links = value,
                    _ => options.crowd = value,
                }
                i += 1;
            }
            "--budgets" => options.budgets = true,
            "--write-scen" => {
                let Some(dir) = args.get(i + 1) else { usage("--write-scen needs a folder") };
                options.write_scen = Some(PathBuf::from(dir));
                i += 1;
            }
            "--peer-results" => {
                let Some(file) = args.get(i + 1) else { usage("--peer-results needs a file") };
                options.peers.push(PeerResults::read(file.as_ref()).unwrap_or_else(|e| usage(&e)));
                i += 1;
            }
            "--sizes" => {
                sizes();
                return;
            }
            other if other.starts_with("--") => usage(&format!("unknown option {other}")),
            map => paths.push(PathBuf::from(map)),
        }
        i += 1;
    }
    if options.crowd > options.count {
        usage("--crowd must not exceed --queries");
    }
    if paths.is_empty() {
        paths = DEFAULT_MAPS.iter().map(|m| maps_dir().join(format!("{m}.map"))).collect();
    }
    let rows: Vec<Row> = paths.iter().map(|p| measure(p, &options)).collect();
    print_tables(&rows, &args, &options);
}

/// The tables, in markdown.
fn print_tables(rows: &[Row], args: &[String], options: &Options) {
    let command = std::iter::once("cargo run --release -p signposts-bench --bin exact".to_string())
        .chain((!args.is_empty()).then(|| format!("-- {}", args.join(" "))))
        .collect::<Vec<_>>()
        .join(" ");
    println!("```sh\n{command}\n```\n");
    println!(
        "On {}, {} ({} queries between cell centres a map, seed 17, fastest of {} rounds, crowds of {}; polyanya 0.18.0, merged and baked).\n",
        today(),
        cpu(),
        options.count,
        options.rounds,
        options.crowd
    );
    println!(
        "| map | regions / polygons | corners (edges) | tier | build sp / pa | memory sp / pa | next_waypoint | crowd, per entity | path | polyanya | pa / path | pa / next_waypoint |"
    );
    println!("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        println!(
            "| {} | {} / {} | {} ({}) | {:?} | {:.2} s / {:.1} ms | {:.1} MiB / {:.0} KiB | {:.3} µs | {:.3} µs | {:.3} µs | {:.2} µs | **{:.0}×** | **{:.0}×** |",
            r.name,
            r.regions,
            r.polygons,
            r.corners,
            r.edges,
            r.tier,
            r.build_sp,
            r.build_pa * 1e3,
            r.memory_sp as f64 / f64::from(1 << 20),
            r.memory_pa as f64 / 1024.0,
            r.waypoint_us,
            r.crowd_us,
            r.path_us,
            r.polyanya_us,
            r.polyanya_us / r.path_us,
            r.polyanya_us / r.waypoint_us,
        );
    }
    println!();
    println!(
        "| map | queries | goal in sight | equal (1e-5) | sp longer (worst) | sp shorter | polyanya none: pinch / cap | invalid sp paths | next_waypoint ≠ path |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        let c = &r.compared;
        println!(
            "| {} | {} | {} | {} | {} ({:.6}) | {} | {} / {} | {} | {} |",
            r.name,
            options.count,
            c.straight,
            c.equal,
            c.longer,
            c.worst_longer,
            c.shorter,
            c.none_pinch,
            c.none_cap,
            c.invalid,
            c.waypoint_mismatch
        );
    }
    print_peers(rows);
    if options.budgets {
        println!();
        println!("| map | tier | index | build | next_waypoint | path |");
        println!("| --- | --- | ---: | ---: | ---: | ---: |");
        for r in rows {
            println!(
                "| {} | {:?} (default) | {:.1} MiB | {:.2} s | {:.3} µs | {:.3} µs |",
                r.name,
                r.tier,
                r.memory_sp as f64 / f64::from(1 << 20),
                r.build_sp,
                r.waypoint_us,
                r.path_us
            );
            for &(tier, bytes, secs, w, p) in &r.smaller {
                println!(
                    "| {} | {tier:?} | {:.1} MiB | {secs:.2} s | {w:.3} µs | {p:.3} µs |",
                    r.name,
                    bytes as f64 / f64::from(1 << 20)
                );
            }
        }
    }
    if options.links > 0 {
        println!();
        println!(
            "| map | links | build, more | next_waypoint | with links | path | with links | paths taking a link |"
        );
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for r in rows {
            let Some((extra, w, p, taken)) = r.linked else { continue };
            println!(
                "| {} | {} | {:+.3} s | {:.3} µs | {w:.3} µs | {:.3} µs | {p:.3} µs | {taken} of {} |",
                r.name, options.links, extra, r.waypoint_us, r.path_us, options.count
            );
        }
    }
}

/// The `--peer-results` table: each program beside `ExactRooms`' `path` on the same queries.
fn print_peers(rows: &[Row]) {
    if rows.iter().all(|r| r.peers.is_empty()) {
        return;
    }
    let mib = |bytes: Option<f64>| match bytes {
        None => "–".to_string(),
        Some(b) if b < f64::from(1 << 20) => format!("{:.0} KiB", b / 1024.0),
        Some(b) => format!("{:.1} MiB", b / f64::from(1 << 20)),
    };
    let secs = |s: Option<f64>| s.map_or("–".to_string(), |s| format!("{s:.2} s"));
    println!();
    println!(
        "| map | program | path | / sp path | index on disk | memory | build | equal (1e-5) | sp shorter through a pinch | mismatches: longer / shorter / none / missing |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        println!(
            "| {} | ExactRooms | {:.3} µs | 1× | – | {} | {} | – | – | – |",
            r.name,
            r.path_us,
            mib(Some(r.memory_sp as f64)),
            secs(Some(r.build_sp))
        );
        for (peer, p, c) in &r.peers {
            let us = p.number("query_us");
            println!(
                "| {} | {peer} | {} | {} | {} | {} | {} | {} | {} | {} / {} / {} / {} |",
                r.name,
                us.map_or("–".to_string(), |u| format!("{u:.3} µs")),
                us.map_or("–".to_string(), |u| format!("{:.1}×", u / r.path_us)),
                mib(p.number("index_bytes")),
                mib(p.number("memory_bytes")),
                secs(p.number("preprocess_s")),
                c.equal,
                c.pinch,
                c.longer,
                c.shorter,
                c.none,
                c.missing
            );
        }
    }
}
