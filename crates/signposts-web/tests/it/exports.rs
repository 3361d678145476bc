//! The exports as the page calls them: every one returns (an error code, a clamped count, a
//! null pointer) for any argument, never panics or aborts. Each test runs on its own thread,
//! so each starts with no map loaded.

use signposts::grid::Cell;
use signposts_rooms::Point;
use signposts_web::exports as web;
use signposts_web::{Game, MAX_ENEMIES, RoomsGame};

/// Copies `bytes` into the module's memory and loads them as a map: `load_map`'s code.
pub(crate) fn load(bytes: &[u8], dense_up_to_mib: u32) -> i32 {
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

/// The same for a saved table: `load_saved`'s code.
fn load_saved(bytes: &[u8]) -> i32 {
    let ptr = web::alloc(bytes.len());
    // SAFETY: as in `load`.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
        let rc = web::load_saved(ptr, bytes.len());
        web::dealloc(ptr, bytes.len());
        rc
    }
}

/// The last error's message.
pub(crate) fn error() -> String {
    // SAFETY: `error_ptr` points to `error_len` bytes of the last message.
    String::from_utf8_lossy(unsafe { core::slice::from_raw_parts(web::error_ptr(), web::error_len()) })
        .into_owned()
}

/// The bytes `save_table` or `save_map` wrote.
fn out() -> Vec<u8> {
    // SAFETY: `out_ptr` points to `out_len` bytes.
    unsafe { core::slice::from_raw_parts(web::out_ptr(), web::out_len()) }.to_vec()
}

/// The enemies' cells as the page reads them.
fn enemies() -> Vec<u32> {
    let len = 2 * web::enemies_len() as usize;
    if len == 0 {
        return Vec::new();
    }
    // SAFETY: `enemies_ptr` points to `2 · enemies_len` values.
    unsafe { core::slice::from_raw_parts(web::enemies_ptr(), len) }.to_vec()
}

/// The rooms enemies' positions as the page reads them.
fn rooms_enemies() -> Vec<f32> {
    let len = 2 * web::rooms_enemies_len() as usize;
    // SAFETY: `rooms_enemies_ptr` points to `2 · rooms_enemies_len` values.
    unsafe { core::slice::from_raw_parts(web::rooms_enemies_ptr(), len) }.to_vec()
}

const ROOMS_MAP: &[u8] = b"type octile\nheight 6\nwidth 9\nmap\n.........\n.@@@.@@@.\n.@.....@.\n.@.@@@.@.\n...@.....\n...@.....\n";

#[test]
fn the_exports_load_a_map_from_the_page_s_bytes_and_report_errors() {
    assert_eq!(load(b"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n", 256), 0);
    assert_eq!((web::width(), web::height()), (4, 3));
    assert_eq!(web::set_enemies(10), 10);
    assert!(web::tick(3, 2) > 0);
    assert_eq!(load(b"type octile\nheight 9\n", 256), -1);
    assert!(error().contains("line"), "{}", error());
    assert_eq!(web::toggle(99, 99), -1); // outside the map, still the 4×3 one
    assert!(error().contains("99"), "{}", error());
}

#[test]
fn closing_the_last_open_cell_under_an_enemy_removes_it_instead_of_dividing_by_zero() {
    assert_eq!(load(b"type octile\nheight 1\nwidth 2\nmap\n.@\n", 256), 0);
    assert_eq!(web::set_enemies(3), 3);
    assert_eq!(enemies(), [0, 0, 0, 0, 0, 0]);
    assert_eq!(web::toggle(0, 0), 1); // the last open cell closes under all three
    assert_eq!(web::enemies_len(), 0);
    assert_eq!(web::set_enemies(5), 0); // nowhere to stand
    assert_eq!(web::tick(0, 0), 0);
    assert!(web::mean_distance(0, 0, 5) == 0.0);
    assert_eq!(web::astar(0, 0, 5), 0);
    assert_eq!(web::rooms_build(), -1, "no walkable area: an error, not a panic");
    assert_eq!(web::toggle(1, 0), 0); // another cell opens
    assert_eq!(web::set_enemies(2), 2);
    assert_eq!(enemies(), [1, 0, 1, 0]);
    // An enemy on the player's cell starts again at the one open cell.
    assert_eq!(web::tick(1, 0), 0);
    assert_eq!(enemies(), [1, 0, 1, 0]);
}

