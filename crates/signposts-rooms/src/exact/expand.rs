//! What a point sees: a sweep of view cones through the convex regions (triangular expansion,
//! Bungiu, Hemmer, Hershberger, Huang & Kröller 2014, on convex regions instead of triangles).
//!
//! A cone is the set of rays from the source `s` between two rays through mesh vertices
//! (`right`, then counter-clockwise to `left`, less than 180° apart). From the regions
//! holding `s`, a cone goes through each open door it faces, narrowed to the door, and ends
//! at each wall it meets: that end is a [`Piece`] of the visibility polygon. Every decision
//! is an exact orientation test on mesh vertices and `s`, so nothing is lost or seen through
//! a gap of rounding.
//!
//! Cones are closed, and a cone narrowed to a single ray is dropped: such a ray passes
//! exactly through a door's end, a vertex. Instead, every vertex seen sends one ray on past
//! it (the vertex rule): the ray goes into whichever region around the vertex holds its
//! direction, and on from region to region until a wall, seeing each vertex it passes
//! exactly. So rays that graze a corner, run along a wall or pass a pinch point are followed
//! exactly once, and recorded as spikes (pieces one ray wide).

#![expect(clippy::many_single_char_names, reason = "points of figures: s t u a b p q, regions r")]

use crate::Point;
use crate::geom::orient;
use crate::mesh::NONE;

use super::topology::{Topology, beyond};

/// One piece of a visibility polygon: the rays from the source between `right` and
/// (counter-clockwise) `left`, up to the wall from `wall[0]` to `wall[1]` (an edge of a
/// region, inside on its left). A spike has `right == left`; a spike that ends at a vertex
/// has `wall[0] == wall[1]`.
/// Four `u32`s laid out in order (`repr(C)`), as a saved index reads them in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Piece {
    pub(crate) right: u32,
    pub(crate) left: u32,
    pub(crate) wall: [u32; 2],
}

/// What a sweep reports.
pub(crate) trait Sink {
    /// Vertex `v` is seen, arriving through region `r` (once for each way it is seen: a
    /// corner made by a closed door is one only from its own side).
    fn vertex(&mut self, v: u32, r: u32);
    /// Region `r` is entered; `full` when all of it is seen through one cone.
    fn region(&mut self, r: u32, full: bool);
    /// A piece of the visibility polygon.
    fn piece(&mut self, piece: Piece);
}

/// A cone waiting to enter `region` through its ring slot `entry`.
#[derive(Debug, Clone, Copy)]
struct Cone {
    region: u32,
    entry: usize,
    right: u32,
    left: u32,
}

/// Reusable buffers of a sweep: the cone stack and a stamp per vertex.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sweep {
    stack: Vec<Cone>,
    seen: Vec<u32>,
    stamp: u32,
}

