//! The chase in a web page: the core compiled to `wasm32-unknown-unknown`, exported as plain
//! `extern "C"` functions that `web/chase.js` calls (about a hundred lines of JavaScript, no
//! `wasm-bindgen`: its command-line tool would be one more `cargo install` in CI, and the page
//! passes only numbers and byte buffers).
//!
//! [`Game`] holds the map, its table and the enemies; the [`exports`] wrap one game kept in
//! a thread-local (each instance of the module has one thread: the page's, or a build
//! worker's). Buffers cross the boundary as pointers into the module's memory: the page copies
//! a `.map` file in through [`alloc`](exports::alloc), and reads the map's cells and the
//! enemies' positions through views of the pointers [`cells_ptr`](exports::cells_ptr) and
//! [`enemies_ptr`](exports::enemies_ptr) return (valid until the next call that changes them).
//!
//! No export panics or aborts on any argument: a failure is an error code with its message in
//! [`error_ptr`](exports::error_ptr), a count past its limit is clamped ([`MAX_ENEMIES`]),
//! memory that cannot be had is an error ([`Error::AllocationFailed`]), not an abort.
//!
//! With avoidance on ([`Game::set_avoid`], [`RoomsGame::set_avoid`]) the enemies stop sharing
//! cells: in the grid mode they are a `signposts_crowd` [`GridCrowd`](signposts_crowd::grid::GridCrowd)
//! (one enemy a cell), in the rooms mode its [`Agents`](signposts_crowd::agents::Agents) (discs
//! kept apart by reciprocal avoidance).

mod avoid;
pub mod exports;
mod job;

pub use avoid::AGENT_RADIUS;

use signposts::grid::{Cell, Connectivity, Grid, GridOracle, TableKind};
use signposts::search::{Layer, Searcher, TileGrid};
use signposts::{BuildOptions, Error};
use signposts_rooms::{NavMesh, Point, Rooms, Scratch};

/// The most enemies a game holds (either mode): larger counts are clamped to it. Twice the
/// page's slider; each enemy takes about 50 bytes in the grid mode.
pub const MAX_ENEMIES: usize = 100_000;

/// Room for `total` values in `v`, or [`Error::AllocationFailed`] naming the bytes.
fn reserve<T>(v: &mut Vec<T>, total: usize) -> Result<(), Error> {
    v.try_reserve(total.saturating_sub(v.len()))
        .map_err(|_| Error::AllocationFailed { bytes: (total as u64).saturating_mul(size_of::<T>() as u64) })
}

/// The next of a xorshift sequence.
fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// A random cell of `open`; `None` when it is empty.
fn random_cell(open: &[Cell], seed: &mut u64) -> Option<Cell> {
    if open.is_empty() {
        return None;
    }
    Some(open[(xorshift(seed) % open.len() as u64) as usize])
}

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
    /// With avoidance on: the enemies as walkers at one a cell (`enemies` their cells).
    crowd: Option<signposts_crowd::grid::GridCrowd>,
    /// The map as the latest click left it: the table's grid, or ahead of it while `repair`
    /// runs ([`Game::toggle_job`]).
    map: Grid,
    repair: job::Repair,
}

impl Game {
    /// A game on `grid` (octile moves): the dense table when it fits in `dense_up_to` bytes,
    /// the compressed one otherwise.
    ///
    /// # Errors
    /// As [`BuildOptions::build_grid`].
    pub fn new(grid: &Grid, dense_up_to: u64) -> Result<Game, Error> {
        let kind = TableKind::for_memory(grid, Connectivity::Eight, dense_up_to);
        Game::build(grid, kind, &BuildOptions::new())
    }

