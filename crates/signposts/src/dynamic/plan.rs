//! The plan of an edit: which target columns it touches and how (none, one more optimal move,
//! or a repair from seeds), judged on the graph before the edit, with the old distances the
//! repairs start from.

use std::collections::BTreeMap;

use super::arcs::Arcs;
use super::search::{Distances, Incoming};
use crate::builder::CostModel;
use crate::{Cost, Graph, NodeId};

/// Old distances from the nodes searched before an edit (the ends of inserted arcs; on small
/// weighted edits every edited node), by node.
pub(super) type Ends = BTreeMap<usize, Distances>;

/// What one target column needs after an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Nothing beyond the remapping of edited rows.
    None,
    /// New optimal moves (in [`Plan::add`]) without any distance change.
    Add,
    /// Distances change: repair from the seeds, or search from the target again. Inserted
    /// arcs as good as the old paths (in [`Plan::add`]) stay optimal where neither end's
    /// distance changes; elsewhere the repair recomputes them.
    Search,
}

/// A node that lost its last optimal move toward column `col`, with its old distance (set by
/// [`Graph::old_distances`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Lost {
    col: usize,
    pub(super) u: usize,
    pub(super) old: Old,
}

/// The old distance of a node that lost its last optimal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Old {
    /// Not known yet.
    Unknown,
    /// Exact.
    Exact(Cost),
    /// On unit costs, relative to the column's other seeds: `d − d(root)` for one root seed,
    /// the same for all the column's seeds.
    Relative(u32),
}

/// An inserted arc `u → v` strictly shorter toward column `col` (the shortest of `u`'s): the
/// new and old distances of `u` and the distance of `v` (`Cost::INFINITE` = unreachable).
#[derive(Debug, Clone, Copy)]
pub(super) struct Shorter {
    col: usize,
    pub(super) u: usize,
    pub(super) v: usize,
    pub(super) new: Cost,
    pub(super) old: Cost,
    pub(super) old_v: Cost,
}

/// `c + d`, unreachable staying unreachable.
fn plus(c: Cost, d: Cost) -> Cost {
    if d == Cost::INFINITE { Cost::INFINITE } else { c + d }
}

/// What an edit needs, column by column, judged on the graph before the edit.
pub(super) struct Plan {
    pub(super) states: Vec<State>,
    /// Inserted arcs `u → v` as good as the old paths toward column `col`, `(col, u, v)`,
    /// sorted by column.
    pub(super) add: Vec<(u32, u32, NodeId)>,
    /// Seeds of the columns to search, sorted by column.
    lost: Vec<Lost>,
    shorter: Vec<Shorter>,
    /// Each column with entries in the lists, in order, and where they start in `lost`,
    /// `shorter` and `add`; then where the lists end. Set by [`Plan::index`].
    columns: Vec<(u32, [u32; 3])>,
}

/// Where distances toward one target start to change, and the inserted arcs as good as the
/// old paths.
#[derive(Debug, Clone, Copy)]
pub(super) struct Seeds<'a> {
    pub(super) lost: &'a [Lost],
    pub(super) shorter: &'a [Shorter],
    pub(super) add: &'a [(u32, u32, NodeId)],
}

/// What a column's repair depends on besides the entries it reads and where its target is,
/// up to a shift of all distances: two columns with equal keys whose repairs read equal
/// entries (and do not meet their targets) are repaired alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReplayKey {
    /// Up to four nodes lost their last optimal move, with their old distances relative to
    /// the first.
    Lost([(u32, u32); 4]),
    /// One inserted arc `u → v` is strictly shorter, with `d(u) − d(v)` before the edit
    /// (`None`: `u` could not reach the target). The edit inserted one edge, `u`–`v`.
    Shorter(usize, usize, Option<u64>),
}

impl Seeds<'_> {
    /// The column's [`ReplayKey`], if its repair has one.
    pub(super) fn replay_key(&self, ends: &Ends) -> Option<ReplayKey> {
        if !self.add.is_empty() {
            return None;
        }
        match (self.lost, self.shorter) {
            (lost @ [first, ..], []) if lost.len() <= 4 => {
                let offset = |l: &Lost| match l.old {
                    Old::Relative(d) => Some(i64::from(d)),
                    Old::Exact(d) if d != Cost::INFINITE && d.diagonal == 0 => i64::try_from(d.straight).ok(),
                    _ => None,
                };
                let base = offset(first)?;
                let mut key = [(u32::MAX, 0); 4];
                for (slot, seed) in key.iter_mut().zip(lost) {
                    *slot = (u32::try_from(seed.u).ok()?, u32::try_from(offset(seed)? - base).ok()?);
                }
                Some(ReplayKey::Lost(key))
            }
            ([], [s]) if ends.len() == 2 && ends.contains_key(&s.u) && ends.contains_key(&s.v) => {
                let gap = (s.old != Cost::INFINITE).then(|| s.old.straight - s.old_v.straight);
                Some(ReplayKey::Shorter(s.u, s.v, gap))
            }
            _ => None,
        }
    }
}

