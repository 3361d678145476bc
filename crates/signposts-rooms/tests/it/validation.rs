//! Polygon validation at scale and far from the origin: the sweep that finds two edges of a
//! ring meeting, compared with testing every pair; rings of 100,000 vertices; rings at large
//! offsets.

use proptest::prelude::*;
use signposts_rooms::{Error, NavMesh, NavMeshBuilder, Point, Ring};

/// A comb of `teeth` long horizontal teeth (4 · teeth vertices): every horizontal edge spans
/// the comb's whole width, so that edges' bounding boxes all overlap.
fn comb(teeth: u32) -> Vec<Point> {
    let p = |x: f64, y: u32| Point::new(x, f64::from(y));
    let mut ring = vec![p(1001.0, 0), p(1001.0, 2 * teeth - 1)];
    for k in (0..teeth).rev() {
        ring.extend([p(0.0, 2 * k + 1), p(0.0, 2 * k)]);
        if k > 0 {
            ring.extend([p(1000.0, 2 * k), p(1000.0, 2 * k - 1)]);
        }
    }
    ring
}

#[test]
fn a_ring_of_100_000_vertices_is_validated_in_a_sweep() {
    // Testing every pair took about 100 s a validation for this ring (5 · 10⁹ pairs).
    let ring = comb(25_000);
    assert_eq!(ring.len(), 100_000);
    assert_eq!(NavMesh::builder().boundary(ring.clone()).validate(), []);
    // Tooth 12,500's left end moved up: its lower edge now crosses its upper one, and its left
    // end lands on the next tooth's.
    let mut crossed = ring.clone();
    let at = crossed.iter().position(|&q| q == Point::new(0.0, 25_000.0)).unwrap();
    crossed[at] = Point::new(0.0, 25_002.0);
    let problems = NavMesh::builder().boundary(crossed).validate();
    assert!(matches!(problems[..], [Error::SelfIntersecting { ring: Ring::Boundary, .. }]), "{problems:?}");
    // An obstacle of 100,000 vertices outside a boundary of as many: found outside without
    // testing each edge against each.
    let shifted: Vec<Point> = ring.iter().map(|q| Point::new(q.x + 2000.0, q.y)).collect();
    let problems = NavMesh::builder().boundary(ring).obstacle(shifted).validate();
    assert_eq!(problems, [Error::ObstacleOutside { obstacle: 0 }]);
}

#[test]
fn rings_far_from_the_origin_are_valid() {
    // A plain sum of the area cancelled to zero (or the wrong sign) out here.
    let star = |cx: f64, cy: f64, s: f64| -> Vec<Point> {
        [(0.0, -3.0), (1.0, -1.0), (3.0, 0.0), (1.0, 1.0), (0.0, 3.0), (-1.0, 1.0), (-3.0, 0.0), (-1.0, -1.0)]
            .map(|(x, y)| Point::new(cx + x * s, cy + y * s))
            .to_vec()
    };
    let thin = |cx: f64, cy: f64, s: f64| {
        vec![Point::new(cx, cy), Point::new(cx + 2.0 * s, cy), Point::new(cx + s, cy + s)]
    };
    for offset in [2f64.powi(20), 2f64.powi(30), 2f64.powi(40), 1e12, 2f64.powi(48), 1e15] {
        for scale in [1.0, 2.0, 64.0, offset / 1024.0] {
            for ring in
                [star(offset, offset, scale), star(offset, -offset, scale), thin(offset, offset, scale)]
            {
                let problems = NavMesh::builder().boundary(ring.clone()).validate();
                assert_eq!(problems, [], "{ring:?}");
                let (cx, cy) = (ring[0].x, ring[0].y);
                let reversed: Vec<Point> = ring.iter().rev().copied().collect();
                assert_eq!(NavMesh::builder().boundary(reversed).validate(), []);
                // A bow-tie there crosses itself (its halves' areas cancel).
                let bow_tie = [(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)]
                    .map(|(x, y)| Point::new(cx + x * scale, cy + y * scale));
                let problems = NavMesh::builder().boundary(bow_tie).validate();
                assert!(
                    matches!(problems[..], [Error::SelfIntersecting { ring: Ring::Boundary, .. }]),
                    "{problems:?}"
                );
            }
        }
    }
}

