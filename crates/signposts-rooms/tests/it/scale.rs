//! Geometry at every coordinate scale. Random polygon worlds on a quarter grid, translated far
//! from the origin and scaled by powers of two (every coordinate exact in `f64`), answer as
//! they do at home: exact distances and reachability against a brute-force visibility graph
//! decided in integers, and point location. Then the cases reported, one test each.

use proptest::prelude::*;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, parse_map};
use signposts_rooms::{Error, ExactRooms, NavMesh, NavMeshBuilder, Point, Ring};

/// A point of a world, in quarter units.
type Q = (i64, i64);

/// A world in quarter units: the boundary `[0, w] × [0, h]` and convex counter-clockwise
/// obstacles strictly inside it, whose interiors are disjoint and whose edges share no
/// stretch (they may touch at points: pinches).
#[derive(Debug, Clone)]
struct World {
    w: i64,
    h: i64,
    obstacles: Vec<Vec<Q>>,
}

fn cross(a: Q, b: Q, c: Q) -> i128 {
    i128::from(b.0 - a.0) * i128::from(c.1 - a.1) - i128::from(b.1 - a.1) * i128::from(c.0 - a.0)
}

/// Whether `p` lies in the open interior of the convex counter-clockwise `poly`.
fn in_open(poly: &[Q], p: Q) -> bool {
    (0..poly.len()).all(|i| cross(poly[i], poly[(i + 1) % poly.len()], p) > 0)
}

/// Whether some point of the closed segment `p q` lies in the open interior of `poly`, decided
/// exactly: the segment's parameters `t` where every edge's side test is positive form an
/// open interval, compared with `[0, 1]` as fractions.
fn meets_open_interior(poly: &[Q], p: Q, q: Q) -> bool {
    // Fractions `(numerator, denominator > 0)`; `None`: unbounded.
    type Fraction = (i128, i128);
    let (mut lo, mut hi): (Option<Fraction>, Option<Fraction>) = (None, None);
    let less = |a: Fraction, b: Fraction| a.0 * b.1 < b.0 * a.1;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let (fp, fq) = (cross(a, b, p), cross(a, b, q));
        let slope = fq - fp;
        match slope.cmp(&0) {
            std::cmp::Ordering::Equal => {
                if fp <= 0 {
                    return false;
                }
            }
            std::cmp::Ordering::Greater => {
                let bound = (-fp, slope);
                lo = Some(lo.map_or(bound, |l| if less(l, bound) { bound } else { l }));
            }
            std::cmp::Ordering::Less => {
                let bound = (fp, -slope);
                hi = Some(hi.map_or(bound, |h| if less(bound, h) { bound } else { h }));
            }
        }
    }
    let below_hi = |x: (i128, i128)| hi.is_none_or(|h| less(x, h));
    lo.is_none_or(|l| less(l, (1, 1)) && below_hi(l)) && hi.is_none_or(|h| less((0, 1), h))
}

impl World {
    fn walkable(&self, p: Q) -> bool {
        (0..=self.w).contains(&p.0)
            && (0..=self.h).contains(&p.1)
            && self.obstacles.iter().all(|o| !in_open(o, p))
    }

    fn visible(&self, p: Q, q: Q) -> bool {
        self.walkable(p) && self.walkable(q) && self.obstacles.iter().all(|o| !meets_open_interior(o, p, q))
    }

