//! Grid oracles built in shards: a part file holds the grid and one shard, so that joining
//! the parts needs nothing else.

use super::{Connectivity, Grid, GridOracle, Table};
use crate::format::{KIND_GRID_SHARD, Reader, Source, Writer, corrupt};
use crate::{CompressedGraph, CompressedShard, Error};

/// One shard of a grid's compressed table, with the grid it belongs to: what
/// `signposts build --shard i/k` writes and `signposts merge` joins. See
/// [`BuildOptions::build_grid_shard`](crate::BuildOptions::build_grid_shard).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridShard {
    grid: Grid,
    connectivity: Connectivity,
    shard: CompressedShard,
}

impl GridShard {
    /// The shard of the table.
    #[must_use]
    pub fn shard(&self) -> &CompressedShard {
        &self.shard
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// How the grid is connected.
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.connectivity
    }

    /// Writes the part: the grid, then the shard (see the [`io`](crate::format) module).
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    pub fn save(&self, sink: impl std::io::Write) -> Result<(), Error> {
        let mut w = Writer::new(sink);
        w.header(KIND_GRID_SHARD)?;
        write_grid(&mut w, &self.grid, self.connectivity)?;
        self.shard.write_body(&mut w)?;
        w.finish()
    }

    /// [`GridShard::save`] to a file, atomically.
    ///
    /// # Errors
    /// As [`GridShard::save`].
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        crate::format::write_atomically(path, |file| self.save(file))
    }

    /// Reads a part written by [`GridShard::save`], checking it as
    /// [`CompressedShard::load`] checks a shard, and that the shard is of the stored grid.
    ///
    /// # Errors
    /// As [`GridOracle::load`].
    pub fn load(source: impl std::io::Read) -> Result<GridShard, Error> {
        Ok(GridShard::load_placed(source)?.0)
    }

    /// [`GridShard::load`], and where the shard's body lies in the source's bytes.
    pub(super) fn load_placed(
        source: impl std::io::Read,
    ) -> Result<(GridShard, core::ops::Range<u64>), Error> {
        let mut r = Reader::open(source, KIND_GRID_SHARD)?;
        let (grid, connectivity) = read_grid(&mut r)?;
        let body = r.position();
        let shard = CompressedShard::read_body(&mut r)?;
        let end = r.position();
        r.finish()?;
        let (builder, _, _) = GridOracle::graph_of(&grid, connectivity, &grid.passable)?;
        if builder.fingerprint() != shard.fingerprint() {
            return Err(corrupt("the shard does not belong to the stored grid"));
        }
        Ok((GridShard { grid, connectivity, shard }, body..end))
    }

    /// [`GridShard::load`] from a file.
    ///
    /// # Errors
    /// As [`GridShard::load`].
    pub fn load_from(path: impl AsRef<std::path::Path>) -> Result<GridShard, Error> {
        let file = std::fs::File::open(path)?;
        GridShard::load(std::io::BufReader::new(file))
    }
}

/// Width, height, connectivity and the open cells, a bit each: how every saved grid file
/// starts (oracles and parts).
pub(super) fn write_grid<W: std::io::Write>(
    w: &mut Writer<W>,
    grid: &Grid,
    connectivity: Connectivity,
) -> Result<(), Error> {
    w.u32(grid.width())?;
    w.u32(grid.height())?;
    w.u32(match connectivity {
        Connectivity::Four => 4,
        Connectivity::Eight => 8,
        Connectivity::EightUnit => 9,
    })?;
    w.u64s(&bits(&grid.passable))
}

/// Flags packed a bit each, 64 a word.
pub(super) fn bits(flags: &[bool]) -> Vec<u64> {
    flags.chunks(64).map(|c| c.iter().enumerate().fold(0u64, |w, (i, &p)| w | u64::from(p) << i)).collect()
}

/// `cells` flags packed by [`bits`].
pub(super) fn unpack(r: &mut impl Source, cells: usize) -> Result<Vec<bool>, Error> {
    let words = r.array::<u64>(cells.div_ceil(64) as u64)?;
    Ok((0..cells).map(|i| words[i / 64] >> (i % 64) & 1 == 1).collect())
}

