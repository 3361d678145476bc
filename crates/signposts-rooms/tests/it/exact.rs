//! Exact mode against a brute-force visibility graph: every distance equal within the
//! tolerance, every path inside the walkable area and of that length, every waypoint the first
//! turn of some shortest path.

use crate::common::{
    ClosedDoor, closed_doors, crosses_door, open_cells, segment_in_area, visibility_lengths,
    visibility_lengths_via,
};
use proptest::prelude::*;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid};
use signposts_rooms::{DoorState, ExactRooms, ExactScratch, NavMesh, Point, Tier};

pub(crate) fn grid_strategy() -> impl Strategy<Value = Grid> {
    (2u32..10, 2u32..10)
        .prop_flat_map(|(w, h)| {
            (Just(w), Just(h), proptest::collection::vec(proptest::bool::weighted(0.7), (w * h) as usize))
        })
        .prop_map(|(w, h, open)| Grid::from_slice(w, h, &open).expect("sizes match"))
}

/// A point of an open cell: its centre, a corner, a point on an edge, or anywhere inside (in
/// 1024ths, so that the brute force's side tests are exact: with thousandths a point a
/// rounding off a line through two corners looked on it, and the brute force let a path
/// through a sealed door end).
fn point_in(cell: Cell, rng: &mut SplitMix64) -> Point {
    let f =
        |rng: &mut SplitMix64| [0.0, 0.5, 1.0, 0.25, rng.below(1024) as f64 / 1024.0][rng.below(5) as usize];
    Point::new(f64::from(cell.x) + f(rng), f64::from(cell.y) + f(rng))
}

/// The mesh of a grid through the polygon builder: the map's box, each blocked cell a square
/// obstacle (touching and overlapping squares united by the builder).
pub(crate) fn polygon_mesh(grid: &Grid) -> NavMesh {
    let (w, h) = (f64::from(grid.width()), f64::from(grid.height()));
    let mut builder = NavMesh::builder().boundary([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)].map(Point::from));
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if !grid.is_passable(Cell::new(x, y)) {
                let (x, y) = (f64::from(x), f64::from(y));
                builder = builder
                    .obstacle([(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)].map(Point::from));
            }
        }
    }
    builder.build().expect("a grid's walls are valid polygons")
}

/// Checks every query between `points` against the brute force.
fn check(
    grid: &Grid,
    mesh: &NavMesh,
    exact: &ExactRooms,
    closed: &[ClosedDoor],
    points: &[Point],
) -> Result<(), TestCaseError> {
    let walkable = |p: Point, q: Point| segment_in_area(grid, p, q) && !crosses_door(grid, closed, p, q);
    let mut scratch = ExactScratch::default();
    for &s in points {
        let truth = visibility_lengths(grid, closed, s, points);
        for (&t, &want) in points.iter().zip(&truth) {
            let got = exact.distance(s, t);
            let tol = 1e-9 * (1.0 + want.unwrap_or(0.0));
            match (got, want) {
                (None, None) => {}
                (Some(g), Some(w)) => prop_assert!(
                    (g - w).abs() <= tol,
                    "{s} → {t}: {g} against {w}\n{grid:?}closed {closed:?}"
                ),
                _ => prop_assert!(false, "{s} → {t}: {got:?} against {want:?}\n{grid:?}closed {closed:?}"),
            }
            let Some(want) = want else { continue };
            let path = exact.path(s, t).expect("a distance, so a path");
            let pts = path.points();
            prop_assert_eq!((pts[0], pts[pts.len() - 1]), (s, t));
            for w in pts.windows(2) {
                prop_assert!(
                    walkable(w[0], w[1]),
                    "{s} → {t}: leg {} → {} leaves the area\n{grid:?}",
                    w[0],
                    w[1]
                );
            }
            prop_assert!(
                (path.walked() - want).abs() <= tol,
                "{s} → {t}: path {} against {want}",
                path.walked()
            );
            let next = exact.next_waypoint_with(s, t, &mut scratch).expect("a path, so a waypoint");
            prop_assert!(walkable(s, next), "{s} → {t}: waypoint {next} not in sight");
            let via = if next == t {
                Some(s.distance(t))
            } else {
                visibility_lengths_via(grid, closed, s, Some(next), &[t])[0]
            };
            prop_assert!(
                via.is_some_and(|v| (v - want).abs() <= tol),
                "{s} → {t}: waypoint {next} is off every shortest path ({via:?} against {want})\n{grid:?}"
            );
            prop_assert!(next != s || s == t, "{s} → {t}: the waypoint does not move");
        }
    }
    let _ = mesh;
    Ok(())
}