impl Plan {
    fn new(n: usize) -> Plan {
        Plan {
            states: vec![State::None; n],
            add: Vec::new(),
            lost: Vec::new(),
            shorter: Vec::new(),
            columns: Vec::new(),
        }
    }

    /// Orders the lists by column and indexes where each column's entries start. Each list
    /// is a few runs already in column order (one per edited node or inserted arc), which a
    /// stable sort merges in about linear time.
    fn index(&mut self) {
        self.lost.sort_by_key(|l| l.col);
        self.shorter.sort_by_key(|s| s.col);
        self.add.sort_by_key(|a| a.0);
        let keys = [
            self.lost.iter().map(|l| l.col).collect::<Vec<_>>(),
            self.shorter.iter().map(|s| s.col).collect(),
            self.add.iter().map(|a| a.0 as usize).collect(),
        ];
        let head = |list: usize, at: usize| keys[list].get(at).copied().unwrap_or(usize::MAX);
        let as_u32 =
            |at: [usize; 3]| at.map(|i| u32::try_from(i).expect("one entry per column and edited arc"));
        let mut at = [0usize; 3];
        let mut columns = Vec::new();
        loop {
            let col = head(0, at[0]).min(head(1, at[1])).min(head(2, at[2]));
            if col == usize::MAX {
                break;
            }
            columns.push((col as u32, as_u32(at)));
            for (list, at) in at.iter_mut().enumerate() {
                while head(list, *at) == col {
                    *at += 1;
                }
            }
        }
        columns.push((u32::MAX, as_u32(at)));
        self.columns = columns;
    }

    /// Drops the seeds at `nodes` (nodes left without arcs); a column left without seeds
    /// needs nothing more than its added moves, if any.
    fn drop_seeds(&mut self, nodes: &[usize]) {
        let before = self.lost.len();
        self.lost.retain(|l| !nodes.contains(&l.u));
        if self.lost.len() == before {
            return;
        }
        let mut seeded = vec![false; self.states.len()];
        for col in self.lost.iter().map(|l| l.col).chain(self.shorter.iter().map(|s| s.col)) {
            seeded[col] = true;
        }
        for (state, seeded) in self.states.iter_mut().zip(seeded) {
            if *state == State::Search && !seeded {
                *state = State::None;
            }
        }
        for &(col, _, _) in &self.add {
            if self.states[col as usize] == State::None {
                self.states[col as usize] = State::Add;
            }
        }
        self.index();
    }

    /// Marks column `col` as needing a search.
    fn search(&mut self, col: usize) {
        self.states[col] = State::Search;
    }

    /// The seeds of column `col`.
    pub(super) fn seeds(&self, col: usize) -> Seeds<'_> {
        let at = self.columns.partition_point(|&(c, _)| (c as usize) < col);
        if self.columns[at].0 as usize != col {
            return Seeds { lost: &[], shorter: &[], add: &[] };
        }
        let (from, to) = (self.columns[at].1, self.columns[at + 1].1);
        let range = |list: usize| from[list] as usize..to[list] as usize;
        Seeds { lost: &self.lost[range(0)], shorter: &self.shorter[range(1)], add: &self.add[range(2)] }
    }

    /// Columns to search, in order.
    pub(super) fn searches(&self) -> impl Iterator<Item = usize> + '_ {
        self.states.iter().enumerate().filter_map(|(col, state)| (*state == State::Search).then_some(col))
    }
}

/// The arcs of `heads` and `costs` (a node's new list) that `old` lacks or has at another cost.
fn changed_arcs<'a>(
    old: &'a Arcs,
    heads: &'a [NodeId],
    costs: &'a [u32],
) -> impl Iterator<Item = (NodeId, u32)> + 'a {
    heads
        .iter()
        .zip(costs)
        .filter(|&(v, c)| !old.0.binary_search(v).is_ok_and(|i| old.1[i] == *c))
        .map(|(&v, &c)| (v, c))
}

