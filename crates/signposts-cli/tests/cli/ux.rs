//! What the commands say: files of the wrong kind named for what they are, scenario
//! mismatches measured, sizes and numbers printed as they are.

use std::path::{Path, PathBuf};

use super::{json, maps, signposts};

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("signposts-ux-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `args`, expecting a failure; its standard error.
fn fails(args: &[&str]) -> String {
    let out = signposts(args);
    assert_eq!(out.status.code(), Some(1), "{args:?} did not fail: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn a_file_of_the_wrong_kind_is_named_with_the_command_that_takes_it() {
    let dir = folder("kinds");
    let (map, scen) = (maps().join("arena.map"), maps().join("arena.map.scen"));
    let (table, rooms, part) = (dir.join("arena.sp"), dir.join("arena.rooms"), dir.join("arena.part"));
    json(&signposts(&["build", s(&map), "-o", s(&table), "--json"]));
    json(&signposts(&["rooms", s(&map), "-o", s(&rooms), "--json"]));
    json(&signposts(&["build", s(&map), "--shard", "0/2", "-o", s(&part), "--json"]));
    let polygon = dir.join("square.txt");
    std::fs::write(&polygon, "# a square\nboundary 0,0 10,0 10,10 0,10\n").unwrap();

    // `query` on a map said "bad magic bytes".
    let err = fails(&["query", s(&map), "1", "1", "2", "2"]);
    assert!(err.contains("arena.map is a Moving AI map, not a saved table"), "{err}");
    assert!(err.contains("signposts build") && err.contains("signposts rooms"), "{err}");
    assert!(!err.contains("magic"), "{err}");
    let err = fails(&["query", s(&rooms), "1", "1", "2", "2"]);
    assert!(err.contains("is saved rooms") && err.contains("signposts rooms-query"), "{err}");
    let err = fails(&["query", s(&polygon), "1", "1", "2", "2"]);
    assert!(err.contains("is a polygon file") && err.contains("signposts rooms"), "{err}");
    let err = fails(&["query", s(&part), "1", "1", "2", "2"]);
    assert!(err.contains("one part of a sharded build") && err.contains("signposts merge"), "{err}");
    // `rooms-query` on a valid table called it "corrupt".
    let err = fails(&["rooms-query", s(&table), "1", "1", "2", "2"]);
    assert!(err.contains("arena.sp is a saved table") && err.contains("signposts query"), "{err}");
    assert!(!err.contains("corrupt"), "{err}");
    // `scen` on a map quoted its first line at the reader.
    let err = fails(&["scen", s(&map)]);
    assert!(err.contains("arena.map is a Moving AI map, not a Moving AI scenario file"), "{err}");
    assert!(!err.contains("version 1"), "{err}");
    let err = fails(&["scen", s(&scen), "--oracle", s(&rooms)]);
    assert!(err.contains("is saved rooms, not a saved table") || err.contains("is saved rooms"), "{err}");
    let err = fails(&["build", s(&scen), "-o", s(&dir.join("x.sp"))]);
    assert!(err.contains("is a Moving AI scenario file") && err.contains("signposts scen"), "{err}");
    for line in [
        vec!["chase", s(&table), "-o", "x.gif"],
        vec!["render", s(&rooms), "-o", "x.png"],
        vec!["rooms", s(&table), "-o", "x.rooms"],
        vec!["render", s(&scen), "--rooms", "-o", "x.png"],
        vec!["merge", s(&table), "-o", "x.sp"],
    ] {
        let err = fails(&line);
        assert!(
            err.contains(" is ") && err.contains(", not ") && err.contains("signposts "),
            "{line:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scenario_mismatches_say_how_far_off_they_are() {
    // 4-connected lengths differ from the printed octile ones on 316 of den312d's lines, and
    // the report said "max error 0.00e0" beside them (the error of the matched lines).
    let scen = maps().join("den312d.map.scen");
    let out = signposts(&["scen", s(&scen), "--four"]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("max error 0.00e0"), "{text}");
    assert!(text.contains("mismatched lines differ from the printed lengths by up to 18.745"), "{text}");
    assert!(text.contains("line 2: printed 3.41421, computed 4\n"), "{text}");
    let out = signposts(&["scen", s(&scen), "--four", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let max = report["max_mismatch"].as_f64().unwrap();
    assert!((max - 18.745).abs() < 1e-3, "{report}");
    assert_eq!(report["unreachable_mismatches"], 0);
}

#[test]
fn rooms_report_the_saved_file_size_and_numbers_to_six_decimals() {
    let dir = folder("rooms");
    let (map, rooms) = (maps().join("den312d.map"), dir.join("den.rooms"));
    let out = signposts(&["rooms", s(&map), "--radius", "0.3", "-o", s(&rooms)]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let size = std::fs::metadata(&rooms).unwrap().len();
    // It printed the rooms' memory as if it were the file's size.
    assert!(text.contains(&format!("saved to {} ({size} bytes)", rooms.display())), "{text}");
    let report = json(&signposts(&["rooms", s(&map), "--radius", "0.3", "-o", s(&rooms), "--json"]));
    assert_eq!(report["file_bytes"], size);
    // Coordinates came out as `19.059673996...`, lengths with 4 decimals.
    let out = signposts(&["rooms-query", s(&rooms), "10", "10", "60", "70"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("next waypoint: (12.7, 19.059674)\n"), "{text}");
    assert!(text.contains("length: 94.939035\n"), "{text}");
    for number in text.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter(|t| t.contains('.')) {
        assert!(number.split('.').nth(1).unwrap().len() <= 6, "{number} in {text}");
    }
    // Negative coordinates are numbers, not flags (they needed `--`).
    let err = fails(&["rooms-query", s(&rooms), "-1.5", "2", "3", "-4"]);
    assert!(err.contains("the start (-1.5, 2) is outside the walkable area"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_world_too_wide_to_draw_is_reported_at_its_size() {
    let dir = folder("wide");
    let polygon = dir.join("wide.txt");
    std::fs::write(&polygon, "boundary 0,0 4294967296,0 4294967296,4294967296 0,4294967296\n").unwrap();
    let err = fails(&["render", s(&polygon), "--rooms", "-o", s(&dir.join("w.png"))]);
    // It said 4294967295×4294967295: the size saturated at u32::MAX.
    assert!(err.contains("4294967296×4294967296"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_flow_field_has_a_key_of_its_colours() {
    let dir = folder("field");
    let png = dir.join("field.png");
    let map = maps().join("arena.map");
    let report = json(&signposts(&[
        "render",
        s(&map),
        "--diagonal",
        "--field",
        "20",
        "20",
        "--scale",
        "2",
        "-o",
        s(&png),
        "--json",
    ]));
    let image = image::open(&png).unwrap().to_rgb8();
    // The map's 98 rows of pixels, then the key: a compass of swatches, north up.
    assert_eq!((report["width"].as_u64(), report["height"].as_u64()), (Some(98), Some(98 + 44)));
    assert_eq!(image.dimensions(), (98, 98 + 44));
    let swatch = |column: u32, row: u32| image.get_pixel(4 + column * 12 + 5, 98 + 4 + row * 12 + 5).0;
    assert_eq!(swatch(1, 0), [66, 133, 244], "north, blue, at the top");
    assert_eq!(swatch(2, 1), [52, 168, 83], "east, green, on the right");
    assert_eq!(swatch(1, 1), [0, 0, 0], "the goal in the middle");
    let help = String::from_utf8_lossy(&signposts(&["render", "--help"]).stdout).into_owned();
    assert!(help.contains("A key below the map"), "{help}");
    // The exact path is drawn dashed blue, as the help says (it said white).
    assert!(help.contains("dashed blue") && !help.contains("white"), "{help}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_chase_door_changes_routes_and_says_how_much() {
    let dir = folder("chase");
    let map = maps().join("den312d.map");
    let gif = dir.join("c.gif");
    let report = json(&signposts(&[
        "chase",
        s(&map),
        "--enemies",
        "10",
        "--ticks",
        "2",
        "--frames",
        "1",
        "-o",
        s(&gif),
        "--json",
    ]));
    let effect = &report["door_effect"];
    let (routes, lengthened, cut) = (
        effect["routes"].as_u64().unwrap(),
        effect["lengthened"].as_u64().unwrap(),
        effect["cut"].as_u64().unwrap(),
    );
    // A one-cell passage found by its four neighbours could close off a dead end alone.
    assert!((lengthened + cut) * 100 > routes, "{report}");
    assert!(
        report["door_note"].as_str().unwrap().contains(&format!("lengthens {lengthened} of {routes}")),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_chase_player_patrols_by_the_door_so_each_change_reroutes_the_chase() {
    let dir = folder("chase-patrol");
    let map = maps().join("den312d.map");
    let gif = dir.join("c.gif");
    let report = json(&signposts(&[
        "chase",
        s(&map),
        "--enemies",
        "20",
        "--ticks",
        "100",
        "--door-every",
        "20",
        "--frames",
        "5",
        "-o",
        s(&gif),
        "--json",
    ]));
    let door: Vec<u64> = report["door"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let ticks = report["per_tick"].as_array().unwrap();
    // The waypoints lie 3 moves (an eighth of 20 ticks) from the door's home neighbour: the
    // player never strays more than 4 cells from the door (it wandered the whole map).
    for t in ticks {
        let p: Vec<u64> = t["player"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        assert!(p[0].abs_diff(door[0]).max(p[1].abs_diff(door[1])) <= 4, "{p:?} far from {door:?}");
    }
    // So every change of the door changes the way to the player from much of the map.
    let changes: Vec<u64> = ticks.iter().filter_map(|t| t["door"]["rerouted_cells"].as_u64()).collect();
    assert_eq!(changes.len(), 4, "{report}");
    assert!(changes.iter().all(|&n| n > 1000), "{changes:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
