//! Opening a node: a node without arcs (a blocked grid cell) gets undirected unit arcs, and
//! nothing else changes. Its columns are repaired 64 targets at a time, one lane of the table,
//! by one walk outward from the node instead of one region per target.
//!
//! Write `c` for the node, `D(x)` for the distance from `x` to `c` after the edit (one
//! breadth-first search) and `d(x, t)` for the distances before it. A shortest path through
//! `c` costs `D(x) + D(t)`, so the new distance is `min(d(x, t), D(x) + D(t))`, and the
//! *slack* `s(x, t) = d(x, t) − D(x) − D(t)` says what happens to the entry of `x` toward `t`:
//!
//! - `s > 0`: every shortest path goes through `c`; the new entry is the moves of `x` toward
//!   `c` (its neighbours one step closer to `c`), the same for every such target.
//! - `s = 0`: a tie; those moves join the old ones.
//! - `s < 0`: nothing changes (a neighbour whose distance dropped would make `s ≥ 0`).
//!
//! Along a move away from `c` (from `x` to `z` with `D(z) = D(x) + 1`) the slack changes by
//! `d(z, t) − d(x, t) − 1`, which the old entries tell across the old edge `x`–`z`: `0` when
//! `x` is a move of `z`, `−2` when `z` is a move of `x`, `−1` otherwise. So the slack never
//! grows away from `c`, and a walk from `c` that stops at nodes whose slack is negative toward
//! every target of the lane visits every entry that changes. The neighbours of `c` start it:
//! their slacks come from one search from each of them before the edit. Each lane keeps 64
//! slacks per visited node and reads its entries a lane at a time; lanes are independent and
//! run on all cores.

use std::collections::BTreeMap;

use super::Update;
use super::arcs::Arcs;
use crate::build::Bmi2;
use crate::dense::table::Table;
use crate::{Graph, NodeId};

/// The slack toward a target the node could not reach before the edit.
const FAR: i32 = i32::MAX;

/// Slacks below zero, all alike: nothing changes there.
const NEGATIVE: i32 = -1;

/// Distance to a node that cannot be reached.
const UNREACHED: u32 = u32::MAX;

/// One lane's changes at one node: the targets whose entries become the moves toward the
/// opened node (`through`), and those that gain them (`tied`).
struct LaneWrite {
    node: u32,
    through: u64,
    tied: u64,
}

/// Bit `0` of every field of `1 << log` bits in a word.
fn field_starts(log: u32) -> u64 {
    if log == 6 { 1 } else { u64::MAX / ((1u64 << (1u32 << log)) - 1) }
}

/// The lane of 64 columns from `lane * 64` in the row of `x`: `width` words (`width` the
/// entry bits, at most 64), and `log2(width)`.
pub(super) fn lane_words(table: &Table, x: usize, lane: usize) -> (usize, u32) {
    let (word, shift, _) = table.locate(x, lane * 64).expect("narrow rows only");
    debug_assert_eq!(shift, 0);
    (word, table.rows[x].width_log2().expect("narrow rows only"))
}

/// BMI2 where the processor has it (detected once).
fn bmi2() -> Option<Bmi2> {
    static DETECTED: std::sync::OnceLock<Option<Bmi2>> = std::sync::OnceLock::new();
    *DETECTED.get_or_init(Bmi2::detect)
}

