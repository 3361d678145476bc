//! The navigation mesh: convex regions, the doors between them, and point location. Built
//! once from an input ([`NavMesh::from_grid`], [`NavMesh::builder`]) and immutable after; a
//! door's state (open, closed, one way) lives in [`Rooms`](crate::Rooms), not here.
//!
//! A build runs through the files of this folder in order: an input adapter (`input`: a tile
//! grid or polygons; `text`: the polygon text format; `regions_input`: convex regions given
//! directly, and `join`) gives segments and an inside test, widened by an agent radius
//! (`radius`) and united (`outline`, robust booleans); `triangulate` makes the constrained
//! Delaunay triangulation, `merge` the convex regions; this file holds the mesh and its
//! queries, `locate` the point location.

mod input;
mod locate;
mod merge;
mod outline;
mod radius;
mod regions_input;
mod text;
mod triangulate;

use core::fmt;

pub use self::input::NavMeshBuilder;
use self::locate::{Locator, ring_contains};
pub(crate) use self::merge::Regions;
use self::merge::merge;
pub(crate) use self::triangulate::NONE;
use self::triangulate::Triangles;
use crate::Point;
use crate::geom::{bounding_box, magnitude, ulp};

/// A convex region of a [`NavMesh`].
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{NavMesh, Point, RegionId};
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
/// let r = mesh.region_at(Point::new(0.5, 0.5)).expect("walkable");
/// assert!((r.0 as usize) < mesh.regions_len()); // ids run from 0 to regions_len
/// assert_eq!(format!("{:?}", RegionId(2)), "r2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegionId(pub u32);

/// A door of a [`NavMesh`]: the edge two regions share, or the single point where two
/// regions on either side of a pinch touch.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{DoorId, NavMesh};
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
/// assert_eq!(mesh.doors_len(), 2); // into the bend round the wall, and out of it
/// let d = DoorId(1);
/// assert!(mesh.door(d).regions.iter().all(|&r| mesh.doors_of(r).contains(&d)));
/// assert_eq!(format!("{d:?}"), "d1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DoorId(pub u32);

impl fmt::Debug for RegionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.0)
    }
}

impl fmt::Debug for DoorId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.0)
    }
}

/// A door: its two regions and its segment.
///
/// ```
/// use signposts_rooms::{NavMesh, Point, RegionId};
/// // Two squares side by side, sharing the edge x = 2.
/// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
/// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
/// let door = mesh.doors()[0];
/// assert_eq!(door.regions, [RegionId(0), RegionId(1)]);
/// // Walking from the left square into the right one (towards +x, y up): left end first.
/// assert_eq!(door.ends, [Point::new(2.0, 2.0), Point::new(2.0, 0.0)]);
/// # Ok::<(), signposts_rooms::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Door {
    /// The two regions, the lower id first.
    pub regions: [RegionId; 2],
    /// The door's end points `[left, right]` as seen by someone walking from `regions[0]` into
    /// `regions[1]` (with `y` up; mirrored on screen when `y` points down). Equal for a
    /// point door.
    pub ends: [Point; 2],
}

impl Door {
    /// The door's ends `[left, right]` as seen walking out of `from` (which must be one of its
    /// regions) into the other.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point, RegionId};
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// let door = mesh.doors()[0]; // between squares 0 (left) and 1 (right)
    /// let (top, bottom) = (Point::new(2.0, 2.0), Point::new(2.0, 0.0));
    /// assert_eq!(door.ends_from(RegionId(0)), [top, bottom]); // walking towards +x, y up
    /// assert_eq!(door.ends_from(RegionId(1)), [bottom, top]); // and back
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn ends_from(&self, from: RegionId) -> [Point; 2] {
        if from == self.regions[0] { self.ends } else { [self.ends[1], self.ends[0]] }
    }

