//! A saved exact index against a rebuilt one: the build's time beside `save_to`, the file's
//! size, `load_from` (read into memory, every part checked), and `map_file` with
//! `Check::Sizes` (cold: the file dropped from the page cache first; then warm) and with
//! `Check::Full`, each timed from the call to its first answer; every index then answers
//! 2,000 random queries (`path`, `next_waypoint`) as the built one does.
//!
//! `cargo run --release -p signposts-bench --bin exact_open [-- MAP.map ...]`
//! (default: den312d, lak303d and maze512-4-0 of maps). Files go to `target/exact-open/`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use signposts::format::Check;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, parse_map};
use signposts_bench::navmesh::{cpu, maps_dir, today};
use signposts_rooms::{ExactRooms, NavMesh, Point};

const DEFAULT_MAPS: [&str; 3] = ["den312d", "lak303d", "maze512-4-0"];

/// Drops `file` from the page cache (clean pages only; no privileges needed).
fn drop_cache(file: &Path) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let f = std::fs::File::open(file).expect("a readable file");
        // SAFETY: a valid descriptor; DONTNEED only drops clean cached pages.
        let failed = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        if failed != 0 {
            eprintln!("posix_fadvise failed ({failed}): the cold run may find pages cached");
        }
    }
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let maps: Vec<PathBuf> = if args.is_empty() {
        DEFAULT_MAPS.iter().map(|m| maps_dir().join(format!("{m}.map"))).collect()
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/exact-open");
    std::fs::create_dir_all(&dir).expect("a directory for the files");
    println!("On {}, {}.\n", today(), cpu());
    println!(
        "| map | corners | tier | build | save_to | file | load_from | map_file cold | map_file warm | map_file Full |"
    );
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for map in &maps {
        let stem = map.file_stem().and_then(|s| s.to_str()).expect("a map file name");
        let grid = parse_map(&std::fs::read(map).expect("a readable map")).expect("a valid map");
        let mesh = NavMesh::from_grid(&grid).expect("a mesh");
        let start = Instant::now();
        let built = ExactRooms::build(&mesh).expect("an index");
        let build_ms = ms(start);
        let file = dir.join(format!("{stem}.exact"));
        let start = Instant::now();
        built.save_to(&file).expect("saved");
        let save = ms(start);
        let size = std::fs::metadata(&file).expect("a file").len();
        let open: Vec<Cell> = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
            .filter(|&c| grid.is_passable(c))
            .collect();
        let mut rng = SplitMix64::new(17);
        let mut pick = || {
            let c = open[rng.below(open.len() as u64) as usize];
            Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5)
        };
        let queries: Vec<(Point, Point)> = (0..2000).map(|_| (pick(), pick())).collect();
        let (s, t) = queries[0];
        // Each from the call to its first answer.
        let timed = |open: &dyn Fn() -> ExactRooms| {
            let start = Instant::now();
            let index = open();
            std::hint::black_box(index.next_waypoint(s, t));
            (ms(start), index)
        };
        let (load, loaded) = timed(&|| ExactRooms::load_from(&file).expect("loaded"));
        drop_cache(&file);
        // SAFETY: this bench alone writes the file, and not while it is mapped.
        let (cold, mapped) = timed(&|| unsafe { ExactRooms::map_file(&file, Check::Sizes) }.expect("mapped"));
        drop(mapped);
        // SAFETY: as above.
        let (warm, mapped) = timed(&|| unsafe { ExactRooms::map_file(&file, Check::Sizes) }.expect("mapped"));
        // SAFETY: as above.
        let (full, checked) = timed(&|| unsafe { ExactRooms::map_file(&file, Check::Full) }.expect("mapped"));
        for &(s, t) in &queries {
            let want = (built.path(s, t), built.next_waypoint(s, t));
            for other in [&loaded, &mapped, &checked] {
                assert_eq!((other.path(s, t), other.next_waypoint(s, t)), want, "{stem}: {s} → {t}");
            }
        }
        println!(
            "| {stem} | {} | {:?} | {:.0} ms | {save:.0} ms | {:.1} MiB | {load:.1} ms | {cold:.2} ms | {warm:.2} ms | {full:.1} ms |",
            built.corners_len(),
            built.tier(),
            build_ms,
            size as f64 / f64::from(1 << 20),
        );
    }
}
