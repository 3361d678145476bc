//! Whether polygon rings are simple, and whether two simple rings meet: a Shamos–Hoey sweep
//! that stops at the first two edges that meet where they may not.
//!
//! The sweep runs over the vertices in lexicographic `(x, y)` order (a sweep line tilted by an
//! infinitesimal angle, so that vertical edges need no special case) and keeps the edges it
//! crosses in a balanced tree ordered bottom to top. Two edges that meet become neighbours in
//! that order no later than the sweep reaches the first point where any two meet, so only
//! neighbours are tested: `O(n log n)` for `n` edges, in the worst case (each vertex is one
//! insertion or removal in the tree and a constant number of exact tests). Every side decision
//! is [`orient`]'s exact sign.

use core::cell::Cell;
use core::cmp::Ordering;
use std::collections::BTreeSet;
use std::ops::Bound;

use crate::Point;
use crate::geom::{lex, orient};

/// Segments to sweep: edge `e` joins `points[edges[e][0]]` and `points[edges[e][1]]`, and
/// every point is an end of at most two edges (a ring's vertex: the edges before and after
/// it). Edges that share an end point (the same index) are neighbours along a ring.
pub(crate) struct Segments<'a> {
    pub(crate) points: &'a [Point],
    pub(crate) edges: &'a [[u32; 2]],
}

/// An edge in the sweep's tree: its ends in sweep order, and where a comparison that found the
/// two edges meeting writes them.
#[derive(Clone, Copy)]
struct Active<'c> {
    left: Point,
    right: Point,
    edge: u32,
    met: &'c Cell<Option<(u32, u32)>>,
}

impl Active<'_> {
    /// Whether `self` runs above `other` where the sweep crosses both, `None` when the two
    /// meet (one's first end lies on the other, or they leave a shared first end along one
    /// line). Valid while both are crossed by the sweep and no two edges have met before it.
    fn above(&self, other: &Active<'_>) -> Option<Ordering> {
        let side = |o: f64| o.partial_cmp(&0.0).filter(|s| s.is_ne());
        if self.left == other.left {
            side(orient(other.left, other.right, self.right))
        } else if lex(other.left, self.left).is_lt() {
            side(orient(other.left, other.right, self.left))
        } else {
            side(orient(self.left, self.right, other.left)).map(Ordering::reverse)
        }
    }
}

impl Ord for Active<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.edge == other.edge {
            return Ordering::Equal;
        }
        self.above(other).unwrap_or_else(|| {
            if self.met.get().is_none() {
                self.met.set(Some((self.edge, other.edge)));
            }
            self.edge.cmp(&other.edge)
        })
    }
}

impl PartialOrd for Active<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Active<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Active<'_> {}

/// The first two edges the sweep finds for which `bad` holds, among pairs that meet; `None`
/// when no two meeting edges are bad. `bad(e, f)` must hold for every two edges that meet
/// other than neighbours at their shared end point (so that the tree's order stays valid until
/// the first bad pair), and may also hold for such neighbours (a ring folding back on itself).
///
/// # Complexity
/// `O(n log n)` time and `O(n)` memory for `n` edges, worst case.
pub(crate) fn first_bad_pair(s: &Segments<'_>, bad: impl Fn(u32, u32) -> bool) -> Option<(u32, u32)> {
    let (points, edges) = (s.points, s.edges);
    // Each point's edges (at most two), and the points in sweep order.
    let mut at: Vec<[u32; 2]> = vec![[u32::MAX; 2]; points.len()];
    for (e, ends) in edges.iter().enumerate() {
        for &v in ends {
            let slot = &mut at[v as usize];
            let free = usize::from(slot[0] != u32::MAX);
            slot[free] = e as u32;
        }
    }
    let mut order: Vec<u32> = (0..points.len() as u32).filter(|&v| at[v as usize][0] != u32::MAX).collect();
    order.sort_unstable_by(|&a, &b| lex(points[a as usize], points[b as usize]));
    let check = |e: u32, f: u32| (e != f && bad(e, f)).then_some((e.min(f), e.max(f)));
    // Two points at one place: their edges meet there (the sweep below needs distinct points).
    for run in order.chunk_by(|&a, &b| points[a as usize] == points[b as usize]) {
        if run.len() > 1 {
            let touching: Vec<u32> =
                run.iter().flat_map(|&v| at[v as usize]).filter(|&e| e != u32::MAX).collect();
            for (i, &e) in touching.iter().enumerate() {
                if let Some(pair) = touching[i + 1..].iter().find_map(|&f| check(e, f)) {
                    return Some(pair);
                }
            }
        }
    }
    let met = Cell::new(None);
    let active = |e: u32| {
        let [a, b] = edges[e as usize].map(|v| points[v as usize]);
        let (left, right) = if lex(a, b).is_lt() { (a, b) } else { (b, a) };
        Active { left, right, edge: e, met: &met }
    };
    #[expect(
        clippy::mutable_key_type,
        reason = "the cell only records a meeting found while comparing; it is not part of the order"
    )]
    let mut tree: BTreeSet<Active<'_>> = BTreeSet::new();
    let neighbours = |tree: &BTreeSet<Active<'_>>, key: &Active<'_>| {
        let below = tree.range(..*key).next_back().map(|a| a.edge);
        let above = tree.range((Bound::Excluded(*key), Bound::Unbounded)).next().map(|a| a.edge);
        (below, above)
    };
    for &v in &order {
        let p = points[v as usize];
        let ends = at[v as usize].into_iter().filter(|&e| e != u32::MAX).map(active);
        let (ending, starting): (Vec<Active<'_>>, Vec<Active<'_>>) = ends.partition(|a| a.right == p);
        for key in ending.iter().chain(&starting) {
            let inserting = key.left == p;
            if inserting {
                tree.insert(*key);
            }
            let (below, above) = neighbours(&tree, key);
            if !inserting {
                tree.remove(key);
            }
            if let Some((e, f)) = met.get() {
                return check(e, f).or_else(|| brute_force(edges.len(), &check));
            }
            let pairs = if inserting {
                [below.map(|b| (b, key.edge)), above.map(|a| (a, key.edge))]
            } else {
                [below.zip(above), None]
            };
            if let Some(pair) = pairs.into_iter().flatten().find_map(|(e, f)| check(e, f)) {
                return Some(pair);
            }
        }
    }
    None
}

/// Every pair tested: only if the sweep's order was found inconsistent, which the exact
/// predicates rule out (kept so that an answer is never wrong).
fn brute_force(n: usize, check: &impl Fn(u32, u32) -> Option<(u32, u32)>) -> Option<(u32, u32)> {
    debug_assert!(false, "the sweep's order was inconsistent");
    let n = n as u32;
    (0..n).find_map(|e| (e + 1..n).find_map(|f| check(e, f)))
}
