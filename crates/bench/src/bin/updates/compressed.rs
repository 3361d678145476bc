//! Compressed tables edited in place beside compressed rebuilds: single cells of 512×512
//! Moving AI maps blocked and opened, one 4-connected map and one octile.

use std::collections::VecDeque;
use std::time::Instant;

use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Connectivity, Grid, GridOracle, parse_map};

/// The maps: `(file, connectivity, toggles)`.
const MAPS: [(&str, Connectivity, usize); 2] =
    [("64room_000.map", Connectivity::Four, 20), ("random512-40-0.map", Connectivity::Eight, 4)];

/// Rebuilds timed per map (a full compressed build takes about a minute).
const REBUILDS: usize = 2;

fn secs(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}

fn stats(times: &[f64]) -> (f64, f64, f64) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    (sorted.iter().sum::<f64>() / sorted.len() as f64, sorted[sorted.len() / 2], sorted[sorted.len() - 1])
}

/// Mean nanoseconds of `next_step` over random pairs of open cells.
fn query_ns(oracle: &GridOracle, open: &[Cell], seed: u64) -> f64 {
    let mut rng = SplitMix64::new(seed);
    let pairs: Vec<(Cell, Cell)> = (0..200_000)
        .map(|_| (open[rng.below(open.len() as u64) as usize], open[rng.below(open.len() as u64) as usize]))
        .collect();
    let start = Instant::now();
    let found = pairs.iter().filter(|&&(a, b)| oracle.next_step(a, b).is_some()).count();
    std::hint::black_box(found);
    secs(start) * 1e9 / pairs.len() as f64
}

/// Every open cell's step toward `to` checked optimal against a search of the grid as it is
/// (BFS on 4-connected grids, exact octile costs as `straight + diagonal·√2` compared by
/// value with a tolerance far below √2 − 1).
fn check_target(oracle: &GridOracle, to: Cell) -> usize {
    let grid = oracle.grid();
    let dist = distances(grid, oracle.connectivity(), to);
    let w = grid.width() as usize;
    let at = |c: Cell| dist[c.y as usize * w + c.x as usize];
    let mut checked = 0;
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let from = Cell::new(x, y);
            if !grid.is_passable(from) {
                continue;
            }
            let d = at(from);
            assert_eq!(oracle.path_exists(from, to), d.is_finite(), "{from:?} → {to:?}");
            if let Some(step) = oracle.next_step(from, to) {
                let next = grid.step(from, step).expect("a move of the grid");
                let cost = if next.x != from.x && next.y != from.y { 2f64.sqrt() } else { 1.0 };
                assert!((at(next) + cost - d).abs() < 1e-6, "{from:?} → {to:?}: {step:?} is not optimal");
            } else {
                assert!(from == to || !d.is_finite(), "{from:?} → {to:?}: no step");
            }
            checked += 1;
        }
    }
    checked
}

fn distances(grid: &Grid, connectivity: Connectivity, to: Cell) -> Vec<f64> {
    let w = grid.width() as usize;
    let mut dist = vec![f64::INFINITY; w * grid.height() as usize];
    dist[to.y as usize * w + to.x as usize] = 0.0;
    // Dial-free label correcting: fine for a check, every cell settles within a few passes.
    let mut queue = VecDeque::from([to]);
    while let Some(c) = queue.pop_front() {
        let d = dist[c.y as usize * w + c.x as usize];
        for &dir in &signposts::grid::Direction::ALL {
            let Some(next) = grid.step(c, dir) else { continue };
            let diagonal = next.x != c.x && next.y != c.y;
            if diagonal && connectivity == Connectivity::Four {
                continue;
            }
            let through = d + if diagonal { 2f64.sqrt() } else { 1.0 };
            let slot = &mut dist[next.y as usize * w + next.x as usize];
            if through < *slot - 1e-9 {
                *slot = through;
                queue.push_back(next);
            }
        }
    }
    dist
}

