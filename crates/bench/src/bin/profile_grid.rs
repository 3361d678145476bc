//! Builds the oracle of a Moving AI map, for profiling the grid engines.
//!
//! Run: `cargo run --release -p signposts-bench --bin profile_grid -- maps/lak303d.map 8`

use std::time::Instant;

use signposts::grid::{Connectivity, GridOracle, parse_map};

fn main() {
    let path = std::env::args().nth(1).expect("a .map file");
    let connectivity = match std::env::args().nth(2).as_deref() {
        Some("8") => Connectivity::Eight,
        _ => Connectivity::Four,
    };
    let grid = parse_map(&std::fs::read(&path).expect("readable map")).expect("a valid map");
    let start = Instant::now();
    let oracle = GridOracle::build(&grid, connectivity).expect("fits in memory");
    println!("{path}: {oracle:?} built in {:.2} s", start.elapsed().as_secs_f64());
}
