//! Jump point search on bitmaps: straight runs are scanned 64 cells at a time.
//!
//! Passability for one layer is kept as two bitmaps, by rows and by columns, each line padded
//! with blocked cells on both sides (and a blocked line above and below), so that no scan
//! needs a bounds check. A searcher rebuilds them only when the grid (its identity and edit
//! count) or the layer changes.

#![expect(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "coordinates are signed so that a step may look past the edge; every cast to an \
              index is of a coordinate inside the padded grid, below 2^32"
)]

use super::{Layer, TileGrid};
use crate::grid::Cell;

/// Passability bitmaps of one grid for one layer.
#[derive(Default)]
pub(crate) struct Bitmaps {
    source: Option<((u64, u64), Layer)>,
    width: i64,
    height: i64,
    /// Words per padded row (of `width + 2` bits, plus a spare word for unaligned reads).
    row_words: usize,
    /// Words per padded column.
    col_words: usize,
    rows: Vec<u64>,
    cols: Vec<u64>,
    /// The same lines read backwards (padded position `p` of a line of `n` cells at
    /// `n + 1 − p`), so that westward and northward runs scan forward too.
    rows_back: Vec<u64>,
    cols_back: Vec<u64>,
}

impl core::fmt::Debug for Bitmaps {
    /// The size only: the bitmaps themselves are a map's worth of bits.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Bitmaps")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

impl Bitmaps {
    /// Makes the bitmaps describe `tiles` under `layer` (no work if they already do).
    pub fn prepare(&mut self, tiles: &TileGrid, layer: Layer) {
        let key = (tiles.stamp(), layer);
        if self.source == Some(key) {
            return;
        }
        let (w, h) = (tiles.width() as usize, tiles.height() as usize);
        self.width = w as i64;
        self.height = h as i64;
        // Lines of `n + 2` padded positions, read up to two past the end: a spare word.
        self.row_words = (w + 4).div_ceil(64) + 1;
        self.col_words = (h + 4).div_ceil(64) + 1;
        for (bits, len) in [
            (&mut self.rows, self.row_words * (h + 2)),
            (&mut self.rows_back, self.row_words * (h + 2)),
            (&mut self.cols, self.col_words * (w + 2)),
            (&mut self.cols_back, self.col_words * (w + 2)),
        ] {
            bits.clear();
            bits.resize(len, 0);
        }
        let set = |bits: &mut [u64], words: usize, line: usize, at: usize| {
            bits[line * words + at / 64] |= 1 << (at % 64);
        };
        for y in 0..h {
            for x in 0..w {
                if layer.is_passable(tiles.tag_at(y * w + x)) {
                    let (px, py) = (x + 1, y + 1);
                    set(&mut self.rows, self.row_words, py, px);
                    set(&mut self.rows_back, self.row_words, py, w + 1 - px);
                    set(&mut self.cols, self.col_words, px, py);
                    set(&mut self.cols_back, self.col_words, px, h + 1 - py);
                }
            }
        }
        self.source = Some(key);
    }

    /// Whether `(x, y)` is inside and passable.
    #[inline]
    pub fn open(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return false;
        }
        let (px, py) = ((x + 1) as usize, (y + 1) as usize);
        self.rows[py * self.row_words + px / 64] >> (px % 64) & 1 == 1
    }

    /// 64 bits of line `line` (padded index) of `bits` from padded position `from` (at most
    /// one past the line's last cell): bit `k` is position `from + k`; positions past the
    /// line's end read as blocked (every line has a spare zero word).
    #[inline]
    fn window(bits: &[u64], words: usize, line: usize, from: usize) -> u64 {
        let i = line * words + from / 64;
        let shift = from % 64;
        // `<< 1 << (63 − shift)` is `<< (64 − shift)` without overflowing at `shift = 0`.
        bits[i] >> shift | bits[i + 1] << 1 << (63 - shift)
    }

    /// A straight jump from `(x, y)` (not taken) along a line: east/west when `horizontal`,
    /// south/north otherwise, `forward` toward growing coordinates. Returns the distance to the
    /// first cell where a forced neighbour appears or the goal is, or `None` when a wall
    /// comes first.
    fn run(&self, x: i64, y: i64, horizontal: bool, forward: bool, goal: Cell) -> Option<i64> {
        // Along the line `a` (the moving coordinate, counted from the scan's start side), across
        // it `b`.
        let (len, a, b, goal_a, goal_b) = if horizontal {
            (self.width, x, y, i64::from(goal.x), i64::from(goal.y))
        } else {
            (self.height, y, x, i64::from(goal.y), i64::from(goal.x))
        };
        let (bits, words) = match (horizontal, forward) {
            (true, true) => (&self.rows, self.row_words),
            (true, false) => (&self.rows_back, self.row_words),
            (false, true) => (&self.cols, self.col_words),
            (false, false) => (&self.cols_back, self.col_words),
        };
        // Positions along the scan: forward ones as they are, backward ones mirrored.
        let (a, goal_a) = if forward { (a, goal_a) } else { (len - 1 - a, len - 1 - goal_a) };
        let goal_ahead = if goal_b == b { goal_a - a - 1 } else { -1 };
        let line = (b + 1) as usize;
        let mut next = (a + 2) as usize; // padded position of the first cell ahead
        let mut travelled = 0;
        loop {
            // Bit `k`: the `k`-th cell ahead, on this line and the two beside it, and the same
            // beside cells one step back.
            let cur = Self::window(bits, words, line, next);
            let forced = Self::window(bits, words, line - 1, next)
                & !Self::window(bits, words, line - 1, next - 1)
                | Self::window(bits, words, line + 1, next) & !Self::window(bits, words, line + 1, next - 1);
            let wall = (!cur).trailing_zeros();
            let mut first = forced.trailing_zeros();
            let ahead = goal_ahead - travelled;
            if (0..64).contains(&ahead) {
                first = first.min(ahead as u32);
            }
            if first < wall {
                return Some(travelled + i64::from(first) + 1);
            }
            if wall < 64 {
                return None;
            }
            travelled += 64;
            next += 64;
        }
    }

