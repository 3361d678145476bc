//! Local repair of one target column of an unweighted undirected graph, around the nodes whose
//! distance changes, without a search from the target.
//!
//! Old distances are read off the table: across an old edge `x`–`y`, `d(y) = d(x) − 1` when `y`
//! is a move of `x`, `d(x) + 1` when `x` is a move of `y`, and `d(x)` otherwise. Each touched
//! node's entry is read from the table once per column and kept in the scratch, whose fields
//! for one node share one 32-byte record (one cache line), so a repair costs about one table
//! read and one scratch line per node of the region and its boundary. Unit steps make every
//! priority queue here a merge of sorted seeds with a first-in first-out queue.

use super::driver::Column;
use super::plan::{Lost, Old, Seeds, Shorter};
use super::workspace::Workspace;
use crate::dense::table::Entry;
use crate::{Cost, Graph, NodeId};

/// Distance of a node that cannot reach the target.
const UNREACHABLE: u32 = u32::MAX;

/// The distance given to the root of a column's seeds whose distances are relative to it: the
/// region's distances are then relative too (graphs have fewer than 2^30 nodes then).
const RELATIVE: u32 = 1 << 30;

/// Scratch for unit repairs: distances as `u32`, one monotone queue.
pub(super) type Local = Workspace<u32, Monotone>;

/// A priority queue for unit steps: seeds in order of distance, merged with a first-in
/// first-out queue of pushes, each one more than the distance last popped (so the queue stays
/// sorted by itself).
#[derive(Default)]
pub(super) struct Monotone {
    /// Seeds, largest distance first (popped from the end).
    seeds: Vec<(u32, usize)>,
    fifo: Vec<(u32, usize)>,
    head: usize,
}

impl Monotone {
    fn clear(&mut self) {
        self.seeds.clear();
        self.fifo.clear();
        self.head = 0;
    }

    fn seed(&mut self, d: u32, x: usize) {
        self.seeds.push((d, x));
    }

    /// Orders the seeds; call once after seeding, before popping.
    fn ready(&mut self) {
        self.seeds.sort_unstable_by(|a, b| b.cmp(a));
    }

    fn push(&mut self, d: u32, x: usize) {
        debug_assert!(self.fifo.last().is_none_or(|&(last, _)| last <= d), "pushes are monotone");
        self.fifo.push((d, x));
    }

    fn pop(&mut self) -> Option<(u32, usize)> {
        let queued = self.fifo.get(self.head).copied();
        match (self.seeds.last(), queued) {
            (Some(&seed), Some(queued)) if seed.0 <= queued.0 => self.seeds.pop(),
            (_, Some(queued)) => {
                self.head += 1;
                Some(queued)
            }
            (Some(_), None) => self.seeds.pop(),
            (None, None) => None,
        }
    }
}

impl Local {
    pub(super) fn new(n: usize) -> Local {
        Workspace::with_queue(n, Monotone::default())
    }
}

/// A distance handed over by the caller, as the scratch stores it.
fn narrow_distance(d: Cost) -> u32 {
    if d == Cost::INFINITE { UNREACHABLE } else { u32::try_from(d.straight).unwrap_or(UNREACHABLE) }
}

impl Graph {
    /// Whether every entry fits the scratch's 32-bit masks, as the local repair assumes.
    pub(super) fn narrow(&self) -> bool {
        self.table.rows.iter().all(|r| r.width_bits() <= 32)
    }

    /// Repairs column `col` (target `t`) around the nodes whose distance changes, leaving the
    /// new entries in [`Local::writes`]; the table is only read, so columns are repaired in
    /// parallel and written afterwards. Returns `false` when the seeds mix removals and
    /// insertions or the region touches an inserted edge in a way the table cannot tell; the
    /// caller then searches. Needs an unweighted undirected graph whose entries are
    /// [`narrow`](Self::narrow).
    pub(super) fn repair(&self, column: Column<'_>, local: &mut Local) -> bool {
        let Column { seeds, .. } = column;
        match (seeds.lost.is_empty(), seeds.shorter.is_empty()) {
            (false, true) => self.repair_lost(column, local),
            (true, false) => self.repair_shorter(column, local),
            _ => false,
        }
    }

