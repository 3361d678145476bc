//! Point location: which region holds a point, through a uniform grid of buckets over the
//! mesh's bounding box (about sixteen a region), each listing the regions that meet it. A bucket
//! that lies inside one region answers without a test (most buckets of open ground); the others
//! test their few regions with exact side tests.

use crate::Point;
use crate::geom::{bounding_box, magnitude, orient, ulp};

/// The buckets.
#[derive(Debug, Clone, Default)]
pub(crate) struct Locator {
    min: Point,
    /// Buckets per unit of length, each way.
    scale: f64,
    columns: u32,
    rows: u32,
    /// Regions of bucket `b`: `regions[start[b]..start[b + 1]]`.
    start: Vec<u32>,
    regions: Vec<u32>,
    /// Whether bucket `b` lies inside its one region (no test needed).
    covered: Vec<bool>,
}

impl Locator {
    #[expect(clippy::cast_sign_loss, reason = "sizes are positive, rounded up")]
    /// Buckets for `rings` (convex, counter-clockwise, as point lists): about two buckets a
    /// region, square.
    pub(crate) fn new(rings: &[Vec<Point>]) -> Locator {
        let (min, max) = bounding_box(rings.iter().flatten().copied());
        if rings.is_empty() {
            return Locator::default();
        }
        let (w, h) = ((max.x - min.x).max(f64::MIN_POSITIVE), (max.y - min.y).max(f64::MIN_POSITIVE));
        let buckets = (64 * rings.len()).clamp(1024, 1 << 22) as f64;
        let scale = (buckets / (w * h)).sqrt();
        let columns = ((w * scale).ceil() as u32).clamp(1, 1 << 12);
        let rows = ((h * scale).ceil() as u32).clamp(1, 1 << 12);
        let scale_x = f64::from(columns) / w;
        let scale_y = f64::from(rows) / h;
        let scale = scale_x.min(scale_y);
        let mut locator = Locator {
            min,
            scale,
            columns,
            rows,
            start: Vec::new(),
            regions: Vec::new(),
            covered: Vec::new(),
        };
        // The grid's corners bound every coordinate `bucket` and `rect` meet.
        let pad = PAD_ULPS * ulp(magnitude([min, max, locator.rect(columns - 1, rows - 1)[2]]));
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); (columns * rows) as usize];
        for (r, ring) in rings.iter().enumerate() {
            let (lo, hi) = bounding_box(ring.iter().copied());
            let (c0, r0) = locator.bucket(lo);
            let (c1, r1) = locator.bucket(hi);
            // Buckets a few ulps larger ([`padded`]: the rounding of `bucket` and `rect`): a
            // region touching a bucket's edge is listed there, so a point on that edge finds it.
            let (c0, r0) = (c0.saturating_sub(1), r0.saturating_sub(1));
            let (c1, r1) = ((c1 + 1).min(columns - 1), (r1 + 1).min(rows - 1));
            for row in r0..=r1 {
                // Only the columns the ring spans within this row's band (a long slanted
                // region crosses many rows but few columns in each): a column more each side
                // for the rounding, the exact test below deciding.
                let band = padded(locator.rect(c0, row), pad);
                let Some((x_lo, x_hi)) = x_span(ring, band[0].y, band[2].y) else { continue };
                let (first, _) = locator.bucket(Point::new(x_lo, band[0].y));
                let (last, _) = locator.bucket(Point::new(x_hi, band[0].y));
                let (first, last) = (first.saturating_sub(1).max(c0), (last + 1).min(c1));
                for column in first..=last {
                    if meets(ring, &padded(locator.rect(column, row), pad)) {
                        lists[(row * columns + column) as usize].push(r as u32);
                    }
                }
            }
        }
        locator.start.push(0);
        for (b, list) in lists.into_iter().enumerate() {
            let (column, row) = (b as u32 % columns, b as u32 / columns);
            // A bucket inside one region (a few ulps larger, for the rounding of `bucket`).
            let padded = padded(locator.rect(column, row), pad);
            let inside = list
                .iter()
                .find(|&&r| padded.iter().all(|&p| convex_contains(rings[r as usize].iter().copied(), p)));
            locator.covered.push(inside.is_some());
            match inside {
                Some(&r) => locator.regions.push(r),
                None => locator.regions.extend(list),
            }
            locator.start.push(locator.regions.len() as u32);
        }
        locator
    }

    /// The corners of bucket `(column, row)`, counter-clockwise.
    fn rect(&self, column: u32, row: u32) -> [Point; 4] {
        let (x0, y0) =
            (self.min.x + f64::from(column) / self.scale, self.min.y + f64::from(row) / self.scale);
        let (x1, y1) =
            (self.min.x + f64::from(column + 1) / self.scale, self.min.y + f64::from(row + 1) / self.scale);
        [Point::new(x0, y0), Point::new(x1, y0), Point::new(x1, y1), Point::new(x0, y1)]
    }

    /// The bucket holding `p`, clamped to the grid (a saturating cast: no call to `floor`).
    #[inline]
    #[expect(clippy::cast_sign_loss, reason = "a negative offset saturates to bucket 0, as wanted")]
    fn bucket(&self, p: Point) -> (u32, u32) {
        let column = (((p.x - self.min.x) * self.scale) as u32).min(self.columns - 1);
        let row = (((p.y - self.min.y) * self.scale) as u32).min(self.rows - 1);
        (column, row)
    }

    /// The regions that may hold `p` (none when `p` is not finite), and whether the first
    /// surely does (its bucket lies inside it). Points outside the grid are clamped to its
    /// edge buckets, whose regions then do not hold them.
    #[inline]
    pub(crate) fn candidates(&self, p: Point) -> (&[u32], bool) {
        if self.start.is_empty() || !p.is_finite() {
            return (&[], false);
        }
        let (column, row) = self.bucket(p);
        let b = (row * self.columns + column) as usize;
        let inside = self.covered[b]
            && (p.x - self.min.x) * self.scale < f64::from(self.columns)
            && (p.y - self.min.y) * self.scale < f64::from(self.rows)
            && p.x >= self.min.x
            && p.y >= self.min.y;
        (&self.regions[self.start[b] as usize..self.start[b + 1] as usize], inside)
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.start.len() + self.regions.len()) * size_of::<u32>() + self.covered.len()
    }
}

