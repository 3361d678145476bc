//! Whether an edit's repair beats a rebuild where `apply` chose to repair: the cases where a
//! repair was once slower than the build it replaces — walls of the web page's and the Bevy
//! example's mazes (octile), and a doorway of the demo's building (rooms).
//!
//! `cargo run --release -p signposts-bench --bin repair_choice`

use std::time::Instant;

use signposts::BuildOptions;
use signposts::generate::{SplitMix64, maze_grid};
use signposts::grid::{Connectivity, Grid, GridOracle, TableKind};
use signposts_bench::cells_between_open;

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn grid_case(name: &str, grid: &Grid, count: usize) {
    let build = |grid: &Grid| {
        let start = Instant::now();
        let oracle =
            BuildOptions::new().build_grid(grid, Connectivity::Eight, TableKind::Dense).expect("fits");
        (ms(start), oracle)
    };
    let (first, mut oracle): (f64, GridOracle) = build(grid);
    let mut builds = vec![first];
    let (mut times, mut rebuilds, mut slower) = (Vec::new(), 0, 0);
    for (i, cell) in cells_between_open(grid, false, count, 5).into_iter().enumerate() {
        for blocked in [false, true] {
            let start = Instant::now();
            let update = oracle.set_blocked(cell, blocked).expect("in the grid");
            let time = ms(start);
            rebuilds += usize::from(update.rebuilt);
            if i % 4 == 0 {
                builds.push(build(oracle.grid()).0);
            }
            times.push((time, update.rebuilt));
        }
    }
    let rebuild = median(&mut builds);
    for &(time, _) in &times {
        if time > rebuild * 1.25 {
            slower += 1;
        }
    }
    let mut all: Vec<f64> = times.iter().map(|t| t.0).collect();
    let worst = all.iter().copied().fold(0.0, f64::max);
    let mean = all.iter().sum::<f64>() / all.len() as f64;
    println!(
        "| {name} | {rebuild:.1} ms | {:.1} ms | {mean:.1} ms | {worst:.1} ms | {rebuilds} of {} | {slower} |",
        median(&mut all),
        times.len()
    );
}

fn rooms_case() {
    use signposts_rooms::{NavMesh, Point, Rooms};
    let grid = Grid::from_fn(61, 61, |c| {
        let (x, y) = (c.x % 10, c.y % 10);
        let door = |k: u32| (4..6).contains(&k);
        !(x == 0 || y == 0)
            || (x == 0 && door(c.y % 10) && c.x > 0 && c.x < 60)
            || (y == 0 && door(c.x % 10) && c.y > 0 && c.y < 60)
    });
    let mesh = NavMesh::from_grid_for_radius(&grid, 0.3).expect("rooms of 9 cells");
    let mut rooms = Rooms::build(&mesh).expect("a small oracle");
    let (mut builds, mut tables) = (Vec::new(), Vec::new());
    let (mut times, mut slower) = (Vec::new(), 0);
    let door = mesh.doors_of(mesh.region_at(Point::new(30.5, 35.0)).expect("a room"))[0];
    let mut doors = vec![door];
    let mut rng = SplitMix64::new(9);
    doors.extend((0..15).map(|_| signposts_rooms::DoorId(rng.below(mesh.doors_len() as u64) as u32)));
    for d in doors {
        for open in [false, true] {
            let start = Instant::now();
            rooms.set_door_open(d, open).expect("a door");
            times.push(ms(start));
            let start = Instant::now();
            let _ = Rooms::build(&mesh).expect("a small oracle");
            builds.push(ms(start));
            let builder = rooms.table().clone().into_builder();
            let start = Instant::now();
            let _ = builder.build();
            tables.push(ms(start));
        }
    }
    let rebuild = median(&mut builds);
    println!("(rooms: the oracle's table alone rebuilt in {:.1} ms)", median(&mut tables));
    slower += times.iter().filter(|&&t| t > rebuild * 1.25).count();
    let worst = times.iter().copied().fold(0.0, f64::max);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "| the demo's building, a doorway ({} regions, {} doors) | {rebuild:.1} ms | {:.1} ms | {mean:.1} ms | {worst:.1} ms | - | {slower} |",
        mesh.regions_len(),
        mesh.doors_len(),
        median(&mut times.clone()),
    );
}

fn main() {
    println!("Each wall opened (a cell the table has no node for: always a rebuild) and closed again; each");
    println!("doorway closed and opened. An edit over 1.25x a rebuild chose the slower way (or wasted a");
    println!("repair before rebuilding).\n");
    println!(
        "| edit | rebuild (median) | edit, median | mean | worst | rebuilt | edits over 1.25× a rebuild |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    grid_case("a wall of the web page's maze (121×81, octile)", &maze_grid(60, 40, 8, 42), 24);
    grid_case("a wall of the Bevy example's maze (81×57, octile)", &maze_grid(40, 28, 8, 42), 24);
    rooms_case();
}
