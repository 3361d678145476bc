//! The walkable area as triangles: spade's constrained Delaunay triangulation of the input's
//! segments, each triangle classified (walkable, and in which area, or not) by a point
//! strictly inside it.

use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation as _};

use crate::Point;

/// "No neighbour" in the internal `u32` tables (a wall, or the outside).
pub(crate) const NONE: u32 = u32::MAX;

/// The walkable triangles: counter-clockwise vertex triples (with `y` up) and, across edge `i`
/// (from vertex `i` to `i + 1`), the walkable triangle on the other side or [`NONE`].
#[derive(Debug, Clone, Default)]
pub(crate) struct Triangles {
    pub vertices: Vec<Point>,
    pub tris: Vec<[u32; 3]>,
    pub across: Vec<[u32; 3]>,
    /// Each triangle's area tag.
    pub areas: Vec<u8>,
}

/// Triangulates `vertices` with `segments` (pairs of vertex indices) as constraints, keeping the
/// triangles whose interior point `walkable` gives an area tag: once per group of triangles joined across
/// edges that are not constraints (all on the same side of every wall), at a point strictly
/// inside the group's largest triangle that has one ([`interior_point`]); a group with none,
/// across a wall from one classified. Segments must not cross (only share end points): the inputs are
/// the traced walls of a grid or the outline of a robust union.
///
/// A vertex that spade refuses (not finite, or past its range of about 3.2e60: an agent radius
/// can push a wall's capsule there) is returned as the error.
pub(crate) fn triangulate(
    vertices: &[Point],
    segments: &[[u32; 2]],
    walkable: impl Fn(Point) -> Option<u8>,
    grouped: bool,
) -> Result<Triangles, Point> {
    let mut cdt: ConstrainedDelaunayTriangulation<Point2<f64>> = ConstrainedDelaunayTriangulation::new();
    let handles: Vec<FixedVertexHandle> = vertices
        .iter()
        .map(|p| cdt.insert(Point2::new(p.x, p.y)).map_err(|_| *p))
        .collect::<Result<_, _>>()?;
    for &[a, b] in segments {
        let (a, b) = (handles[a as usize], handles[b as usize]);
        if a != b {
            cdt.add_constraint_and_split(a, b, |p| p);
        }
    }
    let points: Vec<Point> = cdt.vertices().map(|v| Point::new(v.position().x, v.position().y)).collect();
    // Faces joined across edges that are not constraints lie on the same side of every wall:
    // classify each such group once, at an interior point of its largest triangle.
    let faces = cdt.num_inner_faces() + 1;
    let mut group = vec![NONE; faces];
    let mut walkable_group: Vec<Option<u8>> = Vec::new();
    // Groups with no point found strictly inside any of their triangles (slivers thinner than
    // the `f64` spacing of their coordinates): classified after the others, across a wall.
    let mut unresolved: Vec<(u32, Point)> = Vec::new();
    for face in cdt.inner_faces() {
        if group[face.fix().index()] != NONE {
            continue;
        }
        let id = walkable_group.len() as u32;
        if !grouped {
            // Each triangle on its own: areas may meet where no constraint separates them.
            let [pa, pb, pc] = face.vertices().map(|v| points[v.fix().index()]);
            group[face.fix().index()] = id;
            walkable_group.push(walkable(interior_point(pa, pb, pc).unwrap_or_else(|| centroid(pa, pb, pc))));
            continue;
        }
        // The group's triangles, largest first: the first with a point strictly inside it.
        let (mut stack, mut members) = (vec![face], Vec::new());
        group[face.fix().index()] = id;
        while let Some(f) = stack.pop() {
            let [pa, pb, pc] = f.vertices().map(|v| points[v.fix().index()]);
            members.push((crate::geom::orient(pa, pb, pc), [pa, pb, pc]));
            for edge in f.adjacent_edges() {
                if edge.is_constraint_edge() {
                    continue;
                }
                if let Some(next) = edge.rev().face().as_inner()
                    && group[next.fix().index()] == NONE
                {
                    group[next.fix().index()] = id;
                    stack.push(next);
                }
            }
        }
        members.sort_by(|a, b| b.0.total_cmp(&a.0));
        if let Some(p) = members.iter().find_map(|&(_, [pa, pb, pc])| interior_point(pa, pb, pc)) {
            walkable_group.push(walkable(p));
        } else {
            let [pa, pb, pc] = members[0].1;
            unresolved.push((id, centroid(pa, pb, pc)));
            walkable_group.push(Some(SLIVER));
        }
    }
    resolve_slivers(&cdt, &group, &mut walkable_group, &unresolved);
    // Any left (no wall to look across): at the largest triangle's rounded centroid.
    for (id, point) in unresolved {
        if walkable_group[id as usize] == Some(SLIVER) {
            walkable_group[id as usize] = walkable(point);
        }
    }
    let mut index = vec![NONE; faces];
    let (mut tris, mut areas) = (Vec::new(), Vec::new());
    for face in cdt.inner_faces() {
        if let Some(area) = walkable_group[group[face.fix().index()] as usize] {
            index[face.fix().index()] = tris.len() as u32;
            tris.push(face.vertices().map(|v| v.fix().index() as u32));
            areas.push(area);
        }
    }
    let mut across = vec![[NONE; 3]; tris.len()];
    for face in cdt.inner_faces() {
        let t = index[face.fix().index()];
        if t == NONE {
            continue;
        }
        for (i, edge) in face.adjacent_edges().into_iter().enumerate() {
            if let Some(other) = edge.rev().face().as_inner() {
                across[t as usize][i] = index[other.fix().index()];
            }
        }
    }
    Ok(Triangles { vertices: points, tris, across, areas })
}

