//! Shared pieces of the signposts benchmarks: graph cases, process memory readings, answer
//! checks. The benchmark binaries put signposts beside its peers in one run and print ratios.

use signposts::generate::{Connectivity, grid, maze, walled_grid};
use signposts::{GraphBuilder, NodeId};

/// Up to `count` cells of `grid`, open ones (`open_cells`) or walls, that lie between two
/// open cells in a line (corridor cells, or walls a door could open), shuffled by `seed`.
#[must_use]
pub fn cells_between_open(
    grid: &signposts::grid::Grid,
    open_cells: bool,
    count: usize,
    seed: u64,
) -> Vec<signposts::grid::Cell> {
    use signposts::grid::Cell;
    let open = |x: u32, y: u32| grid.contains(Cell::new(x, y)) && grid.is_passable(Cell::new(x, y));
    let mut found: Vec<Cell> = (1..grid.height().saturating_sub(1))
        .flat_map(|y| (1..grid.width().saturating_sub(1)).map(move |x| Cell::new(x, y)))
        .filter(|c| {
            grid.is_passable(*c) == open_cells
                && ((open(c.x - 1, c.y) && open(c.x + 1, c.y)) || (open(c.x, c.y - 1) && open(c.x, c.y + 1)))
        })
        .collect();
    let mut rng = signposts::generate::SplitMix64::new(seed);
    for i in (1..found.len()).rev() {
        found.swap(i, rng.below(i as u64 + 1) as usize);
    }
    found.truncate(count);
    found
}

/// A named benchmark graph.
pub struct Case {
    /// Short name used on the command line.
    pub name: &'static str,
    /// What it is, for the table.
    pub title: &'static str,
}

/// The graphs of the core comparison.
pub const CASES: [Case; 6] = [
    Case { name: "grid32", title: "32×32 4-grid" },
    Case { name: "grid100", title: "100×100 4-grid" },
    Case { name: "grid100x200", title: "100×200 4-grid" },
    Case { name: "maze80", title: "80×80 perfect maze" },
    Case { name: "walls100", title: "100×100 4-grid, 20% walls" },
    Case { name: "grid100-8", title: "100×100 8-grid" },
];

/// The shared maps of 512×512 cells, in `maps`.
pub const MAPS_512: [&str; 9] = [
    "64room_000",
    "8room_000",
    "AR0011SR",
    "AR0602SR",
    "icecrown",
    "maze512-1-0",
    "maze512-4-0",
    "random512-10-0",
    "random512-40-0",
];

/// Builds the case's graph as a signposts builder (node = y · width + x).
///
/// # Panics
/// On an unknown name.
#[must_use]
pub fn builder(name: &str) -> GraphBuilder {
    match name {
        "grid32" => grid(32, 32, Connectivity::Four),
        "grid100" => grid(100, 100, Connectivity::Four),
        "grid100x200" => grid(100, 200, Connectivity::Four),
        "grid200" => grid(200, 200, Connectivity::Four),
        "grid320" => grid(320, 320, Connectivity::Four),
        "maze80" => maze(80, 80, 42),
        "walls100" => walled_grid(100, 100, 0.2, 7, Connectivity::Four),
        "grid100-8" => grid(100, 100, Connectivity::EightUnit),
        other => panic!("unknown case {other}"),
    }
}

/// Edges of a builder, each once (`a < b`).
///
/// # Panics
/// If the builder has more than `u32::MAX` nodes (it cannot).
#[must_use]
pub fn edges(builder: &GraphBuilder) -> Vec<(NodeId, NodeId)> {
    let n = NodeId::try_from(builder.nodes_len()).expect("fits");
    (0..n).flat_map(|a| builder.neighbors(a).iter().filter(move |&&b| a < b).map(move |&b| (a, b))).collect()
}

/// BFS distances to `target`; `u32::MAX` = unreachable.
///
/// ```
/// let b = signposts_bench::builder("grid32");
/// let dist = signposts_bench::bfs(&b, 0);
/// assert_eq!(dist[32 * 32 - 1], 62);
/// ```
#[must_use]
pub fn bfs(builder: &GraphBuilder, target: NodeId) -> Vec<u32> {
    let mut dist = vec![u32::MAX; builder.nodes_len()];
    let mut queue = std::collections::VecDeque::from([target]);
    dist[target as usize] = 0;
    while let Some(u) = queue.pop_front() {
        for &v in builder.neighbors(u) {
            if dist[v as usize] == u32::MAX {
                dist[v as usize] = dist[u as usize] + 1;
                queue.push_back(v);
            }
        }
    }
    dist
}

/// Fixed pseudo-random (from, to) pairs over `nodes` nodes.
///
/// # Panics
/// If `nodes` is 0 or above `u32::MAX`.
///
/// ```
/// let pairs = signposts_bench::pairs(10, 100, 1);
/// assert_eq!(pairs, signposts_bench::pairs(10, 100, 1));
/// assert!(pairs.iter().all(|&(u, t)| u < 10 && t < 10));
/// ```
#[must_use]
pub fn pairs(nodes: usize, count: usize, seed: u64) -> Vec<(NodeId, NodeId)> {
    let mut rng = signposts::generate::SplitMix64::new(seed);
    let n = nodes as u64;
    (0..count)
        .map(|_| {
            let u = NodeId::try_from(rng.below(n)).expect("fits");
            let t = NodeId::try_from(rng.below(n)).expect("fits");
            (u, t)
        })
        .collect()
}

/// A `/proc/self/status` field in bytes (`VmRSS`, `VmHWM`), or 0 where unavailable.
///
/// ```
/// let rss = signposts_bench::proc_status_bytes("VmRSS");
/// assert!(rss > 0 || !std::path::Path::new("/proc/self/status").exists());
/// ```
#[must_use]
pub fn proc_status_bytes(field: &str) -> u64 {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else { return 0 };
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_builds_and_edges_list_each_edge_once() {
        for case in CASES {
            let b = builder(case.name);
            assert_eq!(edges(&b).len(), b.edges_len(), "{}", case.name);
        }
    }
}
pub mod gppc;
pub mod navmesh;
