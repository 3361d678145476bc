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
#[derive(Debug, Default)]
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
        self.row_words = (w + 2).div_ceil(64) + 1;
        self.col_words = (h + 2).div_ceil(64) + 1;
        self.rows.clear();
        self.rows.resize(self.row_words * (h + 2), 0);
        self.cols.clear();
        self.cols.resize(self.col_words * (w + 2), 0);
        for y in 0..h {
            for x in 0..w {
                if layer.is_passable(tiles.tag_at(y * w + x)) {
                    let (px, py) = (x + 1, y + 1);
                    self.rows[py * self.row_words + px / 64] |= 1 << (px % 64);
                    self.cols[px * self.col_words + py / 64] |= 1 << (py % 64);
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

    /// 64 bits of line `line` (padded index) of `bits` from padded position `from`: bit `k` is
    /// position `from + k`. Positions past the line's end read as blocked.
    #[inline]
    fn window(bits: &[u64], words: usize, line: usize, from: usize) -> u64 {
        let base = line * words;
        let (word, shift) = (from / 64, from % 64);
        let low = bits.get(base + word).copied().filter(|_| word < words).unwrap_or(0) >> shift;
        let high = if shift == 0 || word + 1 >= words { 0 } else { bits[base + word + 1] << (64 - shift) };
        low | high
    }

    /// 64 bits of a line ending at padded position `to`: bit `63 − k` is position `to − k`.
    /// Positions before the line's start read as blocked.
    #[inline]
    fn window_back(bits: &[u64], words: usize, line: usize, to: usize) -> u64 {
        if to >= 63 {
            Self::window(bits, words, line, to - 63)
        } else {
            Self::window(bits, words, line, 0) << (63 - to)
        }
    }

    /// A straight jump from `(x, y)` (not taken) along a line: east/west when `horizontal`,
    /// south/north otherwise, `forward` toward growing coordinates. Returns the distance to the
    /// first cell where a forced neighbour appears or the goal is, or `None` when a wall
    /// comes first.
    fn run(&self, x: i64, y: i64, horizontal: bool, forward: bool, goal: Cell) -> Option<i64> {
        // Along the line `a` (the moving coordinate), across it `b`.
        let (bits, words, a, b, goal_a, goal_b) = if horizontal {
            (&self.rows, self.row_words, x, y, i64::from(goal.x), i64::from(goal.y))
        } else {
            (&self.cols, self.col_words, y, x, i64::from(goal.y), i64::from(goal.x))
        };
        let line = (b + 1) as usize;
        let mut at = a + 1; // padded position of the cell itself
        let mut travelled = 0;
        loop {
            // Windows of the next 64 cells ahead (`k` = 0 is the first cell after `at`), and of
            // the same cells one step back, on this line and the two beside it.
            let (cur, side, side_back) = if forward {
                let next = (at + 1) as usize;
                let get = |line: usize, from: usize| Self::window(bits, words, line, from);
                (
                    get(line, next),
                    [get(line - 1, next), get(line + 1, next)],
                    [get(line - 1, next - 1), get(line + 1, next - 1)],
                )
            } else {
                let next = (at - 1) as usize;
                let get = |line: usize, to: usize| Self::window_back(bits, words, line, to).reverse_bits();
                (
                    get(line, next),
                    [get(line - 1, next), get(line + 1, next)],
                    [get(line - 1, next + 1), get(line + 1, next + 1)],
                )
            };
            let forced = (side[0] & !side_back[0]) | (side[1] & !side_back[1]);
            let wall = (!cur).trailing_zeros();
            let mut first = forced.trailing_zeros();
            if goal_b == b {
                let ahead = if forward { goal_a - (at - 1) - 1 } else { (at - 1) - goal_a - 1 };
                if (0..64).contains(&ahead) {
                    first = first.min(ahead as u32);
                }
            }
            if first < wall {
                return Some(travelled + i64::from(first) + 1);
            }
            if wall < 64 {
                return None;
            }
            travelled += 64;
            at += if forward { 64 } else { -64 };
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
}
