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

/// `signposts build arena.map` quoted the oracle's size before the build and the table's
/// after: the two sizes differ by the cell maps, and each one must equal its own measure.
#[test]
fn memory_needed_equals_memory_bytes_after_the_build_on_every_graph_family() {
    use signposts::GraphBuilder;
    use signposts::generate::{Connectivity, grid, maze, walled_grid};

    let mut weighted = grid(9, 7, Connectivity::Four);
    weighted.connect_weighted(0, 10, 5);
    let mut directed = grid(5, 5, Connectivity::Four);
    directed.connect_directed(0, 24);
    let mut star = GraphBuilder::new(200); // a row of 199 slots: entries of 256 bits
    for leaf in 1..200 {
        star.connect(0, leaf);
    }
    let mut reserved = walled_grid(13, 11, 0.25, 3, Connectivity::EightUnit);
    reserved.reserve_degree(12);
    let families = [
        ("empty", GraphBuilder::new(0)),
        ("isolated", GraphBuilder::new(65)),
        ("grid 4", grid(17, 9, Connectivity::Four)),
        ("grid 8", grid(17, 9, Connectivity::EightUnit)),
        ("walled", walled_grid(30, 30, 0.3, 1, Connectivity::Four)),
        ("maze", maze(12, 12, 5)),
        ("weighted", weighted),
        ("directed", directed),
        ("star", star),
        ("reserved", reserved),
    ];
    for (name, builder) in families {
        let needed = builder.memory_needed();
        assert_eq!(needed, builder.build().memory_bytes() as u64, "{name}");
    }
}

/// The grid oracle's size is its table's plus 5 bytes per cell and 8 per open cell, before and
/// after the build (and after a save and load).
#[test]
fn grid_oracle_memory_needed_is_the_table_plus_the_cell_maps_before_and_after_the_build() {
    use signposts::grid::{Connectivity, Grid, GridOracle};

    let pictures = ["....\n.##.\n....", "#.#.#\n.....\n.#.#.\n#...#", "..\n##\n.."];
    for picture in pictures {
        let grid = Grid::from_ascii(picture).unwrap();
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let needed = GridOracle::memory_needed(&grid, connectivity);
            let table = GridOracle::graph_builder(&grid, connectivity).memory_needed();
            let cells = u64::from(grid.width()) * u64::from(grid.height());
            assert_eq!(needed, table + 5 * cells + 8 * grid.passable_len() as u64, "{picture}");
            let oracle = GridOracle::build(&grid, connectivity).unwrap();
            assert_eq!(oracle.memory_bytes() as u64, needed, "{picture}");
            let mut saved = Vec::new();
            oracle.save(&mut saved).unwrap();
            assert_eq!(GridOracle::load(&saved[..]).unwrap().memory_bytes() as u64, needed, "{picture}");
        }
    }
}

#[test]
fn compressed_grid_oracle_of_more_than_2_pow_24_cells_is_refused_before_any_work() {
    use signposts::grid::{Connectivity, Grid, GridOracle};
    // Refused from the cell count: before this check, 11 s and 2 GB went into the graph first.
    let err = GridOracle::build_compressed(&Grid::new(4097, 4097), Connectivity::Four).unwrap_err();
    assert_eq!(err, Error::TooManyNodes { nodes: 4097 * 4097, max: (1 << 24) - 1 });
}

#[test]
fn grids_past_max_nodes_are_refused_without_a_product_that_wraps_on_32_bit_targets() {
    use signposts::grid::{Grid, parse_map};
    // u32::MAX² wraps a 32-bit usize (wasm32) to a small number; the product is taken in u64.
    assert!(Grid::from_slice(u32::MAX, u32::MAX, &[]).is_err());
    assert!(Grid::from_slice(65_537, 65_537, &[true]).is_err());
    let header = b"type octile\nheight 4294967295\nwidth 4294967295\nmap\n.\n";
    let message = parse_map(header).unwrap_err().to_string();
    assert!(message.contains("too many cells"), "{message}");
    let panic = std::panic::catch_unwind(|| Grid::new(u32::MAX, 3)).expect_err("too many cells");
    assert!(panic.downcast_ref::<String>().is_some_and(|m| m.contains("too many cells")));
}
