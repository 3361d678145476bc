//! Walls toggled with the repair spread over frames ([`Game::toggle_job`],
//! [`Game::repair_step`], the `toggle_job` and `repair_step` exports): the enemies keep moving
//! on the old table, never onto a closed cell nor past its corner, and the repaired table
//! swaps in at the end, answering as a fresh build.

use signposts::generate::maze_grid as maze;
use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
use signposts_web::Game;
use signposts_web::exports as web;

use crate::exports::{error, load};

/// Every enemy stands on an open cell of the map, and each move of the last tick (toward
/// `player`) is a move the map allows; returns how many moved.
fn moves_allowed(map: &Grid, player: Cell, from: &[Cell], to: &[Cell]) -> usize {
    let mut moved = 0;
    for (&a, &b) in from.iter().zip(to) {
        assert!(map.is_passable(b), "an enemy on the closed cell {b}");
        // (A caught enemy starts again anywhere.)
        if a != b && a != player {
            let allowed = signposts::grid::Direction::ALL.iter().any(|&d| map.step(a, d) == Some(b));
            assert!(allowed, "{a} -> {b} is not a move of the map");
            moved += 1;
        }
    }
    moved
}

/// The table answers as a fresh build of the map, from every open cell to a sample.
fn same_as_fresh(game: &Game) {
    let map = game.map();
    assert_eq!(game.oracle().grid(), map);
    let fresh = GridOracle::build(map, Connectivity::Eight).unwrap();
    let open: Vec<Cell> = (0..map.height())
        .flat_map(|y| (0..map.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| map.is_passable(c))
        .collect();
    for &a in &open {
        for &b in open.iter().step_by(5) {
            assert_eq!(game.oracle().cost(a, b), fresh.cost(a, b), "{a} -> {b}");
        }
    }
}

/// Open cells with two open neighbours in a line (corridor cells), in order.
fn corridor_cells(grid: &Grid) -> Vec<Cell> {
    (1..grid.height() - 1)
        .flat_map(|y| (1..grid.width() - 1).map(move |x| Cell::new(x, y)))
        .filter(|&c| {
            grid.is_passable(c)
                && (grid.is_passable(Cell::new(c.x - 1, c.y)) && grid.is_passable(Cell::new(c.x + 1, c.y))
                    || grid.is_passable(Cell::new(c.x, c.y - 1)) && grid.is_passable(Cell::new(c.x, c.y + 1)))
        })
        .collect()
}

#[test]
fn enemies_move_on_the_old_table_around_a_wall_being_repaired() {
    let grid = maze(16, 12, 6, 5);
    let mut game = Game::new(&grid, 256 << 20).unwrap();
    assert_eq!(game.set_enemies(400), Ok(400));
    let player = Cell::new(17, 13);
    let corridors = corridor_cells(&grid);
    let (mut steps_seen, mut moved) = (0, 0);
    for (k, &cell) in corridors.iter().step_by(corridors.len() / 5).enumerate() {
        if cell == player {
            continue;
        }
        let old = game.oracle().clone();
        let blocked = game.toggle_job(cell).unwrap();
        assert!(blocked && !game.map().is_passable(cell) && game.oracle().grid().is_passable(cell));
        let mut steps = 0;
        loop {
            let from = game.enemies().to_vec();
            game.tick(player);
            moved += moves_allowed(game.map(), player, &from, game.enemies());
            if !game.repair_step(1 + k % 3).unwrap() {
                break;
            }
            // The table in use is the old one until the swap.
            assert_eq!(game.oracle().grid(), old.grid());
            steps += 1;
        }
        steps_seen = steps_seen.max(steps);
        same_as_fresh(&game);
    }
    assert!(steps_seen > 10, "the repairs took at most {steps_seen} steps");
    assert!(moved > 1000, "{moved} moves during the repairs");
}

#[test]
fn clicks_during_a_repair_are_repaired_next() {
    let grid = maze(10, 8, 4, 9);
    let mut game = Game::new(&grid, 256 << 20).unwrap();
    assert_eq!(game.set_enemies(50), Ok(50));
    let corridors = corridor_cells(&grid);
    let (a, b) = (corridors[3], corridors[corridors.len() - 4]);
    assert_eq!(game.toggle_job(a), Ok(true));
    assert!(game.repairing());
    assert_eq!(game.toggle_job(b), Ok(true)); // queued behind the first
    assert_eq!(game.toggle_job(Cell::new(0, 0)), Ok(false)); // a wall opened: a rebuild, queued
    assert_eq!(game.toggle_job(Cell::new(0, 0)), Ok(true)); // and closed again: the last state
    assert_eq!(
        game.toggle_job(Cell::new(99, 0)),
        Err(signposts::Error::CellOutOfBounds { x: 99, y: 0, width: grid.width(), height: grid.height() })
    );
    assert_eq!(game.repairs(), 4);
    while game.repair_step(2).unwrap() {
        game.tick(Cell::new(1, 1));
    }
    assert!(!game.oracle().grid().is_passable(a) && !game.oracle().grid().is_passable(b));
    same_as_fresh(&game);
    // A one-shot toggle finishes a repair under way first.
    assert_eq!(game.toggle_job(a), Ok(false));
    assert_eq!(game.toggle(b), Ok(false));
    assert!(!game.repairing());
    same_as_fresh(&game);
}

#[test]
fn the_repair_exports_never_panic() {
    assert_eq!(web::repair_step(5), 0, "no map: nothing to step");
    assert_eq!(web::toggle_job(0, 0), -1);
    assert!(error().contains("map"), "{}", error());
    assert_eq!(load(b"", 256), 0); // the maze
    assert_eq!(web::set_enemies(300), 300);
    assert_eq!(web::toggle_job(u32::MAX, u32::MAX), -1);
    assert!(error().contains("4294967295"), "{}", error());
    assert_eq!(web::repair_step(0), 0, "no repair under way");
    // A corridor cell of the maze the page generates.
    let grid = maze(60, 40, 8, 42);
    let cell = corridor_cells(&grid)[500];
    assert_eq!(web::toggle_job(cell.x, cell.y), 1);
    let mut calls = 0;
    loop {
        web::tick(1, 1);
        let left = web::repair_step(if calls % 2 == 0 { 0 } else { u32::MAX / 2 + calls });
        assert!(left >= 0, "{}", error());
        if left == 0 {
            break;
        }
        calls += 1;
    }
    assert!(calls > 0);
    assert_eq!(web::toggle_job(cell.x, cell.y), 0);
    assert_eq!(web::toggle(cell.x, cell.y), 1, "the one-shot toggle after a job");
    assert_eq!(web::repair_step(1), 0);
}
