//! Single queries: signposts' A* and greedy search beside the `pathfinding` crate's `astar`
//! and `bfs` and `grid_pathfinding`'s jump point search, on the same grids, in one run.
//!
//! `cargo run --release -p signposts-bench --bin single`
//!
//! Reports nanoseconds and heap allocations per query (a counting global allocator).

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use grid_pathfinding::PathingGrid;
use grid_util::ValueGrid;
use grid_util::point::Point;
use signposts::grid::{Cell, Connectivity, Direction, Grid, Scenario, parse_map, parse_scenarios};
use signposts::search::{Layer, Route, Searcher, TileGrid};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; counting is an atomic
// add.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Integer step costs shared by every searcher here: 665857 / 470832 approximates √2 within
/// 1.6·10⁻¹², so all of them find the same optimal lengths.
const STRAIGHT: u64 = 470_832;
const DIAGONAL: u64 = 665_857;

/// Times `run` over `queries` (several rounds, the fastest kept): nanoseconds and allocations
/// per query.
fn measure<Q>(queries: &[Q], rounds: usize, mut run: impl FnMut(&Q) -> u64) -> (f64, f64, u64) {
    let mut best = f64::INFINITY;
    let mut allocations = 0;
    let mut checksum = 0u64;
    for _ in 0..rounds {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let start = Instant::now();
        checksum = 0;
        for q in queries {
            checksum = checksum.wrapping_add(run(black_box(q)));
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / queries.len() as f64);
        allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    }
    (best, allocations as f64 / queries.len() as f64, checksum)
}

/// The moves of `cell` on `grid` (no corner cutting), with their integer costs.
fn moves(grid: &Grid, eight: bool, cell: Cell) -> impl Iterator<Item = (Cell, u64)> + '_ {
    Direction::ALL.into_iter().filter_map(move |d| {
        if d.is_diagonal() && !eight {
            return None;
        }
        let to = grid.step(cell, d)?;
        Some((to, if d.is_diagonal() { DIAGONAL } else { STRAIGHT }))
    })
}

fn octile(a: Cell, b: Cell, eight: bool) -> u64 {
    let (dx, dy) = (u64::from(a.x.abs_diff(b.x)), u64::from(a.y.abs_diff(b.y)));
    if eight {
        dx.max(dy) * STRAIGHT - dx.min(dy) * STRAIGHT + dx.min(dy) * DIAGONAL
    } else {
        (dx + dy) * STRAIGHT
    }
}

/// One table row: every searcher on `queries` over `grid`.
fn compare(name: &str, grid: &Grid, eight: bool, queries: &[(Cell, Cell)], rounds: usize) {
    let tiles = TileGrid::from_grid(grid);
    let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
    let mut searcher = Searcher::new();
    // Warm up the searcher (it sizes itself to the map once).
    let _ = searcher.astar(&tiles, Layer::WALKABLE, connectivity, queries[0].0, queries[0].1);
    // Cells expanded per query, for reading the times.
    let mut expanded = [0usize; 2];
    for &(a, b) in queries {
        let _ = searcher.astar(&tiles, Layer::WALKABLE, connectivity, a, b);
        expanded[0] += searcher.expanded();
        let _ = searcher.greedy(&tiles, Layer::WALKABLE, connectivity, a, b);
        expanded[1] += searcher.expanded();
    }
    let expanded = expanded.map(|e| e / queries.len());
    let cost = |route: Route| route.cost().map_or(0, |c| c.straight * STRAIGHT + c.diagonal * DIAGONAL);
    let (ours, ours_alloc, ours_sum) = measure(queries, rounds, |&(a, b)| {
        cost(searcher.astar(&tiles, Layer::WALKABLE, connectivity, a, b).expect("inside"))
    });
    let (greedy, greedy_alloc, _) = measure(queries, rounds, |&(a, b)| {
        cost(searcher.greedy(&tiles, Layer::WALKABLE, connectivity, a, b).expect("inside"))
    });
    let (theirs, theirs_alloc, theirs_sum) = measure(queries, rounds, |&(a, b)| {
        pathfinding::prelude::astar(&a, |&c| moves(grid, eight, c), |&c| octile(c, b, eight), |&c| c == b)
            .map_or(0, |(_, c)| c)
    });
    assert_eq!(ours_sum, theirs_sum, "{name}: A* lengths differ from pathfinding::astar");
    let bfs = (!eight).then(|| {
        measure(queries, rounds, |&(a, b)| {
            pathfinding::prelude::bfs(&a, |&c| moves(grid, eight, c).map(|(c, _)| c), |&c| c == b)
                .map_or(0, |p| p.len() as u64)
        })
    });
    let mut jps_grid: PathingGrid = PathingGrid::new(grid.width() as usize, grid.height() as usize, false);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if !grid.is_passable(Cell::new(x, y)) {
                jps_grid.set(coordinate(x), coordinate(y), true);
            }
        }
    }
    jps_grid.allow_diagonal_move = eight;
    jps_grid.generate_components();
    let point = |c: Cell| Point::new(coordinate(c.x), coordinate(c.y));
    let (jps, jps_alloc, _) = measure(queries, rounds, |&(a, b)| {
        jps_grid.get_path_single_goal(point(a), point(b), false).map_or(0, |p| p.len() as u64)
    });
    let bfs_cell =
        bfs.map_or("—".to_string(), |(ns, allocs, _)| format!("{} ({allocs:.0} allocs)", time(ns)));
    println!(
        "| {name} | {} | **{} ({ours_alloc:.0} allocs)**, {} cells | **{:.1}×** | {} ({greedy_alloc:.0} allocs), {} cells | {} ({theirs_alloc:.0} allocs) | {bfs_cell} | {} ({jps_alloc:.0} allocs) |",
        queries.len(),
        time(ours),
        expanded[0],
        theirs / ours,
        time(greedy),
        expanded[1],
        time(theirs),
        time(jps),
    );
}

