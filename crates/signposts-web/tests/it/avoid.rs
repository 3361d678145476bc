//! Crowd avoidance: one grid enemy a cell, the rooms enemies kept apart; its exports called as
//! the page calls them, with the arguments that could break them (toggled on and off again and
//! again, counts past the open cells, walls closed under enemies, an oracle rebuilt).

use signposts::generate::maze_grid as maze;
use signposts::grid::Cell;
use signposts_rooms::Point;
use signposts_web::exports as web;
use signposts_web::{AGENT_RADIUS, Game, RoomsGame};

/// Copies `bytes` into the module's memory and loads them as a map, as the page does.
fn load(bytes: &[u8], dense_up_to_mib: u32) -> i32 {
    let ptr = web::alloc(bytes.len());
    assert!(!ptr.is_null());
    // SAFETY: `alloc` gave `bytes.len()` bytes; `load_map` reads them; `dealloc` gives them back.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
        let rc = web::load_map(ptr, bytes.len(), dense_up_to_mib);
        web::dealloc(ptr, bytes.len());
        rc
    }
}

/// The grid enemies' cells as the page reads them.
fn enemies() -> Vec<(u32, u32)> {
    let len = 2 * web::enemies_len() as usize;
    if len == 0 {
        return Vec::new();
    }
    // SAFETY: `enemies_ptr` points to `2 · enemies_len` values.
    let flat = unsafe { core::slice::from_raw_parts(web::enemies_ptr(), len) };
    flat.chunks(2).map(|p| (p[0], p[1])).collect()
}

/// The most enemies on one cell, counted here (not by the export under test).
fn most_in_a_cell(cells: &[(u32, u32)]) -> usize {
    let mut cells = cells.to_vec();
    cells.sort_unstable();
    cells.chunk_by(|a, b| a == b).map(<[_]>::len).max().unwrap_or(0)
}

/// The open cell nearest the map's middle in reading order from it (the page's player).
fn player() -> (u32, u32) {
    let (width, height) = (web::width(), web::height());
    // SAFETY: `cells_ptr` points to `width · height` bytes.
    let cells = unsafe { core::slice::from_raw_parts(web::cells_ptr(), (width * height) as usize) };
    let middle = (height / 2 * width + width / 2) as usize;
    let i = (middle..cells.len()).chain(0..middle).find(|&i| cells[i] == 1).unwrap();
    (i as u32 % width, i as u32 / width)
}

/// A 3×2 map, five cells open (`(1, 1)` blocked when built).
const SMALL: &[u8] = b"type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n";

#[test]
fn with_avoidance_no_cell_holds_two_enemies_and_they_still_close_in() {
    let grid = maze(20, 14, 6, 3);
    let mut game = Game::new(&grid, 256 << 20).unwrap();
    let player = Cell::new(21, 15);
    assert_eq!(game.set_enemies(2_000), Ok(2_000));
    for _ in 0..20 {
        game.tick(player);
    }
    let piled = game.most_in_a_cell().unwrap();
    assert!(piled > 1, "without avoidance the enemies pile up: {piled}");
    let open = game.open_len();
    assert!(open < 2_000);
    assert_eq!(game.set_avoid(true), Ok(open), "clamped to the open cells");
    assert!(game.avoiding());
    // Few enough not to queue in the maze's one-cell corridors for long.
    assert_eq!(game.set_enemies(100), Ok(100));
    let before = game.mean_distance(player, 100);
    for _ in 0..15 {
        let moved = game.tick(player);
        assert!(moved > 0);
        assert_eq!(game.most_in_a_cell(), Ok(1));
        assert!(game.enemies().iter().all(|&e| grid.is_passable(e)));
    }
    let after = game.mean_distance(player, 100);
    assert!(after < before - 5.0, "{before} -> {after}");
    // Off again: the enemies stay where they stood, and step as before.
    let at = game.enemies().to_vec();
    assert_eq!(game.set_avoid(false), Ok(100));
    assert_eq!(game.enemies(), at);
    assert_eq!(game.set_enemies(3_000), Ok(3_000));
}

#[test]
fn toggling_avoidance_again_and_again_keeps_the_exports_answering() {
    // SAFETY: a null pointer reads as no bytes: the generated maze.
    assert_eq!(unsafe { web::load_map(core::ptr::null(), 0, 256) }, 0);
    let open = web::open_cells();
    assert!(open > 1_000, "{open}");
    assert_eq!(web::set_enemies(3_000), 3_000);
    let (x, y) = player();
    let counts = [0, 1, 7, 3_000, 50_000, u32::MAX, open, open + 1];
    for round in 0..24_u32 {
        let on = round % 2;
        let now = web::set_avoid(on * (round + 1)); // any nonzero value turns it on
        assert_eq!(web::avoid(), on);
        assert_eq!(now, i32::try_from(web::enemies_len()).unwrap());
        let wanted = counts[round as usize % counts.len()];
        let kept = web::set_enemies(wanted);
        let expected = if on == 1 { wanted.min(open) } else { wanted.min(web::max_enemies()) };
        assert_eq!(kept, i32::try_from(expected).unwrap(), "round {round}: {wanted} asked");
        for _ in 0..3 {
            web::tick(x, y);
        }
        web::tick(u32::MAX, 0); // outside the map: no one steps
        if on == 1 {
            assert!(web::most_in_a_cell() <= 1);
            assert!(most_in_a_cell(&enemies()) <= 1);
        }
    }
    assert_eq!(web::set_avoid(1), web::set_avoid(1), "on twice: as once");
    assert_eq!(web::most_in_a_cell(), 1);
}

