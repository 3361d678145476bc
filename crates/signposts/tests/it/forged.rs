//! Saved tables edited on purpose, with their checksum recomputed: each either fails to load
//! with an error or answers every query (and takes edits) without panicking or hanging.
//!
//! The checksum only catches accidents; a player editing a game's files can recompute it
//! ([`signposts::format::reseal`] does here), so only the loaders' invariant checks stand between a
//! crafted file and the queries.

use std::panic::{AssertUnwindSafe, catch_unwind};

use proptest::prelude::*;
use signposts::dynamic::Change;
use signposts::format::Check;
use signposts::generate::{Connectivity, maze, walled_grid};
use signposts::grid::{self, Cell, Grid, GridOracle};
use signposts::{CompressedGraph, Error, Graph, GraphBuilder, NextHop, NodeId};

/// Bytes before the body: magic, version, kind.
const HEADER: usize = 16;
/// Bytes after the body: the checksum.
const CHECKSUM: usize = 8;

/// One edit of a body at `at` (taken modulo the body's length): `width` bytes (1 or 4) of
/// `value` written there, or for `width` 0 one bit (`value % 8`) flipped, which keeps most
/// entries within their node's degree and so reaches the queries more often.
#[derive(Debug, Clone, Copy)]
struct Edit {
    at: usize,
    value: u32,
    width: usize,
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec(
        (any::<usize>(), any::<u32>(), prop_oneof![Just(0usize), Just(1usize), Just(4usize)])
            .prop_map(|(at, value, width)| Edit { at, value, width }),
        1..4,
    )
}

/// `bytes` with the edits applied to its body and the checksum recomputed.
fn forge(bytes: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut forged = bytes.to_vec();
    let body = forged.len() - HEADER - CHECKSUM;
    for edit in edits {
        let at = HEADER + edit.at % body;
        if edit.width == 0 {
            forged[at] ^= 1 << (edit.value % 8);
            continue;
        }
        let end = (at + edit.width).min(HEADER + body);
        forged[at..end].copy_from_slice(&edit.value.to_le_bytes()[..end - at]);
    }
    signposts::format::reseal(&mut forged);
    forged
}

/// Runs `f`, failing the test with `what` if it panics.
fn no_panic(what: &str, f: impl FnOnce()) -> Result<(), TestCaseError> {
    prop_assert!(catch_unwind(AssertUnwindSafe(f)).is_ok(), "{} panicked", what);
    Ok(())
}

/// Every query every table answers ([`NextHop`]) on every pair.
fn query_table(t: &impl NextHop) {
    let n = t.nodes_len() as NodeId;
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in 0..n {
            pairs.push((a, b));
            let _ = t.neighbor_to(a, b);
            let _ = t.neighbors_to(a, b).count();
            assert!(t.path_to(a, b).count() <= t.nodes_len());
            let _ = t.cost(a, b);
            let _ = t.path_exists(a, b);
        }
    }
    let mut out = Vec::new();
    t.neighbor_to_each(&pairs, &mut out);
}

/// Every query of a dense graph on every pair: the table's, and the dense graph's own.
fn query_graph(g: &Graph) {
    query_table(g);
    let n = g.nodes_len() as NodeId;
    for a in 0..n {
        let _ = g.neighbors(a);
        let _ = g.component(a);
        for b in 0..n {
            let _ = g.cost(a, b);
            let _ = g.neighbors_away(a, b).count();
        }
    }
    let _ = g.fingerprint();
}

/// Every query, then a few edits (each followed by the queries again).
fn query_and_edit_graph(g: &Graph, seed: u64) {
    query_graph(g);
    let n = g.nodes_len() as NodeId;
    if n < 2 {
        return;
    }
    let mut edited = g.clone();
    let a = (seed % u64::from(n)) as NodeId;
    let b = ((seed / 7 + 1) % u64::from(n)) as NodeId;
    let first = edited.neighbors(a).first().copied();
    let changes = [
        first.map(|v| Change::Disconnect(a, v)),
        (a != b).then_some(Change::Connect(a, b)),
        (a != b).then_some(Change::ConnectWeighted(b, a, 3)),
        first.map(|v| Change::Connect(a, v)),
    ];
    for change in changes.into_iter().flatten() {
        let _ = edited.apply(&[change]);
        query_graph(&edited);
    }
}

