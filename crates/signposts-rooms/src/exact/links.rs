//! Links in exact mode: teleporters, ladders, jumps and stairs taken by the shortest path.
//!
//! A shortest path that takes links walks a shortest walk (the index's own answer, links not
//! taken) from the start to a link's entrance, takes the link, walks from its exit to the next
//! entrance, and so on to the goal. So the build keeps the walk lengths between every two link
//! ends (one query per pair, on all cores), and a query is a small A* search over the link
//! ends and the goal:
//!
//! - the walks from the start (to each entrance, and straight to the goal) and on to the goal
//!   (from each exit) are queries of the index, each asked only when the search reaches it:
//!   its key is first the straight-line length, a lower bound, and only when that key comes
//!   first is the walk's true length looked up and the arc pushed again;
//! - the walks from exit to entrance are read from the build's lengths;
//! - the search aims at the goal with a lower bound of the rest of the way from each link
//!   end: the shortest way there with every walk as long as its straight line (a search over
//!   the ends backward from the goal, `O(m²)` for `m` ends, per query); an entrance's bound is
//!   its link's cost and its exit's bound. It is the length of a shortest path in a graph of
//!   shorter arcs, so consistent: each node is settled once.
//!
//! A map without open links answers as before: the queries look here only when some link is
//! open. Far links cost a heap entry each: a link whose way round is longer, straight lines
//! and all, than the answer is never looked up.

use core::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;

use super::{ExactRooms, ExactScratch, length};
use crate::path::Path;
use crate::{Error, Link, LinkId, NavMesh, Point};

/// A link as the builder is given it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Spec {
    pub(super) ends: [Point; 2],
    pub(super) cost: f64,
    pub(super) two_way: bool,
    pub(super) open: bool,
}

/// An index's links, their states, and the walks between their ends.
#[derive(Debug, Clone, Default)]
pub(crate) struct Links {
    pub(super) list: Vec<Link>,
    pub(super) open: Vec<bool>,
    /// The shortest walk (links not taken) from link end `i` to link end `j`, ends numbered
    /// `2 · link + end`: `walk[i · m + j]` for `m` ends; infinite where no walk joins them.
    pub(super) walk: Vec<f64>,
}

/// How a node of the search was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leg {
    Walk,
    Link,
}

/// The start, as a node a walk comes from.
const START: u32 = u32::MAX;
/// A heap entry whose key is the node's cost (and `h`), not a walk's lower bound.
const SETTLE: u32 = u32::MAX - 1;

/// Buffers of the link search, kept in an [`ExactScratch`].
#[derive(Debug, Clone, Default)]
pub(crate) struct LinkScratch {
    /// Per node (the link ends as entrances, again as exits, then the goal): the best cost found, and where it came from.
    cost: Vec<f64>,
    from: Vec<(u32, Leg)>,
    done: Vec<bool>,
    /// `(key, node, walked from)`: `walked from` a node (or [`START`]) whose walk to this one
    /// is still to be looked up (the key a lower bound), or [`SETTLE`].
    heap: BinaryHeap<Reverse<(u64, u32, u32)>>,
    /// The best route, node and leg, from the first node after the start to the goal.
    route: Vec<(u32, Leg)>,
    /// A walk's path.
    leg: Path,
    /// Per link end, a lower bound of the cost on to the goal, and whether it is final.
    bound: Vec<f64>,
    settled: Vec<bool>,
}

/// Link ends up to which a query bounds the rest of the way by a search over them.
const EXACT_BOUNDS: usize = 64;

