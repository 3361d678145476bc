//! Input adapter: convex regions given directly (as exported from a level editor), validated
//! and joined into doors where they share edges.

mod overlap;

use super::NavMesh;
use super::merge::Regions;
use super::triangulate::NONE;
use crate::Point;
use crate::error::{Error, Ring};
use crate::geom::{bounding_box, orient};

impl NavMesh {
    /// A mesh of convex regions given directly: `vertices`, and each region as indices into
    /// them, in either orientation. Regions that share an edge (the same two vertices) are
    /// joined by a door; regions that touch at a single vertex, by a point door.
    ///
    /// # Errors
    /// Every region is checked, and the first problem is returned, naming the region and the
    /// vertex or edge:
    /// - [`Error::OutOfRange`]: a vertex index past `vertices`.
    /// - [`Error::BadCoordinate`]: a vertex that is not finite.
    /// - [`Error::Degenerate`]: fewer than three distinct vertices, or no area.
    /// - [`Error::NotConvex`]: a reflex corner.
    /// - [`Error::Overlapping`]: two regions whose interiors overlap.
    /// - [`Error::UnmatchedEdge`]: two regions touching along part of an edge without sharing
    ///   its two vertices (a T-junction: split the longer edge at the other's vertex).
    ///
    /// ```
    /// use signposts_rooms::{Error, NavMesh, Point, Ring};
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (4.0, 0.0), (4.0, 2.0)].map(Point::from);
    /// let mesh = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 5, 2]])?;
    /// assert_eq!((mesh.regions_len(), mesh.doors_len()), (2, 1));
    /// let reflex = NavMesh::from_regions(&v, &[vec![0, 1, 2, 3], vec![1, 4, 2, 5]]);
    /// assert!(matches!(reflex, Err(Error::NotConvex { region: 1, .. }) | Err(Error::Degenerate { ring: Ring::Region(1) })));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Complexity
    /// `O(n log n)` for `n` edges in all (a sweep over the edges finds the regions that may
    /// overlap; see the `overlap` module), worst case.
    pub fn from_regions(vertices: &[Point], regions: &[Vec<u32>]) -> Result<NavMesh, Error> {
        NavMesh::from_regions_by(vertices, regions, false)
    }

    /// [`NavMesh::from_regions`] with every two regions whose bounding boxes meet tested
    /// against each other instead of the sweep (quadratic): the reference the sweep is tested
    /// against. Feature `test-support` only: not part of the API.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    pub fn from_regions_by_pairs(vertices: &[Point], regions: &[Vec<u32>]) -> Result<NavMesh, Error> {
        NavMesh::from_regions_by(vertices, regions, true)
    }

    fn from_regions_by(vertices: &[Point], regions: &[Vec<u32>], by_pairs: bool) -> Result<NavMesh, Error> {
        let mut rings: Vec<Vec<u32>> = Vec::with_capacity(regions.len());
        for (r, region) in regions.iter().enumerate() {
            rings.push(checked_ring(vertices, r, region)?);
        }
        // Shared edges: `u → v` in one ring, `v → u` in another.
        let mut edges: std::collections::HashMap<(u32, u32), u32> = std::collections::HashMap::new();
        for (r, ring) in rings.iter().enumerate() {
            for i in 0..ring.len() {
                let edge = (ring[i], ring[(i + 1) % ring.len()]);
                if let Some(&other) = edges.get(&edge) {
                    return Err(Error::Overlapping { region: other as usize, other: r });
                }
                edges.insert(edge, r as u32);
            }
        }
        let across: Vec<Vec<u32>> = rings
            .iter()
            .map(|ring| {
                (0..ring.len())
                    .map(|i| edges.get(&(ring[(i + 1) % ring.len()], ring[i])).copied().unwrap_or(NONE))
                    .collect()
            })
            .collect();
        // One sweep finds two regions that may overlap or touch along part of an edge; the
        // exact test of that pair says how (every pair tested only if the sweep's pair clears,
        // which input of edges of no length can cause).
        if by_pairs {
            if let Some(problem) = every_pair_problem(vertices, &rings, &across) {
                return Err(problem);
            }
        } else if let Some(pairs) = overlap::first_conflict(vertices, &rings) {
            let pair = |&(a, b): &(u32, u32)| pair_problem(vertices, &rings, &across, a as usize, b as usize);
            let problem = pairs.iter().find_map(pair).or_else(|| {
                debug_assert!(
                    rings.iter().any(|r| (0..r.len())
                        .any(|i| vertices[r[i] as usize] == vertices[r[(i + 1) % r.len()] as usize])),
                    "none of the sweep's regions {pairs:?} has a problem"
                );
                every_pair_problem(vertices, &rings, &across)
            });
            if let Some(problem) = problem {
                return Err(problem);
            }
        }
        let areas = vec![0; rings.len()];
        Ok(NavMesh::from_regions_parts(vertices.to_vec(), &Regions { rings, across, areas }))
    }
}

