//! Grid part files merged as they stream: [`GridShardFile`] opens a part and keeps where its
//! runs lie, [`BuildOptions::merge_grid_shards_to`] joins the parts into the saved oracle a
//! batch of rows at a time.

use std::path::Path;

use super::shard::{bits, read_grid, write_grid};
use super::{Connectivity, Grid, GridOracle, GridShard, NO_NODE};
use crate::compressed::{BATCH_BYTES, Output, PartFile};
use crate::format::{KIND_GRID_COMPRESSED, KIND_GRID_SHARD, Reader, corrupt};
use crate::{BuildOptions, Error};

/// A part of a grid's sharded build (a [`GridShard`] file), opened and checked but not held:
/// what [`BuildOptions::merge_grid_shards_to`] merges without holding every part in memory.
///
/// [`GridShardFile::open`] reads the file whole and checks it as [`GridShard::load_from`]
/// does, then keeps only the shard's index, its grid's fingerprint and where its runs lie (a
/// few dozen bytes); the merge reads the runs from the file again. A file changed after it
/// was opened is refused where the merge finds it out of place.
#[derive(Debug, Clone)]
pub struct GridShardFile {
    part: PartFile,
    /// [`grid_key`] of the part's grid and connectivity.
    grid: u64,
}

impl GridShardFile {
    /// Opens the part at `path`, checking it as [`GridShard::load_from`] does.
    ///
    /// # Complexity
    /// Reads the file once, holding it in memory meanwhile (one part, not every part).
    ///
    /// # Errors
    /// As [`GridShard::load_from`].
    pub fn open(path: impl AsRef<Path>) -> Result<GridShardFile, Error> {
        let path = path.as_ref();
        let file = std::io::BufReader::new(std::fs::File::open(path)?);
        let (shard, body) = GridShard::load_placed(file)?;
        let part = PartFile::new(path, shard.shard(), body.start, body.end)?;
        Ok(GridShardFile { part, grid: grid_key(shard.grid(), shard.connectivity()) })
    }

    /// Which shard this is, of how many.
    #[must_use]
    pub fn index(&self) -> (u32, u32) {
        self.part.index()
    }

    /// The graph's fingerprint ([`GraphBuilder::fingerprint`](crate::GraphBuilder::fingerprint)):
    /// equal for every part of one build.
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        self.part.fingerprint()
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.part.path()
    }

    /// Exact runs the part holds.
    #[must_use]
    pub fn runs_len(&self) -> usize {
        self.part.runs_len()
    }
}

/// What [`BuildOptions::merge_grid_shards_to`] saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct MergedTable {
    /// Nodes of the table (the grid's open cells).
    pub nodes: usize,
    /// Bytes the oracle takes loaded ([`GridOracle::memory_bytes`]).
    pub memory_bytes: usize,
    /// Bytes of the saved file.
    pub file_bytes: u64,
}

/// A fingerprint of a grid and its connectivity: the checksum of their bytes in a part file.
fn grid_key(grid: &Grid, connectivity: Connectivity) -> u64 {
    let mut bytes = Vec::new();
    let mut w = crate::format::Writer::new(&mut bytes);
    // Writing to memory cannot fail.
    let _ = write_grid(&mut w, grid, connectivity).and_then(|()| w.finish());
    crate::format::checksum(&bytes)
}