#[test]
fn counts_past_the_open_cells_are_clamped_and_the_map_full_of_enemies_still_ticks() {
    assert_eq!(load(SMALL, 256), 0);
    assert_eq!(web::open_cells(), 5);
    assert_eq!(web::set_enemies(100), 100);
    assert!(web::most_in_a_cell() > 1);
    assert_eq!(web::set_avoid(1), 5, "100 enemies on 5 cells: 5 kept");
    assert_eq!(web::most_in_a_cell(), 1);
    assert_eq!(web::set_enemies(u32::MAX), 5);
    for _ in 0..10 {
        web::tick(2, 1); // every cell taken: the enemies swap or wait; the one caught has nowhere to go
        assert_eq!(web::enemies_len(), 5);
        assert_eq!(web::most_in_a_cell(), 1);
    }
    assert!(web::mean_distance(2, 1, 5).is_finite());
    assert_eq!(web::astar(2, 1, 5), 5);
    assert_eq!(web::set_enemies(0), 0);
    assert_eq!(web::most_in_a_cell(), 0);
    assert_eq!(web::set_enemies(3), 3);
}

#[test]
fn walls_closed_under_enemies_move_them_to_free_cells_or_remove_them() {
    assert_eq!(load(SMALL, 256), 0);
    assert_eq!(web::set_avoid(1), 0);
    assert_eq!(web::set_enemies(5), 5);
    // Every open cell holds an enemy: the one on a closing cell has nowhere to go.
    assert_eq!(web::toggle(0, 0), 1);
    assert_eq!((web::open_cells(), web::enemies_len()), (4, 4));
    assert!(!enemies().contains(&(0, 0)));
    assert_eq!(web::most_in_a_cell(), 1);
    // Opened again (it had a node when built: repaired in place).
    assert_eq!(web::toggle(0, 0), 0);
    assert_eq!(web::set_enemies(5), 5);
    // The cell blocked when the table was built: opening it rebuilds the oracle (its cells
    // numbered anew), and the crowd is made again on the enemies' cells.
    let before = enemies();
    assert_eq!(web::toggle(1, 1), 0);
    assert_eq!(enemies(), before);
    assert_eq!(web::set_enemies(6), 6);
    assert!(enemies().contains(&(1, 1)));
    for _ in 0..5 {
        web::tick(2, 0);
        assert_eq!(web::most_in_a_cell(), 1);
    }
    // Closed with one free cell: the enemy moves there.
    assert_eq!(web::set_enemies(5), 5);
    let free = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
        .into_iter()
        .find(|c| !enemies().contains(c))
        .unwrap();
    let taken = enemies()[0];
    assert_eq!(web::toggle(taken.0, taken.1), 1);
    assert_eq!(web::enemies_len(), 5);
    assert!(enemies().contains(&free) && !enemies().contains(&taken));
    // Every cell closed, one after another, under the enemies: none left, no panic.
    for (x, y) in [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)] {
        if web::toggle(x, y) == 0 {
            assert_eq!(web::toggle(x, y), 1);
        }
        assert!(most_in_a_cell(&enemies()) <= 1);
        web::tick(2, 1);
    }
    assert_eq!((web::open_cells(), web::enemies_len(), web::set_enemies(9)), (0, 0, 0));
    assert_eq!(web::most_in_a_cell(), 0);
    assert_eq!(web::toggle(2, 1), 0);
    assert_eq!(web::set_enemies(9), 1);
}

#[test]
fn avoidance_is_kept_across_loads_and_for_compressed_tables() {
    // Before a map: the setting is kept, the counts are 0.
    assert_eq!(web::set_avoid(1), 0);
    assert_eq!((web::avoid(), web::most_in_a_cell(), web::open_cells()), (1, 0, 0));
    assert!(web::rooms_radius() == 0.0);
    // A compressed table (a budget of 0 MiB): the crowd walks its moves, walls cannot change.
    // SAFETY: a null pointer reads as no bytes: the generated maze.
    assert_eq!(unsafe { web::load_map(core::ptr::null(), 0, 0) }, 0);
    assert_eq!(web::compressed(), 1);
    let (x, y) = player();
    assert_eq!(web::set_enemies(2_000), 2_000);
    for _ in 0..10 {
        assert!(web::tick(x, y) > 0);
        assert_eq!(web::most_in_a_cell(), 1);
    }
    assert_eq!(web::set_enemies(200), 200);
    let before = web::mean_distance(x, y, 200);
    for _ in 0..10 {
        web::tick(x, y);
    }
    let after = web::mean_distance(x, y, 200);
    assert!(after < before - 3.0, "{before} -> {after}");
    // The compressed table takes a wall (its overlay); the crowd keeps one enemy a cell.
    let blocked = web::toggle(1, 1);
    assert!(blocked == 0 || blocked == 1, "{blocked}: {}", crate::exports::error());
    for _ in 0..5 {
        web::tick(x, y);
        assert_eq!(web::most_in_a_cell(), 1);
    }
}

