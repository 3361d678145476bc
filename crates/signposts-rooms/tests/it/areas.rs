//! Areas and layers: regions never mix areas, a layer that cannot enter an area never walks
//! through it, and meshes of tiles with an agent radius keep their areas apart.

use crate::common::segment_is_walkable;
use proptest::prelude::*;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid};
use signposts::search::TileGrid;
use signposts_rooms::{NavMesh, Point, RegionId, Rooms};

fn tiles_strategy() -> impl Strategy<Value = TileGrid> {
    (3u32..12, 3u32..12)
        .prop_flat_map(|(w, h)| {
            (
                Just(w),
                Just(h),
                proptest::collection::vec(
                    prop_oneof![1 => Just(0u8), 3 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
                    (w * h) as usize,
                ),
            )
        })
        .prop_map(|(w, h, tags)| TileGrid::from_fn(w, h, |c| tags[(c.y * w + c.x) as usize]))
}

#[expect(clippy::cast_sign_loss, reason = "points of the map: not negative")]
fn tag(tiles: &TileGrid, p: Point) -> u8 {
    tiles.tag(Cell::new(p.x as u32, p.y as u32)).unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    #[test]
    fn regions_keep_to_one_area_and_layers_keep_out(tiles in tiles_strategy(), radius in prop_oneof![3 => Just(0.0), 1 => 0.05f64..0.3], seed in any::<u64>()) {
        let Ok(mesh) = NavMesh::from_tiles(&tiles, radius) else { return Ok(()) };
        prop_assert_eq!(mesh.check(), Ok(()));
        for r in 0..mesh.regions_len() as u32 {
            let centre = mesh.centroid(RegionId(r));
            prop_assert_eq!(mesh.area(RegionId(r)), tag(&tiles, centre), "region {} at {}", r, centre);
        }
        // Walkers cannot enter area 2: their paths avoid its cells as if they were walls.
        let walkers = Rooms::builder(&mesh).area_costs(vec![None, Some(1.0), None, Some(2.0)]).build().unwrap();
        let no_mud = Grid::from_fn(tiles.width(), tiles.height(), |c| matches!(tiles.tag(c), Some(1 | 3)));
        let everything = Grid::from_fn(tiles.width(), tiles.height(), |c| tiles.tag(c) != Some(0));
        let all = Rooms::build(&mesh).unwrap();
        let mut rng = SplitMix64::new(seed);
        let (w, h) = (f64::from(tiles.width()), f64::from(tiles.height()));
        for _ in 0..40 {
            let s = Point::new(w * rng.below(1000) as f64 / 1000.0, h * rng.below(1000) as f64 / 1000.0);
            let t = Point::new(w * rng.below(1000) as f64 / 1000.0, h * rng.below(1000) as f64 / 1000.0);
            if let Some(path) = walkers.path(s, t) {
                for pair in path.points().windows(2) {
                    prop_assert!(segment_is_walkable(&no_mud, pair[0], pair[1]), "{} → {}: {} → {} enters area 2: {:?}", s, t, pair[0], pair[1], path.points());
                }
            }
            if let Some(path) = all.path(s, t) {
                for pair in path.points().windows(2) {
                    prop_assert!(segment_is_walkable(&everything, pair[0], pair[1]), "{} → {}: {} → {}", s, t, pair[0], pair[1]);
                }
            }
        }
    }
}

#[test]
fn bad_area_costs_are_errors() {
    let mesh = NavMesh::from_tiles(&TileGrid::from_fn(3, 3, |_| 1), 0.0).unwrap();
    for cost in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let err = Rooms::builder(&mesh).area_costs(vec![None, Some(cost)]).build().unwrap_err();
        assert!(matches!(err, signposts_rooms::Error::BadAreaCost { area: 1, .. }), "{err:?}");
    }
    assert!(matches!(
        NavMesh::from_tiles(&TileGrid::from_fn(3, 3, |_| 0), 0.0),
        Err(signposts_rooms::Error::NothingWalkable)
    ));
}
