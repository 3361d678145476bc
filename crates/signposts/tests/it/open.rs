//! Opening saved tables in place (`from_bytes`, `map_file`): the same answers as the built
//! table, every truncation an error at open, every flipped byte an error at open or at
//! `verify()`, and an unverified damaged table never loops.

use signposts::format::Check;
use signposts::generate::{Connectivity, walled_grid};
use signposts::grid::{Cell, Grid, GridOracle};
use signposts::{CompressedGraph, Error, Graph, GraphBuilder};

fn save(write: impl FnOnce(&mut Vec<u8>) -> Result<(), Error>) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(&mut bytes).unwrap();
    bytes
}

/// A grid with a few walls, some of them closing off pockets.
fn walls(width: u32, height: u32) -> Grid {
    Grid::from_fn(width, height, |c| (c.x * 7 + c.y * 13) % 5 != 0 || c.x == 0)
}

/// Graphs of every kind the dense format stores: unit, octile, weighted and directed, empty.
fn dense_graphs() -> Vec<Graph> {
    let mut weighted = GraphBuilder::new(5);
    weighted
        .connect_weighted(0, 1, 3)
        .connect_directed_weighted(1, 2, 7)
        .connect(2, 3)
        .connect_directed(4, 0);
    let octile = GridOracle::graph_builder(&walls(9, 9), signposts::grid::Connectivity::Eight);
    vec![
        walled_grid(23, 17, 0.2, 4, Connectivity::Four).build(),
        octile.build(),
        weighted.build(),
        GraphBuilder::new(0).build(),
    ]
}

/// Compressed tables with peeled trees, several components, octile moves and weights.
fn compressed_graphs() -> Vec<CompressedGraph> {
    let octile = GridOracle::graph_builder(&walls(14, 11), signposts::grid::Connectivity::Eight);
    let mut weighted = walled_grid(8, 8, 0.1, 5, Connectivity::Four);
    weighted.connect_weighted(0, 9, 4);
    [walled_grid(20, 13, 0.3, 1, Connectivity::Four), octile, weighted, GraphBuilder::new(1)]
        .iter()
        .map(|b| b.build_compressed().unwrap())
        .collect()
}

/// Every pair's first move and distance agree.
fn same_answers_dense(a: &Graph, b: &Graph) {
    let n = a.nodes_len() as u32;
    for u in 0..n {
        for t in 0..n {
            assert_eq!(a.neighbors_to(u, t).collect::<Vec<_>>(), b.neighbors_to(u, t).collect::<Vec<_>>());
            assert_eq!(a.cost(u, t), b.cost(u, t));
        }
    }
}

fn same_answers_compressed(a: &CompressedGraph, b: &CompressedGraph) {
    let n = a.nodes_len() as u32;
    for u in 0..n {
        for t in 0..n {
            assert_eq!(a.neighbor_to(u, t), b.neighbor_to(u, t));
            assert_eq!(a.cost(u, t), b.cost(u, t));
        }
    }
}

#[test]
fn opened_tables_answer_as_built_ones() {
    for graph in dense_graphs() {
        let bytes = save(|w| graph.save(w));
        for check in [Check::Sizes, Check::Full] {
            let opened = Graph::from_bytes(bytes.clone(), check).unwrap();
            assert_eq!(opened, graph);
            same_answers_dense(&opened, &graph);
            opened.verify().unwrap();
        }
    }
    for graph in compressed_graphs() {
        let bytes = save(|w| graph.save(w));
        for check in [Check::Sizes, Check::Full] {
            let opened = CompressedGraph::from_bytes(bytes.clone(), check).unwrap();
            assert_eq!(opened, graph);
            same_answers_compressed(&opened, &graph);
            opened.verify().unwrap();
        }
        // Saving an opened table writes the same bytes.
        let opened = CompressedGraph::from_bytes(bytes.clone(), Check::Sizes).unwrap();
        assert_eq!(save(|w| opened.save(w)), bytes);
    }
}

