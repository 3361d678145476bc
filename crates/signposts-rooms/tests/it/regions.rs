//! Convex regions given directly: a mesh's own regions come back as the same mesh, and bad
//! regions are errors naming the region.

use proptest::prelude::*;
use signposts::grid::{Grid, parse_map};
use signposts_rooms::{Error, NavMesh, Point, RegionId, Ring, Rooms};

fn given_back(mesh: &NavMesh) -> NavMesh {
    let regions: Vec<Vec<u32>> =
        (0..mesh.regions_len() as u32).map(|r| mesh.region_vertices(RegionId(r)).to_vec()).collect();
    NavMesh::from_regions(mesh.vertices(), &regions).expect("a mesh's own regions are valid")
}

#[test]
fn a_meshs_own_regions_come_back_as_the_same_mesh() {
    for name in ["arena.map", "den312d.map"] {
        let path = format!("{}/../../maps/{name}", env!("CARGO_MANIFEST_DIR"));
        let grid = parse_map(&std::fs::read(path).unwrap()).unwrap();
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let back = given_back(&mesh);
        assert_eq!((back.regions_len(), back.doors_len()), (mesh.regions_len(), mesh.doors_len()), "{name}");
        assert_eq!(back.doors(), mesh.doors(), "{name}");
        let (a, b) = (Rooms::build(&mesh).unwrap(), Rooms::build(&back).unwrap());
        for (s, t) in [((1.5, 1.5), (40.5, 30.5)), ((20.5, 20.5), (5.5, 40.5)), ((3.5, 10.5), (33.5, 7.5))] {
            let (s, t) = (Point::from(s), Point::from(t));
            assert_eq!(a.path(s, t), b.path(s, t), "{name}: {s} → {t}");
        }
    }
    // Pinch points come back as point doors.
    let grid = Grid::from_ascii("..#\n..#\n##.").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    assert_eq!(given_back(&mesh).doors(), mesh.doors());
}

#[test]
fn bad_regions_are_errors_naming_the_region() {
    let v = [
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 2.0),
        (0.0, 2.0),
        (4.0, 0.0),
        (4.0, 2.0),
        (1.0, 1.0),
        (2.0, 1.0),
        (f64::NAN, 0.0),
    ]
    .map(Point::from);
    let square = vec![0, 1, 2, 3];
    assert_eq!(
        NavMesh::from_regions(&v, &[square.clone(), vec![1, 4, 99]]).unwrap_err(),
        Error::OutOfRange { what: "vertex", id: 99, len: 9 }
    );
    assert!(matches!(
        NavMesh::from_regions(&v, &[vec![0, 1, 8]]),
        Err(Error::BadCoordinate { ring: Ring::Region(0), vertex: 2, .. })
    ));
    assert_eq!(
        NavMesh::from_regions(&v, &[square.clone(), vec![0, 1, 4]]).unwrap_err(),
        Error::Degenerate { ring: Ring::Region(1) }
    );
    // An arrowhead: reflex at (1.5, 1).
    let arrow = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (1.5, 1.0)].map(Point::from);
    assert_eq!(
        NavMesh::from_regions(&arrow, &[vec![0, 1, 2, 3]]).unwrap_err(),
        Error::NotConvex { region: 0, vertex: 3 }
    );
    assert_eq!(
        NavMesh::from_regions(&v, &[square.clone(), vec![6, 7, 2]]).unwrap_err(),
        Error::Overlapping { region: 0, other: 1 }
    );
    assert_eq!(
        NavMesh::from_regions(&v, &[square.clone(), square.clone()]).unwrap_err(),
        Error::Overlapping { region: 0, other: 1 }
    );
    // The right square touches half of the left one's right edge: a T-junction at (2, 1).
    let err = NavMesh::from_regions(&v, &[square, vec![7, 4, 5, 2]]).unwrap_err();
    assert_eq!(err, Error::UnmatchedEdge { region: 0, edge: 1, other: 1 });
    assert!(err.to_string().contains("split it"));
}

/// Slanted strips side by side, each sharing an edge with the next: every two strips'
/// bounding boxes overlap, so testing each pair whose boxes meet tested every pair.
fn strips(n: u32) -> (Vec<Point>, Vec<Vec<u32>>) {
    let mut vertices: Vec<Point> = (0..=n).map(|i| Point::new(f64::from(i), 0.0)).collect();
    vertices.extend((0..=n).map(|i| Point::new(f64::from(i + n), 1.0)));
    let top = |i: u32| n + 1 + i;
    let regions = (0..n).map(|i| vec![i, i + 1, top(i + 1), top(i)]).collect();
    (vertices, regions)
}

