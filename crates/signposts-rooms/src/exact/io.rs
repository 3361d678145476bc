//! Saving and opening [`ExactRooms`]: the mesh and door states, then the index's arrays as
//! they lie in memory, in one checksummed file that can be read in place.
//!
//! Layout (little-endian; every array is its `u64` count, zero bytes up to the next multiple
//! of 8 from the file's start, then its values, so that a mapped file's arrays are read where
//! they lie):
//!
//! ```text
//! magic "SPEXACT\0" | format version u32
//! | tier u32 (0 table, 1 compact table, 2 graph, 3 labels, 4 compact labels)
//! | file length u64 (every byte, the checksum's included) | budget u64
//! | cell grid: corner x f64, y f64, cell size f64, columns u32, rows u32
//! | mesh: vertices f64×2v | region ring starts u32×(r+1) | rings u32
//!         | region across each ring edge u32 (u32::MAX: a wall) | areas u8×r
//! | door states u8×doors (0 open, 2 closed)
//! | checksum u64 over every byte before it but the file's length (checked at every open)
//! | links: x0 y0 x1 y1 cost f64×5l | flags u8×l (1 two-way, 2 open) | walks between their
//!          ends f64×(2l)² (infinite: no walk)
//! | corners (their vertices) u32×c
//! | views: piece starts u32×(c+1) | pieces (right, left, wall ×2: u32 ×4) | piece keys f64
//!          | spike starts u32×(c+1) | spikes | spike keys f64
//! | visibility graph: starts u32×(c+1) | heads u32×e | lengths f64×e
//! | cells: starts u32×(cells+1) | candidates (corner index, bit 31 sees all of the cell, 30
//!          any path from the cell may turn there) u32, or (format 3, below 16,384 corners)
//!          u16 (index in bits 0–13, the marks in 15 and 14)
//! | table (tiers 0 and 1): hops u16×c² | lengths f64 or f32 ×c² | bounds f32×(c·r)
//!                        | (format 3) region candidate starts u32×(r+1) (none: not kept) | candidates u32
//! | labels (tiers 3 and 4): hub corners u32×c | label starts u32×(c+1) | hubs (ranks) u32
//!                          | lengths f64 | next corners u32 | (tier 3) hops u16×c²
//! | checksum u64 over every byte before it
//! ```
//!
//! Opening rebuilds the small parts and checks them whatever the [`Check`]: the first
//! checksum (over the header, the mesh and the door states), the mesh (put together from its
//! regions and their neighbours, every index in range, every shared edge in both rings; with
//! [`Check::Full`] also every region as [`NavMesh::from_regions`] checks it, which must come
//! out as saved), the door states, the links (each end in the walkable area, each cost and
//! walk a length), the topology and corners (which must be those saved), the
//! visibility graph (decoded into memory: every head a corner, every length finite and not
//! negative), and every array's size against the file's length and the counts. That is
//! `O(mesh + edges)`; a damaged file is refused there, not a panic (every single flipped byte
//! is tested). The large arrays (views, cells, table) are read in place from the file's bytes. [`Check::Full`]
//! also verifies the checksum and that every index those arrays hold is in range (a
//! corner, a vertex, a piece, a candidate list), reading every page once; so does
//! [`ExactRooms::verify`], later. With [`Check::Sizes`], until then, a damaged or crafted
//! file may answer wrongly or make a query panic (an index out of range), never undefined
//! behaviour: the values read in place are plain numbers, for which every bit pattern is a
//! value, and every index into an array is bounds-checked. [`ExactRooms::load`],
//! [`ExactRooms::load_from`] read with [`Check::Full`].

use std::io::Read;

use signposts::format::Check;

use super::cells::{CellList, NARROW_CORNERS};
use super::expand::Piece;
use super::labels::Labels;
use super::table::{Graph, Lengths, Table};
use super::topology::Topology;
use super::view::{PLUS_X, Views};
use super::{CellGrid, CornerGeo, ExactRooms, INDEX, Tier};
use crate::buf::{Buf, Bytes, Plain, slice};
use crate::mesh::{NONE, RegionId, Regions};
use crate::{DoorState, Error, NavMesh, Point};

const MAGIC: &[u8; 8] = b"SPEXACT\0";
/// The exact index's format version.
pub const EXACT_FORMAT_VERSION: u32 = 3;
/// Magic, version, tier, length.
const HEADER: usize = 24;

// SAFETY: `repr(C)` and four `u32`s: 16 bytes, no padding, every bit pattern a value.
unsafe impl Plain for Piece {
    fn decode(bytes: &[u8]) -> Piece {
        let at = |i: usize| u32::decode(&bytes[4 * i..4 * i + 4]);
        Piece { right: at(0), left: at(1), wall: [at(2), at(3)] }
    }
    fn encode(&self, out: &mut Vec<u8>) {
        for v in [self.right, self.left, self.wall[0], self.wall[1]] {
            v.encode(out);
        }
    }
}
const _: () = assert!(size_of::<Piece>() == 16 && align_of::<Piece>() == 4);

