//! Saving and loading [`Rooms`]: the mesh, the door and link states, the layer and the oracle's
//! table, in one checksummed file that follows the core's rules — magic bytes, a version, every
//! array's length before it, the core's checksum at the end — and loads as an error, never a
//! panic, when truncated, damaged or forged.
//!
//! Layout (little-endian): `SPROOMS\0`, version `u32`; vertices (`u64` count, then `f64` x, y
//! each); regions (`u64` count, then per region its area `u8`, corner count `u32` and corner
//! ids `u32`); door states (`u64` count, then per door a kind `u8` — 0 open, 1 one way, 2
//! closed — and a region `u32`); links (`u64` count, then per link its ends `f64 ×4`, cost
//! `f64`, two-way `u8`, open `u8`); the layer (`u64` count, then per area a flag `u8` and a
//! cost `f64`); the door nodes `u8` (0 midpoints, 1 ends; not in version 1 files, which are
//! read as midpoints); the table (`u64` length, then a [`signposts::Graph`] file); the
//! checksum `u64`.
//!
//! Loading reads the file in two passes over what it holds: first the numbers, every count
//! checked against the bytes the file has left when its length is known (a file, a slice)
//! before anything is allocated for it, and memory otherwise growing only as the values
//! arrive (a stream); then, once the checksum matches, every region as
//! [`NavMesh::from_regions`] checks it, one state per door, links and layer as
//! [`RoomsBuilder::build`](crate::RoomsBuilder::build) does, and that the table belongs to
//! the oracle graph those describe (its fingerprint).

use std::io::{Read, Write};

use super::{DoorNodes, DoorState, Rooms};
use crate::Point;
use crate::error::Error;
use crate::mesh::Regions;
use crate::mesh::{NavMesh, RegionId};

const MAGIC: &[u8; 8] = b"SPROOMS\0";
/// The format's version. Version 1 files (before [`DoorNodes`]) are read as door midpoints.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{FORMAT_VERSION, NavMesh, Rooms};
/// let mut bytes = Vec::new();
/// Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("..")?)?)?.save(&mut bytes)?;
/// assert_eq!(&bytes[..8], b"SPROOMS\0"); // the magic bytes, then the version
/// assert_eq!(bytes[8..12], FORMAT_VERSION.to_le_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const FORMAT_VERSION: u32 = 2;

