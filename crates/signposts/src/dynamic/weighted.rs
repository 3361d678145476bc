//! Local repair of one target column of a weighted undirected graph (integer weights or
//! octile costs), around the nodes whose distance changes, without a search from the target.
//!
//! Across an edge `x`–`y` of cost `c` the table gives the old distances only along optimal
//! moves: `d(x) = c + d(y)` when `y` is a move of `x`. When neither end is a move of the
//! other, the old distance of a node is found by walking its optimal moves, preferring one
//! whose head is already known, until a node of known distance, a node searched from before
//! the edit (the ends of inserted arcs; on a small edit every edited node, around which the
//! paths that avoid the edit pass), or the target; the walk is remembered for the rest of the
//! column. Everything else follows the unit repair
//! ([`super::repair`]): removals grow the region of nodes all of whose moves lead into it, in
//! order of old distance, deciding each node when it leaves the queue (by then all its moves,
//! which are closer, are decided); insertions grow the region whose distance drops, in order
//! of new distance. Costs compare exactly ([`Cost`]), so the new entries are exact.
//!
//! A column's repair can stop between two steps (a node out of a queue, a member of the
//! region handled) and go on later from where it stopped: a [`RepairJob`](super::RepairJob)
//! gives each of its units a slice of steps ([`Graph::resume_weighted`]), so that the column
//! of a large region (half a maze behind a wall) spreads over several. The scratch keeps the
//! queue, the region and where the repair is; it does the same steps in the same order either
//! way, so the entries are the same.

use core::cmp::Reverse;
use std::collections::BinaryHeap;

use super::driver::Column;
use super::plan::{Lost, Old, Seeds, Shorter};
use super::workspace::{Record, Workspace};
use crate::builder::CostModel;
use crate::dense::table::Entry;
use crate::{Cost, Graph};

/// The weighted repair's own scratch: its queue and the walk it is following.
pub(super) struct Walks {
    /// Nodes by the key of their distance ([`Walks::push`]); the distance itself is read
    /// back from the scratch when a node leaves.
    heap: BinaryHeap<Reverse<(u64, usize)>>,
    /// Whether costs are integers (else octile).
    integer: bool,
    path: Vec<(usize, Cost)>,
    /// Walk steps allowed per column before the column is left to a search.
    limit: usize,
    /// Where the column's repair is (stopped when its slice ran out).
    at: At,
    /// Steps left in this slice of the repair: a node out of a queue, a member of the region
    /// handled, a walk's step.
    fuel: usize,
}

/// Where a column's weighted repair is, to go on from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Not started: the next call starts the column.
    Start,
    /// Removals: the region grown from the queue.
    Grow,
    /// Removals: the region's members from this one given a new distance across its border.
    Border(usize),
    /// Removals: the new distances settled inside the region.
    Settle,
    /// Insertions: the region whose distance drops grown from the queue.
    Drop,
    /// Insertions: the old distances around the region, from this member's neighbours on.
    Around(usize),
    /// The new entries recorded.
    Record(Record),
}

/// What a call of [`Graph::resume_weighted`] did with its column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Repaired: the new entries are in the scratch's writes.
    Repaired,
    /// Left to a search (see [`Graph::repair_weighted`]).
    Search,
    /// The slice ran out: the next call goes on.
    Paused,
}

/// The end of a phase of the repair: the next one, or the call's end.
type Phase = Result<At, Outcome>;

/// Scratch for weighted repairs: distances as exact [`Cost`]s.
pub(super) type WeightedLocal = Workspace<Cost, Walks>;

impl WeightedLocal {
    pub(super) fn new(n: usize) -> WeightedLocal {
        Workspace::with_queue(
            n,
            Walks {
                heap: BinaryHeap::new(),
                integer: true,
                path: Vec::new(),
                limit: (n / 4).max(64),
                at: At::Start,
                fuel: usize::MAX,
            },
        )
    }

