//! The mesh as the visibility sweep reads it: each region's ring with, per edge, the region
//! across it (or a wall), the regions around each vertex, and which vertices are corners.
//!
//! A closed door is a wall here (on both of its sides); a point door is not an edge at all
//! (its point is a vertex of both regions, and a ray passes it by the vertex rule in
//! [`super::expand`]).

#![expect(clippy::many_single_char_names, reason = "points of figures: s t u a b p q, regions r")]

use crate::geom::orient;
use crate::triangulate::NONE;
use crate::{DoorState, NavMesh, Point, RegionId};

/// What a vertex is to a shortest path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Not a turning point: inside the walkable area, or a walkable wedge of at most 180°.
    Plain,
    /// A convex corner of an obstacle: one walkable wedge wider than 180°, between the walls
    /// towards `.0` and towards `.1` (counter-clockwise from the first to the second).
    Reflex(u32, u32),
    /// Where walkable wedges meet at a point (two obstacles touching at a corner, a closed
    /// door's end inside the area): every path through it may turn there.
    Pinch,
}

/// Rings, neighbours across edges, regions around vertices, corner kinds.
#[derive(Debug, Clone)]
pub(crate) struct Topology {
    pub(crate) points: Vec<Point>,
    /// Region `r`'s ring: `ring[start[r]..start[r + 1]]`, counter-clockwise.
    pub(crate) start: Vec<u32>,
    pub(crate) ring: Vec<u32>,
    /// Per ring slot `i` (the edge from `ring[i]` to the next vertex of its ring): the
    /// region across an open door, or `NONE` for a wall or a closed door.
    pub(crate) across: Vec<u32>,
    /// Per ring slot with an open door: the same edge's slot in the region across.
    pub(crate) twin: Vec<u32>,
    /// The ring slots at vertex `v`: `slots[vstart[v]..vstart[v + 1]]`, each `(region, slot)`.
    pub(crate) vstart: Vec<u32>,
    pub(crate) slots: Vec<(u32, u32)>,
    pub(crate) kinds: Vec<Kind>,
    /// Connected part of each region (open doors and shared vertices joining).
    pub(crate) part: Vec<u32>,
}

