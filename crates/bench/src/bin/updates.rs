//! Incremental updates beside full rebuilds, in one run: random single cells blocked and
//! opened on a walled 4-connected grid and an open 8-connected one, walls of a maze, and a
//! bridge.
//!
//! `cargo run --release -p signposts-bench --bin updates [dense]`; `dense` stops after the
//! two grids' cell toggles.

use std::time::Instant;

#[path = "updates/compressed.rs"]
mod compressed_edits;

use signposts::generate::{SplitMix64, grid_from_fn, maze};
use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
use signposts::{Graph, GraphBuilder, NodeId, TableRef};

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
        "| {name} | {rebuild:.1} ms | {median:.2} ms | {:.0}× | {mean:.2} ms | {worst:.2} ms | **{:.0}×** | **{:.0}×** | {hundredfold} of {} | {repaired} repaired ({replayed} by replay), {searched} searched, {patched} patched; {rebuilds} rebuilt |",
        rebuild / median,
        rebuild / mean,
        rebuild / worst,
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

/// Components of the oracle's graph.
fn components(oracle: &GridOracle) -> usize {
    match oracle.table() {
        TableRef::Dense(graph) => graph.components_len(),
        _ => unreachable!("edits are dense only"),
    }
}

/// Times `count` random open cells of `grid` (seeded), each blocked and then opened again:
/// `2 × count` single-cell toggles, each one `GridOracle::set_blocked`. Checked against fresh
/// builds of the edited grid four times during the run and of the original one at the end;
/// the rebuild is the median of the five builds. Toggles that change the number of components
/// (a cell that was the only way into a pocket) are reported apart.
fn cell_toggles(name: &str, grid: &Grid, connectivity: Connectivity, count: usize, seed: u64) {
    let timed_build = |grid: &Grid| {
        let start = Instant::now();
        let oracle = GridOracle::build(grid, connectivity).expect("fits");
        (ms(start), oracle)
    };
    let (first, mut oracle) = timed_build(grid);
    let original = oracle.clone();
    let mut builds = vec![first];
    let mut rng = SplitMix64::new(seed);
    let mut cells: Vec<Cell> = Vec::with_capacity(count);
    while cells.len() < count {
        let cell =
            Cell::new(rng.below(u64::from(grid.width())) as u32, rng.below(u64::from(grid.height())) as u32);
        if grid.is_passable(cell) && !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    let mut times = Vec::new();
    let mut updates = Vec::new();
    // The blocking toggles' times and the openings', apart.
    let mut by_kind = [Vec::new(), Vec::new()];
    // Toggles that split a component (blocking) or join two (opening).
    let mut splits = Vec::new();
    for (i, &cell) in cells.iter().enumerate() {
        for blocked in [true, false] {
            let before = components(&oracle);
            let start = Instant::now();
            let update = oracle.set_blocked(cell, blocked).expect("in the grid");
            let time = ms(start);
            // Blocking a cell drops its node from the component count by making it alone:
            // a split leaves more than that one extra.
            let after = components(&oracle);
            if after.abs_diff(before) > 1 {
                splits.push(time);
            }
            times.push(time);
            updates.push(update);
            by_kind[usize::from(!blocked)].push(time);
        }
        if (i + 1) % (count / 4).max(1) == 0 && i + 1 < count {
            // Block this cell again, compare with a fresh build of that grid, and open it.
            oracle.set_blocked(cell, true).expect("in the grid");
            let (time, fresh) = timed_build(oracle.grid());
            builds.push(time);
            check_grid(&oracle, &fresh);
            oracle.set_blocked(cell, false).expect("in the grid");
        }
    }
    check_grid(&oracle, &original);
    let rebuild = median(&builds);
    report(name, rebuild, &times, &updates);
    for (kind, times) in ["blocking", "opening"].iter().zip(&by_kind) {
        let (mean, worst) =
            (times.iter().sum::<f64>() / times.len() as f64, times.iter().copied().fold(0.0, f64::max));
        let median = median(times);
        println!(
            "|   of which {kind} ({} toggles) | | {median:.2} ms | {:.0}× | {mean:.2} ms | {worst:.2} ms | **{:.0}×** | **{:.0}×** | {} of {} | |",
            times.len(),
            rebuild / median,
            rebuild / mean,
            rebuild / worst,
            times.iter().filter(|&&t| t * 100.0 <= rebuild).count(),
            times.len(),
        );
    }
    if !splits.is_empty() {
        println!(
            "|   of which splitting or joining a component ({} toggles) | | {:.2} ms | | {:.2} ms | {:.2} ms | | | | |",
            splits.len(),
            median(&splits),
            splits.iter().sum::<f64>() / splits.len() as f64,
            splits.iter().copied().fold(0.0, f64::max),
        );
    }
}

fn main() {
    println!("{} threads (rayon) for builds and repairs", rayon::current_num_threads());
    println!();
    println!(
        "| change | full rebuild | update, median | rebuild ÷ median | mean | worst | rebuild ÷ mean | rebuild ÷ worst | ≥ 100× | columns |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut rng = SplitMix64::new(3);

    // Random open cells of a 100×100 4-connected grid with 20% walls, blocked and opened.
    let mut walls = SplitMix64::new(7);
    let wall: Vec<bool> = (0..10_000).map(|_| walls.chance(0.2)).collect();
    let walled = Grid::from_fn(100, 100, |c| !wall[(c.y * 100 + c.x) as usize]);
    cell_toggles(
        "one cell, 100×100 4-grid with 20% walls (100 random cells, blocked then opened)",
        &walled,
        Connectivity::Four,
        100,
        11,
    );

    // The same on an open 8-connected 100×100 grid (octile costs).
    cell_toggles(
        "one cell, 8-connected 100×100 grid (100 random cells, blocked then opened)",
        &Grid::new(100, 100),
        Connectivity::Eight,
        100,
        13,
    );

    // `dense`: the two grids' cell toggles only.
    if std::env::args().any(|a| a == "dense") {
        return;
    }

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

    // The worst case: a wall across a 100×100 4-grid with one gap; closing the gap cuts the
    // map in two, so every entry between the halves changes.
    let gap: NodeId = 50 * 100 + 50;
    let split = grid_from_fn(100, 100, signposts::generate::Connectivity::Four, |x, y| y != 50 || x == 50);
    let below = gap + 100;
    edge_toggles("worst case: the only gap in a wall across a 100×100 grid", &split, &[(gap, below)], true);

    // Compressed tables edited in place beside compressed rebuilds (512×512 maps).
    compressed_edits::run();
}
