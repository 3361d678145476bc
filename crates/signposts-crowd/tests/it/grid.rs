//! Grid walkers with cell capacity: the rules on hand-made scenes, then properties on random
//! grids checked against brute-force distances.

use proptest::prelude::*;
use signposts::NodeId;
use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
use signposts_crowd::grid::{Error, GridCrowd, Tick};

fn oracle(picture: &str, connectivity: Connectivity) -> GridOracle {
    GridOracle::build(&Grid::from_ascii(picture).unwrap(), connectivity).unwrap()
}

fn node(oracle: &GridOracle, x: u32, y: u32) -> NodeId {
    oracle.node(Cell::new(x, y)).unwrap()
}

#[test]
fn head_on_in_a_one_cell_corridor_swaps() {
    let oracle = oracle("######\n......\n######", Connectivity::Eight);
    let mut crowd = GridCrowd::new(&oracle);
    let a = crowd.add(node(&oracle, 0, 1), node(&oracle, 5, 1)).unwrap();
    let b = crowd.add(node(&oracle, 5, 1), node(&oracle, 0, 1)).unwrap();
    let mut swapped = 0;
    for _ in 0..5 {
        let tick = crowd.tick(&oracle.table()).unwrap();
        assert_eq!((tick.moved, tick.waited, tick.sidesteps), (2, 0, 0));
        swapped += tick.swapped;
    }
    assert_eq!(swapped, 2, "they meet once, on adjacent cells (an odd gap)");
    assert_eq!((crowd.position(a), crowd.position(b)), (node(&oracle, 5, 1), node(&oracle, 0, 1)));
    let tick = crowd.tick(&oracle.table()).unwrap();
    assert_eq!(tick.arrived, 2);
}

#[test]
fn a_queue_advances_as_a_whole() {
    let oracle = oracle("..........", Connectivity::Four);
    // Added front last, so that resolving in index order meets the blocked ones first.
    let mut crowd = GridCrowd::new(&oracle);
    for x in 0..4 {
        crowd.add(node(&oracle, x, 0), node(&oracle, 9, 0)).unwrap();
    }
    let tick = crowd.tick(&oracle.table()).unwrap();
    assert_eq!((tick.moved, tick.waited), (4, 0));
    assert_eq!(crowd.positions(), [1, 2, 3, 4]);
}

#[test]
fn walkers_wait_behind_an_arrived_one_then_sidestep_when_allowed() {
    let picture = "...\n...";
    let oracle = oracle(picture, Connectivity::Four);
    for (after, sidestep_tick) in [(None, None), (Some(0), Some(1)), (Some(2), Some(3))] {
        let mut crowd = GridCrowd::new(&oracle).with_sidestep_after(after);
        crowd.add(node(&oracle, 1, 0), node(&oracle, 1, 0)).unwrap(); // parked on the way
        let walker = crowd.add(node(&oracle, 0, 0), node(&oracle, 2, 0)).unwrap();
        let mut sidestepped = None;
        for t in 1..=12 {
            let tick = crowd.tick(&oracle.table()).unwrap();
            if tick.sidesteps > 0 {
                assert_eq!(tick.sidesteps, 1);
                assert_eq!(crowd.position(walker), node(&oracle, 0, 1), "the only free neighbour");
                sidestepped.get_or_insert(t);
            }
        }
        assert_eq!(sidestepped, sidestep_tick, "sidestep after {after:?}");
        if after.is_some() {
            assert_eq!(crowd.position(walker), node(&oracle, 2, 0), "around the parked one");
        } else {
            assert_eq!(crowd.position(walker), node(&oracle, 0, 0));
            assert_eq!(crowd.waited(walker), 12);
        }
    }
}

#[test]
fn capacity_lets_walkers_share_cells_up_to_it() {
    let oracle = oracle(".....", Connectivity::Four);
    let target = node(&oracle, 4, 0);
    let mut crowd = GridCrowd::new(&oracle).with_cell_capacity(2);
    for _ in 0..2 {
        for x in 0..3 {
            crowd.add(node(&oracle, x, 0), x).unwrap();
        }
    }
    assert_eq!(crowd.add(0, 0), Err(Error::CellFull { node: 0, capacity: 2 }));
    for _ in 0..10 {
        crowd.tick_toward(&oracle.table(), target).unwrap();
    }
    let mut positions = crowd.positions().to_vec();
    positions.sort_unstable();
    assert_eq!(positions, [2, 2, 3, 3, 4, 4]);
    let tick = crowd.tick_toward(&oracle.table(), target).unwrap();
    assert_eq!((tick.moved, tick.waited, tick.arrived), (0, 4, 2));
}

