//! The plugin's tick beside the two usual ways to move a crowd, in one run: 1,000, 10,000
//! and 50,000 chasers on a shared Moving AI map after players who walk at random (one, or
//! squads after `--targets K` players), every chaser taking one step every tick (a cell a
//! tick), headless. A chaser that catches its player starts again from a random open cell, so
//! the chases stay as long as random pairs'.
//!
//! - **signposts**: the plugin ([`SignpostsPlugin`]); one batched table query a tick, with
//!   [`Spread::First`] and with [`Spread::Seeded`].
//! - **A\* per chaser**: one search a chaser a tick (the core's zero-allocation
//!   [`Searcher::astar`], over jump points), its first step taken.
//! - **flow field**: one Dijkstra search from each player a tick over the whole map, each
//!   chaser taking the step toward its best neighbour in its player's field.
//!
//! Each scene is timed over whole `App::update()` calls (the ECS's own work included), after a
//! warm-up, for up to two seconds. Run with
//! `cargo bench -p signposts-bevy --bench chasers [-- [--targets K] <map> [counts...]]` (default
//! one target, `den312d`, counts 1000 10000 50000).

#![expect(clippy::needless_pass_by_value, reason = "Bevy systems take their parameters by value")]

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use signposts::grid::{Cell, Connectivity, Direction, Grid};
use signposts::search::{Layer, Searcher, TileGrid};
use signposts_bevy::prelude::*;

/// The player: walks to a random neighbouring open cell every tick.
#[derive(Component)]
struct Player {
    cell: Cell,
    seed: u64,
    number: u64,
}

/// A chaser of the peers' scenes, after player number `target`.
#[derive(Component)]
struct Walker {
    cell: Cell,
    target: usize,
}

/// The players' cells this tick, by number.
fn player_cells(players: &Query<&Player>) -> Vec<Cell> {
    let mut cells: Vec<(u64, Cell)> = players.iter().map(|p| (p.number, p.cell)).collect();
    cells.sort_unstable_by_key(|&(n, _)| n);
    cells.into_iter().map(|(_, c)| c).collect()
}

/// The map, shared by the peers' systems.
#[derive(Resource)]
struct Map {
    grid: Grid,
    tiles: TileGrid,
    size: f32,
}

impl Map {
    fn center(&self, cell: Cell) -> Vec2 {
        Vec2::new(cell.x as f32 + 0.5, -(cell.y as f32 + 0.5)) * self.size
    }
}

fn next_random(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn open_cells(grid: &Grid) -> Vec<Cell> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect()
}

fn walk_player(map: Res<Map>, mut player: Query<(&mut Player, &mut Transform)>) {
    for (mut player, mut transform) in &mut player {
        let mut seed = player.seed;
        for _ in 0..8 {
            let d = Direction::ALL[(next_random(&mut seed) % 8) as usize];
            if let Some(next) = map.grid.step(player.cell, d) {
                player.cell = next;
                break;
            }
        }
        player.seed = seed;
        transform.translation = map.center(player.cell).extend(0.0);
    }
}

/// One A* search a chaser a tick.
fn astar_steer(
    map: Res<Map>,
    players: Query<&Player>,
    mut walkers: Query<(&mut Walker, &mut Transform)>,
    mut searcher: Local<Option<Searcher>>,
) {
    let goals = player_cells(&players);
    let searcher = searcher.get_or_insert_with(Searcher::new);
    for (mut walker, mut transform) in &mut walkers {
        let goal = goals[walker.target];
        let route = searcher.astar(&map.tiles, Layer::WALKABLE, Connectivity::Eight, walker.cell, goal);
        let step = route.ok().and_then(|r| r.path().and_then(|p| p.iter().next()));
        if let Some(next) = step.and_then(|d| walker.cell.step(d)) {
            walker.cell = next;
            transform.translation = map.center(next).extend(0.0);
        }
    }
}

/// The flow fields' distances (one a player) and the search queue (distance bits, cell),
/// kept between ticks.
type Field = (Vec<Vec<f64>>, BinaryHeap<Reverse<(u64, u32)>>);

