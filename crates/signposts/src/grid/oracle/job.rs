//! Cells opened and closed with the repair spread over calls: [`GridRepairJob`].

use super::{Cell, Error, Grid, GridOracle, NO_NODE, Table};
use crate::dynamic::{Budget, RepairJob, Update};
use crate::{Graph, GraphBuilder, Progress};

/// [`GridOracle::apply`] done a [`Budget`] at a time: see [`GridOracle::apply_job`]. It holds
/// the edited grid and a copy of the table it repairs; [`GridRepairJob::finish`] returns the
/// repaired oracle.
#[derive(Debug)]
pub struct GridRepairJob {
    /// The oracle after the edits, its table out (in `work`) while the job runs.
    oracle: GridOracle,
    work: Work,
}

#[derive(Debug)]
enum Work {
    /// The dense table's repair.
    Repair(Box<RepairJob>),
    /// A cell opened that has no node: a build of the edited grid, one unit.
    Rebuild,
    Done(Update),
    Failed(Error),
}

/// A table of no nodes: the place of the one a job holds.
fn empty() -> Table {
    Table::Dense(GraphBuilder::new(0).build())
}

impl GridOracle {
    /// [`GridOracle::set_blocked`] as a job; see [`GridOracle::apply_job`].
    ///
    /// # Errors
    /// As [`GridOracle::apply_job`].
    pub fn set_blocked_job(&self, cell: Cell, blocked: bool) -> Result<GridRepairJob, Error> {
        self.apply_job(&[(cell, blocked)])
    }

    /// [`GridOracle::apply`] spread over calls: checks the edits and returns a job that
    /// repairs a copy of the table a [`Budget`] at a time ([`GridRepairJob::step`]). This
    /// oracle does not change: it answers as before the edits while the job runs. Moves into
    /// a cell closed since, or diagonals past it, are then the caller's to filter out
    /// ([`GridRepairJob::grid`] is the map as the edits leave it); [`GridRepairJob::finish`]
    /// returns the repaired oracle to swap in, which answers exactly as
    /// [`GridOracle::apply`]'s. A cell opened that has no node (blocked when the table was
    /// built) rebuilds the table, in one part of the repair (not cut).
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`] for a cell outside the grid, [`Error::Unsupported`] for a
    /// compressed oracle: nothing is done then.
    ///
    /// ```
    /// use signposts::dynamic::Budget;
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let mut oracle = GridOracle::build(&Grid::new(5, 3), Connectivity::Four)?;
    /// let (from, to) = (Cell::new(1, 1), Cell::new(3, 1));
    /// let mut job = oracle.set_blocked_job(Cell::new(2, 1), true)?;
    /// while !job.is_done() {
    ///     job.step(Budget::Work(4)); // a frame's share
    ///     assert_eq!(oracle.distance(from, to), Some(2.0)); // the old table meanwhile
    /// }
    /// oracle = job.finish()?.0;
    /// assert_eq!(oracle.distance(from, to), Some(4.0));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn apply_job(&self, edits: &[(Cell, bool)]) -> Result<GridRepairJob, Error> {
        if let Some(&(cell, _)) = edits.iter().find(|&&(cell, _)| !self.grid.contains(cell)) {
            return Err(self.out_of_bounds(cell));
        }
        let Table::Dense(graph) = &self.table else {
            return Err(Error::Unsupported {
                what: "editing a compressed oracle (build a dense one to edit)",
            });
        };
        let mut grid = self.grid.clone();
        let mut edited = Vec::with_capacity(edits.len());
        let mut rebuild = false;
        for &(cell, blocked) in edits {
            if grid.is_passable(cell) == blocked {
                grid.set_blocked(cell, blocked);
                edited.push(cell);
                rebuild |= !blocked && self.node[grid.index(cell)] == NO_NODE;
            }
        }
        let mut oracle = GridOracle {
            grid,
            connectivity: self.connectivity,
            table: empty(),
            node: self.node.clone(),
            cell: self.cell.clone(),
        };
        if rebuild {
            return Ok(GridRepairJob { oracle, work: Work::Rebuild });
        }
        oracle.table = Table::Dense(graph.clone());
        let changes = oracle.edges_changed(&edited);
        let Table::Dense(graph) = core::mem::replace(&mut oracle.table, empty()) else {
            unreachable!("dense above")
        };
        let job = RepairJob::new(graph, &changes)?;
        Ok(GridRepairJob { oracle, work: Work::Repair(Box::new(job)) })
    }
}

impl GridRepairJob {
    /// The grid as the edits leave it: where the old table's moves are to be checked while
    /// the job runs (a cell closed, a diagonal past it).
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.oracle.grid
    }

    /// Test hook: [`RepairJob::with_unit`] for the table's repair.
    #[cfg(feature = "test-support")]
    #[must_use]
    pub fn with_unit(mut self, steps: usize) -> GridRepairJob {
        if let Work::Repair(job) = self.work {
            self.work = Work::Repair(Box::new(job.with_unit(steps)));
        }
        self
    }

    /// Whether the repair is over: [`GridRepairJob::finish`] returns the repaired oracle.
    #[must_use]
    pub fn is_done(&self) -> bool {
        matches!(self.work, Work::Done(_) | Work::Failed(_))
            || matches!(&self.work, Work::Repair(job) if job.is_done())
    }

    /// How far the job has come, in parts (see [`RepairJob::progress`]).
    #[must_use]
    pub fn progress(&self) -> Progress {
        match &self.work {
            Work::Repair(job) => job.progress(),
            Work::Rebuild => Progress::new(0, 1),
            Work::Done(_) | Work::Failed(_) => Progress::new(1, 1),
        }
    }

    /// Does the next work within `budget` (see [`RepairJob::step`]).
    pub fn step(&mut self, budget: Budget) -> Progress {
        match &mut self.work {
            Work::Repair(job) => {
                job.step(budget);
            }
            Work::Rebuild => {
                self.work = match GridOracle::build(&self.oracle.grid, self.oracle.connectivity) {
                    Ok(built) => {
                        let update = Update::rebuilt(built.nodes_len());
                        self.oracle = built;
                        Work::Done(update)
                    }
                    Err(e) => Work::Failed(e),
                };
            }
            Work::Done(_) | Work::Failed(_) => {}
        }
        self.progress()
    }

    /// Runs the job to its end and returns the repaired oracle, with what the repair did.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] if a rebuild was needed and did not fit.
    pub fn finish(mut self) -> Result<(GridOracle, Update), Error> {
        while !self.is_done() {
            self.step(Budget::Work(usize::MAX));
        }
        match self.work {
            Work::Repair(job) => {
                let (graph, update): (Graph, Update) = job.finish()?;
                self.oracle.table = Table::Dense(graph);
                Ok((self.oracle, update))
            }
            Work::Done(update) => Ok((self.oracle, update)),
            Work::Failed(e) => Err(e),
            Work::Rebuild => unreachable!("run above"),
        }
    }
}
