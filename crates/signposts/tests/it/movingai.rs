//! The Moving AI benchmark maps in `maps`: parsing every file, and reproducing every
//! scenario's optimal length with the octile oracle, without A*.

use crate::common;

use common::maps_dir;
use proptest::prelude::*;
use signposts::grid::{Connectivity, GridOracle, ScenarioCheck, parse_map, parse_scenarios};

fn read(name: &str) -> Vec<u8> {
    let path = maps_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// (map, width, height, passable cells, scenario lines), from maps/README.md.
const MAPS: [(&str, u32, u32, usize, usize); 18] = [
    ("arena.map", 49, 49, 2_054, 160),
    ("den312d.map", 65, 81, 2_445, 320),
    ("lak303d.map", 194, 194, 14_784, 1_060),
    ("brc202d.map", 530, 481, 43_151, 2_519),
    ("ost100d.map", 1024, 1025, 137_375, 2_802),
    ("orz700d.map", 1104, 1260, 95_600, 3_838),
    ("AR0011SR.map", 512, 512, 120_458, 1_280),
    ("AR0602SR.map", 512, 512, 66_372, 1_280),
    ("AcrosstheCape.map", 768, 768, 392_287, 2_940),
    ("TheFrozenSea.map", 1024, 1024, 754_304, 3_700),
    ("icecrown.map", 512, 512, 176_566, 1_280),
    ("maze512-1-0.map", 512, 512, 131_071, 11_960),
    ("maze512-4-0.map", 512, 512, 209_263, 9_730),
    ("8room_000.map", 512, 512, 206_642, 1_940),
    ("64room_000.map", 512, 512, 246_178, 2_030),
    ("random512-10-0.map", 512, 512, 235_900, 1_670),
    ("random512-40-0.map", 512, 512, 104_950, 3_060),
    ("Berlin_0_256.map", 256, 256, 48_147, 930),
];

#[test]
fn every_shared_map_and_scenario_file_parses_with_the_documented_sizes() {
    for (name, width, height, passable, lines) in MAPS {
        let grid = parse_map(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((grid.width(), grid.height(), grid.passable_len()), (width, height, passable), "{name}");
        let scen =
            parse_scenarios(&read(&format!("{name}.scen"))).unwrap_or_else(|e| panic!("{name}.scen: {e}"));
        assert_eq!(scen.len(), lines, "{name}.scen");
        assert!(scen.iter().all(|s| s.map_name() == name), "{name}.scen names another map");
        assert!(scen.iter().all(|s| (s.width, s.height) == (width, height)), "{name}.scen sizes");
    }
}

#[test]
fn icecrown_reports_its_three_invalid_lines() {
    let grid = parse_map(&read("icecrown.map")).unwrap();
    let scen = parse_scenarios(&read("icecrown.map.scen")).unwrap();
    let invalid: Vec<(usize, String)> =
        scen.iter().filter_map(|s| Some((s.line, s.problem(&grid)?))).collect();
    assert_eq!(
        invalid,
        [
            (76, "start (235, 299) is blocked".to_string()),
            (148, "start (261, 0) is blocked".to_string()),
            (1070, "start (43, 496) is blocked".to_string()),
        ]
    );
}

/// Builds the octile oracle of a shared map and checks every scenario line.
fn octile_scenarios_match(name: &str) {
    let grid = parse_map(&read(name)).unwrap();
    let scen = parse_scenarios(&read(&format!("{name}.scen"))).unwrap();
    let oracle = GridOracle::build(&grid, Connectivity::Eight).unwrap();
    let check = ScenarioCheck::run(&oracle, &scen);
    assert!(check.invalid.is_empty(), "{name}: invalid lines {:?}", check.invalid);
    assert!(
        check.mismatched.is_empty(),
        "{name}: mismatches (line, printed, computed) {:?}",
        check.mismatched
    );
    assert_eq!(check.matched, scen.len(), "{name}");
}

#[test]
fn octile_oracle_reproduces_every_arena_scenario() {
    octile_scenarios_match("arena.map");
}

#[test]
fn octile_oracle_reproduces_every_den312d_scenario() {
    octile_scenarios_match("den312d.map");
}

#[test]
fn octile_oracle_reproduces_every_lak303d_scenario() {
    octile_scenarios_match("lak303d.map");
}

#[test]
fn berlin_map_with_crlf_lines_parses() {
    let bytes = read("Berlin_0_256.map");
    assert!(bytes.windows(2).any(|w| w == b"\r\n"), "the fixture should have CRLF line ends");
    assert_eq!(parse_map(&bytes).unwrap().passable_len(), 48_147);
}

#[test]
fn malformed_maps_name_the_line_and_column_including_the_end_of_the_file() {
    let cases: [(&[u8], &str); 11] = [
        (b"type grid\n", "line 1, column 1: expected `type octile`, found `type grid`"),
        (b"type octile\nheight x\n", "line 2, column 8: `x` is not a whole number"),
        (b"type octile\nheight 2\nwidth 2\nmap\n..\n.\n", "line 6, column 2: row of 1 cells, expected 2"),
        (b"type octile\nheight 1\nwidth 2\nmap\n.?\n", "line 5, column 2: unexpected map character `?`"),
        (b"type octile\nheight 2\nwidth 1\nmap\n.\n", "line 5, column 2: the file ends before row 2 of 2"),
        (
            b"type octile\nheight 1\nwidth 1\nmap\n.\n.\n",
            "line 6, column 1: more rows than the header's height 1: `.`",
        ),
        (b"type octile\nheight 1\nwidth 1\nmap\n\xff\n", "line 5, column 1: unexpected byte 0xff"),
        (b"", "line 1, column 1: the file ends before the `type` line"),
        (b"type octile\nheight 2\n", "line 2, column 9: the file ends before the `width` line"),
        (b"type octile\nheight 1\nwidth 3 4\nmap\n...\n", "line 3, column 9: unexpected `4` after `width 3`"),
        (b"type octile\nheight\n", "line 2, column 7: `height` needs a number"),
    ];
    for (bytes, message) in cases {
        assert_eq!(parse_map(bytes).unwrap_err().to_string(), message);
    }
}

#[test]
fn malformed_scenarios_name_the_line_and_column_including_the_end_of_the_file() {
    let cases: [(&[u8], &str); 5] = [
        (b"", "line 1, column 1: empty scenario file: expected `version 1`"),
        (b"\n\n  \n", "line 3, column 3: empty scenario file: expected `version 1`"),
        (b"version 2\n", "line 1, column 1: expected `version 1` or `version 1.0`, found `version 2`"),
        (b"version 1\n0 m 1 1 0 0 0\n", "line 2, column 14: expected 9 fields, found 7"),
        (b"version 1.0\n\n0 m 1 1 0 -1 0 0 1\n", "line 3, column 11: start y `-1` is not a whole number"),
    ];
    for (bytes, message) in cases {
        assert_eq!(parse_scenarios(bytes).unwrap_err().to_string(), message);
    }
}

proptest! {
    #[test]
    fn parsers_never_panic_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_map(&bytes);
        let _ = parse_scenarios(&bytes);
    }

    #[test]
    fn parsers_never_panic_on_damaged_files(cut in 0usize..600, flip in 0usize..600, byte in any::<u8>()) {
        for text in [&b"type octile\nheight 3\nwidth 4\nmap\n..@.\n.TT.\nG..S\n"[..], b"version 1\n0\tmaps/x.map\t4\t3\t0\t0\t3\t2\t3.82842712\n"] {
            let mut damaged = text[..cut.min(text.len())].to_vec();
            if !damaged.is_empty() {
                let i = flip % damaged.len();
                damaged[i] = byte;
            }
            let _ = parse_map(&damaged);
            let _ = parse_scenarios(&damaged);
        }
    }
}

#[test]
fn scenarios_written_for_another_map_size_are_invalid_not_checked() {
    let grid = parse_map(b"type octile\nheight 2\nwidth 2\nmap\n..\n..\n").unwrap();
    let oracle = GridOracle::build(&grid, Connectivity::Eight).unwrap();
    // Both lines hold a length that is right on this 2×2 map: the second was checked and matched.
    let scen =
        parse_scenarios(b"version 1\n0 m.map 2 2 0 0 1 1 1.41421\n0 m.map 3 2 0 0 1 1 1.41421\n").unwrap();
    let check = ScenarioCheck::run(&oracle, &scen);
    assert_eq!(check.matched, 1);
    assert_eq!(check.invalid, vec![(3, "written for a 3×2 map, not this 2×2 one".to_string())]);
}
