//! Times single-edge updates on a walled grid, for profiling the repair.
//!
//! Run: `cargo run --release -p signposts --example profile_update`

use std::time::Instant;

use signposts::generate::{Connectivity, walled_grid};

fn main() {
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
    let mut total = 0.0;
    let mut count = 0;
    for round in 0..if nodes.len() == 1 { 300 } else { 5 } {
        for &a in &nodes {
            let Some(&b) = builder.neighbors(a).first() else { continue };
            for on in [false, true] {
                let start = Instant::now();
                let update = if on { graph.connect(a, b) } else { graph.disconnect(a, b) };
                let ms = start.elapsed().as_secs_f64() * 1e3;
                total += ms;
                count += 1;
                if round == 0 {
                    println!("{a}-{b} {}: {ms:.2} ms {update:?}", if on { "on" } else { "off" });
                }
            }
        }
    }
    println!("mean {:.2} ms per update", total / f64::from(count));
}
