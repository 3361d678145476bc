//! Polygon booleans through `i_overlay` (robust: coordinates snapped to 64-bit integers, no
//! crossing left in the result), so that the triangulation is only ever given segments that
//! meet at their ends: user polygons that cross, overlap or nearly touch never reach spade's
//! splitting of crossing constraints.

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::simplify::SimplifyShape as _;
use i_overlay::float::single::SingleFloatOverlay as _;

use crate::Point;

type Contours = Vec<Vec<[f64; 2]>>;

fn contours(rings: &[Vec<Point>]) -> Contours {
    rings.iter().map(|r| r.iter().map(|p| [p.x, p.y]).collect()).collect()
}

/// The vertices and segments of a set of shapes' contours.
fn segments_of(shapes: &[Vec<Vec<[f64; 2]>>]) -> (Vec<Point>, Vec<[u32; 2]>) {
    let (mut vertices, mut segments) = (Vec::new(), Vec::new());
    for contour in shapes.iter().flatten() {
        let first = vertices.len() as u32;
        let n = contour.len() as u32;
        vertices.extend(contour.iter().map(|&[x, y]| Point::new(x, y)));
        segments.extend((0..n).map(|i| [first + i, first + (i + 1) % n]));
    }
    (vertices, segments)
}

/// The outline of the union of `rings` (nonzero winding).
pub(crate) fn union_outline(rings: &[Vec<Point>]) -> (Vec<Point>, Vec<[u32; 2]>) {
    segments_of(&contours(rings).simplify_shape_as::<i64>(FillRule::NonZero))
}

/// The outline of `boundary` minus the union of `obstacles`.
pub(crate) fn difference_outline(
    boundary: &[Point],
    obstacles: &[Vec<Point>],
) -> (Vec<Point>, Vec<[u32; 2]>) {
    let subject = contours(std::slice::from_ref(&boundary.to_vec()));
    let clip = contours(obstacles);
    segments_of(&subject.overlay_as::<i64>(&clip, OverlayRule::Difference, FillRule::NonZero))
}
