//! Times `neighbor_to` on pre-generated random pairs, for profiling the query path.
//!
//! Run: `cargo run --release -p signposts-bench --bin profile_query -- 32`

use std::hint::black_box;
use std::time::Instant;

use signposts::generate::{Connectivity, SplitMix64, grid};

fn main() {
    let side: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(32);
    let graph = grid(side, side, Connectivity::Four).build();
    let n = graph.nodes_len() as u64;
    let mut rng = SplitMix64::new(1);
    let pairs: Vec<(u32, u32)> = (0..4_000_000).map(|_| (rng.below(n) as u32, rng.below(n) as u32)).collect();
    for _ in 0..5 {
        let start = Instant::now();
        let mut sum = 0u64;
        for &(u, t) in &pairs {
            sum += u64::from(graph.neighbor_to(u, t).unwrap_or(0));
        }
        black_box(sum);
        println!("{:.2} ns/query", start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64);
    }
    let mut out = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        graph.neighbor_to_each(&pairs, &mut out);
        black_box(&out);
        println!("{:.2} ns/query batched", start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64);
    }
}