    /// Repairs `column` by repeating the last column's repair, if that is what a repair would
    /// do: `true` leaves `local` (its writes, members and cached entries) as the repair of
    /// `column`.
    ///
    /// A repair is a function of its seeds, of the entries it reads and of where it meets its
    /// target; with one seed, shifting every distance changes none of its comparisons. So when
    /// the last repair had the same [`ReplayKey`](super::plan::ReplayKey), did not meet its target,
    /// and every entry it read is the same toward `column`, whose target it did not touch
    /// either, the repair of `column` would take the same steps and write the same entries.
    /// Neighbouring targets often see the few nodes around an edit alike; checking the
    /// entries read is cheaper than a repair.
    pub(super) fn replay(&self, column: Column<'_>, local: &mut Local) -> bool {
        let Column { col, t, seeds, ends, .. } = column;
        let Some(key) = local.replay else { return false };
        if seeds.replay_key(ends) != Some(key) || local.touched(t) {
            return false;
        }
        local.reads.iter().all(|&(x, mask)| {
            self.table.narrow_entry(x as usize, col).is_some_and(|entry| entry == u64::from(mask))
        })
    }

    /// Starts loading the entries and records of the neighbours of `y`, which are read when
    /// `y` leaves the queue: the regions' reads are scattered over the table, and issued
    /// ahead they overlap.
    fn prefetch_around(&self, y: usize, col: usize, local: &Local) {
        for &z in self.table.neighbors(y) {
            self.table.prefetch_entry(z as usize, col);
            local.prefetch(z as usize);
        }
    }

    /// Whether `to` is an optimal move of `from`.
    fn is_move(&self, local: &mut Local, from: usize, to: usize, col: usize) -> bool {
        let slot = self.table.neighbors(from).iter().position(|&z| z as usize == to);
        slot.is_some_and(|slot| self.cached_moves(local, from, col) >> slot & 1 == 1)
    }

    /// The old distance of `y` from that of its neighbour `x` across an old edge.
    fn across(&self, local: &mut Local, x: usize, y: usize, col: usize) -> u32 {
        let old_x = local.old(x);
        if old_x == UNREACHABLE {
            UNREACHABLE
        } else if self.is_move(local, x, y, col) {
            old_x - 1
        } else if self.is_move(local, y, x, col) {
            old_x + 1
        } else {
            old_x
        }
    }

    /// Removals: the region is every node all of whose optimal moves lead into it, grown from
    /// the nodes that lost their last move, in order of old distance; its new distances come
    /// from its boundary, whose distances do not change.
    fn repair_lost(&self, column: Column<'_>, local: &mut Local) -> bool {
        let Column { col, t, seeds: Seeds { lost, add, .. }, inserted, .. } = column;
        local.start();
        local.queue.clear();
        // The seeds' old distances may be relative to one of them: every distance compared
        // below is then relative too, which holds as long as the target itself is not met (it
        // has distance 0 in absolute terms); if it is, the column is left to a search.
        let relative = lost.iter().any(|l| matches!(l.old, Old::Relative(_)));
        for &Lost { u, old, .. } in lost {
            let old = match old {
                Old::Relative(d) if relative => RELATIVE + d,
                Old::Exact(d) if !relative => narrow_distance(d),
                _ => return false,
            };
            if old == UNREACHABLE {
                return false;
            }
            local.join(u);
            local.set_old(u, old);
            local.saw(u);
            local.queue.seed(old, u);
        }
        local.queue.ready();
        // Nodes are examined in order of old distance, so when `y` is reached from a region
        // node at distance `d`, every region node at distance `d` (all of `y`'s moves) joined.
        while let Some((d, x)) = local.queue.pop() {
            for i in 0..self.table.neighbors(x).len() {
                let y = self.table.neighbors(x)[i] as usize;
                if y == t {
                    local.met_target = true;
                }
                if y == t || local.is_seen(y) || !self.is_move(local, y, x, col) {
                    continue;
                }
                local.saw(y);
                local.set_old(y, d + 1);
                let moves = self.cached_moves(local, y, col);
                let heads = self.table.neighbors(y);
                let all_inside = crate::dense::table::Slots::new(Entry::Narrow(u64::from(moves)))
                    .all(|s| local.in_region(heads[s] as usize));
                if all_inside {
                    local.join(y);
                    local.queue.push(d + 1, y);
                    self.prefetch_around(y, col, local);
                }
            }
        }
        // No old relation holds across an inserted edge: leave those cases to a search.
        if inserted.iter().any(|&(a, b)| local.in_region(a) || local.in_region(b)) {
            return false;
        }
        // Old distances of the boundary (a region node is never a move's head outside), and
        // the region's new distances from the boundary inward.
        let members = core::mem::take(&mut local.members);
        local.queue.clear();
        for &x in &members {
            let mut best = UNREACHABLE;
            for &w in self.table.neighbors(x) {
                let w = w as usize;
                if local.in_region(w) {
                    continue;
                }
                if !local.is_known(w) {
                    let d = if w == t {
                        if relative {
                            return false;
                        }
                        0
                    } else {
                        local.old(x) + u32::from(self.is_move(local, w, x, col))
                    };
                    local.set_old(w, d);
                }
                best = best.min(local.old(w).saturating_add(1));
            }
            local.set_new(x, best);
            if best != UNREACHABLE {
                local.queue.seed(best, x);
            }
        }
        local.queue.ready();
        while let Some((d, x)) = local.queue.pop() {
            if d > local.new_distance(x) {
                continue;
            }
            for &y in self.table.neighbors(x) {
                let y = y as usize;
                if local.in_region(y) && d + 1 < local.new_distance(y) {
                    local.set_new(y, d + 1);
                    local.queue.push(d + 1, y);
                }
            }
        }
        local.members = members;
        self.write_region(col, t, add, local);
        true
    }