    /// Steps left of the fuel the last [`Graph::resume_weighted`] was given.
    pub(super) fn fuel_left(&self) -> usize {
        self.queue.fuel
    }
}

impl Walks {
    /// Queues `x` by the key of its distance `cost` ([`Cost::queue_key`]: the sum on integer
    /// costs; on octile ones the bits of the value in floating point, which order the costs of
    /// any graph with a dense table exactly, two different costs differing by far more than
    /// the value's rounding, see the octile build's keys). One integer comparison per heap
    /// step instead of [`Cost`]'s.
    fn push(&mut self, cost: Cost, x: usize) {
        self.heap.push(Reverse((cost.queue_key(self.integer), x)));
    }

    /// The key `push` gives `cost`.
    fn key(&self, cost: Cost) -> u64 {
        cost.queue_key(self.integer)
    }

    /// Takes one step of the slice; `true` when none is left (the step is not to be taken).
    fn out(&mut self) -> bool {
        let out = self.fuel == 0;
        self.fuel = self.fuel.saturating_sub(1);
        out
    }
}

/// `a + c`, unreachable staying unreachable.
fn plus(a: Cost, c: Cost) -> Cost {
    if a == Cost::INFINITE { Cost::INFINITE } else { a + c }
}

/// `a − c` where `a = c + b` for some cost `b` (exact: a cost's straight and diagonal counts
/// are unique).
fn minus(a: Cost, c: Cost) -> Option<Cost> {
    if a == Cost::INFINITE {
        return Some(Cost::INFINITE);
    }
    Some(Cost {
        straight: a.straight.checked_sub(c.straight)?,
        diagonal: a.diagonal.checked_sub(c.diagonal)?,
    })
}

impl Graph {
    /// Whether the weighted local repair applies: undirected, entries of at most 32 bits.
    pub(super) fn weighted_repairable(&self) -> bool {
        !self.directed && self.narrow()
    }

    /// Repairs column `col` (target `t`) of a weighted undirected graph around the nodes whose
    /// distance changes, leaving the new entries in [`WeightedLocal::writes`]. Returns `false`
    /// when the seeds mix removals and insertions, a walk runs too long, or an old distance
    /// cannot be read; the caller then searches.
    pub(super) fn repair_weighted(&self, column: Column<'_>, local: &mut WeightedLocal) -> bool {
        local.queue.at = At::Start;
        self.resume_weighted(column, local, usize::MAX) == Outcome::Repaired
    }

    /// [`Graph::repair_weighted`] a slice at a time: goes on with the repair of `column` for
    /// at most `fuel` steps (at least one). After [`Outcome::Paused`], the next call is to
    /// pass the same column and scratch; any other outcome ends the column, and the next call
    /// starts the one it is given.
    pub(super) fn resume_weighted(
        &self,
        column: Column<'_>,
        local: &mut WeightedLocal,
        fuel: usize,
    ) -> Outcome {
        local.queue.fuel = fuel.max(1);
        let mut at = local.queue.at;
        if at == At::Start {
            let Column { seeds, .. } = column;
            local.start();
            local.queue.heap.clear();
            local.queue.integer = self.model == CostModel::Integer;
            at = match (seeds.lost.is_empty(), seeds.shorter.is_empty()) {
                (false, true) if Self::seed_lost(column, local).is_some() => At::Grow,
                (true, false) => {
                    Self::seed_shorter(column, local);
                    At::Drop
                }
                _ => return Outcome::Search,
            };
        }
        let outcome = loop {
            let phase = match at {
                At::Start => unreachable!("started above"),
                At::Grow => self.lost_grow(column, local),
                At::Border(from) => {
                    with_members(local, |local, members| self.lost_border(column, local, members, from))
                }
                At::Settle => self.settle_region(local),
                At::Drop => self.shorter_grow(column, local),
                At::Around(from) => {
                    with_members(local, |local, members| self.shorter_around(column, local, members, from))
                }
                At::Record(record) => self.weighted_write(column, local, record),
            };
            match phase {
                Ok(next) => at = next,
                Err(outcome) => break outcome,
            }
        };
        // A pause leaves its place in `at`.
        if outcome != Outcome::Paused {
            local.queue.at = At::Start;
        }
        outcome
    }

