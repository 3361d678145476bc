//! Moving AI map text: `parse_map` never panics; a parsed grid keeps its invariants; a small
//! one builds a 4-connected oracle whose answers agree with each other.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts::grid::{Cell, Connectivity, GridOracle, parse_map};

fuzz_target!(|data: &[u8]| {
    let Ok(grid) = parse_map(data) else { return };
    let (w, h) = (grid.width(), grid.height());
    let cells = u64::from(w) * u64::from(h);
    let open = (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).filter(|&c| grid.is_passable(c)).count();
    assert_eq!(open, grid.passable_len(), "passable_len vs the cells that are passable");
    assert!(open as u64 <= cells, "{open} passable cells in a {w}x{h} grid");
    assert!(!grid.contains(Cell::new(w, 0)) && !grid.contains(Cell::new(0, h)));
    assert!(!grid.is_passable(Cell::new(w, h)));
    if w > 64 || h > 64 {
        return;
    }
    let oracle = GridOracle::build(&grid, Connectivity::Four).expect("a grid of at most 64x64 builds");
    assert_eq!(oracle.nodes_len(), open, "one node per passable cell");
    if cells <= 64 {
        signposts_fuzz::exercise_grid(&oracle, true);
    } else {
        // A few queries between the corners and the centre.
        let probes = [Cell::new(0, 0), Cell::new(w - 1, h - 1), Cell::new(w / 2, h / 2), Cell::new(w - 1, 0)];
        for &a in &probes {
            for &b in &probes {
                let exists = oracle.path_exists(a, b);
                assert_eq!(exists, oracle.cost(a, b).is_some());
                let _ = oracle.next_step(a, b);
                assert!(oracle.path(a, b).count() <= open);
            }
        }
    }
});
