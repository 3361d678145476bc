//! What path queries return, and the buffers they reuse.

use crate::Point;
use crate::links::LinkId;

/// One step of a [`Path`], after its start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PathStep {
    /// Walk straight to this point.
    Walk(Point),
    /// Take the link (a teleporter, a ladder, a jump) from the point reached to this point.
    Link {
        /// The link.
        link: LinkId,
        /// Where it leads.
        to: Point,
    },
}

/// A path between two points of the walkable area: its first point is the start, its last the
/// goal; it walks straight between points, turning only at corners of the walls (door ends),
/// except where it takes a link.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Path {
    pub(crate) points: Vec<Point>,
    /// Links taken: `(i, link, cost)` takes `link` from `points[i]` to `points[i + 1]`.
    pub(crate) links: Vec<(usize, LinkId, f64)>,
}

impl Path {
    /// The points, start and goal included (a link's two ends are consecutive points).
    #[must_use]
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The steps after the start: walks, and the links taken.
    pub fn steps(&self) -> impl Iterator<Item = PathStep> + '_ {
        let mut links = self.links.iter().peekable();
        self.points.iter().enumerate().skip(1).map(move |(i, &to)| match links.peek() {
            Some(&&(from, link, _)) if from + 1 == i => {
                links.next();
                PathStep::Link { link, to }
            }
            _ => PathStep::Walk(to),
        })
    }

    /// The links taken, in order.
    pub fn links(&self) -> impl Iterator<Item = LinkId> + '_ {
        self.links.iter().map(|&(_, link, _)| link)
    }

    /// The cost: the Euclidean length walked plus the cost of each link taken.
    #[must_use]
    pub fn length(&self) -> f64 {
        self.walked() + self.links.iter().map(|&(_, _, cost)| cost).sum::<f64>()
    }

    /// The Euclidean length walked (links excluded).
    #[must_use]
    pub fn walked(&self) -> f64 {
        let jump = |i: usize| self.links.iter().any(|&(from, _, _)| from == i);
        self.points.windows(2).enumerate().filter(|&(i, _)| !jump(i)).map(|(_, w)| w[0].distance(w[1])).sum()
    }

    /// Whether the segment from `points[i]` to `points[i + 1]` is a link rather than a walk.
    #[must_use]
    pub fn is_link(&self, i: usize) -> bool {
        self.links.iter().any(|&(from, _, _)| from == i)
    }
}

/// Reusable buffers for path queries: with one kept between calls, queries allocate nothing
/// once warm.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    pub(crate) portals: Vec<[Point; 2]>,
}
