//! The grid walkers, headless: one `update()` is one tick; every step checked against plain
//! breadth-first distances.

use crate::common::{CELL_A_TICK, agent, app, at, bfs, drain, ready_app, spawn_on, wait_for};
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use signposts::grid::{Cell, Connectivity, Grid};
use signposts_bevy::prelude::*;

/// A maze-like map with walls, dead ends and ties.
const MAP: &str = "
    ..........@...
    .@@@@@@.@.@.@.
    .@......@...@.
    .@.@@@@@@@@.@.
    ...@......@...
    @@.@.@@@@.@@@.
    ...@.@..@.....
    .@@@.@.@@@@@@.
    ..............
";

fn map() -> Grid {
    Grid::from_ascii(&MAP.replace('@', "#")).unwrap()
}

/// Checks that `next` is one optimal step from `here` toward the cell whose distances are
/// `dist`.
fn assert_optimal(dist: &[Option<u32>], grid: &Grid, here: Cell, next: Cell) {
    let (a, b) = (at(dist, grid, here).unwrap(), at(dist, grid, next).unwrap());
    assert_eq!(b + 1, a, "the step {here} → {next} is not optimal ({a} → {b})");
}

#[test]
fn chasers_reach_a_static_target_in_exactly_the_optimal_number_of_steps_with_every_spread() {
    let grid = map();
    let goal = Cell::new(13, 0);
    let dist = bfs(&grid, goal);
    let starts: Vec<Cell> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c) && c != goal)
        .collect();
    for spread in [Spread::First, Spread::Seeded, Spread::LeastOccupied] {
        let mut app = ready_app(NavGrid::from_grid(grid.clone(), Connectivity::Four));
        app.insert_resource(NavSettings { spread, ..NavSettings::default() });
        let target = app.world_mut().spawn(NavAgent::at(goal)).id();
        // Every open cell holds a chaser: they share cells, moves and ties.
        let chasers: Vec<Entity> =
            starts.iter().map(|&c| spawn_on(&mut app, c, Chaser::new(target, CELL_A_TICK))).collect();
        let mut last: Vec<NavAgent> = chasers.iter().map(|&e| agent(&app, e)).collect();
        let mut cursor = MessageCursor::<Arrived>::default();
        let mut arrived = Vec::new();
        let longest = starts.iter().map(|&c| at(&dist, &grid, c).unwrap()).max().unwrap();
        for _ in 0..=longest + 1 {
            app.update();
            for (k, &e) in chasers.iter().enumerate() {
                let now = agent(&app, e);
                if let Some(next) = now.next() {
                    assert_optimal(&dist, &grid, now.cell().unwrap(), next);
                }
                if now.cell() != last[k].cell() {
                    assert_optimal(&dist, &grid, last[k].cell().unwrap(), now.cell().unwrap());
                }
                last[k] = now;
            }
            arrived.extend(drain(&app, &mut cursor));
        }
        for (k, &e) in chasers.iter().enumerate() {
            let walked = agent(&app, e);
            assert_eq!(
                walked.cell(),
                Some(goal),
                "{spread:?}: chaser from {} is at {:?}",
                starts[k],
                walked.cell()
            );
            assert_eq!(
                walked.steps(),
                at(&dist, &grid, starts[k]).unwrap(),
                "{spread:?}: from {}",
                starts[k]
            );
        }
        arrived.sort_by_key(|a| a.entity);
        let mut expected: Vec<Arrived> =
            chasers.iter().map(|&entity| Arrived { entity, cell: goal }).collect();
        expected.sort_by_key(|a| a.entity);
        assert_eq!(arrived, expected, "{spread:?}: one Arrived a chaser");
    }
}

#[test]
fn spread_fans_a_crowd_over_the_optimal_moves_and_first_does_not() {
    // An open field: from one corner to the other, every move east or south is optimal.
    let grid = Grid::new(12, 12);
    let (from, goal) = (Cell::new(0, 0), Cell::new(11, 11));
    for (spread, fanned) in [(Spread::First, false), (Spread::Seeded, true), (Spread::LeastOccupied, true)] {
        let mut app = ready_app(NavGrid::from_grid(grid.clone(), Connectivity::Four));
        app.insert_resource(NavSettings { spread, ..NavSettings::default() });
        let chasers: Vec<Entity> =
            (0..32).map(|_| spawn_on(&mut app, from, GoTo::new(goal, CELL_A_TICK))).collect();
        app.update();
        let mut firsts: Vec<Cell> = chasers.iter().map(|&e| agent(&app, e).next().unwrap()).collect();
        firsts.sort_by_key(|c| (c.x, c.y));
        firsts.dedup();
        assert_eq!(firsts.len() == 2, fanned, "{spread:?}: first moves {firsts:?}");
        if spread == Spread::LeastOccupied {
            // Half each way, as even as the counts allow.
            let east = chasers.iter().filter(|&&e| agent(&app, e).next() == Some(Cell::new(1, 0))).count();
            assert_eq!(east, 16);
        }
    }
}