#[test]
fn a_game_whose_last_open_cell_closes_keeps_no_enemies() {
    let grid = signposts::grid::parse_map(b"type octile\nheight 2\nwidth 2\nmap\n.@\n@@\n").unwrap();
    let mut game = Game::new(&grid, 1 << 20).unwrap();
    assert_eq!(game.set_enemies(7), Ok(7));
    assert_eq!(game.toggle(Cell::new(0, 0)), Ok(true));
    assert!(game.enemies().is_empty());
    assert_eq!(game.tick(Cell::new(0, 0)), 0);
}

#[test]
fn enemy_counts_are_clamped_to_the_documented_maximum() {
    assert_eq!(web::max_enemies() as usize, MAX_ENEMIES);
    assert_eq!(load(b"type octile\nheight 2\nwidth 3\nmap\n...\n...\n", 256), 0);
    assert_eq!(web::set_enemies(u32::MAX), i32::try_from(MAX_ENEMIES).unwrap());
    assert_eq!(web::enemies_len() as usize, MAX_ENEMIES);
    assert!(web::tick(2, 1) > 0);
    assert_eq!(web::set_enemies(4), 4);
    assert_eq!(web::rooms_build(), 0);
    assert_eq!(web::rooms_set_enemies(u32::MAX), i32::try_from(MAX_ENEMIES).unwrap());
    assert_eq!(web::rooms_enemies_len() as usize, MAX_ENEMIES);
    assert_eq!(web::rooms_set_enemies(0), 0);
}

#[test]
fn an_allocation_too_large_is_a_null_pointer_not_a_panic() {
    assert!(web::alloc(usize::MAX).is_null());
    assert!(web::alloc(usize::MAX / 2 + 1).is_null());
    // SAFETY: a null pointer is nothing to give back.
    unsafe { web::dealloc(core::ptr::null_mut(), usize::MAX) };
    let empty = web::alloc(0);
    assert!(!empty.is_null());
    // SAFETY: `empty` is `alloc(0)`'s.
    unsafe { web::dealloc(empty, 0) };
    // A null pointer with a length reads as no bytes: the generated maze.
    // SAFETY: a null `ptr` is allowed.
    assert_eq!(unsafe { web::load_map(core::ptr::null(), 99, 256) }, 0);
    assert_eq!((web::width(), web::height()), (121, 81));
}

#[test]
fn a_negative_or_nan_stride_moves_no_rooms_enemy_off_the_map() {
    let grid = signposts::grid::parse_map(ROOMS_MAP).unwrap();
    let mut rooms = RoomsGame::new(&grid).unwrap();
    assert_eq!(rooms.set_enemies(200), Ok(200));
    let player = Point::new(8.5, 5.5);
    let start = rooms.enemies().to_vec();
    for stride in [-5.0, -0.25, f64::NAN, f64::NEG_INFINITY, 0.0] {
        for _ in 0..20 {
            assert_eq!(rooms.tick(player, stride), 0, "stride {stride}");
        }
        assert_eq!(rooms.enemies(), start, "stride {stride}");
    }
    for at in [Point::new(f64::NAN, 1.0), Point::new(1.0, f64::INFINITY)] {
        assert_eq!(rooms.tick(at, 1.0), 0);
    }
    for _ in 0..20 {
        rooms.tick(player, f64::INFINITY);
        for &p in rooms.enemies() {
            assert!(rooms.rooms().region_at(p).is_some(), "an enemy left the walkable area at {p:?}");
        }
    }
    // The export, as the page calls it.
    assert_eq!(load(ROOMS_MAP, 256), 0);
    assert_eq!(web::rooms_build(), 0);
    assert_eq!(web::rooms_set_enemies(50), 50);
    let before = rooms_enemies();
    assert_eq!(web::rooms_tick(8.5, 5.5, -3.0), 0);
    assert_eq!(web::rooms_tick(f64::NAN, 5.5, 1.0), 0);
    assert_eq!(rooms_enemies(), before);
    assert!(web::rooms_tick(8.5, 5.5, 0.5) > 0);
    assert!(web::rooms_mean_distance(f64::NAN, f64::INFINITY, u32::MAX).is_finite());
}