/// What [`write_grid`] wrote.
pub(super) fn read_grid(r: &mut impl Source) -> Result<(Grid, Connectivity), Error> {
    let (width, height) = (r.u32()?, r.u32()?);
    let connectivity = match r.u32()? {
        4 => Connectivity::Four,
        8 => Connectivity::Eight,
        9 => Connectivity::EightUnit,
        _ => return Err(corrupt("unknown connectivity")),
    };
    let cells = u64::from(width) * u64::from(height);
    if cells > crate::MAX_NODES as u64 {
        return Err(corrupt("grid too large"));
    }
    let passable = unpack(r, cells as usize)?;
    Ok((Grid::from_slice(width, height, &passable)?, connectivity))
}

impl GridShard {
    /// Shard `index` of `count` of `grid`'s compressed table as `options` say
    /// ([`BuildOptions::build_grid_shard`](crate::BuildOptions::build_grid_shard)), with the
    /// grid, so that [`GridOracle::merge_shards`] needs nothing else.
    ///
    /// ```
    /// use signposts::BuildOptions;
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let grid = Grid::from_fn(20, 12, |c| (c.x * 3 + c.y * 5) % 7 != 0);
    /// let options = BuildOptions::new();
    /// let parts = (0..2).map(|i| options.build_grid_shard(&grid, Connectivity::Eight, i, 2)).collect::<Result<Vec<_>, _>>()?;
    /// let (mut merged, mut whole) = (Vec::new(), Vec::new());
    /// GridOracle::merge_shards(&parts)?.save(&mut merged)?;
    /// GridOracle::build_compressed(&grid, Connectivity::Eight)?.save(&mut whole)?;
    /// assert_eq!(merged, whole); // byte for byte
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub(crate) fn build_by(
        grid: &Grid,
        connectivity: Connectivity,
        index: u32,
        count: u32,
        options: &crate::BuildOptions<'_>,
    ) -> Result<GridShard, Error> {
        CompressedGraph::check_nodes(grid.passable_len())?;
        let (builder, _, _) = GridOracle::graph_of(grid, connectivity, &grid.passable)?;
        let shard = options.build_shard(&builder, index, count)?;
        Ok(GridShard { grid: grid.clone(), connectivity, shard })
    }
}

impl GridOracle {
    /// Joins the parts `0..k` of one grid's sharded build, in any order, into its compressed
    /// oracle: byte for byte what [`GridOracle::build_compressed`] builds. Every part is held
    /// in memory; [`BuildOptions::merge_grid_shards_to`](crate::BuildOptions::merge_grid_shards_to)
    /// merges part files into a saved oracle a batch of rows at a time.
    ///
    /// # Errors
    /// [`Error::ShardMismatch`] for parts of different grids or connectivities, and as
    /// [`GraphBuilder::merge_compressed`](crate::GraphBuilder::merge_compressed); no parts at
    /// all is a mismatch too.
    pub fn merge_shards(parts: &[GridShard]) -> Result<GridOracle, Error> {
        let Some(first) = parts.first() else {
            return Err(Error::ShardMismatch { message: "no shards to merge".into() });
        };
        if let Some(other) =
            parts.iter().find(|p| p.grid != first.grid || p.connectivity != first.connectivity)
        {
            let (i, k) = other.shard.index();
            return Err(Error::ShardMismatch {
                message: format!("shard {i} of {k} is of another grid or connectivity than the first"),
            });
        }
        let (grid, connectivity) = (&first.grid, first.connectivity);
        let (builder, node, cell) = GridOracle::graph_of(grid, connectivity, &grid.passable)?;
        let shards: Vec<&CompressedShard> = parts.iter().map(|p| &p.shard).collect();
        let table = builder.merge_shards(&shards)?;
        Ok(GridOracle { grid: grid.clone(), connectivity, table: Table::Compressed(table), node, cell })
    }
}
