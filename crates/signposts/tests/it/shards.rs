//! Compressed builds in shards: merged, byte for byte the table of one build, for any shard
//! count and map; shards that do not make one table are refused, naming why.

use signposts::generate::{Connectivity, maze, walled_grid};
use signposts::grid::{self, Grid, GridOracle, GridShard, GridShardFile, parse_map};
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

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("signposts-shards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in `dir`, sorted.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Saves parts `0..count` of `grid` in `dir`, returning their paths in index order.
fn saved_parts(
    dir: &std::path::Path,
    grid: &Grid,
    connectivity: grid::Connectivity,
    count: u32,
) -> Vec<std::path::PathBuf> {
    (0..count)
        .map(|i| {
            let path = dir.join(format!("part-{i}.sp"));
            BuildOptions::new()
                .build_grid_shard(grid, connectivity, i, count)
                .unwrap()
                .save_to(&path)
                .unwrap();
            path
        })
        .collect()
}

#[test]
fn merges_that_stream_write_one_builds_bytes_from_parts_in_any_order() {
    let dir = scratch("stream");
    let grid = walls(29, 21);
    for connectivity in [grid::Connectivity::Four, grid::Connectivity::Eight] {
        let whole = GridOracle::build_compressed(&grid, connectivity).unwrap();
        let mut bytes = Vec::new();
        whole.save(&mut bytes).unwrap();
        for count in [1, 2, 3, 7] {
            let paths = saved_parts(&dir, &grid, connectivity, count);
            // Reversed, then rotated: any order gives the same file.
            for turn in [0, 1] {
                let mut order: Vec<_> = paths.iter().rev().collect();
                let len = order.len();
                order.rotate_left(turn % len);
                let parts: Vec<GridShardFile> =
                    order.iter().map(|p| GridShardFile::open(p).unwrap()).collect();
                let batches = std::sync::atomic::AtomicUsize::new(0);
                let merged = BuildOptions::new()
                    .progress(|p| {
                        assert!(p.done <= p.total);
                        batches.fetch_max(p.done, std::sync::atomic::Ordering::Relaxed);
                    })
                    .merge_grid_shards_to(&parts, dir.join("merged.sp"))
                    .unwrap();
                let saved = std::fs::read(dir.join("merged.sp")).unwrap();
                assert!(saved == bytes, "{connectivity:?}, {count} parts, turn {turn}: merged bytes differ");
                assert_eq!(
                    (merged.nodes, merged.memory_bytes, merged.file_bytes),
                    (whole.nodes_len(), whole.memory_bytes(), bytes.len() as u64)
                );
                assert!(batches.into_inner() >= 1);
            }
            for path in paths {
                std::fs::remove_file(path).unwrap();
            }
        }
    }
    assert_eq!(listing(&dir), ["merged.sp"], "no temporary file is left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_part_found_while_merging_leaves_the_target_as_it_was_and_no_temporary_file() {
    let dir = scratch("late");
    let grid = walls(23, 17);
    let paths = saved_parts(&dir, &grid, grid::Connectivity::Four, 3);
    // The last part's last run names move 7, which no node of a 4-connected grid has: the
    // part opens (its checksum resealed, its runs in order), and the merge finds the row
    // only once it has folded and spilled the rows before it.
    let mut bytes = std::fs::read(&paths[2]).unwrap();
    let last_move = bytes.len() - 9;
    bytes[last_move] = 0x80;
    signposts::format::reseal(&mut bytes);
    std::fs::write(&paths[2], &bytes).unwrap();
    let parts: Vec<GridShardFile> = paths.iter().map(|p| GridShardFile::open(p).unwrap()).collect();
    let target = dir.join("merged.sp");
    for old in [None, Some(&b"the old table"[..])] {
        if let Some(old) = old {
            std::fs::write(&target, old).unwrap();
        }
        match BuildOptions::new().merge_grid_shards_to(&parts, &target) {
            Err(Error::Corrupt { message }) => assert!(message.contains("names a missing move"), "{message}"),
            other => panic!("expected the forged row refused, got {other:?}"),
        }
        let mut expected = vec!["part-0.sp", "part-1.sp", "part-2.sp"];
        if let Some(old) = old {
            assert_eq!(std::fs::read(&target).unwrap(), old, "the target is left as it was");
            expected.push("merged.sp");
            expected.sort_unstable();
        }
        assert_eq!(listing(&dir), expected, "no output and no temporary file");
    }
    // Cancelled before it starts: nothing written either.
    std::fs::remove_file(&target).unwrap();
    let parts: Vec<GridShardFile> = saved_parts(&dir, &grid, grid::Connectivity::Four, 3)
        .iter()
        .map(|p| GridShardFile::open(p).unwrap())
        .collect();
    let token = signposts::Cancel::new();
    token.cancel();
    let cancelled = BuildOptions::new().cancel(&token).merge_grid_shards_to(&parts, &target);
    assert!(matches!(cancelled, Err(Error::Cancelled)), "{cancelled:?}");
    assert_eq!(listing(&dir), ["part-0.sp", "part-1.sp", "part-2.sp"]);
    // And merged whole, they make the table.
    BuildOptions::new().merge_grid_shards_to(&parts, &target).unwrap();
    GridOracle::load_from(&target).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merges_that_stream_refuse_what_the_merge_in_memory_refuses() {
    let dir = scratch("refused");
    let (a, b) = (walls(12, 10), walls(12, 11));
    let four = saved_parts(&dir, &a, grid::Connectivity::Four, 3);
    let open = |p: &std::path::PathBuf| GridShardFile::open(p).unwrap();
    let refused = |parts: &[GridShardFile], why: &str| match BuildOptions::new()
        .merge_grid_shards_to(parts, dir.join("x.sp"))
    {
        Err(Error::ShardMismatch { message }) => assert!(message.contains(why), "{message:?}: {why:?}"),
        other => panic!("expected a mismatch saying {why:?}, got {other:?}"),
    };
    refused(&[], "no shards");
    refused(&[open(&four[0]), open(&four[2])], "shard 1 of 3 is missing");
    refused(&[open(&four[0]), open(&four[1]), open(&four[1]), open(&four[2])], "given twice");
    let other = dir.join("other.sp");
    BuildOptions::new()
        .build_grid_shard(&b, grid::Connectivity::Four, 1, 3)
        .unwrap()
        .save_to(&other)
        .unwrap();
    refused(&[open(&four[0]), open(&other), open(&four[2])], "another grid");
    BuildOptions::new()
        .build_grid_shard(&a, grid::Connectivity::Eight, 1, 3)
        .unwrap()
        .save_to(&other)
        .unwrap();
    refused(&[open(&four[0]), open(&other), open(&four[2])], "another grid or connectivity");
    BuildOptions::new()
        .build_grid_shard(&a, grid::Connectivity::Four, 1, 2)
        .unwrap()
        .save_to(&other)
        .unwrap();
    refused(&[open(&four[0]), open(&other), open(&four[2])], "shards of 2 and of 3");
    // Damaged files are refused when opened, as loading refuses them.
    let bytes = std::fs::read(&four[1]).unwrap();
    std::fs::write(&other, &bytes[..bytes.len() - 3]).unwrap();
    assert!(GridShardFile::open(&other).is_err());
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    std::fs::write(&other, &flipped).unwrap();
    assert!(GridShardFile::open(&other).is_err());
    // A part changed after it was opened: cut short, it is refused by the merge.
    let parts: Vec<GridShardFile> = four.iter().map(open).collect();
    std::fs::write(&four[2], &bytes[..40]).unwrap();
    let changed = BuildOptions::new().merge_grid_shards_to(&parts, dir.join("x.sp"));
    assert!(matches!(changed, Err(Error::Corrupt { .. } | Error::Io { .. })), "{changed:?}");
    assert!(!listing(&dir).iter().any(|n| n.contains("x.sp")), "{:?}", listing(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}
