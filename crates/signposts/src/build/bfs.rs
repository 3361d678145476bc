//! The batched bit-parallel BFS engine for unit-cost arcs.
//!
//! One run handles up to 64 targets at once, one bit per target in a `u64` lane. For every node
//! `v` the engine keeps `visited[v]` (targets whose search has reached `v`) and `front[v]`
//! (targets whose search reached `v` at the previous level). At level `L`, a node `v` is newly
//! reached for the targets `S = (OR of front[w] over v's out-neighbours w) & !visited[v]`, so
//! `d(v, t) = L` for each `t ∈ S`, and slot `i` of `v` (neighbour `w_i`) is an optimal first
//! move toward `t` exactly when `t ∈ front[w_i]`, i.e. `d(w_i, t) = L - 1`. The engine
//! accumulates `S & front[w_i]` per arc; no distance is ever stored.
//!
//! Only nodes next to the frontier are visited at each level (a worklist), so a batch costs
//! time proportional to how many levels each node stays on some target's frontier: small when
//! the batch's targets are close together (see [`super::order`]).

use crate::NodeId;
use crate::table::NodeRow;

/// Read-only adjacency for the engine: out-arcs (table slots) and in-arcs (who to wake up).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Adjacency<'a> {
    /// Out-arc ranges per node, in table slot order.
    pub rows: &'a [NodeRow],
    /// Out-arc heads.
    pub heads: &'a [NodeId],
    /// In-arc ranges per node (the same as `rows` for undirected graphs).
    pub in_rows: &'a [NodeRow],
    /// In-arc tails.
    pub tails: &'a [NodeId],
}

/// Reusable scratch for batch runs on one graph; O(n + m) words, reset in O(touched).
#[derive(Debug)]
pub(crate) struct BfsBatch {
    visited: Vec<u64>,
    front: Vec<u64>,
    next: Vec<u64>,
    /// Per arc: targets toward which this arc is an optimal first move.
    acc: Vec<u64>,
    stamp: Vec<u32>,
    generation: u32,
    current: Vec<u32>,
    upcoming: Vec<u32>,
    candidates: Vec<u32>,
    touched: Vec<u32>,
}

impl BfsBatch {
    pub fn new(nodes: usize, arcs: usize) -> Self {
        BfsBatch {
            visited: vec![0; nodes],
            front: vec![0; nodes],
            next: vec![0; nodes],
            acc: vec![0; arcs],
            stamp: vec![0; nodes],
            generation: 0,
            current: Vec::new(),
            upcoming: Vec::new(),
            candidates: Vec::new(),
            touched: Vec::new(),
        }
    }

    /// Runs the searches of up to 64 `targets` (bit `j` = `targets[j]`), then calls
    /// `emit(node, masks)` once for every node reached by some target, with that node's
    /// per-slot masks. Nodes not reached have all-zero entries and are not emitted.
    pub fn run(&mut self, g: Adjacency<'_>, targets: &[NodeId], mut emit: impl FnMut(usize, &[u64])) {
        debug_assert!(targets.len() <= 64);
        let BfsBatch { visited, front, next, acc, stamp, generation, current, upcoming, candidates, touched } =
            self;

        for (j, &t) in targets.iter().enumerate() {
            let t = t as usize;
            if visited[t] == 0 {
                touched.push(t as u32);
                current.push(t as u32);
            }
            visited[t] |= 1 << j;
            front[t] |= 1 << j;
        }

        while !current.is_empty() {
            *generation = generation.wrapping_add(1);
            if *generation == 0 {
                stamp.fill(0);
                *generation = 1;
            }
            let generation = *generation;

            candidates.clear();
            for &f in current.iter() {
                for &v in &g.tails[g.in_rows[f as usize].slots()] {
                    if stamp[v as usize] != generation {
                        stamp[v as usize] = generation;
                        candidates.push(v);
                    }
                }
            }

            for &v in candidates.iter() {
                let v = v as usize;
                let slots = g.rows[v].slots();
                let heads = &g.heads[slots.clone()];
                let reach = heads.iter().fold(0, |r, &w| r | front[w as usize]);
                let new = reach & !visited[v];
                if new == 0 {
                    continue;
                }
                for (a, &w) in acc[slots].iter_mut().zip(heads) {
                    *a |= new & front[w as usize];
                }
                if visited[v] == 0 {
                    touched.push(v as u32);
                }
                visited[v] |= new;
                next[v] = new;
                upcoming.push(v as u32);
            }

            for &f in current.iter() {
                front[f as usize] = 0;
            }
            core::mem::swap(front, next);
            core::mem::swap(current, upcoming);
            upcoming.clear();
        }

        for &v in touched.iter() {
            let v = v as usize;
            let slots = g.rows[v].slots();
            emit(v, &acc[slots.clone()]);
            acc[slots].fill(0);
            visited[v] = 0;
        }
        touched.clear();
    }
}