/// How far every bucket is grown each way before regions are listed in it, in units in the
/// last place of the mesh's largest coordinate: more than the rounding of
/// [`Locator::bucket`] (a subtraction and a product: a few ulps of the coordinates and of the
/// box's corner) and of [`Locator::rect`] (as many). Relative to the coordinates, not to the
/// bucket: a billionth of a bucket's width, as it was, is below one ulp on a map far from the
/// origin (a bucket half a unit wide at 5e6, where an ulp is 1e-9), and a point on a bucket's
/// edge then missed the regions just across it. Growing a bucket more than needed only lists
/// a region more in it.
const PAD_ULPS: f64 = 8.0;

/// The least and greatest `x` of convex `ring` between the lines `y = y_lo` and `y = y_hi`
/// (its corners in the band and its edges' crossings of the two lines), `None` when it does
/// not reach the band.
fn x_span(ring: &[Point], y_lo: f64, y_hi: f64) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut take = |x: f64| {
        lo = lo.min(x);
        hi = hi.max(x);
    };
    for (i, &p) in ring.iter().enumerate() {
        let q = ring[(i + 1) % ring.len()];
        if (y_lo..=y_hi).contains(&p.y) {
            take(p.x);
        }
        for y in [y_lo, y_hi] {
            if (p.y < y) != (q.y < y) {
                take(p.x + (y - p.y) / (q.y - p.y) * (q.x - p.x));
            }
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// `rect` grown by `pad` each way.
fn padded(rect: [Point; 4], pad: f64) -> [Point; 4] {
    [
        Point::new(rect[0].x - pad, rect[0].y - pad),
        Point::new(rect[1].x + pad, rect[1].y - pad),
        Point::new(rect[2].x + pad, rect[2].y + pad),
        Point::new(rect[3].x - pad, rect[3].y + pad),
    ]
}

/// Whether the convex counter-clockwise `ring` meets the rectangle `rect` (closed): no edge of
/// either has the other wholly on its outer side.
fn meets(ring: &[Point], rect: &[Point; 4]) -> bool {
    let separates = |a: &[Point], b: &[Point]| {
        (0..a.len()).any(|i| {
            let (p, q) = (a[i], a[(i + 1) % a.len()]);
            b.iter().all(|&x| orient(p, q, x) < 0.0)
        })
    };
    !separates(ring, rect) && !separates(rect, ring)
}

/// Whether the convex counter-clockwise polygon `ring` holds `p` (its boundary included),
/// decided exactly.
pub(crate) fn convex_contains(ring: impl Iterator<Item = Point> + Clone, p: Point) -> bool {
    let mut next = ring.clone().cycle().skip(1);
    ring.into_iter().all(|a| orient(a, next.next().expect("a cycle"), p) >= 0.0)
}

/// [`convex_contains`] on a slice of vertex ids, with a bounding-box test first.
#[inline]
pub(crate) fn ring_contains(vertices: &[Point], ring: &[u32], (lo, hi): (Point, Point), p: Point) -> bool {
    if p.x < lo.x || p.x > hi.x || p.y < lo.y || p.y > hi.y {
        return false;
    }
    let mut a = vertices[ring[ring.len() - 1] as usize];
    for &v in ring {
        let b = vertices[v as usize];
        if orient(a, b, p) < 0.0 {
            return false;
        }
        a = b;
    }
    true
}
