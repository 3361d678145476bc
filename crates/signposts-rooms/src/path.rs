//! What path queries return, and the buffers they reuse.

use crate::LinkId;
use crate::Point;

/// One step of a [`Path`], after its start.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{NavMesh, PathStep, Point, Rooms};
/// // Two rooms with no door between them, and a teleporter costing 1.
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
/// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
/// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
/// let (start, goal) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
/// let path = rooms.path(start, goal).expect("through the teleporter");
/// let said: Vec<String> = path
///     .steps()
///     .map(|step| match step {
///         PathStep::Walk(to) => format!("walk to {to}"),
///         PathStep::Link { link, to } => format!("take {link:?} to {to}"),
///     })
///     .collect();
/// assert_eq!(said, ["walk to (1.5, 0.5)", "take l0 to (3.5, 0.5)", "walk to (4.5, 0.5)"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{NavMesh, Point, Rooms};
/// // Two rooms with no door between them, and a teleporter costing 1.
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
/// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
/// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
/// let (start, goal) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
/// let path = rooms.path(start, goal).expect("through the teleporter");
/// assert_eq!(path.points().first(), Some(&start));
/// assert_eq!(path.points().last(), Some(&goal));
/// assert_eq!(path.length(), path.walked() + 1.0); // the walk, and the teleporter's cost
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Path {
    pub(crate) points: Vec<Point>,
    /// Links taken: `(i, link, cost)` takes `link` from `points[i]` to `points[i + 1]`.
    pub(crate) links: Vec<(usize, LinkId, f64)>,
}

impl Path {
    /// The points, start and goal included (a link's two ends are consecutive points).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a teleporter costing 1.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (start, goal) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// let path = rooms.path(start, goal).expect("through the teleporter");
    /// assert_eq!(path.points(), [start, a, b, goal]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The steps after the start: walks, and the links taken.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{LinkId, NavMesh, PathStep, Point, Rooms};
    /// // Two rooms with no door between them, and a teleporter costing 1.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (start, goal) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// let path = rooms.path(start, goal).expect("through the teleporter");
    /// let steps: Vec<PathStep> = path.steps().collect();
    /// assert_eq!(steps, [PathStep::Walk(a), PathStep::Link { link: LinkId(0), to: b }, PathStep::Walk(goal)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{LinkId, NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a teleporter costing 1.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (start, goal) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// let path = rooms.path(start, goal).expect("through the teleporter");
    /// assert_eq!(path.links().collect::<Vec<_>>(), [LinkId(0)]);
    /// let within = rooms.path(start, Point::new(1.5, 1.5)).expect("in the same room");
    /// assert_eq!(within.links().count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn links(&self) -> impl Iterator<Item = LinkId> + '_ {
        self.links.iter().map(|&(_, link, _)| link)
    }

    /// The cost: the Euclidean length walked plus the cost of each link taken.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a teleporter costing 1.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (start, goal) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// let path = rooms.path(start, goal).expect("through the teleporter");
    /// assert_eq!(path.length(), 3.0); // 1 walked to the teleporter, 1 for it, 1 from it
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn length(&self) -> f64 {
        self.walked() + self.links.iter().map(|&(_, _, cost)| cost).sum::<f64>()
    }

    /// The Euclidean length walked (links excluded).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a teleporter costing 1.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (start, goal) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// let path = rooms.path(start, goal).expect("through the teleporter");
    /// assert_eq!(path.walked(), 2.0); // the jump from (1.5, 0.5) to (3.5, 0.5) is not walked
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn walked(&self) -> f64 {
        let jump = |i: usize| self.links.iter().any(|&(from, _, _)| from == i);
        self.points.windows(2).enumerate().filter(|&(i, _)| !jump(i)).map(|(_, w)| w[0].distance(w[1])).sum()
    }

    /// Whether the segment from `points[i]` to `points[i + 1]` is a link rather than a walk.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a teleporter costing 1.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (start, goal) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// let path = rooms.path(start, goal).expect("through the teleporter");
    /// let jumps: Vec<bool> = (0..path.points().len() - 1).map(|i| path.is_link(i)).collect();
    /// assert_eq!(jumps, [false, true, false]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn is_link(&self, i: usize) -> bool {
        self.links.iter().any(|&(from, _, _)| from == i)
    }
}

/// Reusable buffers for path queries: with one kept between calls, queries allocate nothing
/// once warm.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{NavMesh, Point, Rooms, Scratch};
/// // A room above a wall, a room below it, and a bend round the wall's end on the right.
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
/// let rooms = Rooms::build(&mesh)?;
/// let player = Point::new(0.5, 2.5);
/// let enemies = [Point::new(0.5, 0.5), Point::new(1.5, 0.5), Point::new(2.5, 1.5)];
/// let mut scratch = Scratch::default(); // one for every query of the tick
/// let headings: Vec<_> =
///     enemies.iter().map(|&e| rooms.next_waypoint_with(e, player, &mut scratch)).collect();
/// let (round, down) = (Point::new(2.0, 1.0), Point::new(2.0, 2.0)); // the wall's two corners
/// assert_eq!(headings, [Some(round), Some(round), Some(down)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    pub(crate) portals: Vec<[Point; 2]>,
}