    /// Insertions: the region is every node whose distance drops, grown from the tails of the
    /// shorter arcs in order of new distance; old distances are read across old edges.
    fn repair_shorter(&self, column: Column<'_>, local: &mut Local) -> bool {
        let Column { col, t, seeds: Seeds { shorter, add, .. }, inserted, ends } = column;
        // Across a new edge no old relation holds; the searches from its ends tell instead.
        let old_end = |y: usize| ends.get(&y).map(|d| narrow_distance(d.get(t)));
        let is_new = |x: usize, y: usize| inserted.contains(&(x, y)) || inserted.contains(&(y, x));
        local.start();
        local.queue.clear();
        for &Shorter { u, v, new, old, .. } in shorter {
            let (new, old) = (narrow_distance(new), narrow_distance(old));
            local.set_old(u, old);
            local.set_old(v, new - 1);
            if !local.in_region(u) || new < local.new_distance(u) {
                local.join(u);
                local.set_new(u, new);
                local.queue.seed(new, u);
            }
        }
        local.queue.ready();
        while let Some((d, x)) = local.queue.pop() {
            if d > local.new_distance(x) {
                continue;
            }
            for i in 0..self.table.neighbors(x).len() {
                let y = self.table.neighbors(x)[i] as usize;
                if y == t {
                    local.met_target = true;
                    continue;
                }
                if !local.is_known(y) {
                    let old = if is_new(x, y) { old_end(y) } else { Some(self.across(local, x, y, col)) };
                    let Some(old) = old else { return false };
                    local.set_old(y, old);
                }
                if d + 1 < local.old(y) && (!local.in_region(y) || d + 1 < local.new_distance(y)) {
                    local.join(y);
                    local.set_new(y, d + 1);
                    local.queue.push(d + 1, y);
                    self.prefetch_around(y, col, local);
                }
            }
        }
        // Every neighbour of the region needs a known old distance.
        let members = core::mem::take(&mut local.members);
        for &x in &members {
            for &z in self.table.neighbors(x) {
                let z = z as usize;
                if !local.is_known(z) {
                    let old = if is_new(x, z) { old_end(z) } else { Some(self.across(local, x, z, col)) };
                    let Some(old) = old else { return false };
                    local.set_old(z, old);
                }
            }
        }
        local.members = members;
        self.write_region(col, t, add, local);
        true
    }

    /// Records the repaired entries: a move is optimal when it leads one step closer.
    fn write_region(&self, col: usize, t: usize, add: &[(u32, u32, NodeId)], local: &mut Local) {
        self.record_region(col, t, add, local, |from, to, _, _| {
            from != UNREACHABLE && from != 0 && to == from - 1
        });
    }
}
