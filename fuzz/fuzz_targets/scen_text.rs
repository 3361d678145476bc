//! Moving AI scenario text: `parse_scenarios` never panics, and each scenario keeps the
//! fields it claims (start and goal inside the map it names, a finite length ≥ 0).
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts::grid::{Grid, parse_scenarios};

fuzz_target!(|data: &[u8]| {
    let Ok(scenarios) = parse_scenarios(data) else { return };
    let lines = data.len() + 1;
    for s in &scenarios {
        assert!(s.line >= 1 && s.line <= lines, "line {} of {lines}", s.line);
        assert!(s.optimal.is_finite() && s.optimal >= 0.0, "optimal {}", s.optimal);
        assert!(s.tolerance().is_finite() && s.tolerance() > 0.0);
        let _ = s.accepts(s.optimal);
        let _ = s.map_name();
        if s.width <= 64 && s.height <= 64 {
            // Against an open grid of the size it names: start and goal are inside it or the
            // scenario says why not.
            let grid = Grid::new(s.width, s.height);
            let inside = grid.contains(s.start) && grid.contains(s.goal);
            assert_eq!(s.problem(&grid).is_none(), inside, "{s:?}: {:?}", s.problem(&grid));
        }
    }
});
