//! Builds one generated graph repeatedly, for profiling the build engine.
//!
//! Run: `cargo run --release -p signposts-bench --bin profile_build -- grid 100 5`

use std::time::Instant;

use signposts::generate::{Connectivity, grid, maze};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args.get(1).map_or("grid", String::as_str);
    let side: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3);
    let builder = match kind {
        "maze" => maze(side, side, 42),
        "grid8" => grid(side, side, Connectivity::EightUnit),
        "walls" => signposts::generate::walled_grid(side, side, 0.2, 7, Connectivity::Four),
        _ => grid(side, side, Connectivity::Four),
    };
    for _ in 0..reps {
        let start = Instant::now();
        let graph = builder.build();
        println!(
            "{kind} {side}: {:.1} ms, {} bytes",
            start.elapsed().as_secs_f64() * 1e3,
            graph.memory_bytes()
        );
    }
}
