//! The page's game on the host: the same code the WebAssembly module runs.

use signposts::generate::maze_grid as maze;
use signposts::grid::{Cell, Connectivity, GridOracle};
use signposts_web::Game;

#[test]
fn enemies_close_in_and_every_step_is_optimal() {
    let grid = maze(20, 14, 6, 3);
    let mut game = Game::new(&grid, 256 << 20).unwrap();
    assert!(!game.oracle().is_compressed());
    assert_eq!(game.set_enemies(500), Ok(500));
    let player = Cell::new(21, 15);
    assert!(grid.is_passable(player));
    let before = game.mean_distance(player, 500);
    for _ in 0..10 {
        let from: Vec<Cell> = game.enemies().to_vec();
        game.tick(player);
        for (&a, &b) in from.iter().zip(game.enemies()) {
            if a != player {
                let (da, db) =
                    (game.oracle().cost(a, player).unwrap(), game.oracle().cost(b, player).unwrap());
                assert!(db < da, "{a} -> {b} is not a step closer");
            }
        }
    }
    let after = game.mean_distance(player, 500);
    assert!(after < before - 5.0, "{before} -> {after}");
    assert_eq!(game.astar(player, 50), 50);
}

#[test]
fn a_click_closes_and_opens_a_wall_repaired_in_place() {
    let grid = maze(10, 8, 4, 9);
    let mut game = Game::new(&grid, 256 << 20).unwrap();
    assert_eq!(game.set_enemies(100), Ok(100));
    let cell = Cell::new(1, 1);
    assert_eq!(game.toggle(cell), Ok(true));
    assert_eq!(game.repairs(), 1);
    assert!(game.enemies().iter().all(|&e| e != cell));
    let mut closed = grid.clone();
    closed.set_blocked(cell, true);
    let fresh = GridOracle::build(&closed, Connectivity::Eight).unwrap();
    let open: Vec<Cell> = (0..closed.height())
        .flat_map(|y| (0..closed.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| closed.is_passable(c))
        .collect();
    for &a in &open {
        for &b in open.iter().step_by(7) {
            assert_eq!(game.oracle().cost(a, b), fresh.cost(a, b), "{a} -> {b}");
        }
    }
    assert_eq!(game.toggle(cell), Ok(false));
}

#[test]
fn a_large_map_takes_the_compressed_table_and_a_saved_one_loads() {
    let grid = maze(20, 14, 6, 3);
    let game = Game::new(&grid, 1 << 10).unwrap(); // a tiny budget: compressed
    assert!(game.oracle().is_compressed());
    let mut bytes = Vec::new();
    game.oracle().save(&mut bytes).unwrap();
    let loaded = Game::load(&bytes).unwrap();
    assert!(loaded.oracle().is_compressed());
    assert!(Game::load(&bytes[..bytes.len() / 2]).is_err());
}

#[test]
fn the_rooms_mode_closes_in_at_any_angle_inside_the_walkable_area() {
    use signposts_web::RoomsGame;
    let grid = maze(12, 9, 5, 11);
    let mut rooms = RoomsGame::new(&grid).unwrap();
    assert_eq!(rooms.set_enemies(300), Ok(300));
    let player = signposts_rooms::Point::new(12.5, 9.5);
    assert!(grid.is_passable(Cell::new(12, 9)));
    let before = rooms.mean_distance(player, 300);
    for _ in 0..30 {
        rooms.tick(player, 0.5);
        for &p in rooms.enemies() {
            assert!(rooms.rooms().region_at(p).is_some(), "an enemy left the walkable area at {p:?}");
        }
    }
    let after = rooms.mean_distance(player, 300);
    assert!(after < before - 10.0, "{before} -> {after}");
}