#[test]
fn bad_ids_and_tables_are_errors_that_change_nothing() {
    let oracle = oracle("...\n.#.", Connectivity::Four);
    let mut crowd = GridCrowd::new(&oracle);
    assert_eq!(crowd.add(5, 0), Err(Error::NodeOutOfRange { node: 5, nodes: 5 }));
    assert_eq!(crowd.add(0, 9), Err(Error::NodeOutOfRange { node: 9, nodes: 5 }));
    crowd.add(0, 4).unwrap();
    assert_eq!(crowd.set_goal(0, 7), Err(Error::NodeOutOfRange { node: 7, nodes: 5 }));
    assert_eq!(crowd.tick_toward(&oracle.table(), 5), Err(Error::NodeOutOfRange { node: 5, nodes: 5 }));
    let other = GridOracle::build(&Grid::new(3, 3), Connectivity::Four).unwrap();
    let err = crowd.tick(&other.table()).unwrap_err();
    assert_eq!(err, Error::TableMismatch { table: 9, crowd: 5 });
    assert!(err.to_string().contains("9 nodes"), "{err}");
    assert_eq!(crowd.positions(), [0]);
}

#[test]
fn a_waiting_walker_takes_the_new_moves_after_an_oracle_change() {
    let mut oracle = oracle("....\n....\n....", Connectivity::Four);
    let mut crowd = GridCrowd::new(&oracle);
    crowd.add(node(&oracle, 1, 1), node(&oracle, 1, 1)).unwrap(); // parked on its only way
    let walker = crowd.add(node(&oracle, 0, 1), node(&oracle, 3, 1)).unwrap();
    assert_eq!(crowd.tick(&oracle.table()).unwrap().waited, 1);
    // (2, 1) closes: going round by the top or bottom row ties with going through (1, 1).
    oracle.set_blocked(Cell::new(2, 1), true).unwrap();
    crowd.oracle_changed(&oracle).unwrap();
    assert_eq!(crowd.tick(&oracle.table()).unwrap().moved, 1);
    let at = crowd.position(walker);
    assert!([node(&oracle, 0, 0), node(&oracle, 0, 2)].contains(&at), "{:?}", oracle.cell(at));
}

#[test]
fn sidesteps_keep_off_cells_blocked_since_the_build() {
    let mut oracle = oracle("....\n....", Connectivity::Four);
    oracle.set_blocked(Cell::new(1, 1), true).unwrap();
    for fresh in [false, true] {
        let mut crowd = GridCrowd::new(&oracle).with_sidestep_after(Some(0));
        if !fresh {
            let other = GridOracle::build(&Grid::new(4, 2), Connectivity::Four).unwrap();
            crowd = GridCrowd::new(&other).with_sidestep_after(Some(0));
            crowd.oracle_changed(&oracle).unwrap();
        }
        crowd.add(node(&oracle, 2, 0), node(&oracle, 2, 0)).unwrap(); // parked
        let walker = crowd.add(node(&oracle, 1, 0), node(&oracle, 3, 0)).unwrap();
        let tick = crowd.tick(&oracle.table()).unwrap();
        assert_eq!((tick.sidesteps, crowd.position(walker)), (1, node(&oracle, 0, 0)));
    }
    let small = GridOracle::build(&Grid::new(2, 2), Connectivity::Four).unwrap();
    let mut crowd = GridCrowd::new(&oracle);
    assert_eq!(crowd.oracle_changed(&small), Err(Error::TableMismatch { table: 4, crowd: 8 }));
}

