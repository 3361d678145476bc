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
/// edges that are not constraints (all on the same side of every wall), at the centroid of the
/// group's largest triangle. Segments must not cross (only share end points): the inputs are
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
    for face in cdt.inner_faces() {
        if group[face.fix().index()] != NONE {
            continue;
        }
        let id = walkable_group.len() as u32;
        if !grouped {
            // Each triangle on its own: areas may meet where no constraint separates them.
            let [pa, pb, pc] = face.vertices().map(|v| points[v.fix().index()]);
            group[face.fix().index()] = id;
            walkable_group.push(walkable(Point::new((pa.x + pb.x + pc.x) / 3.0, (pa.y + pb.y + pc.y) / 3.0)));
            continue;
        }
        let (mut stack, mut best) = (vec![face], (f64::NEG_INFINITY, Point::default()));
        group[face.fix().index()] = id;
        while let Some(f) = stack.pop() {
            let [pa, pb, pc] = f.vertices().map(|v| points[v.fix().index()]);
            let area = crate::geom::orient(pa, pb, pc);
            if area > best.0 {
                best = (area, Point::new((pa.x + pb.x + pc.x) / 3.0, (pa.y + pb.y + pc.y) / 3.0));
            }
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
        walkable_group.push(walkable(best.1));
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