/// Checks a crowd's waypoints (every point of `crowd` heading for each of `goals`) against the
/// brute force: each in sight, and the first turn of some shortest path.
fn check_crowd(
    grid: &Grid,
    exact: &ExactRooms,
    closed: &[ClosedDoor],
    crowd: &[Point],
    goals: &[Point],
) -> Result<(), TestCaseError> {
    let mut scratch = ExactScratch::default();
    let mut out = Vec::new();
    for &t in goals {
        exact.next_waypoint_toward_with(crowd, t, &mut out, &mut scratch);
        prop_assert_eq!(out.len(), crowd.len());
        let truth: Vec<Option<f64>> =
            crowd.iter().map(|&s| visibility_lengths(grid, closed, s, &[t])[0]).collect();
        for ((&s, &next), &want) in crowd.iter().zip(&out).zip(&truth) {
            let (Some(next), Some(want)) = (next, want) else {
                prop_assert!(
                    next.is_none() && want.is_none(),
                    "{s} → {t}: crowd says {next:?}, truth {want:?}\n{grid:?}"
                );
                continue;
            };
            prop_assert!(
                segment_in_area(grid, s, next),
                "{s} → {t}: crowd waypoint {next} not in sight\n{grid:?}"
            );
            let via = if next == t {
                Some(s.distance(t))
            } else {
                visibility_lengths_via(grid, closed, s, Some(next), &[t])[0]
            };
            let tol = 1e-9 * (1.0 + want);
            prop_assert!(
                via.is_some_and(|v| (v - want).abs() <= tol),
                "{s} → {t}: crowd waypoint {next} off every shortest path ({via:?} against {want})\n{grid:?}"
            );
            prop_assert!(next != s || s == t, "{s} → {t}: the crowd waypoint does not move");
        }
    }
    Ok(())
}

/// Every tier.
const TIERS: [Tier; 5] = [Tier::Table, Tier::CompactTable, Tier::Graph, Tier::Labels, Tier::CompactLabels];

