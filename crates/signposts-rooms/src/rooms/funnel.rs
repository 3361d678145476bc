//! String pulling through a corridor of doors (the "simple stupid funnel" algorithm,
//! Mononen 2010): the shortest polyline from a start point through a sequence of portals, each
//! a segment `[left, right]` the path must cross, turning only at portal ends.
//!
//! It is resumable: portals are fed as the corridor is walked, and corners come out as soon as
//! they are certain, so [`Rooms::next_waypoint`](crate::Rooms::next_waypoint) stops at the
//! first one without walking the whole corridor. Side tests are exact ([`orient`]).

use crate::Point;
use crate::geom::orient;

/// A funnel's state over a list of portals that grows (the caller keeps the list).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Funnel {
    apex: Point,
    left: Point,
    right: Point,
    apex_i: usize,
    left_i: usize,
    right_i: usize,
    /// The next portal to look at.
    i: usize,
}

impl Funnel {
    /// A funnel at `start`; the caller's portal list must begin with `[start, start]`.
    #[inline]
    pub(crate) fn new(start: Point) -> Funnel {
        Funnel { apex: start, left: start, right: start, apex_i: 0, left_i: 0, right_i: 0, i: 1 }
    }

    /// Looks at the portals not seen yet, and returns the next corner as soon as it is
    /// certain (then call again: the portals after it are looked at again from the corner).
    /// `None` when every portal has been looked at without a new corner.
    #[inline]
    pub(crate) fn advance(&mut self, portals: &[[Point; 2]]) -> Option<Point> {
        while self.i < portals.len() {
            let [pl, pr] = portals[self.i];
            // A portal the apex stands on is passed already: crossing it costs nothing, and
            // its ends, on either side of the apex on one line, would make a funnel of 180°.
            if self.apex == self.left && self.apex == self.right && on_segment(pl, pr, self.apex) && pl != pr
            {
                self.i += 1;
                continue;
            }
            // The right leg moves in when the new right end is left of (or on) it. (A leg of
            // zero length takes any end: tested first, it also spares the exact predicate its
            // slow path, which a zero-length leg always takes.)
            let right_open = self.apex == self.right;
            if right_open || orient(self.apex, self.right, pr) >= 0.0 {
                if right_open || orient(self.apex, self.left, pr) < 0.0 {
                    (self.right, self.right_i) = (pr, self.i);
                } else if let Some(corner) = self.turn(self.left, self.left_i) {
                    return Some(corner);
                } else {
                    continue;
                }
            }
            // The left leg moves in when the new left end is right of (or on) it.
            let left_open = self.apex == self.left;
            if left_open || orient(self.apex, self.left, pl) <= 0.0 {
                if left_open || orient(self.apex, self.right, pl) > 0.0 {
                    (self.left, self.left_i) = (pl, self.i);
                } else if let Some(corner) = self.turn(self.right, self.right_i) {
                    return Some(corner);
                } else {
                    continue;
                }
            }
            self.i += 1;
        }
        None
    }

    /// The leg's end becomes the apex: a corner of the path, unless it is where the funnel
    /// already stands (a start exactly on a door's end: the walker is at that corner, and the
    /// next corner is the one to head for).
    fn turn(&mut self, corner: Point, index: usize) -> Option<Point> {
        let moved = corner != self.apex;
        self.apex = corner;
        (self.left, self.right) = (corner, corner);
        (self.apex_i, self.left_i, self.right_i) = (index, index, index);
        self.i = index + 1;
        moved.then_some(corner)
    }
}

/// Whether `p` lies on the closed segment `a b`, exactly.
fn on_segment(a: Point, b: Point, p: Point) -> bool {
    orient(a, b, p) == 0.0
        && a.x.min(b.x) <= p.x
        && p.x <= a.x.max(b.x)
        && a.y.min(b.y) <= p.y
        && p.y <= a.y.max(b.y)
}

/// The whole path through `portals` (which start with `[start, start]` and end with
/// `[goal, goal]`) after `start`, into `out`: every corner, then the goal.
pub(crate) fn pull(portals: &[[Point; 2]], out: &mut Vec<Point>) {
    let (Some(&[start, _]), Some(&[goal, _])) = (portals.first(), portals.last()) else { return };
    let first = out.len();
    let mut funnel = Funnel::new(start);
    while let Some(corner) = funnel.advance(portals) {
        out.push(corner);
    }
    // The funnel ends at the goal without emitting it when its last leg needs no turn.
    if out.len() == first || out.last() != Some(&goal) {
        out.push(goal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corners(portals: &[[Point; 2]]) -> Vec<Point> {
        let mut out = Vec::new();
        pull(portals, &mut out);
        out
    }

    #[test]
    fn a_start_on_the_corner_heads_for_the_next_corner_not_the_start() {
        let p = Point::new;
        // Standing on the inner corner (2, 1) of a bend, the end of the door ahead: the next
        // corner is the goal, not the corner stood on.
        let (s, t) = (p(2.0, 1.0), p(2.5, 2.5));
        let portals = [[s, s], [p(2.0, 1.0), p(3.0, 1.0)], [t, t]];
        assert_eq!(corners(&portals), [t]);
        let mut funnel = Funnel::new(s);
        assert_eq!(funnel.advance(&portals), None); // no turn: straight to the goal
    }

    #[test]
    fn a_straight_corridor_has_no_corner() {
        let p = Point::new;
        let s = p(0.0, 0.5);
        let t = p(5.0, 0.5);
        // Walking east (+x) with y up: the left end of each door is the upper one.
        let portals = [[s, s], [p(1.0, 1.0), p(1.0, 0.0)], [p(3.0, 1.0), p(3.0, 0.0)], [t, t]];
        assert_eq!(corners(&portals), [t]);
    }

    #[test]
    fn the_path_hugs_the_inner_corner_of_a_bend() {
        let p = Point::new;
        let (s, t) = (p(0.5, 0.5), p(2.5, 2.5));
        // East through x = 1 (door from y 0 to 1), then north through y = 1 at x in [2, 3]:
        // the path turns at the corner (2, 1).
        let portals = [[s, s], [p(1.0, 1.0), p(1.0, 0.0)], [p(2.0, 1.0), p(3.0, 1.0)], [t, t]];
        assert_eq!(corners(&portals), [p(2.0, 1.0), t]);
    }
}
