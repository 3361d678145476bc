//! `chase --avoid`: enemies that keep to a cell's capacity, in the report and in the GIF.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{decode_gif, json, maps, signposts};

/// The GIF's palette indices (the chase's `Paint`).
const FLOOR: u8 = 0;
const ENEMY: u8 = 6;
const PACKED: u8 = 9;
const TRANSPARENT: u8 = 8;

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("signposts-chase-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `chase` on arena (octile, 49×49 cells, 4 pixels a cell), 300 enemies, 40 ticks, 10
/// frames, the door every 15 ticks, with `extra` flags; the JSON report.
fn chase(gif: &Path, extra: &[&str]) -> Value {
    let map = maps().join("arena.map");
    let mut args = vec![
        "chase",
        map.to_str().unwrap(),
        "--diagonal",
        "--enemies",
        "300",
        "--ticks",
        "40",
        "--frames",
        "10",
        "--door-every",
        "15",
        "--scale",
        "4",
        "-o",
        gif.to_str().unwrap(),
        "--json",
    ];
    args.extend(extra);
    json(&signposts(&args))
}

/// The GIF's last frame as it shows, composed from every frame (each one kept, its
/// transparent pixels showing the ones below): palette indices, row-major, and the width.
fn last_frame(path: &Path) -> (Vec<u8>, usize) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::fs::File::open(path).unwrap()).unwrap();
    let (w, h) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let mut canvas = vec![TRANSPARENT; w * h];
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.transparent, Some(TRANSPARENT));
        let (left, top, fw) = (usize::from(frame.left), usize::from(frame.top), usize::from(frame.width));
        for (i, &index) in frame.buffer.iter().enumerate() {
            if index != TRANSPARENT {
                canvas[(top + i / fw) * w + left + i % fw] = index;
            }
        }
    }
    assert!(!canvas.contains(&TRANSPARENT), "the first frame covers the image");
    (canvas, w)
}

/// The cells (4 pixels a side) whose top-left pixel is `index`, and whether each one's last
/// pixel row and column are floor (a gap between dots).
fn cells_of(canvas: &[u8], width: usize, index: u8) -> Vec<bool> {
    let pixel = |x: usize, y: usize| canvas[y * width + x];
    let cells = width / 4;
    let mut found = Vec::new();
    for cy in 0..canvas.len() / width / 4 {
        for cx in 0..cells {
            if pixel(cx * 4, cy * 4) == index {
                let (x, y) = (cx * 4, cy * 4);
                let gap = (0..4).all(|d| pixel(x + 3, y + d) == FLOOR && pixel(x + d, y + 3) == FLOOR);
                found.push(gap);
            }
        }
    }
    found
}

