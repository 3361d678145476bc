//! Points and the one place where sides are decided.
//!
//! Every decision that depends on which side of a line a point lies (convexity while merging
//! regions, point location, the funnel) calls [`orient`], Shewchuk's adaptive exact predicate
//! (the `robust` crate): its sign is exact for any finite `f64` input, so no epsilon decides
//! anything. Lengths and centroids are plain `f64` arithmetic and only rank paths.

use core::fmt;

/// A point of the plane, in the map's units (grid maps: cell units, cell `(x, y)` spans
/// `[x, x + 1] × [y, y + 1]`, its centre is `(x + 0.5, y + 0.5)`).
///
/// ```
/// use signposts_rooms::Point;
/// let p = Point::new(3.0, 4.0);
/// assert_eq!(p.distance(Point::new(0.0, 0.0)), 5.0);
/// assert_eq!(Point::from((1.0, 2.0)), Point::new(1.0, 2.0));
/// ```
#[derive(Clone, Copy, PartialEq, Default)]
pub struct Point {
    /// The first coordinate (a grid's column).
    pub x: f64,
    /// The second coordinate (a grid's row).
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    ///
    /// ```
    /// use signposts_rooms::Point;
    /// let p = Point::new(1.5, -2.0);
    /// assert_eq!((p.x, p.y), (1.5, -2.0));
    /// ```
    #[inline]
    #[must_use]
    pub const fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// The Euclidean distance to `other`.
    ///
    /// ```
    /// use signposts_rooms::Point;
    /// let (a, b) = (Point::new(1.0, 1.0), Point::new(4.0, 5.0));
    /// assert_eq!(a.distance(b), 5.0);
    /// assert_eq!(b.distance(a), 5.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn distance(self, other: Point) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// Whether both coordinates are finite.
    ///
    /// ```
    /// use signposts_rooms::Point;
    /// assert!(Point::new(1.0, -1e300).is_finite());
    /// assert!(!Point::new(f64::NAN, 0.0).is_finite());
    /// assert!(!Point::new(0.0, f64::INFINITY).is_finite());
    /// ```
    #[inline]
    #[must_use]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// The point halfway to `other`.
    #[inline]
    #[must_use]
    pub(crate) fn midpoint(self, other: Point) -> Point {
        Point::new(self.x.midpoint(other.x), self.y.midpoint(other.y))
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl From<(f64, f64)> for Point {
    fn from((x, y): (f64, f64)) -> Point {
        Point::new(x, y)
    }
}

impl From<[f64; 2]> for Point {
    fn from([x, y]: [f64; 2]) -> Point {
        Point::new(x, y)
    }
}

/// Twice the signed area of the triangle `a b c`, with an exact sign: positive when `c` lies to
/// the left of the line `a → b` (a counter-clockwise turn, with `y` pointing up), negative to
/// the right, zero exactly when the three points are collinear.
///
/// Shewchuk's filter inline (the floating-point determinant, returned when it is farther from
/// zero than its worst rounding error), then his adaptive exact evaluation (the `robust`
/// crate) when it is not: most calls never leave this function.
#[inline]
pub(crate) fn orient(a: Point, b: Point, c: Point) -> f64 {
    /// Shewchuk's `ccwerrboundA`: (3 + 16ε)ε with ε = 2^-53.
    const ERROR_BOUND: f64 = (3.0 + 16.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0);
    let left = (a.x - c.x) * (b.y - c.y);
    let right = (a.y - c.y) * (b.x - c.x);
    let det = left - right;
    let sum = if left > 0.0 {
        if right <= 0.0 {
            return det;
        }
        left + right
    } else if left < 0.0 {
        if right >= 0.0 {
            return det;
        }
        -left - right
    } else {
        return det;
    };
    let bound = ERROR_BOUND * sum;
    if det >= bound || -det >= bound {
        return det;
    }
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// One unit in the last place at `x`'s magnitude: the gap from `|x|` to the next larger
/// `f64`. Every tolerance of this crate's geometry is a few of these at the magnitude of the
/// coordinates involved (never an absolute length, nor a fraction of the map's size): `f64`
/// holds `1e8` to about `1.5e-8` and `1e-3` to about `2e-19`, so a tolerance that suits one
/// is below a rounding at the other.
#[inline]
pub(crate) fn ulp(x: f64) -> f64 {
    let a = x.abs();
    f64::from_bits(a.to_bits() + 1) - a
}

/// The largest coordinate magnitude of `points` (0 for none): what [`ulp`] is taken at.
pub(crate) fn magnitude(points: impl IntoIterator<Item = Point>) -> f64 {
    points.into_iter().fold(0.0, |m, p| m.max(p.x.abs()).max(p.y.abs()))
}

/// The smallest axis-aligned box `(low corner, high corner)` holding `points` (inverted,
/// infinite corners when there are none).
pub(crate) fn bounding_box(points: impl IntoIterator<Item = Point>) -> (Point, Point) {
    points.into_iter().fold(
        (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
        |(lo, hi), p| (Point::new(lo.x.min(p.x), lo.y.min(p.y)), Point::new(hi.x.max(p.x), hi.y.max(p.y))),
    )
}

/// Twice the signed area of a ring (positive when counter-clockwise). Not exact: used for
/// areas and orientation of rings whose vertices were validated, never for a side decision
/// between nearly collinear points. Summed relative to the first vertex, so that a ring far
/// from the origin keeps its digits (at 1e15, the products of the coordinates themselves
/// round by more than a small ring's area, which then came out as zero).
pub(crate) fn signed_area2(ring: &[Point]) -> f64 {
    let Some(&o) = ring.first() else { return 0.0 };
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            (a.x - o.x) * (b.y - o.y) - (b.x - o.x) * (a.y - o.y)
        })
        .sum()
}

/// Whether the closed segments `a b` and `c d` share a point, exactly.
pub(crate) fn segments_touch(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return true;
    }
    (o1 == 0.0 && within_box(a, b, c))
        || (o2 == 0.0 && within_box(a, b, d))
        || (o3 == 0.0 && within_box(c, d, a))
        || (o4 == 0.0 && within_box(c, d, b))
}

/// For `p` collinear with `a b`: whether it lies on the closed segment.
fn within_box(a: Point, b: Point, p: Point) -> bool {
    a.x.min(b.x) <= p.x && p.x <= a.x.max(b.x) && a.y.min(b.y) <= p.y && p.y <= a.y.max(b.y)
}

/// Whether the closed segments `a b` and `c d` cross or overlap anywhere other than at a shared
/// endpoint: what makes a ring self-intersecting when the two are edges of it.
#[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d p q")]
pub(crate) fn segments_cross_properly(a: Point, b: Point, c: Point, d: Point) -> bool {
    if !segments_touch(a, b, c, d) {
        return false;
    }
    // Touching only at one shared endpoint is allowed (consecutive edges); anything more is not.
    let shared = [(a, c), (a, d), (b, c), (b, d)].into_iter().filter(|(p, q)| p == q).count();
    if shared == 0 {
        return true;
    }
    // One shared endpoint: they cross elsewhere only if they are collinear and overlap.
    orient(a, b, c) == 0.0 && orient(a, b, d) == 0.0 && {
        let other = |p: Point, q: Point, r: Point, s: Point| if p == r || p == s { q } else { p };
        let (x, y) = (other(a, b, c, d), other(c, d, a, b));
        within_box(a, b, y) || within_box(c, d, x)
    }
}

/// Winding number of `ring` around `p` (nonzero: inside), exact in its side tests. A point on
/// the ring's boundary may count either way; callers only ask about points strictly inside a
/// triangle, which never lie on a constraint edge.
#[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d p q")]
pub(crate) fn winding(ring: &[Point], p: Point) -> i32 {
    let n = ring.len();
    let mut w = 0;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if a.y <= p.y {
            if b.y > p.y && orient(a, b, p) > 0.0 {
                w += 1;
            }
        } else if b.y <= p.y && orient(a, b, p) < 0.0 {
            w -= 1;
        }
    }
    w
}

