//! The compressed oracle against the dense one and a plain BFS, on every graph family small
//! enough for both.

use crate::common;

use common::{any_case, bfs_all};
use proptest::prelude::*;
use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
use signposts::{CompressedGraph, Cost, Error, GraphBuilder, NodeId};

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
            assert_eq!(compressed.neighbor_to(u, t), kept.first().copied(), "{u} -> {t}");
            let d = distances[u as usize][t as usize];
            let expected = (d != u32::MAX).then_some(Cost::integer(u64::from(d)));
            assert_eq!(compressed.cost(u, t), expected, "{u} -> {t}");
            assert_eq!(compressed.path_exists(u, t), expected.is_some());
            let path: Vec<NodeId> = compressed.path_to(u, t).collect();
            if let Some(d) = expected {
                assert_eq!(path.len() as u64, d.straight + 1);
                assert!(path.windows(2).all(|w| builder.contains_edge(w[0], w[1])));
            } else {
                assert!(path.is_empty());
            }
        }
    }
    // Every pair at once, in groups of every phase, as single queries answer.
    let pairs: Vec<(NodeId, NodeId)> = (0..n).flat_map(|u| (0..n).map(move |t| (u, t))).rev().collect();
    let mut steps = vec![Some(7)];
    compressed.neighbor_to_each(&pairs, &mut steps);
    let single: Vec<Option<NodeId>> = pairs.iter().map(|&(u, t)| compressed.neighbor_to(u, t)).collect();
    assert_eq!(steps, single);
    compressed.neighbor_to_each(&pairs[..pairs.len() / 3], &mut steps);
    assert_eq!(steps, single[..pairs.len() / 3]);
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
    let mut one_way = GraphBuilder::new(3);
    one_way.connect_directed(0, 1);
    assert!(matches!(one_way.build_compressed(), Err(Error::Unsupported { .. })));
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
    let _ = compressed.neighbor_to(0, 9);
}

#[test]
fn batched_queries_name_the_first_bad_id() {
    let compressed =
        signposts::generate::grid(3, 3, signposts::generate::Connectivity::Four).build_compressed().unwrap();
    let mut out = vec![Some(1)];
    let bad = compressed.try_neighbor_to_each(&[(0, 8), (12, 0), (0, 9)], &mut out);
    assert!(matches!(bad, Err(Error::NodeOutOfRange { node: 12, nodes: 9 })), "{bad:?}");
    assert!(out.is_empty());
    compressed.try_neighbor_to_each(&[(0, 8), (8, 8)], &mut out).expect("ids in range");
    assert_eq!(out, [compressed.neighbor_to(0, 8), None]);
    assert!(out[0].is_some());
}

/// A random grid: `open` flags row by row.
fn grid_from(width: u32, height: u32, open: &[bool]) -> Grid {
    Grid::from_fn(width, height, |c| open[(c.y * width + c.x) as usize % open.len()])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn compressed_grid_oracles_answer_like_dense_ones(
        width in 1u32..14,
        height in 1u32..14,
        open in proptest::collection::vec(proptest::bool::weighted(0.75), 1..200),
    ) {
        let grid = grid_from(width, height, &open);
        let dense = GridOracle::build(&grid, Connectivity::Four).unwrap();
        let compressed = GridOracle::build_compressed(&grid, Connectivity::Four).unwrap();
        let mut bytes = Vec::new();
        compressed.save(&mut bytes).unwrap();
        let loaded = GridOracle::load(bytes.as_slice()).unwrap();
        prop_assert!(loaded.is_compressed());
        let cells: Vec<Cell> = (0..height).flat_map(|y| (0..width).map(move |x| Cell::new(x, y))).collect();
        for &a in &cells {
            for &b in &cells {
                for oracle in [&compressed, &loaded] {
                    let all: Vec<Direction> = dense.next_steps(a, b).collect();
                    let kept: Vec<Direction> = oracle.next_steps(a, b).collect();
                    prop_assert!(kept.iter().all(|d| all.contains(d)));
                    prop_assert_eq!(kept.is_empty(), all.is_empty());
                    let step = oracle.next_step(a, b);
                    prop_assert!(step.is_none_or(|d| kept.contains(&d)));
                    prop_assert_eq!(oracle.distance(a, b), dense.distance(a, b));
                    prop_assert_eq!(oracle.path_exists(a, b), dense.path_exists(a, b));
                    prop_assert_eq!(oracle.path(a, b).count(), dense.path(a, b).count());
                }
            }
        }
        // Every pair at once, with a cell outside the grid, as single queries answer.
        let mut around = cells.clone();
        around.push(Cell::new(width, 0));
        let pairs: Vec<(Cell, Cell)> = around.iter().flat_map(|&a| around.iter().map(move |&b| (a, b))).collect();
        let mut steps = vec![None; 3];
        for oracle in [&dense, &compressed, &loaded] {
            oracle.next_step_each(&pairs, &mut steps);
            let single: Vec<Option<Direction>> = pairs.iter().map(|&(a, b)| oracle.next_step(a, b)).collect();
            prop_assert_eq!(&steps, &single);
        }
    }
}

