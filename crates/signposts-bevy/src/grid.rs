//! [`NavGrid`]: a tile map's table, built, loaded and repaired off the main thread.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use bevy::ecs::message::{Message, MessageReader, MessageWriter};
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use signposts::grid::{Cell, Connectivity, Grid, GridOracle, TableKind};
use signposts::{BuildOptions, Error};

use crate::agents::NavSettings;
use crate::work::{NavStatus, Work};
use crate::{NavError, NavFailure, NavMap, NavReady};

/// Which table a [`NavGrid`] builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NavTable {
    /// Dense when its table fits in [`NavSettings::dense_up_to`] bytes, compressed otherwise
    /// (the `signposts` command-line tool's choice).
    #[default]
    Auto,
    /// Every optimal move, one load a query, repaired in place by [`SetBlocked`].
    Dense,
    /// Runs of first moves: a fraction of the memory on large maps; a [`SetBlocked`] rebuilds
    /// it (off the main thread, as every build).
    Compressed,
}

/// Opens (`blocked: false`) or closes a cell of the [`NavGrid`]: a door, a wall built or
/// blown up.
///
/// Applied off the main thread to a second copy of the table, then swapped in
/// ([`TableSwapped`]). Until then walkers step on the table as it was, but never into a cell
/// closed by an edit already received. Edits of one cell within a frame keep the last.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetBlocked {
    /// The cell (map coordinates).
    pub cell: Cell,
    /// Closed when true.
    pub blocked: bool,
}

/// A repaired table is in use ([`NavGrid`] after [`SetBlocked`], [`NavRooms`](crate::NavRooms)
/// after [`SetDoorOpen`](crate::SetDoorOpen) or [`SetLinkOpen`](crate::SetLinkOpen)): every
/// edit received before the repair started is in it now.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct TableSwapped {
    /// The grid or the rooms.
    pub map: NavMap,
    /// The map's version after the swap ([`NavGrid::version`], [`NavRooms::version`](crate::NavRooms::version)).
    pub version: u64,
    /// Cells whose state the repair changed.
    pub edits: usize,
    /// Whether the table was rebuilt rather than repaired in place (a compressed table; a cell
    /// opened that was blocked when the table was built; the exact rooms index given more than
    /// four door edits at once).
    pub rebuilt: bool,
    /// Seconds the repair took, off the main thread.
    pub seconds: f32,
}

/// Where the table comes from.
#[derive(Debug, Clone)]
enum Source {
    Grid(Grid),
    MapFile(PathBuf),
    Saved(PathBuf),
}

/// What a build task returns.
struct Built {
    oracle: GridOracle,
    loaded: bool,
    seconds: f32,
}

/// What a repair task returns.
struct Repaired {
    oracle: GridOracle,
    /// The edits applied (the spare copy lacks them after the swap).
    batch: Vec<(Cell, bool)>,
    edits: usize,
    rebuilt: bool,
    seconds: f32,
}

/// A hook called on the repair thread before each repair: for tests that hold a repair.
type RepairHook = Arc<dyn Fn() + Send + Sync>;

