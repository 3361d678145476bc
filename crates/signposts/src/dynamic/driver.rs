//! The column repair driver: the local repairs of an edit's columns run on all cores, in runs
//! of a few columns, within the work a rebuild costs, and their new entries written in groups
//! of whole blocks.

use super::clock::Foresight;
use super::plan::{Ends, Plan, Seeds};
use super::repair::Local;
use super::weighted::WeightedLocal;
use crate::Graph;

/// One column to repair locally: its target, its seeds, and the edit's inserted arcs with the
/// old distances from their ends.
#[derive(Debug, Clone, Copy)]
pub(super) struct Column<'a> {
    pub(super) col: usize,
    pub(super) t: usize,
    pub(super) seeds: Seeds<'a>,
    pub(super) inserted: &'a [(usize, usize)],
    pub(super) ends: &'a Ends,
}

/// The writes of the runs of columns, in groups of whole blocks in column order for the table
/// to write them in parallel (runs that share a block join one group), and the columns left
/// to a search; `None` if a run gave up.
#[expect(clippy::type_complexity, reason = "the runs' results, as they come")]
fn group_writes(
    runs: &[&[usize]],
    results: Vec<Option<(Vec<(usize, usize, u64)>, Vec<usize>)>>,
) -> Option<(Vec<Vec<(usize, usize, u64)>>, Vec<usize>)> {
    let block = |col: usize| col / crate::dense::table::BLOCK;
    let mut results: Vec<_> = runs.iter().map(|run| (run[0], run[run.len() - 1])).zip(results).collect();
    results.sort_unstable_by_key(|&((first, _), _)| first);
    let mut groups: Vec<Vec<(usize, usize, u64)>> = Vec::with_capacity(results.len());
    let mut last_block = None;
    let mut all_failed = Vec::new();
    for ((first, last), result) in results {
        let (writes, failed) = result?;
        all_failed.extend(failed);
        match groups.last_mut() {
            Some(group) if last_block == Some(block(first)) => group.extend(writes),
            _ => groups.push(writes),
        }
        last_block = Some(block(last));
    }
    Some((groups, all_failed))
}

/// A local repair's scratch, one per worker: the unit repair ([`repair`](super::repair)) or the
/// weighted one ([`weighted`](super::weighted)).
pub(super) trait Scratch {
    /// Repairs one column into [`Scratch::writes`]; `false` leaves it to a search.
    fn repair(&mut self, graph: &Graph, column: Column<'_>) -> bool;
    /// A scratch of its own for `n` nodes (a [`RepairJob`](super::RepairJob)'s, kept between
    /// its steps).
    fn new_scratch(n: usize) -> Self;
    /// Forgets what the scratch knows of an earlier edit's graph.
    fn new_update(&mut self);
    fn writes(&self) -> &[(usize, u64)];
    /// Nodes handled so far.
    fn work(&self) -> usize;
    /// Columns repaired so far by repeating an earlier column's repair.
    fn replayed(&self) -> usize;
    /// What a rebuild costs, in the same units as [`Scratch::work`].
    fn rebuild_work(graph: &Graph) -> usize;
    /// Runs `f` with this thread's scratch for `n` nodes, kept from one update to the next: a
    /// fresh one is an allocation of 32 bytes per node whose pages fault on first touch, which
    /// costs more than a small repair. (It stays allocated on the thread, a small fraction of
    /// the n² table it serves.)
    fn with<R>(n: usize, f: impl FnOnce(&mut Self) -> R) -> R;
}

/// Runs `f` with the scratch kept in `pool` if it is for `n` nodes, else a new one, and keeps
/// it there afterwards.
fn pooled<S, R>(
    pool: &'static std::thread::LocalKey<std::cell::Cell<Option<S>>>,
    n: usize,
    nodes: impl Fn(&S) -> usize,
    new: impl Fn(usize) -> S,
    f: impl FnOnce(&mut S) -> R,
) -> R {
    let mut scratch = pool.take().filter(|s| nodes(s) == n).unwrap_or_else(|| new(n));
    let result = f(&mut scratch);
    pool.set(Some(scratch));
    result
}

impl Scratch for Local {
    fn repair(&mut self, graph: &Graph, column: Column<'_>) -> bool {
        if graph.replay(column, self) {
            self.work += self.members.len();
            self.replayed += 1;
            return true;
        }
        let key = column.seeds.replay_key(column.ends);
        let repaired = graph.repair(column, self);
        if repaired && !self.met_target {
            self.replay = key;
        }
        repaired
    }

