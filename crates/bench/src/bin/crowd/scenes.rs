//! The crowd bench's scenes on den312d, shared by the signposts-crowd run (`--bin crowd`)
//! and the landmass run (`crates/bench/landmass`, a workspace of its own: landmass's `geo`
//! cannot share a lock file with polyanya's).

#![expect(clippy::cast_sign_loss, reason = "cell coordinates of points inside the map (not negative)")]
#![expect(clippy::many_single_char_names, reason = "points and cells: p r x y w h n")]

use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid};
use signposts_rooms::{ExactRooms, Point};

/// Agents avoid each other this far ahead (s), as `Settings::default()` of signposts-crowd.
pub const TIME_HORIZON: f64 = 1.0;
/// Agents avoid walls this far ahead (s), as `Settings::default()` of signposts-crowd.
pub const WALL_TIME_HORIZON: f64 = 0.5;

/// Steps at the start that are not counted for overlaps.
pub const WARM: usize = 30;
/// The time step, in seconds.
pub const DT: f64 = 1.0 / 30.0;

/// The radius for `n` agents on den312d.
fn radius_for(n: usize) -> f64 {
    if n <= 2_000 {
        0.25
    } else if n <= 20_000 {
        0.15
    } else {
        0.065
    }
}

/// Whether the disc of radius `r` around `p` lies in open cells only.
fn clear(grid: &Grid, p: Point, r: f64) -> bool {
    let (x0, x1) = ((p.x - r).floor(), (p.x + r).floor());
    let (y0, y1) = ((p.y - r).floor(), (p.y + r).floor());
    if x0 < 0.0 || y0 < 0.0 || x1 >= f64::from(grid.width()) || y1 >= f64::from(grid.height()) {
        return false;
    }
    (y0 as u32..=y1 as u32).all(|y| (x0 as u32..=x1 as u32).all(|x| grid.is_passable(Cell::new(x, y))))
}

/// `n` starting points on a lattice of spacing 2.2 `r`, shuffled by `seed`; those with
/// `pick` only.
fn starts(grid: &Grid, n: usize, r: f64, seed: u64, pick: impl Fn(Point) -> bool) -> Vec<Point> {
    let step = 2.2 * r;
    let mut points = Vec::new();
    let mut y = r;
    while y < f64::from(grid.height()) {
        let mut x = r;
        while x < f64::from(grid.width()) {
            let p = Point::new(x, y);
            if clear(grid, p, r) && pick(p) {
                points.push(p);
            }
            x += step;
        }
        y += step;
    }
    let mut rng = SplitMix64::new(seed);
    for i in (1..points.len()).rev() {
        points.swap(i, rng.below(i as u64 + 1) as usize);
    }
    assert!(points.len() >= n, "only {} places for {n} agents of radius {r}", points.len());
    points.truncate(n);
    points
}

/// The player's position at each step: walking at 1.5 cells a second along exact paths
/// between random open cells.
fn player_walk(grid: &Grid, exact: &ExactRooms, steps: usize, seed: u64) -> Vec<Point> {
    let open: Vec<Point> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .map(|c| Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5))
        .collect();
    let mut rng = SplitMix64::new(seed);
    let mut at = open[rng.below(open.len() as u64) as usize];
    let mut out = Vec::with_capacity(steps);
    let mut route: Vec<Point> = Vec::new();
    let stride = 1.5 * DT;
    while out.len() < steps {
        if route.is_empty() {
            let to = open[rng.below(open.len() as u64) as usize];
            if let Some(path) = exact.path(at, to) {
                route = path.points().iter().rev().copied().collect();
            }
            continue;
        }
        let mut left = stride;
        while left > 0.0 {
            let Some(&next) = route.last() else { break };
            let d = at.distance(next);
            if d <= left {
                at = next;
                left -= d;
                route.pop();
            } else {
                let f = left / d;
                at = Point::new(at.x + (next.x - at.x) * f, at.y + (next.y - at.y) * f);
                left = 0.0;
            }
        }
        out.push(at);
    }
    out
}

/// What a run measured.
#[derive(Debug, Default)]
pub struct Report {
    /// Per-step times in ms.
    pub times: Vec<f64>,
    /// Overlapping pairs after the warm-up: the largest count, and the mean.
    pub overlaps_max: usize,
    pub overlaps_mean: f64,
    /// The deepest overlap after the warm-up, as a share of the pair's radii' sum.
    pub deepest: f64,
    /// Agents arrived at the end, as a share.
    pub arrived: f64,
    /// Agents stalled at the end, and the most in any step.
    pub stalled_end: usize,
    pub stalled_max: usize,
    /// Agents whose centre left the walkable area at the end (landmass moves its agents
    /// without a check).
    pub outside: usize,
    /// Per agent, the first step at which it was through the door, over a cell beyond the
    /// wall's middle on the far side (the doorway only).
    pub first_arrival: Vec<Option<usize>>,
}

impl Report {
    pub fn median(&self) -> f64 {
        let mut t = self.times.clone();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    }

