//! The batched bit-parallel BFS engine for undirected unit-cost graphs.
//!
//! One run handles up to `64 · K` targets at once, one bit per target in a lane of `K` words.
//! For every node `v` the engine keeps `visited[v]` (targets whose search has reached `v`) and
//! `front[v]` (targets whose search reached `v` at the previous level). At level `L`, a node
//! `v` is newly reached for the targets `S = (OR of front[w] over v's neighbours w) &
//! !visited[v]`, so `d(v, t) = L` for each `t ∈ S`.
//!
//! ## Distances modulo 3
//!
//! Slot `i` of `v` (neighbour `w`) is an optimal first move toward `t` exactly when
//! `d(w, t) = d(v, t) − 1`. On an undirected graph neighbours' distances differ by at most one,
//! so `d(v, t) − d(w, t) ∈ {−1, 0, 1}` and the residues `d mod 3` alone decide it:
//! `d(w, t) ≡ d(v, t) − 1 (mod 3)`. The engine keeps two bit planes per node holding
//! `d(v, t) mod 3` for every target of the batch (0 = `00`, 1 = `10`, 2 = `01`), sets one of
//! them as a node is reached, and derives every slot's mask once, after the search, from the
//! planes of the node and of its neighbour. A level touches only the node's own state and its
//! neighbours' frontier bits; no per-arc state, no distance stored.
//!
//! ## Which nodes are looked at
//!
//! Only *live* nodes are evaluated at each level: a node joins the live list when one of its
//! neighbours is first reached (before that it cannot gain anything), and leaves it once it has
//! been reached by every target of the batch that can reach it (its *goal*: the batch's targets
//! in its connected component). Because a batch's targets are close together (see
//! [`super::order`]), each node is live for only about as many levels as the batch's diameter,
//! and the engine never scans the whole graph per level. The goal only has to contain every
//! target that can reach the node: a larger goal costs time, never correctness.

use crate::NodeId;

/// Read-only adjacency for the engine: out-arcs (table slots) and in-arcs (who to wake up).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Adjacency<'a> {
    /// Out-arcs of node `v`: `heads[offsets[v]..offsets[v + 1]]`, in table slot order. A
    /// plain offset array (not the table's wider rows) keeps the engine's working set small.
    pub offsets: &'a [u32],
    /// Out-arc heads.
    pub heads: &'a [NodeId],
    /// In-arcs of `v`: `tails[in_offsets[v]..in_offsets[v + 1]]` (the out-arcs again for
    /// undirected graphs).
    pub in_offsets: &'a [u32],
    /// In-arc tails.
    pub tails: &'a [NodeId],
    /// Component label per node: targets in other components never reach a node.
    pub component: &'a [u32],
    /// Nodes the search must not enter (peeled trees), one flag per node, or empty.
    pub peeled: &'a [bool],
}

/// Graphs from this many nodes on keep their live list in id order.
const SORTED_LIVE_NODES: usize = 1 << 15;

/// A lane of `K · 64` target bits.
pub(crate) type Lane<const K: usize> = [u64; K];

impl Adjacency<'_> {
    /// Out-arc indices of `v`.
    #[inline]
    pub fn arcs(&self, v: usize) -> core::ops::Range<usize> {
        self.offsets[v] as usize..self.offsets[v + 1] as usize
    }

    /// In-arc indices of `v`.
    #[inline]
    fn in_arcs(&self, v: usize) -> core::ops::Range<usize> {
        self.in_offsets[v] as usize..self.in_offsets[v + 1] as usize
    }

    /// Number of nodes.
    #[inline]
    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }
}

#[inline]
fn or<const K: usize>(a: Lane<K>, b: Lane<K>) -> Lane<K> {
    core::array::from_fn(|k| a[k] | b[k])
}

#[inline]
fn and_not<const K: usize>(a: Lane<K>, b: Lane<K>) -> Lane<K> {
    core::array::from_fn(|k| a[k] & !b[k])
}

#[inline]
fn and<const K: usize>(a: Lane<K>, b: Lane<K>) -> Lane<K> {
    core::array::from_fn(|k| a[k] & b[k])
}

#[inline]
fn is_zero<const K: usize>(a: Lane<K>) -> bool {
    a.iter().fold(0, |acc, &w| acc | w) == 0
}

