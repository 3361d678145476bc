//! Candidate corners per cell of a uniform grid laid over the mesh (as Euclidean Hub Labeling
//! does): the corners that see some of the cell and could be turned at from there, each
//! marked when it sees all of it. A query reads its end's cell, and decides visibility only
//! for the corners not so marked.

#![expect(
    clippy::many_single_char_names,
    clippy::cast_sign_loss,
    reason = "points of figures (a b p q r l), cell coordinates (i j); cell numbers are clamped or checked non-negative before each cast"
)]

use crate::Point;
use crate::buf::Buf;
use crate::geom::{magnitude, orient, ulp};

use super::expand::Piece;
use super::topology::{Kind, Topology};
use super::view::PLUS_X;
use super::{FULL, TAUT};

/// Cells at most (about): beyond, cells grow.
const MAX_CELLS: f64 = (1u64 << 22) as f64;

/// The grid of cells.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CellGrid {
    pub(crate) lo: Point,
    pub(crate) size: f64,
    pub(crate) w: u32,
    pub(crate) h: u32,
}

impl CellGrid {
    /// Cells of one map unit (a grid map's cells), larger (a whole number of units) where
    /// that would make more than 256 cells a region (2²² at most), in all or along one side: a
    /// map of wide open spaces gets fewer, larger cells, so that a corner seeing far does not
    /// list millions of them.
    ///
    /// The size is a power of two of at least 256 units in the last place of the map's largest
    /// coordinate, and the grid's corner a multiple of it: every cell's bounds `lo + i · size`
    /// are then exact in `f64`, and [`CellGrid::of`] puts a point in the cell whose exact
    /// bounds hold it. (With whole units, on a map beyond 2^53 the bounds rounded, and a point
    /// near one was listed under a cell whose corners' views had been rasterized elsewhere:
    /// a corner in sight of it went missing.)
    pub(crate) fn over((lo, hi): (Point, Point), regions: usize) -> CellGrid {
        let (width, height) = ((hi.x - lo.x).max(0.0), (hi.y - lo.y).max(0.0));
        let most = (256.0 * regions as f64).clamp(1024.0, MAX_CELLS);
        let size = 1f64
            .max((width * height / most).sqrt())
            .max(width.max(height) / most)
            .max(256.0 * ulp(magnitude([lo, hi])));
        let size = size.log2().ceil().exp2();
        let lo = Point::new((lo.x / size).floor() * size, (lo.y / size).floor() * size);
        // At most `most` + 2 a side (the floor above adds one), about `most` in all on a
        // square map and three times that on a long thin one.
        let count = |extent: f64| ((extent / size).ceil().clamp(1.0, most) as u32) + 2;
        CellGrid { lo, size, w: count(hi.x - lo.x), h: count(hi.y - lo.y) }
    }

    pub(crate) fn len(&self) -> usize {
        self.w as usize * self.h as usize
    }

    /// The cell holding `p` (clamped to the grid), by its exact bounds.
    #[inline]
    pub(crate) fn of(&self, p: Point) -> usize {
        let i = self.along(p.x, self.lo.x, self.w);
        let j = self.along(p.y, self.lo.y, self.h);
        j * self.w as usize + i
    }

    /// The cell along one axis whose bounds `lo + i · size ≤ v < lo + (i + 1) · size` hold `v`
    /// (clamped to `0..n`): the quotient rounds where `v - lo` does (a point near the origin on
    /// a map reaching far from it), so it is checked against the bounds, which are exact.
    #[inline]
    fn along(&self, v: f64, lo: f64, n: u32) -> usize {
        let last = i64::from(n) - 1;
        let mut i = ((v - lo) / self.size).floor().clamp(0.0, last as f64) as i64;
        while i > 0 && v < lo + i as f64 * self.size {
            i -= 1;
        }
        while i < last && v >= lo + (i + 1) as f64 * self.size {
            i += 1;
        }
        i as usize
    }

    /// Corner `k` (0..4) of cell `(i, j)`.
    #[inline]
    fn corner(&self, i: i64, j: i64, k: usize) -> Point {
        let (di, dj) = [(0, 0), (1, 0), (1, 1), (0, 1)][k];
        Point::new(self.lo.x + (i + di) as f64 * self.size, self.lo.y + (j + dj) as f64 * self.size)
    }
}

/// Maps of fewer corners than this keep their cell entries in 16 bits (a corner index of 14
/// bits and the [`FULL`] and [`TAUT`] marks), else in 32.
pub(crate) const NARROW_CORNERS: usize = 1 << 14;

/// The cells' candidate entries, laid end to end (each a corner index with its [`FULL`] and
/// [`TAUT`] marks): in 16 bits on a map of fewer than [`NARROW_CORNERS`] corners (half the
/// memory: the cells are the index's largest part after the labels' first steps), else 32.
#[derive(Debug, Clone)]
pub(crate) enum CellList {
    Narrow(Buf<u16>),
    Wide(Buf<u32>),
}

