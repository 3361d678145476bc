//! Edits of the map: repaired off the main thread behind a second copy of the table, frames
//! never waiting, edits coalesced, and the swapped-in table always the one a fresh build gives.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::{CELL_A_TICK, agent, collect_until, drain, ready_app, spawn_on, wait_for};
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use proptest::prelude::*;
use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
use signposts_bevy::prelude::*;

/// A gate the repair thread waits at until the test opens it (or 30 s pass, which the test
/// then reports as a frame that waited).
struct Gate {
    open: mpsc::Sender<()>,
    waited_out: Arc<AtomicBool>,
}

fn gate(nav: &mut NavGrid) -> Gate {
    let (open, opened) = mpsc::channel::<()>();
    let opened = Mutex::new(opened);
    let waited_out = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&waited_out);
    nav.on_repair_start(move || {
        if opened.lock().unwrap().recv_timeout(Duration::from_secs(30)).is_err() {
            flag.store(true, Ordering::Relaxed);
        }
    });
    Gate { open, waited_out }
}

fn walled(width: u32, height: u32) -> Grid {
    Grid::from_fn(width, height, |c| {
        let wall = c.x % 6 == 3 && c.y % 5 != 2; // walls with a gap every five rows
        let post = c.y % 7 == 4 && c.x % 9 == 1;
        !wall && !post
    })
}

#[test]
fn frames_go_on_while_a_repair_is_held_and_the_swap_comes_when_it_ends() {
    let grid = walled(40, 30);
    let mut nav = NavGrid::from_grid(grid.clone(), Connectivity::Eight);
    let gate = gate(&mut nav);
    let mut app = ready_app(nav);
    let target = app.world_mut().spawn(NavAgent::at(Cell::new(38, 29))).id();
    assert!(grid.is_passable(Cell::new(38, 29)));
    let chasers: Vec<Entity> =
        (0..50).map(|k| spawn_on(&mut app, Cell::new(0, k % 30), Chaser::new(target, CELL_A_TICK))).collect();
    let door = Cell::new(20, 2);
    assert!(grid.is_passable(door));
    app.world_mut().write_message(SetBlocked { cell: door, blocked: true });
    let steps = |app: &App| chasers.iter().map(|&e| agent(app, e).steps()).sum::<u32>();
    let mut before = steps(&app);
    for frame in 0..30 {
        // Each of these frames returns while the repair thread waits at the gate.
        app.update();
        let now = steps(&app);
        assert!(now > before || frame == 0, "frame {frame}: no chaser stepped");
        before = now;
        let nav = app.world().resource::<NavGrid>();
        assert_eq!(nav.version(), 0, "swapped while the repair was held");
        assert!(!nav.is_up_to_date());
        assert!(nav.oracle().unwrap().grid().is_passable(door), "the live table changed under the walkers");
        assert!(!nav.is_open(door));
    }
    gate.open.send(()).unwrap();
    let mut cursor = MessageCursor::<TableSwapped>::default();
    wait_for(&mut app, |app| app.world().resource::<NavGrid>().version() == 1, "the swap");
    assert!(!gate.waited_out.load(Ordering::Relaxed), "a frame waited for the repair");
    let swaps = drain(&app, &mut cursor);
    assert_eq!(swaps.len(), 1);
    // Whether the core repaired in place or rebuilt (`swaps[0].rebuilt`) it chooses from the
    // build's measured time and the repair's progress: either may come on a loaded machine.
    assert_eq!((swaps[0].version, swaps[0].edits), (1, 1));
    assert!(!app.world().resource::<NavGrid>().oracle().unwrap().grid().is_passable(door));
}

#[test]
fn edits_of_a_frame_are_coalesced_and_edits_during_a_repair_wait_for_the_next_one() {
    let grid = walled(30, 20);
    let mut nav = NavGrid::from_grid(grid.clone(), Connectivity::Four);
    let gate = gate(&mut nav);
    let mut app = ready_app(nav);
    // One frame: a cell closed, opened, closed (one edit), another closed then opened (none).
    for (cell, blocked) in [((5, 5), true), ((5, 5), false), ((5, 5), true), ((7, 7), true), ((7, 7), false)]
    {
        app.world_mut().write_message(SetBlocked { cell: Cell::new(cell.0, cell.1), blocked });
    }
    app.update();
    // While the first repair is held, four frames of edits arrive.
    for k in 0..4 {
        app.world_mut().write_message(SetBlocked { cell: Cell::new(10 + k, 1), blocked: true });
        app.update();
    }
    gate.open.send(()).unwrap();
    gate.open.send(()).unwrap();
    let swaps: Vec<TableSwapped> = collect_until(
        &mut app,
        |app, _| {
            let nav = app.world().resource::<NavGrid>();
            nav.version() == 2 && nav.is_up_to_date()
        },
        "both swaps",
    );
    assert!(!gate.waited_out.load(Ordering::Relaxed));
    let edits: Vec<(u64, usize)> = swaps.iter().map(|s| (s.version, s.edits)).collect();
    assert_eq!(edits, [(1, 1), (2, 4)], "one repair for the first frame, one for the four frames held back");
    let mut expected = grid;
    expected.set_blocked(Cell::new(5, 5), true);
    for k in 0..4 {
        expected.set_blocked(Cell::new(10 + k, 1), true);
    }
    assert_eq!(app.world().resource::<NavGrid>().oracle().unwrap().grid(), &expected);
}

