//! Save/load: round trips, and every damaged file is an error, never a panic.

use proptest::prelude::*;
use signposts::generate::{Connectivity, walled_grid};
use signposts::grid::{Cell, Grid, GridOracle};
use signposts::{Error, Graph, GraphBuilder};

fn saved(graph: &Graph) -> Vec<u8> {
    let mut bytes = Vec::new();
    graph.save(&mut bytes).unwrap();
    bytes
}

#[test]
fn graphs_of_every_kind_round_trip() {
    let mut weighted = GraphBuilder::new(5);
    weighted
        .connect_weighted(0, 1, 3)
        .connect_directed_weighted(1, 2, 7)
        .connect(2, 3)
        .connect_directed(4, 0);
    for builder in [
        walled_grid(23, 17, 0.2, 4, Connectivity::Four),
        walled_grid(9, 9, 0.1, 2, Connectivity::EightUnit),
        weighted,
        GraphBuilder::new(0),
    ] {
        let graph = builder.build();
        let loaded = Graph::load(saved(&graph).as_slice()).unwrap();
        assert_eq!(loaded, graph);
        assert_eq!(loaded.fingerprint(), graph.fingerprint());
    }
}

#[test]
fn grid_oracles_round_trip() {
    let grid = Grid::from_ascii("..#..\n.#...\n...#.").unwrap();
    for connectivity in [signposts::grid::Connectivity::Four, signposts::grid::Connectivity::Eight] {
        let oracle = GridOracle::build(&grid, connectivity).unwrap();
        let mut bytes = Vec::new();
        oracle.save(&mut bytes).unwrap();
        let loaded = GridOracle::load(bytes.as_slice()).unwrap();
        let (a, b) = (Cell::new(0, 0), Cell::new(4, 2));
        assert_eq!(loaded.cost(a, b), oracle.cost(a, b));
        assert_eq!(loaded.path(a, b).collect::<Vec<_>>(), oracle.path(a, b).collect::<Vec<_>>());
        assert_eq!(loaded.grid(), oracle.grid());
    }
}

#[test]
fn every_truncation_and_every_flipped_byte_is_an_error() {
    let mut b = GraphBuilder::new(6);
    b.connect(0, 1).connect(1, 2).connect(2, 0).connect_weighted(3, 4, 2).connect_directed(4, 5);
    let bytes = saved(&b.build());
    for len in 0..bytes.len() {
        assert!(Graph::load(&bytes[..len]).is_err(), "truncated to {len} bytes");
    }
    for i in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[i] ^= 0x10;
        assert!(Graph::load(damaged.as_slice()).is_err(), "byte {i} flipped");
    }
}

#[test]
fn foreign_and_mismatched_files_say_what_they_are() {
    assert!(matches!(Graph::load(&b"GIF89a..........................."[..]), Err(Error::Format { .. })));
    let oracle = GridOracle::build(&Grid::new(3, 3), signposts::grid::Connectivity::Four).unwrap();
    let mut bytes = Vec::new();
    oracle.save(&mut bytes).unwrap();
    let err = Graph::load(bytes.as_slice()).unwrap_err();
    assert_eq!(err.to_string(), "unreadable table: the file holds a grid oracle, not a graph");
    let mut newer = bytes.clone();
    newer[8] = 99;
    assert!(matches!(GridOracle::load(newer.as_slice()), Err(Error::Format { .. })));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn damaged_files_never_panic(cut in 0usize..4000, flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..4)) {
        let bytes = saved(&walled_grid(12, 9, 0.2, 1, Connectivity::EightUnit).build());
        let mut damaged = bytes[..cut.min(bytes.len())].to_vec();
        for (at, byte) in flips {
            if !damaged.is_empty() {
                let i = at % damaged.len();
                damaged[i] = byte;
            }
        }
        let result = Graph::load(damaged.as_slice());
        if damaged != bytes {
            prop_assert!(result.is_err());
        }
    }
}