/// Sets `goals` to the batch's targets grouped by component, sorted by component.
fn collect_goals<const K: usize>(component: &[u32], targets: &[NodeId], goals: &mut Vec<(u32, Lane<K>)>) {
    goals.clear();
    for (j, &t) in targets.iter().enumerate() {
        let c = component[t as usize];
        let i = goals.iter().position(|&(gc, _)| gc == c).unwrap_or_else(|| {
            goals.push((c, [0; K]));
            goals.len() - 1
        });
        goals[i].1[j / 64] |= 1 << (j % 64);
    }
    goals.sort_unstable_by_key(|&(c, _)| c);
}

/// Sets `masks` to the slot masks of `v` from the residues: neighbour `w` is optimal toward
/// `t` iff `d(w, t) ≡ d(v, t) − 1 (mod 3)`, for targets that reach both.
fn slot_masks<const K: usize>(
    g: Adjacency<'_>,
    v: usize,
    visited: &[Lane<K>],
    low: &[Lane<K>],
    high: &[Lane<K>],
    masks: &mut Vec<Lane<K>>,
) {
    let (a0, a1) = (low[v], high[v]);
    masks.clear();
    masks.extend(g.heads[g.arcs(v)].iter().map(|&w| {
        let w = w as usize;
        let (b0, b1) = (low[w], high[w]);
        let both = and(visited[v], visited[w]);
        core::array::from_fn(|k| {
            let (a0, a1, b0, b1) = (a0[k], a1[k], b0[k], b1[k]);
            // (d(w), d(v)) mod 3 ∈ {(0, 1), (1, 2), (2, 0)}
            let one_after = (!b0 & !b1 & a0) | (b0 & a1) | (b1 & !a0 & !a1);
            both[k] & one_after
        })
    }));
}

/// Reusable scratch for batch runs on one graph; O(n + m) lanes, reset in O(touched).
#[derive(Debug)]
pub(crate) struct BfsBatch<const K: usize> {
    visited: Vec<Lane<K>>,
    front: Vec<Lane<K>>,
    next: Vec<Lane<K>>,
    /// `d(v, t) mod 3` as two bit planes: residue 1 in `low`, residue 2 in `high`.
    low: Vec<Lane<K>>,
    high: Vec<Lane<K>>,
    /// One node's slot masks, for `emit`.
    masks: Vec<Lane<K>>,
    /// Per node: the run in which it joined the live list.
    joined: Vec<u32>,
    run: u32,
    live: Vec<u32>,
    current: Vec<u32>,
    upcoming: Vec<u32>,
    reached: Vec<u32>,
    touched: Vec<u32>,
    goals: Vec<(u32, Lane<K>)>,
    /// Scratch for merging joins into the live list.
    merged: Vec<u32>,
}

impl<const K: usize> BfsBatch<K> {
    /// Targets per run.
    pub const WIDTH: usize = 64 * K;

    pub fn new(nodes: usize) -> Self {
        BfsBatch {
            visited: crate::memory::filled(nodes, [0; K]),
            front: crate::memory::filled(nodes, [0; K]),
            next: crate::memory::filled(nodes, [0; K]),
            low: crate::memory::filled(nodes, [0; K]),
            high: crate::memory::filled(nodes, [0; K]),
            masks: Vec::new(),
            joined: vec![0; nodes],
            run: 0,
            live: Vec::new(),
            current: Vec::new(),
            upcoming: Vec::new(),
            reached: Vec::new(),
            touched: Vec::new(),
            goals: Vec::new(),
            merged: Vec::new(),
        }
    }

