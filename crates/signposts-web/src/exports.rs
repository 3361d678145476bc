//! The module's plain `extern "C"` exports, over one [`Game`] (and its [`RoomsGame`]) kept in
//! a thread-local.
//!
//! Every export returns for every argument, never panics or aborts: an `i32` of -1 is an
//! error, its message in [`error_ptr`]/[`error_len`]; a count is clamped to [`MAX_ENEMIES`];
//! memory that cannot be had is a null pointer ([`alloc`]) or an error (the rest); an export
//! that needs a map returns 0 (or null) before one is loaded. The pointers returned stay valid
//! until the next call that changes what they point to.
//!
//! Avoidance ([`set_avoid`]) is a setting of the module rather than of one game: games loaded
//! and rooms built afterwards start with it.
//!
//! The module imports one function, `env.progress(done: u32, total: u32)`, called as a build
//! ([`load_map`]) finishes each batch of targets (`done` of `total`); the page's build worker
//! posts it to the page's progress bar. On the host it is a no-op.

use std::alloc::Layout;
use std::cell::RefCell;
use std::ptr::NonNull;

use signposts::grid::{Cell, Connectivity, TableKind};
use signposts::{BuildOptions, Error, Progress};
use signposts_rooms::Point;

use crate::{Game, MAX_ENEMIES, RoomsGame};

thread_local! {
    static GAME: RefCell<Option<Game>> = const { RefCell::new(None) };
    static ROOMS: RefCell<Option<RoomsGame>> = const { RefCell::new(None) };
    static ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// The bytes [`save_table`] or [`save_map`] wrote last.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Whether avoidance is on ([`set_avoid`]), for the games to come too.
    static AVOID: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(target_arch = "wasm32")]
mod host {
    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        /// The page's progress report: `done` of `total` batches of a build.
        safe fn progress(done: u32, total: u32);
    }

    /// Reports a build's progress to the page.
    pub(super) fn report(done: u32, total: u32) {
        progress(done, total);
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod host {
    /// On the host there is no page to report to.
    pub(super) fn report(_done: u32, _total: u32) {}
}

/// Runs `f` on the game, or returns `default` when none is loaded.
fn with_game<T>(default: T, f: impl FnOnce(&mut Game) -> T) -> T {
    GAME.with(|game| game.borrow_mut().as_mut().map_or(default, f))
}

/// Runs `f` on the rooms game, or returns `default` when none is built.
fn with_rooms<T>(default: T, f: impl FnOnce(&mut RoomsGame) -> T) -> T {
    ROOMS.with(|rooms| rooms.borrow_mut().as_mut().map_or(default, f))
}

/// Keeps the game (the rooms of the last map dropped), or the error's message; 0, or -1.
/// With avoidance on, the game starts with it (or, when its crowd does not fit in memory,
/// avoidance is turned off: [`avoid`] says so).
fn keep(game: Result<Game, Error>) -> i32 {
    match game {
        Ok(mut game) => {
            if AVOID.get() && game.set_avoid(true).is_err() {
                AVOID.set(false);
            }
            GAME.with(|g| *g.borrow_mut() = Some(game));
            ROOMS.with(|r| *r.borrow_mut() = None);
            0
        }
        Err(error) => failed(&error),
    }
}

/// Keeps `error`'s message for [`error_ptr`]; -1, the exports' error code.
fn failed(error: &dyn core::fmt::Display) -> i32 {
    ERROR.with(|e| *e.borrow_mut() = error.to_string());
    -1
}

/// A count as the exports return it: the number, or -1 with the error kept.
fn count(result: Result<usize, Error>) -> i32 {
    match result {
        Ok(n) => i32::try_from(n).unwrap_or(i32::MAX),
        Err(error) => failed(&error),
    }
}

/// Keeps `bytes` for [`out_ptr`]/[`out_len`]; 0, or -1 with the error kept.
fn keep_out(bytes: Result<Vec<u8>, Error>) -> i32 {
    match bytes {
        Ok(bytes) => {
            OUT.with(|o| *o.borrow_mut() = bytes);
            0
        }
        Err(error) => failed(&error),
    }
}

/// `len` bytes of the module's memory, zeroed, for the page to fill (a `.map` file, a saved
/// table); give them back with [`dealloc`]. Null when the memory cannot be had (`len` past
/// what the module can address, or the browser refuses to grow its memory).
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let Ok(layout) = Layout::array::<u8>(len) else { return core::ptr::null_mut() };
    if len == 0 {
        return NonNull::<u8>::dangling().as_ptr(); // nothing allocated, nothing to give back
    }
    // SAFETY: `layout` has a nonzero size. A null result (no memory) is returned as it is.
    unsafe { std::alloc::alloc_zeroed(layout) }
}

