//! The [`NextHop`] trait: every oracle answers it exactly, checked against a plain BFS on every
//! graph family, through generic code (as game code calls it) and through `&dyn NextHop`.

use crate::common;

use common::{Case, any_case, bfs_all};
use proptest::prelude::*;
use signposts::generate::Connectivity;
use signposts::grid::{Cell, Grid, GridOracle};
use signposts::{Cost, Error, Graph16, Graph128, GraphBuilder, NextHop, NodeId, TableRef};

/// Checks every answer of `table` on every pair against BFS distances (`dist[t][v]`).
fn answers_like_bfs(table: &impl NextHop, builder: &GraphBuilder, dist: &[Vec<u32>], name: &str) {
    let n = builder.nodes_len();
    assert_eq!(table.nodes_len(), n, "{name}");
    let mut queries = Vec::with_capacity(n * n);
    for u in 0..n as NodeId {
        for t in 0..n as NodeId {
            queries.push((u, t));
            let d = dist[t as usize][u as usize];
            let optimal: Vec<NodeId> = {
                let mut v: Vec<NodeId> = builder
                    .neighbors(u)
                    .iter()
                    .copied()
                    .filter(|&v| d != u32::MAX && d > 0 && dist[t as usize][v as usize] == d - 1)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let got: Vec<NodeId> = table.neighbors_to(u, t).collect();
            if table.keeps_every_move() {
                assert_eq!(got, optimal, "{name}: neighbors_to({u}, {t})");
            } else {
                assert!(got.iter().all(|v| optimal.contains(v)), "{name}: neighbors_to({u}, {t}) = {got:?}");
                assert_eq!(got.is_empty(), optimal.is_empty(), "{name}: neighbors_to({u}, {t})");
            }
            let step = table.neighbor_to(u, t);
            assert_eq!(step.is_some(), !optimal.is_empty(), "{name}: neighbor_to({u}, {t})");
            assert!(step.is_none_or(|v| optimal.contains(&v)), "{name}: neighbor_to({u}, {t}) = {step:?}");
            assert_eq!(table.path_exists(u, t), d != u32::MAX, "{name}: path_exists({u}, {t})");
            let cost = (d != u32::MAX).then(|| Cost::integer(u64::from(d)));
            assert_eq!(table.cost(u, t), cost, "{name}: cost({u}, {t})");
            let path: Vec<NodeId> = table.path_to(u, t).collect();
            if d == u32::MAX {
                assert!(path.is_empty(), "{name}: path_to({u}, {t})");
            } else {
                assert_eq!(path.len(), d as usize + 1, "{name}: path_to({u}, {t}) = {path:?}");
                assert_eq!((path[0], path[path.len() - 1]), (u, t), "{name}: path_to({u}, {t})");
                assert!(path.windows(2).all(|w| builder.neighbors(w[0]).contains(&w[1])), "{name}: {path:?}");
            }
        }
    }
    // The batched form equals single calls, and so does the form behind `dyn`.
    let mut steps = Vec::new();
    table.neighbor_to_each(&queries, &mut steps);
    let single: Vec<_> = queries.iter().map(|&(u, t)| table.neighbor_to(u, t)).collect();
    assert_eq!(steps, single, "{name}: neighbor_to_each");
    let object: &dyn NextHop = &TableAsDyn(table);
    object.neighbor_to_each(&queries, &mut steps);
    assert_eq!(steps, single, "{name}: neighbor_to_each through dyn");
    // The spread form takes move `seed % k` of the listed moves, for every seed's residue.
    for seed in [0u64, 1, 2, 3, 5, 7, u64::MAX] {
        let spread: Vec<_> =
            queries.iter().map(|&(u, t)| (u, t, seed.wrapping_add(u64::from(u ^ t)))).collect();
        table.neighbor_to_each_spread(&spread, &mut steps);
        let listed: Vec<_> = spread
            .iter()
            .map(|&(u, t, s)| {
                let moves: Vec<NodeId> = table.neighbors_to(u, t).collect();
                (!moves.is_empty()).then(|| moves[(s % moves.len() as u64) as usize])
            })
            .collect();
        assert_eq!(steps, listed, "{name}: neighbor_to_each_spread, seed {seed}");
    }
    // Out of range: an error naming the id, and nothing written.
    let bad = n as NodeId;
    let expected = Some(Error::NodeOutOfRange { node: bad, nodes: n });
    assert_eq!(table.try_neighbor_to(0, bad).err(), expected, "{name}");
    assert_eq!(table.try_cost(bad, 0).err(), expected, "{name}");
    assert_eq!(table.try_path_exists(bad, bad).err(), expected, "{name}");
    assert_eq!(table.try_neighbors_to(bad, 0).err(), expected, "{name}");
    assert_eq!(table.try_path_to(0, bad).err(), expected, "{name}");
    steps.push(None);
    assert_eq!(table.try_neighbor_to_each(&[(0, 0), (bad, 0)], &mut steps).err(), expected, "{name}");
    assert!(steps.is_empty(), "{name}: a failed batch leaves `out` empty");
    steps.push(None);
    assert_eq!(
        table.try_neighbor_to_each_spread(&[(0, 0, 1), (0, bad, 2)], &mut steps).err(),
        expected,
        "{name}"
    );
    assert!(steps.is_empty(), "{name}: a failed spread batch leaves `out` empty");
}

/// Forwards the object-safe queries, so that the `dyn` path is exercised for every table.
struct TableAsDyn<'a, T>(&'a T);