    pub fn mean(&self) -> f64 {
        self.times.iter().sum::<f64>() / self.times.len() as f64
    }

    pub fn worst(&self) -> f64 {
        self.times.iter().copied().fold(0.0, f64::max)
    }

    /// Records which of the agents (at `positions`, `n` of them) are through the door at step
    /// `t`, for a scene with a door.
    pub fn crossings(&mut self, scene: &Scene, positions: impl Iterator<Item = Point>, t: usize) {
        let Some(mid) = scene.door_x else { return };
        self.first_arrival.resize(scene.starts.len(), None);
        for ((p, s), first) in positions.zip(&scene.starts).zip(&mut self.first_arrival) {
            let through = if s.x < mid { p.x > mid + 1.5 } else { p.x < mid - 1.5 };
            if through {
                first.get_or_insert(t);
            }
        }
    }

    /// The mean time (s) to get through the door of the agents that did, and their share.
    pub fn arrival(&self) -> Option<(f64, f64)> {
        let times: Vec<usize> = self.first_arrival.iter().flatten().copied().collect();
        (!times.is_empty()).then(|| {
            let mean = times.iter().sum::<usize>() as f64 / times.len() as f64;
            ((mean + 1.0) * DT, times.len() as f64 / self.first_arrival.len() as f64)
        })
    }
}

/// A scene: agents' starts and goals (goal `k` of `goals` per agent), the goals' positions at
/// each step.
pub struct Scene {
    pub name: &'static str,
    /// The x of the door's wall, for a scene whose agents must get through it (the time
    /// each takes is measured).
    pub door_x: Option<f64>,
    pub starts: Vec<Point>,
    pub goal_of: Vec<usize>,
    /// `goals[step][k]`.
    pub goals: Vec<Vec<Point>>,
    pub radius: f64,
    pub speed: f64,
    pub arrival: f64,
}

/// The chase: every agent after one player walking the map.
pub fn chase(grid: &Grid, exact: &ExactRooms, n: usize, steps: usize) -> Scene {
    let radius = radius_for(n);
    let starts = starts(grid, n, radius, 1, |_| true);
    let goals = player_walk(grid, exact, steps, 2).into_iter().map(|p| vec![p]).collect();
    Scene {
        name: "chase",
        door_x: None,
        goal_of: vec![0; n],
        starts,
        goals,
        radius,
        speed: 8.0 * radius,
        arrival: 1.0,
    }
}

/// The crossing: agents of the left half head for one point on the right and those of the
/// right half for one on the left, through the map's middle.
pub fn crossing(grid: &Grid, n: usize, steps: usize) -> Scene {
    let radius = radius_for(n);
    let mid = f64::from(grid.width()) / 2.0;
    let starts = starts(grid, n, radius, 3, |_| true);
    let goal_of = starts.iter().map(|p| usize::from(p.x < mid)).collect();
    let open = |x: u32, y: u32| grid.is_passable(Cell::new(x, y));
    // The open cells nearest the middle of the left and right quarters, by rows from the middle.
    let pick = |x0: u32| {
        let h = grid.height();
        (0..h)
            .flat_map(|d| [h / 2 + d / 2, (h / 2).saturating_sub(d / 2 + 1)])
            .flat_map(|y| (0..8).map(move |dx| (x0 + dx, y)))
            .find(|&(x, y)| y < h && x < grid.width() && open(x, y))
            .map(|(x, y)| Point::new(f64::from(x) + 0.5, f64::from(y) + 0.5))
            .expect("an open cell")
    };
    let targets = vec![pick(grid.width() / 4), pick(3 * grid.width() / 4)];
    Scene {
        name: "crossing",
        door_x: None,
        goal_of,
        starts,
        goals: vec![targets; steps],
        radius,
        speed: 8.0 * radius,
        arrival: 2.0,
    }
}

/// The doorway's map for `n` agents: two square rooms side by side (walled round), the wall
/// between them one cell thick with one door in its middle, a quarter of the wall wide (3
/// cells at least). The rooms' side grows with the count so that the agents cover about a
/// sixth of the floor.
pub fn doorway_map(n: usize) -> Grid {
    let r = radius_for(n);
    let floor = n as f64 * std::f64::consts::PI * r * r * 6.0;
    let side = ((floor / 2.0).sqrt().ceil() as u32).max(12);
    let (w, h) = (2 * side + 3, side + 2);
    let half = (side / 8).max(1);
    let door = (h / 2 - half)..=(h / 2 + half);
    Grid::try_from_fn(w, h, |c| {
        let wall =
            c.x == 0 || c.y == 0 || c.x == w - 1 || c.y == h - 1 || (c.x == side + 1 && !door.contains(&c.y));
        !wall
    })
    .expect("a small map")
}

