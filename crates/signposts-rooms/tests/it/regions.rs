//! Convex regions given directly: a mesh's own regions come back as the same mesh, and bad
//! regions are errors naming the region.

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