impl Graph {
    /// What each column needs after an edit (see the module docs), judged on the graph before
    /// the edit.
    /// Also returns the old distances from every endpoint of an inserted arc (to every
    /// target), which the local repair needs across new edges.
    pub(super) fn fixes(&self, edited: &BTreeMap<usize, Arcs>) -> (Plan, Ends) {
        let n = self.nodes_len();
        let mut plan = Plan::new(n);
        let mut opened_columns = Vec::new();
        let incoming = Incoming::new();
        let ends = self.searches_from_ends(edited);
        for (&u, (heads, costs)) in edited {
            let old = self.out_arcs(u);
            // Slots of removed arcs (or arcs whose cost changed).
            let removed: Vec<usize> = (0..old.0.len())
                .filter(|&slot| !heads.binary_search(&old.0[slot]).is_ok_and(|i| costs[i] == old.1[slot]))
                .collect();
            if !removed.is_empty() {
                // Columns toward which `u` lost its last optimal move.
                let mut lost = Vec::new();
                // A mask of the removed slots for rows of narrow entries (slots below 64); wide
                // rows are scanned entry by entry below.
                let gone = removed.iter().fold(0u64, |m, &s| m | 1u64.checked_shl(s as u32).unwrap_or(0));
                let narrow = self.table.for_each_narrow(u, |col, entry| {
                    if entry & !gone == 0 {
                        lost.push(col);
                    }
                });
                if !narrow {
                    lost = (0..n)
                        .filter(|&col| {
                            let entry = self.table.entry(u, col);
                            removed.iter().any(|&s| entry.contains(s))
                                && crate::dense::table::Slots::new(entry).all(|s| removed.contains(&s))
                        })
                        .collect();
                }
                for col in lost {
                    plan.search(col);
                    plan.lost.push(Lost { col, u, old: Old::Unknown });
                }
            }
            // Inserted arcs (or new costs) that are at least as good as the old distances: per
            // column, one seed for `u`, its shortest new arc; the others as good as the old
            // paths are one more move each.
            let inserted: Vec<(NodeId, Cost, &Distances)> = changed_arcs(&old, heads, costs)
                .map(|(v, c)| (v, self.model.cost(c), &ends[&(v as usize)]))
                .collect();
            if inserted.is_empty() {
                continue;
            }
            let from_u = &ends[&u];
            // A node that had no arcs (a cell opened again) and gets only inserted ones: toward
            // a target where its new distance improves none of its new neighbours, nothing
            // but its own entry and its neighbours' moves toward it change, all set without a
            // repair: its entry is its moves to the neighbours `new` is reached through, and
            // each neighbour at distance `new + c` gets a move to it.
            let opened = old.0.is_empty() && inserted.len() == heads.len() && self.symmetric_at(u, edited);
            // In column order, for the plan's lists to come out in runs by column.
            for col in 0..n {
                let t = self.table.order[col] as usize;
                let to_u = from_u.get(t);
                let mut best: Option<Shorter> = None;
                if opened && t != u {
                    // The first shortest new arc, as below.
                    let Some((v, new, old_v)) = inserted
                        .iter()
                        .map(|&(v, c, from_v)| (v as usize, plus(c, from_v.get(t)), from_v.get(t)))
                        .reduce(|best, arc| if arc.1 < best.1 { arc } else { best })
                        .filter(|&(_, new, _)| new != Cost::INFINITE)
                    else {
                        continue;
                    };
                    if inserted.iter().all(|&(_, c, from_v)| new + c >= from_v.get(t)) {
                        let old = Cost::INFINITE;
                        opened_columns.push(Shorter { col, u, v, new, old, old_v });
                        continue;
                    }
                }
                for &(v, c, from_v) in &inserted {
                    let to_v = from_v.get(t);
                    if to_v == Cost::INFINITE {
                        continue;
                    }
                    let via = c + to_v;
                    if to_u == Cost::INFINITE || via < to_u {
                        if best.is_none_or(|b| via < b.new) {
                            best = Some(Shorter { col, u, v: v as usize, new: via, old: to_u, old_v: to_v });
                        }
                    } else if via == to_u && t != u {
                        if plan.states[col] == State::None {
                            plan.states[col] = State::Add;
                        }
                        plan.add.push((col as u32, u as u32, v));
                    }
                }
                if let Some(shorter) = best {
                    plan.search(col);
                    plan.shorter.push(shorter);
                }
            }
        }
        self.settle_opened(&mut plan, &opened_columns, edited, &ends);
        plan.index();
        // Nodes left without arcs (a cell blocked): their rows are empty after the edit and no
        // move leads to them, so they change no other distance by themselves; as seeds they
        // only give the others their old distances (a cell's neighbours that moved through
        // it are one step farther), and are dropped after.
        let isolated: Vec<usize> = edited
            .iter()
            .filter(|&(&u, (heads, _))| heads.is_empty() && self.symmetric_at(u, edited))
            .map(|(&u, _)| u)
            .collect();
        self.old_distances(&mut plan, &ends, &isolated, &incoming);
        if !isolated.is_empty() {
            plan.drop_seeds(&isolated);
        }
        (plan, ends)
    }

