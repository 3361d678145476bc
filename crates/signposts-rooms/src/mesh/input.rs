//! Input adapters: a tile grid, or polygons (a boundary and obstacles), turned into the
//! segments and the inside test that the triangulation takes. Nothing here knows regions.

use std::collections::HashMap;

mod simple;

use signposts::grid::{Cell, Grid};
use signposts::search::TileGrid;

use super::NavMesh;
use super::outline::{difference_outline, union_outline};
use super::radius::{CapsuleIndex, capsules};
use super::triangulate::triangulate;
use crate::Point;
use crate::error::{Error, Ring};
use crate::geom::{bounding_box, orient, segments_cross_properly, segments_touch, winding};
use simple::{Segments, first_bad_pair};

impl NavMesh {
    /// The mesh of a tile grid: cell `(x, y)` covers the square `[x, x + 1] × [y, y + 1]`, and
    /// the walkable area is the union of the open cells' closed squares, so two blocked cells
    /// that touch only at a corner leave that corner passable (a point door). Points are in
    /// cell units: the centre of cell `(x, y)` is `(x + 0.5, y + 0.5)`.
    ///
    /// # Errors
    /// [`Error::NothingWalkable`] when the grid has no open cell.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point};
    /// let grid = Grid::from_ascii("
    ///     ....
    ///     .##.
    ///     ....
    /// ")?;
    /// let mesh = NavMesh::from_grid(&grid)?;
    /// assert!(mesh.regions_len() >= 4 && mesh.regions_len() < 10); // a ring of rooms around the block
    /// assert!(mesh.region_at(Point::new(0.5, 1.5)).is_some());
    /// assert_eq!(mesh.region_at(Point::new(1.5, 1.5)), None); // inside the block
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Complexity
    /// O(cells) to trace the walls, then the triangulation of their corners: O(k log k) for
    /// `k` wall corners, and the merge.
    pub fn from_grid(grid: &Grid) -> Result<NavMesh, Error> {
        NavMesh::from_grid_for_radius(grid, 0.0)
    }

    /// [`NavMesh::from_grid`] for an agent of radius `radius` (in cells): the walkable area
    /// shrunk by the radius, so that a path keeps at least `radius` from every wall (and at
    /// most 2% more at outer corners); passages narrower than twice the radius close.
    ///
    /// # Errors
    /// [`Error::BadRadius`] for a negative or infinite radius; [`Error::NothingWalkable`]
    /// when nothing is left.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point};
    /// let grid = Grid::from_ascii("
    ///     ......
    ///     ......
    ///     @@.@@@
    ///     ......
    /// ")?;
    /// let thin = NavMesh::from_grid_for_radius(&grid, 0.4)?;
    /// assert!(thin.region_at(Point::new(2.5, 2.5)).is_some()); // the gap is 1 wide: 0.2 left
    /// assert_eq!(thin.region_at(Point::new(0.2, 0.5)), None); // too close to the edge
    /// let wide = NavMesh::from_grid_for_radius(&grid, 0.6)?;
    /// assert_eq!(wide.region_at(Point::new(2.5, 2.5)), None); // the gap closed
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_grid_for_radius(grid: &Grid, radius: f64) -> Result<NavMesh, Error> {
        if grid.passable_len() == 0 {
            return Err(Error::NothingWalkable);
        }
        let traced = trace(grid.width(), grid.height(), |x, y| u8::from(grid.is_passable(Cell::new(x, y))));
        #[expect(clippy::cast_sign_loss, reason = "x and y are checked non-negative first")]
        let area = |p: Point| {
            let (x, y) = (p.x.floor(), p.y.floor());
            (x >= 0.0 && y >= 0.0 && grid.is_passable(Cell::new(x as u32, y as u32))).then_some(0)
        };
        mesh_of(&traced.vertices, &traced.walls, &[], area, radius, false)
    }

