//! The agents in a uniform grid, rebuilt each tick by a counting sort: each cell's agents in
//! index order, so that every query visits them in an order that depends on the positions only.

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
    }

    /// The cell's column and row of `p`.
    #[inline]
    fn coords(&self, p: V2) -> (usize, usize) {
        let c = |t: f64, n: usize| (((t / self.cell).floor().max(0.0)) as usize).min(n - 1);
        (c(p.x - self.origin.x, self.cols), c(p.y - self.origin.y, self.rows))
    }

    /// Calls `f` with every agent in the 3 × 3 cells around `p`'s (so every agent within the
    /// cell side of `p`, and some further), cell by cell, each cell in index order.
    #[inline]
    pub fn around(&self, p: V2, mut f: impl FnMut(u32)) {
        let (x, y) = self.coords(p);
        for cy in y.saturating_sub(1)..=(y + 1).min(self.rows - 1) {
            let row = cy * self.cols;
            let (a, b) = (row + x.saturating_sub(1), row + (x + 1).min(self.cols - 1));
            for &j in &self.items[self.start[a] as usize..self.start[b + 1] as usize] {
                f(j);
            }
        }
    }
}
