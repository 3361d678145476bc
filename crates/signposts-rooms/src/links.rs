//! Links (Detour's off-mesh connections; the article's teleporters): arcs of the region oracle
//! between two points that share no door — teleporters, ladders, jumps down a ledge, stairs
//! between floors given as separate parts of one mesh.

use core::fmt;

use crate::Point;
use crate::mesh::RegionId;

/// A link of a [`Rooms`](crate::Rooms), numbered in the order they were added.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkId(pub u32);

impl fmt::Debug for LinkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "l{}", self.0)
    }
}

/// A link: from one point to another, at a cost, one way or both.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Link {
    /// Where it is entered, and where it leads (both ways when `two_way`).
    pub ends: [Point; 2],
    /// The regions of the two ends.
    pub regions: [RegionId; 2],
    /// What taking it costs, in the map's length units.
    pub cost: f64,
    /// Whether it can also be taken from `ends[1]` to `ends[0]`.
    pub two_way: bool,
}
