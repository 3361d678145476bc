//! The chase in a web page: the core compiled to `wasm32-unknown-unknown`, exported as plain
//! `extern "C"` functions that `web/chase.js` calls (about a hundred lines of JavaScript, no
//! `wasm-bindgen`: its command-line tool would be one more `cargo install` in CI, and the page
//! passes only numbers and byte buffers).
//!
//! [`Game`] holds the map, its table and the enemies; the exports wrap one game kept in a
//! thread-local (the page has one thread). Buffers cross the boundary as pointers into the
//! module's memory: the page copies a `.map` file in through [`alloc`], and reads the map's
//! cells and the enemies' positions through views of the pointers [`cells_ptr`] and
//! [`enemies_ptr`] return (valid until the next call that changes them).

use std::cell::RefCell;

use signposts::grid::{Cell, Connectivity, Grid, GridOracle, TableKind};
use signposts::search::{Layer, Searcher, TileGrid};
use signposts::{BuildOptions, Error};
use signposts_rooms::{NavMesh, Point, Rooms, Scratch};

/// A map, its table and a crowd of enemies chasing a player.
#[derive(Debug)]
pub struct Game {
    oracle: GridOracle,
    /// 1 for an open cell, 0 for a blocked one, row-major (for drawing).
    cells: Vec<u8>,
    open: Vec<Cell>,
    enemies: Vec<Cell>,
    /// The enemies' cells as `x, y` pairs (for drawing).
    positions: Vec<u32>,
    queries: Vec<(Cell, Cell, u64)>,
    steps: Vec<Option<signposts::grid::Direction>>,
    seed: u64,
    searcher: Searcher,
    tiles: TileGrid,
    repairs: u32,
}

impl Game {
    /// A game on `grid` (octile moves): the dense table when it fits in `dense_up_to` bytes,
    /// the compressed one otherwise.
    ///
    /// # Errors
    /// As [`BuildOptions::build_grid`].
    pub fn new(grid: &Grid, dense_up_to: u64) -> Result<Game, Error> {
        let kind = TableKind::for_memory(grid, Connectivity::Eight, dense_up_to);
        let oracle = BuildOptions::new().build_grid(grid, Connectivity::Eight, kind)?;
        Ok(Game::from_oracle(oracle))
    }

    /// A game on a table saved by `signposts build` (its map and moves are the file's).
    ///
    /// # Errors
    /// As [`GridOracle::load`]: a truncated, corrupt or foreign file.
    pub fn load(bytes: &[u8]) -> Result<Game, Error> {
        Ok(Game::from_oracle(GridOracle::load(bytes)?))
    }

    fn from_oracle(oracle: GridOracle) -> Game {
        let grid = oracle.grid();
        let cells: Vec<u8> = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
            .map(|c| u8::from(grid.is_passable(c)))
            .collect();
        let tiles = TileGrid::from_grid(grid);
        let open = open_cells(grid);
        Game {
            oracle,
            cells,
            open,
            enemies: Vec::new(),
            positions: Vec::new(),
            queries: Vec::new(),
            steps: Vec::new(),
            seed: 0x9e37_79b9_7f4a_7c15,
            searcher: Searcher::new(),
            tiles,
            repairs: 0,
        }
    }

    /// The table.
    #[must_use]
    pub fn oracle(&self) -> &GridOracle {
        &self.oracle
    }

    /// The enemies' cells.
    #[must_use]
    pub fn enemies(&self) -> &[Cell] {
        &self.enemies
    }

    /// Repairs done so far.
    #[must_use]
    pub fn repairs(&self) -> u32 {
        self.repairs
    }

    fn random_open(&mut self) -> Cell {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.open[(self.seed % self.open.len() as u64) as usize]
    }

    /// Sets the number of enemies: new ones at random open cells, the last ones removed.
    pub fn set_enemies(&mut self, count: usize) {
        if self.open.is_empty() {
            return;
        }
        self.enemies.truncate(count);
        while self.enemies.len() < count {
            let cell = self.random_open();
            self.enemies.push(cell);
        }
        self.sync_positions();
    }