    /// A game on `grid` (octile moves) with a table of `kind`, built with `options` (progress,
    /// memory limit, cancel).
    ///
    /// # Errors
    /// As [`BuildOptions::build_grid`].
    pub fn build(grid: &Grid, kind: TableKind, options: &BuildOptions<'_>) -> Result<Game, Error> {
        Ok(Game::from_oracle(options.build_grid(grid, Connectivity::Eight, kind)?))
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
        let map = grid.clone();
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
            crowd: None,
            map,
            repair: job::Repair::default(),
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

    /// The bytes a dense table of the map (as it is now) would take, its cell maps included:
    /// what [`TableKind::for_memory`] compares with its budget.
    #[must_use]
    pub fn dense_bytes(&self) -> u64 {
        GridOracle::memory_needed(self.oracle.grid(), Connectivity::Eight)
    }

    /// The map as Moving AI `.map` text (`.` open, `@` blocked), its edits included.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when the text's memory cannot be had.
    pub fn map_text(&self) -> Result<Vec<u8>, Error> {
        let grid = self.oracle.grid();
        let (width, height) = (grid.width() as usize, grid.height() as usize);
        let mut text = Vec::new();
        reserve(&mut text, (width + 1).saturating_mul(height).saturating_add(64))?;
        text.extend_from_slice(format!("type octile\nheight {height}\nwidth {width}\nmap\n").as_bytes());
        for row in self.cells.chunks(width.max(1)) {
            text.extend(row.iter().map(|&open| if open == 1 { b'.' } else { b'@' }));
            text.push(b'\n');
        }
        Ok(text)
    }

    /// The table saved as [`GridOracle::save`] writes it (what [`Game::load`] reads).
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when the bytes' memory cannot be had.
    pub fn save(&self) -> Result<Vec<u8>, Error> {
        let mut bytes = Vec::new();
        // The file is about the table's size: reserved up front, its memory is an error here
        // rather than an abort while writing.
        reserve(&mut bytes, self.oracle.memory_bytes().saturating_add(1 << 10))?;
        self.oracle.save(&mut bytes)?;
        Ok(bytes)
    }

    fn random_open(&mut self) -> Option<Cell> {
        random_cell(&self.open, &mut self.seed)
    }

    /// Sets the number of enemies, clamped to [`MAX_ENEMIES`] (and, with avoidance on, to the
    /// open cells: one enemy a cell): new ones at random open cells (free ones with
    /// avoidance), the last ones removed. A map without an open cell keeps none. Returns the
    /// number of enemies now.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when the memory for the new ones (their cells, positions
    /// and a tick's queries) cannot be had; the enemies are then as before.
    pub fn set_enemies(&mut self, count: usize) -> Result<usize, Error> {
        let mut count = if self.open.is_empty() { 0 } else { count.min(MAX_ENEMIES) };
        if self.crowd.is_some() {
            count = count.min(self.open.len());
        }
        reserve(&mut self.enemies, count)?;
        reserve(&mut self.positions, 2 * count)?;
        reserve(&mut self.queries, count)?;
        reserve(&mut self.steps, count)?;
        if self.crowd.is_some() {
            self.crowd_resize(count)?;
            return Ok(self.enemies.len());
        }
        self.enemies.truncate(count);
        while self.enemies.len() < count {
            let Some(cell) = self.random_open() else { break };
            self.enemies.push(cell);
        }
        self.sync_positions();
        Ok(self.enemies.len())
    }

    fn sync_positions(&mut self) {
        self.positions.clear();
        self.positions.extend(self.enemies.iter().flat_map(|c| [c.x, c.y]));
    }

    /// Every enemy takes one optimal step toward `player` (one batched query, ties spread by
    /// each enemy's index); an enemy on the player's cell starts again at a random open cell.
    /// A player outside the map or on a blocked cell is out of reach: no one steps. Returns
    /// how many stepped. With avoidance on, see [`Game::set_avoid`].
    pub fn tick(&mut self, player: Cell) -> usize {
        if self.crowd.is_some() {
            return self.crowd_tick(player);
        }
        self.queries.clear();
        self.queries.extend(self.enemies.iter().enumerate().map(|(i, &c)| (c, player, i as u64)));
        self.oracle.next_step_each_spread(&self.queries, &mut self.steps);
        self.filter_steps(player);
        let mut moved = 0;
        for i in 0..self.enemies.len() {
            let here = self.enemies[i];
            if here == player {
                self.enemies[i] = self.random_open().unwrap_or(here);
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
    /// cell that closes start again at a random open cell, or are removed when it was the
    /// last open cell (with avoidance on: to a free open cell, removed when none is free).
    /// Returns whether the cell is blocked now. A repair under way ([`Game::toggle_job`])
    /// is finished first.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`]; as [`Game::repair_step`].
    pub fn toggle(&mut self, cell: Cell) -> Result<bool, Error> {
        // A repair under way ([`Game::toggle_job`]) ends first.
        self.finish_repair()?;
        let blocked = self.oracle.grid().is_passable(cell);
        let update = self.oracle.set_blocked(cell, blocked)?;
        self.repairs += 1;
        let grid = self.oracle.grid();
        self.map = grid.clone();
        self.cells[(cell.y * grid.width() + cell.x) as usize] = u8::from(!blocked);
        self.tiles = TileGrid::from_grid(grid);
        self.open = open_cells(grid);
        if self.crowd.is_some() {
            self.crowd_edited(cell, blocked, update.rebuilt);
        } else if blocked {
            for i in 0..self.enemies.len() {
                if self.enemies[i] == cell {
                    self.enemies[i] = self.random_open().unwrap_or(cell);
                }
            }
            // The last open cell closed: nowhere to go.
            self.enemies.retain(|&e| e != cell);
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
    /// With avoidance on: the enemies as agents of radius [`AGENT_RADIUS`], their shared goal
    /// (the player) and the last step's stats.
    agents: Option<avoid::RoomsCrowd>,
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
            agents: None,
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

    /// Sets the number of enemies, clamped to [`MAX_ENEMIES`] (and, with avoidance on, to the
    /// number of open cells), new ones at the centres of random open cells. A map without an
    /// open cell keeps none. Returns the number now.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when the memory for the new ones cannot be had; the
    /// enemies are then as before.
    pub fn set_enemies(&mut self, count: usize) -> Result<usize, Error> {
        let mut count = if self.open.is_empty() { 0 } else { count.min(MAX_ENEMIES) };
        if self.agents.is_some() {
            count = count.min(self.open.len());
        }
        reserve(&mut self.enemies, count)?;
        reserve(&mut self.positions, 2 * count)?;
        if self.agents.is_some() {
            self.agents_resize(count)?;
            return Ok(self.enemies.len());
        }
        self.enemies.truncate(count);
        while self.enemies.len() < count {
            let Some(c) = random_cell(&self.open, &mut self.seed) else { break };
            self.enemies.push(Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5));
        }
        self.sync_positions();
        Ok(self.enemies.len())
    }

    fn sync_positions(&mut self) {
        self.positions.clear();
        self.positions.extend(self.enemies.iter().flat_map(|p| [p.x as f32, p.y as f32]));
    }

    /// Every enemy walks `stride` map units toward `player`, straight to each waypoint of its
    /// path (turning at as many waypoints as the stride reaches, at most four). A negative or
    /// NaN stride is 0 (no one moves: an enemy never walks away from its waypoint); a player
    /// at a non-finite point is out of reach. Returns how many moved. With avoidance on, see
    /// [`RoomsGame::set_avoid`].
    pub fn tick(&mut self, player: Point, stride: f64) -> usize {
        // `max` gives 0 for NaN too.
        let stride = stride.max(0.0);
        if stride == 0.0 || !(player.x.is_finite() && player.y.is_finite()) {
            return 0;
        }
        if self.agents.is_some() {
            return self.agents_tick(player, stride);
        }
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