impl Sweep {
    fn reset(&mut self, vertices: usize) {
        self.stack.clear();
        if self.seen.len() != vertices || self.stamp == u32::MAX {
            self.seen.clear();
            self.seen.resize(vertices, 0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    fn first_time(&mut self, v: u32) -> bool {
        let fresh = self.seen[v as usize] != self.stamp;
        self.seen[v as usize] = self.stamp;
        fresh
    }
}

/// Sweeps everything `s` sees. `starts` are the regions holding `s`; `own` is the vertex at
/// `s` when `s` is one (it is not reported).
pub(crate) fn sweep(
    topo: &Topology,
    s: Point,
    starts: &[u32],
    own: Option<u32>,
    buf: &mut Sweep,
    sink: &mut impl Sink,
) {
    buf.reset(topo.points.len());
    if let Some(v) = own {
        buf.first_time(v);
    }
    for &r in starts {
        sink.region(r, true);
        for i in topo.slots_of(r) {
            let v = topo.ring[i];
            if topo.at(v) != s {
                sink.vertex(v, r);
                if buf.first_time(v) {
                    pass(topo, s, v, r, sink);
                }
            }
        }
        for i in topo.slots_of(r) {
            let (a, b) = (topo.ring[i], topo.ring[topo.next_slot(r, i)]);
            if orient(s, topo.at(a), topo.at(b)) > 0.0 {
                let across = topo.across[i];
                if across == NONE {
                    sink.piece(Piece { right: a, left: b, wall: [a, b] });
                } else {
                    buf.stack.push(Cone { region: across, entry: topo.twin[i] as usize, right: a, left: b });
                }
            }
        }
        while let Some(cone) = buf.stack.pop() {
            spread(topo, s, cone, buf, sink);
        }
    }
}

fn spread(topo: &Topology, s: Point, cone: Cone, buf: &mut Sweep, sink: &mut impl Sink) {
    let (r, e) = (cone.region, cone.entry);
    let e_next = topo.next_slot(r, e);
    let (right, left) = (topo.at(cone.right), topo.at(cone.left));
    let mut full = true;
    for i in topo.slots_of(r) {
        let v = topo.ring[i];
        let p = topo.at(v);
        let inside = orient(s, right, p) >= 0.0 && orient(s, p, left) >= 0.0;
        if !inside {
            full = false;
        } else if i != e && i != e_next {
            sink.vertex(v, r);
            if buf.first_time(v) {
                pass(topo, s, v, r, sink);
            }
        }
    }
    sink.region(r, full);
    for i in topo.slots_of(r) {
        if i == e {
            continue;
        }
        let next = topo.next_slot(r, i);
        let (a, b) = (topo.ring[i], topo.ring[next]);
        let (pa, pb) = (topo.at(a), topo.at(b));
        if orient(s, pa, pb) <= 0.0 {
            continue;
        }
        let new_right = if orient(s, right, pa) > 0.0 { a } else { cone.right };
        let new_left = if orient(s, pb, left) > 0.0 { b } else { cone.left };
        if orient(s, topo.at(new_right), topo.at(new_left)) > 0.0 {
            let across = topo.across[i];
            if across == NONE {
                sink.piece(Piece { right: new_right, left: new_left, wall: [a, b] });
            } else {
                buf.stack.push(Cone {
                    region: across,
                    entry: topo.twin[i] as usize,
                    right: new_right,
                    left: new_left,
                });
            }
        }
    }
}

/// The region around vertex `u` whose wedge holds the direction from `s` through `u`, if
/// the ray, arriving through region `from`, may go on past `u` ([`Topology::passes`]).
#[inline]
fn onward(topo: &Topology, s: Point, u: u32, from: u32) -> Option<u32> {
    let pu = topo.at(u);
    let arriving = topo.slot_at(u, from)?;
    topo.around(u).iter().find_map(|&(r, i)| {
        let i = i as usize;
        let next = topo.at(topo.ring[topo.next_slot(r, i)]);
        let prev = topo.at(topo.ring[topo.prev_slot(r, i)]);
        // The direction u − s lies counter-clockwise from `next` and clockwise from `prev`.
        (r != from && orient(pu, next, s) <= 0.0 && orient(pu, s, prev) <= 0.0 && topo.passes(u, arriving, i))
            .then_some(r)
    })
}

/// The vertex rule: the ray from `s` through vertex `u` (seen in region `seen_in`),
/// followed past `u` to a wall.
fn pass(topo: &Topology, s: Point, u: u32, seen_in: u32, sink: &mut impl Sink) {
    let pu = topo.at(u);
    let Some(mut r) = onward(topo, s, u, seen_in) else { return };
    // Entered at a vertex (`at`) or through a door slot (`entry`).
    let (mut at, mut entry) = (u, usize::MAX);
    for _ in 0..topo.start.len() {
        sink.region(r, false);
        let skip = if entry == usize::MAX { [usize::MAX; 2] } else { [entry, topo.next_slot(r, entry)] };
        let mut far: Option<u32> = None;
        let mut exit = None;
        for i in topo.slots_of(r) {
            let v = topo.ring[i];
            let p = topo.at(v);
            let side = orient(s, pu, p);
            if side == 0.0 && v != at && !skip.contains(&i) && beyond(s, pu, p) {
                sink.vertex(v, r);
                if far.is_none_or(|f| beyond(s, topo.at(f), p)) {
                    far = Some(v);
                }
            }
            if side < 0.0 && i != entry {
                let next = topo.next_slot(r, i);
                if orient(s, pu, topo.at(topo.ring[next])) > 0.0 {
                    exit = Some(i);
                }
            }
        }
        if let Some(w) = far {
            let Some(next) = onward(topo, s, w, r) else {
                sink.piece(Piece { right: u, left: u, wall: [w, w] });
                return;
            };
            (r, at, entry) = (next, w, usize::MAX);
            continue;
        }
        let Some(i) = exit else { return };
        let across = topo.across[i];
        if across == NONE {
            sink.piece(Piece { right: u, left: u, wall: [topo.ring[i], topo.ring[topo.next_slot(r, i)]] });
            return;
        }
        (r, at, entry) = (across, NONE, topo.twin[i] as usize);
    }
}

/// Whether `t` is seen from `s` (the segment between them lies in the walkable area).
/// `starts` are the regions holding `s`.
pub(crate) fn sees(topo: &Topology, s: Point, starts: &[u32], t: Point) -> bool {
    if s == t {
        return true;
    }
    starts.iter().any(|&r| walk(topo, s, r, t))
}

fn walk(topo: &Topology, s: Point, mut r: u32, t: Point) -> bool {
    // Entered at a point `from` on the ray (s itself, or a vertex), or through a door slot.
    let (mut from, mut at, mut entry) = (s, NONE, usize::MAX);
    for _ in 0..topo.start.len() {
        if topo.contains(r, t) {
            return true;
        }
        let skip = if entry == usize::MAX { [usize::MAX; 2] } else { [entry, topo.next_slot(r, entry)] };
        let mut far: Option<u32> = None;
        let mut exit = None;
        for i in topo.slots_of(r) {
            let v = topo.ring[i];
            let p = topo.at(v);
            let side = orient(s, t, p);
            if side == 0.0
                && v != at
                && !skip.contains(&i)
                && ahead(s, t, from, p)
                && far.is_none_or(|f| ahead(s, t, topo.at(f), p))
            {
                far = Some(v);
            }
            if side < 0.0 && i != entry && orient(s, t, topo.at(topo.ring[topo.next_slot(r, i)])) > 0.0 {
                exit = Some(i);
            }
        }
        if let Some(w) = far {
            let pw = topo.at(w);
            // Past `w` towards `t`: the region around `w` whose wedge holds that direction.
            let arriving = topo.slot_at(w, r);
            let next = topo.around(w).iter().find_map(|&(q, i)| {
                let i = i as usize;
                let n = topo.at(topo.ring[topo.next_slot(q, i)]);
                let p = topo.at(topo.ring[topo.prev_slot(q, i)]);
                let turns = q != r && orient(pw, n, t) >= 0.0 && orient(pw, t, p) >= 0.0;
                (turns && arriving.is_some_and(|a| topo.passes(w, a, i))).then_some(q)
            });
            match next {
                Some(q) => {
                    (r, from, at, entry) = (q, pw, w, usize::MAX);
                    continue;
                }
                None => return false,
            }
        }
        let Some(i) = exit else { return false };
        if topo.across[i] == NONE {
            return false;
        }
        (r, at, entry) = (topo.across[i], NONE, topo.twin[i] as usize);
    }
    false
}

/// Whether `p` lies strictly further than `q` along the direction from `s` to `t` (all four
/// on one line).
#[inline]
fn ahead(s: Point, t: Point, q: Point, p: Point) -> bool {
    let (dx, dy) = (t.x - s.x, t.y - s.y);
    let (ex, ey) = if dx == 0.0 { (p.y - q.y, dy) } else { (p.x - q.x, dx) };
    (ex > 0.0 && ey > 0.0) || (ex < 0.0 && ey < 0.0)
}