    /// Whether the arcs into `u` are the reverses of its arcs, at the same costs, before and
    /// after the edit: the graph was undirected and the edit keeps it so around `u`.
    fn symmetric_at(&self, u: usize, edited: &BTreeMap<usize, Arcs>) -> bool {
        if self.directed {
            return false;
        }
        let (heads, costs) = &edited[&u];
        let reverse = |v: NodeId, c: Option<u32>| {
            let (v_heads, v_costs) =
                edited.get(&(v as usize)).map_or_else(|| self.out_arcs(v as usize), Clone::clone);
            v_heads.binary_search(&(u as NodeId)).ok().map(|i| v_costs[i]) == c
        };
        // Old neighbours are the old in-neighbours (undirected before the edit); new in-arcs
        // come only from edited nodes, and each must be the reverse of one of `u`'s arcs (a
        // one-way arc into `u` from another edited node would be missed otherwise: the
        // regression test `a_batch_whose_one_way_arc_leads_into_an_opened_node`).
        self.table.neighbors(u).iter().all(|&v| {
            let now = heads.binary_search(&v).ok().map(|i| costs[i]);
            reverse(v, now)
        }) && heads.iter().zip(costs).all(|(&v, &c)| reverse(v, Some(c)))
            && edited.iter().all(|(&w, (w_heads, w_costs))| match w_heads.binary_search(&(u as NodeId)) {
                Ok(i) => heads.binary_search(&(w as NodeId)).ok().map(|j| costs[j]) == Some(w_costs[i]),
                Err(_) => true,
            })
    }

    /// The columns of opened nodes that need no repair (see [`Graph::fixes`]), as added moves:
    /// the node's moves to the neighbours its new distance is reached through, and each
    /// neighbour's move to it where that is as short as its old paths. A column that other
    /// seeds send to a repair gets the opened node as a seed instead.
    fn settle_opened(
        &self,
        plan: &mut Plan,
        opened: &[Shorter],
        edited: &BTreeMap<usize, Arcs>,
        ends: &Ends,
    ) {
        for &opened in opened {
            let Shorter { col, u, new, .. } = opened;
            if plan.states[col] == State::Search {
                plan.shorter.push(opened);
                continue;
            }
            let t = self.table.order[col] as usize;
            let (heads, costs) = &edited[&u];
            for (&v, &c) in heads.iter().zip(costs) {
                let d_v = ends[&(v as usize)].get(t);
                let c = self.model.cost(c);
                if plus(c, d_v) == new {
                    plan.add.push((col as u32, u as u32, v));
                }
                if new + c == d_v {
                    plan.add.push((col as u32, v, u as NodeId));
                }
            }
            if plan.states[col] == State::None {
                plan.states[col] = State::Add;
            }
        }
    }

