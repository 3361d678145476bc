//! `signposts chase`: many enemies chase a player across a map, a door closes and opens, and
//! each tick's cost is measured three ways in the same run — the table (one batched query for
//! every enemy), one A* search per enemy, and one flow field (a whole-map search from the
//! player) — then the chase is written as an animated GIF.

use std::collections::{BinaryHeap, VecDeque};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::json;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
use signposts::search::{Layer, Searcher, TileGrid};
use signposts::{Cost, Crowd, NextHop, NodeId};

use crate::frames::{Animation, Paint};
use crate::{Built, Making, build_oracle, connectivity, read_map};

/// Arguments of `signposts chase`.
#[derive(Args)]
pub struct ChaseArgs {
    /// The `.map` file.
    map: PathBuf,
    /// Where to write the animated GIF.
    #[arg(short, long)]
    output: PathBuf,
    /// Enemies, spawned on open cells from which the player can be reached.
    #[arg(long, default_value_t = 2000, value_parser = count::<0, 5_000_000>)]
    enemies: usize,
    /// Ticks to run.
    #[arg(long, default_value_t = 300, value_parser = count::<1, 1_000_000>)]
    ticks: usize,
    /// Seed of the spawn points and of the player's route.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The door's cell (default: an open cell in a one-cell-wide passage near the map's
    /// centre). Doors need the dense table, which is repaired in place.
    #[arg(long, num_args = 2, value_names = ["X", "Y"])]
    door: Option<Vec<u32>>,
    /// Ticks between the door's closing and opening.
    #[arg(long, default_value_t = 40, value_parser = count::<1, 1_000_000>)]
    door_every: usize,
    /// Ticks between two measurements of the peers (A* per enemy, one flow field).
    #[arg(long, default_value_t = 10, value_parser = count::<1, 1_000_000>)]
    compare_every: usize,
    /// Frames in the GIF at most (ticks are sampled evenly).
    #[arg(long, default_value_t = 100, value_parser = count::<1, 10_000>)]
    frames: usize,
    /// Pixels per cell (default: the largest that keeps the image within 640 pixels).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    scale: Option<u32>,
    #[command(flatten)]
    making: Making,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// One tick's measurements.
#[derive(Debug, Clone, Default)]
struct Tick {
    /// Nanoseconds for every enemy's step by the table (one batched query).
    table_ns: f64,
    /// Nanoseconds for one A* search per enemy, when measured this tick.
    astar_ns: Option<f64>,
    /// Nanoseconds for one flow field and every enemy's read of it, when measured.
    field_ns: Option<f64>,
    /// The door's change this tick: closed (true) or opened (false), and the repair's
    /// nanoseconds.
    door: Option<(bool, f64)>,
    caught: usize,
}

/// The whole run's figures.
struct Report {
    ticks: Vec<Tick>,
    table: &'static str,
    why: String,
    build_s: f64,
    door: Option<Cell>,
    door_note: String,
    checked: usize,
    frames: usize,
    gif_bytes: usize,
    scale: u32,
}

pub fn chase(args: &ChaseArgs) -> Result<()> {
    let grid = read_map(&args.map)?;
    if grid.passable_len() < 2 {
        bail!("{} has fewer than two open cells: nobody to chase", args.map.display());
    }
    let Built { mut oracle, seconds: build_s, compressed, why } =
        build_oracle(&grid, &args.making, args.json)?;
    let connectivity = connectivity(&args.making);
    let mut rng = SplitMix64::new(args.seed);
    let player_start = best_start(&oracle, &mut rng);
    let route = player_route(&grid, connectivity, player_start, args.ticks, &mut rng)?;
    let (door, door_note) = choose_door(args, &oracle, compressed)?;

    // Enemies on open cells from which the player can be reached.
    let player_node = oracle.node(player_start).expect("an open cell");
    let Some(starts) = (0..args.enemies).map(|_| spawn(&oracle, player_node, &mut rng)).collect() else {
        bail!("no open cell of {} leads to the player's start {player_start}", args.map.display());
    };
    let mut crowd = Crowd::new(starts);
    let mut tiles = TileGrid::from_grid(&grid);
    let mut searcher = Searcher::new();
    let scale = args.scale.unwrap_or_else(|| (640 / grid.width().max(grid.height()).max(1)).clamp(1, 12));
    let mut animation = Animation::new(&grid, scale, 8)?;
    let frame_every = args.ticks.div_ceil(args.frames);
    let (mut ticks, mut at, mut door_closed, mut checked) = (Vec::new(), 0, false, 0);
    for t in 0..args.ticks {
        let mut tick = Tick::default();
        let player = route[at];
        // The door changes every `door_every` ticks, but never closes on the player.
        let due = t > 0 && t.is_multiple_of(args.door_every);
        if let Some(door) = door.filter(|&d| due && (door_closed || player != d)) {
            let start = Instant::now();
            oracle.set_blocked(door, !door_closed).context("repairing the table at the door")?;
            let ns = start.elapsed().as_secs_f64() * 1e9;
            door_closed = !door_closed;
            tiles.set(door, u8::from(!door_closed))?;
            tick.door = Some((door_closed, ns));
        }
        // The player walks its route, waiting at the door while it is closed.
        if at + 1 < route.len() && !(Some(route[at + 1]) == door && door_closed) {
            at += 1;
        }
        let player = route[at];
        let target = oracle.node(player).expect("the route keeps to open cells");
        if t.is_multiple_of(args.compare_every) {
            let cells: Vec<Cell> =
                crowd.positions().iter().map(|&v| oracle.cell(v).expect("a node")).collect();
            let (astar_ns, field_ns) =
                measure_peers(&oracle, &tiles, &mut searcher, &cells, player, connectivity)?;
            checked += cells.len();
            (tick.astar_ns, tick.field_ns) = (Some(astar_ns), Some(field_ns));
        }
        let start = Instant::now();
        let table = oracle.table();
        crowd.step_toward(&table, target)?;
        tick.table_ns = start.elapsed().as_secs_f64() * 1e9;
        // The caught ones come back somewhere else.
        for position in crowd.positions_mut() {
            if *position == target {
                tick.caught += 1;
                // Where the player's region is its cell alone (a closed door), they stay.
                *position = spawn(&oracle, target, &mut rng).unwrap_or(target);
            }
        }
        if t.is_multiple_of(frame_every) || t + 1 == args.ticks {
            draw(&mut animation, &oracle, &crowd, player, door.map(|d| (d, door_closed)), scale);
            animation.finish_frame()?;
        }
        ticks.push(tick);
    }
    let frames = animation.frames();
    let bytes = animation.into_bytes()?;
    std::fs::write(&args.output, &bytes).with_context(|| format!("writing {}", args.output.display()))?;
    let table = if compressed { "compressed" } else { "dense" };
    let report = Report {
        ticks,
        table,
        why,
        build_s,
        door,
        door_note,
        checked,
        frames,
        gif_bytes: bytes.len(),
        scale,
    };
    print_report(args, &report);
    Ok(())
}

/// A random node other than `player`'s from which `player` can be reached, or `None` when a
/// million tries found none (the player's region is its own cell).
fn spawn(oracle: &GridOracle, player: NodeId, rng: &mut SplitMix64) -> Option<NodeId> {
    let table = oracle.table();
    (0..1_000_000)
        .map(|_| rng.below(oracle.nodes_len() as u64) as NodeId)
        .find(|&v| v != player && table.path_exists(v, player))
}

/// A count within `MIN..=MAX`, for the flags whose value sizes what is allocated.
fn count<const MIN: usize, const MAX: usize>(text: &str) -> Result<usize, String> {
    let n: usize = text.parse().map_err(|e| format!("`{text}` is not a count: {e}"))?;
    if (MIN..=MAX).contains(&n) { Ok(n) } else { Err(format!("{n} is outside {MIN}..={MAX}")) }
}

/// The open cell from which most of 256 random open cells can be reached, of 16 tried, so
/// that the player does not start on an island.
fn best_start(oracle: &GridOracle, rng: &mut SplitMix64) -> Cell {
    let n = oracle.nodes_len() as u64;
    let table = oracle.table();
    let sample: Vec<NodeId> = (0..256).map(|_| rng.below(n) as NodeId).collect();
    let best = (0..16)
        .map(|_| rng.below(n) as NodeId)
        .max_by_key(|&v| sample.iter().filter(|&&w| table.path_exists(v, w)).count())
        .expect("16 candidates");
    oracle.cell(best).expect("a node")
}

/// The player's walk: shortest paths (one A* each, on the map with every door open) between
/// random reachable waypoints, at least `ticks + 1` cells long. It does not depend on the
/// table, so runs with different tables follow the same route.
fn player_route(
    grid: &Grid,
    connectivity: Connectivity,
    start: Cell,
    ticks: usize,
    rng: &mut SplitMix64,
) -> Result<Vec<Cell>> {
    let tiles = TileGrid::from_grid(grid);
    let mut searcher = Searcher::new();
    let (mut route, mut leg) = (vec![start], Vec::new());
    let mut misses = 0;
    while route.len() <= ticks {
        let goal =
            Cell::new(rng.below(u64::from(grid.width())) as u32, rng.below(u64::from(grid.height())) as u32);
        let from = *route.last().expect("starts with one cell");
        let found = grid.is_passable(goal)
            && goal != from
            && searcher.astar_into(&tiles, Layer::WALKABLE, connectivity, from, goal, &mut leg)?.is_some();
        if found {
            route.extend_from_slice(&leg[1..]);
        } else {
            misses += 1;
            if misses > 10_000 {
                route.push(from); // an island: the player stands still
            }
        }
    }
    Ok(route)
}

/// The door's cell, and a note on how it was chosen (or why there is none).
fn choose_door(args: &ChaseArgs, oracle: &GridOracle, compressed: bool) -> Result<(Option<Cell>, String)> {
    let grid = oracle.grid();
    if compressed {
        if args.door.is_some() {
            bail!(
                "--door needs the dense table, which is repaired in place (compressed tables are not edited): add --dense"
            );
        }
        return Ok((
            None,
            "no door: the table is compressed, and compressed tables are not edited in place".into(),
        ));
    }
    if let Some(xy) = &args.door {
        let cell = Cell::new(xy[0], xy[1]);
        if !grid.is_passable(cell) {
            bail!("the door {cell} is not an open cell of the map");
        }
        return Ok((Some(cell), format!("door at {cell} (given)")));
    }
    // An open cell with walls on both sides along one axis and open on both along the other:
    // a passage one cell wide. The one nearest the centre.
    let (cx, cy) = (i64::from(grid.width() / 2), i64::from(grid.height() / 2));
    let open = |c: Option<Cell>| c.is_some_and(|c| grid.is_passable(c));
    let door = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .filter(|&c| {
            let [n, e, s, w] = [Direction::North, Direction::East, Direction::South, Direction::West]
                .map(|d| open(c.step(d)));
            (n && s && !e && !w) || (e && w && !n && !s)
        })
        .min_by_key(|c| (i64::from(c.x) - cx).pow(2) + (i64::from(c.y) - cy).pow(2));
    Ok(match door {
        Some(cell) => (Some(cell), format!("door at {cell} (a one-cell passage nearest the centre)")),
        None => (None, "no door: the map has no one-cell passage (give one with --door X Y)".into()),
    })
}

/// Enemies timed with A* per measured tick at most: the rest are estimated from them (one A*
/// search each on a large map takes milliseconds).
const ASTAR_SAMPLE: usize = 250;

/// Times one A* search per enemy (on at most [`ASTAR_SAMPLE`] of them, evenly spread, scaled
/// to all) and one flow field read by every enemy, checking that each gives the table's exact
/// cost. Returns (A* ns for all enemies, flow field ns).
fn measure_peers(
    oracle: &GridOracle,
    tiles: &TileGrid,
    searcher: &mut Searcher,
    enemies: &[Cell],
    player: Cell,
    connectivity: Connectivity,
) -> Result<(f64, f64)> {
    let sampled: Vec<Cell> =
        enemies.iter().step_by(enemies.len().div_ceil(ASTAR_SAMPLE).max(1)).copied().collect();
    let start = Instant::now();
    let mut astar: Vec<Option<Cost>> = Vec::with_capacity(sampled.len());
    for &enemy in &sampled {
        astar.push(searcher.astar(tiles, Layer::WALKABLE, connectivity, enemy, player)?.cost());
    }
    let astar_ns = start.elapsed().as_secs_f64() * 1e9 * enemies.len() as f64 / sampled.len().max(1) as f64;
    for (&enemy, cost) in sampled.iter().zip(astar) {
        let table = oracle.cost(enemy, player);
        if cost != table {
            bail!("{enemy} → {player}: the table says {table:?}, A* {cost:?}");
        }
    }

    let start = Instant::now();
    let field = flow_field(oracle.grid(), connectivity, player);
    let width = oracle.grid().width() as usize;
    let index = |c: Cell| c.y as usize * width + c.x as usize;
    // Each enemy's step: the neighbour nearest the player by the field.
    let steps: Vec<Option<Cell>> = enemies
        .iter()
        .map(|&e| {
            Direction::ALL
                .iter()
                .filter_map(|&d| oracle.grid().step(e, d))
                .min_by_key(|&c| nearest_first(field[index(c)]))
                .filter(|&c| nearest_first(field[index(c)]) < nearest_first(field[index(e)]))
        })
        .collect();
    let field_ns = start.elapsed().as_secs_f64() * 1e9;

    for (&enemy, step) in enemies.iter().zip(steps) {
        let table = oracle.cost(enemy, player);
        let by_field = field[index(enemy)];
        if by_field != table {
            bail!("{enemy} → {player}: the table says {table:?}, the flow field {by_field:?}");
        }
        if step.is_some_and(|s| oracle.cost(s, player).is_none_or(|c| c >= table.unwrap_or(Cost::ZERO))) {
            bail!("{enemy} → {player}: the flow field's step {step:?} does not get nearer");
        }
    }
    Ok((astar_ns, field_ns))
}

/// Orders known costs before unknown ones (`None` sorts first as an `Option`).
fn nearest_first(cost: Option<Cost>) -> (bool, Cost) {
    (cost.is_none(), cost.unwrap_or(Cost::ZERO))
}

/// A flow field: the exact cost from every cell to `goal` (`None`: cannot reach it), by one
/// breadth-first search (4-connected) or Dijkstra search (octile) over the whole map — what a
/// game without a table computes once a tick when the target moves.
fn flow_field(grid: &Grid, connectivity: Connectivity, goal: Cell) -> Vec<Option<Cost>> {
    let width = grid.width() as usize;
    let index = |c: Cell| c.y as usize * width + c.x as usize;
    let cell = |i: usize| Cell::new((i % width) as u32, (i / width) as u32);
    let mut cost = vec![None; width * grid.height() as usize];
    cost[index(goal)] = Some(Cost::ZERO);
    match connectivity {
        Connectivity::Four => {
            let mut queue = VecDeque::from([index(goal)]);
            while let Some(i) = queue.pop_front() {
                let next = cost[i].expect("queued cells are reached") + Cost::integer(1);
                for d in [Direction::North, Direction::East, Direction::South, Direction::West] {
                    if let Some(c) = grid.step(cell(i), d).filter(|&c| cost[index(c)].is_none()) {
                        cost[index(c)] = Some(next);
                        queue.push_back(index(c));
                    }
                }
            }
        }
        Connectivity::Eight => {
            let mut heap = BinaryHeap::from([core::cmp::Reverse((Cost::ZERO, index(goal)))]);
            while let Some(core::cmp::Reverse((here, i))) = heap.pop() {
                if cost[i].is_some_and(|c| c < here) {
                    continue;
                }
                for d in Direction::ALL {
                    if let Some(c) = grid.step(cell(i), d) {
                        let step = if d.is_diagonal() {
                            Cost { straight: 0, diagonal: 1 }
                        } else {
                            Cost::integer(1)
                        };
                        let there = here + step;
                        if cost[index(c)].is_none_or(|old| there < old) {
                            cost[index(c)] = Some(there);
                            heap.push(core::cmp::Reverse((there, index(c))));
                        }
                    }
                }
            }
        }
    }
    cost
}

/// Draws one frame: the map, the door, the enemies, and the player as a block big enough to
/// see.
fn draw(
    animation: &mut Animation,
    oracle: &GridOracle,
    crowd: &Crowd,
    player: Cell,
    door: Option<(Cell, bool)>,
    scale: u32,
) {
    let grid = oracle.grid();
    animation.begin_frame(grid);
    // Markers reach `r` cells around their cell, so that they show at one pixel a cell.
    let r = (8 / scale).max(1);
    let around = |c: Cell| {
        (c.y.saturating_sub(r)..=c.y.saturating_add(r))
            .flat_map(move |y| (c.x.saturating_sub(r)..=c.x.saturating_add(r)).map(move |x| Cell::new(x, y)))
    };
    if let Some((cell, closed)) = door {
        // The door, and the walls beside it as its frame.
        let paint = if closed { Paint::DoorClosed } else { Paint::DoorOpen };
        for c in around(cell).filter(|&c| c == cell || !grid.is_passable(c)) {
            animation.paint(c, paint);
        }
    }
    for &v in crowd.positions() {
        animation.paint(oracle.cell(v).expect("a node"), Paint::Enemy);
    }
    for c in around(player) {
        animation.paint(c, Paint::Player);
    }
}

/// Median and mean of the measured values, in milliseconds (zeros when there are none).
fn summary_ms(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let mut all: Vec<f64> = values.map(|ns| ns / 1e6).collect();
    if all.is_empty() {
        return (0.0, 0.0);
    }
    all.sort_by(f64::total_cmp);
    (all[all.len() / 2], all.iter().sum::<f64>() / all.len() as f64)
}

/// The run's figures summed up: per-tick (median, mean) milliseconds, repairs, catches.
struct Summary {
    table: (f64, f64),
    astar: (f64, f64),
    field: (f64, f64),
    repairs: usize,
    repair: (f64, f64),
    repair_max: f64,
    caught: usize,
}

impl Summary {
    fn of(r: &Report) -> Summary {
        let repairs: Vec<f64> = r.ticks.iter().filter_map(|t| t.door).map(|(_, ns)| ns).collect();
        Summary {
            table: summary_ms(r.ticks.iter().map(|t| t.table_ns)),
            astar: summary_ms(r.ticks.iter().filter_map(|t| t.astar_ns)),
            field: summary_ms(r.ticks.iter().filter_map(|t| t.field_ns)),
            repairs: repairs.len(),
            repair: summary_ms(repairs.iter().copied()),
            repair_max: repairs.iter().copied().fold(0.0, f64::max) / 1e6,
            caught: r.ticks.iter().map(|t| t.caught).sum(),
        }
    }
}

fn print_report(args: &ChaseArgs, r: &Report) {
    let sum = Summary::of(r);
    if args.json {
        print_json(args, r, &sum);
    } else {
        print_text(args, r, &sum);
    }
}

fn print_json(args: &ChaseArgs, r: &Report, sum: &Summary) {
    let Summary {
        table: (table_ms, table_mean),
        astar: (astar_ms, astar_mean),
        field: (field_ms, field_mean),
        ..
    } = *sum;
    let (repair_ms, repair_mean) = sum.repair;
    out!(
        "{}",
        json!({
            "map": args.map.display().to_string(),
            "output": args.output.display().to_string(),
            "connectivity": if args.making.diagonal { 8 } else { 4 },
            "table": r.table,
            "why": r.why,
            "build_seconds": r.build_s,
            "enemies": args.enemies,
            "ticks": args.ticks,
            "seed": args.seed,
            "door": r.door.map(|c| [c.x, c.y]),
            "door_note": r.door_note,
            "caught": sum.caught,
            "checked_against_peers": r.checked,
            "astar_sample": ASTAR_SAMPLE,
            "frames": r.frames,
            "gif_bytes": r.gif_bytes,
            "scale": r.scale,
            "median_ms_per_tick": { "table": table_ms, "astar_per_enemy": astar_ms, "flow_field": field_ms },
            "mean_ms_per_tick": { "table": table_mean, "astar_per_enemy": astar_mean, "flow_field": field_mean },
            "door_repairs": { "count": sum.repairs, "median_ms": repair_ms, "mean_ms": repair_mean, "max_ms": sum.repair_max },
            "per_tick": r.ticks.iter().enumerate().map(|(t, k)| json!({
                "tick": t,
                "table_ms": k.table_ns / 1e6,
                "astar_ms": k.astar_ns.map(|ns| ns / 1e6),
                "flow_field_ms": k.field_ns.map(|ns| ns / 1e6),
                "door": k.door.map(|(closed, ns)| json!({"closed": closed, "repair_ms": ns / 1e6})),
                "caught": k.caught,
            })).collect::<Vec<_>>(),
        })
    );
}

fn print_text(args: &ChaseArgs, r: &Report, sum: &Summary) {
    let Summary {
        table: (table_ms, table_mean),
        astar: (astar_ms, astar_mean),
        field: (field_ms, field_mean),
        ..
    } = *sum;
    let (repair_ms, repair_mean) = sum.repair;
    out!(
        "{}: {} enemies chase the player for {} ticks ({}-connected); table: {} (built in {:.2} s)",
        args.map.display(),
        args.enemies,
        args.ticks,
        if args.making.diagonal { 8 } else { 4 },
        r.why,
        r.build_s
    );
    out!("{}", r.door_note);
    for (t, k) in r.ticks.iter().enumerate() {
        let mut line = String::new();
        if let (Some(a), Some(f)) = (k.astar_ns, k.field_ns) {
            let _ = write!(
                line,
                "table {:.3} ms, A* per enemy {:.1} ms, flow field {:.2} ms",
                k.table_ns / 1e6,
                a / 1e6,
                f / 1e6
            );
        }
        if let Some((closed, ns)) = k.door {
            let sep = if line.is_empty() { "" } else { "; " };
            let what = if closed { "closed" } else { "opened" };
            let _ = write!(line, "{sep}door {what}, table repaired in {:.2} ms", ns / 1e6);
        }
        if !line.is_empty() {
            out!("  tick {t:>4}: {line}");
        }
    }
    out!(
        "per tick, median (mean) over the run; the peers on every {}th tick, from the same positions:",
        args.compare_every
    );
    out!("  table, one batched query for all enemies: {table_ms:.3} ms ({table_mean:.3} ms)");
    out!(
        "  one A* search per enemy:                  {astar_ms:.2} ms ({astar_mean:.2} ms): {:.0}× the table",
        astar_ms / table_ms.max(1e-9)
    );
    out!(
        "  one flow field from the player:           {field_ms:.2} ms ({field_mean:.2} ms): {:.0}× the table",
        field_ms / table_ms.max(1e-9)
    );
    if sum.repairs > 0 {
        out!(
            "  door repairs in place: {}, median {repair_ms:.2} ms (mean {repair_mean:.2} ms, max {:.2} ms)",
            sum.repairs,
            sum.repair_max
        );
    }
    out!(
        "A* timed on up to {ASTAR_SAMPLE} enemies of each measured tick, evenly spread, scaled to all; \
         every A* cost and flow-field cost checked against the table's exact cost ({} enemies' worth)",
        r.checked
    );
    out!("player caught {} times (the caught enemies respawn)", sum.caught);
    out!(
        "wrote {} ({} frames, {} bytes, {} pixels per cell)",
        args.output.display(),
        r.frames,
        r.gif_bytes,
        r.scale
    );
}
