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
//! cost `f64`); the table (`u64` length, then a [`signposts::Graph`] file); the checksum `u64`.
//!
//! Loading checks everything it reads: counts against the bytes left (nothing is allocated
//! for a count the file cannot hold), every region as [`NavMesh::from_regions`] does, one
//! state per door, links and layer as [`RoomsBuilder::build`](crate::RoomsBuilder::build)
//! does, and that the table belongs to the oracle graph those describe (its fingerprint).

use super::{DoorState, Rooms};
use crate::Point;
use crate::error::Error;
use crate::mesh::Regions;
use crate::mesh::{NavMesh, RegionId};

const MAGIC: &[u8; 8] = b"SPROOMS\0";
/// The format's version.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{FORMAT_VERSION, NavMesh, Rooms};
/// let bytes = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("..")?)?)?.to_bytes();
/// assert_eq!(&bytes[..8], b"SPROOMS\0"); // the magic bytes, then the version
/// assert_eq!(bytes[8..12], FORMAT_VERSION.to_le_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const FORMAT_VERSION: u32 = 1;

impl Rooms {
    /// The rooms as bytes: mesh, door and link states, layer, oracle table.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorId, NavMesh, Point, Rooms};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...#...\n.......\n...#...")?)?;
    /// let mut rooms = Rooms::builder(&mesh).link(Point::new(0.5, 0.5), Point::new(6.5, 0.5), 1.0, true).build()?;
    /// rooms.set_door_open(DoorId(0), false)?;
    /// let loaded = Rooms::from_bytes(&rooms.to_bytes())?;
    /// let (a, b) = (Point::new(0.5, 2.5), Point::new(6.5, 2.5));
    /// assert_eq!(loaded.path(a, b), rooms.path(a, b));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// Never: the table is written to memory, which cannot fail.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
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
        let mut table = Vec::new();
        self.table.save(&mut table).expect("writing to memory cannot fail");
        put_u64(&mut out, table.len() as u64);
        out.extend_from_slice(&table);
        let sum = signposts::io::checksum(&out);
        put_u64(&mut out, sum);
        out
    }

    /// Rooms from [`Rooms::to_bytes`].
    ///
    /// # Errors
    /// [`Error::Corrupt`] saying what is wrong (bad magic, another version, a wrong checksum,
    /// truncation, a count the file cannot hold, a table that does not belong to the mesh),
    /// or the error of the check that refused a part (a region that is not convex, a link
    /// outside the walkable area…).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, Rooms};
    /// let rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("..\n..")?)?)?;
    /// let mut bytes = rooms.to_bytes();
    /// bytes[20] ^= 1;
    /// assert!(matches!(Rooms::from_bytes(&bytes), Err(Error::Corrupt { .. })));
    /// assert!(matches!(Rooms::from_bytes(&bytes[..10]), Err(Error::Corrupt { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Rooms, Error> {
        let corrupt = |what: &str| Error::Corrupt { what: what.to_owned() };
        if bytes.len() < MAGIC.len() + 4 + 8 || &bytes[..8] != MAGIC {
            return Err(corrupt("not a signposts-rooms file (bad magic bytes)"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if sum.first_chunk::<8>().map(|s| u64::from_le_bytes(*s)) != Some(signposts::io::checksum(body)) {
            return Err(corrupt("the checksum does not match (the file is damaged or truncated)"));
        }
        let mut r = Reader { bytes: body, at: 8 };
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(corrupt(&format!("format version {version}, this build reads {FORMAT_VERSION}")));
        }
        let vertices = (0..r.count(16)?)
            .map(|_| Ok(Point::new(r.f64()?, r.f64()?)))
            .collect::<Result<Vec<_>, Error>>()?;
        let regions = r.count(5)?;
        let (mut rings, mut areas) = (Vec::new(), Vec::new());
        for _ in 0..regions {
            areas.push(r.u8()?);
            let corners = r.count32(4)?;
            rings.push((0..corners).map(|_| r.u32()).collect::<Result<Vec<_>, Error>>()?);
        }
        let mesh = NavMesh::from_regions_in_areas(&vertices, &rings, areas)?;
        let doors = r.count(5)?;
        if doors != mesh.doors_len() {
            return Err(corrupt(&format!("{doors} door states for a mesh of {} doors", mesh.doors_len())));
        }
        let mut states = Vec::with_capacity(doors);
        for _ in 0..doors {
            let (kind, region) = (r.u8()?, r.u32()?);
            states.push(match kind {
                0 => DoorState::Open,
                1 => DoorState::OneWay { from: RegionId(region) },
                2 => DoorState::Closed,
                _ => return Err(corrupt(&format!("door state kind {kind}"))),
            });
        }
        let mut builder = Rooms::builder(&mesh).door_states(states);
        let mut open = Vec::new();
        for _ in 0..r.count(42)? {
            let (a, b) = (Point::new(r.f64()?, r.f64()?), Point::new(r.f64()?, r.f64()?));
            let (cost, two_way, is_open) = (r.f64()?, r.u8()? != 0, r.u8()? != 0);
            builder = builder.link(a, b, cost, two_way);
            open.push(is_open);
        }
        let mut area_costs = Vec::new();
        for _ in 0..r.count(9)? {
            let (some, cost) = (r.u8()? != 0, r.f64()?);
            area_costs.push(some.then_some(cost));
        }
        builder = builder.area_costs(area_costs);
        let table_len = r.count(1)?;
        let table = signposts::Graph::load(r.take(table_len)?)?;
        if r.at != r.bytes.len() {
            return Err(corrupt("bytes after the table"));
        }
        // The described rooms, their oracle's arcs, against the table's fingerprint.
        let mut rooms = builder.skeleton()?;
        rooms.link_open = open;
        let mut graph = signposts::GraphBuilder::try_new(rooms.nodes_len())?;
        for (u, v, cost) in rooms.oracle_arcs() {
            graph.connect_directed_weighted(u, v, cost);
        }
        if graph.fingerprint() != table.fingerprint() {
            return Err(corrupt("the oracle table does not belong to the mesh, doors and links"));
        }
        rooms.table = table;
        Ok(rooms)
    }

    /// [`Rooms::to_bytes`] into a file, written whole or not at all.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, Point, Rooms};
    /// let mut rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?)?;
    /// rooms.set_door_open(rooms.mesh().doors_of(rooms.region_at(Point::new(0.5, 2.5)).unwrap())[0], false)?;
    /// let file = std::env::temp_dir().join(format!("signposts-rooms-save-{}.rooms", std::process::id()));
    /// rooms.save_to(&file)?;
    /// let loaded = Rooms::load_from(&file, 1 << 20)?;
    /// assert_eq!(loaded.path(Point::new(0.5, 0.5), Point::new(0.5, 2.5)), None); // the door still closed
    /// std::fs::remove_file(&file)?;
    /// let nowhere = std::env::temp_dir().join("signposts-rooms-no-such-folder").join("x.rooms");
    /// assert!(matches!(rooms.save_to(&nowhere), Err(Error::Io { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        let path = path.as_ref();
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".{}.tmp", std::process::id()));
        let tmp = path.with_file_name(name);
        let written = std::fs::write(&tmp, self.to_bytes()).and_then(|()| std::fs::rename(&tmp, path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(Error::from(e));
        }
        Ok(())
    }

    /// [`Rooms::from_bytes`] of a file, at most `max_bytes` long (a longer or endless one is
    /// refused before it is read whole).
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read or is too long; then as
    /// [`Rooms::from_bytes`].
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, Point, Rooms};
    /// let rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?)?;
    /// let file = std::env::temp_dir().join(format!("signposts-rooms-load-{}.rooms", std::process::id()));
    /// rooms.save_to(&file)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// assert_eq!(Rooms::load_from(&file, 1 << 20)?.path(top, bottom), rooms.path(top, bottom));
    /// assert!(matches!(Rooms::load_from(&file, 10), Err(Error::Io { .. }))); // longer than 10 bytes
    /// std::fs::write(&file, b"not rooms")?;
    /// assert!(matches!(Rooms::load_from(&file, 1 << 20), Err(Error::Corrupt { .. })));
    /// std::fs::remove_file(&file)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_from(path: impl AsRef<std::path::Path>, max_bytes: u64) -> Result<Rooms, Error> {
        use std::io::Read as _;
        let path = path.as_ref();
        let mut bytes = Vec::new();
        std::fs::File::open(path)?.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > max_bytes {
            return Err(Error::from(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                "the file is too long",
            )));
        }
        Rooms::from_bytes(&bytes)
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

/// Reads the body, every read checked against what is left.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.bytes.len());
        let Some(end) = end else {
            return Err(Error::Corrupt { what: format!("truncated: {n} bytes wanted at byte {}", self.at) });
        };
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    fn f64(&mut self) -> Result<f64, Error> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    /// A `u64` count of items of at least `each` bytes, refused when the rest cannot hold them.
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
        let left = (self.bytes.len() - self.at) as u64;
        match n.checked_mul(each as u64) {
            Some(bytes) if bytes <= left => Ok(n as usize),
            _ => Err(Error::Corrupt {
                what: format!("a count of {n} at byte {} is more than the file holds", self.at - 8),
            }),
        }
    }
}
