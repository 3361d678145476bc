//! Compact tile storage and per-unit cost layers.

use crate::Error;
use crate::grid::{Cell, Grid};

/// Tile tags per grid: a tag is 4 bits.
pub const TAGS: usize = 16;

/// Cells per storage word.
const PER_WORD: usize = 64 / 4;

/// A `width × height` map of tile tags (`0..16`), four bits per cell: a 512×512 map takes
/// 128 KiB. What a tag means is up to the game; a [`Layer`] gives each tag a movement cost per
/// unit kind.
///
/// ```
/// use signposts::grid::Cell;
/// use signposts::search::TileGrid;
/// let mut tiles = TileGrid::new(4, 3);
/// tiles.set(Cell::new(1, 2), 5)?;
/// assert_eq!(tiles.tag(Cell::new(1, 2)), Some(5));
/// assert_eq!(tiles.tag(Cell::new(4, 0)), None);
/// assert!(tiles.set(Cell::new(0, 0), 16).is_err());
/// # Ok::<(), signposts::Error>(())
/// ```
pub struct TileGrid {
    width: u32,
    height: u32,
    words: Vec<u64>,
    /// Unique per grid (clones get their own) and bumped by every edit: what a searcher's
    /// cached passability bitmaps were made from.
    stamp: (u64, u64),
}

/// Identities of tile grids.
static GRIDS: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);

fn new_identity() -> u64 {
    GRIDS.fetch_add(1, core::sync::atomic::Ordering::Relaxed)
}

impl Clone for TileGrid {
    fn clone(&self) -> TileGrid {
        TileGrid {
            width: self.width,
            height: self.height,
            words: self.words.clone(),
            stamp: (new_identity(), 0),
        }
    }
}

impl PartialEq for TileGrid {
    /// Same size and tags.
    fn eq(&self, other: &TileGrid) -> bool {
        (self.width, self.height, &self.words) == (other.width, other.height, &other.words)
    }
}

impl Eq for TileGrid {}

impl core::hash::Hash for TileGrid {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        (self.width, self.height, &self.words).hash(state);
    }
}

impl TileGrid {
    /// A grid of tag-0 tiles.
    ///
    /// # Panics
    /// If the grid's `width × height / 2` bytes cannot be allocated; [`TileGrid::try_new`]
    /// returns the error instead.
    ///
    /// ```
    /// let tiles = signposts::search::TileGrid::new(3, 2);
    /// assert_eq!((tiles.width(), tiles.height()), (3, 2));
    /// ```
    #[must_use]
    #[track_caller]
    pub fn new(width: u32, height: u32) -> TileGrid {
        TileGrid::try_new(width, height).unwrap_or_else(|e| crate::error::panic_with(&e))
    }

    /// A grid of tag-0 tiles, or an error naming the bytes when they cannot be allocated.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] with the grid's bytes (`width × height / 2`, rounded up to
    /// 8) when the size overflows memory addressing or the allocator refuses it.
    ///
    /// ```
    /// use signposts::search::TileGrid;
    /// assert!(TileGrid::try_new(64, 64).is_ok());
    /// assert!(matches!(
    ///     TileGrid::try_new(u32::MAX, u32::MAX),
    ///     Err(signposts::Error::AllocationFailed { .. })
    /// ));
    /// ```
    pub fn try_new(width: u32, height: u32) -> Result<TileGrid, Error> {
        let cells = u64::from(width) * u64::from(height);
        let words = cells.div_ceil(PER_WORD as u64);
        let too_big = || Error::AllocationFailed { bytes: words.saturating_mul(8) };
        let len = usize::try_from(words).map_err(|_| too_big())?;
        let words = crate::memory::try_filled_with(len, || 0)?;
        Ok(TileGrid { width, height, words, stamp: (new_identity(), 0) })
    }

