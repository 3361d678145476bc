//! Tile grids: cells, directions, passability, and the oracle that answers in them.
//!
//! One coordinate convention throughout: `(x, y)`, x = column, y = row, `(0, 0)` top-left,
//! row-major storage. Movement is 4-connected (straight steps, cost 1) or 8-connected
//! (diagonal steps cost √2 and need both orthogonal cells beside them open: no corner cutting,
//! the Moving AI rule). [`GridOracle`] maps the passable cells to nodes and answers next
//! steps as [`Direction`]s.

mod movingai;
mod oracle;

use core::fmt;

pub use movingai::{Scenario, ScenarioCheck, parse_map, parse_scenarios};
pub use oracle::{GridOracle, GridRepairJob, GridShard, GridShardFile, MergedTable, TableKind};

use crate::Error;

/// Which moves a grid allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// Up, down, left, right; every step costs 1.
    Four,
    /// The four straight moves (cost 1) plus diagonals (cost √2); a diagonal needs both cells
    /// beside it open (no corner cutting, as in the Moving AI benchmarks).
    Eight,
    /// The same eight moves, every one costing 1 (a chess king's; the grids of `bit_gossip`
    /// and other unit-cost peers). Single searches ([`search`](crate::search)) do not take it.
    EightUnit,
}

/// A cell of a grid: `x` is the column, `y` the row, `(0, 0)` the top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    ///
    /// ```
    /// let c = signposts::grid::Cell::new(3, 4);
    /// assert_eq!((c.x, c.y), (3, 4));
    /// ```
    #[must_use]
    pub const fn new(x: u32, y: u32) -> Cell {
        Cell { x, y }
    }

    /// The neighbouring cell one step in `direction`, or `None` past the top or left edge.
    ///
    /// ```
    /// use signposts::grid::{Cell, Direction};
    /// assert_eq!(Cell::new(2, 2).step(Direction::NorthWest), Some(Cell::new(1, 1)));
    /// assert_eq!(Cell::new(0, 2).step(Direction::West), None);
    /// ```
    #[must_use]
    pub fn step(self, direction: Direction) -> Option<Cell> {
        let (dx, dy) = direction.delta();
        Some(Cell { x: self.x.checked_add_signed(dx)?, y: self.y.checked_add_signed(dy)? })
    }
}

impl From<(u32, u32)> for Cell {
    fn from((x, y): (u32, u32)) -> Cell {
        Cell { x, y }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// One of the eight moves on a grid. North is toward row 0 (up on screen).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[expect(missing_docs, reason = "the compass names say it all")]
pub enum Direction {
    North,
    NorthEast,
    East,
    SouthEast,
    South,
    SouthWest,
    West,
    NorthWest,
}

impl Direction {
    /// All eight, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The `(dx, dy)` of a step: x grows to the east, y to the south.
    ///
    /// ```
    /// assert_eq!(signposts::grid::Direction::SouthWest.delta(), (-1, 1));
    /// ```
    #[must_use]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, -1),
            Direction::NorthEast => (1, -1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, 1),
            Direction::South => (0, 1),
            Direction::SouthWest => (-1, 1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, -1),
        }
    }

    /// The direction of a one-cell step `(dx, dy)`, or `None` if it is not one.
    ///
    /// ```
    /// use signposts::grid::Direction;
    /// assert_eq!(Direction::from_delta(1, 0), Some(Direction::East));
    /// assert_eq!(Direction::from_delta(2, 0), None);
    /// ```
    #[must_use]
    pub fn from_delta(dx: i32, dy: i32) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.delta() == (dx, dy))
    }

    /// Whether the step is diagonal.
    ///
    /// ```
    /// assert!(signposts::grid::Direction::NorthEast.is_diagonal());
    /// ```
    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        let (dx, dy) = self.delta();
        dx != 0 && dy != 0
    }
}