    fn new_scratch(n: usize) -> Local {
        Local::new(n)
    }

    fn new_update(&mut self) {
        self.replay = None;
    }

    fn writes(&self) -> &[(usize, u64)] {
        &self.writes
    }

    fn work(&self) -> usize {
        self.work
    }

    fn replayed(&self) -> usize {
        self.replayed
    }

    /// The bit-parallel build's cost grows with the square of the 2-core (trees are filled by
    /// runs); a region node costs about what it spends on 64 entries.
    fn rebuild_work(graph: &Graph) -> usize {
        graph.core_len().pow(2) / 64
    }

    fn with<R>(n: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        thread_local!(static POOL: std::cell::Cell<Option<Local>> = const { std::cell::Cell::new(None) });
        pooled(&POOL, n, Local::nodes_len, Local::new, f)
    }
}

impl Scratch for WeightedLocal {
    fn repair(&mut self, graph: &Graph, column: Column<'_>) -> bool {
        graph.repair_weighted(column, self)
    }

    fn new_scratch(n: usize) -> WeightedLocal {
        WeightedLocal::new(n)
    }

    fn new_update(&mut self) {}

    fn writes(&self) -> &[(usize, u64)] {
        &self.writes
    }

    fn work(&self) -> usize {
        self.work
    }

    fn replayed(&self) -> usize {
        self.replayed
    }

    /// A weighted build settles every node once per target; a region node costs a few
    /// settles.
    fn rebuild_work(graph: &Graph) -> usize {
        graph.nodes_len().pow(2) / 8
    }

    fn with<R>(n: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        thread_local!(static POOL: std::cell::Cell<Option<WeightedLocal>> = const { std::cell::Cell::new(None) });
        pooled(&POOL, n, WeightedLocal::nodes_len, WeightedLocal::new, f)
    }
}

impl Graph {
    /// Whether column `col`'s repair is to clear its target from whole components: its
    /// removals cut the target off from every node that lost its last move (each such node's
    /// component loses it; no distance elsewhere changes).
    pub(super) fn cut_off(&self, plan: &Plan, col: usize) -> bool {
        let seeds = plan.seeds(col);
        let target = self.component[self.table.order[col] as usize];
        // (Inserted arcs as good as the old paths in the same column are left to the
        // repair, which records them.)
        !seeds.lost.is_empty()
            && seeds.shorter.is_empty()
            && seeds.add.is_empty()
            && seeds.lost.iter().all(|s| self.component[s.u] != target)
    }

    /// The nodes of each component, by label.
    pub(super) fn nodes_by_component(&self) -> Vec<Vec<u32>> {
        let mut nodes = vec![Vec::new(); self.components as usize];
        for (x, &c) in self.component.iter().enumerate() {
            nodes[c as usize].push(x as u32);
        }
        nodes
    }

