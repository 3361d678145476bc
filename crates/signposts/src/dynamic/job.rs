//! Repairs spread over calls: [`RepairJob`], the repair of [`Graph::apply`] cut into parts (the
//! plan, each column repaired, written or searched) that [`RepairJob::step`] advances a
//! [`Budget`] at a time, on a copy of the table, while the table before the edit keeps
//! answering. A budget of work counts steps (a node out of a queue, an entry written), so
//! that a budget costs about the same time whichever parts it meets; a column's local repair
//! stops where the budget runs out and goes on in the next step.
//!
//! The job goes as [`Graph::apply`] goes (the same plan, the same local repairs, the same
//! searches; the same table at the end), on the calling thread, with two differences:
//!
//! - A job does not give way to a rebuild on cost: its work is cut into units and a rebuild's
//!   is not, so a job goes on with the local repairs and searches where [`Graph::apply`]
//!   would rebuild (a repair that costs a few builds' time, spread over frames, rather than
//!   one frame that waits for a build). Rebuilds that the edit forces (a node outgrows its
//!   entry width, a forest) stay. Either way the table answers as a fresh build's, and where
//!   neither rebuilds the two tables are equal.
//! - The lane repairs of one node opened or blocked on a unit-cost graph (`opened.rs`,
//!   `blocked.rs`), a rebuild, the plan, a column's search or writes are not cut. Nor is a
//!   column's local repair on a unit-cost graph (`repair.rs`). The weighted one (`weighted.rs`:
//!   octile grids, integer weights) stops when the step's budget runs out and goes on in the
//!   next step, its queue and region kept in the job, so that a column whose region is half
//!   the map spreads over several steps.

use core::time::Duration;
use std::collections::BTreeMap;

use super::arcs::Arcs;
use super::clock::{Started, now, since};
use super::driver::{Column, Scratch};
use super::repair::Local;
use super::search::Incoming;
use super::weighted::{Outcome, WeightedLocal};
use super::{Change, Prepared, Start, Update};
use crate::{Error, Graph, NodeId, Progress};

/// How much of a [`RepairJob`] one [`RepairJob::step`] may do. A step always does some work
/// (at least one part of the repair, or a slice of a column's local repair).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Budget {
    /// About this many units of work, a unit being 4,096 steps: a node out of a queue, a
    /// member of a region handled or an entry written (about 0.1 ms natively, under a
    /// millisecond in a browser's WebAssembly). A weighted column's local repair (octile grids,
    /// integer weights) stops where the budget runs out and goes on in the next step; the other
    /// parts are not cut, so a step runs past its budget by one part at most: a search (about
    /// twice as many steps as the graph has nodes), the plan (four times as many), a column's
    /// writes, a unit-cost column's local repair, a lane repair, a rebuild. The same on every
    /// run and platform: what tests and a caller that calibrates its own budget use (each
    /// unit costs about the same, whichever parts the steps meet).
    Work(usize),
    /// Work until this much time has passed (checked after each part, and every unit of a
    /// local repair, so a step may run past it by one). On targets without a clock
    /// (`wasm32-unknown-unknown`) a step does one part or unit: there, time the steps outside
    /// (`performance.now()`) and pass [`Budget::Work`].
    Time(Duration),
}

impl Budget {
    /// Whether a step that started at `started` and has done `steps` (in units of `unit`
    /// steps) may do no more.
    fn spent(self, started: Started, steps: usize, unit: usize) -> bool {
        match self {
            Budget::Work(most) => steps >= most.max(1).saturating_mul(unit),
            Budget::Time(most) => since(started).is_none_or(|took| took >= most),
        }
    }

    /// Steps the next part of a step may take, after `steps`: what is left of a work budget,
    /// a unit for a time budget (whose clock is read between parts).
    fn fuel(self, steps: usize, unit: usize) -> usize {
        match self {
            Budget::Work(most) => most.max(1).saturating_mul(unit).saturating_sub(steps).max(1),
            Budget::Time(_) => unit,
        }
    }
}

/// Steps in a unit of [`Budget::Work`]: a node out of a queue, a member of a region handled, a
/// walk's step, an entry written (each 25–40 ns natively on the web page's maze; a unit about
/// 0.1 ms natively, under a millisecond in a browser's WebAssembly).
const UNIT: usize = 4096;

/// A repair of a [`Graph`]'s table after an edit, done a budget at a time: see
/// [`Graph::repair_job`]. The job owns the copy it repairs; [`RepairJob::finish`] hands it
/// over once [`RepairJob::is_done`].
#[derive(Debug)]
pub struct RepairJob {
    graph: Graph,
    stage: Stage,
    update: Update,
    done: usize,
    total: usize,
    /// Steps in a unit of work ([`UNIT`]).
    unit: usize,
}

