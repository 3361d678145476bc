//! Compressed builds in shards: merged, byte for byte the table of one build, for any shard
//! count and map; shards that do not make one table are refused, naming why.

use signposts::generate::{Connectivity, maze, walled_grid};
use signposts::grid::{self, Grid, GridOracle, GridShard, parse_map};
use signposts::{BuildOptions, CompressedGraph, CompressedShard, Error, GraphBuilder};

fn bytes_of(graph: &CompressedGraph) -> Vec<u8> {
    let mut bytes = Vec::new();
    graph.save(&mut bytes).unwrap();
    bytes
}

/// Each shard through its saved bytes, as between machines.
fn shipped(shard: &CompressedShard) -> CompressedShard {
    let mut bytes = Vec::new();
    shard.save(&mut bytes).unwrap();
    CompressedShard::load(bytes.as_slice()).unwrap()
}

fn graphs() -> Vec<(&'static str, GraphBuilder)> {
    let mut weighted = walled_grid(14, 9, 0.15, 3, Connectivity::Four);
    weighted.connect_weighted(0, 20, 5).connect_weighted(7, 60, 3);
    let mut split = walled_grid(12, 8, 0.1, 9, Connectivity::Four);
    split.resize(split.nodes_len() + 5); // isolated nodes: several components
    vec![
        ("4-connected walls", walled_grid(31, 23, 0.2, 1, Connectivity::Four)),
        ("octile walls", GridOracle::graph_builder(&walls(27, 19), grid::Connectivity::Eight)),
        ("perfect maze (all trees)", maze(9, 7, 4)),
        ("weighted", weighted),
        ("several components", split),
    ]
}

fn walls(width: u32, height: u32) -> Grid {
    Grid::from_fn(width, height, |c| (c.x * 7 + c.y * 13) % 6 != 0 || c.y == 0)
}

#[test]
fn merged_shards_are_byte_for_byte_one_build() {
    for (name, builder) in graphs() {
        let whole = bytes_of(&builder.build_compressed().unwrap());
        for count in [1, 2, 3, 7] {
            let mut shards: Vec<CompressedShard> = (0..count)
                .map(|i| shipped(&BuildOptions::new().build_shard(&builder, i, count).unwrap()))
                .collect();
            shards.reverse(); // any order
            let merged = builder.merge_compressed(&shards).unwrap();
            assert_eq!(bytes_of(&merged), whole, "{name}, {count} shards");
        }
    }
}

#[test]
fn merged_grid_parts_are_byte_for_byte_one_build_of_a_real_map() {
    let maps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let text = std::fs::read(maps.join("den312d.map")).expect("the Moving AI maps in maps");
    let grid = parse_map(&text).unwrap();
    for connectivity in [grid::Connectivity::Four, grid::Connectivity::Eight] {
        let mut whole = Vec::new();
        GridOracle::build_compressed(&grid, connectivity).unwrap().save(&mut whole).unwrap();
        for count in [1, 2, 3, 7] {
            let parts: Vec<GridShard> = (0..count)
                .map(|i| {
                    let mut bytes = Vec::new();
                    BuildOptions::new()
                        .build_grid_shard(&grid, connectivity, i, count)
                        .unwrap()
                        .save(&mut bytes)
                        .unwrap();
                    GridShard::load(bytes.as_slice()).unwrap()
                })
                .collect();
            let mut merged = Vec::new();
            GridOracle::merge_shards(&parts).unwrap().save(&mut merged).unwrap();
            assert!(merged == whole, "den312d {connectivity:?}, {count} shards");
        }
    }
}

#[test]
fn shards_that_do_not_make_one_table_are_refused() {
    let builder = walled_grid(20, 15, 0.2, 5, Connectivity::Four);
    let other = walled_grid(20, 15, 0.2, 6, Connectivity::Four);
    let shard = |b: &GraphBuilder, i, k| BuildOptions::new().build_shard(b, i, k).unwrap();
    let refused = |shards: &[CompressedShard], why: &str| match builder.merge_compressed(shards) {
        Err(Error::ShardMismatch { message }) => {
            assert!(message.contains(why), "{message:?} should say {why:?}");
        }
        other => panic!("expected a mismatch saying {why:?}, got {other:?}"),
    };
    refused(&[shard(&builder, 0, 3), shard(&builder, 2, 3)], "shard 1 of 3 is missing");
    refused(&[shard(&builder, 0, 2), shard(&builder, 1, 2), shard(&builder, 1, 2)], "given twice");
    refused(&[shard(&builder, 0, 2), shard(&builder, 0, 2)], "given twice");
    refused(
        &[shard(&builder, 0, 1), shard(&walled_grid(20, 15, 0.2, 8, Connectivity::Four), 0, 1)],
        "another graph",
    );
    let smaller = walled_grid(15, 15, 0.2, 5, Connectivity::Four);
    refused(&[shard(&smaller, 0, 2), shard(&smaller, 1, 2)], "a graph of");
    refused(&[shard(&builder, 0, 2), shard(&builder, 1, 3)], "shards of 3 and of 2");
    refused(&[shard(&builder, 0, 2), shard(&other, 1, 2)], "another graph");
    assert!(matches!(BuildOptions::new().build_shard(&builder, 3, 3), Err(Error::Unsupported { .. })));
    assert!(matches!(BuildOptions::new().build_shard(&builder, 0, 0), Err(Error::Unsupported { .. })));
    assert!(matches!(GridOracle::merge_shards(&[]), Err(Error::ShardMismatch { .. })));
    // Parts of two grids.
    let (a, b) = (walls(10, 10), walls(10, 11));
    let parts = [
        BuildOptions::new().build_grid_shard(&a, grid::Connectivity::Four, 0, 2).unwrap(),
        BuildOptions::new().build_grid_shard(&b, grid::Connectivity::Four, 1, 2).unwrap(),
    ];
    assert!(matches!(GridOracle::merge_shards(&parts), Err(Error::ShardMismatch { .. })));
}

#[test]
fn damaged_parts_are_errors() {
    let part = BuildOptions::new().build_grid_shard(&walls(12, 9), grid::Connectivity::Eight, 1, 2).unwrap();
    let mut bytes = Vec::new();
    part.save(&mut bytes).unwrap();
    assert_eq!(GridShard::load(bytes.as_slice()).unwrap(), part);
    for len in 0..bytes.len() {
        assert!(GridShard::load(&bytes[..len]).is_err(), "cut to {len} bytes");
    }
    for i in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[i] ^= 0x04;
        assert!(GridShard::load(damaged.as_slice()).is_err(), "byte {i} flipped");
    }
    // Shards edited with their checksum recomputed: an error at load or at merge, or a table
    // that passes every check a loaded table passes; never a panic.
    let builder = GridOracle::graph_builder(&walls(12, 9), grid::Connectivity::Eight);
    let first = BuildOptions::new().build_shard(&builder, 0, 2).unwrap();
    let mut raw = Vec::new();
    part.shard().save(&mut raw).unwrap();
    let mut refused = 0;
    for i in 16..raw.len() - 8 {
        let mut forged = raw.clone();
        forged[i] ^= 0x21;
        signposts::format::reseal(&mut forged);
        let merged = CompressedShard::load(forged.as_slice())
            .and_then(|s| builder.merge_compressed(&[first.clone(), s]));
        match merged {
            Err(_) => refused += 1,
            Ok(table) => {
                let mut bytes = Vec::new();
                table.save(&mut bytes).unwrap();
                CompressedGraph::load(bytes.as_slice()).unwrap();
            }
        }
    }
    assert!(refused > raw.len() / 2, "only {refused} of {} forged shards refused", raw.len());
}
