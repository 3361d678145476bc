//! Point location: which region holds a point, through a uniform grid of buckets over the
//! mesh's bounding box, each listing the regions whose bounding boxes overlap it; a query
//! tests the few regions of one bucket with exact side tests.

use crate::Point;
use crate::geom::orient;

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
}

impl Locator {
    #[expect(clippy::cast_sign_loss, reason = "sizes are positive, rounded up")]
    /// Buckets for `rings` (convex, counter-clockwise, as point lists): about two buckets a
    /// region, square.
    pub(crate) fn new(rings: &[Vec<Point>]) -> Locator {
        let points = rings.iter().flatten();
        let (mut min, mut max) =
            (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        for p in points {
            (min.x, min.y, max.x, max.y) = (min.x.min(p.x), min.y.min(p.y), max.x.max(p.x), max.y.max(p.y));
        }
        if rings.is_empty() {
            return Locator::default();
        }
        let (w, h) = ((max.x - min.x).max(f64::MIN_POSITIVE), (max.y - min.y).max(f64::MIN_POSITIVE));
        let buckets = (2 * rings.len()).clamp(1, 1 << 22) as f64;
        let scale = (buckets / (w * h)).sqrt();
        let columns = ((w * scale).ceil() as u32).clamp(1, 1 << 12);
        let rows = ((h * scale).ceil() as u32).clamp(1, 1 << 12);
        let scale_x = f64::from(columns) / w;
        let scale_y = f64::from(rows) / h;
        let scale = scale_x.min(scale_y);
        let mut locator = Locator { min, scale, columns, rows, start: Vec::new(), regions: Vec::new() };
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); (columns * rows) as usize];
        for (r, ring) in rings.iter().enumerate() {
            let (lo, hi) = bounding_box(ring);
            let (c0, r0) = locator.bucket(lo);
            let (c1, r1) = locator.bucket(hi);
            for row in r0..=r1 {
                for column in c0..=c1 {
                    lists[(row * columns + column) as usize].push(r as u32);
                }
            }
        }
        locator.start.push(0);
        for list in lists {
            locator.regions.extend(list);
            locator.start.push(locator.regions.len() as u32);
        }
        locator
    }

    /// The bucket holding `p`, clamped to the grid.
    #[expect(clippy::cast_sign_loss, reason = "clamped to the grid first")]
    fn bucket(&self, p: Point) -> (u32, u32) {
        let column = ((p.x - self.min.x) * self.scale).floor().clamp(0.0, f64::from(self.columns - 1)) as u32;
        let row = ((p.y - self.min.y) * self.scale).floor().clamp(0.0, f64::from(self.rows - 1)) as u32;
        (column, row)
    }

    /// The regions whose bounding boxes may hold `p` (none when `p` is outside the grid).
    pub(crate) fn candidates(&self, p: Point) -> &[u32] {
        if self.start.is_empty() || !p.is_finite() {
            return &[];
        }
        let (column, row) = self.bucket(p);
        let b = (row * self.columns + column) as usize;
        &self.regions[self.start[b] as usize..self.start[b + 1] as usize]
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.start.len() + self.regions.len()) * size_of::<u32>()
    }
}

fn bounding_box(ring: &[Point]) -> (Point, Point) {
    ring.iter().fold(
        (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
        |(lo, hi), p| (Point::new(lo.x.min(p.x), lo.y.min(p.y)), Point::new(hi.x.max(p.x), hi.y.max(p.y))),
    )
}

/// Whether the convex counter-clockwise polygon `ring` holds `p` (its boundary included),
/// decided exactly.
pub(crate) fn convex_contains(ring: impl Iterator<Item = Point> + Clone, p: Point) -> bool {
    let mut next = ring.clone().cycle().skip(1);
    ring.into_iter().all(|a| orient(a, next.next().expect("a cycle"), p) >= 0.0)
}
