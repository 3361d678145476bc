//! The page's game on the host: the same code the WebAssembly module runs.

use signposts::generate::maze_grid as maze;
use signposts::grid::{Cell, Connectivity, GridOracle};
use signposts_web::Game;

#[test]
fn enemies_close_in_and_every_step_is_optimal() {
    let grid = maze(20, 14, 6, 3);
    let mut game = Game::new(&grid, 256 << 20).unwrap();
    assert!(!game.oracle().is_compressed());
    game.set_enemies(500);
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
    game.set_enemies(100);
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
    rooms.set_enemies(300);
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

#[test]
fn the_exports_load_a_map_from_the_page_s_bytes_and_report_errors() {
    let map = b"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";
    let ptr = signposts_web::alloc(map.len());
    // SAFETY: `alloc` gave `map.len()` bytes; `load_map` reads them; `dealloc` gives them back.
    unsafe {
        core::ptr::copy_nonoverlapping(map.as_ptr(), ptr, map.len());
        assert_eq!(signposts_web::load_map(ptr, map.len(), 256), 0);
        signposts_web::dealloc(ptr, map.len());
    }
    assert_eq!((signposts_web::width(), signposts_web::height()), (4, 3));
    signposts_web::set_enemies(10);
    assert!(signposts_web::tick(3, 2) > 0);
    let bad = b"type octile\nheight 9\n";
    let ptr = signposts_web::alloc(bad.len());
    // SAFETY: as above.
    unsafe {
        core::ptr::copy_nonoverlapping(bad.as_ptr(), ptr, bad.len());
        assert_eq!(signposts_web::load_map(ptr, bad.len(), 256), -1);
        signposts_web::dealloc(ptr, bad.len());
    }
    // SAFETY: `error_ptr` points to `error_len` bytes of the last message.
    let message =
        unsafe { core::slice::from_raw_parts(signposts_web::error_ptr(), signposts_web::error_len()) };
    assert!(String::from_utf8_lossy(message).contains("line"), "{}", String::from_utf8_lossy(message));
    assert_eq!(signposts_web::toggle(99, 99), -1); // outside the map, still the 4×3 one
}
