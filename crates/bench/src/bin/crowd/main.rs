//! Continuous agents of signposts-crowd: per-step time, overlaps, arrivals and stalls of a
//! chase (agents after one moving player) and a crossing (two halves of the map swapping
//! sides) on den312d, and a doorway (two rooms swapping their agents through one door, each
//! agent to a goal of its own; the time to arrive beside the same agents without avoidance),
//! beside the `landmass` crate (its agents, paths and ORCA avoidance) on the same navmeshes
//! with the same agents, radii and speeds.
//!
//! `cargo run --release -p signposts-bench --bin crowd [-- [--ticks N] [--scene NAME ...] [COUNT ...]]`
//! (default: 1,000, 10,000 and 50,000 agents, 300 steps of 1/30 s); landmass's side:
//! `cargo run --release --manifest-path crates/bench/landmass/Cargo.toml [-- [--ticks N] [--scene NAME ...] [COUNT ...]]`
//! (default: 1,000 and 10,000; a workspace of its own, as landmass's `geo` cannot share a lock
//! file with polyanya's)
//!
//! Agents start on a lattice of spacing 2.2 radii inside open cells, at least a radius from
//! every blocked cell; the radius shrinks with the count so that agents cover about a third of
//! the open area (0.25 at 1,000, 0.15 at 10,000, 0.065 at 50,000), and the top speed is eight
//! radii a second. Overlaps are counted after the first 30 steps (agents placed at rest start
//! apart, but the first steps are the crowd's start).

use std::time::Instant;

use scenes::{DT, Report, Scene, WARM, chase, crossing, doorway, doorway_map};
use signposts::grid::parse_map;
use signposts_bench::navmesh::{cpu, maps_dir, today};
use signposts_crowd::agents::{Agent, Agents, GoalId, Settings, Stats};
use signposts_rooms::{ExactRooms, NavMesh};

mod scenes;

fn settings(scene: &Scene) -> Settings {
    let settings = Settings { arrival_distance: scene.arrival, ..Settings::default() };
    assert_eq!(
        (settings.time_horizon, settings.wall_time_horizon),
        (scenes::TIME_HORIZON, scenes::WALL_TIME_HORIZON),
        "the landmass run's horizons follow the defaults"
    );
    settings
}

/// How a run avoids: ORCA with a waypoint every `interval` steps, or no avoidance at all (the
/// same agents walking through each other; walls still kept).
#[derive(Clone, Copy)]
enum Avoid {
    Every(u32),
    Off,
}

fn run_signposts(mesh: &NavMesh, exact: &ExactRooms, scene: &Scene, avoid: Avoid) -> Report {
    let settings = match avoid {
        Avoid::Every(interval) => Settings { waypoint_interval: interval, ..settings(scene) },
        Avoid::Off => Settings { max_neighbours: 0, ..settings(scene) },
    };
    let mut agents = Agents::new(mesh, settings);
    let goals: Vec<GoalId> = scene.goals[0].iter().map(|&g| agents.add_goal(g).expect("finite")).collect();
    for (&position, &k) in scene.starts.iter().zip(&scene.goal_of) {
        let agent = Agent { position, radius: scene.radius, max_speed: scene.speed, goal: goals[k] };
        agents.add(agent).expect("placed in the open");
    }
    let mut report = Report::default();
    let mut overlaps = 0usize;
    let mut last = Stats::default();
    for (t, at) in scene.goals.iter().enumerate() {
        for (&g, &p) in goals.iter().zip(at) {
            agents.set_goal(g, p).expect("finite");
        }
        let start = Instant::now();
        last = agents.step(exact, DT);
        report.times.push(start.elapsed().as_secs_f64() * 1e3);
        if t >= WARM {
            // Counted outside the timed step, as a game that wants them would ask.
            let counted = agents.overlaps();
            report.overlaps_max = report.overlaps_max.max(counted.pairs);
            overlaps += counted.pairs;
            report.deepest = report.deepest.max(counted.deepest / (2.0 * scene.radius));
        }
        report.stalled_max = report.stalled_max.max(last.stalled);
        report.crossings(scene, agents.positions(), t);
    }
    report.overlaps_mean = overlaps as f64 / (scene.goals.len() - WARM) as f64;
    report.arrived = last.arrived as f64 / last.agents as f64;
    report.stalled_end = last.stalled;
    report.outside = agents.positions().filter(|&p| mesh.region_at(p).is_none()).count();
    let points: Vec<_> = agents.positions().collect();
    assert_eq!(
        scenes::overlaps(&points, scene.radius).0,
        agents.overlaps().pairs,
        "the crowd's stats against the bench's count"
    );
    report
}

/// The mesh and exact index of `grid`.
fn mesh_of(grid: &signposts::grid::Grid) -> (NavMesh, ExactRooms) {
    let mesh = NavMesh::from_grid(grid).expect("a mesh");
    let exact = ExactRooms::build(&mesh).expect("the exact index");
    (mesh, exact)
}

fn main() {
    let args = scenes::args(&[1_000, 10_000, 50_000]);
    let steps = args.steps;
    let path = maps_dir().join("den312d.map");
    let grid = parse_map(&std::fs::read(&path).expect("maps/den312d.map")).expect("a valid map");
    let (mesh, exact) = mesh_of(&grid);
    let threads = rayon::current_num_threads();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average (1, 5, 15 min) at the start: {}", load.trim());
    println!(
        "den312d ({} regions), {steps} steps of 1/30 s, {threads} threads, {} ({}), overlaps after the first {WARM} steps\n",
        mesh.regions_len(),
        cpu(),
        today()
    );
    scenes::head();
    for &n in &args.counts {
        let den = [chase(&grid, &exact, n, steps), crossing(&grid, n, steps)];
        for scene in den.iter().filter(|s| args.runs(s.name)) {
            scenes::row(scene, "signposts-crowd", &run_signposts(&mesh, &exact, scene, Avoid::Every(1)));
            scenes::row(
                scene,
                "signposts-crowd, waypoints every 4 steps",
                &run_signposts(&mesh, &exact, scene, Avoid::Every(4)),
            );
        }
        if args.runs("doorway") {
            // On a map of its own, three times as long (most agents cross without avoidance).
            let map = doorway_map(n);
            let (mesh, exact) = mesh_of(&map);
            let scene = doorway(&map, n, 3 * steps);
            scenes::row(&scene, "signposts-crowd", &run_signposts(&mesh, &exact, &scene, Avoid::Every(1)));
            scenes::row(
                &scene,
                "signposts-crowd, no avoidance",
                &run_signposts(&mesh, &exact, &scene, Avoid::Off),
            );
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("\nload average (1, 5, 15 min) at the end: {}", load.trim());
}