/// The lexicographic order of points, `x` first (`-0.0` and `0.0` are the same place): the
/// order the sweeps over ring and region edges visit vertices in.
pub(crate) fn lex(a: Point, b: Point) -> core::cmp::Ordering {
    (a.x + 0.0).total_cmp(&(b.x + 0.0)).then((a.y + 0.0).total_cmp(&(b.y + 0.0)))
}

/// The distance from `p` to the segment `a b`, and the place of the nearest point along it (0
/// at `a`, 1 at `b`).
pub(crate) fn segment_distance(a: Point, b: Point, p: Point) -> (f64, f64) {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length2 = dx * dx + dy * dy;
    let t =
        if length2 > 0.0 { (((p.x - a.x) * dx + (p.y - a.y) * dy) / length2).clamp(0.0, 1.0) } else { 0.0 };
    (p.distance(Point::new(a.x + t * dx, a.y + t * dy)), t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inline_filter_agrees_with_the_exact_predicate() {
        let mut rng = signposts::generate::SplitMix64::new(5);
        let coordinate = |rng: &mut signposts::generate::SplitMix64| match rng.below(3) {
            0 => rng.below(8) as f64,
            1 => rng.below(8) as f64 + 0.1 * rng.below(3) as f64,
            _ => f64::from_bits(rng.below(u64::MAX)).clamp(-1e6, 1e6),
        };
        for _ in 0..200_000 {
            let mut p = || Point::new(coordinate(&mut rng), coordinate(&mut rng));
            let (a, b, c) = (p(), p(), p());
            let exact = robust::orient2d(
                robust::Coord { x: a.x, y: a.y },
                robust::Coord { x: b.x, y: b.y },
                robust::Coord { x: c.x, y: c.y },
            );
            let fast = orient(a, b, c);
            assert_eq!(fast.partial_cmp(&0.0), exact.partial_cmp(&0.0), "{a:?} {b:?} {c:?}");
        }
    }

    #[test]
    #[expect(clippy::float_cmp, reason = "the predicate is exact")]
    fn orientation_is_exact_on_nearly_collinear_points() {
        let (a, b) = (Point::new(0.5, 0.5), Point::new(12.0, 12.0));
        let c = Point::new(24.0, 24.0);
        assert_eq!(orient(a, b, c), 0.0);
        let nudged = Point::new(24.0, f64::from_bits(24f64.to_bits() + 1));
        assert!(orient(a, b, nudged) > 0.0);
    }

    #[test]
    fn segments_cross_only_beyond_a_shared_endpoint() {
        let p = |x, y| Point::new(x, y);
        assert!(!segments_cross_properly(p(0., 0.), p(1., 0.), p(1., 0.), p(1., 1.)));
        assert!(segments_cross_properly(p(0., 0.), p(2., 2.), p(0., 2.), p(2., 0.)));
        assert!(segments_cross_properly(p(0., 0.), p(2., 0.), p(1., 0.), p(3., 0.)));
        assert!(segments_cross_properly(p(0., 0.), p(2., 0.), p(2., 0.), p(1., 0.))); // folds back
        assert!(!segments_cross_properly(p(0., 0.), p(1., 0.), p(2., 0.), p(3., 0.)));
    }

    #[test]
    #[expect(clippy::float_cmp, reason = "powers of two")]
    fn ulps_scale_with_the_magnitude() {
        assert_eq!(ulp(1.0), f64::EPSILON);
        assert_eq!(ulp(-4.0), 4.0 * f64::EPSILON);
        assert_eq!(ulp(5e6), 2f64.powi(22 - 52));
        assert!(ulp(0.0) > 0.0);
        assert_eq!(magnitude([Point::new(-3.0, 1.0), Point::new(2.0, 2.5)]), 3.0);
    }

    #[test]
    #[expect(clippy::float_cmp, reason = "exact on a quarter grid")]
    fn a_rings_area_keeps_its_digits_far_from_the_origin() {
        for offset in [0.0, 5e6, 1e12, 1e15, -1e15] {
            let square = [(0.0, 0.0), (0.5, 0.0), (0.5, 0.5), (0.0, 0.5)]
                .map(|(x, y)| Point::new(offset + x, offset + y));
            assert_eq!(signed_area2(&square), 0.5, "{offset}");
        }
    }

    #[test]
    fn winding_counts_either_orientation() {
        let square = [Point::new(0., 0.), Point::new(2., 0.), Point::new(2., 2.), Point::new(0., 2.)];
        assert_eq!(winding(&square, Point::new(1., 1.)), 1);
        let mut reversed = square;
        reversed.reverse();
        assert_eq!(winding(&reversed, Point::new(1., 1.)), -1);
        assert_eq!(winding(&square, Point::new(3., 1.)), 0);
    }
}
