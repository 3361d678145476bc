//! Edits of built graphs: after every edit, every answer equals a fresh build's.

use crate::common;

use common::any_case;
use proptest::prelude::*;
use signposts::dynamic::Change;
use signposts::generate::{Connectivity, SplitMix64, walled_grid};
use signposts::{Graph, GraphBuilder, NodeId};

/// Compares every query for every pair of nodes.
pub(crate) fn same_answers(edited: &Graph, fresh: &Graph, step: usize) {
    let n = fresh.nodes_len() as NodeId;
    assert_eq!(edited.nodes_len(), fresh.nodes_len());
    assert_eq!(edited.edges_len(), fresh.edges_len(), "step {step}: edges");
    assert_eq!(edited.is_directed(), fresh.is_directed(), "step {step}: directed");
    for u in 0..n {
        assert_eq!(edited.neighbors(u), fresh.neighbors(u), "step {step}: neighbours of {u}");
        for t in 0..n {
            assert!(
                edited.neighbors_to(u, t).eq(fresh.neighbors_to(u, t)),
                "step {step}: neighbors_to({u}, {t}) = {:?}, fresh {:?}",
                edited.neighbors_to(u, t).collect::<Vec<_>>(),
                fresh.neighbors_to(u, t).collect::<Vec<_>>()
            );
            assert_eq!(edited.cost(u, t), fresh.cost(u, t), "step {step}: distance({u}, {t})");
            assert_eq!(
                edited.path_exists(u, t),
                fresh.path_exists(u, t),
                "step {step}: path_exists({u}, {t})"
            );
            assert!(
                edited.neighbors_away(u, t).eq(fresh.neighbors_away(u, t)),
                "step {step}: away({u}, {t})"
            );
        }
        assert_eq!(edited.component(u) == edited.component(0), fresh.component(u) == fresh.component(0));
    }
}

/// Applies one change to a builder, the reference.
pub(crate) fn mirror(b: &mut GraphBuilder, change: Change) {
    match change {
        Change::Connect(a, c) => b.connect(a, c),
        Change::ConnectWeighted(a, c, w) => b.connect_weighted(a, c, w),
        Change::ConnectDirected(a, c, w) => b.connect_directed_weighted(a, c, w),
        Change::Disconnect(a, c) => b.disconnect(a, c),
        Change::DisconnectDirected(a, c) => b.disconnect_directed(a, c),
        _ => unreachable!(),
    };
}

pub(crate) fn change(kinds: u8) -> impl Strategy<Value = (u8, usize, usize, u32)> {
    (0..kinds, any::<usize>(), any::<usize>(), 1u32..6)
}

pub(crate) fn to_change(n: usize, (kind, a, b, w): (u8, usize, usize, u32)) -> Change {
    let (a, b) = ((a % n) as NodeId, (b % n) as NodeId);
    match kind {
        0 | 1 => Change::Disconnect(a, b),
        2 => Change::Connect(a, b),
        3 => Change::ConnectWeighted(a, b, w),
        4 => Change::ConnectDirected(a, b, w),
        _ => Change::DisconnectDirected(a, b),
    }
}