    /// Jump point search without corner cutting from `(x, y)` in direction `(dx, dy)`: the
    /// first cell where canonical paths branch (a forced neighbour beside a straight run, or a
    /// diagonal cell whose straight runs find one) or the goal; `None` when the run hits a
    /// wall first. Every step taken is a legal move.
    pub fn jump(&self, mut x: i64, mut y: i64, dx: i64, dy: i64, goal: Cell) -> Option<(i64, i64)> {
        if dx == 0 || dy == 0 {
            let horizontal = dx != 0;
            let run = self.run(x, y, horizontal, dx + dy > 0, goal)?;
            return Some((x + dx * run, y + dy * run));
        }
        let goal_xy = (i64::from(goal.x), i64::from(goal.y));
        loop {
            if !(self.open(x + dx, y + dy) && self.open(x + dx, y) && self.open(x, y + dy)) {
                return None;
            }
            x += dx;
            y += dy;
            if (x, y) == goal_xy
                || self.run(x, y, true, dx > 0, goal).is_some()
                || self.run(x, y, false, dy > 0, goal).is_some()
            {
                return Some((x, y));
            }
        }
    }

    /// Jump point search on a 4-connected grid, from `(x, y)` in direction `(dx, dy)`.
    /// Horizontal runs play the part of diagonal ones: a cell where a vertical run finds a
    /// jump point (or a side opens) is one. Vertical runs stop where a side opens. Shortest
    /// paths that turn from vertical to horizontal anywhere else can turn one cell earlier
    /// instead (the side behind is open too), so paths of horizontal runs first, turning back
    /// only where a side opens, cover every length.
    pub fn jump4(&self, x: i64, y: i64, dx: i64, dy: i64, goal: Cell) -> Option<(i64, i64)> {
        if dy != 0 {
            let run = self.run(x, y, false, dy > 0, goal)?;
            return Some((x, y + dy * run));
        }
        let run = self.sweep(x, y, dx > 0, goal)?;
        Some((x + dx * run, y))
    }

    /// A horizontal 4-connected run from `(x, y)`, 64 columns at a time: for the cells ahead
    /// on the row, the vertical runs up and down every one of them are followed together,
    /// row by row, as a mask of the columns still open. Returns the distance to the first cell
    /// where a side opens, the goal is, or a vertical run finds either; `None` at a wall.
    fn sweep(&self, x: i64, y: i64, forward: bool, goal: Cell) -> Option<i64> {
        let (bits, words) =
            if forward { (&self.rows, self.row_words) } else { (&self.rows_back, self.row_words) };
        let mirror = |a: i64| if forward { a } else { self.width - 1 - a };
        let (a, goal_a, goal_y) = (mirror(x), mirror(i64::from(goal.x)), i64::from(goal.y));
        let window = |line: i64, from: usize| Self::window(bits, words, (line + 1) as usize, from);
        // A side opening at row `r` for the cells ahead, seen from row `behind`.
        let opens = |r: i64, behind: i64, next: usize| {
            (window(r, next - 1) & !window(behind, next - 1))
                | (window(r, next + 1) & !window(behind, next + 1))
        };
        let mut next = (a + 2) as usize;
        let mut travelled = 0i64;
        loop {
            let cur = window(y, next);
            let wall = (!cur).trailing_zeros();
            let valid = if wall == 64 { u64::MAX } else { (1u64 << wall) - 1 };
            // On the row itself: a side opening, or the goal.
            let mut found = window(y - 1, next) & !window(y - 1, next - 1)
                | window(y + 1, next) & !window(y + 1, next - 1);
            let goal_bit = |row: i64| {
                let k = goal_a - a - 1 - travelled;
                if goal_y == row && (0..64).contains(&k) { 1u64 << k } else { 0 }
            };
            found |= goal_bit(y);
            // The vertical runs, both ways.
            for step in [-1i64, 1] {
                let mut alive = valid;
                let mut r = y + step;
                while alive != 0 {
                    alive &= window(r, next);
                    found |= alive & (opens(r, r - step, next) | goal_bit(r));
                    r += step;
                }
            }
            let first = (found & valid).trailing_zeros();
            if first < 64 {
                return Some(travelled + i64::from(first) + 1);
            }
            if wall < 64 {
                return None;
            }
            travelled += 64;
            next += 64;
        }
    }
}
