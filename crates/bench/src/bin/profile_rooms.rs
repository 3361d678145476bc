//! Repeats `next_waypoint_with` on random queries of one map, for a profiler.
//!
//! ```text
//! cargo run --release -p signposts-bench --bin profile_rooms -- maps/arena.map
//! ```
//!
//! `ROUNDS=N` sets the rounds over the 2,000 queries (default 2,000; 2 under callgrind).

use std::time::Instant;

use signposts::generate::SplitMix64;
use signposts::grid::{Cell, parse_map};
use signposts_rooms::{NavMesh, Point, Rooms, Scratch};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "maps/arena.map".into());
    let grid = parse_map(&std::fs::read(&path)?)?;
    let rooms = Rooms::build(&NavMesh::from_grid(&grid)?)?;
    let open: Vec<Cell> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect();
    let mut rng = SplitMix64::new(3);
    let centre = |c: Cell| Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5);
    let queries: Vec<(Point, Point)> = (0..2000)
        .map(|_| {
            (
                centre(open[rng.below(open.len() as u64) as usize]),
                centre(open[rng.below(open.len() as u64) as usize]),
            )
        })
        .collect();
    let corridor: usize = queries
        .iter()
        .filter_map(|&(s, t)| Some(rooms.region_path(rooms.region_at(s)?, rooms.region_at(t)?)?.len()))
        .sum();
    println!(
        "{:.2} regions a corridor, {} oracle nodes",
        corridor as f64 / queries.len() as f64,
        rooms.table().nodes_len()
    );
    let mut scratch = Scratch::default();
    let start = Instant::now();
    let mut sum = 0.0;
    let rounds = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(2000);
    for _ in 0..rounds {
        for &(s, t) in &queries {
            sum += rooms.next_waypoint_with(s, t, &mut scratch).map_or(0.0, |p| p.x);
        }
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / (rounds * queries.len()) as f64;
    println!("{ns:.1} ns a next_waypoint ({sum})");
    let start = Instant::now();
    let mut found = 0u64;
    for _ in 0..rounds {
        for &(s, t) in &queries {
            found +=
                u64::from(std::hint::black_box(rooms.region_at(s)).is_some() && rooms.region_at(t).is_some());
        }
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / (rounds * queries.len()) as f64;
    println!("{ns:.1} ns for both region_at ({found})");
    let pairs: Vec<_> =
        queries.iter().map(|&(s, t)| (rooms.region_at(s).unwrap(), rooms.region_at(t).unwrap())).collect();
    let start = Instant::now();
    let mut n = 0u64;
    for _ in 0..rounds {
        for &(a, b) in &pairs {
            n += u64::from(std::hint::black_box(rooms.next_region(a, b)).is_some());
        }
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / (rounds * pairs.len()) as f64;
    println!("{ns:.1} ns a next_region ({n})");
    let start = Instant::now();
    for _ in 0..rounds {
        for &(a, b) in &pairs {
            n += u64::from(std::hint::black_box(rooms.table().neighbor_to(a.0, b.0)).is_some());
        }
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / (rounds * pairs.len()) as f64;
    println!("{ns:.1} ns a table read ({n})");
    Ok(())
}