/// Applies the changes one at a time, comparing with a fresh build after each.
fn edit_one_by_one(builder: &GraphBuilder, changes: Vec<(u8, usize, usize, u32)>) {
    let mut reference = builder.clone();
    let n = reference.nodes_len();
    let mut graph = reference.build();
    for (step, c) in changes.into_iter().enumerate() {
        let c = to_change(n, c);
        graph.apply(&[c]).unwrap();
        mirror(&mut reference, c);
        same_answers(&graph, &reference.build(), step);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn unit_edits_match_fresh_builds(case in any_case(), changes in proptest::collection::vec(change(3), 1..8)) {
        prop_assume!(case.builder.nodes_len() > 0);
        edit_one_by_one(&case.builder, changes);
    }

    #[test]
    fn weighted_and_one_way_edits_match_fresh_builds(case in any_case(), changes in proptest::collection::vec(change(6), 1..8)) {
        prop_assume!(case.builder.nodes_len() > 0 && case.builder.nodes_len() <= 60);
        edit_one_by_one(&case.builder, changes);
    }

    #[test]
    fn weighted_undirected_edits_match_fresh_builds(
        n in 2usize..40,
        edges in proptest::collection::vec((any::<usize>(), any::<usize>(), 1u32..6), 0..90),
        changes in proptest::collection::vec(change(4), 1..10),
    ) {
        let mut builder = GraphBuilder::new(n);
        for (a, b, w) in edges {
            builder.connect_weighted((a % n) as NodeId, (b % n) as NodeId, w);
        }
        edit_one_by_one(&builder, changes);
    }

    #[test]
    fn batches_match_fresh_builds(case in any_case(), changes in proptest::collection::vec(change(6), 1..12)) {
        let mut reference = case.builder.clone();
        let n = reference.nodes_len();
        prop_assume!(n > 0 && n <= 60);
        let mut graph = reference.build();
        let batch: Vec<Change> = changes.into_iter().map(|c| to_change(n, c)).collect();
        graph.apply(&batch).unwrap();
        for &c in &batch {
            mirror(&mut reference, c);
        }
        same_answers(&graph, &reference.build(), 0);
    }
}

/// A batch that joins two isolated nodes 9–11 and adds a one-way arc 12 → 9: node 9 had no
/// arcs and gets only the edge to 11, which looked like a cell opened again (patched without a
/// repair), so 12 was left without its move toward 11 through 9. Found by
/// `batches_match_fresh_builds`.
#[test]
fn a_batch_whose_one_way_arc_leads_into_an_opened_node() {
    let mut builder = GraphBuilder::new(19);
    builder.connect(3, 4).connect(3, 5).connect(3, 6).connect(4, 5).connect(4, 6);
    let mut graph = builder.build();
    graph.apply(&[Change::Connect(9, 11), Change::ConnectDirected(12, 9, 1)]).unwrap();
    builder.connect(9, 11).connect_directed_weighted(12, 9, 1);
    assert_eq!(graph.neighbors_to(12, 11).collect::<Vec<_>>(), [9]);
    same_answers(&graph, &builder.build(), 0);
}

#[test]
fn disconnecting_and_reconnecting_components() {
    // Two triangles joined by a bridge 2-3.
    let mut b = GraphBuilder::new(6);
    b.connect(0, 1).connect(1, 2).connect(2, 0).connect(2, 3).connect(3, 4).connect(4, 5).connect(5, 3);
    let mut g = b.build();
    let update = g.disconnect(2, 3);
    assert!(!update.rebuilt);
    assert!(!g.path_exists(0, 5));
    assert_eq!(g.neighbor_to(0, 5), None);
    assert_eq!(g.components_len(), 2);
    g.connect(2, 3);
    assert_eq!(g.cost(0, 5), Some(signposts::Cost::integer(3)));
    assert_eq!(g.components_len(), 1);
}

#[test]
fn bad_changes_change_nothing() {
    let mut b = GraphBuilder::new(3);
    b.connect(0, 1);
    let mut g = b.build();
    let before = g.clone();
    assert!(g.apply(&[Change::Connect(1, 2), Change::Connect(0, 9)]).is_err());
    assert!(g.apply(&[Change::ConnectWeighted(1, 2, 0)]).is_err());
    assert_eq!(g, before);
}

pub(crate) mod grids {
    use proptest::prelude::*;
    use signposts::grid::{Cell, Connectivity, Grid, GridOracle};

    pub(crate) fn same_grid_answers(edited: &GridOracle, fresh: &GridOracle, step: usize) {
        let grid = fresh.grid();
        assert_eq!(edited.grid(), grid, "step {step}");
        let cells: Vec<Cell> =
            (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y))).collect();
        for &a in &cells {
            for &b in &cells {
                assert!(
                    edited.next_steps(a, b).eq(fresh.next_steps(a, b)),
                    "step {step}: next_steps({a}, {b})\n{grid:?}"
                );
                assert_eq!(edited.cost(a, b), fresh.cost(a, b), "step {step}: cost({a}, {b})");
                assert_eq!(
                    edited.path_exists(a, b),
                    fresh.path_exists(a, b),
                    "step {step}: path_exists({a}, {b})"
                );
            }
        }
    }

    /// Cells blocked and opened on an 8-connected grid with enough targets for the repair's
    /// parallel runs (octile costs: walks to the searched nodes around the edit): every
    /// answer after every toggle against a fresh build.
    #[test]
    fn toggled_cells_on_a_larger_octile_grid_match_fresh_builds() {
        let grid = Grid::from_fn(22, 18, |c| (c.x * 7 + c.y * 3) % 11 != 0);
        let mut oracle = GridOracle::build(&grid, Connectivity::Eight).unwrap();
        // (3, 4) is a wall at first: opening it adds a node, a rebuild.
        let cells = [(3, 4), (10, 9), (11, 9), (21, 17), (0, 0), (15, 2), (7, 12), (10, 10)];
        let mut repaired = 0;
        for (step, &(x, y)) in cells.iter().chain(cells.iter().rev()).enumerate() {
            let cell = Cell::new(x, y);
            let blocked = oracle.grid().is_passable(cell);
            repaired += oracle.set_blocked(cell, blocked).unwrap().repaired;
            let fresh = GridOracle::build(oracle.grid(), Connectivity::Eight).unwrap();
            same_grid_answers(&oracle, &fresh, step);
        }
        assert!(repaired > 0, "no column was repaired locally");
    }

    /// Door cells closed and opened on a 4-connected grid: a closed cell and the cells behind
    /// it lose their moves together (repaired 64 targets at a time, `dynamic/blocked.rs`).
    #[test]
    fn door_cells_on_a_four_connected_grid_match_fresh_builds() {
        let grid = Grid::from_fn(24, 20, |c| c.x % 6 != 3 || c.y % 5 == 2);
        let mut oracle = GridOracle::build(&grid, Connectivity::Four).unwrap();
        let mut repaired = 0;
        for (step, &(x, y)) in [(3, 2), (9, 7), (15, 12), (3, 17), (4, 4), (21, 7)].iter().enumerate() {
            let cell = Cell::new(x, y);
            for blocked in [true, false] {
                let update = oracle.set_blocked(cell, blocked).unwrap();
                repaired += update.repaired;
                let fresh = GridOracle::build(oracle.grid(), Connectivity::Four).unwrap();
                same_grid_answers(&oracle, &fresh, 2 * step + usize::from(!blocked));
            }
        }
        assert!(repaired > 0, "no column was repaired");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        #[test]
        fn toggled_cells_match_fresh_builds(
            w in 1u32..8, h in 1u32..8, walls in proptest::collection::vec(any::<bool>(), 64),
            eight in any::<bool>(), toggles in proptest::collection::vec((any::<u32>(), any::<u32>()), 1..8),
        ) {
            let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
            let grid = Grid::from_fn(w, h, |c| !walls[(c.y * 8 + c.x) as usize % 64] || (c.x + c.y) % 3 == 0);
            let mut oracle = GridOracle::build(&grid, connectivity).unwrap();
            let toggles_len = toggles.len();
            for (step, (x, y)) in toggles.into_iter().enumerate() {
                let cell = Cell::new(x % w, y % h);
                let blocked = oracle.grid().is_passable(cell);
                oracle.set_blocked(cell, blocked).unwrap();
                let fresh = GridOracle::build(oracle.grid(), connectivity).unwrap();
                same_grid_answers(&oracle, &fresh, step);
            }
            let mut bytes = Vec::new();
            oracle.save(&mut bytes).unwrap();
            // The same toggles again, all at once: as many edits, one repair.
            let edits: Vec<(Cell, bool)> = (0..toggles_len)
                .map(|k| Cell::new((k as u32 * 5 + 1) % w, (k as u32 * 3) % h))
                .map(|cell| (cell, oracle.grid().is_passable(cell)))
                .collect();
            let mut batched = oracle.clone();
            batched.apply(&edits).unwrap();
            same_grid_answers(&batched, &GridOracle::build(batched.grid(), connectivity).unwrap(), 100);
            let loaded = GridOracle::load(bytes.as_slice()).unwrap();
            same_grid_answers(&loaded, &GridOracle::build(oracle.grid(), connectivity).unwrap(), 99);
        }
    }
}

