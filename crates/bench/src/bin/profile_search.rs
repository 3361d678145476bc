//! Times A* over every scenario of one Moving AI map, for profiling the search.
//!
//! Run: `cargo run --release -p signposts-bench --bin profile_search -- maps/maze512-4-0.map [rounds]`

use std::time::Instant;

use signposts::grid::{Connectivity, parse_map, parse_scenarios};
use signposts::search::{Layer, Searcher, TileGrid};

fn main() {
    let map = std::env::args().nth(1).unwrap_or_else(|| "maps/maze512-4-0.map".into());
    let grid = parse_map(&std::fs::read(&map).expect("map")).expect("parses");
    let scenarios = parse_scenarios(&std::fs::read(format!("{map}.scen")).expect("scen")).expect("parses");
    let rounds: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(1);
    let tiles = TileGrid::from_grid(&grid);
    let mut searcher = Searcher::new();
    let (mut expanded, mut count) = (0, 0);
    let start = Instant::now();
    let valid: Vec<_> = scenarios.iter().filter(|s| s.problem(&grid).is_none()).collect();
    for s in (0..rounds).flat_map(|_| valid.iter()) {
        let route =
            searcher.astar(&tiles, Layer::WALKABLE, Connectivity::Eight, s.start, s.goal).expect("inside");
        assert!(route.cost().is_some_and(|c| s.accepts(c.value())), "line {}", s.line);
        expanded += searcher.expanded();
        count += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{count} searches in {seconds:.2} s: {:.1} µs each, {:.0} expanded each, {:.1} ns per expansion",
        seconds * 1e6 / f64::from(count),
        expanded as f64 / f64::from(count),
        seconds * 1e9 / expanded as f64
    );
}