    /// The region on the other side from `from`.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point, RegionId};
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// let door = mesh.doors()[0];
    /// assert_eq!(door.other(RegionId(0)), RegionId(1));
    /// assert_eq!(door.other(RegionId(1)), RegionId(0));
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn other(&self, from: RegionId) -> RegionId {
        if from == self.regions[0] { self.regions[1] } else { self.regions[0] }
    }

    /// The door's midpoint.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.doors()[0].midpoint(), Point::new(2.0, 1.0)); // of (2, 0) – (2, 2)
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn midpoint(&self) -> Point {
        self.ends[0].midpoint(self.ends[1])
    }

    /// Whether the two regions touch at a single point (a pinch) rather than along an edge.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point};
    /// // Two open cells that meet only at their corner (1, 1).
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("@.\n.@")?)?;
    /// let door = mesh.doors()[0];
    /// assert!(door.is_point());
    /// assert_eq!(door.ends, [Point::new(1.0, 1.0); 2]);
    /// let wide = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// assert!(wide.doors().iter().all(|d| !d.is_point())); // edges, not points
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn is_point(&self) -> bool {
        self.ends[0] == self.ends[1]
    }
}

/// Convex regions covering the walkable area, with their doors.
///
/// The walkable area is closed: walls are walkable, and where two obstacles touch at a single
/// point (two blocked grid cells meeting at a corner) that point is passable, as a point door.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{NavMesh, Point};
/// // Two open cells meeting only at a corner: two regions, and a point door between them.
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("@.\n.@")?)?;
/// assert_eq!((mesh.regions_len(), mesh.doors_len()), (2, 1));
/// assert!(mesh.doors()[0].is_point());
/// assert!(mesh.region_at(Point::new(1.0, 1.0)).is_some()); // the corner is walkable
/// assert_eq!(mesh.check(), Ok(()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct NavMesh {
    vertices: Vec<Point>,
    /// Each region's area tag.
    areas: Vec<u8>,
    /// Region `r`'s ring: `ring[start[r]..start[r + 1]]`, counter-clockwise with `y` up.
    start: Vec<u32>,
    ring: Vec<u32>,
    /// Region `r`'s doors (edge doors in ring order, then point doors): `region_doors[door_start[r]..door_start[r + 1]]`.
    door_start: Vec<u32>,
    region_doors: Vec<DoorId>,
    doors: Vec<Door>,
    centroids: Vec<Point>,
    /// Each region's bounding box.
    boxes: Vec<(Point, Point)>,
    locator: Locator,
    /// The box holding every region.
    bounds: (Point, Point),
}

/// How far outside a region's edge a point may lie and still count as in the region, in units
/// in the last place of the coordinates involved (the point's and the edge's ends'):
/// [`NavMesh::region_at`].
const SNAP_ULPS: f64 = 8.0;

impl fmt::Debug for NavMesh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NavMesh")
            .field("regions", &self.regions_len())
            .field("doors", &self.doors.len())
            .field("vertices", &self.vertices.len())
            .finish_non_exhaustive()
    }
}

impl NavMesh {
    /// The mesh of walkable triangles, merged into convex regions.
    pub(crate) fn from_triangles(t: &Triangles) -> NavMesh {
        // Pinch vertices stay corners of their regions (even where a region's side is straight
        // through one), so that the regions around them can be told apart after merging.
        let rings: Vec<Vec<u32>> = t.tris.iter().map(|x| x.to_vec()).collect();
        let across: Vec<Vec<u32>> = t.across.iter().map(|x| x.to_vec()).collect();
        let mut keep = vec![false; t.vertices.len()];
        for (v, _) in pinches(t.vertices.len(), &rings, &across) {
            keep[v as usize] = true;
        }
        NavMesh::from_regions_parts(t.vertices.clone(), &merge(t, &keep))
    }