impl NavMesh {
    /// Several meshes in one world, each moved by its offset: the floors of a building side by
    /// side (drawn apart so that they do not overlap), to be joined by links (stairs, lifts,
    /// ladders; [`RoomsBuilder::link`](crate::RoomsBuilder::link)). Regions keep their areas;
    /// parts whose regions come to share an edge (both corners at the same places) get a door
    /// there.
    ///
    /// # Errors
    /// As [`NavMesh::from_regions`]: [`Error::Overlapping`] when two parts overlap,
    /// [`Error::UnmatchedEdge`] when they touch along part of an edge only.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, PathStep, Point, Rooms};
    /// let floor = NavMesh::from_grid(&Grid::from_ascii("....\n....")?)?;
    /// // The first floor drawn 10 to the right of the ground floor; stairs between them.
    /// let building = NavMesh::join(&[(&floor, Point::new(0.0, 0.0)), (&floor, Point::new(10.0, 0.0))])?;
    /// let rooms = Rooms::builder(&building).link(Point::new(3.5, 0.5), Point::new(13.5, 0.5), 4.0, true).build()?;
    /// let path = rooms.path(Point::new(0.5, 1.5), Point::new(10.5, 1.5)).expect("up the stairs");
    /// assert!(path.steps().any(|s| matches!(s, PathStep::Link { .. })));
    /// // Two halves drawn touching become one floor, with doors along the seam.
    /// let half = NavMesh::from_grid(&Grid::from_ascii("..\n..")?)?;
    /// let whole = NavMesh::join(&[(&half, Point::new(0.0, 0.0)), (&half, Point::new(2.0, 0.0))])?;
    /// assert!(Rooms::build(&whole)?.path(Point::new(0.5, 0.5), Point::new(3.5, 1.5)).is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn join(parts: &[(&NavMesh, Point)]) -> Result<NavMesh, Error> {
        let (mut vertices, mut rings, mut areas) = (Vec::new(), Vec::new(), Vec::new());
        // Vertices at the same place are one vertex, so that parts that touch share doors.
        let mut index: std::collections::HashMap<(u64, u64), u32> = std::collections::HashMap::new();
        for &(mesh, offset) in parts {
            let ids: Vec<u32> = mesh
                .vertices()
                .iter()
                .map(|p| {
                    let q = Point::new(p.x + offset.x, p.y + offset.y);
                    *index.entry((q.x.to_bits(), q.y.to_bits())).or_insert_with(|| {
                        vertices.push(q);
                        vertices.len() as u32 - 1
                    })
                })
                .collect();
            for r in 0..mesh.regions_len() as u32 {
                rings.push(
                    mesh.region_vertices(crate::RegionId(r))
                        .iter()
                        .map(|&v| ids[v as usize])
                        .collect::<Vec<u32>>(),
                );
                areas.push(mesh.area(crate::RegionId(r)));
            }
        }
        NavMesh::from_regions_in_areas(&vertices, &rings, areas)
    }
}