/// One Dijkstra search from the player a tick (octile costs, no corner cutting), then every
/// chaser steps to its neighbour nearest the player.
fn flow_steer(
    map: Res<Map>,
    players: Query<&Player>,
    mut walkers: Query<(&mut Walker, &mut Transform)>,
    mut field: Local<Field>,
) {
    let goals = player_cells(&players);
    let (fields, heap) = &mut *field;
    let width = map.grid.width();
    let index = |c: Cell| (c.y * width + c.x) as usize;
    fields.resize_with(goals.len(), Vec::new);
    for (dist, &goal) in fields.iter_mut().zip(&goals) {
        dist.clear();
        dist.resize((width * map.grid.height()) as usize, f64::INFINITY);
        dist[index(goal)] = 0.0;
        heap.clear();
        heap.push(Reverse((0, index(goal) as u32)));
        while let Some(Reverse((d, i))) = heap.pop() {
            let d = f64::from_bits(d);
            if d > dist[i as usize] {
                continue;
            }
            let cell = Cell::new(i % width, i / width);
            for direction in Direction::ALL {
                let Some(next) = map.grid.step(cell, direction) else { continue };
                let nd = d + if direction.is_diagonal() { core::f64::consts::SQRT_2 } else { 1.0 };
                if nd < dist[index(next)] {
                    dist[index(next)] = nd;
                    heap.push(Reverse((nd.to_bits(), index(next) as u32)));
                }
            }
        }
    }
    for (mut walker, mut transform) in &mut walkers {
        let dist = &fields[walker.target];
        let best = Direction::ALL
            .into_iter()
            .filter_map(|d| map.grid.step(walker.cell, d))
            .min_by(|&a, &b| dist[index(a)].total_cmp(&dist[index(b)]));
        if let Some(next) = best.filter(|&n| dist[index(n)] < dist[index(walker.cell)]) {
            walker.cell = next;
            transform.translation = map.center(next).extend(0.0);
        }
    }
}

/// Chasers that caught the player start again from a random open cell, so the distances stay
/// those of random pairs.
#[derive(Resource)]
struct Respawn {
    open: Vec<Cell>,
    seed: u64,
}

impl Respawn {
    fn cell(&mut self) -> Cell {
        self.open[(next_random(&mut self.seed) % self.open.len() as u64) as usize]
    }
}

fn respawn_chasers(
    players: Query<(Entity, &Player)>,
    mut respawn: ResMut<Respawn>,
    mut chasers: Query<(&mut NavAgent, &Chaser)>,
) {
    let cells: bevy::ecs::entity::EntityHashMap<Cell> = players.iter().map(|(e, p)| (e, p.cell)).collect();
    for (mut agent, chaser) in &mut chasers {
        if agent.cell() == cells.get(&chaser.target).copied() {
            agent.place(respawn.cell());
        }
    }
}

