//! The corner table: for every pair of corners, the first corner after the start on a shortest
//! path and the path's length, from one Dijkstra search per corner over the visibility graph.
//!
//! Lengths are summed in `f64`, so a path's length is exact up to `f64` rounding (a relative
//! error near 1e-15 per segment); [`Tier::CompactTable`](super::Tier) keeps them in `f32`,
//! which can misjudge two paths whose lengths differ by less than about 1e-7 of their length.
//! The table is laid out by target: the row of target `b` holds, for every start `a`, the
//! first step from `a` towards `b`, so a path is a walk along one row.

use core::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::buf::Buf;

/// The lengths, wide or narrow.
#[derive(Debug, Clone)]
pub(crate) enum Lengths {
    Wide(Buf<f64>),
    Narrow(Buf<f32>),
}

/// First steps and lengths between all corners.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    pub(crate) n: usize,
    /// `hop[b * n + a]`: the corner after `a` on a shortest path from `a` to `b` (`a` when
    /// `a == b` or `b` is out of reach).
    pub(crate) hop: Buf<u16>,
    /// `lengths[b * n + a]`: the length of that path (infinite out of reach); symmetric.
    pub(crate) lengths: Lengths,
    /// `bounds[r * n + a]`: a lower bound of the length of any path from corner `a` to a
    /// point of region `r`, rounded down.
    pub(crate) bounds: Buf<f32>,
    /// Region `r`'s candidate corners (those that see some of it and could be turned at from
    /// there, [`FULL`](super::FULL) marking one that sees all of it):
    /// `cand[cand_start[r]..cand_start[r + 1]]`, what the bounds are taken over, kept so that
    /// a door toggle can take them again. Empty when read from a format 2 file.
    pub(crate) cand_start: Buf<u32>,
    pub(crate) cand: Buf<u32>,
}

/// Bytes per pair of corners.
pub(crate) const WIDE_PAIR: u64 = 2 + 8;
/// Bytes per pair of corners with `f32` lengths.
pub(crate) const NARROW_PAIR: u64 = 2 + 4;
/// Bytes per corner and region, for the bounds.
pub(crate) const BOUND: u64 = 4;

/// A graph in compressed rows: `edges[start[u]..start[u + 1]]` are `u`'s `(neighbour, length)`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Graph {
    pub(crate) start: Vec<u32>,
    pub(crate) edges: Vec<(u32, f64)>,
}

impl Graph {
    #[inline]
    pub(crate) fn of(&self, u: u32) -> &[(u32, f64)] {
        &self.edges[self.start[u as usize] as usize..self.start[u as usize + 1] as usize]
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.start.len() * 4 + self.edges.len() * size_of::<(u32, f64)>()
    }
}

/// One search from `target`: fills `lengths` and `hop` (indexed by start corner).
pub(crate) fn search(
    graph: &Graph,
    target: u32,
    lengths: &mut [f64],
    hop: &mut [u16],
    heap: &mut BinaryHeap<Reverse<(u64, u32)>>,
) {
    lengths.fill(f64::INFINITY);
    for (i, h) in hop.iter_mut().enumerate() {
        *h = i as u16;
    }
    heap.clear();
    lengths[target as usize] = 0.0;
    heap.push(Reverse((0f64.to_bits(), target)));
    while let Some(Reverse((key, u))) = heap.pop() {
        let d = f64::from_bits(key);
        if d > lengths[u as usize] {
            continue;
        }
        for &(v, w) in graph.of(u) {
            let nd = d + w;
            if nd < lengths[v as usize] {
                lengths[v as usize] = nd;
                hop[v as usize] = u as u16;
                // Non-negative floats order as their bits.
                heap.push(Reverse((nd.to_bits(), v)));
            }
        }
    }
}

/// `len` copies of `value`, or `None` when the memory cannot be had: the tables' sizes are
/// known before they are allocated, and a failure is the caller's error, not an abort.
pub(crate) fn filled<T: Clone>(len: usize, value: T) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).ok()?;
    v.resize(len, value);
    Some(v)
}

impl Table {
    /// The table of `n` corners' first steps and lengths, its bounds and candidates not yet
    /// taken.
    pub(crate) fn new(n: usize, hop: Vec<u16>, lengths: Lengths) -> Table {
        let (bounds, cand_start, cand) = (Buf::default(), Buf::default(), Buf::default());
        Table { n, hop: hop.into(), lengths, bounds, cand_start, cand }
    }

    /// The first step from `a` towards `b`.
    #[inline]
    pub(crate) fn hop(&self, a: u32, b: u32) -> u32 {
        u32::from(self.hop[b as usize * self.n + a as usize])
    }

    /// The bounds towards region `r`, one per corner.
    #[inline]
    pub(crate) fn bounds_row(&self, r: u32) -> &[f32] {
        &self.bounds[r as usize * self.n..(r as usize + 1) * self.n]
    }

    /// The length from `a` to `b`.
    #[inline]
    pub(crate) fn length(&self, a: u32, b: u32) -> f64 {
        let i = b as usize * self.n + a as usize;
        match &self.lengths {
            Lengths::Wide(v) => v[i],
            Lengths::Narrow(v) => f64::from(v[i]),
        }
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        (self.bounds.len() + self.cand_start.len() + self.cand.len()) * 4
            + self.hop.len() * 2
            + match &self.lengths {
                Lengths::Wide(v) => v.len() * 8,
                Lengths::Narrow(v) => v.len() * 4,
            }
    }
}