/// Gives back what [`alloc`] returned; a null `ptr` or a `len` of 0 is nothing to give back.
///
/// # Safety
/// `ptr` and `len` must be those of one [`alloc`] call, not given back before (or `ptr` null).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    let Ok(layout) = Layout::array::<u8>(len) else { return };
    if ptr.is_null() || len == 0 {
        return;
    }
    // SAFETY: the caller passes the pointer and length of one `alloc`, allocated with `layout`.
    unsafe { std::alloc::dealloc(ptr, layout) }
}

/// Reads `len` bytes at `ptr` (from [`alloc`]); none when `ptr` is null.
///
/// # Safety
/// `ptr` must point to `len` initialised bytes, or be null.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 || ptr.is_null() {
        return &[];
    }
    // SAFETY: the caller's promise.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// Loads a Moving AI `.map` file (`len` bytes at `ptr`), or a generated maze when `len` is 0
/// (or `ptr` null), and builds its table: dense when it needs at most `dense_up_to_mib` MiB
/// (`u32::MAX`: dense whatever its size, the memory permitting), compressed above; progress
/// goes to the `env.progress` import. 0, or -1 with the error in [`error_ptr`] (the game
/// loaded before stays).
///
/// # Safety
/// `ptr` must point to `len` initialised bytes (from [`alloc`]), or be null.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn load_map(ptr: *const u8, len: usize, dense_up_to_mib: u32) -> i32 {
    // SAFETY: the caller's promise.
    let bytes = unsafe { bytes(ptr, len) };
    let grid = if bytes.is_empty() {
        Ok(signposts::generate::maze_grid(60, 40, 8, 42))
    } else {
        signposts::grid::parse_map(bytes)
    };
    let budget = if dense_up_to_mib == u32::MAX { u64::MAX } else { u64::from(dense_up_to_mib) << 20 };
    keep(grid.and_then(|grid| {
        let kind = TableKind::for_memory(&grid, Connectivity::Eight, budget);
        let mut options = BuildOptions::new();
        options.progress(|p: Progress| {
            host::report(
                u32::try_from(p.done).unwrap_or(u32::MAX),
                u32::try_from(p.total).unwrap_or(u32::MAX),
            );
        });
        Game::build(&grid, kind, &options)
    }))
}

/// Loads a table saved by `signposts build` or [`save_table`] (`len` bytes at `ptr`). 0, or
/// -1 with the error in [`error_ptr`] (the game loaded before stays).
///
/// # Safety
/// `ptr` must point to `len` initialised bytes (from [`alloc`]), or be null.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn load_saved(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: the caller's promise.
    keep(Game::load(unsafe { bytes(ptr, len) }))
}

/// Drops the game, its rooms and the bytes at [`out_ptr`] (their memory is the module's to
/// reuse).
#[unsafe(no_mangle)]
pub extern "C" fn unload() {
    GAME.with(|g| *g.borrow_mut() = None);
    ROOMS.with(|r| *r.borrow_mut() = None);
    OUT.with(|o| *o.borrow_mut() = Vec::new());
}

/// Saves the loaded table (as `signposts build` does, for [`load_saved`]) into the bytes at
/// [`out_ptr`]. 0, or -1 with the error in [`error_ptr`] (no map loaded, no memory).
#[unsafe(no_mangle)]
pub extern "C" fn save_table() -> i32 {
    keep_out(with_game(Err(Error::Unsupported { what: "saving before a map is loaded" }), |g| g.save()))
}