/// The region's ring, counter-clockwise, after checking its vertices, area and convexity.
fn checked_ring(vertices: &[Point], r: usize, region: &[u32]) -> Result<Vec<u32>, Error> {
    let ring = Ring::Region(r);
    let mut out: Vec<u32> = Vec::with_capacity(region.len());
    for (i, &v) in region.iter().enumerate() {
        let Some(&point) = vertices.get(v as usize) else {
            return Err(Error::OutOfRange { what: "vertex", id: v, len: vertices.len() });
        };
        if !point.is_finite()
            || point.x.abs() > spade::MAX_ALLOWED_VALUE
            || point.y.abs() > spade::MAX_ALLOWED_VALUE
        {
            return Err(Error::BadCoordinate { ring, vertex: i, point });
        }
        if out.last() != Some(&v) {
            out.push(v);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    if out.len() < 3 {
        return Err(Error::Degenerate { ring });
    }
    // Orientation and convexity from the exact turn at each corner: a sliver's floating-point
    // area can round to zero, or to the wrong sign.
    let pts = points(vertices, &out);
    let n = pts.len();
    let turns: Vec<f64> = (0..n).map(|i| orient(pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n])).collect();
    let (left, right) = (turns.iter().any(|&t| t > 0.0), turns.iter().any(|&t| t < 0.0));
    match (left, right) {
        (false, false) => return Err(Error::Degenerate { ring }),
        (true, true) => {
            // The corner turning against the ring's overall orientation.
            let clockwise = crate::geom::signed_area2(&pts) < 0.0;
            let vertex = turns.iter().position(|&t| if clockwise { t > 0.0 } else { t < 0.0 }).unwrap_or(0);
            return Err(Error::NotConvex { region: r, vertex });
        }
        (false, true) => out.reverse(),
        (true, false) => {}
    }
    Ok(out)
}

/// What is wrong between regions `a` and `b`, tested exactly: their interiors overlap, or an
/// edge of one runs along part of an edge of the other.
fn pair_problem(
    vertices: &[Point],
    rings: &[Vec<u32>],
    across: &[Vec<u32>],
    a: usize,
    b: usize,
) -> Option<Error> {
    let (a, b) = (a.min(b), a.max(b));
    let bounds = |r: usize| bounding_box(rings[r].iter().map(|&v| vertices[v as usize]));
    if a == b || b >= rings.len() || !boxes_meet(bounds(a), bounds(b)) {
        return None;
    }
    let (pa, pb) = (points(vertices, &rings[a]), points(vertices, &rings[b]));
    if !separated(&pa, &pb) && !separated(&pb, &pa) {
        return Some(Error::Overlapping { region: a, other: b });
    }
    if let Some(edge) = partial_contact(&pa, &across[a], &pb, b as u32) {
        return Some(Error::UnmatchedEdge { region: a, edge, other: b });
    }
    partial_contact(&pb, &across[b], &pa, a as u32).map(|edge| Error::UnmatchedEdge {
        region: b,
        edge,
        other: a,
    })
}

/// The first problem of any two regions whose bounding boxes meet (quadratic: only for
/// input the sweep cannot judge, and for tests).
fn every_pair_problem(vertices: &[Point], rings: &[Vec<u32>], across: &[Vec<u32>]) -> Option<Error> {
    (0..rings.len())
        .find_map(|a| (a + 1..rings.len()).find_map(|b| pair_problem(vertices, rings, across, a, b)))
}

fn points(vertices: &[Point], ring: &[u32]) -> Vec<Point> {
    ring.iter().map(|&v| vertices[v as usize]).collect()
}

fn boxes_meet(a: (Point, Point), b: (Point, Point)) -> bool {
    a.0.x <= b.1.x && b.0.x <= a.1.x && a.0.y <= b.1.y && b.0.y <= a.1.y
}

/// Whether an edge of convex counter-clockwise `a` has all of `b` on or right of its line:
/// then their interiors are apart.
fn separated(a: &[Point], b: &[Point]) -> bool {
    (0..a.len()).any(|i| {
        let (p, q) = (a[i], a[(i + 1) % a.len()]);
        b.iter().all(|&x| orient(p, q, x) <= 0.0)
    })
}

/// An edge of `a` not shared with region `b` (by `across`) that runs along an edge of `b` for a
/// positive length.
#[expect(clippy::many_single_char_names, reason = "points of a figure: p q r s")]
fn partial_contact(a: &[Point], across: &[u32], b: &[Point], b_id: u32) -> Option<usize> {
    (0..a.len()).find(|&i| {
        if across[i] == b_id {
            return false;
        }
        let (p, q) = (a[i], a[(i + 1) % a.len()]);
        (0..b.len()).any(|j| {
            let (r, s) = (b[j], b[(j + 1) % b.len()]);
            orient(p, q, r) == 0.0 && orient(p, q, s) == 0.0 && overlap_length(p, q, r, s) > 0.0
        })
    })
}

/// The length along `p q` of its overlap with the collinear segment `r s`.
fn overlap_length(p: Point, q: Point, r: Point, s: Point) -> f64 {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let along = |x: Point| (x.x - p.x) * dx + (x.y - p.y) * dy;
    let (lo, hi) = (along(r).min(along(s)), along(r).max(along(s)));
    (hi.min(dx * dx + dy * dy) - lo.max(0.0)).max(0.0)
}