impl Rooms {
    /// Writes the rooms to `sink`: mesh, door and link states, layer, oracle table, checksum.
    /// The file is put together in memory first (its checksum covers it all), then written
    /// at once; a [`BufWriter`](std::io::BufWriter) adds nothing.
    ///
    /// # Errors
    /// [`Error::Io`] when `sink` fails.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorId, NavMesh, Point, Rooms};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...#...\n.......\n...#...")?)?;
    /// let mut rooms = Rooms::builder(&mesh).link(Point::new(0.5, 0.5), Point::new(6.5, 0.5), 1.0, true).build()?;
    /// rooms.set_door_open(DoorId(0), false)?;
    /// let mut bytes = Vec::new();
    /// rooms.save(&mut bytes)?;
    /// let loaded = Rooms::load(bytes.as_slice())?;
    /// let (a, b) = (Point::new(0.5, 2.5), Point::new(6.5, 2.5));
    /// assert_eq!(loaded.path(a, b), rooms.path(a, b));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(&self, mut sink: impl Write) -> Result<(), Error> {
        sink.write_all(&self.encode())?;
        sink.flush()?;
        Ok(())
    }

    /// Reads rooms saved by [`Rooms::save`] from `source`, to its end.
    ///
    /// Nothing is allocated for a count before the values arrive, so a forged count costs no
    /// memory; a stream that never ends is read until it fails a check (give a finite reader,
    /// or cap it with [`Read::take`]: a longer file is then refused as truncated).
    ///
    /// # Errors
    /// [`Error::Corrupt`] saying what is wrong (bad magic, another version, a wrong checksum,
    /// truncation, bytes after the end, a table that does not belong to the mesh), the error
    /// of the check that refused a part (a region that is not convex, a link outside the
    /// walkable area…), [`Error::Core`] for a damaged table, [`Error::Io`] when `source`
    /// fails.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, Rooms};
    /// let rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("..\n..")?)?)?;
    /// let mut bytes = Vec::new();
    /// rooms.save(&mut bytes)?;
    /// assert_eq!(Rooms::load(bytes.as_slice())?.mesh().regions_len(), rooms.mesh().regions_len());
    /// bytes[20] ^= 1;
    /// assert!(matches!(Rooms::load(bytes.as_slice()), Err(Error::Corrupt { .. })));
    /// assert!(matches!(Rooms::load(std::io::repeat(0)), Err(Error::Corrupt { .. }))); // endless: no magic
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(source: impl Read) -> Result<Rooms, Error> {
        // Buffered: the values are read a few bytes at a time (a pipe unbuffered took a system
        // call for each).
        Rooms::read(std::io::BufReader::new(source), None)
    }

    /// Writes [`Rooms::save`]'s bytes to the file at `path` atomically: into a temporary file
    /// beside it, synced to disk, then renamed over `path`, so that a reader (or a crash
    /// half-way) sees the old file or the whole new one, never a part.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written (the temporary file is removed again).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, Point, Rooms};
    /// let mut rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?)?;
    /// rooms.set_door_open(rooms.mesh().doors_of(rooms.region_at(Point::new(0.5, 2.5)).unwrap())[0], false)?;
    /// let file = std::env::temp_dir().join(format!("signposts-rooms-save-{}.rooms", std::process::id()));
    /// rooms.save_to(&file)?;
    /// let loaded = Rooms::load_from(&file)?;
    /// assert_eq!(loaded.path(Point::new(0.5, 0.5), Point::new(0.5, 2.5)), None); // the door still closed
    /// std::fs::remove_file(&file)?;
    /// let nowhere = std::env::temp_dir().join("signposts-rooms-no-such-folder").join("x.rooms");
    /// assert!(matches!(rooms.save_to(&nowhere), Err(Error::Io { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        signposts::format::write_atomically(path, |file| self.save(file))
    }

    /// Reads the rooms saved in the file at `path`. The file's length bounds every count it
    /// declares: one that the file cannot hold is refused before anything is allocated for
    /// it, so memory never goes past about the file's size (twice it at most, while the
    /// table is checked). No size cap is taken: to refuse files past a size, check
    /// [`std::fs::metadata`]'s length first, or read through [`Rooms::load`] with
    /// [`Read::take`].
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read; then as [`Rooms::load`].
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, Point, Rooms};
    /// let rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?)?;
    /// let file = std::env::temp_dir().join(format!("signposts-rooms-load-{}.rooms", std::process::id()));
    /// rooms.save_to(&file)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// assert_eq!(Rooms::load_from(&file)?.path(top, bottom), rooms.path(top, bottom));
    /// let capped = Rooms::load(std::fs::File::open(&file)?.take(10)); // at most 10 bytes
    /// assert!(matches!(capped, Err(Error::Corrupt { .. }))); // truncated
    /// std::fs::write(&file, b"not rooms")?;
    /// assert!(matches!(Rooms::load_from(&file), Err(Error::Corrupt { .. })));
    /// std::fs::remove_file(&file)?;
    /// # use std::io::Read as _;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_from(path: impl AsRef<std::path::Path>) -> Result<Rooms, Error> {
        let file = std::fs::File::open(path)?;
        let metadata = file.metadata()?;
        let len = metadata.is_file().then_some(metadata.len());
        Rooms::read(std::io::BufReader::new(file), len)
    }

    /// The same as [`Rooms::load_from`]: it reads the file. The rooms format cannot be used
    /// in place (the mesh is rebuilt from its regions and checked, as is the table), so
    /// there is nothing to map; the method is here so that every saved type of signposts
    /// opens the same way.
    ///
    /// # Errors
    /// As [`Rooms::load_from`].
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Rooms};
    /// let rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?)?;
    /// let file = std::env::temp_dir().join(format!("signposts-rooms-map-{}.rooms", std::process::id()));
    /// rooms.save_to(&file)?;
    /// assert_eq!(Rooms::map_file(&file)?.mesh().doors(), rooms.mesh().doors());
    /// std::fs::remove_file(&file)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn map_file(path: impl AsRef<std::path::Path>) -> Result<Rooms, Error> {
        Rooms::load_from(path)
    }

    /// Rooms from the bytes of a saved file ([`Rooms::save`] into a `Vec`), every count
    /// checked against the slice's length and everything checked as [`Rooms::load`] does.
    ///
    /// # Errors
    /// As [`Rooms::load`] (never [`Error::Io`]).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, Rooms};
    /// let rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("..\n..")?)?)?;
    /// let mut bytes = Vec::new();
    /// rooms.save(&mut bytes)?;
    /// assert_eq!(Rooms::from_bytes(&bytes)?.table().nodes_len(), rooms.table().nodes_len());
    /// assert!(matches!(Rooms::from_bytes(&bytes[..10]), Err(Error::Corrupt { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Rooms, Error> {
        Rooms::read(bytes, Some(bytes.len() as u64))
    }

    /// The file's bytes.
    fn encode(&self) -> Vec<u8> {
        let mesh = &self.mesh;
        let mut out = Vec::with_capacity(64 + mesh.memory_bytes() + self.table.memory_bytes());
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, FORMAT_VERSION);
        put_u64(&mut out, mesh.vertices().len() as u64);
        for p in mesh.vertices() {
            put_f64(&mut out, p.x);
            put_f64(&mut out, p.y);
        }
        put_u64(&mut out, mesh.regions_len() as u64);
        for r in 0..mesh.regions_len() as u32 {
            out.push(mesh.area(RegionId(r)));
            let ring = mesh.region_vertices(RegionId(r));
            put_u32(&mut out, ring.len() as u32);
            for &v in ring {
                put_u32(&mut out, v);
            }
        }
        put_u64(&mut out, self.states.len() as u64);
        for state in &self.states {
            let (kind, region) = match *state {
                DoorState::Open => (0, 0),
                DoorState::OneWay { from } => (1, from.0),
                DoorState::Closed => (2, 0),
            };
            out.push(kind);
            put_u32(&mut out, region);
        }
        put_u64(&mut out, self.links.len() as u64);
        for (link, &open) in self.links.iter().zip(&self.link_open) {
            for p in link.ends {
                put_f64(&mut out, p.x);
                put_f64(&mut out, p.y);
            }
            put_f64(&mut out, link.cost);
            out.push(u8::from(link.two_way));
            out.push(u8::from(open));
        }
        put_u64(&mut out, self.area_costs.len() as u64);
        for cost in &self.area_costs {
            out.push(u8::from(cost.is_some()));
            put_f64(&mut out, cost.unwrap_or(0.0));
        }
        out.push(match self.door_nodes {
            DoorNodes::Midpoints => 0,
            DoorNodes::Ends => 1,
        });
        let at = out.len();
        put_u64(&mut out, 0); // the table's length, once known
        self.table.save(&mut out).expect("writing to memory cannot fail");
        let table_len = (out.len() - at - 8) as u64;
        out[at..at + 8].copy_from_slice(&table_len.to_le_bytes());
        let sum = signposts::format::checksum(&out);
        put_u64(&mut out, sum);
        out
    }

    /// Reads a saved file from `source`, whose length is `len` when known.
    fn read(source: impl Read, len: Option<u64>) -> Result<Rooms, Error> {
        let mut r = Reader { source, seen: Vec::new(), len };
        let raw = r.raw()?;
        let sum = r.u64()?;
        if sum != signposts::format::checksum(&r.seen[..r.seen.len() - 8]) {
            return Err(corrupt("the checksum does not match (the file is damaged or truncated)"));
        }
        r.end()?;
        let table = raw.table.clone();
        raw.rooms(&r.seen[table])
    }
}