    /// The shortest length from `s` to `t` in quarter units over the visibility graph of the
    /// ends and the obstacles' corners (the boundary is convex: no path turns at its corners).
    fn shortest(&self, s: Q, t: Q) -> Option<f64> {
        let mut nodes = vec![s, t];
        nodes.extend(self.obstacles.iter().flatten().copied());
        let n = nodes.len();
        let length = |a: Q, b: Q| ((a.0 - b.0) as f64).hypot((a.1 - b.1) as f64);
        let (mut dist, mut done) = (vec![f64::INFINITY; n], vec![false; n]);
        dist[0] = 0.0;
        while let Some(u) =
            (0..n).filter(|&i| !done[i] && dist[i].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        {
            done[u] = true;
            if u == 1 {
                break;
            }
            for v in 0..n {
                if !done[v] && self.visible(nodes[u], nodes[v]) {
                    dist[v] = dist[v].min(dist[u] + length(nodes[u], nodes[v]));
                }
            }
        }
        dist[1].is_finite().then_some(dist[1])
    }

    /// Whether `o` may join the obstacles: inside the boundary, its interior disjoint from
    /// theirs, no stretch of edge shared.
    fn fits(&self, o: &[Q]) -> bool {
        let inside = o.iter().all(|&(x, y)| x > 0 && y > 0 && x < self.w && y < self.h);
        inside && self.obstacles.iter().all(|other| apart(o, other) && apart(other, o))
    }

    /// The world at `offset + 2^k · (quarter units) / 4`, or `None` where some coordinate is
    /// not exact in `f64`.
    fn at(&self, offset: f64, k: i32) -> Option<(NavMesh, impl Fn(Q) -> Point + use<>)> {
        let unit = f64::from(k - 2).exp2();
        let place = move |(x, y): Q| Point::new(offset + x as f64 * unit, offset + y as f64 * unit);
        let exact = |v: i64| exact_sum(offset, v as f64 * unit);
        if !(exact(0)
            && exact(self.w)
            && exact(self.h)
            && self.obstacles.iter().flatten().all(|&(x, y)| exact(x) && exact(y)))
        {
            return None;
        }
        let (w, h) = (self.w, self.h);
        let mut builder = NavMesh::builder().boundary([(0, 0), (w, 0), (w, h), (0, h)].map(place));
        for o in &self.obstacles {
            builder = builder.obstacle(o.iter().map(|&q| place(q)));
        }
        match builder.build() {
            Ok(mesh) => Some((mesh, place)),
            Err(e) => panic!("offset {offset}, scale 2^{k}: {e}"),
        }
    }
}

/// Whether `a + b` is exact in `f64` (Knuth's two-sum: the rounding error is zero).
fn exact_sum(a: f64, b: f64) -> bool {
    let s = a + b;
    let bb = s - a;
    (a - (s - bb)) + (b - bb) == 0.0
}

/// Whether `a` keeps clear of `b`'s interior and shares no stretch of edge with it: no proper
/// crossing, no collinear overlap, no corner or edge midpoint of `a` inside `b`.
fn apart(a: &[Q], b: &[Q]) -> bool {
    let edges = |r: &[Q]| (0..r.len()).map(|i| (r[i], r[(i + 1) % r.len()])).collect::<Vec<_>>();
    let double = |r: &[Q]| r.iter().map(|&(x, y)| (2 * x, 2 * y)).collect::<Vec<_>>();
    let b2 = double(b);
    for (p, q) in edges(a) {
        if in_open(b, p) || in_open(&b2, (p.0 + q.0, p.1 + q.1)) {
            return false;
        }
        for (c, d) in edges(b) {
            let (o1, o2, o3, o4) = (cross(p, q, c), cross(p, q, d), cross(c, d, p), cross(c, d, q));
            if o1 * o2 < 0 && o3 * o4 < 0 {
                return false;
            }
            if o1 == 0 && o2 == 0 {
                // Collinear: overlapping by a stretch?
                let key = |x: Q| {
                    i128::from(x.0 - p.0) * i128::from(q.0 - p.0)
                        + i128::from(x.1 - p.1) * i128::from(q.1 - p.1)
                };
                let (lo, hi) = (key(c).min(key(d)), key(c).max(key(d)));
                if lo.max(0) < hi.min(key(q)) {
                    return false;
                }
            }
        }
    }
    true
}

/// A random world: 8–16 units a side, up to five obstacles (rectangles, triangles,
/// parallelograms) of up to six units, each kept if it fits beside the others.
#[expect(
    clippy::many_single_char_names,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "points of figures (x y a b c d t), small random numbers"
)]
fn random_world(rng: &mut SplitMix64) -> World {
    let (w, h) = (4 * (8 + rng.below(9) as i64), 4 * (8 + rng.below(9) as i64));
    let mut world = World { w, h, obstacles: Vec::new() };
    for _ in 0..rng.below(6) {
        let mut r = |n: i64| rng.below(n as u64) as i64;
        let (x, y) = (1 + r(w - 2), 1 + r(h - 2));
        let (a, b) = (1 + r(24), 1 + r(24));
        let o = match r(3) {
            0 => vec![(x, y), (x + a, y), (x + a, y + b), (x, y + b)],
            1 => {
                let (c, d) = (r(25) - 12, r(25));
                let t = vec![(x, y), (x + a, y + r(9) - 4), (x + c, y + d)];
                match cross(t[0], t[1], t[2]).signum() {
                    1 => t,
                    -1 => vec![t[0], t[2], t[1]],
                    _ => continue,
                }
            }
            _ => {
                let skew = r(13) - 6;
                vec![(x, y), (x + a, y), (x + a + skew, y + b), (x + skew, y + b)]
            }
        };
        if world.fits(&o) {
            world.obstacles.push(o);
        }
    }
    world
}

