//! Whether given convex regions overlap or touch along part of an edge, by one sweep over
//! their edges instead of a test of every pair.
//!
//! The sweep runs over the vertices in lexicographic `(x, y)` order (a sweep line tilted by an
//! infinitesimal angle, so vertical edges need no special case). It keeps the distinct edges
//! it crosses in a balanced tree, bottom to top, each with the region on either side of it.
//! Regions that do not overlap make a consistent picture: the region above one edge is the
//! region below the next (or none on both), no two edges cross, no two run along one line.
//! Where the picture changes (at a vertex) only the edges through the vertex and the two
//! around them are checked; the first inconsistency names two regions, which the exact test of
//! a pair then judges. `O((n + k) log n)` for `n` edges, `k` of them at most per vertex, worst
//! case; every side decision is [`orient`]'s exact sign.

use core::cell::Cell;
use core::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};
use std::ops::Bound;

use crate::Point;
use crate::geom::{lex, orient};
use crate::mesh::triangulate::NONE;

/// A distinct edge: its ends in sweep order and the regions above and below it (`NONE`: none).
#[derive(Clone, Copy)]
struct Edge {
    left: Point,
    right: Point,
    up: u32,
    down: u32,
}

/// A key of the sweep's tree: an edge (by index), or a probe just below or just above the
/// current vertex, to find the edges through it.
#[derive(Clone, Copy)]
enum Key<'a> {
    Edge(u32, &'a [Edge], &'a Cell<Option<(u32, u32)>>),
    Probe(Point, bool),
}

impl Key<'_> {
    fn edge(&self) -> u32 {
        match self {
            Key::Edge(e, ..) => *e,
            Key::Probe(..) => NONE,
        }
    }
}

/// Whether edge `s` runs above edge `t` where the sweep crosses both (`None`: they run along
/// one line). Valid while both are crossed by the sweep and no two edges have crossed before.
fn above(s: &Edge, t: &Edge) -> Option<Ordering> {
    let side = |o: f64| o.partial_cmp(&0.0).filter(|o| o.is_ne());
    let (first, later, flip) = if lex(t.left, s.left).is_le() { (t, s, false) } else { (s, t, true) };
    // The later edge starts on the earlier one's line only on it (a vertex on an edge, or a
    // shared vertex): its other end says.
    let o = side(orient(first.left, first.right, later.left))
        .or_else(|| side(orient(first.left, first.right, later.right)))?;
    Some(if flip { o.reverse() } else { o })
}

/// Where edge `t` is against the probe at `p`: below it, or above it (an edge through `p`
/// counts above the low probe and below the high one).
fn against_probe(t: &Edge, p: Point, high: bool) -> Ordering {
    match orient(t.left, t.right, p).partial_cmp(&0.0) {
        Some(Ordering::Greater) => Ordering::Less,
        Some(Ordering::Less) => Ordering::Greater,
        _ if high => Ordering::Less,
        _ => Ordering::Greater,
    }
}