#[test]
fn compressed_files_round_trip_and_damage_is_an_error() {
    let builder = signposts::generate::walled_grid(12, 9, 0.25, 3, signposts::generate::Connectivity::Four);
    let compressed = builder.build_compressed().unwrap();
    let mut bytes = Vec::new();
    compressed.save(&mut bytes).unwrap();
    assert_eq!(CompressedGraph::load(bytes.as_slice()).unwrap(), compressed);
    // Cut short, one bit flipped, or another kind of file.
    assert!(matches!(
        CompressedGraph::load(&bytes[..bytes.len() - 9]),
        Err(Error::Corrupt { .. } | Error::Truncated { .. })
    ));
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    assert!(matches!(CompressedGraph::load(flipped.as_slice()), Err(Error::Corrupt { .. })));
    let mut dense = Vec::new();
    builder.build().save(&mut dense).unwrap();
    assert!(matches!(CompressedGraph::load(dense.as_slice()), Err(Error::Format { .. })));
}

#[test]
fn compressed_grid_oracles_take_edits() {
    let grid = Grid::new(4, 4);
    let mut oracle = GridOracle::build_compressed(&grid, Connectivity::Four).unwrap();
    oracle.set_blocked(Cell::new(1, 1), true).unwrap();
    assert!(grid.is_passable(Cell::new(1, 1)) && !oracle.grid().is_passable(Cell::new(1, 1)));
    assert_eq!(oracle.distance(Cell::new(1, 0), Cell::new(1, 2)), Some(4.0));
    assert!(oracle.is_compressed());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Weighted undirected graphs: every move returned is optimal and every cost exact.
    #[test]
    fn weighted_compressed_answers_like_the_dense_table(
        n in 1usize..30,
        edges in proptest::collection::vec((any::<usize>(), any::<usize>(), 1u32..6), 0..60),
    ) {
        let mut builder = GraphBuilder::new(n);
        for (a, b, w) in edges {
            let (a, b) = ((a % n) as NodeId, (b % n) as NodeId);
            if builder.neighbors(a).len() < 8 && builder.neighbors(b).len() < 8 {
                builder.connect_weighted(a, b, w);
            }
        }
        let compressed = builder.build_compressed().unwrap();
        let dense = builder.build();
        for u in 0..n as NodeId {
            for t in 0..n as NodeId {
                let all: Vec<NodeId> = dense.neighbors_to(u, t).collect();
                let kept: Vec<NodeId> = compressed.neighbors_to(u, t).collect();
                prop_assert!(kept.iter().all(|v| all.contains(v)), "{} -> {}: {:?} / {:?}", u, t, kept, all);
                prop_assert_eq!(kept.is_empty(), all.is_empty());
                prop_assert_eq!(compressed.cost(u, t), dense.cost(u, t));
            }
        }
    }

    /// Octile grids: steps optimal, costs exact, through save and load.
    #[test]
    fn octile_compressed_grids_answer_like_dense_ones(
        width in 1u32..12,
        height in 1u32..12,
        open in proptest::collection::vec(proptest::bool::weighted(0.75), 1..150),
    ) {
        let grid = grid_from(width, height, &open);
        let dense = GridOracle::build(&grid, Connectivity::Eight).unwrap();
        let built = GridOracle::build_compressed(&grid, Connectivity::Eight).unwrap();
        let mut bytes = Vec::new();
        built.save(&mut bytes).unwrap();
        let loaded = GridOracle::load(bytes.as_slice()).unwrap();
        let cells: Vec<Cell> = (0..height).flat_map(|y| (0..width).map(move |x| Cell::new(x, y))).collect();
        for oracle in [&built, &loaded] {
            for &a in &cells {
                for &b in &cells {
                    let all: Vec<Direction> = dense.next_steps(a, b).collect();
                    let kept: Vec<Direction> = oracle.next_steps(a, b).collect();
                    prop_assert!(kept.iter().all(|d| all.contains(d)));
                    prop_assert_eq!(kept.is_empty(), all.is_empty());
                    prop_assert_eq!(oracle.cost(a, b), dense.cost(a, b));
                }
            }
        }
    }
}