/// Brute-force shortest distances to `goal` over the grid's moves (Dijkstra, √2 diagonals).
fn distances(oracle: &GridOracle, goal: NodeId) -> Vec<f64> {
    let n = oracle.nodes_len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[goal as usize] = 0.0;
    for _ in 0..n {
        let Some(u) =
            (0..n).filter(|&u| !done[u] && dist[u].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        else {
            break;
        };
        done[u] = true;
        for (v, cost) in moves(oracle, u as NodeId) {
            dist[v as usize] = dist[v as usize].min(dist[u] + cost);
        }
    }
    dist
}

/// The grid's moves from `u`: (neighbour, cost).
fn moves(oracle: &GridOracle, u: NodeId) -> Vec<(NodeId, f64)> {
    let cell = oracle.cell(u).unwrap();
    let diagonal = oracle.connectivity() != Connectivity::Four;
    Direction::ALL
        .into_iter()
        .filter(|d| diagonal || !d.is_diagonal())
        .filter_map(|d| {
            let to = oracle.grid().step(cell, d)?;
            Some((oracle.node(to)?, if d.is_diagonal() { 2f64.sqrt() } else { 1.0 }))
        })
        .collect()
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// A random scene: a grid, walkers as (cell, goal) picks, a capacity, sidesteps, a target.
#[derive(Debug, Clone)]
struct Scene {
    width: u32,
    open: Vec<bool>,
    eight: bool,
    walkers: Vec<(usize, usize)>,
    capacity: u16,
    sidestep_after: Option<u32>,
    shared: Option<usize>,
}

fn scene() -> impl Strategy<Value = Scene> {
    (2u32..9, 1u32..7).prop_flat_map(|(width, height)| {
        let cells = (width * height) as usize;
        (
            prop::collection::vec(prop::bool::weighted(0.75), cells),
            any::<bool>(),
            prop::collection::vec((any::<usize>(), any::<usize>()), 0..24),
            1u16..4,
            prop::option::of(0u32..4),
            prop::option::weighted(0.3, any::<usize>()),
        )
            .prop_map(move |(open, eight, walkers, capacity, sidestep_after, shared)| Scene {
                width,
                open,
                eight,
                walkers,
                capacity,
                sidestep_after,
                shared,
            })
    })
}

impl Scene {
    fn oracle(&self) -> GridOracle {
        let height = self.open.len() as u32 / self.width;
        let grid = Grid::from_slice(self.width, height, &self.open).unwrap();
        let connectivity = if self.eight { Connectivity::Eight } else { Connectivity::Four };
        GridOracle::build(&grid, connectivity).unwrap()
    }

    /// The crowd (walkers whose cell is full are skipped) and the shared target.
    fn crowd(&self, oracle: &GridOracle) -> Option<(GridCrowd, Option<NodeId>)> {
        let n = oracle.nodes_len();
        if n == 0 {
            return None;
        }
        let mut crowd =
            GridCrowd::new(oracle).with_cell_capacity(self.capacity).with_sidestep_after(self.sidestep_after);
        for &(at, goal) in &self.walkers {
            match crowd.add((at % n) as NodeId, (goal % n) as NodeId) {
                Ok(_) | Err(Error::CellFull { .. }) => {}
                Err(e) => panic!("{e}"),
            }
        }
        Some((crowd, self.shared.map(|t| (t % n) as NodeId)))
    }
}

fn tick(crowd: &mut GridCrowd, oracle: &GridOracle, target: Option<NodeId>) -> Tick {
    match target {
        Some(target) => crowd.tick_toward(&oracle.table(), target).unwrap(),
        None => crowd.tick(&oracle.table()).unwrap(),
    }
}

fn run_in_pool(threads: usize, scene: &Scene, oracle: &GridOracle, ticks: usize) -> Vec<(Vec<NodeId>, Tick)> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let Some((mut crowd, target)) = scene.crowd(oracle) else { return Vec::new() };
        (0..ticks)
            .map(|_| {
                let t = tick(&mut crowd, oracle, target);
                (crowd.positions().to_vec(), t)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// After every tick: no cell over capacity (and the crowd's counts exact); every move
    /// to a grid neighbour that is open; every move optimal toward the walker's goal
    /// (brute-force distances) except exactly `sidesteps` of them; the counts partition the
    /// walkers exactly.
    #[test]
    fn ticks_keep_capacity_and_take_optimal_moves(scene in scene(), mut retarget: (usize, usize)) {
        let oracle = scene.oracle();
        let Some((mut crowd, target)) = scene.crowd(&oracle) else { return Ok(()) };
        let n = oracle.nodes_len();
        let goal_distances: Vec<Vec<f64>> = (0..n as NodeId).map(|g| distances(&oracle, g)).collect();
        for _ in 0..12 {
            let before = crowd.positions().to_vec();
            let waited: Vec<u32> = (0..crowd.len()).map(|w| crowd.waited(w)).collect();
            let t = tick(&mut crowd, &oracle, target);
            let mut counts = vec![0u16; n];
            for &p in crowd.positions() {
                counts[p as usize] += 1;
            }
            for (v, &count) in counts.iter().enumerate() {
                prop_assert!(count <= scene.capacity);
                prop_assert_eq!(crowd.occupancy(v as NodeId), count);
            }
            let (mut moved, mut non_optimal, mut arrived, mut stranded) = (0, 0, 0, 0);
            for (w, (&from, &to)) in before.iter().zip(crowd.positions()).enumerate() {
                let goal = target.unwrap_or(crowd.goals()[w]);
                let dist = &goal_distances[goal as usize];
                if from == goal {
                    arrived += 1;
                    prop_assert_eq!(to, from);
                    continue;
                }
                if dist[from as usize].is_infinite() {
                    stranded += 1;
                    prop_assert_eq!(to, from);
                    continue;
                }
                if to == from {
                    continue;
                }
                moved += 1;
                prop_assert!(oracle.grid().is_passable(oracle.cell(to).unwrap()));
                let step = moves(&oracle, from).into_iter().find(|&(v, _)| v == to);
                prop_assert!(step.is_some(), "{from} -> {to} is not a move of the grid");
                let (_, cost) = step.unwrap();
                if !same(dist[to as usize] + cost, dist[from as usize]) {
                    non_optimal += 1;
                    prop_assert!(scene.sidestep_after.is_some_and(|after| waited[w] >= after));
                }
            }
            prop_assert_eq!(t.moved, moved);
            prop_assert_eq!(t.sidesteps, non_optimal);
            prop_assert_eq!((t.arrived, t.stranded), (arrived, stranded));
            prop_assert_eq!(t.moved + t.waited + t.arrived + t.stranded, crowd.len());
            if !crowd.is_empty() {
                // A new goal: the walker's remembered moves must not outlive it.
                let (w, goal) = (retarget.0 % crowd.len(), (retarget.1 % n) as NodeId);
                crowd.set_goal(w, goal).unwrap();
                retarget = (retarget.0 / 3 + 1, retarget.1 / 5 + 7);
            }
        }
    }

    /// The same positions and counts, tick after tick, on pools of 1, 2 and 3 threads.
    #[test]
    fn ticks_are_the_same_for_any_thread_count(scene in scene()) {
        let oracle = scene.oracle();
        let one = run_in_pool(1, &scene, &oracle, 10);
        prop_assert_eq!(&one, &run_in_pool(2, &scene, &oracle, 10));
        prop_assert_eq!(&one, &run_in_pool(3, &scene, &oracle, 10));
    }

    /// Two walkers head for each other's cells along a one-cell corridor (walls above and
    /// below): both arrive within their distance plus one tick (with an even gap, one waits
    /// while the other takes the middle cell), without a sidestep.
    #[test]
    fn head_on_corridor_meetings_resolve(len in 2u32..14, a in any::<u32>(), b in any::<u32>(), eight: bool) {
        let (a, b) = (a % len, b % len);
        prop_assume!(a != b);
        let grid = Grid::from_fn(len, 3, |c| c.y == 1);
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let oracle = GridOracle::build(&grid, connectivity).unwrap();
        let (na, nb) = (node(&oracle, a, 1), node(&oracle, b, 1));
        let mut crowd = GridCrowd::new(&oracle);
        crowd.add(na, nb).unwrap();
        crowd.add(nb, na).unwrap();
        let mut waits = 0;
        for _ in 0..=a.abs_diff(b) {
            let t = crowd.tick(&oracle.table()).unwrap();
            prop_assert_eq!(t.sidesteps, 0);
            waits += t.waited;
        }
        prop_assert_eq!(waits, usize::from(a.abs_diff(b) % 2 == 0));
        prop_assert_eq!(crowd.positions(), [nb, na]);
    }
}

#[test]
fn move_to_keeps_the_capacity_and_swap_remove_hands_the_index_on() {
    let oracle = oracle("....\n....", Connectivity::Four);
    let n = |x, y| node(&oracle, x, y);
    let mut crowd = GridCrowd::new(&oracle);
    let a = crowd.add(n(0, 0), n(3, 0)).unwrap();
    let b = crowd.add(n(1, 1), n(3, 1)).unwrap();
    let c = crowd.add(n(2, 1), n(0, 1)).unwrap();
    assert_eq!(crowd.move_to(a, n(1, 1)), Err(Error::CellFull { node: n(1, 1), capacity: 1 }));
    assert_eq!(crowd.position(a), n(0, 0), "a refused move changes nothing");
    assert_eq!(crowd.move_to(a, 99), Err(Error::NodeOutOfRange { node: 99, nodes: 8 }));
    crowd.move_to(a, n(0, 0)).unwrap(); // where it stands: allowed
    crowd.move_to(a, n(3, 1)).unwrap();
    assert_eq!((crowd.occupancy(n(0, 0)), crowd.occupancy(n(3, 1))), (0, 1));
    crowd.tick(&oracle.table()).unwrap();
    assert_eq!(crowd.position(a), n(3, 0), "its moves were asked from its new cell");
    assert_eq!(crowd.swap_remove(b), (n(2, 1), n(3, 1)));
    assert_eq!(crowd.len(), 2);
    assert_eq!((crowd.position(b), crowd.goals()[b]), (n(1, 1), n(0, 1)), "c took b's index");
    assert_eq!(crowd.occupancy(n(2, 1)), 0);
    crowd.tick(&oracle.table()).unwrap();
    assert_eq!(crowd.position(b), n(0, 1), "the walker now at index b heads for c's goal");
    assert_eq!(crowd.swap_remove(crowd.len() - 1).1, n(0, 1));
    let _ = c;
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Adds, teleports, removals and ticks in any order: the counts stay exact and within
    /// the capacity, and every move a tick makes is optimal or a counted sidestep (checked as
    /// in the property above, on the walkers that were there before the tick).
    #[test]
    fn edits_between_ticks_keep_the_counts_and_the_moves_optimal(
        scene in scene(),
        edits in prop::collection::vec((0u8..4, any::<usize>(), any::<usize>()), 0..40),
    ) {
        let oracle = scene.oracle();
        let Some((mut crowd, _)) = scene.crowd(&oracle) else { return Ok(()) };
        let n = oracle.nodes_len();
        let goal_distances: Vec<Vec<f64>> = (0..n as NodeId).map(|g| distances(&oracle, g)).collect();
        for (op, x, y) in edits {
            match op {
                0 => match crowd.add((x % n) as NodeId, (y % n) as NodeId) {
                    Ok(_) | Err(Error::CellFull { .. }) => {}
                    Err(e) => panic!("{e}"),
                },
                1 if !crowd.is_empty() => match crowd.move_to(x % crowd.len(), (y % n) as NodeId) {
                    Ok(()) | Err(Error::CellFull { .. }) => {}
                    Err(e) => panic!("{e}"),
                },
                2 if !crowd.is_empty() => {
                    let w = x % crowd.len();
                    let (last_at, last_goal) = (*crowd.positions().last().unwrap(), *crowd.goals().last().unwrap());
                    let (at, goal) = (crowd.position(w), crowd.goals()[w]);
                    prop_assert_eq!(crowd.swap_remove(w), (at, goal));
                    if w < crowd.len() {
                        prop_assert_eq!((crowd.position(w), crowd.goals()[w]), (last_at, last_goal));
                    }
                }
                _ => {
                    let before = crowd.positions().to_vec();
                    let t = crowd.tick(&oracle.table()).unwrap();
                    let mut non_optimal = 0;
                    for (w, (&from, &to)) in before.iter().zip(crowd.positions()).enumerate() {
                        let dist = &goal_distances[crowd.goals()[w] as usize];
                        if from != to && !same(dist[to as usize] + moves(&oracle, from).iter().find(|m| m.0 == to).unwrap().1, dist[from as usize]) {
                            non_optimal += 1;
                        }
                    }
                    prop_assert_eq!(non_optimal, t.sidesteps);
                }
            }
            let mut counts = vec![0u16; n];
            for &p in crowd.positions() {
                counts[p as usize] += 1;
            }
            for (v, &count) in counts.iter().enumerate() {
                prop_assert!(count <= scene.capacity);
                prop_assert_eq!(crowd.occupancy(v as NodeId), count);
            }
        }
    }
}
