//! Differential tests for weighted and directed graphs: every answer against Floyd–Warshall.

use proptest::prelude::*;
use signposts::grid::{Connectivity, Grid, GridOracle};
use signposts::{CompressedGraph, Cost, GraphBuilder, NodeId};

const INF: u64 = u64::MAX;

/// `d[u][t]`: cheapest cost from `u` to `t` along arc directions.
fn all_pairs(b: &GraphBuilder) -> Vec<Vec<u64>> {
    let n = b.nodes_len();
    let mut d = vec![vec![INF; n]; n];
    for (u, row) in d.iter_mut().enumerate() {
        row[u] = 0;
        for &v in b.neighbors(u as NodeId) {
            row[v as usize] = row[v as usize].min(u64::from(b.cost(u as NodeId, v).unwrap()));
        }
    }
    for k in 0..n {
        for i in 0..n {
            if d[i][k] == INF {
                continue;
            }
            for j in 0..n {
                if d[k][j] != INF && d[i][k] + d[k][j] < d[i][j] {
                    d[i][j] = d[i][k] + d[k][j];
                }
            }
        }
    }
    d
}

fn check(b: &GraphBuilder) {
    let g = b.build();
    let d = all_pairs(b);
    let n = b.nodes_len();
    assert_eq!(g.edges_len(), b.edges_len());
    for u in 0..n {
        let un = u as NodeId;
        for (t, &dut) in d[u].iter().enumerate() {
            let tn = t as NodeId;
            let arc = |w: NodeId| u64::from(b.cost(un, w).unwrap());
            let want: Vec<NodeId> = if dut == INF || u == t {
                Vec::new()
            } else {
                b.neighbors(un)
                    .iter()
                    .copied()
                    .filter(|&w| d[w as usize][t] != INF && d[w as usize][t] + arc(w) == dut)
                    .collect()
            };
            assert_eq!(g.neighbors_to(un, tn).collect::<Vec<_>>(), want, "neighbors_to({u}, {t}) in {b:?}");
            assert_eq!(g.neighbor_to(un, tn), want.first().copied());
            assert_eq!(g.cost(un, tn), (dut != INF).then_some(Cost::integer(dut)), "cost({u}, {t})");
            assert_eq!(g.path_exists(un, tn), dut != INF, "path_exists({u}, {t})");
            let away: Vec<NodeId> = if dut == INF {
                Vec::new()
            } else {
                b.neighbors(un)
                    .iter()
                    .copied()
                    .filter(|&w| d[w as usize][t] == INF || d[w as usize][t] > dut)
                    .collect()
            };
            assert_eq!(g.neighbors_away(un, tn).collect::<Vec<_>>(), away, "neighbors_away({u}, {t})");
            let path: Vec<NodeId> = g.path_to(un, tn).collect();
            if dut == INF {
                assert!(path.is_empty());
            } else {
                assert_eq!((path[0], *path.last().unwrap()), (un, tn));
                let cost: u64 =
                    path.windows(2).map(|s| u64::from(b.cost(s[0], s[1]).expect("a real arc"))).sum();
                assert_eq!(cost, dut, "path_to({u}, {t}) = {path:?}");
            }
        }
    }
    let rebuilt = g.clone().into_builder();
    assert_eq!(&rebuilt, b);
    assert_eq!(rebuilt.build(), g);
}

/// An undirected random graph with costs `1..=max_cost`.
fn undirected(max_nodes: usize, max_cost: u32) -> impl Strategy<Value = GraphBuilder> {
    (1..max_nodes).prop_flat_map(move |n| {
        proptest::collection::vec((0..n, 0..n, 1..=max_cost), 0..n * 3).prop_map(move |edges| {
            let mut b = GraphBuilder::new(n);
            for (a, c, cost) in edges {
                b.connect_weighted(a as NodeId, c as NodeId, cost);
            }
            b
        })
    })
}

/// The octile cost of a grid graph's arc: 1 straight, 2 diagonal (√2).
fn octile(b: &GraphBuilder, u: NodeId, w: NodeId) -> Cost {
    match b.cost(u, w).expect("an arc") {
        2 => Cost { straight: 0, diagonal: 1 },
        _ => Cost::integer(1),
    }
}

