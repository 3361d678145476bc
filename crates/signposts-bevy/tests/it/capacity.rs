//! Grid walkers with a cell capacity (`NavSettings::cell_capacity`), headless: never more
//! walkers to a cell than the capacity, every step optimal, a queue that moves up when its
//! head is despawned, spawns on a full cell that wait their turn, the same run twice.

use std::collections::HashMap;

use crate::common::{CELL_A_TICK, agent, at, bfs, drain, ready_app, spawn_on};
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use signposts::grid::{Cell, Connectivity, Grid};
use signposts_bevy::prelude::*;

/// An open room with a wall across most of it.
fn room() -> Grid {
    Grid::from_ascii(
        "
        ..........
        ..........
        ..........
        .......#..
        .......#..
        .......#..
        ..........
    ",
    )
    .unwrap()
}

fn app_with(grid: &Grid, capacity: Option<u16>) -> App {
    let mut app = ready_app(NavGrid::from_grid(grid.clone(), Connectivity::Four));
    app.insert_resource(NavSettings { cell_capacity: capacity, ..NavSettings::default() });
    app
}

/// The cell each walker holds: the one it walks to, or stands on.
fn held(app: &App, walkers: &[Entity]) -> Vec<Cell> {
    walkers
        .iter()
        .map(|&e| {
            let a = agent(app, e);
            a.next().or(a.cell()).unwrap()
        })
        .collect()
}

/// The most walkers holding one cell.
fn most_to_a_cell(cells: &[Cell]) -> usize {
    let mut count = HashMap::new();
    for &c in cells {
        *count.entry((c.x, c.y)).or_insert(0usize) += 1;
    }
    count.into_values().max().unwrap_or(0)
}

/// Walkers on the two left columns, two to a cell when `two`, chasing a target on (9, 4).
fn crowd(app: &mut App, two: bool) -> (Entity, Vec<Entity>) {
    let target = app.world_mut().spawn(NavAgent::at(Cell::new(9, 4))).id();
    let mut walkers = Vec::new();
    for y in 0..7 {
        for x in 0..2 {
            for _ in 0..if two { 2 } else { 1 } {
                walkers.push(spawn_on(app, Cell::new(x, y), Chaser::new(target, CELL_A_TICK / 2.0)));
            }
        }
    }
    (target, walkers)
}

#[test]
fn walkers_never_share_a_cell_past_its_capacity_and_every_step_is_optimal() {
    let grid = room();
    let dist = bfs(&grid, Cell::new(9, 4));
    for capacity in [1u16, 2] {
        let mut app = app_with(&grid, Some(capacity));
        let (_, walkers) = crowd(&mut app, capacity == 2);
        let mut last = held(&app, &walkers);
        for tick in 0..120 {
            app.update();
            let now = held(&app, &walkers);
            let most = most_to_a_cell(&now);
            assert!(most <= usize::from(capacity), "capacity {capacity}, tick {tick}: {most} to a cell");
            for (k, (&a, &b)) in last.iter().zip(&now).enumerate() {
                if a != b {
                    let (da, db) = (at(&dist, &grid, a).unwrap(), at(&dist, &grid, b).unwrap());
                    assert_eq!(db + 1, da, "capacity {capacity}, tick {tick}: walker {k} stepped {a} → {b}");
                }
            }
            last = now;
        }
        // Closed in: the target's cell is full and the crowd stands packed round it.
        let cells = held(&app, &walkers);
        let on_goal = cells.iter().filter(|&&c| c == Cell::new(9, 4)).count();
        assert_eq!(on_goal, usize::from(capacity));
        let mean =
            cells.iter().map(|&c| f64::from(at(&dist, &grid, c).unwrap())).sum::<f64>() / cells.len() as f64;
        assert!(mean < 3.5, "capacity {capacity}: mean distance {mean}");
    }
}

#[test]
fn without_a_capacity_the_same_walkers_pile_up_on_the_target() {
    // The capacity check above can fail: uncapped walkers all end on one cell.
    let mut app = app_with(&room(), None);
    let (_, walkers) = crowd(&mut app, false);
    for _ in 0..120 {
        app.update();
    }
    assert_eq!(most_to_a_cell(&held(&app, &walkers)), walkers.len());
}

