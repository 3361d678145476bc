//! Continuous agents: the walkable area kept, overlaps within the stated tolerance (checked
//! against a brute force over all pairs), positions identical for any thread count, stalls
//! reported, both waypoint sources.

use proptest::prelude::*;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Grid, parse_map};
use signposts_crowd::agents::{Agent, Agents, Error, GoalId, Settings, Stats, Waypoints};
use signposts_rooms::{ExactRooms, NavMesh, Point, Rooms};

/// The overlap the docs promise at most, as a share of the two radii's sum.
const TOLERANCE: f64 = 0.25;

fn grid_strategy() -> impl Strategy<Value = Grid> {
    (3u32..14, 3u32..14)
        .prop_flat_map(|(w, h)| {
            (Just(w), Just(h), proptest::collection::vec(proptest::bool::weighted(0.72), (w * h) as usize))
        })
        .prop_map(|(w, h, open)| Grid::from_slice(w, h, &open).expect("sizes match"))
}

fn open_cells(grid: &Grid) -> Vec<Cell> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect()
}

fn centre(c: Cell) -> Point {
    Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5)
}

/// A crowd of up to `count` agents at distinct open cells' centres (radius 0.1 to 0.4, speed
/// 0.5 to 5), heading for one of `goals` goals at open cells; waypoints every 1 to 3 steps.
fn crowd(mesh: &NavMesh, grid: &Grid, count: usize, goals: usize, seed: u64) -> Agents {
    let mut rng = SplitMix64::new(seed);
    let mut open = open_cells(grid);
    let waypoint_interval = 1 + rng.below(3) as u32;
    let mut agents =
        Agents::new(mesh, Settings { stall_ticks: 20, waypoint_interval, ..Settings::default() });
    let goals: Vec<GoalId> = (0..goals)
        .map(|_| agents.add_goal(centre(open[rng.below(open.len() as u64) as usize])).unwrap())
        .collect();
    for _ in 0..count.min(open.len()) {
        let cell = open.swap_remove(rng.below(open.len() as u64) as usize);
        let agent = Agent {
            position: centre(cell),
            radius: 0.1 + rng.below(301) as f64 / 1000.0,
            max_speed: 0.5 + rng.below(451) as f64 / 100.0,
            goal: goals[rng.below(goals.len() as u64) as usize],
        };
        agents.add(agent).unwrap();
    }
    agents
}

/// Overlapping pairs and the deepest overlap, over all pairs.
fn brute_overlaps(agents: &Agents) -> (usize, f64) {
    let ids: Vec<_> = agents.ids().collect();
    let (mut count, mut deepest) = (0, 0.0f64);
    for (k, &a) in ids.iter().enumerate() {
        for &b in &ids[k + 1..] {
            let sum = agents.radius(a) + agents.radius(b);
            let (p, q) = (agents.position(a), agents.position(b));
            let d_sq = (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y);
            if d_sq < sum * sum {
                count += 1;
                deepest = deepest.max(sum - d_sq.sqrt());
            }
        }
    }
    (count, deepest)
}

/// The worst overlap as a share of the pair's radii' sum, over all pairs.
fn worst_share(agents: &Agents) -> f64 {
    let ids: Vec<_> = agents.ids().collect();
    let mut worst = 0.0f64;
    for (k, &a) in ids.iter().enumerate() {
        for &b in &ids[k + 1..] {
            let sum = agents.radius(a) + agents.radius(b);
            worst = worst.max((sum - agents.position(a).distance(agents.position(b))) / sum);
        }
    }
    worst
}

fn bits(agents: &Agents) -> Vec<(u64, u64)> {
    agents.positions().map(|p| (p.x.to_bits(), p.y.to_bits())).collect()
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(f)
}

