//! A path packed into a few bytes: three bits per step.

use crate::grid::{Cell, Direction};

/// Up to [`PackedPath::CAPACITY`] steps, three bits each, in 24 bytes: `Copy`, no heap.
///
/// ```
/// use signposts::grid::{Cell, Direction};
/// use signposts::search::PackedPath;
/// let path: PackedPath = [Direction::East, Direction::SouthEast].into_iter().collect();
/// assert_eq!(path.len(), 2);
/// assert_eq!(path.get(1), Some(Direction::SouthEast));
/// assert_eq!(path.cells(Cell::new(0, 0)).last(), Some(Cell::new(2, 1)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PackedPath {
    bits: [u64; 2],
    len: u8,
}

impl PackedPath {
    /// The most steps a packed path holds.
    pub const CAPACITY: usize = 42;

    /// An empty path.
    #[must_use]
    pub const fn new() -> PackedPath {
        PackedPath { bits: [0; 2], len: 0 }
    }

    /// Number of steps.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no steps (the start is the goal).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether no more steps fit.
    #[must_use]
    pub const fn is_full(&self) -> bool {
        self.len() == Self::CAPACITY
    }

    /// Appends a step; `false` (and no change) when the path is full.
    pub fn push(&mut self, step: Direction) -> bool {
        if self.is_full() {
            return false;
        }
        // The enum's order is `Direction::ALL`'s.
        self.push_code(step as u8);
        true
    }

    /// Appends the step of index `code` in [`Direction::ALL`]; the path must not be full.
    pub(crate) fn push_code(&mut self, code: u8) {
        debug_assert!(!self.is_full() && code < 8);
        let bit = self.len() * 3;
        // 42 steps of 3 bits: a step never straddles the two words (21 per word).
        self.bits[bit / 63] |= u64::from(code) << (bit % 63);
        self.len += 1;
    }

    /// Step `i`, if there is one.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Direction> {
        (i < self.len()).then(|| self.step(i))
    }

    /// Step `i`, which must be below the length.
    fn step(&self, i: usize) -> Direction {
        let bit = i * 3;
        Direction::ALL[(self.bits[bit / 63] >> (bit % 63) & 0b111) as usize]
    }

    /// The steps in order.
    #[must_use = "iterators do nothing unless consumed"]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Direction> + '_ {
        (0..self.len()).map(|i| self.step(i))
    }

    /// The cells visited from `start`, `start` first (stopping early only if a step would
    /// leave the `u32` coordinate range, which a path found on a grid never does).
    #[must_use = "iterators do nothing unless consumed"]
    pub fn cells(&self, start: Cell) -> impl Iterator<Item = Cell> + '_ {
        core::iter::once(start).chain(self.iter().scan(start, |at, d| {
            *at = at.step(d)?;
            Some(*at)
        }))
    }
}

impl FromIterator<Direction> for PackedPath {
    /// Packs the first [`PackedPath::CAPACITY`] steps.
    fn from_iter<I: IntoIterator<Item = Direction>>(steps: I) -> PackedPath {
        let mut path = PackedPath::new();
        for step in steps {
            if !path.push(step) {
                break;
            }
        }
        path
    }
}

impl core::fmt::Debug for PackedPath {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
