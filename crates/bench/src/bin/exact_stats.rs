//! Sizes and build times of exact indexes: `cargo run --release -p signposts-bench --bin
//! exact_stats -- MAP.map... [--budget BYTES]`.

use std::time::Instant;

use signposts::grid::parse_map;
use signposts_rooms::{ExactRooms, NavMesh};

fn main() {
    let mut budget = signposts_rooms::DEFAULT_BUDGET;
    let mut maps = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--budget" {
            budget = args.next().and_then(|b| b.parse().ok()).expect("--budget BYTES");
        } else {
            maps.push(a);
        }
    }
    for path in maps {
        let grid = parse_map(&std::fs::read(&path).expect("readable")).expect("a map");
        let start = Instant::now();
        let mesh = NavMesh::from_grid(&grid).expect("walkable");
        let mesh_s = start.elapsed().as_secs_f64();
        let start = Instant::now();
        match ExactRooms::builder(&mesh).memory_budget(budget).build() {
            Ok(exact) => println!(
                "{path}: {} regions, {} corners, {} edges, {:?}, {:.1} MiB, mesh {:.2} s, index {:.2} s",
                mesh.regions_len(),
                exact.corners_len(),
                exact.edges_len(),
                exact.tier(),
                exact.memory_bytes() as f64 / f64::from(1 << 20),
                mesh_s,
                start.elapsed().as_secs_f64()
            ),
            Err(e) => println!("{path}: {e}"),
        }
    }
}
