//! Polygon text into exact mode: `ExactRooms` builds within a small budget without a panic or
//! an overrun, and between its regions' centroids answers paths that start and end where
//! asked, begin with `next_waypoint`, agree with `distance`, and are never longer than the
//! corridor path of `Rooms` (a walkable path between the same points).
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts_rooms::{ExactRooms, NavMeshBuilder, RegionId, Rooms};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(builder) = NavMeshBuilder::from_text(&text) else { return };
    let Ok(mesh) = builder.build() else { return };
    if mesh.regions_len() > 200 {
        return;
    }
    let Ok(exact) = ExactRooms::builder(&mesh).memory_budget(16 << 20).build() else { return };
    assert!(exact.memory_bytes() <= 16 << 20);
    let Ok(rooms) = Rooms::build(&mesh) else { return };
    let n = mesh.regions_len().min(6) as u32;
    for a in 0..n {
        for b in 0..n {
            let (s, t) = (mesh.centroid(RegionId(a)), mesh.centroid(RegionId(b)));
            let (Some(path), Some(corridor)) = (exact.path(s, t), rooms.path(s, t)) else {
                continue;
            };
            let points = path.points();
            assert_eq!((points[0], *points.last().unwrap()), (s, t));
            assert_eq!(exact.next_waypoint(s, t), points.get(1).copied().or(Some(t)));
            let length = path.walked();
            assert_eq!(exact.distance(s, t), Some(length));
            assert!(length <= corridor.length() * (1.0 + 1e-9) + 1e-9, "{text}: {length} > {}", corridor.length());
        }
    }
});
