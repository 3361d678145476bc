//! Edited compressed tables: every answer after every random edit sequence is an optimal move
//! of the edited grid (checked against Dijkstra), reachability exact, and saved edited tables
//! load with the same answers.

use std::collections::BinaryHeap;

use proptest::prelude::*;
use signposts::dynamic::Change;
use signposts::format::Check;
use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
use signposts::{CompressedGraph, Cost, Error, NextHop};

/// Exact costs from `to` to every cell of `grid` (`None`: blocked or unreachable).
fn costs_to(grid: &Grid, connectivity: Connectivity, to: Cell) -> Vec<Option<Cost>> {
    let w = grid.width() as usize;
    let index = |c: Cell| c.y as usize * w + c.x as usize;
    let mut dist: Vec<Option<Cost>> = vec![None; w * grid.height() as usize];
    let mut heap = BinaryHeap::new();
    dist[index(to)] = Some(Cost::ZERO);
    heap.push(core::cmp::Reverse((Cost::ZERO, to.x, to.y)));
    while let Some(core::cmp::Reverse((d, x, y))) = heap.pop() {
        let c = Cell::new(x, y);
        if dist[index(c)] != Some(d) {
            continue;
        }
        for (next, step) in moves(grid, connectivity, c) {
            let through = d + step;
            if dist[index(next)].is_none_or(|old| through < old) {
                dist[index(next)] = Some(through);
                heap.push(core::cmp::Reverse((through, next.x, next.y)));
            }
        }
    }
    dist
}

/// The moves out of `c` on the grid as it is, with their costs.
fn moves(grid: &Grid, connectivity: Connectivity, c: Cell) -> Vec<(Cell, Cost)> {
    let directions: &[Direction] = match connectivity {
        Connectivity::Four => &[Direction::North, Direction::East, Direction::South, Direction::West],
        _ => &Direction::ALL,
    };
    directions
        .iter()
        .filter_map(|&d| {
            let next = grid.step(c, d)?;
            let diagonal = next.x != c.x && next.y != c.y;
            let cost = match connectivity {
                Connectivity::Eight if diagonal => Cost { straight: 0, diagonal: 1 },
                _ => Cost::integer(1),
            };
            Some((next, cost))
        })
        .collect()
}

/// Every answer of `oracle` between open cells: steps optimal, costs exact, reachability.
fn check_all(oracle: &GridOracle) -> Result<(), TestCaseError> {
    let grid = oracle.grid();
    let connectivity = oracle.connectivity();
    let cells: Vec<Cell> =
        (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y))).collect();
    let index = |c: Cell| (c.y * grid.width() + c.x) as usize;
    for &to in cells.iter().filter(|&&c| grid.is_passable(c)) {
        let dist = costs_to(grid, connectivity, to);
        for &from in cells.iter().filter(|&&c| grid.is_passable(c)) {
            let d = dist[index(from)];
            prop_assert_eq!(oracle.path_exists(from, to), d.is_some(), "{:?} → {:?}", from, to);
            prop_assert_eq!(oracle.cost(from, to), d, "{:?} → {:?}", from, to);
            let step = oracle.next_step(from, to);
            prop_assert_eq!(step.is_some(), d.is_some() && from != to, "{:?} → {:?}", from, to);
            let steps: Vec<Direction> = oracle.next_steps(from, to).collect();
            prop_assert_eq!(!steps.is_empty(), step.is_some());
            for dir in step.into_iter().chain(steps) {
                let next = grid.step(from, dir);
                prop_assert!(next.is_some(), "{:?} → {:?}: {:?} is not a move", from, to, dir);
                let next = next.unwrap();
                let cost = moves(grid, connectivity, from).into_iter().find(|m| m.0 == next).unwrap().1;
                prop_assert_eq!(dist[index(next)].map(|n| n + cost), d, "{:?} → {:?} by {:?}", from, to, dir);
            }
        }
    }
    Ok(())
}

/// Saved and loaded (streamed and in place), the oracle answers as before.
fn check_round_trip(oracle: &GridOracle) -> Result<(), TestCaseError> {
    let mut bytes = Vec::new();
    oracle.save(&mut bytes).unwrap();
    let loaded = GridOracle::load(bytes.as_slice()).unwrap();
    let opened = GridOracle::from_bytes(bytes, Check::Full).unwrap();
    let grid = oracle.grid();
    let cells: Vec<Cell> =
        (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y))).collect();
    prop_assert_eq!(loaded.compressed_table(), oracle.compressed_table());
    for &a in &cells {
        for &b in &cells {
            prop_assert_eq!(loaded.next_step(a, b), oracle.next_step(a, b));
            prop_assert_eq!(opened.next_step(a, b), oracle.next_step(a, b));
            prop_assert_eq!(opened.path_exists(a, b), oracle.path_exists(a, b));
        }
    }
    Ok(())
}