/// Offsets tried: from the origin to where only coarse scales keep the quarter grid exact.
const OFFSETS: [f64; 14] = [
    0.0,
    1_048_576.0,
    5e6,
    -5e6,
    5e7,
    1e8,
    123_456_789.0,
    1e12,
    -1e12,
    1e15,
    4_503_599_627_370_496.0,
    1e17,
    1e20,
    1e24,
];

/// The counts of one world's checks: `(queries compared, wrong answers, points located)`;
/// with `strict`, panics at the first wrong answer, saying what.
#[expect(
    clippy::many_single_char_names,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "points of figures (o a b p s t), small random numbers"
)]
fn check_world(world: &World, offset: f64, k: i32, seed: u64, strict: bool) -> Option<(usize, usize, usize)> {
    // The scale exponent raised until every coordinate is exact at this offset.
    let (k, (mesh, place)) = (k..=40).find_map(|k| world.at(offset, k).map(|m| (k, m)))?;
    assert_eq!(mesh.check(), Ok(()), "offset {offset}, 2^{k}: {world:?}");
    let exact = ExactRooms::build(&mesh).expect("exact index");
    let unit = f64::from(k - 2).exp2();
    let mut rng = SplitMix64::new(seed);
    let corners: Vec<Q> = world.obstacles.iter().flatten().copied().collect();
    let point = |rng: &mut SplitMix64| {
        if !corners.is_empty() && rng.below(3) == 0 {
            corners[rng.below(corners.len() as u64) as usize]
        } else {
            (rng.below(world.w as u64 + 1) as i64, rng.below(world.h as u64 + 1) as i64)
        }
    };
    let (mut compared, mut wrong, mut located) = (0, 0, 0);
    let fail = |what: String| {
        assert!(!strict, "offset {offset}, scale 2^{k}: {what}\n{world:?}");
        println!("wrong: seed {seed}, offset {offset}, scale 2^{k}: {what}\n{world:?}");
        1
    };
    // A query point off the coordinates' grid there would be another point: left out.
    let exact_point = |(x, y): Q| exact_sum(offset, x as f64 * unit) && exact_sum(offset, y as f64 * unit);
    for _ in 0..12 {
        let (s, t) = (point(&mut rng), point(&mut rng));
        if !(exact_point(s) && exact_point(t)) {
            continue;
        }
        for p in [s, t] {
            // Walkable points are located; points inside an obstacle, farther from its edges
            // than the locator's few ulps, are not.
            let found = mesh.region_at(place(p)).is_some();
            located += 1;
            if world.walkable(p) {
                if !found {
                    wrong += fail(format!("walkable {p:?} ({}) not located", place(p)));
                }
            } else {
                let depth = world
                    .obstacles
                    .iter()
                    .filter(|o| in_open(o, p))
                    .map(|o| {
                        (0..o.len())
                            .map(|i| {
                                let (a, b) = (o[i], o[(i + 1) % o.len()]);
                                cross(a, b, p) as f64 / ((b.0 - a.0) as f64).hypot((b.1 - a.1) as f64)
                            })
                            .fold(f64::INFINITY, f64::min)
                    })
                    .fold(0.0, f64::max);
                let ulp = |x: f64| f64::from_bits(x.abs().to_bits() + 1) - x.abs();
                let magnitude = place((world.w, world.h)).x.abs().max(offset.abs());
                if found && depth * unit > 32.0 * ulp(magnitude) {
                    wrong +=
                        fail(format!("{p:?} ({}) {depth} quarters inside an obstacle located", place(p)));
                }
            }
        }
        if !(world.walkable(s) && world.walkable(t)) {
            continue;
        }
        compared += 1;
        let expected = world.shortest(s, t).map(|d| d * unit);
        let got = exact.distance(place(s), place(t));
        let right = match (got, expected) {
            (Some(g), Some(e)) => (g - e).abs() <= 1e-9 * e,
            (None, None) => true,
            _ => false,
        };
        if !right {
            wrong += fail(format!(
                "{s:?} → {t:?} ({} → {}): {got:?}, the shortest is {expected:?}",
                place(s),
                place(t)
            ));
        }
    }
    Some((compared, wrong, located))
}

/// Queries compared with the visibility graph, so that a run that skips everything fails.
static CHECKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn worlds_at_every_scale_check_enough_queries() {
    exact_distances_and_locations_hold_at_every_offset_and_scale();
    let checked = CHECKED.load(std::sync::atomic::Ordering::Relaxed);
    println!("{checked} queries compared with the visibility graph");
    assert!(checked >= 400, "only {checked} queries reached the comparison");
}