impl Ord for Key<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Key::Edge(s, edges, met), Key::Edge(t, ..)) => {
                if s == t {
                    return Ordering::Equal;
                }
                above(&edges[*s as usize], &edges[*t as usize]).unwrap_or_else(|| {
                    if met.get().is_none() {
                        met.set(Some((*s, *t)));
                    }
                    s.cmp(t)
                })
            }
            (Key::Edge(t, edges, _), Key::Probe(p, high)) => against_probe(&edges[*t as usize], *p, *high),
            (Key::Probe(p, high), Key::Edge(t, edges, _)) => {
                against_probe(&edges[*t as usize], *p, *high).reverse()
            }
            (Key::Probe(_, a), Key::Probe(_, b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Key<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Key<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Key<'_> {}

/// Whether two edges cross at a point inside both, or run along one line for a positive
/// length (ends touching, and an end on the other edge, are allowed).
#[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d")]
fn cross(s: &Edge, t: &Edge) -> bool {
    let (a, b, c, d) = (s.left, s.right, t.left, t.right);
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    if o1 == 0.0 && o2 == 0.0 {
        // Along one line: overlapping beyond a shared end (both run left to right).
        return lex(a, d).is_lt() && lex(c, b).is_lt();
    }
    o1 * o2 < 0.0 && o3 * o4 < 0.0
}

/// Where the sweep first finds regions overlapping or touching along part of an edge: pairs of
/// regions by their indices, one of which has the problem (`rings`: counter-clockwise convex
/// rings of vertex ids). `None`: a consistent picture, no two regions overlapping and no edge
/// along part of another. Only for input the sweep cannot judge (a ring folding back along
/// itself) may every pair be clear.
#[expect(clippy::many_single_char_names, reason = "points and edges of a figure: p s t x y")]
pub(super) fn first_conflict(vertices: &[Point], rings: &[Vec<u32>]) -> Option<Vec<(u32, u32)>> {
    // The distinct edges, each with the regions on its two sides.
    let mut index: HashMap<(u32, u32), u32> = HashMap::new();
    let mut edges: Vec<Edge> = Vec::new();
    let mut ends: Vec<(u32, u32)> = Vec::new();
    for (r, ring) in rings.iter().enumerate() {
        for i in 0..ring.len() {
            let (u, v) = (ring[i], ring[(i + 1) % ring.len()]);
            let (pu, pv) = (vertices[u as usize], vertices[v as usize]);
            if pu == pv {
                continue; // an edge of no length (two vertices at one place): bounds nothing
            }
            let e = *index.entry((u.min(v), u.max(v))).or_insert_with(|| {
                let (left, right) = if lex(pu, pv).is_lt() { (pu, pv) } else { (pv, pu) };
                edges.push(Edge { left, right, up: NONE, down: NONE });
                let (l, r) = if lex(pu, pv).is_lt() { (u, v) } else { (v, u) };
                ends.push((l, r));
                edges.len() as u32 - 1
            });
            // The interior lies left of `u → v`: above it when `u → v` runs left to right.
            let edge = &mut edges[e as usize];
            let side = if lex(pu, pv).is_lt() { &mut edge.up } else { &mut edge.down };
            if *side != NONE {
                return Some(vec![(*side, r as u32)]);
            }
            *side = r as u32;
        }
    }
    // Per vertex, the edges that start there and those that end there; vertices in sweep
    // order, those at one place together.
    let mut starting: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
    let mut ending: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
    for (e, &(l, r)) in ends.iter().enumerate() {
        starting[l as usize].push(e as u32);
        ending[r as usize].push(e as u32);
    }
    let mut order: Vec<u32> = (0..vertices.len() as u32)
        .filter(|&v| !starting[v as usize].is_empty() || !ending[v as usize].is_empty())
        .collect();
    order.sort_unstable_by(|&a, &b| lex(vertices[a as usize], vertices[b as usize]));
    let met = Cell::new(None);
    let key = |e: u32| Key::Edge(e, &edges, &met);
    let labels = |e: u32| [edges[e as usize].up, edges[e as usize].down];
    // The pairs of regions of two edges, one region of each (`first` ahead).
    let pairs_of = |first: Option<(u32, u32)>, s: Option<u32>, t: Option<u32>| -> Vec<(u32, u32)> {
        let real = |e: Option<u32>| e.into_iter().flat_map(labels).filter(|&r| r != NONE);
        let across = real(s).flat_map(|a| real(t).map(move |b| (a, b)));
        first.into_iter().chain(across).filter(|&(a, b)| a != b && a != NONE && b != NONE).collect()
    };
    #[expect(
        clippy::mutable_key_type,
        reason = "the cell only records a meeting found while comparing; it is not part of the order"
    )]
    let mut tree: BTreeSet<Key<'_>> = BTreeSet::new();
    for place in order.chunk_by(|&a, &b| vertices[a as usize] == vertices[b as usize]) {
        let p = vertices[place[0] as usize];
        for &v in place {
            for &e in &ending[v as usize] {
                tree.remove(&key(e));
            }
        }
        for &v in place {
            for &e in &starting[v as usize] {
                tree.insert(key(e));
            }
        }
        if let Some((s, t)) = met.get() {
            return Some(pairs_of(None, Some(s), Some(t)));
        }
        // The edges through `p` (those starting there among them), and the ones around them.
        let (low, high) = (Key::Probe(p, false), Key::Probe(p, true));
        let below = tree.range(..low).next_back().map(Key::edge);
        let above = tree.range((Bound::Excluded(high), Bound::Unbounded)).next().map(Key::edge);
        let through = tree.range(low..high).map(Key::edge);
        let chain: Vec<Option<u32>> =
            std::iter::once(below).chain(through.map(Some)).chain(std::iter::once(above)).collect();
        for pair in chain.windows(2) {
            let (s, t) = (pair[0], pair[1]);
            if let (Some(a), Some(b)) = (s, t)
                && cross(&edges[a as usize], &edges[b as usize])
            {
                return Some(pairs_of(None, s, t));
            }
            // The region between them, as each says.
            let x = s.map_or(NONE, |a| edges[a as usize].up);
            let y = t.map_or(NONE, |b| edges[b as usize].down);
            if x != y {
                let other = if x == NONE {
                    s.map_or(NONE, |a| edges[a as usize].down)
                } else if y == NONE {
                    t.map_or(NONE, |b| edges[b as usize].up)
                } else {
                    y
                };
                let first = if x == NONE { y } else { x };
                return Some(pairs_of(Some((first, other)), s, t));
            }
        }
    }
    None
}
