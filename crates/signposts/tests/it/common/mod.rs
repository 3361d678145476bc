//! Shared test helpers: a plain BFS reference and graph families.

#![allow(dead_code, reason = "each test file uses a subset")]

use std::path::PathBuf;

use proptest::prelude::*;
use signposts::generate::{Connectivity, grid_from_fn};
use signposts::{GraphBuilder, NodeId};

/// All-pairs distances by one plain BFS per target: `dist[t][v]`, `u32::MAX` = unreachable.
pub fn bfs_all(builder: &GraphBuilder) -> Vec<Vec<u32>> {
    (0..builder.nodes_len() as NodeId).map(|t| bfs_from(builder, t)).collect()
}

/// Distances from `t` by a plain BFS, `u32::MAX` = unreachable.
pub fn bfs_from(builder: &GraphBuilder, t: NodeId) -> Vec<u32> {
    let mut dist = vec![u32::MAX; builder.nodes_len()];
    let mut queue = std::collections::VecDeque::new();
    dist[t as usize] = 0;
    queue.push_back(t as usize);
    while let Some(u) = queue.pop_front() {
        for &v in builder.neighbors(u as NodeId) {
            if dist[v as usize] == u32::MAX {
                dist[v as usize] = dist[u] + 1;
                queue.push_back(v as usize);
            }
        }
    }
    dist
}

/// A graph family with a name, for failure messages.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: &'static str,
    pub builder: GraphBuilder,
}

fn from_edges(n: usize, edges: &[(usize, usize)]) -> GraphBuilder {
    let mut b = GraphBuilder::new(n);
    for &(a, c) in edges {
        b.connect((a % n.max(1)) as NodeId, (c % n.max(1)) as NodeId);
    }
    b
}

pub fn grid_case(connectivity: Connectivity) -> impl Strategy<Value = Case> {
    (1usize..14, 1usize..14, any::<u64>(), 0.0f64..0.45).prop_map(move |(w, h, seed, walls)| {
        let mut rng = signposts::generate::SplitMix64::new(seed);
        let wall: Vec<bool> = (0..w * h).map(|_| rng.chance(walls)).collect();
        Case {
            name: if connectivity == Connectivity::Four { "grid4" } else { "grid8" },
            builder: grid_from_fn(w, h, connectivity, |x, y| !wall[y * w + x]),
        }
    })
}

pub fn maze_case() -> impl Strategy<Value = Case> {
    (1usize..14, 1usize..14, any::<u64>())
        .prop_map(|(w, h, seed)| Case { name: "maze", builder: signposts::generate::maze(w, h, seed) })
}

pub fn sparse_case() -> impl Strategy<Value = Case> {
    (1usize..90).prop_flat_map(|n| {
        proptest::collection::vec((0..n, 0..n), 0..n * 2)
            .prop_map(move |edges| Case { name: "sparse", builder: from_edges(n, &edges) })
    })
}

pub fn tree_case() -> impl Strategy<Value = Case> {
    (1usize..80).prop_flat_map(|n| {
        proptest::collection::vec(any::<usize>(), n.saturating_sub(1)).prop_map(move |parents| {
            let edges: Vec<_> = parents.iter().enumerate().map(|(i, &p)| (i + 1, p % (i + 1))).collect();
            Case { name: "tree", builder: from_edges(n, &edges) }
        })
    })
}

pub fn odd_cycles_case() -> impl Strategy<Value = Case> {
    // Chains of triangles and odd cycles glued at random nodes, plus random chords.
    (proptest::collection::vec(1usize..4, 1..12), proptest::collection::vec((0usize..200, 0usize..200), 0..8))
        .prop_map(|(cycles, chords)| {
            let mut edges = Vec::new();
            let mut n = 1;
            for half in cycles {
                let len = 2 * half + 1; // odd
                let anchor = n - 1;
                let mut prev = anchor;
                for _ in 1..len {
                    edges.push((prev, n));
                    prev = n;
                    n += 1;
                }
                edges.push((prev, anchor));
            }
            edges.extend(chords.into_iter().map(|(a, b)| (a % n, b % n)));
            Case { name: "odd-cycles", builder: from_edges(n, &edges) }
        })
}

pub fn complete_case() -> impl Strategy<Value = Case> {
    (1usize..75).prop_map(|n| {
        let edges: Vec<_> = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
        Case { name: "complete", builder: from_edges(n, &edges) }
    })
}

pub fn disconnected_case() -> impl Strategy<Value = Case> {
    // A few random pieces side by side with isolated nodes between them, plus self-loops and
    // duplicate connects.
    proptest::collection::vec((1usize..15, proptest::collection::vec((0usize..15, 0usize..15), 0..25)), 1..5)
        .prop_map(|pieces| {
            let mut edges = Vec::new();
            let mut n = 0;
            for (size, piece) in pieces {
                for (a, b) in piece {
                    edges.push((n + a % size, n + b % size));
                    edges.push((n + a % size, n + b % size));
                    edges.push((n + a % size, n + a % size));
                }
                n += size + 1; // one isolated node after each piece
            }
            Case { name: "disconnected", builder: from_edges(n, &edges) }
        })
}

pub fn any_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        grid_case(Connectivity::Four),
        grid_case(Connectivity::EightUnit),
        maze_case(),
        sparse_case(),
        tree_case(),
        odd_cycles_case(),
        complete_case(),
        disconnected_case(),
    ]
}

/// The Moving AI maps folder: `maps/` at the repository root.
pub fn maps_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    assert!(
        dir.join("arena.map").exists(),
        "the Moving AI maps are missing: expected them in {} (the repository's maps/ \
         folder); see maps/README.md",
        dir.display()
    );
    dir
}