/// A 32-bit entry in 16 bits (its corner below [`NARROW_CORNERS`]).
#[inline]
fn narrow(e: u32) -> u16 {
    ((e & 0x3FFF) | ((e >> 16) & 0xC000)) as u16
}

/// A 16-bit entry in 32 bits: the index, the marks back in their bits.
#[inline]
fn widen(e: u16) -> u32 {
    let e = u32::from(e);
    (e & 0x3FFF) | ((e & 0xC000) << 16)
}

impl CellList {
    /// The entries of a map of `corners` corners, narrowed when they fit.
    pub(crate) fn new(entries: Vec<u32>, corners: usize) -> CellList {
        if corners < NARROW_CORNERS {
            CellList::Narrow(entries.into_iter().map(narrow).collect::<Vec<u16>>().into())
        } else {
            CellList::Wide(entries.into())
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            CellList::Narrow(v) => v.len(),
            CellList::Wide(v) => v.len(),
        }
    }

    /// The entries `range`, as 32-bit entries.
    #[inline]
    pub(crate) fn entries(&self, range: core::ops::Range<usize>) -> Entries<'_> {
        match self {
            CellList::Narrow(v) => Entries::Narrow(v[range].iter()),
            CellList::Wide(v) => Entries::Wide(v[range].iter()),
        }
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        match self {
            CellList::Narrow(v) => v.len() * 2,
            CellList::Wide(v) => v.len() * 4,
        }
    }

    #[cfg(feature = "test-support")]
    pub(crate) fn is_shared(&self) -> bool {
        match self {
            CellList::Narrow(v) => v.is_shared(),
            CellList::Wide(v) => v.is_shared(),
        }
    }
}

/// The entries of a range of a [`CellList`], each as 32 bits.
pub(crate) enum Entries<'a> {
    Narrow(core::slice::Iter<'a, u16>),
    Wide(core::slice::Iter<'a, u32>),
}

impl Iterator for Entries<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        match self {
            Entries::Narrow(i) => i.next().map(|&e| widen(e)),
            Entries::Wide(i) => i.next().copied(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Entries::Narrow(i) => i.size_hint(),
            Entries::Wide(i) => i.size_hint(),
        }
    }
}

/// Per-thread buffers for rasterizing one corner's view.
#[derive(Debug, Default)]
pub(crate) struct Raster {
    stamp: Vec<u32>,
    full: Vec<bool>,
    now: u32,
    cells: Vec<u32>,
}

/// A point on ray `id` from `c`.
#[inline]
fn ray_point(topo: &Topology, c: Point, id: u32) -> Point {
    if id == PLUS_X { Point::new(c.x + c.x.abs().max(1.0), c.y) } else { topo.at(id) }
}

/// Where the ray from `c` through `r` meets the wall `a b` (floating point, kept within the
/// wall's box: a ray nearly along the wall cannot throw it far).
fn hit(c: Point, r: Point, a: Point, b: Point) -> Point {
    let (dx, dy) = (r.x - c.x, r.y - c.y);
    let (ex, ey) = (b.x - a.x, b.y - a.y);
    let denom = dx * ey - dy * ex;
    let u = if denom == 0.0 { 0.0 } else { (((a.x - c.x) * ey - (a.y - c.y) * ex) / denom).max(0.0) };
    let (x, y) = (c.x + u * dx, c.y + u * dy);
    Point::new(x.clamp(a.x.min(b.x), a.x.max(b.x)), y.clamp(a.y.min(b.y), a.y.max(b.y)))
}

impl Raster {
    fn mark(&mut self, grid: &CellGrid, i: i64, j: i64, full: bool) {
        if i < 0 || j < 0 || i >= i64::from(grid.w) || j >= i64::from(grid.h) {
            return;
        }
        let cell = (j * i64::from(grid.w) + i) as usize;
        if self.stamp[cell] != self.now {
            self.stamp[cell] = self.now;
            self.full[cell] = full;
            self.cells.push(cell as u32);
        } else if full {
            self.full[cell] = true;
        }
    }

    /// Marks the cells around each spike (a ray one wide: no cell is all seen through it).
    fn spikes(&mut self, topo: &Topology, grid: &CellGrid, pc: Point, spikes: &[Piece]) {
        for spike in spikes {
            let r = topo.at(spike.right);
            let end = if spike.wall[0] == spike.wall[1] {
                topo.at(spike.wall[0])
            } else {
                hit(pc, r, topo.at(spike.wall[0]), topo.at(spike.wall[1]))
            };
            let steps = (pc.distance(end) / grid.size * 2.0).ceil() as i64 + 1;
            for k in 0..=steps {
                let f = k as f64 / steps as f64;
                let p = Point::new(pc.x + (end.x - pc.x) * f, pc.y + (end.y - pc.y) * f);
                let (i, j) = (
                    ((p.x - grid.lo.x) / grid.size).floor() as i64,
                    ((p.y - grid.lo.y) / grid.size).floor() as i64,
                );
                for (di, dj) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
                {
                    self.mark(grid, i + di, j + dj, false);
                }
            }
        }
    }

