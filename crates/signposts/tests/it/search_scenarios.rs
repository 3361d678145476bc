//! The octile A* reproduces the optimal length of every scenario of every Moving AI map in
//! `maps` (52,496 searches, all maps including the 1024×1024 ones), within the
//! precision each file prints; icecrown's three impossible lines are reported invalid.

use crate::common;

use std::path::PathBuf;

use common::maps_dir;
use rayon::prelude::*;
use signposts::grid::{Connectivity, Scenario, ScenarioCheck, parse_map, parse_scenarios};
use signposts::search::{Layer, Searcher, TileGrid};

#[test]
fn astar_reproduces_every_scenario_of_every_map() {
    let dir = maps_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 18, "every shared scenario file");
    let mut total = 0;
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let map_name = name.trim_end_matches(".scen");
        let grid = parse_map(&std::fs::read(dir.join(map_name)).unwrap()).unwrap();
        let scenarios = parse_scenarios(&std::fs::read(&file).unwrap()).unwrap();
        let tiles = TileGrid::from_grid(&grid);
        // The valid lines' lengths on all cores (chunks of 64, a searcher each), in order.
        let valid: Vec<&Scenario> = scenarios.iter().filter(|s| s.problem(&grid).is_none()).collect();
        let lengths: Vec<Option<f64>> = valid
            .par_chunks(64)
            .flat_map_iter(|chunk| {
                let mut searcher = Searcher::new();
                chunk
                    .iter()
                    .map(|s| {
                        let route =
                            searcher.astar(&tiles, Layer::WALKABLE, Connectivity::Eight, s.start, s.goal);
                        route.expect("inside the map").cost().map(signposts::Cost::value)
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut lengths = lengths.into_iter();
        let check =
            ScenarioCheck::run_lengths(&grid, &scenarios, |_, _| lengths.next().expect("one per valid line"));
        let expected_invalid = if map_name == "icecrown.map" { 3 } else { 0 };
        assert_eq!(check.invalid.len(), expected_invalid, "{name}: {:?}", check.invalid);
        assert!(
            check.mismatched.is_empty(),
            "{name}: {:?}",
            &check.mismatched[..check.mismatched.len().min(5)]
        );
        assert_eq!(check.matched + expected_invalid, scenarios.len(), "{name}");
        total += check.matched;
    }
    assert_eq!(total, 52_499 - 3, "every valid line of every file");
}