fn query_compressed(g: &CompressedGraph) {
    query_table(g);
    let n = g.nodes_len() as NodeId;
    for a in 0..n {
        for b in 0..n {
            let _ = g.cost(a, b);
        }
    }
    let _ = g.fingerprint();
}

fn query_oracle(o: &GridOracle) {
    let (w, h) = (o.grid().width(), o.grid().height());
    let cells: Vec<Cell> = (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).collect();
    let mut pairs = Vec::new();
    for &a in &cells {
        let _ = o.node(a);
        for &b in &cells {
            pairs.push((a, b));
            let _ = o.next_step(a, b);
            let _ = o.next_steps(a, b).count();
            assert!(o.path(a, b).count() <= cells.len());
            let _ = o.cost(a, b);
            let _ = o.distance(a, b);
            let _ = o.path_exists(a, b);
        }
    }
    let mut out = Vec::new();
    o.next_step_each(&pairs, &mut out);
}

fn query_and_edit_oracle(o: &GridOracle, seed: u64) {
    query_oracle(o);
    let (w, h) = (o.grid().width(), o.grid().height());
    let mut edited = o.clone();
    for k in 0..3u64 {
        let i = (seed.wrapping_add(k * 0x9E37) % (u64::from(w) * u64::from(h))) as u32;
        let cell = Cell::new(i % w, i / w);
        let blocked = edited.grid().is_passable(cell);
        let _ = edited.set_blocked(cell, blocked);
        query_oracle(&edited);
    }
}

fn saved_graph(g: &Graph) -> Vec<u8> {
    let mut bytes = Vec::new();
    g.save(&mut bytes).unwrap();
    bytes
}

/// The graph families the forgeries start from (at most 100 nodes each).
fn family(which: u8, seed: u64) -> GraphBuilder {
    match which % 4 {
        0 => walled_grid(9, 8, 0.2, seed, Connectivity::Four),
        1 => walled_grid(8, 7, 0.2, seed, Connectivity::EightUnit),
        2 => maze(7, 7, seed),
        _ => {
            let mut rng = signposts::generate::SplitMix64::new(seed);
            let n = 40;
            let mut b = GraphBuilder::new(n);
            // At most eight neighbours each, which compressed tables support.
            let mut degree = [0u8; 40];
            for _ in 0..70 {
                let (u, v) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                if u != v && degree[u] < 8 && degree[v] < 8 {
                    degree[u] += 1;
                    degree[v] += 1;
                    b.connect(u as NodeId, v as NodeId);
                }
            }
            b
        }
    }
}