fn respawn_walkers(players: Query<&Player>, mut respawn: ResMut<Respawn>, mut walkers: Query<&mut Walker>) {
    let goals = player_cells(&players);
    for mut walker in &mut walkers {
        if walker.cell == goals[walker.target] {
            walker.cell = respawn.cell();
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Scene {
    Plugin(Spread),
    Astar,
    Flow,
}

/// Builds `scene` with `count` chasers after `targets` players; returns the app, warmed up.
fn scene(grid: &Grid, scene: Scene, count: usize, targets: usize) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    let open = open_cells(grid);
    let mut seed = 0x9e37_79b9_7f4a_7c15;
    let start = open[open.len() / 2];
    let map = Map { grid: grid.clone(), tiles: TileGrid::from_grid(grid), size: 1.0 };
    let center = |cell: Cell| map.center(cell).extend(0.0);
    let players: Vec<Entity> = (0..targets as u64)
        .map(|number| {
            let cell =
                if number == 0 { start } else { open[(next_random(&mut seed) % open.len() as u64) as usize] };
            let player = Player { cell, seed: 7 + number, number };
            app.world_mut().spawn((player, Transform::from_translation(center(cell)))).id()
        })
        .collect();
    app.add_systems(FixedUpdate, walk_player.before(NavSystems::Steer));
    app.insert_resource(Map { grid: grid.clone(), tiles: TileGrid::from_grid(grid), size: 1.0 });
    app.insert_resource(Respawn { open: open.clone(), seed: 0x2545_f491_4f6c_dd1d });
    match scene {
        Scene::Plugin(spread) => {
            app.add_plugins(SignpostsPlugin);
            app.insert_resource(NavSettings { spread, ..NavSettings::default() });
            app.insert_resource(NavGrid::from_grid(grid.clone(), Connectivity::Eight));
            let deadline = Instant::now() + Duration::from_mins(2);
            while app.world().resource::<NavGrid>().status() != NavStatus::Ready {
                assert!(Instant::now() < deadline, "the table was not built");
                app.update();
                std::thread::sleep(Duration::from_millis(1));
            }
            for k in 0..count {
                let cell = open[(next_random(&mut seed) % open.len() as u64) as usize];
                app.world_mut().spawn((Chaser::new(players[k % targets], 64.0), NavAgent::at(cell)));
            }
            app.add_systems(FixedUpdate, respawn_chasers.after(NavSystems::Move));
        }
        Scene::Astar | Scene::Flow => {
            // The plugin's sets exist for the ordering above; nothing of it runs.
            app.configure_sets(FixedUpdate, NavSystems::Steer);
            if scene == Scene::Astar {
                app.add_systems(FixedUpdate, astar_steer.in_set(NavSystems::Steer));
            } else {
                app.add_systems(FixedUpdate, flow_steer.in_set(NavSystems::Steer));
            }
            app.add_systems(FixedUpdate, respawn_walkers.after(NavSystems::Steer));
            for k in 0..count {
                let cell = open[(next_random(&mut seed) % open.len() as u64) as usize];
                app.world_mut()
                    .spawn((Walker { cell, target: k % targets }, Transform::from_translation(center(cell))));
            }
        }
    }
    for _ in 0..10 {
        app.update();
    }
    app
}

/// Mean seconds a tick over up to two seconds (at least three ticks).
fn time(app: &mut App) -> f64 {
    let start = Instant::now();
    let mut ticks = 0u32;
    while ticks < 3 || (start.elapsed() < Duration::from_secs(2) && ticks < 1000) {
        app.update();
        ticks += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(ticks)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let targets = match args.iter().position(|a| a == "--targets") {
        Some(i) => {
            let k = args.get(i + 1).and_then(|k| k.parse().ok()).expect("--targets K");
            args.drain(i..i + 2);
            k
        }
        None => 1,
    };
    let name = args.first().cloned().unwrap_or_else(|| "den312d".to_owned());
    let counts: Vec<usize> = if args.len() > 1 {
        args[1..].iter().map(|c| c.parse().expect("a chaser count")).collect()
    } else {
        vec![1_000, 10_000, 50_000]
    };
    let maps = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let bytes = std::fs::read(maps.join(format!("{name}.map"))).expect("a map of maps");
    let grid = signposts::grid::parse_map(&bytes).expect("a Moving AI map");
    println!(
        "{name}: {}×{}, {} open cells, octile; {targets} player(s); every chaser steps every tick",
        grid.width(),
        grid.height(),
        grid.passable_len()
    );
    println!();
    println!(
        "| chasers | signposts (First) | signposts (Seeded) | A* per chaser | flow field | A* / signposts | flow / signposts |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let show = |s: f64| format!("{:.3} ms ({:.0} ticks/s)", s * 1e3, 1.0 / s);
    // SIGNPOSTS_SCENES=first,seeded,astar,flow runs some scenes only (to profile one).
    let only = std::env::var("SIGNPOSTS_SCENES").unwrap_or_else(|_| "first,seeded,astar,flow".to_owned());
    let run = |name: &str, which: Scene, count: usize| {
        if only.split(',').any(|s| s == name) {
            time(&mut scene(&grid, which, count, targets))
        } else {
            f64::NAN
        }
    };
    for &count in &counts {
        let first = run("first", Scene::Plugin(Spread::First), count);
        let seeded = run("seeded", Scene::Plugin(Spread::Seeded), count);
        let astar = run("astar", Scene::Astar, count);
        let flow = run("flow", Scene::Flow, count);
        println!(
            "| {count} | {} | {} | {} | {} | {:.1}× | {:.1}× |",
            show(first),
            show(seeded),
            show(astar),
            show(flow),
            astar / first,
            flow / first
        );
    }
}
