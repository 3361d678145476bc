//! Blocking a node: every arc of a node removed (a grid cell blocked), nothing else changing,
//! on an undirected unit-cost graph. Repaired 64 targets at a time, one lane of the table, by
//! a walk outward from the node instead of one region per target.
//!
//! Write `c` for the node and `D(x)` for the distance from `x` to `c` before the edit. For a
//! target `t`, the nodes whose distance grows are those all of whose optimal moves lead into
//! that set or to `c` (the removal region of the module docs); every shortest path from them
//! goes through `c`, so each of their moves is one step closer to `c`, their distance before
//! the edit is `D(x) + D(t)`, and the region is found by one walk away from `c` in order of
//! `D`, 64 targets at once: a node is in a target's region when its entry is not empty and
//! every move in it is `c` or in the region (bit operations over the lane).
//!
//! A region's neighbour `w` outside it keeps its distance: `D(x) + D(t)` or one more, as `x`
//! is a move of `w` or not, for a region node `x` beside it. The region's new distances,
//! less `D(t)`, are a breadth-first search inside it from those values, run for the 64
//! targets together over one bucket queue of `(node, value, targets)`. Entries are then
//! rewritten: region nodes toward the neighbours one step closer, their neighbours outside
//! the region without their moves into it. Everything is read from the table before the edit
//! and written in its slots, before the rows are remapped (dropping the arcs to `c`).

use std::collections::BTreeMap;

use super::Update;
use super::arcs::Arcs;
use super::opened::{gather, lane_words, spread};
use crate::{Graph, NodeId};

/// Distance to a node that cannot be reached.
const UNREACHED: u32 = u32::MAX;

