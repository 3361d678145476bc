//! `signposts chase`: many enemies chase a player across a map, a door closes and opens, and
//! each tick's cost is measured three ways in the same run — the table (one batched query for
//! every enemy), one A* search per enemy, and one flow field (a whole-map search from the
//! player) — then the chase is written as an animated GIF.

mod door;
mod enemies;
mod frames;
mod patrol;
mod peers;
mod report;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, GridOracle};
use signposts::search::{Searcher, TileGrid};
use signposts::{Crowd, NextHop, NodeId};

use crate::input::read_map;
use crate::oracle::{Built, Making, build_oracle, connectivity};
use crate::output::write_whole;
use enemies::Enemies;
use frames::{Animation, Paint};
use patrol::Patrol;
use peers::FlowField;
use report::{Report, Tick};

/// Arguments of `signposts chase`.
#[derive(Args)]
pub(crate) struct ChaseArgs {
    /// The Moving AI `.map` file.
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
    /// The door's cell (default: of the passages one cell wide on the most routes, the one
    /// whose closing lengthens or cuts the most routes from 16 sampled cells; what closing it
    /// does is printed). The player patrols beside it, on the side that most of the map
    /// reaches through it (waypoints within a quarter of --door-every cells), so the enemies'
    /// routes to the player cross the door and bend round when it closes. The GIF rings the
    /// door (green open, orange closed) and tints for a while the cells whose way to the
    /// player its change lengthened (orange) or shortened (green). Doors need the dense table,
    /// which is repaired in place.
    #[arg(long, num_args = 2, value_names = ["X", "Y"])]
    door: Option<Vec<u32>>,
    /// Ticks between the door's closing and opening. With --avoid the door never closes on
    /// an enemy: each one in the doorway is first pushed one cell toward the nearest cell
    /// with room (one enemy of each full cell on the way moving one cell along); when no cell
    /// has room, the closing waits and is tried again every tick.
    #[arg(long, default_value_t = 40, value_parser = count::<1, 1_000_000>)]
    door_every: usize,
    /// The enemies keep out of one another's way: grid walkers of signposts-crowd
    /// (`GridCrowd`) with at most --capacity to a cell, each taking the least occupied of its
    /// tied shortest moves, waiting when all are full, swapping head on, and sidestepping
    /// (--sidestep-after); without it the core's `Crowd` puts any number on a cell, and
    /// hundreds follow one another in single file. The timed tick is then the crowd's tick
    /// (table queries and moves); the report adds the walkers' figures and the cells they
    /// cover. The door closes only on an empty doorway (pushing the enemies in it out; see --door-every).
    #[arg(long)]
    avoid: bool,
    /// With --avoid: enemies a cell at most, 1 to 65,535 [default: 1]. Refused when the
    /// cells that lead to the player cannot hold --enemies.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    capacity: Option<u16>,
    /// With --avoid: ticks an enemy waits, blocked, before it steps to a free neighbour off
    /// the shortest paths (retried every T + 1 ticks while blocked), or `off` [default: 4].
    #[arg(long, value_name = "T", value_parser = sidestep_after)]
    sidestep_after: Option<SidestepAfter>,
    /// Ticks between two measurements of the peers (A* per enemy, one flow field).
    #[arg(long, default_value_t = 10, value_parser = count::<1, 1_000_000>)]
    compare_every: usize,
    /// Frames in the GIF at most (ticks are sampled evenly).
    #[arg(long, default_value_t = 100, value_parser = count::<1, 10_000>)]
    frames: usize,
    /// Pixels per cell, 1 to 64 (default: the largest, up to 12, that keeps the image within
    /// 640 pixels, and 1 on maps of more than 640 cells a side). Frames over 1 GiB of pixels
    /// or 65,535 pixels a side are refused.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    scale: Option<u32>,
    #[command(flatten)]
    making: Making,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

impl ChaseArgs {
    /// Pixels per cell: `--scale`, or the largest (up to 12) that keeps the image within 640
    /// pixels.
    pub(crate) fn scale(&self, width: u32, height: u32) -> u32 {
        self.scale.unwrap_or_else(|| (640 / width.max(height).max(1)).clamp(1, 12))
    }
}

/// `--sidestep-after`: ticks, or `off`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SidestepAfter(Option<u32>);

/// Parses `--sidestep-after`: a count of ticks or `off`.
fn sidestep_after(text: &str) -> Result<SidestepAfter, String> {
    if text == "off" {
        return Ok(SidestepAfter(None));
    }
    let ticks = text.parse().map_err(|e| format!("`{text}` is neither a count of ticks nor `off`: {e}"))?;
    Ok(SidestepAfter(Some(ticks)))
}

/// The default `--sidestep-after`: a walker blocked for 4 ticks steps round.
const SIDESTEP_AFTER: u32 = 4;

/// With `--avoid`: the capacity and the sidesteps (checked against the map's open cells
/// before the build); errors for their flags without it.
fn avoid_flags(args: &ChaseArgs, open: usize) -> Result<Option<(u16, Option<u32>)>> {
    if !args.avoid {
        for (given, flag) in
            [(args.capacity.is_some(), "--capacity"), (args.sidestep_after.is_some(), "--sidestep-after")]
        {
            if given {
                bail!(
                    "{flag} applies to enemies that avoid one another: add --avoid (without it any number share a cell)"
                );
            }
        }
        return Ok(None);
    }
    let capacity = args.capacity.unwrap_or(1);
    let room = (open - 1).saturating_mul(usize::from(capacity));
    if args.enemies > room {
        bail!(
            "{} enemies do not fit on {}: {} open cells besides the player's, room for {room} at {capacity} a cell (--capacity): lower --enemies or raise --capacity",
            args.enemies,
            args.map.display(),
            open - 1
        );
    }
    Ok(Some((capacity, args.sidestep_after.map_or(Some(SIDESTEP_AFTER), |s| s.0))))
}

/// Runs `signposts chase`.
pub(crate) fn run(args: &ChaseArgs) -> Result<()> {
    let grid = read_map(&args.map)?;
    let scale = args.scale(grid.width(), grid.height());
    crate::limits::chase_image(grid.width(), grid.height(), scale)?; // before the build
    if grid.passable_len() < 2 {
        bail!("{} has fewer than two open cells: nobody to chase", args.map.display());
    }
    let avoid = avoid_flags(args, grid.passable_len())?;
    let Built { mut oracle, seconds: build_s, compressed, why } =
        build_oracle(&grid, &args.making, args.json)?;
    let connectivity = connectivity(&args.making);
    let mut rng = SplitMix64::new(args.seed);
    let (door, door_note, door_effect) = choose_door(args, &oracle, compressed)?;
    // With a door the player patrols beside it; without, it wanders the whole map.
    let patrol = door.map(|d| Patrol::new(&grid, connectivity, d, args.door_every));
    let route = patrol::route(&oracle, args.ticks, patrol.as_ref(), &mut rng)?;
    let player_start = route[0];

    let mut crowd = spawn_enemies(args, &oracle, player_start, avoid, &mut rng)?;
    let mut seen = Vec::new();
    let mut occupied = crowd.occupied_cells(&mut seen, oracle.nodes_len());
    let (mut tiles, mut searcher, mut field) =
        (TileGrid::from_grid(&grid), Searcher::new(), FlowField::new(&grid, connectivity));
    // With --avoid, a crowd of individuals (dots), not a blot.
    let mut animation = Animation::new(&grid, scale, 8, avoid.is_some())?;
    let drawn = frame_ticks(args.ticks, args.frames);
    let (mut ticks, mut at, mut door_closed, mut checked) = (Vec::new(), 0, false, 0);
    // A closing that waits for room to clear the doorway (--avoid) is tried again every tick.
    let mut closing_waits = false;
    let mut before: Vec<NodeId> = Vec::with_capacity(crowd.positions().len());
    let mut rerouted = Rerouted::default();
    for t in 0..args.ticks {
        let mut tick = Tick::default();
        // The door changes every `door_every` ticks, but never closes on the player.
        let due = t > 0 && t.is_multiple_of(args.door_every);
        let mut change = door.filter(|&d| (due || closing_waits) && (door_closed || route[at] != d));
        // With --avoid the doorway is cleared first, or the closing waits.
        if let Some(d) = change
            && !door_closed
            && !crowd.clear_doorway(&oracle, d, route[at])?
        {
            (change, closing_waits) = (None, true);
        }
        if let Some(door) = change {
            // The player's cost field before and after (untimed): the cells whose way changed.
            field.compute(oracle.grid(), route[at]);
            let was = field.costs().to_vec();
            let start = Instant::now();
            oracle.set_blocked(door, !door_closed).context("repairing the table at the door")?;
            let ns = start.elapsed().as_secs_f64() * 1e9;
            door_closed = !door_closed;
            tiles.set(door, u8::from(!door_closed))?;
            closing_waits = false;
            crowd.door_changed(&oracle)?;
            field.compute(oracle.grid(), route[at]);
            rerouted = Rerouted::between(&grid, &was, field.costs(), door_closed, t);
            tick.door = Some((door_closed, ns, rerouted.cells.len()));
        }
        // The player walks its route, waiting at the door while it is closed.
        let from = route[at];
        if at + 1 < route.len() && !(Some(route[at + 1]) == door && door_closed) {
            at += 1;
        }
        let player = route[at];
        let target = oracle.node(player).expect("the route keeps to open cells");
        before.clear();
        before.extend_from_slice(crowd.positions());
        let table = oracle.table();
        let start = Instant::now();
        crowd.step_toward(&table, target)?;
        tick.table_ns = start.elapsed().as_secs_f64() * 1e9;
        if t.is_multiple_of(args.compare_every) {
            // The same tick without the table: from the same positions, toward the same player.
            let cells: Vec<Cell> = before.iter().map(|&v| oracle.cell(v).expect("a node")).collect();
            tick.peers_ns = Some(peers::measure(&oracle, &tiles, &mut searcher, &mut field, &cells, player)?);
            checked += cells.len();
        }
        // The ones that reached the player come back somewhere else (where the player's
        // region is its own cell, behind a closed door, they stay, caught once).
        tick.caught = crowd.respawn_caught(&oracle, &before, target, player != from, &mut rng)?;
        tick.player = player;
        occupied += crowd.occupied_cells(&mut seen, oracle.nodes_len());
        if drawn.binary_search(&t).is_ok() {
            // The tint lasts a quarter of the door's period, and is drawn at least once.
            let tint = rerouted.shown(t, (args.door_every / 4).max(1));
            let door = door.map(|d| (d, door_closed));
            draw(&mut animation, &oracle, &crowd, player, door, tint, scale);
            animation.finish_frame()?;
        }
        ticks.push(tick);
    }
    let frames = animation.frames();
    let bytes = animation.into_bytes()?;
    write_whole(&args.output, &bytes)?;
    let table = if compressed { "compressed" } else { "dense" };
    let gif_bytes = bytes.len();
    let report = Report {
        ticks,
        table,
        why,
        build_s,
        door,
        door_note,
        door_effect,
        checked,
        frames,
        gif_bytes,
        scale,
        avoid: crowd.stats(),
        // The spawn, then every tick.
        occupied_mean: occupied as f64 / (args.ticks + 1) as f64,
    };
    report::print(args, &report);
    Ok(())
}

/// The enemies, on open cells from which the player's start can be reached: the core's
/// crowd, or with `avoid` (capacity, sidesteps) grid walkers.
fn spawn_enemies(
    args: &ChaseArgs,
    oracle: &GridOracle,
    player_start: Cell,
    avoid: Option<(u16, Option<u32>)>,
    rng: &mut SplitMix64,
) -> Result<Enemies> {
    let player = oracle.node(player_start).expect("an open cell");
    if let Some((capacity, sidestep_after)) = avoid {
        let walkers = enemies::avoiding(oracle, player, args.enemies, capacity, sidestep_after, rng)?;
        return Ok(Enemies::Avoiding(Box::new(walkers)));
    }
    let Some(starts) = (0..args.enemies).map(|_| spawn(oracle, player, rng)).collect() else {
        bail!("no open cell of {} leads to the player's start {player_start}", args.map.display());
    };
    Ok(Enemies::Stacked(Crowd::new(starts)))
}

/// The ticks drawn: `frames` of them spread evenly from the first tick to the last (every
/// tick when there are fewer ticks), in increasing order.
fn frame_ticks(ticks: usize, frames: usize) -> Vec<usize> {
    match frames {
        _ if frames >= ticks => (0..ticks).collect(),
        0 => Vec::new(),
        1 => vec![ticks - 1],
        // Steps of (ticks − 1) / (frames − 1) > 1: distinct ticks, the last one included.
        _ => (0..frames).map(|k| k * (ticks - 1) / (frames - 1)).collect(),
    }
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

/// The cells whose way to the player the door's last change lengthened (it closed) or
/// shortened (it opened), and the tick of that change.
#[derive(Default)]
struct Rerouted {
    cells: Vec<Cell>,
    closed: bool,
    at: usize,
    drawn: bool,
}

impl Rerouted {
    /// The open cells (of `grid`, the door's included while open) whose cost to the player
    /// differs between `was` and `now`, two flow fields' costs, the door's change made at
    /// tick `at`.
    fn between(grid: &signposts::grid::Grid, was: &[u64], now: &[u64], closed: bool, at: usize) -> Rerouted {
        let width = grid.width() as usize;
        let cells = was
            .iter()
            .zip(now)
            .enumerate()
            .filter(|&(_, (a, b))| a != b)
            .map(|(i, _)| Cell::new((i % width) as u32, (i / width) as u32))
            .filter(|&c| grid.is_passable(c))
            .collect();
        Rerouted { cells, closed, at, drawn: false }
    }

    /// The tint to draw at tick `t`, if any: the cells and whether the door closed, shown on
    /// the first frame drawn after the change and on every frame within `lasts` ticks of it.
    fn shown(&mut self, t: usize, lasts: usize) -> Option<(&[Cell], bool)> {
        let show = !self.cells.is_empty() && (!self.drawn || t < self.at + lasts);
        self.drawn = true;
        show.then_some((&self.cells[..], self.closed))
    }
}

/// The door's cell, a note on how it was chosen and what closing it does (or why there is
/// none), and what closing it does.
fn choose_door(
    args: &ChaseArgs,
    oracle: &GridOracle,
    compressed: bool,
) -> Result<(Option<Cell>, String, Option<door::Effect>)> {
    let grid = oracle.grid();
    if compressed {
        if args.door.is_some() {
            bail!(
                "--door needs the dense table, which is repaired in place (a compressed table's edit can take a rebuild, minutes on large maps): add --dense"
            );
        }
        return Ok((
            None,
            "no door: the table is compressed, and a compressed table's edit can take a rebuild".into(),
            None,
        ));
    }
    if let Some(xy) = &args.door {
        let cell = Cell::new(xy[0], xy[1]);
        if !grid.is_passable(cell) {
            bail!("the door {cell} is not an open cell of the map");
        }
        let effect = door::effect(grid, oracle.connectivity(), args.seed, cell);
        return Ok((Some(cell), format!("door at {cell} (given); {}", effect.describe()), Some(effect)));
    }
    // A passage one cell wide on many routes, the one whose closing changes the most.
    Ok(match door::choose(grid, oracle.connectivity(), args.seed) {
        Some((cell, effect)) if effect.changed() > 0 => (
            Some(cell),
            format!(
                "door at {cell}: the one-cell passage whose closing changes the most sampled routes; {}",
                effect.describe()
            ),
            Some(effect),
        ),
        _ => (None, "no door: no one-cell passage changes a route (give one with --door X Y)".into(), None),
    })
}

/// Draws one frame: the map, the cells the door's change rerouted (tinted), the door in a
/// ring, the enemies (darker where two or more share a cell, with --avoid), and the player
/// as a block big enough to see.
fn draw(
    animation: &mut Animation,
    oracle: &GridOracle,
    enemies: &Enemies,
    player: Cell,
    door: Option<(Cell, bool)>,
    tint: Option<(&[Cell], bool)>,
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
    if let Some((cells, closed)) = tint {
        let paint = if closed { Paint::Longer } else { Paint::Shorter };
        for &c in cells {
            animation.paint(c, paint);
        }
    }
    if let Some((cell, closed)) = door {
        let paint = if closed { Paint::DoorClosed } else { Paint::DoorOpen };
        animation.paint(cell, paint);
        // A square ring around it, about 15 pixels out and 6 thick (3 and 1 cells at least),
        // wider than the player's block, so that the door shows at GIF size beside the
        // player; the passage's walls inside stay visible.
        let (reach, thick) = (i64::from((15 / scale).max(3)), i64::from((6 / scale).max(1)));
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                let (x, y) = (i64::from(cell.x) + dx, i64::from(cell.y) + dy);
                if dx.abs().max(dy.abs()) > reach - thick
                    && let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y))
                {
                    animation.paint(Cell::new(x, y), paint);
                }
            }
        }
    }
    // With room for more than one walker a cell, the cells with two or more show darker.
    let packed = enemies.stats().is_some_and(|a| a.capacity > 1);
    for &v in enemies.positions() {
        let cell = oracle.cell(v).expect("a node");
        let again = packed && matches!(animation.painted(cell), Paint::Enemy | Paint::Packed);
        animation.paint(cell, if again { Paint::Packed } else { Paint::Enemy });
    }
    for c in around(player) {
        animation.paint(c, Paint::Player);
    }
}

#[cfg(test)]
mod tests {
    use super::frame_ticks;

    #[test]
    fn frames_are_at_most_asked_for_spread_to_the_last_tick() {
        for ticks in 1..60 {
            for frames in 1..70 {
                let drawn = frame_ticks(ticks, frames);
                assert_eq!(drawn.len(), frames.min(ticks), "{ticks} ticks, {frames} frames");
                assert!(drawn.windows(2).all(|w| w[0] < w[1]), "{drawn:?}");
                assert_eq!(drawn.last(), Some(&(ticks - 1)), "{drawn:?}");
                assert!(frames == 1 || drawn[0] == 0, "{drawn:?}");
            }
        }
    }
}