/// Runs `steps` steps, checking after each that every agent is walkable, the stats' overlaps
/// against the brute force and the overlap tolerance; the positions after each step.
fn run<W: Waypoints>(
    agents: &mut Agents,
    mesh: &NavMesh,
    source: &W,
    steps: usize,
) -> Result<Vec<Vec<(u64, u64)>>, TestCaseError> {
    let mut trace = Vec::new();
    for step in 0..steps {
        let _: Stats = agents.step(source, 1.0 / 30.0);
        for p in agents.positions() {
            prop_assert!(mesh.region_at(p).is_some(), "step {}: {:?} left the walkable area", step, p);
        }
        let (count, deepest) = brute_overlaps(agents);
        let counted = agents.overlaps();
        prop_assert_eq!(counted.pairs, count);
        prop_assert_eq!(
            counted.deepest.to_bits(),
            deepest.to_bits(),
            "{} against {}",
            counted.deepest,
            deepest
        );
        let worst = worst_share(agents);
        prop_assert!(worst <= TOLERANCE, "step {}: an overlap of {:.3} of the radii' sum", step, worst);
        trace.push(bits(agents));
    }
    Ok(trace)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// On random grids with random agents and goals: every centre stays walkable, overlaps
    /// stay within the tolerance, the stats match a brute force, and the positions are the
    /// same bits on 1 and 3 threads.
    #[test]
    fn agents_keep_the_walkable_area_apart_and_deterministic(
        grid in grid_strategy(),
        count in 1usize..40,
        goals in 1usize..4,
        seed in any::<u64>(),
        exact in any::<bool>(),
    ) {
        prop_assume!(grid.passable_len() > 0);
        let mesh = NavMesh::from_grid(&grid).unwrap();
        let steps = 90;
        let traces = if exact {
            let source = ExactRooms::build(&mesh).unwrap();
            let one = in_pool(1, || run(&mut crowd(&mesh, &grid, count, goals, seed), &mesh, &source, steps))?;
            let three = in_pool(3, || run(&mut crowd(&mesh, &grid, count, goals, seed), &mesh, &source, steps))?;
            (one, three)
        } else {
            let source = Rooms::build(&mesh).unwrap();
            let one = in_pool(1, || run(&mut crowd(&mesh, &grid, count, goals, seed), &mesh, &source, steps))?;
            let three = in_pool(3, || run(&mut crowd(&mesh, &grid, count, goals, seed), &mesh, &source, steps))?;
            (one, three)
        };
        prop_assert!(traces.0 == traces.1, "positions differ between 1 and 3 threads");
    }
}

fn den312d() -> (Grid, NavMesh) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/den312d.map");
    let grid = parse_map(&std::fs::read(path).expect("the repository's maps")).expect("a valid map");
    let mesh = NavMesh::from_grid(&grid).unwrap();
    (grid, mesh)
}

/// A thousand agents chasing a moving goal on den312d: identical on 1 and 3 threads, walkable
/// throughout.
#[test]
fn a_chase_on_den312d_is_the_same_on_any_thread_count() {
    let (grid, mesh) = den312d();
    let exact = ExactRooms::build(&mesh).unwrap();
    let open = open_cells(&grid);
    let chase = |threads: usize| {
        in_pool(threads, || {
            let mut rng = SplitMix64::new(7);
            let mut agents = Agents::new(&mesh, Settings::default());
            let player = agents.add_goal(centre(open[0])).unwrap();
            for _ in 0..1000 {
                let c = centre(open[rng.below(open.len() as u64) as usize]);
                let jitter = |rng: &mut SplitMix64| (rng.below(601) as f64 - 300.0) / 1000.0;
                let position = Point::new(c.x + jitter(&mut rng), c.y + jitter(&mut rng));
                agents.add(Agent { position, radius: 0.12, max_speed: 3.0, goal: player }).unwrap();
            }
            let mut worst = 0.0f64;
            for t in 0..60 {
                let at = centre(open[(t * 37) % open.len()]);
                agents.set_goal(player, at).unwrap();
                agents.step(&exact, 1.0 / 30.0);
                if t >= 10 {
                    worst = worst.max(agents.overlaps().deepest);
                }
                assert!(agents.positions().all(|p| mesh.region_at(p).is_some()));
            }
            (bits(&agents), worst)
        })
    };
    let (one, worst) = chase(1);
    let (three, _) = chase(3);
    assert!(one == three, "positions differ between 1 and 3 threads");
    assert!(worst <= TOLERANCE * 0.24, "deepest overlap {worst}");
}