/// A `width × height` map of passable and blocked cells.
///
/// `Debug` draws it (`#` blocked, `.` open), so test failures show pictures.
///
/// ```
/// use signposts::grid::{Cell, Grid};
/// let grid = Grid::from_ascii("
///     ..#
///     ...
/// ")?;
/// assert_eq!((grid.width(), grid.height()), (3, 2));
/// assert!(!grid.is_passable(Cell::new(2, 0)));
/// assert_eq!(format!("{grid:?}"), "..#\n...\n");
/// # Ok::<(), signposts::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    width: u32,
    height: u32,
    passable: Vec<bool>,
}

impl Grid {
    /// A grid of open cells.
    ///
    /// # Panics
    /// Where [`Grid::try_new`] returns an error, with its message.
    ///
    /// ```
    /// assert_eq!(signposts::grid::Grid::new(4, 3).passable_len(), 12);
    /// ```
    #[must_use]
    pub fn new(width: u32, height: u32) -> Grid {
        Grid::from_fn(width, height, |_| true)
    }

    /// A grid of open cells, or an error instead of a panic or an abort.
    ///
    /// # Errors
    /// As [`Grid::try_from_fn`].
    ///
    /// ```
    /// use signposts::{Error, grid::Grid};
    /// assert_eq!(Grid::try_new(4, 3)?.passable_len(), 12);
    /// assert!(matches!(Grid::try_new(u32::MAX, u32::MAX), Err(Error::TooManyNodes { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_new(width: u32, height: u32) -> Result<Grid, Error> {
        Grid::try_from_fn(width, height, |_| true)
    }

    /// A grid where `open(cell)` says which cells are passable.
    ///
    /// # Panics
    /// Where [`Grid::try_from_fn`] returns an error, with its message.
    ///
    /// ```
    /// let g = signposts::grid::Grid::from_fn(3, 3, |c| c.x != 1);
    /// assert_eq!(g.passable_len(), 6);
    /// ```
    #[must_use]
    pub fn from_fn(width: u32, height: u32, open: impl FnMut(Cell) -> bool) -> Grid {
        Grid::try_from_fn(width, height, open).unwrap_or_else(|e| {
            panic!("a {width}×{height} grid has too many cells or cannot be allocated: {e}")
        })
    }

    /// A grid where `open(cell)` says which cells are passable, or an error instead of a
    /// panic or an abort. The grid takes one byte a cell, checked and allocated fallibly
    /// before `open` is called.
    ///
    /// # Errors
    /// - [`Error::TooManyNodes`] when `width · height` exceeds [`MAX_NODES`](crate::MAX_NODES).
    /// - [`Error::AllocationFailed`] naming the bytes when the allocator refuses them.
    ///
    /// ```
    /// use signposts::{Error, grid::Grid};
    /// let g = Grid::try_from_fn(3, 3, |c| c.x != 1)?;
    /// assert_eq!(g.passable_len(), 6);
    /// assert!(matches!(Grid::try_from_fn(1 << 16, 1 << 16, |_| true), Err(Error::TooManyNodes { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Complexity
    /// `width · height` calls of `open`; one byte a cell.
    pub fn try_from_fn(width: u32, height: u32, mut open: impl FnMut(Cell) -> bool) -> Result<Grid, Error> {
        let cells = checked_cells(width, height)?;
        let mut passable = crate::memory::try_with_capacity(cells)?;
        for y in 0..height {
            for x in 0..width {
                passable.push(open(Cell { x, y }));
            }
        }
        Ok(Grid { width, height, passable })
    }

    /// A grid from row-major passability flags.
    ///
    /// # Errors
    /// [`Error::Parse`] when `passable.len() != width · height`.
    ///
    /// ```
    /// let g = signposts::grid::Grid::from_slice(2, 1, &[true, false])?;
    /// assert_eq!(g.passable_len(), 1);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn from_slice(width: u32, height: u32, passable: &[bool]) -> Result<Grid, Error> {
        let cells = cells_of(width, height);
        if Some(passable.len()) != cells {
            return Err(Error::Parse {
                line: 0,
                column: 0,
                message: format!(
                    "{} flags for a {width}×{height} grid of {} cells",
                    passable.len(),
                    u64::from(width) * u64::from(height)
                ),
            });
        }
        Ok(Grid { width, height, passable: passable.to_vec() })
    }

    /// A grid drawn in ASCII: one row per non-blank line (leading and trailing spaces are
    /// ignored), `#` `@` `O` `T` `W` blocked, any other character open (`.`, `S`, `G`, `*` …).
    ///
    /// # Errors
    /// [`Error::Parse`] naming the line of a row whose width differs from the first row's.
    ///
    /// ```
    /// let g = signposts::grid::Grid::from_ascii("S.#\n.*G")?;
    /// assert_eq!(g.passable_len(), 5);
    /// assert!(signposts::grid::Grid::from_ascii("..\n...").is_err());
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn from_ascii(picture: &str) -> Result<Grid, Error> {
        let mut width = None;
        let mut passable = Vec::new();
        let mut height = 0u32;
        for (i, line) in picture.lines().enumerate() {
            let row = line.trim();
            if row.is_empty() {
                continue;
            }
            let w = row.chars().count();
            match width {
                None => width = Some(w),
                Some(expected) if expected != w => {
                    return Err(Error::Parse {
                        line: i + 1,
                        column: w.min(expected) + 1,
                        message: format!("row of {w} cells, expected {expected} like the first row"),
                    });
                }
                Some(_) => {}
            }
            passable.extend(row.chars().map(|c| !matches!(c, '#' | '@' | 'O' | 'T' | 'W')));
            height += 1;
        }
        let width = u32::try_from(width.unwrap_or(0)).map_err(|_| Error::Parse {
            line: 1,
            column: 1,
            message: "row too long".to_string(),
        })?;
        Ok(Grid { width, height, passable })
    }

    /// Width in cells.
    ///
    /// ```
    /// assert_eq!(signposts::grid::Grid::new(5, 2).width(), 5);
    /// ```
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    ///
    /// ```
    /// assert_eq!(signposts::grid::Grid::new(5, 2).height(), 2);
    /// ```
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `cell` is inside the grid.
    ///
    /// ```
    /// use signposts::grid::{Cell, Grid};
    /// assert!(!Grid::new(2, 2).contains(Cell::new(2, 0)));
    /// ```
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        cell.x < self.width && cell.y < self.height
    }

    /// Row-major index of a cell inside the grid.
    #[inline]
    pub(crate) fn index(&self, cell: Cell) -> usize {
        cell.y as usize * self.width as usize + cell.x as usize
    }

    /// Whether `cell` is inside the grid and open.
    ///
    /// ```
    /// use signposts::grid::{Cell, Grid};
    /// let g = Grid::from_ascii(".#")?;
    /// assert!(g.is_passable(Cell::new(0, 0)));
    /// assert!(!g.is_passable(Cell::new(1, 0)) && !g.is_passable(Cell::new(9, 9)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn is_passable(&self, cell: Cell) -> bool {
        self.contains(cell) && self.passable[self.index(cell)]
    }

    /// Opens (`false`) or blocks (`true`) a cell.
    ///
    /// # Panics
    /// If `cell` is outside the grid.
    ///
    /// ```
    /// use signposts::grid::{Cell, Grid};
    /// let mut g = Grid::new(2, 2);
    /// g.set_blocked(Cell::new(1, 1), true);
    /// assert_eq!(g.passable_len(), 3);
    /// ```
    #[track_caller]
    pub fn set_blocked(&mut self, cell: Cell, blocked: bool) {
        assert!(self.contains(cell), "cell {cell} is outside the {}×{} grid", self.width, self.height);
        let i = self.index(cell);
        self.passable[i] = !blocked;
    }

    /// Number of open cells.
    ///
    /// ```
    /// assert_eq!(signposts::grid::Grid::from_ascii("#..")?.passable_len(), 2);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn passable_len(&self) -> usize {
        self.passable.iter().filter(|&&p| p).count()
    }

    /// The cell one step from `cell` in `direction` if that move is allowed: both cells open
    /// and, for a diagonal, both cells beside it open.
    ///
    /// ```
    /// use signposts::grid::{Cell, Direction, Grid};
    /// let g = Grid::from_ascii(".#\n..")?;
    /// assert_eq!(g.step(Cell::new(0, 1), Direction::NorthEast), None); // corner cut
    /// assert_eq!(g.step(Cell::new(0, 1), Direction::East), Some(Cell::new(1, 1)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn step(&self, cell: Cell, direction: Direction) -> Option<Cell> {
        let to = cell.step(direction)?;
        if !self.is_passable(cell) || !self.is_passable(to) {
            return None;
        }
        if direction.is_diagonal() {
            let (dx, dy) = direction.delta();
            let side_x = cell.step(Direction::from_delta(dx, 0)?)?;
            let side_y = cell.step(Direction::from_delta(0, dy)?)?;
            if !self.is_passable(side_x) || !self.is_passable(side_y) {
                return None;
            }
        }
        Some(to)
    }

    /// Draws the grid with some cells marked: `#` blocked, `.` open, and each marked cell with
    /// its character (later marks win).
    ///
    /// ```
    /// use signposts::grid::{Cell, Grid};
    /// let g = Grid::new(3, 1);
    /// assert_eq!(g.draw(&[(Cell::new(0, 0), 'S'), (Cell::new(2, 0), 'G')]), "S.G\n");
    /// ```
    #[must_use]
    pub fn draw(&self, marks: &[(Cell, char)]) -> String {
        let mut rows: Vec<Vec<char>> = (0..self.height)
            .map(|y| {
                (0..self.width).map(|x| if self.is_passable(Cell { x, y }) { '.' } else { '#' }).collect()
            })
            .collect();
        for &(cell, mark) in marks {
            if self.contains(cell) {
                rows[cell.y as usize][cell.x as usize] = mark;
            }
        }
        rows.into_iter().map(|r| r.into_iter().collect::<String>() + "\n").collect()
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.draw(&[]))
    }
}

