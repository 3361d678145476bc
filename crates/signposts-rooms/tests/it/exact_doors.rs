//! Doors opened and closed in place: after every toggle the index is the one a fresh build
//! with the new door states makes, byte for byte, in every tier.

use proptest::prelude::*;
use signposts_rooms::{DoorId, DoorState, ExactRooms, NavMesh, Tier};

use crate::exact::grid_strategy;
use crate::polygons::{thin_world, world};

const TIERS: [Tier; 5] = [Tier::Graph, Tier::Labels, Tier::CompactLabels, Tier::Table, Tier::CompactTable];

fn bytes(exact: &ExactRooms) -> Vec<u8> {
    let mut out = Vec::new();
    exact.save(&mut out).expect("saved to memory");
    out
}

/// Toggles the doors `picks` names (modulo the doors) one after another in an index of
/// `tier`, comparing it with a fresh build after each. Returns the toggles made.
fn toggle_and_compare(mesh: &NavMesh, tier: Tier, picks: &[(u16, bool)]) -> Result<usize, TestCaseError> {
    if mesh.doors_len() == 0 {
        return Ok(0);
    }
    let mut states = vec![DoorState::Open; mesh.doors_len()];
    let mut exact = ExactRooms::builder(mesh).tier(tier).build().unwrap();
    let mut made = 0;
    for &(pick, open) in picks {
        let d = usize::from(pick) % mesh.doors_len();
        states[d] = if open { DoorState::Open } else { DoorState::Closed };
        exact.set_door_open(DoorId(d as u32), open).unwrap();
        let fresh = ExactRooms::builder(mesh).door_states(states.clone()).tier(tier).build().unwrap();
        prop_assert_eq!(exact.tier(), fresh.tier());
        prop_assert_eq!(exact.corners_len(), fresh.corners_len(), "door {} open {}", d, open);
        prop_assert_eq!(exact.edges_len(), fresh.edges_len(), "door {} open {}", d, open);
        prop_assert!(
            bytes(&exact) == bytes(&fresh),
            "{:?}: door {} open {}: the repaired index differs",
            tier,
            d,
            open
        );
        made += 1;
    }
    Ok(made)
}

fn picks() -> impl Strategy<Value = Vec<(u16, bool)>> {
    proptest::collection::vec((any::<u16>(), proptest::bool::weighted(0.4)), 1..8)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    #[test]
    fn grid_doors_toggled_in_place_equal_fresh_builds(grid in grid_strategy(), picks in picks(), tier in 0usize..5) {
        prop_assume!(!crate::common::open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        toggle_and_compare(&mesh, TIERS[tier], &picks)?;
    }

    /// Larger grids in the default tier, where trees are deep and rows many.
    #[test]
    fn larger_grid_doors_toggled_in_place_equal_fresh_builds(
        grid in (8u32..18, 8u32..18).prop_flat_map(|(w, h)| {
            (Just(w), Just(h), proptest::collection::vec(proptest::bool::weighted(0.75), (w * h) as usize))
        }).prop_map(|(w, h, open)| signposts::grid::Grid::from_slice(w, h, &open).expect("sizes match")),
        picks in picks(),
    ) {
        prop_assume!(!crate::common::open_cells(&grid).is_empty());
        let mesh = NavMesh::from_grid(&grid).unwrap();
        toggle_and_compare(&mesh, Tier::Labels, &picks)?;
    }

    #[test]
    fn polygon_doors_toggled_in_place_equal_fresh_builds(world in world(), picks in picks(), tier in 0usize..3) {
        let Ok(mesh) = world.mesh() else { return Ok(()) };
        toggle_and_compare(&mesh, TIERS[tier], &picks)?;
    }

    #[test]
    fn thin_world_doors_toggled_in_place_equal_fresh_builds(world in thin_world(), picks in picks(), tier in 0usize..3) {
        let Ok(mesh) = world.mesh() else { return Ok(()) };
        toggle_and_compare(&mesh, TIERS[tier], &picks)?;
    }
}

/// An index opened in place from its saved bytes repairs as a built one does (its arrays read
/// from the file, the repaired ones in memory), and a door out of range is an error that
/// changes nothing.
#[test]
fn an_index_opened_in_place_repairs_as_a_built_one() {
    let grid = signposts::grid::Grid::from_ascii("......\n.@@.@.\n......\n.@..@.\n......").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    for tier in TIERS {
        let built = ExactRooms::builder(&mesh).tier(tier).build().unwrap();
        let mut opened = ExactRooms::from_bytes(bytes(&built), signposts::format::Check::Sizes).unwrap();
        let mut states = vec![DoorState::Open; mesh.doors_len()];
        for d in (0..mesh.doors_len()).step_by(3) {
            opened.set_door_open(DoorId(d as u32), false).unwrap();
            states[d] = DoorState::Closed;
            let fresh = ExactRooms::builder(&mesh).door_states(states.clone()).tier(tier).build().unwrap();
            assert!(bytes(&opened) == bytes(&fresh), "{tier:?}: door {d}");
        }
        let before = bytes(&opened);
        let err = opened.set_door_open(DoorId(mesh.doors_len() as u32), false).unwrap_err();
        assert!(matches!(err, signposts_rooms::Error::OutOfRange { what: "door", .. }), "{err}");
        assert!(bytes(&opened) == before);
    }
}

/// `with_door_open` leaves the index as it was and gives what `set_door_open` makes.
#[test]
fn with_door_open_leaves_the_index_and_gives_the_toggled_one() {
    let grid = signposts::grid::Grid::from_ascii("......\n.@@.@.\n......\n.@..@.\n......").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    for tier in TIERS {
        let exact = ExactRooms::builder(&mesh).tier(tier).build().unwrap();
        let before = bytes(&exact);
        for d in 0..mesh.doors_len() as u32 {
            let closed = exact.with_door_open(DoorId(d), false).unwrap();
            assert!(bytes(&exact) == before, "{tier:?}: door {d}");
            let mut toggled = exact.clone();
            toggled.set_door_open(DoorId(d), false).unwrap();
            assert!(bytes(&closed) == bytes(&toggled), "{tier:?}: door {d}");
            assert!(bytes(&exact.with_door_open(DoorId(d), true).unwrap()) == before); // already open
        }
    }
}