#[test]
fn a_chaser_follows_a_moving_target_and_every_step_is_optimal_toward_where_it_stands() {
    let grid = map();
    let mut app = ready_app(NavGrid::from_grid(grid.clone(), Connectivity::Four));
    // The target walks at half a cell a tick to a far corner; the chaser at a cell a tick.
    let target = spawn_on(&mut app, Cell::new(6, 6), GoTo::new(Cell::new(0, 0), CELL_A_TICK / 2.0));
    let chaser = spawn_on(&mut app, Cell::new(13, 8), Chaser::new(target, CELL_A_TICK));
    let mut caught = false;
    for _ in 0..200 {
        app.update();
        let (c, t) = (agent(&app, chaser), agent(&app, target));
        let dist = bfs(&grid, t.cell().unwrap());
        if let Some(next) = c.next()
            && c.progress() == 0.0
        {
            // A step chosen this tick, toward where the target stands this tick.
            assert_optimal(&dist, &grid, c.cell().unwrap(), next);
        }
        if c.cell() == t.cell() {
            caught = true;
            break;
        }
    }
    assert!(caught, "the chaser never caught the target");
}

#[test]
fn a_door_closing_mid_chase_reroutes_the_chasers_and_none_steps_into_it() {
    // Two ways round the block: the short one through the door at (5, 0).
    let grid = Grid::from_ascii(
        "
        ...........
        .#########.
        .#########.
        ...........
    ",
    )
    .unwrap();
    let door = Cell::new(5, 0);
    let mut app = ready_app(NavGrid::from_grid(grid.clone(), Connectivity::Four));
    let target = app.world_mut().spawn(NavAgent::at(Cell::new(10, 0))).id();
    let chasers: Vec<Entity> =
        (0..3).map(|_| spawn_on(&mut app, Cell::new(0, 1), Chaser::new(target, CELL_A_TICK))).collect();
    for _ in 0..3 {
        app.update(); // they head up the short way, toward the door
    }
    assert!(chasers.iter().all(|&e| agent(&app, e).cell().unwrap().y == 0));
    app.world_mut().write_message(SetBlocked { cell: door, blocked: true });
    let mut blocked_grid = grid.clone();
    blocked_grid.set_blocked(door, true);
    let mut swapped = MessageCursor::<TableSwapped>::default();
    let mut swaps = Vec::new();
    for _ in 0..60 {
        app.update();
        swaps.extend(drain(&app, &mut swapped));
        for &e in &chasers {
            let a = agent(&app, e);
            assert_ne!(a.cell(), Some(door), "a chaser stepped into the closed door");
            assert_ne!(a.next(), Some(door), "a chaser is walking into the closed door");
        }
    }
    assert_eq!(swaps.len(), 1, "one repair: {swaps:?}");
    assert_eq!((swaps[0].version, swaps[0].edits), (1, 1));
    let nav = app.world().resource::<NavGrid>();
    assert!(nav.is_up_to_date());
    assert_eq!(nav.oracle().unwrap().grid(), &blocked_grid);
    for &e in &chasers {
        assert_eq!(agent(&app, e).cell(), Some(Cell::new(10, 0)), "the chasers went round the long way");
    }
}

#[test]
fn a_fleeing_walker_never_gets_closer_and_stops_where_no_move_leads_away() {
    let grid = map();
    let pursuer_cell = Cell::new(6, 4);
    let dist = bfs(&grid, pursuer_cell);
    for spread in [Spread::First, Spread::Seeded] {
        let mut app = ready_app(NavGrid::from_grid(grid.clone(), Connectivity::Four));
        app.insert_resource(NavSettings { spread, ..NavSettings::default() });
        let pursuer = app.world_mut().spawn(NavAgent::at(pursuer_cell)).id();
        let fleer = spawn_on(&mut app, Cell::new(7, 4), Fleeing::new(pursuer, CELL_A_TICK));
        let mut d = at(&dist, &grid, Cell::new(7, 4)).unwrap();
        for _ in 0..80 {
            app.update();
            let now = at(&dist, &grid, agent(&app, fleer).cell().unwrap()).unwrap();
            assert!(now >= d, "{spread:?}: the fleeing walker came closer: {d} → {now}");
            d = now;
        }
        let end = agent(&app, fleer).cell().unwrap();
        assert_eq!(agent(&app, fleer).next(), None, "{spread:?}: still walking at {end}");
        assert!(d >= 10, "{spread:?}: fled only {d} cells");
        let around = [(0i32, -1i32), (1, 0), (0, 1), (-1, 0)];
        for (dx, dy) in around {
            let (Some(x), Some(y)) = (end.x.checked_add_signed(dx), end.y.checked_add_signed(dy)) else {
                continue;
            };
            let n = Cell::new(x, y);
            if grid.contains(n) && grid.is_passable(n) {
                assert!(at(&dist, &grid, n).unwrap() <= d, "{spread:?}: {n} leads away from {end}");
            }
        }
    }
}