/// Exact octile costs from every node to `t`: Dijkstra over all nodes, comparing [`Cost`]s.
fn octile_costs_to(b: &GraphBuilder, t: NodeId) -> Vec<Option<Cost>> {
    let n = b.nodes_len();
    let mut cost: Vec<Option<Cost>> = vec![None; n];
    let mut done = vec![false; n];
    cost[t as usize] = Some(Cost::ZERO);
    while let Some(v) = (0..n).filter(|&v| !done[v] && cost[v].is_some()).min_by_key(|&v| cost[v]) {
        done[v] = true;
        for &w in b.neighbors(v as NodeId) {
            let through = cost[v].unwrap() + octile(b, v as NodeId, w);
            if cost[w as usize].is_none_or(|c| through < c) {
                cost[w as usize] = Some(through);
            }
        }
    }
    cost
}

/// A random graph: each entry is (kind, a, b, cost) with kind 0 = undirected, 1 = one-way.
fn graph(max_nodes: usize, max_cost: u32) -> impl Strategy<Value = GraphBuilder> {
    (1..max_nodes).prop_flat_map(move |n| {
        proptest::collection::vec((0u8..2, 0..n, 0..n, 1..=max_cost), 0..n * 3).prop_map(move |arcs| {
            let mut b = GraphBuilder::new(n);
            for (kind, a, c, cost) in arcs {
                let (a, c) = (a as NodeId, c as NodeId);
                if kind == 0 {
                    b.connect_weighted(a, c, cost);
                } else {
                    b.connect_directed_weighted(a, c, cost);
                }
            }
            b
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn weighted_and_directed_answers_match_floyd_warshall(b in graph(50, 9)) {
        check(&b);
    }

    #[test]
    fn one_way_unit_arcs_match_floyd_warshall(b in graph(60, 1)) {
        check(&b);
    }

    /// Costs 1 and 2 on undirected graphs take the bucketed search of packed costs.
    #[test]
    fn undirected_costs_of_one_and_two_match_floyd_warshall(b in undirected(50, 2)) {
        check(&b);
    }

    /// Costs 1 and 2 where arcs join nodes more than 8,192 ids apart, in a graph of more than
    /// 65,536 nodes: the bucketed search stores such heads whole instead of as offsets, and
    /// runs keep one move each (3-byte records). The graph's last node is moved to id 70,000
    /// (the ids between stay isolated); compressed answers, also after saving and loading,
    /// against Floyd–Warshall on the graph as generated.
    #[test]
    fn far_apart_node_ids_take_whole_heads(b in undirected(24, 2)) {
        const FAR: NodeId = 70_000;
        let n = b.nodes_len() as NodeId;
        let id = |v: NodeId| if v + 1 == n { FAR } else { v };
        // Compressed tables take up to 8 neighbours a node: edges past that are left out.
        let mut small = GraphBuilder::new(n as usize);
        let mut far = GraphBuilder::new(FAR as usize + 1);
        for u in 0..n {
            for &w in b.neighbors(u) {
                if u < w && small.neighbors(u).len() < 8 && small.neighbors(w).len() < 8 {
                    small.connect_weighted(u, w, b.cost(u, w).unwrap());
                    far.connect_weighted(id(u), id(w), b.cost(u, w).unwrap());
                }
            }
        }
        let b = small;
        let built = far.build_compressed().unwrap();
        let mut bytes = Vec::new();
        built.save(&mut bytes).unwrap();
        let loaded = CompressedGraph::load(bytes.as_slice()).unwrap();
        prop_assert_eq!(&loaded, &built);
        let d = all_pairs(&b);
        let node = |w: NodeId| if w == FAR { n - 1 } else { w };
        for u in 0..n {
            for t in 0..n {
                let dut = d[u as usize][t as usize];
                prop_assert_eq!(built.cost(id(u), id(t)), (dut != INF).then_some(Cost::integer(dut)), "{} -> {}", u, t);
                let moves: Vec<NodeId> = built.neighbors_to(id(u), id(t)).map(node).collect();
                prop_assert_eq!(moves.is_empty(), dut == INF || u == t);
                for w in moves {
                    let arc = u64::from(b.cost(u, w).unwrap());
                    prop_assert_eq!(d[w as usize][t as usize] + arc, dut, "{} -> {} via {}", u, t, w);
                }
            }
        }
    }

    /// Octile grids, dense and compressed, against an exact Dijkstra written here: every
    /// optimal move (the dense table keeps them all, the compressed one a non-empty subset of
    /// them) and every path's exact cost.
    #[test]
    fn octile_grids_match_an_exact_dijkstra(
        width in 1u32..11,
        height in 1u32..11,
        open in proptest::collection::vec(proptest::bool::weighted(0.75), 1..120),
    ) {
        let grid = Grid::from_fn(width, height, |c| open[(c.y * width + c.x) as usize % open.len()]);
        let b = GridOracle::graph_builder(&grid, Connectivity::Eight);
        let dense = b.build();
        let compressed = b.build_compressed().unwrap();
        let n = b.nodes_len() as NodeId;
        for t in 0..n {
            let to_t = octile_costs_to(&b, t);
            for u in 0..n {
                let want: Vec<NodeId> = match to_t[u as usize] {
                    Some(c) if u != t => b
                        .neighbors(u)
                        .iter()
                        .copied()
                        .filter(|&w| to_t[w as usize].is_some_and(|cw| cw + octile(&b, u, w) == c))
                        .collect(),
                    _ => Vec::new(),
                };
                prop_assert_eq!(dense.neighbors_to(u, t).collect::<Vec<_>>(), want.clone(), "{} -> {}", u, t);
                let kept: Vec<NodeId> = compressed.neighbors_to(u, t).collect();
                prop_assert!(kept.iter().all(|w| want.contains(w)) && kept.is_empty() == want.is_empty());
                let path: Vec<NodeId> = compressed.path_to(u, t).collect();
                let cost = path.windows(2).fold(Cost::ZERO, |c, s| c + octile(&b, s[0], s[1]));
                prop_assert_eq!(to_t[u as usize].map(|_| cost), to_t[u as usize]);
            }
        }
    }

    #[test]
    fn weighted_grids_match_floyd_warshall(w in 1usize..9, h in 1usize..9, costs in proptest::collection::vec(1u32..5, 200)) {
        let mut b = GraphBuilder::new(w * h);
        let mut k = 0;
        for y in 0..h {
            for x in 0..w {
                let v = (y * w + x) as NodeId;
                if x + 1 < w { b.connect_weighted(v, v + 1, costs[k % costs.len()]); k += 1; }
                if y + 1 < h { b.connect_directed_weighted(v, v + w as NodeId, costs[k % costs.len()]); k += 1; }
            }
        }
        check(&b);
    }
}

#[test]
fn zero_costs_are_refused() {
    let mut b = GraphBuilder::new(2);
    assert_eq!(b.try_connect_weighted(0, 1, 0).unwrap_err(), signposts::Error::ZeroCost { from: 1, to: 0 });
    assert_eq!(b.arcs_len(), 0);
}

#[test]
fn one_way_door_is_respected() {
    // 0 → 1 one way; 1 - 2 - 0 the long way round.
    let mut b = GraphBuilder::new(3);
    b.connect_directed(0, 1).connect(1, 2).connect(2, 0);
    let g = b.build();
    assert_eq!(g.neighbor_to(0, 1), Some(1));
    assert_eq!(g.neighbor_to(1, 0), Some(2));
    assert_eq!(g.cost(1, 0), Some(Cost::integer(2)));
    assert!(g.is_directed());
}

/// `cost` on an octile graph counts its diagonal steps apart, on every table and whoever made
/// the graph: the old `Graph::distance` returned only the straight steps (here 2 of 5, and 0
/// for a path of diagonals), a silently wrong answer.
#[test]
fn octile_costs_count_their_diagonal_steps() {
    let exact = Cost { straight: 2, diagonal: 3 }; // (0, 0) to (5, 3): 3 diagonals, 2 straight
    let want = Some(exact);
    let from_grid = GridOracle::graph_builder(&Grid::new(6, 4), Connectivity::Eight);
    let generated = signposts::generate::grid(6, 4, Connectivity::Eight);
    for builder in [from_grid, generated] {
        let (dense, compressed) = (builder.build(), builder.build_compressed().unwrap());
        assert_eq!(dense.cost(0, 23), want);
        assert_eq!(compressed.cost(0, 23), want);
        assert_eq!(dense.cost(0, 21), Some(Cost { straight: 0, diagonal: 3 }));
    }
    assert!((exact.value() - (2.0 + 3.0 * 2f64.sqrt())).abs() < 1e-12);
    // Unit-cost diagonals are their own variant: every step costs 1.
    let king = signposts::generate::grid(6, 4, Connectivity::EightUnit).build();
    assert_eq!(king.cost(0, 23), Some(Cost::integer(5)));
}
