//! Saved exact indexes: loaded, opened in place or mapped, they answer as the built index
//! does, save back to the same bytes, and a truncated, damaged or foreign file is refused
//! (or, opened in place with `Check::Sizes`, caught by `verify`).

use crate::exact::{grid_strategy, polygon_mesh, sample};
use proptest::prelude::*;
use signposts::format::Check;
use signposts::grid::Grid;
use signposts_rooms::{DoorState, Error, ExactRooms, NavMesh, Point, Rooms, Tier};

fn saved(exact: &ExactRooms) -> Vec<u8> {
    let mut bytes = Vec::new();
    exact.save(&mut bytes).unwrap();
    bytes
}

/// Every query between `points`, `distance`, `path` and `next_waypoint`, answered alike.
fn same_answers(built: &ExactRooms, other: &ExactRooms, points: &[Point]) -> Result<(), TestCaseError> {
    prop_assert_eq!(built.tier(), other.tier());
    prop_assert_eq!(built.corners_len(), other.corners_len());
    prop_assert_eq!(built.edges_len(), other.edges_len());
    for &s in points {
        for &t in points {
            prop_assert_eq!(built.distance(s, t), other.distance(s, t), "{} → {}", s, t);
            prop_assert_eq!(built.path(s, t), other.path(s, t), "{} → {}", s, t);
            prop_assert_eq!(built.next_waypoint(s, t), other.next_waypoint(s, t), "{} → {}", s, t);
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    built.next_waypoint_toward(points, points[0], &mut a);
    other.next_waypoint_toward(points, points[0], &mut b);
    prop_assert_eq!(a, b);
    Ok(())
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("signposts-exact-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// Random grid maps and polygon worlds, some doors closed, in every tier: loaded, opened in
    /// place (both checks) and mapped, the index answers as built and saves the same bytes.
    #[test]
    fn saved_indexes_answer_as_built(
        grid in grid_strategy(),
        seed in any::<u64>(),
        polygons in any::<bool>(),
        tier in 0usize..5,
        bits in proptest::collection::vec(any::<u8>(), 1..40),
    ) {
        prop_assume!(!crate::common::open_cells(&grid).is_empty());
        let mesh = if polygons { polygon_mesh(&grid) } else { NavMesh::from_grid(&grid).unwrap() };
        let states: Vec<DoorState> = (0..mesh.doors_len())
            .map(|d| if bits[d % bits.len()] % 4 == 0 { DoorState::Closed } else { DoorState::Open })
            .collect();
        let tier = TIERS[tier];
        let built = ExactRooms::builder(&mesh).door_states(states).tier(tier).build().unwrap();
        prop_assert_eq!(built.tier(), tier);
        let bytes = saved(&built);
        let points = sample(&grid, seed, 7);

        let loaded = ExactRooms::load(bytes.as_slice()).unwrap();
        same_answers(&built, &loaded, &points)?;
        prop_assert_eq!(&saved(&loaded), &bytes);
        for check in [Check::Sizes, Check::Full] {
            let opened = ExactRooms::from_bytes(bytes.clone(), check).unwrap();
            opened.verify().unwrap();
            same_answers(&built, &opened, &points)?;
            prop_assert_eq!(&saved(&opened), &bytes);
        }
        // Format 2 (cell entries in 32 bits) still opens, and saves as format 3.
        let old = built.encode_version_2();
        prop_assert_eq!(&old[8..12], &2u32.to_le_bytes());
        let opened = ExactRooms::from_bytes(old, Check::Full).unwrap();
        same_answers(&built, &opened, &points)?;
        if matches!(tier, Tier::Table | Tier::CompactTable) {
            // Without the regions' candidates, which format 2 did not keep: saved so, and read.
            let again = ExactRooms::from_bytes(saved(&opened), Check::Full).unwrap();
            same_answers(&built, &again, &points)?;
        } else {
            prop_assert_eq!(&saved(&opened), &bytes);
        }
        let path = temp(&format!("{seed}.exact"));
        built.save_to(&path).unwrap();
        prop_assert_eq!(&std::fs::read(&path).unwrap(), &bytes);
        // SAFETY: nothing changes the file while it is mapped.
        let mapped = unsafe { ExactRooms::map_file(&path, Check::Sizes) }.unwrap();
        prop_assert!(mapped.is_in_place());
        same_answers(&built, &mapped, &points)?;
        same_answers(&built, &ExactRooms::load_from(&path).unwrap(), &points)?;
        drop(mapped);
        std::fs::remove_file(&path).unwrap();
    }
}

/// Every tier.
const TIERS: [Tier; 5] = [Tier::Table, Tier::CompactTable, Tier::Graph, Tier::Labels, Tier::CompactLabels];

/// A small index in `tier` (a table or labels): a ring round a block, a closed door, an open
/// and a closed link.
fn small(tier: Tier) -> (ExactRooms, Vec<u8>, Vec<Point>) {
    let grid = Grid::from_ascii("....\n.@@.\n....").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let mut states = vec![DoorState::Open; mesh.doors_len()];
    states[0] = DoorState::Closed;
    let mut exact = (ExactRooms::builder(&mesh).door_states(states))
        .link(Point::new(0.5, 0.5), Point::new(3.5, 2.5), 0.5, false)
        .link(Point::new(3.5, 0.5), Point::new(0.5, 2.5), 0.5, true)
        .tier(tier)
        .build()
        .unwrap();
    exact.set_link_open(signposts_rooms::LinkId(1), false).unwrap();
    assert_eq!(exact.tier(), tier);
    let bytes = saved(&exact);
    (exact, bytes, sample(&grid, 7, 6))
}

#[test]
fn every_truncation_and_flipped_byte_is_refused() {
    for tier in [Tier::Table, Tier::Labels, Tier::CompactLabels] {
        every_truncation_and_flipped_byte_is_refused_in(tier);
    }
}

fn every_truncation_and_flipped_byte_is_refused_in(tier: Tier) {
    let (exact, bytes, points) = small(tier);
    for len in 0..bytes.len() {
        let cut = &bytes[..len];
        assert!(matches!(ExactRooms::load(cut), Err(Error::Corrupt { .. })), "{len} bytes loaded");
        for check in [Check::Sizes, Check::Full] {
            assert!(ExactRooms::from_bytes(cut.to_vec(), check).is_err(), "{len} bytes opened");
        }
    }
    let mut opened_unverified = 0;
    for i in 0..bytes.len() {
        for bit in [0, 3, 7] {
            let mut damaged = bytes.clone();
            damaged[i] ^= 1 << bit;
            assert!(ExactRooms::load(damaged.as_slice()).is_err(), "byte {i} bit {bit} loaded");
            assert!(ExactRooms::from_bytes(damaged.clone(), Check::Full).is_err(), "byte {i} bit {bit}");
            // Sizes only: the open may pass (a value of the table or views changed), but
            // `verify` catches it, and queries before it answer or panic, never worse.
            if let Ok(opened) = ExactRooms::from_bytes(damaged, Check::Sizes) {
                opened_unverified += 1;
                assert!(opened.verify().is_err(), "byte {i} bit {bit} verified");
                let _ = std::panic::catch_unwind(|| {
                    for &s in &points {
                        for &t in &points {
                            let _ = (opened.path(s, t), opened.next_waypoint(s, t));
                        }
                    }
                });
            }
        }
    }
    assert!(opened_unverified > 0, "{tier:?}: the table's or labels' values are not read at open");
    let _ = exact;
}

#[test]
fn other_files_say_what_they_are_and_what_loads_them() {
    let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n.@.\n...").unwrap()).unwrap();
    let mut rooms = Vec::new();
    Rooms::build(&mesh).unwrap().save(&mut rooms).unwrap();
    let err = ExactRooms::load(rooms.as_slice()).unwrap_err().to_string();
    assert!(err.contains("Rooms file") && err.contains("Rooms::load"), "{err}");
    let err = ExactRooms::from_bytes(rooms, Check::Full).unwrap_err().to_string();
    assert!(err.contains("Rooms::load"), "{err}");
    let mut table = Vec::new();
    signposts::grid::GridOracle::build(
        &Grid::from_ascii("...\n.#.\n...").unwrap(),
        signposts::grid::Connectivity::Four,
    )
    .unwrap()
    .save(&mut table)
    .unwrap();
    let err = ExactRooms::load(table.as_slice()).unwrap_err().to_string();
    assert!(err.contains("table file") && err.contains("GridOracle::load"), "{err}");
    let err = ExactRooms::load(&b"hello, world"[..]).unwrap_err().to_string();
    assert!(err.contains("not a saved exact index"), "{err}");
}

#[test]
fn lengths_are_checked_before_anything_is_read() {
    let (exact, bytes, _) = small(Tier::Table);
    let path = temp("small.exact");
    exact.save_to(&path).unwrap();
    // A header promising 2^50 bytes: refused against the file's length before any allocation,
    // and as a file larger than memory (saying the bytes) or truncated when streamed.
    let mut forged = bytes.clone();
    forged[16..24].copy_from_slice(&(1u64 << 50).to_le_bytes());
    std::fs::write(&path, &forged).unwrap();
    let err = ExactRooms::load_from(&path).unwrap_err().to_string();
    assert!(err.contains("the header says 1125899906842624 bytes"), "{err}");
    match ExactRooms::load(forged.as_slice()) {
        Err(Error::Core(signposts::Error::AllocationFailed { bytes })) => assert_eq!(bytes, 1 << 50),
        Err(Error::Corrupt { what }) => assert!(what.contains("truncated"), "{what}"),
        other => panic!("{other:?}"),
    }
    // A count of 2^40 vertex coordinates, the checksum redone: more than the file holds, refused before
    // anything is read or allocated for it.
    let mut forged = bytes.clone();
    forged[64..72].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let body = forged.len() - 8;
    let sum = signposts::format::checksum(&forged[..body]);
    forged[body..].copy_from_slice(&sum.to_le_bytes());
    for check in [Check::Sizes, Check::Full] {
        let err = ExactRooms::from_bytes(forged.clone(), check).unwrap_err().to_string();
        assert!(err.contains("truncated: 8796093022208 bytes wanted at byte 72"), "{err}");
    }
    // Bytes after the end.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(ExactRooms::load(longer.as_slice()).is_err());
    assert!(ExactRooms::from_bytes(longer, Check::Sizes).is_err());
    if std::path::Path::new("/dev/zero").exists() {
        assert!(matches!(ExactRooms::load_from("/dev/zero"), Err(Error::Corrupt { .. })));
    }
    assert!(matches!(ExactRooms::load_from(temp("missing.exact")), Err(Error::Io { .. })));
    std::fs::remove_file(&path).unwrap();
}
