//! Sizes: every size is checked before it is allocated, and a table has one size before and
//! after its build.

use signposts::Error;
use signposts::search::TileGrid;

#[test]
fn tile_grid_try_new_of_u32_max_squared_is_an_error_naming_the_bytes() {
    let words = (u64::from(u32::MAX) * u64::from(u32::MAX)).div_ceil(16);
    assert_eq!(
        TileGrid::try_new(u32::MAX, u32::MAX).unwrap_err(),
        Error::AllocationFailed { bytes: words * 8 }
    );
}

#[test]
#[should_panic(expected = "could not allocate")]
fn tile_grid_new_of_u32_max_squared_panics_with_the_bytes_instead_of_aborting() {
    let _ = TileGrid::new(u32::MAX, u32::MAX);
}