proptest! {
    // 96 cases, or `PROPTEST_CASES` (for a longer run).
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    /// Worlds translated by offsets from 0 to 1e24 and scaled by 2^-20 to 2^40 (raised until
    /// the quarter grid is exact there): exact distances and reachability as the brute force
    /// says within a relative 1e-9, walkable points located, points inside walls not.
    #[test]
    fn exact_distances_and_locations_hold_at_every_offset_and_scale(
        seed in any::<u64>(),
        offset in 0..OFFSETS.len(),
        k in -20i32..=40,
    ) {
        let mut rng = SplitMix64::new(seed);
        let world = random_world(&mut rng);
        if let Some((compared, _, _)) = check_world(&world, OFFSETS[offset], k, seed, true) {
            CHECKED.fetch_add(compared, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The same worlds in bulk, counting instead of stopping at the first wrong answer: for
/// measuring (`SCALE_WORLDS` worlds, 1,000 by default, each at every offset).
#[test]
#[ignore = "a measurement: cargo test -p signposts-rooms --test it scale::survey -- --ignored --nocapture"]
fn survey() {
    let worlds: u64 = std::env::var("SCALE_WORLDS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let (mut compared, mut wrong, mut located, mut failed) = (0, 0, 0, 0);
    std::panic::set_hook(Box::new(|_| {}));
    for seed in 0..worlds {
        let mut rng = SplitMix64::new(seed);
        let world = random_world(&mut rng);
        for &offset in &OFFSETS {
            let k = rng.below(61) as i32 - 20;
            match std::panic::catch_unwind(|| check_world(&world, offset, k, seed, false)) {
                Ok(Some((c, w, l))) => (compared, wrong, located) = (compared + c, wrong + w, located + l),
                Ok(None) => {}
                Err(_) => failed += 1, // the world did not build, or its mesh failed its check
            }
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "{worlds} worlds × {} offsets: {compared} queries compared, {located} points located, {wrong} wrong; {failed} worlds not built or not valid",
        OFFSETS.len()
    );
}

fn square(x: f64, y: f64, s: f64) -> [Point; 4] {
    [(x, y), (x + s, y), (x + s, y + s), (x, y + s)].map(Point::from)
}

/// Reported: 5e6 from the origin, the straight line from an obstacle's corner was clear but the
/// exact path went round (4.3295 for 4.3157): the point locator's buckets were grown by a
/// billionth of their width, below one ulp there, so the corner missed some of its regions.
#[test]
fn far_from_the_origin_a_clear_straight_line_is_the_path() {
    let text = "boundary 5000000,5000000 5000004,5000000 5000008,5000000 5000008,5000008 5000000,5000008\n\
        obstacle 5000002.25,5000003.5 5000004,5000003.5 5000004,5000005.25 5000002.25,5000005.25\n\
        obstacle 5000002.25,5000001 5000003.25,5000001 5000003.25,5000002.75 5000002.25,5000002.75\n";
    let exact = ExactRooms::build(&NavMeshBuilder::from_text(text).unwrap().build().unwrap()).unwrap();
    let (s, t) = (Point::new(5_000_002.25, 5_000_002.75), Point::new(5_000_001.5, 5_000_007.0));
    let d = exact.distance(s, t).expect("connected");
    assert!((d - s.distance(t)).abs() <= 1e-9 * d, "{d} for the straight {}", s.distance(t));
    assert_eq!(exact.path(s, t).unwrap().points(), [s, t]);
}

/// Reported: at 1e8, from a corner of the boundary to a point in sight, "unreachable".
#[test]
fn far_from_the_origin_a_corner_reaches_the_rest() {
    let ring = [(6, 22), (6, 18), (7, 15), (11, 12), (14, 8), (19, 2)];
    let at = |offset: f64| {
        let mesh = NavMesh::builder()
            .boundary(ring.map(|(x, y)| Point::new(offset + f64::from(x), offset + f64::from(y))))
            .build()
            .unwrap();
        ExactRooms::build(&mesh)
            .unwrap()
            .distance(Point::new(offset + 11.0, offset + 12.0), Point::new(offset + 7.0, offset + 19.0))
    };
    let home = at(0.0).expect("connected at the origin");
    let far = at(1e8).expect("connected at 1e8");
    assert!((far - home).abs() <= 1e-9 * home, "{far} at 1e8, {home} at the origin");
}

/// Reported: on a map 1e9 across, points inside a wall were located (the snap was a billionth
/// of the map's diagonal: 1.4 units); it is a few ulps of the coordinates now.
#[test]
fn on_a_huge_map_points_inside_walls_are_not_walkable() {
    for size in [1e9, 1e12, 1e15] {
        let mesh = NavMesh::builder()
            .boundary(square(0.0, 0.0, size))
            .obstacle(square(1000.0, 1000.0, 1.0))
            .build()
            .unwrap();
        for inside in [
            Point::new(1000.5, 1000.5),
            Point::new(1000.1, 1000.5),
            Point::new(1000.5, 1000.999),
            Point::new(1000.001, 1000.5),
        ] {
            assert_eq!(mesh.region_at(inside), None, "{size}: {inside}");
        }
        for walkable in [
            Point::new(1000.0, 1000.5),
            Point::new(1001.0, 1001.0),
            Point::new(999.9, 1000.5),
            Point::new(size, size),
        ] {
            assert!(mesh.region_at(walkable).is_some(), "{size}: {walkable}");
        }
    }
}

/// Reported: an agent radius below what the coordinates resolve (1e-15 on arena, whose
/// coordinates reach 49) made 58 blocked cells walkable and 990 open cells not, and at 1e-16
/// nothing was walkable. Such a radius is refused, or its walls kept: every open cell's centre
/// walkable, no blocked one's.
#[test]
fn a_radius_below_the_coordinates_resolution_keeps_every_wall() {
    let grid =
        parse_map(&std::fs::read(format!("{}/../../maps/arena.map", env!("CARGO_MANIFEST_DIR"))).unwrap())
            .unwrap();
    for radius in [1e-15, 1e-16, 5e-324] {
        let mesh = match NavMesh::from_grid_for_radius(&grid, radius) {
            Err(Error::RadiusOutOfRange { min, .. }) => {
                assert!(radius < min);
                continue;
            }
            result => result.unwrap(),
        };
        assert_eq!(mesh.check(), Ok(()));
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let centre = Point::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
                let open = grid.is_passable(Cell::new(x, y));
                assert_eq!(mesh.region_at(centre).is_some(), open, "radius {radius}: cell ({x}, {y})");
            }
        }
    }
}

/// Reported: a radius of about 1e154 or more panicked inside the polygon union; a radius that
/// large leaves nothing walkable, or is refused.
#[test]
fn a_huge_radius_is_an_error_not_a_panic() {
    let grid =
        parse_map(&std::fs::read(format!("{}/../../maps/arena.map", env!("CARGO_MANIFEST_DIR"))).unwrap())
            .unwrap();
    for radius in [1e60, 1e100, 1e154, 1e200, f64::MAX] {
        let polygon = NavMesh::builder().boundary(square(0.0, 0.0, 8.0)).agent_radius(radius).build();
        let map = NavMesh::from_grid_for_radius(&grid, radius);
        for result in [polygon, map] {
            assert!(
                matches!(result, Err(Error::NothingWalkable | Error::RadiusOutOfRange { .. })),
                "{radius}: {result:?}"
            );
        }
    }
}

/// Reported: in a boundary 1e17 across, a unit obstacle vanished in the polygon union (which
/// resolves about 2^-53 of the world's half extent) and paths went through it. It is refused,
/// naming the ring and the resolution.
#[test]
fn an_obstacle_below_the_unions_resolution_is_refused() {
    let result =
        NavMesh::builder().boundary(square(0.0, 0.0, 1e17)).obstacle(square(1000.0, 1000.0, 1.0)).build();
    assert!(
        matches!(result, Err(Error::BelowResolution { ring: Ring::Obstacle(0), .. })),
        "{:?}",
        result.map(|m| m.region_at(Point::new(1000.5, 1000.5)))
    );
}

/// Found by the survey: at 1e24 (every coordinate on the `f64` grid there), a corner in sight
/// of a query's end was missing from its cell's list: the exact index's cells were whole units,
/// whose bounds round beyond 2^53, so a point near one was listed under the wrong cell.
#[test]
fn beyond_2_pow_53_a_corner_in_sight_is_in_the_cells_list() {
    let world = World { w: 56, h: 36, obstacles: vec![vec![(26, 7), (36, 11), (16, 18)]] };
    let (mesh, place) = world.at(1e24, 29).expect("exact at 1e24");
    let exact = ExactRooms::build(&mesh).unwrap();
    let expected = world.shortest((17, 30), (32, 0)).unwrap() * 2f64.powi(27);
    let got = exact.distance(place((17, 30)), place((32, 0))).unwrap();
    assert!((got - expected).abs() <= 1e-9 * expected, "{got}, the shortest is {expected}");
}
