//! Agent radius: the walkable area shrunk by `r` before it is triangulated, so that every path
//! keeps at least `r` from every wall.
//!
//! Each wall segment is widened into a capsule (the points within `r` of it), drawn as a convex
//! polygon that holds the capsule: the hull of two regular 16-gons around the segment's ends
//! whose sides touch the circles of radius `r`. The capsules are united by `i_overlay` (a
//! robust boolean engine on 64-bit integers), whose outline is triangulated as the walkable
//! area's new boundary; the triangles inside any capsule are not walkable. So clearance is at
//! least `r` everywhere (the capsules are drawn a billionth larger than `r` and
//! [`PAD_ULPS`] units in the last place of the coordinates more, beyond the rounding of their
//! corners and of the union), and at most `r / cos(π/16)` ≈ 1.02 `r` (and those few ulps) at
//! the rounded ends; what is left of a passage narrower than `2r` is closed. Capsules crossing
//! one another were first given to the triangulation as crossing constraints, and its
//! splitting of nearly parallel crossings failed an assertion inside spade on den312d: the
//! union leaves it none.
//!
//! ## The radii accepted ([`radius_range`])
//!
//! A capsule is drawn in `f64` around corners at the map's coordinates, so a radius is
//! resolved only to the units in the last place (ulps) there: at least [`MIN_RADIUS_ULPS`]
//! ulps of the largest coordinate magnitude (about 1.5e-11 on a map 64 across, 1.5e-5 at 1e8;
//! below it the 16-gons collapse onto their centres and the union silently loses walls), and
//! at most what keeps the widened walls within the triangulation's range (±3.2e60). A radius
//! of 0 means none. [`check_radius`] says which, before any work.

use crate::Point;
use crate::error::Error;
use crate::geom::{bounding_box, magnitude, orient, ulp};

/// Sides of the polygon drawn around each circle.
const SIDES: usize = 16;

/// The smallest radius accepted, in units in the last place of the map's largest coordinate
/// magnitude: each 16-gon's corners then round by under a thousandth of the radius.
pub(crate) const MIN_RADIUS_ULPS: f64 = 1024.0;

/// The capsules' margin beyond the radius, in units in the last place of the largest
/// coordinate: more than the rounding of their corners (half an ulp each way) and of the
/// union's integer grid (finer than an ulp).
const PAD_ULPS: f64 = 8.0;

/// How much larger than the radius a 16-gon's corners lie: its sides then touch the circle.
fn circumradius_factor() -> f64 {
    (1.0 + 1e-9) / (std::f64::consts::PI / SIDES as f64).cos()
}

/// The agent radii accepted for walls whose corners are `corners`: `(smallest, largest)`
/// (and 0, for no radius). See the module's documentation.
pub(crate) fn radius_range(corners: impl IntoIterator<Item = Point>) -> (f64, f64) {
    let m = magnitude(corners);
    let smallest = MIN_RADIUS_ULPS * ulp(m);
    // The capsules' corners reach `m + r · factor + pad`: kept under the triangulation's limit
    // with a thousandth to spare for the rounding of the sum.
    let largest = (spade::MAX_ALLOWED_VALUE * 0.999 - m) / circumradius_factor() - PAD_ULPS * ulp(m);
    (smallest, largest.max(0.0))
}

/// [`Error::BadRadius`] for a negative or not finite `radius`, [`Error::RadiusOutOfRange`]
/// for one outside [`radius_range`] (0 is always accepted): checked before any work.
///
/// Not called yet: the builders in `input.rs` are to call it first thing (`mesh_of`), with the
/// walls' corners.
///
/// # Errors
/// As said.
pub(crate) fn check_radius(corners: impl IntoIterator<Item = Point>, radius: f64) -> Result<(), Error> {
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(Error::BadRadius { radius });
    }
    if radius == 0.0 {
        return Ok(());
    }
    let (min, max) = radius_range(corners);
    if radius < min || radius > max {
        return Err(Error::RadiusOutOfRange { radius, min, max });
    }
    Ok(())
}

/// The capsules of `walls` (pairs of points) at radius `r`, as convex counter-clockwise rings.
///
/// Drawn at `r` kept within [`radius_range`] and no larger than twice the walls' box's
/// diagonal: every walkable point lies in that box, within its diagonal of every wall, so a
/// larger radius leaves nothing walkable just as that one does, and never sends the
/// capsules' corners past what the union and the triangulation take. (A radius below the
/// range is refused by [`check_radius`] first; drawn at the smallest accepted, the capsules
/// still keep `r` from every wall.)
pub(crate) fn capsules(walls: &[(Point, Point)], r: f64) -> Vec<Vec<Point>> {
    let corners = || walls.iter().flat_map(|&(a, b)| [a, b]);
    let (lo, hi) = bounding_box(corners());
    let diagonal = if walls.is_empty() { 0.0 } else { lo.distance(hi) };
    let (smallest, largest) = radius_range(corners());
    let r = r.min(2.0 * diagonal).min(largest).max(smallest);
    let circumradius = r * circumradius_factor() + PAD_ULPS * ulp(magnitude(corners()) + r);
    let around = |c: Point| {
        (0..SIDES).map(move |i| {
            let angle = (i as f64 + 0.5) * std::f64::consts::TAU / SIDES as f64;
            Point::new(c.x + circumradius * angle.cos(), c.y + circumradius * angle.sin())
        })
    };
    walls.iter().map(|&(a, b)| hull(around(a).chain(around(b)).collect())).collect()
}

