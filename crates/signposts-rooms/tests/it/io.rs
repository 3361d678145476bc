//! Saved rooms: they load back answering as they were saved, and damaged, truncated or forged
//! files load as errors or as rooms that answer without a panic or a hang.

use crate::common::states_from;
use proptest::prelude::*;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid};
use signposts::search::TileGrid;
use std::io::Read as _;

use signposts_rooms::{DoorNodes, Error, LinkId, NavMesh, Point, Rooms};

fn rooms_strategy() -> impl Strategy<Value = (Rooms, u64)> {
    (3u32..10, 3u32..10, any::<u64>())
        .prop_flat_map(|(w, h, seed)| {
            (
                Just(w),
                Just(h),
                Just(seed),
                proptest::collection::vec(
                    prop_oneof![1 => Just(0u8), 4 => Just(1u8), 1 => Just(2u8)],
                    (w * h) as usize,
                ),
                proptest::collection::vec(any::<u8>(), 64),
            )
        })
        .prop_filter_map("nothing walkable", |(w, h, seed, tags, bits)| {
            let tiles = TileGrid::from_fn(w, h, |c| tags[(c.y * w + c.x) as usize]);
            let mesh = NavMesh::from_tiles(&tiles, 0.0).ok()?;
            let mut rng = SplitMix64::new(seed);
            let open: Vec<Cell> = (0..h)
                .flat_map(|y| (0..w).map(move |x| Cell::new(x, y)))
                .filter(|&c| tiles.tag(c) != Some(0))
                .collect();
            let centre = |c: Cell| Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5);
            let door_nodes = if rng.below(2) == 1 { DoorNodes::Ends } else { DoorNodes::Midpoints };
            let mut builder = Rooms::builder(&mesh)
                .door_states(states_from(&mesh, &bits))
                .area_costs(vec![None, Some(1.0), Some(2.5)])
                .door_nodes(door_nodes);
            for _ in 0..rng.below(3) {
                let (a, b) = (
                    open[rng.below(open.len() as u64) as usize],
                    open[rng.below(open.len() as u64) as usize],
                );
                builder = builder.link(centre(a), centre(b), rng.below(5) as f64, rng.below(2) == 1);
            }
            let mut rooms = builder.build().ok()?;
            if !rooms.links().is_empty() && rng.below(2) == 1 {
                rooms.set_link_open(LinkId(0), false).unwrap();
            }
            Some((rooms, seed))
        })
}

fn queries(rooms: &Rooms, seed: u64) -> Vec<(Point, Point)> {
    let mut rng = SplitMix64::new(seed);
    let vertices = rooms.mesh().vertices();
    let (w, h) = vertices.iter().fold((0.0f64, 0.0f64), |(w, h), p| (w.max(p.x), h.max(p.y)));
    (0..30)
        .map(|_| {
            let mut p = || Point::new(w * rng.below(100) as f64 / 100.0, h * rng.below(100) as f64 / 100.0);
            (p(), p())
        })
        .collect()
}

/// Every query of a loaded table, which must not panic or hang (answers may be anything for a
/// forged file that passes every check).
fn exercise(rooms: &Rooms, seed: u64) {
    for (s, t) in queries(rooms, seed) {
        let _ = (rooms.path(s, t), rooms.next_waypoint(s, t));
    }
    let n = rooms.mesh().regions_len() as u32;
    for a in 0..n.min(12) {
        for b in 0..n.min(12) {
            let _ = (
                rooms.next_region(signposts_rooms::RegionId(a), signposts_rooms::RegionId(b)),
                rooms.region_path(signposts_rooms::RegionId(a), signposts_rooms::RegionId(b)),
            );
        }
    }
}

/// The saved file's bytes.
fn saved(rooms: &Rooms) -> Vec<u8> {
    let mut bytes = Vec::new();
    rooms.save(&mut bytes).unwrap();
    bytes
}

