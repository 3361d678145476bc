//! The compressed oracle against the dense one and a plain BFS, on every graph family small
//! enough for both.

mod common;

use common::{any_case, bfs_all};
use proptest::prelude::*;
use signposts::{Error, GraphBuilder, NodeId};

/// Every pair: the compressed answers are optimal moves of the dense table, the distances
/// are the BFS distances, and a move is returned exactly when a path exists.
fn same_answers(builder: &GraphBuilder) {
    let compressed = builder.build_compressed().expect("unit, undirected, degree <= 8");
    let dense = builder.build();
    let distances = bfs_all(builder);
    let n = builder.nodes_len() as NodeId;
    for u in 0..n {
        for t in 0..n {
            let all: Vec<NodeId> = dense.neighbors_to(u, t).collect();
            let kept: Vec<NodeId> = compressed.neighbors_to(u, t).collect();
            assert!(kept.iter().all(|v| all.contains(v)), "{u} -> {t}: {kept:?} not within {all:?}");
            assert_eq!(kept.is_empty(), all.is_empty(), "{u} -> {t}");
            assert_eq!(compressed.next_hop(u, t), kept.first().copied(), "{u} -> {t}");
            let d = distances[u as usize][t as usize];
            let expected = (d != u32::MAX).then_some(u64::from(d));
            assert_eq!(compressed.distance(u, t), expected, "{u} -> {t}");
            assert_eq!(compressed.path_exists(u, t), expected.is_some());
            let path: Vec<NodeId> = compressed.path_to(u, t).collect();
            if let Some(d) = expected {
                assert_eq!(path.len() as u64, d + 1);
                assert!(path.windows(2).all(|w| builder.contains_edge(w[0], w[1])));
            } else {
                assert!(path.is_empty());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn compressed_answers_like_the_dense_table(case in any_case()) {
        let builder = &case.builder;
        let fits = !builder.is_directed()
            && !builder.is_weighted()
            && (0..builder.nodes_len() as NodeId).all(|v| builder.neighbors(v).len() <= 8);
        prop_assume!(fits);
        same_answers(builder);
    }
}

#[test]
fn grids_compress_below_the_dense_size() {
    let builder = signposts::generate::walled_grid(32, 32, 0.2, 5, signposts::generate::Connectivity::Four);
    same_answers(&builder);
    let compressed = builder.build_compressed().unwrap();
    let dense = builder.build();
    assert!(
        compressed.memory_bytes() * 4 < dense.memory_bytes(),
        "{} vs {}",
        compressed.memory_bytes(),
        dense.memory_bytes()
    );
}

#[test]
fn unsupported_graphs_are_refused() {
    let mut weighted = GraphBuilder::new(3);
    weighted.connect_weighted(0, 1, 2);
    assert!(matches!(weighted.build_compressed(), Err(Error::Unsupported { .. })));
    let mut star = GraphBuilder::new(10);
    for leaf in 1..10 {
        star.connect(0, leaf);
    }
    assert!(matches!(star.build_compressed(), Err(Error::Unsupported { .. })));
}

#[test]
#[should_panic(expected = "out of range")]
fn out_of_range_ids_panic_with_the_reason() {
    let compressed =
        signposts::generate::grid(3, 3, signposts::generate::Connectivity::Four).build_compressed().unwrap();
    let _ = compressed.next_hop(0, 9);
}