const ROOMS_MAP: &[u8] = b"type octile\nheight 6\nwidth 9\nmap\n.........\n.@@@.@@@.\n.@.....@.\n.@.@@@.@.\n...@.....\n...@.....\n";

#[test]
fn rooms_enemies_with_avoidance_are_discs_kept_apart_in_the_walkable_area() {
    let grid = signposts::grid::parse_map(ROOMS_MAP).unwrap();
    let mut rooms = RoomsGame::new(&grid).unwrap();
    assert_eq!(rooms.set_enemies(30), Ok(30));
    assert_eq!(rooms.set_avoid(true), Ok(30));
    assert!(rooms.avoiding());
    // They start one to a cell: those that shared one moved to free cells' centres.
    let mut cells: Vec<(i64, i64)> =
        rooms.enemies().iter().map(|p| (p.x.floor() as i64, p.y.floor() as i64)).collect();
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), 30);
    let player = Point::new(8.5, 5.5);
    let before = rooms.mean_distance(player, 30);
    for tick in 0..200 {
        rooms.tick(player, 0.1);
        for &p in rooms.enemies() {
            assert!(rooms.rooms().region_at(p).is_some(), "an enemy left the walkable area at {p:?}");
        }
        // Enemies placed on one cell's centre are pushed apart within a few ticks; then ORCA
        // lets a crowd pressed on one point overlap a little (the crate promises at most a
        // quarter of the sum of the radii on small worlds), never pile up.
        let deepest = rooms.avoid_overlaps().unwrap().deepest;
        if tick >= 10 {
            assert!(deepest < 0.25 * 2.0 * AGENT_RADIUS, "tick {tick}: overlap {deepest}");
        }
    }
    assert!(rooms.mean_distance(player, 30) < before, "the agents closed in");
    // Strides that the page never sends: nothing moves, or at most a cell a tick.
    let at = rooms.enemies().to_vec();
    for stride in [-1.0, f64::NAN, 0.0] {
        assert_eq!(rooms.tick(player, stride), 0);
    }
    assert_eq!(rooms.tick(Point::new(f64::NAN, 0.0), 0.5), 0);
    assert_eq!(rooms.enemies(), at);
    rooms.tick(Point::new(0.5, 0.5), f64::INFINITY);
    assert!(rooms.enemies().iter().all(|&p| rooms.rooms().region_at(p).is_some()));
    // Off: dots again, where they stood.
    let at = rooms.enemies().to_vec();
    assert_eq!(rooms.set_avoid(false), Ok(30));
    assert!(rooms.avoid_stats().is_none());
    assert_eq!(rooms.enemies(), at);
}

#[test]
fn the_rooms_exports_with_avoidance_clamp_and_never_panic() {
    assert_eq!(load(ROOMS_MAP, 256), 0);
    let open = web::open_cells();
    assert_eq!(web::rooms_build(), 0);
    assert_eq!(web::rooms_set_enemies(u32::MAX), i32::try_from(web::max_enemies()).unwrap());
    assert_eq!(web::set_avoid(1), 0); // no grid enemies set
    assert!((web::rooms_radius() - AGENT_RADIUS).abs() < 1e-12);
    assert_eq!(web::rooms_enemies_len(), open, "clamped to the open cells");
    assert_eq!(web::rooms_set_enemies(u32::MAX), i32::try_from(open).unwrap());
    for round in 0..10 {
        web::rooms_tick(8.5, 5.5, 0.25);
        assert!(web::rooms_deepest_overlap().is_finite());
        if round % 3 == 0 {
            assert_eq!(web::set_avoid(0), 0);
            assert!(web::rooms_radius() == 0.0 && web::rooms_overlaps() == 0);
            web::rooms_tick(8.5, 5.5, 0.25);
            assert_eq!(web::set_avoid(1), 0);
        }
        assert_eq!(web::rooms_set_enemies(round * 7), i32::try_from((round * 7).min(open)).unwrap());
    }
    // A wall clicked: the page builds the rooms again, and they start with avoidance on.
    assert_eq!(web::toggle(4, 0), 1);
    assert_eq!(web::rooms_build(), 0);
    assert!(web::rooms_radius() > 0.0);
    assert_eq!(web::rooms_set_enemies(20), 20);
    assert!(web::rooms_tick(8.5, 5.5, 0.25) > 0);
    assert_eq!(web::rooms_tick(f64::INFINITY, 5.5, 0.25), 0);
    assert_eq!(web::rooms_tick(8.5, 5.5, f64::NAN), 0);
    assert!(web::rooms_tick(8.5, 5.5, f64::INFINITY) > 0);
}