    fn sync_positions(&mut self) {
        self.positions.clear();
        self.positions.extend(self.enemies.iter().flat_map(|c| [c.x, c.y]));
    }

    /// Every enemy takes one optimal step toward `player` (one batched query, ties spread by
    /// each enemy's index); an enemy on the player's cell starts again at a random open cell.
    /// Returns how many stepped.
    pub fn tick(&mut self, player: Cell) -> usize {
        self.queries.clear();
        self.queries.extend(self.enemies.iter().enumerate().map(|(i, &c)| (c, player, i as u64)));
        self.oracle.next_step_each_spread(&self.queries, &mut self.steps);
        let mut moved = 0;
        for i in 0..self.enemies.len() {
            let here = self.enemies[i];
            if here == player {
                self.enemies[i] = self.random_open();
            } else if let Some(next) = self.steps[i].and_then(|d| here.step(d)) {
                self.enemies[i] = next;
                moved += 1;
            }
        }
        self.sync_positions();
        moved
    }

    /// The mean distance from the first `sample` enemies to `player` (reachable ones only).
    #[must_use]
    pub fn mean_distance(&self, player: Cell, sample: usize) -> f64 {
        let distances: Vec<f64> =
            self.enemies.iter().take(sample).filter_map(|&c| self.oracle.distance(c, player)).collect();
        if distances.is_empty() { 0.0 } else { distances.iter().sum::<f64>() / distances.len() as f64 }
    }

    /// One A* search from each of the first `sample` enemies to `player`, as a game without a
    /// table would run every tick; returns how many found a path.
    pub fn astar(&mut self, player: Cell, sample: usize) -> usize {
        let mut found = 0;
        for i in 0..sample.min(self.enemies.len()) {
            let route = self.searcher.astar(
                &self.tiles,
                Layer::WALKABLE,
                Connectivity::Eight,
                self.enemies[i],
                player,
            );
            found += usize::from(route.is_ok_and(|r| r.path().is_some()));
        }
        found
    }

    /// Opens a blocked cell or blocks an open one, the table repaired in place; enemies on a
    /// cell that closes start again elsewhere. Returns whether the cell is blocked now.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`]; [`Error::Unsupported`] for a compressed table.
    pub fn toggle(&mut self, cell: Cell) -> Result<bool, Error> {
        let blocked = self.oracle.grid().is_passable(cell);
        self.oracle.set_blocked(cell, blocked)?;
        self.repairs += 1;
        let grid = self.oracle.grid();
        self.cells[(cell.y * grid.width() + cell.x) as usize] = u8::from(!blocked);
        self.tiles = TileGrid::from_grid(grid);
        self.open = open_cells(grid);
        for i in 0..self.enemies.len() {
            if self.enemies[i] == cell && blocked {
                self.enemies[i] = self.random_open();
            }
        }
        self.sync_positions();
        Ok(blocked)
    }
}

/// The second mode: the map's navigation mesh and its rooms oracle, and a crowd that moves in
/// continuous space, straight toward each [`Rooms::next_waypoint`].
#[derive(Debug)]
pub struct RoomsGame {
    rooms: Rooms,
    /// Each region's corner count, then its corners' `x, y` (for drawing).
    outlines: Vec<f32>,
    enemies: Vec<Point>,
    positions: Vec<f32>,
    open: Vec<Cell>,
    seed: u64,
    scratch: Scratch,
}