/// A tile map and its first-move table: the map of [`Chaser`](crate::Chaser),
/// [`Fleeing`](crate::Fleeing) and [`GoTo`](crate::GoTo) walkers.
///
/// Memory: a dense table is [`GridOracle::memory_needed`]; from the first [`SetBlocked`] on
/// the grid keeps a second copy for repairs (twice the table), and a repair that rebuilds
/// holds a third while it runs.
///
/// Insert it as a resource; the plugin builds (or loads) its table off the main thread.
/// Cell `(x, y)` (column `x`, row `y`, row 0 first in a `.map` file) has its centre at
/// `origin + ((x + ½)·size, −(y + ½)·size)`: `origin` is the map's top-left corner and rows go
/// down the screen (Bevy's `y` points up), as the file draws them.
///
/// ```
/// use bevy::math::Vec2;
/// use signposts::grid::{Cell, Connectivity, Grid};
/// use signposts_bevy::{NavGrid, NavStatus, NavTable};
///
/// let nav = NavGrid::from_grid(Grid::new(64, 64), Connectivity::Eight)
///     .with_cell_size(16.0)
///     .with_origin(Vec2::new(-512.0, 512.0))
///     .with_table(NavTable::Dense);
/// assert_eq!(nav.status(), NavStatus::Waiting);
/// assert_eq!(nav.cell_center(Cell::new(0, 0)), Vec2::new(-504.0, 504.0));
/// assert_eq!(nav.cell_at(Vec2::new(-500.0, 490.0)), Some(Cell::new(0, 1)));
/// assert_eq!(nav.cell_at(Vec2::new(-513.0, 0.0)), None); // left of the map
/// ```
#[derive(Resource)]
pub struct NavGrid {
    /// Tells this map from the ones before it (the grid crowd is made anew for each).
    id: u64,
    connectivity: Connectivity,
    cell_size: f32,
    origin: Vec2,
    table: NavTable,
    memory_limit: Option<u64>,
    /// Taken when the build starts.
    source: Option<Source>,
    /// The map as the latest edit left it (the live table may lag behind).
    map: Option<Grid>,
    live: Option<Arc<GridOracle>>,
    /// The table before the last repair, lacking `behind`: the next repair's copy.
    spare: Option<GridOracle>,
    behind: Vec<(Cell, bool)>,
    /// Edits received and not yet given to a repair, the last of each cell.
    pending: Vec<(Cell, bool)>,
    work: Work<Result<Built, (String, Error)>, Result<Repaired, Error>>,
    /// Changes of `map`: walkers re-check their steps when it moves.
    generation: u64,
    hook: Option<RepairHook>,
}

impl NavGrid {
    fn with_source(source: Source, connectivity: Connectivity) -> NavGrid {
        static MAPS: AtomicU64 = AtomicU64::new(0);
        NavGrid {
            id: MAPS.fetch_add(1, Ordering::Relaxed),
            connectivity,
            cell_size: 1.0,
            origin: Vec2::ZERO,
            table: NavTable::Auto,
            memory_limit: None,
            map: match &source {
                Source::Grid(grid) => Some(grid.clone()),
                Source::MapFile(_) | Source::Saved(_) => None,
            },
            source: Some(source),
            live: None,
            spare: None,
            behind: Vec::new(),
            pending: Vec::new(),
            work: Work::new(),
            generation: 0,
            hook: None,
        }
    }

    /// The map of `grid`, with `connectivity`'s moves (octile: diagonals cost √2, no corner
    /// cutting).
    #[must_use]
    pub fn from_grid(grid: Grid, connectivity: Connectivity) -> NavGrid {
        NavGrid::with_source(Source::Grid(grid), connectivity)
    }

    /// The map in a Moving AI `.map` file, read and parsed off the main thread; a missing or
    /// malformed file is a [`NavError`] naming the file (and the line and column).
    #[must_use]
    pub fn from_map_file(path: impl Into<PathBuf>, connectivity: Connectivity) -> NavGrid {
        NavGrid::with_source(Source::MapFile(path.into()), connectivity)
    }

    /// A table saved by `signposts build` (or [`GridOracle::save_to`]), loaded off the main
    /// thread instead of built: the map, its moves and the table are the file's.
    #[must_use]
    pub fn load(path: impl Into<PathBuf>) -> NavGrid {
        NavGrid::with_source(Source::Saved(path.into()), Connectivity::Eight)
    }

    /// World units per cell (default 1).
    #[must_use]
    pub fn with_cell_size(mut self, size: f32) -> NavGrid {
        self.cell_size = size;
        self
    }

    /// The world position of the map's top-left corner (default the origin).
    #[must_use]
    pub fn with_origin(mut self, origin: Vec2) -> NavGrid {
        self.origin = origin;
        self
    }

    /// Which table to build (default [`NavTable::Auto`]).
    #[must_use]
    pub fn with_table(mut self, table: NavTable) -> NavGrid {
        self.table = table;
        self
    }

