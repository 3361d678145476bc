//! Opening a saved table: `load` (read into memory and check everything) beside opening it in
//! place memory-mapped (`map_file`, checked on demand) and mapped then verified at once, each
//! in a fresh process: the time from the call to the first answer, the resident memory then,
//! and after 100,000 random queries.
//!
//! `cargo run --release -p signposts-bench --bin open [-- [--eight] MAP.map ...]`
//! (default: `TheFrozenSea` and `AcrosstheCape`, 4-connected compressed tables; `--eight` builds
//! octile ones). Tables are built once and kept in `target/open-bench/`. Each file is dropped
//! from the page cache before a cold run (`posix_fadvise(DONTNEED)`, no privileges needed),
//! and read once more before a warm one.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use signposts::format::Check;
use signposts::grid::{Cell, Connectivity, GridOracle, parse_map};
use signposts_bench::proc_status_bytes;

const QUERIES: usize = 100_000;

fn maps_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps")
}

/// The saved table of `map`, built and saved the first time.
fn table_file(map: &Path, connectivity: Connectivity) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/open-bench");
    std::fs::create_dir_all(&dir).expect("a directory for the tables");
    let stem = map.file_stem().and_then(|s| s.to_str()).expect("a map file name");
    let moves = if connectivity == Connectivity::Four { "four" } else { "eight" };
    let file = dir.join(format!("{stem}-{moves}.sp"));
    // SAFETY: the bench alone writes these files, and not while they are mapped.
    if unsafe { GridOracle::map_file(&file, Check::Sizes) }.is_ok() {
        return file;
    }
    let grid = parse_map(&std::fs::read(map).expect("a readable map")).expect("a valid map");
    eprintln!("building the compressed table of {stem} ({} cells), once", grid.width() * grid.height());
    let start = Instant::now();
    let oracle = GridOracle::build_compressed(&grid, connectivity).expect("a table");
    eprintln!("built in {:.1} s", start.elapsed().as_secs_f64());
    oracle.save_to(&file).expect("a written table");
    file
}

/// Drops the file's pages from the page cache (cold) or reads it once (warm).
fn set_cache(file: &Path, warm: bool) {
    if warm {
        std::hint::black_box(std::fs::read(file).expect("a readable table"));
        return;
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let f = std::fs::File::open(file).expect("a readable table");
        // SAFETY: a valid descriptor; DONTNEED only drops clean cached pages.
        let failed = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        if failed != 0 {
            eprintln!("posix_fadvise failed ({failed}): the cold run may find pages cached");
        }
    }
}

/// In a child process: opens `file` as `mode` says and prints
/// `open_ms first_answer_ms rss_bytes peak_bytes query_ns rss_after_bytes`.
fn child(mode: &str, file: &Path) {
    let start = Instant::now();
    // SAFETY: the bench alone writes these files, and not while they are mapped.
    let oracle = match mode {
        "load" => GridOracle::load_from(file),
        "map" => unsafe { GridOracle::map_file(file, Check::Sizes) },
        "map+verify" => unsafe { GridOracle::map_file(file, Check::Full) },
        other => panic!("unknown mode {other}"),
    }
    .expect("an opened table");
    let opened = start.elapsed();
    let grid = oracle.grid();
    let open: Vec<Cell> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect();
    let pairs = signposts_bench::pairs(open.len(), QUERIES + 1, 7);
    let (a, b) = pairs[0];
    let first = std::hint::black_box(oracle.next_step(open[a as usize], open[b as usize]));
    let answered = start.elapsed();
    let (rss, peak) = (proc_status_bytes("VmRSS"), proc_status_bytes("VmHWM"));
    let timer = Instant::now();
    let mut sum = u64::from(first.is_some());
    for &(a, b) in &pairs[1..] {
        sum += oracle.next_step(open[a as usize], open[b as usize]).map_or(0, |d| d as u64);
    }
    std::hint::black_box(sum);
    let per_query = timer.elapsed().as_secs_f64() * 1e9 / QUERIES as f64;
    println!(
        "{:.3} {:.3} {rss} {peak} {per_query:.0} {}",
        opened.as_secs_f64() * 1e3,
        answered.as_secs_f64() * 1e3,
        proc_status_bytes("VmRSS")
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child") {
        child(&args[1], Path::new(&args[2]));
        return;
    }
    let connectivity =
        if args.iter().any(|a| a == "--eight") { Connectivity::Eight } else { Connectivity::Four };
    let mut maps: Vec<PathBuf> = args.iter().filter(|a| !a.starts_with("--")).map(PathBuf::from).collect();
    if maps.is_empty() {
        maps = ["TheFrozenSea.map", "AcrosstheCape.map"].iter().map(|m| maps_dir().join(m)).collect();
    }
    let mib = |bytes: f64| bytes / f64::from(1 << 20);
    println!(
        "| map | file | cache | open with | to open | to the first answer | resident then (peak) | query, next 100,000 | resident after |"
    );
    println!("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |");
    let me = std::env::current_exe().expect("this bench's path");
    for map in &maps {
        let file = table_file(map, connectivity);
        let size = std::fs::metadata(&file).expect("a table file").len();
        let name = map.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        for warm in [false, true] {
            for mode in ["load", "map", "map+verify"] {
                set_cache(&file, warm);
                let out = Command::new(&me).args(["--child", mode]).arg(&file).output().expect("a child run");
                assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                let line = String::from_utf8_lossy(&out.stdout);
                let f: Vec<f64> = line.split_whitespace().map(|v| v.parse().expect("a number")).collect();
                println!(
                    "| {name} | {:.1} MiB | {} | {mode} | {:.2} ms | {:.2} ms | {:.1} MiB ({:.1}) | {:.0} ns | {:.1} MiB |",
                    mib(size as f64),
                    if warm { "warm" } else { "cold" },
                    f[0],
                    f[1],
                    mib(f[2]),
                    mib(f[3]),
                    f[4],
                    mib(f[5]),
                );
            }
        }
    }
}