/// The columns of the lane whose entry in `words` (fields of `1 << log` bits) has `slot` set.
pub(super) fn gather(words: &[u64], log: u32, slot: usize) -> u64 {
    let per_word = 64 >> log;
    let pick = field_starts(log) << slot;
    if let Some(token) = bmi2() {
        #[cfg(target_arch = "x86_64")]
        {
            let _ = token;
            // SAFETY: the token proves the processor has BMI2.
            return unsafe { bits_x86::gather(words, pick, per_word) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        token.never();
    }
    let mut lanes = 0;
    for (i, &word) in words.iter().enumerate() {
        let mut bits = word & pick;
        while bits != 0 {
            lanes |= 1 << (i * per_word + (bits.trailing_zeros() >> log) as usize);
            bits &= bits - 1;
        }
    }
    lanes
}

/// Bit `k` of `bits` moved to bit `k << log`, for the `64 >> log` low bits.
pub(super) fn spread(mut bits: u64, log: u32) -> u64 {
    if let Some(token) = bmi2() {
        #[cfg(target_arch = "x86_64")]
        {
            let _ = token;
            // SAFETY: the token proves the processor has BMI2.
            return unsafe { bits_x86::spread(bits, field_starts(log)) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        token.never();
    }
    let mut out = 0;
    while bits != 0 {
        out |= 1 << (bits.trailing_zeros() << log);
        bits &= bits - 1;
    }
    out
}

/// The gathers and spreads with BMI2, one instruction a word.
#[cfg(target_arch = "x86_64")]
mod bits_x86 {
    use core::arch::x86_64::{_pdep_u64, _pext_u64};

    /// [`gather`](super::gather) with `pext`: `pick` the bits to take from each word,
    /// `per_word` of them.
    ///
    /// # Safety
    /// The processor has BMI2.
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn gather(words: &[u64], pick: u64, per_word: usize) -> u64 {
        let mut lanes = 0;
        for (i, &word) in words.iter().enumerate() {
            lanes |= _pext_u64(word, pick) << (i * per_word);
        }
        lanes
    }

    /// [`spread`](super::spread) with `pdep` into the bits `starts`.
    ///
    /// # Safety
    /// The processor has BMI2.
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn spread(bits: u64, starts: u64) -> u64 {
        _pdep_u64(bits, starts)
    }
}

impl Graph {
    /// The node that the edit opens, when `edited` is exactly that: a node without arcs gets
    /// unit arcs, each head gets the arc back and nothing else changes, on an undirected
    /// unit-cost graph whose entries fit in a word.
    pub(super) fn opened_node(&self, edited: &BTreeMap<usize, Arcs>) -> Option<usize> {
        if self.directed || !self.costs.is_empty() {
            return None;
        }
        let mut opened = None;
        for (&u, (heads, costs)) in edited {
            if costs.iter().any(|&c| c != 1) {
                return None;
            }
            if self.table.rows[u].deg == 0 && !heads.is_empty() {
                if opened.is_some() {
                    return None;
                }
                opened = Some(u);
            }
        }
        let c = opened?;
        let heads = &edited[&c].0;
        if edited.len() != heads.len() + 1 || heads.binary_search(&(c as NodeId)).is_ok() {
            return None;
        }
        for &v in heads {
            let (new, _) = edited.get(&(v as usize))?;
            let old = self.table.neighbors(v as usize);
            if new.len() != old.len() + 1 || !new.iter().filter(|&&h| h as usize != c).eq(old.iter()) {
                return None;
            }
        }
        self.table.rows.iter().all(|r| r.width_log2().is_some()).then_some(c)
    }

    /// Distances from `start` over the graph without `skip`.
    fn distances_without(&self, start: usize, skip: usize) -> Vec<u32> {
        let mut dist = vec![UNREACHED; self.nodes_len()];
        let mut queue = vec![start as NodeId];
        dist[start] = 0;
        dist[skip] = 0; // never entered
        let mut head = 0;
        while let Some(&x) = queue.get(head) {
            head += 1;
            let next = dist[x as usize] + 1;
            for &y in self.table.neighbors(x as usize) {
                if dist[y as usize] == UNREACHED {
                    dist[y as usize] = next;
                    queue.push(y);
                }
            }
        }
        dist[skip] = UNREACHED;
        dist
    }

    /// Opens node `c` (see [`Graph::opened_node`]) and repairs the table as the module docs
    /// say.
    pub(super) fn repair_opened(&mut self, c: usize, edited: &BTreeMap<usize, Arcs>) -> Update {
        self.replace_structure(edited);
        let n = self.nodes_len();
        let heads: Vec<usize> = self.table.neighbors(c).iter().map(|&v| v as usize).collect();
        // Before the edit, from each neighbour of `c`.
        #[cfg(feature = "parallel")]
        let from: Vec<Vec<u32>> = {
            use rayon::prelude::*;
            heads.par_iter().map(|&a| self.distances_without(a, c)).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let from: Vec<Vec<u32>> = heads.iter().map(|&a| self.distances_without(a, c)).collect();
        // After it, to `c`, and the nodes in that order.
        let mut to_c = vec![UNREACHED; n];
        let mut order = vec![c as NodeId];
        to_c[c] = 0;
        let mut head = 0;
        while let Some(&x) = order.get(head) {
            head += 1;
            for &y in self.table.neighbors(x as usize) {
                if to_c[y as usize] == UNREACHED {
                    to_c[y as usize] = to_c[x as usize] + 1;
                    order.push(y);
                }
            }
        }
        // The moves of each node toward `c`.
        let toward: Vec<u64> = (0..n)
            .map(|x| {
                let d = to_c[x];
                let mut mask = 0;
                for (i, &z) in self.table.neighbors(x).iter().enumerate() {
                    if d != UNREACHED && to_c[z as usize].wrapping_add(1) == d {
                        mask |= 1 << i;
                    }
                }
                mask
            })
            .collect();
        let lanes = n.div_ceil(64);
        let walk = Walk { graph: self, c, heads: &heads, from: &from, to_c: &to_c };
        #[cfg(feature = "parallel")]
        let writes: Vec<Vec<LaneWrite>> = {
            use rayon::prelude::*;
            (0..lanes).into_par_iter().map_init(|| Scratch::new(n), |s, lane| walk.lane(lane, s)).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let writes: Vec<Vec<LaneWrite>> = {
            let mut scratch = Scratch::new(n);
            (0..lanes).map(|lane| walk.lane(lane, &mut scratch)).collect()
        };
        let mut changed = 0;
        for (lane, writes) in writes.iter().enumerate() {
            let mut columns = 0u64;
            for &LaneWrite { node, through, tied } in writes {
                let x = node as usize;
                let moves = toward[x];
                let (start, log) = lane_words(&self.table, x, lane);
                let fields = if log == 6 { u64::MAX } else { (1u64 << (1u32 << log)) - 1 };
                let per_word = 64 >> log;
                for i in 0..1usize << log {
                    let part =
                        |bits: u64| spread((bits >> (i * per_word)) & (u64::MAX >> (64 - per_word)), log);
                    let (through, any) = (part(through), part(through | tied));
                    let word = &mut self.table.words[start + i];
                    *word = (*word & !(through * fields)) | (any * moves);
                }
                columns |= through | tied;
            }
            changed += columns.count_ones() as usize;
        }
        // The column of `c`: every node's moves toward it (its entries were empty).
        let col_c = self.table.column[c] as usize;
        for &x in &order[1..] {
            let x = x as usize;
            self.table.set_entry(x, col_c, &[toward[x]]);
        }
        // The row of `c`: toward each target, its neighbours closest to it.
        for t in 0..n {
            if t == c || to_c[t] == UNREACHED {
                continue;
            }
            let mut mask = 0u64;
            for (i, d) in from.iter().enumerate() {
                if d[t].wrapping_add(1) == to_c[t] {
                    mask |= 1 << i;
                }
            }
            self.table.set_entry(c, self.table.column[t] as usize, &[mask]);
        }
        Update {
            columns: 0,
            repaired: changed + 1,
            replayed: 0,
            patched: 0,
            rows: edited.len(),
            rebuilt: false,
        }
    }
}

/// What every lane's walk reads: the graph after the edit (entries still as before), the
/// opened node and its neighbours, the distances from them before the edit and to `c` after.
struct Walk<'a> {
    graph: &'a Graph,
    c: usize,
    heads: &'a [usize],
    from: &'a [Vec<u32>],
    to_c: &'a [u32],
}

/// One worker's scratch: each visited node's place in `slack`, stamped per lane.
struct Scratch {
    stamp: Vec<u32>,
    place: Vec<u32>,
    generation: u32,
    slack: Vec<[i32; 64]>,
    queue: Vec<u32>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch { stamp: vec![0; n], place: vec![0; n], generation: 0, slack: Vec::new(), queue: Vec::new() }
    }

    /// Records `x` as visited with `slack` and its changes in `writes`; walks on from it if
    /// any of its slack is above zero.
    fn visit(&mut self, x: usize, slack: [i32; 64], writes: &mut Vec<LaneWrite>) {
        self.stamp[x] = self.generation;
        self.place[x] = self.slack.len() as u32;
        self.slack.push(slack);
        let (through, tied) = masks(&slack);
        if through | tied != 0 {
            writes.push(LaneWrite { node: x as u32, through, tied });
        }
        if through != 0 {
            self.queue.push(x as u32);
        }
    }
}

/// The targets of `slack` above zero and at zero.
fn masks(slack: &[i32; 64]) -> (u64, u64) {
    let (mut through, mut tied) = (0u64, 0u64);
    for (j, &s) in slack.iter().enumerate() {
        through |= u64::from(s > 0) << j;
        tied |= u64::from(s == 0) << j;
    }
    (through, tied)
}

impl Walk<'_> {
    /// The changes toward the 64 targets of `lane`.
    fn lane(&self, lane: usize, scratch: &mut Scratch) -> Vec<LaneWrite> {
        let Walk { graph, c, heads, from, to_c } = *self;
        let table = &graph.table;
        let n = graph.nodes_len();
        let targets: Vec<Option<usize>> = (0..64)
            .map(|j| {
                let col = lane * 64 + j;
                let t = (col < n).then(|| table.order[col] as usize)?;
                (t != c && to_c[t] != UNREACHED).then_some(t)
            })
            .collect();
        let mut writes = Vec::new();
        if targets.iter().all(Option::is_none) {
            return writes;
        }
        scratch.generation += 1;
        scratch.slack.clear();
        scratch.queue.clear();
        for (i, &a) in heads.iter().enumerate() {
            let mut slack = [NEGATIVE; 64];
            for (j, t) in targets.iter().enumerate() {
                let Some(t) = *t else { continue };
                slack[j] = if from[i][t] == UNREACHED {
                    FAR
                } else {
                    (i64::from(from[i][t]) - 1 - i64::from(to_c[t])).max(-1) as i32
                };
            }
            scratch.visit(a, slack, &mut writes);
        }
        let mut head = 0;
        while let Some(&x) = scratch.queue.get(head) {
            head += 1;
            let x = x as usize;
            let at = scratch.place[x] as usize;
            let (x_start, x_log) = lane_words(table, x, lane);
            let x_words = &table.words[x_start..x_start + (1 << x_log)];
            for (slot, &z) in table.neighbors(x).iter().enumerate() {
                let z = z as usize;
                if z == c || to_c[z] != to_c[x] + 1 || scratch.stamp[z] == scratch.generation {
                    continue;
                }
                let (z_start, z_log) = lane_words(table, z, lane);
                let z_words = &table.words[z_start..z_start + (1 << z_log)];
                let back = table.neighbors(z).binary_search(&(x as NodeId)).expect("undirected");
                // `x` a move of `z`: `z` one farther; `z` a move of `x`: one closer.
                let (farther, closer) = (gather(z_words, z_log, back), gather(x_words, x_log, slot));
                let parent = scratch.slack[at];
                let mut slack = [NEGATIVE; 64];
                for j in 0..64 {
                    let s = parent[j];
                    slack[j] = if s == FAR {
                        FAR
                    } else {
                        (s - 1 + (farther >> j & 1) as i32 - (closer >> j & 1) as i32).max(NEGATIVE)
                    };
                }
                scratch.visit(z, slack, &mut writes);
            }
        }
        writes
    }
}