pub(crate) fn sample(grid: &Grid, seed: u64, count: usize) -> Vec<Point> {
    let open = open_cells(grid);
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| point_in(open[rng.below(open.len() as u64) as usize], &mut rng)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// Grid meshes: every answer against the brute-force visibility graph.
    #[test]
    fn grid_answers_match_the_visibility_graph(grid in grid_strategy(), seed in any::<u64>()) {
        prop_assume!(!open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let exact = ExactRooms::build(&mesh).unwrap();
        check(&grid, &mesh, &exact, &[], &sample(&grid, seed, 6))?;
    }

    /// Crowds of 20 (past the size where they share one pass over the goal's corners), in
    /// every tier.
    #[test]
    fn crowd_waypoints_match_the_visibility_graph(grid in grid_strategy(), seed in any::<u64>(), tier in 0usize..5) {
        prop_assume!(!open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let exact = ExactRooms::builder(&mesh).tier(TIERS[tier]).build().unwrap();
        prop_assert_eq!(exact.tier(), TIERS[tier]);
        let points = sample(&grid, seed, 23);
        check_crowd(&grid, &exact, &[], &points[..20], &points[20..])?;
    }

    /// The same walls given as polygons (boundary and square obstacles, united by the
    /// builder), answered in every tier.
    #[test]
    fn polygon_answers_match_in_every_tier(grid in grid_strategy(), seed in any::<u64>(), tier in 0usize..5) {
        prop_assume!(!open_cells(&grid).is_empty());
        let mesh = polygon_mesh(&grid);
        let exact = ExactRooms::builder(&mesh).tier(TIERS[tier]).build().unwrap();
        prop_assert_eq!(exact.tier(), TIERS[tier]);
        check(&grid, &mesh, &exact, &[], &sample(&grid, seed, 6))?;
    }

    /// The labels tier answers as the table tier: the same lengths (within the tolerance) on
    /// grid meshes with doors closed, and its waypoint the first turn of its path.
    #[test]
    fn labels_answer_as_the_table(grid in grid_strategy(), seed in any::<u64>(), bits in proptest::collection::vec(any::<u8>(), 1..40)) {
        prop_assume!(!open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let states: Vec<DoorState> = (0..mesh.doors_len())
            .map(|d| if bits[d % bits.len()] % 4 == 0 { DoorState::Closed } else { DoorState::Open })
            .collect();
        let builder = ExactRooms::builder(&mesh).door_states(states);
        let table = builder.clone().tier(Tier::Table).build().unwrap();
        let labels = builder.tier(Tier::Labels).build().unwrap();
        prop_assert_eq!(labels.tier(), Tier::Labels);
        let points = sample(&grid, seed, 8);
        for &s in &points {
            for &t in &points {
                let (want, got) = (table.distance(s, t), labels.distance(s, t));
                match (want, got) {
                    (None, None) => {}
                    (Some(w), Some(g)) => prop_assert!((g - w).abs() <= 1e-9 * (1.0 + w), "{} → {}: {} against {}", s, t, g, w),
                    _ => prop_assert!(false, "{} → {}: {:?} against {:?}", s, t, got, want),
                }
                // The waypoint is the path's first turn (both checked against the brute force in
                // the tests above).
                let next = labels.next_waypoint(s, t);
                prop_assert_eq!(next, labels.path(s, t).map(|p| p.points()[1]), "{} → {}", s, t);
            }
        }
    }

    /// Closed doors are walls: answers after closing some match the brute force with those
    /// doors drawn in as walls.
    #[test]
    fn closed_doors_are_walls(grid in grid_strategy(), seed in any::<u64>(), bits in proptest::collection::vec(any::<u8>(), 1..40)) {
        prop_assume!(!open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let mut exact = ExactRooms::build(&mesh).unwrap();
        let mut states = vec![DoorState::Open; mesh.doors_len()];
        for (d, door) in mesh.doors().iter().enumerate() {
            if !door.is_point() && bits[d % bits.len()] % 3 == 0 {
                exact.set_door_open(signposts_rooms::DoorId(d as u32), false).unwrap();
                states[d] = DoorState::Closed;
            }
        }
        check(&grid, &mesh, &exact, &closed_doors(&grid, &mesh, &states), &sample(&grid, seed, 5))?;
    }
}

#[test]
fn one_way_doors_are_refused() {
    let mesh = NavMesh::from_grid(&Grid::from_ascii("....\n.@@.\n....").unwrap()).unwrap();
    let door = mesh.doors()[0];
    let mut states = vec![DoorState::Open; mesh.doors_len()];
    states[0] = DoorState::OneWay { from: door.regions[0] };
    let refused = ExactRooms::builder(&mesh).door_states(states).build();
    assert!(matches!(refused, Err(signposts_rooms::Error::NotExact { .. })), "{refused:?}");
}

#[test]
fn a_budget_below_the_smallest_tier_says_what_would_do() {
    let mesh = NavMesh::from_grid(&Grid::from_ascii("....\n.@@.\n....").unwrap()).unwrap();
    match ExactRooms::builder(&mesh).memory_budget(100).build() {
        Err(signposts_rooms::Error::OverBudget { needed, budget }) => {
            assert_eq!(budget, 100);
            // The bytes counted when the build stopped: at least what it needs, and a budget
            // of that gets further (here, all the way).
            let mut budget = needed;
            let exact = loop {
                match ExactRooms::builder(&mesh).memory_budget(budget).build() {
                    Err(signposts_rooms::Error::OverBudget { needed, .. }) if needed > budget => {
                        budget = needed;
                    }
                    other => break other.unwrap(),
                }
            };
            assert_eq!(exact.tier(), Tier::Graph);
        }
        other => panic!("{other:?}"),
    }
}

/// The budget was checked only once every corner's sweep was held (a sawtooth peaked at
/// 5.3 GB for an index of 103 MB): the build now counts the sweeps' bytes as they come and
/// stops as soon as they pass it.
#[test]
fn a_build_over_its_budget_stops_after_few_sweeps() {
    // Pillars in a row: every corner sees most others across the open rows.
    let row =
        |pillars: bool| (0..400).map(|x| if pillars && x % 2 == 1 { '@' } else { '.' }).collect::<String>();
    let text = [row(false), row(false), row(true), row(false), row(false)].join("\n");
    let mesh = NavMesh::from_grid(&Grid::from_ascii(&text).unwrap()).unwrap();
    let full = ExactRooms::builder(&mesh).build().unwrap();
    let corners = full.corners_len();
    assert!(
        corners >= 700 && full.memory_bytes() > 4 << 20,
        "{corners} corners, {} bytes",
        full.memory_bytes()
    );
    let swept = std::sync::atomic::AtomicUsize::new(0);
    let mut options = signposts::BuildOptions::new();
    options.threads(1).progress(|p| {
        // The first `corners` steps are the sweeps.
        swept.fetch_max(p.done.min(corners), std::sync::atomic::Ordering::Relaxed);
    });
    let budget = 256 << 10;
    let built =
        signposts_rooms::BuildRooms::build_exact(&options, ExactRooms::builder(&mesh).memory_budget(budget));
    assert!(
        matches!(built, Err(signposts_rooms::Error::OverBudget { needed, .. }) if needed > budget),
        "{built:?}"
    );
    drop(options);
    let swept = swept.into_inner();
    assert!(swept < corners / 4, "{swept} of {corners} corners swept before stopping");
}

/// `region_at` missed a point on a region's edge where that edge is also a bucket's edge of
/// the point locator (the region was listed only in the bucket on its side).
#[test]
fn a_point_on_a_region_edge_at_a_locator_bucket_edge_is_found() {
    let grid =
        Grid::from_ascii("@@...@@.\n...@.@..\n@...@..@\n.@@@.@.@\n........\n..@..@..\n.@.@....").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let s = Point::new(7.0, 2.25); // the right edge of open cell (6, 2), a blocked cell beyond
    assert!(mesh.region_at(s).is_some());
    let exact = ExactRooms::build(&mesh).unwrap();
    let d = exact.distance(s, Point::new(3.0, 2.5)).expect("connected");
    assert!((d - 4.133_598_425_824_532).abs() < 1e-9, "{d}");
}

/// Closed doors seal: their ends meet the walls, and a path may not slip past them as past a
/// pinch point (two rooms joined by a gap one cell wide, every door closed).
#[test]
fn closed_doors_seal_their_ends_against_the_walls() {
    let grid = Grid::from_ascii("..@..\n.....\n..@..").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let mut exact = ExactRooms::build(&mesh).unwrap();
    let (a, b) = (Point::new(0.5, 1.5), Point::new(4.5, 1.5));
    assert_eq!(exact.distance(a, b), Some(4.0));
    assert!(mesh.doors().iter().all(|d| !d.is_point()));
    for d in 0..mesh.doors_len() as u32 {
        exact.set_door_open(signposts_rooms::DoorId(d), false).unwrap();
    }
    assert_eq!(exact.distance(a, b), None);
    assert_eq!(exact.next_waypoint(a, b), None);
    assert_eq!(
        exact.distance(a, Point::new(1.5, 0.5)).map(|d| (d * 1e9).round()),
        Some(f64::round(2f64.sqrt() * 1e9))
    );
}

/// A long thin boundary (found by the fuzz target `exact_text`) made more cells a side than a
/// `u32` holds: cells now grow until there are about 256 a region along each side too.
#[test]
fn a_long_thin_boundary_builds_within_the_cell_limit() {
    let builder =
        signposts_rooms::NavMeshBuilder::from_text("boundary 0,1 10,10 0,12222222222222222 5,8\n").unwrap();
    let Ok(mesh) = builder.build() else { return };
    match ExactRooms::builder(&mesh).memory_budget(64 << 20).build() {
        Ok(exact) => assert!(exact.memory_bytes() <= 64 << 20),
        Err(signposts_rooms::Error::OverBudget { needed, .. }) => assert!(needed > 64 << 20),
        Err(e) => panic!("{e}"),
    }
}

/// A boundary 45 million units wide with one obstacle (found by the fuzz target `exact_text`,
/// which timed out): unit cells made each corner list millions of cells; cells now grow to
/// about 256 a region.
#[test]
fn a_vast_open_map_gets_cells_to_the_scale_of_its_regions() {
    let text = "boundary 45460633,0 2,00 20,10 0,15\nobstacle 18,24 2,0 24,6 18,7\nradius 0.5\n";
    let Ok(mesh) = signposts_rooms::NavMeshBuilder::from_text(text).unwrap().build() else { return };
    let exact = ExactRooms::builder(&mesh).memory_budget(64 << 20).build().unwrap();
    assert!(exact.memory_bytes() <= 64 << 20);
}

/// A corner made by a closed door, seen by another corner from both sides of the door: the
/// sweep reported it once, from the side where it is no corner, and the edge was lost (the
/// path went round by 9.37 instead of 3.87).
#[test]
fn a_door_corner_seen_first_from_its_other_side_keeps_its_edge() {
    let grid = Grid::from_ascii(
        "@@@@@@..@\n...@@@@.@\n@@@.@.@@@\n..@..@...\n.@@..@.@.\n@@@..@@@@\n@@@...@@@\n@@@@@@@@@",
    )
    .unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let closed = [
        ((3.0, 2.0), (4.0, 3.0)),
        ((6.0, 3.0), (7.0, 4.0)),
        ((8.0, 4.0), (9.0, 3.0)),
        ((0.0, 3.0), (1.0, 4.0)),
    ];
    let states = mesh
        .doors()
        .iter()
        .map(|door| {
            let e = [(door.ends[0].x, door.ends[0].y), (door.ends[1].x, door.ends[1].y)];
            let shut = closed.iter().any(|&(a, b)| (e[0] == a && e[1] == b) || (e[0] == b && e[1] == a));
            if shut { DoorState::Closed } else { DoorState::Open }
        })
        .collect();
    let exact = ExactRooms::builder(&mesh).door_states(states).build().unwrap();
    let (s, t) = (Point::new(1.0, 1.5), Point::new(4.306, 3.25));
    let path = exact.path(s, t).expect("connected");
    assert_eq!(path.points()[1..3], [Point::new(3.0, 2.0), Point::new(4.0, 3.0)]);
    assert!((path.walked() - 3.870_906_856_530_015_5).abs() < 1e-9);
}

/// A region lying across both wedges in front of a corner (where a path cannot turn at it)
/// was dropped from the corner's candidates by looking at its vertices alone, so its lower
/// bound was too high and the pair search pruned the shortest path (2.79 instead of 2.61).
#[test]
fn a_region_over_a_corner_keeps_it_among_its_candidates() {
    let v: Vec<Point> = [
        (0.0, 0.0),
        (1.5, 0.8),
        (1.5, -0.8),
        (-10.0, 0.9),
        (10.0, 0.9),
        (10.0, 1.0),
        (-10.0, 1.0),
        (-10.0, -3.0),
        (1.5, -3.0),
        (10.0, -3.0),
    ]
    .map(Point::from)
    .to_vec();
    let regions = vec![
        vec![3, 4, 5, 6],
        vec![3, 1, 4],
        vec![3, 0, 1],
        vec![3, 7, 0],
        vec![7, 8, 2, 0],
        vec![8, 9, 2],
        vec![2, 9, 4, 1],
    ];
    let mesh = NavMesh::from_regions(&v, &regions).unwrap();
    let exact = ExactRooms::build(&mesh).unwrap();
    let (s, t) = (Point::new(1.4, -0.9), Point::new(0.0, 0.95));
    let want = s.distance(Point::new(0.0, 0.0)) + 0.95;
    assert!((exact.distance(s, t).unwrap() - want).abs() < 1e-12);
    assert_eq!(exact.next_waypoint(s, t), Some(Point::new(0.0, 0.0)));
}

/// A point on a wall whose mesh vertex is a rounded crossing lies a rounding outside its
/// region: `region_at` takes it, the exact tests did not (no path one way, a path the other).
#[test]
fn a_point_a_rounding_outside_its_region_answers_both_ways() {
    let p = Point::new;
    let mesh = NavMesh::builder()
        .boundary(vec![p(0.0, 0.0), p(12.0, 0.0), p(12.0, 13.0), p(0.0, 13.0)])
        .obstacle(vec![p(3.0, 8.0), p(2.0, 8.0), p(8.0, 5.0)])
        .obstacle(vec![p(1.0, 1.0), p(2.0, 0.0), p(8.0, 7.0)])
        .build()
        .unwrap();
    let exact = ExactRooms::build(&mesh).unwrap();
    let (s, t) = (p(0.0, 0.0), p(5.8125, 6.09375));
    let (there, back) = (exact.distance(s, t).expect("connected"), exact.distance(t, s).expect("connected"));
    assert!((there - back).abs() < 1e-9, "{there} {back}");
    let corridor = signposts_rooms::Rooms::build(&mesh).unwrap().distance(s, t).unwrap();
    assert!(there <= corridor + 1e-9, "{there} {corridor}");
}