/// A group's class while it is a sliver not yet classified (no area is tagged 255 by the
/// inputs that group their triangles: polygons, all of area 0).
const SLIVER: u8 = u8::MAX;

/// Classifies the sliver groups (marked [`SLIVER`]: no `f64` point strictly inside any of
/// their triangles, thinner than the spacing of their coordinates): each lies across an outline
/// edge from a classified group or the outside, and an outline edge has the walkable area on
/// exactly one side, so it is the other side. Only polygon inputs are grouped, and their
/// walkable area is one area (tag 0). Those with no wall to look across stay marked.
fn resolve_slivers(
    cdt: &ConstrainedDelaunayTriangulation<Point2<f64>>,
    group: &[u32],
    walkable_group: &mut [Option<u8>],
    unresolved: &[(u32, Point)],
) {
    let mut progress = !unresolved.is_empty();
    while progress {
        progress = false;
        for face in cdt.inner_faces() {
            let id = group[face.fix().index()] as usize;
            if walkable_group[id] != Some(SLIVER) {
                continue;
            }
            let across = face.adjacent_edges().into_iter().filter(|e| e.is_constraint_edge()).find_map(|e| {
                match e.rev().face().as_inner() {
                    None => Some(false), // the outside
                    Some(f) => {
                        let other = walkable_group[group[f.fix().index()] as usize];
                        (other != Some(SLIVER)).then_some(other.is_some())
                    }
                }
            });
            if let Some(other_walkable) = across {
                walkable_group[id] = if other_walkable { None } else { Some(0) };
                progress = true;
            }
        }
    }
}

/// The centroid of a triangle, summed from its first corner (a small triangle far from the
/// origin keeps its digits).
fn centroid(a: Point, b: Point, c: Point) -> Point {
    Point::new(a.x + ((b.x - a.x) + (c.x - a.x)) / 3.0, a.y + ((b.y - a.y) + (c.y - a.y)) / 3.0)
}

/// A point strictly inside the counter-clockwise triangle `a b c` (decided exactly): its
/// centroid, or the centroid of the triangle between it and each corner in turn, or the
/// midpoint of a median, whichever is first found inside; `None` when no such `f64` point
/// turned up (a sliver thinner than the spacing of its coordinates). Sums are taken from the
/// first corner: a centroid summed from the origin rounds by the coordinates' magnitude, and
/// on a map far from the origin fell outside a thin triangle, which was then classified by a
/// point of its neighbour (an obstacle's interior made walkable).
fn interior_point(a: Point, b: Point, c: Point) -> Option<Point> {
    let inside = |p: Point| {
        crate::geom::orient(a, b, p) > 0.0
            && crate::geom::orient(b, c, p) > 0.0
            && crate::geom::orient(c, a, p) > 0.0
    };
    let g = centroid(a, b, c);
    [
        g,
        centroid(g, b, c),
        centroid(a, g, c),
        centroid(a, b, g),
        a.midpoint(b.midpoint(c)),
        b.midpoint(c.midpoint(a)),
        c.midpoint(a.midpoint(b)),
    ]
    .into_iter()
    .find(|&p| inside(p))
}