    /// The mesh of convex regions (counter-clockwise rings, their neighbours across each edge,
    /// their areas): doors from the shared edges, point doors at pinches.
    pub(crate) fn from_regions_parts(vertices: Vec<Point>, regions: &Regions) -> NavMesh {
        let Regions { rings, across, areas } = regions;
        let mut mesh = NavMesh {
            vertices,
            areas: areas.clone(),
            start: vec![0],
            ring: Vec::new(),
            door_start: vec![0],
            region_doors: Vec::new(),
            doors: Vec::new(),
            centroids: Vec::new(),
            boxes: Vec::new(),
            locator: Locator::default(),
            bounds: bounding_box([]),
        };
        // Edge doors, numbered in the order of their lower region and its ring.
        let mut door_of: Vec<Vec<u32>> = across.iter().map(|a| vec![NONE; a.len()]).collect();
        for (r, ring) in rings.iter().enumerate() {
            for (i, &s) in across[r].iter().enumerate() {
                if s == NONE || (s as usize) < r {
                    continue;
                }
                let (p, q) = (ring[i], ring[(i + 1) % ring.len()]);
                let id = mesh.doors.len() as u32;
                mesh.doors.push(Door {
                    regions: [RegionId(r as u32), RegionId(s)],
                    ends: [mesh.vertices[q as usize], mesh.vertices[p as usize]],
                });
                door_of[r][i] = id;
                // The same edge in `s`'s ring runs q → p.
                let back = (0..rings[s as usize].len())
                    .find(|&j| {
                        let ring_s = &rings[s as usize];
                        across[s as usize][j] == r as u32
                            && ring_s[j] == q
                            && ring_s[(j + 1) % ring_s.len()] == p
                    })
                    .expect("a shared edge appears in both rings");
                door_of[s as usize][back] = id;
            }
        }
        let mut point_doors: Vec<Vec<u32>> = vec![Vec::new(); rings.len()];
        for (v, groups) in pinches(mesh.vertices.len(), rings, across) {
            for pair in groups.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let id = mesh.doors.len() as u32;
                let point = mesh.vertices[v as usize];
                mesh.doors
                    .push(Door { regions: [RegionId(a.min(b)), RegionId(a.max(b))], ends: [point, point] });
                point_doors[a as usize].push(id);
                point_doors[b as usize].push(id);
            }
        }
        for (r, ring) in rings.iter().enumerate() {
            mesh.ring.extend_from_slice(ring);
            mesh.start.push(mesh.ring.len() as u32);
            mesh.region_doors.extend(door_of[r].iter().filter(|&&d| d != NONE).map(|&d| DoorId(d)));
            mesh.region_doors.extend(point_doors[r].iter().map(|&d| DoorId(d)));
            mesh.door_start.push(mesh.region_doors.len() as u32);
            let points: Vec<Point> = ring.iter().map(|&v| mesh.vertices[v as usize]).collect();
            mesh.centroids.push(centroid(&points));
            mesh.boxes.push(bounding_box(points));
        }
        let polygons: Vec<Vec<Point>> =
            (0..rings.len()).map(|r| mesh.polygon(RegionId(r as u32)).collect()).collect();
        mesh.locator = Locator::new(&polygons);
        mesh.bounds = bounding_box(polygons.iter().flatten().copied());
        mesh
    }

    /// The vertices that regions' corners index ([`NavMesh::region_vertices`]).
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.vertices(), &v); // as given (`from_grid` makes its own)
    /// assert_eq!(mesh.vertices().len(), mesh.vertices_len());
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// Region `r`'s corners as indices into [`NavMesh::vertices`], counter-clockwise with `y`
    /// up: with `vertices`, what [`NavMesh::from_regions`] takes back.
    ///
    /// # Panics
    /// If `r` is out of range.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point, RegionId};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.region_vertices(RegionId(1)), &[1, 4, 5, 2]);
    /// let rings: Vec<Vec<u32>> = (0..2).map(|r| mesh.region_vertices(RegionId(r)).to_vec()).collect();
    /// let again = NavMesh::from_regions(mesh.vertices(), &rings)?; // the same mesh back
    /// assert_eq!(again.doors(), mesh.doors());
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn region_vertices(&self, r: RegionId) -> &[u32] {
        &self.ring[self.start[r.0 as usize] as usize..self.start[r.0 as usize + 1] as usize]
    }

    /// Region `r`'s neighbour across each edge of its ring (`NONE` for a wall).
    pub(crate) fn across(&self, r: RegionId) -> Vec<u32> {
        let ring = self.region_vertices(r);
        (0..ring.len())
            .map(|i| {
                let (p, q) = (ring[i], ring[(i + 1) % ring.len()]);
                self.doors_of(r)
                    .iter()
                    .map(|&d| self.door(d))
                    .find(|d| {
                        !d.is_point()
                            && d.ends_from(r) == [self.vertices[q as usize], self.vertices[p as usize]]
                    })
                    .map_or(NONE, |d| d.other(r).0)
            })
            .collect()
    }

    /// Number of regions.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.regions_len(), 2);
    /// assert!(mesh.region_at(Point::new(3.0, 1.0)).is_some_and(|r| (r.0 as usize) < mesh.regions_len()));
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn regions_len(&self) -> usize {
        self.centroids.len()
    }

    /// Number of doors (edge doors and point doors).
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.doors_len(), 1); // the shared edge
    /// assert_eq!(mesh.doors_len(), mesh.doors().len());
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn doors_len(&self) -> usize {
        self.doors.len()
    }

    /// Number of vertices of the triangulation the regions were merged from.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.vertices_len(), 6); // the corners given: the shared edge's ends once
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn vertices_len(&self) -> usize {
        self.vertices.len()
    }

    /// The corners of region `r`, counter-clockwise with `y` up (clockwise on a screen whose
    /// `y` points down).
    ///
    /// # Panics
    /// If `r` is out of range.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point, RegionId};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// let corners: Vec<Point> = mesh.polygon(RegionId(1)).collect();
    /// let square = [(2.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0)].map(Point::from);
    /// assert_eq!(corners, square); // counter-clockwise with y up
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn polygon(&self, r: RegionId) -> impl ExactSizeIterator<Item = Point> + Clone + '_ {
        let range = self.start[r.0 as usize] as usize..self.start[r.0 as usize + 1] as usize;
        self.ring[range].iter().map(|&v| self.vertices[v as usize])
    }

    /// The doors of region `r`.
    ///
    /// # Panics
    /// If `r` is out of range.
    ///
    /// ```
    /// use signposts_rooms::{DoorId, NavMesh, Point, RegionId};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.doors_of(RegionId(0)), &[DoorId(0)]);
    /// assert_eq!(mesh.doors_of(RegionId(1)), &[DoorId(0)]); // the same door, seen from each side
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn doors_of(&self, r: RegionId) -> &[DoorId] {
        &self.region_doors[self.door_start[r.0 as usize] as usize..self.door_start[r.0 as usize + 1] as usize]
    }

    /// Door `d`.
    ///
    /// # Panics
    /// If `d` is out of range.
    ///
    /// ```
    /// use signposts_rooms::{DoorId, NavMesh, Point, RegionId};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// let door = mesh.door(DoorId(0));
    /// assert_eq!(door.regions, [RegionId(0), RegionId(1)]);
    /// assert_eq!(door.midpoint(), Point::new(2.0, 1.0));
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn door(&self, d: DoorId) -> &Door {
        &self.doors[d.0 as usize]
    }

    /// Every door, in id order.
    ///
    /// ```
    /// use signposts_rooms::{DoorId, NavMesh, Point};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.doors().len(), 1);
    /// assert_eq!(mesh.doors()[0], *mesh.door(DoorId(0)));
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn doors(&self) -> &[Door] {
        &self.doors
    }

    /// The area tag of region `r` (0 on meshes without areas; a tile's tag on
    /// [`NavMesh::from_tiles`]).
    ///
    /// # Panics
    /// If `r` is out of range.
    ///
    /// ```
    /// use signposts::search::TileGrid;
    /// use signposts_rooms::{NavMesh, Point, RegionId};
    /// // Floor (tag 1) on the left, water (tag 3) on the right.
    /// let tiles = TileGrid::try_from_fn(4, 2, |c| if c.x < 2 { 1 } else { 3 })?;
    /// let mesh = NavMesh::from_tiles(&tiles, 0.0)?;
    /// let area_at = |x, y| mesh.area(mesh.region_at(Point::new(x, y)).expect("walkable"));
    /// assert_eq!((area_at(0.5, 0.5), area_at(3.5, 1.5)), (1, 3));
    /// let plain = NavMesh::from_grid(&signposts::grid::Grid::from_ascii("..")?)?;
    /// assert_eq!(plain.area(RegionId(0)), 0); // a grid without areas
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn area(&self, r: RegionId) -> u8 {
        self.areas[r.0 as usize]
    }

    /// The area centroid of region `r`.
    ///
    /// # Panics
    /// If `r` is out of range.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point, RegionId};
    /// // Two squares side by side, sharing the edge x = 2.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!(mesh.centroid(RegionId(0)), Point::new(1.0, 1.0));
    /// assert_eq!(mesh.centroid(RegionId(1)), Point::new(3.0, 1.0));
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn centroid(&self, r: RegionId) -> Point {
        self.centroids[r.0 as usize]
    }

    /// The region holding `p` (its boundary included: a point on a door belongs to either
    /// side), or `None` when `p` is outside the walkable area or not finite.
    ///
    /// Containment is decided exactly. A point outside every region by at most a few units in
    /// the last place of the coordinates counts as in the nearest one: where input edges
    /// cross, the crossing point is rounded to `f64`, so a point exactly on such an edge may
    /// miss its region by that rounding. The allowance past each edge is 8 ulps of the point's
    /// coordinates plus of the edge's ends', each end's weighed by its nearness: relative to
    /// the coordinates, never to the map's size (on a map 1e15 across, a point a thousandth
    /// inside a wall near the origin is not walkable).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii(".#.")?)?;
    /// assert!(mesh.region_at(Point::new(1.0, 0.5)).is_some()); // on the wall: walkable
    /// assert_eq!(mesh.region_at(Point::new(1.5, 0.5)), None); // inside it
    /// assert_eq!(mesh.region_at(Point::new(f64::NAN, 0.5)), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Complexity
    /// One bucket of the point locator: O(1) expected on meshes whose regions are of similar
    /// size, each candidate tested in O(its corners).
    #[must_use]
    #[inline]
    pub fn region_at(&self, p: Point) -> Option<RegionId> {
        let (candidates, surely) = self.locator.candidates(p);
        if surely {
            return Some(RegionId(candidates[0]));
        }
        if let Some(&r) = candidates.iter().find(|&&r| {
            let ring = &self.ring[self.start[r as usize] as usize..self.start[r as usize + 1] as usize];
            ring_contains(&self.vertices, ring, self.boxes[r as usize], p)
        }) {
            return Some(RegionId(r));
        }
        candidates
            .iter()
            .filter_map(|&r| Some((within_snap(self.polygon(RegionId(r)), p)?, r)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, r)| RegionId(r))
    }

    /// The box holding every region.
    pub(crate) fn bounds(&self) -> (Point, Point) {
        self.bounds
    }

    /// The length of the diagonal of the box holding every region (0 without regions).
    pub(crate) fn diagonal(&self) -> f64 {
        let (lo, hi) = self.bounds;
        if lo.x <= hi.x { lo.distance(hi) } else { 0.0 }
    }

    /// The other regions holding `p` besides `first` (a point on a door or a shared corner
    /// lies in several), for choosing among them.
    pub(crate) fn other_regions_at(&self, p: Point, first: RegionId) -> impl Iterator<Item = RegionId> + '_ {
        let (candidates, surely) = self.locator.candidates(p);
        let candidates = if surely { &[][..] } else { candidates };
        candidates.iter().map(|&r| RegionId(r)).filter(move |&r| {
            r != first && {
                let ring =
                    &self.ring[self.start[r.0 as usize] as usize..self.start[r.0 as usize + 1] as usize];
                ring_contains(&self.vertices, ring, self.boxes[r.0 as usize], p)
            }
        })
    }

    /// Checks the mesh's invariants, for tests and fuzzing: every region convex,
    /// counter-clockwise and of positive area (decided exactly); every door between two different regions, an
    /// edge of both (with its ends the same way round) or a point shared by both; every
    /// region's door list holding exactly its doors; every region found at its centroid.
    ///
    /// # Errors
    /// The first broken invariant, said in words.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// let mesh = signposts_rooms::NavMesh::from_grid(&Grid::from_ascii("..#\n...\n#..")?)?;
    /// assert_eq!(mesh.check(), Ok(()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(&self) -> Result<(), String> {
        for r in 0..self.regions_len() as u32 {
            let region = RegionId(r);
            let ring: Vec<Point> = self.polygon(region).collect();
            let n = ring.len();
            // Decided exactly: a sliver's area in floating point can round to zero or below.
            let turns: Vec<f64> = (0..n)
                .map(|i| crate::geom::orient(ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]))
                .collect();
            if let Some(i) = turns.iter().position(|&t| t < 0.0) {
                return Err(format!("region {r} is not convex (or clockwise) at corner {i}: {ring:?}"));
            }
            if n < 3 || turns.iter().all(|&t| t == 0.0) {
                return Err(format!("region {r} has no area: {ring:?}"));
            }
            if self.region_at(self.centroid(region)).is_none() {
                return Err(format!("region {r}'s centroid {} is located nowhere", self.centroid(region)));
            }
            for &d in self.doors_of(region) {
                if !self.door(d).regions.contains(&region) {
                    return Err(format!(
                        "region {r} lists door {} of regions {:?}",
                        d.0,
                        self.door(d).regions
                    ));
                }
            }
        }
        for (d, door) in self.doors.iter().enumerate() {
            let [a, b] = door.regions;
            if a == b || a.0 as usize >= self.regions_len() || b.0 as usize >= self.regions_len() {
                return Err(format!("door {d} joins regions {a:?} and {b:?}"));
            }
            for side in [a, b] {
                if !self.doors_of(side).contains(&DoorId(d as u32)) {
                    return Err(format!("door {d} is missing from region {}'s doors", side.0));
                }
                let ring: Vec<Point> = self.polygon(side).collect();
                let n = ring.len();
                let [left, right] = door.ends_from(side);
                let found = if door.is_point() {
                    ring.contains(&left)
                } else {
                    (0..n).any(|i| ring[i] == right && ring[(i + 1) % n] == left)
                };
                if !found {
                    return Err(format!("door {d} ({:?}) is not on region {}'s boundary", door.ends, side.0));
                }
            }
        }
        Ok(())
    }

    /// The bytes the mesh holds.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Door, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let at_least = mesh.vertices_len() * size_of::<Point>() + mesh.doors_len() * size_of::<Door>();
    /// assert!(mesh.memory_bytes() >= at_least);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.vertices.len() * size_of::<Point>()
            + (self.start.len() + self.ring.len() + self.door_start.len() + self.region_doors.len()) * 4
            + self.doors.len() * size_of::<Door>()
            + self.centroids.len() * size_of::<Point>()
            + self.boxes.len() * size_of::<(Point, Point)>()
            + self.locator.memory_bytes()
    }
}