    /// The mesh of a grid of tile tags (the core's [`TileGrid`]): tag 0 is blocked, and every
    /// other tag an area (floor, mud, water, lava…), kept apart by its own regions so that a
    /// layer ([`RoomsBuilder::area_costs`](crate::RoomsBuilder::area_costs)) can price it.
    /// Cells, points and pinches as in [`NavMesh::from_grid`]; `radius` as in
    /// [`NavMesh::from_grid_for_radius`] (0 for none).
    ///
    /// # Errors
    /// As [`NavMesh::from_grid_for_radius`].
    ///
    /// ```
    /// use signposts::search::TileGrid;
    /// use signposts_rooms::{NavMesh, Point};
    /// // Floor (1) with a pool of mud (2) in the middle.
    /// let tiles = TileGrid::try_from_fn(6, 4, |c| if (2..4).contains(&c.x) && (1..3).contains(&c.y) { 2 } else { 1 })?;
    /// let mesh = NavMesh::from_tiles(&tiles, 0.0)?;
    /// let mud = mesh.region_at(Point::new(3.0, 2.0)).unwrap();
    /// assert_eq!(mesh.area(mud), 2);
    /// assert_eq!(mesh.area(mesh.region_at(Point::new(0.5, 0.5)).unwrap()), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_tiles(tiles: &TileGrid, radius: f64) -> Result<NavMesh, Error> {
        let tag = |x: u32, y: u32| tiles.tag(Cell::new(x, y)).unwrap_or(0);
        let traced = trace(tiles.width(), tiles.height(), tag);
        if traced.walls.is_empty() && traced.borders.is_empty() {
            return Err(Error::NothingWalkable); // no open cell (an open grid has its edge as walls)
        }
        #[expect(clippy::cast_sign_loss, reason = "x and y are checked non-negative first")]
        let area = |p: Point| {
            let (x, y) = (p.x.floor(), p.y.floor());
            if x < 0.0 || y < 0.0 { None } else { Some(tag(x as u32, y as u32)).filter(|&t| t != 0) }
        };
        mesh_of(&traced.vertices, &traced.walls, &traced.borders, area, radius, false)
    }

    /// A builder for a mesh of polygons: a boundary and obstacles.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// let square = |x: f64, y: f64, s: f64| vec![Point::new(x, y), Point::new(x + s, y), Point::new(x + s, y + s), Point::new(x, y + s)];
    /// let mesh = NavMesh::builder().boundary(square(0.0, 0.0, 10.0)).obstacle(square(4.0, 4.0, 2.0)).build()?;
    /// assert!(mesh.region_at(Point::new(1.0, 1.0)).is_some());
    /// assert!(mesh.region_at(Point::new(5.0, 5.0)).is_none());
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn builder() -> NavMeshBuilder {
        NavMeshBuilder::default()
    }
}

/// Builds a [`NavMesh`] from an outer boundary and obstacles (holes), each a simple polygon in
/// either orientation. Overlapping obstacles are united; an obstacle that crosses the boundary
/// cuts it.
///
/// ```
/// use signposts_rooms::{NavMesh, Point};
/// let square = |x: f64, y: f64, side: f64| {
///     [(x, y), (x + side, y), (x + side, y + side), (x, y + side)].map(Point::from)
/// };
/// let mesh = NavMesh::builder()
///     .boundary(square(0.0, 0.0, 10.0))
///     .obstacle(square(2.0, 2.0, 3.0))
///     .obstacle(square(4.0, 4.0, 3.0)) // overlaps the first: they are united
///     .obstacle(square(8.0, 8.0, 4.0)) // crosses the boundary: cuts its corner off
///     .build()?;
/// assert_eq!(mesh.check(), Ok(()));
/// assert_eq!(mesh.region_at(Point::new(4.5, 4.5)), None); // inside both obstacles
/// assert_eq!(mesh.region_at(Point::new(9.0, 9.0)), None); // the corner cut off
/// assert!(mesh.region_at(Point::new(1.0, 9.0)).is_some());
/// # Ok::<(), signposts_rooms::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct NavMeshBuilder {
    boundary: Option<Vec<Point>>,
    obstacles: Vec<Vec<Point>>,
    radius: f64,
}

impl NavMeshBuilder {
    /// Sets the outer boundary (replacing any earlier one).
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// let square = |x: f64, y: f64, side: f64| {
    ///     [(x, y), (x + side, y), (x + side, y + side), (x, y + side)].map(Point::from)
    /// };
    /// let mesh = NavMesh::builder().boundary(square(0.0, 0.0, 1.0)).boundary(square(0.0, 0.0, 4.0)).build()?;
    /// assert!(mesh.region_at(Point::new(3.0, 3.0)).is_some()); // the second boundary
    /// assert_eq!(mesh.region_at(Point::new(5.0, 3.0)), None); // outside it
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn boundary(mut self, ring: impl IntoIterator<Item = Point>) -> NavMeshBuilder {
        self.boundary = Some(ring.into_iter().collect());
        self
    }