/// The whole table: every node's neighbours and optimal moves toward every node.
fn same_table(edited: &Graph, fresh: &Graph, step: usize) {
    let n = fresh.nodes_len() as NodeId;
    for u in 0..n {
        assert_eq!(edited.neighbors(u), fresh.neighbors(u), "step {step}: neighbours of {u}");
        for t in 0..n {
            assert!(
                edited.neighbors_to(u, t).eq(fresh.neighbors_to(u, t)),
                "step {step}: neighbors_to({u}, {t})"
            );
        }
    }
}

/// Doors toggled on a walled grid with enough targets for the repair's parallel runs and
/// several blocks of columns, one at a time and in pairs: the whole table after every edit
/// against a fresh build. Single toggles repair most columns by replay, which must be seen.
#[test]
fn door_toggles_on_a_walled_grid_match_fresh_builds() {
    let builder = walled_grid(26, 26, 0.2, 5, Connectivity::Four);
    let n = builder.nodes_len();
    let mut reference = builder.clone();
    let mut graph = builder.build();
    let mut rng = SplitMix64::new(11);
    let mut pick = |reference: &GraphBuilder| loop {
        let a = rng.below(n as u64) as NodeId;
        let heads = reference.neighbors(a);
        if !heads.is_empty() {
            break (a, heads[rng.below(heads.len() as u64) as usize]);
        }
    };
    let mut replayed = 0;
    for step in 0..16 {
        let (a, b) = pick(&reference);
        let off = graph.disconnect(a, b);
        reference.disconnect(a, b);
        same_table(&graph, &reference.build(), 4 * step);
        let on = graph.connect(a, b);
        reference.connect(a, b);
        same_table(&graph, &reference.build(), 4 * step + 1);
        replayed += off.replayed + on.replayed;
        // Two doors at once: several seeds per column, no replay.
        let first = pick(&reference);
        let second = pick(&reference);
        graph.apply(&[Change::Disconnect(first.0, first.1), Change::Disconnect(second.0, second.1)]).unwrap();
        reference.disconnect(first.0, first.1).disconnect(second.0, second.1);
        same_table(&graph, &reference.build(), 4 * step + 2);
        graph.apply(&[Change::Connect(first.0, first.1), Change::Connect(second.0, second.1)]).unwrap();
        reference.connect(first.0, first.1).connect(second.0, second.1);
        same_table(&graph, &reference.build(), 4 * step + 3);
    }
    assert!(replayed > 0, "no column was repaired by replay");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Every edge of a node and of a neighbour of it removed in one batch on a walled grid
    /// (seeds hanging from one another, their regions meeting), then put back.
    #[test]
    fn edges_around_a_node_cut_in_one_batch(seed in 0u64..1000, at in 0usize..144) {
        let mut b = walled_grid(12, 12, 0.15, seed, Connectivity::Four);
        let mut graph = b.build();
        let a = at as NodeId;
        let Some(&next) = b.neighbors(a).first() else { return Ok(()) };
        let cut: Vec<(NodeId, NodeId)> = b.neighbors(a).iter().map(|&h| (a, h))
            .chain(b.neighbors(next).iter().filter(|&&h| h != a).map(|&h| (next, h)))
            .collect();
        graph.apply(&cut.iter().map(|&(x, y)| Change::Disconnect(x, y)).collect::<Vec<_>>()).unwrap();
        for &(x, y) in &cut {
            b.disconnect(x, y);
        }
        same_table(&graph, &b.build(), 0);
        graph.apply(&cut.iter().map(|&(x, y)| Change::Connect(x, y)).collect::<Vec<_>>()).unwrap();
        for &(x, y) in &cut {
            b.connect(x, y);
        }
        same_table(&graph, &b.build(), 1);
    }
}