/// Where a job is.
#[derive(Debug)]
enum Stage {
    /// The edits, to plan.
    Plan(BTreeMap<usize, Arcs>),
    /// A rebuild, with the edits not yet in the structure.
    Rebuild(BTreeMap<usize, Arcs>),
    Opened(usize, BTreeMap<usize, Arcs>),
    Blocked(usize, BTreeMap<usize, Arcs>),
    /// Local repairs, one column a unit.
    Local(Box<Columns>),
    /// The local repairs' entries written, one column a unit.
    Write(Box<Columns>),
    /// Columns searched, one a unit.
    Search {
        columns: Vec<usize>,
        next: usize,
        value: Vec<u64>,
    },
    Done,
    Failed(Error),
}

/// The local repair's state between steps.
#[expect(clippy::struct_field_names, reason = "the columns of the column repair")]
struct Columns {
    prepared: Prepared,
    /// Columns to repair, in order.
    columns: Vec<usize>,
    next: usize,
    scratch: Scratches,
    /// Each repaired column's new entries `(node, mask)`, one list a column: no one large
    /// list whose growth copies it all within a unit.
    writes: Vec<(usize, Vec<(NodeId, u64)>)>,
    /// Columns left to a search: the first `near` the targets at the edited nodes, then the
    /// ones the local repair could not read.
    failed: Vec<usize>,
    near: usize,
    replayed: usize,
    by_component: Option<Vec<Vec<u32>>>,
}

impl core::fmt::Debug for Columns {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Columns")
            .field("columns", &self.columns.len())
            .field("next", &self.next)
            .field("writes", &self.writes.len())
            .finish_non_exhaustive()
    }
}

/// Where a unit of the local repairs left them.
enum Went {
    /// In the middle of a column (its slice ran out).
    Paused,
    /// At the next column.
    Next,
    /// All repaired.
    Over,
}

/// The job's own scratch, kept between steps.
enum Scratches {
    Unit(Box<Local>),
    Weighted(Box<WeightedLocal>),
}

impl Graph {
    /// [`Graph::apply`] as a job: checks the changes now (nothing is repaired yet) and
    /// returns a [`RepairJob`] that repairs a copy of the table a [`Budget`] at a time.
    /// This graph is not changed: it keeps answering as before the edit while the job runs
    /// (callers filter out the moves the edit forbids), and [`RepairJob::finish`] returns the
    /// repaired graph to put in its place. The result answers exactly as [`Graph::apply`]'s.
    ///
    /// # Errors
    /// As [`Graph::apply`]: [`Error::NodeOutOfRange`] or [`Error::ZeroCost`] for a bad change.
    ///
    /// # Complexity
    /// A copy of the table (O(n²) bits) now; then [`Graph::apply`]'s work, on the calling
    /// thread.
    ///
    /// ```
    /// use signposts::dynamic::{Budget, Change};
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3).connect(0, 3);
    /// let mut graph = b.build();
    /// let mut job = graph.repair_job(&[Change::Disconnect(0, 3)])?;
    /// while !job.step(Budget::Work(1)).fraction().eq(&1.0) {
    ///     assert_eq!(graph.path_to(0, 3).count(), 2); // the old table, until the swap
    /// }
    /// let (repaired, _update) = job.finish()?;
    /// graph = repaired;
    /// assert_eq!(graph.path_to(0, 3).collect::<Vec<_>>(), [0, 1, 2, 3]);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn repair_job(&self, changes: &[Change]) -> Result<RepairJob, Error> {
        RepairJob::new(self.clone(), changes)
    }
}

impl RepairJob {
    /// A job that repairs `graph` (taken as it is: the copy the job edits) after `changes`.
    ///
    /// # Errors
    /// As [`Graph::repair_job`].
    pub fn new(graph: Graph, changes: &[Change]) -> Result<RepairJob, Error> {
        let mut edited = graph.edited_arcs(changes)?;
        edited.retain(|&u, arcs| *arcs != graph.out_arcs(u));
        let stage = if edited.is_empty() { Stage::Done } else { Stage::Plan(edited) };
        let total = usize::from(!matches!(stage, Stage::Done));
        Ok(RepairJob { graph, stage, update: Update::default(), done: 0, total, unit: UNIT })
    }

    /// Test hook: `steps` steps in a unit of [`Budget::Work`] instead of 4,096, so that small
    /// graphs' columns pause and go on too (1: after every step, with a budget of one unit).
    #[cfg(feature = "test-support")]
    #[must_use]
    pub fn with_unit(mut self, steps: usize) -> RepairJob {
        self.unit = steps.max(1);
        self
    }

    /// Whether the repair is over: [`RepairJob::finish`] returns the repaired graph.
    #[must_use]
    pub fn is_done(&self) -> bool {
        matches!(self.stage, Stage::Done | Stage::Failed(_))
    }