#[test]
fn a_compressed_table_chases_as_well_and_an_edit_rebuilds_it() {
    let grid = map();
    let goal = Cell::new(0, 8);
    let mut app = app();
    app.insert_resource(NavSettings { dense_up_to: 0, ..NavSettings::default() }); // Auto: compressed
    app.insert_resource(NavGrid::from_grid(grid.clone(), Connectivity::Four));
    wait_for(&mut app, |app| app.world().resource::<NavGrid>().status() == NavStatus::Ready, "the table");
    assert!(app.world().resource::<NavGrid>().oracle().unwrap().is_compressed());
    let dist = bfs(&grid, goal);
    let start = Cell::new(13, 0);
    let walker = spawn_on(&mut app, start, GoTo::new(goal, CELL_A_TICK));
    for _ in 0..40 {
        app.update();
    }
    assert_eq!(agent(&app, walker).cell(), Some(goal));
    assert_eq!(agent(&app, walker).steps(), at(&dist, &grid, start).unwrap());

    app.world_mut().write_message(SetBlocked { cell: Cell::new(6, 8), blocked: true });
    let mut cursor = MessageCursor::<TableSwapped>::default();
    wait_for(&mut app, |app| app.world().resource::<NavGrid>().version() == 1, "the rebuilt table");
    let swaps = drain(&app, &mut cursor);
    assert_eq!(swaps.len(), 1);
    assert!(swaps[0].rebuilt && swaps[0].edits == 1);
    let nav = app.world().resource::<NavGrid>();
    assert!(nav.oracle().unwrap().is_compressed());
    assert!(!nav.oracle().unwrap().grid().is_passable(Cell::new(6, 8)));
}

#[test]
fn a_saved_table_loads_instead_of_building() {
    let grid = map();
    let oracle = signposts::grid::GridOracle::build(&grid, Connectivity::Eight).unwrap();
    let path = std::env::temp_dir().join(format!("signposts-bevy-saved-{}.sp", std::process::id()));
    oracle.save_to(&path).unwrap();
    let mut app = app();
    app.insert_resource(NavGrid::load(&path));
    let mut cursor = MessageCursor::<NavReady>::default();
    wait_for(
        &mut app,
        |app| app.world().resource::<NavGrid>().status() == NavStatus::Ready,
        "the loaded table",
    );
    std::fs::remove_file(&path).unwrap();
    let ready = drain(&app, &mut cursor);
    assert_eq!(ready.len(), 1);
    assert!(ready[0].loaded);
    assert_eq!(ready[0].nodes, grid.passable_len());
    let nav = app.world().resource::<NavGrid>();
    assert_eq!(nav.connectivity(), Connectivity::Eight);
    assert_eq!(nav.map(), Some(&grid));
}

#[test]
fn a_missing_or_malformed_map_file_or_a_table_over_the_limit_is_an_error_message_not_a_panic() {
    let dir = std::env::temp_dir();
    let malformed = dir.join(format!("signposts-bevy-malformed-{}.map", std::process::id()));
    std::fs::write(&malformed, "type octile\nheight 2\nwidth 3\nmap\n...\n.x\n").unwrap();
    let missing = dir.join("signposts-bevy-no-such-file.map");
    let cases = [
        (NavGrid::from_map_file(&malformed, Connectivity::Eight), malformed.display().to_string()),
        (NavGrid::from_map_file(&missing, Connectivity::Eight), missing.display().to_string()),
        (
            NavGrid::from_grid(Grid::new(40, 40), Connectivity::Four)
                .with_table(NavTable::Dense)
                .with_memory_limit(1 << 10),
            "cannot build the table".to_owned(),
        ),
    ];
    for (nav, named) in cases {
        let mut app = app();
        app.insert_resource(nav);
        let mut cursor = MessageCursor::<NavError>::default();
        wait_for(
            &mut app,
            |app| app.world().resource::<NavGrid>().status() == NavStatus::Failed,
            "the failure",
        );
        let errors = drain(&app, &mut cursor);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].message.contains(&named), "{}", errors[0].message);
        match &errors[0].error {
            NavFailure::Core(signposts::Error::Parse { line, .. }) => assert_eq!(*line, 6),
            NavFailure::Core(signposts::Error::Io { kind, .. }) => {
                assert_eq!(*kind, std::io::ErrorKind::NotFound);
            }
            NavFailure::Core(signposts::Error::OverMemoryLimit { limit, .. }) => assert_eq!(*limit, 1 << 10),
            other => panic!("unexpected error {other:?}"),
        }
        // The app goes on.
        app.update();
    }
    std::fs::remove_file(&malformed).unwrap();
}

#[test]
fn an_edit_outside_the_map_is_an_error_message() {
    let mut app = ready_app(NavGrid::from_grid(map(), Connectivity::Four));
    app.world_mut().write_message(SetBlocked { cell: Cell::new(99, 0), blocked: true });
    let mut cursor = MessageCursor::<NavError>::default();
    app.update();
    let errors = drain(&app, &mut cursor);
    assert_eq!(errors.len(), 1);
    assert!(matches!(errors[0].error, NavFailure::Core(signposts::Error::CellOutOfBounds { x: 99, .. })));
}