impl Topology {
    pub(crate) fn new(mesh: &NavMesh, states: &[DoorState]) -> Topology {
        let points = mesh.vertices().to_vec();
        let regions = mesh.regions_len();
        let mut start = Vec::with_capacity(regions + 1);
        let mut ring = Vec::new();
        start.push(0);
        for r in 0..regions as u32 {
            ring.extend_from_slice(mesh.region_vertices(RegionId(r)));
            start.push(ring.len() as u32);
        }
        let mut across = vec![NONE; ring.len()];
        let mut parent: Vec<u32> = (0..regions as u32).collect();
        for (d, door) in mesh.doors().iter().enumerate() {
            if states.get(d).copied().unwrap_or_default() == DoorState::Closed {
                continue;
            }
            union(&mut parent, door.regions[0].0, door.regions[1].0);
            if door.is_point() {
                continue;
            }
            for side in 0..2 {
                let r = door.regions[side];
                // Walking out of `r` the door's left end is the edge's head (`r` is
                // counter-clockwise: its inside is on the left of each edge).
                let [left, right] = door.ends_from(r);
                let (lo, hi) = (start[r.0 as usize] as usize, start[r.0 as usize + 1] as usize);
                let n = hi - lo;
                if let Some(i) = (0..n).find(|&i| {
                    points[ring[lo + i] as usize] == right && points[ring[lo + (i + 1) % n] as usize] == left
                }) {
                    across[lo + i] = door.other(r).0;
                }
            }
        }
        let mut count = vec![0u32; points.len() + 1];
        for &v in &ring {
            count[v as usize + 1] += 1;
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let vstart = count.clone();
        let mut slots = vec![(0, 0); ring.len()];
        for r in 0..regions {
            for i in start[r]..start[r + 1] {
                let v = ring[i as usize] as usize;
                slots[count[v] as usize] = (r as u32, i);
                count[v] += 1;
            }
        }
        // Regions holding the same vertex meet there (the area is closed: a closed door's
        // end is passable, as a pinch is).
        for v in 0..points.len() {
            let around = &slots[vstart[v] as usize..vstart[v + 1] as usize];
            for w in around.windows(2) {
                union(&mut parent, w[0].0, w[1].0);
            }
        }
        let part = (0..regions as u32).map(|r| find(&mut parent, r)).collect();
        let mut twin = vec![NONE; ring.len()];
        for r in 0..regions {
            let (lo, hi) = (start[r] as usize, start[r + 1] as usize);
            for i in lo..hi {
                let other = across[i];
                if other == NONE {
                    continue;
                }
                let (a, b) = (ring[i], ring[if i + 1 == hi { lo } else { i + 1 }]);
                let (olo, ohi) = (start[other as usize] as usize, start[other as usize + 1] as usize);
                twin[i] = (olo..ohi)
                    .find(|&j| ring[j] == b && ring[if j + 1 == ohi { olo } else { j + 1 }] == a)
                    .map_or(NONE, |j| j as u32);
                if twin[i] == NONE {
                    across[i] = NONE; // not the same edge both ways: a wall to the sweep
                }
            }
        }
        let mut topology =
            Topology { points, start, ring, across, twin, vstart, slots, kinds: Vec::new(), part };
        topology.kinds = (0..topology.points.len() as u32).map(|v| topology.kind(v)).collect();
        topology
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.points.len() * size_of::<Point>()
            + (self.start.len() + self.ring.len() * 3 + self.vstart.len() + self.part.len()) * 4
            + self.slots.len() * 8
            + self.kinds.len() * size_of::<Kind>()
    }

    /// Region `r`'s ring slots.
    #[inline]
    pub(crate) fn slots_of(&self, r: u32) -> core::ops::Range<usize> {
        self.start[r as usize] as usize..self.start[r as usize + 1] as usize
    }

    /// The slot after `i` in its region's ring.
    #[inline]
    pub(crate) fn next_slot(&self, r: u32, i: usize) -> usize {
        if i + 1 == self.start[r as usize + 1] as usize { self.start[r as usize] as usize } else { i + 1 }
    }

    /// The slot before `i` in its region's ring.
    #[inline]
    pub(crate) fn prev_slot(&self, r: u32, i: usize) -> usize {
        if i == self.start[r as usize] as usize { self.start[r as usize + 1] as usize - 1 } else { i - 1 }
    }

    /// The point of vertex `v`.
    #[inline]
    pub(crate) fn at(&self, v: u32) -> Point {
        self.points[v as usize]
    }

    /// The `(region, slot)` pairs at vertex `v`.
    #[inline]
    pub(crate) fn around(&self, v: u32) -> &[(u32, u32)] {
        &self.slots[self.vstart[v as usize] as usize..self.vstart[v as usize + 1] as usize]
    }

    fn kind(&self, v: u32) -> Kind {
        // Walls at `v`: an edge leaving `v` (its region's wedge starts there) or arriving.
        let (mut leaving, mut arriving, mut walls) = (None, None, 0);
        for &(r, i) in self.around(v) {
            let i = i as usize;
            if self.across[i] == NONE {
                leaving = Some(self.ring[self.next_slot(r, i)]);
                walls += 1;
            }
            let p = self.prev_slot(r, i);
            if self.across[p] == NONE {
                arriving = Some(self.ring[p]);
                walls += 1;
            }
        }
        match (walls, leaving, arriving) {
            (0, _, _) => Kind::Plain,
            (2, Some(first), Some(last)) => {
                let (c, a, b) = (self.at(v), self.at(first), self.at(last));
                let turn = orient(c, a, b);
                let same_way = (a.x - c.x).signum() == (b.x - c.x).signum()
                    && (a.y - c.y).signum() == (b.y - c.y).signum();
                if turn < 0.0 || (turn == 0.0 && same_way) { Kind::Reflex(first, last) } else { Kind::Plain }
            }
            _ => Kind::Pinch,
        }
    }

    /// Whether a path arriving at corner `c` from `from` (or leaving it towards `from`) can
    /// turn there: the line through both keeps `c`'s walls on one side (touching allowed).
    #[inline]
    pub(crate) fn taut(&self, c: u32, from: Point) -> bool {
        match self.kinds[c as usize] {
            Kind::Reflex(a, b) => {
                let at = self.at(c);
                let (x, y) = (orient(from, at, self.at(a)), orient(from, at, self.at(b)));
                !((x < 0.0 && y > 0.0) || (x > 0.0 && y < 0.0))
            }
            Kind::Pinch => true,
            Kind::Plain => false,
        }
    }

    /// Whether `p` lies in region `r` (its boundary included).
    #[inline]
    pub(crate) fn contains(&self, r: u32, p: Point) -> bool {
        let slots = self.slots_of(r);
        let mut a = self.at(self.ring[slots.end - 1]);
        for i in slots {
            let b = self.at(self.ring[i]);
            if orient(a, b, p) < 0.0 {
                return false;
            }
            a = b;
        }
        true
    }

    /// The distance from `p` to region `r` (0 inside), rounded like any `f64` arithmetic.
    pub(crate) fn distance_to(&self, r: u32, p: Point) -> f64 {
        if self.contains(r, p) {
            return 0.0;
        }
        let slots = self.slots_of(r);
        let mut a = self.at(self.ring[slots.end - 1]);
        let mut least = f64::INFINITY;
        for i in slots {
            let b = self.at(self.ring[i]);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let len2 = dx * dx + dy * dy;
            let k =
                if len2 > 0.0 { (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0) } else { 0.0 };
            let (qx, qy) = (a.x + k * dx - p.x, a.y + k * dy - p.y);
            least = least.min((qx * qx + qy * qy).sqrt());
            a = b;
        }
        least
    }

    /// Whether `p` lies on the boundary of region `r` (given that it lies in it).
    #[inline]
    pub(crate) fn on_boundary(&self, r: u32, p: Point) -> bool {
        let slots = self.slots_of(r);
        let mut a = self.at(self.ring[slots.end - 1]);
        for i in slots {
            let b = self.at(self.ring[i]);
            if orient(a, b, p) == 0.0 {
                return true;
            }
            a = b;
        }
        false
    }
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (a, b) = (find(parent, a), find(parent, b));
    if a != b {
        parent[a.max(b) as usize] = a.min(b);
    }
}

/// Whether `p` lies strictly beyond `q` on the ray from `from` through `q` (the three
/// collinear): decided on the coordinates, whose differences have exact signs.
#[inline]
pub(crate) fn beyond(from: Point, q: Point, p: Point) -> bool {
    let (dx, dy) = (q.x - from.x, q.y - from.y);
    let (ex, ey) = if dx == 0.0 { (p.y - q.y, dy) } else { (p.x - q.x, dx) };
    (ex > 0.0 && ey > 0.0) || (ex < 0.0 && ey < 0.0)
}