    /// Tags from a passability grid: open cells get tag 1, blocked cells tag 0 (see
    /// [`Layer::WALKABLE`]).
    ///
    /// ```
    /// use signposts::grid::{Cell, Grid};
    /// use signposts::search::TileGrid;
    /// let tiles = TileGrid::from_grid(&Grid::from_ascii(".#")?);
    /// assert_eq!((tiles.tag(Cell::new(0, 0)), tiles.tag(Cell::new(1, 0))), (Some(1), Some(0)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn from_grid(grid: &Grid) -> TileGrid {
        let mut tiles = TileGrid::new(grid.width(), grid.height());
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let cell = Cell::new(x, y);
                if grid.is_passable(cell) {
                    tiles.put(tiles.index(cell), 1);
                }
            }
        }
        tiles
    }

    /// Tags from a function of the cell.
    ///
    /// # Panics
    /// If a tag is 16 or more, or the grid cannot be allocated; see [`TileGrid::try_from_fn`].
    ///
    /// ```
    /// use signposts::grid::Cell;
    /// let tiles = signposts::search::TileGrid::from_fn(3, 1, |c| c.x as u8);
    /// assert_eq!(tiles.tag(Cell::new(2, 0)), Some(2));
    /// ```
    #[must_use]
    #[track_caller]
    pub fn from_fn(width: u32, height: u32, tag: impl FnMut(Cell) -> u8) -> TileGrid {
        TileGrid::try_from_fn(width, height, tag).unwrap_or_else(|e| crate::error::panic_with(&e))
    }

    /// [`TileGrid::from_fn`] with an error instead of a panic.
    ///
    /// # Errors
    /// [`Error::Parse`] naming the first cell whose tag is 16 or more;
    /// [`Error::AllocationFailed`] as [`TileGrid::try_new`].
    ///
    /// ```
    /// assert!(signposts::search::TileGrid::try_from_fn(2, 2, |_| 16).is_err());
    /// ```
    pub fn try_from_fn(width: u32, height: u32, mut tag: impl FnMut(Cell) -> u8) -> Result<TileGrid, Error> {
        let mut tiles = TileGrid::try_new(width, height)?;
        for y in 0..height {
            for x in 0..width {
                tiles.set(Cell::new(x, y), tag(Cell::new(x, y)))?;
            }
        }
        Ok(tiles)
    }

    /// Width in cells.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `cell` lies inside the grid.
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        cell.x < self.width && cell.y < self.height
    }

    /// The tag of `cell`, or `None` outside the grid.
    #[must_use]
    pub fn tag(&self, cell: Cell) -> Option<u8> {
        self.contains(cell).then(|| self.tag_at(self.index(cell)))
    }

    /// Sets the tag of `cell`.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`] outside the grid, [`Error::Parse`] for a tag of 16 or more.
    pub fn set(&mut self, cell: Cell, tag: u8) -> Result<(), Error> {
        if !self.contains(cell) {
            return Err(Error::CellOutOfBounds {
                x: cell.x,
                y: cell.y,
                width: self.width,
                height: self.height,
            });
        }
        if usize::from(tag) >= TAGS {
            return Err(Error::Parse {
                line: 0,
                column: 0,
                message: format!("tile tag {tag} at {cell} is not below {TAGS}"),
            });
        }
        self.put(self.index(cell), tag);
        Ok(())
    }

    /// Bytes of tag storage.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.words.len() * size_of::<u64>()
    }

    /// Row-major index of a cell inside the grid.
    #[inline]
    pub(crate) fn index(&self, cell: Cell) -> usize {
        cell.y as usize * self.width as usize + cell.x as usize
    }

    /// The tag at a row-major index.
    #[inline]
    pub(crate) fn tag_at(&self, index: usize) -> u8 {
        (self.words[index / PER_WORD] >> (index % PER_WORD * 4) & 0xF) as u8
    }

    /// This grid's identity and edit count.
    pub(crate) fn stamp(&self) -> (u64, u64) {
        self.stamp
    }

    fn put(&mut self, index: usize, tag: u8) {
        self.stamp.1 += 1;
        let shift = index % PER_WORD * 4;
        let word = &mut self.words[index / PER_WORD];
        *word = *word & !(0xF << shift) | u64::from(tag) << shift;
    }
}

impl core::fmt::Debug for TileGrid {
    /// Draws the tags as hexadecimal digits, a row per line.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for y in 0..self.height {
            for x in 0..self.width {
                write!(f, "{:x}", self.tag_at(self.index(Cell::new(x, y))))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Movement costs of one unit kind: the cost of entering a tile of each tag, `0` for
/// impassable. A `Layer` is 16 bytes and `Copy`: swap it per query at no cost.
///
/// ```
/// use signposts::search::Layer;
/// // Tag 0 wall, 1 grass, 2 swamp (slow for walkers), 3 water (flyers only).
/// let walker = Layer::new([0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// let flyer = Layer::new([0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// assert_eq!((walker.cost(2), flyer.cost(3)), (3, 1));
/// assert!(!walker.is_passable(3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layer {
    costs: [u8; TAGS],
}

impl Layer {
    /// Tag 0 impassable, every other tag cost 1: the layer for [`TileGrid::from_grid`].
    pub const WALKABLE: Layer = Layer { costs: [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] };

    /// A layer from the cost of each tag (`0` = impassable).
    #[must_use]
    pub const fn new(costs: [u8; TAGS]) -> Layer {
        Layer { costs }
    }

    /// The cost of entering a tile of `tag` (`0` = impassable; tags of 16 and more are
    /// impassable).
    #[must_use]
    pub const fn cost(self, tag: u8) -> u8 {
        if (tag as usize) < TAGS { self.costs[tag as usize] } else { 0 }
    }

    /// Whether tiles of `tag` can be entered.
    #[must_use]
    pub const fn is_passable(self, tag: u8) -> bool {
        self.cost(tag) != 0
    }

    /// This layer with the cost of `tag` changed.
    ///
    /// # Panics
    /// If `tag` is 16 or more.
    #[must_use]
    pub const fn with(mut self, tag: u8, cost: u8) -> Layer {
        assert!((tag as usize) < TAGS, "tile tags are below 16");
        self.costs[tag as usize] = cost;
        self
    }

    /// The smallest non-zero cost (the heuristic's scale), or `None` if nothing is passable.
    #[must_use]
    pub fn min_cost(self) -> Option<u8> {
        self.costs.iter().copied().filter(|&c| c != 0).min()
    }
}