/// Bytes the test can still read after handing them to an oracle.
#[derive(Clone)]
struct Shared(std::sync::Arc<Vec<u8>>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

#[test]
fn opened_grid_oracles_answer_and_edit_as_built_ones() {
    let grid = Grid::from_ascii("..#....\n.#...#.\n...#...\n.#.....").unwrap();
    for connectivity in [signposts::grid::Connectivity::Four, signposts::grid::Connectivity::Eight] {
        let dense = GridOracle::build(&grid, connectivity).unwrap();
        let compressed = GridOracle::build_compressed(&grid, connectivity).unwrap();
        for oracle in [dense, compressed] {
            let bytes = save(|w| oracle.save(w));
            let shared = Shared(std::sync::Arc::new(bytes.clone()));
            let mut opened = GridOracle::from_bytes(shared.clone(), Check::Sizes).unwrap();
            opened.verify().unwrap();
            let cells: Vec<Cell> = (0..4).flat_map(|y| (0..7).map(move |x| Cell::new(x, y))).collect();
            for &a in &cells {
                for &b in &cells {
                    assert_eq!(opened.next_step(a, b), oracle.next_step(a, b));
                    assert_eq!(opened.cost(a, b), oracle.cost(a, b));
                }
            }
            // An edit copies what it changes and leaves the file's bytes alone.
            let mut edited = oracle.clone();
            edited.set_blocked(Cell::new(2, 0), true).unwrap();
            opened.set_blocked(Cell::new(2, 0), true).unwrap();
            for &a in &cells {
                for &b in &cells {
                    assert_eq!(opened.next_step(a, b), edited.next_step(a, b));
                }
            }
            assert_eq!(*shared.0, bytes);
        }
    }
}

/// Every kind of saved file, as (name, bytes, open with `check`, then verify).
type Opener = fn(Vec<u8>, Check) -> Result<(), Error>;

fn files() -> Vec<(&'static str, Vec<u8>, Opener)> {
    let dense = &dense_graphs()[0];
    let compressed = &compressed_graphs()[1];
    let grid = Grid::from_ascii("..#..\n.#...\n...#.").unwrap();
    let oracle = GridOracle::build(&grid, signposts::grid::Connectivity::Eight).unwrap();
    let small = GridOracle::build_compressed(&grid, signposts::grid::Connectivity::Four).unwrap();
    vec![
        ("dense graph", save(|w| dense.save(w)), |b, c| Graph::from_bytes(b, c)?.verify()),
        ("compressed graph", save(|w| compressed.save(w)), |b, c| {
            CompressedGraph::from_bytes(b, c)?.verify()
        }),
        ("grid oracle", save(|w| oracle.save(w)), |b, c| GridOracle::from_bytes(b, c)?.verify()),
        ("compressed grid oracle", save(|w| small.save(w)), |b, c| GridOracle::from_bytes(b, c)?.verify()),
    ]
}

#[test]
fn every_truncation_is_an_error_at_open() {
    for (name, bytes, open) in files() {
        for len in 0..bytes.len() {
            let result = open(bytes[..len].to_vec(), Check::Sizes);
            assert!(
                matches!(result, Err(Error::Truncated { .. })),
                "{name} cut to {len} of {} bytes: {result:?}",
                bytes.len()
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(open(longer, Check::Sizes), Err(Error::Corrupt { .. })), "{name} with a byte more");
        open(bytes, Check::Sizes).unwrap();
    }
}

#[test]
fn every_flipped_byte_is_an_error_at_open_or_at_verify() {
    for (name, bytes, open) in files() {
        for i in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x10;
            // `open` verifies after opening, so an error from either counts.
            assert!(open(damaged.clone(), Check::Sizes).is_err(), "{name}: byte {i} flipped");
            assert!(open(damaged, Check::Full).is_err(), "{name}: byte {i} flipped, full check");
        }
    }
}

/// Runs `query`, a panic allowed (an unverified damaged table may panic), and returns
/// whether it answered.
fn answers(query: impl FnOnce()) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(query)).is_ok()
}