    /// A dense table larger than this is refused with a [`NavError`]
    /// ([`Error::OverMemoryLimit`], before allocating).
    #[must_use]
    pub fn with_memory_limit(mut self, bytes: u64) -> NavGrid {
        self.memory_limit = Some(bytes);
        self
    }

    /// Where the table is at.
    #[must_use]
    pub fn status(&self) -> NavStatus {
        self.work.status
    }

    /// How far the build has come, from 0 to 1 (1 once ready).
    #[must_use]
    pub fn progress(&self) -> f32 {
        self.work.progress()
    }

    /// The live table, once built: every query of [`GridOracle`] (paths, distances, every
    /// optimal step). It lags behind edits being repaired.
    #[must_use]
    pub fn oracle(&self) -> Option<&GridOracle> {
        self.live.as_deref()
    }

    /// The map as the latest [`SetBlocked`] left it (known once a file is read).
    #[must_use]
    pub fn map(&self) -> Option<&Grid> {
        self.map.as_ref()
    }

    /// The moves the table was (or will be) built for.
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.live.as_ref().map_or(self.connectivity, |oracle| oracle.connectivity())
    }

    /// World units per cell.
    #[must_use]
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// The world position of the map's top-left corner.
    #[must_use]
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// The world position of a cell's centre.
    #[must_use]
    pub fn cell_center(&self, cell: Cell) -> Vec2 {
        self.origin + Vec2::new(cell.x as f32 + 0.5, -(cell.y as f32 + 0.5)) * self.cell_size
    }

    /// The cell at a world position: `None` outside the map or before the map is known.
    #[must_use]
    pub fn cell_at(&self, position: Vec2) -> Option<Cell> {
        let local = (position - self.origin) / self.cell_size;
        let (x, y) = (local.x.floor(), (-local.y).floor());
        if !(x >= 0.0 && y >= 0.0) {
            return None; // left of or above the map, or NaN
        }
        // Both are whole and not negative: the casts saturate at `u32::MAX`, outside every map.
        #[expect(clippy::cast_sign_loss, reason = "checked not negative above")]
        let cell = Cell::new(x as u32, y as u32);
        let map = self.map.as_ref()?;
        map.contains(cell).then_some(cell)
    }

    /// Whether every edit received is in the live table: no repair running or waiting.
    #[must_use]
    pub fn is_up_to_date(&self) -> bool {
        !self.work.repairing() && self.pending.is_empty()
    }

    /// How many repaired tables have been swapped in.
    #[must_use]
    pub fn version(&self) -> u64 {
        self.work.version
    }

    /// Stops the build or repair under way (at its next batch of targets). A cancelled build
    /// leaves the grid [`NavStatus::Failed`]; a cancelled repair drops its edits: the map goes
    /// back to the live table's, with the edits received since (not yet repaired) kept.
    pub fn cancel(&mut self) {
        if self.work.cancel() {
            self.drop_repair();
        }
    }

    /// After a repair that will not land: no spare copy, and the map is the live table's with
    /// the pending edits.
    fn drop_repair(&mut self) {
        self.spare = None;
        self.behind.clear();
        if let Some(live) = &self.live {
            let mut map = live.grid().clone();
            for &(cell, blocked) in &self.pending {
                map.set_blocked(cell, blocked);
            }
            self.map = Some(map);
            self.generation += 1;
        }
    }

    /// Calls `hook` on the repair thread before each repair (tests hold a repair with it).
    /// Feature `test-support` only: not for users.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    pub fn on_repair_start(&mut self, hook: impl Fn() + Send + Sync + 'static) {
        self.hook = Some(Arc::new(hook));
    }

    /// This map's number among those made in the process.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// A counter that moves whenever the map changes (an edit received, a repair dropped).
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether `cell` is open in the map as the latest [`SetBlocked`] left it (false outside
    /// the map and before it is known): walkers never step into a cell where this is false.
    #[must_use]
    pub fn is_open(&self, cell: Cell) -> bool {
        self.map.as_ref().is_some_and(|map| map.is_passable(cell))
    }

    fn start_build(&mut self, dense_up_to: u64) {
        let Some(source) = self.source.take() else { return };
        let (connectivity, choice, limit) = (self.connectivity, self.table, self.memory_limit);
        self.work.start_build(|token, progress| async move {
            let start = Instant::now();
            let grid = match source {
                Source::Grid(grid) => grid,
                Source::MapFile(path) => {
                    let bytes = std::fs::read(&path)
                        .map_err(|e| (format!("cannot read map file {}", path.display()), Error::from(e)))?;
                    signposts::grid::parse_map(&bytes)
                        .map_err(|e| (format!("malformed map file {}", path.display()), e))?
                }
                Source::Saved(path) => {
                    let oracle = GridOracle::load_from(&path)
                        .map_err(|e| (format!("cannot load saved table {}", path.display()), e))?;
                    return Ok(Built { oracle, loaded: true, seconds: start.elapsed().as_secs_f32() });
                }
            };
            let kind = match choice {
                NavTable::Auto => {
                    TableKind::for_memory(&grid, connectivity, dense_up_to.min(limit.unwrap_or(u64::MAX)))
                }
                NavTable::Dense => TableKind::Dense,
                NavTable::Compressed => TableKind::Compressed,
            };
            let mut options = BuildOptions::new();
            options.progress(|p| progress.report(p.fraction() as f32)).cancel(&token);
            if let Some(limit) = limit {
                options.memory_limit(limit);
            }
            let oracle = options
                .build_grid(&grid, connectivity, kind)
                .map_err(|e| ("cannot build the table".to_owned(), e))?;
            Ok(Built { oracle, loaded: false, seconds: start.elapsed().as_secs_f32() })
        });
    }

    /// Takes the build's result when it is done.
    fn poll_build(&mut self, ready: &mut MessageWriter<NavReady>, errors: &mut MessageWriter<NavError>) {
        let Some(result) = self.work.poll_build() else { return };
        match result {
            Ok(Built { oracle, loaded, seconds }) => {
                let mut map = oracle.grid().clone();
                // Edits received while building (before the map was known, for a file).
                self.pending.retain(|&(cell, blocked)| {
                    let inside = map.contains(cell);
                    if inside {
                        map.set_blocked(cell, blocked);
                    } else {
                        errors.write(out_of_map(cell, &map));
                    }
                    inside
                });
                self.map = Some(map);
                self.generation += 1;
                self.connectivity = oracle.connectivity();
                ready.write(NavReady {
                    map: NavMap::Grid,
                    nodes: oracle.nodes_len(),
                    memory_bytes: oracle.memory_bytes(),
                    loaded,
                    seconds,
                });
                self.live = Some(Arc::new(oracle));
                self.work.status = NavStatus::Ready;
            }
            Err((what, error)) => {
                self.work.status = NavStatus::Failed;
                errors.write(NavError::logged(
                    NavMap::Grid,
                    format!("{what}: {error}"),
                    NavFailure::Core(error),
                ));
            }
        }
    }

    /// Takes in one edit: the map changes now, the table when a repair swaps in.
    fn receive(&mut self, edit: SetBlocked, errors: &mut MessageWriter<NavError>) {
        if let Some(map) = self.map.as_mut() {
            if !map.contains(edit.cell) {
                errors.write(out_of_map(edit.cell, map));
                return;
            }
            map.set_blocked(edit.cell, edit.blocked);
            self.generation += 1;
        }
        match self.pending.iter_mut().find(|(cell, _)| *cell == edit.cell) {
            Some(slot) => slot.1 = edit.blocked,
            None => self.pending.push((edit.cell, edit.blocked)),
        }
    }

    /// Starts a repair of the pending edits when none is running.
    fn start_repair(&mut self) {
        if self.work.repairing() || self.pending.is_empty() {
            return;
        }
        let Some(live) = self.live.clone() else { return };
        let batch = std::mem::take(&mut self.pending);
        let (spare, behind) = (self.spare.take(), std::mem::take(&mut self.behind));
        let hook = self.hook.clone();
        self.work.start_repair(|token| async move {
            if let Some(hook) = hook {
                hook();
            }
            let start = Instant::now();
            if live.is_compressed() {
                // Compressed tables are not edited in place: rebuild from the edited map.
                let mut grid = live.grid().clone();
                let edits =
                    batch.iter().filter(|&&(cell, blocked)| grid.is_passable(cell) == blocked).count();
                for &(cell, blocked) in &batch {
                    grid.set_blocked(cell, blocked);
                }
                let oracle = BuildOptions::new().cancel(&token).build_grid(
                    &grid,
                    live.connectivity(),
                    TableKind::Compressed,
                )?;
                return Ok(Repaired {
                    oracle,
                    batch,
                    edits,
                    rebuilt: true,
                    seconds: start.elapsed().as_secs_f32(),
                });
            }
            // The spare copy (the table before the last repair) catches up, or a fresh copy.
            let mut oracle = match spare {
                Some(mut spare) => {
                    spare.apply(&behind)?;
                    spare
                }
                None => GridOracle::clone(&live),
            };
            drop(live);
            if token.is_cancelled() {
                return Err(Error::Cancelled);
            }
            // One repair for the whole batch (the core shares the work, or rebuilds when that
            // costs less).
            let edits =
                batch.iter().filter(|&&(cell, blocked)| oracle.grid().is_passable(cell) == blocked).count();
            let rebuilt = oracle.apply(&batch)?.rebuilt;
            Ok(Repaired { oracle, batch, edits, rebuilt, seconds: start.elapsed().as_secs_f32() })
        });
    }

    /// Swaps the repaired table in when the repair is done.
    fn poll_repair(
        &mut self,
        swapped: &mut MessageWriter<TableSwapped>,
        errors: &mut MessageWriter<NavError>,
    ) {
        let Some(result) = self.work.poll_repair() else { return };
        match result {
            Ok(Repaired { oracle, batch, edits, rebuilt, seconds }) => {
                let old = self.live.replace(Arc::new(oracle));
                // The old table is the next repair's copy, unless it was compressed.
                self.spare = old.and_then(|old| Arc::try_unwrap(old).ok()).filter(|old| !old.is_compressed());
                self.behind = if self.spare.is_some() { batch } else { Vec::new() };
                self.work.version += 1;
                swapped.write(TableSwapped {
                    map: NavMap::Grid,
                    version: self.work.version,
                    edits,
                    rebuilt,
                    seconds,
                });
            }
            Err(error) => {
                self.drop_repair();
                errors.write(NavError::logged(
                    NavMap::Grid,
                    format!("cannot repair the table, its edits are dropped: {error}"),
                    NavFailure::Core(error),
                ));
            }
        }
    }
}