    /// Adds an obstacle.
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// let square = |x: f64, y: f64, side: f64| {
    ///     [(x, y), (x + side, y), (x + side, y + side), (x, y + side)].map(Point::from)
    /// };
    /// let mesh = NavMesh::builder().boundary(square(0.0, 0.0, 6.0)).obstacle(square(2.0, 2.0, 2.0)).build()?;
    /// assert_eq!(mesh.region_at(Point::new(3.0, 3.0)), None); // inside the obstacle
    /// assert!(mesh.region_at(Point::new(2.0, 3.0)).is_some()); // its edge is walkable
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn obstacle(mut self, ring: impl IntoIterator<Item = Point>) -> NavMeshBuilder {
        self.obstacles.push(ring.into_iter().collect());
        self
    }

    /// Shrinks the walkable area by an agent's radius (boundary and obstacles offset), so that
    /// paths keep at least `radius` from every wall (at most 2% more at outer corners).
    ///
    /// ```
    /// use signposts_rooms::{NavMesh, Point};
    /// let square = |x: f64, y: f64, side: f64| {
    ///     [(x, y), (x + side, y), (x + side, y + side), (x, y + side)].map(Point::from)
    /// };
    /// let mesh = NavMesh::builder().boundary(square(0.0, 0.0, 4.0)).agent_radius(0.5).build()?;
    /// assert_eq!(mesh.region_at(Point::new(0.25, 2.0)), None); // too close to the wall
    /// assert!(mesh.region_at(Point::new(0.75, 2.0)).is_some());
    /// # Ok::<(), signposts_rooms::Error>(())
    /// ```
    #[must_use]
    pub fn agent_radius(mut self, radius: f64) -> NavMeshBuilder {
        self.radius = radius;
        self
    }

    /// Every problem of the input, each naming its ring and vertex or edge (empty: valid).
    ///
    /// ```
    /// use signposts_rooms::{Error, NavMesh, Point, Ring};
    /// let bow_tie = [Point::new(0.0, 0.0), Point::new(4.0, 4.0), Point::new(4.0, 0.0), Point::new(0.0, 2.0)];
    /// let problems = NavMesh::builder().boundary(bow_tie).obstacle([Point::new(f64::NAN, 0.0)]).validate();
    /// assert!(matches!(problems[0], Error::SelfIntersecting { ring: Ring::Boundary, .. }));
    /// assert!(matches!(problems[1], Error::BadCoordinate { ring: Ring::Obstacle(0), vertex: 0, .. }));
    /// ```
    ///
    /// # Complexity
    /// `O(n log n)` for a ring of `n` vertices (a sweep finds two edges that meet, worst case);
    /// each obstacle is judged inside or outside by one winding test against the boundary
    /// each way and, when neither holds, a sweep over its edges and the boundary's edges within
    /// its bounding box. An obstacle's outside test is made only against a valid boundary;
    /// against an invalid one (already reported), an obstacle is outside when their bounding
    /// boxes are apart.
    #[must_use]
    pub fn validate(&self) -> Vec<Error> {
        let mut problems = Vec::new();
        let Some(boundary) = &self.boundary else {
            return vec![Error::NoBoundary];
        };
        let boundary_problem = ring_problem(Ring::Boundary, boundary);
        let valid_boundary = boundary_problem.is_none();
        problems.extend(boundary_problem);
        for (i, points) in self.obstacles.iter().enumerate() {
            if let Some(problem) = ring_problem(Ring::Obstacle(i), points) {
                problems.push(problem);
            } else if !obstacle_meets(boundary, points, valid_boundary) {
                problems.push(Error::ObstacleOutside { obstacle: i });
            }
        }
        if problems.is_empty() {
            problems.extend(super::outline::below_resolution(boundary, &self.obstacles));
        }
        problems
    }

