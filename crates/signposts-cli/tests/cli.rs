//! The `signposts` command end to end, on the shared Moving AI maps.

use std::path::PathBuf;
use std::process::{Command, Output};

fn maps() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    assert!(dir.join("arena.map").exists(), "the Moving AI maps are missing from {}", dir.display());
    dir
}

fn signposts(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_signposts")).args(args).output().expect("the binary runs")
}

/// `signposts rooms-query FILE SX SY GX GY --json`, parsed.
fn rooms_query(rooms: &std::path::Path, points: [&str; 4]) -> serde_json::Value {
    let mut args = vec!["rooms-query", rooms.to_str().unwrap()];
    args.extend(points);
    args.push("--json");
    json(&signposts(&args))
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn build_query_and_scen_agree_on_arena() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("arena.sp");
    let map = maps().join("arena.map");
    let built = json(&signposts(&[
        "build",
        map.to_str().unwrap(),
        "--diagonal",
        "-o",
        saved.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(built["nodes"], 2054);
    assert_eq!(built["connectivity"], 8);

    let answer = json(&signposts(&["query", saved.to_str().unwrap(), "1", "11", "40", "30", "--json"]));
    assert_eq!(answer["next_steps"], serde_json::json!(["east", "south-east"]));
    let distance = answer["distance"].as_f64().unwrap();
    assert!((distance - (20.0 + 19.0 * 2f64.sqrt())).abs() < 1e-9, "{distance}");
    assert_eq!(answer["path"].as_array().unwrap().len(), 40);

    let scen = maps().join("arena.map.scen");
    for extra in [vec!["--diagonal"], vec!["--oracle", saved.to_str().unwrap()]] {
        let mut args = vec!["scen", scen.to_str().unwrap(), "--json"];
        args.extend(extra);
        let report = json(&signposts(&args));
        assert_eq!((report["lines"].as_u64(), report["matched"].as_u64()), (Some(160), Some(160)));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn build_picks_the_table_by_size_and_both_answer_alike() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = maps().join("den312d.map");
    let mut answers = Vec::new();
    for (flag, table) in [(None, "dense"), (Some("--compressed"), "compressed"), (Some("--dense"), "dense")] {
        let saved = dir.join(format!("den-{table}.sp"));
        let mut args = vec!["build", map.to_str().unwrap(), "-o", saved.to_str().unwrap(), "--json"];
        args.extend(flag);
        let built = json(&signposts(&args));
        assert_eq!(built["table"], table, "{flag:?}");
        assert!(built["why"].as_str().unwrap().starts_with(table));
        let answer = json(&signposts(&["query", saved.to_str().unwrap(), "10", "10", "60", "70", "--json"]));
        assert_eq!(answer["table"], table);
        answers.push((answer["distance"].clone(), answer["path"].as_array().unwrap().len()));
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    // An octile compressed table reproduces every scenario length.
    let saved = dir.join("den-octile.sp");
    let built = json(&signposts(&[
        "build",
        map.to_str().unwrap(),
        "-o",
        saved.to_str().unwrap(),
        "--diagonal",
        "--compressed",
        "--json",
    ]));
    assert_eq!(built["table"], "compressed");
    let scen = maps().join("den312d.map.scen");
    let report =
        json(&signposts(&["scen", scen.to_str().unwrap(), "--oracle", saved.to_str().unwrap(), "--json"]));
    assert_eq!(report["lines"], 320);
    assert_eq!(report["lines"], report["matched"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn astar_checks_scenarios_without_a_table() {
    // icecrown is too large for a dense octile table here; one A* per line needs none.
    let scen = maps().join("icecrown.map.scen");
    let report = json(&signposts(&["scen", scen.to_str().unwrap(), "--diagonal", "--astar", "--json"]));
    assert_eq!(report["method"], "astar");
    assert_eq!((report["lines"].as_u64(), report["matched"].as_u64()), (Some(1280), Some(1277)));
    assert!(report["mismatched"].as_array().unwrap().is_empty());
    let lines: Vec<u64> =
        report["invalid"].as_array().unwrap().iter().map(|i| i["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [76, 148, 1070]);
    // 4-connected lengths are not the printed octile ones: mismatches exit with 2.
    let arena = maps().join("arena.map.scen");
    let out = signposts(&["scen", arena.to_str().unwrap(), "--astar", "--four"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("4-connected (asked for with --four)"));
}

#[test]
fn scen_checks_octile_lengths_by_default() {
    // Moving AI lengths are octile: without a flag every line matches, and the rule is named.
    let scen = maps().join("arena.map.scen");
    for extra in [&[][..], &["--astar"][..]] {
        let mut args = vec!["scen", scen.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let report = json(&signposts(&args));
        assert_eq!(report["moves"], "octile");
        assert_eq!((report["lines"].as_u64(), report["matched"].as_u64()), (Some(160), Some(160)));
    }
    let text = signposts(&["scen", scen.to_str().unwrap()]);
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).starts_with("moves: octile"));
}

#[test]
fn scen_refuses_a_saved_table_of_other_moves() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-moves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("arena4.sp");
    let map = maps().join("arena.map");
    json(&signposts(&["build", map.to_str().unwrap(), "-o", saved.to_str().unwrap(), "--json"]));
    let scen = maps().join("arena.map.scen");
    let out = signposts(&["scen", scen.to_str().unwrap(), "--oracle", saved.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "an error, not a report of mismatches");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("4-connected moves") && stderr.contains("--four"), "{stderr}");
    let four =
        signposts(&["scen", scen.to_str().unwrap(), "--oracle", saved.to_str().unwrap(), "--four", "--json"]);
    assert_eq!(four.status.code(), Some(2), "4-connected lengths checked, and differing lines reported");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    // Like `signposts scen … | head -1`: the reader goes away before the report is written.
    let arena = maps().join("arena.map.scen");
    let mut child = Command::new(env!("CARGO_BIN_EXE_signposts"))
        .args(["scen", arena.to_str().unwrap(), "--astar"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(matches!(out.status.code(), Some(0 | 2)), "{:?}", out.status);
}

#[test]
fn over_budget_scenarios_say_why_and_still_list_invalid_lines() {
    let scen = maps().join("icecrown.map.scen");
    let out = signposts(&["scen", scen.to_str().unwrap(), "--diagonal", "--dense", "--json"]);
    assert!(!out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["checked"], false);
    assert!(report["reason"].as_str().unwrap().contains("over the memory limit"));
    let lines: Vec<u64> =
        report["invalid"].as_array().unwrap().iter().map(|i| i["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [76, 148, 1070]);
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("signposts: "));
}

#[test]
fn errors_are_one_line_and_a_failing_exit() {
    let out = signposts(&["build", "/no/such.map", "-o", "/tmp/x.sp"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("/no/such.map"));
    let damaged = std::env::temp_dir().join(format!("signposts-bad-{}.sp", std::process::id()));
    std::fs::write(&damaged, b"SIGNPOST and then nothing useful").unwrap();
    let out = signposts(&["query", damaged.to_str().unwrap(), "0", "0", "1", "1"]);
    assert!(!out.status.success());
    std::fs::remove_file(&damaged).unwrap();
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["build", "query", "scen", "render", "chase", "rooms", "rooms-query"] {
        let out = signposts(&[sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    }
}

#[test]
fn render_writes_a_png() {
    let out_png = std::env::temp_dir().join(format!("signposts-render-{}.png", std::process::id()));
    let map = maps().join("den312d.map");
    let out = signposts(&[
        "render",
        map.to_str().unwrap(),
        "--field",
        "10",
        "10",
        "--scale",
        "2",
        "-o",
        out_png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let png = std::fs::read(&out_png).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    std::fs::remove_file(&out_png).unwrap();
}

/// Decodes a GIF: its size and every frame (each must decode whole).
fn decode_gif(path: &std::path::Path) -> ((u16, u16), usize) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::fs::File::open(path).expect("the GIF exists")).expect("a GIF");
    let size = (decoder.width(), decoder.height());
    let mut frames = 0;
    while let Some(frame) = decoder.read_next_frame().expect("every frame decodes") {
        assert!(frame.left + frame.width <= size.0 && frame.top + frame.height <= size.1, "frame inside");
        frames += 1;
    }
    (size, frames)
}

#[test]
fn chase_writes_a_gif_of_the_promised_frames_and_checks_its_peers() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-chase-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = maps().join("arena.map");
    let gif = dir.join("chase.gif");
    let (ticks, frames) = (60, 20);
    let report = json(&signposts(&[
        "chase",
        map.to_str().unwrap(),
        "--diagonal",
        "--enemies",
        "300",
        "--ticks",
        &ticks.to_string(),
        "--frames",
        &frames.to_string(),
        "--door-every",
        "15",
        "--scale",
        "4",
        "-o",
        gif.to_str().unwrap(),
        "--json",
    ]));
    // `--frames` frames at most, spread from the first tick to the last.
    let expected = frames;
    assert_eq!(report["frames"].as_u64(), Some(expected as u64));
    assert_eq!(decode_gif(&gif), ((49 * 4, 49 * 4), expected));
    assert_eq!(report["gif_bytes"].as_u64(), Some(std::fs::metadata(&gif).unwrap().len()));
    assert_eq!(report["table"], "dense");
    // The door changed at ticks 15, 30 and 45, each repaired in place.
    assert!(report["door"].is_array(), "{report}");
    assert_eq!(report["door_repairs"]["count"], 3);
    // Six measured ticks (every tenth), 300 enemies each, all checked; the ratios come from
    // the table's time on those same ticks.
    assert!(report["measured_ticks_ms"]["table"]["median"].as_f64().unwrap() > 0.0, "{report}");
    assert_eq!(report["checked_against_peers"], 6 * 300);
    assert_eq!(report["per_tick"].as_array().map(Vec::len), Some(ticks));

    // A compressed table chases too, without a door, and refuses one asked for.
    let compressed = json(&signposts(&[
        "chase",
        map.to_str().unwrap(),
        "--compressed",
        "--ticks",
        "10",
        "-o",
        gif.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!((compressed["table"].as_str(), compressed["door"].is_null()), (Some("compressed"), true));
    assert_eq!(decode_gif(&gif).1, 10);
    let refused = signposts(&[
        "chase",
        map.to_str().unwrap(),
        "--compressed",
        "--door",
        "1",
        "1",
        "-o",
        gif.to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--dense"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_map_header_promising_4_gb_is_a_parse_error_not_an_abort() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-huge-header-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("huge.map");
    std::fs::write(&map, "type octile\nheight 100000000\nwidth 40\nmap\n").unwrap();
    // Under a 2 GB address-space limit, reserving the header's 4 GB of cells aborted the process.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" build \"$1\" -o \"$2\"")
        .arg(env!("CARGO_BIN_EXE_signposts"))
        .arg(&map)
        .arg(dir.join("huge.sp"))
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the file ends before row 1 of 100000000"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn render_refuses_a_scale_whose_image_overflows_and_leaves_no_file() {
    let out_png = std::env::temp_dir().join(format!("signposts-render-huge-{}.png", std::process::id()));
    let map = maps().join("ost100d.map");
    // 67108865 a cell wrapped the u32 pixel size to a one-colour image; 4294967295 panicked.
    for scale in ["67108865", "4294967295", "0"] {
        let out =
            signposts(&["render", map.to_str().unwrap(), "--scale", scale, "-o", out_png.to_str().unwrap()]);
        assert!(!out.status.success(), "--scale {scale} was accepted");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--scale"), "--scale {scale}");
        assert!(!out_png.exists(), "--scale {scale} left {}", out_png.display());
    }
    // Within the parser's bound but a 206 GB image: refused before allocating, naming its size.
    let out =
        signposts(&["render", map.to_str().unwrap(), "--scale", "256", "-o", out_png.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("262144×262400 image (68786585600 pixels, 206359756800 bytes)"), "{stderr}");
    assert!(!out_png.exists(), "a refused render left {}", out_png.display());
}

/// A compressed build past the node limit was refused only after the graph was built (7-15 s,
/// 2 GB), and `build --shard` ignored `--memory-limit`: both are refused from the map's counts
/// now, before any work.
#[test]
fn compressed_builds_past_a_limit_are_refused_before_any_work() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-nodes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (map, saved) = (dir.join("open.map"), dir.join("open.sp"));
    let row = ".".repeat(4100) + "\n";
    std::fs::write(&map, format!("type octile\nheight 4100\nwidth 4100\nmap\n{}", row.repeat(4100))).unwrap();
    for shard in [None, Some("0/4")] {
        let mut args = vec!["build", map.to_str().unwrap(), "--compressed", "-o", saved.to_str().unwrap()];
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
            args.retain(|&a| a != "--compressed");
        }
        let out = signposts(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("16810000 open cells") && stderr.contains("16777215 nodes"), "{stderr}");
        assert!(!saved.exists());
    }
    let lak = maps().join("lak303d.map");
    let out = signposts(&[
        "build",
        lak.to_str().unwrap(),
        "--shard",
        "0/4",
        "--memory-limit",
        "1K",
        "-o",
        saved.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("takes at least") && stderr.contains("over the memory limit of 1024 bytes"),
        "{stderr}"
    );
    assert!(!saved.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn memory_limit_bounds_compressed_builds_too() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = maps().join("lak303d.map");
    let saved = dir.join("lak.sp");
    let build = |limit: &str| {
        signposts(&[
            "build",
            map.to_str().unwrap(),
            "--compressed",
            "--memory-limit",
            limit,
            "-o",
            saved.to_str().unwrap(),
            "--json",
        ])
    };
    // 1K was ignored: the 1 MB compressed table was built and saved.
    let out = build("1K");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("takes at least") && stderr.contains("over the memory limit of 1024 bytes"),
        "{stderr}"
    );
    assert!(!saved.exists());
    // Over the lower bound but a byte short of the table: refused after building, naming its size.
    let bytes = json(&build("8G"))["bytes"].as_u64().unwrap();
    std::fs::remove_file(&saved).unwrap();
    let out = build(&(bytes - 1).to_string());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("takes {bytes} bytes, over the memory limit of {}", bytes - 1)),
        "{stderr}"
    );
    assert!(!saved.exists());
    assert_eq!(json(&build(&bytes.to_string()))["bytes"].as_u64(), Some(bytes));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn endless_or_huge_map_and_scenario_files_are_refused_not_read_whole() {
    // /dev/zero as a map was read until memory ran out: under a 2 GB limit it aborted.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" build /dev/zero -o /dev/null")
        .arg(env!("CARGO_BIN_EXE_signposts"))
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("/dev/zero goes on past the 67108864-byte limit"), "{stderr}");

    let dir = std::env::temp_dir().join(format!("signposts-cli-huge-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.scen");
    std::fs::File::create(&big).unwrap().set_len(100 << 20).unwrap();
    let map = maps().join("arena.map");
    let out = signposts(&["scen", big.to_str().unwrap(), "--map", map.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("is 104857600 bytes, over the 67108864-byte limit"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scen_reports_lines_of_another_map_or_size_instead_of_checking_them_on_the_first() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-foreign-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(maps().join("arena.map"), dir.join("arena.map")).unwrap();
    let scen = dir.join("mixed.scen");
    // Lines 3 and 4 hold lengths that are right on arena: they were checked there and matched.
    std::fs::write(
        &scen,
        "version 1\n\
         0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n\
         0\tmaps/dao/den312d.map\t49\t49\t1\t12\t1\t10\t2\n\
         0\tmaps/dao/arena.map\t50\t50\t1\t12\t1\t10\t2\n",
    )
    .unwrap();
    for extra in [None, Some("--astar")] {
        let mut args = vec!["scen", scen.to_str().unwrap(), "--json"];
        args.extend(extra);
        let report = json(&signposts(&args));
        assert_eq!((report["lines"].as_u64(), report["matched"].as_u64()), (Some(3), Some(1)), "{extra:?}");
        assert_eq!(
            report["invalid"],
            serde_json::json!([
                {"line": 3, "reason": "names the map den312d.map, not arena.map as the file's first line does"},
                {"line": 4, "reason": "written for a 50×50 map, not this 49×49 one"},
            ]),
            "{extra:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rooms_build_query_and_render_a_map_and_a_polygon_file() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-rooms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (map, saved) = (maps().join("den312d.map"), dir.join("den.rooms"));
    let built = json(&signposts(&["rooms", map.to_str().unwrap(), "-o", saved.to_str().unwrap(), "--json"]));
    assert_eq!(built["open_cells"], 2445);
    assert!(built["regions"].as_u64().unwrap() * 10 < 2445, "{built}");
    let answer = rooms_query(&saved, ["3.5", "10.5", "55.5", "70.5"]);
    assert_eq!(answer["reachable"], true);
    let points = answer["points"].as_array().unwrap();
    assert_eq!(points.first().unwrap(), &serde_json::json!([3.5, 10.5]));
    assert_eq!(answer["next_waypoint"], points[1]);
    let length = answer["length"].as_f64().unwrap();
    assert!(length > 67.0 && length < 100.0, "{answer}");
    // A point in a wall is an error naming it.
    let out = signposts(&["rooms-query", saved.to_str().unwrap(), "0.5", "0.5", "55.5", "70.5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside the walkable area"));

    // A polygon file, with a radius, and a drawing of it.
    let poly = dir.join("yard.txt");
    std::fs::write(&poly, "# a yard\nboundary 0,0 30,0 30,20 0,20\nobstacle 10,0 12,0 12,14 10,14\nobstacle 18,6 20,6 20,20 18,20\n").unwrap();
    let built = json(&signposts(&[
        "rooms",
        poly.to_str().unwrap(),
        "--radius",
        "0.5",
        "-o",
        saved.to_str().unwrap(),
        "--json",
    ]));
    assert!(built["regions"].as_u64().unwrap() >= 3, "{built}");
    let answer = rooms_query(&saved, ["2", "2", "28", "2"]);
    // Over the first wall (top at y = 14, plus the radius) and under the second (from y = 6).
    let points = answer["points"].as_array().unwrap();
    assert!(
        points.iter().any(|p| p[1].as_f64().unwrap() >= 14.5)
            && points.iter().any(|p| p[1].as_f64().unwrap() <= 5.5),
        "{answer}"
    );
    assert!(answer["length"].as_f64().unwrap() > 38.0, "{answer}");
    let png = dir.join("yard.png");
    let out = signposts(&[
        "render",
        poly.to_str().unwrap(),
        "--rooms",
        "--points",
        "2",
        "2",
        "28",
        "2",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    // A malformed polygon file names the line and column.
    std::fs::write(&poly, "boundary 0,0 30,0 30,20 0,20\nobstacle 1,1 2,x 3,3\n").unwrap();
    let out = signposts(&["rooms", poly.to_str().unwrap(), "-o", saved.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("line 2, column 14: `2,x` is not a point"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rooms_doors_close_and_turn_one_way_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-rooms-doors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = maps().join("den312d.map");
    // A one-way door at den312d's neck: south only; closed, nothing gets through.
    let one_way = dir.join("den-one-way.rooms");
    let out = signposts(&[
        "rooms",
        map.to_str().unwrap(),
        "--one-way",
        "27.5,40.5:27.5,42.5",
        "-o",
        one_way.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let south = rooms_query(&one_way, ["3.5", "10.5", "55.5", "70.5"]);
    let north = rooms_query(&one_way, ["55.5", "70.5", "3.5", "10.5"]);
    assert_eq!((south["reachable"].as_bool(), north["reachable"].as_bool()), (Some(true), Some(false)));
    let out = signposts(&[
        "rooms",
        map.to_str().unwrap(),
        "--close",
        "27.5,40.5:27.5,42.5",
        "-o",
        one_way.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shut = rooms_query(&one_way, ["3.5", "10.5", "55.5", "70.5"]);
    assert_eq!(shut["reachable"], false);
    let png = dir.join("den-shut.png");
    let out = signposts(&["render", one_way.to_str().unwrap(), "--rooms", "-o", png.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = signposts(&[
        "rooms",
        map.to_str().unwrap(),
        "--close",
        "0.5,0.5:3.5,10.5",
        "-o",
        one_way.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside the walkable area"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exact_paths_from_the_command_line_are_never_longer_than_the_corridor_paths() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-exact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (map, saved) = (maps().join("lak303d.map"), dir.join("lak.rooms"));
    let index = dir.join("lak.exact");
    let built = json(&signposts(&["rooms", map.to_str().unwrap(), "-o", saved.to_str().unwrap(), "--json"]));
    assert_eq!((&built["saved"], &built["exact"]), (&"rooms".into(), &serde_json::Value::Null), "{built}");
    let built = json(&signposts(&[
        "rooms",
        map.to_str().unwrap(),
        "--exact",
        "-o",
        index.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(built["exact"]["corners"], 1358, "{built}");
    assert_eq!(built["exact"]["tier"], "Labels", "{built}");
    assert_eq!(built["saved"], "exact", "{built}");
    assert_eq!(&std::fs::read(&index).unwrap()[..8], b"SPEXACT\0");
    let points = ["12.5", "85.5", "57.5", "42.5"];
    let corridor = rooms_query(&saved, points);
    assert_eq!(corridor["exact"], false);
    let mut args = vec!["rooms-query", saved.to_str().unwrap()];
    args.extend(points);
    args.extend(["--json", "--exact"]);
    let exact = json(&signposts(&args));
    assert_eq!(exact["exact"], true);
    let (c, e) = (corridor["length"].as_f64().unwrap(), exact["length"].as_f64().unwrap());
    // The picture in the README: 69.0 exactly; the corridor (75.5 when walks ran between
    // region centroids) is never shorter.
    assert!((e - 69.033).abs() < 1e-3 && c >= e - 1e-9, "{corridor} {exact}");
    assert_eq!(exact["next_waypoint"], exact["points"][1]);
    // The saved index answers the same, exactly, without a build (and without regions: it
    // holds no region oracle).
    let opened = rooms_query(&index, points);
    assert_eq!(
        (&opened["exact"], &opened["points"], &opened["length"]),
        (&exact["exact"], &exact["points"], &exact["length"])
    );
    assert_eq!(opened["regions"], serde_json::Value::Null);
    let mut args = vec!["rooms-query", index.to_str().unwrap()];
    args.extend(points);
    let text = signposts(&args);
    assert!(String::from_utf8_lossy(&text.stdout).starts_with("exactly shortest\nnext waypoint"), "{text:?}");
    // Given where rooms or a table belong, the index says what it is and what takes it.
    for args in [
        vec!["render", index.to_str().unwrap(), "--rooms", "-o", "x.png"],
        vec!["query", index.to_str().unwrap(), "1", "1", "2", "2"],
    ] {
        let out = signposts(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("lak.exact is a saved exact index") && err.contains("signposts rooms-query"),
            "{args:?}: {err}"
        );
    }
    // A damaged index is refused.
    let mut bytes = std::fs::read(&index).unwrap();
    let last = bytes.len() - 100;
    bytes[last] ^= 1;
    std::fs::write(&index, &bytes).unwrap();
    let mut args = vec!["rooms-query", index.to_str().unwrap()];
    args.extend(points);
    let out = signposts(&args);
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"), "{out:?}");
    // A tiny budget is refused with the bytes that would do.
    let out = signposts(&[
        "rooms",
        map.to_str().unwrap(),
        "--exact",
        "--exact-budget",
        "1K",
        "-o",
        saved.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("over the budget of 1024"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = dir.join("exact.png");
    let out = signposts(&[
        "render",
        map.to_str().unwrap(),
        "--rooms",
        "--points",
        "12.5",
        "85.5",
        "57.5",
        "42.5",
        "--exact",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("exact path: 7 points, length 69.033"));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sharded_builds_merge_into_the_bytes_of_one_build_and_refusals_name_the_file() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let map = maps().join("den312d.map");
    let map = map.to_str().unwrap();
    for (moves, count) in [(&["--diagonal"][..], 3u32), (&[][..], 2)] {
        let whole = path("whole.sp");
        let mut args = vec!["build", map, "--compressed", "-o", &whole, "--json"];
        args.extend(moves);
        json(&signposts(&args));
        let mut parts = Vec::new();
        for i in (0..count).rev() {
            let (part, shard) = (path(&format!("part-{i}.sp")), format!("{i}/{count}"));
            let mut args = vec!["build", map, "--shard", &shard, "-o", &part, "--json"];
            args.extend(moves);
            let report = json(&signposts(&args));
            assert_eq!(
                (report["shard"].as_u64(), report["shards"].as_u64()),
                (Some(u64::from(i)), Some(count.into()))
            );
            parts.push(part);
        }
        let merged = path("merged.sp");
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        args.extend(["-o", &merged, "--json"]);
        json(&signposts(&args));
        assert!(
            std::fs::read(&merged).unwrap() == std::fs::read(&whole).unwrap(),
            "{moves:?}: merged bytes differ"
        );
    }
    // Refusals, each naming what is wrong.
    let part = |i: u32| path(&format!("part-{i}.sp"));
    let refused = |args: &[&str], says: &str| {
        let out = signposts(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(says), "{args:?}: {err}");
    };
    refused(&["merge", &part(0), "-o", &path("x.sp")], "shard 1 of 2 is missing");
    refused(&["merge", &part(0), &part(0), &part(1), "-o", &path("x.sp")], "are both shard 0 of 2");
    let arena = maps().join("arena.map");
    json(&signposts(&[
        "build",
        arena.to_str().unwrap(),
        "--shard",
        "1/2",
        "-o",
        &path("other.sp"),
        "--json",
    ]));
    refused(
        &["merge", &part(0), &path("other.sp"), "-o", &path("x.sp")],
        "other.sp is a shard of another map",
    );
    std::fs::write(path("cut.sp"), &std::fs::read(part(1)).unwrap()[..300]).unwrap();
    refused(&["merge", &part(0), &path("cut.sp"), "-o", &path("x.sp")], "cut.sp");
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!left.iter().any(|name| name.contains("x.sp")), "a refused merge leaves no file: {left:?}");
    refused(&["build", map, "--shard", "2/2", "-o", &path("x.sp")], "below the count");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `build --gpu`: without the `gpu` feature, an error saying how to get it; with it, the
/// CPU build's bytes (dense 4-connected, compressed octile), the adapter named in the report.
#[test]
fn gpu_builds_are_the_cpu_builds_or_say_how_to_get_them() {
    let dir = std::env::temp_dir().join(format!("signposts-cli-gpu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let map = maps().join("den312d.map");
    let map = map.to_str().unwrap();
    for (moves, table) in [(&[][..], "--dense"), (&["--diagonal"][..], "--compressed")] {
        let (cpu, gpu) = (path("cpu.sp"), path("gpu.sp"));
        let mut args = vec!["build", map, table, "-o", &cpu, "--json"];
        args.extend(moves);
        json(&signposts(&args));
        let mut args = vec!["build", map, table, "--gpu", "-o", &gpu, "--json"];
        args.extend(moves);
        let out = signposts(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        if cfg!(feature = "gpu") && err.contains("no GPU adapter") {
            assert!(std::env::var_os("SIGNPOSTS_GPU_REQUIRED").is_none(), "no GPU adapter: {err}");
            println!("SKIPPED: no GPU adapter could be made: {err}");
            return;
        }
        if cfg!(feature = "gpu") {
            let report = json(&out);
            assert!(report["why"].as_str().unwrap().contains("on the GPU ("), "{report}");
            assert!(std::fs::read(&gpu).unwrap() == std::fs::read(&cpu).unwrap(), "{moves:?} {table}");
        } else {
            assert!(!out.status.success() && err.contains("--features gpu"), "{err}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[path = "cli/chase.rs"]
mod chase;
#[path = "cli/ux.rs"]
mod ux;