/// A map coordinate as `grid_pathfinding` takes it.
fn coordinate(v: u32) -> i32 {
    i32::try_from(v).expect("map coordinates fit i32")
}

fn time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The three 50×50 layouts of the "zero-alloc pathfinding" talk, recreated.
fn layouts() -> Vec<(&'static str, Grid, Cell, Cell)> {
    let open = Grid::new(50, 50);
    // One vertical wall of 23 cells between the start and the goal.
    let wall = Grid::from_fn(50, 50, |c| !(c.x == 12 && (2..25).contains(&c.y)));
    // Several walls: a room to leave and corridors to follow.
    let walls = Grid::from_fn(50, 50, |c| {
        let (x, y) = (c.x, c.y);
        !((y == 4 && x < 30)
            || (x == 30 && (4..20).contains(&y))
            || (y == 8 && (6..30).contains(&x))
            || (x == 10 && (8..40).contains(&y))
            || (y == 16 && (14..30).contains(&x)))
    });
    vec![
        ("no walls", open, Cell::new(3, 13), Cell::new(37, 17)),
        ("one 23-cell wall", wall, Cell::new(3, 13), Cell::new(20, 13)),
        ("several walls", walls, Cell::new(4, 1), Cell::new(19, 12)),
    ]
}

fn main() {
    println!("## The talk's 50×50 layouts, 4-connected (S start, G goal)\n");
    let layouts = layouts();
    for (name, grid, start, goal) in &layouts {
        println!("{name}:\n```\n{}```", grid.draw(&[(*start, 'S'), (*goal, 'G')]));
    }
    println!();
    println!(
        "| grid | queries | signposts A* | vs pathfinding::astar | signposts greedy | pathfinding::astar | pathfinding::bfs | grid_pathfinding (JPS) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (name, grid, start, goal) in &layouts {
        compare(name, grid, false, &[(*start, *goal)], 2000);
    }

    println!("\n## Moving AI maps, 8-connected, octile costs, their scenarios\n");
    println!(
        "| map | queries | signposts A* (over jump points) | vs pathfinding::astar | signposts greedy | pathfinding::astar | pathfinding::bfs | grid_pathfinding (JPS) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    for (map, every) in [
        ("arena.map", 1),
        ("den312d.map", 1),
        ("lak303d.map", 4),
        ("brc202d.map", 25),
        ("random512-10-0.map", 25),
    ] {
        let Ok(bytes) = std::fs::read(dir.join(map)) else {
            println!("| {map} | missing: expected in {} | | | | | | |", dir.display());
            continue;
        };
        let grid = parse_map(&bytes).expect("a valid map");
        let scenarios: Vec<Scenario> =
            parse_scenarios(&std::fs::read(dir.join(format!("{map}.scen"))).expect("its scenarios"))
                .expect("valid");
        let queries: Vec<(Cell, Cell)> = scenarios
            .iter()
            .filter(|s| s.problem(&grid).is_none())
            .step_by(every)
            .map(|s| (s.start, s.goal))
            .collect();
        let which =
            if every == 1 { "every scenario".to_string() } else { format!("every {every}th scenario") };
        compare(&format!("{map} ({which})"), &grid, true, &queries, 3);
    }
}