/// One batch cuts a pocket off (a bridge removed) and inserts an edge as good as the old
/// paths toward a target the pocket loses: the inserted move must still be recorded.
#[test]
fn a_cut_and_an_equal_insertion_in_one_batch() {
    // A 5-cycle 0-1-2-3-4 with a pocket 5 hanging from 0; 2-4 is as short toward 0 as 2-1.
    let mut reference = GraphBuilder::new(6);
    reference.connect(0, 1).connect(1, 2).connect(2, 3).connect(3, 4).connect(4, 0).connect(0, 5);
    // A chord keeps the graph from being a forest with one cycle (rebuilt at once), and rows
    // with room for the new edge keep the table in place, so the edit goes through the
    // column plan (the cut-off column of target 0 also gains the move 2 → 4).
    reference.connect(1, 3);
    reference.reserve_degree(4);
    let mut graph = reference.build();
    graph.apply(&[Change::Disconnect(0, 5), Change::Connect(2, 4)]).unwrap();
    reference.disconnect(0, 5);
    reference.connect(2, 4);
    same_answers(&graph, &reference.build(), 0);
}

/// Rows wider than 64 slots (a complete graph of 70 nodes) lose an edge: the removed slot is
/// past the narrow masks.
#[test]
fn an_edge_removed_from_a_row_of_wide_entries() {
    let mut reference = GraphBuilder::new(70);
    for a in 0..70 {
        for b in a + 1..70 {
            reference.connect(a, b);
        }
    }
    let mut graph = reference.build();
    graph.disconnect(0, 69);
    reference.disconnect(0, 69);
    same_answers(&graph, &reference.build(), 0);
}

