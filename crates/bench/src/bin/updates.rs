//! Incremental updates beside full rebuilds, in one run: toggling one door.
//!
//! `cargo run --release -p signposts-bench --bin updates`

use std::time::Instant;

use signposts::generate::{Connectivity, SplitMix64, grid_from_fn, maze, walled_grid};
use signposts::grid::{Cell, Grid, GridOracle};
use signposts::{Graph, GraphBuilder, NodeId};

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// Times toggling each of `edges` off and on again (two updates), checked against a fresh
/// build after the last one.
fn edge_toggles(name: &str, builder: &GraphBuilder, edges: &[(NodeId, NodeId)], connected: bool) {
    // Rebuilds timed before, between and after the updates, and the median taken: the
    // machine is shared and its speed drifts during a run.
    let timed_build = || {
        let start = Instant::now();
        let graph = builder.build();
        (ms(start), graph)
    };
    let (first, mut graph) = timed_build();
    let mut builds = vec![first];
    let mut times = Vec::new();
    let mut updates = Vec::new();
    for (i, &(a, b)) in edges.iter().enumerate() {
        if i == edges.len() / 2 {
            builds.push(timed_build().0);
        }
        for on in [!connected, connected] {
            let start = Instant::now();
            let update = if on { graph.connect(a, b) } else { graph.disconnect(a, b) };
            times.push(ms(start));
            updates.push(update);
        }
    }
    builds.push(timed_build().0);
    check(&graph, builder);
    report(name, median(&builds), &times, &updates);
}

/// The middle value.
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn report(name: &str, rebuild: f64, times: &[f64], updates: &[signposts::dynamic::Update]) {
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let median = median(times);
    let worst = times.iter().copied().fold(0.0, f64::max);
    let hundredfold = times.iter().filter(|&&t| t * 100.0 <= rebuild).count();
    let searched: usize = updates.iter().filter(|u| !u.rebuilt).map(|u| u.columns).sum();
    let repaired: usize = updates.iter().map(|u| u.repaired).sum();
    let replayed: usize = updates.iter().map(|u| u.replayed).sum();
    let patched: usize = updates.iter().map(|u| u.patched).sum();
    let rebuilds = updates.iter().filter(|u| u.rebuilt).count();
    println!(
        "| {name} | {rebuild:.1} ms | {median:.2} ms | **{:.0}×** | {mean:.2} ms | {worst:.2} ms | {hundredfold} of {} | {repaired} repaired ({replayed} by replay), {searched} searched, {patched} patched; {rebuilds} rebuilt |",
        rebuild / median,
        updates.len()
    );
}

/// Every answer of `graph` against a fresh build (sampled targets).
fn check(graph: &Graph, builder: &GraphBuilder) {
    let fresh = builder.build();
    let n = builder.nodes_len() as NodeId;
    for t in (0..n).step_by(97) {
        for u in 0..n {
            assert!(graph.neighbors_to(u, t).eq(fresh.neighbors_to(u, t)), "{u} -> {t}");
        }
    }
}

/// Every answer of `oracle` against a fresh build (sampled targets).
fn check_grid(oracle: &GridOracle, fresh: &GridOracle) {
    let grid = fresh.grid();
    let cells: Vec<Cell> =
        (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y))).collect();
    for &t in cells.iter().step_by(97) {
        for &a in &cells {
            assert!(oracle.next_steps(a, t).eq(fresh.next_steps(a, t)), "{a} -> {t}");
        }
    }
}

fn main() {
    println!("| change | full rebuild | update, median | ratio | mean | worst | ≥ 100× | columns |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut rng = SplitMix64::new(3);

    // One edge on a 100×100 4-grid with 20% walls.
    let walls = walled_grid(100, 100, 0.2, 7, Connectivity::Four);
    let edges: Vec<(NodeId, NodeId)> = (0..20)
        .map(|_| {
            loop {
                let a = rng.below(10_000) as NodeId;
                if let Some(&b) = walls.neighbors(a).first() {
                    break (a, b);
                }
            }
        })
        .collect();
    edge_toggles("one edge, 100×100 4-grid with 20% walls (20 edges, off and on)", &walls, &edges, true);

    // Opening a wall between two cells of an 80×80 perfect maze, and closing it again.
    let mut m = maze(80, 80, 42);
    m.reserve_degree(4); // room for the walls to open
    let walls_of_maze: Vec<(NodeId, NodeId)> = (0..20)
        .map(|_| {
            loop {
                let a = rng.below(6_400) as NodeId;
                let b = if a % 80 < 79 { a + 1 } else { a - 1 };
                if !m.contains_edge(a, b) {
                    break (a, b);
                }
            }
        })
        .collect();
    edge_toggles(
        "a wall in an 80×80 perfect maze, rows with room for 4 moves (20 walls, open and close)",
        &m,
        &walls_of_maze,
        false,
    );

    // Cells of an 8-connected 100×100 grid, blocked one by one, then opened again; checked
    // against fresh builds of both grids.
    let grid = Grid::new(100, 100);
    let timed_build = |grid: &Grid| {
        let start = Instant::now();
        let oracle = GridOracle::build(grid, signposts::grid::Connectivity::Eight).expect("fits");
        (ms(start), oracle)
    };
    let (first, mut oracle) = timed_build(&grid);
    let mut builds = vec![first];
    let original = oracle.clone();
    let cells: Vec<Cell> = (0..10).map(|_| Cell::new(rng.below(100) as u32, rng.below(100) as u32)).collect();
    let mut times = Vec::new();
    let mut updates = Vec::new();
    for blocked in [true, false] {
        for &cell in &cells {
            let start = Instant::now();
            let update = oracle.set_blocked(cell, blocked).expect("in the grid");
            times.push(ms(start));
            updates.push(update);
        }
        let fresh = if blocked {
            let (time, fresh) = timed_build(oracle.grid());
            builds.push(time);
            fresh
        } else {
            builds.push(timed_build(oracle.grid()).0);
            original.clone()
        };
        check_grid(&oracle, &fresh);
    }
    report(
        "one cell, 8-connected 100×100 grid (10 cells blocked, then opened)",
        median(&builds),
        &times,
        &updates,
    );

    // The worst case: a wall across a 100×100 4-grid with one gap; closing the gap cuts the
    // map in two, so every entry between the halves changes.
    let gap: NodeId = 50 * 100 + 50;
    let split = grid_from_fn(100, 100, Connectivity::Four, |x, y| y != 50 || x == 50);
    let below = gap + 100;
    edge_toggles("worst case: the only gap in a wall across a 100×100 grid", &split, &[(gap, below)], true);
}
