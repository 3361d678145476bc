//! Where agents get their next waypoint: [`Rooms`] (the corridor oracle) or [`ExactRooms`]
//! (exactly shortest paths), behind one small trait.

use signposts_rooms::{ExactRooms, ExactScratch, Point, Rooms, Scratch};

/// A source of waypoints over a mesh: [`Rooms`] or [`ExactRooms`] (or your own).
///
/// Answers must depend on their arguments only (not on earlier queries through the same
/// scratch), so that a crowd's positions do not depend on how its queries are split among
/// threads.
pub trait Waypoints: Sync {
    /// The buffers a query reuses (one per thread).
    type Scratch: Default + Send;

    /// The next corner of a shortest walk from `from` to `to` (`to` itself when in sight), or
    /// `None` when `to` cannot be reached from `from`.
    fn waypoint(&self, from: Point, to: Point, scratch: &mut Self::Scratch) -> Option<Point>;

    /// [`Waypoints::waypoint`] for each of `froms` towards one goal: `out` cleared, then one
    /// answer per point in order. The default asks one by one.
    fn waypoints_toward(
        &self,
        froms: &[Point],
        to: Point,
        out: &mut Vec<Option<Point>>,
        scratch: &mut Self::Scratch,
    ) {
        out.clear();
        out.extend(froms.iter().map(|&from| self.waypoint(from, to, scratch)));
    }
}

impl Waypoints for Rooms {
    type Scratch = Scratch;

    /// [`Rooms::next_waypoint_with`].
    fn waypoint(&self, from: Point, to: Point, scratch: &mut Scratch) -> Option<Point> {
        self.next_waypoint_with(from, to, scratch)
    }
}

impl Waypoints for ExactRooms {
    type Scratch = ExactScratch;

    /// [`ExactRooms::next_waypoint_with`].
    fn waypoint(&self, from: Point, to: Point, scratch: &mut ExactScratch) -> Option<Point> {
        self.next_waypoint_with(from, to, scratch)
    }

    /// [`ExactRooms::next_waypoint_toward_with`]: one pass over the goal's corners for many
    /// agents.
    fn waypoints_toward(
        &self,
        froms: &[Point],
        to: Point,
        out: &mut Vec<Option<Point>>,
        scratch: &mut ExactScratch,
    ) {
        self.next_waypoint_toward_with(froms, to, out, scratch);
    }
}