/// A graph of more than 32,768 nodes (at least eight summary words of the build's live set, whose
/// levels then cross several of them): the compressed table's moves against BFS from sampled
/// targets.
#[test]
fn a_large_map_answers_like_bfs() {
    let builder =
        signposts::generate::walled_grid(200, 170, 0.15, 21, signposts::generate::Connectivity::Four);
    assert!(builder.nodes_len() >= 1 << 15);
    let compressed = builder.build_compressed().unwrap();
    let n = builder.nodes_len() as NodeId;
    for t in (0..n).step_by(4099) {
        let dist = common::bfs_from(&builder, t);
        for u in 0..n {
            let d = dist[u as usize];
            match compressed.neighbor_to(u, t) {
                Some(v) => assert_eq!(dist[v as usize] + 1, d, "{u} -> {t}"),
                None => assert!(u == t || d == u32::MAX, "{u} -> {t}"),
            }
        }
    }
}

/// Many components across several batches (the build regroups each wave's targets into
/// compact batches, which then hold targets of several components): every pair against the
/// dense table and BFS. (Several waves: the library's tests build with the fewest batches a
/// wave.)
#[test]
fn many_components_across_waves_answer_like_the_dense_table() {
    let sizes = [(1u32, 1u32), (5, 3), (2, 9), (17, 4), (1, 30), (6, 6), (3, 2), (11, 7), (1, 2)];
    let total: u32 = sizes.iter().cycle().take(60).map(|&(w, h)| w * h).sum();
    let mut builder = GraphBuilder::new(total as usize);
    let mut first = 0u32;
    for &(w, h) in sizes.iter().cycle().take(60) {
        for y in 0..h {
            for x in 0..w {
                let v = first + y * w + x;
                if x + 1 < w {
                    builder.connect(v, v + 1);
                }
                if y + 1 < h && (x + y) % 5 != 3 {
                    builder.connect(v, v + w);
                }
            }
        }
        first += w * h;
    }
    let core = builder.build_compressed().unwrap().core_len();
    assert!(core > 1024, "{core} core nodes: more than four batches");
    same_answers(&builder);
}

/// An octile grid of several waves of batches (the weighted build regroups each wave's
/// targets into compact groups for the octile engine's searches of 32, and puts the octets
/// back in column order), with walls that cut it into several components: sampled targets
/// from every cell against the dense table.
#[test]
fn octile_grids_across_waves_answer_like_the_dense_table() {
    let (width, height) = (64u32, 40u32);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let open: Vec<bool> = (0..width * height)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // A wall column every 21 cells, with one gap in the first: three components.
            let (cx, cy) = (i % width, i / width);
            !(cx % 21 == 20 && !(cx == 20 && cy == 7)) && !x.is_multiple_of(5)
        })
        .collect();
    let grid = grid_from(width, height, &open);
    let dense = GridOracle::build(&grid, Connectivity::Eight).unwrap();
    let compressed = GridOracle::build_compressed(&grid, Connectivity::Eight).unwrap();
    let core = compressed.compressed_table().expect("compressed").core_len();
    assert!(core > 1024, "{core} core nodes: several waves");
    let cells: Vec<Cell> = (0..height).flat_map(|y| (0..width).map(move |x| Cell::new(x, y))).collect();
    for &b in cells.iter().step_by(7) {
        for &a in &cells {
            let all: Vec<Direction> = dense.next_steps(a, b).collect();
            let kept: Vec<Direction> = compressed.next_steps(a, b).collect();
            assert!(kept.iter().all(|d| all.contains(d)), "{a:?} -> {b:?}: {kept:?} not within {all:?}");
            assert_eq!(kept.is_empty(), all.is_empty(), "{a:?} -> {b:?}");
            assert_eq!(compressed.cost(a, b), dense.cost(a, b), "{a:?} -> {b:?}");
        }
    }
}
