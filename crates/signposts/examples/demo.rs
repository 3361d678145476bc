//! The main job: build oracles for a seeded 80×80 perfect maze and a 100×100 grid, then answer
//! queries, and print what it cost.
//!
//! Run: `cargo run --release -p signposts --example demo`

use std::time::Instant;

use signposts::generate::{Connectivity, grid, maze};
use signposts::{Graph, GraphBuilder, NodeId};

fn main() {
    println!("signposts demo: exact next-hop oracles\n");
    let cases: [(&str, GraphBuilder, usize); 2] = [
        ("80x80 perfect maze (seed 42)", maze(80, 80, 42), 80),
        ("100x100 open 4-connected grid", grid(100, 100, Connectivity::Four), 100),
    ];
    for (name, builder, width) in cases {
        println!("== {name}: {} nodes, {} edges", builder.nodes_len(), builder.edges_len());
        println!("   table needs {:.1} MiB", builder.memory_needed() as f64 / f64::from(1u32 << 20));
        let start = Instant::now();
        let graph = builder.build();
        println!("   built in {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
        let cell = |x: usize, y: usize| (y * width + x) as NodeId;
        let (from, to) = (cell(0, 0), cell(width - 1, width - 1));
        show(&graph, width, from, to);
        show(&graph, width, cell(width / 2, 3), cell(3, width / 2));
        let start = Instant::now();
        let mut checksum = 0u64;
        let n = graph.nodes_len() as NodeId;
        let mut rng = signposts::generate::SplitMix64::new(1);
        let queries = 1_000_000;
        for _ in 0..queries {
            let u = rng.below(u64::from(n)) as NodeId;
            let t = rng.below(u64::from(n)) as NodeId;
            checksum += u64::from(graph.neighbor_to(u, t).unwrap_or(0));
        }
        let ns = start.elapsed().as_secs_f64() * 1e9 / f64::from(queries);
        println!("   {queries} random neighbor_to queries: {ns:.1} ns each (checksum {checksum})\n");
    }
}

fn show(graph: &Graph, width: usize, from: NodeId, to: NodeId) {
    let xy = |v: NodeId| (v as usize % width, v as usize / width);
    let hops: Vec<_> = graph.neighbors_to(from, to).map(xy).collect();
    println!(
        "   from {:?} to {:?}: distance {:?}, optimal first steps {hops:?}, path of {} cells",
        xy(from),
        xy(to),
        graph.distance(from, to),
        graph.path_to(from, to).count()
    );
}
