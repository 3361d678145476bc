//! Builds compressed oracles of Moving AI maps (4-connected, or octile with `OCTILE=1` in the
//! environment) and reports size, build time and query time.
//!
//! Run: `cargo run --release -p signposts-bench --bin profile_compressed -- maps/arena.map`
//!
//! With `CACHE=DIR`, each map's table is saved there after its build and loaded instead of
//! built on later runs; queries are then timed over several rounds (random pairs, and the
//! steps of paths between random pairs), for comparing query code on the same table.

use std::hint::black_box;
use std::time::Instant;

use signposts::CompressedGraph;
use signposts::grid::parse_map;
use signposts::grid::{Connectivity, GridOracle};

fn main() {
    let cache = std::env::var_os("CACHE").map(std::path::PathBuf::from);
    for path in std::env::args().skip(1) {
        let octile = std::env::var_os("OCTILE").is_some();
        let connectivity = if octile { Connectivity::Eight } else { Connectivity::Four };
        let cached = cache.as_ref().map(|dir| {
            let name = std::path::Path::new(&path).file_name().expect("a file").to_string_lossy();
            dir.join(format!("{name}.{}.cpd", if octile { "octile" } else { "four" }))
        });
        let (compressed, build) = if let Some(file) = cached.as_ref().filter(|file| file.exists()) {
            let bytes = std::fs::read(file).expect("cached table");
            (CompressedGraph::load(bytes.as_slice()).expect("a valid table"), None)
        } else {
            let grid = parse_map(&std::fs::read(&path).expect("map")).expect("valid map");
            let start = Instant::now();
            let oracle = GridOracle::build_compressed(&grid, connectivity).expect("fits");
            let build = start.elapsed().as_secs_f64();
            let compressed = oracle.compressed_table().expect("compressed").clone();
            if let Some(file) = &cached {
                let mut bytes = Vec::new();
                compressed.save(&mut bytes).expect("saved");
                std::fs::write(file, bytes).expect("cache written");
            }
            (compressed, Some(build))
        };
        let n = compressed.nodes_len();
        let pairs: Vec<(u32, u32)> = (0..1_000_000u64)
            .map(|i| {
                let a = (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11) as usize % n;
                let b = (i.wrapping_mul(0xD1B5_4A32_D192_ED03) >> 11) as usize % n;
                (a as u32, b as u32)
            })
            .collect();
        let rounds = if build.is_none() { 5 } else { 1 };
        let (mut query_ns, mut each_ns, mut step_ns) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        let mut steps = Vec::new();
        for _ in 0..rounds {
            let start = Instant::now();
            let mut sum = 0u64;
            for &(a, b) in &pairs {
                sum += u64::from(compressed.neighbor_to(a, b).unwrap_or(0));
            }
            black_box(sum);
            query_ns = query_ns.min(start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64);
            // The same pairs as the steps of 1,000 entities at a time.
            let start = Instant::now();
            let mut sum = 0u64;
            for group in pairs.chunks(1000) {
                compressed.neighbor_to_each(group, &mut steps);
                sum += steps.iter().map(|s| u64::from(s.unwrap_or(0))).sum::<u64>();
            }
            black_box(sum);
            each_ns = each_ns.min(start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64);
            let start = Instant::now();
            let steps: usize = pairs[..2000].iter().map(|&(a, b)| compressed.path_to(a, b).count()).sum();
            step_ns = step_ns.min(start.elapsed().as_secs_f64() * 1e9 / steps.max(1) as f64);
        }
        let build = build.map_or_else(|| "loaded".to_owned(), |s| format!("build {s:.2} s"));
        println!(
            "{path}: {n} nodes, {} runs, {:.1} B/node, {build}, neighbor_to {query_ns:.1} ns, neighbor_to_each {each_ns:.1} ns, path step {step_ns:.1} ns (best of {rounds})",
            compressed.runs_len(),
            compressed.memory_bytes() as f64 / n as f64,
        );
    }
}
