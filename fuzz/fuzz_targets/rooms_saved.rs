//! Saved rooms: any bytes, and the bytes of small valid rooms edited with the checksum
//! recomputed, load as an error or as rooms that answer every query without a panic or a hang.
//!
//! Input: one byte choosing random bytes (odd) or an edited file (even), then either the bytes,
//! or a 3×3 grid's open cells (9 bits over two bytes) and 3-byte edits (offset, xor).
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts::grid::Grid;
use signposts_rooms::{NavMesh, Point, RegionId, Rooms};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let bytes = if mode & 1 == 1 {
        rest.to_vec()
    } else {
        let Some((cells, edits)) = rest.split_first_chunk::<2>() else { return };
        let open = u16::from_le_bytes(*cells);
        let grid = Grid::from_fn(3, 3, |c| open >> (c.y * 3 + c.x) & 1 == 1);
        let Ok(mesh) = NavMesh::from_grid(&grid) else { return };
        let Ok(rooms) = Rooms::builder(&mesh).link(Point::new(0.5, 0.5), Point::new(2.5, 2.5), 1.0, mode & 2 == 2).build() else {
            return;
        };
        let mut bytes = Vec::new();
        rooms.save(&mut bytes).expect("saved to memory");
        for edit in edits.chunks_exact(3) {
            let at = usize::from(u16::from_le_bytes([edit[0], edit[1]])) % bytes.len();
            bytes[at] ^= edit[2];
        }
        let body = bytes.len() - 8;
        let sum = signposts::format::checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
        bytes
    };
    let Ok(rooms) = Rooms::from_bytes(&bytes) else { return };
    let mesh = rooms.mesh();
    let _ = mesh.check();
    let n = mesh.regions_len().min(6) as u32;
    for a in 0..n {
        for b in 0..n {
            let (s, t) = (mesh.centroid(RegionId(a)), mesh.centroid(RegionId(b)));
            let _ = (rooms.path(s, t), rooms.next_waypoint(s, t), rooms.next_region(RegionId(a), RegionId(b)));
        }
    }
});