/// The convex hull, counter-clockwise (Andrew's monotone chain, exact turns), collinear points
/// dropped.
fn hull(mut points: Vec<Point>) -> Vec<Point> {
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let mut lower: Vec<Point> = Vec::new();
    for &p in &points {
        while lower.len() >= 2 && orient(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<Point> = Vec::new();
    for &p in points.iter().rev() {
        while upper.len() >= 2 && orient(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Finds the capsules holding a point: a uniform grid of buckets over their bounding boxes.
pub(crate) struct CapsuleIndex<'a> {
    capsules: &'a [Vec<Point>],
    min: Point,
    cell: f64,
    columns: usize,
    rows: usize,
    buckets: Vec<Vec<u32>>,
}

impl<'a> CapsuleIndex<'a> {
    #[expect(clippy::cast_sign_loss, reason = "extents are not negative")]
    pub(crate) fn new(capsules: &'a [Vec<Point>], r: f64) -> CapsuleIndex<'a> {
        let (min, max) = bounding_box(capsules.iter().flatten().copied());
        let cell = (4.0 * r).max((max.x - min.x).max(max.y - min.y) / 1024.0).max(f64::MIN_POSITIVE);
        let (columns, rows) = if capsules.is_empty() {
            (1, 1)
        } else {
            (((max.x - min.x) / cell) as usize + 1, ((max.y - min.y) / cell) as usize + 1)
        };
        let mut index =
            CapsuleIndex { capsules, min, cell, columns, rows, buckets: vec![Vec::new(); columns * rows] };
        for (k, ring) in capsules.iter().enumerate() {
            let (lo, hi) = bounding_box(ring.iter().copied());
            let ((c0, r0), (c1, r1)) = (index.bucket(lo), index.bucket(hi));
            for row in r0..=r1 {
                for column in c0..=c1 {
                    index.buckets[row * columns + column].push(k as u32);
                }
            }
        }
        index
    }

    #[expect(clippy::cast_sign_loss, reason = "clamped to the grid first")]
    fn bucket(&self, p: Point) -> (usize, usize) {
        let column = ((p.x - self.min.x) / self.cell).floor().clamp(0.0, (self.columns - 1) as f64) as usize;
        let row = ((p.y - self.min.y) / self.cell).floor().clamp(0.0, (self.rows - 1) as f64) as usize;
        (column, row)
    }

    /// Whether `p` is inside a capsule (strictly: a point on a capsule's edge is not).
    pub(crate) fn covers(&self, p: Point) -> bool {
        if self.capsules.is_empty() || !p.is_finite() {
            return false;
        }
        let (column, row) = self.bucket(p);
        self.buckets[row * self.columns + column].iter().any(|&k| {
            let ring = &self.capsules[k as usize];
            (0..ring.len()).all(|i| orient(ring[i], ring[(i + 1) % ring.len()], p) > 0.0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radii_outside_what_the_coordinates_resolve_are_refused() {
        let map = [Point::new(0.0, 0.0), Point::new(64.0, 64.0)];
        let (min, max) = radius_range(map);
        assert!(min > 1e-11 && min < 2e-11, "{min}");
        assert!(max > 3e60 && max < 3.2e60, "{max}");
        assert_eq!(check_radius(map, 0.0), Ok(()));
        assert_eq!(check_radius(map, 0.4), Ok(()));
        assert_eq!(check_radius(map, 1e60), Ok(()));
        for radius in [1e-15, 1e-16, 5e-324, 1e154, 1e300] {
            assert_eq!(
                check_radius(map, radius),
                Err(Error::RadiusOutOfRange { radius, min, max }),
                "{radius}"
            );
        }
        assert!(matches!(check_radius(map, -1.0), Err(Error::BadRadius { .. })));
        assert!(matches!(check_radius(map, f64::NAN), Err(Error::BadRadius { .. })));
        // Relative to the coordinates: the same map far from the origin resolves less.
        let far = map.map(|p| Point::new(p.x + 1e8, p.y + 1e8));
        assert!(radius_range(far).0 > 1e-5, "{:?}", radius_range(far));
        let message = check_radius(map, 1e-15).unwrap_err().to_string();
        assert!(message.contains("from 1.455") && message.contains("e-11 to 3.1"), "{message}");
    }

    #[test]
    fn capsules_hold_the_circle_at_any_magnitude() {
        for (offset, r) in [(0.0, 0.25), (5e6, 0.25), (1e8, 1e-4), (1e12, 1.0), (0.0, 1e-11)] {
            let (a, b) = (Point::new(offset, offset), Point::new(offset + 3.0, offset + 1.0));
            let ring = &capsules(&[(a, b)], r)[0];
            // Every side of the capsule lies at least `r` from the wall (its ends included).
            for i in 0..ring.len() {
                let (p, q) = (ring[i], ring[(i + 1) % ring.len()]);
                for c in [a, b] {
                    assert!(orient(p, q, c) > 0.0);
                    let (dx, dy) = (q.x - p.x, q.y - p.y);
                    let distance = ((c.x - p.x) * dy - (c.y - p.y) * dx).abs() / dx.hypot(dy);
                    assert!(distance >= r, "{offset} {r}: side {i} at {distance}");
                }
            }
        }
    }
}