#[test]
fn every_export_answers_before_a_map_is_loaded() {
    assert_eq!((web::width(), web::height(), web::compressed(), web::repairs()), (0, 0, 0, 0));
    assert!(web::cells_ptr().is_null() && web::enemies_ptr().is_null());
    assert!(web::table_bytes() == 0.0 && web::dense_bytes() == 0.0);
    assert_eq!((web::set_enemies(9), web::enemies_len(), web::tick(1, 1), web::astar(1, 1, 9)), (0, 0, 0, 0));
    assert!(web::mean_distance(1, 1, 9) == 0.0);
    assert_eq!(web::toggle(0, 0), -1);
    assert_eq!(web::save_table(), -1);
    assert_eq!(web::save_map(), -1);
    assert!(error().contains("before a map is loaded"), "{}", error());
    assert_eq!(web::rooms_build(), -1);
    assert!(error().contains("no map is loaded"), "{}", error());
    assert_eq!((web::rooms_set_enemies(9), web::rooms_enemies_len(), web::rooms_regions()), (0, 0, 0));
    assert_eq!((web::rooms_tick(1.0, 1.0, 1.0), web::rooms_outlines_len()), (0, 0));
    assert!(web::rooms_outlines_ptr().is_null() && web::rooms_enemies_ptr().is_null());
    assert!(web::rooms_mean_distance(1.0, 1.0, 9) == 0.0);
    // SAFETY: null pointers read as no bytes.
    assert_eq!(unsafe { web::load_saved(core::ptr::null(), 7) }, -1);
    web::unload();
    assert_eq!(web::out_len(), 0);
}

#[test]
fn a_compressed_map_is_built_again_dense_from_its_saved_text_and_then_edits() {
    assert_eq!(load(ROOMS_MAP, 0), 0); // a budget of 0 MiB: compressed
    assert_eq!(web::compressed(), 1);
    let dense = web::dense_bytes();
    assert!(dense > 0.0);
    // The compressed table takes the edit (its overlay) and gives it back.
    assert_eq!(web::toggle(0, 0), 1);
    assert_eq!(web::toggle(0, 0), 0);
    assert_eq!(web::save_map(), 0);
    let text = out();
    assert!(text.starts_with(b"type octile\nheight 6\nwidth 9\nmap\n"), "{}", String::from_utf8_lossy(&text));
    assert_eq!(text.len(), ROOMS_MAP.len());
    // `u32::MAX` MiB: dense whatever its size (what the page's button asks for).
    assert_eq!(load(&text, u32::MAX), 0);
    assert_eq!(web::compressed(), 0);
    assert!((web::table_bytes() - dense).abs() <= dense, "{} vs {dense}", web::table_bytes());
    assert_eq!(web::toggle(0, 0), 1);
    // The edited map saves with its edit; the table saved in one instance loads in another.
    assert_eq!(web::save_map(), 0);
    assert!(out().starts_with(b"type octile\nheight 6\nwidth 9\nmap\n@"));
    assert_eq!(web::save_table(), 0);
    let table = out();
    web::unload();
    assert_eq!((web::width(), web::out_len()), (0, 0));
    assert_eq!(load_saved(&table), 0);
    assert_eq!((web::width(), web::height(), web::compressed()), (9, 6, 0));
    assert_eq!(web::set_enemies(20), 20);
    assert!(web::mean_distance(8, 5, 20) > 0.0);
    assert_eq!(load_saved(&table[..table.len() / 2]), -1);
    assert_eq!(web::width(), 9, "a failed load keeps the game loaded before");
}
