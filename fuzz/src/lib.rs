//! Checks shared by the fuzz targets: run every query of a table on every pair of nodes.

use signposts::grid::{Cell, GridOracle};
use signposts::NextHop;

/// Tables with more nodes than this get a sample of queries instead of every pair.
pub const ALL_PAIRS_MAX: usize = 64;

/// Runs every [`NextHop`] query on every pair (all pairs when `nodes_len() <= 64`, else the
/// pairs among the first 8 and last 8 ids), plus out-of-range ids through the `try_` twins.
/// Panics (a finding) when a path repeats a node, an id is out of range, or — with `strict`,
/// for tables built here rather than loaded from edited bytes — when the answers contradict
/// each other. A loaded table is only promised not to panic or loop, not to be exact.
pub fn exercise<T: NextHop>(table: &T, strict: bool) {
    let n = table.nodes_len();
    let ids: Vec<u32> = if n <= ALL_PAIRS_MAX {
        (0..n as u32).collect()
    } else {
        (0..8).chain(n as u32 - 8..n as u32).collect()
    };
    let mut queries = Vec::with_capacity(ids.len() * ids.len());
    for &from in &ids {
        for &to in &ids {
            queries.push((from, to));
            let step = table.neighbor_to(from, to);
            let exists = table.path_exists(from, to);
            let cost = table.cost(from, to);
            if strict {
                assert_eq!(exists, cost.is_some(), "path_exists vs cost on {from} -> {to}");
                assert_eq!(step.is_some(), exists && from != to, "neighbor_to vs path_exists on {from} -> {to}");
            }
            let steps: Vec<u32> = table.neighbors_to(from, to).take(n + 1).collect();
            assert!(steps.len() <= n, "neighbors_to lists more than {n} moves");
            if let Some(s) = step {
                assert!((s as usize) < n, "neighbor_to named {s} of {n} nodes");
                if strict {
                    assert!(!steps.is_empty(), "neighbor_to gave {s} but neighbors_to is empty");
                }
            }
            // A path visits each node at most once: more than n nodes is a loop.
            let path = table.path_to(from, to).take(n + 1).count();
            assert!(path <= n, "path {from} -> {to} has more than {n} nodes");
        }
    }
    let mut out = Vec::new();
    table.neighbor_to_each(&queries, &mut out);
    assert_eq!(out.len(), queries.len());
    // Out-of-range ids are errors, never panics.
    let bad = n as u32;
    assert!(table.try_neighbor_to(bad, 0).is_err());
    assert!(table.try_cost(0, bad).is_err());
    assert!(table.try_path_exists(bad, bad).is_err());
    assert!(table.try_neighbors_to(0, bad).is_err());
    assert!(table.try_path_to(bad, 0).is_err());
    assert!(table.try_neighbor_to_each(&[(0, bad)], &mut out).is_err());
}

/// Runs the cell queries of a grid oracle on every pair of cells of a grid of at most 64
/// cells (plus one cell outside), and the table queries through [`exercise`] (`strict` as
/// there).
pub fn exercise_grid(oracle: &GridOracle, strict: bool) {
    exercise(&oracle.table(), strict);
    let grid = oracle.grid();
    let (w, h) = (grid.width(), grid.height());
    if u64::from(w) * u64::from(h) > ALL_PAIRS_MAX as u64 {
        return;
    }
    let mut cells: Vec<Cell> = (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).collect();
    cells.push(Cell::new(w, h));
    let n = oracle.nodes_len();
    for &from in &cells {
        if !grid.contains(from) {
            assert!(oracle.node(from).is_none(), "a node for {from} outside the grid");
        }
        for &to in &cells {
            let _ = oracle.try_next_step(from, to);
            if grid.contains(from) && grid.contains(to) {
                let step = oracle.next_step(from, to);
                let exists = oracle.path_exists(from, to);
                let cost = oracle.cost(from, to);
                let _ = oracle.distance(from, to);
                if strict {
                    assert_eq!(exists, cost.is_some(), "path_exists vs cost on {from} -> {to}");
                    if step.is_some() {
                        assert!(exists, "a step toward an unreachable cell {from} -> {to}");
                    }
                }
                let _ = oracle.next_steps(from, to).take(9).count();
                let path = oracle.path(from, to).take(n + 1).count();
                assert!(path <= n, "path {from} -> {to} has more than {n} cells");
            }
        }
    }
}

/// The offsets `exact_scaled` moves a world by: from the origin to where only coarse scales
/// keep its coordinates exact.
pub const OFFSETS: [f64; 12] =
    [0.0, 1_048_576.0, 5e6, -5e6, 5e7, 1e8, 1e12, -1e12, 1e15, 4_503_599_627_370_496.0, 1e20, 1e24];

/// Whether `a + b` is exact in `f64` (Knuth's two-sum: no rounding error).
#[must_use]
pub fn exact_sum(a: f64, b: f64) -> bool {
    let s = a + b;
    let bb = s - a;
    let error = (a - (s - bb)) + (b - bb);
    error.to_bits() << 1 == 0 // +0 or -0
}

/// Polygon text (`boundary`, `obstacle`, `radius` lines) with every point `p` moved to
/// `offset + p · scale` and the radius scaled; `None` when a coordinate would round (or a
/// number does not parse: the text is then refused at home too).
#[must_use]
pub fn moved_text(text: &str, offset: f64, scale: f64) -> Option<String> {
    let mut out = String::new();
    for line in text.lines() {
        let content = line.split('#').next().unwrap_or("");
        let mut tokens = content.split_whitespace();
        let Some(keyword) = tokens.next() else { continue };
        out.push_str(keyword);
        match keyword {
            "boundary" | "obstacle" => {
                for token in tokens {
                    let (x, y) = token.split_once(',')?;
                    let (x, y): (f64, f64) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
                    let (x, y) = (x * scale, y * scale);
                    if !(exact_sum(offset, x) && exact_sum(offset, y)) {
                        return None;
                    }
                    out.push_str(&format!(" {},{}", offset + x, offset + y));
                }
            }
            "radius" => {
                for token in tokens {
                    let r: f64 = token.parse().ok()?;
                    out.push_str(&format!(" {}", r * scale));
                }
            }
            _ => {
                for token in tokens {
                    out.push(' ');
                    out.push_str(token);
                }
            }
        }
        out.push('\n');
    }
    Some(out)
}