/// Writes the loaded map, its edits included, as Moving AI `.map` text into the bytes at
/// [`out_ptr`] (for [`load_map`] in another instance). 0, or -1 with the error in
/// [`error_ptr`].
#[unsafe(no_mangle)]
pub extern "C" fn save_map() -> i32 {
    keep_out(with_game(Err(Error::Unsupported { what: "saving before a map is loaded" }), |g| g.map_text()))
}

/// The bytes [`save_table`] or [`save_map`] wrote last.
#[unsafe(no_mangle)]
pub extern "C" fn out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

/// Their length.
#[unsafe(no_mangle)]
pub extern "C" fn out_len() -> usize {
    OUT.with(|o| o.borrow().len())
}

/// The last error's message (UTF-8, [`error_len`] bytes).
#[unsafe(no_mangle)]
pub extern "C" fn error_ptr() -> *const u8 {
    ERROR.with(|e| e.borrow().as_ptr())
}

/// The last error's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn error_len() -> usize {
    ERROR.with(|e| e.borrow().len())
}

/// The map's width in cells.
#[unsafe(no_mangle)]
pub extern "C" fn width() -> u32 {
    with_game(0, |g| g.oracle.grid().width())
}

/// The map's height in cells.
#[unsafe(no_mangle)]
pub extern "C" fn height() -> u32 {
    with_game(0, |g| g.oracle.grid().height())
}

/// The map's cells, row-major, 1 open and 0 blocked (`width · height` bytes).
#[unsafe(no_mangle)]
pub extern "C" fn cells_ptr() -> *const u8 {
    with_game(core::ptr::null(), |g| g.cells.as_ptr())
}

/// 1 when the table is compressed, 0 when dense.
#[unsafe(no_mangle)]
pub extern "C" fn compressed() -> u32 {
    with_game(0, |g| u32::from(g.oracle.is_compressed()))
}

/// Bytes of the table and its cell maps.
#[unsafe(no_mangle)]
pub extern "C" fn table_bytes() -> f64 {
    with_game(0.0, |g| g.oracle.memory_bytes() as f64)
}

/// Bytes a dense table of the map as it is now would take ([`Game::dense_bytes`]): what a
/// dense build ([`load_map`] with `u32::MAX`) needs.
#[unsafe(no_mangle)]
pub extern "C" fn dense_bytes() -> f64 {
    with_game(0.0, |g| g.dense_bytes() as f64)
}

/// The most enemies [`set_enemies`] and [`rooms_set_enemies`] keep: [`MAX_ENEMIES`].
#[unsafe(no_mangle)]
pub extern "C" fn max_enemies() -> u32 {
    MAX_ENEMIES as u32
}

/// Sets the number of enemies, clamped to [`MAX_ENEMIES`] (none on a map without an open
/// cell). Returns the number now (0 before a map is loaded), or -1 when their memory cannot
/// be had (the error in [`error_ptr`]; the enemies as before).
#[unsafe(no_mangle)]
pub extern "C" fn set_enemies(n: u32) -> i32 {
    count(with_game(Ok(0), |g| g.set_enemies(n as usize)))
}

/// The number of enemies (the pairs at [`enemies_ptr`]).
#[unsafe(no_mangle)]
pub extern "C" fn enemies_len() -> u32 {
    with_game(0, |g| g.enemies.len() as u32)
}

/// The enemies' cells, `x, y` pairs of `u32` (two per enemy, [`enemies_len`] enemies).
#[unsafe(no_mangle)]
pub extern "C" fn enemies_ptr() -> *const u32 {
    with_game(core::ptr::null(), |g| g.positions.as_ptr())
}

/// One tick: every enemy steps toward the player's cell (a cell outside the map or blocked:
/// no one steps). Returns how many stepped.
#[unsafe(no_mangle)]
pub extern "C" fn tick(x: u32, y: u32) -> u32 {
    with_game(0, |g| g.tick(Cell::new(x, y)) as u32)
}

/// The mean distance of the first `sample` enemies to the player's cell (0 when none
/// reaches it).
#[unsafe(no_mangle)]
pub extern "C" fn mean_distance(x: u32, y: u32, sample: u32) -> f64 {
    with_game(0.0, |g| g.mean_distance(Cell::new(x, y), sample as usize))
}