/// Ticks, checking that those that joined hold a cell each (those waiting to join stand
/// on the spawn), and collects the arrivals.
fn check(
    app: &mut App,
    walkers: &[Entity],
    ticks: usize,
    cursor: &mut MessageCursor<Arrived>,
    arrivals: &mut Vec<Arrived>,
) {
    for _ in 0..ticks {
        app.update();
        let cells = held(app, walkers);
        let joined: Vec<Cell> = cells.iter().copied().filter(|&c| c != Cell::new(0, 0)).collect();
        assert_eq!(most_to_a_cell(&joined), 1.min(joined.len()), "{cells:?}");
        arrivals.extend(drain(app, cursor));
    }
}

#[test]
fn a_queue_moves_up_when_its_head_is_despawned_and_spawns_on_a_full_cell_wait_their_turn() {
    // A corridor one cell wide: five walkers spawned on its west end, all on one cell.
    let grid = Grid::new(8, 1);
    let mut app = app_with(&grid, Some(1));
    let goal = Cell::new(7, 0);
    let walkers: Vec<Entity> =
        (0..5).map(|_| spawn_on(&mut app, Cell::new(0, 0), GoTo::new(goal, CELL_A_TICK))).collect();
    let mut cursor = MessageCursor::<Arrived>::default();
    let mut arrivals = Vec::new();
    check(&mut app, &walkers, 20, &mut cursor, &mut arrivals);
    // Queued from the goal back: one cell each.
    let cells = held(&app, &walkers);
    let mut xs: Vec<u32> = cells.iter().map(|c| c.x).collect();
    xs.sort_unstable();
    assert_eq!(xs, [3, 4, 5, 6, 7], "{cells:?}");
    let head = walkers[cells.iter().position(|&c| c == goal).unwrap()];
    assert_eq!(arrivals.iter().map(|a| a.entity).collect::<Vec<_>>(), [head]);
    // The head goes: the next one takes the goal, the queue moves up.
    app.world_mut().despawn(head);
    let rest: Vec<Entity> = walkers.iter().copied().filter(|&e| e != head).collect();
    check(&mut app, &rest, 4, &mut cursor, &mut arrivals);
    let mut xs: Vec<u32> = held(&app, &rest).iter().map(|c| c.x).collect();
    xs.sort_unstable();
    assert_eq!(xs, [4, 5, 6, 7]);
    assert_eq!(arrivals.len(), 2);
}

/// A capped crowd chasing a target that moves at tick 30, where the gap under the wall is
/// closed when `door`; the cells held each tick, checked.
fn capped_run(door: bool) -> Vec<Vec<Cell>> {
    let grid = room();
    let mut app = app_with(&grid, Some(1));
    let (target, walkers) = crowd(&mut app, false);
    let mut seen = Vec::new();
    for tick in 0..150 {
        if tick == 30 {
            if door {
                // A repair off the main thread: the crowd is made anew for the new table.
                app.world_mut().write_message(SetBlocked { cell: Cell::new(7, 6), blocked: true });
            }
            app.world_mut().entity_mut(target).insert(NavAgent::at(Cell::new(9, 0)));
        }
        app.update();
        let cells = held(&app, &walkers);
        assert!(most_to_a_cell(&cells) <= 1, "tick {tick}: {cells:?}");
        assert!(!door || tick < 30 || !cells.contains(&Cell::new(7, 6)), "tick {tick}: in the closed cell");
        seen.push(cells);
    }
    seen
}

#[test]
fn the_same_capped_crowd_runs_the_same_twice() {
    let (first, second) = (capped_run(false), capped_run(false));
    assert_eq!(first, second);
    assert_ne!(first[0], first[149]);
}

#[test]
fn a_door_edit_under_a_capped_crowd_keeps_the_capacity() {
    let cells = capped_run(true);
    let nav_after = &cells[149];
    assert!(nav_after.iter().all(|c| c.x >= 5), "the crowd went round to the target: {nav_after:?}");
}