    /// Builds the mesh.
    ///
    /// # Errors
    /// The first problem [`NavMeshBuilder::validate`] finds; [`Error::BadRadius`];
    /// [`Error::NothingWalkable`] when the obstacles (and the radius) cover everything.
    ///
    /// ```
    /// use signposts_rooms::{Error, NavMesh, Point};
    /// let square = |x: f64, y: f64, side: f64| {
    ///     [(x, y), (x + side, y), (x + side, y + side), (x, y + side)].map(Point::from)
    /// };
    /// let mesh = NavMesh::builder().boundary(square(0.0, 0.0, 4.0)).build()?;
    /// assert_eq!(mesh.regions_len(), 1); // a square is one convex region
    /// assert_eq!(NavMesh::builder().build().unwrap_err(), Error::NoBoundary);
    /// let covered = NavMesh::builder().boundary(square(1.0, 1.0, 2.0)).obstacle(square(0.0, 0.0, 4.0));
    /// assert_eq!(covered.build().unwrap_err(), Error::NothingWalkable);
    /// let bad = NavMesh::builder().boundary(square(0.0, 0.0, 4.0)).agent_radius(f64::NAN).build();
    /// assert!(matches!(bad, Err(Error::BadRadius { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn build(self) -> Result<NavMesh, Error> {
        if let Some(problem) = self.validate().into_iter().next() {
            return Err(problem);
        }
        let Some(boundary) = self.boundary.as_deref().map(dedup_ring) else { return Err(Error::NoBoundary) };
        let obstacles: Vec<Vec<Point>> = self.obstacles.iter().map(|r| dedup_ring(r)).collect();
        // Overlapping obstacles united and cut from the boundary by a robust boolean: the
        // walls handed to the triangulation meet only at their ends.
        let (vertices, segments) = difference_outline(&boundary, &obstacles);
        if vertices.is_empty() {
            return Err(Error::NothingWalkable);
        }
        let walkable = |p: Point| winding(&boundary, p) != 0 && obstacles.iter().all(|o| winding(o, p) == 0);
        mesh_of(&vertices, &segments, &[], |p| walkable(p).then_some(0), self.radius, true)
    }
}

#[cfg(feature = "test-support")]
impl NavMeshBuilder {
    /// Two edges of `ring` that meet other than at the vertex between them, as validation
    /// finds them (a sweep), and every such pair by testing each against each, both numbered
    /// along the ring without repeated points (`None` and none for fewer than three points).
    /// Feature `test-support` only: not part of the API.
    #[doc(hidden)]
    #[must_use]
    #[expect(clippy::type_complexity, reason = "a test hook's two answers")]
    #[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d")]
    pub fn ring_meeting_edges(ring: &[Point]) -> (Option<(usize, usize)>, Vec<(usize, usize)>) {
        let points = dedup_ring(ring);
        let n = points.len();
        if n < 3 {
            return (None, Vec::new());
        }
        let mut every = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let (a, b, c, d) = (points[i], points[(i + 1) % n], points[j], points[(j + 1) % n]);
                let adjacent = j == i + 1 || (i == 0 && j == n - 1);
                let bad =
                    if adjacent { segments_cross_properly(a, b, c, d) } else { segments_touch(a, b, c, d) };
                if bad {
                    every.push((i, j));
                }
            }
        }
        (self_intersection(&points), every)
    }
}

/// Triangulates the walls and area borders, keeping the triangles to which `area` gives an
/// area and that are farther than `radius` from every wall, and merges them into regions.
/// `grouped`: classify once per group of triangles joined across non-constraint edges (for
/// inputs whose `area` is costly and uniform between walls).
fn mesh_of(
    vertices: &[Point],
    walls: &[[u32; 2]],
    borders: &[[u32; 2]],
    area: impl Fn(Point) -> Option<u8>,
    radius: f64,
    grouped: bool,
) -> Result<NavMesh, Error> {
    super::radius::check_radius(vertices.iter().copied(), radius)?;
    let triangles = if radius == 0.0 {
        let segments: Vec<[u32; 2]> = walls.iter().chain(borders).copied().collect();
        triangulate(vertices, &segments, area, grouped).map_err(|point| Error::Unrepresentable { point })?
    } else {
        // The walls widened into capsules and united: the union's outline is the new boundary
        // of the walkable area (the walls themselves lie inside it). Area borders are added
        // whole: a border is axis-aligned on a tile grid and the outline's edges run at
        // multiples of 22.5°, so where they cross they cross at 22.5° or more, which the
        // triangulation splits soundly; the parts inside the capsules bound nothing walkable.
        let point = |&[a, b]: &[u32; 2]| (vertices[a as usize], vertices[b as usize]);
        let capsules = capsules(&walls.iter().map(point).collect::<Vec<_>>(), radius);
        let index = CapsuleIndex::new(&capsules, radius);
        let (mut vertices, mut segments) = union_outline(&capsules);
        for (a, b) in borders.iter().map(point) {
            segments.push([vertices.len() as u32, vertices.len() as u32 + 1]);
            vertices.extend([a, b]);
        }
        triangulate(&vertices, &segments, |p| area(p).filter(|_| !index.covers(p)), grouped)
            .map_err(|point| Error::Unrepresentable { point })?
    };
    if triangles.tris.is_empty() {
        return Err(Error::NothingWalkable);
    }
    Ok(NavMesh::from_triangles(&triangles))
}