/// A saved file's values as read, before any of them is checked.
struct Raw {
    vertices: Vec<Point>,
    rings: Vec<Vec<u32>>,
    areas: Vec<u8>,
    /// Per door, its state's kind and region.
    states: Vec<(u8, u32)>,
    /// Per link, its ends, cost, whether two-way, whether open.
    links: Vec<(Point, Point, f64, bool, bool)>,
    area_costs: Vec<Option<f64>>,
    /// The door nodes' kind: 0 midpoints, 1 ends.
    door_nodes: u8,
    /// Where the table's bytes are among those read.
    table: core::ops::Range<usize>,
}

impl Raw {
    /// The rooms these values describe, every part checked.
    fn rooms(self, table: &[u8]) -> Result<Rooms, Error> {
        let mesh = NavMesh::from_regions_in_areas(&self.vertices, &self.rings, self.areas)?;
        if self.states.len() != mesh.doors_len() {
            return Err(corrupt(&format!(
                "{} door states for a mesh of {} doors",
                self.states.len(),
                mesh.doors_len()
            )));
        }
        let states = self
            .states
            .iter()
            .map(|&(kind, region)| match kind {
                0 => Ok(DoorState::Open),
                1 => Ok(DoorState::OneWay { from: RegionId(region) }),
                2 => Ok(DoorState::Closed),
                _ => Err(corrupt(&format!("door state kind {kind}"))),
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let door_nodes = match self.door_nodes {
            0 => DoorNodes::Midpoints,
            1 => DoorNodes::Ends,
            kind => return Err(corrupt(&format!("door nodes kind {kind} (0 midpoints, 1 ends)"))),
        };
        let mut builder =
            Rooms::builder(&mesh).door_states(states).area_costs(self.area_costs).door_nodes(door_nodes);
        for &(a, b, cost, two_way, _) in &self.links {
            builder = builder.link(a, b, cost, two_way);
        }
        let table = signposts::Graph::load(table)?;
        // The described rooms, their oracle's arcs, against the table's fingerprint.
        let mut rooms = builder.skeleton()?;
        rooms.link_open = self.links.iter().map(|l| l.4).collect();
        if rooms.oracle_graph()?.fingerprint() != table.fingerprint() {
            return Err(corrupt("the oracle table does not belong to the mesh, doors and links"));
        }
        rooms.table = table;
        Ok(rooms)
    }
}

impl NavMesh {
    /// [`NavMesh::from_regions`] with each region's area.
    pub(crate) fn from_regions_in_areas(
        vertices: &[Point],
        rings: &[Vec<u32>],
        areas: Vec<u8>,
    ) -> Result<NavMesh, Error> {
        let mesh = NavMesh::from_regions(vertices, rings)?;
        // `from_regions` keeps the given order of regions (orienting each counter-clockwise).
        let (vertices, rings): (Vec<Point>, Vec<Vec<u32>>) = (
            mesh.vertices().to_vec(),
            (0..mesh.regions_len() as u32).map(|r| mesh.region_vertices(RegionId(r)).to_vec()).collect(),
        );
        let across = (0..mesh.regions_len() as u32).map(|r| mesh.across(RegionId(r))).collect();
        Ok(NavMesh::from_regions_parts(vertices, &Regions { rings, across, areas }))
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_f64(out: &mut Vec<u8>, v: f64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Reads a saved file, keeping every byte for the checksum; each read is checked against
/// the file's length when it is known, and reads only what arrives otherwise.
struct Reader<R: Read> {
    source: R,
    /// The bytes read so far.
    seen: Vec<u8>,
    /// The file's length, when known.
    len: Option<u64>,
}

impl<R: Read> Reader<R> {
    /// The values of a file, from its magic bytes to its table (the checksum left).
    fn raw(&mut self) -> Result<Raw, Error> {
        let magic = self.take(MAGIC.len())?;
        if self.seen[magic.clone()] == *b"SPEXACT\0" {
            return Err(corrupt("this is a saved exact index, not rooms: open it with `ExactRooms::load`"));
        }
        if self.seen[magic] != *MAGIC {
            return Err(corrupt("not a signposts-rooms file (bad magic bytes)"));
        }
        let version = self.u32()?;
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(corrupt(&format!(
                "format version {version}, this build reads versions 1 to {FORMAT_VERSION} (save it again with the build that wrote it, or rebuild the rooms)"
            )));
        }
        let mut vertices = Vec::new();
        for _ in 0..self.count(16)? {
            vertices.push(Point::new(self.f64()?, self.f64()?));
        }
        let (mut rings, mut areas) = (Vec::new(), Vec::new());
        for _ in 0..self.count(5)? {
            areas.push(self.u8()?);
            let mut ring = Vec::new();
            for _ in 0..self.count32(4)? {
                ring.push(self.u32()?);
            }
            rings.push(ring);
        }
        let mut states = Vec::new();
        for _ in 0..self.count(5)? {
            states.push((self.u8()?, self.u32()?));
        }
        let mut links = Vec::new();
        for _ in 0..self.count(42)? {
            let (a, b) = (Point::new(self.f64()?, self.f64()?), Point::new(self.f64()?, self.f64()?));
            links.push((a, b, self.f64()?, self.u8()? != 0, self.u8()? != 0));
        }
        let mut area_costs = Vec::new();
        for _ in 0..self.count(9)? {
            let (some, cost) = (self.u8()? != 0, self.f64()?);
            area_costs.push(some.then_some(cost));
        }
        // Version 1 had one oracle node per door, at its midpoint.
        let door_nodes = if version == 1 { 0 } else { self.u8()? };
        let table_len = self.count(1)?;
        let table = self.take(table_len)?;
        Ok(Raw { vertices, rings, areas, states, links, area_costs, door_nodes, table })
    }

    /// Reads `n` more bytes; returns where they are in `seen`.
    fn take(&mut self, n: usize) -> Result<core::ops::Range<usize>, Error> {
        /// The most read into memory at once: a forged length costs no more until its bytes come.
        const CHUNK: u64 = 1 << 20;
        let start = self.seen.len();
        let mut left = n as u64;
        while left > 0 {
            let want = left.min(CHUNK);
            let got = (&mut self.source).take(want).read_to_end(&mut self.seen)? as u64;
            if got == 0 {
                return Err(corrupt(&format!("truncated: {n} bytes wanted at byte {start}")));
            }
            left -= got;
        }
        Ok(start..self.seen.len())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let at = self.take(N)?;
        Ok(self.seen[at].try_into().expect("N bytes"))
    }

    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.array::<1>()?[0])
    }

    fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn f64(&mut self) -> Result<f64, Error> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    /// A `u64` count of items of at least `each` bytes, refused when what is left of a file
    /// of known length (less its checksum) cannot hold them.
    fn count(&mut self, each: usize) -> Result<usize, Error> {
        let n = self.u64()?;
        self.fits(n, each)
    }

    /// A `u32` count, likewise.
    fn count32(&mut self, each: usize) -> Result<usize, Error> {
        let n = u64::from(self.u32()?);
        self.fits(n, each)
    }

    fn fits(&self, n: u64, each: usize) -> Result<usize, Error> {
        let at = self.seen.len() as u64;
        let left = self.len.map_or(u64::MAX, |len| len.saturating_sub(at).saturating_sub(8));
        match n.checked_mul(each as u64) {
            Some(bytes) if bytes <= left => {
                usize::try_from(n).map_err(|_| corrupt(&format!("a count of {n} at byte {at} is too large")))
            }
            _ => Err(corrupt(&format!("a count of {n} at byte {} is more than the file holds", at - 8))),
        }
    }

    /// Checks that the file ends here.
    fn end(&mut self) -> Result<(), Error> {
        let mut extra = [0u8; 1];
        loop {
            match self.source.read(&mut extra) {
                Ok(0) => return Ok(()),
                Ok(_) => return Err(corrupt("bytes after the checksum")),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::from(e)),
            }
        }
    }
}

#[cold]
fn corrupt(what: &str) -> Error {
    Error::Corrupt { what: what.to_owned() }
}