    /// Runs the searches of up to `64 · K` `targets` (bit `j` = `targets[j]`), then calls
    /// `emit(node, masks)` once for every node reached by some target, with that node's
    /// per-slot lanes. Nodes not reached have all-zero entries and are not emitted.
    #[expect(
        clippy::too_many_lines,
        reason = "one level-synchronous loop over a dozen scratch vectors; split, it would pass them all around"
    )]
    pub fn run(&mut self, g: Adjacency<'_>, targets: &[NodeId], mut emit: impl FnMut(usize, &[Lane<K>])) {
        debug_assert!(targets.len() <= Self::WIDTH);
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.joined.fill(0);
            self.run = 1;
        }
        let BfsBatch {
            visited,
            front,
            next,
            low,
            high,
            masks,
            joined,
            run,
            live,
            current,
            upcoming,
            reached,
            touched,
            goals,
            merged,
        } = self;
        let run = *run;

        collect_goals(g.component, targets, goals);

        // Adds `v` to the live list, once per run.
        let join = |v: u32, live: &mut Vec<u32>, joined: &mut [u32]| {
            if joined[v as usize] != run && !g.peeled.get(v as usize).is_some_and(|&p| p) {
                joined[v as usize] = run;
                live.push(v);
            }
        };
        // The targets that can reach a live node: those of its component.
        let goal = |v: usize| -> Lane<K> {
            if let [(_, only)] = goals.as_slice() {
                return *only;
            }
            let c = g.component[v];
            let i = goals
                .binary_search_by_key(&c, |&(gc, _)| gc)
                .expect("a live node shares a target's component");
            goals[i].1
        };

        for (j, &t) in targets.iter().enumerate() {
            let ti = t as usize;
            if is_zero(visited[ti]) {
                touched.push(t);
                current.push(t);
                reached.push(t);
            }
            visited[ti][j / 64] |= 1 << (j % 64);
            front[ti][j / 64] |= 1 << (j % 64);
        }

        let mut level = 0u32;
        loop {
            let old = live.len();
            for &v in reached.iter() {
                join(v, live, joined);
                for &w in &g.tails[g.in_arcs(v as usize)] {
                    join(w, live, joined);
                }
            }
            reached.clear();
            // Live nodes in id order on graphs whose lanes outgrow the caches: on maps numbered
            // row by row, a level's loads then sweep memory in a few streams that the processor
            // prefetches (the joins are sorted and merged in). Measured on 2 cores: brc202d
            // (43k cells) builds 13–35% faster, Berlin (48k) −10% to +4%; below 32k nodes it
            // costs up to 7% (a 100×100 walled grid), so it is left out there.
            if live.len() > old && g.nodes() >= SORTED_LIVE_NODES {
                live[old..].sort_unstable();
                merged.clear();
                let (mut a, mut b) = (0, old);
                while a < old && b < live.len() {
                    if live[a] < live[b] {
                        merged.push(live[a]);
                        a += 1;
                    } else {
                        merged.push(live[b]);
                        b += 1;
                    }
                }
                merged.extend_from_slice(&live[a..old]);
                merged.extend_from_slice(&live[b..]);
                core::mem::swap(live, merged);
            }
            if current.is_empty() {
                break;
            }

            level += 1;
            let mut plane = match level % 3 {
                1 => Some(&mut *low),
                2 => Some(&mut *high),
                _ => None,
            };
            // Branch-free on purpose: whether a live node gains anything is unpredictable, and
            // a straight-line body lets the processor overlap the loads of many nodes.
            upcoming.clear();
            upcoming.resize(live.len(), 0);
            let (mut gained, mut kept) = (0, 0);
            for i in 0..live.len() {
                let v = live[i] as usize;
                let heads = &g.heads[g.arcs(v)];
                let reach = heads.iter().fold([0; K], |r, &w| or(r, front[w as usize]));
                let before = visited[v];
                let new = and_not(reach, before);
                if let Some(plane) = &mut plane {
                    plane[v] = or(plane[v], new);
                }
                let after = or(before, new);
                visited[v] = after;
                next[v] = new;
                upcoming[gained] = v as u32;
                gained += usize::from(!is_zero(new));
                live[kept] = v as u32;
                kept += usize::from(after != goal(v));
                if is_zero(before) && !is_zero(new) {
                    touched.push(v as u32);
                    reached.push(v as u32);
                }
            }
            upcoming.truncate(gained);
            live.truncate(kept);

            for &f in current.iter() {
                front[f as usize] = [0; K];
            }
            core::mem::swap(front, next);
            core::mem::swap(current, upcoming);
        }
        for &f in current.iter() {
            front[f as usize] = [0; K];
        }
        current.clear();
        live.clear();

        for &v in touched.iter() {
            slot_masks(g, v as usize, visited, low, high, masks);
            emit(v as usize, masks);
        }
        for &v in touched.iter() {
            let v = v as usize;
            visited[v] = [0; K];
            low[v] = [0; K];
            high[v] = [0; K];
        }
        touched.clear();
    }
}
