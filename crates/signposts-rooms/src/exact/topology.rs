//! The mesh as the visibility sweep reads it: each region's ring with, per edge, the region
//! across it (or a wall), the regions around each vertex, and which vertices are corners.
//!
//! A closed door is a wall here (on both of its sides); a point door is not an edge at all
//! (its point is a vertex of both regions, and a ray passes it by the vertex rule in
//! [`super::expand`]).

#![expect(clippy::many_single_char_names, reason = "points of figures: s t u a b p q, regions r")]

use crate::geom::orient;
use crate::mesh::NONE;
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
    /// For a convex corner whose vertex closed doors divide: the wedge it is a corner of
    /// (a `sub` id); `NONE` otherwise.
    pub(crate) wedge: Vec<u32>,
    /// Per ring slot: its wedge at its vertex, walls and closed doors apart.
    pub(crate) sub: Vec<u32>,
    /// Per vertex: whether walkable wedges meet there at a point.
    pub(crate) pinch: Vec<bool>,
    /// Connected part of each region (open doors and pinches joining).
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
        let next = |i: usize| {
            let r = start.partition_point(|&x| x as usize <= i) - 1;
            if i + 1 == start[r + 1] as usize { start[r] as usize } else { i + 1 }
        };
        // Each door edge's slot in both regions; an open one is a way across.
        let (mut across, mut twin) = (vec![NONE; ring.len()], vec![NONE; ring.len()]);
        let mut parent: Vec<u32> = (0..regions as u32).collect();
        // Wedges around vertices, by ring slot: joined across doors (`natural`: walls apart)
        // and across open doors only (`sub`: walls and closed doors apart).
        let mut natural: Vec<u32> = (0..ring.len() as u32).collect();
        let mut sub: Vec<u32> = (0..ring.len() as u32).collect();
        for (d, door) in mesh.doors().iter().enumerate() {
            let open = states.get(d).copied().unwrap_or_default() != DoorState::Closed;
            if open {
                union(&mut parent, door.regions[0].0, door.regions[1].0);
            }
            if door.is_point() {
                continue;
            }
            // Walking out of a region the door's left end is its edge's head (regions are
            // counter-clockwise: their inside is on the left of each edge).
            let slot = |r: RegionId| {
                let [left, right] = door.ends_from(r);
                (start[r.0 as usize] as usize..start[r.0 as usize + 1] as usize)
                    .find(|&i| points[ring[i] as usize] == right && points[ring[next(i)] as usize] == left)
            };
            let [a, b] = door.regions;
            let (Some(i), Some(j)) = (slot(a), slot(b)) else { continue };
            // Edge p → q at slot i of a is q → p at slot j of b.
            for (x, y) in [(i, next(j)), (next(i), j)] {
                union(&mut natural, x as u32, y as u32);
                if open {
                    union(&mut sub, x as u32, y as u32);
                }
            }
            if open {
                (across[i], twin[i], across[j], twin[j]) = (b.0, j as u32, a.0, i as u32);
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
        let natural: Vec<u32> = (0..ring.len() as u32).map(|i| find(&mut natural, i)).collect();
        let sub: Vec<u32> = (0..ring.len() as u32).map(|i| find(&mut sub, i)).collect();
        // A pinch: walkable wedges meeting at a point, walls apart. The regions there meet.
        let pinch: Vec<bool> = (0..points.len())
            .map(|v| {
                let around = &slots[vstart[v] as usize..vstart[v + 1] as usize];
                around.iter().any(|&(_, i)| natural[i as usize] != natural[around[0].1 as usize])
            })
            .collect();
        for v in (0..points.len()).filter(|&v| pinch[v]) {
            let around = &slots[vstart[v] as usize..vstart[v + 1] as usize];
            for w in around.windows(2) {
                union(&mut parent, w[0].0, w[1].0);
            }
        }
        let part = (0..regions as u32).map(|r| find(&mut parent, r)).collect();
        let mut topology = Topology {
            points,
            start,
            ring,
            across,
            twin,
            vstart,
            slots,
            kinds: Vec::new(),
            wedge: Vec::new(),
            sub,
            pinch,
            part,
        };
        (topology.kinds, topology.wedge) =
            (0..topology.points.len() as u32).map(|v| topology.kind(v)).unzip();
        topology
    }

    /// Whether a path may pass vertex `v` from ring slot `from` (its region's wedge there)
    /// into ring slot `to`: at a pinch always; elsewhere only within one wedge that no wall or
    /// closed door divides (a closed door seals its ends against the walls it meets).
    #[inline]
    pub(crate) fn passes(&self, v: u32, from: usize, to: usize) -> bool {
        self.pinch[v as usize] || self.sub[from] == self.sub[to]
    }

    /// The slot of region `r` at vertex `v`.
    #[inline]
    pub(crate) fn slot_at(&self, v: u32, r: u32) -> Option<usize> {
        self.around(v).iter().find(|&&(q, _)| q == r).map(|&(_, i)| i as usize)
    }

    /// Whether a path turning at corner `v` may arrive through (or leave into) region `r`'s
    /// wedge there: a convex corner made by a closed door is one only on its own side.
    #[inline]
    pub(crate) fn turns_through(&self, v: u32, r: u32) -> bool {
        let wedge = self.wedge[v as usize];
        wedge == NONE || self.slot_at(v, r).is_some_and(|i| self.sub[i] == wedge)
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.points.len() * size_of::<Point>()
            + (self.start.len() + self.ring.len() * 3 + self.vstart.len() + self.part.len()) * 4
            + self.slots.len() * 8
            + self.kinds.len() * size_of::<Kind>()
            + (self.wedge.len() + self.sub.len()) * 4
            + self.pinch.len()
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

    /// What vertex `v` is, and for a convex corner in a wedge that closed doors divide, the
    /// wedge.
    fn kind(&self, v: u32) -> (Kind, u32) {
        if self.pinch[v as usize] {
            return (Kind::Pinch, NONE);
        }
        // Each wedge (walls and closed doors apart): the wall it starts at (an edge leaving
        // `v`) and the wall it ends at (an edge arriving), counter-clockwise.
        let around = self.around(v);
        let divided = around.iter().any(|&(_, i)| self.sub[i as usize] != self.sub[around[0].1 as usize]);
        for &(r, i) in around {
            let i = i as usize;
            if self.across[i] != NONE {
                continue;
            }
            let first = self.ring[self.next_slot(r, i)];
            let wedge = self.sub[i];
            let Some(last) = around.iter().find_map(|&(q, j)| {
                let p = self.prev_slot(q, j as usize);
                (self.sub[j as usize] == wedge && self.across[p] == NONE).then(|| self.ring[p])
            }) else {
                continue;
            };
            let (c, a, b) = (self.at(v), self.at(first), self.at(last));
            let turn = orient(c, a, b);
            let same_way =
                (a.x - c.x).signum() == (b.x - c.x).signum() && (a.y - c.y).signum() == (b.y - c.y).signum();
            if turn < 0.0 || (turn == 0.0 && same_way) {
                return (Kind::Reflex(first, last), if divided { wedge } else { NONE });
            }
        }
        (Kind::Plain, NONE)
    }

    /// Whether a path arriving at corner `c` from `from` (or leaving it towards `from`) can
    /// turn there: the line through both keeps `c`'s walls on one side (touching allowed).
    #[inline]
    pub(crate) fn taut(&self, c: u32, from: Point) -> bool {
        match self.kinds[c as usize] {
            Kind::Reflex(a, b) => turns_between(self.at(c), [self.at(a), self.at(b)], from),
            Kind::Pinch => true,
            Kind::Plain => false,
        }
    }

    /// Whether no path from any of `points`' convex hull could turn at corner `c`: all of them
    /// strictly inside one of the two open wedges where the line to `c` cuts its walls (one
    /// wedge, not either: a hull reaching into both passes over `c`, where paths may turn).
    pub(crate) fn never_turns(&self, c: u32, points: impl Iterator<Item = Point>) -> bool {
        let Kind::Reflex(a, b) = self.kinds[c as usize] else { return false };
        let (pc, pa, pb) = (self.at(c), self.at(a), self.at(b));
        let mut first = None;
        for q in points {
            let (x, y) = (orient(q, pc, pa), orient(q, pc, pb));
            let side = if x < 0.0 && y > 0.0 {
                1
            } else if x > 0.0 && y < 0.0 {
                2
            } else {
                return false;
            };
            if *first.get_or_insert(side) != side {
                return false;
            }
        }
        first.is_some()
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

/// Whether a path arriving at a corner at `at` whose walls lead to `walls` from `from` can
/// turn there: the line through `from` and `at` keeps both walls on one side (touching
/// allowed).
#[inline]
pub(crate) fn turns_between(at: Point, [a, b]: [Point; 2], from: Point) -> bool {
    let (x, y) = (orient(from, at, a), orient(from, at, b));
    !((x < 0.0 && y > 0.0) || (x > 0.0 && y < 0.0))
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