    /// How far the job has come, in parts: the plan, each column repaired (each piece of a
    /// column's local repair that a step ended), written or searched. `total` is what is known
    /// to be left plus what is done, and grows as the job learns more (after the plan, after
    /// the local repairs, when a column's repair stops); `done == total` once it
    /// [`is_done`](RepairJob::is_done).
    #[must_use]
    pub fn progress(&self) -> Progress {
        Progress::new(self.done, self.total)
    }

    /// Does the next work, within `budget` (some at least, unless the job is done), and says
    /// how far the job has come. An error (a rebuild that does not fit) ends the job;
    /// [`RepairJob::finish`] returns it.
    pub fn step(&mut self, budget: Budget) -> Progress {
        let started = now();
        let (mut parts, mut steps) = (0, 0);
        while !(self.is_done() || parts > 0 && budget.spent(started, steps, self.unit)) {
            steps += self.part(budget.fuel(steps, self.unit));
            parts += 1;
        }
        self.progress()
    }

    /// Runs the job to its end and returns the repaired graph.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] if a rebuild was needed and did not fit.
    pub fn finish(mut self) -> Result<(Graph, Update), Error> {
        while !self.is_done() {
            self.part(usize::MAX);
        }
        match self.stage {
            Stage::Failed(e) => Err(e),
            _ => Ok((self.graph, self.update)),
        }
    }

    /// The graph the job repairs (its structure edited once planned; its table part old,
    /// part new until done): for its size and structure, not for queries.
    #[must_use]
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// One part of the repair, a local repair for at most `fuel` steps; returns the steps it
    /// took.
    fn part(&mut self, fuel: usize) -> usize {
        self.done += 1;
        // A rebuild, a lane repair: as many steps as the graph has nodes (they are not cut).
        let mut took = self.graph.nodes_len();
        let stage = core::mem::replace(&mut self.stage, Stage::Done);
        self.stage = match stage {
            Stage::Plan(edited) => {
                // The plan reads the edited nodes' entries in every column and searches from
                // the ends of inserted arcs: about four steps' time a node (measured).
                took *= 4;
                match self.graph.start_repair(edited, false) {
                    Start::Rebuild(edited) => Stage::Rebuild(edited),
                    Start::Opened(c, edited) => Stage::Opened(c, edited),
                    Start::Blocked(c, edited) => Stage::Blocked(c, edited),
                    Start::Columns(prepared) => self.columns(prepared),
                }
            }
            Stage::Rebuild(edited) => match self.graph.rebuild(&edited) {
                Ok(update) => self.end(update),
                Err(e) => Stage::Failed(e),
            },
            Stage::Opened(c, edited) => {
                let update = self.graph.repair_opened(c, &edited);
                self.end(update)
            }
            Stage::Blocked(c, edited) => {
                let update = self.graph.repair_blocked(c, &edited);
                self.end(update)
            }
            Stage::Local(mut columns) => match self.local(&mut columns, fuel, &mut took) {
                Went::Paused => {
                    // The column takes one more unit at least.
                    self.total += 1;
                    Stage::Local(columns)
                }
                Went::Next => Stage::Local(columns),
                Went::Over => self.after_local(columns),
            },
            Stage::Write(mut columns) => {
                let (col, writes) = core::mem::take(&mut columns.writes[columns.next]);
                took = writes.len();
                for (u, mask) in writes {
                    self.graph.table.set_entry(u as usize, col, &[mask]);
                }
                columns.next += 1;
                if columns.next < columns.writes.len() {
                    Stage::Write(columns)
                } else {
                    self.searches(*columns)
                }
            }
            Stage::Search { columns, next, mut value } => {
                self.graph.search_column(columns[next], &Incoming::new(), &mut value);
                // A node settled and an entry written for each node.
                took *= 2;
                if next + 1 < columns.len() {
                    Stage::Search { columns, next: next + 1, value }
                } else {
                    self.update.columns = columns.len();
                    self.end(self.update)
                }
            }
            done @ (Stage::Done | Stage::Failed(_)) => {
                self.done -= 1;
                took = 0;
                done
            }
        };
        took.max(1)
    }

    /// The job's end with `update`.
    fn end(&mut self, update: Update) -> Stage {
        self.update = update;
        self.total = self.done;
        Stage::Done
    }