#[test]
fn twenty_thousand_strips_are_joined_in_a_sweep() {
    // Every pair tested took minutes for this input (2 · 10⁸ pairs).
    let (mut vertices, mut regions) = strips(20_000);
    let mesh = NavMesh::from_regions(&vertices, &regions).unwrap();
    assert_eq!((mesh.regions_len(), mesh.doors_len()), (20_000, 19_999));
    // A triangle inside strip 10 (the strips lean: half-way up, strip i spans i + 10,000 to
    // i + 10,001): it overlaps that strip only.
    let at = vertices.len() as u32;
    vertices.extend([Point::new(10_010.2, 0.5), Point::new(10_010.8, 0.5), Point::new(10_010.5, 0.6)]);
    regions.push(vec![at, at + 1, at + 2]);
    let err = NavMesh::from_regions(&vertices, &regions).unwrap_err();
    assert_eq!(err, Error::Overlapping { region: 10, other: 20_000 });
    // Strip 5,000 split in two along its middle: a T-junction with each neighbour.
    regions.pop();
    let (b, t) = (vertices.len() as u32, vertices.len() as u32 + 1);
    vertices.extend([Point::new(15_000.0, 0.5), Point::new(15_001.0, 0.5)]); // on strip 5,000's sides
    let strip = regions[5_000].clone();
    regions[5_000] = vec![strip[0], strip[1], t, b];
    regions.push(vec![b, t, strip[2], strip[3]]);
    let err = NavMesh::from_regions(&vertices, &regions).unwrap_err();
    assert!(matches!(err, Error::UnmatchedEdge { region: 4_999 | 5_000 | 5_001 | 20_000, .. }), "{err:?}");
}

type Shape = (Vec<(u8, u8)>, bool, bool);

/// Regions on a small lattice: cells as squares, triangle pairs, half-cells (T-junctions with
/// their neighbours) or left out, and a few triangles anywhere (overlaps, vertices on edges);
/// each region in either orientation, some with vertices of their own at shared places.
#[expect(clippy::many_single_char_names, reason = "corners of a cell: a b c d at x y")]
fn lattice_regions() -> impl Strategy<Value = (Vec<Point>, Vec<Vec<u32>>)> {
    let kind = prop_oneof![2 => Just(0u8), 6 => Just(1u8), 3 => Just(2u8), 3 => Just(3u8), 1 => Just(4u8), 1 => Just(5u8)];
    let own = prop_oneof![15 => Just(false), 1 => Just(true)];
    let cells = proptest::collection::vec((kind, any::<bool>(), own), 12);
    let triangle = ((0u8..9, 0u8..7), (0u8..9, 0u8..7), (0u8..9, 0u8..7), any::<bool>());
    (cells, proptest::collection::vec(triangle, 0..2)).prop_map(|(cells, triangles)| {
        // Each shape's corners in half units, whether reversed, whether with vertices of its own.
        let mut shapes: Vec<Shape> = Vec::new();
        for (i, &(kind, reversed, own)) in cells.iter().enumerate() {
            let (x, y) = (2 * (i % 4) as u8, 2 * (i / 4) as u8);
            let (a, b, c, d) = ((x, y), (x + 2, y), (x + 2, y + 2), (x, y + 2));
            let parts = match kind {
                1 => vec![vec![a, b, c, d]],
                2 => vec![vec![a, b, c], vec![a, c, d]],
                3 => vec![vec![a, b, d], vec![b, c, d]],
                4 => vec![vec![a, b, (x + 2, y + 1), (x, y + 1)], vec![(x, y + 1), (x + 2, y + 1), c, d]],
                5 => vec![vec![a, (x + 1, y), b, c, d]],
                _ => vec![],
            };
            shapes.extend(parts.into_iter().map(|p| (p, reversed, own)));
        }
        for (a, b, c, own) in triangles {
            let turn = (i32::from(b.0) - i32::from(a.0)) * (i32::from(c.1) - i32::from(a.1))
                - (i32::from(b.1) - i32::from(a.1)) * (i32::from(c.0) - i32::from(a.0));
            if turn != 0 {
                shapes.push((vec![a, b, c], turn < 0, own));
            }
        }
        let mut ids = std::collections::HashMap::new();
        let mut vertices = Vec::new();
        let mut regions = Vec::new();
        for (mut shape, reversed, own) in shapes {
            if reversed {
                shape.reverse();
            }
            let mut vertex = |p: (u8, u8), vertices: &mut Vec<Point>| {
                let point = Point::new(f64::from(p.0) / 2.0, f64::from(p.1) / 2.0);
                if own {
                    vertices.push(point);
                    return vertices.len() as u32 - 1;
                }
                *ids.entry(p).or_insert_with(|| {
                    vertices.push(point);
                    vertices.len() as u32 - 1
                })
            };
            regions.push(shape.into_iter().map(|p| vertex(p, &mut vertices)).collect());
        }
        (vertices, regions)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn the_sweep_over_regions_agrees_with_testing_every_pair((vertices, regions) in lattice_regions()) {
        let swept = NavMesh::from_regions(&vertices, &regions);
        let paired = NavMesh::from_regions_by_pairs(&vertices, &regions);
        match (&swept, &paired) {
            (Ok(a), Ok(b)) => prop_assert_eq!((a.regions_len(), a.doors_len()), (b.regions_len(), b.doors_len())),
            (
                Err(Error::Overlapping { .. } | Error::UnmatchedEdge { .. }),
                Err(Error::Overlapping { .. } | Error::UnmatchedEdge { .. }),
            ) => {}
            (a, b) => prop_assert!(a.as_ref().err() == b.as_ref().err(), "{:?} {:?}", a.as_ref().err(), b.as_ref().err()),
        }
    }
}
