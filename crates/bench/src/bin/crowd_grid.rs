//! Grid walkers with cell capacity (`signposts_crowd::grid::GridCrowd`) beside the core's
//! `Crowd` (one optimal step each, no capacity) on the same scenes: time per tick (median,
//! mean, worst), moves, waits, swaps, sidesteps, arrivals, and how the core's crowd stacks up
//! in cells. Beside the wall-clock times, the CPU time of each tick (every thread's, from
//! `CLOCK_PROCESS_CPUTIME_ID`): on a machine shared with other work, the tick's own cost.
//!
//! `cargo run --release -p signposts-bench --bin crowd_grid [-- TICKS]` (default 200 ticks a
//! scene). The compressed table of AR0602SR (a 512×512 map, 66,372 open cells) is built once
//! and kept in `target/crowd_grid/` (delete it to time the build again). Ticks run on rayon's
//! global pool (every core) and on a pool of one thread.

use std::path::PathBuf;
use std::time::Instant;

use signposts::grid::{Connectivity, GridOracle, parse_map};
use signposts::{Crowd, NextHop, NodeId};
use signposts_crowd::grid::{GridCrowd, Tick};

fn maps_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps")
}

/// `SplitMix64`: the scenes' placements and goals, the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> NodeId {
        (self.next() % n as u64) as NodeId
    }
}

/// The map's octile oracle: loaded from `target/crowd_grid/` when built before.
fn oracle(map: &str, compressed: bool) -> GridOracle {
    let cache = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/crowd_grid")
        .join(format!("{map}-eight-{}.oracle", if compressed { "compressed" } else { "dense" }));
    if let Ok(oracle) = GridOracle::load_from(&cache) {
        return oracle;
    }
    let grid = parse_map(&std::fs::read(maps_dir().join(format!("{map}.map"))).expect("the map is in maps/"))
        .expect("a valid map");
    let start = Instant::now();
    let oracle = if compressed {
        GridOracle::build_compressed(&grid, Connectivity::Eight)
    } else {
        GridOracle::build(&grid, Connectivity::Eight)
    }
    .expect("the table builds");
    eprintln!("built {map}'s table in {:.1} s", start.elapsed().as_secs_f64());
    std::fs::create_dir_all(cache.parent().expect("a folder")).expect("target/ is writable");
    oracle.save_to(&cache).expect("the table saves");
    oracle
}

/// A scene: walkers on distinct random open cells, each with a random goal (a new one on
/// arrival), or all chasing one target.
struct Scene<'a> {
    title: String,
    oracle: &'a GridOracle,
    walkers: usize,
    capacity: u16,
    chase: Option<NodeId>,
    seed: u64,
}

/// The CPU time of the whole process (every thread) in ms: on a shared machine, the work a
/// tick took whatever share of the cores it got.
fn cpu_ms() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to write.
    let failed = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &raw mut t) };
    assert_eq!(failed, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// Per-tick times in ms and the summed counts.
#[derive(Default)]
struct Run {
    ms: Vec<f64>,
    cpu_ms: Vec<f64>,
    moved: usize,
    waited: usize,
    swapped: usize,
    sidesteps: usize,
    arrivals: usize,
    most_in_a_cell: u16,
    shared_cells: usize,
}

impl Run {
    /// Median, mean and worst of `ms`.
    fn stats(ms: &[f64]) -> (f64, f64, f64) {
        let mut ms = ms.to_vec();
        ms.sort_by(f64::total_cmp);
        let mean = ms.iter().sum::<f64>() / ms.len() as f64;
        (ms[ms.len() / 2], mean, ms[ms.len() - 1])
    }
}

impl Scene<'_> {
    /// Start cells (distinct) and goals.
    fn start(&self) -> (Vec<NodeId>, Vec<NodeId>, Rng) {
        let n = self.oracle.nodes_len();
        assert!(self.walkers <= n, "{} walkers need as many open cells; the map has {n}", self.walkers);
        let mut rng = Rng(self.seed);
        let mut cells: Vec<NodeId> = (0..n as NodeId).collect();
        for i in 0..self.walkers {
            let j = i + rng.below(n - i) as usize;
            cells.swap(i, j);
        }
        cells.truncate(self.walkers);
        let goals = (0..self.walkers).map(|_| rng.below(n)).collect();
        (cells, goals, rng)
    }

    fn run_capacity(&self, ticks: usize) -> Run {
        let (cells, goals, mut rng) = self.start();
        let n = self.oracle.nodes_len();
        let table = self.oracle.table();
        let mut crowd =
            GridCrowd::new(self.oracle).with_cell_capacity(self.capacity).with_sidestep_after(Some(4));
        for (&at, &goal) in cells.iter().zip(&goals) {
            crowd.add(at, goal).expect("distinct cells");
        }
        let mut run = Run::default();
        for _ in 0..ticks {
            let (start, cpu) = (Instant::now(), cpu_ms());
            let tick: Tick = match self.chase {
                Some(target) => crowd.tick_toward(&table, target),
                None => crowd.tick(&table),
            }
            .expect("the crowd's own table");
            run.ms.push(start.elapsed().as_secs_f64() * 1e3);
            run.cpu_ms.push(cpu_ms() - cpu);
            run.moved += tick.moved;
            run.waited += tick.waited;
            run.swapped += tick.swapped;
            run.sidesteps += tick.sidesteps;
            if self.chase.is_none() {
                for w in 0..crowd.len() {
                    if crowd.position(w) == crowd.goals()[w] {
                        run.arrivals += 1;
                        crowd.set_goal(w, rng.below(n)).expect("in range");
                    }
                }
            }
        }
        if let Some(target) = self.chase {
            run.arrivals = crowd.positions().iter().filter(|&&p| p == target).count();
        }
        (run.most_in_a_cell, run.shared_cells) = stacking(crowd.positions(), n);
        run
    }

    fn run_core(&self, ticks: usize) -> Run {
        let (cells, mut goals, mut rng) = self.start();
        let n = self.oracle.nodes_len();
        let table = self.oracle.table();
        let mut crowd = Crowd::new(cells);
        let (mut queries, mut steps) = (Vec::new(), Vec::new());
        let mut run = Run::default();
        for _ in 0..ticks {
            let (start, cpu) = (Instant::now(), cpu_ms());
            if let Some(target) = self.chase {
                run.moved += crowd.step_toward(&table, target).expect("in range").moved;
            } else {
                // The core's `Crowd` takes one target; per-walker goals are the same batched
                // query it makes, one goal per walker.
                queries.clear();
                queries.extend(crowd.positions().iter().zip(&goals).map(|(&p, &g)| (p, g)));
                table.neighbor_to_each(&queries, &mut steps);
                for (p, s) in crowd.positions_mut().iter_mut().zip(&steps) {
                    if let Some(s) = s {
                        *p = *s;
                        run.moved += 1;
                    }
                }
            }
            run.ms.push(start.elapsed().as_secs_f64() * 1e3);
            run.cpu_ms.push(cpu_ms() - cpu);
            if self.chase.is_none() {
                for (p, g) in crowd.positions().iter().zip(goals.iter_mut()) {
                    if p == g {
                        run.arrivals += 1;
                        *g = rng.below(n);
                    }
                }
            }
        }
        if let Some(target) = self.chase {
            run.arrivals = crowd.positions().iter().filter(|&&p| p == target).count();
        }
        (run.most_in_a_cell, run.shared_cells) = stacking(crowd.positions(), n);
        run
    }
}

