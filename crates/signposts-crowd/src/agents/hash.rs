//! The agents in a uniform grid, rebuilt each tick by a counting sort: each cell's agents in
//! index order, so that every query visits them in an order that depends on the positions only.

#![expect(clippy::cast_sign_loss, reason = "cell coordinates are floored after clamping at 0")]
#![expect(clippy::many_single_char_names, reason = "coordinates and cells: x y w h k p m f")]

use super::orca::V2;

/// Agents bucketed by cell.
#[derive(Debug, Clone, Default)]
pub(crate) struct Hash {
    origin: V2,
    cell: f64,
    cols: usize,
    rows: usize,
    /// Cell `k`'s agents: `items[start[k]..start[k + 1]]`, in index order.
    start: Vec<u32>,
    items: Vec<u32>,
    cell_of: Vec<u32>,
    cursor: Vec<u32>,
    /// The position of each of `items`.
    at: Vec<V2>,
}

impl Hash {
    /// Buckets `positions` in cells of side at least `cell` over the box `lo..hi` (points
    /// outside go to the nearest cell); at most about `4 · n + 1024` cells.
    pub fn rebuild(&mut self, positions: &[V2], lo: V2, hi: V2, cell: f64) {
        let (w, h) = ((hi.x - lo.x).max(0.0), (hi.y - lo.y).max(0.0));
        let limit = (4 * positions.len() + 1024) as f64;
        let mut cell = cell.max(f64::MIN_POSITIVE);
        if (w / cell + 1.0) * (h / cell + 1.0) > limit {
            cell = cell.max(((w * h) / limit).sqrt()).max((w.max(h)) / limit);
        }
        self.origin = lo;
        self.cell = cell;
        self.cols = ((w / cell).floor() as usize).saturating_add(1);
        self.rows = ((h / cell).floor() as usize).saturating_add(1);
        let cells = self.cols * self.rows;
        self.start.clear();
        self.start.resize(cells + 1, 0);
        self.cell_of.clear();
        for &p in positions {
            let (x, y) = self.coords(p);
            let k = (y * self.cols + x) as u32;
            self.cell_of.push(k);
            self.start[k as usize + 1] += 1;
        }
        for i in 1..self.start.len() {
            self.start[i] += self.start[i - 1];
        }
        self.items.clear();
        self.items.resize(positions.len(), 0);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.start[..cells]);
        for (i, &k) in self.cell_of.iter().enumerate() {
            let at = &mut self.cursor[k as usize];
            self.items[*at as usize] = i as u32;
            *at += 1;
        }
        self.at.clear();
        self.at.extend(self.items.iter().map(|&i| positions[i as usize]));
    }

    /// The cell's column and row of `p`.
    #[inline]
    pub fn coords(&self, p: V2) -> (usize, usize) {
        // Truncation is the floor of a value clamped at 0 (and cheaper: `floor` is a call
        // without SSE4.1).
        let c = |t: f64, n: usize| ((t / self.cell).max(0.0) as usize).min(n - 1);
        (c(p.x - self.origin.x, self.cols), c(p.y - self.origin.y, self.rows))
    }

    /// The cell side.
    #[inline]
    pub fn cell(&self) -> f64 {
        self.cell
    }

    /// Calls `f` with every agent (and its position) in ring `m` of cells around cell
    /// `(x, y)` ([`Hash::coords`]; ring 0: the cell; ring `m`: the cells at Chebyshev distance
    /// `m`), row by row, each cell in index order. Every agent outside rings `0..=m` is at
    /// least `m` cell sides from any point of the cell.
    #[inline]
    pub fn ring(&self, (x, y): (usize, usize), m: usize, mut f: impl FnMut(u32, V2)) {
        let (x0, x1) = (x.saturating_sub(m), (x + m).min(self.cols - 1));
        let (y0, y1) = (y.saturating_sub(m), (y + m).min(self.rows - 1));
        let (left, right) = (x >= m, m > 0 && x + m < self.cols);
        for cy in y0..=y1 {
            let row = cy * self.cols;
            let edge = cy + m == y || cy == y + m;
            // A full row at the ring's top and bottom; its two side cells in between.
            let spans = if edge {
                [(row + x0, row + x1 + 1), (0, 0)]
            } else {
                [
                    if left { (row + x - m, row + x - m + 1) } else { (0, 0) },
                    if right { (row + x + m, row + x + m + 1) } else { (0, 0) },
                ]
            };
            for (a, b) in spans {
                let (from, to) = (self.start[a] as usize, self.start[b] as usize);
                for (&j, &q) in self.items[from..to].iter().zip(&self.at[from..to]) {
                    f(j, q);
                }
            }
        }
    }

    /// How many rings hold every agent within `distance` of a point.
    #[inline]
    pub fn rings_for(&self, distance: f64) -> usize {
        let rings = (distance / self.cell).ceil();
        if rings >= (self.cols.max(self.rows)) as f64 { self.cols.max(self.rows) } else { rings as usize }
    }
}
