//! Exact mode with links: every length against a brute force (Dijkstra over the link ends,
//! the walks between them from the brute-force visibility graph, and the link arcs), every
//! path walkable between the links it lists, every waypoint the path's first step.

use crate::common::{
    ClosedDoor, closed_doors, crosses_door, open_cells, segment_in_area, visibility_lengths,
};
use crate::exact::{grid_strategy, sample};
use proptest::prelude::*;
use signposts::grid::Grid;
use signposts_rooms::{DoorId, DoorState, ExactRooms, ExactScratch, LinkId, NavMesh, PathStep, Point, Rooms};

/// A link as the tests draw it: ends, cost, two-way, open.
type Spec = (Point, Point, f64, bool, bool);

/// The brute force: the shortest cost from `s` to each of `targets`, walking (the visibility
/// graph) and taking open links their way. A path walks from the start or from a link's exit
/// to a link's entrance or a target: it does not stop at a link end to walk on (a link end on
/// a closed door is not a way through it).
#[expect(clippy::many_single_char_names, reason = "the ends s t, nodes u v, their counts m n, link l")]
fn brute(
    grid: &Grid,
    closed: &[ClosedDoor],
    links: &[Spec],
    s: Point,
    targets: &[Point],
) -> Vec<Option<f64>> {
    // Nodes: the start, the link ends as entrances (1 + 2l + end), again as exits
    // (1 + 2L + 2l + end), the targets.
    let ends: Vec<Point> = links.iter().flat_map(|l| [l.0, l.1]).collect();
    let m = ends.len();
    let mut nodes = vec![s];
    nodes.extend_from_slice(&ends);
    nodes.extend_from_slice(&ends);
    let first_target = nodes.len();
    nodes.extend_from_slice(targets);
    let n = nodes.len();
    let walks_to: Vec<Point> = ends.iter().chain(targets).copied().collect();
    let walk_from = |p: Point| visibility_lengths(grid, closed, p, &walks_to);
    let walks: Vec<Vec<Option<f64>>> =
        std::iter::once(s).chain(ends.iter().copied()).map(walk_from).collect();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[0] = 0.0;
    while let Some(u) =
        (0..n).filter(|&i| !done[i] && dist[i].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
    {
        done[u] = true;
        if u >= first_target {
            continue;
        }
        if u == 0 || u > m {
            // The start or an exit: walk to an entrance or a target.
            let from = if u == 0 { 0 } else { u - m };
            for (k, w) in walks[from].iter().enumerate() {
                let v = if k < m { 1 + k } else { first_target + k - m };
                if let Some(w) = w {
                    dist[v] = dist[v].min(dist[u] + w);
                }
            }
        } else {
            // An entrance: take its link.
            let (l, end) = ((u - 1) / 2, (u - 1) % 2);
            let (_, _, cost, two_way, open) = links[l];
            if open && (end == 0 || two_way) {
                let v = 1 + m + 2 * l + (1 - end);
                dist[v] = dist[v].min(dist[u] + cost);
            }
        }
    }
    dist[first_target..].iter().map(|d| d.is_finite().then_some(*d)).collect()
}

fn build(mesh: &NavMesh, links: &[Spec]) -> ExactRooms {
    let mut builder = ExactRooms::builder(mesh);
    for &(a, b, cost, two_way, _) in links {
        builder = builder.link(a, b, cost, two_way);
    }
    let mut exact = builder.build().unwrap();
    for (l, link) in links.iter().enumerate() {
        exact.set_link_open(LinkId(l as u32), link.4).unwrap();
    }
    exact
}

/// Every query between `points` against the brute force.
fn check(
    grid: &Grid,
    exact: &ExactRooms,
    closed: &[ClosedDoor],
    links: &[Spec],
    points: &[Point],
) -> Result<(), TestCaseError> {
    let walkable = |p: Point, q: Point| segment_in_area(grid, p, q) && !crosses_door(grid, closed, p, q);
    let mut scratch = ExactScratch::default();
    let mut crowd = Vec::new();
    for &t in points {
        exact.next_waypoint_toward_with(points, t, &mut crowd, &mut scratch);
        for (&s, &heading) in points.iter().zip(&crowd) {
            prop_assert_eq!(heading, exact.next_waypoint(s, t), "{} → {}: the crowd's waypoint", s, t);
        }
    }
    for &s in points {
        let truth = brute(grid, closed, links, s, points);
        for (&t, &want) in points.iter().zip(&truth) {
            let got = exact.distance(s, t);
            let Some(want) = want else {
                prop_assert_eq!(got, None, "{} → {}: a way where the brute force has none\n{:?}", s, t, grid);
                prop_assert_eq!(exact.next_waypoint(s, t), None);
                continue;
            };
            let tol = 1e-9 * (1.0 + want);
            prop_assert!(
                got.is_some_and(|g| (g - want).abs() <= tol),
                "{s} → {t}: {got:?} against {want}\n{grid:?}links {links:?}"
            );
            let path = exact.path(s, t).expect("a distance, so a path");
            let pts = path.points();
            prop_assert_eq!((pts[0], pts[pts.len() - 1]), (s, t));
            let mut at = s;
            for step in path.steps() {
                match step {
                    PathStep::Walk(q) => {
                        prop_assert!(walkable(at, q), "{s} → {t}: leg {at} → {q} leaves the area");
                    }
                    PathStep::Link { link, to } => {
                        let (a, b, _, two_way, open) = links[link.0 as usize];
                        prop_assert!(open, "{s} → {t}: closed link {link:?} taken");
                        prop_assert!(
                            (at, to) == (a, b) || (two_way && (at, to) == (b, a)),
                            "{s} → {t}: {link:?} taken from {at} to {to}"
                        );
                    }
                }
                at = step_to(step);
            }
            prop_assert!(
                (path.length() - want).abs() <= tol,
                "{s} → {t}: path {} against {want}",
                path.length()
            );
            let next = exact.next_waypoint_with(s, t, &mut scratch).expect("a path, so a waypoint");
            prop_assert_eq!(next, pts[1], "{} → {}: the waypoint is not the path's next point", s, t);
        }
    }
    Ok(())
}

fn step_to(step: PathStep) -> Point {
    match step {
        PathStep::Walk(q) | PathStep::Link { to: q, .. } => q,
    }
}

/// Links drawn from `seed` and `draws`: ends at sampled points, costs from 0 to 8 (whole or
/// not), one way or two, a few closed.
fn links_of(grid: &Grid, seed: u64, draws: &[(u8, bool, u8)]) -> Vec<Spec> {
    let ends = sample(grid, seed ^ 0x9e37, 2 * draws.len());
    draws
        .iter()
        .enumerate()
        .map(|(i, &(cost, two_way, open))| {
            let cost = if cost % 3 == 0 { f64::from(cost % 9) } else { f64::from(cost) / 32.0 };
            (ends[2 * i], ends[2 * i + 1], cost, two_way, open % 5 != 0)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Random grids with random links: lengths, paths and waypoints against the brute force.
    #[test]
    fn linked_answers_match_the_brute_force(
        grid in grid_strategy(),
        seed in any::<u64>(),
        draws in proptest::collection::vec((any::<u8>(), any::<bool>(), any::<u8>()), 1..5),
    ) {
        prop_assume!(!open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let links = links_of(&grid, seed, &draws);
        let exact = build(&mesh, &links);
        check(&grid, &exact, &[], &links, &sample(&grid, seed, 5))?;
    }

    /// Doors closed after the build: the walks between link ends follow (the index is rebuilt
    /// with its links), and a saved index answers as built.
    #[test]
    fn linked_answers_follow_closed_doors_and_saving(
        grid in grid_strategy(),
        seed in any::<u64>(),
        draws in proptest::collection::vec((any::<u8>(), any::<bool>(), any::<u8>()), 1..4),
        bits in proptest::collection::vec(any::<u8>(), 1..40),
    ) {
        prop_assume!(!open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let links = links_of(&grid, seed, &draws);
        let mut exact = build(&mesh, &links);
        let mut states = vec![DoorState::Open; mesh.doors_len()];
        for (d, door) in mesh.doors().iter().enumerate() {
            if !door.is_point() && bits[d % bits.len()] % 3 == 0 {
                exact.set_door_open(DoorId(d as u32), false).unwrap();
                states[d] = DoorState::Closed;
            }
        }
        let points = sample(&grid, seed, 4);
        check(&grid, &exact, &closed_doors(&grid, &mesh, &states), &links, &points)?;
        let mut bytes = Vec::new();
        exact.save(&mut bytes).unwrap();
        let loaded = ExactRooms::load(bytes.as_slice()).unwrap();
        prop_assert_eq!(loaded.links(), exact.links());
        for &s in &points {
            for &t in &points {
                prop_assert_eq!(loaded.path(s, t), exact.path(s, t));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20, ..ProptestConfig::default() })]

    /// Past 32 links a query bounds the rest of the way more loosely: still exact.
    #[test]
    fn many_links_match_the_brute_force(
        grid in grid_strategy(),
        seed in any::<u64>(),
        draws in proptest::collection::vec((any::<u8>(), any::<bool>(), any::<u8>()), 33..40),
    ) {
        prop_assume!(!open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let links = links_of(&grid, seed, &draws);
        let exact = build(&mesh, &links);
        check(&grid, &exact, &[], &links, &sample(&grid, seed, 3))?;
    }
}

/// Two rooms side by side joined round the far end of a wall, and a teleporter.
fn two_rooms() -> (NavMesh, Point, Point) {
    let grid = Grid::from_ascii(
        "
        ...#...
        ...#...
        ...#...
        .......
        ",
    )
    .unwrap();
    (NavMesh::from_grid(&grid).unwrap(), Point::new(0.5, 0.5), Point::new(6.5, 0.5))
}

#[test]
fn a_cheap_link_is_taken_and_listed() {
    let (mesh, s, t) = two_rooms();
    let (a, b) = (Point::new(2.5, 0.5), Point::new(4.5, 0.5));
    let walked = ExactRooms::build(&mesh).unwrap().distance(s, t).unwrap();
    let exact = ExactRooms::builder(&mesh).link(a, b, 1.0, false).build().unwrap();
    let path = exact.path(s, t).unwrap();
    assert_eq!(path.points(), [s, a, b, t]);
    assert_eq!(path.steps().nth(1), Some(PathStep::Link { link: LinkId(0), to: b }));
    assert_eq!(exact.distance(s, t), Some(5.0)); // 2 walked, 1 for the link, 2 walked
    assert!(walked > 5.0);
    assert_eq!(exact.next_waypoint(s, t), Some(a));
    assert_eq!(exact.next_waypoint(a, t), Some(b)); // at the entrance: its exit
    // One way: back round the wall.
    assert_eq!(exact.distance(t, s), Some(walked));
    assert_eq!(exact.path(t, s).unwrap().links().count(), 0);
    // The rooms take it too, and list it the same way.
    let rooms = Rooms::builder(&mesh).link(a, b, 1.0, false).build().unwrap();
    assert_eq!(rooms.path(s, t).unwrap().steps().collect::<Vec<_>>(), path.steps().collect::<Vec<_>>());
    assert_eq!(rooms.next_waypoint(s, t), exact.next_waypoint(s, t));
    assert_eq!(rooms.next_waypoint(a, t), exact.next_waypoint(a, t));
    // Built from the rooms: the same links.
    let from_rooms = signposts_rooms::ExactBuilder::from(&rooms).build().unwrap();
    assert_eq!(from_rooms.path(s, t), exact.path(s, t));
}

#[test]
fn a_dear_link_is_not_taken() {
    let (mesh, s, t) = two_rooms();
    let walked = ExactRooms::build(&mesh).unwrap().distance(s, t).unwrap();
    let (a, b) = (Point::new(2.5, 0.5), Point::new(4.5, 0.5));
    let exact = ExactRooms::builder(&mesh).link(a, b, walked, true).build().unwrap();
    assert_eq!(exact.distance(s, t), Some(walked));
    let path = exact.path(s, t).unwrap();
    assert_eq!(path.links().count(), 0);
    assert_eq!(exact.next_waypoint(s, t), Some(Point::new(3.0, 3.0))); // round the wall
}

#[test]
fn links_chain_and_close_without_a_rebuild() {
    // Three rooms walled apart: two teleporters in a row.
    let grid = Grid::from_ascii("..#..#..\n..#..#..").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let (s, t) = (Point::new(0.5, 0.5), Point::new(7.5, 1.5));
    let hops = [(Point::new(1.5, 0.5), Point::new(3.5, 0.5)), (Point::new(4.5, 1.5), Point::new(6.5, 1.5))];
    let mut exact = ExactRooms::builder(&mesh)
        .link(hops[0].0, hops[0].1, 0.5, false)
        .link(hops[1].0, hops[1].1, 0.0, true)
        .build()
        .unwrap();
    let path = exact.path(s, t).unwrap();
    assert_eq!(path.links().collect::<Vec<_>>(), [LinkId(0), LinkId(1)]);
    assert!((path.length() - (1.0 + 0.5 + 2f64.sqrt() + 1.0)).abs() < 1e-12);
    assert_eq!(exact.path(t, s), None); // the first is one way
    exact.set_link_open(LinkId(1), false).unwrap();
    assert_eq!(exact.path(s, t), None);
    assert!(!exact.is_link_open(LinkId(1)).unwrap());
}

#[test]
fn bad_links_are_refused_before_the_build() {
    let (mesh, s, _) = two_rooms();
    let in_wall = Point::new(3.5, 0.5);
    let bad = ExactRooms::builder(&mesh).link(s, in_wall, 1.0, false).build();
    assert!(matches!(bad, Err(signposts_rooms::Error::BadLink { link: 0, end: 1, .. })), "{bad:?}");
    let bad = ExactRooms::builder(&mesh).link(s, s, f64::NAN, false).build();
    assert!(matches!(bad, Err(signposts_rooms::Error::BadLink { link: 0, .. })), "{bad:?}");
}
