//! Walls toggled with the repair spread over frames: [`Game::toggle_job`] starts (or queues)
//! a [`GridRepairJob`], [`Game::repair_step`] advances it by a budget of work each frame, and
//! the enemies keep moving on the table before the edit meanwhile, their moves checked
//! against the map as the latest click left it (never into a closed cell, nor past its
//! corner). The repaired table swaps in when the job ends.

use signposts::Error;
use signposts::dynamic::Budget;
use signposts::grid::{Cell, Grid, GridRepairJob};
use signposts::search::TileGrid;

use crate::{Game, open_cells};

/// A repair under way and the clicks since it started.
#[derive(Debug, Default)]
pub(crate) struct Repair {
    /// The repair of the table, from the table in use.
    job: Option<GridRepairJob>,
    /// Cells clicked while `job` runs, the next job's edits (`true`: closed).
    pending: Vec<(Cell, bool)>,
}

impl Game {
    /// Opens a blocked cell or blocks an open one, as [`Game::toggle`], with the table's
    /// repair spread over [`Game::repair_step`] calls: the map (drawing, [`Game::map`], the
    /// enemies' moves) changes now, the table when the repair ends. A click while a repair
    /// runs waits for it and is repaired next (clicks on one cell meanwhile keep the last).
    /// With avoidance on (the crowd reads the table itself) or a compressed table (its edits
    /// go to an overlay beside its runs), the repair is done at once, as [`Game::toggle`]
    /// does. Returns whether the cell is blocked now.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`]; as [`Game::toggle`] where it repairs at once. Nothing
    /// changes then.
    pub fn toggle_job(&mut self, cell: Cell) -> Result<bool, Error> {
        // The crowd reads the table directly, and a compressed table's edits go to its
        // overlay (no job): those repair at once.
        if self.crowd.is_some() || self.oracle.is_compressed() {
            return self.toggle(cell);
        }
        if !self.map.contains(cell) {
            return Err(Error::CellOutOfBounds {
                x: cell.x,
                y: cell.y,
                width: self.map.width(),
                height: self.map.height(),
            });
        }
        let blocked = self.map.is_passable(cell);
        if self.repair.job.is_some() {
            self.repair.pending.retain(|&(c, _)| c != cell);
            self.repair.pending.push((cell, blocked));
        } else {
            self.repair.job = Some(self.oracle.set_blocked_job(cell, blocked)?);
        }
        self.repairs += 1;
        self.map.set_blocked(cell, blocked);
        self.map_edited(cell, blocked);
        Ok(blocked)
    }

    /// Advances the repair under way by about `units` units of work (at least one; see
    /// [`Budget::Work`]); when it ends, the repaired table takes the old one's place and the
    /// clicks received meanwhile start the next repair. Returns whether a repair is still
    /// under way.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when a rebuild does not fit: the table stays as it was,
    /// and the map goes back to it (the clicks not in it are dropped).
    pub fn repair_step(&mut self, units: usize) -> Result<bool, Error> {
        let Some(job) = &mut self.repair.job else { return Ok(false) };
        job.step(Budget::Work(units.max(1)));
        if !job.is_done() {
            return Ok(true);
        }
        let Some(job) = self.repair.job.take() else { return Ok(false) };
        match job.finish() {
            Ok((oracle, _)) => self.oracle = oracle,
            Err(error) => {
                self.repair.pending.clear();
                self.map = self.oracle.grid().clone();
                self.map_edited_all();
                return Err(error);
            }
        }
        if !self.repair.pending.is_empty() {
            let edits = core::mem::take(&mut self.repair.pending);
            self.repair.job = Some(self.oracle.apply_job(&edits)?);
        }
        Ok(self.repair.job.is_some())
    }

    /// Runs the repair under way (and the clicks queued behind it) to its end at once.
    ///
    /// # Errors
    /// As [`Game::repair_step`].
    pub fn finish_repair(&mut self) -> Result<(), Error> {
        while self.repair_step(usize::MAX)? {}
        Ok(())
    }

    /// Whether a repair is under way ([`Game::toggle_job`]): the table lags behind the map.
    #[must_use]
    pub fn repairing(&self) -> bool {
        self.repair.job.is_some()
    }

    /// The repair under way's parts done and in all (as far as known), or `(0, 0)`.
    #[must_use]
    pub fn repair_progress(&self) -> (usize, usize) {
        self.repair.job.as_ref().map_or((0, 0), |job| {
            let p = job.progress();
            (p.done, p.total)
        })
    }

    /// The map as the latest click left it (the table may lag behind it while a repair runs).
    #[must_use]
    pub fn map(&self) -> &Grid {
        &self.map
    }

    /// After `cell` changed in `map`: the drawing, the A* tiles, the open cells; the enemies
    /// on a cell that closed start again at a random open cell (removed when it was the last).
    fn map_edited(&mut self, cell: Cell, blocked: bool) {
        self.cells[(cell.y * self.map.width() + cell.x) as usize] = u8::from(!blocked);
        self.tiles = TileGrid::from_grid(&self.map);
        self.open = open_cells(&self.map);
        if blocked {
            for i in 0..self.enemies.len() {
                if self.enemies[i] == cell {
                    self.enemies[i] = self.random_open().unwrap_or(cell);
                }
            }
            self.enemies.retain(|&e| e != cell);
        }
        self.sync_positions();
    }

    /// After `map` went back to the table's grid: every cell drawn again, enemies on closed
    /// cells moved.
    fn map_edited_all(&mut self) {
        let closed: Vec<Cell> = (0..self.map.height())
            .flat_map(|y| (0..self.map.width()).map(move |x| Cell::new(x, y)))
            .filter(|&c| {
                let open = self.map.is_passable(c);
                self.cells[(c.y * self.map.width() + c.x) as usize] != u8::from(open)
            })
            .collect();
        for cell in closed {
            let blocked = !self.map.is_passable(cell);
            self.map_edited(cell, blocked);
        }
    }

    /// While a repair runs: each enemy's step, from the table before the edit, kept only if
    /// the map allows it now; else another optimal move it allows; else none (it waits).
    pub(crate) fn filter_steps(&mut self, player: Cell) {
        if self.repair.job.is_none() {
            return;
        }
        for (i, step) in self.steps.iter_mut().enumerate() {
            let here = self.enemies[i];
            if step.is_some_and(|d| self.map.step(here, d).is_some()) {
                continue;
            }
            *step = self.oracle.next_steps(here, player).find(|&d| self.map.step(here, d).is_some());
        }
    }
}