#[test]
fn a_symmetric_bow_tie_crosses_itself_and_a_line_has_no_area() {
    let p = |x, y| Point::new(x, y);
    let bow_tie = [p(0.0, 0.0), p(2.0, 2.0), p(2.0, 0.0), p(0.0, 2.0)];
    let problems = NavMesh::builder().boundary(bow_tie).validate();
    assert_eq!(problems, [Error::SelfIntersecting { ring: Ring::Boundary, edge: 0, other: 2 }]);
    let line = [p(0.0, 0.0), p(1.0, 1.0), p(3.0, 3.0), p(2.0, 2.0)];
    assert_eq!(NavMesh::builder().boundary(line).validate(), [Error::Degenerate { ring: Ring::Boundary }]);
}

/// Rings of a few points on a small grid: shared vertices, collinear and overlapping edges.
fn small_ring() -> impl Strategy<Value = Vec<Point>> {
    let coordinate =
        prop_oneof![4 => (0i32..5).prop_map(f64::from), 1 => (0i32..9).prop_map(|c| f64::from(c) / 2.0)];
    proptest::collection::vec((coordinate.clone(), coordinate).prop_map(|(x, y)| Point::new(x, y)), 3..10)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn the_sweep_agrees_with_testing_every_pair(ring in small_ring(), offset in prop_oneof![Just(0.0), Just(1e9)]) {
        let ring: Vec<Point> = ring.iter().map(|q| Point::new(q.x + offset, q.y - offset)).collect();
        let (found, every) = NavMeshBuilder::ring_meeting_edges(&ring);
        prop_assert_eq!(found.is_some(), !every.is_empty(), "{:?} {:?}", found, every);
        if let Some(pair) = found {
            prop_assert!(every.contains(&pair), "{:?} not among {:?}", pair, every);
        }
        // Validation reports what the sweep found, unless the ring has no area.
        let problems = NavMesh::builder().boundary(ring).validate();
        match (found, &problems[..]) {
            (_, [Error::Degenerate { .. }]) | (None, []) => {}
            (Some((edge, other)), [Error::SelfIntersecting { edge: e, other: o, .. }]) => {
                prop_assert_eq!((edge, other), (*e, *o));
            }
            _ => prop_assert!(false, "{:?} {:?}", found, problems),
        }
    }
}

/// Star-shaped rings of up to 60 vertices (simple), some with two vertices swapped (crossing
/// or not): float coordinates, long edges.
fn star_ring() -> impl Strategy<Value = Vec<Point>> {
    let vertex = (0u32..1000, 1u32..40);
    (proptest::collection::vec(vertex, 3..60), any::<(usize, usize)>(), any::<bool>()).prop_map(
        |(mut vertices, (i, j), swap)| {
            vertices.sort_unstable();
            vertices.dedup_by_key(|v| v.0);
            let mut ring: Vec<Point> = vertices
                .iter()
                .map(|&(a, r)| {
                    let angle = f64::from(a) * core::f64::consts::TAU / 1000.0;
                    Point::new(f64::from(r) * angle.cos(), f64::from(r) * angle.sin())
                })
                .collect();
            if swap {
                let n = ring.len();
                ring.swap(i % n, j % n);
            }
            ring
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn the_sweep_agrees_with_testing_every_pair_on_star_rings(ring in star_ring()) {
        let (found, every) = NavMeshBuilder::ring_meeting_edges(&ring);
        prop_assert_eq!(found.is_some(), !every.is_empty(), "{:?} {:?}", found, every);
        if let Some(pair) = found {
            prop_assert!(every.contains(&pair), "{:?} not among {:?}", pair, every);
        }
    }
}