impl Links {
    /// The links of `specs` checked against `mesh`, and their walks under `exact` (whose own
    /// links are not taken).
    ///
    /// # Errors
    /// [`Error::BadLink`] for an end outside the walkable area or a cost negative or not
    /// finite; [`Error::Cancelled`] when `cancelled` says so.
    pub(super) fn build(
        exact: &ExactRooms,
        specs: &[Spec],
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> Result<Links, Error> {
        let (list, open) = checked(&exact.mesh, specs)?;
        let points: Vec<Point> = list.iter().flat_map(|l| l.ends).collect();
        let m = points.len();
        // Walks are symmetric: one query per pair, the upper triangle's rows on all cores.
        let rows: Vec<Vec<f64>> = (0..m)
            .into_par_iter()
            .map_init(
                || (ExactScratch::default(), Path::default()),
                |(scratch, path), i| {
                    if cancelled() {
                        return Vec::new();
                    }
                    (i + 1..m)
                        .map(|j| {
                            exact.walk_length(points[i], points[j], scratch, path).unwrap_or(f64::INFINITY)
                        })
                        .collect()
                },
            )
            .collect();
        if cancelled() {
            return Err(Error::Cancelled);
        }
        let mut walk = vec![0.0; m * m];
        for (i, row) in rows.iter().enumerate() {
            for (k, &w) in row.iter().enumerate() {
                let j = i + 1 + k;
                walk[i * m + j] = w;
                walk[j * m + i] = w;
            }
        }
        Ok(Links { list, open, walk })
    }

    /// The links as a builder takes them (for a rebuild).
    pub(super) fn specs(&self) -> Vec<Spec> {
        self.list
            .iter()
            .zip(&self.open)
            .map(|(l, &open)| Spec { ends: l.ends, cost: l.cost, two_way: l.two_way, open })
            .collect()
    }

    /// Whether some link is open: only then do queries search over them.
    pub(super) fn any_open(&self) -> bool {
        self.open.iter().any(|&o| o)
    }

    /// Bytes held.
    pub(super) fn memory_bytes(&self) -> usize {
        self.list.len() * (size_of::<Link>() + 1) + self.walk.len() * 8
    }

    /// What a saved file holds: per link its ends and cost (`x0 y0 x1 y1 cost`), per link its
    /// flags (1: two-way, 2: open), and the walks.
    pub(super) fn saved(&self) -> (Vec<f64>, Vec<u8>, &[f64]) {
        let numbers =
            self.list.iter().flat_map(|l| [l.ends[0].x, l.ends[0].y, l.ends[1].x, l.ends[1].y, l.cost]);
        let flags = self.list.iter().zip(&self.open).map(|(l, &o)| u8::from(l.two_way) | (u8::from(o) << 1));
        (numbers.collect(), flags.collect(), &self.walk)
    }

    /// The links read back from a saved file's arrays ([`Links::saved`]), every value
    /// checked; the error says what is wrong.
    pub(super) fn read(mesh: &NavMesh, numbers: &[f64], flags: &[u8], walk: &[f64]) -> Result<Links, String> {
        let count = flags.len();
        if numbers.len() != 5 * count {
            return Err(format!("{} link numbers for {count} links (5 a link)", numbers.len()));
        }
        if walk.len() != 4 * count * count {
            return Err(format!(
                "{} link walks for {count} links ({} belong)",
                walk.len(),
                4 * count * count
            ));
        }
        if let Some(&k) = flags.iter().find(|&&k| k > 3) {
            return Err(format!("link flags {k}"));
        }
        if walk.iter().any(|w| w.is_nan() || *w < 0.0) {
            return Err("a link walk negative or not a number".to_owned());
        }
        let specs: Vec<Spec> = numbers
            .chunks_exact(5)
            .zip(flags)
            .map(|(n, &k)| Spec {
                ends: [Point::new(n[0], n[1]), Point::new(n[2], n[3])],
                cost: n[4],
                two_way: k & 1 != 0,
                open: k & 2 != 0,
            })
            .collect();
        let (list, open) = checked(mesh, &specs).map_err(|e| format!("a saved link: {e}"))?;
        Ok(Links { list, open, walk: walk.to_vec() })
    }
}

/// The links of `specs`, each end in the walkable area of `mesh` and each cost finite and not
/// negative, as [`Rooms`](crate::Rooms) checks them.
pub(super) fn checked(mesh: &NavMesh, specs: &[Spec]) -> Result<(Vec<Link>, Vec<bool>), Error> {
    let mut list = Vec::with_capacity(specs.len());
    for (k, spec) in specs.iter().enumerate() {
        let bad = |end: usize, why: &'static str| Error::BadLink { link: k as u32, end, why };
        let a = mesh.region_at(spec.ends[0]).ok_or_else(|| bad(0, "outside the walkable area"))?;
        let b = mesh.region_at(spec.ends[1]).ok_or_else(|| bad(1, "outside the walkable area"))?;
        if !(spec.cost.is_finite() && spec.cost >= 0.0) {
            return Err(bad(0, "its cost is negative or not finite"));
        }
        list.push(Link { ends: spec.ends, regions: [a, b], cost: spec.cost, two_way: spec.two_way });
    }
    Ok((list, specs.iter().map(|s| s.open).collect()))
}

impl ExactRooms {
    /// The links, in id order ([`ExactBuilder::link`](crate::ExactBuilder::link)).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let exact = ExactRooms::builder(&mesh).link(a, b, 1.0, false).build()?;
    /// assert_eq!((exact.links()[0].ends, exact.links()[0].two_way), ([a, b], false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn links(&self) -> &[Link] {
        &self.links.list
    }

    /// Whether link `l` is open.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a link not of the index.
    pub fn is_link_open(&self, l: LinkId) -> Result<bool, Error> {
        self.links.open.get(l.0 as usize).copied().ok_or(Error::OutOfRange {
            what: "link",
            id: l.0,
            len: self.links.list.len(),
        })
    }

