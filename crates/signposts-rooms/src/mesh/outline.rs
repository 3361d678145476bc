//! Polygon booleans through `i_overlay` (robust: coordinates snapped to 64-bit integers, no
//! crossing left in the result), so that the triangulation is only ever given segments that
//! meet at their ends: user polygons that cross, overlap or nearly touch never reach spade's
//! splitting of crossing constraints.
//!
//! ## Precision
//!
//! The union lays an integer grid over the box holding its input: its half extent, rounded up
//! to a power of two `2^e`, spans 2^61 steps. A corner off that grid moves to the nearest
//! step (2^-61 of the half extent: finer than the `f64` spacing of any coordinate of that
//! magnitude, so only corners far nearer the origin than the world is wide move at all), and
//! a ring narrower than about 2^(e-53) vanishes (measured: a square or a sliver that wide is
//! kept, half that is dropped). [`below_resolution`] refuses rings narrower than
//! [`resolution`], 2^(e-50): 8 times that, so no ring is lost. Gaps narrower than that
//! between two rings may close.

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::simplify::SimplifyShape as _;
use i_overlay::float::single::SingleFloatOverlay as _;

use crate::Point;
use crate::error::{Error, Ring};
use crate::geom::bounding_box;

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

/// The narrowest ring the union of rings in the box `(lo, hi)` keeps with a margin: 2^(e-50)
/// for the box's half extent rounded up to `2^e` (the module's documentation). 0 for an
/// empty or degenerate box.
pub(crate) fn resolution((lo, hi): (Point, Point)) -> f64 {
    let half = (hi.x - lo.x).max(hi.y - lo.y) / 2.0;
    if !(half > 0.0 && half.is_finite()) {
        return 0.0;
    }
    (half.log2().ceil() - 50.0).exp2()
}

/// A ring's mean width: twice its area over its perimeter (a rectangle's shorter side, within
/// a factor of two; half a square's side; about a sliver's height). Its area is summed from its
/// first corner, so a ring far from the origin keeps its digits.
pub(crate) fn mean_width(ring: &[Point]) -> f64 {
    let Some(&o) = ring.first() else { return 0.0 };
    let n = ring.len();
    let (mut area2, mut perimeter) = (0.0, 0.0);
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        area2 += (a.x - o.x) * (b.y - o.y) - (b.x - o.x) * (a.y - o.y);
        perimeter += a.distance(b);
    }
    if perimeter > 0.0 { area2.abs() / perimeter } else { 0.0 }
}

/// The rings of a polygon input narrower ([`mean_width`]) than the union of all of them
/// resolves ([`resolution`]): [`Error::BelowResolution`] for each, the boundary first, then
/// the obstacles in order. To be checked with the input's other problems, before any work:
/// not called yet, `NavMeshBuilder::validate` (in `input.rs`) is to add them to its list.
pub(crate) fn below_resolution(boundary: &[Point], obstacles: &[Vec<Point>]) -> Vec<Error> {
    let rings = || {
        std::iter::once((Ring::Boundary, boundary))
            .chain(obstacles.iter().enumerate().map(|(i, o)| (Ring::Obstacle(i), o.as_slice())))
    };
    let resolution = resolution(bounding_box(rings().flat_map(|(_, r)| r.iter().copied())));
    rings()
        .filter_map(|(ring, points)| {
            let width = mean_width(points);
            (width < resolution).then_some(Error::BelowResolution { ring, width, resolution })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, s: f64) -> Vec<Point> {
        vec![Point::new(x, y), Point::new(x + s, y), Point::new(x + s, y + s), Point::new(x, y + s)]
    }

    /// Obstacles the union drops are refused; those it keeps (down to about 2^-53 of the
    /// world's half extent) are not.
    #[test]
    #[expect(clippy::float_cmp, reason = "powers of two")]
    fn rings_narrower_than_the_union_resolves_are_refused() {
        for k in [0, 10, 30, 56, 57, 100, 150] {
            let size = f64::from(k).exp2();
            let world = square(0.0, 0.0, size);
            let resolution = resolution(bounding_box(world.iter().copied()));
            // The refused width and below is what the union would drop (or nearly).
            for j in -10..=0 {
                let s = resolution * f64::from(j).exp2() * 2.0;
                let obstacle = square(s, s, s);
                let refused = !below_resolution(&world, std::slice::from_ref(&obstacle)).is_empty();
                let (_, segments) = difference_outline(&world, std::slice::from_ref(&obstacle));
                let kept = segments.len() == 8;
                assert!(refused || kept, "world 2^{k}: obstacle {s} accepted but dropped");
                assert_eq!(refused, j < 0, "world 2^{k}: obstacle {s}");
            }
        }
        // The reported case: a unit obstacle in a world 1e17 across.
        let problems = below_resolution(&square(0.0, 0.0, 1e17), &[square(1000.0, 1000.0, 1.0)]);
        assert!(
            matches!(problems[..], [Error::BelowResolution { ring: Ring::Obstacle(0), width, resolution }] if width == 0.5 && resolution == 64.0),
            "{problems:?}"
        );
        assert!(below_resolution(&square(0.0, 0.0, 1e14), &[square(1000.0, 1000.0, 1.0)]).is_empty());
        // A sliver: long, but thinner than the resolution.
        let sliver = vec![Point::new(1.0, 1.0), Point::new(9.0, 1.0), Point::new(9.0, 1.0 + 1e-15)];
        assert_eq!(below_resolution(&square(0.0, 0.0, 16.0), &[sliver]).len(), 1);
    }
}
