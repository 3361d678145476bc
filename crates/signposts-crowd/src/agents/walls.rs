//! The mesh's walls (region edges that are no door) and a uniform grid of them: each cell
//! lists, in segment order, the walls within a reach of the cell.

#![expect(clippy::cast_sign_loss, reason = "cell coordinates are floored after clamping at 0")]

use signposts_rooms::{NavMesh, RegionId};

use super::orca::V2;

/// A wall segment from `a` to `b`, the walkable side on its left.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Wall {
    pub a: V2,
    pub b: V2,
    /// The unit normal into the walkable side.
    pub inward: V2,
}

impl Wall {
    /// The point of the wall nearest `p`.
    #[inline]
    pub fn nearest(&self, p: V2) -> V2 {
        let ab = self.b - self.a;
        let len_sq = ab.len_sq();
        if len_sq == 0.0 {
            return self.a;
        }
        let t = ((p - self.a).dot(ab) / len_sq).clamp(0.0, 1.0);
        self.a + t * ab
    }
}

/// The walls, and per cell of a uniform grid the walls within `reach` of the cell.
#[derive(Debug, Clone, Default)]
pub(crate) struct Walls {
    pub segments: Vec<Wall>,
    origin: V2,
    cell: f64,
    cols: usize,
    rows: usize,
    start: Vec<u32>,
    list: Vec<u32>,
    /// How far from a cell its walls are listed.
    pub reach: f64,
}

/// The mesh's walls: every region edge that is not an edge door.
#[expect(clippy::many_single_char_names, reason = "points of a figure: v p q e f a b d")]
pub(crate) fn walls_of(mesh: &NavMesh) -> Vec<Wall> {
    let v = mesh.vertices();
    let mut walls = Vec::new();
    for r in 0..mesh.regions_len() as u32 {
        let region = RegionId(r);
        let ring = mesh.region_vertices(region);
        let doors = mesh.doors_of(region);
        for (i, &s) in ring.iter().enumerate() {
            let (p, q) = (v[s as usize], v[ring[(i + 1) % ring.len()] as usize]);
            let is_door = doors.iter().any(|&d| {
                let [e, f] = mesh.door(d).ends;
                e != f && ((e == p && f == q) || (e == q && f == p))
            });
            if is_door {
                continue;
            }
            let (a, b) = (V2::new(p.x, p.y), V2::new(q.x, q.y));
            let d = b - a;
            let len = d.len();
            let inward = if len > 0.0 { V2::new(-d.y / len, d.x / len) } else { V2::ZERO };
            walls.push(Wall { a, b, inward });
        }
    }
    walls
}

impl Walls {
    /// Indexes `walls` in cells of side `cell` over the box `lo..hi`, each cell listing the
    /// walls whose bounding box comes within `reach` of it.
    pub fn new(walls: Vec<Wall>, lo: V2, hi: V2, cell: f64, reach: f64) -> Walls {
        let cols = (((hi.x - lo.x) / cell).floor() as usize).saturating_add(1).max(1);
        let rows = (((hi.y - lo.y) / cell).floor() as usize).saturating_add(1).max(1);
        let mut counts = vec![0u32; cols * rows + 1];
        let cells_of = |w: &Wall| {
            let (x0, x1) = (w.a.x.min(w.b.x) - reach, w.a.x.max(w.b.x) + reach);
            let (y0, y1) = (w.a.y.min(w.b.y) - reach, w.a.y.max(w.b.y) + reach);
            let c = |t: f64, n: usize| (((t / cell).floor().max(0.0)) as usize).min(n - 1);
            (c(x0 - lo.x, cols), c(x1 - lo.x, cols), c(y0 - lo.y, rows), c(y1 - lo.y, rows))
        };
        for w in &walls {
            let (cx0, cx1, cy0, cy1) = cells_of(w);
            for y in cy0..=cy1 {
                for x in cx0..=cx1 {
                    counts[y * cols + x + 1] += 1;
                }
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut fill = counts.clone();
        let mut list = vec![0u32; counts[cols * rows] as usize];
        for (i, w) in walls.iter().enumerate() {
            let (cx0, cx1, cy0, cy1) = cells_of(w);
            for y in cy0..=cy1 {
                for x in cx0..=cx1 {
                    let k = y * cols + x;
                    list[fill[k] as usize] = i as u32;
                    fill[k] += 1;
                }
            }
        }
        Walls { segments: walls, origin: lo, cell, cols, rows, start: counts, list, reach }
    }

    /// The walls listed for the cell holding `p`, in segment order.
    #[inline]
    pub fn near(&self, p: V2) -> impl Iterator<Item = &Wall> + '_ {
        // Truncation: the floor of a value clamped at 0.
        let c = |t: f64, n: usize| ((t / self.cell).max(0.0) as usize).min(n - 1);
        let k = c(p.y - self.origin.y, self.rows) * self.cols + c(p.x - self.origin.x, self.cols);
        self.list[self.start[k] as usize..self.start[k + 1] as usize]
            .iter()
            .map(|&i| &self.segments[i as usize])
    }
}