fn grid_of(width: u32, height: u32, walls: &[bool]) -> Grid {
    Grid::from_fn(width, height, |c| !walls[(c.y * width + c.x) as usize % walls.len()])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random grids, random batches of cells blocked and opened: after each batch every
    /// answer is optimal on the edited grid; saved and loaded, the same answers.
    #[test]
    fn edited_compressed_grid_oracles_answer_optimally(
        width in 2u32..8, height in 2u32..7, eight in any::<bool>(),
        walls in prop::collection::vec(prop::bool::weighted(0.25), 1..64),
        batches in prop::collection::vec(prop::collection::vec((0u32..8, 0u32..7, any::<bool>()), 1..4), 1..6),
    ) {
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let grid = grid_of(width, height, &walls);
        let mut oracle = GridOracle::build_compressed(&grid, connectivity).unwrap();
        for batch in &batches {
            let edits: Vec<(Cell, bool)> = batch
                .iter()
                .map(|&(x, y, blocked)| (Cell::new(x % width, y % height), blocked))
                .collect();
            oracle.apply(&edits).unwrap();
            prop_assert!(oracle.is_compressed());
            check_all(&oracle)?;
            check_round_trip(&oracle)?;
            prop_assert!(!oracle.table().keeps_every_move());
        }
        // Every cell back as built: the runs alone answer again.
        let back: Vec<(Cell, bool)> = (0..height)
            .flat_map(|y| (0..width).map(move |x| Cell::new(x, y)))
            .map(|c| (c, !grid.is_passable(c)))
            .collect();
        oracle.apply(&back).unwrap();
        check_all(&oracle)?;
    }

    /// Single cells toggled one at a time on the graph level, against a fresh build's costs.
    #[test]
    fn compressed_graph_edits_keep_costs_exact(
        width in 2u32..7, height in 2u32..6, eight in any::<bool>(),
        cuts in prop::collection::vec((0usize..64, 0usize..8, any::<bool>()), 1..12),
    ) {
        let connectivity = if eight {
            signposts::generate::Connectivity::Eight
        } else {
            signposts::generate::Connectivity::Four
        };
        let builder = signposts::generate::grid(width as usize, height as usize, connectivity);
        let mut table = builder.build_compressed().unwrap();
        let n = table.nodes_len();
        let mut edited = builder.clone();
        for &(v, s, restore) in &cuts {
            let v = (v % n) as u32;
            let Some(&w) = builder.neighbors(v).get(s % builder.neighbors(v).len().max(1)) else { continue };
            let change = if restore {
                let cost = builder.cost(v, w).unwrap();
                edited.connect_weighted(v, w, cost);
                Change::ConnectWeighted(v, w, cost)
            } else {
                edited.disconnect(v, w);
                Change::Disconnect(v, w)
            };
            table.apply(&[change]).unwrap();
            prop_assert_eq!(table.fingerprint(), edited.fingerprint());
            let fresh = edited.build();
            for a in 0..n as u32 {
                for b in 0..n as u32 {
                    prop_assert_eq!(table.cost(a, b), fresh.cost(a, b), "{} → {}", a, b);
                    prop_assert_eq!(table.path_exists(a, b), fresh.path_exists(a, b));
                }
            }
            let mut bytes = Vec::new();
            table.save(&mut bytes).unwrap();
            prop_assert_eq!(&CompressedGraph::load(bytes.as_slice()).unwrap(), &table);
        }
    }
}

#[test]
fn compressed_edits_refuse_edges_the_build_lacks() {
    let mut b = signposts::Graph::builder(3);
    b.connect(0, 1).connect(1, 2);
    let mut table = b.build_compressed().unwrap();
    assert!(matches!(table.apply(&[Change::Connect(0, 2)]), Err(Error::Unsupported { .. })));
    assert!(matches!(table.apply(&[Change::ConnectWeighted(0, 1, 5)]), Err(Error::Unsupported { .. })));
    assert!(matches!(table.apply(&[Change::Disconnect(0, 9)]), Err(Error::NodeOutOfRange { .. })));
    assert!(!table.is_edited());
    table.disconnect(1, 2).unwrap();
    assert!(!table.path_exists(0, 2) && table.is_edited());
    assert_eq!(table.edges_len(), 1);
    table.connect(1, 2).unwrap();
    assert!(table.path_exists(0, 2) && !table.is_edited());
}

#[test]
fn a_door_closed_in_a_compressed_oracle_is_walked_around() {
    let grid = Grid::from_ascii(
        "
        ......
        .####.
        ......
        ",
    )
    .unwrap();
    let mut oracle = GridOracle::build_compressed(&grid, Connectivity::Four).unwrap();
    let (from, to) = (Cell::new(0, 1), Cell::new(5, 1));
    assert_eq!(oracle.distance(from, to), Some(7.0));
    oracle.set_blocked(Cell::new(2, 0), true).unwrap();
    assert_eq!(oracle.next_step(from, to), Some(Direction::South));
    assert_eq!(oracle.distance(from, to), Some(7.0));
    oracle.set_blocked(Cell::new(2, 2), true).unwrap();
    assert!(!oracle.path_exists(from, to));
    assert_eq!(oracle.next_step(from, to), None);
    oracle.set_blocked(Cell::new(2, 0), false).unwrap();
    assert_eq!(oracle.next_step(from, to), Some(Direction::North));
}

/// A gap of a wall closed while another stays open: the distances toward most targets change,
/// so the table is rebuilt without the gap's edges; reopening it rebuilds the oracle again.
#[test]
fn edits_that_change_most_distances_rebuild_and_stay_exact() {
    let grid = Grid::from_fn(20, 20, |c| c.y != 10 || c.x == 3 || c.x == 16);
    let mut oracle = GridOracle::build_compressed(&grid, Connectivity::Eight).unwrap();
    let gap = Cell::new(16, 10);
    let update = oracle.set_blocked(gap, true).unwrap();
    assert!(update.rebuilt && oracle.is_compressed());
    check_all(&oracle).unwrap();
    check_round_trip(&oracle).unwrap();
    oracle.set_blocked(Cell::new(0, 0), true).unwrap();
    let update = oracle.set_blocked(gap, false).unwrap();
    assert!(update.rebuilt);
    check_all(&oracle).unwrap();
    oracle.set_blocked(Cell::new(0, 0), false).unwrap();
    check_all(&oracle).unwrap();
}
