//! Saved tables edited on purpose: a valid small table is built from the first bytes, the
//! rest edit its saved bytes, the checksum is recomputed (`format::reseal`) so that only the
//! invariant checks stand between the edit and the queries. A table that loads must answer
//! every query on every pair and take a few edits without panicking or looping.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts::dynamic::Change;
use signposts::generate::{Connectivity, grid_from_fn};
use signposts::grid::{Cell, Grid, GridOracle};
use signposts::{CompressedGraph, Graph};
use signposts_fuzz::{exercise, exercise_grid};

fuzz_target!(|data: &[u8]| {
    let [shape, size, walls_lo, walls_hi, edits @ ..] = data else { return };
    let connectivity = if shape & 1 == 0 { Connectivity::Four } else { Connectivity::Eight };
    let (w, h) = (1 + usize::from(size & 7), 1 + usize::from(size >> 3 & 7));
    // Up to 16 walls chosen by two bytes: bit i walls cell i (cells 0..16).
    let walls = u16::from(*walls_lo) | u16::from(*walls_hi) << 8;
    let open = |x: usize, y: usize| {
        let i = y * w + x;
        i >= 16 || walls >> i & 1 == 0
    };
    let mut bytes = Vec::new();
    match shape >> 1 & 3 {
        0 => grid_from_fn(w, h, connectivity, open).build().save(&mut bytes).unwrap(),
        1 => grid_from_fn(w, h, connectivity, open).build_compressed().unwrap().save(&mut bytes).unwrap(),
        kind => {
            let grid = Grid::from_fn(w as u32, h as u32, |c| open(c.x as usize, c.y as usize));
            let oracle = if kind == 2 {
                GridOracle::build(&grid, connectivity)
            } else {
                GridOracle::build_compressed(&grid, connectivity)
            };
            oracle.unwrap().save(&mut bytes).unwrap();
        }
    }
    // Edits: (offset low, offset high, value) triples; the top bit of the offset's high byte
    // picks xor (flip bits) or set.
    let len = bytes.len();
    for e in edits.chunks_exact(3) {
        let at = usize::from(u16::from(e[0]) | u16::from(e[1] & 0x7f) << 8) % len;
        if e[1] & 0x80 == 0 {
            bytes[at] ^= e[2];
        } else {
            bytes[at] = e[2];
        }
    }
    // A truncation request in a trailing byte: cut the file short (then reseal).
    if edits.len() % 3 == 1 {
        bytes.truncate(len.saturating_sub(usize::from(edits[edits.len() - 1]) % 32));
    }
    signposts::format::reseal(&mut bytes);
    let pick = |i: usize| edits.get(i).copied().map_or(0, u32::from);

    if let Ok(mut graph) = Graph::load(bytes.as_slice()) {
        exercise(&graph, false);
        let n = graph.nodes_len() as u32;
        if n > 0 {
            let (a, b, c) = (pick(0) % n, pick(1) % n, pick(2) % n);
            let _ = graph.apply(&[Change::Connect(a, b)]);
            let _ = graph.apply(&[Change::Disconnect(b, c)]);
            let _ = graph.apply(&[Change::ConnectDirected(c, a, 1 + pick(3) % 4)]);
            exercise(&graph, false);
        }
    }
    if let Ok(graph) = CompressedGraph::load(bytes.as_slice()) {
        exercise(&graph, false);
    }
    if let Ok(mut oracle) = GridOracle::load(bytes.as_slice()) {
        exercise_grid(&oracle, false);
        let (gw, gh) = (oracle.grid().width(), oracle.grid().height());
        if gw > 0 && gh > 0 {
            let door = Cell::new(pick(0) % gw, pick(1) % gh);
            // After each edit the table queries only: the cell queries on every pair cost
            // most of a run under the sanitizer and walk the same table.
            let _ = oracle.set_blocked(door, true);
            exercise(&oracle.table(), false);
            let _ = oracle.set_blocked(door, false);
            let _ = oracle.set_blocked(Cell::new(pick(2) % gw, pick(3) % gh), pick(4) & 1 == 0);
            exercise(&oracle.table(), false);
        }
        let _ = oracle.set_blocked(Cell::new(gw, gh), true);
    }
});
