//! Saved tables from arbitrary bytes: each loader returns an error or a table whose queries
//! cannot panic or loop. Most inputs fail the checksum; `resealed_table` gets past it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts::grid::GridOracle;
use signposts::{CompressedGraph, Graph};
use signposts_fuzz::{exercise, exercise_grid};

fuzz_target!(|data: &[u8]| {
    if let Ok(graph) = Graph::load(data) {
        exercise(&graph, false);
    }
    if let Ok(graph) = CompressedGraph::load(data) {
        exercise(&graph, false);
    }
    if let Ok(oracle) = GridOracle::load(data) {
        exercise_grid(&oracle, false);
    }
});
