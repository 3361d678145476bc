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
        assert!(err.contains(" is ") && err.contains(", not ") && err.contains("signposts "), "{line:?}: {err}");
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