fn out_of_map(cell: Cell, map: &Grid) -> NavError {
    let error = Error::CellOutOfBounds { x: cell.x, y: cell.y, width: map.width(), height: map.height() };
    NavError::logged(NavMap::Grid, format!("cannot edit cell {cell}: {error}"), NavFailure::Core(error))
}

/// [`NavSystems::Sync`](crate::NavSystems::Sync) for the grid: starts and polls the build,
/// drains the edits, starts and swaps repairs.
pub(crate) fn sync(
    grid: Option<ResMut<NavGrid>>,
    settings: Res<NavSettings>,
    mut edits: MessageReader<SetBlocked>,
    mut ready: MessageWriter<NavReady>,
    mut swapped: MessageWriter<TableSwapped>,
    mut errors: MessageWriter<NavError>,
) {
    let Some(mut grid) = grid else {
        edits.clear();
        return;
    };
    let grid = &mut *grid; // one borrow of the resource, marked changed
    if grid.work.status == NavStatus::Waiting {
        grid.start_build(settings.dense_up_to);
    }
    grid.poll_build(&mut ready, &mut errors);
    for &edit in edits.read() {
        grid.receive(edit, &mut errors);
    }
    grid.poll_repair(&mut swapped, &mut errors);
    grid.start_repair();
}