/// The doorway: the agents of each room head for their mirror image in the other room, all
/// through the one door, both ways at once; each agent has a goal of its own (the mirror
/// images are distinct lattice points, so every agent can stand at its goal at the end). The
/// time each agent takes to get through the door is measured, not to its goal: the last steps
/// to a goal among agents standing at theirs measure parking, not the door.
pub fn doorway(grid: &Grid, n: usize, steps: usize) -> Scene {
    let radius = radius_for(n);
    let mid = f64::from(grid.width()) / 2.0;
    let mirror = |p: Point| Point::new(2.0 * mid - p.x, p.y);
    // Starts whose mirror image is a start place too (the map is symmetric, the lattice not).
    let starts = starts(grid, n, radius, 5, |p| p.x < mid - 1.0 || p.x > mid + 1.0);
    let targets: Vec<Point> = starts.iter().map(|&p| mirror(p)).collect();
    Scene {
        name: "doorway",
        door_x: Some(mid),
        goal_of: (0..starts.len()).collect(),
        starts,
        goals: vec![targets; steps],
        radius,
        speed: 8.0 * radius,
        arrival: radius,
    }
}

/// Overlapping pairs and the deepest overlap among equal discs of radius `r` (a grid of
/// cells of side 2 `r`, each cell's agents in index order).
pub fn overlaps(points: &[Point], r: f64) -> (usize, f64) {
    let side = 2.0 * r;
    let (w, h) = (
        points.iter().map(|p| p.x).fold(0.0, f64::max) / side + 2.0,
        points.iter().map(|p| p.y).fold(0.0, f64::max) / side + 2.0,
    );
    let (w, h) = (w as usize, h as usize);
    let cell = |p: &Point| {
        ((p.x / side).max(0.0) as usize).min(w - 1) + ((p.y / side).max(0.0) as usize).min(h - 1) * w
    };
    let mut cells: Vec<Vec<u32>> = vec![Vec::new(); w * h];
    for (i, p) in points.iter().enumerate() {
        cells[cell(p)].push(i as u32);
    }
    let (mut count, mut deepest) = (0, 0.0f64);
    for (i, p) in points.iter().enumerate() {
        let k = cell(p);
        let (x, y) = (k % w, k / w);
        for cy in y.saturating_sub(1)..=(y + 1).min(h - 1) {
            for cx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                for &j in &cells[cy * w + cx] {
                    if j as usize > i {
                        let d = p.distance(points[j as usize]);
                        if d < side {
                            count += 1;
                            deepest = deepest.max(side - d);
                        }
                    }
                }
            }
        }
    }
    (count, deepest)
}

/// A table row.
pub fn row(scene: &Scene, name: &str, r: &Report) {
    let stalled = if r.stalled_end == usize::MAX {
        "-".to_string()
    } else {
        format!("{} / {}", r.stalled_end, r.stalled_max)
    };
    let arrival = match r.arrival() {
        Some((seconds, share)) => format!("{:.1}% | {seconds:.2} s", share * 100.0),
        None => format!("{:.1}% | –", r.arrived * 100.0),
    };
    println!(
        "| {} | {name} | {} | {} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} µs | {} / {:.1} | {:.1}% | {arrival} | {stalled} | {} |",
        scene.name,
        scene.starts.len(),
        scene.radius,
        r.median(),
        r.mean(),
        r.worst(),
        r.median() * 1e3 / scene.starts.len() as f64,
        r.overlaps_max,
        r.overlaps_mean,
        r.deepest * 100.0,
        r.outside,
    );
}

/// The table's head.
pub fn head() {
    println!(
        "| scene | crate | agents | radius | step median | mean | worst | per agent (median) | overlapping pairs (max / mean) | deepest overlap | arrived (doorway: through the door) | mean time through the door | stalled (end / max) | outside |"
    );
    println!(
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
}

/// What the command line asks for (`[--ticks N] [--scene NAME ...] [COUNT ...]`): the step
/// count, the agent counts, the scenes (none given: all).
pub struct Args {
    pub steps: usize,
    pub counts: Vec<usize>,
    scenes: Vec<String>,
}

impl Args {
    /// Whether scene `name` is to run.
    pub fn runs(&self, name: &str) -> bool {
        self.scenes.is_empty() || self.scenes.iter().any(|s| s == name)
    }
}

/// The command line's [`Args`], with `default_counts` when it names no count.
pub fn args(default_counts: &[usize]) -> Args {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut steps = 300;
    let (mut counts, mut scenes) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--ticks" {
            steps = args
                .get(i + 1)
                .and_then(|v| v.parse().ok())
                .filter(|&v| v > WARM)
                .expect("--ticks N (over 30)");
            i += 1;
        } else if args[i] == "--scene" {
            let name = args.get(i + 1).expect("--scene chase|crossing|doorway");
            assert!(["chase", "crossing", "doorway"].contains(&name.as_str()), "no scene {name}");
            scenes.push(name.clone());
            i += 1;
        } else {
            counts.push(args[i].parse::<usize>().expect("an agent count"));
        }
        i += 1;
    }
    if counts.is_empty() {
        counts = default_counts.to_vec();
    }
    Args { steps, counts, scenes }
}
