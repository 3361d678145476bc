//! Times single-edge updates on a walled grid, for profiling the repair.
//!
//! Run: `cargo run --release -p signposts-bench --bin profile_update [bench | eight | NODE...]`
//!
//! `eight` blocks and opens cells of an open 8-connected 100×100 grid instead.

use std::time::Instant;

use signposts::generate::{Connectivity, walled_grid};

/// Blocks and opens ten cells of an open 8-connected 100×100 grid, three rounds, and prints
/// the median time of each.
fn eight() {
    use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    let mut oracle = GridOracle::build(&Grid::new(100, 100), Connectivity::Eight).expect("fits");
    let cells: Vec<Cell> = (0..10).map(|i| Cell::new(13 + 7 * i, 41 + 5 * i)).collect();
    let mut times = vec![[Vec::new(), Vec::new()]; cells.len()];
    for _ in 0..3 {
        for (i, &cell) in cells.iter().enumerate() {
            for blocked in [true, false] {
                let start = Instant::now();
                oracle.set_blocked(cell, blocked).expect("in the grid");
                times[i][usize::from(!blocked)].push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    for (cell, [block, open]) in cells.iter().zip(&mut times) {
        block.sort_by(f64::total_cmp);
        open.sort_by(f64::total_cmp);
        println!("{cell}: block {:.2} ms, open {:.2} ms (medians)", block[1], open[1]);
    }
}

fn main() {
    if std::env::args().any(|a| a == "eight") {
        eight();
        return;
    }
    let builder = walled_grid(100, 100, 0.2, 7, Connectivity::Four);
    let mut graph = builder.build();
    // Optional node ids on the command line pick the edited edges (their first neighbour).
    // `bench` picks the 20 random edges of the `updates` benchmark.
    let picked: Vec<u32> = if std::env::args().any(|a| a == "bench") {
        let mut rng = signposts::generate::SplitMix64::new(3);
        (0..20)
            .map(|_| {
                loop {
                    let a = rng.below(10_000) as u32;
                    if !builder.neighbors(a).is_empty() {
                        break a;
                    }
                }
            })
            .collect()
    } else {
        std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect()
    };
    let nodes = if picked.is_empty() { vec![5050, 2020, 7070, 3131, 4545] } else { picked };
    // Each edge toggled off and on in every round; the median of the rounds is printed, the
    // machine being shared and noisy.
    let rounds = if nodes.len() == 1 { 300 } else { 7 };
    let mut times = vec![[Vec::new(), Vec::new()]; nodes.len()];
    let mut updates = vec![[None, None]; nodes.len()];
    for _ in 0..rounds {
        for (i, &a) in nodes.iter().enumerate() {
            let Some(&b) = builder.neighbors(a).first() else { continue };
            for on in [false, true] {
                let start = Instant::now();
                let update = if on { graph.connect(a, b) } else { graph.disconnect(a, b) };
                times[i][usize::from(on)].push(start.elapsed().as_secs_f64() * 1e3);
                updates[i][usize::from(on)] = Some(update);
            }
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    let mut all = Vec::new();
    for (i, &a) in nodes.iter().enumerate() {
        let Some(&b) = builder.neighbors(a).first() else { continue };
        for on in [false, true] {
            let m = median(&mut times[i][usize::from(on)]);
            all.push(m);
            let update = updates[i][usize::from(on)].expect("ran");
            println!("{a}-{b} {}: {m:.2} ms (median) {update:?}", if on { "on" } else { "off" });
        }
    }
    println!("median of the medians {:.2} ms", median(&mut all));
}
