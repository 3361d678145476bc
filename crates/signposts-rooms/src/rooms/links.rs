//! Links (Detour's off-mesh connections; the article's teleporters): arcs of the region oracle
//! between two points that share no door — teleporters, ladders, jumps down a ledge, stairs
//! between floors given as separate parts of one mesh.

use core::fmt;

use crate::Point;
use crate::mesh::RegionId;

/// A link of a [`Rooms`](crate::Rooms), numbered in the order they were added.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{LinkId, NavMesh, Point, Rooms};
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
/// let (a, b, c) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5), Point::new(3.5, 1.5));
/// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, false).link(a, c, 5.0, false).build()?;
/// assert_eq!(rooms.links()[1].ends[1], c); // LinkId(1): the second added
/// let path = rooms.path(Point::new(0.5, 0.5), Point::new(4.5, 0.5)).expect("across");
/// assert_eq!(path.links().collect::<Vec<_>>(), [LinkId(0)]); // the cheaper one
/// assert_eq!(format!("{:?}", LinkId(1)), "l1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkId(pub u32);

impl fmt::Debug for LinkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "l{}", self.0)
    }
}

/// A link: from one point to another, at a cost, one way or both.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{Link, NavMesh, Point, Rooms};
/// // A jump down from the left room into the right one: one way.
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
/// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
/// let rooms = Rooms::builder(&mesh).link(a, b, 2.0, false).build()?;
/// let link: Link = rooms.links()[0];
/// assert_eq!((link.ends, link.cost, link.two_way), ([a, b], 2.0, false));
/// assert_ne!(link.regions[0], link.regions[1]); // rooms that share no door
/// let (left, right) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
/// assert!(rooms.path(left, right).is_some());
/// assert_eq!(rooms.path(right, left), None); // no way back up
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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

impl Link {
    /// Whether the link can be taken from its end `end` (0 always; 1 when two-way).
    pub(crate) fn departs_from(&self, end: usize) -> bool {
        end == 0 || self.two_way
    }

    /// Whether the link can be taken to its end `end` (1 always; 0 when two-way).
    pub(crate) fn arrives_at(&self, end: usize) -> bool {
        end == 1 || self.two_way
    }
}
