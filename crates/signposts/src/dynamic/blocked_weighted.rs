//! Blocking a node of a weighted undirected graph (an octile grid cell: its arcs and the
//! diagonals that cut its corners removed), 64 targets at a time, one lane of the table.
//!
//! Write `c` for the node and `K` for `c` with its neighbours: every removed arc has both ends
//! in `K`. For a target `t`, the nodes whose distance grows are those all of whose optimal
//! moves are removed arcs or lead into that set (the removal region of the module docs). Moves
//! strictly lower the distance, so the region is the least set closed under that rule, found
//! for 64 targets together by a worklist of bit operations over the lane: a node is
//! re-evaluated when a neighbour that is one of its moves joins a region. No order of
//! distance is needed (octile costs leave a node's order unknown from the entries).
//!
//! Exact old distances where the repair needs them:
//!
//! - a node of `K`: one search from each neighbour of `c` before the edit;
//! - a region node `x`: every shortest path from it uses a removed arc, whose tail is in `K`,
//!   so `d(x, t) = min over a in K of d(x, a) + d(a, t)`, from the same searches;
//! - a region's neighbour `w` outside it: across a move of `w` into a node of known distance,
//!   or else by walking `w`'s optimal moves to one (remembered for the lane).
//!
//! The regions' new distances come from one Dijkstra inside them per lane, from those
//! neighbours, over `(node, target)` pairs; entries are rewritten as in `dynamic/blocked.rs`,
//! costs compared exactly.

use core::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::Update;
use super::arcs::Arcs;
use super::opened::{gather, lane_words, spread};
use super::search::{Distances, Incoming};
use crate::builder::CostModel;
use crate::{Cost, Graph, NodeId};

impl Graph {
    /// The node that the edit blocks on a weighted undirected graph, when `edited` only
    /// removes arcs, every arc of that node and otherwise only arcs between its neighbours
    /// (an octile cell blocked: the diagonals past its corners), on rows that fit in a word.
    pub(super) fn blocked_weighted_node(&self, edited: &BTreeMap<usize, Arcs>) -> Option<usize> {
        if self.directed || self.costs.is_empty() {
            return None;
        }
        let mut blocked = None;
        for (&u, (heads, _)) in edited {
            if heads.is_empty() && self.table.rows[u].deg > 0 {
                if blocked.is_some() {
                    return None;
                }
                blocked = Some(u);
            }
        }
        let c = blocked?;
        let ring = self.table.neighbors(c);
        let in_k = |v: usize| v == c || ring.binary_search(&(v as NodeId)).is_ok();
        for (&u, (heads, costs)) in edited {
            if !in_k(u) {
                return None;
            }
            let (old, old_costs) = self.out_arcs(u);
            // Only removals: every new arc is an old one at its old cost.
            for (h, cost) in heads.iter().zip(costs) {
                match old.binary_search(h) {
                    Ok(i) if old_costs[i] == *cost => {}
                    _ => return None,
                }
            }
            // Removed arcs stay within `K` and go both ways.
            for &v in old.iter().filter(|v| heads.binary_search(v).is_err()) {
                let v = v as usize;
                let (back, _) = edited.get(&v)?;
                if !in_k(v) || back.binary_search(&(u as NodeId)).is_ok() {
                    return None;
                }
            }
        }
        self.table.rows.iter().all(|r| r.width_log2().is_some()).then_some(c)
    }

