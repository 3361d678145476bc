//! Polygon text: `NavMeshBuilder::from_text` and `build` never panic; a built mesh keeps its
//! invariants (`NavMesh::check`), comes back the same through the second build route (its own
//! regions given to `NavMesh::from_regions`), answers paths between its regions' centroids that
//! start and end where asked, and saves and loads to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts_rooms::{NavMesh, NavMeshBuilder, RegionId, Rooms};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(builder) = NavMeshBuilder::from_text(&text) else { return };
    let Ok(mesh) = builder.build() else { return };
    assert_eq!(mesh.check(), Ok(()), "{text}");
    if mesh.regions_len() > 400 {
        return;
    }
    let regions: Vec<Vec<u32>> = (0..mesh.regions_len() as u32).map(|r| mesh.region_vertices(RegionId(r)).to_vec()).collect();
    let again = NavMesh::from_regions(mesh.vertices(), &regions).expect("a mesh's own regions are valid");
    assert_eq!(again.doors(), mesh.doors());
    let Ok(rooms) = Rooms::build(&mesh) else { return };
    let n = mesh.regions_len().min(8) as u32;
    for a in 0..n {
        for b in 0..n {
            let (s, t) = (mesh.centroid(RegionId(a)), mesh.centroid(RegionId(b)));
            if let Some(path) = rooms.path(s, t) {
                let points = path.points();
                assert_eq!((points[0], *points.last().unwrap()), (s, t));
                assert!(path.length().is_finite());
                assert!(rooms.next_waypoint(s, t).is_some());
            }
        }
    }
    let mut bytes = Vec::new();
    rooms.save(&mut bytes).expect("saved to memory");
    let mut again = Vec::new();
    Rooms::from_bytes(&bytes).expect("saved rooms load").save(&mut again).expect("saved to memory");
    assert_eq!(again, bytes);
});