/// How far `p` is outside a convex counter-clockwise polygon (0 inside), when it is outside
/// each edge by no more than the rounding of that edge near it (`None` when farther out): where
/// input edges cross, the corner made is rounded to `f64` (half an ulp of its coordinates), and
/// the edge moves near `p` by the rounding of its ends weighed by how near each is. So the
/// allowance is [`SNAP_ULPS`] units in the last place of `p`'s coordinates plus of each end's,
/// weighed by the nearest point's place along the edge: a point a unit inside a wall near the
/// origin is not walkable, whatever the far end of the wall's edge.
fn within_snap(ring: impl Iterator<Item = Point> + Clone, p: Point) -> Option<f64> {
    let mut next = ring.clone().cycle().skip(1);
    ring.map(|a| {
        let b = next.next().expect("a cycle");
        if crate::geom::orient(a, b, p) >= 0.0 {
            return Some(0.0);
        }
        let (d, t) = crate::geom::segment_distance(a, b, p);
        let rounding = ulp(magnitude([p])) + (1.0 - t) * ulp(magnitude([a])) + t * ulp(magnitude([b]));
        (d <= SNAP_ULPS * rounding).then_some(d)
    })
    .try_fold(0.0, |most, d| Some(f64::max(most, d?)))
}

/// The area centroid of a polygon (its vertex mean when it has no area).
#[expect(clippy::many_single_char_names, reason = "points of a figure: o p q c, area a")]
fn centroid(ring: &[Point]) -> Point {
    // Relative to the first corner, so that a small region far from the origin keeps its
    // digits.
    let o = ring[0];
    let n = ring.len();
    let (mut a, mut cx, mut cy) = (0.0, 0.0, 0.0);
    for i in 1..n - 1 {
        let (p, q) = (
            Point::new(ring[i].x - o.x, ring[i].y - o.y),
            Point::new(ring[i + 1].x - o.x, ring[i + 1].y - o.y),
        );
        let cross = p.x * q.y - q.x * p.y;
        a += cross;
        cx += (p.x + q.x) * cross;
        cy += (p.y + q.y) * cross;
    }
    let mean = || {
        let k = n as f64;
        Point::new(ring.iter().map(|p| p.x).sum::<f64>() / k, ring.iter().map(|p| p.y).sum::<f64>() / k)
    };
    if a <= 0.0 || !a.is_finite() {
        return mean(); // no area to weigh by (a sliver left by rounding)
    }
    let c = Point::new(o.x + cx / (3.0 * a), o.y + cy / (3.0 * a));
    // A sliver's area is mostly rounding: keep the centroid only where it lies in the region.
    if locate::convex_contains(ring.iter().copied(), c) { c } else { mean() }
}