fn grid_of(seed: u64) -> Grid {
    let mut rng = signposts::generate::SplitMix64::new(seed);
    Grid::from_fn(7, 6, |_| !rng.chance(0.2))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn forged_dense_tables_load_as_errors_or_answer_without_panicking(
        which in 0u8..4, seed in 0u64..1000, edits in edits()
    ) {
        let graph = family(which, seed).build();
        let forged = forge(&saved_graph(&graph), &edits);
        // Opened in place and verified, a file passes exactly when it loads.
        let opened = Graph::from_bytes(forged.clone(), Check::Sizes).and_then(|g| g.verify().map(|()| g));
        prop_assert_eq!(opened.is_ok(), Graph::load(forged.as_slice()).is_ok());
        if let Ok(loaded) = Graph::load(forged.as_slice()) {
            no_panic("a forged dense table's queries and edits", || query_and_edit_graph(&loaded, seed))?;
        }
    }

    #[test]
    fn forged_compressed_tables_load_as_errors_or_answer_without_panicking(
        which in 0u8..4, seed in 0u64..1000, edits in edits()
    ) {
        let compressed = family(which, seed).build_compressed().unwrap();
        let mut bytes = Vec::new();
        compressed.save(&mut bytes).unwrap();
        let forged = forge(&bytes, &edits);
        let opened = CompressedGraph::from_bytes(forged.clone(), Check::Sizes).and_then(|g| g.verify().map(|()| g));
        prop_assert_eq!(opened.is_ok(), CompressedGraph::load(forged.as_slice()).is_ok());
        if let Ok(loaded) = CompressedGraph::load(forged.as_slice()) {
            no_panic("a forged compressed table's queries", || query_compressed(&loaded))?;
        }
    }

    #[test]
    fn forged_grid_oracles_load_as_errors_or_answer_without_panicking(
        seed in 0u64..1000, eight in any::<bool>(), compressed in any::<bool>(), edits in edits()
    ) {
        let connectivity = if eight { grid::Connectivity::Eight } else { grid::Connectivity::Four };
        let grid = grid_of(seed);
        let oracle = if compressed {
            GridOracle::build_compressed(&grid, connectivity).unwrap()
        } else {
            GridOracle::build(&grid, connectivity).unwrap()
        };
        let mut bytes = Vec::new();
        oracle.save(&mut bytes).unwrap();
        let forged = forge(&bytes, &edits);
        let opened = GridOracle::from_bytes(forged.clone(), Check::Sizes).and_then(|o| o.verify().map(|()| o));
        prop_assert_eq!(opened.is_ok(), GridOracle::load(forged.as_slice()).is_ok());
        if let Ok(loaded) = GridOracle::load(forged.as_slice()) {
            no_panic("a forged grid oracle's queries and edits", || query_and_edit_oracle(&loaded, seed))?;
        }
    }
}