#[test]
fn chase_avoid_draws_every_enemy_apart_and_keeps_to_the_capacity() {
    let dir = folder("avoid");
    let gif = dir.join("crowd.gif");
    let report = chase(&gif, &["--avoid"]);
    assert_eq!(decode_gif(&gif), ((49 * 4, 49 * 4), 10));
    let avoid = &report["avoid"];
    assert_eq!(
        (avoid["capacity"].as_u64(), avoid["sidestep_after"].as_u64()),
        (Some(1), Some(4)),
        "{report}"
    );
    assert_eq!(avoid["most_in_one_cell"], 1, "{report}");
    assert!(avoid["waits"].as_u64().unwrap() > 0, "300 enemies for one player wait: {report}");
    assert!(avoid["sidesteps"].as_u64().unwrap() > 0, "{report}");
    assert!(avoid["swaps"].is_u64() && avoid["door_pushes"].is_u64() && avoid["door_waits"].is_u64());
    // One enemy a cell: all 300 show, each a dot, but those under the player's block of
    // 5×5 cells (two cells round it at 4 pixels a cell).
    assert_eq!(report["occupied_cells_mean"], 300.0, "{report}");
    let (canvas, width) = last_frame(&gif);
    let enemies = cells_of(&canvas, width, ENEMY);
    assert!((300 - 25..=300).contains(&enemies.len()), "{} enemy cells drawn", enemies.len());
    assert!(enemies.iter().all(|&gap| gap), "every enemy a dot, with a gap of floor");
    assert!(cells_of(&canvas, width, PACKED).is_empty(), "none packed at capacity 1");

    // Without --avoid the same chase stacks them: a few dozen cells, drawn whole, and the
    // report has no crowd figures.
    let stacked = chase(&gif, &[]);
    assert!(stacked.get("avoid").is_none(), "{stacked}");
    let (canvas, width) = last_frame(&gif);
    let drawn = cells_of(&canvas, width, ENEMY);
    assert!(drawn.len() < 200 && drawn.iter().all(|&gap| !gap), "{} stacked cells", drawn.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chase_avoid_spreads_the_enemies_over_more_cells_at_every_capacity() {
    let dir = folder("capacity");
    let gif = dir.join("crowd.gif");
    let stacked = chase(&gif, &[])["occupied_cells_mean"].as_f64().unwrap();
    let mut spread = Vec::new();
    for capacity in [1u32, 2] {
        let report = chase(&gif, &["--avoid", "--capacity", &capacity.to_string(), "--seed", "1"]);
        let avoid = &report["avoid"];
        assert_eq!(avoid["capacity"], capacity);
        let most = avoid["most_in_one_cell"].as_u64().unwrap();
        assert!(
            (1..=u64::from(capacity)).contains(&most),
            "{most} in one cell at capacity {capacity}: {report}"
        );
        let cells = report["occupied_cells_mean"].as_f64().unwrap();
        assert!(cells > stacked, "capacity {capacity}: {cells} cells with --avoid, {stacked} without");
        assert!(cells * f64::from(capacity) >= 300.0, "{cells} cells for 300 at {capacity} a cell");
        spread.push(cells);
        assert_eq!(decode_gif(&gif).1, 10);
        // Two in a cell show darker.
        let (canvas, width) = last_frame(&gif);
        let packed = cells_of(&canvas, width, PACKED).len();
        assert_eq!(packed > 0, capacity == 2 && most == 2, "{packed} packed cells at capacity {capacity}");
    }
    assert!(spread[0] > spread[1], "{spread:?}: capacity 2 packs them closer");
    // Sidesteps off.
    let report = chase(&gif, &["--avoid", "--sidestep-after", "off"]);
    assert!(report["avoid"]["sidestep_after"].is_null(), "{report}");
    assert_eq!(report["avoid"]["sidesteps"], 0, "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chase_avoid_flags_out_of_place_or_out_of_room_are_refused_before_any_work() {
    let dir = folder("refused");
    let gif = dir.join("never.gif");
    let map = maps().join("arena.map");
    let refused = |extra: &[&str]| {
        let mut args = vec!["chase", map.to_str().unwrap(), "-o", gif.to_str().unwrap()];
        args.extend(extra);
        let out = signposts(&args);
        assert!(!out.status.success(), "{extra:?} ran");
        assert!(!gif.exists(), "{extra:?} wrote a GIF");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    for flag in [&["--capacity", "2"][..], &["--sidestep-after", "3"]] {
        let err = refused(flag);
        assert!(err.contains(&format!("{} applies to", flag[0])) && err.contains("add --avoid"), "{err}");
        // Nothing built first: the table's build is not reported.
        assert!(!err.contains("built") && err.lines().count() == 1, "{err}");
    }
    // Arena has 2,054 open cells: 2,053 places beside the player's at 1 a cell.
    let err = refused(&["--avoid", "--enemies", "3000"]);
    assert!(err.contains("3000 enemies do not fit") && err.contains("room for 2053 at 1 a cell"), "{err}");
    assert!(err.contains("lower --enemies or raise --capacity"), "{err}");
    let err = refused(&["--avoid", "--capacity", "0"]);
    assert!(err.contains("--capacity") && err.contains("0 is not in 1..=65535"), "{err}");
    let err = refused(&["--avoid", "--sidestep-after", "soon"]);
    assert!(err.contains("`soon` is neither a count of ticks nor `off`"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chase_avoid_catches_walkers_the_player_steps_onto() {
    // On den312d the player paces a dead-end corridor of three cells behind the door, and
    // walkers spawn in it: each one stood at its goal whenever the player stood on it, and
    // the player, pacing over them, was never caught.
    let dir = folder("pacing");
    let gif = dir.join("crowd.gif");
    let map = maps().join("den312d.map");
    let report = json(&signposts(&[
        "chase",
        map.to_str().unwrap(),
        "--diagonal",
        "--avoid",
        "--enemies",
        "600",
        "--ticks",
        "30",
        "--frames",
        "2",
        "-o",
        gif.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(report["door"], serde_json::json!([40, 58]), "{report}");
    assert!(report["caught"].as_u64().unwrap() >= 5, "{report}");
    assert_eq!(report["avoid"]["most_in_one_cell"], 1, "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}