/// The ring without repeated consecutive points (nor a closing copy of the first).
fn dedup_ring(points: &[Point]) -> Vec<Point> {
    let mut ring: Vec<Point> = Vec::with_capacity(points.len());
    for &p in points {
        if ring.last() != Some(&p) {
            ring.push(p);
        }
    }
    while ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    ring
}

/// What is wrong with one ring, if anything: a bad coordinate (the first, by its index in the
/// ring), fewer than three distinct points or all on one line, or two edges that meet other
/// than at the vertex between them (found by a sweep, `O(n log n)`; edges are numbered along
/// the ring without repeated points).
fn ring_problem(ring: Ring, points: &[Point]) -> Option<Error> {
    for (vertex, &point) in points.iter().enumerate() {
        let ok = |c: f64| {
            c.is_finite()
                && c.abs() <= spade::MAX_ALLOWED_VALUE
                && (c == 0.0 || c.abs() >= spade::MIN_ALLOWED_VALUE)
        };
        if !(ok(point.x) && ok(point.y)) {
            return Some(Error::BadCoordinate { ring, vertex, point });
        }
    }
    let points = dedup_ring(points);
    // Exactly on one line (a plain sum of the area would round a valid ring far from the
    // origin to zero, and a bow-tie's halves cancel: that one crosses itself, below).
    let first = points[0];
    let on_a_line = points
        .iter()
        .find(|&&p| p != first)
        .is_none_or(|&other| points.iter().all(|&p| orient(first, other, p) == 0.0));
    if points.len() < 3 || on_a_line {
        return Some(Error::Degenerate { ring });
    }
    self_intersection(&points).map(|(edge, other)| Error::SelfIntersecting { ring, edge, other })
}

/// Two edges of a ring (without repeated consecutive points, at least three) that meet other
/// than at the vertex between them, by the indices of their first vertices (the smaller
/// first); `None` when the ring is simple.
///
/// # Complexity
/// `O(n log n)` for `n` vertices, worst case (a sweep; see the `simple` module).
#[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d")]
fn self_intersection(points: &[Point]) -> Option<(usize, usize)> {
    let n = points.len();
    let edges: Vec<[u32; 2]> = (0..n).map(|i| [i as u32, ((i + 1) % n) as u32]).collect();
    let bad = |e: u32, f: u32| {
        let (i, j) = (e as usize, f as usize);
        let (a, b, c, d) = (points[i], points[(i + 1) % n], points[j], points[(j + 1) % n]);
        if (i + 1) % n == j || (j + 1) % n == i {
            segments_cross_properly(a, b, c, d)
        } else {
            segments_touch(a, b, c, d)
        }
    };
    first_bad_pair(&Segments { points, edges: &edges }, bad).map(|(e, f)| (e as usize, f as usize))
}