impl RoomsGame {
    /// The rooms of `grid` (cell units: cell `(x, y)` spans `[x, x + 1] × [y, y + 1]`).
    ///
    /// # Errors
    /// As [`NavMesh::from_grid`] and [`Rooms::build`].
    pub fn new(grid: &Grid) -> Result<RoomsGame, signposts_rooms::Error> {
        let mesh = NavMesh::from_grid(grid)?;
        let rooms = Rooms::build(&mesh)?;
        let mut outlines = Vec::new();
        for r in 0..mesh.regions_len() as u32 {
            let polygon = mesh.polygon(signposts_rooms::RegionId(r));
            outlines.push(polygon.len() as f32);
            outlines.extend(polygon.flat_map(|p| [p.x as f32, p.y as f32]));
        }
        Ok(RoomsGame {
            rooms,
            outlines,
            enemies: Vec::new(),
            positions: Vec::new(),
            open: open_cells(grid),
            seed: 0x2545_f491_4f6c_dd1d,
            scratch: Scratch::default(),
        })
    }

    /// The rooms oracle.
    #[must_use]
    pub fn rooms(&self) -> &Rooms {
        &self.rooms
    }

    /// The enemies' positions.
    #[must_use]
    pub fn enemies(&self) -> &[Point] {
        &self.enemies
    }

    /// Sets the number of enemies, new ones at the centres of random open cells.
    pub fn set_enemies(&mut self, count: usize) {
        if self.open.is_empty() {
            return;
        }
        self.enemies.truncate(count);
        while self.enemies.len() < count {
            self.seed ^= self.seed << 13;
            self.seed ^= self.seed >> 7;
            self.seed ^= self.seed << 17;
            let c = self.open[(self.seed % self.open.len() as u64) as usize];
            self.enemies.push(Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5));
        }
        self.sync_positions();
    }

    fn sync_positions(&mut self) {
        self.positions.clear();
        self.positions.extend(self.enemies.iter().flat_map(|p| [p.x as f32, p.y as f32]));
    }

    /// Every enemy walks `stride` map units toward `player`, straight to each waypoint of its
    /// path (turning at as many waypoints as the stride reaches). Returns how many moved.
    pub fn tick(&mut self, player: Point, stride: f64) -> usize {
        let mut moved = 0;
        for i in 0..self.enemies.len() {
            let (mut here, mut left) = (self.enemies[i], stride);
            for _ in 0..4 {
                let Some(to) = self.rooms.next_waypoint_with(here, player, &mut self.scratch) else { break };
                let gap = here.distance(to);
                if gap > left {
                    let t = left / gap;
                    here = Point::new(here.x + (to.x - here.x) * t, here.y + (to.y - here.y) * t);
                    break;
                }
                here = to;
                left -= gap;
            }
            moved += usize::from(here != self.enemies[i]);
            self.enemies[i] = here;
        }
        self.sync_positions();
        moved
    }

    /// The mean distance (along the shortest corridor path) from the first `sample` enemies to
    /// `player`.
    #[must_use]
    pub fn mean_distance(&self, player: Point, sample: usize) -> f64 {
        let distances: Vec<f64> =
            self.enemies.iter().take(sample).filter_map(|&p| self.rooms.distance(p, player)).collect();
        if distances.is_empty() { 0.0 } else { distances.iter().sum::<f64>() / distances.len() as f64 }
    }
}

fn open_cells(grid: &Grid) -> Vec<Cell> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect()
}