    /// Blocks node `c` (see [`Graph::blocked_weighted_node`]) and repairs the table as the
    /// module docs say.
    pub(super) fn repair_blocked_weighted(&mut self, c: usize, edited: &BTreeMap<usize, Arcs>) -> Update {
        let n = self.nodes_len();
        let ring: Vec<usize> = self.table.neighbors(c).iter().map(|&v| v as usize).collect();
        #[cfg(feature = "parallel")]
        let from: Vec<Distances> = {
            use rayon::prelude::*;
            ring.par_iter().map(|&a| self.search(a, false, &Incoming::new())).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let from: Vec<Distances> = ring.iter().map(|&a| self.search(a, false, &Incoming::new())).collect();
        // The removed slots of each edited node.
        let mut removed = vec![0u64; n];
        for (&u, (heads, _)) in edited {
            for (slot, v) in self.table.neighbors(u).iter().enumerate() {
                if heads.binary_search(v).is_err() {
                    removed[u] |= 1 << slot;
                }
            }
        }
        let lanes = n.div_ceil(64);
        let integer = self.model == CostModel::Integer;
        let walk = Walk { graph: self, c, ring: &ring, from: &from, removed: &removed, integer };
        #[cfg(feature = "parallel")]
        let writes: Vec<Writes> = {
            use rayon::prelude::*;
            (0..lanes).into_par_iter().map_init(|| Scratch::new(n), |work, lane| walk.lane(lane, work)).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let writes: Vec<Writes> = {
            let mut scratch = Scratch::new(n);
            (0..lanes).map(|lane| walk.lane(lane, &mut scratch)).collect()
        };
        let mut repaired = 0;
        for (lane, lane_writes) in writes.iter().enumerate() {
            repaired += lane_writes.columns.count_ones() as usize;
            for &(x, at) in &lane_writes.nodes {
                let (start, log) = lane_words(&self.table, x as usize, lane);
                let width = 1usize << log;
                self.table.words[start..start + width]
                    .copy_from_slice(&lane_writes.words[at as usize..at as usize + width]);
            }
        }
        // Nothing reaches `c` any more.
        let col_c = self.table.column[c] as usize;
        for x in 0..n {
            self.table.set_entry(x, col_c, &[0]);
        }
        // The remapping drops the removed arcs' bits.
        self.replace_structure(edited);
        Update { columns: 0, repaired, replayed: 0, patched: 0, rows: edited.len(), rebuilt: false }
    }
}

/// A lane's new words: `(node, offset into words)`, and the columns that changed.
#[derive(Default)]
struct Writes {
    nodes: Vec<(u32, u32)>,
    words: Vec<u64>,
    columns: u64,
}

/// What every lane reads: the graph and table before the edit, the blocked node, its
/// neighbours with the searches from them, and each node's removed slots.
struct Walk<'a> {
    graph: &'a Graph,
    c: usize,
    ring: &'a [usize],
    from: &'a [Distances],
    removed: &'a [u64],
    integer: bool,
}

/// One worker's scratch, per visited node (stamped per lane).
struct Scratch {
    stamp: Vec<u32>,
    place: Vec<u32>,
    generation: u32,
    nodes: Vec<u32>,
    /// The targets whose region holds the node.
    region: Vec<u64>,
    /// Whether the node waits in `work`.
    waiting: Vec<bool>,
    /// Old distances, where `known` says.
    old: Vec<[Cost; 64]>,
    known: Vec<u64>,
    /// New distances inside the regions, where `reached` says.
    new: Vec<[Cost; 64]>,
    reached: Vec<u64>,
    work: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32, u8)>>,
    path: Vec<(usize, Cost)>,
    written_stamp: Vec<u32>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            stamp: vec![0; n],
            place: vec![0; n],
            generation: 0,
            nodes: Vec::new(),
            region: Vec::new(),
            waiting: Vec::new(),
            old: Vec::new(),
            known: Vec::new(),
            new: Vec::new(),
            reached: Vec::new(),
            work: Vec::new(),
            heap: BinaryHeap::new(),
            path: Vec::new(),
            written_stamp: vec![0; n],
        }
    }

    /// The place of `x`, visiting it first if new.
    fn visit(&mut self, x: usize) -> usize {
        if self.stamp[x] == self.generation {
            return self.place[x] as usize;
        }
        self.stamp[x] = self.generation;
        let at = self.nodes.len();
        self.place[x] = at as u32;
        self.nodes.push(x as u32);
        self.region.push(0);
        self.waiting.push(false);
        self.old.push([Cost::INFINITE; 64]);
        self.known.push(0);
        self.new.push([Cost::INFINITE; 64]);
        self.reached.push(0);
        at
    }

    /// The targets whose region holds `x` (none if not visited).
    fn region_of(&self, x: usize) -> u64 {
        if self.stamp[x] == self.generation { self.region[self.place[x] as usize] } else { 0 }
    }
}

/// `a + b`, unreachable staying unreachable.
fn plus(a: Cost, b: Cost) -> Cost {
    if a == Cost::INFINITE || b == Cost::INFINITE { Cost::INFINITE } else { a + b }
}