    /// Pauses at `at` (the slice ran out).
    fn pause(local: &mut WeightedLocal, at: At) -> Phase {
        local.queue.at = at;
        Err(Outcome::Paused)
    }

    /// The cost of the arc in slot `slot` of `x`.
    fn slot_cost(&self, x: usize, slot: usize) -> Cost {
        self.model.cost(self.arc_cost(self.table.rows[x].first as usize + slot))
    }

    /// The slot of `to` in `from`'s list when it is an optimal move of `from`.
    fn weighted_move(&self, local: &mut WeightedLocal, from: usize, to: usize, col: usize) -> Option<usize> {
        let slot = self.table.neighbors(from).iter().position(|&z| z as usize == to)?;
        (self.cached_moves(local, from, col) >> slot & 1 == 1).then_some(slot)
    }

    /// The old distance of `y`, walking its optimal moves to a known node; remembered along
    /// the walk. `None` when the walk runs past the limit.
    fn walk_old(&self, local: &mut WeightedLocal, y: usize, column: Column<'_>) -> Option<Cost> {
        let Column { col, t, ends, .. } = column;
        local.queue.path.clear();
        let mut at = y;
        let base = loop {
            if at == t {
                break Cost::ZERO;
            }
            if local.is_known(at) {
                break local.old(at);
            }
            // Nodes searched from before the edit (around it).
            if let Some(from) = ends.get(&at) {
                break from.get(t);
            }
            let moves = self.cached_moves(local, at, col);
            if moves == 0 {
                break Cost::INFINITE;
            }
            let heads = self.table.neighbors(at);
            let slot = crate::dense::table::Slots::new(Entry::Narrow(u64::from(moves)))
                .find(|&s| local.is_known(heads[s] as usize) || heads[s] as usize == t)
                .unwrap_or(moves.trailing_zeros() as usize);
            local.queue.path.push((at, self.slot_cost(at, slot)));
            local.work += 1;
            local.queue.fuel = local.queue.fuel.saturating_sub(1);
            if local.queue.path.len() > local.queue.limit {
                return None;
            }
            at = heads[slot] as usize;
        };
        let mut d = base;
        while let Some((x, c)) = local.queue.path.pop() {
            d = plus(d, c);
            local.set_old(x, d);
        }
        // An empty walk: `y` is the target, known, or cannot reach the target.
        if !local.is_known(y) {
            local.set_old(y, base);
        }
        Some(local.old(y))
    }

    /// The old distance of `y` from its neighbour `x` (of known old distance) across an old
    /// edge of cost `c`.
    fn weighted_across(
        &self,
        local: &mut WeightedLocal,
        x: usize,
        y: usize,
        c: Cost,
        column: Column<'_>,
    ) -> Option<Cost> {
        let Column { col, t, .. } = column;
        if y == t {
            return Some(Cost::ZERO);
        }
        if self.weighted_move(local, x, y, col).is_some() {
            return minus(local.old(x), c);
        }
        if self.weighted_move(local, y, x, col).is_some() {
            return Some(plus(local.old(x), c));
        }
        self.walk_old(local, y, column)
    }

    /// Removals, the seeds: the nodes that lost their last optimal move. `None` when an old
    /// distance is not known exactly (the column is left to a search).
    fn seed_lost(column: Column<'_>, local: &mut WeightedLocal) -> Option<()> {
        for &Lost { u, old, .. } in column.seeds.lost {
            let Old::Exact(old) = old else { return None };
            if old == Cost::INFINITE {
                return None;
            }
            local.join(u);
            local.set_old(u, old);
            local.saw(u);
            local.queue.push(old, u);
        }
        Some(())
    }