/// Whether a valid obstacle lies at least partly inside the boundary or meets it. Against a
/// valid boundary, exact: one of them holds a vertex of the other, or an edge of one meets an
/// edge of the other (a sweep over the obstacle's edges and the boundary's edges within its
/// bounding box). Against an invalid one (already reported), only whether their bounding
/// boxes meet.
#[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d")]
fn obstacle_meets(boundary: &[Point], obstacle: &[Point], valid_boundary: bool) -> bool {
    let (b, o) = (dedup_ring(boundary), dedup_ring(obstacle));
    let (lo, hi) = bounding_box(o.iter().copied());
    let in_box = |p: Point, q: Point| {
        p.x.max(q.x) >= lo.x && p.x.min(q.x) <= hi.x && p.y.max(q.y) >= lo.y && p.y.min(q.y) <= hi.y
    };
    let (blo, bhi) = bounding_box(b.iter().copied());
    if !in_box(blo, bhi) {
        return false;
    }
    if !valid_boundary {
        return true;
    }
    // Simple closed curves that do not meet: each lies wholly inside or wholly outside the
    // other, so one vertex of each tells.
    if winding(&b, o[0]) != 0 || winding(&o, b[0]) != 0 {
        return true;
    }
    let (nb, no) = (b.len(), o.len());
    let mut edges: Vec<[u32; 2]> = (0..nb)
        .filter(|&i| in_box(b[i], b[(i + 1) % nb]))
        .map(|i| [i as u32, ((i + 1) % nb) as u32])
        .collect();
    let first_obstacle_edge = edges.len() as u32;
    edges.extend((0..no).map(|i| [(nb + i) as u32, (nb + (i + 1) % no) as u32]));
    let points: Vec<Point> = b.iter().chain(&o).copied().collect();
    let bad = |e: u32, f: u32| {
        let [a, b] = edges[e as usize].map(|v| points[v as usize]);
        let [c, d] = edges[f as usize].map(|v| points[v as usize]);
        (e < first_obstacle_edge) != (f < first_obstacle_edge) && segments_touch(a, b, c, d)
    };
    first_bad_pair(&Segments { points: &points, edges: &edges }, bad).is_some()
}

/// A tile grid's walls (between an open cell and a blocked one or the outside) and area
/// borders (between open cells of different areas), as maximal straight segments between
/// integer corners, split at pinch corners (where two open cells meet only diagonally), so that
/// segments meet only at their ends.
struct Traced {
    vertices: Vec<Point>,
    walls: Vec<[u32; 2]>,
    borders: Vec<[u32; 2]>,
}

/// Traces the walls and borders of a `width × height` grid whose cell `(x, y)` has class
/// `class(x, y)`: 0 blocked, any other value open, different values different areas.
#[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d p q")]
fn trace(width: u32, height: u32, class: impl Fn(u32, u32) -> u8) -> Traced {
    let (w, h) = (i64::from(width), i64::from(height));
    #[expect(clippy::cast_sign_loss, reason = "x and y are checked non-negative first")]
    let class =
        |x: i64, y: i64| if x >= 0 && y >= 0 && x < w && y < h { class(x as u32, y as u32) } else { 0 };
    let open = |x: i64, y: i64| class(x, y) != 0;
    let pinch = |x: i64, y: i64| {
        let (nw, ne, sw, se) = (open(x - 1, y - 1), open(x, y - 1), open(x - 1, y), open(x, y));
        (nw && se && !ne && !sw) || (ne && sw && !nw && !se)
    };
    let mut index: HashMap<(i64, i64), u32> = HashMap::new();
    let mut out = Traced { vertices: Vec::new(), walls: Vec::new(), borders: Vec::new() };
    let mut vertex = |x: i64, y: i64, vertices: &mut Vec<Point>| {
        *index.entry((x, y)).or_insert_with(|| {
            vertices.push(Point::new(x as f64, y as f64));
            vertices.len() as u32 - 1
        })
    };
    // Horizontal lines `y` (cells (x, y − 1) and (x, y)), then vertical lines `x` (cells
    // (x − 1, y) and (x, y)): runs of one pair of classes.
    for horizontal in [true, false] {
        let (lines, length) = if horizontal { (h, w) } else { (w, h) };
        for line in 0..=lines {
            let pair = |k: i64| {
                if horizontal {
                    (class(k, line - 1), class(k, line))
                } else {
                    (class(line - 1, k), class(line, k))
                }
            };
            let corner = |k: i64| if horizontal { (k, line) } else { (line, k) };
            let mut k = 0;
            while k < length {
                let (a, b) = pair(k);
                if a == b {
                    k += 1;
                    continue;
                }
                let from = k;
                k += 1;
                while k < length && pair(k) == (a, b) && !pinch(corner(k).0, corner(k).1) {
                    k += 1;
                }
                let (p, q) = (corner(from), corner(k));
                let segment = [vertex(p.0, p.1, &mut out.vertices), vertex(q.0, q.1, &mut out.vertices)];
                if a == 0 || b == 0 { out.walls.push(segment) } else { out.borders.push(segment) }
            }
        }
    }
    out
}