impl BuildOptions<'_> {
    /// Joins the parts of one grid's sharded build, in any order, into its compressed oracle
    /// saved at `path`, atomically: byte for byte the file [`GridOracle::merge_shards`]'s
    /// oracle saves (and so one build's), holding the grid, its graph, the table's row index
    /// and one batch of rows (about 32 MB of the parts' runs), not every part. Progress is
    /// reported a batch at a time; a cancelled merge leaves nothing.
    ///
    /// ```
    /// use signposts::BuildOptions;
    /// use signposts::grid::{Connectivity, Grid, GridOracle, GridShardFile};
    /// let dir = std::env::temp_dir().join(format!("signposts-doc-merge-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let grid = Grid::from_fn(20, 12, |c| (c.x * 3 + c.y * 5) % 7 != 0);
    /// let options = BuildOptions::new();
    /// let mut parts = Vec::new();
    /// for i in 0..3 {
    ///     let path = dir.join(format!("part-{i}.sp"));
    ///     options.build_grid_shard(&grid, Connectivity::Eight, i, 3)?.save_to(&path)?;
    ///     parts.push(GridShardFile::open(&path)?);
    /// }
    /// let merged = options.merge_grid_shards_to(&parts, dir.join("merged.sp"))?;
    /// let mut whole = Vec::new();
    /// GridOracle::build_compressed(&grid, Connectivity::Eight)?.save(&mut whole)?;
    /// assert_eq!(std::fs::read(dir.join("merged.sp")).unwrap(), whole); // byte for byte
    /// assert_eq!(merged.file_bytes, whole.len() as u64);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), signposts::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`GridOracle::merge_shards`]; [`Error::Corrupt`] for a part changed since it was
    /// opened or whose runs make a row a loaded table would refuse; [`Error::Io`];
    /// [`Error::Cancelled`]; [`Error::OverMemoryLimit`] for an oracle over the memory limit.
    /// On any error the file at `path` is left as it was, and no temporary file is left.
    pub fn merge_grid_shards_to(
        &self,
        parts: &[GridShardFile],
        path: impl AsRef<Path>,
    ) -> Result<MergedTable, Error> {
        self.merge_grid_shards_batched(parts, path.as_ref(), BATCH_BYTES)
    }

    /// [`BuildOptions::merge_grid_shards_to`] reading about `batch_bytes` of the parts a batch.
    pub(crate) fn merge_grid_shards_batched(
        &self,
        parts: &[GridShardFile],
        path: &Path,
        batch_bytes: u64,
    ) -> Result<MergedTable, Error> {
        let Some(first) = parts.first() else {
            return Err(Error::ShardMismatch { message: "no shards to merge".into() });
        };
        if let Some(other) = parts.iter().find(|p| p.grid != first.grid) {
            let (i, k) = other.index();
            return Err(Error::ShardMismatch {
                message: format!("shard {i} of {k} is of another grid or connectivity than the first"),
            });
        }
        // The grid, read again from the first part.
        let mut r =
            Reader::open(std::io::BufReader::new(std::fs::File::open(first.path())?), KIND_GRID_SHARD)?;
        let (grid, connectivity) = read_grid(&mut r)?;
        drop(r);
        if grid_key(&grid, connectivity) != first.grid {
            return Err(corrupt(&format!(
                "{} changed after it was opened for the merge",
                first.path().display()
            )));
        }
        let (builder, node, cell) = GridOracle::graph_of(&grid, connectivity, &grid.passable)?;
        let prefix = |w: &mut Output<'_>| {
            w.header(KIND_GRID_COMPRESSED)?;
            write_grid(w, &grid, connectivity)?;
            let has_node: Vec<bool> = node.iter().map(|&n| n != NO_NODE).collect();
            w.u64s(&bits(&has_node))
        };
        let beside = node.len() * 4 + cell.len() * 8 + grid.passable.len();
        let files: Vec<&PartFile> = parts.iter().map(|p| &p.part).collect();
        let streamed = builder.merge_parts_to(&files, path, &prefix, (self, batch_bytes, beside))?;
        Ok(MergedTable {
            nodes: streamed.nodes,
            memory_bytes: streamed.memory_bytes + beside,
            file_bytes: std::fs::metadata(path)?.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::GridShardFile;
    use crate::BuildOptions;
    use crate::grid::{Connectivity, Grid, GridOracle};

    /// Batches of one row, of a few rows and of every row write the same bytes: one build's.
    #[test]
    fn any_batch_size_writes_one_builds_bytes() {
        let dir = std::env::temp_dir().join(format!("signposts-batches-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let grid = Grid::from_fn(24, 15, |c| (c.x * 5 + c.y * 11) % 7 != 0 || c.y == 3);
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let mut whole = Vec::new();
            GridOracle::build_compressed(&grid, connectivity).unwrap().save(&mut whole).unwrap();
            let parts: Vec<GridShardFile> = (0..4)
                .map(|i| {
                    let path = dir.join(format!("part-{i}.sp"));
                    BuildOptions::new()
                        .build_grid_shard(&grid, connectivity, i, 4)
                        .unwrap()
                        .save_to(&path)
                        .unwrap();
                    GridShardFile::open(&path).unwrap()
                })
                .collect();
            for batch_bytes in [1, 500, 5_000, u64::MAX >> 32] {
                let target = dir.join("merged.sp");
                BuildOptions::new().merge_grid_shards_batched(&parts, &target, batch_bytes).unwrap();
                assert!(
                    std::fs::read(&target).unwrap() == whole,
                    "{connectivity:?}, batches of {batch_bytes} bytes"
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