    /// Removals, the region grown; see the module docs.
    fn lost_grow(&self, column: Column<'_>, local: &mut WeightedLocal) -> Phase {
        let Column { col, t, inserted, .. } = column;
        // Candidates leave the queue in order of old distance: by then every move of theirs
        // (strictly closer) is decided. A node is queued once, with the old distance it keeps.
        loop {
            if local.queue.out() {
                return Self::pause(local, At::Grow);
            }
            let Some(Reverse((_, x))) = local.queue.heap.pop() else { break };
            let d = local.old(x);
            if !local.in_region(x) {
                let moves = self.cached_moves(local, x, col);
                let heads = self.table.neighbors(x);
                let inside = crate::dense::table::Slots::new(Entry::Narrow(u64::from(moves)))
                    .all(|s| local.in_region(heads[s] as usize));
                if !inside {
                    continue;
                }
                local.join(x);
            }
            for i in 0..self.table.neighbors(x).len() {
                let y = self.table.neighbors(x)[i] as usize;
                if y == t || local.is_seen(y) {
                    continue;
                }
                let Some(slot) = self.weighted_move(local, y, x, col) else { continue };
                local.saw(y);
                let dy = d + self.slot_cost(y, slot);
                local.set_old(y, dy);
                local.queue.push(dy, y);
            }
        }
        if inserted.iter().any(|&(a, b)| local.in_region(a) || local.in_region(b)) {
            return Err(Outcome::Search);
        }
        Ok(At::Border(0))
    }

    /// Removals, from member `from` on: the old distances of the region's border and the
    /// members' new distances across it, queued (`members`: taken out of `local`,
    /// [`with_members`]).
    fn lost_border(
        &self,
        column: Column<'_>,
        local: &mut WeightedLocal,
        members: &[usize],
        from: usize,
    ) -> Phase {
        for (at, &x) in members.iter().enumerate().skip(from) {
            if local.queue.out() {
                return Self::pause(local, At::Border(at));
            }
            let mut best = Cost::INFINITE;
            for i in 0..self.table.neighbors(x).len() {
                let w = self.table.neighbors(x)[i] as usize;
                if local.in_region(w) {
                    continue;
                }
                let c = self.slot_cost(x, i);
                if !local.is_known(w) {
                    let old = self.weighted_across(local, x, w, c, column).ok_or(Outcome::Search)?;
                    local.set_old(w, old);
                }
                best = best.min(plus(local.old(w), c));
            }
            local.set_new(x, best);
            if best != Cost::INFINITE {
                local.queue.push(best, x);
            }
        }
        Ok(At::Settle)
    }

    /// Dijkstra inside the region from the seeds queued with their new distances.
    fn settle_region(&self, local: &mut WeightedLocal) -> Phase {
        loop {
            if local.queue.out() {
                return Self::pause(local, At::Settle);
            }
            let Some(Reverse((key, x))) = local.queue.heap.pop() else { break };
            let d = local.new_distance(x);
            if key > local.queue.key(d) {
                continue; // queued before its distance dropped
            }
            for (i, &y) in self.table.neighbors(x).iter().enumerate() {
                let y = y as usize;
                if local.in_region(y) {
                    let dy = d + self.slot_cost(x, i);
                    if dy < local.new_distance(y) {
                        local.set_new(y, dy);
                        local.queue.push(dy, y);
                    }
                }
            }
        }
        Ok(At::Record(Record::default()))
    }

    /// Insertions, the seeds: the nodes an inserted arc brings closer.
    fn seed_shorter(column: Column<'_>, local: &mut WeightedLocal) {
        for &Shorter { u, v, new, old, old_v, .. } in column.seeds.shorter {
            local.set_old(u, old);
            local.set_old(v, old_v);
            if !local.in_region(u) || new < local.new_distance(u) {
                local.join(u);
                local.set_new(u, new);
                local.queue.push(new, u);
            }
        }
    }