    /// Old distances from the ends of inserted arcs (or arcs whose cost changed), which the
    /// plan and the repairs need, and on weighted undirected graphs from every edited node of
    /// a small edit: the weighted repair walks optimal moves to a node of known distance, and
    /// paths around an edit pass by its nodes. The searches run on all cores.
    fn searches_from_ends(&self, edited: &BTreeMap<usize, Arcs>) -> Ends {
        let weighted = !self.directed && (!self.costs.is_empty() || self.model != CostModel::Integer);
        let mut nodes = std::collections::BTreeSet::new();
        for (&u, (heads, costs)) in edited {
            let old = self.out_arcs(u);
            let mut new = changed_arcs(&old, heads, costs).peekable();
            if new.peek().is_some() || (weighted && edited.len() <= 16) {
                nodes.insert(u);
            }
            nodes.extend(new.map(|(v, _)| v as usize));
        }
        let search = |&u: &usize| (u, self.search(u, false, &Incoming::new()));
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            nodes.par_iter().map(search).collect()
        }
        #[cfg(not(feature = "parallel"))]
        nodes.iter().map(search).collect()
    }

    /// Fills in the old distances of the nodes that lost their last optimal move. On a unit
    /// undirected graph a column whose seeds hang from one of them by their old optimal moves
    /// (one seed; or a door cell and the nodes behind it) is repaired in distances relative to
    /// that root (see `dynamic/repair.rs`), which spares the searches from the seeds.
    fn old_distances(&self, plan: &mut Plan, ends: &Ends, isolated: &[usize], incoming: &Incoming) {
        let unit = self.costs.is_empty() && !self.directed && self.nodes_len() < 1 << 30;
        let mut needed = Vec::new();
        let mut start = 0;
        while start < plan.lost.len() {
            let col = plan.lost[start].col;
            let end = start + plan.lost[start..].iter().take_while(|l| l.col == col).count();
            match unit.then(|| self.relative_seeds(&plan.lost[start..end])).flatten() {
                Some(offsets) => {
                    for (seed, offset) in plan.lost[start..end].iter_mut().zip(offsets) {
                        seed.old = Old::Relative(offset);
                    }
                }
                None => needed.extend((start..end).filter(|&i| !isolated.contains(&plan.lost[i].u))),
            }
            start = end;
        }
        let mut per_node: BTreeMap<usize, usize> = BTreeMap::new();
        for &i in &needed {
            *per_node.entry(plan.lost[i].u).or_default() += 1;
        }
        // Old distances from the nodes searched, by node.
        let mut searched = Ends::new();
        for i in needed {
            let Lost { col, u, .. } = plan.lost[i];
            let t = self.table.order[col] as usize;
            // Searched already; or a walk along the old table when that is cheaper than one
            // search from `u`.
            let old = if let Some(from_u) = ends.get(&u) {
                from_u.get(t)
            } else if self.directed || per_node[&u] <= 32 {
                self.walk_cost(u, t).unwrap_or(Cost::INFINITE)
            } else {
                // A removed optimal move `u → h` gives `d(u) = c + d(h)` from a search already
                // made from `h` (the other end of a removed edge, say).
                let (heads, costs) = self.out_arcs(u);
                // An isolated node it moved to is searched from: each of its neighbours needs
                // it.
                for s in crate::dense::table::Slots::new(self.table.entry(u, col)) {
                    let h = heads[s] as usize;
                    if isolated.contains(&h) && !ends.contains_key(&h) {
                        searched.entry(h).or_insert_with(|| self.search(h, false, incoming));
                    }
                }
                let known = crate::dense::table::Slots::new(self.table.entry(u, col)).find_map(|s| {
                    let from_h =
                        searched.get(&(heads[s] as usize)).or_else(|| ends.get(&(heads[s] as usize)))?;
                    Some(self.model.cost(costs[s]) + from_h.get(t))
                });
                match known {
                    Some(d) => d,
                    None => searched.entry(u).or_insert_with(|| self.search(u, false, incoming)).get(t),
                }
            };
            plan.lost[i].old = Old::Exact(old);
        }
    }

    /// The seeds' old distances relative to one of them, on unit costs, if every other seed
    /// reaches that root by old optimal moves through seeds: each seed lost its last move, so
    /// every old move of its led to a node one closer; a seed whose move leads to another seed
    /// is one farther than it. Read on the table before the edit.
    fn relative_seeds(&self, seeds: &[Lost]) -> Option<Vec<u32>> {
        if let [_] = seeds {
            return Some(vec![0]);
        }
        if seeds.len() > 8 {
            return None;
        }
        let col = seeds[0].col;
        // The seed each seed moves to, if any.
        let parent: Vec<Option<usize>> = seeds
            .iter()
            .map(|seed| {
                let heads = self.table.neighbors(seed.u);
                crate::dense::table::Slots::new(self.table.entry(seed.u, col))
                    .find_map(|s| seeds.iter().position(|other| other.u == heads[s] as usize))
            })
            .collect();
        if parent.iter().filter(|p| p.is_none()).count() != 1 {
            return None;
        }
        // Parents are strictly closer, so following them ends at the root within `len` steps
        // (more only in a table whose moves circle, which a crafted file could hold: no
        // relative distances then).
        let offsets = (0..seeds.len()).map(|mut i| {
            let mut offset = 0u32;
            while let Some(p) = parent[i] {
                offset += 1;
                i = p;
                if offset as usize > seeds.len() {
                    return None;
                }
            }
            Some(offset)
        });
        offsets.collect()
    }
}
