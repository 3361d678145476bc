//! Agent radius: every path vertex and segment keeps at least the radius from every wall (the
//! map's edge included), on random grids and on a shared map.

use proptest::prelude::*;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid, parse_map};
use signposts_rooms::{NavMesh, Point, Rooms};

fn point_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length2 = dx * dx + dy * dy;
    let t =
        if length2 > 0.0 { (((p.x - a.x) * dx + (p.y - a.y) * dy) / length2).clamp(0.0, 1.0) } else { 0.0 };
    p.distance(Point::new(a.x + t * dx, a.y + t * dy))
}

fn cross(a: Point, b: Point, c: Point) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

fn segments_cross(p: Point, q: Point, a: Point, b: Point) -> bool {
    let (d1, d2, d3, d4) = (cross(p, q, a), cross(p, q, b), cross(a, b, p), cross(a, b, q));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

fn segment_segment(p: Point, q: Point, a: Point, b: Point) -> f64 {
    if segments_cross(p, q, a, b) {
        return 0.0;
    }
    point_segment(p, a, b).min(point_segment(q, a, b)).min(point_segment(a, p, q)).min(point_segment(b, p, q))
}

/// The distance from segment `p q` to the blocked cells and the outside of the map (each a
/// closed square; the outside as the map's four edges).
fn clearance(grid: &Grid, p: Point, q: Point) -> f64 {
    let (w, h) = (f64::from(grid.width()), f64::from(grid.height()));
    let corners = [Point::new(0.0, 0.0), Point::new(w, 0.0), Point::new(w, h), Point::new(0.0, h)];
    let mut best = f64::INFINITY;
    for i in 0..4 {
        best = best.min(segment_segment(p, q, corners[i], corners[(i + 1) % 4]));
    }
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if grid.is_passable(Cell::new(x, y)) {
                continue;
            }
            let (x0, y0) = (f64::from(x), f64::from(y));
            let inside = |r: Point| r.x > x0 && r.x < x0 + 1.0 && r.y > y0 && r.y < y0 + 1.0;
            if inside(p) || inside(q) {
                return 0.0;
            }
            let square = [
                Point::new(x0, y0),
                Point::new(x0 + 1.0, y0),
                Point::new(x0 + 1.0, y0 + 1.0),
                Point::new(x0, y0 + 1.0),
            ];
            for i in 0..4 {
                best = best.min(segment_segment(p, q, square[i], square[(i + 1) % 4]));
            }
        }
    }
    best
}

#[expect(clippy::many_single_char_names, reason = "points s t, sizes w h")]
fn check(grid: &Grid, radius: f64, seed: u64, queries: usize) -> usize {
    let Ok(mesh) = NavMesh::from_grid_for_radius(grid, radius) else { return 0 };
    assert_eq!(mesh.check(), Ok(()), "radius {radius}\n{grid:?}");
    let rooms = Rooms::build(&mesh).unwrap();
    let mut rng = SplitMix64::new(seed);
    let (w, h) = (f64::from(grid.width()), f64::from(grid.height()));
    let mut point = || Point::new(w * rng.below(4096) as f64 / 4096.0, h * rng.below(4096) as f64 / 4096.0);
    let mut checked = 0;
    for _ in 0..queries {
        let (s, t) = (point(), point());
        if mesh.region_at(s).is_none() {
            // Only points within the capsules' 2% rounding of the radius are left out.
            assert!(
                clearance(grid, s, s) < radius * 1.02 + 1e-9,
                "{s} is clear of walls by {} but not located",
                clearance(grid, s, s)
            );
            continue;
        }
        assert!(
            clearance(grid, s, s) >= radius - 1e-9,
            "{s} located but {} from a wall\n{grid:?}",
            clearance(grid, s, s)
        );
        let Some(path) = rooms.path(s, t) else { continue };
        checked += 1;
        for pair in path.points().windows(2) {
            let c = clearance(grid, pair[0], pair[1]);
            assert!(
                c >= radius - 1e-9,
                "{s} → {t}: segment {} → {} is {c} from a wall, radius {radius}: {:?}\n{grid:?}",
                pair[0],
                pair[1],
                path.points()
            );
        }
    }
    checked
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn paths_keep_the_agent_radius_from_every_wall(
        (w, h, open) in (3u32..10, 3u32..10).prop_flat_map(|(w, h)| (Just(w), Just(h), proptest::collection::vec(proptest::bool::weighted(0.75), (w * h) as usize))),
        radius in prop_oneof![Just(0.1), Just(0.25), Just(0.4), 0.01f64..0.5],
        seed in any::<u64>(),
    ) {
        let grid = Grid::from_slice(w, h, &open).unwrap();
        check(&grid, radius, seed, 30);
    }
}

#[test]
fn den312d_paths_keep_the_agent_radius() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/den312d.map");
    let grid = parse_map(&std::fs::read(path).unwrap()).unwrap();
    let checked = check(&grid, 0.3, 11, 1500);
    assert!(checked > 200, "only {checked} queries had a path");
}

#[test]
fn a_bad_radius_is_an_error() {
    let grid = Grid::new(4, 4);
    for radius in [-1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            NavMesh::from_grid_for_radius(&grid, radius),
            Err(signposts_rooms::Error::BadRadius { .. })
        ));
    }
    assert!(matches!(
        NavMesh::from_grid_for_radius(&grid, 2.5),
        Err(signposts_rooms::Error::NothingWalkable)
    ));
}