    /// The cells corner `c` sees some of and could be turned at from, each with [`FULL`]
    /// set when one piece of its view holds the whole cell, and [`TAUT`] when a path from
    /// anywhere in the cell may turn at `c`.
    pub(crate) fn cells(
        &mut self,
        topo: &Topology,
        grid: &CellGrid,
        c: u32,
        pieces: &[Piece],
        spikes: &[Piece],
    ) -> Vec<u32> {
        if self.stamp.len() != grid.len() || self.now == u32::MAX {
            self.stamp = vec![0; grid.len()];
            self.full = vec![false; grid.len()];
            self.now = 0;
        }
        self.now += 1;
        self.cells.clear();
        let pc = topo.at(c);
        // A hundredth of a cell each way covers the rounding of `hit` and of the strips.
        let eps = 1e-2;
        for piece in pieces {
            let (r, l) = (ray_point(topo, pc, piece.right), ray_point(topo, pc, piece.left));
            let (a, b) = (topo.at(piece.wall[0]), topo.at(piece.wall[1]));
            let tri = [pc, hit(pc, r, a, b), hit(pc, l, a, b)];
            let to_cell = |v: f64, o: f64| (v - o) / grid.size;
            let ys = tri.map(|p| to_cell(p.y, grid.lo.y));
            let (y0, y1) = (
                ys.iter().copied().fold(f64::INFINITY, f64::min),
                ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            );
            for j in ((y0 - eps).floor() as i64)..=((y1 + eps).floor() as i64) {
                // The triangle's x extent within the strip of row j.
                let (s0, s1) = (j as f64, (j + 1) as f64);
                let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
                for k in 0..3 {
                    let (p, q) = (tri[k], tri[(k + 1) % 3]);
                    let (py, qy) = (to_cell(p.y, grid.lo.y), to_cell(q.y, grid.lo.y));
                    let (px, qx) = (to_cell(p.x, grid.lo.x), to_cell(q.x, grid.lo.x));
                    if py >= s0 - eps && py <= s1 + eps {
                        x0 = x0.min(px);
                        x1 = x1.max(px);
                    }
                    for s in [s0, s1] {
                        if (py - s) * (qy - s) < 0.0 {
                            let x = px + (qx - px) * (s - py) / (qy - py);
                            x0 = x0.min(x);
                            x1 = x1.max(x);
                        }
                    }
                }
                if x0 > x1 {
                    continue;
                }
                for i in ((x0 - eps).floor() as i64)..=((x1 + eps).floor() as i64) {
                    let full = (0..4).all(|k| {
                        let q = grid.corner(i, j, k);
                        orient(pc, r, q) >= 0.0 && orient(pc, q, l) >= 0.0 && orient(a, b, q) >= 0.0
                    });
                    self.mark(grid, i, j, full);
                }
            }
        }
        self.spikes(topo, grid, pc, spikes);
        // Cells lying wholly where no path could turn at `c`.
        let walls = match topo.kinds[c as usize] {
            Kind::Reflex(a, b) => Some((topo.at(a), topo.at(b))),
            _ => None,
        };
        let w = i64::from(grid.w);
        let mut out = Vec::with_capacity(self.cells.len());
        for &cell in &self.cells {
            let (i, j) = (i64::from(cell) % w, i64::from(cell) / w);
            // The cell wholly in one wedge where paths cannot turn at `c` (dropped), or wholly
            // in one where they can (marked: no test at query time).
            let mut taut = TAUT;
            if let Some((a, b)) = walls {
                let side = |q: Point| {
                    let (x, y) = (orient(q, pc, a), orient(q, pc, b));
                    if x < 0.0 && y > 0.0 {
                        1
                    } else if x > 0.0 && y < 0.0 {
                        2
                    } else if x >= 0.0 && y >= 0.0 {
                        3
                    } else if x <= 0.0 && y <= 0.0 {
                        4
                    } else {
                        0
                    }
                };
                let first = side(grid.corner(i, j, 0));
                let same = first != 0 && (1..4).all(|k| side(grid.corner(i, j, k)) == first);
                if same && first <= 2 {
                    continue;
                }
                if !(same && first >= 3) {
                    taut = 0;
                }
            }
            out.push(cell | taut | if self.full[cell as usize] { FULL } else { 0 });
        }
        out
    }
}