    /// Opens or closes link `l`. Nothing is rebuilt: the walks between link ends do not depend
    /// on which links are open.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a link not of the index.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, LinkId, NavMesh, Point};
    /// // Two rooms with no door between them, and a two-way teleporter.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let mut exact = ExactRooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (left, right) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// exact.set_link_open(LinkId(0), false)?;
    /// assert_eq!(exact.path(left, right), None); // it was the only way across
    /// exact.set_link_open(LinkId(0), true)?;
    /// assert_eq!(exact.next_waypoint(left, right), Some(a)); // its entrance
    /// assert_eq!(exact.next_waypoint(a, right), Some(b)); // at the entrance: its exit
    /// assert!(exact.set_link_open(LinkId(1), true).is_err()); // no such link
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_link_open(&mut self, l: LinkId, open: bool) -> Result<(), Error> {
        self.is_link_open(l)?;
        self.links.open[l.0 as usize] = open;
        Ok(())
    }

    /// The length of the shortest walk from `from` to `to`, links not taken.
    fn walk_length(
        &self,
        from: Point,
        to: Point,
        scratch: &mut ExactScratch,
        path: &mut Path,
    ) -> Option<f64> {
        self.walk_path(from, to, scratch, path).then(|| path.walked())
    }

    /// The point of search node `v`: a link end (as an entrance, then again as an exit), or
    /// the goal `t`.
    fn node_at(&self, v: u32, t: Point) -> Point {
        let m = 2 * self.links.list.len();
        let e = if v as usize >= m { v as usize - m } else { v as usize };
        self.links.list.get(e / 2).map_or(t, |l| l.ends[e % 2])
    }

    /// Into `ls.bound`, for each link end, a lower bound of the cost from there to `t`: the
    /// shortest way with every walk as long as its straight line, a Dijkstra search over the
    /// ends backward from the goal (`O(m²)` for `m` ends); past [`EXACT_BOUNDS`] ends, the
    /// straight line to the goal or the cheapest open link and the nearest exit's straight
    /// line, whichever is less.
    fn bounds(&self, t: Point, ls: &mut LinkScratch) {
        let links = &self.links;
        let m = 2 * links.list.len();
        let departs = |v: usize| links.open[v / 2] && links.list[v / 2].departs_from(v % 2);
        let at = |v: usize| self.node_at(v as u32, t);
        let bound = &mut ls.bound;
        bound.clear();
        bound.extend((0..m).map(|e| length(at(e), t)));
        if m > EXACT_BOUNDS {
            let cheapest =
                (0..m).filter(|&v| departs(v)).map(|v| links.list[v / 2].cost).fold(f64::INFINITY, f64::min);
            let nearest = (0..m).filter(|&v| departs(v ^ 1)).map(|v| bound[v]).fold(f64::INFINITY, f64::min);
            for b in bound.iter_mut() {
                *b = b.min(cheapest + nearest);
            }
            return;
        }
        let settled = &mut ls.settled;
        settled.clear();
        settled.resize(m, false);
        while let Some(x) = (0..m).filter(|&e| !settled[e]).min_by(|&a, &b| bound[a].total_cmp(&bound[b])) {
            settled[x] = true;
            // Arrived at `x` by the link from its other end: from any end, walk there and take it.
            let a = x ^ 1;
            if !departs(a) {
                continue;
            }
            let (via, p) = (links.list[a / 2].cost + bound[x], at(a));
            for e in (0..m).filter(|&e| !settled[e]) {
                bound[e] = bound[e].min(length(at(e), p) + via);
            }
        }
    }