    /// After the plan: the local repairs, or the searches.
    fn columns(&mut self, prepared: Prepared) -> Stage {
        let n = self.graph.nodes_len();
        let scratch = if prepared.unit {
            Scratches::Unit(Box::new(Local::new_scratch(n)))
        } else if prepared.weighted {
            Scratches::Weighted(Box::new(WeightedLocal::new_scratch(n)))
        } else {
            let searched: Vec<usize> = prepared.plan.searches().collect();
            self.update.patched = prepared.patched;
            self.update.rows = prepared.rows;
            return self.search_stage(searched);
        };
        // The targets at the edited nodes have the largest regions (all that lies behind the
        // edit, half the map in a maze): one search each costs a fraction of their local
        // repair, and keeps the job's longest unit short. Their entries are the same either
        // way (exact).
        let (near, columns): (Vec<usize>, Vec<usize>) = prepared
            .plan
            .searches()
            .partition(|&col| prepared.near.contains(&(self.graph.table.order[col] as usize)));
        // Each column repaired, then written; the searches.
        self.total = self.done + 2 * columns.len() + near.len();
        let columns = Columns {
            prepared,
            columns,
            next: 0,
            scratch,
            writes: Vec::new(),
            near: near.len(),
            failed: near,
            replayed: 0,
            by_component: None,
        };
        if columns.columns.is_empty() {
            self.after_local(Box::new(columns))
        } else {
            Stage::Local(Box::new(columns))
        }
    }

    /// Repairs the next column locally, a weighted one for at most `fuel` steps; the steps
    /// it took in `took`.
    fn local(&self, columns: &mut Columns, fuel: usize, took: &mut usize) -> Went {
        let graph = &self.graph;
        let col = columns.columns[columns.next];
        if graph.cut_off(&columns.prepared.plan, col) {
            let by_component = columns.by_component.get_or_insert_with(|| graph.nodes_by_component());
            let mut cut: Vec<u32> =
                columns.prepared.plan.seeds(col).lost.iter().map(|s| graph.component[s.u]).collect();
            cut.sort_unstable();
            cut.dedup();
            let cleared = cut.into_iter().flat_map(|c| by_component[c as usize].iter().map(|&x| (x, 0)));
            columns.writes.push((col, cleared.collect()));
            *took = columns.writes.last().map_or(0, |(_, writes)| writes.len());
        } else {
            let Prepared { plan, ends, inserted, .. } = &columns.prepared;
            let column =
                Column { col, t: graph.table.order[col] as usize, seeds: plan.seeds(col), inserted, ends };
            let (repaired, replays) = match &mut columns.scratch {
                Scratches::Unit(local) => {
                    let (repaired, replays, work) = repair_one(graph, column, local.as_mut());
                    *took = work;
                    (repaired, replays)
                }
                Scratches::Weighted(local) => {
                    let outcome = graph.resume_weighted(column, local, fuel);
                    *took = fuel.saturating_sub(local.fuel_left());
                    match outcome {
                        Outcome::Paused => return Went::Paused,
                        Outcome::Repaired => (Some(local.writes.as_slice()), 0),
                        Outcome::Search => (None, 0),
                    }
                }
            };
            columns.replayed += replays;
            match repaired {
                // Columns without writes need no unit.
                Some([]) => {}
                Some(writes) => {
                    columns.writes.push((col, writes.iter().map(|&(u, mask)| (u as NodeId, mask)).collect()));
                }
                None => columns.failed.push(col),
            }
        }
        columns.next += 1;
        if columns.next < columns.columns.len() { Went::Next } else { Went::Over }
    }

    /// After the local repairs: their writes, then the searches.
    fn after_local(&mut self, mut columns: Box<Columns>) -> Stage {
        let Columns { prepared, columns: all, failed, near, replayed, .. } = &*columns;
        self.update = Update {
            columns: 0,
            repaired: all.len() - (failed.len() - near),
            replayed: *replayed,
            patched: prepared.patched,
            rows: prepared.rows,
            rebuilt: false,
        };
        columns.writes.retain(|(_, writes)| !writes.is_empty());
        columns.next = 0;
        self.total = self.done + columns.writes.len() + columns.failed.len();
        if columns.writes.is_empty() { self.searches(*columns) } else { Stage::Write(columns) }
    }

    /// After the writes: the searches of the columns the local repair left.
    fn searches(&mut self, columns: Columns) -> Stage {
        self.search_stage(columns.failed)
    }

    /// Searches `columns`, one a unit.
    fn search_stage(&mut self, columns: Vec<usize>) -> Stage {
        if columns.is_empty() {
            self.update.columns = 0;
            let update = self.update;
            return self.end(update);
        }
        self.total = self.done + columns.len();
        let value = vec![0u64; (self.graph.max_width() as usize).div_ceil(64)];
        Stage::Search { columns, next: 0, value }
    }
}

/// One column's local repair with `local`: its writes (`None`: left to a search), whether it
/// was a replay, and its work (nodes handled).
fn repair_one<'s, S: Scratch>(
    graph: &Graph,
    column: Column<'_>,
    local: &'s mut S,
) -> (Option<&'s [(usize, u64)]>, usize, usize) {
    let (replays, work) = (local.replayed(), local.work());
    let repaired = local.repair(graph, column);
    let (replays, work) = (local.replayed() - replays, local.work() - work);
    (repaired.then(|| local.writes()), replays, work)
}
