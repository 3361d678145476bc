//! Differential tests: every answer of the dense oracle against a plain BFS.

use crate::common;

use common::{Case, any_case, bfs_all};
use proptest::prelude::*;
use signposts::{Error, Graph, NodeId};

/// Checks every query for every (from, to) pair against BFS distances.
fn check_exact(case: &Case, graph: &Graph) {
    let name = case.name;
    let builder = &case.builder;
    let n = builder.nodes_len();
    assert_eq!(graph.nodes_len(), n);
    assert_eq!(graph.edges_len(), builder.edges_len());
    let dist = bfs_all(builder);
    let queries: Vec<(NodeId, NodeId)> =
        (0..n as NodeId).flat_map(|u| (0..n as NodeId).map(move |t| (u, t))).collect();
    let mut batch = Vec::new();
    graph.neighbor_to_each(&queries, &mut batch);
    let single: Vec<_> = queries.iter().map(|&(u, t)| graph.neighbor_to(u, t)).collect();
    assert_eq!(batch, single, "{name}: neighbor_to_each");
    for (t, dt) in dist.iter().enumerate() {
        for u in 0..n {
            let (un, tn) = (u as NodeId, t as NodeId);
            let d = dt[u];
            let want_hops: Vec<NodeId> = if d == u32::MAX || d == 0 {
                Vec::new()
            } else {
                builder.neighbors(un).iter().copied().filter(|&v| dt[v as usize] == d - 1).collect()
            };
            let hops: Vec<NodeId> = graph.neighbors_to(un, tn).collect();
            assert_eq!(hops, want_hops, "{name}: neighbors_to({u}, {t}), d = {d}");
            assert_eq!(
                graph.neighbor_to(un, tn),
                want_hops.first().copied(),
                "{name}: neighbor_to({u}, {t})"
            );

            let want_away: Vec<NodeId> = if d == u32::MAX {
                Vec::new()
            } else {
                builder.neighbors(un).iter().copied().filter(|&v| dt[v as usize] == d + 1).collect()
            };
            assert_eq!(graph.neighbors_away(un, tn).collect::<Vec<_>>(), want_away, "{name}: away({u}, {t})");

            let reachable = d != u32::MAX;
            assert_eq!(graph.path_exists(un, tn), reachable, "{name}: path_exists({u}, {t})");
            assert_eq!(
                graph.cost(un, tn),
                reachable.then_some(signposts::Cost::integer(u64::from(d))),
                "{name}: cost({u}, {t})"
            );
            assert_eq!(graph.component(un) == graph.component(tn), reachable, "{name}: component({u}, {t})");

            let path: Vec<NodeId> = graph.path_to(un, tn).collect();
            if reachable {
                assert_eq!(path.len() as u32, d + 1, "{name}: path_to({u}, {t}) = {path:?}");
                assert_eq!((path[0], *path.last().unwrap()), (un, tn));
                for step in path.windows(2) {
                    assert!(
                        builder.contains_edge(step[0], step[1]),
                        "{name}: path_to({u}, {t}) uses a non-edge"
                    );
                }
            } else {
                assert!(path.is_empty(), "{name}: path_to({u}, {t}) should be empty, got {path:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn every_answer_matches_bfs(case in any_case()) {
        let graph = case.builder.build();
        check_exact(&case, &graph);
    }

    #[test]
    fn rebuild_after_edits_equals_fresh_build(
        case in any_case(),
        edits in proptest::collection::vec((0u8..3, any::<u32>(), any::<u32>()), 0..30),
        new_len in 0usize..100,
    ) {
        let mut builder = case.builder.build().into_builder();
        prop_assert_eq!(&builder, &case.builder);
        let mut reference = case.builder.clone();
        for (kind, a, b) in edits {
            let n = builder.nodes_len().max(1) as u32;
            let (a, b) = (a % n, b % n);
            if builder.nodes_len() == 0 { break; }
            match kind {
                0 => { builder.connect(a, b); reference.connect(a, b); }
                1 => { builder.disconnect(a, b); reference.disconnect(a, b); }
                _ => { builder.resize(new_len); reference.resize(new_len); }
            }
        }
        let rebuilt = builder.build();
        prop_assert_eq!(&rebuilt, &reference.build());
        check_exact(&Case { name: "edited", builder: reference }, &rebuilt);
    }

    #[test]
    fn fixed_size_graphs_agree_with_graph(case in any_case()) {
        let n = case.builder.nodes_len();
        prop_assume!(n <= 128);
        let mut small = signposts::Graph128::builder(n);
        for u in 0..n as NodeId {
            for &v in case.builder.neighbors(u) {
                small.connect(u as u8, v as u8);
            }
        }
        let small = small.build();
        let graph = case.builder.build();
        prop_assert_eq!(small.edges_len(), graph.edges_len());
        for u in 0..n as u8 {
            prop_assert_eq!(small.component(u), graph.component(u.into()));
            for t in 0..n as u8 {
                let (gu, gt) = (NodeId::from(u), NodeId::from(t));
                let widen = |v: u8| NodeId::from(v);
                prop_assert_eq!(small.neighbor_to(u, t).map(widen), graph.neighbor_to(gu, gt));
                prop_assert_eq!(small.neighbors_to(u, t).map(widen).collect::<Vec<_>>(),
                    graph.neighbors_to(gu, gt).collect::<Vec<_>>());
                prop_assert_eq!(small.neighbors_away(u, t).map(widen).collect::<Vec<_>>(),
                    graph.neighbors_away(gu, gt).collect::<Vec<_>>());
                prop_assert_eq!(small.path_to(u, t).map(widen).collect::<Vec<_>>(),
                    graph.path_to(gu, gt).collect::<Vec<_>>());
                prop_assert_eq!(small.cost(u, t), graph.cost(gu, gt));
                prop_assert_eq!(small.path_exists(u, t), graph.path_exists(gu, gt));
            }
        }
    }
}

#[test]
fn fixed_size_types_of_every_capacity_build_on_the_stack() {
    fn ring<const N: usize>() -> signposts::SmallGraph<N> {
        let mut b = signposts::SmallGraph::<N>::builder(N);
        for i in 0..N {
            b.connect(i as u8, ((i + 1) % N) as u8);
        }
        b.build()
    }
    assert_eq!(ring::<16>().cost(0, 8), Some(signposts::Cost::integer(8)));
    assert_eq!(ring::<32>().cost(0, 16), Some(signposts::Cost::integer(16)));
    assert_eq!(ring::<64>().neighbors_to(0, 32).collect::<Vec<_>>(), [1, 63]);
    assert_eq!(ring::<128>().cost(0, 100), Some(signposts::Cost::integer(28)));
    assert_eq!(ring::<128>().neighbor_to(0, 100), Some(127));
}

// What bit_gossip 0.0.13 answers wrongly; signposts must get each right.

#[test]
fn triangle_steps_straight_to_the_target() {
    let mut b = Graph::builder(3);
    b.connect(0, 1).connect(1, 2).connect(0, 2);
    let g = b.build();
    assert_eq!(g.neighbor_to(0, 2), Some(2));
    assert_eq!(g.path_to(0, 2).collect::<Vec<_>>(), [0, 2]);
    assert_eq!(g.neighbors_to(1, 0).collect::<Vec<_>>(), [0]);
    assert_eq!(g.cost(0, 2), Some(signposts::Cost::integer(1)));
}

#[test]
fn isolated_node_is_unreachable() {
    let mut b = Graph::builder(3);
    b.connect(0, 1);
    let g = b.build();
    assert_eq!(g.neighbor_to(1, 2), None);
    assert!(!g.path_exists(1, 2));
    assert_eq!(g.path_to(1, 2).count(), 0);
    assert_eq!(g.cost(1, 2), None);
}

#[test]
fn out_of_range_target_is_an_error_not_an_answer() {
    let mut b = Graph::builder(4);
    b.connect(0, 1).connect(1, 2).connect(2, 3);
    let g = b.build();
    assert_eq!(g.try_neighbor_to(3, 1000), Err(Error::NodeOutOfRange { node: 1000, nodes: 4 }));
    assert_eq!(g.try_neighbor_to(1000, 3), Err(Error::NodeOutOfRange { node: 1000, nodes: 4 }));
    let panic = std::panic::catch_unwind(|| g.neighbor_to(3, 1000)).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(message.contains("node 1000") && message.contains("4 nodes"), "{message}");
}

#[test]
fn parallel_builds_of_an_8_connected_grid_are_identical() {
    let builder = signposts::generate::grid(20, 20, signposts::grid::Connectivity::EightUnit);
    let first = builder.build();
    for _ in 0..20 {
        assert_eq!(builder.build(), first);
    }
    check_exact(&Case { name: "grid8-20", builder }, &first);
}

#[test]
fn builds_do_not_depend_on_thread_count() {
    let builder =
        signposts::generate::walled_grid(40, 30, 0.2, 3, signposts::generate::Connectivity::EightUnit);
    let one = rayon_pool(1).install(|| builder.build());
    let two = rayon_pool(2).install(|| builder.build());
    let five = rayon_pool(5).install(|| builder.build());
    assert_eq!(one, two);
    assert_eq!(one, five);
}

fn rayon_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

#[test]
fn memory_limit_fails_before_allocating_and_names_the_bytes() {
    let b = signposts::generate::grid(100, 100, signposts::generate::Connectivity::Four);
    let needed = b.memory_needed();
    assert!(needed > 45 << 20 && needed < 55 << 20, "{needed}");
    let over = signposts::BuildOptions::new().memory_limit(needed - 1).build(&b);
    assert_eq!(over.unwrap_err(), Error::OverMemoryLimit { needed, limit: needed - 1 });
    let fits = signposts::BuildOptions::new().memory_limit(needed).build(&b);
    assert_eq!(fits.unwrap().memory_bytes() as u64, needed);
}

#[test]
fn hubs_above_64_neighbours_use_wide_entries() {
    // A star of 150 leaves plus a ring through the leaves: the hub has degree 150.
    let n = 151;
    let mut b = Graph::builder(n);
    for leaf in 1..n as NodeId {
        b.connect(0, leaf);
        b.connect(leaf, if leaf + 1 == n as NodeId { 1 } else { leaf + 1 });
    }
    let g = b.build();
    check_exact(&Case { name: "hub", builder: b }, &g);
    assert_eq!(g.neighbors_to(0, 140).collect::<Vec<_>>(), [140]);
}

#[test]
fn large_graph_spanning_many_batches_matches_bfs_on_samples() {
    let builder =
        signposts::generate::walled_grid(90, 70, 0.25, 11, signposts::generate::Connectivity::EightUnit);
    let graph = builder.build();
    let dist = bfs_all(&builder);
    let n = builder.nodes_len();
    for t in (0..n).step_by(37) {
        for u in 0..n {
            let d = dist[t][u];
            let want: Vec<NodeId> = if d == u32::MAX || d == 0 {
                Vec::new()
            } else {
                builder
                    .neighbors(u as NodeId)
                    .iter()
                    .copied()
                    .filter(|&v| dist[t][v as usize] == d - 1)
                    .collect()
            };
            assert_eq!(graph.neighbors_to(u as NodeId, t as NodeId).collect::<Vec<_>>(), want);
        }
    }
}

#[test]
fn graph_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Graph>();
    assert_send_sync::<signposts::Graph128>();
}
