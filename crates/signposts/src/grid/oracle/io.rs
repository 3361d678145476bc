//! Saving, loading and opening a [`GridOracle`] in the [`format`](crate::format).

use super::{
    Check, CompressedGraph, Error, Graph, GridOracle, KIND_GRID, KIND_GRID_COMPRESSED, NO_NODE, Source,
    Table, shard,
};

impl GridOracle {
    /// Writes the grid, its connectivity and the table (see the [`io`](crate::format) module).
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::from_ascii("..#\n...")?, Connectivity::Eight)?;
    /// let mut bytes = Vec::new();
    /// oracle.save(&mut bytes)?;
    /// let loaded = GridOracle::load(bytes.as_slice())?;
    /// assert_eq!(loaded.distance(Cell::new(0, 0), Cell::new(2, 1)), oracle.distance(Cell::new(0, 0), Cell::new(2, 1)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn save(&self, sink: impl std::io::Write) -> Result<(), Error> {
        let mut w = crate::format::Writer::new(sink);
        w.header(if self.is_compressed() { KIND_GRID_COMPRESSED } else { KIND_GRID })?;
        shard::write_grid(&mut w, &self.grid, self.connectivity)?;
        // Cells with a node: the open ones, and those blocked after the build.
        let has_node: Vec<bool> = self.node.iter().map(|&n| n != NO_NODE).collect();
        w.u64s(&shard::bits(&has_node))?;
        match &self.table {
            Table::Dense(graph) => graph.write_body(&mut w)?,
            Table::Compressed(graph) => graph.write_body(&mut w)?,
        }
        w.finish()
    }

    /// Reads an oracle written by [`GridOracle::save`], checking that the table belongs to the
    /// stored grid. The table is checked as [`Graph::load`](crate::Graph::load) or
    /// [`CompressedGraph::load`] check theirs, so an edited file is an error or an oracle
    /// whose queries and [`GridOracle::set_blocked`] cannot panic or loop.
    ///
    /// # Errors
    /// As [`Graph::load`](crate::Graph::load).
    ///
    /// ```
    /// assert!(signposts::grid::GridOracle::load(&b"SIGNPOST"[..]).is_err());
    /// ```
    pub fn load(source: impl std::io::Read) -> Result<GridOracle, Error> {
        let (mut r, kind) = crate::format::Reader::open_any(source, &[KIND_GRID, KIND_GRID_COMPRESSED])?;
        let oracle = GridOracle::read_body(&mut r, kind, Check::Full)?;
        r.finish()?;
        oracle.check_grid()?;
        Ok(oracle)
    }

    /// Reads the grid, then the table ([`Graph`] or [`CompressedGraph`] as `kind` says),
    /// checked as `check` says.
    fn read_body(r: &mut impl Source, kind: u32, check: Check) -> Result<GridOracle, Error> {
        use crate::format::corrupt;
        let (grid, connectivity) = shard::read_grid(r)?;
        let has_node = shard::unpack(r, grid.passable.len())?;
        if grid.passable.iter().zip(&has_node).any(|(&p, &n)| p && !n) {
            return Err(corrupt("an open cell has no node"));
        }
        let table = if kind == KIND_GRID_COMPRESSED {
            Table::Compressed(CompressedGraph::read_body(r, check)?)
        } else {
            Table::Dense(Graph::read_body(r, check)?)
        };
        let (node, cell) = GridOracle::nodes_of(&grid, &has_node)?;
        let nodes = match &table {
            Table::Dense(graph) => graph.nodes_len(),
            Table::Compressed(graph) => graph.nodes_len(),
        };
        if cell.len() != nodes {
            return Err(corrupt("the table does not belong to the stored grid"));
        }
        Ok(GridOracle { grid, connectivity, table, node, cell })
    }

    /// Checks that the table is the stored grid's graph, by fingerprint.
    fn check_grid(&self) -> Result<(), Error> {
        let builder = GridOracle::builder_of(&self.grid, self.connectivity, &self.node, &self.cell)?;
        // A compressed table's fingerprint counts unit costs, as the builder of a 4-connected
        // grid has them.
        let fingerprint = match &self.table {
            Table::Dense(graph) => graph.fingerprint(),
            Table::Compressed(graph) => graph.fingerprint(),
        };
        if builder.fingerprint() != fingerprint {
            return Err(crate::format::corrupt("the table does not belong to the stored grid"));
        }
        Ok(())
    }

    /// Opens a saved oracle in place, as [`Graph::from_bytes`] and
    /// [`CompressedGraph::from_bytes`] open theirs: the table is read where `bytes` holds it.
    /// Opening reads the grid (a bit per cell) and builds the maps between cells and nodes,
    /// O(cells); with [`Check::Sizes`] nothing of the table but its header.
    /// [`GridOracle::verify`] checks the rest on demand.
    ///
    /// # Errors
    /// As [`GridOracle::load`]; [`Error::Truncated`] when the file is shorter than its
    /// header's counts say.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// use signposts::format::Check;
    /// let oracle = GridOracle::build(&Grid::from_ascii("..#\n...")?, Connectivity::Eight)?;
    /// let mut bytes = Vec::new();
    /// oracle.save(&mut bytes)?;
    /// let opened = GridOracle::from_bytes(bytes, Check::Sizes)?;
    /// assert_eq!(opened.next_step(Cell::new(0, 0), Cell::new(2, 1)), oracle.next_step(Cell::new(0, 0), Cell::new(2, 1)));
    /// opened.verify()?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn from_bytes(
        bytes: impl AsRef<[u8]> + Send + Sync + 'static,
        check: Check,
    ) -> Result<GridOracle, Error> {
        GridOracle::open_in_place(crate::buf::share(bytes), check)
    }

    fn open_in_place(bytes: crate::buf::Bytes, check: Check) -> Result<GridOracle, Error> {
        let read = |r: &mut crate::buf::Sections, kind| GridOracle::read_body(r, kind, Check::Sizes);
        crate::format::open_in_place(
            bytes,
            &[KIND_GRID, KIND_GRID_COMPRESSED],
            check,
            read,
            GridOracle::verify,
        )
    }

    /// Opens a saved oracle memory-mapped: [`GridOracle::from_bytes`] over the file's pages
    /// (see [`CompressedGraph::map_file`]).
    ///
    /// # Safety
    /// As [`Graph::map_file`]: the file must not be modified or truncated while the oracle or
    /// any clone of it lives.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or mapped; as [`GridOracle::from_bytes`].
    ///
    /// ```no_run
    /// use signposts::{grid::GridOracle, format::Check};
    /// // SAFETY: the game's data files are not written while it runs.
    /// let oracle = unsafe { GridOracle::map_file("arena.signposts", Check::Sizes) }?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[cfg(feature = "mmap")]
    pub unsafe fn map_file(path: impl AsRef<std::path::Path>, check: Check) -> Result<GridOracle, Error> {
        // SAFETY: passed on to the caller.
        GridOracle::open_in_place(unsafe { crate::format::map(path.as_ref()) }?, check)
    }

    /// Checks an oracle opened in place as [`GridOracle::load`] checks a file: the table as
    /// [`Graph::verify`] or [`CompressedGraph::verify`] check theirs, and that it belongs to
    /// the stored grid.
    ///
    /// # Complexity
    /// O(file).
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the checksum or an invariant fails.
    pub fn verify(&self) -> Result<(), Error> {
        match &self.table {
            Table::Dense(graph) => graph.verify()?,
            Table::Compressed(graph) => graph.verify()?,
        }
        self.check_grid()
    }

    /// [`GridOracle::save`] to a file, atomically: a reader sees the old file or the whole
    /// new one ([`write_atomically`](crate::format::write_atomically)).
    ///
    /// # Errors
    /// As [`GridOracle::save`].
    ///
    /// ```no_run
    /// # let oracle = signposts::grid::GridOracle::build(&signposts::grid::Grid::new(2, 2), signposts::grid::Connectivity::Four)?;
    /// oracle.save_to("arena.signposts")?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        crate::format::write_atomically(path, |file| self.save(file))
    }

    /// [`GridOracle::load`] from a file.
    ///
    /// # Errors
    /// As [`GridOracle::load`].
    ///
    /// ```no_run
    /// let oracle = signposts::grid::GridOracle::load_from("arena.signposts")?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn load_from(path: impl AsRef<std::path::Path>) -> Result<GridOracle, Error> {
        let file = std::fs::File::open(path)?;
        GridOracle::load(std::io::BufReader::new(file))
    }
}