/// One A* search from each of the first `sample` enemies to the player's cell (the page times
/// it and scales it to the whole crowd). Returns how many found a path.
#[unsafe(no_mangle)]
pub extern "C" fn astar(x: u32, y: u32, sample: u32) -> u32 {
    with_game(0, |g| g.astar(Cell::new(x, y), sample as usize) as u32)
}

/// Toggles a cell, the table repaired in place: 1 blocked now, 0 open now, -1 on error (a
/// compressed table, a cell outside, no map) with the message in [`error_ptr`].
#[unsafe(no_mangle)]
pub extern "C" fn toggle(x: u32, y: u32) -> i32 {
    let result = with_game(Err(Error::Unsupported { what: "editing before a map is loaded" }), |g| {
        g.toggle(Cell::new(x, y))
    });
    match result {
        Ok(blocked) => i32::from(blocked),
        Err(error) => failed(&error),
    }
}

/// Toggles a cell as [`toggle`] does, the table's repair spread over [`repair_step`] calls
/// ([`Game::toggle_job`]): 1 blocked now, 0 open now, -1 on error.
#[unsafe(no_mangle)]
pub extern "C" fn toggle_job(x: u32, y: u32) -> i32 {
    let result = with_game(Err(Error::Unsupported { what: "editing before a map is loaded" }), |g| {
        g.toggle_job(Cell::new(x, y))
    });
    match result {
        Ok(blocked) => i32::from(blocked),
        Err(error) => failed(&error),
    }
}

/// Advances the repair under way by about `units` units of work ([`Game::repair_step`]):
/// the units it has left as far as known (at least 1) while it runs, 0 once the repaired table
/// is in use (or when none runs), -1 on error.
#[unsafe(no_mangle)]
pub extern "C" fn repair_step(units: u32) -> i32 {
    match with_game(Ok(false), |g| g.repair_step(units as usize)) {
        Ok(false) => 0,
        Ok(true) => with_game(1, |g| {
            let (done, total) = g.repair_progress();
            i32::try_from(total.saturating_sub(done)).unwrap_or(i32::MAX).max(1)
        }),
        Err(error) => failed(&error),
    }
}

/// Repairs done so far.
#[unsafe(no_mangle)]
pub extern "C" fn repairs() -> u32 {
    with_game(0, |g| g.repairs)
}

/// Builds the rooms of the loaded map as it is now (its edits included): 0, or -1 with the
/// error in [`error_ptr`].
#[unsafe(no_mangle)]
pub extern "C" fn rooms_build() -> i32 {
    let built = with_game(None, |g| Some(RoomsGame::new(g.map())));
    match built {
        Some(Ok(mut rooms)) => {
            if AVOID.get()
                && let Err(error) = rooms.set_avoid(true)
            {
                return failed(&error);
            }
            ROOMS.with(|r| *r.borrow_mut() = Some(rooms));
            0
        }
        Some(Err(error)) => failed(&error),
        None => failed(&"no map is loaded: load one before building its rooms"),
    }
}

/// The regions' outlines: per region its corner count, then the corners' `x, y` (`f32`).
#[unsafe(no_mangle)]
pub extern "C" fn rooms_outlines_ptr() -> *const f32 {
    with_rooms(core::ptr::null(), |r| r.outlines.as_ptr())
}

/// The number of `f32` at [`rooms_outlines_ptr`].
#[unsafe(no_mangle)]
pub extern "C" fn rooms_outlines_len() -> usize {
    with_rooms(0, |r| r.outlines.len())
}

/// The number of regions.
#[unsafe(no_mangle)]
pub extern "C" fn rooms_regions() -> u32 {
    with_rooms(0, |r| r.rooms.mesh().regions_len() as u32)
}

/// Sets the number of enemies of the rooms mode, clamped to [`MAX_ENEMIES`]. Returns the
/// number now (0 before the rooms are built), or -1 when their memory cannot be had.
#[unsafe(no_mangle)]
pub extern "C" fn rooms_set_enemies(n: u32) -> i32 {
    count(with_rooms(Ok(0), |r| r.set_enemies(n as usize)))
}

/// The number of rooms enemies (the pairs at [`rooms_enemies_ptr`]).
#[unsafe(no_mangle)]
pub extern "C" fn rooms_enemies_len() -> u32 {
    with_rooms(0, |r| r.enemies.len() as u32)
}