impl Walk<'_> {
    /// The optimal moves of `x` toward target `j` of `lane`, as slot bits.
    fn moves(&self, x: usize, lane: usize, j: usize) -> u64 {
        let table = &self.graph.table;
        let (start, log) = lane_words(table, x, lane);
        let per_word = 64 >> log;
        let bits = 1u32 << log;
        let field = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        (table.words[start + j / per_word] >> ((j % per_word) << log)) & field
    }

    /// The old distance of `y` toward target `j` (node `t`) when known without a walk.
    fn known_old(&self, work: &mut Scratch, y: usize, t: usize, j: usize) -> Option<Cost> {
        if y == t {
            return Some(Cost::ZERO);
        }
        if let Some(a) = self.ring.iter().position(|&a| a == y) {
            return Some(self.from[a].get(t));
        }
        if work.stamp[y] != work.generation {
            return None;
        }
        let at = work.place[y] as usize;
        if work.known[at] >> j & 1 == 1 {
            return Some(work.old[at][j]);
        }
        if work.region[at] >> j & 1 == 1 {
            // Every shortest path from `y` leaves `K` through a removed arc's tail.
            let d = (0..self.ring.len())
                .map(|a| plus(self.from[a].get(y), self.from[a].get(t)))
                .min()
                .unwrap_or(Cost::INFINITE);
            work.old[at][j] = d;
            work.known[at] |= 1 << j;
            return Some(d);
        }
        None
    }

    /// The old distance of `y` toward target `j` (node `t`), walking its optimal moves to a
    /// node of known distance; remembered along the walk.
    fn old(&self, work: &mut Scratch, y: usize, t: usize, lane: usize, j: usize) -> Cost {
        let table = &self.graph.table;
        work.path.clear();
        let mut at = y;
        let base = loop {
            if let Some(d) = self.known_old(work, at, t, j) {
                break d;
            }
            let moves = self.moves(at, lane, j);
            if moves == 0 {
                break Cost::INFINITE;
            }
            let heads = table.neighbors(at);
            let mut rest = moves;
            let mut slot = moves.trailing_zeros() as usize;
            while rest != 0 {
                let s = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let h = heads[s] as usize;
                if h == t || self.ring.contains(&h) || work.stamp[h] == work.generation {
                    slot = s;
                    break;
                }
            }
            work.path.push((at, self.graph.slot_cost(at, slot)));
            at = heads[slot] as usize;
        };
        let mut d = base;
        let path = core::mem::take(&mut work.path);
        for &(x, cost) in path.iter().rev() {
            d = plus(d, cost);
            let p = work.visit(x);
            work.old[p][j] = d;
            work.known[p] |= 1 << j;
        }
        work.path = path;
        d
    }

    /// The new words of the lane's nodes whose entries change.
    #[expect(clippy::too_many_lines, reason = "one lane's regions, search and writes, in order")]
    fn lane(&self, lane: usize, work: &mut Scratch) -> Writes {
        let Walk { graph, c, ring, removed, integer, .. } = *self;
        let table = &graph.table;
        let nodes = graph.nodes_len();
        let col_c = table.column[c] as usize;
        let mut live = 0u64;
        let mut targets = [usize::MAX; 64];
        for (j, t) in targets.iter_mut().enumerate() {
            let col = lane * 64 + j;
            if col < nodes && col != col_c {
                live |= 1 << j;
                *t = table.order[col] as usize;
            }
        }
        let mut out = Writes::default();
        work.generation += 1;
        work.nodes.clear();
        work.region.clear();
        work.waiting.clear();
        work.old.clear();
        work.known.clear();
        work.new.clear();
        work.reached.clear();
        work.work.clear();
        // The regions: the least sets closed under "every move removed or into the set".
        for &a in ring {
            let p = work.visit(a);
            work.waiting[p] = true;
            work.work.push(a as u32);
        }
        while let Some(x) = work.work.pop() {
            let x = x as usize;
            let p = work.place[x] as usize;
            work.waiting[p] = false;
            let (start, log) = lane_words(table, x, lane);
            let words = &table.words[start..start + (1 << log)];
            let (mut any, mut all) = (0u64, u64::MAX);
            for (slot, &y) in table.neighbors(x).iter().enumerate() {
                let moves = gather(words, log, slot);
                any |= moves;
                let inside = if removed[x] >> slot & 1 == 1 { u64::MAX } else { work.region_of(y as usize) };
                all &= !moves | inside;
            }
            let region = any & all & live;
            let grown = region & !work.region[p];
            if grown == 0 {
                continue;
            }
            work.region[p] = region;
            // Neighbours with `x` among their moves toward the grown targets.
            for (slot, &z) in table.neighbors(x).iter().enumerate() {
                let z = z as usize;
                if z == c || removed[x] >> slot & 1 == 1 {
                    continue;
                }
                let (zs, zl) = lane_words(table, z, lane);
                let back = table.neighbors(z).binary_search(&(x as NodeId)).expect("undirected");
                if gather(&table.words[zs..zs + (1 << zl)], zl, back) & grown != 0 {
                    let q = work.visit(z);
                    if !work.waiting[q] {
                        work.waiting[q] = true;
                        work.work.push(z as u32);
                    }
                }
            }
        }
        let members: Vec<u32> = work.nodes.iter().copied().filter(|&x| work.region_of(x as usize) != 0).collect();
        if members.is_empty() {
            return out;
        }
        for &x in &members {
            out.columns |= work.region_of(x as usize);
        }
        // Seeds: each member from its neighbours outside its regions, at their old distances.
        work.heap.clear();
        for &x in &members {
            let x = x as usize;
            let p = work.place[x] as usize;
            let region = work.region[p];
            for (slot, &w) in table.neighbors(x).iter().enumerate() {
                let w = w as usize;
                if removed[x] >> slot & 1 == 1 {
                    continue;
                }
                let mut outside = region & !work.region_of(w);
                if outside == 0 {
                    continue;
                }
                let cost = graph.slot_cost(x, slot);
                while outside != 0 {
                    let j = outside.trailing_zeros() as usize;
                    outside &= outside - 1;
                    let dw = self.old(work, w, targets[j], lane, j);
                    let d = plus(dw, cost);
                    if d != Cost::INFINITE && (work.reached[p] >> j & 1 == 0 || d < work.new[p][j]) {
                        work.new[p][j] = d;
                        work.reached[p] |= 1 << j;
                        work.heap.push(Reverse((d.queue_key(integer), p as u32, j as u8)));
                    }
                }
            }
        }
        // Dijkstra inside the regions, over (node, target) pairs.
        while let Some(Reverse((key, p, j))) = work.heap.pop() {
            let (p, j) = (p as usize, usize::from(j));
            let d = work.new[p][j];
            if key != d.queue_key(integer) {
                continue; // queued before its distance dropped
            }
            let x = work.nodes[p] as usize;
            for (slot, &y) in table.neighbors(x).iter().enumerate() {
                if removed[x] >> slot & 1 == 1 || work.region_of(y as usize) >> j & 1 == 0 {
                    continue;
                }
                let q = work.place[y as usize] as usize;
                let dy = d + graph.slot_cost(x, slot);
                if work.reached[q] >> j & 1 == 0 || dy < work.new[q][j] {
                    work.new[q][j] = dy;
                    work.reached[q] |= 1 << j;
                    work.heap.push(Reverse((dy.queue_key(integer), q as u32, j as u8)));
                }
            }
        }
        // New words: members and their neighbours.
        let mut written = Vec::new();
        for &x in &members {
            for &y in core::iter::once(&x).chain(table.neighbors(x as usize)) {
                if y as usize != c && work.written_stamp[y as usize] != work.generation {
                    work.written_stamp[y as usize] = work.generation;
                    written.push(y);
                }
            }
        }
        for &x in &written {
            let x = x as usize;
            let region = work.region_of(x);
            let (start, log) = lane_words(table, x, lane);
            let width = 1usize << log;
            let offset = out.words.len();
            out.words.resize(offset + width, 0);
            let mut changed = false;
            for (slot, &y) in table.neighbors(x).iter().enumerate() {
                let y = y as usize;
                let old = gather(&table.words[start..start + width], log, slot);
                let cut = removed[x] >> slot & 1 == 1;
                let into = if cut { 0 } else { work.region_of(y) };
                // Outside `x`'s regions: the old moves, less those into a region.
                let mut moves = old & !region & !into;
                if region != 0 && !cut {
                    let own = work.place[x] as usize;
                    let cost = graph.slot_cost(x, slot);
                    // Unreached targets (cut off by the edit) get no moves.
                    let mut rest = region & work.reached[own];
                    while rest != 0 {
                        let j = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let dy = if into >> j & 1 == 1 {
                            let q = work.place[y] as usize;
                            if work.reached[q] >> j & 1 == 1 { work.new[q][j] } else { Cost::INFINITE }
                        } else {
                            self.old(work, y, targets[j], lane, j)
                        };
                        moves |= u64::from(plus(dy, cost) == work.new[own][j]) << j;
                    }
                }
                changed |= moves != old;
                let per_word = 64 >> log;
                for (i, word) in out.words[offset..].iter_mut().enumerate() {
                    let part = (moves >> (i * per_word)) & (u64::MAX >> (64 - per_word));
                    *word |= spread(part, log) << slot;
                }
            }
            if changed {
                out.nodes.push((x as u32, offset as u32));
            } else {
                out.words.truncate(offset);
            }
        }
        out
    }
}