thread_local! {
    static GAME: RefCell<Option<Game>> = const { RefCell::new(None) };
    static ROOMS: RefCell<Option<RoomsGame>> = const { RefCell::new(None) };
    static ERROR: RefCell<String> = const { RefCell::new(String::new()) };
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
fn keep(game: Result<Game, Error>) -> i32 {
    match game {
        Ok(game) => {
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

/// `len` bytes of the module's memory for the page to fill (a `.map` file, a saved table);
/// give them back with [`dealloc`].
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    // A boxed slice is allocated for exactly `len` bytes, which `dealloc` gives back.
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast::<u8>()
}

/// Gives back what [`alloc`] returned.
///
/// # Safety
/// `ptr` and `len` must be those of one [`alloc`] call, not given back before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes the pointer and length of one `alloc`, a boxed slice.
    drop(unsafe { Box::from_raw(core::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Reads `len` bytes at `ptr` (from [`alloc`]).
///
/// # Safety
/// `ptr` must point to `len` initialised bytes.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's promise.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// Loads a Moving AI `.map` file (`len` bytes at `ptr`), or a generated maze when `len` is 0,
/// and builds its table: dense up to `dense_up_to_mib` MiB, compressed above. 0, or -1 with
/// the error in [`error_ptr`].
///
/// # Safety
/// `ptr` must point to `len` initialised bytes (from [`alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn load_map(ptr: *const u8, len: usize, dense_up_to_mib: u32) -> i32 {
    // SAFETY: the caller's promise.
    let bytes = unsafe { bytes(ptr, len) };
    let grid = if bytes.is_empty() {
        Ok(signposts::generate::maze_grid(60, 40, 8, 42))
    } else {
        signposts::grid::parse_map(bytes)
    };
    keep(grid.and_then(|grid| Game::new(&grid, u64::from(dense_up_to_mib) << 20)))
}

/// Loads a table saved by `signposts build` (`len` bytes at `ptr`). 0, or -1 with the error
/// in [`error_ptr`].
///
/// # Safety
/// `ptr` must point to `len` initialised bytes (from [`alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn load_saved(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: the caller's promise.
    keep(Game::load(unsafe { bytes(ptr, len) }))
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

/// Sets the number of enemies.
#[unsafe(no_mangle)]
pub extern "C" fn set_enemies(count: u32) {
    with_game((), |g| g.set_enemies(count as usize));
}

/// The enemies' cells, `x, y` pairs of `u32` (two per enemy).
#[unsafe(no_mangle)]
pub extern "C" fn enemies_ptr() -> *const u32 {
    with_game(core::ptr::null(), |g| g.positions.as_ptr())
}

/// One tick: every enemy steps toward the player's cell. Returns how many stepped.
#[unsafe(no_mangle)]
pub extern "C" fn tick(x: u32, y: u32) -> u32 {
    with_game(0, |g| g.tick(Cell::new(x, y)) as u32)
}

/// The mean distance of the first `sample` enemies to the player's cell.
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
/// compressed table, a cell outside) with the message in [`error_ptr`].
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

/// Repairs done so far.
#[unsafe(no_mangle)]
pub extern "C" fn repairs() -> u32 {
    with_game(0, |g| g.repairs)
}

/// Builds the rooms of the loaded map as it is now (its edits included): 0, or -1 with the
/// error in [`error_ptr`].
#[unsafe(no_mangle)]
pub extern "C" fn rooms_build() -> i32 {
    let built = with_game(None, |g| Some(RoomsGame::new(g.oracle.grid())));
    match built {
        Some(Ok(rooms)) => {
            ROOMS.with(|r| *r.borrow_mut() = Some(rooms));
            0
        }
        Some(Err(error)) => failed(&error),
        None => failed(&"no map is loaded"),
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

/// Sets the number of enemies of the rooms mode.
#[unsafe(no_mangle)]
pub extern "C" fn rooms_set_enemies(count: u32) {
    with_rooms((), |r| r.set_enemies(count as usize));
}

/// The rooms enemies' positions, `x, y` pairs of `f32` (map units).
#[unsafe(no_mangle)]
pub extern "C" fn rooms_enemies_ptr() -> *const f32 {
    with_rooms(core::ptr::null(), |r| r.positions.as_ptr())
}

/// One tick of the rooms mode: every enemy walks `stride` map units toward the player at
/// `(x, y)`. Returns how many moved.
#[unsafe(no_mangle)]
pub extern "C" fn rooms_tick(x: f64, y: f64, stride: f64) -> u32 {
    with_rooms(0, |r| r.tick(Point::new(x, y), stride) as u32)
}

/// The mean path length from the first `sample` rooms enemies to the player at `(x, y)`.
#[unsafe(no_mangle)]
pub extern "C" fn rooms_mean_distance(x: f64, y: f64, sample: u32) -> f64 {
    with_rooms(0.0, |r| r.mean_distance(Point::new(x, y), sample as usize))
}