#[test]
fn unverified_damaged_tables_answer_or_panic_but_never_loop() {
    let compressed = &compressed_graphs()[0];
    let dense = &dense_graphs()[0];
    let grid = Grid::from_ascii("..#..\n.#...\n...#.").unwrap();
    let oracle = GridOracle::build(&grid, signposts::grid::Connectivity::Eight).unwrap();
    let files: [(Vec<u8>, usize); 3] = [
        (save(|w| compressed.save(w)), compressed.nodes_len()),
        (save(|w| dense.save(w)), dense.nodes_len()),
        (save(|w| oracle.save(w)), 15),
    ];
    let (mut opened_unverified, mut answered) = (0, 0);
    for (kind, (bytes, n)) in files.iter().enumerate() {
        let n = *n as u32;
        for i in (0..bytes.len()).step_by(3) {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0xA5;
            // Each query in its own unwind, so that one panic does not skip the others; every
            // walk returns (the loops are bounded), or the test hangs.
            let queries = || (0..n).step_by(11).flat_map(|u| (0..n).step_by(7).map(move |t| (u, t)));
            let count = |ok: bool| usize::from(ok);
            let opened = match kind {
                0 => CompressedGraph::from_bytes(damaged, Check::Sizes).ok().map(|g| {
                    queries()
                        .map(|(u, t)| {
                            count(answers(|| {
                                let _ = (g.neighbor_to(u, t), g.cost(u, t));
                                assert!(g.path_to(u, t).count() <= n as usize);
                            }))
                        })
                        .sum::<usize>()
                }),
                1 => Graph::from_bytes(damaged, Check::Sizes).ok().map(|g| {
                    queries()
                        .map(|(u, t)| {
                            count(answers(|| {
                                let _ = (g.neighbor_to(u, t), g.neighbors_to(u, t).count(), g.cost(u, t));
                                assert!(g.path_to(u, t).count() <= n as usize);
                            }))
                        })
                        .sum::<usize>()
                }),
                _ => GridOracle::from_bytes(damaged, Check::Sizes).ok().map(|o| {
                    queries()
                        .map(|(u, t)| {
                            let (a, b) = (Cell::new(u % 5, u / 5 % 3), Cell::new(t % 5, t / 5 % 3));
                            count(answers(|| {
                                let _ = (o.next_step(a, b), o.distance(a, b));
                                assert!(o.path(a, b).count() <= 15);
                            }))
                        })
                        .sum::<usize>()
                }),
            };
            answered += opened.unwrap_or(0);
            let opened = opened.is_some();
            opened_unverified += usize::from(opened);
        }
    }
    assert!(opened_unverified > 100, "only {opened_unverified} damaged files opened unverified");
    assert!(answered > 1000, "only {answered} queries answered");
}

#[test]
fn misaligned_bytes_are_copied_and_answer_the_same() {
    struct Shifted(Vec<u8>);
    impl AsRef<[u8]> for Shifted {
        fn as_ref(&self) -> &[u8] {
            &self.0[1..]
        }
    }
    let graph = &compressed_graphs()[1];
    let mut bytes = vec![0];
    graph.save(&mut bytes).unwrap();
    let opened = CompressedGraph::from_bytes(Shifted(bytes), Check::Full).unwrap();
    same_answers_compressed(&opened, graph);
}

#[cfg(feature = "mmap")]
#[test]
fn mapped_files_answer_and_damaged_ones_are_errors() {
    let dir = std::env::temp_dir().join(format!("signposts-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let graph = &compressed_graphs()[0];
    let path = dir.join("table.sp");
    graph.save(std::fs::File::create(&path).unwrap()).unwrap();
    // SAFETY: the test alone writes this file, and not while it is mapped.
    let mapped = unsafe { CompressedGraph::map_file(&path, Check::Full) }.unwrap();
    same_answers_compressed(&mapped, graph);
    drop(mapped);

    let dense = GridOracle::build(&Grid::new(6, 5), signposts::grid::Connectivity::Eight).unwrap();
    let grid_path = dir.join("grid.sp");
    dense.save_to(&grid_path).unwrap();
    // SAFETY: as above.
    let mapped = unsafe { GridOracle::map_file(&grid_path, Check::Sizes) }.unwrap();
    assert_eq!(
        mapped.next_step(Cell::new(0, 0), Cell::new(5, 4)),
        dense.next_step(Cell::new(0, 0), Cell::new(5, 4))
    );
    mapped.verify().unwrap();
    drop(mapped);

    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    // SAFETY: as above.
    let cut = unsafe { CompressedGraph::map_file(&path, Check::Sizes) };
    assert!(matches!(cut, Err(Error::Truncated { .. })), "{cut:?}");
    std::fs::write(&path, b"").unwrap();
    // SAFETY: as above.
    let empty = unsafe { CompressedGraph::map_file(&path, Check::Sizes) };
    assert!(matches!(empty, Err(Error::Truncated { .. })), "{empty:?}");
    // SAFETY: as above (no file at all).
    let missing = unsafe { Graph::map_file(dir.join("missing.sp"), Check::Sizes) };
    assert!(matches!(missing, Err(Error::Io { .. })), "{missing:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