/// Every first move of `oracle` equals a fresh build's.
fn assert_same_answers(oracle: &GridOracle, fresh: &GridOracle) {
    let grid = fresh.grid();
    let cells: Vec<Cell> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect();
    for &from in &cells {
        for &to in &cells {
            assert!(oracle.next_steps(from, to).eq(fresh.next_steps(from, to)), "{from} → {to}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Rounds of random edits through the double buffer (the spare copy catching up with the
    /// last round's edits before taking this round's): after each swap the live table answers
    /// as a fresh build of the map.
    #[test]
    fn the_swapped_table_is_always_a_fresh_builds(
        rounds in prop::collection::vec(prop::collection::vec((0u32..12, 0u32..9, any::<bool>()), 1..6), 1..5),
        eight in any::<bool>(),
    ) {
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let grid = walled(12, 9);
        let mut app = ready_app(NavGrid::from_grid(grid, connectivity));
        for (round, edits) in rounds.iter().enumerate() {
            for &(x, y, blocked) in edits {
                app.world_mut().write_message(SetBlocked { cell: Cell::new(x, y), blocked });
            }
            let version = round as u64 + 1;
            wait_for(&mut app, |app| app.world().resource::<NavGrid>().version() == version, "the swap");
            let nav = app.world().resource::<NavGrid>();
            prop_assert_eq!(nav.map(), Some(nav.oracle().unwrap().grid()));
            let fresh = GridOracle::build(nav.map().unwrap(), connectivity).unwrap();
            assert_same_answers(nav.oracle().unwrap(), &fresh);
        }
    }
}

#[test]
fn while_a_repair_is_held_walkers_take_the_optimal_moves_the_edits_leave_open() {
    // From (0, 0) to (2, 2) east and south are both optimal; east is closed, the repair held.
    let mut nav = NavGrid::from_grid(Grid::new(5, 5), Connectivity::Four);
    let gate = gate(&mut nav);
    let mut app = ready_app(nav);
    app.insert_resource(NavSettings { spread: Spread::First, ..NavSettings::default() }); // east first
    app.world_mut().write_message(SetBlocked { cell: Cell::new(1, 0), blocked: true });
    app.update(); // the edit is received; the repair waits at the gate
    let walkers: Vec<Entity> = (0..8)
        .map(|_| spawn_on(&mut app, Cell::new(0, 0), GoTo::new(Cell::new(2, 2), CELL_A_TICK)))
        .collect();
    app.update();
    for &w in &walkers {
        assert_eq!(agent(&app, w).next(), Some(Cell::new(0, 1)), "south, the optimal move left open");
    }
    assert_eq!(app.world().resource::<NavGrid>().version(), 0);
    gate.open.send(()).unwrap();
    wait_for(&mut app, |app| app.world().resource::<NavGrid>().version() == 1, "the swap");
    assert!(!gate.waited_out.load(Ordering::Relaxed));
}

#[test]
fn a_repair_cancelled_drops_its_edits_from_the_map_too() {
    let grid = walled(20, 12);
    let mut nav = NavGrid::from_grid(grid.clone(), Connectivity::Eight);
    let gate = gate(&mut nav);
    let mut app = ready_app(nav);
    app.world_mut().write_message(SetBlocked { cell: Cell::new(5, 5), blocked: true });
    app.update(); // the repair of (5, 5) starts and waits at the gate
    app.world_mut().write_message(SetBlocked { cell: Cell::new(7, 7), blocked: true });
    app.update(); // (7, 7) waits for the next repair
    app.world_mut().resource_mut::<NavGrid>().cancel();
    gate.open.send(()).unwrap();
    gate.open.send(()).unwrap();
    let nav = app.world().resource::<NavGrid>();
    assert!(nav.is_open(Cell::new(5, 5)), "the cancelled edit is gone from the map");
    assert!(!nav.is_open(Cell::new(7, 7)), "the pending edit stays");
    wait_for(&mut app, |app| app.world().resource::<NavGrid>().is_up_to_date(), "the pending edit's repair");
    let nav = app.world().resource::<NavGrid>();
    assert_eq!(nav.map(), Some(nav.oracle().unwrap().grid()));
    assert_eq!(nav.version(), 1);
}
