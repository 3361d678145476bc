//! Rooms against plain references: paths inside the walkable area on random grids and on the
//! shared Moving AI maps, `next_region` against the article's min-plus matrix squaring, doors
//! (closed, one way, reopened) against fresh builds.

use crate::common::{MinPlus, check_grid_query, components, open_cells, segment_is_walkable, states_from};
use proptest::prelude::*;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid, parse_map};
use signposts_rooms::{DoorId, DoorNodes, DoorState, NavMesh, Point, RegionId, Rooms};

fn grid_strategy() -> impl Strategy<Value = Grid> {
    (2u32..12, 2u32..12)
        .prop_flat_map(|(w, h)| {
            (Just(w), Just(h), proptest::collection::vec(proptest::bool::weighted(0.68), (w * h) as usize))
        })
        .prop_map(|(w, h, open)| Grid::from_slice(w, h, &open).expect("sizes match"))
}

/// A point inside an open cell: its centre, a corner, or somewhere in between.
fn point_in(cell: Cell, rng: &mut SplitMix64) -> Point {
    let f =
        |rng: &mut SplitMix64| [0.0, 0.5, 1.0, 0.25, rng.below(1000) as f64 / 1000.0][rng.below(5) as usize];
    Point::new(f64::from(cell.x) + f(rng), f64::from(cell.y) + f(rng))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every path between points of open cells stays in the walkable area, starts and ends
    /// where asked, exists exactly when the points are connected, and begins with
    /// `next_waypoint`.
    #[test]
    fn grid_paths_stay_in_the_walkable_area(grid in grid_strategy(), seed in any::<u64>()) {
        let open = open_cells(&grid);
        prop_assume!(!open.is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        prop_assert_eq!(mesh.check(), Ok(()));
        let rooms = Rooms::build(&mesh).unwrap();
        let comps = components(&grid);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..40 {
            let s = open[rng.below(open.len() as u64) as usize];
            let t = open[rng.below(open.len() as u64) as usize];
            check_grid_query(&grid, &rooms, &comps, (s, point_in(s, &mut rng)), (t, point_in(t, &mut rng)));
        }
    }

    /// `next_region` is a first region of some shortest walk of the oracle's graph, closed by
    /// min-plus matrix squaring; `None` exactly when the regions are equal or not connected.
    #[test]
    fn next_region_follows_the_min_plus_closure(grid in grid_strategy(), bits in proptest::collection::vec(any::<u8>(), 64), ends in any::<bool>()) {
        prop_assume!(grid.passable_len() > 0);
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let door_nodes = if ends { DoorNodes::Ends } else { DoorNodes::Midpoints };
        let rooms = Rooms::builder(&mesh).door_states(states_from(&mesh, &bits)).door_nodes(door_nodes).build().unwrap();
        let reference = MinPlus::new(&rooms);
        for a in 0..mesh.regions_len() as u32 {
            for b in 0..mesh.regions_len() as u32 {
                let (a, b) = (RegionId(a), RegionId(b));
                let next = rooms.next_region(a, b);
                if a == b || reference.distance(a.0, b.0) >= crate::common::INF {
                    prop_assert_eq!(next, None);
                    continue;
                }
                let allowed = reference.first_regions(&rooms, a, b);
                prop_assert!(next.is_some_and(|r| allowed.contains(&r)), "{a:?} → {b:?}: {next:?} not in {allowed:?}");
                prop_assert_eq!(rooms.table().cost(a.0, b.0).map(|c| c.straight), Some(reference.distance(a.0, b.0)));
            }
        }
    }

    /// Doors set one by one on a built oracle (repaired in place) answer as a fresh build with
    /// those states, and setting them back answers as the fresh open build; corridors cross
    /// one-way doors only their way and closed doors never.
    #[test]
    fn doors_repaired_in_place_answer_as_fresh_builds(grid in grid_strategy(), bits in proptest::collection::vec(any::<u8>(), 64), ends in any::<bool>()) {
        prop_assume!(grid.passable_len() > 0);
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let states = states_from(&mesh, &bits);
        let door_nodes = if ends { DoorNodes::Ends } else { DoorNodes::Midpoints };
        let fresh = Rooms::builder(&mesh).door_states(states.clone()).door_nodes(door_nodes).build().unwrap();
        let mut edited = Rooms::builder(&mesh).door_nodes(door_nodes).build().unwrap();
        for (d, &state) in states.iter().enumerate() {
            edited.set_door_state(DoorId(d as u32), state).unwrap();
        }
        let n = fresh.table().nodes_len() as u32;
        for u in 0..n {
            for v in 0..n {
                prop_assert_eq!(edited.table().cost(u, v), fresh.table().cost(u, v), "{} → {}", u, v);
            }
        }
        for a in 0..mesh.regions_len() as u32 {
            for b in 0..mesh.regions_len() as u32 {
                let Some(regions) = edited.region_path(RegionId(a), RegionId(b)) else { continue };
                for pair in regions.windows(2) {
                    let door = mesh.doors_of(pair[0]).iter().copied().find(|&d| mesh.door(d).other(pair[0]) == pair[1]);
                    let door = door.expect("consecutive regions share a door");
                    let state = edited.door_state(door).unwrap();
                    prop_assert!(state == DoorState::Open || state == DoorState::OneWay { from: pair[0] }, "{door:?} crossed from {:?} while {state:?}", pair[0]);
                }
            }
        }
        for d in 0..mesh.doors_len() as u32 {
            edited.set_door_open(DoorId(d), true).unwrap();
        }
        let open = Rooms::builder(&mesh).door_nodes(door_nodes).build().unwrap();
        for u in 0..n {
            for v in 0..n {
                prop_assert_eq!(edited.table().cost(u, v), open.table().cost(u, v));
            }
        }
    }
}

fn shared_map(name: &str) -> Grid {
    let path = format!("{}/../../maps/{name}", env!("CARGO_MANIFEST_DIR"));
    parse_map(&std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).expect("a valid map")
}

#[test]
fn shared_map_paths_stay_in_the_walkable_area() {
    for (name, queries) in
        [("arena.map", 2000), ("den312d.map", 2000), ("lak303d.map", 1000), ("brc202d.map", 300)]
    {
        let grid = shared_map(name);
        let mesh = NavMesh::from_grid(&grid).unwrap();
        assert_eq!(mesh.check(), Ok(()), "{name}");
        assert!(
            mesh.regions_len() * 10 < grid.passable_len(),
            "{name}: {} regions for {} cells",
            mesh.regions_len(),
            grid.passable_len()
        );
        let rooms = Rooms::build(&mesh).unwrap();
        let comps = components(&grid);
        let open = open_cells(&grid);
        let mut rng = SplitMix64::new(7);
        for _ in 0..queries {
            let s = open[rng.below(open.len() as u64) as usize];
            let t = open[rng.below(open.len() as u64) as usize];
            check_grid_query(&grid, &rooms, &comps, (s, point_in(s, &mut rng)), (t, point_in(t, &mut rng)));
        }
    }
}

#[test]
fn a_pinch_point_is_a_door() {
    // Two rooms meeting only at the corner (2, 2): the path goes through it.
    let grid = Grid::from_ascii(
        "
        ..#
        ..#
        ##.
    ",
    )
    .unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    assert!(mesh.doors().iter().any(|d| d.is_point() && d.ends[0] == Point::new(2.0, 2.0)));
    let rooms = Rooms::build(&mesh).unwrap();
    // Straight through: the pinch may stay in the path as a waypoint on the line.
    let path = rooms.path(Point::new(0.5, 0.5), Point::new(2.5, 2.5)).expect("through the pinch");
    assert!((path.length() - 8f64.sqrt()).abs() < 1e-12, "{path:?}");
    let path = rooms.path(Point::new(1.5, 0.5), Point::new(2.5, 2.9)).expect("through the pinch");
    assert_eq!(path.points(), [Point::new(1.5, 0.5), Point::new(2.0, 2.0), Point::new(2.5, 2.9)]);
    assert!(segment_is_walkable(&grid, Point::new(1.5, 0.5), Point::new(2.0, 2.0)));
}

#[test]
#[expect(clippy::float_cmp, reason = "grid corners are integers")]
fn closing_the_only_door_disconnects_and_reopening_restores() {
    let grid = Grid::from_ascii(
        "
        ....#....
        ....#....
        .........
        ....#....
    ",
    )
    .unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let mut rooms = Rooms::build(&mesh).unwrap();
    let (s, t) = (Point::new(0.5, 0.5), Point::new(8.5, 0.5));
    let before = rooms.path(s, t).unwrap();
    // Close every door that the path's corridor crosses at x = 4..5 (the gap).
    let gap: Vec<DoorId> = (0..mesh.doors_len() as u32)
        .map(DoorId)
        .filter(|&d| {
            mesh.door(d).ends.iter().all(|p| p.x == 4.0 || p.x == 5.0)
                && mesh.door(d).ends.iter().any(|p| p.y == 2.0 || p.y == 3.0)
        })
        .collect();
    assert!(!gap.is_empty());
    for &d in &gap {
        rooms.set_door_open(d, false).unwrap();
    }
    assert_eq!(rooms.path(s, t), None);
    assert_eq!(rooms.next_waypoint(s, t), None);
    for &d in &gap {
        rooms.set_door_open(d, true).unwrap();
    }
    assert_eq!(rooms.path(s, t), Some(before));
}