    /// The old distance of `y`, a neighbour of `x` across an arc of cost `c`, remembered: from
    /// the search before the edit across an inserted arc, else as [`Graph::weighted_across`].
    fn old_beside(
        &self,
        local: &mut WeightedLocal,
        x: usize,
        y: usize,
        c: Cost,
        column: Column<'_>,
    ) -> Result<(), Outcome> {
        let inserted = column.inserted.contains(&(x, y)) || column.inserted.contains(&(y, x));
        let old = if inserted {
            column.ends.get(&y).map(|from| from.get(column.t))
        } else {
            self.weighted_across(local, x, y, c, column)
        };
        local.set_old(y, old.ok_or(Outcome::Search)?);
        Ok(())
    }

    /// Insertions, the region grown; see the module docs.
    fn shorter_grow(&self, column: Column<'_>, local: &mut WeightedLocal) -> Phase {
        loop {
            if local.queue.out() {
                return Self::pause(local, At::Drop);
            }
            let Some(Reverse((key, x))) = local.queue.heap.pop() else { break };
            let d = local.new_distance(x);
            if key > local.queue.key(d) {
                continue; // queued before its distance dropped
            }
            for i in 0..self.table.neighbors(x).len() {
                let y = self.table.neighbors(x)[i] as usize;
                if y == column.t {
                    continue;
                }
                let c = self.slot_cost(x, i);
                if !local.is_known(y) {
                    self.old_beside(local, x, y, c, column)?;
                }
                let dy = d + c;
                if dy < local.old(y) && (!local.in_region(y) || dy < local.new_distance(y)) {
                    local.join(y);
                    local.set_new(y, dy);
                    local.queue.push(dy, y);
                }
            }
        }
        Ok(At::Around(0))
    }

    /// Insertions, from member `from` on: every neighbour of the region needs a known old
    /// distance (`members`: taken out of `local`, [`with_members`]).
    fn shorter_around(
        &self,
        column: Column<'_>,
        local: &mut WeightedLocal,
        members: &[usize],
        from: usize,
    ) -> Phase {
        for (at, &x) in members.iter().enumerate().skip(from) {
            if local.queue.out() {
                return Self::pause(local, At::Around(at));
            }
            for i in 0..self.table.neighbors(x).len() {
                let z = self.table.neighbors(x)[i] as usize;
                if !local.is_known(z) {
                    self.old_beside(local, x, z, self.slot_cost(x, i), column)?;
                }
            }
        }
        Ok(At::Record(Record::default()))
    }

    /// Records the repaired entries: a move is optimal when its cost and the distance it
    /// leads to add up to the node's distance, compared exactly.
    /// From `record` on, within the slice.
    fn weighted_write(&self, column: Column<'_>, local: &mut WeightedLocal, mut record: Record) -> Phase {
        let Column { col, t, seeds: Seeds { add, .. }, .. } = column;
        let mut fuel = local.queue.fuel;
        let done =
            self.record_region_from(col, t, add, local, &mut record, &mut fuel, |from, to, node, slot| {
                from != Cost::INFINITE && to != Cost::INFINITE && to + self.slot_cost(node, slot) == from
            });
        local.queue.fuel = fuel;
        if done { Err(Outcome::Repaired) } else { Self::pause(local, At::Record(record)) }
    }
}

/// Runs a resumable phase with the region's members taken out of the scratch (the phase
/// reads them while it writes the rest of `local`), and puts them back.
fn with_members(
    local: &mut WeightedLocal,
    phase: impl FnOnce(&mut WeightedLocal, &[usize]) -> Phase,
) -> Phase {
    let members = core::mem::take(&mut local.members);
    let result = phase(local, &members);
    local.members = members;
    result
}
