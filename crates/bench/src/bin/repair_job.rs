//! Repairs spread over calls against one-shot repairs: corridor cells of the web page's maze
//! (121×81, octile) closed and opened again, each edit repaired once by `set_blocked` and once
//! by a job stepped one unit at a time (`set_blocked_job`, `Budget::Work(1)`), from the same
//! table. Prints each way's median and total time, the job's overhead, and its longest
//! unit (what a frame waits for at least) with the job's start (the table's copy) beside it;
//! the longest unit also in this thread's CPU time, which other processes on a shared machine
//! do not inflate (a unit that waited for a core counts only the time it ran).
//! Set `RAYON_NUM_THREADS=1` for the web page's single thread; `CELL=x,y` for one cell alone,
//! `SHOW=1` for each edit's longest unit and where in the job it came.
//!
//! `cargo run --release -p signposts-bench --bin repair_job [-- CELLS]`

use std::time::Instant;

use signposts::dynamic::Budget;
use signposts::generate::maze_grid;
use signposts::grid::{Cell, Connectivity, GridOracle};
use signposts_bench::cells_between_open;

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// This thread's CPU time in ms.
fn cpu_ms() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to write.
    let failed = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut t) };
    assert_eq!(failed, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let count: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(24);
    let grid = maze_grid(60, 40, 8, 42);
    let mut oracle = GridOracle::build(&grid, Connectivity::Eight).expect("fits");
    let (mut once, mut job, mut longest, mut starts, mut units) = (vec![], vec![], vec![], vec![], vec![]);
    let mut longest_cpu = vec![];
    let mut worst = (0.0f64, 0.0f64, 0usize, false);
    // `CELL=x,y`: that cell alone (closed and opened).
    let only = std::env::var("CELL").ok().and_then(|c| {
        let (x, y) = c.split_once(',')?;
        Some(vec![Cell::new(x.parse().ok()?, y.parse().ok()?)])
    });
    for cell in only.unwrap_or_else(|| cells_between_open(&grid, true, count, 7)) {
        for blocked in [true, false] {
            let mut copy = oracle.clone();
            let start = Instant::now();
            let update = copy.set_blocked(cell, blocked).expect("in the grid");
            once.push(ms(start));
            let start = Instant::now();
            let mut stepped = oracle.set_blocked_job(cell, blocked).expect("in the grid");
            let began = ms(start);
            let (mut most, mut most_cpu, mut n, mut at) = (0.0, 0.0f64, 0, 0);
            while !stepped.is_done() {
                let (step, cpu) = (Instant::now(), cpu_ms());
                stepped.step(Budget::Work(1));
                most_cpu = most_cpu.max(cpu_ms() - cpu);
                if ms(step) > most {
                    most = ms(step);
                    at = n;
                }
                n += 1;
            }
            if std::env::var_os("SHOW").is_some() {
                println!(
                    "{cell} {blocked}: start {began:.2} ms, longest {most:.2} ms (CPU {most_cpu:.2} ms), at unit {at} of {n}"
                );
            }
            longest_cpu.push(most_cpu);
            let (repaired, by_job) = stepped.finish().expect("fits");
            job.push(ms(start));
            let most = most.max(began);
            longest.push(most);
            starts.push(began);
            units.push(n as f64);
            if most > worst.0 {
                worst = (most, began, n, by_job.rebuilt);
            }
            assert_eq!(
                repaired.cost(Cell::new(1, 1), Cell::new(119, 79)),
                copy.cost(Cell::new(1, 1), Cell::new(119, 79))
            );
            assert!(update.rebuilt || !by_job.rebuilt);
            oracle = repaired;
        }
    }
    let (o, j): (f64, f64) = (once.iter().sum(), job.iter().sum());
    println!("web maze 121x81 octile, {} edits ({count} corridor cells closed and opened):", once.len());
    println!("  one-shot set_blocked: median {:.2} ms, total {:.1} ms", median(&once), o);
    println!(
        "  job, one unit a step: median {:.2} ms, total {:.1} ms ({:+.0}%), median {:.0} units",
        median(&job),
        j,
        (j / o - 1.0) * 100.0,
        median(&units)
    );
    println!(
        "  longest unit: median {:.2} ms, worst {:.2} ms (its job: start {:.2} ms, {} units, rebuilt {}); start (copy) median {:.2} ms",
        median(&longest),
        worst.0,
        worst.1,
        worst.2,
        worst.3,
        median(&starts)
    );
    println!(
        "  longest unit in CPU time: median {:.2} ms, worst {:.2} ms",
        median(&longest_cpu),
        longest_cpu.iter().copied().fold(0.0, f64::max)
    );
}