impl<T: NextHop> NextHop for TableAsDyn<'_, T> {
    fn nodes_len(&self) -> usize {
        self.0.nodes_len()
    }
    fn keeps_every_move(&self) -> bool {
        self.0.keeps_every_move()
    }
    fn try_neighbor_to(&self, from: NodeId, to: NodeId) -> Result<Option<NodeId>, Error> {
        self.0.try_neighbor_to(from, to)
    }
    fn try_neighbor_to_each(
        &self,
        q: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        self.0.try_neighbor_to_each(q, out)
    }
    fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error> {
        self.0.try_cost(from, to)
    }
    fn try_path_exists(&self, from: NodeId, to: NodeId) -> Result<bool, Error> {
        self.0.try_path_exists(from, to)
    }
    fn try_neighbors_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        self.0.try_neighbors_to(from, to)
    }
    fn try_path_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        self.0.try_path_to(from, to)
    }
}

/// The fixed-size twin of `builder`, when it fits `N` nodes.
fn small<const N: usize>(builder: &GraphBuilder) -> Option<signposts::SmallGraph<N>> {
    let n = builder.nodes_len();
    let mut small = signposts::SmallGraph::<N>::builder(n);
    for u in 0..n as NodeId {
        for &v in builder.neighbors(u) {
            small.connect(u8::try_from(u).ok()?, u8::try_from(v).ok()?);
        }
    }
    Some(small.build())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_table_answers_the_trait_like_bfs(case in any_case()) {
        let Case { name, builder } = case;
        let dist = bfs_all(&builder);
        answers_like_bfs(&builder.build(), &builder, &dist, name);
        answers_like_bfs(&TableRef::Dense(&builder.build()), &builder, &dist, name);
        // Compressed tables take every graph of at most eight neighbours a node.
        let widest = (0..builder.nodes_len() as NodeId).map(|v| builder.neighbors(v).len()).max().unwrap_or(0);
        match builder.build_compressed() {
            Ok(compressed) => {
                answers_like_bfs(&compressed, &builder, &dist, name);
                answers_like_bfs(&TableRef::Compressed(&compressed), &builder, &dist, name);
            }
            Err(e) => prop_assert!(widest > 8, "{name}: {e}"),
        }
        if builder.nodes_len() <= 16 {
            answers_like_bfs(&small::<16>(&builder).expect("fits"), &builder, &dist, name);
        }
        if builder.nodes_len() <= 128 {
            answers_like_bfs(&small::<128>(&builder).expect("fits"), &builder, &dist, name);
        }
    }
}