/// The choice between repairing and rebuilding follows the measured costs: the build's time
/// (recorded when the graph was built) against the repair's time so far and its work
/// foretold. Closing the only gap in a wall across a grid changes half the table: a build
/// that took an hour is never worth redoing for it; without a measured build the work model
/// rebuilds. Either way the answers are a fresh build's.
#[test]
fn repairs_give_way_to_a_rebuild_by_measured_costs() {
    use std::time::Duration;
    let gap: NodeId = 20 * 40 + 20;
    let walled = signposts::generate::grid_from_fn(40, 40, Connectivity::Four, |x, y| y != 20 || x == 20);
    let mut closed = walled.clone();
    closed.disconnect(gap, gap + 40);
    let fresh = closed.build();
    let built = walled.build();
    assert!(built.build_time().is_some(), "a build in this process is timed");
    // A build that took an hour: the repair goes on (the work model alone would rebuild). Not
    // measured, or too short to time well (under 20 ms): the work model rebuilds.
    for (took, rebuilds) in
        [(Some(Duration::from_secs(3600)), false), (None, true), (Some(Duration::from_millis(5)), true)]
    {
        let mut graph = built.clone();
        graph.set_build_time(took);
        let update = graph.disconnect(gap, gap + 40);
        assert_eq!(update.rebuilt, rebuilds, "a build of {took:?}: {update:?}");
        same_answers(&graph, &fresh, 0);
        same_table(&graph, &fresh, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Every edge of a node removed in one batch and put back in another (a cell blocked and
    /// opened again), on walled grids and random unit graphs of up to four lanes of 64
    /// columns, some in pieces that the node joins: the opening is repaired 64 targets at a
    /// time from the old entries (`dynamic/opened.rs`). Every answer against a fresh build.
    #[test]
    fn a_node_blocked_and_opened_again_matches_fresh_builds(
        grid in any::<bool>(),
        n in 2usize..240,
        seed in 0u64..1000,
        edges in proptest::collection::vec((any::<usize>(), any::<usize>()), 0..360),
        at in any::<usize>(),
    ) {
        let mut b = if grid {
            walled_grid(16, (n / 16).max(1), 0.2, seed, Connectivity::Four)
        } else {
            let mut b = GraphBuilder::new(n);
            for (x, y) in edges {
                let (x, y) = ((x % n) as NodeId, (y % n) as NodeId);
                if x != y {
                    b.connect(x, y);
                }
            }
            b
        };
        let c = (at % b.nodes_len()) as NodeId;
        let heads = b.neighbors(c).to_vec();
        if heads.is_empty() {
            return Ok(());
        }
        let mut graph = b.build();
        graph.apply(&heads.iter().map(|&h| Change::Disconnect(c, h)).collect::<Vec<_>>()).unwrap();
        for &h in &heads {
            b.disconnect(c, h);
        }
        same_answers(&graph, &b.build(), 0);
        graph.apply(&heads.iter().map(|&h| Change::Connect(h, c)).collect::<Vec<_>>()).unwrap();
        for &h in &heads {
            b.connect(c, h);
        }
        same_answers(&graph, &b.build(), 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// A node of a weighted graph blocked (every edge of it removed in one batch), on random
    /// graphs with costs 1–4 of up to four lanes of 64 columns, and cells blocked on octile
    /// grids with random walls (the cell's diagonals go too). Every answer and the whole table
    /// against a fresh build.
    #[test]
    fn a_weighted_node_blocked_matches_fresh_builds(
        grid in any::<bool>(),
        n in 2usize..240,
        edges in proptest::collection::vec((any::<usize>(), any::<usize>(), 1u32..5), 0..360),
        walls in proptest::collection::vec(any::<bool>(), 256),
        at in any::<usize>(),
    ) {
        use signposts::grid::{Cell, Connectivity as Cells, Grid, GridOracle};
        if grid {
            let (w, h) = (16, (n / 16).clamp(1, 15) as u32);
            let g = Grid::from_fn(w, h, |c| !walls[(c.y * 16 + c.x) as usize] || (c.x + c.y) % 4 == 0);
            let mut oracle = GridOracle::build(&g, Cells::Eight).unwrap();
            let cell = Cell::new((at % 16) as u32, ((at / 16) % h as usize) as u32);
            if !oracle.grid().is_passable(cell) {
                return Ok(());
            }
            oracle.set_blocked(cell, true).unwrap();
            grids::same_grid_answers(&oracle, &GridOracle::build(oracle.grid(), Cells::Eight).unwrap(), 0);
            return Ok(());
        }
        let mut b = GraphBuilder::new(n);
        for (x, y, w) in edges {
            let (x, y) = ((x % n) as NodeId, (y % n) as NodeId);
            if x != y {
                b.connect_weighted(x, y, w);
            }
        }
        let c = (at % n) as NodeId;
        let heads = b.neighbors(c).to_vec();
        if heads.is_empty() {
            return Ok(());
        }
        let mut graph = b.build();
        graph.apply(&heads.iter().map(|&h| Change::Disconnect(c, h)).collect::<Vec<_>>()).unwrap();
        for &h in &heads {
            b.disconnect(c, h);
        }
        let fresh = b.build();
        same_answers(&graph, &fresh, 0);
        same_table(&graph, &fresh, 0);
    }
}