/// The most walkers in one cell, and how many cells hold more than one.
fn stacking(positions: &[NodeId], nodes: usize) -> (u16, usize) {
    let mut counts = vec![0u16; nodes];
    for &p in positions {
        counts[p as usize] = counts[p as usize].saturating_add(1);
    }
    (counts.iter().copied().max().unwrap_or(0), counts.iter().filter(|&&c| c > 1).count())
}

fn row(scene: &Scene, what: &str, threads: usize, run: &Run) {
    let (median, mean, worst) = Run::stats(&run.ms);
    let (cpu, _, _) = Run::stats(&run.cpu_ms);
    println!(
        "| {} | {what} | {threads} | {} | {median:.2} | {mean:.2} | {worst:.2} | {cpu:.2} | {} | {} | {} | {} | {} | {} / {} |",
        scene.title,
        scene.walkers,
        run.moved,
        run.waited,
        run.swapped,
        run.sidesteps,
        run.arrivals,
        run.most_in_a_cell,
        run.shared_cells
    );
}

fn main() {
    let ticks: usize = std::env::args().nth(1).map_or(200, |t| t.parse().expect("TICKS is a number"));
    let threads = rayon::current_num_threads();
    let big = oracle("AR0602SR", true);
    let small = oracle("den312d", false);
    let player = big
        .node(signposts::grid::Cell::new(256, 256))
        .or_else(|| big.node(big.cell(big.nodes_len() as NodeId / 2).expect("a node")))
        .expect("an open cell");
    let scenes = [
        Scene {
            title: format!("AR0602SR (512², {} open), compressed, own goals", big.nodes_len()),
            oracle: &big,
            walkers: 50_000,
            capacity: 1,
            chase: None,
            seed: 1,
        },
        Scene {
            title: format!("AR0602SR (512², {} open), compressed, own goals", big.nodes_len()),
            oracle: &big,
            walkers: 20_000,
            capacity: 1,
            chase: None,
            seed: 4,
        },
        Scene {
            title: format!("AR0602SR (512², {} open), compressed, chase one target", big.nodes_len()),
            oracle: &big,
            walkers: 50_000,
            capacity: 1,
            chase: Some(player),
            seed: 2,
        },
        Scene {
            title: format!("den312d ({} open), dense, own goals", small.nodes_len()),
            oracle: &small,
            walkers: 1_000,
            capacity: 2,
            chase: None,
            seed: 3,
        },
    ];
    println!(
        "{ticks} ticks a scene; GridCrowd with sidesteps after 4 ticks of waiting; rayon threads: {threads} and 1\n"
    );
    println!(
        "| scene | crowd | threads | walkers | median ms/tick | mean | worst | median CPU ms/tick | moves | waits | swaps | sidesteps | arrivals | most in a cell / cells shared |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    for scene in &scenes {
        let capacity = format!("GridCrowd, capacity {}", scene.capacity);
        row(scene, &capacity, threads, &scene.run_capacity(ticks));
        row(scene, &capacity, 1, &one.install(|| scene.run_capacity(ticks)));
        row(scene, "core Crowd, no capacity", 1, &scene.run_core(ticks));
    }
}