    /// The search from `s` to `t` over the link ends: the best route into `links.route`, and
    /// its cost. `None` when no path joins them.
    #[expect(clippy::many_single_char_names, reason = "the ends s t, nodes u v, their count m")]
    fn link_search(
        &self,
        s: Point,
        t: Point,
        scratch: &mut ExactScratch,
        ls: &mut LinkScratch,
    ) -> Option<f64> {
        self.mesh.region_at(s)?;
        self.mesh.region_at(t)?;
        let links = &self.links;
        // Nodes: each link end as an entrance (`0..m`, reached by walking, left by its link)
        // and as an exit (`m..2m`, reached by a link, left by walking), and the goal. Two
        // nodes, not one: walking to a point and on is not always a walk (a link end on a
        // closed door is no way through it), while arriving there by a link and walking on is.
        let m = 2 * links.list.len();
        let goal = 2 * m as u32;
        ls.cost.clear();
        ls.cost.resize(2 * m + 1, f64::INFINITY);
        ls.from.clear();
        ls.from.resize(2 * m + 1, (START, Leg::Walk));
        ls.done.clear();
        ls.done.resize(2 * m + 1, false);
        ls.heap.clear();
        // Ends a link can be entered at, and ends one can be left at.
        let departs = |v: usize| links.open[v / 2] && links.list[v / 2].departs_from(v % 2);
        self.bounds(t, ls);
        let bound = core::mem::take(&mut ls.bound);
        // The search's heuristic: an entrance must take its link.
        let h = |v: usize| match v {
            _ if v < m => links.list[v / 2].cost + bound[v ^ 1],
            _ if v < 2 * m => bound[v - m],
            _ => 0.0,
        };
        let key = |x: f64| x.to_bits();
        ls.heap.push(Reverse((key(length(s, t)), goal, START)));
        for v in (0..m).filter(|&v| departs(v)) {
            let p = self.node_at(v as u32, t);
            ls.heap.push(Reverse((key(length(s, p) + h(v)), v as u32, START)));
        }
        let found = loop {
            let Some(Reverse((k, v, via))) = ls.heap.pop() else { break None };
            let vi = v as usize;
            if ls.done[vi] {
                continue;
            }
            let at = self.node_at(v, t);
            if via != SETTLE {
                // A walk's lower bound came first: look up the walk.
                let (base, p) =
                    if via == START { (0.0, s) } else { (ls.cost[via as usize], self.node_at(via, t)) };
                let Some(w) = self.walk_length(p, at, scratch, &mut ls.leg) else { continue };
                if base + w < ls.cost[vi] {
                    ls.cost[vi] = base + w;
                    ls.from[vi] = (via, Leg::Walk);
                    ls.heap.push(Reverse((key(base + w + h(vi)), v, SETTLE)));
                }
                continue;
            }
            if f64::from_bits(k) > ls.cost[vi] + h(vi) {
                continue; // stale
            }
            ls.done[vi] = true;
            let here = ls.cost[vi];
            if v == goal {
                ls.route.clear();
                let mut u = v;
                while u != START {
                    let (prev, leg) = ls.from[u as usize];
                    ls.route.push((u, leg));
                    u = prev;
                }
                ls.route.reverse();
                break Some(here);
            }
            let relax = |u: usize, cost: f64, leg: Leg, ls: &mut LinkScratch| {
                if !ls.done[u] && cost < ls.cost[u] {
                    ls.cost[u] = cost;
                    ls.from[u] = (v, leg);
                    ls.heap.push(Reverse((key(cost + h(u)), u as u32, SETTLE)));
                }
            };
            if vi < m {
                relax(m + (vi ^ 1), here + links.list[vi / 2].cost, Leg::Link, ls);
            } else {
                for u in (0..m).filter(|&u| departs(u)) {
                    let w = links.walk[(vi - m) * m + u];
                    if w.is_finite() {
                        relax(u, here + w, Leg::Walk, ls);
                    }
                }
                ls.heap.push(Reverse((key(here + length(at, t)), goal, v)));
            }
        };
        ls.bound = bound;
        found
    }

    /// [`ExactRooms::path_with`] when links are open.
    pub(super) fn linked_path(
        &self,
        from: Point,
        to: Point,
        scratch: &mut ExactScratch,
        path: &mut Path,
    ) -> bool {
        path.points.clear();
        path.links.clear();
        let mut ls = core::mem::take(&mut scratch.links);
        let found = self.link_search(from, to, scratch, &mut ls).is_some();
        if found && ls.route.len() == 1 {
            // Walked straight there: as without links.
            self.walk_path(from, to, scratch, path);
        } else if found {
            path.points.push(from);
            let mut at = from;
            for &(v, leg) in &ls.route {
                let q = self.node_at(v, to);
                match leg {
                    Leg::Walk => {
                        self.walk_path(at, q, scratch, &mut ls.leg);
                        for &p in &ls.leg.points[1..] {
                            if path.points.last() != Some(&p) {
                                path.points.push(p);
                            }
                        }
                    }
                    Leg::Link => {
                        let l = (v - 2 * self.links.list.len() as u32) / 2;
                        path.links.push((path.points.len() - 1, LinkId(l), self.links.list[l as usize].cost));
                        path.points.push(q);
                    }
                }
                at = q;
            }
        }
        scratch.links = ls;
        found
    }

    /// [`ExactRooms::next_waypoint_with`] when links are open: the first waypoint toward the
    /// first link's entrance (its exit when `from` is there), or toward the goal.
    pub(super) fn linked_waypoint(
        &self,
        from: Point,
        to: Point,
        scratch: &mut ExactScratch,
    ) -> Option<Point> {
        let mut ls = core::mem::take(&mut scratch.links);
        let found = self.link_search(from, to, scratch, &mut ls);
        let head = found.and_then(|_| {
            let (first, _) = ls.route[0];
            let target = self.node_at(first, to);
            if !self.goal(target, scratch) {
                return None;
            }
            let head = self.waypoint(from, target, scratch)?;
            Some(match ls.route.get(1) {
                Some(&(exit, Leg::Link)) if head == from => self.node_at(exit, to),
                _ => head,
            })
        });
        scratch.links = ls;
        head
    }
}