/// Every word of a dense table set to all ones, one at a time: entries then name slots past
/// their node's degree (and moves toward the node itself), which the loader refuses.
#[test]
fn forged_entries_with_slots_past_the_degree_are_errors() {
    let graph = walled_grid(5, 4, 0.1, 3, Connectivity::Four).build();
    let bytes = saved_graph(&graph);
    let n = graph.nodes_len();
    let words = (n as u64).div_ceil(64) as usize * 4 * n; // an upper bound, for the offsets
    let table_end = bytes.len() - CHECKSUM;
    let mut refused = 0;
    for w in (0..words.min((table_end - HEADER) / 8)).map(|k| table_end - 8 * (k + 1)) {
        let mut forged = bytes.clone();
        forged[w..w + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        signposts::format::reseal(&mut forged);
        match Graph::load(forged.as_slice()) {
            Ok(loaded) => query_graph(&loaded),
            Err(Error::Corrupt { .. } | Error::Truncated { .. }) => refused += 1,
            Err(e) => panic!("word at byte {w}: unexpected error {e}"),
        }
    }
    assert!(refused > 0);
}

/// The same for a node of more than 64 neighbours, whose entries are whole words.
#[test]
fn forged_wide_entries_with_slots_past_the_degree_are_errors() {
    let mut star = GraphBuilder::new(71);
    for leaf in 1..71 {
        star.connect(0, leaf);
    }
    let graph = star.build();
    let bytes = saved_graph(&graph);
    let table_end = bytes.len() - CHECKSUM;
    let words = 2 * (128 + 70);
    let mut refused = 0;
    for w in (0..words).map(|k| table_end - 8 * (k + 1)) {
        let mut forged = bytes.clone();
        forged[w..w + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        signposts::format::reseal(&mut forged);
        match Graph::load(forged.as_slice()) {
            Ok(loaded) => query_graph(&loaded),
            Err(Error::Corrupt { .. }) => refused += 1,
            Err(e) => panic!("word at byte {w}: unexpected error {e}"),
        }
    }
    // At least the hub's second word of each entry (slots 64..128, of which 70 exist).
    assert!(refused >= 128, "{refused} refused");
}

/// The probe's reproduction: a 1×1 map's saved dense table with one 4-byte edit in its body
/// and the checksum recomputed made `signposts query` panic in `graph.rs`.
#[test]
fn a_one_cell_map_with_one_forged_word_does_not_panic_on_query() {
    let oracle = GridOracle::build(&Grid::new(1, 1), grid::Connectivity::Eight).unwrap();
    let mut bytes = Vec::new();
    oracle.save(&mut bytes).unwrap();
    let body = bytes.len() - HEADER - CHECKSUM;
    for at in 0..body - 3 {
        for value in [u32::MAX, 1, 2, 0x8000_0000] {
            let forged = forge(&bytes, &[Edit { at, value, width: 4 }]);
            if let Ok(loaded) = GridOracle::load(forged.as_slice()) {
                let cell = Cell::new(0, 0);
                let _ = loaded.next_step(cell, cell);
                assert!(loaded.path(cell, cell).count() <= 1);
                let _ = loaded.distance(cell, cell);
            }
        }
    }
    // The table's word (the last eight bytes of the body), all bits set, is refused.
    let forged = forge(&bytes, &[Edit { at: body - 8, value: u32::MAX, width: 4 }]);
    assert!(matches!(GridOracle::load(forged.as_slice()), Err(Error::Corrupt { .. })));
}

/// An endless stream of zeros is not a table, and reading it stops at once.
#[test]
fn an_endless_stream_is_an_error_not_an_endless_read() {
    assert!(matches!(Graph::load(std::io::repeat(0)), Err(Error::Format { .. })));
    // A valid header followed by endless bytes stops where the counts say the data ends.
    let graph = Graph::builder(3).build();
    let bytes = saved_graph(&graph);
    let endless = std::io::Read::chain(&bytes[..bytes.len() - CHECKSUM], std::io::repeat(0));
    assert!(Graph::load(endless).is_err());
    let endless = std::io::Read::chain(bytes.as_slice(), std::io::repeat(0));
    assert!(matches!(Graph::load(endless), Err(Error::Corrupt { .. })));
}

/// The checks refuse nothing a graph can hold: tables repaired in place (rows wider than their
/// degree, entries rewritten by repairs) still load as saved.
#[test]
fn edited_tables_still_load() {
    for which in 0..4 {
        let mut graph = family(which, 5).build();
        let n = graph.nodes_len() as NodeId;
        for a in (0..n).step_by(7) {
            if let Some(&v) = graph.neighbors(a).first() {
                graph.apply(&[Change::Disconnect(a, v)]).unwrap();
            }
            graph.apply(&[Change::ConnectWeighted(a, (a * 3 + 1) % n, 2)]).unwrap();
        }
        let loaded = Graph::load(saved_graph(&graph).as_slice()).unwrap();
        assert_eq!(loaded, graph);
    }
}

/// A forged count far past the file's length is cut short where the data ends: the reader
/// takes memory as bytes arrive (a megabyte at a time), not what the count promises.
#[test]
fn counts_past_the_end_of_the_file_are_truncated_not_allocated() {
    let bytes = saved_graph(&walled_grid(6, 5, 0.1, 2, Connectivity::Four).build());
    // The arc count (after magic, version, kind and the node count): 16 GiB of arcs promised.
    let forged = forge(&bytes, &[Edit { at: 8, value: u32::MAX, width: 4 }]);
    match Graph::load(forged.as_slice()) {
        Err(Error::Truncated { expected, actual }) => {
            assert!(expected > 1 << 34, "{expected}");
            assert_eq!(actual, bytes.len() as u64);
        }
        other => panic!("{other:?}"),
    }
}

/// Found by the `saved_table` fuzz target: a length field near `u64::MAX` made the
/// `Truncated` error's expected size overflow (a panic with overflow checks on).
#[test]
fn a_length_near_u64_max_is_truncated_not_an_overflow() {
    let bytes: &[u8] = &[
        0x53, 0x49, 0x47, 0x4e, 0x50, 0x4f, 0x53, 0x54, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03,
        0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x3b, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x3b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x6f, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00,
        0x99, 0xec, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x99, 0xec, 0x5d, 0xe3, 0x52, 0x8d,
    ];
    assert!(signposts::Graph::load(bytes).is_err());
    assert!(signposts::CompressedGraph::load(bytes).is_err());
    assert!(signposts::grid::GridOracle::load(bytes).is_err());
}