impl Graph {
    /// The node that the edit blocks, when `edited` is exactly that: a node loses every arc,
    /// each head loses the arc back and nothing else changes, on an undirected unit-cost graph
    /// whose entries fit in a word.
    pub(super) fn blocked_node(&self, edited: &BTreeMap<usize, Arcs>) -> Option<usize> {
        if self.directed || !self.costs.is_empty() {
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
        let old = self.table.neighbors(c);
        if edited.len() != old.len() + 1 || old.binary_search(&(c as NodeId)).is_ok() {
            return None;
        }
        for &v in old {
            let (new, costs) = edited.get(&(v as usize))?;
            let before = self.table.neighbors(v as usize);
            if costs.iter().any(|&w| w != 1)
                || new.len() + 1 != before.len()
                || !before.iter().filter(|&&h| h as usize != c).eq(new.iter())
            {
                return None;
            }
        }
        self.table.rows.iter().all(|r| r.width_log2().is_some()).then_some(c)
    }

    /// Blocks node `c` (see [`Graph::blocked_node`]) and repairs the table as the module docs
    /// say.
    pub(super) fn repair_blocked(&mut self, c: usize, edited: &BTreeMap<usize, Arcs>) -> Update {
        let n = self.nodes_len();
        let mut to_c = vec![UNREACHED; n];
        let mut queue = vec![c as NodeId];
        to_c[c] = 0;
        let mut head = 0;
        while let Some(&x) = queue.get(head) {
            head += 1;
            for &y in self.table.neighbors(x as usize) {
                if to_c[y as usize] == UNREACHED {
                    to_c[y as usize] = to_c[x as usize] + 1;
                    queue.push(y);
                }
            }
        }
        let lanes = n.div_ceil(64);
        let walk = Walk { graph: self, c, to_c: &to_c };
        #[cfg(feature = "parallel")]
        let writes: Vec<Writes> = {
            use rayon::prelude::*;
            (0..lanes)
                .into_par_iter()
                .map_init(|| Scratch::new(n), |work, lane| walk.lane(lane, work))
                .collect()
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

/// What every lane's walk reads: the graph and table before the edit, the blocked node and
/// the distances to it.
struct Walk<'a> {
    graph: &'a Graph,
    c: usize,
    to_c: &'a [u32],
}

/// One worker's scratch: each visited node's place in `region` and `value`, stamped per lane.
struct Scratch {
    stamp: Vec<u32>,
    place: Vec<u32>,
    generation: u32,
    /// Per visited node: the targets whose region holds it.
    region: Vec<u64>,
    /// Per visited node: its new distance less the target's distance to `c` before.
    value: Vec<[i32; 64]>,
    /// Per visited node: the targets whose `value` is set.
    reached: Vec<u64>,
    /// Nodes visited, in order of `D`.
    visited: Vec<u32>,
    /// Buckets of `(node, targets)` by value, from `base`.
    buckets: Vec<Vec<(u32, u64)>>,
    /// Nodes written this lane.
    written: Vec<u32>,
    written_stamp: Vec<u32>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            stamp: vec![0; n],
            place: vec![0; n],
            generation: 0,
            region: Vec::new(),
            value: Vec::new(),
            reached: Vec::new(),
            visited: Vec::new(),
            buckets: Vec::new(),
            written: Vec::new(),
            written_stamp: vec![0; n],
        }
    }

    /// The targets whose region holds `x` (none if not visited).
    fn region_of(&self, x: usize) -> u64 {
        if self.stamp[x] == self.generation { self.region[self.place[x] as usize] } else { 0 }
    }

    fn push(&mut self, value: i32, base: i32, x: usize, targets: u64) {
        let at = usize::try_from(value - base).expect("values from the base up");
        if self.buckets.len() <= at {
            self.buckets.resize_with(at + 1, Vec::new);
        }
        self.buckets[at].push((x as u32, targets));
    }
}

impl Walk<'_> {
    /// The new words of the lane's nodes whose entries change.
    #[expect(clippy::too_many_lines, reason = "one lane's walk, search and writes, in order")]
    fn lane(&self, lane: usize, work: &mut Scratch) -> Writes {
        let Walk { graph, c, to_c } = *self;
        let table = &graph.table;
        let nodes = graph.nodes_len();
        let col_c = table.column[c] as usize;
        // Targets of the lane that the walk serves: not `c`, and in the lane.
        let mut live = 0u64;
        for j in 0..64 {
            let col = lane * 64 + j;
            if col < nodes && col != col_c {
                live |= 1 << j;
            }
        }
        let mut out = Writes::default();
        work.generation += 1;
        work.region.clear();
        work.value.clear();
        work.visited.clear();
        // The walk: regions, in order of `D`.
        let heads = table.neighbors(c);
        for &a in heads {
            let a = a as usize;
            work.stamp[a] = work.generation;
            work.place[a] = work.visited.len() as u32;
            work.visited.push(a as u32);
            work.region.push(0);
        }
        let mut head = 0;
        while let Some(&x) = work.visited.get(head) {
            head += 1;
            let x = x as usize;
            let (start, log) = lane_words(table, x, lane);
            let words = &table.words[start..start + (1 << log)];
            let (mut any, mut all) = (0u64, u64::MAX);
            for (slot, &y) in table.neighbors(x).iter().enumerate() {
                let moves = gather(words, log, slot);
                any |= moves;
                let inside = if y as usize == c { u64::MAX } else { work.region_of(y as usize) };
                all &= !moves | inside;
            }
            let region = any & all & live;
            work.region[work.place[x] as usize] = region;
            if region == 0 {
                continue;
            }
            for &z in table.neighbors(x) {
                let z = z as usize;
                if to_c[z] == to_c[x] + 1 && work.stamp[z] != work.generation {
                    work.stamp[z] = work.generation;
                    work.place[z] = work.visited.len() as u32;
                    work.visited.push(z as u32);
                    work.region.push(0);
                }
            }
        }
        // Region members only, from here on.
        let members: Vec<u32> =
            work.visited.iter().copied().filter(|&x| work.region_of(x as usize) != 0).collect();
        if members.is_empty() {
            return out;
        }
        for &x in &members {
            out.columns |= work.region_of(x as usize);
        }
        // (Values count only where `reached` says so: no reset.)
        work.value.resize(work.region.len(), [0; 64]);
        work.reached.clear();
        work.reached.resize(work.region.len(), 0);
        // Seeds: from each member's neighbours outside its regions.
        let base = members.iter().map(|&x| to_c[x as usize]).min().unwrap_or(0).cast_signed() + 1;
        for b in &mut work.buckets {
            b.clear();
        }
        for &x in &members {
            let x = x as usize;
            let region = work.region_of(x);
            let d = to_c[x].cast_signed();
            for &w in table.neighbors(x) {
                let w = w as usize;
                if w == c {
                    continue;
                }
                let outside = region & !work.region_of(w);
                if outside == 0 {
                    continue;
                }
                let (start, log) = lane_words(table, w, lane);
                let back = table.neighbors(w).binary_search(&(x as NodeId)).expect("undirected");
                let farther = gather(&table.words[start..start + (1 << log)], log, back);
                // `w` at `d` (or `d + 1` where `x` is a move of `w`): `x` one more.
                work.push(d + 1, base, x, outside & !farther);
                work.push(d + 2, base, x, outside & farther);
            }
        }
        // The search inside the regions, all targets at once.
        let mut at = 0;
        while at < work.buckets.len() {
            let value = base + i32::try_from(at).expect("values fit");
            let bucket = core::mem::take(&mut work.buckets[at]);
            for &(x, targets) in &bucket {
                let x = x as usize;
                let place = work.place[x] as usize;
                let new = targets & !work.reached[place];
                work.reached[place] |= new;
                let mut rest = new;
                while rest != 0 {
                    work.value[place][rest.trailing_zeros() as usize] = value;
                    rest &= rest - 1;
                }
                if new == 0 {
                    continue;
                }
                for &y in table.neighbors(x) {
                    let y = y as usize;
                    if y != c {
                        let next = new & work.region_of(y);
                        if next != 0 {
                            work.push(value + 1, base, y, next);
                        }
                    }
                }
            }
            work.buckets[at] = bucket;
            work.buckets[at].clear();
            at += 1;
        }
        // New words: members and their neighbours.
        work.written.clear();
        for &x in &members {
            for &y in core::iter::once(&x).chain(table.neighbors(x as usize)) {
                if y as usize != c && work.written_stamp[y as usize] != work.generation {
                    work.written_stamp[y as usize] = work.generation;
                    work.written.push(y);
                }
            }
        }
        let written = core::mem::take(&mut work.written);
        for &x in &written {
            let x = x as usize;
            let region = work.region_of(x);
            let (start, log) = lane_words(table, x, lane);
            let width = 1usize << log;
            let words = &table.words[start..start + width];
            let own = (region != 0).then(|| work.place[x] as usize);
            let near = to_c[x].cast_signed();
            let offset = out.words.len();
            out.words.resize(offset + width, 0);
            let mut changed = false;
            for (slot, &y) in table.neighbors(x).iter().enumerate() {
                let y = y as usize;
                let old = gather(words, log, slot);
                let into = if y == c { 0 } else { work.region_of(y) };
                // Outside `x`'s regions: the old moves, less those into a region.
                let mut moves = old & !region & !into;
                if let Some(own) = own
                    && y != c
                {
                    // Inside: the neighbours one step closer after the edit.
                    let theirs = if into == 0 { 0 } else { work.place[y] as usize };
                    let their_reach = if into == 0 { 0 } else { work.reached[theirs] };
                    let farther = if into == region {
                        0
                    } else {
                        let (ys, yl) = lane_words(table, y, lane);
                        let back = table.neighbors(y).binary_search(&(x as NodeId)).expect("undirected");
                        gather(&table.words[ys..ys + (1 << yl)], yl, back)
                    };
                    // Unreached targets (cut off by the edit) get no moves.
                    let mut rest = region & work.reached[own];
                    while rest != 0 {
                        let j = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let mine = work.value[own][j];
                        let step = if into >> j & 1 == 1 {
                            their_reach >> j & 1 == 1 && work.value[theirs][j] + 1 == mine
                        } else {
                            near + i32::from(farther >> j & 1 == 1) + 1 == mine
                        };
                        moves |= u64::from(step) << j;
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
        work.written = written;
        out
    }
}