fn reseal(bytes: &mut [u8]) {
    let body = bytes.len() - 8;
    let sum = signposts::format::checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 80, ..ProptestConfig::default() })]

    #[test]
    fn saved_rooms_load_back_and_answer_alike((rooms, seed) in rooms_strategy()) {
        let bytes = saved(&rooms);
        // Every arc of the oracle once: edits remove exactly what they mean to.
        let mut arcs: Vec<(u32, u32)> = rooms.oracle_arcs().map(|(u, v, _)| (u, v)).collect();
        let len = arcs.len();
        arcs.sort_unstable();
        arcs.dedup();
        prop_assert_eq!(arcs.len(), len);
        let loaded = Rooms::from_bytes(&bytes).unwrap();
        prop_assert_eq!(loaded.door_nodes(), rooms.door_nodes());
        prop_assert_eq!(&saved(&loaded), &bytes);
        prop_assert_eq!(saved(&Rooms::load(bytes.as_slice()).unwrap()), bytes);
        for (s, t) in queries(&rooms, seed) {
            prop_assert_eq!(loaded.path(s, t), rooms.path(s, t));
            prop_assert_eq!(loaded.next_waypoint(s, t), rooms.next_waypoint(s, t));
        }
    }

    #[test]
    fn damaged_and_forged_files_are_errors_or_answer_without_panicking(
        (rooms, seed) in rooms_strategy(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        forge in any::<bool>(),
        cut in any::<Option<prop::sample::Index>>(),
    ) {
        let mut bytes = saved(&rooms);
        for (at, value) in &edits {
            let i = at.index(bytes.len());
            bytes[i] ^= value | 1;
        }
        if forge {
            reseal(&mut bytes);
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len()));
        }
        // A stream (length unknown) is refused or loaded exactly as the same bytes in a slice.
        let streamed = Rooms::load(bytes.as_slice()).map(|r| saved(&r));
        prop_assert_eq!(streamed.is_ok(), Rooms::from_bytes(&bytes).is_ok());
        match Rooms::from_bytes(&bytes) {
            Ok(loaded) => {
                prop_assert!(forge, "a damaged file without a resealed checksum loaded");
                exercise(&loaded, seed);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn files_load_back_and_forged_counts_are_refused_by_the_length() {
    let dir = std::env::temp_dir().join(format!("signposts-rooms-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ring.rooms");
    let rooms =
        Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("...\n.#.\n...").unwrap()).unwrap()).unwrap();
    rooms.save_to(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes, saved(&rooms));
    assert_eq!(saved(&Rooms::load_from(&path).unwrap()), bytes);
    assert_eq!(saved(&Rooms::map_file(&path).unwrap()), bytes);

    // A vertex count of 2^40 (16 TiB of vertices) in a file of a few hundred bytes: refused
    // before anything is allocated for it when the length is known, and read until the bytes
    // run out when it is not.
    let mut forged = bytes.clone();
    forged[12..20].copy_from_slice(&(1u64 << 40).to_le_bytes());
    reseal(&mut forged);
    let refused = Rooms::from_bytes(&forged).unwrap_err();
    assert!(
        matches!(&refused, Error::Corrupt { what } if what.contains("more than the file holds")),
        "{refused}"
    );
    std::fs::write(&path, &forged).unwrap();
    assert_eq!(Rooms::load_from(&path).unwrap_err(), refused);
    let streamed = Rooms::load(forged.as_slice()).unwrap_err();
    assert!(matches!(&streamed, Error::Corrupt { what } if what.contains("truncated")), "{streamed}");

    // A cap through `Read::take`: a longer file is truncated, so refused.
    std::fs::write(&path, &bytes).unwrap();
    let capped = Rooms::load(std::fs::File::open(&path).unwrap().take(100)).unwrap_err();
    assert!(matches!(capped, Error::Corrupt { .. }), "{capped}");
    // Bytes after the checksum.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(Rooms::from_bytes(&longer), Err(Error::Corrupt { .. })));
    assert!(matches!(Rooms::load(longer.as_slice()), Err(Error::Corrupt { .. })));
    if std::path::Path::new("/dev/zero").exists() {
        assert!(matches!(Rooms::load_from("/dev/zero"), Err(Error::Corrupt { .. })));
    }
    assert!(matches!(Rooms::load_from(dir.join("missing.rooms")), Err(Error::Io { .. })));
    std::fs::remove_dir_all(dir).unwrap();
}

/// Where the door nodes' byte is in a saved file: before the table's length and the table.
fn door_nodes_at(rooms: &Rooms, bytes: &[u8]) -> usize {
    let mut table = Vec::new();
    rooms.table().save(&mut table).unwrap();
    bytes.len() - 8 - table.len() - 8 - 1
}

/// Both door node settings load back as saved; a version 1 file (no door nodes byte, one node
/// per door) loads as midpoints; an unknown kind, and a version 1 file holding a door ends
/// table, are refused with what is wrong.
#[test]
fn door_nodes_are_kept_in_saved_files_and_version_1_files_read_as_midpoints() {
    let mesh = NavMesh::from_grid(&Grid::from_ascii("....#...\n.##.#.#.\n......#.").unwrap()).unwrap();
    let (a, b) = (Point::new(0.5, 0.5), Point::new(7.5, 2.5));
    for door_nodes in [DoorNodes::Midpoints, DoorNodes::Ends] {
        let rooms = Rooms::builder(&mesh).door_nodes(door_nodes).build().unwrap();
        let bytes = saved(&rooms);
        let loaded = Rooms::from_bytes(&bytes).unwrap();
        assert_eq!(loaded.door_nodes(), door_nodes);
        assert_eq!(loaded.path(a, b), rooms.path(a, b));
        assert_eq!(loaded.table().nodes_len(), rooms.table().nodes_len());
        let at = door_nodes_at(&rooms, &bytes);
        assert_eq!(bytes[at], u8::from(door_nodes == DoorNodes::Ends));
        // Written as version 1 did: no door nodes byte.
        let mut old = bytes.clone();
        old[8..12].copy_from_slice(&1u32.to_le_bytes());
        old.remove(at);
        reseal(&mut old);
        if door_nodes == DoorNodes::Midpoints {
            let loaded = Rooms::from_bytes(&old).unwrap();
            assert_eq!(loaded.door_nodes(), DoorNodes::Midpoints);
            assert_eq!(loaded.path(a, b), rooms.path(a, b));
            assert_eq!(saved(&loaded), bytes); // saved again as version 2
        } else {
            let err = Rooms::from_bytes(&old).unwrap_err();
            assert!(err.to_string().contains("does not belong"), "{err}");
        }
        let mut forged = bytes.clone();
        forged[at] = 2;
        reseal(&mut forged);
        let err = Rooms::from_bytes(&forged).unwrap_err();
        assert!(
            matches!(err, Error::Corrupt { .. }) && err.to_string().contains("door nodes kind 2"),
            "{err}"
        );
    }
    let mut future = saved(&Rooms::build(&mesh).unwrap());
    future[8..12].copy_from_slice(&3u32.to_le_bytes());
    reseal(&mut future);
    let err = Rooms::from_bytes(&future).unwrap_err();
    assert!(err.to_string().contains("format version 3"), "{err}");
}
