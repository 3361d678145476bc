//! Agent radius: the walkable area shrunk by `r` before it is triangulated, so that every path
//! keeps at least `r` from every wall.
//!
//! Each wall segment is widened into a capsule (the points within `r` of it), drawn as a convex
//! polygon that holds the capsule: the hull of two regular 16-gons around the segment's ends
//! whose sides touch the circles of radius `r`. The capsules are united by `i_overlay` (a
//! robust boolean engine on 64-bit integers), whose outline is triangulated as the walkable
//! area's new boundary; the triangles inside any capsule are not walkable. So clearance is at
//! least `r` everywhere (the capsules are drawn a billionth larger than `r`, more than the
//! union's rounding), and at most `r / cos(π/16)` ≈ 1.02 `r` at the rounded ends; what is left
//! of a passage narrower than `2r` is closed. Capsules crossing one another were first given
//! to the triangulation as crossing constraints, and its splitting of nearly parallel
//! crossings failed an assertion inside spade on den312d: the union leaves it none.

use crate::Point;
use crate::geom::{bounding_box, orient};

/// Sides of the polygon drawn around each circle.
const SIDES: usize = 16;

/// The capsules of `walls` (pairs of points) at radius `r`, as convex counter-clockwise rings.
pub(crate) fn capsules(walls: &[(Point, Point)], r: f64) -> Vec<Vec<Point>> {
    let circumradius = r * (1.0 + 1e-9) / (std::f64::consts::PI / SIDES as f64).cos();
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