/// Two agents swapping ends of a one-wide corridor cannot pass: both are reported stalled,
/// and neither overlaps the other beyond the tolerance.
#[test]
fn a_deadlock_in_a_corridor_is_reported() {
    let grid = Grid::from_ascii("##########\n..........\n##########").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let rooms = Rooms::build(&mesh).unwrap();
    let mut agents = Agents::new(&mesh, Settings { stall_ticks: 30, ..Settings::default() });
    let (left, right) = (Point::new(0.5, 1.5), Point::new(9.5, 1.5));
    let (to_left, to_right) = (agents.add_goal(left).unwrap(), agents.add_goal(right).unwrap());
    let a = agents.add(Agent { position: left, radius: 0.4, max_speed: 3.0, goal: to_right }).unwrap();
    let b = agents.add(Agent { position: right, radius: 0.4, max_speed: 3.0, goal: to_left }).unwrap();
    let mut last = Stats::default();
    for _ in 0..300 {
        last = agents.step(&rooms, 1.0 / 30.0);
        assert!(worst_share(&agents) <= TOLERANCE);
    }
    assert_eq!((last.stalled, last.arrived), (2, 0), "{last:?}");
    assert!(agents.is_stalled(a) && agents.is_stalled(b));
}

/// A crowd rounds a wall to its goal with either source; agents that arrive are counted.
#[test]
fn both_sources_bring_agents_round_a_wall() {
    let grid = Grid::from_ascii("..........\n.########.\n..........\n..........").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let goal = Point::new(5.0, 2.5);
    let go = |source: &dyn Fn(&mut Agents) -> Stats| {
        let mut agents = Agents::new(&mesh, Settings { arrival_distance: 1.6, ..Settings::default() });
        let g = agents.add_goal(goal).unwrap();
        for x in 0..6 {
            let position = Point::new(2.5 + f64::from(x), 0.5);
            agents.add(Agent { position, radius: 0.25, max_speed: 3.0, goal: g }).unwrap();
        }
        let mut last = Stats::default();
        for _ in 0..240 {
            last = source(&mut agents);
        }
        last
    };
    let rooms = Rooms::build(&mesh).unwrap();
    let exact = ExactRooms::build(&mesh).unwrap();
    for stats in [go(&|a| a.step(&rooms, 1.0 / 30.0)), go(&|a| a.step(&exact, 1.0 / 30.0))] {
        assert_eq!((stats.arrived, stats.stalled, stats.unreachable), (6, 0, 0), "{stats:?}");
    }
}

/// A goal in a walled-off part: the agent stays and is counted unreachable.
#[test]
fn an_unreachable_goal_is_counted() {
    let grid = Grid::from_ascii("...#...").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let rooms = Rooms::build(&mesh).unwrap();
    let mut agents = Agents::new(&mesh, Settings::default());
    let g = agents.add_goal(Point::new(6.5, 0.5)).unwrap();
    let a =
        agents.add(Agent { position: Point::new(0.5, 0.5), radius: 0.3, max_speed: 2.0, goal: g }).unwrap();
    let stats = agents.step(&rooms, 0.1);
    assert_eq!(stats.unreachable, 1);
    assert_eq!(agents.position(a), Point::new(0.5, 0.5));
}

/// Adding refuses what it cannot place, saying why.
#[test]
fn adding_checks_its_input() {
    let grid = Grid::from_ascii("..#").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let mut agents = Agents::new(&mesh, Settings::default());
    let g = agents.add_goal(Point::new(0.5, 0.5)).unwrap();
    let agent = Agent { position: Point::new(2.5, 0.5), radius: 0.3, max_speed: 1.0, goal: g };
    let err = agents.add(agent).unwrap_err();
    assert_eq!(err, Error::NotWalkable { position: Point::new(2.5, 0.5) });
    assert!(err.to_string().contains("outside the walkable area"), "{err}");
    let agent = Agent { position: Point::new(0.5, 0.5), radius: 0.0, ..agent };
    assert_eq!(agents.add(agent), Err(Error::BadValue { what: "radius", value: 0.0 }));
    let agent = Agent { radius: 0.3, goal: GoalId(5), ..agent };
    assert_eq!(agents.add(agent), Err(Error::NoSuchGoal(GoalId(5))));
    assert!(agents.is_empty());
}