/// The cells of a `width × height` grid, or `None` past [`MAX_NODES`](crate::MAX_NODES) (the
/// product is taken in `u64`, so it cannot wrap on 32-bit targets such as wasm32).
pub(crate) fn cells_of(width: u32, height: u32) -> Option<usize> {
    usize::try_from(u64::from(width) * u64::from(height)).ok().filter(|&cells| cells <= crate::MAX_NODES)
}

/// The cells of a `width × height` grid, or [`Error::TooManyNodes`] naming the count past
/// [`MAX_NODES`](crate::MAX_NODES).
pub(crate) fn checked_cells(width: u32, height: u32) -> Result<usize, Error> {
    cells_of(width, height).ok_or(Error::TooManyNodes {
        nodes: usize::try_from(u64::from(width) * u64::from(height)).unwrap_or(usize::MAX),
        max: crate::MAX_NODES,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_sizes_past_max_nodes_are_errors_not_aborts() {
        // `from_fn` asserted on the count, then reserved the cells with `Vec::with_capacity`.
        let err = Grid::try_from_fn(u32::MAX, u32::MAX, |_| true).unwrap_err();
        assert_eq!(err, Error::TooManyNodes { nodes: 18_446_744_065_119_617_025, max: crate::MAX_NODES });
        let err = Grid::try_new(65_536, 65_536).unwrap_err();
        assert_eq!(err, Error::TooManyNodes { nodes: 1 << 32, max: crate::MAX_NODES });
        assert_eq!(Grid::try_new(3, 2).map(|g| g.passable_len()), Ok(6));
        let panic = std::panic::catch_unwind(|| Grid::new(65_536, 65_536)).unwrap_err();
        let message = panic.downcast_ref::<String>().expect("a formatted message");
        assert!(message.contains("4294967296 nodes is too many"), "{message}");
    }
}
