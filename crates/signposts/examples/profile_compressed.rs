//! Builds compressed oracles of Moving AI maps (4-connected, or octile with `OCTILE=1` in the
//! environment) and reports size, build time and query time.
//!
//! Run: `cargo run --release -p signposts --example profile_compressed -- ../shared/maps/arena.map`

use std::time::Instant;

use signposts::grid::parse_map;
use signposts::grid::{Connectivity, GridOracle};

fn main() {
    for path in std::env::args().skip(1) {
        let grid = parse_map(&std::fs::read(&path).expect("map")).expect("valid map");
        let connectivity =
            if std::env::var_os("OCTILE").is_some() { Connectivity::Eight } else { Connectivity::Four };
        let builder = GridOracle::graph_builder(&grid, connectivity);
        let n = builder.nodes_len();
        let start = Instant::now();
        let oracle = GridOracle::build_compressed(&grid, connectivity, |_| {}).expect("fits");
        let compressed = oracle.compressed_table().expect("compressed");
        let build = start.elapsed().as_secs_f64();
        let pairs: Vec<(u32, u32)> = (0..100_000u64)
            .map(|i| {
                let a = (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11) as usize % n;
                let b = (i.wrapping_mul(0xD1B5_4A32_D192_ED03) >> 11) as usize % n;
                (a as u32, b as u32)
            })
            .collect();
        let start = Instant::now();
        let mut sum = 0u64;
        for &(a, b) in &pairs {
            sum += u64::from(compressed.neighbor_to(a, b).unwrap_or(0));
        }
        let query_ns = start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64;
        println!(
            "{path}: {n} nodes, {} runs, {:.1} B/node, build {build:.2} s, neighbor_to {query_ns:.1} ns [{sum}]",
            compressed.runs_len(),
            compressed.memory_bytes() as f64 / n as f64,
        );
    }
}