/// A crowd without agents steps to empty stats; goals can be moved, unknown ones refused.
#[test]
fn an_empty_crowd_steps() {
    let grid = Grid::from_ascii("....\n.#..").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let rooms = Rooms::build(&mesh).unwrap();
    let mut agents = Agents::new(&mesh, Settings::default());
    assert_eq!(agents.step(&rooms, 0.1), Stats::default());
    let g = agents.add_goal(Point::new(0.5, 0.5)).unwrap();
    agents.set_goal(g, Point::new(3.5, 1.5)).unwrap();
    assert_eq!(agents.goal(g), Point::new(3.5, 1.5));
    assert_eq!(agents.set_goal(GoalId(1), Point::new(0.5, 0.5)), Err(Error::NoSuchGoal(GoalId(1))));
    assert!(matches!(agents.add_goal(Point::new(f64::NAN, 0.0)), Err(Error::BadValue { what: "goal", .. })));
}

/// Teleports and removals between steps: refused where there is no floor, the last agent
/// takes a removed one's id, and the crowd goes on stepping (to every goal) afterwards.
#[test]
fn teleports_and_removals_between_steps() {
    let grid = Grid::from_ascii("......\n.##...\n......").unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let rooms = Rooms::build(&mesh).unwrap();
    let mut agents = Agents::new(&mesh, Settings { arrival_distance: 0.5, ..Settings::default() });
    let east = agents.add_goal(Point::new(5.5, 1.5)).unwrap();
    let west = agents.add_goal(Point::new(0.5, 1.5)).unwrap();
    let add = |agents: &mut Agents, x: f64, goal| {
        agents.add(Agent { position: Point::new(x, 0.5), radius: 0.2, max_speed: 2.0, goal }).unwrap()
    };
    let a = add(&mut agents, 0.5, east);
    let b = add(&mut agents, 2.5, west);
    let c = add(&mut agents, 4.5, west);
    for _ in 0..5 {
        agents.step(&rooms, 0.1);
    }
    let at = agents.position(a);
    assert_eq!(
        agents.set_position(a, Point::new(1.5, 1.5)),
        Err(Error::NotWalkable { position: Point::new(1.5, 1.5) })
    );
    assert!(matches!(agents.set_position(a, Point::new(f64::NAN, 0.5)), Err(Error::BadValue { .. })));
    assert_eq!(agents.position(a), at, "a refused teleport changes nothing");
    agents.set_position(a, Point::new(0.5, 2.5)).unwrap();
    let brute = brute_overlaps(&agents);
    assert_eq!((agents.overlaps().pairs, agents.overlaps().deepest), brute, "counted where they stand now");
    assert_eq!((agents.position(a), agents.velocity(a)), (Point::new(0.5, 2.5), Point::new(0.0, 0.0)));
    let c_at = agents.position(c);
    let removed = agents.swap_remove(b);
    assert_eq!((removed.goal, removed.radius), (west, 0.2));
    assert_eq!((agents.len(), agents.position(b)), (2, c_at), "c took b's id");
    let mut last = Stats::default();
    for _ in 0..200 {
        last = agents.step(&rooms, 0.1);
    }
    assert_eq!((last.arrived, last.stalled), (2, 0), "{last:?}");
    assert!(agents.position(b).x < 1.0, "the agent now at id b heads west: {:?}", agents.position(b));
    agents.swap_remove(b);
    agents.swap_remove(a);
    assert!(agents.is_empty());
    assert_eq!(agents.step(&rooms, 0.1), Stats::default());
}