/// The saved file an index's arrays are read from in place (none for one built or loaded
/// into memory), kept for [`ExactRooms::verify`]'s checksum.
#[derive(Clone, Default)]
pub(crate) struct Origin(Option<Bytes>);

impl core::fmt::Debug for Origin {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.0 {
            Some(bytes) => write!(f, "Origin({} bytes in place)", slice(bytes).len()),
            None => f.write_str("Origin(in memory)"),
        }
    }
}

impl ExactRooms {
    /// Writes the index to `sink`: a header (`SPEXACT\0`, [`EXACT_FORMAT_VERSION`], the
    /// tier, the length), the mesh and door states under their own checksum, then the views,
    /// visibility graph, cell lists and table, each array 8-byte aligned, and a checksum of
    /// it all. Put together in memory first, then written at once.
    ///
    /// # Errors
    /// [`Error::Io`] when `sink` fails.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point};
    /// let exact = ExactRooms::build(&NavMesh::from_grid(&Grid::from_ascii(".@.\n...")?)?)?;
    /// let mut bytes = Vec::new();
    /// exact.save(&mut bytes)?;
    /// assert_eq!(&bytes[..8], b"SPEXACT\0");
    /// let loaded = ExactRooms::load(bytes.as_slice())?;
    /// let (a, b) = (Point::new(0.5, 0.5), Point::new(2.5, 0.5));
    /// assert_eq!(loaded.path(a, b), exact.path(a, b));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(&self, mut sink: impl std::io::Write) -> Result<(), Error> {
        sink.write_all(&self.encode(EXACT_FORMAT_VERSION))?;
        sink.flush()?;
        Ok(())
    }

    /// Writes [`ExactRooms::save`]'s bytes to the file at `path` atomically: into a temporary
    /// file beside it, synced, then renamed over `path` (a reader or a crash sees the old file
    /// or the whole new one).
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written (the temporary file is removed again).
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        signposts::format::write_atomically(path, |file| self.save(file))
    }

    /// Reads an index saved by [`ExactRooms::save`] from `source`, into memory of its own,
    /// every part checked ([`Check::Full`]). The header's length bounds what is read: memory
    /// grows only as the bytes arrive, and an endless source fails at its header or after
    /// the length it declares.
    ///
    /// # Errors
    /// [`Error::Corrupt`] saying what is wrong (another kind of file and what loads it, another
    /// version, truncation, a wrong checksum, an index out of range, bytes after the end);
    /// [`Error::Core`] with [`AllocationFailed`](signposts::Error::AllocationFailed) and the
    /// bytes needed when the file is larger than memory allows; the mesh's own errors when
    /// its regions do not make a mesh; [`Error::Io`] when `source` fails.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, ExactRooms, NavMesh};
    /// let exact = ExactRooms::build(&NavMesh::from_grid(&Grid::from_ascii("..\n.@")?)?)?;
    /// let mut bytes = Vec::new();
    /// exact.save(&mut bytes)?;
    /// bytes[40] ^= 1;
    /// assert!(matches!(ExactRooms::load(bytes.as_slice()), Err(Error::Corrupt { .. })));
    /// assert!(matches!(ExactRooms::load(std::io::repeat(0)), Err(Error::Corrupt { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(source: impl Read) -> Result<ExactRooms, Error> {
        ExactRooms::read(source, None)
    }

    /// Reads the index saved in the file at `path` into memory ([`ExactRooms::load`]); a
    /// header declaring another length than the file's is refused before anything is
    /// allocated.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read; then as [`ExactRooms::load`].
    pub fn load_from(path: impl AsRef<std::path::Path>) -> Result<ExactRooms, Error> {
        let file = std::fs::File::open(path)?;
        let metadata = file.metadata()?;
        let len = metadata.is_file().then_some(metadata.len());
        ExactRooms::read(std::io::BufReader::new(file), len)
    }

    /// Opens the index in `bytes` (a saved file's, owned or `'static`) in place: the views,
    /// cells and table are read where they lie, not copied (when `bytes` is aligned to 8, as
    /// a `Vec<u8>`'s allocation is in practice; otherwise they are decoded). Whatever
    /// `check`, opening checks the header, the mesh and door states (and their checksum), the
    /// corners, the visibility graph and every array's size, in `O(mesh + edges)`;
    /// [`Check::Full`] also the whole file's checksum and every index the large arrays hold
    /// (as [`ExactRooms::verify`]), reading every page once. Until then a damaged or crafted
    /// file may answer wrongly or make a query panic, never undefined behaviour.
    ///
    /// # Errors
    /// As [`ExactRooms::load`] (never [`Error::Io`]).
    ///
    /// ```
    /// use signposts::format::Check;
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point};
    /// let exact = ExactRooms::build(&NavMesh::from_grid(&Grid::from_ascii(".@.\n...")?)?)?;
    /// let mut bytes = Vec::new();
    /// exact.save(&mut bytes)?;
    /// let opened = ExactRooms::from_bytes(bytes, Check::Sizes)?;
    /// opened.verify()?; // the checksum and every index, on demand
    /// let (a, b) = (Point::new(0.5, 0.5), Point::new(2.5, 0.5));
    /// assert_eq!(opened.distance(a, b), exact.distance(a, b));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes(
        bytes: impl AsRef<[u8]> + Send + Sync + 'static,
        check: Check,
    ) -> Result<ExactRooms, Error> {
        ExactRooms::open(crate::buf::share(bytes), check)
    }

    /// Maps the file at `path` into memory and opens it in place, as
    /// [`ExactRooms::from_bytes`]: opening costs `O(mesh + edges)`, and each query the pages
    /// it reads of the views, cells and table.
    ///
    /// # Safety
    /// The file must not be changed or truncated while the index (or a clone of it) lives:
    /// the map would change under it, which no check can rule out.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or mapped; then as
    /// [`ExactRooms::from_bytes`].
    ///
    /// ```
    /// use signposts::format::Check;
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point};
    /// let exact = ExactRooms::build(&NavMesh::from_grid(&Grid::from_ascii(".@.\n...")?)?)?;
    /// let file = std::env::temp_dir().join(format!("signposts-exact-map-{}.exact", std::process::id()));
    /// exact.save_to(&file)?;
    /// // SAFETY: nothing changes the file while it is mapped.
    /// let mapped = unsafe { ExactRooms::map_file(&file, Check::Full)? };
    /// let (a, b) = (Point::new(0.5, 0.5), Point::new(2.5, 0.5));
    /// assert_eq!(mapped.path(a, b), exact.path(a, b));
    /// drop(mapped);
    /// std::fs::remove_file(&file)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub unsafe fn map_file(path: impl AsRef<std::path::Path>, check: Check) -> Result<ExactRooms, Error> {
        let file = std::fs::File::open(path)?;
        // SAFETY: the caller keeps the file unchanged while the map lives.
        let map = unsafe { memmap2::Mmap::map(&file) }?;
        ExactRooms::open(crate::buf::share(map), check)
    }

    /// Checks an index opened in place with [`Check::Sizes`]: the file's checksum and every
    /// index its arrays hold; after it passes, no query panics. Nothing to check (`Ok`) for
    /// an index built or loaded into memory.
    ///
    /// # Errors
    /// [`Error::Corrupt`] saying what is wrong.
    pub fn verify(&self) -> Result<(), Error> {
        if let Some(bytes) = &self.file.0 {
            let all = slice(bytes);
            let body = all.len() - 8;
            if signposts::format::checksum(&all[..body]).to_le_bytes() != all[body..] {
                return Err(corrupt("the checksum does not match (the file is damaged or truncated)"));
            }
            self.check_indices()?;
        }
        Ok(())
    }

    /// Whether the large arrays are read in place from a saved file's bytes. Feature
    /// `test-support` only: not part of the API.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    #[must_use]
    pub fn is_in_place(&self) -> bool {
        self.cell_list.is_shared()
            && self.views.pieces.is_shared()
            && self.table.as_ref().is_none_or(|t| t.hop.is_shared())
            && self.labels.as_ref().is_none_or(|l| l.hubs.is_shared())
    }

    /// The file as format 2 wrote it (every cell entry in 32 bits). Feature `test-support`
    /// only: not part of the API.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    #[must_use]
    pub fn encode_version_2(&self) -> Vec<u8> {
        self.encode(2)
    }

    /// The file's bytes, in format `version` (3, or 2 with every cell entry in 32 bits).
    fn encode(&self, version: u32) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(self.memory_bytes() + 4096));
        w.0.extend_from_slice(MAGIC);
        w.u32(version);
        w.u32(match self.tier {
            Tier::Table => 0,
            Tier::CompactTable => 1,
            Tier::Graph => 2,
            Tier::Labels => 3,
            Tier::CompactLabels => 4,
        });
        w.u64(0); // the length, once known
        w.u64(self.budget);
        let grid = &self.grid;
        w.f64(grid.lo.x);
        w.f64(grid.lo.y);
        w.f64(grid.size);
        w.u32(grid.w);
        w.u32(grid.h);
        let mesh = &self.mesh;
        w.array(&mesh.vertices().iter().flat_map(|p| [p.x, p.y]).collect::<Vec<f64>>());
        let regions = 0..mesh.regions_len() as u32;
        let mut starts = vec![0u32];
        let mut rings = Vec::new();
        for r in regions.clone() {
            rings.extend_from_slice(mesh.region_vertices(RegionId(r)));
            starts.push(rings.len() as u32);
        }
        w.array(&starts);
        w.array(&rings);
        w.array(&regions.clone().flat_map(|r| mesh.across(RegionId(r))).collect::<Vec<u32>>());
        w.array(&regions.map(|r| mesh.area(RegionId(r))).collect::<Vec<u8>>());
        w.array(
            &self.states.iter().map(|s| if *s == DoorState::Closed { 2 } else { 0 }).collect::<Vec<u8>>(),
        );
        // The small parts' own checksum, checked at every open.
        let sum = prefix_checksum(&w.0);
        w.u64(sum);
        let (numbers, flags, walks) = self.links.saved();
        w.array(&numbers);
        w.array(&flags);
        w.array(walks);
        w.array(&self.corners);
        let views = &self.views;
        w.array(&views.start);
        w.array(&views.pieces);
        w.array(&views.keys);
        w.array(&views.spike_start);
        w.array(&views.spikes);
        w.array(&views.spike_keys);
        w.array(&self.graph.start);
        w.array(&self.graph.edges.iter().map(|e| e.0).collect::<Vec<u32>>());
        w.array(&self.graph.edges.iter().map(|e| e.1).collect::<Vec<f64>>());
        w.array(&self.cell_start);
        match &self.cell_list {
            CellList::Narrow(v) if version >= 3 => w.array(v),
            CellList::Wide(v) => w.array(v),
            narrow @ CellList::Narrow(_) => w.array(&narrow.entries(0..narrow.len()).collect::<Vec<u32>>()),
        }
        if let Some(table) = &self.table {
            w.array(&table.hop);
            match &table.lengths {
                Lengths::Wide(l) => w.array(l),
                Lengths::Narrow(l) => w.array(l),
            }
            w.array(&table.bounds);
            if version >= 3 {
                w.array(&table.cand_start);
                w.array(&table.cand);
            }
        }
        if let Some(labels) = &self.labels {
            w.array(&labels.hub_corner);
            w.array(&labels.start);
            w.array(&labels.hubs);
            w.array(&labels.lengths);
            w.array(&labels.next);
            if let Some(hop) = &labels.hop {
                w.array(hop);
            }
        }
        let len = (w.0.len() + 8) as u64;
        w.0[16..24].copy_from_slice(&len.to_le_bytes());
        let sum = signposts::format::checksum(&w.0);
        w.u64(sum);
        w.0
    }

    /// Reads a saved file from `source` (whose length is `len` when known) into memory, then
    /// opens it with every check.
    fn read(mut source: impl Read, len: Option<u64>) -> Result<ExactRooms, Error> {
        /// Read at a time: a forged length costs memory only as its bytes arrive.
        const CHUNK: usize = 1 << 20;
        let mut header = [0u8; HEADER];
        let mut got = 0;
        while got < HEADER {
            match source.read(&mut header[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        let declared = check_header(&header[..got])?.1;
        if let Some(len) = len.filter(|&len| len != declared) {
            return Err(corrupt(&format!("the header says {declared} bytes, the file has {len}")));
        }
        let needed = usize::try_from(declared).map_err(|_| too_large(declared))?;
        let mut bytes = header.to_vec();
        while bytes.len() < needed {
            let want = (needed - bytes.len()).min(CHUNK);
            bytes.try_reserve(want).map_err(|_| too_large(declared))?;
            let read = (&mut source).take(want as u64).read_to_end(&mut bytes)?;
            if read == 0 {
                return Err(corrupt(&format!(
                    "truncated: the header says {declared} bytes, {} came",
                    bytes.len()
                )));
            }
        }
        let mut extra = [0u8; 1];
        loop {
            match source.read(&mut extra) {
                Ok(0) => break,
                Ok(_) => return Err(corrupt(&format!("bytes after the {declared} the header says"))),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        let mut exact = ExactRooms::open(crate::buf::share(bytes), Check::Full)?;
        // Loaded into memory of its own: nothing to verify later.
        exact.file = Origin(None);
        Ok(exact)
    }

    /// Opens `bytes` in place, checked as `check` says.
    fn open(bytes: Bytes, check: Check) -> Result<ExactRooms, Error> {
        let all = slice(&bytes);
        let (tier, declared, version) = check_header(all)?;
        if declared != all.len() as u64 {
            return Err(corrupt(&format!("the header says {declared} bytes, the file has {}", all.len())));
        }
        let mut s = Sections { bytes: bytes.clone(), at: HEADER, end: all.len() - 8 };
        let budget = s.u64()?;
        let lo = Point::new(s.f64()?, s.f64()?);
        let (size, w, h) = (s.f64()?, s.u32()?, s.u32()?);
        let grid = CellGrid { lo, size, w, h };
        let cells = w as usize * h as usize;
        if !(lo.x.is_finite() && lo.y.is_finite() && size.is_finite() && size > 0.0) || cells == 0 {
            return Err(corrupt("a cell grid of no cells, or not finite"));
        }
        let (mesh, states) = read_mesh(&mut s, check)?;
        let links = super::links::Links::read(&mesh, &s.array()?, &s.array()?, &s.array()?)
            .map_err(|why| corrupt(&why))?;
        let topo = Topology::new(&mesh, &states);
        let (corners, corner_of) = super::builder::ordered_corners(&topo);
        let saved: Buf<u32> = s.array()?;
        if *saved != *corners {
            return Err(corrupt("the corners are not those of the mesh and doors"));
        }
        let c = corners.len();
        let starts_len = if c == 0 { 0 } else { c + 1 };
        let views = Views {
            start: s.array_of(starts_len, "piece starts")?,
            pieces: s.array()?,
            keys: s.array()?,
            spike_start: s.array_of(starts_len, "spike starts")?,
            spikes: s.array()?,
            spike_keys: s.array()?,
        };
        if views.keys.len() != views.pieces.len() || views.spike_keys.len() != views.spikes.len() {
            return Err(corrupt("a key for every piece and spike"));
        }
        let graph = read_graph(&mut s, c)?;
        let cell_start: Buf<u32> = s.array_of(cells + 1, "cell starts")?;
        // Format 3 keeps the entries in 16 bits below `NARROW_CORNERS` corners; 2 kept them all
        // in 32 (narrowed here, into memory).
        let cell_list = match (version >= 3, c < NARROW_CORNERS) {
            (true, true) => CellList::Narrow(s.array()?),
            (false, true) => CellList::new(s.array::<u32>()?.to_vec(), c),
            (_, false) => CellList::Wide(s.array()?),
        };
        let tier =
            [Tier::Table, Tier::CompactTable, Tier::Graph, Tier::Labels, Tier::CompactLabels][tier as usize];
        let table = if matches!(tier, Tier::Table | Tier::CompactTable) {
            Some(read_table(&mut s, c, tier == Tier::Table, mesh.regions_len(), version)?)
        } else {
            None
        };
        let labels = if matches!(tier, Tier::Labels | Tier::CompactLabels) {
            Some(read_labels(&mut s, c, tier == Tier::Labels)?)
        } else {
            None
        };
        if s.at != s.end {
            return Err(corrupt(&format!("{} bytes after the data, before the checksum", s.end - s.at)));
        }
        let geo = corners.iter().map(|&v| CornerGeo::new(&topo, v)).collect();
        let exact = ExactRooms {
            mesh: std::sync::Arc::new(mesh),
            states,
            budget,
            topo,
            corners,
            corner_of,
            geo,
            views,
            grid,
            cell_start,
            cell_list,
            graph,
            table,
            labels,
            tier,
            file: Origin(Some(bytes)),
            links,
        };
        if check == Check::Full {
            exact.verify()?;
        }
        Ok(exact)
    }

    /// Every index the arrays read in place hold is in range.
    fn check_indices(&self) -> Result<(), Error> {
        let (c, vertices) = (self.corners.len(), self.topo.points.len() as u32);
        let v = &self.views;
        ranges(&v.start, v.pieces.len(), "piece starts")?;
        ranges(&v.spike_start, v.spikes.len(), "spike starts")?;
        let vertex = |id: u32, ray: bool| id < vertices || (ray && id == PLUS_X);
        if !v.pieces.iter().chain(v.spikes.iter()).all(|p| {
            vertex(p.right, true)
                && vertex(p.left, true)
                && vertex(p.wall[0], false)
                && vertex(p.wall[1], false)
        }) {
            return Err(corrupt("a piece of a view names no vertex"));
        }
        ranges(&self.cell_start, self.cell_list.len(), "cell starts")?;
        if self.cell_list.entries(0..self.cell_list.len()).any(|e| (e & INDEX) as usize >= c) {
            return Err(corrupt("a cell's candidate is no corner"));
        }
        if let Some(table) = &self.table {
            if table.hop.iter().any(|&h| usize::from(h) >= c) {
                return Err(corrupt("a table hop is no corner"));
            }
            if !table.cand_start.is_empty() {
                ranges(&table.cand_start, table.cand.len(), "candidate starts")?;
                if table.cand.iter().any(|&e| (e & INDEX) as usize >= c) {
                    return Err(corrupt("a region's candidate is no corner"));
                }
            }
        }
        if let Some(labels) = &self.labels {
            ranges(&labels.start, labels.hubs.len(), "label starts")?;
            if labels.hub_corner.iter().chain(labels.next.iter()).any(|&x| x as usize >= c)
                || labels.hubs.iter().any(|&h| h as usize >= c)
            {
                return Err(corrupt("a label's hub or next corner is no corner"));
            }
            // Each label's hubs ascending (a path's unpacking searches them).
            if (0..c as u32).any(|a| labels.hubs[labels.range(a)].windows(2).any(|w| w[0] >= w[1])) {
                return Err(corrupt("a label's hubs are not in order"));
            }
            if labels.hop.as_ref().is_some_and(|hop| hop.iter().any(|&h| usize::from(h) >= c)) {
                return Err(corrupt("a hop is no corner"));
            }
            // A path is unpacked along the next corners: each holds the hub in its label too.
            let broken = (0..c as u32).any(|a| {
                let range = labels.range(a);
                (range.clone()).any(|i| {
                    let (h, next) = (labels.hubs[i], labels.next[i]);
                    next != a && labels.length_to(next, h).is_none()
                })
            });
            if broken {
                return Err(corrupt("a label's next corner does not hold its hub"));
            }
        }
        Ok(())
    }
}

/// The mesh and the door states, with their checksum. With [`Check::Full`] the mesh is
/// rebuilt from its regions as [`NavMesh::from_regions`] checks them, and must come out as
/// saved; with [`Check::Sizes`] it is put together from the saved neighbours across each edge,
/// checked only to be in range and to match from both sides (the checksum, over them and every
/// byte before, rules out accidents).
fn read_mesh(s: &mut Sections, check: Check) -> Result<(NavMesh, Vec<DoorState>), Error> {
    let coordinates: Buf<f64> = s.array()?;
    let starts: Buf<u32> = s.array()?;
    let rings_flat: Buf<u32> = s.array()?;
    let across_flat: Buf<u32> = s.array_of(rings_flat.len(), "neighbours across")?;
    let areas: Buf<u8> = s.array()?;
    let states: Buf<u8> = s.array()?;
    let at = s.at;
    if prefix_checksum(&slice(&s.bytes)[..at]) != s.u64()? {
        return Err(corrupt("the mesh's checksum does not match (the file is damaged)"));
    }
    if !coordinates.len().is_multiple_of(2) || coordinates.iter().any(|c| !c.is_finite()) {
        return Err(corrupt("vertex coordinates not in pairs, or not finite"));
    }
    let vertices: Vec<Point> = coordinates.chunks_exact(2).map(|p| Point::new(p[0], p[1])).collect();
    if starts.len() != areas.len() + 1
        || starts.first() != Some(&0)
        || starts.windows(2).any(|w| u64::from(w[0]) + 3 > u64::from(w[1]))
        || starts.last().map(|&l| l as usize) != Some(rings_flat.len())
        || rings_flat.iter().any(|&v| v as usize >= vertices.len())
    {
        return Err(corrupt("the regions' rings are not in order, or name no vertex"));
    }
    let ring_of = |r: usize| starts[r] as usize..starts[r + 1] as usize;
    let rings: Vec<Vec<u32>> = (0..areas.len()).map(|r| rings_flat[ring_of(r)].to_vec()).collect();
    let across: Vec<Vec<u32>> = (0..areas.len()).map(|r| across_flat[ring_of(r)].to_vec()).collect();
    // Each shared edge in both rings, as `from_regions_parts` finds it.
    let edge = |ring: &[u32], i: usize| (ring[i], ring[(i + 1) % ring.len()]);
    for (r, ring) in rings.iter().enumerate() {
        for (i, &other) in across[r].iter().enumerate() {
            if other == NONE {
                continue;
            }
            let (p, q) = edge(ring, i);
            let back = rings.get(other as usize).is_some_and(|ring_s| {
                other as usize != r
                    && (0..ring_s.len())
                        .any(|j| across[other as usize][j] == r as u32 && edge(ring_s, j) == (q, p))
            });
            if !back {
                return Err(corrupt(&format!("region {r}'s neighbour across edge {i} does not share it")));
            }
        }
    }
    let mesh = if check == Check::Full {
        let mesh = NavMesh::from_regions_in_areas(&vertices, &rings, areas.to_vec())?;
        if mesh.vertices() != vertices
            || (0..rings.len()).any(|r| {
                let id = RegionId(r as u32);
                mesh.region_vertices(id) != rings[r] || mesh.across(id) != across[r]
            })
        {
            return Err(corrupt("the mesh does not rebuild as saved"));
        }
        mesh
    } else {
        NavMesh::from_regions_parts(vertices, &Regions { rings, across, areas: areas.to_vec() })
    };
    if states.len() != mesh.doors_len() {
        return Err(corrupt(&format!(
            "{} door states for a mesh of {} doors",
            states.len(),
            mesh.doors_len()
        )));
    }
    let states = states
        .iter()
        .map(|&k| match k {
            0 => Ok(DoorState::Open),
            2 => Ok(DoorState::Closed),
            _ => Err(corrupt(&format!("door state kind {k}"))),
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok((mesh, states))
}

/// The checksum of a file's first part, `prefix`: every byte but the file's length (written
/// last, and checked against the file's own).
fn prefix_checksum(prefix: &[u8]) -> u64 {
    let mut bytes = prefix[..16].to_vec();
    bytes.extend_from_slice(&prefix[HEADER..]);
    signposts::format::checksum(&bytes)
}

/// The visibility graph, decoded and checked: starts in order, heads corners, lengths finite
/// and not negative (the searches over it then end).
fn read_graph(s: &mut Sections, c: usize) -> Result<Graph, Error> {
    let start: Buf<u32> = s.array_of(c + 1, "graph starts")?;
    let heads: Buf<u32> = s.array()?;
    let lengths: Buf<f64> = s.array_of(heads.len(), "edge lengths")?;
    ranges(&start, heads.len(), "graph starts")?;
    if heads.iter().any(|&h| h as usize >= c) || lengths.iter().any(|l| !(l.is_finite() && *l >= 0.0)) {
        return Err(corrupt("a visibility edge to no corner, or of a length not finite"));
    }
    Ok(Graph { start: start.to_vec(), edges: heads.iter().copied().zip(lengths.iter().copied()).collect() })
}

/// The table of `c` corners and `regions` regions (`wide`: `f64` lengths), its sizes checked.
fn read_table(s: &mut Sections, c: usize, wide: bool, regions: usize, version: u32) -> Result<Table, Error> {
    if c >= 1 << 16 {
        return Err(corrupt(&format!("a table of {c} corners (at most 65,535 are numbered in 16 bits)")));
    }
    let hop = s.array_of(c * c, "hops")?;
    let lengths = if wide {
        Lengths::Wide(s.array_of(c * c, "lengths")?)
    } else {
        Lengths::Narrow(s.array_of(c * c, "lengths")?)
    };
    let bounds = s.array_of(c * regions, "bounds")?;
    // Format 2 kept no candidates (nor does a format 3 file saved from one): a door toggle
    // then builds the table anew.
    let (cand_start, cand): (Buf<u32>, Buf<u32>) =
        if version >= 3 { (s.array()?, s.array()?) } else { (Vec::new().into(), Vec::new().into()) };
    if !(cand_start.is_empty() || cand_start.len() == regions + 1) {
        return Err(corrupt(&format!("{} candidate starts for {regions} regions", cand_start.len())));
    }
    Ok(Table { n: c, hop, lengths, bounds, cand_start, cand })
}

/// The labels of `c` corners (and with `hops` their first steps), their sizes checked.
fn read_labels(s: &mut Sections, c: usize, hops: bool) -> Result<Labels, Error> {
    let mut labels = Labels {
        hub_corner: s.array_of(c, "hub corners")?,
        start: s.array_of(c + 1, "label starts")?,
        hubs: s.array()?,
        lengths: s.array()?,
        next: s.array()?,
        hop: None,
    };
    if labels.lengths.len() != labels.hubs.len() || labels.next.len() != labels.hubs.len() {
        return Err(corrupt("a length and a next corner for every label entry"));
    }
    if hops {
        if c >= 1 << 16 {
            return Err(corrupt(&format!(
                "first steps of {c} corners (at most 65,535 are numbered in 16 bits)"
            )));
        }
        labels.hop = Some(s.array_of(c * c, "hops")?);
    }
    Ok(labels)
}

/// `starts` (empty, or from 0 up to `len`, in order) delimit lists of a `len`-long array.
fn ranges(starts: &[u32], len: usize, what: &str) -> Result<(), Error> {
    if starts.is_empty() && len == 0 {
        return Ok(());
    }
    if starts.first() != Some(&0)
        || starts.last().map(|&l| l as usize) != Some(len)
        || starts.windows(2).any(|w| w[0] > w[1])
    {
        return Err(corrupt(&format!("the {what} are not in order from 0 to {len}")));
    }
    Ok(())
}

/// Checks a file's header (magic, version, tier); returns the tier, the length it says and
/// the version.
fn check_header(all: &[u8]) -> Result<(u32, u64, u32), Error> {
    if all.starts_with(b"SPROOMS\0") {
        return Err(corrupt(
            "this is a saved Rooms file (from `Rooms::save`, `signposts rooms`), not an exact index: open it with `Rooms::load`",
        ));
    }
    if all.starts_with(b"SIGNPOST") {
        return Err(corrupt(
            "this is a signposts table file (from the core's `save`, `signposts build`), not an exact index: open it with the core's `Graph`, `CompressedGraph` or `GridOracle::load`",
        ));
    }
    if !all.starts_with(MAGIC) {
        if all.len() < MAGIC.len() && MAGIC.starts_with(all) {
            return Err(corrupt(&format!("truncated: {} bytes, not even a header", all.len())));
        }
        return Err(corrupt("not a saved exact index (bad magic bytes)"));
    }
    let Some(header) = all.first_chunk::<HEADER>() else {
        return Err(corrupt(&format!("truncated: {} bytes, not even a header", all.len())));
    };
    let word = |i: usize| u32::from_le_bytes(header[i..i + 4].try_into().expect("4 bytes"));
    let version = word(8);
    if !(2..=EXACT_FORMAT_VERSION).contains(&version) {
        return Err(corrupt(&format!(
            "exact index format version {version}, this build reads 2 to {EXACT_FORMAT_VERSION}"
        )));
    }
    let tier = word(12);
    if tier > 4 {
        return Err(corrupt(&format!("tier {tier} (0 to 4 are known)")));
    }
    let len = u64::from_le_bytes(header[16..24].try_into().expect("8 bytes"));
    if len < HEADER as u64 + 8 {
        return Err(corrupt(&format!("a length of {len} bytes, too short for a header and checksum")));
    }
    Ok((tier, len, version))
}

/// Puts a file together.
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        v.encode(&mut self.0);
    }

    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    fn f64(&mut self, v: f64) {
        v.encode(&mut self.0);
    }

    /// The count, zero bytes to a multiple of 8, the values.
    fn array<T: Plain>(&mut self, values: &[T]) {
        self.u64(values.len() as u64);
        self.0.resize(self.0.len().next_multiple_of(8), 0);
        if cfg!(target_endian = "little") {
            // SAFETY: `Plain` values have no padding: every byte of the slice is initialized,
            // and in memory as the file has it on a little-endian machine.
            let bytes =
                unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<u8>(), size_of_val(values)) };
            self.0.extend_from_slice(bytes);
        } else {
            for v in values {
                v.encode(&mut self.0);
            }
        }
    }
}

/// Reads a file's fields in place, each within the body (before the checksum).
struct Sections {
    bytes: Bytes,
    at: usize,
    /// Where the checksum starts.
    end: usize,
}

impl Sections {
    /// The next `len` bytes' offset, or a truncation error.
    fn take(&mut self, len: u64) -> Result<usize, Error> {
        let end = (self.at as u64).checked_add(len).filter(|&end| end <= self.end as u64);
        let Some(end) = end else {
            return Err(corrupt(&format!(
                "truncated: {len} bytes wanted at byte {}, where {} are left before the checksum",
                self.at,
                self.end - self.at
            )));
        };
        let start = self.at;
        self.at = end as usize;
        Ok(start)
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let at = self.take(N as u64)?;
        Ok(slice(&self.bytes)[at..at + N].try_into().expect("N bytes"))
    }

    fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.bytes()?))
    }

    fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.bytes()?))
    }

    fn f64(&mut self) -> Result<f64, Error> {
        Ok(f64::from_le_bytes(self.bytes()?))
    }

    /// An array: its count, checked against the bytes left before anything is read of it.
    fn array<T: Plain>(&mut self) -> Result<Buf<T>, Error> {
        let count = self.u64()?;
        let pad = self.at.next_multiple_of(8) - self.at;
        self.take(pad as u64)?;
        let len = count.checked_mul(size_of::<T>() as u64).ok_or_else(|| too_large(u64::MAX))?;
        let at = self.take(len)?;
        Ok(Buf::view(&self.bytes, at, count as usize))
    }

    /// An array of `count` values.
    fn array_of<T: Plain>(&mut self, count: usize, what: &str) -> Result<Buf<T>, Error> {
        let at = self.at;
        let values = self.array()?;
        if values.len() != count {
            return Err(corrupt(&format!("{} {what} at byte {at}, where {count} belong", values.len())));
        }
        Ok(values)
    }
}

#[cold]
fn corrupt(what: &str) -> Error {
    Error::Corrupt { what: what.to_owned() }
}

/// A file larger than this machine can hold: the bytes it needs.
#[cold]
fn too_large(bytes: u64) -> Error {
    Error::Core(signposts::Error::AllocationFailed { bytes })
}
