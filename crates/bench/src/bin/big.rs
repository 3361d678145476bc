//! The large-graph build: a 320×320 4-connected grid (102,400 nodes, a 4.9 GiB table), with
//! progress from the build callback, checked against BFS on sampled targets.
//!
//! `cargo run --release -p signposts-bench --bin big [-- CASE]` (default `grid320`)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use signposts::NodeId;
use signposts_bench::{bfs, builder, pairs, proc_status_bytes};

fn main() {
    let case = std::env::args().nth(1).unwrap_or_else(|| "grid320".to_string());
    let b = builder(&case);
    println!(
        "{case}: {} nodes, {} edges, table needs {:.2} GiB",
        b.nodes_len(),
        b.edges_len(),
        b.memory_needed() as f64 / f64::from(1 << 30)
    );
    let shown = AtomicUsize::new(0);
    let start = Instant::now();
    let graph = signposts::BuildOptions::new()
        .progress(|p| {
            let tenth = p.done * 10 / p.total.max(1);
            if shown.fetch_max(tenth, Ordering::Relaxed) < tenth {
                println!("  {:>3.0}% after {:.1} s", p.fraction() * 100.0, start.elapsed().as_secs_f64());
            }
        })
        .build(&b)
        .expect("the table fits in memory");
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "built in {seconds:.1} s, {:.2} GiB, peak RSS {:.2} GiB",
        graph.memory_bytes() as f64 / f64::from(1 << 30),
        proc_status_bytes("VmHWM") as f64 / f64::from(1 << 30)
    );
    let mut checked = 0;
    for &(_, t) in &pairs(b.nodes_len(), 3, 7) {
        let dist = bfs(&b, t);
        for u in 0..b.nodes_len() as NodeId {
            let d = dist[u as usize];
            let want: Vec<NodeId> = if d == 0 || d == u32::MAX {
                Vec::new()
            } else {
                b.neighbors(u).iter().copied().filter(|&v| dist[v as usize] + 1 == d).collect()
            };
            assert!(graph.neighbors_to(u, t).eq(want.iter().copied()), "{u} -> {t}");
            checked += 1;
        }
    }
    println!("checked {checked} (node, target) pairs against BFS: all exact");
}