    /// Repairs every column that needs a search locally, on all cores, and writes the new
    /// entries. Returns the columns the local repair leaves to a search, or `None` once the
    /// repair is foretold to take longer than the graph's build took (measured, where the
    /// graph was built in this process on a target with a clock; else once its regions grow
    /// past what the work model says a rebuild costs). Nothing is written then.
    pub(super) fn repair_columns<S: Scratch>(
        &mut self,
        plan: &Plan,
        columns: &[usize],
        near: &[usize],
        inserted: &[(usize, usize)],
        ends: &Ends,
    ) -> Option<(Vec<usize>, usize)> {
        use std::sync::OnceLock;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let n = self.nodes_len();
        // The work of a rebuild in region nodes; the 2-core is measured only once the repair
        // has done more than a small share.
        let floor = (n / 4).max(1 << 10);
        let budget = OnceLock::new();
        let work = AtomicUsize::new(0);
        let replayed = AtomicUsize::new(0);
        let over = |work: usize| work > floor && work > *budget.get_or_init(|| S::rebuild_work(self));
        // Measured costs, where there are (`clock.rs`); small repairs go on whatever the
        // clock says: they cost less than starting a rebuild, and their choice stays the same
        // from run to run.
        let near_column = |col: usize| near.contains(&(self.table.order[col] as usize));
        let foresight =
            Foresight::new(self.build_time.0, columns.iter().filter(|&&col| !near_column(col)).count());
        let costs_more =
            |work: usize| work > floor && foresight.costs_more(work).unwrap_or_else(|| over(work));
        let graph = &*self;
        // Nodes by component, for columns whose target an edit cut off.
        let by_component = OnceLock::new();
        // Repairs a run of columns with one scratch: new entries `(column, node, mask)` and
        // the columns left to a search; `None` once over the budget.
        let run = |columns: &[usize]| {
            S::with(n, |local| {
                local.new_update();
                let mut writes = Vec::new();
                let mut failed = Vec::new();
                // Columns whose target the removals cut off from every node that lost its last
                // move: each such node's whole component loses the target (no distance elsewhere
                // changes), so their entries there are cleared without a search.
                let mut rest = Vec::new();
                for &col in columns {
                    if !graph.cut_off(plan, col) {
                        rest.push(col);
                        continue;
                    }
                    let seeds = plan.seeds(col);
                    let by_component: &Vec<Vec<u32>> =
                        by_component.get_or_init(|| graph.nodes_by_component());
                    let mut cut: Vec<u32> = seeds.lost.iter().map(|s| graph.component[s.u]).collect();
                    cut.sort_unstable();
                    cut.dedup();
                    for c in cut {
                        let nodes = &by_component[c as usize];
                        // Counted before writing: a cut through the middle clears half the
                        // table.
                        foresight.record(nodes.len(), true);
                        if costs_more(work.fetch_add(nodes.len(), Ordering::Relaxed) + nodes.len()) {
                            return None;
                        }
                        writes.extend(nodes.iter().map(|&x| (col, x as usize, 0)));
                    }
                }
                for &col in &rest {
                    if costs_more(work.load(Ordering::Relaxed)) {
                        return None;
                    }
                    let (before, replays) = (local.work(), local.replayed());
                    let t = graph.table.order[col] as usize;
                    if local.repair(graph, Column { col, t, seeds: plan.seeds(col), inserted, ends }) {
                        writes.extend(local.writes().iter().map(|&(u, mask)| (col, u, mask)));
                    } else {
                        failed.push(col);
                    }
                    let spent = local.work() - before;
                    work.fetch_add(spent, Ordering::Relaxed);
                    foresight.record(spent, near_column(col));
                    replayed.fetch_add(local.replayed() - replays, Ordering::Relaxed);
                }
                Some((writes, failed))
            })
        };
        #[cfg(feature = "parallel")]
        let threads = rayon::current_num_threads();
        #[cfg(not(feature = "parallel"))]
        let threads = 1;
        let runs = self.runs(columns, near, threads);
        // A few columns are repaired on this thread: waking the others costs more.
        #[cfg(feature = "parallel")]
        let results: Vec<_> = if columns.len() < 64 {
            runs.iter().map(|r| run(r)).collect()
        } else {
            use rayon::prelude::*;
            // Each thread takes the next run whenever it finishes one, so the large runs in
            // front go to different threads.
            let next = AtomicUsize::new(0);
            let mut done: Vec<_> = (0..threads)
                .into_par_iter()
                .flat_map_iter(|_| {
                    core::iter::from_fn(|| {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        runs.get(i).map(|r| (i, run(r)))
                    })
                    .collect::<Vec<_>>()
                })
                .collect();
            done.sort_unstable_by_key(|&(i, _)| i);
            done.into_iter().map(|(_, result)| result).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let results: Vec<_> = runs.iter().map(|r| run(r)).collect();
        // Once every column is repaired, writing them costs less than any rebuild; without a
        // measured build, the work model has the last word.
        if !foresight.measured() && over(work.into_inner()) {
            return None;
        }
        let (groups, failed) = group_writes(&runs, results)?;
        self.table.write_groups(&groups);
        Some((failed, replayed.into_inner()))
    }

    /// Runs of a few columns each, for `threads` threads to share out as they go; the targets
    /// at the `near` nodes first, alone: theirs are the largest regions (all that lies behind
    /// the edit), a good part of the whole repair.
    fn runs<'a>(&self, columns: &'a [usize], near: &[usize], threads: usize) -> Vec<&'a [usize]> {
        let chunk = (columns.len() / (16 * threads)).clamp(8, 256);
        let mut runs: Vec<&[usize]> = Vec::new();
        let mut rest = Vec::new();
        let mut start = 0;
        for (i, &col) in columns.iter().enumerate() {
            if near.contains(&(self.table.order[col] as usize)) {
                rest.extend((start < i).then(|| &columns[start..i]));
                runs.push(&columns[i..=i]);
                start = i + 1;
            } else if i + 1 - start == chunk {
                rest.push(&columns[start..=i]);
                start = i + 1;
            }
        }
        rest.extend((start < columns.len()).then(|| &columns[start..]));
        runs.extend(rest);
        runs
    }
}