/// One map: rebuilds timed, then random open cells each blocked and opened again while one
/// other cell stays blocked (so that opening a cell repairs rather than restoring the table
/// as built), answers checked against searches of the edited grid.
fn compressed_toggles(file: &str, connectivity: Connectivity, toggles: usize, seed: u64) {
    let path = signposts_bench::navmesh::maps_dir().join(file);
    let grid = parse_map(&std::fs::read(&path).expect("readable")).expect("a valid map");
    let moves = if connectivity == Connectivity::Four { "4-connected" } else { "octile" };
    let mut rebuilds = Vec::new();
    let mut oracle = None;
    for _ in 0..REBUILDS {
        let start = Instant::now();
        oracle = Some(GridOracle::build_compressed(&grid, connectivity).expect("fits"));
        rebuilds.push(secs(start));
    }
    let mut oracle = oracle.expect("built");
    let open: Vec<Cell> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect();
    let table_mb = oracle.compressed_table().expect("compressed").memory_bytes() as f64 / 1e6;
    let before_ns = query_ns(&oracle, &open, seed);
    let mut rng = SplitMix64::new(seed);
    let held = open[rng.below(open.len() as u64) as usize];
    let start = Instant::now();
    oracle.set_blocked(held, true).expect("an edit");
    let held_s = secs(start);
    let (mut blocks, mut opens, mut columns) = (Vec::new(), Vec::new(), Vec::new());
    let (mut checked, mut edited_ns, mut peak_mb, mut rebuilt) = (0, Vec::new(), 0f64, 0);
    for k in 0..toggles {
        let cell = loop {
            let c = open[rng.below(open.len() as u64) as usize];
            if c != held {
                break c;
            }
        };
        let start = Instant::now();
        let update = oracle.set_blocked(cell, true).expect("an edit");
        blocks.push(secs(start));
        columns.push(update.columns);
        rebuilt += usize::from(update.rebuilt);
        if std::env::var_os("SIGNPOSTS_VERBOSE").is_some() {
            eprintln!(
                "block {cell:?}: {:.1} ms, {} columns, {} rows",
                blocks[blocks.len() - 1] * 1e3,
                update.columns,
                update.rows
            );
        }
        peak_mb = peak_mb.max(oracle.compressed_table().expect("compressed").memory_bytes() as f64 / 1e6);
        if k % 10 == 0 {
            checked += check_target(&oracle, open[rng.below(open.len() as u64) as usize]);
            checked += check_target(&oracle, cell.step(signposts::grid::Direction::East).unwrap_or(cell));
            edited_ns.push(query_ns(&oracle, &open, seed + k as u64));
        }
        let start = Instant::now();
        let update = oracle.set_blocked(cell, false).expect("an edit");
        opens.push(secs(start));
        columns.push(update.columns);
        rebuilt += usize::from(update.rebuilt);
        if std::env::var_os("SIGNPOSTS_VERBOSE").is_some() {
            eprintln!("open {cell:?}: {:.1} ms, {} columns", opens[opens.len() - 1] * 1e3, update.columns);
        }
    }
    oracle.set_blocked(held, false).expect("an edit");
    assert!(!oracle.compressed_table().expect("compressed").is_edited());
    let after_ns = query_ns(&oracle, &open, seed);
    let mean_build = rebuilds.iter().sum::<f64>() / rebuilds.len() as f64;
    let all: Vec<f64> = blocks.iter().chain(&opens).copied().collect();
    let (mean, median, worst) = stats(&all);
    let (block_mean, _, block_worst) = stats(&blocks);
    let (open_mean, _, open_worst) = stats(&opens);
    let (col_mean, col_median, col_worst) = stats(&columns.iter().map(|&c| c as f64).collect::<Vec<_>>());
    println!(
        "| {file}, {moves} ({} open cells, table {table_mb:.1} MB; {toggles} random cells blocked then opened, one other held blocked) | {mean_build:.2} s ({REBUILDS} builds: {}) | {:.0} ms | {:.0} ms | {:.0} ms | **{:.0}×** | **{:.0}×** | blocks {:.0} / {:.0} ms, opens {:.0} / {:.0} ms (mean / worst) | {col_mean:.0} / {col_median:.0} / {col_worst:.0} | {:.0} → {:.0} ns (edited: {:.0} ns) → {:.0} ns | peak {peak_mb:.1} MB; first block {:.0} ms; {rebuilt} rebuilt; {checked} answers checked |",
        open.len(),
        rebuilds.iter().map(|s| format!("{s:.1} s")).collect::<Vec<_>>().join(", "),
        median * 1e3,
        mean * 1e3,
        worst * 1e3,
        mean_build / mean,
        mean_build / worst,
        block_mean * 1e3,
        block_worst * 1e3,
        open_mean * 1e3,
        open_worst * 1e3,
        before_ns,
        edited_ns.iter().sum::<f64>() / edited_ns.len() as f64,
        edited_ns.iter().sum::<f64>() / edited_ns.len() as f64,
        after_ns,
        held_s * 1e3,
    );
}

/// The compressed section of the bench: [`MAPS`], or the maps named by `SIGNPOSTS_COMPRESSED_EDITS`
/// (`file:4|8:toggles,...`) for shorter runs.
pub fn run() {
    println!();
    println!(
        "| compressed map | full rebuild (mean) | toggle, median | mean | worst | rebuild ÷ mean | rebuild ÷ worst | blocks, opens | columns searched (mean / median / worst) | query before → edited → restored | |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let chosen: Vec<(String, Connectivity, usize)> = match std::env::var("SIGNPOSTS_COMPRESSED_EDITS") {
        Ok(list) => list
            .split(',')
            .map(|item| {
                let parts: Vec<&str> = item.split(':').collect();
                let connectivity = if parts[1] == "8" { Connectivity::Eight } else { Connectivity::Four };
                (parts[0].to_string(), connectivity, parts[2].parse().expect("a count"))
            })
            .collect(),
        Err(_) => MAPS.iter().map(|&(f, c, t)| (f.to_string(), c, t)).collect(),
    };
    for (i, (file, connectivity, toggles)) in chosen.iter().enumerate() {
        compressed_toggles(file, *connectivity, *toggles, 101 + i as u64);
    }
}