/// The vertices where the walkable area pinches: the regions around them fall into two or more
/// groups joined only at the vertex (not across an edge that ends there). Each comes with one
/// region of each group.
fn pinches(vertices: usize, rings: &[Vec<u32>], across: &[Vec<u32>]) -> Vec<(u32, Vec<u32>)> {
    let mut around: Vec<Vec<u32>> = vec![Vec::new(); vertices];
    for (r, ring) in rings.iter().enumerate() {
        for &v in ring {
            around[v as usize].push(r as u32);
        }
    }
    let mut out = Vec::new();
    for (v, regions) in around.iter().enumerate() {
        if regions.len() < 2 {
            continue;
        }
        // Groups: regions joined across an edge at `v`.
        let mut group: Vec<u32> = (0..regions.len() as u32).collect();
        let root = |group: &[u32], mut i: u32| {
            while group[i as usize] != i {
                i = group[i as usize];
            }
            i
        };
        for (k, &r) in regions.iter().enumerate() {
            let ring = &rings[r as usize];
            let corner = ring.iter().position(|&x| x == v as u32).expect("v is a corner");
            for edge in [corner, (corner + ring.len() - 1) % ring.len()] {
                let other = across[r as usize][edge];
                if let Some(j) = regions.iter().position(|&x| x == other) {
                    let (a, b) = (root(&group, k as u32), root(&group, j as u32));
                    group[a.max(b) as usize] = a.min(b);
                }
            }
        }
        let mut firsts: Vec<u32> = Vec::new();
        let mut seen: Vec<u32> = Vec::new();
        for k in 0..regions.len() as u32 {
            let g = root(&group, k);
            if !seen.contains(&g) {
                seen.push(g);
                firsts.push(regions[k as usize]);
            }
        }
        if firsts.len() >= 2 {
            out.push((v as u32, firsts));
        }
    }
    out
}