#[test]
fn small_graph_ids_past_u8_are_errors_not_truncated() {
    let mut b = Graph16::builder(3);
    b.connect(0, 1).connect(1, 2);
    let g = b.build();
    // 256 + 2 would be node 2 if it were cast to u8.
    assert_eq!(NextHop::try_neighbor_to(&g, 0, 258), Err(Error::NodeOutOfRange { node: 258, nodes: 3 }));
    assert_eq!(NextHop::neighbor_to(&g, 0, 2), Some(1));
    let big = Graph128::builder(128).build();
    assert!(NextHop::try_cost(&big, 127, 128).is_err());
}

#[test]
fn a_grid_oracle_exposes_its_table_by_nodes() {
    let grid = Grid::from_ascii(
        "
        ......
        .####.
        ......
    ",
    )
    .expect("a valid picture");
    for connectivity in [Connectivity::Four, Connectivity::Eight] {
        let dense = GridOracle::build(&grid, connectivity).expect("small");
        let compressed = GridOracle::build_compressed(&grid, connectivity).expect("small");
        for oracle in [&dense, &compressed] {
            let table = oracle.table();
            assert_eq!(matches!(table, TableRef::Compressed(_)), oracle.is_compressed());
            assert_eq!(table.nodes_len(), oracle.nodes_len());
            for u in 0..table.nodes_len() as NodeId {
                for t in 0..table.nodes_len() as NodeId {
                    let (from, to) = (oracle.cell(u).expect("a node"), oracle.cell(t).expect("a node"));
                    assert_eq!(table.cost(u, t), oracle.cost(from, to));
                    let step = table.neighbor_to(u, t).map(|v| oracle.cell(v).expect("a node"));
                    assert_eq!(step, oracle.next_step(from, to).map(|d| from.step(d).expect("inside")));
                }
            }
        }
        assert_eq!(dense.node(Cell::new(1, 1)), None, "a wall has no node");
    }
}

#[test]
fn plain_queries_panic_naming_the_id_and_the_node_count() {
    let builder = signposts::generate::grid(3, 3, Connectivity::Four);
    let (dense, compressed) = (builder.build(), builder.build_compressed().expect("4-connected"));
    let small = Graph16::builder(9).build();
    let tables: [&dyn NextHop; 3] = [&dense, &compressed, &small];
    for table in tables {
        for query in [
            (|t: &dyn NextHop| _ = std::hint::black_box(t.neighbor_to(0, 9))) as fn(&dyn NextHop),
            |t| _ = std::hint::black_box(t.cost(9, 0)),
            |t| _ = std::hint::black_box(t.path_exists(0, 12)),
            |t| t.neighbor_to_each(&[(0, 1), (0, 9)], &mut Vec::new()),
        ] {
            let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| query(table)))
                .expect_err("an id out of range panics");
            let message = panic.downcast_ref::<String>().expect("a formatted message");
            assert!(message.contains("out of range") && message.contains("9 nodes"), "{message}");
        }
    }
}

#[test]
fn a_crowd_with_an_id_out_of_range_is_an_error_and_nobody_moves() {
    let table = signposts::generate::grid(3, 3, Connectivity::Four).build();
    let mut crowd = signposts::Crowd::new(vec![0, 8, 4]);
    assert_eq!(crowd.step_toward(&table, 9).err(), Some(Error::NodeOutOfRange { node: 9, nodes: 9 }));
    assert_eq!(crowd.positions(), [0, 8, 4]);
    let mut stray = signposts::Crowd::new(vec![0, 30]);
    assert_eq!(stray.step_toward(&table, 4).err(), Some(Error::NodeOutOfRange { node: 30, nodes: 9 }));
    assert_eq!(stray.positions(), [0, 30]);
    // Through a reference, a box and an `Arc`, the same answers.
    let shared = std::sync::Arc::new(table.clone());
    let boxed: Box<signposts::Graph> = Box::new(table.clone());
    let step = crowd.step_toward(&&table, 4).expect("in range");
    assert_eq!((step.moved, step.arrived), (2, 1));
    assert_eq!(NextHop::neighbor_to(&shared, 0, 8), table.neighbor_to(0, 8));
    assert_eq!(NextHop::cost(&boxed, 0, 8), NextHop::cost(&table, 0, 8));
}