/// The rooms enemies' positions, `x, y` pairs of `f32` (map units).
#[unsafe(no_mangle)]
pub extern "C" fn rooms_enemies_ptr() -> *const f32 {
    with_rooms(core::ptr::null(), |r| r.positions.as_ptr())
}

/// One tick of the rooms mode: every enemy walks `stride` map units toward the player at
/// `(x, y)`. A negative or NaN `stride` is 0 (no one moves), as is a non-finite `x` or `y`.
/// Returns how many moved.
#[unsafe(no_mangle)]
pub extern "C" fn rooms_tick(x: f64, y: f64, stride: f64) -> u32 {
    with_rooms(0, |r| r.tick(Point::new(x, y), stride) as u32)
}

/// The mean path length from the first `sample` rooms enemies to the player at `(x, y)` (0
/// when none reaches it).
#[unsafe(no_mangle)]
pub extern "C" fn rooms_mean_distance(x: f64, y: f64, sample: u32) -> f64 {
    with_rooms(0.0, |r| r.mean_distance(Point::new(x, y), sample as usize))
}

/// Turns crowd avoidance on (`on` not 0) or off, for the game and its rooms and for those
/// loaded or built afterwards ([`Game::set_avoid`], [`RoomsGame::set_avoid`]): on, no two
/// grid enemies share a cell and the rooms enemies are discs kept apart; the enemy counts are
/// clamped to the open cells ([`open_cells`]). Returns the number of grid enemies now (0
/// before a map is loaded), or -1 when the crowd's memory cannot be had (the error in
/// [`error_ptr`]; avoidance off everywhere).
#[unsafe(no_mangle)]
pub extern "C" fn set_avoid(on: u32) -> i32 {
    let on = on != 0;
    AVOID.set(on);
    let result = with_game(Ok(0), |g| g.set_avoid(on))
        .and_then(|enemies| with_rooms(Ok(0), |r| r.set_avoid(on)).map(|_| enemies));
    if result.is_err() {
        // Turning it off needs no memory: cannot fail.
        AVOID.set(false);
        with_game(Ok(0), |g| g.set_avoid(false)).ok();
        with_rooms(Ok(0), |r| r.set_avoid(false)).ok();
    }
    count(result)
}

/// 1 when avoidance is on, 0 when off.
#[unsafe(no_mangle)]
pub extern "C" fn avoid() -> u32 {
    u32::from(AVOID.get())
}

/// The number of open cells of the map as it is now: with avoidance on, the most enemies
/// either mode keeps.
#[unsafe(no_mangle)]
pub extern "C" fn open_cells() -> u32 {
    with_game(0, |g| u32::try_from(g.open_len()).unwrap_or(u32::MAX))
}

/// The most grid enemies standing on one cell, counted from their cells: 1 with avoidance on
/// (0 without enemies or a map), or -1 when the count's memory cannot be had.
#[unsafe(no_mangle)]
pub extern "C" fn most_in_a_cell() -> i32 {
    count(with_game(Ok(0), |g| g.most_in_a_cell()))
}

/// The radius the rooms enemies are drawn with: [`AGENT_RADIUS`](crate::AGENT_RADIUS) cells
/// with avoidance on, 0 with it off (dots) or before the rooms are built.
#[unsafe(no_mangle)]
pub extern "C" fn rooms_radius() -> f64 {
    with_rooms(0.0, |r| if r.avoiding() { crate::AGENT_RADIUS } else { 0.0 })
}

/// With avoidance on, the pairs of rooms enemies that overlapped after the last tick (0 with
/// it off).
#[unsafe(no_mangle)]
pub extern "C" fn rooms_overlaps() -> u32 {
    with_rooms(0, |r| r.avoid_overlaps().map_or(0, |o| u32::try_from(o.pairs).unwrap_or(u32::MAX)))
}

/// With avoidance on, the deepest overlap of two rooms enemies after the last tick, in cells
/// (the sum of their radii less their distance; 0 without overlaps or with it off).
#[unsafe(no_mangle)]
pub extern "C" fn rooms_deepest_overlap() -> f64 {
    with_rooms(0.0, |r| r.avoid_overlaps().map_or(0.0, |o| o.deepest))
}
